/* test_diskfull.c: a COMMIT that fails on the server for lack of space
 * (ixd runs under a file-size limit, set from outside with prlimit, so its
 * writes really fail with EFBIG) ends the transaction there; libixdb must
 * follow, or a manual-commit application's later statements autocommit on
 * the server and a ROLLBACK cannot take them back. */
#define _GNU_SOURCE /* prlimit */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P;

static int limit_files(rlim_t bytes) {
    struct rlimit rl;
    if (prlimit(P.pid, RLIMIT_FSIZE, NULL, &rl) != 0) return -1;
    rl.rlim_cur = bytes;
    return prlimit(P.pid, RLIMIT_FSIZE, &rl, NULL);
}

static int pad_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    static char pad[201];
    memset(pad, 'x', 200);
    ix_bind_int64(s, 1, row);
    return ix_bind_text(s, 2, pad, 200, IX_STATIC);
}

static int64_t count(ix_conn *c, const char *sql) {
    ix_stmt *s = NULL;
    int64_t n = -1;
    if (ix_prepare(c, sql, -1, &s) == IX_OK && ix_step(s) == IX_ROW) n = ix_column_int64(s, 0);
    ix_finalize(s);
    return n;
}

int main(void) {
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    char dsn[300];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix read_timeout=30", P.port);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect");
    CHECK(ix_exec(c, "create database full with log") == IX_OK, "create database");
    CHECK(ix_exec(c, "create table t (i integer, pad char(200))") == IX_OK, "create table");
    CHECK(ix_exec(c, "create table u (i integer)") == IX_OK, "create table u");

    CHECK(ix_set_autocommit(c, 0) == IX_OK, "manual commit");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into t values (?, ?)", -1, &s) == IX_OK, "prepare");
    int64_t nf = 0;
    CHECK(ix_batch_execute(s, 3000, pad_row, NULL, NULL, &nf) == IX_OK, "3000 rows, in memory");
    ix_finalize(s);
    CHECK(limit_files(64 * 1024) == 0, "ixd may not write past 64 KiB of a file");
    int rc = ix_commit(c);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) < 0, "the COMMIT fails: %d %s", ix_sqlcode(c),
          ix_errmsg(c));
    CHECK(limit_files(RLIM_INFINITY) == 0, "space again");
    CHECK(ix_autocommit(c) == 0, "manual-commit mode stays");
    CHECK(ix_exec(c, "insert into u values (1)") == IX_OK, "a statement after the failure: %s",
          ix_errmsg(c));
    CHECK(ix_rollback(c) == IX_OK, "it is rolled back (the library began a transaction): %s",
          ix_errmsg(c));
    CHECK(ix_set_autocommit(c, 1) == IX_OK, "autocommit on");
    CHECK(count(c, "select count(*) from u") == 0, "nothing the application rolled back stayed");
    CHECK(count(c, "select count(*) from t") == 0, "the failed transaction left nothing");
    CHECK(ix_exec(c, "insert into u values (2)") == IX_OK, "writes resume");
    CHECK(count(c, "select count(*) from u") == 1, "and stay");

    /* a TimeSeries load that runs out of space: -271 with ISAM -131, and
     * the series holds what it held */
    CHECK(ix_exec(c, "create row type r_t (ts datetime year to fraction(5), a float, b float)") ==
                  IX_OK &&
              ix_exec(c, "create table m (id int primary key, s timeseries(r_t))") == IX_OK &&
              ix_exec(c, "execute procedure oni_ts_create('m','s',1,'2026-01-01',NULL)") == IX_OK &&
              ix_exec(c, "execute procedure oni_ts_write('m','s',1,'2026-01-01|1|1')") == IX_OK,
          "a series: %s", ix_errmsg(c));
    static char batch[400000];
    size_t o = 0;
    for (int k = 0; k < 6000 && o < sizeof batch - 100;
         k++) /* irregular, values that do not compress */
        o += (size_t)snprintf(batch + o, sizeof batch - o, "2026-01-02 00:00:%02d.%06d|%d.%d|-%d\n",
                              k / 1000, k * 997 % 1000000, k * 7919, k, k * 104729);
    CHECK(limit_files(64 * 1024) == 0, "the limit again");
    s = NULL;
    rc = ix_prepare(c, "execute procedure oni_ts_write_many('m','s',1,?)", -1, &s);
    if (rc == IX_OK) rc = ix_bind_blob(s, 1, batch, (int)o, IX_STATIC);
    if (rc == IX_OK) rc = ix_step(s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -271 && ix_isamcode(c) == -131,
          "the load fails for space: rc %d, %d / %d %s", rc, ix_sqlcode(c), ix_isamcode(c),
          ix_errmsg(c));
    ix_finalize(s);
    CHECK(limit_files(RLIM_INFINITY) == 0, "space again");
    s = NULL;
    rc = ix_prepare(c, "execute function oni_ts_info('m','s',1)", -1, &s);
    const char *info = rc == IX_OK && ix_step(s) == IX_ROW ? ix_column_text(s, 0) : "";
    CHECK(strstr(info, "\"elements\":1,") != NULL, "the series as it was: %s", info);
    ix_finalize(s);
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
