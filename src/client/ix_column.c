/*
 * ix_column.c: the column accessors of the current row, and DATETIME /
 * INTERVAL into structs.
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

/* ---- columns ------------------------------------------------------------------ */

int ix_column_count(const ix_stmt *s) {
    s = ixc_described(s);
    return s ? s->ncols : 0;
}

const char *ix_column_name(const ix_stmt *s, int i) {
    s = ixc_described(s);
    return s && i >= 0 && i < s->ncols ? s->cols[i].name : NULL;
}

int ix_column_type(const ix_stmt *s, int i) {
    s = ixc_described(s);
    return s && i >= 0 && i < s->ncols ? s->cols[i].vt.code : -1;
}

int ix_column_notnull(const ix_stmt *s, int i) {
    s = ixc_described(s);
    return s && i >= 0 && i < s->ncols ? (s->cols[i].type & IXT_TF_NOTNULL) != 0 : 0;
}

int ix_column_enclen(const ix_stmt *s, int i) {
    s = ixc_described(s);
    return s && i >= 0 && i < s->ncols ? (int)s->cols[i].vt.enclen : -1;
}

/* Records a column accessor's misuse: no current row, or i out of range. */
static void cell_misuse(ix_stmt *s, int i) {
    if (s && s->conn)
        ixc_fail(s->conn, IX_EMISUSE,
                 i < 0 || i >= s->ncols ? "column index %d out of range"
                                        : "no current row (column %d)",
                 i);
}

/* The current row's column i: its value's bytes (*n of them, as checked when
 * the row arrived), or NULL (IX_EMISUSE recorded). */
static inline const uint8_t *cell(ix_stmt *s, int i, size_t *n) {
    if (!s || (unsigned)i >= s->row_cols) {
        cell_misuse(s, i);
        *n = 0;
        return NULL;
    }
    return ixc_rowplan_value(&s->plan, s->rec, i, n);
}

/* Where the value planned at a starts in the current row (s has one). */
static inline const uint8_t *cell_at(const ix_stmt *s, const ixc_rpat *a) {
    return s->row + ixc_rowplan_word(s->rec + 4 * (size_t)a->base) + a->rel;
}

static inline int cell_null(const ix_stmt *s, int i, const uint8_t *p, size_t n) {
    return ixc_rowplan_is_null(&s->plan.col[i], p, n);
}

int ix_column_is_null(ix_stmt *s, int i) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    return p ? cell_null(s, i, p, n) : 0;
}

const void *ix_column_raw(ix_stmt *s, int i) {
    size_t n;
    return cell(s, i, &n);
}

size_t ix_column_bytes(ix_stmt *s, int i) {
    size_t n;
    cell(s, i, &n);
    return n;
}

static int fetch_blob(ix_stmt *s, ixc_col *col, const uint8_t *p, size_t n);

/* The characters of a CHAR / VARCHAR / LVARCHAR value read in place (the
 * row plan's text kind), or IX_EINVAL when the value must be formatted (or
 * is longer than its column allows: the formatter reports that). */
static inline int plain_chars(const ixc_rpcol *pc, const uint8_t *p, size_t n, const uint8_t **d,
                              size_t *len) {
    switch (pc->text_kind) {
    case RT_RAW: *d = p, *len = n; return IX_OK;
    case RT_VAR1:
        if (n - 1 > pc->max_len) return IX_EINVAL;
        *d = p + 1, *len = n - 1;
        return IX_OK;
    case RT_ENV:
        if (pc->max_len && n - 5 > pc->max_len) return IX_EINVAL;
        *d = p + 5, *len = n - 5;
        return IX_OK;
    default: return IX_EINVAL;
    }
}

/* The conversion of character values to the client's code set, (iconv_t)-1
 * when none is needed (or s is detached). */
static inline iconv_t from_db(const ix_stmt *s) {
    return s->conn ? ixc_cv_from_db(s->conn) : (iconv_t)-1;
}

static int make_text(ix_stmt *s, int i, const uint8_t *p, size_t n) {
    ixc_col *col = &s->cols[i];
    if (col->text_row == s->row_seq) return IX_OK;
    if (col->vt.code == IX_T_TEXT) /* a TEXT value prints as its characters */
        return fetch_blob(s, col, p, n);
    ixb_wbuf_reset(&col->text);
    const uint8_t *d;
    size_t len;
    int rc;
    iconv_t cv = from_db(s);
    if (plain_chars(&s->plan.col[i], p, n, &d, &len) == IX_OK) { /* RT_OTHER when converted */
        /* the characters as they came, and their NUL: one reserve, one copy */
        if (col->text.cap <= len && ixb_wbuf_reserve(&col->text, len + 1)) return IX_ENOMEM;
        memcpy(col->text.data, d, len);
        col->text.data[len] = 0;
        col->text.len = len + 1;
        col->text_row = s->row_seq;
        return IX_OK;
    } else {
        ixt_fmt fmt = {s->conn ? ixc_dbdate(s->conn) : NULL, NULL};
        rc = ixt_value_format(col->vt, p, n, &fmt, &col->text);
    }
    if (rc == IX_OK && cv != (iconv_t)-1 && ixc_is_char_type(col->vt.code) && !col->text.err) {
        /* Character values come back in the client's code set. */
        ixb_wbuf t;
        ixb_wbuf_init(&t, ixc_mem());
        rc = ixc_convert(cv, col->text.data, col->text.len, &t);
        if (rc == IX_OK) {
            ixb_wbuf_free(&col->text);
            col->text = t;
        } else {
            ixb_wbuf_free(&t);
        }
    }
    if (rc == IX_OK) ixb_put_u8(&col->text, 0);
    if (rc == IX_OK && col->text.err) rc = IX_ENOMEM;
    if (rc != IX_OK) return rc;
    col->text_row = s->row_seq;
    return IX_OK;
}

static __attribute__((noinline)) const char *text_general(ix_stmt *s, int i);

const char *ix_column_text(ix_stmt *s, int i) {
    /* A VARCHAR's or LVARCHAR's characters are a C string in the stored row
     * (ix_rowplan.h, "Records"); the text kind is RT_OTHER when they are
     * converted. A VARCHAR's NULL form: length 1, byte 0. */
    if (s && (unsigned)i < s->row_cols && s->plan.col[i].text_kind == RT_VAR1) {
        const uint8_t *v = cell_at(s, &s->plan.at[i]);
        if (v[0] == 1 && !v[1]) return NULL;
        if (v[0] <= s->plan.col[i].max_len) return (const char *)v + 1;
    }
    return text_general(s, i);
}

static const char *text_general(ix_stmt *s, int i) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    if (!p || cell_null(s, i, p, n)) return NULL;
    const ixc_rpcol *pc = &s->plan.col[i];
    if (pc->text_kind == RT_ENV && (!pc->max_len || n - 5 <= pc->max_len))
        return (const char *)p + 5;
    int rc = make_text(s, i, p, n);
    if (rc != IX_OK) {
        if (s->conn) ixc_fail(s->conn, rc, "cannot format column %d: %s", i, ix_rc_str(rc));
        return NULL;
    }
    return (const char *)s->cols[i].text.data;
}

/* The length of a value that is not a VARCHAR read in place: characters
 * read in place (CHAR, LVARCHAR) have it without a copy, the others are
 * made in col->text. */
static __attribute__((noinline)) size_t text_len_general(ix_stmt *s, int i) {
    if (s && (unsigned)i < s->row_cols) {
        size_t n, len;
        const uint8_t *p = ixc_rowplan_value(&s->plan, s->rec, i, &n), *d;
        const ixc_rpcol *pc = &s->plan.col[i];
        if (ixc_rowplan_is_null(pc, p, n)) return 0;
        if (pc->text_kind == RT_RAW || pc->text_kind == RT_ENV)
            return plain_chars(pc, p, n, &d, &len) == IX_OK ? len : 0;
    }
    const char *t = ix_column_text(s, i);
    return t ? s->cols[i].text.len - 1 : 0;
}

int ixc_column_lob_hint(const ix_stmt *s, int i) {
    return s->cols[i].lob_type;
}

size_t ix_column_text_len(ix_stmt *s, int i) {
    /* Characters read in place have their length without a copy: a
     * VARCHAR's is its length byte (its NULL form: length 1, byte 0). */
    if (s && (unsigned)i < s->row_cols && s->plan.col[i].text_kind == RT_VAR1) {
        const uint8_t *p = cell_at(s, &s->plan.at[i]);
        if (p[0] <= s->plan.col[i].max_len) return p[0] == 1 && !p[1] ? 0 : p[0];
    }
    return text_len_general(s, i);
}

/*
 * A BYTE or TEXT value: the tuple holds only a descriptor, so the data is
 * asked for with ID + SQ_FETCHBLOB + EOT and arrives as SQ_BLOB chunks, then
 * DONE/COST and one EOT (§3.14; ixd answers FETCHBLOB with its EOT at once
 * and swallows the EOT that follows). Earlier replies (read-ahead batches)
 * are drained first, so this is one round trip. The value is kept in the
 * column's text buffer until the next step.
 */
static int fetch_blob(ix_stmt *s, ixc_col *col, const uint8_t *p, size_t n) {
    if (col->text_row == s->row_seq) return IX_OK;
    ix_conn *c = s->conn;
    int rc = ixc_check(c);
    if (rc == IX_OK) rc = ixc_drain(c);
    if (rc != IX_OK) return rc;
    size_t mark = ixc_mark(c);
    ixp_enc_id(ixc_out(c), s->id);
    ixp_enc_fetchblob(ixc_out(c), p, n);
    ixp_enc_tag(ixc_out(c), IXP_SQ_EOT);
    ixc_queued(c, mark);
    if ((rc = ixc_flush(c)) != IX_OK) return rc;
    ixb_wbuf_reset(&col->text);
    int sqlcode = 0, isam = 0;
    int32_t off = 0;
    char ins[256] = "";
    ixp_msg m;
    while ((rc = ixc_next_msg(c, &m)) == IX_OK && m.tag != IXP_SQ_EOT) {
        if (m.tag == IXP_SQ_BLOB) {
            ixb_put_bytes(&col->text, m.u.blob.p, m.u.blob.n);
        } else if (m.tag == IXP_SQ_ERR) {
            sqlcode = m.u.err.sqlcode;
            isam = m.u.err.isamcode;
            off = m.u.err.offset;
            snprintf(ins, sizeof ins, "%.*s", (int)m.u.err.msg.n, (const char *)m.u.err.msg.p);
        }
    }
    if (rc != IX_OK) return rc;
    if (sqlcode) return ixc_fail_sql(c, sqlcode, isam, off, ins);
    ixb_put_u8(&col->text, 0); /* a NUL after the bytes, counted as make_text counts it */
    if (col->text.err) return ixc_fail(c, IX_ENOMEM, "out of memory");
    col->text_row = s->row_seq;
    return IX_OK;
}

static int is_blob_col(const ixc_col *col) {
    return col->vt.code == IX_T_BYTE || col->vt.code == IX_T_TEXT;
}

const void *ix_column_blob(ix_stmt *s, int i, size_t *n) {
    if (n) *n = 0;
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p || cell_null(s, i, p, vn)) return NULL;
    ixc_col *col = &s->cols[i];
    if (is_blob_col(col)) {
        if (fetch_blob(s, col, p, vn) != IX_OK) return NULL;
        if (n) *n = col->text.len - 1;
        return col->text.data ? col->text.data : (const uint8_t *)"";
    }
    const uint8_t *d;
    size_t len;
    /* characters read in place (the row plan's text kind), else the general path */
    if (plain_chars(&s->plan.col[i], p, vn, &d, &len) != IX_OK &&
        ixt_value_get_bytes(col->vt, p, vn, &d, &len) != IX_OK) {
        if (s->conn) ixc_fail(s->conn, IX_EINVAL, "column %d is not a character column", i);
        return NULL;
    }
    if (n) *n = len;
    return d;
}

static int text_number(const uint8_t *d, size_t len, int want_int, int64_t *iv, double *dv) {
    char buf[80];
    while (len && (*d == ' '))
        d++, len--;
    while (len && d[len - 1] == ' ')
        len--;
    if (len == 0 || len >= sizeof buf) return IX_EINVAL;
    memcpy(buf, d, len);
    buf[len] = 0;
    char *end;
    errno = 0;
    if (want_int) {
        long long x = strtoll(buf, &end, 10);
        if (*end) return IX_EINVAL;
        if (errno) return IX_ERANGE;
        *iv = x;
    } else {
        double x = strtod(buf, &end);
        if (*end) return IX_EINVAL;
        *dv = x;
    }
    return IX_OK;
}

/* The general conversions of ix_column_get_int64, for the value p[0..vn). */
static int int64_slow(ix_stmt *s, int i, const uint8_t *p, size_t vn, int64_t *out) {
    ixc_col *col = &s->cols[i];
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    int64_t v = 0;
    double d;
    int b, rc;
    switch (col->vt.code) {
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
        rc = ixt_value_get_double(col->vt, p, vn, &d);
        if (rc != IX_OK) return rc;
        if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return IX_ERANGE;
        v = (int64_t)d;
        /* A fraction is reported; the value truncated toward zero stays in
         * *out (docs/c-api.md, "Conversions"). */
        *out = v;
        return (double)v == d ? IX_OK : IX_ERANGE;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal x;
        int pt;
        rc = ixt_dec_decode(&x, p, vn);
        if (rc == IX_OK) rc = ixt_dec_to_i64(&x, &v);
        if (rc != IX_OK) return rc;
        *out = v;
        return ixt_dec_digits(&x, &pt) > pt ? IX_ERANGE : IX_OK;
    }
    case IX_T_BOOLEAN:
        rc = ixt_value_get_bool(col->vt, p, vn, &b);
        if (rc != IX_OK) return rc;
        v = b;
        break;
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *t;
        size_t n;
        rc = ixt_value_get_bytes(col->vt, p, vn, &t, &n);
        if (rc == IX_OK) rc = text_number(t, n, 1, &v, &d);
        if (rc != IX_OK) return rc;
        break;
    }
    default:
        rc = ixt_value_get_int(col->vt, p, vn, &v);
        if (rc != IX_OK) return rc;
    }
    *out = v;
    return IX_OK;
}

/* The general conversions of ix_column_get_double, for the value p[0..vn). */
static int double_slow(ix_stmt *s, int i, const uint8_t *p, size_t vn, double *out) {
    ixc_col *col = &s->cols[i];
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    double d = 0;
    int64_t v;
    int b, rc;
    switch (col->vt.code) {
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
        rc = ixt_value_get_double(col->vt, p, vn, &d);
        if (rc != IX_OK) return rc;
        break;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal x;
        rc = ixt_dec_decode(&x, p, vn);
        if (rc == IX_OK) rc = ixt_dec_to_double(&x, &d);
        if (rc != IX_OK) return rc;
        break;
    }
    case IX_T_BOOLEAN:
        rc = ixt_value_get_bool(col->vt, p, vn, &b);
        if (rc != IX_OK) return rc;
        d = b;
        break;
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *t;
        size_t n;
        rc = ixt_value_get_bytes(col->vt, p, vn, &t, &n);
        if (rc == IX_OK) rc = text_number(t, n, 0, &v, &d);
        if (rc != IX_OK) return rc;
        break;
    }
    default:
        rc = ixt_value_get_int(col->vt, p, vn, &v);
        if (rc != IX_OK) return rc;
        d = (double)v;
    }
    *out = d;
    return IX_OK;
}

/* A fixed-width number read in place (the row plan's get kind). */
#define NULL_I16 0x8000u
#define NULL_I32 0x80000000u
#define NULL_I64 ((uint64_t)1 << 63)
#define NULL_F32 0xffffffffu
#define NULL_F64 UINT64_MAX

/* An INT8 at p: ixt_int8_decode's value (1), or 0 for NULL (sign word 0)
 * and the forms the general path reads. */
static inline int int8_in_place(const uint8_t *p, int64_t *v) {
    uint16_t sign = ixb_be16(p);
    uint64_t mag = (uint64_t)ixb_be32(p + 6) << 32 | ixb_be32(p + 2);
    *v = sign == 0xffff ? -(int64_t)mag : (int64_t)mag;
    return (sign == 1 || sign == 0xffff) && mag <= (uint64_t)INT64_MAX;
}

/* The value of column i of the current row when it is a non-NULL integer
 * the plan reads in place (1), else 0: then the general path (which also
 * records misuse) answers. No calls, so the accessors below need no frame. */
static inline int fast_int(const ix_stmt *s, int i, int64_t *v) {
    if (!s || (unsigned)i >= s->row_cols) return 0;
    const ixc_rpat *a = &s->plan.at[i];
    const uint8_t *p = cell_at(s, a);
    switch (a->get_kind) {
    case RG_I32:
    case RG_DATE: {
        uint32_t u = ixb_be32(p);
        *v = (int32_t)u;
        return u != NULL_I32;
    }
    case RG_I16: {
        uint16_t u = ixb_be16(p);
        *v = (int16_t)u;
        return u != NULL_I16;
    }
    case RG_I64: {
        uint64_t u = ixb_be64(p);
        *v = (int64_t)u;
        return u != NULL_I64;
    }
    case RG_INT8: return int8_in_place(p, v);
    default: return 0;
    }
}

static __attribute__((noinline)) int get_int64_general(ix_stmt *s, int i, int64_t *out) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    *out = 0;
    if (!p) return IX_EMISUSE;
    return int64_slow(s, i, p, n, out);
}

static __attribute__((noinline)) int get_double_general(ix_stmt *s, int i, double *out) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    *out = 0;
    if (!p) return IX_EMISUSE;
    return double_slow(s, i, p, n, out);
}

int ix_column_get_int64(ix_stmt *s, int i, int64_t *out) {
    if (fast_int(s, i, out)) return IX_OK;
    return get_int64_general(s, i, out);
}

/* The value of column i as a double when the plan reads it in place and it
 * is not NULL (1), else 0. */
static inline int fast_double(const ix_stmt *s, int i, double *out) {
    if (!s || (unsigned)i >= s->row_cols) return 0;
    const ixc_rpat *a = &s->plan.at[i];
    const uint8_t *p = cell_at(s, a);
    switch (a->get_kind) {
    case RG_F64: {
        uint64_t u = ixb_be64(p);
        memcpy(out, &u, 8);
        return u != NULL_F64;
    }
    case RG_F32: {
        uint32_t u = ixb_be32(p);
        float f;
        memcpy(&f, &u, 4);
        *out = f;
        return u != NULL_F32;
    }
    case RG_I32:
    case RG_DATE: {
        uint32_t u = ixb_be32(p);
        *out = (int32_t)u;
        return u != NULL_I32;
    }
    default: {
        int64_t v;
        if (!fast_int(s, i, &v)) return 0;
        *out = (double)v;
        return 1;
    }
    }
}

int ix_column_get_double(ix_stmt *s, int i, double *out) {
    if (fast_double(s, i, out)) return IX_OK;
    return get_double_general(s, i, out);
}

/* ---- DATETIME / INTERVAL into structs ------------------------------------------ */

int ix_column_datetime(ix_stmt *s, int i, ix_datetime_t *out) {
    if (out) memset(out, 0, sizeof *out);
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p) return IX_EMISUSE;
    if (!out) return ixc_fail(s->conn, IX_EMISUSE, "NULL output struct");
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    const ixc_col *col = &s->cols[i];
    if (col->vt.code == IX_T_DATE) {
        int64_t days;
        int rc = ixt_value_get_int(col->vt, p, vn, &days);
        if (rc != IX_OK) return rc;
        ixt_date_to_ymd((int32_t)days, &out->year, &out->month, &out->day);
        return IX_OK;
    }
    if (col->vt.code != IX_T_DATETIME) return IX_EINVAL;
    ixt_datetime dt;
    int rc = ixt_dt_decode((uint32_t)col->vt.enclen, p, vn, &dt);
    if (rc == IX_NULL_VALUE) return rc;
    if (rc != IX_OK) return IX_EMALFORMED;
    *out = (ix_datetime_t){dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.fraction};
    return IX_OK;
}

int ix_column_interval(ix_stmt *s, int i, ix_interval_t *out) {
    if (out) memset(out, 0, sizeof *out);
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p) return IX_EMISUSE;
    if (!out) return ixc_fail(s->conn, IX_EMISUSE, "NULL output struct");
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    const ixc_col *col = &s->cols[i];
    if (col->vt.code != IX_T_INTERVAL) return IX_EINVAL;
    uint32_t q = (uint32_t)col->vt.enclen;
    ixt_interval iv;
    int rc = ixt_iv_decode(q, p, vn, &iv);
    if (rc == IX_NULL_VALUE) return rc;
    if (rc != IX_OK) return IX_EMALFORMED;
    out->sign = iv.sign < 0 ? -1 : 1;
    int start = IXT_QUAL_START(q);
    if (start <= IXT_TU_MONTH) {
        if (start == IXT_TU_YEAR) {
            out->years = iv.months / 12;
            out->months = iv.months % 12;
        } else {
            out->months = iv.months;
        }
        return IX_OK;
    }
    /* Split the units from the bottom; the leading field keeps the rest. */
    int64_t u = iv.units;
    out->fraction = u % IXT_UNITS_PER_SECOND;
    u /= IXT_UNITS_PER_SECOND;
    if (start == IXT_TU_FRACTION) {
        out->fraction += u * IXT_UNITS_PER_SECOND;
        return IX_OK;
    }
    if (start == IXT_TU_SECOND) {
        out->seconds = u;
        return IX_OK;
    }
    out->seconds = u % 60;
    u /= 60;
    if (start == IXT_TU_MINUTE) {
        out->minutes = u;
        return IX_OK;
    }
    out->minutes = u % 60;
    u /= 60;
    if (start == IXT_TU_HOUR) {
        out->hours = u;
        return IX_OK;
    }
    out->hours = u % 24;
    out->days = u / 24;
    return IX_OK;
}

static __attribute__((noinline)) int date_ymd_general(ix_stmt *s, int i, int *y, int *m, int *d);

int ix_column_date_ymd(ix_stmt *s, int i, int *y, int *m, int *d) {
    /* a DATE read in place: its day number to the calendar by arithmetic */
    if (s && (unsigned)i < s->row_cols && s->plan.at[i].get_kind == RG_DATE) {
        uint32_t u = ixb_be32(cell_at(s, &s->plan.at[i]));
        if (u != NULL_I32) {
            int yy, mm, dd;
            ixt_date_to_ymd((int32_t)u, &yy, &mm, &dd);
            if (y) *y = yy;
            if (m) *m = mm;
            if (d) *d = dd;
            return IX_OK;
        }
    }
    return date_ymd_general(s, i, y, m, d);
}

static int date_ymd_general(ix_stmt *s, int i, int *y, int *m, int *d) {
    if (y) *y = 0;
    if (m) *m = 0;
    if (d) *d = 0;
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p) return IX_EMISUSE;
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE; /* before the type, as every accessor */
    const ixc_col *col = &s->cols[i];
    if (col->vt.code == IX_T_DATETIME && (IXT_QUAL_START((uint32_t)col->vt.enclen) != IXT_TU_YEAR ||
                                          IXT_QUAL_END((uint32_t)col->vt.enclen) < IXT_TU_DAY))
        return IX_EINVAL;
    if (col->vt.code != IX_T_DATE && col->vt.code != IX_T_DATETIME) return IX_EINVAL;
    ix_datetime_t dt;
    int rc = ix_column_datetime(s, i, &dt);
    if (rc != IX_OK) return rc;
    if (y) *y = dt.year;
    if (m) *m = dt.month;
    if (d) *d = dt.day;
    return IX_OK;
}

/* The slow halves of the accessors below: kept out of line, so that the
 * fast halves need no stack frame. */
/* IX_ERANGE for a fraction leaves the truncated value in *out (0 when the
 * value is out of range): the status-less accessors truncate. */
static __attribute__((noinline)) int64_t int64_general(ix_stmt *s, int i) {
    int64_t v;
    int rc = get_int64_general(s, i, &v);
    return rc == IX_OK || rc == IX_ERANGE ? v : 0;
}

static __attribute__((noinline)) int int_general(ix_stmt *s, int i) {
    int64_t v;
    int rc = get_int64_general(s, i, &v);
    if (rc != IX_OK && rc != IX_ERANGE) return 0;
    return v < INT32_MIN || v > INT32_MAX ? 0 : (int)v;
}

static __attribute__((noinline)) double double_general(ix_stmt *s, int i) {
    double d;
    return get_double_general(s, i, &d) == IX_OK ? d : 0;
}

int64_t ix_column_int64(ix_stmt *s, int i) {
    int64_t v;
    if (fast_int(s, i, &v)) return v;
    return int64_general(s, i);
}

int ix_column_int(ix_stmt *s, int i) {
    int64_t v;
    if (fast_int(s, i, &v)) return v < INT32_MIN || v > INT32_MAX ? 0 : (int)v;
    return int_general(s, i);
}

double ix_column_double(ix_stmt *s, int i) {
    double d;
    if (fast_double(s, i, &d)) return d;
    return double_general(s, i);
}

int ix_stmt_type(const ix_stmt *stmt) {
    stmt = ixc_described(stmt);
    return stmt ? stmt->stmt_type : -1;
}

/* ---- bulk reads (ix_row_store) ------------------------------------------------ */

enum { ST_VALUE = 1, ST_NULL = 0, ST_OTHER = -1 };

/* What ix_row_store reads of the statement, in locals: the stores into the
 * caller's buffers may alias anything reached through a pointer. */
typedef struct store_row {
    const uint8_t *row, *rec;
    const ixc_rpat *at;
    const ixc_rpcol *col;
    const ixc_rowplan *plan;
    unsigned ncols;
} store_row;

/* Stores a destination's length (it may lie anywhere in a row-wise array). */
static inline void put_len(int64_t *len, int64_t n) {
    memcpy(len, &n, sizeof n);
}

/* An integer column's value at p read as the plan says: ST_VALUE (*v set),
 * ST_NULL, or ST_OTHER (a type or form the accessors' general path reads). */
static inline int store_int(uint8_t kind, const uint8_t *p, int64_t *v) {
    switch (kind) {
    case RG_I32: {
        uint32_t u = ixb_be32(p);
        *v = (int32_t)u;
        return u != NULL_I32 ? ST_VALUE : ST_NULL;
    }
    case RG_I16: {
        uint16_t u = ixb_be16(p);
        *v = (int16_t)u;
        return u != NULL_I16 ? ST_VALUE : ST_NULL;
    }
    case RG_I64: {
        uint64_t u = ixb_be64(p);
        *v = (int64_t)u;
        return u != NULL_I64 ? ST_VALUE : ST_NULL;
    }
    case RG_INT8:
        if (ixb_be16(p) == 0) return ST_NULL;
        return int8_in_place(p, v) ? ST_VALUE : ST_OTHER;
    default: return ST_OTHER;
    }
}

/* A FLOAT's or SMALLFLOAT's value at p: ST_VALUE, ST_NULL or ST_OTHER. */
static inline int store_double(uint8_t kind, const uint8_t *p, double *v) {
    if (kind == RG_F64) {
        uint64_t u = ixb_be64(p);
        memcpy(v, &u, 8);
        return u != NULL_F64 ? ST_VALUE : ST_NULL;
    }
    if (kind != RG_F32) return ST_OTHER;
    uint32_t u = ixb_be32(p);
    float f;
    memcpy(&f, &u, 4);
    *v = f;
    return u != NULL_F32 ? ST_VALUE : ST_NULL;
}

/* Column i's characters (its value at v) read in place into buf (cap
 * bytes, a NUL after them): ST_VALUE (*len set), ST_NULL, or ST_OTHER
 * (formatted or converted text, too long for its column or for cap). */
static inline __attribute__((always_inline)) int
store_text(const store_row *c, int i, const uint8_t *v, char *buf, size_t cap, int64_t *len) {
    const ixc_rpcol *pc = &c->col[i];
    const uint8_t *d;
    size_t n;
    if (pc->text_kind == RT_VAR1) { /* the common case: no end offset needed */
        if (v[0] == 1 && !v[1]) return ST_NULL;
        d = v + 1, n = v[0];
        if (n > pc->max_len) return ST_OTHER;
    } else {
        if (pc->text_kind == RT_OTHER) return ST_OTHER;
        size_t vn;
        const uint8_t *p = ixc_rowplan_value(c->plan, c->rec, i, &vn);
        if (ixc_rowplan_is_null(pc, p, vn)) return ST_NULL;
        if (plain_chars(pc, p, vn, &d, &n) != IX_OK) return ST_OTHER;
    }
    if (n >= cap) return ST_OTHER;
    ixc_rowplan_copy((uint8_t *)buf, d, n);
    buf[n] = 0;
    put_len(len, (int64_t)n);
    return ST_VALUE;
}

/* A DATE at p as three 16-bit integers: ST_VALUE or ST_NULL. */
static inline int store_date16(const uint8_t *p, char *buf) {
    uint32_t u = ixb_be32(p);
    if (u == NULL_I32) return ST_NULL;
    int y, m, d;
    ixt_date_to_ymd((int32_t)u, &y, &m, &d);
    uint16_t v[3] = {(uint16_t)y, (uint16_t)m, (uint16_t)d};
    memcpy(buf, v, sizeof v);
    return ST_VALUE;
}

/* How a destination kind reads a column of a get kind: one dense switch. */
enum { OP_OTHER = 0, OP_I32, OP_INT_I32, OP_INT_I64, OP_FLOAT, OP_TEXT, OP_DATE };
#define STORE_KINDS (IX_STORE_DATE16 + 1)
static const uint8_t STORE_OPS[STORE_KINDS][RG_OTHER + 1] = {
    [IX_STORE_INT32] =
        {[RG_I16] = OP_INT_I32, [RG_I32] = OP_I32, [RG_I64] = OP_INT_I32, [RG_INT8] = OP_INT_I32},
    [IX_STORE_INT64] = {[RG_I16] = OP_INT_I64,
                        [RG_I32] = OP_INT_I64,
                        [RG_I64] = OP_INT_I64,
                        [RG_INT8] = OP_INT_I64},
    [IX_STORE_DOUBLE] = {[RG_F32] = OP_FLOAT, [RG_F64] = OP_FLOAT},
    [IX_STORE_TEXT] = {[RG_OTHER] = OP_TEXT},
    [IX_STORE_DATE16] = {[RG_DATE] = OP_DATE},
};

/* A destination with its column's place and reading settled: made once for
 * a run of rows (ix_step_store), or for one value (ix_row_store). */
typedef struct store_op {
    uint8_t op, get; /* OP_*, the column's RG_* */
    uint16_t base;   /* the column's place (ixc_rpat) */
    uint32_t rel;
    int col;
    char *buf, *len;
    size_t step, len_step, cap;
} store_op;

/* Settles destination o for the statement's columns: 1, or 0 when its
 * values are left to the caller (a column out of range, another kind). */
static inline int store_compile(const store_row *c, const ix_store *o, store_op *x) {
    if ((unsigned)o->col >= c->ncols || (unsigned)o->kind >= STORE_KINDS) return 0;
    const ixc_rpat *a = &c->at[o->col];
    *x = (store_op){STORE_OPS[o->kind][a->get_kind],
                    a->get_kind,
                    a->base,
                    a->rel,
                    o->col,
                    (char *)o->buf,
                    (char *)o->len,
                    o->step,
                    o->len_step,
                    o->cap};
    return x->op != OP_OTHER;
}

/* One destination's value of the current row into row r: ST_VALUE,
 * ST_NULL or ST_OTHER (left to the caller). */
static inline __attribute__((always_inline)) int store_one(const store_row *c, const store_op *x,
                                                           size_t r) {
    const uint8_t *p = c->row + ixc_rowplan_word(c->rec + 4 * (size_t)x->base) + x->rel;
    char *buf = x->buf + r * x->step;
    int64_t *len = (int64_t *)(void *)(x->len + r * x->len_step);
    int64_t v;
    double f;
    int st;
    switch (x->op) {
    case OP_I32: {
        uint32_t u = ixb_be32(p);
        if (u == NULL_I32) break;
        memcpy(buf, &u, sizeof u);
        put_len(len, sizeof u);
        return ST_VALUE;
    }
    case OP_INT_I32:
        st = store_int(x->get, p, &v);
        if (st == ST_NULL) break;
        if (st != ST_VALUE || v < INT32_MIN || v > INT32_MAX) return ST_OTHER;
        int32_t w = (int32_t)v;
        memcpy(buf, &w, sizeof w);
        put_len(len, sizeof w);
        return ST_VALUE;
    case OP_INT_I64:
        st = store_int(x->get, p, &v);
        if (st == ST_NULL) break;
        if (st != ST_VALUE) return ST_OTHER;
        memcpy(buf, &v, sizeof v);
        put_len(len, sizeof v);
        return ST_VALUE;
    case OP_FLOAT:
        if (store_double(x->get, p, &f) == ST_NULL) break;
        memcpy(buf, &f, sizeof f);
        put_len(len, sizeof f);
        return ST_VALUE;
    case OP_TEXT:
        st = store_text(c, x->col, p, buf, x->cap, len);
        if (st != ST_NULL) return st;
        break;
    case OP_DATE:
        if (store_date16(p, buf) == ST_NULL) break;
        put_len(len, 3 * sizeof(uint16_t));
        return ST_VALUE;
    default: return ST_OTHER;
    }
    put_len(len, IX_STORE_NULL);
    return ST_NULL;
}

/* The statement's current row, as ix_row_store reads it. */
static inline store_row store_row_of(const ix_stmt *s) {
    return (store_row){s->row, s->rec, s->plan.at, s->plan.col, &s->plan, s->row_cols};
}

size_t ix_row_store(ix_stmt *s, const ix_store *d, size_t n, size_t r) {
    if (!s || !d) return 0;
    const store_row c = store_row_of(s);
    store_op x;
    for (size_t k = 0; k < n; k++)
        if (!store_compile(&c, &d[k], &x) || store_one(&c, &x, r) == ST_OTHER) return k;
    return n;
}

/* A destination whose values are left to the caller: its pointers (which
 * the caller may give as NULL) are never used, so they point at a place of
 * ours, as the store's address arithmetic wants. */
static char store_nowhere[8];
static const store_op STORE_LEFT = {.op = OP_OTHER, .buf = store_nowhere, .len = store_nowhere};

#define STORE_OPS_ON_STACK 16

/* The current row (c's row and record) into row r of the settled
 * destinations x[0..n), other(ctx, r, k) for each value left. */
static void store_row_ops(const store_row *c, const store_op *x, size_t n, size_t r,
                          ix_store_other_fn other, void *ctx) {
    for (size_t k = 0; k < n; k++)
        if (store_one(c, &x[k], r) == ST_OTHER) other(ctx, r, k);
}

int ix_step_store(ix_stmt *s, const ix_store *d, size_t n, size_t first, size_t nrows,
                  ix_store_other_fn other, void *ctx, size_t *got) {
    if (got) *got = 0;
    if (!s || (n && !d) || !other || !got) return IX_EMISUSE;
    store_op xs[STORE_OPS_ON_STACK];
    store_op *x = n <= STORE_OPS_ON_STACK ? xs : ixc_malloc(n * sizeof *x);
    int rc = x ? IX_ROW : IX_ENOMEM;
    store_row c = {0};
    for (size_t i = 0; rc == IX_ROW && i < nrows; i++) {
        rc = ix_step(s);
        if (rc != IX_ROW) break;
        c.row = s->row, c.rec = s->rec;
        if (i == 0) { /* the plan exists once a row came; a value left: OP_OTHER */
            c = store_row_of(s);
            for (size_t k = 0; k < n; k++)
                if (!store_compile(&c, &d[k], &x[k])) x[k] = STORE_LEFT;
        }
        store_row_ops(&c, x, n, first + i, other, ctx);
        *got = i + 1;
    }
    if (x != xs) ixc_free(x);
    return rc;
}
