/* test_values_tsv.c: every row of tests/vectors/values.tsv. For each row:
 * decode the hex with (type_code, encoded_length), check NULL-ness and the
 * value against sql_literal_or_value, then encode the expected value and
 * check the bytes and the width. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tsv.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int unhex(const char *h, uint8_t *out, size_t cap, size_t *n) {
    size_t len = strlen(h);
    if (len % 2 || len / 2 > cap) return -1;
    for (size_t i = 0; i < len / 2; i++) {
        int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);
        if (a < 0 || b < 0) return -1;
        out[i] = (uint8_t)(a << 4 | b);
    }
    *n = len / 2;
    return 0;
}

/* The expected value extracted from sql_literal_or_value. */
typedef struct lit {
    int ok;      /* the literal form was recognised */
    int is_null; /* CAST(NULL AS ...) */
    int neg;     /* -INTERVAL(...) */
    char text[256];
} lit;

static void set_text(lit *l, const char *s, size_t n) {
    if (n >= sizeof l->text) n = sizeof l->text - 1;
    memcpy(l->text, s, n);
    l->text[n] = 0;
    l->ok = 1;
}

/* Index of the ')' closing the '(' at s[open], skipping quoted text. */
static size_t close_paren(const char *s, size_t open) {
    int depth = 0, q = 0;
    for (size_t i = open; s[i]; i++) {
        if (s[i] == '\'') q = !q;
        if (q) continue;
        if (s[i] == '(') depth++;
        if (s[i] == ')' && --depth == 0) return i;
    }
    return 0;
}

/* X of a CAST operand: number, 'quoted', NULL or DATETIME(x) Q. */
static void operand(lit *l, const char *x, size_t n) {
    while (n && x[n - 1] == ' ')
        n--;
    if (n == 4 && memcmp(x, "NULL", 4) == 0) {
        l->is_null = 1;
        l->ok = 1;
    } else if (n >= 2 && x[0] == '\'' && x[n - 1] == '\'') {
        set_text(l, x + 1, n - 2);
    } else if (strncmp(x, "DATETIME(", 9) == 0) {
        size_t c = close_paren(x, 8);
        set_text(l, x + 9, c - 9);
    } else {
        set_text(l, x, n);
    }
}

static lit parse_literal(const char *s) {
    lit l;
    memset(&l, 0, sizeof l);
    int m, d, y;
    const char *v;
    if (strncmp(s, "CAST(", 5) == 0) {
        size_t c = close_paren(s, 4);
        const char *as = NULL;
        for (const char *p = s + 5; p + 4 <= s + c; p++)
            if (memcmp(p, " AS ", 4) == 0) as = p; /* last one at top level */
        if (c && as) operand(&l, s + 5, (size_t)(as - (s + 5)));
    } else if (sscanf(s, "MDY(%d,%d,%d)", &m, &d, &y) == 3) {
        char b[32];
        snprintf(b, sizeof b, "%04d-%02d-%02d", y, m, d);
        set_text(&l, b, strlen(b));
    } else if (strncmp(s, "DATETIME(", 9) == 0 || strncmp(s, "INTERVAL(", 9) == 0 ||
               strncmp(s, "-INTERVAL(", 10) == 0) {
        l.neg = s[0] == '-';
        size_t open = l.neg ? 9 : 8;
        size_t c = close_paren(s, open);
        if (c) set_text(&l, s + open + 1, c - open - 1);
    } else if ((v = strstr(s, " value ")) != NULL) {
        set_text(&l, v + 7, strlen(v + 7));
    } else if (strncmp(s, "'t'::BOOLEAN", 12) == 0 || strncmp(s, "'f'::BOOLEAN", 12) == 0) {
        set_text(&l, s + 1, 1);
    } else if (strncmp(s, "literal ", 8) == 0) {
        const char *e = strchr(s + 8, ' ');
        set_text(&l, s + 8, e ? (size_t)(e - (s + 8)) : strlen(s + 8));
    }
    return l;
}

static int bytes_eq(const ixb_wbuf *b, const uint8_t *p, size_t n) {
    return b->err == IX_OK && b->len == n && memcmp(b->data, p, n) == 0;
}

/* Semantic comparison and re-encoding of one non-NULL row. Returns 1 if the
 * decoded value equals the literal; *enc gets the encoding of the literal. */
static int check_value(ixt_vtype t, const uint8_t *b, size_t n, const lit *l, ixb_wbuf *enc) {
    const char *x = l->text;
    size_t xn = strlen(x);
    switch (t.code) {
    case IX_T_DATE: {
        int64_t got;
        int32_t want;
        if (ixt_value_get_int(t, b, n, &got) != IX_OK) return 0;
        if (ixt_date_parse(x, xn, "Y4MD-", &want) != IX_OK) return 0;
        if (ixt_value_put_int(t, want, enc) != IX_OK) return 0;
        return got == want;
    }
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal got, want;
        if (ixt_dec_decode(&got, b, n) != IX_OK) return 0;
        if (ixt_dec_from_text(&want, x, xn) != IX_OK) return 0;
        if (ixt_dec_encode(&want, (int)(t.enclen >> 8), (int)(t.enclen & 0xff), enc) != IX_OK)
            return 0;
        return ixt_dec_cmp(&got, &want) == 0;
    }
    case IX_T_DATETIME: {
        ixt_datetime got, want;
        if (ixt_dt_decode(t.enclen, b, n, &got) != IX_OK) return 0;
        if (ixt_dt_parse(t.enclen, x, xn, &want) != IX_OK) return 0;
        if (ixt_dt_encode(t.enclen, &want, enc) != IX_OK) return 0;
        return memcmp(&got, &want, sizeof got) == 0;
    }
    case IX_T_INTERVAL: {
        ixt_interval got, want;
        if (ixt_iv_decode(t.enclen, b, n, &got) != IX_OK) return 0;
        if (ixt_iv_parse(t.enclen, x, xn, &want) != IX_OK) return 0;
        if (l->neg && (want.months || want.units)) want.sign = -want.sign;
        if (ixt_iv_encode(t.enclen, &want, enc) != IX_OK) return 0;
        return ixt_iv_cmp(&got, &want) == 0 && got.sign == want.sign && got.months == want.months &&
               got.units == want.units;
    }
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8: {
        int64_t got, want = strtoll(x, NULL, 10);
        if (ixt_value_get_int(t, b, n, &got) != IX_OK) return 0;
        if (ixt_value_put_int(t, want, enc) != IX_OK) return 0;
        return got == want;
    }
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: {
        double got, want = strtod(x, NULL);
        if (ixt_value_get_double(t, b, n, &got) != IX_OK) return 0;
        if (ixt_value_put_double(t, want, enc) != IX_OK) return 0;
        return got == want;
    }
    case IX_T_CHAR:
    case IX_T_VARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *d;
        size_t len;
        if (ixt_value_get_bytes(t, b, n, &d, &len) != IX_OK) return 0;
        if (ixt_value_parse(t, x, xn, NULL, enc) != IX_OK) return 0;
        if (t.code == IX_T_CHAR)
            while (len > 0 && d[len - 1] == ' ')
                len--;
        return len == xn && memcmp(d, x, xn) == 0;
    }
    case IX_T_BOOLEAN: {
        int got, want = x[0] == 't';
        if (ixt_value_get_bool(t, b, n, &got) != IX_OK) return 0;
        if (ixt_value_put_bool(t, want, enc) != IX_OK) return 0;
        return got == want;
    }
    default: return 0;
    }
}

int main(void) {
    tsv_file f;
    const char *path = IXDB_VECTORS_DIR "/values.tsv";
    if (tsv_load(&f, path) != 0) {
        printf("Bail out! cannot read %s\n", path);
        CHECK(0, "values.tsv missing at %s", path);
        return tap_done();
    }
    int c_type = tsv_colidx(&f, "type"), c_code = tsv_colidx(&f, "type_code"),
        c_len = tsv_colidx(&f, "encoded_length"),
        c_qual = tsv_colidx(&f, "qualifier_or_precision_scale"),
        c_lit = tsv_colidx(&f, "sql_literal_or_value"), c_null = tsv_colidx(&f, "is_null"),
        c_hex = tsv_colidx(&f, "hex"), c_width = tsv_colidx(&f, "width");
    CHECK(c_type >= 0 && c_code >= 0 && c_len >= 0 && c_qual >= 0 && c_lit >= 0 && c_null >= 0 &&
              c_hex >= 0 && c_width >= 0,
          "values.tsv header has the expected columns");
    CHECK(f.nrows == 78, "values.tsv has 78 rows (got %d)", f.nrows);
    int maxc = c_width;
    ixb_wbuf enc, txt, back;
    ixb_wbuf_init(&enc, NULL);
    ixb_wbuf_init(&txt, NULL);
    ixb_wbuf_init(&back, NULL);
    for (int r = 0; r < f.nrows; r++) {
        tsv_row *row = &f.rows[r];
        int ln = row->line;
        if (row->ncols <= maxc) {
            CHECK(0, "line %d: too few columns", ln);
            continue;
        }
        uint8_t b[64];
        size_t n = 0;
        int code = atoi(row->col[c_code]);
        uint32_t enclen = (uint32_t)strtoul(row->col[c_len], NULL, 0);
        const char *qual = row->col[c_qual];
        ixt_vtype t = {ixt_vtype_resolve(code, strstr(qual, "lvarchar")  ? "lvarchar"
                                               : strstr(qual, "boolean") ? "boolean"
                                                                         : NULL),
                       enclen};
        int want_null = strcmp(row->col[c_null], "yes") == 0;
        lit l = parse_literal(row->col[c_lit]);
        int hex_ok = unhex(row->col[c_hex], b, sizeof b, &n) == 0;
        CHECK(hex_ok && l.ok, "line %d: hex and literal parse (%s)", ln, row->col[c_lit]);
        if (!hex_ok || !l.ok) continue;
        CHECK(ixt_type_from_name(row->col[c_type]) == t.code, "line %d: type name %s -> %d", ln,
              row->col[c_type], t.code);
        CHECK((size_t)atoi(row->col[c_width]) == n, "line %d: width column %s == %zu bytes", ln,
              row->col[c_width], n);
        size_t fw = ixt_value_fixed_width(t), used = 0;
        CHECK(fw == 0 || fw == n, "line %d: fixed width %zu == %zu", ln, fw, n);
        CHECK(ixt_value_extent(t, b, n, 0, 0, &used) == IX_OK && used == n,
              "line %d: extent %zu == %zu", ln, used, n);
        if (n > 0)
            CHECK(ixt_value_extent(t, b, n - 1, 0, 0, &used) == IX_NEED_MORE,
                  "line %d: truncated extent gives NEED_MORE", ln);
        int z = ixt_value_is_null(t, b, n);
        CHECK(z == want_null && l.is_null == want_null,
              "line %d: is_null %d, column %d, literal %d", ln, z, want_null, l.is_null);
        ixb_wbuf_reset(&enc);
        ixb_wbuf_reset(&txt);
        ixb_wbuf_reset(&back);
        if (want_null) {
            CHECK(ixt_value_put_null(t, &enc) == IX_OK && bytes_eq(&enc, b, n),
                  "line %d: NULL form encodes to the row's hex", ln);
            CHECK(ixt_value_format(t, b, n, NULL, &txt) == IX_NULL_VALUE && txt.len == 0,
                  "line %d: format gives IX_NULL_VALUE", ln);
            continue;
        }
        int same = check_value(t, b, n, &l, &enc);
        CHECK(same, "line %d: decoded value equals literal '%s'", ln, l.text);
        CHECK(bytes_eq(&enc, b, n), "line %d: encoding '%s' gives the row's hex %s", ln, l.text,
              row->col[c_hex]);
        int rc = ixt_value_format(t, b, n, NULL, &txt);
        CHECK(rc == IX_OK, "line %d: format rc %d", ln, rc);
        rc = ixt_value_parse(t, (const char *)txt.data, txt.len, NULL, &back);
        CHECK(rc == IX_OK && bytes_eq(&back, b, n), "line %d: text '%.*s' parses back (rc %d)", ln,
              (int)txt.len, txt.data ? (const char *)txt.data : "", rc);
    }
    ixb_wbuf_free(&enc);
    ixb_wbuf_free(&txt);
    ixb_wbuf_free(&back);
    tsv_free(&f);
    return tap_done();
}
