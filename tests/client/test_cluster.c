/* test_cluster.c: clusters against real ixd processes. A redirecting ixd
 * (--redirect) in front of a real one, a redirect loop between two ixd,
 * sqlhosts groups (fail-over past a member that is down, c=1 random start,
 * k=0/k=1 keepalive), INFORMIXCONTIME and INFORMIXCONRETRY (a port that
 * accepts but never answers; a port that refuses), ix_conn_server. */
#include <arpa/inet.h>
#include <stdarg.h>
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
#include "proto/ix_login.h"
#include "tap.h"

#define AUTH "user=informix password=in4mix"

static ixd_proc REAL, REAL2;
static char DIR_[256];

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A loopback TCP socket bound to a free port; listening (backlog 1, never
 * accepted) when listen_it, else closed again so the port refuses. */
static int free_port(int listen_it, int *fd_out) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t l = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &l) != 0)
        return -1;
    if (listen_it) {
        listen(fd, 1);
        *fd_out = fd;
    } else {
        close(fd);
    }
    return ntohs(a.sin_port);
}

static int start_named(ixd_proc *p, const char *name, const char *redirect, const char *listen) {
    const char *extra[8] = {"--server-name", name};
    int n = 2;
    if (redirect) extra[n++] = "--redirect", extra[n++] = redirect;
    if (listen) extra[n++] = "--listen", extra[n++] = listen;
    extra[n] = NULL;
    return ixd_start_args(p, NULL, extra);
}

static int connect_dsn(ix_conn **c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int connect_dsn(ix_conn **c, const char *fmt, ...) {
    char dsn[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dsn, sizeof dsn, fmt, ap);
    va_end(ap);
    *c = NULL;
    return ix_connect(c, dsn);
}

static int sockopt(ix_conn *c, int level, int name) {
    int v = -1;
    socklen_t l = sizeof v;
    if (!c->tr || getsockopt(c->tr->fd, level, name, &v, &l) != 0) return -1;
    return v;
}

static void test_redirect_codec(void) {
    ixp_redirect_target t;
    const char *why = NULL;
    const char *ok = "redirect=srv_b|db2.example|9090";
    CHECK(ixp_redirect_parse((const uint8_t *)ok, strlen(ok), &t, &why) == IX_OK &&
              strcmp(t.server, "srv_b") == 0 && strcmp(t.host, "db2.example") == 0 &&
              t.port == 9090,
          "redirect detail parsed");
    const char *v6 = "x=s|::1|9088";
    CHECK(ixp_redirect_parse((const uint8_t *)v6, strlen(v6), &t, &why) == IX_OK &&
              strcmp(t.host, "::1") == 0,
          "an IPv6 host survives (split on '|' only)");
    const char *bad[] = {"x=s|h",    "x=s||1",    "x=s|h|0", "x=s|h|65536",
                         "x=s|h|9x", "x=s|h|1|2", "x=|h|1",  ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(ixp_redirect_parse((const uint8_t *)bad[i], strlen(bad[i]), &t, &why) ==
                  IX_EMALFORMED,
              "bad detail \"%s\" refused (%s)", bad[i], why ? why : "");
    CHECK(ixp_redirect_parse(NULL, 0, &t, &why) == IX_EMALFORMED, "no detail refused");
    char buf[IXP_REDIRECT_DETAIL_MAX];
    ixp_conacc a;
    snprintf(t.server, sizeof t.server, "srv_b");
    snprintf(t.host, sizeof t.host, "127.0.0.1");
    t.port = 9090;
    CHECK(ixp_redirect_defaults(&a, NULL, &t, buf, sizeof buf) == IX_OK &&
              a.sl_type == IXP_SL_REDIRECT && a.result == IXP_ASC_DBLIST,
          "ixp_redirect_defaults");
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    CHECK(ixp_conacc_encode(&a, &w) == IX_OK, "redirect encodes");
    ixp_conacc d;
    size_t used = 0, at = 0;
    CHECK(ixp_conacc_decode(w.data, w.len, NULL, &d, &used, &at, &why) == IX_OK &&
              d.sl_type == IXP_SL_REDIRECT &&
              ixp_redirect_parse(d.redirect.p, d.redirect.n, &t, &why) == IX_OK &&
              strcmp(t.server, "srv_b") == 0 && t.port == 9090,
          "redirect round trip");
    ixb_wbuf_free(&w);
}

static void test_redirect(void) {
    ixd_proc cm;
    char to[64];
    snprintf(to, sizeof to, "real@127.0.0.1:%d", REAL.port);
    if (start_named(&cm, "cm", to, NULL) != 0) {
        CHECK(0, "redirecting ixd does not start");
        return;
    }
    ix_conn *c;
    int rc = connect_dsn(&c, "host=127.0.0.1 port=%d server=cm " AUTH, cm.port);
    CHECK(rc == IX_OK, "connect through the redirect: %s", ix_errmsg(c));
    char want[64];
    snprintf(want, sizeof want, "real@127.0.0.1:%d", REAL.port);
    CHECK(strcmp(ix_conn_server(c), want) == 0, "ix_conn_server \"%s\" (want %s)",
          ix_conn_server(c), want);
    CHECK(strcmp(ix_server_name(c), "real") == 0, "the real server answered: %s",
          ix_server_name(c));
    CHECK(ix_exec(c, "create database clu") == IX_OK, "a statement on it: %s", ix_errmsg(c));
    ix_close(c);
    ixd_stop(&cm, SIGTERM);
    ixd_rmdir(&cm);

    /* HOST:PORT alone: the name the client asked for travels on. */
    snprintf(to, sizeof to, "127.0.0.1:%d", REAL.port);
    if (start_named(&cm, "real", to, NULL) != 0) {
        CHECK(0, "redirecting ixd (HOST:PORT) does not start");
        return;
    }
    rc = connect_dsn(&c, "host=127.0.0.1 port=%d server=real " AUTH, cm.port);
    CHECK(rc == IX_OK && strcmp(ix_conn_server(c), want) == 0, "HOST:PORT redirect: %s %s",
          ix_errmsg(c), ix_conn_server(c));
    ix_close(c);
    ixd_stop(&cm, SIGTERM);
    ixd_rmdir(&cm);
}

static void test_redirect_loop(void) {
    int p2 = free_port(0, NULL);
    ixd_proc a, b;
    char to[64], listen[64];
    snprintf(to, sizeof to, "b@127.0.0.1:%d", p2);
    if (start_named(&a, "a", to, NULL) != 0) {
        CHECK(0, "ixd a does not start");
        return;
    }
    snprintf(to, sizeof to, "a@127.0.0.1:%d", a.port);
    snprintf(listen, sizeof listen, "127.0.0.1:%d", p2);
    if (start_named(&b, "b", to, listen) != 0) {
        CHECK(0, "ixd b does not start");
        ixd_stop(&a, SIGTERM);
        return;
    }
    ix_conn *c;
    double t0 = now_s();
    int rc = connect_dsn(&c, "host=127.0.0.1 port=%d server=a " AUTH, a.port);
    CHECK(rc == IX_ECONN && strstr(ix_errmsg(c), "redirect loop"), "a loop is an error: %d %s", rc,
          ix_errmsg(c));
    CHECK(now_s() - t0 < 5, "and ends at once");
    CHECK(strcmp(ix_conn_server(c), "") == 0, "no server answered");
    ix_close(c);
    ixd_stop(&a, SIGTERM);
    ixd_stop(&b, SIGTERM);
    ixd_rmdir(&a);
    ixd_rmdir(&b);
}

static void write_sqlhosts(const char *path, int dead, const char *gopts, const char *k1,
                           const char *k2, int port2) {
    FILE *f = fopen(path, "w");
    fprintf(f, "g_clu group - - i=1%s%s\n", gopts[0] ? "," : "", gopts);
    fprintf(f, "dead onsoctcp 127.0.0.1 %d g=g_clu%s\n", dead, k1);
    fprintf(f, "real onsoctcp 127.0.0.1 %d g=g_clu%s\n", REAL.port, k2);
    if (port2) fprintf(f, "real2 onsoctcp 127.0.0.1 %d g=g_clu\n", port2);
    fclose(f);
}

static void test_groups(void) {
    char path[300];
    snprintf(path, sizeof path, "%s/sqlhosts", DIR_);
    int dead = free_port(0, NULL);
    write_sqlhosts(path, dead, "", "", "", 0);
    ix_conn *c;
    int rc = connect_dsn(&c, "server=g_clu sqlhosts=%s " AUTH, path);
    char want[64];
    snprintf(want, sizeof want, "real@127.0.0.1:%d", REAL.port);
    CHECK(rc == IX_OK && strcmp(ix_conn_server(c), want) == 0,
          "fail-over to the second member: %s (%s)", ix_conn_server(c), ix_errmsg(c));
    ix_close(c);

    /* k=0 on the member: no keepalive; k=1 turns it on even when the DSN
     * turned it off. */
    write_sqlhosts(path, dead, "", "", ",k=0", 0);
    rc = connect_dsn(&c, "server=g_clu sqlhosts=%s " AUTH, path);
    CHECK(rc == IX_OK && sockopt(c, SOL_SOCKET, SO_KEEPALIVE) == 0, "k=0: keepalive off");
    ix_close(c);
    write_sqlhosts(path, dead, "", "", ",k=1", 0);
    rc = connect_dsn(&c, "server=g_clu sqlhosts=%s keepalive=0 " AUTH, path);
    CHECK(rc == IX_OK && sockopt(c, SOL_SOCKET, SO_KEEPALIVE) == 1 &&
              sockopt(c, IPPROTO_TCP, TCP_KEEPIDLE) == 60,
          "k=1: keepalive on (60 s) over keepalive=0");
    ix_close(c);

    /* c=1 with two live members: both answer first over several connects. */
    write_sqlhosts(path, dead, "c=1", "", "", REAL2.port);
    int seen_real = 0, seen_real2 = 0, seen_other = 0;
    for (int i = 0; i < 24; i++) {
        rc = connect_dsn(&c, "server=g_clu sqlhosts=%s " AUTH, path);
        const char *m = ix_conn_server(c);
        if (rc == IX_OK && strncmp(m, "real@", 5) == 0)
            seen_real++;
        else if (rc == IX_OK && strncmp(m, "real2@", 6) == 0)
            seen_real2++;
        else
            seen_other++;
        ix_close(c);
    }
    CHECK(seen_real > 0 && seen_real2 > 0 && seen_other == 0,
          "c=1: both orders (real %d, real2 %d, other %d)", seen_real, seen_real2, seen_other);
    /* e=real: the member list ends there, real2 is never tried. */
    write_sqlhosts(path, dead, "c=1,e=real", "", "", REAL2.port);
    seen_real = 0;
    for (int i = 0; i < 16; i++) {
        rc = connect_dsn(&c, "server=g_clu sqlhosts=%s " AUTH, path);
        seen_real += rc == IX_OK && strncmp(ix_conn_server(c), "real@", 5) == 0;
        ix_close(c);
    }
    CHECK(seen_real == 16, "e=real ends the group (%d of 16 on real)", seen_real);
    /* Without c=1 the file order always wins. */
    write_sqlhosts(path, dead, "", "", "", REAL2.port);
    seen_real = 0;
    for (int i = 0; i < 6; i++) {
        rc = connect_dsn(&c, "server=g_clu sqlhosts=%s " AUTH, path);
        seen_real += rc == IX_OK && strncmp(ix_conn_server(c), "real@", 5) == 0;
        ix_close(c);
    }
    CHECK(seen_real == 6, "file order without c=1 (%d of 6)", seen_real);
    unlink(path);
}

static void test_contime(void) {
    int hole_fd = -1;
    int hole = free_port(1, &hole_fd);
    setenv("INFORMIXCONTIME", "1", 1);
    setenv("INFORMIXCONRETRY", "0", 1);
    ix_conn *c;
    double t0 = now_s();
    int rc = connect_dsn(&c, "host=127.0.0.1 port=%d " AUTH, hole);
    double dt = now_s() - t0;
    CHECK(rc == IX_ETIMEOUT && strstr(ix_errmsg(c), "INFORMIXCONTIME"),
          "a port that never answers: %d %s", rc, ix_errmsg(c));
    CHECK(dt > 0.8 && dt < 2.5, "bounded by INFORMIXCONTIME (%.2f s)", dt);
    ix_close(c);

    /* INFORMIXCONRETRY=2: attempts at 0, 0.5 and 1 s against a refusing port. */
    int refused = free_port(0, NULL);
    setenv("INFORMIXCONRETRY", "2", 1);
    t0 = now_s();
    rc = connect_dsn(&c, "host=127.0.0.1 port=%d " AUTH, refused);
    dt = now_s() - t0;
    CHECK(rc != IX_OK && strstr(ix_errmsg(c), "(3 attempts"), "3 attempts: %s", ix_errmsg(c));
    CHECK(dt > 0.9 && dt < 2.5, "spread over INFORMIXCONTIME (%.2f s)", dt);
    ix_close(c);
    unsetenv("INFORMIXCONTIME");
    unsetenv("INFORMIXCONRETRY");
    close(hole_fd);
}

int main(void) {
    test_redirect_codec();
    snprintf(DIR_, sizeof DIR_, "/tmp/ixclu.XXXXXX");
    if (!mkdtemp(DIR_) || start_named(&REAL, "real", NULL, NULL) != 0 ||
        start_named(&REAL2, "real2", NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    test_redirect();
    test_redirect_loop();
    test_groups();
    test_contime();
    ixd_stop(&REAL, SIGTERM);
    ixd_stop(&REAL2, SIGTERM);
    ixd_rmdir(&REAL);
    ixd_rmdir(&REAL2);
    rmdir(DIR_);
    return tap_done();
}
