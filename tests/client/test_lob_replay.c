/* test_lob_replay.c: libixdb's smart-LOB stream fed with scripted server
 * bytes (the memory transport and recorded login of test_replay.c): a
 * SQ_LODATA reply longer than the read asked for, one whose chunk runs past
 * its stated size, and one the server cuts off, each refused without a
 * crash (the connection is dropped: SQLI cannot resynchronise); a well-formed
 * reply lands in the caller's buffer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "base/ix_hex.h"
#include "client/ix_client_int.h"
#include "ixdb.h"
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

    ixb_wbuf_reset(&r);
    ixp_enc_lo_reply(&r, IXP_LO_OP_READSEEK, big, 50);
    rc = scripted_read(r.data, r.len - 20, buf, &got, &dead); /* cut off */
    CHECK(rc == IX_ECONN && dead, "a reply cut off: %d", rc);
    ixb_wbuf_free(&r);
    tsv_free(&T);
    return tap_done();
}
