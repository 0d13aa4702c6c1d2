/*
 * ixo_catproc.c: SQLProcedures and SQLProcedureColumns from sysprocedures
 * (one row per routine: numargs, paramtypes "integer,char(15)", retsize the
 * number of values it returns) and sysprocbody (the CREATE statement,
 * datakey 'T', in chunks). The catalogue keeps no parameter names and no
 * return types: both are read from the CREATE statement's text (the names in
 * the parameter list, the types of its RETURNING / RETURNS clause); the
 * parameter types are paramtypes'.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixo_int.h"
#include "ixo_routine.h"

/* ---- SQLProcedures ---- */

static const ixo_rcol PROC_COLS[] = {
    {"PROCEDURE_CAT", SQL_VARCHAR, 1},     {"PROCEDURE_SCHEM", SQL_VARCHAR, 1},
    {"PROCEDURE_NAME", SQL_VARCHAR, 0},    {"NUM_INPUT_PARAMS", SQL_INTEGER, 1},
    {"NUM_OUTPUT_PARAMS", SQL_INTEGER, 1}, {"NUM_RESULT_SETS", SQL_INTEGER, 1},
    {"REMARKS", SQL_VARCHAR, 1},           {"PROCEDURE_TYPE", SQL_SMALLINT, 1},
};
enum { PROC_NCOLS = sizeof PROC_COLS / sizeof PROC_COLS[0] };

static int proc_row(ixo_result *r, ix_stmt *st, const char *cat) {
    char name[IXO_NAME_MAX], owner[IXO_NAME_MAX];
    ixo_cat_trimmed(st, 0, name, sizeof name);
    ixo_cat_trimmed(st, 1, owner, sizeof owner);
    int nret = ix_column_int(st, 3);
    if (!ixo_result_add(r) || !ixo_result_text(r, 0, cat) || !ixo_result_text(r, 1, owner) ||
        !ixo_result_text(r, 2, name))
        return 0;
    ixo_result_int(r, 3, ix_column_int(st, 2));
    ixo_result_int(r, 4, 0);
    ixo_result_int(r, 7, nret > 0 ? SQL_PT_FUNCTION : SQL_PT_PROCEDURE);
    return 1;
}

SQLRETURN SQL_API SQLProcedures(SQLHSTMT hstmt, SQLCHAR *szCatalogName, SQLSMALLINT cbCatalogName,
                                SQLCHAR *szSchemaName, SQLSMALLINT cbSchemaName,
                                SQLCHAR *szProcName, SQLSMALLINT cbProcName) {
    (void)szCatalogName;
    (void)cbCatalogName;
    IXO_ENTER_STMT(hstmt);
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    char schema[IXO_NAME_MAX], proc[IXO_NAME_MAX];
    ixo_cat_arg(schema, sizeof schema, szSchemaName, cbSchemaName, 1);
    ixo_cat_arg(proc, sizeof proc, szProcName, cbProcName, 1);
    ixo_stmt_unprepare(s);
    const char *args[] = {proc, schema};
    ix_stmt *st = ixo_cat_query(s,
                                "SELECT procname, owner, numargs, retsize FROM sysprocedures "
                                "WHERE procname LIKE ? AND owner LIKE ? ORDER BY owner, procname",
                                args, 2);
    if (!st) return ixo_leave(h, SQL_ERROR);
    ixo_result *r = ixo_result_new(PROC_COLS, PROC_NCOLS);
    if (!r) {
        ix_finalize(st);
        return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
    }
    return ixo_leave(h, ixo_cat_fill(s, st, r, proc_row));
}

/* the CREATE statement of procid (malloc'ed); NULL on error */
static char *routine_text(ixo_stmt *s, int procid) {
    char id[16];
    snprintf(id, sizeof id, "%d", procid);
    const char *args[] = {id};
    ix_stmt *st = ixo_cat_query(
        s, "SELECT data FROM sysprocbody WHERE procid = ? AND datakey = 'T' ORDER BY seqno", args,
        1);
    if (!st) return NULL;
    size_t len = 0, cap = 256;
    char *text = malloc(cap);
    int rc = IX_DONE;
    while (text && (rc = ix_step(st)) == IX_ROW) {
        const char *d = ix_column_text(st, 0);
        size_t n = d ? strlen(d) : 0;
        if (len + n + 1 > cap) {
            char *t = realloc(text, cap = (len + n + 1) * 2);
            if (!t) free(text);
            text = t;
            if (!t) break;
        }
        memcpy(text + len, d, n);
        len += n;
    }
    if (text) text[len] = 0;
    if (!text)
        ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    else if (rc != IX_DONE) {
        ixo_err_conn(&s->h, s->dbc->conn);
        free(text);
        text = NULL;
    }
    ix_finalize(st);
    return text;
}

/* ---- SQLProcedureColumns ---- */

static const ixo_rcol PROCCOL_COLS[] = {
    {"PROCEDURE_CAT", SQL_VARCHAR, 1},     {"PROCEDURE_SCHEM", SQL_VARCHAR, 1},
    {"PROCEDURE_NAME", SQL_VARCHAR, 0},    {"COLUMN_NAME", SQL_VARCHAR, 0},
    {"COLUMN_TYPE", SQL_SMALLINT, 0},      {"DATA_TYPE", SQL_SMALLINT, 0},
    {"TYPE_NAME", SQL_VARCHAR, 0},         {"COLUMN_SIZE", SQL_INTEGER, 1},
    {"BUFFER_LENGTH", SQL_INTEGER, 1},     {"DECIMAL_DIGITS", SQL_SMALLINT, 1},
    {"NUM_PREC_RADIX", SQL_SMALLINT, 1},   {"NULLABLE", SQL_SMALLINT, 0},
    {"REMARKS", SQL_VARCHAR, 1},           {"COLUMN_DEF", SQL_VARCHAR, 1},
    {"SQL_DATA_TYPE", SQL_SMALLINT, 0},    {"SQL_DATETIME_SUB", SQL_SMALLINT, 1},
    {"CHAR_OCTET_LENGTH", SQL_INTEGER, 1}, {"ORDINAL_POSITION", SQL_INTEGER, 0},
    {"IS_NULLABLE", SQL_VARCHAR, 1},
};
enum { PROCCOL_NCOLS = sizeof PROCCOL_COLS / sizeof PROCCOL_COLS[0] };

/* one parameter or returned value: its name, its type's name */
typedef struct pcol {
    const char *cat, *owner, *proc, *name, *type;
    int column_type, ordinal;
} pcol;

static int proccol_row(ixo_result *r, const pcol *c) {
    int ixtype = IX_T_CHAR, enclen = 1;
    if (!ixo_type_of(c->type, &ixtype, &enclen)) return 1; /* a type not described here */
    ixo_typeinfo ti;
    int lob = ixtype == IX_T_BLOB || ixtype == IX_T_CLOB ? ixtype : 0;
    ixo_type_describe(lob ? IX_T_UDTFIXED : ixtype, enclen, lob, &ti);
    int is_dt = ti.dt_code != 0; /* SQL_DATETIME or SQL_INTERVAL */
    if (!(ixo_result_add(r) && ixo_result_text(r, 0, c->cat) && ixo_result_text(r, 1, c->owner) &&
          ixo_result_text(r, 2, c->proc) && ixo_result_text(r, 3, c->name) &&
          ixo_result_text(r, 6, ti.type_name) && ixo_result_text(r, 18, "YES")))
        return 0;
    ixo_result_int(r, 4, c->column_type);
    ixo_result_int(r, 5, ti.sql_type);
    ixo_result_int(r, 7, (int64_t)ti.column_size);
    ixo_result_int(r, 8, ti.octet_length);
    if (ti.radix || is_dt) ixo_result_int(r, 9, ti.digits);
    if (ti.radix) ixo_result_int(r, 10, ti.radix);
    ixo_result_int(r, 11, SQL_NULLABLE);
    ixo_result_int(r, 14, ti.desc_type);
    if (is_dt) ixo_result_int(r, 15, ti.dt_code);
    if (!ti.radix && !is_dt) ixo_result_int(r, 16, ti.octet_length);
    ixo_result_int(r, 17, c->ordinal);
    return 1;
}

/* a catalogue pattern (% any run, _ any one character, \ quotes the next) */
static int like(const char *s, const char *p) {
    for (; *p; p++, s++) {
        if (*p == '%') {
            while (*p == '%')
                p++;
            for (;; s++) {
                if (like(s, p)) return 1;
                if (!*s) return 0;
            }
        }
        if (*p == '\\' && p[1])
            p++;
        else if (*p == '_' && *s)
            continue;
        if (!*s || *s != *p) return 0;
    }
    return !*s;
}

/* the name of a parameter as written ("a integer", "out b char(3)") */
static void param_name(const char *item, char *out, size_t cap) {
    if (strncmp(item, "out ", 4) == 0) item += 4;
    if (strncmp(item, "inout ", 6) == 0) item += 6;
    size_t n = strcspn(item, " ");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), item);
}

/* a routine's rows: parameters (types from paramtypes), then the values it
 * returns (ordinal 0 for a function's single value, as ODBC numbers a
 * return value); 0 out of memory */
static int routine_rows(ixo_result *r, pcol *c, const char *paramtypes, const ixo_routine *rt,
                        const char *col) {
    char types[IXO_ROUTINE_MAX][IXO_NAME_MAX] = {{0}};
    const char *end;
    char list[4096];
    snprintf(list, sizeof list, " %s)", paramtypes);
    int ntypes = ixo_split_list(list + 1, 1, types, IXO_ROUTINE_MAX, &end);
    for (int k = 0; k < ntypes; k++) {
        char name[IXO_NAME_MAX] = "";
        if (k < rt->nparams) param_name(rt->params[k], name, sizeof name);
        if (!like(name, col)) continue;
        *c = (pcol){c->cat, c->owner, c->proc, name, types[k], SQL_PARAM_INPUT, k + 1};
        if (!proccol_row(r, c)) return 0;
    }
    for (int k = 0; k < rt->nrets; k++) {
        char type[IXO_NAME_MAX], name[IXO_NAME_MAX] = "";
        snprintf(type, sizeof type, "%s", rt->rets[k]);
        char *as = strstr(type, " as ");
        if (as) {
            snprintf(name, sizeof name, "%s", as + 4);
            *as = 0;
        }
        if (!like(name, col)) continue;
        int one = rt->nrets == 1;
        *c = (pcol){c->cat,         c->owner, c->proc,
                    name,           type,     one ? SQL_RETURN_VALUE : SQL_RESULT_COL,
                    one ? 0 : k + 1};
        if (!proccol_row(r, c)) return 0;
    }
    return 1;
}

static SQLRETURN procedure_columns(ixo_stmt *s, const char *schema, const char *proc,
                                   const char *col) {
    const char *args[] = {proc, schema};
    ix_stmt *st = ixo_cat_query(s,
                                "SELECT procname, owner, procid, paramtypes FROM sysprocedures "
                                "WHERE procname LIKE ? AND owner LIKE ? ORDER BY owner, procname, "
                                "procid",
                                args, 2);
    if (!st) return SQL_ERROR;
    ixo_result *r = ixo_result_new(PROCCOL_COLS, PROCCOL_NCOLS);
    ixo_routine *rt = malloc(sizeof *rt);
    SQLRETURN ret = SQL_SUCCESS;
    if (!r || !rt) ret = ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    const char *db = ix_conn_database(s->dbc->conn);
    char cat[IXO_NAME_MAX], name[IXO_NAME_MAX], owner[IXO_NAME_MAX];
    snprintf(cat, sizeof cat, "%s", db ? db : "");
    int rc = IX_DONE;
    while (ret == SQL_SUCCESS && (rc = ix_step(st)) == IX_ROW) {
        ixo_cat_trimmed(st, 0, name, sizeof name);
        ixo_cat_trimmed(st, 1, owner, sizeof owner);
        const char *types = ix_column_text(st, 3);
        char *text = routine_text(s, ix_column_int(st, 2));
        if (!text) {
            ret = SQL_ERROR;
            break;
        }
        ixo_routine_parse(text, rt);
        free(text);
        pcol c = {cat, owner, name, NULL, NULL, 0, 0};
        if (!routine_rows(r, &c, types ? types : "", rt, col))
            ret = ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    }
    if (ret == SQL_SUCCESS && rc != IX_DONE) ret = ixo_err_conn(&s->h, s->dbc->conn);
    ix_finalize(st);
    free(rt);
    if (ret != SQL_SUCCESS) {
        ixo_result_free(r);
        return ret;
    }
    ixo_stmt_set_result(s, r);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLProcedureColumns(SQLHSTMT hstmt, SQLCHAR *szCatalogName,
                                      SQLSMALLINT cbCatalogName, SQLCHAR *szSchemaName,
                                      SQLSMALLINT cbSchemaName, SQLCHAR *szProcName,
                                      SQLSMALLINT cbProcName, SQLCHAR *szColumnName,
                                      SQLSMALLINT cbColumnName) {
    (void)szCatalogName;
    (void)cbCatalogName;
    IXO_ENTER_STMT(hstmt);
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    char schema[IXO_NAME_MAX], proc[IXO_NAME_MAX], col[IXO_NAME_MAX];
    ixo_cat_arg(schema, sizeof schema, szSchemaName, cbSchemaName, 1);
    ixo_cat_arg(proc, sizeof proc, szProcName, cbProcName, 1);
    ixo_cat_arg(col, sizeof col, szColumnName, cbColumnName, 1);
    ixo_stmt_unprepare(s);
    return ixo_leave(h, procedure_columns(s, schema, proc, col));
}
