/*
 * bench_instr.c: instructions per row, client and ixd counted separately,
 * with callgrind, for the workloads of bench_fetch, bench_insert and the
 * driver table (select_*, executemany_*):
 *   fetch    whole table (id INT, name VARCHAR(64), counter INT, value FLOAT,
 *            created DATE), default settings, typed accessors
 *            (ix_column_int, ix_column_text_len, ix_column_int,
 *            ix_column_double, ix_column_int)
 *   fetch+4  the same table with 4 more fixed-width columns (INT, FLOAT,
 *            DATE, INT), each read with its typed accessor; the difference
 *            from fetch / 4 is the cost of one additional fixed-width column
 *   everyday the fetch table read with ix_column_int, ix_column_text and
 *            ix_column_text_len, ix_column_double, ix_column_date_ymd
 *   pipelined insert  ix_batch_execute_arrays in one transaction
 *   per-row insert    bind + ix_step + ix_reset per row, one transaction
 *   point select      a prepared one-row SELECT by key re-executed per row
 *            (ix_bind_int, ix_step, the five everyday reads, ix_reset) on
 *            the fetch table (a unique index on id)
 * Every workload runs at two sizes, N and 2N rows, each in its own
 * connection; per row = (I(2N) - I(N)) / N, so that the fixed costs
 * (connect, prepare, commit, close) cancel; fixed = I(N) - N x per row.
 *
 * Client side: this program runs itself (--child) under
 *   valgrind --tool=callgrind --toggle-collect=instr_work --dump-after=instr_work
 * so that only instr_work (connect, the workload, close) is counted, one
 * profile per call. Server side: ixd runs under
 *   valgrind --tool=callgrind --dump-before=accept4
 * so that every profile holds what ixd executed (all threads) between two
 * accepted connections, i.e. for one connection of the child; the child
 * waits between connections until ixd is done with the previous one.
 * The tables are loaded natively before (ixd still under callgrind: the
 * load is one profile of its own, not used).
 *
 * SQLite's floors, counted the same way (two sizes, in process, on ixd's
 * file after ixd has stopped): the fetch (a step and the five typed column
 * reads per row) and the pipelined insert (five typed binds, a step and a
 * reset of one prepared INSERT per row, into ixd's tables, in one
 * transaction). Both open SQLite with its default (serialized) mutexes,
 * which ixd does without (SQLITE_OPEN_NOMUTEX).
 *
 * Instruction counts are deterministic up to small noise (timer wake-ups of
 * ixd's listener), so one run is reported, not a median of rounds.
 *
 * Usage: bench_instr [--quick] [--rows N] [--tsv FILE]
 *   default N = 20000, --quick N = 4000. --tsv writes "name value" lines
 *   (client_fetch, ixd_fetch, ...) for bench_drivers --instr FILE.
 *        bench_instr --child PORT N   (the client under callgrind)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "proxy/cmp_common.h"

enum { W_FETCH, W_WIDE, W_PIPE, W_PERROW, W_EVERYDAY, W_POINT, NWORK };
static const char *const WNAME[NWORK] = {
    "fetch (5 columns, default settings)",
    "fetch (5 + 4 fixed-width columns)",
    "insert, pipelined (ix_batch_execute_arrays)",
    "insert, one round trip per row",
    "fetch (5 columns, the everyday accessors)",
    "one-row SELECT by key re-executed (bind, step, 5 reads, reset), per execution",
};
static const char *const WKEY[NWORK] = {"fetch",          "fetch_wide",     "insert_pipelined",
                                        "insert_per_row", "fetch_everyday", "point_select"};
#define EXTRA_COLS 4
#define LOAD_CONNS 2 /* connections load() makes */

static cmp_data D;

/* The same five columns as users read them: ix_column_int,
 * ix_column_text with ix_column_text_len, ix_column_int, ix_column_double,
 * ix_column_date_ymd. */
static int64_t read_everyday(ix_stmt *s) {
    int y, m, d;
    const char *name = ix_column_text(s, 1);
    int64_t sum = ix_column_int(s, 0) + (name ? name[0] : 0) + (int64_t)ix_column_text_len(s, 1) +
                  ix_column_int(s, 2) + (int64_t)ix_column_double(s, 3);
    if (ix_column_date_ymd(s, 4, &y, &m, &d) == IX_OK) sum += y + m + d;
    return sum;
}

/* Reads every row of table: w W_WIDE reads 4 more columns, W_EVERYDAY
 * reads through the everyday accessors. */
static int64_t fetch_table(ix_conn *c, const char *table, int w) {
    int wide = w == W_WIDE;
    char sql[200];
    snprintf(sql, sizeof sql, "select id, name, counter, value, created%s from %s",
             wide ? ", x1, x2, x3, x4" : "", table);
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    int64_t rows = 0, sum = 0;
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        sum += w == W_EVERYDAY ? read_everyday(s) : bench_read_row5(s);
        if (wide) {
            sum += ix_column_int(s, 5);
            sum += (int64_t)ix_column_double(s, 6);
            sum += ix_column_int(s, 7);
            sum += ix_column_int(s, 8);
        }
        rows++;
    }
    BENCH_CHECK(c, rc);
    ix_finalize(s);
    if (sum == 42) printf(" "); /* keep the reads */
    return rows;
}

static void insert_pipelined(ix_conn *c, const char *table, int64_t n) {
    cmp_insert(c, table, &D, n);
}

static void insert_per_row(ix_conn *c, const char *table, int64_t n) {
    char sql[128];
    snprintf(sql, sizeof sql, "insert into %s values (?, ?, ?, ?, ?)", table);
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_begin(c));
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    for (int64_t i = 0; i < n; i++) {
        ix_bind_int(s, 1, D.id[i]);
        ix_bind_text(s, 2, D.name[i], -1, IX_STATIC);
        ix_bind_int(s, 3, D.counter[i]);
        ix_bind_double(s, 4, D.value[i]);
        ix_bind_date(s, 5, D.created[i]);
        BENCH_CHECK(c, ix_step(s));
        BENCH_CHECK(c, ix_reset(s));
    }
    ix_finalize(s);
    BENCH_CHECK(c, ix_commit(c));
}

/* n executions of a prepared one-row SELECT by key on table. */
static void point_select(ix_conn *c, const char *table, int64_t n) {
    char sql[160];
    snprintf(sql, sizeof sql, "select id, name, counter, value, created from %s where id = ?",
             table);
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++) {
        ix_bind_int(s, 1, D.id[i]);
        if (ix_step(s) != IX_ROW) {
            fprintf(stderr, "%s: no row for id %d\n", table, D.id[i]);
            exit(1);
        }
        sum += read_everyday(s);
        BENCH_CHECK(c, ix_reset(s));
    }
    ix_finalize(s);
    if (sum == 42) printf(" "); /* keep the reads */
}

/* One measured unit: connect, workload w on size index z (0: N, 1: 2N),
 * close. Not inlined: callgrind collects from here
 * (--toggle-collect=instr_work) and dumps after it. */
__attribute__((noinline)) void instr_work(int port, int w, int z, int64_t n);
__attribute__((noinline)) void instr_work(int port, int w, int z, int64_t n) {
    char table[32];
    static const char *const prefix[NWORK] = {"f", "w", "p", "r", "f", "f"};
    snprintf(table, sizeof table, "%s_%d", prefix[w], z);
    ix_conn *c = cmp_connect(port, "bench");
    int64_t rows = n * (z + 1);
    if (w == W_FETCH || w == W_WIDE || w == W_EVERYDAY) {
        if (fetch_table(c, table, w) != rows) {
            fprintf(stderr, "%s: short fetch\n", table);
            exit(1);
        }
    } else if (w == W_PIPE) {
        insert_pipelined(c, table, rows);
    } else if (w == W_POINT) {
        point_select(c, table, rows);
    } else {
        insert_per_row(c, table, rows);
    }
    ix_close(c);
}

/* SQLite's own floor for ixd's fetch: the rows of table read in process
 * from ixd's file, as ixd reads them (a step and the five columns' typed
 * reads), nothing else. Not inlined: callgrind collects from here
 * (--toggle-collect=sqlite_work) and dumps after it. */
__attribute__((noinline)) int64_t sqlite_work(sqlite3 *h, const char *table);
__attribute__((noinline)) int64_t sqlite_work(sqlite3 *h, const char *table) {
    char sql[128];
    snprintf(sql, sizeof sql, "select id, name, counter, value, created from %s", table);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    int64_t rows = 0, sum = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        sum += sqlite3_column_int64(st, 0) + sqlite3_column_bytes(st, 1) +
               (sqlite3_column_text(st, 1) != NULL) + sqlite3_column_int64(st, 2) +
               (int64_t)sqlite3_column_double(st, 3) + sqlite3_column_int64(st, 4);
        rows++;
    }
    sqlite3_finalize(st);
    if (sum == 42) printf(" "); /* keep the reads */
    return rows;
}

/* Reads the database's schema before anything is counted: the first
 * statement prepared on a connection parses every CREATE of the file
 * (about 3 million instructions here), which would otherwise be counted in
 * the smaller size only and lower the fitted per-row figure by ~750. */
static void load_schema(sqlite3 *h) {
    sqlite3_exec(h, "select count(*) from sqlite_master", NULL, NULL, NULL);
}

/* The child under callgrind for the floor: both sizes of the fetch table, opened
 * as ixd opens its files (no SQLite mutexes). */
static int sqlite_child(const char *path, int64_t n) {
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return 1;
    load_schema(h);
    int rc = 0;
    for (int z = 0; z < 2 && rc == 0; z++) {
        char table[32];
        snprintf(table, sizeof table, "f_%d", z);
        if (sqlite_work(h, table) != n * (z + 1)) rc = 1;
    }
    sqlite3_close(h);
    return rc;
}

/* SQLite's own floor for ixd's pipelined insert: the same rows inserted in
 * process into ixd's table, as ixd runs them (the five typed binds, a step
 * and a reset of one prepared INSERT per row), in one transaction, nothing
 * else. Not inlined: callgrind collects from here
 * (--toggle-collect=sqlite_insert_work) and dumps after it. */
__attribute__((noinline)) int sqlite_insert_work(sqlite3 *h, const char *table, int64_t n);
__attribute__((noinline)) int sqlite_insert_work(sqlite3 *h, const char *table, int64_t n) {
    char sql[160];
    snprintf(sql, sizeof sql,
             "insert into %s (id, name, counter, value, created) values (?, ?, ?, ?, ?)", table);
    sqlite3_stmt *st = NULL;
    if (sqlite3_exec(h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    for (int64_t i = 0; i < n && rc == 0; i++) {
        sqlite3_bind_int64(st, 1, D.id[i]);
        sqlite3_bind_text(st, 2, D.name[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, D.counter[i]);
        sqlite3_bind_double(st, 4, D.value[i]);
        sqlite3_bind_int64(st, 5, D.created[i]);
        if (sqlite3_step(st) != SQLITE_DONE) rc = -1;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) rc = -1;
    return rc;
}

/* The child under callgrind for the insert floor: both sizes, into ixd's
 * tables of the pipelined insert (which then hold their rows twice). */
static int sqlite_insert_child(const char *path, int64_t n) {
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return 1;
    cmp_make_data(&D, 2 * n);
    load_schema(h);
    int rc = 0;
    for (int z = 0; z < 2 && rc == 0; z++) {
        char table[32];
        snprintf(table, sizeof table, "p_%d", z);
        rc = sqlite_insert_work(h, table, n * (z + 1)) != 0;
    }
    cmp_free_data(&D);
    sqlite3_close(h);
    return rc;
}

static void pause_ms(int ms) {
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL);
}

static int child(int port, int64_t n) {
    cmp_make_data(&D, 2 * n);
    for (int w = 0; w < NWORK; w++)
        for (int z = 0; z < 2; z++) {
            instr_work(port, w, z, n);
            pause_ms(700); /* let ixd finish with the connection before the next accept */
        }
    cmp_free_data(&D);
    return 0;
}

/* Loads the tables (natively, before the measured child runs). */
static void load(int port, int64_t n) {
    ix_conn *c = cmp_connect(port, NULL);
    BENCH_CHECK(c, ix_exec(c, "create database bench with log"));
    ix_close(c);
    c = cmp_connect(port, "bench");
    for (int z = 0; z < 2; z++) {
        char t[32], sql[300];
        snprintf(t, sizeof t, "f_%d", z);
        cmp_create(c, t);
        cmp_insert(c, t, &D, n * (z + 1));
        snprintf(sql, sizeof sql, "create unique index f_%d_id on f_%d (id)", z, z);
        BENCH_CHECK(c, ix_exec(c, sql));
        snprintf(t, sizeof t, "p_%d", z);
        cmp_create(c, t);
        snprintf(t, sizeof t, "r_%d", z);
        cmp_create(c, t);
        snprintf(sql, sizeof sql,
                 "create table w_%d (id int, name varchar(64), counter int, value float, "
                 "created date, x1 int, x2 float, x3 date, x4 int)",
                 z);
        BENCH_CHECK(c, ix_exec(c, sql));
        snprintf(sql, sizeof sql,
                 "insert into w_%d select id, name, counter, value, created, counter, value, "
                 "created, id from f_%d",
                 z, z);
        BENCH_CHECK(c, ix_exec(c, sql));
    }
    ix_close(c);
}

/* Starts ixd under callgrind, one profile per accepted connection. */
static int start_ixd_cg(ixd_proc *p) {
    snprintf(p->dir, sizeof p->dir, "/tmp/ixdinstr.XXXXXX");
    if (!mkdtemp(p->dir)) return -1;
    char portfile[300], out[320];
    snprintf(portfile, sizeof portfile, "%s/.port", p->dir);
    snprintf(p->log, sizeof p->log, "%s/.ixd.log", p->dir);
    snprintf(out, sizeof out, "--callgrind-out-file=%s/ixd.cg", p->dir);
    p->pid = fork();
    if (p->pid < 0) return -1;
    if (p->pid == 0) {
        int fd = open(p->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) dup2(fd, 1), dup2(fd, 2);
        const char *argv[] = {"valgrind",
                              "--tool=callgrind",
                              "--dump-before=accept4",
                              out,
                              IXD_BIN,
                              "--data",
                              p->dir,
                              "--listen",
                              "127.0.0.1:0",
                              "--port-file",
                              portfile,
                              NULL};
        execvp("valgrind", (char *const *)argv);
        _exit(127);
    }
    return ixd_wait_port(p, portfile, 6000); /* up to 60 s: valgrind starts slowly */
}

typedef struct fit {
    double per_row, fixed;
} fit;

static fit fit2(double i1, double i2, int64_t n) {
    fit f = {-1, -1};
    if (i1 < 0 || i2 < 0) return f;
    f.per_row = (i2 - i1) / (double)n;
    f.fixed = i1 - f.per_row * (double)n;
    return f;
}

static void print_fit(const char *name, fit cl, fit sv) {
    printf("| %s | %.0f | %.0f | %.0f | %.0f |\n", name, cl.per_row, cl.fixed, sv.per_row,
           sv.fixed);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc == 4 && strcmp(argv[1], "--child") == 0) return child(atoi(argv[2]), atoll(argv[3]));
    if (argc == 4 && strcmp(argv[1], "--sqlite") == 0) return sqlite_child(argv[2], atoll(argv[3]));
    if (argc == 4 && strcmp(argv[1], "--sqlite-insert") == 0)
        return sqlite_insert_child(argv[2], atoll(argv[3]));
    int64_t n = 20000;
    int quick = 0;
    const char *tsv = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0)
            quick = 1, n = 4000;
        else if (v && strcmp(a, "--rows") == 0)
            n = atoll(v), i++;
        else if (v && strcmp(a, "--tsv") == 0)
            tsv = v, i++;
        else {
            fprintf(stderr, "usage: bench_instr [--quick] [--rows N] [--tsv FILE]\n");
            return 2;
        }
    }
    if (n < 100 || n > 10000000) return 2;
    printf("## Instructions per row (callgrind)\n\n");
    if (system("valgrind --version >/dev/null 2>&1") != 0) {
        printf("bench_instr: valgrind not found, nothing measured.\n");
        return 0;
    }
    double t0 = bench_now();
    ixd_proc P;
    if (start_ixd_cg(&P) != 0) {
        fprintf(stderr, "cannot start ixd under callgrind (%s)\n", IXD_BIN);
        return 1;
    }
    cmp_make_data(&D, 2 * n);
    load(P.port, n);
    cmp_free_data(&D);
    pause_ms(700);

    char self[512], cmd[1600];
    if (bench_self_exe(self, sizeof self)) return 1;
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --toggle-collect=instr_work --dump-after=instr_work "
             "--callgrind-out-file=%s/client.cg '%s' --child %d %lld >%s/client.log 2>&1",
             P.dir, self, P.port, (long long)n, P.dir);
    int crc = system(cmd);
    /* one more connection: its accept closes ixd's profile of the last workload */
    ix_close(cmp_connect(P.port, NULL));
    pause_ms(300);
    ixd_stop(&P, SIGTERM);
    if (crc != 0) {
        fprintf(stderr, "client under callgrind failed (see %s/client.log)\n", P.dir);
        return 1;
    }

    /* client profiles: client.cg.1 .. 2 x NWORK, one per instr_work call, in order.
     * ixd profiles: ixd.cg.1 = start-up, then one per connection: the
     * LOAD_CONNS of load(), then the child's, in order; the last (the extra
     * connection above) is the final profile, ixd.cg. */
    double ci[NWORK][2], si[NWORK][2];
    for (int w = 0; w < NWORK; w++)
        for (int z = 0; z < 2; z++) {
            char f[400];
            int part = w * 2 + z + 1;
            snprintf(f, sizeof f, "%s/client.cg.%d", P.dir, part);
            ci[w][z] = cmp_cg_total(f);
            snprintf(f, sizeof f, "%s/ixd.cg.%d", P.dir, part + 1 + LOAD_CONNS);
            si[w][z] = cmp_cg_total(f);
        }
    char last[400], extra[400];
    snprintf(last, sizeof last, "%s/ixd.cg.%d", P.dir, 2 * NWORK + 1 + LOAD_CONNS);
    snprintf(extra, sizeof extra, "%s/ixd.cg.%d", P.dir, 2 * NWORK + 2 + LOAD_CONNS);
    if (access(last, R_OK) != 0 || access(extra, R_OK) == 0) {
        fprintf(stderr, "ixd's profiles do not match its connections (%s)\n", P.dir);
        return 1;
    }
    fit cl[NWORK], sv[NWORK];
    for (int w = 0; w < NWORK; w++) {
        cl[w] = fit2(ci[w][0], ci[w][1], n);
        sv[w] = fit2(si[w][0], si[w][1], n);
    }
    /* SQLite's floor: the same reads in process, on ixd's file (ixd stopped) */
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --toggle-collect=sqlite_work --dump-after=sqlite_work "
             "--callgrind-out-file=%s/sqlite.cg '%s' --sqlite %s/bench.db %lld >%s/sqlite.log 2>&1",
             P.dir, self, P.dir, (long long)n, P.dir);
    fit sqf = {-1, -1}; /* SQLite's floor */
    if (system(cmd) == 0) {
        char f1[400], f2[400];
        snprintf(f1, sizeof f1, "%s/sqlite.cg.1", P.dir);
        snprintf(f2, sizeof f2, "%s/sqlite.cg.2", P.dir);
        sqf = fit2(cmp_cg_total(f1), cmp_cg_total(f2), n);
    }
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --toggle-collect=sqlite_insert_work "
             "--dump-after=sqlite_insert_work --callgrind-out-file=%s/sqlite_ins.cg '%s' "
             "--sqlite-insert %s/bench.db %lld >%s/sqlite_ins.log 2>&1",
             P.dir, self, P.dir, (long long)n, P.dir);
    fit sqi = {-1, -1}; /* SQLite's floor for the insert */
    if (system(cmd) == 0) {
        char f1[400], f2[400];
        snprintf(f1, sizeof f1, "%s/sqlite_ins.cg.1", P.dir);
        snprintf(f2, sizeof f2, "%s/sqlite_ins.cg.2", P.dir);
        sqi = fit2(cmp_cg_total(f1), cmp_cg_total(f2), n);
    }
    fit cx = {(cl[W_WIDE].per_row - cl[W_FETCH].per_row) / EXTRA_COLS, 0};
    fit sx = {(sv[W_WIDE].per_row - sv[W_FETCH].per_row) / EXTRA_COLS, 0};

    printf("bench_instr%s: instructions executed per row, fitted on N = %lld and 2N = %lld "
           "rows (per row = (I(2N) - I(N)) / N; fixed = I(N) - N x per row: connect, prepare, "
           "commit, close); client = this program's instr_work only, ixd = everything the "
           "server ran for that connection (all threads); valgrind %s; %.0f s.\n\n",
           quick ? " --quick" : "", (long long)n, (long long)(2 * n), "callgrind",
           bench_now() - t0);
    printf("| workload | client instr/row | client fixed | ixd instr/row | ixd fixed |\n"
           "|---|---:|---:|---:|---:|\n");
    for (int w = 0; w < NWORK; w++)
        print_fit(WNAME[w], cl[w], sv[w]);
    printf("| one additional fixed-width column (fetch, (5+4 - 5) / 4) | %.0f | - | %.0f | - |\n",
           cx.per_row, sx.per_row);
    printf("| SQLite's floor for the fetch (step and the 5 typed column reads, in process) | - | - "
           "| %.0f | - |\n",
           sqf.per_row);
    printf("| SQLite's floor for the pipelined insert (5 typed binds, step and reset of the "
           "prepared INSERT, in process) | - | - | %.0f | - |\n",
           sqi.per_row);
    if (sqi.per_row >= 0)
        printf("| ixd pipelined insert over SQLite's floor for it | - | - | %.0f | - |\n",
               sv[W_PIPE].per_row - sqi.per_row);
    printf("\n");
    bench_goal_header();
    bench_goal("client fetch instructions/row (INT, VARCHAR(64), INT, FLOAT, DATE)",
               cl[W_FETCH].per_row, "instr", 1, 150, NULL);
    bench_goal("client fetch instructions/row, everyday accessors (int, text + text_len, double, "
               "date_ymd)",
               cl[W_EVERYDAY].per_row, "instr", 1, 150, NULL);
    bench_goal("client instructions per additional fixed-width column", cx.per_row, "instr", 1, 60,
               NULL);
    bench_goal("ixd fetch instructions/row", sv[W_FETCH].per_row, "instr", 1, 1000, NULL);
    if (sqf.per_row >= 0)
        bench_goal("ixd fetch instructions/row over SQLite's own floor",
                   sv[W_FETCH].per_row - sqf.per_row, "instr", 1, 300, NULL);
    bench_goal("ixd insert instructions/row (pipelined)", sv[W_PIPE].per_row, "instr", 1, 5000,
               NULL);
    bench_goal("client pipelined insert instructions/row", cl[W_PIPE].per_row, "instr", 1, 300,
               NULL);
    bench_goal("client instructions per re-execution of a one-row SELECT", cl[W_POINT].per_row,
               "instr", 1, 2000, NULL);
    if (tsv) {
        FILE *f = fopen(tsv, "w");
        if (f) {
            for (int w = 0; w < NWORK; w++)
                fprintf(f, "client_%s %.1f\nixd_%s %.1f\n", WKEY[w], cl[w].per_row, WKEY[w],
                        sv[w].per_row);
            fprintf(f, "client_extra_column %.1f\nixd_extra_column %.1f\n", cx.per_row, sx.per_row);
            fprintf(f, "sqlite_fetch_floor %.1f\n", sqf.per_row);
            fprintf(f, "sqlite_insert_floor %.1f\n", sqi.per_row);
            fclose(f);
        }
    }
    if (getenv("BENCH_KEEP"))
        printf("\nprofiles kept in %s\n", P.dir);
    else
        ixd_rmdir(&P);
    return 0;
}
