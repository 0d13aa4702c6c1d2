/* test_alloc_fail.c: libixdb under allocation failure, against a real ixd.
 *
 * An allocator installed with ix_set_allocator counts the live blocks and
 * fails the N-th allocation. For N = 1, 2, ... until a run completes with no
 * failure injected, each scenario (connect, plain and through a sqlhosts
 * group; prepare + describe; execute + fetch of DECIMAL, DATETIME, VARCHAR,
 * BYTE and TEXT; a pipelined batch; the statement cache; ix_pool) must
 * return IX_OK or IX_ENOMEM with "out of memory" in the error record, never
 * crash, leave the connection usable or dead (IX_ECONN) but closable, and
 * after every handle is closed no block may be live. Where the scenario
 * needs a connection it is opened before the failures are armed, so that
 * the loop covers the operation itself (connect has its own scenario). */
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define MAX_N     20000 /* a scenario needing more allocations is a bug */
#define NROWS     12    /* rows of table t */
#define BATCHROWS 16

static ixd_proc P;
static char dsn[400], group_dsn[700];

/* ---- the failing allocator ---------------------------------------------- */

static atomic_long live, count, fail_at; /* fail_at 0: never fail */
static atomic_int injected;
static atomic_int broken; /* calls outside ix_allocator's contract */
static int persist;       /* every allocation from the n-th on fails */

static int should_fail(void) {
    long n = atomic_fetch_add(&count, 1) + 1;
    long at = atomic_load(&fail_at);
    if (at && (n == at || (persist && n > at))) {
        atomic_store(&injected, 1);
        if (getenv("AF_BT")) {
            void *bt[32];
            backtrace_symbols_fd(bt, backtrace(bt, 32), 1);
        }
        return 1;
    }
    return 0;
}
static void *t_malloc(size_t n, void *ud) {
    (void)ud;
    if (n == 0) atomic_fetch_add(&broken, 1);
    if (should_fail()) return NULL;
    void *p = malloc(n);
    if (p) atomic_fetch_add(&live, 1);
    return p;
}
static void *t_realloc(void *p, size_t n, void *ud) {
    (void)ud;
    if (!p || n == 0) { /* the contract: only a live block, never 0 bytes */
        atomic_fetch_add(&broken, 1);
        if (!p) return t_malloc(n, ud);
    }
    return should_fail() ? NULL : realloc(p, n);
}
static void t_free(void *p, void *ud) {
    (void)ud;
    if (!p) atomic_fetch_add(&broken, 1);
    atomic_fetch_sub(&live, 1);
    free(p);
}

/* Fails the n-th allocation from now on (and all later ones when persist);
 * 0: none. */
static void arm(long n) {
    if (n) atomic_store(&injected, 0);
    atomic_store(&fail_at, n ? atomic_load(&count) + n : 0);
}

/* ---- what a scenario reports -------------------------------------------- */

typedef struct outcome {
    int rc;        /* the first failure's code, or IX_OK */
    char msg[300]; /* its message */
    int bad;       /* a wrong result after IX_OK */
    int dead;      /* the connection was left dead (IX_ECONN afterwards) */
} outcome;

/* Records rc (when it is a failure and the first) with conn's message. */
static int note(outcome *o, ix_conn *c, int rc) {
    if (rc < 0 && o->rc == IX_OK) {
        o->rc = rc;
        snprintf(o->msg, sizeof o->msg, "%s", ix_errmsg(c));
    }
    return rc < 0;
}

/* After a failure, with allocations working again: the connection answers a
 * query, or is dead (IX_ECONN) and only closable. */
static void probe(outcome *o, ix_conn *c) {
    if (persist || o->rc == IX_OK) return;
    arm(0);
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, "select count(*) from systables where tabid = 1", IX_NTS, &s);
    if (rc == IX_OK) rc = ix_step(s);
    ix_finalize(s);
    if (rc == IX_ECONN)
        o->dead = 1;
    else if (rc != IX_ROW)
        o->bad = 1, snprintf(o->msg, sizeof o->msg, "after the failure: %s", ix_rc_str(rc));
}

/* A connection with extra DSN options (or none), opened without failures. */
static ix_conn *open_conn(const char *extra) {
    arm(0);
    ix_conn *c = NULL;
    char d[600];
    snprintf(d, sizeof d, "%s %s", dsn, extra ? extra : "");
    if (ix_connect(&c, d) != IX_OK) {
        fprintf(stderr, "connect: %s\n", ix_errmsg(c));
        ix_close(c);
        return NULL;
    }
    return c;
}

/* ---- scenarios ------------------------------------------------------------ */

static void sc_connect_with(outcome *o, const char *d) {
    ix_conn *c = NULL;
    int rc = ix_connect(&c, d);
    if (c)
        note(o, c, rc);
    else if (rc != IX_OK)
        o->rc = rc, snprintf(o->msg, sizeof o->msg, "%s", ix_errmsg(NULL));
    if (rc == IX_OK && strcmp(ix_conn_server(c), "") == 0) o->bad = 1;
    ix_close(c);
}
static void sc_connect(outcome *o) {
    sc_connect_with(o, dsn);
}
static void sc_connect_group(outcome *o) {
    sc_connect_with(o, group_dsn);
}

static void sc_prepare(outcome *o, ix_conn *c) {
    ix_stmt *s = NULL;
    if (note(o, c, ix_prepare(c, "select k, d, ts, v from t where k > ?", IX_NTS, &s))) goto out;
    /* the PREPARE is deferred: the describe calls send it, and record its failure */
    if (ix_column_count(s) != 4 || ix_bind_parameter_count(s) != 1) {
        note(o, c, ix_errcode(c));
        if (o->rc == IX_OK) o->bad = 1;
        goto out;
    }
    const char *want[] = {"INTEGER", "DECIMAL(10,2)", "DATETIME YEAR TO FRACTION(3)",
                          "VARCHAR(40)"};
    for (int i = 0; i < 4 && !o->bad; i++) {
        const char *dt = ix_column_decltype(s, i);
        if (!dt) {
            note(o, c, ix_errcode(c));
            if (o->rc == IX_OK) o->bad = 1;
            break;
        }
        if (strcmp(dt, want[i]) != 0 || !ix_column_name(s, i)) o->bad = 1;
    }
out:
    probe(o, c);
    ix_finalize(s);
}

/* Reads every column of the row; 0, or -1 after a failure or a wrong value. */
static int read_row(outcome *o, ix_conn *c, ix_stmt *s, int row) {
    char want[64];
    if (ix_column_int(s, 0) != row) return o->bad = 1, -1;
    ix_decimal_t dec;
    if (note(o, c, ix_column_get_decimal(s, 1, &dec))) return -1;
    char dtext[IX_DECIMAL_TEXT_SIZE];
    ix_decimal_text(&dec, dtext, sizeof dtext);
    snprintf(want, sizeof want, "%d.25", row * 100);
    if (strcmp(dtext, want) != 0) return o->bad = 1, -1;
    ix_datetime_t dt;
    if (note(o, c, ix_column_datetime(s, 2, &dt))) return -1;
    if (dt.day != row + 1) return o->bad = 1, -1;
    for (int i = 1; i <= 3; i++) { /* text forms: conversions that allocate */
        if (!ix_column_text(s, i)) {
            if (!note(o, c, ix_errcode(c))) o->bad = 1;
            return -1;
        }
    }
    snprintf(want, sizeof want, "value %d", row);
    if (strcmp(ix_column_text(s, 3), want) != 0) return o->bad = 1, -1;
    size_t n = 0;
    const unsigned char *b = ix_column_blob(s, 4, &n);
    if (!b) {
        if (!note(o, c, ix_errcode(c))) o->bad = 1;
        return -1;
    }
    if (n != (size_t)(row * 10) || (n && b[n - 1] != (unsigned char)row)) return o->bad = 1, -1;
    const char *tx = ix_column_text(s, 5);
    if (!tx) {
        if (!note(o, c, ix_errcode(c))) o->bad = 1;
        return -1;
    }
    snprintf(want, sizeof want, "text %d", row);
    return strcmp(tx, want) != 0 ? (o->bad = 1, -1) : 0;
}

static void sc_fetch(outcome *o, ix_conn *c) {
    ix_stmt *s = NULL;
    if (note(o, c, ix_prepare(c, "select k, d, ts, v, b, x from t order by k", IX_NTS, &s)))
        goto out;
    ix_stmt_set_fetch_buffer(s, 256); /* several NFETCH batches */
    ix_stmt_set_readahead(s, 1);
    int rows = 0, rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        if (read_row(o, c, s, rows)) goto out;
        rows++;
    }
    if (!note(o, c, rc) && rows != NROWS) o->bad = 1;
out:
    probe(o, c);
    ix_finalize(s);
}

static int bind_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    char text[32];
    snprintf(text, sizeof text, "batch %d", (int)row);
    int rc = ix_bind_int(s, 1, (int)row);
    if (rc == IX_OK) rc = ix_bind_decimal_text(s, 2, "12.5", IX_NTS);
    if (rc == IX_OK) rc = ix_bind_text(s, 3, text, IX_NTS, IX_TRANSIENT);
    return rc;
}

static void sc_batch(outcome *o, ix_conn *c) {
    ix_stmt *s = NULL;
    int codes[BATCHROWS];
    int64_t nfailed = 0;
    if (note(o, c, ix_exec(c, "delete from b"))) goto out;
    if (note(o, c, ix_prepare(c, "insert into b values (?, ?, ?)", IX_NTS, &s))) goto out;
    if (note(o, c, ix_batch_execute(s, BATCHROWS, bind_row, NULL, codes, &nfailed))) goto out;
    if (nfailed != 0 || ix_changes(s) != BATCHROWS) o->bad = 1;
    int64_t ks[BATCHROWS];
    const char *vs[BATCHROWS];
    for (int i = 0; i < BATCHROWS; i++)
        ks[i] = 1000 + i, vs[i] = "arrays";
    const char *ds[BATCHROWS];
    for (int i = 0; i < BATCHROWS; i++)
        ds[i] = "7.5"; /* the DECIMAL column as text */
    const ix_array cols[3] = {
        {IX_ARRAY_INT64, ks, NULL}, {IX_ARRAY_TEXT, ds, NULL}, {IX_ARRAY_TEXT, vs, NULL}};
    if (note(o, c, ix_batch_execute_arrays(s, BATCHROWS, cols, 3, codes, &nfailed))) goto out;
    if (nfailed != 0 || ix_changes(s) != BATCHROWS) o->bad = 1;
out:
    probe(o, c);
    ix_finalize(s);
}

/* Prepares, steps to the end and finalizes sql; the row count, or -1. */
static int run_cached(outcome *o, ix_conn *c, const char *sql) {
    ix_stmt *s = NULL;
    int rows = 0, rc = ix_prepare(c, sql, IX_NTS, &s);
    if (rc == IX_OK)
        while ((rc = ix_step(s)) == IX_ROW)
            rows++;
    note(o, c, rc == IX_DONE ? IX_OK : rc);
    ix_finalize(s);
    return rc == IX_DONE ? rows : -1;
}

static void sc_cache(outcome *o, ix_conn *c) {
    if (note(o, c, ix_set_stmt_cache(c, 2))) goto out;
    const char *q[] = {"select k from t where k < 3", "select k from t where k < 5",
                       "select k from t where k < 3", "select k from t where k < 7",
                       "select k from t where k < 3"};
    const int want[] = {3, 5, 3, 7, 3};
    for (int i = 0; i < 5; i++) {
        int n = run_cached(o, c, q[i]);
        if (n < 0) {
            if (o->rc == IX_OK) o->bad = 1;
            goto out;
        }
        if (n != want[i]) o->bad = 1;
    }
out:
    probe(o, c);
}

static void sc_pool(outcome *o) {
    ix_pool_config cfg;
    ix_pool_config_init(&cfg);
    cfg.dsn = dsn;
    cfg.min_size = 1;
    cfg.max_size = 2;
    cfg.acquire_timeout_ms = 0;
    ix_pool *p = NULL;
    ix_conn *a = NULL, *b = NULL;
    int rc = ix_pool_create(&p, &cfg);
    if (rc != IX_OK) {
        o->rc = rc;
        if (p)
            ix_pool_errmsg(p, o->msg, sizeof o->msg);
        else
            snprintf(o->msg, sizeof o->msg, "%s", rc == IX_ENOMEM ? "out of memory" : "?");
        goto out;
    }
    for (int round = 0; round < 2; round++) {
        if ((rc = ix_pool_acquire(p, &a)) != IX_OK || (rc = ix_pool_acquire(p, &b)) != IX_OK) {
            o->rc = rc;
            ix_pool_errmsg(p, o->msg, sizeof o->msg);
            goto out;
        }
        if (note(o, a, ix_exec(a, "begin work")) ||
            note(o, b, ix_exec(b, "set lock mode to wait 5")))
            goto out;
        ix_pool_release(p, a);
        ix_pool_release(p, b);
        a = b = NULL;
    }
out:
    if (!persist) arm(0);
    if (a) ix_pool_release(p, a);
    if (b) ix_pool_release(p, b);
    ix_pool_destroy(p);
}

/* ---- the loop ------------------------------------------------------------- */

typedef struct scenario {
    const char *name;
    void (*on_conn)(outcome *, ix_conn *); /* run on a connection opened before */
    void (*alone)(outcome *);              /* or on its own */
    const char *extra;                     /* DSN options of that connection */
} scenario;

/* Runs sc with the n-th allocation failing; 1 when no failure was injected
 * and the run succeeded (the loop is done). */
static int run_once(const scenario *sc, long n, int *fails, int *deaths) {
    outcome o = {IX_OK, "", 0, 0};
    ix_conn *c = NULL;
    if (sc->on_conn && !(c = open_conn(sc->extra))) {
        CHECK(0, "%s: connect without failures", sc->name);
        return 1;
    }
    arm(n);
    if (c)
        sc->on_conn(&o, c);
    else
        sc->alone(&o);
    if (!persist) arm(0);
    ix_close(c); /* under the failures too when persist */
    int was_injected = atomic_load(&injected);
    arm(0);
    long left = atomic_load(&live);
    int ok = !o.bad && (o.rc == IX_OK || o.rc == IX_ENOMEM) && left == 0 && !broken;
    CHECK(ok, "%s%s, allocation %ld fails: %s (%s), %ld blocks live, %d calls off contract",
          sc->name, persist ? " (and all after it)" : "", n, ix_rc_str(o.rc), o.msg, left,
          atomic_load(&broken));
    if (!ok) return 1;
    if (o.rc == IX_ENOMEM) {
        (*fails)++;
        ok = strstr(o.msg, "out of memory") != NULL;
        CHECK(ok, "%s, allocation %ld: message \"%s\"", sc->name, n, o.msg);
        if (!ok) return 1;
    }
    if (was_injected && o.rc == IX_OK && getenv("AF_BT"))
        printf("# %s: allocation %ld failed, the call coped\n", sc->name, n);
    *deaths += o.dead;
    if (!was_injected) {
        CHECK(o.rc == IX_OK, "%s: succeeds without a failure", sc->name);
        return 1;
    }
    return 0;
}

static void loop(const scenario *sc) {
    int fails = 0, deaths = 0;
    long n = 1;
    while (n < MAX_N && !run_once(sc, n, &fails, &deaths))
        n++;
    CHECK(n < MAX_N, "%s ends", sc->name);
    CHECK(fails > 0, "%s: IX_ENOMEM reported", sc->name);
    printf("# %s%s: %ld allocations, %d runs reported IX_ENOMEM, %d left the connection dead\n",
           sc->name, persist ? " (persistent)" : "", n - 1, fails, deaths);
}

static int setup(void) {
    ix_conn *c = NULL;
    char d0[300];
    ixd_dsn(&P, 30, d0, sizeof d0);
    if (ix_connect(&c, d0) != IX_OK || ix_exec(c, "create database af with log") != IX_OK ||
        ix_exec(c, "create table t (k int, d decimal(10,2), ts datetime year to fraction(3), "
                   "v varchar(40), b byte, x text)") != IX_OK ||
        ix_exec(c, "create table b (k int, d decimal(10,2), v varchar(40))") != IX_OK) {
        fprintf(stderr, "setup: %s\n", ix_errmsg(c));
        ix_close(c);
        return -1;
    }
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, "insert into t values (?, ?, ?, ?, ?, ?)", IX_NTS, &s);
    for (int i = 0; i < NROWS && rc == IX_OK; i++) {
        char dec[32], ts[40], v[32], x[32];
        unsigned char blob[NROWS * 10];
        memset(blob, i, sizeof blob);
        snprintf(dec, sizeof dec, "%d.25", i * 100);
        snprintf(ts, sizeof ts, "2026-05-%02d 10:20:30.123", i + 1);
        snprintf(v, sizeof v, "value %d", i);
        snprintf(x, sizeof x, "text %d", i);
        ix_bind_int(s, 1, i);
        ix_bind_decimal_text(s, 2, dec, IX_NTS);
        ix_bind_datetime_text(s, 3, ts, IX_NTS, 0);
        ix_bind_text(s, 4, v, IX_NTS, IX_TRANSIENT);
        ix_bind_blob(s, 5, blob, (size_t)i * 10, IX_TRANSIENT);
        ix_bind_text(s, 6, x, IX_NTS, IX_TRANSIENT);
        rc = ix_step(s);
        rc = rc == IX_DONE ? ix_reset(s) : rc;
    }
    if (rc != IX_OK) fprintf(stderr, "insert: %s\n", ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);
    return rc == IX_OK ? 0 : -1;
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ix_allocator a = {t_malloc, t_realloc, t_free, NULL};
    CHECK(ix_set_allocator(&a) == IX_OK, "allocator installed");
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    if (setup() != 0) {
        CHECK(0, "tables");
        ixd_stop(&P, SIGTERM);
        return tap_done();
    }
    CHECK(atomic_load(&live) == 0, "setup leaves nothing live");
    CHECK(atomic_load(&broken) == 0, "setup: %d calls outside the allocator's contract",
          atomic_load(&broken));
    atomic_store(&broken, 0);
    char path[300];
    snprintf(path, sizeof path, "%s/sqlhosts", P.dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "g_af group - - i=1\nixd onsoctcp 127.0.0.1 %d g=g_af\n", P.port);
    fclose(f);
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd database=af "
             "read_timeout=30",
             P.port);
    snprintf(group_dsn, sizeof group_dsn,
             "informix://informix:in4mix@/af?server=g_af&sqlhosts=%s&fetch_buffer=4096"
             "&keepalive=0",
             path);

    /* text to and from the database through iconv (ix_locale_codeset) */
    const char *conv = "client_locale=en_US.utf8 db_locale=en_US.CP1252";
    const scenario all[] = {
        {"connect", NULL, sc_connect, NULL},
        {"connect (sqlhosts group)", NULL, sc_connect_group, NULL},
        {"prepare", sc_prepare, NULL, NULL},
        {"fetch", sc_fetch, NULL, NULL},
        {"fetch (code-set conversion)", sc_fetch, NULL, conv},
        {"batch", sc_batch, NULL, NULL},
        {"batch (code-set conversion)", sc_batch, NULL, conv},
        {"statement cache", sc_cache, NULL, NULL},
        {"pool", NULL, sc_pool, NULL},
    };
    const char *only = getenv("AF_ONLY");      /* to debug: one scenario (AF_BT=1: backtraces) */
    for (persist = 0; persist <= 1; persist++) /* one failure; then out of memory for good */
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            if (!only || strstr(all[i].name, only)) loop(&all[i]);
    CHECK(ix_set_allocator(NULL) == IX_OK, "allocator removed");
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
