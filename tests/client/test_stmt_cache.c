/* test_stmt_cache.c: the per-connection statement cache (ix_set_stmt_cache)
 * against a real ixd: reuse without a PREPARE, eviction of the oldest, flags
 * in the key, bindings cleared, DDL (ALTER TABLE) releasing kept statements
 * so that the text is described anew, off by default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P;
static int prepares, releases;

/* Counts the PREPAREs and the RELEASEs of prepared statements (ID id,
 * RELEASE; the RELEASE inside ix_exec's SQ_COMMAND group is not one). */
static void trace(void *ud, const char *line) {
    static int after_id;
    (void)ud;
    if (strstr(line, "C->S SQ_PREPARE")) prepares++;
    if (after_id && strstr(line, "C->S SQ_RELEASE")) releases++;
    if (strstr(line, "C->S ")) after_id = strstr(line, "C->S SQ_ID") != NULL;
    if (getenv("TRACE")) printf("# %s\n", line);
}

/* Prepares sql, steps it to the end; returns the number of rows (or -1). */
static int run(ix_conn *c, const char *sql, int bind, int *ncols) {
    ix_stmt *s = NULL;
    if (ix_prepare(c, sql, IX_NTS, &s) != IX_OK) return -1;
    if (ix_bind_parameter_count(s) > 0 && bind) ix_bind_int(s, 1, bind);
    int n = 0, rc;
    while ((rc = ix_step(s)) == IX_ROW)
        n++;
    if (ncols) *ncols = ix_column_count(s);
    ix_finalize(s);
    return rc == IX_DONE ? n : -1;
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
    ix_set_trace(c, trace, NULL);
    CHECK(ix_exec(c, "create database sc with log") == IX_OK, "db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create table t (k int, v int)") == IX_OK, "table");
    CHECK(ix_exec(c, "insert into t values (1, 10)") == IX_OK, "insert");
    CHECK(ix_exec(c, "insert into t values (2, 20)") == IX_OK, "insert");
    const char *q = "select * from t where k >= ?";

    /* off by default: every prepare is a PREPARE */
    CHECK(ix_stmt_cache_size(c) == 0, "off by default");
    prepares = 0;
    CHECK(run(c, q, 1, NULL) == 2 && run(c, q, 1, NULL) == 2, "runs without a cache");
    CHECK(prepares == 2, "two PREPAREs without a cache: %d", prepares);

    /* on: the second prepare of the same text reuses the statement */
    CHECK(ix_set_stmt_cache(c, 2) == IX_OK && ix_stmt_cache_size(c) == 2, "cache of 2");
    CHECK(ix_set_stmt_cache(c, -1) == IX_EINVAL, "negative size");
    prepares = releases = 0;
    CHECK(run(c, q, 1, NULL) == 2, "first run");
    CHECK(run(c, q, 2, NULL) == 1, "second run (bound 2)");
    CHECK(run(c, q, 1, NULL) == 2, "third run");
    CHECK(prepares == 1 && releases == 0, "one PREPARE, no RELEASE: %d %d", prepares, releases);

    /* bindings are cleared when a statement goes back to the cache */
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, q, IX_NTS, &s) == IX_OK, "prepare from cache");
    CHECK(ix_step(s) == IX_DONE, "unbound parameter is NULL: no rows");
    ix_finalize(s);

    /* a text that differs (even in flags) is another statement; the oldest goes */
    prepares = releases = 0;
    CHECK(ix_prepare_v2(c, q, IX_NTS, IX_PREPARE_SCROLL, &s) == IX_OK, "scroll variant");
    ix_bind_int(s, 1, 1);
    CHECK(ix_fetch_last(s) == IX_ROW && ix_column_int64(s, 0) == 2, "scroll variant works");
    ix_finalize(s);
    CHECK(prepares == 1, "the scroll variant is prepared: %d", prepares);
    CHECK(run(c, "select k from t", 0, NULL) == 2, "a third text");
    CHECK(releases == 1, "the oldest of three released: %d", releases);
    prepares = 0;
    CHECK(run(c, q, 1, NULL) == 2 && prepares == 1, "the evicted text is prepared again: %d",
          prepares);

    /* DDL on the connection: kept statements are released, the text is
     * prepared again and described with the new column */
    int ncols = 0;
    CHECK(run(c, q, 1, &ncols) == 2 && ncols == 2, "two columns: %d", ncols);
    prepares = releases = 0;
    CHECK(ix_exec(c, "alter table t add (w int)") == IX_OK, "alter: %s", ix_errmsg(c));
    CHECK(releases == 2, "kept statements released after DDL: %d", releases);
    CHECK(run(c, q, 1, &ncols) == 2 && ncols == 3, "three columns after ALTER: %d %s", ncols,
          ix_errmsg(c));
    CHECK(prepares == 1, "prepared again after DDL: %d", prepares);
    /* a statement held across DDL is released when finalized, not kept */
    CHECK(ix_prepare(c, "select k from t", IX_NTS, &s) == IX_OK && ix_step(s) == IX_ROW, "held");
    CHECK(ix_exec(c, "create table u (x int)") == IX_OK, "create: %s", ix_errmsg(c));
    releases = 0;
    ix_finalize(s);
    CHECK(releases == 1, "held statement released after DDL: %d", releases);

    /* turning it off releases what is kept */
    CHECK(run(c, q, 1, NULL) == 2, "kept again");
    releases = 0;
    CHECK(ix_set_stmt_cache(c, 0) == IX_OK, "off");
    CHECK(releases == 1, "released when turned off: %d", releases);
    CHECK(ix_set_stmt_cache(c, 4) == IX_OK && run(c, q, 1, NULL) == 2, "on again");
    ix_close(c); /* frees the kept statement (ASan: no leak) */
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
