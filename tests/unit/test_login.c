/* test_login.c: the SL login packets against the real GBase capture segments
 * in messages.tsv (assembled with fillers for the left-out personal fields),
 * split feeds, corruptions, defaults, CONREJ and the printer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "base/ix_hex.h"
#include "proto/ix_login.h"
#include "tap.h"
#include "tsv.h"

static tsv_file T;
static int c_msg, c_hex, c_meaning;

/* ---- assembling the capture ------------------------------------------- */

typedef struct seg {
    ixb_wbuf bytes;
    const char *meaning;
    int from, to, total; /* "Bytes from-to of the total-byte packet" */
} seg;

static int load_seg(seg *s, const char *name) {
    ixb_wbuf_init(&s->bytes, NULL);
    for (int i = 0; i < T.nrows; i++) {
        tsv_row *r = &T.rows[i];
        if (r->ncols <= c_meaning || strcmp(r->col[c_msg], name) != 0) continue;
        s->meaning = r->col[c_meaning];
        const char *b = strstr(s->meaning, "Bytes ");
        if (!b || sscanf(b, "Bytes %d-%d of the %d-byte packet", &s->from, &s->to, &s->total) != 3)
            return -1;
        if (ixb_hex_decode(r->col[c_hex], strlen(r->col[c_hex]), &s->bytes, NULL) != IX_OK)
            return -1;
        return (int)s->bytes.len == s->to - s->from + 1 ? 0 : -1;
    }
    return -1;
}

/* Appends an ascstr of exactly `total` wire bytes (u16 len, chars, NUL)
 * whose characters repeat `stem`. */
static void filler_asc(ixb_wbuf *w, size_t total, const char *stem) {
    size_t chars = total - 3, k = strlen(stem);
    ixb_put_i16(w, (int)(chars + 1));
    for (size_t i = 0; i < chars; i++)
        ixb_put_u8(w, (uint8_t)stem[i % k]);
    ixb_put_u8(w, 0);
}

/* GBase obfuscated password form: 8 x 01 then base64 text, as an ascstr of
 * 35 bytes (2 + 8 + 24 + NUL). The base64 is of "ixdb-test-password". */
static void filler_password(ixb_wbuf *w) {
    static const char b64[] = "aXhkYi10ZXN0LXBhc3N3b3Jk";
    ixb_put_i16(w, 8 + (int)strlen(b64) + 1);
    for (int i = 0; i < 8; i++)
        ixb_put_u8(w, 1);
    ixb_put_bytes(w, b64, strlen(b64));
    ixb_put_u8(w, 0);
}

/* Appends a segment, checking it lands at the offset its row states. */
static void put_seg(ixb_wbuf *w, const seg *s) {
    CHECK((int)w->len == s->from, "segment stated at byte %d lands at %zu", s->from, w->len);
    ixb_put_bytes(w, s->bytes.data, s->bytes.len);
}

/* The meaning column must state `text` (so the expectations below come from
 * the vector file, not from memory). */
static int stated(const seg *s, const char *text) {
    return strstr(s->meaning, text) != NULL;
}

static int asc_is(const ixp_ascstr *a, const char *s) {
    return a->form == 1 && a->n == strlen(s) && memcmp(a->p, s, a->n) == 0;
}

static int asc_is_n(const ixp_ascstr *a, size_t n) {
    return a->form == 1 && a->n == n && a->p[n] == 0;
}

static ixb_wbuf conreq_pkt, conacc_pkt;
static seg rq[5], ac[4];

static void assemble_conreq(void) {
    char name[64];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "CONREQ (SL type 1) segment %d", i + 1);
        int rc = load_seg(&rq[i], name);
        CHECK(rc == 0, "messages.tsv row \"%s\" missing or unreadable", name);
        if (rc) exit(tap_done() | 1);
    }
    ixb_wbuf *w = &conreq_pkt;
    ixb_wbuf_init(w, NULL);
    put_seg(w, &rq[0]);
    CHECK(stated(&rq[1], "user-name ascstr (11 bytes)") && stated(&rq[1], "password ascstr (35"),
          "segment 2 meaning names the user/password fillers");
    filler_asc(w, 11, "tstuser1");
    filler_password(w);
    put_seg(w, &rq[1]);
    CHECK(stated(&rq[2], "INFORMIXSERVER-name ascstr (16 bytes)"), "segment 3 filler");
    filler_asc(w, 16, "ol_testserver");
    put_seg(w, &rq[2]);
    CHECK(stated(&rq[3], "host-name ascstr (19 bytes)") && stated(&rq[3], "i16 0") &&
              stated(&rq[3], "working-directory ascstr (45 bytes)"),
          "segment 4 fillers");
    filler_asc(w, 19, "client-host-");
    ixb_put_i16(w, 0);
    filler_asc(w, 45, "/home/tester/ixdb/");
    put_seg(w, &rq[3]);
    CHECK(stated(&rq[4], "ascstr (103 bytes"), "segment 5 filler");
    filler_asc(w, 103, "Thread[id:1, name:main, path:/opt/test/app.jar] ");
    put_seg(w, &rq[4]);
    CHECK(w->err == IX_OK && (int)w->len == rq[0].total, "CONREQ assembled to %zu of %d bytes",
          w->len, rq[0].total);
}

static void assemble_conacc(void) {
    char name[64];
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "CONACC (SL type 2) segment %d", i + 1);
        int rc = load_seg(&ac[i], name);
        CHECK(rc == 0, "messages.tsv row \"%s\" missing or unreadable", name);
        if (rc) exit(tap_done() | 1);
    }
    ixb_wbuf *w = &conacc_pkt;
    ixb_wbuf_init(w, NULL);
    put_seg(w, &ac[0]);
    CHECK(stated(&ac[1], "server-name ascstr (16 bytes)"), "segment 2 filler");
    filler_asc(w, 16, "gbase_srv_000");
    put_seg(w, &ac[1]);
    CHECK(stated(&ac[2], "host-name ascstr (15 bytes)") && stated(&ac[2], "i16 0") &&
              stated(&ac[2], "working-directory ascstr (4 bytes)"),
          "segment 3 fillers");
    filler_asc(w, 15, "server-host");
    ixb_put_i16(w, 0);
    filler_asc(w, 4, "/");
    put_seg(w, &ac[2]);
    CHECK(stated(&ac[3], "program path ascstr (26 bytes)"), "segment 4 filler");
    filler_asc(w, 26, "/opt/gbase/bin/oninit");
    put_seg(w, &ac[3]);
    CHECK(w->err == IX_OK && (int)w->len == ac[0].total, "CONACC assembled to %zu of %d bytes",
          w->len, ac[0].total);
}

/* ---- the real packets --------------------------------------------------- */

static void test_conreq_capture(void) {
    const uint8_t *p = conreq_pkt.data;
    size_t n = conreq_pkt.len;
    ixp_sl_hdr h;
    CHECK(ixp_sl_peek(p, n, &h) == IX_OK, "peek CONREQ");
    CHECK(h.total == n && h.type == IXP_SL_CONREQ && h.proto == 60 && h.flags == 0,
          "SL header total=%u type=%u", h.total, h.type);
    CHECK(stated(&rq[0], "total=489 type=1 proto=60 flags=0"), "header stated");
    CHECK(ixp_sl_looks_like(p, n) == 1, "looks like a login packet");

    static ixp_conreq q;
    size_t used = 0, at = 0;
    const char *why = NULL;
    int rc = ixp_conreq_decode(p, n, NULL, &q, &used, &at, &why);
    CHECK(rc == IX_OK && used == n, "decode CONREQ rc=%d at=%zu why=%s", rc, at, why ? why : "");
    if (rc != IX_OK) return;
    CHECK(q.sl_flags == 0 && q.pf_protocol == 61 && stated(&rq[0], "i32 61"), "pf 61");
    CHECK(asc_is(&q.float_fmt, "IEEEM") && stated(&rq[0], "ascstr IEEEM"), "IEEEM");
    CHECK(memcmp(q.product, "sqlexec\0\0\0\0\0", 12) == 0 && stated(&rq[0], "108 + sqlexec[12]"),
          "sqlexec");
    CHECK(asc_is(&q.version, "9.280") && stated(&rq[0], "ascstr 9.280"), "9.280");
    CHECK(asc_is(&q.rds_id, "RDS#R000000") && stated(&rq[0], "ascstr RDS#R000000"), "RDS id");
    CHECK(asc_is(&q.app_id, "sqli") && stated(&rq[0], "ascstr sqli"), "sqli");
    CHECK(q.cap[0] == 316 && q.cap[1] == 0 && q.cap[2] == 0 &&
              stated(&rq[0], "Cap_1=316 Cap_2=0 Cap_3=0"),
          "caps %d %d %d", q.cap[0], q.cap[1], q.cap[2]);
    CHECK(q.user_type == 1 && stated(&rq[0], "i16 1"), "user type");
    CHECK(asc_is(&q.user, "tstuser1"), "user filler");
    CHECK(asc_is_n(&q.password, 32) && memcmp(q.password.p, "\1\1\1\1\1\1\1\1", 8) == 0 &&
              memcmp(q.password.p + 8, "aXhkYi10ZXN0LXBhc3N3b3Jk", 24) == 0,
          "GBase password form");
    CHECK(memcmp(q.proto_name, "ol\0\0\0\0\0\0", 8) == 0 && stated(&rq[1], "ol+NUL pad"), "ol");
    CHECK(q.proto_version == 61 && stated(&rq[1], "i32 61"), "protocol version");
    CHECK(memcmp(q.transport, "tlitcp\0\0", 8) == 0 && stated(&rq[1], "tlitcp+NUL pad"), "tlitcp");
    CHECK(q.net_level == 1 && stated(&rq[1], "i32 1"), "network level");
    CHECK(q.opt_len == 11 && q.opt_flags == 3 && stated(&rq[1], "i16 104; i16 11; i32 3"),
          "options");
    CHECK(asc_is(&q.server, "ol_testserver"), "server filler");
    CHECK(q.db_slot == 0 && stated(&rq[2], "empty database slot i16 0"), "db slot");
    CHECK(!q.reserved[0] && !q.reserved[1] && !q.reserved[2] && !q.reserved[3] &&
              stated(&rq[2], "4 x i16 0"),
          "reserved");

    /* The env pairs are read from the meaning column: "count 6: A=B C=D (". */
    const char *e = strstr(rq[2].meaning, "count ");
    int cnt = -1;
    CHECK(e && sscanf(e, "count %d:", &cnt) == 1, "env count stated");
    CHECK(q.nenv == cnt && cnt == 6, "env count %u", q.nenv);
    e = e ? strchr(e, ':') + 1 : "";
    for (int i = 0; i < q.nenv && i < cnt; i++) {
        char pair[64], want[64];
        CHECK(sscanf(e, " %63s", pair) == 1, "env pair %d stated", i);
        e = strstr(e, pair) + strlen(pair);
        snprintf(want, sizeof want, "%.*s=%.*s", q.env[i].name.n, q.env[i].name.p, q.env[i].value.n,
                 q.env[i].value.p);
        CHECK(strcmp(pair, want) == 0, "env %d: decoded %s, stated %s", i, want, pair);
        CHECK(q.env[i].name.form == 1 && q.env[i].value.form == 1, "env %d forms", i);
    }
    CHECK(q.has_pinfo && q.pinfo.head == 0 && q.pinfo.pid == 0 && q.pinfo.tid == 1 &&
              stated(&rq[2], "SQ_ASCPINFO 107: i32 0, pid 0, thread id 1"),
          "pinfo pid %d tid %d", q.pinfo.pid, q.pinfo.tid);
    CHECK(asc_is_n(&q.pinfo.host, 16) && q.pinfo.mid == 0 && asc_is_n(&q.pinfo.cwd, 42),
          "pinfo host/cwd fillers");
    /* Block 116: "block length 111 (=10 + 101)" where 101 is the ascstr's
     * length field (100 chars + NUL) of the 103-byte ascstr, so the capture
     * is self-consistent: the block length counts the bytes after itself. */
    CHECK(q.has_misc && q.misc.block_len == 111 && stated(&rq[3], "block length 111"),
          "misc block length %u", q.misc.block_len);
    CHECK(q.misc.a == 0 && q.misc.b == 0 && asc_is_n(&q.misc.text, 100), "misc body");
    CHECK(ixp_login_misc_len(&q.misc.text) == 111, "10 + 101 = 111");
    CHECK(stated(&rq[4], "SQ_ASCEOT 127"), "ASCEOT stated");

    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    rc = ixp_conreq_encode(&q, &w);
    CHECK(rc == IX_OK && w.len == n && memcmp(w.data, p, n) == 0,
          "CONREQ re-encodes byte for byte (rc=%d len=%zu)", rc, w.len);

    /* Printer: one line, never the password. */
    ixb_wbuf_reset(&w);
    ixp_login_print(p, n, &w);
    ixb_put_u8(&w, 0);
    const char *line = (const char *)w.data;
    CHECK(strncmp(line, "CONREQ len=489 user=\"tstuser1\" password=<32 bytes> server=", 58) == 0,
          "print: %s", line);
    CHECK(strstr(line, "caps=316,0,0") && strstr(line, "env={DBPATH=., DBDATE=Y4MD-, ") &&
              strstr(line, "pinfo(pid=0 tid=1 host=") && strstr(line, "misc(len=111 \"Thread["),
          "print fields: %s", line);
    CHECK(!strstr(line, "aXhkYi10") && !strchr(line, '\n'), "print hides the password");
    ixb_wbuf_free(&w);
}

static void test_conacc_capture(void) {
    const uint8_t *p = conacc_pkt.data;
    size_t n = conacc_pkt.len;
    ixp_sl_hdr h;
    CHECK(ixp_sl_peek(p, n, &h) == IX_OK && h.total == n && h.type == IXP_SL_CONACC &&
              h.flags == 0x1000 && stated(&ac[0], "total=267 type=2 proto=60 flags=0x1000"),
          "CONACC header");
    CHECK(ixp_sl_looks_like(p, n) == 1, "looks like a login packet");

    static ixp_conacc a;
    size_t used = 0, at = 0;
    const char *why = NULL;
    int rc = ixp_conacc_decode(p, n, NULL, &a, &used, &at, &why);
    CHECK(rc == IX_OK && used == n, "decode CONACC rc=%d at=%zu why=%s", rc, at, why ? why : "");
    if (rc != IX_OK) return;
    CHECK(a.sl_type == 2 && a.sl_flags == 0x1000 && a.pf_protocol == 61, "type/flags/pf");
    CHECK(asc_is(&a.float_fmt, "IEEEI") && stated(&ac[0], "ascstr IEEEI"), "IEEEI");
    CHECK(memcmp(a.product, "srvinfx\0\0\0\0\0", 12) == 0 && stated(&ac[0], "108 + srvinfx[12]"),
          "srvinfx");
    CHECK(asc_is(&a.version, "GBase Server Version 9.56.FC4G1AEE") &&
              stated(&ac[0], "\"GBase Server Version 9.56.FC4G1AEE\""),
          "version banner");
    CHECK(asc_is(&a.serial, "Software Serial Number AAA#B000000") &&
              stated(&ac[0], "\"Software Serial Number AAA#B000000\""),
          "serial");
    CHECK(asc_is(&a.server_name, "gbase_srv_000"), "server-name filler");
    CHECK(a.cap[0] == 316 && a.cap[1] == 0 && a.cap[2] == 0 &&
              stated(&ac[1], "Cap_1=316 Cap_2=0 Cap_3=0"),
          "caps");
    CHECK(a.reserved == 0 && a.n4.n == 0 && a.n5.n == 0 && stated(&ac[1], "i16 0; i16 0; i16 0"),
          "reserved");
    CHECK(memcmp(a.proto_name, "on\0\0\0\0\0\0", 8) == 0 && a.proto_version == 61 &&
              memcmp(a.transport, "soctcp\0\0", 8) == 0 && a.net_level == 0 &&
              stated(&ac[1], "on+NUL pad; i32 61; 8 bytes soctcp+NUL pad; i32 0"),
          "on/61/soctcp/0");
    CHECK(a.result == 102 && a.result_at == 168 && stated(&ac[1], "SQ_ASCINITRESP 102"),
          "result 102 at %u", a.result_at);
    CHECK(a.svc_error == 0 && a.os_error == 0 && a.warnings == 0x0014 && a.nmsg == 0 &&
              stated(&ac[1], "svc_error 0, os_error 0, warnings 0x0014, message count 0"),
          "102 body warnings=0x%04x", a.warnings);
    CHECK(ixb_be16(p + a.result_at + 8) == 0, "svc_error at tag+8");
    CHECK(a.has_pinfo && a.pinfo.head == 0 && a.pinfo.pid == 12 && a.pinfo.tid == 0 &&
              stated(&ac[1], "block 107: i32 0, i32 12, i32 0"),
          "block 107");
    CHECK(asc_is_n(&a.pinfo.host, 12) && a.pinfo.mid == 0 && asc_is(&a.pinfo.cwd, "/"),
          "107 host/cwd fillers");
    CHECK(a.has_blk110 && a.blk110.n == 4 && memcmp(a.blk110.p, "\0\0\0\0", 4) == 0 &&
              stated(&ac[2], "block 110: i16 length 4, 4 zero bytes"),
          "block 110");
    CHECK(a.has_misc && a.misc.block_len == 34 && a.misc.a == 1000 && a.misc.b == 0 &&
              stated(&ac[2], "block 116: i16 length 34 (=10 + 24), i32 1000, i32 0"),
          "block 116");
    CHECK(asc_is_n(&a.misc.text, 23) && ixp_login_misc_len(&a.misc.text) == 34, "116 text");
    CHECK(stated(&ac[3], "SQ_ASCEOT 127"), "EOT");

    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    rc = ixp_conacc_encode(&a, &w);
    CHECK(rc == IX_OK && w.len == n && memcmp(w.data, p, n) == 0,
          "CONACC re-encodes byte for byte (rc=%d len=%zu)", rc, w.len);
    ixb_wbuf_reset(&w);
    ixp_login_print(p, n, &w);
    ixb_put_u8(&w, 0);
    const char *line = (const char *)w.data;
    CHECK(strncmp(line,
                  "CONACC len=267 flags=0x1000 version=\"GBase Server Version 9.56.FC4G1AEE\"",
                  70) == 0,
          "print: %s", line);
    CHECK(strstr(line, "svc_error=0 os_error=0 warnings=0x0014 msgs=0") &&
              strstr(line, "pinfo(pid=12 tid=0") && strstr(line, "blk110(len=4)") &&
              strstr(line, "misc(len=34 \"/opt/gbase"),
          "print fields: %s", line);
    ixb_wbuf_free(&w);
}

/* ---- split feeds --------------------------------------------------------- */

static void test_split(const ixb_wbuf *pkt, int is_req) {
    static ixp_conreq q;
    static ixp_conacc a;
    int bad = 0;
    for (size_t k = 0; k < pkt->len; k++) {
        size_t at = 99999, used = 7;
        const char *why = NULL;
        int rc = is_req ? ixp_conreq_decode(pkt->data, k, NULL, &q, &used, &at, &why)
                        : ixp_conacc_decode(pkt->data, k, NULL, &a, &used, &at, &why);
        ixp_sl_hdr h;
        if (rc != IX_NEED_MORE || used != 0 || at != k ||
            ixp_sl_peek(pkt->data, k, &h) != IX_NEED_MORE) {
            if (!bad++) CHECK(0, "prefix %zu of %zu gave rc=%d", k, pkt->len, rc);
        }
    }
    CHECK(!bad, "%d of %zu prefixes were not IX_NEED_MORE", bad, pkt->len);
    /* More bytes than the packet: only the packet is consumed. */
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixb_put_bytes(&w, pkt->data, pkt->len);
    ixb_put_bytes(&w, "\x00\x7e\x00\x09", 4);
    size_t used = 0;
    int rc = is_req ? ixp_conreq_decode(w.data, w.len, NULL, &q, &used, NULL, NULL)
                    : ixp_conacc_decode(w.data, w.len, NULL, &a, &used, NULL, NULL);
    CHECK(rc == IX_OK && used == pkt->len, "packet followed by more bytes: rc=%d used=%zu", rc,
          used);
    /* Chunked feed into a growing buffer, 7 bytes at a time. */
    ixb_wbuf_reset(&w);
    int steps = 0;
    rc = IX_NEED_MORE;
    for (size_t off = 0; rc == IX_NEED_MORE && off < pkt->len; off += 7) {
        size_t k = pkt->len - off < 7 ? pkt->len - off : 7;
        ixb_put_bytes(&w, pkt->data + off, k);
        rc = is_req ? ixp_conreq_decode(w.data, w.len, NULL, &q, &used, NULL, NULL)
                    : ixp_conacc_decode(w.data, w.len, NULL, &a, &used, NULL, NULL);
        steps++;
    }
    CHECK(rc == IX_OK && used == pkt->len && steps == (int)((pkt->len + 6) / 7),
          "7-byte chunks: rc=%d after %d steps", rc, steps);
    ixb_wbuf_free(&w);
}

/* ---- corruptions -------------------------------------------------------- */

typedef struct corrupt_res {
    int rc;
    size_t at;
    const char *why;
} corrupt_res;

static corrupt_res decode_copy(const ixb_wbuf *pkt, int is_req, size_t off, const uint8_t *patch,
                               size_t plen, size_t keep, const ixp_login_limits *lim) {
    static uint8_t buf[70000];
    static ixp_conreq q;
    static ixp_conacc a;
    memcpy(buf, pkt->data, pkt->len);
    if (patch) memcpy(buf + off, patch, plen);
    corrupt_res r = {0, 0, ""};
    size_t used;
    r.rc = is_req ? ixp_conreq_decode(buf, keep, lim, &q, &used, &r.at, &r.why)
                  : ixp_conacc_decode(buf, keep, lim, &a, &used, &r.at, &r.why);
    return r;
}

static void print_of(const uint8_t *p, size_t n, char *line, size_t cap) {
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixp_login_print(p, n, &w);
    snprintf(line, cap, "%.*s", (int)w.len, (const char *)w.data);
    ixb_wbuf_free(&w);
}

static void test_corrupt(void) {
    const ixb_wbuf *rqp = &conreq_pkt, *acp = &conacc_pkt;
    size_t N = rqp->len;
    corrupt_res r;
    uint8_t b2[2];

    /* Wrong total: one short -> the walk runs past it; one long with an
     * extra byte -> trailing bytes; below 6 -> header; longer than the
     * bytes we have -> still waiting. */
    ixb_st16(b2, (uint16_t)(N - 1));
    r = decode_copy(rqp, 1, 0, b2, 2, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == N - 2, "total-1: rc=%d at=%zu %s", r.rc, r.at, r.why);
    ixb_st16(b2, (uint16_t)(N + 1));
    r = decode_copy(rqp, 1, 0, b2, 2, N + 1, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == N && strstr(r.why, "after SQ_ASCEOT"),
          "total+1: rc=%d at=%zu %s", r.rc, r.at, r.why);
    r = decode_copy(rqp, 1, 0, b2, 2, N, NULL);
    CHECK(r.rc == IX_NEED_MORE, "total+1 with N bytes waits: rc=%d", r.rc);
    ixb_st16(b2, 5);
    r = decode_copy(rqp, 1, 0, b2, 2, 2, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 0, "total 5: rc=%d at=%zu", r.rc, r.at);

    /* Unknown SL type and protocol: reported as soon as the byte is there. */
    uint8_t t7 = 7, p59 = 59;
    r = decode_copy(rqp, 1, 2, &t7, 1, 3, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 2, "type 7 (3 bytes): rc=%d at=%zu", r.rc, r.at);
    r = decode_copy(acp, 0, 2, &t7, 1, acp->len, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 2, "type 7 CONACC: rc=%d at=%zu", r.rc, r.at);
    r = decode_copy(rqp, 1, 3, &p59, 1, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 3, "proto 59: rc=%d at=%zu", r.rc, r.at);
    r = decode_copy(acp, 1, 0, NULL, 0, acp->len, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 2, "CONACC to the CONREQ decoder: rc=%d", r.rc);
    r = decode_copy(rqp, 0, 0, NULL, 0, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 2, "CONREQ to the CONACC decoder: rc=%d", r.rc);
    r = decode_copy(acp, 1, 0, NULL, 0, 3, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 2, "3 bytes of a CONACC to the CONREQ decoder: rc=%d",
          r.rc);
    r = decode_copy(rqp, 0, 0, NULL, 0, 2, NULL);
    CHECK(r.rc == IX_NEED_MORE, "2 bytes to the CONACC decoder: rc=%d", r.rc);
    CHECK(!ixp_sl_looks_like((const uint8_t *)"\x00\x7e\x00\x09", 4), "PROTOCOLS not login");
    CHECK(!ixp_sl_looks_like(rqp->data, 3), "3 bytes are too few");

    /* ascstr lengths running past the end. User name at 79, diagnostic at 384. */
    ixb_st16(b2, 0xffff);
    r = decode_copy(rqp, 1, 79, b2, 2, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 79 && strstr(r.why, "user name"),
          "user len 0xffff: rc=%d at=%zu %s", r.rc, r.at, r.why);
    ixb_st16(b2, 200);
    r = decode_copy(rqp, 1, 384, b2, 2, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 384, "diag len 200: rc=%d at=%zu %s", r.rc, r.at, r.why);
    char line[256];
    {
        static uint8_t buf[600];
        memcpy(buf, rqp->data, N);
        ixb_st16(buf + 79, 0xffff);
        print_of(buf, N, line, sizeof line);
        CHECK(strcmp(line, "MALFORMED at offset 79: user name: runs past the SL total length") == 0,
              "print: %s", line);
    }
    ixb_st16(b2, 300); /* server name at 110 in the CONACC */
    r = decode_copy(acp, 0, 110, b2, 2, acp->len, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 110, "CONACC server len: rc=%d at=%zu", r.rc, r.at);

    /* ascstr without its NUL: IEEEM's NUL is byte 21. */
    uint8_t x = 'X';
    r = decode_copy(rqp, 1, 21, &x, 1, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 21, "IEEEM without NUL: rc=%d at=%zu", r.rc, r.at);

    /* Env count (offset 185) against the limits. */
    ixp_login_limits lim;
    ixp_login_limits_default(&lim);
    lim.max_env = 5;
    r = decode_copy(rqp, 1, 0, NULL, 0, N, &lim);
    CHECK(r.rc == IX_ELIMIT && r.at == 185, "max_env 5: rc=%d at=%zu", r.rc, r.at);
    ixb_st16(b2, 65);
    r = decode_copy(rqp, 1, 185, b2, 2, N, NULL);
    CHECK(r.rc == IX_ELIMIT && r.at == 185, "65 env pairs: rc=%d at=%zu", r.rc, r.at);
    ixb_st16(b2, 0x8000);
    r = decode_copy(rqp, 1, 185, b2, 2, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 185, "negative env count: rc=%d", r.rc);
    ixp_login_limits_default(&lim);
    lim.max_packet = 400;
    r = decode_copy(rqp, 1, 0, NULL, 0, 2, &lim);
    CHECK(r.rc == IX_ELIMIT && r.at == 0, "max_packet 400, 2 bytes: rc=%d", r.rc);

    /* Unknown item after the env list (107 at 292), and 116 in its place
     * (then 107 would follow 116: out of order). */
    ixb_st16(b2, 108);
    r = decode_copy(rqp, 1, 292, b2, 2, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 292, "item 108 after env: rc=%d at=%zu", r.rc, r.at);
    ixb_st16(b2, 127);
    r = decode_copy(rqp, 1, 292, b2, 2, N, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 294 && strstr(r.why, "after SQ_ASCEOT"),
          "early 127: rc=%d at=%zu", r.rc, r.at);
    /* CONACC result item at 168; message count at 182. */
    ixb_st16(b2, 99);
    r = decode_copy(acp, 0, 168, b2, 2, acp->len, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 168, "result 99: rc=%d at=%zu", r.rc, r.at);
    ixb_st16(b2, 0xffff);
    r = decode_copy(acp, 0, 182, b2, 2, acp->len, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 182, "msg count -1: rc=%d at=%zu", r.rc, r.at);
    ixb_st16(b2, 17);
    r = decode_copy(acp, 0, 182, b2, 2, acp->len, NULL);
    CHECK(r.rc == IX_ELIMIT && r.at == 182, "msg count 17: rc=%d at=%zu", r.rc, r.at);
    ixb_st16(b2, 3);
    r = decode_copy(acp, 0, 182, b2, 2, acp->len, NULL);
    CHECK(r.rc == IX_EMALFORMED, "msg count 3 over the blocks: rc=%d at=%zu", r.rc, r.at);
    /* Block 110 length (at 221) past the end. */
    ixb_st16(b2, 400);
    r = decode_copy(acp, 0, 221, b2, 2, acp->len, NULL);
    CHECK(r.rc == IX_EMALFORMED && r.at == 221, "block 110 len: rc=%d at=%zu", r.rc, r.at);

    /* A wrong 116 block length is tolerated (JDD sends one byte short). */
    ixb_st16(b2, 110);
    r = decode_copy(rqp, 1, 374, b2, 2, N, NULL);
    CHECK(r.rc == IX_OK, "116 block length 110 instead of 111: rc=%d %s", r.rc, r.why);
    ixb_st16(b2, 0);
    r = decode_copy(acp, 0, 229, b2, 2, acp->len, NULL);
    CHECK(r.rc == IX_OK, "CONACC 116 block length 0: rc=%d %s", r.rc, r.why);

    print_of(rqp->data, 5, line, sizeof line);
    CHECK(strcmp(line, "INCOMPLETE at offset 5: have 5 of 489 bytes") == 0, "print: %s", line);
    print_of(rqp->data, 1, line, sizeof line);
    CHECK(strncmp(line, "INCOMPLETE at offset 1", 22) == 0, "print: %s", line);
    print_of(NULL, 0, line, sizeof line);
    CHECK(strncmp(line, "INCOMPLETE at offset 0", 22) == 0, "print empty: %s", line);
}

/* ---- defaults, CONREJ, passwords ------------------------------------------ */

static int roundtrip_req(const ixp_conreq *in, ixb_wbuf *w, ixp_conreq *back) {
    ixb_wbuf_reset(w);
    if (ixp_conreq_encode(in, w) != IX_OK) return 0;
    size_t used = 0;
    if (ixp_conreq_decode(w->data, w->len, NULL, back, &used, NULL, NULL) != IX_OK) return 0;
    if (used != w->len || ixb_be16(w->data) != w->len) return 0;
    ixb_wbuf w2;
    ixb_wbuf_init(&w2, NULL);
    int ok = ixp_conreq_encode(back, &w2) == IX_OK && w2.len == w->len &&
             memcmp(w2.data, w->data, w->len) == 0;
    ixb_wbuf_free(&w2);
    return ok;
}

static int roundtrip_acc(const ixp_conacc *in, ixb_wbuf *w, ixp_conacc *back) {
    ixb_wbuf_reset(w);
    if (ixp_conacc_encode(in, w) != IX_OK) return 0;
    size_t used = 0;
    if (ixp_conacc_decode(w->data, w->len, NULL, back, &used, NULL, NULL) != IX_OK) return 0;
    if (used != w->len || ixb_be16(w->data) != w->len) return 0;
    ixb_wbuf w2;
    ixb_wbuf_init(&w2, NULL);
    int ok = ixp_conacc_encode(back, &w2) == IX_OK && w2.len == w->len &&
             memcmp(w2.data, w->data, w->len) == 0;
    ixb_wbuf_free(&w2);
    return ok;
}

static void test_defaults(void) {
    static ixp_conreq q, b;
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixp_conreq_defaults(&q, "informix", "s3cret!", "ol_informix1410");
    CHECK(roundtrip_req(&q, &w, &b), "conreq defaults round trip");
    CHECK(asc_is(&b.user, "informix") && asc_is(&b.password, "s3cret!") &&
              asc_is(&b.server, "ol_informix1410") && asc_is(&b.version, "9.280") &&
              asc_is(&b.rds_id, "RDS#R000000") && asc_is(&b.app_id, "sqli") &&
              asc_is(&b.float_fmt, "IEEEM") && b.cap[0] == 316 && b.user_type == 1,
          "conreq defaults fields");
    CHECK(memcmp(b.transport, "tlitcp\0\0", 8) == 0 && memcmp(b.proto_name, "ol\0", 3) == 0 &&
              b.proto_version == 61 && b.net_level == 1 && b.opt_len == 11 && b.opt_flags == 3,
          "conreq defaults ol/tlitcp");
    CHECK(b.nenv == 4 && asc_is(&b.env[0].name, "DBPATH") && asc_is(&b.env[0].value, ".") &&
              asc_is(&b.env[1].name, "CLNT_PAM_CAPABLE") && asc_is(&b.env[2].name, "IFX_UPDDESC") &&
              asc_is(&b.env[3].name, "NODEFDAC") && asc_is(&b.env[3].value, "no"),
          "conreq defaults env");
    CHECK(b.has_misc && b.misc.block_len == 10 + b.misc.text.n + 1, "116 length 10 + n");
    char line[512];
    print_of(w.data, w.len, line, sizeof line);
    CHECK(strstr(line, "password=<7 bytes>") && !strstr(line, "s3cret"), "print: %s", line);

    /* Password length 0 and 1 are both accepted and kept. */
    ixp_conreq_defaults(&q, "u", NULL, "x");
    CHECK(q.password.form == IXP_LOGIN_EMPTY_PASSWORD_FORM, "empty password uses the one choice");
    q.password = ixp_ascstr_of(NULL);
    CHECK(roundtrip_req(&q, &w, &b) && b.password.form == 0 && b.password.n == 0,
          "password length 0");
    CHECK(memcmp(w.data + 79, "\x00\x02u\x00\x00\x00ol", 8) == 0, "length-0 password bytes");
    q.password = ixp_ascstr_of("");
    CHECK(roundtrip_req(&q, &w, &b) && b.password.form == 1 && b.password.n == 0,
          "password length 1");
    CHECK(memcmp(w.data + 79, "\x00\x02u\x00\x00\x01\x00ol", 9) == 0, "length-1 password bytes");
    print_of(w.data, w.len, line, sizeof line);
    CHECK(strstr(line, "password=<0 bytes>"), "print: %s", line);

    /* Without optional blocks; and a 116 block length that is off by one. */
    ixp_conreq_defaults(&q, "u", "p", NULL);
    q.has_pinfo = q.has_misc = 0;
    CHECK(roundtrip_req(&q, &w, &b) && !b.has_pinfo && !b.has_misc, "no 107/116");
    ixp_conreq_defaults(&q, "u", "p", "s");
    q.has_pinfo = 0;
    q.misc.block_len--;
    CHECK(roundtrip_req(&q, &w, &b) && b.misc.block_len == q.misc.block_len, "116 only, short");

    /* 116 followed by 107 is out of order (the encoder could not repeat it). */
    ixb_wbuf_reset(&w);
    CHECK(ixp_conreq_encode(&q, &w) == IX_OK, "encode 116-only request");
    {
        static const uint8_t pinfo[] = {0, 107, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                        0, 0,   1, 0, 0, 0, 0, 0, 0, 0, 127};
        size_t tag_at = w.len - 2;
        w.len = tag_at;
        ixb_put_bytes(&w, pinfo, sizeof pinfo);
        ixb_patch_i16(&w, 0, (int)w.len);
        size_t at = 0;
        const char *why = "";
        CHECK(ixp_conreq_decode(w.data, w.len, NULL, &b, NULL, &at, &why) == IX_EMALFORMED &&
                  at == tag_at && strstr(why, "out of order"),
              "107 after 116: at=%zu %s", at, why);
    }

    /* Encoder argument checks leave the buffer as it was. */
    ixb_wbuf_reset(&w);
    ixb_put_u8(&w, 0xaa);
    q.user.form = 0; /* form 0 with n > 0 */
    CHECK(ixp_conreq_encode(&q, &w) == IX_EINVAL && w.len == 1, "bad ascstr form");
    q.user = ixp_ascstr_of("u");
    q.nenv = IXP_LOGIN_MAXENV + 1;
    CHECK(ixp_conreq_encode(&q, &w) == IX_EINVAL && w.len == 1, "too many env pairs");
    /* Too big for a u16 total. */
    static char big[40000];
    memset(big, 'a', sizeof big - 1);
    ixp_conreq_defaults(&q, big, big, "s");
    CHECK(ixp_conreq_encode(&q, &w) == IX_ELIMIT && w.len == 1, "total over 65535");

    static ixp_conacc a, ab;
    ixp_conacc_defaults(&a, "ol_ixdb", NULL);
    CHECK(roundtrip_acc(&a, &w, &ab), "conacc defaults round trip");
    CHECK(w.data[2] == 2 && ixb_be16(w.data + 4) == 0x1000 && ab.sl_flags == 0x1000 &&
              asc_is(&ab.float_fmt, "IEEEI") && memcmp(ab.product, "srvinfx\0", 8) == 0 &&
              asc_is(&ab.version, IXP_LOGIN_DEFAULT_BANNER) && asc_is(&ab.server_name, "ol_ixdb") &&
              ab.cap[0] == 316 && memcmp(ab.proto_name, "on\0", 3) == 0 &&
              memcmp(ab.transport, "soctcp\0\0", 8) == 0 && ab.net_level == 0 && ab.result == 102 &&
              ab.svc_error == 0 && ab.warnings == 0 && ab.nmsg == 0 && !ab.has_pinfo &&
              !ab.has_blk110 && !ab.has_misc,
          "conacc defaults fields");
    print_of(w.data, w.len, line, sizeof line);
    CHECK(strncmp(line, "CONACC len=", 11) == 0 && strstr(line, "svc_error=0"), "print: %s", line);

    /* CONREJ with -951: SL type 3, svc_error 8 bytes after the 102 tag. */
    ixp_conrej_defaults(&a, "ol_ixdb", "IBM Informix Dynamic Server Version 14.10.FC10", -951);
    CHECK(roundtrip_acc(&a, &w, &ab), "conrej round trip");
    CHECK(w.data[2] == IXP_SL_CONREJ && ab.sl_type == 3 && ab.svc_error == -951, "conrej fields");
    CHECK(ixb_be16(w.data + ab.result_at) == 102 &&
              (int16_t)ixb_be16(w.data + ab.result_at + 8) == -951,
          "svc_error -951 at tag+8");
    print_of(w.data, w.len, line, sizeof line);
    CHECK(strncmp(line, "CONREJ len=", 11) == 0 && strstr(line, "svc_error=-951"), "print: %s",
          line);

    /* Messages with odd and even CHAR lengths, blocks, redirect, bare 127. */
    ixp_conacc_defaults(&a, "s", "v");
    a.nmsg = 2;
    a.msg[0].kind = 1;
    a.msg[0].text.p = (const uint8_t *)"informix@host";
    a.msg[0].text.n = 13;
    a.msg[1].kind = 2;
    a.msg[1].text.p = (const uint8_t *)"ab";
    a.msg[1].text.n = 2;
    a.has_pinfo = a.has_blk110 = a.has_misc = 1;
    a.pinfo.host = ixp_ascstr_of("h");
    a.blk110.p = (const uint8_t *)"xyz";
    a.blk110.n = 3;
    a.misc.text = ixp_ascstr_of("/bin/oninit");
    a.misc.block_len = ixp_login_misc_len(&a.misc.text);
    CHECK(roundtrip_acc(&a, &w, &ab) && ab.nmsg == 2 && ab.msg[0].text.n == 13 &&
              ab.msg[1].kind == 2 && ab.blk110.n == 3 && ab.pinfo.cwd.form == 0,
          "messages and blocks");
    print_of(w.data, w.len, line, sizeof line);
    CHECK(strstr(line, "msgs=2 {1:\"informix@host\", 2:\"ab\"}"), "print: %s", line);
    {
        /* A non-zero CHAR pad byte is malformed: the odd message's pad. */
        static uint8_t buf[1024];
        memcpy(buf, w.data, w.len);
        size_t pad_at = ab.result_at + 2 + 6 + 8 + 2 + 2 + 13;
        CHECK(buf[pad_at] == 0, "pad byte located");
        buf[pad_at] = 1;
        size_t at = 0;
        CHECK(ixp_conacc_decode(buf, w.len, NULL, &ab, NULL, &at, NULL) == IX_EMALFORMED &&
                  at == pad_at,
              "non-zero pad rejected at %zu", at);
    }
    ixp_conacc_defaults(&a, "s", "v");
    a.sl_type = IXP_SL_REDIRECT;
    a.result = IXP_ASC_DBLIST;
    a.redirect.p = (const uint8_t *)"x=ol|h|9088";
    a.redirect.n = 11;
    CHECK(roundtrip_acc(&a, &w, &ab) && ab.sl_type == 13 && ab.redirect.n == 11, "redirect");
    print_of(w.data, w.len, line, sizeof line);
    CHECK(strncmp(line, "REDIRECT len=", 13) == 0 && strstr(line, "redirect=\"x=ol|h|9088\""),
          "print: %s", line);
    a.result = IXP_ASC_EOT;
    CHECK(roundtrip_acc(&a, &w, &ab) && ab.result == 127, "bare 127 result");
    a.result = 55;
    CHECK(ixp_conacc_encode(&a, &w) == IX_EINVAL, "bad result item");
    a.result = 102;
    a.sl_type = 1;
    CHECK(ixp_conacc_encode(&a, &w) == IX_EINVAL, "bad SL type");
    ixb_wbuf_free(&w);
}

int main(void) {
    const char *path = IXDB_VECTORS_DIR "/messages.tsv";
    int rc = tsv_load(&T, path);
    CHECK(rc == 0, "cannot read %s", path);
    if (rc) return tap_done() | 1;
    c_msg = tsv_colidx(&T, "message");
    c_hex = tsv_colidx(&T, "hex");
    c_meaning = tsv_colidx(&T, "meaning");
    CHECK(c_msg >= 0 && c_hex >= 0 && c_meaning >= 0, "messages.tsv columns");
    if (c_msg < 0 || c_hex < 0 || c_meaning < 0) return tap_done() | 1;

    assemble_conreq();
    assemble_conacc();
    test_conreq_capture();
    test_conacc_capture();
    test_split(&conreq_pkt, 1);
    test_split(&conacc_pkt, 0);
    test_corrupt();
    test_defaults();

    ixb_wbuf_free(&conreq_pkt);
    ixb_wbuf_free(&conacc_pkt);
    for (int i = 0; i < 5; i++)
        ixb_wbuf_free(&rq[i].bytes);
    for (int i = 0; i < 4; i++)
        ixb_wbuf_free(&ac[i].bytes);
    tsv_free(&T);
    return tap_done();
}
