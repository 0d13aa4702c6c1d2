/* ixs_ddl.c: statement dispatch (ixs_translate), DDL (CREATE/DROP/ALTER/
 * RENAME), transaction control, SET statements, and the database-level
 * statements of a session (CREATE/DROP DATABASE, DATABASE, CLOSE DATABASE). */
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

#define MAXC IXS_MAX_COLS

void ixs_kdef_free(kdef *k) {
    free(k->cols);
    free(k->checksql);
    free(k->refcols);
    free(k->ifxcheck);
    k->cols = k->checksql = k->refcols = k->ifxcheck = NULL;
}

void ixs_tdef_free(tdef *t) {
    for (int i = 0; i < t->ncols; i++)
        free(t->cols[i].defsql);
    free(t->cols);
    for (int i = 0; i < t->nk; i++)
        ixs_kdef_free(&t->k[i]);
    free(t->k);
    for (int i = 0; i < t->nx; i++)
        free(t->x[i].cols);
    free(t->x);
    memset(t, 0, sizeof *t);
}

cdef *ixs_tdef_addcol(px *p, tdef *t) {
    if (t->ncols >= MAXC) {
        ixs_px_fail(p);
        return NULL;
    }
    cdef *n = realloc(t->cols, sizeof(cdef) * (size_t)(t->ncols + 1));
    if (!n) {
        ixs_px_failc(p, -208, NULL);
        return NULL;
    }
    t->cols = n;
    memset(&n[t->ncols], 0, sizeof(cdef));
    return &n[t->ncols++];
}

kdef *ixs_tdef_addk(px *p, tdef *t) {
    if (t->nk >= MAXC) {
        ixs_px_fail(p);
        return NULL;
    }
    kdef *n = realloc(t->k, sizeof(kdef) * (size_t)(t->nk + 1));
    if (!n) {
        ixs_px_failc(p, -208, NULL);
        return NULL;
    }
    t->k = n;
    memset(&n[t->nk], 0, sizeof(kdef));
    n[t->nk].check_tok = -1;
    return &n[t->nk++];
}

int ixs_tdef_find(const tdef *t, const char *name) {
    for (int i = 0; i < t->ncols; i++)
        if (!strcmp(t->cols[i].name, name)) return i;
    return -1;
}

static int dup_str(px *p, char **dst, const char *src) {
    *dst = NULL;
    if (!src) return 0;
    *dst = strdup(src);
    return *dst ? 0 : ixs_px_failc(p, -208, NULL);
}

int ixs_cdef_copy(px *p, cdef *dst, const cdef *src) {
    *dst = *src;
    return dup_str(p, &dst->defsql, src->defsql);
}

int ixs_kdef_copy(px *p, kdef *dst, const kdef *src) {
    *dst = *src;
    dst->cols = dst->checksql = dst->refcols = dst->ifxcheck = NULL;
    if (dup_str(p, &dst->cols, src->cols) || dup_str(p, &dst->checksql, src->checksql) ||
        dup_str(p, &dst->refcols, src->refcols) || dup_str(p, &dst->ifxcheck, src->ifxcheck)) {
        ixs_kdef_free(dst);
        return -1;
    }
    return 0;
}

/* A deep copy of src (its index list excepted: a new table has none). */
int ixs_tdef_copy(px *p, tdef *dst, const tdef *src) {
    *dst = *src;
    dst->cols = NULL;
    dst->k = NULL;
    dst->x = NULL;
    dst->ncols = dst->nk = dst->nx = 0;
    for (int i = 0; i < src->ncols; i++) {
        cdef *c = ixs_tdef_addcol(p, dst);
        if (!c || ixs_cdef_copy(p, c, &src->cols[i])) return -1;
    }
    for (int i = 0; i < src->nk; i++) {
        kdef *k = ixs_tdef_addk(p, dst);
        if (!k || ixs_kdef_copy(p, k, &src->k[i])) return -1;
    }
    return 0;
}

static int col_list(px *p, const tdef *t, char **out) {
    sb b = {0};
    if (ixs_px_expect_op(p, "(")) return -1;
    do {
        char c[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, c, sizeof c)) {
            ixv_sb_free(&b);
            return -1;
        }
        if (t && !t->defer_cols && ixs_tdef_find(t, c) < 0) {
            ixv_sb_free(&b);
            return ixs_px_failc(p, -217, "%s", c);
        }
        if (b.n) ixv_sb_addc(&b, ',');
        ixv_sb_add(&b, c);
    } while (ixs_px_acc_op(p, ","));
    if (ixs_px_expect_op(p, ")")) {
        ixv_sb_free(&b);
        return -1;
    }
    *out = ixv_sb_take(&b);
    return *out ? 0 : ixs_px_failc(p, -208, NULL);
}

/* [CONSTRAINT [owner.]name] */
static int opt_cname(px *p, kdef *k) {
    if (!ixs_px_acc(p, IXK_CONSTRAINT)) return 0;
    ixs_name o;
    if (ixs_name_parse(p, IXS_NAME_NEW, &o)) return -1;
    snprintf(k->name, sizeof k->name, "%s", o.name);
    snprintf(k->owner, sizeof k->owner, "%s", o.owner);
    return 0;
}

/* REFERENCES [db:][owner.]table [(cols)] [ON DELETE CASCADE], after REFERENCES */
static int references(px *p, kdef *k) {
    if (ixs_px_objname(p, IXS_NAME_DB, k->reftab, sizeof k->reftab)) return -1;
    if (ixs_px_op(p, p->i, "(") && col_list(p, NULL, &k->refcols)) return -1;
    if (ixs_px_acc(p, IXK_ON)) {
        if (ixs_px_expect(p, IXK_DELETE) || ixs_px_expect(p, IXK_CASCADE)) return -1;
        k->cascade = 1;
    }
    return 0;
}

/* The value of DEFAULT, after DEFAULT, as storage SQL into c->defsql:
 *   NULL | TODAY | { CURRENT | SYSDATE } [qualifier] | USER | constant
 * (a constant expression, converted to the column's type). */
static int default_value(px *p, cdef *c) {
    sb d = {0};
    c->deftext[0] = 0;
    if (ixs_px_acc(p, IXK_NULL)) {
        c->deftype = 'N';
        ixv_sb_add(&d, "NULL");
    } else if (ixs_px_acc(p, IXK_TODAY)) {
        c->deftype = 'T';
        ixv_sb_add(&d, "ixd_today()");
    } else if (ixs_px_kw(p, p->i, IXK_CURRENT) || ixs_px_kw(p, p->i, IXK_SYSDATE)) {
        c->deftype = 'C';
        p->i++;
        uint32_t q = c->t.code == IX_T_DATETIME ? c->t.len : ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(3));
        if (ixs_px_is_ident(p, p->i) && !ixs_px_kw(p, p->i, IXK_NOT) &&
            !ixs_px_kw(p, p->i, IXK_NULL) && !ixs_px_kw(p, p->i, IXK_PRIMARY) &&
            !ixs_px_kw(p, p->i, IXK_UNIQUE) && !ixs_px_kw(p, p->i, IXK_CHECK) &&
            !ixs_px_kw(p, p->i, IXK_REFERENCES) && !ixs_px_kw(p, p->i, IXK_CONSTRAINT) &&
            !ixs_px_kw(p, p->i, IXK_DISTINCT)) {
            if (ixs_parse_qual(p, 0, &q)) return -1;
        }
        if (c->t.code == IX_T_DATETIME)
            ixv_sb_printf(&d, "ixd_extend(ixd_current(%u),%d,%u,%u)", q, IX_T_DATETIME, q,
                          c->t.len);
        else
            ixv_sb_printf(&d, "ixd_current(%u)", q);
    } else if (ixs_px_acc(p, IXK_USER)) {
        c->deftype = 'U';
        ixv_sb_strlit(&d, p->db->user, strlen(p->db->user));
    } else {
        xv v;
        int at = p->i;
        if (ixs_expr(p, &v)) {
            ixs_xv_free(&v);
            return -1;
        }
        if (v.k != XK_STR && v.k != XK_NUM && v.k != XK_INT && v.k != XK_EXPR) {
            ixs_xv_free(&v);
            p->i = at;
            return ixs_px_fail(p);
        }
        if (v.k == XK_EXPR && v.lk != LB_CONST) {
            ixs_xv_free(&v);
            p->i = at;
            return ixs_px_fail(p);
        }
        c->deftype = 'L';
        if (v.k == XK_STR) /* the value of a string, the text of others */
            snprintf(c->deftext, sizeof c->deftext, "%.*s", (int)v.litn, v.lit ? v.lit : "");
        else
            snprintf(c->deftext, sizeof c->deftext, "%.*s",
                     p->t[p->i - 1].pos + p->t[p->i - 1].len - p->t[at].pos, p->sql + p->t[at].pos);
        ixs_to_type(p, &v, c->t);
        if (p->failed) {
            ixs_xv_free(&v);
            return -1;
        }
        ixv_sb_add(&d, v.s.p ? v.s.p : "NULL");
        ixs_xv_free(&v);
    }
    free(c->defsql);
    c->defsql = ixv_sb_take(&d);
    return c->defsql ? 0 : ixs_px_failc(p, -208, NULL);
}

/* The condition of CHECK ( cond ), after CHECK: its first token into k (it
 * is translated once the columns are known). */
static int check_clause(px *p, kdef *k) {
    k->type = KDEF_CHECK;
    if (ixs_px_expect_op(p, "(")) return -1;
    k->check_tok = p->i;
    int depth = 1;
    while (p->i < p->nt && p->t[p->i].k != T_EOF && depth) {
        if (ixs_px_op(p, p->i, "(")) depth++;
        if (ixs_px_op(p, p->i, ")")) depth--;
        p->i++;
    }
    return depth ? ixs_px_fail(p) : 0;
}

/* The text of k's CHECK condition as written, from its first token to the
 * ')' at p->i, kept as "(cond)" for syschecks. */
static int check_text(px *p, kdef *k) {
    int a = p->t[k->check_tok].pos, b = p->t[p->i].pos;
    while (b > a && (p->sql[b - 1] == ' ' || p->sql[b - 1] == '\n' || p->sql[b - 1] == '\t'))
        b--;
    free(k->ifxcheck);
    k->ifxcheck = malloc((size_t)(b - a) + 3);
    if (!k->ifxcheck) return ixs_px_failc(p, -208, NULL);
    snprintf(k->ifxcheck, (size_t)(b - a) + 3, "(%.*s)", b - a, p->sql + a);
    return 0;
}

/* A constraint of column ci of t, at its keyword:
 *   { PRIMARY KEY | UNIQUE | DISTINCT | CHECK ( cond ) | REFERENCES ... }
 *   [CONSTRAINT [owner.]name] */
static int column_constraint(px *p, tdef *t, int ci) {
    int pk = ixs_px_kw(p, p->i, IXK_PRIMARY), chk = ixs_px_kw(p, p->i, IXK_CHECK);
    int ref = ixs_px_kw(p, p->i, IXK_REFERENCES);
    p->i++;
    if (pk && ixs_px_expect(p, IXK_KEY)) return -1;
    kdef *k = ixs_tdef_addk(p, t);
    if (!k) return -1;
    cdef *c = &t->cols[ci];
    if (chk) return check_clause(p, k) || opt_cname(p, k) ? -1 : 0;
    k->type = pk ? KDEF_PRIMARY : ref ? KDEF_REFERENCES : KDEF_UNIQUE;
    k->cols = strdup(c->name);
    if (!k->cols) return ixs_px_failc(p, -208, NULL);
    if (pk) c->notnull = 1;
    if (ref && references(p, k)) return -1;
    return opt_cname(p, k);
}

/* TIMESERIES ( row_type ): 1 with the row type's name in c (it must exist
 * when the statement runs: ixs_ts_rowtypes), 0 not that type, -1 error. */
static int ts_coltype(px *p, cdef *c) {
    if (!ixs_px_kw(p, p->i, IXK_TIMESERIES)) return 0;
    p->i++;
    if (ixs_px_expect_op(p, "(") || ixs_px_ident(p, c->tsrow, sizeof c->tsrow) ||
        ixs_px_expect_op(p, ")"))
        return -1;
    /* the column shows the series header (docs/timeseries.md) */
    c->t = ixv_t(IX_T_LVARCHAR, 2048);
    c->collen = 2048;
    return 1;
}

int ixs_ts_rowtypes(px *p, const tdef *t) {
    for (int i = 0; i < t->ncols; i++) {
        ts_rowtype rt;
        if (!t->cols[i].tsrow[0]) continue;
        if (ixts_rowtype_load(p->db->h, t->cols[i].tsrow, &rt) <= 0)
            return ixs_px_failc(p, IXS_E_TS_ROWTYPE, "Row type %s does not exist",
                                t->cols[i].tsrow);
        if (ixts_rowtype_check(&rt, p->err)) { /* a TimeSeries row type */
            p->failed = 1;
            return -1;
        }
    }
    return 0;
}

int ixs_tdef_row_types(px *p, tdef *t) {
    for (int i = 0; i < t->ncols; i++) {
        cdef *c = &t->cols[i];
        if (!c->rowtype_tok) continue;
        int serial, save = p->i;
        int64_t start;
        p->i = c->rowtype_tok;
        int rc = ixs_parse_type(p, &c->t, &serial, &start, &c->collen);
        p->i = save;
        if (rc) return -1;
    }
    return 0;
}

/*
 * A column of CREATE TABLE / ALTER TABLE ADD (modify: MODIFY) into c, a
 * column of t (its constraints go to t):
 *   name type [DEFAULT value] [NOT NULL [CONSTRAINT name]] [NULL]
 *        [column_constraint ...]
 * A name t already has is -328 (not for MODIFY).
 */
int ixs_column_def(px *p, tdef *t, cdef *c, int modify) {
    if (ixs_px_newname(p, c->name, sizeof c->name)) return -1;
    for (int i = 0; i < t->ncols; i++)
        if (!modify && &t->cols[i] != c && !strcmp(t->cols[i].name, c->name))
            return ixs_px_failc(p, -328, "%s", c->name);
    int ts = ts_coltype(p, c);
    if (ts < 0) return -1;
    int deferred = p->dry_deferred, at = p->i;
    p->dry_deferred = 0;
    if (!ts && ixs_parse_type(p, &c->t, &c->serial, &c->start, &c->collen)) return -1;
    if (p->dry_deferred) c->rowtype_tok = at; /* looked up when the statement runs */
    p->dry_deferred = deferred;
    if (c->serial) c->notnull = 1;
    int ci = (int)(c - t->cols);
    for (;;) {
        if (ixs_px_acc(p, IXK_DEFAULT)) {
            if (default_value(p, c)) return -1;
        } else if (ixs_px_acc(p, IXK_NOT)) {
            if (ixs_px_expect(p, IXK_NULL)) return -1;
            c->notnull = 1;
            kdef tmp;
            memset(&tmp, 0, sizeof tmp);
            if (opt_cname(p, &tmp)) return -1;
        } else if (ixs_px_acc(p, IXK_NULL)) {
        } else if (ixs_px_kw(p, p->i, IXK_PRIMARY) || ixs_px_kw(p, p->i, IXK_UNIQUE) ||
                   ixs_px_kw(p, p->i, IXK_DISTINCT) || ixs_px_kw(p, p->i, IXK_CHECK) ||
                   ixs_px_kw(p, p->i, IXK_REFERENCES)) {
            if (column_constraint(p, t, ci)) return -1;
            c = &t->cols[ci];
        } else
            return 0;
    }
}

/*
 * A table constraint of CREATE TABLE / ALTER TABLE ADD CONSTRAINT into t:
 *   [CONSTRAINT [owner.]name] { PRIMARY KEY ( cols ) | { UNIQUE | DISTINCT }
 *   ( cols ) | CHECK ( cond ) | FOREIGN KEY ( cols ) REFERENCES table
 *   [( cols )] [ON DELETE CASCADE] } [CONSTRAINT [owner.]name]
 * The columns must be t's (-217), unless t->defer_cols.
 */
int ixs_table_constraint(px *p, tdef *t) {
    ixs_name pre;
    memset(&pre, 0, sizeof pre);
    if (ixs_px_acc(p, IXK_CONSTRAINT) && ixs_name_parse(p, IXS_NAME_NEW, &pre)) return -1;
    kdef *k = ixs_tdef_addk(p, t);
    if (!k) return -1;
    if (ixs_px_acc(p, IXK_PRIMARY)) {
        if (ixs_px_expect(p, IXK_KEY) || col_list(p, t, &k->cols)) return -1;
        k->type = 'P';
        char *s = k->cols;
        /* primary key columns are NOT NULL */
        char buf[IXS_NAME_MAX + 1];
        while (s && *s) {
            size_t l = strcspn(s, ",");
            snprintf(buf, sizeof buf, "%.*s", (int)l, s);
            int ci = ixs_tdef_find(t, buf);
            if (ci >= 0) t->cols[ci].notnull = 1;
            s += l;
            if (*s) s++;
        }
    } else if (ixs_px_acc(p, IXK_UNIQUE) || ixs_px_acc(p, IXK_DISTINCT)) {
        if (col_list(p, t, &k->cols)) return -1;
        k->type = 'U';
    } else if (ixs_px_acc(p, IXK_CHECK)) {
        if (check_clause(p, k)) return -1;
    } else if (ixs_px_acc(p, IXK_FOREIGN)) {
        if (ixs_px_expect(p, IXK_KEY) || col_list(p, t, &k->cols) ||
            ixs_px_expect(p, IXK_REFERENCES) || references(p, k))
            return -1;
        k->type = 'R';
    } else {
        return ixs_px_fail(p);
    }
    if (pre.name[0]) {
        snprintf(k->name, sizeof k->name, "%s", pre.name);
        snprintf(k->owner, sizeof k->owner, "%s", pre.owner);
    }
    return opt_cname(p, k);
}

/* Translates the pending CHECK conditions with the table's columns. */
int ixs_translate_checks(px *p, tdef *t) {
    tref tr;
    memset(&tr, 0, sizeof tr);
    tr.tab.ncols = t->ncols;
    tr.tab.cols = calloc((size_t)(t->ncols ? t->ncols : 1), sizeof(icol));
    if (!tr.tab.cols) return ixs_px_failc(p, -208, NULL);
    for (int i = 0; i < t->ncols; i++) {
        snprintf(tr.tab.cols[i].name, sizeof tr.tab.cols[i].name, "%s", t->cols[i].name);
        tr.tab.cols[i].t = t->cols[i].t;
        tr.tab.cols[i].colno = i + 1;
    }
    snprintf(tr.tab.name, sizeof tr.tab.name, "%s", t->name);
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = &tr;
    sc.n = 1;
    scope *save = p->sc;
    int save_i = p->i, rc = 0;
    p->sc = &sc;
    for (int i = 0; i < t->nk && !rc; i++) {
        kdef *k = &t->k[i];
        if (k->type != 'C' || k->check_tok < 0) continue;
        p->i = k->check_tok;
        xv c;
        rc = ixs_cond(p, &c);
        if (!rc && !ixs_px_op(p, p->i, ")")) rc = ixs_px_fail(p);
        if (!rc) rc = check_text(p, k);
        if (!rc) {
            k->checksql = c.s.p;
            memset(&c.s, 0, sizeof c.s);
            k->check_tok = -1;
        }
        ixs_xv_free(&c);
    }
    p->sc = save;
    p->i = save_i;
    free(tr.tab.cols);
    return rc;
}

/* ---- catalog I/O -------------------------------------------------------------------- */

static int q_int(ixd_db *db, const char *sql, const char *arg, int64_t *out) {
    sqlite3_stmt *st;
    *out = 0;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static void add_cols_sql(sb *s, const char *cols, const int *parts);
static void key_indexes_sql(sb *s, const tdef *t, const char *schema);

static int table_exists(ixd_db *db, const char *name) {
    int64_t v;
    if (ixd_internal_name(name)) return 0;
    if (q_int(db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", name, &v) == 1) return 1;
    if (q_int(db, "SELECT 1 FROM sqlite_master WHERE lower(name) = ?", name, &v) == 1) return 1;
    if (db->has_temp && q_int(db, "SELECT 1 FROM _ixd_ttables WHERE tabname = ?", name, &v) == 1)
        return 2;
    return 0;
}

int ixs_ddl_q_int(ixd_db *db, const char *sql, const char *arg, int64_t *out) {
    return q_int(db, sql, arg, out);
}

int ixs_table_exists(ixd_db *db, const char *name) {
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
        if (k->type == KDEF_REFERENCES) return ixs_px_failc(p, -999, "REFERENCES in a TEMP table");
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
static int temp_materialize(px *p, tdef *t) {
    ixd_db *db = p->db;
    if (ixd_temp_catalog(db, p->err)) {
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
        return ixs_px_failc(p, -208, NULL);
    }
    int r = sqlite3_exec(db->h, s.p, NULL, NULL, NULL);
    ixv_sb_free(&s);
    if (r != SQLITE_OK) {
        ixd_sqlite_err(db, r, 0, t->name, p->err);
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
        return ixs_px_failc(p, -999, "catalog");
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
    if (isview) return ixs_px_failc(p, -999, "%s is not a table", name);
    load_columns(p, t);
    load_constraints(p, t);
    load_indexes(p, t);
    return p->failed ? -1 : 1;
}

static void add_cols_sql(sb *s, const char *cols, const int *parts) {
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
        add_cols_sql(s, k->cols, NULL);
        ixv_sb_add(s, ");");
    }
}

static int colno_of(const tdef *t, const char *cols, int *parts) {
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
            return ixs_px_failc(p, -206, "%s", k->reftab);
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
    return k->refcols ? 0 : ixs_px_failc(p, -999, "no primary key in %s", k->reftab);
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
        add_cols_sql(s, k->cols, NULL);
        ixv_sb_add(s, ") REFERENCES ");
        ixv_sb_ident(s, k->reftab);
        ixv_sb_addc(s, '(');
        add_cols_sql(s, k->refcols, NULL);
        ixv_sb_addc(s, ')');
        if (k->cascade) ixv_sb_add(s, " ON DELETE CASCADE");
    }
    ixv_sb_add(s, ");");
    return rowsize;
}

/* ALTER's rebuild: the kept columns copied (converted where their type
 * changed) from the old table (its columns renamed _ixd_old<n>), which is
 * then dropped and replaced by _ixd_new. */
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
        if (c->oldt.code == c->t.code && c->oldt.len == c->t.len)
            ixv_sb_printf(s, "\"_ixd_old%d\"", c->oldno);
        else
            ixv_sb_printf(s, "ixd_cvt(\"_ixd_old%d\",%d,%u,%d,%u)", c->oldno, c->oldt.code,
                          c->oldt.len, c->t.code, c->t.len);
    }
    ixv_sb_add(s, " FROM ");
    ixv_sb_ident(s, t->name);
    ixv_sb_add(s, ";DROP TABLE ");
    ixv_sb_ident(s, t->name);
    ixv_sb_add(s, ";ALTER TABLE \"_ixd_new\" RENAME TO ");
    ixv_sb_ident(s, t->name);
    ixv_sb_add(s, ";");
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
        add_cols_sql(s, x->cols, x->parts);
        ixv_sb_add(s, ");");
    }
}

/* The _ixd_tables row of t and its _ixd_columns rows (the SERIAL counters
 * start at the columns' start values; a rebuild keeps those reached). */
static void table_cat_sql(sb *s, const tdef *t, int rebuild, uint32_t rowsize, sqlite3 *h) {
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
    if (!rebuild) ixs_priv_new_table_sql(s, t->tabid, t->owner, h);
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
static void index_row_sql(sb *s, const char *name, const char *owner, int tabid, char type,
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
    if (colno_of(t, k->cols, parts)) return ixs_px_failc(p, -217, "%s", k->cols);
    index_row_sql(s, isidx ? k->name : fkidx, kown, t->tabid, isidx ? 'U' : 'D', 1, k->cols, parts);
    return 0;
}

/* The catalogue rows of t: table, columns, constraints, indexes (those of
 * the table before are replaced). */
static int catalog_sql(px *p, sb *s, tdef *t, int rebuild, uint32_t rowsize) {
    ixv_sb_printf(s, "DELETE FROM _ixd_columns WHERE tabid = %d;", t->tabid);
    ixv_sb_printf(s, "DELETE FROM _ixd_constraints WHERE tabid = %d;", t->tabid);
    ixv_sb_printf(s, "DELETE FROM _ixd_indexes WHERE tabid = %d;", t->tabid);
    table_cat_sql(s, t, rebuild, rowsize, p->db->h);
    for (int i = 0; i < t->nk; i++)
        if (constraint_cat_sql(p, s, t, &t->k[i])) return -1;
    for (int i = 0; i < t->nx; i++) {
        xdef *x = &t->x[i];
        if (colno_of(t, x->cols, x->parts)) return ixs_px_failc(p, -217, "%s", x->cols);
        const char *xown = x->owner[0] ? x->owner : t->owner;
        index_row_sql(s, x->name, xown, t->tabid, x->uniq ? 'U' : 'D', 0, x->cols, x->parts);
    }
    return 0;
}

/* Writes t into SQLite and the catalog. rebuild: copy rows from the existing
 * table of the same name (ALTER). A duplicate key of a new unique index is
 * -371. */
int ixs_materialize(px *p, tdef *t, int rebuild) {
    ixd_db *db = p->db;
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
        return ixs_px_failc(p, -208, NULL);
    }
    int rc = sqlite3_exec(db->h, s.p, NULL, NULL, NULL);
    ixv_sb_free(&s);
    if (rc != SQLITE_OK) {
        ixd_sqlite_err(db, rc, 0, t->name, p->err);
        if (p->err->sqlcode == -239 || p->err->sqlcode == -268) p->err->sqlcode = -371;
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
    if ((p->ddl_own && ixd_exec(p->db, "BEGIN IMMEDIATE", p->err)) ||
        ixd_exec(p->db, "SAVEPOINT " IXS_INTERNAL_PREFIX "ddl", p->err)) {
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
        ixd_sqlite_err(p->db, r, 0, name, p->err);
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

int ixs_ddl_exec_sb(px *p, sb *s, const char *name) {
    int rc = s->oom ? ixs_px_failc(p, -208, NULL) : ixs_ddl_exec_sql(p, s->p, name);
    ixv_sb_free(s);
    return rc;
}

/* After a DDL rolled back: the session's temp catalogue is made again at
 * its next use if the rollback took it away (it was made inside the DDL,
 * as by a first SELECT ... INTO TEMP that failed). */
static void temp_catalog_recheck(ixd_db *db) {
    int64_t v;
    if (db->has_temp &&
        q_int(db, "SELECT 1 FROM temp.sqlite_master WHERE name = '_ixd_ttables'", NULL, &v) != 1)
        db->has_temp = 0;
}

int ixs_ddl_end(px *p, int ok) {
    if (ok) {
        if (ixd_exec(p->db, "RELEASE " IXS_INTERNAL_PREFIX "ddl", p->err) == 0 &&
            (!p->ddl_own || ixd_exec(p->db, "COMMIT", p->err) == 0))
            return 0;
        p->failed = 1;
    }
    if (!sqlite3_get_autocommit(p->db->h))
        sqlite3_exec(p->db->h,
                     p->ddl_own ? "ROLLBACK"
                                : "ROLLBACK TO " IXS_INTERNAL_PREFIX
                                  "ddl; RELEASE " IXS_INTERNAL_PREFIX "ddl",
                     NULL, NULL, NULL);
    temp_catalog_recheck(p->db);
    return -1;
}

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
        if (temp) return ixs_px_failc(p, -746, "A temporary table cannot have a TIMESERIES column");
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
        return ct->ifne ? 0 : ixs_px_failc(p, -310, "%s", ct->t.name);
    tdef t;
    int rc = -1;
    if (ixs_tdef_copy(p, &t, &ct->t) == 0 && ixs_ddl_begin(p) == 0) {
        t.created = ixd_today();
        int ok = (ct->temp ? temp_materialize(p, &t) : ixs_materialize(p, &t, 0)) == 0;
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
    if (!ci->cols) return ixs_px_failc(p, -208, NULL);
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
    add_cols_sql(s, ci->cols, parts);
    ixv_sb_add(s, ");");
    index_row_sql(s, ci->name, ci->owner, tabid, ci->uniq ? 'U' : 'D', 0, ci->cols, parts);
}

/* Runs sql in the statement's DDL savepoint; a duplicate key is -371 with
 * ISAM -100 and the index name. */
static int index_exec(px *p, const char *sql, const char *tab, const char *name) {
    if (ixs_ddl_begin(p)) return -1;
    int r = sqlite3_exec(p->db->h, sql, NULL, NULL, NULL);
    if (r != SQLITE_OK) {
        ixd_sqlite_err(p->db, r, 0, tab, p->err);
        if (p->err->sqlcode == -239 || p->err->sqlcode == -268) {
            p->err->sqlcode = -371;
            p->err->isamcode = -100;
            snprintf(p->err->text, sizeof p->err->text, "%s", name);
        }
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

/* Runs CREATE INDEX: -316 when the name is taken, -206 without the table,
 * -217 for a column it does not have. */
int ixs_create_index_run(px *p, const ddl_create_index *ci) {
    int64_t v;
    if (q_int(p->db, "SELECT 1 FROM _ixd_indexes WHERE idxname = ?", ci->name, &v) == 1 ||
        q_int(p->db, "SELECT 1 FROM sqlite_master WHERE lower(name) = ?", ci->name, &v) == 1)
        return ci->ifne ? 0 : ixs_px_failc(p, -316, "%s", ci->name);
    tdef t;
    int rc = -1, lr = ixs_tdef_load(p, ci->tab, &t);
    int parts[16];
    memcpy(parts, ci->parts, sizeof parts);
    if (lr == 0)
        ixs_px_failc(p, -206, "%s", ci->tab);
    else if (lr > 0 && colno_of(&t, ci->cols, parts)) {
        char bad[IXS_NAME_MAX + 1];
        first_missing(&t, ci->cols, bad, sizeof bad);
        ixs_px_failc(p, -217, "%s", bad);
    } else if (lr > 0) {
        sb s = {0};
        index_sql(&s, ci, t.tabid, parts);
        rc = s.oom ? ixs_px_failc(p, -208, NULL) : index_exec(p, s.p, ci->tab, ci->name);
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
        return ixs_px_failc(p, -999, "catalog");
    sqlite3_bind_int(st, 1, tabid);
    sb s = {0};
    while (sqlite3_step(st) == SQLITE_ROW) {
        ixv_sb_add(&s, "alter table \"");
        ixv_sb_add(&s, (const char *)sqlite3_column_text(st, 0));
        ixv_sb_add(&s, "\" drop constraint \"");
        ixv_sb_add(&s, (const char *)sqlite3_column_text(st, 1));
        ixv_sb_addc(&s, '"');
        ixv_sb_addc(&s, 0);
    }
    sqlite3_finalize(st);
    if (s.oom) {
        ixv_sb_free(&s);
        return ixs_px_failc(p, -208, NULL);
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
            return ixs_px_failc(p, -999, "DROP DATABASE needs a session");
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
    if (q_int(p->db, "SELECT is_constraint FROM _ixd_indexes WHERE idxname = ?", dr->name, &isc) !=
        1)
        return dr->ife ? 1 : ixs_px_failc(p, -319, "%s", dr->name);
    if (isc) return ixs_px_failc(p, -999, "index %s belongs to a constraint", dr->name);
    ixv_sb_add(s, "DROP INDEX ");
    ixv_sb_ident(s, dr->name);
    ixv_sb_add(s, "; DELETE FROM _ixd_indexes WHERE idxname = ");
    ixv_sb_strlit(s, dr->name, strlen(dr->name));
    return 0;
}

static void drop_temp_sql(px *p, const char *name, sb *s) {
    int64_t tid;
    q_int(p->db, "SELECT tabid FROM _ixd_ttables WHERE tabname = ?", name, &tid);
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
    ixd_db *db = p->db;
    char tt[8] = "";
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db->h, "SELECT tabid, tabtype FROM _ixd_tables WHERE tabname = ?", -1, &st,
                       NULL);
    sqlite3_bind_text(st, 1, dr->name, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    long long tabid = found ? sqlite3_column_int64(st, 0) : 0;
    if (found) snprintf(tt, sizeof tt, "%s", (const char *)sqlite3_column_text(st, 1));
    sqlite3_finalize(st);
    if (!found) return dr->ife ? 1 : ixs_px_failc(p, -206, "%s", dr->name);
    if (tabid < 100) return ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", dr->name);
    if ((dr->what == DROP_VIEW) != (tt[0] == 'V')) return ixs_px_failc(p, -206, "%s", dr->name);
    int64_t refs;
    q_int(db,
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
        return r > 0 ? 0 : r < 0 || p->failed ? -1 : ixs_px_failc(p, -208, NULL);
    }
    if (dr->what == DROP_TABLE && ixs_lob_drop_table(p, dr->name)) { /* its LOs are let go */
        ixv_sb_free(&s);
        return ixs_ddl_end(p, 0);
    }
    r = sqlite3_exec(p->db->h, s.p, NULL, NULL, NULL);
    ixv_sb_free(&s);
    if (r != SQLITE_OK) {
        ixd_sqlite_err(p->db, r, 0, dr->name, p->err);
        p->failed = 1;
    } else if (dr->what == DROP_TABLE && ixts_table_dropped(p->db->h, dr->name, p->err)) {
        r = SQLITE_ERROR; /* its series go with it */
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

static void replace_in_list(ixd_db *db, const char *table, const char *col, const char *keycol,
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
        ixd_sqlite_err(p->db, r, 0, tab, p->err);
        p->failed = 1;
    }
    return ixs_ddl_end(p, r == SQLITE_OK);
}

/* Runs RENAME TABLE: -206 without the table, -310 when the new name is taken. */
int ixs_rename_table_run(px *p, const ddl_rename *rn) {
    int64_t tabid;
    if (q_int(p->db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", rn->tab, &tabid) != 1)
        return ixs_px_failc(p, -206, "%s", rn->tab);
    if (tabid < 100) return ixs_px_failc(p, IXS_E_CATALOG_RENAME, NULL);
    if (table_exists(p->db, rn->to)) return ixs_px_failc(p, -310, "%s", rn->to);
    sb s = {0};
    ixv_sb_add(&s, "ALTER TABLE ");
    ixv_sb_ident(&s, rn->tab);
    ixv_sb_add(&s, " RENAME TO ");
    ixv_sb_ident(&s, rn->to);
    ixv_sb_add(&s, "; UPDATE _ixd_tables SET tabname = ");
    ixv_sb_strlit(&s, rn->to, strlen(rn->to));
    ixv_sb_printf(&s, " WHERE tabid = %lld;", (long long)tabid);
    int rc = s.oom ? ixs_px_failc(p, -208, NULL) : rename_exec(p, s.p, rn->tab, 0, rn);
    ixv_sb_free(&s);
    return rc;
}

/* Runs RENAME COLUMN: -206 without the table, -217 without the column,
 * -328 when the new name is taken; CHECK texts and the column lists of
 * constraints and indexes follow. */
int ixs_rename_column_run(px *p, const ddl_rename *rn) {
    int64_t tabid, x;
    if (q_int(p->db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", rn->tab, &tabid) != 1)
        return ixs_px_failc(p, -206, "%s", rn->tab);
    if (tabid < 100) return ixs_px_failc(p, IXS_E_CATALOG_RENCOL, NULL);
    char w[128];
    snprintf(w, sizeof w, "SELECT 1 FROM _ixd_columns WHERE tabid = %lld AND colname = ?",
             (long long)tabid);
    if (q_int(p->db, w, rn->from, &x) != 1) return ixs_px_failc(p, -217, "%s", rn->from);
    if (q_int(p->db, w, rn->to, &x) == 1) return ixs_px_failc(p, -328, "%s", rn->to);
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
    ixv_sb_printf(&s,
                  "; UPDATE _ixd_constraints SET checktext = replace(checktext, '\"%s\"', "
                  "'\"%s\"') WHERE tabid = %lld;",
                  rn->from, rn->to, (long long)tabid);
    int rc =
        s.oom ? ixs_px_failc(p, -208, NULL) : rename_exec(p, s.p, rn->tab, (long long)tabid, rn);
    ixv_sb_free(&s);
    return rc;
}

/*
 * CREATE VIEW, after VIEW:
 *   [db:][owner.]name [( column [, ...] )] AS select [WITH CHECK OPTION]
 * The SELECT is parsed here into a query tree; its names are resolved when
 * the statement runs (ixs_create_view_run).
 */
int ixs_create_view_parse(px *p, ddl_view *v) {
    ixs_name vo;
    if (ixs_name_parse(p, IXS_NAME_DB | IXS_NAME_NEW, &vo)) return -1;
    snprintf(v->name, sizeof v->name, "%s", vo.name);
    snprintf(v->owner, sizeof v->owner, "%s", ixs_name_owner(&vo, p->db));
    if (ixs_px_acc_op(p, "(")) {
        v->cn = calloc(IXS_VIEW_MAX_COLS, sizeof *v->cn);
        if (!v->cn) return ixs_px_failc(p, -208, NULL);
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

/* The SELECT of view v into q (p->i then at the statement's end, where
 * ixs_cat_view_text ends its text); a column list of another length than
 * the select list is -201. */
static int view_select(px *p, const ddl_view *v, qres *q) {
    p->i = v->sel;
    if (ixs_select_emit(p, v->q, q)) return -1;
    while (p->i < p->nt && p->t[p->i].k != T_EOF)
        p->i++;
    return v->ncn && v->ncn != q->ncols ? ixs_px_fail(p) : 0;
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
    ixv_sb_printf(s, ",%d,'V');", ixd_today());
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

/* Runs CREATE VIEW: the SELECT translated, -310 when the name is taken, the
 * view (updatable ones by ixs_view_plan) and its catalogue rows. */
int ixs_create_view_run(px *p, const ddl_view *v) {
    qres q;
    memset(&q, 0, sizeof q);
    int chk = v->chk, rc = -1;
    sb s = {0};
    if (view_select(p, v, &q)) goto out;
    if (table_exists(p->db, v->name)) {
        ixs_px_failc(p, -310, "%s", v->name);
        goto out;
    }
    int64_t maxid;
    q_int(p->db, "SELECT max(tabid) FROM _ixd_tables", NULL, &maxid);
    int tabid = maxid < 99 ? 100 : (int)maxid + 1;
    int upd = ixs_view_plan(p, v->name, v->sel, chk, v->ncn ? v->cn : NULL, &q, &s);
    if (upd < 0) goto out;
    view_sql(p, v, &q, tabid, upd, &s);
    if (s.oom) {
        ixs_px_failc(p, -208, NULL);
        goto out;
    }
    if (ixs_ddl_begin(p)) goto out;
    int r = sqlite3_exec(p->db->h, s.p, NULL, NULL, NULL);
    if (r != SQLITE_OK) {
        ixd_sqlite_err(p->db, r, 0, v->name, p->err);
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

/* SELECT ... INTO TEMP, its tree it: the query resolved and emitted
 * against the catalogue as it is now, the table made and filled. */
int ixs_into_temp_run(px *p, const ddl_into_temp *it, int64_t *rows) {
    qres q;
    memset(&q, 0, sizeof q);
    tdef t;
    memset(&t, 0, sizeof t);
    int rc = -1;
    p->row_top = 1; /* ROW values become text in the table */
    p->i = it->sel;
    if (ixs_select_emit(p, it->q, &q)) goto out;
    snprintf(t.name, sizeof t.name, "%s", it->name);
    if (table_exists(p->db, t.name)) {
        ixs_px_failc(p, -310, "%s", t.name);
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
    int ok = temp_materialize(p, &t) == 0;
    if (ok) {
        sb s = {0};
        int r = SQLITE_OK;
        if (into_temp_sql(p, &t, &q, &s) == 0)
            r = s.oom ? SQLITE_NOMEM : sqlite3_exec(p->db->h, s.p, NULL, NULL, NULL);
        ixv_sb_free(&s);
        if (p->failed)
            ok = 0;
        else if (r != SQLITE_OK) {
            ixd_sqlite_err(p->db, r, IX_STMTTYPE_SELECT, t.name, p->err);
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
    int end = p->i;
    if (!rc) rc = ixs_into_temp_run(p, &it, rows);
    p->i = end;
    ixs_sel_free(it.q);
    return rc;
}

int ixs_at_end(px *p) {
    ixs_px_acc_op(p, ";");
    if (p->i < p->nt && p->t[p->i].k != T_EOF) return ixs_px_fail(p);
    return 0;
}

int ixs_px_init(px *p, ixd_db *db, const char *sql, size_t n, ixd_err *err) {
    memset(p, 0, sizeof *p);
    p->db = db;
    p->sql = sql;
    p->n = n;
    p->err = err;
    memset(err, 0, sizeof *err);
    for (size_t i = 0; i < n; i++)
        if (sql[i] == 0) return ixd_seterr(err, -201, 0, (int)i, NULL);
    if (ixs_lex(p)) return -1;
    int np = 0;
    for (int i = 0; i < p->nt; i++)
        if (p->t[i].k == T_PARAM) np++;
    p->ptypes = calloc((size_t)(np ? np : 1), sizeof(ityp));
    if (!p->ptypes) return ixd_seterr(err, -208, 0, 0, NULL);
    for (int i = 0; i < np; i++)
        p->ptypes[i].code = -1;
    p->nparams = np;
    return 0;
}

void ixs_px_done(px *p) {
    free(p->t);
    free(p->ptypes);
    p->t = NULL;
    p->ptypes = NULL;
}

/* What follows a statement's SELECT: INTO TEMP and the table's name. */
typedef struct into_tail {
    int into; /* INTO TEMP is there */
    char name[IXS_NAME_MAX + 1];
} into_tail;

/* [ INTO TEMP name [ WITH NO LOG ] ] and the end, after a statement's
 * SELECT, into the into_tail ud. */
static int into_temp_tail(px *p, void *ud) {
    into_tail *it = ud;
    if (ixs_px_acc(p, IXK_INTO)) {
        it->into = 1;
        if (ixs_px_expect(p, IXK_TEMP) || ixs_px_newname(p, it->name, sizeof it->name)) return -1;
        if (ixs_px_acc(p, IXK_WITH) && (ixs_px_expect(p, IXK_NO) || ixs_px_expect(p, IXK_LOG)))
            return -1;
        if (p->nparams) return ixs_px_failc(p, -999, "parameters in SELECT INTO TEMP");
    }
    return ixs_at_end(p);
}

/* SELECT ... INTO TEMP prepared: its query tree q (then s's) kept as s's
 * DDL_INTO_TEMP tree. */
static int into_temp_prepare(px *p, ixd_stmt *s, ixs_sel *q, const char *name) {
    ixs_ddl *d = calloc(1, sizeof *d);
    if (!d) {
        ixs_sel_free(q);
        return ixd_seterr(p->err, -208, 0, 0, NULL);
    }
    d->kind = DDL_INTO_TEMP;
    d->stype = IX_STMTTYPE_SELECT_INTO_TEMP;
    d->u.it.q = q;
    d->u.it.sel = 0;
    snprintf(d->u.it.name, sizeof d->u.it.name, "%s", name);
    return ixs_ddl_keep(p, s, d);
}

static int at_end_tail(px *p, void *ud) {
    (void)ud;
    return ixs_at_end(p);
}

static int translate1(ixd_db *db, ixd_stmt *s, const char *sql, size_t n, ixd_err *err) {
    px p;
    if (ixs_px_init(&p, db, sql, n, err)) {
        ixs_px_done(&p);
        return -1;
    }
    int rc;
    if (ixs_px_kw(&p, 0, IXK_SELECT) || (ixs_px_op(&p, 0, "(") && ixs_px_kw(&p, 1, IXK_SELECT))) {
        qres q;
        memset(&q, 0, sizeof q);
        s->kind = SK_SELECT;
        s->stype = IX_STMTTYPE_SELECT;
        p.row_top = 1; /* its ROW values are sent as text */
        p.rowid_want = ixs_cursor_wanted(&p);
        into_tail it;
        memset(&it, 0, sizeof it);
        ixs_sel *keep = NULL;
        rc = ixs_select_keep(&p, &q, into_temp_tail, &it, &keep);
        if (!rc && it.into) {
            /* its tree runs at execute time, like DDL */
            ixs_qres_free(&q);
            rc = into_temp_prepare(&p, s, keep, it.name);
            ixs_px_done(&p);
            return rc ? -1 : 0;
        }
        ixs_sel_free(keep);
        if (!rc) {
            s->sqlite_sql = ixv_sb_take(&q.sql);
            s->cols = q.cols;
            s->ncols = q.ncols;
            ixs_cursor_stmt(&p, s);
            q.cols = NULL;
            q.ncols = 0;
            if (!s->sqlite_sql) rc = ixd_seterr(err, -208, 0, 0, NULL);
        }
        ixs_qres_free(&q);
    } else if (ixs_px_kw(&p, 0, IXK_EXECUTE) &&
               (ixs_px_kw(&p, 1, IXK_FUNCTION) || ixs_px_kw(&p, 1, IXK_PROCEDURE))) {
        rc = ixs_ts_execute(&p, s);
        if (!rc) rc = ixs_at_end(&p);
    } else if (ixs_px_kw(&p, 0, IXK_MERGE)) {
        s->kind = SK_MERGE;
        s->stype = IX_STMTTYPE_MERGE;
        p.i = 1;
        rc = ixs_merge_prepare(&p, s);
        if (!rc) rc = ixs_at_end(&p);
    } else if (ixs_px_kw(&p, 0, IXK_INSERT) ||
               (ixs_px_kw(&p, 0, IXK_UPDATE) && !ixs_is_update_statistics(&p)) ||
               ixs_px_kw(&p, 0, IXK_DELETE)) {
        s->kind = SK_DML;
        rc = ixs_dml_tail(&p, s, at_end_tail, NULL);
        if (!rc) {
            /* child tables with foreign keys give -691 */
            int64_t v;
            s->has_fk = q_int(db,
                              "SELECT 1 FROM _ixd_constraints c JOIN _ixd_tables t ON "
                              "t.tabid = c.tabid WHERE t.tabname = ? AND c.constrtype = 'R'",
                              s->table, &v) == 1;
        }
    } else {
        rc = ixs_ddl_prepare(&p, s);
    }
    if (!rc && s->kind != SK_SQL) {
        s->ts_write = p.ts_write;
        s->nparams = p.nparams;
        s->ptypes = p.ptypes;
        p.ptypes = NULL;
    }
    ixs_px_done(&p);
    return rc ? -1 : 0;
}

/* Informix checks the syntax of a statement before it looks up its names
 * (-201 rather than -206 or -217 when both are wrong): every statement is
 * parsed whole before its names are resolved (ixs_sel_parse.c, the DDL
 * trees), so one pass gives that order. */
int ixs_translate(ixd_db *db, ixd_stmt *s, const char *sql, size_t n, ixd_err *err) {
    return translate1(db, s, sql, n, err);
}

/* ---- database statements of a session ------------------------------------------------------ */

/* A database name: an identifier or a "quoted" one; longer than 128 bytes is
 * -354 "Incorrect database or cursor name format." (not a syntax error). */
static int db_name(px *p, char *name) {
    if (ixs_px_is_name(p, p->i)) {
        const tok *t = &p->t[p->i];
        int quoted = t->k == T_STR;
        if (t->len - (quoted ? 2 : 0) > IXS_NAME_MAX)
            return ixs_px_failc(p, IXS_E_DB_NAME, "%.*s", IXS_NAME_MAX, p->sql + t->pos + quoted);
    }
    return ixs_px_ident(p, name, IXS_NAME_MAX + 1);
}

/* What a session statement works on: the engine, the user, the session's
 * current database (replaced by the statement) and its flags. */
typedef struct dbctx {
    ixd_engine *e;
    const char *user;
    ixd_db **dbp;
    int *dbflags;
    ixd_err *err;
} dbctx;

/* Opens database name as the session's current one (the old one closed). */
static int switch_db(dbctx *c, const char *name) {
    ixd_db *ndb;
    int fl = 0;
    if (ixd_db_open(c->e, name, c->user, &ndb, &fl, c->err)) return -1;
    ixd_db_close(*c->dbp);
    *c->dbp = ndb;
    if (c->dbflags) *c->dbflags = fl;
    return 1;
}

/* CREATE DATABASE [IF NOT EXISTS] name [IN dbspace] [WITH [BUFFERED] LOG |
 * WITH LOG MODE ANSI] [NLSCASE {SENSITIVE | INSENSITIVE}], after DATABASE:
 * -330 when it exists (with IF NOT EXISTS the existing database becomes the
 * current one, as a new one would); the new database becomes the current
 * one. 1 done, -1 error, -2 syntax error. */
static int create_db_stmt(px *p, dbctx *c) {
    char name[IXS_NAME_MAX + 1];
    int ifne = 0, mode = 0;
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -2;
        ifne = 1;
    }
    if (db_name(p, name)) return -2;
    if (ixs_px_acc(p, IXK_IN)) {
        char d[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, d, sizeof d)) return -2;
    }
    if (ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_acc(p, IXK_BUFFERED)) {
            if (ixs_px_expect(p, IXK_LOG)) return -2;
            mode = 2;
        } else if (ixs_px_acc(p, IXK_LOG)) {
            mode = 1;
            if (ixs_px_acc(p, IXK_MODE)) {
                if (ixs_px_expect(p, IXK_ANSI)) return -2;
                mode = 3;
            }
        } else
            return -2;
    }
    (void)(ixs_px_acc(p, IXK_NLSCASE) &&
           (ixs_px_acc(p, IXK_SENSITIVE) || ixs_px_acc(p, IXK_INSENSITIVE)));
    if (ixs_at_end(p)) return -2;
    char path[4096];
    if (ixd_db_path(c->e, name, path, sizeof path, c->err)) return -1;
    struct stat stt;
    if (stat(path, &stt) == 0) /* IF NOT EXISTS: the existing one becomes current */
        return ifne ? switch_db(c, name) : ixd_seterr(c->err, -330, 0, 0, "%s", name);
    if (ixd_create_database(c->e, name, mode, c->user, c->err)) return -1;
    return switch_db(c, name);
}

/* DROP DATABASE [IF EXISTS] name, after DATABASE. */
static int drop_db_stmt(px *p, dbctx *c) {
    char name[IXS_NAME_MAX + 1];
    int ife = 0;
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_EXISTS)) return -2;
        ife = 1;
    }
    if (db_name(p, name) || ixs_at_end(p)) return -2;
    return ixd_drop_database(c->e, name, *c->dbp, ife, c->err) ? -1 : 1;
}

/* DATABASE name[@server] [EXCLUSIVE], after DATABASE. */
static int database_stmt(px *p, dbctx *c) {
    char name[IXS_NAME_MAX + 1];
    if (db_name(p, name)) return -2;
    if (ixs_px_acc_op(p, "@")) {
        char srv[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, srv, sizeof srv)) return -2;
    }
    ixs_px_acc(p, IXK_EXCLUSIVE);
    if (ixs_at_end(p)) return -2;
    return switch_db(c, name);
}

/* CLOSE DATABASE, after DATABASE: -349 without a current database. */
static int close_db_stmt(px *p, dbctx *c) {
    if (ixs_at_end(p)) return -2;
    if (!*c->dbp) return ixd_seterr(c->err, -349, 0, 0, NULL);
    ixd_db_close(*c->dbp);
    *c->dbp = NULL;
    return 1;
}

int ixs_dbstmt(ixd_engine *e, const char *user, const char *sql, size_t n, ixd_db **dbp,
               int *dbflags, ixd_err *err) {
    px p;
    ixd_db dummy;
    memset(&dummy, 0, sizeof dummy);
    if (ixs_px_init(&p, &dummy, sql, n, err)) {
        ixs_px_done(&p);
        /* not ours if it does not even tokenize: let prepare report it */
        memset(err, 0, sizeof *err);
        return 0;
    }
    dbctx c = {e, user, dbp, dbflags, err};
    int create = ixs_px_kw(&p, 0, IXK_CREATE) && ixs_px_kw(&p, 1, IXK_DATABASE);
    int drop = ixs_px_kw(&p, 0, IXK_DROP) && ixs_px_kw(&p, 1, IXK_DATABASE);
    int close = ixs_px_kw(&p, 0, IXK_CLOSE) && ixs_px_kw(&p, 1, IXK_DATABASE);
    int open = ixs_px_kw(&p, 0, IXK_DATABASE);
    int rc = 0;
    ixd_txn_sync(*dbp);
    if ((create || open || close) && *dbp && (*dbp)->in_txn && (*dbp)->logmode != 3)
        rc = ixd_seterr(err, -377, 0, 0, NULL);
    else if (create || drop || close) {
        p.i = 2;
        rc = create ? create_db_stmt(&p, &c) : drop ? drop_db_stmt(&p, &c) : close_db_stmt(&p, &c);
    } else if (open) {
        p.i = 1;
        rc = database_stmt(&p, &c);
    }
    if (rc == -2) {
        ixs_px_fail(&p); /* sets -201 unless a more precise error is already set */
        rc = -1;
    }
    ixs_px_done(&p);
    return rc;
}
