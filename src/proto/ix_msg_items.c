/*
 * ix_msg_items.c: the composite message bodies whose items repeat: SQ_BIND,
 * SQ_RET_TYPE, SQ_INFO and SQ_DESCRIBE. The decoder validates every item
 * when the message is decoded, so the *_next walkers cannot fail later.
 */
#include <string.h>

#include "ix_msg_int.h"
#include "proto/ix_blob.h"
#include "proto/ix_lob.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

/*
 * Extended owner/name CHARs after a type code, in SQ_BIND (§3.4) and
 * SQ_RET_TYPE (§3.6). UNRESOLVED (sqli-protocol.md §8 #12, #25); this is the
 * one place that decides:
 *   - 45 BOOLEAN, 40 UDTVAR, 41 UDTFIXED: names present only when the next
 *     bytes are CHAR "informix" (DBX sends 45/41 + informix/boolean; IFXDB
 *     binds 45 without names against a real server; libsqli sends 40/41
 *     without names in RET_TYPE).
 *   - 43 LVARCHAR and every other type > 18 except 52/53: names always
 *     present (DBX, the only source; DBX sends 43 + two empty CHARs).
 *   - types <= 18, 52, 53: never.
 * Returns 1 (present), 0 (absent), or -1 when more bytes are needed to tell.
 */
static int ext_names_present(int type, const ixb_rbuf *r) {
    int base = type & 0xff;
    if (base <= 18 || base == IX_T_BIGINT || base == IX_T_BIGSERIAL) return 0;
    if (base != IX_T_BOOLEAN && base != IX_T_UDTVAR && base != IX_T_UDTFIXED) return 1;
    static const uint8_t informix[10] = {0, 8, 'i', 'n', 'f', 'o', 'r', 'm', 'i', 'x'};
    size_t avail = r->len - r->pos;
    size_t k = avail < 10 ? avail : 10;
    if (memcmp(r->p + r->pos, informix, k) != 0) return 0;
    return k == 10 ? 1 : -1;
}

static void rd_names(ixb_rbuf *r, const ixp_limits *lim, int type, int *has, ixp_bytes *owner,
                     ixp_bytes *name) {
    int present = ext_names_present(type, r);
    if (present < 0) {
        (void)ixb_need(r, 10); /* sets IX_NEED_MORE */
        return;
    }
    *has = present;
    if (present) {
        ixp_rd_char(r, lim->max_string, owner);
        ixp_rd_char(r, lim->max_string, name);
    }
}

/* A BIND descriptor's length (IXP_BLOBDESC_LEN) once its bytes are there
 * and its size is not negative; -1 with the cursor's status set. */
static int64_t blobdesc_len(ixb_rbuf *r) {
    if (!ixb_need(r, IXP_BLOBDESC_LEN)) return -1;
    uint32_t size;
    int is_null;
    if (ixp_blobdesc_get(r->p + r->pos, IXP_BLOBDESC_LEN, &size, &is_null) != IX_OK) {
        ixb_rbuf_fail(r, IX_EMALFORMED, r->pos, "negative size in a BYTE/TEXT descriptor");
        return -1;
    }
    return IXP_BLOBDESC_LEN;
}

/* Length of a bound value's bytes (inner length word included) for a type.
 * Reads (and consumes) nothing: peeks at the inner length. Returns the
 * length, or -1 with the cursor's status set. */
static int64_t bind_value_len(ixb_rbuf *r, int type, int slot, const ixp_bytes *xname,
                              const ixp_limits *lim) {
    size_t at = r->pos;
    const uint8_t *p = r->p + r->pos;
    int kind;
    switch (type & 0xff) {
    case IX_T_CHAR:
    case IX_T_VARCHAR:
    case IX_T_NCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR:
    case IX_T_UDTVAR: {
        /* i16 byte length, bytes (§3.4). */
        if (!ixb_need(r, 2)) return -1;
        int16_t n = (int16_t)ixb_be16(p);
        if (n < 0) {
            ixb_rbuf_fail(r, IX_EMALFORMED, at, "negative string length in BIND");
            return -1;
        }
        if ((uint32_t)n > lim->max_value) {
            ixb_rbuf_fail(r, IX_ELIMIT, at, "BIND value exceeds limit");
            return -1;
        }
        return 2 + (int64_t)n;
    }
    case IX_T_DECIMAL:
    case IX_T_MONEY:
    case IX_T_DATETIME:
    case IX_T_INTERVAL: {
        /* u16 length, base-100 bytes (§3.4); at most 1 + 17 pairs. */
        if (!ixb_need(r, 2)) return -1;
        uint16_t n = ixb_be16(p);
        if (n > 18) {
            ixb_rbuf_fail(r, IX_EMALFORMED, at, "base-100 BIND value longer than 18 bytes");
            return -1;
        }
        return 2 + (int64_t)n;
    }
    case IX_T_BYTE:
    case IX_T_TEXT: {
        /* Slot 56: the descriptor of a value whose bytes follow in SQ_BLOB
         * chunks (proto/ix_blob.h). Otherwise ixdb's own inline form, i32
         * length, bytes, which only ixdb peers send (slot 0). */
        if (slot == IXP_BLOBDESC_LEN) return blobdesc_len(r);
        if (!ixb_need(r, 4)) return -1;
        int32_t n = (int32_t)ixb_be32(p);
        if (n < 0) {
            ixb_rbuf_fail(r, IX_EMALFORMED, at, "negative BYTE/TEXT length in BIND");
            return -1;
        }
        if ((uint32_t)n > lim->max_value) {
            ixb_rbuf_fail(r, IX_ELIMIT, at, "BIND value exceeds limit");
            return -1;
        }
        return 4 + (int64_t)n;
    }
    case IX_T_BOOLEAN: return 1;
    case IX_T_UDTFIXED:
        if (xname->n == 7 && memcmp(xname->p, "boolean", 7) == 0) return 1;
        if (ixp_lob_xname(xname->p, xname->n, &kind) || xname->n == 0) {
            /* a smart-LOB handle, with or without the names: i16 72, 72
             * bytes (ix_lob.c) */
            if (!ixb_need(r, 2)) return -1;
            if (ixb_be16(p) != IXP_LOCATOR_LEN) {
                ixb_rbuf_fail(r, IX_EMALFORMED, at, "BLOB/CLOB handle in BIND is not 72 bytes");
                return -1;
            }
            return 2 + IXP_LOCATOR_LEN;
        }
        ixb_rbuf_fail(r, IX_EMALFORMED, at, "UDT in BIND is not boolean, blob or clob");
        return -1;
    default: {
        /* SMALLINT, INTEGER, SERIAL, DATE, SMALLFLOAT, FLOAT, BIGINT,
         * BIGSERIAL, INT8, SERIAL8: their tuple width (§3.4). */
        int base = type & 0xff;
        size_t w = base == IX_T_NULL ? 0 : ixt_value_fixed_width((ixt_vtype){base, 0});
        if (w) return (int64_t)w;
        ixb_rbuf_fail(r, IX_EMALFORMED, at, "type not allowed in BIND");
        return -1;
    }
    }
}

/*
 * SQ_BIND (§3.4), after the tag:
 * | field                       | size                                        |
 * | count                       | i16                                         |
 * | per value: type             | i16                                         |
 * |   [owner, name]             | CHAR, CHAR (see ext_names_present)          |
 * |   indicator                 | i16: 0 value, -1 NULL, -2 column default    |
 * |   slot                      | i16 length/precision/qualifier              |
 * |   value (indicator 0 only)  | by type (bind_value_len), pad to even       |
 */
static int rd_bindval(ixb_rbuf *r, const ixp_limits *lim, ixp_bindval *v) {
    memset(v, 0, sizeof *v);
    v->type = ixb_get_i16(r);
    if (r->st) return 0;
    rd_names(r, lim, v->type, &v->has_names, &v->owner, &v->xname);
    size_t at = r->pos;
    v->indicator = ixb_get_i16(r);
    v->slot = ixb_get_i16(r);
    if (r->st) return 0;
    if (v->indicator != IXP_IND_VALUE) {
        if (v->indicator != IXP_IND_NULL && v->indicator != IXP_IND_DEFAULT)
            ixb_rbuf_fail(r, IX_EMALFORMED, at, "unknown BIND indicator");
        return r->st == IX_OK;
    }
    int64_t n = bind_value_len(r, v->type, v->slot, &v->xname, lim);
    if (n < 0) return 0;
    v->value.p = ixb_get_bytes(r, (size_t)n);
    v->value.n = (size_t)n;
    ixb_get_pad(r, (size_t)n);
    return r->st == IX_OK;
}

/*
 * The fast form of rd_bindval for the common types: no extended names (type
 * <= 18 but not NULL, BYTE, TEXT, INT8, SERIAL8; BIGINT, BIGSERIAL), read
 * with direct loads and one bounds check per value. Returns the bytes the
 * value occupies (pad included) and fills *v when v is not NULL, or 0 when
 * the value takes rd_bindval (another type, a short or malformed value:
 * rd_bindval then gives the exact error). Layout: the table above
 * rd_bindval.
 */
static size_t bindval_fast(const uint8_t *p, size_t avail, uint32_t max_value, ixp_bindval *v) {
    if (avail < 6) return 0;
    int16_t type = (int16_t)ixb_be16(p);
    int16_t ind = (int16_t)ixb_be16(p + 2);
    size_t w, hdr = 0; /* value bytes; inner length word */
    switch (type & 0xff) {
    case IX_T_SMALLINT: w = 2; break;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_SMALLFLOAT: w = 4; break;
    case IX_T_FLOAT:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: w = 8; break;
    case IX_T_CHAR:
    case IX_T_VARCHAR:
    case IX_T_NCHAR:
    case IX_T_NVARCHAR: hdr = 2, w = 0; break;
    case IX_T_DECIMAL:
    case IX_T_MONEY:
    case IX_T_DATETIME:
    case IX_T_INTERVAL: hdr = 2, w = 1; break;
    default: return 0;
    }
    size_t used = 6;
    if (ind == IXP_IND_VALUE) {
        if (hdr) {
            if (avail < 8) return 0;
            uint16_t len = ixb_be16(p + 6);
            /* strings: i16, not negative, within the limit; base-100: at
             * most 18 bytes (bind_value_len) */
            if (w ? len > 18 : (len & 0x8000u) || len > max_value) return 0;
            w = 2 + (size_t)len;
        }
        used += w + (w & 1);
        if (avail < used) return 0;
    } else if (ind != IXP_IND_NULL && ind != IXP_IND_DEFAULT) {
        return 0;
    }
    if (v) {
        memset(v, 0, sizeof *v);
        v->type = type;
        v->indicator = ind;
        v->slot = (int16_t)ixb_be16(p + 4);
        if (ind == IXP_IND_VALUE) v->value = (ixp_bytes){p + 6, w};
    }
    return used;
}

void ixp_rd_bind(ixb_rbuf *r, const ixp_limits *lim, ixp_msg *m) {
    size_t at = r->pos;
    m->u.bind.count = ixb_get_i16(r);
    if (r->st) return;
    if (m->u.bind.count < 0 || (uint32_t)m->u.bind.count > lim->max_columns)
        return ixb_rbuf_fail(r, IX_ELIMIT, at, "BIND value count out of range");
    size_t start = r->pos;
    ixp_bindval v;
    for (int i = 0; i < m->u.bind.count; i++) {
        size_t used = bindval_fast(r->p + r->pos, r->len - r->pos, lim->max_value, NULL);
        if (used)
            r->pos += used;
        else if (!rd_bindval(r, lim, &v))
            return;
    }
    m->u.bind.raw.p = r->p + start;
    m->u.bind.raw.n = r->pos - start;
}

int ixp_bind_next(const ixp_msg *m, size_t *pos, ixp_bindval *v) {
    if (*pos >= m->u.bind.raw.n) return 0;
    size_t used = bindval_fast(m->u.bind.raw.p + *pos, m->u.bind.raw.n - *pos, UINT32_MAX, v);
    if (used) {
        *pos += used;
        return 1;
    }
    ixb_rbuf r;
    ixb_rbuf_init(&r, m->u.bind.raw.p, m->u.bind.raw.n);
    r.pos = *pos;
    ixp_limits lim = {0};
    ixp_limits_default(&lim);
    lim.max_value = UINT32_MAX;
    lim.max_string = UINT32_MAX;
    if (!rd_bindval(&r, &lim, v)) return 0;
    *pos = r.pos;
    return 1;
}

size_t ixp_bind_values_span(const uint8_t *p, size_t n, int count, uint32_t max_value) {
    size_t pos = 0;
    for (int i = 0; i < count; i++) {
        size_t used = bindval_fast(p + pos, n - pos, max_value, NULL);
        if (!used) return 0;
        pos += used;
    }
    return pos;
}

ixt_vtype ixp_bind_vtype(const ixp_bindval *v) {
    char xn[32] = {0};
    if (v->xname.n && v->xname.n < sizeof xn) memcpy(xn, v->xname.p, v->xname.n);
    int code = ixt_vtype_resolve(v->type & 0xff, xn);
    uint32_t enclen;
    switch (code) {
    case IX_T_DECIMAL:
    case IX_T_MONEY: enclen = (32u << 8) | ((uint32_t)v->slot & 0xff); break;
    case IX_T_DATETIME:
    case IX_T_INTERVAL: enclen = (uint16_t)v->slot; break;
    case IX_T_CHAR:
    case IX_T_VARCHAR:
    case IX_T_NCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR:
    case IX_T_UDTVAR:
        enclen = v->value.n >= 2 ? (uint32_t)(v->value.n - 2) : 0;
        /* A VARCHAR value holds at most 255 bytes; a longer string bound as
         * VARCHAR (libsqli's type 13) is taken as LVARCHAR. */
        if ((code == IX_T_VARCHAR || code == IX_T_NVARCHAR) && enclen > 255) code = IX_T_LVARCHAR;
        break;
    default: enclen = (uint32_t)ixt_value_fixed_width((ixt_vtype){code, 0}); break;
    }
    return (ixt_vtype){code, enclen};
}

int ixp_enc_bind(ixb_wbuf *out, const ixp_bindval *v, int n) {
    ixb_put_i16(out, IXP_SQ_BIND);
    ixb_put_i16(out, n);
    for (int i = 0; i < n; i++) {
        ixb_put_i16(out, v[i].type);
        if (v[i].has_names) {
            ixp_enc_char(out, v[i].owner.p, v[i].owner.n);
            ixp_enc_char(out, v[i].xname.p, v[i].xname.n);
        }
        ixb_put_i16(out, v[i].indicator);
        ixb_put_i16(out, v[i].slot);
        if (v[i].indicator == IXP_IND_VALUE) {
            ixb_put_bytes(out, v[i].value.p, v[i].value.n);
            ixb_put_pad(out, v[i].value.n);
        }
    }
    return out->err;
}

/*
 * SQ_RET_TYPE (§3.6), after the tag:
 * | i16 1 | i16 ncols | ncols x { i16 type, [CHAR owner, CHAR name], i32 length } |
 */
static int rd_rtcol(ixb_rbuf *r, const ixp_limits *lim, ixp_rtcol *c) {
    memset(c, 0, sizeof *c);
    c->type = ixb_get_i16(r);
    if (r->st) return 0;
    rd_names(r, lim, c->type, &c->has_names, &c->owner, &c->xname);
    c->length = ixb_get_i32(r);
    return r->st == IX_OK;
}

void ixp_rd_ret_type(ixb_rbuf *r, const ixp_limits *lim, ixp_msg *m) {
    m->u.ret_type.one = ixb_get_i16(r);
    size_t at = r->pos;
    m->u.ret_type.ncols = ixb_get_i16(r);
    if (r->st) return;
    if (m->u.ret_type.ncols < 0 || (uint32_t)m->u.ret_type.ncols > lim->max_columns)
        return ixb_rbuf_fail(r, IX_ELIMIT, at, "RET_TYPE column count out of range");
    size_t start = r->pos;
    ixp_rtcol c;
    for (int i = 0; i < m->u.ret_type.ncols; i++)
        if (!rd_rtcol(r, lim, &c)) return;
    m->u.ret_type.raw.p = r->p + start;
    m->u.ret_type.raw.n = r->pos - start;
}

int ixp_ret_type_next(const ixp_msg *m, size_t *pos, ixp_rtcol *c) {
    if (*pos >= m->u.ret_type.raw.n) return 0;
    ixb_rbuf r;
    ixb_rbuf_init(&r, m->u.ret_type.raw.p, m->u.ret_type.raw.n);
    r.pos = *pos;
    ixp_limits lim = {.max_string = UINT32_MAX};
    if (!rd_rtcol(&r, &lim, c)) return 0;
    *pos = r.pos;
    return 1;
}

int ixp_enc_ret_type(ixb_wbuf *out, const ixp_rtcol *c, int n) {
    ixb_put_i16(out, IXP_SQ_RET_TYPE);
    ixb_put_i16(out, 1);
    ixb_put_i16(out, n);
    for (int i = 0; i < n; i++) {
        ixb_put_i16(out, c[i].type);
        if (c[i].has_names) {
            ixp_enc_char(out, c[i].owner.p, c[i].owner.n);
            ixp_enc_char(out, c[i].xname.p, c[i].xname.n);
        }
        ixb_put_i32(out, c[i].length);
    }
    return out->err;
}

/*
 * SQ_INFO (§2.7), after the tag:
 * | i16 subtype (6) | i16 total | i16 max padded key | i16 max padded value |
 * | { CHAR key, CHAR value } ... | i16 0 | i16 0 |
 * The total is not validated (libsqli sends 8 + sum instead of 6 + sum).
 */
void ixp_rd_info(ixb_rbuf *r, const ixp_limits *lim, ixp_msg *m) {
    m->u.info.subtype = ixb_get_i16(r);
    m->u.info.total = ixb_get_i16(r);
    m->u.info.max_key = ixb_get_i16(r);
    m->u.info.max_value = ixb_get_i16(r);
    size_t start = r->pos;
    for (;;) {
        size_t at = r->pos;
        ixp_bytes k, v;
        if (!ixp_rd_char(r, lim->max_string, &k) || !ixp_rd_char(r, lim->max_string, &v)) return;
        if (k.n == 0 && v.n == 0) break;
        if ((uint32_t)++m->u.info.npairs > lim->max_items)
            return ixb_rbuf_fail(r, IX_ELIMIT, at, "too many SQ_INFO pairs");
    }
    m->u.info.raw.p = r->p + start;
    m->u.info.raw.n = r->pos - start;
}

int ixp_info_next(const ixp_msg *m, size_t *pos, ixp_bytes *key, ixp_bytes *value) {
    ixb_rbuf r;
    ixb_rbuf_init(&r, m->u.info.raw.p, m->u.info.raw.n);
    r.pos = *pos;
    if (!ixp_rd_char(&r, UINT32_MAX, key) || !ixp_rd_char(&r, UINT32_MAX, value)) return 0;
    if (key->n == 0 && value->n == 0) return 0;
    *pos = r.pos;
    return 1;
}

static size_t even(size_t n) {
    return n + (n & 1);
}

int ixp_enc_info(ixb_wbuf *out, const ixp_bytes *keys, const ixp_bytes *values, int n) {
    size_t total = 6, mk = 0, mv = 0;
    for (int i = 0; i < n; i++) {
        total += 4 + even(keys[i].n) + even(values[i].n);
        if (even(keys[i].n) > mk) mk = even(keys[i].n);
        if (even(values[i].n) > mv) mv = even(values[i].n);
    }
    ixb_put_i16(out, IXP_SQ_INFO);
    ixb_put_i16(out, 6);
    ixb_put_i16(out, (int)total);
    ixb_put_i16(out, (int)mk);
    ixb_put_i16(out, (int)mv);
    for (int i = 0; i < n; i++) {
        ixp_enc_char(out, keys[i].p, keys[i].n);
        ixp_enc_char(out, values[i].p, values[i].n);
    }
    ixb_put_i16(out, 0);
    ixb_put_i16(out, 0);
    return out->err;
}

/*
 * SQ_DESCRIBE (§3.2), after the tag.
 *
 * Header:
 * | field            | extended (f63)          | old layout            |
 * | statement type   | i16                     | i16                   |
 * | statement id     | i16                     | i16                   |
 * | estimated rows   | i32                     | i32                   |
 * | tuple size       | i16; i32 with f69       | i16                   |
 * | column count     | i16                     | i16                   |
 * | name-table length| i32                     | i16                   |
 *
 * Extended column record (30 bytes with empty CHARs):
 * | i32 name offset | i32 start | i16 type | i32 extended id | CHAR owner |
 * | CHAR name | i16 reference | i16 alignment | i32 source type | i32 encoded length |
 *
 * Old column record: UNRESOLVED (§8 #2; NMAP reads 28 bytes against IDS 11.50,
 * libsqli 12). This codec follows NMAP's 28 bytes, the only form seen against
 * a real server, and fills its unknown middle as the extended record does
 * with i16 name offset and no CHARs:
 * | i16 name offset | i32 start | i16 type | i32 extended id | i16 reference |
 * | i16 alignment | i32 source type | i32 (unknown, 0) | i32 encoded length |
 * NMAP reads the type at offset 6 and the length in the last 2 bytes; both
 * agree with this table. Everything else in it is a guess.
 *
 * Then the name table: names_len bytes of NUL-terminated names, pad to even.
 */
static int rd_column(ixb_rbuf *r, int extended, const ixp_limits *lim, ixp_column *c) {
    memset(c, 0, sizeof *c);
    if (extended) {
        c->name_off = ixb_get_i32(r);
        c->start = ixb_get_i32(r);
        c->type = ixb_get_i16(r);
        c->xid = ixb_get_i32(r);
        ixp_rd_char(r, lim->max_string, &c->xowner);
        ixp_rd_char(r, lim->max_string, &c->xname);
        c->reference = ixb_get_i16(r);
        c->alignment = ixb_get_i16(r);
        c->source_type = ixb_get_i32(r);
        c->enclen = ixb_get_i32(r);
    } else {
        /* no extended owner/name in this layout: empty (not NULL) strings */
        static const uint8_t none[1];
        c->xowner = c->xname = (ixp_bytes){none, 0};
        c->name_off = ixb_get_i16(r);
        c->start = ixb_get_i32(r);
        c->type = ixb_get_i16(r);
        c->xid = ixb_get_i32(r);
        c->reference = ixb_get_i16(r);
        c->alignment = ixb_get_i16(r);
        c->source_type = ixb_get_i32(r);
        (void)ixb_get_i32(r);
        c->enclen = ixb_get_i32(r);
    }
    return r->st == IX_OK;
}

/* Resolves c->name from the name table; returns 0 if the offset is bad. */
static int column_name(const ixp_bytes *names, ixp_column *c) {
    if (names->n == 0 && c->name_off == 0) {
        c->name.p = names->p;
        c->name.n = 0;
        return 1;
    }
    if (c->name_off < 0 || (size_t)c->name_off >= names->n) return 0;
    const uint8_t *s = names->p + c->name_off;
    const uint8_t *z = memchr(s, 0, names->n - (size_t)c->name_off);
    if (!z) return 0;
    c->name.p = s;
    c->name.n = (size_t)(z - s);
    return 1;
}

void ixp_rd_describe(ixb_rbuf *r, const ixp_caps *caps, const ixp_limits *lim, ixp_msg *m) {
    int ext = caps->f63 != 0;
    m->u.describe.extended = ext;
    m->u.describe.stmt_type = ixb_get_i16(r);
    m->u.describe.stmt_id = ixb_get_i16(r);
    m->u.describe.est_rows = ixb_get_i32(r);
    m->u.describe.tuple_size = caps->f69 ? ixb_get_i32(r) : ixb_get_i16(r);
    size_t at = r->pos;
    m->u.describe.ncols = ixb_get_i16(r);
    size_t at_names = r->pos;
    m->u.describe.names_len = ext ? ixb_get_i32(r) : ixb_get_i16(r);
    if (r->st) return;
    if (m->u.describe.ncols < 0 || (uint32_t)m->u.describe.ncols > lim->max_columns)
        return ixb_rbuf_fail(r, IX_ELIMIT, at, "DESCRIBE column count out of range");
    if (m->u.describe.names_len < 0 || (uint32_t)m->u.describe.names_len > lim->max_tuple)
        return ixb_rbuf_fail(r, IX_ELIMIT, at_names, "DESCRIBE name table length out of range");
    size_t start = r->pos;
    ixp_column c;
    for (int i = 0; i < m->u.describe.ncols; i++)
        if (!rd_column(r, ext, lim, &c)) return;
    m->u.describe.cols.p = r->p + start;
    m->u.describe.cols.n = r->pos - start;
    size_t nl = (size_t)m->u.describe.names_len;
    m->u.describe.names.p = ixb_get_bytes(r, nl);
    m->u.describe.names.n = nl;
    ixb_get_pad(r, nl);
    if (r->st) return;
    /* Validate every name offset now, so that ixp_describe_next cannot fail. */
    ixb_rbuf w;
    ixb_rbuf_init(&w, m->u.describe.cols.p, m->u.describe.cols.n);
    for (int i = 0; i < m->u.describe.ncols; i++) {
        size_t col_at = start + w.pos;
        rd_column(&w, ext, lim, &c);
        if (!column_name(&m->u.describe.names, &c))
            return ixb_rbuf_fail(r, IX_EMALFORMED, col_at,
                                 "DESCRIBE name offset outside name table");
    }
}

int ixp_describe_next(const ixp_msg *m, size_t *pos, ixp_column *c) {
    if (*pos >= m->u.describe.cols.n) return 0;
    ixb_rbuf r;
    ixb_rbuf_init(&r, m->u.describe.cols.p, m->u.describe.cols.n);
    r.pos = *pos;
    ixp_limits lim = {.max_string = UINT32_MAX};
    if (!rd_column(&r, m->u.describe.extended, &lim, c)) return 0;
    if (!column_name(&m->u.describe.names, c)) return 0;
    *pos = r.pos;
    return 1;
}

void ixp_wr_describe_raw(ixb_wbuf *out, const ixp_caps *caps, const ixp_msg *m) {
    ixb_put_i16(out, IXP_SQ_DESCRIBE);
    ixb_put_i16(out, m->u.describe.stmt_type);
    ixb_put_i16(out, m->u.describe.stmt_id);
    ixb_put_i32(out, m->u.describe.est_rows);
    if (caps->f69)
        ixb_put_i32(out, m->u.describe.tuple_size);
    else
        ixb_put_i16(out, m->u.describe.tuple_size);
    ixb_put_i16(out, m->u.describe.ncols);
    if (m->u.describe.extended)
        ixb_put_i32(out, m->u.describe.names_len);
    else
        ixb_put_i16(out, m->u.describe.names_len);
    ixb_put_bytes(out, m->u.describe.cols.p, m->u.describe.cols.n);
    ixb_put_bytes(out, m->u.describe.names.p, m->u.describe.names.n);
    ixb_put_pad(out, m->u.describe.names.n);
}

uint32_t ixp_column_max_width(int type, int32_t enclen, const ixp_caps *caps) {
    ixt_vtype t = {ixt_vtype_resolve(type & 0xff, NULL), (uint32_t)enclen};
    switch (type & 0xff) {
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: return ((uint32_t)enclen & 0xff) + 1; /* VARCHAR(n): n + 1 (JDD) */
    case IX_T_UDTVAR:
    case IX_T_UDTFIXED:
    case IX_T_LVARCHAR:
    case IX_T_BOOLEAN:
        /* UNRESOLVED (§8 #16): DBX counts the encoded length without the
         * 5-byte envelope; followed here. */
        return (uint32_t)enclen;
    case IX_T_BYTE:
    case IX_T_TEXT: return caps && caps->f70 ? 68 : 56;
    default: return (uint32_t)ixt_value_fixed_width(t);
    }
}

int ixp_enc_describe(ixb_wbuf *out, const ixp_caps *caps, const ixp_describe *d,
                     const ixp_column *cols, int ncols) {
    int ext = caps->f63 != 0;
    uint64_t names_len = 0, pos = 0;
    for (int i = 0; i < ncols; i++) {
        names_len += cols[i].name.n + 1;
        pos += ixp_column_max_width(cols[i].type, cols[i].enclen, caps);
    }
    uint64_t tmax = caps->f69 ? INT32_MAX : INT16_MAX;
    /* padded to even, except where that would pass the field's limit (a
     * CHAR(32767) row is 32767 bytes) */
    uint64_t tuple_size = d->keep_positions        ? (uint64_t)d->tuple_size
                          : pos + (pos & 1) > tmax ? pos
                                                   : pos + (pos & 1);
    uint64_t nmax = ext ? INT32_MAX : INT16_MAX;
    if (tuple_size > tmax || names_len > nmax || ncols > INT16_MAX) return IX_ERANGE;
    ixb_put_i16(out, IXP_SQ_DESCRIBE);
    ixb_put_i16(out, d->stmt_type);
    ixb_put_i16(out, d->stmt_id);
    ixb_put_i32(out, d->est_rows);
    if (caps->f69)
        ixb_put_i32(out, (int64_t)tuple_size);
    else
        ixb_put_i16(out, (int)tuple_size);
    ixb_put_i16(out, ncols);
    if (ext)
        ixb_put_i32(out, (int64_t)names_len);
    else
        ixb_put_i16(out, (int)names_len);
    uint64_t off = 0;
    pos = 0;
    for (int i = 0; i < ncols; i++) {
        const ixp_column *c = &cols[i];
        int64_t name_off = d->keep_positions ? c->name_off : (int64_t)off;
        int64_t start = d->keep_positions ? c->start : (int64_t)pos;
        if (ext) {
            ixb_put_i32(out, name_off);
            ixb_put_i32(out, start);
            ixb_put_i16(out, c->type);
            ixb_put_i32(out, c->xid);
            ixp_enc_char(out, c->xowner.p, c->xowner.n);
            ixp_enc_char(out, c->xname.p, c->xname.n);
            ixb_put_i16(out, c->reference);
            ixb_put_i16(out, c->alignment);
            ixb_put_i32(out, c->source_type);
            ixb_put_i32(out, c->enclen);
        } else {
            ixb_put_i16(out, (int)name_off);
            ixb_put_i32(out, start);
            ixb_put_i16(out, c->type);
            ixb_put_i32(out, c->xid);
            ixb_put_i16(out, c->reference);
            ixb_put_i16(out, c->alignment);
            ixb_put_i32(out, c->source_type);
            ixb_put_i32(out, 0);
            ixb_put_i32(out, c->enclen);
        }
        off += c->name.n + 1;
        pos += ixp_column_max_width(c->type, c->enclen, caps);
    }
    for (int i = 0; i < ncols; i++) {
        ixb_put_bytes(out, cols[i].name.p, cols[i].name.n);
        ixb_put_u8(out, 0);
    }
    ixb_put_pad(out, (size_t)names_len);
    return out->err;
}
