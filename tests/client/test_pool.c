/* test_pool.c: ix_pool against a real ixd: min/max size, acquire timeout,
 * the health check (only after idling; a broken connection replaced), max
 * lifetime, the session reset on release (transaction rolled back,
 * autocommit, isolation and lock mode restored), and 8 threads sharing a
 * pool of 3. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define NTHREADS 8
#define LOOPS    25
#define POOL_MAX 3

static ixd_proc P;
static char dsn[300];
static int sets; /* SET statements traced */

static void trace(void *ud, const char *line) {
    (void)ud;
    if (strstr(line, "C->S") && strstr(line, "sql=\"SET ")) sets++;
}

static void sleep_ms(int ms) {
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000}, NULL);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int64_t count_rows(ix_conn *c, const char *where) {
    char sql[200];
    snprintf(sql, sizeof sql, "select count(*) from t %s", where);
    ix_stmt *s = NULL;
    int64_t n = -1;
    if (ix_prepare(c, sql, IX_NTS, &s) == IX_OK && ix_step(s) == IX_ROW) n = ix_column_int64(s, 0);
    ix_finalize(s);
    return n;
}

static ix_pool_stats stats(ix_pool *p) {
    ix_pool_stats st;
    memset(&st, 0, sizeof st);
    ix_pool_get_stats(p, &st);
    return st;
}

static void check_sizes_and_timeout(void) {
    ix_pool_config cfg;
    ix_pool_config_init(&cfg);
    ix_pool *p = NULL;
    CHECK(ix_pool_create(&p, &cfg) == IX_EMISUSE, "no dsn");
    cfg.dsn = dsn;
    cfg.min_size = 3;
    cfg.max_size = 2;
    CHECK(ix_pool_create(&p, &cfg) == IX_EINVAL && !p, "min > max");
    cfg.min_size = 2;
    cfg.max_size = 3;
    cfg.acquire_timeout_ms = 150;
    CHECK(ix_pool_create(&p, &cfg) == IX_OK, "create");
    ix_pool_stats st = stats(p);
    CHECK(st.open == 2 && st.idle == 2 && st.created == 2, "min_size opened: %d %d", st.open,
          st.idle);
    ix_conn *c[4] = {0};
    for (int i = 0; i < 3; i++)
        CHECK(ix_pool_acquire(p, &c[i]) == IX_OK && c[i], "acquire %d", i);
    st = stats(p);
    CHECK(st.open == 3 && st.idle == 0, "max reached: %d %d", st.open, st.idle);
    double t0 = now_s();
    int rc = ix_pool_acquire(p, &c[3]);
    double dt = now_s() - t0;
    CHECK(rc == IX_ETIMEOUT && !c[3], "fourth times out: rc=%d", rc);
    CHECK(dt >= 0.14 && dt < 2, "after the timeout: %.3f s", dt);
    char msg[200];
    ix_pool_errmsg(p, msg, sizeof msg);
    CHECK(strstr(msg, "within 150 ms") != NULL, "timeout message: %s", msg);
    CHECK(ix_pool_release(p, c[1]) == IX_OK, "release");
    CHECK(ix_pool_release(p, c[1]) == IX_EMISUSE, "second release of the same");
    CHECK(ix_pool_acquire(p, &c[3]) == IX_OK && c[3] == c[1], "the released one comes back");
    for (int i = 0; i < 4; i++)
        if (i != 1) ix_pool_release(p, c[i]);
    CHECK(stats(p).idle == 3, "all idle");
    ix_pool_destroy(p);
    /* a connect error is reported with its text */
    cfg.dsn = "host=127.0.0.1 port=1 user=informix password=in4mix server=ixd";
    cfg.min_size = 0;
    CHECK(ix_pool_create(&p, &cfg) == IX_OK, "create lazy");
    CHECK(ix_pool_acquire(p, &c[0]) == IX_ECONN, "connect refused");
    ix_pool_errmsg(p, msg, sizeof msg);
    CHECK(msg[0] != 0, "connect message: %s", msg);
    CHECK(stats(p).open == 0, "nothing open after a failed connect");
    ix_pool_destroy(p);
}

static void check_reset(void) {
    ix_pool_config cfg;
    ix_pool_config_init(&cfg);
    cfg.dsn = dsn;
    cfg.max_size = 1;
    ix_pool *p = NULL;
    CHECK(ix_pool_create(&p, &cfg) == IX_OK, "create");
    ix_conn *c = NULL;
    CHECK(ix_pool_acquire(p, &c) == IX_OK, "acquire");
    ix_set_trace(c, trace, NULL);
    int64_t before = count_rows(c, "");
    /* an open transaction, a changed isolation and lock mode */
    CHECK(ix_begin(c) == IX_OK, "begin: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "insert into t values (-1, 'left open')") == IX_OK, "insert");
    CHECK(ix_set_isolation(c, IX_ISO_DIRTY_READ) == IX_OK, "dirty read");
    CHECK(ix_exec(c, "set lock mode to wait 5") == IX_OK, "lock mode");
    sets = 0;
    CHECK(ix_pool_release(p, c) == IX_OK, "release");
    CHECK(sets == 2, "isolation and lock mode restored: %d SETs", sets);
    ix_conn *c2 = NULL;
    CHECK(ix_pool_acquire(p, &c2) == IX_OK && c2 == c, "same connection back");
    CHECK(ix_autocommit(c2) == 1, "no transaction open");
    CHECK(count_rows(c2, "") == before, "the open transaction was rolled back");
    sets = 0;
    CHECK(ix_pool_release(p, c2) == IX_OK, "release unchanged");
    CHECK(sets == 0, "nothing to restore: %d SETs", sets);
    /* autocommit off is turned back on, its transaction rolled back */
    CHECK(ix_pool_acquire(p, &c) == IX_OK, "acquire");
    CHECK(ix_set_autocommit(c, 0) == IX_OK, "autocommit off: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "insert into t values (-2, 'manual')") == IX_OK, "insert");
    ix_pool_release(p, c);
    CHECK(ix_pool_acquire(p, &c) == IX_OK && ix_autocommit(c) == 1, "autocommit on again");
    CHECK(count_rows(c, "") == before, "manual transaction rolled back");
    /* a statement left open: the connection is closed, not kept */
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select * from t", IX_NTS, &s) == IX_OK && ix_step(s) == IX_ROW, "stmt");
    int64_t discarded = stats(p).discarded;
    ix_pool_release(p, c);
    CHECK(stats(p).discarded == discarded + 1 && stats(p).open == 0,
          "closed with a statement open");
    ix_finalize(s); /* still safe: the statement is detached */
    ix_pool_destroy(p);
}

static void check_health_and_lifetime(void) {
    ix_pool_config cfg;
    ix_pool_config_init(&cfg);
    cfg.dsn = dsn;
    cfg.min_size = 2;
    cfg.max_size = 2;
    cfg.idle_check_ms = 250;
    ix_pool *p = NULL;
    CHECK(ix_pool_create(&p, &cfg) == IX_OK, "create");
    ix_conn *c = NULL;
    CHECK(ix_pool_acquire(p, &c) == IX_OK, "acquire fresh");
    ix_pool_release(p, c);
    CHECK(ix_pool_acquire(p, &c) == IX_OK, "acquire again at once");
    CHECK(stats(p).checks == 0, "no check before idle_check_ms: %lld", (long long)stats(p).checks);
    ix_pool_release(p, c);
    sleep_ms(350);
    CHECK(ix_pool_acquire(p, &c) == IX_OK && count_rows(c, "") >= 0, "acquire after idling");
    CHECK(stats(p).checks == 1, "one check after idling: %lld", (long long)stats(p).checks);
    ix_pool_release(p, c);
    /* the server restarts: the idle connections are broken */
    ixd_stop(&P, SIGKILL);
    char listen[40];
    snprintf(listen, sizeof listen, "127.0.0.1:%d", P.port);
    const char *extra[] = {"--listen", listen, NULL};
    CHECK(ixd_start_args(&P, P.dir, extra) == 0, "ixd restarts on port %d", P.port);
    sleep_ms(350);
    int64_t created = stats(p).created;
    CHECK(ix_pool_acquire(p, &c) == IX_OK, "acquire after the restart");
    CHECK(count_rows(c, "") >= 0, "the connection handed out works: %s", ix_errmsg(c));
    ix_pool_stats st = stats(p);
    CHECK(st.discarded == 2 && st.created == created + 1, "broken ones replaced: %lld %lld",
          (long long)st.discarded, (long long)st.created);
    ix_pool_release(p, c);
    ix_pool_destroy(p);
    /* max lifetime */
    cfg.min_size = 0;
    cfg.max_lifetime_ms = 300;
    cfg.idle_check_ms = -1;
    CHECK(ix_pool_create(&p, &cfg) == IX_OK, "create with a lifetime");
    ix_conn *first = NULL;
    CHECK(ix_pool_acquire(p, &first) == IX_OK, "acquire");
    ix_pool_release(p, first);
    CHECK(ix_pool_acquire(p, &c) == IX_OK && stats(p).created == 1, "reused while young");
    sleep_ms(350);
    ix_pool_release(p, c);
    CHECK(stats(p).open == 0 && stats(p).discarded == 1, "closed when released old");
    CHECK(ix_pool_acquire(p, &c) == IX_OK && stats(p).created == 2, "a new one");
    ix_pool_release(p, c);
    sleep_ms(350);
    CHECK(ix_pool_acquire(p, &c) == IX_OK && stats(p).created == 3, "an idle old one replaced");
    ix_pool_release(p, c);
    ix_pool_destroy(p);
}

/* max_idle_ms: members idle that long are closed down to min_size. */
static void check_max_idle(void) {
    ix_pool_config cfg;
    ix_pool_config_init(&cfg);
    cfg.dsn = dsn;
    cfg.min_size = 1;
    cfg.max_size = 3;
    cfg.max_idle_ms = 200;
    cfg.idle_check_ms = -1;
    ix_pool *p = NULL;
    CHECK(ix_pool_create(&p, &cfg) == IX_OK, "create with max_idle_ms");
    ix_conn *c[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++)
        CHECK(ix_pool_acquire(p, &c[i]) == IX_OK, "acquire %d", i);
    for (int i = 0; i < 3; i++)
        ix_pool_release(p, c[i]);
    CHECK(stats(p).idle == 3, "three idle");
    CHECK(ix_pool_acquire(p, &c[0]) == IX_OK && stats(p).discarded == 0, "young ones kept");
    ix_pool_release(p, c[0]);
    sleep_ms(300);
    CHECK(ix_pool_acquire(p, &c[0]) == IX_OK, "acquire after idling");
    ix_pool_stats st = stats(p);
    CHECK(st.discarded == 2 && st.open == 1, "idle ones closed down to min_size: %lld, %d open",
          (long long)st.discarded, st.open);
    ix_pool_release(p, c[0]);
    ix_pool_destroy(p);
    cfg.max_idle_ms = -1;
    CHECK(ix_pool_create(&p, &cfg) == IX_EINVAL, "negative max_idle_ms");
}

typedef struct job {
    ix_pool *pool;
    int id, failures;
    int64_t committed;
    char why[256];
} job;

static atomic_int out_now, out_max;

static void *worker(void *arg) {
    job *j = arg;
    for (int i = 0; i < LOOPS; i++) {
        ix_conn *c = NULL;
        if (ix_pool_acquire(j->pool, &c) != IX_OK) {
            j->failures++;
            ix_pool_errmsg(j->pool, j->why, sizeof j->why);
            continue;
        }
        int n = atomic_fetch_add(&out_now, 1) + 1;
        for (int m = atomic_load(&out_max);
             n > m && !atomic_compare_exchange_weak(&out_max, &m, n);)
            ;
        char sql[120];
        snprintf(sql, sizeof sql, "insert into t values (%d, 'thread')", 1000 * j->id + i);
        int ok = ix_begin(c) == IX_OK && ix_exec(c, sql) == IX_OK;
        if (i % 3 == 0) ok = ok && ix_set_isolation(c, IX_ISO_DIRTY_READ) == IX_OK;
        /* every other transaction is left open: the release rolls it back */
        if (ok && i % 2 == 0) {
            ok = ix_commit(c) == IX_OK;
            if (ok) j->committed++;
        }
        if (!ok) {
            j->failures++;
            snprintf(j->why, sizeof j->why, "loop %d: %s", i, ix_errmsg(c));
        }
        atomic_fetch_sub(&out_now, 1);
        ix_pool_release(j->pool, c);
    }
    return NULL;
}

static void check_threads(void) {
    ix_pool_config cfg;
    ix_pool_config_init(&cfg);
    cfg.dsn = dsn;
    cfg.max_size = POOL_MAX;
    cfg.idle_check_ms = 0; /* a round trip on every checkout */
    cfg.lock_wait = 30;    /* ixd locks the database while one transaction writes */
    ix_pool *p = NULL;
    CHECK(ix_pool_create(&p, &cfg) == IX_OK, "create");
    ix_conn *c = NULL;
    CHECK(ix_pool_acquire(p, &c) == IX_OK, "acquire");
    int64_t before = count_rows(c, "where k >= 1000");
    ix_pool_release(p, c);
    pthread_t t[NTHREADS];
    job jobs[NTHREADS];
    int64_t committed = 0;
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (job){.pool = p, .id = i + 1};
        CHECK(pthread_create(&t[i], NULL, worker, &jobs[i]) == 0, "thread %d", i);
    }
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK(jobs[i].failures == 0, "thread %d: %d failures: %s", i + 1, jobs[i].failures,
              jobs[i].why);
        committed += jobs[i].committed;
    }
    CHECK(atomic_load(&out_max) <= POOL_MAX, "at most %d out at once: %d", POOL_MAX,
          atomic_load(&out_max));
    ix_pool_stats st = stats(p);
    CHECK(st.open <= POOL_MAX && st.created <= POOL_MAX, "open %d created %lld", st.open,
          (long long)st.created);
    /* every checkout but those of a new connection */
    CHECK(st.checks == NTHREADS * LOOPS + 1 - st.created, "a check on every checkout: %lld",
          (long long)st.checks);
    CHECK(ix_pool_acquire(p, &c) == IX_OK, "acquire");
    CHECK(count_rows(c, "where k >= 1000") == before + committed,
          "only committed rows remain: %lld of %lld", (long long)count_rows(c, "where k >= 1000"),
          (long long)(before + committed));
    ix_pool_release(p, c);
    ix_pool_destroy(p);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    ixd_dsn(&P, 60, dsn, sizeof dsn);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create database pl with log") == IX_OK, "db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create table t (k int, name varchar(20))") == IX_OK, "table");
    CHECK(ix_exec(c, "insert into t values (1, 'one')") == IX_OK, "insert");
    ix_close(c);
    snprintf(dsn + strlen(dsn), sizeof dsn - strlen(dsn), " database=pl");
    check_sizes_and_timeout();
    check_reset();
    check_health_and_lifetime();
    check_max_idle();
    check_threads();
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
