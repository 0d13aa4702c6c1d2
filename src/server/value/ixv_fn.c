/* ixv_fn.c: what ixd's SQL functions share (ixv.h): DECIMAL and DATETIME
 * arguments and results, today's date, and the internal name space (a
 * function raises its errors with ixv_fn_err, ixv_err.c). */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

#include "server/value/ixv.h"

void ixv_now_dt(ixt_datetime *dt) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    time_t t = tv.tv_sec;
    struct tm tmv;
    localtime_r(&t, &tmv);
    dt->year = tmv.tm_year + 1900;
    dt->month = tmv.tm_mon + 1;
    dt->day = tmv.tm_mday;
    dt->hour = tmv.tm_hour;
    dt->minute = tmv.tm_min;
    dt->second = tmv.tm_sec > 59 ? 59 : tmv.tm_sec;
    dt->fraction = (int32_t)(tv.tv_usec / 10);
}

void ixv_fn_res_dec(sqlite3_context *ctx, const ixt_decimal *d) {
    if (d->is_null) {
        sqlite3_result_null(ctx);
        return;
    }
    uint8_t buf[20];
    size_t n;
    ixv_dec_to_blob(d, buf, &n);
    sqlite3_result_blob(ctx, buf, (int)n, SQLITE_TRANSIENT);
}

int ixv_fn_arg_dec(sqlite3_context *ctx, sqlite3_value *x, ixt_decimal *d) {
    sval v;
    ixv_sval_from_sqlite(&v, x);
    int rc = ixv_dec_from_sval(&v, d);
    if (rc < 0) {
        ixv_fn_err(ctx, rc, NULL);
        return -1;
    }
    return rc; /* 1 = NULL */
}

/* Reads a DATE (int) or DATETIME (text, qualifier q) argument into a full
 * datetime: missing leading fields from the current time, missing trailing
 * fields zero (month/day 1). Returns 0, 1 for NULL, or an SQLCODE. */
int ixv_fn_full_dt(sqlite3_value *x, int code, uint32_t q, ixt_datetime *dt) {
    int t = sqlite3_value_type(x);
    if (t == SQLITE_NULL) return 1;
    if (code == IX_T_DATE || (t == SQLITE_INTEGER && code != IX_T_DATETIME)) {
        int64_t days = sqlite3_value_int64(x);
        if (days < IXT_DATE_MIN || days > IXT_DATE_MAX) return IXV_E_BAD_DAY;
        memset(dt, 0, sizeof *dt);
        ixt_date_to_ymd((int32_t)days, &dt->year, &dt->month, &dt->day);
        return 0;
    }
    if (t != SQLITE_TEXT) return IXV_E_DT_CHAR;
    const char *s = (const char *)sqlite3_value_text(x);
    size_t n = (size_t)sqlite3_value_bytes(x);
    ixt_datetime v;
    memset(&v, 0, sizeof v);
    if (code != IX_T_DATETIME || !ixt_dt_qual_valid(q)) {
        /* a string: try full forms */
        static const int ends[] = {IXT_TU_F(5), IXT_TU_SECOND, IXT_TU_MINUTE, IXT_TU_HOUR,
                                   IXT_TU_DAY};
        int ok = 0;
        for (size_t i = 0; i < sizeof ends / sizeof ends[0] && !ok; i++) {
            uint32_t qq = ixt_dt_qual(IXT_TU_YEAR, ends[i]);
            if (ixt_dt_parse(qq, s, n, &v) == IX_OK) {
                ok = 1;
                q = qq;
            }
        }
        if (!ok) {
            int32_t days;
            if (ixt_date_parse(s, n, NULL, &days) != IX_OK) return IXV_E_DT_CHAR;
            memset(dt, 0, sizeof *dt);
            ixt_date_to_ymd(days, &dt->year, &dt->month, &dt->day);
            return 0;
        }
    } else {
        int rc = ixt_dt_parse(q, s, n, &v);
        if (rc != IX_OK) return rc == IX_ERANGE ? IXV_E_DT_FIELD : IXV_E_DT_CHAR;
    }
    ixt_datetime now;
    ixv_now_dt(&now);
    int st = IXT_QUAL_START(q), en = IXT_QUAL_END(q);
    dt->year = st <= IXT_TU_YEAR ? v.year : now.year;
    dt->month = st <= IXT_TU_MONTH && en >= IXT_TU_MONTH ? v.month
                : st > IXT_TU_MONTH                      ? now.month
                                                         : 1;
    dt->day = st <= IXT_TU_DAY && en >= IXT_TU_DAY ? v.day : st > IXT_TU_DAY ? now.day : 1;
    dt->hour = st <= IXT_TU_HOUR && en >= IXT_TU_HOUR ? v.hour : st > IXT_TU_HOUR ? now.hour : 0;
    dt->minute = st <= IXT_TU_MINUTE && en >= IXT_TU_MINUTE ? v.minute
                 : st > IXT_TU_MINUTE                       ? now.minute
                                                            : 0;
    dt->second = st <= IXT_TU_SECOND && en >= IXT_TU_SECOND ? v.second
                 : st > IXT_TU_SECOND                       ? now.second
                                                            : 0;
    dt->fraction = en > IXT_TU_SECOND ? v.fraction : 0;
    if (st > IXT_TU_DAY || (st > IXT_TU_MONTH && en >= IXT_TU_DAY)) {
        /* a day taken from the current month may not exist in it */
        int dim = ixt_days_in_month(dt->year, dt->month);
        if (dt->day > dim) return IXV_E_DT_FIELD;
    }
    return 0;
}

void ixv_fn_res_dt(sqlite3_context *ctx, uint32_t q, const ixt_datetime *dt) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixt_datetime c = *dt;
    /* truncate fractions below the end unit */
    int en = IXT_QUAL_END(q);
    if (en > IXT_TU_SECOND) {
        int32_t div = 1;
        for (int k = en - 10; k < 5; k++)
            div *= 10;
        c.fraction = c.fraction / div * div;
    }
    if (ixt_dt_check(q, &c) != IX_OK || ixt_dt_format(q, &c, &b) != IX_OK) {
        ixb_wbuf_free(&b);
        ixv_fn_err(ctx, IXV_E_DT_FIELD, NULL);
        return;
    }
    sqlite3_result_text(ctx, (const char *)b.data, (int)b.len, SQLITE_TRANSIENT);
    ixb_wbuf_free(&b);
}

int ixv_internal_name(const char *name) {
    static const char *const prefixes[] = {IXV_INTERNAL_PREFIX, "sqlite_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncasecmp(name, prefixes[i], strlen(prefixes[i]))) return 1;
    return 0;
}

int32_t ixv_today(void) {
    time_t t = time(NULL);
    struct tm tmv;
    localtime_r(&t, &tmv);
    int32_t d = 0;
    ixt_date_from_ymd(tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday, &d);
    return d;
}
