/* test_ts_kill.c: ixd killed with SIGKILL in the middle of a TimeSeries
 * bulk load (oni_ts_write_file) and of a transaction of pipelined
 * oni_ts_write_many calls. After a restart on the same files the series
 * holds nothing of the interrupted work (no partial chunk, counts and rows
 * agree), and the same load then runs to the end. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define NPOINTS 150000

static ixd_proc P;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static char dsn[400], load[300];

/* Minute m after 2026-01-01 00:00 as "YYYY-MM-DD HH:MI" into b. */
static void minute_text(int m, char b[64]) {
    time_t t = (time_t)1767225600 + (time_t)m * 60;
    struct tm tm;
    gmtime_r(&t, &tm);
    snprintf(b, 64, "%04d-%02d-%02d %02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min);
}

static ix_conn *connect_db(void) {
    char d[600];
    snprintf(d, sizeof d,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd database=tsk "
             "read_timeout=30",
             P.port);
    ix_conn *c = NULL;
    if (ix_connect(&c, d) != IX_OK) {
        CHECK(0, "connect: %s", ix_errmsg(c));
        ix_close(c);
        return NULL;
    }
    return c;
}

static int start(void) {
    const char *extra[] = {"--load-dir", load, NULL};
    int rc = ixd_start_args(&P, P.dir, extra);
    CHECK(rc == 0, "ixd starts (%s)", P.log);
    return rc;
}

/* The value of a one-row, one-column query (-1 on error). */
static long long value(ix_conn *c, const char *sql) {
    ix_stmt *s = NULL;
    long long v = -1;
    if (ix_prepare(c, sql, -1, &s) == IX_OK && ix_step(s) == IX_ROW) {
        const char *t = ix_column_text(s, 0);
        const char *e = t ? strstr(t, "\"elements\":") : NULL;
        v = e ? atoll(e + 11) : t ? atoll(t) : -1;
    }
    ix_finalize(s);
    return v;
}

/* The series' element count and row count; *e and *r. */
static void counts(ix_conn *c, long long *e, long long *r) {
    *e = value(c, "execute function oni_ts_info('meters','readings',1)");
    *r = value(c, "select count(*) from table(oni_ts_read_rows('meters','readings',1,"
                  "null,null)::multiset(reading_t))");
}

static void consistent(ix_conn *c, long long want, const char *what) {
    long long e, r;
    counts(c, &e, &r);
    CHECK(e == want && r == want, "%s: %lld elements, %lld rows, want %lld", what, e, r, want);
}

/* After a kill: nothing of the work, or all of it when the kill came after
 * the commit but before its answer reached the client (the client cannot
 * tell the two apart); never a part. Returns nothing. */
static void all_or_nothing(ix_conn *c, long long whole, const char *what) {
    long long e, r;
    counts(c, &e, &r);
    CHECK(e == r && (e == 0 || e == whole), "%s: %lld elements, %lld rows, want 0 or %lld", what, e,
          r, whole);
    if (e == whole)
        CHECK(ix_exec(c, "execute procedure oni_ts_delete('meters','readings',1,null,null)") ==
                  IX_OK,
              "reset after a commit the kill did not stop: %s", ix_errmsg(c));
}

typedef struct job {
    const char *sql;
    int rc;
    int txn_batches; /* > 0: BEGIN WORK, that many write_many calls, COMMIT */
    volatile int connected;
} job;

static void *run_job(void *arg) {
    job *j = arg;
    ix_conn *c = connect_db();
    j->rc = IX_EINVAL;
    if (!c) return NULL;
    __atomic_store_n(&j->connected, 1, __ATOMIC_SEQ_CST);
    if (j->txn_batches) {
        static char buf[40000];
        ix_stmt *s = NULL;
        int rc = ix_exec(c, "begin work");
        if (rc == IX_OK)
            rc = ix_prepare(c, "execute procedure oni_ts_write_many('meters','readings',1,?)", -1,
                            &s);
        for (int b = 0; rc == IX_OK && b < j->txn_batches; b++) {
            size_t o = 0;
            for (int k = 0; k < 500; k++) {
                int m = b * 500 + k;
                char ts[64];
                minute_text(m, ts);
                o += (size_t)snprintf(buf + o, sizeof buf - o, "%s|%d.25|2|3\n", ts, m % 997);
            }
            ix_bind_text(s, 1, buf, (int)o, IX_STATIC);
            rc = ix_step(s);
            if (rc == IX_DONE) rc = IX_OK;
            ix_reset(s);
        }
        ix_finalize(s);
        if (rc == IX_OK) rc = ix_exec(c, "commit work");
        j->rc = rc;
    } else {
        j->rc = ix_exec(c, j->sql);
    }
    if (j->rc != IX_OK && !ix_conn_is_dead(c))
        fprintf(stderr, "# the job failed by itself: %s\n", ix_errmsg(c));
    ix_close(c);
    return NULL;
}

/* Runs j and kills ixd ms milliseconds after the job has connected; 1 when
 * the kill came first (the job lost its connection). */
static int kill_during(job *j, int ms) {
    pthread_t th;
    j->connected = 0;
    pthread_create(&th, NULL, run_job, j);
    while (!__atomic_load_n(&j->connected, __ATOMIC_SEQ_CST))
        nanosleep(&(struct timespec){0, 100000}, NULL);
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL);
    ixd_stop(&P, SIGKILL);
    pthread_join(th, NULL);
    return j->rc == IX_ECONN || j->rc == IX_ETIMEOUT;
}

int main(void) {
    snprintf(P.dir, sizeof P.dir, "/tmp/ixdtskill.XXXXXX");
    if (!mkdtemp(P.dir)) return 1;
    snprintf(load, sizeof load, "%s/load", P.dir);
    mkdir(load, 0700);
    char path[400];
    snprintf(path, sizeof path, "%s/big.unl", load);
    FILE *f = fopen(path, "w");
    for (int m = 0; m < NPOINTS; m++) {
        char ts[64];
        minute_text(m, ts);
        fprintf(f, "1|%s|%d.%02d|%d|%d|\n", ts, 20 + m % 7, m % 100, m, m % 13);
    }
    fclose(f);
    if (start()) return tap_done();
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd",
             P.port);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK && ix_exec(c, "create database tsk with log") == IX_OK,
          "create database");
    ix_close(c);
    c = connect_db();
    CHECK(c &&
              ix_exec(c, "create row type reading_t (ts datetime year to fraction(5), m1 float,"
                         " m2 float, m3 float)") == IX_OK &&
              ix_exec(c, "create table meters (id int primary key, readings "
                         "timeseries(reading_t))") == IX_OK &&
              ix_exec(c, "execute procedure oni_ts_create('meters','readings',1,"
                         "'2026-01-01 00:00','1 minute')") == IX_OK,
          "schema: %s", c ? ix_errmsg(c) : "");
    ix_close(c);

    /* how long the whole load takes; then loads killed at a quarter and
     * half of that */
    job j = {"execute procedure oni_ts_write_file('meters','readings','big.unl')", 0, 0, 0};
    double t0 = now_ms();
    run_job(&j);
    int full = (int)(now_ms() - t0);
    CHECK(j.rc == IX_OK, "a whole load (%d ms)", full);
    c = connect_db();
    consistent(c, NPOINTS, "the whole load");
    CHECK(ix_exec(c, "execute procedure oni_ts_delete('meters','readings',1,null,null)") == IX_OK,
          "delete all");
    ix_close(c);
    int killed = 0;
    for (int ms = full / 4; ms <= 4 * full + 100 && !killed; ms = ms * 2 + 1) {
        killed = kill_during(&j, ms);
        printf("# load of %d ms, killed after %d ms: %s\n", full, ms,
               killed ? "mid-load" : "too late");
        if (start()) return tap_done();
        c = connect_db();
        if (!c) return tap_done();
        if (!killed) { /* the load finished first: start again from nothing */
            CHECK(ix_exec(c, "execute procedure oni_ts_delete('meters','readings',1,null,null)") ==
                      IX_OK,
                  "reset: %s", ix_errmsg(c));
        }
        if (killed)
            all_or_nothing(c, NPOINTS, "after a kill during the load");
        else
            consistent(c, 0, "after the reset");
        ix_close(c);
    }
    CHECK(killed, "ixd was killed during a load");
    c = connect_db();
    CHECK(c && ix_exec(c, "execute procedure oni_ts_write_file('meters','readings','big.unl')") ==
                   IX_OK,
          "the load again: %s", c ? ix_errmsg(c) : "");
    consistent(c, NPOINTS, "the load after the restart");
    CHECK(ix_exec(c, "execute procedure oni_ts_delete('meters','readings',1,null,null)") == IX_OK,
          "delete all");
    ix_close(c);

    /* a transaction of write_many calls killed before its COMMIT */
    job t = {NULL, 0, 400, 0};
    t0 = now_ms();
    run_job(&t);
    full = (int)(now_ms() - t0);
    CHECK(t.rc == IX_OK, "a whole transaction (%d ms)", full);
    c = connect_db();
    consistent(c, 400 * 500, "the whole transaction");
    CHECK(ix_exec(c, "execute procedure oni_ts_delete('meters','readings',1,null,null)") == IX_OK,
          "delete all");
    ix_close(c);
    killed = 0;
    for (int ms = full / 4; ms <= 4 * full + 100 && !killed; ms = ms * 2 + 1) {
        killed = kill_during(&t, ms);
        printf("# transaction of %d ms, killed after %d ms: %s\n", full, ms,
               killed ? "before COMMIT" : "too late");
        if (start()) return tap_done();
        c = connect_db();
        if (!c) return tap_done();
        if (!killed) ix_exec(c, "execute procedure oni_ts_delete('meters','readings',1,null,null)");
        all_or_nothing(c, 400 * 500, "after a kill in the transaction");
        ix_close(c);
    }
    CHECK(killed, "ixd was killed during the transaction");
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
