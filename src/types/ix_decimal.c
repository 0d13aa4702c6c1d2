/* ix_decimal.c: exact base-100 DECIMAL/MONEY codec (sqli-protocol.md §4.3). */
#include "types/ix_decimal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Working form: sign * 0.d[0]d[1]...d[nd-1] * 10^pt, base 10, canonical
 * (d[0] != 0, d[nd-1] != 0) unless nd == 0 (zero). */
typedef struct dec10 {
    int sign;
    int nd;
    int pt;
    uint8_t d[2 * IXT_DEC_MAXPAIRS + 4];
} dec10;

static void d10_trim(dec10 *x) {
    int lead = 0;
    while (lead < x->nd && x->d[lead] == 0)
        lead++;
    if (lead) {
        memmove(x->d, x->d + lead, (size_t)(x->nd - lead));
        x->nd -= lead;
        x->pt -= lead;
    }
    while (x->nd > 0 && x->d[x->nd - 1] == 0)
        x->nd--;
    if (x->nd == 0) {
        x->pt = 0;
        x->sign = 1;
    }
}

static void to10(const ixt_decimal *d, dec10 *x) {
    /* ndig <= IXT_DEC_MAXPAIRS is an invariant of ixt_decimal; the bound keeps
     * a corrupted value from writing past x->d. */
    int n = d->ndig <= IXT_DEC_MAXPAIRS ? d->ndig : IXT_DEC_MAXPAIRS;
    x->sign = d->sign < 0 ? -1 : 1;
    x->nd = 2 * n;
    x->pt = 2 * d->exp;
    for (int i = 0; i < n; i++) {
        x->d[2 * i] = (uint8_t)(d->dig[i] / 10);
        x->d[2 * i + 1] = (uint8_t)(d->dig[i] % 10);
    }
    d10_trim(x);
}

/* Returns IX_OK or IX_ERANGE (too many pairs, exponent out of range). */
static int from10(const dec10 *x0, ixt_decimal *d) {
    dec10 x = *x0;
    d10_trim(&x);
    memset(d, 0, sizeof *d);
    d->sign = 1;
    if (x.nd == 0) return IX_OK;
    if (x.pt % 2 != 0) {
        if (x.nd >= (int)sizeof x.d) return IX_ERANGE;
        memmove(x.d + 1, x.d, (size_t)x.nd);
        x.d[0] = 0;
        x.nd++;
        x.pt++;
    }
    if (x.nd % 2) x.d[x.nd++] = 0;
    int pairs = x.nd / 2;
    int exp = x.pt / 2;
    if (pairs > IXT_DEC_MAXPAIRS || exp - 1 < IXT_DEC_MINEXP - 1 || exp > IXT_DEC_MAXEXP)
        return IX_ERANGE;
    d->sign = (int8_t)x.sign;
    d->exp = (int16_t)exp;
    d->ndig = (uint8_t)pairs;
    for (int i = 0; i < pairs; i++)
        d->dig[i] = (uint8_t)(x.d[2 * i] * 10 + x.d[2 * i + 1]);
    return IX_OK;
}

/* Keeps the first `keep` digits, rounding half away from zero. */
static void d10_round(dec10 *x, int keep) {
    if (x->nd <= keep) return;
    int up = keep >= 0 && x->d[keep] >= 5;
    if (keep <= 0) {
        if (up) {
            x->d[0] = 1;
            x->nd = 1;
            x->pt += 1;
        } else {
            x->nd = 0;
        }
        d10_trim(x);
        return;
    }
    x->nd = keep;
    if (up) {
        int i = keep - 1;
        while (i >= 0 && x->d[i] == 9)
            i--;
        if (i < 0) {
            x->d[0] = 1;
            x->nd = 1;
            x->pt++;
        } else {
            x->d[i]++;
            x->nd = i + 1;
        }
    }
    d10_trim(x);
}

void ixt_dec_zero(ixt_decimal *d) {
    memset(d, 0, sizeof *d);
    d->sign = 1;
}

void ixt_dec_null(ixt_decimal *d) {
    memset(d, 0, sizeof *d);
    d->is_null = 1;
}

int ixt_dec_digits(const ixt_decimal *d, int *pt) {
    dec10 x;
    if (d->is_null) {
        if (pt) *pt = 0;
        return 0;
    }
    to10(d, &x);
    if (pt) *pt = x.pt;
    return x.nd;
}

static int is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int ixt_dec_from_text(ixt_decimal *d, const char *s, size_t n) {
    size_t i = 0;
    dec10 x;
    memset(&x, 0, sizeof x);
    x.sign = 1;
    ixt_dec_zero(d);
    while (i < n && is_blank(s[i]))
        i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) x.sign = s[i++] == '-' ? -1 : 1;
    int started = 0, ndigits = 0, sig = 0, last_nz = -1;
    long pt = 0;
    int seen_point = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.' && !seen_point) {
            seen_point = 1;
            continue;
        }
        if (c < '0' || c > '9') break;
        ndigits++;
        int v = c - '0';
        if (!started && v == 0) {
            if (seen_point) pt--;
            continue;
        }
        started = 1;
        if (!seen_point) pt++;
        if (sig < (int)sizeof x.d) x.d[sig] = (uint8_t)v;
        if (v) last_nz = sig;
        sig++;
    }
    if (ndigits == 0) return IX_EINVAL;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int esign = 1;
        long ev = 0;
        if (i < n && (s[i] == '+' || s[i] == '-')) esign = s[i++] == '-' ? -1 : 1;
        size_t e0 = i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (ev < 100000) ev = ev * 10 + (s[i] - '0');
        if (i == e0) return IX_EINVAL;
        pt += esign * ev;
    }
    while (i < n && is_blank(s[i]))
        i++;
    if (i != n) return IX_EINVAL;
    if (last_nz < 0) return IX_OK; /* zero, whatever the exponent */
    if (last_nz + 1 > IXT_DEC_MAXDIGITS) return IX_ERANGE;
    /* 1E-130 = 0.1 * 10^-129; the largest value is < 10^126. */
    if (pt < -129 || pt > 126) return IX_ERANGE;
    x.nd = last_nz + 1;
    x.pt = (int)pt;
    return from10(&x, d);
}

static void put_digits(ixb_wbuf *out, const uint8_t *dg, int n) {
    for (int i = 0; i < n; i++)
        ixb_put_u8(out, (uint8_t)('0' + dg[i]));
}

static void put_char_n(ixb_wbuf *out, char c, int n) {
    for (int i = 0; i < n; i++)
        ixb_put_u8(out, (uint8_t)c);
}

int ixt_dec_to_text(const ixt_decimal *d, int scale, ixb_wbuf *out) {
    if (d->is_null) return IX_NULL_VALUE;
    dec10 x;
    to10(d, &x);
    if (scale >= 0 && scale != IXT_DEC_FLOAT) {
        d10_round(&x, x.pt + scale);
        if (x.sign < 0 && x.nd) ixb_put_u8(out, '-');
        if (x.pt <= 0) {
            ixb_put_u8(out, '0');
        } else {
            for (int i = 0; i < x.pt; i++)
                ixb_put_u8(out, (uint8_t)('0' + (i < x.nd ? x.d[i] : 0)));
        }
        if (scale > 0) {
            ixb_put_u8(out, '.');
            for (int j = 0; j < scale; j++) {
                int idx = x.pt + j;
                ixb_put_u8(out, (uint8_t)('0' + (idx >= 0 && idx < x.nd ? x.d[idx] : 0)));
            }
        }
        return out->err;
    }
    if (x.nd == 0) {
        ixb_put_u8(out, '0');
        return out->err;
    }
    if (x.sign < 0) ixb_put_u8(out, '-');
    int plain = x.pt <= 0 ? 1 - x.pt + x.nd : (x.pt >= x.nd ? x.pt : x.nd);
    if (plain <= IXT_DEC_MAXDIGITS) {
        if (x.pt <= 0) {
            ixb_put_bytes(out, "0.", 2);
            put_char_n(out, '0', -x.pt);
            put_digits(out, x.d, x.nd);
        } else if (x.pt >= x.nd) {
            put_digits(out, x.d, x.nd);
            put_char_n(out, '0', x.pt - x.nd);
        } else {
            put_digits(out, x.d, x.pt);
            ixb_put_u8(out, '.');
            put_digits(out, x.d + x.pt, x.nd - x.pt);
        }
    } else {
        char eb[16];
        put_digits(out, x.d, 1);
        if (x.nd > 1) {
            ixb_put_u8(out, '.');
            put_digits(out, x.d + 1, x.nd - 1);
        }
        int e = x.pt - 1;
        int m = snprintf(eb, sizeof eb, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
        ixb_put_bytes(out, eb, (size_t)m);
    }
    return out->err;
}

size_t ixt_dec_width(int prec, int scale) {
    if (prec < 1 || prec > IXT_DEC_MAXDIGITS) return 0;
    if (scale != IXT_DEC_FLOAT && (scale < 0 || scale > prec)) return 0;
    return (size_t)(prec + (scale & 1) + 3) / 2;
}

int ixt_dec_round(ixt_decimal *d, int scale) {
    if (d->is_null || scale < 0 || scale == IXT_DEC_FLOAT) return IX_OK;
    dec10 x;
    to10(d, &x);
    d10_round(&x, x.pt + scale);
    return from10(&x, d);
}

int ixt_dec_round_sig(ixt_decimal *d, int digits) {
    if (d->is_null || digits < 1) return IX_OK;
    dec10 x;
    to10(d, &x);
    d10_round(&x, digits);
    return from10(&x, d);
}

int ixt_dec_decode(ixt_decimal *d, const uint8_t *p, size_t n) {
    ixt_dec_zero(d);
    if (n < 1 || n > IXT_DEC_MAXPAIRS + 1) return IX_EMALFORMED;
    size_t nz = 0;
    for (size_t i = 0; i < n; i++)
        nz |= p[i];
    if (!nz) {
        ixt_dec_null(d);
        return IX_NULL_VALUE;
    }
    int neg = !(p[0] & 0x80);
    int e = (neg ? (p[0] ^ 0x7f) : p[0]) & 0x7f;
    e -= 64;
    uint8_t m[IXT_DEC_MAXPAIRS];
    int np = (int)n - 1;
    for (int i = 0; i < np; i++) {
        if (p[1 + i] > 99) return IX_EMALFORMED;
        m[i] = p[1 + i];
    }
    if (neg) {
        int k = np - 1;
        while (k >= 0 && m[k] == 0)
            k--;
        if (k < 0) return IX_EMALFORMED; /* negative zero */
        m[k] = (uint8_t)(100 - m[k]);
        for (int i = 0; i < k; i++)
            m[i] = (uint8_t)(99 - m[i]);
    }
    int lz = 0;
    while (lz < np && m[lz] == 0)
        lz++;
    if (lz == np) return IX_OK; /* zero (any exponent) */
    int last = np - 1;
    while (m[last] == 0)
        last--;
    int exp = e - lz;
    if (exp < IXT_DEC_MINEXP || exp > IXT_DEC_MAXEXP) return IX_EMALFORMED;
    d->sign = neg ? -1 : 1;
    d->exp = (int16_t)exp;
    d->ndig = (uint8_t)(last - lz + 1);
    memcpy(d->dig, m + lz, d->ndig);
    if (ixt_dec_digits(d, NULL) > IXT_DEC_MAXDIGITS) {
        ixt_dec_zero(d);
        return IX_EMALFORMED;
    }
    return IX_OK;
}

int ixt_dec_pack(const ixt_decimal *d, size_t width, uint8_t *out) {
    if (width < 1) return IX_ERANGE;
    memset(out, 0, width);
    if (d->is_null) return IX_OK;
    if (d->ndig == 0) {
        out[0] = 0x80;
        return IX_OK;
    }
    if (d->ndig > width - 1 || d->exp < IXT_DEC_MINEXP || d->exp > IXT_DEC_MAXEXP) return IX_ERANGE;
    uint8_t b = (uint8_t)(d->exp + 64);
    if (d->sign >= 0) {
        out[0] = 0x80 | b;
        memcpy(out + 1, d->dig, d->ndig);
    } else {
        out[0] = b ^ 0x7f;
        int k = d->ndig - 1; /* canonical: dig[k] != 0 */
        out[1 + k] = (uint8_t)(100 - d->dig[k]);
        for (int i = 0; i < k; i++)
            out[1 + i] = (uint8_t)(99 - d->dig[i]);
    }
    return IX_OK;
}

int ixt_dec_encode(const ixt_decimal *d, int prec, int scale, ixb_wbuf *out) {
    size_t w = ixt_dec_width(prec, scale);
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    if (!w) return IX_EINVAL;
    if (d->is_null) {
        ixb_put_zeros(out, w);
        return out->err;
    }
    ixt_decimal r = *d;
    int rc;
    if (scale == IXT_DEC_FLOAT) {
        rc = ixt_dec_round_sig(&r, prec);
    } else {
        rc = ixt_dec_round(&r, scale);
        int pt, nd = ixt_dec_digits(&r, &pt);
        if (rc == IX_OK && nd > 0 && pt > prec - scale) rc = IX_ERANGE;
    }
    if (rc == IX_OK) rc = ixt_dec_pack(&r, w, buf);
    if (rc != IX_OK) return rc;
    ixb_put_bytes(out, buf, w);
    return out->err;
}

int ixt_dec_encode_bind(const ixt_decimal *d, ixb_wbuf *out) {
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    if (d->is_null) return IX_EINVAL;
    int rc = ixt_dec_pack(d, sizeof buf, buf);
    if (rc != IX_OK) return rc;
    size_t len = 1 + (size_t)d->ndig;
    ixb_put_i16(out, (int)len);
    ixb_put_bytes(out, buf, len);
    return out->err;
}

int ixt_dec_decode_bind(ixt_decimal *d, const uint8_t *p, size_t avail, size_t *used) {
    ixt_dec_zero(d);
    if (avail < 2) return IX_NEED_MORE;
    size_t len = ixb_be16(p);
    if (len == 0 || len > IXT_DEC_MAXPAIRS + 1) return IX_EMALFORMED;
    if (avail - 2 < len) return IX_NEED_MORE;
    int rc = ixt_dec_decode(d, p + 2, len);
    if (rc == IX_NULL_VALUE) {
        ixt_dec_zero(d);
        return IX_EMALFORMED;
    }
    if (rc == IX_OK && used) *used = 2 + len;
    return rc;
}

int ixt_dec_cmp(const ixt_decimal *a, const ixt_decimal *b) {
    if (a->is_null || b->is_null) return (int)!a->is_null - (int)!b->is_null;
    int sa = a->ndig ? a->sign : 0, sb = b->ndig ? b->sign : 0;
    if (sa != sb) return sa < sb ? -1 : 1;
    if (sa == 0) return 0;
    int mag;
    if (a->exp != b->exp) {
        mag = a->exp < b->exp ? -1 : 1;
    } else {
        mag = 0;
        int n = a->ndig > b->ndig ? a->ndig : b->ndig;
        for (int i = 0; i < n && !mag; i++) {
            int x = i < a->ndig ? a->dig[i] : 0, y = i < b->ndig ? b->dig[i] : 0;
            if (x != y) mag = x < y ? -1 : 1;
        }
    }
    return sa > 0 ? mag : -mag;
}

int ixt_dec_from_i64(ixt_decimal *d, int64_t v) {
    ixt_dec_zero(d);
    if (v == 0) return IX_OK;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    uint8_t le[12];
    int n = 0;
    while (u) {
        le[n++] = (uint8_t)(u % 100);
        u /= 100;
    }
    d->sign = v < 0 ? -1 : 1;
    d->exp = (int16_t)n;
    int k = 0;
    for (int i = n - 1; i >= 0; i--)
        d->dig[k++] = le[i];
    while (k > 0 && d->dig[k - 1] == 0)
        k--;
    d->ndig = (uint8_t)k;
    return IX_OK;
}

int ixt_dec_to_i64(const ixt_decimal *d, int64_t *v) {
    if (d->is_null) return IX_NULL_VALUE;
    *v = 0;
    if (d->ndig == 0 || d->exp <= 0) return IX_OK;
    if (d->exp > 10) return IX_ERANGE;
    uint64_t lim = d->sign < 0 ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1;
    uint64_t acc = 0;
    for (int i = 0; i < d->exp; i++) {
        unsigned dg = i < d->ndig ? d->dig[i] : 0;
        if (acc > (lim - dg) / 100) return IX_ERANGE;
        acc = acc * 100 + dg;
    }
    *v = d->sign < 0 ? (int64_t)(0 - acc) : (int64_t)acc;
    if (d->sign < 0 && acc == (uint64_t)1 << 63) *v = INT64_MIN;
    return IX_OK;
}

int ixt_dec_from_double(ixt_decimal *d, double v) {
    char buf[40];
    ixt_dec_zero(d);
    if (isnan(v) || isinf(v)) return IX_ERANGE;
    int n = snprintf(buf, sizeof buf, "%.17g", v);
    if (n <= 0 || (size_t)n >= sizeof buf) return IX_ERANGE;
    return ixt_dec_from_text(d, buf, (size_t)n);
}

/* d as m x 10^p10 with m < 2^53 and |p10| <= 22 (Clinger's fast path: m
 * and 10^|p10| are exact doubles, so one multiplication or division rounds
 * correctly): 1 with *v set, else 0. */
static int to_double_exact(const ixt_decimal *d, double *v) {
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (d->ndig > 8) return 0;
    uint64_t m = 0;
    for (int i = 0; i < d->ndig; i++)
        m = m * 100 + d->dig[i];
    int p10 = 2 * (d->exp - d->ndig);
    if (m > (UINT64_C(1) << 53) || p10 > 22 || p10 < -22) return 0;
    double x = p10 >= 0 ? (double)m * pow10[p10] : (double)m / pow10[-p10];
    *v = d->sign < 0 ? -x : x;
    return 1;
}

int ixt_dec_to_double(const ixt_decimal *d, double *v) {
    if (d->is_null) return IX_NULL_VALUE;
    if (to_double_exact(d, v)) return IX_OK;
    dec10 x;
    char buf[64];
    size_t k = 0;
    to10(d, &x);
    if (x.nd == 0) {
        *v = 0.0;
        return IX_OK;
    }
    if (x.sign < 0) buf[k++] = '-';
    buf[k++] = '0';
    buf[k++] = '.';
    for (int i = 0; i < x.nd; i++)
        buf[k++] = (char)('0' + x.d[i]);
    snprintf(buf + k, sizeof buf - k, "e%d", x.pt);
    *v = strtod(buf, NULL);
    return IX_OK;
}

int ixt_dec_split(const ixt_decimal *d, int scale, int *sign, char *digits, size_t cap,
                  int *out_scale) {
    if (d->is_null) return IX_NULL_VALUE;
    dec10 x;
    to10(d, &x);
    int fixed = scale >= 0 && scale != IXT_DEC_FLOAT;
    if (fixed) d10_round(&x, x.pt + scale);
    int sc = fixed ? scale : x.nd - x.pt;
    /* value * 10^sc is an integer of pt + sc digits: d[0..nd), then zeros */
    int n = x.nd ? x.pt + sc : 1;
    if (cap == 0 || (size_t)n >= cap) return IX_ERANGE;
    if (x.nd == 0) {
        digits[0] = '0';
    } else {
        for (int i = 0; i < n; i++)
            digits[i] = (char)('0' + (i < x.nd ? x.d[i] : 0));
    }
    digits[n] = 0;
    *sign = x.nd ? x.sign : 1;
    *out_scale = x.nd || fixed ? sc : 0;
    return n;
}

/* ---- arithmetic ---------------------------------------------------------------------- */

/* Exact arithmetic on base-100 digit arrays. A number is sign * sum dig[i] *
 * 100^(exp-1-i). We work with up to W pairs and round to 16 pairs (32 digits). */
#define DW 80
typedef struct bigd {
    int sign;
    int exp;
    int n;
    int dig[DW];
} bigd;

static void bd_from(const ixt_decimal *a, bigd *b) {
    b->sign = a->sign;
    b->exp = a->exp;
    b->n = a->ndig;
    for (int i = 0; i < a->ndig; i++)
        b->dig[i] = a->dig[i];
}

/* Normalises and rounds to 32 significant digits, into r. */
static int bd_to(bigd *b, ixt_decimal *r) {
    /* strip leading zero pairs */
    int lead = 0;
    while (lead < b->n && b->dig[lead] == 0)
        lead++;
    if (lead == b->n) {
        ixt_dec_zero(r);
        return IX_OK;
    }
    if (lead) {
        memmove(b->dig, b->dig + lead, sizeof(int) * (size_t)(b->n - lead));
        b->n -= lead;
        b->exp -= lead;
    }
    /* round to 32 significant decimal digits: the first pair may hold 1 or 2 */
    int sigdigits = b->dig[0] >= 10 ? 2 : 1;
    int keep_digits = 32;
    /* digits available: sigdigits + 2*(n-1) */
    int total = sigdigits + 2 * (b->n - 1);
    if (total > keep_digits) {
        /* drop (total - keep) decimal digits from the end */
        int drop = total - keep_digits;
        /* express as pairs: position of last kept digit */
        int lastpair, half; /* half = 1 when we cut inside a pair (keep tens digit) */
        int kept_after_first = keep_digits - sigdigits; /* digits after first pair */
        lastpair = kept_after_first / 2;                /* index of last pair fully/partly kept */
        half = kept_after_first % 2;
        (void)drop;
        int roundup = 0;
        if (half) {
            /* keep tens digit of pair lastpair+1 */
            int p = lastpair + 1;
            int units = b->dig[p] % 10;
            roundup = units >= 5;
            b->dig[p] -= units;
            b->n = p + 1;
            if (roundup) b->dig[p] += 10;
            for (int i = p; i > 0 && b->dig[i] >= 100; i--) {
                b->dig[i] -= 100;
                b->dig[i - 1]++;
            }
        } else {
            int p = lastpair; /* last kept pair index */
            roundup = b->dig[p + 1] >= 50;
            b->n = p + 1;
            if (roundup) b->dig[p]++;
            for (int i = p; i > 0 && b->dig[i] >= 100; i--) {
                b->dig[i] -= 100;
                b->dig[i - 1]++;
            }
        }
        if (b->dig[0] >= 100) {
            memmove(b->dig + 1, b->dig, sizeof(int) * (size_t)b->n);
            b->dig[0] = b->dig[1] / 100;
            b->dig[1] %= 100;
            b->n++;
            b->exp++;
        }
    }
    while (b->n > 0 && b->dig[b->n - 1] == 0)
        b->n--;
    if (b->n > IXT_DEC_MAXPAIRS) b->n = IXT_DEC_MAXPAIRS;
    if (b->exp > IXT_DEC_MAXEXP || b->exp < IXT_DEC_MINEXP) return IX_ERANGE;
    memset(r, 0, sizeof *r);
    r->sign = (int8_t)(b->sign < 0 ? -1 : 1);
    r->exp = (int16_t)b->exp;
    r->ndig = (uint8_t)b->n;
    for (int i = 0; i < b->n; i++)
        r->dig[i] = (uint8_t)b->dig[i];
    return IX_OK;
}

/* |a| compared with |b| at aligned exponents */
static int bd_cmpabs(const bigd *a, const bigd *b) {
    if (a->n == 0 || b->n == 0) return (a->n != 0) - (b->n != 0);
    if (a->exp != b->exp) return a->exp > b->exp ? 1 : -1;
    int m = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < m; i++) {
        int x = i < a->n ? a->dig[i] : 0, y = i < b->n ? b->dig[i] : 0;
        if (x != y) return x > y ? 1 : -1;
    }
    return 0;
}

int ixt_dec_add(const ixt_decimal *x, const ixt_decimal *y, int sub, ixt_decimal *r) {
    if (x->is_null || y->is_null) {
        ixt_dec_null(r);
        return IX_NULL_VALUE;
    }
    bigd a, b, c;
    bd_from(x, &a);
    bd_from(y, &b);
    if (sub) b.sign = -b.sign;
    if (a.n == 0) return bd_to(&b, r);
    if (b.n == 0) return bd_to(&a, r);
    /* align: top exponent, result pairs */
    int top = (a.exp > b.exp ? a.exp : b.exp) + 1;
    int lowa = a.exp - a.n, lowb = b.exp - b.n;
    int low = lowa < lowb ? lowa : lowb;
    int width = top - low;
    if (width > DW) { /* the smaller operand is below 32-digit precision: drop it */
        int lim = top - DW;
        if (lowa < lim) a.n = a.exp - lim > 0 ? a.exp - lim : 0;
        if (lowb < lim) b.n = b.exp - lim > 0 ? b.exp - lim : 0;
        low = lim;
        width = DW;
    }
    int va[DW], vb[DW];
    memset(va, 0, sizeof va);
    memset(vb, 0, sizeof vb);
    for (int i = 0; i < a.n; i++) {
        int pos = top - (a.exp - i); /* index from the top, 1-based weight */
        if (pos >= 0 && pos < width) va[pos] = a.dig[i];
    }
    for (int i = 0; i < b.n; i++) {
        int pos = top - (b.exp - i);
        if (pos >= 0 && pos < width) vb[pos] = b.dig[i];
    }
    c.exp = top;
    c.n = width;
    if (a.sign == b.sign) {
        int carry = 0;
        for (int i = width - 1; i >= 0; i--) {
            int s = va[i] + vb[i] + carry;
            c.dig[i] = s % 100;
            carry = s / 100;
        }
        c.sign = a.sign;
    } else {
        /* subtract the smaller magnitude from the larger */
        int cmp = 0;
        for (int i = 0; i < width && !cmp; i++)
            if (va[i] != vb[i]) cmp = va[i] > vb[i] ? 1 : -1;
        if (cmp == 0) {
            ixt_dec_zero(r);
            return IX_OK;
        }
        int *big = cmp > 0 ? va : vb, *sm = cmp > 0 ? vb : va;
        c.sign = cmp > 0 ? a.sign : b.sign;
        int borrow = 0;
        for (int i = width - 1; i >= 0; i--) {
            int s = big[i] - sm[i] - borrow;
            borrow = s < 0;
            if (s < 0) s += 100;
            c.dig[i] = s;
        }
    }
    (void)bd_cmpabs;
    return bd_to(&c, r);
}

int ixt_dec_mul(const ixt_decimal *x, const ixt_decimal *y, ixt_decimal *r) {
    if (x->is_null || y->is_null) {
        ixt_dec_null(r);
        return IX_NULL_VALUE;
    }
    if (x->ndig == 0 || y->ndig == 0) {
        ixt_dec_zero(r);
        return IX_OK;
    }
    bigd c;
    int n = x->ndig + y->ndig;
    int acc[2 * IXT_DEC_MAXPAIRS + 2];
    memset(acc, 0, sizeof acc);
    for (int i = 0; i < x->ndig; i++)
        for (int j = 0; j < y->ndig; j++)
            acc[i + j + 1] += x->dig[i] * y->dig[j];
    for (int k = n - 1; k > 0; k--) {
        acc[k - 1] += acc[k] / 100;
        acc[k] %= 100;
    }
    c.sign = x->sign * y->sign;
    c.exp = x->exp + y->exp;
    c.n = n;
    for (int i = 0; i < n; i++)
        c.dig[i] = acc[i];
    return bd_to(&c, r);
}

int ixt_dec_div(const ixt_decimal *x, const ixt_decimal *y, ixt_decimal *r) {
    if (x->is_null || y->is_null) {
        ixt_dec_null(r);
        return IX_NULL_VALUE;
    }
    if (y->ndig == 0) return IX_EINVAL;
    if (x->ndig == 0) {
        ixt_dec_zero(r);
        return IX_OK;
    }
    /* Q = (xint * 100^K) / yint by schoolbook long division in base 100;
     * value = 0.Q * 100^(xe - ye + yn). */
    int yn = y->ndig, K = 18 + yn, L = x->ndig + K;
    if (L > DW) L = DW;
    int cw = yn + 1; /* remainder width (pairs), right aligned */
    int cur[IXT_DEC_MAXPAIRS + 2];
    memset(cur, 0, sizeof cur);
    bigd c;
    for (int i = 0; i < L; i++) {
        /* cur = cur * 100 + D[i] */
        memmove(cur, cur + 1, sizeof(int) * (size_t)(cw - 1));
        cur[cw - 1] = i < x->ndig ? x->dig[i] : 0;
        int q = 0, lo = 0, hi = 99;
        while (lo <= hi) {
            int mid = (lo + hi) / 2;
            int prod[IXT_DEC_MAXPAIRS + 2];
            int carry = 0;
            for (int k = yn - 1; k >= 0; k--) {
                int s = y->dig[k] * mid + carry;
                prod[k + 1] = s % 100;
                carry = s / 100;
            }
            prod[0] = carry;
            int cmp = 0;
            for (int k = 0; k < cw && !cmp; k++)
                if (cur[k] != prod[k]) cmp = cur[k] > prod[k] ? 1 : -1;
            if (cmp >= 0) {
                q = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (q) {
            int carry = 0, borrow = 0;
            for (int k = cw - 1; k >= 0; k--) {
                int yi = k - 1;
                int pv = carry + (yi >= 0 ? y->dig[yi] * q : 0);
                carry = pv / 100;
                pv %= 100;
                int s = cur[k] - pv - borrow;
                borrow = s < 0;
                if (s < 0) s += 100;
                cur[k] = s;
            }
        }
        c.dig[i] = q;
    }
    c.n = L;
    c.sign = x->sign * y->sign;
    c.exp = x->exp - y->exp + yn;
    return bd_to(&c, r);
}
