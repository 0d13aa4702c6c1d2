/*
 * ixo_wide.c: the wide (UTF-16) entry points whose lengths count
 * characters, where the driver manager's own conversion of the narrow ones
 * would count UTF-8 bytes as characters: SQLDescribeColW, SQLColAttributeW,
 * SQLGetDiagRecW. Each calls the narrow function into a UTF-8 buffer and
 * converts (the library is linked -Bsymbolic-functions: these calls reach
 * the driver's functions, not the driver manager's of the same name). The
 * other wide functions are the driver manager's conversions.
 */
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

#define TEXT_MAX 2048 /* UTF-8 bytes of a name, an attribute or a message */

/* utf8 into out (cap units, NUL-terminated, cut at a whole unit); *units:
 * the whole length in units. 1 when it was cut. */
static int wide_out(const char *utf8, SQLWCHAR *out, SQLLEN cap, SQLLEN *units) {
    size_t n = strlen(utf8);
    SQLWCHAR *w = malloc((n + 1) * sizeof *w);
    long k = w ? ixo_utf8_to_utf16(utf8, n, w, n) : -1;
    if (k < 0) k = 0;
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

SQLRETURN SQL_API SQLDescribeColW(SQLHSTMT hstmt, SQLUSMALLINT icol, SQLWCHAR *szColName,
                                  SQLSMALLINT cchColNameMax, SQLSMALLINT *pcchColName,
                                  SQLSMALLINT *pfSqlType, SQLULEN *pcbColDef, SQLSMALLINT *pibScale,
                                  SQLSMALLINT *pfNullable) {
    char name[TEXT_MAX];
    SQLRETURN rc = SQLDescribeCol(hstmt, icol, (SQLCHAR *)name, sizeof name, NULL, pfSqlType,
                                  pcbColDef, pibScale, pfNullable);
    if (!SQL_SUCCEEDED(rc)) return rc;
    SQLLEN units;
    int cut = wide_out(name, szColName, cchColNameMax, &units);
    if (pcchColName) *pcchColName = (SQLSMALLINT)units;
    if (cut) rc = ixo_warn(hstmt, "01004", "String data, right truncated");
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
    SQLLEN units;
    /* lengths in bytes here */
    int cut = wide_out(text, pCharAttr, cbCharAttrMax / (SQLSMALLINT)sizeof(SQLWCHAR), &units);
    if (pcbCharAttr) *pcbCharAttr = (SQLSMALLINT)(units * (SQLLEN)sizeof(SQLWCHAR));
    if (cut) rc = ixo_warn(hstmt, "01004", "String data, right truncated");
    return rc;
}

SQLRETURN SQL_API SQLGetDiagRecW(SQLSMALLINT fHandleType, SQLHANDLE handle, SQLSMALLINT iRecord,
                                 SQLWCHAR *szSqlState, SQLINTEGER *pfNativeError,
                                 SQLWCHAR *szErrorMsg, SQLSMALLINT cchErrorMsgMax,
                                 SQLSMALLINT *pcchErrorMsg) {
    char state[6], msg[TEXT_MAX];
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
