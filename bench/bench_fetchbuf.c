/*
 * bench_fetchbuf.c: the fetch-buffer study (table 2 of
 * docs/benchmarks-comparisons.md). Relative efficiency (transfer rate / the
 * fastest cell of its table) of fetch buffers of 5000, 50000 and 500000 bytes
 * (read-ahead off, like the study's client), IX_FETCH_AUTO (read-ahead off),
 * IX_FETCH_AUTO with read-ahead 1, and libixdb's defaults (nothing set on the
 * statement: the auto buffer with adaptive read-ahead), for results of ~1 KB, ~256 KB and ~4 MB,
 * with 0, 5 and 100 ms added to the round trip by bench/proxy/ixproxy (every cell goes through the
 * proxy, 0 ms included). One query = prepare + every row read (5 columns) +
 * finalize, timed as the application sees it.
 *
 * Usage: bench_fetchbuf [--quick] [--rounds N] [--rounds-5 N] [--rounds-100 N]
 *                       [--max-cell-s S] [--dat PREFIX]
 *   --quick: 10 rounds at 0 ms, 3 at 5 ms, 1 at 100 ms, and cells whose
 *   estimated time (round trips at 0 ms x RTT) exceeds 2.5 s are not run
 *   (shown as "~estimate"). --dat writes PREFIX.rttN.dat for bench/plot.gp.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proxy/cmp_common.h"

typedef struct cfg {
    const char *name;
    int32_t buf;
    int ra;
    int is_static;
} cfg;

static const cfg CFGS[] = {
    {"5000", 5000, 0, 1},
    {"50000", 50000, 0, 1},
    {"500000", 500000, 0, 1},
    {"auto", IX_FETCH_AUTO, 0, 0},
    {"auto+RA", IX_FETCH_AUTO, 1, 0},
    {"default", 0, -1, 0}, /* nothing set: the library's defaults (auto, adaptive read-ahead) */
};
#define NCFG      ((int)(sizeof CFGS / sizeof CFGS[0]))
#define CFG_DEF   5
#define CFG_AUTRA 4

static const double RTTS[] = {0, 5, 100};
#define NRTT ((int)(sizeof RTTS / sizeof RTTS[0]))

static const struct {
    const char *name;
    int64_t target; /* bytes on the wire */
} SIZES[] = {{"~1 KB", 1024}, {"~256 KB", 256 * 1024}, {"~4 MB", 4 * 1024 * 1024}};
#define NSIZE ((int)(sizeof SIZES / sizeof SIZES[0]))

/* Published figures (the study's table at 100 ms; -1 = not published). */
static double published(int rtt, int size, int c) {
    if (RTTS[rtt] != 100 || !CFGS[c].is_static) return -1;
    if (size == 0) return 0.01;
    if (size == 2 && CFGS[c].buf == 5000) return 0.07;
    if (size == 2 && CFGS[c].buf == 500000) return 0.85;
    return -1;
}

typedef struct result {
    int64_t rows, bytes, trips;
} result;

/* The result of ~size bytes is the whole of table bench_<z> (no WHERE: the
 * server does not scan more rows than it returns). */
__attribute__((noinline)) static result query(ix_conn *c, int z, const cfg *g) {
    char sql[160];
    snprintf(sql, sizeof sql, "select id, name, counter, value, created from bench_%d", z);
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    if (g->buf) BENCH_CHECK(c, ix_stmt_set_fetch_buffer(s, g->buf));
    if (g->ra >= 0) BENCH_CHECK(c, ix_stmt_set_readahead(s, g->ra));
    result r = {0, 0, 0};
    int64_t sum = 0;
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        sum += bench_read_row5(s);
        r.rows++;
    }
    BENCH_CHECK(c, rc);
    r.trips = ix_stmt_fetch_roundtrips(s);
    r.bytes = ix_stmt_fetch_bytes(s);
    ix_finalize(s);
    if (sum == 42) printf(" "); /* keep the reads */
    return r;
}

/* A cell's rate in bytes/s: measured, or (not run) estimated; *est set. */
typedef struct cell cell;
static double cell_rate(const cell *e, const cell *at0, int *est);

typedef struct cell {
    double *t;
    int n;         /* samples taken */
    result res;    /* of the last run */
    double est;    /* estimated seconds when not run */
    bench_stat st; /* of t */
} cell;

static double cell_rate(const cell *e, const cell *at0, int *est) {
    *est = !e->n;
    if (e->n) return (double)e->res.bytes / e->st.median;
    return e->est > 0 ? (double)at0->res.bytes / e->est : -1;
}

/* The goals for the default settings: >= 0.9 of the best static buffer in
 * every row, and >= 1.5x where one round trip beats two: for the ~1 KB and
 * ~256 KB results at an added RTT more than twice the best static cell's
 * time at 0 ms (saving a round trip then saves more than the transfer). */
static void print_goals(cell C[NRTT][NSIZE][NCFG]) {
    printf("Goals (default settings: nothing set on the statement, the library's defaults; "
           "rate over the rate of "
           "the best static buffer of the same row):\n\n");
    bench_goal_header();
    for (int k = 0; k < NRTT; k++)
        for (int z = 0; z < NSIZE; z++) {
            double bs = 0, bs0 = 0;
            for (int j = 0; j < NCFG; j++) {
                if (!CFGS[j].is_static) continue;
                if (C[k][z][j].n && (double)C[k][z][j].res.bytes / C[k][z][j].st.median > bs)
                    bs = (double)C[k][z][j].res.bytes / C[k][z][j].st.median;
                if (C[0][z][j].n && (bs0 == 0 || C[0][z][j].st.median < bs0))
                    bs0 = C[0][z][j].st.median;
            }
            int est;
            double d = cell_rate(&C[k][z][CFG_DEF], &C[0][z][CFG_DEF], &est);
            double ratio = bs > 0 && d > 0 ? d / bs : -1;
            char what[128];
            snprintf(what, sizeof what, "fetch-buffer study: default / best static, %s at %g ms",
                     SIZES[z].name, RTTS[k]);
            bench_goal(what, ratio, "x", 0, 0.9, est ? "(estimate, cell not run)" : NULL);
            if (z < 2 && RTTS[k] > 0 && bs0 > 0 && bs0 < RTTS[k] / 2e3) {
                snprintf(what, sizeof what,
                         "fetch-buffer study: default / best static, %s at %g ms (one round "
                         "trip beats two)",
                         SIZES[z].name, RTTS[k]);
                bench_goal(what, ratio, "x", 0, 1.5, est ? "(estimate, cell not run)" : NULL);
            }
        }
    printf("\n");
}

static void fmt_eff(char *out, size_t n, double e, double pub) {
    char p[32] = "";
    if (pub >= 0) snprintf(p, sizeof p, " (pub %.2f)", pub);
    snprintf(out, n, "%.3f%s", e, p);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int quick = 0, rounds[NRTT] = {10, 10, 10};
    double max_cell = 0;
    const char *dat = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) {
            quick = 1;
            rounds[1] = 3;
            rounds[2] = 1;
            max_cell = 2.5;
        } else if (v && strcmp(a, "--rounds") == 0) {
            rounds[0] = rounds[1] = rounds[2] = atoi(v), i++;
        } else if (v && strcmp(a, "--rounds-5") == 0) {
            rounds[1] = atoi(v), i++;
        } else if (v && strcmp(a, "--rounds-100") == 0) {
            rounds[2] = atoi(v), i++;
        } else if (v && strcmp(a, "--max-cell-s") == 0) {
            max_cell = atof(v), i++;
        } else if (v && strcmp(a, "--dat") == 0) {
            dat = v, i++;
        } else {
            fprintf(stderr, "usage: bench_fetchbuf [--quick] [--rounds N] [--rounds-5 N] "
                            "[--rounds-100 N] [--max-cell-s S] [--dat PREFIX]\n");
            return 2;
        }
    }
    for (int k = 0; k < NRTT; k++)
        if (rounds[k] < 1 || rounds[k] > 1000) return 2;

    ixd_proc P;
    cmp_start_ixd(&P);
    ix_conn *c = cmp_connect(P.port, "bench");
    /* rows per byte: load 1000 rows, measure, then load what ~4 MB needs */
    cmp_create(c, "bench_0");
    cmp_data d;
    cmp_make_data(&d, 100000);
    cmp_insert(c, "bench_0", &d, 1000);
    result cal = query(c, 0, &CFGS[2]);
    double bpr = (double)cal.bytes / (double)cal.rows;
    int64_t nrows[NSIZE];
    for (int z = 0; z < NSIZE; z++) {
        nrows[z] = (int64_t)llround((double)SIZES[z].target / bpr);
        if (nrows[z] < 1) nrows[z] = 1;
    }
    if (nrows[NSIZE - 1] > d.n) nrows[NSIZE - 1] = d.n;
    for (int z = 0; z < NSIZE; z++) {
        char tn[32];
        snprintf(tn, sizeof tn, "bench_%d", z);
        cmp_create(c, tn);
        cmp_insert(c, tn, &d, nrows[z]);
    }
    ix_close(c);
    cmp_free_data(&d);

    /* one proxy and one connection per RTT */
    cmp_proxy X[NRTT];
    ix_conn *conn[NRTT];
    for (int k = 0; k < NRTT; k++) {
        if (cmp_proxy_start(&X[k], P.port, RTTS[k], 7200, P.dir) != 0) {
            fprintf(stderr, "cannot start ixproxy (%s)\n", IXPROXY_BIN);
            return 1;
        }
        conn[k] = cmp_connect(X[k].port, "bench");
    }

    cell C[NRTT][NSIZE][NCFG];
    memset(C, 0, sizeof C);
    double t_start = bench_now();
    uint64_t rng = 0x1234567;
    for (int k = 0; k < NRTT; k++) {
        for (int z = 0; z < NSIZE; z++)
            for (int j = 0; j < NCFG; j++) {
                C[k][z][j].t = calloc((size_t)rounds[k], sizeof(double));
                /* estimate from the 0 ms cell: its time plus one RTT per round trip */
                if (k > 0 && C[0][z][j].n > 0)
                    C[k][z][j].est =
                        C[0][z][j].st.median + (double)(C[0][z][j].res.trips + 2) * RTTS[k] / 1e3;
            }
        query(conn[k], 0, &CFGS[0]); /* warm-up */
        for (int r = 0; r < rounds[k]; r++) {
            /* a new order every round (fixed-seed shuffle): a cell does not always
             * follow the same one (a statement's pipelined close is drained by the
             * next request on the connection) */
            int order[NSIZE * NCFG];
            for (int q = 0; q < NSIZE * NCFG; q++)
                order[q] = q;
            for (int q = NSIZE * NCFG - 1; q > 0; q--) {
                rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
                int o = (int)((rng >> 33) % (uint64_t)(q + 1)), tmp = order[q];
                order[q] = order[o];
                order[o] = tmp;
            }
            for (int q = 0; q < NSIZE * NCFG; q++) {
                int idx = order[q];
                int z = idx / NCFG, j = idx % NCFG;
                cell *e = &C[k][z][j];
                if (max_cell > 0 && e->est > max_cell) continue;
                double a = bench_now();
                e->res = query(conn[k], z, &CFGS[j]);
                e->t[e->n++] = bench_now() - a;
                if (e->res.rows != nrows[z]) {
                    fprintf(stderr, "short result: %lld rows\n", (long long)e->res.rows);
                    return 1;
                }
            }
        }
        for (int z = 0; z < NSIZE; z++)
            for (int j = 0; j < NCFG; j++)
                if (C[k][z][j].n) C[k][z][j].st = bench_stats(C[k][z][j].t, C[k][z][j].n);
    }
    double elapsed = bench_now() - t_start;
    for (int k = 0; k < NRTT; k++) {
        ix_close(conn[k]);
        cmp_proxy_stop(&X[k]);
    }

    printf("## Table 2: fetch buffer study\n\n");
    printf("bench_fetchbuf%s: results of %lld / %lld / %lld rows of (INT, VARCHAR(64), INT, "
           "FLOAT, DATE), %.1f bytes per row on the wire; every cell through ixproxy; "
           "rounds: %d at 0 ms, %d at 5 ms, %d at 100 ms%s; %.0f s.\n\n",
           quick ? " --quick" : "", (long long)nrows[0], (long long)nrows[1], (long long)nrows[2],
           bpr, rounds[0], rounds[1], rounds[2],
           quick ? " (quick variant: fewer rounds at 5 and 100 ms than the 10 of the full run)"
                 : "",
           elapsed);
    if (max_cell > 0)
        printf("Cells estimated above %.1f s per query were not run; they show `~` and an "
               "estimate (the 0 ms time plus one RTT per round trip measured at 0 ms), "
               "which is not a measurement and is left out of the best cell.\n\n",
               max_cell);
    for (int k = 0; k < NRTT; k++) {
        double best = 0, best_static[NSIZE];
        for (int z = 0; z < NSIZE; z++) {
            best_static[z] = 0;
            for (int j = 0; j < NCFG; j++) {
                cell *e = &C[k][z][j];
                if (!e->n) continue;
                double rate = (double)e->res.bytes / e->st.median;
                if (rate > best) best = rate;
                if (CFGS[j].is_static && rate > best_static[z]) best_static[z] = rate;
            }
        }
        printf("### Added RTT %g ms (%d round%s)\n\n", RTTS[k], rounds[k],
               rounds[k] == 1 ? ", no IQR" : "s");
        printf("Relative efficiency (rate / fastest cell of this table; published figures of "
               "the study in parentheses):\n\n| result |");
        for (int j = 0; j < NCFG; j++)
            printf(" %s |", CFGS[j].name);
        printf(" default / best static | auto+RA / best static |\n|---|");
        for (int j = 0; j < NCFG + 2; j++)
            printf("---:|");
        printf("\n");
        FILE *df = NULL;
        if (dat) {
            char fn[512];
            snprintf(fn, sizeof fn, "%s.rtt%g.dat", dat, RTTS[k]);
            df = fopen(fn, "w");
            if (df) {
                fprintf(df, "result");
                for (int j = 0; j < NCFG; j++)
                    fprintf(df, " \"%s\"", CFGS[j].name);
                fprintf(df, "\n");
            }
        }
        for (int z = 0; z < NSIZE; z++) {
            printf("| %s |", SIZES[z].name);
            if (df) fprintf(df, "\"%s\"", SIZES[z].name);
            double rate[NCFG];
            for (int j = 0; j < NCFG; j++) {
                cell *e = &C[k][z][j];
                char b[64];
                if (e->n) {
                    rate[j] = (double)e->res.bytes / e->st.median;
                    fmt_eff(b, sizeof b, rate[j] / best, published(k, z, j));
                    printf(" %s |", b);
                } else {
                    rate[j] = (double)C[0][z][j].res.bytes / e->est;
                    char pb[32] = "";
                    if (published(k, z, j) >= 0)
                        snprintf(pb, sizeof pb, " (pub %.2f)", published(k, z, j));
                    printf(" ~%.3f%s |", rate[j] / best, pb);
                }
                if (df) {
                    if (e->n)
                        fprintf(df, " %.5f", rate[j] / best);
                    else
                        fprintf(df, " ?"); /* not run */
                }
            }
            if (df) fprintf(df, "\n");
            const char *m1 = C[k][z][CFG_DEF].n ? "" : "~", *m2 = C[k][z][CFG_AUTRA].n ? "" : "~";
            if (best_static[z] > 0)
                printf(" %s%.2f | %s%.2f |\n", m1, rate[CFG_DEF] / best_static[z], m2,
                       rate[CFG_AUTRA] / best_static[z]);
            else
                printf(" - | - |\n");
        }
        if (df) fclose(df);
        printf("\nMedian ms [IQR ms] / round trips per result:\n\n| result |");
        for (int j = 0; j < NCFG; j++)
            printf(" %s |", CFGS[j].name);
        printf("\n|---|");
        for (int j = 0; j < NCFG; j++)
            printf("---:|");
        printf("\n");
        for (int z = 0; z < NSIZE; z++) {
            printf("| %s |", SIZES[z].name);
            for (int j = 0; j < NCFG; j++) {
                cell *e = &C[k][z][j];
                if (e->n)
                    printf(" %.1f [%.1f] / %lld |", e->st.median * 1e3, (e->st.q3 - e->st.q1) * 1e3,
                           (long long)e->res.trips);
                else
                    printf(" ~%.0f (not run) / ~%lld |", e->est * 1e3,
                           (long long)C[0][z][j].res.trips);
            }
            printf("\n");
        }
        printf("\n");
    }
    print_goals(C);
    for (int k = 0; k < NRTT; k++)
        for (int z = 0; z < NSIZE; z++)
            for (int j = 0; j < NCFG; j++)
                free(C[k][z][j].t);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return 0;
}
