/* test_types_datetime.c: DATE, DATETIME, INTERVAL (src/types/ixt_datetime). */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static ixb_wbuf wb, wb2;

static const char *str(const ixb_wbuf *b) {
    static char buf[2][128];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%.*s", (int)b->len, b->data ? (const char *)b->data : "");
    return buf[k];
}

static int hex_eq(const ixb_wbuf *b, const char *hex) {
    char got[80] = "";
    for (size_t i = 0; i < b->len && i < 39; i++)
        sprintf(got + 2 * i, "%02x", b->data[i]);
    return strcmp(got, hex) == 0;
}

static int dt_decode_copy(uint32_t q, const uint8_t *p, size_t n, ixt_datetime *dt) {
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, p, n);
    int rc = ixt_dt_decode(q, c, n, dt);
    free(c);
    return rc;
}

static int iv_decode_copy(uint32_t q, const uint8_t *p, size_t n, ixt_interval *iv) {
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, p, n);
    int rc = ixt_iv_decode(q, c, n, iv);
    free(c);
    return rc;
}

static int64_t rand_below(int64_t n) {
    return (int64_t)(rnd() % (uint64_t)n);
}

/* A random valid datetime (all fields set). */
static ixt_datetime rand_dt(void) {
    ixt_datetime d;
    d.year = 1 + (int)rand_below(9999);
    d.month = 1 + (int)rand_below(12);
    d.day = 1 + (int)rand_below(ixt_days_in_month(d.year, d.month));
    d.hour = (int)rand_below(24);
    d.minute = (int)rand_below(60);
    d.second = (int)rand_below(60);
    d.fraction = (int32_t)rand_below(100000);
    return d;
}

/* Keeps the fields q covers, zeroes the others, truncates the fraction. */
static ixt_datetime restrict_dt(uint32_t q, ixt_datetime d) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q);
    int has[7] = {0};
    if (s != IXT_TU_FRACTION)
        for (int u = s; u <= (e > 10 ? 10 : e); u += 2)
            has[u / 2] = 1;
    ixt_datetime r = {0};
    if (has[0]) r.year = d.year;
    if (has[1]) r.month = d.month;
    if (has[2]) r.day = d.day;
    if (has[3]) r.hour = d.hour;
    if (has[4]) r.minute = d.minute;
    if (has[5]) r.second = d.second;
    if (e > 10) {
        int32_t m = 1;
        for (int i = e - 10; i < 5; i++)
            m *= 10;
        r.fraction = d.fraction - d.fraction % m;
    }
    return r;
}

/* A random interval valid for q; lead_max forces the largest leading value. */
static ixt_interval rand_iv(uint32_t q, int lead_max) {
    int s = IXT_QUAL_START(q), e = IXT_QUAL_END(q), p = ixt_iv_qual_prec(q);
    int64_t lim = 1;
    for (int i = 0; i < p; i++)
        lim *= 10;
    ixt_interval iv = {1, 0, 0};
    int64_t lead = lead_max ? lim - 1 : rand_below(lim);
    if (s <= IXT_TU_MONTH) {
        iv.months = s == IXT_TU_YEAR ? lead * 12 + (e == IXT_TU_MONTH ? rand_below(12) : 0) : lead;
    } else if (s == IXT_TU_FRACTION) {
        int64_t m = 1;
        for (int i = e - 10; i < 5; i++)
            m *= 10;
        iv.units = (lead_max ? 99999 : rand_below(100000)) / m * m;
    } else {
        static const int64_t size[7] = {0, 0, 8640000000, 360000000, 6000000, 100000, 1};
        static const int64_t range[7] = {0, 0, 0, 24, 60, 60, 100000};
        iv.units = lead * size[s / 2];
        for (int u = s + 2; u <= (e > 10 ? 10 : e); u += 2)
            iv.units += (lead_max ? range[u / 2] - 1 : rand_below(range[u / 2])) * size[u / 2];
        if (e > 10) {
            int64_t m = 1;
            for (int i = e - 10; i < 5; i++)
                m *= 10;
            iv.units += (lead_max ? 99999 : rand_below(100000)) / m * m;
        }
    }
    if ((iv.months || iv.units) && (rnd() & 1)) iv.sign = -1;
    return iv;
}

static void date_cases(void) {
    struct {
        int y, m, d;
        int32_t days;
    } v[] = {{1899, 12, 31, 0},       {1899, 12, 30, -1},   {1970, 1, 1, 25568}, {1, 1, 1, -693594},
             {9999, 12, 31, 2958464}, {2000, 2, 29, 36584}, {1900, 3, 1, 60}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        int32_t days = 0;
        int y, m, d;
        CHECK(ixt_date_from_ymd(v[i].y, v[i].m, v[i].d, &days) == IX_OK && days == v[i].days,
              "%04d-%02d-%02d -> %d (got %d)", v[i].y, v[i].m, v[i].d, v[i].days, days);
        ixt_date_to_ymd(v[i].days, &y, &m, &d);
        CHECK(y == v[i].y && m == v[i].m && d == v[i].d, "%d -> ymd", v[i].days);
    }
    int32_t x;
    CHECK(ixt_date_from_ymd(1900, 2, 29, &x) == IX_ERANGE, "1900-02-29 invalid");
    CHECK(ixt_date_from_ymd(2000, 2, 29, &x) == IX_OK, "2000-02-29 valid");
    CHECK(ixt_date_from_ymd(2023, 2, 29, &x) == IX_ERANGE, "2023-02-29 invalid");
    CHECK(ixt_date_from_ymd(2024, 2, 29, &x) == IX_OK, "2024-02-29 valid");
    CHECK(ixt_date_from_ymd(0, 1, 1, &x) == IX_ERANGE &&
              ixt_date_from_ymd(10000, 1, 1, &x) == IX_ERANGE,
          "years 0 and 10000 invalid");
    CHECK(ixt_date_from_ymd(2024, 4, 31, &x) == IX_ERANGE &&
              ixt_date_from_ymd(2024, 13, 1, &x) == IX_ERANGE,
          "April 31, month 13 invalid");
    CHECK(ixt_date_weekday(0) == 0 && ixt_date_weekday(25568) == 4 && ixt_date_weekday(-1) == 6,
          "weekdays: 1899-12-31 Sunday, 1970-01-01 Thursday, 1899-12-30 Saturday");
    CHECK(ixt_date_weekday(IXT_DATE_MIN) == 1, "0001-01-01 was a Monday (proleptic)");
    /* every day from 0001-01-01 to 9999-12-31 */
    int bad = 0, py = 1, pm = 1, pd = 0;
    for (int32_t dd = IXT_DATE_MIN; dd <= IXT_DATE_MAX; dd++) {
        int y, m, d;
        int32_t back;
        ixt_date_to_ymd(dd, &y, &m, &d);
        int next = (y == py && m == pm && d == pd + 1) || (y == py && m == pm + 1 && d == 1) ||
                   (y == py + 1 && m == 1 && d == 1 && pm == 12);
        if (!next || ixt_date_from_ymd(y, m, d, &back) != IX_OK || back != dd) bad++;
        py = y, pm = m, pd = d;
    }
    CHECK(bad == 0, "3652059 consecutive days round trip (%d bad)", bad);
    CHECK(ixt_date_add_days(0, 25568, &x) == IX_OK && x == 25568, "add days");
    CHECK(ixt_date_add_days(IXT_DATE_MAX, 1, &x) == IX_ERANGE, "add past 9999-12-31");

    /* DBDATE */
    struct {
        const char *fmt, *text;
        int32_t days;
    } f[] = {{NULL, "01/01/1970", 25568},    {"MDY4/", "12/31/9999", 2958464},
             {"Y4MD-", "1970-01-01", 25568}, {"DMY4.", "29.02.2000", 36584},
             {"Y4MD0", "00010101", -693594}, {"dmy4-", "31-12-1899", 0},
             {"Y4DM/", "1970/01/01", 25568}, {"MDY2/", "03/01/00", 36585}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        int32_t days = 0;
        ixb_wbuf_reset(&wb);
        CHECK(ixt_date_format(f[i].days, f[i].fmt, &wb) == IX_OK &&
                  strcmp(str(&wb), f[i].text) == 0,
              "format %d with %s -> '%s' (got '%s')", f[i].days, f[i].fmt ? f[i].fmt : "default",
              f[i].text, str(&wb));
        int rc = ixt_date_parse(f[i].text, strlen(f[i].text), f[i].fmt, &days);
        int32_t want = f[i].days;
        if (f[i].fmt && strstr(f[i].fmt, "Y2")) want = 60; /* yy -> 19yy: 1900-03-01 */
        CHECK(rc == IX_OK && days == want, "parse '%s' with %s (rc %d, %d)", f[i].text,
              f[i].fmt ? f[i].fmt : "default", rc, days);
    }
    int32_t days;
    CHECK(ixt_date_parse(" 2024-02-29 ", 12, NULL, &days) == IX_OK && days == 45350,
          "ISO accepted with MDY4/ (%d)", days);
    CHECK(ixt_date_parse("1/2/2024", 8, NULL, &days) == IX_OK, "short fields accepted");
    CHECK(ixt_date_parse("02/30/2024", 10, NULL, &days) == IX_ERANGE, "Feb 30 -> ERANGE");
    CHECK(ixt_date_parse("02-30-2024x", 11, NULL, &days) == IX_EINVAL, "junk -> EINVAL");
    CHECK(ixt_date_parse("", 0, NULL, &days) == IX_EINVAL, "empty -> EINVAL");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_date_format(0, "XYZ", &wb) == IX_EINVAL &&
              ixt_date_format(0, "MMY4/", &wb) == IX_EINVAL &&
              ixt_date_format(0, "MDY4/x", &wb) == IX_EINVAL,
          "bad DBDATE -> EINVAL");
    CHECK(ixt_date_format(IXT_DATE_MAX + 1, NULL, &wb) == IX_ERANGE, "year 10000 -> ERANGE");
}

static void qualifier_cases(uint32_t *dtq, uint32_t *ivq) {
    CHECK(ixt_dt_qual_list(dtq) == IXT_DT_NQUALS, "56 DATETIME qualifiers");
    CHECK(ixt_iv_qual_list(ivq) == IXT_IV_NQUALS, "302 INTERVAL qualifiers");
    int ok = 1;
    for (int i = 0; i < IXT_DT_NQUALS; i++)
        ok &= ixt_dt_qual_valid(dtq[i]);
    for (int i = 0; i < IXT_IV_NQUALS; i++)
        ok &= ixt_iv_qual_valid(ivq[i]);
    CHECK(ok, "every listed qualifier is valid");
    /* brute force over all 16-bit encoded lengths */
    int ndt = 0, niv = 0;
    for (uint32_t q = 0; q <= 0xffff; q++)
        ndt += ixt_dt_qual_valid(q), niv += ixt_iv_qual_valid(q);
    CHECK(ndt == 56 && niv == 302, "exactly 56/302 of all 65536 encoded lengths are legal (%d/%d)",
          ndt, niv);
    CHECK(ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND) == 0x0e0a, "YEAR TO SECOND 0x0e0a");
    CHECK(ixt_dt_qual(IXT_TU_HOUR, IXT_TU_MINUTE) == 0x0468, "HOUR TO MINUTE 0x0468");
    CHECK(ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5)) == 0x130f, "YEAR TO FRACTION(5) 0x130f");
    CHECK(ixt_dt_qual(IXT_TU_FRACTION, IXT_TU_F(5)) == 0x05cf, "FRACTION TO FRACTION(5) 0x05cf");
    CHECK(ixt_dt_qual(IXT_TU_YEAR, IXT_TU_YEAR) == 0x0400, "YEAR TO YEAR 0x0400");
    CHECK(ixt_iv_qual(3, IXT_TU_DAY, IXT_TU_F(5)) == 0x0e4f, "INTERVAL DAY(3) TO FRACTION(5)");
    CHECK(ixt_iv_qual(3, IXT_TU_SECOND, IXT_TU_F(2)) == 0x05ac,
          "INTERVAL SECOND(3) TO FRACTION(2)");
    CHECK(ixt_iv_qual(2, IXT_TU_YEAR, IXT_TU_MONTH) == 0x0402, "INTERVAL YEAR(2) TO MONTH");
    CHECK(ixt_iv_qual(2, IXT_TU_DAY, IXT_TU_SECOND) == 0x084a, "INTERVAL DAY(2) TO SECOND");
    CHECK(ixt_dt_qual(IXT_TU_MINUTE, IXT_TU_HOUR) == 0 &&
              ixt_iv_qual(2, IXT_TU_YEAR, IXT_TU_DAY) == 0 &&
              ixt_iv_qual(10, IXT_TU_DAY, IXT_TU_DAY) == 0 && ixt_dt_qual(1, 2) == 0,
          "illegal qualifiers give 0");
    CHECK(ixt_qual_width(0x130f) == 11 && ixt_qual_width(0x0e4f) == 9 &&
              ixt_qual_width(0x0e0a) == 8 && ixt_qual_width(0x05cf) == 4 &&
              ixt_qual_width(0x0468) == 3 && ixt_qual_width(0x0400) == 3,
          "widths");
    /* the width formula equals libsqli's 1 + (digits + oddlead + 1) / 2 */
    int agree = 1;
    for (int i = 0; i < IXT_IV_NQUALS; i++) {
        uint32_t q = ivq[i];
        int p = ixt_iv_qual_prec(q), odd = IXT_QUAL_START(q) != IXT_TU_FRACTION && (p & 1);
        agree &= ixt_qual_width(q) == (size_t)(1 + (IXT_QUAL_DIGITS(q) + odd + 1) / 2);
    }
    for (int i = 0; i < IXT_DT_NQUALS; i++)
        agree &= ixt_qual_width(dtq[i]) == (size_t)(1 + (IXT_QUAL_DIGITS(dtq[i]) + 1) / 2);
    CHECK(agree, "both published width formulas agree on all 358 qualifiers");
}

static void format_case(int iv, uint32_t q, const char *text, const char *hex) {
    ixt_vtype t = {iv ? IX_T_INTERVAL : IX_T_DATETIME, q};
    ixb_wbuf_reset(&wb);
    ixb_wbuf_reset(&wb2);
    int rc = ixt_value_parse(t, text, strlen(text), NULL, &wb);
    CHECK(rc == IX_OK && hex_eq(&wb, hex), "parse '%s' q=%04x -> %s (rc %d)", text, q, hex, rc);
    rc = ixt_value_format(t, wb.data, wb.len, NULL, &wb2);
    CHECK(rc == IX_OK && strcmp(str(&wb2), text) == 0, "format q=%04x -> '%s' (got '%s')", q, text,
          str(&wb2));
}

static void text_cases(void) {
    format_case(0, 0x0e0a, "2026-06-20 12:34:56", "c7141a06140c2238");
    format_case(0, 0x0400, "0001", "c60100");
    format_case(0, 0x0468, "23:59", "c3173b");
    format_case(0, 0x05cf, ".00001", "be0a0000");
    format_case(0, 0x130f, "2026-07-19 12:34:56.12345", "c7141a07130c22380c2232");
    format_case(0, 0x0804, "2024-02-29", "c71418021d");
    format_case(0, 0x110d, "2024-01-02 03:04:05.678", "c7141801020304054350");
    format_case(0, ixt_dt_qual(IXT_TU_HOUR, IXT_TU_SECOND), "00:00:00", "80000000");
    format_case(1, 0x0e4f, "  3 03:27:01.12345", "c403031b010c223200");
    format_case(1, 0x05ac, "-999.99", "3d5a0001");
    format_case(1, 0x0402, " 1-06", "c60106");
    format_case(1, 0x0468, "-10:30", "3c5946");
    format_case(1, 0x084a, "12 03:04:05", "c40c030405");
    format_case(1, 0x05cf, "-.00001", "415a0000");
    format_case(1, 0x05cf, ".00000", "80000000");
    format_case(1, ixt_iv_qual(3, IXT_TU_DAY, IXT_TU_DAY), " -5", "3b5f00");
    /* FRACTION(1..5) */
    for (int n = 1; n <= 5; n++) {
        uint32_t q = ixt_dt_qual(IXT_TU_SECOND, IXT_TU_F(n));
        ixt_datetime dt = {0, 0, 0, 0, 0, 7, 12345}, back;
        ixb_wbuf_reset(&wb);
        ixb_wbuf_reset(&wb2);
        CHECK(ixt_dt_encode(q, &dt, &wb) == IX_OK && wb.len == ixt_qual_width(q), "F(%d) encode",
              n);
        CHECK(dt_decode_copy(q, wb.data, wb.len, &back) == IX_OK && back.second == 7,
              "F(%d) decode", n);
        int32_t m = 1;
        for (int i = n; i < 5; i++)
            m *= 10;
        CHECK(back.fraction == 12345 - 12345 % m, "F(%d) truncates to %d digits (%d)", n, n,
              back.fraction);
        ixt_dt_format(q, &back, &wb2);
        char want[16];
        snprintf(want, sizeof want, "07.%.*s", n, "12345");
        CHECK(strcmp(str(&wb2), want) == 0, "F(%d) text '%s' (got '%s')", n, want, str(&wb2));
    }
    /* parse errors */
    ixt_datetime dt;
    ixt_interval iv;
    CHECK(ixt_dt_parse(0x0e0a, "2024-02-30 00:00:00", 19, &dt) == IX_ERANGE, "Feb 30 -> ERANGE");
    CHECK(ixt_dt_parse(0x0e0a, "2023-02-29 00:00:00", 19, &dt) == IX_ERANGE, "2023-02-29 ERANGE");
    CHECK(ixt_dt_parse(0x0e0a, "2024-02-29 24:00:00", 19, &dt) == IX_ERANGE, "hour 24 -> ERANGE");
    CHECK(ixt_dt_parse(0x0e0a, "2024-02-29T00:00:00", 19, &dt) == IX_EINVAL, "T -> EINVAL");
    CHECK(ixt_dt_parse(0x0e0a, "2024-02-29", 10, &dt) == IX_EINVAL, "missing fields -> EINVAL");
    CHECK(ixt_dt_parse(0x0e0a, "-2024-02-29 00:00:00", 20, &dt) == IX_EINVAL, "sign -> EINVAL");
    CHECK(ixt_dt_parse(0x110d, "2024-01-02 03:04:05.6789", 24, &dt) == IX_ERANGE,
          "4 fraction digits for FRACTION(3) -> ERANGE");
    CHECK(ixt_dt_parse(0x110d, " 2024-1-2 3:4:5.6 ", 18, &dt) == IX_OK && dt.fraction == 60000 &&
              dt.month == 1,
          "short fields and blanks accepted");
    CHECK(ixt_dt_parse(ixt_dt_qual(IXT_TU_MONTH, IXT_TU_DAY), "02-29", 5, &dt) == IX_OK,
          "MONTH TO DAY 02-29 valid without a year");
    CHECK(ixt_iv_parse(0x0402, "100-00", 6, &iv) == IX_ERANGE, "YEAR(2) 100 -> ERANGE");
    CHECK(ixt_iv_parse(0x0402, "1-12", 4, &iv) == IX_ERANGE, "month 12 in YEAR TO MONTH");
    CHECK(ixt_iv_parse(0x0468, "10:60", 5, &iv) == IX_ERANGE, "minute 60");
    CHECK(ixt_iv_parse(0x0468, "10:30x", 6, &iv) == IX_EINVAL, "junk");
    ixt_interval big = {1, 0, (int64_t)100 * 360000000};
    ixb_wbuf_reset(&wb);
    CHECK(ixt_iv_encode(0x0468, &big, &wb) == IX_ERANGE && wb.len == 0, "HOUR(2) 100 -> ERANGE");
    ixt_interval frac = {1, 0, 1};
    CHECK(ixt_iv_encode(0x0468, &frac, &wb) == IX_ERANGE, "not exact at MINUTE -> ERANGE");
    ixt_interval ym = {1, 5, 0};
    CHECK(ixt_iv_encode(0x0468, &ym, &wb) == IX_ERANGE, "months into a day-time qualifier");
}

static void malformed_cases(void) {
    ixt_datetime dt;
    ixt_interval iv;
    const uint8_t month13[] = {0xc7, 0x14, 0x18, 0x0d, 0x01}; /* 2024-13-01 YEAR TO DAY */
    const uint8_t neg[] = {0x38, 0x4b, 0x4b, 0x4b, 0x4c};
    const uint8_t beyond[] = {0xc8, 0x01, 0x14, 0x18, 0x01}; /* pair above the year */
    const uint8_t below[] = {0xc3, 0x17, 0x3b};              /* fine */
    const uint8_t below2[] = {0xc3, 0x00, 0x3b};             /* leading zero pair: 59 minutes? */
    const uint8_t oddfrac[] = {0xbf, 0x01, 0x00};            /* FRACTION(1) .01 */
    CHECK(dt_decode_copy(0x0804, month13, 5, &dt) == IX_EMALFORMED, "month 13 -> EMALFORMED");
    CHECK(dt_decode_copy(0x0804, neg, 5, &dt) == IX_EMALFORMED, "negative DATETIME");
    CHECK(dt_decode_copy(0x0804, beyond, 5, &dt) == IX_EMALFORMED, "digits above YEAR");
    CHECK(dt_decode_copy(0x0468, below, 3, &dt) == IX_OK && dt.hour == 23 && dt.minute == 59,
          "23:59");
    CHECK(dt_decode_copy(0x0468, below2, 3, &dt) == IX_OK && dt.hour == 0 && dt.minute == 59,
          "non-normalised leading zero pair accepted");
    CHECK(dt_decode_copy(ixt_dt_qual(IXT_TU_SECOND, IXT_TU_F(1)), oddfrac, 3, &dt) == IX_EMALFORMED,
          "digit below FRACTION(1)");
    CHECK(dt_decode_copy(0x0468, below, 2, &dt) == IX_EMALFORMED, "wrong width");
    CHECK(dt_decode_copy(0x0469, below, 3, &dt) == IX_EINVAL, "bad qualifier");
    const uint8_t iv_lead[] = {0xc5, 0x01, 0x00, 0x00}; /* DAY(3) would need 1000 days */
    CHECK(iv_decode_copy(ixt_iv_qual(2, IXT_TU_DAY, IXT_TU_HOUR), iv_lead, 3, &iv) == IX_EMALFORMED,
          "leading field above its precision");
    const uint8_t zeros[9] = {0};
    CHECK(iv_decode_copy(0x0e4f, zeros, 9, &iv) == IX_NULL_VALUE, "INTERVAL NULL");
    CHECK(dt_decode_copy(0x0e0a, zeros, 8, &dt) == IX_NULL_VALUE, "DATETIME NULL");
}

static void roundtrip_all(const uint32_t *dtq, const uint32_t *ivq) {
    int fails = 0, n = 0;
    for (int i = 0; i < IXT_DT_NQUALS; i++) {
        uint32_t q = dtq[i];
        ixt_vtype t = {IX_T_DATETIME, q};
        for (int it = 0; it < 200; it++) {
            ixt_datetime d0 = rand_dt();
            if (it == 0) d0 = (ixt_datetime){1, 1, 1, 0, 0, 0, 0};
            if (it == 1) d0 = (ixt_datetime){9999, 12, 31, 23, 59, 59, 99999};
            if (it == 2) d0 = (ixt_datetime){2000, 2, 29, 12, 0, 0, 0};
            ixt_datetime d = restrict_dt(q, d0), back;
            ixb_wbuf_reset(&wb);
            ixb_wbuf_reset(&wb2);
            n++;
            if (ixt_dt_encode(q, &d, &wb) != IX_OK || wb.len != ixt_qual_width(q) ||
                dt_decode_copy(q, wb.data, wb.len, &back) != IX_OK ||
                memcmp(&back, &d, sizeof d) != 0) {
                fails++;
                continue;
            }
            /* text -> bytes -> text */
            size_t w = wb.len;
            if (ixt_value_format(t, wb.data, w, NULL, &wb2) != IX_OK) {
                fails++;
                continue;
            }
            size_t tl = wb2.len;
            if (ixt_value_parse(t, (const char *)wb2.data, tl, NULL, &wb) != IX_OK ||
                wb.len != 2 * w || memcmp(wb.data, wb.data + w, w) != 0)
                fails++;
            /* bind */
            ixb_wbuf_reset(&wb2);
            size_t used;
            if (ixt_dt_encode_bind(q, &d, &wb2) != IX_OK ||
                ixt_dt_decode_bind(q, wb2.data, wb2.len, &back, &used) != IX_OK ||
                used != wb2.len || memcmp(&back, &d, sizeof d) != 0)
                fails++;
            for (size_t k = 0; k < wb2.len; k++)
                if (ixt_dt_decode_bind(q, wb2.data, k, &back, &used) != IX_NEED_MORE) fails++;
        }
    }
    CHECK(fails == 0,
          "all 56 DATETIME qualifiers x 200 values: encode/decode/text/bind (%d of %d "
          "failed)",
          fails, n);
    fails = n = 0;
    for (int i = 0; i < IXT_IV_NQUALS; i++) {
        uint32_t q = ivq[i];
        ixt_vtype t = {IX_T_INTERVAL, q};
        for (int it = 0; it < 40; it++) {
            ixt_interval v = rand_iv(q, it < 2), back;
            if (it == 2) v = (ixt_interval){1, 0, 0};
            ixb_wbuf_reset(&wb);
            ixb_wbuf_reset(&wb2);
            n++;
            if (ixt_iv_encode(q, &v, &wb) != IX_OK || wb.len != ixt_qual_width(q) ||
                iv_decode_copy(q, wb.data, wb.len, &back) != IX_OK || ixt_iv_cmp(&v, &back) != 0 ||
                back.sign != v.sign) {
                if (fails < 5)
                    printf("# iv q=%04x sign %d m %lld u %lld failed\n", q, v.sign,
                           (long long)v.months, (long long)v.units);
                fails++;
                continue;
            }
            size_t w = wb.len;
            if (ixt_value_format(t, wb.data, w, NULL, &wb2) != IX_OK ||
                (int)wb2.len <
                    ixt_iv_qual_prec(q) - (IXT_QUAL_START(q) == IXT_TU_FRACTION ? 1 : 0)) {
                fails++;
                continue;
            }
            if (ixt_value_parse(t, (const char *)wb2.data, wb2.len, NULL, &wb) != IX_OK ||
                wb.len != 2 * w || memcmp(wb.data, wb.data + w, w) != 0) {
                if (fails < 5) printf("# iv text '%s' q=%04x failed\n", str(&wb2), q);
                fails++;
            }
            ixb_wbuf_reset(&wb2);
            size_t used;
            if (ixt_iv_encode_bind(q, &v, &wb2) != IX_OK ||
                ixt_iv_decode_bind(q, wb2.data, wb2.len, &back, &used) != IX_OK ||
                ixt_iv_cmp(&v, &back) != 0)
                fails++;
        }
    }
    CHECK(fails == 0,
          "all 302 INTERVAL qualifiers x 40 values incl. max leading field and "
          "negatives (%d of %d failed)",
          fails, n);
}

static void arithmetic_cases(void) {
    ixt_datetime a = {2024, 3, 1, 0, 0, 0, 0}, b = {2024, 2, 28, 12, 0, 0, 0}, r;
    ixt_interval iv;
    CHECK(ixt_dt_diff(&a, &b, &iv) == IX_OK && iv.sign == 1 && iv.units == 36 * 360000000LL,
          "2024-03-01 - 2024-02-28 12:00 = 1 12:00");
    CHECK(ixt_dt_diff(&b, &a, &iv) == IX_OK && iv.sign == -1, "negative difference");
    ixb_wbuf_reset(&wb);
    ixt_dt_diff(&a, &b, &iv);
    CHECK(ixt_iv_format(ixt_iv_qual(2, IXT_TU_DAY, IXT_TU_MINUTE), &iv, &wb) == IX_OK &&
              strcmp(str(&wb), " 1 12:00") == 0,
          "difference as DAY(2) TO MINUTE ' 1 12:00' (got '%s')", str(&wb));
    ixt_interval month = {1, 1, 0};
    ixt_datetime jan31 = {2024, 1, 31, 0, 0, 0, 0};
    CHECK(ixt_dt_add(&jan31, &month, &r) == IX_ERANGE, "Jan 31 + 1 month -> ERANGE");
    ixt_datetime jan29 = {2024, 1, 29, 0, 0, 0, 0};
    CHECK(ixt_dt_add(&jan29, &month, &r) == IX_OK && r.month == 2 && r.day == 29, "leap Feb 29");
    ixt_interval back = {-1, 0, 100000};
    ixt_datetime y1 = {1, 1, 1, 0, 0, 0, 0};
    CHECK(ixt_dt_add(&y1, &back, &r) == IX_ERANGE, "before 0001-01-01 -> ERANGE");
    ixt_interval fw = {1, 0, 1};
    ixt_datetime end = {9999, 12, 31, 23, 59, 59, 99999};
    CHECK(ixt_dt_add(&end, &fw, &r) == IX_ERANGE, "after 9999-12-31 -> ERANGE");
    ixt_interval sec = {1, 0, 100000};
    ixt_datetime ny = {2023, 12, 31, 23, 59, 59, 0};
    CHECK(ixt_dt_add(&ny, &sec, &r) == IX_OK && r.year == 2024 && r.month == 1 && r.day == 1 &&
              r.hour == 0 && r.second == 0,
          "new year carry");
    int64_t st;
    CHECK(ixt_dt_to_stamp(&y1, &st) == IX_OK && st == (int64_t)IXT_DATE_MIN * 8640000000LL,
          "stamp of 0001-01-01");
}

/* The fast paths of YEAR TO SECOND and YEAR TO FRACTION(5) (every year,
 * the early ones through the general path) against the DECIMAL codec: the
 * tuple is the decimal YYYYMMDDHHMISS[.FFFFF] packed to the width; text and
 * tuple read back to the same fields. */
static void fast_path_cases(void) {
    uint32_t quals[2] = {ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND),
                         ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5))};
    unsigned seed = 12345;
    int bad = 0;
    for (int k = 0; k < 20000 && bad < 5; k++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t q = quals[k & 1];
        ixt_datetime dt = {1 + (int)(seed >> 8) % 9999,
                           1 + k % 12,
                           1,
                           (k / 7) % 24,
                           (k / 3) % 60,
                           (k / 11) % 60,
                           (int32_t)((seed >> 4) % 100000)};
        dt.day = 1 + (int)((seed >> 16) % (unsigned)ixt_days_in_month(dt.year, dt.month));
        if (k % 100 == 0) dt.year = 1 + k % 150; /* early years */
        if (q == quals[0]) dt.fraction = 0;
        ixb_wbuf_reset(&wb);
        if (ixt_dt_encode(q, &dt, &wb) != IX_OK) {
            bad++;
            CHECK(0, "encode %d", k);
            continue;
        }
        char txt[64];
        snprintf(txt, sizeof txt, "%04d%02d%02d%02d%02d%02d.%05d", dt.year, dt.month, dt.day,
                 dt.hour, dt.minute, dt.second, (int)dt.fraction);
        ixt_decimal d;
        uint8_t ref[32];
        int ok = ixt_dec_from_text(&d, txt, strlen(txt)) == IX_OK &&
                 ixt_dec_pack(&d, ixt_qual_width(q), ref) == IX_OK && wb.len == ixt_qual_width(q) &&
                 !memcmp(ref, wb.data, wb.len);
        ixt_datetime back, parsed;
        ok = ok && ixt_dt_decode(q, wb.data, wb.len, &back) == IX_OK &&
             !memcmp(&back, &dt, sizeof dt);
        ixb_wbuf_reset(&wb2);
        ok = ok && ixt_dt_format(q, &dt, &wb2) == IX_OK &&
             ixt_dt_parse(q, (const char *)wb2.data, wb2.len, &parsed) == IX_OK &&
             !memcmp(&parsed, &dt, sizeof dt);
        if (!ok) bad++;
        CHECK(ok, "fast path %d: %s (q %#x)", k, txt, q);
    }
}

int main(void) {
    static uint32_t dtq[IXT_DT_NQUALS], ivq[IXT_IV_NQUALS];
    ixb_wbuf_init(&wb, NULL);
    ixb_wbuf_init(&wb2, NULL);
    date_cases();
    qualifier_cases(dtq, ivq);
    text_cases();
    malformed_cases();
    roundtrip_all(dtq, ivq);
    arithmetic_cases();
    fast_path_cases();
    ixb_wbuf_free(&wb);
    ixb_wbuf_free(&wb2);
    return tap_done();
}
