/* ix_login.c: SL header, CONREQ and CONACC/CONREJ/REDIRECT codec, printer.
 * Layouts: sqli-protocol.md §2.2-2.4; evidence: the GBase capture in
 * tests/vectors/messages.tsv (CONREQ/CONACC segments). */
#include "proto/ix_login.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- small shared pieces ------------------------------------------------- */

ixp_ascstr ixp_ascstr_of(const char *s) {
    ixp_ascstr a = {"", 0, 0};
    if (!s) return a;
    size_t n = strlen(s);
    a.p = s;
    a.n = n > 65534 ? 65535 : (uint16_t)n; /* 65535: refused by the encoders */
    a.form = 1;
    return a;
}

uint16_t ixp_login_misc_len(const ixp_ascstr *text) {
    size_t wire = text->form ? (size_t)text->n + 1 : 0;
    size_t v = 10 + wire;
    return v > 65535 ? 65535 : (uint16_t)v;
}

void ixp_login_limits_default(ixp_login_limits *lim) {
    lim->max_packet = 65535;
    lim->max_env = IXP_LOGIN_MAXENV;
    lim->max_msg = IXP_LOGIN_MAXMSG;
}

static int sl_type_known(unsigned t) {
    return t == IXP_SL_CONREQ || t == IXP_SL_CONACC || t == IXP_SL_CONREJ || t == IXP_SL_REDIRECT;
}

/*
 * SL header (§2.2), both directions:
 *
 *   off  size  field
 *   0    2     total length, u16, includes these 6 bytes
 *   2    1     SL type: 1 CONREQ, 2 CONACC, 3 CONREJ, 13 REDIRECT
 *   3    1     protocol: 60
 *   4    2     flags: 0 from clients, 0x1000 from servers
 *
 * Checks what the first n bytes already show, so that a corrupt header is
 * reported as soon as its byte is present.
 */
static int sl_check(const uint8_t *p, size_t n, ixp_sl_hdr *h, size_t *at, const char **why) {
    memset(h, 0, sizeof *h);
    if (n >= 2) {
        h->total = ixb_be16(p);
        if (h->total < IXP_SL_HDR_LEN) {
            *at = 0;
            *why = "SL total length is less than the 6-byte header";
            return IX_EMALFORMED;
        }
    }
    if (n >= 3) {
        h->type = p[2];
        if (!sl_type_known(h->type)) {
            *at = 2;
            *why = "unknown SL type (want 1, 2, 3 or 13)";
            return IX_EMALFORMED;
        }
    }
    if (n >= 4) {
        h->proto = p[3];
        if (h->proto != IXP_SL_PROTO) {
            *at = 3;
            *why = "SL protocol is not 60";
            return IX_EMALFORMED;
        }
    }
    if (n >= 6) h->flags = ixb_be16(p + 4);
    if (n < IXP_SL_HDR_LEN || n < h->total) {
        *at = n;
        *why = "input ends inside the login packet";
        return IX_NEED_MORE;
    }
    return IX_OK;
}

int ixp_sl_peek(const uint8_t *p, size_t n, ixp_sl_hdr *out) {
    ixp_sl_hdr h;
    size_t at;
    const char *why;
    int rc = sl_check(p, n, &h, &at, &why);
    if (out) *out = h;
    return rc;
}

int ixp_sl_looks_like(const uint8_t *p, size_t n) {
    if (!p || n < 4) return 0;
    return ixb_be16(p) >= IXP_SL_HDR_LEN && sl_type_known(p[2]) && p[3] == IXP_SL_PROTO;
}

/* ---- reading helpers ------------------------------------------------------
 * The whole packet p[0..total) is present before any body field is read, so
 * a field that does not fit is malformed (it runs past the SL total), never
 * IX_NEED_MORE. Each helper checks the bytes left before reading and reports
 * the offset where the offending field starts. Reasons are string literals
 * glued together by the macros below. */

static int rd_ok(const ixb_rbuf *r) {
    return r->st == IX_OK;
}

static size_t rd_left(const ixb_rbuf *r) {
    return r->len - r->pos;
}

static int rd_have(ixb_rbuf *r, size_t k, size_t at, const char *why) {
    if (!rd_ok(r)) return 0;
    if (rd_left(r) < k) {
        ixb_rbuf_fail(r, IX_EMALFORMED, at, why);
        return 0;
    }
    return 1;
}

static int16_t rd_i16(ixb_rbuf *r, const char *why) {
    return rd_have(r, 2, r->pos, why) ? ixb_get_i16(r) : 0;
}

static int32_t rd_i32(ixb_rbuf *r, const char *why) {
    return rd_have(r, 4, r->pos, why) ? ixb_get_i32(r) : 0;
}

static void rd_fixed(ixb_rbuf *r, uint8_t *dst, size_t k, const char *why) {
    if (rd_have(r, k, r->pos, why))
        memcpy(dst, ixb_get_bytes(r, k), k);
    else
        memset(dst, 0, k);
}

static void rd_tag(ixb_rbuf *r, int want, const char *why_past, const char *why_bad) {
    size_t at = r->pos;
    int16_t t = rd_i16(r, why_past);
    if (rd_ok(r) && t != want) ixb_rbuf_fail(r, IX_EMALFORMED, at, why_bad);
}

/* ascstr: u16 len (counts the NUL), len bytes ending in NUL, no pad. */
static void rd_asc(ixb_rbuf *r, ixp_ascstr *s, const char *why_past, const char *why_nul) {
    size_t at = r->pos;
    s->p = "";
    s->n = 0;
    s->form = 0;
    if (!rd_have(r, 2, at, why_past)) return;
    uint16_t len = ixb_get_u16(r);
    if (len == 0) return;
    if (!rd_have(r, len, at, why_past)) return;
    const uint8_t *b = ixb_get_bytes(r, len);
    if (b[len - 1] != 0) {
        ixb_rbuf_fail(r, IX_EMALFORMED, at + 2 + len - 1, why_nul);
        return;
    }
    s->p = (const char *)b;
    s->n = (uint16_t)(len - 1);
    s->form = 1;
}

/* i16 len (>= 0), len bytes, and one 00 pad byte if pad and len is odd. */
static void rd_blen(ixb_rbuf *r, ixp_login_bytes *d, int pad, const char *why_past,
                    const char *why_neg) {
    size_t at = r->pos;
    d->p = (const uint8_t *)"";
    d->n = 0;
    int16_t len = rd_i16(r, why_past);
    if (!rd_ok(r)) return;
    if (len < 0) {
        ixb_rbuf_fail(r, IX_EMALFORMED, at, why_neg);
        return;
    }
    size_t k = (size_t)len + (pad ? ((size_t)len & 1) : 0);
    if (!rd_have(r, k, at, why_past)) return;
    d->p = ixb_get_bytes(r, (size_t)len);
    d->n = (uint16_t)len;
    if (k > (size_t)len) {
        size_t pad_at = r->pos;
        if (ixb_get_u8(r) != 0) ixb_rbuf_fail(r, IX_EMALFORMED, pad_at, "CHAR pad byte is not 00");
    }
}

#define PAST                  ": runs past the SL total length"
#define I16(r, name)          rd_i16(r, name PAST)
#define I32(r, name)          rd_i32(r, name PAST)
#define FIXED(r, d, name)     rd_fixed(r, d, sizeof(d), name PAST)
#define TAG(r, want, name)    rd_tag(r, want, name PAST, name ": wrong item tag (want " #want ")")
#define ASC(r, d, name)       rd_asc(r, d, name PAST, name ": ascstr does not end with NUL")
#define BLEN(r, d, pad, name) rd_blen(r, d, pad, name PAST, name ": negative length")

static void rd_pinfo(ixb_rbuf *r, ixp_login_pinfo *pi) {
    pi->head = I32(r, "ASCPINFO first i32");
    pi->pid = I32(r, "ASCPINFO pid");
    pi->tid = I32(r, "ASCPINFO thread id");
    ASC(r, &pi->host, "ASCPINFO host name");
    pi->mid = I16(r, "ASCPINFO i16 after host");
    ASC(r, &pi->cwd, "ASCPINFO working directory");
}

/* Item 116: the block length is kept but not trusted (§8 #26): the walk
 * follows the inner ascstr, so a wrong block length is not an error. */
static void rd_misc(ixb_rbuf *r, ixp_login_misc *m) {
    m->block_len = (uint16_t)I16(r, "ASCMISC block length");
    m->a = I32(r, "ASCMISC first i32");
    m->b = I32(r, "ASCMISC second i32");
    ASC(r, &m->text, "ASCMISC text");
}

/* Common start of both decoders: header, limit, completeness. On IX_OK the
 * cursor spans p[0..total) and stands at offset 6. */
static int sl_begin(const uint8_t *p, size_t n, const ixp_login_limits *lim, ixp_sl_hdr *h,
                    ixb_rbuf *r, size_t *at, const char **why) {
    int rc = sl_check(p, n, h, at, why);
    if (rc == IX_EMALFORMED) return rc;
    if (n >= 2 && h->total > lim->max_packet) {
        *at = 0;
        *why = "SL total length exceeds the max_packet limit";
        return IX_ELIMIT;
    }
    if (rc != IX_OK) return rc;
    ixb_rbuf_init(r, p, h->total);
    r->pos = IXP_SL_HDR_LEN;
    return IX_OK;
}

static int rd_finish(ixb_rbuf *r, size_t *used, size_t *err_at, const char **why) {
    if (rd_ok(r) && r->pos != r->len)
        ixb_rbuf_fail(r, IX_EMALFORMED, r->pos, "bytes after SQ_ASCEOT inside the SL total length");
    if (r->st == IX_NEED_MORE) /* cannot happen: every read is checked first */
        ixb_rbuf_fail(r, IX_EMALFORMED, r->err_at, "field runs past the SL total length");
    if (r->st != IX_OK) {
        if (err_at) *err_at = r->err_at;
        if (why) *why = r->why;
        return r->st;
    }
    if (used) *used = r->len;
    return IX_OK;
}

static int begin_fail(int rc, size_t at, const char *msg, size_t *used, size_t *err_at,
                      const char **why) {
    if (used) *used = 0;
    if (err_at) *err_at = at;
    if (why) *why = msg;
    return rc;
}

static void lim_resolve(const ixp_login_limits *lim, ixp_login_limits *eff) {
    if (lim)
        *eff = *lim;
    else
        ixp_login_limits_default(eff);
    if (eff->max_env > IXP_LOGIN_MAXENV) eff->max_env = IXP_LOGIN_MAXENV;
    if (eff->max_msg > IXP_LOGIN_MAXMSG) eff->max_msg = IXP_LOGIN_MAXMSG;
}

/* ---- CONREQ --------------------------------------------------------------- */

/*
 * CONREQ (§2.3). Offsets are those of the 489-byte GBase capture; every
 * field after the first ascstr moves with the string lengths, so the decoder
 * walks field by field and never uses these offsets.
 *
 *   off  size  field                      capture / IBM JDBC
 *   0    6     SL header, type 1          total, 1, 60, 0
 *   6    2     SQ_ASSOC                   100
 *   8    2     SQ_ASCBINARY               101
 *   10   4     PF protocol i32            61
 *   14   8     ascstr float format        "IEEEM"
 *   22   2+12  tag 108 + product marker   "sqlexec" + 5x00
 *   36   8     ascstr client version      "9.280"
 *   44   14    ascstr RDS id              "RDS#R000000"
 *   58   7     ascstr application id      "sqli"
 *   65   12    Cap_1, Cap_2, Cap_3 i32    316, 0, 0
 *   77   2     user type i16              1
 *   79   var   ascstr user name           (11 bytes in the capture)
 *   90   var   ascstr password            (35: 8x01 + base64; IBM: plaintext)
 *   125  8     protocol name              "ol" + 6x00
 *   133  4     protocol version i32       61
 *   137  8     transport                  "tlitcp" + 2x00
 *   145  4     network level i32          1
 *   149  2+2+4 options: 104, i16, i32     104, 11, 3
 *   157  var   ascstr INFORMIXSERVER      (16 bytes)
 *   173  2     database slot i16          0
 *   175  8     4 x i16 reserved           0
 *   183  2+2   SQ_ASCENV 106, i16 count   106, 6
 *   187  var   count x (ascstr, ascstr)   DBPATH=. ...
 *   292  2+12  [SQ_ASCPINFO 107, i32 0, i32 pid, i32 thread id,
 *   306  var    ascstr host, i16 0, ascstr cwd]      optional
 *   372  2+2   [SQ_ASCMISC_60 116, i16 block length (10 + ascstr len),
 *   376  8      i32 0, i32 0,
 *   384  var    ascstr diagnostic]                   optional
 *   487  2     SQ_ASCEOT                  127; must end at the SL total
 *
 * Item 107 may only come before 116, each at most once (so that the encoder,
 * which writes them in that order, reproduces the input).
 *
 * Database slot: decoded as an i16 per the reference; only 0 has been seen.
 * DBX's note that a "non-empty slot" made a server reject the login hints it
 * may be an ascstr whose length 0 looks the same (single restricted source).
 */
int ixp_conreq_decode(const uint8_t *p, size_t n, const ixp_login_limits *lim, ixp_conreq *out,
                      size_t *used, size_t *err_at, const char **why) {
    ixp_login_limits L;
    lim_resolve(lim, &L);
    ixp_sl_hdr h;
    ixb_rbuf rb;
    ixb_rbuf *r = &rb;
    size_t at = 0;
    const char *msg = NULL;
    memset(out, 0, sizeof *out);
    int rc = sl_begin(p, n, &L, &h, r, &at, &msg);
    /* h.type is known (non-zero) as soon as 3 bytes are present. */
    if ((rc == IX_OK || rc == IX_NEED_MORE) && h.type && h.type != IXP_SL_CONREQ) {
        rc = IX_EMALFORMED;
        at = 2;
        msg = "SL type is not CONREQ (1)";
    }
    if (rc != IX_OK) return begin_fail(rc, at, msg, used, err_at, why);

    out->sl_flags = h.flags;
    TAG(r, 100, "SQ_ASSOC");
    TAG(r, 101, "SQ_ASCBINARY");
    out->pf_protocol = I32(r, "PF protocol");
    ASC(r, &out->float_fmt, "float format");
    TAG(r, 108, "product marker");
    FIXED(r, out->product, "product marker");
    ASC(r, &out->version, "client version");
    ASC(r, &out->rds_id, "RDS id");
    ASC(r, &out->app_id, "application id");
    for (int i = 0; i < 3; i++)
        out->cap[i] = I32(r, "capabilities");
    out->user_type = I16(r, "user type");
    ASC(r, &out->user, "user name");
    ASC(r, &out->password, "password");
    FIXED(r, out->proto_name, "protocol name");
    out->proto_version = I32(r, "protocol version");
    FIXED(r, out->transport, "transport");
    out->net_level = I32(r, "network level");
    TAG(r, 104, "options item");
    out->opt_len = I16(r, "options length");
    out->opt_flags = I32(r, "options flags");
    ASC(r, &out->server, "server name");
    out->db_slot = I16(r, "database slot");
    for (int i = 0; i < 4; i++)
        out->reserved[i] = I16(r, "reserved i16");
    TAG(r, 106, "SQ_ASCENV");
    size_t cnt_at = r->pos;
    int16_t cnt = I16(r, "env count");
    if (rd_ok(r) && cnt < 0) ixb_rbuf_fail(r, IX_EMALFORMED, cnt_at, "env count is negative");
    if (rd_ok(r) && (size_t)cnt > L.max_env)
        ixb_rbuf_fail(r, IX_ELIMIT, cnt_at, "env count exceeds the max_env limit");
    for (int i = 0; rd_ok(r) && i < cnt; i++) {
        ASC(r, &out->env[i].name, "env name");
        ASC(r, &out->env[i].value, "env value");
        out->nenv = (uint16_t)(i + 1);
    }
    while (rd_ok(r)) {
        size_t tag_at = r->pos;
        int16_t tag = I16(r, "item tag after env");
        if (!rd_ok(r)) break;
        if (tag == IXP_ASC_EOT) break;
        if (tag == 107 && !out->has_pinfo && !out->has_misc) {
            out->has_pinfo = 1;
            rd_pinfo(r, &out->pinfo);
        } else if (tag == 116 && !out->has_misc) {
            out->has_misc = 1;
            rd_misc(r, &out->misc);
        } else if (tag == 107 || tag == 116) {
            ixb_rbuf_fail(r, IX_EMALFORMED, tag_at, "item 107/116 repeated or out of order");
        } else {
            ixb_rbuf_fail(r, IX_EMALFORMED, tag_at, "unexpected item tag (want 107, 116 or 127)");
        }
    }
    rc = rd_finish(r, used, err_at, why);
    if (rc != IX_OK && used) *used = 0;
    return rc;
}

/* ---- writing helpers ------------------------------------------------------ */

static int asc_valid(const ixp_ascstr *s) {
    if (s->form == 0) return s->n == 0;
    return s->form == 1 && s->n <= 65534 && (s->p || s->n == 0);
}

static int bytes_valid(const ixp_login_bytes *b) {
    return b->n <= 32767 && (b->p || b->n == 0);
}

static void put_asc(ixb_wbuf *w, const ixp_ascstr *s) {
    if (s->form == 0) {
        ixb_put_i16(w, 0);
        return;
    }
    ixb_put_i16(w, s->n + 1);
    ixb_put_bytes(w, s->p, s->n);
    ixb_put_u8(w, 0);
}

static void put_blen(ixb_wbuf *w, const ixp_login_bytes *b, int pad) {
    ixb_put_i16(w, b->n);
    ixb_put_bytes(w, b->p, b->n);
    if (pad) ixb_put_pad(w, b->n);
}

static void put_pinfo(ixb_wbuf *w, const ixp_login_pinfo *pi) {
    ixb_put_i16(w, 107);
    ixb_put_i32(w, pi->head);
    ixb_put_i32(w, pi->pid);
    ixb_put_i32(w, pi->tid);
    put_asc(w, &pi->host);
    ixb_put_i16(w, pi->mid);
    put_asc(w, &pi->cwd);
}

static void put_misc(ixb_wbuf *w, const ixp_login_misc *m) {
    ixb_put_i16(w, 116);
    ixb_put_i16(w, m->block_len); /* as stored, see ixp_login_misc_len */
    ixb_put_i32(w, m->a);
    ixb_put_i32(w, m->b);
    put_asc(w, &m->text);
}

static size_t sl_open(ixb_wbuf *w, uint8_t type, uint16_t flags) {
    size_t start = w->len;
    ixb_put_i16(w, 0); /* total, patched by sl_close */
    ixb_put_u8(w, type);
    ixb_put_u8(w, IXP_SL_PROTO);
    ixb_put_i16(w, flags);
    return start;
}

static int sl_close(ixb_wbuf *w, size_t start) {
    if (w->err) return w->err;
    size_t total = w->len - start;
    if (total > 65535) {
        w->len = start;
        return IX_ELIMIT;
    }
    ixb_patch_i16(w, start, (int)total);
    return IX_OK;
}

/* Layout: see the table above ixp_conreq_decode. */
int ixp_conreq_encode(const ixp_conreq *in, ixb_wbuf *out) {
    if (out->err) return out->err;
    const ixp_ascstr *strs[] = {&in->float_fmt, &in->version,  &in->rds_id, &in->app_id,
                                &in->user,      &in->password, &in->server, &in->pinfo.host,
                                &in->pinfo.cwd, &in->misc.text};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (!asc_valid(strs[i])) return IX_EINVAL;
    if (in->nenv > IXP_LOGIN_MAXENV) return IX_EINVAL;
    for (unsigned i = 0; i < in->nenv; i++)
        if (!asc_valid(&in->env[i].name) || !asc_valid(&in->env[i].value)) return IX_EINVAL;

    size_t start = sl_open(out, IXP_SL_CONREQ, in->sl_flags);
    ixb_put_i16(out, 100);
    ixb_put_i16(out, 101);
    ixb_put_i32(out, in->pf_protocol);
    put_asc(out, &in->float_fmt);
    ixb_put_i16(out, 108);
    ixb_put_bytes(out, in->product, sizeof in->product);
    put_asc(out, &in->version);
    put_asc(out, &in->rds_id);
    put_asc(out, &in->app_id);
    for (int i = 0; i < 3; i++)
        ixb_put_i32(out, in->cap[i]);
    ixb_put_i16(out, in->user_type);
    put_asc(out, &in->user);
    put_asc(out, &in->password);
    ixb_put_bytes(out, in->proto_name, sizeof in->proto_name);
    ixb_put_i32(out, in->proto_version);
    ixb_put_bytes(out, in->transport, sizeof in->transport);
    ixb_put_i32(out, in->net_level);
    ixb_put_i16(out, 104);
    ixb_put_i16(out, in->opt_len);
    ixb_put_i32(out, in->opt_flags);
    put_asc(out, &in->server);
    ixb_put_i16(out, in->db_slot);
    for (int i = 0; i < 4; i++)
        ixb_put_i16(out, in->reserved[i]);
    ixb_put_i16(out, 106);
    ixb_put_i16(out, in->nenv);
    for (unsigned i = 0; i < in->nenv; i++) {
        put_asc(out, &in->env[i].name);
        put_asc(out, &in->env[i].value);
    }
    if (in->has_pinfo) put_pinfo(out, &in->pinfo);
    if (in->has_misc) put_misc(out, &in->misc);
    ixb_put_i16(out, IXP_ASC_EOT);
    return sl_close(out, start);
}

static void fixed_str(uint8_t *dst, size_t cap, const char *s) {
    memset(dst, 0, cap);
    size_t n = strlen(s);
    memcpy(dst, s, n < cap ? n : cap);
}

/* Diagnostic text for item 116; IBM JDBC sends "Thread[id:..., name:...,
 * path:...]" with its own values. */
#define IXP_LOGIN_DEFAULT_DIAG "Thread[id:1, name:main, path:ixdb]"

void ixp_conreq_defaults(ixp_conreq *r, const char *user, const char *password,
                         const char *server) {
    static const char *const env[][2] = {
        {"DBPATH", "."}, {"CLNT_PAM_CAPABLE", "1"}, {"IFX_UPDDESC", "1"}, {"NODEFDAC", "no"}};
    memset(r, 0, sizeof *r);
    r->sl_flags = 0;
    r->pf_protocol = 61;
    r->float_fmt = ixp_ascstr_of("IEEEM");
    fixed_str(r->product, sizeof r->product, "sqlexec");
    r->version = ixp_ascstr_of("9.280");
    r->rds_id = ixp_ascstr_of("RDS#R000000");
    r->app_id = ixp_ascstr_of("sqli");
    r->cap[0] = 316;
    r->user_type = 1;
    r->user = ixp_ascstr_of(user ? user : "");
    if (password && *password) {
        r->password = ixp_ascstr_of(password);
    } else {
        /* The one place that decides how an absent password is sent. */
        r->password = ixp_ascstr_of(IXP_LOGIN_EMPTY_PASSWORD_FORM ? "" : NULL);
    }
    fixed_str(r->proto_name, sizeof r->proto_name, "ol");
    r->proto_version = 61;
    fixed_str(r->transport, sizeof r->transport, "tlitcp");
    r->net_level = 1;
    r->opt_len = 11;
    r->opt_flags = 3;
    r->server = ixp_ascstr_of(server ? server : "");
    r->db_slot = 0;
    r->nenv = (uint16_t)(sizeof env / sizeof env[0]);
    for (unsigned i = 0; i < r->nenv; i++) {
        r->env[i].name = ixp_ascstr_of(env[i][0]);
        r->env[i].value = ixp_ascstr_of(env[i][1]);
    }
    r->has_pinfo = 1;
    r->pinfo.pid = 0;
    r->pinfo.tid = 1;
    r->pinfo.host = ixp_ascstr_of("");
    r->pinfo.cwd = ixp_ascstr_of("");
    r->has_misc = 1;
    r->misc.text = ixp_ascstr_of(IXP_LOGIN_DEFAULT_DIAG);
    r->misc.block_len = ixp_login_misc_len(&r->misc.text); /* 10 + n, as GBase/LSQ/DBX */
}

/* ---- CONACC / CONREJ / REDIRECT ----------------------------------------- */

/*
 * Length of the opaque head of item 102 before svc_error. With the 2-byte
 * tag this puts svc_error at tag + 8, as NMAP (against IDS 11.50) and DBX
 * read it; libsqli reads tag + 6, which the reference treats as its bug
 * (unresolved, sqli-protocol.md §8 #6). Decoder and encoder both use it.
 */
#define IXP_INITRESP_HEAD 6

/*
 * CONACC / CONREJ / REDIRECT (§2.4). Offsets are those of the 267-byte
 * GBase accept; the decoder walks the fields.
 *
 *   off  size  field                      capture / ixp_conacc_defaults
 *   0    6     SL header, type 2/3/13     267, 2, 60, 0x1000
 *   6    2+2   100, 101
 *   10   4     PF protocol i32            61
 *   14   8     ascstr float format        "IEEEI"
 *   22   2+12  tag 108 + product marker   "srvinfx" + 5x00
 *   36   var   ascstr server version      "GBase Server Version 9.56.FC4G1AEE"
 *   73   var   ascstr serial number       "Software Serial Number AAA#B000000"
 *   110  var   ascstr server name         (16 bytes)
 *   126  12    Cap_1..3 i32               316, 0, 0
 *   138  2     reserved i16               0
 *   140  2+n4  i16 n4, n4 bytes (no pad)  0
 *   142  2+n5  i16 n5, n5 bytes (no pad)  0
 *   144  8     protocol name              "on" + 6x00
 *   152  4     protocol version i32       61
 *   156  8     transport                  "soctcp" + 2x00
 *   164  4     network level i32          0
 *   168  2     result item                102 | 103 | 127
 *   -- 102 SQ_ASCINITRESP --
 *   170  6     opaque head (IXP_INITRESP_HEAD)   zeros
 *   176  2     svc_error i16 (tag + 8)    0 / -951 ...
 *   178  2     os_error i16               0
 *   180  2     warnings                   0x0014
 *   182  2     message count i16          0
 *   184  var   count x (i16, CHAR: u16 len, bytes, 00 if odd)
 *   -- 103 SQ_ASCDBLIST (redirect; single restricted source) --
 *        2     i16 (ignored)
 *        var   CHAR "<label>=<server>|<host>|<port>"
 *   -- optional, after 102/103, in this order, each at most once --
 *   184  2+12  [107, i32, i32, i32,       0, 12, 0
 *   198  var    ascstr host, i16, ascstr cwd]
 *   219  2+2+n [110, i16 len, len bytes]  4, 00000000; no pad assumed (only
 *                                         len 4 has been seen)
 *   227  2+2+8 [116, i16 block length, i32, i32,   34, 1000, 0
 *   239  var    ascstr]                   (26 bytes)
 *   265  2     SQ_ASCEOT 127; must end at the SL total
 */
int ixp_conacc_decode(const uint8_t *p, size_t n, const ixp_login_limits *lim, ixp_conacc *out,
                      size_t *used, size_t *err_at, const char **why) {
    ixp_login_limits L;
    lim_resolve(lim, &L);
    ixp_sl_hdr h;
    ixb_rbuf rb;
    ixb_rbuf *r = &rb;
    size_t at = 0;
    const char *msg = NULL;
    memset(out, 0, sizeof *out);
    int rc = sl_begin(p, n, &L, &h, r, &at, &msg);
    if ((rc == IX_OK || rc == IX_NEED_MORE) && h.type == IXP_SL_CONREQ) {
        rc = IX_EMALFORMED;
        at = 2;
        msg = "SL type is CONREQ, not a server reply";
    }
    if (rc != IX_OK) return begin_fail(rc, at, msg, used, err_at, why);

    out->sl_type = h.type;
    out->sl_flags = h.flags;
    TAG(r, 100, "SQ_ASSOC");
    TAG(r, 101, "SQ_ASCBINARY");
    out->pf_protocol = I32(r, "PF protocol");
    ASC(r, &out->float_fmt, "float format");
    TAG(r, 108, "product marker");
    FIXED(r, out->product, "product marker");
    ASC(r, &out->version, "server version");
    ASC(r, &out->serial, "serial number");
    ASC(r, &out->server_name, "server name");
    for (int i = 0; i < 3; i++)
        out->cap[i] = I32(r, "capabilities");
    out->reserved = I16(r, "reserved i16");
    BLEN(r, &out->n4, 0, "reserved n4 bytes");
    BLEN(r, &out->n5, 0, "reserved n5 bytes");
    FIXED(r, out->proto_name, "protocol name");
    out->proto_version = I32(r, "protocol version");
    FIXED(r, out->transport, "transport");
    out->net_level = I32(r, "network level");
    out->result_at = (uint16_t)r->pos;
    out->result = I16(r, "result item");
    if (!rd_ok(r)) return rd_finish(r, used, err_at, why);
    if (out->result == IXP_ASC_INITRESP) {
        rd_fixed(r, out->init_head, IXP_INITRESP_HEAD, "ASCINITRESP head" PAST);
        out->svc_error = I16(r, "svc_error");
        out->os_error = I16(r, "os_error");
        out->warnings = (uint16_t)I16(r, "warnings");
        size_t cnt_at = r->pos;
        int16_t cnt = I16(r, "message count");
        if (rd_ok(r) && cnt < 0)
            ixb_rbuf_fail(r, IX_EMALFORMED, cnt_at, "message count is negative");
        if (rd_ok(r) && (size_t)cnt > L.max_msg)
            ixb_rbuf_fail(r, IX_ELIMIT, cnt_at, "message count exceeds the max_msg limit");
        for (int i = 0; rd_ok(r) && i < cnt; i++) {
            out->msg[i].kind = I16(r, "message entry i16");
            BLEN(r, &out->msg[i].text, 1, "message entry CHAR");
            out->nmsg = (uint16_t)(i + 1);
        }
    } else if (out->result == IXP_ASC_DBLIST) {
        out->redirect_head = I16(r, "redirect i16");
        BLEN(r, &out->redirect, 1, "redirect CHAR");
    } else if (out->result != IXP_ASC_EOT) {
        ixb_rbuf_fail(r, IX_EMALFORMED, out->result_at,
                      "unexpected result item (want 102, 103 or 127)");
    }
    while (rd_ok(r) && out->result != IXP_ASC_EOT) {
        size_t tag_at = r->pos;
        int16_t tag = I16(r, "item tag after the result");
        if (!rd_ok(r) || tag == IXP_ASC_EOT) break;
        if (tag == 107 && !out->has_pinfo && !out->has_blk110 && !out->has_misc) {
            out->has_pinfo = 1;
            rd_pinfo(r, &out->pinfo);
        } else if (tag == 110 && !out->has_blk110 && !out->has_misc) {
            out->has_blk110 = 1;
            BLEN(r, &out->blk110, 0, "block 110");
        } else if (tag == 116 && !out->has_misc) {
            out->has_misc = 1;
            rd_misc(r, &out->misc);
        } else if (tag == 107 || tag == 110 || tag == 116) {
            ixb_rbuf_fail(r, IX_EMALFORMED, tag_at, "item 107/110/116 repeated or out of order");
        } else {
            ixb_rbuf_fail(r, IX_EMALFORMED, tag_at,
                          "unexpected item tag (want 107, 110, 116 or 127)");
        }
    }
    rc = rd_finish(r, used, err_at, why);
    if (rc != IX_OK && used) *used = 0;
    return rc;
}

/* svc_error lands at result tag + 2 + IXP_INITRESP_HEAD = tag + 8. */
static void put_initresp(ixb_wbuf *w, const ixp_conacc *in) {
    ixb_put_bytes(w, in->init_head, IXP_INITRESP_HEAD);
    ixb_put_i16(w, in->svc_error);
    ixb_put_i16(w, in->os_error);
    ixb_put_i16(w, in->warnings);
    ixb_put_i16(w, in->nmsg);
    for (unsigned i = 0; i < in->nmsg; i++) {
        ixb_put_i16(w, in->msg[i].kind);
        put_blen(w, &in->msg[i].text, 1);
    }
}

/* Layout: see the table above ixp_conacc_decode. */
int ixp_conacc_encode(const ixp_conacc *in, ixb_wbuf *out) {
    if (out->err) return out->err;
    if (in->sl_type != IXP_SL_CONACC && in->sl_type != IXP_SL_CONREJ &&
        in->sl_type != IXP_SL_REDIRECT)
        return IX_EINVAL;
    if (in->result != IXP_ASC_INITRESP && in->result != IXP_ASC_DBLIST && in->result != IXP_ASC_EOT)
        return IX_EINVAL;
    const ixp_ascstr *strs[] = {&in->float_fmt,  &in->version,   &in->serial,   &in->server_name,
                                &in->pinfo.host, &in->pinfo.cwd, &in->misc.text};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (!asc_valid(strs[i])) return IX_EINVAL;
    if (!bytes_valid(&in->n4) || !bytes_valid(&in->n5) || !bytes_valid(&in->redirect) ||
        !bytes_valid(&in->blk110))
        return IX_EINVAL;
    if (in->nmsg > IXP_LOGIN_MAXMSG) return IX_EINVAL;
    for (unsigned i = 0; i < in->nmsg; i++)
        if (!bytes_valid(&in->msg[i].text)) return IX_EINVAL;

    size_t start = sl_open(out, in->sl_type, in->sl_flags);
    ixb_put_i16(out, 100);
    ixb_put_i16(out, 101);
    ixb_put_i32(out, in->pf_protocol);
    put_asc(out, &in->float_fmt);
    ixb_put_i16(out, 108);
    ixb_put_bytes(out, in->product, sizeof in->product);
    put_asc(out, &in->version);
    put_asc(out, &in->serial);
    put_asc(out, &in->server_name);
    for (int i = 0; i < 3; i++)
        ixb_put_i32(out, in->cap[i]);
    ixb_put_i16(out, in->reserved);
    put_blen(out, &in->n4, 0);
    put_blen(out, &in->n5, 0);
    ixb_put_bytes(out, in->proto_name, sizeof in->proto_name);
    ixb_put_i32(out, in->proto_version);
    ixb_put_bytes(out, in->transport, sizeof in->transport);
    ixb_put_i32(out, in->net_level);
    ixb_put_i16(out, in->result);
    if (in->result == IXP_ASC_INITRESP) put_initresp(out, in);
    if (in->result == IXP_ASC_DBLIST) {
        ixb_put_i16(out, in->redirect_head);
        put_blen(out, &in->redirect, 1);
    }
    if (in->result != IXP_ASC_EOT) {
        if (in->has_pinfo) put_pinfo(out, &in->pinfo);
        if (in->has_blk110) {
            ixb_put_i16(out, 110);
            put_blen(out, &in->blk110, 0);
        }
        if (in->has_misc) put_misc(out, &in->misc);
        ixb_put_i16(out, IXP_ASC_EOT);
    }
    return sl_close(out, start);
}

void ixp_conacc_defaults(ixp_conacc *a, const char *server_name, const char *version_banner) {
    memset(a, 0, sizeof *a);
    a->sl_type = IXP_SL_CONACC;
    a->sl_flags = IXP_SL_SERVER_FLAGS;
    a->pf_protocol = 61;
    a->float_fmt = ixp_ascstr_of("IEEEI");
    fixed_str(a->product, sizeof a->product, "srvinfx");
    a->version = ixp_ascstr_of(version_banner ? version_banner : IXP_LOGIN_DEFAULT_BANNER);
    a->serial = ixp_ascstr_of("Software Serial Number AAA#B000000");
    a->server_name = ixp_ascstr_of(server_name ? server_name : "");
    a->cap[0] = 316;
    a->n4.p = a->n5.p = a->blk110.p = a->redirect.p = (const uint8_t *)"";
    fixed_str(a->proto_name, sizeof a->proto_name, "on");
    a->proto_version = 61;
    fixed_str(a->transport, sizeof a->transport, "soctcp");
    a->net_level = 0;
    a->result = IXP_ASC_INITRESP;
    a->warnings = 0;
    a->pinfo.host = a->pinfo.cwd = a->misc.text = ixp_ascstr_of(NULL);
}

void ixp_conrej_defaults(ixp_conacc *a, const char *server_name, const char *version_banner,
                         int16_t svc_error) {
    ixp_conacc_defaults(a, server_name, version_banner);
    a->sl_type = IXP_SL_AUTHFAIL_TYPE; /* unresolved: see ix_login.h */
    a->svc_error = svc_error;
}

/* ---- REDIRECT (the doubts are named in ix_login.h) ------------------------ */

static int redirect_field_ok(const char *f, size_t max) {
    size_t n = strlen(f);
    return n > 0 && n <= max && !strchr(f, '|');
}

int ixp_redirect_defaults(ixp_conacc *a, const char *version_banner, const ixp_redirect_target *t,
                          char *buf, size_t cap) {
    if (!redirect_field_ok(t->server, IXP_REDIRECT_NAME_MAX) ||
        !redirect_field_ok(t->host, IXP_REDIRECT_HOST_MAX) || t->port < 1 || t->port > 65535)
        return IX_EINVAL;
    int k = snprintf(buf, cap, "%s=%s|%s|%d", IXP_REDIRECT_LABEL, t->server, t->host, t->port);
    if (k < 0 || (size_t)k >= cap) return IX_EINVAL;
    ixp_conacc_defaults(a, t->server, version_banner);
    a->sl_type = IXP_SL_REDIRECT;
    a->result = IXP_ASC_DBLIST;
    a->redirect_head = 0;
    a->redirect.p = (const uint8_t *)buf;
    a->redirect.n = (size_t)k;
    return IX_OK;
}

/* Copies p[0..n) into dst (cap bytes with the NUL); -1 when empty or too long. */
static int redirect_copy(char *dst, size_t cap, const uint8_t *p, size_t n) {
    if (n == 0 || n >= cap) return -1;
    memcpy(dst, p, n);
    dst[n] = 0;
    return 0;
}

int ixp_redirect_parse(const uint8_t *p, size_t n, ixp_redirect_target *out, const char **why) {
    memset(out, 0, sizeof *out);
    if (!p || n == 0) return *why = "redirect detail is empty", IX_EMALFORMED;
    const uint8_t *end = p + n;
    if (memchr(p, 0, n)) return *why = "redirect detail holds a NUL", IX_EMALFORMED;
    const uint8_t *bar = memchr(p, '|', n);
    const uint8_t *eq = bar ? memchr(p, '=', (size_t)(bar - p)) : NULL;
    const uint8_t *f[3];
    size_t fl[3];
    const uint8_t *q = eq ? eq + 1 : p;
    for (int i = 0; i < 3; i++) {
        const uint8_t *b = i < 2 ? memchr(q, '|', (size_t)(end - q)) : NULL;
        if (i < 2 && !b) return *why = "redirect detail has fewer than 3 fields", IX_EMALFORMED;
        f[i] = q;
        fl[i] = (size_t)((b ? b : end) - q);
        if (fl[i] == 0) return *why = "redirect detail has an empty field", IX_EMALFORMED;
        q = b ? b + 1 : end;
    }
    if (memchr(f[2], '|', fl[2]))
        return *why = "redirect detail has more than 3 fields", IX_EMALFORMED;
    if (redirect_copy(out->server, sizeof out->server, f[0], fl[0]) ||
        redirect_copy(out->host, sizeof out->host, f[1], fl[1]))
        return *why = "redirect server or host name too long", IX_ELIMIT;
    long port = 0;
    for (size_t i = 0; i < fl[2]; i++) {
        if (f[2][i] < '0' || f[2][i] > '9' || port > 65535)
            return *why = "redirect port is not a number", IX_EMALFORMED;
        port = port * 10 + (f[2][i] - '0');
    }
    if (port < 1 || port > 65535) return *why = "redirect port outside 1..65535", IX_EMALFORMED;
    out->port = (int)port;
    return IX_OK;
}

/* ---- printer -------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void
pf(ixb_wbuf *w, const char *fmt, ...) {
    char tmp[160];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k > 0) ixb_put_bytes(w, tmp, (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1);
}

static void put_esc(ixb_wbuf *w, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\')
            pf(w, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f)
            ixb_put_u8(w, c);
        else
            pf(w, "\\x%02x", c);
    }
}

static void put_q(ixb_wbuf *w, const ixp_ascstr *s) {
    if (s->form == 0) {
        pf(w, "<none>");
        return;
    }
    ixb_put_u8(w, '"');
    put_esc(w, (const uint8_t *)s->p, s->n);
    ixb_put_u8(w, '"');
}

static void put_fixed(ixb_wbuf *w, const uint8_t *p, size_t cap) {
    size_t n = 0;
    while (n < cap && p[n])
        n++;
    put_esc(w, p, n);
}

static void put_pinfo_txt(ixb_wbuf *w, const ixp_login_pinfo *pi) {
    pf(w, " pinfo(pid=%ld tid=%ld host=", (long)pi->pid, (long)pi->tid);
    put_q(w, &pi->host);
    pf(w, " cwd=");
    put_q(w, &pi->cwd);
    pf(w, ")");
}

static void put_misc_txt(ixb_wbuf *w, const ixp_login_misc *m) {
    pf(w, " misc(len=%u ", (unsigned)m->block_len);
    put_q(w, &m->text);
    pf(w, ")");
}

static void print_conreq(const ixp_conreq *q, size_t len, ixb_wbuf *w) {
    pf(w, "CONREQ len=%zu user=", len);
    put_q(w, &q->user);
    if (q->password.form == 0)
        pf(w, " password=<none>");
    else
        pf(w, " password=<%u bytes>", (unsigned)q->password.n);
    pf(w, " server=");
    put_q(w, &q->server);
    pf(w, " version=");
    put_q(w, &q->version);
    pf(w, " float=");
    put_q(w, &q->float_fmt);
    pf(w, " caps=%ld,%ld,%ld proto=", (long)q->cap[0], (long)q->cap[1], (long)q->cap[2]);
    put_fixed(w, q->proto_name, sizeof q->proto_name);
    pf(w, "/%ld/", (long)q->proto_version);
    put_fixed(w, q->transport, sizeof q->transport);
    pf(w, "/%ld options=0x%lx env={", (long)q->net_level, (unsigned long)(uint32_t)q->opt_flags);
    for (unsigned i = 0; i < q->nenv; i++) {
        if (i) pf(w, ", ");
        put_esc(w, (const uint8_t *)q->env[i].name.p, q->env[i].name.n);
        ixb_put_u8(w, '=');
        put_esc(w, (const uint8_t *)q->env[i].value.p, q->env[i].value.n);
    }
    pf(w, "}");
    if (q->has_pinfo) put_pinfo_txt(w, &q->pinfo);
    if (q->has_misc) put_misc_txt(w, &q->misc);
}

static void print_conacc(const ixp_conacc *a, size_t len, ixb_wbuf *w) {
    const char *name = a->sl_type == IXP_SL_CONACC   ? "CONACC"
                       : a->sl_type == IXP_SL_CONREJ ? "CONREJ"
                                                     : "REDIRECT";
    pf(w, "%s len=%zu flags=0x%04x version=", name, len, (unsigned)a->sl_flags);
    put_q(w, &a->version);
    pf(w, " serial=");
    put_q(w, &a->serial);
    pf(w, " server=");
    put_q(w, &a->server_name);
    pf(w, " float=");
    put_q(w, &a->float_fmt);
    pf(w, " caps=%ld,%ld,%ld proto=", (long)a->cap[0], (long)a->cap[1], (long)a->cap[2]);
    put_fixed(w, a->proto_name, sizeof a->proto_name);
    pf(w, "/%ld/", (long)a->proto_version);
    put_fixed(w, a->transport, sizeof a->transport);
    pf(w, "/%ld", (long)a->net_level);
    if (a->result == IXP_ASC_INITRESP) {
        pf(w, " svc_error=%d os_error=%d warnings=0x%04x msgs=%u", a->svc_error, a->os_error,
           (unsigned)a->warnings, (unsigned)a->nmsg);
        for (unsigned i = 0; i < a->nmsg; i++) {
            pf(w, "%s%d:\"", i ? ", " : " {", a->msg[i].kind);
            put_esc(w, a->msg[i].text.p, a->msg[i].text.n);
            pf(w, "\"%s", i + 1 == a->nmsg ? "}" : "");
        }
    } else if (a->result == IXP_ASC_DBLIST) {
        pf(w, " redirect=\"");
        put_esc(w, a->redirect.p, a->redirect.n);
        pf(w, "\"");
    } else {
        pf(w, " result=127");
    }
    if (a->has_pinfo) put_pinfo_txt(w, &a->pinfo);
    if (a->has_blk110) pf(w, " blk110(len=%u)", (unsigned)a->blk110.n);
    if (a->has_misc) put_misc_txt(w, &a->misc);
}

void ixp_login_print(const uint8_t *pkt, size_t n, ixb_wbuf *out) {
    /* Both structs are a few kB; a union keeps the stack use to one. */
    union {
        ixp_conreq q;
        ixp_conacc a;
    } u;
    ixp_sl_hdr h;
    size_t used = 0, at = 0;
    const char *why = "";
    (void)ixp_sl_peek(pkt, n, &h); /* h.type is 0 until 3 bytes are present */
    int rc = h.type == IXP_SL_CONREQ ? ixp_conreq_decode(pkt, n, NULL, &u.q, &used, &at, &why)
                                     : ixp_conacc_decode(pkt, n, NULL, &u.a, &used, &at, &why);
    switch (rc) {
    case IX_OK:
        if (h.type == IXP_SL_CONREQ)
            print_conreq(&u.q, used, out);
        else
            print_conacc(&u.a, used, out);
        break;
    case IX_NEED_MORE:
        if (n >= 2)
            pf(out, "INCOMPLETE at offset %zu: have %zu of %u bytes", n, n, (unsigned)h.total);
        else
            pf(out, "INCOMPLETE at offset %zu: have %zu bytes of a 6-byte SL header", n, n);
        break;
    case IX_ELIMIT: pf(out, "LIMIT at offset %zu: %s", at, why); break;
    default: pf(out, "MALFORMED at offset %zu: %s", at, why); break;
    }
}
