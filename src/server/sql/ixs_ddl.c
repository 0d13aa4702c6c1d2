/* ixs_ddl.c: the DDL statements: CREATE TABLE, CREATE INDEX, DROP,
 * RENAME, CREATE VIEW and SELECT ... INTO TEMP, parsed and run. Table
 * definitions are in ixs_ddl_def.c, the catalogue side in ixs_ddl_cat.c,
 * dispatch in ixs_translate.c, the database statements in ixs_dbstmt.c. */
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
#include "server/ts/ts.h"

#include "server/sql/ixs_ddl_int.h"

#define MAXC IXS_MAX_COLS
static void skip_table_options(px *p) {
    for (;;) {
        if (ixs_px_acc(p, IXK_WITH)) {
            (void)(ixs_px_acc(p, IXK_NO) && ixs_px_acc(p, IXK_LOG));
            ixs_px_acc(p, IXK_CRCOLS);
            ixs_px_acc(p, IXK_ROWIDS);
            ixs_px_acc(p, IXK_ERKEY);
        } else if (ixs_px_acc(p, IXK_IN)) {
            char d[IXS_NAME_MAX + 1];
            ixs_px_ident(p, d, sizeof d);
        } else if (ixs_px_acc(p, IXK_EXTENT) || ixs_px_acc(p, IXK_NEXT)) {
            int64_t v;
            ixs_px_acc(p, IXK_SIZE);
            ixs_px_int(p, &v);
        } else if (ixs_px_acc(p, IXK_LOCK)) {
            ixs_px_acc(p, IXK_MODE);
            if (!ixs_px_acc(p, IXK_ROW) && !ixs_px_acc(p, IXK_PAGE)) ixs_px_acc(p, IXK_TABLE);
        } else
            return;
        if (p->failed) return;
    }
}

/* The one-column primary key of t (the series key), or NULL. */
const char *ixs_ts_key(const tdef *t) {
    const char *key = NULL;
    for (int i = 0; i < t->nk; i++)
        if (t->k[i].type == 'P' && t->k[i].cols && !strchr(t->k[i].cols, ',')) key = t->k[i].cols;
    return key;
}

/* Records the TIMESERIES columns of the new table t (or those ALTER TABLE
 * adds to it). */
int ixs_ts_columns(px *p, const tdef *t, int temp) {
    const char *key = ixs_ts_key(t);
    for (int i = 0; i < t->ncols; i++) {
        if (!t->cols[i].tsrow[0]) continue;
        if (temp)
            return ixs_px_failc(p, IXV_E_TEXT, "A temporary table cannot have a TIMESERIES column");
        if (ixts_column_add(p->db->h, t->name, t->cols[i].name, t->cols[i].tsrow, key, p->err)) {
            p->failed = 1;
            return -1;
        }
    }
    return 0;
}

/*
 * CREATE [TEMP | RAW | STANDARD] TABLE, after TABLE:
 *   [IF NOT EXISTS] [db:][owner.]name ( element [, element ...] ) [options]
 *   element: column_def | table_constraint
 *   options: WITH [NO LOG | CRCOLS | ROWIDS | ERKEY], IN dbspace, EXTENT SIZE n,
 *            NEXT SIZE n, LOCK MODE {ROW | PAGE | TABLE}
 * The CHECK conditions are translated here, against the statement's own
 * columns (no catalogue). More than one SERIAL or SERIAL8 column is -201.
 */
int ixs_create_table_parse(px *p, int temp, ddl_create_table *ct) {
    tdef *t = &ct->t;
    ct->temp = temp;
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -1;
        ct->ifne = 1;
    }
    ixs_name o;
    if (ixs_name_parse(p, IXS_NAME_DB | IXS_NAME_NEW, &o)) return -1;
    snprintf(t->name, sizeof t->name, "%s", o.name);
    snprintf(t->owner, sizeof t->owner, "%s", ixs_name_owner(&o, p->db));
    if (ixs_px_expect_op(p, "(")) return -1;
    for (;;) {
        if (ixs_px_kw(p, p->i, IXK_PRIMARY) || ixs_px_kw(p, p->i, IXK_UNIQUE) ||
            ixs_px_kw(p, p->i, IXK_CHECK) || ixs_px_kw(p, p->i, IXK_FOREIGN) ||
            ixs_px_kw(p, p->i, IXK_CONSTRAINT) ||
            (ixs_px_kw(p, p->i, IXK_DISTINCT) && ixs_px_op(p, p->i + 1, "("))) {
            if (ixs_table_constraint(p, t)) return -1;
        } else {
            cdef *c = ixs_tdef_addcol(p, t);
            if (!c || ixs_column_def(p, t, c, 0)) return -1;
        }
        if (!ixs_px_acc_op(p, ",")) break;
    }
    if (ixs_px_expect_op(p, ")")) return -1;
    skip_table_options(p);
    if (p->failed || ixs_translate_checks(p, t)) return -1;
    int serials = 0, serial8s = 0;
    for (int i = 0; i < t->ncols; i++) {
        serials += t->cols[i].serial == 1;
        serial8s += t->cols[i].serial >= 2;
    }
    if (serials > 1 || serial8s > 1) return ixs_px_fail(p);
    return 0;
}

/* Runs CREATE TABLE: -310 when the name is taken (nothing with IF NOT
 * EXISTS), else the table, its catalogue rows and its TIMESERIES columns,
 * in one savepoint. The tree is kept as it is (a copy is resolved). */
int ixs_create_table_run(px *p, const ddl_create_table *ct) {
    if (ixs_ts_rowtypes(p, &ct->t)) return -1;
    if (ixs_table_exists(p->db, ct->t.name))
        return ct->ifne ? 0 : ixs_px_failc(p, IXV_E_TABLE_EXISTS, "%s", ct->t.name);
    tdef t;
    int rc = -1;
    if (ixs_tdef_copy(p, &t, &ct->t) == 0 && ixs_ddl_begin(p) == 0) {
        t.created = ixv_today();
        int ok = (ct->temp ? ixs_temp_materialize(p, &t) : ixs_materialize(p, &t, 0)) == 0;
        rc = ixs_ddl_end(p, ok && ixs_ts_columns(p, &t, ct->temp) == 0);
    }
    ixs_tdef_free(&t);
    return rc;
}

/*
 * CREATE [UNIQUE | DISTINCT] [CLUSTER] INDEX, after UNIQUE / DISTINCT:
 *   [CLUSTER] INDEX [IF NOT EXISTS] [db:][owner.]name ON [db:][owner.]table
 *   ( column [ASC | DESC] [, ...] ) [USING method] [options] [ONLINE]
 * At most 16 columns (-201 past them).
 */
int ixs_create_index_parse(px *p, int uniq, ddl_create_index *ci) {
    ci->uniq = uniq;
    ixs_px_acc(p, IXK_CLUSTER);
    if (ixs_px_expect(p, IXK_INDEX)) return -1;
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -1;
        ci->ifne = 1;
    }
    ixs_name io;
    if (ixs_name_parse(p, IXS_NAME_DB | IXS_NAME_NEW, &io)) return -1;
    snprintf(ci->name, sizeof ci->name, "%s", io.name);
    snprintf(ci->owner, sizeof ci->owner, "%s", ixs_name_owner(&io, p->db));
    if (ixs_px_expect(p, IXK_ON) || ixs_px_objname(p, IXS_NAME_DB, ci->tab, sizeof ci->tab))
        return -1;
    if (ixs_px_expect_op(p, "(")) return -1;
    sb cols = {0};
    int n = 0;
    do {
        char c[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, c, sizeof c)) break;
        if (n >= 16) {
            ixs_px_fail(p);
            break;
        }
        int desc = ixs_px_acc(p, IXK_DESC);
        if (!desc) ixs_px_acc(p, IXK_ASC);
        ci->parts[n++] = desc ? -1 : 1;
        if (cols.n) ixv_sb_addc(&cols, ',');
        ixv_sb_add(&cols, c);
    } while (ixs_px_acc_op(p, ","));
    ci->cols = ixv_sb_take(&cols);
    if (p->failed) return -1;
    if (!ci->cols) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (ixs_px_expect_op(p, ")")) return -1;
    if (ixs_px_acc(p, IXK_USING)) {
        char u[IXS_NAME_MAX + 1];
        ixs_px_ident(p, u, sizeof u);
    }
    skip_table_options(p);
    ixs_px_acc(p, IXK_ONLINE);
    return p->failed ? -1 : 0;
}

/* The first column of the list cols that t does not have, for -217. */
static void first_missing(const tdef *t, const char *cols, char *bad, size_t n) {
    bad[0] = 0;
    for (const char *c = cols; *c;) {
        size_t l = strcspn(c, ",");
        snprintf(bad, n, "%.*s", (int)l, c);
        if (ixs_tdef_find(t, bad) < 0) return;
        c += l;
        if (*c) c++;
    }
}

/* The SQL of CREATE INDEX ci on table tabid (parts: column numbers). */
static void index_sql(sb *s, const ddl_create_index *ci, int tabid, const int *parts) {
    ixv_sb_printf(s, "CREATE %sINDEX ", ci->uniq ? "UNIQUE " : "");
    ixv_sb_ident(s, ci->name);
    ixv_sb_add(s, " ON ");
    ixv_sb_ident(s, ci->tab);
    ixv_sb_addc(s, '(');
    ixs_add_cols_sql(s, ci->cols, parts);
    ixv_sb_add(s, ");");
    ixs_index_row_sql(s, ci->name, ci->owner, tabid, ci->uniq ? 'U' : 'D', 0, ci->cols, parts);
}

/* Runs sql in the statement's DDL savepoint; a duplicate key is -371 with
 * ISAM -100 and the index name. */
static int index_exec(px *p, const char *sql, const char *tab, const char *name) {
    if (ixs_ddl_begin(p)) return -1;
    int r = sqlite3_exec(p->db->h, sql, NULL, NULL, NULL);
    if (r != SQLITE_OK) {
        ixs_sqlite_err(p->db, r, 0, tab, p->err);
        if (p->err->sqlcode == IXV_E_DUP_INDEX || p->err->sqlcode == IXV_E_UNIQUE) {
            ixv_seterr(p->err, IXV_E_UNIQUE_INDEX_DUPS, IXV_ISAM_DUP_KEY, 0, "%s", name);
        }
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

/* Runs CREATE INDEX: -316 when the name is taken, -206 without the table,
 * -217 for a column it does not have. */
int ixs_create_index_run(px *p, const ddl_create_index *ci) {
    int64_t v;
    char stn[IXV_STNAME_MAX + 1]; /* SQLite knows it by its storage name */
    if (ixs_ddl_q_int(p->db, "SELECT 1 FROM _ixd_indexes WHERE idxname = ?", ci->name, &v) == 1 ||
        ixs_ddl_q_int(p->db, "SELECT 1 FROM sqlite_master WHERE lower(name) = ?",
                      ixv_stname(ci->name, stn, sizeof stn), &v) == 1)
        return ci->ifne ? 0 : ixs_px_failc(p, IXV_E_INDEX_EXISTS, "%s", ci->name);
    tdef t;
    int rc = -1, lr = ixs_tdef_load(p, ci->tab, &t);
    int parts[16];
    memcpy(parts, ci->parts, sizeof parts);
    if (lr == 0)
        ixs_px_failc(p, IXV_E_NO_TABLE, "%s", ci->tab);
    else if (lr > 0 && ixs_colno_of(&t, ci->cols, parts)) {
        char bad[IXS_NAME_MAX + 1];
        first_missing(&t, ci->cols, bad, sizeof bad);
        ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", bad);
    } else if (lr > 0) {
        sb s = {0};
        index_sql(&s, ci, t.tabid, parts);
        rc = s.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : index_exec(p, s.p, ci->tab, ci->name);
        ixv_sb_free(&s);
    }
    ixs_tdef_free(&t);
    return rc;
}

/* DROP TABLE ... CASCADE: the foreign keys of other tables that reference
 * table tabid go first, each by ALTER TABLE child DROP CONSTRAINT (inside the
 * DROP's savepoint when it fails). Returns 0 or -1. */
static int drop_referencing(px *p, int tabid) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(p->db->h,
                           "SELECT t.tabname, c.constrname FROM _ixd_constraints c JOIN "
                           "_ixd_tables t ON t.tabid = c.tabid WHERE c.reftabid = ? AND "
                           "c.tabid <> c.reftabid AND c.constrtype = 'R'",
                           -1, &st, NULL) != SQLITE_OK)
        return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "catalog");
    sqlite3_bind_int(st, 1, tabid);
    sb s = {0};
    while (sqlite3_step(st) == SQLITE_ROW) {
        ixv_sb_add(&s, "alter table ");
        ixv_sb_quoted(&s, (const char *)sqlite3_column_text(st, 0)); /* as written, with or */
        ixv_sb_add(&s, " drop constraint ");
        ixv_sb_quoted(&s, (const char *)sqlite3_column_text(st, 1)); /* without DELIMIDENT */
        ixv_sb_addc(&s, 0);
    }
    sqlite3_finalize(st);
    if (s.oom) {
        ixv_sb_free(&s);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    int rc = 0;
    for (size_t off = 0; rc == 0 && off < s.n; off += strlen(s.p + off) + 1) {
        int64_t n;
        rc = ixs_run_sql(p->db, s.p + off, strlen(s.p + off), &n, p->err);
    }
    ixv_sb_free(&s);
    if (rc) p->failed = 1;
    return rc;
}

/*
 * DROP { TABLE | INDEX | VIEW }, after DROP:
 *   { TABLE | INDEX | VIEW } [IF EXISTS] [db:][owner.]name [CASCADE | RESTRICT]
 * DROP DATABASE is a session statement (ixs_dbstmt): here it is -999.
 */
int ixs_drop_parse(px *p, ddl_drop *dr) {
    dr->what = ixs_px_acc(p, IXK_TABLE)   ? DROP_TABLE
               : ixs_px_acc(p, IXK_INDEX) ? DROP_INDEX
               : ixs_px_acc(p, IXK_VIEW)  ? DROP_VIEW
                                          : 0;
    if (!dr->what) {
        if (ixs_px_kw(p, p->i, IXK_DATABASE))
            return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "DROP DATABASE needs a session");
        return ixs_px_fail(p);
    }
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_EXISTS)) return -1;
        dr->ife = 1;
    }
    if (ixs_px_objname(p, IXS_NAME_DB, dr->name, sizeof dr->name)) return -1;
    dr->cascade = !ixs_px_acc(p, IXK_RESTRICT);
    if (dr->cascade) ixs_px_acc(p, IXK_CASCADE);
    return 0;
}

/* DROP INDEX: -319 when there is none (nothing with IF EXISTS); an index of a
 * constraint goes with its constraint only. 1 = nothing to do. */
static int drop_index_sql(px *p, const ddl_drop *dr, sb *s) {
    int64_t isc;
    if (ixs_ddl_q_int(p->db, "SELECT is_constraint FROM _ixd_indexes WHERE idxname = ?", dr->name,
                      &isc) != 1)
        return dr->ife ? 1 : ixs_px_failc(p, IXV_E_NO_INDEX, "%s", dr->name);
    if (isc)
        return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "index %s belongs to a constraint", dr->name);
    ixv_sb_add(s, "DROP INDEX ");
    ixv_sb_ident(s, dr->name);
    ixv_sb_add(s, "; DELETE FROM _ixd_indexes WHERE idxname = ");
    ixv_sb_strlit(s, dr->name, strlen(dr->name));
    return 0;
}

static void drop_temp_sql(px *p, const char *name, sb *s) {
    int64_t tid;
    ixs_ddl_q_int(p->db, "SELECT tabid FROM _ixd_ttables WHERE tabname = ?", name, &tid);
    ixv_sb_add(s, "DROP TABLE temp.");
    ixv_sb_ident(s, name);
    ixv_sb_printf(s,
                  "; DELETE FROM _ixd_tcolumns WHERE tabid = %lld; DELETE FROM _ixd_ttables "
                  "WHERE tabid = %lld;",
                  (long long)tid, (long long)tid);
}

/* DROP TABLE / VIEW of a catalogued table: -206 when there is none or it is
 * of the other kind; the foreign keys of other tables that reference it go
 * first (CASCADE, the default), or -886 with RESTRICT. 1 = nothing to do. */
static int drop_table_sql(px *p, const ddl_drop *dr, sb *s) {
    ixs_conn *db = p->db;
    char tt[8] = "";
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db->h, "SELECT tabid, tabtype FROM _ixd_tables WHERE tabname = ?", -1, &st,
                       NULL);
    sqlite3_bind_text(st, 1, dr->name, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    long long tabid = found ? sqlite3_column_int64(st, 0) : 0;
    if (found) snprintf(tt, sizeof tt, "%s", (const char *)sqlite3_column_text(st, 1));
    sqlite3_finalize(st);
    if (!found) return dr->ife ? 1 : ixs_px_failc(p, IXV_E_NO_TABLE, "%s", dr->name);
    if (tabid < 100) return ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", dr->name);
    if ((dr->what == DROP_VIEW) != (tt[0] == 'V'))
        return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", dr->name);
    int64_t refs;
    ixs_ddl_q_int(
        db,
        "SELECT count(*) FROM _ixd_constraints c JOIN _ixd_tables t ON t.tabid = c.reftabid"
        " WHERE t.tabname = ? AND c.tabid <> t.tabid",
        dr->name, &refs);
    if (refs && !dr->cascade) return ixs_px_failc(p, IXS_E_DROP_DEPENDENT, NULL);
    if (refs && drop_referencing(p, (int)tabid)) return -1;
    ixv_sb_printf(s, "DROP %s ", dr->what == DROP_VIEW ? "VIEW" : "TABLE");
    ixv_sb_ident(s, dr->name);
    ixv_sb_printf(s,
                  "; DELETE FROM _ixd_columns WHERE tabid = %lld; DELETE FROM _ixd_indexes WHERE "
                  "tabid = %lld; DELETE FROM _ixd_constraints WHERE tabid = %lld; DELETE FROM "
                  "_ixd_tables WHERE tabid = %lld; DELETE FROM _ixd_views WHERE tabid = %lld;",
                  tabid, tabid, tabid, tabid, tabid);
    ixs_priv_drop_table_sql(s, tabid);
    if (dr->what == DROP_TABLE) ixs_trigger_drop_table_sql((int)tabid, s);
    return 0;
}

/* Runs DROP TABLE / INDEX / VIEW in one savepoint (the series of a dropped
 * table go with it). */
int ixs_drop_run(px *p, const ddl_drop *dr) {
    sb s = {0};
    int r;
    if (dr->what == DROP_INDEX)
        r = drop_index_sql(p, dr, &s);
    else if (dr->what == DROP_TABLE && ixs_table_exists(p->db, dr->name) == 2) {
        drop_temp_sql(p, dr->name, &s);
        r = 0;
    } else
        r = drop_table_sql(p, dr, &s);
    if (r || s.oom || ixs_ddl_begin(p)) {
        ixv_sb_free(&s);
        return r > 0 ? 0 : r < 0 || p->failed ? -1 : ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    if (dr->what == DROP_TABLE && ixs_lob_drop_table(p, dr->name)) { /* its LOs are let go */
        ixv_sb_free(&s);
        return ixs_ddl_end(p, 0);
    }
    r = sqlite3_exec(p->db->h, s.p, NULL, NULL, NULL);
    ixv_sb_free(&s);
    if (r != SQLITE_OK) {
        ixs_sqlite_err(p->db, r, 0, dr->name, p->err);
        p->failed = 1;
    } else if (dr->what == DROP_TABLE && ixts_table_dropped(p->db->h, dr->name, p->err)) {
        r = SQLITE_ERROR; /* its series go with it */
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

static void replace_in_list(ixs_conn *db, const char *table, const char *col, const char *keycol,
                            const char *where, const char *from, const char *to) {
    /* rewrites comma lists in catalog text columns */
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT rowid, %s FROM %s WHERE %s", col, table, where);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) return;
    (void)keycol;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 1);
        if (!v) continue;
        sb n = {0};
        const char *c = v;
        while (*c) {
            size_t l = strcspn(c, ",");
            if (n.n) ixv_sb_addc(&n, ',');
            if (l == strlen(from) && !strncmp(c, from, l))
                ixv_sb_add(&n, to);
            else
                ixv_sb_addn(&n, c, l);
            c += l;
            if (*c) c++;
        }
        char up[256];
        snprintf(up, sizeof up, "UPDATE %s SET %s = ? WHERE rowid = ?", table, col);
        sqlite3_stmt *u;
        if (sqlite3_prepare_v2(db->h, up, -1, &u, NULL) == SQLITE_OK) {
            sqlite3_bind_text(u, 1, n.p ? n.p : "", -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(u, 2, sqlite3_column_int64(st, 0));
            sqlite3_step(u);
            sqlite3_finalize(u);
        }
        ixv_sb_free(&n);
    }
    sqlite3_finalize(st);
}

/*
 * RENAME, after RENAME:
 *   TABLE [db:][owner.]old TO new
 *   COLUMN [owner.]table.old TO new
 */
int ixs_rename_parse(px *p, ixs_ddl *d) {
    ddl_rename *rn = &d->u.rn;
    if (ixs_px_acc(p, IXK_TABLE)) {
        d->kind = DDL_RENAME_TABLE;
        if (ixs_px_objname(p, IXS_NAME_DB, rn->tab, sizeof rn->tab)) return -1;
        return ixs_px_expect(p, IXK_TO) || ixs_px_newname(p, rn->to, sizeof rn->to) ? -1 : 0;
    }
    if (!ixs_px_acc(p, IXK_COLUMN)) return ixs_px_fail(p);
    d->kind = DDL_RENAME_COLUMN;
    if (ixs_px_ident(p, rn->tab, sizeof rn->tab) || ixs_px_expect_op(p, ".") ||
        ixs_px_ident(p, rn->from, sizeof rn->from))
        return -1;
    if (ixs_px_acc_op(p, ".")) { /* owner.table.column */
        snprintf(rn->tab, sizeof rn->tab, "%s", rn->from);
        if (ixs_px_ident(p, rn->from, sizeof rn->from)) return -1;
    }
    return ixs_px_expect(p, IXK_TO) || ixs_px_newname(p, rn->to, sizeof rn->to) ? -1 : 0;
}

/* Runs sql in the statement's DDL savepoint; after it, when it worked, the
 * catalogue lists of a renamed column (cols: the table's tabid). */
static int rename_exec(px *p, const char *sql, const char *tab, long long cols_tabid,
                       const ddl_rename *rn) {
    if (ixs_ddl_begin(p)) return -1;
    int r = sqlite3_exec(p->db->h, sql, NULL, NULL, NULL);
    if (r == SQLITE_OK && cols_tabid) {
        char wh[64];
        snprintf(wh, sizeof wh, "tabid = %lld", cols_tabid);
        replace_in_list(p->db, "_ixd_constraints", "cols", NULL, wh, rn->from, rn->to);
        replace_in_list(p->db, "_ixd_indexes", "cols", NULL, wh, rn->from, rn->to);
        snprintf(wh, sizeof wh, "reftabid = %lld", cols_tabid);
        replace_in_list(p->db, "_ixd_constraints", "refcols", NULL, wh, rn->from, rn->to);
    } else if (r != SQLITE_OK) {
        ixs_sqlite_err(p->db, r, 0, tab, p->err);
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

/* Runs RENAME TABLE: -206 without the table, -310 when the new name is taken. */
int ixs_rename_table_run(px *p, const ddl_rename *rn) {
    int64_t tabid;
    if (ixs_ddl_q_int(p->db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", rn->tab, &tabid) !=
        1)
        return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", rn->tab);
    if (tabid < 100) return ixs_px_failc(p, IXS_E_CATALOG_RENAME, NULL);
    if (ixs_table_exists(p->db, rn->to)) return ixs_px_failc(p, IXV_E_TABLE_EXISTS, "%s", rn->to);
    sb s = {0};
    ixv_sb_add(&s, "ALTER TABLE ");
    ixv_sb_ident(&s, rn->tab);
    ixv_sb_add(&s, " RENAME TO ");
    ixv_sb_ident(&s, rn->to);
    ixv_sb_add(&s, "; UPDATE _ixd_tables SET tabname = ");
    ixv_sb_strlit(&s, rn->to, strlen(rn->to));
    ixv_sb_printf(&s, " WHERE tabid = %lld;", (long long)tabid);
    int rc = s.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : rename_exec(p, s.p, rn->tab, 0, rn);
    ixv_sb_free(&s);
    return rc;
}

/* Runs RENAME COLUMN: -206 without the table, -217 without the column,
 * -328 when the new name is taken; CHECK texts and the column lists of
 * constraints and indexes follow. */
int ixs_rename_column_run(px *p, const ddl_rename *rn) {
    int64_t tabid, x;
    if (ixs_ddl_q_int(p->db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", rn->tab, &tabid) !=
        1)
        return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", rn->tab);
    if (tabid < 100) return ixs_px_failc(p, IXS_E_CATALOG_RENCOL, NULL);
    char w[128];
    snprintf(w, sizeof w, "SELECT 1 FROM _ixd_columns WHERE tabid = %lld AND colname = ?",
             (long long)tabid);
    if (ixs_ddl_q_int(p->db, w, rn->from, &x) != 1)
        return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", rn->from);
    if (ixs_ddl_q_int(p->db, w, rn->to, &x) == 1)
        return ixs_px_failc(p, IXV_E_COLUMN_EXISTS, "%s", rn->to);
    sb s = {0};
    ixv_sb_add(&s, "ALTER TABLE ");
    ixv_sb_ident(&s, rn->tab);
    ixv_sb_add(&s, " RENAME COLUMN ");
    ixv_sb_ident(&s, rn->from);
    ixv_sb_add(&s, " TO ");
    ixv_sb_ident(&s, rn->to);
    ixv_sb_add(&s, "; UPDATE _ixd_columns SET colname = ");
    ixv_sb_strlit(&s, rn->to, strlen(rn->to));
    ixv_sb_printf(&s, " WHERE tabid = %lld AND colname = ", (long long)tabid);
    ixv_sb_strlit(&s, rn->from, strlen(rn->from));
    /* check texts name the column quoted */
    sb from = {0}, to = {0};
    ixv_sb_ident(&from, rn->from);
    ixv_sb_ident(&to, rn->to);
    ixv_sb_add(&s, "; UPDATE _ixd_constraints SET checktext = replace(checktext, ");
    ixv_sb_strlit(&s, from.p ? from.p : "", from.n);
    ixv_sb_add(&s, ", ");
    ixv_sb_strlit(&s, to.p ? to.p : "", to.n);
    ixv_sb_printf(&s, ") WHERE tabid = %lld;", (long long)tabid);
    if (from.oom || to.oom) s.oom = 1;
    ixv_sb_free(&from);
    ixv_sb_free(&to);
    int rc = s.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL)
                   : rename_exec(p, s.p, rn->tab, (long long)tabid, rn);
    ixv_sb_free(&s);
    return rc;
}

/*
 * CREATE VIEW, after VIEW:
 *   [IF NOT EXISTS] [db:][owner.]name [( column [, ...] )] AS select
 *   [WITH CHECK OPTION]
 * The SELECT is parsed here into a query tree; its names are resolved when
 * the statement runs (ixs_create_view_run).
 */
int ixs_create_view_parse(px *p, ddl_view *v) {
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -1;
        v->ifne = 1;
    }
    ixs_name vo;
    if (ixs_name_parse(p, IXS_NAME_DB | IXS_NAME_NEW, &vo)) return -1;
    snprintf(v->name, sizeof v->name, "%s", vo.name);
    snprintf(v->owner, sizeof v->owner, "%s", ixs_name_owner(&vo, p->db));
    if (ixs_px_acc_op(p, "(")) {
        v->cn = calloc(IXS_VIEW_MAX_COLS, sizeof *v->cn);
        if (!v->cn) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        do {
            if (v->ncn >= IXS_VIEW_MAX_COLS) return ixs_px_fail(p);
            if (ixs_px_newname(p, v->cn[v->ncn], sizeof v->cn[0])) return -1;
            v->ncn++;
        } while (ixs_px_acc_op(p, ","));
        if (ixs_px_expect_op(p, ")")) return -1;
    }
    if (ixs_px_expect(p, IXK_AS)) return -1;
    v->sel = p->i;
    if (!(v->q = ixs_sel_parse(p))) return -1;
    if (ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_expect(p, IXK_CHECK) || ixs_px_expect(p, IXK_OPTION)) return -1;
        v->chk = 1;
    }
    return 0;
}

/* The SELECT of view v into q; a column list of another length than the
 * select list is -201 at the statement's end. */
static int view_select(px *p, const ddl_view *v, qres *q) {
    ixs_px_at(p, v->sel);
    if (ixs_select_emit(p, v->q, q)) return -1;
    int end = v->sel;
    while (end < p->nt && p->t[end].k != T_EOF)
        end++;
    return v->ncn && v->ncn != q->ncols ? ixs_px_fail_at(p, end) : 0;
}

/* The SQLite view of v (when it is not an updatable one) and its catalogue
 * rows (systables, sysviews, syscolumns) into s, as table tabid. */
static void view_sql(px *p, const ddl_view *v, const qres *q, int tabid, int upd, sb *s) {
    if (!upd) {
        ixv_sb_add(s, "CREATE VIEW ");
        ixv_sb_ident(s, v->name);
        ixv_sb_addc(s, '(');
        for (int i = 0; i < q->ncols; i++) {
            if (i) ixv_sb_addc(s, ',');
            ixv_sb_ident(s, v->ncn ? v->cn[i] : q->cols[i].name);
        }
        ixv_sb_printf(s, ") AS %s;", q->sql.p);
    }
    ixv_sb_printf(s, "INSERT INTO _ixd_tables(tabid, tabname, owner, created, tabtype) VALUES(%d,",
                  tabid);
    ixv_sb_strlit(s, v->name, strlen(v->name));
    ixv_sb_addc(s, ',');
    ixv_sb_strlit(s, v->owner, strlen(v->owner));
    ixv_sb_printf(s, ",%d,'V');", ixv_today());
    ixs_cat_view_text(p, tabid, s);
    for (int i = 0; i < q->ncols; i++) {
        const char *cn = v->ncn ? v->cn[i] : q->cols[i].name;
        ixv_sb_printf(
            s, "INSERT INTO _ixd_columns(tabid,colno,colname,coltype,collength) VALUES(%d,%d,",
            tabid, i + 1);
        ixv_sb_strlit(s, cn, strlen(cn));
        ixv_sb_printf(s, ",%d,%u);", q->cols[i].t.code, q->cols[i].t.len);
    }
}

/* Runs CREATE VIEW: the SELECT translated, -310 when the name is taken
 * (nothing with IF NOT EXISTS), the view (updatable ones by ixs_view_plan)
 * and its catalogue rows. */
int ixs_create_view_run(px *p, const ddl_view *v) {
    qres q;
    memset(&q, 0, sizeof q);
    int chk = v->chk, rc = -1;
    sb s = {0};
    if (v->ifne && ixs_table_exists(p->db, v->name)) return 0;
    if (view_select(p, v, &q)) goto out;
    if (ixs_table_exists(p->db, v->name)) {
        ixs_px_failc(p, IXV_E_TABLE_EXISTS, "%s", v->name);
        goto out;
    }
    int64_t maxid;
    ixs_ddl_q_int(p->db, "SELECT max(tabid) FROM _ixd_tables", NULL, &maxid);
    int tabid = maxid < 99 ? 100 : (int)maxid + 1;
    int upd = ixs_view_plan(p, v->name, v->sel, chk, v->ncn ? v->cn : NULL, &q, &s);
    if (upd < 0) goto out;
    view_sql(p, v, &q, tabid, upd, &s);
    if (s.oom) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        goto out;
    }
    if (ixs_ddl_begin(p)) goto out;
    int r = sqlite3_exec(p->db->h, s.p, NULL, NULL, NULL);
    if (r != SQLITE_OK) {
        ixs_sqlite_err(p->db, r, 0, v->name, p->err);
        p->failed = 1;
    }
    rc = ixs_ddl_end(p, r == SQLITE_OK);
out:
    ixs_qres_free(&q);
    ixv_sb_free(&s);
    return rc;
}

/* INSERT INTO temp.name SELECT the columns of q, each as stored into its
 * column of t (ixs_to_store: a value out of the column's range is refused;
 * ROW and collection values are kept as they are). */
static int into_temp_sql(px *p, const tdef *t, const qres *q, sb *s) {
    ixv_sb_add(s, "INSERT INTO temp.");
    ixv_sb_ident(s, t->name);
    ixv_sb_add(s, " SELECT ");
    for (int i = 0; i < q->ncols && !p->failed; i++) {
        xv v;
        ixs_qcol_xv(&q->cols[i], &v);
        ityp ct = t->cols[i].t;
        if (ct.code != IX_T_ROW && !ixs_coll_is(ct.code)) ixs_to_store(p, &v, ct);
        ixv_sb_printf(s, "%s%s", i ? "," : "", ixs_xs(&v));
        ixs_xv_free(&v);
    }
    ixv_sb_printf(s, " FROM (%s) AS _s", q->sql.p);
    return p->failed ? -1 : 0;
}

/* Runs the INSERT ... SELECT sql that fills an INTO TEMP table, its ?N
 * parameters bound to the prepared statement's values: a SQLite result code. */
static int fill_temp(px *p, const char *sql) {
    sqlite3_stmt *st;
    int r = sqlite3_prepare_v2(p->db->h, sql, -1, &st, NULL);
    if (r != SQLITE_OK) return r;
    r = ixs_bind_params(p->bound, st);
    if (r == SQLITE_OK) r = sqlite3_step(st);
    sqlite3_finalize(st);
    return r == SQLITE_DONE ? SQLITE_OK : r;
}

/* SELECT ... INTO TEMP, its tree it: the query resolved and emitted
 * against the catalogue as it is now, the table made and filled. */
int ixs_into_temp_run(px *p, const ddl_into_temp *it, int64_t *rows) {
    qres q;
    memset(&q, 0, sizeof q);
    tdef t;
    memset(&t, 0, sizeof t);
    int rc = -1;
    p->row_top = 1; /* ROW values become text in the table */
    ixs_px_at(p, it->sel);
    if (ixs_select_emit(p, it->q, &q)) goto out;
    snprintf(t.name, sizeof t.name, "%s", it->name);
    if (ixs_table_exists(p->db, t.name)) {
        ixs_px_failc(p, IXV_E_TABLE_EXISTS, "%s", t.name);
        goto out;
    }
    for (int i = 0; i < q.ncols; i++) {
        cdef *c = ixs_tdef_addcol(p, &t);
        if (!c) goto out;
        snprintf(c->name, sizeof c->name, "%s", q.cols[i].name);
        c->t = q.cols[i].t;
        if (c->t.code == IX_T_SERIAL) c->t = ixv_t(IX_T_INTEGER, 4);
        if (c->t.code == IX_T_SERIAL8) c->t = ixv_t(IX_T_INT8, 10);
        if (c->t.code == IX_T_BIGSERIAL) c->t = ixv_t(IX_T_BIGINT, 8);
        c->collen = c->t.len;
    }
    snprintf(t.owner, sizeof t.owner, "%s", p->db->user);
    if (ixs_ddl_begin(p)) goto out;
    int ok = ixs_temp_materialize(p, &t) == 0;
    if (ok) {
        sb s = {0};
        int r = SQLITE_OK;
        if (into_temp_sql(p, &t, &q, &s) == 0) r = s.oom ? SQLITE_NOMEM : fill_temp(p, s.p);
        ixv_sb_free(&s);
        if (p->failed)
            ok = 0;
        else if (r != SQLITE_OK) {
            ixs_sqlite_err(p->db, r, IX_STMTTYPE_SELECT, t.name, p->err);
            p->failed = 1;
            ok = 0;
        } else if (rows)
            *rows = sqlite3_changes64(p->db->h);
    }
    rc = ixs_ddl_end(p, ok);
out:
    ixs_qres_free(&q);
    ixs_tdef_free(&t);
    return rc;
}

/* select INTO TEMP name [WITH NO LOG] at the current token, parsed and run
 * (a statement inside another: ixs_run_sql). */
int ixs_select_into_temp(px *p, int64_t *rows) {
    ddl_into_temp it;
    memset(&it, 0, sizeof it);
    it.sel = p->i;
    p->row_top = 1;
    if (!(it.q = ixs_sel_parse(p))) return -1;
    int rc =
        ixs_px_expect(p, IXK_INTO) || ixs_px_expect(p, IXK_TEMP) ||
                ixs_px_newname(p, it.name, sizeof it.name) ||
                (ixs_px_acc(p, IXK_WITH) && (ixs_px_expect(p, IXK_NO) || ixs_px_expect(p, IXK_LOG)))
            ? -1
            : 0;
    if (!rc) rc = ixs_into_temp_run(p, &it, rows);
    ixs_sel_free(it.q);
    return rc;
}
