/* test_engine_types.c: every type round-trips through storage (tuple bytes
 * bound -> INSERT -> SELECT -> the same tuple bytes) with its describe
 * codes. The NOT NULL flag of describe and ORDER BY on the storage forms
 * are in tests/sql/engine_types.test. */
#include "test_engine_util.h"

typedef struct tcase {
    const char *decl;
    int code; /* described code (without NOT NULL) */
    uint32_t enclen;
    const char *xname;
    const char *vals[8];
} tcase;

static const tcase cases[] = {
    {"char(5)", 0, 5, NULL, {"ab", "", "abcde", NULL}},
    {"nchar(3)", 15, 3, NULL, {"xyz", NULL}},
    {"varchar(10)", 13, 10, NULL, {"hello", "", "  sp  ", NULL}},
    {"varchar(10,2)", 13, 10, NULL, {"hi", NULL}},
    {"nvarchar(8)", 16, 8, NULL, {"n", NULL}},
    {"lvarchar(100)", 40, 100, "lvarchar", {"a long text", "", NULL}},
    {"lvarchar", 40, 2048, "lvarchar", {"x", NULL}},
    {"smallint", 1, 2, NULL, {"32767", "-32767", "0", NULL}},
    {"integer", 2, 4, NULL, {"2147483647", "-2147483647", "7", NULL}},
    {"int8", 17, 10, NULL, {"9223372036854775807", "-9223372036854775807", "0", NULL}},
    {"bigint", 52, 8, NULL, {"9223372036854775807", "-9223372036854775807", "1", NULL}},
    {"smallfloat", 4, 4, NULL, {"1.5", "-3.25e10", NULL}},
    {"float", 3, 8, NULL, {"-0.0", "Infinity", "-Infinity", "1e308", "4.9e-324", NULL}},
    {"decimal(32,0)",
     5,
     0x2000,
     NULL,
     {"12345678901234567890123456789012", "-99999999999999999999999999999999", NULL}},
    {"decimal(32,10)",
     5,
     0x200a,
     NULL,
     {"1234567890123456789012.1234567890", "-0.0000000001", NULL}},
    {"decimal(5,2)", 5, 0x0502, NULL, {"-123.45", "0", "999.99", NULL}},
    {"decimal(16)", 5, 0x10ff, NULL, {"1.5e-100", "-12345.678", NULL}},
    {"money(8,2)", 8, 0x0802, NULL, {"123.45", "-98765.43", NULL}},
    {"date", 7, 4, NULL, {"01/01/0001", "12/31/9999", "02/29/2024", NULL}},
    {"datetime year to fraction(5)",
     10,
     0x130f,
     NULL,
     {"2026-07-19 12:34:56.12345", "0001-01-01 00:00:00.00000", NULL}},
    {"datetime year to day", 10, 0x0804, NULL, {"9999-12-31", NULL}},
    {"datetime hour to minute", 10, 0x0468, NULL, {"23:59", "00:00", NULL}},
    {"datetime month to day", 10, 0x0424, NULL, {"02-29", NULL}},
    {"datetime fraction to fraction(3)", 10, 0x03cd, NULL, {".123", NULL}},
    {"datetime year to second", 10, 0x0e0a, NULL, {"2026-06-20 12:34:56", NULL}},
    {"interval year(4) to month", 14, 0x0602, NULL, {"-1234-05", "0-00", "9999-11", NULL}},
    {"interval day(3) to fraction(5)",
     14,
     0x0e4f,
     NULL,
     {"3 03:27:01.12345", "-999 23:59:59.99999", NULL}},
    {"interval hour to second", 14, 0x066a, NULL, {"12:34:56", "-0:00:01", NULL}},
    {"interval fraction to fraction(2)", 14, 0x02cc, NULL, {".99", NULL}},
    {"interval minute(5) to second", 14, 0x078a, NULL, {"99999:59", NULL}},
    {"boolean", 41, 1, "boolean", {"t", "f", NULL}},
};

static int bind_insert(const char *table, ixt_vtype t, const uint8_t *p, size_t n) {
    char sql[200];
    snprintf(sql, sizeof sql, "insert into %s (c) values (?)", table);
    ixd_stmt *s;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) return ERR.sqlcode;
    int rc = ixd_bind(s, 0, t, p, n, &ERR);
    if (!rc) rc = ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR);
    ixd_stmt_free(s);
    return rc ? ERR.sqlcode : 0;
}

static void round_trip(int k, const tcase *c) {
    char sql[300], tab[32];
    snprintf(tab, sizeof tab, "tt%d", k);
    snprintf(sql, sizeof sql, "create table %s (id serial, c %s)", tab, c->decl);
    int rc = run(sql);
    CHECK(rc == 0, "%s -> %d %s", sql, rc, ERR.text);
    if (rc) return;
    ixt_vtype t;
    t.code = ixt_vtype_resolve(c->code, c->xname);
    t.enclen = c->enclen;
    ixb_wbuf want;
    ixb_wbuf_init(&want, NULL);
    int nv = 0;
    for (int i = 0; c->vals[i]; i++) {
        size_t at = want.len;
        rc = ixt_value_parse(t, c->vals[i], strlen(c->vals[i]), NULL, &want);
        CHECK(rc == IX_OK, "parse %s %s", c->decl, c->vals[i]);
        if (rc) continue;
        rc = bind_insert(tab, t, want.data + at, want.len - at);
        CHECK(rc == 0, "insert %s %s -> %d %s", c->decl, c->vals[i], rc, ERR.text);
        nv++;
    }
    /* NULL */
    rc = bind_insert(tab, t, NULL, 0);
    CHECK(rc == 0, "insert NULL %s -> %d", c->decl, rc);
    ixt_value_put_null(t, &want);
    nv++;
    snprintf(sql, sizeof sql, "select c from %s order by id", tab);
    ixd_stmt *s;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) {
        CHECK(0, "prepare %s", sql);
        ixb_wbuf_free(&want);
        return;
    }
    ixd_col col;
    ixd_stmt_col(s, 0, &col);
    CHECK((col.type & 0xff) == c->code && col.enclen == c->enclen,
          "%s described %d/%#x want %d/%#x", c->decl, col.type, col.enclen, c->code, c->enclen);
    CHECK((c->xname == NULL) == (col.xname == NULL) && (!c->xname || !strcmp(c->xname, col.xname)),
          "%s xname", c->decl);
    ixb_wbuf got;
    ixb_wbuf_init(&got, NULL);
    ixd_open(s, 0, &ERR);
    int n = 0;
    while ((rc = ixd_fetch(s, &got, &ERR)) == 1)
        n++;
    CHECK(rc == 0, "fetch %s -> %d", c->decl, ERR.sqlcode);
    CHECK(n == nv, "%s rows %d want %d", c->decl, n, nv);
    CHECK(got.len == want.len && !memcmp(got.data, want.data, want.len), "%s bytes differ",
          c->decl);
    if (got.len != want.len || memcmp(got.data, want.data, want.len)) {
        printf("  got : ");
        for (size_t i = 0; i < got.len; i++)
            printf("%02x", got.data[i]);
        printf("\n  want: ");
        for (size_t i = 0; i < want.len; i++)
            printf("%02x", want.data[i]);
        printf("\n");
    }
    ixb_wbuf_free(&got);
    ixb_wbuf_free(&want);
    ixd_stmt_free(s);
}

int main(void) {
    eu_setup("types");
    CHECK_RUN("create database types with log", 0);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        round_trip((int)k, &cases[k]);

    eu_teardown();
    return tap_done();
}
