/*
 * Message codec unit tests: every message in both roles and every capability
 * variant is built, decoded, checked field by field, re-encoded byte for
 * byte, fed byte by byte, and every strict prefix needs more bytes. Broken
 * inputs give the right error at the right offset.
 */
#include <stdlib.h>
#include <string.h>

#include "base/ix_hex.h"
#include "proto/ix_caps.h"
#include "proto/ix_msg.h"
#include "proto/ix_print.h"
#include "proto/ix_reader.h"
#include "tap.h"
#include "types/ix_types.h"

#define B(s) ((ixp_bytes){(const uint8_t *)(s), sizeof(s) - 1})

/* Decodes one message from w, checks it uses all bytes, re-encodes it, and
 * checks every prefix needs more bytes and byte-wise feeding agrees. */
static int roundtrip(const ixb_wbuf *w, ixp_role role, const ixp_caps *caps, ixp_msg *m,
                     const char *what) {
    size_t at = 0;
    const char *why = NULL;
    int rc = ixp_msg_decode(w->data, w->len, role, caps, NULL, m, &at, &why);
    CHECK(rc == IX_OK, "%s: decode gave %s at %zu (%s)", what, ix_rc_str(rc), at, why ? why : "");
    if (rc != IX_OK) return 0;
    CHECK(m->len == w->len, "%s: decoded %zu of %zu bytes", what, m->len, w->len);
    ixb_wbuf again;
    ixb_wbuf_init(&again, NULL);
    ixp_msg_encode(&again, role, caps, m);
    CHECK(again.len == w->len && memcmp(again.data, w->data, w->len) == 0,
          "%s: re-encoding differs", what);
    ixb_wbuf_free(&again);
    for (size_t k = 0; k < w->len; k++) {
        ixp_msg t;
        int st = ixp_msg_decode(w->data, k, role, caps, NULL, &t, NULL, NULL);
        if (st != IX_NEED_MORE) {
            CHECK(0, "%s: prefix %zu gave %s", what, k, ix_rc_str(st));
            break;
        }
    }
    ixp_reader r;
    ixp_reader_init(&r, role, NULL);
    r.expect_login = 0;
    r.caps = *caps;
    int got = 0;
    for (size_t k = 0; k < w->len; k++) {
        ixp_msg t;
        ixp_reader_feed(&r, w->data + k, 1);
        int st = ixp_reader_next(&r, &t);
        if (st == IX_OK) got++;
        CHECK(st == IX_OK || st == IX_NEED_MORE, "%s: byte feed gave %s", what, ix_rc_str(st));
    }
    CHECK(got == 1 && ixp_reader_pending(&r) == 0, "%s: byte feed gave %d messages", what, got);
    ixp_reader_free(&r);
    return 1;
}

static int eqb(ixp_bytes a, ixp_bytes b) {
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static void test_client(const ixp_caps *caps) {
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixp_msg m;
    const char *sql = "SELECT * FROM t WHERE a = ?";

    ixp_enc_prepare(&w, caps, 1, sql, strlen(sql));
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "PREPARE"))
        CHECK(m.tag == IXP_SQ_PREPARE && m.u.stmt.nparams == 1 && m.u.stmt.sql.n == strlen(sql),
              "PREPARE fields");
    CHECK(w.len == 2 + 2 + (caps->f62 ? 4u : 2u) + strlen(sql) + (strlen(sql) & 1),
          "PREPARE SQL length width follows f62");
    ixb_wbuf_reset(&w);
    ixp_enc_command(&w, caps, "DROP TABLE t", 12);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "COMMAND"))
        CHECK(m.u.stmt.nparams == 0 && eqb(m.u.stmt.sql, B("DROP TABLE t")), "COMMAND fields");

    ixb_wbuf_reset(&w);
    ixp_enc_sfetch(&w, caps, IXP_FETCH_ABSOLUTE, 42, 32000);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "SFETCH"))
        CHECK(m.u.sfetch.direction == 6 && m.u.sfetch.position == 42 && m.u.sfetch.bufsize == 32000,
              "SFETCH fields");
    CHECK(w.len == 2 + 2 + 4 + (caps->f62 ? 4u : 2u), "SFETCH buffer size width follows f62");
    ixb_wbuf_reset(&w);
    ixp_enc_nfetch(&w, caps, 4096);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "NFETCH"))
        CHECK(m.u.nfetch.bufsize == 4096 && m.u.nfetch.arraysize == 0, "NFETCH fields");
    CHECK(w.len == 2 + (caps->f62 ? 4u : 2u) + 2, "NFETCH buffer size width follows f62");

    static const int bare[] = {
        IXP_SQ_OPEN,        IXP_SQ_EXECUTE,   IXP_SQ_CLOSE,  IXP_SQ_RELEASE,  IXP_SQ_EOT,
        IXP_SQ_CMMTWORK,    IXP_SQ_NDESCRIBE, IXP_SQ_SCROLL, IXP_SQ_BEGIN,    IXP_SQ_DBCLOSE,
        IXP_SQ_HOLD,        IXP_SQ_WANTDONE,  IXP_SQ_EXIT,   IXP_SQ_AUTOFREE, IXP_SQ_ACK,
        IXP_SQ_BATCH_START, IXP_SQ_BATCH_END, IXP_SQ_DBLIST};
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        ixb_wbuf_reset(&w);
        ixp_enc_tag(&w, bare[i]);
        if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, ixp_tag_name(bare[i])))
            CHECK(m.tag == bare[i], "%s tag", ixp_tag_name(bare[i]));
    }

    /* ROLLBACK WORK: with and without libsqli's i16 0 flag word. */
    ixb_wbuf_reset(&w);
    ixb_put_i16(&w, IXP_SQ_RBWORK);
    ixb_put_i16(&w, 0);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "RBWORK+flag"))
        CHECK(m.u.rbwork.has_flag == 1, "RBWORK flag word consumed");
    static const uint8_t rb_eot[] = {0, 20, 0, 12};
    CHECK(ixp_msg_decode(rb_eot, 4, IXP_FROM_CLIENT, caps, NULL, &m, NULL, NULL) == IX_OK &&
              m.len == 2 && !m.u.rbwork.has_flag,
          "RBWORK followed by EOT leaves the EOT");

    /* Savepoints (single source). */
    ixb_wbuf_reset(&w);
    ixp_enc_svpoint(&w, IXP_SQ_SVPOINT, "sp1", 3, 1);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "SVPOINT"))
        CHECK(eqb(m.u.svpoint.name, B("sp1")) && m.u.svpoint.unique == 1, "SVPOINT fields");
    ixb_wbuf_reset(&w);
    ixp_enc_svpoint(&w, IXP_SQ_RBSVPOINT, "sp1", 3, 0);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "RBSVPOINT"))
        CHECK(eqb(m.u.name, B("sp1")), "RBSVPOINT name");
    ixb_wbuf_reset(&w);
    ixp_enc_svpoint(&w, IXP_SQ_RELSVPOINT, "s2", 2, 0);
    roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "RELSVPOINT");

    /* FETCHBLOB: descriptor width follows f70. */
    uint8_t desc[68] = {0};
    desc[11] = 5;
    ixb_wbuf_reset(&w);
    ixp_enc_fetchblob(&w, desc, caps->f70 ? 68 : 56);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "FETCHBLOB"))
        CHECK(m.u.blobdesc.n == (caps->f70 ? 68u : 56u), "FETCHBLOB descriptor width");

    ixb_wbuf_reset(&w);
    ixp_enc_response(&w, (const uint8_t *)"secret", 6);
    roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "RESPONSE");
    ixb_wbuf_reset(&w);
    ixb_put_i16(&w, IXP_SQ_GENKEYS);
    ixb_put_i16(&w, 1);
    roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "GENKEYS");

    /* BIND with a value of every bindable type, NULL and DEFAULT. */
    static const uint8_t i32v[] = {0, 0, 9, 0xa4}, i16v[] = {0, 1},
                         i64v[] = {0, 0, 0, 0, 0, 0, 0, 1}, dbl[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0},
                         str[] = {0, 3, 'a', 'b', 'c'}, str2[] = {0, 2, 'h', 'i'},
                         dec[] = {0, 4, 0xc2, 1, 0x17, 0x2d}, dt[] = {0, 3, 0xc3, 0x17, 0x3b},
                         i8[] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0}, boo[] = {1},
                         blob[] = {0, 0, 0, 3, 1, 2, 3};
    ixp_bindval v[] = {
        {.type = IX_T_INTEGER, .slot = 0x0a00, .value = {i32v, 4}},
        {.type = IX_T_SMALLINT, .value = {i16v, 2}},
        {.type = IX_T_BIGINT, .slot = 0x1300, .value = {i64v, 8}},
        {.type = IX_T_FLOAT, .value = {dbl, 8}},
        {.type = IX_T_SMALLFLOAT, .value = {dbl, 4}},
        {.type = IX_T_CHAR, .slot = 3, .value = {str, 5}},
        {.type = IX_T_VARCHAR, .value = {str2, 4}},
        {.type = IX_T_DECIMAL, .slot = 0xff, .value = {dec, 6}},
        {.type = IX_T_DATETIME, .slot = 0x0468, .value = {dt, 5}},
        {.type = IX_T_DATE, .value = {i32v, 4}},
        {.type = IX_T_INT8, .value = {i8, 10}},
        {.type = IX_T_BOOLEAN, .value = {boo, 1}},
        {.type = IX_T_BOOLEAN,
         .has_names = 1,
         .owner = B("informix"),
         .xname = B("boolean"),
         .value = {boo, 1}},
        {.type = IX_T_LVARCHAR, .has_names = 1, .value = {str, 5}},
        {.type = IX_T_BYTE, .value = {blob, 7}},
        {.type = IX_T_INTEGER, .indicator = IXP_IND_NULL},
        {.type = IX_T_BOOLEAN, .indicator = IXP_IND_NULL},
        {.type = IX_T_VARCHAR, .indicator = IXP_IND_DEFAULT},
    };
    int nv = (int)(sizeof v / sizeof v[0]);
    ixb_wbuf_reset(&w);
    ixp_enc_bind(&w, v, nv);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "BIND")) {
        CHECK(m.u.bind.count == nv, "BIND count");
        size_t pos = 0;
        ixp_bindval got;
        int i = 0;
        while (ixp_bind_next(&m, &pos, &got)) {
            CHECK(i < nv && got.type == v[i].type && got.indicator == v[i].indicator &&
                      got.slot == v[i].slot && got.has_names == v[i].has_names &&
                      eqb(got.value, v[i].value) && eqb(got.xname, v[i].xname),
                  "BIND value %d", i);
            i++;
        }
        CHECK(i == nv, "BIND walked %d of %d values", i, nv);
    }
    /* Malformed BIND values of the common types: the error and its offset
     * (tag, count, type, indicator at 6, slot, inner length at 10). */
    static const struct {
        const char *hex;
        int rc;
        size_t at;
    } badbind[] = {
        {"0005000100000005000000000001", IX_EMALFORMED, 6},      /* INTEGER, indicator 5 */
        {"000500010000fffd000000000001", IX_EMALFORMED, 6},      /* INTEGER, indicator -3 */
        {"000500010000000000000005616263646500", IX_ELIMIT, 10}, /* VARCHAR 5 > limit 4 */
        {"00050001000d00000000ffff", IX_EMALFORMED, 10},         /* VARCHAR length -1 */
        {"0005000100050000000000130000", IX_EMALFORMED, 10},     /* DECIMAL 19 bytes */
        {"0005000100000000000000036162", IX_NEED_MORE, 14},      /* CHAR short */
        {"000500010000000000000003616263", IX_NEED_MORE, 15},    /* CHAR 3, no pad */
        {"00050001000200000000000000", IX_NEED_MORE, 13},        /* INTEGER short */
        {"000500010009000000000000", IX_EMALFORMED, 10},         /* NULL type as a value */
    };
    for (size_t k = 0; k < sizeof badbind / sizeof badbind[0]; k++) {
        ixb_wbuf bb;
        ixb_wbuf_init(&bb, NULL);
        ixb_hex_decode(badbind[k].hex, strlen(badbind[k].hex), &bb, NULL);
        ixp_limits lim = {.max_value = 4};
        ixp_msg bm;
        size_t at = 0;
        const char *why = NULL;
        int rc = ixp_msg_decode(bb.data, bb.len, IXP_FROM_CLIENT, caps, &lim, &bm, &at, &why);
        CHECK(rc == badbind[k].rc && (rc == IX_NEED_MORE || at == badbind[k].at),
              "bad BIND %zu: rc %d at %zu (%s)", k, rc, at, why ? why : "");
        ixb_wbuf_free(&bb);
    }
    /* The example of §3.4: one DATE 1970-01-01 then execute. */
    static const char *date_bind = "0004000000050001000700000000000063e00007000c";
    ixb_wbuf ex;
    ixb_wbuf_init(&ex, NULL);
    ixb_hex_decode(date_bind, strlen(date_bind), &ex, NULL);
    size_t off = 0;
    int tags[8], nt = 0;
    while (off < ex.len && nt < 8) {
        if (ixp_msg_decode(ex.data + off, ex.len - off, IXP_FROM_CLIENT, caps, NULL, &m, NULL,
                           NULL) != IX_OK)
            break;
        tags[nt++] = m.tag;
        if (m.tag == IXP_SQ_BIND) {
            size_t pos = 0;
            ixp_bindval got;
            CHECK(ixp_bind_next(&m, &pos, &got) && got.type == IX_T_DATE &&
                      ixb_be32(got.value.p) == 25568,
                  "§3.4 DATE bind example");
        }
        off += m.len;
    }
    CHECK(nt == 4 && tags[0] == IXP_SQ_ID && tags[1] == IXP_SQ_BIND && tags[2] == IXP_SQ_EXECUTE &&
              tags[3] == IXP_SQ_EOT,
          "§3.4 example decodes as ID, BIND, EXECUTE, EOT");
    ixb_wbuf_free(&ex);

    /* RET_TYPE: the DBX forms (43 + empty names, 45 + informix/boolean) and
     * the libsqli form (41 without names). */
    ixp_rtcol rc[] = {{.type = IX_T_VARCHAR, .length = 128},
                      {.type = IX_T_LVARCHAR, .has_names = 1, .length = 2048},
                      {.type = IX_T_BOOLEAN,
                       .has_names = 1,
                       .owner = B("informix"),
                       .xname = B("boolean"),
                       .length = 1},
                      {.type = IX_T_UDTFIXED, .length = 1},
                      {.type = IX_T_DECIMAL, .length = 0x0804}};
    ixb_wbuf_reset(&w);
    ixp_enc_ret_type(&w, rc, 5);
    if (roundtrip(&w, IXP_FROM_CLIENT, caps, &m, "RET_TYPE")) {
        size_t pos = 0;
        ixp_rtcol got;
        int i = 0;
        while (ixp_ret_type_next(&m, &pos, &got)) {
            CHECK(got.type == rc[i].type && got.length == rc[i].length &&
                      got.has_names == rc[i].has_names,
                  "RET_TYPE column %d", i);
            i++;
        }
        CHECK(i == 5, "RET_TYPE walked %d columns", i);
    }
    ixb_wbuf_free(&w);
}

static ixp_column col(const char *name, int type, int32_t enclen, const char *xowner,
                      const char *xname) {
    ixp_column c = {0};
    c.name = (ixp_bytes){(const uint8_t *)name, strlen(name)};
    c.type = (int16_t)type;
    c.enclen = enclen;
    if (xowner) c.xowner = (ixp_bytes){(const uint8_t *)xowner, strlen(xowner)};
    if (xname) c.xname = (ixp_bytes){(const uint8_t *)xname, strlen(xname)};
    return c;
}

static void test_server(const ixp_caps *caps) {
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixp_msg m;

    ixp_column cols[] = {
        col("id", IX_T_SERIAL | IXT_TF_NOTNULL, 4, NULL, NULL),
        col("name", IX_T_VARCHAR, 64, NULL, NULL),
        col("price", IX_T_DECIMAL, 0x0804, NULL, NULL),
        col("day", IX_T_DATE, 4, NULL, NULL),
        col("at", IX_T_DATETIME, 0x0e0a, NULL, NULL),
        col("notes", IX_T_UDTVAR, 2048, "informix", "lvarchar"),
        col("ok", IX_T_UDTFIXED, 1, "informix", "boolean"),
        col("big", IX_T_INT8, 10, NULL, NULL),
        col("c", IX_T_CHAR, 5, NULL, NULL),
        col("f", IX_T_FLOAT, 8, NULL, NULL),
    };
    int nc = (int)(sizeof cols / sizeof cols[0]);
    ixp_describe d = {.stmt_type = IX_STMTTYPE_SELECT, .stmt_id = 3, .est_rows = 10};
    CHECK(ixp_enc_describe(&w, caps, &d, cols, nc) == IX_OK, "DESCRIBE encodes");
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "DESCRIBE")) {
        CHECK(m.u.describe.ncols == nc && m.u.describe.stmt_id == 3 &&
                  m.u.describe.extended == (caps->f63 != 0),
              "DESCRIBE header");
        /* start positions: 4, VARCHAR(64)+1, DECIMAL(8,4) 5, 4, 8, ... */
        static const int32_t starts[] = {0, 4, 69, 74, 78, 86, 2134, 2135, 2145, 2150};
        size_t pos = 0;
        ixp_column c;
        int i = 0;
        while (ixp_describe_next(&m, &pos, &c)) {
            CHECK(eqb(c.name, cols[i].name) && c.type == cols[i].type &&
                      c.enclen == cols[i].enclen && c.start == starts[i],
                  "DESCRIBE column %d (start %d)", i, c.start);
            if (caps->f63) CHECK(eqb(c.xname, cols[i].xname), "DESCRIBE column %d xname", i);
            if (!caps->f63)
                CHECK(c.xname.p && c.xname.n == 0 && c.xowner.p && c.xowner.n == 0,
                      "old layout column %d: empty, non-NULL extended names", i);
            i++;
        }
        CHECK(i == nc, "DESCRIBE walked %d columns", i);
        CHECK(m.u.describe.tuple_size == 2158, "tuple size is the max width rounded to even (%d)",
              m.u.describe.tuple_size);
    }
    /* A CHAR(32767) row is 32767 bytes: not rounded up past the 16-bit field. */
    ixb_wbuf_reset(&w);
    ixp_column wide[] = {col("w", IX_T_CHAR, 32767, NULL, NULL)};
    CHECK(ixp_enc_describe(&w, caps, &d, wide, 1) == IX_OK, "DESCRIBE of a CHAR(32767)");
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "DESCRIBE CHAR(32767)"))
        CHECK(m.u.describe.tuple_size == (caps->f69 ? 32768 : 32767), "CHAR(32767): tuple size %d",
              m.u.describe.tuple_size);
    /* A DDL describe: no columns, empty name table. */
    ixb_wbuf_reset(&w);
    ixp_describe ddl = {.stmt_type = IX_STMTTYPE_CREATE_TABLE};
    ixp_enc_describe(&w, caps, &ddl, NULL, 0);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "DESCRIBE DDL"))
        CHECK(m.u.describe.ncols == 0 && m.u.describe.names_len == 0, "DDL describe is empty");

    ixb_wbuf_reset(&w);
    static const uint8_t payload[] = {0, 0, 0, 1, 3, 'a', 'b', 'c'};
    ixp_enc_tuple(&w, 0, payload, 7);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "TUPLE"))
        CHECK(m.u.tuple.data.n == 7 && w.len == 2 + 2 + 4 + 7 + 1, "TUPLE padded to even");

    ixb_wbuf_reset(&w);
    ixp_enc_done(&w, caps, 0x15, 5000000000LL * (caps->f70 ? 1 : 0) + 7, 0, 42);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "DONE"))
        CHECK(m.u.done.warnings == 0x15 && m.u.done.serial == 42 &&
                  m.u.done.rows == (caps->f70 ? 5000000007LL : 7) &&
                  w.len == (caps->f70 ? 24u : 16u),
              "DONE fields and width");

    ixb_wbuf_reset(&w);
    ixp_enc_cost(&w, 1, 2);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "COST"))
        CHECK(m.u.cost.est_rows == 1 && m.u.cost.est_cost == 2, "COST fields");
    ixb_wbuf_reset(&w);
    ixp_enc_xactstat(&w, 2, 1, 0);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "XACTSTAT"))
        CHECK(m.u.xactstat.event == 2 && m.u.xactstat.new_level == 1, "XACTSTAT fields");
    ixb_wbuf_reset(&w);
    ixp_enc_insertdone(&w, caps, -9000000000LL, caps->f54 ? 77 : 0);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "INSERTDONE"))
        CHECK(m.u.insertdone.serial8 == -9000000000LL &&
                  m.u.insertdone.bigserial == (caps->f54 ? 77 : 0) &&
                  w.len == (caps->f54 ? 20u : 12u),
              "INSERTDONE fields and width");
    ixb_wbuf_reset(&w);
    ixp_enc_err(&w, caps, -206, -111, 14, "t1", 2);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "ERR"))
        CHECK(m.u.err.sqlcode == -206 && m.u.err.isamcode == -111 && m.u.err.offset == 14 &&
                  eqb(m.u.err.msg, B("t1")),
              "ERR fields");
    ixb_wbuf_reset(&w);
    ixp_enc_err(&w, caps, -368, 0, 0, NULL, 0);
    if (roundtrip(&w, IXP_FROM_SERVER, caps, &m, "ERR -368"))
        CHECK(!m.u.err.has_msg, "ERR -368 has no message field");
    ixb_wbuf_reset(&w);
    ixp_enc_blob(&w, payload, 7);
    roundtrip(&w, IXP_FROM_SERVER, caps, &m, "BLOB");
    ixb_wbuf_reset(&w);
    ixp_enc_tupid(&w, 9);
    roundtrip(&w, IXP_FROM_SERVER, caps, &m, "TUPID");
    ixb_wbuf_reset(&w);
    ixp_enc_challenge(&w, 1, "Password: ", 10);
    roundtrip(&w, IXP_FROM_SERVER, caps, &m, "CHALLENGE");
    static const int bare[] = {IXP_SQ_EOT, IXP_SQ_CLOSE, IXP_SQ_EXIT, IXP_SQ_ACCEPT};
    for (size_t i = 0; i < 4; i++) {
        ixb_wbuf_reset(&w);
        ixp_enc_tag(&w, bare[i]);
        roundtrip(&w, IXP_FROM_SERVER, caps, &m, ixp_tag_name(bare[i]));
    }
    ixb_wbuf_free(&w);
}

/* Hex of w's bytes, for exact comparisons. */
static int bytes_are(const ixb_wbuf *w, const char *hex) {
    ixb_wbuf h;
    ixb_wbuf_init(&h, NULL);
    ixb_hex_encode(w->data, w->len, &h);
    int ok = h.len == strlen(hex) && memcmp(h.data, hex, h.len) == 0;
    ixb_wbuf_free(&h);
    return ok;
}

/* Decodes hex as `role` under caps into *m (whose bytes live in *keep). */
static int decode_hex(const char *hex, ixp_role role, const ixp_caps *caps, const ixp_limits *lim,
                      ixb_wbuf *keep, ixp_msg *m, size_t *at) {
    ixb_wbuf_reset(keep);
    ixb_hex_decode(hex, strlen(hex), keep, NULL);
    return ixp_msg_decode(keep->data, keep->len, role, caps, lim, m, at, NULL);
}

/* The fetch buffer size is an i16 unless f62 was granted (§8 #5): the NMAP
 * form against IDS 11.50 and the JDBC 4.50 form, decoded and encoded. */
static void test_fetch_width(void) {
    ixp_caps none = {0}, f62 = {.f62 = 1};
    ixb_wbuf w, k;
    ixb_wbuf_init(&w, NULL);
    ixb_wbuf_init(&k, NULL);
    ixp_msg m;
    /* NMAP's "continue" group: ID 1, NFETCH i16 4096, i16 0, EOT. */
    const char *nmap = "00040001000910000000000c";
    CHECK(decode_hex(nmap + 8, IXP_FROM_CLIENT, &none, NULL, &k, &m, NULL) == IX_OK &&
              m.tag == IXP_SQ_NFETCH && m.len == 6 && m.u.nfetch.bufsize == 4096 &&
              m.u.nfetch.arraysize == 0,
          "NFETCH without f62: i16 buffer size, the EOT is left (NMAP)");
    CHECK(decode_hex(nmap + 8, IXP_FROM_CLIENT, &f62, NULL, &k, &m, NULL) == IX_OK && m.len == 8,
          "the same bytes read as the f62 form swallow the EOT (why the width matters)");
    CHECK(decode_hex("0009000010000000", IXP_FROM_CLIENT, &f62, NULL, &k, &m, NULL) == IX_OK &&
              m.len == 8 && m.u.nfetch.bufsize == 4096,
          "NFETCH with f62: i32 buffer size (JDBC 4.50, JDD)");
    ixp_enc_nfetch(&w, &none, 4096);
    CHECK(bytes_are(&w, "000910000000"), "NFETCH encoded without f62 is 00 09 10 00 00 00");
    ixb_wbuf_reset(&w);
    ixp_enc_nfetch(&w, &f62, 4096);
    CHECK(bytes_are(&w, "0009000010000000"), "NFETCH encoded with f62 is 00 09 00 00 10 00 00 00");
    ixb_wbuf_reset(&w);
    ixp_enc_nfetch(&w, &none, 1 << 20);
    CHECK(bytes_are(&w, "00097fff0000"), "a size over the i16 field is sent as 32767");
    ixb_wbuf_reset(&w);
    ixp_enc_sfetch(&w, &none, IXP_FETCH_NEXT, 0, 4096);
    CHECK(bytes_are(&w, "00170001000000001000"), "SFETCH without f62: i16 buffer size");
    CHECK(ixp_fetch_bufsize_max(&none) == 32767 && ixp_fetch_bufsize_max(&f62) == INT32_MAX &&
              ixp_fetch_bufsize_max(NULL) == 32767,
          "ixp_fetch_bufsize_max follows f62");
    /* No SQ_PROTOCOLS, and the NMAP-era 7-byte offer, both leave f62 out. */
    static const uint8_t nmap_offer[] = {0xff, 0xfc, 0x7f, 0xfc, 0x3c, 0x8c, 0x8a};
    uint8_t ans[IXP_CAPS_ANSWER_LEN];
    ixp_caps g = ixp_caps_answer(nmap_offer, sizeof nmap_offer, ixp_caps_ixd, ans);
    CHECK(ixp_fetch_bufsize_max(&g) == 32767, "NMAP-era offer: i16 fetch size");
    ixb_wbuf_free(&w);
    ixb_wbuf_free(&k);
}

/* SQ_DBLIST (26): the bare request and NMAP's reply layout. */
static void test_dblist(void) {
    ixp_caps caps = {0};
    ixb_wbuf w, k;
    ixb_wbuf_init(&w, NULL);
    ixb_wbuf_init(&k, NULL);
    ixp_msg m;
    ixp_bytes names[] = {B("sysmaster"), B("demo"), B("abc")};
    CHECK(ixp_enc_dblist(&w, names, 3) == IX_OK, "DBLIST encodes");
    CHECK(bytes_are(&w, "001a0009"
                        "7379736d617374657200"
                        "000464656d6f"
                        "000361626300"
                        "0000"),
          "DBLIST: {u16 length, name, pad} per name, then u16 0");
    if (roundtrip(&w, IXP_FROM_SERVER, &caps, &m, "DBLIST")) {
        size_t pos = 0;
        ixp_bytes got;
        int i = 0;
        while (ixp_dblist_next(&m, &pos, &got)) {
            CHECK(i < 3 && eqb(got, names[i]), "DBLIST name %d", i);
            i++;
        }
        CHECK(i == 3 && m.u.dblist.count == 3, "DBLIST walked %d names", i);
        ixp_printer pr;
        ixp_printer_init(&pr, NULL);
        ixb_wbuf line;
        ixb_wbuf_init(&line, NULL);
        ixp_print_msg(&pr, IXP_FROM_SERVER, &m, &line);
        const char *want = "SQ_DBLIST count=3 [\"sysmaster\", \"demo\", \"abc\"]";
        CHECK(line.len == strlen(want) && memcmp(line.data, want, line.len) == 0,
              "DBLIST printed: %.*s", (int)line.len, (const char *)line.data);
        ixp_printer_free(&pr);
        ixb_wbuf_free(&line);
    }
    ixb_wbuf_reset(&w);
    CHECK(ixp_enc_dblist(&w, NULL, 0) == IX_OK && bytes_are(&w, "001a0000"), "empty DBLIST");
    if (roundtrip(&w, IXP_FROM_SERVER, &caps, &m, "DBLIST empty"))
        CHECK(m.u.dblist.count == 0, "empty DBLIST has no names");
    ixb_wbuf_reset(&w);
    ixp_bytes bad[] = {B("a"), B("")};
    CHECK(ixp_enc_dblist(&w, bad, 2) == IX_EINVAL && w.len == 0, "an empty name is refused");
    /* The request NMAP sends: 00 1a 00 0c. */
    CHECK(decode_hex("001a000c", IXP_FROM_CLIENT, &caps, NULL, &k, &m, NULL) == IX_OK &&
              m.tag == IXP_SQ_DBLIST && m.len == 2,
          "DBLIST request is the bare tag");
    /* Limits: names and their count. */
    ixp_limits lim = {.max_items = 1};
    size_t at = 0;
    CHECK(decode_hex("001a00016100000162000000", IXP_FROM_SERVER, &caps, &lim, &k, &m, &at) ==
                  IX_ELIMIT &&
              at == 6,
          "too many DBLIST names is a limit error at the extra name (at %zu)", at);
    lim = (ixp_limits){.max_string = 2};
    CHECK(decode_hex("001a0003616263000000", IXP_FROM_SERVER, &caps, &lim, &k, &m, &at) ==
                  IX_ELIMIT &&
              at == 2,
          "a DBLIST name over max_string is a limit error at its length");
    ixb_wbuf_free(&w);
    ixb_wbuf_free(&k);
}

static void expect_err(const char *hex, ixp_role role, int want, size_t want_at, const char *what) {
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixb_hex_decode(hex, strlen(hex), &w, NULL);
    ixp_caps caps = {0};
    ixp_msg m;
    size_t at = 999;
    const char *why = NULL;
    int rc = ixp_msg_decode(w.data, w.len, role, &caps, NULL, &m, &at, &why);
    CHECK(rc == want && at == want_at, "%s: got %s at %zu (%s), want %s at %zu", what,
          ix_rc_str(rc), at, why ? why : "", ix_rc_str(want), want_at);
    CHECK(rc == IX_OK || why != NULL, "%s: a reason is given", what);
    ixb_wbuf_free(&w);
}

static void test_errors(void) {
    expect_err("0063", IXP_FROM_CLIENT, IX_EMALFORMED, 0, "server tag from client");
    expect_err("000e", IXP_FROM_CLIENT, IX_EMALFORMED, 0, "TUPLE from client");
    expect_err("0002", IXP_FROM_SERVER, IX_EMALFORMED, 0, "PREPARE from server");
    expect_err("7fff", IXP_FROM_CLIENT, IX_EMALFORMED, 0, "unknown tag");
    expect_err("00020000ffff", IXP_FROM_CLIENT, IX_EMALFORMED, 4, "negative SQL length");
    expect_err("000e00007fffffff", IXP_FROM_SERVER, IX_ELIMIT, 4, "huge tuple");
    expect_err("000e0000ffffffff", IXP_FROM_SERVER, IX_EMALFORMED, 4, "negative tuple length");
    expect_err("0005ffff", IXP_FROM_CLIENT, IX_ELIMIT, 2, "negative bind count");
    expect_err("00050001000200050000", IXP_FROM_CLIENT, IX_EMALFORMED, 6, "bad bind indicator");
    expect_err("0005000100630000000000000000", IXP_FROM_CLIENT, IX_EMALFORMED, 14,
               "unbindable type 99 (names read, then value)");
    expect_err("0005000100050000000000ff", IXP_FROM_CLIENT, IX_EMALFORMED, 10,
               "decimal bind longer than 18 bytes");
    expect_err("000800020000000000000000ffff0000", IXP_FROM_SERVER, IX_ELIMIT, 12,
               "negative describe column count");
    /* One column whose name offset points past the name table. */
    expect_err("00080002000000000000000400010002"
               "00090000000000020000000000000000000000000000000000000004"
               "6100",
               IXP_FROM_SERVER, IX_EMALFORMED, 16, "describe name offset outside");
    /* CHAR length above the configured limit. */
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixp_enc_curname(&w, "abcdefgh", 8);
    ixp_limits lim = {.max_string = 4};
    ixp_msg m;
    size_t at = 0;
    ixp_caps caps = {0};
    CHECK(ixp_msg_decode(w.data, w.len, IXP_FROM_CLIENT, &caps, &lim, &m, &at, NULL) == IX_ELIMIT &&
              at == 2,
          "CHAR over max_string is a limit error at the length");
    ixb_wbuf_free(&w);
    /* The reader reports the stream offset of a bad message after good ones. */
    ixp_reader r;
    ixp_reader_init(&r, IXP_FROM_CLIENT, NULL);
    r.expect_login = 0;
    static const uint8_t s[] = {0, 12, 0, 12, 0x12, 0x34};
    ixp_reader_feed(&r, s, sizeof s);
    CHECK(ixp_reader_next(&r, &m) == IX_OK && ixp_reader_next(&r, &m) == IX_OK &&
              ixp_reader_next(&r, &m) == IX_EMALFORMED && ixp_reader_offset(&r) == 4,
          "reader error offset is the stream offset");
    CHECK(ixp_reader_feed(&r, s, 2) == IX_EMALFORMED, "reader errors are sticky");
    ixp_reader_free(&r);
    /* Buffer limit. */
    ixp_reader_init(&r, IXP_FROM_CLIENT, NULL);
    r.max_buffer = 8;
    CHECK(ixp_reader_feed(&r, s, 6) == IX_OK && ixp_reader_feed(&r, s, 6) == IX_ELIMIT,
          "reader refuses more than max_buffer pending bytes");
    ixp_reader_free(&r);
    /* Filling the buffer in place: the room granted stops at max_buffer. */
    ixp_reader_init(&r, IXP_FROM_SERVER, NULL);
    r.expect_login = 0;
    r.max_buffer = 10;
    size_t want = 64;
    int rc = 0;
    uint8_t *room = ixp_reader_space(&r, &want, &rc);
    CHECK(room && want == 10, "room is lowered to max_buffer (%zu)", want);
    if (room) memcpy(room, s, 6), ixp_reader_commit(&r, 6);
    want = 64;
    room = ixp_reader_space(&r, &want, &rc);
    CHECK(room && want == 4, "then to what is left (%zu)", want);
    if (room) memset(room, 0, 4), ixp_reader_commit(&r, 4);
    want = 1;
    CHECK(ixp_reader_space(&r, &want, &rc) == NULL && rc == IX_ELIMIT, "then none");
    CHECK(ixp_reader_next(&r, &m) == IX_OK && m.tag == 12 && ixp_reader_pending(&r) == 8,
          "bytes written in place decode");
    ixp_reader_free(&r);
    /* The row fast path: a whole SQ_TUPLE (odd length: one pad byte), then
     * nothing for a partial one or another message. */
    ixp_reader_init(&r, IXP_FROM_SERVER, NULL);
    r.expect_login = 0;
    static const uint8_t tup[] = {0, IXP_SQ_TUPLE, 0, 0, 0, 0, 0, 3, 'a', 'b', 'c', 0,
                                  0, IXP_SQ_TUPLE, 0, 0, 0, 0, 0, 3, 'x'};
    ixp_reader_feed(&r, tup, sizeof tup);
    const uint8_t *tp = NULL;
    size_t tn = 0;
    CHECK(ixp_reader_next_tuple(&r, &tp, &tn) == 1 && tn == 3 && memcmp(tp, "abc", 3) == 0 &&
              ixp_reader_offset(&r) == 12,
          "a whole tuple is taken with its pad");
    CHECK(ixp_reader_next_tuple(&r, &tp, &tn) == 0 && ixp_reader_offset(&r) == 12,
          "a partial tuple is left for more bytes");
    ixp_reader_free(&r);
    ixp_reader_init(&r, IXP_FROM_SERVER, NULL);
    r.expect_login = 0;
    r.lim.max_tuple = 2;
    ixp_reader_feed(&r, tup, 12);
    CHECK(ixp_reader_next_tuple(&r, &tp, &tn) == 0 && ixp_reader_next(&r, &m) == IX_ELIMIT,
          "a tuple past the limit is left to ixp_reader_next, which refuses it");
    ixp_reader_free(&r);
}

static void test_caps(void) {
    ixp_caps impl = {.f54 = 1, .f62 = 1, .f63 = 1};
    uint8_t ans[IXP_CAPS_ANSWER_LEN];
    ixp_caps g = ixp_caps_answer(ixp_caps_jdbc_offer, 9, impl, ans);
    static const uint8_t want[] = {0xff, 0xfc, 0x7f, 0xfc, 0x3c, 0x00, 0x02, 0x03, 0x00, 0x00};
    CHECK(memcmp(ans, want, 10) == 0, "answer to JDBC 15 is ff fc 7f fc 3c 00 02 03 00 00 (§2.5)");
    CHECK(g.f54 && g.f62 && g.f63 && !g.f69 && !g.f70 && !g.f44, "granted f54 f62 f63");
    ixp_caps off = ixp_caps_from_bits(ixp_caps_jdbc_offer, 9);
    CHECK(off.f44 && off.f54 && off.f62 && off.f63 && off.f69 && off.f70,
          "JDBC 15 offers f44 f54 f62 f63 f69 f70");
    static const uint8_t old[] = {0xff, 0xfc, 0x7f, 0xfc, 0x3c, 0x8c, 0x8a};
    g = ixp_caps_answer(old, 7, impl, ans);
    CHECK(!g.f62 && !g.f63 && ans[7] == 0 && ans[9] == 0, "7-byte offer: nothing past byte 6");
    ixp_caps c;
    CHECK(ixp_caps_parse_list("f62,f63,70", &c) == 0 && c.f62 && c.f63 && c.f70 && !c.f69,
          "caps list parses");
    CHECK(ixp_caps_parse_list("f61", &c) == -1, "unknown cap refused");
}

/* An allocator that fails the N-th allocation (style habit 15). */
static int alloc_count, alloc_fail_at;
static void *t_malloc(size_t n, void *ud) {
    (void)ud;
    return ++alloc_count == alloc_fail_at ? NULL : malloc(n);
}
static void *t_realloc(void *p, size_t n, void *ud) {
    (void)ud;
    return ++alloc_count == alloc_fail_at ? NULL : realloc(p, n);
}
static void t_free(void *p, void *ud) {
    (void)ud;
    free(p);
}

/* Feeds a long stream in small pieces through a reader and an encoder whose
 * N-th allocation fails, for every N: the failure is reported, nothing
 * crashes or leaks (ASan checks), and the decoded prefix is right. */
static void test_oom(void) {
    ixb_alloc a = {t_malloc, t_realloc, t_free, NULL};
    ixb_wbuf src;
    ixb_wbuf_init(&src, NULL);
    for (int i = 0; i < 300; i++)
        ixp_enc_tuple(&src, 0, (const uint8_t *)"0123456789abcdef", 16);
    int saw_fail = 0;
    for (alloc_fail_at = 1; alloc_fail_at < 40; alloc_fail_at++) {
        alloc_count = 0;
        ixp_reader r;
        ixp_reader_init(&r, IXP_FROM_SERVER, &a);
        r.expect_login = 0;
        ixb_wbuf echo;
        ixb_wbuf_init(&echo, &a);
        int n = 0, rc = IX_OK;
        for (size_t off = 0; off < src.len && rc == IX_OK; off += 1000) {
            size_t k = src.len - off < 1000 ? src.len - off : 1000;
            rc = ixp_reader_feed(&r, src.data + off, k);
            ixp_msg m;
            while (rc == IX_OK && ixp_reader_next(&r, &m) == IX_OK) {
                n++;
                ixp_msg_encode(&echo, IXP_FROM_SERVER, NULL, &m);
            }
        }
        if (rc == IX_ENOMEM || echo.err == IX_ENOMEM) saw_fail++;
        CHECK(rc == IX_OK || rc == IX_ENOMEM, "OOM at %d: reader gives %s", alloc_fail_at,
              ix_rc_str(rc));
        CHECK(echo.err || rc ||
                  (n == 300 && echo.len == src.len && memcmp(echo.data, src.data, src.len) == 0),
              "OOM at %d: without a failure the stream decodes whole", alloc_fail_at);
        ixb_wbuf_free(&echo);
        ixp_reader_free(&r);
    }
    CHECK(saw_fail > 5, "allocation failures were injected and reported (%d)", saw_fail);
    ixb_wbuf_free(&src);
}

/* The reader decodes EOT, DONE and COST in place (ix_reader.c, next_small):
 * over random field values, in both DONE widths, it gives what
 * ixp_msg_decode gives, field by field and length, and waits for more bytes
 * on every prefix as the decoder does. */
static void test_reader_small(void) {
    uint32_t seed = 12345;
    int compared = 0;
    for (int f70 = 0; f70 < 2; f70++) {
        ixp_caps caps = {.f70 = f70};
        for (int round = 0; round < 300; round++) {
            uint8_t b[32];
            for (size_t k = 0; k < sizeof b; k++)
                b[k] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
            int tags[] = {IXP_SQ_EOT, IXP_SQ_DONE, IXP_SQ_COST};
            int tag = tags[round % 3];
            size_t len = tag == IXP_SQ_EOT    ? IXP_EOT_LEN
                         : tag == IXP_SQ_COST ? IXP_COST_LEN
                         : f70                ? IXP_DONE_LEN_F70
                                              : IXP_DONE_LEN;
            b[0] = 0, b[1] = (uint8_t)tag;
            for (size_t cut = 0; cut <= len; cut++) {
                ixp_msg want, got;
                memset(&got, 0, sizeof got);
                int st = ixp_msg_decode(b, cut, IXP_FROM_SERVER, &caps, NULL, &want, NULL, NULL);
                ixp_reader r;
                ixp_reader_init(&r, IXP_FROM_SERVER, NULL);
                r.expect_login = 0;
                r.caps = caps;
                ixp_reader_feed(&r, b, cut);
                int rt = ixp_reader_next(&r, &got);
                int same = rt == st;
                if (same && st == IX_OK)
                    same = got.tag == want.tag && got.len == want.len &&
                           (tag != IXP_SQ_DONE || (got.u.done.warnings == want.u.done.warnings &&
                                                   got.u.done.rows == want.u.done.rows &&
                                                   got.u.done.rowid == want.u.done.rowid &&
                                                   got.u.done.serial == want.u.done.serial)) &&
                           (tag != IXP_SQ_COST || (got.u.cost.est_rows == want.u.cost.est_rows &&
                                                   got.u.cost.est_cost == want.u.cost.est_cost));
                ixp_reader_free(&r);
                if (!same) {
                    CHECK(0, "in-place %s (f70 %d, %zu of %zu bytes) differs from the decoder's",
                          ixp_tag_name(tag), f70, cut, len);
                    return;
                }
                compared++;
            }
        }
    }
    CHECK(compared > 3000, "in-place EOT, DONE, COST as the decoder's (%d cases)", compared);
}

/* ixp_reader_done_group takes DONE, COSTs, EOT whole, gives the DONE the
 * decoder gives, and takes nothing from any other or any cut group. */
static void test_done_group(void) {
    for (int f70 = 0; f70 < 2; f70++) {
        ixp_caps caps = {.f70 = f70};
        ixb_wbuf g;
        ixb_wbuf_init(&g, NULL);
        for (int shape = 0; shape < 5; shape++) {
            ixb_wbuf_reset(&g);
            if (shape != 3) ixp_enc_done(&g, &caps, 2, 7 + shape, 99, -5);
            if (shape == 1 || shape == 2 || shape == 3) ixp_enc_cost(&g, 1, 2);
            if (shape == 2) ixp_enc_cost(&g, 3, 4);
            if (shape == 4) ixp_enc_tag(&g, IXP_SQ_CLOSE);
            ixp_enc_tag(&g, IXP_SQ_EOT);
            int whole = shape <= 2; /* 3: no DONE; 4: a CLOSE inside */
            for (size_t cut = 0; cut <= g.len; cut++) {
                ixp_reader r;
                ixp_reader_init(&r, IXP_FROM_SERVER, NULL);
                r.expect_login = 0;
                r.caps = caps;
                ixp_reader_feed(&r, g.data, cut);
                ixp_msg d, want;
                size_t took = ixp_reader_done_group(&r, &d);
                int ok = cut == g.len && whole
                             ? took == g.len && ixp_reader_pending(&r) == 0 &&
                                   ixp_msg_decode(g.data, g.len, IXP_FROM_SERVER, &caps, NULL,
                                                  &want, NULL, NULL) == IX_OK &&
                                   d.u.done.rows == want.u.done.rows &&
                                   d.u.done.rowid == want.u.done.rowid &&
                                   d.u.done.serial == want.u.done.serial &&
                                   d.u.done.warnings == want.u.done.warnings
                             : took == 0 && ixp_reader_pending(&r) == cut;
                ixp_reader_free(&r);
                if (!ok) {
                    CHECK(0, "done group, shape %d, f70 %d, %zu of %zu bytes: took %zu", shape, f70,
                          cut, g.len, took);
                    ixb_wbuf_free(&g);
                    return;
                }
            }
        }
        ixb_wbuf_free(&g);
    }
    CHECK(1, "done groups taken whole, others and cut ones left alone");
}

int main(void) {
    test_oom();
    test_done_group();
    test_reader_small();
    ixp_caps variants[] = {
        {0}, {.f62 = 1, .f63 = 1, .f54 = 1}, {.f62 = 1, .f63 = 1, .f69 = 1, .f70 = 1}};
    for (size_t i = 0; i < 3; i++) {
        test_client(&variants[i]);
        test_server(&variants[i]);
    }
    test_errors();
    test_caps();
    test_fetch_width();
    test_dblist();
    return tap_done();
}
