/*
 * ixo_wide.c: the wide (UTF-16) entry points. Each converts its SQLWCHAR
 * arguments (SQL_NTS or a length in characters; in bytes where ODBC says so:
 * attribute values) to UTF-8, calls the narrow function, and converts the
 * text it gives back, with lengths in SQLWCHAR units (bytes for SQLGetInfoW,
 * SQLGetConnectAttrW, SQLGetDiagFieldW, SQLColAttributeW) and a cut text
 * reported as 01004. The library is linked -Bsymbolic-functions: the calls
 * reach the driver's narrow functions, not the driver manager's of the same
 * name. Input that is no UTF-16 (an unpaired surrogate) is refused with
 * 22018 naming the argument and the unit.
 *
 * Once the driver exports SQLConnectW, unixODBC treats it as a Unicode
 * driver for the connections an application opens through a wide function:
 * the narrow calls of such an application reach the functions here too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

#define TEXT_MAX  2048 /* UTF-8 bytes of a name, an attribute or a message */
#define WARGS_MAX 6    /* the most string arguments a function takes */
#define UNIT      ((SQLLEN)sizeof(SQLWCHAR))

/* ---- text out ---- */

/* utf8 (n bytes) as UTF-16 into w (room for n units); a byte that begins no
 * UTF-8 sequence becomes U+FFFD. The units written. */
static long to_utf16(const char *utf8, size_t n, SQLWCHAR *w) {
    long k = ixo_utf8_to_utf16(utf8, n, w, n);
    if (k >= 0) return k;
    size_t i = 0;
    k = 0;
    while (i < n) {
        unsigned char c = (unsigned char)utf8[i];
        size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        long u = i + len <= n ? ixo_utf8_to_utf16(utf8 + i, len, w + k, 2) : -1;
        if (u > 0) {
            k += u;
            i += len;
        } else {
            w[k++] = 0xfffd;
            i++;
        }
    }
    return k;
}

/* utf8 into out (cap units, NUL-terminated, cut at a whole character);
 * *units: the whole length in units. 1 when it was cut. */
static int wide_out(const char *utf8, SQLWCHAR *out, SQLLEN cap, SQLLEN *units) {
    size_t n = strlen(utf8);
    SQLWCHAR *w = malloc((n + 1) * sizeof *w);
    long k = w ? to_utf16(utf8, n, w) : 0;
    *units = k;
    int cut = 0;
    if (out && cap > 0) {
        SQLLEN m = k < cap ? k : cap - 1;
        if (m > 0 && m < k && w[m - 1] >= 0xd800 && w[m - 1] < 0xdc00) m--; /* half a pair */
        if (w) memcpy(out, w, (size_t)m * sizeof *w);
        out[m] = 0;
        cut = m < k;
    }
    free(w);
    return cut;
}

/* a 01004 record on handle h (a call on it succeeded just before);
 * returns SQL_SUCCESS_WITH_INFO */
static SQLRETURN cut_warn(SQLHANDLE handle) {
    ixo_head *h = handle;
    pthread_mutex_lock(h->lk);
    SQLRETURN rc = ixo_warn(h, "01004", "String data, right truncated");
    pthread_mutex_unlock(h->lk);
    return rc;
}

/* the text utf8 a narrow call on handle gave (rc) into out: cap and *len
 * in bytes when bytes is set, else in SQLWCHAR units; rc, or the 01004
 * warning on handle when the text was cut */
static SQLRETURN text_back(SQLHANDLE handle, SQLRETURN rc, const char *utf8, SQLPOINTER out,
                           SQLLEN cap, int bytes, SQLLEN *len) {
    int cut = wide_out(utf8, out, bytes ? cap / UNIT : cap, len);
    if (bytes) *len *= UNIT;
    return cut ? cut_warn(handle) : rc;
}

/* an attribute's length in bytes (SQL_NTS, or >= 0) as units for args_in:
 * -1 (refused there) for another negative one */
static SQLINTEGER bytes_to_units(SQLINTEGER cb) {
    return cb == SQL_NTS ? SQL_NTS : cb < 0 ? -1 : cb / (SQLINTEGER)UNIT;
}

/* ---- text in ---- */

/* the string arguments of one call as UTF-8 (NULL stays NULL) */
typedef struct wargs {
    int n;
    char *s[WARGS_MAX];
    SQLINTEGER len[WARGS_MAX]; /* bytes */
} wargs;

enum { IN_OK, IN_BADLEN, IN_BADCHAR, IN_NOMEM };

/* (ixo_int.h) */
int ixo_utf16_dup(const SQLWCHAR *w, size_t n, char **out, size_t *outlen) {
    *out = NULL;
    *outlen = 0;
    char *u = malloc(n * 3 + 1);
    if (!u) return IXO_U16_NOMEM;
    long k = ixo_utf16_to_utf8(w, n, u, n * 3);
    if (k < 0) {
        free(u);
        return IXO_U16_BADCHAR;
    }
    u[k] = 0;
    *out = u;
    *outlen = (size_t)k;
    return IXO_U16_OK;
}

/* w (len units, or SQL_NTS) as UTF-8 into a new allocation *out, *outlen
 * bytes; IN_BADCHAR with *bad the first unit that is half a pair */
static int wide_in(const SQLWCHAR *w, SQLINTEGER len, char **out, SQLINTEGER *outlen, long *bad) {
    *out = NULL;
    *outlen = 0;
    if (!w) return IN_OK;
    size_t n = 0;
    if (len == SQL_NTS)
        while (w[n])
            n++;
    else if (len < 0)
        return IN_BADLEN;
    else
        n = (size_t)len;
    char *u;
    size_t k;
    int r = ixo_utf16_dup(w, n, &u, &k);
    if (r == IXO_U16_NOMEM) return IN_NOMEM;
    if (r == IXO_U16_BADCHAR) {
        for (size_t i = 0; i < n; i++) {
            int hi = w[i] >= 0xd800 && w[i] < 0xdc00, lo = w[i] >= 0xdc00 && w[i] < 0xe000;
            if (lo || (hi && (i + 1 == n || w[i + 1] < 0xdc00 || w[i + 1] >= 0xe000))) {
                *bad = (long)i;
                break;
            }
            i += (size_t)hi;
        }
        return IN_BADCHAR;
    }
    if (k > INT32_MAX) {
        free(u);
        return IN_BADLEN;
    }
    *out = u;
    *outlen = (SQLINTEGER)k;
    return IN_OK;
}

static void args_free(wargs *a) {
    for (int i = 0; i < a->n; i++)
        free(a->s[i]);
    a->n = 0;
}

/* the n strings w[i] (len[i] units or SQL_NTS) into a; limit: the most
 * bytes a converted one may have. SQL_SUCCESS, or the failure recorded on
 * handle (kind) and returned. */
static SQLRETURN args_in(wargs *a, SQLHANDLE handle, SQLSMALLINT kind, int n,
                         const SQLWCHAR *const *w, const SQLINTEGER *len, SQLINTEGER limit) {
    long bad = 0;
    int r = IN_OK, i;
    a->n = 0;
    for (i = 0; i < n && r == IN_OK; i++) {
        r = wide_in(w[i], len[i], &a->s[i], &a->len[i], &bad);
        a->n = i + (r == IN_OK);
        if (r == IN_OK && a->len[i] > limit) r = IN_BADLEN;
    }
    if (r == IN_OK) return SQL_SUCCESS;
    args_free(a);
    ixo_head *h = ixo_enter(handle, kind);
    if (!h) return SQL_INVALID_HANDLE;
    SQLRETURN rc;
    if (r == IN_NOMEM)
        rc = ixo_err(h, "HY001", 0, "Memory allocation error");
    else if (r == IN_BADLEN)
        rc = ixo_err(h, "HY090", 0, "Invalid string or buffer length (string argument %d)", i);
    else
        rc = ixo_err(h, "22018", 0,
                     "Invalid UTF-16 text in string argument %d: unpaired surrogate 0x%04X at "
                     "unit %ld",
                     i, (unsigned)w[i - 1][bad], bad + 1);
    return ixo_leave(h, rc);
}

/* args_in for a call with one string argument w (len units or SQL_NTS) */
static SQLRETURN arg_in(wargs *a, SQLHANDLE handle, SQLSMALLINT kind, const SQLWCHAR *w,
                        SQLINTEGER len, SQLINTEGER limit) {
    return args_in(a, handle, kind, 1, &w, &len, limit);
}

/* one string argument of a function whose lengths are SQLSMALLINT */
#define ARG16(a, i) (SQLCHAR *)(a).s[i], (SQLSMALLINT)((a).s[i] ? (a).len[i] : 0)

/* ---- results: SQLDescribeColW, SQLColAttributeW ---- */

SQLRETURN SQL_API SQLDescribeColW(SQLHSTMT hstmt, SQLUSMALLINT icol, SQLWCHAR *szColName,
                                  SQLSMALLINT cchColNameMax, SQLSMALLINT *pcchColName,
                                  SQLSMALLINT *pfSqlType, SQLULEN *pcbColDef, SQLSMALLINT *pibScale,
                                  SQLSMALLINT *pfNullable) {
    char name[TEXT_MAX];
    SQLRETURN rc = SQLDescribeCol(hstmt, icol, (SQLCHAR *)name, sizeof name, NULL, pfSqlType,
                                  pcbColDef, pibScale, pfNullable);
    if (!SQL_SUCCEEDED(rc)) return rc;
    SQLLEN units;
    rc = text_back(hstmt, rc, name, szColName, cchColNameMax, 0, &units);
    if (pcchColName) *pcchColName = (SQLSMALLINT)units;
    return rc;
}

SQLRETURN SQL_API SQLColAttributeW(SQLHSTMT hstmt, SQLUSMALLINT iCol, SQLUSMALLINT iField,
                                   SQLPOINTER pCharAttr, SQLSMALLINT cbCharAttrMax,
                                   SQLSMALLINT *pcbCharAttr, SQLLEN *pNumAttr) {
    char text[TEXT_MAX];
    SQLSMALLINT len = -1;
    text[0] = 0;
    SQLRETURN rc = SQLColAttribute(hstmt, iCol, iField, text, sizeof text, &len, pNumAttr);
    if (!SQL_SUCCEEDED(rc) || len < 0) return rc; /* a numeric field */
    SQLLEN bytes;                                 /* lengths in bytes here */
    rc = text_back(hstmt, rc, text, pCharAttr, cbCharAttrMax, 1, &bytes);
    if (pcbCharAttr) *pcbCharAttr = (SQLSMALLINT)bytes;
    return rc;
}

/* ---- diagnostics: SQLGetDiagRecW, SQLGetDiagFieldW ---- */

SQLRETURN SQL_API SQLGetDiagRecW(SQLSMALLINT fHandleType, SQLHANDLE handle, SQLSMALLINT iRecord,
                                 SQLWCHAR *szSqlState, SQLINTEGER *pfNativeError,
                                 SQLWCHAR *szErrorMsg, SQLSMALLINT cchErrorMsgMax,
                                 SQLSMALLINT *pcchErrorMsg) {
    char state[6], msg[TEXT_MAX];
    if (cchErrorMsgMax < 0) return SQL_ERROR; /* as SQLGetDiagRec */
    SQLRETURN rc = SQLGetDiagRec(fHandleType, handle, iRecord, (SQLCHAR *)state, pfNativeError,
                                 (SQLCHAR *)msg, sizeof msg, NULL);
    if (!SQL_SUCCEEDED(rc)) return rc;
    if (szSqlState)
        for (int i = 0; i < 6; i++)
            szSqlState[i] = (SQLWCHAR)(unsigned char)state[i];
    SQLLEN units;
    int cut = wide_out(msg, szErrorMsg, cchErrorMsgMax, &units);
    if (pcchErrorMsg) *pcchErrorMsg = (SQLSMALLINT)units;
    return cut && szErrorMsg ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

static int diag_is_text(SQLSMALLINT field) {
    switch (field) {
    case SQL_DIAG_SQLSTATE:
    case SQL_DIAG_MESSAGE_TEXT:
    case SQL_DIAG_CLASS_ORIGIN:
    case SQL_DIAG_SUBCLASS_ORIGIN:
    case SQL_DIAG_CONNECTION_NAME:
    case SQL_DIAG_SERVER_NAME:
    case SQL_DIAG_DYNAMIC_FUNCTION: return 1;
    default: return 0;
    }
}

/* string fields: lengths in bytes; a cut text is SQL_SUCCESS_WITH_INFO
 * (the diagnostic functions post no records) */
SQLRETURN SQL_API SQLGetDiagFieldW(SQLSMALLINT fHandleType, SQLHANDLE handle, SQLSMALLINT iRecord,
                                   SQLSMALLINT fDiagField, SQLPOINTER rgbDiagInfo,
                                   SQLSMALLINT cbDiagInfoMax, SQLSMALLINT *pcbDiagInfo) {
    if (!diag_is_text(fDiagField))
        return SQLGetDiagField(fHandleType, handle, iRecord, fDiagField, rgbDiagInfo, cbDiagInfoMax,
                               pcbDiagInfo);
    if (cbDiagInfoMax < 0) return SQL_ERROR;
    char text[TEXT_MAX];
    SQLRETURN rc =
        SQLGetDiagField(fHandleType, handle, iRecord, fDiagField, text, sizeof text, NULL);
    if (!SQL_SUCCEEDED(rc)) return rc;
    SQLLEN units;
    int cut = wide_out(text, rgbDiagInfo, cbDiagInfoMax / UNIT, &units);
    if (pcbDiagInfo) *pcbDiagInfo = (SQLSMALLINT)(units * UNIT);
    return cut && rgbDiagInfo ? SQL_SUCCESS_WITH_INFO : rc;
}

/* ---- connecting: SQLConnectW, SQLDriverConnectW ---- */

/* HY001 on connection hdbc, the narrow call not made; returns SQL_ERROR */
static SQLRETURN nomem(SQLHDBC hdbc) {
    ixo_head *h = ixo_enter(hdbc, SQL_HANDLE_DBC);
    return h ? ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error")) : SQL_INVALID_HANDLE;
}

SQLRETURN SQL_API SQLConnectW(SQLHDBC hdbc, SQLWCHAR *szDSN, SQLSMALLINT cbDSN, SQLWCHAR *szUID,
                              SQLSMALLINT cbUID, SQLWCHAR *szAuthStr, SQLSMALLINT cbAuthStr) {
    wargs a;
    SQLRETURN rc =
        args_in(&a, hdbc, SQL_HANDLE_DBC, 3, (const SQLWCHAR *[]){szDSN, szUID, szAuthStr},
                (SQLINTEGER[]){cbDSN, cbUID, cbAuthStr}, INT16_MAX);
    if (rc != SQL_SUCCESS) return rc;
    rc = SQLConnect(hdbc, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2));
    args_free(&a);
    return rc;
}

/* the out connection string is the one given (SQLDriverConnect), so its
 * UTF-8 length bounds the narrow buffer */
SQLRETURN SQL_API SQLDriverConnectW(SQLHDBC hdbc, SQLHWND hwnd, SQLWCHAR *szConnStrIn,
                                    SQLSMALLINT cbConnStrIn, SQLWCHAR *szConnStrOut,
                                    SQLSMALLINT cbConnStrOutMax, SQLSMALLINT *pcbConnStrOut,
                                    SQLUSMALLINT fDriverCompletion) {
    wargs a;
    SQLRETURN rc = arg_in(&a, hdbc, SQL_HANDLE_DBC, szConnStrIn, cbConnStrIn, INT16_MAX - 1);
    if (rc != SQL_SUCCESS) return rc;
    SQLSMALLINT cap = (SQLSMALLINT)(a.s[0] && a.len[0] < INT16_MAX ? a.len[0] + 1 : 1);
    char *out = malloc((size_t)cap);
    if (!out) {
        args_free(&a);
        return nomem(hdbc);
    }
    out[0] = 0;
    rc = SQLDriverConnect(hdbc, hwnd, ARG16(a, 0), (SQLCHAR *)out, cap, NULL, fDriverCompletion);
    args_free(&a);
    if (SQL_SUCCEEDED(rc)) {
        SQLLEN units;
        rc = text_back(hdbc, rc, out, szConnStrOut, cbConnStrOutMax, 0, &units);
        if (pcbConnStrOut) *pcbConnStrOut = (SQLSMALLINT)units;
    }
    free(out);
    return rc;
}

/* ---- statements: SQLExecDirectW, SQLPrepareW, SQLNativeSqlW ---- */

SQLRETURN SQL_API SQLExecDirectW(SQLHSTMT hstmt, SQLWCHAR *szSqlStr, SQLINTEGER cbSqlStr) {
    wargs a;
    SQLRETURN rc = arg_in(&a, hstmt, SQL_HANDLE_STMT, szSqlStr, cbSqlStr, INT32_MAX);
    if (rc != SQL_SUCCESS) return rc;
    rc = SQLExecDirect(hstmt, (SQLCHAR *)a.s[0], a.len[0]);
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLPrepareW(SQLHSTMT hstmt, SQLWCHAR *szSqlStr, SQLINTEGER cbSqlStr) {
    wargs a;
    SQLRETURN rc = arg_in(&a, hstmt, SQL_HANDLE_STMT, szSqlStr, cbSqlStr, INT32_MAX);
    if (rc != SQL_SUCCESS) return rc;
    rc = SQLPrepare(hstmt, (SQLCHAR *)a.s[0], a.len[0]);
    args_free(&a);
    return rc;
}

/* the text is returned as it is given (SQLNativeSql) */
SQLRETURN SQL_API SQLNativeSqlW(SQLHDBC hdbc, SQLWCHAR *szSqlStrIn, SQLINTEGER cbSqlStrIn,
                                SQLWCHAR *szSqlStr, SQLINTEGER cbSqlStrMax, SQLINTEGER *pcbSqlStr) {
    wargs a;
    SQLRETURN rc = arg_in(&a, hdbc, SQL_HANDLE_DBC, szSqlStrIn, cbSqlStrIn, INT32_MAX - 1);
    if (rc != SQL_SUCCESS) return rc;
    SQLINTEGER cap = a.s[0] ? a.len[0] + 1 : 1;
    char *out = malloc((size_t)cap);
    rc = out ? SQLNativeSql(hdbc, (SQLCHAR *)a.s[0], a.len[0], (SQLCHAR *)out, cap, NULL)
             : nomem(hdbc);
    args_free(&a);
    if (SQL_SUCCEEDED(rc)) {
        SQLLEN units;
        rc = text_back(hdbc, rc, out, szSqlStr, cbSqlStrMax, 0, &units);
        if (pcbSqlStr) *pcbSqlStr = (SQLINTEGER)units;
    }
    free(out);
    return rc;
}

/* ---- SQLGetInfoW: string values with their lengths in bytes ---- */

SQLRETURN SQL_API SQLGetInfoW(SQLHDBC hdbc, SQLUSMALLINT fInfoType, SQLPOINTER rgbInfoValue,
                              SQLSMALLINT cbInfoValueMax, SQLSMALLINT *pcbInfoValue) {
    if (!ixo_info_is_text(fInfoType))
        return SQLGetInfo(hdbc, fInfoType, rgbInfoValue, cbInfoValueMax, pcbInfoValue);
    char text[TEXT_MAX];
    SQLRETURN rc = SQLGetInfo(hdbc, fInfoType, text, sizeof text, NULL);
    if (!SQL_SUCCEEDED(rc)) return rc;
    SQLLEN bytes;
    rc = text_back(hdbc, rc, text, rgbInfoValue, cbInfoValueMax, 1, &bytes);
    if (pcbInfoValue) *pcbInfoValue = (SQLSMALLINT)bytes;
    return rc;
}

/* ---- attributes: the string one is SQL_ATTR_CURRENT_CATALOG, in bytes ---- */

SQLRETURN SQL_API SQLSetConnectAttrW(SQLHDBC hdbc, SQLINTEGER fAttribute, SQLPOINTER rgbValue,
                                     SQLINTEGER cbValue) {
    if (fAttribute != SQL_ATTR_CURRENT_CATALOG)
        return SQLSetConnectAttr(hdbc, fAttribute, rgbValue, cbValue);
    SQLINTEGER units = bytes_to_units(cbValue);
    if (cbValue >= 0 && cbValue % (SQLINTEGER)UNIT) units = -1; /* half a character */
    wargs a;
    SQLRETURN rc = arg_in(&a, hdbc, SQL_HANDLE_DBC, rgbValue, units, INT32_MAX);
    if (rc != SQL_SUCCESS) return rc;
    rc = SQLSetConnectAttr(hdbc, fAttribute, a.s[0], a.len[0]);
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLGetConnectAttrW(SQLHDBC hdbc, SQLINTEGER fAttribute, SQLPOINTER rgbValue,
                                     SQLINTEGER cbValueMax, SQLINTEGER *pcbValue) {
    if (fAttribute != SQL_ATTR_CURRENT_CATALOG)
        return SQLGetConnectAttr(hdbc, fAttribute, rgbValue, cbValueMax, pcbValue);
    char text[TEXT_MAX];
    SQLRETURN rc = SQLGetConnectAttr(hdbc, fAttribute, text, sizeof text, NULL);
    if (!SQL_SUCCEEDED(rc)) return rc;
    SQLLEN bytes;
    rc = text_back(hdbc, rc, text, rgbValue, cbValueMax, 1, &bytes);
    if (pcbValue) *pcbValue = (SQLINTEGER)bytes;
    return rc;
}

/* no statement attribute is a string: these are the narrow functions */
SQLRETURN SQL_API SQLSetStmtAttrW(SQLHSTMT hstmt, SQLINTEGER fAttribute, SQLPOINTER rgbValue,
                                  SQLINTEGER cbValueMax) {
    return SQLSetStmtAttr(hstmt, fAttribute, rgbValue, cbValueMax);
}

SQLRETURN SQL_API SQLGetStmtAttrW(SQLHSTMT hstmt, SQLINTEGER fAttribute, SQLPOINTER rgbValue,
                                  SQLINTEGER cbValueMax, SQLINTEGER *pcbValue) {
    return SQLGetStmtAttr(hstmt, fAttribute, rgbValue, cbValueMax, pcbValue);
}

/* ---- the catalogue: names and patterns in, the narrow function's result ---- */

/* converts the n name arguments of a catalogue call into a, or returns */
#define CAT_IN(a, hstmt, n, lens, ...)                                                             \
    wargs a;                                                                                       \
    do {                                                                                           \
        const SQLWCHAR *w_[] = {__VA_ARGS__};                                                      \
        SQLRETURN r_ = args_in(&a, hstmt, SQL_HANDLE_STMT, n, w_, lens, INT16_MAX);                \
        if (r_ != SQL_SUCCESS) return r_;                                                          \
    } while (0)

SQLRETURN SQL_API SQLTablesW(SQLHSTMT hstmt, SQLWCHAR *szCatalogName, SQLSMALLINT cbCatalogName,
                             SQLWCHAR *szSchemaName, SQLSMALLINT cbSchemaName,
                             SQLWCHAR *szTableName, SQLSMALLINT cbTableName, SQLWCHAR *szTableType,
                             SQLSMALLINT cbTableType) {
    const SQLINTEGER lens[] = {cbCatalogName, cbSchemaName, cbTableName, cbTableType};
    CAT_IN(a, hstmt, 4, lens, szCatalogName, szSchemaName, szTableName, szTableType);
    SQLRETURN rc = SQLTables(hstmt, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2), ARG16(a, 3));
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLColumnsW(SQLHSTMT hstmt, SQLWCHAR *szCatalogName, SQLSMALLINT cbCatalogName,
                              SQLWCHAR *szSchemaName, SQLSMALLINT cbSchemaName,
                              SQLWCHAR *szTableName, SQLSMALLINT cbTableName,
                              SQLWCHAR *szColumnName, SQLSMALLINT cbColumnName) {
    const SQLINTEGER lens[] = {cbCatalogName, cbSchemaName, cbTableName, cbColumnName};
    CAT_IN(a, hstmt, 4, lens, szCatalogName, szSchemaName, szTableName, szColumnName);
    SQLRETURN rc = SQLColumns(hstmt, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2), ARG16(a, 3));
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLPrimaryKeysW(SQLHSTMT hstmt, SQLWCHAR *szCatalogName,
                                  SQLSMALLINT cbCatalogName, SQLWCHAR *szSchemaName,
                                  SQLSMALLINT cbSchemaName, SQLWCHAR *szTableName,
                                  SQLSMALLINT cbTableName) {
    const SQLINTEGER lens[] = {cbCatalogName, cbSchemaName, cbTableName};
    CAT_IN(a, hstmt, 3, lens, szCatalogName, szSchemaName, szTableName);
    SQLRETURN rc = SQLPrimaryKeys(hstmt, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2));
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLForeignKeysW(SQLHSTMT hstmt, SQLWCHAR *szPkCatalogName,
                                  SQLSMALLINT cbPkCatalogName, SQLWCHAR *szPkSchemaName,
                                  SQLSMALLINT cbPkSchemaName, SQLWCHAR *szPkTableName,
                                  SQLSMALLINT cbPkTableName, SQLWCHAR *szFkCatalogName,
                                  SQLSMALLINT cbFkCatalogName, SQLWCHAR *szFkSchemaName,
                                  SQLSMALLINT cbFkSchemaName, SQLWCHAR *szFkTableName,
                                  SQLSMALLINT cbFkTableName) {
    const SQLINTEGER lens[] = {cbPkCatalogName, cbPkSchemaName, cbPkTableName,
                               cbFkCatalogName, cbFkSchemaName, cbFkTableName};
    CAT_IN(a, hstmt, 6, lens, szPkCatalogName, szPkSchemaName, szPkTableName, szFkCatalogName,
           szFkSchemaName, szFkTableName);
    SQLRETURN rc = SQLForeignKeys(hstmt, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2), ARG16(a, 3),
                                  ARG16(a, 4), ARG16(a, 5));
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLStatisticsW(SQLHSTMT hstmt, SQLWCHAR *szCatalogName, SQLSMALLINT cbCatalogName,
                                 SQLWCHAR *szSchemaName, SQLSMALLINT cbSchemaName,
                                 SQLWCHAR *szTableName, SQLSMALLINT cbTableName,
                                 SQLUSMALLINT fUnique, SQLUSMALLINT fAccuracy) {
    const SQLINTEGER lens[] = {cbCatalogName, cbSchemaName, cbTableName};
    CAT_IN(a, hstmt, 3, lens, szCatalogName, szSchemaName, szTableName);
    SQLRETURN rc = SQLStatistics(hstmt, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2), fUnique, fAccuracy);
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLSpecialColumnsW(SQLHSTMT hstmt, SQLUSMALLINT fColType, SQLWCHAR *szCatalogName,
                                     SQLSMALLINT cbCatalogName, SQLWCHAR *szSchemaName,
                                     SQLSMALLINT cbSchemaName, SQLWCHAR *szTableName,
                                     SQLSMALLINT cbTableName, SQLUSMALLINT fScope,
                                     SQLUSMALLINT fNullable) {
    const SQLINTEGER lens[] = {cbCatalogName, cbSchemaName, cbTableName};
    CAT_IN(a, hstmt, 3, lens, szCatalogName, szSchemaName, szTableName);
    SQLRETURN rc = SQLSpecialColumns(hstmt, fColType, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2), fScope,
                                     fNullable);
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLProceduresW(SQLHSTMT hstmt, SQLWCHAR *szCatalogName, SQLSMALLINT cbCatalogName,
                                 SQLWCHAR *szSchemaName, SQLSMALLINT cbSchemaName,
                                 SQLWCHAR *szProcName, SQLSMALLINT cbProcName) {
    const SQLINTEGER lens[] = {cbCatalogName, cbSchemaName, cbProcName};
    CAT_IN(a, hstmt, 3, lens, szCatalogName, szSchemaName, szProcName);
    SQLRETURN rc = SQLProcedures(hstmt, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2));
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLProcedureColumnsW(SQLHSTMT hstmt, SQLWCHAR *szCatalogName,
                                       SQLSMALLINT cbCatalogName, SQLWCHAR *szSchemaName,
                                       SQLSMALLINT cbSchemaName, SQLWCHAR *szProcName,
                                       SQLSMALLINT cbProcName, SQLWCHAR *szColumnName,
                                       SQLSMALLINT cbColumnName) {
    const SQLINTEGER lens[] = {cbCatalogName, cbSchemaName, cbProcName, cbColumnName};
    CAT_IN(a, hstmt, 4, lens, szCatalogName, szSchemaName, szProcName, szColumnName);
    SQLRETURN rc = SQLProcedureColumns(hstmt, ARG16(a, 0), ARG16(a, 1), ARG16(a, 2), ARG16(a, 3));
    args_free(&a);
    return rc;
}

/* no string argument: the narrow function */
SQLRETURN SQL_API SQLGetTypeInfoW(SQLHSTMT hstmt, SQLSMALLINT DataType) {
    return SQLGetTypeInfo(hstmt, DataType);
}

/* ---- cursor names: lengths in characters ---- */

SQLRETURN SQL_API SQLSetCursorNameW(SQLHSTMT hstmt, SQLWCHAR *szCursor, SQLSMALLINT cbCursor) {
    if (!szCursor) return SQLSetCursorName(hstmt, NULL, cbCursor);
    wargs a;
    SQLRETURN rc = arg_in(&a, hstmt, SQL_HANDLE_STMT, szCursor, cbCursor, INT16_MAX);
    if (rc != SQL_SUCCESS) return rc;
    rc = SQLSetCursorName(hstmt, ARG16(a, 0));
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLGetCursorNameW(SQLHSTMT hstmt, SQLWCHAR *szCursor, SQLSMALLINT cchCursorMax,
                                    SQLSMALLINT *pcchCursor) {
    char name[TEXT_MAX];
    if (cchCursorMax < 0) return SQLGetCursorName(hstmt, NULL, cchCursorMax, pcchCursor);
    SQLRETURN rc = SQLGetCursorName(hstmt, (SQLCHAR *)name, sizeof name, NULL);
    if (!SQL_SUCCEEDED(rc)) return rc;
    SQLLEN units;
    rc = text_back(hstmt, rc, name, szCursor, cchCursorMax, 0, &units);
    if (pcchCursor) *pcchCursor = (SQLSMALLINT)units;
    return rc;
}

/* ---- descriptors: string fields in bytes, names in characters ---- */

SQLRETURN SQL_API SQLGetDescFieldW(SQLHDESC hdesc, SQLSMALLINT iRecord, SQLSMALLINT iField,
                                   SQLPOINTER rgbValue, SQLINTEGER cbValueMax,
                                   SQLINTEGER *pcbValue) {
    if (!ixo_desc_field_is_text(iField))
        return SQLGetDescField(hdesc, iRecord, iField, rgbValue, cbValueMax, pcbValue);
    char text[TEXT_MAX];
    SQLRETURN rc = SQLGetDescField(hdesc, iRecord, iField, text, sizeof text, NULL);
    if (!SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA) return rc;
    SQLLEN bytes;
    rc = text_back(hdesc, rc, text, rgbValue, cbValueMax, 1, &bytes);
    if (pcbValue) *pcbValue = (SQLINTEGER)bytes;
    return rc;
}

SQLRETURN SQL_API SQLSetDescFieldW(SQLHDESC hdesc, SQLSMALLINT iRecord, SQLSMALLINT iField,
                                   SQLPOINTER rgbValue, SQLINTEGER cbValueMax) {
    if (!ixo_desc_field_is_text(iField) || !rgbValue)
        return SQLSetDescField(hdesc, iRecord, iField, rgbValue, cbValueMax);
    SQLINTEGER units = bytes_to_units(cbValueMax);
    wargs a;
    SQLRETURN rc = arg_in(&a, hdesc, SQL_HANDLE_DESC, rgbValue, units, INT32_MAX);
    if (rc != SQL_SUCCESS) return rc;
    rc = SQLSetDescField(hdesc, iRecord, iField, a.s[0], a.len[0]);
    args_free(&a);
    return rc;
}

SQLRETURN SQL_API SQLGetDescRecW(SQLHDESC hdesc, SQLSMALLINT iRecord, SQLWCHAR *szName,
                                 SQLSMALLINT cchNameMax, SQLSMALLINT *pcchName, SQLSMALLINT *pfType,
                                 SQLSMALLINT *pfSubType, SQLLEN *pLength, SQLSMALLINT *pPrecision,
                                 SQLSMALLINT *pScale, SQLSMALLINT *pNullable) {
    char name[TEXT_MAX];
    SQLRETURN rc = SQLGetDescRec(hdesc, iRecord, (SQLCHAR *)name, sizeof name, NULL, pfType,
                                 pfSubType, pLength, pPrecision, pScale, pNullable);
    if (!SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA) return rc;
    SQLLEN units;
    rc = text_back(hdesc, rc, name, szName, cchNameMax, 0, &units);
    if (pcchName) *pcchName = (SQLSMALLINT)units;
    return rc;
}
