/* test_wide.c: libixodbc's wide (UTF-16) entry points through unixODBC's
 * driver manager, as a Unicode application calls them, against a real ixd:
 * SQLDriverConnectW with a non-ASCII connection string (the out string and
 * 01004 with its whole length in characters), SQLConnectW with a DSN and a
 * refused non-ASCII user, tables and columns with non-ASCII names created
 * and read with SQLExecDirectW / SQLPrepareW (a character outside the BMP
 * in the data), error messages naming them compared unit for unit with
 * SQLGetDiagRecW and SQLGetDiagFieldW, text that is no UTF-16 (22018), the
 * catalogue functions with patterns, SQLGetInfoW, SQLGetConnectAttrW /
 * SQLSetConnectAttrW, SQLNativeSqlW and SQLColAttributeW with their
 * lengths and truncation; then narrow calls on the wide connection, which
 * the driver manager hands to the wide functions, and a message holding
 * bytes that are no UTF-8 (U+FFFD). */
#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uchar.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define W(s)       ((SQLWCHAR *)(s)) /* a u"" literal as the driver manager's type */
#define TEXT_UNITS 512

static SQLHENV env;

/* ---- UTF-16 helpers ---- */

static size_t ulen(const SQLWCHAR *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

static int ueq(const SQLWCHAR *a, const char16_t *b) {
    size_t i = 0;
    for (; a[i] && b[i]; i++)
        if (a[i] != b[i]) return 0;
    return a[i] == b[i];
}

/* s as UTF-8 for a failure's message (a static buffer) */
static const char *show(const SQLWCHAR *s) {
    static char out[4 * TEXT_UNITS];
    size_t k = 0;
    for (size_t i = 0; s[i] && k + 5 < sizeof out; i++) {
        unsigned c = s[i];
        if (c >= 0xd800 && c < 0xdc00 && s[i + 1] >= 0xdc00 && s[i + 1] < 0xe000)
            c = 0x10000 + ((c - 0xd800) << 10) + (s[++i] - 0xdc00u);
        if (c < 0x80) {
            out[k++] = (char)c;
        } else if (c < 0x800) {
            out[k++] = (char)(0xc0 | c >> 6);
            out[k++] = (char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            out[k++] = (char)(0xe0 | c >> 12);
            out[k++] = (char)(0x80 | (c >> 6 & 0x3f));
            out[k++] = (char)(0x80 | (c & 0x3f));
        } else {
            out[k++] = (char)(0xf0 | c >> 18);
            out[k++] = (char)(0x80 | (c >> 12 & 0x3f));
            out[k++] = (char)(0x80 | (c >> 6 & 0x3f));
            out[k++] = (char)(0x80 | (c & 0x3f));
        }
    }
    out[k] = 0;
    return out;
}

/* the first record of h: its SQLSTATE (ASCII), native error, message */
static const char *diag(SQLSMALLINT type, SQLHANDLE h, SQLINTEGER *native, SQLWCHAR *msg) {
    static char st[6];
    SQLWCHAR wst[6], m[TEXT_UNITS];
    SQLSMALLINT len = 0;
    SQLINTEGER nat = 0;
    if (msg) msg[0] = 0;
    if (!SQL_SUCCEEDED(SQLGetDiagRecW(type, h, 1, wst, &nat, m, TEXT_UNITS, &len))) return "none";
    for (int i = 0; i < 6; i++)
        st[i] = (char)wst[i];
    if (native) *native = nat;
    if (msg) memcpy(msg, m, (ulen(m) + 1) * sizeof *m);
    return st;
}

#define WOK(call, type, h)                                                                         \
    do {                                                                                           \
        SQLRETURN rc_ = (call);                                                                    \
        CHECK(SQL_SUCCEEDED(rc_), "%s: %d %s", #call, rc_, diag(type, h, NULL, NULL));             \
    } while (0)

static void exec(SQLHSTMT st, const char16_t *sql) {
    WOK(SQLExecDirectW(st, W(sql), SQL_NTS), SQL_HANDLE_STMT, st);
    SQLFreeStmt(st, SQL_CLOSE);
}

/* column col of the next row as UTF-16 into out (TEXT_UNITS); 0 at the end */
static int next_text(SQLHSTMT st, int col, SQLWCHAR *out) {
    SQLLEN ind = 0;
    out[0] = 0;
    if (!SQL_SUCCEEDED(SQLFetch(st))) return 0;
    SQLGetData(st, (SQLUSMALLINT)col, SQL_C_WCHAR, out, TEXT_UNITS * sizeof *out, &ind);
    if (ind == SQL_NULL_DATA) out[0] = 0;
    return 1;
}

/* ---- connecting ---- */

static SQLHDBC connect_string(int port, const char *db) {
    char cs[256];
    SQLWCHAR in[256], out[256];
    SQLSMALLINT outlen = 0;
    SQLHDBC dbc;
    /* APP is a key the driver ignores: a non-ASCII value in the string */
    int n = snprintf(cs, sizeof cs,
                     "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;%s%s%sUID=informix;PWD=in4mix;"
                     "APP=",
                     port, db ? "DATABASE=" : "", db ? db : "", db ? ";" : "");
    for (int i = 0; i <= n; i++)
        in[i] = (SQLWCHAR)cs[i];
    const char16_t app[] = u"Grüße €𝄞";
    memcpy(in + n, app, sizeof app);
    size_t units = ulen(in);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    WOK(SQLDriverConnectW(dbc, NULL, in, SQL_NTS, out, 256, &outlen, SQL_DRIVER_NOPROMPT),
        SQL_HANDLE_DBC, dbc);
    CHECK(outlen == (SQLSMALLINT)units && memcmp(in, out, (units + 1) * sizeof *in) == 0,
          "out connection string (%d of %d units): %s", outlen, (int)units, show(out));
    return dbc;
}

static void connect_cut(int port) {
    char cs[256];
    SQLWCHAR in[256], out[8];
    SQLSMALLINT outlen = 0;
    SQLHDBC dbc;
    int n =
        snprintf(cs, sizeof cs, "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;UID=informix;PWD=x", port);
    for (int i = 0; i <= n; i++)
        in[i] = (SQLWCHAR)cs[i];
    memcpy(in + n - 1, u"in4mix;APP=äöü", sizeof u"in4mix;APP=äöü");
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLRETURN rc = SQLDriverConnectW(dbc, NULL, in, SQL_NTS, out, 8, &outlen, SQL_DRIVER_NOPROMPT);
    CHECK(rc == SQL_SUCCESS_WITH_INFO &&
              strcmp(diag(SQL_HANDLE_DBC, dbc, NULL, NULL), "01004") == 0,
          "a cut out string: rc %d %s", rc, diag(SQL_HANDLE_DBC, dbc, NULL, NULL));
    CHECK(outlen == (SQLSMALLINT)ulen(in) && ulen(out) == 7 && memcmp(out, in, 7 * 2) == 0,
          "cut out string: %d units, %s", outlen, show(out));
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* SQLConnectW: the DSN, and a refused user with a non-ASCII name whose
 * message the driver manager reads (wide) while connecting */
static void connect_dsn(void) {
    SQLHDBC dbc;
    SQLWCHAR msg[TEXT_UNITS];
    SQLINTEGER native = 0;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    WOK(SQLConnectW(dbc, W(u"t"), SQL_NTS, NULL, 0, NULL, 0), SQL_HANDLE_DBC, dbc);
    SQLDisconnect(dbc);
    SQLRETURN rc = SQLConnectW(dbc, W(u"t"), 1, W(u"nöbody"), 6, W(u"x"), SQL_NTS);
    const char *st = diag(SQL_HANDLE_DBC, dbc, &native, msg);
    CHECK(rc == SQL_ERROR && strcmp(st, "28000") == 0 && native == -951, "refused: %d %s %d", rc,
          st, (int)native);
    CHECK(ueq(msg, u"[unixODBC][ixdb][libixodbc]Incorrect password or user nöbody is not known "
                   u"on the database server."),
          "refused login's message: %s", show(msg));
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* ---- statements ---- */

static void tables_and_text(SQLHSTMT st) {
    exec(st, u"CREATE TABLE prüfung (id INTEGER PRIMARY KEY, nämé VARCHAR(40))");
    exec(st, u"CREATE UNIQUE INDEX ïdx ON prüfung (nämé)");
    exec(st, u"CREATE TABLE kïnd (kid INTEGER, pid INTEGER REFERENCES prüfung (id))");
    exec(st, u"INSERT INTO prüfung VALUES (1, 'Grüße €𝄞')");
    /* a length in characters: the first 39 units, not what follows */
    const char16_t ins[] = u"INSERT INTO prüfung VALUES (2, 'ñandú') garbage";
    WOK(SQLExecDirectW(st, W(ins), 39), SQL_HANDLE_STMT, st);
    WOK(SQLPrepareW(st, W(u"SELECT nämé, id FROM prüfung WHERE nämé = 'Grüße €𝄞' OR id = 2"),
                    SQL_NTS),
        SQL_HANDLE_STMT, st);
    WOK(SQLExecute(st), SQL_HANDLE_STMT, st);
    SQLWCHAR name[16], v[TEXT_UNITS];
    SQLSMALLINT nl = 0, type = 0;
    WOK(SQLDescribeColW(st, 1, name, 16, &nl, &type, NULL, NULL, NULL), SQL_HANDLE_STMT, st);
    CHECK(ueq(name, u"nämé") && nl == 4 && type == SQL_VARCHAR, "described %s %d", show(name), nl);
    SQLSMALLINT bytes = 0;
    WOK(SQLColAttributeW(st, 1, SQL_DESC_NAME, name, sizeof name, &bytes, NULL), SQL_HANDLE_STMT,
        st);
    CHECK(ueq(name, u"nämé") && bytes == 8, "SQL_DESC_NAME %s, %d bytes", show(name), bytes);
    SQLRETURN rc = SQLColAttributeW(st, 1, SQL_DESC_NAME, name, 3 * sizeof *name, &bytes, NULL);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ueq(name, u"nä") && bytes == 8 &&
              strcmp(diag(SQL_HANDLE_STMT, st, NULL, NULL), "01004") == 0,
          "SQL_DESC_NAME cut: %d %s %d", rc, show(name), bytes);
    int rows = 0, found = 0;
    while (next_text(st, 1, v)) {
        rows++;
        found += ueq(v, u"Grüße €𝄞") + 2 * ueq(v, u"ñandú");
    }
    CHECK(rows == 2 && found == 3, "rows read back: %d, %d", rows, found);
    SQLFreeStmt(st, SQL_CLOSE);
}

static void errors(SQLHSTMT st) {
    SQLWCHAR msg[TEXT_UNITS], buf[TEXT_UNITS];
    SQLINTEGER native = 0;
    const char16_t want[] = u"[ixdb][libixodbc]The specified table (tëst_ñ𝄞) is not in the "
                            u"database.";
    SQLRETURN rc = SQLExecDirectW(st, W(u"SELECT * FROM tëst_ñ𝄞"), SQL_NTS);
    const char *state = diag(SQL_HANDLE_STMT, st, &native, msg);
    CHECK(rc == SQL_ERROR && strcmp(state, "42S02") == 0 && native == -206, "unknown table: %s %d",
          state, (int)native);
    CHECK(ueq(msg, want), "SQLGetDiagRecW message: %s", show(msg));
    /* SQLGetDiagFieldW: lengths in bytes */
    SQLSMALLINT len = 0;
    WOK(SQLGetDiagFieldW(SQL_HANDLE_STMT, st, 1, SQL_DIAG_MESSAGE_TEXT, buf, sizeof buf, &len),
        SQL_HANDLE_STMT, st);
    CHECK(ueq(buf, want) && len == (SQLSMALLINT)(ulen(W(want)) * 2),
          "SQL_DIAG_MESSAGE_TEXT %s, %d bytes", show(buf), len);
    rc = SQLGetDiagFieldW(SQL_HANDLE_STMT, st, 1, SQL_DIAG_MESSAGE_TEXT, buf, 10, &len);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ueq(buf, u"[ixd") &&
              len == (SQLSMALLINT)(ulen(W(want)) * 2),
          "SQL_DIAG_MESSAGE_TEXT cut: %d %s %d", rc, show(buf), len);
    WOK(SQLGetDiagFieldW(SQL_HANDLE_STMT, st, 1, SQL_DIAG_SQLSTATE, buf, sizeof buf, &len),
        SQL_HANDLE_STMT, st);
    CHECK(ueq(buf, u"42S02") && len == 10, "SQL_DIAG_SQLSTATE %s %d", show(buf), len);
    WOK(SQLGetDiagFieldW(SQL_HANDLE_STMT, st, 1, SQL_DIAG_CLASS_ORIGIN, buf, sizeof buf, &len),
        SQL_HANDLE_STMT, st);
    CHECK(ueq(buf, u"ISO 9075"), "SQL_DIAG_CLASS_ORIGIN %s", show(buf));
    SQLINTEGER nat = 0;
    WOK(SQLGetDiagFieldW(SQL_HANDLE_STMT, st, 1, SQL_DIAG_NATIVE, &nat, 0, NULL), SQL_HANDLE_STMT,
        st);
    CHECK(nat == -206, "SQL_DIAG_NATIVE %d", (int)nat);
    /* a message that must be cut: SQLGetDiagRecW's length in characters */
    rc = SQLGetDiagRecW(SQL_HANDLE_STMT, st, 1, buf, NULL, msg, 5, &len);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ueq(msg, u"[ixd") && len == (SQLSMALLINT)ulen(W(want)),
          "SQLGetDiagRecW cut: %d %s %d", rc, show(msg), len);
    /* text that is no UTF-16: an unpaired surrogate */
    const SQLWCHAR bad[] = {'S', 'E', 'L', 0xd800, 'C', 'T', ' ', '1', 0};
    rc = SQLExecDirectW(st, (SQLWCHAR *)bad, SQL_NTS);
    state = diag(SQL_HANDLE_STMT, st, NULL, msg);
    CHECK(rc == SQL_ERROR && strcmp(state, "22018") == 0 &&
              ueq(msg, u"[ixdb][libixodbc]Invalid UTF-16 text in string argument 1: unpaired "
                       u"surrogate 0xD800 at unit 4"),
          "unpaired surrogate: %d %s %s", rc, state, show(msg));
}

/* ---- the catalogue ---- */

static void catalogue_one(SQLHSTMT st, SQLRETURN rc, const char *what, int col,
                          const char16_t *want) {
    SQLWCHAR v[TEXT_UNITS];
    CHECK(SQL_SUCCEEDED(rc), "%s: %d %s", what, rc, diag(SQL_HANDLE_STMT, st, NULL, NULL));
    int rows = 0, found = 0;
    while (next_text(st, col, v)) {
        rows++;
        found += ueq(v, want);
    }
    CHECK(rows >= 1 && found >= 1, "%s: %d rows, last %s", what, rows, show(v));
    SQLFreeStmt(st, SQL_CLOSE);
}

static void catalogue(SQLHSTMT st) {
    exec(st, u"CREATE PROCEDURE größe(maß INTEGER) RETURNING INTEGER;\n"
             u"  RETURN maß * 2;\nEND PROCEDURE");
    catalogue_one(st, SQLTablesW(st, NULL, 0, NULL, 0, W(u"pr%"), SQL_NTS, NULL, 0), "SQLTablesW",
                  3, u"prüfung");
    catalogue_one(st, SQLColumnsW(st, NULL, 0, NULL, 0, W(u"prüfung"), SQL_NTS, W(u"n%"), 2),
                  "SQLColumnsW", 4, u"nämé");
    catalogue_one(st, SQLPrimaryKeysW(st, NULL, 0, NULL, 0, W(u"prüfung"), SQL_NTS),
                  "SQLPrimaryKeysW", 4, u"id");
    catalogue_one(st, SQLStatisticsW(st, NULL, 0, NULL, 0, W(u"prüfung"), 7, SQL_INDEX_ALL, 0),
                  "SQLStatisticsW", 6, u"ïdx");
    catalogue_one(
        st,
        SQLForeignKeysW(st, NULL, 0, NULL, 0, W(u"prüfung"), SQL_NTS, NULL, 0, NULL, 0, NULL, 0),
        "SQLForeignKeysW", 7, u"kïnd");
    catalogue_one(st,
                  SQLSpecialColumnsW(st, SQL_BEST_ROWID, NULL, 0, NULL, 0, W(u"prüfung"), SQL_NTS,
                                     SQL_SCOPE_SESSION, SQL_NULLABLE),
                  "SQLSpecialColumnsW", 2, u"id");
    catalogue_one(st, SQLProceduresW(st, NULL, 0, NULL, 0, W(u"gr%"), SQL_NTS), "SQLProceduresW", 3,
                  u"größe");
    catalogue_one(
        st, SQLProcedureColumnsW(st, NULL, 0, NULL, 0, W(u"größe"), SQL_NTS, W(u"m%"), SQL_NTS),
        "SQLProcedureColumnsW", 4, u"maß");
    catalogue_one(st, SQLGetTypeInfoW(st, SQL_VARCHAR), "SQLGetTypeInfoW", 1, u"VARCHAR");
    /* an unpaired surrogate in a pattern */
    const SQLWCHAR bad[] = {'p', 0xdc00, 0};
    SQLWCHAR msg[TEXT_UNITS];
    SQLRETURN rc = SQLTablesW(st, NULL, 0, NULL, 0, (SQLWCHAR *)bad, SQL_NTS, NULL, 0);
    const char *state = diag(SQL_HANDLE_STMT, st, NULL, msg);
    CHECK(rc == SQL_ERROR && strcmp(state, "22018") == 0 &&
              ueq(msg, u"[ixdb][libixodbc]Invalid UTF-16 text in string argument 3: unpaired "
                       u"surrogate 0xDC00 at unit 2"),
          "a bad pattern: %d %s %s", rc, state, show(msg));
}

/* ---- the connection: information, attributes, SQLNativeSqlW ---- */

static void info_and_attrs(SQLHDBC dbc) {
    SQLWCHAR buf[TEXT_UNITS], msg[TEXT_UNITS];
    SQLSMALLINT len = 0;
    WOK(SQLGetInfoW(dbc, SQL_DBMS_NAME, buf, sizeof buf, &len), SQL_HANDLE_DBC, dbc);
    CHECK(ueq(buf, u"Informix") && len == 16, "SQL_DBMS_NAME %s, %d bytes", show(buf), len);
    SQLRETURN rc = SQLGetInfoW(dbc, SQL_DBMS_NAME, buf, 8, &len);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ueq(buf, u"Inf") && len == 16 &&
              strcmp(diag(SQL_HANDLE_DBC, dbc, NULL, NULL), "01004") == 0,
          "SQL_DBMS_NAME cut: %d %s %d", rc, show(buf), len);
    WOK(SQLGetInfoW(dbc, SQL_DATABASE_NAME, buf, sizeof buf, &len), SQL_HANDLE_DBC, dbc);
    CHECK(ueq(buf, u"odbcwide") && len == 16, "SQL_DATABASE_NAME %s", show(buf));
    SQLUSMALLINT conc = 1;
    WOK(SQLGetInfoW(dbc, SQL_MAX_CONCURRENT_ACTIVITIES, &conc, sizeof conc, NULL), SQL_HANDLE_DBC,
        dbc);
    CHECK(conc == 0, "a numeric information type through SQLGetInfoW: %u", conc);
    /* SQL_ATTR_CURRENT_CATALOG: lengths in bytes */
    SQLINTEGER ilen = 0;
    WOK(SQLGetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, buf, sizeof buf, &ilen), SQL_HANDLE_DBC,
        dbc);
    CHECK(ueq(buf, u"odbcwide") && ilen == 16, "current catalog %s, %d bytes", show(buf),
          (int)ilen);
    rc = SQLGetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, buf, 10, &ilen);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ueq(buf, u"odbc") && ilen == 16,
          "current catalog cut: %d %s %d", rc, show(buf), (int)ilen);
    WOK(SQLSetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, W(u"odbcwide"), 16), SQL_HANDLE_DBC, dbc);
    rc = SQLSetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, W(u"dätä"), SQL_NTS);
    const char *state = diag(SQL_HANDLE_DBC, dbc, NULL, msg);
    CHECK(rc == SQL_ERROR && strcmp(state, "HY024") == 0 &&
              ueq(msg, u"[ixdb][libixodbc]Invalid database name dätä"),
          "a non-ASCII database name: %d %s %s", rc, state, show(msg));
    rc = SQLSetConnectAttrW(dbc, SQL_ATTR_CURRENT_CATALOG, W(u"odbcwide"), 3);
    state = diag(SQL_HANDLE_DBC, dbc, NULL, msg);
    CHECK(rc == SQL_ERROR && strcmp(state, "HY090") == 0 &&
              ueq(msg, u"[ixdb][libixodbc]Invalid string or buffer length (string argument 1)"),
          "half a character: %d %s %s", rc, state, show(msg));
    SQLUINTEGER ac = 0;
    WOK(SQLGetConnectAttrW(dbc, SQL_ATTR_AUTOCOMMIT, &ac, 0, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(ac == SQL_AUTOCOMMIT_ON, "autocommit %u", (unsigned)ac);
    /* SQLNativeSqlW: lengths in characters */
    const char16_t sql[] = u"SELECT 'ñ𝄞' FROM systables";
    SQLINTEGER n = 0;
    WOK(SQLNativeSqlW(dbc, W(sql), SQL_NTS, buf, TEXT_UNITS, &n), SQL_HANDLE_DBC, dbc);
    CHECK(ueq(buf, sql) && n == (SQLINTEGER)ulen(W(sql)), "SQLNativeSqlW %s %d", show(buf), (int)n);
    rc = SQLNativeSqlW(dbc, W(sql), SQL_NTS, buf, 10, &n);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ueq(buf, u"SELECT 'ñ") && n == (SQLINTEGER)ulen(W(sql)),
          "SQLNativeSqlW cut: %d %s %d", rc, show(buf), (int)n);
    /* a cut that would split the pair: the whole character is left out */
    rc = SQLNativeSqlW(dbc, W(sql), SQL_NTS, buf, 11, &n);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ueq(buf, u"SELECT 'ñ"), "a pair not split: %s", show(buf));
}

static void stmt_attrs(SQLHSTMT st) {
    SQLULEN v = 0;
    WOK(SQLSetStmtAttrW(st, SQL_ATTR_MAX_ROWS, (SQLPOINTER)7, 0), SQL_HANDLE_STMT, st);
    WOK(SQLGetStmtAttrW(st, SQL_ATTR_MAX_ROWS, &v, 0, NULL), SQL_HANDLE_STMT, st);
    CHECK(v == 7, "SQL_ATTR_MAX_ROWS %lu", (unsigned long)v);
    WOK(SQLSetStmtAttrW(st, SQL_ATTR_MAX_ROWS, (SQLPOINTER)0, 0), SQL_HANDLE_STMT, st);
}

/* narrow calls of an application on a connection opened with a wide
 * function: unixODBC converts them and calls the wide functions (ASCII
 * here: its conversion follows the locale's code set) */
static void narrow_on_wide(SQLHDBC dbc, SQLHSTMT st) {
    SQLCHAR buf[64], state[6], msg[256];
    SQLSMALLINT len = 0;
    WOK(SQLGetInfo(dbc, SQL_DBMS_NAME, buf, sizeof buf, &len), SQL_HANDLE_DBC, dbc);
    CHECK(strcmp((char *)buf, "Informix") == 0 && len == 8, "narrow SQL_DBMS_NAME %s %d", buf, len);
    SQLINTEGER ilen = 0;
    WOK(SQLGetConnectAttr(dbc, SQL_ATTR_CURRENT_CATALOG, buf, sizeof buf, &ilen), SQL_HANDLE_DBC,
        dbc);
    CHECK(strcmp((char *)buf, "odbcwide") == 0, "narrow current catalog %s", buf);
    WOK(SQLExecDirect(st, (SQLCHAR *)"SELECT COUNT(*) FROM systables WHERE tabid = 1", SQL_NTS),
        SQL_HANDLE_STMT, st);
    SQLINTEGER count = 0;
    CHECK(SQL_SUCCEEDED(SQLFetch(st)) &&
              SQL_SUCCEEDED(SQLGetData(st, 1, SQL_C_SLONG, &count, 0, NULL)) && count == 1,
          "narrow SQLExecDirect: %d", (int)count);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLINTEGER native = 0;
    CHECK(SQLExecDirect(st, (SQLCHAR *)"SELECT * FROM nosuch", SQL_NTS) == SQL_ERROR,
          "narrow error");
    SQLGetDiagRec(SQL_HANDLE_STMT, st, 1, state, &native, msg, sizeof msg, &len);
    CHECK(strcmp((char *)state, "42S02") == 0 &&
              strcmp((char *)msg, "[ixdb][libixodbc]The specified table (nosuch) is not in the "
                                  "database.") == 0,
          "narrow SQLGetDiagRec: %s %s", state, msg);
    WOK(SQLTables(st, NULL, 0, NULL, 0, (SQLCHAR *)"k%", SQL_NTS, NULL, 0), SQL_HANDLE_STMT, st);
    SQLWCHAR v[TEXT_UNITS];
    CHECK(next_text(st, 3, v) && ueq(v, u"kïnd"), "narrow SQLTables: %s", show(v));
    SQLFreeStmt(st, SQL_CLOSE);
}

/* a name whose bytes are no UTF-8 (a narrow application's constraint),
 * read in a message on the wide connection: each such byte is U+FFFD */
static void not_utf8(SQLHSTMT wst) {
    SQLHDBC dbc;
    SQLHSTMT st;
    SQLWCHAR msg[TEXT_UNITS];
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    WOK(SQLConnect(dbc, (SQLCHAR *)"t", SQL_NTS, NULL, 0, NULL, 0), SQL_HANDLE_DBC, dbc);
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    WOK(SQLExecDirect(st, (SQLCHAR *)"CREATE TABLE tc (n INT UNIQUE CONSTRAINT c\xff\xc3x)",
                      SQL_NTS),
        SQL_HANDLE_STMT, st);
    WOK(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO tc VALUES (1)", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLRETURN rc = SQLExecDirectW(wst, W(u"INSERT INTO tc VALUES (1)"), SQL_NTS);
    const char *state = diag(SQL_HANDLE_STMT, wst, NULL, msg);
    CHECK(rc == SQL_ERROR && strcmp(state, "23000") == 0 &&
              ueq(msg, u"[ixdb][libixodbc]Unique constraint (informix.c\ufffd\ufffdx) violated. "
                       u"[-100: ISAM error: duplicate value for a record with unique key.]"),
          "bytes that are no UTF-8: %d %s %s", rc, state, show(msg));
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "odbcwide") != 0) return 1;
    env = odbc_test_env();
    SQLHDBC dbc = connect_string(p.port, NULL);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    exec(st, u"CREATE DATABASE odbcwide WITH LOG");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    connect_cut(p.port);
    connect_dsn();
    dbc = connect_string(p.port, "odbcwide");
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    tables_and_text(st);
    errors(st);
    catalogue(st);
    info_and_attrs(dbc);
    stmt_attrs(st);
    narrow_on_wide(dbc, st);
    not_utf8(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    return tap_done();
}
