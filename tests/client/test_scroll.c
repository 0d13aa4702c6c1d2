/* test_scroll.c: scroll cursors (ix_prepare_v2 with IX_PREPARE_SCROLL and
 * IX_PREPARE_WITH_HOLD, ix_fetch_first/last/prior/absolute/relative, ix_step
 * on a scroll cursor) against a real ixd. */
#include <stdio.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define NROWS 50

static ixd_proc P;

/* The k of the current row, or -1 when rc is not IX_ROW. */
static int64_t key(ix_stmt *s, int rc) {
    return rc == IX_ROW ? ix_column_int64(s, 0) : -1;
}

static void check_positions(ix_conn *c, int32_t fetch_buffer) {
    ix_stmt *s = NULL;
    int rc = ix_prepare_v2(c, "select k, name from t order by k", IX_NTS, IX_PREPARE_SCROLL, &s);
    CHECK(rc == IX_OK, "prepare scroll: %s", ix_errmsg(c));
    if (rc != IX_OK) return;
    ix_stmt_set_fetch_buffer(s, fetch_buffer);
    rc = ix_fetch_last(s);
    CHECK(key(s, rc) == NROWS, "last: rc=%d k=%lld %s", rc, (long long)key(s, rc), ix_errmsg(c));
    rc = ix_fetch_prior(s);
    CHECK(key(s, rc) == NROWS - 1, "prior of last: %lld", (long long)key(s, rc));
    rc = ix_fetch_first(s);
    CHECK(key(s, rc) == 1, "first: %lld", (long long)key(s, rc));
    CHECK(rc == IX_ROW && strcmp(ix_column_text(s, 1), "row-1") == 0, "first's name");
    /* ix_step reads on from the current row (batches read ahead) */
    for (int k = 2; k <= 10; k++) {
        rc = ix_step(s);
        CHECK(key(s, rc) == k, "step to %d: %lld", k, (long long)key(s, rc));
    }
    /* positioned fetches count from the current row, not from the rows read ahead */
    rc = ix_fetch_prior(s);
    CHECK(key(s, rc) == 9, "prior after steps: %lld", (long long)key(s, rc));
    rc = ix_fetch_relative(s, 5);
    CHECK(key(s, rc) == 14, "relative +5: %lld", (long long)key(s, rc));
    rc = ix_fetch_relative(s, -3);
    CHECK(key(s, rc) == 11, "relative -3: %lld", (long long)key(s, rc));
    rc = ix_fetch_relative(s, 0);
    CHECK(key(s, rc) == 11, "relative 0: %lld", (long long)key(s, rc));
    rc = ix_step(s);
    CHECK(key(s, rc) == 12, "step after relative: %lld", (long long)key(s, rc));
    rc = ix_fetch_absolute(s, 37);
    CHECK(key(s, rc) == 37, "absolute 37: %lld", (long long)key(s, rc));
    /* past the end: IX_DONE, then prior gives the last row */
    rc = ix_fetch_absolute(s, NROWS + 5);
    CHECK(rc == IX_DONE, "absolute past the end: rc=%d", rc);
    rc = ix_step(s);
    CHECK(rc == IX_DONE, "step after the end: rc=%d", rc);
    rc = ix_fetch_prior(s);
    CHECK(key(s, rc) == NROWS, "prior after the end: %lld", (long long)key(s, rc));
    rc = ix_step(s);
    CHECK(rc == IX_DONE, "step past the last: rc=%d", rc);
    rc = ix_fetch_relative(s, -2);
    CHECK(key(s, rc) == NROWS - 1, "relative -2 after the end: %lld", (long long)key(s, rc));
    /* before the start: IX_DONE, then step gives the first row */
    rc = ix_fetch_relative(s, -1000);
    CHECK(rc == IX_DONE, "relative before the start: rc=%d", rc);
    rc = ix_step(s);
    CHECK(key(s, rc) == 1, "step after the start: %lld", (long long)key(s, rc));
    rc = ix_fetch_absolute(s, 0);
    CHECK(rc == IX_DONE, "absolute 0: rc=%d", rc);
    rc = ix_fetch_prior(s);
    CHECK(rc == IX_DONE, "prior before the first: rc=%d", rc);
    /* the whole result with ix_step, then reset and again */
    ix_reset(s);
    int n = 0;
    while ((rc = ix_step(s)) == IX_ROW)
        CHECK(ix_column_int64(s, 0) == ++n, "step row %d", n);
    CHECK(rc == IX_DONE && n == NROWS, "all rows by ix_step: %d rc=%d %s", n, rc, ix_errmsg(c));
    ix_finalize(s);
}

static void check_errors(ix_conn *c) {
    ix_stmt *s = NULL;
    /* a positioned fetch on an ordinary cursor: -482, and the cursor goes on */
    CHECK(ix_prepare(c, "select k from t order by k", IX_NTS, &s) == IX_OK, "prepare");
    CHECK(key(s, ix_step(s)) == 1, "ordinary cursor first row");
    int rc = ix_fetch_first(s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -482, "fetch first on a non-scroll cursor: rc=%d %d",
          rc, ix_sqlcode(c));
    CHECK(ix_fetch_absolute(s, 3) == IX_ESQL && ix_sqlcode(c) == -482, "absolute: %d",
          ix_sqlcode(c));
    CHECK(key(s, ix_step(s)) == 2, "the ordinary cursor goes on");
    ix_finalize(s);
    CHECK(ix_fetch_last(NULL) == IX_EMISUSE, "NULL statement");
    CHECK(ix_prepare_v2(c, "select k from t", IX_NTS, 0x80, &s) == IX_EINVAL && s == NULL,
          "unknown flag");
    /* an empty result */
    CHECK(ix_prepare_v2(c, "select k from t where k < 0", IX_NTS, IX_PREPARE_SCROLL, &s) == IX_OK,
          "prepare empty");
    CHECK(ix_fetch_last(s) == IX_DONE, "last of nothing");
    CHECK(ix_fetch_first(s) == IX_DONE, "first of nothing");
    CHECK(ix_step(s) == IX_DONE, "step of nothing");
    ix_finalize(s);
    /* an SQL error in a deferred scroll prepare comes back from the fetch
     * (from the prepare when the server is not ixd: nothing is deferred) */
    rc = ix_prepare_v2(c, "select nosuch from t", IX_NTS, IX_PREPARE_SCROLL, &s);
    CHECK(rc == (ixd_test_strict() ? IX_ESQL : IX_OK), "prepare bad: %d", rc);
    if (rc == IX_OK) rc = ix_fetch_first(s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -217, "bad column: rc=%d %d", rc, ix_sqlcode(c));
    ix_finalize(s);
}

/* WITH HOLD (and a bound parameter): the cursor stays usable across COMMIT. */
static void check_hold(ix_conn *c) {
    ix_stmt *s = NULL;
    CHECK(ix_prepare_v2(c, "select k from t where k > ? order by k", IX_NTS,
                        IX_PREPARE_SCROLL | IX_PREPARE_WITH_HOLD, &s) == IX_OK,
          "prepare hold: %s", ix_errmsg(c));
    ix_bind_int(s, 1, 40);
    CHECK(ix_begin(c) == IX_OK, "begin: %s", ix_errmsg(c));
    CHECK(key(s, ix_fetch_absolute(s, 2)) == 42, "absolute 2 of k > 40");
    CHECK(ix_commit(c) == IX_OK, "commit: %s", ix_errmsg(c));
    CHECK(key(s, ix_fetch_last(s)) == NROWS, "last after commit: %s", ix_errmsg(c));
    CHECK(ix_bind_int(s, 1, 1) == IX_EMISUSE, "no bind while the scroll cursor is open");
    ix_finalize(s);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    char dsn[256];
    ixd_dsn(&P, 30, dsn, sizeof dsn);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create database sc with log") == IX_OK, "db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create table t (k int, name varchar(20))") == IX_OK, "table");
    for (int k = NROWS; k >= 1; k--) {
        char sql[80];
        snprintf(sql, sizeof sql, "insert into t values (%d, 'row-%d')", k, k);
        CHECK(ix_exec(c, sql) == IX_OK, "insert %d: %s", k, ix_errmsg(c));
    }
    check_positions(c, IX_FETCH_AUTO);
    check_positions(c, 64); /* a few rows per NEXT */
    check_errors(c);
    check_hold(c);
    ix_close(c);
    /* deferred PREPARE off and OPEN without the first fetch */
    snprintf(dsn + strlen(dsn), sizeof dsn - strlen(dsn),
             " database=sc deferred_prepare=0 optofc=0");
    c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect 2: %s", ix_errmsg(c));
    check_positions(c, 100);
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
