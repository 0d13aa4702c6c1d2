/* cmp_common.h: shared by the comparison benchmarks (bench_fetchbuf.c,
 * bench_drivers.c; docs/benchmarks-comparisons.md): the bench table and its
 * rows, connecting, and starting/stopping bench/proxy/ixproxy as a child. */
#ifndef IX_BENCH_CMP_COMMON_H
#define IX_BENCH_CMP_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench_util.h"

#define CMP_USER "informix"
#define CMP_PASS "in4mix"

/* Rows of bench (id INT, name VARCHAR(64), counter INT, value FLOAT, created
 * DATE), the same as bench_fetch / bench_insert and python/bench_fetch.py. */
static inline ix_conn *cmp_connect(int port, const char *database) {
    char dsn[256];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=" CMP_USER " password=" CMP_PASS
             " server=ixd%s%s read_timeout=600",
             port, database ? " database=" : "", database ? database : "");
    ix_conn *c = NULL;
    if (ix_connect(&c, dsn) != IX_OK) {
        fprintf(stderr, "connect to port %d: %s\n", port, ix_errmsg(c));
        exit(1);
    }
    return c;
}

/* Pipelined insert of rows [0, n) of d into table (in one transaction). */
static inline void cmp_insert(ix_conn *c, const char *table, const cmp_data *d, int64_t n) {
    char sql[128];
    snprintf(sql, sizeof sql, "insert into %s values (?, ?, ?, ?, ?)", table);
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    ix_array cols[5] = {{IX_ARRAY_INT32, d->id, NULL},
                        {IX_ARRAY_TEXT, d->name, NULL},
                        {IX_ARRAY_INT32, d->counter, NULL},
                        {IX_ARRAY_DOUBLE, d->value, NULL},
                        {IX_ARRAY_DATE, d->created, NULL}};
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_batch_execute_arrays(s, n, cols, 5, NULL, NULL));
    BENCH_CHECK(c, ix_commit(c));
    ix_finalize(s);
}

static inline void cmp_create(ix_conn *c, const char *table) {
    char sql[160];
    snprintf(sql, sizeof sql, "drop table %s", table);
    ix_exec(c, sql);
    snprintf(sql, sizeof sql,
             "create table %s (id int, name varchar(64), counter int, value float, "
             "created date)",
             table);
    BENCH_CHECK(c, ix_exec(c, sql));
}

/* Instructions in a callgrind profile ("summary:" or "totals:" line), or -1. */
static inline double cmp_cg_total(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[512];
    double ir = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "totals:", 7) == 0 || strncmp(line, "summary:", 8) == 0)
            ir = strtod(strchr(line, ':') + 1, NULL);
    fclose(f);
    return ir;
}

/* Starts ixd (with the one extra argument, or NULL) with database `bench`
 * (logged). */
static inline void cmp_start_ixd_with(ixd_proc *p, const char *extra) {
    if (ixd_start(p, NULL, extra) != 0) {
        fprintf(stderr, "cannot start ixd (%s)\n", IXD_BIN);
        exit(1);
    }
    ix_conn *c = cmp_connect(p->port, NULL);
    BENCH_CHECK(c, ix_exec(c, "create database bench with log"));
    ix_close(c);
}

static inline void cmp_start_ixd(ixd_proc *p) {
    cmp_start_ixd_with(p, NULL);
}

typedef struct cmp_proxy {
    pid_t pid;
    int port;
    double rtt_ms;
} cmp_proxy;

/* Starts ixproxy (IXPROXY_BIN) in front of 127.0.0.1:target_port with the
 * given added RTT; bounded to max_seconds. Returns 0 or -1. */
static inline int cmp_proxy_start(cmp_proxy *x, int target_port, double rtt_ms, double max_seconds,
                                  const char *dir) {
    char pf[400], tgt[64], rtt[32], maxs[32];
    snprintf(pf, sizeof pf, "%s/.proxy.%d.%g", dir, target_port, rtt_ms);
    snprintf(tgt, sizeof tgt, "127.0.0.1:%d", target_port);
    snprintf(rtt, sizeof rtt, "%g", rtt_ms);
    snprintf(maxs, sizeof maxs, "%g", max_seconds);
    unlink(pf);
    x->rtt_ms = rtt_ms;
    x->pid = fork();
    if (x->pid < 0) return -1;
    if (x->pid == 0) {
        const char *argv[] = {IXPROXY_BIN, "--target",      tgt,  "--rtt-ms", rtt, "--port-file",
                              pf,          "--max-seconds", maxs, NULL};
        execv(IXPROXY_BIN, (char *const *)argv);
        _exit(127);
    }
    for (int i = 0; i < 500; i++) { /* up to 5 s */
        FILE *f = fopen(pf, "r");
        if (f) {
            int ok = fscanf(f, "%d", &x->port) == 1;
            fclose(f);
            if (ok && x->port > 0) return 0;
        }
        int st;
        if (waitpid(x->pid, &st, WNOHANG) == x->pid) return -1;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return -1;
}

static inline void cmp_proxy_stop(cmp_proxy *x) {
    if (x->pid > 0) {
        kill(x->pid, SIGTERM);
        waitpid(x->pid, NULL, 0);
        x->pid = 0;
    }
}

#endif
