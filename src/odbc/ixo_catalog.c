/*
 * ixo_catalog.c: SQLTables, SQLColumns, SQLPrimaryKeys and SQLStatistics from Informix's
 * system catalogue (systables, syscolumns, sysconstraints, sysindexes), read
 * with a query of its own on the connection and turned into a result the
 * driver makes (ODBC's column layout, ODBC's type numbers). SQLStatistics
 * gives the indexes only (no SQL_TABLE_STAT row). The helpers here serve the
 * other catalogue files too (ixo_catkeys.c, ixo_catproc.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

void ixo_cat_arg(char *out, size_t cap, const SQLCHAR *s, SQLSMALLINT n, int pattern) {
    if (!s) {
        snprintf(out, cap, "%s", pattern ? "%" : "");
        return;
    }
    size_t len = n == SQL_NTS || n < 0 ? strlen((const char *)s) : (size_t)n;
    snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), (const char *)s);
}

ix_stmt *ixo_cat_query(ixo_stmt *s, const char *sql, const char *const *args, int nargs) {
    ix_stmt *st = NULL;
    if (ix_prepare(s->dbc->conn, sql, IX_NTS, &st) != IX_OK) {
        ixo_err_conn(&s->h, s->dbc->conn);
        return NULL;
    }
    for (int i = 0; i < nargs; i++)
        if (ix_bind_text(st, i + 1, args[i], IX_NTS, IX_TRANSIENT) != IX_OK) {
            ixo_err_conn(&s->h, s->dbc->conn);
            ix_finalize(st);
            return NULL;
        }
    return st;
}

const char *ixo_cat_trimmed(ix_stmt *st, int i, char *buf, size_t cap) {
    const char *t = ix_column_text(st, i);
    buf[0] = 0;
    if (!t) return NULL;
    size_t n = strlen(t);
    while (n && t[n - 1] == ' ')
        n--;
    snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), t);
    return buf;
}

SQLRETURN ixo_cat_fill(ixo_stmt *s, ix_stmt *st, ixo_result *r,
                       int (*row_fn)(ixo_result *, ix_stmt *, const char *)) {
    int rc;
    const char *db = ix_conn_database(s->dbc->conn);
    char cat[IXO_NAME_MAX];
    snprintf(cat, sizeof cat, "%s", db ? db : "");
    while ((rc = ix_step(st)) == IX_ROW)
        if (!row_fn(r, st, cat)) {
            rc = IX_ENOMEM;
            break;
        }
    SQLRETURN ret = SQL_SUCCESS;
    if (rc == IX_ENOMEM)
        ret = ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    else if (rc != IX_DONE)
        ret = ixo_err_conn(&s->h, s->dbc->conn);
    ix_finalize(st);
    if (ret != SQL_SUCCESS) {
        ixo_result_free(r);
        return ret;
    }
    ixo_stmt_set_result(s, r);
    return SQL_SUCCESS;
}

/* ---- SQLTables ---- */

static const ixo_rcol TABLES_COLS[] = {
    {"TABLE_CAT", SQL_VARCHAR, 1},  {"TABLE_SCHEM", SQL_VARCHAR, 1}, {"TABLE_NAME", SQL_VARCHAR, 0},
    {"TABLE_TYPE", SQL_VARCHAR, 0}, {"REMARKS", SQL_VARCHAR, 1},
};

/* IX_T_* names of systables.tabtype; tables below tabid 100 are the
 * catalogue's own */
#define FIRST_USER_TABID 100

static int table_row(ixo_result *r, ix_stmt *st, const char *cat) {
    char name[IXO_NAME_MAX], owner[IXO_NAME_MAX], type[8];
    ixo_cat_trimmed(st, 0, name, sizeof name);
    ixo_cat_trimmed(st, 1, owner, sizeof owner);
    ixo_cat_trimmed(st, 2, type, sizeof type);
    const char *t = ix_column_int(st, 3) < FIRST_USER_TABID ? "SYSTEM TABLE"
                    : type[0] == 'V'                        ? "VIEW"
                    : type[0] == 'S' || type[0] == 'P'      ? "SYNONYM"
                                                            : "TABLE";
    return ixo_result_add(r) && ixo_result_text(r, 0, cat) && ixo_result_text(r, 1, owner) &&
           ixo_result_text(r, 2, name) && ixo_result_text(r, 3, t);
}

/* the tabtype letters a TableType list ("'TABLE','VIEW'") asks for */
static void type_filter(const char *list, char *out) {
    out[0] = 0;
    if (!*list || strcmp(list, "%") == 0) {
        strcpy(out, "TVSPY");
        return;
    }
    if (strstr(list, "SYSTEM TABLE")) strcat(out, "Y");
    char tmp[IXO_NAME_MAX];
    snprintf(tmp, sizeof tmp, "%s", list);
    char *sys = strstr(tmp, "SYSTEM TABLE");
    if (sys) memset(sys, ' ', strlen("SYSTEM TABLE"));
    if (strstr(tmp, "TABLE")) strcat(out, "T");
    if (strstr(tmp, "VIEW")) strcat(out, "V");
    if (strstr(tmp, "SYNONYM")) strcat(out, "SP");
}

SQLRETURN SQL_API SQLTables(SQLHSTMT StatementHandle, SQLCHAR *CatalogName, SQLSMALLINT NameLength1,
                            SQLCHAR *SchemaName, SQLSMALLINT NameLength2, SQLCHAR *TableName,
                            SQLSMALLINT NameLength3, SQLCHAR *TableType, SQLSMALLINT NameLength4) {
    ixo_head *h = ixo_enter(StatementHandle, SQL_HANDLE_STMT);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_stmt *s = (ixo_stmt *)h;
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    char cat[IXO_NAME_MAX], schema[IXO_NAME_MAX], table[IXO_NAME_MAX], types[IXO_NAME_MAX];
    char want[8];
    ixo_cat_arg(cat, sizeof cat, CatalogName, NameLength1, 0);
    ixo_cat_arg(schema, sizeof schema, SchemaName, NameLength2, 1);
    ixo_cat_arg(table, sizeof table, TableName, NameLength3, 1);
    ixo_cat_arg(types, sizeof types, TableType, NameLength4, 0);
    type_filter(types, want);
    ixo_stmt_unprepare(s);
    char in[32] = "", sql[512];
    for (const char *t = "TVSP"; *t; t++)
        if (strchr(want, *t))
            snprintf(in + strlen(in), sizeof in - strlen(in), "%s'%c'", in[0] ? "," : "", *t);
    if (!in[0]) strcpy(in, "'-'");
    snprintf(sql, sizeof sql,
             "SELECT tabname, owner, tabtype, tabid FROM systables WHERE tabname LIKE ? AND owner "
             "LIKE ? AND ((tabid >= %d AND tabtype IN (%s)) OR (tabid < %d AND %d = 1)) "
             "ORDER BY 3, 2, 1",
             FIRST_USER_TABID, in, FIRST_USER_TABID, strchr(want, 'Y') != NULL);
    const char *args[] = {table, schema};
    ix_stmt *st = ixo_cat_query(s, sql, args, 2);
    if (!st) return ixo_leave(h, SQL_ERROR);
    ixo_result *r = ixo_result_new(TABLES_COLS, 5);
    if (!r) {
        ix_finalize(st);
        return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
    }
    return ixo_leave(h, ixo_cat_fill(s, st, r, table_row));
}

/* ---- SQLColumns ---- */

static const ixo_rcol COLUMNS_COLS[] = {
    {"TABLE_CAT", SQL_VARCHAR, 1},         {"TABLE_SCHEM", SQL_VARCHAR, 1},
    {"TABLE_NAME", SQL_VARCHAR, 0},        {"COLUMN_NAME", SQL_VARCHAR, 0},
    {"DATA_TYPE", SQL_SMALLINT, 0},        {"TYPE_NAME", SQL_VARCHAR, 0},
    {"COLUMN_SIZE", SQL_INTEGER, 1},       {"BUFFER_LENGTH", SQL_INTEGER, 1},
    {"DECIMAL_DIGITS", SQL_SMALLINT, 1},   {"NUM_PREC_RADIX", SQL_SMALLINT, 1},
    {"NULLABLE", SQL_SMALLINT, 0},         {"REMARKS", SQL_VARCHAR, 1},
    {"COLUMN_DEF", SQL_VARCHAR, 1},        {"SQL_DATA_TYPE", SQL_SMALLINT, 0},
    {"SQL_DATETIME_SUB", SQL_SMALLINT, 1}, {"CHAR_OCTET_LENGTH", SQL_INTEGER, 1},
    {"ORDINAL_POSITION", SQL_INTEGER, 0},  {"IS_NULLABLE", SQL_VARCHAR, 1},
};

void ixo_cat_coltype(int coltype, int collength, int extended_id, ixo_typeinfo *ti) {
    ixo_type_describe(coltype & COLTYPE_TYPE, collength & 0xffff,
                      extended_id == EXTID_BLOB   ? IX_T_BLOB
                      : extended_id == EXTID_CLOB ? IX_T_CLOB
                                                  : 0,
                      ti);
}

static int column_row(ixo_result *r, ix_stmt *st, const char *cat) {
    char name[IXO_NAME_MAX], owner[IXO_NAME_MAX], col[IXO_NAME_MAX];
    ixo_cat_trimmed(st, 0, name, sizeof name);
    ixo_cat_trimmed(st, 1, owner, sizeof owner);
    ixo_cat_trimmed(st, 2, col, sizeof col);
    int coltype = ix_column_int(st, 3), len = ix_column_int(st, 4) & 0xffff;
    ixo_typeinfo ti;
    ixo_cat_coltype(coltype, len, ix_column_int(st, 6), &ti);
    int notnull = (coltype & COLTYPE_NOTNULL) != 0;
    int is_dt = ti.dt_code != 0; /* SQL_DATETIME or SQL_INTERVAL */
    if (!(ixo_result_add(r) && ixo_result_text(r, 0, cat) && ixo_result_text(r, 1, owner) &&
          ixo_result_text(r, 2, name) && ixo_result_text(r, 3, col) &&
          ixo_result_text(r, 5, ti.type_name) && ixo_result_text(r, 17, notnull ? "NO" : "YES")))
        return 0;
    ixo_result_int(r, 4, ti.sql_type);
    ixo_result_int(r, 6, (int64_t)ti.column_size);
    ixo_result_int(r, 7, ti.octet_length);
    if (ti.radix || is_dt) ixo_result_int(r, 8, ti.digits);
    if (ti.radix) ixo_result_int(r, 9, ti.radix);
    ixo_result_int(r, 10, notnull ? SQL_NO_NULLS : SQL_NULLABLE);
    ixo_result_int(r, 13, ti.desc_type);
    if (is_dt) ixo_result_int(r, 14, ti.dt_code);
    if (!ti.radix && !is_dt) ixo_result_int(r, 15, ti.octet_length);
    ixo_result_int(r, 16, ix_column_int(st, 5));
    return 1;
}

SQLRETURN SQL_API SQLColumns(SQLHSTMT StatementHandle, SQLCHAR *CatalogName,
                             SQLSMALLINT NameLength1, SQLCHAR *SchemaName, SQLSMALLINT NameLength2,
                             SQLCHAR *TableName, SQLSMALLINT NameLength3, SQLCHAR *ColumnName,
                             SQLSMALLINT NameLength4) {
    (void)CatalogName;
    (void)NameLength1;
    ixo_head *h = ixo_enter(StatementHandle, SQL_HANDLE_STMT);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_stmt *s = (ixo_stmt *)h;
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    char schema[IXO_NAME_MAX], table[IXO_NAME_MAX], column[IXO_NAME_MAX];
    ixo_cat_arg(schema, sizeof schema, SchemaName, NameLength2, 1);
    ixo_cat_arg(table, sizeof table, TableName, NameLength3, 1);
    ixo_cat_arg(column, sizeof column, ColumnName, NameLength4, 1);
    ixo_stmt_unprepare(s);
    const char *sql = "SELECT t.tabname, t.owner, c.colname, c.coltype, c.collength, c.colno, "
                      "c.extended_id FROM systables t, syscolumns c WHERE t.tabid = c.tabid AND "
                      "t.tabname LIKE ? AND t.owner LIKE ? AND c.colname LIKE ? "
                      "ORDER BY t.owner, t.tabname, c.colno";
    const char *args[] = {table, schema, column};
    ix_stmt *st = ixo_cat_query(s, sql, args, 3);
    if (!st) return ixo_leave(h, SQL_ERROR);
    ixo_result *r = ixo_result_new(COLUMNS_COLS, 18);
    if (!r) {
        ix_finalize(st);
        return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
    }
    return ixo_leave(h, ixo_cat_fill(s, st, r, column_row));
}

/* ---- SQLPrimaryKeys and SQLStatistics: indexes and their columns ---- */

int ixo_cat_column_names(ixo_stmt *s, int tabid, char (*names)[IXO_NAME_MAX], int max) {
    char id[16];
    snprintf(id, sizeof id, "%d", tabid);
    const char *args[] = {id};
    ix_stmt *st =
        ixo_cat_query(s, "SELECT colno, colname FROM syscolumns WHERE tabid = ?", args, 1);
    if (!st) return 0;
    int rc;
    while ((rc = ix_step(st)) == IX_ROW) {
        int no = ix_column_int(st, 0);
        if (no > 0 && no < max) ixo_cat_trimmed(st, 1, names[no], IXO_NAME_MAX);
    }
    if (rc != IX_DONE) ixo_err_conn(&s->h, s->dbc->conn);
    ix_finalize(st);
    return rc == IX_DONE;
}

static const ixo_rcol PK_COLS[] = {
    {"TABLE_CAT", SQL_VARCHAR, 1},  {"TABLE_SCHEM", SQL_VARCHAR, 1},
    {"TABLE_NAME", SQL_VARCHAR, 0}, {"COLUMN_NAME", SQL_VARCHAR, 0},
    {"KEY_SEQ", SQL_SMALLINT, 0},   {"PK_NAME", SQL_VARCHAR, 1},
};
static const ixo_rcol STAT_COLS[] = {
    {"TABLE_CAT", SQL_VARCHAR, 1},
    {"TABLE_SCHEM", SQL_VARCHAR, 1},
    {"TABLE_NAME", SQL_VARCHAR, 0},
    {"NON_UNIQUE", SQL_SMALLINT, 1},
    {"INDEX_QUALIFIER", SQL_VARCHAR, 1},
    {"INDEX_NAME", SQL_VARCHAR, 1},
    {"TYPE", SQL_SMALLINT, 0},
    {"ORDINAL_POSITION", SQL_SMALLINT, 1},
    {"COLUMN_NAME", SQL_VARCHAR, 1},
    {"ASC_OR_DESC", SQL_VARCHAR, 1},
    {"CARDINALITY", SQL_INTEGER, 1},
    {"PAGES", SQL_INTEGER, 1},
    {"FILTER_CONDITION", SQL_VARCHAR, 1},
};

/* one index's rows: its columns in key order */
static int index_rows(ixo_result *r, ix_stmt *st, const char *cat, char (*names)[IXO_NAME_MAX],
                      int max, int pk) {
    char name[IXO_NAME_MAX], owner[IXO_NAME_MAX], idx[IXO_NAME_MAX], type[8], cname[IXO_NAME_MAX];
    ixo_cat_trimmed(st, 0, name, sizeof name);
    ixo_cat_trimmed(st, 1, owner, sizeof owner);
    ixo_cat_trimmed(st, 3, idx, sizeof idx);
    ixo_cat_trimmed(st, 4, type, sizeof type);
    if (!ixo_cat_trimmed(st, 5, cname, sizeof cname)) cname[0] = 0;
    for (int k = 0; k < INDEX_PARTS; k++) {
        int part = ix_column_int(st, 6 + k), no = part < 0 ? -part : part;
        if (no == 0 || no >= max) continue;
        if (!ixo_result_add(r) || !ixo_result_text(r, 0, cat) || !ixo_result_text(r, 1, owner) ||
            !ixo_result_text(r, 2, name))
            return 0;
        if (pk) {
            if (!ixo_result_text(r, 3, names[no]) || !ixo_result_text(r, 5, cname[0] ? cname : idx))
                return 0;
            ixo_result_int(r, 4, k + 1);
            continue;
        }
        if (!ixo_result_text(r, 4, owner) || !ixo_result_text(r, 5, idx) ||
            !ixo_result_text(r, 8, names[no]) || !ixo_result_text(r, 9, part < 0 ? "D" : "A"))
            return 0;
        ixo_result_int(r, 3, type[0] == 'U' ? SQL_FALSE : SQL_TRUE);
        ixo_result_int(r, 6, SQL_INDEX_OTHER);
        ixo_result_int(r, 7, k + 1);
    }
    return 1;
}

static SQLRETURN indexes(ixo_stmt *s, const char *schema, const char *table, int pk, int unique) {
    char(*cols)[IXO_NAME_MAX] = calloc(MAX_COLNO + 1, IXO_NAME_MAX);
    if (!cols) return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    char sql[1024];
    int n = snprintf(sql, sizeof sql,
                     "SELECT t.tabname, t.owner, t.tabid, i.idxname, i.idxtype, c.constrname");
    for (int k = 1; k <= INDEX_PARTS; k++)
        n += snprintf(sql + n, sizeof sql - (size_t)n, ", i.part%d", k);
    snprintf(sql + n, sizeof sql - (size_t)n,
             " FROM systables t, sysindexes i, %s sysconstraints c WHERE t.tabid = i.tabid AND "
             "c.tabid = i.tabid AND c.idxname = i.idxname AND t.tabname = ? AND t.owner LIKE ? %s "
             "ORDER BY i.idxtype DESC, i.idxname",
             pk ? "" : "OUTER",
             pk       ? "AND c.constrtype = 'P'"
             : unique ? "AND i.idxtype = 'U'"
                      : "");
    const char *args[] = {table, schema};
    ix_stmt *st = ixo_cat_query(s, sql, args, 2);
    ixo_result *r = st ? ixo_result_new(pk ? PK_COLS : STAT_COLS, pk ? 6 : 13) : NULL;
    SQLRETURN ret = SQL_SUCCESS;
    if (!st)
        ret = SQL_ERROR;
    else if (!r)
        ret = ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    const char *db = ix_conn_database(s->dbc->conn);
    char cat[IXO_NAME_MAX];
    snprintf(cat, sizeof cat, "%s", db ? db : "");
    int rc = IX_DONE, have = 0;
    while (ret == SQL_SUCCESS && (rc = ix_step(st)) == IX_ROW) {
        if (!have && !(have = ixo_cat_column_names(s, ix_column_int(st, 2), cols, MAX_COLNO + 1)))
            ret = SQL_ERROR;
        else if (!index_rows(r, st, cat, cols, MAX_COLNO + 1, pk))
            ret = ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    }
    if (ret == SQL_SUCCESS && rc != IX_DONE) ret = ixo_err_conn(&s->h, s->dbc->conn);
    ix_finalize(st);
    free(cols);
    if (ret != SQL_SUCCESS) {
        ixo_result_free(r);
        return ret;
    }
    ixo_stmt_set_result(s, r);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLPrimaryKeys(SQLHSTMT hstmt, SQLCHAR *szCatalogName, SQLSMALLINT cbCatalogName,
                                 SQLCHAR *szSchemaName, SQLSMALLINT cbSchemaName,
                                 SQLCHAR *szTableName, SQLSMALLINT cbTableName) {
    (void)szCatalogName;
    (void)cbCatalogName;
    ixo_head *h = ixo_enter(hstmt, SQL_HANDLE_STMT);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_stmt *s = (ixo_stmt *)h;
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    char schema[IXO_NAME_MAX], table[IXO_NAME_MAX];
    ixo_cat_arg(schema, sizeof schema, szSchemaName, cbSchemaName, 1);
    ixo_cat_arg(table, sizeof table, szTableName, cbTableName, 0);
    ixo_stmt_unprepare(s);
    return ixo_leave(h, indexes(s, schema, table, 1, 0));
}

SQLRETURN SQL_API SQLStatistics(SQLHSTMT StatementHandle, SQLCHAR *CatalogName,
                                SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                                SQLSMALLINT NameLength2, SQLCHAR *TableName,
                                SQLSMALLINT NameLength3, SQLUSMALLINT Unique,
                                SQLUSMALLINT Reserved) {
    (void)CatalogName;
    (void)NameLength1;
    (void)Reserved;
    ixo_head *h = ixo_enter(StatementHandle, SQL_HANDLE_STMT);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_stmt *s = (ixo_stmt *)h;
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    char schema[IXO_NAME_MAX], table[IXO_NAME_MAX];
    ixo_cat_arg(schema, sizeof schema, SchemaName, NameLength2, 1);
    ixo_cat_arg(table, sizeof table, TableName, NameLength3, 0);
    ixo_stmt_unprepare(s);
    return ixo_leave(h, indexes(s, schema, table, 0, Unique == SQL_INDEX_UNIQUE));
}
