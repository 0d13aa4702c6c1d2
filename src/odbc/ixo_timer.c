/*
 * ixo_timer.c: SQL_ATTR_QUERY_TIMEOUT. A call that runs a statement whose
 * query timeout is not 0 (SQLExecDirect, SQLExecute, the fetches, the
 * catalogue functions) is armed with a deadline; when it has not ended by
 * then, the connection's watchdog thread interrupts it with ix_cancel (as
 * SQLCancel from another thread does) and the call ends with HYT00.
 *
 * One watchdog per connection, started on the first armed call and joined
 * at SQLDisconnect. It sleeps on a condition variable until the deadline it
 * knows; arming takes the mutex and signals only when the thread sleeps
 * without a deadline or past the new one, so that a run of calls costs a
 * lock and an unlock each (and a clock read, a vDSO call) with no system
 * call: the thread wakes at a deadline already moved, sees the new one and
 * sleeps again. Disarming takes the mutex only.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "ixo_int.h"

#define IXO_WATCH_THREAD_NAME "ixodbc-watch" /* at most 15 characters */

#define NS_PER_S 1000000000LL
/* the longest query timeout taken, in seconds (the application's value is
 * cut here so that the deadline in nanoseconds cannot overflow): 68 years */
#define TIMEOUT_MAX_S ((SQLULEN)INT32_MAX)

struct ixo_watch {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* on CLOCK_MONOTONIC */
    pthread_t thread;
    int stop;
    ix_conn *conn;   /* the armed call's connection */
    int armed;       /* a call runs with a deadline */
    int fired;       /* the watchdog cancelled the armed call */
    int64_t due;     /* the armed call's deadline, ns of CLOCK_MONOTONIC */
    int64_t wake_at; /* when the sleeping watchdog wakes by itself; 0: only when signalled */
};

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* The watchdog: interrupts the armed call once its deadline has passed,
 * sleeps otherwise (until that deadline, or until signalled). */
static void *watch_main(void *arg) {
    ixo_watch *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        int64_t now = now_ns();
        if (w->armed && !w->fired && now >= w->due) {
            w->fired = 1;
            ix_cancel(w->conn); /* async-signal-safe; the call holds conn open */
        }
        if (!w->armed || w->fired) {
            w->wake_at = 0;
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        w->wake_at = w->due;
        struct timespec ts = {(time_t)(w->due / NS_PER_S), (long)(w->due % NS_PER_S)};
        pthread_cond_timedwait(&w->cv, &w->mu, &ts);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* d's watchdog, started; NULL when it cannot start */
static ixo_watch *watch_start(ixo_dbc *d) {
    ixo_watch *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    pthread_condattr_t ca;
    int ok = pthread_condattr_init(&ca) == 0;
    ok = ok && pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0;
    ok = ok && pthread_cond_init(&w->cv, &ca) == 0;
    pthread_condattr_destroy(&ca);
    if (ok && pthread_mutex_init(&w->mu, NULL) != 0) {
        pthread_cond_destroy(&w->cv);
        ok = 0;
    }
    if (ok && pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        ok = 0;
    }
    if (!ok) {
        free(w);
        return NULL;
    }
    pthread_setname_np(w->thread, IXO_WATCH_THREAD_NAME); /* for ps, gdb and odbc.timeout */
    d->watch = w;
    return w;
}

void ixo_timer_stop(ixo_dbc *d) {
    ixo_watch *w = d->watch;
    if (!w) return;
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
    d->watch = NULL;
}

SQLRETURN ixo_timer_arm(ixo_stmt *s) {
    ixo_dbc *d = s->dbc;
    if (!s->query_timeout || !d->conn) return SQL_SUCCESS;
    ixo_watch *w = d->watch ? d->watch : watch_start(d);
    if (!w) return ixo_err(&s->h, "HY000", 0, "Cannot start the query timeout's thread");
    SQLULEN secs = s->query_timeout < TIMEOUT_MAX_S ? s->query_timeout : TIMEOUT_MAX_S;
    int64_t due = now_ns() + (int64_t)secs * NS_PER_S;
    pthread_mutex_lock(&w->mu);
    w->conn = d->conn;
    w->armed = 1;
    w->fired = 0;
    w->due = due;
    if (w->wake_at == 0 || w->wake_at > due) pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    s->timer_armed = 1;
    return SQL_SUCCESS;
}

SQLRETURN ixo_timer_disarm(ixo_stmt *s, SQLRETURN rc) {
    ixo_watch *w = s->dbc->watch;
    s->timer_armed = 0;
    if (!w) return rc;
    pthread_mutex_lock(&w->mu);
    int fired = w->fired;
    w->armed = 0;
    w->fired = 0;
    w->conn = NULL;
    pthread_mutex_unlock(&w->mu);
    /* a call that ended well before the interrupt reached the server keeps
     * its outcome */
    if (fired && rc == SQL_ERROR) ixo_diag_timeout(&s->h);
    return rc;
}
