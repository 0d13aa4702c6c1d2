/*
 * ix_cluster.c: clusters: the candidate servers of a DSN, retries and
 * redirects (docs/c-api.md "Clusters").
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/ix_sqlscan.h"
#include "ix_client_int.h"
#include "ix_conn_int.h"

/* ---- clusters: candidates, retries, redirects (docs/c-api.md "Clusters") --- */

#define IXC_REDIRECT_MAX      4  /* redirects followed in one connection attempt */
#define IXC_CONTIME_DEFAULT   60 /* seconds; INFORMIXCONTIME=0 means this too (IBM) */
#define IXC_CONRETRY_DEFAULT  1  /* additional attempts per server (IBM) */
#define IXC_KEEPALIVE_DEFAULT 60 /* idle seconds when sqlhosts k=1 meets keepalive=0 */

/* Where and how long to try. deadline 0: INFORMIXCONTIME/CONRETRY not set,
 * one attempt per candidate, each bounded by connect_timeout. */
typedef struct connect_plan {
    ixc_hostent *ents;
    int n;
    int group; /* the candidates are the members of sqlhosts group o->server */
    char name[128];
    int64_t start, deadline;
    int retries, interval_ms, contime_s;
} connect_plan;

static unsigned pick_random(unsigned n) {
    static atomic_uint seq;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20) ^
                 ((uint64_t)atomic_fetch_add(&seq, 1) * 0x9E3779B97F4A7C15u);
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 32;
    return (unsigned)(x % n);
}

/* The candidates: host:port from the DSN (or a given transport), or the
 * sqlhosts entry of o->server (a group: its members; c=1: rotated to start
 * at a random one). Returns IX_OK or an error with err set. */
static int plan_candidates(const dsn_opts *o, int given, connect_plan *p, char *err,
                           size_t errlen) {
    p->ents = ixc_calloc(IXC_SQLHOSTS_MAX, sizeof *p->ents);
    if (!p->ents) return snprintf(err, errlen, "out of memory"), IX_ENOMEM;
    ixc_hostent *e = &p->ents[0];
    snprintf(e->server, sizeof e->server, "%s", o->server ? o->server : "");
    snprintf(e->host, sizeof e->host, "%s", o->host);
    snprintf(e->port, sizeof e->port, "%s", o->port);
    e->tls = o->tls;
    e->keepalive = -1;
    p->n = 1;
    if (given || o->addr_given || !o->server || !*o->server) return IX_OK;
    char def[512];
    const char *path = o->sqlhosts;
    if (!path) {
        const char *dir = getenv("INFORMIXDIR");
        snprintf(def, sizeof def, "%s/etc/sqlhosts", dir && *dir ? dir : "/opt/IBM/informix");
        path = def;
    }
    int n = ixc_sqlhosts_lookup(path, o->server, p->ents, IXC_SQLHOSTS_MAX, err, errlen);
    if (n == -1 && !o->sqlhosts) return IX_OK; /* no default file: defaults */
    if (n <= 0) return n == -2 ? IX_EINVAL : IX_ECONN;
    p->n = n;
    p->group = n > 1 || strcmp(p->ents[0].server, o->server) != 0;
    if (p->ents[0].random_start && n > 1) {
        unsigned r = pick_random((unsigned)n);
        ixc_hostent tmp[IXC_SQLHOSTS_MAX];
        for (int i = 0; i < n; i++)
            tmp[i] = p->ents[((unsigned)i + r) % (unsigned)n];
        memcpy(p->ents, tmp, (size_t)n * sizeof *tmp);
    }
    return IX_OK;
}

/* IBM's rules: INFORMIXCONTIME seconds in all (0: 60), each server tried
 * once and then INFORMIXCONRETRY more times, the rounds starting
 * CONTIME / CONRETRY apart. Neither set: one round, no overall bound. */
static void plan_timing(const dsn_opts *o, connect_plan *p) {
    p->start = ixc_now_ms();
    if (o->contime_s < 0 && o->conretry < 0) return;
    p->contime_s = o->contime_s > 0 ? o->contime_s : IXC_CONTIME_DEFAULT;
    p->retries = o->conretry >= 0 ? o->conretry : IXC_CONRETRY_DEFAULT;
    p->deadline = p->start + (int64_t)p->contime_s * 1000;
    p->interval_ms = p->retries > 0 ? p->contime_s * 1000 / p->retries : 0;
}

/* Milliseconds one attempt may take: connect_timeout, and what is left. */
static int attempt_ms(const dsn_opts *o, const connect_plan *p) {
    int ms = o->connect_timeout_ms;
    if (p->deadline) {
        int64_t left = p->deadline - ixc_now_ms();
        if (left < 1) left = 1;
        if (ms == 0 || left < ms) ms = (int)left;
    }
    return ms;
}

/* Back to the state of a connection never connected (between attempts). */
static void conn_reset(ix_conn *c) {
    if (c->tr) c->tr->vt->close(c->tr);
    c->tr = NULL;
    ixp_reader_free(&c->rd);
    ixp_reader_init(&c->rd, IXP_FROM_SERVER, ixc_mem());
    ixp_limits_default(&c->rd.lim);
    ixb_wbuf_reset(&c->st.out);
    c->st.sent = 0;
    memset(&c->caps, 0, sizeof c->caps);
    c->st.dead = c->logged_in = c->db_open = c->db_logged = c->db_ansi = 0;
    ixc_fp_forget(c);
    atomic_store(&c->inflight, 0);
    atomic_store(&c->cancel_wait, 0);
    ixc_pend_clear(c);
    c->roundtrips = c->sent_since_read = 0;
    c->peer_eof = c->scan_bad = 0;
    c->scan_off = 0;
    c->scan_groups = 0;
    ixc_free(c->server_name);
    ixc_free(c->server_version);
    ixc_free(c->member);
    ixc_free(c->database);
    c->server_name = c->server_version = c->member = c->database = NULL;
}

/* Records "NAME@HOST:PORT" of the server that accepted. */
static int note_member(ix_conn *c, const ixc_hostent *e) {
    const char *name = e->server[0] ? e->server : c->server_name ? c->server_name : "";
    int v6 = strchr(e->host, ':') != NULL;
    size_t cap = strlen(name) + strlen(e->host) + strlen(e->port) + 8;
    if (!(c->member = ixc_malloc(cap))) return ixc_kill(c, IX_ENOMEM, "out of memory");
    snprintf(c->member, cap, "%s%s%s%s%s:%s", name, *name ? "@" : "", v6 ? "[" : "", e->host,
             v6 ? "]" : "", e->port);
    return IX_OK;
}

/*
 * The connect state machine (ix_connect_poll; ix_connect loops over it).
 * One attempt is a transport to one candidate and the login on it:
 *
 *   CS_TCP      the transport connects (TCP, TLS handshake)
 *   CS_CONACC   the login request went out; its answer is awaited
 *   CS_PROTO    SQ_PROTOCOLS (and, pipelined, SQ_INFO / SQ_DBOPEN) went out
 *   CS_INFO     SQ_INFO's reply is awaited
 *   CS_DBOPEN   SQ_DBOPEN's reply is awaited
 *   CS_WAIT     between INFORMIXCONTIME rounds (no socket: IX_WANT_TIMER)
 *
 * An attempt ends with IX_OK (connected), IXC_REDIRECTED (the next attempt
 * goes to the target: try_member's hops), or an error, after which the
 * next candidate, the next round, or the end comes (connect_plan_run's
 * rules). Each step decodes only replies that have arrived whole.
 */
enum { CS_TCP = 1, CS_CONACC, CS_PROTO, CS_INFO, CS_DBOPEN, CS_WAIT };

struct ixc_connsm {
    dsn_opts o;
    connect_plan p;
    ixc_transport *given; /* the test seam's transport, for the first attempt */
    int phase;
    int round, idx, hop, fatal, attempts;
    ixc_hostent e; /* the server being tried (a candidate, or a redirect's target) */
    char path[IXC_REDIRECT_MAX + 1][300];
    int64_t attempt_deadline, due;
    int attempt_ms, rt_saved;
    char last[1024];
};

/* The wait for the server during the login: each is bounded by the read
 * timeout (from the request or the last bytes), as every wait of a
 * session, and all of them by the attempt's time. */
static int64_t login_wait_deadline(const ix_conn *c, const struct ixc_connsm *m) {
    int64_t d = m->attempt_deadline;
    int rt = m->rt_saved;
    if (m->phase == CS_TCP || rt <= 0) return d;
    int64_t w = c->io_at_ms + rt;
    return d == 0 || w < d ? w : d;
}

int64_t ixc_connsm_deadline(const ix_conn *c);
int64_t ixc_connsm_deadline(const ix_conn *c) {
    const struct ixc_connsm *m = c->csm;
    if (!m) return 0;
    if (m->phase == CS_WAIT) return m->due;
    return login_wait_deadline(c, m);
}

/* Starts an attempt on m->e: a fresh transport (or the given one). */
static int attempt_start(ix_conn *c, struct ixc_connsm *m) {
    dsn_opts *o = &m->o;
    conn_reset(c);
    int ms = attempt_ms(o, &m->p);
    m->attempt_ms = ms;
    m->attempt_deadline = ms > 0 ? ixc_now_ms() + ms : 0;
    ixc_transport *tr = m->given;
    m->given = NULL;
    int rc = ixc_set_str(&o->server, m->e.server, strlen(m->e.server));
    if (rc != IX_OK) {
        if (tr) tr->vt->close(tr);
        c->st.dead = 1;
        return ixc_fail(c, IX_ENOMEM, "out of memory");
    }
    m->phase = CS_TCP;
    if (!tr) {
        const ixc_hostent *e = &m->e;
        int ka = e->keepalive == 0   ? 0
                 : e->keepalive == 1 ? (o->keepalive_s ? o->keepalive_s : IXC_KEEPALIVE_DEFAULT)
                                     : o->keepalive_s;
        ixc_tcp_opts t = {e->host, e->port, ms, e->tls || o->tls, o->tls_verify, o->tls_ca, ka};
        char err[300];
        rc = ixc_transport_start(&t, &tr, err, sizeof err);
        if (rc != IX_OK) {
            c->st.dead = 1;
            return ixc_fail(c, rc, "%s", err);
        }
        c->tr = tr;
        return IX_OK;
    }
    c->tr = tr;
    m->phase = CS_CONACC;
    return ixc_send_conreq(c, o);
}

/* The attempt's time ran out in its current phase. */
static int attempt_expired(ix_conn *c, struct ixc_connsm *m) {
    if (m->phase == CS_TCP) {
        c->st.dead = 1;
        return ixc_fail(c, IX_ETIMEOUT, "%s: timed out (%s port %s)", ixc_transport_phase(c->tr),
                        m->e.host, m->e.port);
    }
    int ms = m->attempt_ms;
    if (m->rt_saved > 0 && (ms == 0 || m->rt_saved < ms)) ms = m->rt_saved;
    return ixc_kill(c, IX_ETIMEOUT, "timed out after %d ms waiting for the server", ms);
}

/* Reads the session replies once they are whole; IXC_WANT_* while not. */
static int attempt_session(ix_conn *c, struct ixc_connsm *m) {
    dsn_opts *o = &m->o;
    ixc_reply r;
    memset(&r, 0, sizeof r);
    int rc = ixc_read_reply(c, &r);
    if (rc != IX_OK) return rc;
    switch (m->phase) {
    case CS_PROTO:
        if (r.sqlcode)
            return ixc_kill(c, IX_EPROTO, "the server refused the protocol offer (%d)", r.sqlcode);
        if (c->caps.f44)
            return ixc_kill(c, IX_EPROTO, "the server asks for a PAM conversation (not supported)");
        ixc_name_forms(c); /* the granted capabilities bound the NFETCH size */
        if (!c->pipeline_login) {
            ixc_queue_info(c);
            if ((rc = ixc_flush(c)) != IX_OK) return rc;
        }
        m->phase = CS_INFO;
        return IXC_WANT_READ;
    case CS_INFO:
        if (!(o->database && *o->database)) return IX_OK;
        if (!c->pipeline_login) {
            ixc_queue_dbopen(c, o);
            if ((rc = ixc_flush(c)) != IX_OK) return rc;
        }
        m->phase = CS_DBOPEN;
        return IXC_WANT_READ;
    default: /* CS_DBOPEN */
        if (r.sqlcode)
            return ixc_fail_sql(c, r.sqlcode, r.isamcode, 0, r.msg[0] ? r.msg : o->database);
        c->db_open = 1;
        if (ixc_set_str(&c->database, o->database, strlen(o->database)))
            return ixc_fail(c, IX_ENOMEM, "out of memory");
        c->db_logged = r.done_warnings & 1;
        c->db_ansi = (r.done_warnings & 2) != 0;
        return IX_OK;
    }
}

/* One step of the attempt: IX_OK (logged in), IXC_REDIRECTED, IXC_WANT_*
 * (wait), or the attempt's error. */
static int attempt_step(ix_conn *c, struct ixc_connsm *m) {
    int rc;
    if (m->phase == CS_TCP) {
        char err[300] = "";
        rc = ixc_transport_poll(c->tr, err, sizeof err);
        if (rc == IXC_WANT_READ || rc == IXC_WANT_WRITE) return rc;
        if (rc != IX_OK) {
            c->st.dead = 1;
            return ixc_fail(c, rc, "%s", err);
        }
        m->phase = CS_CONACC;
        if ((rc = ixc_send_conreq(c, &m->o)) != IX_OK) return rc;
    }
    for (;;) {
        int want = IX_WANT_READ;
        int k = ixc_nb_ready(c, &want);
        if (k < 0) return k;
        if (k == 0) return want == IX_WANT_WRITE ? IXC_WANT_WRITE : IXC_WANT_READ;
        c->st.nb_step = 0; /* the reply is buffered */
        c->nb_decoding++;
        if (m->phase == CS_CONACC) {
            ixp_redirect_target redir;
            rc = ixc_read_conacc(c, &m->o, &redir);
            if (rc == IXC_REDIRECTED) {
                snprintf(m->e.server, sizeof m->e.server, "%.127s", redir.server);
                snprintf(m->e.host, sizeof m->e.host, "%s", redir.host);
                snprintf(m->e.port, sizeof m->e.port, "%d", redir.port);
            }
            if (rc == IX_OK) {
                ixc_open_session_send(c, &m->o);
                m->phase = CS_PROTO;
                rc = ixc_flush(c);
                if (rc == IX_OK) rc = IXC_WANT_READ;
            }
        } else {
            rc = attempt_session(c, m);
        }
        c->nb_decoding--;
        c->st.nb_step = 1;
        if (rc != IXC_WANT_READ) return rc;
    }
}

static int next_candidate(ix_conn *c, struct ixc_connsm *m);

/* The attempt on m->e ended with rc: redirects, then the next candidate or
 * round. Returns IX_OK to go on (a new attempt has started or a round is
 * awaited), or the connection's final result. */
static int attempt_done(ix_conn *c, struct ixc_connsm *m, int rc) {
    connect_plan *p = &m->p;
    if (rc == IXC_REDIRECTED) {
        char to[300];
        snprintf(to, sizeof to, "%s:%s", m->e.host, m->e.port);
        for (int i = 0; i <= m->hop; i++)
            if (strcmp(m->path[i], to) == 0) {
                rc = ixc_kill(c, IX_ECONN, "redirect loop: %s redirected back to %s (%d hops)",
                              m->path[m->hop], to, m->hop + 1);
                goto fatal;
            }
        if (m->hop == IXC_REDIRECT_MAX) {
            rc = ixc_kill(c, IX_ECONN, "more than %d redirects (the last from %s to %s)",
                          IXC_REDIRECT_MAX, m->path[m->hop], to);
            goto fatal;
        }
        m->hop++;
        snprintf(m->path[m->hop], sizeof m->path[m->hop], "%s", to);
        return attempt_start(c, m) == IX_OK ? IX_OK : attempt_done(c, m, c->st.err);
    }
    if (c->logged_in && !c->st.dead) { /* also when only the database failed */
        int mrc = note_member(c, &m->e);
        if (mrc != IX_OK) rc = mrc;
    }
    if (rc == IX_OK) return IXC_CONNECTED;
    if (m->hop > 0 || (rc != IX_ECONN && rc != IX_ETIMEOUT)) goto fatal;
    m->attempts++;
    snprintf(m->last, sizeof m->last, "%s@%s:%s: %s", p->ents[m->idx].server, p->ents[m->idx].host,
             p->ents[m->idx].port, c->st.errmsg);
    m->idx++;
    if (m->idx < p->n && !(p->deadline && ixc_now_ms() >= p->deadline)) return next_candidate(c, m);
    m->idx = 0;
    m->round++;
    if (m->round <= p->retries) {
        int64_t due = p->start + (int64_t)m->round * p->interval_ms;
        if (!(ixc_now_ms() > due && ixc_now_ms() > p->deadline)) {
            m->due = p->deadline && due > p->deadline ? p->deadline : due;
            m->phase = CS_WAIT;
            if (c->tr) c->tr->vt->close(c->tr);
            c->tr = NULL;
            return IX_OK;
        }
    }
    /* every candidate and round spent */
    if (!p->deadline && !p->group) return rc;
    c->st.dead = 1;
    int expired = p->deadline && ixc_now_ms() >= p->deadline;
    if (expired) rc = IX_ETIMEOUT;
    char head[200];
    if (p->group)
        snprintf(head, sizeof head, "no member of group %.127s accepted the connection", p->name);
    else
        snprintf(head, sizeof head, "the server did not accept the connection");
    return ixc_fail(c, rc, "%s%s (%d attempts; last: %s)", head,
                    expired ? " within INFORMIXCONTIME" : "", m->attempts, m->last);
fatal:
    /* A fatal error may leave the session open (a database that cannot be
     * opened); c's error record says what happened. */
    return rc;
}

/* Starts the attempt on candidate m->idx. */
static int next_candidate(ix_conn *c, struct ixc_connsm *m) {
    m->e = m->p.ents[m->idx];
    m->hop = 0;
    snprintf(m->path[0], sizeof m->path[0], "%s:%s", m->e.host, m->e.port);
    int rc = attempt_start(c, m);
    return rc == IX_OK ? IX_OK : attempt_done(c, m, rc);
}

static void connsm_free(ix_conn *c) {
    struct ixc_connsm *m = c->csm;
    if (!m) return;
    if (m->given) m->given->vt->close(m->given);
    ixc_free(m->p.ents);
    ixc_opts_free(&m->o);
    ixc_free(m);
    c->csm = NULL;
}

/* The end of the login: the machine is freed; IX_OK or the error. */
static int connsm_end(ix_conn *c, int rc) {
    struct ixc_connsm *m = c->csm;
    c->read_timeout_ms = m->rt_saved;
    connsm_free(c);
    c->st.nb_step = 0;
    if (rc == IXC_CONNECTED) rc = IX_OK;
    if (rc == IX_OK) {
        atomic_store(&c->cancel_fd, c->tr->fd);
        ixc_clear_err(c);
    }
    return rc;
}

int ix_connect_poll(ix_conn *c) {
    if (!c) return IX_EMISUSE;
    struct ixc_connsm *m = c->csm;
    if (!m) return c->st.dead ? ixc_check(c) : IX_OK;
    c->st.nb_step = 1;
    int rc = IX_OK;
    for (;;) {
        if (m->phase == CS_WAIT) {
            if (ixc_now_ms() < m->due) {
                c->st.nb_step = 0;
                return IX_WANT_TIMER;
            }
            rc = next_candidate(c, m);
        } else {
            rc = attempt_step(c, m);
            if (rc != IXC_WANT_READ && rc != IXC_WANT_WRITE) {
                rc = attempt_done(c, m, rc);
            } else if (login_wait_deadline(c, m) && ixc_now_ms() >= login_wait_deadline(c, m)) {
                rc = attempt_done(c, m, attempt_expired(c, m));
            } else {
                c->st.nb_step = 0;
                return rc == IXC_WANT_READ ? IX_WANT_READ : IX_WANT_WRITE;
            }
        }
        if (rc != IX_OK) return connsm_end(c, rc);
        /* a new attempt (or a round to wait for): step it at once */
    }
}

static int connect_begin(ix_conn **out, const char *dsn, ixc_transport *tr) {
    ix_conn *c = ixc_conn_new();
    *out = c;
    if (!c) {
        if (tr) tr->vt->close(tr);
        return IX_ENOMEM;
    }
    struct ixc_connsm *m = ixc_calloc(1, sizeof *m);
    if (!m) {
        if (tr) tr->vt->close(tr);
        c->st.dead = 1;
        return ixc_fail(c, IX_ENOMEM, "out of memory");
    }
    c->csm = m;
    m->given = tr;
    dsn_opts *o = &m->o;
    char err[300] = "";
    int rc = ixc_opts_load(o, dsn, err, sizeof err);
    if (rc != IX_OK) {
        connsm_free(c);
        c->st.dead = 1;
        return ixc_fail(c, rc, "%s", err[0] ? err : "out of memory");
    }
    c->fetch_buffer = o->fetch_buffer;
    c->readahead = o->readahead;
    c->deferred_prepare = o->deferred_prepare;
    c->optofc = o->optofc;
    c->watchdog_ms = o->watchdog_ms;
    c->read_timeout_ms = o->read_timeout_ms;
    m->rt_saved = o->read_timeout_ms;
    if (o->dbdate && !(c->dbdate = ixc_dupstr(o->dbdate, strlen(o->dbdate)))) rc = IX_ENOMEM;
    if (rc == IX_OK) rc = ixc_locale_setup(c, o->client_locale, o->db_locale, err, sizeof err);
    if (rc == IX_OK) {
        snprintf(m->p.name, sizeof m->p.name, "%s", o->server ? o->server : "");
        rc = plan_candidates(o, tr != NULL, &m->p, err, sizeof err);
    }
    if (rc != IX_OK) {
        connsm_free(c);
        c->st.dead = 1;
        return ixc_fail(c, rc, "%s", rc == IX_ENOMEM && !err[0] ? "out of memory" : err);
    }
    plan_timing(o, &m->p);
    c->st.nb_step = 1;
    rc = next_candidate(c, m);
    c->st.nb_step = 0;
    if (rc != IX_OK) return connsm_end(c, rc);
    return IX_OK;
}

int ix_connect_start(const char *dsn, ix_conn **out) {
    if (!out) return IX_EMISUSE;
    int rc = connect_begin(out, dsn, NULL);
    if (*out) (*out)->st.nb = 1;
    return rc;
}

/* Waits for what ix_connect_poll asked for (blocking ix_connect). */
static void connect_wait(ix_conn *c, int want) {
    int fd = ix_socket(c), ms = ix_timeout_ms(c);
    if (want == IX_WANT_TIMER || fd < 0) {
        if (want == IX_WANT_TIMER && ms > 0) poll(NULL, 0, ms);
        return;
    }
    struct pollfd pf = {fd, (short)(want == IX_WANT_WRITE ? POLLOUT : POLLIN), 0};
    if (c->tr->vt->pending(c->tr) > 0) return;
    poll(&pf, 1, ms); /* EINTR or expiry: ix_connect_poll looks again */
}

static int connect_common(ix_conn **out, const char *dsn, ixc_transport *tr) {
    int rc = connect_begin(out, dsn, tr);
    ix_conn *c = *out;
    if (!c) return rc;
    while (rc == IX_OK && c->csm) {
        rc = ix_connect_poll(c);
        if (rc == IX_WANT_READ || rc == IX_WANT_WRITE || rc == IX_WANT_TIMER) {
            connect_wait(c, rc);
            rc = IX_OK;
        }
    }
    return rc;
}

int ix_connect(ix_conn **out, const char *dsn) {
    if (!out) return IX_EMISUSE;
    return connect_common(out, dsn, NULL);
}

int ixc_connect_transport(ix_conn **out, const char *dsn, ixc_transport *tr) {
    return connect_common(out, dsn, tr);
}

static void connsm_free(ix_conn *c);

void ix_close(ix_conn *c) {
    if (!c) return;
    ixc_cache_free(c);
    if (c->csm) { /* a login in progress: nothing to say goodbye to */
        connsm_free(c);
        c->st.dead = 1;
    }
    if (!c->st.dead && c->tr) {
        /* Pending CLOSE/RELEASE replies need not be read: SQ_EXIT ends all. */
        size_t mark = ixc_mark(c);
        ixp_enc_tag(&c->st.out, IXP_SQ_EXIT);
        ixc_queued(c, mark);
        int save = c->read_timeout_ms;
        if (save == 0 || save > 2000) c->read_timeout_ms = 2000;
        if (ixc_flush(c) == IX_OK) {
            /* Wait for the server's SQ_EXIT (or the close) so that the
             * session ends cleanly; other replies still queued are skipped. */
            ixp_msg m;
            while (ixc_next_msg(c, &m) == IX_OK && m.tag != IXP_SQ_EXIT) {
            }
        }
        c->read_timeout_ms = save;
    }
    ixc_stmt_detach_all(c);
    ixc_file_free(c);
    ixc_fp_forget(c);
    atomic_store(&c->cancel_fd, -1);
    if (c->tr) c->tr->vt->close(c->tr);
    if (c->trace_fd >= 0) close(c->trace_fd);
    ixp_reader_free(&c->rd);
    ixc_batch_free(c->spare);
    ixb_wbuf_free(&c->st.out);
    ixb_wbuf_free(&c->line);
    ixp_printer_free(&c->pr_in);
    ixp_printer_free(&c->pr_out);
    ixc_pend_free(c);
    ixc_free(c->server_name);
    ixc_free(c->server_version);
    ixc_free(c->member);
    ixc_free(c->database);
    ixc_free(c->dbdate);
    ixc_locale_free(c);
    ixb_wbuf_free(&c->conv);
    ixc_free(c);
}

int ix_conn_is_dead(const ix_conn *c) {
    return !c || c->st.dead;
}

int ix_set_fetch_buffer(ix_conn *c, int32_t bytes) {
    if (!c) return IX_EMISUSE;
    if (bytes < 1 && bytes != IX_FETCH_AUTO)
        return ixc_fail(c, IX_EINVAL, "fetch buffer must be at least 1 byte (or IX_FETCH_AUTO)");
    c->fetch_buffer = bytes;
    return IX_OK;
}

int ix_set_readahead(ix_conn *c, int depth) {
    if (!c) return IX_EMISUSE;
    if (depth < 0 || depth > 64) return ixc_fail(c, IX_EINVAL, "read-ahead depth must be 0..64");
    c->readahead = depth;
    return IX_OK;
}

int ix_cancel(ix_conn *c) {
    if (!c) return IX_EMISUSE;
    int fd = atomic_load(&c->cancel_fd);
    if (fd < 0) return IX_ECONN;
    int inflight = atomic_load(&c->inflight);
    if (inflight <= 0) return IX_OK; /* idle: nothing to interrupt */
    if (!c->st.fast) {               /* no interrupt the server is known to take: end the wait */
        atomic_store(&c->cancel_closed, 1);
        return ixc_shutdown_socket(fd) == 0 ? IX_OK : IX_ECONN;
    }
    int zero = 0;
    if (!atomic_compare_exchange_strong(&c->cancel_wait, &zero, inflight))
        return IX_OK; /* the last interrupt has not been read yet */
    return ixc_send_interrupt(fd) == 0 ? IX_OK : IX_ECONN;
}

int ix_set_signal_handler(ix_conn *c, ix_signal_fn fn, void *ud) {
    if (!c) return IX_EMISUSE;
    c->on_signal = fn;
    c->on_signal_ud = ud;
    return IX_OK;
}

int ix_set_read_timeout(ix_conn *c, int millis) {
    if (!c) return IX_EMISUSE;
    if (millis < 0) return ixc_fail(c, IX_EINVAL, "timeout must be >= 0");
    c->read_timeout_ms = millis;
    return IX_OK;
}

const char *ix_server_name(const ix_conn *c) {
    return c && c->server_name ? c->server_name : "";
}

const char *ix_conn_server(const ix_conn *c) {
    return c && c->member ? c->member : "";
}

const char *ix_conn_database(const ix_conn *c) {
    return c && c->database ? c->database : "";
}

const char *ix_server_version(const ix_conn *c) {
    return c && c->server_version ? c->server_version : "";
}

const char *ix_conn_compat(const ix_conn *c) {
    if (!c || !c->logged_in) return "";
    return c->st.fast ? "fast" : "conservative";
}

const char *ix_conn_forms(const ix_conn *c) {
    return c && c->logged_in ? c->forms : "";
}
