/* ixs_sel_emit.c: the SQLite SQL and the described columns of a query tree:
 * per core its FROM resolved (ixs_sel_resolve.c), the select list, WHERE
 * (its conjuncts placed as the join conditions of Informix OUTER groups),
 * GROUP BY and HAVING; then the set operators, ORDER BY and LIMIT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_sel_tree.h"

/* ---- FROM text ------------------------------------------------------------------------- */

static const char *const jk_sql[] = {
    "", " JOIN ", " CROSS JOIN ", " LEFT JOIN ", " RIGHT JOIN ", " FULL JOIN "};

static int chain_sql(px *p, scope *sc, const sel_join *j, sb *out);

static int tref_sql(px *p, scope *sc, const sel_tref *n, sb *out) {
    if (n->kind == TR_NAME) {
        ixv_sb_ident(out, n->rt->tab.name); /* a synonym's table */
        if (strcmp(n->rt->alias, n->rt->tab.name)) {
            ixv_sb_add(out, " AS ");
            ixv_sb_ident(out, n->rt->alias);
        }
        return 0;
    }
    if (n->kind != TR_JOIN) {
        ixv_sb_add(out, n->sql);
        return 0;
    }
    sb in = {0};
    int rc = chain_sql(p, sc, n->join, &in);
    if (!rc) ixv_sb_printf(out, n->ntabs > 1 ? "(%s)" : "%s", in.p);
    ixv_sb_free(&in);
    return rc;
}

/* ON cond, in the tables of the scope before it */
static int on_sql(px *p, scope *sc, const sel_joinop *o, sb *out) {
    int n = sc->n;
    scope *save = p->sc;
    sc->n = o->on_n;
    p->sc = sc;
    xv c;
    ixs_xv_init(&c);
    int rc = ixs_ex_emit(p, o->on, &c);
    p->sc = save;
    sc->n = n;
    if (!rc) ixv_sb_printf(out, " ON %s", c.s.p);
    ixs_xv_free(&c);
    return rc;
}

static int chain_sql(px *p, scope *sc, const sel_join *j, sb *out) {
    if (tref_sql(p, sc, j->first, out)) return -1;
    for (int i = 0; i < j->nop; i++) {
        const sel_joinop *o = &j->op[i];
        sb r = {0};
        int rc = chain_sql(p, sc, o->rhs, &r);
        if (!rc) {
            ixv_sb_add(out, jk_sql[o->kind]);
            ixv_sb_printf(out, o->rhs->nop ? "(%s)" : "%s", r.p);
            if (o->on) rc = on_sql(p, sc, o, out);
        }
        ixv_sb_free(&r);
        if (rc) return -1;
    }
    return 0;
}

static int in_subtree(const ofrom *f, int g, int top) {
    for (; g >= 0; g = f->g[g].parent)
        if (g == top) return 1;
    return 0;
}

/* The group whose join condition takes a conjunct that mentions the tables
 * in mask: the deepest group among them (the later one of two at the same
 * depth), moved up while a table it mentions is outside what that group's
 * ON can see (its parent group and what the parent nests); 0 = WHERE. */
static int conj_group(const ofrom *f, int ntabs, uint64_t mask) {
    int best = 0;
    for (int t = 0; t < ntabs; t++) {
        if (!(mask >> t & 1)) continue;
        int g = f->tg[t];
        if (f->g[g].depth > f->g[best].depth || (f->g[g].depth == f->g[best].depth && g > best))
            best = g;
    }
    while (best > 0) {
        int par = f->g[best].parent, seen = 1;
        for (int t = 0; t < ntabs && seen; t++)
            if (mask >> t & 1) seen = in_subtree(f, f->tg[t], par);
        if (seen) break;
        best = par;
    }
    return best;
}

static void and_to(sb *dst, const char *c) {
    if (dst->n) ixv_sb_add(dst, " AND ");
    ixv_sb_add(dst, c);
}

/* The own items of group g, ", " between them. */
static int group_own(px *p, scope *sc, const ogroup *g, sb *out) {
    for (int i = 0; i < g->nown; i++) {
        if (i) ixv_sb_add(out, ", ");
        if (g->chain[i] ? chain_sql(p, sc, g->chain[i], out) : tref_sql(p, sc, g->one[i], out))
            return -1;
    }
    return 0;
}

/* Group gi as FROM text: its own items, then each subgroup LEFT JOINed ON
 * its conditions (a group with no tables of its own starts with its first
 * subgroup, whose conditions go to sink). Groups other than 0 are
 * parenthesized when they hold more than one table. */
static int emit_group(px *p, scope *sc, const ofrom *f, int gi, sb *out, sb *sink) {
    const ogroup *g = &f->g[gi];
    int n = 0, rc = 0;
    for (int t = 0; t < sc->n; t++)
        n += in_subtree(f, f->tg[t], gi);
    int wrap = gi && n > 1, any = g->nown > 0;
    if (wrap) ixv_sb_addc(out, '(');
    if (any && group_own(p, sc, g, out)) return -1;
    for (int k = gi + 1; k < f->ng && !rc; k++) {
        if (f->g[k].parent != gi) continue;
        sb on = {0};
        if (f->g[k].on.n) ixv_sb_add(&on, f->g[k].on.p);
        if (!any) {
            rc = emit_group(p, sc, f, k, out, &on);
            if (on.n) and_to(sink, on.p);
            any = 1;
        } else {
            ixv_sb_add(out, " LEFT JOIN ");
            rc = emit_group(p, sc, f, k, out, &on);
            ixv_sb_printf(out, " ON %s", on.n ? on.p : "1");
        }
        ixv_sb_free(&on);
    }
    if (wrap) ixv_sb_addc(out, ')');
    return rc;
}

/* ---- the select list ------------------------------------------------------------------- */

static int col_named(const qres *q, const char *nm) {
    for (int j = 0; j < q->ncols; j++)
        if (!strcmp(q->cols[j].name, nm)) return 1;
    return 0;
}

/* The smallest k >= 2 for which no column of q is named label_k (one pass:
 * of n columns it is at most n + 2), or -1 out of memory. */
static int free_suffix(const qres *q, const char *label) {
    size_t l = strlen(label);
    int lim = q->ncols + 2;
    unsigned char *used = calloc((size_t)lim + 1, 1);
    if (!used) return -1;
    for (int j = 0; j < q->ncols; j++) {
        const char *nm = q->cols[j].name;
        if (strncmp(nm, label, l) || nm[l] != '_' || nm[l + 1] < '1' || nm[l + 1] > '9') continue;
        char *end;
        long v = strtol(nm + l + 1, &end, 10);
        if (!*end && v >= 2 && v <= lim) used[v] = 1;
    }
    int k = 2;
    while (k < lim && used[k])
        k++;
    free(used);
    return k;
}

static int add_col(px *p, qres *q, const char *label, ityp t, int notnull, int stored) {
    if (q->ncols >= IXS_MAX_COLS) return ixs_px_fail(p);
    ocol *nc = realloc(q->cols, sizeof(ocol) * (size_t)(q->ncols + 1));
    if (!nc) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    q->cols = nc;
    char nm[IXS_NAME_MAX + 24];
    snprintf(nm, sizeof nm, "%s", label);
    if (col_named(q, nm)) {
        int k = free_suffix(q, label);
        if (k < 0) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        snprintf(nm, sizeof nm, "%s_%d", label, k);
    }
    q->cols[q->ncols].name = strdup(nm);
    if (!q->cols[q->ncols].name) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (t.code < 0) t = ixv_t(IX_T_CHAR, 1);
    if (t.code == IX_T_TEXT || t.code == IX_T_BYTE) t.len = 56;
    q->cols[q->ncols].t = t;
    q->cols[q->ncols].notnull = notnull;
    q->cols[q->ncols].stored = stored;
    q->ncols++;
    return 0;
}

/* The clauses of one SELECT core as they are emitted. */
typedef struct {
    char *sql; /* its SQLite text */
    int col;   /* select item (0-based) or, in GROUP BY, the position given (1-based), else 0 */
} selref;

typedef struct {
    sb list, where, group, having;
    ofrom *from;
    int has_agg;
    selref *bare; /* select items that are a plain column of this query's tables */
    int nbare;
    selref *grp; /* the GROUP BY items */
    int ngrp;
} selout;

static int selref_add(px *p, selref **v, int *n, const char *sql, int col) {
    selref *nv = realloc(*v, sizeof **v * (size_t)(*n + 1));
    if (!nv) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    *v = nv;
    nv[*n].sql = strdup(sql ? sql : "");
    nv[*n].col = col;
    if (!nv[*n].sql) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    (*n)++;
    return 0;
}

static void selref_free(selref *v, int n) {
    for (int i = 0; i < n; i++)
        free(v[i].sql);
    free(v);
}

static void selout_free(selout *s) {
    ixs_sel_ofrom_free(s->from);
    ixv_sb_free(&s->list);
    ixv_sb_free(&s->where);
    ixv_sb_free(&s->group);
    ixv_sb_free(&s->having);
    selref_free(s->bare, s->nbare);
    selref_free(s->grp, s->ngrp);
}

/* Emits expression v as the next select column with its label. */
static int item_sql(px *p, qres *q, sb *list, xv *v, const char *alias) {
    if (v->t.code < 0 && v->k != XK_PARAM && v->k != XK_NULL) v->t = ixs_lit_type(v);
    if (v->k == XK_PARAM) ixs_to_type(p, v, ixv_t(IX_T_VARCHAR, 255));
    if (v->k == XK_PRED) v->t = ixv_t(IX_T_BOOLEAN, 1);
    if (p->failed) return -1;
    ixs_blanks_collate(v); /* DISTINCT, UNION, views and subqueries over it */
    const char *label = alias && *alias                      ? alias
                        : v->lk == LB_COL || v->lk == LB_AGG ? v->label
                        : v->lk == LB_CONST                  ? "(constant)"
                                                             : "(expression)";
    if (q->ncols) ixv_sb_add(list, ", ");
    size_t at = list->n;
    ixv_sb_add(list, v->s.p ? v->s.p : "NULL");
    ixs_row_out(p, list, at, v->t); /* a row is shown as its text */
    int stored = v->k == XK_COL && v->lk == LB_COL && v->stored;
    if (add_col(p, q, label, v->t, v->notnull, stored)) return -1;
    ixv_sb_add(list, " AS ");
    ixv_sb_ident(list, q->cols[q->ncols - 1].name);
    return 0;
}

/* Every column of table t (for * and t.*). */
static int star_cols(px *p, qres *q, sb *list, tref *t) {
    for (int ci = 0; ci < t->tab.ncols; ci++) {
        icol *c = &t->tab.cols[ci];
        if (q->ncols) ixv_sb_add(list, ", ");
        size_t at = list->n;
        ixv_sb_ident(list, t->alias);
        ixv_sb_addc(list, '.');
        ixv_sb_ident(list, c->name);
        ixs_row_out(p, list, at, c->t);
        ityp ty = c->serial == 1 ? ixv_t(IX_T_SERIAL, 4) : c->t;
        int stored = !t->derived && !t->tab.is_view;
        if (add_col(p, q, c->name, ty, c->notnull && !t->outer, stored)) return -1;
        ixv_sb_add(list, " AS ");
        ixv_sb_ident(list, q->cols[q->ncols - 1].name);
    }
    return 0;
}

/* expr [AS alias]: resolved in p->sc; a plain column of this query's
 * tables is remembered for the GROUP BY check. */
static int expr_item(px *p, qres *q, selout *s, const sel_item *it) {
    xv v;
    ixs_xv_init(&v);
    uint64_t refs = p->sc->refmask;
    p->sc->refmask = 0;
    int rc = ixs_ex_resolve(p, it->e) || ixs_ex_emit(p, it->e, &v);
    int local = p->sc->refmask != 0; /* names a column of this query's tables */
    p->sc->refmask |= refs;
    s->has_agg |= v.agg;
    if (!rc && v.lk == LB_COL && local) rc = selref_add(p, &s->bare, &s->nbare, v.s.p, q->ncols);
    if (!rc) rc = item_sql(p, q, &s->list, &v, it->alias);
    ixs_xv_free(&v);
    return rc ? -1 : 0;
}

static int list_sql(px *p, scope *sc, qres *q, selout *s, const sel_core *c) {
    for (int i = 0; i < c->nitems; i++) {
        const sel_item *it = &c->items[i];
        int rc = 0;
        if (it->kind == SI_STAR) {
            for (int ti = 0; ti < sc->n && !rc; ti++)
                rc = star_cols(p, q, &s->list, sc->t[ti]);
        } else if (it->kind == SI_TSTAR) {
            int ti = 0;
            while (ti < sc->n && strcmp(sc->t[ti]->alias, it->tname) &&
                   strcmp(sc->t[ti]->tab.name, it->tname))
                ti++;
            if (ti == sc->n) return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", it->tname);
            rc = star_cols(p, q, &s->list, sc->t[ti]);
        } else
            rc = expr_item(p, q, s, it);
        if (rc) return -1;
    }
    return 0;
}

/* ---- WHERE, GROUP BY, HAVING --------------------------------------------------------------- */

/* Each conjunct (by the tables it references, refmask) as the join
 * condition of an Informix OUTER group or into the WHERE. */
static int where_sql(px *p, scope *sc, const sel_core *c, selout *s) {
    for (int i = 0; i < c->nwhere; i++) {
        sc->refmask = 0;
        xv v;
        ixs_xv_init(&v);
        int r = ixs_ex_resolve(p, c->where[i].e) || ixs_ex_emit(p, c->where[i].e, &v);
        if (!r && v.k != XK_PRED && v.t.code != IX_T_BOOLEAN) {
            r = ixs_px_fail_at(p, c->where[i].end);
        }
        if (!r) {
            int g = s->from ? conj_group(s->from, sc->n, sc->refmask) : 0;
            and_to(g ? &s->from->g[g].on : &s->where, v.s.p);
        }
        ixs_xv_free(&v);
        if (r) return -1;
    }
    return 0;
}

static int group_sql(px *p, const qres *q, const sel_core *c, selout *s) {
    for (int i = 0; i < c->ngroup; i++) {
        const sel_gitem *g = &c->group[i];
        if (s->group.n) ixv_sb_add(&s->group, ", ");
        if (g->pos) {
            if (g->pos > q->ncols) {
                return ixs_px_fail_at(p, g->tok);
            }
            ixv_sb_printf(&s->group, "%d", g->pos);
            if (selref_add(p, &s->grp, &s->ngrp, "", g->pos)) return -1;
            continue;
        }
        xv v;
        ixs_xv_init(&v);
        int rc = ixs_ex_resolve(p, g->e) || ixs_ex_emit(p, g->e, &v);
        if (!rc) ixs_blanks_collate(&v);
        if (!rc) ixv_sb_add(&s->group, v.s.p ? v.s.p : "NULL");
        if (!rc) rc = selref_add(p, &s->grp, &s->ngrp, v.s.p, 0);
        ixs_xv_free(&v);
        if (rc) return -1;
    }
    return 0;
}

/* With aggregates or GROUP BY, a select item that is a plain column of the
 * query's tables must be in the GROUP BY list (by expression or position):
 * -294 "The column (%s) must be in the GROUP BY list." */
static int grouped_check(px *p, const qres *q, const selout *s) {
    if (!s->has_agg && !s->ngrp) return 0;
    for (int i = 0; i < s->nbare; i++) {
        int in = 0;
        for (int g = 0; g < s->ngrp && !in; g++)
            in = s->grp[g].col ? s->grp[g].col == s->bare[i].col + 1
                               : !strcmp(s->grp[g].sql, s->bare[i].sql);
        if (!in) return ixs_px_failc(p, IXS_E_NOT_GROUPED, "%s", q->cols[s->bare[i].col].name);
    }
    return 0;
}

static int having_sql(px *p, const sel_core *c, selout *s) {
    xv v;
    ixs_xv_init(&v);
    int rc = ixs_ex_resolve(p, c->having) || ixs_ex_emit(p, c->having, &v);
    if (!rc) ixv_sb_add(&s->having, v.s.p);
    ixs_xv_free(&v);
    return rc ? -1 : 0;
}

void ixs_sel_lim_sql(px *p, const sel_lim *l, sb *out) {
    if (!l->param) {
        ixv_sb_printf(out, "%lld", (long long)l->v);
        return;
    }
    ixv_sb_printf(out, "?%d", l->pidx + 1);
    if (l->pidx >= p->nparams) p->nparams = l->pidx + 1;
    if (p->ptypes[l->pidx].code < 0) p->ptypes[l->pidx] = ixv_t(IX_T_INTEGER, 4);
}

/* The SQLite SELECT of a resolved core into q->sql. */
static void core_sql(px *p, scope *sc, qres *q, const sel_core *c, selout *s) {
    if (p->rowid_want == 1 && p->depth == 1 && sc->n == 1 && !c->distinct && !s->has_agg &&
        !s->group.n)
        ixs_cursor_rowid(p, sc->t[0], &s->list);
    ixv_sb_add(&q->sql, c->distinct ? "SELECT DISTINCT " : "SELECT ");
    ixv_sb_add(&q->sql, s->list.p ? s->list.p : "NULL");
    if (s->from) {
        ixv_sb_add(&q->sql, " FROM ");
        if (emit_group(p, sc, s->from, 0, &q->sql, &s->where)) return;
    }
    if (s->where.n) ixv_sb_printf(&q->sql, " WHERE %s", s->where.p);
    if (s->group.n) ixv_sb_printf(&q->sql, " GROUP BY %s", s->group.p);
    if (s->having.n) ixv_sb_printf(&q->sql, " HAVING %s", s->having.p);
}

/* One core: FROM resolved into sc (whose enclosing scope is p->sc), then
 * the select list, WHERE, GROUP BY and HAVING in that scope. */
static int core_emit(px *p, scope *sc, qres *q, const sel_core *c) {
    selout s;
    memset(&s, 0, sizeof s);
    sc->up = p->sc;
    int rc = 0;
    if (c->from) {
        scope *save = p->sc;
        p->sc = sc;
        rc = ixs_sel_from_resolve(p, sc, c->from, &s.from);
        p->sc = save;
    }
    scope *save = p->sc;
    p->sc = sc;
    int olap = p->olap_ok;
    p->olap_ok = 1;
    if (!rc) rc = list_sql(p, sc, q, &s, c);
    p->olap_ok = 0;
    if (!rc) rc = where_sql(p, sc, c, &s);
    if (!rc) rc = group_sql(p, q, c, &s);
    if (!rc && c->having) rc = having_sql(p, c, &s);
    if (!rc) rc = grouped_check(p, q, &s);
    if (!rc) core_sql(p, sc, q, c, &s);
    p->olap_ok = olap;
    p->sc = save;
    selout_free(&s);
    return rc || p->failed ? -1 : 0;
}

/* ---- set operators ------------------------------------------------------------------------- */

/* The storage class of a numeric type ('i', 'd' or 'f'), 0 for others. */
static int num_class(int code) {
    return ixv_is_int(code) ? 'i' : ixv_is_dec(code) ? 'd' : ixv_is_float(code) ? 'f' : 0;
}

/* The result type of a column of a combined query: the first SELECT's,
 * CHAR lengths widened, integers widened to the DECIMAL or FLOAT of the
 * other side. */
static void set_merge(ocol *a, const ocol *b, int op) {
    a->stored = 0; /* rows of other SELECTs */
    if (ixv_is_char(a->t.code) && ixv_is_char(b->t.code) && b->t.len > a->t.len)
        a->t.len = b->t.len;
    if (ixv_is_int(a->t.code) && (ixv_is_dec(b->t.code) || ixv_is_float(b->t.code))) a->t = b->t;
    if (op == SO_UNION || op == SO_UNION_ALL)
        a->notnull &= b->notnull;
    else if (op == SO_INTERSECT)
        a->notnull |= b->notnull;
}

/* Operand q of a combined query as SQL into body: as it is, or, when a
 * numeric column is stored in another class than the result's (an INTEGER
 * against a DECIMAL), read through a conversion, so that INTERSECT, EXCEPT
 * and UNION's duplicate removal compare equal values as equal. */
static int set_operand(px *p, const qres *q, const qres *res, sb *body) {
    int wrap = 0;
    for (int i = 0; i < res->ncols; i++) {
        int a = num_class(q->cols[i].t.code), b = num_class(res->cols[i].t.code);
        wrap |= a && b && a != b;
    }
    if (!wrap) {
        ixv_sb_add(body, q->sql.p ? q->sql.p : "");
        return 0;
    }
    ixv_sb_add(body, "SELECT ");
    for (int i = 0; i < res->ncols; i++) {
        xv v;
        memset(&v, 0, sizeof v);
        v.pidx = -1;
        v.k = XK_COL;
        v.t = q->cols[i].t;
        ixv_sb_add(&v.s, "_o.");
        ixv_sb_ident(&v.s, q->cols[i].name);
        if (num_class(v.t.code) && num_class(res->cols[i].t.code))
            ixs_to_type(p, &v, res->cols[i].t);
        ixv_sb_printf(body, "%s%s AS ", i ? ", " : "", v.s.p);
        ixv_sb_ident(body, res->cols[i].name);
        ixs_xv_free(&v);
    }
    ixv_sb_printf(body, " FROM (%s) AS _o", q->sql.p);
    return p->failed ? -1 : 0;
}

static const char *const so_sql[] = {" UNION ", " UNION ALL ", " INTERSECT ", " EXCEPT "};

/* The cores after the first (out): each in a scope of its own, the result
 * column types merged, the combined SQL into body. INTERSECT and EXCEPT
 * (MINUS) return distinct rows; the operators apply left to right. */
static int set_sql(px *p, const ixs_sel *q, qres *out, sb *body) {
    int n = q->ncore - 1, rc = 0;
    qres *ops = calloc((size_t)(n ? n : 1), sizeof *ops), first = *out;
    first.cols = malloc(sizeof(ocol) * (size_t)(out->ncols ? out->ncols : 1));
    if (!ops || !first.cols) {
        free(ops);
        free(first.cols);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    if (out->ncols) memcpy(first.cols, out->cols, sizeof(ocol) * (size_t)out->ncols);
    for (int k = 0; k < n && !rc; k++) {
        scope sc2;
        memset(&sc2, 0, sizeof sc2);
        rc = core_emit(p, &sc2, &ops[k], &q->core[k + 1]);
        ixs_sel_scope_free(&sc2);
        if (!rc && ops[k].ncols != out->ncols) {
            rc = ixs_px_fail_at(p, q->core[k + 1].tok);
        }
        for (int i = 0; i < out->ncols && !rc; i++)
            set_merge(&out->cols[i], &ops[k].cols[i], q->op[k]);
    }
    if (!rc) rc = set_operand(p, &first, out, body);
    free(first.cols);
    for (int k = 0; k < n && !rc; k++) {
        ixv_sb_add(body, so_sql[q->op[k]]);
        rc = set_operand(p, &ops[k], out, body);
    }
    for (int k = 0; k < n; k++)
        ixs_qres_free(&ops[k]);
    free(ops);
    return rc;
}

/* ---- ORDER BY, LIMIT ----------------------------------------------------------------------- */

/* One ORDER BY item: a position, an output column's name, else (not after
 * a set operator) an expression of the first core's tables. */
static int order_item_sql(px *p, const ixs_sel *q, const sel_oitem *o, qres *out, sb *ord) {
    if (ord->n) ixv_sb_add(ord, ", ");
    int hit = o->pos;
    if (hit && hit > out->ncols) {
        return ixs_px_fail_at(p, o->tok);
    }
    for (int i = 0; !hit && o->name[0] && i < out->ncols; i++)
        if (!strcmp(out->cols[i].name, o->name)) hit = i + 1;
    ityp t;
    if (hit) {
        ixv_sb_printf(ord, "%d", hit);
        t = out->cols[hit - 1].t;
    } else {
        if (q->ncore > 1) {
            return ixs_px_fail_at(p, o->tok);
        }
        xv e;
        ixs_xv_init(&e);
        int rc = ixs_ex_resolve(p, o->e) || ixs_ex_emit(p, o->e, &e);
        if (!rc) ixv_sb_add(ord, e.s.p ? e.s.p : "NULL");
        t = e.t;
        ixs_xv_free(&e);
        if (rc) return -1;
    }
    if (ixs_row_order_check(p, t)) return -1;
    if (o->desc) ixv_sb_add(ord, " DESC");
    if (o->nulls) ixv_sb_add(ord, o->nulls == 'F' ? " NULLS FIRST" : " NULLS LAST");
    return 0;
}

static int order_sql(px *p, const ixs_sel *q, scope *sc0, qres *out, sb *body) {
    sb ord = {0};
    scope *save = p->sc;
    sc0->up = p->sc;
    p->sc = sc0;
    int olap = p->olap_ok, rc = 0;
    p->olap_ok = 1;
    for (int i = 0; i < q->norder && !rc; i++)
        rc = order_item_sql(p, q, &q->order[i], out, &ord);
    p->olap_ok = olap;
    p->sc = save;
    if (!rc) ixv_sb_printf(body, " ORDER BY %s", ord.p);
    ixv_sb_free(&ord);
    return rc;
}

/* LIMIT / OFFSET from the first core's FIRST and SKIP, a later LIMIT wins. */
static void limit_sql(px *p, const ixs_sel *q, sb *body) {
    const sel_lim *lim = q->limit.set ? &q->limit : &q->core[0].first, *off = &q->core[0].skip;
    if (!lim->set && !off->set) return;
    ixv_sb_add(body, " LIMIT ");
    if (lim->set)
        ixs_sel_lim_sql(p, lim, body);
    else
        ixv_sb_add(body, "-1");
    if (off->set) {
        ixv_sb_add(body, " OFFSET ");
        ixs_sel_lim_sql(p, off, body);
    }
}

int ixs_sel_emit(px *p, ixs_sel *q, qres *out) {
    memset(out, 0, sizeof *out);
    if (ixs_px_deeper(p)) {
        ixs_px_at(p, q->tok);
        return -1;
    }
    scope sc0;
    memset(&sc0, 0, sizeof sc0);
    sb body = {0};
    int rc = core_emit(p, &sc0, out, &q->core[0]);
    if (!rc) rc = set_sql(p, q, out, &body);
    if (!rc && q->norder) rc = order_sql(p, q, &sc0, out, &body);
    if (!rc) {
        limit_sql(p, q, &body);
        ixv_sb_free(&out->sql);
        ixv_sb_add(&out->sql, body.p ? body.p : "");
        if (out->sql.oom) rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    ixs_sel_scope_free(&sc0);
    ixv_sb_free(&body);
    p->depth--;
    return rc || p->failed ? -1 : 0;
}
