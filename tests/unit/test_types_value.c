/* test_types_value.c: the per-type tuple value codec (src/types/ixt_value). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "types/ix_datetime.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

static uint64_t rng = 0x853c49e6748fea9bull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static ixb_wbuf wb, wb2;

static const char *str(const ixb_wbuf *b) {
    static char buf[2][256];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%.*s", (int)b->len, b->data ? (const char *)b->data : "");
    return buf[k];
}

/* Formats from an exact-size heap copy (ASan catches over-reads). */
static int fmt_copy(ixt_vtype t, const void *p, size_t n, const ixt_fmt *f, ixb_wbuf *out) {
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, p, n);
    int rc = ixt_value_format(t, c, n, f, out);
    free(c);
    return rc;
}

static ixt_vtype T(int code, uint32_t enclen) {
    ixt_vtype t = {code, enclen};
    return t;
}

/* text -> bytes -> text; returns 1 if stable and equal to want_text. */
static int text_rt(ixt_vtype t, const char *in, const ixt_fmt *f, const char *want) {
    ixb_wbuf_reset(&wb);
    ixb_wbuf_reset(&wb2);
    if (ixt_value_parse(t, in, strlen(in), f, &wb) != IX_OK) return 0;
    if (fmt_copy(t, wb.data, wb.len, f, &wb2) != IX_OK) return 0;
    return strcmp(str(&wb2), want) == 0;
}

static void names(void) {
    struct {
        const char *n;
        int c;
    } v[] = {{"DECIMAL", 5},   {"numeric", 5},   {"SmallFloat", 4},
             {"REAL", 4},      {"FLOAT", 3},     {"double precision", 3},
             {"INT", 2},       {"integer", 2},   {"LVARCHAR", 43},
             {"BOOLEAN", 45},  {"BIGINT", 52},   {"BIGSERIAL", 53},
             {"INT8", 17},     {"SERIAL8", 18},  {"NCHAR", 15},
             {"NVARCHAR", 16}, {"BYTE", 11},     {"TEXT", 12},
             {"DATETIME", 10}, {"INTERVAL", 14}, {"MONEY", 8},
             {"DATE", 7},      {"CHAR", 0},      {"VARCHAR", 13},
             {"SMALLINT", 1},  {"SERIAL", 6},    {" date ", 7},
             {"nosuch", -1},   {"", -1}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        CHECK(ixt_type_from_name(v[i].n) == v[i].c, "type name '%s' -> %d", v[i].n, v[i].c);
    CHECK(strcmp(ixt_type_name(IX_T_DECIMAL), "DECIMAL") == 0 &&
              strcmp(ixt_type_name(IX_T_DATETIME | IXT_TF_NOTNULL), "DATETIME") == 0 &&
              strcmp(ixt_type_name(99), "UNKNOWN") == 0,
          "ixt_type_name");
    CHECK(ixt_vtype_resolve(40, "lvarchar") == IX_T_LVARCHAR &&
              ixt_vtype_resolve(41, "BOOLEAN") == IX_T_BOOLEAN &&
              ixt_vtype_resolve(41, "blob") == 41 &&
              ixt_vtype_resolve(0x10a, NULL) == IX_T_DATETIME,
          "ixt_vtype_resolve");
    CHECK(IXT_T_BASE(266) == IX_T_DATETIME && (266 & IXT_TF_NOTNULL), "266 = DATETIME | NOT NULL");
}

static void integers(void) {
    struct {
        int code;
        const char *min, *max, *below, *above;
    } v[] = {
        {IX_T_SMALLINT, "-32767", "32767", "-32768", "32768"},
        {IX_T_INTEGER, "-2147483647", "2147483647", "-2147483648", "2147483648"},
        {IX_T_SERIAL, "-2147483647", "2147483647", "-2147483648", "2147483648"},
        {IX_T_BIGINT, "-9223372036854775807", "9223372036854775807", "-9223372036854775808",
         "9223372036854775808"},
        {IX_T_BIGSERIAL, "-9223372036854775807", "9223372036854775807", "-9223372036854775808",
         "9223372036854775808"},
        {IX_T_INT8, "-9223372036854775807", "9223372036854775807", "-9223372036854775808",
         "9223372036854775808"},
        {IX_T_SERIAL8, "-9223372036854775807", "9223372036854775807", "-9223372036854775808",
         "99999999999999999999999"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        ixt_vtype t = T(v[i].code, 0);
        const char *nm = ixt_type_name(v[i].code);
        CHECK(text_rt(t, v[i].min, NULL, v[i].min), "%s min %s", nm, v[i].min);
        CHECK(text_rt(t, v[i].max, NULL, v[i].max), "%s max %s", nm, v[i].max);
        CHECK(text_rt(t, " 0 ", NULL, "0") && text_rt(t, "-0", NULL, "0") &&
                  text_rt(t, "+12", NULL, "12"),
              "%s zero and signs", nm);
        ixb_wbuf_reset(&wb);
        CHECK(ixt_value_parse(t, v[i].below, strlen(v[i].below), NULL, &wb) == IX_ERANGE &&
                  ixt_value_parse(t, v[i].above, strlen(v[i].above), NULL, &wb) == IX_ERANGE &&
                  wb.len == 0,
              "%s out of range / NULL sentinel -> ERANGE", nm);
        CHECK(ixt_value_parse(t, "12a", 3, NULL, &wb) == IX_EINVAL &&
                  ixt_value_parse(t, "", 0, NULL, &wb) == IX_EINVAL &&
                  ixt_value_parse(t, "-", 1, NULL, &wb) == IX_EINVAL,
              "%s syntax errors", nm);
        ixb_wbuf_reset(&wb);
        ixt_value_put_null(t, &wb);
        CHECK(wb.len == ixt_value_fixed_width(t) && ixt_value_is_null(t, wb.data, wb.len) == 1 &&
                  fmt_copy(t, wb.data, wb.len, NULL, &wb2) == IX_NULL_VALUE,
              "%s NULL form", nm);
        /* bind round trip of the extremes */
        for (int k = 0; k < 2; k++) {
            const char *s = k ? v[i].max : v[i].min;
            ixb_wbuf_reset(&wb);
            ixb_wbuf_reset(&wb2);
            ixt_value_parse(t, s, strlen(s), NULL, &wb);
            size_t w = wb.len;
            int ok = ixt_value_to_bind(t, wb.data, w, &wb2) == IX_OK;
            ok = ok && ixt_value_from_bind(t, wb2.data, wb2.len, &wb) == IX_OK && wb.len == 2 * w &&
                 memcmp(wb.data, wb.data + w, w) == 0;
            CHECK(ok, "%s bind round trip %s", nm, s);
        }
    }
    /* INT8 vectors and malformed forms */
    const uint8_t one[] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
    const uint8_t two32[] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 1};
    const uint8_t sign2[] = {0, 2, 0, 0, 0, 1, 0, 0, 0, 0};
    const uint8_t huge[] = {0, 1, 0, 0, 0, 0, 0x80, 0, 0, 0};
    const uint8_t null_junk[] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
    int64_t x;
    ixt_vtype i8 = T(IX_T_INT8, 10);
    CHECK(ixt_value_get_int(i8, one, 10, &x) == IX_OK && x == 1, "INT8 1");
    CHECK(ixt_value_get_int(i8, two32, 10, &x) == IX_OK && x == 4294967296LL, "INT8 2^32");
    CHECK(ixt_value_get_int(i8, sign2, 10, &x) == IX_EMALFORMED, "INT8 sign 2 -> EMALFORMED");
    CHECK(ixt_value_get_int(i8, huge, 10, &x) == IX_EMALFORMED, "INT8 2^63 -> EMALFORMED");
    CHECK(ixt_value_is_null(i8, null_junk, 10) == 1, "INT8 sign 0 is NULL whatever follows");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_put_int(i8, 0, &wb) == IX_OK && wb.data[1] == 1, "INT8 zero has sign 1");
    CHECK(ixt_value_put_int(i8, INT64_MIN, &wb) == IX_ERANGE, "INT8 INT64_MIN -> ERANGE");
    /* random property */
    int fails = 0;
    const int codes[] = {IX_T_SMALLINT, IX_T_INTEGER, IX_T_BIGINT, IX_T_INT8, IX_T_SERIAL8};
    for (int it = 0; it < 20000; it++) {
        ixt_vtype t = T(codes[it % 5], 0);
        int64_t val = (int64_t)rnd();
        if (t.code == IX_T_SMALLINT) val = (int16_t)val;
        if (t.code == IX_T_INTEGER) val = (int32_t)val;
        ixb_wbuf_reset(&wb);
        int rc = ixt_value_put_int(t, val, &wb);
        if (rc == IX_ERANGE) continue;
        int64_t back;
        char want[32];
        snprintf(want, sizeof want, "%lld", (long long)val);
        if (rc != IX_OK || ixt_value_get_int(t, wb.data, wb.len, &back) != IX_OK || back != val ||
            !text_rt(t, want, NULL, want))
            fails++;
    }
    CHECK(fails == 0, "20000 random integers (%d failed)", fails);
}

static void floats(void) {
    ixt_vtype f8 = T(IX_T_FLOAT, 8), f4 = T(IX_T_SMALLFLOAT, 4);
    CHECK(text_rt(f8, "1.0", NULL, "1.00000000000000"), "FLOAT 1.0");
    CHECK(text_rt(f4, "1.0", NULL, "1.000000"), "SMALLFLOAT 1.0");
    CHECK(text_rt(f8, "-2.5", NULL, "-2.50000000000000"), "FLOAT -2.5");
    CHECK(text_rt(f8, "-0.0", NULL, "-0.00000000000000"), "FLOAT -0.0 keeps its sign");
    CHECK(text_rt(f8, "Infinity", NULL, "Infinity") && text_rt(f8, "-Infinity", NULL, "-Infinity"),
          "FLOAT infinities");
    CHECK(text_rt(f4, "-Infinity", NULL, "-Infinity"), "SMALLFLOAT -Infinity");
    CHECK(text_rt(f8, "NaN", NULL, "NaN") && text_rt(f4, "NaN", NULL, "NaN"), "NaN");
    CHECK(text_rt(f8, "1e300", NULL, "1.00000000000000e+300"), "FLOAT 1e300");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_parse(f8, "1e309", 5, NULL, &wb) == IX_ERANGE &&
              ixt_value_parse(f4, "1e39", 4, NULL, &wb) == IX_ERANGE &&
              ixt_value_parse(f8, "1.5x", 4, NULL, &wb) == IX_EINVAL &&
              ixt_value_parse(f8, "", 0, NULL, &wb) == IX_EINVAL,
          "FLOAT overflow / syntax");
    /* NaN bit patterns: only all-ff is NULL */
    const uint8_t qnan[] = {0x7f, 0xf8, 0, 0, 0, 0, 0, 0};
    const uint8_t nnan[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe};
    const uint8_t allff[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    ixb_wbuf_reset(&wb);
    CHECK(fmt_copy(f8, qnan, 8, NULL, &wb) == IX_OK && strcmp(str(&wb), "NaN") == 0, "qNaN");
    ixb_wbuf_reset(&wb);
    CHECK(fmt_copy(f8, nnan, 8, NULL, &wb) == IX_OK && strcmp(str(&wb), "NaN") == 0,
          "ff..fe is a NaN, not NULL");
    CHECK(ixt_value_is_null(f8, allff, 8) == 1 && ixt_value_is_null(f4, allff, 4) == 1,
          "all ff is NULL");
    ixb_wbuf_reset(&wb);
    ixt_value_put_double(f8, -NAN, &wb);
    CHECK(ixt_value_is_null(f8, wb.data, 8) == 0, "a NaN never encodes as the NULL form");
    /* DBL_MAX prints rounded up and must still parse */
    char mx[64];
    snprintf(mx, sizeof mx, "%#.15g", -DBL_MAX);
    CHECK(text_rt(f8, mx, NULL, mx), "-DBL_MAX text round trip");
    /* random bits: text is stable after one round */
    int fails = 0;
    for (int it = 0; it < 20000; it++) {
        int dbl = it & 1;
        ixt_vtype t = dbl ? f8 : f4;
        uint8_t b[8];
        uint64_t r = rnd();
        for (int k = 0; k < 8; k++)
            b[k] = (uint8_t)(r >> (8 * k));
        size_t n = dbl ? 8 : 4;
        ixb_wbuf_reset(&wb);
        int rc = fmt_copy(t, b, n, NULL, &wb);
        if (rc == IX_NULL_VALUE) continue;
        char t1[64];
        snprintf(t1, sizeof t1, "%s", str(&wb));
        if (rc != IX_OK || !text_rt(t, t1, NULL, t1)) {
            if (fails < 5) printf("# float text '%s' unstable\n", t1);
            fails++;
        }
    }
    CHECK(fails == 0, "20000 random float/double bit patterns: text stable (%d failed)", fails);
    /* SMALLFLOAT near powers of ten (7 significant digits > FLT_DIG) */
    fails = 0;
    for (int k = -45; k <= 38; k++) {
        float p = (float)pow(10.0, k);
        float c[3] = {p, nextafterf(p, 0), nextafterf(p, INFINITY)};
        for (int j = 0; j < 3; j++) {
            char buf[64];
            snprintf(buf, sizeof buf, "%#.7g", (double)c[j]);
            if (isfinite(c[j]) && !text_rt(f4, buf, NULL, buf)) fails++;
        }
    }
    CHECK(fails == 0, "SMALLFLOAT text stable around powers of ten (%d failed)", fails);
}

static void decimals_and_money(void) {
    ixt_vtype d84 = T(IX_T_DECIMAL, 0x0804), d32 = T(IX_T_DECIMAL, 0x20ff),
              m122 = T(IX_T_MONEY, 0x0c02);
    CHECK(text_rt(d84, "123.45", NULL, "123.4500"), "DECIMAL(8,4) 123.4500");
    CHECK(text_rt(d84, "-0.00005", NULL, "-0.0001"), "DECIMAL(8,4) rounds half away");
    CHECK(text_rt(d32, "123.4500", NULL, "123.45"), "DECIMAL(32) 123.45");
    CHECK(text_rt(d32, "1e125", NULL, "1e+125") && text_rt(d32, "-1e-130", NULL, "-1e-130"),
          "DECIMAL(32) extremes in scientific notation");
    CHECK(text_rt(m122, "123.45", NULL, "$123.45"), "MONEY $123.45");
    CHECK(text_rt(m122, "-98765.43", NULL, "-$98765.43"), "MONEY -$98765.43");
    CHECK(text_rt(m122, "-$98765.43", NULL, "-$98765.43"), "MONEY parses its own text");
    ixt_fmt eur = {NULL, "DM,"};
    CHECK(text_rt(m122, "1234,5", &eur, "DM1234,50"), "DBMONEY DM, (got %s)", str(&wb2));
    ixt_fmt back = {NULL, ",EUR"};
    CHECK(text_rt(m122, "-7,25EUR", &back, "-7,25EUR"), "DBMONEY ,EUR (got %s)", str(&wb2));
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_parse(d84, "12345", 5, NULL, &wb) == IX_ERANGE && wb.len == 0,
          "too many integer digits -> ERANGE");
    /* a value with more integer digits than p - s is malformed for the column */
    const uint8_t big[] = {0xc3, 0x01, 0x00, 0x00, 0x00}; /* 10000 in DECIMAL(8,4) */
    CHECK(fmt_copy(d84, big, 5, NULL, &wb) == IX_EMALFORMED, "10000 in DECIMAL(8,4) malformed");
    ixb_wbuf_reset(&wb);
    ixb_wbuf_reset(&wb2);
    ixt_value_parse(d84, "-123.45", 7, NULL, &wb);
    CHECK(ixt_value_to_bind(d84, wb.data, wb.len, &wb2) == IX_OK && wb2.len == 6 &&
              memcmp(wb2.data, "\x00\x04\x3d\x62\x4c\x37", 6) == 0,
          "DECIMAL bind drops the trailing zero pair");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_from_bind(d84, wb2.data, wb2.len, &wb) == IX_OK && wb.len == 5 &&
              memcmp(wb.data, "\x3d\x62\x4c\x37\x00", 5) == 0,
          "DECIMAL bind back to the tuple");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_from_bind(d84, wb2.data, wb2.len - 1, &wb) == IX_NEED_MORE,
          "truncated bind -> NEED_MORE");
    const uint8_t pad[] = {0, 1, 0x80, 0};
    CHECK(ixt_value_from_bind(d84, pad, 4, &wb) == IX_EMALFORMED, "extra bytes after a bind value");
}

static void dates(void) {
    ixt_vtype dt = T(IX_T_DATE, 4);
    const uint8_t epoch[] = {0, 0, 0x63, 0xe0};
    ixb_wbuf_reset(&wb);
    CHECK(fmt_copy(dt, epoch, 4, NULL, &wb) == IX_OK && strcmp(str(&wb), "01/01/1970") == 0,
          "DATE default 01/01/1970");
    ixt_fmt iso = {"Y4MD-", NULL};
    ixb_wbuf_reset(&wb);
    CHECK(fmt_copy(dt, epoch, 4, &iso, &wb) == IX_OK && strcmp(str(&wb), "1970-01-01") == 0,
          "DATE Y4MD- 1970-01-01");
    CHECK(text_rt(dt, "1970-01-01", NULL, "01/01/1970"), "DATE parses ISO with the default");
    CHECK(text_rt(dt, "02/29/2000", NULL, "02/29/2000"), "DATE leap day");
    const uint8_t bad[] = {0x7f, 0, 0, 0};
    CHECK(fmt_copy(dt, bad, 4, NULL, &wb) == IX_EMALFORMED, "DATE beyond 9999 malformed");
    ixt_fmt badfmt = {"QQQ", NULL};
    CHECK(fmt_copy(dt, epoch, 4, &badfmt, &wb) == IX_EINVAL, "bad DBDATE -> EINVAL");
}

static void strings(void) {
    ixt_vtype c5 = T(IX_T_CHAR, 5), v10 = T(IX_T_VARCHAR, 10), lv = T(IX_T_LVARCHAR, 2048);
    CHECK(text_rt(c5, "abc", NULL, "abc  "), "CHAR(5) blank padded");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_parse(c5, "abcdef", 6, NULL, &wb) == IX_ERANGE, "CHAR too long -> ERANGE");
    ixb_wbuf_reset(&wb);
    ixt_value_put_null(c5, &wb);
    CHECK(wb.len == 5 && ixt_value_is_null(c5, wb.data, 5) == 1, "CHAR NULL (choice: first 00)");
    CHECK(text_rt(v10, "abc", NULL, "abc") && text_rt(v10, "", NULL, ""), "VARCHAR");
    CHECK(ixt_value_parse(v10, "01234567890", 11, NULL, &wb) == IX_ERANGE, "VARCHAR(10) 11 bytes");
    CHECK(ixt_value_parse(v10, "\0", 1, NULL, &wb) == IX_ERANGE, "VARCHAR single NUL = NULL form");
    CHECK(text_rt(lv, "hello", NULL, "hello"), "LVARCHAR");
    CHECK(ixt_value_parse(T(IX_T_LVARCHAR, 3), "abcd", 4, NULL, &wb) == IX_ERANGE,
          "LVARCHAR(3) too long");
    /* extents */
    size_t used = 0;
    const uint8_t vc[] = {3, 'a', 'b', 'c', 9};
    CHECK(ixt_value_extent(v10, vc, 5, 0, 0, &used) == IX_OK && used == 4, "VARCHAR extent");
    CHECK(ixt_value_extent(v10, vc, 3, 0, 0, &used) == IX_NEED_MORE, "VARCHAR truncated");
    CHECK(ixt_value_extent(v10, vc, 0, 0, 0, &used) == IX_NEED_MORE, "VARCHAR empty input");
    CHECK(ixt_value_extent(v10, vc, 5, 2, 0, &used) == IX_ELIMIT, "VARCHAR over max_len");
    const uint8_t env[] = {0, 0, 0, 0, 3, 'a', 'b', 'c'};
    CHECK(ixt_value_extent(lv, env, 8, 0, 0, &used) == IX_OK && used == 8, "LVARCHAR extent");
    for (size_t k = 0; k < 8; k++)
        CHECK(ixt_value_extent(lv, env, k, 0, 0, &used) == IX_NEED_MORE, "LVARCHAR cut at %zu", k);
    CHECK(ixt_value_extent(lv, env, 8, 2, 0, &used) == IX_ELIMIT, "LVARCHAR over max_len");
    const uint8_t flag2[] = {2, 0, 0, 0, 0}, negl[] = {0, 0xff, 0xff, 0xff, 0xff};
    CHECK(ixt_value_extent(lv, flag2, 5, 0, 0, &used) == IX_EMALFORMED, "LVARCHAR flag 2");
    CHECK(ixt_value_extent(lv, negl, 5, 0, 0, &used) == IX_EMALFORMED, "LVARCHAR negative length");
    CHECK(ixt_value_is_null(lv, env, 7) == IX_EMALFORMED, "LVARCHAR length mismatch");
    /* bind */
    ixb_wbuf_reset(&wb);
    ixb_wbuf_reset(&wb2);
    ixt_value_parse(c5, "ab", 2, NULL, &wb);
    CHECK(ixt_value_to_bind(c5, wb.data, wb.len, &wb2) == IX_OK && wb2.len == 7 &&
              memcmp(wb2.data,
                     "\x00\x05"
                     "ab   ",
                     7) == 0,
          "CHAR bind: i16 length + bytes as stored");
    ixb_wbuf_reset(&wb2);
    CHECK(ixt_value_to_bind(v10, vc, 4, &wb2) == IX_OK && wb2.len == 5 &&
              memcmp(wb2.data,
                     "\x00\x03"
                     "abc",
                     5) == 0,
          "VARCHAR bind");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_from_bind(lv, wb2.data, wb2.len, &wb) == IX_OK && wb.len == 8 &&
              memcmp(wb.data, env, 8) == 0,
          "string bind into LVARCHAR");
    const uint8_t vnull[] = {1, 0};
    ixb_wbuf_reset(&wb2);
    CHECK(ixt_value_to_bind(v10, vnull, 2, &wb2) == IX_NULL_VALUE && wb2.len == 0,
          "NULL has no bind bytes");
}

static void booleans_and_blobs(void) {
    ixt_vtype b = T(IX_T_BOOLEAN, 1);
    CHECK(text_rt(b, "t", NULL, "t") && text_rt(b, "TRUE", NULL, "t") && text_rt(b, "1", NULL, "t"),
          "BOOLEAN true spellings");
    CHECK(text_rt(b, "f", NULL, "f") && text_rt(b, " false ", NULL, "f") &&
              text_rt(b, "0", NULL, "f"),
          "BOOLEAN false spellings");
    CHECK(ixt_value_parse(b, "yes", 3, NULL, &wb) == IX_EINVAL, "BOOLEAN 'yes' -> EINVAL");
    const uint8_t tt[] = {0, 0, 0, 0, 1, 't'}, bad[] = {0, 0, 0, 0, 1, 7};
    ixb_wbuf_reset(&wb);
    CHECK(fmt_copy(b, tt, 6, NULL, &wb) == IX_OK && strcmp(str(&wb), "t") == 0,
          "BOOLEAN payload 't' accepted");
    CHECK(fmt_copy(b, bad, 6, NULL, &wb) == IX_EMALFORMED, "BOOLEAN payload 07 malformed");
    ixb_wbuf_reset(&wb);
    ixt_value_put_null(b, &wb);
    CHECK(wb.len == 5 && ixt_value_is_null(b, wb.data, 5) == 1, "BOOLEAN NULL 01 00 00 00 00");
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_to_bind(b, tt, 6, &wb) == IX_OK && wb.len == 1 && wb.data[0] == 1,
          "BOOLEAN bind 01");
    const uint8_t bt = 't';
    ixb_wbuf_reset(&wb);
    CHECK(ixt_value_from_bind(b, &bt, 1, &wb) == IX_OK && wb.len == 6 && wb.data[5] == 1,
          "BOOLEAN bind 't' accepted");
    /* BYTE/TEXT descriptors */
    uint8_t d[68] = {0};
    size_t used;
    ixt_vtype by = T(IX_T_BYTE, 0), tx = T(IX_T_TEXT, 0);
    CHECK(ixt_value_extent(by, d, 68, 0, 0, &used) == IX_OK && used == 56, "BYTE extent 56");
    CHECK(ixt_value_extent(by, d, 68, 0, IXT_VF_F70, &used) == IX_OK && used == 68,
          "BYTE extent 68 with f70");
    CHECK(ixt_value_extent(tx, d, 55, 0, 0, &used) == IX_NEED_MORE, "TEXT truncated");
    ixb_wbuf_reset(&wb);
    CHECK(fmt_copy(by, d, 56, NULL, &wb) == IX_OK && strcmp(str(&wb), "<BYTE value>") == 0,
          "<BYTE value>");
    ixb_wbuf_reset(&wb);
    CHECK(fmt_copy(tx, d, 68, NULL, &wb) == IX_OK && strcmp(str(&wb), "<TEXT value>") == 0,
          "<TEXT value>");
    d[39] = 1;
    CHECK(ixt_value_is_null(by, d, 56) == 1 && ixt_value_is_null(by, d, 68) == 0,
          "BYTE NULL bit at byte 39");
    ixb_wbuf_reset(&wb);
    ixt_value_put_null_ex(tx, IXT_VF_F70, &wb);
    CHECK(wb.len == 68 && ixt_value_is_null(tx, wb.data, 68) == 1, "TEXT f70 NULL form");
    CHECK(ixt_value_parse(by, "x", 1, NULL, &wb) == IX_EINVAL, "BYTE has no text input");
    CHECK(ixt_value_extent(T(IX_T_SET, 0), d, 68, 0, 0, &used) == IX_EINVAL, "SET unsupported");
}

static void fixed_widths(void) {
    struct {
        int code;
        uint32_t enclen;
        size_t w;
    } v[] = {{IX_T_CHAR, 5, 5},           {IX_T_SMALLINT, 2, 2},      {IX_T_INTEGER, 4, 4},
             {IX_T_FLOAT, 8, 8},          {IX_T_SMALLFLOAT, 4, 4},    {IX_T_DECIMAL, 0x0804, 5},
             {IX_T_SERIAL, 4, 4},         {IX_T_DATE, 4, 4},          {IX_T_MONEY, 0x1002, 9},
             {IX_T_DATETIME, 0x130f, 11}, {IX_T_INTERVAL, 0x0e4f, 9}, {IX_T_INT8, 10, 10},
             {IX_T_SERIAL8, 10, 10},      {IX_T_BIGINT, 8, 8},        {IX_T_BIGSERIAL, 8, 8},
             {IX_T_VARCHAR, 10, 0},       {IX_T_LVARCHAR, 2048, 0},   {IX_T_BOOLEAN, 1, 0},
             {IX_T_DECIMAL, 0x2100, 0},   {IX_T_DATETIME, 0x1300, 0}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t w = ixt_value_fixed_width(T(v[i].code, v[i].enclen));
        CHECK(w == v[i].w, "%s(%#x) width %zu, want %zu", ixt_type_name(v[i].code), v[i].enclen, w,
              v[i].w);
        if (w) {
            uint8_t buf[16] = {0};
            size_t used;
            CHECK(ixt_value_extent(T(v[i].code, v[i].enclen), buf, w - 1, 0, 0, &used) ==
                      IX_NEED_MORE,
                  "%s truncated -> NEED_MORE", ixt_type_name(v[i].code));
            CHECK(ixt_value_is_null(T(v[i].code, v[i].enclen), buf, w + 1) == IX_EMALFORMED,
                  "%s wrong length -> EMALFORMED", ixt_type_name(v[i].code));
        }
    }
}

int main(void) {
    ixb_wbuf_init(&wb, NULL);
    ixb_wbuf_init(&wb2, NULL);
    names();
    integers();
    floats();
    decimals_and_money();
    dates();
    strings();
    booleans_and_blobs();
    fixed_widths();
    ixb_wbuf_free(&wb);
    ixb_wbuf_free(&wb2);
    return tap_done();
}
