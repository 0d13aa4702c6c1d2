/* test_conv.c: the ODBC driver's conversions (src/odbc/ixo_conv.c) without a
 * server: every value kind into every C type (the result of each cell),
 * the texts and structs made, truncation in pieces, NULL, parameters from C
 * buffers, and the type descriptions. */
#include <stdio.h>
#include <string.h>

#include "ixo_conv.h"
#include "tap.h"

static const SQLSMALLINT CTYPES[] = {
    SQL_C_CHAR,      SQL_C_WCHAR,     SQL_C_BINARY,         SQL_C_BIT,    SQL_C_STINYINT,
    SQL_C_UTINYINT,  SQL_C_SSHORT,    SQL_C_USHORT,         SQL_C_SLONG,  SQL_C_ULONG,
    SQL_C_SBIGINT,   SQL_C_UBIGINT,   SQL_C_FLOAT,          SQL_C_DOUBLE, SQL_C_NUMERIC,
    SQL_C_TYPE_DATE, SQL_C_TYPE_TIME, SQL_C_TYPE_TIMESTAMP,
};
#define NCT ((int)(sizeof CTYPES / sizeof CTYPES[0]))
/* the interval C types: year-month, single day-time fields, day-time pairs */
static const SQLSMALLINT IVCTYPES[] = {
    SQL_C_INTERVAL_YEAR,
    SQL_C_INTERVAL_MONTH,
    SQL_C_INTERVAL_YEAR_TO_MONTH,
    SQL_C_INTERVAL_DAY,
    SQL_C_INTERVAL_HOUR,
    SQL_C_INTERVAL_MINUTE,
    SQL_C_INTERVAL_SECOND,
    SQL_C_INTERVAL_DAY_TO_HOUR,
    SQL_C_INTERVAL_DAY_TO_MINUTE,
    SQL_C_INTERVAL_DAY_TO_SECOND,
    SQL_C_INTERVAL_HOUR_TO_MINUTE,
    SQL_C_INTERVAL_HOUR_TO_SECOND,
    SQL_C_INTERVAL_MINUTE_TO_SECOND,
};
#define NIV ((int)(sizeof IVCTYPES / sizeof IVCTYPES[0]))

static ixo_val v_int(int64_t i) {
    ixo_val v = {.kind = IXO_V_INT, .i = i};
    return v;
}
static ixo_val v_text(const char *s) {
    ixo_val v = {.kind = IXO_V_TEXT, .p = s, .n = strlen(s)};
    return v;
}
static ixo_val v_dec(int sign, const char *digits, int scale) {
    ixo_val v = {.kind = IXO_V_DEC};
    v.dec.sign = sign;
    v.dec.ndigits = (int)strlen(digits);
    v.dec.scale = scale;
    strcpy(v.dec.digits, digits);
    return v;
}
/* an INTERVAL start(prec) TO end with the fields in iv */
static ixo_val v_iv(int prec, int start, int end, ix_interval_t iv) {
    ixo_val v = {.kind = IXO_V_IV, .iv = iv, .qual = ix_qualifier_iv(prec, start, end)};
    if (!v.iv.sign) v.iv.sign = 1;
    return v;
}
static ixo_val v_dt(int date, int tm, int fraction) {
    ixo_val v = {.kind = IXO_V_DT, .has_date = date, .has_time = tm, .fdigits = fraction ? 5 : 0};
    if (date) v.dt.year = 2024, v.dt.month = 2, v.dt.day = 29;
    if (tm) v.dt.hour = 13, v.dt.minute = 14, v.dt.second = 15, v.dt.fraction = fraction;
    return v;
}

/* o ok, f 01S07, t 01004, b 07006, r 22003, c 22018, d 22007, v 22015 */
static char code(ixo_cv cv) {
    switch (cv) {
    case IXO_CV_OK: return 'o';
    case IXO_CV_FRACTION: return 'f';
    case IXO_CV_TRUNC: return 't';
    case IXO_CV_BADTYPE: return 'b';
    case IXO_CV_RANGE: return 'r';
    case IXO_CV_BADCHAR: return 'c';
    case IXO_CV_BADDT: return 'd';
    case IXO_CV_IVFIELD: return 'v';
    default: return '?';
    }
}

static void matrix(ixo_scratch *s) {
    static const unsigned char bin[] = {0x01, 0xff};
    ixo_val dbl = {.kind = IXO_V_DOUBLE, .d = 2.5},
            real = {.kind = IXO_V_DOUBLE, .d = 1.25, .is_real = 1};
    ixo_val by = {.kind = IXO_V_BIN, .p = (const char *)bin, .n = 2},
            bo = {.kind = IXO_V_BOOL, .i = 1};
    struct {
        const char *name;
        ixo_val v;
        const char *want; /* one letter per CTYPES entry */
    } rows[] = {
        {"INTEGER 42", v_int(42),
         "ooor"
         "oooooooo"
         "ooo"
         "bbb"},
        {"FLOAT 2.5", dbl,
         "ooor"
         "ffffffff"
         "ooo"
         "bbb"},
        {"SMALLFLOAT 1.25", real,
         "ooof"
         "ffffffff"
         "ooo"
         "bbb"},
        {"DECIMAL 123.45", v_dec(1, "12345", 2),
         "ooor"
         "ffffffff"
         "ooo"
         "bbb"},
        {"DATE", v_dt(1, 0, 0),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "obo"},
        {"DATETIME HOUR TO SECOND", v_dt(0, 1, 0),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "boo"},
        {"DATETIME YEAR TO FRACTION(5)", v_dt(1, 1, 12345),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "ffo"},
        {"VARCHAR '17'", v_text("17"),
         "ooor"
         "oooooooo"
         "ooo"
         "ddd"},
        {"VARCHAR '2024-01-02'", v_text("2024-01-02"),
         "oooc"
         "cccccccc"
         "ccc"
         "obo"},
        {"VARCHAR 'abc'", v_text("abc"),
         "oooc"
         "cccccccc"
         "ccc"
         "ddd"},
        {"BYTE", by,
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"},
        {"BOOLEAN t", bo,
         "oooo"
         "oooooooo"
         "ooo"
         "bbb"},
        {"INTEGER 300", v_int(300),
         "ooor"
         "rroooooo"
         "ooo"
         "bbb"},
        {"INTEGER -1", v_int(-1),
         "ooor"
         "orororor"
         "ooo"
         "bbb"},
        {"BIGINT max", v_int(INT64_MAX),
         "ooor"
         "rrrrrroo"
         "ooo"
         "bbb"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char got[NCT + 1];
        for (int c = 0; c < NCT; c++) {
            unsigned char buf[256];
            SQLLEN ind = 0;
            got[c] =
                code(ixo_get(&rows[r].v, CTYPES[c], SQL_C_CHAR, buf, sizeof buf, &ind, NULL, s));
        }
        got[NCT] = 0;
        CHECK(strcmp(got, rows[r].want) == 0, "%s: got %s want %s", rows[r].name, got,
              rows[r].want);
        for (int c = 0; c < NIV; c++) { /* only an INTERVAL converts to an interval struct */
            SQL_INTERVAL_STRUCT is;
            SQLLEN ind = 0;
            CHECK(ixo_get(&rows[r].v, IVCTYPES[c], SQL_C_CHAR, &is, sizeof is, &ind, NULL, s) ==
                      IXO_CV_BADTYPE,
                  "%s as interval C type %d", rows[r].name, IVCTYPES[c]);
        }
    }
    /* NULL: every C type gives SQL_NULL_DATA, or 22002 without an indicator */
    ixo_val null = {.kind = IXO_V_NULL};
    for (int c = 0; c < NCT; c++) {
        char buf[64];
        SQLLEN ind = 0;
        CHECK(ixo_get(&null, CTYPES[c], SQL_C_CHAR, buf, sizeof buf, &ind, NULL, s) == IXO_CV_OK &&
                  ind == SQL_NULL_DATA,
              "NULL as C type %d", CTYPES[c]);
        CHECK(ixo_get(&null, CTYPES[c], SQL_C_CHAR, buf, sizeof buf, NULL, NULL, s) ==
                  IXO_CV_NULLNOIND,
              "NULL without indicator as C type %d", CTYPES[c]);
    }
    for (int c = 0; c < NIV; c++) {
        SQL_INTERVAL_STRUCT is;
        SQLLEN ind = 0;
        CHECK(ixo_get(&null, IVCTYPES[c], SQL_C_CHAR, &is, sizeof is, &ind, NULL, s) == IXO_CV_OK &&
                  ind == SQL_NULL_DATA,
              "NULL as interval C type %d", IVCTYPES[c]);
        CHECK(ixo_get(&null, IVCTYPES[c], SQL_C_CHAR, &is, sizeof is, NULL, NULL, s) ==
                  IXO_CV_NULLNOIND,
              "NULL without indicator as interval C type %d", IVCTYPES[c]);
    }
    ixo_val one = v_int(1);
    CHECK(ixo_get(&one, SQL_C_GUID, SQL_C_CHAR, NULL, 0, NULL, NULL, s) == IXO_CV_UNSUPPORTED,
          "a C type not taken is HYC00");
}

/* Every INTERVAL qualifier class into every C type: CTYPES, then IVCTYPES
 * (YEAR, MONTH, YEAR_TO_MONTH, DAY, HOUR, MINUTE, SECOND, DAY_TO_HOUR,
 * DAY_TO_MINUTE, DAY_TO_SECOND, HOUR_TO_MINUTE, HOUR_TO_SECOND,
 * MINUTE_TO_SECOND). Numbers take single-field intervals only; a struct
 * of the other class is 07006; fields cut from the end are 01S07. */
static void iv_matrix(ixo_scratch *s) {
    struct {
        const char *name;
        ixo_val v;
        const char *want;
    } rows[] = {
        {"YEAR(4) TO YEAR 12", v_iv(4, IX_UNIT_YEAR, IX_UNIT_YEAR, (ix_interval_t){.years = 12}),
         "ooob"
         "oooooooo"
         "bbo"
         "bbb"
         "ooo"
         "bbbb"
         "bbbbbb"},
        {"YEAR TO MONTH 12-06",
         v_iv(4, IX_UNIT_YEAR, IX_UNIT_MONTH, (ix_interval_t){.years = 12, .months = 6}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "foo"
         "bbbb"
         "bbbbbb"},
        {"MONTH(3) TO MONTH 150",
         v_iv(3, IX_UNIT_MONTH, IX_UNIT_MONTH, (ix_interval_t){.months = 150}),
         "ooob"
         "rooooooo"
         "bbo"
         "bbb"
         "foo"
         "bbbb"
         "bbbbbb"},
        {"DAY(3) TO DAY -5",
         v_iv(3, IX_UNIT_DAY, IX_UNIT_DAY, (ix_interval_t){.sign = -1, .days = 5}),
         "ooob"
         "orororor"
         "bbo"
         "bbb"
         "bbb"
         "oooo"
         "oooooo"},
        {"DAY TO HOUR 2 05",
         v_iv(2, IX_UNIT_DAY, IX_UNIT_HOUR, (ix_interval_t){.days = 2, .hours = 5}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "bbb"
         "fooo"
         "oooooo"},
        {"DAY TO MINUTE 1 02:03",
         v_iv(2, IX_UNIT_DAY, IX_UNIT_MINUTE, (ix_interval_t){.days = 1, .hours = 2, .minutes = 3}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "bbb"
         "ffoo"
         "fooooo"},
        {"DAY(3) TO FRACTION(5) 3 03:27:01.12345",
         v_iv(3, IX_UNIT_DAY, IX_UNIT_FRAC(5),
              (ix_interval_t){
                  .days = 3, .hours = 3, .minutes = 27, .seconds = 1, .fraction = 12345}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "bbb"
         "fffo"
         "ffofoo"},
        {"DAY(2) TO SECOND 1 00:00:01",
         v_iv(2, IX_UNIT_DAY, IX_UNIT_SECOND, (ix_interval_t){.days = 1, .seconds = 1}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "bbb"
         "fffo"
         "ffofoo"},
        {"HOUR TO HOUR 23", v_iv(2, IX_UNIT_HOUR, IX_UNIT_HOUR, (ix_interval_t){.hours = 23}),
         "ooob"
         "oooooooo"
         "bbo"
         "bbb"
         "bbb"
         "fooo"
         "oooooo"},
        {"HOUR TO MINUTE -5:30",
         v_iv(2, IX_UNIT_HOUR, IX_UNIT_MINUTE,
              (ix_interval_t){.sign = -1, .hours = 5, .minutes = 30}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "bbb"
         "ffoo"
         "fooooo"},
        {"HOUR TO FRACTION(3) 1:02:03.456",
         v_iv(2, IX_UNIT_HOUR, IX_UNIT_FRAC(3),
              (ix_interval_t){.hours = 1, .minutes = 2, .seconds = 3, .fraction = 45600}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "bbb"
         "fffo"
         "ffofoo"},
        {"MINUTE TO MINUTE 45",
         v_iv(2, IX_UNIT_MINUTE, IX_UNIT_MINUTE, (ix_interval_t){.minutes = 45}),
         "ooob"
         "oooooooo"
         "bbo"
         "bbb"
         "bbb"
         "ffoo"
         "fooooo"},
        {"MINUTE(3) TO SECOND 100:05",
         v_iv(3, IX_UNIT_MINUTE, IX_UNIT_SECOND, (ix_interval_t){.minutes = 100, .seconds = 5}),
         "ooob"
         "bbbbbbbb"
         "bbb"
         "bbb"
         "bbb"
         "fffo"
         "ffofoo"},
        {"SECOND TO SECOND 59",
         v_iv(2, IX_UNIT_SECOND, IX_UNIT_SECOND, (ix_interval_t){.seconds = 59}),
         "ooob"
         "oooooooo"
         "bbo"
         "bbb"
         "bbb"
         "fffo"
         "ffofoo"},
        {"SECOND TO FRACTION(2) 7.5",
         v_iv(2, IX_UNIT_SECOND, IX_UNIT_FRAC(2), (ix_interval_t){.seconds = 7, .fraction = 50000}),
         "ooob"
         "ffffffff"
         "bbo"
         "bbb"
         "bbb"
         "fffo"
         "ffofoo"},
        {"FRACTION TO FRACTION(3) .123",
         v_iv(0, IX_UNIT_FRACTION, IX_UNIT_FRAC(3), (ix_interval_t){.fraction = 12300}),
         "ooob"
         "ffffffff"
         "bbo"
         "bbb"
         "bbb"
         "fffo"
         "ffofoo"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char got[NCT + NIV + 1];
        for (int c = 0; c < NCT + NIV; c++) {
            unsigned char buf[256];
            SQLLEN ind = 0;
            SQLSMALLINT ct = c < NCT ? CTYPES[c] : IVCTYPES[c - NCT];
            got[c] = code(ixo_get(&rows[r].v, ct, SQL_C_CHAR, buf, sizeof buf, &ind, NULL, s));
        }
        got[NCT + NIV] = 0;
        CHECK(strcmp(got, rows[r].want) == 0, "%s: got %s want %s", rows[r].name, got,
              rows[r].want);
    }
}

static void texts(ixo_scratch *s) {
    char buf[64];
    SQLLEN ind;
    struct {
        ixo_val v;
        const char *want;
    } t[] = {
        {v_int(-42), "-42"},
        {v_dec(1, "12345", 2), "123.45"},
        {v_dec(-1, "5", 3), "-0.005"},
        {v_dt(1, 0, 0), "2024-02-29"},
        {v_dt(0, 1, 0), "13:14:15"},
        {v_dt(1, 1, 12345), "2024-02-29 13:14:15.12345"},
        {{.kind = IXO_V_DOUBLE, .d = 0.1}, "0.1"},
        {{.kind = IXO_V_DOUBLE, .d = 1e300}, "1e+300"},
        {{.kind = IXO_V_DOUBLE, .d = (float)3.14159f, .is_real = 1}, "3.14159"},
        {{.kind = IXO_V_BOOL, .i = 0}, "0"},
        {{.kind = IXO_V_BIN, .p = "\x0a\xbc", .n = 2}, "0ABC"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ixo_cv cv = ixo_get(&t[i].v, SQL_C_CHAR, SQL_C_CHAR, buf, sizeof buf, &ind, NULL, s);
        CHECK(cv == IXO_CV_OK && strcmp(buf, t[i].want) == 0 && ind == (SQLLEN)strlen(t[i].want),
              "text %zu: %s (want %s)", i, buf, t[i].want);
    }
    /* a fraction of 3 digits: its text has 3 */
    ixo_val ts = v_dt(1, 1, 12300);
    ts.fdigits = 3;
    ixo_get(&ts, SQL_C_CHAR, SQL_C_CHAR, buf, sizeof buf, &ind, NULL, s);
    CHECK(strcmp(buf, "2024-02-29 13:14:15.123") == 0, "FRACTION(3): %s", buf);
    /* the timestamp struct */
    SQL_TIMESTAMP_STRUCT tss;
    ixo_val full = v_dt(1, 1, 12345);
    CHECK(ixo_get(&full, SQL_C_TYPE_TIMESTAMP, 0, &tss, sizeof tss, &ind, NULL, s) == IXO_CV_OK &&
              tss.year == 2024 && tss.month == 2 && tss.day == 29 && tss.hour == 13 &&
              tss.second == 15 && tss.fraction == 123450000 && ind == sizeof tss,
          "timestamp struct");
    SQL_DATE_STRUCT ds;
    ixo_val dt = v_text("1999-12-31");
    CHECK(ixo_get(&dt, SQL_C_TYPE_DATE, 0, &ds, sizeof ds, &ind, NULL, s) == IXO_CV_OK &&
              ds.year == 1999 && ds.month == 12 && ds.day == 31,
          "date from text");
    /* SQL_NUMERIC_STRUCT: 123.45 is 12345 at scale 2 */
    SQL_NUMERIC_STRUCT ns;
    ixo_val d = v_dec(-1, "12345", 2);
    CHECK(ixo_get(&d, SQL_C_NUMERIC, 0, &ns, sizeof ns, &ind, NULL, s) == IXO_CV_OK &&
              ns.precision == 5 && ns.scale == 2 && ns.sign == 0 && ns.val[0] == 0x39 &&
              ns.val[1] == 0x30 && ns.val[2] == 0,
          "numeric struct %d %d %d %02x%02x", ns.precision, ns.scale, ns.sign, ns.val[1],
          ns.val[0]);
    /* a 32-digit DECIMAL is exact through SQL_NUMERIC_STRUCT and back */
    ixo_val big = v_dec(1, "12345678901234567890123456789012", 4);
    CHECK(ixo_get(&big, SQL_C_NUMERIC, 0, &ns, sizeof ns, &ind, NULL, s) == IXO_CV_OK, "32 digits");
    ixo_val back;
    CHECK(ixo_put(SQL_C_NUMERIC, &ns, 0, sizeof ns, 1, &back, s) == IXO_CV_OK &&
              back.kind == IXO_V_DEC && strcmp(back.dec.digits, big.dec.digits) == 0 &&
              back.dec.scale == 4,
          "numeric round trip: %s scale %d", back.dec.digits, back.dec.scale);
    int64_t i64;
    ixo_val dec_int = v_dec(-1, "922337203685477580", 0);
    CHECK(ixo_get(&dec_int, SQL_C_SBIGINT, 0, &i64, 8, &ind, NULL, s) == IXO_CV_OK &&
              i64 == -922337203685477580LL,
          "DECIMAL into a 64-bit integer");
}

static void truncation(ixo_scratch *s) {
    char buf[6];
    SQLLEN ind;
    size_t off = 0;
    ixo_val v = v_text("hello world");
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, sizeof buf, &ind, &off, s) == IXO_CV_TRUNC &&
              strcmp(buf, "hello") == 0 && ind == 11,
          "first piece");
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, sizeof buf, &ind, &off, s) == IXO_CV_TRUNC &&
              strcmp(buf, " worl") == 0 && ind == 6,
          "second piece");
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, sizeof buf, &ind, &off, s) == IXO_CV_OK &&
              strcmp(buf, "d") == 0 && ind == 1,
          "last piece");
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, sizeof buf, &ind, &off, s) == IXO_CV_NODATA, "no more");
    /* UTF-16 pieces: "héllo" is 5 units, 10 bytes */
    SQLWCHAR w[3];
    ixo_val u = v_text("h\xc3\xa9llo");
    off = 0;
    CHECK(ixo_get(&u, SQL_C_WCHAR, 0, w, sizeof w, &ind, &off, s) == IXO_CV_TRUNC && ind == 10 &&
              w[0] == 'h' && w[1] == 0xe9 && w[2] == 0,
          "wide first piece, ind %ld", (long)ind);
    CHECK(ixo_get(&u, SQL_C_WCHAR, 0, w, sizeof w, &ind, &off, s) == IXO_CV_TRUNC && ind == 6 &&
              w[0] == 'l',
          "wide second piece");
    /* binary pieces have no terminator */
    unsigned char b[4];
    ixo_val by = {.kind = IXO_V_BIN, .p = "abcdef", .n = 6};
    off = 0;
    CHECK(ixo_get(&by, SQL_C_BINARY, 0, b, 4, &ind, &off, s) == IXO_CV_TRUNC && ind == 6 &&
              memcmp(b, "abcd", 4) == 0,
          "binary piece");
    /* a number cut in its whole part is out of range; in its fraction, truncated */
    ixo_val n = v_int(12345);
    CHECK(ixo_get(&n, SQL_C_CHAR, 0, buf, 3, &ind, NULL, s) == IXO_CV_RANGE, "whole part cut");
    ixo_val d = v_dec(1, "12345", 2);
    CHECK(ixo_get(&d, SQL_C_CHAR, 0, buf, 5, &ind, NULL, s) == IXO_CV_TRUNC &&
              strcmp(buf, "123.") == 0 && ind == 6,
          "fraction cut");
}

static void params(ixo_scratch *s) {
    ixo_val v;
    CHECK(ixo_put(SQL_C_CHAR, "abc", 0, SQL_NTS, 1, &v, s) == IXO_CV_OK && v.kind == IXO_V_TEXT &&
              v.n == 3,
          "char NTS");
    CHECK(ixo_put(SQL_C_CHAR, "abcdef", 0, 2, 1, &v, s) == IXO_CV_OK && v.n == 2, "char length");
    CHECK(ixo_put(SQL_C_CHAR, "abc", 0, SQL_NULL_DATA, 1, &v, s) == IXO_CV_OK &&
              v.kind == IXO_V_NULL,
          "NULL");
    SQLWCHAR w[] = {'h', 0xe9, 0xd83d, 0xde00, 0};
    CHECK(ixo_put(SQL_C_WCHAR, w, 0, SQL_NTS, 1, &v, s) == IXO_CV_OK && v.n == 7 &&
              memcmp(v.p, "h\xc3\xa9\xf0\x9f\x98\x80", 7) == 0,
          "wide text to UTF-8");
    SQLWCHAR lone[] = {0xdc00, 0};
    CHECK(ixo_put(SQL_C_WCHAR, lone, 0, SQL_NTS, 1, &v, s) == IXO_CV_BADCHAR, "lone surrogate");
    int16_t sh = -7;
    CHECK(ixo_put(SQL_C_SSHORT, &sh, 0, 0, 0, &v, s) == IXO_CV_OK && v.kind == IXO_V_INT &&
              v.i == -7,
          "short");
    uint64_t ub = UINT64_MAX;
    CHECK(ixo_put(SQL_C_UBIGINT, &ub, 0, 0, 0, &v, s) == IXO_CV_RANGE, "unsigned 64 out of range");
    unsigned char bit = 2;
    CHECK(ixo_put(SQL_C_BIT, &bit, 0, 0, 0, &v, s) == IXO_CV_OK && v.kind == IXO_V_BOOL && v.i == 1,
          "bit");
    SQL_TIMESTAMP_STRUCT ts = {2001, 2, 3, 4, 5, 6, 120000000};
    CHECK(ixo_put(SQL_C_TYPE_TIMESTAMP, &ts, 0, 0, 0, &v, s) == IXO_CV_OK && v.has_date &&
              v.has_time && v.dt.fraction == 12000,
          "timestamp");
    ts.fraction = 123456789;
    CHECK(ixo_put(SQL_C_TYPE_TIMESTAMP, &ts, 0, 0, 0, &v, s) == IXO_CV_FRACTION, "nanoseconds cut");
    SQL_NUMERIC_STRUCT ns = {5, 2, 0, {0x39, 0x30}};
    char text[IX_DECIMAL_TEXT_SIZE];
    CHECK(ixo_put(SQL_C_NUMERIC, &ns, 0, 0, 0, &v, s) == IXO_CV_OK && v.kind == IXO_V_DEC &&
              ix_decimal_text(&v.dec, text, sizeof text) > 0 && strcmp(text, "-123.45") == 0,
          "numeric -123.45: %s", text);
    SQL_NUMERIC_STRUCT small = {3, 3, 1, {5}};
    CHECK(ixo_put(SQL_C_NUMERIC, &small, 0, 0, 0, &v, s) == IXO_CV_OK &&
              ix_decimal_text(&v.dec, text, sizeof text) > 0 && strcmp(text, "0.005") == 0,
          "numeric 0.005: %s", text);
    /* the largest scales a SQL_NUMERIC_STRUCT can hold (fuzz_odbc found the
     * text of scale 127 overflowing its buffer): 1e-127 is past DECIMAL */
    SQL_NUMERIC_STRUCT tiny = {38, 127, 1, {1}}, huge = {38, -128, 1, {1}};
    ixo_cv cv = ixo_put(SQL_C_NUMERIC, &tiny, 0, 0, 0, &v, s);
    CHECK(cv == IXO_CV_RANGE || cv == IXO_CV_OK, "numeric at scale 127: %d", cv);
    cv = ixo_put(SQL_C_NUMERIC, &huge, 0, 0, 0, &v, s);
    CHECK(cv == IXO_CV_RANGE || cv == IXO_CV_OK, "numeric at scale -128: %d", cv);
    ixo_val p;
    CHECK(ixo_parse_dt("2020-01-02 03:04:05.5", 21, &p) && p.dt.fraction == 50000 && p.fdigits == 1,
          "parse timestamp");
    CHECK(!ixo_parse_dt("2020-13-02", 10, &p), "month 13");
    CHECK(ixo_parse_dt("23:59:59", 8, &p) && !p.has_date && p.has_time, "parse time");
}

static void types(void) {
    ixo_typeinfo t;
    ixo_type_describe(IX_T_DECIMAL, 10 << 8 | 2, 0, &t);
    CHECK(t.sql_type == SQL_DECIMAL && t.column_size == 10 && t.digits == 2, "DECIMAL(10,2)");
    ixo_type_describe(IX_T_MONEY, 8 << 8 | 2, 0, &t);
    CHECK(t.sql_type == SQL_DECIMAL && strcmp(t.type_name, "MONEY") == 0, "MONEY");
    ixo_type_describe(IX_T_DATETIME, (int)ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_FRAC(3)), 0, &t);
    CHECK(t.sql_type == SQL_TYPE_TIMESTAMP && t.digits == 3 && t.column_size == 23,
          "DATETIME YEAR TO FRACTION(3): %d %d", t.sql_type, (int)t.column_size);
    ixo_type_describe(IX_T_DATETIME, (int)ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_DAY), 0, &t);
    CHECK(t.sql_type == SQL_TYPE_DATE, "DATETIME YEAR TO DAY");
    ixo_type_describe(IX_T_DATETIME, (int)ix_qualifier_dt(IX_UNIT_HOUR, IX_UNIT_SECOND), 0, &t);
    CHECK(t.sql_type == SQL_TYPE_TIME && t.column_size == 8, "DATETIME HOUR TO SECOND");
    ixo_type_describe(IX_T_VARCHAR, 4 << 8 | 20, 0, &t);
    CHECK(t.sql_type == SQL_VARCHAR && t.column_size == 20, "VARCHAR(20,4)");
    ixo_type_describe(IX_T_BYTE, 56, 0, &t);
    CHECK(t.sql_type == SQL_LONGVARBINARY && t.c_default == SQL_C_BINARY, "BYTE");
    ixo_type_describe(IX_T_UDTFIXED, 72, IX_T_CLOB, &t);
    CHECK(t.sql_type == SQL_LONGVARCHAR, "CLOB");
    ixo_type_describe(IX_T_INT8, 10, 0, &t);
    CHECK(t.sql_type == SQL_BIGINT && t.c_default == SQL_C_SBIGINT, "INT8");
    ixo_type_describe(IX_T_BOOLEAN, 1, 0, &t);
    CHECK(t.sql_type == SQL_BIT, "BOOLEAN");
    CHECK(strcmp(ixo_cv_state(IXO_CV_BADTYPE), "07006") == 0 &&
              strcmp(ixo_cv_state(IXO_CV_TRUNC), "01004") == 0 && !ixo_cv_state(IXO_CV_OK),
          "SQLSTATEs");
}

/* the Informix text of each class (leading field blank-padded to its
 * precision), in SQL_C_CHAR, SQL_C_WCHAR and SQL_C_BINARY */
static void iv_texts(ixo_scratch *s) {
    struct {
        ixo_val v;
        const char *want;
    } t[] = {
        {v_iv(4, IX_UNIT_YEAR, IX_UNIT_MONTH, (ix_interval_t){.years = 12, .months = 6}),
         "  12-06"},
        {v_iv(3, IX_UNIT_DAY, IX_UNIT_DAY, (ix_interval_t){.sign = -1, .days = 5}), " -5"},
        {v_iv(3, IX_UNIT_DAY, IX_UNIT_FRAC(5),
              (ix_interval_t){
                  .days = 3, .hours = 3, .minutes = 27, .seconds = 1, .fraction = 12345}),
         "  3 03:27:01.12345"},
        {v_iv(2, IX_UNIT_HOUR, IX_UNIT_MINUTE,
              (ix_interval_t){.sign = -1, .hours = 5, .minutes = 30}),
         "-5:30"},
        {v_iv(2, IX_UNIT_SECOND, IX_UNIT_FRAC(2), (ix_interval_t){.seconds = 7, .fraction = 50000}),
         " 7.50"},
        {v_iv(0, IX_UNIT_FRACTION, IX_UNIT_FRAC(3), (ix_interval_t){.fraction = 12300}), ".123"},
        {v_iv(0, IX_UNIT_FRACTION, IX_UNIT_FRAC(3), (ix_interval_t){.sign = -1, .fraction = 12300}),
         "-.123"},
        /* a value whose lower fields overflow is split again at the qualifier */
        {v_iv(3, IX_UNIT_DAY, IX_UNIT_MINUTE, (ix_interval_t){.hours = 30, .minutes = 61}),
         "  1 07:01"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char buf[64];
        SQLWCHAR w[64];
        SQLLEN ind = 0, wind = 0, bind = 0;
        size_t n = strlen(t[i].want);
        ixo_cv cv = ixo_get(&t[i].v, SQL_C_CHAR, SQL_C_CHAR, buf, sizeof buf, &ind, NULL, s);
        CHECK(cv == IXO_CV_OK && strcmp(buf, t[i].want) == 0 && ind == (SQLLEN)n,
              "interval text %zu: '%s' (want '%s')", i, buf, t[i].want);
        cv = ixo_get(&t[i].v, SQL_C_WCHAR, SQL_C_CHAR, w, sizeof w, &wind, NULL, s);
        int same = cv == IXO_CV_OK && wind == (SQLLEN)(n * sizeof(SQLWCHAR)) && w[n] == 0;
        for (size_t k = 0; same && k < n; k++)
            same = w[k] == (SQLWCHAR)t[i].want[k];
        CHECK(same, "interval wide text %zu", i);
        memset(buf, 'x', sizeof buf);
        cv = ixo_get(&t[i].v, SQL_C_BINARY, SQL_C_CHAR, buf, sizeof buf, &bind, NULL, s);
        CHECK(cv == IXO_CV_OK && bind == (SQLLEN)n && memcmp(buf, t[i].want, n) == 0 &&
                  buf[n] == 'x',
              "interval binary %zu", i);
    }
}

/* SQL_INTERVAL_STRUCT: the fields split at the C type, the sign, the
 * fraction in microseconds, 22015 for a leading field over 9 digits */
static void iv_structs(ixo_scratch *s) {
    SQL_INTERVAL_STRUCT is;
    SQLLEN ind = 0;
    ixo_val dts = v_iv(
        3, IX_UNIT_DAY, IX_UNIT_FRAC(5),
        (ix_interval_t){.days = 3, .hours = 3, .minutes = 27, .seconds = 1, .fraction = 12345});
    CHECK(ixo_get(&dts, SQL_C_INTERVAL_DAY_TO_SECOND, 0, &is, sizeof is, &ind, NULL, s) ==
                  IXO_CV_OK &&
              ind == sizeof is && is.interval_type == SQL_IS_DAY_TO_SECOND &&
              is.interval_sign == SQL_FALSE && is.intval.day_second.day == 3 &&
              is.intval.day_second.hour == 3 && is.intval.day_second.minute == 27 &&
              is.intval.day_second.second == 1 && is.intval.day_second.fraction == 123450,
          "DAY TO FRACTION(5) as DAY_TO_SECOND");
    CHECK(ixo_get(&dts, SQL_C_INTERVAL_HOUR, 0, &is, sizeof is, &ind, NULL, s) == IXO_CV_FRACTION &&
              is.interval_type == SQL_IS_HOUR && is.intval.day_second.hour == 75 &&
              is.intval.day_second.day == 0 && is.intval.day_second.fraction == 0,
          "DAY TO FRACTION(5) as HOUR: %u", (unsigned)is.intval.day_second.hour);
    CHECK(ixo_get(&dts, SQL_C_INTERVAL_MINUTE_TO_SECOND, 0, &is, sizeof is, &ind, NULL, s) ==
                  IXO_CV_OK &&
              is.intval.day_second.minute == 4527 && is.intval.day_second.second == 1 &&
              is.intval.day_second.fraction == 123450,
          "DAY TO FRACTION(5) as MINUTE_TO_SECOND");
    /* the default C type of the column is its own struct */
    CHECK(ixo_get(&dts, SQL_C_DEFAULT, SQL_C_INTERVAL_DAY_TO_SECOND, &is, sizeof is, &ind, NULL,
                  s) == IXO_CV_OK &&
              is.interval_type == SQL_IS_DAY_TO_SECOND,
          "SQL_C_DEFAULT");
    ixo_val neg = v_iv(2, IX_UNIT_HOUR, IX_UNIT_MINUTE,
                       (ix_interval_t){.sign = -1, .hours = 5, .minutes = 30});
    CHECK(ixo_get(&neg, SQL_C_INTERVAL_HOUR_TO_MINUTE, 0, &is, sizeof is, &ind, NULL, s) ==
                  IXO_CV_OK &&
              is.interval_sign == SQL_TRUE && is.intval.day_second.hour == 5 &&
              is.intval.day_second.minute == 30,
          "negative HOUR TO MINUTE");
    ixo_val ym =
        v_iv(4, IX_UNIT_YEAR, IX_UNIT_MONTH, (ix_interval_t){.sign = -1, .years = 12, .months = 6});
    CHECK(ixo_get(&ym, SQL_C_INTERVAL_MONTH, 0, &is, sizeof is, &ind, NULL, s) == IXO_CV_OK &&
              is.interval_type == SQL_IS_MONTH && is.interval_sign == SQL_TRUE &&
              is.intval.year_month.month == 150 && is.intval.year_month.year == 0,
          "YEAR TO MONTH as MONTH");
    CHECK(ixo_get(&ym, SQL_C_INTERVAL_YEAR, 0, &is, sizeof is, &ind, NULL, s) == IXO_CV_FRACTION &&
              is.intval.year_month.year == 12 && is.intval.year_month.month == 0,
          "YEAR TO MONTH as YEAR: the months cut");
    /* 22015: 999999999 days are more than 9 digits of hours; a zero is not negative */
    ixo_val big = v_iv(9, IX_UNIT_DAY, IX_UNIT_DAY, (ix_interval_t){.days = 999999999});
    CHECK(ixo_get(&big, SQL_C_INTERVAL_DAY, 0, &is, sizeof is, &ind, NULL, s) == IXO_CV_OK &&
              is.intval.day_second.day == 999999999,
          "9-digit day");
    CHECK(ixo_get(&big, SQL_C_INTERVAL_HOUR, 0, &is, sizeof is, &ind, NULL, s) == IXO_CV_IVFIELD,
          "hours overflow");
    CHECK(strcmp(ixo_cv_state(IXO_CV_IVFIELD), "22015") == 0, "22015");
    ixo_val zero = v_iv(2, IX_UNIT_DAY, IX_UNIT_DAY, (ix_interval_t){.sign = -1});
    CHECK(ixo_get(&zero, SQL_C_INTERVAL_DAY, 0, &is, sizeof is, &ind, NULL, s) == IXO_CV_OK &&
              is.interval_sign == SQL_FALSE,
          "-0 is 0");
    /* single fields as numbers */
    int32_t i32 = 0;
    ixo_val d5 = v_iv(3, IX_UNIT_DAY, IX_UNIT_DAY, (ix_interval_t){.sign = -1, .days = 5});
    CHECK(ixo_get(&d5, SQL_C_SLONG, 0, &i32, sizeof i32, &ind, NULL, s) == IXO_CV_OK && i32 == -5 &&
              ind == 4,
          "DAY -5 as SLONG");
    SQL_NUMERIC_STRUCT ns;
    ixo_val sec =
        v_iv(2, IX_UNIT_SECOND, IX_UNIT_FRAC(2), (ix_interval_t){.seconds = 7, .fraction = 50000});
    CHECK(ixo_get(&sec, SQL_C_NUMERIC, 0, &ns, sizeof ns, &ind, NULL, s) == IXO_CV_OK &&
              ns.sign == 1 && ns.scale == 5 && ns.val[0] == 0xb0 && ns.val[1] == 0x71 &&
              ns.val[2] == 0x0b,
          "SECOND 7.5 as NUMERIC");
    CHECK(ixo_get(&sec, SQL_C_SLONG, 0, &i32, sizeof i32, &ind, NULL, s) == IXO_CV_FRACTION &&
              i32 == 7,
          "SECOND 7.5 as SLONG: 01S07");
}

/* 01004 and 22003 in character and binary targets, pieces */
static void iv_truncation(ixo_scratch *s) {
    char buf[32];
    SQLLEN ind = 0;
    size_t off = 0;
    ixo_val v = v_iv(
        3, IX_UNIT_DAY, IX_UNIT_FRAC(5),
        (ix_interval_t){.days = 3, .hours = 3, .minutes = 27, .seconds = 1, .fraction = 12345});
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, 16, &ind, NULL, s) == IXO_CV_TRUNC &&
              strcmp(buf, "  3 03:27:01.12") == 0 && ind == 18,
          "fraction cut: 01004 '%s'", buf);
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, 8, &ind, NULL, s) == IXO_CV_RANGE,
          "whole part cut: 22003");
    CHECK(ixo_get(&v, SQL_C_BINARY, 0, buf, 17, &ind, NULL, s) == IXO_CV_RANGE, "binary too small");
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, 10, &ind, &off, s) == IXO_CV_TRUNC && ind == 18 &&
              strcmp(buf, "  3 03:27") == 0,
          "first piece");
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, 10, &ind, &off, s) == IXO_CV_OK && ind == 9 &&
              strcmp(buf, ":01.12345") == 0,
          "last piece");
    CHECK(ixo_get(&v, SQL_C_CHAR, 0, buf, 10, &ind, &off, s) == IXO_CV_NODATA, "no more");
    off = 0;
    CHECK(ixo_get(&v, SQL_C_BINARY, 0, buf, sizeof buf, &ind, &off, s) == IXO_CV_OK && ind == 18,
          "binary, SQLGetData");
    CHECK(ixo_get(&v, SQL_C_BINARY, 0, buf, sizeof buf, &ind, &off, s) == IXO_CV_NODATA,
          "binary, no more");
}

/* parameters: interval structs into values (and back), the bind qualifier */
static void iv_params(ixo_scratch *s) {
    ixo_val v;
    SQL_INTERVAL_STRUCT in, out;
    SQLLEN ind = 0;
    memset(&in, 0, sizeof in);
    in.interval_type = SQL_IS_DAY_TO_SECOND;
    in.interval_sign = SQL_TRUE;
    in.intval.day_second = (SQL_DAY_SECOND_STRUCT){3, 3, 27, 1, 123450};
    CHECK(ixo_put(SQL_C_INTERVAL_DAY_TO_SECOND, &in, 0, 0, 0, &v, s) == IXO_CV_OK &&
              v.kind == IXO_V_IV && v.iv.sign == -1 && v.iv.days == 3 && v.iv.minutes == 27 &&
              v.iv.fraction == 12345 &&
              v.qual == ix_qualifier_iv(IXO_IV_MAX_PREC, IX_UNIT_DAY, IX_UNIT_FRAC(5)),
          "DAY_TO_SECOND struct");
    CHECK(ixo_get(&v, SQL_C_INTERVAL_DAY_TO_SECOND, 0, &out, sizeof out, &ind, NULL, s) ==
                  IXO_CV_OK &&
              memcmp(&in, &out, sizeof in) == 0,
          "struct round trip");
    char text[64];
    ixo_get(&v, SQL_C_CHAR, 0, text, sizeof text, &ind, NULL, s);
    CHECK(strcmp(text, "       -3 03:27:01.12345") == 0, "struct as text '%s'", text);
    in.intval.day_second.fraction = 123456;
    CHECK(ixo_put(SQL_C_INTERVAL_DAY_TO_SECOND, &in, 0, 0, 0, &v, s) == IXO_CV_FRACTION &&
              v.iv.fraction == 12345,
          "microseconds cut: 01S07");
    in.intval.day_second.day = 1000000000;
    CHECK(ixo_put(SQL_C_INTERVAL_DAY_TO_SECOND, &in, 0, 0, 0, &v, s) == IXO_CV_IVFIELD,
          "10-digit day: 22015");
    memset(&in, 0, sizeof in);
    in.interval_type = SQL_IS_YEAR_TO_MONTH;
    in.intval.year_month.year = 2;
    in.intval.year_month.month = 3;
    CHECK(ixo_put(SQL_C_INTERVAL_YEAR_TO_MONTH, &in, 0, 0, 0, &v, s) == IXO_CV_OK &&
              v.iv.sign == 1 && v.iv.years == 2 && v.iv.months == 3 &&
              v.qual == ix_qualifier_iv(IXO_IV_MAX_PREC, IX_UNIT_YEAR, IX_UNIT_MONTH),
          "YEAR_TO_MONTH struct");
    CHECK(ixo_ctype_size(SQL_C_INTERVAL_HOUR) == sizeof(SQL_INTERVAL_STRUCT) &&
              ixo_default_ctype(SQL_INTERVAL_HOUR_TO_MINUTE) == SQL_C_INTERVAL_HOUR_TO_MINUTE,
          "interval C type size and default");
    CHECK(ixo_iv_param_qual(SQL_INTERVAL_DAY_TO_SECOND, 6) ==
                  ix_qualifier_iv(IXO_IV_MAX_PREC, IX_UNIT_DAY, IX_UNIT_FRAC(5)) &&
              ixo_iv_param_qual(SQL_INTERVAL_DAY_TO_SECOND, 0) ==
                  ix_qualifier_iv(IXO_IV_MAX_PREC, IX_UNIT_DAY, IX_UNIT_SECOND) &&
              ixo_iv_param_qual(SQL_INTERVAL_MONTH, 3) ==
                  ix_qualifier_iv(IXO_IV_MAX_PREC, IX_UNIT_MONTH, IX_UNIT_MONTH) &&
              ixo_iv_param_qual(SQL_INTEGER, 0) == 0,
          "parameter qualifiers");
}

/* the description of every qualifier class (ODBC's Column Size table) */
static void iv_types(void) {
    struct {
        int prec, start, end;
        SQLSMALLINT sql;
        SQLULEN size;
        int digits, lead;
    } t[] = {
        {4, IX_UNIT_YEAR, IX_UNIT_YEAR, SQL_INTERVAL_YEAR, 4, 0, 4},
        {4, IX_UNIT_YEAR, IX_UNIT_MONTH, SQL_INTERVAL_YEAR_TO_MONTH, 7, 0, 4},
        {3, IX_UNIT_MONTH, IX_UNIT_MONTH, SQL_INTERVAL_MONTH, 3, 0, 3},
        {2, IX_UNIT_DAY, IX_UNIT_DAY, SQL_INTERVAL_DAY, 2, 0, 2},
        {2, IX_UNIT_DAY, IX_UNIT_HOUR, SQL_INTERVAL_DAY_TO_HOUR, 5, 0, 2},
        {2, IX_UNIT_DAY, IX_UNIT_MINUTE, SQL_INTERVAL_DAY_TO_MINUTE, 8, 0, 2},
        {2, IX_UNIT_DAY, IX_UNIT_SECOND, SQL_INTERVAL_DAY_TO_SECOND, 11, 0, 2},
        {3, IX_UNIT_DAY, IX_UNIT_FRAC(5), SQL_INTERVAL_DAY_TO_SECOND, 18, 5, 3},
        {2, IX_UNIT_HOUR, IX_UNIT_HOUR, SQL_INTERVAL_HOUR, 2, 0, 2},
        {2, IX_UNIT_HOUR, IX_UNIT_MINUTE, SQL_INTERVAL_HOUR_TO_MINUTE, 5, 0, 2},
        {2, IX_UNIT_HOUR, IX_UNIT_FRAC(3), SQL_INTERVAL_HOUR_TO_SECOND, 12, 3, 2},
        {5, IX_UNIT_MINUTE, IX_UNIT_MINUTE, SQL_INTERVAL_MINUTE, 5, 0, 5},
        {2, IX_UNIT_MINUTE, IX_UNIT_SECOND, SQL_INTERVAL_MINUTE_TO_SECOND, 5, 0, 2},
        {2, IX_UNIT_SECOND, IX_UNIT_SECOND, SQL_INTERVAL_SECOND, 2, 0, 2},
        {9, IX_UNIT_SECOND, IX_UNIT_FRAC(5), SQL_INTERVAL_SECOND, 15, 5, 9},
        {0, IX_UNIT_FRACTION, IX_UNIT_FRAC(3), SQL_INTERVAL_SECOND, 5, 3, IXO_IV_FRAC_PREC},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ixo_typeinfo ti;
        ixo_type_describe(IX_T_INTERVAL, (int)ix_qualifier_iv(t[i].prec, t[i].start, t[i].end), 0,
                          &ti);
        CHECK(ti.sql_type == t[i].sql && ti.column_size == t[i].size && ti.digits == t[i].digits &&
                  ti.iv_prec == t[i].lead && ti.desc_type == SQL_INTERVAL &&
                  ti.dt_code == t[i].sql - (SQL_INTERVAL_YEAR - SQL_CODE_YEAR) &&
                  ti.c_default == t[i].sql && ti.display_size == (SQLLEN)t[i].size + 1 &&
                  ti.octet_length == sizeof(SQL_INTERVAL_STRUCT) && ti.radix == 0 &&
                  strcmp(ti.type_name, "INTERVAL") == 0,
              "interval type %zu: %d size %lu digits %d lead %d", i, ti.sql_type,
              (unsigned long)ti.column_size, ti.digits, (int)ti.iv_prec);
    }
    ixo_typeinfo ti;
    ixo_type_describe(IX_T_INTERVAL, 0x7777, 0, &ti);
    CHECK(ti.sql_type == SQL_VARCHAR && ti.c_default == SQL_C_CHAR, "not a qualifier: text");
    ixo_type_describe(IX_T_DATETIME, (int)ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_SECOND), 0, &ti);
    CHECK(ti.desc_type == SQL_DATETIME && ti.dt_code == SQL_CODE_TIMESTAMP && ti.iv_prec == 0,
          "DATETIME's SQL_DESC_TYPE");
    ixo_type_describe(IX_T_INTEGER, 4, 0, &ti);
    CHECK(ti.desc_type == SQL_INTEGER && ti.dt_code == 0, "INTEGER's SQL_DESC_TYPE");
}

/* ixo_get's shortcuts against the general path: every value kind (NULL
 * included) into every C type at several buffer sizes, with and without
 * buffer and indicator: the same result, indicator and bytes */
static void shortcuts(ixo_scratch *s) {
    static const SQLSMALLINT extra[] = {SQL_C_DEFAULT, SQL_C_LONG, SQL_C_DATE, SQL_C_SHORT};
    static const SQLLEN sizes[] = {0, 1, 3, 4, 6, 8, 11, 12, 16, 64};
    ixo_val vals[] = {
        v_int(0),
        v_int(42),
        v_int(-2147483648LL),
        v_int(2147483648LL),
        v_int(INT64_MIN),
        {.kind = IXO_V_DOUBLE, .d = -0.5},
        {.kind = IXO_V_DOUBLE, .d = 3.25, .is_real = 1},
        v_dec(1, "12345", 2),
        v_dt(1, 0, 0),
        v_dt(0, 1, 0),
        v_dt(1, 1, 12345),
        v_text(""),
        v_text("abc"),
        v_text("exactly 11."),
        v_text("a longer text than most buffers here"),
        v_text("12"),
        {.kind = IXO_V_BIN, .p = "\x01\x02", .n = 2},
        {.kind = IXO_V_BOOL, .i = 1},
        {.kind = IXO_V_NULL},
        v_iv(3, IX_UNIT_DAY, IX_UNIT_FRAC(5), (ix_interval_t){.days = 3, .fraction = 12345}),
        v_iv(2, IX_UNIT_DAY, IX_UNIT_DAY, (ix_interval_t){.sign = -1, .days = 7}),
    };
    int n = 0, same = 0;
    for (size_t vi = 0; vi < sizeof vals / sizeof vals[0]; vi++)
        for (int c = 0; c < NCT + 4; c++) {
            SQLSMALLINT ct = c < NCT ? CTYPES[c] : extra[c - NCT];
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
                for (int mode = 0; mode < 3; mode++) { /* both, no indicator, no buffer */
                    unsigned char a[80], b[80];
                    SQLLEN ia = -7, ib = -7;
                    memset(a, 0xaa, sizeof a);
                    memset(b, 0xaa, sizeof b);
                    ixo_cv ra = ixo_get(&vals[vi], ct, SQL_C_CHAR, mode == 2 ? NULL : a, sizes[z],
                                        mode == 1 ? NULL : &ia, NULL, s);
                    ixo_cv rb = ixo_get_general(&vals[vi], ct, SQL_C_CHAR, mode == 2 ? NULL : b,
                                                sizes[z], mode == 1 ? NULL : &ib, NULL, s);
                    n++;
                    if (ra == rb && ia == ib && memcmp(a, b, sizeof a) == 0)
                        same++;
                    else
                        CHECK(0, "value %zu C type %d size %ld mode %d: %d/%d ind %ld/%ld", vi, ct,
                              (long)sizes[z], mode, ra, rb, (long)ia, (long)ib);
                }
        }
    CHECK(same == n, "shortcuts equal the general path in %d of %d cases", same, n);
}

/* UTF-8 as RFC 3629 has it: overlong forms, surrogates and code points past
 * U+10FFFF are not UTF-8 (fuzz_odbc found a surrogate taken) */
static void utf8_strict(void) {
    static const char *const bad[] = {"\xc0\x80",     "\xe0\x80\xaf",     "\xed\xa0\x80",
                                      "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80"};
    SQLWCHAR w[8];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(ixo_utf8_to_utf16(bad[i], strlen(bad[i]), w, 8) == -1, "not UTF-8: case %zu", i);
    CHECK(ixo_utf8_to_utf16("\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf", 10, w, 8) == 4 &&
              w[0] == 0xd7ff && w[1] == 0xe000 && w[2] == 0xdbff && w[3] == 0xdfff,
          "the edges around the surrogates and U+10FFFF");
}

int main(void) {
    ixo_scratch s = {0};
    utf8_strict();
    matrix(&s);
    iv_matrix(&s);
    iv_texts(&s);
    iv_structs(&s);
    iv_truncation(&s);
    iv_params(&s);
    iv_types();
    texts(&s);
    truncation(&s);
    params(&s);
    types();
    shortcuts(&s);
    ixo_scratch_free(&s);
    return tap_done();
}
