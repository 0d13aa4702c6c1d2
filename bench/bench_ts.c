/*
 * bench_ts.c: table 3, the TimeSeries benchmark (docs/benchmarks-comparisons.md).
 * It reproduces the published comparison of the Oninit TimeSeries UDR API for
 * Informix against a plain relational table, side by side against one ixd
 * started on a temporary directory (with --load-dir):
 *
 *   data     S series x N one-minute points from 2026-01-01 00:00, three FLOAT
 *            metrics, each a seeded random walk in whole cents (value =
 *            cents / 100, written as text with two decimals); the same values
 *            go into both stores (the relational side binds the doubles).
 *   load     relational (series_id, ts, m1, m2, m3, PRIMARY KEY (series_id, ts))
 *            through one transaction of pipelined ix_batch_execute_arrays,
 *            against oni_ts_write_file (a loader file) and against pipelined
 *            EXECUTE PROCEDURE oni_ts_write_many batches of 1000 elements.
 *   writes   2,000 elements in one transaction at 1, 10, 50, 100, 500 per
 *            call, one call after another and pipelined, against INSERTs.
 *   JSON     windows of 1 h, 4 h, 1 day, 7 days: oni_ts_read pages against the
 *            relational table building the JSON in SQL (||) and against the
 *            client building it from a plain SELECT.
 *   rows     the same windows and the full series: oni_ts_read_rows against
 *            a plain SELECT.
 *   size     database file size / points, each store in its own database,
 *            measured after ixd stopped on SIGTERM (-wal counted if left).
 *   goals    printed as "| goal: " rows (bench/run_all.sh collects them).
 *
 * Every variant of a section runs once per round, in a rotating order; the
 * report gives the median and IQR (Q3 - Q1) over the rounds and the ratios.
 *
 * Usage: bench_ts [--quick] [--rounds N] [--series S] [--points N]
 *   default: 10 rounds, 10 series x 20160 points; --quick: 5 rounds,
 *   2 series x 11520 points (eight days, so that the 7-day window fits).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "bench_util.h"

#define USER         "informix"
#define PASS         "in4mix"
#define NMETRIC      3
#define MIN_PER_DAY  1440
#define MAX_POINTS   (30 * MIN_PER_DAY) /* timestamps stay in January 2026 */
#define LOAD_BATCH   1000               /* elements per oni_ts_write_many of the load */
#define WRITE_N      2000               /* elements of the writes-per-call section */
#define TRIVIAL_REPS 400                /* calls of the page / round-trip timing */
#define PAGE_BLOCK   20                 /* calls per block (TRIVIAL_REPS a multiple) */
#define AGG_REPS     100                /* calls of the aggregate timing */
#define FILE_NAME    "load.unl"

#define REL_DDL                                                                                    \
    "create table rel (series_id int, ts datetime year to fraction(5), m1 float, m2 float, "       \
    "m3 float, primary key (series_id, ts))"
#define REL_INSERT "insert into rel values (?, ?, ?, ?, ?)"
#define ROW_TYPE_DDL                                                                               \
    "create row type reading_t (ts datetime year to fraction(5), m1 float, m2 float, m3 float)"
#define TS_DDL "create table meters (id int primary key, readings timeseries(reading_t))"

/* ---- data --------------------------------------------------------------------------------- */

typedef struct dataset {
    int nser, npts;
    int64_t n;         /* nser * npts */
    int64_t *cents;    /* [(s * npts + k) * NMETRIC + m] */
    char *lines;       /* element text, one line per element, series after series */
    int64_t *line_off; /* [s * npts + k]: offset of element k of series s; [n]: the end */
    int32_t *rel_sid;  /* relational columns, row i = s * npts + k */
    char **rel_ts;     /* "2026-01-01 00:00:00.00000" */
    char *rel_ts_pool;
    double *rel_m[NMETRIC];
} dataset;

/* Timestamp text of minute k: "YYYY-MM-DD HH:MI" (16 chars) or with
 * ":SS.fffff" (full, 25 chars, the relational DATETIME literal). */
static int ts_text(char *buf, size_t cap, int k, int full) {
    unsigned u = (unsigned)k, day = 1 + u / MIN_PER_DAY % 31; /* k < MAX_POINTS */
    return snprintf(buf, cap, full ? "2026-01-%02u %02u:%02u:00.00000" : "2026-01-%02u %02u:%02u",
                    day, u / 60 % 24, u % 60);
}

/* Two-decimal text of a whole number of cents. */
static int cents_text(char *buf, size_t cap, int64_t c) {
    int64_t a = c < 0 ? -c : c;
    return snprintf(buf, cap, "%s%lld.%02lld", c < 0 ? "-" : "", (long long)(a / 100),
                    (long long)(a % 100));
}

static uint64_t rng_next(uint64_t *x) { /* xorshift64* */
    *x ^= *x >> 12, *x ^= *x << 25, *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1DULL;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void make_walks(dataset *d) {
    static const int64_t start[NMETRIC] = {2000, 5000, 100000}; /* 20.00, 50.00, 1000.00 */
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    d->cents = xmalloc((size_t)d->n * NMETRIC * sizeof *d->cents);
    for (int s = 0; s < d->nser; s++) {
        int64_t w[NMETRIC];
        for (int m = 0; m < NMETRIC; m++)
            w[m] = start[m] + 100 * s;
        for (int k = 0; k < d->npts; k++)
            for (int m = 0; m < NMETRIC; m++) {
                if (k > 0) w[m] += (int64_t)(rng_next(&seed) % 3) - 1; /* -1, 0, +1 cent */
                d->cents[((int64_t)s * d->npts + k) * NMETRIC + m] = w[m];
            }
    }
}

/* Element lines "YYYY-MM-DD HH:MI|v1|v2|v3\n" and the relational columns. */
static void make_text(dataset *d) {
    d->lines = xmalloc((size_t)d->n * 64);
    d->line_off = xmalloc((size_t)(d->n + 1) * sizeof *d->line_off);
    d->rel_sid = xmalloc((size_t)d->n * sizeof *d->rel_sid);
    d->rel_ts = xmalloc((size_t)d->n * sizeof *d->rel_ts);
    d->rel_ts_pool = xmalloc((size_t)d->n * 32);
    for (int m = 0; m < NMETRIC; m++)
        d->rel_m[m] = xmalloc((size_t)d->n * sizeof *d->rel_m[m]);
    int64_t o = 0;
    for (int64_t i = 0; i < d->n; i++) {
        int s = (int)(i / d->npts), k = (int)(i % d->npts);
        d->line_off[i] = o;
        o += ts_text(d->lines + o, 64, k, 0);
        for (int m = 0; m < NMETRIC; m++) {
            int64_t c = d->cents[i * NMETRIC + m];
            d->lines[o++] = '|';
            o += cents_text(d->lines + o, 32, c);
            d->rel_m[m][i] = (double)c / 100.0; /* the nearest double to the decimal */
        }
        d->lines[o++] = '\n';
        d->rel_sid[i] = s + 1;
        d->rel_ts[i] = d->rel_ts_pool + i * 32;
        ts_text(d->rel_ts[i], 32, k, 1);
    }
    d->line_off[d->n] = o;
}

static void make_data(dataset *d, int nser, int npts) {
    d->nser = nser, d->npts = npts, d->n = (int64_t)nser * npts;
    make_walks(d);
    make_text(d);
}

static void free_data(dataset *d) {
    free(d->cents), free(d->lines), free(d->line_off), free(d->rel_sid), free(d->rel_ts);
    free(d->rel_ts_pool);
    for (int m = 0; m < NMETRIC; m++)
        free(d->rel_m[m]);
}

/* The loader file: "key|timestamp|v1|v2|v3|" per line. */
static void write_load_file(const dataset *d, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    for (int64_t i = 0; i < d->n; i++) {
        const char *l = d->lines + d->line_off[i];
        int len = (int)(d->line_off[i + 1] - d->line_off[i] - 1);
        fprintf(f, "%d|%.*s|\n", d->rel_sid[i], len, l);
    }
    if (fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* ---- connections and schemas ------------------------------------------------------------- */

static int g_port;

static ix_conn *open_db(const char *db, int create) {
    char dsn[256];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS " server=ixd read_timeout=600",
             g_port);
    ix_conn *c = NULL;
    char sql[128];
    snprintf(sql, sizeof sql, create ? "create database %s with log" : "database %s", db);
    if (ix_connect(&c, dsn) != IX_OK || ix_exec(c, sql) != IX_OK) {
        fprintf(stderr, "%s: %s\n", sql, ix_errmsg(c));
        exit(1);
    }
    return c;
}

static int64_t query_int(ix_conn *c, const char *sql) {
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    int rc = ix_step(s);
    if (rc != IX_ROW) {
        fprintf(stderr, "%s: no row (%d) %s\n", sql, rc, ix_errmsg(c));
        exit(1);
    }
    int64_t v = ix_column_int64(s, 0);
    ix_finalize(s);
    return v;
}

/* A fresh relational table. */
static void rel_reset(ix_conn *c) {
    ix_exec(c, "drop table rel");
    BENCH_CHECK(c, ix_exec(c, REL_DDL));
}

/* A fresh TIMESERIES table with nser empty regular one-minute series. */
static void ts_reset(ix_conn *c, int nser) {
    ix_exec(c, "drop table meters");
    ix_exec(c, ROW_TYPE_DDL); /* fails harmlessly when it exists */
    BENCH_CHECK(c, ix_exec(c, TS_DDL));
    for (int s = 1; s <= nser; s++) {
        char sql[160];
        snprintf(sql, sizeof sql,
                 "execute procedure oni_ts_create('meters','readings',%d,'2026-01-01 00:00',"
                 "'1 minute')",
                 s);
        BENCH_CHECK(c, ix_exec(c, sql));
    }
}

/* The sum over the series of a number field of oni_ts_info (key: e.g.
 * "\"elements\":"). */
static int64_t ts_info_sum(ix_conn *c, int nser, const char *key) {
    int64_t total = 0;
    for (int s = 1; s <= nser; s++) {
        char sql[160];
        snprintf(sql, sizeof sql, "execute function oni_ts_info('meters','readings',%d)", s);
        ix_stmt *st = NULL;
        BENCH_CHECK(c, ix_prepare(c, sql, -1, &st));
        BENCH_CHECK(c, ix_step(st));
        const char *j = ix_column_text(st, 0), *p = j ? strstr(j, key) : NULL;
        total += p ? atoll(p + strlen(key)) : 0;
        ix_finalize(st);
    }
    return total;
}

static int64_t ts_elements(ix_conn *c, int nser) {
    return ts_info_sum(c, nser, "\"elements\":");
}

static void expect_count(const char *what, int64_t got, int64_t want) {
    if (got != want) {
        fprintf(stderr, "%s: %lld elements, expected %lld\n", what, (long long)got,
                (long long)want);
        exit(1);
    }
}

static pid_t g_ixd_pid;

/* CPU time ixd's threads have run, in seconds (the sum of the first field
 * of /proc/PID/task/TID/schedstat, nanoseconds); -1 if not available. */
static double ixd_cpu(void) {
    char path[128];
    snprintf(path, sizeof path, "/proc/%d/task", (int)g_ixd_pid);
    DIR *dir = opendir(path);
    if (!dir) return -1;
    double ns = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char f[400];
        snprintf(f, sizeof f, "%s/%.64s/schedstat", path, e->d_name);
        FILE *fp = fopen(f, "r");
        unsigned long long run = 0;
        if (fp && fscanf(fp, "%llu", &run) == 1) ns += (double)run;
        if (fp) fclose(fp);
    }
    closedir(dir);
    return ns / 1e9;
}

/* ---- bulk load ---------------------------------------------------------------------------- */

/* The relational table, the fastest way ixdb offers: one transaction, one
 * pipelined ix_batch_execute_arrays of a prepared INSERT. Rows [first,
 * first + n) of the data set. */
static double load_rel(ix_conn *c, const dataset *d, int64_t first, int64_t n) {
    double t = bench_now();
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, REL_INSERT, -1, &s));
    ix_array cols[2 + NMETRIC] = {{IX_ARRAY_INT32, d->rel_sid + first, NULL},
                                  {IX_ARRAY_TEXT, d->rel_ts + first, NULL}};
    for (int m = 0; m < NMETRIC; m++)
        cols[2 + m] = (ix_array){IX_ARRAY_DOUBLE, d->rel_m[m] + first, NULL};
    BENCH_CHECK(c, ix_batch_execute_arrays(s, n, cols, 2 + NMETRIC, NULL, NULL));
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
    return bench_now() - t;
}

static double load_file(ix_conn *c, const dataset *d) {
    double t = bench_now();
    int64_t n =
        query_int(c, "execute function oni_ts_write_file('meters','readings','" FILE_NAME "')");
    t = bench_now() - t;
    expect_count("oni_ts_write_file", n, d->n);
    return t;
}

/* A batch of elements of one series for oni_ts_write_many: elements
 * [k0, k0 + n) of series s (0-based). */
typedef struct ts_batch {
    const dataset *d;
    int s0;      /* first series */
    int k0;      /* first element in series s0 */
    int per;     /* elements per call */
    int percall; /* calls per series */
} ts_batch;

/* Binds call r of a batch: key, then the elements. A VARCHAR bind holds
 * 32,767 bytes; a longer text goes as BYTE (oni_ts_write_many takes TEXT or
 * BYTE for larger batches). */
static int bind_many(ix_stmt *st, int64_t r, void *ud) {
    const ts_batch *b = ud;
    int s = b->s0 + (int)(r / b->percall);
    int k = b->k0 + (int)(r % b->percall) * b->per;
    int64_t i = (int64_t)s * b->d->npts + k;
    int64_t end = i + b->per;
    if (k + b->per > b->d->npts) end = (int64_t)s * b->d->npts + b->d->npts;
    const char *p = b->d->lines + b->d->line_off[i];
    int len = (int)(b->d->line_off[end] - b->d->line_off[i]);
    if (b->per == 1) len--; /* oni_ts_write: one element, no line end */
    if (ix_bind_int(st, 1, s + 1) != IX_OK) return -1;
    if (len > 32767) return ix_bind_blob(st, 2, p, len, IX_STATIC) == IX_OK ? 0 : -1;
    return ix_bind_text(st, 2, p, len, IX_STATIC) == IX_OK ? 0 : -1;
}

/* Client batches: pipelined EXECUTE PROCEDURE oni_ts_write_many of
 * LOAD_BATCH elements per call, every series, one transaction. */
static double load_many(ix_conn *c, const dataset *d) {
    double t = bench_now();
    ix_stmt *s = NULL;
    ts_batch b = {d, 0, 0, LOAD_BATCH, (d->npts + LOAD_BATCH - 1) / LOAD_BATCH};
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(
        c, ix_prepare(c, "execute procedure oni_ts_write_many('meters','readings',?,?)", -1, &s));
    BENCH_CHECK(c, ix_batch_execute(s, (int64_t)d->nser * b.percall, bind_many, &b, NULL, NULL));
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
    return bench_now() - t;
}

/* The client writer (ix_ts_writer, flush=1000, so a buffer goes at 1000
 * elements or IX_TS_MAX_TEXT bytes), fed in time order across the series
 * as a live feed of meters would be (element k of every series, then k+1),
 * so that the buffers fill together and a flush sends them in one
 * pipelined batch. values: ix_ts_writer_add_values from the doubles and
 * microseconds, else ix_ts_writer_add of the prepared element text. One
 * transaction. */
static double load_writer(ix_conn *c, const dataset *d, int values) {
    static const int64_t ORIGIN_US = 1767225600LL * 1000000; /* 2026-01-01 00:00 UTC */
    double t = bench_now();
    ix_ts_writer *w = NULL;
    char keys[64][12];
    int nk = d->nser < 64 ? d->nser : 64;
    for (int s = 0; s < nk; s++)
        snprintf(keys[s], sizeof keys[s], "%d", s + 1);
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_ts_writer_open(c, "meters", "readings", "flush=1000", &w));
    for (int k = 0; k < d->npts; k++)
        for (int s = 0; s < d->nser; s++) {
            char kb[12];
            const char *key = s < nk ? keys[s] : (snprintf(kb, sizeof kb, "%d", s + 1), kb);
            int64_t i = (int64_t)s * d->npts + k;
            if (values) {
                double v[NMETRIC];
                for (int m = 0; m < NMETRIC; m++)
                    v[m] = d->rel_m[m][i];
                BENCH_CHECK(c, ix_ts_writer_add_values(w, key, NULL, ORIGIN_US + k * 60000000LL, v,
                                                       NULL, NMETRIC));
            } else {
                const char *e = d->lines + d->line_off[i];
                int len = (int)(d->line_off[i + 1] - d->line_off[i] - 1);
                BENCH_CHECK(c, ix_ts_writer_add(w, key, e, len));
            }
        }
    BENCH_CHECK(c, ix_ts_writer_close(w));
    BENCH_CHECK(c, ix_commit(c));
    return bench_now() - t;
}

enum { LD_REL, LD_FILE, LD_MANY, LD_WRITER, LD_VALUES, LD_N };
static const char *const LD_NAME[LD_N] = {
    "relational INSERT (pipelined arrays)", "oni_ts_write_file (loader file)",
    "oni_ts_write_many x1000 (pipelined)", "ix_ts_writer_add (element text)",
    "ix_ts_writer_add_values (doubles)"};

/* The last element of the last series is at the last minute, with the
 * last values (as doubles: the server prints them its own way). */
static void expect_last(ix_conn *c, const dataset *d, const char *what) {
    char sql[160], want[32];
    snprintf(sql, sizeof sql, "execute function oni_ts_last('meters','readings',%d)", d->nser);
    ix_stmt *st = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &st));
    BENCH_CHECK(c, ix_step(st));
    const char *got = ix_column_text(st, 0);
    ts_text(want, sizeof want, d->npts - 1, 1);
    int ok = got && !strncmp(got, want, strlen(want));
    const char *p = got ? got + strlen(want) : NULL;
    for (int m = 0; ok && m < NMETRIC; m++) {
        char *end;
        ok = *p == '|' && strtod(p + 1, &end) == d->rel_m[m][d->n - 1];
        p = end;
    }
    if (!ok) {
        fprintf(stderr, "%s: last element %s, expected %s|%.2f|...\n", what, got ? got : "NULL",
                want, d->rel_m[0][d->n - 1]);
        exit(1);
    }
    ix_finalize(st);
}

/* One load of every kind per round, the order rotating; the stores are
 * emptied before each (not timed) and counted after. */
static void bench_load(const dataset *d, int rounds, double *t[LD_N]) {
    ix_conn *cr = open_db("ldrel", 1), *ct = open_db("ldts", 1);
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < LD_N; j++) {
            int v = (r + j) % LD_N;
            if (v == LD_REL) {
                rel_reset(cr);
                t[v][r] = load_rel(cr, d, 0, d->n);
                expect_count("relational load", query_int(cr, "select count(*) from rel"), d->n);
            } else {
                ts_reset(ct, d->nser);
                t[v][r] = v == LD_FILE   ? load_file(ct, d)
                          : v == LD_MANY ? load_many(ct, d)
                                         : load_writer(ct, d, v == LD_VALUES);
                expect_count(LD_NAME[v], ts_elements(ct, d->nser), d->n);
                expect_last(ct, d, LD_NAME[v]);
            }
        }
    ix_close(cr);
    ix_close(ct);
}

/* ---- writes per call ---------------------------------------------------------------------- */

static const int PER_CALL[] = {1, 10, 50, 100, 500};
#define NPER ((int)(sizeof PER_CALL / sizeof PER_CALL[0]))
/* variants: 0 INSERT one by one, 1 INSERT pipelined, then per size: one by
 * one (2 + 2j), pipelined (3 + 2j) */
#define WR_N (2 + 2 * NPER)

static double write_insert(ix_conn *c, const dataset *d, int pipelined) {
    if (pipelined) return load_rel(c, d, 0, WRITE_N);
    double t = bench_now();
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, REL_INSERT, -1, &s));
    for (int i = 0; i < WRITE_N; i++) {
        ix_bind_int(s, 1, d->rel_sid[i]);
        ix_bind_text(s, 2, d->rel_ts[i], -1, IX_STATIC);
        for (int m = 0; m < NMETRIC; m++)
            ix_bind_double(s, 3 + m, d->rel_m[m][i]);
        BENCH_CHECK(c, ix_step(s));
        ix_reset(s);
    }
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
    return bench_now() - t;
}

/* WRITE_N elements of series 1 at per elements a call: oni_ts_write for 1,
 * oni_ts_write_many otherwise; each call a round trip, or all pipelined. */
static double write_ts(ix_conn *c, const dataset *d, int per, int pipelined) {
    double t = bench_now();
    ix_stmt *s = NULL;
    ts_batch b = {d, 0, 0, per, WRITE_N / per};
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c,
                              per == 1 ? "execute procedure oni_ts_write('meters','readings',?,?)"
                                       : "execute procedure oni_ts_write_many('meters','readings',"
                                         "?,?)",
                              -1, &s));
    if (pipelined) {
        BENCH_CHECK(c, ix_batch_execute(s, b.percall, bind_many, &b, NULL, NULL));
    } else {
        for (int r = 0; r < b.percall; r++) {
            if (bind_many(s, r, &b) < 0) BENCH_CHECK(c, IX_EINVAL);
            BENCH_CHECK(c, ix_step(s));
            ix_reset(s);
        }
    }
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
    return bench_now() - t;
}

static void bench_writes(const dataset *d, int rounds, double *t[WR_N], double *cpu[WR_N]) {
    ix_conn *c = open_db("wr", 1);
    ix_exec(c, ROW_TYPE_DDL);
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < WR_N; j++) {
            int v = (r + j) % WR_N;
            double c0;
            if (v < 2) {
                rel_reset(c);
                c0 = ixd_cpu();
                t[v][r] = write_insert(c, d, v == 1);
                cpu[v][r] = ixd_cpu() - c0;
                expect_count("inserts", query_int(c, "select count(*) from rel"), WRITE_N);
            } else {
                ts_reset(c, 1);
                c0 = ixd_cpu();
                t[v][r] = write_ts(c, d, PER_CALL[(v - 2) / 2], (v - 2) % 2);
                cpu[v][r] = ixd_cpu() - c0;
                expect_count("ts writes", ts_elements(c, 1), WRITE_N);
            }
        }
    ix_close(c);
}

/* ---- reads -------------------------------------------------------------------------------- */

static const int WIN_MIN[] = {60, 240, 1440, 7 * 1440};
static const char *const WIN_NAME[] = {"1 hour", "4 hours", "1 day", "7 days", "full series"};
#define NWIN ((int)(sizeof WIN_MIN / sizeof WIN_MIN[0]))
enum { JS_TS, JS_TS_ROWS, JS_READER, JS_SQL, JS_CLIENT, JS_N, RW_TS = 0, RW_SQL, RW_N };
static const char *const JS_NAME[JS_N] = {
    "oni_ts_read (columnar pages)", "oni_ts_read shape=rows", "ix_ts_reader (columnar pages)",
    "relational, JSON built in SQL (||)", "relational, JSON built by the client"};
static const char *const RW_NAME[RW_N] = {"oni_ts_read_rows", "relational SELECT"};

#define REL_WHERE " from rel where series_id = ? and ts between ? and ? order by ts"
#define SQL_JSON                                                                                   \
    "select '{\"ts\":\"' || ts || '\",\"m1\":' || m1 || ',\"m2\":' || m2 || ',\"m3\":' || m3 "     \
    "|| '}'" REL_WHERE
#define SQL_ROWS "select ts, m1, m2, m3" REL_WHERE
#define TS_ROWS                                                                                    \
    "select * from table(oni_ts_read_rows('meters','readings',?,?,?)::multiset(reading_t))"

typedef struct window {
    int k0, k1; /* first and last minute, inclusive */
    char from[32], to[32];
} window;

typedef struct readres {
    int64_t calls, points, first_page;
    size_t bytes;
    double check;
} readres;

typedef struct jbuf {
    char *p;
    size_t len, cap;
} jbuf;

static void jb_add(jbuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) exit(1);
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static void bind_window(ix_stmt *s, int key, const window *w) {
    ix_bind_int(s, 1, key);
    ix_bind_datetime_text(s, 2, w->from, -1, 0);
    ix_bind_datetime_text(s, 3, w->to, -1, 0);
}

/* The value after "next": at the end of a page: 1 and the timestamp in
 * next, or 0 for null. */
static int page_next(const char *doc, size_t len, char *next, size_t cap) {
    static const char key[] = "\"next\":";
    for (size_t i = len >= sizeof key ? len - (sizeof key - 1) : 0; i-- > 0;)
        if (!memcmp(doc + i, key, sizeof key - 1)) {
            const char *v = doc + i + sizeof key - 1;
            if (*v != '"') return 0;
            const char *e = strchr(v + 1, '"');
            if (!e || (size_t)(e - v) >= cap) return 0;
            snprintf(next, cap, "%.*s", (int)(e - v - 1), v + 1);
            return 1;
        }
    return 0;
}

/* oni_ts_read pages over the window, following "next" until null; the
 * client keeps every page. */
static double json_ts(ix_conn *c, int key, const window *w, int rows_shape, jbuf *out,
                      readres *res) {
    double t = bench_now();
    ix_stmt *s = NULL;
    char from[40];
    snprintf(from, sizeof from, "%s", w->from);
    BENCH_CHECK(c,
                ix_prepare(c,
                           rows_shape ? "execute function oni_ts_read('meters','readings',?,?,"
                                        "?,'shape=rows')"
                                      : "execute function oni_ts_read('meters','readings',?,?,?)",
                           -1, &s));
    out->len = 0;
    for (;;) {
        ix_bind_int(s, 1, key);
        ix_bind_text(s, 2, from, -1, IX_STATIC);
        ix_bind_text(s, 3, w->to, -1, IX_STATIC);
        BENCH_CHECK(c, ix_step(s));
        size_t n = 0;
        const char *doc = ix_column_blob(s, 0, &n);
        int64_t pts = n > 5 ? atoll(doc + 5) : 0; /* {"n":N,... */
        if (res->calls++ == 0) res->first_page = pts;
        res->points += pts;
        jb_add(out, doc, n);
        int more = page_next(doc, n, from, sizeof from);
        ix_reset(s);
        if (!more) break;
    }
    ix_finalize(s);
    t = bench_now() - t;
    res->bytes = out->len;
    return t;
}

/* The same pages through the client reader (ix_ts_reader). */
static double json_reader(ix_conn *c, int key, const window *w, jbuf *out, readres *res) {
    double t = bench_now();
    ix_ts_reader *rd = NULL;
    char kb[12];
    snprintf(kb, sizeof kb, "%d", key);
    BENCH_CHECK(c, ix_ts_reader_open(c, "meters", "readings", kb, w->from, w->to, NULL, &rd));
    out->len = 0;
    const char *doc;
    size_t n;
    int rc;
    while ((rc = ix_ts_reader_next(rd, &doc, &n)) == IX_ROW) {
        int64_t pts = n > 5 ? atoll(doc + 5) : 0;
        if (res->calls++ == 0) res->first_page = pts;
        res->points += pts;
        jb_add(out, doc, n);
    }
    BENCH_CHECK(c, rc);
    ix_ts_reader_close(rd);
    t = bench_now() - t;
    res->bytes = out->len;
    return t;
}

/* The relational table building the JSON per row in SQL; the client joins
 * the rows into one document. */
static double json_sql(ix_conn *c, int key, const window *w, jbuf *out, readres *res) {
    double t = bench_now();
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, SQL_JSON, -1, &s));
    bind_window(s, key, w);
    out->len = 0;
    jb_add(out, "[", 1);
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        size_t n = 0;
        const char *row = ix_column_blob(s, 0, &n);
        if (res->points++) jb_add(out, ",", 1);
        jb_add(out, row, n);
    }
    BENCH_CHECK(c, rc);
    jb_add(out, "]", 1);
    ix_finalize(s);
    t = bench_now() - t;
    res->calls = 1, res->first_page = res->points, res->bytes = out->len;
    return t;
}

/* Shortest of %.15g / %.17g that reads back to v. */
static int fmt_double(char *buf, size_t cap, double v) {
    int n = snprintf(buf, cap, "%.15g", v);
    if (strtod(buf, NULL) != v) n = snprintf(buf, cap, "%.17g", v);
    return n;
}

/* A plain SELECT, the client building the same row-shape JSON. */
static double json_client(ix_conn *c, int key, const window *w, jbuf *out, readres *res) {
    double t = bench_now();
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, SQL_ROWS, -1, &s));
    bind_window(s, key, w);
    out->len = 0;
    jb_add(out, "[", 1);
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        char row[256];
        int n = snprintf(row, sizeof row, "%s{\"ts\":\"%s\"", res->points++ ? "," : "",
                         ix_column_text(s, 0));
        for (int m = 0; m < NMETRIC; m++) {
            n += snprintf(row + n, sizeof row - (size_t)n, ",\"m%d\":", m + 1);
            n += fmt_double(row + n, sizeof row - (size_t)n, ix_column_double(s, 1 + m));
        }
        row[n++] = '}';
        jb_add(out, row, (size_t)n);
    }
    BENCH_CHECK(c, rc);
    jb_add(out, "]", 1);
    ix_finalize(s);
    t = bench_now() - t;
    res->calls = 1, res->first_page = res->points, res->bytes = out->len;
    return t;
}

/* Rows of the window, every column read (the timestamp as a DATETIME). */
static double rows_read(ix_conn *c, int key, const window *w, int ts, readres *res) {
    double t = bench_now();
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, ts ? TS_ROWS : SQL_ROWS, -1, &s));
    if (ts) {
        ix_bind_int(s, 1, key);
        ix_bind_text(s, 2, w->from, -1, IX_STATIC);
        ix_bind_text(s, 3, w->to, -1, IX_STATIC);
    } else {
        bind_window(s, key, w);
    }
    int rc;
    double sum = 0;
    while ((rc = ix_step(s)) == IX_ROW) {
        ix_datetime_t dt;
        ix_column_datetime(s, 0, &dt);
        sum += dt.minute;
        for (int m = 0; m < NMETRIC; m++)
            sum += ix_column_double(s, 1 + m);
        res->points++;
    }
    BENCH_CHECK(c, rc);
    ix_finalize(s);
    t = bench_now() - t;
    res->calls = 1, res->check = sum;
    return t;
}

static window make_window(const dataset *d, int wi) {
    window w;
    int len = wi < NWIN ? WIN_MIN[wi] : d->npts;
    /* windows start at day 2 when the series is long enough, else at its origin */
    w.k0 = wi < NWIN && d->npts >= MIN_PER_DAY + WIN_MIN[NWIN - 1] ? MIN_PER_DAY : 0;
    w.k1 = w.k0 + len - 1 < d->npts - 1 ? w.k0 + len - 1 : d->npts - 1;
    ts_text(w.from, sizeof w.from, w.k0, 1);
    ts_text(w.to, sizeof w.to, w.k1, 1);
    return w;
}

typedef struct readtimes {
    double *json[NWIN][JS_N], *rows[NWIN + 1][RW_N];
    readres jres[NWIN][JS_N], rres[NWIN + 1][RW_N];
} readtimes;

static void check_points(const char *what, const window *w, int wi, int64_t got) {
    if (got != w->k1 - w->k0 + 1) {
        fprintf(stderr, "%s, %s: %lld points, expected %d\n", what, WIN_NAME[wi], (long long)got,
                w->k1 - w->k0 + 1);
        exit(1);
    }
}

static void read_round(ix_conn *cr, ix_conn *ct, const dataset *d, int r, readtimes *rt,
                       jbuf *buf) {
    int key = 1 + r % d->nser;
    for (int wi = 0; wi <= NWIN; wi++) {
        window w = make_window(d, wi);
        for (int j = 0; j < JS_N + RW_N; j++) {
            int v = (r + j) % (JS_N + RW_N);
            if (v >= JS_N) {
                v -= JS_N;
                readres *res = &rt->rres[wi][v];
                *res = (readres){0, 0, 0, 0, 0};
                rt->rows[wi][v][r] = rows_read(v == RW_TS ? ct : cr, key, &w, v == RW_TS, res);
                check_points(RW_NAME[v], &w, wi, res->points);
                continue;
            }
            if (wi == NWIN) continue; /* the full series: rows only */
            readres *res = &rt->jres[wi][v];
            *res = (readres){0, 0, 0, 0, 0};
            double t = v == JS_TS || v == JS_TS_ROWS
                           ? json_ts(ct, key, &w, v == JS_TS_ROWS, buf, res)
                       : v == JS_READER ? json_reader(ct, key, &w, buf, res)
                       : v == JS_SQL    ? json_sql(cr, key, &w, buf, res)
                                        : json_client(cr, key, &w, buf, res);
            rt->json[wi][v][r] = t;
            check_points(JS_NAME[v], &w, wi, res->points);
        }
    }
}

/* Results of the single-call timings. */
typedef struct callres {
    double page, trivial;         /* wall medians, s */
    double page_cpu, trivial_cpu; /* ixd CPU per call, s */
    double agg_ts, agg_rel;       /* wall medians, s */
    int64_t page_n, chunk_bytes;
    size_t page_bytes;
} callres;

static double one_page(ix_conn *c, ix_stmt *sp, const window *w, callres *cr) {
    double t = bench_now();
    ix_bind_int(sp, 1, 1);
    ix_bind_text(sp, 2, w->from, -1, IX_STATIC);
    ix_bind_text(sp, 3, w->to, -1, IX_STATIC);
    BENCH_CHECK(c, ix_step(sp));
    size_t n = 0;
    const char *doc = ix_column_blob(sp, 0, &n);
    cr->page_n = n > 5 ? atoll(doc + 5) : 0, cr->page_bytes = n;
    ix_reset(sp);
    return bench_now() - t;
}

static double one_last(ix_conn *c, ix_stmt *sl) {
    double t = bench_now();
    ix_bind_int(sl, 1, 1);
    BENCH_CHECK(c, ix_step(sl));
    ix_reset(sl);
    return bench_now() - t;
}

/* Full default pages (the first page of the 7-day window) against a
 * trivial call (oni_ts_last) on the same connection, in alternating blocks
 * of PAGE_BLOCK calls: the wall medians, and ixd's CPU per call over the
 * blocks of each kind. */
static void page_time(ix_conn *c, const dataset *d, callres *cr) {
    window w = make_window(d, NWIN - 1);
    ix_stmt *sp = NULL, *sl = NULL;
    BENCH_CHECK(c,
                ix_prepare(c, "execute function oni_ts_read('meters','readings',?,?,?)", -1, &sp));
    BENCH_CHECK(c, ix_prepare(c, "execute function oni_ts_last('meters','readings',?)", -1, &sl));
    double *tp = xmalloc(TRIVIAL_REPS * sizeof *tp), *tl = xmalloc(TRIVIAL_REPS * sizeof *tl);
    double cpu_p = 0, cpu_l = 0;
    for (int i = 0; i < TRIVIAL_REPS; i += PAGE_BLOCK) {
        double c0 = ixd_cpu();
        for (int j = i; j < i + PAGE_BLOCK; j++)
            tp[j] = one_page(c, sp, &w, cr);
        double c1 = ixd_cpu();
        for (int j = i; j < i + PAGE_BLOCK; j++)
            tl[j] = one_last(c, sl);
        double c2 = ixd_cpu();
        cpu_p += c1 - c0, cpu_l += c2 - c1;
    }
    cr->page = bench_stats(tp, TRIVIAL_REPS).median;
    cr->trivial = bench_stats(tl, TRIVIAL_REPS).median;
    cr->page_cpu = ixd_cpu() < 0 ? -1 : cpu_p / TRIVIAL_REPS;
    cr->trivial_cpu = ixd_cpu() < 0 ? -1 : cpu_l / TRIVIAL_REPS;
    free(tp), free(tl);
    ix_finalize(sp), ix_finalize(sl);
}

/* One-day average: oni_ts_aggregate with a '1 day' bucket over one day,
 * against avg() over the relational rows; the two must agree. */
static void agg_time(ix_conn *cr, ix_conn *ct, const dataset *d, double *tts, double *trel) {
    window w = make_window(d, 2);
    ix_stmt *st = NULL, *sr = NULL;
    BENCH_CHECK(ct, ix_prepare(ct,
                               "execute function oni_ts_aggregate('meters','readings',?,?,?,"
                               "'1 day','avg')",
                               -1, &st));
    BENCH_CHECK(cr, ix_prepare(cr,
                               "select avg(m1), avg(m2), avg(m3) from rel where series_id = ? "
                               "and ts between ? and ?",
                               -1, &sr));
    double *a = xmalloc(AGG_REPS * sizeof *a), *b = xmalloc(AGG_REPS * sizeof *b);
    double vts = 0, vrel = 0;
    for (int i = 0; i < AGG_REPS; i++) {
        double t = bench_now();
        ix_bind_int(st, 1, 1);
        ix_bind_text(st, 2, w.from, -1, IX_STATIC);
        ix_bind_text(st, 3, w.to, -1, IX_STATIC);
        BENCH_CHECK(ct, ix_step(st));
        vts = ix_column_double(st, 1);
        ix_reset(st);
        a[i] = bench_now() - t;
        t = bench_now();
        bind_window(sr, 1, &w);
        BENCH_CHECK(cr, ix_step(sr));
        vrel = ix_column_double(sr, 0);
        ix_reset(sr);
        b[i] = bench_now() - t;
    }
    if (fabs(vts - vrel) > 1e-9 * fabs(vrel)) {
        fprintf(stderr, "one-day avg(m1): TimeSeries %.17g, relational %.17g\n", vts, vrel);
        exit(1);
    }
    *tts = bench_stats(a, AGG_REPS).median, *trel = bench_stats(b, AGG_REPS).median;
    free(a), free(b);
    ix_finalize(st), ix_finalize(sr);
}

/* ---- size --------------------------------------------------------------------------------- */

/* Bytes of DIR/NAME.db and its -wal (if one is left). */
static int64_t db_bytes(const char *dir, const char *name) {
    char path[512];
    struct stat sb;
    int64_t total = 0;
    snprintf(path, sizeof path, "%s/%s.db", dir, name);
    if (stat(path, &sb) != 0) {
        perror(path);
        exit(1);
    }
    total += sb.st_size;
    snprintf(path, sizeof path, "%s/%s.db-wal", dir, name);
    if (stat(path, &sb) == 0) total += sb.st_size;
    return total;
}

/* ---- report ------------------------------------------------------------------------------- */

/* Least squares t = a * calls + b * points over n windows (a: per call, b:
 * per point); returns 0 when the system is singular. */
static int fit2(const double *t, const double *calls, const double *pts, int n, double *a,
                double *b) {
    double sxx = 0, sxy = 0, syy = 0, sxt = 0, syt = 0;
    for (int i = 0; i < n; i++) {
        sxx += calls[i] * calls[i], sxy += calls[i] * pts[i], syy += pts[i] * pts[i];
        sxt += calls[i] * t[i], syt += pts[i] * t[i];
    }
    double det = sxx * syy - sxy * sxy;
    if (fabs(det) < 1e-12) return 0;
    *a = (sxt * syy - syt * sxy) / det, *b = (sxx * syt - sxy * sxt) / det;
    return 1;
}

static void print_load(const dataset *d, int rounds, double *t[LD_N], double *rate_many,
                       double *rate_file) {
    static const char *const PUB[LD_N] = {"1 (LOAD FROM)", "3.8x faster", "3.8x faster",
                                          "3.8x faster", "3.8x faster"};
    bench_stat rel = bench_stats(t[LD_REL], rounds);
    printf("### Bulk load (%lld points, %d rounds)\n\n", (long long)d->n, rounds);
    printf("| method | median ms | IQR ms | elements/s | speed-up over relational | published |\n"
           "|---|---:|---:|---:|---:|---|\n");
    for (int v = 0; v < LD_N; v++) {
        bench_stat st = bench_stats(t[v], rounds);
        printf("| %s | %.1f | %.1f | %.0f | %.2fx | %s |\n", LD_NAME[v], st.median * 1e3,
               (st.q3 - st.q1) * 1e3, (double)d->n / st.median, rel.median / st.median, PUB[v]);
    }
    *rate_many = (double)d->n / bench_stats(t[LD_WRITER], rounds).median;
    *rate_file = (double)d->n / bench_stats(t[LD_FILE], rounds).median;
    printf("\n");
}

static void print_writes(int rounds, double *t[WR_N], double *cpu[WR_N], double *single_us,
                         double *single_cpu_us) {
    double ins = bench_stats(t[0], rounds).median / WRITE_N * 1e6;
    double one = bench_stats(t[2], rounds).median / WRITE_N * 1e6;
    printf("### Writes per call (%d elements in one transaction, %d rounds)\n\n", WRITE_N, rounds);
    printf("| per call | method | calls | median ms | IQR ms | us/call | us/element | "
           "vs INSERT (per element) | per element / single call | ixd CPU us/call | published |\n"
           "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int v = 0; v < WR_N; v++) {
        int per = v < 2 ? 1 : PER_CALL[(v - 2) / 2], pipe = v < 2 ? v : (v - 2) % 2;
        int calls = WRITE_N / per;
        bench_stat st = bench_stats(t[v], rounds);
        double us = st.median * 1e6;
        const char *pub = v == 0      ? "reference"
                          : v == 2    ? "~150 us/call, 2-8x slower than an INSERT"
                          : pipe      ? "-"
                          : per >= 50 ? "as fast as an INSERT per element; ~1/10 of a call"
                                      : "-";
        double cpu_us = bench_stats(cpu[v], rounds).median * 1e6 / calls;
        printf("| %d | %s%s | %d | %.2f | %.2f | %.1f | %.2f | %.2fx | %.3f | %.1f | %s |\n", per,
               v < 2      ? "INSERT"
               : per == 1 ? "oni_ts_write"
                          : "oni_ts_write_many",
               pipe ? " (pipelined)" : "", calls, st.median * 1e3, (st.q3 - st.q1) * 1e3,
               us / calls, us / WRITE_N, (us / WRITE_N) / ins, (us / WRITE_N) / one, cpu_us, pub);
    }
    *single_us = one;
    *single_cpu_us = bench_stats(cpu[2], rounds).median * 1e6 / WRITE_N;
    printf("\n\"vs INSERT\": us per element over the one-by-one INSERT's (%.1f us); above 1 is "
           "slower. \"per element / single call\": over oni_ts_write one by one (%.1f us). "
           "\"ixd CPU\": ixd's run time over the run (prepare, calls, commit), per call.\n\n",
           ins, one);
}

static void print_json(const dataset *d, int rounds, readtimes *rt, int64_t *page_pts) {
    printf("### JSON window reads (series of %d points, %d rounds)\n\n", d->npts, rounds);
    printf("| window | points | method | calls | points/page | KB | median ms | IQR ms | "
           "vs oni_ts_read | published |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---|\n");
    double tt[2][NWIN], calls[2][NWIN], pts[2][NWIN];
    for (int wi = 0; wi < NWIN; wi++) {
        bench_stat ts = bench_stats(rt->json[wi][JS_TS], rounds);
        for (int v = 0; v < JS_N; v++) {
            const readres *r = &rt->jres[wi][v];
            bench_stat st = bench_stats(rt->json[wi][v], rounds);
            const char *pub = v != JS_SQL ? "-" : wi == 0 ? "1.0x (equal)" : "1.6-1.7x slower";
            printf("| %s | %lld | %s | %lld | %lld | %.1f | %.3f | %.3f | %.2fx | %s |\n",
                   WIN_NAME[wi], (long long)r->points, JS_NAME[v], (long long)r->calls,
                   (long long)r->first_page, (double)r->bytes / 1024, st.median * 1e3,
                   (st.q3 - st.q1) * 1e3, st.median / ts.median, pub);
        }
        for (int v = 0; v < 2; v++) { /* JS_TS, JS_TS_ROWS */
            tt[v][wi] = bench_stats(rt->json[wi][v], rounds).median;
            calls[v][wi] = (double)rt->jres[wi][v].calls;
            pts[v][wi] = (double)rt->jres[wi][v].points;
        }
    }
    *page_pts = rt->jres[NWIN - 1][JS_TS].first_page;
    double a, b;
    printf("\n\"vs oni_ts_read\": median over the columnar oni_ts_read's (above 1: slower). "
           "Published: pages of 240 points (32,739 bytes), 42 calls for seven days.\n");
    for (int v = 0; v < 2; v++)
        if (fit2(tt[v], calls[v], pts[v], NWIN, &a, &b))
            printf("Fit of %s: %.3f ms per call + %.2f us per point "
                   "(published: ~0.1 ms per call + 9 us per row).\n",
                   JS_NAME[v], a * 1e3, b * 1e6);
    printf("\n");
}

static void print_rows(const dataset *d, int rounds, readtimes *rt, double *full_ms) {
    printf("### Row reads (%d rounds)\n\n", rounds);
    printf("| window | rows | method | median ms | IQR ms | us/row | vs SELECT | published |\n"
           "|---|---:|---|---:|---:|---:|---:|---|\n");
    double tv[RW_N][NWIN + 1], ones[NWIN + 1], pts[NWIN + 1];
    for (int wi = 0; wi <= NWIN; wi++) {
        bench_stat sel = bench_stats(rt->rows[wi][RW_SQL], rounds);
        for (int v = 0; v < RW_N; v++) {
            bench_stat st = bench_stats(rt->rows[wi][v], rounds);
            int64_t n = rt->rres[wi][v].points;
            printf("| %s | %lld | %s | %.3f | %.3f | %.2f | %.2fx | %s |\n", WIN_NAME[wi],
                   (long long)n, RW_NAME[v], st.median * 1e3, (st.q3 - st.q1) * 1e3,
                   st.median * 1e6 / (double)n, st.median / sel.median,
                   v == RW_TS ? "~5x slower than a SELECT" : "reference");
            tv[v][wi] = st.median;
        }
        ones[wi] = 1, pts[wi] = (double)rt->rres[wi][RW_TS].points;
    }
    *full_ms = bench_stats(rt->rows[NWIN][RW_TS], rounds).median * 1e3;
    printf("\n");
    for (int v = 0; v < RW_N; v++) {
        double a, b;
        if (fit2(tv[v], ones, pts, NWIN + 1, &a, &b))
            printf("Fit of %s: %.3f ms per call + %.2f us per row (published: %s).\n", RW_NAME[v],
                   a * 1e3, b * 1e6,
                   v == RW_TS ? "0.25 ms per call + 10 us per row" : "2 us per row");
    }
    (void)d;
    printf("\n");
}

static double print_size(const dataset *d, const char *dir, int64_t chunk_bytes) {
    int64_t rel = db_bytes(dir, "srel"), ts = db_bytes(dir, "sts"), empty = db_bytes(dir, "sempty");
    printf("### Bytes per point (%lld points; files after a clean stop)\n\n", (long long)d->n);
    printf("| store | file bytes | bytes/point | bytes/value | published bytes/point |\n"
           "|---|---:|---:|---:|---:|\n");
    printf("| relational table (srel.db) | %lld | %.2f | %.2f | 70 |\n", (long long)rel,
           (double)rel / (double)d->n, (double)rel / (double)d->n / NMETRIC);
    printf("| TimeSeries (sts.db) | %lld | %.2f | %.3f | 33 |\n", (long long)ts,
           (double)ts / (double)d->n, (double)ts / (double)d->n / NMETRIC);
    int64_t growth = ts - empty; /* what loading the series added to the file */
    printf("| TimeSeries growth (sts.db - empty database) | %lld | %.2f | %.3f | - |\n",
           (long long)growth, (double)growth / (double)d->n,
           (double)growth / (double)d->n / NMETRIC);
    printf("| TimeSeries chunks only (oni_ts_info \"bytes\") | %lld | %.2f | %.3f | - |\n",
           (long long)chunk_bytes, (double)chunk_bytes / (double)d->n,
           (double)chunk_bytes / (double)d->n / NMETRIC);
    printf("\nRelational / TimeSeries: %.1fx (published 70/33 = 2.1x). An empty database "
           "(catalog only) is %lld bytes, included in the file rows, not in the growth.\n\n",
           (double)rel / (double)ts, (long long)empty);
    return (double)growth / (double)d->n / NMETRIC;
}

/* ---- main --------------------------------------------------------------------------------- */

typedef struct opts {
    int quick, rounds, nser, npts;
} opts;

static opts parse_args(int argc, char **argv) {
    opts o = {0, 10, 10, 20160};
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--quick"))
            o.quick = 1, o.rounds = 5, o.nser = 2, o.npts = 8 * MIN_PER_DAY;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--rounds"))
            o.rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--series"))
            o.nser = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--points"))
            o.npts = atoi(argv[++i]);
    }
    if (o.rounds < 1 || o.nser < 1 || o.npts < WRITE_N || o.npts > MAX_POINTS) {
        fprintf(stderr,
                "usage: bench_ts [--quick] [--rounds N>=1] [--series S>=1] "
                "[--points %d..%d]\n",
                WRITE_N, MAX_POINTS);
        exit(2);
    }
    return o;
}

static double **alloc_times(int n, int rounds) {
    double **t = xmalloc((size_t)n * sizeof *t);
    for (int i = 0; i < n; i++)
        t[i] = xmalloc((size_t)rounds * sizeof **t);
    return t;
}

static void start_server(ixd_proc *P) {
    char loaddir[300];
    snprintf(P->dir, sizeof P->dir, "/tmp/ixdbench_ts.XXXXXX");
    if (!mkdtemp(P->dir)) exit(1);
    snprintf(loaddir, sizeof loaddir, "%s/load", P->dir);
    if (mkdir(loaddir, 0700) != 0) exit(1);
    const char *extra[] = {"--load-dir", loaddir, NULL};
    if (ixd_start_args(P, P->dir, extra) != 0) {
        fprintf(stderr, "cannot start ixd (%s)\n", IXD_BIN);
        exit(1);
    }
    g_port = P->port, g_ixd_pid = P->pid;
}

/* The stores read by the read sections and measured for size: one
 * database each, loaded once. */
static void size_and_reads(const dataset *d, int rounds, readtimes *rt, callres *res) {
    ix_conn *cr = open_db("srel", 1), *ct = open_db("sts", 1), *ce = open_db("sempty", 1);
    rel_reset(cr);
    load_rel(cr, d, 0, d->n);
    ts_reset(ct, d->nser);
    load_file(ct, d);
    jbuf buf = {NULL, 0, 0};
    for (int r = 0; r < rounds; r++)
        read_round(cr, ct, d, r, rt, &buf);
    free(buf.p);
    page_time(ct, d, res);
    agg_time(cr, ct, d, &res->agg_ts, &res->agg_rel);
    res->chunk_bytes = ts_info_sum(ct, d->nser, "\"bytes\":");
    ix_close(cr), ix_close(ct), ix_close(ce);
}

static void print_calls(const callres *r) {
    printf("### Page and aggregate calls (%d and %d calls)\n\n", TRIVIAL_REPS, AGG_REPS);
    printf("| call | wall median us | ixd CPU per call us |\n|---|---:|---:|\n");
    printf("| oni_ts_read, one full page (%lld elements, %zu bytes) | %.1f | %.1f |\n",
           (long long)r->page_n, r->page_bytes, r->page * 1e6, r->page_cpu * 1e6);
    printf("| oni_ts_last (trivial round trip) | %.1f | %.1f |\n", r->trivial * 1e6,
           r->trivial_cpu * 1e6);
    printf("| page minus trivial | %.1f | %.1f |\n", (r->page - r->trivial) * 1e6,
           (r->page_cpu - r->trivial_cpu) * 1e6);
    printf("| oni_ts_aggregate, one day, '1 day' avg | %.1f | - |\n", r->agg_ts * 1e6);
    printf("| relational avg() over the same day | %.1f | - |\n\n", r->agg_rel * 1e6);
    printf("ixd CPU: the run time of ixd's threads (/proc/PID/task/*/schedstat) over blocks of "
           "%d calls of one kind, divided by the calls; it includes the kernel's work for the "
           "socket.\n\n",
           PAGE_BLOCK);
}

typedef struct goalin {
    double bpv, chunk_bpv, rate_many, single_us, single_cpu_us, full_ms;
} goalin;

static void print_goals(const opts *o, const goalin *g, const callres *r) {
    char note[64];
    snprintf(note, sizeof note, "(%d elements)", o->npts);
    int cpu = r->page_cpu >= 0;
    printf("#### Goals (table 3)\n\n");
    bench_goal_header();
    bench_goal("TimeSeries bytes per value (file growth / points / 3)", g->bpv, "B", 1, 0.38, NULL);
    bench_goal("TimeSeries bytes per value, chunks only (oni_ts_info)", g->chunk_bpv, "B", 1, 0.38,
               NULL);
    bench_goal("TimeSeries batch writes (ix_ts_writer, bulk load)", g->rate_many / 1e6,
               "M elements/s", 0, 1.0, NULL);
    bench_goal("TimeSeries one element per call (oni_ts_write, end to end)", g->single_us, "us", 1,
               20, NULL);
    bench_goal("TimeSeries one element per call (oni_ts_write, ixd CPU per call)", g->single_cpu_us,
               "us", 1, 15, NULL);
    bench_goal("TimeSeries full series as rows (oni_ts_read_rows)", g->full_ms, "ms", 1, 8,
               o->npts == 20160 ? NULL : note);
    bench_goal("TimeSeries JSON page elements (oni_ts_read default)", (double)r->page_n, "elements",
               0, 1200, NULL);
    bench_goal(cpu ? "TimeSeries JSON page server time (ixd CPU per page call)"
                   : "TimeSeries JSON page server time (page - oni_ts_last wall)",
               (cpu ? r->page_cpu : r->page - r->trivial) * 1e6, "us", 1, 100,
               cpu ? NULL : "(estimate)");
    bench_goal("TimeSeries one-day avg from summaries (oni_ts_aggregate)", r->agg_ts * 1e3, "ms", 1,
               1, NULL);
    printf("\n");
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    opts o = parse_args(argc, argv);
    dataset d;
    make_data(&d, o.nser, o.npts);
    ixd_proc P;
    start_server(&P);
    char path[400];
    snprintf(path, sizeof path, "%s/load/" FILE_NAME, P.dir);
    write_load_file(&d, path);

    double **tl = alloc_times(LD_N, o.rounds), **tw = alloc_times(WR_N, o.rounds);
    double **cw = alloc_times(WR_N, o.rounds);
    readtimes rt;
    for (int wi = 0; wi <= NWIN; wi++) {
        for (int v = 0; v < JS_N && wi < NWIN; v++)
            rt.json[wi][v] = xmalloc((size_t)o.rounds * sizeof(double));
        for (int v = 0; v < RW_N; v++)
            rt.rows[wi][v] = xmalloc((size_t)o.rounds * sizeof(double));
    }
    bench_load(&d, o.rounds, tl);
    bench_writes(&d, o.rounds, tw, cw);
    callres cr;
    size_and_reads(&d, o.rounds, &rt, &cr);
    ixd_stop(&P, SIGTERM);

    printf("## Table 3: TimeSeries%s\n\n", o.quick ? " (quick)" : "");
    printf("bench_ts: %d series x %d one-minute points x %d FLOAT metrics = %lld points "
           "(published: 10 x 20,160 = 201,600), %d rounds%s, ixd on loopback; median and IQR "
           "over the rounds.\n\n",
           o.nser, o.npts, NMETRIC, (long long)d.n, o.rounds,
           o.rounds < 10 ? " (fewer than 10)" : "");
    goalin g;
    double rate_file;
    int64_t pages7;
    print_load(&d, o.rounds, tl, &g.rate_many, &rate_file);
    print_writes(o.rounds, tw, cw, &g.single_us, &g.single_cpu_us);
    print_json(&d, o.rounds, &rt, &pages7);
    print_rows(&d, o.rounds, &rt, &g.full_ms);
    print_calls(&cr);
    g.bpv = print_size(&d, P.dir, cr.chunk_bytes);
    g.chunk_bpv = (double)cr.chunk_bytes / (double)d.n / NMETRIC;
    print_goals(&o, &g, &cr);
    ixd_rmdir(&P);
    free_data(&d);
    return 0;
}
