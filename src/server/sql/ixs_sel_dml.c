/* ixs_sel_dml.c: INSERT, UPDATE and DELETE trees (ixs_sel_parse.c) as
 * SQLite SQL: the target table resolved (a view must be updatable,
 * ixs_view.c), the columns checked against it, the values converted to the
 * columns' types, serial columns given their next values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_sel_tree.h"

enum {
    IXS_E_SUBQUERY_ROWS = IXV_E_SUBQUERY_ROWS, /* A subquery has returned not exactly one row. */
    IXS_E_VALUES_COUNT =
        IXV_E_VALUES_COUNT, /* Number of columns in INSERT does not match number of VALUES. */
};

static int set_desc_cols(px *p, ixs_stmt *s, icol **cols, int n) {
    s->cols = calloc((size_t)(n ? n : 1), sizeof(ocol));
    if (!s->cols) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    for (int i = 0; i < n; i++) {
        s->cols[i].name = strdup(cols[i]->name);
        if (!s->cols[i].name) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        s->cols[i].t = cols[i]->serial == 1 ? ixv_t(IX_T_SERIAL, 4) : cols[i]->t;
        if (s->cols[i].t.code == IX_T_TEXT || s->cols[i].t.code == IX_T_BYTE) s->cols[i].t.len = 56;
        if (ixs_coll_is(s->cols[i].t.code) || s->cols[i].t.code == IX_T_ROW)
            s->cols[i].t = ixv_t(IX_T_LVARCHAR, IXS_COLL_DESC_LEN);
        s->cols[i].notnull = cols[i]->notnull;
        s->ncols = i + 1;
    }
    return 0;
}

static void serial_wrap(tref *t, icol *c, const char *v, sb *out) {
    ixv_sb_printf(out, "ixd_serial(%d,%d,%s)", t->tab.tabid, c->serial, v ? v : "NULL");
}

/* The state of one statement: its table, the columns given values, the
 * serial columns an INSERT does not list, and the SQL. */
typedef struct {
    tref *t;
    icol **cols;
    int nc;
    int extra[8], nextra;
    sb sql;
} dmlctx;

/* The columns named in d (all of the table when none are, for an INSERT
 * and SET *): -217 for an unknown one, -201 for one named twice. */
static int bind_cols(px *p, const ixs_dml_t *d, dmlctx *c) {
    if ((d->kind == DML_INSERT && !d->multi) || d->star) {
        for (int i = 0; i < c->t->tab.ncols; i++)
            c->cols[c->nc++] = &c->t->tab.cols[i];
        return 0;
    }
    for (int k = 0; k < d->ncols; k++) {
        ixs_px_at(p, d->coltok[k]);
        icol *col = ixs_sel_find_col(c->t, d->cols[k]);
        if (!col) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", d->cols[k]);
        for (int i = 0; i < c->nc && d->kind == DML_INSERT; i++)
            if (c->cols[i] == col) return ixs_px_fail(p);
        if (c->nc >= c->t->tab.ncols) return ixs_px_fail(p);
        c->cols[c->nc++] = col;
    }
    return 0;
}

/* v converted to column k's type, as SQL into out (a serial column's
 * value through ixd_serial). */
static int value_to(px *p, dmlctx *c, int k, xv *v, sb *out) {
    if (v->k == XK_PRED) v->t = ixv_t(IX_T_BOOLEAN, 1);
    if (c->cols[k]->serial)
        ixs_to_type(p, v, c->cols[k]->t); /* ixd_serial checks the range */
    else
        ixs_to_store(p, v, c->cols[k]->t);
    if (p->failed) return -1;
    if (c->cols[k]->serial)
        serial_wrap(c->t, c->cols[k], v->s.p, out);
    else
        ixv_sb_add(out, v->s.p ? v->s.p : "NULL");
    return 0;
}

/* Value i of d, resolved in p->sc, converted to column k. */
static int value_sql(px *p, const ixs_dml_t *d, dmlctx *c, int i, int k, sb *out) {
    xv v;
    ixs_xv_init(&v);
    int rc = ixs_ex_resolve(p, d->vals[i]) || ixs_ex_emit(p, d->vals[i], &v);
    if (!rc && k >= c->nc) {
        ixs_px_at(p, d->valtok[i]);
        rc = ixs_px_failc(p, IXS_E_VALUES_COUNT, NULL);
    }
    if (!rc) rc = value_to(p, c, k, &v, out);
    ixs_xv_free(&v);
    return rc ? -1 : 0;
}

/* ---- INSERT -------------------------------------------------------------------------------- */

/* INSERT INTO name(columns, unlisted serial columns) */
static void ins_head_sql(dmlctx *c) {
    tref *t = c->t;
    ixv_sb_add(&c->sql, "INSERT INTO ");
    ixv_sb_ident(&c->sql, t->tab.name);
    ixv_sb_addc(&c->sql, '(');
    for (int i = 0; i < c->nc; i++) {
        if (i) ixv_sb_addc(&c->sql, ',');
        ixv_sb_ident(&c->sql, c->cols[i]->name);
    }
    for (int i = 0; i < t->tab.ncols && c->nextra < 8; i++) {
        if (!t->tab.cols[i].serial) continue;
        int listed = 0;
        for (int k = 0; k < c->nc; k++)
            if (c->cols[k] == &t->tab.cols[i]) listed = 1;
        if (!listed) {
            c->extra[c->nextra++] = i;
            ixv_sb_addc(&c->sql, ',');
            ixv_sb_ident(&c->sql, t->tab.cols[i].name);
        }
    }
    ixv_sb_add(&c->sql, ") ");
}

/* The next values of the unlisted serial columns. */
static void ins_extra_sql(dmlctx *c) {
    for (int i = 0; i < c->nextra; i++) {
        ixv_sb_addc(&c->sql, ',');
        serial_wrap(c->t, &c->t->tab.cols[c->extra[i]], NULL, &c->sql);
    }
}

/* VALUES(...): the values see no table */
static int ins_values(px *p, const ixs_dml_t *d, dmlctx *c) {
    scope sc;
    memset(&sc, 0, sizeof sc);
    scope *save = p->sc;
    p->sc = &sc;
    ixv_sb_add(&c->sql, "VALUES(");
    int rc = 0;
    for (int i = 0; i < d->nvals && !rc; i++) {
        if (i) ixv_sb_addc(&c->sql, ',');
        rc = value_sql(p, d, c, i, i, &c->sql);
    }
    p->sc = save;
    if (rc) return -1;
    if (d->nvals != c->nc) return ixs_px_failc(p, IXS_E_VALUES_COUNT, NULL);
    ins_extra_sql(c);
    ixv_sb_addc(&c->sql, ')');
    return 0;
}

/* The rows of a query, converted to the columns' types. */
static int ins_select(px *p, const ixs_dml_t *d, dmlctx *c) {
    qres q;
    int rc = ixs_sel_emit(p, d->q, &q);
    if (!rc && q.ncols != c->nc) rc = ixs_px_failc(p, IXS_E_VALUES_COUNT, NULL);
    if (!rc) ixv_sb_add(&c->sql, "SELECT ");
    for (int i = 0; i < c->nc && !rc; i++) {
        xv v;
        ixs_qcol_xv(&q.cols[i], &v);
        if (i) ixv_sb_addc(&c->sql, ',');
        rc = value_to(p, c, i, &v, &c->sql);
        ixs_xv_free(&v);
    }
    if (!rc) {
        ins_extra_sql(c);
        ixv_sb_printf(&c->sql, " FROM (%s) AS _s", q.sql.p);
    }
    ixs_qres_free(&q);
    return rc ? -1 : 0;
}

static int ins_emit(px *p, const ixs_dml_t *d, ixs_stmt *s, dmlctx *c) {
    if (bind_cols(p, d, c) || set_desc_cols(p, s, c->cols, c->nc)) return -1;
    ins_head_sql(c);
    return d->q ? ins_select(p, d, c) : ins_values(p, d, c);
}

/* ---- UPDATE, DELETE ---------------------------------------------------------------------- */

/* SET (cols) = (SELECT ...): the columns from the one row of a query. No
 * row sets NULLs; more than one is -284, as for a scalar subquery. */
static int upd_row_query(px *p, const ixs_dml_t *d, dmlctx *c) {
    qres q;
    int rc = ixs_sel_emit(p, d->q, &q);
    if (!rc && q.ncols != c->nc) {
        rc = ixs_px_fail_at(p, d->q->tok);
    }
    for (int k = 0; k < c->nc && !rc; k++) {
        ixv_sb_add(&c->sql, k ? ", " : "(");
        ixv_sb_ident(&c->sql, c->cols[k]->name);
    }
    if (!rc) ixv_sb_add(&c->sql, ") = (SELECT ");
    for (int k = 0; k < c->nc && !rc; k++) {
        xv v;
        memset(&v, 0, sizeof v);
        v.pidx = -1;
        v.k = XK_EXPR;
        v.t = q.cols[k].t;
        ixv_sb_add(&v.s, "min(_q1.");
        ixv_sb_ident(&v.s, q.cols[k].name);
        ixv_sb_addc(&v.s, ')');
        ixs_to_store(p, &v, c->cols[k]->t);
        if (k)
            ixv_sb_printf(&c->sql, ", %s", v.s.p);
        else
            ixv_sb_printf(&c->sql, "CASE WHEN count(*) > 1 THEN ixd_raise(%d, '') ELSE %s END",
                          IXS_E_SUBQUERY_ROWS, v.s.p);
        ixs_xv_free(&v);
        if (p->failed) rc = -1;
    }
    if (!rc) ixv_sb_printf(&c->sql, " FROM (SELECT * FROM (%s) LIMIT 2) AS _q1)", q.sql.p);
    ixs_qres_free(&q);
    return rc ? -1 : 0;
}

/* SET col = value {, ...} | SET (cols) = (values): one value per column */
static int upd_values(px *p, const ixs_dml_t *d, dmlctx *c) {
    if (d->nvals != c->nc) {
        return ixs_px_fail_at(p, d->multi ? d->vals_end : d->tok);
    }
    for (int i = 0; i < c->nc; i++) {
        if (i) ixv_sb_add(&c->sql, ", ");
        ixv_sb_ident(&c->sql, c->cols[i]->name);
        ixv_sb_add(&c->sql, " = ");
        if (value_sql(p, d, c, i, i, &c->sql)) return -1;
    }
    return 0;
}

/* [ WHERE cond | WHERE CURRENT OF cursor ]; without WHERE the statement
 * type is UPDATE / DELETE of all rows */
static int where_sql(px *p, const ixs_dml_t *d, ixs_stmt *s, sb *sql) {
    if (d->where == WH_NONE) {
        if (s->stype == IX_STMTTYPE_DELETE) s->stype = IX_STMTTYPE_DELETE_ALL;
        if (s->stype == IX_STMTTYPE_UPDATE) s->stype = IX_STMTTYPE_UPDATE_ALL;
        return 0;
    }
    if (d->where == WH_CURRENT) return ixs_current_of(p, d->cursor, sql, s);
    xv v;
    ixs_xv_init(&v);
    int rc = ixs_ex_resolve(p, d->cond) || ixs_ex_emit(p, d->cond, &v);
    if (!rc) ixv_sb_printf(sql, " WHERE %s", v.s.p);
    ixs_xv_free(&v);
    return rc ? -1 : 0;
}

/* UPDATE t [AS alias] SET ... or DELETE FROM t [AS alias] (a synonym: its
 * name qualifies columns) */
static void target_sql(const char *head, const tref *t, sb *sql) {
    ixv_sb_add(sql, head);
    ixv_sb_ident(sql, t->tab.name);
    if (strcmp(t->alias, t->tab.name)) {
        ixv_sb_add(sql, " AS ");
        ixv_sb_ident(sql, t->alias);
    }
}

static int upd_emit(px *p, const ixs_dml_t *d, ixs_stmt *s, dmlctx *c) {
    target_sql("UPDATE ", c->t, &c->sql);
    ixv_sb_add(&c->sql, " SET ");
    if (bind_cols(p, d, c)) return -1;
    if (d->q ? upd_row_query(p, d, c) : upd_values(p, d, c)) return -1;
    if (set_desc_cols(p, s, c->cols, c->nc)) return -1;
    return where_sql(p, d, s, &c->sql);
}

static int del_emit(px *p, const ixs_dml_t *d, ixs_stmt *s, dmlctx *c) {
    target_sql("DELETE FROM ", c->t, &c->sql);
    return where_sql(p, d, s, &c->sql);
}

/* The statement's table resolved, then the SQL into s->sqlite_sql. UPDATE
 * and DELETE see their table (and no enclosing scope). */
int ixs_dml_emit(px *p, ixs_dml_t *d, ixs_stmt *s) {
    static const int stype[] = {IX_STMTTYPE_INSERT, IX_STMTTYPE_UPDATE, IX_STMTTYPE_DELETE};
    s->stype = stype[d->kind];
    ixs_px_at(p, d->tok);
    dmlctx c;
    memset(&c, 0, sizeof c);
    if (!(c.t = ixs_tref_new(p, d->table, NULL))) return -1;
    snprintf(s->table, sizeof s->table, "%s", c.t->tab.name);
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = c.t;
    sc.n = 1;
    scope *save = p->sc;
    if (d->kind != DML_INSERT) p->sc = &sc;
    int rc = 0;
    if (!(c.cols = calloc((size_t)c.t->tab.ncols + 1, sizeof(icol *))))
        rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
    else if (c.t->tab.is_view && !ixs_view_updatable(p->db, c.t->tab.name))
        rc = ixs_px_failc(p, IXS_E_VIEW_READONLY, "%s", c.t->tab.name);
    else
        rc = d->kind == DML_INSERT   ? ins_emit(p, d, s, &c)
             : d->kind == DML_UPDATE ? upd_emit(p, d, s, &c)
                                     : del_emit(p, d, s, &c);
    p->sc = save;
    if (!rc && !p->failed && !(s->sqlite_sql = ixv_sb_take(&c.sql)))
        rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
    ixv_sb_free(&c.sql);
    free(c.cols);
    ixs_tref_free(c.t);
    return rc || p->failed ? -1 : 0;
}
