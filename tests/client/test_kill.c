/* test_kill.c: ixd killed with SIGKILL in the middle of a fetch and in the
 * middle of a pipelined batch: the client must report an error within a
 * second, never hang, mark the connection dead, answer every later call
 * with IX_ECONN at once, and the batch must name the first row without a
 * reply. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P;
static char dsn[300];

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bind_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    ix_bind_int64(s, 1, row);
    ix_bind_text(s, 2, "some text to make the row longer than a few bytes", -1, IX_STATIC);
    return 0;
}

static ix_conn *fresh_server(const char *db) {
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return NULL;
    }
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd read_timeout=20",
             P.port);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "connect: %s", ix_errmsg(c));
    char sql[128];
    snprintf(sql, sizeof sql, "create database %s with log", db);
    rc = ix_exec(c, sql);
    CHECK(rc == IX_OK, "%s: %s", sql, ix_errmsg(c));
    ix_close(c);
    char d2[400];
    snprintf(d2, sizeof d2, "%s database=%s", dsn, db);
    c = NULL;
    rc = ix_connect(&c, d2);
    CHECK(rc == IX_OK, "connect db: %s", ix_errmsg(c));
    rc = ix_exec(c, "create table k (a integer, t varchar(60))");
    CHECK(rc == IX_OK, "create table: %s", ix_errmsg(c));
    return c;
}

static void after_death(ix_conn *c) {
    CHECK(ix_conn_is_dead(c), "the connection is dead");
    double t0 = now_s();
    CHECK(ix_exec(c, "select 1 from k") == IX_ECONN, "later calls: IX_ECONN");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select a from k", -1, &s) == IX_ECONN && !s, "prepare: IX_ECONN");
    CHECK(ix_begin(c) == IX_ECONN, "begin: IX_ECONN");
    CHECK(now_s() - t0 < 0.1, "at once");
    CHECK(strncmp(ix_sqlstate(c), "08", 2) == 0, "sqlstate class 08 (%s)", ix_sqlstate(c));
}

static void test_kill_fetch(void) {
    ix_conn *c = fresh_server("killf");
    if (!c) return;
    ix_stmt *s = NULL;
    ix_prepare(c, "insert into k values (?, ?)", -1, &s);
    int rc = ix_batch_execute(s, 3000, bind_row, NULL, NULL, NULL);
    CHECK(rc == IX_OK, "3000 rows: %s", ix_errmsg(c));
    ix_finalize(s);
    rc = ix_prepare(c, "select a, t from k", -1, &s);
    CHECK(rc == IX_OK, "select: %s", ix_errmsg(c));
    ix_stmt_set_fetch_buffer(s, 200);
    ix_stmt_set_readahead(s, 1);
    int n = 0;
    while (n < 50 && ix_step(s) == IX_ROW)
        n++;
    CHECK(n == 50, "50 rows before the kill");
    ixd_stop(&P, SIGKILL);
    double t0 = now_s();
    while ((rc = ix_step(s)) == IX_ROW)
        n++;
    double dt = now_s() - t0;
    CHECK(rc == IX_ECONN, "mid-fetch: rc=%d (%s)", rc, ix_errmsg(c));
    CHECK(dt < 1.0, "error within a second (%.3f s)", dt);
    CHECK(n < 3000, "did not get every row (%d)", n);
    after_death(c);
    CHECK(ix_step(s) == IX_ECONN, "the statement too");
    ix_finalize(s);
    ix_close(c);
    ixd_rmdir(&P);
}

typedef struct kill_ctx {
    int64_t at;
} kill_ctx;

static int bind_and_kill(ix_stmt *s, int64_t row, void *ud) {
    kill_ctx *k = ud;
    if (row == k->at) {
        kill(P.pid, SIGKILL);
        int st;
        waitpid(P.pid, &st, 0);
    }
    return bind_row(s, row, NULL);
}

static void test_kill_batch(void) {
    ix_conn *c = fresh_server("killb");
    if (!c) return;
    ix_stmt *s = NULL;
    ix_prepare(c, "insert into k values (?, ?)", -1, &s);
    static int codes[20000];
    for (int i = 0; i < 20000; i++)
        codes[i] = 1;
    kill_ctx k = {5000};
    double t0 = now_s();
    int64_t nfailed = 0;
    int rc = ix_batch_execute(s, 20000, bind_and_kill, &k, codes, &nfailed);
    double dt = now_s() - t0;
    int64_t replied = ix_batch_replied(s);
    CHECK(rc == IX_ECONN, "mid-batch: rc=%d (%s)", rc, ix_errmsg(c));
    CHECK(replied > 0 && replied <= k.at, "first row without a reply: %lld (kill before row %lld)",
          (long long)replied, (long long)k.at);
    int ok = 1;
    for (int64_t i = 0; i < replied; i++)
        ok &= codes[i] == 0;
    /* the rows sent without a reply are unknown, the others not sent */
    int64_t i = replied;
    while (i < 20000 && codes[i] == IX_BATCH_UNKNOWN)
        i++;
    CHECK(i > replied, "rows in flight when the server died are unknown (%lld)",
          (long long)(i - replied));
    while (i < 20000 && codes[i] == IX_BATCH_NOT_SENT)
        i++;
    CHECK(ok && i == 20000, "rows before it succeeded, the rest unknown then not sent (%lld)",
          (long long)i);
    CHECK(dt < 20, "no hang (%.2f s)", dt);
    after_death(c);
    ix_finalize(s);
    ix_close(c);
    ixd_rmdir(&P);

    /* Killed while the client is waiting for replies (all rows written). */
    c = fresh_server("killc");
    if (!c) return;
    ix_prepare(c, "insert into k values (?, ?)", -1, &s);
    k.at = 999; /* kill while binding the last row: writes are done after it */
    t0 = now_s();
    rc = ix_batch_execute(s, 1000, bind_and_kill, &k, NULL, NULL);
    dt = now_s() - t0;
    CHECK(rc == IX_ECONN && dt < 1.0, "killed at the end: rc=%d in %.3f s", rc, dt);
    CHECK(ix_batch_replied(s) < 1000, "replied %lld of 1000", (long long)ix_batch_replied(s));
    ix_finalize(s);
    ix_close(c);
    ixd_rmdir(&P);
}

/* A server that stops answering (SIGSTOP): the read timeout fires. */
static void test_timeout(void) {
    ix_conn *c = fresh_server("killt");
    if (!c) return;
    ix_set_read_timeout(c, 300);
    ixd_sigstop(&P);
    double t0 = now_s();
    int rc = ix_exec(c, "insert into k values (1, 'x')");
    double dt = now_s() - t0;
    CHECK(rc == IX_ETIMEOUT && dt >= 0.25 && dt < 1.0, "read timeout: rc=%d after %.3f s", rc, dt);
    CHECK(ix_conn_is_dead(c) && ix_exec(c, "select 1 from k") == IX_ECONN, "then dead");
    kill(P.pid, SIGCONT);
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    test_timeout();
    test_kill_fetch();
    test_kill_batch();
    return tap_done();
}
