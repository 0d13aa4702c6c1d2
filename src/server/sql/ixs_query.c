/* ixs_query.c: SELECT (joins, Informix OUTER, GROUP BY, UNION, ORDER BY,
 * FIRST/SKIP/LIMIT, subqueries) and INSERT/UPDATE/DELETE translation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_parse.h"

void qres_free(qres *q) {
    sb_free(&q->sql);
    for (int i = 0; i < q->ncols; i++)
        free(q->cols[i].name);
    free(q->cols);
    memset(q, 0, sizeof *q);
}

tref *ixs_tref_new(px *p, const char *name, const char *alias) {
    tref *t = calloc(1, sizeof *t);
    if (!t) {
        px_failc(p, -208, NULL);
        return NULL;
    }
    int r = ixs_cat_table(p->db, name, &t->tab, p->err);
    if (r == 0 && p->syntax_only) { /* a table without columns */
        snprintf(t->tab.name, sizeof t->tab.name, "%s", name);
        r = 1;
    }
    if (r <= 0) {
        free(t);
        if (r == 0)
            px_failc(p, -206, "%s", name);
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

static void scope_free(scope *sc) {
    for (int i = 0; i < sc->n; i++)
        ixs_tref_free(sc->t[i]);
    sc->n = 0;
}

static const char *reserved[] = {"where", "group",   "order",  "having", "union",     "inner",
                                 "left",  "right",   "full",   "cross",  "join",      "on",
                                 "outer", "into",    "for",    "limit",  "skip",      "first",
                                 "from",  "natural", "with",   "select", "intersect", "except",
                                 "minus", "set",     "values", NULL};

static int is_reserved(px *p, int i) {
    for (int k = 0; reserved[k]; k++)
        if (px_kw(p, i, reserved[k])) return 1;
    return 0;
}

/* [db[@server]:][owner.]name (ixs_name.c) */
static int table_name(px *p, char *name, size_t n) {
    return px_objname(p, IXS_NAME_DB, name, n);
}

static int opt_alias(px *p, char *alias, size_t n) {
    alias[0] = 0;
    if (px_acc(p, "as")) return px_ident(p, alias, n);
    if (px_is_ident(p, p->i) && !is_reserved(p, p->i)) return px_ident(p, alias, n);
    return 0;
}

typedef struct fitem {
    sb sql;
    int outer;
    int tix; /* scope index of an OUTER table */
    sb on;   /* conjuncts moved to its ON */
} fitem;

static int add_tref(px *p, scope *sc, tref *t) {
    if (sc->n >= IXS_MAX_TABS) {
        ixs_tref_free(t);
        return px_fail(p);
    }
    for (int i = 0; i < sc->n; i++)
        if (!strcmp(sc->t[i]->alias, t->alias)) {
            /* the same table twice needs aliases */
            ixs_tref_free(t);
            return px_failc(p, -201, NULL);
        }
    sc->t[sc->n++] = t;
    return 0;
}

/* [(name, ...)] after a derived table's alias: new names of its columns,
 * as many as it has. */
static int derived_colnames(px *p, qres *q) {
    if (!px_acc_op(p, "(")) return 0;
    sb w = {0};
    sb_add(&w, "SELECT ");
    int k = 0;
    do {
        char c[IXS_NAME_MAX + 1];
        if (k >= q->ncols || px_newname(p, c, sizeof c)) {
            sb_free(&w);
            return px_fail(p);
        }
        char *d = strdup(c);
        if (!d) {
            sb_free(&w);
            return px_failc(p, -208, NULL);
        }
        if (k) sb_add(&w, ", ");
        sb_ident(&w, q->cols[k].name);
        sb_add(&w, " AS ");
        sb_ident(&w, d);
        free(q->cols[k].name);
        q->cols[k++].name = d;
    } while (px_acc_op(p, ","));
    sb_printf(&w, " FROM (%s)", q->sql.p ? q->sql.p : "");
    sb_free(&q->sql);
    q->sql = w;
    if (k != q->ncols) return px_fail(p);
    return w.oom ? px_failc(p, -208, NULL) : px_expect_op(p, ")");
}

/* A derived table: the query q (SELECT or table function), its alias. */
static int derived_ref(px *p, scope *sc, sb *out, int outer, qres q) {
    {
        char alias[IXS_NAME_MAX + 1];
        if (opt_alias(p, alias, sizeof alias) || (alias[0] && derived_colnames(p, &q))) {
            qres_free(&q);
            return -1;
        }
        if (!alias[0]) snprintf(alias, sizeof alias, "_d%d", sc->n);
        tref *t = calloc(1, sizeof *t);
        if (!t) {
            qres_free(&q);
            return px_failc(p, -208, NULL);
        }
        t->derived = 1;
        t->outer = outer;
        snprintf(t->alias, sizeof t->alias, "%s", alias);
        snprintf(t->tab.name, sizeof t->tab.name, "%s", alias);
        t->tab.cols = calloc((size_t)(q.ncols ? q.ncols : 1), sizeof(icol));
        if (!t->tab.cols) {
            free(t);
            qres_free(&q);
            return px_failc(p, -208, NULL);
        }
        t->tab.ncols = q.ncols;
        for (int i = 0; i < q.ncols; i++) {
            snprintf(t->tab.cols[i].name, sizeof t->tab.cols[i].name, "%s", q.cols[i].name);
            t->tab.cols[i].t = q.cols[i].t;
            t->tab.cols[i].colno = i + 1;
        }
        sb_printf(out, "(%s) AS ", q.sql.p);
        sb_ident(out, alias);
        qres_free(&q);
        p->depth--;
        return add_tref(p, sc, t);
    }
}

static int table_ref(px *p, scope *sc, sb *out, int outer) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    if (px_op(p, p->i, "(") && px_kw(p, p->i + 1, "select")) {
        p->i++;
        qres q;
        memset(&q, 0, sizeof q);
        int st;
        scope *save = p->sc;
        p->sc = sc->up;
        int rc = ixs_select_sub(p, &q, &st);
        p->sc = save;
        if (rc || px_expect_op(p, ")")) {
            qres_free(&q);
            return -1;
        }
        return derived_ref(p, sc, out, outer, q);
    }
    if (px_kw(p, p->i, "table") && px_op(p, p->i + 1, "(")) {
        qres q;
        memset(&q, 0, sizeof q);
        if (ixs_collfrom_at(p) ? ixs_collfrom(p, &q) : ixs_ts_from(p, &q)) {
            qres_free(&q);
            return -1;
        }
        return derived_ref(p, sc, out, outer, q);
    }
    if (px_op(p, p->i, "(")) {
        p->i++;
        sb_addc(out, '(');
        if (table_ref(p, sc, out, outer)) return -1;
        sb_addc(out, ')');
        p->depth--;
        return px_expect_op(p, ")");
    }
    char name[IXS_NAME_MAX + 1], alias[IXS_NAME_MAX + 1];
    if (table_name(p, name, sizeof name) || opt_alias(p, alias, sizeof alias)) return -1;
    tref *t = ixs_tref_new(p, name, alias);
    if (!t) return -1;
    t->outer = outer;
    sb_ident(out, t->tab.name); /* a synonym's table */
    if (strcmp(t->alias, t->tab.name)) {
        sb_add(out, " AS ");
        sb_ident(out, t->alias);
    }
    p->depth--;
    return add_tref(p, sc, t);
}

/* A FROM item with ANSI joins. */
static int join_chain(px *p, scope *sc, sb *out) {
    if (table_ref(p, sc, out, 0)) return -1;
    for (;;) {
        const char *jt = NULL;
        int nullable_left = 0, nullable_right = 0;
        int save = p->i;
        if (px_acc(p, "inner"))
            jt = "JOIN";
        else if (px_acc(p, "cross"))
            jt = "CROSS JOIN";
        else if (px_acc(p, "left")) {
            px_acc(p, "outer");
            jt = "LEFT JOIN";
            nullable_right = 1;
        } else if (px_acc(p, "right")) {
            px_acc(p, "outer");
            jt = "RIGHT JOIN";
            nullable_left = 1;
        } else if (px_acc(p, "full")) {
            px_acc(p, "outer");
            jt = "FULL JOIN";
            nullable_left = nullable_right = 1;
        }
        if (!px_acc(p, "join")) {
            if (jt) {
                p->i = save;
                return px_fail(p);
            }
            return 0;
        }
        if (!jt) jt = "JOIN";
        if (nullable_left)
            for (int i = 0; i < sc->n; i++)
                sc->t[i]->outer = 1;
        sb_printf(out, " %s ", jt);
        int first_new = sc->n;
        if (table_ref(p, sc, out, nullable_right)) return -1;
        (void)first_new;
        if (strcmp(jt, "CROSS JOIN") && px_acc(p, "on")) {
            xv c;
            scope *save_sc = p->sc;
            p->sc = sc;
            int rc = ixs_cond(p, &c);
            p->sc = save_sc;
            if (rc) {
                xv_free(&c);
                return -1;
            }
            sb_printf(out, " ON %s", c.s.p);
            xv_free(&c);
        } else if (strcmp(jt, "CROSS JOIN")) {
            return px_fail(p);
        }
    }
}

static int from_clause(px *p, scope *sc, fitem *items, int *nitems) {
    *nitems = 0;
    for (;;) {
        if (*nitems >= IXS_MAX_TABS) return px_fail(p);
        fitem *f = &items[(*nitems)++];
        memset(f, 0, sizeof *f);
        if (px_acc(p, "outer")) {
            if (px_op(p, p->i, "(") && !px_kw(p, p->i + 1, "select")) {
                return px_failc(p, -999, "OUTER (table list)");
            }
            f->outer = 1;
            f->tix = sc->n;
            if (table_ref(p, sc, &f->sql, 1)) return -1;
        } else {
            if (join_chain(p, sc, &f->sql)) return -1;
        }
        if (!px_acc_op(p, ",")) return 0;
    }
}

static void fitems_free(fitem *items, int n) {
    for (int i = 0; i < n; i++) {
        sb_free(&items[i].sql);
        sb_free(&items[i].on);
    }
}

static int add_col(px *p, qres *q, const char *label, ityp t, int notnull) {
    if (q->ncols >= IXS_MAX_COLS) return px_fail(p);
    ocol *nc = realloc(q->cols, sizeof(ocol) * (size_t)(q->ncols + 1));
    if (!nc) return px_failc(p, -208, NULL);
    q->cols = nc;
    char nm[IXS_NAME_MAX + 24];
    snprintf(nm, sizeof nm, "%s", label);
    for (int k = 2;; k++) {
        int dup = 0;
        for (int j = 0; j < q->ncols && !dup; j++)
            if (!strcmp(q->cols[j].name, nm)) dup = 1;
        if (!dup) break;
        snprintf(nm, sizeof nm, "%s_%d", label, k);
    }
    q->cols[q->ncols].name = strdup(nm);
    if (!q->cols[q->ncols].name) return px_failc(p, -208, NULL);
    if (t.code < 0) t = ixs_t(IX_T_CHAR, 1);
    if (t.code == IX_T_TEXT || t.code == IX_T_BYTE) t.len = 56;
    q->cols[q->ncols].t = t;
    q->cols[q->ncols].notnull = notnull;
    q->ncols++;
    return 0;
}

/* Emits expression v as select column i with its label. */
static int sel_item(px *p, qres *q, sb *list, xv *v, const char *alias) {
    if (v->t.code < 0 && v->k != XK_PARAM && v->k != XK_NULL) v->t = ixs_lit_type(v);
    if (v->k == XK_PARAM) ixs_to_type(p, v, ixs_t(IX_T_VARCHAR, 255));
    if (v->k == XK_PRED) v->t = ixs_t(IX_T_BOOLEAN, 1);
    if (p->failed) return -1;
    const char *label = alias && *alias                      ? alias
                        : v->lk == LB_COL || v->lk == LB_AGG ? v->label
                        : v->lk == LB_CONST                  ? "(constant)"
                                                             : "(expression)";
    if (q->ncols) sb_add(list, ", ");
    sb_add(list, v->s.p ? v->s.p : "NULL");
    if (add_col(p, q, label, v->t, v->notnull)) return -1;
    sb_add(list, " AS ");
    sb_ident(list, q->cols[q->ncols - 1].name);
    return 0;
}

static int limit_arg(px *p, sb *out) {
    if (p->i < p->nt && p->t[p->i].k == T_PARAM) {
        tok *t = &p->t[p->i++];
        sb_printf(out, "?%d", t->pidx + 1);
        if (t->pidx >= p->nparams) p->nparams = t->pidx + 1;
        if (p->ptypes[t->pidx].code < 0) p->ptypes[t->pidx] = ixs_t(IX_T_INTEGER, 4);
        return 0;
    }
    int64_t v;
    if (px_int(p, &v)) return -1;
    if (v < 0) return px_fail(p);
    sb_printf(out, "%lld", (long long)v);
    return 0;
}

/* One SELECT core. On return the scope (sc) holds the FROM tables. */
static int select_core(px *p, scope *sc, qres *q, sb *limit, sb *offset) {
    if (px_expect(p, "select")) return -1;
    for (;;) {
        if (px_acc(p, "skip")) {
            sb_free(offset);
            if (limit_arg(p, offset)) return -1;
        } else if (px_acc(p, "first") || px_acc(p, "limit")) {
            sb_free(limit);
            if (limit_arg(p, limit)) return -1;
        } else
            break;
    }
    int distinct = 0;
    if (px_acc(p, "distinct") || px_acc(p, "unique"))
        distinct = 1;
    else
        px_acc(p, "all");
    /* find FROM at depth 0 */
    int list_start = p->i, depth = 0, k = p->i;
    for (; k < p->nt && p->t[k].k != T_EOF; k++) {
        if (px_op(p, k, "("))
            depth++;
        else if (px_op(p, k, ")")) {
            if (--depth < 0) break;
        } else if (depth == 0 && (px_kw(p, k, "from") || px_kw(p, k, "union") ||
                                  px_kw(p, k, "order") || px_kw(p, k, "into")))
            break;
    }
    int list_end = k;
    fitem items[IXS_MAX_TABS];
    int nitems = 0;
    sc->up = p->sc;
    int rc = 0;
    if (px_kw(p, k, "from")) {
        p->i = k + 1;
        scope *save = p->sc;
        p->sc = sc;
        rc = from_clause(p, sc, items, &nitems);
        p->sc = save;
        if (rc) {
            fitems_free(items, nitems);
            return -1;
        }
    }
    int after_from = p->i;
    if (list_end == k && !px_kw(p, k, "from")) after_from = k;
    /* the select list */
    p->i = list_start;
    scope *save = p->sc;
    p->sc = sc;
    sb list = {0}, where = {0}, group = {0}, having = {0};
    int has_agg = 0;
    for (;;) {
        if (px_op(p, p->i, "*")) {
            p->i++;
            for (int ti = 0; ti < sc->n; ti++)
                for (int ci = 0; ci < sc->t[ti]->tab.ncols; ci++) {
                    icol *c = &sc->t[ti]->tab.cols[ci];
                    if (q->ncols) sb_add(&list, ", ");
                    sb_ident(&list, sc->t[ti]->alias);
                    sb_addc(&list, '.');
                    sb_ident(&list, c->name);
                    ityp t = c->serial == 1 ? ixs_t(IX_T_SERIAL, 4) : c->t;
                    if (add_col(p, q, c->name, t, c->notnull && !sc->t[ti]->outer)) goto fail;
                    sb_add(&list, " AS ");
                    sb_ident(&list, q->cols[q->ncols - 1].name);
                }
        } else if (px_is_ident(p, p->i) && px_op(p, p->i + 1, ".") && px_op(p, p->i + 2, "*")) {
            char a[IXS_NAME_MAX + 1];
            px_ident(p, a, sizeof a);
            p->i += 2;
            int found = 0;
            for (int ti = 0; ti < sc->n; ti++) {
                if (strcmp(sc->t[ti]->alias, a) && strcmp(sc->t[ti]->tab.name, a)) continue;
                found = 1;
                for (int ci = 0; ci < sc->t[ti]->tab.ncols; ci++) {
                    icol *c = &sc->t[ti]->tab.cols[ci];
                    if (q->ncols) sb_add(&list, ", ");
                    sb_ident(&list, sc->t[ti]->alias);
                    sb_addc(&list, '.');
                    sb_ident(&list, c->name);
                    ityp t = c->serial == 1 ? ixs_t(IX_T_SERIAL, 4) : c->t;
                    if (add_col(p, q, c->name, t, c->notnull && !sc->t[ti]->outer)) goto fail;
                    sb_add(&list, " AS ");
                    sb_ident(&list, q->cols[q->ncols - 1].name);
                }
                break;
            }
            if (!found) {
                px_failc(p, -206, "%s", a);
                goto fail;
            }
        } else {
            xv v;
            if (ixs_expr(p, &v)) {
                xv_free(&v);
                goto fail;
            }
            has_agg |= v.agg;
            char alias[IXS_NAME_MAX + 1] = "";
            if (p->i < list_end && !px_op(p, p->i, ",")) {
                if (opt_alias(p, alias, sizeof alias)) {
                    xv_free(&v);
                    goto fail;
                }
                if (!alias[0]) {
                    xv_free(&v);
                    px_fail(p);
                    goto fail;
                }
            }
            rc = sel_item(p, q, &list, &v, alias);
            xv_free(&v);
            if (rc) goto fail;
        }
        if (p->i < list_end && px_acc_op(p, ",")) continue;
        break;
    }
    if (p->i != list_end) {
        px_fail(p);
        goto fail;
    }
    p->i = after_from;
    /* WHERE: conjuncts, split for Informix OUTER tables */
    if (px_acc(p, "where")) {
        /* conjuncts, split for Informix OUTER tables; a top-level OR makes
         * the whole condition one conjunct */
        int wstart = p->i, whole = 0;
        sb saved_on[IXS_MAX_TABS];
        for (;;) {
            for (int i = 0; i < nitems; i++)
                saved_on[i] = items[i].on;
            int ok = 1;
            sb_free(&where);
            for (int i = 0; i < nitems; i++)
                memset(&items[i].on, 0, sizeof(sb));
            for (;;) {
                sc->refmask = 0;
                xv c;
                int r = whole ? ixs_cond(p, &c) : ixs_conj(p, &c);
                if (r) {
                    xv_free(&c);
                    ok = -1;
                    break;
                }
                if (c.k != XK_PRED && c.t.code != IX_T_BOOLEAN) {
                    xv_free(&c);
                    px_fail(p);
                    ok = -1;
                    break;
                }
                uint64_t m = sc->refmask;
                int placed = 0;
                for (int i = 0; i < nitems && m; i++) {
                    if (!items[i].outer) continue;
                    uint64_t bit = (uint64_t)1 << items[i].tix;
                    if (m & bit) {
                        if (items[i].on.n) sb_add(&items[i].on, " AND ");
                        sb_add(&items[i].on, c.s.p);
                        placed = 1;
                        break;
                    }
                }
                if (!placed) {
                    if (where.n) sb_add(&where, " AND ");
                    sb_add(&where, c.s.p);
                }
                xv_free(&c);
                if (whole || !px_acc(p, "and")) break;
            }
            for (int i = 0; i < nitems; i++)
                sb_free(&saved_on[i]);
            if (ok < 0) goto fail;
            if (!whole && px_kw(p, p->i, "or")) {
                whole = 1;
                p->i = wstart;
                continue;
            }
            break;
        }
    }
    if (px_acc(p, "group")) {
        if (px_expect(p, "by")) goto fail;
        for (;;) {
            if (group.n) sb_add(&group, ", ");
            if (p->i < p->nt && p->t[p->i].k == T_INT) {
                int64_t pos;
                px_int(p, &pos);
                if (pos < 1 || pos > q->ncols) {
                    px_fail(p);
                    goto fail;
                }
                sb_printf(&group, "%lld", (long long)pos);
            } else {
                xv g;
                if (ixs_expr(p, &g)) {
                    xv_free(&g);
                    goto fail;
                }
                sb_add(&group, g.s.p ? g.s.p : "NULL");
                xv_free(&g);
            }
            if (!px_acc_op(p, ",")) break;
        }
    }
    if (px_acc(p, "having")) {
        xv h;
        if (ixs_cond(p, &h)) {
            xv_free(&h);
            goto fail;
        }
        sb_add(&having, h.s.p);
        xv_free(&h);
    }
    (void)has_agg;
    p->sc = save;
    /* assemble */
    sb_add(&q->sql, distinct ? "SELECT DISTINCT " : "SELECT ");
    sb_add(&q->sql, list.p ? list.p : "NULL");
    if (nitems) {
        sb_add(&q->sql, " FROM ");
        int first = 1;
        for (int i = 0; i < nitems; i++) {
            if (items[i].outer) continue;
            if (!first) sb_add(&q->sql, ", ");
            sb_add(&q->sql, items[i].sql.p);
            first = 0;
        }
        for (int i = 0; i < nitems; i++) {
            if (!items[i].outer) continue;
            if (first) {
                sb_add(&q->sql, items[i].sql.p);
                first = 0;
                if (items[i].on.n) {
                    if (where.n) sb_add(&where, " AND ");
                    sb_add(&where, items[i].on.p);
                }
                continue;
            }
            sb_printf(&q->sql, " LEFT JOIN %s ON %s", items[i].sql.p,
                      items[i].on.n ? items[i].on.p : "1");
        }
    }
    if (where.n) sb_printf(&q->sql, " WHERE %s", where.p);
    if (group.n) sb_printf(&q->sql, " GROUP BY %s", group.p);
    if (having.n) sb_printf(&q->sql, " HAVING %s", having.p);
    fitems_free(items, nitems);
    sb_free(&list);
    sb_free(&where);
    sb_free(&group);
    sb_free(&having);
    return p->failed ? -1 : 0;
fail:
    p->sc = save;
    fitems_free(items, nitems);
    sb_free(&list);
    sb_free(&where);
    sb_free(&group);
    sb_free(&having);
    return -1;
}

int ixs_select_sub(px *p, qres *out, int *start) {
    *start = p->i;
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    memset(out, 0, sizeof *out);
    scope sc0;
    memset(&sc0, 0, sizeof sc0);
    sb limit = {0}, offset = {0}, body = {0};
    int rc = select_core(p, &sc0, out, &limit, &offset);
    if (rc) goto done;
    sb_add(&body, out->sql.p ? out->sql.p : "");
    int nunion = 0;
    while (px_kw(p, p->i, "union")) {
        p->i++;
        int all = px_acc(p, "all");
        qres q2;
        memset(&q2, 0, sizeof q2);
        scope sc2;
        memset(&sc2, 0, sizeof sc2);
        sb l2 = {0}, o2 = {0};
        rc = select_core(p, &sc2, &q2, &l2, &o2);
        scope_free(&sc2);
        sb_free(&l2);
        sb_free(&o2);
        if (!rc && q2.ncols != out->ncols) rc = px_fail(p);
        if (!rc) {
            for (int i = 0; i < out->ncols; i++) {
                ityp *a = &out->cols[i].t, b = q2.cols[i].t;
                if (ixs_is_char(a->code) && ixs_is_char(b.code) && b.len > a->len) a->len = b.len;
                if (ixs_is_int(a->code) && (ixs_is_dec(b.code) || ixs_is_float(b.code))) *a = b;
                out->cols[i].notnull &= q2.cols[i].notnull;
            }
            sb_printf(&body, " UNION %s%s", all ? "ALL " : "", q2.sql.p);
        }
        qres_free(&q2);
        nunion++;
        if (rc) goto done;
    }
    if (px_acc(p, "order")) {
        if (px_expect(p, "by")) {
            rc = -1;
            goto done;
        }
        sb ord = {0};
        scope *save = p->sc;
        sc0.up = p->sc;
        p->sc = &sc0;
        for (;;) {
            if (ord.n) sb_add(&ord, ", ");
            int done_item = 0;
            if (p->i < p->nt && p->t[p->i].k == T_INT) {
                int64_t pos;
                px_int(p, &pos);
                if (pos < 1 || pos > out->ncols) {
                    rc = px_fail(p);
                    break;
                }
                sb_printf(&ord, "%lld", (long long)pos);
                done_item = 1;
            } else if (px_is_ident(p, p->i) && !px_op(p, p->i + 1, ".") &&
                       !px_op(p, p->i + 1, "(")) {
                char nm[IXS_NAME_MAX + 1];
                int at = p->i;
                px_ident(p, nm, sizeof nm);
                int hit = 0;
                for (int i = 0; i < out->ncols; i++)
                    if (!strcmp(out->cols[i].name, nm)) {
                        hit = i + 1;
                        break;
                    }
                int endish = p->i >= p->nt || p->t[p->i].k == T_EOF || px_op(p, p->i, ",") ||
                             px_kw(p, p->i, "asc") || px_kw(p, p->i, "desc") ||
                             px_kw(p, p->i, "nulls") || px_kw(p, p->i, "limit") ||
                             px_op(p, p->i, ")") || px_kw(p, p->i, "for") ||
                             px_kw(p, p->i, "into") || px_op(p, p->i, ";");
                if (hit && endish) {
                    sb_printf(&ord, "%d", hit);
                    done_item = 1;
                } else
                    p->i = at;
            }
            if (!done_item) {
                if (nunion) {
                    rc = px_fail(p);
                    break;
                }
                xv e;
                if (ixs_expr(p, &e)) {
                    xv_free(&e);
                    rc = -1;
                    break;
                }
                sb_add(&ord, e.s.p ? e.s.p : "NULL");
                xv_free(&e);
            }
            if (px_acc(p, "desc"))
                sb_add(&ord, " DESC");
            else
                px_acc(p, "asc");
            if (px_acc(p, "nulls")) {
                if (px_acc(p, "first"))
                    sb_add(&ord, " NULLS FIRST");
                else if (px_acc(p, "last"))
                    sb_add(&ord, " NULLS LAST");
                else {
                    rc = px_fail(p);
                    break;
                }
            }
            if (!px_acc_op(p, ",")) break;
        }
        p->sc = save;
        if (!rc) sb_printf(&body, " ORDER BY %s", ord.p);
        sb_free(&ord);
        if (rc) goto done;
    }
    if (px_acc(p, "limit")) {
        sb_free(&limit);
        if (limit_arg(p, &limit)) {
            rc = -1;
            goto done;
        }
    }
    if (limit.n || offset.n)
        sb_printf(&body, " LIMIT %s%s%s", limit.n ? limit.p : "-1", offset.n ? " OFFSET " : "",
                  offset.n ? offset.p : "");
    if (px_acc(p, "for")) {
        if (px_acc(p, "update")) {
            if (px_acc(p, "of")) {
                char c[IXS_NAME_MAX + 1];
                do {
                    if (px_ident(p, c, sizeof c)) {
                        rc = -1;
                        goto done;
                    }
                } while (px_acc_op(p, ","));
            }
        } else if (px_acc(p, "read")) {
            if (px_expect(p, "only")) {
                rc = -1;
                goto done;
            }
        } else {
            rc = px_fail(p);
            goto done;
        }
    }
    sb_free(&out->sql);
    sb_add(&out->sql, body.p ? body.p : "");
    if (out->sql.oom) rc = px_failc(p, -208, NULL);
done:
    scope_free(&sc0);
    sb_free(&limit);
    sb_free(&offset);
    sb_free(&body);
    p->depth--;
    return rc || p->failed ? -1 : 0;
}

int ixs_select(px *p, qres *out) {
    int st;
    return ixs_select_sub(p, out, &st);
}

/* ---- INSERT / UPDATE / DELETE ---------------------------------------------------------- */

static int set_desc_cols(px *p, ixd_stmt *s, icol **cols, int n) {
    s->cols = calloc((size_t)(n ? n : 1), sizeof(ocol));
    if (!s->cols) return px_failc(p, -208, NULL);
    for (int i = 0; i < n; i++) {
        s->cols[i].name = strdup(cols[i]->name);
        if (!s->cols[i].name) return px_failc(p, -208, NULL);
        s->cols[i].t = cols[i]->serial == 1 ? ixs_t(IX_T_SERIAL, 4) : cols[i]->t;
        if (s->cols[i].t.code == IX_T_TEXT || s->cols[i].t.code == IX_T_BYTE) s->cols[i].t.len = 56;
        s->cols[i].notnull = cols[i]->notnull;
        s->ncols = i + 1;
    }
    return 0;
}

static icol *find_tcol(tref *t, const char *name) {
    for (int i = 0; i < t->tab.ncols; i++)
        if (!strcmp(t->tab.cols[i].name, name)) return &t->tab.cols[i];
    return NULL;
}

static void serial_wrap(px *p, tref *t, icol *c, xv *v, sb *out) {
    (void)p;
    sb_printf(out, "ixd_serial(%d,%d,%s)", t->tab.tabid, c->serial, v ? v->s.p : "NULL");
}

static int do_insert(px *p, ixd_stmt *s) {
    char name[IXS_NAME_MAX + 1];
    if (px_expect(p, "into") || table_name(p, name, sizeof name)) return -1;
    tref *t = ixs_tref_new(p, name, NULL);
    if (!t) return -1;
    snprintf(s->table, sizeof s->table, "%s", t->tab.name);
    int rc = -1;
    icol **cols = calloc((size_t)t->tab.ncols + 1, sizeof(icol *));
    int nc = 0;
    sb sql = {0};
    qres q;
    memset(&q, 0, sizeof q);
    if (!cols) {
        px_failc(p, -208, NULL);
        goto out;
    }
    if (t->tab.is_view && !ixs_view_updatable(p->db, t->tab.name)) {
        px_failc(p, IXS_E_VIEW_READONLY, "%s", t->tab.name);
        goto out;
    }
    if (px_acc_op(p, "(")) {
        do {
            char cn[IXS_NAME_MAX + 1];
            if (px_ident(p, cn, sizeof cn)) goto out;
            icol *c = find_tcol(t, cn);
            if (!c) {
                px_failc(p, -217, "%s", cn);
                goto out;
            }
            for (int i = 0; i < nc; i++)
                if (cols[i] == c) {
                    px_fail(p);
                    goto out;
                }
            if (nc >= t->tab.ncols) {
                px_fail(p);
                goto out;
            }
            cols[nc++] = c;
        } while (px_acc_op(p, ","));
        if (px_expect_op(p, ")")) goto out;
    } else {
        for (int i = 0; i < t->tab.ncols; i++)
            cols[nc++] = &t->tab.cols[i];
    }
    if (set_desc_cols(p, s, cols, nc)) goto out;
    sb_add(&sql, "INSERT INTO ");
    sb_ident(&sql, t->tab.name);
    sb_addc(&sql, '(');
    for (int i = 0; i < nc; i++) {
        if (i) sb_addc(&sql, ',');
        sb_ident(&sql, cols[i]->name);
    }
    /* serial columns that were not listed */
    int extra[8], nextra = 0;
    for (int i = 0; i < t->tab.ncols && nextra < 8; i++) {
        if (!t->tab.cols[i].serial) continue;
        int listed = 0;
        for (int k = 0; k < nc; k++)
            if (cols[k] == &t->tab.cols[i]) listed = 1;
        if (!listed) {
            extra[nextra++] = i;
            sb_addc(&sql, ',');
            sb_ident(&sql, t->tab.cols[i].name);
        }
    }
    sb_add(&sql, ") ");
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.up = NULL;
    scope *save = p->sc;
    if (px_acc(p, "values")) {
        p->sc = &sc;
        if (px_expect_op(p, "(")) {
            p->sc = save;
            goto out;
        }
        sb_add(&sql, "VALUES(");
        int nv = 0;
        for (;;) {
            xv v;
            if (ixs_expr(p, &v)) {
                xv_free(&v);
                p->sc = save;
                goto out;
            }
            if (nv >= nc) {
                xv_free(&v);
                p->sc = save;
                px_failc(p, -236, NULL);
                goto out;
            }
            if (v.k == XK_PRED) v.t = ixs_t(IX_T_BOOLEAN, 1);
            ixs_to_type(p, &v, cols[nv]->t);
            if (p->failed) {
                xv_free(&v);
                p->sc = save;
                goto out;
            }
            if (nv) sb_addc(&sql, ',');
            if (cols[nv]->serial)
                serial_wrap(p, t, cols[nv], &v, &sql);
            else
                sb_add(&sql, v.s.p ? v.s.p : "NULL");
            xv_free(&v);
            nv++;
            if (!px_acc_op(p, ",")) break;
        }
        p->sc = save;
        if (px_expect_op(p, ")")) goto out;
        if (nv != nc) {
            px_failc(p, -236, NULL);
            goto out;
        }
        for (int i = 0; i < nextra; i++) {
            sb_addc(&sql, ',');
            serial_wrap(p, t, &t->tab.cols[extra[i]], NULL, &sql);
        }
        sb_addc(&sql, ')');
    } else if (px_kw(p, p->i, "select") || px_op(p, p->i, "(")) {
        int paren = px_acc_op(p, "(");
        int st;
        if (ixs_select_sub(p, &q, &st)) goto out;
        if (paren && px_expect_op(p, ")")) goto out;
        if (q.ncols != nc) {
            px_failc(p, -236, NULL);
            goto out;
        }
        sb_add(&sql, "SELECT ");
        for (int i = 0; i < nc; i++) {
            xv v;
            memset(&v, 0, sizeof v);
            v.pidx = -1;
            sb_add(&v.s, "_s.");
            sb_ident(&v.s, q.cols[i].name);
            v.t = q.cols[i].t;
            v.k = XK_COL;
            ixs_to_type(p, &v, cols[i]->t);
            if (i) sb_addc(&sql, ',');
            if (cols[i]->serial)
                serial_wrap(p, t, cols[i], &v, &sql);
            else
                sb_add(&sql, v.s.p);
            xv_free(&v);
        }
        for (int i = 0; i < nextra; i++) {
            sb_addc(&sql, ',');
            serial_wrap(p, t, &t->tab.cols[extra[i]], NULL, &sql);
        }
        sb_printf(&sql, " FROM (%s) AS _s", q.sql.p);
    } else {
        px_fail(p);
        goto out;
    }
    if (p->failed) goto out;
    s->sqlite_sql = sb_take(&sql);
    if (!s->sqlite_sql) {
        px_failc(p, -208, NULL);
        goto out;
    }
    rc = 0;
out:
    qres_free(&q);
    sb_free(&sql);
    free(cols);
    ixs_tref_free(t);
    return rc;
}

static int where_clause(px *p, sb *sql, ixd_stmt *s) {
    if (!px_acc(p, "where")) {
        /* sqlstype: UPDATE/DELETE without WHERE */
        if (s->stype == IX_STMTTYPE_DELETE) s->stype = IX_STMTTYPE_DELETE_ALL;
        if (s->stype == IX_STMTTYPE_UPDATE) s->stype = IX_STMTTYPE_UPDATE_ALL;
        return 0;
    }
    if (px_acc(p, "current")) return px_failc(p, -999, "WHERE CURRENT OF");
    xv c;
    if (ixs_cond(p, &c)) {
        xv_free(&c);
        return -1;
    }
    sb_printf(sql, " WHERE %s", c.s.p);
    xv_free(&c);
    return 0;
}

static int do_update(px *p, ixd_stmt *s) {
    char name[IXS_NAME_MAX + 1];
    if (table_name(p, name, sizeof name)) return -1;
    tref *t = ixs_tref_new(p, name, NULL);
    if (!t) return -1;
    snprintf(s->table, sizeof s->table, "%s", t->tab.name);
    int rc = -1;
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = t;
    sc.n = 1;
    scope *save = p->sc;
    p->sc = &sc;
    sb sql = {0};
    icol **cols = calloc((size_t)t->tab.ncols + 1, sizeof(icol *));
    int nc = 0;
    if (!cols) {
        px_failc(p, -208, NULL);
        goto out;
    }
    if (t->tab.is_view && !ixs_view_updatable(p->db, t->tab.name)) {
        px_failc(p, IXS_E_VIEW_READONLY, "%s", t->tab.name);
        goto out;
    }
    if (px_expect(p, "set")) goto out;
    sb_add(&sql, "UPDATE ");
    sb_ident(&sql, t->tab.name);
    if (strcmp(t->alias, t->tab.name)) { /* a synonym: its name qualifies columns */
        sb_add(&sql, " AS ");
        sb_ident(&sql, t->alias);
    }
    sb_add(&sql, " SET ");
    if (px_op(p, p->i, "(") || px_op(p, p->i, "*")) {
        if (px_acc_op(p, "*")) {
            for (int i = 0; i < t->tab.ncols; i++)
                cols[nc++] = &t->tab.cols[i];
        } else {
            p->i++;
            do {
                char cn[IXS_NAME_MAX + 1];
                if (px_ident(p, cn, sizeof cn)) goto out;
                icol *c = find_tcol(t, cn);
                if (!c) {
                    px_failc(p, -217, "%s", cn);
                    goto out;
                }
                if (nc >= t->tab.ncols) {
                    px_fail(p);
                    goto out;
                }
                cols[nc++] = c;
            } while (px_acc_op(p, ","));
            if (px_expect_op(p, ")")) goto out;
        }
        if (px_expect_op(p, "=") || px_expect_op(p, "(")) goto out;
        for (int i = 0; i < nc; i++) {
            if (i && px_expect_op(p, ",")) goto out;
            xv v;
            if (ixs_expr(p, &v)) {
                xv_free(&v);
                goto out;
            }
            ixs_to_type(p, &v, cols[i]->t);
            if (i) sb_add(&sql, ", ");
            sb_ident(&sql, cols[i]->name);
            sb_printf(&sql, " = %s", v.s.p ? v.s.p : "NULL");
            xv_free(&v);
            if (p->failed) goto out;
        }
        if (px_expect_op(p, ")")) goto out;
    } else {
        for (;;) {
            char cn[IXS_NAME_MAX + 1];
            if (px_ident(p, cn, sizeof cn)) goto out;
            if (px_acc_op(p, ".")) { /* t.col */
                if (px_ident(p, cn, sizeof cn)) goto out;
            }
            icol *c = find_tcol(t, cn);
            if (!c) {
                px_failc(p, -217, "%s", cn);
                goto out;
            }
            if (nc >= t->tab.ncols) {
                px_fail(p);
                goto out;
            }
            cols[nc++] = c;
            if (px_expect_op(p, "=")) goto out;
            xv v;
            if (ixs_expr(p, &v)) {
                xv_free(&v);
                goto out;
            }
            if (v.k == XK_PRED) v.t = ixs_t(IX_T_BOOLEAN, 1);
            ixs_to_type(p, &v, c->t);
            if (nc > 1) sb_add(&sql, ", ");
            sb_ident(&sql, c->name);
            sb_printf(&sql, " = %s", v.s.p ? v.s.p : "NULL");
            xv_free(&v);
            if (p->failed) goto out;
            if (!px_acc_op(p, ",")) break;
        }
    }
    if (set_desc_cols(p, s, cols, nc)) goto out;
    if (where_clause(p, &sql, s)) goto out;
    s->sqlite_sql = sb_take(&sql);
    if (!s->sqlite_sql) {
        px_failc(p, -208, NULL);
        goto out;
    }
    rc = 0;
out:
    p->sc = save;
    sb_free(&sql);
    free(cols);
    ixs_tref_free(t);
    return rc;
}

static int do_delete(px *p, ixd_stmt *s) {
    px_acc(p, "from");
    char name[IXS_NAME_MAX + 1];
    if (table_name(p, name, sizeof name)) return -1;
    tref *t = ixs_tref_new(p, name, NULL);
    if (!t) return -1;
    snprintf(s->table, sizeof s->table, "%s", t->tab.name);
    int rc = -1;
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = t;
    sc.n = 1;
    scope *save = p->sc;
    p->sc = &sc;
    sb sql = {0};
    if (t->tab.is_view && !ixs_view_updatable(p->db, t->tab.name)) {
        px_failc(p, IXS_E_VIEW_READONLY, "%s", t->tab.name);
        goto out;
    }
    sb_add(&sql, "DELETE FROM ");
    sb_ident(&sql, t->tab.name);
    if (strcmp(t->alias, t->tab.name)) { /* a synonym: its name qualifies columns */
        sb_add(&sql, " AS ");
        sb_ident(&sql, t->alias);
    }
    if (where_clause(p, &sql, s)) goto out;
    s->sqlite_sql = sb_take(&sql);
    if (!s->sqlite_sql) {
        px_failc(p, -208, NULL);
        goto out;
    }
    rc = 0;
out:
    p->sc = save;
    sb_free(&sql);
    ixs_tref_free(t);
    return rc;
}

int ixs_dml(px *p, ixd_stmt *s) {
    if (px_acc(p, "insert")) {
        s->stype = IX_STMTTYPE_INSERT;
        return do_insert(p, s);
    }
    if (px_acc(p, "update")) {
        s->stype = IX_STMTTYPE_UPDATE;
        return do_update(p, s);
    }
    if (px_acc(p, "delete")) {
        s->stype = IX_STMTTYPE_DELETE;
        return do_delete(p, s);
    }
    return px_fail(p);
}
