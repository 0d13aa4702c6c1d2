/*
 * ixproxy.c: a TCP relay on loopback that adds latency (and optionally a
 * bandwidth cap) to every connection, for the benchmarks (bench/).
 *
 *   ixproxy --target 127.0.0.1:PORT [--listen 127.0.0.1:0] [--rtt-ms R]
 *           [--mbit N] [--port-file F] [--max-seconds S] [--max-conns N]
 *   ixproxy --selftest [--rtt-ms R] [--pings N]
 *
 * Each direction of each relayed connection is delayed by R/2 ms, so that the
 * round trip as ping reports it grows by R. Done in user space with
 * timestamps: every chunk read from one side is queued with the time it is
 * due on the other side (now + R/2, plus its serialisation time at N Mbit/s
 * behind the chunks already on the "link" when --mbit is given); one poll loop
 * (ppoll, nanosecond timeout) reads what is readable and writes what is due.
 * Nothing sleeps per byte. Only loopback addresses are accepted. The proxy
 * exits after --max-seconds (default 7200) or after --max-conns connections
 * have been accepted and closed (default: unlimited), or on SIGTERM.
 *
 * --selftest measures the proxy's own overhead: an echo server (a child
 * process), a proxy (another child) with the given RTT (default 0), and
 * --pings (default 2000) 64-byte pings, alternating direct and through the
 * proxy; it prints the median and IQR of both and the difference.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PAIRS   64
#define CHUNK_MAX   (256 * 1024)
#define QUEUE_LIMIT (64LL * 1024 * 1024) /* bytes in flight per direction */

typedef struct chunk {
    struct chunk *next;
    int64_t due; /* ns, CLOCK_MONOTONIC */
    size_t len, off;
    unsigned char data[];
} chunk;

typedef struct dir {
    int from, to;
    chunk *head, *tail;
    int64_t queued;    /* bytes queued */
    int64_t link_free; /* when the capped link is next idle (ns) */
    int eof;           /* read side hit EOF */
    int shut;          /* SHUT_WR sent to the other side */
} dir;

typedef struct pair {
    int used;
    int fd[2]; /* client, server */
    dir d[2];  /* d[0]: client -> server, d[1]: server -> client */
} pair;

static pair P[MAX_PAIRS];
static volatile sig_atomic_t g_stop;
static int64_t g_delay_ns;   /* one way */
static double g_ns_per_byte; /* 0: no cap */

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void on_term(int sig) {
    (void)sig;
    g_stop = 1;
}

static int set_nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Parses "127.0.0.1:PORT" (loopback only). Returns 0 or -1. */
static int parse_addr(const char *s, struct sockaddr_in *a) {
    char host[64];
    const char *c = strrchr(s, ':');
    if (!c || (size_t)(c - s) >= sizeof host) return -1;
    memcpy(host, s, (size_t)(c - s));
    host[c - s] = 0;
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)atoi(c + 1));
    if (inet_pton(AF_INET, host, &a->sin_addr) != 1) return -1;
    if ((ntohl(a->sin_addr.s_addr) >> 24) != 127) {
        fprintf(stderr, "ixproxy: only loopback addresses (127.x.x.x) are allowed\n");
        return -1;
    }
    return 0;
}

static int listen_on(const struct sockaddr_in *a, int *port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    if (fd < 0) return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *)a, sizeof *a) < 0 || listen(fd, 64) < 0) {
        close(fd);
        return -1;
    }
    struct sockaddr_in b;
    socklen_t bl = sizeof b;
    getsockname(fd, (struct sockaddr *)&b, &bl);
    *port = ntohs(b.sin_port);
    return fd;
}

static void free_dir(dir *d) {
    chunk *c = d->head;
    while (c) {
        chunk *n = c->next;
        free(c);
        c = n;
    }
    d->head = d->tail = NULL;
    d->queued = 0;
}

static void close_pair(pair *p) {
    close(p->fd[0]);
    close(p->fd[1]);
    free_dir(&p->d[0]);
    free_dir(&p->d[1]);
    p->used = 0;
}

/* Reads what is available on d->from into a new chunk. Returns -1 on error. */
static int read_side(dir *d, unsigned char *buf) {
    ssize_t n = recv(d->from, buf, CHUNK_MAX, 0);
    if (n < 0) return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    if (n == 0) {
        d->eof = 1;
        return 0;
    }
    chunk *c = malloc(sizeof *c + (size_t)n);
    if (!c) return -1;
    memcpy(c->data, buf, (size_t)n);
    c->len = (size_t)n;
    c->off = 0;
    c->next = NULL;
    int64_t t = now_ns();
    if (g_ns_per_byte > 0) { /* serialisation on the capped link, then propagation */
        int64_t start = d->link_free > t ? d->link_free : t;
        d->link_free = start + (int64_t)(g_ns_per_byte * (double)n);
        c->due = d->link_free + g_delay_ns;
    } else {
        c->due = t + g_delay_ns;
    }
    if (d->tail)
        d->tail->next = c;
    else
        d->head = c;
    d->tail = c;
    d->queued += n;
    return 0;
}

/* Writes the due chunks of d. Returns -1 on error. */
static int write_side(dir *d, int64_t t) {
    while (d->head && d->head->due <= t) {
        chunk *c = d->head;
        ssize_t n = send(d->to, c->data + c->off, c->len - c->off, MSG_NOSIGNAL);
        if (n < 0) return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
        c->off += (size_t)n;
        d->queued -= n;
        if (c->off < c->len) return 0;
        d->head = c->next;
        if (!d->head) d->tail = NULL;
        free(c);
    }
    if (d->eof && !d->head && !d->shut) {
        shutdown(d->to, SHUT_WR);
        d->shut = 1;
    }
    return 0;
}

static int run_proxy(int lfd, const struct sockaddr_in *target, double max_seconds, int max_conns) {
    static unsigned char buf[CHUNK_MAX];
    int64_t end = now_ns() + (int64_t)(max_seconds * 1e9);
    int accepted = 0;
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* wake on time, not up to 50 us late */
    set_nonblock(lfd);
    while (!g_stop && now_ns() < end) {
        struct pollfd pf[1 + 2 * MAX_PAIRS];
        int map[1 + 2 * MAX_PAIRS]; /* pollfd index -> pair*2+side */
        int np = 0, live = 0;
        int64_t t = now_ns(), wake = end;
        if (max_conns <= 0 || accepted < max_conns) {
            pf[np] = (struct pollfd){lfd, POLLIN, 0};
            map[np++] = -1;
        }
        for (int i = 0; i < MAX_PAIRS; i++) {
            if (!P[i].used) continue;
            live++;
            for (int s = 0; s < 2; s++) {
                /* side s's fd: readable for d[s], writable for d[1-s] */
                short ev = 0;
                dir *rd = &P[i].d[s], *wr = &P[i].d[1 - s];
                if (!rd->eof && rd->queued < QUEUE_LIMIT) ev |= POLLIN;
                if (wr->head) {
                    if (wr->head->due <= t)
                        ev |= POLLOUT;
                    else if (wr->head->due < wake)
                        wake = wr->head->due;
                }
                pf[np] = (struct pollfd){ev ? P[i].fd[s] : -1, ev, 0};
                map[np++] = i * 2 + s;
            }
        }
        if (max_conns > 0 && accepted >= max_conns && live == 0) break;
        int64_t wait = wake - t;
        if (wait < 0) wait = 0;
        if (wait > 100000000) wait = 100000000; /* 100 ms: re-check stop and end */
        struct timespec ts = {(time_t)(wait / 1000000000LL), (long)(wait % 1000000000LL)};
        int r = ppoll(pf, (nfds_t)np, &ts, NULL);
        if (r < 0) {
            if (errno == EINTR) continue;
            perror("ppoll");
            return 1;
        }
        t = now_ns();
        for (int k = 0; k < np; k++) {
            if (map[k] == -1) {
                if (!(pf[k].revents & POLLIN)) continue;
                for (int tries = 0; tries < 16; tries++) {
                    int cfd = accept(lfd, NULL, NULL);
                    if (cfd < 0) break;
                    int slot = -1;
                    for (int i = 0; i < MAX_PAIRS; i++)
                        if (!P[i].used) {
                            slot = i;
                            break;
                        }
                    int sfd = socket(AF_INET, SOCK_STREAM, 0);
                    if (slot < 0 || sfd < 0 ||
                        connect(sfd, (const struct sockaddr *)target, sizeof *target) < 0) {
                        close(cfd);
                        if (sfd >= 0) close(sfd);
                        continue;
                    }
                    accepted++;
                    nodelay(cfd);
                    nodelay(sfd);
                    set_nonblock(cfd);
                    set_nonblock(sfd);
                    pair *p = &P[slot];
                    memset(p, 0, sizeof *p);
                    p->used = 1;
                    p->fd[0] = cfd;
                    p->fd[1] = sfd;
                    p->d[0].from = cfd;
                    p->d[0].to = sfd;
                    p->d[1].from = sfd;
                    p->d[1].to = cfd;
                }
                continue;
            }
            pair *p = &P[map[k] / 2];
            int s = map[k] % 2;
            if (!p->used) continue;
            int bad = 0;
            if (pf[k].revents & (POLLIN | POLLHUP | POLLERR))
                if (!p->d[s].eof && read_side(&p->d[s], buf) < 0) bad = 1;
            if (!bad && (pf[k].revents & POLLOUT) && write_side(&p->d[1 - s], t) < 0) bad = 1;
            if (bad) close_pair(p);
        }
        /* also write what became due without a POLLOUT request (fresh chunks
         * with zero delay) and retire finished pairs */
        t = now_ns();
        for (int i = 0; i < MAX_PAIRS; i++) {
            if (!P[i].used) continue;
            if (write_side(&P[i].d[0], t) < 0 || write_side(&P[i].d[1], t) < 0) {
                close_pair(&P[i]);
                continue;
            }
            if (P[i].d[0].shut && P[i].d[1].shut) close_pair(&P[i]);
        }
    }
    for (int i = 0; i < MAX_PAIRS; i++)
        if (P[i].used) close_pair(&P[i]);
    return 0;
}

/* ---- selftest -------------------------------------------------------------- */

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quant(const double *v, int n, double q) {
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i + 1 >= n) return v[n - 1];
    return v[i] + (v[i + 1] - v[i]) * (pos - i);
}

/* Echo server for two connections, bounded in time. */
static void echo_child(int lfd, double max_seconds) {
    int fds[2] = {-1, -1};
    for (int i = 0; i < 2; i++) {
        fds[i] = accept(lfd, NULL, NULL);
        if (fds[i] < 0) _exit(1);
        nodelay(fds[i]);
    }
    unsigned char b[4096];
    int64_t end = now_ns() + (int64_t)(max_seconds * 1e9);
    int open_n = 2;
    while (open_n > 0 && now_ns() < end) {
        struct pollfd pf[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
        if (poll(pf, 2, 100) < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; i++) {
            if (fds[i] < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = recv(fds[i], b, sizeof b, 0);
            if (n <= 0) {
                close(fds[i]);
                fds[i] = -1;
                open_n--;
                continue;
            }
            if (send(fds[i], b, (size_t)n, MSG_NOSIGNAL) != n) _exit(1);
        }
    }
    _exit(0);
}

static int connect_port(int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < 200; i++) { /* up to 2 s for the listener */
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) return -1;
        if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
            nodelay(fd);
            return fd;
        }
        close(fd);
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return -1;
}

static double ping(int fd) {
    unsigned char b[64];
    memset(b, 'p', sizeof b);
    int64_t t = now_ns();
    if (send(fd, b, sizeof b, MSG_NOSIGNAL) != (ssize_t)sizeof b) return -1;
    size_t got = 0;
    while (got < sizeof b) {
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, 5000) <= 0) return -1; /* bounded: 5 s */
        ssize_t n = recv(fd, b + got, sizeof b - got, 0);
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    return (double)(now_ns() - t) / 1e6;
}

static int selftest(double rtt_ms, int pings) {
    struct sockaddr_in lo;
    parse_addr("127.0.0.1:0", &lo);
    int eport, pport;
    int efd = listen_on(&lo, &eport);
    int pfd = listen_on(&lo, &pport);
    if (efd < 0 || pfd < 0) {
        perror("listen");
        return 1;
    }
    double budget = 30.0 + (double)pings * (rtt_ms + 1.0) / 1000.0;
    pid_t echo = fork();
    if (echo == 0) {
        close(pfd);
        echo_child(efd, budget);
    }
    pid_t prox = fork();
    if (prox == 0) {
        close(efd);
        struct sockaddr_in tgt = lo;
        tgt.sin_port = htons((uint16_t)eport);
        g_delay_ns = (int64_t)(rtt_ms * 1e6 / 2);
        _exit(run_proxy(pfd, &tgt, budget, 1));
    }
    close(efd);
    close(pfd);
    int dfd = connect_port(eport), xfd = connect_port(pport);
    if (dfd < 0 || xfd < 0) {
        fprintf(stderr, "selftest: connect failed\n");
        return 1;
    }
    double *d = malloc((size_t)pings * sizeof *d), *x = malloc((size_t)pings * sizeof *x);
    int rc = 0;
    if (!d || !x) return 1;
    for (int i = 0; i < 50; i++) /* warm-up */
        if (ping(dfd) < 0 || ping(xfd) < 0) rc = 1;
    for (int i = 0; i < pings && !rc; i++) {
        if (i % 2) {
            d[i] = ping(dfd);
            x[i] = ping(xfd);
        } else {
            x[i] = ping(xfd);
            d[i] = ping(dfd);
        }
        if (d[i] < 0 || x[i] < 0) rc = 1;
    }
    close(dfd);
    close(xfd);
    waitpid(prox, NULL, 0);
    waitpid(echo, NULL, 0);
    if (rc) {
        fprintf(stderr, "selftest: a ping failed\n");
        return 1;
    }
    qsort(d, (size_t)pings, sizeof *d, cmp_d);
    qsort(x, (size_t)pings, sizeof *x, cmp_d);
    double dm = quant(d, pings, 0.5), xm = quant(x, pings, 0.5);
    printf("ixproxy selftest: %d pings of 64 bytes, added RTT %.3f ms\n", pings, rtt_ms);
    printf("  direct        median %8.3f ms  IQR %7.3f ms\n", dm,
           quant(d, pings, 0.75) - quant(d, pings, 0.25));
    printf("  through proxy median %8.3f ms  IQR %7.3f ms\n", xm,
           quant(x, pings, 0.75) - quant(x, pings, 0.25));
    printf("  proxy overhead (median proxied - direct - added RTT): %.3f ms\n", xm - dm - rtt_ms);
    free(d);
    free(x);
    return 0;
}

static void usage(void) {
    fprintf(stderr, "usage: ixproxy --target 127.0.0.1:PORT [--listen 127.0.0.1:0] "
                    "[--rtt-ms R] [--mbit N] [--port-file F] [--max-seconds S] "
                    "[--max-conns N]\n       ixproxy --selftest [--rtt-ms R] [--pings N]\n");
}

int main(int argc, char **argv) {
    const char *listen_s = "127.0.0.1:0", *target_s = NULL, *port_file = NULL;
    double rtt_ms = 0, mbit = 0, max_seconds = 7200;
    int max_conns = 0, self = 0, pings = 2000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--selftest") == 0) {
            self = 1;
            continue;
        }
        if (!v) {
            usage();
            return 2;
        }
        i++;
        if (strcmp(a, "--listen") == 0)
            listen_s = v;
        else if (strcmp(a, "--target") == 0)
            target_s = v;
        else if (strcmp(a, "--rtt-ms") == 0)
            rtt_ms = atof(v);
        else if (strcmp(a, "--mbit") == 0)
            mbit = atof(v);
        else if (strcmp(a, "--port-file") == 0)
            port_file = v;
        else if (strcmp(a, "--max-seconds") == 0)
            max_seconds = atof(v);
        else if (strcmp(a, "--max-conns") == 0)
            max_conns = atoi(v);
        else if (strcmp(a, "--pings") == 0)
            pings = atoi(v);
        else {
            usage();
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    if (rtt_ms < 0 || mbit < 0 || pings < 1 || pings > 1000000 || max_seconds <= 0) {
        usage();
        return 2;
    }
    if (self) return selftest(rtt_ms, pings);
    struct sockaddr_in la, ta;
    if (!target_s || parse_addr(listen_s, &la) < 0 || parse_addr(target_s, &ta) < 0) {
        usage();
        return 2;
    }
    g_delay_ns = (int64_t)(rtt_ms * 1e6 / 2);
    g_ns_per_byte = mbit > 0 ? 8e3 / mbit : 0; /* 8 bits / (mbit * 1e6 bit/s) in ns */
    int port;
    int lfd = listen_on(&la, &port);
    if (lfd < 0) {
        perror("ixproxy: listen");
        return 1;
    }
    if (port_file) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s.tmp", port_file);
        FILE *f = fopen(tmp, "w");
        if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 || rename(tmp, port_file) < 0) {
            perror("ixproxy: port file");
            return 1;
        }
    } else {
        printf("%d\n", port);
        fflush(stdout);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    return run_proxy(lfd, &ta, max_seconds, max_conns);
}
