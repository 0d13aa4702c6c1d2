/* ixs_func_impl.c: the SQLite functions behind the Informix built-ins of
 * ixs_func.c that SQLite has no equivalent for: padding, INITCAP, CHR,
 * ASCII, HEX, CEIL/FLOOR of exact numbers, month arithmetic, ROUND/TRUNC of
 * dates, TO_CHAR/TO_DATE with GL_DATETIME directives and numeric formats,
 * STDEV and VARIANCE. Every function returns NULL for a NULL argument. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_func.h"

enum {
    IXS_E_FMT_MISMATCH = IXV_E_FMT_MISMATCH, /* Input does not match format specification. */
    IXS_E_BAD_DATE = IXV_E_DT_FIELD, /* A field in a datetime or interval value is incorrect ... */
    IXS_E_BAD_ARG = IXV_E_CONVERT,   /* A character to numeric conversion process failed. */
    IXS_E_RANGE = IXV_E_INT_RANGE,   /* Value exceeds limit of INTEGER precision. */
    IXS_MAX_FMT_OUT = 4096,          /* longest TO_CHAR result */
};

static int any_null(int argc, sqlite3_value **argv) {
    for (int i = 0; i < argc; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return 1;
    return 0;
}

#define NULL_IN_NULL_OUT()                                                                         \
    do {                                                                                           \
        if (any_null(argc, argv)) {                                                                \
            sqlite3_result_null(ctx);                                                              \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* ---- strings --------------------------------------------------------------------------------- */

/* ixd_pad(s, n, pad, left, width): s (a CHAR of width w padded with blanks
 * to w first) padded at the left (or right) with repeats of pad to n
 * characters, or cut to n. n < 1 or an empty pad: NULL. */
static void f_pad(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    size_t sn = (size_t)sqlite3_value_bytes(argv[0]);
    int64_t n = sqlite3_value_int64(argv[1]);
    const char *pad = (const char *)sqlite3_value_text(argv[2]);
    size_t pn = (size_t)sqlite3_value_bytes(argv[2]);
    int left = sqlite3_value_int(argv[3]);
    int64_t w = sqlite3_value_int64(argv[4]);
    if (!s || !pad || n < 1 || n > 32739 || pn == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    size_t src = sn < (size_t)w ? (size_t)w : sn; /* CHAR(w): blank filled */
    char *b = sqlite3_malloc64((sqlite3_uint64)n + 1);
    if (!b) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    size_t total = (size_t)n, keep = src < total ? src : total, fill = total - keep, o = 0;
    if (left)
        for (size_t i = 0; i < fill; i++)
            b[o++] = pad[i % pn];
    for (size_t i = 0; i < keep; i++)
        b[o++] = i < sn ? s[i] : ' ';
    if (!left)
        for (size_t i = 0; i < fill; i++)
            b[o++] = pad[i % pn];
    sqlite3_result_text(ctx, b, (int)o, sqlite3_free);
}

/* ixd_initcap(s): every letter that follows a non-letter in upper case,
 * every other letter in lower case */
static void f_initcap(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    const unsigned char *s = sqlite3_value_text(argv[0]);
    int n = sqlite3_value_bytes(argv[0]);
    char *b = sqlite3_malloc(n + 1);
    if (!s || !b) {
        sqlite3_free(b);
        sqlite3_result_error_nomem(ctx);
        return;
    }
    int prev_alpha = 0;
    for (int i = 0; i < n; i++) {
        int c = s[i];
        int alpha = isalpha(c) != 0;
        b[i] = (char)(alpha ? (prev_alpha ? tolower(c) : toupper(c)) : c);
        prev_alpha = alpha;
    }
    sqlite3_result_text(ctx, b, n, sqlite3_free);
}

/* ixd_ascii(s): the code of the first byte (0 for an empty string) */
static void f_ascii(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    const unsigned char *s = sqlite3_value_text(argv[0]);
    sqlite3_result_int(ctx, s ? s[0] : 0);
}

/* ixd_chr(n): the character of code n, 0..255; other codes -1215 */
static void f_chr(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    int64_t n = sqlite3_value_int64(argv[0]);
    if (n < 0 || n > 255) {
        ixv_fn_err(ctx, IXS_E_RANGE, NULL);
        return;
    }
    char c = (char)n;
    sqlite3_result_text(ctx, &c, 1, SQLITE_TRANSIENT);
}

/* ixd_hex(n): "0x" and 8 upper-case hex digits of n as a 32-bit integer, or
 * 16 for a value beyond 32 bits (two's complement for negative values) */
static void f_hex(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    int64_t v = sqlite3_value_int64(argv[0]);
    char b[24];
    if (v >= INT32_MIN && v <= INT32_MAX)
        snprintf(b, sizeof b, "0x%08X", (unsigned)(uint32_t)(int32_t)v);
    else
        snprintf(b, sizeof b, "0x%016llX", (unsigned long long)(uint64_t)v);
    sqlite3_result_text(ctx, b, -1, SQLITE_TRANSIENT);
}

/* ---- numbers --------------------------------------------------------------------------------- */

/* ixd_ceil(x, dir): the integer above (dir 1) or below (dir -1) x, exact */
static void f_ceil(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    int dir = sqlite3_value_int(argv[1]);
    ixt_decimal d, t, one, r;
    int rc = ixv_fn_arg_dec(ctx, argv[0], &d);
    if (rc) {
        if (rc == 1) sqlite3_result_null(ctx);
        return;
    }
    t = d;
    for (int i = 0; i < t.ndig; i++)
        if (t.exp - 1 - i < 0) t.dig[i] = 0; /* pairs below the units */
    while (t.ndig > 0 && t.dig[t.ndig - 1] == 0)
        t.ndig--;
    if (t.ndig == 0) ixt_dec_zero(&t);
    if (ixt_dec_cmp(&t, &d) != 0 && (dir > 0) == (d.sign > 0)) {
        ixt_dec_from_i64(&one, dir);
        if (ixv_dec_add(&t, &one, 0, &r) < 0) {
            ixv_fn_err(ctx, IXV_E_DEC_PREC, NULL);
            return;
        }
        t = r;
    }
    ixv_fn_res_dec(ctx, &t);
}

/* STDEV and VARIANCE: sample variance (divisor N - 1; 0 for one value),
 * Welford's running mean */
typedef struct varagg {
    int64_t n;
    double mean, m2;
} varagg;

static void var_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    varagg *a = sqlite3_aggregate_context(ctx, sizeof *a);
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    double x = sqlite3_value_double(argv[0]);
    a->n++;
    double dx = x - a->mean;
    a->mean += dx / (double)a->n;
    a->m2 += dx * (x - a->mean);
}

static void var_final(sqlite3_context *ctx) {
    int sd = (int)(intptr_t)sqlite3_user_data(ctx);
    varagg *a = sqlite3_aggregate_context(ctx, 0);
    if (!a || a->n == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    double v = a->n > 1 ? a->m2 / (double)(a->n - 1) : 0.0;
    sqlite3_result_double(ctx, sd ? sqrt(v) : v);
}

/* ---- dates ----------------------------------------------------------------------------------- */

/* Reads argument i (value, code, qualifier at argv[i..i+2]); 0, 1 NULL or
 * -1 after raising the error. */
static int dt_arg(sqlite3_context *ctx, sqlite3_value **argv, int i, ixt_datetime *dt) {
    int rc = ixv_fn_full_dt(argv[i], sqlite3_value_int(argv[i + 1]),
                            (uint32_t)sqlite3_value_int64(argv[i + 2]), dt);
    if (rc < 0) ixv_fn_err(ctx, rc, NULL);
    return rc < 0 ? -1 : rc;
}

/* Returns dt as the argument's type: DATE (code) or DATETIME of q. */
static void dt_result(sqlite3_context *ctx, int code, uint32_t q, const ixt_datetime *dt) {
    if (code == IX_T_DATE) {
        int32_t days;
        if (ixt_date_from_ymd(dt->year, dt->month, dt->day, &days) != IX_OK) {
            ixv_fn_err(ctx, IXS_E_BAD_DATE, NULL);
            return;
        }
        sqlite3_result_int(ctx, days);
        return;
    }
    ixv_fn_res_dt(ctx, q, dt);
}

/* ixd_add_months(v, code, q, n): n months later, the day cut to the end of
 * the month (January 31 + 1 month = February 28/29) */
static void f_add_months(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    ixt_datetime dt;
    if (dt_arg(ctx, argv, 0, &dt)) return;
    int64_t m = (int64_t)dt.year * 12 + (dt.month - 1) + sqlite3_value_int64(argv[3]);
    if (m < 12 || m >= 12 * 10000) {
        ixv_fn_err(ctx, IXS_E_BAD_DATE, NULL);
        return;
    }
    dt.year = (int)(m / 12);
    dt.month = (int)(m % 12) + 1;
    int dim = ixt_days_in_month(dt.year, dt.month);
    if (dt.day > dim) dt.day = dim;
    dt_result(ctx, sqlite3_value_int(argv[1]), (uint32_t)sqlite3_value_int64(argv[2]), &dt);
}

/* ixd_last_day(v, code, q): the DATE of the last day of v's month */
static void f_last_day(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    ixt_datetime dt;
    if (dt_arg(ctx, argv, 0, &dt)) return;
    dt.day = ixt_days_in_month(dt.year, dt.month);
    dt_result(ctx, IX_T_DATE, 0, &dt);
}

/* ixd_months_between(a, ca, qa, b, cb, qb): months from b to a; whole when
 * the days are equal or both the last of their month, else with the
 * difference of days and times over a 31-day month */
static void f_months_between(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    ixt_datetime a, b;
    if (dt_arg(ctx, argv, 0, &a) || dt_arg(ctx, argv, 3, &b)) return;
    int64_t months = ((int64_t)a.year * 12 + a.month) - ((int64_t)b.year * 12 + b.month);
    ixt_decimal r, frac, sum;
    ixt_dec_from_i64(&r, months);
    int lasta = a.day == ixt_days_in_month(a.year, a.month);
    int lastb = b.day == ixt_days_in_month(b.year, b.month);
    if (a.day != b.day && !(lasta && lastb)) {
        /* (days + seconds / 86400) / 31, in 10 microsecond units, exact */
        int64_t ua = (((int64_t)a.day * 24 + a.hour) * 60 + a.minute) * 60 + a.second;
        int64_t ub = (((int64_t)b.day * 24 + b.hour) * 60 + b.minute) * 60 + b.second;
        int64_t du = (ua - ub) * IXT_UNITS_PER_SECOND + (a.fraction - b.fraction);
        ixt_decimal num, den;
        ixt_dec_from_i64(&num, du);
        ixt_dec_from_i64(&den, 31LL * 86400 * IXT_UNITS_PER_SECOND);
        if (ixv_dec_div(&num, &den, &frac) < 0 || ixv_dec_add(&r, &frac, 0, &sum) < 0) {
            ixv_fn_err(ctx, IXV_E_DEC_PREC, NULL);
            return;
        }
        r = sum;
    }
    ixv_fn_res_dec(ctx, &r);
}

/* ixd_dround(v, code, q, unit, trunc): v rounded (or truncated) to the
 * unit: 'YEAR'/'YYYY'/'YY', 'MONTH'/'MM', 'DAY'/'DD', 'HH', 'MI'. A value
 * rounds up from the middle of the unit: July 1, the 16th, noon, 30 minutes,
 * 30 seconds. Another unit is -1213. */
static void f_dround(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    NULL_IN_NULL_OUT();
    ixt_datetime dt;
    if (dt_arg(ctx, argv, 0, &dt)) return;
    const char *u = (const char *)sqlite3_value_text(argv[3]);
    int trunc = sqlite3_value_int(argv[4]);
    int level; /* 0 year 1 month 2 day 3 hour 4 minute */
    if (!strcasecmp(u, "year") || !strcasecmp(u, "yyyy") || !strcasecmp(u, "yy"))
        level = 0;
    else if (!strcasecmp(u, "month") || !strcasecmp(u, "mm"))
        level = 1;
    else if (!strcasecmp(u, "day") || !strcasecmp(u, "dd"))
        level = 2;
    else if (!strcasecmp(u, "hh"))
        level = 3;
    else if (!strcasecmp(u, "mi"))
        level = 4;
    else {
        ixv_fn_err(ctx, IXS_E_BAD_ARG, NULL);
        return;
    }
    int up = !trunc && ((level == 0 && dt.month >= 7) || (level == 1 && dt.day >= 16) ||
                        (level == 2 && dt.hour >= 12) || (level == 3 && dt.minute >= 30) ||
                        (level == 4 && dt.second >= 30));
    if (level < 1) dt.month = 1;
    if (level < 2) dt.day = 1;
    if (level < 3) dt.hour = 0;
    if (level < 4) dt.minute = 0;
    dt.second = 0;
    dt.fraction = 0;
    if (up) {
        int64_t stamp;
        ixt_interval iv = {.sign = 1};
        if (level == 0) iv.months = 12;
        if (level == 1) iv.months = 1;
        if (level == 2) iv.units = 86400LL * IXT_UNITS_PER_SECOND;
        if (level == 3) iv.units = 3600LL * IXT_UNITS_PER_SECOND;
        if (level == 4) iv.units = 60LL * IXT_UNITS_PER_SECOND;
        ixt_datetime r;
        if (ixt_dt_add(&dt, &iv, &r) != IX_OK || ixt_dt_to_stamp(&r, &stamp) != IX_OK) {
            ixv_fn_err(ctx, IXS_E_BAD_DATE, NULL);
            return;
        }
        dt = r;
    }
    dt_result(ctx, sqlite3_value_int(argv[1]), (uint32_t)sqlite3_value_int64(argv[2]), &dt);
}

/* ---- TO_CHAR and TO_DATE ------------------------------------------------------------------------
 */

static const char *const month_names[] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
static const char *const day_names[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};

/* One GL_DATETIME directive c (after '%', with an 'i' prefix for %iy/%iY,
 * precision fp for %F) of dt appended to b. Returns 0, or -1 if c is not a
 * directive. */
static int put_directive(ixb_wbuf *b, char c, int fp, const ixt_datetime *dt, int wday) {
    char t[48];
    int n = 0;
    switch (c) {
    case 'a': n = snprintf(t, sizeof t, "%.3s", day_names[wday]); break;
    case 'A': n = snprintf(t, sizeof t, "%s", day_names[wday]); break;
    case 'b':
    case 'h': n = snprintf(t, sizeof t, "%.3s", month_names[dt->month - 1]); break;
    case 'B': n = snprintf(t, sizeof t, "%s", month_names[dt->month - 1]); break;
    case 'C': n = snprintf(t, sizeof t, "%02d", dt->year / 100); break;
    case 'd': n = snprintf(t, sizeof t, "%02d", dt->day); break;
    case 'D':
        n = snprintf(t, sizeof t, "%02d/%02d/%02d", dt->month, dt->day, dt->year % 100);
        break;
    case 'e': n = snprintf(t, sizeof t, "%2d", dt->day); break;
    case 'm': n = snprintf(t, sizeof t, "%02d", dt->month); break;
    case 'n': n = snprintf(t, sizeof t, "\n"); break;
    case 't': n = snprintf(t, sizeof t, "\t"); break;
    case 'w': n = snprintf(t, sizeof t, "%d", wday); break;
    case 'y': n = snprintf(t, sizeof t, "%02d", dt->year % 100); break;
    case 'Y': n = snprintf(t, sizeof t, "%04d", dt->year); break;
    case 'H': n = snprintf(t, sizeof t, "%02d", dt->hour); break;
    case 'I': n = snprintf(t, sizeof t, "%02d", dt->hour % 12 ? dt->hour % 12 : 12); break;
    case 'M': n = snprintf(t, sizeof t, "%02d", dt->minute); break;
    case 'p': n = snprintf(t, sizeof t, "%s", dt->hour < 12 ? "AM" : "PM"); break;
    case 'S': n = snprintf(t, sizeof t, "%02d", dt->second); break;
    case 'R': n = snprintf(t, sizeof t, "%02d:%02d", dt->hour, dt->minute); break;
    case 'T': n = snprintf(t, sizeof t, "%02d:%02d:%02d", dt->hour, dt->minute, dt->second); break;
    case 'F': {
        int32_t f = dt->fraction;
        for (int k = fp; k < 5; k++)
            f /= 10;
        n = fp ? snprintf(t, sizeof t, "%0*d", fp, (int)f) : 0;
        break;
    }
    case '%': n = snprintf(t, sizeof t, "%%"); break;
    default: return -1;
    }
    ixb_put_bytes(b, t, (size_t)n);
    return 0;
}

/* dt formatted with the directives of fmt into b */
static void format_dt(const char *fmt, const ixt_datetime *dt, ixb_wbuf *b) {
    int32_t days = 0;
    ixt_date_from_ymd(dt->year, dt->month, dt->day, &days);
    int wday = ixt_date_weekday(days);
    for (const char *f = fmt; *f && b->len < IXS_MAX_FMT_OUT; f++) {
        if (*f != '%' || !f[1]) {
            ixb_put_u8(b, (uint8_t)*f);
            continue;
        }
        const char *start = f++;
        if (*f == 'i' && (f[1] == 'y' || f[1] == 'Y')) f++;
        char c = *f;
        int fp = 2;
        if (c == 'F' && f[1] >= '0' && f[1] <= '9') fp = *++f - '0';
        if (fp > 5) fp = 5;
        if (put_directive(b, c, fp, dt, wday)) ixb_put_bytes(b, start, (size_t)(f - start + 1));
    }
}

/* ixd_to_char_dt(v, code, q, fmt): v with the GL_DATETIME directives of fmt;
 * fmt NULL: a DATE as DBDATE (MM/DD/YYYY), a DATETIME in its own form */
static void f_to_char_dt(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_datetime dt;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    if (dt_arg(ctx, argv, 0, &dt)) return;
    int code = sqlite3_value_int(argv[1]);
    uint32_t q = (uint32_t)sqlite3_value_int64(argv[2]);
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    const char *fmt = (const char *)sqlite3_value_text(argv[3]);
    if (fmt)
        format_dt(fmt, &dt, &b);
    else if (code == IX_T_DATE) {
        int32_t days = 0;
        ixt_date_from_ymd(dt.year, dt.month, dt.day, &days);
        ixt_date_format(days, NULL, &b);
    } else
        ixt_dt_format(q, &dt, &b);
    if (b.err)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, b.len ? (const char *)b.data : "", (int)b.len, SQLITE_TRANSIENT);
    ixb_wbuf_free(&b);
}

/* Reads 1..max digits at *s into *v; 0 if none. */
static int scan_num(const char **s, int max, int *v) {
    int n = 0;
    *v = 0;
    while (n < max && isdigit((unsigned char)**s)) {
        *v = *v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    return n;
}

/* A month or weekday name (full or 3-letter) at *s: its index or -1. */
static int scan_name(const char **s, const char *const *names, int count) {
    for (int i = 0; i < count; i++) {
        size_t full = strlen(names[i]);
        if (!strncasecmp(*s, names[i], full)) {
            *s += full;
            return i;
        }
        if (!strncasecmp(*s, names[i], 3)) {
            *s += 3;
            return i;
        }
    }
    return -1;
}

/* One directive c of a TO_DATE format read from *s into dt; 0 or -1. */
static int scan_directive(const char **s, char c, int fp, ixt_datetime *dt, int *pm) {
    int v, n;
    switch (c) {
    case 'Y': n = scan_num(s, 4, &dt->year); return n ? 0 : -1;
    case 'y':
        n = scan_num(s, 2, &v);
        dt->year = 2000 + v; /* DBCENTURY unset: the current century */
        return n ? 0 : -1;
    case 'm': return scan_num(s, 2, &dt->month) ? 0 : -1;
    case 'd':
    case 'e':
        while (**s == ' ')
            (*s)++;
        return scan_num(s, 2, &dt->day) ? 0 : -1;
    case 'H':
    case 'I': return scan_num(s, 2, &dt->hour) ? 0 : -1;
    case 'M': return scan_num(s, 2, &dt->minute) ? 0 : -1;
    case 'S': return scan_num(s, 2, &dt->second) ? 0 : -1;
    case 'F':
        n = scan_num(s, fp, &v);
        for (int k = n; k < 5; k++)
            v *= 10;
        dt->fraction = v;
        return n ? 0 : -1;
    case 'b':
    case 'h':
    case 'B': v = scan_name(s, month_names, 12); return v < 0 ? -1 : (dt->month = v + 1, 0);
    case 'a':
    case 'A': return scan_name(s, day_names, 7) < 0 ? -1 : 0;
    case 'p':
        if (!strncasecmp(*s, "AM", 2) || !strncasecmp(*s, "PM", 2)) {
            *pm = toupper((unsigned char)**s) == 'P' ? 2 : 1;
            *s += 2;
            return 0;
        }
        return -1;
    case '%': return **s == '%' ? ((*s)++, 0) : -1;
    default: return -1;
    }
}

/* Reads s by fmt into dt (fields not in fmt: 1 for month and day, else 0). */
static int scan_dt(const char *s, const char *fmt, ixt_datetime *dt) {
    memset(dt, 0, sizeof *dt);
    dt->month = dt->day = 1;
    int pm = 0;
    for (const char *f = fmt; *f; f++) {
        if (isspace((unsigned char)*f)) {
            while (isspace((unsigned char)*s))
                s++;
            continue;
        }
        if (*f != '%' || !f[1]) {
            if (*s++ != *f) return -1;
            continue;
        }
        f++;
        if (*f == 'i' && (f[1] == 'y' || f[1] == 'Y')) f++;
        char c = *f;
        int fp = 5;
        if (c == 'F' && f[1] >= '1' && f[1] <= '5') fp = *++f - '0';
        if (scan_directive(&s, c, fp, dt, &pm)) return -1;
    }
    while (isspace((unsigned char)*s))
        s++;
    if (*s) return -1;
    if (pm && (dt->hour < 1 || dt->hour > 12)) return -1;
    if (pm) dt->hour = dt->hour % 12 + (pm == 2 ? 12 : 0);
    return 0;
}

/* ixd_to_date(s, fmt): s read by the GL_DATETIME directives of fmt (NULL:
 * "%iY-%m-%d %H:%M:%S") as a DATETIME YEAR TO FRACTION(5); -1277 when s does
 * not match */
static void f_to_date(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    const char *fmt = (const char *)sqlite3_value_text(argv[1]);
    ixt_datetime dt;
    if (!s || scan_dt(s, fmt ? fmt : "%iY-%m-%d %H:%M:%S", &dt)) {
        ixv_fn_err(ctx, IXS_E_FMT_MISMATCH, NULL);
        return;
    }
    ixv_fn_res_dt(ctx, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5)), &dt);
}

/* ---- TO_CHAR of numbers ------------------------------------------------------------------------
 */

/*
 * A numeric format (as ESQL/C rfmtdec): digit positions '#' (blank when no
 * digit), '*' (asterisk), '&' (zero), '<' (left-justified: leading blanks
 * removed); ',' printed only with a digit to its left; '.' the decimal
 * point; '-' and '+' the sign ('-': blank for positive values), '(' ')'
 * around negative values, '$' the currency symbol. A run of two or more '$',
 * '-' or '+' (commas may separate them) floats: its characters are digit
 * positions, and one symbol goes right before the first digit. A number too
 * wide for the positions is all '*'.
 */

/* 1 when fmt[i] is part of a floating run of its character. */
static int in_run(const char *fmt, size_t fl, size_t i) {
    char c = fmt[i];
    if (c != '$' && c != '-' && c != '+') return 0;
    for (size_t k = i; k-- > 0 && (fmt[k] == c || fmt[k] == ',');)
        if (fmt[k] == c) return 1;
    for (size_t k = i + 1; k < fl && (fmt[k] == c || fmt[k] == ','); k++)
        if (fmt[k] == c) return 1;
    return 0;
}

static int is_digit_pos(char c) {
    return c == '#' || c == '*' || c == '&' || c == '<';
}

/* The character of a sign or symbol outside a run. */
static char fixed_char(char c, int neg) {
    switch (c) {
    case '-': return neg ? '-' : ' ';
    case '+': return neg ? '-' : '+';
    case '(': return neg ? '(' : ' ';
    case ')': return neg ? ')' : ' ';
    default: return c;
    }
}

/* The integer part fmt[0..dp) into o (same length), digits txt[0..ilen)
 * right-aligned; returns -1 when they do not fit. */
static int format_int_part(const char *fmt, size_t fl, size_t dp, const char *txt, size_t ilen,
                           int neg, char *o) {
    size_t di = ilen;
    int need_sym = 0, placed = 0;
    for (size_t i = dp; i-- > 0;) {
        char c = fmt[i];
        int run = in_run(fmt, fl, i);
        if (run) need_sym = c == '$' || c == '+' || neg;
        if (is_digit_pos(c) || run) {
            if (di > 0)
                o[i] = txt[--di];
            else if (run && !placed && need_sym) {
                o[i] = c == '$' ? '$' : c == '+' ? (neg ? '-' : '+') : '-';
                placed = 1;
            } else
                o[i] = c == '*' ? '*' : c == '&' ? '0' : ' ';
        } else if (c == ',') {
            o[i] = di > 0 ? ',' : (i > 0 && fmt[i - 1] == '*') ? '*' : ' ';
        } else {
            o[i] = fixed_char(c, neg);
        }
    }
    return di > 0 || (need_sym && !placed) ? -1 : 0;
}

static void format_num(const ixt_decimal *d, const char *fmt, ixb_wbuf *out) {
    size_t fl = strlen(fmt);
    const char *pt = strchr(fmt, '.');
    size_t dp = pt ? (size_t)(pt - fmt) : fl;
    int fpos = 0;
    for (size_t i = dp; i < fl; i++)
        fpos += is_digit_pos(fmt[i]);
    ixt_decimal r = *d;
    ixt_dec_round(&r, fpos);
    int neg = r.sign < 0 && r.ndig > 0;
    r.sign = 1;
    ixb_wbuf t;
    ixb_wbuf_init(&t, NULL);
    ixt_dec_to_text(&r, fpos, &t);
    char *o = malloc(fl + 1);
    if (t.err || !o) {
        free(o);
        ixb_wbuf_free(&t);
        return;
    }
    const char *txt = (const char *)t.data;
    const char *dot = memchr(txt, '.', t.len);
    size_t ilen = dot ? (size_t)(dot - txt) : t.len;
    if (ilen == 1 && txt[0] == '0') ilen = 0; /* no integer digits */
    if (format_int_part(fmt, fl, dp, txt, ilen, neg, o)) {
        memset(o, '*', fl);
    } else {
        const char *frac = dot ? dot + 1 : "";
        for (size_t i = dp; i < fl; i++)
            o[i] = is_digit_pos(fmt[i]) ? (*frac ? *frac++ : '0') : fixed_char(fmt[i], neg);
    }
    size_t skip = 0;
    if (memchr(fmt, '<', fl))
        while (skip < fl && o[skip] == ' ')
            skip++;
    ixb_put_bytes(out, o + skip, fl - skip);
    free(o);
    ixb_wbuf_free(&t);
}

/* ixd_to_char_num(x, fmt): x with the numeric format fmt; fmt NULL: the
 * number's own text */
static void f_to_char_num(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_decimal d;
    int rc = ixv_fn_arg_dec(ctx, argv[0], &d);
    if (rc) {
        if (rc == 1) sqlite3_result_null(ctx);
        return;
    }
    const char *fmt = (const char *)sqlite3_value_text(argv[1]);
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    if (fmt && strlen(fmt) < IXS_MAX_FMT_OUT)
        format_num(&d, fmt, &b);
    else
        ixt_dec_to_text(&d, -1, &b);
    if (b.err)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, b.len ? (const char *)b.data : "", (int)b.len, SQLITE_TRANSIENT);
    ixb_wbuf_free(&b);
}

int ixs_register_builtins(sqlite3 *h, void *ud) {
    (void)ud;
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        {"ixd_pad", 5, f_pad},
        {"ixd_initcap", 1, f_initcap},
        {"ixd_ascii", 1, f_ascii},
        {"ixd_chr", 1, f_chr},
        {"ixd_hex", 1, f_hex},
        {"ixd_ceil", 2, f_ceil},
        {"ixd_add_months", 4, f_add_months},
        {"ixd_last_day", 3, f_last_day},
        {"ixd_months_between", 6, f_months_between},
        {"ixd_dround", 5, f_dround},
        {"ixd_to_char_dt", 4, f_to_char_dt},
        {"ixd_to_char_num", 2, f_to_char_num},
        {"ixd_to_date", 2, f_to_date},
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        rc |= sqlite3_create_function(h, fns[i].name, fns[i].nargs, SQLITE_UTF8, NULL, fns[i].fn,
                                      NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_stdev", 1, SQLITE_UTF8, (void *)1, NULL, var_step,
                                  var_final);
    rc |= sqlite3_create_function(h, "ixd_variance", 1, SQLITE_UTF8, (void *)0, NULL, var_step,
                                  var_final);
    return rc ? -1 : 0;
}
