/*
 * ixo_info.c: SQLGetInfo (the information types tools ask for), SQLGetFunctions
 * (what the driver exports) and SQLGetTypeInfo (the Informix types as ODBC
 * sees them, a result the driver makes).
 */
#include <stdio.h>
#include <string.h>

#include "ixo_int.h"

/* fixed answers: a string, a 16-bit or a 32-bit value */
typedef struct info {
    SQLUSMALLINT id;
    char kind; /* 's', 'h', 'i' */
    const char *s;
    SQLUINTEGER v;
} info;

#define S(id, s)                                                                                   \
    { id, 's', s, 0 }
#define H(id, v)                                                                                   \
    { id, 'h', NULL, (SQLUINTEGER)(v) }
#define I(id, v)                                                                                   \
    { id, 'i', NULL, (SQLUINTEGER)(v) }

static const info INFO[] = {
    S(SQL_DRIVER_NAME, IXO_DRIVER_NAME),
    S(SQL_DRIVER_VER, IXO_DRIVER_VER),
    S(SQL_DRIVER_ODBC_VER, "03.80"),
    S(SQL_DBMS_NAME, "Informix"),
    S(SQL_IDENTIFIER_QUOTE_CHAR, "\""),
    S(SQL_CATALOG_NAME_SEPARATOR, ":"),
    S(SQL_CATALOG_TERM, "database"),
    S(SQL_SCHEMA_TERM, "owner"),
    S(SQL_TABLE_TERM, "table"),
    S(SQL_PROCEDURE_TERM, "procedure"),
    S(SQL_SEARCH_PATTERN_ESCAPE, "\\"),
    S(SQL_SPECIAL_CHARACTERS, ""),
    S(SQL_KEYWORDS, "BYTE,DATETIME,INTERVAL,LVARCHAR,MONEY,SERIAL,SERIAL8,SMALLFLOAT,TEXT"),
    S(SQL_CATALOG_NAME, "Y"),
    S(SQL_COLLATION_SEQ, ""),
    S(SQL_COLUMN_ALIAS, "Y"),
    S(SQL_ACCESSIBLE_TABLES, "N"),
    S(SQL_ACCESSIBLE_PROCEDURES, "N"),
    S(SQL_DATA_SOURCE_READ_ONLY, "N"),
    S(SQL_EXPRESSIONS_IN_ORDERBY, "Y"),
    S(SQL_LIKE_ESCAPE_CLAUSE, "Y"),
    S(SQL_MULT_RESULT_SETS, "N"),
    S(SQL_MULTIPLE_ACTIVE_TXN, "Y"),
    S(SQL_NEED_LONG_DATA_LEN, "N"),
    S(SQL_OUTER_JOINS, "Y"),
    S(SQL_PROCEDURES, "Y"),
    S(SQL_ROW_UPDATES, "N"),
    S(SQL_ORDER_BY_COLUMNS_IN_SELECT, "N"),
    S(SQL_INTEGRITY, "Y"),
    S(SQL_DESCRIBE_PARAMETER, "N"),
    S(SQL_MAX_ROW_SIZE_INCLUDES_LONG, "N"),
    S(SQL_XOPEN_CLI_YEAR, "1995"),
    S(SQL_ODBC_SQL_OPT_IEF, "N"),
    H(SQL_MAX_CONCURRENT_ACTIVITIES, 0),
    H(SQL_MAX_DRIVER_CONNECTIONS, 0),
    H(SQL_TXN_CAPABLE, SQL_TC_ALL),
    H(SQL_CURSOR_COMMIT_BEHAVIOR, SQL_CB_CLOSE),
    H(SQL_CURSOR_ROLLBACK_BEHAVIOR, SQL_CB_CLOSE),
    H(SQL_IDENTIFIER_CASE, SQL_IC_LOWER),
    H(SQL_QUOTED_IDENTIFIER_CASE, SQL_IC_SENSITIVE),
    H(SQL_MAX_COLUMN_NAME_LEN, 128),
    H(SQL_MAX_TABLE_NAME_LEN, 128),
    H(SQL_MAX_SCHEMA_NAME_LEN, 32),
    H(SQL_MAX_CATALOG_NAME_LEN, 128),
    H(SQL_MAX_CURSOR_NAME_LEN, 128),
    H(SQL_MAX_PROCEDURE_NAME_LEN, 128),
    H(SQL_MAX_IDENTIFIER_LEN, 128),
    H(SQL_MAX_USER_NAME_LEN, 32),
    H(SQL_MAX_COLUMNS_IN_GROUP_BY, 0),
    H(SQL_MAX_COLUMNS_IN_INDEX, 16),
    H(SQL_MAX_COLUMNS_IN_ORDER_BY, 0),
    H(SQL_MAX_COLUMNS_IN_SELECT, 0),
    H(SQL_MAX_COLUMNS_IN_TABLE, 0),
    H(SQL_MAX_TABLES_IN_SELECT, 0),
    H(SQL_NULL_COLLATION, SQL_NC_LOW),
    H(SQL_CONCAT_NULL_BEHAVIOR, SQL_CB_NULL),
    H(SQL_CORRELATION_NAME, SQL_CN_ANY),
    H(SQL_NON_NULLABLE_COLUMNS, SQL_NNC_NON_NULL),
    H(SQL_GROUP_BY, SQL_GB_GROUP_BY_CONTAINS_SELECT),
    H(SQL_CATALOG_LOCATION, SQL_CL_START),
    H(SQL_FILE_USAGE, SQL_FILE_NOT_SUPPORTED),
    H(SQL_ODBC_API_CONFORMANCE, SQL_OAC_LEVEL1),
    H(SQL_ODBC_SQL_CONFORMANCE, SQL_OSC_CORE),
    H(SQL_ODBC_SAG_CLI_CONFORMANCE, SQL_OSCC_COMPLIANT),
    H(SQL_ACTIVE_ENVIRONMENTS, 0),
    H(SQL_TXN_ISOLATION_OPTION, 0), /* 32-bit in ODBC 3; see below */
    I(SQL_SQL_CONFORMANCE, SQL_SC_SQL92_ENTRY),
    I(SQL_ODBC_INTERFACE_CONFORMANCE, SQL_OIC_CORE),
    I(SQL_DEFAULT_TXN_ISOLATION, SQL_TXN_READ_COMMITTED),
    I(SQL_GETDATA_EXTENSIONS, SQL_GD_ANY_COLUMN | SQL_GD_ANY_ORDER | SQL_GD_BOUND),
    I(SQL_SCROLL_OPTIONS, SQL_SO_FORWARD_ONLY | SQL_SO_STATIC),
    I(SQL_CURSOR_SENSITIVITY, SQL_UNSPECIFIED),
    I(SQL_BATCH_SUPPORT, 0),
    I(SQL_BATCH_ROW_COUNT, 0),
    I(SQL_PARAM_ARRAY_ROW_COUNTS, SQL_PARC_NO_BATCH),
    I(SQL_PARAM_ARRAY_SELECTS, SQL_PAS_NO_SELECT),
    I(SQL_ASYNC_MODE, SQL_AM_NONE),
    I(SQL_MAX_ASYNC_CONCURRENT_STATEMENTS, 0),
    I(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES1, SQL_CA1_NEXT),
    I(SQL_FORWARD_ONLY_CURSOR_ATTRIBUTES2, SQL_CA2_READ_ONLY_CONCURRENCY),
    I(SQL_STATIC_CURSOR_ATTRIBUTES1, SQL_CA1_NEXT | SQL_CA1_ABSOLUTE | SQL_CA1_RELATIVE),
    I(SQL_STATIC_CURSOR_ATTRIBUTES2, SQL_CA2_READ_ONLY_CONCURRENCY),
    I(SQL_KEYSET_CURSOR_ATTRIBUTES1, 0),
    I(SQL_KEYSET_CURSOR_ATTRIBUTES2, 0),
    I(SQL_DYNAMIC_CURSOR_ATTRIBUTES1, 0),
    I(SQL_DYNAMIC_CURSOR_ATTRIBUTES2, 0),
    I(SQL_FETCH_DIRECTION, SQL_FD_FETCH_NEXT | SQL_FD_FETCH_FIRST | SQL_FD_FETCH_LAST |
                               SQL_FD_FETCH_PRIOR | SQL_FD_FETCH_ABSOLUTE | SQL_FD_FETCH_RELATIVE),
    I(SQL_SCROLL_CONCURRENCY, SQL_SCCO_READ_ONLY),
    I(SQL_LOCK_TYPES, 0),
    I(SQL_POS_OPERATIONS, 0),
    I(SQL_POSITIONED_STATEMENTS,
      SQL_PS_POSITIONED_DELETE | SQL_PS_POSITIONED_UPDATE | SQL_PS_SELECT_FOR_UPDATE),
    I(SQL_STATIC_SENSITIVITY, 0),
    I(SQL_BOOKMARK_PERSISTENCE, 0),
    I(SQL_STRING_FUNCTIONS, SQL_FN_STR_CONCAT | SQL_FN_STR_LCASE | SQL_FN_STR_LENGTH |
                                SQL_FN_STR_LTRIM | SQL_FN_STR_RTRIM | SQL_FN_STR_SUBSTRING |
                                SQL_FN_STR_UCASE | SQL_FN_STR_REPLACE),
    I(SQL_NUMERIC_FUNCTIONS, SQL_FN_NUM_ABS | SQL_FN_NUM_MOD | SQL_FN_NUM_ROUND | SQL_FN_NUM_SQRT |
                                 SQL_FN_NUM_TRUNCATE | SQL_FN_NUM_POWER),
    I(SQL_TIMEDATE_FUNCTIONS, SQL_FN_TD_NOW | SQL_FN_TD_CURDATE | SQL_FN_TD_DAYOFMONTH |
                                  SQL_FN_TD_MONTH | SQL_FN_TD_YEAR | SQL_FN_TD_DAYOFWEEK),
    I(SQL_SYSTEM_FUNCTIONS, SQL_FN_SYS_USERNAME | SQL_FN_SYS_DBNAME),
    I(SQL_CONVERT_FUNCTIONS, 0),
    I(SQL_TIMEDATE_ADD_INTERVALS, 0),
    I(SQL_TIMEDATE_DIFF_INTERVALS, 0),
    I(SQL_DATETIME_LITERALS, 0),
    I(SQL_AGGREGATE_FUNCTIONS, SQL_AF_ALL | SQL_AF_AVG | SQL_AF_COUNT | SQL_AF_DISTINCT |
                                   SQL_AF_MAX | SQL_AF_MIN | SQL_AF_SUM),
    I(SQL_CATALOG_USAGE, SQL_CU_DML_STATEMENTS),
    I(SQL_SCHEMA_USAGE, SQL_SU_DML_STATEMENTS | SQL_SU_TABLE_DEFINITION | SQL_SU_INDEX_DEFINITION |
                            SQL_SU_PRIVILEGE_DEFINITION),
    I(SQL_OJ_CAPABILITIES, SQL_OJ_LEFT | SQL_OJ_RIGHT | SQL_OJ_NESTED | SQL_OJ_NOT_ORDERED |
                               SQL_OJ_INNER | SQL_OJ_ALL_COMPARISON_OPS),
    I(SQL_SUBQUERIES, SQL_SQ_CORRELATED_SUBQUERIES | SQL_SQ_COMPARISON | SQL_SQ_EXISTS | SQL_SQ_IN |
                          SQL_SQ_QUANTIFIED),
    I(SQL_UNION, SQL_U_UNION | SQL_U_UNION_ALL),
    I(SQL_ALTER_TABLE, SQL_AT_ADD_COLUMN | SQL_AT_DROP_COLUMN),
    I(SQL_INDEX_KEYWORDS, SQL_IK_ALL),
    I(SQL_INFO_SCHEMA_VIEWS, 0),
    I(SQL_MAX_STATEMENT_LEN, 65535),
    I(SQL_MAX_ROW_SIZE, 32767),
    I(SQL_MAX_CHAR_LITERAL_LEN, 32767),
    I(SQL_MAX_BINARY_LITERAL_LEN, 0),
    I(SQL_MAX_INDEX_SIZE, 0),
    I(SQL_SQL92_PREDICATES, SQL_SP_BETWEEN | SQL_SP_COMPARISON | SQL_SP_EXISTS | SQL_SP_IN |
                                SQL_SP_ISNOTNULL | SQL_SP_ISNULL | SQL_SP_LIKE),
    I(SQL_SQL92_VALUE_EXPRESSIONS, SQL_SVE_CASE | SQL_SVE_CAST | SQL_SVE_COALESCE | SQL_SVE_NULLIF),
    I(SQL_STANDARD_CLI_CONFORMANCE, SQL_SCC_XOPEN_CLI_VERSION1),
    I(SQL_CREATE_TABLE, SQL_CT_CREATE_TABLE | SQL_CT_COLUMN_CONSTRAINT | SQL_CT_TABLE_CONSTRAINT),
    I(SQL_CREATE_VIEW, SQL_CV_CREATE_VIEW),
    I(SQL_DROP_TABLE, SQL_DT_DROP_TABLE),
    I(SQL_DROP_VIEW, SQL_DV_DROP_VIEW),
    I(SQL_DDL_INDEX, SQL_DI_CREATE_INDEX | SQL_DI_DROP_INDEX),
};

static SQLRETURN get_info(ixo_dbc *d, SQLUSMALLINT id, SQLPOINTER v, SQLSMALLINT cap,
                          SQLSMALLINT *len) {
    const char *dyn = NULL;
    SQLUINTEGER txn = SQL_TXN_READ_UNCOMMITTED | SQL_TXN_READ_COMMITTED | SQL_TXN_REPEATABLE_READ |
                      SQL_TXN_SERIALIZABLE;
    switch (id) {
    case SQL_DBMS_VER: dyn = d->conn ? ix_server_version(d->conn) : ""; break;
    case SQL_SERVER_NAME: dyn = d->conn ? ix_conn_server(d->conn) : ""; break;
    case SQL_DATABASE_NAME: dyn = d->conn ? ix_conn_database(d->conn) : ""; break;
    case SQL_DATA_SOURCE_NAME: dyn = d->dsn; break;
    case SQL_USER_NAME: dyn = ""; break;
    case SQL_TXN_ISOLATION_OPTION:
        if (v) *(SQLUINTEGER *)v = txn;
        if (len) *len = sizeof(SQLUINTEGER);
        return SQL_SUCCESS;
    default: break;
    }
    if (dyn) {
        if (!dyn) dyn = "";
        return ixo_str_out(dyn, v, cap, len, NULL) && v
                   ? ixo_warn(&d->h, "01004", "String data, right truncated")
                   : SQL_SUCCESS;
    }
    for (size_t i = 0; i < sizeof INFO / sizeof INFO[0]; i++) {
        const info *f = &INFO[i];
        if (f->id != id) continue;
        if (f->kind == 's')
            return ixo_str_out(f->s, v, cap, len, NULL) && v
                       ? ixo_warn(&d->h, "01004", "String data, right truncated")
                       : SQL_SUCCESS;
        if (f->kind == 'h') {
            if (v) *(SQLUSMALLINT *)v = (SQLUSMALLINT)f->v;
            if (len) *len = sizeof(SQLUSMALLINT);
        } else {
            if (v) *(SQLUINTEGER *)v = f->v;
            if (len) *len = sizeof(SQLUINTEGER);
        }
        return SQL_SUCCESS;
    }
    return ixo_err(&d->h, "HY096", 0, "Information type %u is not known", id);
}

int ixo_info_is_text(SQLUSMALLINT id) {
    switch (id) {
    case SQL_DBMS_VER:
    case SQL_SERVER_NAME:
    case SQL_DATABASE_NAME:
    case SQL_DATA_SOURCE_NAME:
    case SQL_USER_NAME: return 1; /* get_info's texts of the connection */
    default: break;
    }
    for (size_t i = 0; i < sizeof INFO / sizeof INFO[0]; i++)
        if (INFO[i].id == id) return INFO[i].kind == 's';
    return 0;
}

SQLRETURN SQL_API SQLGetInfo(SQLHDBC ConnectionHandle, SQLUSMALLINT InfoType, SQLPOINTER InfoValue,
                             SQLSMALLINT BufferLength, SQLSMALLINT *StringLength) {
    ixo_head *h = ixo_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    return ixo_leave(h, get_info((ixo_dbc *)h, InfoType, InfoValue, BufferLength, StringLength));
}

/* ---- SQLGetFunctions ---- */

static const SQLUSMALLINT FUNCS[] = {
    SQL_API_SQLALLOCHANDLE,    SQL_API_SQLFREEHANDLE,
    SQL_API_SQLSETENVATTR,     SQL_API_SQLGETENVATTR,
    SQL_API_SQLCONNECT,        SQL_API_SQLDRIVERCONNECT,
    SQL_API_SQLDISCONNECT,     SQL_API_SQLSETCONNECTATTR,
    SQL_API_SQLGETCONNECTATTR, SQL_API_SQLENDTRAN,
    SQL_API_SQLNATIVESQL,      SQL_API_SQLGETINFO,
    SQL_API_SQLGETFUNCTIONS,   SQL_API_SQLGETTYPEINFO,
    SQL_API_SQLEXECDIRECT,     SQL_API_SQLPREPARE,
    SQL_API_SQLEXECUTE,        SQL_API_SQLBINDPARAMETER,
    SQL_API_SQLNUMPARAMS,      SQL_API_SQLDESCRIBEPARAM,
    SQL_API_SQLROWCOUNT,       SQL_API_SQLFREESTMT,
    SQL_API_SQLCLOSECURSOR,    SQL_API_SQLCANCEL,
    SQL_API_SQLMORERESULTS,    SQL_API_SQLSETSTMTATTR,
    SQL_API_SQLGETSTMTATTR,    SQL_API_SQLNUMRESULTCOLS,
    SQL_API_SQLDESCRIBECOL,    SQL_API_SQLCOLATTRIBUTE,
    SQL_API_SQLBINDCOL,        SQL_API_SQLFETCH,
    SQL_API_SQLFETCHSCROLL,    SQL_API_SQLGETDATA,
    SQL_API_SQLGETDIAGREC,     SQL_API_SQLGETDIAGFIELD,
    SQL_API_SQLTABLES,         SQL_API_SQLCOLUMNS,
    SQL_API_SQLPRIMARYKEYS,    SQL_API_SQLSTATISTICS,
    SQL_API_SQLFOREIGNKEYS,    SQL_API_SQLSPECIALCOLUMNS,
    SQL_API_SQLPROCEDURES,     SQL_API_SQLPROCEDURECOLUMNS,
    SQL_API_SQLEXTENDEDFETCH,  SQL_API_SQLPARAMDATA,
    SQL_API_SQLPUTDATA,        SQL_API_SQLGETDESCFIELD,
    SQL_API_SQLSETDESCFIELD,   SQL_API_SQLGETDESCREC,
    SQL_API_SQLSETDESCREC,     SQL_API_SQLCOPYDESC,
    SQL_API_SQLGETCURSORNAME,  SQL_API_SQLSETCURSORNAME,
};

SQLRETURN SQL_API SQLGetFunctions(SQLHDBC ConnectionHandle, SQLUSMALLINT FunctionId,
                                  SQLUSMALLINT *Supported) {
    ixo_head *h = ixo_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    size_t n = sizeof FUNCS / sizeof FUNCS[0];
    if (!Supported) return ixo_leave(h, ixo_err(h, "HY009", 0, "Invalid use of null pointer"));
    if (FunctionId == SQL_API_ODBC3_ALL_FUNCTIONS) {
        memset(Supported, 0, SQL_API_ODBC3_ALL_FUNCTIONS_SIZE * sizeof *Supported);
        for (size_t i = 0; i < n; i++)
            Supported[FUNCS[i] >> 4] |= (SQLUSMALLINT)(1u << (FUNCS[i] & 0xf));
    } else if (FunctionId == SQL_API_ALL_FUNCTIONS) {
        memset(Supported, 0, 100 * sizeof *Supported);
        for (size_t i = 0; i < n; i++)
            if (FUNCS[i] < 100) Supported[FUNCS[i]] = SQL_TRUE;
    } else {
        *Supported = SQL_FALSE;
        for (size_t i = 0; i < n; i++)
            if (FUNCS[i] == FunctionId) *Supported = SQL_TRUE;
    }
    return ixo_leave(h, SQL_SUCCESS);
}

/* ---- SQLGetTypeInfo ---- */

static const ixo_rcol TYPEINFO_COLS[] = {
    {"TYPE_NAME", SQL_VARCHAR, 0},           {"DATA_TYPE", SQL_SMALLINT, 0},
    {"COLUMN_SIZE", SQL_INTEGER, 1},         {"LITERAL_PREFIX", SQL_VARCHAR, 1},
    {"LITERAL_SUFFIX", SQL_VARCHAR, 1},      {"CREATE_PARAMS", SQL_VARCHAR, 1},
    {"NULLABLE", SQL_SMALLINT, 0},           {"CASE_SENSITIVE", SQL_SMALLINT, 0},
    {"SEARCHABLE", SQL_SMALLINT, 0},         {"UNSIGNED_ATTRIBUTE", SQL_SMALLINT, 1},
    {"FIXED_PREC_SCALE", SQL_SMALLINT, 0},   {"AUTO_UNIQUE_VALUE", SQL_SMALLINT, 1},
    {"LOCAL_TYPE_NAME", SQL_VARCHAR, 1},     {"MINIMUM_SCALE", SQL_SMALLINT, 1},
    {"MAXIMUM_SCALE", SQL_SMALLINT, 1},      {"SQL_DATA_TYPE", SQL_SMALLINT, 0},
    {"SQL_DATETIME_SUB", SQL_SMALLINT, 1},   {"NUM_PREC_RADIX", SQL_INTEGER, 1},
    {"INTERVAL_PRECISION", SQL_SMALLINT, 1},
};

#define NONE (-99) /* a NULL cell */
#define IV(name, type, size, suffix, minsc, maxsc, code)                                           \
    {                                                                                              \
        name, type, size, "INTERVAL(", suffix, NULL, 0, SQL_SEARCHABLE, 0, 0, NONE, minsc, maxsc,  \
            SQL_INTERVAL, code, NONE                                                               \
    }
static const struct tinfo {
    const char *name;
    SQLSMALLINT type;
    int size;
    const char *prefix, *suffix, *params;
    int cased, search, unsig, fixed, autoinc, minsc, maxsc, sqltype, sub, radix;
} TYPES[] = {
    {"BOOLEAN", SQL_BIT, 1, NULL, NULL, NULL, 0, SQL_PRED_BASIC, NONE, 0, NONE, NONE, NONE, SQL_BIT,
     NONE, NONE},
    {"BIGINT", SQL_BIGINT, 19, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 0, 0, 0, SQL_BIGINT, NONE,
     10},
    {"INT8", SQL_BIGINT, 19, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 0, 0, 0, SQL_BIGINT, NONE,
     10},
    {"BIGSERIAL", SQL_BIGINT, 19, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 1, 0, 0, SQL_BIGINT,
     NONE, 10},
    {"SERIAL8", SQL_BIGINT, 19, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 1, 0, 0, SQL_BIGINT,
     NONE, 10},
    {"BYTE", SQL_LONGVARBINARY, INT32_MAX, NULL, NULL, NULL, 0, SQL_PRED_NONE, NONE, 0, NONE, NONE,
     NONE, SQL_LONGVARBINARY, NONE, NONE},
    {"BLOB", SQL_LONGVARBINARY, INT32_MAX, NULL, NULL, NULL, 0, SQL_PRED_NONE, NONE, 0, NONE, NONE,
     NONE, SQL_LONGVARBINARY, NONE, NONE},
    {"TEXT", SQL_LONGVARCHAR, INT32_MAX, "'", "'", NULL, 1, SQL_PRED_NONE, NONE, 0, NONE, NONE,
     NONE, SQL_LONGVARCHAR, NONE, NONE},
    {"CLOB", SQL_LONGVARCHAR, INT32_MAX, NULL, NULL, NULL, 1, SQL_PRED_NONE, NONE, 0, NONE, NONE,
     NONE, SQL_LONGVARCHAR, NONE, NONE},
    {"CHAR", SQL_CHAR, 32767, "'", "'", NULL, 1, SQL_SEARCHABLE, NONE, 0, NONE, NONE, NONE,
     SQL_CHAR, NONE, NONE},
    {"NCHAR", SQL_CHAR, 32767, "'", "'", NULL, 1, SQL_SEARCHABLE, NONE, 0, NONE, NONE, NONE,
     SQL_CHAR, NONE, NONE},
    {"DECIMAL", SQL_DECIMAL, 32, NULL, NULL, "precision,scale", 0, SQL_SEARCHABLE, 0, 0, 0, 0, 32,
     SQL_DECIMAL, NONE, 10},
    {"MONEY", SQL_DECIMAL, 32, NULL, NULL, "precision,scale", 0, SQL_SEARCHABLE, 0, 1, 0, 0, 32,
     SQL_DECIMAL, NONE, 10},
    {"INTEGER", SQL_INTEGER, 10, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 0, 0, 0, SQL_INTEGER,
     NONE, 10},
    {"SERIAL", SQL_INTEGER, 10, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 1, 0, 0, SQL_INTEGER,
     NONE, 10},
    {"SMALLINT", SQL_SMALLINT, 5, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 0, 0, 0, SQL_SMALLINT,
     NONE, 10},
    {"SMALLFLOAT", SQL_REAL, 7, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 0, NONE, NONE, SQL_REAL,
     NONE, 10},
    {"FLOAT", SQL_DOUBLE, 15, NULL, NULL, NULL, 0, SQL_SEARCHABLE, 0, 0, 0, NONE, NONE, SQL_DOUBLE,
     NONE, 10},
    {"VARCHAR", SQL_VARCHAR, 255, "'", "'", NULL, 1, SQL_SEARCHABLE, NONE, 0, NONE, NONE, NONE,
     SQL_VARCHAR, NONE, NONE},
    {"NVARCHAR", SQL_VARCHAR, 255, "'", "'", NULL, 1, SQL_SEARCHABLE, NONE, 0, NONE, NONE, NONE,
     SQL_VARCHAR, NONE, NONE},
    {"LVARCHAR", SQL_VARCHAR, 32739, "'", "'", NULL, 1, SQL_SEARCHABLE, NONE, 0, NONE, NONE, NONE,
     SQL_VARCHAR, NONE, NONE},
    {"DATE", SQL_TYPE_DATE, 10, "'", "'", NULL, 0, SQL_SEARCHABLE, NONE, 0, NONE, NONE, NONE,
     SQL_DATETIME, SQL_CODE_DATE, NONE},
    {"DATETIME HOUR TO SECOND", SQL_TYPE_TIME, 8, "DATETIME(", ") HOUR TO SECOND", NULL, 0,
     SQL_SEARCHABLE, NONE, 0, NONE, 0, 0, SQL_DATETIME, SQL_CODE_TIME, NONE},
    {"DATETIME YEAR TO FRACTION(5)", SQL_TYPE_TIMESTAMP, 25, "DATETIME(", ") YEAR TO FRACTION(5)",
     NULL, 0, SQL_SEARCHABLE, NONE, 0, NONE, 0, 5, SQL_DATETIME, SQL_CODE_TIMESTAMP, NONE},
    /* INTERVAL at the largest leading precision (INTERVAL_PRECISION 9) */
    IV("INTERVAL YEAR(9) TO YEAR", SQL_INTERVAL_YEAR, 9, ") YEAR(9) TO YEAR", NONE, NONE,
       SQL_CODE_YEAR),
    IV("INTERVAL MONTH(9) TO MONTH", SQL_INTERVAL_MONTH, 9, ") MONTH(9) TO MONTH", NONE, NONE,
       SQL_CODE_MONTH),
    IV("INTERVAL DAY(9) TO DAY", SQL_INTERVAL_DAY, 9, ") DAY(9) TO DAY", NONE, NONE, SQL_CODE_DAY),
    IV("INTERVAL HOUR(9) TO HOUR", SQL_INTERVAL_HOUR, 9, ") HOUR(9) TO HOUR", NONE, NONE,
       SQL_CODE_HOUR),
    IV("INTERVAL MINUTE(9) TO MINUTE", SQL_INTERVAL_MINUTE, 9, ") MINUTE(9) TO MINUTE", NONE, NONE,
       SQL_CODE_MINUTE),
    IV("INTERVAL SECOND(9) TO FRACTION(5)", SQL_INTERVAL_SECOND, 15, ") SECOND(9) TO FRACTION(5)",
       0, 5, SQL_CODE_SECOND),
    IV("INTERVAL YEAR(9) TO MONTH", SQL_INTERVAL_YEAR_TO_MONTH, 12, ") YEAR(9) TO MONTH", NONE,
       NONE, SQL_CODE_YEAR_TO_MONTH),
    IV("INTERVAL DAY(9) TO HOUR", SQL_INTERVAL_DAY_TO_HOUR, 12, ") DAY(9) TO HOUR", NONE, NONE,
       SQL_CODE_DAY_TO_HOUR),
    IV("INTERVAL DAY(9) TO MINUTE", SQL_INTERVAL_DAY_TO_MINUTE, 15, ") DAY(9) TO MINUTE", NONE,
       NONE, SQL_CODE_DAY_TO_MINUTE),
    IV("INTERVAL DAY(9) TO FRACTION(5)", SQL_INTERVAL_DAY_TO_SECOND, 24, ") DAY(9) TO FRACTION(5)",
       0, 5, SQL_CODE_DAY_TO_SECOND),
    IV("INTERVAL HOUR(9) TO MINUTE", SQL_INTERVAL_HOUR_TO_MINUTE, 12, ") HOUR(9) TO MINUTE", NONE,
       NONE, SQL_CODE_HOUR_TO_MINUTE),
    IV("INTERVAL HOUR(9) TO FRACTION(5)", SQL_INTERVAL_HOUR_TO_SECOND, 21,
       ") HOUR(9) TO FRACTION(5)", 0, 5, SQL_CODE_HOUR_TO_SECOND),
    IV("INTERVAL MINUTE(9) TO FRACTION(5)", SQL_INTERVAL_MINUTE_TO_SECOND, 18,
       ") MINUTE(9) TO FRACTION(5)", 0, 5, SQL_CODE_MINUTE_TO_SECOND),
};

static int cell_int(ixo_result *r, int c, int v) {
    if (v != NONE) ixo_result_int(r, c, v);
    return 1;
}

SQLRETURN SQL_API SQLGetTypeInfo(SQLHSTMT StatementHandle, SQLSMALLINT DataType) {
    IXO_ENTER_STMT(StatementHandle);
    ixo_stmt_unprepare(s);
    if (DataType == SQL_DATE) DataType = SQL_TYPE_DATE;
    if (DataType == SQL_TIME) DataType = SQL_TYPE_TIME;
    if (DataType == SQL_TIMESTAMP) DataType = SQL_TYPE_TIMESTAMP;
    ixo_result *r = ixo_result_new(TYPEINFO_COLS, 19);
    if (!r) return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
    int ok = 1;
    for (size_t i = 0; ok && i < sizeof TYPES / sizeof TYPES[0]; i++) {
        const struct tinfo *t = &TYPES[i];
        if (DataType != SQL_ALL_TYPES && DataType != t->type) continue;
        ok = ixo_result_add(r) && ixo_result_text(r, 0, t->name) &&
             ixo_result_text(r, 3, t->prefix) && ixo_result_text(r, 4, t->suffix) &&
             ixo_result_text(r, 5, t->params) && ixo_result_text(r, 12, t->name);
        if (!ok) break;
        cell_int(r, 1, t->type);
        cell_int(r, 2, t->size);
        cell_int(r, 6, SQL_NULLABLE);
        cell_int(r, 7, t->cased);
        cell_int(r, 8, t->search);
        cell_int(r, 9, t->unsig);
        cell_int(r, 10, t->fixed);
        cell_int(r, 11, t->autoinc);
        cell_int(r, 13, t->minsc);
        cell_int(r, 14, t->maxsc);
        cell_int(r, 15, t->sqltype);
        cell_int(r, 16, t->sub);
        cell_int(r, 17, t->radix);
        if (t->sqltype == SQL_INTERVAL) cell_int(r, 18, IXO_IV_MAX_PREC);
    }
    if (!ok) {
        ixo_result_free(r);
        return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
    }
    ixo_stmt_set_result(s, r);
    return ixo_leave(h, SQL_SUCCESS);
}
