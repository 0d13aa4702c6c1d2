/*
 * ixs_ddl_cat.c: DDL against the catalogue: loading a table definition,
 * materializing one (the SQLite table, its indexes, the catalogue rows; TEMP
 * tables), and the DDL transaction (ixs_ddl_begin / exec / end).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "server/sql/ixs_lob.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_parse.h"
#include "server/sql/ixs_sel.h"
#include "server/sql/ixs_spl.h"

#define MAXC IXS_MAX_COLS
#include "server/sql/ixs_ddl_int.h"

/* ---- catalog I/O -------------------------------------------------------------------- */

static int q_int(ixs_conn *db, const char *sql, const char *arg, int64_t *out) {
    sqlite3_stmt *st;
    *out = 0;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static void key_indexes_sql(sb *s, const tdef *t, const char *schema);

static int table_exists(ixs_conn *db, const char *name) {
    int64_t v;
    if (ixv_internal_name(name)) return 0;
    if (q_int(db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", name, &v) == 1) return 1;
    char stn[IXV_STNAME_MAX + 1]; /* SQLite knows it by its storage name */
    if (q_int(db, "SELECT 1 FROM sqlite_master WHERE lower(name) = ?",
              ixv_stname(name, stn, sizeof stn), &v) == 1)
        return 1;
    if (db->has_temp && q_int(db, "SELECT 1 FROM _ixd_ttables WHERE tabname = ?", name, &v) == 1)
        return 2;
    return 0;
}

int ixs_ddl_q_int(ixs_conn *db, const char *sql, const char *arg, int64_t *out) {
    return q_int(db, sql, arg, out);
}

int ixs_table_exists(ixs_conn *db, const char *name) {
    return table_exists(db, name);
}

/* Column c as CREATE TABLE declares it: a character column compares
 * ignoring trailing blanks (so do its indexes, UNIQUE, GROUP BY, DISTINCT). */
static void col_decl_sql(sb *s, const cdef *c) {
    ixv_sb_ident(s, c->name);
    if (ixs_is_blank_cmp(c->t.code)) ixv_sb_add(s, " COLLATE " IXS_COLLATE_BLANKS);
    if (c->notnull) ixv_sb_add(s, " NOT NULL");
    if (c->defsql) ixv_sb_printf(s, " DEFAULT (%s)", c->defsql);
}

/* CREATE TEMP TABLE t (columns, CHECK constraints) and the unique indexes
 * of its PRIMARY KEY / UNIQUE constraints into s; REFERENCES is -999. */
static int temp_create_sql(px *p, sb *s, tdef *t) {
    ixv_sb_add(s, "CREATE TEMP TABLE ");
    ixv_sb_ident(s, t->name);
    ixv_sb_add(s, " (");
    for (int i = 0; i < t->ncols; i++) {
        if (i) ixv_sb_add(s, ", ");
        col_decl_sql(s, &t->cols[i]);
    }
    int nk = 0;
    for (int i = 0; i < t->nk; i++) {
        kdef *k = &t->k[i];
        if (!k->name[0]) snprintf(k->name, sizeof k->name, "c%d_%d", t->tabid, ++nk);
        if (k->type == KDEF_REFERENCES)
            return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "REFERENCES in a TEMP table");
        if (k->type == KDEF_CHECK) {
            ixv_sb_add(s, ", CONSTRAINT ");
            ixv_sb_ident(s, k->name);
            ixv_sb_printf(s, " CHECK (%s)", k->checksql ? k->checksql : "1");
        }
    }
    ixv_sb_add(s, ");");
    key_indexes_sql(s, t, "temp.");
    return 0;
}

/* The session catalogue rows of temp table t (owner: the session user). */
static void temp_cat_sql(sb *s, const tdef *t, const char *user, sqlite3 *h) {
    int64_t s1 = 1, s8 = 1;
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].serial == 1) s1 = t->cols[i].start;
        if (t->cols[i].serial >= 2) s8 = t->cols[i].start;
    }
    ixv_sb_printf(s,
                  "INSERT INTO _ixd_ttables(tabid, tabname, owner, serial_next, serial8_next)"
                  " VALUES(%d, ",
                  t->tabid);
    ixv_sb_strlit(s, t->name, strlen(t->name));
    ixv_sb_addc(s, ',');
    ixv_sb_strlit(s, user, strlen(user));
    ixv_sb_printf(s, ", %lld, %lld);", (long long)s1, (long long)s8);
    for (int i = 0; i < t->ncols; i++) {
        const cdef *c = &t->cols[i];
        ixv_sb_printf(s,
                      "INSERT INTO _ixd_tcolumns(tabid, colno, colname, coltype, collength, serial,"
                      " defsql) VALUES(%d, %d, ",
                      t->tabid, i + 1);
        ixv_sb_strlit(s, c->name, strlen(c->name));
        ixv_sb_printf(s, ", %d, %u, %d, ",
                      ixs_row_coltype(c->t.code, c->t.len, h) | (c->notnull ? IXT_TF_NOTNULL : 0),
                      c->collen, c->serial);
        if (c->defsql)
            ixv_sb_strlit(s, c->defsql, strlen(c->defsql));
        else
            ixv_sb_add(s, "NULL");
        ixv_sb_add(s, ");");
    }
}

/* A session-private TEMP table: SQLite's temp schema, catalog rows in the
 * session's temp catalog. Constraints: NOT NULL, DEFAULT, CHECK, PRIMARY
 * KEY/UNIQUE (as unique indexes); no REFERENCES. */
int ixs_temp_materialize(px *p, tdef *t) {
    ixs_conn *db = p->db;
    if (ixs_temp_catalog(db, p->err)) {
        p->failed = 1;
        return -1;
    }
    int64_t maxid;
    q_int(db, "SELECT max(tabid) FROM _ixd_ttables", NULL, &maxid);
    t->tabid = maxid < IXS_TEMP_TABID ? IXS_TEMP_TABID : (int)maxid + 1;
    sb s = {0};
    if (temp_create_sql(p, &s, t)) {
        ixv_sb_free(&s);
        return -1;
    }
    temp_cat_sql(&s, t, db->user, db->h);
    if (s.oom) {
        ixv_sb_free(&s);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    int r = sqlite3_exec(db->h, s.p, NULL, NULL, NULL);
    ixv_sb_free(&s);
    if (r != SQLITE_OK) {
        ixs_sqlite_err(db, r, 0, t->name, p->err);
        p->failed = 1;
        return -1;
    }
    return 0;
}

static char *col_dup(sqlite3_stmt *st, int i) {
    const char *s = (const char *)sqlite3_column_text(st, i);
    return s ? strdup(s) : NULL;
}

/* The _ixd_columns rows of table t->tabid into t. */
static void load_columns(px *p, tdef *t) {
    sqlite3_stmt *st;
    sqlite3_prepare_v2(p->db->h,
                       "SELECT colname, coltype, collength, serial, defsql, colno, deftype, "
                       "deftext FROM _ixd_columns WHERE tabid = ? ORDER BY colno",
                       -1, &st, NULL);
    sqlite3_bind_int(st, 1, t->tabid);
    while (sqlite3_step(st) == SQLITE_ROW) {
        cdef *c = ixs_tdef_addcol(p, t);
        if (!c) break;
        snprintf(c->name, sizeof c->name, "%s", (const char *)sqlite3_column_text(st, 0));
        int ct = sqlite3_column_int(st, 1);
        c->collen = (uint32_t)sqlite3_column_int64(st, 2);
        c->t = ixv_t(ct & 0xff, c->collen);
        if (c->t.code == IX_T_VARCHAR || c->t.code == IX_T_NVARCHAR) c->t.len &= 0xff;
        c->notnull = (ct & IXT_TF_NOTNULL) != 0;
        c->serial = sqlite3_column_int(st, 3);
        c->defsql = col_dup(st, 4);
        c->oldno = sqlite3_column_int(st, 5);
        c->oldt = c->t;
        const char *dt = (const char *)sqlite3_column_text(st, 6);
        const char *dx = (const char *)sqlite3_column_text(st, 7);
        c->deftype = dt && c->defsql ? dt[0] : 0;
        snprintf(c->deftext, sizeof c->deftext, "%s", dx ? dx : "");
    }
    sqlite3_finalize(st);
}

/* The _ixd_constraints rows of table t->tabid into t, in creation order. */
static void load_constraints(px *p, tdef *t) {
    sqlite3_stmt *st;
    sqlite3_prepare_v2(
        p->db->h,
        "SELECT constrtype, constrname, cols, checktext, (SELECT tabname FROM "
        "_ixd_tables x WHERE x.tabid = c.reftabid), refcols, ondelete, owner, ifxtext FROM "
        "_ixd_constraints c WHERE tabid = ? ORDER BY constrid",
        -1, &st, NULL);
    sqlite3_bind_int(st, 1, t->tabid);
    while (sqlite3_step(st) == SQLITE_ROW) {
        kdef *k = ixs_tdef_addk(p, t);
        if (!k) break;
        const char *ty = (const char *)sqlite3_column_text(st, 0);
        k->type = ty ? ty[0] : KDEF_CHECK;
        snprintf(k->name, sizeof k->name, "%s", (const char *)sqlite3_column_text(st, 1));
        k->cols = col_dup(st, 2);
        k->checksql = col_dup(st, 3);
        const char *rt = (const char *)sqlite3_column_text(st, 4);
        snprintf(k->reftab, sizeof k->reftab, "%s", rt ? rt : "");
        k->refcols = col_dup(st, 5);
        k->cascade = sqlite3_column_text(st, 6) != NULL;
        k->ifxcheck = col_dup(st, 8);
        const char *ko = (const char *)sqlite3_column_text(st, 7);
        snprintf(k->owner, sizeof k->owner, "%s", ko ? ko : "");
    }
    sqlite3_finalize(st);
}

/* The indexes of table t->tabid that belong to no constraint into t. */
static void load_indexes(px *p, tdef *t) {
    sqlite3_stmt *st;
    sqlite3_prepare_v2(
        p->db->h,
        "SELECT idxname, idxtype, cols, part1, part2, part3, part4, part5, part6, "
        "part7, part8, part9, part10, part11, part12, part13, part14, part15, part16, owner "
        "FROM _ixd_indexes WHERE tabid = ? AND is_constraint = 0",
        -1, &st, NULL);
    sqlite3_bind_int(st, 1, t->tabid);
    while (sqlite3_step(st) == SQLITE_ROW) {
        xdef *n = realloc(t->x, sizeof(xdef) * (size_t)(t->nx + 1));
        if (!n) break;
        t->x = n;
        xdef *x = &t->x[t->nx++];
        memset(x, 0, sizeof *x);
        snprintf(x->name, sizeof x->name, "%s", (const char *)sqlite3_column_text(st, 0));
        const char *ty = (const char *)sqlite3_column_text(st, 1);
        x->uniq = ty && ty[0] == 'U';
        x->cols = col_dup(st, 2);
        for (int i = 0; i < 16; i++)
            x->parts[i] = sqlite3_column_int(st, 3 + i);
        const char *xo = (const char *)sqlite3_column_text(st, 19);
        snprintf(x->owner, sizeof x->owner, "%s", xo ? xo : "");
    }
    sqlite3_finalize(st);
}

/* Loads a table definition from the catalog. 1 found, 0 not, -1 error (a
 * view or a catalogue table is -999). */
int ixs_tdef_load(px *p, const char *name, tdef *t) {
    memset(t, 0, sizeof *t);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(p->db->h,
                           "SELECT tabid, owner, created, serial_next, serial8_next, tabtype FROM "
                           "_ixd_tables WHERE tabname = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "catalog");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return 0;
    }
    t->tabid = sqlite3_column_int(st, 0);
    snprintf(t->owner, sizeof t->owner, "%s",
             sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "");
    t->created = sqlite3_column_int(st, 2);
    t->serial_next = sqlite3_column_int64(st, 3);
    t->serial8_next = sqlite3_column_int64(st, 4);
    const char *tt = (const char *)sqlite3_column_text(st, 5);
    int isview = tt && strcmp(tt, "T");
    snprintf(t->name, sizeof t->name, "%s", name);
    sqlite3_finalize(st);
    if (t->tabid < 100) return ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", name);
    if (isview) return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s is not a table", name);
    load_columns(p, t);
    load_constraints(p, t);
    load_indexes(p, t);
    return p->failed ? -1 : 1;
}

void ixs_add_cols_sql(sb *s, const char *cols, const int *parts) {
    const char *c = cols ? cols : "";
    int i = 0;
    while (*c) {
        size_t l = strcspn(c, ",");
        char nm[IXS_NAME_MAX + 1];
        snprintf(nm, sizeof nm, "%.*s", (int)l, c);
        if (i) ixv_sb_addc(s, ',');
        ixv_sb_ident(s, nm);
        if (parts && i < 16 && parts[i] < 0) ixv_sb_add(s, " DESC");
        c += l;
        if (*c) c++;
        i++;
    }
}

/* The SQLite index of every PRIMARY KEY / UNIQUE constraint of t, in schema
 * ("temp." or ""). */
static void key_indexes_sql(sb *s, const tdef *t, const char *schema) {
    for (int i = 0; i < t->nk; i++) {
        const kdef *k = &t->k[i];
        if (k->type != KDEF_PRIMARY && k->type != KDEF_UNIQUE) continue;
        ixv_sb_printf(s, "CREATE UNIQUE INDEX %s", schema);
        ixv_sb_ident(s, k->name);
        ixv_sb_add(s, " ON ");
        ixv_sb_ident(s, t->name);
        ixv_sb_addc(s, '(');
        ixs_add_cols_sql(s, k->cols, NULL);
        ixv_sb_add(s, ");");
    }
}

int ixs_colno_of(const tdef *t, const char *cols, int *parts) {
    const char *c = cols ? cols : "";
    int i = 0;
    while (*c && i < 16) {
        size_t l = strcspn(c, ",");
        char nm[IXS_NAME_MAX + 1];
        snprintf(nm, sizeof nm, "%.*s", (int)l, c);
        int k = ixs_tdef_find(t, nm);
        if (k < 0) return -1;
        if (parts[i] >= 0)
            parts[i] = k + 1;
        else
            parts[i] = -(k + 1);
        c += l;
        if (*c) c++;
        i++;
    }
    return 0;
}

static uint32_t col_width(ityp t) {
    switch (t.code) {
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: return (t.len & 0xff) + 1;
    case IX_T_LVARCHAR: return t.len + 5;
    case IX_T_BOOLEAN: return 6;
    case IX_T_DECIMAL:
    case IX_T_MONEY: return (uint32_t)ixt_dec_width((int)(t.len >> 8), (int)(t.len & 0xff));
    case IX_T_DATETIME:
    case IX_T_INTERVAL: return (uint32_t)ixt_qual_width(t.len);
    default: {
        ixt_vtype v = {t.code, t.len};
        size_t w = ixt_value_fixed_width(v);
        return (uint32_t)(w ? w : t.len);
    }
    }
}

/* The referenced columns of foreign key k of table t: the primary key of
 * its table when the statement names none (-206 without the table). */
static int resolve_references(px *p, const tdef *t, kdef *k) {
    if (!strcmp(k->reftab, t->name)) {
        for (int j = 0; !k->refcols && j < t->nk; j++)
            if (t->k[j].type == KDEF_PRIMARY && t->k[j].cols) k->refcols = strdup(t->k[j].cols);
    } else {
        int64_t rid;
        if (q_int(p->db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", k->reftab, &rid) != 1)
            return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", k->reftab);
        if (!k->refcols) {
            sqlite3_stmt *st;
            sqlite3_prepare_v2(p->db->h,
                               "SELECT cols FROM _ixd_constraints WHERE tabid = ? AND "
                               "constrtype = 'P'",
                               -1, &st, NULL);
            sqlite3_bind_int64(st, 1, rid);
            if (sqlite3_step(st) == SQLITE_ROW) k->refcols = col_dup(st, 0);
            sqlite3_finalize(st);
        }
    }
    return k->refcols ? 0
                      : ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "no primary key in %s", k->reftab);
}

/* Names the unnamed constraints of t (u/c/r + tabid _ constrid, as Informix
 * does) and resolves its foreign keys. */
static int resolve_constraints(px *p, tdef *t) {
    int64_t kid;
    q_int(p->db, "SELECT max(constrid) FROM _ixd_constraints", NULL, &kid);
    for (int i = 0; i < t->nk; i++) {
        kdef *k = &t->k[i];
        kid++;
        if (!k->name[0]) {
            char pfx = k->type == KDEF_CHECK ? 'c' : k->type == KDEF_REFERENCES ? 'r' : 'u';
            snprintf(k->name, sizeof k->name, "%c%d_%lld", pfx, t->tabid, (long long)kid);
        }
        if (k->type == KDEF_REFERENCES && resolve_references(p, t, k)) return -1;
    }
    return 0;
}

/* CREATE TABLE target (columns, CHECK and FOREIGN KEY constraints) into s;
 * returns the row size Informix would give t. */
static uint32_t create_sql(sb *s, const tdef *t, const char *target) {
    ixv_sb_add(s, "CREATE TABLE ");
    ixv_sb_ident(s, target);
    ixv_sb_add(s, " (");
    uint32_t rowsize = 0;
    for (int i = 0; i < t->ncols; i++) {
        if (i) ixv_sb_add(s, ", ");
        col_decl_sql(s, &t->cols[i]);
        rowsize += col_width(t->cols[i].t);
    }
    for (int i = 0; i < t->nk; i++) {
        const kdef *k = &t->k[i];
        if (k->type != KDEF_CHECK && k->type != KDEF_REFERENCES) continue;
        ixv_sb_add(s, ", CONSTRAINT ");
        ixv_sb_ident(s, k->name);
        if (k->type == KDEF_CHECK) {
            ixv_sb_printf(s, " CHECK (%s)", k->checksql ? k->checksql : "1");
            continue;
        }
        ixv_sb_add(s, " FOREIGN KEY (");
        ixs_add_cols_sql(s, k->cols, NULL);
        ixv_sb_add(s, ") REFERENCES ");
        ixv_sb_ident(s, k->reftab);
        ixv_sb_addc(s, '(');
        ixs_add_cols_sql(s, k->refcols, NULL);
        ixv_sb_addc(s, ')');
        if (k->cascade) ixv_sb_add(s, " ON DELETE CASCADE");
    }
    ixv_sb_add(s, ");");
    return rowsize;
}

#define LEGACY_ALTER_ON  "PRAGMA legacy_alter_table = ON"
#define LEGACY_ALTER_OFF "PRAGMA legacy_alter_table = OFF"

/* ALTER's rebuild: the kept columns copied (converted where their type
 * changed) from the old table, by their names (ALTER keeps a kept column's
 * name), which is then dropped and replaced by _ixd_new. */
static void copy_sql(sb *s, const tdef *t) {
    ixv_sb_add(s, "INSERT INTO \"_ixd_new\"(");
    int n = 0;
    for (int i = 0; i < t->ncols; i++) {
        if (!t->cols[i].oldno) continue;
        if (n++) ixv_sb_addc(s, ',');
        ixv_sb_ident(s, t->cols[i].name);
    }
    ixv_sb_add(s, ") SELECT ");
    n = 0;
    for (int i = 0; i < t->ncols; i++) {
        const cdef *c = &t->cols[i];
        if (!c->oldno) continue;
        if (n++) ixv_sb_addc(s, ',');
        if (c->oldt.code == c->t.code && c->oldt.len == c->t.len) {
            ixv_sb_ident(s, c->name);
        } else {
            ixv_sb_add(s, "ixd_cvt(");
            ixv_sb_ident(s, c->name);
            ixv_sb_printf(s, ",%d,%u,%d,%u)", c->oldt.code, c->oldt.len, c->t.code, c->t.len);
        }
    }
    ixv_sb_add(s, " FROM ");
    ixv_sb_ident(s, t->name);
    /* The views on the table stay as they are, as in Informix (one that
     * names a dropped column fails when it is used): SQLite's rename must
     * not check them while the table is away (legacy_alter_table; the caller
     * turns it off again whatever happens). */
    ixv_sb_add(s, ";" LEGACY_ALTER_ON ";DROP TABLE ");
    ixv_sb_ident(s, t->name);
    ixv_sb_add(s, ";ALTER TABLE \"_ixd_new\" RENAME TO ");
    ixv_sb_ident(s, t->name);
    ixv_sb_add(s, ";" LEGACY_ALTER_OFF ";");
}

/* The SQLite indexes of t: one per PRIMARY KEY / UNIQUE constraint, and its
 * other indexes. */
static void indexes_sql(sb *s, const tdef *t) {
    key_indexes_sql(s, t, "");
    for (int i = 0; i < t->nx; i++) {
        const xdef *x = &t->x[i];
        ixv_sb_printf(s, "CREATE %sINDEX ", x->uniq ? "UNIQUE " : "");
        ixv_sb_ident(s, x->name);
        ixv_sb_add(s, " ON ");
        ixv_sb_ident(s, t->name);
        ixv_sb_addc(s, '(');
        ixs_add_cols_sql(s, x->cols, x->parts);
        ixv_sb_add(s, ");");
    }
}

/* The _ixd_tables row of t and its _ixd_columns rows (the SERIAL counters
 * start at the columns' start values; a rebuild keeps those reached). */
static void table_cat_sql(sb *s, const tdef *t, int rebuild, uint32_t rowsize, sqlite3 *h,
                          int logmode) {
    int64_t s1 = 1, s8 = 1;
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].serial == 1) s1 = t->cols[i].start;
        if (t->cols[i].serial >= 2) s8 = t->cols[i].start;
    }
    if (rebuild) {
        s1 = t->serial_next > s1 ? t->serial_next : s1;
        s8 = t->serial8_next > s8 ? t->serial8_next : s8;
    }
    ixv_sb_printf(
        s,
        "INSERT OR REPLACE INTO _ixd_tables(tabid, tabname, owner, created, tabtype, rowsize,"
        " serial_next, serial8_next) VALUES(%d, ",
        t->tabid);
    ixv_sb_strlit(s, t->name, strlen(t->name));
    ixv_sb_addc(s, ',');
    ixv_sb_strlit(s, t->owner, strlen(t->owner));
    ixv_sb_printf(s, ", %d, 'T', %u, %lld, %lld);", t->created, rowsize, (long long)s1,
                  (long long)s8);
    if (!rebuild) ixs_priv_new_table_sql(s, t->tabid, t->owner, logmode);
    for (int i = 0; i < t->ncols; i++) {
        const cdef *c = &t->cols[i];
        ixv_sb_printf(s,
                      "INSERT INTO _ixd_columns(tabid, colno, colname, coltype, collength, serial, "
                      "deftype, deftext, defsql) VALUES(%d, %d, ",
                      t->tabid, i + 1);
        ixv_sb_strlit(s, c->name, strlen(c->name));
        ixv_sb_printf(s, ", %d, %u, %d, ",
                      ixs_row_coltype(c->t.code, c->t.len, h) | (c->notnull ? IXT_TF_NOTNULL : 0),
                      c->collen, c->serial);
        if (c->deftype) {
            ixv_sb_printf(s, "'%c', ", c->deftype);
            ixv_sb_strlit(s, c->deftext, strlen(c->deftext));
            ixv_sb_add(s, ", ");
        } else
            ixv_sb_add(s, "NULL, NULL, ");
        if (c->defsql)
            ixv_sb_strlit(s, c->defsql, strlen(c->defsql));
        else
            ixv_sb_add(s, "NULL");
        ixv_sb_add(s, ");");
    }
}

/* text as an SQL literal, or NULL */
static void lit_or_null(sb *s, const char *text) {
    if (text)
        ixv_sb_strlit(s, text, strlen(text));
    else
        ixv_sb_add(s, "NULL");
}

/* One _ixd_indexes row: index name/owner of table tabid, type U or D. */
void ixs_index_row_sql(sb *s, const char *name, const char *owner, int tabid, char type,
                       int is_constraint, const char *cols, const int *parts) {
    ixv_sb_add(s, "INSERT INTO _ixd_indexes(idxname, owner, tabid, idxtype, is_constraint, "
                  "cols, part1, part2, part3, part4, part5, part6, part7, part8, part9, "
                  "part10, part11, part12, part13, part14, part15, part16) VALUES(");
    ixv_sb_strlit(s, name, strlen(name));
    ixv_sb_addc(s, ',');
    ixv_sb_strlit(s, owner, strlen(owner));
    ixv_sb_printf(s, ", %d, '%c', %d, ", tabid, type, is_constraint);
    ixv_sb_strlit(s, cols, strlen(cols));
    for (int j = 0; j < 16; j++)
        ixv_sb_printf(s, ", %d", parts[j]);
    ixv_sb_add(s, ");");
}

/* The _ixd_constraints row of k and its _ixd_indexes row: a PRIMARY KEY /
 * UNIQUE constraint's index has its name; a REFERENCES one has, as Informix
 * gives it, a duplicates index named by a blank and the constraint's name
 * (so no user index can clash), whose parts are the referencing columns
 * (sysconstraints.idxname -> sysindexes). -217 when its columns are not
 * t's. */
static int constraint_cat_sql(px *p, sb *s, const tdef *t, const kdef *k) {
    int isidx = k->type == KDEF_PRIMARY || k->type == KDEF_UNIQUE;
    int isfk = k->type == KDEF_REFERENCES;
    char fkidx[IXS_NAME_MAX + 2];
    snprintf(fkidx, sizeof fkidx, " %s", k->name);
    ixv_sb_add(
        s, "INSERT INTO _ixd_constraints(constrname, owner, tabid, constrtype, idxname, ifxtext,"
           " cols, reftabid, refcols, ondelete, checktext) VALUES(");
    ixv_sb_strlit(s, k->name, strlen(k->name));
    ixv_sb_addc(s, ',');
    const char *kown = k->owner[0] ? k->owner : t->owner;
    ixv_sb_strlit(s, kown, strlen(kown));
    ixv_sb_printf(s, ", %d, '%c', ", t->tabid, k->type);
    lit_or_null(s, isidx ? k->name : isfk ? fkidx : NULL);
    ixv_sb_addc(s, ',');
    lit_or_null(s, k->ifxcheck);
    ixv_sb_addc(s, ',');
    lit_or_null(s, k->cols);
    if (k->type == KDEF_REFERENCES) {
        ixv_sb_add(s, ", (SELECT tabid FROM _ixd_tables WHERE tabname = ");
        ixv_sb_strlit(s, k->reftab, strlen(k->reftab));
        ixv_sb_add(s, "), ");
        ixv_sb_strlit(s, k->refcols, strlen(k->refcols));
        ixv_sb_add(s, k->cascade ? ", 'C'" : ", NULL");
    } else
        ixv_sb_add(s, ", NULL, NULL, NULL");
    ixv_sb_addc(s, ',');
    lit_or_null(s, k->checksql);
    ixv_sb_add(s, ");");
    if (!isidx && !isfk) return 0;
    int parts[16] = {0};
    if (ixs_colno_of(t, k->cols, parts)) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", k->cols);
    ixs_index_row_sql(s, isidx ? k->name : fkidx, kown, t->tabid, isidx ? 'U' : 'D', 1, k->cols,
                      parts);
    return 0;
}

/* The catalogue rows of t: table, columns, constraints, indexes (those of
 * the table before are replaced). */
static int catalog_sql(px *p, sb *s, tdef *t, int rebuild, uint32_t rowsize) {
    ixv_sb_printf(s, "DELETE FROM _ixd_columns WHERE tabid = %d;", t->tabid);
    ixv_sb_printf(s, "DELETE FROM _ixd_constraints WHERE tabid = %d;", t->tabid);
    ixv_sb_printf(s, "DELETE FROM _ixd_indexes WHERE tabid = %d;", t->tabid);
    table_cat_sql(s, t, rebuild, rowsize, p->db->h, p->db->logmode);
    for (int i = 0; i < t->nk; i++)
        if (constraint_cat_sql(p, s, t, &t->k[i])) return -1;
    for (int i = 0; i < t->nx; i++) {
        xdef *x = &t->x[i];
        if (ixs_colno_of(t, x->cols, x->parts))
            return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", x->cols);
        const char *xown = x->owner[0] ? x->owner : t->owner;
        ixs_index_row_sql(s, x->name, xown, t->tabid, x->uniq ? 'U' : 'D', 0, x->cols, x->parts);
    }
    return 0;
}

/* Writes t into SQLite and the catalog. rebuild: copy rows from the existing
 * table of the same name (ALTER). A duplicate key of a new unique index is
 * -371. */
int ixs_materialize(px *p, tdef *t, int rebuild) {
    ixs_conn *db = p->db;
    if (!t->tabid) {
        int64_t maxid;
        q_int(db, "SELECT max(tabid) FROM _ixd_tables", NULL, &maxid);
        t->tabid = maxid < 99 ? 100 : (int)maxid + 1;
    }
    if (resolve_constraints(p, t)) return -1;
    sb s = {0};
    uint32_t rowsize = create_sql(&s, t, rebuild ? "_ixd_new" : t->name);
    if (rebuild) copy_sql(&s, t);
    indexes_sql(&s, t);
    if (catalog_sql(p, &s, t, rebuild, rowsize)) {
        ixv_sb_free(&s);
        return -1;
    }
    if (s.oom) {
        ixv_sb_free(&s);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    int rc = sqlite3_exec(db->h, s.p, NULL, NULL, NULL);
    ixv_sb_free(&s);
    if (rc != SQLITE_OK) ixs_sqlite_err(db, rc, 0, t->name, p->err); /* before the pragma */
    if (rebuild) sqlite3_exec(db->h, LEGACY_ALTER_OFF, NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        if (p->err->sqlcode == IXV_E_DUP_INDEX || p->err->sqlcode == IXV_E_UNIQUE)
            ixv_recode(p->err, IXV_E_UNIQUE_INDEX_DUPS, IXV_KEEP_ISAM);
        p->failed = 1;
        return -1;
    }
    if (ixs_lob_table_hooks(db, t, p->err)) { /* counted LOB references */
        p->failed = 1;
        return -1;
    }
    return 0;
}

/*
 * DDL runs inside a savepoint. Outside a transaction that savepoint is the
 * transaction, and it begins as a writer (BEGIN IMMEDIATE, waiting for the
 * write lock as SET LOCK MODE says): a deferred one would read the
 * catalogue first, and SQLite cannot turn a reader into a writer once
 * another session has committed since (SQLITE_BUSY_SNAPSHOT, answered at
 * once, whatever the lock wait).
 */
int ixs_ddl_begin(px *p) {
    p->ddl_own = sqlite3_get_autocommit(p->db->h);
    if ((p->ddl_own && ixs_exec(p->db, "BEGIN IMMEDIATE", p->err)) ||
        ixs_exec(p->db, "SAVEPOINT " IXV_INTERNAL_PREFIX "ddl", p->err)) {
        if (p->ddl_own && !sqlite3_get_autocommit(p->db->h))
            sqlite3_exec(p->db->h, "ROLLBACK", NULL, NULL, NULL);
        p->failed = 1;
        return -1;
    }
    return 0;
}
int ixs_ddl_exec_sql(px *p, const char *sql, const char *name) {
    if (ixs_ddl_begin(p)) return -1;
    int r = sqlite3_exec(p->db->h, sql, NULL, NULL, NULL);
    if (r != SQLITE_OK) {
        ixs_sqlite_err(p->db, r, 0, name, p->err);
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

int ixs_ddl_exec_sb(px *p, sb *s, const char *name) {
    int rc = s->oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : ixs_ddl_exec_sql(p, s->p, name);
    ixv_sb_free(s);
    return rc;
}

/* After a DDL rolled back: the session's temp catalogue is made again at
 * its next use if the rollback took it away (it was made inside the DDL,
 * as by a first SELECT ... INTO TEMP that failed). */
static void temp_catalog_recheck(ixs_conn *db) {
    int64_t v;
    if (db->has_temp &&
        q_int(db, "SELECT 1 FROM temp.sqlite_master WHERE name = '_ixd_ttables'", NULL, &v) != 1)
        db->has_temp = 0;
}

int ixs_ddl_end(px *p, int ok) {
    if (ok) {
        if (ixs_exec(p->db, "RELEASE " IXV_INTERNAL_PREFIX "ddl", p->err) == 0 &&
            (!p->ddl_own || ixs_exec(p->db, "COMMIT", p->err) == 0))
            return 0;
        p->failed = 1;
    }
    if (!sqlite3_get_autocommit(p->db->h))
        sqlite3_exec(p->db->h,
                     p->ddl_own ? "ROLLBACK"
                                : "ROLLBACK TO " IXV_INTERNAL_PREFIX
                                  "ddl; RELEASE " IXV_INTERNAL_PREFIX "ddl",
                     NULL, NULL, NULL);
    temp_catalog_recheck(p->db);
    return -1;
}
