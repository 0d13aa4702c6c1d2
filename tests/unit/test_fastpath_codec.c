/*
 * The fast-path codec (src/proto/ix_fastpath.c): SQ_GETROUTINE in both
 * roles, SQ_EXFPROUTINE from the client, SQ_FPROUTINE from the server, as
 * exact byte vectors built from the layouts in docs/protocol.md; the value
 * records and their walker; the bounds on every count and length; the
 * re-encoding of decoded messages and the printed lines.
 */
#include <string.h>

#include "proto/ix_fastpath.h"
#include "proto/ix_lob.h"
#include "proto/ix_msg.h"
#include "proto/ix_print.h"
#include "tap.h"

#define CREATE_SIG_LEN 58 /* strlen(IXP_FP_LO_CREATE_BLOB): even, no pad */
#define CLOSE_SIG_LEN  39 /* strlen(IXP_FP_LO_CLOSE): odd, a pad */

/* Decodes p[0..n) as `role` sent it with the default caps. Returns the
 * decoder's status; *m borrows p. */
static int decode_bytes(const uint8_t *p, size_t n, ixp_role role, const ixp_limits *lim,
                        ixp_msg *m) {
    ixp_caps caps = {0};
    return ixp_msg_decode(p, n, role, &caps, lim, m, NULL, NULL);
}

static int decode(const ixb_wbuf *b, ixp_role role, const ixp_limits *lim, ixp_msg *m) {
    return decode_bytes(b->data, b->len, role, lim, m);
}

/* 1 when m re-encodes to exactly p[0..m->len). */
static int reencodes(const ixp_msg *m, ixp_role role, const uint8_t *p) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_caps caps = {0};
    int ok =
        ixp_msg_encode(&b, role, &caps, m) == IX_OK && b.len == m->len && !memcmp(b.data, p, b.len);
    ixb_wbuf_free(&b);
    return ok;
}

/* 1 when m prints as exactly `want`. */
static int prints(const ixp_msg *m, ixp_role role, const char *want) {
    ixp_printer pr;
    ixp_printer_init(&pr, NULL);
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    ixp_print_msg(&pr, role, m, &out);
    int ok = out.len == strlen(want) && !memcmp(out.data, want, out.len);
    if (!ok) printf("# printed: %.*s\n", (int)out.len, (const char *)out.data);
    ixb_wbuf_free(&out);
    ixp_printer_free(&pr);
    return ok;
}

/* 1 when every proper prefix of b (past the tag) needs more input. */
static int prefixes_need_more(const ixb_wbuf *b, size_t n, ixp_role role) {
    ixp_msg m;
    for (size_t k = 2; k < n; k++)
        if (decode_bytes(b->data, k, role, NULL, &m) != IX_NEED_MORE) return 0;
    return 1;
}

/* The request for LSQ's create signature (58 bytes, no pad), by hand:
 * 00 65 | 00 | 00 00 00 3a | signature | 00 00, then an EOT: 67 bytes,
 * so the EOT starts at an odd offset. */
static void test_getroutine_request(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    static const uint8_t head[] = {0x00, 0x65, 0x00, 0x00, 0x00, 0x00, 0x3a};
    ixb_put_bytes(&b, head, sizeof head);
    ixb_put_bytes(&b, IXP_FP_LO_CREATE_BLOB, CREATE_SIG_LEN);
    static const uint8_t tail[] = {0x00, 0x00, 0x00, 0x0c};
    ixb_put_bytes(&b, tail, sizeof tail);
    CHECK(b.len == 7 + 58 + 2 + 2, "vector length");

    ixb_wbuf e;
    ixb_wbuf_init(&e, NULL);
    ixp_enc_getroutine(&e, IXP_FP_LO_CREATE_BLOB, CREATE_SIG_LEN);
    ixp_enc_tag(&e, IXP_SQ_EOT);
    CHECK(e.len == b.len && !memcmp(e.data, b.data, b.len), "encoder gives the vector");

    ixp_msg m;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.tag == IXP_SQ_GETROUTINE &&
              m.len == 67 && m.u.getroutine.sig.n == CREATE_SIG_LEN &&
              !memcmp(m.u.getroutine.sig.p, IXP_FP_LO_CREATE_BLOB, CREATE_SIG_LEN),
          "request decodes: 67 bytes");
    CHECK(reencodes(&m, IXP_FROM_CLIENT, b.data), "request re-encodes");
    CHECK(
        prints(&m, IXP_FROM_CLIENT,
               "SQ_GETROUTINE sig=\"function informix.ifx_lo_create( ifx_lo_spec,integer,blob)\""),
        "request prints");
    CHECK(decode_bytes(b.data + m.len, b.len - m.len, IXP_FROM_CLIENT, NULL, &m) == IX_OK &&
              m.tag == IXP_SQ_EOT,
          "the EOT follows");
    CHECK(prefixes_need_more(&b, 67, IXP_FROM_CLIENT), "every prefix needs more");

    /* an odd signature: a pad, and the message still has an odd length */
    ixb_wbuf_reset(&e);
    ixp_enc_getroutine(&e, IXP_FP_LO_CLOSE, CLOSE_SIG_LEN);
    CHECK(decode(&e, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.len == 7 + 39 + 1 + 2 &&
              e.data[7 + CLOSE_SIG_LEN] == 0,
          "close signature: a pad");
    ixb_wbuf_reset(&e);
    ixp_enc_getroutine(&e, "function f(int)", 16 - 1);
    CHECK(decode(&e, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.len == 7 + 15 + 1 + 2,
          "odd signature");
    ixb_wbuf_reset(&e);
    ixp_enc_getroutine(&e, "function g(int)x", 16);
    CHECK(decode(&e, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.len == 7 + 16 + 2 && (m.len & 1),
          "even signature: no pad, odd message");
    ixb_wbuf_free(&e);
    ixb_wbuf_free(&b);
}

/* Malformed requests: each one field changed in the close request. */
static void test_getroutine_bounds(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_msg m;
    ixp_enc_getroutine(&b, IXP_FP_LO_CLOSE, CLOSE_SIG_LEN);
    b.data[2] = 1;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "flag byte not 0");
    b.data[2] = 0;
    b.data[7 + CLOSE_SIG_LEN] = 'x';
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "pad not 0");
    b.data[7 + CLOSE_SIG_LEN] = 0;
    b.data[b.len - 1] = 1;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "fparam flag not 0");
    b.data[b.len - 1] = 0;
    ixb_patch_i32(&b, 3, 0);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "empty signature");
    ixb_patch_i32(&b, 3, IXP_FP_SIG_MAX + 1);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "signature over 4095");
    ixb_patch_i32(&b, 3, -1);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "negative length");
    ixb_patch_i32(&b, 3, 200);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_NEED_MORE, "length past the input");
    ixb_wbuf_reset(&b);
    char big[IXP_FP_SIG_MAX];
    memset(big, 'a', sizeof big);
    ixp_enc_getroutine(&b, big, sizeof big);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.u.getroutine.sig.n == 4095,
          "4095-byte signature");
    ixb_wbuf_free(&b);
}

/* The reply: 00 65 | 00 05 "stock" 00 | 00 00 00 07. */
static void test_getroutine_reply(void) {
    static const uint8_t v[] = {0x00, 0x65, 0x00, 0x05, 's',  't',  'o',
                                'c',  'k',  0x00, 0x00, 0x00, 0x00, 0x07};
    ixb_wbuf e;
    ixb_wbuf_init(&e, NULL);
    ixp_enc_getroutine_reply(&e, "stock", 5, 7);
    CHECK(e.len == sizeof v && !memcmp(e.data, v, sizeof v), "encoder gives the vector");
    ixp_msg m;
    CHECK(decode_bytes(v, sizeof v, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == sizeof v &&
              m.u.getroutine.db.n == 5 && !memcmp(m.u.getroutine.db.p, "stock", 5) &&
              m.u.getroutine.handle == 7,
          "reply decodes");
    CHECK(reencodes(&m, IXP_FROM_SERVER, v), "reply re-encodes");
    CHECK(prints(&m, IXP_FROM_SERVER, "SQ_GETROUTINE db=\"stock\" handle=7"), "reply prints");
    CHECK(decode_bytes(v, sizeof v, IXP_FROM_CLIENT, NULL, &m) != IX_OK,
          "the reply is not a request");
    CHECK(decode_bytes(v, sizeof v - 1, IXP_FROM_SERVER, NULL, &m) == IX_NEED_MORE, "cut reply");
    uint8_t w[sizeof v];
    memcpy(w, v, sizeof v);
    w[sizeof w - 1] = 0;
    CHECK(decode_bytes(w, sizeof w, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "handle 0");
    w[10] = 0x80;
    CHECK(decode_bytes(w, sizeof w, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "negative handle");
    ixb_wbuf_free(&e);
}

/* Appends LSQ's arguments of ifx_lo_create by hand: the spec (type 44,
 * owner "", name "ifx_lo_spec", 596 bytes), INTEGER mode, a zero "blob". */
static void put_create_args_by_hand(ixb_wbuf *b, const uint8_t *spec, int mode) {
    static const uint8_t spec_head[] = {0x00, 0x2c, 0x00, 0x00, 0x00, 0x0b, 'i',  'f', 'x',
                                        '_',  'l',  'o',  '_',  's',  'p',  'e',  'c', 0x00,
                                        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x54};
    ixb_put_bytes(b, spec_head, sizeof spec_head);
    ixb_put_bytes(b, spec, IXP_LO_SPEC_LEN);
    static const uint8_t int_head[] = {0x00, 0x02, 0x00, 0x00, 0x00, 0x00};
    ixb_put_bytes(b, int_head, sizeof int_head);
    ixb_put_i32(b, mode);
    static const uint8_t blob_head[] = {0x00, 0x2c, 0x00, 0x00, 0x00, 0x04, 'b',  'l',  'o',
                                        'b',  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x48};
    ixb_put_bytes(b, blob_head, sizeof blob_head);
    ixb_put_zeros(b, IXP_LOCATOR_LEN);
}

/* The 102 of LSQ's create: 00 66 | 00 04 "test" | 00 00 00 03 | 00 03 |
 * 00 00 | 00 05 00 03 | the three records | 00 0c. */
static void test_exfp(void) {
    uint8_t spec[IXP_LO_SPEC_LEN];
    memset(spec, 0, sizeof spec);
    spec[0] = spec[1] = 0xda;
    spec[2] = 0xfe;
    spec[3] = 0xed;
    ixb_wbuf b, e;
    ixb_wbuf_init(&b, NULL);
    ixb_wbuf_init(&e, NULL);
    static const uint8_t head[] = {0x00, 0x66, 0x00, 0x04, 't',  'e',  's',  't',  0x00, 0x00,
                                   0x00, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x05, 0x00, 0x03};
    ixb_put_bytes(&b, head, sizeof head);
    put_create_args_by_hand(&b, spec, IXP_LO_RDWR);
    ixb_put_i16(&b, IXP_SQ_EOT);

    static const uint8_t zero[IXP_LOCATOR_LEN];
    ixp_enc_exfp(&e, "test", 4, 3, 3);
    ixp_enc_fp_udt(&e, IXP_FP_T_SENDRECV, "", "ifx_lo_spec", spec, sizeof spec);
    ixp_enc_fp_int(&e, IXP_LO_RDWR);
    ixp_enc_fp_udt(&e, IXP_FP_T_SENDRECV, NULL, "blob", zero, sizeof zero);
    ixp_enc_tag(&e, IXP_SQ_EOT);
    CHECK(e.len == b.len && !memcmp(e.data, b.data, b.len), "encoder gives the vector (%zu %zu)",
          e.len, b.len);

    ixp_msg m;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.tag == IXP_SQ_EXFPROUTINE &&
              m.len == b.len - 2 && m.u.exfp.handle == 3 && m.u.exfp.nparams == 3 &&
              m.u.exfp.nargs == 3 && m.u.exfp.db.n == 4,
          "call decodes");
    CHECK(reencodes(&m, IXP_FROM_CLIENT, b.data), "call re-encodes");
    size_t pos = 0;
    ixp_fpvalue v;
    CHECK(ixp_fp_value_next(&m.u.exfp.args, &pos, &v) && v.type == IXP_FP_T_SENDRECV &&
              v.owner.n == 0 && v.name.n == 11 && !memcmp(v.name.p, "ifx_lo_spec", 11) &&
              !v.is_null && v.data.n == IXP_LO_SPEC_LEN && v.data.p[0] == 0xda,
          "first argument: the spec");
    CHECK(ixp_fp_value_next(&m.u.exfp.args, &pos, &v) && v.type == IX_T_INTEGER &&
              v.i32 == IXP_LO_RDWR && v.name.n == 0,
          "second argument: the mode");
    CHECK(ixp_fp_value_next(&m.u.exfp.args, &pos, &v) && v.name.n == 4 &&
              v.data.n == IXP_LOCATOR_LEN,
          "third argument: the zero blob");
    CHECK(!ixp_fp_value_next(&m.u.exfp.args, &pos, &v), "three arguments");
    CHECK(prints(&m, IXP_FROM_CLIENT,
                 "SQ_EXFPROUTINE db=\"test\" handle=3 nparams=3 count=3 [ifx_lo_spec(44) 596 "
                 "bytes, INTEGER 8, blob(44) 72 bytes]"),
          "call prints");
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "102 is the client's");
    CHECK(prefixes_need_more(&b, b.len - 2, IXP_FROM_CLIENT), "every prefix needs more");

    /* the close: one INTEGER */
    ixb_wbuf_reset(&e);
    ixp_enc_exfp(&e, "test", 4, 9, 1);
    ixp_enc_fp_int(&e, 5);
    static const uint8_t close_v[] = {0x00, 0x66, 0x00, 0x04, 't',  'e',  's',  't',  0x00, 0x00,
                                      0x00, 0x09, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01,
                                      0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05};
    CHECK(e.len == sizeof close_v && !memcmp(e.data, close_v, e.len), "close call vector");
    ixb_wbuf_free(&e);
    ixb_wbuf_free(&b);
}

/* Malformed calls: one field changed at a time. */
static void test_exfp_bounds(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_msg m;
    ixp_enc_exfp(&b, "db", 2, 1, 1);
    ixp_enc_fp_int(&b, 5);
    size_t n = b.len;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.len == n, "base call");
    ixb_patch_i16(&b, 10, 65);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_ELIMIT, "65 parameters");
    ixb_patch_i16(&b, 10, 1);
    ixb_patch_i16(&b, 12, 1);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "fparam flag not 0");
    ixb_patch_i16(&b, 12, 0);
    ixb_patch_i16(&b, 14, IXP_SQ_EXECUTE);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "arguments not an SQ_BIND");
    ixb_patch_i16(&b, 14, IXP_SQ_BIND);
    ixb_patch_i16(&b, 16, IXP_FP_VALUES_MAX + 1);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_ELIMIT, "65 arguments");
    ixb_patch_i16(&b, 16, -1);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_ELIMIT, "negative count");
    ixb_patch_i16(&b, 16, 2);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_NEED_MORE, "count past the records");
    ixb_patch_i16(&b, 16, 1);
    ixb_patch_i16(&b, 18, IX_T_FLOAT);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "FLOAT is not taken");
    ixb_patch_i16(&b, 18, IX_T_INTEGER | 0x100);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "unknown flag bits");
    ixb_patch_i16(&b, 18, IX_T_INTEGER);
    ixb_patch_i16(&b, 20, 1);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "indicator 1");
    ixb_patch_i16(&b, 20, IXP_IND_DEFAULT);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "indicator -2");
    ixb_patch_i16(&b, 20, 0);
    ixb_patch_i16(&b, 2, 300);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_NEED_MORE, "database name past the input");
    ixp_limits lim = {.max_string = 1};
    ixb_patch_i16(&b, 2, 2);
    CHECK(decode(&b, IXP_FROM_CLIENT, &lim, &m) == IX_ELIMIT, "database name over the limit");
    ixb_wbuf_free(&b);
}

/* A UDT record inside a 103 with the length word at offset 4 + 14. */
static void udt_result(ixb_wbuf *b, int32_t len, size_t have) {
    ixb_wbuf_reset(b);
    ixp_enc_fpresult(b, 1);
    ixb_put_i16(b, IX_T_UDTVAR);
    ixp_enc_char(b, "ab", 2);
    ixp_enc_char(b, "cd", 2);
    ixb_put_i16(b, 0);
    ixb_put_i16(b, 0);
    ixb_put_i32(b, len);
    ixb_put_zeros(b, have);
}

/* The 103 of a create: the new handle (41, informix.blob, 72 bytes) and the fd. */
static void test_fpresult(void) {
    ixp_locator l = {IXP_LO_XID_BLOB, 12};
    uint8_t h[IXP_LOCATOR_LEN];
    ixp_locator_encode(&l, h);
    ixb_wbuf b, e;
    ixb_wbuf_init(&b, NULL);
    ixb_wbuf_init(&e, NULL);
    static const uint8_t head[] = {0x00, 0x67, 0x00, 0x02, 0x00, 0x29, 0x00, 0x08, 'i',  'n',
                                   'f',  'o',  'r',  'm',  'i',  'x',  0x00, 0x04, 'b',  'l',
                                   'o',  'b',  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x48};
    ixb_put_bytes(&b, head, sizeof head);
    ixb_put_bytes(&b, h, sizeof h);
    static const uint8_t fd[] = {0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03};
    ixb_put_bytes(&b, fd, sizeof fd);
    ixp_enc_fpresult(&e, 2);
    ixp_enc_fp_udt(&e, IX_T_UDTFIXED, "informix", "blob", h, sizeof h);
    ixp_enc_fp_int(&e, 3);
    CHECK(e.len == b.len && !memcmp(e.data, b.data, b.len), "encoder gives the vector");
    ixp_msg m;
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.tag == IXP_SQ_FPROUTINE &&
              m.len == b.len && m.u.fpresult.count == 2,
          "result decodes");
    CHECK(reencodes(&m, IXP_FROM_SERVER, b.data), "result re-encodes");
    size_t pos = 0;
    ixp_fpvalue v;
    ixp_locator r = {0};
    CHECK(ixp_fp_value_next(&m.u.fpresult.vals, &pos, &v) && v.type == IX_T_UDTFIXED &&
              v.owner.n == 8 && ixp_locator_decode(v.data.p, v.data.n, &r) == IX_OK && r.id == 12,
          "first value: the handle");
    CHECK(ixp_fp_value_next(&m.u.fpresult.vals, &pos, &v) && v.i32 == 3, "second value: the fd");
    CHECK(
        prints(&m, IXP_FROM_SERVER, "SQ_FPROUTINE count=2 [informix.blob(41) 72 bytes, INTEGER 3]"),
        "result prints");
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "103 is the server's");
    CHECK(prefixes_need_more(&b, b.len, IXP_FROM_SERVER), "every prefix needs more");

    /* NULL, SMALLINT, a distinct INTEGER (names present), no values */
    ixb_wbuf_reset(&e);
    ixp_enc_fpresult(&e, 3);
    ixp_enc_fp_udt(&e, IX_T_UDTFIXED, "informix", "clob", NULL, 0);
    static const uint8_t small[] = {0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfe};
    ixb_put_bytes(&e, small, sizeof small);
    static const uint8_t dist[] = {0x08, 0x02, 0x00, 0x01, 'o',  0x00, 0x00, 0x02, 'd',
                                   't',  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a};
    ixb_put_bytes(&e, dist, sizeof dist);
    CHECK(decode(&e, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == e.len, "mixed values");
    CHECK(prints(&m, IXP_FROM_SERVER,
                 "SQ_FPROUTINE count=3 [informix.clob(41) NULL, SMALLINT -2, o.dt(2) distinct 42]"),
          "mixed values print");
    CHECK(reencodes(&m, IXP_FROM_SERVER, e.data), "mixed values re-encode");
    ixb_wbuf_reset(&e);
    ixp_enc_fpresult(&e, 0);
    CHECK(decode(&e, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == 4 &&
              prints(&m, IXP_FROM_SERVER, "SQ_FPROUTINE count=0"),
          "no values");
    ixb_wbuf_free(&e);
    ixb_wbuf_free(&b);
}

/* UDT lengths against the input and the limits; names against their maximum. */
static void test_fpresult_bounds(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_msg m;
    udt_result(&b, 10, 10);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == b.len, "10-byte UDT");
    udt_result(&b, 11, 11);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_NEED_MORE, "odd UDT without its pad");
    ixb_put_u8(&b, 1);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "pad not 0");
    udt_result(&b, 100, 10);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_NEED_MORE, "length past what is left");
    udt_result(&b, -1, 0);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "negative UDT length");
    ixp_limits lim = {.max_value = 64};
    udt_result(&b, 65, 66);
    CHECK(decode(&b, IXP_FROM_SERVER, &lim, &m) == IX_ELIMIT, "UDT over max_value");
    udt_result(&b, 64, 64);
    CHECK(decode(&b, IXP_FROM_SERVER, &lim, &m) == IX_OK, "UDT at max_value");
    ixb_wbuf_reset(&b);
    ixp_enc_fpresult(&b, 1);
    ixb_put_i16(&b, IX_T_UDTFIXED);
    char name[IXP_FP_NAME_MAX + 1];
    memset(name, 'n', sizeof name);
    ixp_enc_char(&b, name, sizeof name);
    ixp_enc_char(&b, "x", 1);
    ixb_put_i16(&b, IXP_IND_NULL);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_ELIMIT, "owner over 128 bytes");
    ixb_wbuf_reset(&b);
    ixp_enc_fpresult(&b, IXP_FP_VALUES_MAX + 1);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_ELIMIT, "65 results");
    ixb_wbuf_reset(&b);
    ixp_enc_fpresult(&b, 1);
    ixb_put_i16(&b, IX_T_BIGINT);
    ixb_put_i16(&b, IXP_IND_NULL);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "BIGINT is not taken");
    ixb_wbuf_free(&b);
}

int main(void) {
    test_getroutine_request();
    test_getroutine_bounds();
    test_getroutine_reply();
    test_exfp();
    test_exfp_bounds();
    test_fpresult();
    test_fpresult_bounds();
    return tap_done();
}
