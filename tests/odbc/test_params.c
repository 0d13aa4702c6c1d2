/* test_params.c: SQLDescribeParam through unixODBC's driver manager against
 * a real ixd. A parameter of INSERT ... VALUES (?, ...) is described by the
 * column the server's describe places it in, as SQLDescribeCol describes
 * that column (type, size, digits; nullability from NOT NULL): with and
 * without a column list, after SQLPrepare and after SQLExecDirect. Every
 * other parameter (UPDATE, WHERE, a literal among the values, INSERT ...
 * SELECT) and one for a TEXT or BYTE column is SQL_VARCHAR(4000) with
 * SQL_NULLABLE_UNKNOWN. Then the C types an application binds from that
 * description (SQL_C_SBIGINT, SQL_C_NUMERIC, SQL_C_WCHAR, SQL_C_TYPE_DATE,
 * SQL_C_TYPE_TIMESTAMP, SQL_C_DOUBLE, SQL_C_BIT) as one parameter array,
 * read back. */
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define VARCHAR_FALLBACK 4000
#define NROWS            3

static SQLHENV env;
static SQLHDBC dbc;

typedef struct pdesc {
    SQLSMALLINT type;
    SQLULEN size;
    SQLSMALLINT digits, nullable;
} pdesc;

static const pdesc FALLBACK = {SQL_VARCHAR, VARCHAR_FALLBACK, 0, SQL_NULLABLE_UNKNOWN};

/* Checks the n parameters of the statement st holds against w. */
static void check_params(SQLHSTMT st, const char *what, const pdesc *w, int n) {
    SQLSMALLINT np = 0;
    OK(SQLNumParams(st, &np), SQL_HANDLE_STMT, st);
    CHECK(np == n, "%s: %d parameters", what, np);
    for (int i = 0; i < n; i++) {
        pdesc d = {0, 0, -1, -1};
        OK(SQLDescribeParam(st, (SQLUSMALLINT)(i + 1), &d.type, &d.size, &d.digits, &d.nullable),
           SQL_HANDLE_STMT, st);
        CHECK(d.type == w[i].type && d.size == w[i].size && d.digits == w[i].digits &&
                  d.nullable == w[i].nullable,
              "%s: parameter %d: type %d size %lu digits %d nullable %d (want %d %lu %d %d)", what,
              i + 1, d.type, (unsigned long)d.size, d.digits, d.nullable, w[i].type,
              (unsigned long)w[i].size, w[i].digits, w[i].nullable);
    }
}

static void prepared(SQLHSTMT st, const char *sql, const pdesc *w, int n) {
    OK(SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st);
    check_params(st, sql, w, n);
}

static void describe(SQLHSTMT st) {
    odbc_exec(st, "CREATE TABLE pd (i INTEGER NOT NULL, d DECIMAL(10,2), v VARCHAR(20), dt DATE, "
                  "ts DATETIME YEAR TO SECOND, b BOOLEAN, lv LVARCHAR(500), tx TEXT, by BYTE, "
                  "f FLOAT, bi BIGINT, tf DATETIME YEAR TO FRACTION(3))");
    pdesc all[12] = {{SQL_INTEGER, 10, 0, SQL_NO_NULLS},
                     {SQL_DECIMAL, 10, 2, SQL_NULLABLE},
                     {SQL_VARCHAR, 20, 0, SQL_NULLABLE},
                     {SQL_TYPE_DATE, 10, 0, SQL_NULLABLE},
                     {SQL_TYPE_TIMESTAMP, 19, 0, SQL_NULLABLE},
                     {SQL_BIT, 1, 0, SQL_NULLABLE},
                     {SQL_VARCHAR, 500, 0, SQL_NULLABLE},
                     FALLBACK,
                     FALLBACK,
                     {SQL_DOUBLE, 15, 0, SQL_NULLABLE},
                     {SQL_BIGINT, 19, 0, SQL_NULLABLE},
                     {SQL_TYPE_TIMESTAMP, 23, 3, SQL_NULLABLE}};
    prepared(st, "INSERT INTO pd VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", all, 12);
    pdesc listed[3] = {all[2], all[1], all[0]};
    prepared(st, "INSERT INTO pd (v, d, i) VALUES (?, ?, ?)", listed, 3);
    pdesc fb[2] = {FALLBACK, FALLBACK};
    prepared(st, "UPDATE pd SET v = ? WHERE i = ?", fb, 2);
    prepared(st, "INSERT INTO pd (i, v, d) VALUES (?, 'x', ?)", fb, 2);
    prepared(st, "INSERT INTO pd (i) SELECT i + ? FROM pd", fb, 1);
    prepared(st, "SELECT v FROM pd WHERE i = ? AND d > ?", fb, 2);
    SQLSMALLINT t;
    CHECK(SQLDescribeParam(st, 3, &t, NULL, NULL, NULL) == SQL_ERROR &&
              strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "07009") == 0,
          "parameter 3 of 2: 07009");
    SQLFreeStmt(st, SQL_CLOSE);
    /* after SQLExecDirect (a deferred PREPARE, gone with the execution) */
    SQLINTEGER id = 5;
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL);
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 5, 0, "five", 5, NULL);
    OK(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO pd (i, v) VALUES (?, ?)", SQL_NTS),
       SQL_HANDLE_STMT, st);
    pdesc iv[2] = {all[0], all[2]};
    check_params(st, "after SQLExecDirect", iv, 2);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    odbc_exec(st, "DELETE FROM pd");
}

/* the row-wise parameter array an application builds from the description */
typedef struct prow {
    SQLBIGINT i;
    SQLLEN i_ind;
    SQL_NUMERIC_STRUCT d;
    SQLLEN d_ind;
    SQLWCHAR v[21];
    SQLLEN v_ind;
    SQL_DATE_STRUCT dt;
    SQLLEN dt_ind;
    SQL_TIMESTAMP_STRUCT ts;
    SQLLEN ts_ind;
    SQLCHAR b;
    SQLLEN b_ind;
    double f;
    SQLLEN f_ind;
} prow;

static void wide(SQLWCHAR *out, const char *s) {
    while ((*out++ = (SQLWCHAR)(unsigned char)*s++) != 0) {
    }
}

static void typed_array(SQLHSTMT st) {
    static const long cents[NROWS] = {1234, -5, 99999999};
    prow r[NROWS];
    memset(r, 0, sizeof r);
    for (int k = 0; k < NROWS; k++) {
        long c = cents[k] < 0 ? -cents[k] : cents[k];
        r[k].i = k + 1;
        r[k].d = (SQL_NUMERIC_STRUCT){10, 2, cents[k] >= 0, {0}};
        for (int b = 0; b < 4; b++)
            r[k].d.val[b] = (SQLCHAR)(c >> (8 * b));
        char v[21];
        snprintf(v, sizeof v, "row %d", k + 1);
        wide(r[k].v, v);
        r[k].v_ind = (SQLLEN)(strlen(v) * sizeof(SQLWCHAR));
        r[k].dt = (SQL_DATE_STRUCT){(SQLSMALLINT)(2024 + k), 2, 28};
        r[k].ts = (SQL_TIMESTAMP_STRUCT){2026, 12, 4, 10, 11, (SQLUSMALLINT)(12 + k), 0};
        r[k].b = (SQLCHAR)(k & 1);
        r[k].f = 0.5 * k;
        r[k].i_ind = r[k].d_ind = r[k].dt_ind = r[k].ts_ind = r[k].b_ind = r[k].f_ind = 0;
    }
    OK(SQLPrepare(st,
                  (SQLCHAR *)"INSERT INTO pd (i, d, v, dt, ts, b, f) VALUES (?, ?, ?, ?, ?, ?, ?)",
                  SQL_NTS),
       SQL_HANDLE_STMT, st);
    SQLSMALLINT t[7];
    SQLULEN sz[7];
    SQLSMALLINT dg[7];
    for (int i = 0; i < 7; i++)
        OK(SQLDescribeParam(st, (SQLUSMALLINT)(i + 1), &t[i], &sz[i], &dg[i], NULL),
           SQL_HANDLE_STMT, st);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)sizeof(prow), 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)NROWS, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SBIGINT, t[0], sz[0], dg[0], &r[0].i, 0,
                     &r[0].i_ind);
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_NUMERIC, t[1], sz[1], dg[1], &r[0].d, 0,
                     &r[0].d_ind);
    SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_WCHAR, t[2], sz[2], dg[2], r[0].v, sizeof r[0].v,
                     &r[0].v_ind);
    SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_TYPE_DATE, t[3], sz[3], dg[3], &r[0].dt, 0,
                     &r[0].dt_ind);
    SQLBindParameter(st, 5, SQL_PARAM_INPUT, SQL_C_TYPE_TIMESTAMP, t[4], sz[4], dg[4], &r[0].ts, 0,
                     &r[0].ts_ind);
    SQLBindParameter(st, 6, SQL_PARAM_INPUT, SQL_C_BIT, t[5], sz[5], dg[5], &r[0].b, 0,
                     &r[0].b_ind);
    SQLBindParameter(st, 7, SQL_PARAM_INPUT, SQL_C_DOUBLE, t[6], sz[6], dg[6], &r[0].f, 0,
                     &r[0].f_ind);
    OK(SQLExecute(st), SQL_HANDLE_STMT, st);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT i, d, v, dt, ts, b, f FROM pd ORDER BY i", SQL_NTS),
       SQL_HANDLE_STMT, st);
    static const char *want[NROWS] = {
        "1|12.34|row 1|2024-02-28|2026-12-04 10:11:12|0|0",
        "2|-0.05|row 2|2025-02-28|2026-12-04 10:11:13|1|0.5",
        "3|999999.99|row 3|2026-02-28|2026-12-04 10:11:14|0|1",
    };
    int k = 0;
    while (SQL_SUCCEEDED(SQLFetch(st)) && k < NROWS) {
        char got[200] = "", cell[64];
        for (int c = 1; c <= 7; c++) {
            SQLLEN ind;
            SQLGetData(st, (SQLUSMALLINT)c, SQL_C_CHAR, cell, sizeof cell, &ind);
            strcat(got, c > 1 ? "|" : "");
            strcat(got, ind == SQL_NULL_DATA ? "NULL" : cell);
        }
        CHECK(strcmp(got, want[k]) == 0, "row %d: %s", k + 1, got);
        k++;
    }
    CHECK(k == NROWS, "%d rows read back", k);
    SQLFreeStmt(st, SQL_CLOSE);
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "odbcparams") != 0) return 1;
    env = odbc_test_env();
    dbc = odbc_test_connect(env, p.port);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    odbc_exec(st, "CREATE DATABASE odbcparams WITH LOG");
    describe(st);
    typed_array(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    return tap_done();
}
