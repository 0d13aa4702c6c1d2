/*
 * ix_transport.c: the only file of libixdb that touches sockets and TLS.
 *
 * Two transports behind ixc_transport_vt: plain TCP (onsoctcp) and TLS over
 * TCP (onsocssl: TLS from the first byte, then the same SQLI bytes). The
 * socket is non-blocking from its connect on, and nothing here waits:
 * callers poll() the fd for the event a call asked for (IXC_WANT_READ /
 * IXC_WANT_WRITE), which is what lets a pipelined batch write and read at
 * the same time without deadlock, and an event loop drive a connection.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "ix_client_int.h"
#include "proto/ix_interrupt.h"

typedef struct tstart tstart;
typedef struct tcp_tr {
    ixc_transport base;
    SSL_CTX *ctx;
    SSL *ssl;
    tstart *st; /* the connect in progress (ixc_transport_poll), NULL after */
} tcp_tr;

static void tstart_free(tstart *st);

static void set_err(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static void ssl_err_text(char *err, size_t len, const char *what) {
    unsigned long e = ERR_get_error();
    char buf[200] = "";
    if (e) ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    set_err(err, len, "%s%s%s", what, buf[0] ? ": " : "", buf);
}

static long tcp_send(ixc_transport *t, const void *p, size_t n) {
    ssize_t k = send(t->fd, p, n, MSG_NOSIGNAL);
    if (k >= 0) return (long)k;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return IXC_WANT_WRITE;
    set_err(t->err, sizeof t->err, "send: %s", strerror(errno));
    return IXC_IOERR;
}

/* The interrupt (docs/protocol.md "Interrupts"; the doubt is named in
 * proto/ix_interrupt.h): one byte of TCP urgent data. Async-signal-safe. */
int ixc_send_interrupt(int fd) {
    static const unsigned char b = IXP_INTERRUPT_BYTE;
    for (;;) {
        ssize_t k = send(fd, &b, 1, MSG_OOB | MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k == 1) return 0;
        if (k < 0 && errno == EINTR) continue;
        return -1;
    }
}

int ixc_shutdown_socket(int fd) {
    return shutdown(fd, SHUT_RDWR);
}

static long tcp_recv(ixc_transport *t, void *p, size_t n) {
    ssize_t k = recv(t->fd, p, n, 0);
    if (k >= 0) return (long)k;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return IXC_WANT_READ;
    set_err(t->err, sizeof t->err, "recv: %s", strerror(errno));
    return IXC_IOERR;
}

static size_t tcp_pending(ixc_transport *t) {
    (void)t;
    return 0;
}

static void tcp_close(ixc_transport *t) {
    tcp_tr *x = (tcp_tr *)t;
    if (x->ssl) {
        SSL_shutdown(x->ssl); /* best effort, non-blocking */
        SSL_free(x->ssl);
    }
    if (x->ctx) SSL_CTX_free(x->ctx);
    if (t->fd >= 0) close(t->fd);
    tstart_free(x->st);
    ixc_free(x);
}

static long tls_result(tcp_tr *x, int k, int is_send) {
    if (k > 0) return k;
    int e = SSL_get_error(x->ssl, k);
    switch (e) {
    case SSL_ERROR_WANT_READ: return IXC_WANT_READ;
    case SSL_ERROR_WANT_WRITE: return IXC_WANT_WRITE;
    case SSL_ERROR_ZERO_RETURN: return 0;
    case SSL_ERROR_SYSCALL:
        if (!is_send && ERR_peek_error() == 0) return 0; /* peer closed without close_notify */
        if (errno == EAGAIN || errno == EINTR) return is_send ? IXC_WANT_WRITE : IXC_WANT_READ;
        set_err(x->base.err, sizeof x->base.err, "TLS %s: %s", is_send ? "send" : "recv",
                errno ? strerror(errno) : "connection closed");
        ERR_clear_error();
        return IXC_IOERR;
    default:
        ssl_err_text(x->base.err, sizeof x->base.err, is_send ? "TLS send" : "TLS recv");
        return IXC_IOERR;
    }
}

static long tls_send(ixc_transport *t, const void *p, size_t n) {
    tcp_tr *x = (tcp_tr *)t;
    if (n > 1 << 30) n = 1 << 30;
    ERR_clear_error();
    return tls_result(x, SSL_write(x->ssl, p, (int)n), 1);
}

static long tls_recv(ixc_transport *t, void *p, size_t n) {
    tcp_tr *x = (tcp_tr *)t;
    if (n > 1 << 30) n = 1 << 30;
    ERR_clear_error();
    return tls_result(x, SSL_read(x->ssl, p, (int)n), 0);
}

static size_t tls_pending(ixc_transport *t) {
    tcp_tr *x = (tcp_tr *)t;
    int k = SSL_pending(x->ssl);
    return k > 0 ? (size_t)k : 0;
}

static const ixc_transport_vt tcp_vt = {tcp_send, tcp_recv, tcp_pending, tcp_close};
static const ixc_transport_vt tls_vt = {tls_send, tls_recv, tls_pending, tcp_close};

/* TCP keepalive: probes after idle_s seconds of silence, then every 10 s;
 * 6 unanswered probes end the connection (a dead host or a cut network is
 * noticed about a minute after the idle time). A server process that is
 * stopped but whose host is up still answers probes: read_timeout covers
 * that case. */
static void set_keepalive(int fd, int idle_s) {
    int on = idle_s > 0, intvl = 10, cnt = 6;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    if (!on) return;
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

/*
 * A connection in progress, one step per ixc_transport_poll (the socket is
 * non-blocking from the start; nothing here waits):
 *   TCP   connect() issued on ai: done when the socket is writable and
 *         SO_ERROR is 0; a refusal moves on to the next address
 *   TLS   SSL_connect until it completes (it asks for read or write)
 *   READY
 */
enum { TS_TCP = 1, TS_TLS = 2, TS_READY = 3 };

typedef struct tstart {
    struct addrinfo *res, *ai;
    int phase;
    int tls, tls_verify, keepalive_s;
    char *host, *port, *tls_ca;
} tstart;

static void tstart_free(tstart *st) {
    if (!st) return;
    if (st->res) freeaddrinfo(st->res);
    ixc_free(st->host);
    ixc_free(st->port);
    ixc_free(st->tls_ca);
    ixc_free(st);
}

/* connect() on the next address that takes it: IX_OK (in progress or
 * done), or IX_ECONN when none is left. */
static int tcp_next(tcp_tr *x, char *err, size_t errlen) {
    tstart *st = x->st;
    for (; st->ai; st->ai = st->ai->ai_next) {
        if (x->base.fd >= 0) close(x->base.fd);
        x->base.fd = -1;
        int fd = socket(st->ai->ai_family, st->ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                        st->ai->ai_protocol);
        if (fd < 0) {
            set_err(err, errlen, "socket: %s", strerror(errno));
            continue;
        }
        x->base.fd = fd;
        if (connect(fd, st->ai->ai_addr, st->ai->ai_addrlen) == 0 || errno == EINPROGRESS)
            return IX_OK;
        set_err(err, errlen, "connect: %s", strerror(errno));
    }
    if (x->base.fd >= 0) close(x->base.fd);
    x->base.fd = -1;
    return IX_ECONN;
}

static int tls_setup(tcp_tr *x, char *err, size_t errlen) {
    tstart *st = x->st;
    x->ctx = SSL_CTX_new(TLS_client_method());
    if (!x->ctx) return ssl_err_text(err, errlen, "TLS context"), IX_ETLS;
    SSL_CTX_set_min_proto_version(x->ctx, TLS1_2_VERSION);
    if (st->tls_verify) {
        int ok = st->tls_ca && st->tls_ca[0]
                     ? SSL_CTX_load_verify_locations(x->ctx, st->tls_ca, NULL)
                     : SSL_CTX_set_default_verify_paths(x->ctx);
        if (ok != 1) return ssl_err_text(err, errlen, "TLS CA file"), IX_ETLS;
        SSL_CTX_set_verify(x->ctx, SSL_VERIFY_PEER, NULL);
    } else {
        SSL_CTX_set_verify(x->ctx, SSL_VERIFY_NONE, NULL);
    }
    x->ssl = SSL_new(x->ctx);
    if (!x->ssl) return ssl_err_text(err, errlen, "TLS session"), IX_ETLS;
    SSL_set_fd(x->ssl, x->base.fd);
    if (st->host && st->host[0]) {
        struct in6_addr a6;
        struct in_addr a4;
        int is_ip =
            inet_pton(AF_INET, st->host, &a4) == 1 || inet_pton(AF_INET6, st->host, &a6) == 1;
        if (!is_ip) SSL_set_tlsext_host_name(x->ssl, st->host);
        if (st->tls_verify) {
            X509_VERIFY_PARAM *vp = SSL_get0_param(x->ssl);
            if (is_ip)
                X509_VERIFY_PARAM_set1_ip_asc(vp, st->host);
            else
                X509_VERIFY_PARAM_set1_host(vp, st->host, 0);
        }
    }
    return IX_OK;
}

/* One step of the handshake: IX_OK when done, IXC_WANT_*, or IX_ETLS. */
static int tls_step(tcp_tr *x, char *err, size_t errlen) {
    ERR_clear_error();
    int k = SSL_connect(x->ssl);
    if (k == 1) return IX_OK;
    int e = SSL_get_error(x->ssl, k);
    if (e == SSL_ERROR_WANT_READ) return IXC_WANT_READ;
    if (e == SSL_ERROR_WANT_WRITE) return IXC_WANT_WRITE;
    long vr = SSL_get_verify_result(x->ssl);
    if (vr != X509_V_OK)
        set_err(err, errlen, "TLS certificate verification failed: %s",
                X509_verify_cert_error_string(vr));
    else
        ssl_err_text(err, errlen, "TLS handshake failed");
    return IX_ETLS;
}

static void with_addr(const tstart *st, char *err, size_t errlen) {
    size_t l = strlen(err);
    if (l + 1 < errlen) snprintf(err + l, errlen - l, " (%s port %s)", st->host, st->port);
}

/* The TCP connect of the current address has finished (writable): IX_OK
 * connected, IXC_WANT_WRITE not yet, IX_ECONN (every address refused). */
static int tcp_step(tcp_tr *x, char *err, size_t errlen) {
    struct pollfd pf = {x->base.fd, POLLOUT, 0};
    if (poll(&pf, 1, 0) == 0) return IXC_WANT_WRITE;
    int soerr = 0;
    socklen_t sl = sizeof soerr;
    getsockopt(x->base.fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
    if (soerr == 0) return IX_OK;
    set_err(err, errlen, "connect: %s", strerror(soerr));
    x->st->ai = x->st->ai->ai_next;
    if (tcp_next(x, err, errlen) != IX_OK) return IX_ECONN;
    return IXC_WANT_WRITE;
}

int ixc_transport_poll(ixc_transport *t, char *err, size_t errlen) {
    tcp_tr *x = (tcp_tr *)t;
    tstart *st = x->st;
    if (!st) return IX_OK;
    int rc = IX_OK;
    if (st->phase == TS_TCP) {
        rc = tcp_step(x, err, errlen);
        if (rc == IX_ECONN) with_addr(st, err, errlen);
        if (rc != IX_OK) return rc;
        int one = 1;
        setsockopt(t->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        set_keepalive(t->fd, st->keepalive_s);
        st->phase = TS_READY;
        if (st->tls) {
            if ((rc = tls_setup(x, err, errlen)) != IX_OK) return rc;
            st->phase = TS_TLS;
        }
    }
    if (st->phase == TS_TLS) {
        if ((rc = tls_step(x, err, errlen)) != IX_OK) return rc;
        st->phase = TS_READY;
    }
    tstart_free(st);
    x->st = NULL;
    return IX_OK;
}

const char *ixc_transport_phase(const ixc_transport *t) {
    const tcp_tr *x = (const tcp_tr *)t;
    return !x->st ? "ready" : x->st->phase == TS_TLS ? "TLS handshake" : "connect";
}

int ixc_transport_start(const ixc_tcp_opts *o, ixc_transport **out, char *err, size_t errlen) {
    *out = NULL;
    tcp_tr *x = ixc_calloc(1, sizeof *x);
    tstart *st = ixc_calloc(1, sizeof *st);
    if (x) x->base.fd = -1;
    if (st) {
        st->host = ixc_strdup(o->host ? o->host : "");
        st->port = ixc_strdup(o->port ? o->port : "");
        st->tls_ca = o->tls_ca ? ixc_strdup(o->tls_ca) : NULL;
    }
    if (!x || !st || !st->host || !st->port || (o->tls_ca && !st->tls_ca)) {
        ixc_free(x);
        tstart_free(st);
        set_err(err, errlen, "out of memory");
        return IX_ENOMEM;
    }
    st->tls = o->tls;
    st->tls_verify = o->tls_verify;
    st->keepalive_s = o->keepalive_s;
    st->phase = TS_TCP;
    x->st = st;
    x->base.vt = o->tls ? &tls_vt : &tcp_vt;
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int g = getaddrinfo(o->host, o->port, &hints, &st->res);
    if (g != 0) {
        st->res = NULL;
        set_err(err, errlen, IXC_MSG_NO_HOST " %s:%s: %s", o->host, o->port, gai_strerror(g));
        tcp_close(&x->base);
        return IX_ECONN;
    }
    st->ai = st->res;
    if (tcp_next(x, err, errlen) != IX_OK) {
        with_addr(st, err, errlen);
        tcp_close(&x->base);
        return IX_ECONN;
    }
    *out = &x->base;
    return IX_OK;
}
