/*
 * ixd's side of SQ_FILE (FILETOBLOB with the 'client' location) with a
 * scripted client: a wrong answer and an answer that is no SQ_FILE fail the
 * statement with -9810 and leave the session usable; requests the client
 * sent right behind its answer are still served; a client that hangs up
 * instead of answering ends its session, and ixd serves others.
 */
#include "harness.h"
#include "proto/ix_lob.h"
#include "tap.h"

#define INSERT "INSERT INTO t VALUES (FILETOBLOB('f.bin', 'client'))"

/* Sends INSERT and reads the server's first request: 0 when it is an
 * SQ_FILE open-read of f.bin. */
static int start_insert(tconn *c) {
    ixp_enc_command(&c->out, &c->caps, INSERT, strlen(INSERT));
    ixp_enc_tag(&c->out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c->out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c->out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixp_msg m;
    if (tconn_flush(c) || tconn_next(c, &m) != IX_OK) return -1;
    return m.tag == IXP_SQ_FILE && m.u.file.op == IXP_FILE_OPEN_READ && m.u.file.length == 5 &&
                   !memcmp(m.u.file.data.p, "f.bin", 5)
               ? 0
               : -1;
}

static void usable(tconn *c, treply *r, const char *label) {
    CHECK(tconn_command(c, "INSERT INTO t VALUES (NULL)", r) == 0 && r->sqlcode == 0 &&
              r->rows == 1,
          "%s: the session goes on (%d)", label, r->sqlcode);
}

static void test_bad_answers(int port) {
    tconn c;
    treply r = {0};
    CHECK(tconn_login(&c, port, "informix", "in4mix", NULL) == 0, "login");
    CHECK(tconn_command(&c, "CREATE DATABASE cf", &r) == 0 && r.sqlcode == 0, "create database");
    CHECK(tconn_command(&c, "CREATE TABLE t (b BLOB)", &r) == 0 && r.sqlcode == 0, "table");
    /* an answer for another operation */
    CHECK(start_insert(&c) == 0, "SQ_FILE open request");
    ixp_enc_file_reply(&c.out, IXP_FILE_CLOSE, 0, NULL, 0);
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.sqlcode == -9810 &&
              strstr(r.errtext, "bad answer from the client"),
          "wrong op: -9810 (%d %s)", r.sqlcode, r.errtext);
    usable(&c, &r, "wrong op");
    /* no SQ_FILE at all */
    CHECK(start_insert(&c) == 0, "SQ_FILE open request again");
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.sqlcode == -9810,
          "an EOT for an answer: -9810 (%d %s)", r.sqlcode, r.errtext);
    usable(&c, &r, "EOT");
    /* the client's error, then a request sent right behind the answer */
    CHECK(start_insert(&c) == 0, "SQ_FILE open request, third");
    ixp_enc_file_reply(&c.out, IXP_FILE_OPEN_READ, IXP_FILE_ENOENT, NULL, 0);
    const char *sel = "INSERT INTO t VALUES (NULL)";
    ixp_enc_command(&c.out, &c.caps, sel, strlen(sel));
    ixp_enc_tag(&c.out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    CHECK(tconn_flush(&c) == 0 && tconn_reply(&c, &r) == 0 && r.sqlcode == -9810 &&
              strstr(r.errtext, "does not exist"),
          "the client's ENOENT: -9810 (%d %s)", r.sqlcode, r.errtext);
    CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0 && r.rows == 1,
          "the request behind the answer is answered (%d %s)", r.sqlcode, r.errtext);
    usable(&c, &r, "pipelined");
    /* a client that hangs up instead of answering */
    CHECK(start_insert(&c) == 0, "SQ_FILE open request, last");
    tconn_close(&c);
    tconn d;
    CHECK(tconn_login(&d, port, "informix", "in4mix", "cf") == 0, "ixd serves a new client");
    CHECK(tconn_command(&d, "INSERT INTO t VALUES (NULL)", &r) == 0 && r.sqlcode == 0 &&
              r.rows == 1,
          "and answers it (%d)", r.sqlcode);
    tconn_close(&d);
    ixb_wbuf_free(&r.tuples);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    test_bad_answers(p.port);
    int st = ixd_stop(&p, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ixd ends cleanly (status %d)", st);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
    return tap_done();
}
