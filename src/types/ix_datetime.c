/* ix_datetime.c: DATE, DATETIME, INTERVAL (sqli-protocol.md §4.4, §4.5). */
#include "types/ix_datetime.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "types/ix_decimal.h"

static const int64_t pow10_tab[19] = {1,
                                      10,
                                      100,
                                      1000,
                                      10000,
                                      100000,
                                      1000000,
                                      10000000,
                                      100000000,
                                      1000000000,
                                      10000000000,
                                      100000000000,
                                      1000000000000,
                                      10000000000000,
                                      100000000000000,
                                      1000000000000000,
                                      10000000000000000,
                                      100000000000000000,
                                      1000000000000000000};

/* Size of one unit of each field in 10 µs units, indexed by unit / 2. */
static const int64_t unit_size[7] = {0, 0, 8640000000, 360000000, 6000000, 100000, 1};
/* Separator written before each non-leading field, indexed by unit / 2. */
static const char unit_sep[7] = {0, '-', '-', ' ', ':', ':', '.'};

#define UNITS_PER_DAY 8640000000LL

/* ---- DATE ------------------------------------------------------------------ */

int ixt_is_leap(int y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int ixt_days_in_month(int y, int m) {
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12) return 0;
    return m == 2 && ixt_is_leap(y) ? 29 : dim[m - 1];
}

int ixt_date_valid(int y, int m, int d) {
    return y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= ixt_days_in_month(y, m);
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's method). */
static int64_t days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int ixt_date_from_ymd(int y, int m, int d, int32_t *days) {
    if (!ixt_date_valid(y, m, d)) return IX_ERANGE;
    *days = (int32_t)(days_from_civil(y, m, d) + IXT_DATE_UNIX_EPOCH);
    return IX_OK;
}

int ixt_date_weekday(int32_t days) {
    int w = (int)(((int64_t)days % 7 + 7) % 7);
    return w; /* day 0 was a Sunday */
}

int ixt_date_add_days(int32_t days, int64_t n, int32_t *out) {
    if (n > (int64_t)IXT_DATE_MAX - IXT_DATE_MIN || n < (int64_t)IXT_DATE_MIN - IXT_DATE_MAX)
        return IX_ERANGE;
    int64_t r = (int64_t)days + n;
    if (r < IXT_DATE_MIN || r > IXT_DATE_MAX) return IX_ERANGE;
    *out = (int32_t)r;
    return IX_OK;
}

typedef struct dbdate {
    char order[3]; /* 'D', 'M', 'Y' */
    int y4;
    char sep; /* 0 = none */
} dbdate;

static int dbdate_parse(const char *f, dbdate *o) {
    if (!f || !*f) f = "MDY4/";
    int k = 0, seen = 0;
    size_t i = 0;
    o->y4 = 1;
    while (k < 3) {
        int c = toupper((unsigned char)f[i]);
        int bit;
        if (c == 'D' || c == 'M') {
            bit = c == 'D' ? 1 : 2;
            i++;
        } else if (c == 'Y') {
            bit = 4;
            i++;
            if (f[i] == '2') {
                o->y4 = 0;
                i++;
            } else if (f[i] == '4') {
                i++;
            }
        } else {
            return IX_EINVAL;
        }
        if (seen & bit) return IX_EINVAL;
        seen |= bit;
        o->order[k++] = (char)c;
    }
    if (f[i] == 0) {
        o->sep = '/';
        return IX_OK;
    }
    if (f[i] == '0') {
        o->sep = 0;
    } else if (isalnum((unsigned char)f[i]) || !isprint((unsigned char)f[i])) {
        return IX_EINVAL;
    } else {
        o->sep = f[i];
    }
    return f[i + 1] == 0 ? IX_OK : IX_EINVAL;
}

int ixt_date_format(int32_t days, const char *dbdate_s, ixb_wbuf *out) {
    dbdate f;
    int y, m, d;
    char buf[32];
    size_t k = 0;
    if (dbdate_parse(dbdate_s, &f) != IX_OK) return IX_EINVAL;
    if (days < IXT_DATE_MIN || days > IXT_DATE_MAX) return IX_ERANGE;
    ixt_date_to_ymd(days, &y, &m, &d);
    for (int i = 0; i < 3; i++) {
        if (i > 0 && f.sep) buf[k++] = f.sep;
        int v = f.order[i] == 'D' ? d : f.order[i] == 'M' ? m : f.y4 ? y : y % 100;
        int w = f.order[i] == 'Y' && f.y4 ? 4 : 2;
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%0*d", w, v);
    }
    ixb_put_bytes(out, buf, k);
    return out->err;
}

/* Reads 1..maxd digits at s[*i]; returns the count (0 if none) or -1 if more
 * than maxd digits follow. */
static int read_num(const char *s, size_t n, size_t *i, int maxd, int64_t *v) {
    int cnt = 0;
    int64_t x = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        if (cnt < 18) x = x * 10 + (s[*i] - '0');
        cnt++;
        (*i)++;
    }
    *v = x;
    return cnt > maxd ? -1 : cnt;
}

static void skip_blanks(const char *s, size_t n, size_t *i) {
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
        (*i)++;
}

static int date_parse_fmt(const char *s, size_t n, const dbdate *f, int32_t *days) {
    size_t i = 0;
    int64_t v[3];
    skip_blanks(s, n, &i);
    for (int k = 0; k < 3; k++) {
        if (k > 0 && f->sep) {
            if (i >= n || s[i] != f->sep) return IX_EINVAL;
            i++;
        }
        int w = f->order[k] == 'Y' && f->y4 ? 4 : 2;
        size_t st = i;
        int c = read_num(s, f->sep ? n : (i + (size_t)w < n ? i + (size_t)w : n), &i, w, &v[k]);
        if (c <= 0 || (!f->sep && i - st != (size_t)w)) return IX_EINVAL;
        if (f->order[k] == 'Y' && !f->y4) v[k] += 1900;
    }
    skip_blanks(s, n, &i);
    if (i != n) return IX_EINVAL;
    int y = 0, m = 0, d = 0;
    for (int k = 0; k < 3; k++) {
        if (f->order[k] == 'Y') y = (int)v[k];
        if (f->order[k] == 'M') m = (int)v[k];
        if (f->order[k] == 'D') d = (int)v[k];
    }
    return ixt_date_from_ymd(y, m, d, days);
}

int ixt_date_parse(const char *s, size_t n, const char *dbdate_s, int32_t *days) {
    dbdate f;
    if (dbdate_parse(dbdate_s, &f) != IX_OK) return IX_EINVAL;
    int rc = date_parse_fmt(s, n, &f, days);
    if (rc != IX_EINVAL) return rc;
    dbdate iso = {{'Y', 'M', 'D'}, 1, '-'};
    size_t i = 0;
    skip_blanks(s, n, &i);
    if (n - i < 5 || s[i + 4] != '-') return IX_EINVAL; /* ISO needs a 4-digit year */
    return date_parse_fmt(s, n, &iso, days);
}

/* ---- qualifiers --------------------------------------------------------------- */

static int shape_ok(int s, int e) {
    int vs = s >= 0 && s <= 12 && s % 2 == 0;
    int ve = (e >= 0 && e <= 10 && e % 2 == 0) || (e >= 11 && e <= 15);
    if (!vs || !ve) return 0;
    return s == IXT_TU_FRACTION ? e >= 11 : e >= s;
}

static int frac_digits(int e) {
    return e > 10 ? e - 10 : 0;
}

/* Digits of the fields after the leading one. */
static int rest_digits(int s, int e) {
    if (s == IXT_TU_FRACTION) return 0;
    int last = e > 10 ? 10 : e;
    return (last - s) + frac_digits(e); /* 2 digits per field, codes step by 2 */
}

uint32_t ixt_dt_qual(int start, int end) {
    if (!shape_ok(start, end)) return 0;
    int lead = start == IXT_TU_FRACTION ? frac_digits(end) : start == IXT_TU_YEAR ? 4 : 2;
    return IXT_QUAL(lead + rest_digits(start, end), start, end);
}

uint32_t ixt_iv_qual(int prec, int start, int end) {
    if (!shape_ok(start, end)) return 0;
    if (start <= IXT_TU_MONTH && end > IXT_TU_MONTH) return 0;
    if (start == IXT_TU_FRACTION) return IXT_QUAL(frac_digits(end), start, end);
    if (prec < 1 || prec > 9) return 0;
    return IXT_QUAL(prec + rest_digits(start, end), start, end);
}

int ixt_dt_qual_valid(uint32_t q) {
    return q <= 0xffff && q != 0 && ixt_dt_qual(IXT_QUAL_START(q), IXT_QUAL_END(q)) == q;
}

int ixt_iv_qual_prec(uint32_t q) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    if (s == IXT_TU_FRACTION) return frac_digits(e);
    return IXT_QUAL_DIGITS(q) - rest_digits(s, e);
}

int ixt_iv_qual_valid(uint32_t q) {
    if (q > 0xffff || q == 0) return 0;
    return ixt_iv_qual(ixt_iv_qual_prec(q), IXT_QUAL_START(q), IXT_QUAL_END(q)) == q;
}

size_t ixt_qual_width(uint32_t q) {
    int digits = IXT_QUAL_DIGITS(q);
    if (digits == 0) return 0;
    return (size_t)(digits + (int)(q & 1) + 3) / 2;
}

static const int end_codes[11] = {0, 2, 4, 6, 8, 10, 11, 12, 13, 14, 15};

int ixt_dt_qual_list(uint32_t *arr) {
    int k = 0;
    for (int s = 0; s <= 12; s += 2)
        for (int j = 0; j < 11; j++) {
            uint32_t q = ixt_dt_qual(s, end_codes[j]);
            if (!q) continue;
            if (arr) arr[k] = q;
            k++;
        }
    return k;
}

int ixt_iv_qual_list(uint32_t *arr) {
    int k = 0;
    for (int s = 0; s <= 12; s += 2)
        for (int j = 0; j < 11; j++)
            for (int p = 1; p <= 9; p++) {
                uint32_t q = ixt_iv_qual(p, s, end_codes[j]);
                if (!q || (s == IXT_TU_FRACTION && p > 1)) continue;
                if (arr) arr[k] = q;
                k++;
            }
    return k;
}

/* ---- shared field machinery ------------------------------------------------- */

/* v[0..5] = YEAR..SECOND, v[6] = fraction in 10 µs units. lead = digits of
 * the leading field. */
typedef struct fields {
    int64_t v[7];
} fields;

static int last_int_unit(int e) {
    return e > 10 ? 10 : e;
}

/* Packs the fields into `w` tuple bytes. */
static int fields_pack(uint32_t q, int lead, const fields *f, int neg, uint8_t *buf, size_t w) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    int pw[16] = {0}; /* pair of weight 100^k at pw[k + 3] */
    if (s != IXT_TU_FRACTION) {
        for (int u = s; u <= last_int_unit(e); u += 2) {
            int64_t x = f->v[u / 2];
            int np = u == s ? (lead + 1) / 2 : 1;
            int low = 5 - u / 2;
            for (int k = 0; k < np; k++) {
                pw[low + k + 3] = (int)(x % 100);
                x /= 100;
            }
        }
    }
    if (e > 10) {
        int64_t fr = f->v[6] - f->v[6] % pow10_tab[5 - frac_digits(e)];
        pw[2] = (int)(fr / 1000);
        pw[1] = (int)(fr / 10 % 100);
        pw[0] = (int)(fr % 10 * 10);
    }
    ixt_decimal d;
    ixt_dec_zero(&d);
    int top = 15, bot = 0;
    while (top >= 0 && pw[top] == 0)
        top--;
    if (top >= 0) {
        while (pw[bot] == 0)
            bot++;
        d.sign = neg ? -1 : 1;
        d.exp = (int16_t)(top - 3 + 1);
        for (int k = top; k >= bot; k--)
            d.dig[d.ndig++] = (uint8_t)pw[k];
    }
    return ixt_dec_pack(&d, w, buf);
}

/* Unpacks n tuple bytes into fields; checks structure and the leading
 * field's precision only. */
static int fields_unpack(uint32_t q, int lead, const uint8_t *p, size_t n, fields *f, int *neg) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    ixt_decimal d;
    memset(f, 0, sizeof *f);
    *neg = 0;
    int rc = ixt_dec_decode(&d, p, n);
    if (rc != IX_OK) return rc;
    int pw[16] = {0};
    int whi = s == IXT_TU_FRACTION ? -1 : (5 - s / 2) + (lead + 1) / 2 - 1;
    int wlo = e <= 10 ? 5 - e / 2 : -((frac_digits(e) + 1) / 2);
    for (int i = 0; i < d.ndig; i++) {
        int w = d.exp - 1 - i;
        if (!d.dig[i]) continue;
        if (w > whi || w < wlo) return IX_EMALFORMED;
        pw[w + 3] = d.dig[i];
    }
    if (s != IXT_TU_FRACTION) {
        for (int u = s; u <= last_int_unit(e); u += 2) {
            int low = 5 - u / 2;
            int64_t x = 0;
            if (u == s) {
                for (int k = (lead + 1) / 2 - 1; k >= 0; k--)
                    x = x * 100 + pw[low + k + 3];
                if (x >= pow10_tab[lead]) return IX_EMALFORMED;
            } else {
                x = pw[low + 3];
            }
            f->v[u / 2] = x;
        }
    }
    if (e > 10) {
        if (pw[0] % 10) return IX_EMALFORMED;
        int64_t fr = pw[2] * 1000 + pw[1] * 10 + pw[0] / 10;
        if (fr % pow10_tab[5 - frac_digits(e)]) return IX_EMALFORMED;
        f->v[6] = fr;
    }
    *neg = d.sign < 0 && d.ndig > 0;
    return IX_OK;
}

static void put_str(ixb_wbuf *out, const char *s) {
    ixb_put_bytes(out, s, strlen(s));
}

/* Writes the text of the fields; the leading field of an INTERVAL is
 * right-aligned to lead_w with its sign. */
static void fields_text(uint32_t q, int is_iv, int lead_w, int neg, const fields *f,
                        ixb_wbuf *out) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    char buf[48];
    if (s != IXT_TU_FRACTION) {
        for (int u = s; u <= last_int_unit(e); u += 2) {
            long long x = (long long)f->v[u / 2];
            if (u == s) {
                if (is_iv) {
                    snprintf(buf, sizeof buf, "%s%lld", neg ? "-" : "", x);
                    for (int k = (int)strlen(buf); k < lead_w; k++)
                        ixb_put_u8(out, ' ');
                } else {
                    snprintf(buf, sizeof buf, "%0*lld", u == IXT_TU_YEAR ? 4 : 2, x);
                }
            } else {
                ixb_put_u8(out, (uint8_t)unit_sep[u / 2]);
                snprintf(buf, sizeof buf, "%02lld", x);
            }
            put_str(out, buf);
        }
    } else if (neg) {
        ixb_put_u8(out, '-');
    }
    if (e > 10) {
        snprintf(buf, sizeof buf, ".%05lld", (long long)f->v[6]);
        buf[1 + frac_digits(e)] = 0;
        put_str(out, buf);
    }
}

/* Parses the text of the fields. lead_max = digits allowed in the leading
 * field. */
static int fields_parse(uint32_t q, int is_iv, int lead_max, const char *s0, size_t n, fields *f,
                        int *neg) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    size_t i = 0;
    memset(f, 0, sizeof *f);
    *neg = 0;
    skip_blanks(s0, n, &i);
    if (is_iv && i < n && (s0[i] == '-' || s0[i] == '+')) *neg = s0[i++] == '-';
    if (s != IXT_TU_FRACTION) {
        for (int u = s; u <= last_int_unit(e); u += 2) {
            if (u != s) {
                char sep = unit_sep[u / 2];
                if (sep == ' ') {
                    if (i >= n || (s0[i] != ' ' && s0[i] != '\t')) return IX_EINVAL;
                    skip_blanks(s0, n, &i);
                } else {
                    if (i >= n || s0[i] != sep) return IX_EINVAL;
                    i++;
                }
            }
            int c = read_num(s0, n, &i, u == s ? lead_max : 2, &f->v[u / 2]);
            if (c == 0) return IX_EINVAL;
            if (c < 0) return IX_ERANGE;
        }
    }
    if (e > 10) {
        int64_t x;
        if (i >= n || s0[i] != '.') return IX_EINVAL;
        i++;
        int c = read_num(s0, n, &i, frac_digits(e), &x);
        if (c == 0) return IX_EINVAL;
        if (c < 0) return IX_ERANGE;
        f->v[6] = x * pow10_tab[5 - c];
    }
    skip_blanks(s0, n, &i);
    return i == n ? IX_OK : IX_EINVAL;
}

/* Writes `w` packed bytes as a bind value: u16 length, bytes up to the last
 * non-zero pair. */
static void put_bind(const uint8_t *buf, size_t w, ixb_wbuf *out) {
    size_t len = w;
    while (len > 1 && buf[len - 1] == 0)
        len--;
    ixb_put_i16(out, (int)len);
    ixb_put_bytes(out, buf, len);
}

/* Reads a bind value into a zero-filled buffer of the tuple width. */
static int get_bind(uint32_t q, const uint8_t *p, size_t avail, uint8_t *buf, size_t *used) {
    size_t w = ixt_qual_width(q);
    if (avail < 2) return IX_NEED_MORE;
    size_t len = ixb_be16(p);
    if (len == 0 || len > w) return IX_EMALFORMED;
    if (avail - 2 < len) return IX_NEED_MORE;
    memset(buf, 0, w);
    memcpy(buf, p + 2, len);
    if (used) *used = 2 + len;
    return IX_OK;
}

/* ---- DATETIME -------------------------------------------------------------- */

static void dt_to_fields(const ixt_datetime *dt, fields *f) {
    f->v[0] = dt->year;
    f->v[1] = dt->month;
    f->v[2] = dt->day;
    f->v[3] = dt->hour;
    f->v[4] = dt->minute;
    f->v[5] = dt->second;
    f->v[6] = dt->fraction;
}

static void dt_from_fields(const fields *f, ixt_datetime *dt) {
    dt->year = (int)f->v[0];
    dt->month = (int)f->v[1];
    dt->day = (int)f->v[2];
    dt->hour = (int)f->v[3];
    dt->minute = (int)f->v[4];
    dt->second = (int)f->v[5];
    dt->fraction = (int32_t)f->v[6];
}

static int dt_lead(uint32_t q) {
    int s = IXT_QUAL_START(q);
    return s == IXT_TU_YEAR ? 4 : s == IXT_TU_FRACTION ? 0 : 2;
}

int ixt_dt_check(uint32_t q, const ixt_datetime *dt) {
    if (!ixt_dt_qual_valid(q)) return IX_EINVAL;
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    int has[7] = {0};
    if (s != IXT_TU_FRACTION)
        for (int u = s; u <= last_int_unit(e); u += 2)
            has[u / 2] = 1;
    if (has[0] && (dt->year < 1 || dt->year > 9999)) return IX_ERANGE;
    if (has[1] && (dt->month < 1 || dt->month > 12)) return IX_ERANGE;
    if (has[2]) {
        int dim = has[1] ? ixt_days_in_month(has[0] ? dt->year : 2000, dt->month) : 31;
        if (dt->day < 1 || dt->day > dim) return IX_ERANGE;
    }
    if (has[3] && (dt->hour < 0 || dt->hour > 23)) return IX_ERANGE;
    if (has[4] && (dt->minute < 0 || dt->minute > 59)) return IX_ERANGE;
    if (has[5] && (dt->second < 0 || dt->second > 59)) return IX_ERANGE;
    if (e > 10 && (dt->fraction < 0 || dt->fraction > 99999)) return IX_ERANGE;
    return IX_OK;
}

/* ---- fast paths: YEAR TO SECOND and YEAR TO FRACTION(5) -------------------
 *
 * The two full forms nearly every DATETIME column has, with a year of 100 or
 * later: their tuple is a positive DECIMAL with seven base-100 pairs before
 * the point, so it starts 0xC7 and the fields are the pairs themselves:
 *
 *   C7 | YY YY | MM | DD | HH | MI | SS [| F1F2 | F3F4 | F50]
 *
 * and their canonical text is "YYYY-MM-DD HH:MI:SS[.FFFFF]". Anything else
 * (another qualifier, an early year, a pair over 99, other text) takes the
 * general path, which gives the same result for these forms
 * (tests/unit/test_types_datetime.c compares the two). */
#define DT_Y2S  IXT_QUAL(14, IXT_TU_YEAR, IXT_TU_SECOND)
#define DT_Y2F5 IXT_QUAL(19, IXT_TU_YEAR, IXT_TU_F(5))
#define DT_C7   0xC7

static int fast_fields_ok(const ixt_datetime *dt) {
    return dt->year >= 100 && dt->year <= 9999 && dt->month >= 1 && dt->month <= 12 &&
           dt->day >= 1 && dt->day <= ixt_days_in_month(dt->year, dt->month) && dt->hour >= 0 &&
           dt->hour <= 23 && dt->minute >= 0 && dt->minute <= 59 && dt->second >= 0 &&
           dt->second <= 59 && dt->fraction >= 0 && dt->fraction <= 99999;
}

/* 1 when decoded here, 0 for the general path. */
static int fast_decode(uint32_t q, const uint8_t *p, size_t n, ixt_datetime *dt) {
    if ((q != DT_Y2S && q != DT_Y2F5) || n != ixt_qual_width(q) || p[0] != DT_C7 || !p[1]) return 0;
    for (size_t k = 1; k < n; k++)
        if (p[k] > 99) return 0;
    if (q == DT_Y2F5 && p[10] % 10) return 0;
    ixt_datetime v = {p[1] * 100 + p[2],
                      p[3],
                      p[4],
                      p[5],
                      p[6],
                      p[7],
                      q == DT_Y2F5 ? p[8] * 1000 + p[9] * 10 + p[10] / 10 : 0};
    if (!fast_fields_ok(&v)) return 0;
    *dt = v;
    return 1;
}

/* 1 when packed here (buf, *w), 0 for the general path. */
static int fast_pack(uint32_t q, const ixt_datetime *dt, uint8_t *buf, size_t *w) {
    if ((q != DT_Y2S && q != DT_Y2F5) || !dt || !fast_fields_ok(dt)) return 0;
    buf[0] = DT_C7;
    buf[1] = (uint8_t)(dt->year / 100);
    buf[2] = (uint8_t)(dt->year % 100);
    buf[3] = (uint8_t)dt->month;
    buf[4] = (uint8_t)dt->day;
    buf[5] = (uint8_t)dt->hour;
    buf[6] = (uint8_t)dt->minute;
    buf[7] = (uint8_t)dt->second;
    *w = 8;
    if (q == DT_Y2F5) {
        int f = dt->fraction;
        buf[8] = (uint8_t)(f / 1000);
        buf[9] = (uint8_t)(f / 10 % 100);
        buf[10] = (uint8_t)(f % 10 * 10);
        *w = 11;
    }
    return 1;
}

/* Two digits of s at i (-1 if not digits). */
static int two(const char *s, size_t i) {
    unsigned a = (unsigned)(s[i] - '0'), b = (unsigned)(s[i + 1] - '0');
    return a < 10 && b < 10 ? (int)(a * 10 + b) : -1;
}

/* 1 when parsed here, 0 for the general path. */
static int fast_parse(uint32_t q, const char *s, size_t n, ixt_datetime *dt) {
    if (!((q == DT_Y2S && n == 19) || (q == DT_Y2F5 && n == 25))) return 0;
    if (s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':') return 0;
    int y1 = two(s, 0), y2 = two(s, 2);
    ixt_datetime v = {y1 * 100 + y2, two(s, 5), two(s, 8), two(s, 11), two(s, 14), two(s, 17), 0};
    if (y1 < 0 || y2 < 0) return 0;
    if (n == 25) {
        if (s[19] != '.') return 0;
        int f1 = two(s, 20), f2 = two(s, 22);
        unsigned f3 = (unsigned)(s[24] - '0');
        if (f1 < 0 || f2 < 0 || f3 > 9) return 0;
        v.fraction = f1 * 1000 + f2 * 10 + (int)f3;
    }
    if (!fast_fields_ok(&v)) return 0;
    *dt = v;
    return 1;
}

int ixt_dt_decode(uint32_t q, const uint8_t *p, size_t n, ixt_datetime *dt) {
    fields f;
    int neg;
    if (fast_decode(q, p, n, dt)) return IX_OK;
    memset(dt, 0, sizeof *dt);
    if (!ixt_dt_qual_valid(q)) return IX_EINVAL;
    if (n != ixt_qual_width(q)) return IX_EMALFORMED;
    int rc = fields_unpack(q, dt_lead(q), p, n, &f, &neg);
    if (rc != IX_OK) return rc;
    if (neg) return IX_EMALFORMED;
    dt_from_fields(&f, dt);
    if (ixt_dt_check(q, dt) != IX_OK) {
        memset(dt, 0, sizeof *dt);
        return IX_EMALFORMED;
    }
    return IX_OK;
}

static int dt_pack(uint32_t q, const ixt_datetime *dt, uint8_t *buf, size_t *w) {
    fields f;
    if (fast_pack(q, dt, buf, w)) return IX_OK;
    if (!ixt_dt_qual_valid(q)) return IX_EINVAL;
    *w = ixt_qual_width(q);
    if (!dt) {
        memset(buf, 0, *w);
        return IX_OK;
    }
    int rc = ixt_dt_check(q, dt);
    if (rc != IX_OK) return rc;
    dt_to_fields(dt, &f);
    return fields_pack(q, dt_lead(q), &f, 0, buf, *w);
}

int ixt_dt_encode(uint32_t q, const ixt_datetime *dt, ixb_wbuf *out) {
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    size_t w;
    int rc = dt_pack(q, dt, buf, &w);
    if (rc != IX_OK) return rc;
    ixb_put_bytes(out, buf, w);
    return out->err;
}

int ixt_dt_format(uint32_t q, const ixt_datetime *dt, ixb_wbuf *out) {
    fields f;
    int rc = ixt_dt_check(q, dt);
    if (rc != IX_OK) return rc;
    dt_to_fields(dt, &f);
    if (IXT_QUAL_END(q) > 10) f.v[6] -= f.v[6] % pow10_tab[5 - frac_digits(IXT_QUAL_END(q))];
    fields_text(q, 0, 0, 0, &f, out);
    return out->err;
}

int ixt_dt_parse(uint32_t q, const char *s, size_t n, ixt_datetime *dt) {
    fields f;
    int neg;
    if (fast_parse(q, s, n, dt)) return IX_OK;
    memset(dt, 0, sizeof *dt);
    if (!ixt_dt_qual_valid(q)) return IX_EINVAL;
    int rc = fields_parse(q, 0, dt_lead(q), s, n, &f, &neg);
    if (rc != IX_OK) return rc;
    dt_from_fields(&f, dt);
    rc = ixt_dt_check(q, dt);
    if (rc != IX_OK) memset(dt, 0, sizeof *dt);
    return rc;
}

int ixt_dt_encode_bind(uint32_t q, const ixt_datetime *dt, ixb_wbuf *out) {
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    size_t w;
    if (!dt) return IX_EINVAL;
    int rc = dt_pack(q, dt, buf, &w);
    if (rc != IX_OK) return rc;
    put_bind(buf, w, out);
    return out->err;
}

int ixt_dt_decode_bind(uint32_t q, const uint8_t *p, size_t avail, ixt_datetime *dt, size_t *used) {
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    memset(dt, 0, sizeof *dt);
    if (!ixt_dt_qual_valid(q)) return IX_EINVAL;
    size_t u = 0;
    int rc = get_bind(q, p, avail, buf, &u);
    if (rc != IX_OK) return rc;
    rc = ixt_dt_decode(q, buf, ixt_qual_width(q), dt);
    if (rc == IX_NULL_VALUE) rc = IX_EMALFORMED;
    if (rc == IX_OK && used) *used = u;
    return rc;
}

int ixt_dt_to_stamp(const ixt_datetime *dt, int64_t *stamp) {
    int32_t days;
    if (ixt_date_from_ymd(dt->year, dt->month, dt->day, &days) != IX_OK) return IX_ERANGE;
    if (dt->hour < 0 || dt->hour > 23 || dt->minute < 0 || dt->minute > 59 || dt->second < 0 ||
        dt->second > 59 || dt->fraction < 0 || dt->fraction > 99999)
        return IX_ERANGE;
    *stamp = days * UNITS_PER_DAY + dt->hour * unit_size[3] + dt->minute * unit_size[4] +
             dt->second * unit_size[5] + dt->fraction;
    return IX_OK;
}

int ixt_dt_from_stamp(int64_t stamp, ixt_datetime *dt) {
    if (stamp < (int64_t)IXT_DATE_MIN * UNITS_PER_DAY ||
        stamp >= ((int64_t)IXT_DATE_MAX + 1) * UNITS_PER_DAY)
        return IX_ERANGE;
    int64_t days = stamp / UNITS_PER_DAY, rem = stamp % UNITS_PER_DAY;
    if (rem < 0) {
        rem += UNITS_PER_DAY;
        days--;
    }
    ixt_date_to_ymd((int32_t)days, &dt->year, &dt->month, &dt->day);
    dt->hour = (int)(rem / unit_size[3]);
    rem %= unit_size[3];
    dt->minute = (int)(rem / unit_size[4]);
    rem %= unit_size[4];
    dt->second = (int)(rem / unit_size[5]);
    dt->fraction = (int32_t)(rem % unit_size[5]);
    return IX_OK;
}

/* ---- INTERVAL -------------------------------------------------------------- */

static int iv_to_fields(uint32_t q, const ixt_interval *iv, fields *f) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q), p = ixt_iv_qual_prec(q);
    memset(f, 0, sizeof *f);
    if (iv->months < 0 || iv->units < 0) return IX_ERANGE;
    if (s <= IXT_TU_MONTH) {
        if (iv->units) return IX_ERANGE;
        if (s == IXT_TU_YEAR) {
            f->v[0] = iv->months / 12;
            f->v[1] = iv->months % 12;
            if (e == IXT_TU_YEAR && f->v[1]) return IX_ERANGE;
        } else {
            f->v[1] = iv->months;
        }
    } else {
        if (iv->months) return IX_ERANGE;
        int64_t rem = iv->units;
        if (s == IXT_TU_FRACTION) {
            if (rem >= IXT_UNITS_PER_SECOND) return IX_ERANGE;
        } else {
            f->v[s / 2] = rem / unit_size[s / 2];
            rem %= unit_size[s / 2];
            for (int u = s + 2; u <= last_int_unit(e); u += 2) {
                f->v[u / 2] = rem / unit_size[u / 2];
                rem %= unit_size[u / 2];
            }
        }
        if (e <= 10) {
            if (rem) return IX_ERANGE;
        } else {
            if (rem % pow10_tab[5 - frac_digits(e)]) return IX_ERANGE;
            f->v[6] = rem;
        }
    }
    if (s != IXT_TU_FRACTION && f->v[s / 2] >= pow10_tab[p]) return IX_ERANGE;
    return IX_OK;
}

/* Checks the non-leading fields' ranges; fills iv. */
static int iv_from_fields(uint32_t q, const fields *f, int neg, ixt_interval *iv) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    static const int64_t maxv[7] = {0, 11, 0, 23, 59, 59, 99999};
    memset(iv, 0, sizeof *iv);
    iv->sign = 1;
    if (s != IXT_TU_FRACTION)
        for (int u = s + 2; u <= last_int_unit(e); u += 2)
            if (f->v[u / 2] < 0 || f->v[u / 2] > maxv[u / 2]) return IX_ERANGE;
    if (s <= IXT_TU_MONTH) {
        iv->months = f->v[0] * 12 + f->v[1];
    } else {
        for (int k = 2; k < 7; k++)
            iv->units += f->v[k] * unit_size[k];
    }
    if (neg && (iv->months || iv->units)) iv->sign = -1;
    return IX_OK;
}

int ixt_iv_decode(uint32_t q, const uint8_t *p, size_t n, ixt_interval *iv) {
    fields f;
    int neg;
    memset(iv, 0, sizeof *iv);
    iv->sign = 1;
    if (!ixt_iv_qual_valid(q)) return IX_EINVAL;
    if (n != ixt_qual_width(q)) return IX_EMALFORMED;
    int rc = fields_unpack(q, ixt_iv_qual_prec(q), p, n, &f, &neg);
    if (rc != IX_OK) return rc;
    if (iv_from_fields(q, &f, neg, iv) != IX_OK) {
        memset(iv, 0, sizeof *iv);
        iv->sign = 1;
        return IX_EMALFORMED;
    }
    return IX_OK;
}

static int iv_pack(uint32_t q, const ixt_interval *iv, uint8_t *buf, size_t *w) {
    fields f;
    if (!ixt_iv_qual_valid(q)) return IX_EINVAL;
    *w = ixt_qual_width(q);
    if (!iv) {
        memset(buf, 0, *w);
        return IX_OK;
    }
    int rc = iv_to_fields(q, iv, &f);
    if (rc != IX_OK) return rc;
    return fields_pack(q, ixt_iv_qual_prec(q), &f, iv->sign < 0, buf, *w);
}

int ixt_iv_encode(uint32_t q, const ixt_interval *iv, ixb_wbuf *out) {
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    size_t w;
    int rc = iv_pack(q, iv, buf, &w);
    if (rc != IX_OK) return rc;
    ixb_put_bytes(out, buf, w);
    return out->err;
}

int ixt_iv_format(uint32_t q, const ixt_interval *iv, ixb_wbuf *out) {
    fields f;
    if (!ixt_iv_qual_valid(q)) return IX_EINVAL;
    int rc = iv_to_fields(q, iv, &f);
    if (rc != IX_OK) return rc;
    fields_text(q, 1, ixt_iv_qual_prec(q), iv->sign < 0 && (iv->months || iv->units), &f, out);
    return out->err;
}

int ixt_iv_parse(uint32_t q, const char *s, size_t n, ixt_interval *iv) {
    fields f;
    int neg;
    memset(iv, 0, sizeof *iv);
    iv->sign = 1;
    if (!ixt_iv_qual_valid(q)) return IX_EINVAL;
    int rc = fields_parse(q, 1, ixt_iv_qual_prec(q), s, n, &f, &neg);
    if (rc != IX_OK) return rc;
    return iv_from_fields(q, &f, neg, iv);
}

int ixt_iv_encode_bind(uint32_t q, const ixt_interval *iv, ixb_wbuf *out) {
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    size_t w;
    if (!iv) return IX_EINVAL;
    int rc = iv_pack(q, iv, buf, &w);
    if (rc != IX_OK) return rc;
    put_bind(buf, w, out);
    return out->err;
}

int ixt_iv_decode_bind(uint32_t q, const uint8_t *p, size_t avail, ixt_interval *iv, size_t *used) {
    uint8_t buf[IXT_DEC_MAXPAIRS + 1];
    memset(iv, 0, sizeof *iv);
    iv->sign = 1;
    if (!ixt_iv_qual_valid(q)) return IX_EINVAL;
    size_t u = 0;
    int rc = get_bind(q, p, avail, buf, &u);
    if (rc != IX_OK) return rc;
    rc = ixt_iv_decode(q, buf, ixt_qual_width(q), iv);
    if (rc == IX_NULL_VALUE) rc = IX_EMALFORMED;
    if (rc == IX_OK && used) *used = u;
    return rc;
}

int ixt_iv_cmp(const ixt_interval *a, const ixt_interval *b) {
    int64_t x = a->months ? a->months : a->units, y = b->months ? b->months : b->units;
    if (a->sign < 0) x = -x;
    if (b->sign < 0) y = -y;
    return x < y ? -1 : x > y;
}

/* ---- arithmetic ------------------------------------------------------------ */

int ixt_dt_diff(const ixt_datetime *a, const ixt_datetime *b, ixt_interval *out) {
    int64_t x, y;
    if (ixt_dt_to_stamp(a, &x) != IX_OK || ixt_dt_to_stamp(b, &y) != IX_OK) return IX_ERANGE;
    memset(out, 0, sizeof *out);
    out->sign = x < y ? -1 : 1;
    out->units = x < y ? y - x : x - y;
    return IX_OK;
}

int ixt_dt_add(const ixt_datetime *dt, const ixt_interval *iv, ixt_datetime *out) {
    ixt_datetime t = *dt;
    int64_t st;
    if (iv->months < 0 || iv->units < 0 || iv->months > 120000 || iv->units > INT64_MAX / 4)
        return IX_ERANGE;
    if (iv->months) {
        int64_t tot =
            (int64_t)t.year * 12 + (t.month - 1) + (iv->sign < 0 ? -iv->months : iv->months);
        if (tot < 12 || tot >= 12 * 10000) return IX_ERANGE;
        t.year = (int)(tot / 12);
        t.month = (int)(tot % 12) + 1;
    }
    if (ixt_dt_to_stamp(&t, &st) != IX_OK) return IX_ERANGE;
    st += iv->sign < 0 ? -iv->units : iv->units;
    return ixt_dt_from_stamp(st, out);
}
