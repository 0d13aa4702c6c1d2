/* test_replay.c: the client's receive path fed with recorded bytes, no
 * server: the real GBase login accept from messages.tsv (assembled from its
 * CONACC segments as tests/unit/test_login.c does), fed whole and byte by
 * byte through a memory transport; what the client sends back (CONREQ with
 * the DSN's and the environment's values, SQ_PROTOCOLS, SQ_INFO, DBOPEN);
 * a login rejection; lost sync; DSN errors. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "base/ix_hex.h"
#include "client/ix_client_int.h"
#include "client/ix_stmt_int.h" /* white-box: the statement's fields */
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "ixdb.h"
#include "proto/ix_login.h"
#include "proto/ix_msg.h"
#include "tap.h"
#include "types/ix_datetime.h"
#include "types/ix_value.h"
#include "replay_script.h"
#include "tsv.h"

/* What a server sends after the accept: the SQ_PROTOCOLS answer, the
 * SQ_INFO reply, a DBOPEN reply (when db), then `extra`, then SQ_EXIT. */
static void script_after_login(ixb_wbuf *w, int db) {
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    ixb_put_bytes(w, answer, sizeof answer);
    ixp_enc_tag(w, IXP_SQ_EOT); /* SQ_INFO */
    if (db) {
        ixp_enc_done(w, &caps, 0x15, 0, 0, 0);
        ixp_enc_cost(w, 1, 1);
        ixp_enc_tag(w, IXP_SQ_EOT);
    }
}

/* Walks the messages the client sent after its CONREQ; returns the tags. */
static int client_tags(const ixb_wbuf *sent, size_t from, int *tags, int max, char *dbname,
                       size_t dblen) {
    int n = 0;
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    size_t pos = from;
    while (pos < sent->len && n < max) {
        ixp_msg m;
        if (ixp_msg_decode(sent->data + pos, sent->len - pos, IXP_FROM_CLIENT, &caps, NULL, &m,
                           NULL, NULL) != IX_OK)
            return -1;
        tags[n++] = m.tag;
        if (m.tag == IXP_SQ_DBOPEN && dbname)
            snprintf(dbname, dblen, "%.*s", (int)m.u.dbopen.name.n,
                     (const char *)m.u.dbopen.name.p);
        if (m.tag == IXP_SQ_PROTOCOLS)
            CHECK(m.u.protocols.n == sizeof ixp_caps_jdbc_offer &&
                      memcmp(m.u.protocols.p, ixp_caps_jdbc_offer, m.u.protocols.n) == 0,
                  "the client offers the JDBC capability set");
        pos += m.len;
    }
    return n;
}

static int env_has(const ixp_conreq *q, const char *name, const char *value) {
    for (int i = 0; i < q->nenv; i++)
        if (q->env[i].name.n == strlen(name) &&
            memcmp(q->env[i].name.p, name, q->env[i].name.n) == 0)
            return value == NULL || (q->env[i].value.n == strlen(value) &&
                                     memcmp(q->env[i].value.p, value, q->env[i].value.n) == 0);
    return 0;
}

static int asc_is(const ixp_ascstr *a, const char *s) {
    return a->form == 1 && a->n == strlen(s) && memcmp(a->p, s, a->n) == 0;
}

static void test_accept(size_t chunk) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    CHECK(assemble_conacc(&in) == 0, "CONACC assembled from messages.tsv");
    size_t acc_len = in.len;
    CHECK(acc_len == 267, "the real accept is 267 bytes (got %zu)", acc_len);
    script_after_login(&in, 1);
    ixp_enc_tag(&in, IXP_SQ_EXIT);

    setenv("CLIENT_LOCALE", "en_US.utf8", 1);
    setenv("DB_LOCALE", "en_US.819", 1);
    unsetenv("DBDATE");
    ix_conn *c = NULL;
    int rc =
        ixc_connect_transport(&c, "user=alice password='s3 cr\\'t' server=ol_test database=stores",
                              mem_new(&in, chunk, &sent));
    CHECK(rc == IX_OK, "chunk %zu: accepted: rc=%d %s", chunk, rc, ix_errmsg(c));
    CHECK(strcmp(ix_server_version(c), "GBase Server Version 9.56.FC4G1AEE") == 0,
          "server version \"%s\"", ix_server_version(c));
    CHECK(strncmp(ix_server_name(c), "gbase_srv_000", 13) == 0, "server name \"%s\"",
          ix_server_name(c));
    CHECK(!ix_conn_is_dead(c) && ix_errcode(c) == IX_OK && ix_autocommit(c) == 1,
          "alive, no error");

    /* What the client sent: a CONREQ with our values, then the groups. */
    static ixp_conreq q;
    size_t used = 0;
    rc = ixp_conreq_decode(sent.data, sent.len, NULL, &q, &used, NULL, NULL);
    CHECK(rc == IX_OK, "the client's CONREQ decodes (rc=%d)", rc);
    if (rc == IX_OK) {
        CHECK(asc_is(&q.user, "alice"), "user");
        CHECK(asc_is(&q.password, "s3 cr't"), "password from a quoted keyword value");
        CHECK(asc_is(&q.server, "ol_test"), "server");
        CHECK(env_has(&q, "CLIENT_LOCALE", "en_US.utf8") && env_has(&q, "DB_LOCALE", "en_US.819"),
              "locales from the environment are in the login env");
        CHECK(!env_has(&q, "DBDATE", NULL), "DBDATE only when set");
        CHECK(env_has(&q, "DBPATH", ".") && env_has(&q, "CLNT_PAM_CAPABLE", "1"), "JDBC env pairs");
    }
    int tags[16];
    char db[64] = "";
    int n = client_tags(&sent, used, tags, 16, db, sizeof db);
    CHECK(n == 6 && tags[0] == IXP_SQ_PROTOCOLS && tags[1] == IXP_SQ_EOT &&
              tags[2] == IXP_SQ_INFO && tags[3] == IXP_SQ_EOT && tags[4] == IXP_SQ_DBOPEN &&
              tags[5] == IXP_SQ_EOT,
          "PROTOCOLS, INFO, DBOPEN groups (%d messages)", n);
    CHECK(strcmp(db, "stores") == 0, "DBOPEN stores (%s)", db);
    size_t before = sent.len;
    ix_close(c);
    CHECK(sent.len == before + 2 && sent.data[before] == 0 && sent.data[before + 1] == IXP_SQ_EXIT,
          "ix_close sends SQ_EXIT");
    unsetenv("CLIENT_LOCALE");
    unsetenv("DB_LOCALE");
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

static void test_reject(void) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    ixp_conacc a;
    ixp_conrej_defaults(&a, "ixd", NULL, -952);
    CHECK(ixp_conacc_encode(&a, &in) == IX_OK, "CONREJ encodes");
    ix_conn *c = NULL;
    int rc =
        ixc_connect_transport(&c, "informix://bob:nope@h:1?server=ixd", mem_new(&in, 5, &sent));
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -952, "rejected: rc=%d sqlcode=%d", rc, ix_sqlcode(c));
    CHECK(strcmp(ix_errmsg(c), "User (bob)'s password is not correct for the database server.") ==
              0,
          "message: %s", ix_errmsg(c));
    CHECK(strcmp(ix_sqlstate(c), "28000") == 0, "sqlstate %s", ix_sqlstate(c));
    CHECK(ix_conn_is_dead(c), "a rejected connection is dead");
    CHECK(ix_exec(c, "select 1 from systables") == IX_ECONN, "calls on it give IX_ECONN");
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

static void test_lost_sync(void) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 0);
    ixb_put_i16(&in, 0x7f7f); /* no such tag */
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u password=p", mem_new(&in, 4096, &sent));
    CHECK(rc == IX_OK, "login: rc=%d %s", rc, ix_errmsg(c));
    rc = ix_exec(c, "create table t (a int)");
    CHECK(rc == IX_EPROTO && ix_conn_is_dead(c), "unknown tag: rc=%d (%s)", rc, ix_errmsg(c));
    ix_stmt *s = (ix_stmt *)1;
    CHECK(ix_prepare(c, "select 1", -1, &s) == IX_ECONN && s == NULL, "then IX_ECONN at once");
    CHECK(ix_begin(c) == IX_ECONN && ix_errcode(c) == IX_ECONN, "begin too");
    ix_close(c);

    /* The server closing the socket in the middle of a reply. */
    ixb_wbuf_reset(&in);
    ixb_wbuf_reset(&sent);
    assemble_conacc(&in);
    script_after_login(&in, 0);
    ixb_put_i16(&in, IXP_SQ_DONE);
    c = NULL;
    rc = ixc_connect_transport(&c, "user=u", mem_new(&in, 3, &sent));
    rc = ix_exec(c, "delete from t");
    CHECK(rc == IX_ECONN && ix_conn_is_dead(c) && strcmp(ix_sqlstate(c), "08006") == 0,
          "closed mid-reply: rc=%d %s %s", rc, ix_sqlstate(c), ix_errmsg(c));
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

static void test_exec_reply(void) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 0);
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    /* ix_exec reply: DESCRIBE-less INSERTDONE, DONE rows 3 serial 42. */
    ixp_enc_insertdone(&in, &caps, 7, 0);
    ixp_enc_done(&in, &caps, 0, 3, 0, 42);
    ixp_enc_cost(&in, 1, 1);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    /* then an error reply with insertion text and an ISAM code */
    ixp_enc_err(&in, &caps, -239, -100, 0, "ix_u", 4);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u", mem_new(&in, 4096, &sent));
    CHECK(rc == IX_OK, "login");
    CHECK(ix_exec(c, "insert into t values (0)") == IX_OK && ix_conn_changes(c) == 3 &&
              ix_last_serial(c) == 42 && ix_last_serial8(c) == 7,
          "changes %lld serial %lld serial8 %lld", (long long)ix_conn_changes(c),
          (long long)ix_last_serial(c), (long long)ix_last_serial8(c));
    rc = ix_exec(c, "insert into t values (0)");
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -239 && ix_isamcode(c) == -100, "-239/-100");
    CHECK(strstr(ix_errmsg(c), "UNIQUE INDEX column (ix_u).") &&
              strstr(ix_errmsg(c), "ISAM error: duplicate value"),
          "message: %s", ix_errmsg(c));
    CHECK(strcmp(ix_sqlstate(c), "23000") == 0, "integrity class");
    CHECK(!ix_conn_is_dead(c), "an SQL error leaves the connection alive");
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

static int bind_int_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    return ix_bind_int64(s, 1, row);
}

/* Appends the replies of one transaction message: XACTSTAT (levels as ixd
 * sends them), EOT. */
static void reply_xact(ixb_wbuf *w, int new_level, int old_level) {
    ixp_enc_xactstat(w, 2, new_level, old_level);
    ixp_enc_tag(w, IXP_SQ_EOT);
}

static void reply_done(ixb_wbuf *w, const ixp_caps *caps) {
    ixp_enc_done(w, caps, 0, 1, 0, 0);
    ixp_enc_cost(w, 1, 1);
    ixp_enc_tag(w, IXP_SQ_EOT);
}

/* Counts the messages tagged `tag` the client sent from `from` on, and
 * returns the tag sequence in *tags. */
static int sent_tags(const ixb_wbuf *sent, size_t from, int *tags, int max) {
    return client_tags(sent, from, tags, max, NULL, 0);
}

static int tags_are(const int *tags, int n, const int *want, int nw) {
    if (n != nw) return 0;
    for (int i = 0; i < n; i++)
        if (tags[i] != want[i]) return 0;
    return 1;
}

/*
 * A COMMIT that fails on the server: the client's idea of the transaction
 * must follow the server's, or an application in manual-commit mode runs
 * every later statement in autocommit. Three server behaviours:
 *   - the error ends the transaction and says so (XACTSTAT new level 0):
 *     the next statement is preceded by a BEGIN;
 *   - the error ends it silently (no XACTSTAT, as a real server may do):
 *     libixdb probes with a BEGIN (kept in manual-commit mode, committed at
 *     once in autocommit mode);
 *   - -255 not in transaction: none is open.
 */
static void test_commit_failure(void) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 1);
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    /* 1: autocommit mode; ix_begin, insert, commit fails silently, probe */
    reply_xact(&in, 1, 0);                          /* BEGIN */
    reply_done(&in, &caps);                         /* insert */
    ixp_enc_err(&in, &caps, -271, -131, 0, "t", 1); /* COMMIT fails, no XACTSTAT */
    ixp_enc_tag(&in, IXP_SQ_EOT);
    reply_xact(&in, 1, 0); /* probe BEGIN succeeds: the server had none */
    reply_xact(&in, 0, 1); /* probe's COMMIT */
    /* 2: manual-commit mode; commit fails and the server says it ended */
    reply_xact(&in, 1, 0);  /* BEGIN from ix_set_autocommit(0) */
    reply_done(&in, &caps); /* insert */
    ixp_enc_err(&in, &caps, -271, -131, 0, "t", 1);
    ixp_enc_xactstat(&in, 2, 0, 1);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    reply_xact(&in, 1, 0);  /* BEGIN the library sends before the next insert */
    reply_done(&in, &caps); /* insert */
    /* 3: manual mode; commit fails silently, probe BEGIN answered -535 */
    ixp_enc_err(&in, &caps, -271, -131, 0, "t", 1);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    ixp_enc_err(&in, &caps, IX_SQLCODE_ALREADY_IN_TXN, 0, 0, NULL, 0);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    /* 4: manual mode; ROLLBACK answered -255: none open; BEGIN next */
    ixp_enc_err(&in, &caps, IX_SQLCODE_NOT_IN_TXN, 0, 0, NULL, 0);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    reply_xact(&in, 1, 0);
    reply_done(&in, &caps);

    ix_conn *c = NULL;
    /* fast: SQ_RBWORK (conservative sends ROLLBACK WORK as SQL text) */
    int rc = ixc_connect_transport(&c, "user=u database=d compat=fast", mem_new(&in, 4096, &sent));
    CHECK(rc == IX_OK, "login");
    int tags[32], n;
    size_t from = sent.len;

    CHECK(ix_begin(c) == IX_OK && ix_autocommit(c) == 0, "begin");
    CHECK(ix_exec(c, "insert into t values (1)") == IX_OK, "insert");
    rc = ix_commit(c);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -271 && ix_isamcode(c) == -131,
          "the COMMIT's own error is reported: %d %d", ix_sqlcode(c), ix_isamcode(c));
    CHECK(ix_autocommit(c) == 1, "after the probe no transaction is open");
    n = sent_tags(&sent, from, tags, 32);
    int want1[] = {IXP_SQ_BEGIN,   IXP_SQ_EOT,     IXP_SQ_COMMAND, IXP_SQ_NDESCRIBE,
                   IXP_SQ_EXECUTE, IXP_SQ_RELEASE, IXP_SQ_EOT,     IXP_SQ_CMMTWORK,
                   IXP_SQ_EOT,     IXP_SQ_BEGIN,   IXP_SQ_EOT,     IXP_SQ_CMMTWORK,
                   IXP_SQ_EOT};
    CHECK(tags_are(tags, n, want1, (int)(sizeof want1 / sizeof *want1)),
          "a silent COMMIT failure is probed with BEGIN, then COMMIT (%d messages)", n);

    from = sent.len;
    CHECK(ix_set_autocommit(c, 0) == IX_OK, "manual commit");
    CHECK(ix_exec(c, "insert into t values (2)") == IX_OK, "insert");
    CHECK(ix_commit(c) == IX_ESQL && ix_sqlcode(c) == -271, "commit fails");
    CHECK(ix_autocommit(c) == 0, "manual mode");
    CHECK(ix_exec(c, "insert into t values (3)") == IX_OK, "insert after the failed commit");
    n = sent_tags(&sent, from, tags, 32);
    int want2[] = {IXP_SQ_BEGIN,     IXP_SQ_EOT,     IXP_SQ_COMMAND, IXP_SQ_NDESCRIBE,
                   IXP_SQ_EXECUTE,   IXP_SQ_RELEASE, IXP_SQ_EOT,     IXP_SQ_CMMTWORK,
                   IXP_SQ_EOT,       IXP_SQ_BEGIN,   IXP_SQ_EOT,     IXP_SQ_COMMAND,
                   IXP_SQ_NDESCRIBE, IXP_SQ_EXECUTE, IXP_SQ_RELEASE, IXP_SQ_EOT};
    CHECK(tags_are(tags, n, want2, (int)(sizeof want2 / sizeof *want2)),
          "after XACTSTAT level 0 the next statement runs in a new transaction (%d)", n);

    from = sent.len;
    CHECK(ix_commit(c) == IX_ESQL && ix_sqlcode(c) == -271, "commit fails again");
    n = sent_tags(&sent, from, tags, 32);
    int want3[] = {IXP_SQ_CMMTWORK, IXP_SQ_EOT, IXP_SQ_BEGIN, IXP_SQ_EOT};
    CHECK(tags_are(tags, n, want3, 4), "probe BEGIN (%d)", n);
    CHECK(ix_autocommit(c) == 0, "-535: the transaction is still open");

    from = sent.len;
    CHECK(ix_rollback(c) == IX_ESQL && ix_sqlcode(c) == IX_SQLCODE_NOT_IN_TXN, "-255");
    CHECK(ix_exec(c, "insert into t values (4)") == IX_OK, "insert after -255");
    n = sent_tags(&sent, from, tags, 32);
    CHECK(n >= 4 && tags[0] == IXP_SQ_RBWORK && tags[2] == IXP_SQ_BEGIN &&
              tags[4] == IXP_SQ_COMMAND,
          "-255 ends the client's transaction: BEGIN before the next statement");
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

/* A pipelined batch in manual-commit mode whose first row fails and ends the
 * transaction (XACTSTAT level 0): the rows not yet written are not sent. */
static void test_batch_txn_lost(void) {
    enum { NROWS = 40000 }; /* about 560 KB of requests: more than the write-ahead */
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 1);
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    reply_xact(&in, 1, 0); /* BEGIN from ix_set_autocommit(0) */
    ixp_column col;
    memset(&col, 0, sizeof col);
    col.name = (ixp_bytes){(const uint8_t *)"i", 1};
    col.type = IX_T_INTEGER;
    col.enclen = 4;
    ixp_describe d = {.stmt_type = IX_STMTTYPE_INSERT, .stmt_id = 0, .est_rows = 1};
    ixp_enc_describe(&in, &caps, &d, &col, 1);
    ixp_enc_insertdone(&in, &caps, 0, 0);
    reply_done(&in, &caps); /* PREPARE */
    ixp_enc_err(&in, &caps, -271, -131, 0, "t", 1);
    ixp_enc_xactstat(&in, 2, 0, 1);
    ixp_enc_tag(&in, IXP_SQ_EOT); /* row 0 fails and ends the transaction */
    for (int i = 1; i < NROWS; i++)
        reply_done(&in, &caps);
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u database=d", mem_new(&in, 1 << 20, &sent));
    CHECK(rc == IX_OK, "login");
    CHECK(ix_set_autocommit(c, 0) == IX_OK, "manual commit");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into t values (?)", -1, &s) == IX_OK, "prepare: %s", ix_errmsg(c));
    int64_t nf = 0;
    rc = ix_batch_execute(s, NROWS, bind_int_row, NULL, NULL, &nf);
    int64_t replied = ix_batch_replied(s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -271, "the first row's error: %d", ix_sqlcode(c));
    CHECK(replied > 1 && replied < NROWS,
          "the batch stopped sending once the transaction was gone (%lld of %d rows sent)",
          (long long)replied, NROWS);
    CHECK(ix_autocommit(c) == 0, "manual mode stays");
    ix_finalize(s);
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

/* A server that grants neither f62 nor f63 (what an IDS 11.50-era server
 * answers to an offer without them): libixdb then sends i16 SQL lengths and
 * an i16 NFETCH buffer size, at most 32767, as such a server reads them
 * (sqli-protocol.md §8 #5; ixp_fetch_bufsize_max). */
static void test_old_server(void) {
    static const uint8_t old_ans[] = {0x00, 0x7e, 0x00, 0x0a, 0xff, 0xfc, 0x7f, 0xfc,
                                      0x3c, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0c};
    ixp_caps caps = ixp_caps_from_bits(old_ans + 4, 10);
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    ixb_put_bytes(&in, old_ans, sizeof old_ans);
    ixp_enc_tag(&in, IXP_SQ_EOT); /* SQ_INFO */
    ixp_column col = {.name = {(const uint8_t *)"a", 1}, .type = IX_T_INTEGER, .enclen = 4};
    ixp_describe d = {.stmt_type = IX_STMTTYPE_SELECT, .stmt_id = 0, .est_rows = 1};
    ixp_enc_describe(&in, &caps, &d, &col, 1); /* PREPARE reply, old layout */
    ixp_enc_done(&in, &caps, 0, 0, 0, 0);
    ixp_enc_cost(&in, 1, 1);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    ixp_enc_tag(&in, IXP_SQ_EOT); /* OPEN */
    static const uint8_t seven[] = {0, 0, 0, 7};
    ixp_enc_tuple(&in, 0, seven, 4); /* NFETCH */
    ixp_enc_done(&in, &caps, 0, 1, 0, 0);
    ixp_enc_cost(&in, 1, 1);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    for (int i = 0; i < 4; i++)
        ixp_enc_tag(&in, IXP_SQ_EOT); /* CLOSE, RELEASE */
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(
        &c, "user=u fetch_buffer=100000 readahead=0 deferred_prepare=0 optofc=0",
        mem_new(&in, 4096, &sent));
    CHECK(rc == IX_OK, "login to an old server: %s", ix_errmsg(c));
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select a from t", -1, &s) == IX_OK, "prepare: %s", ix_errmsg(c));
    CHECK(ix_step(s) == IX_ROW && ix_column_int(s, 0) == 7, "one row: %s", ix_errmsg(c));
    CHECK(ix_step(s) == IX_DONE, "then done: %s", ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);
    /* What the client sent, decoded as the old server reads it. */
    static ixp_conreq q;
    size_t pos = 0;
    ixp_conreq_decode(sent.data, sent.len, NULL, &q, &pos, NULL, NULL);
    int prepares = 0, fetches = 0, bad = 0;
    while (pos < sent.len) {
        ixp_msg m;
        if (ixp_msg_decode(sent.data + pos, sent.len - pos, IXP_FROM_CLIENT, &caps, NULL, &m, NULL,
                           NULL) != IX_OK) {
            bad = 1;
            break;
        }
        if (m.tag == IXP_SQ_PREPARE)
            prepares += m.u.stmt.sql.n == 15 && memcmp(m.u.stmt.sql.p, "select a from t", 15) == 0;
        if (m.tag == IXP_SQ_NFETCH) {
            fetches++;
            CHECK(m.u.nfetch.bufsize == 32767 && m.u.nfetch.arraysize == 0,
                  "NFETCH asks for 32767 bytes in an i16 (%d)", m.u.nfetch.bufsize);
        }
        pos += m.len;
    }
    CHECK(!bad && prepares == 1 && fetches == 1,
          "everything sent decodes with i16 widths (prepare %d, fetch %d)", prepares, fetches);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

/* ---- request sequences: pipelined flights, counted in round trips ------------------ */

static ixp_caps flight_caps(void) {
    return ixp_caps_from_bits(answer + 4, 10);
}

/* The PREPARE's part of a reply: DESCRIBE (one INTEGER column "a" for a
 * SELECT, none for an INSERT), [INSERTDONE], DONE, COST. */
static void reply_prepared(ixb_wbuf *w, int stmt_type, int id) {
    ixp_caps caps = flight_caps();
    ixp_column col = {.name = {(const uint8_t *)"a", 1}, .type = IX_T_INTEGER, .enclen = 4};
    ixp_describe d = {.stmt_type = (int16_t)stmt_type, .stmt_id = (int16_t)id, .est_rows = 1};
    ixp_enc_describe(w, &caps, &d, &col, stmt_type == IX_STMTTYPE_SELECT ? 1 : 0);
    if (stmt_type == IX_STMTTYPE_INSERT) ixp_enc_insertdone(w, &caps, 0, 0);
    ixp_enc_done(w, &caps, 0, 0, 0, 0);
    ixp_enc_cost(w, 1, 1);
}

static void reply_rows_end(ixb_wbuf *w, int32_t v) {
    ixp_caps caps = flight_caps();
    uint8_t t[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    ixp_enc_tuple(w, 0, t, 4);
    ixp_enc_done(w, &caps, 0, 1, 0, 0);
    ixp_enc_cost(w, 1, 1);
    ixp_enc_tag(w, IXP_SQ_EOT);
}

/* One SELECT of one row through ix_prepare / ix_step; returns its value,
 * or -1 (an error), -2 (no row / no end). */
static int select_one(ix_conn *c) {
    ix_stmt *s = NULL;
    if (ix_prepare(c, "select a from t", -1, &s) != IX_OK) return -1;
    int rc = ix_step(s);
    int v = rc == IX_ROW ? ix_column_int(s, 0) : rc == IX_ESQL ? -1 : -2;
    if (rc == IX_ROW && ix_step(s) != IX_DONE) v = -2;
    ix_finalize(s);
    return v;
}

/*
 * Each flight fed whole, byte by byte and in 7-byte pieces:
 *   connect: CONREQ | PROTOCOLS + INFO + DBOPEN           2 round trips
 *   SELECT one row: PREPARE..CURNAME, OPEN, NFETCH, EOT   1
 *   the next SELECT, with the CLOSE and RELEASE of the first in its flight: 1
 *   a PREPARE error: ERR, EOT (the rest of the group skipped); the next
 *   SELECT is read in step                                 1 each
 *   an error after the describe (OPEN/NFETCH): ERR, EOT    1
 *   a prepared INSERT, first execution: PREPARE..BIND, EXECUTE, EOT: 1
 */
static void test_flights(size_t chunk) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    ixp_caps caps = flight_caps();
    assemble_conacc(&in);
    script_after_login(&in, 1);
    reply_prepared(&in, IX_STMTTYPE_SELECT, 0); /* SELECT 1 */
    reply_rows_end(&in, 7);
    ixp_enc_tag(&in, IXP_SQ_EOT);               /* its CLOSE */
    ixp_enc_tag(&in, IXP_SQ_EOT);               /* its RELEASE */
    reply_prepared(&in, IX_STMTTYPE_SELECT, 0); /* SELECT 2 */
    reply_rows_end(&in, 8);
    ixp_enc_tag(&in, IXP_SQ_EOT);                     /* CLOSE */
    ixp_enc_tag(&in, IXP_SQ_EOT);                     /* RELEASE */
    ixp_enc_err(&in, &caps, -217, 0, 7, "nosuch", 6); /* SELECT 3: PREPARE fails */
    ixp_enc_tag(&in, IXP_SQ_EOT);
    reply_prepared(&in, IX_STMTTYPE_SELECT, 1); /* SELECT 4: error after the describe */
    ixp_enc_err(&in, &caps, -244, -107, 0, "", 0);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    ixp_enc_tag(&in, IXP_SQ_EOT);               /* its CLOSE */
    ixp_enc_tag(&in, IXP_SQ_EOT);               /* its RELEASE */
    reply_prepared(&in, IX_STMTTYPE_SELECT, 0); /* SELECT 5 */
    reply_rows_end(&in, 9);
    ixp_enc_tag(&in, IXP_SQ_EOT);               /* CLOSE */
    ixp_enc_tag(&in, IXP_SQ_EOT);               /* RELEASE */
    reply_prepared(&in, IX_STMTTYPE_INSERT, 2); /* INSERT */
    ixp_enc_done(&in, &caps, 0, 1, 0, 0);
    ixp_enc_cost(&in, 1, 1);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u database=d compat=fast", mem_new(&in, chunk, &sent));
    CHECK(rc == IX_OK && c->roundtrips == 2, "[%zu] connect: 2 round trips (%lld) %s", chunk,
          (long long)c->roundtrips, ix_errmsg(c));
    static ixp_conreq q;
    size_t login_end = 0;
    ixp_conreq_decode(sent.data, sent.len, NULL, &q, &login_end, NULL, NULL);
    int tags[64];
    int n = sent_tags(&sent, login_end, tags, 64);
    static const int connect_want[] = {IXP_SQ_PROTOCOLS, IXP_SQ_EOT,    IXP_SQ_INFO,
                                       IXP_SQ_EOT,       IXP_SQ_DBOPEN, IXP_SQ_EOT};
    CHECK(tags_are(tags, n, connect_want, 6), "[%zu] connect flight: PROTOCOLS, INFO, DBOPEN",
          chunk);
    int64_t r0 = c->roundtrips;
    size_t from = sent.len;
    CHECK(select_one(c) == 7 && c->roundtrips - r0 == 1, "[%zu] SELECT: 1 round trip (%lld)", chunk,
          (long long)(c->roundtrips - r0));
    n = sent_tags(&sent, from, tags, 64);
    static const int select_want[] = {IXP_SQ_PREPARE, IXP_SQ_NDESCRIBE, IXP_SQ_WANTDONE,
                                      IXP_SQ_CURNAME, IXP_SQ_OPEN,      IXP_SQ_NFETCH,
                                      IXP_SQ_EOT};
    CHECK(tags_are(tags, n, select_want, 7),
          "[%zu] deferred PREPARE, CURNAME, OPEN, NFETCH in one group (%d messages)", chunk, n);
    r0 = c->roundtrips;
    from = sent.len;
    int v8 = select_one(c);
    CHECK(v8 == 8 && c->roundtrips - r0 == 1,
          "[%zu] next SELECT: 1 round trip with the CLOSE and RELEASE in its flight (%lld)", chunk,
          (long long)(c->roundtrips - r0));
    n = sent_tags(&sent, from, tags, 64);
    CHECK(n == 6 + 7 && tags[1] == IXP_SQ_CLOSE && tags[4] == IXP_SQ_RELEASE &&
              tags[6] == IXP_SQ_PREPARE,
          "[%zu] CLOSE and RELEASE go out with the next request (%d messages)", chunk, n);
    r0 = c->roundtrips;
    CHECK(select_one(c) == -1 && ix_sqlcode(c) == -217 && c->roundtrips - r0 == 1,
          "[%zu] PREPARE error: %d, 1 round trip", chunk, ix_sqlcode(c));
    r0 = c->roundtrips;
    CHECK(select_one(c) == -1 && ix_sqlcode(c) == -244 && ix_isamcode(c) == -107,
          "[%zu] error in the middle of the flight: %d", chunk, ix_sqlcode(c));
    CHECK(select_one(c) == 9 && !ix_conn_is_dead(c), "[%zu] still in step after the errors: %s",
          chunk, ix_errmsg(c));
    ix_stmt *s = NULL;
    r0 = c->roundtrips;
    CHECK(ix_prepare(c, "insert into t values (?)", -1, &s) == IX_OK && c->roundtrips == r0,
          "[%zu] deferred INSERT: ix_prepare sends nothing", chunk);
    ix_bind_int(s, 1, 5);
    rc = ix_step(s);
    CHECK(rc == IX_DONE && ix_changes(s) == 1 && c->roundtrips - r0 == 1,
          "[%zu] prepared INSERT, first execution: 1 round trip (%lld) %s", chunk,
          (long long)(c->roundtrips - r0), ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

/* The sequences turned off: connect in 3 round trips, a SELECT in 2
 * (PREPARE, then OPEN + NFETCH in one group), with optofc=0 the OPEN and
 * the NFETCH in two groups. */
static void test_flights_off(void) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 1);
    reply_prepared(&in, IX_STMTTYPE_SELECT, 0);
    ixp_enc_tag(&in, IXP_SQ_EOT);
    reply_rows_end(&in, 7); /* OPEN + NFETCH */
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u database=d pipeline_login=0 deferred_prepare=0",
                                   mem_new(&in, 4096, &sent));
    CHECK(rc == IX_OK && c->roundtrips == 4,
          "pipeline_login=0: 4 round trips, each login group awaited (%lld)",
          (long long)c->roundtrips);
    int64_t r0 = c->roundtrips;
    size_t from = sent.len;
    CHECK(select_one(c) == 7 && c->roundtrips - r0 == 2, "deferred_prepare=0: 2 round trips (%lld)",
          (long long)(c->roundtrips - r0));
    int tags[64];
    int n = sent_tags(&sent, from, tags, 64);
    static const int want[] = {IXP_SQ_PREPARE, IXP_SQ_NDESCRIBE, IXP_SQ_WANTDONE, IXP_SQ_EOT,
                               IXP_SQ_ID,      IXP_SQ_CURNAME,   IXP_SQ_OPEN,     IXP_SQ_ID,
                               IXP_SQ_NFETCH,  IXP_SQ_EOT};
    CHECK(tags_are(tags, n, want, 10), "PREPARE, then ID CURNAME OPEN ID NFETCH (%d)", n);
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

/* ---- rows through the row plan ------------------------------------------------
 * A cursor of (INT, VARCHAR(20), FLOAT, DATE, SMALLINT, CHAR(3)) after a
 * login answered with `ans` (the modern capabilities, extended DESCRIBE, or
 * an old server's, old DESCRIBE): PREPARE, OPEN and one NFETCH answered with
 * the SQ_TUPLEs in rows then DONE; then the EOTs of CLOSE and RELEASE. */

static const uint8_t old_answer[] = {0x00, 0x7e, 0x00, 0x0a, 0xff, 0xfc, 0x7f, 0xfc,
                                     0x3c, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0c};

static void script_select(ixb_wbuf *in, const uint8_t *ans, const ixt_vtype *types, int ncols,
                          const ixb_wbuf *rows) {
    ixp_caps caps = ixp_caps_from_bits(ans + 4, 10);
    assemble_conacc(in);
    ixb_put_bytes(in, ans, sizeof answer);
    ixp_enc_tag(in, IXP_SQ_EOT); /* SQ_INFO */
    static const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    ixp_column cols[8];
    memset(cols, 0, sizeof cols);
    for (int i = 0; i < ncols; i++) {
        cols[i].name = (ixp_bytes){(const uint8_t *)names[i], 1};
        cols[i].type = (int16_t)types[i].code;
        cols[i].enclen = (int32_t)types[i].enclen;
    }
    ixp_describe d = {.stmt_type = IX_STMTTYPE_SELECT, .stmt_id = 0, .est_rows = 3};
    ixp_enc_describe(in, &caps, &d, cols, ncols);
    ixp_enc_done(in, &caps, 0, 0, 0, 0);
    ixp_enc_cost(in, 1, 1);
    ixp_enc_tag(in, IXP_SQ_EOT);
    ixp_enc_tag(in, IXP_SQ_EOT); /* OPEN */
    ixb_put_bytes(in, rows->data, rows->len);
    ixp_enc_done(in, &caps, 0, 3, 0, 0);
    ixp_enc_cost(in, 1, 1);
    ixp_enc_tag(in, IXP_SQ_EOT);
    for (int i = 0; i < 4; i++)
        ixp_enc_tag(in, IXP_SQ_EOT); /* CLOSE, RELEASE */
}

static const ixt_vtype SIX[6] = {{IX_T_INTEGER, 4}, {IX_T_VARCHAR, 20}, {IX_T_FLOAT, 8},
                                 {IX_T_DATE, 4},    {IX_T_SMALLINT, 2}, {IX_T_CHAR, 3}};

static void put_row(ixb_wbuf *rows, int32_t a, const char *b, double c, int32_t d, int e,
                    const char *f) {
    ixb_wbuf t;
    ixb_wbuf_init(&t, NULL);
    ixb_put_i32(&t, a);
    ixb_put_u8(&t, (uint8_t)strlen(b));
    ixb_put_bytes(&t, b, strlen(b));
    uint64_t u;
    memcpy(&u, &c, 8);
    ixb_put_i64(&t, (int64_t)u);
    ixb_put_i32(&t, d);
    ixb_put_i16(&t, e);
    ixb_put_bytes(&t, f, 3);
    ixp_enc_tuple(rows, 0, t.data, t.len);
    ixb_wbuf_free(&t);
}

static void put_null_row(ixb_wbuf *rows) {
    ixb_wbuf t;
    ixb_wbuf_init(&t, NULL);
    for (int i = 0; i < 6; i++)
        ixt_value_put_null(SIX[i], &t);
    ixp_enc_tuple(rows, 0, t.data, t.len);
    ixb_wbuf_free(&t);
}

static void test_rows(const uint8_t *ans, size_t chunk) {
    const char *layout = ans == answer ? "extended" : "old";
    ixb_wbuf in, sent, rows;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    ixb_wbuf_init(&rows, NULL);
    put_row(&rows, 7, "hello", 1.5, 45000, -3, "abc");
    put_null_row(&rows);
    put_row(&rows, -8, "", -2.25, 1, 32767, "x  ");
    script_select(&in, ans, SIX, 6, &rows);
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u", mem_new(&in, chunk, &sent));
    CHECK(rc == IX_OK, "%s layout, chunk %zu: login: %s", layout, chunk, ix_errmsg(c));
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select a, b, c, d, e, f from t", -1, &s) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    CHECK(ix_step(s) == IX_ROW, "row 1: %s", ix_errmsg(c));
    int y = 0, m = 0, dd = 0;
    ix_column_date_ymd(s, 3, &y, &m, &dd);
    CHECK(ix_column_int(s, 0) == 7 && strcmp(ix_column_text(s, 1), "hello") == 0 &&
              ix_column_text_len(s, 1) == 5 && ix_column_double(s, 2) == 1.5 &&
              ix_column_int(s, 3) == 45000 && y == 2023 && ix_column_int(s, 4) == -3 &&
              strcmp(ix_column_text(s, 5), "abc") == 0 && ix_column_double(s, 0) == 7.0,
          "%s layout, chunk %zu: row 1 values", layout, chunk);
    int nulls = 0;
    for (int i = 0; i < 6; i++)
        nulls += ix_column_is_null(s, i);
    CHECK(nulls == 0, "row 1 has no NULL");
    CHECK(ix_step(s) == IX_ROW, "row 2: %s", ix_errmsg(c));
    int64_t v = 1;
    double dv = 1;
    nulls = 0;
    for (int i = 0; i < 6; i++)
        nulls += ix_column_is_null(s, i) && ix_column_text(s, i) == NULL;
    CHECK(nulls == 6 && ix_column_get_int64(s, 0, &v) == IX_NULL_VALUE && v == 0 &&
              ix_column_get_double(s, 2, &dv) == IX_NULL_VALUE && dv == 0 &&
              ix_column_get_int64(s, 4, &v) == IX_NULL_VALUE && ix_column_text_len(s, 1) == 0,
          "%s layout, chunk %zu: row 2 is all NULL (%d)", layout, chunk, nulls);
    CHECK(ix_step(s) == IX_ROW, "row 3: %s", ix_errmsg(c));
    CHECK(ix_column_int(s, 0) == -8 && ix_column_text_len(s, 1) == 0 &&
              strcmp(ix_column_text(s, 1), "") == 0 && !ix_column_is_null(s, 1) &&
              ix_column_double(s, 2) == -2.25 && ix_column_int(s, 4) == 32767 &&
              ix_column_bytes(s, 5) == 3 && ix_column_int64(s, 3) == 1,
          "%s layout, chunk %zu: row 3 values", layout, chunk);
    CHECK(ix_column_int(s, 6) == 0 && ix_errcode(c) == IX_EMISUSE, "column 6 is out of range");
    CHECK(ix_step(s) == IX_DONE, "then done: %s", ix_errmsg(c));
    CHECK(ix_column_int(s, 0) == 0 && ix_errcode(c) == IX_EMISUSE, "no row after the end");
    ix_finalize(s);
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
    ixb_wbuf_free(&rows);
}

/* A malformed tuple after a good one in the same reply: refused when the
 * reply arrives (the good row is not handed out either), as a protocol
 * error that closes the connection. */
static void test_bad_tuple(const char *what, const uint8_t *bad, size_t n, size_t chunk) {
    static const ixt_vtype TWO[2] = {{IX_T_INTEGER, 4}, {IX_T_VARCHAR, 20}};
    static const uint8_t good[] = {0, 0, 0, 1, 2, 'o', 'k'};
    ixb_wbuf in, sent, rows;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    ixb_wbuf_init(&rows, NULL);
    ixp_enc_tuple(&rows, 0, good, sizeof good);
    ixp_enc_tuple(&rows, 0, bad, n);
    script_select(&in, answer, TWO, 2, &rows);
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u", mem_new(&in, chunk, &sent));
    CHECK(rc == IX_OK, "login: %s", ix_errmsg(c));
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select a, b from t", -1, &s) == IX_OK, "prepare: %s", ix_errmsg(c));
    rc = ix_step(s);
    CHECK(rc == IX_EPROTO && ix_conn_is_dead(c) && strstr(ix_errmsg(c), "malformed row"),
          "%s (chunk %zu): refused on arrival: rc %d, %s", what, chunk, rc, ix_errmsg(c));
    CHECK(ix_step(s) == IX_ECONN && ix_column_raw(s, 0) == NULL, "%s: then IX_ECONN", what);
    ix_finalize(s);
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
    ixb_wbuf_free(&rows);
}

static void test_bad_tuples(void) {
    static const uint8_t short_int[] = {0, 0};
    static const uint8_t past_end[] = {0, 0, 0, 2, 9, 'a', 'b'};
    static const uint8_t trailing[] = {0, 0, 0, 3, 1, 'x', 0};
    for (size_t chunk = 1; chunk <= 4096; chunk *= 4096) {
        test_bad_tuple("a row ending inside the INT", short_int, sizeof short_int, chunk);
        test_bad_tuple("a VARCHAR length past the end", past_end, sizeof past_end, chunk);
        test_bad_tuple("a byte after the last column", trailing, sizeof trailing, chunk);
    }
}

static void test_dsn(void) {
    ix_conn *c = NULL;
    int rc = ix_connect(&c, "host=localhost bogus=1");
    CHECK(rc == IX_EINVAL && c && strstr(ix_errmsg(c), "bogus"), "unknown key: %s", ix_errmsg(c));
    ix_close(c);
    rc = ix_connect(&c, "informix://u:p@localhost:1/db?fetch_buffer=x");
    CHECK(rc == IX_EINVAL, "bad fetch_buffer");
    ix_close(c);
    rc = ix_connect(&c, "postgres://u@h/db");
    CHECK(rc == IX_EINVAL, "wrong scheme");
    ix_close(c);
    rc = ix_connect(&c, "host=127.0.0.1 port=1 connect_timeout=2");
    CHECK(rc == IX_ECONN && ix_conn_is_dead(c) && strcmp(ix_sqlstate(c), "08001") == 0,
          "refused: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);
    ix_close(NULL);
    CHECK(ix_errcode(NULL) == IX_ENOMEM && ix_conn_is_dead(NULL), "NULL handle answers");

    /* URL %-escapes and options reach the wire. */
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 1);
    setenv("DBDATE", "Y4MD-", 1);
    rc = ixc_connect_transport(&c, "informix://a%20b:p%40ss@[::1]:9/my%5Fdb?server=s1&readahead=0",
                               mem_new(&in, 4096, &sent));
    CHECK(rc == IX_OK, "URL login: %s", ix_errmsg(c));
    static ixp_conreq q;
    size_t used = 0;
    if (ixp_conreq_decode(sent.data, sent.len, NULL, &q, &used, NULL, NULL) == IX_OK) {
        CHECK(asc_is(&q.user, "a b") && asc_is(&q.password, "p@ss") && asc_is(&q.server, "s1"),
              "user, password, server from the URL");
        CHECK(env_has(&q, "DBDATE", "Y4MD-"), "DBDATE from the environment");
    } else {
        CHECK(0, "CONREQ decodes");
    }
    int tags[16];
    char db[64] = "";
    client_tags(&sent, used, tags, 16, db, sizeof db);
    CHECK(strcmp(db, "my_db") == 0, "database %%-decoded: %s", db);
    unsetenv("DBDATE");
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

static void test_catalogue(void) {
    static const int codes[] = {100,   -201,  -206,  -217,  -239, -268, -243, -244, -255,  -256,
                                -329,  -387,  -951,  -952,  -761, -368, -260, -535, -107,  -154,
                                -1213, -1226, -1262, -1264, -310, -316, -330, -349, -404,  -410,
                                -481,  -482,  -530,  -691,  -692, -391, -408, -908, -25580};
    int missing = 0;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (!ix_errtext(codes[i])) {
            missing++;
            printf("# no text for %d\n", codes[i]);
        }
    CHECK(missing == 0, "every required code has a text");
    static const int isam[] = {-100, -107, -111, -143, -154};
    for (size_t i = 0; i < sizeof isam / sizeof isam[0]; i++)
        CHECK(ix_isam_errtext(isam[i]) != NULL, "ISAM %d", isam[i]);
    CHECK(strcmp(ix_errtext(-206), "The specified table (%s) is not in the database.") == 0,
          "-206");
    CHECK(ix_errtext(-12345) == NULL, "unknown code");
}

/* ---- ix_batch_execute_arrays: the arrays' encoding ------------------------ */

enum { AROWS = 8, ACOLS = 5, APARAMS = 11 };

static const int64_t A_I64[AROWS] = {0,         1,         -1, INT32_MAX, (int64_t)INT32_MAX + 1,
                                     INT32_MIN, INT64_MAX, -5};
static const int32_t A_I32[AROWS] = {7, INT32_MIN, 0, -1, INT32_MAX, 42, -42, 3};
static const int32_t A_DATE[AROWS] = {0, IXT_DATE_MIN, IXT_DATE_MAX, 45000, -1, 1, 2, 3};
static const char *const A_TEXT[AROWS] = {"", "a", "ab", NULL, "odd", "even", "x", "yz"};
static const unsigned char A_NULL0[AROWS] = {0, 0, 0, 0, 0, 0, 0, 1};
static const unsigned char A_NULL2[AROWS] = {0, 0, 1, 0, 0, 0, 0, 0};
static double a_dbl[AROWS];

/* The batch's bound parameters past the arrays: DECIMAL, DATETIME,
 * INTERVAL, a BYTE-sized blob is not used (VARCHAR blob), BOOLEAN, NULL and
 * one left unbound. */
static int bind_extra(ix_stmt *s) {
    static const uint8_t blob[3] = {1, 0, 2};
    int rc = ix_bind_decimal_text(s, 6, "-123.450", -1);
    if (!rc) rc = ix_bind_datetime_text(s, 7, "2024-02-29 13:14:15.678", -1, 0);
    if (!rc) rc = ix_bind_interval_text(s, 8, "3 04:05:06", -1, 0);
    if (!rc) rc = ix_bind_blob(s, 9, blob, 3, IX_TRANSIENT);
    if (!rc) rc = ix_bind_bool(s, 10, 1);
    return rc; /* parameter 11 unbound: NULL */
}

/* The same rows through ix_bind_* (the general path). */
static int bind_arrays_general(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    int rc = A_NULL0[row] ? ix_bind_null(s, 1) : ix_bind_int64(s, 1, A_I64[row]);
    if (!rc) rc = ix_bind_int64(s, 2, A_I32[row]);
    if (!rc) rc = A_NULL2[row] ? ix_bind_null(s, 3) : ix_bind_double(s, 3, a_dbl[row]);
    if (!rc) rc = ix_bind_date(s, 4, A_DATE[row]);
    if (!rc)
        rc = A_TEXT[row] ? ix_bind_text(s, 5, A_TEXT[row], -1, IX_TRANSIENT) : ix_bind_null(s, 5);
    return rc;
}

static void ref_fixed(ixp_bindval *v, int type, int slot, uint8_t *buf, size_t n) {
    *v = (ixp_bindval){.type = (int16_t)type, .slot = (int16_t)slot, .value = {buf, n}};
}

static void ref_int(ixp_bindval *v, int64_t x, uint8_t *buf) {
    if (x > INT32_MIN && x <= INT32_MAX) {
        ixb_st32(buf, (uint32_t)x);
        ref_fixed(v, IX_T_INTEGER, 0x0a00, buf, 4);
    } else {
        ixb_st64(buf, (uint64_t)x);
        ref_fixed(v, IX_T_BIGINT, 0x1300, buf, 8);
    }
}

/* The request groups of the rows built with ixp_enc_bind from the C values
 * (the extra parameters' value bytes as bound). */
static void ref_rows(ixb_wbuf *w, const ix_stmt *s) {
    static const ixp_bindval null = {.type = IX_T_VARCHAR, .indicator = IXP_IND_NULL};
    for (int r = 0; r < AROWS; r++) {
        uint8_t b[ACOLS][8], txt[16];
        ixp_bindval v[APARAMS];
        if (A_NULL0[r])
            v[0] = null;
        else
            ref_int(&v[0], A_I64[r], b[0]);
        ref_int(&v[1], A_I32[r], b[1]);
        uint64_t u;
        memcpy(&u, &a_dbl[r], 8);
        ixb_st64(b[2], u == UINT64_MAX ? 0x7ff8000000000000ull : u);
        if (A_NULL2[r])
            v[2] = null;
        else
            ref_fixed(&v[2], IX_T_FLOAT, 0, b[2], 8);
        ixb_st32(b[3], (uint32_t)A_DATE[r]);
        ref_fixed(&v[3], IX_T_DATE, 0, b[3], 4);
        if (A_TEXT[r]) {
            size_t n = strlen(A_TEXT[r]);
            ixb_st16(txt, (uint16_t)n);
            memcpy(txt + 2, A_TEXT[r], n);
            ref_fixed(&v[4], IX_T_VARCHAR, 0, txt, n + 2);
        } else {
            v[4] = null;
        }
        for (int k = ACOLS; k < APARAMS - 2; k++) {
            const ixc_param *p = &s->params[k];
            v[k] =
                (ixp_bindval){.type = p->type, .slot = p->slot, .value = {p->val.data, p->val.len}};
        }
        static uint8_t one[1] = {1};
        ref_fixed(&v[APARAMS - 2], IX_T_BOOLEAN, 0, one, 1);
        v[APARAMS - 1] = null;
        ixp_enc_id(w, s->id);
        ixp_enc_bind(w, v, APARAMS);
        ixp_enc_tag(w, IXP_SQ_EXECUTE);
        ixp_enc_tag(w, IXP_SQ_EOT);
    }
}

static void test_batch_arrays_bytes(void) {
    uint64_t allff = UINT64_MAX;
    const double init[AROWS] = {0.5, -1e300, 0.0, 1.0 / 3.0, -0.0, 2.5e-308, 1e15, 7};
    memcpy(a_dbl, init, sizeof init);
    memcpy(&a_dbl[2], &allff, 8); /* FLOAT's NULL form: sent as a NaN */
    ixb_wbuf in, sent, ref;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    ixb_wbuf_init(&ref, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 1);
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    ixp_column col = {.name = {(const uint8_t *)"i", 1}, .type = IX_T_INTEGER, .enclen = 4};
    ixp_describe d = {.stmt_type = IX_STMTTYPE_INSERT, .stmt_id = 0, .est_rows = 1};
    ixp_enc_describe(&in, &caps, &d, &col, 1);
    ixp_enc_insertdone(&in, &caps, 0, 0);
    reply_done(&in, &caps); /* PREPARE */
    for (int i = 0; i < 3 * AROWS + 1; i++)
        reply_done(&in, &caps);
    ix_conn *c = NULL;
    int rc =
        ixc_connect_transport(&c, "user=u database=d compat=fast", mem_new(&in, 1 << 20, &sent));
    CHECK(rc == IX_OK, "login");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into t values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &s) == IX_OK,
          "prepare: %s", ix_errmsg(c));
    CHECK(bind_extra(s) == IX_OK, "extra parameters: %s", ix_errmsg(c));
    CHECK(ix_bind_int(s, 1, 99) == IX_OK, "a binding the arrays replace");
    ix_array cols[ACOLS] = {{IX_ARRAY_INT64, A_I64, A_NULL0},
                            {IX_ARRAY_INT32, A_I32, NULL},
                            {IX_ARRAY_DOUBLE, a_dbl, A_NULL2},
                            {IX_ARRAY_DATE, A_DATE, NULL},
                            {IX_ARRAY_TEXT, A_TEXT, NULL}};
    size_t from = sent.len;
    int64_t nf = -1;
    CHECK(ix_batch_execute_arrays(s, AROWS, cols, ACOLS, NULL, &nf) == IX_OK && nf == 0,
          "arrays batch: %s", ix_errmsg(c));
    CHECK(ixc_flush(c) == IX_OK, "flush"); /* the last rows' requests may still be queued */
    size_t mid = sent.len;
    CHECK(!s->params[0].set && !s->params[ACOLS - 1].set && s->params[ACOLS].set,
          "the arrays' parameters are left unbound, the others as bound");
    CHECK(ix_batch_execute(s, AROWS, bind_arrays_general, NULL, NULL, &nf) == IX_OK && nf == 0,
          "general batch: %s", ix_errmsg(c));
    CHECK(ixc_flush(c) == IX_OK, "flush");
    ref_rows(&ref, s);
    size_t fast_n = mid - from, gen_n = sent.len - mid;
    /* (the arrays' batch begins with the deferred PREPARE) */
    CHECK(fast_n > ref.len && memcmp(sent.data + mid - ref.len, ref.data, ref.len) == 0,
          "the arrays' rows are the bytes of ixp_enc_bind (%zu, %zu bytes)", fast_n, ref.len);
    CHECK(gen_n == ref.len && memcmp(sent.data + mid, ref.data, ref.len) == 0,
          "ix_bind_* rows are the bytes of ixp_enc_bind (%zu, %zu bytes)", gen_n, ref.len);
    /* texts with their lengths (IX_ARRAY_TEXTN): the same bytes */
    ix_text tn[AROWS];
    for (int i = 0; i < AROWS; i++)
        tn[i] = (ix_text){A_TEXT[i], A_TEXT[i] ? strlen(A_TEXT[i]) : 0};
    cols[ACOLS - 1] = (ix_array){IX_ARRAY_TEXTN, tn, NULL};
    size_t from_n = sent.len;
    CHECK(ix_batch_execute_arrays(s, AROWS, cols, ACOLS, NULL, &nf) == IX_OK && nf == 0,
          "arrays batch with IX_ARRAY_TEXTN: %s", ix_errmsg(c));
    CHECK(ixc_flush(c) == IX_OK, "flush");
    CHECK(sent.len - from_n == ref.len && memcmp(sent.data + from_n, ref.data, ref.len) == 0,
          "IX_ARRAY_TEXTN rows are the bytes of ixp_enc_bind (%zu, %zu bytes)", sent.len - from_n,
          ref.len);
    /* Values the general path refuses stop the batch before anything is sent. */
    static const int32_t bad_date[1] = {IXT_DATE_MAX + 1};
    static const int64_t nul64[1] = {INT64_MIN};
    /* (a text beyond 32,767 bytes is no longer refused: it goes as TEXT) */
    ix_array bad[2] = {{IX_ARRAY_DATE, bad_date, NULL}, {IX_ARRAY_INT64, nul64, NULL}};
    for (int k = 0; k < 2; k++) {
        size_t before = sent.len;
        CHECK(ix_batch_execute_arrays(s, 1, &bad[k], 1, NULL, &nf) == IX_ERANGE &&
                  ix_batch_replied(s) == 0 && sent.len == before,
              "bad value %d: IX_ERANGE, nothing sent (%s)", k, ix_errmsg(c));
    }
    /* A bad value in the middle: the rows before it are sent and answered. */
    static const int32_t mixed[3] = {1, IXT_DATE_MIN - 1, 2};
    ix_array mid_bad = {IX_ARRAY_DATE, mixed, NULL};
    CHECK(ix_batch_execute_arrays(s, 3, &mid_bad, 1, NULL, &nf) == IX_ERANGE &&
              ix_batch_replied(s) == 1,
          "a bad value in row 1: row 0 sent and answered (%lld)", (long long)ix_batch_replied(s));
    ix_array badkind = {(ix_array_kind)99, A_I64, NULL};
    CHECK(ix_batch_execute_arrays(s, 1, &badkind, 1, NULL, &nf) == IX_EINVAL, "bad array kind");
    ix_finalize(s);
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
    ixb_wbuf_free(&ref);
}

/* The bytes a conservative connection sends for an INSERT into (INTEGER,
 * BYTE, TEXT) with 7, a 3-byte blob and a NULL: the describe places the
 * BYTE/TEXT columns, so the short blob goes as a descriptor and its bytes
 * after SQ_BBIND; the NULL TEXT is a plain NULL item, not counted. Then a
 * 1025-byte value (two chunks: 1024 and 1 padded). Exact vectors:
 * docs/protocol.md "BYTE and TEXT values: the insert path". */
static void test_blob_bind_bytes(void) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    assemble_conacc(&in);
    script_after_login(&in, 1);
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    ixp_column cols[3] = {{.name = {(const uint8_t *)"i", 1}, .type = IX_T_INTEGER, .enclen = 4},
                          {.name = {(const uint8_t *)"b", 1}, .type = IX_T_BYTE, .enclen = 56},
                          {.name = {(const uint8_t *)"t", 1}, .type = IX_T_TEXT, .enclen = 56}};
    ixp_describe d = {.stmt_type = IX_STMTTYPE_INSERT, .stmt_id = 5, .est_rows = 1};
    ixp_enc_describe(&in, &caps, &d, cols, 3);
    ixp_enc_insertdone(&in, &caps, 0, 0);
    reply_done(&in, &caps); /* PREPARE */
    reply_done(&in, &caps); /* the two EXECUTEs */
    reply_done(&in, &caps);
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u database=d", mem_new(&in, 1 << 20, &sent));
    CHECK(rc == IX_OK && strcmp(ix_conn_compat(c), "conservative") == 0, "conservative login");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into t values (?, ?, ?)", -1, &s) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    size_t from = sent.len;
    ix_bind_int(s, 1, 7);
    ix_bind_blob(s, 2, "abc", 3, IX_STATIC);
    ix_bind_null(s, 3);
    CHECK(ix_step(s) == IX_DONE, "insert: %s", ix_errmsg(c));
    static const uint8_t want[] = {
        0x00, 0x04, 0x00, 0x05,                                     /* SQ_ID 5 */
        0x00, 0x05, 0x00, 0x03,                                     /* SQ_BIND, 3 values */
        0x00, 0x02, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x07, /* INTEGER 7 */
        0x00, 0x0b, 0x00, 0x00, 0x00, 0x38,                         /* BYTE, value, slot 56 */
        0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, /* descriptor
                                                                                         0..15 */
        0x00, 0x00, 0x00, 0x03, /* size 3 at 16..19 */
        0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0,
        0,    0,    0,                                                                /* 20..39 */
        0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, /* 40..55 */
        0x00, 0x0c, 0xff, 0xff, 0x00, 0x00,             /* TEXT NULL */
        0x00, 0x29, 0x00, 0x01,                         /* SQ_BBIND 1 */
        0x00, 0x27, 0x00, 0x03, 'a',  'b',  'c',  0x00, /* SQ_BLOB 3, pad */
        0x00, 0x27, 0x00, 0x00,                         /* end of the value */
        0x00, 0x07, 0x00, 0x0c};                        /* EXECUTE, EOT */
    CHECK(sent.len - from == sizeof want && memcmp(sent.data + from, want, sizeof want) == 0,
          "exact bytes of the group (%zu, want %zu)", sent.len - from, sizeof want);
    static uint8_t big[1025];
    memset(big, 'z', sizeof big);
    ix_reset(s);
    ix_bind_int(s, 1, 8);
    ix_bind_null(s, 2);
    ix_bind_text(s, 3, (const char *)big, sizeof big, IX_STATIC);
    from = sent.len;
    CHECK(ix_step(s) == IX_DONE, "insert 1025 bytes: %s", ix_errmsg(c));
    const uint8_t *g = sent.data + from;
    size_t tail = 4 + 4 + 10 + 6 + 6 + 56; /* ID, BIND head, INTEGER, BYTE NULL, TEXT desc */
    CHECK(sent.len - from == tail + 4 + (4 + 1024) + (4 + 2) + 4 + 4 &&
              memcmp(g + 18, "\x00\x0b\xff\xff\x00\x00", 6) == 0 &&
              memcmp(g + 24, "\x00\x0c\x00\x00\x00\x38", 6) == 0 && ixb_be32(g + 30 + 16) == 1025 &&
              memcmp(g + tail, "\x00\x29\x00\x01\x00\x27\x04\x00", 8) == 0 &&
              memcmp(g + tail + 8 + 1024, "\x00\x27\x00\x01z\x00\x00\x27\x00\x00\x00\x07\x00\x0c",
                     14) == 0,
          "1025 bytes: BYTE NULL item, TEXT descriptor, chunks of 1024 and 1 (%zu bytes)",
          sent.len - from);
    ix_finalize(s);
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
}

int main(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/messages.tsv", IXDB_VECTORS_DIR);
    if (tsv_load(&T, path) != 0) {
        CHECK(0, "cannot read %s", path);
        return tap_done();
    }
    c_msg = tsv_colidx(&T, "message");
    c_hex = tsv_colidx(&T, "hex");
    test_accept(65536);
    test_accept(1);
    test_accept(7);
    test_reject();
    test_lost_sync();
    test_exec_reply();
    test_commit_failure();
    test_batch_txn_lost();
    test_batch_arrays_bytes();
    test_blob_bind_bytes();
    test_old_server();
    test_flights(65536);
    test_flights(1);
    test_flights(7);
    test_flights_off();
    test_rows(answer, 4096);
    test_rows(answer, 1);
    test_rows(old_answer, 4096);
    test_rows(old_answer, 1);
    test_bad_tuples();
    test_dsn();
    test_catalogue();
    tsv_free(&T);
    return tap_done();
}
