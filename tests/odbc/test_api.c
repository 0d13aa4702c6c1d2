/* test_api.c: libixodbc through unixODBC's driver manager (libodbc), as a C
 * application calls it, against a real ixd: connecting (SQLDriverConnect,
 * SQLConnect, attributes), parameter arrays with their status array (one
 * batch; a failing row), block fetch with column-wise and row-wise binding
 * compared value for value with the SQLGetData path, SQLGetData in pieces
 * (01004 with the whole length), 07006, SQL_NUMERIC_STRUCT both ways,
 * diagnostics fields, transactions, SQLMoreResults, SQLCloseCursor,
 * SQLGetFunctions and SQLGetInfo; INTERVAL columns as SQL_INTERVAL_* (describe,
 * SQLGetData and block fetch into SQL_INTERVAL_STRUCT, parameters, the
 * catalogue). */
#include <pthread.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define NROWS 1000

static SQLHENV env;
static SQLHDBC dbc;

static void connect_both_ways(int port, const char *dir) {
    char cs[512], out[512];
    SQLSMALLINT outlen = 0;
    SQLHSTMT st;
    snprintf(cs, sizeof cs, "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;UID=informix;PWD=in4mix",
             port);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    OK(SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)5, 0), SQL_HANDLE_DBC, dbc);
    OK(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, (SQLCHAR *)out, sizeof out, &outlen,
                        SQL_DRIVER_NOPROMPT),
       SQL_HANDLE_DBC, dbc);
    CHECK(strstr(out, "HOST=127.0.0.1") != NULL, "out connection string: %s", out);
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    odbc_exec(st, "CREATE DATABASE odbcapi WITH LOG");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    /* the DSN of odbc.ini */
    (void)dir;
    OK(SQLConnect(dbc, (SQLCHAR *)"t", SQL_NTS, NULL, 0, NULL, 0), SQL_HANDLE_DBC, dbc);
    char db[64] = "";
    SQLINTEGER len = 0;
    OK(SQLGetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, db, sizeof db, &len), SQL_HANDLE_DBC, dbc);
    CHECK(strcmp(db, "odbcapi") == 0 && len == 7, "current catalog %s", db);
    SQLCHAR name[64];
    SQLSMALLINT nl;
    OK(SQLGetInfo(dbc, SQL_DBMS_NAME, name, sizeof name, &nl), SQL_HANDLE_DBC, dbc);
    CHECK(strcmp((char *)name, "Informix") == 0, "DBMS name %s", name);
    SQLUSMALLINT funcs[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    OK(SQLGetFunctions(dbc, SQL_API_ODBC3_ALL_FUNCTIONS, funcs), SQL_HANDLE_DBC, dbc);
    CHECK(SQL_FUNC_EXISTS(funcs, SQL_API_SQLFETCHSCROLL) &&
              SQL_FUNC_EXISTS(funcs, SQL_API_SQLBINDPARAMETER),
          "SQLGetFunctions");
    /* a refused login: 28000 and the SQLCODE */
    SQLHDBC bad;
    SQLINTEGER native = 0;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &bad);
    CHECK(SQLConnect(bad, (SQLCHAR *)"t", SQL_NTS, (SQLCHAR *)"nobody", SQL_NTS, (SQLCHAR *)"x",
                     SQL_NTS) == SQL_ERROR &&
              strcmp(odbc_state(SQL_HANDLE_DBC, bad, &native, NULL, 0), "28000") == 0 &&
              native == -951,
          "refused login: native %d", (int)native);
    SQLFreeHandle(SQL_HANDLE_DBC, bad);
}

/* NROWS rows as one parameter array (column-wise) */
static void param_array(SQLHSTMT st) {
    static SQLINTEGER ids[NROWS];
    static char names[NROWS][16];
    static SQLLEN name_ind[NROWS];
    static SQLUSMALLINT status[NROWS];
    SQLULEN done = 0;
    SQLLEN count = 0;
    odbc_exec(st,
              "CREATE TABLE tb (id INTEGER PRIMARY KEY, name VARCHAR(15), amount DECIMAL(10,2))");
    for (int i = 0; i < NROWS; i++) {
        ids[i] = i;
        name_ind[i] = i % 10 == 3 ? SQL_NULL_DATA : snprintf(names[i], 16, "name %d", i);
    }
    SQL_NUMERIC_STRUCT amount = {6, 2, 1, {0x39, 0x30}}; /* 123.45, bound once for every row */
    OK(SQLPrepare(st, (SQLCHAR *)"INSERT INTO tb VALUES (?, ?, ?)", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLSMALLINT np = 0;
    OK(SQLNumParams(st, &np), SQL_HANDLE_STMT, st);
    CHECK(np == 3, "SQLNumParams %d", np);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)NROWS, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, &done, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL);
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0, names, 16, name_ind);
    /* the same struct for every row: row-wise size 0 is column-wise, so
     * bind one amount for the first NROWS rows through an array */
    static SQL_NUMERIC_STRUCT amounts[NROWS];
    for (int i = 0; i < NROWS; i++)
        amounts[i] = amount;
    SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_NUMERIC, SQL_DECIMAL, 10, 2, amounts, 0, NULL);
    OK(SQLExecute(st), SQL_HANDLE_STMT, st);
    OK(SQLRowCount(st, &count), SQL_HANDLE_STMT, st);
    int good = 0;
    for (int i = 0; i < NROWS; i++)
        good += status[i] == SQL_PARAM_SUCCESS;
    CHECK(count == NROWS && done == NROWS && good == NROWS,
          "array insert: %ld rows, %lu done, %d ok", (long)count, (unsigned long)done, good);
    /* a failing row: the rows before it stand, the ones after are not sent */
    for (int i = 0; i < 5; i++)
        ids[i] = NROWS + i;
    ids[2] = 7; /* exists */
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)5, 0);
    SQLINTEGER native = 0;
    SQLRETURN rc = SQLExecute(st);
    const char *state = odbc_state(SQL_HANDLE_STMT, st, &native, NULL, 0);
    CHECK(rc == SQL_SUCCESS_WITH_INFO || rc == SQL_ERROR, "failing row rc %d", rc);
    CHECK(strcmp(state, "23000") == 0 && (native == -268 || native == -239), "failing row %s %d",
          state, (int)native);
    /* rows already in flight when the refusal came back still ran */
    CHECK(status[0] == SQL_PARAM_SUCCESS && status[1] == SQL_PARAM_SUCCESS &&
              status[2] == SQL_PARAM_ERROR &&
              (status[4] == SQL_PARAM_SUCCESS || status[4] == SQL_PARAM_UNUSED),
          "status %d %d %d %d %d", status[0], status[1], status[2], status[3], status[4]);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0);
    SQLFreeStmt(st, SQL_CLOSE);
}

/* every value of the query as text, through SQLGetData (the general path) */
static size_t texts_getdata(SQLHSTMT st, char *out, size_t cap) {
    size_t n = 0;
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT id, name, amount FROM tb ORDER BY id", SQL_NTS),
       SQL_HANDLE_STMT, st);
    while (SQLFetch(st) == SQL_SUCCESS) {
        SQLINTEGER id;
        char name[16], amount[16];
        SQLLEN ni, ai, ii;
        SQLGetData(st, 1, SQL_C_SLONG, &id, 0, &ii);
        SQLGetData(st, 2, SQL_C_CHAR, name, sizeof name, &ni);
        SQLGetData(st, 3, SQL_C_CHAR, amount, sizeof amount, &ai);
        n += (size_t)snprintf(out + n, cap - n, "%d|%s|%s\n", (int)id,
                              ni == SQL_NULL_DATA ? "NULL" : name,
                              ai == SQL_NULL_DATA ? "NULL" : amount);
    }
    SQLFreeStmt(st, SQL_CLOSE);
    return n;
}

static void block_fetch(SQLHSTMT st) {
    static char want[NROWS * 64], got[NROWS * 64];
    size_t wn = texts_getdata(st, want, sizeof want), gn = 0;
    CHECK(wn > 0 && strstr(want, "3|NULL|123.45\n") && strstr(want, "999|name 999|123.45\n"),
          "SQLGetData path");
    /* column-wise, 64 rows a call */
    enum { BLOCK = 64 };
    SQLINTEGER ids[BLOCK];
    char names[BLOCK][16], amounts[BLOCK][16];
    SQLLEN ii[BLOCK], ni[BLOCK], ai[BLOCK];
    SQLUSMALLINT status[BLOCK];
    SQLULEN fetched = 0;
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)BLOCK, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    SQLBindCol(st, 1, SQL_C_SLONG, ids, 0, ii);
    SQLBindCol(st, 2, SQL_C_CHAR, names, 16, ni);
    SQLBindCol(st, 3, SQL_C_CHAR, amounts, 16, ai);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT id, name, amount FROM tb ORDER BY id", SQL_NTS),
       SQL_HANDLE_STMT, st);
    int calls = 0, norow = 0, total = 0;
    SQLRETURN rc;
    while ((rc = SQLFetchScroll(st, SQL_FETCH_NEXT, 0)) == SQL_SUCCESS) {
        calls++;
        total += (int)fetched;
        for (SQLULEN r = 0; r < fetched; r++)
            gn += (size_t)snprintf(got + gn, sizeof got - gn, "%d|%s|%s\n", (int)ids[r],
                                   ni[r] == SQL_NULL_DATA ? "NULL" : names[r],
                                   ai[r] == SQL_NULL_DATA ? "NULL" : amounts[r]);
        for (SQLULEN r = fetched; r < BLOCK; r++)
            norow += status[r] == SQL_ROW_NOROW;
    }
    CHECK(rc == SQL_NO_DATA && calls == (total + BLOCK - 1) / BLOCK && total >= NROWS,
          "blocks: %d calls, %d rows, rc %d", calls, total, rc);
    CHECK(norow == (total % BLOCK ? BLOCK - total % BLOCK : 0),
          "SQL_ROW_NOROW in the last block: %d", norow);
    CHECK(gn == wn && memcmp(got, want, wn) == 0,
          "column-wise block fetch gives what SQLGetData gives");
    SQLFreeStmt(st, SQL_CLOSE);
    SQLFreeStmt(st, SQL_UNBIND);
    /* row-wise, 100 rows a call, and SQLFetch */
    struct row {
        SQLINTEGER id;
        SQLLEN ii;
        char name[16];
        SQLLEN ni;
        char amount[16];
        SQLLEN ai;
    } rows[100];
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)100, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)sizeof(struct row), 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, NULL, 0);
    SQLBindCol(st, 1, SQL_C_SLONG, &rows[0].id, 0, &rows[0].ii);
    SQLBindCol(st, 2, SQL_C_CHAR, rows[0].name, 16, &rows[0].ni);
    SQLBindCol(st, 3, SQL_C_CHAR, rows[0].amount, 16, &rows[0].ai);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT id, name, amount FROM tb ORDER BY id", SQL_NTS),
       SQL_HANDLE_STMT, st);
    gn = 0;
    while (SQLFetch(st) == SQL_SUCCESS)
        for (SQLULEN r = 0; r < fetched; r++)
            gn += (size_t)snprintf(got + gn, sizeof got - gn, "%d|%s|%s\n", (int)rows[r].id,
                                   rows[r].ni == SQL_NULL_DATA ? "NULL" : rows[r].name,
                                   rows[r].ai == SQL_NULL_DATA ? "NULL" : rows[r].amount);
    CHECK(gn == wn && memcmp(got, want, wn) == 0,
          "row-wise block fetch gives what SQLGetData gives");
    SQLFreeStmt(st, SQL_CLOSE);
    SQLFreeStmt(st, SQL_UNBIND);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)SQL_BIND_BY_COLUMN, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, NULL, 0);
}

static void getdata_and_describe(SQLHSTMT st) {
    odbc_exec(st, "CREATE TABLE tg (v VARCHAR(200), d DATE, n DECIMAL(12,4))");
    odbc_exec(st, "INSERT INTO tg VALUES ('abcdefghijklmnopqrstuvwxyz', '12/31/1999', -1234.5678)");
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT v, d, n FROM tg", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLSMALLINT ncols = 0, type = 0, digits = 0, nullable = 0, namelen = 0;
    SQLULEN size = 0;
    SQLCHAR cname[32], tname[32];
    SQLLEN num = 0;
    OK(SQLNumResultCols(st, &ncols), SQL_HANDLE_STMT, st);
    OK(SQLDescribeCol(st, 3, cname, sizeof cname, &namelen, &type, &size, &digits, &nullable),
       SQL_HANDLE_STMT, st);
    CHECK(ncols == 3 && strcmp((char *)cname, "n") == 0 && type == SQL_DECIMAL && size == 12 &&
              digits == 4 && nullable == SQL_NULLABLE,
          "describe n: %d %lu %d", type, (unsigned long)size, digits);
    OK(SQLColAttribute(st, 2, SQL_DESC_TYPE_NAME, tname, sizeof tname, NULL, NULL), SQL_HANDLE_STMT,
       st);
    OK(SQLColAttribute(st, 1, SQL_DESC_DISPLAY_SIZE, NULL, 0, NULL, &num), SQL_HANDLE_STMT, st);
    CHECK(strcmp((char *)tname, "DATE") == 0 && num == 200, "col attributes %s %ld", tname,
          (long)num);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    char piece[11];
    SQLLEN ind = 0;
    SQLRETURN rc = SQLGetData(st, 1, SQL_C_CHAR, piece, sizeof piece, &ind);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ind == 26 && strcmp(piece, "abcdefghij") == 0 &&
              strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "01004") == 0,
          "first piece %d %ld", rc, (long)ind);
    rc = SQLGetData(st, 1, SQL_C_CHAR, piece, sizeof piece, &ind);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ind == 16 && strcmp(piece, "klmnopqrst") == 0,
          "second piece");
    rc = SQLGetData(st, 1, SQL_C_CHAR, piece, sizeof piece, &ind);
    CHECK(rc == SQL_SUCCESS && ind == 6 && strcmp(piece, "uvwxyz") == 0, "last piece");
    CHECK(SQLGetData(st, 1, SQL_C_CHAR, piece, sizeof piece, &ind) == SQL_NO_DATA, "then no data");
    SQLINTEGER i32;
    char msg[512] = "";
    CHECK(SQLGetData(st, 2, SQL_C_SLONG, &i32, 0, &ind) == SQL_ERROR &&
              strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, msg, sizeof msg), "07006") == 0 &&
              strncmp(msg, "[ixdb][libixodbc]", 17) == 0,
          "DATE into an integer: 07006 %s", msg);
    SQL_NUMERIC_STRUCT ns;
    OK(SQLGetData(st, 3, SQL_C_NUMERIC, &ns, sizeof ns, &ind), SQL_HANDLE_STMT, st);
    CHECK(ns.sign == 0 && ns.scale == 4 && ns.val[0] == (12345678 & 0xff) &&
              ns.val[1] == ((12345678 >> 8) & 0xff) && ns.val[2] == ((12345678 >> 16) & 0xff),
          "numeric struct");
    SQL_DATE_STRUCT ds;
    OK(SQLGetData(st, 2, SQL_C_TYPE_DATE, &ds, sizeof ds, &ind), SQL_HANDLE_STMT, st);
    CHECK(ds.year == 1999 && ds.month == 12 && ds.day == 31, "date struct");
    CHECK(SQLMoreResults(st) == SQL_NO_DATA, "SQLMoreResults");
    CHECK(SQLCloseCursor(st) == SQL_ERROR &&
              strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "24000") == 0,
          "SQLCloseCursor with no cursor: 24000");
    /* diagnostics fields of a server error */
    CHECK(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM nosuch", SQL_NTS) == SQL_ERROR, "error");
    SQLINTEGER count = 0, native = 0;
    char state[6] = "";
    SQLSMALLINT len;
    SQLGetDiagField(SQL_HANDLE_STMT, st, 0, SQL_DIAG_NUMBER, &count, 0, NULL);
    SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_SQLSTATE, state, sizeof state, &len);
    SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_NATIVE, &native, 0, NULL);
    SQLGetDiagField(SQL_HANDLE_STMT, st, 1, SQL_DIAG_MESSAGE_TEXT, msg, sizeof msg, &len);
    CHECK(count == 1 && strcmp(state, "42S02") == 0 && native == -206 &&
              strcmp(msg,
                     "[ixdb][libixodbc]The specified table (nosuch) is not in the database.") == 0,
          "diag fields %d %s %d %s", (int)count, state, (int)native, msg);
}

/* Block fetch takes a direct path for integers into SQL_C_SLONG /
 * SQL_C_SBIGINT, FLOAT and SMALLFLOAT into SQL_C_DOUBLE, character types
 * into SQL_C_CHAR and DATE into SQL_C_TYPE_DATE: every such column, NULL, a
 * text cut (01004) and a value out of range (22003) read both ways, compared
 * byte for byte with SQLGetData's general path. */
enum { NDIRECT = 14, DROWS = 4, DBUF = 12 };
static void direct_vs_general(SQLHSTMT st) {
    static const SQLSMALLINT ct[NDIRECT] = {
        SQL_C_SLONG,  SQL_C_SLONG,     SQL_C_SBIGINT, SQL_C_SBIGINT, SQL_C_DOUBLE,
        SQL_C_DOUBLE, SQL_C_CHAR,      SQL_C_CHAR,    SQL_C_CHAR,    SQL_C_CHAR,
        SQL_C_CHAR,   SQL_C_TYPE_DATE, SQL_C_SLONG,   SQL_C_SLONG};
    odbc_exec(st,
              "CREATE TABLE tdir (a SMALLINT, b INTEGER, c INT8, d BIGINT, e FLOAT, f SMALLFLOAT, "
              "g CHAR(6), h VARCHAR(40), i NCHAR(5), j NVARCHAR(10), k LVARCHAR(100), l DATE, "
              "m SERIAL, n BIGINT)");
    odbc_exec(st, "INSERT INTO tdir VALUES (1, 2, 3, 4, 1.5, 2.5, 'ab', 'hello', 'x', 'y', 'lv', "
                  "'01/02/2024', 0, 5)");
    odbc_exec(
        st, "INSERT INTO tdir VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
            "NULL, NULL, 0, NULL)");
    odbc_exec(st,
              "INSERT INTO tdir VALUES (-32767, -2147483647, -9223372036854775807, "
              "9223372036854775807, -1e300, -3.25e38, 'abcdef', 'a text longer than the buffer', "
              "'abcde', 'exactly 11.', 'eleven char', '12/31/9999', 0, 9999999999)");
    odbc_exec(st, "INSERT INTO tdir VALUES (0, 0, 0, 0, 0, 0, '', '', '', '', '', '01/01/0001', 0, "
                  "-2147483648)");
    /* row-wise: each column's buffer is DBUF bytes whatever its C type */
    static struct drow {
        unsigned char v[NDIRECT][DBUF];
        SQLLEN ind[NDIRECT];
    } blk[DROWS];
    static unsigned char gen[NDIRECT][DROWS][DBUF];
    static SQLLEN gind[NDIRECT][DROWS];
    SQLUSMALLINT status[DROWS];
    SQLRETURN grc[DROWS];
    SQLULEN fetched = 0;
    memset(blk, 0xaa, sizeof blk);
    memset(gen, 0xaa, sizeof gen);
    for (int c = 0; c < NDIRECT; c++)
        for (int r = 0; r < DROWS; r++)
            blk[r].ind[c] = gind[c][r] = -99;
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)DROWS, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)sizeof(struct drow), 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    for (int c = 0; c < NDIRECT; c++)
        SQLBindCol(st, (SQLUSMALLINT)(c + 1), ct[c], blk[0].v[c], DBUF, &blk[0].ind[c]);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM tdir ORDER BY m", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLRETURN rc = SQLFetch(st);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && fetched == DROWS, "block fetch rc %d, %lu rows", rc,
          (unsigned long)fetched);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLFreeStmt(st, SQL_UNBIND);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)SQL_BIND_BY_COLUMN, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, NULL, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, NULL, 0);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM tdir ORDER BY m", SQL_NTS), SQL_HANDLE_STMT, st);
    for (int r = 0; r < DROWS && SQLFetch(st) == SQL_SUCCESS; r++) {
        grc[r] = SQL_SUCCESS;
        for (int c = 0; c < NDIRECT; c++) {
            SQLRETURN g =
                SQLGetData(st, (SQLUSMALLINT)(c + 1), ct[c], gen[c][r], DBUF, &gind[c][r]);
            if (g == SQL_ERROR)
                grc[r] = SQL_ERROR;
            else if (g == SQL_SUCCESS_WITH_INFO && grc[r] == SQL_SUCCESS)
                grc[r] = g;
        }
    }
    SQLFreeStmt(st, SQL_CLOSE);
    int diff = 0;
    for (int c = 0; c < NDIRECT; c++)
        for (int r = 0; r < DROWS; r++)
            if (memcmp(blk[r].v[c], gen[c][r], DBUF) != 0 || blk[r].ind[c] != gind[c][r]) {
                diff++;
                CHECK(0, "column %d row %d: ind %ld / %ld", c + 1, r + 1, (long)blk[r].ind[c],
                      (long)gind[c][r]);
            }
    CHECK(diff == 0, "direct block fetch equals SQLGetData: %d differences", diff);
    SQLUSMALLINT want[DROWS] = {SQL_ROW_SUCCESS, SQL_ROW_SUCCESS, SQL_ROW_ERROR, SQL_ROW_SUCCESS};
    for (int r = 0; r < DROWS; r++)
        CHECK(status[r] == want[r] && (grc[r] == SQL_SUCCESS) == (want[r] == SQL_ROW_SUCCESS),
              "row %d: status %d, SQLGetData %d", r + 1, status[r], grc[r]);
    CHECK(blk[1].ind[12] > 0 && blk[1].ind[0] == SQL_NULL_DATA && blk[2].ind[7] == 29 &&
              blk[2].ind[10] == 11,
          "NULL, a SERIAL, a cut text's whole length, a text that just fits: %ld %ld %ld %ld",
          (long)blk[1].ind[12], (long)blk[1].ind[0], (long)blk[2].ind[7], (long)blk[2].ind[10]);
}

/* SQLCancel from another thread while a statement runs on the connection:
 * the statement ends with HY008 and the SQLCODE -213, the connection goes on */
typedef struct cancel_run {
    SQLHSTMT st;
    _Atomic int done;
    SQLRETURN rc;
    SQLINTEGER native;
    char state[6];
} cancel_run;

static void *run_long(void *arg) {
    cancel_run *c = arg;
    c->rc = SQLExecDirect(c->st, (SQLCHAR *)"SELECT COUNT(*) FROM n a, n b, n c", SQL_NTS);
    snprintf(c->state, sizeof c->state, "%s",
             odbc_state(SQL_HANDLE_STMT, c->st, &c->native, NULL, 0));
    c->done = 1;
    return NULL;
}

static void cancel_from_another_thread(SQLHSTMT st) {
    static SQLINTEGER ids[2000];
    for (int i = 0; i < 2000; i++)
        ids[i] = i;
    odbc_exec(st, "CREATE TABLE n (i INTEGER)");
    OK(SQLPrepare(st, (SQLCHAR *)"INSERT INTO n VALUES (?)", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)2000, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL);
    OK(SQLExecute(st), SQL_HANDLE_STMT, st);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
    SQLHSTMT st2;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st2);
    cancel_run c = {st2, 0, 0, 0, ""};
    pthread_t t;
    pthread_create(&t, NULL, run_long, &c);
    /* until the statement is seen running (a cancel before it only closes
     * the idle statement's cursor) */
    SQLRETURN rc = SQL_ERROR;
    for (int i = 0; i < 100 && !c.done; i++) {
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (!c.done) rc = SQLCancel(st2);
    }
    pthread_join(t, NULL);
    CHECK(rc == SQL_SUCCESS && c.rc == SQL_ERROR && strcmp(c.state, "HY008") == 0 &&
              c.native == -213,
          "cancelled: %d %d %s %d", rc, c.rc, c.state, (int)c.native);
    SQLINTEGER one = 0;
    SQLLEN ind;
    OK(SQLExecDirect(st2, (SQLCHAR *)"SELECT COUNT(*) FROM n", SQL_NTS), SQL_HANDLE_STMT, st2);
    SQLFetch(st2);
    SQLGetData(st2, 1, SQL_C_SLONG, &one, 0, &ind);
    CHECK(one == 2000, "the connection after the cancel: %d", (int)one);
    SQLFreeHandle(SQL_HANDLE_STMT, st2);
}

static void transactions(SQLHSTMT st) {
    odbc_exec(st, "CREATE TABLE tt (n INTEGER)");
    OK(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0),
       SQL_HANDLE_DBC, dbc);
    odbc_exec(st, "INSERT INTO tt VALUES (1)");
    OK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK), SQL_HANDLE_DBC, dbc);
    odbc_exec(st, "INSERT INTO tt VALUES (2)");
    OK(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_COMMIT), SQL_HANDLE_DBC, dbc);
    OK(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0),
       SQL_HANDLE_DBC, dbc);
    SQLINTEGER n = 0, sum = 0;
    SQLLEN ind;
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT COUNT(*), SUM(n) FROM tt", SQL_NTS), SQL_HANDLE_STMT,
       st);
    SQLFetch(st);
    SQLGetData(st, 1, SQL_C_SLONG, &n, 0, &ind);
    SQLGetData(st, 2, SQL_C_SLONG, &sum, 0, &ind);
    CHECK(n == 1 && sum == 2, "rollback then commit: %d rows, sum %d", (int)n, (int)sum);
    SQLFreeStmt(st, SQL_CLOSE);
    /* a searched UPDATE that touches no row: SQL_NO_DATA */
    CHECK(SQLExecDirect(st, (SQLCHAR *)"UPDATE tt SET n = 3 WHERE n = 99", SQL_NTS) == SQL_NO_DATA,
          "update of no row");
    CHECK(SQLCancel(st) == SQL_SUCCESS, "SQLCancel on an idle statement");
}

/* ---- INTERVAL columns as SQL_INTERVAL_* ---- */

static SQLLEN col_num(SQLHSTMT st, int col, SQLUSMALLINT field) {
    SQLLEN num = -1;
    OK(SQLColAttribute(st, (SQLUSMALLINT)col, field, NULL, 0, NULL, &num), SQL_HANDLE_STMT, st);
    return num;
}

static int day_second(const SQL_INTERVAL_STRUCT *is, int neg, unsigned d, unsigned h, unsigned m,
                      unsigned sec, unsigned frac) {
    const SQL_DAY_SECOND_STRUCT *f = &is->intval.day_second;
    return is->interval_sign == (neg ? SQL_TRUE : SQL_FALSE) && f->day == d && f->hour == h &&
           f->minute == m && f->second == sec && f->fraction == frac;
}

/* SQLDescribeCol and SQLColAttribute of DAY(3) TO FRACTION(5), YEAR TO
 * MONTH and HOUR TO MINUTE */
static void interval_describe(SQLHSTMT st) {
    static const struct {
        SQLSMALLINT type, code;
        SQLULEN size;
        SQLSMALLINT digits;
        SQLLEN lead;
    } want[] = {
        {SQL_INTERVAL_DAY_TO_SECOND, SQL_CODE_DAY_TO_SECOND, 18, 5, 3},
        {SQL_INTERVAL_YEAR_TO_MONTH, SQL_CODE_YEAR_TO_MONTH, 7, 0, 4},
        {SQL_INTERVAL_HOUR_TO_MINUTE, SQL_CODE_HOUR_TO_MINUTE, 5, 0, 2},
    };
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT d, ym, hm FROM ti ORDER BY id", SQL_NTS),
       SQL_HANDLE_STMT, st);
    for (int c = 0; c < 3; c++) {
        SQLSMALLINT type = 0, digits = -1, nullable = 0, namelen = 0;
        SQLULEN size = 0;
        SQLCHAR name[32];
        OK(SQLDescribeCol(st, (SQLUSMALLINT)(c + 1), name, sizeof name, &namelen, &type, &size,
                          &digits, &nullable),
           SQL_HANDLE_STMT, st);
        CHECK(type == want[c].type && size == want[c].size && digits == want[c].digits,
              "describe interval %d: %d %lu %d", c + 1, type, (unsigned long)size, digits);
        SQLLEN dtype = col_num(st, c + 1, SQL_DESC_TYPE),
               concise = col_num(st, c + 1, SQL_DESC_CONCISE_TYPE),
               code = col_num(st, c + 1, SQL_DESC_DATETIME_INTERVAL_CODE),
               lead = col_num(st, c + 1, SQL_DESC_DATETIME_INTERVAL_PRECISION),
               prec = col_num(st, c + 1, SQL_DESC_PRECISION),
               len = col_num(st, c + 1, SQL_DESC_LENGTH),
               disp = col_num(st, c + 1, SQL_DESC_DISPLAY_SIZE),
               octets = col_num(st, c + 1, SQL_DESC_OCTET_LENGTH);
        CHECK(dtype == SQL_INTERVAL && concise == want[c].type && code == want[c].code &&
                  lead == want[c].lead && prec == want[c].digits && len == (SQLLEN)want[c].size &&
                  disp == (SQLLEN)want[c].size + 1 && octets == (SQLLEN)sizeof(SQL_INTERVAL_STRUCT),
              "attributes of interval %d: type %ld concise %ld code %ld lead %ld prec %ld len %ld "
              "display %ld octets %ld",
              c + 1, (long)dtype, (long)concise, (long)code, (long)lead, (long)prec, (long)len,
              (long)disp, (long)octets);
    }
    SQLFreeStmt(st, SQL_CLOSE);
}

/* SQLGetData into interval structs, text and numbers; negative values; NULL */
static void interval_getdata(SQLHSTMT st) {
    SQL_INTERVAL_STRUCT is;
    SQLLEN ind = 0;
    char text[32];
    SQLINTEGER i32;
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT d, ym, hm FROM ti ORDER BY id", SQL_NTS),
       SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    OK(SQLGetData(st, 1, SQL_C_INTERVAL_DAY_TO_SECOND, &is, sizeof is, &ind), SQL_HANDLE_STMT, st);
    CHECK(ind == sizeof is && is.interval_type == SQL_IS_DAY_TO_SECOND &&
              day_second(&is, 0, 3, 3, 27, 1, 123450),
          "DAY TO FRACTION(5) into SQL_C_INTERVAL_DAY_TO_SECOND");
    OK(SQLGetData(st, 2, SQL_C_CHAR, text, sizeof text, &ind), SQL_HANDLE_STMT, st);
    CHECK(strcmp(text, "  12-06") == 0 && ind == 7, "YEAR TO MONTH as text '%s'", text);
    SQLRETURN rc = SQLGetData(st, 3, SQL_C_SLONG, &i32, 0, &ind);
    CHECK(rc == SQL_ERROR && strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "07006") == 0,
          "HOUR TO MINUTE as SQL_C_SLONG: 07006");
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    OK(SQLGetData(st, 1, SQL_C_INTERVAL_DAY_TO_SECOND, &is, sizeof is, &ind), SQL_HANDLE_STMT, st);
    CHECK(day_second(&is, 1, 100, 0, 0, 0, 500000), "negative DAY TO FRACTION(5)");
    OK(SQLGetData(st, 2, SQL_C_INTERVAL_YEAR_TO_MONTH, &is, sizeof is, &ind), SQL_HANDLE_STMT, st);
    CHECK(is.interval_type == SQL_IS_YEAR_TO_MONTH && is.interval_sign == SQL_TRUE &&
              is.intval.year_month.year == 1 && is.intval.year_month.month == 1,
          "negative YEAR TO MONTH");
    OK(SQLGetData(st, 3, SQL_C_CHAR, text, sizeof text, &ind), SQL_HANDLE_STMT, st);
    CHECK(strcmp(text, "-23:59") == 0, "negative HOUR TO MINUTE as text '%s'", text);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    OK(SQLGetData(st, 1, SQL_C_INTERVAL_DAY_TO_SECOND, &is, sizeof is, &ind), SQL_HANDLE_STMT, st);
    CHECK(ind == SQL_NULL_DATA, "NULL interval");
    SQLFreeStmt(st, SQL_CLOSE);
}

/* a block fetch of 3 rows with SQLBindCol: structs column-wise, text */
static void interval_block(SQLHSTMT st) {
    SQL_INTERVAL_STRUCT d[3], hm[3];
    SQLLEN dind[3], hmind[3], ymind[3];
    char ym[3][16];
    SQLULEN fetched = 0;
    memset(d, 0, sizeof d);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT d, ym, hm FROM ti WHERE id <= 3 ORDER BY id", SQL_NTS),
       SQL_HANDLE_STMT, st);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)3, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    SQLBindCol(st, 1, SQL_C_INTERVAL_DAY_TO_SECOND, d, sizeof d[0], dind);
    SQLBindCol(st, 2, SQL_C_CHAR, ym, sizeof ym[0], ymind);
    SQLBindCol(st, 3, SQL_C_DEFAULT, hm, sizeof hm[0], hmind);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    CHECK(fetched == 3 && day_second(&d[0], 0, 3, 3, 27, 1, 123450) &&
              day_second(&d[1], 1, 100, 0, 0, 0, 500000) && dind[2] == SQL_NULL_DATA,
          "block of DAY TO FRACTION(5): %lu rows", (unsigned long)fetched);
    CHECK(strcmp(ym[0], "  12-06") == 0 && strcmp(ym[1], "  -1-01") == 0 &&
              ymind[2] == SQL_NULL_DATA,
          "block of YEAR TO MONTH text '%s' '%s'", ym[0], ym[1]);
    CHECK(hm[0].interval_type == SQL_IS_HOUR_TO_MINUTE && day_second(&hm[0], 0, 0, 5, 30, 0, 0) &&
              day_second(&hm[1], 1, 0, 23, 59, 0, 0) && hmind[1] == sizeof hm[0],
          "block of HOUR TO MINUTE (SQL_C_DEFAULT)");
    SQLFreeStmt(st, SQL_UNBIND);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, NULL, 0);
}

/* parameters: SQL_C_INTERVAL_* structs and text with SQL_INTERVAL_*
 * types, read back; a field that overflows is 22015 */
static void interval_params(SQLHSTMT st) {
    SQL_INTERVAL_STRUCT d, ym, back;
    SQLINTEGER id = 4;
    SQLLEN ind = 0;
    memset(&d, 0, sizeof d);
    memset(&ym, 0, sizeof ym);
    d.interval_type = SQL_IS_DAY_TO_SECOND;
    d.interval_sign = SQL_TRUE;
    d.intval.day_second = (SQL_DAY_SECOND_STRUCT){2, 1, 2, 3, 456000};
    ym.interval_type = SQL_IS_YEAR_TO_MONTH;
    ym.intval.year_month.year = 7;
    ym.intval.year_month.month = 11;
    OK(SQLPrepare(st, (SQLCHAR *)"INSERT INTO ti VALUES (?, ?, ?, ?)", SQL_NTS), SQL_HANDLE_STMT,
       st);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL);
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_INTERVAL_DAY_TO_SECOND,
                     SQL_INTERVAL_DAY_TO_SECOND, 18, 5, &d, 0, NULL);
    SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_INTERVAL_YEAR_TO_MONTH,
                     SQL_INTERVAL_YEAR_TO_MONTH, 7, 0, &ym, 0, NULL);
    SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_INTERVAL_HOUR_TO_MINUTE, 5, 0,
                     (SQLPOINTER) "-7:05", 0, NULL);
    OK(SQLExecute(st), SQL_HANDLE_STMT, st);
    /* 22015: DecimalDigits 0 ends the qualifier at SECOND, the fraction does not fit */
    id = 5;
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_INTERVAL_DAY_TO_SECOND,
                     SQL_INTERVAL_DAY_TO_SECOND, 18, 0, &d, 0, NULL);
    CHECK(SQLExecute(st) == SQL_ERROR &&
              strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "22015") == 0,
          "a fraction for SECOND: 22015");
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_INTERVAL_DAY_TO_SECOND,
                     SQL_INTERVAL_DAY_TO_SECOND, 18, 5, &d, 0, NULL);
    /* 22015: a day of 10 digits */
    d.intval.day_second.day = 1000000000;
    CHECK(SQLExecute(st) == SQL_ERROR &&
              strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "22015") == 0,
          "10-digit day parameter: 22015");
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLFreeStmt(st, SQL_CLOSE);
    /* read back, and a struct in a WHERE clause */
    d.intval.day_second.day = 2;
    OK(SQLPrepare(st, (SQLCHAR *)"SELECT d, ym, hm FROM ti WHERE d = ?", SQL_NTS), SQL_HANDLE_STMT,
       st);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_INTERVAL_DAY_TO_SECOND,
                     SQL_INTERVAL_DAY_TO_SECOND, 18, 5, &d, 0, NULL);
    OK(SQLExecute(st), SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    OK(SQLGetData(st, 1, SQL_C_INTERVAL_DAY_TO_SECOND, &back, sizeof back, &ind), SQL_HANDLE_STMT,
       st);
    CHECK(memcmp(&back, &d, sizeof d) == 0, "DAY TO SECOND round trip");
    OK(SQLGetData(st, 2, SQL_C_INTERVAL_YEAR_TO_MONTH, &back, sizeof back, &ind), SQL_HANDLE_STMT,
       st);
    CHECK(memcmp(&back, &ym, sizeof ym) == 0, "YEAR TO MONTH round trip");
    OK(SQLGetData(st, 3, SQL_C_INTERVAL_HOUR_TO_MINUTE, &back, sizeof back, &ind), SQL_HANDLE_STMT,
       st);
    CHECK(day_second(&back, 1, 0, 7, 5, 0, 0), "HOUR TO MINUTE from text");
    CHECK(SQLFetch(st) == SQL_NO_DATA, "one row");
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLFreeStmt(st, SQL_CLOSE);
}

/* SQLGetTypeInfo and SQLColumns of the interval types */
static void interval_catalog(SQLHSTMT st) {
    char name[64] = "";
    SQLSMALLINT dtype = 0, sqltype = 0, sub = 0, lead = 0;
    SQLLEN ind = 0;
    OK(SQLGetTypeInfo(st, SQL_INTERVAL_DAY_TO_SECOND), SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    SQLGetData(st, 1, SQL_C_CHAR, name, sizeof name, &ind);
    SQLGetData(st, 2, SQL_C_SSHORT, &dtype, 0, &ind);
    SQLGetData(st, 16, SQL_C_SSHORT, &sqltype, 0, &ind);
    SQLGetData(st, 17, SQL_C_SSHORT, &sub, 0, &ind);
    SQLGetData(st, 19, SQL_C_SSHORT, &lead, 0, &ind);
    CHECK(strcmp(name, "INTERVAL DAY(9) TO FRACTION(5)") == 0 &&
              dtype == SQL_INTERVAL_DAY_TO_SECOND && sqltype == SQL_INTERVAL &&
              sub == SQL_CODE_DAY_TO_SECOND && lead == 9,
          "type info %s %d %d %d %d", name, dtype, sqltype, sub, lead);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLINTEGER size = 0;
    SQLSMALLINT digits = 0;
    OK(SQLColumns(st, NULL, 0, NULL, 0, (SQLCHAR *)"ti", SQL_NTS, (SQLCHAR *)"d", SQL_NTS),
       SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    SQLGetData(st, 5, SQL_C_SSHORT, &dtype, 0, &ind);
    SQLGetData(st, 7, SQL_C_SLONG, &size, 0, &ind);
    SQLGetData(st, 9, SQL_C_SSHORT, &digits, 0, &ind);
    SQLGetData(st, 14, SQL_C_SSHORT, &sqltype, 0, &ind);
    SQLGetData(st, 15, SQL_C_SSHORT, &sub, 0, &ind);
    CHECK(dtype == SQL_INTERVAL_DAY_TO_SECOND && size == 18 && digits == 5 &&
              sqltype == SQL_INTERVAL && sub == SQL_CODE_DAY_TO_SECOND,
          "SQLColumns of d: %d %d %d %d %d", dtype, (int)size, digits, sqltype, sub);
    SQLFreeStmt(st, SQL_CLOSE);
}

static void intervals(SQLHSTMT st) {
    odbc_exec(st, "CREATE TABLE ti (id INTEGER, d INTERVAL DAY(3) TO FRACTION(5), "
                  "ym INTERVAL YEAR TO MONTH, hm INTERVAL HOUR TO MINUTE)");
    odbc_exec(st, "INSERT INTO ti VALUES (1, '3 03:27:01.12345', '12-06', '5:30')");
    odbc_exec(st, "INSERT INTO ti VALUES (2, '-100 00:00:00.5', '-1-01', '-23:59')");
    odbc_exec(st, "INSERT INTO ti VALUES (3, NULL, NULL, NULL)");
    interval_describe(st);
    interval_getdata(st);
    interval_block(st);
    interval_params(st);
    interval_catalog(st);
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "odbcapi") != 0) return 1;
    env = odbc_test_env();
    connect_both_ways(p.port, p.dir);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    param_array(st);
    block_fetch(st);
    getdata_and_describe(st);
    direct_vs_general(st);
    cancel_from_another_thread(st);
    transactions(st);
    intervals(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    return tap_done();
}
