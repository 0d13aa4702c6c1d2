/*
 * ix_pool.c: a thread-safe connection pool (include/ixdb.h, "connection
 * pool").
 *
 * One mutex guards the pool's table of members; connecting, the health
 * check, the reset of a returned connection and closing all run outside
 * it, so a slow server never holds other threads up. A thread that finds
 * no idle member and the pool at max_size waits on a condition variable
 * (signalled by every release and every failed connect) up to the acquire
 * timeout. Idle members are handed out most recently used first, so that
 * under light load the same few stay warm and the others age out.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ix_client_int.h"
#include "ix_conn_int.h"

typedef struct pool_member {
    ix_conn *conn;
    int64_t born_us;  /* when it was connected */
    int64_t since_us; /* when it was last released (idle) */
    int idle;         /* 1: in the pool, 0: checked out */
    uint64_t seq;     /* release order (most recent first out) */
} pool_member;

struct ix_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    ix_pool_config cfg;
    char *dsn;
    pool_member *m; /* cfg.max_size slots; conn NULL: free slot */
    int opening;    /* connects under way (slots reserved) */
    uint64_t seq;
    ix_pool_stats st;
    char err[512];
};

void ix_pool_config_init(ix_pool_config *cfg) {
    if (!cfg) return;
    memset(cfg, 0, sizeof *cfg);
    cfg->max_size = 10;
    cfg->acquire_timeout_ms = 30000;
    cfg->idle_check_ms = 30000;
    cfg->max_lifetime_ms = 0;
    cfg->isolation = IX_ISO_COMMITTED_READ;
    cfg->lock_wait = 0;
}

/* A cheap round trip: RELEASE of a statement id the connection does not use
 * (docs/protocol.md: answered with a bare EOT whatever the id). IX_OK when
 * the server answered. */
static int pool_ping(ix_conn *c) {
    int rc = ixc_check(c);
    if (rc == IX_OK) rc = ixc_drain(c);
    if (rc != IX_OK) return rc;
    int id = INT16_MAX;
    while (id > 0 && ixc_stmt_id_in_use(c, id))
        id--;
    size_t mark = ixc_mark(c);
    ixp_enc_id(&c->st.out, id);
    ixp_enc_tag(&c->st.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    ixc_reply r;
    memset(&r, 0, sizeof r);
    rc = ixc_flush(c);
    if (rc == IX_OK) rc = ixc_read_reply(c, &r);
    ixc_reply_free(&r);
    return rc;
}

/* Brings a returned connection back to the state of a fresh one: an open
 * transaction rolled back, autocommit on, isolation and lock mode restored
 * when a SET changed them. 0, or -1 when it cannot be reused. */
static int pool_reset(const ix_pool *p, ix_conn *c) {
    if (c->st.dead) return -1;
    if (!ixc_stmts_all_cached(c)) return -1; /* a statement still open: its state would leak */
    if (ixc_drain(c) != IX_OK) return -1;
    if (c->in_txn && ix_rollback(c) != IX_OK) return -1;
    if (c->manual_commit && ix_set_autocommit(c, 1) != IX_OK) return -1;
    if (c->session_set) {
        if (ix_set_isolation(c, p->cfg.isolation) != IX_OK) return -1;
        if (ix_set_lock_wait(c, p->cfg.lock_wait) != IX_OK) return -1;
        c->session_set = 0;
    }
    ixc_clear_err(c);
    return 0;
}

static pool_member *member_of(ix_pool *p, const ix_conn *c) {
    for (int i = 0; i < p->cfg.max_size; i++)
        if (p->m[i].conn == c) return &p->m[i];
    return NULL;
}

/* Opens a connection for a reserved slot (p->opening counted, mutex not
 * held). Returns IX_OK with *out, or the connect error (kept in p->err). */
static int pool_connect(ix_pool *p, ix_conn **out, int idle) {
    ix_conn *c = NULL;
    int rc = ix_connect(&c, p->dsn);
    /* the pool's session defaults, where they are not Informix's */
    if (rc == IX_OK && p->cfg.isolation != IX_ISO_COMMITTED_READ)
        rc = ix_set_isolation(c, p->cfg.isolation);
    if (rc == IX_OK && p->cfg.lock_wait != 0) rc = ix_set_lock_wait(c, p->cfg.lock_wait);
    if (rc == IX_OK) c->session_set = 0;
    pthread_mutex_lock(&p->mu);
    p->opening--;
    if (rc != IX_OK) {
        snprintf(p->err, sizeof p->err, "%s", c ? ix_errmsg(c) : "out of memory");
        pthread_cond_signal(&p->cv);
    } else {
        pool_member *m = member_of(p, NULL);
        *m = (pool_member){c, ixc_now_us(), ixc_now_us(), idle, ++p->seq};
        p->st.created++;
        if (idle) pthread_cond_signal(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    if (rc != IX_OK) ix_close(c);
    if (rc == IX_OK && out) *out = c;
    return rc;
}

int ix_pool_create(ix_pool **out, const ix_pool_config *cfg) {
    if (!out) return IX_EMISUSE;
    *out = NULL;
    if (!cfg || !cfg->dsn) return IX_EMISUSE;
    if (cfg->max_size < 1 || cfg->min_size < 0 || cfg->min_size > cfg->max_size ||
        cfg->isolation < IX_ISO_DIRTY_READ || cfg->isolation > IX_ISO_REPEATABLE_READ ||
        cfg->lock_wait < -1 || cfg->max_idle_ms < 0)
        return IX_EINVAL;
    ix_pool *p = ixc_calloc(1, sizeof *p);
    if (!p) return IX_ENOMEM;
    p->cfg = *cfg;
    p->dsn = ixc_strdup(cfg->dsn);
    p->m = ixc_calloc((size_t)cfg->max_size, sizeof *p->m);
    if (!p->dsn || !p->m || pthread_mutex_init(&p->mu, NULL) != 0) {
        ixc_free(p->dsn);
        ixc_free(p->m);
        ixc_free(p);
        return IX_ENOMEM;
    }
    pthread_cond_init(&p->cv, NULL);
    p->cfg.dsn = p->dsn;
    for (int i = 0; i < cfg->min_size; i++) {
        p->opening++;
        int rc = pool_connect(p, NULL, 1);
        if (rc != IX_OK) {
            ix_pool_destroy(p);
            return rc;
        }
    }
    *out = p;
    return IX_OK;
}

/* The idle member released last, or NULL. */
static pool_member *newest_idle(ix_pool *p) {
    pool_member *best = NULL;
    for (int i = 0; i < p->cfg.max_size; i++) {
        pool_member *m = &p->m[i];
        if (m->conn && m->idle && (!best || m->seq > best->seq)) best = m;
    }
    return best;
}

static int open_count(const ix_pool *p) {
    int n = p->opening;
    for (int i = 0; i < p->cfg.max_size; i++)
        n += p->m[i].conn != NULL;
    return n;
}

/* Drops member m (mutex held); its connection is returned to be closed. */
static ix_conn *drop(ix_pool *p, pool_member *m) {
    ix_conn *c = m->conn;
    memset(m, 0, sizeof *m);
    p->st.discarded++;
    pthread_cond_signal(&p->cv);
    return c;
}

static int expired(const ix_pool *p, const pool_member *m, int64_t now) {
    return p->cfg.max_lifetime_ms > 0 && now - m->born_us >= (int64_t)p->cfg.max_lifetime_ms * 1000;
}

/* An idle member idle longer than max_idle_ms while more than min_size are
 * open (mutex held), or NULL. */
static pool_member *too_idle(ix_pool *p, int64_t now) {
    if (p->cfg.max_idle_ms <= 0 || open_count(p) <= p->cfg.min_size) return NULL;
    for (int i = 0; i < p->cfg.max_size; i++) {
        pool_member *m = &p->m[i];
        if (m->conn && m->idle && now - m->since_us >= (int64_t)p->cfg.max_idle_ms * 1000) return m;
    }
    return NULL;
}

/* Waits for a release until the deadline (absolute CLOCK_REALTIME). 0, or
 * -1 when the acquire timeout has passed. */
static int wait_turn(ix_pool *p, const struct timespec *deadline) {
    if (p->cfg.acquire_timeout_ms < 0) return pthread_cond_wait(&p->cv, &p->mu) == 0 ? 0 : -1;
    int e = pthread_cond_timedwait(&p->cv, &p->mu, deadline);
    return e == ETIMEDOUT ? -1 : 0;
}

/* The health check of an idle member taken out (mutex not held): a round
 * trip when it was idle longer than idle_check_ms. 0 healthy, -1 not. */
static int check_out(ix_pool *p, ix_conn *c, int64_t idle_us) {
    if (c->st.dead) return -1;
    if (p->cfg.idle_check_ms < 0 || idle_us < (int64_t)p->cfg.idle_check_ms * 1000) return 0;
    pthread_mutex_lock(&p->mu);
    p->st.checks++;
    pthread_mutex_unlock(&p->mu);
    return pool_ping(c) == IX_OK ? 0 : -1;
}

int ix_pool_acquire(ix_pool *p, ix_conn **out) {
    if (!out) return IX_EMISUSE;
    *out = NULL;
    if (!p) return IX_EMISUSE;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    int64_t ns = deadline.tv_nsec + (int64_t)(p->cfg.acquire_timeout_ms % 1000) * 1000000;
    deadline.tv_sec += p->cfg.acquire_timeout_ms / 1000 + ns / 1000000000;
    deadline.tv_nsec = (long)(ns % 1000000000);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        int64_t now = ixc_now_us();
        pool_member *m = too_idle(p, now);
        if (m || ((m = newest_idle(p)) && expired(p, m, now))) {
            ix_conn *old = drop(p, m);
            pthread_mutex_unlock(&p->mu);
            ix_close(old);
            pthread_mutex_lock(&p->mu);
            continue;
        }
        if (m) {
            m->idle = 0;
            ix_conn *c = m->conn;
            int64_t idle_us = now - m->since_us;
            pthread_mutex_unlock(&p->mu);
            if (check_out(p, c, idle_us) == 0) {
                *out = c;
                return IX_OK;
            }
            pthread_mutex_lock(&p->mu);
            ix_conn *bad = drop(p, member_of(p, c));
            pthread_mutex_unlock(&p->mu);
            ix_close(bad);
            pthread_mutex_lock(&p->mu);
            continue;
        }
        if (open_count(p) < p->cfg.max_size) {
            p->opening++;
            pthread_mutex_unlock(&p->mu);
            return pool_connect(p, out, 0);
        }
        p->st.waits++;
        if (p->cfg.acquire_timeout_ms == 0 || wait_turn(p, &deadline) != 0) {
            p->st.timeouts++;
            snprintf(p->err, sizeof p->err,
                     "no connection free in the pool within %d ms (max_size %d)",
                     p->cfg.acquire_timeout_ms, p->cfg.max_size);
            pthread_mutex_unlock(&p->mu);
            return IX_ETIMEOUT;
        }
    }
}

int ix_pool_release(ix_pool *p, ix_conn *c) {
    if (!p || !c) return IX_EMISUSE;
    pthread_mutex_lock(&p->mu);
    pool_member *m = member_of(p, c);
    int ok = m && !m->idle;
    pthread_mutex_unlock(&p->mu);
    if (!ok) return IX_EMISUSE; /* not from this pool, or released twice */
    int reusable = pool_reset(p, c) == 0;
    pthread_mutex_lock(&p->mu);
    m = member_of(p, c);
    ix_conn *bad = NULL;
    if (!reusable || expired(p, m, ixc_now_us())) {
        bad = drop(p, m);
    } else {
        m->idle = 1;
        m->since_us = ixc_now_us();
        m->seq = ++p->seq;
        pthread_cond_signal(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    ix_close(bad);
    return IX_OK;
}

void ix_pool_destroy(ix_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    for (int i = 0; i < p->cfg.max_size; i++)
        if (p->m[i].conn && p->m[i].idle) {
            ix_close(p->m[i].conn);
            p->m[i].conn = NULL;
        }
    pthread_mutex_unlock(&p->mu);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    ixc_free(p->m);
    ixc_free(p->dsn);
    ixc_free(p);
}

int ix_pool_get_stats(ix_pool *p, ix_pool_stats *st) {
    if (!p || !st) return IX_EMISUSE;
    pthread_mutex_lock(&p->mu);
    *st = p->st;
    st->open = open_count(p);
    st->idle = 0;
    for (int i = 0; i < p->cfg.max_size; i++)
        st->idle += p->m[i].conn && p->m[i].idle;
    pthread_mutex_unlock(&p->mu);
    return IX_OK;
}

int ix_pool_errmsg(ix_pool *p, char *buf, size_t n) {
    if (!p || !buf || n == 0) return IX_EMISUSE;
    pthread_mutex_lock(&p->mu);
    snprintf(buf, n, "%s", p->err);
    pthread_mutex_unlock(&p->mu);
    return IX_OK;
}
