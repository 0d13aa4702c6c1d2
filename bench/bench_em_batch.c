/*
 * bench_em_batch.c: the C side of bench/bench_py_drivers.py's executemany
 * goal. On an ixd the Python bench started (its port), empties table em of
 * database `bench` (not timed), then inserts rows [0, n) of the bench rows
 * (id INT, name VARCHAR(64), counter INT, value FLOAT, created DATE; the rows
 * of bench_py_drivers.py's make_rows) as bench_drivers' executemany_* does:
 * begin, prepare, ix_batch_execute_arrays (pipelined), finalize, commit.
 * Prints the seconds of each round, one line each, so that the Python bench
 * can interleave its rounds with its own (and em_batch's instructions are
 * what its callgrind figure counts).
 *
 * Usage: bench_em_batch PORT N [ROUNDS]
 */
#include "proxy/cmp_common.h"

/* Not inlined: bench_py_drivers.py counts its instructions with callgrind
 * (--toggle-collect=em_batch). */
__attribute__((noinline)) void em_batch(ix_conn *c, const cmp_data *d, int64_t n);
__attribute__((noinline)) void em_batch(ix_conn *c, const cmp_data *d, int64_t n) {
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, "insert into em values (?, ?, ?, ?, ?)", -1, &s));
    ix_array cols[5] = {{IX_ARRAY_INT32, d->id, NULL},
                        {IX_ARRAY_TEXT, d->name, NULL},
                        {IX_ARRAY_INT32, d->counter, NULL},
                        {IX_ARRAY_DOUBLE, d->value, NULL},
                        {IX_ARRAY_DATE, d->created, NULL}};
    BENCH_CHECK(c, ix_batch_execute_arrays(s, n, cols, 5, NULL, NULL));
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: bench_em_batch PORT N [ROUNDS]\n");
        return 2;
    }
    int port = atoi(argv[1]), rounds = argc > 3 ? atoi(argv[3]) : 1;
    int64_t n = atoll(argv[2]);
    if (port <= 0 || n <= 0 || rounds <= 0) {
        fprintf(stderr, "bench_em_batch: bad PORT, N or ROUNDS\n");
        return 2;
    }
    cmp_data d;
    cmp_make_data(&d, n);
    ix_conn *c = cmp_connect(port, "bench");
    for (int r = 0; r < rounds; r++) {
        BENCH_CHECK(c, ix_exec(c, "delete from em"));
        double t = bench_now();
        em_batch(c, &d, n);
        printf("%.9f\n", bench_now() - t);
    }
    ix_close(c);
    cmp_free_data(&d);
    return 0;
}
