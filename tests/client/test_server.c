/*
 * test_server.c: the SQL-level checks of ixd's codec-level integration tests
 * (tests/integration/test_ixd.c and test_ixd_sessions.c) expressed through
 * libixdb: login errors (-951, -329), CREATE DATABASE and -330, column
 * types, encoded lengths and names from the describe, errors (-201, -206,
 * -217, -268, -391) with offsets and texts, a SELECT through ix_step (a
 * cursor, never the EXECUTE that the server answers with -260), fetch-buffer
 * round trips, pipelined inserts as a batch, transactions (-255, -256,
 * -535), the catalog (FIRST 10), SERIAL8 / BIGSERIAL, lock waits between two
 * connections, concurrent sessions, and recovery after kill -9 and rollback
 * at SIGTERM.
 *
 * What stays at codec level (only the wire shows it): message tags (ERR then
 * EOT, XACTSTAT, INSERTDONE after an INSERT's describe), the granted
 * capability bits, SQ_EXIT answered and the socket closed, -260 for EXECUTE
 * of a SELECT, scroll cursors with SFETCH and TUPID (libixdb has no scroll
 * cursor), BYTE/TEXT with FETCHBLOB and lone EOTs, garbage before the login,
 * unknown tags, message-size limits, TLS and users files at the server.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define USER "informix"
#define PASS "in4mix"

static ixd_proc P;

static int try_connect(ix_conn **c, int port, const char *user, const char *pass, const char *db) {
    char dsn[512];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=%s password=%s server=ixd read_timeout=30%s%s", port,
             user, pass, db ? " database=" : "", db ? db : "");
    *c = NULL;
    return ix_connect(c, dsn);
}

static ix_conn *connect_db(const char *db) {
    ix_conn *c = NULL;
    int rc = try_connect(&c, P.port, USER, PASS, db);
    CHECK(rc == IX_OK, "connect to %s: rc=%d %s", db ? db : "(none)", rc, ix_errmsg(c));
    return c;
}

#define EXEC_OK(c, sql)                                                                            \
    do {                                                                                           \
        int rc_ = ix_exec((c), (sql));                                                             \
        CHECK(rc_ == IX_OK, "%s: rc=%d sqlcode=%d %s", (sql), rc_, ix_sqlcode(c), ix_errmsg(c));   \
    } while (0)

/* ix_exec expecting IX_ESQL with sqlcode want. */
static void exec_err(ix_conn *c, const char *sql, int want, const char *what) {
    int rc = ix_exec(c, sql);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == want, "%s: %s -> rc %d, %d (isam %d, \"%s\"), want %d",
          what, sql, rc, ix_sqlcode(c), ix_isamcode(c), ix_errmsg(c), want);
    CHECK(!ix_conn_is_dead(c), "%s: the connection stays alive", what);
}

/* Column 0 of the first row as text ("<error N>" on failure). */
static const char *one(ix_conn *c, const char *sql, char *buf, size_t cap) {
    ix_stmt *s = NULL;
    snprintf(buf, cap, "<error>");
    if (ix_prepare(c, sql, -1, &s) != IX_OK) {
        snprintf(buf, cap, "<error %d>", ix_sqlcode(c));
        return buf;
    }
    int rc = ix_step(s);
    if (rc == IX_ROW) {
        const char *t = ix_column_text(s, 0);
        snprintf(buf, cap, "%s", t ? t : "NULL");
    } else if (rc == IX_DONE) {
        buf[0] = 0;
    } else {
        snprintf(buf, cap, "<error %d>", ix_sqlcode(c));
    }
    ix_finalize(s);
    return buf;
}

/* Rows of sql read with the given fetch buffer and read-ahead depth;
 * *trips gets the NFETCH round trips. */
static int64_t read_all(ix_conn *c, const char *sql, int32_t buf, int ra, int64_t *trips) {
    ix_stmt *s = NULL;
    int64_t n = 0;
    *trips = -1;
    if (ix_prepare(c, sql, -1, &s) != IX_OK) return -1;
    ix_stmt_set_fetch_buffer(s, buf);
    ix_stmt_set_readahead(s, ra);
    int rc;
    while ((rc = ix_step(s)) == IX_ROW)
        n++;
    if (rc != IX_DONE) n = -1;
    *trips = ix_stmt_fetch_roundtrips(s);
    ix_finalize(s);
    return n;
}

static void test_login(void) {
    ix_conn *c;
    int rc = try_connect(&c, P.port, USER, "wrong", NULL);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -951, "wrong password gets -951 (%d %d)", rc,
          ix_sqlcode(c));
    CHECK(strcmp(ix_sqlstate(c), "28000") == 0, "-951 is SQLSTATE 28000 (%s)", ix_sqlstate(c));
    ix_close(c);
    rc = try_connect(&c, P.port, "nobody", PASS, NULL);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -951, "unknown user gets -951 (%d)", ix_sqlcode(c));
    ix_close(c);
    rc = try_connect(&c, P.port, USER, PASS, "nosuchdb");
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -329 && strstr(ix_errmsg(c), "Database not found"),
          "unknown database gets -329: %s", ix_errmsg(c));
    CHECK(!ix_conn_is_dead(c), "the session stays open without a database");
    ix_close(c);
    rc = try_connect(&c, P.port, USER, PASS, "sysmaster");
    CHECK(rc == IX_OK && ix_server_version(c)[0], "sysmaster always exists: %s", ix_errmsg(c));
    ix_close(c);
}

static void test_sql(void) {
    ix_conn *c = connect_db(NULL);
    EXEC_OK(c, "CREATE DATABASE demo WITH LOG");
    exec_err(c, "CREATE DATABASE demo WITH LOG", -330, "database exists");
    EXEC_OK(c, "DATABASE demo");
    EXEC_OK(c, "CREATE TABLE item (id SERIAL PRIMARY KEY, name VARCHAR(40) NOT NULL, "
               "price DECIMAL(8,2), day DATE, at DATETIME YEAR TO SECOND, ok BOOLEAN)");
    EXEC_OK(c, "INSERT INTO item (name, price, day, at, ok) VALUES ('Ada', 123.45, "
               "MDY(12,10,1815), DATETIME(2026-06-20 12:34:56) YEAR TO SECOND, 't')");
    CHECK(ix_conn_changes(c) == 1 && ix_last_serial(c) == 1, "INSERT: 1 row, serial 1 (%lld)",
          (long long)ix_last_serial(c));
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "INSERT INTO item (name, price) VALUES (?, ?)", -1, &s) == IX_OK &&
              ix_bind_parameter_count(s) == 2 && ix_stmt_type(s) == IX_STMTTYPE_INSERT,
          "prepared INSERT with 2 parameters");
    for (int i = 0; i < 3; i++) {
        char name[16], price[16];
        snprintf(name, sizeof name, "row%d", i);
        snprintf(price, sizeof price, "%d.50", 10 + i);
        ix_bind_text(s, 1, name, -1, IX_TRANSIENT);
        ix_bind_decimal_text(s, 2, price, -1);
        CHECK(ix_step(s) == IX_DONE && ix_changes(s) == 1 && ix_last_serial(c) == 2 + i,
              "bound INSERT %d -> serial %lld", i, (long long)ix_last_serial(c));
        ix_reset(s);
    }
    ix_finalize(s);
    char buf[128];
    CHECK(strcmp(one(c, "SELECT COUNT(*) FROM item", buf, sizeof buf), "4") == 0, "count 4 (%s)",
          buf);
    CHECK(strcmp(one(c, "SELECT price FROM item WHERE name = 'row1'", buf, sizeof buf), "11.50") ==
              0,
          "decimal round trip (%s)", buf);
    CHECK(strcmp(one(c, "SELECT day FROM item WHERE id = 1", buf, sizeof buf), "12/10/1815") == 0,
          "date round trip (%s)", buf);
    CHECK(strcmp(one(c, "SELECT at FROM item WHERE id = 1", buf, sizeof buf),
                 "2026-06-20 12:34:56") == 0,
          "datetime round trip (%s)", buf);
    /* Describe: types, encoded lengths, names. */
    CHECK(ix_prepare(c, "SELECT id, name, price, day, at, ok FROM item", -1, &s) == IX_OK &&
              ix_column_count(s) == 6,
          "describe 6 columns");
    CHECK(ix_column_type(s, 0) == 6 /* SERIAL */ && ix_column_notnull(s, 0) &&
              ix_column_type(s, 1) == 13 && ix_column_notnull(s, 1) &&
              ix_column_enclen(s, 1) == 40 && ix_column_type(s, 2) == 5 &&
              ix_column_enclen(s, 2) == 0x0802 && ix_column_type(s, 3) == 7 &&
              ix_column_type(s, 4) == 10 && ix_column_enclen(s, 4) == 0x0e0a &&
              ix_column_type(s, 5) == 45,
          "Informix types and encoded lengths (%d %d %d %d %d %d)", ix_column_type(s, 0),
          ix_column_type(s, 1), ix_column_type(s, 2), ix_column_type(s, 3), ix_column_type(s, 4),
          ix_column_type(s, 5));
    CHECK(strcmp(ix_column_name(s, 1), "name") == 0 && ix_column_name(s, 6) == NULL,
          "column names");
    /* A SELECT through ix_step runs as a cursor (the server's -260 for
     * EXECUTE of a SELECT is never provoked); a batch refuses it. */
    CHECK(ix_step(s) == IX_ROW, "SELECT steps to a row: %s", ix_errmsg(c));
    ix_reset(s);
    CHECK(ix_batch_execute_arrays(s, 1, NULL, 0, NULL, NULL) == IX_EMISUSE,
          "a batch of a SELECT is IX_EMISUSE");
    ix_finalize(s);
    /* Errors with offsets and texts. */
    exec_err(c, "SELEC * FROM item", -201, "syntax");
    CHECK(strcmp(ix_sqlstate(c), "42000") == 0, "syntax is 42000");
    /* deferred PREPARE: the error comes with the first step (from the
     * prepare when the server is not ixd: nothing is deferred) */
    s = NULL;
    int rc = ix_prepare(c, "SELECT id FROM item WHERE", -1, &s);
    if (rc == IX_OK && !ixd_test_strict()) rc = ix_step(s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -201 && ix_erroffset(c) > 0,
          "syntax error at offset %d", ix_erroffset(c));
    ix_finalize(s);
    exec_err(c, "SELECT * FROM nosuch", -206, "no such table");
    CHECK(strcmp(ix_errmsg(c), "The specified table (nosuch) is not in the database.") == 0,
          "-206 text: %s", ix_errmsg(c));
    exec_err(c, "SELECT nosuch FROM item", -217, "no such column");
    CHECK(strstr(ix_errmsg(c), "(nosuch)") != NULL, "-217 text: %s", ix_errmsg(c));
    exec_err(c, "INSERT INTO item (id, name) VALUES (1, 'dup')", -268, "duplicate primary key");
    CHECK(strcmp(ix_sqlstate(c), "23000") == 0, "-268 is 23000");
    exec_err(c, "INSERT INTO item (name) VALUES (NULL)", -391, "NULL into NOT NULL");
    CHECK(ix_errtext(-391) != NULL, "-391 has a catalogue text");
    /* Pipelined inserts (a batch) and fetch-buffer round trips. */
    EXEC_OK(c, "CREATE TABLE big (id INTEGER, name VARCHAR(64), counter INTEGER, value FLOAT, "
               "created DATE)");
    CHECK(ix_begin(c) == IX_OK, "begin");
    CHECK(ix_prepare(c, "INSERT INTO big VALUES (?, 'some name of a row', ?, 1.5, TODAY)", -1,
                     &s) == IX_OK,
          "prepare insert");
    int64_t a[500], b[500];
    for (int i = 0; i < 500; i++)
        a[i] = i, b[i] = 2 * i;
    ix_array cols[2] = {{IX_ARRAY_INT64, a, NULL}, {IX_ARRAY_INT64, b, NULL}};
    int codes[500];
    int64_t nfailed = -1;
    CHECK(ix_batch_execute_arrays(s, 500, cols, 2, codes, &nfailed) == IX_OK && nfailed == 0 &&
              ix_batch_replied(s) == 500 && ix_changes(s) == 500,
          "500 pipelined inserts answered in order: %s", ix_errmsg(c));
    ix_finalize(s);
    CHECK(ix_commit(c) == IX_OK, "commit");
    int64_t trips;
    CHECK(read_all(c, "SELECT * FROM big", 1024, 0, &trips) == 500, "500 rows with 1 KB");
    CHECK(trips >= 500 * 30 / 1024 && trips <= 500, "1 KB buffer takes many round trips (%lld)",
          (long long)trips);
    CHECK(read_all(c, "SELECT * FROM big", 1 << 20, 0, &trips) == 500 && trips == 1,
          "1 MB buffer takes one round trip (%lld)", (long long)trips);
    CHECK(read_all(c, "SELECT * FROM big WHERE id < 0", 4096, 0, &trips) == 0 && trips == 1,
          "empty result: DONE on the first fetch (%lld)", (long long)trips);
    /* Transactions. */
    exec_err(c, "COMMIT WORK", -255, "commit outside a transaction");
    CHECK(ix_commit(c) == IX_ESQL && ix_sqlcode(c) == -255, "ix_commit outside: -255");
    CHECK(strcmp(ix_sqlstate(c), "25000") == 0, "-255 is 25000");
    CHECK(ix_begin(c) == IX_OK && ix_autocommit(c) == 0, "SQ_BEGIN");
    CHECK(ix_begin(c) == IX_ESQL && ix_sqlcode(c) == -535, "begin twice: -535 (%d)", ix_sqlcode(c));
    EXEC_OK(c, "DELETE FROM big");
    CHECK(ix_conn_changes(c) == 500, "500 deleted");
    CHECK(ix_rollback(c) == IX_OK && ix_autocommit(c) == 1, "SQ_RBWORK");
    CHECK(strcmp(one(c, "SELECT COUNT(*) FROM big", buf, sizeof buf), "500") == 0,
          "rollback undid the delete (%s)", buf);
    EXEC_OK(c, "CREATE DATABASE nolog");
    EXEC_OK(c, "DATABASE nolog");
    exec_err(c, "BEGIN WORK", -256, "BEGIN on an unlogged database");
    CHECK(ix_begin(c) == IX_ESQL && ix_sqlcode(c) == -256, "ix_begin on an unlogged database");
    EXEC_OK(c, "DATABASE demo");
    /* Catalog. */
    CHECK(read_all(c, "SELECT FIRST 10 * FROM systables", 32767, 1, &trips) == 10,
          "SELECT FIRST 10 * FROM systables");
    ix_close(c);
}

static void test_serials(void) {
    ix_conn *c = connect_db(NULL);
    EXEC_OK(c, "CREATE DATABASE s2 WITH LOG");
    EXEC_OK(c, "DATABASE s2");
    EXEC_OK(c, "CREATE TABLE n (id SERIAL8, v INTEGER)");
    EXEC_OK(c, "INSERT INTO n (v) VALUES (7)");
    CHECK(ix_last_serial8(c) == 1, "SERIAL8 1 (%lld)", (long long)ix_last_serial8(c));
    EXEC_OK(c, "INSERT INTO n (id, v) VALUES (100, 8)");
    CHECK(ix_last_serial8(c) == 100, "explicit SERIAL8 (%lld)", (long long)ix_last_serial8(c));
    EXEC_OK(c, "INSERT INTO n (v) VALUES (9)");
    CHECK(ix_last_serial8(c) == 101, "next SERIAL8 (%lld)", (long long)ix_last_serial8(c));
    EXEC_OK(c, "CREATE TABLE bs (id BIGSERIAL, v INTEGER)");
    ix_stmt *s = NULL;
    ix_prepare(c, "INSERT INTO bs (v) VALUES (?)", -1, &s);
    ix_bind_int(s, 1, 5);
    CHECK(ix_step(s) == IX_DONE && ix_last_serial8(c) == 1, "BIGSERIAL through a statement");
    ix_finalize(s);
    ix_close(c);
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_locks(void) {
    ix_conn *a = connect_db("s2"), *b = connect_db("s2");
    EXEC_OK(a, "CREATE TABLE lk (id INTEGER)");
    CHECK(ix_begin(a) == IX_OK, "A begins");
    EXEC_OK(a, "INSERT INTO lk VALUES (1)");
    CHECK(ix_set_lock_wait(b, 1) == IX_OK, "B: SET LOCK MODE TO WAIT 1");
    double t0 = now_s();
    int rc = ix_exec(b, "INSERT INTO lk VALUES (2)");
    double waited = now_s() - t0;
    int code = ix_sqlcode(b);
    CHECK(rc == IX_ESQL && (code == -244 || code == -243 || code == -271) && ix_isamcode(b) == -154,
          "blocked writer gets a lock error (%d, isam %d)", code, ix_isamcode(b));
    CHECK(waited >= 0.8 && waited < 5, "it waited about 1 s (%.2f s)", waited);
    CHECK(ix_set_lock_wait(b, 0) == IX_OK, "B: NOT WAIT");
    t0 = now_s();
    rc = ix_exec(b, "INSERT INTO lk VALUES (3)");
    waited = now_s() - t0;
    CHECK(rc == IX_ESQL && waited < 0.5, "NOT WAIT fails at once (%d, %.2f s)", ix_sqlcode(b),
          waited);
    CHECK(ix_commit(a) == IX_OK, "A commits");
    CHECK(ix_set_lock_wait(b, 5) == IX_OK, "B: WAIT 5");
    EXEC_OK(b, "INSERT INTO lk VALUES (4)");
    EXEC_OK(a, "BEGIN WORK");
    exec_err(a, "BEGIN WORK", -535, "BEGIN inside a transaction");
    EXEC_OK(a, "ROLLBACK WORK");
    ix_close(a);
    ix_close(b);
}

/* Eight sessions at once, each inserting 20 rows. */
static void *worker(void *arg) {
    long k = (long)arg;
    ix_conn *c = NULL;
    if (try_connect(&c, P.port, USER, PASS, "s2") != IX_OK) {
        ix_close(c);
        return (void *)20;
    }
    long bad = 0;
    /* Informix's default is NOT WAIT: concurrent writers must ask to wait. */
    if (ix_set_lock_wait(c, 30) != IX_OK) bad++;
    ix_stmt *s = NULL;
    if (ix_prepare(c, "INSERT INTO many VALUES (?, ?)", -1, &s) != IX_OK) bad += 20;
    for (int i = 0; s && i < 20; i++) {
        ix_bind_int64(s, 1, k);
        ix_bind_int(s, 2, i);
        if (ix_step(s) != IX_DONE) bad++;
        ix_reset(s);
    }
    ix_finalize(s);
    ix_close(c);
    return (void *)bad;
}

static void test_many(void) {
    ix_conn *c = connect_db("s2");
    EXEC_OK(c, "CREATE TABLE many (k INTEGER, i INTEGER)");
    pthread_t th[8];
    for (long k = 0; k < 8; k++)
        pthread_create(&th[k], NULL, worker, (void *)k);
    long bad = 0;
    for (int k = 0; k < 8; k++) {
        void *rv;
        pthread_join(th[k], &rv);
        bad += (long)rv;
    }
    CHECK(bad == 0, "8 concurrent sessions x 20 inserts, %ld failed", bad);
    char buf[32];
    CHECK(strcmp(one(c, "SELECT COUNT(*) FROM many", buf, sizeof buf), "160") == 0, "160 rows (%s)",
          buf);
    ix_close(c);
}

static void test_crash(void) {
    ix_conn *c = connect_db(NULL);
    EXEC_OK(c, "CREATE DATABASE crash WITH LOG");
    EXEC_OK(c, "DATABASE crash");
    EXEC_OK(c, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
    int acked = 0;
    ix_stmt *s = NULL;
    ix_prepare(c, "INSERT INTO t VALUES (?)", -1, &s);
    for (int i = 0; i < 200; i++) {
        ix_bind_int(s, 1, i);
        if (ix_step(s) == IX_DONE) acked++;
        ix_reset(s);
    }
    ix_finalize(s);
    /* An open transaction that must not survive. */
    CHECK(ix_begin(c) == IX_OK, "begin");
    EXEC_OK(c, "INSERT INTO t VALUES (100000)");
    ixd_stop(&P, SIGKILL);
    CHECK(ix_exec(c, "INSERT INTO t VALUES (100001)") == IX_ECONN && ix_conn_is_dead(c),
          "the client sees the server gone");
    ix_close(c);
    CHECK(ixd_start(&P, P.dir, NULL) == 0, "restart after kill -9");
    c = connect_db("crash");
    char buf[64];
    CHECK(strcmp(one(c, "SELECT COUNT(*) FROM t", buf, sizeof buf), "200") == 0 && acked == 200,
          "every acknowledged row survived kill -9, the open transaction did not (%s, %d)", buf,
          acked);
    /* SIGTERM: an open transaction rolls back, the server exits 0. */
    CHECK(ix_set_autocommit(c, 0) == IX_OK, "autocommit off: a transaction is open");
    EXEC_OK(c, "DELETE FROM t");
    int st = ixd_stop(&P, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "clean exit on SIGTERM");
    ix_close(c);
    CHECK(ixd_start(&P, P.dir, NULL) == 0, "restart after SIGTERM");
    c = connect_db("crash");
    CHECK(strcmp(one(c, "SELECT COUNT(*) FROM t", buf, sizeof buf), "200") == 0,
          "the open transaction rolled back at shutdown (%s)", buf);
    ix_close(c);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    test_login();
    test_sql();
    test_serials();
    test_locks();
    test_many();
    test_crash();
    ixd_stop(&P, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&P);
    else
        fprintf(stderr, "data and log kept in %s\n", P.dir);
    return tap_done();
}
