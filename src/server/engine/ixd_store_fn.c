/* ixd_store_fn.c: the SQL functions ixd registers on every SQLite connection
 * (exact DECIMAL arithmetic and aggregates, conversions, date and time
 * built-ins, MATCHES, serial assignment). Errors are raised with
 * ixv_fn_err (src/server/value/ixv_fn.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "ixd_int.h"
#include "server/sql/ixs_func.h"

static void f_dec(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_decimal d;
    int rc = ixv_fn_arg_dec(ctx, argv[0], &d);
    if (rc < 0) return;
    if (rc == 1) {
        sqlite3_result_null(ctx);
        return;
    }
    ixv_fn_res_dec(ctx, &d);
}

static void f_dbl(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int t = sqlite3_value_type(argv[0]);
    if (t == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
        sqlite3_result_double(ctx, sqlite3_value_double(argv[0]));
        return;
    }
    ixt_decimal d;
    if (ixv_fn_arg_dec(ctx, argv[0], &d) != 0) return;
    double x;
    ixt_dec_to_double(&d, &x);
    sqlite3_result_double(ctx, x);
}

static void f_darith(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int op = (int)(intptr_t)sqlite3_user_data(ctx);
    ixt_decimal a, b, r;
    int ra = ixv_fn_arg_dec(ctx, argv[0], &a);
    if (ra < 0) return;
    int rb = ixv_fn_arg_dec(ctx, argv[1], &b);
    if (rb < 0) return;
    if (ra == 1 || rb == 1) {
        sqlite3_result_null(ctx);
        return;
    }
    int rc;
    switch (op) {
    case '+': rc = ixv_dec_add(&a, &b, 0, &r); break;
    case '-': rc = ixv_dec_add(&a, &b, 1, &r); break;
    case '*': rc = ixv_dec_mul(&a, &b, &r); break;
    default: rc = ixv_dec_div(&a, &b, &r); break;
    }
    if (rc < 0) {
        ixv_fn_err(ctx, rc, NULL);
        return;
    }
    ixv_fn_res_dec(ctx, &r);
}

static void f_fdiv(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    double b = sqlite3_value_double(argv[1]);
    if (b == 0) {
        ixv_fn_err(ctx, IXV_E_DIV_ZERO, NULL);
        return;
    }
    sqlite3_result_double(ctx, sqlite3_value_double(argv[0]) / b);
}

/* ixd_irange(x, w): the result x of integer + - * checked against the range
 * of Informix's INTEGER (w 4: +-2147483647) or INT8 / BIGINT (w 8:
 * +-9223372036854775807; SQLite makes a 64-bit overflow REAL): -1215 past it,
 * as Informix's arithmetic reports it. Other values pass unchanged. */
static void f_irange(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int t = sqlite3_value_type(argv[0]);
    int w4 = sqlite3_value_int(argv[1]) == 4;
    int64_t max = w4 ? INT32_MAX : INT64_MAX;
    double lim = w4 ? 2147483648.0 : 9223372036854775808.0; /* max + 1 */
    int bad = 0;
    if (t == SQLITE_INTEGER) {
        int64_t v = sqlite3_value_int64(argv[0]);
        bad = v > max || v < -max;
    } else if (t == SQLITE_FLOAT) {
        double d = sqlite3_value_double(argv[0]);
        bad = !(d < lim && d > -lim);
    }
    if (bad)
        ixv_fn_err(ctx, IXV_E_INT_RANGE, NULL);
    else
        sqlite3_result_value(ctx, argv[0]);
}

static void f_idiv(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    /* integer (interval) division, truncating */
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t b = sqlite3_value_int64(argv[1]);
    if (b == 0) {
        ixv_fn_err(ctx, IXV_E_DIV_ZERO, NULL);
        return;
    }
    int64_t a = sqlite3_value_int64(argv[0]);
    if (a == INT64_MIN && b == -1) {
        ixv_fn_err(ctx, IXV_E_INT_RANGE, NULL);
        return;
    }
    sqlite3_result_int64(ctx, a / b);
}

/* SUM / AVG over DECIMAL (and integers) */
typedef struct dagg {
    ixt_decimal sum;
    int64_t n;
    int err;
} dagg;

static void agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    dagg *a = sqlite3_aggregate_context(ctx, sizeof *a);
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (a->err) return;
    if (a->n == 0) ixt_dec_zero(&a->sum);
    sval v;
    ixv_sval_from_sqlite(&v, argv[0]);
    if (v.kind == SQLITE_NULL) return;
    ixt_decimal d, r;
    int rc = ixv_dec_from_sval(&v, &d);
    if (rc < 0) {
        a->err = rc;
        return;
    }
    rc = ixv_dec_add(&a->sum, &d, 0, &r);
    if (rc < 0) {
        a->err = rc;
        return;
    }
    a->sum = r;
    a->n++;
}

/* The inverse step of ixd_dsum/ixd_davg as window functions: the value
 * leaving the window frame is taken out of the sum (exact in decimal). */
static void agg_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    dagg *a = sqlite3_aggregate_context(ctx, sizeof *a);
    if (!a || a->err) return;
    sval v;
    ixv_sval_from_sqlite(&v, argv[0]);
    if (v.kind == SQLITE_NULL || a->n == 0) return;
    ixt_decimal d, r;
    int rc = ixv_dec_from_sval(&v, &d);
    if (rc >= 0) rc = ixv_dec_add(&a->sum, &d, 1, &r);
    if (rc < 0) {
        a->err = rc;
        return;
    }
    a->sum = r;
    a->n--;
}

static void agg_final(sqlite3_context *ctx) {
    int avg = (int)(intptr_t)sqlite3_user_data(ctx);
    dagg *a = sqlite3_aggregate_context(ctx, 0);
    if (a && a->err) {
        ixv_fn_err(ctx, a->err, NULL);
        return;
    }
    if (!a || a->n == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    if (avg) {
        ixt_decimal cnt, r;
        ixt_dec_from_i64(&cnt, a->n);
        if (ixv_dec_div(&a->sum, &cnt, &r) < 0) {
            ixv_fn_err(ctx, IXV_E_DEC_PREC, NULL);
            return;
        }
        ixv_fn_res_dec(ctx, &r);
        return;
    }
    ixv_fn_res_dec(ctx, &a->sum);
}

/* ixd_dtrunc(x, n): x truncated (toward zero) to n fraction digits */
static void f_dtrunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_decimal d;
    int rc = ixv_fn_arg_dec(ctx, argv[0], &d);
    if (rc < 0) return;
    if (rc == 1) {
        sqlite3_result_null(ctx);
        return;
    }
    int n = sqlite3_value_int(argv[1]);
    for (int i = 0; i < d.ndig; i++) {
        int w = 2 * (d.exp - 1 - i); /* decimal weight of the pair's units digit */
        if (w >= -n) continue;
        if (w + 1 >= -n)
            d.dig[i] = (uint8_t)(d.dig[i] - d.dig[i] % 10);
        else
            d.dig[i] = 0;
    }
    while (d.ndig > 0 && d.dig[d.ndig - 1] == 0)
        d.ndig--;
    if (d.ndig == 0) ixt_dec_zero(&d);
    ixv_fn_res_dec(ctx, &d);
}

/* ixd_cvt(v, fromcode, fromlen, tocode, tolen) */
static void f_cvt(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    sval v, o;
    ixv_sval_from_sqlite(&v, argv[0]);
    if (v.kind == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    ityp from = ixv_t(sqlite3_value_int(argv[1]), (uint32_t)sqlite3_value_int64(argv[2]));
    ityp to = ixv_t(sqlite3_value_int(argv[3]), (uint32_t)sqlite3_value_int64(argv[4]));
    int rc = ixv_convert(from, &v, to, &o);
    if (rc < 0) {
        ixv_fn_err(ctx, rc, NULL);
        return;
    }
    ixv_sval_result(&o, ctx);
    ixv_sval_free(&o);
}

/* The run-time check's common cases, without a conversion: NULL, an
 * integer into an integer type or DATE, a REAL into SMALLFLOAT. 1 when v
 * fits (the result is set), 0 for the general path. */
static int chk_fast(sqlite3_context *ctx, int code, sqlite3_value *v) {
    int k = sqlite3_value_type(v);
    if (k == SQLITE_INTEGER) {
        int64_t x = sqlite3_value_int64(v);
        int ok = code == IX_T_DATE ? x >= IXT_DATE_MIN && x <= IXT_DATE_MAX
                                   : ixv_is_int(code) && ixv_int_fits(code, x);
        if (ok) sqlite3_result_int64(ctx, x);
        return ok;
    }
    if (k == SQLITE_FLOAT && code == IX_T_SMALLFLOAT) {
        double d = sqlite3_value_double(v);
        if (isfinite(d) && isinf((float)d)) return 0;
        sqlite3_result_double(ctx, d);
        return 1;
    }
    if (k == SQLITE_NULL) sqlite3_result_null(ctx);
    return k == SQLITE_NULL;
}

/* ixd_chk(v, code, len): v as stored into a column of type (code, len):
 * refused with the SQLCODE a fetch of it would give when the type cannot
 * hold it (ixv_store_check), text cut to a character column's length. */
static void f_chk(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int code = sqlite3_value_int(argv[1]);
    if (chk_fast(ctx, code, argv[0])) return;
    ityp t = ixv_t(code, (uint32_t)sqlite3_value_int64(argv[2]));
    sval v;
    ixv_sval_from_sqlite(&v, argv[0]);
    if (v.kind == SQLITE_TEXT && ixv_is_char(t.code)) {
        size_t n = ixv_store_text_len(t, v.p, v.n);
        if (n < v.n) {
            sqlite3_result_text(ctx, (const char *)v.p, (int)n, SQLITE_TRANSIENT);
            return;
        }
    } else {
        int rc = ixv_store_check(t, &v);
        if (rc < 0) {
            ixv_fn_err(ctx, rc, NULL);
            return;
        }
    }
    sqlite3_result_value(ctx, argv[0]);
}

/* ---- dates and times ---------------------------------------------------------------- */

/* ixd_extend(v, fromcode, fromlen, toq) */
static void f_extend(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_datetime dt;
    int rc = ixv_fn_full_dt(argv[0], sqlite3_value_int(argv[1]),
                            (uint32_t)sqlite3_value_int64(argv[2]), &dt);
    if (rc == 1) {
        sqlite3_result_null(ctx);
        return;
    }
    if (rc < 0) {
        ixv_fn_err(ctx, rc, NULL);
        return;
    }
    ixv_fn_res_dt(ctx, (uint32_t)sqlite3_value_int64(argv[3]), &dt);
}

/* ixd_part(v, code, len, which): 0 year 1 month 2 day 3 weekday 4 date */
static void f_part(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_datetime dt;
    int rc = ixv_fn_full_dt(argv[0], sqlite3_value_int(argv[1]),
                            (uint32_t)sqlite3_value_int64(argv[2]), &dt);
    if (rc == 1) {
        sqlite3_result_null(ctx);
        return;
    }
    if (rc < 0) {
        ixv_fn_err(ctx, rc, NULL);
        return;
    }
    int32_t days = 0;
    int which = sqlite3_value_int(argv[3]);
    if (which >= 3 && ixt_date_from_ymd(dt.year, dt.month, dt.day, &days) != IX_OK) {
        ixv_fn_err(ctx, IXV_E_BAD_DAY, NULL);
        return;
    }
    switch (which) {
    case 0: sqlite3_result_int(ctx, dt.year); break;
    case 1: sqlite3_result_int(ctx, dt.month); break;
    case 2: sqlite3_result_int(ctx, dt.day); break;
    case 3: sqlite3_result_int(ctx, ixt_date_weekday(days)); break;
    default: sqlite3_result_int(ctx, days); break;
    }
}

static void f_mdy(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    for (int i = 0; i < 3; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
            sqlite3_result_null(ctx);
            return;
        }
    int64_t m = sqlite3_value_int64(argv[0]), d = sqlite3_value_int64(argv[1]),
            y = sqlite3_value_int64(argv[2]);
    if (m < 1 || m > 12) {
        ixv_fn_err(ctx, IXV_E_BAD_MONTH, NULL);
        return;
    }
    if (y < 1 || y > 9999) {
        ixv_fn_err(ctx, IXV_E_BAD_YEAR, NULL);
        return;
    }
    int32_t days;
    if (d < 1 || d > 31 || ixt_date_from_ymd((int)y, (int)m, (int)d, &days) != IX_OK) {
        ixv_fn_err(ctx, IXV_E_BAD_DAY, NULL);
        return;
    }
    sqlite3_result_int(ctx, days);
}

static void f_today(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    ixt_datetime now;
    ixv_now_dt(&now);
    int32_t days = 0;
    ixt_date_from_ymd(now.year, now.month, now.day, &days);
    sqlite3_result_int(ctx, days);
}

static void f_current(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_datetime now;
    ixv_now_dt(&now);
    ixv_fn_res_dt(ctx, (uint32_t)sqlite3_value_int64(argv[0]), &now);
}

/* ixd_dtsub(a, qa, b, qb, resq) -> interval units */
static void f_dtsub(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixt_datetime a, b;
    int ca = sqlite3_value_type(argv[0]) == SQLITE_INTEGER ? IX_T_DATE : IX_T_DATETIME;
    int cb = sqlite3_value_type(argv[2]) == SQLITE_INTEGER ? IX_T_DATE : IX_T_DATETIME;
    int r1 = ixv_fn_full_dt(argv[0], ca, (uint32_t)sqlite3_value_int64(argv[1]), &a);
    int r2 = ixv_fn_full_dt(argv[2], cb, (uint32_t)sqlite3_value_int64(argv[3]), &b);
    if (r1 == 1 || r2 == 1) {
        sqlite3_result_null(ctx);
        return;
    }
    if (r1 < 0 || r2 < 0) {
        ixv_fn_err(ctx, r1 < 0 ? r1 : r2, NULL);
        return;
    }
    ixt_interval iv;
    if (ixt_dt_diff(&a, &b, &iv) != IX_OK) {
        ixv_fn_err(ctx, IXV_E_DT_FIELD, NULL);
        return;
    }
    uint32_t rq = (uint32_t)sqlite3_value_int64(argv[4]);
    int64_t unit = 1;
    int en = IXT_QUAL_END(rq);
    switch (en) {
    case IXT_TU_DAY: unit = 86400LL * IXT_UNITS_PER_SECOND; break;
    case IXT_TU_HOUR: unit = 3600LL * IXT_UNITS_PER_SECOND; break;
    case IXT_TU_MINUTE: unit = 60LL * IXT_UNITS_PER_SECOND; break;
    case IXT_TU_SECOND: unit = IXT_UNITS_PER_SECOND; break;
    default:
        for (int k = en - 10; k < 5; k++)
            unit *= 10;
    }
    int64_t u = iv.units / unit * unit;
    sqlite3_result_int64(ctx, iv.sign * u);
}

/* ixd_dtadd(dt, q, iv, ivq, sign) -> datetime text in q (DATE if q == 0) */
static void f_dtadd(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[2]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    uint32_t q = (uint32_t)sqlite3_value_int64(argv[1]);
    ixt_datetime a, r;
    int rc = ixv_fn_full_dt(argv[0], q ? IX_T_DATETIME : IX_T_DATE, q, &a);
    if (rc == 1) {
        sqlite3_result_null(ctx);
        return;
    }
    if (rc < 0) {
        ixv_fn_err(ctx, rc, NULL);
        return;
    }
    uint32_t ivq = (uint32_t)sqlite3_value_int64(argv[3]);
    int64_t v = sqlite3_value_int64(argv[2]) * sqlite3_value_int(argv[4]);
    ixt_interval iv;
    iv.sign = v < 0 ? -1 : 1;
    int64_t mag = v < 0 ? -v : v;
    iv.months = (IXT_QUAL_START(ivq) <= IXT_TU_MONTH) ? mag : 0;
    iv.units = (IXT_QUAL_START(ivq) <= IXT_TU_MONTH) ? 0 : mag;
    if (ixt_dt_add(&a, &iv, &r) != IX_OK) {
        ixv_fn_err(ctx, IXV_E_DT_FIELD, NULL);
        return;
    }
    if (q == 0) {
        int32_t days;
        if (ixt_date_from_ymd(r.year, r.month, r.day, &days) != IX_OK) {
            ixv_fn_err(ctx, IXV_E_DT_FIELD, NULL);
            return;
        }
        sqlite3_result_int(ctx, days);
        return;
    }
    ixv_fn_res_dt(ctx, q, &r);
}

/* ---- MATCHES ------------------------------------------------------------------------- */

/* One pattern element at p[j] against character c: returns the element's
 * length (> 0) if it matches, 0 if not, -1 for a malformed class. */
static int match_one(const char *p, size_t pn, size_t j, char c) {
    if (p[j] == '?') return 1;
    if (p[j] == '[') {
        size_t k = j + 1;
        int neg = 0, hit = 0;
        if (k < pn && p[k] == '^') {
            neg = 1;
            k++;
        }
        size_t start = k;
        while (k < pn && (p[k] != ']' || k == start)) {
            if (k + 2 < pn && p[k + 1] == '-' && p[k + 2] != ']') {
                if (c >= p[k] && c <= p[k + 2]) hit = 1;
                k += 3;
            } else {
                if (c == p[k]) hit = 1;
                k++;
            }
        }
        if (k >= pn) return -1;
        return hit != neg ? (int)(k + 1 - j) : 0;
    }
    if (p[j] == '\\' && j + 1 < pn) return p[j + 1] == c ? 2 : 0;
    return p[j] == c ? 1 : 0;
}

/* Informix MATCHES: * ? [..] [^..] and \ escapes; linear-time greedy
 * matching with backtracking to the last '*' only. */
static int matches(const char *s, size_t sn, const char *p, size_t pn) {
    size_t i = 0, j = 0, star_j = (size_t)-1, star_i = 0;
    while (i < sn) {
        if (j < pn && p[j] == '*') {
            star_j = ++j;
            star_i = i;
            continue;
        }
        if (j < pn) {
            int m = match_one(p, pn, j, s[i]);
            if (m < 0) return 0;
            if (m > 0) {
                i++;
                j += (size_t)m;
                continue;
            }
        }
        if (star_j == (size_t)-1) return 0;
        j = star_j;
        i = ++star_i;
    }
    while (j < pn && p[j] == '*')
        j++;
    return j == pn;
}

static void f_matches(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    size_t sn = (size_t)sqlite3_value_bytes(argv[0]);
    const char *p = (const char *)sqlite3_value_text(argv[1]);
    size_t pn = (size_t)sqlite3_value_bytes(argv[1]);
    if (!s || !p) {
        sqlite3_result_null(ctx);
        return;
    }
    /* CHAR values compare without trailing blanks */
    while (sn > 0 && s[sn - 1] == ' ')
        sn--;
    while (pn > 0 && p[pn - 1] == ' ')
        pn--;
    sqlite3_result_int(ctx, matches(s, sn, p, pn));
}

/* ---- serials ------------------------------------------------------------------------- */

/* ixd_serial(tabid, kind, v): v NULL/0 -> next value; else v (bumping). */
static void f_serial(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixd_db *db = sqlite3_user_data(ctx);
    int tabid = sqlite3_value_int(argv[0]);
    int kind = sqlite3_value_int(argv[1]);
    int64_t v = 0;
    int t = sqlite3_value_type(argv[2]);
    if (t != SQLITE_NULL) {
        sval sv, o;
        ixv_sval_from_sqlite(&sv, argv[2]);
        int rc = ixv_convert(ixv_t(t == SQLITE_INTEGER ? IX_T_BIGINT : -1, 8), &sv,
                             ixv_t(IX_T_BIGINT, 8), &o);
        if (rc < 0) {
            ixv_fn_err(ctx, rc, NULL);
            return;
        }
        v = o.i;
        ixv_sval_free(&o);
    }
    if (v < 0) {
        ixv_fn_err(ctx, IXV_E_INT_RANGE, NULL);
        return;
    }
    int ok = 0;
    int64_t r = ixd_serial_next(db, tabid, kind, v, &ok);
    if (!ok) {
        ixv_fn_err(ctx, IXV_E_INT_RANGE, NULL);
        return;
    }
    if (kind == 1) db->x.stmt_serial = r;
    if (kind == 2) db->x.stmt_serial8 = r;
    if (kind == 3) db->x.stmt_bigserial = r;
    sqlite3_result_int64(ctx, r);
}

/*
 * DBINFO('version', part) from the server banner, the string the login
 * accept carries (ixd_engine_banner), as IBM documents the parts for
 * "Informix Version 11.50.UC6": 'server-type' the text before " Version "
 * ("Informix"), 'major' "11", 'minor' "50", 'os' the letter after the second
 * dot ("U"; F is 64-bit UNIX), 'level' the rest ("C6"), 'full' the whole
 * string. For ixd's banner "IBM Informix Dynamic Server Version 14.10.FC10":
 * "IBM Informix Dynamic Server", "14", "10", "F", "C10". A banner without
 * " Version " is all server type, and its other parts are empty.
 */
static void version_part(const char *banner, const char *part, char *out, size_t cap) {
    const char *v = NULL;
    for (const char *q = strstr(banner, " Version "); q; q = strstr(q + 1, " Version "))
        v = q;
    size_t type_len = v ? (size_t)(v - banner) : strlen(banner);
    const char *num = v ? v + strlen(" Version ") : "";
    const char *dot1 = strchr(num, '.');
    const char *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
    const char *p = "";
    size_t n = 0;
    if (!sqlite3_stricmp(part, "full")) {
        p = banner, n = strlen(banner);
    } else if (!sqlite3_stricmp(part, "server-type")) {
        p = banner, n = type_len;
    } else if (!sqlite3_stricmp(part, "major")) {
        p = num, n = dot1 ? (size_t)(dot1 - num) : strlen(num);
    } else if (!sqlite3_stricmp(part, "minor") && dot1) {
        p = dot1 + 1, n = dot2 ? (size_t)(dot2 - p) : strlen(p);
    } else if (!sqlite3_stricmp(part, "os") && dot2 && dot2[1]) {
        p = dot2 + 1, n = 1;
    } else if (!sqlite3_stricmp(part, "level") && dot2 && dot2[1]) {
        p = dot2 + 2, n = strlen(p);
    }
    snprintf(out, cap, "%.*s", (int)n, p);
}

/* DBINFO('utc_to_datetime', seconds): the local DATETIME YEAR TO SECOND of
 * seconds since 1970-01-01 00:00:00 UTC (fractions ignored) */
static void utc_to_datetime(sqlite3_context *ctx, sqlite3_value *x) {
    if (sqlite3_value_type(x) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    double s = sqlite3_value_double(x);
    if (!(s > -6e10 && s < 2.5e11)) {
        ixv_fn_err(ctx, IXV_E_DT_FIELD, NULL);
        return;
    }
    time_t t = (time_t)(s < 0 ? -(int64_t)(-s) : (int64_t)s);
    struct tm tmv;
    if (!localtime_r(&t, &tmv)) {
        ixv_fn_err(ctx, IXV_E_DT_FIELD, NULL);
        return;
    }
    ixt_datetime dt = {tmv.tm_year + 1900,
                       tmv.tm_mon + 1,
                       tmv.tm_mday,
                       tmv.tm_hour,
                       tmv.tm_min,
                       tmv.tm_sec > 59 ? 59 : tmv.tm_sec,
                       0};
    ixv_fn_res_dt(ctx, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND), &dt);
}

static void f_dbinfo(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ixd_db *db = sqlite3_user_data(ctx);
    const char *k = (const char *)sqlite3_value_text(argv[0]);
    if (!k) {
        sqlite3_result_null(ctx);
        return;
    }
    if (!sqlite3_stricmp(k, "sqlca.sqlerrd1"))
        sqlite3_result_int64(ctx, db->x.last_serial);
    else if (!sqlite3_stricmp(k, "serial8"))
        sqlite3_result_int64(ctx, db->x.last_serial8);
    else if (!sqlite3_stricmp(k, "bigserial"))
        sqlite3_result_int64(ctx, db->x.last_bigserial);
    else if (!sqlite3_stricmp(k, "dbname"))
        sqlite3_result_text(ctx, db->x.name, -1, SQLITE_TRANSIENT);
    else if (!sqlite3_stricmp(k, "dbhostname"))
        sqlite3_result_text(ctx, "localhost", -1, SQLITE_STATIC);
    else if (!sqlite3_stricmp(k, "version") && argc == 2 && sqlite3_value_text(argv[1])) {
        char part[256];
        version_part(ixd_engine_banner(db->e), (const char *)sqlite3_value_text(argv[1]), part,
                     sizeof part);
        sqlite3_result_text(ctx, part, -1, SQLITE_TRANSIENT);
    } else if (!sqlite3_stricmp(k, "sessionid"))
        sqlite3_result_int64(ctx, (int64_t)(((uintptr_t)db >> 4) & 0x7fffffff));
    else if (!sqlite3_stricmp(k, "sqlca.sqlerrd2"))
        sqlite3_result_int64(ctx, db->x.last_rows);
    else if (!sqlite3_stricmp(k, "utc_current"))
        sqlite3_result_int64(ctx, (int64_t)time(NULL));
    else if (!sqlite3_stricmp(k, "get_tz")) {
        const char *tz = getenv("TZ");
        sqlite3_result_text(ctx, tz ? tz : "", -1, SQLITE_TRANSIENT);
    } else if (!sqlite3_stricmp(k, "utc_to_datetime") && argc == 2)
        utc_to_datetime(ctx, argv[1]);
    else
        ixv_fn_err(ctx, IXV_E_DBINFO, k);
}

/* ixd_ident(name): name quoted as SQLite stores it (ixv_sb_ident), for the
 * catalogue views that look a column up in a CHECK's SQLite text. */
static void f_ident(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    const char *n = (const char *)sqlite3_value_text(argv[0]);
    if (!n) {
        sqlite3_result_null(ctx);
        return;
    }
    sb s = {0};
    ixv_sb_ident(&s, n);
    if (s.oom) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, s.p, (int)s.n, free);
}

static void f_raise(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixv_fn_err(ctx, sqlite3_value_int(argv[0]), (const char *)sqlite3_value_text(argv[1]));
}

int ixd_register_functions(sqlite3 *h, void *ud) {
    const int det = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc = 0;
    rc |= sqlite3_create_function(h, "ixd_dec", 1, det, NULL, f_dec, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_dbl", 1, det, NULL, f_dbl, NULL, NULL);
    rc |=
        sqlite3_create_function(h, "ixd_dadd", 2, det, (void *)(intptr_t)'+', f_darith, NULL, NULL);
    rc |=
        sqlite3_create_function(h, "ixd_dsub", 2, det, (void *)(intptr_t)'-', f_darith, NULL, NULL);
    rc |=
        sqlite3_create_function(h, "ixd_dmul", 2, det, (void *)(intptr_t)'*', f_darith, NULL, NULL);
    rc |=
        sqlite3_create_function(h, "ixd_ddiv", 2, det, (void *)(intptr_t)'/', f_darith, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_fdiv", 2, det, NULL, f_fdiv, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_idiv", 2, det, NULL, f_idiv, NULL, NULL);
    rc |= sqlite3_create_function(h, IXV_FN_IRANGE, 2, det, NULL, f_irange, NULL, NULL);
    /* aggregates that are also window functions (agg_final as xValue) */
    rc |= sqlite3_create_window_function(h, "ixd_dsum", 1, det, (void *)0, agg_step, agg_final,
                                         agg_final, agg_inverse, NULL);
    rc |= sqlite3_create_window_function(h, "ixd_davg", 1, det, (void *)1, agg_step, agg_final,
                                         agg_final, agg_inverse, NULL);
    rc |= sqlite3_create_function(h, "ixd_cvt", 5, det, NULL, f_cvt, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_chk", 3, det, NULL, f_chk, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_dtrunc", 2, det, NULL, f_dtrunc, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_extend", 4, SQLITE_UTF8, NULL, f_extend, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_part", 4, SQLITE_UTF8, NULL, f_part, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_mdy", 3, det, NULL, f_mdy, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixv_today", 0, SQLITE_UTF8, NULL, f_today, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_current", 1, SQLITE_UTF8, NULL, f_current, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_dtsub", 5, SQLITE_UTF8, NULL, f_dtsub, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_dtadd", 5, SQLITE_UTF8, NULL, f_dtadd, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_matches", 2, det, NULL, f_matches, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_ident", 1, det, NULL, f_ident, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_serial", 3, SQLITE_UTF8, ud, f_serial, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_dbinfo", 1, SQLITE_UTF8, ud, f_dbinfo, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_dbinfo", 2, SQLITE_UTF8, ud, f_dbinfo, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_raise", 2, SQLITE_UTF8, NULL, f_raise, NULL, NULL);
    return rc ? -1 : 0;
}
