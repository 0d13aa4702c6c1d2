/*
 * Integration tests, session life: what happens to a session's statements,
 * cursors and locks when the client or the database goes away, against a
 * real ixd over TCP (issue 23, items 5-7).
 *
 * - Orphaned statements: a client that starts a long query inside a
 *   transaction holding a write lock, then closes its socket (FIN) or resets
 *   it (RST), is noticed while the query runs: within 3 s the statement is
 *   interrupted, the transaction rolled back and the lock free for another
 *   session. A client that leaves while it waits for a lock: its session
 *   ends within 3 s. Over TLS too, with and without a close_notify alert in
 *   front of the end of the stream. Bytes still unread in front of the end
 *   (a pipelined group, then shutdown(SHUT_WR)) are not a hangup.
 * - EXECUTE FUNCTION cursors: a non-iterator SPL function runs at OPEN (its
 *   INSERT happens even when the cursor is closed without a fetch, its error
 *   comes back from OPEN), inside a transaction and outside; an iterator
 *   (RETURN ... WITH RESUME) still gives its rows by NFETCH.
 * - Statements of a closed database: DROP TABLE prepared, DBCLOSE, EXECUTE
 *   of it is -349 (no database), not a crash; after DATABASE it is -410; its
 *   cursor's OPEN, NFETCH and DESCRIBE likewise; RELEASE frees it.
 */
#include <openssl/ssl.h>
#include <sys/time.h>

#include "harness.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

enum {
    BIG_ROWS = 1000,       /* the cross join of four copies never ends in a test */
    GONE_WITHIN_MS = 3000, /* the orphan's lock must be free by then */
    NO_DB = -349,          /* Database not selected yet. */
    NO_STMT = -410,        /* Prepare statement failed or was not executed. */
    RAISED = -746          /* the SQLCODE fails() raises */
};

static void ok(tconn *c, const char *sql) {
    treply r = {0};
    int code = tconn_exec(c, sql, &r);
    CHECK(code == 0, "%s -> %d %s", sql, code, r.errtext);
    ixb_wbuf_free(&r.tuples);
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- orphaned statements -------------------------------------------------- */

static void make_big(tconn *c) {
    ok(c, "CREATE DATABASE life WITH LOG");
    ok(c, "CREATE TABLE ten (a INTEGER)");
    for (int i = 0; i < 10; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "INSERT INTO ten VALUES (%d)", i);
        ok(c, sql);
    }
    ok(c, "CREATE TABLE big (a INTEGER)");
    ok(c, "INSERT INTO big SELECT x.a FROM ten x, ten y, ten z");
    ok(c, "CREATE TABLE locked (a INTEGER)");
    char v[32];
    CHECK(atoi(tconn_value(c, "SELECT COUNT(*) FROM big", v, sizeof v)) == BIG_ROWS,
          "big has %s rows", v);
}

/* A client that takes the write lock, starts a query that does not end,
 * and goes away (reset: RST instead of FIN), with a COMMIT sent behind the
 * query when commit is set. Returns 0 once it is gone. */
static int orphan(int port, int reset, int commit) {
    tconn c;
    treply r = {0};
    if (tconn_login(&c, port, U, P, "life")) return -1;
    int rc =
        tconn_exec(&c, "BEGIN WORK", &r) || tconn_exec(&c, "INSERT INTO locked VALUES (1)", &r);
    int id = rc ? -1 : tconn_prepare(&c, "SELECT COUNT(*) FROM big a, big b, big c, big d", 0, &r);
    if (id < 0 || tconn_on_id(&c, id, IXP_SQ_OPEN, &r)) rc = -1;
    ixb_wbuf_free(&r.tuples);
    if (!rc) { /* the fetch runs the query; no answer is awaited */
        ixp_enc_id(&c.out, id);
        ixp_enc_nfetch(&c.out, &c.caps, 4096);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        if (commit) { /* in the same write: ixd has read it when it notices */
            ixp_enc_tag(&c.out, IXP_SQ_CMMTWORK);
            ixp_enc_tag(&c.out, IXP_SQ_EOT);
        }
        rc = tconn_flush(&c);
        nanosleep(&(struct timespec){0, 300000000}, NULL); /* it runs */
    }
    if (reset) {
        struct linger l = {1, 0};
        setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    }
    tconn_close(&c);
    return rc;
}

/* Milliseconds until another session gets the orphan's write lock, or -1
 * when it does not within GONE_WITHIN_MS. */
static int64_t lock_free_after(tconn *c, int64_t from) {
    for (;;) {
        treply r = {0};
        int code = tconn_exec(c, "INSERT INTO locked VALUES (2)", &r);
        ixb_wbuf_free(&r.tuples);
        int64_t t = now_ms() - from;
        if (code == 0) return t;
        if (t > GONE_WITHIN_MS) return -1;
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
}

static void test_orphan(ixd_proc *p, int reset, int commit) {
    tconn c;
    char v[32];
    CHECK(tconn_login(&c, p->port, U, P, "life") == 0, "observer login");
    ok(&c, "DELETE FROM locked");
    CHECK(orphan(p->port, reset, commit) == 0, "orphan (%s%s) started its query and left",
          reset ? "reset" : "close", commit ? ", COMMIT behind" : "");
    int64_t t = lock_free_after(&c, now_ms());
    printf("# %s: lock free after %lld ms\n", reset ? "RST" : "FIN", (long long)t);
    CHECK(t >= 0,
          "%s: the orphan's lock is free after %lld ms (want < %d; -1: a session still "
          "running after 3 s)",
          reset ? "RST" : "FIN", (long long)t, GONE_WITHIN_MS);
    /* its transaction rolled back (a COMMIT it sent behind the query not
     * handled): only the observer's row */
    CHECK(!strcmp(tconn_value(&c, "SELECT COUNT(*) FROM locked WHERE a = 1", v, sizeof v), "0"),
          "the orphan's row rolled back (%s left)", v);
    tconn_close(&c);
}

/* A client that pipelines a second group behind a running query and then
 * half-closes (shutdown(SHUT_WR)) has not gone: the unread bytes in front
 * of the end of its stream keep the query running, and it gets both
 * answers. */
static void test_pending_not_hangup(ixd_proc *p) {
    tconn c;
    treply r = {0};
    CHECK(tconn_login(&c, p->port, U, P, "life") == 0, "login");
    int id = tconn_prepare(&c, "SELECT COUNT(*) FROM big a, big b, ten c", 0, &r);
    ixt_vtype count_type = r.cols[0];
    CHECK(id >= 0 && tconn_on_id(&c, id, IXP_SQ_OPEN, &r) == 0, "the query opened");
    int64_t from = now_ms();
    ixp_enc_id(&c.out, id);
    ixp_enc_nfetch(&c.out, &c.caps, 4096);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    nanosleep(&(struct timespec){0, 30000000}, NULL); /* the query runs */
    ixp_enc_command(&c.out, &c.caps, "SELECT COUNT(*) FROM ten", 24);
    ixp_enc_tag(&c.out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    shutdown(c.fd, SHUT_WR);
    char v[32];
    int got = tconn_reply(&c, &r) == 0 && r.sqlcode == 0 && r.ntuples == 1;
    r.ncols = 1;
    r.cols[0] = count_type;
    treply_value(&r, 0, 0, v, sizeof v);
    printf("# pipelined + half-closed: the query took %lld ms\n", (long long)(now_ms() - from));
    CHECK(got && !strcmp(v, "10000000"), "the running query's answer (%d, %s)", r.sqlcode, v);
    CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0, "the pipelined group's answer (%d)",
          r.sqlcode);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* Lines of ixd's log that contain what. */
static int log_count(const ixd_proc *p, const char *what) {
    FILE *f = fopen(p->log, "r");
    if (!f) return -1;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, what) != NULL;
    fclose(f);
    return n;
}

/* A client waiting for a lock (SET LOCK MODE TO WAIT, another session holds
 * the write lock) that goes away: its session ends while the lock is still
 * held, instead of waiting on for a client that is not there. */
static void test_orphan_lock_wait(ixd_proc *p) {
    tconn holder, o;
    treply r = {0};
    CHECK(tconn_login(&holder, p->port, U, P, "life") == 0, "holder login");
    ok(&holder, "BEGIN WORK");
    ok(&holder, "INSERT INTO locked VALUES (3)");
    CHECK(tconn_login(&o, p->port, U, P, "life") == 0, "waiter login");
    ok(&o, "SET LOCK MODE TO WAIT");
    ok(&o, "BEGIN WORK");
    int before = log_count(p, "session ends");
    ixp_enc_command(&o.out, &o.caps, "INSERT INTO locked VALUES (4)", 29);
    ixp_enc_tag(&o.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&o.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&o) == 0, "the waiter's INSERT sent");
    nanosleep(&(struct timespec){0, 300000000}, NULL); /* it waits */
    tconn_close(&o);
    int64_t from = now_ms(), t = -1;
    while (t < 0 && now_ms() - from <= GONE_WITHIN_MS) {
        if (log_count(p, "session ends") > before) t = now_ms() - from;
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    }
    printf("# lock wait: session gone after %lld ms\n", (long long)t);
    CHECK(t >= 0,
          "the waiting orphan's session ended within %d ms (a session still waiting "
          "after 3 s)",
          GONE_WITHIN_MS);
    ok(&holder, "ROLLBACK WORK");
    ixb_wbuf_free(&r.tuples);
    tconn_close(&holder);
}

/* ---- orphans over TLS ----------------------------------------------------- */

/* Sends c->out over ssl and reads up to the group's EOT (or the login
 * answer). Returns the group's SQLCODE, or TCONN_FAILED when the connection
 * failed. */
static int tls_group(SSL *ssl, tconn *c) {
    if (c->out.len && SSL_write(ssl, c->out.data, (int)c->out.len) <= 0) return TCONN_FAILED;
    ixb_wbuf_reset(&c->out);
    int code = 0;
    for (;;) {
        ixp_msg m;
        int rc = ixp_reader_next(&c->rd, &m);
        if (rc == IX_OK && (m.tag == IXP_MSG_LOGIN || m.tag == IXP_SQ_EOT)) return code;
        if (rc == IX_OK && m.tag == IXP_SQ_PROTOCOLS)
            c->rd.caps = c->caps = ixp_caps_from_bits(m.u.protocols.p, m.u.protocols.n);
        if (rc == IX_OK && m.tag == IXP_SQ_ERR) code = m.u.err.sqlcode;
        if (rc == IX_OK) continue;
        uint8_t buf[16384];
        int n = rc == IX_NEED_MORE ? SSL_read(ssl, buf, sizeof buf) : -1;
        if (n <= 0) return TCONN_FAILED;
        ixp_reader_feed(&c->rd, buf, (size_t)n);
    }
}

/* Over TLS: login, DBOPEN, the endless query's OPEN and NFETCH (its answer
 * not awaited). Returns 0 when the query runs. */
static int tls_start_query(SSL *ssl, tconn *c) {
    ixp_conreq req;
    ixp_conreq_defaults(&req, U, P, "ixd");
    ixp_conreq_encode(&req, &c->out);
    if (tls_group(ssl, c)) return -1;
    ixp_enc_protocols(&c->out, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tls_group(ssl, c)) return -1;
    ixp_enc_dbopen(&c->out, "life", 4, 0);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tls_group(ssl, c)) return -1;
    const char *q = "SELECT COUNT(*) FROM big a, big b, big c, big d";
    ixp_enc_prepare(&c->out, &c->caps, 0, q, strlen(q));
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tls_group(ssl, c)) return -1;
    ixp_enc_id(&c->out, 0);
    ixp_enc_tag(&c->out, IXP_SQ_OPEN);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tls_group(ssl, c)) return -1;
    ixp_enc_id(&c->out, 0);
    ixp_enc_nfetch(&c->out, &c->caps, 4096);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    int sent = SSL_write(ssl, c->out.data, (int)c->out.len) > 0;
    ixb_wbuf_reset(&c->out);
    nanosleep(&(struct timespec){0, 300000000}, NULL); /* it runs */
    return sent ? 0 : -1;
}

/* A TLS client that starts the endless query and leaves, with a
 * close_notify alert (notify) or without; 1 when its session ended within
 * GONE_WITHIN_MS. */
static int tls_orphan_gone(ixd_proc *p, SSL_CTX *ctx, int notify) {
    tconn c;
    if (tconn_open(&c, p->port)) return 0;
    struct timeval tv = {5, 0}; /* no answer must hang the test */
    setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    SSL *ssl = SSL_new(ctx);
    SSL_set_fd(ssl, c.fd);
    int ok_query = SSL_connect(ssl) == 1 && tls_start_query(ssl, &c) == 0;
    CHECK(ok_query, "TLS orphan (%s) started its query", notify ? "close_notify" : "no notify");
    int before = log_count(p, "session ends");
    if (notify) SSL_shutdown(ssl);
    SSL_free(ssl);
    tconn_close(&c);
    int64_t from = now_ms(), t = -1;
    while (ok_query && t < 0 && now_ms() - from <= GONE_WITHIN_MS) {
        if (log_count(p, "session ends") > before) t = now_ms() - from;
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    }
    printf("# TLS %s: session gone after %lld ms\n", notify ? "close_notify" : "no notify",
           (long long)t);
    return t >= 0;
}

/* The same data directory served over TLS (this ixd stopped for it). */
static void test_tls_orphans(ixd_proc *p) {
    char cmd[800], cert[300], key[300];
    snprintf(cert, sizeof cert, "%s/cert.pem", p->dir);
    snprintf(key, sizeof key, "%s/key.pem", p->dir);
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
             "-keyout %s -out %s >/dev/null 2>&1",
             key, cert);
    CHECK(system(cmd) == 0, "openssl makes a test certificate");
    const char *extra[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    CHECK(ixd_start_args(p, p->dir, extra) == 0, "ixd with TLS starts");
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    CHECK(tls_orphan_gone(p, ctx, 1), "TLS orphan with close_notify: a session still running "
                                      "after 3 s");
    CHECK(tls_orphan_gone(p, ctx, 0), "TLS orphan without close_notify: a session still "
                                      "running after 3 s");
    SSL_CTX_free(ctx);
}

/* ---- EXECUTE FUNCTION runs at OPEN ------------------------------------------ */

static void make_functions(tconn *c) {
    ok(c, "CREATE TABLE called (a INTEGER)");
    ok(c, "CREATE FUNCTION once () RETURNING INTEGER; INSERT INTO called VALUES (1); "
          "RETURN 7; END FUNCTION");
    ok(c, "CREATE FUNCTION fails () RETURNING INTEGER; "
          "RAISE EXCEPTION -746, 0, 'from fails'; RETURN 1; END FUNCTION");
    ok(c, "CREATE FUNCTION three () RETURNING INTEGER; DEFINE i INTEGER; "
          "FOR i = 1 TO 3; RETURN i WITH RESUME; END FOR; END FUNCTION");
}

/* OPEN then CLOSE (no NFETCH) of EXECUTE FUNCTION call; OPEN's SQLCODE. */
static int open_close(tconn *c, const char *call) {
    treply r = {0};
    char sql[256];
    snprintf(sql, sizeof sql, "EXECUTE FUNCTION %s", call);
    int id = tconn_prepare(c, sql, 0, &r);
    int code = id < 0 ? r.sqlcode : tconn_on_id(c, id, IXP_SQ_OPEN, &r);
    if (id >= 0) {
        tconn_on_id(c, id, IXP_SQ_CLOSE, &r);
        tconn_on_id(c, id, IXP_SQ_RELEASE, &r);
    }
    ixb_wbuf_free(&r.tuples);
    return code;
}

static void test_function_at_open(ixd_proc *p) {
    tconn c;
    char v[32];
    CHECK(tconn_login(&c, p->port, U, P, "life") == 0, "login");
    make_functions(&c);
    CHECK(open_close(&c, "once()") == 0, "OPEN of once() outside a transaction");
    CHECK(!strcmp(tconn_value(&c, "SELECT COUNT(*) FROM called", v, sizeof v), "1"),
          "once() ran at OPEN outside a transaction (%s rows)", v);
    ok(&c, "BEGIN WORK");
    CHECK(open_close(&c, "once()") == 0, "OPEN of once() in a transaction");
    CHECK(!strcmp(tconn_value(&c, "SELECT COUNT(*) FROM called", v, sizeof v), "2"),
          "once() ran at OPEN in a transaction (%s rows)", v);
    int code = open_close(&c, "fails()");
    CHECK(code == RAISED, "fails() in a transaction: OPEN answers %d (want %d)", code, RAISED);
    ok(&c, "COMMIT WORK");
    CHECK(!strcmp(tconn_value(&c, "SELECT COUNT(*) FROM called", v, sizeof v), "2"),
          "the transaction's call committed (%s rows)", v);
    ok(&c, "BEGIN WORK");
    treply r = {0};
    CHECK(tconn_select(&c, "EXECUTE FUNCTION three()", 4096, &r, NULL) == 0 && r.ntuples == 3,
          "the iterator three() gives %d rows by NFETCH", r.ntuples);
    CHECK(tconn_select(&c, "EXECUTE FUNCTION once()", 4096, &r, NULL) == 0 && r.ntuples == 1 &&
              !strcmp(treply_value(&r, 0, 0, v, sizeof v), "7"),
          "once() fetched after OPEN gives its value (%s)", v);
    ixb_wbuf_free(&r.tuples);
    ok(&c, "ROLLBACK WORK");
    tconn_close(&c);
}

/* A one-value TimeSeries routine (not an iterator) runs at OPEN too. */
static void test_ts_function_at_open(ixd_proc *p) {
    tconn c;
    char v[32];
    CHECK(tconn_login(&c, p->port, U, P, "life") == 0, "login");
    ok(&c, "CREATE ROW TYPE reading_t (ts DATETIME YEAR TO FRACTION(5), watts INTEGER)");
    ok(&c, "CREATE TABLE meter (id INT PRIMARY KEY, readings TIMESERIES(reading_t))");
    ok(&c, "BEGIN WORK");
    int code = open_close(&c, "oni_ts_create('meter', 'readings', 1, '2026-03-01 00:00', "
                              "'15 minutes')");
    CHECK(code == 0, "OPEN of oni_ts_create in a transaction: %d", code);
    CHECK(!strcmp(tconn_value(&c, "SELECT COUNT(*) FROM meter", v, sizeof v), "1"),
          "oni_ts_create ran at OPEN (%s series)", v);
    code = open_close(&c, "oni_ts_create('nosuch', 'readings', 1, '2026-03-01 00:00', "
                          "'15 minutes')");
    CHECK(code < 0, "oni_ts_create of a missing table: OPEN answers %d", code);
    ok(&c, "ROLLBACK WORK");
    tconn_close(&c);
}

/* ---- statements of a closed database ----------------------------------------- */

static void test_closed_db_stmts(ixd_proc *p) {
    tconn c;
    treply r = {0};
    CHECK(tconn_login(&c, p->port, U, P, "life") == 0, "login");
    ok(&c, "CREATE TABLE dropme (a INTEGER)");
    int drop = tconn_prepare(&c, "DROP TABLE dropme", 0, &r);
    int cur = tconn_prepare(&c, "SELECT a FROM ten", 0, &r);
    CHECK(drop >= 0 && cur >= 0, "prepared (ids %d, %d)", drop, cur);
    /* cursors in the middle of their rows when the database closes: a
     * table's and an SPL iterator's (a virtual table) */
    int mid[2] = {tconn_prepare(&c, "SELECT a FROM big", 0, &r),
                  tconn_prepare(&c, "EXECUTE FUNCTION three()", 0, &r)};
    for (int i = 0; i < 2; i++) {
        CHECK(mid[i] >= 0 && tconn_on_id(&c, mid[i], IXP_SQ_OPEN, &r) == 0, "cursor %d opened", i);
        ixp_enc_id(&c.out, mid[i]);
        ixp_enc_nfetch(&c.out, &c.caps, 1); /* one row; the next one read ahead */
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.ntuples == 1,
              "cursor %d: one row fetched", i);
    }
    ixp_enc_tag(&c.out, IXP_SQ_DBCLOSE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.sqlcode == 0, "DBCLOSE");
    int code = tconn_on_id(&c, drop, IXP_SQ_EXECUTE, &r);
    CHECK(code == NO_DB, "EXECUTE after DBCLOSE: %d (want %d)", code, NO_DB);
    code = tconn_on_id(&c, cur, IXP_SQ_OPEN, &r);
    CHECK(code == NO_DB, "OPEN after DBCLOSE: %d (want %d)", code, NO_DB);
    code = tconn_on_id(&c, cur, IXP_SQ_NFETCH, &r);
    CHECK(code == NO_DB, "NFETCH after DBCLOSE: %d (want %d)", code, NO_DB);
    code = tconn_on_id(&c, cur, IXP_SQ_NDESCRIBE, &r);
    CHECK(code == NO_DB, "DESCRIBE after DBCLOSE: %d (want %d)", code, NO_DB);
    ok(&c, "DATABASE life");
    code = tconn_on_id(&c, drop, IXP_SQ_EXECUTE, &r);
    CHECK(code == NO_STMT, "EXECUTE after DATABASE: %d (want %d)", code, NO_STMT);
    code = tconn_on_id(&c, cur, IXP_SQ_OPEN, &r);
    CHECK(code == NO_STMT, "OPEN after DATABASE: %d (want %d)", code, NO_STMT);
    CHECK(tconn_on_id(&c, drop, IXP_SQ_RELEASE, &r) == 0 &&
              tconn_on_id(&c, cur, IXP_SQ_RELEASE, &r) == 0,
          "RELEASE of the old ids");
    for (int i = 0; i < 2; i++) {
        code = tconn_on_id(&c, mid[i], IXP_SQ_NFETCH, &r);
        CHECK(code == NO_STMT, "NFETCH of cursor %d after DATABASE: %d", i, code);
        CHECK(tconn_on_id(&c, mid[i], IXP_SQ_CLOSE, &r) == 0 &&
                  tconn_on_id(&c, mid[i], IXP_SQ_RELEASE, &r) == 0,
              "CLOSE and RELEASE of cursor %d", i);
    }
    char v[32];
    CHECK(!strcmp(tconn_value(&c, "SELECT COUNT(*) FROM dropme", v, sizeof v), "0"),
          "the table was not dropped (%s)", v);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    if (ixd_start(&p, NULL, NULL)) {
        printf("Bail out! cannot start ixd\n");
        return 1;
    }
    tconn c;
    CHECK(tconn_login(&c, p.port, U, P, NULL) == 0, "login");
    make_big(&c);
    tconn_close(&c);
    test_function_at_open(&p);
    test_ts_function_at_open(&p);
    test_orphan(&p, 0, 0);
    test_orphan(&p, 1, 0);
    test_orphan(&p, 0, 1);
    test_orphan_lock_wait(&p);
    test_pending_not_hangup(&p);
    test_closed_db_stmts(&p); /* last: it killed ixd before the fix */
    int st = ixd_stop(&p, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ixd stopped cleanly (status %d)", st);
    test_tls_orphans(&p);
    st = ixd_stop(&p, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ixd with TLS stopped cleanly (status %d)", st);
    ixd_rmdir(&p);
    return tap_done();
}
