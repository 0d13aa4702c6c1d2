/*
 * ixo_catkeys.c: SQLForeignKeys and SQLSpecialColumns from Informix's system
 * catalogue. A foreign key is a sysconstraints row of type 'R' with its
 * sysreferences row (the referenced constraint and table, the delete rule);
 * the columns of both keys are the parts of the constraints' indexes
 * (sysindexes.part1 .. part16, in key order). SQLSpecialColumns gives the
 * primary key's columns, or those of a unique index, as SQL_BEST_ROWID;
 * Informix has no row version column (SQL_ROWVER: no rows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

/* sysreferences.delrule: 'C' ON DELETE CASCADE, 'R' restrict */
#define DELRULE_CASCADE 'C'

/* ---- SQLForeignKeys ---- */

static const ixo_rcol FK_COLS[] = {
    {"PKTABLE_CAT", SQL_VARCHAR, 1},  {"PKTABLE_SCHEM", SQL_VARCHAR, 1},
    {"PKTABLE_NAME", SQL_VARCHAR, 0}, {"PKCOLUMN_NAME", SQL_VARCHAR, 0},
    {"FKTABLE_CAT", SQL_VARCHAR, 1},  {"FKTABLE_SCHEM", SQL_VARCHAR, 1},
    {"FKTABLE_NAME", SQL_VARCHAR, 0}, {"FKCOLUMN_NAME", SQL_VARCHAR, 0},
    {"KEY_SEQ", SQL_SMALLINT, 0},     {"UPDATE_RULE", SQL_SMALLINT, 1},
    {"DELETE_RULE", SQL_SMALLINT, 1}, {"FK_NAME", SQL_VARCHAR, 1},
    {"PK_NAME", SQL_VARCHAR, 1},      {"DEFERRABILITY", SQL_SMALLINT, 1},
};
enum { FK_NCOLS = sizeof FK_COLS / sizeof FK_COLS[0] };

/* the query's columns: names, then the two indexes' parts */
enum {
    FQ_PTAB,
    FQ_POWNER,
    FQ_PTABID,
    FQ_FTAB,
    FQ_FOWNER,
    FQ_FTABID,
    FQ_FKNAME,
    FQ_PKNAME,
    FQ_DELRULE,
    FQ_FPARTS,
    FQ_PPARTS = FQ_FPARTS + INDEX_PARTS
};

/* the column names of one table, loaded again only for another tabid */
typedef struct colcache {
    int tabid;
    char (*names)[IXO_NAME_MAX];
} colcache;

static int cache_load(ixo_stmt *s, colcache *c, int tabid) {
    if (c->tabid == tabid) return 1;
    memset(c->names, 0, (size_t)(MAX_COLNO + 1) * IXO_NAME_MAX);
    if (!ixo_cat_column_names(s, tabid, c->names, MAX_COLNO + 1)) return 0;
    c->tabid = tabid;
    return 1;
}

static int part_no(ix_stmt *st, int col) {
    int part = ix_column_int(st, col);
    int no = part < 0 ? -part : part;
    return no > 0 && no <= MAX_COLNO ? no : 0;
}

/* one foreign key's rows, one per column pair; -1 out of memory */
static int fk_rows(ixo_result *r, ix_stmt *st, const char *cat, colcache *pc, colcache *fc) {
    char ptab[IXO_NAME_MAX], powner[IXO_NAME_MAX], ftab[IXO_NAME_MAX], fowner[IXO_NAME_MAX];
    char fkname[IXO_NAME_MAX], pkname[IXO_NAME_MAX], rule[8];
    ixo_cat_trimmed(st, FQ_PTAB, ptab, sizeof ptab);
    ixo_cat_trimmed(st, FQ_POWNER, powner, sizeof powner);
    ixo_cat_trimmed(st, FQ_FTAB, ftab, sizeof ftab);
    ixo_cat_trimmed(st, FQ_FOWNER, fowner, sizeof fowner);
    ixo_cat_trimmed(st, FQ_FKNAME, fkname, sizeof fkname);
    ixo_cat_trimmed(st, FQ_PKNAME, pkname, sizeof pkname);
    ixo_cat_trimmed(st, FQ_DELRULE, rule, sizeof rule);
    int seq = 0;
    for (int k = 0; k < INDEX_PARTS; k++) {
        int fno = part_no(st, FQ_FPARTS + k), pno = part_no(st, FQ_PPARTS + k);
        if (!fno || !pno) continue;
        if (!ixo_result_add(r) || !ixo_result_text(r, 0, cat) || !ixo_result_text(r, 1, powner) ||
            !ixo_result_text(r, 2, ptab) || !ixo_result_text(r, 3, pc->names[pno]) ||
            !ixo_result_text(r, 4, cat) || !ixo_result_text(r, 5, fowner) ||
            !ixo_result_text(r, 6, ftab) || !ixo_result_text(r, 7, fc->names[fno]) ||
            !ixo_result_text(r, 11, fkname) || !ixo_result_text(r, 12, pkname))
            return -1;
        ixo_result_int(r, 8, ++seq);
        /* Informix has no ON UPDATE clause: an update of a referenced key is refused */
        ixo_result_int(r, 9, SQL_NO_ACTION);
        ixo_result_int(r, 10, rule[0] == DELRULE_CASCADE ? SQL_CASCADE : SQL_NO_ACTION);
        ixo_result_int(r, 13, SQL_NOT_DEFERRABLE);
    }
    return 1;
}

static SQLRETURN foreign_keys(ixo_stmt *s, const char *pschema, const char *ptable,
                              const char *fschema, const char *ftable) {
    char sql[2048];
    int n = snprintf(sql, sizeof sql,
                     "SELECT pt.tabname, pt.owner, pt.tabid, ft.tabname, ft.owner, ft.tabid, "
                     "fc.constrname, pc.constrname, r.delrule");
    for (int k = 1; k <= INDEX_PARTS; k++)
        n += snprintf(sql + n, sizeof sql - (size_t)n, ", fi.part%d", k);
    for (int k = 1; k <= INDEX_PARTS; k++)
        n += snprintf(sql + n, sizeof sql - (size_t)n, ", pi.part%d", k);
    /* the PK-table form orders by the foreign table, the FK-table form (and
     * both) by the primary table; KEY_SEQ follows within one constraint */
    snprintf(sql + n, sizeof sql - (size_t)n,
             " FROM sysconstraints fc, sysreferences r, sysconstraints pc, systables ft, "
             "systables pt, sysindexes fi, sysindexes pi WHERE fc.constrtype = 'R' AND "
             "r.constrid = fc.constrid AND pc.constrid = r.primary AND ft.tabid = fc.tabid AND "
             "pt.tabid = r.ptabid AND fi.tabid = fc.tabid AND fi.idxname = fc.idxname AND "
             "pi.tabid = pc.tabid AND pi.idxname = pc.idxname AND (pt.tabname = ? OR ? = '') AND "
             "pt.owner LIKE ? AND (ft.tabname = ? OR ? = '') AND ft.owner LIKE ? ORDER BY %s, "
             "fc.constrname",
             ftable[0] ? "pt.owner, pt.tabname" : "ft.owner, ft.tabname");
    const char *args[] = {ptable, ptable, pschema, ftable, ftable, fschema};
    ix_stmt *st = ixo_cat_query(s, sql, args, 6);
    if (!st) return SQL_ERROR;
    ixo_result *r = ixo_result_new(FK_COLS, FK_NCOLS);
    colcache pc = {0, calloc(MAX_COLNO + 1, IXO_NAME_MAX)};
    colcache fc = {0, calloc(MAX_COLNO + 1, IXO_NAME_MAX)};
    SQLRETURN ret = SQL_SUCCESS;
    if (!r || !pc.names || !fc.names) ret = ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    const char *db = ix_conn_database(s->dbc->conn);
    char cat[IXO_NAME_MAX];
    snprintf(cat, sizeof cat, "%s", db ? db : "");
    int rc = IX_DONE;
    while (ret == SQL_SUCCESS && (rc = ix_step(st)) == IX_ROW) {
        if (!cache_load(s, &pc, ix_column_int(st, FQ_PTABID)) ||
            !cache_load(s, &fc, ix_column_int(st, FQ_FTABID)))
            ret = SQL_ERROR;
        else if (fk_rows(r, st, cat, &pc, &fc) < 0)
            ret = ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    }
    if (ret == SQL_SUCCESS && rc != IX_DONE) ret = ixo_err_conn(&s->h, s->dbc->conn);
    ix_finalize(st);
    free(pc.names);
    free(fc.names);
    if (ret != SQL_SUCCESS) {
        ixo_result_free(r);
        return ret;
    }
    ixo_stmt_set_result(s, r);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLForeignKeys(SQLHSTMT hstmt, SQLCHAR *szPkCatalogName,
                                 SQLSMALLINT cbPkCatalogName, SQLCHAR *szPkSchemaName,
                                 SQLSMALLINT cbPkSchemaName, SQLCHAR *szPkTableName,
                                 SQLSMALLINT cbPkTableName, SQLCHAR *szFkCatalogName,
                                 SQLSMALLINT cbFkCatalogName, SQLCHAR *szFkSchemaName,
                                 SQLSMALLINT cbFkSchemaName, SQLCHAR *szFkTableName,
                                 SQLSMALLINT cbFkTableName) {
    (void)szPkCatalogName;
    (void)cbPkCatalogName;
    (void)szFkCatalogName;
    (void)cbFkCatalogName;
    ixo_head *h = ixo_enter(hstmt, SQL_HANDLE_STMT);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_stmt *s = (ixo_stmt *)h;
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    char pschema[IXO_NAME_MAX], ptable[IXO_NAME_MAX], fschema[IXO_NAME_MAX], ftable[IXO_NAME_MAX];
    ixo_cat_arg(pschema, sizeof pschema, szPkSchemaName, cbPkSchemaName, 1);
    ixo_cat_arg(ptable, sizeof ptable, szPkTableName, cbPkTableName, 0);
    ixo_cat_arg(fschema, sizeof fschema, szFkSchemaName, cbFkSchemaName, 1);
    ixo_cat_arg(ftable, sizeof ftable, szFkTableName, cbFkTableName, 0);
    if (!ptable[0] && !ftable[0])
        return ixo_leave(h, ixo_err(h, "HY009", 0, "Invalid use of null pointer"));
    ixo_stmt_unprepare(s);
    return ixo_leave(h, foreign_keys(s, pschema, ptable, fschema, ftable));
}

/* ---- SQLSpecialColumns ---- */

static const ixo_rcol SPECIAL_COLS[] = {
    {"SCOPE", SQL_SMALLINT, 1},          {"COLUMN_NAME", SQL_VARCHAR, 0},
    {"DATA_TYPE", SQL_SMALLINT, 0},      {"TYPE_NAME", SQL_VARCHAR, 0},
    {"COLUMN_SIZE", SQL_INTEGER, 1},     {"BUFFER_LENGTH", SQL_INTEGER, 1},
    {"DECIMAL_DIGITS", SQL_SMALLINT, 1}, {"PSEUDO_COLUMN", SQL_SMALLINT, 1},
};
enum { SPECIAL_NCOLS = sizeof SPECIAL_COLS / sizeof SPECIAL_COLS[0] };

/* the key's column numbers into parts (0 ends them): the primary key's, else
 * the first unique index's by name; 0 when the table has neither, -1 error */
static int best_key(ixo_stmt *s, const char *schema, const char *table, int *tabid,
                    int parts[INDEX_PARTS + 1]) {
    char sql[1024];
    int n = snprintf(sql, sizeof sql, "SELECT t.tabid, c.constrtype");
    for (int k = 1; k <= INDEX_PARTS; k++)
        n += snprintf(sql + n, sizeof sql - (size_t)n, ", i.part%d", k);
    snprintf(sql + n, sizeof sql - (size_t)n,
             " FROM systables t, sysindexes i, OUTER sysconstraints c WHERE t.tabid = i.tabid AND "
             "c.tabid = i.tabid AND c.idxname = i.idxname AND t.tabname = ? AND t.owner LIKE ? "
             "AND i.idxtype = 'U' ORDER BY i.idxname");
    const char *args[] = {table, schema};
    ix_stmt *st = ixo_cat_query(s, sql, args, 2);
    if (!st) return -1;
    int rc, found = 0;
    char type[8];
    while ((rc = ix_step(st)) == IX_ROW) {
        ixo_cat_trimmed(st, 1, type, sizeof type);
        if (found && type[0] != 'P') continue;
        *tabid = ix_column_int(st, 0);
        int m = 0;
        for (int k = 0; k < INDEX_PARTS; k++) {
            int part = ix_column_int(st, 2 + k), no = part < 0 ? -part : part;
            if (no) parts[m++] = no;
        }
        parts[m] = 0;
        found = 1;
    }
    if (rc != IX_DONE) ixo_err_conn(&s->h, s->dbc->conn);
    ix_finalize(st);
    return rc != IX_DONE ? -1 : found;
}

/* the row of column colno of tabid; 0 out of memory, -1 error */
static int special_row(ixo_stmt *s, ixo_result *r, int tabid, int colno, int scope, int *nullable) {
    char id[16], no[16], name[IXO_NAME_MAX];
    snprintf(id, sizeof id, "%d", tabid);
    snprintf(no, sizeof no, "%d", colno);
    const char *args[] = {id, no};
    ix_stmt *st = ixo_cat_query(
        s,
        "SELECT colname, coltype, collength, extended_id FROM syscolumns WHERE tabid = ? AND "
        "colno = ?",
        args, 2);
    if (!st) return -1;
    int rc = ix_step(st), ok = 1;
    if (rc == IX_ROW) {
        ixo_cat_trimmed(st, 0, name, sizeof name);
        int coltype = ix_column_int(st, 1);
        ixo_typeinfo ti;
        ixo_cat_coltype(coltype, ix_column_int(st, 2), ix_column_int(st, 3), &ti);
        if (!(coltype & COLTYPE_NOTNULL)) *nullable = 1;
        ok =
            ixo_result_add(r) && ixo_result_text(r, 1, name) && ixo_result_text(r, 3, ti.type_name);
        if (ok) {
            ixo_result_int(r, 0, scope);
            ixo_result_int(r, 2, ti.sql_type);
            ixo_result_int(r, 4, (int64_t)ti.column_size);
            ixo_result_int(r, 5, ti.octet_length);
            if (ti.radix) ixo_result_int(r, 6, ti.digits);
            ixo_result_int(r, 7, SQL_PC_NOT_PSEUDO);
        }
        rc = IX_DONE;
    } else if (rc != IX_DONE)
        ixo_err_conn(&s->h, s->dbc->conn);
    ix_finalize(st);
    return rc != IX_DONE ? -1 : ok;
}

/* the key's values stay valid for the session: Informix keeps a row's key */
#define KEY_SCOPE SQL_SCOPE_SESSION

static SQLRETURN special_columns(ixo_stmt *s, int ident, const char *schema, const char *table,
                                 int scope, int nullable) {
    int parts[INDEX_PARTS + 1] = {0}, tabid = 0;
    int found = ident == SQL_BEST_ROWID && scope <= KEY_SCOPE
                    ? best_key(s, schema, table, &tabid, parts)
                    : 0;
    if (found < 0) return SQL_ERROR;
    ixo_result *r = ixo_result_new(SPECIAL_COLS, SPECIAL_NCOLS);
    if (!r) return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    int any_nullable = 0;
    for (int k = 0; found && parts[k]; k++) {
        int ok = special_row(s, r, tabid, parts[k], KEY_SCOPE, &any_nullable);
        if (ok <= 0) {
            ixo_result_free(r);
            return ok < 0 ? SQL_ERROR : ixo_err(&s->h, "HY001", 0, "Memory allocation error");
        }
    }
    /* a unique index over a column that takes NULL does not identify a row
     * when the application asks for columns without NULLs */
    if (any_nullable && nullable == SQL_NO_NULLS) {
        ixo_result_free(r);
        if (!(r = ixo_result_new(SPECIAL_COLS, SPECIAL_NCOLS)))
            return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    }
    ixo_stmt_set_result(s, r);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLSpecialColumns(SQLHSTMT StatementHandle, SQLUSMALLINT IdentifierType,
                                    SQLCHAR *CatalogName, SQLSMALLINT NameLength1,
                                    SQLCHAR *SchemaName, SQLSMALLINT NameLength2,
                                    SQLCHAR *TableName, SQLSMALLINT NameLength3, SQLUSMALLINT Scope,
                                    SQLUSMALLINT Nullable) {
    (void)CatalogName;
    (void)NameLength1;
    ixo_head *h = ixo_enter(StatementHandle, SQL_HANDLE_STMT);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_stmt *s = (ixo_stmt *)h;
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    if (IdentifierType != SQL_BEST_ROWID && IdentifierType != SQL_ROWVER)
        return ixo_leave(h, ixo_err(h, "HY097", 0, "Column type out of range"));
    if (!TableName) return ixo_leave(h, ixo_err(h, "HY009", 0, "Invalid use of null pointer"));
    char schema[IXO_NAME_MAX], table[IXO_NAME_MAX];
    ixo_cat_arg(schema, sizeof schema, SchemaName, NameLength2, 1);
    ixo_cat_arg(table, sizeof table, TableName, NameLength3, 0);
    ixo_stmt_unprepare(s);
    return ixo_leave(h, special_columns(s, IdentifierType, schema, table, Scope, Nullable));
}
