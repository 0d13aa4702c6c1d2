/* test_lob_replay.c: libixdb's smart-LOB stream fed with scripted server
 * bytes (the memory transport and recorded login of test_replay.c): a
 * SQ_LODATA reply longer than the read asked for, one whose chunk runs past
 * its stated size, and one the server cuts off, each refused without a
 * crash (the connection is dropped: SQLI cannot resynchronise); a well-formed
 * reply lands in the caller's buffer, also one that states the LO's size and
 * carries what was asked (a real server's). On a conservative connection,
 * ix_lob_create's fast-path answers: the handle and descriptor taken, a
 * refused look-up reported as the server's error, and results of another
 * count, type or length dropping the connection. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "base/ix_hex.h"
#include "client/ix_client_int.h"
#include "ixdb.h"
#include "proto/ix_fastpath.h"
#include "proto/ix_lob.h"
#include "proto/ix_msg.h"
#include "tap.h"
#include "replay_script.h"
#include "tsv.h"

/* The recorded accept, then the answers to SQ_PROTOCOLS and SQ_INFO. */
static int login_script(ixb_wbuf *w) {
    int rc = assemble_conacc(w);
    ixb_put_bytes(w, answer, sizeof answer);
    ixp_enc_tag(w, IXP_SQ_EOT);
    return rc;
}

/* The answer to ix_lob_open's SELECT (descriptor 3), and the two EOTs of
 * its CLOSE and RELEASE. */
static void open_script(ixb_wbuf *w) {
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    ixp_column col = {.name = {(const uint8_t *)"fd", 2}, .type = IX_T_INTEGER, .enclen = 4};
    ixp_describe d = {.stmt_type = IX_STMTTYPE_SELECT, .stmt_id = 0, .est_rows = 1};
    ixp_enc_describe(w, &caps, &d, &col, 1);
    ixp_enc_done(w, &caps, 0, 0, 0, 0);
    ixp_enc_cost(w, 1, 1);
    uint8_t t[4] = {0, 0, 0, 3};
    ixp_enc_tuple(w, 0, t, 4);
    ixp_enc_done(w, &caps, 0, 1, 0, 0);
    ixp_enc_cost(w, 1, 1);
    ixp_enc_tag(w, IXP_SQ_EOT);
    ixp_enc_tag(w, IXP_SQ_EOT);
    ixp_enc_tag(w, IXP_SQ_EOT);
}

/* Opens a LO on a scripted server whose reply to the first read is r
 * (rn bytes); reads 100 bytes into buf. Returns the read's result. */
static int scripted_read(const uint8_t *r, size_t rn, uint8_t *buf, size_t *got, int *dead) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    login_script(&in);
    open_script(&in);
    ixb_put_bytes(&in, r, rn);
    ix_conn *c = NULL;
    int rc =
        ixc_connect_transport(&c, "user=u password=p compat=fast", mem_new(&in, SIZE_MAX, &sent));
    CHECK(rc == IX_OK, "login: %s", ix_errmsg(c));
    ix_locator loc;
    ixp_locator l = {IXP_LO_XID_BLOB, 9};
    ixp_locator_encode(&l, loc.bytes);
    ix_lob *b = NULL;
    rc = ix_lob_open(c, &loc, IX_LO_RDONLY, &b);
    CHECK(rc == IX_OK && b, "open: %s", ix_errmsg(c));
    rc = b ? ix_lob_read(b, buf, 100, got) : rc;
    *dead = ix_conn_is_dead(c);
    ixc_free(b); /* no close: the script has no answer for it */
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
    return rc;
}

static char last_msg[512]; /* the error message of the last scripted_create */

/* Creates a BLOB on a conservative connection to a scripted server that
 * answers the look-up with r1 and the call with r2. Returns the result;
 * *dead says whether the connection was dropped. */
static ix_locator last_loc; /* the handle of the last scripted_create's LO */

static int scripted_create(const ixb_wbuf *r1, const ixb_wbuf *r2, int *dead) {
    ixb_wbuf in, sent;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&sent, NULL);
    login_script(&in);
    ixb_put_bytes(&in, r1->data, r1->len);
    ixb_put_bytes(&in, r2->data, r2->len);
    ix_conn *c = NULL;
    int rc = ixc_connect_transport(&c, "user=u password=p compat=conservative",
                                   mem_new(&in, SIZE_MAX, &sent));
    CHECK(rc == IX_OK, "login: %s", ix_errmsg(c));
    ix_lob *b = NULL;
    rc = ix_lob_create(c, IX_T_BLOB, &b);
    *dead = ix_conn_is_dead(c);
    snprintf(last_msg, sizeof last_msg, "%s", ix_errmsg(c));
    memset(&last_loc, 0, sizeof last_loc);
    if (b) ix_lob_locator(b, &last_loc);
    ixc_free(b); /* no close: the script has no answer for it */
    ix_close(c);
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&sent);
    return rc;
}

/* The answer to SQ_GETROUTINE: database "d", handle 7. */
static void lookup_answer(ixb_wbuf *w) {
    ixp_enc_getroutine_reply(w, "d", 1, 7);
    ixp_enc_tag(w, IXP_SQ_EOT);
}

/* An SQ_FPROUTINE with a handle of n bytes (type code) and, when with_fd,
 * descriptor 3; then EOT. */
static void create_answer(ixb_wbuf *w, int code, size_t n, int with_fd) {
    uint8_t h[IXP_LOCATOR_LEN + 1];
    ixp_locator l = {IXP_LO_XID_BLOB, 5};
    ixp_locator_encode(&l, h);
    ixp_enc_fpresult(w, with_fd ? 2 : 1);
    if (code == IX_T_INTEGER)
        ixp_enc_fp_int(w, 1);
    else
        ixp_enc_fp_udt(w, code, "informix", "blob", h, n);
    if (with_fd) ixp_enc_fp_int(w, 3);
    ixp_enc_tag(w, IXP_SQ_EOT);
}

static void check_fast_path(void) {
    ixb_wbuf r1, r2;
    ixb_wbuf_init(&r1, NULL);
    ixb_wbuf_init(&r2, NULL);
    int dead = 0;
    lookup_answer(&r1);
    create_answer(&r2, IX_T_UDTFIXED, IXP_LOCATOR_LEN, 1);
    int rc = scripted_create(&r1, &r2, &dead);
    CHECK(rc == IX_OK && !dead, "create over the fast path: %d", rc);
    /* a real server's handle is its own: taken as it comes */
    uint8_t foreign[IXP_LOCATOR_LEN];
    memset(foreign, 0xab, sizeof foreign);
    ixb_wbuf_reset(&r2);
    ixp_enc_fpresult(&r2, 2);
    ixp_enc_fp_udt(&r2, IX_T_UDTFIXED, "informix", "blob", foreign, sizeof foreign);
    ixp_enc_fp_int(&r2, 3);
    ixp_enc_tag(&r2, IXP_SQ_EOT);
    rc = scripted_create(&r1, &r2, &dead);
    CHECK(rc == IX_OK && !dead && !memcmp(last_loc.bytes, foreign, sizeof foreign),
          "a handle in a real server's own form: %d %s", rc, last_msg);
    static const struct {
        int code;
        size_t n;
        int with_fd;
        const char *what;
    } bad[] = {
        {IX_T_INTEGER, 0, 1, "an integer where the handle is due"},
        {IX_T_UDTFIXED, IXP_LOCATOR_LEN - 1, 1, "a 71-byte handle"},
        {IX_T_UDTFIXED, IXP_LOCATOR_LEN, 0, "one value where two are due"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ixb_wbuf_reset(&r2);
        create_answer(&r2, bad[k].code, bad[k].n, bad[k].with_fd);
        rc = scripted_create(&r1, &r2, &dead);
        CHECK(rc == IX_EPROTO && dead && strstr(last_msg, "fast-path"), "%s: %d %s", bad[k].what,
              rc, last_msg);
    }
    ixb_wbuf_reset(&r1);
    ixp_caps caps = ixp_caps_from_bits(answer + 4, 10);
    ixp_enc_err(&r1, &caps, -674, 0, 0, "ifx_lo_create", 13);
    ixp_enc_tag(&r1, IXP_SQ_EOT);
    ixb_wbuf_reset(&r2);
    rc = scripted_create(&r1, &r2, &dead);
    CHECK(rc == IX_ESQL && !dead, "a refused look-up is the server's error: %d", rc);
    ixb_wbuf_free(&r1);
    ixb_wbuf_free(&r2);
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
    uint8_t buf[200] = {0}, big[500];
    memset(big, 'x', sizeof big);
    size_t got = 7;
    int dead = 0;
    ixb_wbuf r;
    ixb_wbuf_init(&r, NULL);

    ixp_enc_lo_reply(&r, IXP_LO_OP_READSEEK, "hello", 5);
    ixp_enc_tag(&r, IXP_SQ_EOT);
    int rc = scripted_read(r.data, r.len, buf, &got, &dead);
    CHECK(rc == IX_OK && got == 5 && !memcmp(buf, "hello", 5) && !dead, "a short read: %d %zu", rc,
          got);

    ixb_wbuf_reset(&r);
    ixp_enc_lo_reply(&r, IXP_LO_OP_READSEEK, big, sizeof big);
    ixp_enc_tag(&r, IXP_SQ_EOT);
    rc = scripted_read(r.data, r.len, buf, &got, &dead);
    CHECK(rc == IX_EPROTO && dead && got == 0, "a reply longer than asked: %d", rc);

    ixb_wbuf_reset(&r);
    ixp_enc_lo_reply(&r, IXP_LO_OP_READSEEK, "hello", 5);
    r.data[7] = 2; /* size 2, chunk of 5 */
    ixp_enc_tag(&r, IXP_SQ_EOT);
    rc = scripted_read(r.data, r.len, buf, &got, &dead);
    CHECK(rc == IX_EPROTO && dead, "a chunk past the size: %d", rc);

    ixb_wbuf_reset(&r); /* a real server's: the LO's size stated, what was asked sent */
    ixp_enc_lo_reply(&r, IXP_LO_OP_READSEEK, big, 100);
    ixb_st32(r.data + 4, 100000);
    ixp_enc_tag(&r, IXP_SQ_EOT);
    rc = scripted_read(r.data, r.len, buf, &got, &dead);
    CHECK(rc == IX_OK && got == 100 && !dead, "a reply stating the LO's size: %d %zu", rc, got);

    ixb_wbuf_reset(&r); /* ... or less, ended by a zero-length chunk */
    ixp_enc_lo_reply(&r, IXP_LO_OP_READSEEK, "hello", 5);
    ixb_st32(r.data + 4, 100000);
    ixb_put_i16(&r, 0);
    ixp_enc_tag(&r, IXP_SQ_EOT);
    rc = scripted_read(r.data, r.len, buf, &got, &dead);
    CHECK(rc == IX_OK && got == 5 && !dead, "a zero-length chunk ends the reply: %d %zu", rc, got);

    ixb_wbuf_reset(&r);
    ixp_enc_lo_reply(&r, IXP_LO_OP_READSEEK, big, 50);
    rc = scripted_read(r.data, r.len - 20, buf, &got, &dead); /* cut off */
    CHECK(rc == IX_ECONN && dead, "a reply cut off: %d", rc);
    ixb_wbuf_free(&r);
    check_fast_path();
    tsv_free(&T);
    return tap_done();
}
