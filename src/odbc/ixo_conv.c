/*
 * ixo_conv.c: the ODBC description of Informix types and the conversions
 * between the driver's values (ixo_val) and the application's C buffers
 * (docs/odbc.md "Types"). No handle, no I/O, no allocation but the
 * statement's scratch buffer.
 */
#include "ixo_conv.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* room for the text of any number, date or time value */
#define NUMTEXT 200
/* SMALLFLOAT and FLOAT: the digits that always give the value back */
#define REAL_DIGITS   9
#define DOUBLE_DIGITS 17

/* ---- types ----------------------------------------------------------------- */

static void num(ixo_typeinfo *o, SQLSMALLINT t, SQLULEN size, SQLSMALLINT digits, SQLLEN octets,
                SQLLEN display, SQLSMALLINT c, const char *name) {
    o->sql_type = t;
    o->column_size = size;
    o->digits = digits;
    o->octet_length = octets;
    o->display_size = display;
    o->c_default = c;
    o->radix = 10;
    o->unsigned_ = 0;
    o->type_name = name;
}

static void chars(ixo_typeinfo *o, SQLSMALLINT t, SQLULEN size, SQLSMALLINT c, const char *name) {
    o->sql_type = t;
    o->column_size = size;
    o->digits = 0;
    o->octet_length = (SQLLEN)size;
    o->display_size =
        (SQLLEN)(c == SQL_C_BINARY && size < (SQLULEN)INT32_MAX / 2 ? size * 2 : size);
    o->c_default = c;
    o->radix = 0;
    o->unsigned_ = 1;
    o->type_name = name;
}

static void datetime(ixo_typeinfo *o, int q) {
    int start = IXO_QUAL_START(q), end = IXO_QUAL_END(q);
    int fd = end > IX_UNIT_SECOND ? end - IX_UNIT_SECOND : 0;
    SQLULEN size;
    if (start == IX_UNIT_YEAR && end == IX_UNIT_DAY) {
        chars(o, SQL_TYPE_DATE, 10, SQL_C_TYPE_DATE, "DATETIME");
    } else if (start == IX_UNIT_YEAR) {
        size = 19 + (fd ? (SQLULEN)fd + 1 : 0);
        chars(o, SQL_TYPE_TIMESTAMP, size, SQL_C_TYPE_TIMESTAMP, "DATETIME");
        o->digits = (SQLSMALLINT)fd;
    } else if (start >= IX_UNIT_HOUR) {
        size = 8 + (fd ? (SQLULEN)fd + 1 : 0);
        chars(o, SQL_TYPE_TIME, size, SQL_C_TYPE_TIME, "DATETIME");
        o->digits = (SQLSMALLINT)fd;
    } else { /* MONTH TO ..., DAY TO ...: as text */
        chars(o, SQL_VARCHAR, 25, SQL_C_CHAR, "DATETIME");
    }
    o->octet_length = o->c_default == SQL_C_TYPE_DATE   ? (SQLLEN)sizeof(SQL_DATE_STRUCT)
                      : o->c_default == SQL_C_TYPE_TIME ? (SQLLEN)sizeof(SQL_TIME_STRUCT)
                      : o->c_default == SQL_C_CHAR      ? o->octet_length
                                                        : (SQLLEN)sizeof(SQL_TIMESTAMP_STRUCT);
}

void ixo_type_describe(int t, int enclen, int lob, ixo_typeinfo *o) {
    int p = (enclen >> 8) & 0xff, s = enclen & 0xff;
    memset(o, 0, sizeof *o);
    switch (t) {
    case IX_T_SMALLINT: num(o, SQL_SMALLINT, 5, 0, 2, 6, SQL_C_SSHORT, "SMALLINT"); break;
    case IX_T_INTEGER: num(o, SQL_INTEGER, 10, 0, 4, 11, SQL_C_SLONG, "INTEGER"); break;
    case IX_T_SERIAL: num(o, SQL_INTEGER, 10, 0, 4, 11, SQL_C_SLONG, "SERIAL"); break;
    case IX_T_INT8: num(o, SQL_BIGINT, 19, 0, 8, 20, SQL_C_SBIGINT, "INT8"); break;
    case IX_T_SERIAL8: num(o, SQL_BIGINT, 19, 0, 8, 20, SQL_C_SBIGINT, "SERIAL8"); break;
    case IX_T_BIGINT: num(o, SQL_BIGINT, 19, 0, 8, 20, SQL_C_SBIGINT, "BIGINT"); break;
    case IX_T_BIGSERIAL: num(o, SQL_BIGINT, 19, 0, 8, 20, SQL_C_SBIGINT, "BIGSERIAL"); break;
    case IX_T_FLOAT: num(o, SQL_DOUBLE, 15, 0, 8, 24, SQL_C_DOUBLE, "FLOAT"); break;
    case IX_T_SMALLFLOAT: num(o, SQL_REAL, 7, 0, 4, 14, SQL_C_FLOAT, "SMALLFLOAT"); break;
    case IX_T_DECIMAL:
    case IX_T_MONEY:
        if (p == 0) p = 16;
        num(o, SQL_DECIMAL, (SQLULEN)p, (SQLSMALLINT)(s == IX_SCALE_FLOATING ? 0 : s), p + 2, p + 2,
            SQL_C_CHAR, t == IX_T_MONEY ? "MONEY" : "DECIMAL");
        break;
    case IX_T_DATE:
        chars(o, SQL_TYPE_DATE, 10, SQL_C_TYPE_DATE, "DATE");
        o->octet_length = sizeof(SQL_DATE_STRUCT);
        break;
    case IX_T_DATETIME: datetime(o, enclen); break;
    case IX_T_BOOLEAN: chars(o, SQL_BIT, 1, SQL_C_BIT, "BOOLEAN"); break;
    case IX_T_CHAR: chars(o, SQL_CHAR, (SQLULEN)enclen, SQL_C_CHAR, "CHAR"); break;
    case IX_T_NCHAR: chars(o, SQL_CHAR, (SQLULEN)enclen, SQL_C_CHAR, "NCHAR"); break;
    case IX_T_VARCHAR:
        chars(o, SQL_VARCHAR, (SQLULEN)(enclen & 0xff), SQL_C_CHAR, "VARCHAR");
        break;
    case IX_T_NVARCHAR:
        chars(o, SQL_VARCHAR, (SQLULEN)(enclen & 0xff), SQL_C_CHAR, "NVARCHAR");
        break;
    case IX_T_LVARCHAR: chars(o, SQL_VARCHAR, (SQLULEN)enclen, SQL_C_CHAR, "LVARCHAR"); break;
    case IX_T_TEXT: chars(o, SQL_LONGVARCHAR, INT32_MAX, SQL_C_CHAR, "TEXT"); break;
    case IX_T_BYTE: chars(o, SQL_LONGVARBINARY, INT32_MAX, SQL_C_BINARY, "BYTE"); break;
    case IX_T_INTERVAL: /* not a qualifier: its text */
        if (!ixo_iv_describe((unsigned)enclen, o))
            chars(o, SQL_VARCHAR, 30, SQL_C_CHAR, "INTERVAL");
        break;
    default:
        if (lob == IX_T_BLOB)
            chars(o, SQL_LONGVARBINARY, INT32_MAX, SQL_C_BINARY, "BLOB");
        else if (lob == IX_T_CLOB)
            chars(o, SQL_LONGVARCHAR, INT32_MAX, SQL_C_CHAR, "CLOB");
        else
            chars(o, SQL_LONGVARCHAR, INT32_MAX, SQL_C_CHAR, "UDT");
        break;
    }
    if (o->column_size == 0) o->column_size = 1;
    if (o->desc_type == 0) { /* not an interval: SQL_DATETIME for the date and time types */
        o->dt_code = o->sql_type == SQL_TYPE_DATE        ? SQL_CODE_DATE
                     : o->sql_type == SQL_TYPE_TIME      ? SQL_CODE_TIME
                     : o->sql_type == SQL_TYPE_TIMESTAMP ? SQL_CODE_TIMESTAMP
                                                         : 0;
        o->desc_type = o->dt_code ? SQL_DATETIME : o->sql_type;
    }
}

const char *ixo_cv_state(ixo_cv cv) {
    switch (cv) {
    case IXO_CV_TRUNC: return "01004";
    case IXO_CV_FRACTION: return "01S07";
    case IXO_CV_BADTYPE: return "07006";
    case IXO_CV_RANGE: return "22003";
    case IXO_CV_BADCHAR: return "22018";
    case IXO_CV_BADDT: return "22007";
    case IXO_CV_NULLNOIND: return "22002";
    case IXO_CV_NOMEM: return "HY001";
    case IXO_CV_IVFIELD: return "22015";
    case IXO_CV_UNSUPPORTED: return "HYC00";
    default: return NULL;
    }
}

void ixo_scratch_free(ixo_scratch *s) {
    free(s->p);
    s->p = NULL;
    s->cap = 0;
}

static char *scratch(ixo_scratch *s, size_t n) {
    if (n > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < n)
            cap *= 2;
        char *p = realloc(s->p, cap);
        if (!p) return NULL;
        s->p = p;
        s->cap = cap;
    }
    return s->p;
}

/* ---- UTF-8 and UTF-16 -------------------------------------------------------- */

long ixo_utf8_to_utf16(const char *p, size_t n, SQLWCHAR *out, size_t cap) {
    const unsigned char *u = (const unsigned char *)p;
    size_t i = 0, k = 0;
    while (i < n) {
        uint32_t c = u[i];
        int more = c < 0x80             ? 0
                   : (c & 0xe0) == 0xc0 ? 1
                   : (c & 0xf0) == 0xe0 ? 2
                   : (c & 0xf8) == 0xf0 ? 3
                                        : -1;
        if (more < 0 || i + (size_t)more >= n + (more ? 0 : 1)) return -1;
        if (more) c &= 0x3fu >> more;
        for (int j = 1; j <= more; j++) {
            if ((u[i + j] & 0xc0) != 0x80) return -1;
            c = c << 6 | (u[i + j] & 0x3f);
        }
        /* an overlong form, a surrogate or a code point past U+10FFFF is no
         * UTF-8 (RFC 3629) */
        static const uint32_t least[] = {0, 0x80, 0x800, 0x10000};
        if (c < least[more] || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff) return -1;
        i += (size_t)more + 1;
        if (c >= 0x10000) {
            if (k + 2 > cap) return (long)k;
            c -= 0x10000;
            out[k++] = (SQLWCHAR)(0xd800 + (c >> 10));
            out[k++] = (SQLWCHAR)(0xdc00 + (c & 0x3ff));
        } else {
            if (k + 1 > cap) return (long)k;
            out[k++] = (SQLWCHAR)c;
        }
    }
    return (long)k;
}

long ixo_utf16_to_utf8(const SQLWCHAR *p, size_t n, char *out, size_t cap) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = p[i];
        if (c >= 0xd800 && c < 0xdc00) {
            if (i + 1 >= n || p[i + 1] < 0xdc00 || p[i + 1] > 0xdfff) return -1;
            c = 0x10000 + ((c - 0xd800) << 10) + (p[i + 1] - 0xdc00u);
            i++;
        } else if (c >= 0xdc00 && c < 0xe000) {
            return -1;
        }
        int len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        if (k + (size_t)len > cap) return (long)k;
        if (len == 1) {
            out[k++] = (char)c;
            continue;
        }
        static const unsigned char lead[] = {0, 0, 0xc0, 0xe0, 0xf0};
        for (int j = len - 1; j > 0; j--) {
            out[k + (size_t)j] = (char)(0x80 | (c & 0x3f));
            c >>= 6;
        }
        out[k] = (char)(lead[len] | c);
        k += (size_t)len;
    }
    return (long)k;
}

/* ---- pieces into the application's buffer ---------------------------------------- */

/* total bytes at src into a character buffer (unit 1 or 2 bytes, NUL
 * terminated) or a binary one (unit 0: no terminator), from *offset on */
static ixo_cv pieces(const char *src, size_t total, int unit, void *buf, SQLLEN buflen, SQLLEN *ind,
                     size_t *offset) {
    size_t off = offset ? *offset : 0;
    if (offset && off > 0 && off >= total) return IXO_CV_NODATA;
    size_t left = total - off;
    if (ind) *ind = (SQLLEN)left;
    size_t room = buflen > 0 ? (size_t)buflen : 0;
    size_t term = (size_t)unit;
    size_t cap = room >= term ? room - term : 0;
    if (unit == 2) cap &= ~(size_t)1;
    size_t n = left < cap ? left : cap;
    if (buf && room >= term) {
        memcpy(buf, src + off, n);
        memset((char *)buf + n, 0, term);
    }
    if (offset) *offset = off + n;
    return n < left ? IXO_CV_TRUNC : IXO_CV_OK;
}

/* ---- a value as text ------------------------------------------------------------ */

/* the shortest of %.{digits-2..digits}g that reads back as v */
static int double_text(double v, int is_real, char *out, size_t cap) {
    int most = is_real ? REAL_DIGITS : DOUBLE_DIGITS;
    int n = 0;
    for (int d = most - 2; d <= most; d++) {
        n = snprintf(out, cap, "%.*g", d, v);
        if (is_real ? (float)strtod(out, NULL) == (float)v : strtod(out, NULL) == v) break;
    }
    return n;
}

static int dt_text(const ixo_val *v, char *out, size_t cap) {
    const ix_datetime_t *t = &v->dt;
    int n = 0;
    if (v->has_date) n += snprintf(out, cap, "%04d-%02d-%02d", t->year, t->month, t->day);
    if (v->has_time) {
        n += snprintf(out + n, cap - (size_t)n, "%s%02d:%02d:%02d", v->has_date ? " " : "", t->hour,
                      t->minute, t->second);
        if (v->fdigits > 0) {
            char f[8];
            snprintf(f, sizeof f, "%05d", t->fraction);
            n += snprintf(out + n, cap - (size_t)n, ".%.*s", v->fdigits, f);
        }
    }
    return n;
}

/* v as characters: *p and *n point at the value itself or at tmp[NUMTEXT] */
static ixo_cv value_text(const ixo_val *v, char *tmp, const char **p, size_t *n, ixo_scratch *s) {
    int len = 0;
    switch (v->kind) {
    case IXO_V_TEXT:
        *p = v->p;
        *n = v->n;
        return IXO_CV_OK;
    case IXO_V_BIN: {
        static const char hex[] = "0123456789ABCDEF";
        char *h = scratch(s, v->n * 2 + 1);
        if (!h) return IXO_CV_NOMEM;
        for (size_t i = 0; i < v->n; i++) {
            h[2 * i] = hex[(unsigned char)v->p[i] >> 4];
            h[2 * i + 1] = hex[(unsigned char)v->p[i] & 0xf];
        }
        *p = h;
        *n = v->n * 2;
        return IXO_CV_OK;
    }
    case IXO_V_INT:
    case IXO_V_BOOL: len = snprintf(tmp, NUMTEXT, "%lld", (long long)v->i); break;
    case IXO_V_DOUBLE: len = double_text(v->d, v->is_real, tmp, NUMTEXT); break;
    case IXO_V_DEC: len = ix_decimal_text(&v->dec, tmp, NUMTEXT); break;
    case IXO_V_DT: len = dt_text(v, tmp, NUMTEXT); break;
    case IXO_V_IV:
        if ((len = (int)ixo_iv_text(v, tmp, NUMTEXT)) == 0) return IXO_CV_BADCHAR;
        break;
    default: return IXO_CV_BADTYPE;
    }
    if (len < 0) return IXO_CV_BADCHAR;
    *p = tmp;
    *n = (size_t)len;
    return IXO_CV_OK;
}

/* ---- numbers ----------------------------------------------------------------- */

/* text (not NUL-terminated) into tmp, blanks trimmed; 0 if it does not fit */
static int text_copy(const ixo_val *v, char *tmp) {
    const char *p = v->p;
    size_t n = v->n;
    while (n && (*p == ' ' || *p == '\t'))
        p++, n--;
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    if (n == 0 || n >= NUMTEXT) return 0;
    memcpy(tmp, p, n);
    tmp[n] = 0;
    return 1;
}

static ixo_cv value_double(const ixo_val *v, double *out) {
    char tmp[NUMTEXT], *end;
    switch (v->kind) {
    case IXO_V_INT:
    case IXO_V_BOOL: *out = (double)v->i; return IXO_CV_OK;
    case IXO_V_DOUBLE: *out = v->d; return IXO_CV_OK;
    case IXO_V_DEC:
        if (ix_decimal_text(&v->dec, tmp, sizeof tmp) < 0) return IXO_CV_BADCHAR;
        *out = strtod(tmp, NULL);
        return IXO_CV_OK;
    case IXO_V_TEXT:
        if (!text_copy(v, tmp)) return IXO_CV_BADCHAR;
        errno = 0;
        *out = strtod(tmp, &end);
        if (*end) return IXO_CV_BADCHAR;
        return errno == ERANGE ? IXO_CV_RANGE : IXO_CV_OK;
    default: return IXO_CV_BADTYPE;
    }
}

/* digits * 10^-scale as an integer (truncated: IXO_CV_FRACTION) */
static ixo_cv dec_int64(const ix_decimal_t *d, int64_t *out) {
    int whole = d->ndigits - d->scale, frac = 0;
    uint64_t acc = 0;
    for (int i = 0; i < whole; i++) {
        int digit = i < d->ndigits ? d->digits[i] - '0' : 0;
        if (acc > (UINT64_MAX - (uint64_t)digit) / 10) return IXO_CV_RANGE;
        acc = acc * 10 + (uint64_t)digit;
    }
    for (int i = whole < 0 ? 0 : whole; i < d->ndigits; i++)
        frac |= d->digits[i] != '0';
    if (d->sign < 0 ? acc > (uint64_t)INT64_MAX + 1 : acc > (uint64_t)INT64_MAX)
        return IXO_CV_RANGE;
    *out = d->sign < 0 ? (int64_t)(0 - acc) : (int64_t)acc;
    return frac ? IXO_CV_FRACTION : IXO_CV_OK;
}

static ixo_cv value_int64(const ixo_val *v, int64_t *out) {
    double d;
    ixo_cv cv;
    switch (v->kind) {
    case IXO_V_INT:
    case IXO_V_BOOL: *out = v->i; return IXO_CV_OK;
    case IXO_V_DEC: return dec_int64(&v->dec, out);
    case IXO_V_TEXT: {
        char tmp[NUMTEXT], *end;
        if (!text_copy(v, tmp)) return IXO_CV_BADCHAR;
        errno = 0;
        long long ll = strtoll(tmp, &end, 10);
        if (!*end) {
            *out = ll;
            return errno == ERANGE ? IXO_CV_RANGE : IXO_CV_OK;
        }
        break; /* "1.5", "1e3": through the double */
    }
    case IXO_V_DOUBLE: break;
    default: return IXO_CV_BADTYPE;
    }
    if ((cv = value_double(v, &d)) != IXO_CV_OK) return cv;
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return IXO_CV_RANGE;
    *out = (int64_t)d;
    return (double)*out != d ? IXO_CV_FRACTION : IXO_CV_OK;
}

/* plain decimal text ("-12.50", "3e2") into an ix_decimal_t */
static int dec_parse(const char *p, size_t n, ix_decimal_t *d) {
    size_t i = 0;
    int seen_dot = 0, frac = 0, exp = 0, nd = 0;
    memset(d, 0, sizeof *d);
    d->sign = 1;
    while (i < n && p[i] == ' ')
        i++;
    while (n > i && p[n - 1] == ' ')
        n--;
    if (i < n && (p[i] == '-' || p[i] == '+')) d->sign = p[i++] == '-' ? -1 : 1;
    if (i == n) return 0;
    int any = 0;
    for (; i < n; i++) {
        char c = p[i];
        if (c == '.' && !seen_dot) {
            seen_dot = 1;
        } else if (c >= '0' && c <= '9') {
            any = 1;
            if (nd == 0 && c == '0') {
                if (seen_dot) frac++;
                continue;
            }
            if (nd >= IX_DECIMAL_DIGITS) return 0;
            d->digits[nd++] = c;
            if (seen_dot) frac++;
        } else if ((c == 'e' || c == 'E') && any) {
            char tmp[16], *end;
            if (n - i - 1 == 0 || n - i - 1 >= sizeof tmp) return 0;
            memcpy(tmp, p + i + 1, n - i - 1);
            tmp[n - i - 1] = 0;
            long e = strtol(tmp, &end, 10);
            if (*end || e > 200 || e < -200) return 0;
            exp = (int)e;
            break;
        } else {
            return 0;
        }
    }
    if (!any) return 0;
    if (nd == 0) {
        d->digits[nd++] = '0';
        d->sign = 1;
        frac = 0;
        exp = 0;
    }
    d->ndigits = nd;
    d->scale = frac - exp;
    return 1;
}

static ixo_cv value_dec(const ixo_val *v, ix_decimal_t *d) {
    char tmp[NUMTEXT];
    const char *p;
    size_t n;
    ixo_cv cv;
    if (v->kind == IXO_V_DEC) {
        *d = v->dec;
        return IXO_CV_OK;
    }
    if (v->kind == IXO_V_DT || v->kind == IXO_V_BIN) return IXO_CV_BADTYPE;
    if ((cv = value_text(v, tmp, &p, &n, NULL)) != IXO_CV_OK) return cv;
    return dec_parse(p, n, d) ? IXO_CV_OK : IXO_CV_BADCHAR;
}

/* SQL_NUMERIC_STRUCT: the value at its own scale, digits as a 128-bit
 * little-endian integer */
static ixo_cv get_numeric(const ixo_val *v, SQL_NUMERIC_STRUCT *ns) {
    ix_decimal_t d;
    ixo_cv cv = value_dec(v, &d);
    if (cv != IXO_CV_OK) return cv;
    memset(ns, 0, sizeof *ns);
    int scale = d.scale, zeros = scale < 0 ? -scale : 0;
    if (scale < 0) scale = 0;
    if (d.ndigits + zeros > SQL_MAX_NUMERIC_LEN * 2 + 6) return IXO_CV_RANGE;
    for (int i = 0; i < d.ndigits + zeros; i++) {
        unsigned carry = i < d.ndigits ? (unsigned)(d.digits[i] - '0') : 0;
        for (int b = 0; b < SQL_MAX_NUMERIC_LEN; b++) {
            unsigned x = ns->val[b] * 10u + carry;
            ns->val[b] = (SQLCHAR)(x & 0xff);
            carry = x >> 8;
        }
        if (carry) return IXO_CV_RANGE;
    }
    ns->precision = (SQLCHAR)(d.ndigits + zeros > scale ? d.ndigits + zeros : scale);
    ns->scale = (SQLSCHAR)scale;
    ns->sign = d.sign < 0 ? 0 : 1;
    return IXO_CV_OK;
}

static ixo_cv get_integer(const ixo_val *v, SQLSMALLINT ctype, void *buf, SQLLEN *ind) {
    int64_t x = 0;
    ixo_cv cv = value_int64(v, &x);
    if (cv != IXO_CV_OK && cv != IXO_CV_FRACTION) return cv;
    int64_t lo, hi;
    size_t size;
    switch (ctype) {
    case SQL_C_STINYINT:
    case SQL_C_TINYINT: lo = INT8_MIN, hi = INT8_MAX, size = 1; break;
    case SQL_C_UTINYINT: lo = 0, hi = UINT8_MAX, size = 1; break;
    case SQL_C_SSHORT:
    case SQL_C_SHORT: lo = INT16_MIN, hi = INT16_MAX, size = 2; break;
    case SQL_C_USHORT: lo = 0, hi = UINT16_MAX, size = 2; break;
    case SQL_C_SLONG:
    case SQL_C_LONG: lo = INT32_MIN, hi = INT32_MAX, size = 4; break;
    case SQL_C_ULONG: lo = 0, hi = UINT32_MAX, size = 4; break;
    case SQL_C_SBIGINT: lo = INT64_MIN, hi = INT64_MAX, size = 8; break;
    case SQL_C_UBIGINT: lo = 0, hi = INT64_MAX, size = 8; break;
    default: /* SQL_C_BIT */
        if (x < 0 || x > 1) return IXO_CV_RANGE;
        lo = 0, hi = 1, size = 1;
        break;
    }
    if (x < lo || x > hi) return IXO_CV_RANGE;
    if (buf) {
        if (size == 1) {
            int8_t b = (int8_t)x;
            memcpy(buf, &b, 1);
        } else if (size == 2) {
            int16_t b = (int16_t)x;
            memcpy(buf, &b, 2);
        } else if (size == 4) {
            int32_t b = (int32_t)x;
            memcpy(buf, &b, 4);
        } else {
            memcpy(buf, &x, 8);
        }
    }
    if (ind) *ind = (SQLLEN)size;
    return cv;
}

/* ---- dates and times ------------------------------------------------------------- */

int ixo_parse_dt(const char *p, size_t n, ixo_val *out) {
    char tmp[64];
    int y, mo, d, h, mi, s, used = 0;
    while (n && *p == ' ')
        p++, n--;
    while (n && p[n - 1] == ' ')
        n--;
    if (n == 0 || n >= sizeof tmp) return 0;
    memcpy(tmp, p, n);
    tmp[n] = 0;
    memset(&out->dt, 0, sizeof out->dt);
    out->kind = IXO_V_DT;
    out->has_date = out->has_time = 0;
    out->fdigits = 0;
    const char *t = tmp;
    if (sscanf(t, "%4d-%2d-%2d%n", &y, &mo, &d, &used) == 3) {
        if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1) return 0;
        out->dt.year = y, out->dt.month = mo, out->dt.day = d;
        out->has_date = 1;
        t += used;
        if (!*t) return 1;
        if (*t != ' ' && *t != 'T') return 0;
        t++;
    }
    if (sscanf(t, "%2d:%2d:%2d%n", &h, &mi, &s, &used) != 3) return 0;
    if (h > 23 || mi > 59 || s > 59 || h < 0 || mi < 0 || s < 0) return 0;
    out->dt.hour = h, out->dt.minute = mi, out->dt.second = s;
    out->has_time = 1;
    t += used;
    if (*t == '.') {
        int f = 0, nd = 0;
        for (t++; *t >= '0' && *t <= '9'; t++, nd++)
            if (nd < 5) f = f * 10 + (*t - '0');
        for (int k = nd; k < 5; k++)
            f *= 10;
        out->dt.fraction = f;
        out->fdigits = nd > 5 ? 5 : nd;
    }
    return *t == 0;
}

static ixo_cv value_dt(const ixo_val *v, ixo_val *out) {
    if (v->kind == IXO_V_DT) { /* the date and time fields only: no copy of the rest */
        out->dt = v->dt;
        out->has_date = v->has_date;
        out->has_time = v->has_time;
        out->fdigits = v->fdigits;
        return IXO_CV_OK;
    }
    if (v->kind == IXO_V_TEXT) return ixo_parse_dt(v->p, v->n, out) ? IXO_CV_OK : IXO_CV_BADDT;
    return IXO_CV_BADTYPE;
}

static ixo_cv get_dt(const ixo_val *v, SQLSMALLINT ctype, void *buf, SQLLEN *ind) {
    ixo_val t;
    ixo_cv cv = value_dt(v, &t);
    if (cv != IXO_CV_OK) return cv;
    if (ctype == SQL_C_TYPE_DATE) {
        SQL_DATE_STRUCT d = {(SQLSMALLINT)t.dt.year, (SQLUSMALLINT)t.dt.month,
                             (SQLUSMALLINT)t.dt.day};
        if (!t.has_date) return IXO_CV_BADTYPE;
        if (buf) memcpy(buf, &d, sizeof d);
        if (ind) *ind = sizeof d;
        return t.has_time && (t.dt.hour || t.dt.minute || t.dt.second || t.dt.fraction)
                   ? IXO_CV_FRACTION
                   : IXO_CV_OK;
    }
    if (ctype == SQL_C_TYPE_TIME) {
        SQL_TIME_STRUCT tm = {(SQLUSMALLINT)t.dt.hour, (SQLUSMALLINT)t.dt.minute,
                              (SQLUSMALLINT)t.dt.second};
        if (!t.has_time) return IXO_CV_BADTYPE;
        if (buf) memcpy(buf, &tm, sizeof tm);
        if (ind) *ind = sizeof tm;
        return t.dt.fraction ? IXO_CV_FRACTION : IXO_CV_OK;
    }
    if (!t.has_date) { /* a time of day on today's date (ODBC's rule) */
        time_t now = time(NULL);
        struct tm lt;
        if (!localtime_r(&now, &lt)) return IXO_CV_BADDT;
        t.dt.year = lt.tm_year + 1900, t.dt.month = lt.tm_mon + 1, t.dt.day = lt.tm_mday;
    }
    SQL_TIMESTAMP_STRUCT ts = {(SQLSMALLINT)t.dt.year,
                               (SQLUSMALLINT)t.dt.month,
                               (SQLUSMALLINT)t.dt.day,
                               (SQLUSMALLINT)t.dt.hour,
                               (SQLUSMALLINT)t.dt.minute,
                               (SQLUSMALLINT)t.dt.second,
                               (SQLUINTEGER)t.dt.fraction * 10000u};
    if (buf) memcpy(buf, &ts, sizeof ts);
    if (ind) *ind = sizeof ts;
    return IXO_CV_OK;
}

/* ---- ixo_get ----------------------------------------------------------------- */

static ixo_cv get_chars(const ixo_val *v, SQLSMALLINT ctype, void *buf, SQLLEN buflen, SQLLEN *ind,
                        size_t *offset, ixo_scratch *s) {
    char tmp[NUMTEXT];
    const char *p;
    size_t n;
    ixo_cv cv;
    if (ctype == SQL_C_BINARY && (v->kind == IXO_V_BIN || v->kind == IXO_V_TEXT))
        return pieces(v->p, v->n, 0, buf, buflen, ind, offset);
    if ((cv = value_text(v, tmp, &p, &n, s)) != IXO_CV_OK) return cv;
    if (ctype == SQL_C_WCHAR) {
        /* the whole value in UTF-16 after the text in the scratch buffer,
         * then its pieces (units of 2 bytes) */
        const char *src = p;
        size_t at = (n + 8) & ~(size_t)7;
        int in_s = s->p && src >= s->p && src < s->p + s->cap;
        if (!scratch(s, at + (n + 1) * sizeof(SQLWCHAR))) return IXO_CV_NOMEM;
        if (in_s) {
            src = s->p; /* the hex text of a binary value, at 0 */
        } else if (src == tmp) {
            memcpy(s->p, tmp, n);
            src = s->p;
        }
        SQLWCHAR *w = (SQLWCHAR *)(void *)(s->p + at);
        long units = ixo_utf8_to_utf16(src, n, w, n);
        if (units < 0) return IXO_CV_BADCHAR;
        return pieces((const char *)w, (size_t)units * sizeof(SQLWCHAR), 2, buf, buflen, ind,
                      offset);
    }
    if (ctype == SQL_C_BINARY) return pieces(p, n, 0, buf, buflen, ind, offset);
    cv = pieces(p, n, 1, buf, buflen, ind, offset);
    /* a number cut in its whole part is out of range, not truncated */
    if (cv == IXO_CV_TRUNC && !offset && v->kind != IXO_V_TEXT && v->kind != IXO_V_BIN &&
        v->kind != IXO_V_DT) {
        const char *dot = memchr(p, '.', n);
        if ((size_t)buflen <= (size_t)(dot ? dot - p : (ptrdiff_t)n)) return IXO_CV_RANGE;
    }
    return cv;
}

/* The pairs a block fetch meets most, done directly: the same bytes and
 * results as ixo_get_general (test_conv compares the two over every value
 * kind, C type and buffer size). -1: not one of them. */
static int get_short(const ixo_val *v, SQLSMALLINT ctype, void *buf, SQLLEN buflen, SQLLEN *ind) {
    if (!buf || !ind) return -1;
    switch (v->kind) {
    case IXO_V_INT:
        if ((ctype == SQL_C_SLONG || ctype == SQL_C_LONG) && v->i >= INT32_MIN &&
            v->i <= INT32_MAX) {
            int32_t x = (int32_t)v->i;
            memcpy(buf, &x, sizeof x);
            *ind = sizeof x;
            return IXO_CV_OK;
        }
        if (ctype == SQL_C_SBIGINT) {
            memcpy(buf, &v->i, sizeof v->i);
            *ind = sizeof v->i;
            return IXO_CV_OK;
        }
        return -1;
    case IXO_V_DOUBLE:
        if (ctype != SQL_C_DOUBLE) return -1;
        memcpy(buf, &v->d, sizeof v->d);
        *ind = sizeof v->d;
        return IXO_CV_OK;
    case IXO_V_TEXT:
        if (ctype != SQL_C_CHAR || buflen <= 0 || v->n >= (size_t)buflen) return -1;
        memcpy(buf, v->p, v->n);
        ((char *)buf)[v->n] = 0;
        *ind = (SQLLEN)v->n;
        return IXO_CV_OK;
    case IXO_V_DT:
        if (ctype != SQL_C_TYPE_DATE || !v->has_date || v->has_time) return -1;
        SQL_DATE_STRUCT d = {(SQLSMALLINT)v->dt.year, (SQLUSMALLINT)v->dt.month,
                             (SQLUSMALLINT)v->dt.day};
        memcpy(buf, &d, sizeof d);
        *ind = sizeof d;
        return IXO_CV_OK;
    default: return -1;
    }
}

static int is_interval_ctype(SQLSMALLINT ctype) {
    int start, end;
    return ixo_iv_units(ctype, &start, &end);
}

/* an INTERVAL: its text into character targets and (whole, else 22003)
 * into SQL_C_BINARY; the rest in ixo_interval.c */
static ixo_cv get_interval(const ixo_val *v, SQLSMALLINT ctype, void *buf, SQLLEN buflen,
                           SQLLEN *ind, size_t *offset, ixo_scratch *s) {
    if (ctype == SQL_C_CHAR || ctype == SQL_C_WCHAR)
        return get_chars(v, ctype, buf, buflen, ind, offset, s);
    if (ctype != SQL_C_BINARY) return ixo_iv_get(v, ctype, buf, buflen, ind, s);
    char tmp[NUMTEXT];
    size_t n = ixo_iv_text(v, tmp, sizeof tmp);
    if (n == 0) return IXO_CV_BADCHAR;
    if (offset && *offset >= n) return IXO_CV_NODATA;
    if (n > (size_t)(buflen > 0 ? buflen : 0)) return IXO_CV_RANGE;
    return pieces(tmp, n, 0, buf, buflen, ind, offset);
}

ixo_cv ixo_get(const ixo_val *v, SQLSMALLINT ctype, SQLSMALLINT def_ctype, void *buf, SQLLEN buflen,
               SQLLEN *ind, size_t *offset, ixo_scratch *s) {
    if (!offset) {
        int r = get_short(v, ctype == SQL_C_DEFAULT ? def_ctype : ctype, buf, buflen, ind);
        if (r >= 0) return (ixo_cv)r;
    }
    return ixo_get_general(v, ctype, def_ctype, buf, buflen, ind, offset, s);
}

ixo_cv ixo_get_general(const ixo_val *v, SQLSMALLINT ctype, SQLSMALLINT def_ctype, void *buf,
                       SQLLEN buflen, SQLLEN *ind, size_t *offset, ixo_scratch *s) {
    if (ctype == SQL_C_DEFAULT) ctype = def_ctype;
    if (ctype == SQL_C_DATE) ctype = SQL_C_TYPE_DATE;
    if (ctype == SQL_C_TIME) ctype = SQL_C_TYPE_TIME;
    if (ctype == SQL_C_TIMESTAMP) ctype = SQL_C_TYPE_TIMESTAMP;
    if (v->kind == IXO_V_NULL) {
        if (offset && *offset > 0) return IXO_CV_NODATA;
        if (offset) *offset = 1; /* a second SQLGetData: no more data */
        if (!ind) return IXO_CV_NULLNOIND;
        *ind = SQL_NULL_DATA;
        return IXO_CV_OK;
    }
    if (v->kind == IXO_V_IV) return get_interval(v, ctype, buf, buflen, ind, offset, s);
    if (ixo_ctype_is_integer(ctype) || ctype == SQL_C_BIT) {
        if (v->kind == IXO_V_DT || v->kind == IXO_V_BIN) return IXO_CV_BADTYPE;
        return get_integer(v, ctype, buf, ind);
    }
    switch (ctype) {
    case SQL_C_CHAR:
    case SQL_C_WCHAR:
    case SQL_C_BINARY: return get_chars(v, ctype, buf, buflen, ind, offset, s);
    case SQL_C_FLOAT:
    case SQL_C_DOUBLE: {
        double d;
        ixo_cv cv = value_double(v, &d);
        if (cv != IXO_CV_OK) return cv;
        if (ctype == SQL_C_FLOAT) {
            if (isfinite(d) && fabs(d) > 3.402823466e38) return IXO_CV_RANGE;
            float f = (float)d;
            if (buf) memcpy(buf, &f, sizeof f);
            if (ind) *ind = sizeof f;
        } else {
            if (buf) memcpy(buf, &d, sizeof d);
            if (ind) *ind = sizeof d;
        }
        return IXO_CV_OK;
    }
    case SQL_C_NUMERIC: {
        SQL_NUMERIC_STRUCT ns;
        ixo_cv cv = get_numeric(v, &ns);
        if (cv != IXO_CV_OK) return cv;
        if (buf) memcpy(buf, &ns, sizeof ns);
        if (ind) *ind = sizeof ns;
        return IXO_CV_OK;
    }
    case SQL_C_TYPE_DATE:
    case SQL_C_TYPE_TIME:
    case SQL_C_TYPE_TIMESTAMP: return get_dt(v, ctype, buf, ind);
    default: return is_interval_ctype(ctype) ? IXO_CV_BADTYPE : IXO_CV_UNSUPPORTED;
    }
}

/* ---- ixo_put ----------------------------------------------------------------- */

/* SQL_NUMERIC_STRUCT into decimal text, then into out->dec */
static ixo_cv put_numeric(const SQL_NUMERIC_STRUCT *ns, ixo_val *out) {
    unsigned char v[SQL_MAX_NUMERIC_LEN];
    char digits[64]; /* 2^128 has 39 */
    int nd = 0;
    memcpy(v, ns->val, sizeof v);
    for (;;) { /* repeated division by 10, least significant digit first */
        unsigned rem = 0, any = 0;
        for (int b = SQL_MAX_NUMERIC_LEN - 1; b >= 0; b--) {
            unsigned x = rem << 8 | v[b];
            v[b] = (unsigned char)(x / 10);
            rem = x % 10;
            any |= v[b];
        }
        digits[nd++] = (char)('0' + rem);
        if (!any) break;
    }
    /* a sign, the digits (39 at most), the zeros a scale up to 127 puts
     * before them, the point or an exponent */
    char text[1 + 39 + 127 + 8];
    int k = 0, scale = ns->scale;
    if (ns->sign == 0) text[k++] = '-';
    for (int i = nd - 1; i >= 0; i--)
        text[k++] = digits[i];
    if (scale > 0) {                           /* the point scale digits from the right */
        while (k - (ns->sign == 0) <= scale) { /* leading zeros */
            memmove(text + (ns->sign == 0) + 1, text + (ns->sign == 0),
                    (size_t)k - (ns->sign == 0));
            text[ns->sign == 0] = '0';
            k++;
        }
        memmove(text + k - scale + 1, text + k - scale, (size_t)scale);
        text[k - scale] = '.';
        k++;
    } else if (scale < 0) {
        k += snprintf(text + k, sizeof text - (size_t)k, "e%d", -scale);
    }
    out->kind = IXO_V_DEC;
    return dec_parse(text, (size_t)k, &out->dec) ? IXO_CV_OK : IXO_CV_RANGE;
}

static ixo_cv put_int(SQLSMALLINT ctype, const void *buf, ixo_val *out) {
    out->kind = IXO_V_INT;
    switch (ctype) {
    case SQL_C_STINYINT:
    case SQL_C_TINYINT: out->i = *(const SQLSCHAR *)buf; break;
    case SQL_C_UTINYINT: out->i = *(const SQLCHAR *)buf; break;
    case SQL_C_SSHORT:
    case SQL_C_SHORT: out->i = *(const SQLSMALLINT *)buf; break;
    case SQL_C_USHORT: out->i = *(const SQLUSMALLINT *)buf; break;
    case SQL_C_SLONG:
    case SQL_C_LONG: out->i = *(const SQLINTEGER *)buf; break;
    case SQL_C_ULONG: out->i = *(const SQLUINTEGER *)buf; break;
    case SQL_C_SBIGINT: out->i = *(const SQLBIGINT *)buf; break;
    case SQL_C_UBIGINT:
        if (*(const SQLUBIGINT *)buf > INT64_MAX) return IXO_CV_RANGE;
        out->i = (int64_t) * (const SQLUBIGINT *)buf;
        break;
    case SQL_C_BIT:
        out->kind = IXO_V_BOOL;
        out->i = *(const SQLCHAR *)buf != 0;
        break;
    default: return IXO_CV_UNSUPPORTED;
    }
    return IXO_CV_OK;
}

/* the UTF-16 units of a NUL-terminated text at p, which may be unaligned */
static size_t wide_units(const void *p) {
    const char *b = p;
    SQLWCHAR c;
    size_t n = 0;
    for (;; n++) {
        memcpy(&c, b + n * sizeof c, sizeof c);
        if (!c) return n;
    }
}

/* SQL_C_WCHAR text (len bytes, or NUL-terminated when !ind_given or
 * SQL_NTS) into out as UTF-8 in s's scratch buffer (out->p points there) */
static ixo_cv put_wide(const void *buf, SQLLEN len, int ind_given, ixo_val *out, ixo_scratch *s) {
    size_t units = !ind_given || len == SQL_NTS ? wide_units(buf)
                                                : (size_t)(len < 0 ? 0 : len) / sizeof(SQLWCHAR);
    /* the units copied to an aligned place first, the text after them */
    size_t wbytes = units * sizeof(SQLWCHAR);
    char *u = scratch(s, wbytes + units * 3 + 1);
    if (!u) return IXO_CV_NOMEM;
    SQLWCHAR *w = (SQLWCHAR *)(void *)u;
    memcpy(w, buf, wbytes);
    u += wbytes;
    long n = ixo_utf16_to_utf8(w, units, u, units * 3);
    if (n < 0) return IXO_CV_BADCHAR;
    u[n] = 0;
    out->kind = IXO_V_TEXT;
    out->p = u;
    out->n = (size_t)n;
    return IXO_CV_OK;
}

/* an SQL_C_TYPE_DATE, _TIME or _TIMESTAMP struct at buf (aligned) into out */
static ixo_cv put_dt(SQLSMALLINT ctype, const void *buf, ixo_val *out) {
    switch (ctype) {
    case SQL_C_TYPE_DATE: {
        const SQL_DATE_STRUCT *d = buf;
        out->kind = IXO_V_DT;
        out->has_date = 1;
        out->dt.year = d->year, out->dt.month = d->month, out->dt.day = d->day;
        return IXO_CV_OK;
    }
    case SQL_C_TYPE_TIME: {
        const SQL_TIME_STRUCT *t = buf;
        out->kind = IXO_V_DT;
        out->has_time = 1;
        out->dt.hour = t->hour, out->dt.minute = t->minute, out->dt.second = t->second;
        return IXO_CV_OK;
    }
    case SQL_C_TYPE_TIMESTAMP: {
        const SQL_TIMESTAMP_STRUCT *t = buf;
        out->kind = IXO_V_DT;
        out->has_date = out->has_time = 1;
        out->dt.year = t->year, out->dt.month = t->month, out->dt.day = t->day;
        out->dt.hour = t->hour, out->dt.minute = t->minute, out->dt.second = t->second;
        out->dt.fraction = (int)(t->fraction / 10000u);
        out->fdigits = 5;
        return t->fraction % 10000u ? IXO_CV_FRACTION : IXO_CV_OK;
    }
    default: return IXO_CV_BADTYPE;
    }
}

ixo_cv ixo_put(SQLSMALLINT ctype, const void *buf, SQLLEN buflen, SQLLEN len, int ind_given,
               ixo_val *out, ixo_scratch *s) {
    memset(out, 0, sizeof *out);
    if (ind_given && len == SQL_NULL_DATA) return IXO_CV_OK; /* IXO_V_NULL */
    if (!buf) return IXO_CV_NULLNOIND;
    /* a value of a fixed-size C type read from an aligned copy: row-wise
     * arrays may place it anywhere (pyodbc's fast_executemany packs them) */
    union {
        SQL_TIMESTAMP_STRUCT ts;
        SQL_INTERVAL_STRUCT iv;
        SQL_NUMERIC_STRUCT num;
        double d;
        int64_t i;
    } al;
    size_t fixed = ixo_ctype_size(ctype);
    if (fixed && fixed <= sizeof al) {
        memcpy(&al, buf, fixed);
        buf = &al;
    }
    if (ctype == SQL_C_DATE) ctype = SQL_C_TYPE_DATE;
    if (ctype == SQL_C_TIME) ctype = SQL_C_TYPE_TIME;
    if (ctype == SQL_C_TIMESTAMP) ctype = SQL_C_TYPE_TIMESTAMP;
    switch (ctype) {
    case SQL_C_CHAR:
        out->kind = IXO_V_TEXT;
        out->p = buf;
        out->n = !ind_given || len == SQL_NTS ? strlen(buf) : (size_t)(len < 0 ? 0 : len);
        return IXO_CV_OK;
    case SQL_C_WCHAR: return put_wide(buf, len, ind_given, out, s);
    case SQL_C_BINARY:
        out->kind = IXO_V_BIN;
        out->p = buf;
        out->n = ind_given && len >= 0 ? (size_t)len : (size_t)(buflen > 0 ? buflen : 0);
        return IXO_CV_OK;
    case SQL_C_FLOAT:
        out->kind = IXO_V_DOUBLE;
        out->d = *(const float *)buf;
        out->is_real = 1;
        return IXO_CV_OK;
    case SQL_C_DOUBLE:
        out->kind = IXO_V_DOUBLE;
        out->d = *(const double *)buf;
        return IXO_CV_OK;
    case SQL_C_NUMERIC: return put_numeric(buf, out);
    case SQL_C_TYPE_DATE:
    case SQL_C_TYPE_TIME:
    case SQL_C_TYPE_TIMESTAMP: return put_dt(ctype, buf, out);
    default:
        if (is_interval_ctype(ctype)) return ixo_iv_put(ctype, buf, out);
        return put_int(ctype, buf, out);
    }
}

int ixo_ctype_is_integer(SQLSMALLINT ctype) {
    switch (ctype) {
    case SQL_C_STINYINT:
    case SQL_C_TINYINT:
    case SQL_C_UTINYINT:
    case SQL_C_SSHORT:
    case SQL_C_SHORT:
    case SQL_C_USHORT:
    case SQL_C_SLONG:
    case SQL_C_LONG:
    case SQL_C_ULONG:
    case SQL_C_SBIGINT:
    case SQL_C_UBIGINT: return 1;
    default: return 0;
    }
}

int ixo_sql_is_chars(SQLSMALLINT t) {
    switch (t) {
    case SQL_CHAR:
    case SQL_VARCHAR:
    case SQL_LONGVARCHAR:
    case SQL_WCHAR:
    case SQL_WVARCHAR:
    case SQL_WLONGVARCHAR:
    case SQL_BINARY:
    case SQL_VARBINARY:
    case SQL_LONGVARBINARY: return 1;
    default: return 0;
    }
}

size_t ixo_ctype_size(SQLSMALLINT ctype) {
    switch (ctype) {
    case SQL_C_STINYINT:
    case SQL_C_TINYINT:
    case SQL_C_UTINYINT:
    case SQL_C_BIT: return 1;
    case SQL_C_SSHORT:
    case SQL_C_SHORT:
    case SQL_C_USHORT: return 2;
    case SQL_C_SLONG:
    case SQL_C_LONG:
    case SQL_C_ULONG:
    case SQL_C_FLOAT: return 4;
    case SQL_C_SBIGINT:
    case SQL_C_UBIGINT:
    case SQL_C_DOUBLE: return 8;
    case SQL_C_NUMERIC: return sizeof(SQL_NUMERIC_STRUCT);
    case SQL_C_DATE:
    case SQL_C_TYPE_DATE: return sizeof(SQL_DATE_STRUCT);
    case SQL_C_TIME:
    case SQL_C_TYPE_TIME: return sizeof(SQL_TIME_STRUCT);
    case SQL_C_TIMESTAMP:
    case SQL_C_TYPE_TIMESTAMP: return sizeof(SQL_TIMESTAMP_STRUCT);
    default: /* interval structs; character and binary: the buffer length */
        return is_interval_ctype(ctype) ? sizeof(SQL_INTERVAL_STRUCT) : 0;
    }
}

SQLSMALLINT ixo_default_ctype(SQLSMALLINT sqltype) {
    switch (sqltype) {
    case SQL_SMALLINT: return SQL_C_SSHORT;
    case SQL_INTEGER: return SQL_C_SLONG;
    case SQL_BIGINT: return SQL_C_SBIGINT;
    case SQL_TINYINT: return SQL_C_STINYINT;
    case SQL_REAL: return SQL_C_FLOAT;
    case SQL_FLOAT:
    case SQL_DOUBLE: return SQL_C_DOUBLE;
    case SQL_BIT: return SQL_C_BIT;
    case SQL_TYPE_DATE:
    case SQL_DATE: return SQL_C_TYPE_DATE;
    case SQL_TYPE_TIME:
    case SQL_TIME: return SQL_C_TYPE_TIME;
    case SQL_TYPE_TIMESTAMP:
    case SQL_TIMESTAMP: return SQL_C_TYPE_TIMESTAMP;
    case SQL_BINARY:
    case SQL_VARBINARY:
    case SQL_LONGVARBINARY: return SQL_C_BINARY;
    case SQL_WCHAR:
    case SQL_WVARCHAR:
    case SQL_WLONGVARCHAR: return SQL_C_WCHAR;
    default: /* SQL_C_INTERVAL_x is SQL_INTERVAL_x */
        return is_interval_ctype(sqltype) ? sqltype : SQL_C_CHAR;
    }
}
