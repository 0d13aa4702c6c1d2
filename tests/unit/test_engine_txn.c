/* test_engine_txn.c: the C API of transactions (ixd_begin, ixd_commit,
 * ixd_rollback, ixd_in_transaction, also in a MODE ANSI database), lock
 * waits between two sessions on two threads, and crash safety (kill -9
 * during autocommit inserts). The SQL of transactions, serials and errors
 * is in tests/sql/engine_txn.test, engine_dml.test and engine_errors.test. */
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
    ixv_err e;
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
            ixb_wbuf b;
            ixb_wbuf_init(&b, NULL);
            int n = 0;
            if (ixd_open(s, 0, &e) == 0)
                while (ixd_fetch(s, &b, &e) == 1)
                    n++;
            snprintf(a->out, sizeof a->out, "%d", n);
            ixb_wbuf_free(&b);
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
        ixv_err e;
        int fl;
        if (ixd_engine_open(&e2, DIR_, &e) || ixd_db_open(e2, "tx", "child", &db, &fl, &e))
            _exit(2);
        ixd_stmt *s;
        const char *ins =
            "insert into crash values (?, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')";
        if (ixd_prepare(db, ins, strlen(ins), &s, &e)) _exit(3);
        for (int32_t i = 1; i < 1000000; i++) {
            uint8_t v[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
            ixt_vtype t = {IX_T_INTEGER, 4};
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
    /* the C API of transactions (their SQL is in tests/sql/engine_txn.test) */
    CHECK_RUN("create database nolog", 0);
    CHECK(ixd_begin(D, &ERR) == -1 && ERR.sqlcode == -256, "ixd_begin nolog");

    CHECK_RUN("create database tx with log", 0);
    CHECK_RUN("create table t (a int, b char(5))", 0);
    CHECK(ixd_in_transaction(D) == 0, "no txn yet");
    CHECK_RUN("begin work", 0);
    CHECK(ixd_in_transaction(D) == 1, "in txn");
    CHECK_RUN("insert into t values (1, 'a')", 0);
    CHECK_RUN("rollback work", 0);
    CHECK(ixd_in_transaction(D) == 0, "not in txn");
    CHECK(ixd_begin(D, &ERR) == 0, "ixd_begin");
    CHECK(ixd_in_transaction(D) == 1, "in txn after ixd_begin");
    CHECK_RUN("begin work", -535);
    for (int i = 2; i <= 5; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "insert into t values (%d, 'x')", i);
        CHECK_RUN(sql, 0);
    }
    CHECK(ixd_commit(D, &ERR) == 0, "ixd_commit");
    CHECK(ixd_in_transaction(D) == 0, "not in txn after ixd_commit");
    CHECK_Q("select a from t order by a", "2\n3\n4\n5");
    CHECK(ixd_rollback(D, &ERR) == -1 && ERR.sqlcode == -255, "ixd_rollback -255");
    CHECK(ixd_commit(D, &ERR) == -1 && ERR.sqlcode == -255, "ixd_commit -255");
    CHECK(ixd_begin(D, &ERR) == 0, "ixd_begin again");
    CHECK_RUN("insert into t values (6, 'y')", 0);
    CHECK(ixd_rollback(D, &ERR) == 0, "ixd_rollback");
    CHECK_Q("select count(*) from t", "4");

    /* ANSI: implicit transactions */
    CHECK_RUN("create database ansi with log mode ansi", 0);
    CHECK_RUN("create table a (x int)", 0);
    CHECK(ixd_in_transaction(D) == 1, "ansi implicit txn");
    CHECK_RUN("commit work", 0);
    CHECK(ixd_in_transaction(D) == 0, "ansi after commit");
    CHECK_RUN("insert into a values (1)", 0);
    CHECK(ixd_in_transaction(D) == 1, "ansi implicit txn after insert");
    CHECK_RUN("rollback work", 0);
    CHECK_RUN("database tx", 0);

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
