/* ixs_view.c: updatable views.
 *
 * SQLite views are read only. A simple view (one table, plain columns, no
 * DISTINCT, aggregate, GROUP BY, UNION, ORDER BY or FIRST) is created with the
 * base table's rowid as a hidden last column (_ixd_rowid, absent from ixd's
 * catalog, so Informix SQL never sees it) and three INSTEAD OF triggers that
 * apply INSERT, UPDATE and DELETE of the view to the base table; the
 * translator then runs DML on the view as on a table. WITH CHECK OPTION adds a
 * check to the INSERT and UPDATE triggers: the changed base row must satisfy
 * the view's WHERE, else -530 naming the view. Each trigger counts its row
 * (ixd_vrow), because SQLite's change count leaves out INSTEAD OF triggers.
 * DML on any other view is -273. */
#include <stdio.h>
#include <string.h>

#include "server/sql/ixs_objs.h"

#define VIEW_ROWID   IXV_INTERNAL_PREFIX "rowid"
#define VIEW_TRIG_I  IXV_INTERNAL_PREFIX "vi_"
#define VIEW_TRIG_U  IXV_INTERNAL_PREFIX "vu_"
#define VIEW_TRIG_D  IXV_INTERNAL_PREFIX "vd_"
#define VIEW_MAXCOLS IXS_MAX_COLS

/* The simple view: its base table, and per view column the base column. */
typedef struct vplan {
    char base[IXS_NAME_MAX + 1];
    char alias[IXS_NAME_MAX + 1];
    int ncols;
    int star; /* SELECT *: the base columns in order */
    char (*col)[IXS_NAME_MAX + 1];
    int cond_tok; /* token after WHERE, or -1 */
} vplan;

/* 1 when token i ends the view's SELECT (end, ';' or WITH CHECK OPTION). */
static int sel_end(px *p, int i) {
    return i >= p->nt || p->t[i].k == T_EOF || ixs_px_op(p, i, ";") || ixs_px_kw(p, i, IXK_WITH);
}

/*
 * simple := SELECT [ALL] item {, item} FROM [owner.]table [[AS] alias]
 *           [WHERE cond]
 * item   := * | { column | alias.column } [[AS] label]
 * (a label names the view column when the view has no column list: the
 * select labels become the view's column names)
 * Returns 1 when the SELECT at p->i has this form (v filled), else 0.
 */
static int parse_simple(px *p, vplan *v, char (*cols)[IXS_NAME_MAX + 1]) {
    if (!ixs_px_acc(p, IXK_SELECT)) return 0;
    ixs_px_acc(p, IXK_ALL);
    if (ixs_px_acc_op(p, "*"))
        v->star = 1;
    else
        do {
            if (v->ncols >= VIEW_MAXCOLS || !ixs_px_is_ident(p, p->i)) return 0;
            if (ixs_px_ident(p, cols[v->ncols], IXS_NAME_MAX + 1)) return 0;
            if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, cols[v->ncols], IXS_NAME_MAX + 1))
                return 0;
            char label[IXS_NAME_MAX + 1];
            if ((ixs_px_acc(p, IXK_AS) ||
                 (ixs_px_is_ident(p, p->i) && !ixs_px_kw(p, p->i, IXK_FROM))) &&
                ixs_px_ident(p, label, sizeof label))
                return 0;
            if (ixs_px_kw(p, p->i, IXK_FROM) == 0 && !ixs_px_op(p, p->i, ",")) return 0;
            v->ncols++;
        } while (ixs_px_acc_op(p, ","));
    if (!ixs_px_acc(p, IXK_FROM) || !ixs_px_is_ident(p, p->i)) return 0;
    if (ixs_px_ident(p, v->base, sizeof v->base)) return 0;
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, v->base, sizeof v->base)) return 0;
    snprintf(v->alias, sizeof v->alias, "%s", v->base);
    if (ixs_px_acc(p, IXK_AS) || (ixs_px_is_ident(p, p->i) && !ixs_px_kw(p, p->i, IXK_WHERE) &&
                                  !ixs_px_kw(p, p->i, IXK_WITH)))
        if (ixs_px_ident(p, v->alias, sizeof v->alias)) return 0;
    v->cond_tok = -1;
    if (ixs_px_acc(p, IXK_WHERE)) {
        v->cond_tok = p->i;
        return 1; /* its end is checked after translating it */
    }
    return sel_end(p, p->i);
}

/* The view's WHERE translated for the base table (aliased), into out;
 * 1 when it ends the SELECT, 0 not a simple view, -1 error. */
static int plan_cond(px *p, const vplan *v, tref *t, sb *out) {
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = t;
    sc.n = 1;
    scope *save = p->sc;
    p->sc = &sc;
    p->i = v->cond_tok;
    xv c;
    int rc = ixs_cond(p, &c);
    p->sc = save;
    if (!rc) ixv_sb_add(out, c.s.p);
    ixs_xv_free(&c);
    if (rc) return -1;
    return sel_end(p, p->i);
}

/* The base column of view column i. */
static const char *base_col(const vplan *v, const tref *t, int i) {
    return v->star ? t->tab.cols[i].name : v->col[i];
}

static void check_stmt(sb *s, const vplan *v, const char *owner, const char *view, const char *cond,
                       const char *rid) {
    sb msg = {0};
    ixv_sb_printf(&msg, "%s.%s", owner, view);
    ixv_sb_printf(s, " SELECT ixd_raise(%d, ", IXS_E_VIEW_CHECK);
    ixv_sb_strlit(s, msg.p ? msg.p : "", msg.n);
    ixv_sb_add(s, ") WHERE NOT EXISTS (SELECT 1 FROM ");
    ixv_sb_ident(s, v->base);
    ixv_sb_add(s, " AS ");
    ixv_sb_ident(s, v->alias);
    ixv_sb_add(s, " WHERE ");
    ixv_sb_ident(s, v->alias);
    ixv_sb_printf(s, ".rowid = %s AND (%s));", rid, cond);
    ixv_sb_free(&msg);
}

static void trig_head(sb *s, const char *prefix, const char *what, const char *view) {
    sb tn = {0};
    ixv_sb_add(&tn, prefix);
    ixv_sb_add(&tn, view);
    ixv_sb_add(s, "CREATE TRIGGER ");
    ixv_sb_ident(s, tn.p ? tn.p : "");
    ixv_sb_printf(s, " INSTEAD OF %s ON ", what);
    ixv_sb_ident(s, view);
    ixv_sb_add(s, " BEGIN ");
    ixv_sb_free(&tn);
}

/* The INSERT trigger: the view's columns and the base table's serials. */
static void trig_insert(sb *s, const vplan *v, const tref *t, char (*vc)[IXS_NAME_MAX + 1]) {
    ixv_sb_add(s, "INSERT INTO ");
    ixv_sb_ident(s, v->base);
    ixv_sb_addc(s, '(');
    sb vals = {0};
    int n = 0;
    for (int k = 0; k < t->tab.ncols; k++) {
        const icol *c = &t->tab.cols[k];
        int vi = -1;
        for (int i = 0; i < v->ncols && vi < 0; i++)
            if (!strcmp(base_col(v, t, i), c->name)) vi = i;
        if (vi < 0 && !c->serial) continue;
        if (n++) {
            ixv_sb_addc(s, ',');
            ixv_sb_addc(&vals, ',');
        }
        ixv_sb_ident(s, c->name);
        sb nv = {0};
        if (vi >= 0) {
            ixv_sb_add(&nv, "NEW.");
            ixv_sb_ident(&nv, vc[vi]);
        } else
            ixv_sb_add(&nv, "NULL");
        if (c->serial)
            ixv_sb_printf(&vals, "ixd_serial(%d,%d,%s)", t->tab.tabid, c->serial, nv.p);
        else
            ixv_sb_add(&vals, nv.p);
        ixv_sb_free(&nv);
    }
    ixv_sb_printf(s, ") VALUES(%s);", vals.p ? vals.p : "");
    ixv_sb_free(&vals);
}

static void emit_view(sb *s, const char *name, const vplan *v, const tref *t,
                      char (*vc)[IXS_NAME_MAX + 1], const char *cond, int chk, const char *owner) {
    ixv_sb_add(s, "CREATE VIEW ");
    ixv_sb_ident(s, name);
    ixv_sb_addc(s, '(');
    for (int i = 0; i < v->ncols; i++) {
        ixv_sb_ident(s, vc[i]);
        ixv_sb_addc(s, ',');
    }
    ixv_sb_add(s, VIEW_ROWID ") AS SELECT ");
    for (int i = 0; i < v->ncols; i++) {
        ixv_sb_ident(s, v->alias);
        ixv_sb_addc(s, '.');
        ixv_sb_ident(s, base_col(v, t, i));
        ixv_sb_addc(s, ',');
    }
    ixv_sb_ident(s, v->alias);
    ixv_sb_add(s, ".rowid FROM ");
    ixv_sb_ident(s, v->base);
    ixv_sb_add(s, " AS ");
    ixv_sb_ident(s, v->alias);
    if (cond) ixv_sb_printf(s, " WHERE %s", cond);
    ixv_sb_add(s, ";");
    trig_head(s, VIEW_TRIG_I, "INSERT", name);
    trig_insert(s, v, t, vc);
    ixv_sb_add(s, " SELECT ixd_vrow();");
    if (chk && cond) check_stmt(s, v, owner, name, cond, "last_insert_rowid()");
    ixv_sb_add(s, " END;");
    trig_head(s, VIEW_TRIG_U, "UPDATE", name);
    ixv_sb_add(s, "UPDATE ");
    ixv_sb_ident(s, v->base);
    ixv_sb_add(s, " SET ");
    for (int i = 0; i < v->ncols; i++) {
        if (i) ixv_sb_addc(s, ',');
        ixv_sb_ident(s, base_col(v, t, i));
        ixv_sb_add(s, " = NEW.");
        ixv_sb_ident(s, vc[i]);
    }
    ixv_sb_add(s, " WHERE rowid = OLD." VIEW_ROWID "; SELECT ixd_vrow();");
    if (chk && cond) check_stmt(s, v, owner, name, cond, "OLD." VIEW_ROWID);
    ixv_sb_add(s, " END;");
    trig_head(s, VIEW_TRIG_D, "DELETE", name);
    ixv_sb_add(s, "DELETE FROM ");
    ixv_sb_ident(s, v->base);
    ixv_sb_add(s, " WHERE rowid = OLD." VIEW_ROWID "; SELECT ixd_vrow(); END;");
}

/* The base table of a simple view: a table of the database (not a view,
 * catalog or temp table), every listed column one of its columns. */
static int base_ok(const vplan *v, const tref *t) {
    if (t->tab.is_view || t->tab.tabid < 100 || t->tab.tabid >= IXS_TEMP_TABID) return 0;
    for (int i = 0; i < v->ncols && !v->star; i++) {
        int found = 0;
        for (int k = 0; k < t->tab.ncols; k++)
            if (!strcmp(t->tab.cols[k].name, v->col[i])) found = 1;
        if (!found) return 0;
    }
    return 1;
}

int ixs_view_plan(px *p, const char *name, int sel, int chk, char (*cn)[IXS_NAME_MAX + 1],
                  const qres *q, sb *out) {
    static char cols[VIEW_MAXCOLS][IXS_NAME_MAX + 1];
    vplan v;
    memset(&v, 0, sizeof v);
    v.col = cols;
    int save_i = p->i, rc = 0;
    p->i = sel;
    ixs_px_at_cursor(p);
    if (!parse_simple(p, &v, cols)) goto done;
    tref *t = ixs_tref_new(p, v.base, v.alias);
    if (!t) {
        rc = -1;
        goto done;
    }
    if (v.star) v.ncols = t->tab.ncols;
    sb cond = {0};
    int simple = v.ncols == q->ncols && base_ok(&v, t);
    if (simple && v.cond_tok >= 0) {
        simple = plan_cond(p, &v, t, &cond);
        if (simple < 0) rc = -1;
    }
    if (simple > 0) {
        char(*vc)[IXS_NAME_MAX + 1] = cn;
        static char labels[VIEW_MAXCOLS][IXS_NAME_MAX + 1];
        if (!vc) {
            for (int i = 0; i < q->ncols; i++)
                snprintf(labels[i], sizeof labels[i], "%s", q->cols[i].name);
            vc = labels;
        }
        emit_view(out, name, &v, t, vc, v.cond_tok >= 0 ? cond.p : NULL, chk, p->db->user);
        rc = 1;
    }
    ixv_sb_free(&cond);
    ixs_tref_free(t);
done:
    p->i = save_i;
    return rc;
}

int ixs_view_updatable(ixs_conn *db, const char *view) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(
            db->h,
            "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = '" VIEW_TRIG_U "' || ?",
            -1, &st, NULL) != SQLITE_OK)
        return 0;
    char stn[IXV_STNAME_MAX + 1]; /* the trigger's name is made of the view's storage name */
    sqlite3_bind_text(st, 1, ixv_stname(view, stn, sizeof stn), -1, SQLITE_STATIC);
    int r = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return r;
}

/* ixd_vrow(): one row changed through a view. */
static void f_vrow(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    ixs_conn *db = sqlite3_user_data(ctx);
    db->stmt_vrows++;
    sqlite3_result_null(ctx);
}

/* ixd_raise(sqlcode, text): fails the statement with that Informix error (a
 * WITH CHECK OPTION trigger's -530). Triggers of earlier versions raise
 * RAISE(ABORT, 'ixd:-530:...') instead: ixd_sqlerr.c reads that text. */
static void f_raise(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixv_fn_err(ctx, sqlite3_value_int(argv[0]), (const char *)sqlite3_value_text(argv[1]));
}

int ixs_view_register(sqlite3 *h, ixs_conn *db) {
    return sqlite3_create_function(h, "ixd_vrow", 0, SQLITE_UTF8, db, f_vrow, NULL, NULL) ||
           sqlite3_create_function(h, "ixd_raise", 2, SQLITE_UTF8, NULL, f_raise, NULL, NULL);
}
