/*
 * bench_rtt.c: round trips per statement, measured through the latency
 * proxy (bench/proxy/ixproxy) at 20 ms added RTT. Every workload runs both
 * directly on loopback and through the proxy, alternating, in the same run;
 * round trips = (median through the proxy - median direct) / RTT, i.e. the
 * wall time the added latency cost, in RTTs (the local work cancels).
 *
 * Workloads:
 *   select_one_row, prepared once   ix_step to IX_DONE + ix_reset of a
 *                                   statement prepared once per connection
 *   select_one_row, prepare+execute ix_prepare + steps + ix_finalize
 *   INSERT, prepare + first execute ix_prepare + 5 binds + ix_step + finalize
 *   INSERT, first execute only      5 binds + ix_step (prepared untimed)
 *   pipelined batch of 100 rows     ix_batch_execute_arrays (prepare, begin
 *                                   and commit untimed)
 *   connect                         ix_connect (login, database open); the
 *                                   proxy accepts locally, so the TCP
 *                                   handshake is not delayed: the figure is
 *                                   the round trips after TCP
 * The SELECT is `select tabname from systables where tabid = 1`; the INSERT
 * goes into (id INT, name VARCHAR(64), counter INT, value FLOAT, created
 * DATE); the single INSERTs without a transaction (each commits on its
 * own), the batch inside one.
 *
 * Each runs against ixd (the client's compat=auto chooses the fast forms)
 * and against `ixd --strict`, which plays a real server (auto chooses the
 * conservative, verified forms: docs/protocol.md "Evidence"), one table each.
 *
 * Usage: bench_rtt [--quick] [--rounds N] [--rtt-ms R] [--server ixd|strict|both]
 *   default 20 rounds, --quick 10; R = 20; both.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proxy/cmp_common.h"

#define SEL_ONE    "select tabname from systables where tabid = 1"
#define INS        "insert into rt values (?, ?, ?, ?, ?)"
#define BATCH_ROWS 100

enum { W_SEL_PREP, W_SEL_EACH, W_INS_FIRST, W_INS_EXEC, W_BATCH, W_CONNECT, NWORK };
static const char *const WNAME[NWORK] = {
    "SELECT one row, prepared once, executed",
    "SELECT one row, prepare + execute each time",
    "prepared INSERT: prepare + first execution",
    "prepared INSERT: first execution only",
    "pipelined batch of 100 INSERTs",
    "connect (after TCP)",
};

static cmp_data D;
static int64_t g_next_id;

typedef struct side {
    int port;
    ix_conn *c;
    ix_stmt *sel; /* prepared once */
} side;

static void bind_row(ix_stmt *s, int64_t i) {
    ix_bind_int(s, 1, D.id[i]);
    ix_bind_text(s, 2, D.name[i], -1, IX_STATIC);
    ix_bind_int(s, 3, D.counter[i]);
    ix_bind_double(s, 4, D.value[i]);
    ix_bind_date(s, 5, D.created[i]);
}

static void drain(ix_conn *c, ix_stmt *s) {
    int rc, rows = 0;
    while ((rc = ix_step(s)) == IX_ROW)
        rows++;
    BENCH_CHECK(c, rc);
    if (rows != 1) {
        fprintf(stderr, "select_one_row: %d rows\n", rows);
        exit(1);
    }
}

/* Runs workload w once on side x; returns its wall time in seconds. */
static double run(side *x, int w) {
    ix_stmt *s = NULL;
    ix_conn *c = x->c;
    int64_t i = g_next_id++ % D.n;
    double t;
    switch (w) {
    case W_SEL_PREP:
        t = bench_now();
        drain(c, x->sel);
        BENCH_CHECK(c, ix_reset(x->sel));
        return bench_now() - t;
    case W_SEL_EACH:
        t = bench_now();
        BENCH_CHECK(c, ix_prepare(c, SEL_ONE, -1, &s));
        drain(c, s);
        ix_finalize(s);
        return bench_now() - t;
    case W_INS_FIRST:
        t = bench_now();
        BENCH_CHECK(c, ix_prepare(c, INS, -1, &s));
        bind_row(s, i);
        BENCH_CHECK(c, ix_step(s));
        ix_finalize(s);
        return bench_now() - t;
    case W_INS_EXEC:
        BENCH_CHECK(c, ix_prepare(c, INS, -1, &s));
        bind_row(s, i);
        t = bench_now();
        BENCH_CHECK(c, ix_step(s));
        t = bench_now() - t;
        ix_finalize(s);
        return t;
    case W_BATCH: {
        BENCH_CHECK(c, ix_prepare(c, INS, -1, &s));
        int64_t o = i + BATCH_ROWS <= D.n ? i : 0;
        ix_array cols[5] = {{IX_ARRAY_INT32, D.id + o, NULL},
                            {IX_ARRAY_TEXT, D.name + o, NULL},
                            {IX_ARRAY_INT32, D.counter + o, NULL},
                            {IX_ARRAY_DOUBLE, D.value + o, NULL},
                            {IX_ARRAY_DATE, D.created + o, NULL}};
        BENCH_CHECK(c, ix_begin(c));
        t = bench_now();
        BENCH_CHECK(c, ix_batch_execute_arrays(s, BATCH_ROWS, cols, 5, NULL, NULL));
        t = bench_now() - t;
        ix_finalize(s);
        BENCH_CHECK(c, ix_commit(c));
        return t;
    }
    default: {
        t = bench_now();
        ix_conn *n = cmp_connect(x->port, "bench");
        t = bench_now() - t;
        ix_close(n);
        return t;
    }
    }
}

static void open_side(side *x, int port) {
    x->port = port;
    x->c = cmp_connect(port, "bench");
    BENCH_CHECK(x->c, ix_prepare(x->c, SEL_ONE, -1, &x->sel));
}

static void close_side(side *x) {
    ix_finalize(x->sel);
    ix_close(x->c);
}

/* Goals per server kind: round trips (rounded) at most. */
typedef struct rtt_goal {
    int w;
    double target;
    const char *what;
} rtt_goal;

static const rtt_goal GOALS_IXD[] = {
    {W_SEL_PREP, 1, "round trips: SELECT that fits one reply, prepared once, executed"},
    {W_SEL_EACH, 1, "round trips: SELECT that fits one reply, prepare + execute"},
    {W_INS_FIRST, 1, "round trips: prepared INSERT, prepare + first execution"},
    {W_CONNECT, 2, "round trips: connect (after TCP)"},
};
static const rtt_goal GOALS_STRICT[] = {
    {W_SEL_PREP, 1, "ixd --strict: SELECT that fits one reply, prepared once, executed"},
    {W_SEL_EACH, 2, "ixd --strict: SELECT that fits one reply, prepare + execute"},
    {W_INS_FIRST, 2, "ixd --strict: prepared INSERT, prepare + first execution"},
    {W_CONNECT, 4, "ixd --strict: connect (after TCP), each login group awaited"},
};

/* Measures every workload against one ixd (strict: ixd --strict) and prints
 * its table and goals. Returns 0, or 1 when the proxy cannot start. */
static int measure(int strict, int rounds, int quick, double rtt) {
    ixd_proc P;
    cmp_start_ixd_with(&P, strict ? "--strict" : NULL);
    ix_conn *c = cmp_connect(P.port, "bench");
    cmp_create(c, "rt");
    printf("## Round trips per statement: %s (compat=auto chose %s forms: %s)\n\n",
           strict ? "ixd --strict" : "ixd", ix_conn_compat(c), ix_conn_forms(c));
    ix_close(c);
    cmp_proxy X;
    if (cmp_proxy_start(&X, P.port, rtt, 3600, P.dir) != 0) {
        fprintf(stderr, "cannot start ixproxy (%s)\n", IXPROXY_BIN);
        return 1;
    }
    side S[2]; /* 0: direct, 1: through the proxy */
    open_side(&S[0], P.port);
    open_side(&S[1], X.port);
    double *t = calloc((size_t)(2 * NWORK * rounds), sizeof *t);
    if (!t) return 1;
    for (int w = 0; w < NWORK; w++) /* warm-up */
        run(&S[0], w), run(&S[1], w);
    double t0 = bench_now();
    for (int r = 0; r < rounds; r++)
        for (int q = 0; q < NWORK; q++) {
            int w = (q + r) % NWORK, first = r % 2; /* rotate; alternate the side */
            for (int m = 0; m < 2; m++) {
                int k = m ^ first;
                t[(k * NWORK + w) * rounds + r] = run(&S[k], w);
            }
        }
    double elapsed = bench_now() - t0;
    close_side(&S[0]);
    close_side(&S[1]);
    cmp_proxy_stop(&X);

    printf("bench_rtt%s: %s on loopback, directly and through ixproxy at %g ms added RTT, "
           "alternating in the same run; %d rounds%s; %.0f s. Round trips = (median through "
           "the proxy - median direct) / %g ms (from wall time, not counted by the proxy).\n\n",
           quick ? " --quick" : "", strict ? "ixd --strict" : "ixd", rtt, rounds,
           quick ? " (quick variant: fewer than the 20 of the full run)" : "", elapsed, rtt);
    printf("| statement | direct ms [IQR] | through proxy ms [IQR] | round trips |\n"
           "|---|---:|---:|---:|\n");
    double trips[NWORK];
    for (int w = 0; w < NWORK; w++) {
        bench_stat d = bench_stats(t + (0 * NWORK + w) * rounds, rounds);
        bench_stat x = bench_stats(t + (1 * NWORK + w) * rounds, rounds);
        trips[w] = (x.median - d.median) * 1e3 / rtt;
        printf("| %s | %.3f [%.3f] | %.3f [%.3f] | %.2f |\n", WNAME[w], d.median * 1e3,
               (d.q3 - d.q1) * 1e3, x.median * 1e3, (x.q3 - x.q1) * 1e3, trips[w]);
    }
    printf("\nGoals (round trips rounded to the nearest whole one; the raw figure in "
           "parentheses):\n\n");
    bench_goal_header();
    const rtt_goal *G = strict ? GOALS_STRICT : GOALS_IXD;
    for (int g = 0; g < 4; g++) {
        char note[48];
        snprintf(note, sizeof note, "(raw %.2f)", trips[G[g].w]);
        bench_goal(G[g].what, round(trips[G[g].w]), "RT", 1, G[g].target, note);
    }
    printf("\n");
    free(t);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return 0;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int rounds = 20, quick = 0, which = 3; /* 1 ixd, 2 strict, 3 both */
    double rtt = 20;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0)
            quick = 1, rounds = 10;
        else if (v && strcmp(a, "--rounds") == 0)
            rounds = atoi(v), i++;
        else if (v && strcmp(a, "--rtt-ms") == 0)
            rtt = atof(v), i++;
        else if (v && strcmp(a, "--server") == 0)
            which = strcmp(v, "ixd") == 0      ? 1
                    : strcmp(v, "strict") == 0 ? 2
                    : strcmp(v, "both") == 0   ? 3
                                               : 0,
            i++;
        else
            which = 0;
        if (!which) {
            fprintf(stderr, "usage: bench_rtt [--quick] [--rounds N] [--rtt-ms R] "
                            "[--server ixd|strict|both]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > 10000 || rtt < 1 || rtt > 1000) return 2;
    cmp_make_data(&D, 10000);
    int rc = 0;
    if (which & 1) rc |= measure(0, rounds, quick, rtt);
    if (which & 2) rc |= measure(1, rounds, quick, rtt);
    cmp_free_data(&D);
    return rc;
}
