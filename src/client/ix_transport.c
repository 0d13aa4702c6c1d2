/*
 * ix_transport.c: the only file of libixdb that touches sockets and TLS.
 *
 * Two transports behind ixc_transport_vt: plain TCP (onsoctcp) and TLS over
 * TCP (onsocssl: TLS from the first byte, then the same SQLI bytes). The
 * socket is non-blocking; callers poll() the fd for the event a call asked
 * for (IXC_WANT_READ / IXC_WANT_WRITE), which is what lets a pipelined
 * batch write and read at the same time without deadlock.
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

typedef struct tcp_tr {
    ixc_transport base;
    SSL_CTX *ctx;
    SSL *ssl;
} tcp_tr;

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

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for ev on fd until the deadline (0 = none). 1 ready, 0 timeout, -1 error. */
static int wait_fd(int fd, short ev, int64_t deadline) {
    for (;;) {
        int ms = -1;
        if (deadline) {
            int64_t left = deadline - now_ms();
            if (left <= 0) return 0;
            ms = left > 1000000 ? 1000000 : (int)left;
        }
        struct pollfd pf = {fd, ev, 0};
        int k = poll(&pf, 1, ms);
        if (k > 0) return 1;
        if (k == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

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

static int connect_one(const struct addrinfo *ai, int64_t deadline, char *err, size_t errlen,
                       int *rc) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
        set_err(err, errlen, "socket: %s", strerror(errno));
        *rc = IX_ECONN;
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        if (errno != EINPROGRESS) {
            set_err(err, errlen, "connect: %s", strerror(errno));
            close(fd);
            *rc = IX_ECONN;
            return -1;
        }
        int w = wait_fd(fd, POLLOUT, deadline);
        if (w <= 0) {
            set_err(err, errlen, w == 0 ? "connect: timed out" : "connect: poll failed");
            close(fd);
            *rc = w == 0 ? IX_ETIMEOUT : IX_ECONN;
            return -1;
        }
        int soerr = 0;
        socklen_t sl = sizeof soerr;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
        if (soerr) {
            set_err(err, errlen, "connect: %s", strerror(soerr));
            close(fd);
            *rc = IX_ECONN;
            return -1;
        }
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static int tls_start(tcp_tr *x, const ixc_tcp_opts *o, int64_t deadline, char *err, size_t errlen) {
    x->ctx = SSL_CTX_new(TLS_client_method());
    if (!x->ctx) return ssl_err_text(err, errlen, "TLS context"), IX_ETLS;
    SSL_CTX_set_min_proto_version(x->ctx, TLS1_2_VERSION);
    if (o->tls_verify) {
        int ok = o->tls_ca && o->tls_ca[0] ? SSL_CTX_load_verify_locations(x->ctx, o->tls_ca, NULL)
                                           : SSL_CTX_set_default_verify_paths(x->ctx);
        if (ok != 1) return ssl_err_text(err, errlen, "TLS CA file"), IX_ETLS;
        SSL_CTX_set_verify(x->ctx, SSL_VERIFY_PEER, NULL);
    } else {
        SSL_CTX_set_verify(x->ctx, SSL_VERIFY_NONE, NULL);
    }
    x->ssl = SSL_new(x->ctx);
    if (!x->ssl) return ssl_err_text(err, errlen, "TLS session"), IX_ETLS;
    SSL_set_fd(x->ssl, x->base.fd);
    if (o->host && o->host[0]) {
        struct in6_addr a6;
        struct in_addr a4;
        int is_ip = inet_pton(AF_INET, o->host, &a4) == 1 || inet_pton(AF_INET6, o->host, &a6) == 1;
        if (!is_ip) SSL_set_tlsext_host_name(x->ssl, o->host);
        if (o->tls_verify) {
            X509_VERIFY_PARAM *vp = SSL_get0_param(x->ssl);
            if (is_ip)
                X509_VERIFY_PARAM_set1_ip_asc(vp, o->host);
            else
                X509_VERIFY_PARAM_set1_host(vp, o->host, 0);
        }
    }
    for (;;) {
        ERR_clear_error();
        int k = SSL_connect(x->ssl);
        if (k == 1) return IX_OK;
        int e = SSL_get_error(x->ssl, k);
        short ev = e == SSL_ERROR_WANT_READ ? POLLIN : e == SSL_ERROR_WANT_WRITE ? POLLOUT : 0;
        if (!ev) {
            long vr = SSL_get_verify_result(x->ssl);
            if (vr != X509_V_OK)
                set_err(err, errlen, "TLS certificate verification failed: %s",
                        X509_verify_cert_error_string(vr));
            else
                ssl_err_text(err, errlen, "TLS handshake failed");
            return IX_ETLS;
        }
        int w = wait_fd(x->base.fd, ev, deadline);
        if (w <= 0) {
            set_err(err, errlen, "TLS handshake: %s", w == 0 ? "timed out" : "poll failed");
            return w == 0 ? IX_ETIMEOUT : IX_ETLS;
        }
    }
}

int ixc_transport_open(const ixc_tcp_opts *o, ixc_transport **out, char *err, size_t errlen) {
    *out = NULL;
    int64_t deadline = o->connect_timeout_ms > 0 ? now_ms() + o->connect_timeout_ms : 0;
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int g = getaddrinfo(o->host, o->port, &hints, &res);
    if (g != 0) {
        set_err(err, errlen, "cannot resolve %s:%s: %s", o->host, o->port, gai_strerror(g));
        return IX_ECONN;
    }
    int fd = -1, rc = IX_ECONN;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
        fd = connect_one(ai, deadline, err, errlen, &rc);
    freeaddrinfo(res);
    if (fd < 0) {
        size_t l = strlen(err);
        if (l + 1 < errlen) snprintf(err + l, errlen - l, " (%s port %s)", o->host, o->port);
        return rc;
    }
    tcp_tr *x = ixc_calloc(1, sizeof *x);
    if (!x) {
        close(fd);
        set_err(err, errlen, "out of memory");
        return IX_ENOMEM;
    }
    set_keepalive(fd, o->keepalive_s);
    x->base.vt = o->tls ? &tls_vt : &tcp_vt;
    x->base.fd = fd;
    if (o->tls) {
        rc = tls_start(x, o, deadline, err, errlen);
        if (rc != IX_OK) {
            tcp_close(&x->base);
            return rc;
        }
    }
    *out = &x->base;
    return IX_OK;
}
