/*
 * test_accessors_fast.c: the accessors' in-place reads against the general
 * path, on rows fetched from a real ixd. For every column of every row of a
 * table of the common types (edge values and NULLs included), the answer of
 * ix_column_is_null, ix_column_text, ix_column_text_len, ix_column_int64,
 * ix_column_double and ix_column_date_ymd is compared with what the codec's
 * general functions make of the same value bytes (ix_column_raw): the NULL
 * test of ixt_value_is_null, the text of ixt_value_format, the characters of
 * ixt_value_get_bytes (ix_column_blob), numbers read back
 * from that text (strtoll, strtod: a DECIMAL's double is the nearest one) and
 * a DATE's y/m/d from its MDY4/ text.
 *
 * Then the bulk reads: ix_row_store of every column into every destination
 * kind (and a text place too small) against the same accessors, whether it
 * takes the value or leaves it; and ix_step_store over the whole table
 * (more destinations than it keeps on the stack, a rowset larger than the
 * result) against the rows ix_row_store gave, with each value left reported
 * to the callback once.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"
#include "types/ix_value.h"

static ixd_proc P;

static const char *const CREATE =
    "create table acc (i integer, si smallint, i8 int8, bi bigint, f float, sf smallfloat, "
    "d decimal(10,2), m money(8,2), df decimal(16), c char(10), vc varchar(64), "
    "nv nvarchar(20), lv lvarchar(100), dt date, dtm datetime year to second, b boolean, "
    "iv interval day to second)";

static const char *const ROWS[] = {
    "insert into acc values (1, 1, 1, 1, 1.5, 1.5, 1.25, 2.50, 1.5, 'a', 'abc', 'n', 'lv', "
    "'06/20/2026', datetime(2026-06-20 12:34:56) year to second, 't', "
    "interval(1 02:03:04) day to second)",
    "insert into acc values (-2147483647, -32767, -9223372036854775807, "
    "-9223372036854775807, -1e300, -3.4e38, -99999999.99, -123456.78, 1.23456789012345e40, "
    "'          ', '', '', '', '12/31/1899', datetime(0001-01-01 00:00:00) year to second, 'f', "
    "interval(-99 23:59:59) day to second)",
    "insert into acc values (2147483647, 32767, 9223372036854775807, 9223372036854775807, "
    "2.2250738585072014e-308, 1e-30, 0.01, 0, 0.1, 'full char!', "
    "'x234567890123456789012345678901234567890123456789012345678901234', "
    "'nnnnnnnnnnnnnnnnnnnn', 'a lvarchar value with spaces  ', '01/01/0001', "
    "datetime(9999-12-31 23:59:59) year to second, 't', interval(0 00:00:00) day to second)",
    "insert into acc values (0, 0, 0, 0, 0, 0, 0, 0, 0, ' x', ' ', ' ', ' ', '12/31/9999', "
    "datetime(1970-01-01 00:00:01) year to second, 'f', interval(5 00:00:01) day to second)",
    "insert into acc values (null, null, null, null, null, null, null, null, null, null, null, "
    "null, null, null, null, null, null)",
};

static int is_int_type(int code) {
    return code == IX_T_INTEGER || code == IX_T_SMALLINT || code == IX_T_INT8 ||
           code == IX_T_BIGINT;
}

static int is_num_type(int code) {
    return is_int_type(code) || code == IX_T_FLOAT || code == IX_T_SMALLFLOAT ||
           code == IX_T_DECIMAL || code == IX_T_MONEY;
}

/* The number in a MONEY text ("$2.50", "-$123456.78") or another number's. */
static const char *number_text(const char *t, char *buf, size_t cap) {
    size_t k = 0;
    for (; *t && k + 1 < cap; t++)
        if (*t != '$' && *t != ',') buf[k++] = *t;
    buf[k] = 0;
    return buf;
}

/* Compares the accessors on column i of the current row with the general
 * path; returns the number of differences, the first described in why. */
static int check_column(ix_stmt *s, int i, char *why, size_t cap) {
    ixt_vtype vt = {ix_column_type(s, i), (uint32_t)ix_column_enclen(s, i)};
    const uint8_t *p = ix_column_raw(s, i);
    size_t n = ix_column_bytes(s, i);
    int null = ixt_value_is_null(vt, p, n) == 1;
    if (ix_column_is_null(s, i) != null)
        return snprintf(why, cap, "column %d: is_null %d, general %d", i, !null, null), 1;
    const char *t = ix_column_text(s, i);
    if (null) {
        if (t || ix_column_text_len(s, i) != 0)
            return snprintf(why, cap, "column %d: NULL has a text", i), 1;
        return 0;
    }
    ixb_wbuf ref;
    ixb_wbuf_init(&ref, NULL);
    ixt_fmt fmt = {NULL, NULL};
    int bad = 0;
    if (ixt_value_format(vt, p, n, &fmt, &ref) != IX_OK || !t) {
        snprintf(why, cap, "column %d: no text (%s)", i, t ? "general failed" : "accessor failed");
        bad = 1;
    }
    ixb_put_u8(&ref, 0);
    const char *r = (const char *)ref.data;
    if (!bad && (strcmp(t, r) != 0 || ix_column_text_len(s, i) != strlen(r))) {
        snprintf(why, cap, "column %d: text '%s' (%zu), general '%s'", i, t,
                 ix_column_text_len(s, i), r);
        bad = 1;
    }
    const uint8_t *gb = NULL, *fb;
    size_t gn = 0, fn = 0;
    int chars = ixt_value_get_bytes(vt, p, n, &gb, &gn) == IX_OK;
    fb = ix_column_blob(s, i, &fn);
    if (!bad && chars != (fb != NULL)) {
        snprintf(why, cap, "column %d: blob %s, general %s", i, fb ? "read" : "refused",
                 chars ? "reads" : "refuses");
        bad = 1;
    }
    if (!bad && chars && (fn != gn || memcmp(fb, gb, gn) != 0)) {
        snprintf(why, cap, "column %d: blob of %zu bytes, general %zu", i, fn, gn);
        bad = 1;
    }
    char num[80];
    if (!bad && is_int_type(vt.code) &&
        ix_column_int64(s, i) != strtoll(number_text(r, num, sizeof num), NULL, 10)) {
        snprintf(why, cap, "column %d: int64 %lld, text %s", i, (long long)ix_column_int64(s, i),
                 r);
        bad = 1;
    }
    if (!bad && is_num_type(vt.code) && vt.code != IX_T_FLOAT && vt.code != IX_T_SMALLFLOAT &&
        ix_column_double(s, i) != strtod(number_text(r, num, sizeof num), NULL)) {
        snprintf(why, cap, "column %d: double %.17g, text %s", i, ix_column_double(s, i), r);
        bad = 1;
    }
    double dv;
    if (!bad && (vt.code == IX_T_FLOAT || vt.code == IX_T_SMALLFLOAT) &&
        (ixt_value_get_double(vt, p, n, &dv) != IX_OK || ix_column_double(s, i) != dv)) {
        snprintf(why, cap, "column %d: double %.17g, general %.17g", i, ix_column_double(s, i), dv);
        bad = 1;
    }
    int y, m, d, ry, rm, rd;
    if (!bad && vt.code == IX_T_DATE &&
        (ix_column_date_ymd(s, i, &y, &m, &d) != IX_OK ||
         sscanf(r, "%d/%d/%d", &rm, &rd, &ry) != 3 || y != ry || m != rm || d != rd)) {
        snprintf(why, cap, "column %d: date %d-%d-%d, text %s", i, y, m, d, r);
        bad = 1;
    }
    ixb_wbuf_free(&ref);
    return bad;
}

/* ---- bulk reads ---- */

#define NDEST_KINDS 6 /* the five kinds, and text into too small a place */
#define NCOLS       17
#define NDEST       (NCOLS * NDEST_KINDS)
#define MAXROWS     8
#define PLACE       136 /* bytes of a destination's place in a row */

static const ix_store_kind KINDS[NDEST_KINDS] = {IX_STORE_INT32, IX_STORE_INT64, IX_STORE_DOUBLE,
                                                 IX_STORE_TEXT,  IX_STORE_TEXT,  IX_STORE_DATE16};
static const size_t CAPS[NDEST_KINDS] = {0, 0, 0, 128, 3, 0};

static int is_char_type(int code) {
    return code == IX_T_CHAR || code == IX_T_NCHAR || code == IX_T_VARCHAR ||
           code == IX_T_NVARCHAR || code == IX_T_LVARCHAR;
}

/* Whether kind k takes column i's value of the current row as it is. */
static int takes(ix_stmt *s, int i, int k) {
    int code = ix_column_type(s, i), null = ix_column_is_null(s, i);
    int64_t v = ix_column_int64(s, i);
    switch (KINDS[k]) {
    case IX_STORE_INT32: return is_int_type(code) && (null || (v >= INT32_MIN && v <= INT32_MAX));
    case IX_STORE_INT64: return is_int_type(code);
    case IX_STORE_DOUBLE: return code == IX_T_FLOAT || code == IX_T_SMALLFLOAT;
    case IX_STORE_TEXT: return is_char_type(code) && (null || ix_column_text_len(s, i) < CAPS[k]);
    default: return code == IX_T_DATE;
    }
}

/* A stored value against the accessors: 0 when they agree. */
static int stored_differs(ix_stmt *s, int i, int k, const char *buf, int64_t len) {
    if (ix_column_is_null(s, i)) return len != IX_STORE_NULL;
    int64_t v;
    double f;
    int y, m, d;
    switch (KINDS[k]) {
    case IX_STORE_INT32: {
        int32_t w;
        memcpy(&w, buf, sizeof w);
        return len != 4 || ix_column_get_int64(s, i, &v) != IX_OK || v != w;
    }
    case IX_STORE_INT64: {
        int64_t w;
        memcpy(&w, buf, sizeof w);
        return len != 8 || ix_column_get_int64(s, i, &v) != IX_OK || v != w;
    }
    case IX_STORE_DOUBLE: memcpy(&f, buf, sizeof f); return len != 8 || ix_column_double(s, i) != f;
    case IX_STORE_TEXT:
        return len != (int64_t)ix_column_text_len(s, i) || strcmp(buf, ix_column_text(s, i)) != 0;
    default: {
        uint16_t w[3];
        memcpy(w, buf, sizeof w);
        return len != 6 || ix_column_date_ymd(s, i, &y, &m, &d) != IX_OK || w[0] != y ||
               w[1] != m || w[2] != d;
    }
    }
}

static char bulk_buf[NDEST][MAXROWS][PLACE], one_buf[NDEST][MAXROWS][PLACE];
static int64_t bulk_len[NDEST][MAXROWS], one_len[NDEST][MAXROWS];
static int one_left[NDEST][MAXROWS], bulk_left[NDEST][MAXROWS];

static void dests(ix_store *d, char (*buf)[MAXROWS][PLACE], int64_t (*len)[MAXROWS]) {
    for (int i = 0; i < NCOLS; i++)
        for (int k = 0; k < NDEST_KINDS; k++) {
            int j = i * NDEST_KINDS + k;
            d[j] = (ix_store){i, KINDS[k], buf[j], PLACE, CAPS[k], len[j], sizeof len[j][0]};
        }
}

/* ix_row_store of each destination alone on the current row (rowset row
 * r), against the accessors; the results kept for the bulk pass. */
static int check_row_store(ix_stmt *s, const ix_store *d, int r, char *why, size_t cap) {
    int bad = 0;
    for (int j = 0; j < NDEST; j++) {
        int i = j / NDEST_KINDS, k = j % NDEST_KINDS;
        one_left[j][r] = ix_row_store(s, &d[j], 1, (size_t)r) == 0;
        if (one_left[j][r] == takes(s, i, k) && !bad++)
            snprintf(why, cap, "column %d kind %d: %s", i, k, one_left[j][r] ? "left" : "taken");
        else if (!one_left[j][r] && stored_differs(s, i, k, one_buf[j][r], one_len[j][r]) && !bad++)
            snprintf(why, cap, "column %d kind %d: stored value differs", i, k);
    }
    return bad;
}

static void note_left(void *ctx, size_t row, size_t k) {
    (void)ctx;
    if (row < MAXROWS && k < NDEST) bulk_left[k][row]++;
}

/* ix_step_store over the whole result against check_row_store's rows. */
static void check_step_store(ix_conn *c, const ix_store *d, int nrows) {
    ix_stmt *s = NULL;
    size_t got = 99;
    CHECK(ix_prepare(c, "select * from acc", IX_NTS, &s) == IX_OK, "prepare: %s", ix_errmsg(c));
    int rc = ix_step_store(s, d, NDEST, 1, MAXROWS - 1, note_left, NULL, &got);
    CHECK(rc == IX_DONE && got == (size_t)nrows, "ix_step_store: IX_DONE after every row (%d, %zu)",
          rc, got);
    int bad = 0;
    for (int j = 0; j < NDEST; j++)
        for (int r = 0; r < nrows; r++) {
            int left = bulk_left[j][r + 1];
            bad += left != one_left[j][r];
            if (!left && !one_left[j][r])
                bad += bulk_len[j][r + 1] != one_len[j][r] ||
                       (one_len[j][r] > 0 &&
                        memcmp(bulk_buf[j][r + 1], one_buf[j][r], (size_t)one_len[j][r]) != 0);
        }
    CHECK(bad == 0, "ix_step_store stores and leaves what ix_row_store does (%d differ)", bad);
    CHECK(ix_step_store(s, d, NDEST, 0, 1, NULL, NULL, &got) == IX_EMISUSE,
          "ix_step_store without a callback: IX_EMISUSE");
    ix_finalize(s);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    unsetenv("DBDATE");
    unsetenv("DBMONEY");
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    char dsn[256];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd read_timeout=30",
             P.port);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create database acc with log") == IX_OK, "create database: %s", ix_errmsg(c));
    CHECK(ix_exec(c, CREATE) == IX_OK, "create table: %s", ix_errmsg(c));
    size_t nrows = sizeof ROWS / sizeof ROWS[0];
    for (size_t k = 0; k < nrows; k++)
        CHECK(ix_exec(c, ROWS[k]) == IX_OK, "row %zu: %s", k, ix_errmsg(c));
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "select * from acc", IX_NTS, &s) == IX_OK, "prepare: %s", ix_errmsg(c));
    int rows = 0, cells = 0, bad = 0;
    char why[300] = "", first[300] = "";
    while (s && ix_step(s) == IX_ROW) {
        for (int i = 0; i < ix_column_count(s); i++, cells++)
            if (check_column(s, i, why, sizeof why) && !bad++)
                snprintf(first, sizeof first, "row %d %s", rows, why);
        rows++;
    }
    CHECK(rows == (int)nrows && cells == rows * 17, "every row read (%d rows, %d cells)", rows,
          cells);
    CHECK(bad == 0, "in-place reads as the general path (%d of %d cells differ; first: %s)", bad,
          cells, first);
    ix_finalize(s);

    static ix_store one[NDEST], bulk[NDEST];
    dests(one, one_buf, one_len);
    dests(bulk, bulk_buf, bulk_len);
    s = NULL;
    CHECK(ix_prepare(c, "select * from acc", IX_NTS, &s) == IX_OK, "prepare: %s", ix_errmsg(c));
    rows = bad = 0;
    while (s && ix_step(s) == IX_ROW && rows < MAXROWS)
        if (check_row_store(s, one, rows++, why, sizeof why) && !bad++)
            snprintf(first, sizeof first, "row %d %s", rows - 1, why);
    CHECK(rows == (int)nrows && bad == 0,
          "ix_row_store takes and leaves as the accessors say (%d rows differ; first: %s)", bad,
          first);
    CHECK(ix_row_store(s, one, NDEST, 0) == 0, "ix_row_store without a current row: 0");
    ix_finalize(s);
    check_step_store(c, bulk, rows);
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    if (!tap_fail) ixd_rmdir(&P);
    return tap_done();
}
