/* ixv_value.c: the storage mapping of ixd (Informix value <-> SQLite value),
 * the string builder, type helpers, exact DECIMAL arithmetic on ixt_decimal,
 * and the conversions used by binds, fetches and literals. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/value/ixv.h"

/* ---- string builder ---------------------------------------------------------- */

static int sb_grow(sb *b, size_t more) {
    if (b->oom) return 0;
    if (b->n + more + 1 <= b->cap) return 1;
    size_t nc = b->cap ? b->cap : 64;
    while (nc < b->n + more + 1) {
        if (nc > (SIZE_MAX / 4)) {
            b->oom = 1;
            return 0;
        }
        nc *= 2;
    }
    char *np = realloc(b->p, nc);
    if (!np) {
        b->oom = 1;
        return 0;
    }
    b->p = np;
    b->cap = nc;
    return 1;
}

void ixv_sb_addn(sb *b, const char *s, size_t n) {
    if (!sb_grow(b, n)) return;
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
void ixv_sb_add(sb *b, const char *s) {
    ixv_sb_addn(b, s, strlen(s));
}
void ixv_sb_addc(sb *b, char c) {
    ixv_sb_addn(b, &c, 1);
}
void ixv_sb_printf(sb *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if ((size_t)k < sizeof tmp) {
        ixv_sb_addn(b, tmp, (size_t)k);
        return;
    }
    if (!sb_grow(b, (size_t)k)) return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}
int ixv_name_escaped(const char *name) {
    for (const char *q = name; *q; q++)
        if ((*q >= 'A' && *q <= 'Z') || *q == IXV_NAME_ESC) return 1;
    return 0;
}
/* Character c of a name as its storage name writes it (esc: the name is
 * escaped) into o: the count of bytes, 1 or 2. */
static size_t st_char(char c, int esc, char o[2]) {
    if (esc && (c == IXV_NAME_ESC || (c >= 'A' && c <= 'Z'))) {
        o[0] = IXV_NAME_ESC;
        o[1] = c == IXV_NAME_ESC ? c : (char)(c + ('a' - 'A'));
        return 2;
    }
    o[0] = c;
    return 1;
}
const char *ixv_stname(const char *name, char *buf, size_t n) {
    if (!ixv_name_escaped(name)) return name;
    size_t k = 0;
    for (const char *q = name; *q && k + 2 < n; q++)
        k += st_char(*q, 1, buf + k);
    buf[k] = 0;
    return buf;
}
void ixv_sb_unstname(sb *b, const char *s) {
    for (const char *q = s; *q; q++) {
        if (*q == IXV_NAME_ESC && q[1] == IXV_NAME_ESC) {
            q++;
        } else if (*q == IXV_NAME_ESC && q[1] >= 'a' && q[1] <= 'z') {
            ixv_sb_addc(b, (char)(*++q - ('a' - 'A')));
            continue;
        }
        ixv_sb_addn(b, q, 1);
    }
    if (!b->p) ixv_sb_addn(b, "", 0);
}
void ixv_sb_quoted(sb *b, const char *name) {
    ixv_sb_addc(b, '"');
    for (const char *q = name ? name : ""; *q; q++) {
        if (*q == '"') ixv_sb_addc(b, '"');
        ixv_sb_addc(b, *q);
    }
    ixv_sb_addc(b, '"');
}
void ixv_sb_ident(sb *b, const char *name) {
    int esc = ixv_name_escaped(name);
    ixv_sb_addc(b, '"');
    for (const char *q = name; *q; q++) {
        if (*q == '"') ixv_sb_addc(b, '"');
        char o[2];
        ixv_sb_addn(b, o, st_char(*q, esc, o));
    }
    ixv_sb_addc(b, '"');
}
void ixv_sb_strlit(sb *b, const char *s, size_t n) {
    ixv_sb_addc(b, '\'');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') ixv_sb_addc(b, '\'');
        if (s[i] == 0) continue; /* SQLite text literals cannot hold NUL */
        ixv_sb_addc(b, s[i]);
    }
    ixv_sb_addc(b, '\'');
}
void ixv_sb_free(sb *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}
char *ixv_sb_take(sb *b) {
    if (b->oom) {
        ixv_sb_free(b);
        return NULL;
    }
    if (!b->p) ixv_sb_addn(b, "", 0);
    char *p = b->p;
    memset(b, 0, sizeof *b);
    return p;
}

/* ---- types --------------------------------------------------------------------- */

int ixv_is_int(int c) {
    return c == IX_T_SMALLINT || c == IX_T_INTEGER || c == IX_T_SERIAL || c == IX_T_INT8 ||
           c == IX_T_SERIAL8 || c == IX_T_BIGINT || c == IX_T_BIGSERIAL;
}
int ixv_is_float(int c) {
    return c == IX_T_FLOAT || c == IX_T_SMALLFLOAT;
}
int ixv_is_dec(int c) {
    return c == IX_T_DECIMAL || c == IX_T_MONEY;
}
int ixv_is_numeric(int c) {
    return ixv_is_int(c) || ixv_is_float(c) || ixv_is_dec(c);
}
int ixv_is_char(int c) {
    return c == IX_T_CHAR || c == IX_T_NCHAR || c == IX_T_VARCHAR || c == IX_T_NVARCHAR ||
           c == IX_T_LVARCHAR || c == IX_T_TEXT;
}
ityp ixv_t(int code, uint32_t len) {
    ityp t = {code, len};
    return t;
}
ityp ixv_t_default(int code) {
    switch (code) {
    case IX_T_SMALLINT: return ixv_t(code, 2);
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_SMALLFLOAT: return ixv_t(code, 4);
    case IX_T_FLOAT:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return ixv_t(code, 8);
    case IX_T_INT8:
    case IX_T_SERIAL8: return ixv_t(code, 10);
    case IX_T_DECIMAL: return ixv_t(code, 16u << 8 | 0xff);
    case IX_T_MONEY: return ixv_t(code, 16u << 8 | 2);
    case IX_T_BOOLEAN: return ixv_t(code, 1);
    case IX_T_BLOB:
    case IX_T_CLOB: return ixv_t(code, 72);
    case IX_T_LVARCHAR: return ixv_t(code, 2048);
    case IX_T_CHAR:
    case IX_T_NCHAR: return ixv_t(code, 1);
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: return ixv_t(code, 1);
    case IX_T_BYTE:
    case IX_T_TEXT: return ixv_t(code, 56);
    case IX_T_DATETIME: return ixv_t(code, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(3)));
    default: return ixv_t(code, 0);
    }
}
int ixv_desc_code(int code, const char **xname) {
    if (xname) *xname = NULL;
    if (code == IX_T_LVARCHAR) {
        if (xname) *xname = "lvarchar";
        return IX_T_UDTVAR;
    }
    if (code == IX_T_BOOLEAN || ixv_lob_is(code)) {
        if (xname) *xname = code == IX_T_BLOB ? "blob" : code == IX_T_CLOB ? "clob" : "boolean";
        return IX_T_UDTFIXED;
    }
    return code;
}

/* A unit's name; "FRACTION" for the fraction codes. */
static const char *unit_name(int u) {
    const char *n = ixt_tu_name(u);
    return n ? n : "FRACTION";
}

void ixv_type_text(ityp t, char *buf, size_t n) {
    switch (t.code) {
    case IX_T_DECIMAL:
    case IX_T_MONEY:
        if ((t.len & 0xff) == 0xff)
            snprintf(buf, n, "%s(%u)", ixt_type_name(t.code), t.len >> 8);
        else
            snprintf(buf, n, "%s(%u,%u)", ixt_type_name(t.code), t.len >> 8, t.len & 0xff);
        return;
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: snprintf(buf, n, "%s(%u)", ixt_type_name(t.code), t.len & 0xffff); return;
    case IX_T_DATETIME:
    case IX_T_INTERVAL: {
        int s = IXT_QUAL_START(t.len), e = IXT_QUAL_END(t.len);
        char es[16];
        if (e > IXT_TU_SECOND)
            snprintf(es, sizeof es, "FRACTION(%d)", e - 10);
        else
            snprintf(es, sizeof es, "%s", unit_name(e));
        snprintf(buf, n, "%s %s TO %s", ixt_type_name(t.code), unit_name(s), es);
        return;
    }
    default: snprintf(buf, n, "%s", t.code < 0 ? "UNKNOWN" : ixt_type_name(t.code)); return;
    }
}

/* ---- storage values ---------------------------------------------------------------- */

void ixv_sval_free(sval *v) {
    if (v->own) free(v->own);
    memset(v, 0, sizeof *v);
}

static int sval_own(sval *v, int kind, const void *p, size_t n) {
    v->kind = kind;
    v->own = malloc(n + 1);
    if (!v->own) return IXV_E_NOMEM;
    if (n) memcpy(v->own, p, n);
    v->own[n] = 0;
    v->p = v->own;
    v->n = n;
    return 0;
}

void ixv_sval_from_sqlite(sval *v, sqlite3_value *x) {
    memset(v, 0, sizeof *v);
    v->kind = sqlite3_value_type(x);
    switch (v->kind) {
    case SQLITE_INTEGER: v->i = sqlite3_value_int64(x); break;
    case SQLITE_FLOAT: v->d = sqlite3_value_double(x); break;
    case SQLITE_TEXT:
        v->p = sqlite3_value_text(x);
        v->n = (size_t)sqlite3_value_bytes(x);
        if (!v->p) v->kind = SQLITE_NULL;
        break;
    case SQLITE_BLOB:
        v->p = sqlite3_value_blob(x);
        v->n = (size_t)sqlite3_value_bytes(x);
        if (!v->p) v->p = (const uint8_t *)"";
        break;
    default: v->kind = SQLITE_NULL;
    }
}

void ixv_sval_from_column(sval *v, sqlite3_stmt *st, int i) {
    ixv_sval_from_sqlite(v, sqlite3_column_value(st, i));
}

int ixv_sval_bind(const sval *v, sqlite3_stmt *st, int idx) {
    switch (v->kind) {
    case SQLITE_INTEGER: return sqlite3_bind_int64(st, idx, v->i);
    case SQLITE_FLOAT: return sqlite3_bind_double(st, idx, v->d);
    case SQLITE_TEXT:
        return sqlite3_bind_text(st, idx, (const char *)v->p, (int)v->n, SQLITE_TRANSIENT);
    case SQLITE_BLOB: return sqlite3_bind_blob(st, idx, v->p, (int)v->n, SQLITE_TRANSIENT);
    default: return sqlite3_bind_null(st, idx);
    }
}

int ixv_sval_bind_static(const sval *v, sqlite3_stmt *st, int idx) {
    switch (v->kind) {
    case SQLITE_TEXT:
        return sqlite3_bind_text(st, idx, (const char *)v->p, (int)v->n, SQLITE_STATIC);
    case SQLITE_BLOB: return sqlite3_bind_blob(st, idx, v->p, (int)v->n, SQLITE_STATIC);
    default: return ixv_sval_bind(v, st, idx);
    }
}

void ixv_sval_result(const sval *v, sqlite3_context *ctx) {
    switch (v->kind) {
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, v->i); break;
    case SQLITE_FLOAT: sqlite3_result_double(ctx, v->d); break;
    case SQLITE_TEXT:
        sqlite3_result_text(ctx, (const char *)v->p, (int)v->n, SQLITE_TRANSIENT);
        break;
    case SQLITE_BLOB: sqlite3_result_blob(ctx, v->p, (int)v->n, SQLITE_TRANSIENT); break;
    default: sqlite3_result_null(ctx);
    }
}

void ixv_sval_sql(const sval *v, sb *out) {
    switch (v->kind) {
    case SQLITE_INTEGER: ixv_sb_printf(out, "%lld", (long long)v->i); break;
    case SQLITE_FLOAT:
        if (isinf(v->d))
            ixv_sb_add(out, v->d > 0 ? "9e999" : "-9e999");
        else if (isnan(v->d))
            ixv_sb_add(out, "NULL");
        else if (v->d == 0 && signbit(v->d))
            ixv_sb_add(out, "(-0.0)");
        else
            ixv_sb_printf(out, "%.17g", v->d);
        if (v->d == floor(v->d) && isfinite(v->d) && v->d != 0 && fabs(v->d) < 1e17)
            ixv_sb_add(out, ".0");
        break;
    case SQLITE_TEXT: ixv_sb_strlit(out, (const char *)v->p, v->n); break;
    case SQLITE_BLOB:
        ixv_sb_add(out, "X'");
        for (size_t i = 0; i < v->n; i++)
            ixv_sb_printf(out, "%02X", v->p[i]);
        ixv_sb_addc(out, '\'');
        break;
    default: ixv_sb_add(out, "NULL");
    }
}

/* ---- decimal helpers ------------------------------------------------------------------ */

void ixv_dec_to_blob(const ixt_decimal *d, uint8_t *buf, size_t *n) {
    size_t w = (size_t)d->ndig + 1;
    if (ixt_dec_pack(d, w, buf) != IX_OK) {
        buf[0] = 0x80;
        w = 1;
    }
    *n = w;
}

int ixv_dec_from_sval(const sval *v, ixt_decimal *d) {
    switch (v->kind) {
    case SQLITE_NULL: ixt_dec_null(d); return 1;
    case SQLITE_INTEGER: ixt_dec_from_i64(d, v->i); return 0;
    case SQLITE_FLOAT:
        if (ixt_dec_from_double(d, v->d) != IX_OK) return IXV_E_DEC_PREC;
        return 0;
    case SQLITE_TEXT: {
        int rc = ixt_dec_from_text(d, (const char *)v->p, v->n);
        if (rc == IX_ERANGE) return IXV_E_DEC_PREC;
        if (rc != IX_OK) return IXV_E_CONVERT;
        return 0;
    }
    default: {
        if (v->n == 0 || v->n > 18) return IXV_E_CONVERT;
        uint8_t tmp[18];
        memset(tmp, 0, sizeof tmp);
        memcpy(tmp, v->p, v->n);
        size_t w = v->n < 2 ? 2 : v->n;
        int rc = ixt_dec_decode(d, tmp, w);
        if (rc == IX_NULL_VALUE) return 1;
        if (rc != IX_OK) return IXV_E_CONVERT;
        return 0;
    }
    }
}

/* The exact arithmetic is the types layer's (ixt_dec_add, _mul, _div):
 * its status as the SQLCODE of the SQL operation. */
static int dec_sqlcode(int rc) {
    return rc == IX_OK           ? 0
           : rc == IX_NULL_VALUE ? 1
           : rc == IX_EINVAL     ? IXV_E_DIV_ZERO
                                 : IXV_E_DEC_PREC;
}

int ixv_dec_add(const ixt_decimal *x, const ixt_decimal *y, int sub, ixt_decimal *r) {
    return dec_sqlcode(ixt_dec_add(x, y, sub, r));
}

int ixv_dec_mul(const ixt_decimal *x, const ixt_decimal *y, ixt_decimal *r) {
    return dec_sqlcode(ixt_dec_mul(x, y, r));
}

int ixv_dec_div(const ixt_decimal *x, const ixt_decimal *y, ixt_decimal *r) {
    return dec_sqlcode(ixt_dec_div(x, y, r));
}

/* ---- conversions ---------------------------------------------------------------------- */

int ixv_cvt_code(ityp to, int rc) {
    switch (to.code) {
    case IX_T_SMALLINT: return rc == IX_ERANGE ? IXV_E_SMALLINT_RANGE : IXV_E_CONVERT;
    case IX_T_INTEGER:
    case IX_T_SERIAL: return rc == IX_ERANGE ? IXV_E_INT_RANGE : IXV_E_CONVERT;
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return rc == IX_ERANGE ? IXV_E_INT_RANGE : IXV_E_CONVERT;
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: return rc == IX_ERANGE ? IXV_E_DEC_PREC : IXV_E_CONVERT;
    case IX_T_DECIMAL:
    case IX_T_MONEY: return rc == IX_ERANGE ? IXV_E_DEC_PREC : IXV_E_CONVERT;
    case IX_T_DATE: return rc == IX_ERANGE ? IXV_E_BAD_DAY : IXV_E_NOT_DATE;
    case IX_T_DATETIME:
    case IX_T_INTERVAL: return rc == IX_ERANGE ? IXV_E_DT_FIELD : IXV_E_DT_CHAR;
    case IX_T_BOOLEAN: return IXV_E_CONVERT;
    default: return IXV_E_CONVERT;
    }
}

static int dt_from_text(uint32_t q, const sval *v, ixt_datetime *dt) {
    if (v->kind != SQLITE_TEXT) return IXV_E_DT_CHAR;
    int rc = ixt_dt_parse(q, (const char *)v->p, v->n, dt);
    if (rc != IX_OK) return rc == IX_ERANGE ? IXV_E_DT_FIELD : IXV_E_DT_CHAR;
    return 0;
}

static int iv_is_ym(uint32_t q) {
    return IXT_QUAL_START(q) <= IXT_TU_MONTH;
}

int ixv_tuple_to_sval(ityp t, const uint8_t *p, size_t n, sval *out) {
    if (ixv_lob_is(t.code)) return ixv_lob_tuple_to_sval(t, p, n, out);
    memset(out, 0, sizeof *out);
    ixt_vtype vt = {t.code, t.len};
    int z = ixt_value_is_null(vt, p, n);
    if (z < 0) return IXV_E_CONVERT;
    if (z) {
        out->kind = SQLITE_NULL;
        return 0;
    }
    switch (t.code) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_DATE:
        out->kind = SQLITE_INTEGER;
        return ixt_value_get_int(vt, p, n, &out->i) == IX_OK ? 0 : IXV_E_CONVERT;
    case IX_T_BOOLEAN: {
        int b;
        if (ixt_value_get_bool(vt, p, n, &b) != IX_OK) return IXV_E_CONVERT;
        out->kind = SQLITE_INTEGER;
        out->i = b ? 1 : 0;
        return 0;
    }
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
        out->kind = SQLITE_FLOAT;
        return ixt_value_get_double(vt, p, n, &out->d) == IX_OK ? 0 : IXV_E_CONVERT;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal d;
        if (ixt_dec_decode(&d, p, n) != IX_OK) return IXV_E_CONVERT;
        uint8_t buf[20];
        size_t bn;
        ixv_dec_to_blob(&d, buf, &bn);
        return sval_own(out, SQLITE_BLOB, buf, bn);
    }
    case IX_T_DATETIME: {
        ixt_datetime dt;
        if (ixt_dt_decode(t.len, p, n, &dt) != IX_OK) return IXV_E_DT_CHAR;
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        int rc = ixt_dt_format(t.len, &dt, &b);
        int r = rc == IX_OK ? sval_own(out, SQLITE_TEXT, b.data, b.len) : IXV_E_DT_CHAR;
        ixb_wbuf_free(&b);
        return r;
    }
    case IX_T_INTERVAL: {
        ixt_interval iv;
        if (ixt_iv_decode(t.len, p, n, &iv) != IX_OK) return IXV_E_DT_CHAR;
        out->kind = SQLITE_INTEGER;
        out->i = iv.sign * (iv_is_ym(t.len) ? iv.months : iv.units);
        return 0;
    }
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *d;
        size_t len;
        if (ixt_value_get_bytes(vt, p, n, &d, &len) != IX_OK) return IXV_E_CONVERT;
        if (t.code == IX_T_CHAR || t.code == IX_T_NCHAR)
            while (len > 0 && d[len - 1] == ' ')
                len--;
        return sval_own(out, SQLITE_TEXT, d, len);
    }
    default: return IXV_E_BLOB_CONVERT; /* BYTE/TEXT values travel outside tuples */
    }
}

size_t ixv_text_width(ityp t) {
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR: return (t.len & 0xffff) ? (t.len & 0xffff) : 1;
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: return (t.len & 0xff) ? (t.len & 0xff) : 255;
    default: return t.len ? t.len : 2048; /* LVARCHAR */
    }
}

static int put_text_type(ityp t, const uint8_t *s, size_t n, ixb_wbuf *out) {
    size_t w = ixv_text_width(t);
    if (n > w) n = w;
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR: {
        ixb_put_bytes(out, s, n);
        for (size_t i = n; i < w; i++)
            ixb_put_u8(out, ' ');
        return 0;
    }
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: {
        ixb_put_u8(out, (uint8_t)n);
        ixb_put_bytes(out, s, n);
        return 0;
    }
    default: { /* LVARCHAR */
        ixb_put_u8(out, 0);
        ixb_put_i32(out, (int64_t)n);
        ixb_put_bytes(out, s, n);
        return 0;
    }
    }
}

int ixv_int_fits(int code, int64_t v) {
    switch (code) {
    case IX_T_SMALLINT: return v > -32768 && v <= 32767;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE: return v > INT32_MIN && v <= INT32_MAX;
    default: return v != INT64_MIN;
    }
}

/* ---- values stored into a column ---------------------------------------------------------- */

enum {
    IXS_E_IV_OVERFLOW =
        IXV_E_DT_OVERFLOW, /* Overflow occurred on a datetime or interval operation. */
};

size_t ixv_store_text_len(ityp t, const uint8_t *s, size_t n) {
    size_t w = ixv_is_char(t.code) && t.code != IX_T_TEXT ? ixv_text_width(t) : n;
    if (n <= w) return n;
    if (t.code == IX_T_CHAR || t.code == IX_T_NCHAR)
        while (w > 0 && s[w - 1] == ' ')
            w--;
    return w;
}

int ixv_store_check(ityp t, const sval *v) {
    if (v->kind == SQLITE_NULL) return 0;
    if (v->kind == SQLITE_INTEGER && ixv_is_int(t.code))
        return ixv_int_fits(t.code, v->i) ? 0 : ixv_cvt_code(t, IX_ERANGE);
    if (v->kind == SQLITE_INTEGER && t.code == IX_T_DATE)
        return v->i >= IXT_DATE_MIN && v->i <= IXT_DATE_MAX ? 0 : ixv_cvt_code(t, IX_ERANGE);
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int rc = ixv_sval_to_tuple(t, v, &b);
    ixb_wbuf_free(&b);
    return rc < 0 && t.code == IX_T_INTERVAL ? IXS_E_IV_OVERFLOW : rc;
}

int ixv_sval_to_tuple(ityp t, const sval *v, ixb_wbuf *out) {
    if (ixv_lob_is(t.code)) return ixv_lob_sval_to_tuple(t, v, out);
    ixt_vtype vt = {t.code, t.len};
    if (v->kind == SQLITE_NULL) {
        if (t.code == IX_T_LVARCHAR || t.code == IX_T_BOOLEAN) {
            ixb_put_u8(out, 1);
            ixb_put_i32(out, 0);
            return 0;
        }
        if (t.code == IX_T_BYTE || t.code == IX_T_TEXT)
            return ixt_value_put_null(vt, out) ? IXV_E_BLOB_CONVERT : 0;
        return ixt_value_put_null(vt, out) == IX_OK ? 0 : IXV_E_CONVERT;
    }
    switch (t.code) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_DATE: {
        int64_t x;
        if (v->kind == SQLITE_INTEGER) {
            x = v->i;
        } else if (v->kind == SQLITE_FLOAT) {
            if (!(v->d >= -9.2e18 && v->d <= 9.2e18)) return ixv_cvt_code(t, IX_ERANGE);
            x = (int64_t)v->d;
        } else {
            ixt_decimal d;
            int rc = ixv_dec_from_sval(v, &d);
            if (rc)
                return rc < 0 ? ixv_cvt_code(t, rc == IXV_E_DEC_PREC ? IX_ERANGE : IX_EINVAL) : 0;
            if (ixt_dec_to_i64(&d, &x) != IX_OK) return ixv_cvt_code(t, IX_ERANGE);
        }
        if (!ixv_int_fits(t.code, x)) return ixv_cvt_code(t, IX_ERANGE);
        if (t.code == IX_T_DATE && (x < IXT_DATE_MIN || x > IXT_DATE_MAX)) return IXV_E_BAD_DAY;
        return ixt_value_put_int(vt, x, out) == IX_OK ? 0 : ixv_cvt_code(t, IX_ERANGE);
    }
    case IX_T_BOOLEAN: {
        int64_t x = v->kind == SQLITE_INTEGER ? v->i : v->kind == SQLITE_FLOAT ? (v->d != 0) : -1;
        if (v->kind == SQLITE_TEXT && v->n >= 1) {
            char c = (char)v->p[0];
            x = (c == 't' || c == 'T' || c == '1')   ? 1
                : (c == 'f' || c == 'F' || c == '0') ? 0
                                                     : -1;
        }
        if (x < 0) return IXV_E_CONVERT;
        return ixt_value_put_bool(vt, x != 0, out) == IX_OK ? 0 : IXV_E_CONVERT;
    }
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: {
        double x;
        if (v->kind == SQLITE_FLOAT)
            x = v->d;
        else if (v->kind == SQLITE_INTEGER)
            x = (double)v->i;
        else {
            ixt_decimal d;
            int rc = ixv_dec_from_sval(v, &d);
            if (rc) return rc < 0 ? rc : 0;
            ixt_dec_to_double(&d, &x);
        }
        return ixt_value_put_double(vt, x, out) == IX_OK ? 0 : IXV_E_DEC_PREC;
    }
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal d;
        int rc = ixv_dec_from_sval(v, &d);
        if (rc < 0) return rc;
        int p = (int)(t.len >> 8), s = (int)(t.len & 0xff);
        rc = ixt_dec_encode(&d, p, s, out);
        if (rc == IX_ERANGE) return IXV_E_DEC_PREC;
        return rc == IX_OK ? 0 : IXV_E_CONVERT;
    }
    case IX_T_DATETIME: {
        ixt_datetime dt;
        int rc = dt_from_text(t.len, v, &dt);
        if (rc) return rc;
        return ixt_dt_encode(t.len, &dt, out) == IX_OK ? 0 : IXV_E_DT_FIELD;
    }
    case IX_T_INTERVAL: {
        if (v->kind != SQLITE_INTEGER) return IXV_E_DT_CHAR;
        ixt_interval iv;
        iv.sign = v->i < 0 ? -1 : 1;
        int64_t mag = v->i < 0 ? -v->i : v->i;
        if (v->i == INT64_MIN) return IXV_E_DT_FIELD;
        iv.months = iv_is_ym(t.len) ? mag : 0;
        iv.units = iv_is_ym(t.len) ? 0 : mag;
        int rc = ixt_iv_encode(t.len, &iv, out);
        return rc == IX_OK ? 0 : IXV_E_DT_FIELD;
    }
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        if (v->kind == SQLITE_TEXT || v->kind == SQLITE_BLOB)
            return put_text_type(t, v->p, v->n, out);
        char tmp[64];
        int k = v->kind == SQLITE_INTEGER ? snprintf(tmp, sizeof tmp, "%lld", (long long)v->i)
                                          : snprintf(tmp, sizeof tmp, "%.15g", v->d);
        return put_text_type(t, (const uint8_t *)tmp, (size_t)k, out);
    }
    case IX_T_BYTE:
    case IX_T_TEXT: return ixt_value_put_null(vt, out) == IX_OK ? 0 : IXV_E_BLOB_CONVERT;
    default: return IXV_E_CONVERT;
    }
}

/*
 * The implicit conversions Informix makes from text that the value parser
 * refuses: a DATE in the DBDATE order with any of the separators '/', '-'
 * and '.' ('03-27-1982'), and a number with a fraction into an integer type
 * (truncated toward zero: '11.22' is 11). Returns 0, 1 when s is not such a
 * text, or a negative SQLCODE.
 */
static int text_lenient(ityp t, const char *s, size_t n, sval *out) {
    if (t.code == IX_T_DATE && n < 64) {
        char b[64];
        int changed = 0;
        for (size_t i = 0; i < n; i++) {
            b[i] = s[i] == '-' || s[i] == '.' ? '/' : s[i];
            changed |= b[i] != s[i];
        }
        int32_t days;
        if (!changed || ixt_date_parse(b, n, NULL, &days) != IX_OK) return 1;
        out->kind = SQLITE_INTEGER;
        out->i = days;
        return 0;
    }
    if (ixv_is_int(t.code) && n < 64 && memchr(s, '.', n)) {
        ixt_decimal d;
        int64_t x;
        if (ixt_dec_from_text(&d, s, n) != IX_OK) return 1;
        if (ixt_dec_to_i64(&d, &x) != IX_OK || !ixv_int_fits(t.code, x))
            return ixv_cvt_code(t, IX_ERANGE);
        out->kind = SQLITE_INTEGER;
        out->i = x;
        return 0;
    }
    return 1;
}

int ixv_text_to_sval(ityp t, const char *s, size_t n, sval *out) {
    memset(out, 0, sizeof *out);
    if (ixv_is_char(t.code) && t.code != IX_T_TEXT) {
        size_t len = n;
        if (t.code == IX_T_CHAR || t.code == IX_T_NCHAR) {
            size_t w = t.len & 0xffff;
            if (w && len > w) len = w;
            while (len > 0 && s[len - 1] == ' ')
                len--;
        } else if (t.code != IX_T_LVARCHAR) {
            size_t w = t.len & 0xff;
            if (w && len > w) len = w;
        } else if (t.len && len > t.len) {
            len = t.len;
        }
        return sval_own(out, SQLITE_TEXT, s, len);
    }
    if (t.code == IX_T_TEXT) return sval_own(out, SQLITE_TEXT, s, n);
    if (t.code == IX_T_BYTE) return sval_own(out, SQLITE_BLOB, s, n);
    if (t.code == IX_T_DECIMAL && (t.len & 0xff) == 0xff) {
        /* floating decimal: keep every digit (up to 32) */
        ixt_decimal d;
        int rc = ixt_dec_from_text(&d, s, n);
        if (rc != IX_OK) return ixv_cvt_code(t, rc);
        uint8_t buf[20];
        size_t bn;
        ixv_dec_to_blob(&d, buf, &bn);
        return sval_own(out, SQLITE_BLOB, buf, bn);
    }
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixt_vtype vt = {t.code, t.len};
    int rc = ixt_value_parse(vt, s, n, NULL, &b);
    int r;
    if (rc == IX_EINVAL && (t.code == IX_T_DATETIME || t.code == IX_T_INTERVAL) && n <= 64) {
        /* a valid value followed by junk: -1264 */
        r = ixv_cvt_code(t, rc);
        for (size_t k = n; k-- > 1;) {
            ixb_wbuf_reset(&b);
            if (ixt_value_parse(vt, s, k, NULL, &b) == IX_OK) {
                r = IXV_E_DT_EXTRA;
                break;
            }
        }
    } else if (rc != IX_OK) {
        r = text_lenient(t, s, n, out);
        if (r == 1) r = ixv_cvt_code(t, rc);
    } else
        r = ixv_tuple_to_sval(t, b.data, b.len, out);
    ixb_wbuf_free(&b);
    return r;
}

int ixv_sval_to_text(ityp t, const sval *v, ixb_wbuf *out) {
    if (v->kind == SQLITE_NULL) return 1;
    if (ixv_lob_is(t.code)) return IXV_E_NO_CAST; /* a LOB has no text: LOTOFILE or SQ_LODATA */
    if (ixv_is_char(t.code) || t.code < 0 || t.code == IX_T_BYTE) {
        if (v->kind == SQLITE_TEXT || v->kind == SQLITE_BLOB) {
            ixb_put_bytes(out, v->p, v->n);
        } else if (v->kind == SQLITE_INTEGER) {
            char tmp[32];
            int k = snprintf(tmp, sizeof tmp, "%lld", (long long)v->i);
            ixb_put_bytes(out, tmp, (size_t)k);
        } else {
            char tmp[40];
            int k = snprintf(tmp, sizeof tmp, "%.15g", v->d);
            ixb_put_bytes(out, tmp, (size_t)k);
        }
        return 0;
    }
    if (t.code == IX_T_DECIMAL && (t.len & 0xff) == 0xff) {
        ixt_decimal d;
        int rc = ixv_dec_from_sval(v, &d);
        if (rc) return rc < 0 ? rc : 1;
        ixt_dec_to_text(&d, -1, out);
        return 0;
    }
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int rc = ixv_sval_to_tuple(t, v, &b);
    if (rc == 0) {
        ixt_vtype vt = {t.code, t.len};
        int k = ixt_value_format(vt, b.data, b.len, NULL, out);
        if (k == IX_NULL_VALUE)
            rc = 1;
        else if (k != IX_OK)
            rc = IXV_E_CONVERT;
        else if (t.code == IX_T_MONEY) {
            /* MONEY text without the currency symbol, as a number */
        }
    }
    ixb_wbuf_free(&b);
    return rc;
}

/* Storage class of a type: 'i' integer, 'f' real, 'd' decimal blob, 't'
 * text, 'b' blob. */
static int sclass(int code) {
    if (ixv_is_int(code) || code == IX_T_DATE || code == IX_T_BOOLEAN || code == IX_T_INTERVAL ||
        ixv_lob_is(code))
        return 'i';
    if (ixv_is_float(code)) return 'f';
    if (ixv_is_dec(code)) return 'd';
    if (code == IX_T_BYTE) return 'b';
    return 't';
}

/*
 * DATETIME to DATETIME and INTERVAL to INTERVAL of another qualifier, as
 * Informix converts a bound value into a column: DATETIME fields below the
 * source's end are zero, fields above its start come from the current local
 * time (EXTEND); an INTERVAL keeps its value (same class only) and fails if
 * it does not fit the target's leading precision. Returns 0, 1 if this is not
 * such a conversion, or a negative SQLCODE.
 */
static int convert_temporal(ityp from, const sval *v, ityp to, sval *out) {
    if (from.code != to.code || from.len == to.len ||
        (to.code != IX_T_DATETIME && to.code != IX_T_INTERVAL))
        return 1;
    ixb_wbuf a, b;
    ixb_wbuf_init(&a, NULL);
    ixb_wbuf_init(&b, NULL);
    int rc = ixv_sval_to_tuple(from, v, &a);
    if (rc == 0 && to.code == IX_T_DATETIME) {
        ixt_datetime dt;
        rc = ixt_dt_decode(from.len, a.data, a.len, &dt) == IX_OK ? 0 : IXV_E_DT_FIELD;
        int fs = (int)((from.len >> 4) & 15), ts = (int)((to.len >> 4) & 15);
        if (rc == 0 && ts < fs) {
            time_t now = time(NULL);
            struct tm tm;
            localtime_r(&now, &tm);
            int cur[5] = {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min};
            int *f[5] = {&dt.year, &dt.month, &dt.day, &dt.hour, &dt.minute};
            for (int k = 0; k < 5 && 2 * k < fs; k++)
                *f[k] = cur[k];
        }
        if (rc == 0) rc = ixt_dt_encode(to.len, &dt, &b) == IX_OK ? 0 : IXV_E_DT_FIELD;
    } else if (rc == 0) {
        ixt_interval iv;
        rc = ixt_iv_decode(from.len, a.data, a.len, &iv) == IX_OK ? 0 : IXV_E_DT_FIELD;
        int ym_from = ((from.len >> 4) & 15) <= 2, ym_to = ((to.len >> 4) & 15) <= 2;
        if (rc == 0 && ym_from != ym_to)
            rc = IXV_E_DT_INCOMPATIBLE; /* incompatible interval classes */
        if (rc == 0) rc = ixt_iv_encode(to.len, &iv, &b) == IX_OK ? 0 : IXV_E_DT_OVERFLOW;
    }
    if (rc == 0) rc = ixv_tuple_to_sval(to, b.data, b.len, out);
    ixb_wbuf_free(&a);
    ixb_wbuf_free(&b);
    return rc;
}

/* A number as FLOAT or SMALLFLOAT: a SMALLFLOAT out of float range is
 * -1226, as a fetch of it would be. */
static int num_to_float(const sval *v, ityp to, sval *out) {
    out->kind = SQLITE_FLOAT;
    if (v->kind == SQLITE_INTEGER)
        out->d = (double)v->i;
    else if (v->kind == SQLITE_FLOAT)
        out->d = v->d;
    else {
        ixt_decimal d;
        int rc = ixv_dec_from_sval(v, &d);
        if (rc < 0) return rc;
        ixt_dec_to_double(&d, &out->d);
    }
    if (to.code == IX_T_SMALLFLOAT && isfinite(out->d) && isinf((float)out->d))
        return ixv_cvt_code(to, IX_ERANGE);
    return 0;
}

int ixv_convert(ityp from, const sval *v, ityp to, sval *out) {
    memset(out, 0, sizeof *out);
    if (v->kind == SQLITE_NULL) return 0;
    if (ixv_lob_is(from.code) || ixv_lob_is(to.code)) return ixv_lob_convert(from, v, to, out);
    int fc = sclass(from.code), tc = sclass(to.code);
    /* numeric to numeric without text */
    if (ixv_is_numeric(from.code) && ixv_is_numeric(to.code)) {
        if (tc == 'd') {
            ixt_decimal d;
            int rc = ixv_dec_from_sval(v, &d);
            if (rc < 0) return rc;
            if ((to.len & 0xff) != 0xff) {
                ixt_dec_round(&d, (int)(to.len & 0xff));
                int intd = (int)(to.len >> 8) - (int)(to.len & 0xff);
                int pt;
                if (ixt_dec_digits(&d, &pt) && pt > intd) return IXV_E_DEC_PREC;
            }
            uint8_t buf[20];
            size_t bn;
            ixv_dec_to_blob(&d, buf, &bn);
            return sval_own(out, SQLITE_BLOB, buf, bn);
        }
        if (tc == 'f') return num_to_float(v, to, out);
        /* to integer */
        int64_t x;
        if (v->kind == SQLITE_INTEGER)
            x = v->i;
        else if (v->kind == SQLITE_FLOAT) {
            if (!(v->d >= -9.2e18 && v->d <= 9.2e18)) return ixv_cvt_code(to, IX_ERANGE);
            x = (int64_t)v->d;
        } else {
            ixt_decimal d;
            int rc = ixv_dec_from_sval(v, &d);
            if (rc < 0) return rc;
            if (ixt_dec_to_i64(&d, &x) != IX_OK) return ixv_cvt_code(to, IX_ERANGE);
        }
        if (!ixv_int_fits(to.code, x)) return ixv_cvt_code(to, IX_ERANGE);
        out->kind = SQLITE_INTEGER;
        out->i = x;
        return 0;
    }
    if (from.code == to.code && fc == tc &&
        (from.len == to.len || ixv_is_char(to.code) || to.code == IX_T_BOOLEAN ||
         to.code == IX_T_DATE)) {
        if (v->kind == SQLITE_TEXT || v->kind == SQLITE_BLOB) {
            size_t n = v->n;
            if (ixv_is_char(to.code) && to.code != IX_T_TEXT && to.code != IX_T_LVARCHAR) {
                size_t w = (to.code == IX_T_CHAR || to.code == IX_T_NCHAR) ? (to.len & 0xffff)
                                                                           : (to.len & 0xff);
                if (w && n > w) n = w;
            }
            return sval_own(out, v->kind, v->p, n);
        }
        *out = *v;
        out->own = NULL;
        return 0;
    }
    if (ixv_is_char(to.code) && ixv_is_char(from.code)) {
        if (v->kind == SQLITE_TEXT || v->kind == SQLITE_BLOB)
            return ixv_text_to_sval(to, (const char *)v->p, v->n, out);
    }
    int trc = convert_temporal(from, v, to, out);
    if (trc != 1) return trc;
    if (to.code == IX_T_DATE && ixv_is_numeric(from.code)) {
        /* a number is a day count (1 = 1900-01-01), truncated */
        int rc = ixv_convert(from, v, ixv_t(IX_T_INTEGER, 4), out);
        if (rc == 0 && (out->i < IXT_DATE_MIN || out->i > IXT_DATE_MAX)) rc = IXV_E_BAD_DAY;
        return rc;
    }
    /* through text */
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int rc;
    if (ixv_is_char(from.code) || from.code < 0) {
        if (v->kind == SQLITE_TEXT || v->kind == SQLITE_BLOB)
            ixb_put_bytes(&b, v->p, v->n);
        else
            ixv_sval_to_text(ixv_t(-1, 0), v, &b);
        rc = 0;
    } else {
        rc = ixv_sval_to_text(from, v, &b);
    }
    if (rc == 1) {
        out->kind = SQLITE_NULL;
        rc = 0;
    } else if (rc == 0) {
        if (ixv_is_numeric(to.code) || to.code == IX_T_DATE || to.code == IX_T_DATETIME ||
            to.code == IX_T_INTERVAL || to.code == IX_T_BOOLEAN) {
            /* trim blanks of CHAR text */
            size_t n = b.len;
            while (n > 0 && b.data[n - 1] == ' ')
                n--;
            rc = ixv_text_to_sval(to, (const char *)b.data, n, out);
        } else {
            rc = ixv_text_to_sval(to, (const char *)(b.data ? b.data : (uint8_t *)""), b.len, out);
        }
    }
    ixb_wbuf_free(&b);
    return rc;
}
