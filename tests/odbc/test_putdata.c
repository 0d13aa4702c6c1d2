/* test_putdata.c: data at execution through unixODBC's driver manager
 * (libodbc) against a real ixd: SQL_DATA_AT_EXEC and SQL_LEN_DATA_AT_EXEC(n)
 * parameters mixed with ordinary ones, SQLExecute and SQLExecDirect
 * answering SQL_NEED_DATA, SQLParamData naming each parameter by its token,
 * SQLPutData in pieces (10 x 10,000 bytes of text and of bytes into TEXT and
 * BYTE, read back and compared; SQL_NTS pieces; SQL_C_WCHAR pieces split
 * inside a unit and inside a surrogate pair), NULL, a fixed-size C type in
 * one piece (a second is HY019), an error after the last SQLParamData, a
 * searched UPDATE of no row (SQL_NO_DATA), a query, HY010 sequences,
 * SQLCancel in the middle and a normal execution after it, parameter
 * arrays (column-wise and row-wise: a token per row), 22026, 22018, HY020,
 * HY090, and SQLGetFunctions. Then the driver alone (dlopen, no driver
 * manager): its own HY010 for the other statement functions while data is
 * wanted, and HY020 for NULL after data. */
#include <dlfcn.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define BIG   100000 /* bytes of a long value */
#define PIECE 10000  /* bytes of one SQLPutData piece */

static SQLHENV env;
static SQLHDBC dbc;

#define OKS(call, st)                                                                              \
    do {                                                                                           \
        SQLRETURN rc_ = (call);                                                                    \
        CHECK(SQL_SUCCEEDED(rc_), "%s: %d %s", #call, rc_,                                         \
              odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0));                                     \
    } while (0)

/* call answers rc; with state (not NULL) that SQLSTATE */
#define EXPECT(call, rc, state, st)                                                                \
    do {                                                                                           \
        SQLRETURN rc_ = (call);                                                                    \
        const char *s_ = rc_ == SQL_ERROR ? odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0) : "";   \
        CHECK(rc_ == (rc) && (!(state) || strcmp(s_, (state) ? (state) : "") == 0),                \
              "%s: %d %s, wanted %d %s", #call, rc_, s_, rc, (state) ? (state) : "");              \
    } while (0)

/* SQLParamData answers SQL_NEED_DATA with token */
static void want_token(SQLHSTMT st, SQLPOINTER token) {
    SQLPOINTER got = NULL;
    SQLRETURN rc = SQLParamData(st, &got);
    CHECK(rc == SQL_NEED_DATA && got == token, "SQLParamData: %d %s, token %p, wanted %p", rc,
          odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), got, token);
}

/* n bytes of p in pieces of piece bytes */
static void put_pieces(SQLHSTMT st, const void *p, size_t n, size_t piece) {
    for (size_t o = 0; o < n; o += piece) {
        size_t k = n - o < piece ? n - o : piece;
        OKS(SQLPutData(st, (SQLPOINTER)((const char *)p + o), (SQLLEN)k), st);
    }
}

/* column col of the first row of sql as ctype (SQL_C_CHAR or SQL_C_BINARY)
 * into buf (cap bytes); its length, or SQL_NULL_DATA / -2 on failure */
static SQLLEN read_value(SQLHSTMT st, const char *sql, int col, SQLSMALLINT ctype, void *buf,
                         size_t cap) {
    SQLLEN ind = -2;
    if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)) ||
        !SQL_SUCCEEDED(SQLFetch(st)) ||
        !SQL_SUCCEEDED(SQLGetData(st, (SQLUSMALLINT)col, ctype, buf, (SQLLEN)cap, &ind)))
        ind = -2;
    SQLFreeStmt(st, SQL_CLOSE);
    return ind;
}

static char *text, *bytes, *back;

/* two data-at-execution parameters between two ordinary ones, 10 pieces
 * of 10,000 bytes each into TEXT and BYTE; then NULL for both */
static void several(SQLHSTMT st) {
    odbc_exec(st, "CREATE TABLE tp (id INTEGER, tx TEXT, bt BYTE, v VARCHAR(40))");
    OKS(SQLPrepare(st, (SQLCHAR *)"INSERT INTO tp VALUES (?, ?, ?, ?)", SQL_NTS), st);
    SQLINTEGER id = 1;
    SQLLEN tx_ind = SQL_DATA_AT_EXEC, by_ind = SQL_LEN_DATA_AT_EXEC(BIG), v_ind = SQL_NTS;
    char v[] = "ordinary";
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL), st);
    OKS(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, BIG, 0, (SQLPOINTER)2,
                         0, &tx_ind),
        st);
    OKS(SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_LONGVARBINARY, BIG, 0,
                         (SQLPOINTER)3, 0, &by_ind),
        st);
    OKS(SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 40, 0, v, 0, &v_ind), st);
    EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)2);
    put_pieces(st, text, BIG, PIECE);
    want_token(st, (SQLPOINTER)3);
    put_pieces(st, bytes, BIG, PIECE);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    SQLLEN n = 0;
    OKS(SQLRowCount(st, &n), st);
    CHECK(n == 1, "rows %ld", (long)n);
    /* NULL for both (SQL_NULL_DATA in SQLPutData) */
    id = 2;
    strcpy(v, "second");
    EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)2);
    OKS(SQLPutData(st, NULL, SQL_NULL_DATA), st);
    want_token(st, (SQLPOINTER)3);
    OKS(SQLPutData(st, NULL, SQL_NULL_DATA), st);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    n = read_value(st, "SELECT tx FROM tp WHERE id = 1", 1, SQL_C_CHAR, back, BIG + 1);
    CHECK(n == BIG && memcmp(back, text, BIG) == 0, "TEXT read back: %ld bytes", (long)n);
    n = read_value(st, "SELECT bt FROM tp WHERE id = 1", 1, SQL_C_BINARY, back, BIG);
    CHECK(n == BIG && memcmp(back, bytes, BIG) == 0, "BYTE read back: %ld bytes", (long)n);
    n = read_value(st, "SELECT v FROM tp WHERE id = 1", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 8 && strcmp(back, "ordinary") == 0, "VARCHAR read back: %s", back);
    n = read_value(st, "SELECT tx FROM tp WHERE id = 2", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == SQL_NULL_DATA, "TEXT NULL: %ld", (long)n);
    n = read_value(st, "SELECT bt FROM tp WHERE id = 2", 1, SQL_C_BINARY, back, BIG);
    CHECK(n == SQL_NULL_DATA, "BYTE NULL: %ld", (long)n);
}

/* SQLExecDirect with SQL_NTS pieces and SQL_LEN_DATA_AT_EXEC(0) (the length
 * is not needed: SQL_NEED_LONG_DATA_LEN is "N"); a query with a
 * data-at-execution parameter; a searched UPDATE of no row */
static void direct(SQLHSTMT st) {
    SQLLEN ind = SQL_LEN_DATA_AT_EXEC(0), n = 0;
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, (SQLPOINTER)7,
                         0, &ind),
        st);
    EXPECT(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO tp (id, tx) VALUES (3, ?)", SQL_NTS),
           SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)7);
    OKS(SQLPutData(st, "abc", SQL_NTS), st);
    OKS(SQLPutData(st, "", SQL_NTS), st);
    OKS(SQLPutData(st, "defg", SQL_NTS), st);
    OKS(SQLPutData(st, "hij-not-this", 3), st);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    OKS(SQLRowCount(st, &n), st);
    CHECK(n == 1, "rows %ld", (long)n);
    n = read_value(st, "SELECT tx FROM tp WHERE id = 3", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 10 && strcmp(back, "abcdefghij") == 0, "SQL_NTS pieces: %s", back);
    /* a query: the result is there after the last SQLParamData */
    ind = SQL_DATA_AT_EXEC;
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 40, 0, (SQLPOINTER)8, 0,
                         &ind),
        st);
    EXPECT(SQLExecDirect(st, (SQLCHAR *)"SELECT id FROM tp WHERE v = ?", SQL_NTS), SQL_NEED_DATA,
           NULL, st);
    want_token(st, (SQLPOINTER)8);
    put_pieces(st, "ordinary", 8, 3);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    SQLINTEGER id = 0;
    OKS(SQLFetch(st), st);
    OKS(SQLGetData(st, 1, SQL_C_SLONG, &id, 0, NULL), st);
    CHECK(id == 1, "query with a data-at-execution parameter: id %d", (int)id);
    EXPECT(SQLFetch(st), SQL_NO_DATA, NULL, st);
    SQLFreeStmt(st, SQL_CLOSE);
    /* a searched UPDATE of no row: SQL_NO_DATA from SQLParamData */
    EXPECT(SQLExecDirect(st, (SQLCHAR *)"UPDATE tp SET v = ? WHERE id = 999", SQL_NTS),
           SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)8);
    OKS(SQLPutData(st, "x", 1), st);
    EXPECT(SQLParamData(st, NULL), SQL_NO_DATA, NULL, st);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
}

/* errors after the last SQLParamData: an unknown table (SQLExecDirect
 * prepares at the first step) and a duplicate key on a prepared INSERT;
 * the statement runs again afterwards */
static void failing(SQLHSTMT st) {
    SQLLEN ind = SQL_DATA_AT_EXEC, n = 0;
    SQLINTEGER id = 1;
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, (SQLPOINTER)1,
                         0, &ind),
        st);
    EXPECT(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO nosuch VALUES (?)", SQL_NTS), SQL_NEED_DATA,
           NULL, st);
    want_token(st, (SQLPOINTER)1);
    OKS(SQLPutData(st, "x", 1), st);
    EXPECT(SQLParamData(st, NULL), SQL_ERROR, "42S02", st);
    odbc_exec(st, "CREATE TABLE tu (id INTEGER PRIMARY KEY, tx TEXT)");
    OKS(SQLPrepare(st, (SQLCHAR *)"INSERT INTO tu VALUES (?, ?)", SQL_NTS), st);
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL), st);
    OKS(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, (SQLPOINTER)2,
                         0, &ind),
        st);
    for (int round = 0; round < 2; round++) {
        EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
        want_token(st, (SQLPOINTER)2);
        put_pieces(st, text, 5000, 1000);
        if (round == 0)
            EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
        else
            EXPECT(SQLParamData(st, NULL), SQL_ERROR, "23000", st);
    }
    id = 2;
    EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)2);
    OKS(SQLPutData(st, "second", 6), st);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    n = read_value(st, "SELECT COUNT(*) FROM tu", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 1 && strcmp(back, "2") == 0, "rows after the duplicate: %s", back);
}

/* function sequence errors, and SQLCancel in the middle */
static void sequences(SQLHSTMT st) {
    SQLLEN ind = SQL_DATA_AT_EXEC;
    SQLINTEGER id = 10;
    SQLPOINTER tok = NULL;
    EXPECT(SQLParamData(st, &tok), SQL_ERROR, "HY010", st);
    EXPECT(SQLPutData(st, "x", 1), SQL_ERROR, "HY010", st);
    OKS(SQLPrepare(st, (SQLCHAR *)"INSERT INTO tp (id, tx) VALUES (?, ?)", SQL_NTS), st);
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL), st);
    OKS(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, (SQLPOINTER)5,
                         0, &ind),
        st);
    EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
    EXPECT(SQLPutData(st, "x", 1), SQL_ERROR, "HY010", st); /* before SQLParamData */
    EXPECT(SQLExecute(st), SQL_ERROR, "HY010", st);
    EXPECT(SQLFreeStmt(st, SQL_CLOSE), SQL_ERROR, "HY010", st);
    want_token(st, (SQLPOINTER)5);
    EXPECT(SQLParamData(st, &tok), SQL_ERROR, "HY010", st); /* no SQLPutData yet */
    EXPECT(SQLFetch(st), SQL_ERROR, "HY010", st);
    OKS(SQLPutData(st, "cancelled", 9), st);
    /* SQLCancel: the statement is prepared again, nothing was inserted */
    OKS(SQLCancel(st), st);
    EXPECT(SQLParamData(st, &tok), SQL_ERROR, "HY010", st);
    EXPECT(SQLPutData(st, "x", 1), SQL_ERROR, "HY010", st);
    ind = SQL_NTS;
    OKS(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, "normal", 0,
                         &ind),
        st);
    OKS(SQLExecute(st), st);
    SQLLEN n = read_value(st, "SELECT tx FROM tp WHERE id = 10", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 6 && strcmp(back, "normal") == 0, "after SQLCancel: %ld %s", (long)n, back);
    /* SQLCancel after SQLExecDirect, then SQLExecDirect again */
    ind = SQL_DATA_AT_EXEC;
    OKS(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, (SQLPOINTER)6,
                         0, &ind),
        st);
    id = 11;
    const char *ins = "INSERT INTO tp (id, tx) VALUES (?, ?)";
    EXPECT(SQLExecDirect(st, (SQLCHAR *)ins, SQL_NTS), SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)6);
    OKS(SQLCancel(st), st);
    EXPECT(SQLExecute(st), SQL_ERROR, "HY010", st); /* not prepared: SQLExecDirect ran */
    EXPECT(SQLExecDirect(st, (SQLCHAR *)ins, SQL_NTS), SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)6);
    OKS(SQLPutData(st, "again", 5), st);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    n = read_value(st, "SELECT COUNT(*) FROM tp WHERE id = 11 AND tx LIKE 'again'", 1, SQL_C_CHAR,
                   back, BIG);
    CHECK(n == 1 && strcmp(back, "1") == 0, "after a cancelled SQLExecDirect: %s", back);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
}

/* a one-parameter INSERT INTO tp (id, x) with x bound as ctype / sqltype
 * at execution; SQLExecute answers SQL_NEED_DATA and SQLParamData the token */
static void start_one(SQLHSTMT st, const char *col, SQLSMALLINT ctype, SQLSMALLINT sqltype,
                      SQLLEN *ind, int id) {
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO tp (id, %s) VALUES (%d, ?)", col, id);
    *ind = SQL_DATA_AT_EXEC;
    OKS(SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS), st);
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, ctype, sqltype, 0, 0, (SQLPOINTER)9, 0, ind), st);
    EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
    want_token(st, (SQLPOINTER)9);
}

/* SQLPutData's own errors: each ends the need-data state */
static void put_errors(SQLHSTMT st) {
    SQLLEN ind;
    SQLINTEGER v = 42;
    /* a fixed-size C type: one piece, a second is HY019 */
    start_one(st, "v", SQL_C_SLONG, SQL_INTEGER, &ind, 20);
    OKS(SQLPutData(st, &v, 0), st);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    SQLLEN n = read_value(st, "SELECT v FROM tp WHERE id = 20", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 2 && strcmp(back, "42") == 0, "SQL_C_SLONG at execution: %s", back);
    start_one(st, "v", SQL_C_SLONG, SQL_INTEGER, &ind, 21);
    OKS(SQLPutData(st, &v, sizeof v), st);
    EXPECT(SQLPutData(st, &v, sizeof v), SQL_ERROR, "HY019", st);
    EXPECT(SQLParamData(st, NULL), SQL_ERROR, "HY010", st); /* the need-data state ended */
    /* character data for a number: one piece only */
    start_one(st, "v", SQL_C_CHAR, SQL_INTEGER, &ind, 21);
    OKS(SQLPutData(st, "4", 1), st);
    EXPECT(SQLPutData(st, "2", 1), SQL_ERROR, "HY019", st);
    /* NULL, then data: HY020 */
    start_one(st, "tx", SQL_C_CHAR, SQL_LONGVARCHAR, &ind, 21);
    OKS(SQLPutData(st, NULL, SQL_NULL_DATA), st);
    EXPECT(SQLPutData(st, "x", 1), SQL_ERROR, "HY020", st);
    /* a negative length */
    start_one(st, "tx", SQL_C_CHAR, SQL_LONGVARCHAR, &ind, 21);
    EXPECT(SQLPutData(st, "x", -7), SQL_ERROR, "HY090", st);
    /* SQL_C_WCHAR: an odd number of bytes in all (22026), an unpaired
     * surrogate (22018) */
    SQLWCHAR w[] = {'a', 0xD834, 'b', 0};
    start_one(st, "tx", SQL_C_WCHAR, SQL_WLONGVARCHAR, &ind, 21);
    OKS(SQLPutData(st, w, 3), st);
    EXPECT(SQLParamData(st, NULL), SQL_ERROR, "22026", st);
    start_one(st, "tx", SQL_C_WCHAR, SQL_WLONGVARCHAR, &ind, 21);
    OKS(SQLPutData(st, w, SQL_NTS), st);
    EXPECT(SQLParamData(st, NULL), SQL_ERROR, "22018", st);
    n = read_value(st, "SELECT COUNT(*) FROM tp WHERE id = 21", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 1 && strcmp(back, "0") == 0, "rows of refused values: %s", back);
}

/* SQL_C_WCHAR pieces: one split inside a UTF-16 unit, one between the two
 * halves of a surrogate pair; the text arrives as UTF-8 */
static void wide(SQLHSTMT st) {
    static const char utf8[] = "h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9d\x84\x9e end";
    SQLWCHAR w[32];
    size_t k = 0;
    for (const char *p = "h"; *p; p++)
        w[k++] = (SQLWCHAR)*p;
    w[k++] = 0xE9;
    for (const char *p = "llo "; *p; p++)
        w[k++] = (SQLWCHAR)*p;
    w[k++] = 0x2713;
    w[k++] = ' ';
    w[k++] = 0xD834; /* U+1D11E */
    w[k++] = 0xDD1E;
    for (const char *p = " end"; *p; p++)
        w[k++] = (SQLWCHAR)*p;
    size_t pair = 8; /* the unit where the pair starts */
    SQLLEN ind;
    start_one(st, "tx", SQL_C_WCHAR, SQL_WLONGVARCHAR, &ind, 30);
    const char *b = (const char *)w;
    OKS(SQLPutData(st, (SQLPOINTER)b, 3), st); /* 1.5 units */
    OKS(SQLPutData(st, (SQLPOINTER)(b + 3), (SQLLEN)((pair + 1) * 2 - 3)), st);
    OKS(SQLPutData(st, (SQLPOINTER)(b + (pair + 1) * 2), (SQLLEN)((k - pair - 1) * 2)), st);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    SQLLEN n = read_value(st, "SELECT tx FROM tp WHERE id = 30", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == (SQLLEN)strlen(utf8) && strcmp(back, utf8) == 0, "wide pieces: %ld %s", (long)n,
          back);
    /* and a long one: 60,000 units in pieces of 7,001 bytes */
    SQLWCHAR *lw = malloc(60000 * sizeof *lw);
    char *lu = malloc(60000 * 4 + 1);
    size_t m = 0;
    for (size_t i = 0; i < 60000; i += 4) { /* "é", U+1D11E, "x" */
        lw[i] = 0xE9, lw[i + 1] = 0xD834, lw[i + 2] = 0xDD1E, lw[i + 3] = 'x';
        memcpy(lu + m, "\xc3\xa9\xf0\x9d\x84\x9ex", 7);
        m += 7;
    }
    lu[m] = 0;
    start_one(st, "tx", SQL_C_WCHAR, SQL_WLONGVARCHAR, &ind, 31);
    put_pieces(st, lw, 60000 * sizeof *lw, 7001);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    n = read_value(st, "SELECT tx FROM tp WHERE id = 31", 1, SQL_C_CHAR, back, BIG * 4);
    CHECK(n == (SQLLEN)m && memcmp(back, lu, m) == 0, "long wide pieces: %ld of %zu", (long)n, m);
    free(lw);
    free(lu);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
}

/* parameter arrays: SQLParamData names the element of each row that
 * wants data (its address, as for values in the buffers), with
 * SQL_ATTR_PARAMS_PROCESSED_PTR at that row; column-wise here */
static void arrays(SQLHSTMT st) {
    SQLINTEGER ids[3] = {40, 41, 42};
    char tx[3][16] = {"", "plain", ""};
    SQLLEN ind[3] = {SQL_DATA_AT_EXEC, SQL_NTS, SQL_LEN_DATA_AT_EXEC(5)};
    SQLULEN processed = 0;
    SQLUSMALLINT status[3] = {99, 99, 99};
    OKS(SQLPrepare(st, (SQLCHAR *)"INSERT INTO tp (id, tx) VALUES (?, ?)", SQL_NTS), st);
    OKS(SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)3, 0), st);
    OKS(SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0), st);
    OKS(SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, status, 0), st);
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL), st);
    OKS(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, tx, 16, ind),
        st);
    EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
    want_token(st, tx[0]);
    CHECK(processed == 1, "processed %lu while row 1 wants data", (unsigned long)processed);
    put_pieces(st, "row zero", 8, 3);
    want_token(st, tx[2]);
    CHECK(processed == 3, "processed %lu while row 3 wants data", (unsigned long)processed);
    put_pieces(st, text, 20000, PIECE);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    CHECK(processed == 3 && status[0] == SQL_PARAM_SUCCESS && status[1] == SQL_PARAM_SUCCESS &&
              status[2] == SQL_PARAM_SUCCESS,
          "processed %lu, status %d %d %d", (unsigned long)processed, status[0], status[1],
          status[2]);
    SQLLEN n = read_value(st, "SELECT tx FROM tp WHERE id = 40", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 8 && strcmp(back, "row zero") == 0, "array row 1: %s", back);
    n = read_value(st, "SELECT tx FROM tp WHERE id = 41", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 5 && strcmp(back, "plain") == 0, "array row 2: %s", back);
    n = read_value(st, "SELECT tx FROM tp WHERE id = 42", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 20000 && memcmp(back, text, 20000) == 0, "array row 3: %ld bytes", (long)n);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0);
}

/* row-wise: the token of row r is the element in row r's struct */
static void arrays_rowwise(SQLHSTMT st) {
    SQLULEN processed = 0;
    SQLLEN n;
    struct row {
        SQLINTEGER id;
        char tx[12];
        SQLLEN tx_ind;
    } rows[2] = {{43, "", SQL_DATA_AT_EXEC}, {44, "", SQL_DATA_AT_EXEC}};
    OKS(SQLPrepare(st, (SQLCHAR *)"INSERT INTO tp (id, tx) VALUES (?, ?)", SQL_NTS), st);
    OKS(SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)2, 0), st);
    OKS(SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0), st);
    OKS(SQLSetStmtAttr(st, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)sizeof(struct row), 0), st);
    OKS(SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &rows[0].id, 0,
                         NULL),
        st);
    OKS(SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, rows[0].tx, 12,
                         &rows[0].tx_ind),
        st);
    EXPECT(SQLExecute(st), SQL_NEED_DATA, NULL, st);
    want_token(st, rows[0].tx);
    OKS(SQLPutData(st, "first", 5), st);
    want_token(st, rows[1].tx);
    CHECK(processed == 2, "processed %lu while row 2 wants data", (unsigned long)processed);
    OKS(SQLPutData(st, "second", 6), st);
    EXPECT(SQLParamData(st, NULL), SQL_SUCCESS, NULL, st);
    n = read_value(st, "SELECT tx FROM tp WHERE id = 44", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 6 && strcmp(back, "second") == 0, "row-wise row 2: %s", back);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
}

/* a statement freed after SQLCancel while it waited for data (the driver
 * manager refuses SQLFreeHandle before) */
static void cancel_then_free(SQLHSTMT st) {
    SQLLEN ind = SQL_DATA_AT_EXEC;
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, (SQLPOINTER)1, 0,
                     &ind);
    EXPECT(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO tp (tx) VALUES (?)", SQL_NTS), SQL_NEED_DATA,
           NULL, st);
    want_token(st, (SQLPOINTER)1);
    put_pieces(st, text, BIG, PIECE);
    EXPECT(SQLFreeHandle(SQL_HANDLE_STMT, st), SQL_ERROR, "HY010", st);
    OKS(SQLCancel(st), st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* the driver's own entry points, without the driver manager */
typedef struct drv {
    SQLRETURN (*alloc)(SQLSMALLINT, SQLHANDLE, SQLHANDLE *);
    SQLRETURN (*free_handle)(SQLSMALLINT, SQLHANDLE);
    SQLRETURN(*connect)
    (SQLHDBC, SQLHWND, SQLCHAR *, SQLSMALLINT, SQLCHAR *, SQLSMALLINT, SQLSMALLINT *, SQLUSMALLINT);
    SQLRETURN (*disconnect)(SQLHDBC);
    SQLRETURN(*bind)
    (SQLHSTMT, SQLUSMALLINT, SQLSMALLINT, SQLSMALLINT, SQLSMALLINT, SQLULEN, SQLSMALLINT,
     SQLPOINTER, SQLLEN, SQLLEN *);
    SQLRETURN (*exec_direct)(SQLHSTMT, SQLCHAR *, SQLINTEGER);
    SQLRETURN (*execute)(SQLHSTMT);
    SQLRETURN (*fetch)(SQLHSTMT);
    SQLRETURN (*free_stmt)(SQLHSTMT, SQLUSMALLINT);
    SQLRETURN (*get_attr)(SQLHSTMT, SQLINTEGER, SQLPOINTER, SQLINTEGER, SQLINTEGER *);
    SQLRETURN(*tables)
    (SQLHSTMT, SQLCHAR *, SQLSMALLINT, SQLCHAR *, SQLSMALLINT, SQLCHAR *, SQLSMALLINT, SQLCHAR *,
     SQLSMALLINT);
    SQLRETURN (*param_data)(SQLHSTMT, SQLPOINTER *);
    SQLRETURN (*put_data)(SQLHSTMT, SQLPOINTER, SQLLEN);
    SQLRETURN (*cancel)(SQLHSTMT);
    SQLRETURN(*diag)
    (SQLSMALLINT, SQLHANDLE, SQLSMALLINT, SQLCHAR *, SQLINTEGER *, SQLCHAR *, SQLSMALLINT,
     SQLSMALLINT *);
} drv;

static drv d;

static int drv_load(void *lib) {
    void **f = (void **)&d; /* the members in order */
    static const char *const names[] = {
        "SQLAllocHandle", "SQLFreeHandle", "SQLDriverConnect", "SQLDisconnect", "SQLBindParameter",
        "SQLExecDirect",  "SQLExecute",    "SQLFetch",         "SQLFreeStmt",   "SQLGetStmtAttr",
        "SQLTables",      "SQLParamData",  "SQLPutData",       "SQLCancel",     "SQLGetDiagRec"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!(f[i] = dlsym(lib, names[i]))) return 0;
    return 1;
}

static const char *drv_state(SQLHSTMT st) {
    static char s[6];
    SQLCHAR m[512];
    SQLSMALLINT len;
    SQLINTEGER nat;
    s[0] = 0;
    if (!SQL_SUCCEEDED(d.diag(SQL_HANDLE_STMT, st, 1, (SQLCHAR *)s, &nat, m, sizeof m, &len)))
        return "none";
    return s;
}

#define DRV(call, rc, state)                                                                       \
    do {                                                                                           \
        SQLRETURN rc_ = (call);                                                                    \
        const char *s_ = rc_ == SQL_ERROR ? drv_state(st) : "";                                    \
        CHECK(rc_ == (rc) && strcmp(s_, state) == 0, "driver alone: %s: %d %s, wanted %d %s",      \
              #call, rc_, s_, rc, state);                                                          \
    } while (0)

/* what the driver manager checks before the driver sees a call, the
 * driver checks too */
static void driver_alone(int port) {
    void *lib = dlopen(IXODBC_LIB, RTLD_NOW | RTLD_LOCAL);
    CHECK(lib && drv_load(lib), "dlopen %s: %s", IXODBC_LIB, lib ? "symbols" : dlerror());
    if (!lib) return;
    SQLHENV e;
    SQLHDBC c;
    SQLHSTMT st;
    char cs[256];
    snprintf(cs, sizeof cs, "HOST=127.0.0.1;SERVICE=%d;DATABASE=odbcdae;UID=informix;PWD=in4mix",
             port);
    d.alloc(SQL_HANDLE_ENV, NULL, &e);
    d.alloc(SQL_HANDLE_DBC, e, &c);
    CHECK(SQL_SUCCEEDED(
              d.connect(c, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT)),
          "driver alone: connect");
    d.alloc(SQL_HANDLE_STMT, c, &st);
    SQLLEN ind = SQL_DATA_AT_EXEC;
    SQLPOINTER tok = NULL;
    SQLULEN u;
    d.bind(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_LONGVARCHAR, 0, 0, (SQLPOINTER)4, 0, &ind);
    DRV(d.put_data(st, "x", 1), SQL_ERROR, "HY010");
    DRV(d.exec_direct(st, (SQLCHAR *)"INSERT INTO tp (id, tx) VALUES (50, ?)", SQL_NTS),
        SQL_NEED_DATA, "");
    DRV(d.put_data(st, "x", 1), SQL_ERROR, "HY010"); /* before SQLParamData */
    DRV(d.execute(st), SQL_ERROR, "HY010");
    DRV(d.exec_direct(st, (SQLCHAR *)"SELECT 1 FROM systables", SQL_NTS), SQL_ERROR, "HY010");
    DRV(d.fetch(st), SQL_ERROR, "HY010");
    DRV(d.free_stmt(st, SQL_CLOSE), SQL_ERROR, "HY010");
    DRV(d.get_attr(st, SQL_ATTR_PARAMSET_SIZE, &u, 0, NULL), SQL_ERROR, "HY010");
    DRV(d.tables(st, NULL, 0, NULL, 0, NULL, 0, NULL, 0), SQL_ERROR, "HY010");
    DRV(d.bind(st, 1, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_CHAR, 0, 0, "y", 0, NULL), SQL_ERROR,
        "HY010");
    DRV(d.param_data(st, &tok), SQL_NEED_DATA, "");
    CHECK(tok == (SQLPOINTER)4, "driver alone: token %p", tok);
    DRV(d.param_data(st, &tok), SQL_ERROR, "HY010"); /* no SQLPutData: still waiting */
    DRV(d.put_data(st, "data", 4), SQL_SUCCESS, "");
    DRV(d.put_data(st, NULL, SQL_NULL_DATA), SQL_ERROR, "HY020"); /* ends the need-data state */
    DRV(d.param_data(st, &tok), SQL_ERROR, "HY010");
    DRV(d.exec_direct(st, (SQLCHAR *)"INSERT INTO tp (id, tx) VALUES (50, ?)", SQL_NTS),
        SQL_NEED_DATA, "");
    DRV(d.param_data(st, &tok), SQL_NEED_DATA, "");
    DRV(d.put_data(st, "fine", 4), SQL_SUCCESS, "");
    DRV(d.param_data(st, &tok), SQL_SUCCESS, "");
    /* freed while waiting: the values go with the statement */
    DRV(d.exec_direct(st, (SQLCHAR *)"INSERT INTO tp (id, tx) VALUES (51, ?)", SQL_NTS),
        SQL_NEED_DATA, "");
    DRV(d.param_data(st, &tok), SQL_NEED_DATA, "");
    DRV(d.put_data(st, text, BIG), SQL_SUCCESS, "");
    d.free_handle(SQL_HANDLE_STMT, st);
    d.disconnect(c);
    d.free_handle(SQL_HANDLE_DBC, c);
    d.free_handle(SQL_HANDLE_ENV, e);
    dlclose(lib);
}

/* the long values (every byte value in bytes) and the buffer read into */
static void make_values(void) {
    text = malloc(BIG);
    bytes = malloc(BIG);
    back = malloc(BIG * 4 + 1);
    for (size_t i = 0; i < BIG; i++) {
        text[i] = (char)('a' + (i * 7 + i / 26) % 26);
        bytes[i] = (char)(i * 131 + i / 256);
    }
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "odbcdae") != 0) return 1;
    make_values();
    env = odbc_test_env();
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    char cs[256];
    snprintf(cs, sizeof cs, "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;UID=informix;PWD=in4mix",
             p.port);
    SQLHSTMT st;
    CHECK(SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL,
                                         SQL_DRIVER_NOPROMPT)),
          "connect");
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    odbc_exec(st, "CREATE DATABASE odbcdae WITH LOG");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    CHECK(SQL_SUCCEEDED(SQLConnect(dbc, (SQLCHAR *)"t", SQL_NTS, NULL, 0, NULL, 0)), "DSN");
    SQLUSMALLINT funcs[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    CHECK(SQL_SUCCEEDED(SQLGetFunctions(dbc, SQL_API_ODBC3_ALL_FUNCTIONS, funcs)) &&
              SQL_FUNC_EXISTS(funcs, SQL_API_SQLPARAMDATA) &&
              SQL_FUNC_EXISTS(funcs, SQL_API_SQLPUTDATA),
          "SQLGetFunctions lists SQLParamData and SQLPutData");
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    several(st);
    direct(st);
    failing(st);
    sequences(st);
    put_errors(st);
    wide(st);
    arrays(st);
    arrays_rowwise(st);
    cancel_then_free(st);
    driver_alone(p.port);
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLLEN n = read_value(st, "SELECT tx FROM tp WHERE id = 50", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 4 && strcmp(back, "fine") == 0, "driver alone: %s", back);
    n = read_value(st, "SELECT COUNT(*) FROM tp WHERE id = 51", 1, SQL_C_CHAR, back, BIG);
    CHECK(n == 1 && strcmp(back, "0") == 0, "freed while waiting: %s rows", back);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    free(text);
    free(bytes);
    free(back);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    return tap_done();
}
