/* test_threads.c: 8 threads, each with its own connection to one ixd, doing
 * prepares, binds, cursor fetches (static and automatic buffers, read-ahead)
 * and pipelined batches at the same time. Each thread checks its own
 * results. Built with -DIXDB_TSAN=ON this is client.tsan: ThreadSanitizer
 * then checks that separate connections share no unsynchronized state. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define USER     "informix"
#define PASS     "in4mix"
#define NTHREADS 8
#define ROWS     2000
#define LOOPS    3

static ixd_proc P;

typedef struct job {
    int id;
    int failures;
    char why[256];
} job;

static int bind_row(ix_stmt *s, int64_t row, void *ud) {
    const job *j = ud;
    char name[40];
    snprintf(name, sizeof name, "t%d-row-%lld", j->id, (long long)row);
    ix_bind_int(s, 1, j->id);
    ix_bind_int64(s, 2, row);
    ix_bind_text(s, 3, name, -1, IX_TRANSIENT);
    ix_bind_double(s, 4, (double)row / 4);
    return 0;
}

#define FAIL(j, c, ...)                                                                            \
    do {                                                                                           \
        (j)->failures++;                                                                           \
        snprintf((j)->why, sizeof(j)->why, __VA_ARGS__);                                           \
        goto out;                                                                                  \
    } while (0)

static void *worker(void *arg) {
    job *j = arg;
    char dsn[256];
    /* With the default deferred PREPARE the INSERT is prepared inside each
     * transaction: ixd must turn that reading transaction into a writer
     * while the other threads write (restart_as_writer in ixd_engine.c). */
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS
             " server=ixd database=thr read_timeout=120",
             P.port);
    ix_conn *c = NULL;
    ix_stmt *ins = NULL, *sel = NULL;
    if (ix_connect(&c, dsn) != IX_OK) FAIL(j, c, "connect: %s", ix_errmsg(c));
    /* ixd locks the whole database while a transaction writes: wait. */
    if (ix_exec(c, "set lock mode to wait 60") != IX_OK) FAIL(j, c, "lock mode: %s", ix_errmsg(c));
    for (int loop = 0; loop < LOOPS; loop++) {
        if (ix_prepare(c, "insert into tt values (?, ?, ?, ?)", -1, &ins) != IX_OK)
            FAIL(j, c, "prepare insert: %s", ix_errmsg(c));
        if (ix_begin(c) != IX_OK) FAIL(j, c, "begin: %s", ix_errmsg(c));
        int64_t nfailed = -1;
        if (ix_batch_execute(ins, ROWS, bind_row, j, NULL, &nfailed) != IX_OK || nfailed != 0)
            FAIL(j, c, "batch: %s", ix_errmsg(c));
        if (ix_commit(c) != IX_OK) FAIL(j, c, "commit: %s", ix_errmsg(c));
        ix_finalize(ins);
        ins = NULL;

        if (ix_prepare(c, "select k, name, v from tt where th = ? order by k", -1, &sel) != IX_OK)
            FAIL(j, c, "prepare select: %s", ix_errmsg(c));
        ix_bind_int(sel, 1, j->id);
        ix_stmt_set_fetch_buffer(sel, loop == 1 ? IX_FETCH_AUTO : 512 * (loop + 1));
        ix_stmt_set_readahead(sel, loop);
        int64_t n = 0;
        int rc;
        if (loop == 2) { /* half a cursor, reset (close pipelined), reopen */
            for (int k = 0; k < ROWS / 2 && ix_step(sel) == IX_ROW; k++) {
            }
            ix_reset(sel);
        }
        while ((rc = ix_step(sel)) == IX_ROW) {
            char want[40];
            snprintf(want, sizeof want, "t%d-row-%lld", j->id, (long long)(n / (loop + 1)));
            const char *name = ix_column_text(sel, 1);
            if (ix_column_int64(sel, 0) != n / (loop + 1) || !name || strcmp(name, want) != 0 ||
                ix_column_double(sel, 2) != (double)(n / (loop + 1)) / 4)
                FAIL(j, c, "loop %d row %lld differs", loop, (long long)n);
            n++;
        }
        if (rc != IX_DONE) FAIL(j, c, "fetch: rc=%d %s", rc, ix_errmsg(c));
        if (n != (int64_t)ROWS * (loop + 1)) FAIL(j, c, "loop %d: %lld rows", loop, (long long)n);
        ix_finalize(sel);
        sel = NULL;
    }
out:
    ix_finalize(ins);
    ix_finalize(sel);
    ix_close(c);
    return NULL;
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    char dsn[256];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS " server=ixd read_timeout=60",
             P.port);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create database thr with log") == IX_OK, "create db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create table tt (th int, k int8, name varchar(40), v float)") == IX_OK,
          "create table: %s", ix_errmsg(c));
    ix_close(c);

    pthread_t t[NTHREADS];
    job jobs[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].id = i + 1;
        CHECK(pthread_create(&t[i], NULL, worker, &jobs[i]) == 0, "thread %d starts", i);
    }
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK(jobs[i].failures == 0, "thread %d: %s", i + 1, jobs[i].why);
    }
    c = NULL;
    snprintf(dsn + strlen(dsn), sizeof dsn - strlen(dsn), " database=thr");
    rc = ix_connect(&c, dsn);
    ix_stmt *s = NULL;
    if (rc == IX_OK && ix_prepare(c, "select count(*) from tt", -1, &s) == IX_OK &&
        ix_step(s) == IX_ROW)
        CHECK(ix_column_int64(s, 0) == (int64_t)NTHREADS * ROWS * LOOPS, "all rows: %lld",
              (long long)ix_column_int64(s, 0));
    else
        CHECK(0, "count: %s", ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
