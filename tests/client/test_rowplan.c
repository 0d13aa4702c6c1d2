/* test_rowplan.c: the row plan (src/client/ix_rowplan.c) for every row of
 * tests/vectors/values.tsv: alone and between other columns (offsets, NULL
 * tests against the codec's own ixt_value_is_null), truncated and with a
 * trailing byte; the NULL form of every type (BYTE/TEXT in both descriptor
 * sizes); rows whose VARCHAR length runs past the end, bad envelopes, and
 * types without a known layout. */
#include <stdlib.h>
#include <string.h>

#include "client/ix_rowplan.h"
#include "tap.h"
#include "tsv.h"
#include "types/ix_datetime.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

static int unhex(const char *h, uint8_t *out, size_t cap, size_t *n) {
    size_t len = strlen(h);
    if (len % 2 || len / 2 > cap) return -1;
    for (size_t i = 0; i < len; i++) {
        char c = h[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0) return -1;
        if (i % 2 == 0)
            out[i / 2] = (uint8_t)(v << 4);
        else
            out[i / 2] |= (uint8_t)v;
    }
    *n = len / 2;
    return 0;
}

static const ixt_vtype T_INT = {IX_T_INTEGER, 4}, T_VC10 = {IX_T_VARCHAR, 10},
                       T_SMALL = {IX_T_SMALLINT, 2};

/* ixc_rowplan_take into a record of its own: the verdict on t[0..n). */
static int check_row(const ixc_rowplan *p, const uint8_t *t, size_t n, int *col) {
    uint8_t *rec = malloc(ixc_rowplan_rec_size(p, n));
    int rc = rec ? ixc_rowplan_take(p, t, n, rec, col) : IX_ENOMEM;
    free(rec);
    return rc;
}

/* Stores t[0..n) as a record of p and checks that every column's value read
 * from it (ixc_rowplan_value) is the tuple's bytes wire[i] .. wire[i + 1],
 * with a NUL after each variable value, and that the record's length is the
 * one reserved for it. Returns the NULL columns as a bit mask (-1 when the
 * tuple is refused). */
static int check_record(int ln, const ixc_rowplan *p, const uint8_t *t, size_t n,
                        const size_t *wire) {
    size_t need = ixc_rowplan_rec_size(p, n);
    uint8_t *rec = malloc(need);
    int col = -1, nulls = 0;
    if (!rec || ixc_rowplan_take(p, t, n, rec, &col) != IX_OK) {
        CHECK(0, "line %d: the tuple is stored (column %d)", ln, col);
        free(rec);
        return -1;
    }
    CHECK(ixc_rowplan_rec_len(p, rec) == need && need % 4 == 0,
          "line %d: record of %zu bytes walks as %zu", ln, need, ixc_rowplan_rec_len(p, rec));
    for (int i = 0; i < p->ncols; i++) {
        size_t vn;
        const uint8_t *v = ixc_rowplan_value(p, rec, i, &vn);
        CHECK(vn == wire[i + 1] - wire[i] && memcmp(v, t + wire[i], vn) == 0,
              "line %d: column %d: %zu bytes as they came (want %zu)", ln, i, vn,
              wire[i + 1] - wire[i]);
        if (p->col[i].layout != RP_FIXED)
            CHECK(v[vn] == 0, "line %d: column %d: a NUL after the value", ln, i);
        nulls |= ixc_rowplan_is_null(&p->col[i], v, vn) << i;
    }
    free(rec);
    return nulls;
}

/* The value alone, then as columns 1 and 3 of (INT, X, VARCHAR(10), X,
 * SMALLINT): accepted, at the right offsets, NULL as the codec says. */
static void check_value(int ln, ixt_vtype t, const uint8_t *b, size_t n, int want_null) {
    ixc_rowplan p;
    int col = -1;
    CHECK(ixc_rowplan_build(&p, &t, 1, 0) == IX_OK, "line %d: plan", ln);
    CHECK(check_row(&p, b, n, &col) == IX_OK, "line %d: one value is one row", ln);
    size_t one[2] = {0, n};
    check_record(ln, &p, b, n, one);
    CHECK(ixc_rowplan_is_null(&p.col[0], b, n) == want_null &&
              ixt_value_is_null(t, b, n) == want_null,
          "line %d: NULL test %d", ln, want_null);
    if (n > 0)
        CHECK(check_row(&p, b, n - 1, &col) == IX_NEED_MORE && col == 0,
              "line %d: one byte short is refused in column 0 (%d)", ln, col);
    uint8_t longer[80];
    memcpy(longer, b, n);
    longer[n] = 0;
    CHECK(check_row(&p, longer, n + 1, &col) == IX_ELIMIT && col == 1,
          "line %d: a trailing byte is refused", ln);
    ixc_rowplan_free(&p);

    ixt_vtype five[5] = {T_INT, t, T_VC10, t, T_SMALL};
    CHECK(ixc_rowplan_build(&p, five, 5, 0) == IX_OK, "line %d: plan of five", ln);
    uint8_t row[200];
    size_t k = 0;
    memcpy(row + k, "\0\0\0\x07", 4), k += 4;
    memcpy(row + k, b, n), k += n;
    memcpy(row + k,
           "\x03"
           "abc",
           4),
        k += 4;
    memcpy(row + k, b, n), k += n;
    memcpy(row + k, "\x80\x00", 2), k += 2; /* SMALLINT NULL */
    CHECK(check_row(&p, row, k, &col) == IX_OK, "line %d: five columns", ln);
    size_t wire[6] = {0, 4, 4 + n, 8 + n, 8 + 2 * n, k};
    int nulls = check_record(ln, &p, row, k, wire);
    int want = (want_null ? 0x0a : 0) | 0x10;
    CHECK(nulls == want, "line %d: NULL columns %#x (want %#x)", ln, nulls, want);
    for (size_t cut = 1; cut <= k; cut++) {
        int rc = check_row(&p, row, k - cut, &col);
        if (rc != IX_NEED_MORE) {
            CHECK(0, "line %d: %zu bytes short accepted (%d)", ln, cut, rc);
            break;
        }
    }
    ixc_rowplan_free(&p);
}

static void test_values(void) {
    tsv_file f;
    char path[600];
    snprintf(path, sizeof path, "%s/values.tsv", IXDB_VECTORS_DIR);
    if (tsv_load(&f, path) != 0) {
        CHECK(0, "cannot read %s", path);
        return;
    }
    int c_code = tsv_colidx(&f, "type_code"), c_len = tsv_colidx(&f, "encoded_length"),
        c_qual = tsv_colidx(&f, "qualifier_or_precision_scale"), c_null = tsv_colidx(&f, "is_null"),
        c_hex = tsv_colidx(&f, "hex");
    CHECK(c_code >= 0 && c_len >= 0 && c_qual >= 0 && c_null >= 0 && c_hex >= 0,
          "values.tsv columns");
    int done = 0;
    for (int r = 0; r < f.nrows; r++) {
        tsv_row *row = &f.rows[r];
        if (row->ncols <= c_hex) continue;
        uint8_t b[80];
        size_t n = 0;
        const char *qual = row->col[c_qual];
        ixt_vtype t = {
            ixt_vtype_resolve(atoi(row->col[c_code]), strstr(qual, "lvarchar")  ? "lvarchar"
                                                      : strstr(qual, "boolean") ? "boolean"
                                                                                : NULL),
            (uint32_t)strtoul(row->col[c_len], NULL, 0)};
        if (unhex(row->col[c_hex], b, sizeof b, &n) != 0) {
            CHECK(0, "line %d: hex", row->line);
            continue;
        }
        check_value(row->line, t, b, n, strcmp(row->col[c_null], "yes") == 0);
        done++;
    }
    CHECK(done == f.nrows, "every values.tsv row checked (%d of %d)", done, f.nrows);
}

/* The NULL form of every type with a known layout. */
static void test_nulls(void) {
    ixt_vtype types[] = {
        {IX_T_CHAR, 5},          {IX_T_NCHAR, 3},      {IX_T_SMALLINT, 2},
        {IX_T_INTEGER, 4},       {IX_T_SERIAL, 4},     {IX_T_DATE, 4},
        {IX_T_FLOAT, 8},         {IX_T_SMALLFLOAT, 4}, {IX_T_BIGINT, 8},
        {IX_T_BIGSERIAL, 8},     {IX_T_INT8, 10},      {IX_T_SERIAL8, 10},
        {IX_T_DECIMAL, 0x0a02},  {IX_T_MONEY, 0x1002}, {IX_T_DATETIME, 0x0a0a},
        {IX_T_INTERVAL, 0x0a0a}, {IX_T_VARCHAR, 20},   {IX_T_NVARCHAR, 20},
        {IX_T_LVARCHAR, 200},    {IX_T_BOOLEAN, 1},    {IX_T_BYTE, 56},
        {IX_T_TEXT, 56},
    };
    int n = (int)(sizeof types / sizeof types[0]);
    types[14].enclen = ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND);
    types[15].enclen = ixt_iv_qual(5, IXT_TU_DAY, IXT_TU_SECOND);
    for (int f70 = 0; f70 < 2; f70++) {
        ixb_wbuf row;
        ixb_wbuf_init(&row, NULL);
        size_t at[33];
        for (int i = 0; i < n; i++) {
            at[i] = row.len;
            CHECK(ixt_value_put_null_ex(types[i], f70 ? IXT_VF_F70 : 0, &row) == IX_OK,
                  "NULL form of type %d", types[i].code);
        }
        at[n] = row.len;
        ixc_rowplan p;
        int col = -1;
        CHECK(ixc_rowplan_build(&p, types, n, f70) == IX_OK, "plan of every type (f70 %d)", f70);
        CHECK(check_row(&p, row.data, row.len, &col) == IX_OK,
              "a row of NULLs is one row (f70 %d, col %d)", f70, col);
        int nulls = check_record(f70, &p, row.data, row.len, at);
        CHECK(nulls == (1 << n) - 1, "f70 %d: every column NULL (%#x)", f70, nulls);
        ixc_rowplan_free(&p);
        ixb_wbuf_free(&row);
    }
}

static void test_bad_rows(void) {
    ixt_vtype two[2] = {T_INT, T_VC10};
    ixc_rowplan p;
    int col = -1;
    ixc_rowplan_build(&p, two, 2, 0);
    const uint8_t past[] = {0, 0, 0, 1, 50, 'a', 'b', 'c'};
    CHECK(check_row(&p, past, sizeof past, &col) == IX_NEED_MORE && col == 1,
          "a VARCHAR length past the end of the row (column %d)", col);
    CHECK(check_row(&p, past, 2, &col) == IX_NEED_MORE && col == 0, "a row ending inside the INT");
    CHECK(check_row(&p, past, 4, &col) == IX_NEED_MORE && col == 1,
          "a row ending before the VARCHAR length");
    ixc_rowplan_free(&p);

    ixt_vtype lv[2] = {{IX_T_LVARCHAR, 100}, T_INT};
    ixc_rowplan_build(&p, lv, 2, 0);
    const uint8_t flag2[] = {2, 0, 0, 0, 1, 'x', 0, 0, 0, 1};
    CHECK(check_row(&p, flag2, sizeof flag2, &col) == IX_EMALFORMED && col == 0,
          "an envelope flag 2 is refused");
    const uint8_t neg[] = {0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1};
    CHECK(check_row(&p, neg, sizeof neg, &col) == IX_EMALFORMED && col == 0,
          "a negative envelope length is refused");
    const uint8_t huge[] = {0, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1};
    CHECK(check_row(&p, huge, sizeof huge, &col) == IX_NEED_MORE && col == 0,
          "an envelope length past the end is refused");
    const uint8_t good[] = {0, 0, 0, 0, 1, 'x', 0, 0, 0, 1};
    CHECK(check_row(&p, good, sizeof good, &col) == IX_OK, "a good LVARCHAR row");
    ixc_rowplan_free(&p);

    ixt_vtype set[2] = {T_INT, {IX_T_SET, 0}};
    ixc_rowplan_build(&p, set, 2, 0);
    CHECK(p.bad == 1 && check_row(&p, past, sizeof past, &col) == IX_EINVAL && col == 1,
          "a SET column has no known layout");
    ixc_rowplan_free(&p);

    ixc_rowplan_build(&p, NULL, 0, 0);
    CHECK(check_row(&p, past, 0, &col) == IX_OK && check_row(&p, past, 1, &col) == IX_ELIMIT,
          "no columns: only the empty row");
    ixc_rowplan_free(&p);
}

int main(void) {
    test_values();
    test_nulls();
    test_bad_rows();
    return tap_done();
}
