#define _GNU_SOURCE /* accept4 */
/*
 * ixd_listen.c: the TCP listener (optionally TLS from the first byte, as an
 * onsocssl listener), one thread per connection, clean shutdown on SIGTERM.
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
#include <sys/socket.h>
#include <unistd.h>

#include "ixd_server.h"

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

void ixd_log(ixd_server *srv, unsigned long session, const char *fmt, ...) {
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&srv->log_lock);
    if (session)
        fprintf(stderr, "ixd: [%lu] %s\n", session, line);
    else
        fprintf(stderr, "ixd: %s\n", line);
    pthread_mutex_unlock(&srv->log_lock);
}

/* One connection. */
typedef struct conn {
    ixd_server *srv;
    int fd;
    SSL *ssl;
    unsigned long id;
    char peer[64];
    pthread_t th;
    int done;
    int64_t next_intr_poll; /* conn_interrupted: when to look at the socket next */
    struct conn *next;
} conn;

static int64_t coarse_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The session's interrupt check (ixd_sess_set_interrupt_check), called while
 * a statement runs: 1 on shutdown, or when the client's interrupt (one
 * urgent byte, proto/ix_interrupt.h) is waiting on the socket; the byte is
 * read so that it counts once. The kernel drops the urgent mark once the
 * reads pass it, so an interrupt sent before requests that follow it never
 * reaches them. The socket is looked at every 10 ms at most.
 */
static int conn_interrupted(void *ud) {
    conn *c = ud;
    if (atomic_load(&stopping)) return 1;
    int64_t now = coarse_ms();
    if (now < c->next_intr_poll) return 0;
    c->next_intr_poll = now + 10;
    struct pollfd pf = {c->fd, POLLPRI, 0};
    if (poll(&pf, 1, 0) != 1 || !(pf.revents & POLLPRI)) return 0;
    unsigned char b;
    if (recv(c->fd, &b, 1, MSG_OOB | MSG_DONTWAIT) != 1) return 0;
    ixd_log(c->srv, c->id, "interrupt from the client");
    return 1;
}

static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;
static conn *conns;

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

static int conn_write(conn *c, const uint8_t *p, size_t n) {
    while (n > 0) {
        ssize_t r;
        if (c->ssl) {
            int w = SSL_write(c->ssl, p, (int)(n > 1 << 30 ? 1 << 30 : n));
            r = w > 0 ? w : -1;
        } else {
            r = send(c->fd, p, n, MSG_NOSIGNAL);
            if (r < 0 && errno == EINTR) continue;
        }
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static void *conn_main(void *arg) {
    conn *c = arg;
    ixd_server *srv = c->srv;
    const char *reason = "client closed the connection";
    ixd_sess *s = NULL;
    if (c->ssl && SSL_accept(c->ssl) != 1) {
        reason = "TLS handshake failed";
        goto out;
    }
    s = ixd_sess_new(srv, c->id, c->peer);
    if (!s) {
        reason = "out of memory";
        goto out;
    }
    ixd_sess_set_interrupt_check(s, conn_interrupted, c);
    ixd_log(srv, c->id, "connection from %s%s", c->peer, c->ssl ? " (TLS)" : "");
    ix_wbuf out;
    ix_wbuf_init(&out, NULL);
    uint8_t buf[65536];
    for (;;) {
        ssize_t n = conn_read(c, buf, sizeof buf);
        if (n <= 0) {
            reason = n == 0 ? "client closed the connection" : "read error";
            break;
        }
        ix_wbuf_reset(&out);
        int rc = ixd_sess_input(s, buf, (size_t)n, &out);
        if (out.len && conn_write(c, out.data, out.len) != 0) {
            reason = "write error (client gone)";
            break;
        }
        if (rc > 0) {
            reason = "client exited";
            break;
        }
        if (rc < 0) {
            reason = "protocol error";
            break;
        }
    }
    ix_wbuf_free(&out);
out:
    ixd_sess_free(s, reason);
    if (c->ssl) {
        SSL_shutdown(c->ssl);
        SSL_free(c->ssl);
    }
    pthread_mutex_lock(&conns_lock);
    c->done = 1; /* from here on the listener no longer touches c->fd */
    pthread_mutex_unlock(&conns_lock);
    close(c->fd);
    return NULL;
}

/* Joins finished connection threads (all of them when `all`). */
static void reap(int all) {
    pthread_mutex_lock(&conns_lock);
    conn **pp = &conns;
    while (*pp) {
        conn *c = *pp;
        if (all && !c->done) shutdown(c->fd, SHUT_RDWR);
        if (c->done || all) {
            *pp = c->next;
            pthread_mutex_unlock(&conns_lock);
            pthread_join(c->th, NULL);
            free(c);
            pthread_mutex_lock(&conns_lock);
        } else {
            pp = &c->next;
        }
    }
    pthread_mutex_unlock(&conns_lock);
}

static void on_signal(int sig) {
    (void)sig;
    ixd_listen_stop();
}

int ixd_listen_run(ixd_server *srv, const ixd_listen_opts *o) {
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
            ixd_log(srv, 0, "cannot load TLS certificate/key: %s", e);
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
        ixd_log(srv, 0, "cannot resolve %s: %s", host, gai_strerror(gai));
        SSL_CTX_free(ctx);
        return -1;
    }
    int lfd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (lfd >= 0) setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (lfd < 0 || bind(lfd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(lfd, 128) != 0) {
        ixd_log(srv, 0, "cannot listen on %s:%s: %s", host, port, strerror(errno));
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
    ixd_log(srv, 0, "listening on %s:%d as %s%s, data in %s", host, bound, srv->server_name,
            ctx ? " (TLS)" : "", srv->data_dir);
    unsigned long next_id = 1;
    for (;;) {
        struct pollfd pf[2] = {{lfd, POLLIN, 0}, {stop_pipe[0], POLLIN, 0}};
        int pr = poll(pf, 2, 1000);
        reap(0);
        if (pr < 0 && errno != EINTR) break;
        if (pf[1].revents) break;
        if (pr <= 0 || !(pf[0].revents & POLLIN)) continue;
        struct sockaddr_storage pa;
        socklen_t pl = sizeof pa;
        int fd = accept4(lfd, (struct sockaddr *)&pa, &pl, SOCK_CLOEXEC);
        if (fd < 0) continue;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        conn *c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->srv = srv;
        c->fd = fd;
        c->id = next_id++;
        char h[INET6_ADDRSTRLEN] = "?";
        int pport = 0;
        if (pa.ss_family == AF_INET) {
            inet_ntop(AF_INET, &((struct sockaddr_in *)&pa)->sin_addr, h, sizeof h);
            pport = ntohs(((struct sockaddr_in *)&pa)->sin_port);
        } else if (pa.ss_family == AF_INET6) {
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&pa)->sin6_addr, h, sizeof h);
            pport = ntohs(((struct sockaddr_in6 *)&pa)->sin6_port);
        }
        snprintf(c->peer, sizeof c->peer, "%s:%d", h, pport);
        if (ctx) {
            c->ssl = SSL_new(ctx);
            if (!c->ssl || SSL_set_fd(c->ssl, fd) != 1) {
                SSL_free(c->ssl);
                close(fd);
                free(c);
                continue;
            }
        }
        pthread_mutex_lock(&conns_lock);
        c->next = conns;
        conns = c;
        if (pthread_create(&c->th, NULL, conn_main, c) != 0) {
            conns = c->next;
            pthread_mutex_unlock(&conns_lock);
            SSL_free(c->ssl);
            close(fd);
            free(c);
            continue;
        }
        pthread_mutex_unlock(&conns_lock);
    }
    ixd_log(srv, 0, "shutting down");
    close(lfd);
    reap(1);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    stop_pipe[0] = stop_pipe[1] = -1;
    SSL_CTX_free(ctx);
    return 0;
}
