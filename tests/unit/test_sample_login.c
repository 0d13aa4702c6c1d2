/*
 * The sample exchange that `make run` decodes (tests/data/sample-login.*.hex)
 * is built here with the codec's own encoders: a login, the capability
 * negotiation, SQ_INFO, DBOPEN, a PREPAREd SELECT fetched through a cursor,
 * CLOSE, RELEASE and EXIT. The test checks that the committed files are
 * exactly what the encoders produce and that they decode back cleanly.
 * Run with IXDB_UPDATE_SAMPLES=1 to rewrite the files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_hex.h"
#include "proto/ix_login.h"
#include "proto/ix_msg.h"
#include "proto/ix_reader.h"
#include "tap.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

static void tuple(ixb_wbuf *w, const ixt_vtype *t, const char *const *vals, int n) {
    ixb_wbuf row;
    ixb_wbuf_init(&row, NULL);
    for (int i = 0; i < n; i++) {
        int rc = vals[i] ? ixt_value_parse(t[i], vals[i], strlen(vals[i]), NULL, &row)
                         : ixt_value_put_null(t[i], &row);
        CHECK(rc == IX_OK, "sample value %s parses", vals[i] ? vals[i] : "NULL");
    }
    ixp_enc_tuple(w, 0, row.data, row.len);
    ixb_wbuf_free(&row);
}

static void build(ixb_wbuf *c, ixb_wbuf *s) {
    ixp_caps impl = ixp_caps_ixd;
    /* Login. */
    ixp_conreq req;
    ixp_conreq_defaults(&req, "informix", "in4mix", "ixd");
    ixp_conreq_encode(&req, c);
    ixp_conacc acc;
    ixp_conacc_defaults(&acc, "ixd", "IBM Informix Dynamic Server Version 14.10.FC10");
    ixp_conacc_encode(&acc, s);
    /* Capabilities. */
    ixp_enc_protocols(c, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(c, IXP_SQ_EOT);
    uint8_t ans[IXP_CAPS_ANSWER_LEN];
    ixp_caps caps = ixp_caps_answer(ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer, impl, ans);
    ixp_enc_protocols(s, ans, sizeof ans);
    ixp_enc_tag(s, IXP_SQ_EOT);
    /* SQ_INFO. */
    ixp_bytes k[2] = {{(const uint8_t *)"DBTEMP", 6}, {(const uint8_t *)"SUBQCACHESZ", 11}};
    ixp_bytes v[2] = {{(const uint8_t *)"/tmp", 4}, {(const uint8_t *)"10", 2}};
    ixp_enc_info(c, k, v, 2);
    ixp_enc_tag(c, IXP_SQ_EOT);
    ixp_enc_tag(s, IXP_SQ_EOT);
    /* DBOPEN. */
    ixp_enc_dbopen(c, "demo", 4, 0);
    ixp_enc_tag(c, IXP_SQ_EOT);
    ixp_enc_done(s, &caps, 0x15, 0, 0, 0);
    ixp_enc_cost(s, 1, 1);
    ixp_enc_tag(s, IXP_SQ_EOT);
    /* PREPARE + NDESCRIBE + WANTDONE. */
    const char *sql = "SELECT id, name, price, day FROM item";
    ixp_enc_prepare(c, &caps, 0, sql, strlen(sql));
    ixp_enc_tag(c, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(c, IXP_SQ_WANTDONE);
    ixp_enc_tag(c, IXP_SQ_EOT);
    ixp_column cols[4] = {
        {.name = {(const uint8_t *)"id", 2}, .type = IX_T_SERIAL | 0x100, .enclen = 4},
        {.name = {(const uint8_t *)"name", 4}, .type = IX_T_VARCHAR, .enclen = 20},
        {.name = {(const uint8_t *)"price", 5}, .type = IX_T_MONEY, .enclen = 0x0802},
        {.name = {(const uint8_t *)"day", 3}, .type = IX_T_DATE, .enclen = 4}};
    ixp_describe d = {.stmt_type = IX_STMTTYPE_SELECT, .stmt_id = 0, .est_rows = 2};
    ixp_enc_describe(s, &caps, &d, cols, 4);
    ixp_enc_done(s, &caps, 0, 0, 0, 0);
    ixp_enc_cost(s, 2, 1);
    ixp_enc_tag(s, IXP_SQ_EOT);
    /* Cursor: ID, CURNAME, OPEN, ID, NFETCH in one group. */
    ixp_enc_id(c, 0);
    ixp_enc_curname(c, "_ifxc0000000000001", 18);
    ixp_enc_tag(c, IXP_SQ_OPEN);
    ixp_enc_id(c, 0);
    ixp_enc_nfetch(c, &caps, 4096);
    ixp_enc_tag(c, IXP_SQ_EOT);
    ixt_vtype t[4] = {{IX_T_SERIAL, 4}, {IX_T_VARCHAR, 20}, {IX_T_MONEY, 0x0802}, {IX_T_DATE, 4}};
    const char *r1[4] = {"1", "Ada Lovelace", "123.45", "12/10/1815"};
    const char *r2[4] = {"2", NULL, "-0.50", "02/29/2000"};
    tuple(s, t, r1, 4);
    tuple(s, t, r2, 4);
    ixp_enc_done(s, &caps, 0, 2, 0, 0);
    ixp_enc_cost(s, 2, 1);
    ixp_enc_tag(s, IXP_SQ_EOT);
    /* CLOSE, RELEASE, EXIT. */
    ixp_enc_id(c, 0);
    ixp_enc_tag(c, IXP_SQ_CLOSE);
    ixp_enc_tag(c, IXP_SQ_EOT);
    ixp_enc_tag(s, IXP_SQ_EOT);
    ixp_enc_id(c, 0);
    ixp_enc_tag(c, IXP_SQ_RELEASE);
    ixp_enc_tag(c, IXP_SQ_EOT);
    ixp_enc_tag(s, IXP_SQ_EOT);
    ixp_enc_tag(c, IXP_SQ_EXIT);
    ixp_enc_tag(s, IXP_SQ_EXIT);
}

static void check_file(const char *path, const ixb_wbuf *bytes) {
    ixb_wbuf hex;
    ixb_wbuf_init(&hex, NULL);
    /* 64 hex digits per line. */
    for (size_t i = 0; i < bytes->len; i += 32) {
        ixb_hex_encode(bytes->data + i, bytes->len - i < 32 ? bytes->len - i : 32, &hex);
        ixb_put_u8(&hex, '\n');
    }
    if (getenv("IXDB_UPDATE_SAMPLES")) {
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(hex.data, 1, hex.len, f) == hex.len, "write %s", path);
        if (f) fclose(f);
    }
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "read %s", path);
    if (f) {
        char *buf = malloc(hex.len + 2);
        size_t n = fread(buf, 1, hex.len + 1, f);
        fclose(f);
        CHECK(n == hex.len && memcmp(buf, hex.data, n) == 0,
              "%s is what the encoders produce (IXDB_UPDATE_SAMPLES=1 rewrites it)", path);
        free(buf);
    }
    ixb_wbuf_free(&hex);
}

/* Decodes a whole stream; returns the number of messages, -1 on error. */
static int decode_all(const ixb_wbuf *b, ixp_role role) {
    ixp_reader r;
    ixp_reader_init(&r, role, NULL);
    ixp_reader_feed(&r, b->data, b->len);
    int n = 0, rc;
    ixp_msg m;
    while ((rc = ixp_reader_next(&r, &m)) == IX_OK) {
        n++;
        if (m.tag == IXP_SQ_PROTOCOLS && role == IXP_FROM_SERVER)
            r.caps = ixp_caps_from_bits(m.u.protocols.p, m.u.protocols.n);
    }
    int ok = rc == IX_NEED_MORE && ixp_reader_pending(&r) == 0;
    ixp_reader_free(&r);
    return ok ? n : -1;
}

int main(void) {
    ixb_wbuf c, s;
    ixb_wbuf_init(&c, NULL);
    ixb_wbuf_init(&s, NULL);
    build(&c, &s);
    CHECK(c.err == IX_OK && s.err == IX_OK, "sample encodes");
    check_file(IXDB_TEST_DATA "/sample-login.client.hex", &c);
    check_file(IXDB_TEST_DATA "/sample-login.server.hex", &s);
    /* The client stream needs f62 for its PREPARE; decode it that way. */
    ixp_reader r;
    ixp_reader_init(&r, IXP_FROM_CLIENT, NULL);
    ixp_reader_feed(&r, c.data, c.len);
    ixp_msg m;
    int n = 0, rc;
    while ((rc = ixp_reader_next(&r, &m)) == IX_OK) {
        n++;
        if (m.tag == IXP_SQ_PROTOCOLS) r.caps.f62 = r.caps.f63 = r.caps.f54 = 1;
    }
    CHECK(rc == IX_NEED_MORE && ixp_reader_pending(&r) == 0 && n == 24,
          "client sample decodes (%d messages, %s)", n, ix_rc_str(rc));
    ixp_reader_free(&r);
    n = decode_all(&s, IXP_FROM_SERVER);
    CHECK(n == 19, "server sample decodes (%d messages)", n);
    ixb_wbuf_free(&c);
    ixb_wbuf_free(&s);
    return tap_done();
}
