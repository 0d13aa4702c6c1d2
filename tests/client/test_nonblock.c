/* test_nonblock.c: libixdb's non-blocking core (include/ixdb.h,
 * "non-blocking") against real ixd processes, driven from a poll() loop:
 * ix_connect_start / ix_connect_poll (plain, a sqlhosts group whose first
 * member refuses, TLS), a SELECT of a few thousand rows read with
 * ix_send_prepare / ix_send_execute / ix_consume_input / ix_is_busy /
 * ix_step, statements without rows, pipelined batches (one with refused
 * rows), errors arriving in non-blocking mode (-206, -201), ix_cancel from
 * the loop (-213), a server killed while a reply is awaited (IX_ECONN, no
 * hang), and blocking calls in non-blocking mode. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define AUTH  "user=informix password=in4mix"
#define NROWS 3000

static ixd_proc P;
static char dsn[300], dbdsn[340];
static int waits; /* IX_WANT_* answers seen by wait_for */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits (at most 5 s, or ix_timeout_ms) for what rc asks for on c. */
static void wait_for(ix_conn *c, int rc) {
    waits++;
    int fd = ix_socket(c), ms = ix_timeout_ms(c);
    if (ms < 0 || ms > 5000) ms = 5000;
    if (rc == IX_WANT_TIMER || fd < 0) {
        poll(NULL, 0, ms);
        return;
    }
    struct pollfd pf = {fd, (short)(rc == IX_WANT_WRITE ? POLLIN | POLLOUT : POLLIN), 0};
    poll(&pf, 1, ms);
}

static int is_want(int rc) {
    return rc == IX_WANT_READ || rc == IX_WANT_WRITE || rc == IX_WANT_TIMER;
}

/* ix_connect_start + ix_connect_poll in a poll() loop. */
static int connect_nb(ix_conn **c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int connect_nb(ix_conn **c, const char *fmt, ...) {
    char d[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d, sizeof d, fmt, ap);
    va_end(ap);
    int rc = ix_connect_start(d, c);
    while (rc == IX_OK) {
        rc = ix_connect_poll(*c);
        if (!is_want(rc)) break;
        wait_for(*c, rc);
        rc = IX_OK;
    }
    return rc;
}

/* Runs a completion call until it stops asking to wait; the loop feeds the
 * connection with ix_flush / ix_consume_input. */
#define NB_RUN(c, rcvar, call)                                                                     \
    do {                                                                                           \
        double t0_ = now_s();                                                                      \
        while (is_want(rcvar = (call)) && now_s() - t0_ < 20) {                                    \
            wait_for(c, rcvar);                                                                    \
            int io_ = rcvar == IX_WANT_WRITE ? ix_flush(c) : IX_OK;                                \
            if (io_ == IX_OK || io_ == IX_WANT_WRITE) io_ = ix_consume_input(c);                   \
            if (io_ != IX_OK) break;                                                               \
        }                                                                                          \
    } while (0)

static int free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t l = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &l) != 0)
        return -1;
    close(fd); /* nobody listens: connecting is refused */
    return ntohs(a.sin_port);
}

static int bind_one(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    return ix_bind_int64(s, 1, row) == IX_OK ? 0 : -1;
}

static int bind_id(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    int rc = ix_bind_int64(s, 1, row + 1);
    if (rc == IX_OK) rc = ix_bind_int64(s, 2, (row + 1) * 3);
    return rc == IX_OK ? 0 : -1;
}

/* 1, 2, 2, 3: the second 2 is refused by the unique index. */
static int bind_dup(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    static const int v[] = {1, 2, 2, 3};
    return ix_bind_int(s, 1, v[row]) == IX_OK ? 0 : -1;
}

static void test_connect(void) {
    ix_conn *c = NULL;
    waits = 0;
    int rc = connect_nb(&c, "host=127.0.0.1 port=%d " AUTH, P.port);
    CHECK(rc == IX_OK, "connect_poll: rc=%d %s", rc, ix_errmsg(c));
    CHECK(waits > 0, "the login asked the loop to wait (%d times)", waits);
    CHECK(ix_is_nonblocking(c) == 1, "a started connection is non-blocking");
    CHECK(ix_socket(c) >= 0, "a socket to poll");
    CHECK(ix_connect_poll(c) == IX_OK, "poll after the login: IX_OK again");
    if (rc == IX_OK) {
        rc = ix_exec(c, "create database nbdb with log");
        CHECK(rc == IX_OK, "a blocking call in non-blocking mode waits: %s", ix_errmsg(c));
    }
    ix_close(c);

    /* a server that refuses: the error ix_connect gives */
    int dead = free_port();
    rc = connect_nb(&c, "host=127.0.0.1 port=%d " AUTH, dead);
    CHECK(rc == IX_ECONN, "refused: IX_ECONN (%d: %s)", rc, ix_errmsg(c));
    CHECK(ix_socket(c) == -1, "no socket after the failure");
    ix_close(c);

    /* a sqlhosts group whose first member refuses */
    char path[300];
    snprintf(path, sizeof path, "%s/sqlhosts", P.dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "g_nb group - - i=1\n");
    fprintf(f, "down onsoctcp 127.0.0.1 %d g=g_nb\n", dead);
    fprintf(f, "ixd onsoctcp 127.0.0.1 %d g=g_nb\n", P.port);
    fclose(f);
    rc = connect_nb(&c, "server=g_nb sqlhosts=%s " AUTH, path);
    CHECK(rc == IX_OK, "group: rc=%d %s", rc, ix_errmsg(c));
    char want[64];
    snprintf(want, sizeof want, "ixd@127.0.0.1:%d", P.port);
    CHECK(strcmp(ix_conn_server(c), want) == 0, "the second member answered: %s",
          ix_conn_server(c));
    ix_close(c);

    /* INFORMIXCONRETRY against a refusing port: rounds waited for with IX_WANT_TIMER */
    setenv("INFORMIXCONTIME", "1", 1);
    setenv("INFORMIXCONRETRY", "1", 1);
    double t0 = now_s();
    char d[200];
    snprintf(d, sizeof d, "host=127.0.0.1 port=%d " AUTH, dead);
    rc = ix_connect_start(d, &c);
    int timers = 0;
    while (rc == IX_OK) {
        rc = ix_connect_poll(c);
        if (!is_want(rc)) break;
        timers += rc == IX_WANT_TIMER;
        wait_for(c, rc);
        rc = IX_OK;
    }
    double dt = now_s() - t0;
    CHECK(rc == IX_ECONN || rc == IX_ETIMEOUT, "retries spent: %d %s", rc, ix_errmsg(c));
    CHECK(timers > 0 && dt > 0.8 && dt < 3, "the second round came after a timer (%d, %.2f s)",
          timers, dt);
    CHECK(strstr(ix_errmsg(c), "2 attempts") != NULL, "two attempts: %s", ix_errmsg(c));
    ix_close(c);
    unsetenv("INFORMIXCONTIME");
    unsetenv("INFORMIXCONRETRY");
}

/* A server that accepts the TCP connection and never answers the login:
 * read_timeout bounds each wait of the login, as before the login became a
 * state machine (connect_timeout, 30 s by default, bounds the whole). */
static void test_silent_login(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t l = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &l) != 0 || listen(fd, 4) != 0) {
        CHECK(0, "listening socket");
        return;
    }
    char d[200];
    snprintf(d, sizeof d, "host=127.0.0.1 port=%d read_timeout=1 " AUTH, ntohs(a.sin_port));
    for (int nb = 0; nb < 2; nb++) {
        ix_conn *c = NULL;
        double t0 = now_s();
        int rc = nb ? connect_nb(&c, "%s", d) : ix_connect(&c, d);
        double dt = now_s() - t0;
        CHECK(rc == IX_ETIMEOUT && dt > 0.8 && dt < 3,
              "%s: read_timeout ends the login: %d %.2f s %s", nb ? "connect_poll" : "ix_connect",
              rc, dt, ix_errmsg(c));
        ix_close(c);
    }
    close(fd);
}

static void test_tls(void) {
    char cdir[] = "/tmp/ixdbnbtls.XXXXXX";
    if (!mkdtemp(cdir)) return;
    char cmd[1200], cert[300], key[300];
    snprintf(cert, sizeof cert, "%s/cert.pem", cdir);
    snprintf(key, sizeof key, "%s/key.pem", cdir);
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
             "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout %s -out %s "
             ">/dev/null 2>&1",
             key, cert);
    if (system(cmd) != 0) {
        printf("# openssl cannot make a certificate; TLS skipped\n");
        return;
    }
    ixd_proc T;
    const char *args[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    if (ixd_start_args(&T, NULL, args) != 0) {
        CHECK(0, "TLS ixd did not start");
        return;
    }
    ix_conn *c = NULL;
    waits = 0;
    int rc = connect_nb(&c, "host=localhost port=%d tls=1 tls_ca=%s " AUTH, T.port, cert);
    CHECK(rc == IX_OK, "TLS connect_poll: rc=%d %s", rc, ix_errmsg(c));
    CHECK(waits >= 1, "the handshake and the login were waited for (%d)", waits);
    ix_stmt *s = NULL;
    rc = ix_send_prepare(c, "create database tlsnb", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_execute(s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_execute_result(s));
    CHECK(rc == IX_DONE, "a statement over TLS: %d %s", rc, ix_errmsg(c));
    ix_finalize(s);
    rc = ix_send_prepare(c, "select count(*) from systables", IX_NTS, 0, &s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_step(s));
    CHECK(rc == IX_ROW && ix_column_int(s, 0) > 0, "a query over TLS: %d %s", rc, ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);
    rc = connect_nb(&c, "host=localhost port=%d tls=1 " AUTH, T.port);
    CHECK(rc == IX_ETLS, "an unknown CA fails the handshake: %d %s", rc, ix_errmsg(c));
    ix_close(c);
    ixd_stop(&T, SIGTERM);
    ixd_rmdir(&T);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cdir);
    if (system(cmd) != 0) printf("# cannot remove %s\n", cdir);
}

static void test_batch_and_select(ix_conn *c) {
    int rc = ix_exec(c, "create table t (id integer, v integer)");
    CHECK(rc == IX_OK, "create table: %s", ix_errmsg(c));
    ix_stmt *s = NULL;
    rc = ix_send_prepare(c, "insert into t values (?, ?)", IX_NTS, 0, &s);
    CHECK(rc == IX_OK, "send_prepare insert: %s", ix_errmsg(c));
    rc = ix_send_batch(s, NROWS, bind_id, NULL);
    CHECK(rc == IX_OK, "send_batch: %d %s", rc, ix_errmsg(c));
    int64_t nf = -1;
    NB_RUN(c, rc, ix_batch_result(s, NULL, &nf));
    CHECK(rc == IX_OK && nf == 0, "batch result: %d %lld %s", rc, (long long)nf, ix_errmsg(c));
    CHECK(ix_changes(s) == NROWS, "batch changes: %lld", (long long)ix_changes(s));
    CHECK(ix_batch_replied(s) == NROWS, "every row answered");
    ix_finalize(s);

    /* the SELECT: sent, then read with consume/is_busy/step */
    rc = ix_send_prepare(c, "select id, v from t order by id", IX_NTS, 0, &s);
    CHECK(rc == IX_OK, "send_prepare select: %s", ix_errmsg(c));
    CHECK(ix_stmt_set_fetch_buffer(s, 4096) == IX_OK, "small batches: many round trips");
    /* no read-ahead: each next batch is asked for when the last is read, so
     * ix_step must say IX_WANT_* however fast the server is */
    CHECK(ix_stmt_set_readahead(s, 0) == IX_OK, "no read-ahead");
    rc = ix_send_execute(s);
    CHECK(rc == IX_OK, "send_execute: %s", ix_errmsg(c));
    CHECK(ix_is_busy(c) == 1 && ix_stmt_busy(s) == 1, "busy while the reply is on its way");
    CHECK(ix_execute_result(s) == IX_WANT_READ || ix_execute_result(s) == IX_WANT_WRITE ||
              ix_execute_result(s) == IX_OK,
          "the completion call does not wait");
    double t0 = now_s();
    while (ix_stmt_busy(s) && now_s() - t0 < 10) {
        if (ix_flush(c) == IX_WANT_WRITE) wait_for(c, IX_WANT_WRITE);
        wait_for(c, IX_WANT_READ);
        rc = ix_consume_input(c);
        if (rc != IX_OK) break;
    }
    rc = ix_execute_result(s);
    CHECK(rc == IX_OK, "execute_result: a cursor (%d %s)", rc, ix_errmsg(c));
    CHECK(ix_column_count(s) == 2 && strcmp(ix_column_name(s, 1), "v") == 0,
          "the describe without I/O");
    /* ixd is stopped while the first batch is read: the step past it must
     * say IX_WANT_READ at once (a fast server could otherwise answer each
     * next request before ix_step looks, and no IX_WANT_* would be seen) */
    ixd_sigstop(&P);
    int stopped = 1;
    int64_t n = 0, sum = 0, bad = 0, wants = 0;
    for (;;) {
        double ts = now_s();
        rc = ix_step(s);
        if (rc == IX_ROW) {
            n++;
            sum += ix_column_int64(s, 1);
            bad += ix_column_int64(s, 0) != n;
            continue;
        }
        if (!is_want(rc)) break;
        wants++;
        if (stopped) {
            CHECK(rc == IX_WANT_READ && n > 0 && n < NROWS && now_s() - ts < 1,
                  "the step past the first batch does not wait: %d after %lld rows (%.2f s)", rc,
                  (long long)n, now_s() - ts);
            kill(P.pid, SIGCONT);
            stopped = 0;
        }
        wait_for(c, rc);
        if (ix_consume_input(c) != IX_OK) break;
    }
    if (stopped) kill(P.pid, SIGCONT);
    CHECK(rc == IX_DONE, "the cursor ends: %d %s", rc, ix_errmsg(c));
    CHECK(n == NROWS && bad == 0 && sum == 3 * (int64_t)NROWS * (NROWS + 1) / 2,
          "every row in order: %lld rows, %lld out of order", (long long)n, (long long)bad);
    CHECK(wants > 0, "ix_step returned IX_WANT_* instead of waiting (%lld)", (long long)wants);
    ix_finalize(s);

    /* a statement without rows; then ix_step on a fresh statement sends it */
    rc = ix_send_prepare(c, "update t set v = v + 1 where id <= 10", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_execute(s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_execute_result(s));
    CHECK(rc == IX_DONE && ix_changes(s) == 10, "update: %d changes %lld %s", rc,
          (long long)ix_changes(s), ix_errmsg(c));
    ix_finalize(s);
    rc = ix_send_prepare(c, "select count(*) from t where v > id * 3", IX_NTS, 0, &s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_step(s));
    CHECK(rc == IX_ROW && ix_column_int(s, 0) == 10, "ix_step sends the execution: %d %d", rc,
          rc == IX_ROW ? ix_column_int(s, 0) : -1);
    ix_finalize(s);

    /* two statements in flight at once: replies come in order */
    ix_stmt *a = NULL, *b = NULL;
    rc = ix_send_prepare(c, "select count(*) from t", IX_NTS, 0, &a);
    if (rc == IX_OK) rc = ix_send_execute(a);
    if (rc == IX_OK) rc = ix_send_prepare(c, "select max(id) from t", IX_NTS, 0, &b);
    if (rc == IX_OK) rc = ix_send_execute(b);
    CHECK(rc == IX_OK, "two statements queued: %s", ix_errmsg(c));
    NB_RUN(c, rc, ix_step(b));
    CHECK(rc == IX_ROW && ix_column_int(b, 0) == NROWS, "the second first: %d", rc);
    NB_RUN(c, rc, ix_step(a));
    CHECK(rc == IX_ROW && ix_column_int(a, 0) == NROWS, "then the first: %d", rc);
    ix_finalize(a);
    ix_finalize(b);

    /* ix_prepare_result: describe only */
    rc = ix_send_prepare(c, "select id, v, id + v as w from t", IX_NTS, 0, &s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_prepare_result(s));
    CHECK(rc == IX_OK && ix_column_count(s) == 3, "prepare_result: %d %s", rc, ix_errmsg(c));
    ix_finalize(s);
}

static void test_errors(ix_conn *c) {
    ix_stmt *s = NULL;
    int rc = ix_send_prepare(c, "select * from no_such_table", IX_NTS, 0, &s);
    CHECK(rc == IX_OK, "an unknown table is only queued: %s", ix_errmsg(c));
    if (rc == IX_OK) rc = ix_send_execute(s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_execute_result(s));
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -206, "-206 at the completion: %d %d %s", rc,
          ix_sqlcode(c), ix_errmsg(c));
    CHECK(strstr(ix_errmsg(c), "no_such_table") != NULL, "the message names it: %s", ix_errmsg(c));
    ix_finalize(s);
    rc = ix_send_prepare(c, "create table t2 (x integer) extra words", IX_NTS, 0, &s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_prepare_result(s));
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -201, "-201 from a PREPARE sent at once: %d %d", rc,
          ix_sqlcode(c));
    ix_finalize(s);

    /* a batch with a refused row */
    CHECK(ix_exec(c, "create table u (x integer)") == IX_OK, "create u");
    CHECK(ix_exec(c, "create unique index ux on u (x)") == IX_OK, "unique index");
    rc = ix_send_prepare(c, "insert into u values (?)", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_batch(s, 4, bind_dup, NULL);
    int codes[4] = {9, 9, 9, 9};
    int64_t nf = 0;
    if (rc == IX_OK) NB_RUN(c, rc, ix_batch_result(s, codes, &nf));
    CHECK(rc == IX_ESQL && nf == 1 && codes[0] == 0 && codes[2] < 0 && codes[3] == 0,
          "refused row 2: %d nf=%lld codes %d %d %d %d", rc, (long long)nf, codes[0], codes[1],
          codes[2], codes[3]);
    ix_finalize(s);
    /* the connection is fine after the errors */
    rc = ix_send_prepare(c, "select count(*) from u", IX_NTS, 0, &s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_step(s));
    CHECK(rc == IX_ROW && ix_column_int(s, 0) == 3, "three rows in u: %d", rc);
    ix_finalize(s);
    CHECK(ix_send_execute(NULL) == IX_EMISUSE, "NULL statement");
}

/* A reply that arrives while only ix_flush is called is decoded by it:
 * nothing may sit in the library's buffer while the socket is quiet, or an
 * event loop that waits for readability before a completion call would
 * wait for ever. */
static void test_flush_decodes(ix_conn *c) {
    ix_stmt *s = NULL;
    int rc = ix_send_prepare(c, "select count(*) from u", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_execute(s);
    double until = now_s() + 10;
    while (rc >= 0 && ix_is_busy(c) && now_s() < until) {
        rc = ix_flush(c);
        struct pollfd pf = {.fd = ix_socket(c), .events = POLLIN};
        poll(&pf, 1, 20);
    }
    CHECK(rc >= 0 && !ix_is_busy(c), "ix_flush alone completes the reply: rc %d busy %d", rc,
          ix_is_busy(c));
    if (rc >= 0) rc = ix_execute_result(s);
    CHECK(rc == IX_OK, "the cursor is open without another read: %d", rc);
    if (rc == IX_OK) NB_RUN(c, rc, ix_step(s));
    CHECK(rc == IX_ROW && ix_column_int(s, 0) == 3, "and its row is there: %d", rc);
    ix_finalize(s);
}

static void test_cancel(ix_conn *c) {
    int rc = ix_exec(c, "create table n (i integer)");
    ix_stmt *s = NULL;
    if (rc == IX_OK) rc = ix_send_prepare(c, "insert into n values (?)", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_batch(s, 2000, bind_one, NULL);
    int64_t nf = 0;
    if (rc == IX_OK) NB_RUN(c, rc, ix_batch_result(s, NULL, &nf));
    CHECK(rc == IX_OK, "2000 rows in n: %s", ix_errmsg(c));
    ix_finalize(s);
    rc = ix_send_prepare(c, "select count(*) from n a, n b, n c", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_execute(s);
    double t0 = now_s(), tc = 0;
    while (rc == IX_OK || is_want(rc)) {
        rc = ix_step(s);
        if (!is_want(rc) || now_s() - t0 > 20) break;
        if (!tc && now_s() - t0 > 0.3) {
            CHECK(ix_cancel(c) == IX_OK, "ix_cancel from the loop");
            tc = now_s();
        }
        struct pollfd pf = {ix_socket(c), POLLIN, 0};
        poll(&pf, 1, 50);
        if (ix_consume_input(c) != IX_OK) break;
    }
    if (ixd_test_strict()) { /* no interrupt: the cancel closed the connection */
        CHECK(ix_conn_is_dead(c) && strstr(ix_errmsg(c), "cancelled"), "closed: %d %s", rc,
              ix_errmsg(c));
        CHECK(tc > 0 && now_s() - tc < 3, "at once (%.2f)", now_s() - tc);
        ix_finalize(s);
        return;
    }
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == IX_SQLCODE_INTERRUPTED, "-213: %d %d %s", rc,
          ix_sqlcode(c), ix_errmsg(c));
    CHECK(tc > 0 && now_s() - tc < 3, "the cancel was answered within 3 s (%.2f)", now_s() - tc);
    ix_finalize(s);
    rc = ix_send_prepare(c, "select count(*) from n", IX_NTS, 0, &s);
    if (rc == IX_OK) NB_RUN(c, rc, ix_step(s));
    CHECK(rc == IX_ROW && ix_column_int(s, 0) == 2000, "usable after the cancel: %d", rc);
    ix_finalize(s);
}

static void test_killed(void) {
    ixd_proc K;
    if (ixd_start(&K, NULL, NULL) != 0) {
        CHECK(0, "second ixd did not start");
        return;
    }
    ix_conn *c = NULL;
    int rc = connect_nb(&c, "host=127.0.0.1 port=%d " AUTH, K.port);
    CHECK(rc == IX_OK, "connect: %s", ix_errmsg(c));
    rc = ix_exec(c, "create database kdb");
    if (rc == IX_OK) rc = ix_exec(c, "database kdb");
    if (rc == IX_OK) rc = ix_exec(c, "create table n (i integer)");
    ix_stmt *s = NULL;
    if (rc == IX_OK) rc = ix_send_prepare(c, "insert into n values (?)", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_batch(s, 2000, bind_one, NULL);
    int64_t nf = 0;
    if (rc == IX_OK) NB_RUN(c, rc, ix_batch_result(s, NULL, &nf));
    ix_finalize(s);
    s = NULL;
    if (rc == IX_OK) rc = ix_send_prepare(c, "select count(*) from n a, n b, n c", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_execute(s);
    CHECK(rc == IX_OK, "the long query is sent: %s", ix_errmsg(c));
    double t0 = now_s(), tk = 0;
    while (rc == IX_OK || is_want(rc)) {
        rc = ix_step(s);
        if (!is_want(rc) || now_s() - t0 > 20) break;
        if (!tk && now_s() - t0 > 0.2) {
            ixd_stop(&K, SIGKILL);
            tk = now_s();
        }
        struct pollfd pf = {ix_socket(c), POLLIN, 0};
        poll(&pf, 1, 50);
        rc = ix_consume_input(c);
        if (rc != IX_OK) break;
    }
    CHECK(rc == IX_ECONN, "IX_ECONN after the kill: %d %s", rc, ix_errmsg(c));
    CHECK(tk > 0 && now_s() - tk < 3, "noticed at once (%.2f s)", now_s() - tk);
    CHECK(ix_step(s) == IX_ECONN && ix_is_busy(c) == 0 && ix_socket(c) == -1,
          "dead: every call says so");
    ix_finalize(s);
    ix_close(c);
    if (!tk) ixd_stop(&K, SIGKILL);
    ixd_rmdir(&K);
}

static void test_modes(void) {
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dbdsn);
    CHECK(rc == IX_OK && ix_is_nonblocking(c) == 0, "ix_connect: blocking");
    ix_stmt *s = NULL;
    CHECK(ix_send_prepare(c, "select 1 from systables", IX_NTS, 0, &s) == IX_EMISUSE,
          "ix_send_* needs non-blocking mode");
    CHECK(ix_set_nonblocking(c, 1) == IX_OK && ix_is_nonblocking(c) == 1, "switched on");
    rc = ix_send_prepare(c, "select count(*) from t", IX_NTS, 0, &s);
    if (rc == IX_OK) rc = ix_send_execute(s);
    /* switching off reads what is outstanding; then the blocking calls go on */
    CHECK(ix_set_nonblocking(c, 0) == IX_OK, "switched off: %s", ix_errmsg(c));
    rc = ix_step(s);
    CHECK(rc == IX_ROW && ix_column_int(s, 0) == NROWS, "the reply read while switching: %d", rc);
    ix_finalize(s);
    ix_close(c);
}

int main(void) {
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd did not start");
        return tap_done();
    }
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d " AUTH, P.port);
    snprintf(dbdsn, sizeof dbdsn, "%s database=nbdb", dsn);
    test_connect();
    test_silent_login();
    ix_conn *c = NULL;
    int rc = connect_nb(&c, "%s", dbdsn);
    CHECK(rc == IX_OK, "connect to nbdb: %s", ix_errmsg(c));
    if (rc == IX_OK) {
        test_batch_and_select(c);
        test_errors(c);
        test_flush_decodes(c);
        test_cancel(c);
    }
    ix_close(c);
    test_modes();
    test_tls();
    test_killed();
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
