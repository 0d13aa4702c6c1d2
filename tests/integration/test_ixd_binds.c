/*
 * test_ixd_binds.c: values bound over the wire (SQ_BIND, through ixd's
 * direct path for the common types and its general path for the others),
 * each into columns of its own and of other types, read back with SELECT:
 * the conversions Informix makes (a CHAR bound to an INTEGER column is
 * parsed, an INTEGER bound to a VARCHAR column becomes its text), NULLs,
 * values out of range and the errors of values that do not convert. Then
 * one BIND of many values in one message, and pipelined rows.
 */
#include "harness.h"
#include "tap.h"

static tconn C;
static char TXT[1000];

static void exec_ok(const char *sql) {
    treply r = {0};
    tconn_command(&C, sql, &r);
    CHECK(r.sqlcode == 0, "%s: %d", sql, r.sqlcode);
    ixb_wbuf_free(&r.tuples);
}

/* One bind value: type code, NULL when p is NULL. */
typedef struct bv {
    int type;
    uint8_t b[400];
    size_t n;
    int null;
} bv;

static bv b_int(int type, int64_t v) {
    bv x = {.type = type};
    x.n = type == IX_T_SMALLINT ? 2 : (type == IX_T_BIGINT || type == IX_T_FLOAT) ? 8 : 4;
    if (x.n == 2) ixb_st16(x.b, (uint16_t)v);
    if (x.n == 4) ixb_st32(x.b, (uint32_t)v);
    if (x.n == 8) ixb_st64(x.b, (uint64_t)v);
    return x;
}

static bv b_dbl(int type, double d) {
    bv x = {.type = type};
    if (type == IX_T_FLOAT) {
        uint64_t u;
        memcpy(&u, &d, 8);
        ixb_st64(x.b, u);
        x.n = 8;
    } else {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        ixb_st32(x.b, u);
        x.n = 4;
    }
    return x;
}

static bv b_str(int type, const char *s, size_t n) {
    bv x = {.type = type};
    ixb_st16(x.b, (uint16_t)n);
    memcpy(x.b + 2, s, n);
    x.n = 2 + n;
    return x;
}

static bv b_null(int type) {
    bv x = {.type = type, .null = 1};
    return x;
}

/* Binds v to "INSERT INTO t (col) VALUES (?)" and reads the column back.
 * Returns the text read ("NULL"), or "ERR <sqlcode>". */
static const char *through(const char *col, bv v) {
    treply r = {0};
    tconn_command(&C, "DELETE FROM t", &r);
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO t (%s) VALUES (?)", col);
    int id = tconn_prepare(&C, sql, 1, &r);
    if (id < 0) {
        snprintf(TXT, sizeof TXT, "ERR prepare %d", r.sqlcode);
        ixb_wbuf_free(&r.tuples);
        return TXT;
    }
    ixp_bindval b = {.type = (int16_t)v.type,
                     .indicator = v.null ? IXP_IND_NULL : IXP_IND_VALUE,
                     .value = {v.b, v.n}};
    ixp_enc_id(&C.out, id);
    ixp_enc_bind(&C.out, &b, 1);
    ixp_enc_tag(&C.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&C.out, IXP_SQ_EOT);
    ixp_enc_id(&C.out, id);
    ixp_enc_tag(&C.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&C.out, IXP_SQ_EOT);
    tconn_flush(&C);
    tconn_reply(&C, &r);
    int code = r.sqlcode;
    tconn_reply(&C, &r);
    if (code) {
        snprintf(TXT, sizeof TXT, "ERR %d", code);
    } else {
        snprintf(sql, sizeof sql, "SELECT %s FROM t", col);
        if (tconn_select(&C, sql, 4096, &r, NULL) || r.ntuples != 1)
            snprintf(TXT, sizeof TXT, "ERR select %d rows %d", r.sqlcode, r.ntuples);
        else
            treply_value(&r, 0, 0, TXT, sizeof TXT);
    }
    ixb_wbuf_free(&r.tuples);
    return TXT;
}

#define THROUGH(col, v, want)                                                                      \
    do {                                                                                           \
        const char *got_ = through(col, v);                                                        \
        CHECK(strcmp(got_, want) == 0, "%s <- %s: got [%s], want [%s]", col, #v, got_, want);      \
    } while (0)

static void test_types(void) {
    /* each type into its own column */
    THROUGH("si", b_int(IX_T_SMALLINT, -32767), "-32767");
    THROUGH("i", b_int(IX_T_INTEGER, 42), "42");
    THROUGH("i", b_int(IX_T_INTEGER, 2147483647), "2147483647");
    THROUGH("bi", b_int(IX_T_BIGINT, 1099511627776LL), "1099511627776");
    THROUGH("f", b_dbl(IX_T_FLOAT, 2.5), "2.50000000000000");
    THROUGH("sf", b_dbl(IX_T_SMALLFLOAT, 1.5), "1.500000");
    THROUGH("d", b_int(IX_T_DATE, 45000), "03/16/2023");
    THROUGH("v", b_str(IX_T_VARCHAR, "abc", 3), "abc");
    THROUGH("v", b_str(IX_T_VARCHAR, "", 0), "");
    THROUGH("nv", b_str(IX_T_NVARCHAR, "xy", 2), "xy");
    THROUGH("c", b_str(IX_T_CHAR, "ab", 2), "ab  ");
    /* NULLs */
    THROUGH("i", b_null(IX_T_INTEGER), "NULL");
    THROUGH("v", b_null(IX_T_VARCHAR), "NULL");
    THROUGH("f", b_null(IX_T_FLOAT), "NULL");
    THROUGH("d", b_null(IX_T_DATE), "NULL");
    /* the NULL forms as values, and values out of range: refused */
    THROUGH("i", b_int(IX_T_INTEGER, INT32_MIN), "ERR -1213");
    THROUGH("si", b_int(IX_T_SMALLINT, -32768), "ERR -1213");
    THROUGH("bi", b_int(IX_T_BIGINT, INT64_MIN), "ERR -1213");
    THROUGH("d", b_int(IX_T_DATE, -700000), "ERR -1213");
    THROUGH("v", b_str(IX_T_VARCHAR, "\0", 1), "ERR -1213");
    /* another type, converted as Informix does */
    THROUGH("i", b_str(IX_T_VARCHAR, "12", 2), "12");
    THROUGH("i", b_str(IX_T_VARCHAR, "x1", 2), "ERR -1213");
    THROUGH("si", b_int(IX_T_INTEGER, 40000), "ERR -1214");
    THROUGH("i", b_dbl(IX_T_FLOAT, 7.75), "7");
    THROUGH("f", b_int(IX_T_INTEGER, 7), "7.00000000000000");
    THROUGH("bi", b_int(IX_T_INTEGER, -5), "-5");
    THROUGH("i8", b_int(IX_T_BIGINT, 1LL << 40), "1099511627776");
    THROUGH("v", b_int(IX_T_INTEGER, 7), "7");
    THROUGH("c", b_int(IX_T_INTEGER, 7), "7   ");
    THROUGH("v", b_str(IX_T_VARCHAR, "abcdefgh", 8), "abcde");
    THROUGH("dec", b_str(IX_T_VARCHAR, "1.25", 4), "1.25");
    THROUGH("dec", b_int(IX_T_INTEGER, 3), "3.00");
    THROUGH("dec", b_dbl(IX_T_FLOAT, 2.125), "2.13");
    THROUGH("d", b_str(IX_T_VARCHAR, "01/02/2020", 10), "01/02/2020");
    THROUGH("v", b_int(IX_T_DATE, 45000), "03/16");         /* its text, cut to 5 */
    THROUGH("d", b_int(IX_T_INTEGER, 45000), "03/16/2023"); /* a day count */
    THROUGH("i", b_int(IX_T_DATE, 45000), "ERR -1213");
    char big[300];
    memset(big, 'z', sizeof big);
    THROUGH("v", b_str(IX_T_VARCHAR, big, sizeof big), "zzzzz");
}

/* One BIND with many values of the direct and the general path, and a
 * pipelined batch of them. */
static void test_rows(void) {
    treply r = {0};
    tconn_command(&C, "DELETE FROM t", &r);
    int id = tconn_prepare(&C,
                           "INSERT INTO t (si, i, bi, f, sf, d, v, nv, c, dec) VALUES "
                           "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           10, &r);
    CHECK(id >= 0, "prepare the 10-column INSERT (%d)", r.sqlcode);
    for (int k = 0; k < 50; k++) {
        bv v[10] = {b_int(IX_T_SMALLINT, k),
                    b_int(IX_T_INTEGER, k * 1000),
                    b_int(IX_T_BIGINT, -k),
                    b_dbl(IX_T_FLOAT, k + 0.5),
                    b_dbl(IX_T_SMALLFLOAT, 0.25),
                    b_int(IX_T_DATE, 45000 + k),
                    b_str(IX_T_VARCHAR, "odd", 3),
                    k % 2 ? b_null(IX_T_NVARCHAR) : b_str(IX_T_NVARCHAR, "ev", 2),
                    b_str(IX_T_CHAR, "c", 1),
                    b_str(IX_T_VARCHAR, "9.99", 4)};
        ixp_bindval b[10];
        for (int i = 0; i < 10; i++)
            b[i] = (ixp_bindval){.type = (int16_t)v[i].type,
                                 .indicator = v[i].null ? IXP_IND_NULL : IXP_IND_VALUE,
                                 .value = {v[i].b, v[i].n}};
        ixp_enc_id(&C.out, id);
        ixp_enc_bind(&C.out, b, 10);
        ixp_enc_tag(&C.out, IXP_SQ_EXECUTE);
        ixp_enc_tag(&C.out, IXP_SQ_EOT);
    }
    tconn_flush(&C);
    int good = 0;
    for (int k = 0; k < 50; k++)
        if (tconn_reply(&C, &r) == 0 && r.sqlcode == 0 && r.rows == 1) good++;
    CHECK(good == 50, "50 pipelined 10-value rows inserted (%d)", good);
    CHECK(tconn_select(&C,
                       "SELECT si, i, bi, f, sf, d, v, nv, c, dec FROM t WHERE si = 7 OR si = 8 "
                       "ORDER BY si",
                       4096, &r, NULL) == 0 &&
              r.ntuples == 2,
          "two rows back (%d)", r.ntuples);
    const char *want[2][10] = {{"7", "7000", "-7", "7.50000000000000", "0.2500000", "03/23/2023",
                                "odd", "NULL", "c   ", "9.99"},
                               {"8", "8000", "-8", "8.50000000000000", "0.2500000", "03/24/2023",
                                "odd", "ev", "c   ", "9.99"}};
    int same = 1;
    char buf[64];
    for (int row = 0; row < 2 && r.ntuples == 2; row++)
        for (int col = 0; col < 10; col++) {
            treply_value(&r, row, col, buf, sizeof buf);
            if (strcmp(buf, want[row][col])) {
                printf("# row %d col %d: [%s] want [%s]\n", row, col, buf, want[row][col]);
                same = 0;
            }
        }
    CHECK(same, "every value as bound");
    ixb_wbuf_free(&r.tuples);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    CHECK(tconn_login(&C, p.port, "informix", "in4mix", NULL) == 0, "login");
    exec_ok("CREATE DATABASE binds WITH LOG");
    exec_ok("DATABASE binds");
    exec_ok("CREATE TABLE t (si SMALLINT, i INTEGER, bi BIGINT, f FLOAT, sf SMALLFLOAT, d DATE, "
            "v VARCHAR(5), nv NVARCHAR(4), c CHAR(4), dec DECIMAL(8,2), i8 INT8)");
    test_types();
    test_rows();
    tconn_close(&C);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
    return tap_done();
}
