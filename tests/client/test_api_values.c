/*
 * test_api_values.c: the value rules of the public API against a real ixd:
 * declared types (ix_column_decltype), exact DECIMAL values
 * (ix_column_get_decimal, ix_decimal_text), ix_stmt_sql, the NULL rule
 * (every accessor on an SQL NULL of every type), the conversion table of
 * ix_column_get_int64 / _int / _double (docs/c-api.md "Conversions"), and
 * long text binds (32,767 / 32,768 / 1 MiB bytes go as TEXT, like blobs).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P;

static ix_conn *connect_db(const char *db) {
    char dsn[512];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=informix password=in4mix server=ixd "
             "read_timeout=30%s%s",
             P.port, db ? " database=" : "", db ? db : "");
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "connect: rc=%d %s", rc, ix_errmsg(c));
    return c;
}

#define EXEC_OK(c, sql)                                                                            \
    do {                                                                                           \
        int rc_ = ix_exec((c), (sql));                                                             \
        CHECK(rc_ == IX_OK, "%s: rc=%d sqlcode=%d %s", (sql), rc_, ix_sqlcode(c), ix_errmsg(c));   \
    } while (0)

/* Prepares sql and steps to its first row (NULL on failure). */
static ix_stmt *first_row(ix_conn *c, const char *sql) {
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, sql, -1, &s);
    if (rc == IX_OK) rc = ix_step(s);
    CHECK(rc == IX_ROW, "%s: rc=%d %s", sql, rc, ix_errmsg(c));
    if (rc != IX_ROW) {
        ix_finalize(s);
        return NULL;
    }
    return s;
}

/* ---- ix_column_decltype ------------------------------------------------------- */

/* (ixd describes a collection column as LVARCHAR, its text form; the names
 * of the collection codes are checked in tests/unit/test_types_decl.c.) */

static const char *const DECL_COLS =
    "create table dt (a decimal(10,2), b datetime year to fraction(3), c varchar(20),"
    " d char(5), e interval day(3) to second, f money(8,2), g lvarchar(2048), h integer,"
    " i decimal(16), j interval year to month, k datetime hour to minute, l boolean,"
    " m bigint, n date, p smallfloat, q nchar(3), r text, s byte)";
static const char *const DECL_WANT[] = {"DECIMAL(10,2)",
                                        "DATETIME YEAR TO FRACTION(3)",
                                        "VARCHAR(20)",
                                        "CHAR(5)",
                                        "INTERVAL DAY(3) TO SECOND",
                                        "MONEY(8,2)",
                                        "LVARCHAR(2048)",
                                        "INTEGER",
                                        "DECIMAL(16)",
                                        "INTERVAL YEAR TO MONTH",
                                        "DATETIME HOUR TO MINUTE",
                                        "BOOLEAN",
                                        "BIGINT",
                                        "DATE",
                                        "SMALLFLOAT",
                                        "NCHAR(3)",
                                        "TEXT",
                                        "BYTE"};
#define NDECL ((int)(sizeof DECL_WANT / sizeof DECL_WANT[0]))

static void test_decltype(ix_conn *c) {
    EXEC_OK(c, DECL_COLS);
    ix_stmt *s = NULL;
    const char *sql = "select * from dt";
    CHECK(ix_prepare(c, sql, -1, &s) == IX_OK, "prepare: %s", ix_errmsg(c));
    CHECK(ix_column_count(s) == NDECL, "columns %d", ix_column_count(s));
    for (int i = 0; i < NDECL && i < ix_column_count(s); i++) {
        const char *d = ix_column_decltype(s, i);
        CHECK(d && strcmp(d, DECL_WANT[i]) == 0, "column %d: \"%s\", want \"%s\"", i,
              d ? d : "(null)", DECL_WANT[i]);
        CHECK(d == ix_column_decltype(s, i), "column %d: the same pointer again", i);
    }
    CHECK(ix_column_decltype(s, -1) == NULL && ix_column_decltype(s, NDECL) == NULL &&
              ix_column_decltype(NULL, 0) == NULL,
          "decltype out of range");
    CHECK(ix_stmt_sql(s) && strcmp(ix_stmt_sql(s), sql) == 0, "ix_stmt_sql");
    CHECK(ix_stmt_sql(NULL) == NULL, "ix_stmt_sql(NULL)");
    ix_finalize(s);
    /* a deferred PREPARE is sent for the describe; a length-limited text */
    CHECK(ix_prepare(c, "select h, a from dt; junk", 19, &s) == IX_OK, "prepare with a length");
    CHECK(ix_stmt_sql(s) && strcmp(ix_stmt_sql(s), "select h, a from dt") == 0, "sql \"%s\"",
          ix_stmt_sql(s) ? ix_stmt_sql(s) : "(null)");
    ix_finalize(s);
    CHECK(ix_prepare(c, "select a, h from dt", -1, &s) == IX_OK, "prepare a, h");
    const char *d0 = ix_column_decltype(s, 0);
    CHECK(d0 && strcmp(d0, "DECIMAL(10,2)") == 0, "decltype before the first step");
    ix_finalize(s);
}

/* ---- exact DECIMAL --------------------------------------------------------------- */

static void check_dec(ix_stmt *s, int i, int sign, const char *digits, int scale,
                      const char *text) {
    ix_decimal_t d;
    char buf[IX_DECIMAL_TEXT_SIZE];
    int rc = ix_column_get_decimal(s, i, &d);
    CHECK(rc == IX_OK, "column %d: rc=%d", i, rc);
    CHECK(d.sign == sign && strcmp(d.digits, digits) == 0 && d.scale == scale &&
              d.ndigits == (int)strlen(digits),
          "column %d: %d \"%s\" %d (%d), want %d \"%s\" %d", i, d.sign, d.digits, d.scale,
          d.ndigits, sign, digits, scale);
    int n = ix_decimal_text(&d, buf, sizeof buf);
    CHECK(n == (int)strlen(text) && strcmp(buf, text) == 0, "column %d: text \"%s\" want \"%s\"", i,
          buf, text);
}

static void test_decimal(ix_conn *c) {
    EXEC_OK(c, "create table dc (a decimal(5,2), b decimal(5,2), c decimal(5,2), d decimal(16),"
               " e decimal(16), f money(8,2), g decimal(32,0), h decimal(16), i integer)");
    EXEC_OK(c, "insert into dc values (1.5, -123.45, 0, 0.001, 1e20, -0.05,"
               " 12345678901234567890123456789012, -2.5e-7, 7)");
    ix_stmt *s = first_row(c, "select * from dc");
    if (!s) return;
    check_dec(s, 0, 1, "150", 2, "1.50");
    check_dec(s, 1, -1, "12345", 2, "-123.45");
    check_dec(s, 2, 1, "0", 2, "0.00");
    check_dec(s, 3, 1, "1", 3, "0.001");
    check_dec(s, 4, 1, "1", -20, "100000000000000000000");
    check_dec(s, 5, -1, "5", 2, "-0.05");
    check_dec(s, 6, 1, "12345678901234567890123456789012", 0, "12345678901234567890123456789012");
    check_dec(s, 7, -1, "25", 8, "-0.00000025");
    ix_decimal_t d;
    CHECK(ix_column_get_decimal(s, 8, &d) == IX_EINVAL && d.ndigits == 0, "INTEGER: IX_EINVAL");
    CHECK(ix_column_get_decimal(s, 9, &d) == IX_EMISUSE, "index out of range");
    CHECK(ix_column_get_decimal(NULL, 0, &d) == IX_EMISUSE, "NULL stmt");
    CHECK(ix_column_get_decimal(s, 0, NULL) == IX_EMISUSE, "NULL out");
    /* ix_decimal_text: the snprintf contract and bad structs */
    CHECK(ix_column_get_decimal(s, 1, &d) == IX_OK, "again");
    char small[4] = "zzz";
    CHECK(ix_decimal_text(&d, small, sizeof small) == 7 && strcmp(small, "-12") == 0,
          "cut to fit: \"%s\"", small);
    CHECK(ix_decimal_text(&d, NULL, 0) == 7, "length only");
    ix_decimal_t bad = d;
    bad.digits[0] = 'x';
    CHECK(ix_decimal_text(&bad, small, sizeof small) == IX_EINVAL, "non-digit");
    bad = d;
    bad.sign = 0;
    CHECK(ix_decimal_text(&bad, small, sizeof small) == IX_EINVAL, "sign 0");
    bad = d;
    bad.ndigits = 4;
    CHECK(ix_decimal_text(&bad, small, sizeof small) == IX_EINVAL, "ndigits disagrees");
    CHECK(ix_decimal_text(NULL, small, sizeof small) == IX_EINVAL, "NULL d");
    ix_decimal_t big = {1, 1, -125, "9"};
    char buf[IX_DECIMAL_TEXT_SIZE];
    CHECK(ix_decimal_text(&big, buf, sizeof buf) == 126, "9E+125: 126 digits");
    ix_decimal_t tiny = {-1, 32, 161, "12345678901234567890123456789012"};
    int n = ix_decimal_text(&tiny, buf, sizeof buf);
    CHECK(n == 164 && n < IX_DECIMAL_TEXT_SIZE && strncmp(buf, "-0.000", 6) == 0,
          "the longest text fits IX_DECIMAL_TEXT_SIZE (%d)", n);
    ix_finalize(s);
}

/* ---- the NULL rule --------------------------------------------------------------- */

static void test_null_rule(ix_conn *c) {
    EXEC_OK(c, "create table nl (a integer, b smallint, c bigint, d float, e smallfloat,"
               " f decimal(10,2), g money(8,2), h char(5), i varchar(20), j lvarchar(100),"
               " k date, l datetime year to second, m interval day to second, n boolean,"
               " o text, p byte, q int8, r serial8)");
    EXEC_OK(c, "insert into nl (a, r) values (null, 0)");
    ix_stmt *s = first_row(c, "select a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q from nl");
    if (!s) return;
    int ncol = ix_column_count(s);
    CHECK(ncol == 17, "columns %d", ncol);
    for (int i = 0; i < ncol; i++) {
        const char *t = ix_column_decltype(s, i);
        size_t n = 99;
        int64_t iv = 99;
        double dv = 99;
        ix_datetime_t dt;
        ix_interval_t it;
        ix_decimal_t dd;
        int y = 9, m = 9, d = 9;
        CHECK(ix_column_is_null(s, i) == 1, "%s: is_null", t);
        CHECK(ix_column_text(s, i) == NULL && ix_column_text_len(s, i) == 0, "%s: text", t);
        CHECK(ix_column_blob(s, i, &n) == NULL && n == 0, "%s: blob", t);
        CHECK(ix_column_int64(s, i) == 0 && ix_column_int(s, i) == 0 && ix_column_double(s, i) == 0,
              "%s: int64 / int / double give 0", t);
        CHECK(ix_column_get_int64(s, i, &iv) == IX_NULL_VALUE && iv == 0, "%s: get_int64", t);
        CHECK(ix_column_get_double(s, i, &dv) == IX_NULL_VALUE && dv == 0, "%s: get_double", t);
        CHECK(ix_column_datetime(s, i, &dt) == IX_NULL_VALUE && dt.year == 0, "%s: datetime", t);
        CHECK(ix_column_interval(s, i, &it) == IX_NULL_VALUE && it.days == 0, "%s: interval", t);
        CHECK(ix_column_date_ymd(s, i, &y, &m, &d) == IX_NULL_VALUE && y == 0 && m == 0 && d == 0,
              "%s: date_ymd", t);
        CHECK(ix_column_get_decimal(s, i, &dd) == IX_NULL_VALUE && dd.ndigits == 0,
              "%s: get_decimal", t);
        CHECK(ix_column_raw(s, i) != NULL, "%s: raw gives the NULL form's bytes", t);
        CHECK(ix_errcode(c) == IX_OK, "%s: a NULL is no error (errcode %d)", t, ix_errcode(c));
    }
    ix_finalize(s);
}

/* ---- conversions ----------------------------------------------------------------- */

static void test_conversions(ix_conn *c) {
    EXEC_OK(c, "create table cv (a decimal(5,1), b decimal(5,1), c decimal(5,2), d float,"
               " e float, f decimal(32,0), g varchar(10), h varchar(10), i decimal(5,1),"
               " j bigint, k boolean, l date, m datetime year to second, n varchar(10))");
    EXEC_OK(c, "insert into cv values (1.5, -1.5, 2.00, 2.5, 3.0,"
               " 12345678901234567890123456789012, '12', '1.5', 0.9, 9223372036854775807,"
               " 't', '1900-01-01', '2026-01-02 03:04:05', 'abc')");
    ix_stmt *s = first_row(c, "select * from cv");
    if (!s) return;
    int64_t v = 99;
    double d = 0;
    CHECK(ix_column_get_int64(s, 0, &v) == IX_ERANGE && v == 1, "1.5: IX_ERANGE, 1 (%lld)",
          (long long)v);
    CHECK(ix_column_int64(s, 0) == 1 && ix_column_int(s, 0) == 1, "1.5: int64 / int truncate");
    CHECK(ix_column_get_int64(s, 1, &v) == IX_ERANGE && v == -1, "-1.5: IX_ERANGE, -1");
    CHECK(ix_column_int64(s, 1) == -1, "-1.5: int64 truncates");
    CHECK(ix_column_get_int64(s, 2, &v) == IX_OK && v == 2, "2.00: IX_OK");
    CHECK(ix_column_get_int64(s, 3, &v) == IX_ERANGE && v == 2, "FLOAT 2.5: IX_ERANGE, 2");
    CHECK(ix_column_get_int64(s, 4, &v) == IX_OK && v == 3, "FLOAT 3.0: IX_OK");
    CHECK(ix_column_get_int64(s, 5, &v) == IX_ERANGE && v == 0, "1.2E31: IX_ERANGE, 0");
    CHECK(ix_column_int64(s, 5) == 0, "1.2E31: int64 0");
    CHECK(ix_column_get_int64(s, 6, &v) == IX_OK && v == 12, "text '12'");
    CHECK(ix_column_get_int64(s, 7, &v) == IX_EINVAL && v == 0, "text '1.5': IX_EINVAL");
    CHECK(ix_column_get_int64(s, 8, &v) == IX_ERANGE && v == 0, "0.9: IX_ERANGE, 0");
    CHECK(ix_column_int(s, 9) == 0 && ix_column_int64(s, 9) == INT64_MAX, "int of INT64_MAX");
    CHECK(ix_column_get_double(s, 0, &d) == IX_OK && d == 1.5, "double of 1.5");
    CHECK(ix_column_get_double(s, 7, &d) == IX_OK && d == 1.5, "double of '1.5'");
    CHECK(ix_column_get_int64(s, 10, &v) == IX_OK && v == 1, "BOOLEAN t: 1");
    CHECK(ix_column_get_int64(s, 11, &v) == IX_OK && v == 1, "DATE 1900-01-01: day 1");
    CHECK(ix_column_get_double(s, 11, &d) == IX_OK && d == 1.0, "DATE as a double");
    CHECK(ix_column_get_int64(s, 12, &v) == IX_EINVAL && v == 0, "DATETIME: IX_EINVAL");
    CHECK(ix_column_get_double(s, 12, &d) == IX_EINVAL && d == 0, "DATETIME double: IX_EINVAL");
    CHECK(ix_column_get_int64(s, 13, &v) == IX_EINVAL &&
              ix_column_get_double(s, 13, &d) == IX_EINVAL,
          "text 'abc': IX_EINVAL");
    ix_finalize(s);
}

/* ---- long text binds --------------------------------------------------------------- */

static void long_text(ix_conn *c, size_t len, int id) {
    char *t = malloc(len + 1);
    if (!t) return;
    for (size_t k = 0; k < len; k++)
        t[k] = (char)('a' + (k * 7 + k / 251) % 26);
    t[len] = 0;
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into lt values (?, ?, ?)", -1, &s) == IX_OK, "prepare");
    CHECK(ix_bind_int(s, 1, id) == IX_OK, "bind id");
    int rc = ix_bind_text(s, 2, t, (int)len, IX_STATIC);
    CHECK(rc == IX_OK, "bind_text %zu bytes: rc=%d %s", len, rc, ix_errmsg(c));
    rc = ix_bind_blob(s, 3, t, (int)len, IX_STATIC);
    CHECK(rc == IX_OK, "bind_blob %zu bytes: rc=%d %s", len, rc, ix_errmsg(c));
    rc = ix_step(s);
    CHECK(rc == IX_DONE, "insert %zu bytes: rc=%d %s", len, rc, ix_errmsg(c));
    ix_finalize(s);
    char sql[64];
    snprintf(sql, sizeof sql, "select v, b from lt where k = %d", id);
    s = first_row(c, sql);
    if (s) {
        size_t n = 0, nb = 0;
        const char *v = ix_column_blob(s, 0, &n);
        CHECK(v && n == len && memcmp(v, t, len) == 0, "TEXT back: %zu bytes of %zu", n, len);
        const char *b = ix_column_blob(s, 1, &nb);
        CHECK(b && nb == len && memcmp(b, t, len) == 0, "BYTE back: %zu bytes of %zu", nb, len);
        ix_finalize(s);
    }
    free(t);
}

/* Lengths are size_t; IX_NTS (and so -1, any value above PTRDIFF_MAX)
 * means NUL-terminated for texts; a blob needs a real length. */
static void test_lengths(ix_conn *c) {
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into lt (k, v) values (?, ?)", IX_NTS, &s) == IX_OK,
          "prepare with IX_NTS: %s", ix_errmsg(c));
    CHECK(ix_stmt_sql(s) && strcmp(ix_stmt_sql(s), "insert into lt (k, v) values (?, ?)") == 0,
          "the whole text");
    CHECK(ix_bind_int(s, 1, 10) == IX_OK && ix_bind_text(s, 2, "nts", IX_NTS, IX_STATIC) == IX_OK,
          "bind_text IX_NTS");
    CHECK(ix_step(s) == IX_DONE, "insert: %s", ix_errmsg(c));
    CHECK(ix_reset(s) == IX_OK, "reset");
    CHECK(ix_bind_int(s, 1, 11) == IX_OK && ix_bind_text(s, 2, "minus2", -2, IX_STATIC) == IX_OK,
          "bind_text -2 counts as IX_NTS");
    CHECK(ix_step(s) == IX_DONE, "insert: %s", ix_errmsg(c));
    CHECK(ix_bind_blob(s, 2, "xy", IX_NTS, IX_STATIC) == IX_ERANGE, "blob of length IX_NTS");
    CHECK(ix_bind_decimal_text(s, 2, "1.25", IX_NTS) == IX_OK &&
              ix_bind_datetime_text(s, 2, "2026-01-02", -1, 0) == IX_OK &&
              ix_bind_interval_text(s, 2, "3 04:05:06", IX_NTS, 0) == IX_OK,
          "the other text binds take IX_NTS");
    ix_finalize(s);
    s = first_row(c, "select v from lt where k = 11");
    if (s) {
        size_t n = 0;
        const char *v = ix_column_blob(s, 0, &n);
        CHECK(v && n == 6 && memcmp(v, "minus2", 6) == 0, "-2 read the whole string (%zu)", n);
        ix_finalize(s);
    }
}

/* The arrays batch binds a long text the same way (through ix_bind_text). */
static void long_text_array(ix_conn *c) {
    static char big[40000];
    memset(big, 'q', sizeof big - 1);
    const char *texts[2] = {"short", big};
    int64_t ids[2] = {20, 21}, nf = -1;
    ix_array cols[2] = {{IX_ARRAY_INT64, ids, NULL}, {IX_ARRAY_TEXT, texts, NULL}};
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into lt (k, v) values (?, ?)", IX_NTS, &s) == IX_OK, "prepare");
    int rc = ix_batch_execute_arrays(s, 2, cols, 2, NULL, &nf);
    CHECK(rc == IX_OK && nf == 0, "arrays batch with a 39,999-byte text: rc=%d %s", rc,
          ix_errmsg(c));
    ix_finalize(s);
    s = first_row(c, "select v from lt where k = 21");
    if (s) {
        size_t n = 0;
        const char *v = ix_column_blob(s, 0, &n);
        CHECK(v && n == sizeof big - 1 && memcmp(v, big, n) == 0, "text back: %zu bytes", n);
        ix_finalize(s);
    }
}

/* IX_ARRAY_TEXTN: texts with their lengths, NULs inside included, and the
 * one byte 00 (VARCHAR's NULL form: sent as TEXT, as ix_bind_text sends it). */
static void textn_array(ix_conn *c) {
    static const ix_text texts[4] = {{"a", 1}, {"\0", 1}, {"x\0y", 3}, {NULL, 0}};
    int64_t ids[4] = {30, 31, 32, 33}, nf = -1;
    ix_array cols[2] = {{IX_ARRAY_INT64, ids, NULL}, {IX_ARRAY_TEXTN, texts, NULL}};
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into lt (k, v) values (?, ?)", IX_NTS, &s) == IX_OK, "prepare");
    int rc = ix_batch_execute_arrays(s, 4, cols, 2, NULL, &nf);
    CHECK(rc == IX_OK && nf == 0, "arrays batch of IX_ARRAY_TEXTN: rc=%d %s", rc, ix_errmsg(c));
    ix_finalize(s);
    for (int k = 0; k < 4; k++) {
        char sql[64];
        snprintf(sql, sizeof sql, "select v from lt where k = %d", 30 + k);
        s = first_row(c, sql);
        if (!s) continue;
        size_t n = 0;
        const char *v = ix_column_blob(s, 0, &n);
        CHECK(texts[k].p ? v && n == texts[k].n && memcmp(v, texts[k].p, n) == 0 : v == NULL,
              "IX_ARRAY_TEXTN value %d back: %zu bytes", k, n);
        ix_finalize(s);
    }
}

static void test_long_text(ix_conn *c) {
    EXEC_OK(c, "create table lt (k integer, v text, b byte)");
    long_text(c, 32767, 1);
    /* longer values go as TEXT: inline to ixd, as a descriptor and SQ_BLOB
     * chunks to a conservative server */
    long_text(c, 32768, 2);
    long_text(c, 1024 * 1024, 3);
    long_text_array(c);
    textn_array(c);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    ix_conn *c = connect_db(NULL);
    EXEC_OK(c, "create database vals with log");
    ix_close(c);
    c = connect_db("vals");
    test_decltype(c);
    test_decimal(c);
    test_null_rule(c);
    test_conversions(c);
    test_long_text(c);
    test_lengths(c);
    ix_close(c);
    ixd_stop(&P, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&P);
    else
        fprintf(stderr, "data and log kept in %s\n", P.dir);
    return tap_done();
}
