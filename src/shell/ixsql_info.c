/*
 * ixsql_info.c: dbaccess's INFO statement, run by the shell itself through
 * catalogue queries:
 *
 *   INFO TABLES
 *   INFO { COLUMNS | INDEXES | STATUS | PRIVILEGES | REFERENCES } FOR table
 *   INFO { ACCESS | FRAGMENTS } FOR table      (ACCESS = PRIVILEGES; FRAGMENTS:
 *                                               "not supported")
 *
 * The layouts are described in docs/ixsql.md ("INFO").
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixsql.h"

/* syscolumns.coltype: the type in the low byte, flags above it. */
enum {
    COLTYPE_BASE_MASK = 0xff,
    COLTYPE_NOTNULL = 0x100, /* the column was declared NOT NULL */
};
/* syscolumns.collength of DECIMAL / MONEY: precision * 256 + scale, scale
 * 255 for a floating DECIMAL(p). */
enum { DEC_FLOATING_SCALE = 255 };
enum {
    SQLCODE_NO_TABLE = -206, /* The specified table (%s) is not in the database. */
    MAX_INDEX_PARTS = 16,    /* sysindexes.part1 ... part16 */
    NAME_MAX_BYTES = 128,
};

typedef enum {
    INFO_TABLES,
    INFO_COLUMNS,
    INFO_INDEXES,
    INFO_STATUS,
    INFO_PRIVILEGES,
    INFO_REFERENCES,
    INFO_FRAGMENTS,
} info_kind;

static const struct {
    const char *kw;
    info_kind kind;
} kinds[] = {
    {"TABLES", INFO_TABLES},         {"COLUMNS", INFO_COLUMNS},       {"INDEXES", INFO_INDEXES},
    {"STATUS", INFO_STATUS},         {"PRIVILEGES", INFO_PRIVILEGES}, {"ACCESS", INFO_PRIVILEGES},
    {"REFERENCES", INFO_REFERENCES}, {"FRAGMENTS", INFO_FRAGMENTS},
};

/* ---- parsing -------------------------------------------------------------------- */

typedef ixsql_lexer lexer;

/* An identifier into out (lower-cased unless "quoted"); 0 if none. */
static int ident(lexer *lx, char *out, size_t cap) {
    size_t n = 0;
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
    if (lx->p < lx->end && *lx->p == '"') {
        for (lx->p++; lx->p < lx->end && *lx->p != '"'; lx->p++)
            if (n + 1 < cap) out[n++] = *lx->p;
        if (lx->p >= lx->end || n == 0) return 0;
        lx->p++;
    } else {
        while (lx->p < lx->end &&
               (isalnum((unsigned char)*lx->p) || *lx->p == '_' || (unsigned char)*lx->p >= 0x80)) {
            if (n + 1 < cap) out[n++] = (char)tolower((unsigned char)*lx->p);
            lx->p++;
        }
        if (n == 0) return 0;
    }
    out[n] = 0;
    return 1;
}

int ixsql_is_info(const char *sql, size_t len) {
    lexer lx = {sql, sql + len, sql};
    return ixsql_lex_keyword(&lx, "INFO");
}

typedef struct info_stmt {
    info_kind kind;
    char owner[NAME_MAX_BYTES + 1]; /* "" when not given */
    char table[NAME_MAX_BYTES + 1];
} info_stmt;

/* Returns 0, or the offset of the syntax error. */
static size_t parse(const char *sql, size_t len, info_stmt *st, int *ok) {
    lexer lx = {sql, sql + len, sql};
    size_t k = 0;
    *ok = 0;
    ixsql_lex_keyword(&lx, "INFO");
    for (; k < sizeof kinds / sizeof kinds[0]; k++)
        if (ixsql_lex_keyword(&lx, kinds[k].kw)) break;
    if (k == sizeof kinds / sizeof kinds[0]) return (size_t)(ixsql_skip_trivia(lx.p, lx.end) - sql);
    st->kind = kinds[k].kind;
    st->owner[0] = st->table[0] = 0;
    if (st->kind != INFO_TABLES) {
        if (!ixsql_lex_keyword(&lx, "FOR") || !ident(&lx, st->table, sizeof st->table))
            return (size_t)(ixsql_skip_trivia(lx.p, lx.end) - sql);
        if (lx.p < lx.end && *lx.p == '.') {
            lx.p++;
            memcpy(st->owner, st->table, sizeof st->owner);
            if (!ident(&lx, st->table, sizeof st->table))
                return (size_t)(ixsql_skip_trivia(lx.p, lx.end) - sql);
        }
    }
    if (ixsql_skip_trivia(lx.p, lx.end) != lx.end)
        return (size_t)(ixsql_skip_trivia(lx.p, lx.end) - sql);
    *ok = 1;
    return 0;
}

/* ---- queries ----------------------------------------------------------------- */

static int query_failed(ix_conn *conn, ix_stmt *s) {
    ixsql_print_error(conn, NULL, 0, (ixsql_pos){0, 0});
    if (s) ix_finalize(s);
    return ix_conn_is_dead(conn) ? IXSQL_FATAL : IXSQL_FAILED;
}

/* Prepares sql with its one parameter: an integer (text NULL) or a text. */
static ix_stmt *prepare1(ix_conn *conn, const char *sql, int num, const char *text) {
    ix_stmt *s = NULL;
    if (ix_prepare(conn, sql, -1, &s) != IX_OK) return NULL;
    int rc = text ? ix_bind_text(s, 1, text, -1, IX_TRANSIENT) : ix_bind_int(s, 1, num);
    if (rc != IX_OK) {
        ix_finalize(s);
        return NULL;
    }
    return s;
}

/* The text of column i with trailing blanks (CHAR padding) removed. */
static void col_text(ix_stmt *s, int i, char *out, size_t cap) {
    const char *t = ix_column_is_null(s, i) ? "" : ix_column_text(s, i);
    size_t n = t ? strlen(t) : 0;
    while (n > 0 && t[n - 1] == ' ')
        n--;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(out, t, n);
    out[n] = 0;
}

typedef struct table_info {
    int tabid;
    char name[NAME_MAX_BYTES + 1];
    char owner[NAME_MAX_BYTES + 1];
    long long rowsize, ncols;
    double nrows;
    char created[32];
} table_info;

/* Looks the table up in systables: IXSQL_OK, or the status after the error
 * (-206 for a table that is not there). */
static int find_table(ix_conn *conn, const info_stmt *st, table_info *t) {
    static const char q[] = "SELECT tabid, tabname, owner, rowsize, ncols, nrows, created"
                            " FROM systables WHERE tabname = ? AND tabtype = 'T'"
                            " ORDER BY owner";
    ix_stmt *s = prepare1(conn, q, 0, st->table);
    int rc = IX_DONE, found = 0;
    if (!s) return query_failed(conn, NULL);
    while (!found && (rc = ix_step(s)) == IX_ROW) {
        col_text(s, 2, t->owner, sizeof t->owner);
        if (st->owner[0] && strcmp(st->owner, t->owner) != 0) continue;
        t->tabid = ix_column_int(s, 0);
        col_text(s, 1, t->name, sizeof t->name);
        t->rowsize = ix_column_int64(s, 3);
        t->ncols = ix_column_int64(s, 4);
        t->nrows = ix_column_double(s, 5);
        col_text(s, 6, t->created, sizeof t->created);
        found = 1;
    }
    if (!found && rc != IX_DONE) return query_failed(conn, s);
    ix_finalize(s);
    if (found) return IXSQL_OK;
    const char *fmt = ix_errtext(SQLCODE_NO_TABLE);
    const char *pct = fmt ? strstr(fmt, "%s") : NULL;
    fflush(stdout);
    if (pct)
        fprintf(stderr, "\n%5d: %.*s%s%s\n", -SQLCODE_NO_TABLE, (int)(pct - fmt), fmt, st->table,
                pct + 2);
    else
        fprintf(stderr, "\n%5d: %s\n", -SQLCODE_NO_TABLE, st->table);
    return IXSQL_FAILED;
}

/* ---- type names ------------------------------------------------------------------ */

static const char *const units[] = {"year",        "?",           "month",       "?",
                                    "day",         "?",           "hour",        "?",
                                    "minute",      "?",           "second",      "fraction(1)",
                                    "fraction(2)", "fraction(3)", "fraction(4)", "fraction(5)"};

/* "year to second", "fraction(3)" ...: a DATETIME / INTERVAL qualifier from
 * collength (digits << 8 | start << 4 | end); an INTERVAL gets its
 * leading precision. */
static void qualifier(char *out, size_t cap, int collength, int is_interval) {
    int start = (collength >> 4) & 0xf, end = collength & 0xf, digits = (collength >> 8) & 0xff;
    const char *su = start > IX_UNIT_SECOND ? "fraction" : units[start];
    char lead[32] = "";
    if (is_interval && start <= IX_UNIT_SECOND) {
        int prec = digits - (end - start);
        snprintf(lead, sizeof lead, "(%d)", prec);
    }
    if (start > IX_UNIT_SECOND && end == start)
        snprintf(out, cap, "%s", units[end]);
    else
        snprintf(out, cap, "%s%s to %s", su, lead, units[end]);
}

/* The type of a column as dbaccess prints it: "char(15)", "decimal(10,2)",
 * "datetime year to second", "varchar(20,0)", ... */
static void type_name(char *out, size_t cap, int coltype, int collength) {
    int base = coltype & COLTYPE_BASE_MASK, hi = (collength >> 8) & 0xff, lo = collength & 0xff;
    char q[64];
    switch (base) {
    case IX_T_CHAR: snprintf(out, cap, "char(%d)", collength); break;
    case IX_T_NCHAR: snprintf(out, cap, "nchar(%d)", collength); break;
    case IX_T_SMALLINT: snprintf(out, cap, "smallint"); break;
    case IX_T_INTEGER: snprintf(out, cap, "integer"); break;
    case IX_T_FLOAT: snprintf(out, cap, "float"); break;
    case IX_T_SMALLFLOAT: snprintf(out, cap, "smallfloat"); break;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        const char *n = base == IX_T_DECIMAL ? "decimal" : "money";
        if (lo == DEC_FLOATING_SCALE)
            snprintf(out, cap, "%s(%d)", n, hi);
        else
            snprintf(out, cap, "%s(%d,%d)", n, hi, lo);
        break;
    }
    case IX_T_SERIAL: snprintf(out, cap, "serial"); break;
    case IX_T_DATE: snprintf(out, cap, "date"); break;
    case IX_T_DATETIME:
        qualifier(q, sizeof q, collength, 0);
        snprintf(out, cap, "datetime %s", q);
        break;
    case IX_T_INTERVAL:
        qualifier(q, sizeof q, collength, 1);
        snprintf(out, cap, "interval %s", q);
        break;
    case IX_T_BYTE: snprintf(out, cap, "byte"); break;
    case IX_T_TEXT: snprintf(out, cap, "text"); break;
    case IX_T_VARCHAR: snprintf(out, cap, "varchar(%d,%d)", lo, hi); break;
    case IX_T_NVARCHAR: snprintf(out, cap, "nvarchar(%d,%d)", lo, hi); break;
    case IX_T_INT8: snprintf(out, cap, "int8"); break;
    case IX_T_SERIAL8: snprintf(out, cap, "serial8"); break;
    case IX_T_SET: snprintf(out, cap, "set"); break;
    case IX_T_MULTISET: snprintf(out, cap, "multiset"); break;
    case IX_T_LIST: snprintf(out, cap, "list"); break;
    case IX_T_ROW: snprintf(out, cap, "row"); break;
    case IX_T_LVARCHAR: snprintf(out, cap, "lvarchar(%d)", collength); break;
    case IX_T_BOOLEAN: snprintf(out, cap, "boolean"); break;
    case IX_T_BIGINT: snprintf(out, cap, "bigint"); break;
    case IX_T_BIGSERIAL: snprintf(out, cap, "bigserial"); break;
    default: snprintf(out, cap, "type %d", base); break;
    }
}

/* ---- the forms ---------------------------------------------------------------- */

static int info_tables(ix_conn *conn) {
    static const char q[] = "SELECT tabname, owner, USER FROM systables"
                            " WHERE tabid >= 100 AND tabtype = 'T' ORDER BY tabname, owner";
    enum { CELL = 20, LINE = 80 };
    ix_stmt *s = NULL;
    int rc, col = 0, pad = 0;
    if (ix_prepare(conn, q, -1, &s) != IX_OK) return query_failed(conn, NULL);
    printf("\nTable name\n\n");
    while ((rc = ix_step(s)) == IX_ROW) {
        char name[NAME_MAX_BYTES + 1], owner[NAME_MAX_BYTES + 1], user[NAME_MAX_BYTES + 1];
        char cell[2 * NAME_MAX_BYTES + 8];
        col_text(s, 0, name, sizeof name);
        col_text(s, 1, owner, sizeof owner);
        col_text(s, 2, user, sizeof user);
        if (strcmp(owner, user) == 0)
            snprintf(cell, sizeof cell, "%s", name);
        else
            snprintf(cell, sizeof cell, "\"%s\".%s", owner, name);
        int w = (int)strlen(cell) < CELL ? CELL : (int)strlen(cell) + 1;
        if (col > 0 && col + pad + (int)strlen(cell) > LINE) {
            printf("\n");
            col = pad = 0;
        }
        printf("%*s%s", pad, "", cell); /* no blanks at the end of a line */
        col += pad + (int)strlen(cell);
        pad = w - (int)strlen(cell);
    }
    printf(col ? "\n\n" : "\n");
    if (rc != IX_DONE) return query_failed(conn, s);
    ix_finalize(s);
    return IXSQL_OK;
}

static int info_columns(ix_conn *conn, const table_info *t) {
    static const char q[] = "SELECT colname, coltype, collength FROM syscolumns"
                            " WHERE tabid = ? ORDER BY colno";
    ix_stmt *s = prepare1(conn, q, t->tabid, NULL);
    int rc;
    if (!s) return query_failed(conn, NULL);
    printf("\n%-20s %-17s %s\n\n", "Column name", "Type", "Nulls");
    while ((rc = ix_step(s)) == IX_ROW) {
        char name[NAME_MAX_BYTES + 1], type[96];
        col_text(s, 0, name, sizeof name);
        int ct = ix_column_int(s, 1);
        type_name(type, sizeof type, ct, ix_column_int(s, 2));
        printf("%-20s %-17s %s\n", name, type, (ct & COLTYPE_NOTNULL) ? "no" : "yes");
    }
    printf("\n");
    if (rc != IX_DONE) return query_failed(conn, s);
    ix_finalize(s);
    return IXSQL_OK;
}

/* The column names of a table by colno (1-based); *n receives the count. */
static char **column_names(ix_conn *conn, int tabid, int *n) {
    static const char q[] = "SELECT colno, colname FROM syscolumns WHERE tabid = ?";
    ix_stmt *s = prepare1(conn, q, tabid, NULL);
    char **names = NULL;
    int cap = 0;
    *n = 0;
    if (!s) return NULL;
    while (ix_step(s) == IX_ROW) {
        int no = ix_column_int(s, 0);
        if (no <= 0 || no > 32767) continue;
        if (no > cap) {
            char **nn = realloc(names, (size_t)(no + 1) * sizeof *nn);
            if (!nn) break;
            for (int i = cap + 1; i <= no; i++)
                nn[i] = NULL;
            names = nn;
            cap = no;
        }
        char buf[NAME_MAX_BYTES + 1];
        col_text(s, 1, buf, sizeof buf);
        free(names[no]);
        names[no] = strdup(buf);
    }
    ix_finalize(s);
    *n = cap;
    return names;
}

static void free_names(char **names, int n) {
    for (int i = 1; names && i <= n; i++)
        free(names[i]);
    free(names);
}

static int info_indexes(ix_conn *conn, const table_info *t) {
    static const char q[] = "SELECT idxname, owner, idxtype, clustered, part1, part2, part3,"
                            " part4, part5, part6, part7, part8, part9, part10, part11, part12,"
                            " part13, part14, part15, part16 FROM sysindexes WHERE tabid = ?"
                            " ORDER BY idxname";
    int ncols, rc;
    char **names = column_names(conn, t->tabid, &ncols);
    ix_stmt *s = prepare1(conn, q, t->tabid, NULL);
    if (!s) {
        free_names(names, ncols);
        return query_failed(conn, NULL);
    }
    printf("\n%-18s %-8s %-6s %-4s %s\n\n", "Index name", "Owner", "Type", "Clus", "Columns");
    while ((rc = ix_step(s)) == IX_ROW) {
        char name[NAME_MAX_BYTES + 1], owner[NAME_MAX_BYTES + 1], type[4], clus[4];
        col_text(s, 0, name, sizeof name);
        col_text(s, 1, owner, sizeof owner);
        col_text(s, 2, type, sizeof type);
        col_text(s, 3, clus, sizeof clus);
        printf("%-18s %-8s %-6s %-4s", name, owner,
               toupper((unsigned char)type[0]) == 'U' ? "unique" : "dupls",
               toupper((unsigned char)clus[0]) == 'C' ? "Yes" : "No");
        int first = 1;
        for (int p = 0; p < MAX_INDEX_PARTS; p++) {
            int part = ix_column_int(s, 4 + p), no = part < 0 ? -part : part;
            if (part == 0) continue;
            const char *cn = names && no <= ncols && names[no] ? names[no] : "?";
            if (!first) printf("\n%-18s %-8s %-6s %-4s", "", "", "", "");
            printf(" %s%s", cn, part < 0 ? " desc" : "");
            first = 0;
        }
        printf("\n");
    }
    printf("\n");
    free_names(names, ncols);
    if (rc != IX_DONE) return query_failed(conn, s);
    ix_finalize(s);
    return IXSQL_OK;
}

static void info_status(const table_info *t) {
    printf("\n%-18s%s\n", "Table Name", t->name);
    printf("%-18s%s\n", "Owner", t->owner);
    printf("%-18s%lld\n", "Row Size", t->rowsize);
    printf("%-18s%.0f\n", "Number of Rows", t->nrows);
    printf("%-18s%lld\n", "Number of Columns", t->ncols);
    printf("%-18s%s\n\n", "Date Created", t->created);
}

/* systabauth.tabauth: one letter per privilege at a fixed place (upper case
 * when granted WITH GRANT OPTION), '-' when not granted. */
enum {
    AUTH_SELECT,
    AUTH_UPDATE,
    AUTH_COLUMNS,
    AUTH_INSERT,
    AUTH_DELETE,
    AUTH_INDEX,
    AUTH_ALTER,
    AUTH_REFERENCES,
    AUTH_LEN = 9
};

static int has(const char *auth, int at) {
    return (int)strlen(auth) > at && auth[at] != '-' && auth[at] != ' ';
}

static int info_privileges(ix_conn *conn, const table_info *t, int references) {
    static const char q[] = "SELECT grantee, tabauth FROM systabauth WHERE tabid = ?"
                            " ORDER BY grantee";
    ix_stmt *s = prepare1(conn, q, t->tabid, NULL);
    int rc;
    if (!s) return query_failed(conn, NULL);
    if (references)
        printf("\n%-18s %s\n\n", "User", "References");
    else
        printf("\n%-18s %-7s%-7s%-7s%-7s%-7s%s\n\n", "User", "Select", "Update", "Insert", "Delete",
               "Index", "Alter");
    while ((rc = ix_step(s)) == IX_ROW) {
        char user[NAME_MAX_BYTES + 1], a[AUTH_LEN + 1];
        col_text(s, 0, user, sizeof user);
        col_text(s, 1, a, sizeof a);
        if (references) {
            if (has(a, AUTH_REFERENCES)) printf("%-18s %s\n", user, "All");
            continue;
        }
        printf("%-18s %-7s%-7s%-7s%-7s%-7s%s\n", user, has(a, AUTH_SELECT) ? "All" : "No",
               has(a, AUTH_UPDATE) ? "All" : "No", has(a, AUTH_INSERT) ? "Yes" : "No",
               has(a, AUTH_DELETE) ? "Yes" : "No", has(a, AUTH_INDEX) ? "Yes" : "No",
               has(a, AUTH_ALTER) ? "Yes" : "No");
    }
    printf("\n");
    if (rc != IX_DONE) return query_failed(conn, s);
    ix_finalize(s);
    return IXSQL_OK;
}

/* INFO REFERENCES, second part: the table's referential constraints and the
 * table each one refers to (sysconstraints, sysreferences). */
static int info_foreign_keys(ix_conn *conn, const table_info *t) {
    static const char q[] =
        "SELECT c.constrname, p.tabname, r.delrule FROM sysconstraints c, sysreferences r,"
        " systables p WHERE c.tabid = ? AND c.constrtype = 'R' AND r.constrid = c.constrid"
        " AND p.tabid = r.ptabid ORDER BY c.constrname";
    ix_stmt *s = prepare1(conn, q, t->tabid, NULL);
    int rc;
    if (!s) return query_failed(conn, NULL);
    printf("%-18s %-18s %s\n\n", "Constraint name", "References table", "On delete");
    while ((rc = ix_step(s)) == IX_ROW) {
        char name[NAME_MAX_BYTES + 1], ref[NAME_MAX_BYTES + 1], rule[4];
        col_text(s, 0, name, sizeof name);
        col_text(s, 1, ref, sizeof ref);
        col_text(s, 2, rule, sizeof rule);
        printf("%-18s %-18s %s\n", name, ref,
               toupper((unsigned char)rule[0]) == 'C' ? "cascade" : "restrict");
    }
    printf("\n");
    if (rc != IX_DONE) return query_failed(conn, s);
    ix_finalize(s);
    return IXSQL_OK;
}

int ixsql_info(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    info_stmt st;
    table_info t;
    int ok, rc;
    size_t off = parse(sql, len, &st, &ok);
    if (!ok) {
        ixsql_syntax_error(sql, off, at);
        return IXSQL_FAILED;
    }
    if (st.kind == INFO_TABLES) return info_tables(conn);
    if ((rc = find_table(conn, &st, &t)) != IXSQL_OK) return rc;
    switch (st.kind) {
    case INFO_COLUMNS: return info_columns(conn, &t);
    case INFO_INDEXES: return info_indexes(conn, &t);
    case INFO_STATUS: info_status(&t); return IXSQL_OK;
    case INFO_PRIVILEGES: return info_privileges(conn, &t, 0);
    case INFO_REFERENCES:
        rc = info_privileges(conn, &t, 1);
        return rc == IXSQL_OK ? info_foreign_keys(conn, &t) : rc;
    default:
        fflush(stdout);
        fprintf(stderr, "\nixsql: INFO FRAGMENTS is not supported: ixd tables are not"
                        " fragmented.\n");
        return IXSQL_FAILED;
    }
}
