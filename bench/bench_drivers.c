/*
 * bench_drivers.c: the driver comparison (table 1 of
 * docs/benchmarks-comparisons.md), C API side. Each workload runs through
 *   (a) libixdb with its default settings (auto fetch buffer, adaptive read-ahead;
 *       executemany = ix_batch_execute_arrays, pipelined), and
 *   (c) a baseline paying one round trip per row: prepare once, then bind +
 *       execute per row (as IfxPy's execute loop does); fetches ask for one
 *       row per NFETCH (fetch buffer below a row, read-ahead off).
 * (b), the Python module, is measured by bench/bench_py_drivers.py; pass its
 * output file with --py FILE to print the three side by side.
 * Workloads: select_one_row, select_one_row_prepared (prepared once, then 1000
 * executions; the time per execution), select_systables_first_10,
 * cold_connect_disconnect,
 * executemany_{1k,10k,100k} (one transaction, table (id INT, name VARCHAR(64),
 * counter INT, value FLOAT, created DATE)), select_{1k,10k,100k} (whole table of
 * that many rows, 5 columns read). For the selects, the limit is a raw TCP
 * transfer of the same bytes over loopback. ixd runs on loopback, no proxy.
 *
 * Prints the goals of the speed work beside their figures (bench_goal).
 * --instr FILE: bench_instr's --tsv output, printed under the table.
 *
 * Usage: bench_drivers [--quick] [--rounds N] [--py FILE] [--instr FILE] [--dat FILE]
 *                      [--no-callgrind]
 *   --quick: 5 rounds (3 for the 100k workloads) instead of 10.
 *   With valgrind on PATH, also counts the client's instructions per fetched
 *   row (select of 10k rows, default settings) with callgrind.
 *        bench_drivers --cg-child PORT   (the callgrind child)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proxy/cmp_common.h"

#define NSIZES 3
static const int64_t SIZES[NSIZES] = {1000, 10000, 100000};
static const char *const SIZE_NAMES[NSIZES] = {"1k", "10k", "100k"};

#define PREP_EXECS 1000 /* executions per sample of select_one_row_prepared */

static cmp_data D;
static int g_port;

typedef struct fetched {
    int64_t rows, bytes;
} fetched;

/* Prepares sql, reads every row (every column as its natural type) and
 * finalizes. buf/ra < 0: keep the defaults. Not inlined: callgrind collects
 * from here (--toggle-collect=drv_fetch). */
__attribute__((noinline)) fetched drv_fetch(ix_conn *c, const char *sql, int32_t buf, int ra);
__attribute__((noinline)) fetched drv_fetch(ix_conn *c, const char *sql, int32_t buf, int ra) {
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    if (buf != 0) BENCH_CHECK(c, ix_stmt_set_fetch_buffer(s, buf));
    if (ra >= 0) BENCH_CHECK(c, ix_stmt_set_readahead(s, ra));
    int ncol = ix_column_count(s);
    fetched f = {0, 0};
    int64_t sum = 0;
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        for (int i = 0; i < ncol; i++) {
            switch (ix_column_type(s, i)) {                        /* Informix type codes */
            case 1:                                                /* SMALLINT */
            case 2:                                                /* INTEGER */
            case 6:                                                /* SERIAL */
            case 7: sum += ix_column_int(s, i); break;             /* DATE */
            case 3: sum += (int64_t)ix_column_double(s, i); break; /* FLOAT */
            default: sum += ix_column_text_len(s, i); break;
            }
        }
        f.rows++;
    }
    BENCH_CHECK(c, rc);
    f.bytes = ix_stmt_fetch_bytes(s);
    ix_finalize(s);
    if (sum == 42) printf(" "); /* keep the reads */
    return f;
}

static void em_pipelined(ix_conn *c, int64_t n) {
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, "insert into em values (?, ?, ?, ?, ?)", -1, &s));
    ix_array cols[5] = {{IX_ARRAY_INT32, D.id, NULL},
                        {IX_ARRAY_TEXT, D.name, NULL},
                        {IX_ARRAY_INT32, D.counter, NULL},
                        {IX_ARRAY_DOUBLE, D.value, NULL},
                        {IX_ARRAY_DATE, D.created, NULL}};
    BENCH_CHECK(c, ix_batch_execute_arrays(s, n, cols, 5, NULL, NULL));
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
}

static void em_per_row(ix_conn *c, int64_t n) {
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, "insert into em values (?, ?, ?, ?, ?)", -1, &s));
    for (int64_t i = 0; i < n; i++) {
        ix_bind_int(s, 1, D.id[i]);
        ix_bind_text(s, 2, D.name[i], -1, IX_STATIC);
        ix_bind_int(s, 3, D.counter[i]);
        ix_bind_double(s, 4, D.value[i]);
        ix_bind_date(s, 5, D.created[i]);
        int rc = ix_step(s);
        if (rc != IX_DONE) BENCH_CHECK(c, rc < 0 ? rc : -1);
        BENCH_CHECK(c, ix_reset(s));
    }
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
}

/* Raw loopback TCP transfer of `bytes` (a child writes, we read); seconds. */
static double raw_tcp(int64_t bytes) {
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a;
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 || listen(lfd, 1) < 0 ||
        getsockname(lfd, (struct sockaddr *)&a, &al) < 0)
        return -1;
    static char buf[65536];
    pid_t pid = fork();
    if (pid == 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) _exit(1);
        int64_t left = bytes;
        while (left > 0) {
            ssize_t n =
                send(fd, buf, (size_t)(left < (int64_t)sizeof buf ? left : (int64_t)sizeof buf),
                     MSG_NOSIGNAL);
            if (n <= 0) _exit(1);
            left -= n;
        }
        close(fd);
        _exit(0);
    }
    int fd = accept(lfd, NULL, NULL);
    close(lfd);
    double t = bench_now();
    int64_t got = 0;
    while (fd >= 0 && got < bytes) {
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, 10000) <= 0) break; /* bounded: 10 s */
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        got += n;
    }
    t = bench_now() - t;
    if (fd >= 0) close(fd);
    waitpid(pid, NULL, 0);
    return got == bytes ? t : -1;
}

typedef struct work {
    char name[48];
    int has_base;
    int k; /* size index (executemany_*, select_*) */
    double *c, *base, *limit;
    int n;
    int64_t bytes;
} work;

#define MAXW 12
static work W[MAXW];
static int NW;

static work *add_work(const char *name, int rounds, int has_base, int has_limit, int k) {
    work *w = &W[NW++];
    w->k = k;
    snprintf(w->name, sizeof w->name, "%s", name);
    w->has_base = has_base;
    w->c = calloc((size_t)rounds, sizeof(double));
    w->base = calloc((size_t)rounds, sizeof(double));
    w->limit = has_limit ? calloc((size_t)rounds, sizeof(double)) : NULL;
    return w;
}

static void run_one(work *w, int k, ix_conn *c, int which) {
    char sql[128];
    double t = bench_now();
    if (strcmp(w->name, "select_one_row") == 0) {
        drv_fetch(c, "select tabname from systables where tabid = 1", which ? 1 : 0,
                  which ? 0 : -1);
    } else if (strcmp(w->name, "select_one_row_prepared") == 0) {
        ix_stmt *s = NULL; /* prepared once (untimed), executed PREP_EXECS times */
        BENCH_CHECK(c, ix_prepare(c, "select tabname from systables where tabid = 1", -1, &s));
        t = bench_now();
        for (int e = 0; e < PREP_EXECS; e++) {
            int rc;
            while ((rc = ix_step(s)) == IX_ROW)
                ;
            BENCH_CHECK(c, rc);
            BENCH_CHECK(c, ix_reset(s));
        }
        t = bench_now() - t;
        ix_finalize(s);
        (which ? w->base : w->c)[w->n] = t / PREP_EXECS; /* per execution */
        return;
    } else if (strcmp(w->name, "select_systables_first_10") == 0) {
        drv_fetch(c, "select first 10 * from systables", which ? 1 : 0, which ? 0 : -1);
    } else if (strcmp(w->name, "cold_connect_disconnect") == 0) {
        ix_conn *x = cmp_connect(g_port, "bench");
        ix_close(x);
    } else if (strncmp(w->name, "executemany_", 12) == 0) {
        int64_t n = SIZES[k];
        BENCH_CHECK(c, ix_exec(c, "delete from em")); /* not timed */
        t = bench_now();
        if (which)
            em_per_row(c, n);
        else
            em_pipelined(c, n);
    } else {
        snprintf(sql, sizeof sql, "select id, name, counter, value, created from sel_%lld",
                 (long long)SIZES[k]);
        fetched f = drv_fetch(c, sql, which ? 1 : 0, which ? 0 : -1);
        if (f.rows != SIZES[k]) {
            fprintf(stderr, "%s: %lld rows\n", w->name, (long long)f.rows);
            exit(1);
        }
        w->bytes = f.bytes;
    }
    (which ? w->base : w->c)[w->n] = bench_now() - t;
}

/* Python results: lines "name median_s iqr_s". */
typedef struct pyrow {
    char name[48];
    double med, iqr;
} pyrow;
static pyrow PY[32];
static int NPY;

static const pyrow *py_find(const char *name) {
    for (int i = 0; i < NPY; i++)
        if (strcmp(PY[i].name, name) == 0) return &PY[i];
    return NULL;
}

/* bench_instr's results (--instr FILE): lines "name instructions_per_row". */
static pyrow INSTR[32];
static int NINSTR;

static double instr_find(const char *name) {
    for (int i = 0; i < NINSTR; i++)
        if (strcmp(INSTR[i].name, name) == 0) return INSTR[i].med;
    return -1;
}

static bench_stat work_stat(const char *name) {
    bench_stat none = {-1, -1, -1};
    for (int i = 0; i < NW; i++)
        if (strcmp(W[i].name, name) == 0 && W[i].n > 0) return bench_stats(W[i].c, W[i].n);
    return none;
}

static void print_goals(void) {
    printf("\nGoals (C API with default settings, ixd on loopback):\n\n");
    bench_goal_header();
    bench_stat s = work_stat("select_100k");
    bench_goal("fetch wall time per row, end to end, default settings (select_100k)",
               s.median < 0 ? -1 : s.median / 1e5 * 1e6, "us", 1, 0.25, NULL);
    s = work_stat("executemany_100k");
    bench_goal("pipelined insert wall time per row, end to end (executemany_100k)",
               s.median < 0 ? -1 : s.median / 1e5 * 1e6, "us", 1, 1.0, NULL);
    s = work_stat("select_one_row_prepared");
    bench_goal("select_one_row, prepared once, per execution (1000 executions)",
               s.median < 0 ? -1 : s.median * 1e6, "us", 1, 40, NULL);
    s = work_stat("cold_connect_disconnect");
    bench_goal("connect + close", s.median < 0 ? -1 : s.median * 1e3, "ms", 1, 2, NULL);
    for (int k = 0; k < NSIZES; k++) {
        char a[48], b[48], what[96];
        snprintf(a, sizeof a, "select_%s", SIZE_NAMES[k]);
        snprintf(b, sizeof b, "tuples_%s", SIZE_NAMES[k]);
        snprintf(what, sizeof what, "Python fetchall / building the tuples from memory (%s)",
                 SIZE_NAMES[k]);
        const pyrow *p = py_find(a), *q = py_find(b);
        bench_goal(what, p && q && q->med > 0 ? p->med / q->med : -1, "x", 1, 1.2, NULL);
    }
}

static double callgrind_per_row(int port, int64_t rows, const char *dir) {
    char out[400], cmd[1200], self[512];
    if (bench_self_exe(self, sizeof self)) return -1;
    snprintf(out, sizeof out, "%s/callgrind.drv.out", dir);
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --toggle-collect=drv_fetch --callgrind-out-file=%s "
             "'%s' --cg-child %d >/dev/null 2>&1",
             out, self, port);
    if (system(cmd) != 0) return -1;
    double ir = cmp_cg_total(out);
    return ir < 0 ? -1 : ir / (double)rows;
}

static void ms(char *out, size_t n, bench_stat st) {
    snprintf(out, n, "%.3f [%.3f]", st.median * 1e3, (st.q3 - st.q1) * 1e3);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc == 3 && strcmp(argv[1], "--cg-child") == 0) {
        ix_conn *c = cmp_connect(atoi(argv[2]), "bench");
        fetched f = drv_fetch(c, "select id, name, counter, value, created from sel_10000", 0, -1);
        ix_close(c);
        return f.rows == 10000 ? 0 : 1;
    }
    int rounds = 10, quick = 0, use_cg = 1;
    const char *pyfile = NULL, *dat = NULL, *instrfile = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0)
            quick = 1, rounds = 5;
        else if (strcmp(a, "--no-callgrind") == 0)
            use_cg = 0;
        else if (v && strcmp(a, "--rounds") == 0)
            rounds = atoi(v), i++;
        else if (v && strcmp(a, "--py") == 0)
            pyfile = v, i++;
        else if (v && strcmp(a, "--dat") == 0)
            dat = v, i++;
        else if (v && strcmp(a, "--instr") == 0)
            instrfile = v, i++;
        else {
            fprintf(stderr, "usage: bench_drivers [--quick] [--rounds N] [--py FILE] "
                            "[--instr FILE] [--dat FILE] [--no-callgrind]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > 1000) return 2;
    int rounds_big = quick && rounds > 3 ? 3 : rounds;
    if (pyfile) {
        FILE *f = fopen(pyfile, "r");
        if (!f) {
            perror(pyfile);
            return 1;
        }
        while (NPY < 32 && fscanf(f, "%47s %lf %lf", PY[NPY].name, &PY[NPY].med, &PY[NPY].iqr) == 3)
            NPY++;
        fclose(f);
    }

    if (instrfile) {
        FILE *f = fopen(instrfile, "r");
        if (!f) {
            perror(instrfile);
            return 1;
        }
        while (NINSTR < 32 && fscanf(f, "%47s %lf", INSTR[NINSTR].name, &INSTR[NINSTR].med) == 2)
            NINSTR++;
        fclose(f);
    }
    ixd_proc P;
    cmp_start_ixd(&P);
    g_port = P.port;
    ix_conn *c = cmp_connect(P.port, "bench");
    cmp_make_data(&D, SIZES[NSIZES - 1]);
    cmp_create(c, "em");
    for (int k = 0; k < NSIZES; k++) {
        char tn[32];
        snprintf(tn, sizeof tn, "sel_%lld", (long long)SIZES[k]);
        cmp_create(c, tn);
        cmp_insert(c, tn, &D, SIZES[k]);
    }

    add_work("select_one_row", rounds, 1, 0, 0);
    add_work("select_one_row_prepared", rounds, 0, 0, 0);
    add_work("select_systables_first_10", rounds, 1, 0, 0);
    add_work("cold_connect_disconnect", rounds, 0, 0, 0);
    for (int k = 0; k < NSIZES; k++) {
        char n[48];
        snprintf(n, sizeof n, "executemany_%s", SIZE_NAMES[k]);
        add_work(n, rounds, 1, 0, k);
    }
    for (int k = 0; k < NSIZES; k++) {
        char n[48];
        snprintf(n, sizeof n, "select_%s", SIZE_NAMES[k]);
        add_work(n, rounds, 1, 1, k);
    }
    double t0 = bench_now();
    for (int i = 0; i < NW; i++) { /* warm-up */
        work *w = &W[i];
        run_one(w, w->k, c, 0);
    }
    for (int r = 0; r < rounds; r++) {
        for (int q = 0; q < NW; q++) {
            int i = (q + r) % NW;
            work *w = &W[i];
            int k = w->k;
            int big = k == NSIZES - 1;
            if (big && r >= rounds_big) continue;
            int first = r % 2; /* alternate which goes first */
            for (int m = 0; m < 2; m++) {
                int which = m ^ first;
                if (which && !w->has_base) continue;
                run_one(w, k, c, which);
            }
            if (w->limit) w->limit[w->n] = raw_tcp(w->bytes);
            w->n++;
        }
    }
    double elapsed = bench_now() - t0;

    double cg = -1;
    if (use_cg && system("valgrind --version >/dev/null 2>&1") == 0)
        cg = callgrind_per_row(P.port, 10000, P.dir);

    printf("## Table 1: driver comparison\n\n");
    printf("bench_drivers%s: ixd on loopback (no proxy), libixdb defaults (auto fetch buffer, "
           "adaptive read-ahead); %d rounds (%d for the 100k workloads%s); %.0f s for the C side. "
           "Median ms [IQR ms]; \"x\" = baseline median / ixdb median (higher is better).\n\n",
           quick ? " --quick" : "", rounds, rounds_big,
           quick ? ", quick variant: fewer than the 10 of the full run" : "", elapsed);
    printf("| workload | C API | Python | baseline (1 round trip/row) | C vs baseline | "
           "Python vs baseline | limit |\n|---|---:|---:|---:|---:|---:|---|\n");
    FILE *df = dat ? fopen(dat, "w") : NULL;
    if (df) fprintf(df, "# workload C_ms python_ms baseline_ms\n");
    for (int i = 0; i < NW; i++) {
        work *w = &W[i];
        bench_stat sc = bench_stats(w->c, w->n), sb = bench_stats(w->base, w->n);
        char a[64], b[64] = "-", p[64] = "-", rb[32] = "-", rp[32] = "-", lim[160] = "-";
        ms(a, sizeof a, sc);
        const pyrow *py = py_find(w->name);
        if (py) snprintf(p, sizeof p, "%.3f [%.3f]", py->med * 1e3, py->iqr * 1e3);
        if (w->has_base) {
            ms(b, sizeof b, sb);
            snprintf(rb, sizeof rb, "%.2fx", sb.median / sc.median);
            if (py) snprintf(rp, sizeof rp, "%.2fx", sb.median / py->med);
        }
        if (w->limit) {
            bench_stat sl = bench_stats(w->limit, w->n);
            char tn[64];
            snprintf(tn, sizeof tn, "tuples_%s", w->name + 7);
            const pyrow *tp = py_find(tn);
            int o = snprintf(lim, sizeof lim, "raw TCP of the %lld bytes: %.3f ms",
                             (long long)w->bytes, sl.median * 1e3);
            if (tp)
                snprintf(lim + o, sizeof lim - (size_t)o,
                         "; Python tuples from memory: %.3f ms (fetchall / that = %.2f)",
                         tp->med * 1e3, py ? py->med / tp->med : 0);
        }
        printf("| %s | %s | %s | %s | %s | %s | %s |\n", w->name, a, p, b, rb, rp, lim);
        if (df) {
            fprintf(df, "%s %.4f", w->name, sc.median * 1e3);
            if (py)
                fprintf(df, " %.4f", py->med * 1e3);
            else
                fprintf(df, " ?");
            if (w->has_base)
                fprintf(df, " %.4f\n", sb.median * 1e3);
            else
                fprintf(df, " ?\n");
        }
    }
    if (df) fclose(df);
    const pyrow *pyb = py_find("python_execute_loop_100k");
    if (pyb)
        printf("\nPython's own per-row baseline (a loop of cursor.execute, 100k rows): %.1f ms "
               "[%.1f]; executemany_100k is %.2fx faster.\n",
               pyb->med * 1e3, pyb->iqr * 1e3,
               py_find("executemany_100k") ? pyb->med / py_find("executemany_100k")->med : 0);
    if (cg > 0)
        printf("\ncallgrind: %.0f client instructions per fetched row (select_10k, default "
               "settings: prepare, steps, 5 column reads, socket reads).\n",
               cg);
    else
        printf("\ncallgrind: not run (%s).\n",
               use_cg ? "valgrind not found or failed" : "--no-callgrind");
    if (NINSTR > 0)
        printf("\nInstructions per row (bench_instr, callgrind, fixed cost removed by fitting two "
               "sizes): select_* client %.0f, ixd %.0f; executemany_* client %.0f, ixd %.0f; "
               "baseline inserts (one round trip per row) client %.0f, ixd %.0f.\n",
               instr_find("client_fetch"), instr_find("ixd_fetch"),
               instr_find("client_insert_pipelined"), instr_find("ixd_insert_pipelined"),
               instr_find("client_insert_per_row"), instr_find("ixd_insert_per_row"));
    print_goals();
    ix_close(c);
    cmp_free_data(&D);
    for (int i = 0; i < NW; i++)
        free(W[i].c), free(W[i].base), free(W[i].limit);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return 0;
}
