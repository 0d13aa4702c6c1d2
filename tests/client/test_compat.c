/* test_compat.c: the request forms a connection uses (DSN key compat) against
 * a real ixd, and what must hold whichever forms go out: ixd is recognised
 * by its login accept (auto = fast there), conservative sends only verified
 * forms (round trips counted, deferred forms absent from the trace), NFETCH
 * sizes stay within what the server documents, ix_cancel without an
 * interrupt closes the connection at once, the watchdog ends a wait for the
 * reply to a request that runs no statement but never a statement's,
 * IX_PREPARE_NOW reports statement errors from ix_prepare_v2, no CLOSE goes
 * to an ANSI server for a cursor it has closed, the login never forwards
 * IFX_AUTOFREE / IFX_DEFERRED_PREPARE, and a batch stops at its first
 * refused row. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P, S; /* ixd, and ixd --strict (a conservative real server) */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static ix_conn *open_on(const ixd_proc *p, const char *extra) {
    char dsn[400];
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d user=informix password=in4mix %s", p->port,
             extra);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "connect (%s): %s", extra, ix_errmsg(c));
    return c;
}

static ix_conn *open_with(const char *extra) {
    return open_on(&P, extra);
}

/* Client-to-server trace lines, joined. */
typedef struct trace_buf {
    char text[65536];
    size_t len;
} trace_buf;

static void on_trace(void *ud, const char *line) {
    trace_buf *t = ud;
    if (strncmp(line, "C->S", 4) != 0) return;
    size_t n = strlen(line);
    if (t->len + n + 2 >= sizeof t->text) return;
    memcpy(t->text + t->len, line, n);
    t->len += n;
    t->text[t->len++] = '\n';
    t->text[t->len] = 0;
}

static int count_of(const trace_buf *t, const char *what) {
    int n = 0;
    for (const char *p = t->text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* Runs sql to its end; returns the round trips it took (-1: failed). */
static int64_t select_trips(ix_conn *c, const char *sql) {
    int64_t r0 = c->roundtrips;
    ix_stmt *s = NULL;
    if (ix_prepare(c, sql, IX_NTS, &s) != IX_OK) return -1;
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
    }
    int64_t n = rc == IX_DONE ? c->roundtrips - r0 : -1;
    ix_finalize(s);
    return n;
}

static void test_forms(void) {
    ix_conn *c = open_with("database=cdb");
    CHECK(c && strcmp(ix_conn_compat(c), "fast") == 0, "auto against ixd: fast (%s)",
          ix_conn_compat(c));
    CHECK(c && strstr(ix_conn_forms(c), "deferred_prepare") &&
              strstr(ix_conn_forms(c), "pipeline_login") &&
              strstr(ix_conn_forms(c), "urgent_cancel"),
          "auto against ixd: every form (%s)", ix_conn_forms(c));
    CHECK(c && c->roundtrips == 2, "fast login: 2 round trips (%lld)", (long long)c->roundtrips);
    CHECK(select_trips(c, "select * from t") == 1, "fast: a small SELECT in 1 round trip");
    ix_close(c);

    c = open_with("database=cdb compat=conservative");
    CHECK(c && strcmp(ix_conn_compat(c), "conservative") == 0, "compat=conservative (%s)",
          ix_conn_compat(c));
    CHECK(c && strcmp(ix_conn_forms(c), "open_fetch,fetch_1m") == 0,
          "verified forms only; a 14.10 banner allows 1 MiB fetches (%s)", ix_conn_forms(c));
    CHECK(c && c->roundtrips == 4, "conservative login: 4 round trips (%lld)",
          (long long)c->roundtrips);
    trace_buf *t = calloc(1, sizeof *t);
    ix_set_trace(c, on_trace, t);
    int64_t a = select_trips(c, "select * from t"), b = select_trips(c, "select * from t");
    CHECK(a == 2 && b == 2,
          "conservative: 2 round trips per small SELECT, also with the last "
          "one's CLOSE and RELEASE in front (%lld, %lld)",
          (long long)a, (long long)b);
    int64_t r0 = c->roundtrips;
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into t values (?)", IX_NTS, &s) == IX_OK, "prepare insert");
    ix_bind_int(s, 1, 5);
    CHECK(ix_step(s) == IX_DONE && c->roundtrips - r0 == 2, "first INSERT: 2 round trips (%lld)",
          (long long)(c->roundtrips - r0));
    ix_reset(s);
    r0 = c->roundtrips;
    CHECK(ix_step(s) == IX_DONE && c->roundtrips - r0 == 1, "next INSERT: 1 round trip");
    ix_finalize(s);
    CHECK(ix_begin(c) == IX_OK && ix_exec(c, "insert into t values (6)") == IX_OK &&
              ix_rollback(c) == IX_OK && ix_autocommit(c),
          "ROLLBACK WORK: %s", ix_errmsg(c));
    CHECK(ix_rollback(c) == IX_ESQL && ix_sqlcode(c) == IX_SQLCODE_NOT_IN_TXN,
          "-255 without a transaction (%d)", ix_sqlcode(c));
    ix_set_trace(c, NULL, NULL);
    CHECK(count_of(t, "SQ_RBWORK") == 0 && count_of(t, "rollback work") == 2,
          "conservative: ROLLBACK WORK as SQL text, not SQ_RBWORK");
    CHECK(count_of(t, "SQ_PREPARE") == 3, "traced: 3 PREPAREs (%d)", count_of(t, "SQ_PREPARE"));
    /* every PREPARE is followed by its own EOT: no deferred group */
    int deferred = 0;
    for (const char *p = t->text; (p = strstr(p, "SQ_PREPARE")) != NULL; p++) {
        const char *l2 = strchr(p, '\n');
        l2 = l2 ? strchr(l2 + 1, '\n') : NULL; /* NDESCRIBE */
        l2 = l2 ? strchr(l2 + 1, '\n') : NULL; /* WANTDONE */
        if (!l2 || strncmp(l2 + 1, "C->S SQ_EOT", 11) != 0) deferred++;
    }
    CHECK(deferred == 0, "conservative: no PREPARE shares its group (%d)", deferred);
    free(t);
    ix_close(c);

    c = open_with("database=cdb compat=fast pipeline_login=0 deferred_prepare=0");
    CHECK(c && strstr(ix_conn_forms(c), "urgent_cancel") && !strstr(ix_conn_forms(c), "deferred"),
          "a DSN key turns one form off (%s)", ix_conn_forms(c));
    ix_close(c);
    c = NULL;
    CHECK(ix_connect(&c, "host=127.0.0.1 port=1 compat=quick") == IX_EINVAL, "compat=quick: %s",
          ix_errmsg(c));
    ix_close(c);
}

static void test_fetch_sizes(void) {
    static const char *const banners[] = {"IBM Informix Dynamic Server Version 11.70.FC4",
                                          "IBM Informix Dynamic Server Version 11.50.UC9",
                                          "IBM Informix Dynamic Server Version 11.70.FC5",
                                          "IBM Informix Dynamic Server Version 12.10.FC1W2",
                                          "IBM Informix Dynamic Server Version 14.10.FC10",
                                          "something else"};
    static const int big[] = {0, 0, 1, 1, 1, 0};
    for (int i = 0; i < 6; i++)
        CHECK(ixc_banner_big_fetch(banners[i]) == big[i], "%s: %s", banners[i],
              big[i] ? "1 MiB" : "32767");
    ix_conn *c = open_with("database=cdb compat=conservative fetch_buffer=4000000");
    ix_stmt *s = NULL;
    ix_prepare(c, "select * from t", IX_NTS, &s);
    CHECK(ix_step(s) == IX_ROW && ix_stmt_fetch_size(s) == 1024 * 1024,
          "conservative: a 4 MB fetch_buffer asks for 1 MiB (%d)", ix_stmt_fetch_size(s));
    ix_finalize(s);
    ix_close(c);
    c = open_with("database=cdb compat=fast fetch_buffer=4000000");
    ix_prepare(c, "select * from t", IX_NTS, &s);
    CHECK(ix_step(s) == IX_ROW && ix_stmt_fetch_size(s) == 4000000, "fast: as asked (%d)",
          ix_stmt_fetch_size(s));
    ix_finalize(s);
    ix_close(c);
}

static void *cancel_later(void *ud) {
    struct timespec ts = {0, 100 * 1000000L};
    nanosleep(&ts, NULL);
    ix_cancel(ud);
    return NULL;
}

static void test_cancel_closes(void) {
    ix_conn *c = open_with("database=cdb compat=conservative");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select count(*) from n a, n b, n c, n d", IX_NTS, &s) == IX_OK, "prepare");
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, c);
    double t0 = now_s();
    int rc = ix_step(s);
    double dt = now_s() - t0;
    pthread_join(th, NULL);
    CHECK(rc == IX_ECONN && ix_conn_is_dead(c) && strstr(ix_errmsg(c), "cancelled"),
          "conservative cancel: the connection is closed (%d %s)", rc, ix_errmsg(c));
    CHECK(dt < 2.0, "at once (%.2f s)", dt);
    ix_finalize(s);
    ix_close(c);
    c = open_with("database=cdb compat=conservative");
    CHECK(ix_cancel(c) == IX_OK && !ix_conn_is_dead(c), "an idle connection ignores it");
    CHECK(select_trips(c, "select * from t") == 2, "and works");
    ix_close(c);
}

static void *cont_later(void *ud) {
    (void)ud;
    struct timespec ts = {1, 200 * 1000000L};
    nanosleep(&ts, NULL);
    kill(P.pid, SIGCONT);
    return NULL;
}

static void test_watchdog(void) {
    const char *modes[] = {"compat=conservative", "compat=fast"};
    for (int m = 0; m < 2; m++) {
        char extra[200];
        snprintf(extra, sizeof extra, "database=cdb watchdog=0.5 %s", modes[m]);
        ix_conn *c = open_with(extra);
        ixd_sigstop(&P);
        double t0 = now_s();
        ix_stmt *s = NULL;
        int rc = ix_prepare_v2(c, "select * from t where a > 0", IX_NTS, IX_PREPARE_NOW, &s);
        double dt = now_s() - t0;
        kill(P.pid, SIGCONT);
        CHECK(rc == IX_ETIMEOUT && ix_conn_is_dead(c) && strstr(ix_errmsg(c), "watchdog"),
              "%s: a PREPARE unanswered ends at the watchdog (%d %s)", modes[m], rc, ix_errmsg(c));
        CHECK(dt > 0.4 && dt < 3.0, "%s: after 0.5 s (%.2f s)", modes[m], dt);
        ix_close(c);

        /* a statement is not the watchdog's: it waits for the server */
        c = open_with(extra);
        ix_prepare_v2(c, "insert into t values (7)", IX_NTS, IX_PREPARE_NOW, &s);
        pthread_t th;
        ixd_sigstop(&P);
        pthread_create(&th, NULL, cont_later, NULL);
        t0 = now_s();
        rc = ix_step(s);
        dt = now_s() - t0;
        pthread_join(th, NULL);
        CHECK(rc == IX_DONE && dt > 1.0,
              "%s: an INSERT waits 1.2 s for a stopped server (%d %.2f %s)", modes[m], rc, dt,
              ix_errmsg(c));
        ix_finalize(s);
        ix_close(c);
    }
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, "host=127.0.0.1 port=1 watchdog=x") == IX_EINVAL, "watchdog=x");
    ix_close(c);
}

static void test_prepare_now(void) {
    ix_conn *c = open_with("database=cdb");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select * from no_such_table", IX_NTS, &s) == IX_OK && s,
          "deferred: ix_prepare succeeds");
    CHECK(ix_step(s) == IX_ESQL && ix_sqlcode(c) == -206, "the error comes from ix_step (%d)",
          ix_sqlcode(c));
    ix_finalize(s);
    s = NULL;
    CHECK(ix_prepare_v2(c, "select * from no_such_table", IX_NTS, IX_PREPARE_NOW, &s) == IX_ESQL &&
              ix_sqlcode(c) == -206 && !s,
          "IX_PREPARE_NOW: from ix_prepare_v2 (%d)", ix_sqlcode(c));
    ix_close(c);
    c = open_with("database=cdb compat=conservative");
    CHECK(ix_prepare(c, "select * from no_such_table", IX_NTS, &s) == IX_ESQL &&
              ix_sqlcode(c) == -206,
          "conservative: from ix_prepare (%d)", ix_sqlcode(c));
    ix_close(c);
}

/* An ANSI database: no CLOSE for a cursor whose OPEN failed, nor for one
 * the end of its transaction closed; one for a WITH HOLD cursor. */
static void test_ansi_close(void) {
    ix_conn *c = open_with("");
    CHECK(ix_exec(c, "create database adb with log mode ansi") == IX_OK, "ANSI db: %s",
          ix_errmsg(c));
    CHECK(ix_exec(c, "create table a (i integer)") == IX_OK, "table");
    CHECK(ix_exec(c, "insert into a values (1)") == IX_OK, "row");
    CHECK(ix_exec(c, "insert into a values (2)") == IX_OK, "row");
    CHECK(ix_exec(c, "commit work") == IX_OK, "commit");
    ix_close(c);
    c = open_with("database=adb");
    CHECK(c && c->db_ansi, "the login knows the database is ANSI");
    trace_buf *t = calloc(1, sizeof *t);
    ix_set_trace(c, on_trace, t);
    ix_stmt *s = NULL;
    ix_prepare(c, "select i from a where i = ?", IX_NTS, &s);
    ix_bind_text(s, 1, "not a number", IX_NTS, NULL);
    CHECK(ix_step(s) == IX_ESQL, "the OPEN fails (%d)", ix_sqlcode(c));
    ix_reset(s);
    ix_bind_int(s, 1, 1);
    CHECK(ix_step(s) == IX_ROW, "then opens: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "commit work") == IX_OK, "commit closes it");
    ix_finalize(s);
    s = NULL;
    ix_prepare_v2(c, "select i from a", IX_NTS, IX_PREPARE_WITH_HOLD, &s);
    CHECK(ix_step(s) == IX_ROW, "a WITH HOLD cursor");
    CHECK(ix_exec(c, "commit work") == IX_OK, "commit keeps it");
    ix_finalize(s);
    CHECK(select_trips(c, "select * from a") > 0, "flushed");
    ix_set_trace(c, NULL, NULL);
    CHECK(count_of(t, "SQ_CLOSE") == 2, "one CLOSE for the hold cursor, one for the last (%d)\n%s",
          count_of(t, "SQ_CLOSE"), t->text);
    free(t);
    ix_close(c);
}

static void test_login_env(void) {
    setenv("IFX_AUTOFREE", "1", 1);
    setenv("IFX_DEFERRED_PREPARE", "1", 1);
    setenv("DBCENTURY", "R", 1);
    char path[300];
    snprintf(path, sizeof path, "%s/trace.txt", P.dir);
    setenv("IXDB_TRACE", path, 1);
    ix_conn *c = open_with("");
    ix_close(c);
    unsetenv("IXDB_TRACE");
    unsetenv("IFX_AUTOFREE");
    unsetenv("IFX_DEFERRED_PREPARE");
    unsetenv("DBCENTURY");
    char buf[8192] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = 0;
    if (f) fclose(f);
    CHECK(strstr(buf, "DBCENTURY=R") != NULL, "DBCENTURY is forwarded");
    CHECK(!strstr(buf, "IFX_AUTOFREE") && !strstr(buf, "IFX_DEFERRED_PREPARE"),
          "IFX_AUTOFREE and IFX_DEFERRED_PREPARE are not");
}

static int bind_dup(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    return ix_bind_int64(s, 1, row == 7 ? 3 : row);
}

static void test_batch_stops(void) {
    ix_conn *c = open_with("database=cdb");
    CHECK(ix_exec(c, "create table u (k integer primary key)") == IX_OK, "table");
    ix_stmt *s = NULL;
    ix_prepare(c, "insert into u values (?)", IX_NTS, &s);
    static int codes[20000];
    int64_t nf = 0;
    CHECK(ix_batch_execute(s, 20000, bind_dup, NULL, codes, &nf) == IX_ESQL && nf == 1,
          "one refused row (%lld)", (long long)nf);
    int64_t ok = 0, sent = 0, not_sent = 0;
    for (int i = 0; i < 20000; i++) {
        ok += codes[i] == 0;
        not_sent += codes[i] == IX_BATCH_NOT_SENT;
        sent += codes[i] != IX_BATCH_NOT_SENT;
    }
    CHECK(codes[7] == -268 && not_sent > 10000 && codes[19999] == IX_BATCH_NOT_SENT,
          "the rows after the first refusal are not sent (%lld not sent)", (long long)not_sent);
    CHECK(ok + 1 == sent, "every sent row has its reply");
    ix_finalize(s);
    ix_prepare(c, "select count(*) from u", IX_NTS, &s);
    CHECK(ix_step(s) == IX_ROW && ix_column_int64(s, 0) == ok, "the table has the rows that ran");
    ix_finalize(s);
    ix_close(c);
}

static void *cancel_later(void *ud);

/* Database cdb on p: t (one row), n (rows 0 .. nrows-1). */
static void make_db(const ixd_proc *p, int nrows) {
    ix_conn *c = open_on(p, "");
    CHECK(ix_exec(c, "create database cdb with log") == IX_OK, "db");
    ix_close(c);
    c = open_on(p, "database=cdb compat=conservative");
    CHECK(ix_exec(c, "create table t (a integer)") == IX_OK, "t");
    CHECK(ix_exec(c, "insert into t values (1)") == IX_OK, "t row");
    CHECK(ix_exec(c, "create table n (i integer)") == IX_OK, "n");
    for (int i = 0; i < nrows; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "insert into n values (%d)", i);
        ix_exec(c, sql);
    }
    ix_close(c);
}

/* Against ixd --strict, which answers as a conservative real server:
 * auto chooses the verified forms and they work; the fast forms fail the
 * way they would on a server that does not take them. */
static void test_strict(void) {
    ix_conn *c = open_on(&S, "database=cdb");
    CHECK(c && strcmp(ix_conn_compat(c), "conservative") == 0 &&
              strcmp(ix_conn_forms(c), "open_fetch") == 0,
          "auto against a server that is not ixd: verified forms (%s: %s)", ix_conn_compat(c),
          ix_conn_forms(c));
    CHECK(c && c->roundtrips == 4, "login: 4 round trips (%lld)", (long long)c->roundtrips);
    CHECK(select_trips(c, "select * from t") == 2 && select_trips(c, "select * from t") == 2,
          "a small SELECT: 2 round trips");
    ix_close(c);
    c = open_on(&S, "database=cdb fetch_buffer=4000000");
    ix_stmt *s = NULL;
    ix_prepare(c, "select * from t", IX_NTS, &s);
    CHECK(ix_step(s) == IX_ROW && ix_stmt_fetch_size(s) == 32767,
          "no f62: NFETCH sizes stay at 32767 (%d)", ix_stmt_fetch_size(s));
    ix_finalize(s);
    ix_close(c);

    c = NULL;
    char dsn[300];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix database=cdb compat=fast "
             "connect_timeout=1",
             S.port);
    CHECK(ix_connect(&c, dsn) == IX_ETIMEOUT, "fast: the pipelined login is never answered (%s)",
          ix_errmsg(c));
    ix_close(c);

    c = open_on(&S, "database=cdb compat=fast pipeline_login=0");
    ix_prepare(c, "select * from t", IX_NTS, &s);
    CHECK(ix_step(s) == IX_ESQL && ix_sqlcode(c) == -404,
          "fast: the deferred SELECT is refused (%d)", ix_sqlcode(c));
    ix_finalize(s);
    ix_close(c);

    /* the urgent byte reaches a server that reads it inline as stream data */
    c = open_on(&S, "database=cdb compat=fast pipeline_login=0 deferred_prepare=0");
    CHECK(ix_prepare(c, "select count(*) from n a, n b, n c", IX_NTS, &s) == IX_OK, "prepare");
    pthread_t th;
    pthread_create(&th, NULL, cancel_later, c);
    int rc = ix_step(s);
    pthread_join(th, NULL);
    CHECK(rc == IX_ROW, "the server does not see an interrupt: the statement ends (%d %s)", rc,
          ix_errmsg(c));
    ix_finalize(s);
    CHECK(ix_exec(c, "insert into t values (2)") == IX_ECONN,
          "and the byte corrupts the stream: the next request ends the session (%s)", ix_errmsg(c));
    ix_close(c);

    c = open_on(&S, "database=cdb");
    CHECK(ix_prepare(c, "select count(*) from n a, n b, n c", IX_NTS, &s) == IX_OK, "prepare");
    pthread_create(&th, NULL, cancel_later, c);
    double t0 = now_s();
    rc = ix_step(s);
    double dt = now_s() - t0;
    pthread_join(th, NULL);
    CHECK(rc == IX_ECONN && strstr(ix_errmsg(c), "cancelled") && dt < 2,
          "auto: ix_cancel closes the connection (%d %s, %.2f s)", rc, ix_errmsg(c), dt);
    ix_finalize(s);
    ix_close(c);
    c = open_on(&S, "database=cdb");
    CHECK(c && ix_exec(c, "insert into t values (3)") == IX_OK, "the server goes on: %s",
          ix_errmsg(c));
    /* forms only ixd takes are refused before anything is sent */
    /* (smart-LOB streams take a real server's forms here: test_lob) */
    int64_t r0 = c->roundtrips;
    ix_prepare(c, "insert into t values (?)", IX_NTS, &s);
    static char big[40000];
    memset(big, 'x', sizeof big - 1);
    CHECK(ix_bind_text(s, 1, big, IX_NTS, IX_STATIC) == IX_OK,
          "a 40000-byte value binds (TEXT, sent as a descriptor and SQ_BLOB chunks): %s",
          ix_errmsg(c));
    CHECK(ix_bind_text(s, 1, big, 32767, IX_STATIC) == IX_OK, "32767 bytes still go as VARCHAR");
    ix_finalize(s);
    CHECK(c->roundtrips - r0 == 1 && !ix_conn_is_dead(c), "only the PREPARE went out (%lld)",
          (long long)(c->roundtrips - r0));
    ix_close(c);
}

int main(void) {
    if (ixd_start(&P, NULL, NULL) != 0 || ixd_start(&S, NULL, "--strict") != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    make_db(&P, 300);
    make_db(&S, 400);
    test_strict();
    test_forms();
    test_fetch_sizes();
    test_cancel_closes();
    test_watchdog();
    test_prepare_now();
    test_ansi_close();
    test_login_env();
    test_batch_stops();
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    ixd_stop(&S, SIGTERM);
    ixd_rmdir(&S);
    return tap_done();
}
