/*
 * bench_fetch.c: fetch of N rows (default 100000) of
 *   (id INT, name VARCHAR(64), counter INT, value FLOAT, created DATE)
 * through ix_step + ix_column_*, from an ixd started on a temporary
 * directory, with Informix's fetch buffer (4096), IX_FETCH_AUTO (the default) and static
 * sizes. Every configuration runs once per round, in the same run, rounds
 * interleaved; the report gives the median and IQR per configuration and the
 * ratio to the default. If valgrind is on PATH, one fetch per configuration
 * (default, auto) also runs under callgrind to count client instructions
 * per fetched row.
 *
 * Usage: bench_fetch [rounds=10] [rows=100000] [--no-callgrind]
 *        bench_fetch --child PORT BUF ROWS   (the callgrind child)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

#define USER "informix"
#define PASS "in4mix"

typedef struct cfg {
    const char *name;
    int32_t buf;
} cfg;

static const cfg CFGS[] = {
    {"4096 (Informix)", 4096}, {"auto", IX_FETCH_AUTO}, {"16 KiB", 16384},
    {"64 KiB", 65536},         {"256 KiB", 262144},     {"1 MiB", 1048576},
};
#define NCFG ((int)(sizeof CFGS / sizeof CFGS[0]))

static ix_conn *connect_port(int port) {
    char dsn[256];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS
             " server=ixd database=bench read_timeout=120",
             port);
    ix_conn *c = NULL;
    if (ix_connect(&c, dsn) != IX_OK) {
        fprintf(stderr, "connect: %s\n", ix_errmsg(c));
        exit(1);
    }
    return c;
}

/* Fetches every row, reading every column; returns the row count. Not
 * inlined: callgrind collects from here (--toggle-collect=fetch_rows). */
__attribute__((noinline)) int64_t fetch_rows(ix_conn *c, int32_t buf, int64_t *roundtrips,
                                             int64_t *check);
__attribute__((noinline)) int64_t fetch_rows(ix_conn *c, int32_t buf, int64_t *roundtrips,
                                             int64_t *check) {
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, "select id, name, counter, value, created from bench", -1, &s));
    BENCH_CHECK(c, ix_stmt_set_fetch_buffer(s, buf));
    int64_t rows = 0, sum = 0;
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        sum += bench_read_row5(s);
        rows++;
    }
    BENCH_CHECK(c, rc);
    *roundtrips = ix_stmt_fetch_roundtrips(s);
    *check = sum;
    ix_finalize(s);
    return rows;
}

static void load(ix_conn *c, int64_t n) {
    ix_exec(c, "drop table bench");
    BENCH_CHECK(c, ix_exec(c, "create table bench (id int, name varchar(64), counter int, "
                              "value float, created date)"));
    int32_t *id = malloc((size_t)n * sizeof *id), *counter = malloc((size_t)n * sizeof *counter);
    int32_t *created = malloc((size_t)n * sizeof *created);
    double *value = malloc((size_t)n * sizeof *value);
    char **name = malloc((size_t)n * sizeof *name);
    char *names = malloc((size_t)n * 48);
    if (!id || !counter || !created || !value || !name || !names) exit(1);
    for (int64_t i = 0; i < n; i++) {
        id[i] = (int32_t)i;
        counter[i] = (int32_t)(i * 7 % 1000);
        value[i] = (double)i * 1.25;
        created[i] = 45000 + (int32_t)(i % 3650);
        name[i] = names + i * 48;
        snprintf(name[i], 48, "customer name number %08d of the bench", (int)(i % 100000000));
    }
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, "insert into bench values (?, ?, ?, ?, ?)", -1, &s));
    ix_array cols[5] = {{IX_ARRAY_INT32, id, NULL},
                        {IX_ARRAY_TEXT, name, NULL},
                        {IX_ARRAY_INT32, counter, NULL},
                        {IX_ARRAY_DOUBLE, value, NULL},
                        {IX_ARRAY_DATE, created, NULL}};
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_batch_execute_arrays(s, n, cols, 5, NULL, NULL));
    BENCH_CHECK(c, ix_commit(c));
    ix_finalize(s);
    free(id), free(counter), free(created), free(value), free(name), free(names);
}

/* Runs one fetch of this program under callgrind; returns instructions per
 * row, or -1. */
static double callgrind_per_row(int port, int32_t buf, int64_t rows, const char *dir) {
    char out[400], cmd[1200], self[512];
    if (bench_self_exe(self, sizeof self)) return -1;
    snprintf(out, sizeof out, "%s/callgrind.%d.out", dir, (int)buf);
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --toggle-collect=fetch_rows --callgrind-out-file=%s "
             "'%s' --child %d %d %lld >/dev/null 2>&1",
             out, self, port, (int)buf, (long long)rows);
    if (system(cmd) != 0) return -1;
    FILE *f = fopen(out, "r");
    if (!f) return -1;
    char line[512];
    double ir = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "totals:", 7) == 0 || strncmp(line, "summary:", 8) == 0)
            ir = strtod(strchr(line, ':') + 1, NULL);
    }
    fclose(f);
    return ir < 0 ? -1 : ir / (double)rows;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc == 5 && strcmp(argv[1], "--child") == 0) {
        ix_conn *c = connect_port(atoi(argv[2]));
        int64_t rt, chk;
        int64_t n = fetch_rows(c, (int32_t)atoi(argv[3]), &rt, &chk);
        ix_close(c);
        return n == atoll(argv[4]) ? 0 : 1;
    }
    int rounds = 10, use_cg = 1;
    int64_t nrows = 100000;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-callgrind") == 0)
            use_cg = 0;
        else if (pos++ == 0)
            rounds = atoi(argv[i]);
        else
            nrows = atoll(argv[i]);
    }
    if (rounds < 1 || nrows < 1) {
        fprintf(stderr, "usage: bench_fetch [rounds] [rows] [--no-callgrind]\n");
        return 2;
    }
    ixd_proc P;
    if (ixd_start(&P, NULL, NULL) != 0) {
        fprintf(stderr, "cannot start ixd (%s)\n", IXD_BIN);
        return 1;
    }
    char dsn[256];
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d user=" USER " password=" PASS " server=ixd",
             P.port);
    ix_conn *c = NULL;
    if (ix_connect(&c, dsn) != IX_OK || ix_exec(c, "create database bench with log") != IX_OK) {
        fprintf(stderr, "setup: %s\n", ix_errmsg(c));
        return 1;
    }
    ix_close(c);
    c = connect_port(P.port);
    double t0 = bench_now();
    load(c, nrows);
    printf("bench_fetch: %lld rows (INT, VARCHAR(64), INT, FLOAT, DATE), %d rounds, ixd on "
           "loopback (loaded in %.2f s)\n",
           (long long)nrows, rounds, bench_now() - t0);

    double *t = calloc((size_t)(rounds * NCFG), sizeof *t);
    int64_t rt[NCFG] = {0};
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < NCFG; k++) {
            int j = (k + r) % NCFG; /* rotate the order between rounds */
            int64_t trips, chk;
            double a = bench_now();
            int64_t got = fetch_rows(c, CFGS[j].buf, &trips, &chk);
            t[j * rounds + r] = bench_now() - a;
            rt[j] = trips;
            if (got != nrows) {
                fprintf(stderr, "%s: %lld rows\n", CFGS[j].name, (long long)got);
                return 1;
            }
        }
    }
    bench_stat base = bench_stats(t, rounds);
    printf("%-14s %10s %10s %12s %12s %10s\n", "fetch buffer", "median ms", "IQR ms", "rows/s",
           "round trips", "vs 4096");
    for (int j = 0; j < NCFG; j++) {
        bench_stat st = bench_stats(t + j * rounds, rounds);
        printf("%-14s %10.2f %10.2f %12.0f %12lld %9.2fx\n", CFGS[j].name, st.median * 1e3,
               (st.q3 - st.q1) * 1e3, (double)nrows / st.median, (long long)rt[j],
               base.median / st.median);
    }
    ix_close(c);
    if (use_cg && system("valgrind --version >/dev/null 2>&1") == 0) {
        double d = callgrind_per_row(P.port, 4096, nrows, P.dir);
        double a = callgrind_per_row(P.port, IX_FETCH_AUTO, nrows, P.dir);
        printf("callgrind: client instructions per fetched row (prepare, step, 5 column reads): "
               "default %.0f, auto %.0f\n",
               d, a);
    } else {
        printf("callgrind: skipped (%s)\n", use_cg ? "valgrind not found" : "--no-callgrind");
    }
    free(t);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return 0;
}
