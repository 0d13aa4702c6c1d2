/*
 * ix_bind.c: binding parameters (§3.4 bind forms): values of every type,
 * DATETIME / INTERVAL from structs, and BYTE/TEXT values in the real form
 * (proto/ix_blob.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ix_sqlscan.h"
#include "ix_client_int.h"
#include "proto/ix_blob.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"

#include "ix_stmt_int.h"

/* ---- binding ------------------------------------------------------------------ */

/* Returns the parameter slot or NULL (error recorded). */
static ixc_param *param_at(ix_stmt *s, int i, int *rc) {
    *rc = ixc_stmt_check(s);
    if (*rc) return NULL;
    if (s->state == ST_OPEN || s->state == ST_SCROLL) {
        *rc = ixc_fail(s->conn, IX_EMISUSE, "cannot bind while a cursor is open (ix_reset first)");
        return NULL;
    }
    if (i < 1 || i > s->nparams) {
        *rc = ixc_fail(s->conn, IX_ERANGE, "parameter index %d out of range 1..%d", i, s->nparams);
        return NULL;
    }
    ixc_param *p = &s->params[i - 1];
    ixb_wbuf_reset(&p->val);
    p->set = 0;
    p->nfix = 0;
    return p;
}

/* Stores a fixed-width value (n <= 8 bytes, already big-endian in be). */
static int param_fixed(ixc_param *p, const uint8_t *be, int n, int type, int slot) {
    memcpy(p->fix, be, (size_t)n);
    p->nfix = (uint8_t)n;
    p->set = 1;
    p->type = (int16_t)type;
    p->indicator = IXP_IND_VALUE;
    p->slot = (int16_t)slot;
    return IX_OK;
}

/* A value that could not be encoded: IX_ENOMEM, or IX_ERANGE with why. */
static int encode_fail(ix_stmt *s, int rc, const char *why) {
    if (rc == IX_ENOMEM) return ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    return ixc_fail(s->conn, IX_ERANGE, "%s", why);
}

static int param_done(ix_stmt *s, ixc_param *p, int type, int slot) {
    if (p->val.err) {
        int e = p->val.err;
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, e, "cannot store the value");
    }
    p->set = 1;
    p->type = (int16_t)type;
    p->indicator = IXP_IND_VALUE;
    p->slot = (int16_t)slot;
    return IX_OK;
}

/* The slots of the integer binds (docs/c-api.md). */

/* A double's FLOAT bytes: all-ff is FLOAT's NULL form, sent as a NaN. */
uint64_t ixc_float_bits(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u == UINT64_MAX ? 0x7ff8000000000000ull : u;
}

int ix_bind_null(ix_stmt *s, int i) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    p->set = 1;
    p->type = IX_T_VARCHAR;
    p->indicator = IXP_IND_NULL;
    p->slot = 0;
    return IX_OK;
}

int ixc_bind_udtfixed(ix_stmt *s, int i, int slot, const uint8_t *v) {
    ixc_param *p = &s->params[i - 1];
    p->type = IX_T_UDTFIXED;
    p->slot = (int16_t)slot;
    if (!v) return IX_OK; /* stays the NULL ix_bind_null made */
    ixb_wbuf_reset(&p->val);
    ixb_put_i16(&p->val, (int16_t)slot);
    ixb_put_bytes(&p->val, v, (size_t)slot);
    if (p->val.err) return ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    p->indicator = IXP_IND_VALUE;
    return IX_OK;
}

int ix_bind_int64(ix_stmt *s, int i, int64_t v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    uint8_t be[8];
    if (v > INT32_MIN && v <= INT32_MAX) {
        ixb_st32(be, (uint32_t)v);
        return param_fixed(p, be, 4, IX_T_INTEGER, SLOT_INTEGER);
    }
    if (v == INT64_MIN) return ixc_fail(s->conn, IX_ERANGE, "%s", "-2^63 is BIGINT's NULL form");
    ixb_st64(be, (uint64_t)v);
    return param_fixed(p, be, 8, IX_T_BIGINT, SLOT_BIGINT);
}

int ix_bind_int(ix_stmt *s, int i, int v) {
    return ix_bind_int64(s, i, v);
}

int ix_bind_double(ix_stmt *s, int i, double v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    uint8_t be[8];
    ixb_st64(be, ixc_float_bits(v));
    return param_fixed(p, be, 8, IX_T_FLOAT, 0);
}

int ix_bind_bool(ix_stmt *s, int i, int v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    uint8_t be[1] = {v ? 1 : 0};
    return param_fixed(p, be, 1, IX_T_BOOLEAN, 0);
}

static int bind_bytes(ix_stmt *s, int i, const void *b, size_t n, ix_destructor del, int text) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    size_t len = b && text && IXC_IS_NTS(n) ? strlen(b) : n;
    ixb_wbuf conv;
    ixb_wbuf_init(&conv, ixc_mem());
    if (p && b && text && ixc_cv_to_db(s->conn) != (iconv_t)-1) {
        /* Text goes to the database in its code set. */
        rc = ixc_convert(ixc_cv_to_db(s->conn), b, len, &conv);
        if (rc != IX_OK) {
            ixb_wbuf_free(&conv);
            if (del != IX_STATIC && del != IX_TRANSIENT) del((void *)(uintptr_t)b);
            return ixc_fail(s->conn, rc,
                            rc == IX_ENOMEM ? "out of memory"
                                            : "parameter %d has a character that the database "
                                              "code set cannot hold",
                            i);
        }
    }
    const void *bytes = conv.data ? conv.data : b;
    if (conv.data) len = conv.len;
    if (p && !b)
        rc = ixc_fail(s->conn, IX_EMISUSE, "NULL pointer bound (use ix_bind_null)");
    else if (p && (len > IXC_BIND_VARCHAR_MAX || (len == 1 && *(const uint8_t *)bytes == 0))) {
        /* Beyond what a VARCHAR bind carries: text as TEXT (type 12), bytes
         * as BYTE (type 11), kept with an i32 length. (The single byte 00 is
         * one too: as a VARCHAR it is the NULL form, which servers refuse as
         * a value; a BLOB or CLOB of that one byte must still go.) ixd takes
         * them inline in the BIND, ixdb's own form; other servers get the
         * real form, a descriptor and SQ_BLOB chunks (ixc_blob_form_type). */
        if (len > INT32_MAX) {
            rc = ixc_fail(s->conn, IX_ERANGE, "a bound value is limited to 2 GiB");
        } else {
            ixb_put_i32(&p->val, (int64_t)len);
            ixb_put_bytes(&p->val, bytes, len);
            rc = param_done(s, p, text ? IX_T_TEXT : IX_T_BYTE, 0);
        }
    } else if (p) {
        ixb_put_i16(&p->val, (int)len);
        ixb_put_bytes(&p->val, bytes, len);
        rc = param_done(s, p, IX_T_VARCHAR, 0);
    }
    ixb_wbuf_free(&conv);
    /* The bytes are copied into the request form at once: IX_STATIC and
     * IX_TRANSIENT behave alike, and a destructor is called right away. */
    if (del != IX_STATIC && del != IX_TRANSIENT && b) del((void *)(uintptr_t)b);
    return rc;
}

int ix_bind_text(ix_stmt *s, int i, const char *str, size_t n, ix_destructor del) {
    return bind_bytes(s, i, str, n, del, 1);
}

int ix_bind_blob(ix_stmt *s, int i, const void *b, size_t n, ix_destructor del) {
    return bind_bytes(s, i, b, n, del, 0);
}

int ix_bind_decimal_text(ix_stmt *s, int i, const char *str, size_t n) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!str) return ixc_fail(s->conn, IX_EMISUSE, "NULL text (use ix_bind_null)");
    size_t len = IXC_IS_NTS(n) ? strlen(str) : n;
    ixt_decimal d;
    rc = ixt_dec_from_text(&d, str, len);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc, "not a DECIMAL value: \"%.*s\"", (int)(len > 60 ? 60 : len),
                        str);
    /* Scale slot: the fraction digits written, or floating for exponents. */
    int scale = 0, in_frac = 0, expo = 0;
    for (size_t k = 0; k < len; k++) {
        if (str[k] == '.')
            in_frac = 1;
        else if (str[k] == 'e' || str[k] == 'E')
            expo = 1;
        else if (in_frac && str[k] >= '0' && str[k] <= '9')
            scale++;
    }
    int slot = expo || scale > 32 ? IXT_DEC_FLOAT : scale;
    rc = ixt_dec_encode_bind(&d, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, rc, "DECIMAL value out of range");
    }
    return param_done(s, p, IX_T_DECIMAL, slot);
}

int ix_bind_date(ix_stmt *s, int i, int32_t days) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (days < IXT_DATE_MIN || days > IXT_DATE_MAX)
        return ixc_fail(s->conn, IX_ERANGE, "day number %ld outside 0001-01-01..9999-12-31",
                        (long)days);
    uint8_t be[4];
    ixb_st32(be, (uint32_t)days);
    return param_fixed(p, be, 4, IX_T_DATE, 0);
}

int ix_bind_date_ymd(ix_stmt *s, int i, int y, int m, int d) {
    int32_t days;
    if (ixt_date_from_ymd(y, m, d, &days) != IX_OK) {
        if (!s || !s->conn) return IX_EMISUSE;
        return ixc_fail(s->conn, IX_ERANGE, "no such date %04d-%02d-%02d", y, m, d);
    }
    return ix_bind_date(s, i, days);
}

unsigned ix_qualifier_dt(int start, int end) {
    return ixt_dt_qual(start, end);
}

unsigned ix_qualifier_iv(int precision, int start, int end) {
    return ixt_iv_qual(precision, start, end);
}

int ix_qualifier_check(unsigned q, int is_interval) {
    return is_interval ? ixt_iv_qual_valid(q) : ixt_dt_qual_valid(q);
}

/* Digits after the first '.', 0 if none (capped at 5). */
static int frac_digits(const char *str, size_t n) {
    const char *dot = memchr(str, '.', n);
    if (!dot) return 0;
    int k = 0;
    for (const char *q = dot + 1; q < str + n && *q >= '0' && *q <= '9'; q++)
        k++;
    return k > 5 ? 5 : k;
}

static uint32_t infer_dt(const char *str, size_t n) {
    int f = frac_digits(str, n);
    static const int pairs[][2] = {{0, 10}, {0, 8}, {0, 6}, {0, 4},  {0, 2}, {0, 0},
                                   {6, 10}, {6, 8}, {2, 4}, {8, 10}, {4, 4}, {6, 6}};
    ixt_datetime dt;
    if (f) {
        static const int fs[] = {0, 6, 8, 10};
        for (size_t k = 0; k < sizeof fs / sizeof fs[0]; k++) {
            uint32_t q = ixt_dt_qual(fs[k], IXT_TU_F(f));
            if (q && ixt_dt_parse(q, str, n, &dt) == IX_OK) return q;
        }
    }
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        uint32_t q = ixt_dt_qual(pairs[k][0], pairs[k][1]);
        if (q && ixt_dt_parse(q, str, n, &dt) == IX_OK) return q;
    }
    return 0;
}

static uint32_t infer_iv(const char *str, size_t n) {
    size_t k = 0;
    while (k < n && (str[k] == ' ' || str[k] == '+' || str[k] == '-'))
        k++;
    int prec = 0;
    while (k < n && str[k] >= '0' && str[k] <= '9')
        prec++, k++;
    if (prec < 1) prec = 1;
    if (prec > 9) return 0;
    int f = frac_digits(str, n);
    int ends[] = {f ? IXT_TU_F(f) : -1, 10, 8, 6, 4, 2, 0};
    static const int starts[] = {0, 4, 6, 8, 10};
    ixt_interval iv;
    for (size_t si = 0; si < sizeof starts / sizeof starts[0]; si++) {
        for (size_t ei = 0; ei < sizeof ends / sizeof ends[0]; ei++) {
            if (ends[ei] < 0) continue;
            uint32_t q = ixt_iv_qual(prec, starts[si], ends[ei]);
            if (q && ixt_iv_parse(q, str, n, &iv) == IX_OK) return q;
        }
    }
    if (f) {
        uint32_t q = ixt_iv_qual(f, IXT_TU_FRACTION, IXT_TU_F(f));
        if (q && ixt_iv_parse(q, str, n, &iv) == IX_OK) return q;
    }
    return 0;
}

int ix_bind_datetime_text(ix_stmt *s, int i, const char *str, size_t n, unsigned q) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!str) return ixc_fail(s->conn, IX_EMISUSE, "NULL text (use ix_bind_null)");
    size_t len = IXC_IS_NTS(n) ? strlen(str) : n;
    if (q == 0) q = infer_dt(str, len);
    if (!q || !ixt_dt_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "no DATETIME qualifier fits \"%.*s\"",
                        (int)(len > 60 ? 60 : len), str);
    ixt_datetime dt;
    rc = ixt_dt_parse(q, str, len, &dt);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc, "not a DATETIME value: \"%.*s\"", (int)(len > 60 ? 60 : len),
                        str);
    rc = ixt_dt_encode_bind(q, &dt, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return ixc_fail(s->conn, rc, "cannot encode the DATETIME value");
    }
    return param_done(s, p, IX_T_DATETIME, (int)(int16_t)q);
}

int ix_bind_interval_text(ix_stmt *s, int i, const char *str, size_t n, unsigned q) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!str) return ixc_fail(s->conn, IX_EMISUSE, "NULL text (use ix_bind_null)");
    size_t len = IXC_IS_NTS(n) ? strlen(str) : n;
    if (q == 0) q = infer_iv(str, len);
    if (!q || !ixt_iv_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "no INTERVAL qualifier fits \"%.*s\"",
                        (int)(len > 60 ? 60 : len), str);
    ixt_interval iv;
    rc = ixt_iv_parse(q, str, len, &iv);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc, "not an INTERVAL value: \"%.*s\"", (int)(len > 60 ? 60 : len),
                        str);
    rc = ixt_iv_encode_bind(q, &iv, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return ixc_fail(s->conn, rc, "cannot encode the INTERVAL value");
    }
    return param_done(s, p, IX_T_INTERVAL, (int)(int16_t)q);
}

/* ---- DATETIME / INTERVAL from structs ------------------------------------------ */

#define IV_FIELD_MAX 999999999LL

int ix_bind_datetime(ix_stmt *s, int i, unsigned q, const ix_datetime_t *v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!v) return ixc_fail(s->conn, IX_EMISUSE, "NULL DATETIME value (use ix_bind_null)");
    if (q == 0) q = ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5));
    if (!ixt_dt_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "0x%x is not a DATETIME qualifier", q);
    ixt_datetime dt = {v->year, v->month, v->day, v->hour, v->minute, v->second, v->fraction};
    rc = ixt_dt_check(q, &dt);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc,
                        "DATETIME field out of range (%04d-%02d-%02d %02d:%02d:%02d.%05d)", v->year,
                        v->month, v->day, v->hour, v->minute, v->second, v->fraction);
    rc = ixt_dt_encode_bind(q, &dt, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, rc, "cannot encode the DATETIME value");
    }
    return param_done(s, p, IX_T_DATETIME, (int)(int16_t)q);
}

int ix_bind_interval(ix_stmt *s, int i, unsigned q, const ix_interval_t *v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!v) return ixc_fail(s->conn, IX_EMISUSE, "NULL INTERVAL value (use ix_bind_null)");
    const int64_t f[7] = {v->years,   v->months,  v->days,    v->hours,
                          v->minutes, v->seconds, v->fraction};
    for (int k = 0; k < 7; k++)
        if (f[k] < 0 || f[k] > (k == 6 ? 99999 : IV_FIELD_MAX))
            return ixc_fail(s->conn, IX_ERANGE, "INTERVAL field %d out of range", k);
    int ym = v->years || v->months,
        dtime = v->days || v->hours || v->minutes || v->seconds || v->fraction;
    if (q == 0)
        q = ym && !dtime ? ixt_iv_qual(9, IXT_TU_YEAR, IXT_TU_MONTH)
                         : ixt_iv_qual(9, IXT_TU_DAY, IXT_TU_F(5));
    if (!ixt_iv_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "0x%x is not an INTERVAL qualifier", q);
    int q_ym = IXT_QUAL_START(q) <= IXT_TU_MONTH;
    if ((q_ym && dtime) || (!q_ym && ym))
        return ixc_fail(s->conn, IX_EINVAL,
                        q_ym ? "a day-time value for a year-month INTERVAL qualifier"
                             : "a year-month value for a day-time INTERVAL qualifier");
    ixt_interval iv = {v->sign < 0 ? -1 : 1, 0, 0};
    iv.months = v->years * 12 + v->months;
    iv.units = (((v->days * 24 + v->hours) * 60 + v->minutes) * 60 + v->seconds) *
                   (int64_t)IXT_UNITS_PER_SECOND +
               v->fraction;
    if (iv.months == 0 && iv.units == 0) iv.sign = 1;
    rc = ixt_iv_encode_bind(q, &iv, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, rc, "the INTERVAL value does not fit its qualifier");
    }
    return param_done(s, p, IX_T_INTERVAL, (int)(int16_t)q);
}

int ix_clear_bindings(ix_stmt *s) {
    if (!s) return IX_EMISUSE;
    for (int i = 0; i < s->nparams; i++) {
        s->params[i].set = 0;
        s->params[i].nfix = 0;
        ixb_wbuf_reset(&s->params[i].val);
    }
    return IX_OK;
}

/*
 * One execution's request group, written with one reserve and direct stores:
 * | i16 SQ_ID | i16 id |
 * | i16 SQ_BIND | i16 n | n x item |        (no SQ_BIND when n == 0)
 * | i16 SQ_EXECUTE | i16 SQ_EOT |
 * item: | i16 type | i16 indicator | i16 slot | [value bytes | 00 if odd] |
 * (value bytes only when indicator is IXP_IND_VALUE; the layout of
 * ixp_enc_bind, without the extended-type names, which binds never carry).
 */
#define GROUP_FIXED 12 /* ID, id, EXECUTE, EOT + the BIND tag and count */

/* Bytes of one item with n value bytes. */
size_t ixc_item_size(int indicator, size_t n) {
    return ITEM_HEAD + (indicator == IXP_IND_VALUE ? n + (n & 1) : 0);
}

uint8_t *ixc_put_item(uint8_t *o, int type, int indicator, int slot, const void *v, size_t n) {
    ixb_st16(o, (uint16_t)type);
    ixb_st16(o + 2, (uint16_t)indicator);
    ixb_st16(o + 4, (uint16_t)slot);
    o += ITEM_HEAD;
    if (indicator != IXP_IND_VALUE) return o;
    if (n) memcpy(o, v, n);
    o += n;
    if (n & 1) *o++ = 0;
    return o;
}

/* Parameter i's item as bound (unbound: a NULL VARCHAR). */
static const uint8_t *param_bytes(const ixc_param *p, size_t *n) {
    *n = p->nfix ? p->nfix : p->val.len;
    return p->nfix ? p->fix : p->val.data;
}

size_t ixc_param_size(const ixc_param *p) {
    size_t n;
    param_bytes(p, &n);
    return p->set ? ixc_item_size(p->indicator, n) : ITEM_HEAD;
}

uint8_t *ixc_put_param(uint8_t *o, const ixc_param *p) {
    if (!p->set) return ixc_put_item(o, IX_T_VARCHAR, IXP_IND_NULL, 0, NULL, 0);
    size_t n;
    const uint8_t *v = param_bytes(p, &n);
    return ixc_put_item(o, p->type, p->indicator, p->slot, v, n);
}

/* ---- BYTE/TEXT values in the real form (proto/ix_blob.h) --------------------
 * On a connection without ixd's forms (ixc_form_fast 0), a BYTE/TEXT value goes as
 * a real server takes it: a 56-byte descriptor in the BIND, then SQ_BBIND and
 * each value's SQ_BLOB chunks, all in the same group before EXECUTE / OPEN
 * (no extra round trip). ixd gets the inline form (older ixd builds know no
 * other). docs/protocol.md "BYTE and TEXT values: the insert path". */

#define BLOB_LEN_WORD    4 /* a kept BYTE/TEXT value's i32 length */
#define VARCHAR_LEN_WORD 2 /* a kept VARCHAR value's i16 length */

/* Parameter i's type (IX_T_BYTE / IX_T_TEXT) when it goes in the real form,
 * else 0: on a conservative connection, a value bound as BYTE/TEXT, or a
 * text, blob or NULL bound for a BYTE/TEXT column of the INSERT. */
int ixc_blob_form_type(const ix_stmt *s, int i) {
    if (ixc_form_fast(s->conn)) return 0;
    const ixc_param *p = &s->params[i];
    int code = p->type & 0xff;
    if (p->set && p->indicator == IXP_IND_VALUE && (code == IX_T_BYTE || code == IX_T_TEXT))
        return code;
    int col = s->pcols ? s->pcols[i].vt.code : 0;
    if (col != IX_T_BYTE && col != IX_T_TEXT) col = 0;
    if (!col || (p->set && p->indicator == IXP_IND_DEFAULT)) return 0;
    if (!p->set || p->indicator == IXP_IND_NULL) return col;
    return code == IX_T_VARCHAR && !p->nfix ? col : 0;
}

/* The bytes of a real-form value (its length word skipped); *n their count.
 * NULL for a NULL. */
static const uint8_t *blob_form_data(const ixc_param *p, size_t *n) {
    *n = 0;
    if (!p->set || p->indicator != IXP_IND_VALUE) return NULL;
    int code = p->type & 0xff;
    size_t head = code == IX_T_BYTE || code == IX_T_TEXT ? BLOB_LEN_WORD : VARCHAR_LEN_WORD;
    *n = p->val.len - head;
    return p->val.data + head;
}

/* Bytes of parameter i's BIND item. */
static size_t param_item_size(const ix_stmt *s, int i) {
    if (!ixc_blob_form_type(s, i)) return ixc_param_size(&s->params[i]);
    size_t n;
    return blob_form_data(&s->params[i], &n) ? ITEM_HEAD + IXP_BLOBDESC_LEN : ITEM_HEAD;
}

/* Writes parameter i's BIND item at o; returns the byte after it. */
static uint8_t *put_param_item(uint8_t *o, const ix_stmt *s, int i) {
    int type = ixc_blob_form_type(s, i);
    if (!type) return ixc_put_param(o, &s->params[i]);
    size_t n;
    if (!blob_form_data(&s->params[i], &n)) return ixc_put_item(o, type, IXP_IND_NULL, 0, NULL, 0);
    uint8_t *d = ixc_put_item(o, type, IXP_IND_VALUE, IXP_BLOBDESC_LEN, NULL, 0);
    return ixp_blobdesc_put(d, (uint32_t)n);
}

/* Bytes of what follows the BIND for the real-form values: SQ_BBIND and
 * every value's chunks; 0 when there is none. */
static size_t blob_tail_size(const ix_stmt *s) {
    size_t total = 0, n;
    int count = 0;
    if (ixc_form_fast(s->conn)) return 0;
    for (int i = 0; i < s->nparams; i++)
        if (ixc_blob_form_type(s, i) && blob_form_data(&s->params[i], &n)) {
            total += ixp_blob_stream_size(n);
            count++;
        }
    return count ? IXP_BBIND_LEN + total : 0;
}

/* Writes that tail at o (blob_tail_size bytes of room); returns its end. */
static uint8_t *put_blob_tail(uint8_t *o, const ix_stmt *s) {
    size_t n;
    int count = 0;
    if (ixc_form_fast(s->conn)) return o;
    for (int i = 0; i < s->nparams; i++)
        count += ixc_blob_form_type(s, i) && blob_form_data(&s->params[i], &n);
    if (!count) return o;
    o = ixp_bbind_put(o, count);
    for (int i = 0; i < s->nparams; i++) {
        const uint8_t *v = ixc_blob_form_type(s, i) ? blob_form_data(&s->params[i], &n) : NULL;
        if (v) o = ixp_blob_stream_put(o, v, n);
    }
    return o;
}

/* Reserves a group of `body` bytes of BIND items in the request buffer and writes its
 * head (ID and, with parameters, the BIND tag and count); returns where the
 * items go, or NULL (ixc_out(c)->err set). */
uint8_t *ixc_group_begin(ix_stmt *s, size_t body) {
    ixb_wbuf *out = ixc_out(s->conn);
    size_t need = GROUP_FIXED + body;
    /* (the common case without a call: room left, no bound, no error) */
    if ((out->err || out->max || out->cap - out->len < need) && ixb_wbuf_reserve(out, need))
        return NULL;
    uint8_t *o = out->data + out->len;
    ixb_st16(o, IXP_SQ_ID);
    ixb_st16(o + 2, (uint16_t)s->id);
    o += 4;
    if (s->nparams) {
        ixb_st16(o, IXP_SQ_BIND);
        ixb_st16(o + 2, (uint16_t)s->nparams);
        o += 4;
    }
    return o;
}

/* Writes EXECUTE and EOT after the items ending at o. */
void ixc_group_end(ix_stmt *s, uint8_t *o) {
    ixb_wbuf *out = ixc_out(s->conn);
    ixb_st16(o, IXP_SQ_EXECUTE);
    ixb_st16(o + 2, IXP_SQ_EOT);
    out->len = (size_t)(o + 4 - out->data);
}

/* Appends SQ_BIND with every parameter (none when the statement has none). */
void ixc_encode_bind(ix_stmt *s) {
    if (s->nparams == 0) return;
    ixb_wbuf *out = ixc_out(s->conn);
    size_t body = 4 + blob_tail_size(s);
    for (int i = 0; i < s->nparams; i++)
        body += param_item_size(s, i);
    if (ixb_wbuf_reserve(out, body)) return;
    uint8_t *o = out->data + out->len;
    ixb_st16(o, IXP_SQ_BIND);
    ixb_st16(o + 2, (uint16_t)s->nparams);
    o += 4;
    for (int i = 0; i < s->nparams; i++)
        o = put_param_item(o, s, i);
    o = put_blob_tail(o, s);
    out->len = (size_t)(o - out->data);
}

/* Appends the group that executes s with its bound parameters. */
void ixc_encode_exec(ix_stmt *s) {
    size_t body = blob_tail_size(s);
    for (int i = 0; i < s->nparams; i++)
        body += param_item_size(s, i);
    uint8_t *o = ixc_group_begin(s, body);
    if (!o) return;
    for (int i = 0; i < s->nparams; i++)
        o = put_param_item(o, s, i);
    o = put_blob_tail(o, s);
    ixc_group_end(s, o);
}
