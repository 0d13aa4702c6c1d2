/* ix_value.c: per-type tuple value codec (sqli-protocol.md §4.2, §3.4). */
#include "types/ix_value.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/ix_datetime.h"
#include "types/ix_decimal.h"

/* ======================================================================
 * Single-source / unresolved choices (sqli-protocol.md §8). Each lives
 * here and only here.
 * ====================================================================== */

/* §8 #14 CHAR NULL in tuples: no source. Choice: a CHAR/NCHAR value whose
 * first byte is 00 is NULL (the ESQL/C risnull convention for CHARTYPE;
 * ixt_char_is_null in ix_value.h); the NULL form written is n bytes of 00. */

/* §8 #15 INT8 NULL: sign word 0; bytes after it not established. Choice:
 * read sign 0 as NULL whatever follows; write zeros. (ixt_int8_decode/put) */

/* §8 #13 BOOLEAN payload: 01/00 vs 't'/'f'. Choice: write 01/00 (the form
 * values.tsv uses); read 01/00 and 't'/'f'/'T'/'F'. Returns 1, 0, or -1 for
 * any other byte. The NULL form is flag 1, length 0 (single restricted
 * source); DBX's reading of an ff payload as NULL is not followed. */
#define BOOL_TRUE_BYTE  0x01
#define BOOL_FALSE_BYTE 0x00
static int bool_from_payload(uint8_t b) {
    if (b == 0x01 || b == 't' || b == 'T') return 1;
    if (b == 0x00 || b == 'f' || b == 'F') return 0;
    return -1;
}

/* §3.14 / §8 #21 BYTE/TEXT descriptor (single restricted source): 56 bytes,
 * NULL = bit 0x01 of byte 39 (the low byte of the i16 flags at 38). With f70
 * the descriptor is 68 bytes; where the flags move is not published. Choice:
 * the 12 extra bytes are the three i32 sizes at 8/12/16 widened to i64, so
 * the flags word moves to 50 and the NULL bit to byte 51. */
static size_t blob_null_byte(size_t desc_len) {
    return desc_len == IXT_BLOB_DESC_LEN_F70 ? 51 : 39;
}

/* §3.2.1 / §8 #16 VARCHAR encoded_length: whether a minimum length is packed
 * in is unresolved. Choice: the low byte is the maximum (ESQL/C collength
 * convention max | min << 8); 0 means 255. */
size_t ixt_value_varchar_max(uint32_t enclen) {
    size_t m = enclen & 0xff;
    return m ? m : 255;
}

/* ====================================================================== */

#define INT16_NULL INT16_MIN
#define INT32_NULL INT32_MIN
#define INT64_NULL INT64_MIN

static int is_string_type(int c) {
    return c == IX_T_CHAR || c == IX_T_NCHAR || c == IX_T_VARCHAR || c == IX_T_NVARCHAR ||
           c == IX_T_LVARCHAR;
}

static int is_envelope(int c) {
    return c == IX_T_LVARCHAR || c == IX_T_BOOLEAN || c == IX_T_UDTVAR || c == IX_T_UDTFIXED;
}

static int dec_ps(ixt_vtype t, int *p, int *s) {
    *p = (int)((t.enclen >> 8) & 0xff);
    *s = (int)(t.enclen & 0xff);
    if (t.enclen > 0xffff) return IX_EINVAL;
    return ixt_dec_width(*p, *s) ? IX_OK : IX_EINVAL;
}

int ixt_vtype_check(ixt_vtype t) {
    int p, s;
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR: return t.enclen >= 1 && t.enclen <= 32767 ? IX_OK : IX_EINVAL;
    case IX_T_DECIMAL:
    case IX_T_MONEY: return dec_ps(t, &p, &s);
    case IX_T_DATETIME: return ixt_dt_qual_valid(t.enclen) ? IX_OK : IX_EINVAL;
    case IX_T_INTERVAL: return ixt_iv_qual_valid(t.enclen) ? IX_OK : IX_EINVAL;
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR:
    case IX_T_BOOLEAN:
    case IX_T_BYTE:
    case IX_T_TEXT:
    case IX_T_UDTVAR:
    case IX_T_UDTFIXED: return IX_OK;
    default: return IX_EINVAL;
    }
}

size_t ixt_value_fixed_width(ixt_vtype t) {
    int p, s;
    if (ixt_vtype_check(t) != IX_OK) return 0;
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR: return t.enclen;
    case IX_T_SMALLINT: return 2;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_SMALLFLOAT: return 4;
    case IX_T_FLOAT:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return 8;
    case IX_T_INT8:
    case IX_T_SERIAL8: return 10;
    case IX_T_DECIMAL:
    case IX_T_MONEY: dec_ps(t, &p, &s); return ixt_dec_width(p, s);
    case IX_T_DATETIME:
    case IX_T_INTERVAL: return ixt_qual_width(t.enclen);
    case IX_T_BYTE:
    case IX_T_TEXT: return IXT_BLOB_DESC_LEN;
    default: return 0;
    }
}

int ixt_value_extent(ixt_vtype t, const uint8_t *p, size_t avail, size_t max_len, unsigned flags,
                     size_t *used) {
    if (ixt_vtype_check(t) != IX_OK) return IX_EINVAL;
    size_t len;
    if (t.code == IX_T_VARCHAR || t.code == IX_T_NVARCHAR) {
        if (avail < 1) return IX_NEED_MORE;
        len = p[0];
        if (max_len && len > max_len) return IX_ELIMIT;
        if (avail - 1 < len) return IX_NEED_MORE;
        *used = 1 + len;
        return IX_OK;
    }
    if (is_envelope(t.code)) {
        if (avail < 5) return IX_NEED_MORE;
        if (p[0] > 1) return IX_EMALFORMED;
        int32_t l = (int32_t)ixb_be32(p + 1);
        if (l < 0) return IX_EMALFORMED;
        len = (size_t)l;
        if (max_len && len > max_len) return IX_ELIMIT;
        if (avail - 5 < len) return IX_NEED_MORE;
        *used = 5 + len;
        return IX_OK;
    }
    if (t.code == IX_T_BYTE || t.code == IX_T_TEXT)
        len = flags & IXT_VF_F70 ? IXT_BLOB_DESC_LEN_F70 : IXT_BLOB_DESC_LEN;
    else
        len = ixt_value_fixed_width(t);
    if (avail < len) return IX_NEED_MORE;
    *used = len;
    return IX_OK;
}

static int all_bytes(const uint8_t *p, size_t n, uint8_t b) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != b) return 0;
    return 1;
}

int ixt_value_is_null(ixt_vtype t, const uint8_t *p, size_t n) {
    if (ixt_vtype_check(t) != IX_OK) return IX_EINVAL;
    switch (t.code) {
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
        if (n < 1 || n != 1 + (size_t)p[0]) return IX_EMALFORMED;
        return n == 2 && p[0] == 1 && p[1] == 0;
    case IX_T_LVARCHAR:
    case IX_T_BOOLEAN:
    case IX_T_UDTVAR:
    case IX_T_UDTFIXED:
        if (n < 5 || p[0] > 1 || n - 5 != (size_t)ixb_be32(p + 1)) return IX_EMALFORMED;
        return p[0] == 1;
    case IX_T_BYTE:
    case IX_T_TEXT:
        if (n != IXT_BLOB_DESC_LEN && n != IXT_BLOB_DESC_LEN_F70) return IX_EMALFORMED;
        return (p[blob_null_byte(n)] & 1) != 0;
    default: break;
    }
    if (n != ixt_value_fixed_width(t)) return IX_EMALFORMED;
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR: return ixt_char_is_null(p, n);
    case IX_T_SMALLINT: return ixb_be16(p) == 0x8000;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE: return ixb_be32(p) == 0x80000000u;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return ixb_be64(p) == (uint64_t)1 << 63;
    case IX_T_INT8:
    case IX_T_SERIAL8: return ixb_be16(p) == 0;
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: return all_bytes(p, n, 0xff);
    default: return all_bytes(p, n, 0x00); /* DECIMAL, MONEY, DATETIME, INTERVAL */
    }
}

int ixt_value_put_null_ex(ixt_vtype t, unsigned flags, ixb_wbuf *out) {
    if (ixt_vtype_check(t) != IX_OK) return IX_EINVAL;
    static const uint8_t env_null[5] = {1, 0, 0, 0, 0};
    switch (t.code) {
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: ixb_put_u8(out, 1), ixb_put_u8(out, 0); return out->err;
    case IX_T_LVARCHAR:
    case IX_T_BOOLEAN:
    case IX_T_UDTVAR:
    case IX_T_UDTFIXED: ixb_put_bytes(out, env_null, 5); return out->err;
    case IX_T_BYTE:
    case IX_T_TEXT: {
        uint8_t d[IXT_BLOB_DESC_LEN_F70] = {0};
        size_t len = flags & IXT_VF_F70 ? IXT_BLOB_DESC_LEN_F70 : IXT_BLOB_DESC_LEN;
        d[blob_null_byte(len)] = 1;
        ixb_put_bytes(out, d, len);
        return out->err;
    }
    case IX_T_CHAR:
    case IX_T_NCHAR: ixb_put_zeros(out, t.enclen); return out->err;
    case IX_T_SMALLINT: ixb_put_i16(out, INT16_NULL); return out->err;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE: ixb_put_i32(out, INT32_NULL); return out->err;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: ixb_put_i64(out, INT64_NULL); return out->err;
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
        if (ixb_wbuf_reserve(out, ixt_value_fixed_width(t)) == IX_OK) {
            memset(out->data + out->len, 0xff, ixt_value_fixed_width(t));
            out->len += ixt_value_fixed_width(t);
        }
        return out->err;
    default: ixb_put_zeros(out, ixt_value_fixed_width(t)); return out->err;
    }
}

int ixt_value_put_null(ixt_vtype t, ixb_wbuf *out) {
    return ixt_value_put_null_ex(t, 0, out);
}

/* ---- INT8 ------------------------------------------------------------------ */

int ixt_int8_decode(const uint8_t *p, int64_t *v) {
    int16_t sign = (int16_t)ixb_be16(p);
    *v = 0;
    if (sign == 0) return IX_NULL_VALUE;
    if (sign != 1 && sign != -1) return IX_EMALFORMED;
    uint64_t mag = (uint64_t)ixb_be32(p + 6) << 32 | ixb_be32(p + 2);
    if (mag > (uint64_t)INT64_MAX) return IX_EMALFORMED;
    *v = sign < 0 ? -(int64_t)mag : (int64_t)mag;
    return IX_OK;
}

int ixt_int8_encode(int64_t v, ixb_wbuf *out) {
    if (v == INT64_MIN) return IX_ERANGE;
    uint64_t mag = v < 0 ? (uint64_t)(-v) : (uint64_t)v;
    ixb_put_i16(out, v < 0 ? -1 : 1);
    ixb_put_i32(out, (int64_t)(uint32_t)mag);
    ixb_put_i32(out, (int64_t)(uint32_t)(mag >> 32));
    return out->err;
}

/* ---- typed access ---------------------------------------------------------- */

static int null_or_bad(ixt_vtype t, const uint8_t *p, size_t n) {
    int z = ixt_value_is_null(t, p, n);
    if (z < 0) return z;
    return z ? IX_NULL_VALUE : IX_OK;
}

int ixt_value_get_int(ixt_vtype t, const uint8_t *p, size_t n, int64_t *v) {
    *v = 0;
    int rc = null_or_bad(t, p, n);
    if (rc != IX_OK) return rc;
    switch (t.code) {
    case IX_T_SMALLINT: *v = (int16_t)ixb_be16(p); return IX_OK;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE: *v = (int32_t)ixb_be32(p); return IX_OK;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: *v = (int64_t)ixb_be64(p); return IX_OK;
    case IX_T_INT8:
    case IX_T_SERIAL8: return ixt_int8_decode(p, v);
    default: return IX_EINVAL;
    }
}

int ixt_value_get_double(ixt_vtype t, const uint8_t *p, size_t n, double *v) {
    *v = 0;
    if (t.code != IX_T_FLOAT && t.code != IX_T_SMALLFLOAT) return IX_EINVAL;
    int rc = null_or_bad(t, p, n);
    if (rc != IX_OK) return rc;
    if (t.code == IX_T_FLOAT) {
        uint64_t u = ixb_be64(p);
        memcpy(v, &u, 8);
    } else {
        uint32_t u = ixb_be32(p);
        float f;
        memcpy(&f, &u, 4);
        *v = f;
    }
    return IX_OK;
}

int ixt_value_get_bool(ixt_vtype t, const uint8_t *p, size_t n, int *v) {
    *v = 0;
    if (t.code != IX_T_BOOLEAN) return IX_EINVAL;
    int rc = null_or_bad(t, p, n);
    if (rc != IX_OK) return rc;
    if (n != 6) return IX_EMALFORMED;
    int b = bool_from_payload(p[5]);
    if (b < 0) return IX_EMALFORMED;
    *v = b;
    return IX_OK;
}

int ixt_value_get_bytes(ixt_vtype t, const uint8_t *p, size_t n, const uint8_t **data,
                        size_t *len) {
    *data = NULL;
    *len = 0;
    if (!is_string_type(t.code)) return IX_EINVAL;
    int rc = null_or_bad(t, p, n);
    if (rc != IX_OK) return rc;
    size_t off = t.code == IX_T_LVARCHAR ? 5 : (t.code == IX_T_VARCHAR || t.code == IX_T_NVARCHAR);
    if (off == 1 && n - 1 > ixt_value_varchar_max(t.enclen)) return IX_EMALFORMED;
    if (off == 5 && t.enclen && n - 5 > t.enclen) return IX_EMALFORMED;
    *data = p + off;
    *len = n - off;
    return IX_OK;
}

int ixt_value_put_int(ixt_vtype t, int64_t v, ixb_wbuf *out) {
    switch (t.code) {
    case IX_T_SMALLINT:
        if (v <= INT16_MIN || v > INT16_MAX) return IX_ERANGE;
        ixb_put_i16(out, (int)v);
        return out->err;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
        if (v <= INT32_MIN || v > INT32_MAX) return IX_ERANGE;
        ixb_put_i32(out, v);
        return out->err;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
        if (v == INT64_MIN) return IX_ERANGE;
        ixb_put_i64(out, v);
        return out->err;
    case IX_T_INT8:
    case IX_T_SERIAL8: return ixt_int8_encode(v, out);
    default: return IX_EINVAL;
    }
}

int ixt_value_put_double(ixt_vtype t, double v, ixb_wbuf *out) {
    uint8_t b[8];
    if (t.code == IX_T_FLOAT) {
        uint64_t u;
        if (isnan(v)) v = NAN;
        memcpy(&u, &v, 8);
        if (isnan(v)) u = 0x7ff8000000000000ull;
        ixb_st64(b, u);
        ixb_put_bytes(out, b, 8);
        return out->err;
    }
    if (t.code == IX_T_SMALLFLOAT) {
        uint32_t u;
        float f = (float)v;
        if (isfinite(v) && isinf(f)) return IX_ERANGE;
        memcpy(&u, &f, 4);
        if (isnan(v)) u = 0x7fc00000u;
        ixb_st32(b, u);
        ixb_put_bytes(out, b, 4);
        return out->err;
    }
    return IX_EINVAL;
}

int ixt_value_put_bool(ixt_vtype t, int v, ixb_wbuf *out) {
    if (t.code != IX_T_BOOLEAN) return IX_EINVAL;
    uint8_t e[6] = {0, 0, 0, 0, 1, v ? BOOL_TRUE_BYTE : BOOL_FALSE_BYTE};
    ixb_put_bytes(out, e, 6);
    return out->err;
}

/* ---- text helpers ------------------------------------------------------------ */

static void put_str(ixb_wbuf *out, const char *s) {
    ixb_put_bytes(out, s, strlen(s));
}

static void trim(const char **s, size_t *n) {
    while (*n > 0 && isspace((unsigned char)**s))
        (*s)++, (*n)--;
    while (*n > 0 && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

typedef struct money_fmt {
    const char *front;
    size_t flen;
    char sep;
    const char *back;
} money_fmt;

static void dbmoney_parse(const char *m, money_fmt *f) {
    if (!m || !*m) m = "$.";
    const char *d = strpbrk(m, ".,");
    f->front = m;
    if (!d) {
        f->flen = strlen(m);
        f->sep = '.';
        f->back = "";
    } else {
        f->flen = (size_t)(d - m);
        f->sep = *d;
        f->back = d + 1;
    }
}

/* Checks that the decoded d fits DECIMAL(p,s) exactly. */
static int dec_fits(const ixt_decimal *d, int p, int s) {
    int pt, nd = ixt_dec_digits(d, &pt);
    if (nd == 0) return 1;
    if (s == IXT_DEC_FLOAT) return nd <= p;
    int frac = nd - pt;
    int intd = pt > 0 ? pt : 0;
    return frac <= s && intd <= p - s;
}

static int format_decimal(ixt_vtype t, const uint8_t *p, size_t n, const ixt_fmt *fmt,
                          ixb_wbuf *out) {
    int prec, scale;
    ixt_decimal d;
    dec_ps(t, &prec, &scale);
    if (n != ixt_dec_width(prec, scale)) return IX_EMALFORMED;
    int rc = ixt_dec_decode(&d, p, n);
    if (rc != IX_OK) return rc;
    if (!dec_fits(&d, prec, scale)) return IX_EMALFORMED;
    int sc = scale == IXT_DEC_FLOAT ? -1 : scale;
    if (t.code != IX_T_MONEY) return ixt_dec_to_text(&d, sc, out);
    money_fmt mf;
    dbmoney_parse(fmt ? fmt->dbmoney : NULL, &mf);
    if (d.sign < 0 && d.ndig) ixb_put_u8(out, '-');
    ixb_put_bytes(out, mf.front, mf.flen);
    d.sign = 1;
    size_t at = out->len;
    rc = ixt_dec_to_text(&d, sc, out);
    if (rc != IX_OK) return rc;
    for (size_t i = at; i < out->len; i++)
        if (out->data[i] == '.') out->data[i] = (uint8_t)mf.sep;
    put_str(out, mf.back);
    return out->err;
}

static int format_float(ixt_vtype t, const uint8_t *p, ixb_wbuf *out) {
    double v;
    char buf[64];
    ixt_value_get_double(t, p, t.code == IX_T_FLOAT ? 8 : 4, &v);
    if (isnan(v)) {
        put_str(out, "NaN");
    } else if (isinf(v)) {
        put_str(out, v < 0 ? "-Infinity" : "Infinity");
    } else {
        snprintf(buf, sizeof buf, t.code == IX_T_FLOAT ? "%#.15g" : "%#.7g", v);
        put_str(out, buf);
    }
    return out->err;
}

static int format_impl(ixt_vtype t, const uint8_t *p, size_t n, const ixt_fmt *fmt, ixb_wbuf *out) {
    int rc = ixt_vtype_check(t);
    if (rc != IX_OK) return rc;
    int z = ixt_value_is_null(t, p, n);
    if (z < 0) return z;
    if (z) return IX_NULL_VALUE;
    char buf[48];
    int64_t iv;
    switch (t.code) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
        rc = ixt_value_get_int(t, p, n, &iv);
        if (rc != IX_OK) return rc;
        snprintf(buf, sizeof buf, "%lld", (long long)iv);
        put_str(out, buf);
        return out->err;
    case IX_T_DATE:
        rc = ixt_date_format((int32_t)ixb_be32(p), fmt ? fmt->dbdate : NULL, out);
        return rc == IX_ERANGE ? IX_EMALFORMED : rc;
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: return format_float(t, p, out);
    case IX_T_DECIMAL:
    case IX_T_MONEY: return format_decimal(t, p, n, fmt, out);
    case IX_T_DATETIME: {
        ixt_datetime dt;
        rc = ixt_dt_decode(t.enclen, p, n, &dt);
        if (rc != IX_OK) return rc;
        return ixt_dt_format(t.enclen, &dt, out);
    }
    case IX_T_INTERVAL: {
        ixt_interval v;
        rc = ixt_iv_decode(t.enclen, p, n, &v);
        if (rc != IX_OK) return rc;
        return ixt_iv_format(t.enclen, &v, out);
    }
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *d;
        size_t len;
        rc = ixt_value_get_bytes(t, p, n, &d, &len);
        if (rc != IX_OK) return rc;
        ixb_put_bytes(out, d, len);
        return out->err;
    }
    case IX_T_BOOLEAN: {
        int b;
        rc = ixt_value_get_bool(t, p, n, &b);
        if (rc != IX_OK) return rc;
        ixb_put_u8(out, b ? 't' : 'f');
        return out->err;
    }
    case IX_T_BYTE: put_str(out, "<BYTE value>"); return out->err;
    case IX_T_TEXT: put_str(out, "<TEXT value>"); return out->err;
    default: return IX_EINVAL;
    }
}

/* Runs an appending operation and restores out->len if it fails without
 * setting out's sticky error. */
#define APPEND_GUARD(out, call)                                                                    \
    do {                                                                                           \
        size_t mark_ = (out)->len;                                                                 \
        int rc_ = (call);                                                                          \
        if (rc_ != IX_OK && !(out)->err) (out)->len = mark_;                                       \
        return rc_;                                                                                \
    } while (0)

int ixt_value_format(ixt_vtype t, const uint8_t *p, size_t n, const ixt_fmt *fmt, ixb_wbuf *out) {
    APPEND_GUARD(out, format_impl(t, p, n, fmt, out));
}

/* ---- parse ------------------------------------------------------------------ */

static int ci_eq(const char *s, const char *key, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != (unsigned char)key[i]) return 0;
    return 1;
}

static int parse_int(const char *s, size_t n, int64_t *v) {
    trim(&s, &n);
    size_t i = 0;
    int neg = 0;
    uint64_t acc = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i == n) return IX_EINVAL;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return IX_EINVAL;
        unsigned dg = (unsigned)(s[i] - '0');
        if (acc > ((uint64_t)1 << 63) / 10 || acc * 10 > ((uint64_t)1 << 63) - dg) {
            acc = (uint64_t)1 << 63 | 1; /* saturate: out of range */
            for (; i < n; i++)
                if (s[i] < '0' || s[i] > '9') return IX_EINVAL;
            return IX_ERANGE;
        }
        acc = acc * 10 + dg;
    }
    if (!neg && acc > (uint64_t)INT64_MAX) return IX_ERANGE;
    *v = neg ? (acc == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
    return IX_OK;
}

static int parse_float(ixt_vtype t, const char *s, size_t n, ixb_wbuf *out) {
    char buf[256];
    trim(&s, &n);
    if (n == 0) return IX_EINVAL;
    if (n >= sizeof buf) return IX_ERANGE;
    memcpy(buf, s, n);
    buf[n] = 0;
    const char *b = buf + (buf[0] == '-' || buf[0] == '+');
    if (!isdigit((unsigned char)*b) && *b != '.' && toupper((unsigned char)*b) != 'I' &&
        toupper((unsigned char)*b) != 'N')
        return IX_EINVAL;
    char *end;
    double v;
    if (t.code == IX_T_FLOAT) {
        v = strtod(buf, &end);
    } else {
        v = strtod(buf, &end);
        if (isfinite(v) && fabs(v) <= FLT_MAX) {
            /* 7 significant digits exceed FLT_DIG (6): the float nearest to
             * the text may print differently (around powers of ten). Prefer
             * a neighbour that prints as the text's own 7 digits so that
             * format -> parse -> format is stable. */
            float f = (float)v, cand[3];
            char want[48], got[48];
            cand[0] = f;
            cand[1] = nextafterf(f, -INFINITY);
            cand[2] = nextafterf(f, INFINITY);
            snprintf(want, sizeof want, "%#.7g", v);
            for (int i = 0; i < 3; i++) {
                snprintf(got, sizeof got, "%#.7g", (double)cand[i]);
                if (isfinite(cand[i]) && strcmp(got, want) == 0) {
                    f = cand[i];
                    break;
                }
            }
            v = f;
        }
    }
    if (end == buf || *end) return IX_EINVAL;
    int lit_inf = toupper((unsigned char)*b) == 'I';
    if (isinf(v) && !lit_inf) {
        /* "%#.15g" rounds DBL_MAX up to 1.79769313486232e+308, which strtod
         * overflows: accept exactly that text as +-DBL_MAX. */
        char mx[40];
        snprintf(mx, sizeof mx, "%#.15g", DBL_MAX);
        if (t.code != IX_T_FLOAT || strcmp(b, mx) != 0) return IX_ERANGE;
        v = v < 0 ? -DBL_MAX : DBL_MAX;
    }
    return ixt_value_put_double(t, v, out);
}

int ixt_money_plain(const char *dbmoney, const char *s, size_t n, char *buf, size_t cap,
                    size_t *len) {
    money_fmt mf;
    size_t k = 0, i = 0;
    dbmoney_parse(dbmoney, &mf);
    trim(&s, &n);
    if (cap == 0) return IX_ERANGE;
    if (i < n && (s[i] == '-' || s[i] == '+')) buf[k++] = s[i++];
    if (mf.flen && n - i >= mf.flen && memcmp(s + i, mf.front, mf.flen) == 0) i += mf.flen;
    size_t blen = strlen(mf.back);
    if (blen && n - i >= blen && memcmp(s + n - blen, mf.back, blen) == 0) n -= blen;
    if (n - i >= cap - k) return IX_ERANGE;
    for (; i < n; i++)
        buf[k++] = s[i] == mf.sep ? '.' : s[i];
    *len = k;
    return IX_OK;
}

static int parse_decimal(ixt_vtype t, const char *s, size_t n, const ixt_fmt *fmt, ixb_wbuf *out) {
    int prec, scale;
    ixt_decimal d;
    dec_ps(t, &prec, &scale);
    trim(&s, &n);
    if (t.code == IX_T_MONEY) {
        char buf[256];
        size_t k;
        int rc = ixt_money_plain(fmt ? fmt->dbmoney : NULL, s, n, buf, sizeof buf, &k);
        if (rc == IX_OK) rc = ixt_dec_from_text(&d, buf, k);
        if (rc != IX_OK) return rc;
    } else {
        int rc = ixt_dec_from_text(&d, s, n);
        if (rc != IX_OK) return rc;
    }
    return ixt_dec_encode(&d, prec, scale, out);
}

static int parse_impl(ixt_vtype t, const char *s, size_t n, const ixt_fmt *fmt, ixb_wbuf *out) {
    int rc = ixt_vtype_check(t);
    if (rc != IX_OK) return rc;
    int64_t v;
    switch (t.code) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
        rc = parse_int(s, n, &v);
        if (rc != IX_OK) return rc;
        return ixt_value_put_int(t, v, out);
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: return parse_float(t, s, n, out);
    case IX_T_DECIMAL:
    case IX_T_MONEY: return parse_decimal(t, s, n, fmt, out);
    case IX_T_DATE: {
        int32_t days;
        rc = ixt_date_parse(s, n, fmt ? fmt->dbdate : NULL, &days);
        if (rc != IX_OK) return rc;
        ixb_put_i32(out, days);
        return out->err;
    }
    case IX_T_DATETIME: {
        ixt_datetime dt;
        rc = ixt_dt_parse(t.enclen, s, n, &dt);
        if (rc != IX_OK) return rc;
        return ixt_dt_encode(t.enclen, &dt, out);
    }
    case IX_T_INTERVAL: {
        ixt_interval iv;
        rc = ixt_iv_parse(t.enclen, s, n, &iv);
        if (rc != IX_OK) return rc;
        return ixt_iv_encode(t.enclen, &iv, out);
    }
    case IX_T_CHAR:
    case IX_T_NCHAR:
        if (n > t.enclen) return IX_ERANGE;
        if (n > 0 && s[0] == 0) return IX_ERANGE; /* would read back as NULL */
        ixb_put_bytes(out, s, n);
        for (size_t i = n; i < t.enclen; i++)
            ixb_put_u8(out, ' ');
        return out->err;
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
        if (n > ixt_value_varchar_max(t.enclen)) return IX_ERANGE;
        if (n == 1 && s[0] == 0) return IX_ERANGE; /* 01 00 is the NULL form */
        ixb_put_u8(out, (uint8_t)n);
        ixb_put_bytes(out, s, n);
        return out->err;
    case IX_T_LVARCHAR:
        if ((t.enclen && n > t.enclen) || n > INT32_MAX) return IX_ERANGE;
        ixb_put_u8(out, 0);
        ixb_put_i32(out, (int64_t)n);
        ixb_put_bytes(out, s, n);
        return out->err;
    case IX_T_BOOLEAN: {
        trim(&s, &n);
        static const char *const tv[] = {"t", "true", "1"}, *const fv[] = {"f", "false", "0"};
        for (int i = 0; i < 3; i++) {
            if (n == strlen(tv[i]) && ci_eq(s, tv[i], n)) return ixt_value_put_bool(t, 1, out);
            if (n == strlen(fv[i]) && ci_eq(s, fv[i], n)) return ixt_value_put_bool(t, 0, out);
        }
        return IX_EINVAL;
    }
    default: return IX_EINVAL;
    }
}

int ixt_value_parse(ixt_vtype t, const char *s, size_t n, const ixt_fmt *fmt, ixb_wbuf *out) {
    APPEND_GUARD(out, parse_impl(t, s, n, fmt, out));
}

/* ---- bind ------------------------------------------------------------------- */

static int to_bind_impl(ixt_vtype t, const uint8_t *p, size_t n, ixb_wbuf *out) {
    int rc = ixt_vtype_check(t);
    if (rc != IX_OK) return rc;
    int z = ixt_value_is_null(t, p, n);
    if (z < 0) return z;
    if (z) return IX_NULL_VALUE;
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *d;
        size_t len;
        rc = ixt_value_get_bytes(t, p, n, &d, &len);
        if (rc != IX_OK) return rc;
        if (len > 32767) return IX_ERANGE;
        ixb_put_i16(out, (int)len);
        ixb_put_bytes(out, d, len);
        return out->err;
    }
    case IX_T_BOOLEAN: {
        int b;
        rc = ixt_value_get_bool(t, p, n, &b);
        if (rc != IX_OK) return rc;
        ixb_put_u8(out, b ? BOOL_TRUE_BYTE : BOOL_FALSE_BYTE);
        return out->err;
    }
    case IX_T_INT8:
    case IX_T_SERIAL8: {
        int64_t v;
        rc = ixt_int8_decode(p, &v);
        if (rc != IX_OK) return rc;
        return ixt_int8_encode(v, out);
    }
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: ixb_put_bytes(out, p, n); return out->err;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal d;
        rc = ixt_dec_decode(&d, p, n);
        if (rc != IX_OK) return rc;
        return ixt_dec_encode_bind(&d, out);
    }
    case IX_T_DATETIME: {
        ixt_datetime dt;
        rc = ixt_dt_decode(t.enclen, p, n, &dt);
        if (rc != IX_OK) return rc;
        return ixt_dt_encode_bind(t.enclen, &dt, out);
    }
    case IX_T_INTERVAL: {
        ixt_interval iv;
        rc = ixt_iv_decode(t.enclen, p, n, &iv);
        if (rc != IX_OK) return rc;
        return ixt_iv_encode_bind(t.enclen, &iv, out);
    }
    default: return IX_EINVAL;
    }
}

int ixt_value_to_bind(ixt_vtype t, const uint8_t *tuple, size_t n, ixb_wbuf *out) {
    APPEND_GUARD(out, to_bind_impl(t, tuple, n, out));
}

static int from_bind_impl(ixt_vtype t, const uint8_t *p, size_t avail, size_t *used,
                          ixb_wbuf *out) {
    int rc = ixt_vtype_check(t);
    if (rc != IX_OK) return rc;
    size_t w = ixt_value_fixed_width(t);
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        if (avail < 2) return IX_NEED_MORE;
        int16_t len = (int16_t)ixb_be16(p);
        if (len < 0) return IX_EMALFORMED;
        if (avail - 2 < (size_t)len) return IX_NEED_MORE;
        *used = 2 + (size_t)len;
        return parse_impl(t, (const char *)p + 2, (size_t)len, NULL, out);
    }
    case IX_T_BOOLEAN: {
        if (avail < 1) return IX_NEED_MORE;
        int b = bool_from_payload(p[0]);
        if (b < 0) return IX_EMALFORMED;
        *used = 1;
        return ixt_value_put_bool(t, b, out);
    }
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: {
        if (avail < w) return IX_NEED_MORE;
        *used = w;
        if (t.code == IX_T_FLOAT || t.code == IX_T_SMALLFLOAT) {
            double v;
            if (t.code == IX_T_FLOAT) {
                uint64_t u = ixb_be64(p);
                memcpy(&v, &u, 8);
            } else {
                uint32_t u = ixb_be32(p);
                float f;
                memcpy(&f, &u, 4);
                v = f;
            }
            return ixt_value_put_double(t, v, out);
        }
        int64_t v;
        if (t.code == IX_T_INT8 || t.code == IX_T_SERIAL8) {
            rc = ixt_int8_decode(p, &v);
            if (rc == IX_NULL_VALUE) return IX_EMALFORMED;
            if (rc != IX_OK) return rc;
        } else {
            v = w == 2   ? (int16_t)ixb_be16(p)
                : w == 4 ? (int32_t)ixb_be32(p)
                         : (int64_t)ixb_be64(p);
        }
        if (t.code == IX_T_DATE && (v < IXT_DATE_MIN || v > IXT_DATE_MAX)) return IX_ERANGE;
        return ixt_value_put_int(t, v, out);
    }
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal d;
        int prec, scale;
        dec_ps(t, &prec, &scale);
        rc = ixt_dec_decode_bind(&d, p, avail, used);
        if (rc != IX_OK) return rc;
        return ixt_dec_encode(&d, prec, scale, out);
    }
    case IX_T_DATETIME: {
        ixt_datetime dt;
        rc = ixt_dt_decode_bind(t.enclen, p, avail, &dt, used);
        if (rc != IX_OK) return rc;
        return ixt_dt_encode(t.enclen, &dt, out);
    }
    case IX_T_INTERVAL: {
        ixt_interval iv;
        rc = ixt_iv_decode_bind(t.enclen, p, avail, &iv, used);
        if (rc != IX_OK) return rc;
        return ixt_iv_encode(t.enclen, &iv, out);
    }
    default: return IX_EINVAL;
    }
}

int ixt_value_from_bind_prefix(ixt_vtype t, const uint8_t *p, size_t avail, size_t *used,
                               ixb_wbuf *out) {
    size_t u = 0;
    size_t mark = out->len;
    int rc = from_bind_impl(t, p, avail, &u, out);
    if (rc != IX_OK) {
        if (!out->err) out->len = mark;
        return rc;
    }
    if (used) *used = u;
    return IX_OK;
}

int ixt_value_from_bind(ixt_vtype t, const uint8_t *p, size_t n, ixb_wbuf *out) {
    size_t used = 0, mark = out->len;
    int rc = ixt_value_from_bind_prefix(t, p, n, &used, out);
    if (rc == IX_OK && used != n) {
        if (!out->err) out->len = mark;
        return IX_EMALFORMED;
    }
    return rc;
}
