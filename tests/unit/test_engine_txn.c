/* test_engine_txn.c: transactions, savepoints, logging modes, serials,
 * error codes, lock waits between two sessions on two threads, and crash
 * safety (kill -9 during autocommit inserts). */
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

#include "test_engine_util.h"

static double now_s(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* the second session, on its own thread */
typedef struct lockarg {
    const char *sql;
    int wait_s;
    int sqlcode, isam;
    double elapsed;
    char out[64];
} lockarg;

static void *second_writer(void *ap) {
    lockarg *a = ap;
    ixd_db *db;
    ixd_err e;
    int fl;
    if (ixd_db_open(E, "tx", "other", &db, &fl, &e)) {
        a->sqlcode = 1;
        return NULL;
    }
    char set[64];
    snprintf(set, sizeof set, "set lock mode to wait %d", a->wait_s);
    ixd_stmt *s;
    ixd_prepare(db, set, strlen(set), &s, &e);
    ixd_execute(s, NULL, NULL, NULL, &e);
    ixd_stmt_free(s);
    double t0 = now_s();
    memset(&e, 0, sizeof e);
    if (ixd_prepare(db, a->sql, strlen(a->sql), &s, &e) == 0) {
        if (ixd_stmt_type(s) == 2) {
            ix_wbuf b;
            ix_wbuf_init(&b, NULL);
            int n = 0;
            if (ixd_open(s, 0, &e) == 0)
                while (ixd_fetch(s, &b, &e) == 1)
                    n++;
            snprintf(a->out, sizeof a->out, "%d", n);
            ix_wbuf_free(&b);
        } else {
            ixd_execute(s, NULL, NULL, NULL, &e);
        }
        ixd_stmt_free(s);
    }
    a->elapsed = now_s() - t0;
    a->sqlcode = e.sqlcode;
    a->isam = e.isamcode;
    ixd_db_close(db);
    return NULL;
}

static void crash_test(void) {
    CHECK_RUN("create table crash (id integer primary key, pad varchar(100))", 0);
    ixd_db_close(D);
    D = NULL;
    int fds[2];
    if (pipe(fds)) return;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        ixd_engine *e2;
        ixd_db *db;
        ixd_err e;
        int fl;
        if (ixd_engine_open(&e2, DIR_, &e) || ixd_db_open(e2, "tx", "child", &db, &fl, &e))
            _exit(2);
        ixd_stmt *s;
        const char *ins =
            "insert into crash values (?, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')";
        if (ixd_prepare(db, ins, strlen(ins), &s, &e)) _exit(3);
        for (int32_t i = 1; i < 1000000; i++) {
            uint8_t v[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
            ix_vtype t = {IX_T_INTEGER, 4};
            if (ixd_bind(s, 0, t, v, 4, &e) || ixd_execute(s, NULL, NULL, NULL, &e)) _exit(4);
            if (write(fds[1], v, 4) != 4) _exit(5);
        }
        _exit(0);
    }
    close(fds[1]);
    int32_t *ids = malloc(sizeof(int32_t) * 1000000);
    size_t n = 0;
    uint8_t v[4];
    size_t have = 0;
    int killed = 0;
    for (;;) {
        ssize_t r = read(fds[0], v + have, 4 - have);
        if (r <= 0) break;
        have += (size_t)r;
        if (have == 4) {
            ids[n++] =
                (int32_t)((uint32_t)v[0] << 24 | (uint32_t)v[1] << 16 | (uint32_t)v[2] << 8 | v[3]);
            have = 0;
            if (n == 300 && !killed) {
                kill(pid, SIGKILL);
                killed = 1;
            }
        }
    }
    int st;
    waitpid(pid, &st, 0);
    close(fds[0]);
    CHECK(killed && WIFSIGNALED(st), "child killed (n=%zu)", n);
    int fl;
    CHECK(ixd_db_open(E, "tx", "tester", &D, &fl, &ERR) == 0, "reopen");
    size_t missing = 0;
    char sql[100];
    for (size_t i = 0; i < n; i++) {
        snprintf(sql, sizeof sql, "select count(*) from crash where id = %d", ids[i]);
        if (strcmp(q(sql), "1")) missing++;
    }
    CHECK(missing == 0, "%zu of %zu committed rows missing after kill -9", missing, n);
    free(ids);
}

int main(void) {
    eu_setup("txn");
    CHECK_RUN("create database nolog", 0);
    CHECK_RUN("create table t (a int)", 0);
    CHECK_RUN("begin work", -256);
    CHECK(ixd_begin(D, &ERR) == -1 && ERR.sqlcode == -256, "ixd_begin nolog");
    CHECK_RUN("insert into t values (1)", 0);
    CHECK_Q("select a from t", "1");

    CHECK_RUN("create database tx with log", 0);
    CHECK_RUN("create table t (a int, b char(5))", 0);
    CHECK_RUN("commit work", -255);
    CHECK_RUN("rollback work", -255);
    CHECK_RUN("begin work", 0);
    CHECK(ixd_in_transaction(D) == 1, "in txn");
    CHECK_RUN("begin work", -535);
    CHECK_RUN("insert into t values (1, 'a')", 0);
    CHECK_RUN("rollback work", 0);
    CHECK(ixd_in_transaction(D) == 0, "not in txn");
    CHECK_Q("select count(*) from t", "0");
    CHECK_RUN("begin", 0);
    CHECK_RUN("insert into t values (2, 'b')", 0);
    CHECK_RUN("commit", 0);
    CHECK_RUN("insert into t values (3, 'c')", 0); /* autocommit */
    CHECK_Q("select a from t order by a", "2\n3");
    /* savepoints */
    CHECK_RUN("savepoint s0", -255);
    CHECK(ixd_begin(D, &ERR) == 0, "ixd_begin");
    CHECK_RUN("insert into t values (10, 'x')", 0);
    CHECK_RUN("savepoint s1", 0);
    CHECK_RUN("insert into t values (11, 'y')", 0);
    CHECK_RUN("rollback work to savepoint s1", 0);
    CHECK_RUN("insert into t values (12, 'z')", 0);
    CHECK_RUN("savepoint s2", 0);
    CHECK_RUN("release savepoint s2", 0);
    CHECK_RUN("rollback to savepoint nosuch", -83);
    CHECK(ixd_commit(D, &ERR) == 0, "ixd_commit");
    CHECK_Q("select a from t where a >= 10 order by a", "10\n12");
    CHECK(ixd_rollback(D, &ERR) == -1 && ERR.sqlcode == -255, "ixd_rollback -255");
    CHECK(ixd_commit(D, &ERR) == -1 && ERR.sqlcode == -255, "ixd_commit -255");
    /* a failing statement inside a transaction leaves the transaction */
    CHECK_RUN("create table u (k int unique)", 0);
    CHECK_RUN("begin work", 0);
    CHECK_RUN("insert into u values (1)", 0);
    CHECK_RUN("insert into u values (1)", -268);
    CHECK(ERR.isamcode == -100, "isam %d", ERR.isamcode);
    CHECK_RUN("insert into u values (2)", 0);
    CHECK_RUN("commit work", 0);
    CHECK_Q("select k from u order by k", "1\n2");
    CHECK_RUN("set isolation to committed read", 0);
    CHECK_RUN("set isolation dirty read", 0);
    CHECK_RUN("set transaction isolation level read committed", 0);
    CHECK_RUN("set lock mode to wait 2", 0);
    CHECK_RUN("set lock mode to not wait", 0);

    /* ANSI: implicit transactions */
    CHECK_RUN("create database ansi with log mode ansi", 0);
    CHECK_RUN("create table a (x int)", 0);
    CHECK(ixd_in_transaction(D) == 1, "ansi implicit txn");
    CHECK_RUN("commit work", 0);
    CHECK_RUN("insert into a values (1)", 0);
    CHECK_RUN("rollback work", 0);
    CHECK_Q("select count(*) from a", "0");
    CHECK_RUN("rollback work", 0);

    /* serials */
    CHECK_RUN("database tx", 0);
    CHECK_RUN("create table s (id serial(100), v int)", 0);
    CHECK_RUN("insert into s (v) values (1)", 0);
    CHECK(SERIAL == 100, "serial %d", SERIAL);
    CHECK_RUN("insert into s values (500, 2)", 0);
    CHECK(SERIAL == 500, "serial %d", SERIAL);
    CHECK_RUN("insert into s values (0, 3)", 0);
    CHECK(SERIAL == 501, "serial %d", SERIAL);
    CHECK_RUN("insert into s values (200, 4)", 0);
    CHECK_RUN("insert into s values (0, 5)", 0);
    CHECK(SERIAL == 502, "serial %d", SERIAL);
    CHECK_Q("select dbinfo('sqlca.sqlerrd1') from s where v = 1", "502");
    CHECK_RUN("create table s8 (id serial8, v int)", 0);
    CHECK_RUN("insert into s8 (v) values (1)", 0);
    CHECK_RUN("insert into s8 values (0, 1)", 0);
    CHECK(SERIAL8 == 2, "serial8 %lld", (long long)SERIAL8);
    CHECK_RUN("create table bs (id bigserial(5000000000), v int)", 0);
    CHECK_RUN("insert into bs (v) values (1)", 0);
    CHECK(SERIAL8 == 5000000000LL, "bigserial %lld", (long long)SERIAL8);
    CHECK_Q("select dbinfo('bigserial'), dbinfo('serial8') from bs", "5000000000|2");
    CHECK_RUN("insert into s (v) select v from s where v < 3", 0);
    CHECK(ROWS == 2, "rows %lld", (long long)ROWS);
    CHECK_Q("select id from s where id > 502 order by id", "503\n504");

    /* error codes */
    CHECK_RUN("create table e (k int, c char(3), d decimal(5,2), dt date, ts datetime year to "
              "second, n int not null, ck int check (ck > 0) constraint ck_pos)",
              0);
    CHECK_RUN("create unique index e_k on e (k)", 0);
    CHECK_RUN("create unique index e_k on e (c)", -316);
    CHECK_RUN("create index e_x on e (nosuch)", -217);
    CHECK_RUN("create index e_y on nosuch (k)", -206);
    CHECK_RUN("insert into e (k, n) values (1, 1)", 0);
    CHECK_RUN("insert into e (k, n) values (1, 1)", -239);
    CHECK(ERR.isamcode == -100, "isam");
    CHECK_RUN("insert into e (k) values (2)", -391);
    CHECK_RUN("insert into e (k, n, ck) values (3, 1, 0)", -530);
    CHECK(strstr(ERR.text, "ck_pos") != NULL, "text %s", ERR.text);
    CHECK_RUN("insert into e (k, n) values ('abc', 1)", -1213);
    CHECK_RUN("insert into e (dt, n) values ('13/45/2024', 1)", -1206);
    CHECK_RUN("insert into e (dt, n) values ('xyz', 1)", -1218);
    CHECK_RUN("insert into e (d, n) values (12345.6, 1)", -1226);
    CHECK_RUN("insert into e (ts, n) values ('2024-01-01 1x:00:00', 1)", -1262);
    CHECK_RUN("insert into e (ts, n) values ('2024-01-01 10:00:00 xyz', 1)", -1264);
    CHECK_RUN("insert into e (ts, n) values ('2024-13-01 10:00:00', 1)", -1263);
    CHECK_RUN("alter table e add (k int)", -328);
    CHECK_RUN("drop index nosuch", -319);
    CHECK_RUN("drop table nosuch", -206);
    CHECK_RUN("update e set k = 5 / 0", -1202);
    CHECK_RUN("create table p (id int primary key)", 0);
    CHECK_RUN("create table c (pid int references p)", 0);
    CHECK_RUN("insert into p values (1)", 0);
    CHECK_RUN("insert into c values (1)", 0);
    CHECK_RUN("insert into c values (2)", -691);
    CHECK_RUN("delete from p", -692);
    CHECK_RUN("insert into p values (1)", -268);

    /* ALTER / RENAME keep data */
    CHECK_RUN("create table al (a int, b varchar(10))", 0);
    CHECK_RUN("insert into al values (1, '42')", 0);
    CHECK_RUN("alter table al add (c date default '01/02/2003')", 0);
    CHECK_RUN("alter table al modify (b integer)", 0);
    CHECK_Q("select a, b + 1, c from al", "1|43|01/02/2003");
    CHECK_RUN("alter table al drop (a)", 0);
    CHECK_RUN("rename column al.b to bb", 0);
    CHECK_RUN("rename table al to al2", 0);
    CHECK_Q("select bb from al2", "42");
    CHECK_Q("select colname, colno from syscolumns c, systables t where c.tabid = t.tabid and "
            "tabname = 'al2' order by colno",
            "bb|1\nc|2");

    /* lock waits: a writer holds the database; another waits WAIT 1, then fails */
    CHECK_RUN("begin work", 0);
    CHECK_RUN("insert into t values (99, 'lock')", 0);
    lockarg la = {"insert into t values (100, 'w')", 1, 0, 0, 0, ""};
    pthread_t th;
    pthread_create(&th, NULL, second_writer, &la);
    pthread_join(th, NULL);
    CHECK(la.sqlcode == -271 && la.isam == -154, "second writer %d/%d", la.sqlcode, la.isam);
    CHECK(la.elapsed >= 0.9 && la.elapsed < 5, "waited %.2f s", la.elapsed);
    lockarg lr = {"select * from t", 0, 0, 0, 0, ""};
    pthread_create(&th, NULL, second_writer, &lr);
    pthread_join(th, NULL);
    CHECK(lr.sqlcode == 0 && !strcmp(lr.out, "4"), "reader during write %d rows %s", lr.sqlcode,
          lr.out);
    CHECK_RUN("commit work", 0);
    lockarg lb = {"insert into t values (101, 'ok')", 1, 0, 0, 0, ""};
    pthread_create(&th, NULL, second_writer, &lb);
    pthread_join(th, NULL);
    CHECK(lb.sqlcode == 0, "writer after commit %d", lb.sqlcode);

    crash_test();
    eu_teardown();
    return tap_done();
}
