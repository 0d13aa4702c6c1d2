/* test_cancel.c: interrupting a running statement (ix_cancel, the urgent
 * byte of proto/ix_interrupt.h) against a real ixd: from another thread,
 * from a signal handler, during a lock wait; the interrupted call gets -213
 * within a second and the connection stays usable; an interrupt that
 * arrives while the session is idle touches nothing; SIGTERM stops a
 * running statement and ixd exits within a second, rolling back. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P;
static char dsn[300];

/* A query that runs for minutes: 2000^3 rows to count. */
static const char *const LONG_SQL = "select count(*) from n a, n b, n c";

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int bind_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    return ix_bind_int64(s, 1, row);
}

static ix_conn *connect_db(void) {
    char d[400];
    snprintf(d, sizeof d, "%s database=cdb", dsn);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, d);
    CHECK(rc == IX_OK, "connect: %s", ix_errmsg(c));
    return c;
}

static int setup(void) {
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return -1;
    }
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd read_timeout=60",
             P.port);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect");
    CHECK(ix_exec(c, "create database cdb with log") == IX_OK, "create db: %s", ix_errmsg(c));
    ix_close(c);
    c = connect_db();
    CHECK(ix_exec(c, "create table n (i integer)") == IX_OK, "create table");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into n values (?)", -1, &s) == IX_OK, "prepare insert");
    int64_t nf = 0;
    CHECK(ix_batch_execute(s, 2000, bind_row, NULL, NULL, &nf) == IX_OK, "2000 rows");
    ix_finalize(s);
    CHECK(ix_exec(c, "create table acct (id integer, v integer)") == IX_OK, "create acct");
    CHECK(ix_exec(c, "insert into acct values (1, 10)") == IX_OK, "insert acct");
    ix_close(c);
    return 0;
}

/* Runs sql to its first row; returns the step result and the time taken. */
static int run(ix_conn *c, const char *sql, double *secs) {
    ix_stmt *s = NULL;
    double t0 = now_s();
    int rc = ix_prepare(c, sql, -1, &s);
    if (rc == IX_OK) rc = ix_step(s);
    *secs = now_s() - t0;
    ix_finalize(s);
    return rc;
}

static void still_usable(ix_conn *c, const char *what) {
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, "select count(*) from n", -1, &s);
    if (rc == IX_OK) rc = ix_step(s);
    CHECK(rc == IX_ROW && ix_column_int64(s, 0) == 2000, "%s: the connection works after: %s", what,
          ix_errmsg(c));
    ix_finalize(s);
    CHECK(!ix_conn_is_dead(c), "%s: not dead", what);
}

typedef struct canceller {
    ix_conn *c;
    int delay_ms;
    int rc;
} canceller;

static void *cancel_later(void *arg) {
    canceller *k = arg;
    sleep_ms(k->delay_ms);
    k->rc = ix_cancel(k->c);
    return NULL;
}

static void test_from_thread(void) {
    ix_conn *c = connect_db();
    canceller k = {c, 300, -99};
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, &k);
    double t;
    int rc = run(c, LONG_SQL, &t);
    pthread_join(th, NULL);
    CHECK(k.rc == IX_OK, "ix_cancel from a thread: %d", k.rc);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == IX_SQLCODE_INTERRUPTED,
          "interrupted: rc %d sqlcode %d (%s)", rc, ix_sqlcode(c), ix_errmsg(c));
    CHECK(t < 1.3, "the statement stopped within a second of the interrupt (%.2f s)", t);
    CHECK(strstr(ix_errmsg(c), "interrupted by user") != NULL, "message: %s", ix_errmsg(c));
    still_usable(c, "thread");
    ix_close(c);
}

static ix_conn *sig_conn;
static void on_alarm(int sig) {
    (void)sig;
    ix_cancel(sig_conn); /* async-signal-safe */
}

static void test_from_signal(void) {
    ix_conn *c = connect_db();
    sig_conn = c;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {0, 300000}};
    setitimer(ITIMER_REAL, &it, NULL);
    double t;
    int rc = run(c, LONG_SQL, &t);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == IX_SQLCODE_INTERRUPTED,
          "interrupted from a signal handler: rc %d sqlcode %d", rc, ix_sqlcode(c));
    CHECK(t < 1.3, "within a second (%.2f s)", t);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    signal(SIGALRM, SIG_DFL);
    still_usable(c, "signal");
    ix_close(c);
}

/* An interrupt while nothing runs is dropped by ix_cancel; one that reaches
 * the server while its session is idle (sent below the library) must not
 * stop the next statement. */
static void test_idle(void) {
    ix_conn *c = connect_db();
    CHECK(ix_cancel(c) == IX_OK, "ix_cancel on an idle connection");
    CHECK(ixc_send_interrupt(c->tr->fd) == 0, "a raw interrupt to an idle session");
    sleep_ms(100);
    double t;
    int rc = run(c, "select count(*) from n a, n b where a.i < 300", &t);
    CHECK(rc == IX_ROW, "a stale interrupt does not stop the next statement: %d %s (%.2f s)", rc,
          ix_errmsg(c), t);
    still_usable(c, "idle");
    ix_close(c);
}

/* A lock wait (SET LOCK MODE TO WAIT) ends at the interrupt. */
static void test_lock_wait(void) {
    ix_conn *a = connect_db(), *b = connect_db();
    CHECK(ix_begin(a) == IX_OK && ix_exec(a, "update acct set v = 11 where id = 1") == IX_OK,
          "a holds the lock");
    CHECK(ix_exec(b, "set lock mode to wait 30") == IX_OK, "b waits up to 30 s");
    canceller k = {b, 300, -99};
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, &k);
    double t0 = now_s();
    int rc = ix_exec(b, "update acct set v = 12 where id = 1");
    double t = now_s() - t0;
    pthread_join(th, NULL);
    CHECK(rc == IX_ESQL && ix_sqlcode(b) == IX_SQLCODE_INTERRUPTED,
          "the lock wait is interrupted: rc %d sqlcode %d (%s)", rc, ix_sqlcode(b), ix_errmsg(b));
    CHECK(t < 1.3, "within a second (%.2f s)", t);
    CHECK(ix_rollback(a) == IX_OK, "a rolls back");
    CHECK(ix_exec(b, "update acct set v = 12 where id = 1") == IX_OK, "b can update now");
    ix_close(a);
    ix_close(b);
}

/* SIGTERM while a statement runs inside a transaction: ixd exits within a
 * second and the transaction's work is rolled back. */
static void test_sigterm(void) {
    ix_conn *c = connect_db();
    CHECK(ix_begin(c) == IX_OK && ix_exec(c, "insert into acct values (2, 20)") == IX_OK,
          "an uncommitted insert");
    pid_t pid = P.pid;
    pid_t killer = fork();
    if (killer == 0) {
        sleep_ms(400);
        kill(pid, SIGTERM);
        _exit(0);
    }
    double t;
    int rc = run(c, LONG_SQL, &t);
    double t0 = now_s();
    int st = 0, gone = 0;
    while (now_s() - t0 < 5) {
        if (waitpid(pid, &st, WNOHANG) == pid) {
            gone = 1;
            break;
        }
        sleep_ms(10);
    }
    waitpid(killer, NULL, 0);
    CHECK(rc != IX_ROW, "the statement did not finish: %d", rc);
    CHECK(gone && t < 1.5, "ixd exited within a second of SIGTERM (statement ended after %.2f s)",
          t);
    CHECK(gone && WIFEXITED(st) && WEXITSTATUS(st) == 0, "clean exit");
    ix_close(c);
    if (ixd_start(&P, P.dir, NULL) != 0) {
        CHECK(0, "ixd restarts");
        return;
    }
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd read_timeout=60",
             P.port);
    c = connect_db();
    ix_stmt *s = NULL;
    rc = ix_prepare(c, "select count(*) from acct", -1, &s);
    if (rc == IX_OK) rc = ix_step(s);
    CHECK(rc == IX_ROW && ix_column_int64(s, 0) == 1, "the open transaction was rolled back");
    ix_finalize(s);
    ix_close(c);
}

int main(void) {
    if (setup() != 0) return tap_done();
    test_from_thread();
    test_from_signal();
    test_idle();
    test_lock_wait();
    test_sigterm();
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
