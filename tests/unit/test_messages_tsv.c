/*
 * Every post-login row of tests/vectors/messages.tsv is a test (the
 * CONREQ/CONACC capture segments are tested in test_login.c):
 *   - decoding the row's bytes gives exactly the messages its `check` column
 *     lists (rendered here in that column's notation);
 *   - re-encoding the decoded messages, and building them again with the
 *     ixp_enc_* builders from the decoded values, gives the row's bytes;
 *   - feeding the bytes one at a time and in random chunks gives the same.
 */
#include <stdlib.h>
#include <string.h>

#include "base/ix_hex.h"
#include "proto/ix_msg.h"
#include "proto/ix_reader.h"
#include "tap.h"
#include "tsv.h"

static void put_str(ixb_wbuf *o, const char *s) {
    ixb_put_bytes(o, s, strlen(s));
}

static void put_fmt(ixb_wbuf *o, const char *fmt, long v) {
    char t[64];
    snprintf(t, sizeof t, fmt, v);
    put_str(o, t);
}

/* Renders one message the way the vectors' `check` column writes it. */
static void render(const ixp_msg *m, ixb_wbuf *o) {
    const char *name = ixp_tag_name(m->tag);
    put_str(o, name && strncmp(name, "SQ_", 3) == 0 ? name + 3 : "?");
    switch (m->tag) {
    case IXP_SQ_COMMAND:
    case IXP_SQ_PREPARE:
        put_fmt(o, " %ld ", m->u.stmt.nparams);
        ixb_put_bytes(o, m->u.stmt.sql.p, m->u.stmt.sql.n);
        break;
    case IXP_SQ_ID: put_fmt(o, " %ld", m->u.id); break;
    case IXP_SQ_CURNAME:
        put_str(o, " ");
        ixb_put_bytes(o, m->u.name.p, m->u.name.n);
        break;
    case IXP_SQ_DBOPEN:
        put_str(o, " ");
        ixb_put_bytes(o, m->u.dbopen.name.p, m->u.dbopen.name.n);
        put_fmt(o, " %ld", m->u.dbopen.flags);
        break;
    case IXP_SQ_NFETCH:
        put_fmt(o, " %ld", m->u.nfetch.bufsize);
        put_fmt(o, " %ld", m->u.nfetch.arraysize);
        break;
    case IXP_SQ_PROTOCOLS:
        put_str(o, " ");
        ixb_hex_encode(m->u.protocols.p, m->u.protocols.n, o);
        break;
    case IXP_SQ_INFO: {
        put_fmt(o, " %ld", m->u.info.subtype);
        put_fmt(o, " %ld", m->u.info.total);
        put_fmt(o, " %ld", m->u.info.max_key);
        put_fmt(o, " %ld [", m->u.info.max_value);
        size_t pos = 0;
        ixp_bytes k, v;
        for (int i = 0; ixp_info_next(m, &pos, &k, &v); i++) {
            put_str(o, i ? ", ('" : "('");
            ixb_put_bytes(o, k.p, k.n);
            put_str(o, "', '");
            ixb_put_bytes(o, v.p, v.n);
            put_str(o, "')");
        }
        put_str(o, "]");
        break;
    }
    case IXP_SQ_RET_TYPE: {
        put_fmt(o, " %ld [", m->u.ret_type.one);
        size_t pos = 0;
        ixp_rtcol c;
        for (int i = 0; ixp_ret_type_next(m, &pos, &c); i++) {
            put_fmt(o, i ? ", (%ld" : "(%ld", c.type);
            put_fmt(o, ", %ld)", c.length);
        }
        put_str(o, "]");
        break;
    }
    default: break;
    }
}

/* Builds the message again from its decoded values with the builders. */
static void rebuild(const ixp_msg *m, const ixp_caps *caps, ixb_wbuf *o) {
    switch (m->tag) {
    case IXP_SQ_COMMAND:
        ixp_enc_command(o, caps, (const char *)m->u.stmt.sql.p, m->u.stmt.sql.n);
        break;
    case IXP_SQ_PREPARE:
        ixp_enc_prepare(o, caps, m->u.stmt.nparams, (const char *)m->u.stmt.sql.p, m->u.stmt.sql.n);
        break;
    case IXP_SQ_ID: ixp_enc_id(o, m->u.id); break;
    case IXP_SQ_CURNAME: ixp_enc_curname(o, (const char *)m->u.name.p, m->u.name.n); break;
    case IXP_SQ_DBOPEN:
        ixp_enc_dbopen(o, (const char *)m->u.dbopen.name.p, m->u.dbopen.name.n, m->u.dbopen.flags);
        break;
    case IXP_SQ_NFETCH: ixp_enc_nfetch(o, caps, m->u.nfetch.bufsize); break;
    case IXP_SQ_PROTOCOLS: ixp_enc_protocols(o, m->u.protocols.p, m->u.protocols.n); break;
    case IXP_SQ_INFO: {
        ixp_bytes k[16], v[16];
        int n = 0;
        size_t pos = 0;
        while (n < 16 && ixp_info_next(m, &pos, &k[n], &v[n]))
            n++;
        ixp_enc_info(o, k, v, n);
        break;
    }
    case IXP_SQ_RET_TYPE: {
        ixp_rtcol c[16];
        int n = 0;
        size_t pos = 0;
        while (n < 16 && ixp_ret_type_next(m, &pos, &c[n]))
            n++;
        ixp_enc_ret_type(o, c, n);
        break;
    }
    default: ixp_enc_tag(o, m->tag); break;
    }
}

/* Decodes bytes fed in chunks (chunk 0 = all at once, -1 = random sizes)
 * and renders the messages; returns the reader status at the end. */
static int decode_fed(const uint8_t *p, size_t n, ixp_role role, const ixp_caps *caps, int chunk,
                      ixb_wbuf *text) {
    ixp_reader r;
    ixp_reader_init(&r, role, NULL);
    r.expect_login = 0;
    r.caps = *caps;
    size_t off = 0;
    int rc = IX_OK, count = 0;
    while (off < n) {
        size_t k = chunk > 0 ? (size_t)chunk : chunk == 0 ? n : 1 + (size_t)(rand() % 7);
        if (k > n - off) k = n - off;
        rc = ixp_reader_feed(&r, p + off, k);
        off += k;
        ixp_msg m;
        while (rc == IX_OK && (rc = ixp_reader_next(&r, &m)) == IX_OK) {
            if (count++) put_str(text, "; ");
            render(&m, text);
        }
        if (rc == IX_NEED_MORE) rc = IX_OK;
        if (rc != IX_OK) break;
    }
    if (rc == IX_OK && ixp_reader_pending(&r)) rc = IX_NEED_MORE;
    ixp_reader_free(&r);
    return rc;
}

int main(void) {
    tsv_file t;
    const char *path = IXDB_VECTORS_DIR "/messages.tsv";
    CHECK(tsv_load(&t, path) == 0, "cannot read %s", path);
    if (!t.text) return tap_done();
    int c_dir = tsv_colidx(&t, "direction"), c_msg = tsv_colidx(&t, "message"),
        c_ctx = tsv_colidx(&t, "capability_context"), c_hex = tsv_colidx(&t, "hex"),
        c_check = tsv_colidx(&t, "check");
    CHECK(c_dir >= 0 && c_msg >= 0 && c_ctx >= 0 && c_hex >= 0 && c_check >= 0,
          "messages.tsv header lacks a needed column");
    if (c_dir < 0 || c_msg < 0 || c_ctx < 0 || c_hex < 0 || c_check < 0) return tap_done();
    int rows = 0;
    srand(1);
    for (int i = 0; i < t.nrows; i++) {
        tsv_row *row = &t.rows[i];
        const char *msg = row->col[c_msg];
        if (strncmp(msg, "CONREQ", 6) == 0 || strncmp(msg, "CONACC", 6) == 0) continue;
        rows++;
        ixp_role role = strcmp(row->col[c_dir], "C->S") == 0 ? IXP_FROM_CLIENT : IXP_FROM_SERVER;
        ixp_caps caps = {0};
        const char *ctx = row->col[c_ctx];
        /* The fetch rows were sent by clients that offered f62 (JDBC, DBX,
         * libsqli): their i32 buffer size is the f62 form. */
        if (strstr(ctx, "f62 granted") || strstr(ctx, "4-byte SQL length") ||
            strstr(ctx, "fetch buffer as i32"))
            caps.f62 = 1;
        ixb_wbuf bytes;
        ixb_wbuf_init(&bytes, NULL);
        CHECK(ixb_hex_decode(row->col[c_hex], strlen(row->col[c_hex]), &bytes, NULL) == IX_OK,
              "line %d: bad hex", row->line);
        const char *want = strstr(row->col[c_check], "independent parser: ");
        CHECK(want != NULL, "line %d: check column has no parser rendering", row->line);
        if (!want) continue;
        want += strlen("independent parser: ");

        /* Decode all at once, then re-encode and rebuild. */
        ixb_wbuf text, again, built;
        ixb_wbuf_init(&text, NULL);
        ixb_wbuf_init(&again, NULL);
        ixb_wbuf_init(&built, NULL);
        size_t off = 0;
        int count = 0, rc = IX_OK;
        while (off < bytes.len) {
            ixp_msg m;
            size_t at = 0;
            const char *why = NULL;
            rc =
                ixp_msg_decode(bytes.data + off, bytes.len - off, role, &caps, NULL, &m, &at, &why);
            if (rc != IX_OK) break;
            if (count++) put_str(&text, "; ");
            render(&m, &text);
            ixp_msg_encode(&again, role, &caps, &m);
            rebuild(&m, &caps, &built);
            off += m.len;
        }
        CHECK(rc == IX_OK, "line %d (%s): decode failed: %s", row->line, msg, ix_rc_str(rc));
        CHECK(text.len == strlen(want) && memcmp(text.data, want, text.len) == 0,
              "line %d (%s): decoded as\n    %.*s\n  expected\n    %s", row->line, msg,
              (int)text.len, (const char *)text.data, want);
        CHECK(again.len == bytes.len && memcmp(again.data, bytes.data, bytes.len) == 0,
              "line %d (%s): re-encoding differs", row->line, msg);
        CHECK(built.len == bytes.len && memcmp(built.data, bytes.data, bytes.len) == 0,
              "line %d (%s): builders give different bytes", row->line, msg);

        /* Split feeds: byte by byte, odd chunks, random chunks. */
        int chunks[] = {1, 3, 5, -1, -1, -1};
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            ixb_wbuf t2;
            ixb_wbuf_init(&t2, NULL);
            int st = decode_fed(bytes.data, bytes.len, role, &caps, chunks[c], &t2);
            CHECK(st == IX_OK && t2.len == text.len && memcmp(t2.data, text.data, text.len) == 0,
                  "line %d (%s): split feed %d differs", row->line, msg, chunks[c]);
            ixb_wbuf_free(&t2);
        }
        /* Every strict prefix of the first message needs more bytes. */
        ixp_msg m0;
        size_t first = 0;
        if (ixp_msg_decode(bytes.data, bytes.len, role, &caps, NULL, &m0, NULL, NULL) == IX_OK)
            first = m0.len;
        for (size_t k = 0; k < first; k++) {
            ixp_msg m;
            int st = ixp_msg_decode(bytes.data, k, role, &caps, NULL, &m, NULL, NULL);
            if (st != IX_NEED_MORE) {
                CHECK(0, "line %d (%s): prefix of %zu bytes gave %s", row->line, msg, k,
                      ix_rc_str(st));
                break;
            }
        }
        ixb_wbuf_free(&text);
        ixb_wbuf_free(&again);
        ixb_wbuf_free(&built);
        ixb_wbuf_free(&bytes);
    }
    CHECK(rows == 15, "expected 15 post-login rows in messages.tsv, found %d", rows);
    tsv_free(&t);
    return tap_done();
}
