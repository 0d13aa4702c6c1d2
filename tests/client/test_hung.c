/* test_hung.c: a server that stops answering. TCP keepalive is on by
 * default (and configurable), so a dead host or network ends a wait; a
 * server process that is stopped (SIGSTOP) while its host answers the
 * probes is bounded by read_timeout, which ends the call with IX_ETIMEOUT
 * on time. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int sockopt(ix_conn *c, int level, int name) {
    int v = -1;
    socklen_t l = sizeof v;
    if (getsockopt(c->tr->fd, level, name, &v, &l) != 0) return -1;
    return v;
}

static ix_conn *open_with(const char *extra) {
    char dsn[400];
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d user=informix password=in4mix %s", P.port,
             extra);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "connect (%s): %s", extra, ix_errmsg(c));
    return c;
}

int main(void) {
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    ix_conn *c = open_with("");
    CHECK(sockopt(c, SOL_SOCKET, SO_KEEPALIVE) == 1, "keepalive is on by default");
    CHECK(sockopt(c, IPPROTO_TCP, TCP_KEEPIDLE) == 60, "first probe after 60 s idle");
    CHECK(sockopt(c, IPPROTO_TCP, TCP_KEEPINTVL) == 10 && sockopt(c, IPPROTO_TCP, TCP_KEEPCNT) == 6,
          "then every 10 s, 6 probes");
    ix_close(c);
    c = open_with("keepalive=5");
    CHECK(sockopt(c, IPPROTO_TCP, TCP_KEEPIDLE) == 5, "keepalive=5");
    ix_close(c);
    c = open_with("keepalive=0");
    CHECK(sockopt(c, SOL_SOCKET, SO_KEEPALIVE) == 0, "keepalive=0 turns it off");
    ix_close(c);
    c = NULL;
    CHECK(ix_connect(&c, "host=127.0.0.1 port=1 keepalive=-1") == IX_EINVAL, "a bad value");
    ix_close(c);

    /* A stopped server: read_timeout bounds the wait. */
    c = open_with(""); /* the login itself is not what is timed */
    ix_set_read_timeout(c, 500);
    ixd_sigstop(&P);
    double t0 = now_s();
    int rc = ix_exec(c, "create database hung");
    double t = now_s() - t0;
    kill(P.pid, SIGCONT);
    CHECK(rc == IX_ETIMEOUT && ix_conn_is_dead(c), "a stopped server: IX_ETIMEOUT (%d %s)", rc,
          ix_errmsg(c));
    CHECK(t >= 0.45 && t < 2.0, "after the read timeout (%.2f s)", t);
    ix_close(c);
    c = open_with("");
    CHECK(ix_exec(c, "create database after") == IX_OK, "the server works again: %s", ix_errmsg(c));
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
