/* test_types_decimal.c: exact base-100 DECIMAL/MONEY (src/types/ixt_decimal). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "types/ix_decimal.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static ixb_wbuf wb;

static const char *text_of(const ixt_decimal *d, int scale) {
    static char buf[128];
    ixb_wbuf_reset(&wb);
    int rc = ixt_dec_to_text(d, scale, &wb);
    if (rc != IX_OK) return rc == IX_NULL_VALUE ? "<null>" : "<err>";
    snprintf(buf, sizeof buf, "%.*s", (int)wb.len, (const char *)wb.data);
    return buf;
}

static int from(ixt_decimal *d, const char *s) {
    return ixt_dec_from_text(d, s, strlen(s));
}

/* Decodes from an exact-size heap copy so ASan sees over-reads. */
static int decode_copy(ixt_decimal *d, const uint8_t *p, size_t n) {
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, p, n);
    int rc = ixt_dec_decode(d, c, n);
    free(c);
    return rc;
}

static void text_case(const char *in, int scale, const char *want) {
    ixt_decimal d;
    int rc = from(&d, in);
    const char *got = rc == IX_OK ? text_of(&d, scale) : "<parse error>";
    CHECK(strcmp(got, want) == 0, "'%s' scale %d -> '%s', want '%s'", in, scale, got, want);
}

static void enc_case(const char *in, int p, int s, const char *hex) {
    ixt_decimal d;
    char got[80] = "";
    ixb_wbuf_reset(&wb);
    int rc = from(&d, in);
    if (rc == IX_OK) rc = ixt_dec_encode(&d, p, s, &wb);
    for (size_t i = 0; rc == IX_OK && i < wb.len; i++)
        sprintf(got + 2 * i, "%02x", wb.data[i]);
    CHECK(rc == IX_OK && strcmp(got, hex) == 0, "encode %s (%d,%d) -> %s, want %s (rc %d)", in, p,
          s, got, hex, rc);
    if (rc == IX_OK) {
        ixt_decimal back;
        CHECK(decode_copy(&back, wb.data, wb.len) == IX_OK, "decode %s", hex);
        ixt_decimal r = d;
        if (s == IXT_DEC_FLOAT)
            ixt_dec_round_sig(&r, p);
        else
            ixt_dec_round(&r, s);
        CHECK(ixt_dec_cmp(&back, &r) == 0, "decode %s equals %s", hex, in);
    }
}

static void rc_case(const char *in, int p, int s, int want) {
    ixt_decimal d;
    ixb_wbuf_reset(&wb);
    int rc = from(&d, in);
    if (rc == IX_OK) rc = ixt_dec_encode(&d, p, s, &wb);
    CHECK(rc == want && (rc == IX_OK || wb.len == 0), "'%s' (%d,%d) rc %d, want %d", in, p, s, rc,
          want);
}

/* A random decimal text with nd significant digits and decimal exponent e. */
static void random_text(char *buf, int nd, int e, int neg) {
    int k = 0;
    if (neg) buf[k++] = '-';
    buf[k++] = (char)('1' + rnd() % 9);
    if (nd > 1) buf[k++] = '.';
    for (int i = 1; i < nd; i++)
        buf[k++] = (char)('0' + rnd() % 10);
    sprintf(buf + k, "e%d", e);
}

/* ixt_dec_add/_mul/_div: op '+', '-', '*', '/' on a and b gives want
 * (text at float scale) or the status want_rc. */
/* DECIMAL to double: the nearest double, as strtod reads the value's text,
 * for random values of 1 to 20 digits across the exponents the fast path
 * takes and beyond. */
static void to_double_cases(void) {
    srand(7);
    int bad = 0, n = 0;
    char first[160] = "";
    for (int i = 0; i < 20000; i++) {
        char buf[80];
        random_text(buf, 1 + rand() % 20, rand() % 70 - 35, rand() & 1);
        ixt_decimal d;
        double got, want = strtod(buf, NULL);
        if (ixt_dec_from_text(&d, buf, strlen(buf)) != IX_OK) continue;
        n++;
        if (ixt_dec_to_double(&d, &got) != IX_OK || got != want) {
            if (!bad++) snprintf(first, sizeof first, "%s: %.17g, want %.17g", buf, got, want);
        }
    }
    CHECK(bad == 0 && n > 19000, "DECIMAL to double is strtod's nearest (%d of %d differ; %s)", bad,
          n, first);
}

static void arith_case(const char *a, char op, const char *b, const char *want, int want_rc) {
    ixt_decimal x, y, r;
    CHECK(from(&x, a) == IX_OK && from(&y, b) == IX_OK, "operands %s %s", a, b);
    int rc = op == '+'   ? ixt_dec_add(&x, &y, 0, &r)
             : op == '-' ? ixt_dec_add(&x, &y, 1, &r)
             : op == '*' ? ixt_dec_mul(&x, &y, &r)
                         : ixt_dec_div(&x, &y, &r);
    if (want_rc != IX_OK) {
        CHECK(rc == want_rc, "%s %c %s: rc %d, want %d", a, op, b, rc, want_rc);
        return;
    }
    const char *got = rc == IX_OK ? text_of(&r, IXT_DEC_FLOAT) : "(failed)";
    CHECK(rc == IX_OK && strcmp(got, want) == 0, "%s %c %s = %s, want %s (rc %d)", a, op, b, got,
          want, rc);
}

static void arith_cases(void) {
    arith_case("1.5", '+', "2.25", "3.75", IX_OK);
    arith_case("1.5", '-', "2.25", "-0.75", IX_OK);
    arith_case("0.1", '+', "0.2", "0.3", IX_OK);
    arith_case("-12.5", '*', "4", "-50", IX_OK);
    arith_case("1", '/', "3", "3.3333333333333333333333333333333e-01", IX_OK);
    arith_case("10", '/', "4", "2.5", IX_OK);
    arith_case("99999999999999999999999999999999", '+', "1", "1e+32", IX_OK);
    arith_case("1", '/', "0", NULL, IX_EINVAL);
    arith_case("9e125", '*', "10", NULL, IX_ERANGE);
    ixt_decimal x, n, r;
    from(&x, "1");
    ixt_dec_null(&n);
    CHECK(ixt_dec_add(&x, &n, 0, &r) == IX_NULL_VALUE && r.is_null, "1 + NULL is NULL");
    CHECK(ixt_dec_div(&n, &x, &r) == IX_NULL_VALUE && r.is_null, "NULL / 1 is NULL");
}

int main(void) {
    ixb_wbuf_init(&wb, NULL);
    ixt_decimal d, e;

    /* text forms */
    text_case("123.45", -1, "123.45");
    text_case("123.45", 4, "123.4500");
    text_case("  -123.4500  ", -1, "-123.45");
    text_case("-0.001", 3, "-0.001");
    text_case("0", -1, "0");
    text_case("-0", 2, "0.00");
    text_case("+.5", -1, "0.5");
    text_case("5.", 0, "5");
    text_case("1e125", -1, "1e+125");
    text_case("1e-130", -1, "1e-130");
    text_case("-1e-130", -1, "-1e-130");
    text_case("1E2", -1, "100");
    text_case("12345678901234567890123456789012", -1, "12345678901234567890123456789012");
    text_case("1e31", -1, "10000000000000000000000000000000");
    text_case("1e32", -1, "1e+32");
    text_case("0.0000000000000000000000000000001", -1, "0.0000000000000000000000000000001");
    text_case("1e-32", -1, "1e-32");
    text_case("1.5e-40", -1, "1.5e-40");
    text_case("2.5", 0, "3");
    text_case("-2.5", 0, "-3");
    text_case("0.004", 2, "0.00");
    text_case("0.005", 2, "0.01");
    text_case("-0.005", 2, "-0.01");
    text_case("9.995", 2, "10.00");
    text_case("00012.3400e1", -1, "123.4");
    CHECK(from(&d, "123456789012345678901234567890123") == IX_ERANGE, "33 digits -> ERANGE");
    CHECK(from(&d, "1234567890123456789012345678901200000") == IX_OK, "trailing zeros are free");
    CHECK(from(&d, "1e126") == IX_ERANGE, "1e126 -> ERANGE");
    CHECK(from(&d, "9.9999e125") == IX_OK, "9.9999e125 fits");
    CHECK(from(&d, "1e-131") == IX_ERANGE, "1e-131 -> ERANGE");
    CHECK(from(&d, "0e-999999") == IX_OK && d.ndig == 0, "zero with any exponent");
    const char *bad[] = {"",   " ",   "abc", "1.2.3", "e5", "--1",
                         "1e", "1e+", ".",   "1 2",   "+",  "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(from(&d, bad[i]) == IX_EINVAL, "'%s' -> EINVAL", bad[i]);
    CHECK(ixt_dec_from_text(&d, "12", 1) == IX_OK &&
              ixt_dec_cmp(&d, &(ixt_decimal){1, 0, 1, 1, {1}}) == 0,
          "reads only n bytes");

    /* widths */
    CHECK(ixt_dec_width(32, 0xff) == 18 && ixt_dec_width(16, 0xff) == 10, "floating widths");
    CHECK(ixt_dec_width(32, 31) == 18 && ixt_dec_width(32, 32) == 17 && ixt_dec_width(1, 1) == 2,
          "fixed widths");
    CHECK(ixt_dec_width(8, 4) == 5 && ixt_dec_width(10, 3) == 7 && ixt_dec_width(12, 2) == 7,
          "vector widths");
    CHECK(ixt_dec_width(0, 0) == 0 && ixt_dec_width(33, 0) == 0 && ixt_dec_width(5, 6) == 0,
          "bad prec/scale");

    /* encodings (values.tsv and §4.3) */
    enc_case("123.45", 8, 4, "c201172d00");
    enc_case("-123.45", 8, 4, "3d624c3700");
    enc_case("0", 8, 4, "8000000000");
    enc_case("-0.001", 3, 3, "405a00");
    enc_case("0.1", 1, 1, "c00a");
    enc_case("1e-130", 32, 0xff, "800100000000000000000000000000000000");
    enc_case("-1e-130", 32, 0xff, "7f6300000000000000000000000000000000");
    enc_case("1e125", 32, 0xff, "ff0a00000000000000000000000000000000");
    enc_case("-1e125", 32, 0xff, "005a00000000000000000000000000000000");
    enc_case("12345.6789", 12, 4, "c301172d435900");
    enc_case("-42.125", 10, 3, "3e395732000000");
    enc_case("-98765.43", 12, 2, "3c5a0c22390000");
    enc_case("999999999999999999999999999999.99", 32, 2, "cf63636363636363636363636363636363");
    enc_case("1e-32", 32, 32, "b101000000000000000000000000000000");
    rc_case("12345", 8, 4, IX_ERANGE);
    rc_case("9999.99995", 8, 4, IX_ERANGE);
    rc_case("9999.99994", 8, 4, IX_OK);
    rc_case("1", 8, 9, IX_EINVAL);
    rc_case("1", 0, 0, IX_EINVAL);
    rc_case("9.99999999999999999999999999999999e125", 32, 0xff, IX_ERANGE); /* rounds past max */

    /* rounding to the scale, half away from zero */
    struct {
        const char *in, *out;
        int p, s;
    } rounds[] = {{"1.23456", "1.2346", 8, 4},
                  {"-1.23455", "-1.2346", 8, 4},
                  {"0.00005", "0.0001", 5, 4},
                  {"0.00004", "0.0000", 5, 4},
                  {"123.456", "123", 5, 0},
                  {"-0.5", "-1", 3, 0},
                  {"1234567.891", "1234568", 7, 0xff},
                  {"0.000123456", "0.000123", 3, 0xff}};
    for (size_t i = 0; i < sizeof rounds / sizeof rounds[0]; i++) {
        ixb_wbuf_reset(&wb);
        int rc = from(&d, rounds[i].in);
        if (rc == IX_OK) rc = ixt_dec_encode(&d, rounds[i].p, rounds[i].s, &wb);
        if (rc == IX_OK) rc = decode_copy(&e, wb.data, wb.len);
        const char *got = rc == IX_OK ? text_of(&e, rounds[i].s == 0xff ? -1 : rounds[i].s) : "?";
        CHECK(strcmp(got, rounds[i].out) == 0, "round %s (%d,%d) -> %s, want %s", rounds[i].in,
              rounds[i].p, rounds[i].s, got, rounds[i].out);
    }

    /* malformed tuple bytes */
    {
        const uint8_t pair100[] = {0xc1, 0x64, 0};
        const uint8_t negzero[] = {0x3f, 0, 0};
        const uint8_t allzero[] = {0, 0, 0, 0};
        const uint8_t lead0[] = {0xc2, 0x00, 0x05};
        const uint8_t big[19] = {0xc1, 1};
        const uint8_t low[] = {0x80, 0x00, 0x01};
        const uint8_t digits34[] = {0xd1, 99, 99, 99, 99, 99, 99, 99, 99,
                                    99,   99, 99, 99, 99, 99, 99, 99, 99};
        CHECK(decode_copy(&d, pair100, 3) == IX_EMALFORMED, "pair 100 -> EMALFORMED");
        CHECK(decode_copy(&d, negzero, 3) == IX_EMALFORMED, "negative zero -> EMALFORMED");
        CHECK(decode_copy(&d, allzero, 4) == IX_NULL_VALUE && d.is_null, "all zero -> NULL");
        CHECK(decode_copy(&d, lead0, 3) == IX_OK && strcmp(text_of(&d, -1), "5") == 0,
              "leading zero pair normalised (%s)", text_of(&d, -1));
        CHECK(decode_copy(&d, big, 19) == IX_EMALFORMED, "19 bytes -> EMALFORMED");
        CHECK(decode_copy(&d, big, 0) == IX_EMALFORMED, "0 bytes -> EMALFORMED");
        CHECK(decode_copy(&d, low, 3) == IX_EMALFORMED, "exponent below -64 -> EMALFORMED");
        CHECK(decode_copy(&d, digits34, 18) == IX_EMALFORMED, "34 digits -> EMALFORMED");
    }

    /* NULL handling */
    ixt_dec_null(&d);
    ixb_wbuf_reset(&wb);
    CHECK(ixt_dec_encode(&d, 8, 4, &wb) == IX_OK && wb.len == 5 && wb.data[0] == 0, "NULL encodes");
    CHECK(ixt_dec_to_text(&d, 2, &wb) == IX_NULL_VALUE, "NULL to_text");
    CHECK(ixt_dec_encode_bind(&d, &wb) == IX_EINVAL, "NULL has no bind form");

    /* bind form */
    {
        ixb_wbuf_reset(&wb);
        from(&d, "123.45");
        CHECK(ixt_dec_encode_bind(&d, &wb) == IX_OK && wb.len == 6 &&
                  memcmp(wb.data, "\x00\x04\xc2\x01\x17\x2d", 6) == 0,
              "bind 123.45 = 00 04 c2 01 17 2d");
        size_t used = 0;
        CHECK(ixt_dec_decode_bind(&e, wb.data, wb.len, &used) == IX_OK && used == 6 &&
                  ixt_dec_cmp(&d, &e) == 0,
              "bind round trip");
        for (size_t k = 0; k < wb.len; k++)
            CHECK(ixt_dec_decode_bind(&e, wb.data, k, &used) == IX_NEED_MORE, "bind cut at %zu", k);
        ixb_wbuf_reset(&wb);
        ixt_dec_zero(&d);
        CHECK(ixt_dec_encode_bind(&d, &wb) == IX_OK && wb.len == 3 && wb.data[2] == 0x80,
              "bind zero = 00 01 80");
        const uint8_t len0[] = {0, 0}, len19[] = {0, 19};
        CHECK(ixt_dec_decode_bind(&e, len0, 2, &used) == IX_EMALFORMED, "bind length 0");
        CHECK(ixt_dec_decode_bind(&e, len19, 2, &used) == IX_EMALFORMED, "bind length 19");
        ixb_wbuf_reset(&wb);
        from(&d, "-98765.43");
        ixt_dec_encode_bind(&d, &wb);
        CHECK(wb.len == 2 + 5 && memcmp(wb.data + 2, "\x3c\x5a\x0c\x22\x39", 5) == 0 &&
                  wb.data[1] == 5,
              "negative bind keeps the complement, drops trailing zeros");
    }

    /* integers */
    int64_t ints[] = {0, 1, -1, 99, 100, -100, 123456789, INT64_MAX, INT64_MIN, INT64_MIN + 1};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        int64_t v = 0;
        ixt_dec_from_i64(&d, ints[i]);
        char want[32];
        snprintf(want, sizeof want, "%lld", (long long)ints[i]);
        CHECK(strcmp(text_of(&d, -1), want) == 0 && ixt_dec_to_i64(&d, &v) == IX_OK && v == ints[i],
              "i64 %s round trip (%s)", want, text_of(&d, -1));
    }
    {
        int64_t v;
        from(&d, "-1.9");
        CHECK(ixt_dec_to_i64(&d, &v) == IX_OK && v == -1, "to_i64 truncates");
        from(&d, "9223372036854775808");
        CHECK(ixt_dec_to_i64(&d, &v) == IX_ERANGE, "2^63 -> ERANGE");
        from(&d, "-9223372036854775809");
        CHECK(ixt_dec_to_i64(&d, &v) == IX_ERANGE, "-2^63-1 -> ERANGE");
        from(&d, "1e40");
        CHECK(ixt_dec_to_i64(&d, &v) == IX_ERANGE, "1e40 -> ERANGE");
        from(&d, "0.5");
        CHECK(ixt_dec_to_i64(&d, &v) == IX_OK && v == 0, "0.5 -> 0");
    }

    /* doubles (convenience only) */
    {
        double dv[] = {0.1, -2.5, 1e100, 123.456, 5e-300 * 1e200, -0.0};
        for (size_t i = 0; i < sizeof dv / sizeof dv[0]; i++) {
            double back = 1;
            CHECK(ixt_dec_from_double(&d, dv[i]) == IX_OK &&
                      ixt_dec_to_double(&d, &back) == IX_OK && back == dv[i],
                  "double %g round trip", dv[i]);
        }
        CHECK(ixt_dec_from_double(&d, NAN) == IX_ERANGE &&
                  ixt_dec_from_double(&d, INFINITY) == IX_ERANGE,
              "NaN/inf -> ERANGE");
        CHECK(ixt_dec_from_double(&d, 1e300) == IX_ERANGE, "1e300 -> ERANGE");
    }

    /* property: random values, text and bytes round trips, ordering */
    int fails = 0;
    for (int it = 0; it < 20000; it++) {
        char buf[80];
        int nd = 1 + (int)(rnd() % 32);
        int ex = (int)(rnd() % 250) - 130;
        if (ex + 1 > 125) ex = 124;
        random_text(buf, nd, ex, (int)(rnd() & 1));
        int rc = from(&d, buf);
        if (rc == IX_ERANGE) continue;
        if (rc != IX_OK) {
            fails++;
            continue;
        }
        /* text round trip */
        const char *t = text_of(&d, -1);
        if (from(&e, t) != IX_OK || ixt_dec_cmp(&d, &e) != 0) fails++;
        /* bytes round trip, DECIMAL(32) */
        ixb_wbuf_reset(&wb);
        if (ixt_dec_encode(&d, 32, 0xff, &wb) != IX_OK ||
            decode_copy(&e, wb.data, wb.len) != IX_OK || ixt_dec_cmp(&d, &e) != 0)
            fails++;
        /* bind round trip */
        ixb_wbuf_reset(&wb);
        size_t used;
        if (ixt_dec_encode_bind(&d, &wb) != IX_OK ||
            ixt_dec_decode_bind(&e, wb.data, wb.len, &used) != IX_OK || ixt_dec_cmp(&d, &e) != 0)
            fails++;
        /* fixed scale: a value with <= p-s integer and <= s fraction digits */
        int p = 1 + (int)(rnd() % 32), s = (int)(rnd() % (p + 1));
        char fb[80];
        int k = 0, intd = p - s ? (int)(rnd() % (p - s + 1)) : 0;
        if (rnd() & 1) fb[k++] = '-';
        fb[k++] = '0';
        for (int i = 0; i < intd; i++)
            fb[k++] = (char)('0' + rnd() % 10);
        fb[k++] = '.';
        for (int i = 0; i < s; i++)
            fb[k++] = (char)('0' + rnd() % 10);
        fb[k] = 0;
        ixt_decimal f1, f2;
        ixb_wbuf_reset(&wb);
        if (from(&f1, fb) != IX_OK || ixt_dec_encode(&f1, p, s, &wb) != IX_OK ||
            wb.len != ixt_dec_width(p, s) || decode_copy(&f2, wb.data, wb.len) != IX_OK ||
            ixt_dec_cmp(&f1, &f2) != 0) {
            if (fails < 5) printf("# fixed (%d,%d) %s failed\n", p, s, fb);
            fails++;
        }
        /* fixed-scale text has exactly s fraction digits and parses back */
        const char *ft = text_of(&f2, s);
        const char *dot = strchr(ft, '.');
        if ((s == 0 && dot) || (s > 0 && (!dot || (int)strlen(dot + 1) != s))) fails++;
        if (from(&e, ft) != IX_OK || ixt_dec_cmp(&e, &f1) != 0) fails++;
        /* ordering agrees with double ordering when doubles differ clearly */
        double a, b;
        ixt_dec_to_double(&d, &a);
        ixt_dec_to_double(&f1, &b);
        int c = ixt_dec_cmp(&d, &f1);
        if ((a < b * (1 - 1e-9) && b > 0 && c >= 0) || (c != -ixt_dec_cmp(&f1, &d))) fails++;
    }
    CHECK(fails == 0, "20000 random decimals: %d failures", fails);

    /* exponent limits and 32-digit values, both alignments */
    const char *edges[] = {"1e-130",
                           "-1e-130",
                           "9.9999999999999999999999999999999e125",
                           "-9.9999999999999999999999999999999e125",
                           "12345678901234567890123456789012",
                           "1.2345678901234567890123456789012",
                           "0.12345678901234567890123456789012",
                           "1.2345678901234567890123456789012e-98",
                           "99999999999999999999999999999999",
                           "-0.00000000000000000000000000000001"};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        ixb_wbuf_reset(&wb);
        int rc = from(&d, edges[i]);
        if (rc == IX_OK) rc = ixt_dec_encode(&d, 32, 0xff, &wb);
        if (rc == IX_OK) rc = decode_copy(&e, wb.data, wb.len);
        CHECK(rc == IX_OK && ixt_dec_cmp(&d, &e) == 0 && wb.len == 18, "edge %s round trip (rc %d)",
              edges[i], rc);
    }

    arith_cases();
    ixb_wbuf_free(&wb);
    to_double_cases();
    return tap_done();
}
