/* ixs_sel_resolve.c: the tables of a query's FROM list: names looked up in
 * the catalogue (tables, views, synonyms, owners), derived tables emitted
 * for their columns, the scope of the query built in text order (an ON
 * condition sees the tables before it), and the Informix OUTER groups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_sel_tree.h"

tref *ixs_tref_new(px *p, const char *name, const char *alias) {
    tref *t = calloc(1, sizeof *t);
    if (!t) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    int r = ixs_cat_table(p->db, name, &t->tab, p->err);
    if (r <= 0) {
        free(t);
        if (r == 0)
            ixs_px_failc(p, IXV_E_NO_TABLE, "%s", name);
        else
            p->failed = 1;
        return NULL;
    }
    snprintf(t->alias, sizeof t->alias, "%s", alias && *alias ? alias : name);
    return t;
}

void ixs_tref_free(tref *t) {
    if (!t) return;
    ixs_itab_free(&t->tab);
    free(t);
}

void ixs_sel_scope_free(scope *sc) {
    for (int i = 0; i < sc->n; i++)
        ixs_tref_free(sc->t[i]);
    sc->n = 0;
}

icol *ixs_sel_find_col(tref *t, const char *name) {
    for (int i = 0; i < t->tab.ncols; i++)
        if (!strcmp(t->tab.cols[i].name, name)) return &t->tab.cols[i];
    return NULL;
}

void ixs_sel_ofrom_free(ofrom *f) {
    if (!f) return;
    for (int i = 0; i < f->ng; i++)
        ixv_sb_free(&f->g[i].on);
    free(f);
}

/* t into scope sc; the same alias twice is -201. */
static int add_tref(px *p, scope *sc, tref *t) {
    if (sc->n >= IXS_MAX_TABS) {
        ixs_tref_free(t);
        return ixs_px_fail(p);
    }
    for (int i = 0; i < sc->n; i++)
        if (!strcmp(sc->t[i]->alias, t->alias)) {
            ixs_tref_free(t);
            return ixs_px_failc(p, IXV_E_SYNTAX, NULL);
        }
    sc->t[sc->n++] = t;
    return 0;
}

/* A derived table named alias over the columns of q. */
static tref *derived_tref(px *p, const char *alias, const qres *q, int outer) {
    tref *t = calloc(1, sizeof *t);
    if (t) t->tab.cols = calloc((size_t)(q->ncols ? q->ncols : 1), sizeof(icol));
    if (!t || !t->tab.cols) {
        free(t);
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    t->derived = 1;
    t->outer = outer;
    snprintf(t->alias, sizeof t->alias, "%s", alias);
    snprintf(t->tab.name, sizeof t->tab.name, "%s", alias);
    t->tab.ncols = q->ncols;
    for (int i = 0; i < q->ncols; i++) {
        snprintf(t->tab.cols[i].name, sizeof t->tab.cols[i].name, "%s", q->cols[i].name);
        t->tab.cols[i].t = q->cols[i].t;
        t->tab.cols[i].colno = i + 1;
    }
    return t;
}

/* The new column names of a derived table: as many as it has. */
static int derived_rename(px *p, sel_tref *n, qres *q) {
    if (!n->ncn) return 0;
    if (n->ncn != q->ncols) {
        return ixs_px_fail_at(p, n->tok);
    }
    sb w = {0};
    ixv_sb_add(&w, "SELECT ");
    for (int k = 0; k < n->ncn; k++) {
        char *d = strdup(n->cn[k]);
        if (!d) {
            ixv_sb_free(&w);
            return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        }
        if (k) ixv_sb_add(&w, ", ");
        ixv_sb_ident(&w, q->cols[k].name);
        ixv_sb_add(&w, " AS ");
        ixv_sb_ident(&w, d);
        free(q->cols[k].name);
        q->cols[k].name = d;
    }
    ixv_sb_printf(&w, " FROM (%s)", q->sql.p ? q->sql.p : "");
    ixv_sb_free(&q->sql);
    q->sql = w;
    return w.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
}

/* A derived table from query q: its FROM text kept in n, its tref in sc. */
static int derived_add(px *p, scope *sc, sel_tref *n, qres *q, int outer) {
    char alias[IXS_NAME_MAX + 1];
    snprintf(alias, sizeof alias, "%s", n->alias);
    if (!alias[0]) snprintf(alias, sizeof alias, "_d%d", sc->n);
    tref *t = derived_rename(p, n, q) ? NULL : derived_tref(p, alias, q, outer);
    if (!t) return -1;
    sb s = {0};
    ixv_sb_printf(&s, "(%s) AS ", q->sql.p);
    ixv_sb_ident(&s, alias);
    if (!(n->sql = ixv_sb_take(&s))) {
        ixs_tref_free(t);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    return add_tref(p, sc, t);
}

/* TABLE(collection): the elements as rows of one column; the collection
 * sees the enclosing query's tables, not the FROM list's (not lateral). */
static int coll_add(px *p, scope *sc, sel_tref *n, int outer) {
    xv v;
    ixs_xv_init(&v);
    scope *save = p->sc;
    p->sc = sc->up;
    int rc = ixs_ex_resolve(p, n->coll) || ixs_ex_emit(p, n->coll, &v);
    p->sc = save;
    if (!rc) rc = ixs_coll_typed(p, &v);
    qres q;
    memset(&q, 0, sizeof q);
    ocol c;
    memset(&c, 0, sizeof c);
    char col[IXS_NAME_MAX + 1];
    snprintf(col, sizeof col, "%s", n->col[0] ? n->col : v.lk == LB_COL ? v.label : "(expression)");
    if (!rc) {
        ixv_sb_add(&q.sql, "SELECT value AS ");
        ixv_sb_ident(&q.sql, col);
        ixv_sb_printf(&q.sql, " FROM ixd_coll_each(%s,%d,%u)", v.s.p, v.t.code, v.t.len);
        c.name = col;
        c.t = ixs_coll_elem(v.t);
        q.cols = &c;
        q.ncols = 1;
    }
    ixs_xv_free(&v);
    if (!rc) rc = derived_add(p, sc, n, &q, outer);
    if (!rc) sc->t[sc->n - 1]->tab.cols[0].notnull = 1;
    ixv_sb_free(&q.sql);
    return rc ? -1 : 0;
}

static int chain_resolve(px *p, scope *sc, sel_join *j, int outer);

/* table_ref: a table, view or synonym, or a derived table, into sc. */
static int tref_resolve(px *p, scope *sc, sel_tref *n, int outer) {
    int rc = 0, t0 = sc->n;
    qres q;
    memset(&q, 0, sizeof q);
    scope *save = p->sc;
    switch (n->kind) {
    case TR_NAME:
        ixs_px_at(p, n->tok);
        if (!(n->rt = ixs_tref_new(p, n->name, n->alias))) return -1;
        n->rt->outer = outer;
        return add_tref(p, sc, n->rt);
    case TR_QUERY:
        p->sc = sc->up;
        rc = ixs_sel_emit(p, n->q, &q);
        p->sc = save;
        if (!rc) rc = derived_add(p, sc, n, &q, outer);
        break;
    case TR_FUNC:
        rc = ixs_ts_from_emit(p, n->ts, &q);
        ixs_px_at(p, n->fn_end); /* after TABLE(...), as its parse ended */
        if (!rc) rc = derived_add(p, sc, n, &q, outer);
        break;
    case TR_COLL: return coll_add(p, sc, n, outer);
    case TR_JOIN:
        rc = chain_resolve(p, sc, n->join, outer);
        n->ntabs = sc->n - t0;
        break;
    }
    ixs_qres_free(&q);
    return rc ? -1 : 0;
}

/* The tables from..to-1 of the scope can be NULL-extended. */
static void mark_outer(scope *sc, int from, int to) {
    for (int i = from; i < to; i++)
        sc->t[i]->outer = 1;
}

/* join_chain: its tables in text order; each ON resolved in the tables
 * before it (its own right side included). */
static int chain_resolve(px *p, scope *sc, sel_join *j, int outer) {
    int first = sc->n;
    if (tref_resolve(p, sc, j->first, outer)) return -1;
    for (int i = 0; i < j->nop; i++) {
        sel_joinop *o = &j->op[i];
        int r0 = sc->n, rout = outer || o->kind == JK_LEFT || o->kind == JK_FULL;
        if (chain_resolve(p, sc, o->rhs, rout)) return -1;
        if (o->kind == JK_LEFT || o->kind == JK_FULL) mark_outer(sc, r0, sc->n);
        if (o->kind == JK_RIGHT || o->kind == JK_FULL) mark_outer(sc, first, r0);
        o->on_n = sc->n;
        if (o->on) {
            scope *save = p->sc;
            p->sc = sc;
            int rc = ixs_ex_resolve(p, o->on);
            p->sc = save;
            if (rc) return -1;
        }
    }
    return 0;
}

/* The items of group gi of f. */
static int list_resolve(px *p, scope *sc, ofrom *f, sel_from *l, int gi, int outer) {
    for (int i = 0; i < l->n; i++) {
        sel_fitem *it = &l->it[i];
        int t0 = sc->n, rc, into = gi;
        if (it->kind == FI_CHAIN) {
            if (f->g[gi].nown >= IXS_MAX_TABS) return ixs_px_fail(p);
            f->g[gi].chain[f->g[gi].nown++] = it->chain;
            rc = chain_resolve(p, sc, it->chain, outer);
        } else {
            if (f->ng >= IXS_MAX_TABS) return ixs_px_fail(p);
            into = f->ng++;
            memset(&f->g[into], 0, sizeof f->g[into]); /* groups are cleared as they are made */
            f->g[into].parent = gi;
            f->g[into].depth = f->g[gi].depth + 1;
            if (it->kind == FI_OUTER_LIST)
                rc = list_resolve(p, sc, f, it->list, into, 1);
            else {
                f->g[into].one[f->g[into].nown++] = it->t;
                rc = tref_resolve(p, sc, it->t, 1);
            }
        }
        if (rc) return -1;
        for (int t = t0; t < sc->n; t++)
            if (f->tg[t] == 0) f->tg[t] = into; /* nested items set theirs first */
    }
    return 0;
}

int ixs_sel_from_resolve(px *p, scope *sc, sel_from *l, ofrom **out) {
    ofrom *f = malloc(sizeof *f); /* 64 groups of 1 KiB: only those used are cleared */
    *out = f;
    if (!f) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    f->ng = 1;
    memset(&f->g[0], 0, sizeof f->g[0]);
    memset(f->tg, 0, sizeof f->tg);
    f->g[0].parent = -1;
    int olap = p->olap_ok;
    p->olap_ok = 0;
    int rc = list_resolve(p, sc, f, l, 0, 0);
    p->olap_ok = olap;
    return rc;
}
