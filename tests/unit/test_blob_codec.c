/*
 * The BYTE/TEXT insert form (src/proto/ix_blob.c): the 56-byte descriptor,
 * SQ_BIND items carrying it, SQ_BBIND and SQ_BLOB from the client, the
 * chunking at 1024 bytes with its zero-length end, the printer, and the
 * bounds (negative sizes, counts and chunk lengths over the limits).
 */
#include <string.h>

#include "proto/ix_blob.h"
#include "proto/ix_msg.h"
#include "proto/ix_print.h"
#include "tap.h"

static int decode(const uint8_t *p, size_t n, ixp_role role, ixp_msg *m) {
    ixp_caps caps = {0};
    return ixp_msg_decode(p, n, role, &caps, NULL, m, NULL, NULL);
}

static void test_descriptor(void) {
    uint8_t d[IXP_BLOBDESC_LEN];
    uint8_t want[IXP_BLOBDESC_LEN] = {0};
    want[16] = 0x00, want[17] = 0x01, want[18] = 0x86, want[19] = 0xa0; /* 100000 */
    CHECK(ixp_blobdesc_put(d, 100000) == d + 56 && memcmp(d, want, 56) == 0,
          "descriptor: zero but the size at 16..19");
    uint32_t size = 0;
    int is_null = -1;
    CHECK(ixp_blobdesc_get(d, 56, &size, &is_null) == IX_OK && size == 100000 && !is_null,
          "descriptor read back");
    d[39] = 1;
    CHECK(ixp_blobdesc_get(d, 56, &size, &is_null) == IX_OK && is_null, "NULL flag byte 39");
    CHECK(ixp_blobdesc_get(d, 55, &size, &is_null) == IX_EMALFORMED, "55 bytes");
    d[16] = 0x80;
    CHECK(ixp_blobdesc_get(d, 56, &size, &is_null) == IX_EMALFORMED, "negative size");
}

/* The exact bytes of one value's stream of n bytes 0, 1, 2, ... */
static void check_stream(size_t n, size_t want_len) {
    static uint8_t src[2100], out[2200];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(i * 7 + 1);
    size_t len = ixp_blob_stream_size(n);
    uint8_t *end = ixp_blob_stream_put(out, src, n);
    CHECK(len == want_len && (size_t)(end - out) == len, "%zu bytes: stream of %zu (%zu)", n,
          want_len, len);
    size_t at = 0, got = 0;
    int ok = 1;
    for (;;) {
        uint16_t k = ixb_be16(out + at + 2);
        ok &= ixb_be16(out + at) == IXP_SQ_BLOB && k <= IXP_BLOB_CHUNK;
        if (k == 0) break;
        ok &= memcmp(out + at + 4, src + got, k) == 0;
        if (k & 1) ok &= out[at + 4 + k] == 0;
        got += k;
        at += 4 + k + (k & 1);
    }
    CHECK(ok && got == n && at + 4 == len, "%zu bytes: chunks of <= 1024, then 00 27 00 00", n);
}

static void test_stream(void) {
    check_stream(0, 4);                   /* 00 27 00 00 */
    check_stream(1, 4 + 2 + 4);           /* 00 27 00 01 b0 00, end */
    check_stream(1023, 4 + 1024 + 4);     /* one odd chunk, padded */
    check_stream(1024, 4 + 1024 + 4);     /* one full chunk */
    check_stream(1025, 8 + 1024 + 2 + 4); /* 1024 + 1 (padded) */
    check_stream(2048, 8 + 2048 + 4);     /* two full chunks */
    uint8_t one[10];
    ixp_blob_stream_put(one, (const uint8_t *)"\xab", 1);
    static const uint8_t want[10] = {0x00, 0x27, 0x00, 0x01, 0xab, 0x00, 0x00, 0x27, 0x00, 0x00};
    CHECK(memcmp(one, want, 10) == 0, "one byte: exact bytes");
    uint8_t bb[4];
    ixp_bbind_put(bb, 2);
    CHECK(memcmp(bb, "\x00\x29\x00\x02", 4) == 0, "SQ_BBIND 2: 00 29 00 02");
}

/* A BIND of (BYTE descriptor of 3 bytes, NULL TEXT) as a client sends it. */
static const uint8_t bind_bytes[] = {
    0x00, 0x05, 0x00, 0x02,                                           /* SQ_BIND, 2 values */
    0x00, 0x0b, 0x00, 0x00, 0x00, 0x38,                               /* BYTE, value, slot 56 */
    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* descriptor 0..15 */
    0,    0,    0,    3,                                              /* size 3 at 16..19 */
    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 20..39 */
    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,             /* 40..55 */
    0x00, 0x0c, 0xff, 0xff, 0x00, 0x00, /* TEXT, NULL, slot 0 */
};

static void test_bind(void) {
    ixp_msg m;
    CHECK(decode(bind_bytes, sizeof bind_bytes, IXP_FROM_CLIENT, &m) == IX_OK &&
              m.len == sizeof bind_bytes && m.u.bind.count == 2,
          "BIND with a descriptor decodes (%zu bytes)", sizeof bind_bytes);
    size_t pos = 0;
    ixp_bindval v;
    CHECK(ixp_bind_next(&m, &pos, &v) && ixp_bind_is_blobdesc(&v) && v.value.n == 56,
          "first value is a descriptor");
    CHECK(ixp_bind_next(&m, &pos, &v) && !ixp_bind_is_blobdesc(&v) && v.indicator == IXP_IND_NULL,
          "second is a NULL item");
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    CHECK(ixp_msg_encode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && b.len == sizeof bind_bytes &&
              memcmp(b.data, bind_bytes, b.len) == 0,
          "re-encodes byte for byte");
    ixb_wbuf_reset(&b);
    uint8_t d[56];
    ixp_blobdesc_put(d, 3);
    ixp_bindval vals[2] = {{.type = 11, .slot = IXP_BLOBDESC_LEN, .value = {d, 56}},
                           {.type = 12, .indicator = IXP_IND_NULL}};
    CHECK(ixp_enc_bind(&b, vals, 2) == IX_OK && b.len == sizeof bind_bytes &&
              memcmp(b.data, bind_bytes, b.len) == 0,
          "ixp_enc_bind writes the same bytes");
    ixb_wbuf_free(&b);
    CHECK(decode(bind_bytes, 40, IXP_FROM_CLIENT, &m) == IX_NEED_MORE, "cut descriptor");
    uint8_t bad[sizeof bind_bytes];
    memcpy(bad, bind_bytes, sizeof bad);
    bad[10 + 16] = 0xff;
    CHECK(decode(bad, sizeof bad, IXP_FROM_CLIENT, &m) == IX_EMALFORMED, "negative size");
    /* the inline form (slot 0, i32 length) still decodes */
    static const uint8_t inline_form[] = {0x00, 0x05, 0x00, 0x01, 0x00, 0x0b, 0x00, 0x00,
                                          0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x7a, 0x00};
    CHECK(decode(inline_form, sizeof inline_form, IXP_FROM_CLIENT, &m) == IX_OK &&
              m.len == sizeof inline_form,
          "inline BYTE form");
}

static void test_messages(void) {
    ixp_msg m;
    static const uint8_t bbind[] = {0x00, 0x29, 0x00, 0x03};
    CHECK(decode(bbind, 4, IXP_FROM_CLIENT, &m) == IX_OK && m.tag == IXP_SQ_BBIND &&
              m.u.bbind == 3 && m.len == 4,
          "SQ_BBIND 3");
    CHECK(decode(bbind, 3, IXP_FROM_CLIENT, &m) == IX_NEED_MORE, "SQ_BBIND cut");
    CHECK(decode(bbind, 4, IXP_FROM_SERVER, &m) == IX_EMALFORMED, "SQ_BBIND from a server");
    static const uint8_t neg[] = {0x00, 0x29, 0xff, 0xff};
    CHECK(decode(neg, 4, IXP_FROM_CLIENT, &m) == IX_ELIMIT, "negative SQ_BBIND count");
    static const uint8_t chunk[] = {0x00, 0x27, 0x00, 0x03, 'a', 'b', 'c', 0x00};
    CHECK(decode(chunk, sizeof chunk, IXP_FROM_CLIENT, &m) == IX_OK && m.tag == IXP_SQ_BLOB &&
              m.u.blob.n == 3 && m.len == 8,
          "SQ_BLOB from the client");
    static const uint8_t end[] = {0x00, 0x27, 0x00, 0x00};
    CHECK(decode(end, 4, IXP_FROM_CLIENT, &m) == IX_OK && m.u.blob.n == 0, "zero-length end");
    static const uint8_t big[] = {0x00, 0x27, 0x80, 0x00};
    CHECK(decode(big, 4, IXP_FROM_CLIENT, &m) == IX_ELIMIT, "chunk over 32767");
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    CHECK(decode(bbind, 4, IXP_FROM_CLIENT, &m) == IX_OK &&
              ixp_msg_encode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && b.len == 4 &&
              memcmp(b.data, bbind, 4) == 0,
          "SQ_BBIND re-encodes");
    ixb_wbuf_reset(&b);
    CHECK(ixp_enc_bbind(&b, 3) == IX_OK &&
              ixp_enc_blob_stream(&b, (const uint8_t *)"abc", 3) == IX_OK && b.len == 4 + 8 + 4 &&
              memcmp(b.data + 4, chunk, 8) == 0 && memcmp(b.data + 12, end, 4) == 0,
          "appenders write the same bytes");
    ixb_wbuf_free(&b);
}

static void test_print(void) {
    ixp_printer pr;
    ixp_printer_init(&pr, NULL);
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    ixp_msg m;
    decode(bind_bytes, sizeof bind_bytes, IXP_FROM_CLIENT, &m);
    ixp_print_msg(&pr, IXP_FROM_CLIENT, &m, &out);
    ixb_put_u8(&out, 0);
    CHECK(strstr((char *)out.data, "<descriptor: 3 bytes follow>") != NULL, "printed: %s",
          (char *)out.data);
    ixb_wbuf_reset(&out);
    static const uint8_t bbind[] = {0x00, 0x29, 0x00, 0x03};
    decode(bbind, 4, IXP_FROM_CLIENT, &m);
    ixp_print_msg(&pr, IXP_FROM_CLIENT, &m, &out);
    ixb_put_u8(&out, 0);
    CHECK(strcmp((char *)out.data, "SQ_BBIND count=3") == 0, "printed: %s", (char *)out.data);
    ixb_wbuf_free(&out);
    ixp_printer_free(&pr);
}

int main(void) {
    test_descriptor();
    test_stream();
    test_bind();
    test_messages();
    test_print();
    return tap_done();
}
