/* bench_ts_cg.c: the TimeSeries routines in process (ixd's engine, no
 * socket), for instruction counts that do not depend on the machine's
 * load. One series of 20,160 one-minute points with 3 FLOAT walks in 0.01
 * steps (the shape of table 3), then one kind of call, N times:
 *
 *   bench_ts_cg page N    the first JSON page of the series (oni_ts_read)
 *   bench_ts_cg paged N   the whole series page after page, N times
 *   bench_ts_cg rows N    every row of the series (oni_ts_read_rows), counted
 *   bench_ts_cg rowsall N every row of the series with its columns
 *                         (--toggle-collect=t_column: the columns' share)
 *   bench_ts_cg agg N     a one-day average (oni_ts_aggregate)
 *   bench_ts_cg write N   N single elements (oni_ts_write) in one transaction
 *   bench_ts_cg insert N  N single-row INSERTs of the same values into a
 *                         relational table, in one transaction
 *
 * Instructions per call (docs/benchmarks-comparisons.md, table 3):
 *   valgrind --tool=callgrind --toggle-collect=ixts_json_page \
 *       build/bench_ts_cg page 40      (divide by the calls it prints)
 *   valgrind --tool=callgrind --toggle-collect=ixd_execute \
 *       build/bench_ts_cg write 2000   (and insert 2000)
 * It prints the calls made and the wall time per call (noisy; the counts
 * are the figure). */
#include <time.h>

#include "test_engine_util.h"

#define POINTS 20160
#define BATCH  400

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The series: batches of BATCH elements through oni_ts_write_many. */
static int load(void) {
    static char sql[BATCH * 64 + 200];
    long long w[3] = {2000, 5000, 100000};
    unsigned r = 1;
    for (int k0 = 0; k0 < POINTS; k0 += BATCH) {
        size_t o = (size_t)snprintf(sql, sizeof sql,
                                    "execute procedure oni_ts_write_many('meters','readings',1,'");
        for (int k = k0; k < k0 + BATCH && k < POINTS; k++) {
            for (int m = 0; m < 3; m++) {
                r = r * 1103515245u + 12345u;
                w[m] += (int)((r >> 16) % 3) - 1;
            }
            o += (size_t)snprintf(sql + o, sizeof sql - o,
                                  "2026-01-%02d %02d:%02d|%lld.%02lld|%lld.%02lld|%lld.%02lld\n",
                                  1 + k / 1440, k / 60 % 24, k % 60, w[0] / 100, w[0] % 100,
                                  w[1] / 100, w[1] % 100, w[2] / 100, w[2] % 100);
        }
        snprintf(sql + o, sizeof sql - o, "')");
        if (run(sql)) {
            fprintf(stderr, "load: %d %s\n", ERR.sqlcode, ERR.text);
            return -1;
        }
    }
    return 0;
}

/* n single writes (or INSERTs) of minutes after the series, one
 * transaction; returns n. */
static int write_single(int n, int insert) {
    char sql[300];
    if (run("begin work")) return 0;
    for (int k = 0; k < n; k++) {
        int m = POINTS + k;
        char ts[40];
        snprintf(ts, sizeof ts, "2026-%02d-%02d %02d:%02d", 1 + m / 1440 / 28, 1 + m / 1440 % 28,
                 m / 60 % 24, m % 60);
        if (insert)
            snprintf(sql, sizeof sql,
                     "insert into rel values (1, '%s:00.00000', 20.%02d, 50.1, %d)", ts, k % 100,
                     k);
        else
            snprintf(sql, sizeof sql,
                     "execute procedure oni_ts_write('meters','readings',1,'%s|20.%02d|50.1|%d')",
                     ts, k % 100, k);
        if (run(sql)) {
            fprintf(stderr, "%s: %d %s\n", sql, ERR.sqlcode, ERR.text);
            break;
        }
    }
    run("rollback work");
    return n;
}

/* Reads the series page after page; returns the calls. */
static int read_paged(void) {
    char from[64] = "NULL", sql[300];
    int calls = 0;
    for (;;) {
        snprintf(sql, sizeof sql, "execute function oni_ts_read('meters','readings',1,%s,NULL)",
                 from);
        const char *r = q(sql);
        calls++;
        const char *nx = strstr(r, "\"next\":");
        if (!nx || !strncmp(nx + 7, "null", 4)) return calls;
        snprintf(from, sizeof from, "'%.25s'", nx + 8);
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "page";
    int n = argc > 2 ? atoi(argv[2]) : 40;
    eu_setup("tscg");
    if (run("create database d with log") ||
        run("create row type reading_t (ts datetime year to fraction(5), m1 float, m2 float, "
            "m3 float)") ||
        run("create table meters (id int primary key, readings timeseries(reading_t))") ||
        strcmp(q("execute function oni_ts_create('meters','readings',1,'2026-01-01',"
                 "'1 minute')"),
               "1") ||
        run("create table rel (id int, ts datetime year to fraction(5), m1 float, m2 float, "
            "m3 float, primary key (id, ts))") ||
        load())
        return 1;
    int calls = 0;
    double t0 = now_s();
    if (!strcmp(mode, "write") || !strcmp(mode, "insert")) {
        calls = write_single(n, mode[0] == 'i');
        n = 0;
    }
    for (int i = 0; i < n; i++) {
        if (!strcmp(mode, "page")) {
            q("execute function oni_ts_read('meters','readings',1,NULL,NULL)");
            calls++;
        } else if (!strcmp(mode, "paged")) {
            calls += read_paged();
        } else if (!strcmp(mode, "rows")) {
            q("select count(*) from table(oni_ts_read_rows('meters','readings',1,NULL,NULL)"
              "::multiset(reading_t))");
            calls++;
        } else if (!strcmp(mode, "rowsall")) {
            q("select * from table(oni_ts_read_rows('meters','readings',1,NULL,NULL)"
              "::multiset(reading_t))");
            calls++;
        } else if (!strcmp(mode, "agg")) {
            q("execute function oni_ts_aggregate('meters','readings',1,'2026-01-03 00:00',"
              "'2026-01-03 23:59','1 day','avg')");
            calls++;
        } else {
            fprintf(stderr, "usage: bench_ts_cg page|paged|rows|rowsall|agg|write|insert [N]\n");
            return 2;
        }
    }
    double t = now_s() - t0;
    printf("%s: %d calls, %.1f us per call (last: %.60s)\n", mode, calls,
           calls ? t / calls * 1e6 : 0, OUT);
    eu_teardown();
    return 0;
}
