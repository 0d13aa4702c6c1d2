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
static ixo_val v_dt(int date, int tm, int fraction) {
    ixo_val v = {.kind = IXO_V_DT, .has_date = date, .has_time = tm, .fdigits = fraction ? 5 : 0};
    if (date) v.dt.year = 2024, v.dt.month = 2, v.dt.day = 29;
    if (tm) v.dt.hour = 13, v.dt.minute = 14, v.dt.second = 15, v.dt.fraction = fraction;
    return v;
}

/* o ok, f 01S07, t 01004, b 07006, r 22003, c 22018, d 22007 */
static char code(ixo_cv cv) {
    switch (cv) {
    case IXO_CV_OK: return 'o';
    case IXO_CV_FRACTION: return 'f';
    case IXO_CV_TRUNC: return 't';
    case IXO_CV_BADTYPE: return 'b';
    case IXO_CV_RANGE: return 'r';
    case IXO_CV_BADCHAR: return 'c';
    case IXO_CV_BADDT: return 'd';
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
    CHECK(ixo_get(&null, SQL_C_INTERVAL_DAY, SQL_C_CHAR, NULL, 0, NULL, NULL, s) ==
              IXO_CV_NULLNOIND,
          "NULL first");
    ixo_val one = v_int(1);
    CHECK(ixo_get(&one, SQL_C_INTERVAL_DAY, SQL_C_CHAR, NULL, 0, NULL, NULL, s) ==
              IXO_CV_UNSUPPORTED,
          "an interval C type is HYC00");
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

int main(void) {
    ixo_scratch s = {0};
    matrix(&s);
    texts(&s);
    truncation(&s);
    params(&s);
    types();
    shortcuts(&s);
    ixo_scratch_free(&s);
    return tap_done();
}
