/*
 * Integration tests, ixd --strict (docs/server.md "Strict mode"): raw wire
 * requests against an ixd started with --strict and the same requests
 * against a normal ixd, which behaves as before.
 *
 * - the login accept's serial: IXP_IXD_SERIAL from normal ixd, a real
 *   server's "Software Serial Number ..." from strict ixd;
 * - (a) a deferred group (PREPARE, NDESCRIBE, WANTDONE, CURNAME, OPEN,
 *   NFETCH; PREPARE, ..., EXECUTE) without SQ_ID: strict answers the
 *   PREPARE's part, then -404 (ISAM 0) with no row and no insert; the
 *   statement stays usable by its id. COMMAND groups without SQ_ID work;
 * - (b) PROTOCOLS + INFO + DBOPEN in one flight: strict answers PROTOCOLS
 *   only, nothing else within a second, and keeps the connection open; one
 *   group at a time logs in;
 * - (c) an urgent byte: strict ends the session (malformed input, logged) and
 *   still accepts connections; normal ixd drops the byte on an idle session;
 * - (d) the SQ_PROTOCOLS answer: no f62 from strict (f54, f63 kept), and an
 *   i16 NFETCH size fetches rows;
 * - (e) an ANSI database: CLOSE of a cursor never opened, already closed,
 *   whose OPEN failed, or closed by COMMIT is -404 in strict mode, 0 in
 *   normal mode; COMMIT and ROLLBACK close open cursors not WITH HOLD in
 *   strict mode (a WITH HOLD cursor goes on); normal ixd leaves them open.
 */
#include "harness.h"
#include "proto/ix_caps.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

enum {
    NOT_AVAILABLE = -404, /* The cursor or statement is not available. */
    TOO_FEW_VARS = -254,  /* Too many or too few host variables given. */
    QUIET_MS = 1000,      /* strict: no answer to an early login group within this */
    GONE_MS = 5000,       /* strict: a session fed an urgent byte ends within this */
};

#define REAL_SERIAL "Software Serial Number AAA#B000000"

static void ok(tconn *c, const char *sql) {
    treply r = {0};
    int code = tconn_exec(c, sql, &r);
    CHECK(code == 0, "%s -> %d %s", sql, code, r.errtext);
    ixb_wbuf_free(&r.tuples);
}

static int has_tag(const treply *r, int tag) {
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i] == tag) return 1;
    return 0;
}

/* Opens a connection and sends the login; the accept's serial into serial.
 * Returns 0, or -1 when no accept came. */
static int accept_login(tconn *c, int port, char *serial, size_t cap) {
    serial[0] = 0;
    if (tconn_open(c, port)) return -1;
    ixp_conreq req;
    ixp_conreq_defaults(&req, U, P, "ixd");
    ixp_conreq_encode(&req, &c->out);
    ixp_msg m;
    if (tconn_flush(c) || tconn_next(c, &m) != IX_OK || m.tag != IXP_MSG_LOGIN) return -1;
    ixp_conacc acc;
    if (ixp_conacc_decode(m.u.login.packet.p, m.u.login.packet.n, NULL, &acc, NULL, NULL, NULL) !=
            IX_OK ||
        acc.svc_error)
        return -1;
    snprintf(serial, cap, "%.*s", (int)acc.serial.n, (const char *)acc.serial.p);
    return 0;
}

/* 1 when nothing arrives on c within ms and the connection stays open. */
static int quiet_and_open(tconn *c, int ms) {
    struct pollfd pf = {c->fd, POLLIN, 0};
    return poll(&pf, 1, ms) == 0;
}

/* 1 when the server closes c within ms (without a reply before). */
static int closed_within(tconn *c, int ms) {
    struct pollfd pf = {c->fd, POLLIN, 0};
    if (poll(&pf, 1, ms) != 1) return 0;
    char b[64];
    return recv(c->fd, b, sizeof b, 0) <= 0;
}

/* ---- the serial and the capabilities (d) --------------------------------- */

static void test_login(int port, int strict) {
    const char *mode = strict ? "strict" : "normal";
    tconn c;
    char serial[128];
    CHECK(accept_login(&c, port, serial, sizeof serial) == 0, "%s: login accepted", mode);
    const char *want = strict ? REAL_SERIAL : IXP_IXD_SERIAL;
    CHECK(strcmp(serial, want) == 0, "%s: serial '%s' (want '%s')", mode, serial, want);
    ixp_enc_protocols(&c.out, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    treply r = {0};
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && has_tag(&r, IXP_SQ_PROTOCOLS),
          "%s: PROTOCOLS answered", mode);
    CHECK(c.caps.f62 == !strict, "%s: f62 granted %d", mode, c.caps.f62);
    CHECK(c.caps.f54 && c.caps.f63, "%s: f54 %d and f63 %d granted", mode, c.caps.f54, c.caps.f63);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* (d) an i16 NFETCH size (no f62) fetches rows; the harness encodes the size
 * by the granted capabilities. */
static void test_fetch_size(int port, int strict) {
    tconn c;
    CHECK(tconn_login(&c, port, U, P, "plain") == 0, "login to plain");
    treply r = {0};
    int trips = 0;
    CHECK(tconn_select(&c, "SELECT a FROM t ORDER BY a", 32767, &r, &trips) == 0 && r.ntuples == 3,
          "%s: NFETCH size 32767 gives 3 rows (%d, sqlcode %d)", strict ? "strict" : "normal",
          r.ntuples, r.sqlcode);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* ---- (a) deferred groups without SQ_ID ----------------------------------- */

static void test_deferred(int port, int strict) {
    const char *mode = strict ? "strict" : "normal";
    tconn c;
    CHECK(tconn_login(&c, port, U, P, "plain") == 0, "login to plain");
    treply r = {0};
    /* SELECT: PREPARE, NDESCRIBE, WANTDONE, CURNAME, OPEN, NFETCH, EOT */
    const char *sel = "SELECT a FROM t ORDER BY a";
    ixp_enc_prepare(&c.out, &c.caps, 0, sel, strlen(sel));
    ixp_enc_tag(&c.out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c.out, IXP_SQ_WANTDONE);
    ixp_enc_curname(&c.out, "cdef", 4);
    ixp_enc_tag(&c.out, IXP_SQ_OPEN);
    ixp_enc_nfetch(&c.out, &c.caps, 4096);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0, "%s: deferred SELECT answered", mode);
    int id = r.stmt_id;
    CHECK(has_tag(&r, IXP_SQ_DESCRIBE) && id >= 0, "%s: the PREPARE's DESCRIBE came (id %d)", mode,
          id);
    if (strict) {
        CHECK(r.sqlcode == NOT_AVAILABLE && r.isamcode == 0 && r.ntuples == 0,
              "strict: deferred SELECT without SQ_ID is -404 (got %d isam %d, %d rows)", r.sqlcode,
              r.isamcode, r.ntuples);
        /* the statement stays prepared and its id valid */
        ixp_enc_id(&c.out, id);
        ixp_enc_curname(&c.out, "cdef", 4);
        ixp_enc_tag(&c.out, IXP_SQ_OPEN);
        ixp_enc_id(&c.out, id);
        ixp_enc_nfetch(&c.out, &c.caps, 4096);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.sqlcode == 0 && r.ntuples == 3,
              "strict: the statement opened by its id gives 3 rows (%d, sqlcode %d)", r.ntuples,
              r.sqlcode);
    } else {
        CHECK(r.sqlcode == 0 && r.ntuples == 3,
              "normal: deferred SELECT gives 3 rows (%d, sqlcode %d)", r.ntuples, r.sqlcode);
    }
    ixp_enc_id(&c.out, id);
    ixp_enc_tag(&c.out, IXP_SQ_CLOSE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    ixp_enc_id(&c.out, id);
    ixp_enc_tag(&c.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.sqlcode == 0 &&
              tconn_reply(&c, &r) == 0 && r.sqlcode == 0,
          "%s: CLOSE and RELEASE by id", mode);

    /* INSERT: PREPARE, NDESCRIBE, WANTDONE, EXECUTE, EOT */
    const char *ins = "INSERT INTO d VALUES (1)";
    ixp_enc_prepare(&c.out, &c.caps, 0, ins, strlen(ins));
    ixp_enc_tag(&c.out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c.out, IXP_SQ_WANTDONE);
    ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0, "%s: deferred INSERT answered", mode);
    CHECK(r.sqlcode == (strict ? NOT_AVAILABLE : 0), "%s: deferred INSERT sqlcode %d", mode,
          r.sqlcode);
    int ins_id = r.stmt_id;
    char v[32];
    tconn_value(&c, "SELECT COUNT(*) FROM d", v, sizeof v);
    CHECK(strcmp(v, strict ? "0" : "1") == 0, "%s: rows inserted: %s", mode, v);
    if (strict) { /* the id still executes the INSERT */
        ixp_enc_id(&c.out, ins_id);
        ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.sqlcode == 0 && r.rows == 1,
              "strict: EXECUTE by id inserts (sqlcode %d, rows %lld)", r.sqlcode,
              (long long)r.rows);
    }
    /* COMMAND, NDESCRIBE, EXECUTE, RELEASE without SQ_ID: a real form */
    ok(&c, "DELETE FROM d");
    tconn_value(&c, "SELECT COUNT(*) FROM d", v, sizeof v);
    CHECK(strcmp(v, "0") == 0, "%s: COMMAND group ran (%s rows left)", mode, v);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* ---- (b) the login flight ------------------------------------------------- */

static void test_login_flight(int port, int strict) {
    const char *mode = strict ? "strict" : "normal";
    tconn c;
    char serial[128];
    CHECK(accept_login(&c, port, serial, sizeof serial) == 0, "%s: login accepted", mode);
    ixp_enc_protocols(&c.out, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    ixp_bytes k = {(const uint8_t *)"DBTEMP", 6}, val = {(const uint8_t *)"/tmp", 4};
    ixp_enc_info(&c.out, &k, &val, 1);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    ixp_enc_dbopen(&c.out, "plain", 5, 0);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    treply r = {0};
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && has_tag(&r, IXP_SQ_PROTOCOLS),
          "%s: pipelined login: PROTOCOLS answered", mode);
    if (strict) {
        CHECK(quiet_and_open(&c, QUIET_MS),
              "strict: pipelined login: nothing after PROTOCOLS within %d ms, connection open",
              QUIET_MS);
        /* later requests are discarded too */
        ixp_enc_id(&c.out, 0);
        ixp_enc_tag(&c.out, IXP_SQ_RELEASE);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        CHECK(tconn_flush(&c) == 0 && quiet_and_open(&c, QUIET_MS / 4),
              "strict: a request after it is not answered either");
    } else {
        CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0 && tconn_reply(&c, &r) == 0 &&
                  r.sqlcode == 0 && has_tag(&r, IXP_SQ_DONE),
              "normal: pipelined login: INFO and DBOPEN answered");
    }
    tconn_close(&c);
    /* one group at a time logs in, in both modes */
    CHECK(tconn_login(&c, port, U, P, "plain") == 0, "%s: login one group at a time", mode);
    char v[32];
    CHECK(strcmp(tconn_value(&c, "SELECT COUNT(*) FROM t", v, sizeof v), "3") == 0,
          "%s: the session works (%s)", mode, v);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* ---- (c) the interrupt's urgent byte --------------------------------------- */

static int log_has(const ixd_proc *p, const char *what) {
    FILE *f = fopen(p->log, "r");
    if (!f) return 0;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, what) != NULL;
    fclose(f);
    return found;
}

static void test_urgent(const ixd_proc *p, int strict) {
    const char *mode = strict ? "strict" : "normal";
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, "plain") == 0, "login to plain");
    unsigned char b = 1; /* IXP_INTERRUPT_BYTE */
    CHECK(send(c.fd, &b, 1, MSG_OOB) == 1, "%s: urgent byte sent", mode);
    ixp_enc_command(&c.out, &c.caps, "DELETE FROM d", 13);
    ixp_enc_tag(&c.out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&c) == 0, "%s: request after the urgent byte sent", mode);
    if (strict) {
        CHECK(closed_within(&c, GONE_MS), "strict: the session ends within %d ms", GONE_MS);
    } else {
        treply r = {0};
        CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0,
              "normal: the request after an idle interrupt is answered (%d)", r.sqlcode);
        ixb_wbuf_free(&r.tuples);
    }
    tconn_close(&c);
    CHECK(tconn_login(&c, p->port, U, P, "plain") == 0, "%s: a new connection logs in", mode);
    char v[32];
    CHECK(strcmp(tconn_value(&c, "SELECT COUNT(*) FROM t", v, sizeof v), "3") == 0,
          "%s: and works (%s)", mode, v);
    tconn_close(&c);
    CHECK(log_has(p, "malformed input") == strict, "%s: malformed input logged: %d", mode,
          log_has(p, "malformed input"));
    CHECK(log_has(p, "urgent byte as data") == strict, "%s: the log names the urgent byte: %d",
          mode, log_has(p, "urgent byte as data"));
}

/* ---- (e) CLOSE in an ANSI database, cursors at the end of a transaction ---- */

/* id + body-less message (+ NFETCH's size) + EOT; the group's sqlcode. */
static int on_id(tconn *c, int id, int tag, treply *r) {
    ixp_enc_id(&c->out, id);
    if (tag == IXP_SQ_NFETCH)
        ixp_enc_nfetch(&c->out, &c->caps, 4096);
    else
        ixp_enc_tag(&c->out, tag);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tconn_flush(c) || tconn_reply(c, r)) return TCONN_FAILED;
    return r->sqlcode;
}

/* ID, CURNAME, [HOLD], OPEN, EOT: the group's sqlcode. */
static int open_cursor(tconn *c, int id, const char *name, int hold, treply *r) {
    ixp_enc_id(&c->out, id);
    ixp_enc_curname(&c->out, name, strlen(name));
    if (hold) ixp_enc_tag(&c->out, IXP_SQ_HOLD);
    ixp_enc_tag(&c->out, IXP_SQ_OPEN);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tconn_flush(c) || tconn_reply(c, r)) return TCONN_FAILED;
    return r->sqlcode;
}

static void test_ansi_close(int port, int strict) {
    const char *mode = strict ? "strict" : "normal";
    int want = strict ? NOT_AVAILABLE : 0;
    tconn c;
    CHECK(tconn_login(&c, port, U, P, "ansi") == 0, "login to ansi");
    treply r = {0};
    int id = tconn_prepare(&c, "SELECT a FROM t ORDER BY a", 0, &r);
    CHECK(id >= 0, "%s: prepared (%d)", mode, r.sqlcode);
    int rc = on_id(&c, id, IXP_SQ_CLOSE, &r);
    CHECK(rc == want, "%s: ANSI CLOSE of a cursor never opened: %d", mode, rc);
    CHECK(open_cursor(&c, id, "ca", 0, &r) == 0, "%s: OPEN", mode);
    rc = on_id(&c, id, IXP_SQ_CLOSE, &r);
    CHECK(rc == 0, "%s: ANSI CLOSE of an open cursor: %d", mode, rc);
    rc = on_id(&c, id, IXP_SQ_CLOSE, &r);
    CHECK(rc == want, "%s: ANSI CLOSE of a closed cursor: %d", mode, rc);
    /* an OPEN that fails (a parameter without a value) leaves it closed */
    int pid = tconn_prepare(&c, "SELECT a FROM t WHERE a > ?", 1, &r);
    CHECK(pid >= 0, "%s: prepared with a parameter (%d)", mode, r.sqlcode);
    rc = open_cursor(&c, pid, "cp", 0, &r);
    CHECK(rc == TOO_FEW_VARS, "%s: OPEN without its value: %d", mode, rc);
    rc = on_id(&c, pid, IXP_SQ_CLOSE, &r);
    CHECK(rc == want, "%s: ANSI CLOSE after a failed OPEN: %d", mode, rc);
    /* COMMIT ends the (implicit) transaction */
    CHECK(open_cursor(&c, id, "ca", 0, &r) == 0, "%s: OPEN again", mode);
    ok(&c, "COMMIT WORK");
    rc = on_id(&c, id, IXP_SQ_NFETCH, &r);
    CHECK(strict ? rc == NOT_AVAILABLE : (rc == 0 && r.ntuples == 3),
          "%s: NFETCH after COMMIT: %d, %d rows", mode, rc, r.ntuples);
    rc = on_id(&c, id, IXP_SQ_CLOSE, &r);
    CHECK(rc == want, "%s: ANSI CLOSE of a cursor COMMIT closed: %d", mode, rc);
    /* a WITH HOLD cursor stays open */
    CHECK(open_cursor(&c, id, "ch", 1, &r) == 0, "%s: OPEN WITH HOLD", mode);
    ok(&c, "COMMIT WORK");
    rc = on_id(&c, id, IXP_SQ_NFETCH, &r);
    CHECK(rc == 0 && r.ntuples == 3, "%s: NFETCH of a WITH HOLD cursor after COMMIT: %d, %d rows",
          mode, rc, r.ntuples);
    rc = on_id(&c, id, IXP_SQ_CLOSE, &r);
    CHECK(rc == 0, "%s: ANSI CLOSE of the WITH HOLD cursor: %d", mode, rc);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* A logged non-ANSI database: COMMIT and ROLLBACK of an explicit transaction
 * close strict's non-hold cursors; CLOSE of a closed cursor stays 0. */
static void test_logged_txn_end(int port, int strict) {
    const char *mode = strict ? "strict" : "normal";
    static const char *const ends[] = {"COMMIT WORK", "ROLLBACK WORK"};
    tconn c;
    CHECK(tconn_login(&c, port, U, P, "plain") == 0, "login to plain");
    treply r = {0};
    int id = tconn_prepare(&c, "SELECT a FROM t ORDER BY a", 0, &r);
    CHECK(id >= 0, "%s: prepared (%d)", mode, r.sqlcode);
    for (int i = 0; i < 2; i++) {
        ok(&c, "BEGIN WORK");
        CHECK(open_cursor(&c, id, "cl", 0, &r) == 0, "%s: OPEN in a transaction", mode);
        ixp_enc_id(&c.out, id);
        ixp_enc_nfetch(&c.out, &c.caps, 1); /* one row; the cursor has started */
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.ntuples == 1,
              "%s: one row fetched before %s (%d)", mode, ends[i], r.ntuples);
        ok(&c, ends[i]);
        int rc = on_id(&c, id, IXP_SQ_NFETCH, &r);
        CHECK(strict ? rc == NOT_AVAILABLE : (rc == 0 && r.ntuples == 2),
              "%s: NFETCH after %s: %d, %d rows", mode, ends[i], rc, r.ntuples);
        rc = on_id(&c, id, IXP_SQ_CLOSE, &r);
        CHECK(rc == 0, "%s: CLOSE after %s (not ANSI): %d", mode, ends[i], rc);
    }
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* ---- setup and the two servers ----------------------------------------------- */

static void make_dbs(int port) {
    tconn c;
    CHECK(tconn_login(&c, port, U, P, NULL) == 0, "setup login");
    ok(&c, "CREATE DATABASE plain WITH LOG");
    ok(&c, "CREATE TABLE t (a INTEGER)");
    ok(&c, "INSERT INTO t VALUES (1)");
    ok(&c, "INSERT INTO t VALUES (2)");
    ok(&c, "INSERT INTO t VALUES (3)");
    ok(&c, "CREATE TABLE d (a INTEGER)");
    ok(&c, "CREATE DATABASE ansi WITH LOG MODE ANSI");
    ok(&c, "CREATE TABLE t (a INTEGER)");
    ok(&c, "INSERT INTO t VALUES (1)");
    ok(&c, "INSERT INTO t VALUES (2)");
    ok(&c, "INSERT INTO t VALUES (3)");
    ok(&c, "COMMIT WORK");
    tconn_close(&c);
}

static void run(int strict) {
    ixd_proc p;
    if (ixd_start(&p, NULL, strict ? "--strict" : NULL)) {
        CHECK(0, "cannot start ixd%s", strict ? " --strict" : "");
        return;
    }
    make_dbs(p.port);
    test_login(p.port, strict);
    test_fetch_size(p.port, strict);
    test_deferred(p.port, strict);
    test_login_flight(p.port, strict);
    test_ansi_close(p.port, strict);
    test_logged_txn_end(p.port, strict);
    test_urgent(&p, strict); /* last: it reads the log for the one malformed input */
    int st = ixd_stop(&p, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s ixd stopped cleanly (status %d)",
          strict ? "strict" : "normal", st);
    ixd_rmdir(&p);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    unsetenv("IXDB_TEST_STRICT"); /* each half picks its mode itself */
    run(0);
    run(1);
    return tap_done();
}
