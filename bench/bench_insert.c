/*
 * bench_insert.c: insert of N rows (default 100000) of
 *   (id INT, name VARCHAR(64), counter INT, value FLOAT, created DATE)
 * into an ixd started on a temporary directory, each way inside one
 * transaction:
 *   pipelined  ix_batch_execute_arrays (every row's request written before
 *              its reply is awaited)
 *   per row    prepare once, then bind + ix_step + ix_reset per row: one
 *              round trip per row
 * Both run in every round (order alternating), the table emptied between
 * runs (not timed); the report gives the median and IQR of each and the
 * ratio.
 *
 * Usage: bench_insert [rounds=10] [rows=100000]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define USER "informix"
#define PASS "in4mix"

static void reset_table(ix_conn *c) {
    BENCH_CHECK(c, ix_exec(c, "delete from bench"));
}

static double run_pipelined(ix_conn *c, const cmp_data *d) {
    double t = bench_now();
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, "insert into bench values (?, ?, ?, ?, ?)", -1, &s));
    ix_array cols[5] = {{IX_ARRAY_INT32, d->id, NULL},
                        {IX_ARRAY_TEXT, d->name, NULL},
                        {IX_ARRAY_INT32, d->counter, NULL},
                        {IX_ARRAY_DOUBLE, d->value, NULL},
                        {IX_ARRAY_DATE, d->created, NULL}};
    BENCH_CHECK(c, ix_batch_execute_arrays(s, d->n, cols, 5, NULL, NULL));
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
    return bench_now() - t;
}

static double run_per_row(ix_conn *c, const cmp_data *d) {
    double t = bench_now();
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, "insert into bench values (?, ?, ?, ?, ?)", -1, &s));
    for (int64_t i = 0; i < d->n; i++) {
        ix_bind_int(s, 1, d->id[i]);
        ix_bind_text(s, 2, d->name[i], -1, IX_STATIC);
        ix_bind_int(s, 3, d->counter[i]);
        ix_bind_double(s, 4, d->value[i]);
        ix_bind_date(s, 5, d->created[i]);
        BENCH_CHECK(c, ix_step(s));
        ix_reset(s);
    }
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
    return bench_now() - t;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    int64_t nrows = argc > 2 ? atoll(argv[2]) : 100000;
    if (rounds < 1 || nrows < 1) {
        fprintf(stderr, "usage: bench_insert [rounds] [rows]\n");
        return 2;
    }
    ixd_proc P;
    if (ixd_start(&P, NULL, NULL) != 0) {
        fprintf(stderr, "cannot start ixd (%s)\n", IXD_BIN);
        return 1;
    }
    char dsn[256];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS " server=ixd read_timeout=300",
             P.port);
    ix_conn *c = NULL;
    if (ix_connect(&c, dsn) != IX_OK || ix_exec(c, "create database bench with log") != IX_OK ||
        ix_exec(c, "create table bench (id int, name varchar(64), counter int, value float, "
                   "created date)") != IX_OK) {
        fprintf(stderr, "setup: %s\n", ix_errmsg(c));
        return 1;
    }
    cmp_data d;
    cmp_make_data(&d, nrows);
    double *tp = calloc((size_t)rounds, sizeof *tp), *tr = calloc((size_t)rounds, sizeof *tr);
    for (int r = 0; r < rounds; r++) {
        if (r % 2 == 0) {
            tp[r] = run_pipelined(c, &d);
            reset_table(c);
            tr[r] = run_per_row(c, &d);
            reset_table(c);
        } else {
            tr[r] = run_per_row(c, &d);
            reset_table(c);
            tp[r] = run_pipelined(c, &d);
            reset_table(c);
        }
    }
    bench_stat p = bench_stats(tp, rounds), q = bench_stats(tr, rounds);
    printf("bench_insert: %lld rows (INT, VARCHAR(64), INT, FLOAT, DATE) in one transaction, %d "
           "rounds, ixd on loopback\n",
           (long long)nrows, rounds);
    printf("%-30s %10s %10s %12s\n", "method", "median ms", "IQR ms", "rows/s");
    printf("%-30s %10.1f %10.1f %12.0f\n", "pipelined (batch_execute_arrays)", p.median * 1e3,
           (p.q3 - p.q1) * 1e3, (double)nrows / p.median);
    printf("%-30s %10.1f %10.1f %12.0f\n", "one round trip per row", q.median * 1e3,
           (q.q3 - q.q1) * 1e3, (double)nrows / q.median);
    printf("pipelined is %.2fx faster (median per-row / median pipelined)\n", q.median / p.median);
    free(tp);
    free(tr);
    cmp_free_data(&d);
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return 0;
}
