/* ts_elem.c: elements of a series: the row type's value kinds, element text
 * ("ts|v1|v2|...") in and out, numbers as text, and the packed form of a
 * head element. Plain C (the packed and text forms are fuzzed by
 * tests/fuzz/fuzz_ts_elem.c). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/ts/ts_int.h"

int ixts_field_kind(const ts_field *f) {
    switch (f->code) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_INT8:
    case IX_T_BIGINT: return TS_K_INT;
    case IX_T_SMALLFLOAT: return TS_K_F32;
    case IX_T_FLOAT: return TS_K_F64;
    case IX_T_DECIMAL: return TS_K_DEC;
    default: return 0;
    }
}

int ixts_field_scale(const ts_field *f) {
    int s = (int)(f->len & 0xff);
    return s == 0xff ? -1 : s;
}

int ixts_time_digits(const ts_rowtype *rt, int64_t us) {
    int f = ixts_rowtype_fdig(rt);
    if (f < 6 && us % 10) return 6;
    static const int64_t unit[6] = {1000000, 100000, 10000, 1000, 100, 10};
    while (f < 5 && us % unit[f])
        f++;
    return f;
}

int ixts_rowtype_fdig(const ts_rowtype *rt) {
    /* DATETIME qualifier: (length << 8) | (start << 4) | end; FRACTION(n) ends at 10 + n */
    int end = (int)(rt->f[0].len & 0xf);
    return end > 10 ? end - 10 : 0;
}

static const int64_t pow10i[19] = {1LL,
                                   10LL,
                                   100LL,
                                   1000LL,
                                   10000LL,
                                   100000LL,
                                   1000000LL,
                                   10000000LL,
                                   100000000LL,
                                   1000000000LL,
                                   10000000000LL,
                                   100000000000LL,
                                   1000000000000LL,
                                   10000000000000LL,
                                   100000000000000LL,
                                   1000000000000000LL,
                                   10000000000000000LL,
                                   100000000000000000LL,
                                   1000000000000000000LL};
static const double pow10d[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A decimal number as written: sign, up to 19 significant digits in m,
 * value = m * 10^exp; *more when digits beyond 19 were dropped (nonzero). */
typedef struct decnum {
    int neg;
    uint64_t m;
    int exp;
    int sig;  /* significant digits kept */
    int more; /* nonzero digits dropped */
} decnum;

static int scan_dec(const char *s, size_t n, decnum *d) {
    size_t i = 0;
    memset(d, 0, sizeof *d);
    if (i < n && (s[i] == '-' || s[i] == '+')) d->neg = s[i++] == '-';
    int any = 0, point = 0;
    for (; i < n; i++) {
        char ch = s[i];
        if (ch >= '0' && ch <= '9') {
            any = 1;
            if (d->m == 0 && ch == '0') {
                if (point) d->exp--;
                continue;
            }
            if (d->sig < 19) {
                d->m = d->m * 10 + (uint64_t)(ch - '0');
                d->sig++;
                if (point) d->exp--;
            } else {
                if (ch != '0') d->more = 1;
                if (!point) d->exp++;
            }
        } else if (ch == '.' && !point) {
            point = 1;
        } else
            break;
    }
    if (!any) return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int eneg = 0, ev = 0, ed = 0;
        if (i < n && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (ev < 100000) ev = ev * 10 + (s[i] - '0');
            i++, ed++;
        }
        if (!ed) return -1;
        d->exp += eneg ? -ev : ev;
    }
    return i == n ? 0 : -1;
}

static int parse_double(const char *s, size_t n, int is_float, double *out) {
    const char *w = s;
    size_t wn = n;
    int neg = 0;
    if (wn && (*w == '-' || *w == '+')) neg = *w == '-', w++, wn--;
    if ((wn == 3 && !strncasecmp(w, "inf", 3)) || (wn == 8 && !strncasecmp(w, "infinity", 8))) {
        *out = neg ? -INFINITY : INFINITY;
        return 0;
    }
    if (wn == 3 && !strncasecmp(w, "nan", 3)) {
        *out = neg ? -NAN : NAN;
        return 0;
    }
    decnum d;
    if (scan_dec(s, n, &d)) return -1;
    /* exact when the digits and the power of ten are both exact doubles */
    if (!is_float && !d.more && d.m < (1ull << 53) && d.exp >= -22 && d.exp <= 22) {
        double v = (double)d.m;
        v = d.exp < 0 ? v / pow10d[-d.exp] : v * pow10d[d.exp];
        *out = d.neg ? -v : v;
        return 0;
    }
    char buf[400];
    if (n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    *out = is_float ? (double)strtof(buf, &end) : strtod(buf, &end);
    return *end ? -1 : 0;
}

static int parse_int(const ts_field *f, const char *s, size_t n, int64_t *out, ixv_err *e) {
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (i == n) return ixv_seterr(e, TS_E_NUM, 0, 0, NULL);
    uint64_t v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return ixv_seterr(e, TS_E_NUM, 0, 0, NULL);
        if (v > (UINT64_MAX - 9) / 10) return ixv_seterr(e, TS_E_NUM, 0, 0, NULL);
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    uint64_t lim = f->code == IX_T_SMALLINT  ? 32767
                   : f->code == IX_T_INTEGER ? 2147483647
                                             : (uint64_t)INT64_MAX;
    if (v > lim)
        return ixv_seterr(e,
                          f->code == IX_T_SMALLINT  ? TS_E_SMALLINT
                          : f->code == IX_T_INTEGER ? TS_E_INTEGER
                                                    : TS_E_NUM,
                          0, 0, NULL);
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

/* Rounds d (half away from zero) to `scale` fraction digits (-exp). */
static int dec_to_scale(decnum *d, int scale) {
    while (-d->exp > scale) {
        uint64_t r = d->m % 10;
        d->m /= 10;
        d->exp++;
        if (r >= 5) d->m++;
        if (d->sig) d->sig--;
    }
    while (-d->exp < scale) {
        if (d->m > (uint64_t)INT64_MAX / 10) return -1;
        d->m *= 10;
        d->exp--;
    }
    return 0;
}

static int parse_decimal(const ts_field *f, const char *s, size_t n, ts_val *v, ixv_err *e) {
    decnum d;
    if (scan_dec(s, n, &d)) return ixv_seterr(e, TS_E_NUM, 0, 0, NULL);
    int fixed = ixts_field_scale(f);
    int prec = (int)(f->len >> 8);
    if (fixed >= 0) {
        if (d.more && -d.exp >= fixed) return ixv_seterr(e, TS_E_DEC_PREC, 0, 0, NULL);
        if (dec_to_scale(&d, fixed)) return ixv_seterr(e, TS_E_DEC_PREC, 0, 0, NULL);
    } else {
        if (d.more) return ixv_seterr(e, TS_E_DEC_PREC, 0, 0, NULL);
        if (d.exp > 0 && dec_to_scale(&d, 0)) return ixv_seterr(e, TS_E_DEC_PREC, 0, 0, NULL);
        if (-d.exp > 32) dec_to_scale(&d, 32);
    }
    if (d.m > 999999999999999999ull) return ixv_seterr(e, TS_E_DEC_PREC, 0, 0, NULL);
    /* digits before the point within the declared precision */
    int intd = 0;
    for (uint64_t q = d.m / (uint64_t)pow10i[-d.exp > 18 ? 18 : -d.exp]; q; q /= 10)
        intd++;
    if (-d.exp <= 18 && intd > prec - (fixed >= 0 ? fixed : 0))
        return ixv_seterr(e, TS_E_DEC_PREC, 0, 0, NULL);
    v->i = d.neg ? -(int64_t)d.m : (int64_t)d.m;
    v->scale = (int8_t)-d.exp;
    return 0;
}

int ixts_val_parse(const ts_field *f, const char *s, size_t n, ts_val *v, ixv_err *e) {
    while (n && s[n - 1] == ' ')
        n--;
    while (n && *s == ' ')
        s++, n--;
    memset(v, 0, sizeof *v);
    if (!n) {
        v->null = 1;
        return 0;
    }
    switch (ixts_field_kind(f)) {
    case TS_K_INT: return parse_int(f, s, n, &v->i, e);
    case TS_K_F64:
    case TS_K_F32:
        if (parse_double(s, n, ixts_field_kind(f) == TS_K_F32, &v->d))
            return ixv_seterr(e, TS_E_NUM, 0, 0, NULL);
        return 0;
    case TS_K_DEC: return parse_decimal(f, s, n, v, e);
    default: return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Unsupported field type");
    }
}

/* An element line holds exactly one field per column of rt, separated by '|'.
 * Informix's loader format ends each line with '|': that one trailing
 * delimiter is dropped first, so "t|1|2|" is three fields, never four with an
 * empty (NULL) last one; a NULL last metric is written "t|1|2||". */
int ixts_elem_parse(const ts_rowtype *rt, const char *s, size_t n, ts_elem *el, ixv_err *e) {
    size_t i = 0;
    int field = 0;
    while (n && (s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    if (n && s[n - 1] == '|') n--;
    for (;;) {
        const char *p = memchr(s + i, '|', n - i);
        size_t end = p ? (size_t)(p - s) : n;
        if (field >= rt->nf)
            return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Element has more fields than %s (%d)",
                              rt->name, rt->nf);
        int rc = field == 0 ? ixts_time_parse(s + i, end - i, &el->t, e)
                            : ixts_val_parse(&rt->f[field], s + i, end - i, &el->v[field - 1], e);
        if (rc) return -1;
        field++;
        if (!p) break;
        i = end + 1;
    }
    if (field < rt->nf)
        return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Element has %d fields, %s has %d", field,
                          rt->name, rt->nf);
    return 0;
}

/* ---- numbers as text ----------------------------------------------------------- */

char *ixts_put_u64(char *o, uint64_t u) {
    char t[24];
    int k = 24;
    do {
        t[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    memcpy(o, t + k, (size_t)(24 - k));
    return o + (24 - k);
}

static void put_u64(uint64_t v, sb *out) {
    char b[24];
    ixv_sb_addn(out, b, (size_t)(ixts_put_u64(b, v) - b));
}

void ixts_dec_text(int64_t m, int scale, sb *out) {
    uint64_t u = m < 0 ? 0 - (uint64_t)m : (uint64_t)m;
    if (m < 0) ixv_sb_addc(out, '-');
    if (scale <= 0) {
        put_u64(u, out);
        return;
    }
    /* digits from the right: scale fraction digits, the point, at least one
     * integer digit */
    char b[64];
    int k = 64;
    for (int d = 0; d < scale && k > 2; d++) {
        b[--k] = (char)('0' + u % 10);
        u /= 10;
    }
    b[--k] = '.';
    do {
        b[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u && k > 0);
    ixv_sb_addn(out, b + k, (size_t)(64 - k));
}

void ixts_double_text(double d, int is_float, sb *out) {
    if (d == 0) {
        ixv_sb_add(out, signbit(d) ? "-0" : "0");
        return;
    }
    if (fabs(d) < 1e15 && d == (double)(int64_t)d) {
        int64_t v = (int64_t)d;
        if (v < 0) ixv_sb_addc(out, '-');
        put_u64(v < 0 ? 0 - (uint64_t)v : (uint64_t)v, out);
        return;
    }
    /* a decimal with few fraction digits (what text such as 20.01 gives):
     * the fewest digits m / 10^s that read back, without formatting */
    if (!is_float && fabs(d) >= 1e-4 && fabs(d) < 1e15) {
        static const double p10[9] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
        for (int sc = 1; sc < 9; sc++) {
            double m = nearbyint(d * p10[sc]);
            if (fabs(m) < 9007199254740992.0 && m / p10[sc] == d) {
                ixts_dec_text((int64_t)m, sc, out);
                return;
            }
        }
    }
    char buf[40];
    int lo = is_float ? 6 : 15, hi = is_float ? 9 : 17;
    for (int p = lo; p <= hi; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, d);
        if (is_float ? strtof(buf, NULL) == (float)d : strtod(buf, NULL) == d) break;
    }
    ixv_sb_add(out, buf);
}

void ixts_val_text(const ts_field *f, const ts_val *v, int json, sb *out) {
    if (v->null) {
        if (json) ixv_sb_add(out, "null");
        return;
    }
    int k = ixts_field_kind(f);
    if (k == TS_K_INT) {
        if (v->i < 0) ixv_sb_addc(out, '-');
        put_u64(v->i < 0 ? 0 - (uint64_t)v->i : (uint64_t)v->i, out);
    } else if (k == TS_K_DEC) {
        ixts_dec_text(v->i, v->scale, out);
    } else if (isnan(v->d)) {
        ixv_sb_add(out, json ? "\"NaN\"" : "nan");
    } else if (isinf(v->d)) {
        ixv_sb_add(out,
                   v->d < 0 ? (json ? "\"-Infinity\"" : "-inf") : (json ? "\"Infinity\"" : "inf"));
    } else {
        ixts_double_text(v->d, k == TS_K_F32, out);
    }
}

void ixts_elem_text(const ts_rowtype *rt, const ts_elem *el, sb *out) {
    char tb[TS_TIME_TEXT];
    ixv_sb_addn(out, tb, ixts_time_format(el->t, ixts_time_digits(rt, el->t), tb));
    for (int m = 1; m < rt->nf; m++) {
        ixv_sb_addc(out, '|');
        ixts_val_text(&rt->f[m], &el->v[m - 1], 0, out);
    }
    /* a NULL last metric is an empty field: close it so the text reads back */
    if (rt->nf > 1 && el->v[rt->nf - 2].null) ixv_sb_addc(out, '|');
}

/* ---- packed head elements ---------------------------------------------------------- */

size_t ixts_elem_pack(const ts_rowtype *rt, const ts_elem *el, uint8_t *buf) {
    uint8_t *p = buf;
    for (int m = 1; m < rt->nf; m++) {
        const ts_val *v = &el->v[m - 1];
        int k = ixts_field_kind(&rt->f[m]);
        if (v->null) {
            *p++ = 0;
            continue;
        }
        *p++ = 1;
        uint64_t u;
        if (k == TS_K_F64 || k == TS_K_F32)
            memcpy(&u, &v->d, 8);
        else
            u = (uint64_t)v->i;
        for (int b = 0; b < 8; b++)
            *p++ = (uint8_t)(u >> (8 * b));
        if (k == TS_K_DEC) *p++ = (uint8_t)v->scale;
    }
    return (size_t)(p - buf);
}

int ixts_elem_unpack(const ts_rowtype *rt, const uint8_t *p, size_t n, ts_elem *el) {
    size_t at = 0;
    for (int m = 1; m < rt->nf; m++) {
        ts_val *v = &el->v[m - 1];
        int k = ixts_field_kind(&rt->f[m]);
        memset(v, 0, sizeof *v);
        if (at >= n) return -1;
        if (p[at] == 0) {
            v->null = 1;
            at++;
            continue;
        }
        if (p[at] != 1) return -1;
        size_t need = 1 + 8 + (k == TS_K_DEC);
        if (n - at < need) return -1;
        uint64_t u = 0;
        for (int b = 0; b < 8; b++)
            u |= (uint64_t)p[at + 1 + (size_t)b] << (8 * b);
        if (k == TS_K_F64 || k == TS_K_F32)
            memcpy(&v->d, &u, 8);
        else
            v->i = (int64_t)u;
        if (k == TS_K_DEC) {
            v->scale = (int8_t)p[at + 9];
            if (v->scale < 0 || v->scale > 32) return -1;
        }
        at += need;
    }
    return at == n ? 0 : -1;
}

void ixts_val_result(const ts_field *f, const ts_val *v, sqlite3_context *ctx) {
    if (v->null) {
        sqlite3_result_null(ctx);
        return;
    }
    switch (ixts_field_kind(f)) {
    case TS_K_INT: sqlite3_result_int64(ctx, v->i); return;
    case TS_K_F64:
    case TS_K_F32: sqlite3_result_double(ctx, v->d); return;
    default: {
        sb t = {0};
        ixts_dec_text(v->i, v->scale, &t);
        ixt_decimal d;
        uint8_t blob[20];
        size_t bn;
        if (t.oom || ixt_dec_from_text(&d, t.p, t.n) != IX_OK) {
            ixv_sb_free(&t);
            sqlite3_result_error_nomem(ctx);
            return;
        }
        ixv_sb_free(&t);
        ixv_dec_to_blob(&d, blob, &bn);
        sqlite3_result_blob(ctx, blob, (int)bn, SQLITE_TRANSIENT);
    }
    }
}

/* ---- element arrays ------------------------------------------------------------- */

size_t ixts_elem_size(int nf) {
    return offsetof(ts_elem, v) + (size_t)(nf > 1 ? nf - 1 : 1) * sizeof(ts_val);
}

void ixts_els_init(ts_els *a, int nf) {
    memset(a, 0, sizeof *a);
    a->sz = ixts_elem_size(nf);
}

int ixts_els_reserve(ts_els *a, size_t n) {
    if (n <= a->cap) return 0;
    size_t nc = a->cap ? a->cap : 64;
    while (nc < n)
        nc *= 2;
    uint8_t *np = realloc(a->p, nc * a->sz);
    if (!np) return -1;
    a->p = np;
    a->cap = nc;
    return 0;
}

ts_elem *ixts_els_push(ts_els *a) {
    if (a->n == a->cap && ixts_els_reserve(a, a->n + 1)) return NULL;
    ts_elem *el = ts_at(a, a->n++);
    memset(el, 0, a->sz);
    return el;
}

void ixts_els_free(ts_els *a) {
    free(a->p);
    a->p = NULL;
    a->n = a->cap = 0;
}
