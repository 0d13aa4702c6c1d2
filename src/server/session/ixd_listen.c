#define _GNU_SOURCE /* accept4 */
/*
 * ixd_listen.c: the TCP listener (optionally TLS from the first byte, as an
 * onsocssl listener), one thread per connection, clean shutdown on SIGTERM.
 * The accept loop is also the watchdog of the login and idle deadlines,
 * enforces the connection cap, and pauses when accept() runs out of
 * descriptors or memory.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ixd_server.h"
#include "proto/ix_login.h"
#include "proto/ix_reader.h"

static int stop_pipe[2] = {-1, -1};
/* Set once shutdown begins: running statements are interrupted. */
static atomic_int stopping;

void ixd_listen_stop(void) {
    atomic_store(&stopping, 1); /* lock-free: async-signal-safe */
    if (stop_pipe[1] >= 0) {
        char c = 1;
        ssize_t r = write(stop_pipe[1], &c, 1);
        (void)r;
    }
}

/*
 * Connection threads get a bounded stack instead of the default 8 MiB of
 * address space each. The SQL translator counts its nesting and stops any
 * walk of a statement that would leave less than a quarter of the thread's
 * stack (src/server/sql/ixs_limit.c), which SQLite and the C library have
 * below it. Sanitizer builds use several times more stack and keep the
 * default.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONN_STACK (8u << 20)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CONN_STACK (8u << 20)
#endif
#endif
#ifndef CONN_STACK
#define CONN_STACK (1u << 20)
#endif

#define READ_CHUNK            65536     /* bytes read from a client at once */
#define WRITE_CHUNK           65536     /* bytes written per idle-deadline period */
#define REJECT_SLOTS          8         /* connections over the cap being answered at once */
#define REJECT_TIMEOUT_S      5         /* at most this long to read their login */
#define ACCEPT_BACKOFF_MIN_MS 100       /* first pause after accept() ran out of resources */
#define ACCEPT_BACKOFF_MAX_MS 1000      /* the pause doubles up to this */
#define SWEEP_MAX_MS          1000      /* the accept loop wakes at least this often */
#define NOFILE_WANTED         (1 << 20) /* the soft RLIMIT_NOFILE ixd raises itself to */

/* One connection. */
typedef struct conn {
    ixd_server *srv;
    const ixd_listen_opts *o;
    int fd;
    SSL *ssl;
    unsigned long id;
    char peer[64];
    pthread_t th;
    int done;   /* under conns_lock */
    int reject; /* over the connection cap: answered IXD_EBUSY, then closed */
    /* The watchdog (the accept loop) shuts the socket down once this passes
     * (CLOCK_MONOTONIC ms, 0: none): the login deadline from accept until
     * the login is answered, then the idle deadline while the session waits
     * on its client. */
    _Atomic int64_t deadline_ms;
    atomic_int expired;     /* set by the watchdog when it shut the socket down */
    int64_t next_intr_poll; /* conn_interrupted: when to look at the socket next */
    int gone;               /* conn_interrupted saw the client close or reset the socket */
    ixp_reader ask_rd;      /* conn_ask: the client's answers (made at first use) */
    int ask_init;
    uint8_t *early; /* bytes read past an answer: requests the session reads next */
    size_t nearly;
    struct conn *next;
} conn;

static int64_t coarse_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define INTR_POLL_MS 10 /* a running statement looks at its socket this often at most */

/*
 * A client that has left: the connection was reset (or shut down by the
 * watchdog), or the client closed its side and no byte it sent before is
 * still unread. Bytes still waiting (the next pipelined request, a TLS
 * record) are not a hangup: the session reads them after the statement,
 * and the end of the stream then. TLS: the raw socket shows the FIN; a
 * close_notify alert in front of it is data, so SSL_peek decides (it cannot
 * block: after the FIN everything the client will send is there), keeping
 * any application data for the next SSL_read.
 */
static int client_gone(conn *c, short revents) {
    if (revents & (POLLHUP | POLLERR)) return 1;
    if (!(revents & POLLRDHUP)) return 0;
    char b;
    if (c->ssl) return SSL_peek(c->ssl, &b, 1) <= 0;
    ssize_t n = recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Whether ixd takes the client's interrupt (one urgent byte): not in strict
 * mode, where the socket has SO_OOBINLINE (start_conn) and ixd never looks
 * for urgent data, so the byte reaches the session as stream data, a
 * malformed message that ends the session, as with a server that has no
 * interrupt of this form (docs/server.md "Strict mode"). */
static int conn_watches_urgent(const conn *c) {
    return !c->srv->strict;
}

/* The client's interrupt (one urgent byte, proto/ix_interrupt.h), read so
 * that it counts once. The kernel drops the urgent mark once the reads pass
 * it, so an interrupt sent before requests that follow it never reaches
 * them. */
static int client_interrupt(conn *c, short revents) {
    unsigned char b;
    if (!(revents & POLLPRI) || recv(c->fd, &b, 1, MSG_OOB | MSG_DONTWAIT) != 1) return 0;
    ixd_log(c->srv, c->id, "interrupt from the client");
    return 1;
}

/*
 * The session's interrupt check (ixd_sess_set_interrupt_check), called while
 * a statement runs or waits for a lock: IXD_INTR_STOP on shutdown and on
 * the client's interrupt; IXD_INTR_END from the moment the client is gone
 * (client_gone): the statement stops, the session handles no more input,
 * serve ends it and its transaction rolls back.
 * The socket is looked at every INTR_POLL_MS at most.
 */
static int conn_interrupted(void *ud) {
    conn *c = ud;
    if (c->gone) return IXD_INTR_END;
    if (atomic_load(&stopping)) return IXD_INTR_STOP;
    int64_t now = coarse_ms();
    if (now < c->next_intr_poll) return 0;
    c->next_intr_poll = now + INTR_POLL_MS;
    short want = conn_watches_urgent(c) ? POLLPRI | POLLRDHUP : POLLRDHUP;
    struct pollfd pf = {c->fd, want, 0};
    if (poll(&pf, 1, 0) != 1) return 0;
    if (client_gone(c, pf.revents)) {
        c->gone = 1;
        ixd_log(c->srv, c->id, "client gone while a statement ran: interrupted");
        return IXD_INTR_END;
    }
    return conn_watches_urgent(c) && client_interrupt(c, pf.revents) ? IXD_INTR_STOP : 0;
}

/* The session's input probe (ixd_sess_set_input_probe): 1 when the client
 * has sent bytes not yet handed to the session (kept behind an SQ_FILE
 * answer, buffered by TLS, or readable on the socket). Never waits. */
static int conn_input_waiting(void *ud) {
    conn *c = ud;
    if (c->nearly || (c->ssl && SSL_pending(c->ssl) > 0)) return 1;
    char b;
    ssize_t n = recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
    return n > 0;
}

#define ASK_TIMEOUT_MS 30000 /* a client that does not answer an SQ_FILE request */

static ssize_t conn_read(conn *c, void *buf, size_t n);
static int conn_write(conn *c, const uint8_t *p, size_t n, int idle);

/* Keeps the bytes the reader holds past the answer for the session. */
static int keep_early(conn *c) {
    size_t n = ixp_reader_pending(&c->ask_rd);
    if (!n) return 0;
    uint8_t *p = realloc(c->early, c->nearly + n);
    if (!p) return -1;
    memcpy(p + c->nearly, c->ask_rd.buf + c->ask_rd.start, n);
    c->early = p;
    c->nearly += n; /* the reader keeps them too until the next ask */
    return 0;
}

/* The session's client channel (ixd_sess_set_client_channel): sends req,
 * then reads one message from the client, waiting at most ASK_TIMEOUT_MS. */
static int conn_ask(void *ud, const uint8_t *req, size_t n, ixp_msg *ans) {
    conn *c = ud;
    if (!c->ask_init) {
        ixp_reader_init(&c->ask_rd, IXP_FROM_CLIENT, NULL);
        c->ask_init = 1;
    } else {
        ixp_reader_free(&c->ask_rd); /* the previous answer is done with */
        ixp_reader_init(&c->ask_rd, IXP_FROM_CLIENT, NULL);
    }
    c->ask_rd.expect_login = 0;
    if (conn_write(c, req, n, c->o->idle_timeout)) return -1;
    uint8_t buf[4096];
    for (;;) {
        int rc = ixp_reader_next(&c->ask_rd, ans);
        if (rc == IX_OK) return keep_early(c);
        if (rc != IX_NEED_MORE) return -1;
        if (!(c->ssl && SSL_pending(c->ssl))) {
            struct pollfd pf = {c->fd, POLLIN, 0};
            int k = poll(&pf, 1, ASK_TIMEOUT_MS);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return -1;
        }
        ssize_t got = conn_read(c, buf, sizeof buf);
        if (got <= 0 || ixp_reader_feed(&c->ask_rd, buf, (size_t)got) != IX_OK) return -1;
    }
}

static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;
static conn *conns;
static int nlive, nreject; /* sessions / rejections in progress, under conns_lock */

static void set_deadline(conn *c, int seconds) {
    atomic_store(&c->deadline_ms, seconds > 0 ? ixd_now_ms() + (int64_t)seconds * 1000 : 0);
}

static ssize_t conn_read(conn *c, void *buf, size_t n) {
    if (c->ssl) {
        int r = SSL_read(c->ssl, buf, (int)n);
        return r > 0 ? r : (SSL_get_error(c->ssl, r) == SSL_ERROR_ZERO_RETURN ? 0 : -1);
    }
    for (;;) {
        ssize_t r = recv(c->fd, buf, n, 0);
        if (r < 0 && errno == EINTR) continue;
        return r;
    }
}

/* Writes p[0..n). With idle > 0, each WRITE_CHUNK must be taken by the
 * client within idle seconds. */
static int conn_write(conn *c, const uint8_t *p, size_t n, int idle) {
    while (n > 0) {
        size_t k = n > WRITE_CHUNK ? WRITE_CHUNK : n;
        ssize_t r;
        if (idle) set_deadline(c, idle);
        if (c->ssl) {
            int w = SSL_write(c->ssl, p, (int)k);
            r = w > 0 ? w : -1;
        } else {
            r = send(c->fd, p, k, MSG_NOSIGNAL);
        }
        if (idle) set_deadline(c, 0);
        if (r < 0 && !c->ssl && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The reason a read or write failed: a deadline, or `otherwise`. */
static const char *io_reason(conn *c, int logged_in, const char *otherwise, char *buf, size_t cap) {
    if (!atomic_load(&c->expired)) return otherwise;
    if (logged_in)
        snprintf(buf, cap, "idle timeout (%d s without the client)", c->o->idle_timeout);
    else
        snprintf(buf, cap, "login timeout (no login within %d s)", c->o->login_timeout);
    return buf;
}

/* Holds the login answer back for the login throttle: waits ms. Returns 0,
 * or -1 when the client closed (or half-closed) its side first, or ixd is
 * stopping: then it gets no answer, so that hanging up early gains nothing. */
static int hold(conn *c, long ms) {
    int64_t until = ixd_now_ms() + ms;
    for (int64_t left = ms; left > 0; left = until - ixd_now_ms()) {
        struct pollfd pf = {c->fd, POLLRDHUP, 0};
        int r = poll(&pf, 1, (int)left);
        if (r > 0 || (r < 0 && errno != EINTR)) return -1;
    }
    return 0;
}

/* The session's read-decode-write loop. Returns why it ended. */
static const char *serve(conn *c, ixd_sess *s, uint8_t *buf, ixb_wbuf *out, char *why,
                         size_t whylen) {
    int idle = c->o->idle_timeout, logged = 0;
    for (;;) {
        ssize_t n;
        if (c->nearly) { /* requests that came in behind an SQ_FILE answer */
            n = (ssize_t)(c->nearly < READ_CHUNK ? c->nearly : READ_CHUNK);
            memcpy(buf, c->early, (size_t)n);
            memmove(c->early, c->early + n, c->nearly - (size_t)n);
            c->nearly -= (size_t)n;
        } else {
            if (logged && !(c->ssl && SSL_pending(c->ssl))) set_deadline(c, idle);
            n = conn_read(c, buf, READ_CHUNK);
            if (logged) set_deadline(c, 0);
        }
        if (n <= 0)
            return io_reason(c, logged, n == 0 ? "client closed the connection" : "read error", why,
                             whylen);
        ixb_wbuf_reset(out);
        int rc = ixd_sess_input(s, buf, (size_t)n, out);
        while (rc == IXD_SESS_MORE) { /* backpressure: write, then decode on */
            if (conn_write(c, out->data, out->len, logged ? idle : 0))
                return io_reason(c, logged, "write error (client gone)", why, whylen);
            ixb_wbuf_reset(out);
            rc = ixd_sess_input(s, NULL, 0, out);
        }
        if (c->gone) return "client gone during a statement";
        long wait = logged ? 0 : ixd_sess_take_login_wait(s);
        if (wait > 0) {
            atomic_store(&c->deadline_ms, 0); /* the server's delay, not the client's */
            if (hold(c, wait)) return "client closed the connection (login held back)";
        }
        if (out->len && conn_write(c, out->data, out->len, logged ? idle : 0))
            return io_reason(c, logged, "write error (client gone)", why, whylen);
        if (!logged && ixd_sess_logged_in(s)) {
            logged = 1;
            atomic_store(&c->deadline_ms, 0);
        }
        if (rc > 0) return logged ? "client exited" : "login rejected";
        if (rc < 0) return "protocol error";
    }
}

/* A connection over the cap: reads its login packet (so that closing does
 * not reset the connection before the client has read the answer), answers
 * CONREJ with IXD_EBUSY, closes. Returns why it ended. */
static const char *reject_busy(conn *c, uint8_t *buf) {
    ixp_reader rd;
    ixp_reader_init(&rd, IXP_FROM_CLIENT, NULL);
    rd.max_buffer = IXD_LOGIN_MAX_LEN;
    const char *why = "connection limit reached (answered -25571)";
    for (;;) {
        ixp_msg m;
        int rc = ixp_reader_next(&rd, &m);
        if (rc == IX_OK) break;
        if (rc != IX_NEED_MORE) {
            why = "connection limit reached; bad login packet";
            goto out;
        }
        ssize_t n = conn_read(c, buf, READ_CHUNK);
        if (n <= 0 || ixp_reader_feed(&rd, buf, (size_t)n) != IX_OK ||
            ixd_login_header_why(rd.buf + rd.start, ixp_reader_pending(&rd))) {
            why = "connection limit reached; no login";
            goto out;
        }
    }
    ixp_conacc acc;
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixp_conrej_defaults(&acc, c->srv->server_name, c->srv->banner, IXD_EBUSY);
    if (ixp_conacc_encode(&acc, &w) == IX_OK) conn_write(c, w.data, w.len, 0);
    ixb_wbuf_free(&w);
out:
    ixp_reader_free(&rd);
    return why;
}

static void *conn_main(void *arg) {
    conn *c = arg;
    ixd_server *srv = c->srv;
    const char *reason = "out of memory";
    char why[128];
    ixd_sess *s = NULL;
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    uint8_t *buf = malloc(READ_CHUNK);
    if (!buf) goto out;
    if (c->ssl && SSL_accept(c->ssl) != 1) {
        reason = io_reason(c, 0, "TLS handshake failed", why, sizeof why);
        goto out;
    }
    if (c->reject) {
        reason = reject_busy(c, buf);
        if (srv->verbose) ixd_log(srv, c->id, "%s: %s", c->peer, reason);
        goto out;
    }
    s = ixd_sess_new(srv, c->id, c->peer);
    if (!s) goto out;
    ixd_sess_set_interrupt_check(s, conn_interrupted, c);
    ixd_sess_set_client_channel(s, conn_ask, c);
    ixd_sess_set_input_probe(s, conn_input_waiting, c);
    ixd_log(srv, c->id, "connection from %s%s", c->peer, c->ssl ? " (TLS)" : "");
    reason = serve(c, s, buf, &out, why, sizeof why);
out:
    ixb_wbuf_free(&out);
    free(buf);
    ixd_sess_free(s, reason);
    if (c->ask_init) ixp_reader_free(&c->ask_rd);
    free(c->early);
    if (c->ssl) {
        SSL_shutdown(c->ssl);
        SSL_free(c->ssl);
    }
    pthread_mutex_lock(&conns_lock);
    c->done = 1; /* from here on the listener no longer touches c->fd */
    if (c->reject)
        nreject--;
    else
        nlive--;
    pthread_mutex_unlock(&conns_lock);
    close(c->fd);
    return NULL;
}

/* Joins finished connection threads and shuts down the sockets of
 * connections past their deadline. Returns the milliseconds to the nearest
 * deadline left, at most SWEEP_MAX_MS. */
static int sweep(int64_t now) {
    int next = SWEEP_MAX_MS;
    pthread_mutex_lock(&conns_lock);
    conn **pp = &conns;
    while (*pp) {
        conn *c = *pp;
        if (c->done) {
            *pp = c->next;
            pthread_mutex_unlock(&conns_lock);
            pthread_join(c->th, NULL);
            free(c);
            pthread_mutex_lock(&conns_lock);
            continue;
        }
        int64_t d = atomic_load(&c->deadline_ms);
        if (d && d <= now) {
            if (!atomic_exchange(&c->expired, 1)) shutdown(c->fd, SHUT_RDWR);
        } else if (d && d - now < next) {
            next = (int)(d - now);
        }
        pp = &c->next;
    }
    pthread_mutex_unlock(&conns_lock);
    return next;
}

/* At shutdown: ends every connection and joins its thread. */
static void reap_all(void) {
    pthread_mutex_lock(&conns_lock);
    while (conns) {
        conn *c = conns;
        if (!c->done) shutdown(c->fd, SHUT_RDWR);
        conns = c->next;
        pthread_mutex_unlock(&conns_lock);
        pthread_join(c->th, NULL);
        free(c);
        pthread_mutex_lock(&conns_lock);
    }
    pthread_mutex_unlock(&conns_lock);
}

int ixd_default_max_connections(void) {
    struct rlimit rl;
    long long fds = 1024;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        fds = rl.rlim_cur == RLIM_INFINITY ? NOFILE_WANTED : (long long)rl.rlim_cur;
    long long by_fds = (fds - 64) / 6;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    long long by_mem = pages > 0 && psz > 0 ? (long long)pages * psz / (16LL << 20) : by_fds;
    long long n = by_fds < by_mem ? by_fds : by_mem;
    if (n > (1 << 20)) n = 1 << 20;
    return n < 1 ? 1 : (int)n;
}

/* Raises the soft descriptor limit towards the hard one (each connection
 * needs a socket and SQLite's files). */
static void raise_nofile(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= NOFILE_WANTED) return;
    rlim_t want =
        rl.rlim_max == RLIM_INFINITY || rl.rlim_max > NOFILE_WANTED ? NOFILE_WANTED : rl.rlim_max;
    if (want <= rl.rlim_cur) return;
    rl.rlim_cur = want;
    setrlimit(RLIMIT_NOFILE, &rl);
}

/* The accept loop's state between iterations. */
typedef struct accept_state {
    unsigned long next_id;
    unsigned long accept_fails; /* failed accepts in the current episode */
    int backoff_ms;
    int64_t paused_until;  /* no accept before this (CLOCK_MONOTONIC ms) */
    unsigned long refused; /* connections refused in the current episode at the cap */
} accept_state;

/* accept() failed: pauses for resource errors, logged once per episode. */
static void accept_failed(ixd_server *srv, accept_state *st, int err) {
    if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM) return;
    if (st->accept_fails++ == 0)
        ixd_logl(srv, IXD_LOG_WARN, 0,
                 "cannot accept connections: %s; pausing (%d ms, doubling up to %d ms) "
                 "until resources are free",
                 strerror(err), ACCEPT_BACKOFF_MIN_MS, ACCEPT_BACKOFF_MAX_MS);
    st->backoff_ms = st->backoff_ms ? st->backoff_ms * 2 : ACCEPT_BACKOFF_MIN_MS;
    if (st->backoff_ms > ACCEPT_BACKOFF_MAX_MS) st->backoff_ms = ACCEPT_BACKOFF_MAX_MS;
    st->paused_until = ixd_now_ms() + st->backoff_ms;
}

static void peer_name(const struct sockaddr_storage *pa, char *out, size_t cap) {
    char h[INET6_ADDRSTRLEN] = "?";
    int pport = 0;
    if (pa->ss_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)pa)->sin_addr, h, sizeof h);
        pport = ntohs(((const struct sockaddr_in *)pa)->sin_port);
    } else if (pa->ss_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)pa)->sin6_addr, h, sizeof h);
        pport = ntohs(((const struct sockaddr_in6 *)pa)->sin6_port);
    }
    snprintf(out, cap, "%s:%d", h, pport);
}

/* Decides between a session, a rejection and closing at once; counts it.
 * Returns 1 for a rejection, 0 for a session, -1 to close. Under conns_lock. */
static int admit(ixd_server *srv, const ixd_listen_opts *o, accept_state *st) {
    if (nlive < o->max_connections) {
        if (st->refused)
            ixd_log(srv, 0, "below the connection limit again (%lu connections refused)",
                    st->refused);
        st->refused = 0;
        nlive++;
        return 0;
    }
    if (st->refused++ == 0)
        ixd_logl(srv, IXD_LOG_WARN, 0, "connection limit (%d) reached: new connections get %d %s",
                 o->max_connections, IXD_EBUSY, ixv_errtext(IXD_EBUSY));
    if (nreject >= REJECT_SLOTS) return -1;
    nreject++;
    return 1;
}

/* Starts the thread of a newly accepted socket (or closes it). */
static void start_conn(ixd_server *srv, const ixd_listen_opts *o, SSL_CTX *ctx, accept_state *st,
                       int fd, const struct sockaddr_storage *pa) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    /* strict: the urgent byte stays in the stream (conn_watches_urgent) */
    if (srv->strict) setsockopt(fd, SOL_SOCKET, SO_OOBINLINE, &one, sizeof one);
    conn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    c->srv = srv;
    c->o = o;
    c->fd = fd;
    c->id = st->next_id++;
    peer_name(pa, c->peer, sizeof c->peer);
    if (ctx) {
        c->ssl = SSL_new(ctx);
        if (!c->ssl || SSL_set_fd(c->ssl, fd) != 1) {
            SSL_free(c->ssl);
            close(fd);
            free(c);
            return;
        }
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, CONN_STACK);
    pthread_mutex_lock(&conns_lock);
    int kind = admit(srv, o, st);
    int limit = kind == 1
                    ? (o->login_timeout && o->login_timeout < REJECT_TIMEOUT_S ? o->login_timeout
                                                                               : REJECT_TIMEOUT_S)
                    : o->login_timeout;
    c->reject = kind == 1;
    set_deadline(c, limit);
    c->next = conns;
    conns = c;
    if (kind < 0 || pthread_create(&c->th, &attr, conn_main, c) != 0) {
        conns = c->next;
        if (kind == 1) nreject--;
        if (kind == 0) nlive--;
        pthread_mutex_unlock(&conns_lock);
        SSL_free(c->ssl);
        close(fd);
        free(c);
    } else {
        pthread_mutex_unlock(&conns_lock);
    }
    pthread_attr_destroy(&attr);
}

static void on_signal(int sig) {
    (void)sig;
    ixd_listen_stop();
}

int ixd_listen_run(ixd_server *srv, const ixd_listen_opts *o) {
    raise_nofile();
    ixd_listen_opts lo = *o;
    if (lo.max_connections <= 0) lo.max_connections = ixd_default_max_connections();
    const char *host = o->host ? o->host : "127.0.0.1";
    atomic_store(&stopping, 0);
    char port[16];
    snprintf(port, sizeof port, "%d", o->port);
    SSL_CTX *ctx = NULL;
    if (o->tls_cert && o->tls_key) {
        ctx = SSL_CTX_new(TLS_server_method());
        if (!ctx || SSL_CTX_use_certificate_chain_file(ctx, o->tls_cert) != 1 ||
            SSL_CTX_use_PrivateKey_file(ctx, o->tls_key, SSL_FILETYPE_PEM) != 1) {
            char e[256];
            ERR_error_string_n(ERR_get_error(), e, sizeof e);
            ixd_logl(srv, IXD_LOG_ERROR, 0, "cannot load TLS certificate/key: %s", e);
            SSL_CTX_free(ctx);
            return -1;
        }
        SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE},
                    *ai = NULL;
    int gai = getaddrinfo(host, port, &hints, &ai);
    if (gai) {
        ixd_logl(srv, IXD_LOG_ERROR, 0, "cannot resolve %s: %s", host, gai_strerror(gai));
        SSL_CTX_free(ctx);
        return -1;
    }
    int lfd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (lfd >= 0) setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (lfd < 0 || bind(lfd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(lfd, 128) != 0) {
        ixd_logl(srv, IXD_LOG_ERROR, 0, "cannot listen on %s:%s: %s", host, port, strerror(errno));
        if (lfd >= 0) close(lfd);
        freeaddrinfo(ai);
        SSL_CTX_free(ctx);
        return -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(lfd, (struct sockaddr *)&ss, &sl);
    int bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                               : ((struct sockaddr_in *)&ss)->sin_port);
    if (pipe(stop_pipe) != 0) {
        close(lfd);
        SSL_CTX_free(ctx);
        return -1;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN); /* a file-size limit fails the write (a full disk), not ixd */
    if (o->port_file) {
        FILE *f = fopen(o->port_file, "w");
        if (f) {
            fprintf(f, "%d\n", bound);
            fclose(f);
        }
    }
    ixd_log(srv, 0, "listening on %s:%d as %s%s%s, data in %s", host, bound, srv->server_name,
            ctx ? " (TLS)" : "", srv->strict ? " (strict)" : "", srv->data_dir);
    ixd_log(srv, 0, "at most %d connections; login timeout %d s, idle timeout %d s",
            lo.max_connections, lo.login_timeout, lo.idle_timeout);
    accept_state st = {.next_id = 1};
    for (;;) {
        int64_t now = ixd_now_ms();
        int timeout = sweep(now);
        int paused = st.paused_until > now;
        if (paused && st.paused_until - now < timeout) timeout = (int)(st.paused_until - now);
        struct pollfd pf[2] = {{paused ? -1 : lfd, POLLIN, 0}, {stop_pipe[0], POLLIN, 0}};
        int pr = poll(pf, 2, timeout);
        if (pr < 0 && errno != EINTR) break;
        if (pf[1].revents) break;
        if (pr <= 0 || !(pf[0].revents & POLLIN)) continue;
        struct sockaddr_storage pa;
        socklen_t pl = sizeof pa;
        int fd = accept4(lfd, (struct sockaddr *)&pa, &pl, SOCK_CLOEXEC);
        if (fd < 0) {
            accept_failed(srv, &st, errno);
            continue;
        }
        if (st.accept_fails)
            ixd_log(srv, 0, "accepting connections again (after %lu failed accepts)",
                    st.accept_fails);
        st.accept_fails = 0;
        st.backoff_ms = 0;
        start_conn(srv, &lo, ctx, &st, fd, &pa);
    }
    ixd_log(srv, 0, "shutting down");
    close(lfd);
    reap_all();
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    stop_pipe[0] = stop_pipe[1] = -1;
    SSL_CTX_free(ctx);
    return 0;
}
