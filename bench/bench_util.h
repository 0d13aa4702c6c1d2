/* bench_util.h: timing and statistics shared by the libixdb benchmarks:
 * a monotonic clock, the median and interquartile range of the rounds, and
 * the ixd they run against (tests/client/ixd_proc.h). */
#ifndef IX_BENCH_UTIL_H
#define IX_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ixd_proc.h"
#include "ixdb.h"

/* The five columns every fetch benchmark reads (INT, VARCHAR, INT, FLOAT,
 * DATE) through the typed accessors, summed so that the reads are kept. */
static inline int64_t bench_read_row5(ix_stmt *s) {
    return ix_column_int(s, 0) + (int64_t)ix_column_text_len(s, 1) + ix_column_int(s, 2) +
           (int64_t)ix_column_double(s, 3) + ix_column_int(s, 4);
}

/* This program's own path into buf (n bytes), to run itself again under
 * valgrind. Returns 0, or -1 when it cannot be read. */
static inline int bench_self_exe(char *buf, size_t n) {
    ssize_t k = readlink("/proc/self/exe", buf, n - 1);
    if (k <= 0) return -1;
    buf[k] = 0;
    return 0;
}

static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Quantile q (0..1) of n sorted values, linear interpolation. */
static inline double bench_quantile(const double *v, int n, double q) {
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i + 1 >= n) return v[n - 1];
    return v[i] + (v[i + 1] - v[i]) * (pos - i);
}

typedef struct bench_stat {
    double median, q1, q3;
} bench_stat;

static inline bench_stat bench_stats(const double *samples, int n) {
    double *v = malloc((size_t)n * sizeof *v);
    bench_stat st = {0, 0, 0};
    if (!v || n == 0) {
        free(v);
        return st;
    }
    memcpy(v, samples, (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    st.median = bench_quantile(v, n, 0.5);
    st.q1 = bench_quantile(v, n, 0.25);
    st.q3 = bench_quantile(v, n, 0.75);
    free(v);
    return st;
}

#define BENCH_CHECK(conn, call)                                                                    \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_ < 0) {                                                                             \
            fprintf(stderr, "%s:%d: %s: rc=%d %s\n", __FILE__, __LINE__, #call, rc_,               \
                    ix_errmsg(conn));                                                              \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* The rows every benchmark inserts: (id INT, name VARCHAR(64), counter INT,
 * value FLOAT, created DATE) as column arrays. The arrays are owned by the
 * struct; cmp_free_data frees them. */
typedef struct cmp_data {
    int64_t n;
    int32_t *id, *counter, *created;
    double *value;
    char **name;
    char *names;
} cmp_data;

static inline void cmp_make_data(cmp_data *d, int64_t n) {
    d->n = n;
    d->id = malloc((size_t)n * sizeof *d->id);
    d->counter = malloc((size_t)n * sizeof *d->counter);
    d->created = malloc((size_t)n * sizeof *d->created);
    d->value = malloc((size_t)n * sizeof *d->value);
    d->name = malloc((size_t)n * sizeof *d->name);
    d->names = malloc((size_t)n * 48);
    if (!d->id || !d->counter || !d->created || !d->value || !d->name || !d->names) exit(1);
    for (int64_t i = 0; i < n; i++) {
        d->id[i] = (int32_t)i;
        d->counter[i] = (int32_t)(i * 7 % 1000);
        d->value[i] = (double)i * 1.25;
        d->created[i] = 45000 + (int32_t)(i % 3650);
        d->name[i] = d->names + i * 48;
        snprintf(d->name[i], 48, "customer name number %08d of the bench", (int)(i % 100000000));
    }
}

static inline void cmp_free_data(cmp_data *d) {
    free(d->id), free(d->counter), free(d->created), free(d->value), free(d->name);
    free(d->names);
}

/* One row of a goals table: "| goal: WHAT | MEASURED | TARGET | STATUS |".
 * le: the goal is measured <= target (else >=). STATUS is "met", or how far
 * the figure still is from the target ("short: 2.50x over" / "short: needs
 * 1.60x"); note (may be NULL) is appended to the measured figure, e.g.
 * "(estimate)". Lines starting with "| goal: " are collected by
 * bench/run_all.sh into the report's goals table. */
static inline void bench_goal(const char *what, double measured, const char *unit, int le,
                              double target, const char *note) {
    char st[64];
    if (!(measured == measured) || measured < 0)
        snprintf(st, sizeof st, "not measured");
    else if (le ? measured <= target : measured >= target)
        snprintf(st, sizeof st, "met");
    else if (le)
        snprintf(st, sizeof st, "short: %.2fx over", target > 0 ? measured / target : 0);
    else
        snprintf(st, sizeof st, "short: needs %.2fx", measured > 0 ? target / measured : 0);
    if (!(measured == measured) || measured < 0)
        printf("| goal: %s | - | %s %g %s | %s |\n", what, le ? "<=" : ">=", target, unit, st);
    else
        printf("| goal: %s | %.*f %s%s%s | %s %g %s | %s |\n", what,
               measured >= 100 ? 0
               : measured >= 1 ? 2
                               : 3,
               measured, unit, note ? " " : "", note ? note : "", le ? "<=" : ">=", target, unit,
               st);
}

static inline void bench_goal_header(void) {
    printf("| goal | measured | target | status |\n|---|---:|---:|---|\n");
}

#endif
