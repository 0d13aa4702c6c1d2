/*
 * The smart-LOB codec (src/proto/ix_lob.c): handles, tuple and bind forms,
 * SQ_LODATA requests and replies in both roles, and the bounds on every
 * length (truncated input needs more, oversized and inconsistent lengths are
 * malformed or over the limit); SQ_FILE requests and replies the same way.
 */
#include <string.h>

#include "proto/ix_lob.h"
#include "proto/ix_msg.h"
#include "tap.h"

static int decode(const ixb_wbuf *b, ixp_role role, const ixp_limits *lim, ixp_msg *m) {
    ixp_caps caps = {0};
    return ixp_msg_decode(b->data, b->len, role, &caps, lim, m, NULL, NULL);
}

static void test_locator(void) {
    ixp_locator l = {IXP_LO_XID_CLOB, 123456789012LL}, r = {0};
    uint8_t h[IXP_LOCATOR_LEN];
    ixp_locator_encode(&l, h);
    CHECK(ixp_locator_decode(h, sizeof h, &r) == IX_OK && r.kind == l.kind && r.id == l.id,
          "handle round trip");
    CHECK(ixp_locator_decode(h, 71, &r) == IX_EMALFORMED, "short handle");
    h[0] ^= 1;
    CHECK(ixp_locator_decode(h, sizeof h, &r) == IX_EMALFORMED, "foreign handle");
    h[0] ^= 1;
    h[5] = 12;
    CHECK(ixp_locator_decode(h, sizeof h, &r) == IX_EMALFORMED, "kind neither BLOB nor CLOB");
    h[5] = IXP_LO_XID_CLOB;
    h[7] = 0xf8; /* the reserved flags word (a fuzz_lob crash input) */
    CHECK(ixp_locator_decode(h, sizeof h, &r) == IX_EMALFORMED, "reserved flags set");
    h[7] = 0;
    h[40] = 1;
    CHECK(ixp_locator_decode(h, sizeof h, &r) == IX_EMALFORMED, "reserved bytes set");
    h[40] = 0;
    CHECK(ixp_locator_decode(h, sizeof h, &r) == IX_OK, "restored");

    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_lob_tuple_encode(&b, &l);
    ixp_lob_tuple_encode(&b, NULL);
    CHECK(b.len == 77 + 5, "tuple forms are 77 and 5 bytes (%zu)", b.len);
    int is_null = -1;
    size_t used = 0;
    CHECK(ixp_lob_tuple_decode(b.data, b.len, &is_null, &r, &used) == IX_OK && !is_null &&
              used == 77 && r.id == l.id,
          "tuple value");
    CHECK(ixp_lob_tuple_decode(b.data + 77, 5, &is_null, &r, &used) == IX_OK && is_null &&
              used == 5,
          "tuple NULL");
    CHECK(ixp_lob_tuple_decode(b.data, 40, &is_null, &r, &used) == IX_NEED_MORE, "tuple cut");
    const uint8_t *raw = NULL;
    b.data[5] ^= 0xff; /* a handle ixd did not make: the envelope still splits */
    CHECK(ixp_lob_tuple_decode(b.data, b.len, &is_null, &r, &used) == IX_EMALFORMED &&
              ixp_lob_tuple_split(b.data, b.len, &is_null, &raw, &used) == IX_OK && !is_null &&
              used == 77 && raw == b.data + 5,
          "a foreign handle splits but does not decode");
    b.data[5] ^= 0xff;
    CHECK(ixp_lob_tuple_split(b.data + 77, 5, &is_null, &raw, &used) == IX_OK && is_null &&
              used == 5,
          "split NULL");
    b.data[4] = 71;
    CHECK(ixp_lob_tuple_decode(b.data, b.len, &is_null, &r, &used) == IX_EMALFORMED,
          "tuple with a length other than 72");
    ixb_wbuf_free(&b);
}

static void test_bind(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_locator l = {IXP_LO_XID_BLOB, 42}, r = {0};
    ixb_put_i16(&b, IXP_SQ_BIND);
    ixb_put_i16(&b, 2);
    ixp_lob_bind_item(&b, IXP_LO_XID_BLOB, &l);
    ixp_lob_bind_item(&b, IXP_LO_XID_CLOB, NULL);
    ixb_put_i16(&b, IXP_SQ_EOT);
    ixp_msg m;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.tag == IXP_SQ_BIND,
          "BIND with handles decodes");
    size_t pos = 0;
    ixp_bindval v;
    int kind = 0;
    CHECK(ixp_bind_next(&m, &pos, &v) && ixp_lob_xname(v.xname.p, v.xname.n, &kind) &&
              kind == IXP_LO_XID_BLOB && ixp_lob_bind_value(&v, &r) == IX_OK && r.id == 42,
          "bound handle");
    CHECK(ixp_bind_next(&m, &pos, &v) && v.indicator == IXP_IND_NULL &&
              ixp_lob_xname(v.xname.p, v.xname.n, &kind) && kind == IXP_LO_XID_CLOB,
          "bound NULL CLOB");
    /* a handle bound with another length is malformed */
    size_t at = 4 + 2 + 10 + 6 + 4; /* tag, count, type, 2 CHARs, ind, slot */
    b.data[at + 1] = 70;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "handle of 70 bytes refused");
    ixb_wbuf_free(&b);
}

static void test_requests(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_msg m;
    CHECK(ixp_enc_lo_readseek(&b, 3, 1000, 1LL << 33, IXP_LO_SEEK_SET) == IX_OK, "enc seek");
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.u.lodata.op == IXP_LO_OP_READSEEK &&
              m.u.lodata.fd == 3 && m.u.lodata.length == 1000 &&
              m.u.lodata.bufsize == IXP_LO_BUFSIZE && m.u.lodata.offset == 1LL << 33 &&
              m.len == b.len,
          "read-with-seek request");
    /* the offset is a JDBC long int: i16 sign, u32 low word, u32 high word */
    static const uint8_t want[10] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 2};
    CHECK(b.len == 24 && memcmp(b.data + 12, want, 10) == 0, "offset 2^33 as 10 bytes");
    ixb_wbuf_reset(&b);
    CHECK(ixp_enc_lo_readseek(&b, 3, 10, -5, IXP_LO_SEEK_CUR) == IX_OK &&
              decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.u.lodata.offset == -5,
          "a negative offset");
    b.data[13] = 7; /* sign 7 */
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "a sign other than 1 / -1");
    ixb_wbuf_reset(&b);
    CHECK(ixp_enc_lo_readseek(&b, 3, 10, 0, IXP_LO_SEEK_CUR) == IX_OK, "offset 0");
    b.data[12] = 0xff, b.data[13] = 0xff; /* sign -1 with magnitude 0 */
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "-0 is not canonical");
    ixb_wbuf_reset(&b);
    CHECK(ixp_enc_lo_readseek(&b, 3, 10, INT64_MIN, IXP_LO_SEEK_CUR) == IX_EINVAL,
          "INT64_MIN has no magnitude");
    ixb_wbuf_reset(&b);
    CHECK(ixp_enc_lo_readseek(&b, 3, 1000, 1LL << 33, IXP_LO_SEEK_SET) == IX_OK, "enc seek");
    for (size_t cut = 0; cut < b.len; cut++) {
        ixb_wbuf c;
        ixb_wbuf_init(&c, NULL);
        ixb_put_bytes(&c, b.data, cut);
        int rc = decode(&c, IXP_FROM_CLIENT, NULL, &m);
        ixb_wbuf_free(&c);
        if (rc != IX_NEED_MORE) {
            CHECK(0, "cut at %zu needs more (%d)", cut, rc);
            break;
        }
    }
    ixb_wbuf_reset(&b);
    static uint8_t big[70000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 7);
    CHECK(ixp_enc_lo_write(&b, 1, big, sizeof big) == IX_OK, "enc write");
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.len == b.len &&
              m.u.lodata.length == (int32_t)sizeof big,
          "write request of 70000 bytes");
    size_t pos = 0, got = 0;
    ixp_bytes c;
    int same = 1, chunks = 0;
    while (ixp_lodata_chunk(&m.u.lodata, &pos, &c)) {
        same &= memcmp(c.p, big + got, c.n) == 0;
        got += c.n;
        chunks++;
    }
    CHECK(same && got == sizeof big && chunks == 3, "three chunks carry the bytes");
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    CHECK(ixp_msg_encode(&out, IXP_FROM_CLIENT, &(ixp_caps){0}, &m) == IX_OK && out.len == b.len &&
              memcmp(out.data, b.data, b.len) == 0,
          "write request re-encodes byte for byte");
    ixb_wbuf_free(&out);
    ixp_limits lim = {.max_value = 1000};
    ixp_limits_default(&lim);
    CHECK(decode(&b, IXP_FROM_CLIENT, &lim, &m) == IX_ELIMIT, "length over the limit");
    /* a chunk longer than the stated length */
    b.data[8] = 0; /* length 10: the first chunk (32766 bytes) is longer */
    b.data[7] = 0;
    b.data[9] = 10;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "chunk past the length");
    ixb_wbuf_reset(&b);
    ixp_enc_lo_read(&b, 1, 5);
    b.data[3] = 9; /* op 9 */
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "unknown operation");
    CHECK(ixp_enc_lo_read(&b, -1, 5) == IX_EINVAL && ixp_enc_lo_read(&b, 1, -5) == IX_EINVAL,
          "encoder refuses a negative fd or length");
    ixb_wbuf_free(&b);
}

static void test_replies(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_msg m;
    CHECK(ixp_enc_lo_reply(&b, IXP_LO_OP_READ, "hello", 5) == IX_OK, "enc reply");
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.u.lodata.length == 5 &&
              m.len == 2 + 2 + 4 + 2 + 6,
          "read reply");
    b.len -= 3;
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_NEED_MORE, "truncated reply needs more");
    ixb_wbuf_reset(&b);
    ixp_enc_lo_reply(&b, IXP_LO_OP_READ, "", 0);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == 8, "empty read reply");
    ixb_wbuf_reset(&b);
    ixp_enc_lo_reply(&b, IXP_LO_OP_WRITE, NULL, 77);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == 8 && m.u.lodata.length == 77,
          "write reply has no chunks");
    /* a zero-length chunk ends the data, also before the size is reached */
    ixb_wbuf_reset(&b);
    ixb_put_i16(&b, IXP_SQ_LODATA);
    ixb_put_i16(&b, 0);
    ixb_put_i32(&b, 4);
    ixb_put_i16(&b, 0);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == 10 && m.u.lodata.data.n == 2,
          "a zero-length chunk ends an empty read");
    ixb_wbuf_reset(&b);
    ixb_put_i16(&b, IXP_SQ_LODATA);
    ixb_put_i16(&b, 0);
    ixb_put_i32(&b, -4);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "negative size");
    ixb_wbuf_free(&b);
}

/* The header of a read reply: op 1, the stated size. */
static void reply_head(ixb_wbuf *b, int32_t size) {
    ixb_wbuf_reset(b);
    ixb_put_i16(b, IXP_SQ_LODATA);
    ixb_put_i16(b, IXP_LO_OP_READSEEK);
    ixb_put_i32(b, size);
}

/* Bytes of chunks in a decoded reply, or -1 when a chunk lies outside it. */
static long chunk_total(const ixp_lodata *d) {
    size_t pos = 0;
    long total = 0;
    ixp_bytes ch;
    while (ixp_lodata_chunk(d, &pos, &ch))
        total += (long)ch.n;
    return pos == d->data.n ? total : -1;
}

/* A real server's read reply may state more than it sends (the LO's size):
 * the chunks add up to at most what the client asked for (max_lo_read) and
 * end there, at a zero-length chunk, or run into the next message. */
static void test_tolerant_replies(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_msg m;
    ixp_limits lim = {.max_lo_read = 5};
    reply_head(&b, 100000); /* the LO's size, five bytes asked */
    ixb_put_i16(&b, 5);
    ixb_put_bytes(&b, "hello", 5);
    ixb_put_pad(&b, 5);
    ixb_put_i16(&b, IXP_SQ_EOT);
    CHECK(decode(&b, IXP_FROM_SERVER, &lim, &m) == IX_OK && m.len == b.len - 2 &&
              m.u.lodata.length == 100000 && chunk_total(&m.u.lodata) == 5,
          "a reply stating the LO's size ends at what was asked");
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_NEED_MORE,
          "without the asked size the next message reads as a chunk");
    reply_head(&b, 100000);
    ixb_put_i16(&b, 3);
    ixb_put_bytes(&b, "abc", 3);
    ixb_put_pad(&b, 3);
    ixb_put_i16(&b, 0);
    ixb_put_i16(&b, IXP_SQ_EOT);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.len == b.len - 2 &&
              chunk_total(&m.u.lodata) == 3,
          "a zero-length chunk ends the data short of the size");
    reply_head(&b, 100000);
    ixb_put_i16(&b, 6);
    ixb_put_bytes(&b, "abcdef", 6);
    CHECK(decode(&b, IXP_FROM_SERVER, &lim, &m) == IX_EMALFORMED,
          "a chunk past what was asked is malformed");
    reply_head(&b, 3);
    ixb_put_i16(&b, 4);
    ixb_put_bytes(&b, "abcd", 4);
    lim.max_lo_read = 100;
    CHECK(decode(&b, IXP_FROM_SERVER, &lim, &m) == IX_EMALFORMED,
          "a chunk past the stated size is malformed");
    reply_head(&b, 10);
    ixb_put_i16(&b, 4);
    ixb_put_bytes(&b, "abcd", 4);
    CHECK(decode(&b, IXP_FROM_SERVER, &lim, &m) == IX_NEED_MORE,
          "chunks short of both the size and the asked bytes need more");
    ixp_limits small = {.max_value = 8, .max_lo_read = 4};
    reply_head(&b, 1000);
    ixb_put_i16(&b, 4);
    ixb_put_bytes(&b, "abcd", 4);
    CHECK(decode(&b, IXP_FROM_SERVER, &small, &m) == IX_OK && chunk_total(&m.u.lodata) == 4,
          "a read reply's size is not held to max_value");
    ixb_wbuf_reset(&b);
    ixp_enc_lo_reply(&b, IXP_LO_OP_WRITE, NULL, 77);
    CHECK(decode(&b, IXP_FROM_SERVER, &small, &m) == IX_ELIMIT, "a write reply's size is");
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    reply_head(&b, 100000);
    ixb_put_i16(&b, 2);
    ixb_put_bytes(&b, "xy", 2);
    ixb_put_i16(&b, 0);
    ixp_caps caps = {0};
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK &&
              ixp_msg_encode(&out, IXP_FROM_SERVER, &caps, &m) == IX_OK && out.len == b.len &&
              !memcmp(out.data, b.data, b.len),
          "a short reply with its zero-length chunk re-encodes byte for byte");
    ixb_wbuf_free(&out);
    ixb_wbuf_free(&b);
}

/* SQ_FILE (98): requests from the server, replies from the client. */
static void test_file(void) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixp_msg m;
    CHECK(ixp_enc_file_req(&b, IXP_FILE_OPEN_READ, "a.bin", 5) == IX_OK, "enc open");
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK && m.tag == IXP_SQ_FILE &&
              m.u.file.op == IXP_FILE_OPEN_READ && m.u.file.length == 5 && m.u.file.data.n == 6 &&
              !memcmp(m.u.file.data.p, "a.bin", 5) && m.len == 2 + 2 + 4 + 6,
          "open request: name and pad");
    b.len--;
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_NEED_MORE, "truncated open needs more");
    ixb_wbuf_reset(&b);
    CHECK(ixp_enc_file_req(&b, IXP_FILE_OPEN_READ, "", 0) == IX_EINVAL, "no empty name");
    ixb_put_i16(&b, IXP_SQ_FILE);
    ixb_put_i16(&b, IXP_FILE_OPEN_WRITE);
    ixb_put_i32(&b, IXP_FILE_NAME_MAX + 1);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "name over 4095 bytes");
    ixb_wbuf_reset(&b);
    ixb_put_i16(&b, IXP_SQ_FILE);
    ixb_put_i16(&b, 9);
    ixb_put_i32(&b, 0);
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_EMALFORMED, "unknown op");
    ixb_wbuf_reset(&b);
    uint8_t big[40000];
    memset(big, 7, sizeof big);
    CHECK(ixp_enc_file_req(&b, IXP_FILE_WRITE, big, sizeof big) == IX_OK, "enc write");
    size_t pos = 0, total = 0;
    ixp_bytes ch;
    CHECK(decode(&b, IXP_FROM_SERVER, NULL, &m) == IX_OK, "write request");
    while (ixp_lodata_chunk(&m.u.file, &pos, &ch))
        total += ch.n;
    CHECK(total == sizeof big, "write chunks add up (%zu)", total);
    ixp_limits lim;
    ixp_limits_default(&lim);
    lim.max_value = 1000;
    CHECK(decode(&b, IXP_FROM_SERVER, &lim, &m) == IX_ELIMIT, "write over the limit");
    ixb_wbuf_reset(&b);
    CHECK(ixp_enc_file_reply(&b, IXP_FILE_READ, 3, "xyz", 3) == IX_OK, "enc read reply");
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.u.file.length == 3 &&
              m.u.file.data.n == 2 + 4,
          "read reply");
    b.len -= 2;
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_NEED_MORE, "truncated read reply");
    ixb_wbuf_reset(&b);
    ixp_enc_file_reply(&b, IXP_FILE_OPEN_READ, IXP_FILE_EREFUSED, NULL, 0);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_OK && m.len == 8 &&
              m.u.file.length == IXP_FILE_EREFUSED,
          "refusal");
    ixb_wbuf_reset(&b);
    ixb_put_i16(&b, IXP_SQ_FILE);
    ixb_put_i16(&b, IXP_FILE_READ);
    ixb_put_i32(&b, 4);
    ixb_put_i16(&b, 6); /* a chunk past the stated size */
    ixb_put_bytes(&b, "abcdef", 6);
    CHECK(decode(&b, IXP_FROM_CLIENT, NULL, &m) == IX_EMALFORMED, "chunk past the size");
    ixb_wbuf_free(&b);
}

int main(void) {
    test_file();
    test_locator();
    test_bind();
    test_requests();
    test_replies();
    test_tolerant_replies();
    return tap_done();
}
