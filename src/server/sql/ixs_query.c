/* ixs_query.c: SELECT (joins, Informix OUTER, GROUP BY, UNION, ORDER BY,
 * FIRST/SKIP/LIMIT, subqueries) and INSERT/UPDATE/DELETE translation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_parse.h"

enum {
    IXS_E_SUBQUERY_ROWS = -284, /* A subquery has returned not exactly one row. */
};

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
        if (px_kw_str(p, i, reserved[k])) return 1;
    return 0;
}

/* [db[@server]:][owner.]name (ixs_name.c) */
static int table_name(px *p, char *name, size_t n) {
    return px_objname(p, IXS_NAME_DB, name, n);
}

/* opt_alias := [ AS ] alias | alias (a word not reserved after a table) | (nothing) */
static int opt_alias(px *p, char *alias, size_t n) {
    alias[0] = 0;
    if (px_acc(p, IXK_AS)) return px_ident(p, alias, n);
    if (px_is_ident(p, p->i) && !is_reserved(p, p->i)) return px_ident(p, alias, n);
    return 0;
}

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

static int join_chain(px *p, scope *sc, sb *out, int outer);

/* coll_table := TABLE ( collection_expr ) [[AS] alias [( column )]]
 * A collection-derived table: the elements of a collection as rows of one
 * column (named column, else after the collection's column, else
 * "(expression)"). collection_expr: a collection column (one of an outer
 * query makes it correlated), a literal, or a subquery that returns one
 * collection. */
static int coll_table_ref(px *p, scope *sc, sb *out, int outer) {
    p->i += 2;
    xv v;
    scope *save = p->sc;
    p->sc = sc->up; /* not lateral: the FROM list's own tables are not visible */
    int rc = ixs_expr(p, &v);
    p->sc = save;
    if (!rc) rc = ixs_coll_typed(p, &v);
    if (!rc) rc = px_expect_op(p, ")");
    char alias[IXS_NAME_MAX + 1], col[IXS_NAME_MAX + 1];
    snprintf(col, sizeof col, "%s", v.lk == LB_COL ? v.label : "(expression)");
    if (!rc) rc = opt_alias(p, alias, sizeof alias);
    if (!rc && alias[0] && px_acc_op(p, "("))
        rc = px_ident(p, col, sizeof col) || px_expect_op(p, ")");
    tref *t = rc ? NULL : calloc(1, sizeof *t);
    if (!rc && (!t || !(t->tab.cols = calloc(1, sizeof(icol))))) rc = px_failc(p, -208, NULL);
    if (rc) {
        if (t) free(t);
        xv_free(&v);
        return -1;
    }
    if (!alias[0]) snprintf(alias, sizeof alias, "_d%d", sc->n);
    t->derived = 1;
    t->outer = outer;
    snprintf(t->alias, sizeof t->alias, "%s", alias);
    snprintf(t->tab.name, sizeof t->tab.name, "%s", alias);
    t->tab.ncols = 1;
    snprintf(t->tab.cols[0].name, sizeof t->tab.cols[0].name, "%s", col);
    t->tab.cols[0].t = ixs_coll_elem(v.t);
    t->tab.cols[0].notnull = 1;
    t->tab.cols[0].colno = 1;
    sb_add(out, "(SELECT value AS ");
    sb_ident(out, col);
    sb_printf(out, " FROM ixd_coll_each(%s,%d,%u)) AS ", v.s.p, v.t.code, v.t.len);
    sb_ident(out, alias);
    xv_free(&v);
    p->depth--;
    return add_tref(p, sc, t);
}

/* "(" select ")" derived_tail (after the "("): a derived table; the query
 * sees the enclosing query's tables, not the FROM list's. */
static int derived_select(px *p, scope *sc, sb *out, int outer) {
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

/* table_name opt_alias : a table, view or synonym of the FROM list */
static int named_table_ref(px *p, scope *sc, sb *out, int outer) {
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

/* table_ref := "(" select ")" derived_tail
 *            | coll_table
 *            | TABLE "(" [ FUNCTION ] name "(" args ")" ")" derived_tail   (ixs_ts_from)
 *            | "(" join_chain ")"
 *            | table_name opt_alias
 * derived_tail := opt_alias [ "(" column { "," column } ")" ] */
static int table_ref(px *p, scope *sc, sb *out, int outer) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    if (px_op(p, p->i, "(") && px_kw(p, p->i + 1, IXK_SELECT)) {
        p->i++;
        return derived_select(p, sc, out, outer);
    }
    if (px_kw(p, p->i, IXK_TABLE) && px_op(p, p->i + 1, "(") && !px_kw(p, p->i + 2, IXK_FUNCTION) &&
        !(px_is_ident(p, p->i + 2) && px_op(p, p->i + 3, "(")))
        return coll_table_ref(p, sc, out, outer);
    if (px_kw(p, p->i, IXK_TABLE) && px_op(p, p->i + 1, "(")) {
        qres q;
        memset(&q, 0, sizeof q);
        if (ixs_ts_from(p, &q)) {
            qres_free(&q);
            return -1;
        }
        return derived_ref(p, sc, out, outer, q);
    }
    if (px_op(p, p->i, "(")) {
        /* ( join_chain ): parentheses kept around a join only (SQLite
         * hides the alias of one parenthesized table from later ONs) */
        p->i++;
        int t0 = sc->n;
        sb in = {0};
        int rc = join_chain(p, sc, &in, outer);
        if (!rc) sb_printf(out, sc->n - t0 > 1 ? "(%s)" : "%s", in.p);
        sb_free(&in);
        p->depth--;
        return rc ? -1 : px_expect_op(p, ")");
    }
    return named_table_ref(p, sc, out, outer);
}

/* ---- ANSI joins ------------------------------------------------------------------------ */

enum { JK_NONE, JK_INNER, JK_CROSS, JK_LEFT, JK_RIGHT, JK_FULL };
static const char *const jk_sql[] = {
    "", " JOIN ", " CROSS JOIN ", " LEFT JOIN ", " RIGHT JOIN ", " FULL JOIN "};

/* join_kw := [INNER | CROSS | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN
 * *kind is JK_NONE when no join starts at the current token; a join type
 * without JOIN is -201. */
static int join_kw(px *p, int *kind) {
    int save = p->i, k = JK_INNER;
    *kind = JK_NONE;
    if (px_acc(p, IXK_INNER))
        k = JK_INNER;
    else if (px_acc(p, IXK_CROSS))
        k = JK_CROSS;
    else if (px_acc(p, IXK_LEFT))
        k = JK_LEFT;
    else if (px_acc(p, IXK_RIGHT))
        k = JK_RIGHT;
    else if (px_acc(p, IXK_FULL))
        k = JK_FULL;
    if (k == JK_LEFT || k == JK_RIGHT || k == JK_FULL) px_acc(p, IXK_OUTER);
    if (px_acc(p, IXK_JOIN)) {
        *kind = k;
        return 0;
    }
    if (p->i != save) {
        p->i = save;
        return px_fail(p);
    }
    return 0;
}

/* The tables from..to-1 of the scope can be NULL-extended. */
static void mark_outer(scope *sc, int from, int to) {
    for (int i = from; i < to; i++)
        sc->t[i]->outer = 1;
}

/* join_on := ON cond (the condition sees the tables of scope sc) */
static int join_on(px *p, scope *sc, sb *out) {
    if (px_expect(p, IXK_ON)) return -1;
    xv c;
    scope *save_sc = p->sc;
    p->sc = sc;
    int rc = ixs_cond(p, &c);
    p->sc = save_sc;
    if (!rc) sb_printf(out, " ON %s", c.s.p);
    xv_free(&c);
    return rc;
}

/* The joins after a join operand whose tables start at scope index first.
 *   join     := CROSS JOIN table_ref
 *             | [INNER | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN join_rhs ON cond
 *   join_rhs := table_ref { join }
 * The right side of a join takes the joins that follow it until its own ON,
 * so `a JOIN b JOIN c ON c1 ON c2` is `a JOIN (b JOIN c ON c1) ON c2`; a
 * join whose right side is complete (`a JOIN b ON c1 JOIN c ON c2`) groups
 * to the left. */
static int join_tail(px *p, scope *sc, sb *out, int first, int outer) {
    for (;;) {
        int k;
        if (join_kw(p, &k)) return -1;
        if (k == JK_NONE) return 0;
        if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
        int r0 = sc->n, rout = outer || k == JK_LEFT || k == JK_FULL;
        sb r = {0};
        int rc = table_ref(p, sc, &r, rout);
        size_t simple = r.n;
        if (!rc && k != JK_CROSS) rc = join_tail(p, sc, &r, r0, rout);
        p->depth--;
        if (!rc) {
            if (k == JK_LEFT || k == JK_FULL) mark_outer(sc, r0, sc->n);
            if (k == JK_RIGHT || k == JK_FULL) mark_outer(sc, first, r0);
            sb_add(out, jk_sql[k]);
            sb_printf(out, r.n != simple ? "(%s)" : "%s", r.p);
            if (k != JK_CROSS) rc = join_on(p, sc, out);
        }
        sb_free(&r);
        if (rc) return -1;
    }
}

/* join_chain := table_ref { join } */
static int join_chain(px *p, scope *sc, sb *out, int outer) {
    int first = sc->n;
    if (table_ref(p, sc, out, outer)) return -1;
    return join_tail(p, sc, out, first, outer);
}

/* ---- Informix OUTER ---------------------------------------------------------------------
 * The FROM list is a tree of groups: group 0 holds the dominant tables, each
 * OUTER item is a group under the group it appears in, and the tables of an
 * OUTER ( list ) are its group's own tables, with the OUTER items of the list
 * as its subgroups. A group is LEFT JOINed to its parent; the WHERE
 * conjuncts that mention its tables become the join condition. */
typedef struct ogroup {
    int parent; /* -1 for group 0 */
    int depth;
    sb own; /* its tables and ANSI joins, ", " between the items */
    sb on;  /* the conjuncts placed as its join condition */
} ogroup;

typedef struct ofrom {
    ogroup g[IXS_MAX_TABS];
    int ng;
    int tg[IXS_MAX_TABS]; /* the group of each table of the scope */
} ofrom;

static void ofrom_free(ofrom *f) {
    if (!f) return;
    for (int i = 0; i < f->ng; i++) {
        sb_free(&f->g[i].own);
        sb_free(&f->g[i].on);
    }
    free(f);
}

/* from_list := from_item { , from_item }      (the items of group gi)
 * from_item := OUTER ( from_list ) | OUTER table_ref | join_chain */
static int from_list(px *p, scope *sc, ofrom *f, int gi, int outer) {
    for (;;) {
        int t0 = sc->n, rc, into = gi;
        if (px_acc(p, IXK_OUTER)) {
            if (f->ng >= IXS_MAX_TABS || ++p->depth > IXS_MAX_DEPTH) return px_fail(p);
            into = f->ng++;
            f->g[into].parent = gi;
            f->g[into].depth = f->g[gi].depth + 1;
            if (px_op(p, p->i, "(") && !px_kw(p, p->i + 1, IXK_SELECT)) {
                p->i++;
                rc = from_list(p, sc, f, into, 1);
                if (!rc) rc = px_expect_op(p, ")");
            } else
                rc = table_ref(p, sc, &f->g[into].own, 1);
            p->depth--;
        } else {
            sb *own = &f->g[gi].own;
            if (own->n) sb_add(own, ", ");
            rc = join_chain(p, sc, own, outer);
        }
        if (rc) return -1;
        for (int t = t0; t < sc->n; t++)
            if (f->tg[t] == 0) f->tg[t] = into; /* nested items set theirs first */
        if (!px_acc_op(p, ",")) return 0;
    }
}

/* from_clause := from_list (after FROM); *out gets the Informix OUTER groups */
static int from_clause(px *p, scope *sc, ofrom **out) {
    ofrom *f = calloc(1, sizeof *f);
    *out = f;
    if (!f) return px_failc(p, -208, NULL);
    f->ng = 1;
    f->g[0].parent = -1;
    return from_list(p, sc, f, 0, 0);
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
    if (dst->n) sb_add(dst, " AND ");
    sb_add(dst, c);
}

/* Group gi as FROM text: its own items, then each subgroup LEFT JOINed ON
 * its conditions (a group with no tables of its own starts with its first
 * subgroup, whose conditions go to sink). Groups other than 0 are
 * parenthesized when they hold more than one table. */
static void emit_group(const ofrom *f, int gi, int ntabs, sb *out, sb *sink) {
    const ogroup *g = &f->g[gi];
    int n = 0;
    for (int t = 0; t < ntabs; t++)
        n += in_subtree(f, f->tg[t], gi);
    int wrap = gi && n > 1, any = g->own.n > 0;
    if (wrap) sb_addc(out, '(');
    if (any) sb_add(out, g->own.p);
    for (int k = gi + 1; k < f->ng; k++) {
        if (f->g[k].parent != gi) continue;
        sb on = {0};
        if (f->g[k].on.n) sb_add(&on, f->g[k].on.p);
        if (!any) {
            emit_group(f, k, ntabs, out, &on);
            if (on.n) and_to(sink, on.p);
            any = 1;
        } else {
            sb_add(out, " LEFT JOIN ");
            emit_group(f, k, ntabs, out, &on);
            sb_printf(out, " ON %s", on.n ? on.p : "1");
        }
        sb_free(&on);
    }
    if (wrap) sb_addc(out, ')');
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
    size_t at = list->n;
    sb_add(list, v->s.p ? v->s.p : "NULL");
    ixs_row_out(p, list, at, v->t); /* a row is shown as its text */
    if (add_col(p, q, label, v->t, v->notnull)) return -1;
    sb_add(list, " AS ");
    sb_ident(list, q->cols[q->ncols - 1].name);
    return 0;
}

/* limit_arg := unsigned_integer | "?" (an INTEGER parameter) */
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

/* Splits a WHERE condition into conjuncts and places each one (ixs_conj,
 * refmask) as the join condition of an Informix OUTER group or in *where;
 * a top-level OR makes the whole condition one conjunct. */
static int where_split(px *p, scope *sc, ofrom *f, sb *where) {
    int wstart = p->i;
    for (int whole = 0;; whole = 1) {
        sb_free(where);
        for (int i = 0; f && i < f->ng; i++)
            sb_free(&f->g[i].on);
        for (;;) {
            sc->refmask = 0;
            xv c;
            int r = whole ? ixs_cond(p, &c) : ixs_conj(p, &c);
            if (!r && c.k != XK_PRED && c.t.code != IX_T_BOOLEAN) r = px_fail(p);
            if (r) {
                xv_free(&c);
                return -1;
            }
            int g = f ? conj_group(f, sc->n, sc->refmask) : 0;
            and_to(g ? &f->g[g].on : where, c.s.p);
            xv_free(&c);
            if (whole || !px_acc(p, IXK_AND)) break;
        }
        if (whole || !px_kw(p, p->i, IXK_OR)) return 0;
        p->i = wstart;
    }
}

/* The clauses of one SELECT core, built one by one and then assembled. */
typedef struct {
    char *sql; /* its SQLite text */
    int col;   /* select item (0-based) or, in GROUP BY, the position given (1-based), else 0 */
} selref;

typedef struct {
    sb list, where, group, having;
    ofrom *from;
    int distinct, has_agg;
    selref *bare; /* select items that are a plain column of this query's tables */
    int nbare;
    selref *grp; /* the GROUP BY items */
    int ngrp;
} selcore;

/* Appends (sql, col) to the list *v of *n: 0, or -1 out of memory. */
static int selref_add(selref **v, int *n, const char *sql, int col) {
    selref *nv = realloc(*v, sizeof **v * (size_t)(*n + 1));
    if (!nv) return -1;
    *v = nv;
    nv[*n].sql = strdup(sql ? sql : "");
    nv[*n].col = col;
    if (!nv[*n].sql) return -1;
    (*n)++;
    return 0;
}

static void selref_free(selref *v, int n) {
    for (int i = 0; i < n; i++)
        free(v[i].sql);
    free(v);
}

/* Frees the clause texts and the FROM tree of a SELECT core. */
static void selcore_free(selcore *s) {
    ofrom_free(s->from);
    sb_free(&s->list);
    sb_free(&s->where);
    sb_free(&s->group);
    sb_free(&s->having);
    selref_free(s->bare, s->nbare);
    selref_free(s->grp, s->ngrp);
}

/* SELECT { SKIP n | FIRST n | LIMIT n } [ DISTINCT | UNIQUE | ALL ] */
static int sel_head(px *p, sb *limit, sb *offset, int *distinct) {
    if (px_expect(p, IXK_SELECT)) return -1;
    for (;;) {
        if (px_acc(p, IXK_SKIP)) {
            sb_free(offset);
            if (limit_arg(p, offset)) return -1;
        } else if (px_acc(p, IXK_FIRST) || px_acc(p, IXK_LIMIT)) {
            sb_free(limit);
            if (limit_arg(p, limit)) return -1;
        } else
            break;
    }
    *distinct = 0;
    if (px_acc(p, IXK_DISTINCT) || px_acc(p, IXK_UNIQUE))
        *distinct = 1;
    else
        px_acc(p, IXK_ALL);
    return 0;
}

/* The token that ends the select list: FROM, a set operator, ORDER or INTO
 * at depth 0, an unmatched ')' or the end. */
static int sel_list_end(px *p) {
    int depth = 0, k = p->i;
    for (; k < p->nt && p->t[k].k != T_EOF; k++) {
        if (px_op(p, k, "("))
            depth++;
        else if (px_op(p, k, ")")) {
            if (--depth < 0) break;
        } else if (depth == 0 &&
                   (px_kw(p, k, IXK_FROM) || px_kw(p, k, IXK_UNION) || px_kw(p, k, IXK_INTERSECT) ||
                    px_kw(p, k, IXK_EXCEPT) || px_kw(p, k, IXK_MINUS) || px_kw(p, k, IXK_ORDER) ||
                    px_kw(p, k, IXK_INTO)))
            break;
    }
    return k;
}

/* FROM table_ref {, table_ref}: parsed in scope sc, OLAP functions refused. */
static int sel_from(px *p, scope *sc, ofrom **from) {
    scope *save = p->sc;
    p->sc = sc;
    int olap_from = p->olap_ok;
    p->olap_ok = 0;
    int rc = from_clause(p, sc, from);
    p->olap_ok = olap_from;
    p->sc = save;
    return rc;
}

/* Adds every column of table t to the select list (for * and t.*). */
static int sel_star_cols(px *p, qres *q, sb *list, tref *t) {
    for (int ci = 0; ci < t->tab.ncols; ci++) {
        icol *c = &t->tab.cols[ci];
        if (q->ncols) sb_add(list, ", ");
        size_t at = list->n;
        sb_ident(list, t->alias);
        sb_addc(list, '.');
        sb_ident(list, c->name);
        ixs_row_out(p, list, at, c->t);
        ityp ty = c->serial == 1 ? ixs_t(IX_T_SERIAL, 4) : c->t;
        if (add_col(p, q, c->name, ty, c->notnull && !t->outer)) return -1;
        sb_add(list, " AS ");
        sb_ident(list, q->cols[q->ncols - 1].name);
    }
    return 0;
}

/* table.* : the columns of the table named (by alias or name) table */
static int sel_table_star(px *p, scope *sc, qres *q, sb *list) {
    char a[IXS_NAME_MAX + 1];
    px_ident(p, a, sizeof a);
    p->i += 2;
    for (int ti = 0; ti < sc->n; ti++) {
        if (strcmp(sc->t[ti]->alias, a) && strcmp(sc->t[ti]->tab.name, a)) continue;
        return sel_star_cols(p, q, list, sc->t[ti]);
    }
    px_failc(p, -206, "%s", a);
    return -1;
}

/* expr [ [AS] alias ] : one expression of the select list */
static int sel_expr_item(px *p, qres *q, selcore *s, int list_end) {
    xv v;
    uint64_t refs = p->sc->refmask;
    p->sc->refmask = 0;
    if (ixs_expr(p, &v)) {
        xv_free(&v);
        return -1;
    }
    int local = p->sc->refmask != 0; /* names a column of this query's tables */
    p->sc->refmask |= refs;
    s->has_agg |= v.agg;
    if (v.lk == LB_COL && local && !p->syntax_only &&
        selref_add(&s->bare, &s->nbare, v.s.p, q->ncols)) {
        xv_free(&v);
        px_failc(p, -208, NULL);
        return -1;
    }
    char alias[IXS_NAME_MAX + 1] = "";
    if (p->i < list_end && !px_op(p, p->i, ",")) {
        if (opt_alias(p, alias, sizeof alias)) {
            xv_free(&v);
            return -1;
        }
        if (!alias[0]) {
            xv_free(&v);
            px_fail(p);
            return -1;
        }
    }
    int rc = sel_item(p, q, &s->list, &v, alias);
    xv_free(&v);
    return rc ? -1 : 0;
}

/* select_list = item { "," item } ; item = "*" | table ".*" | expr [[AS] alias] */
static int sel_list(px *p, scope *sc, qres *q, selcore *s, int list_end) {
    for (;;) {
        if (px_op(p, p->i, "*")) {
            p->i++;
            for (int ti = 0; ti < sc->n; ti++)
                if (sel_star_cols(p, q, &s->list, sc->t[ti])) return -1;
        } else if (px_is_ident(p, p->i) && px_op(p, p->i + 1, ".") && px_op(p, p->i + 2, "*")) {
            if (sel_table_star(p, sc, q, &s->list)) return -1;
        } else if (sel_expr_item(p, q, s, list_end))
            return -1;
        if (p->i < list_end && px_acc_op(p, ",")) continue;
        break;
    }
    if (p->i != list_end) {
        px_fail(p);
        return -1;
    }
    return 0;
}

/* GROUP BY { position | expr } { "," ... } (after GROUP) */
static int sel_group(px *p, qres *q, selcore *s) {
    sb *group = &s->group;
    if (px_expect(p, IXK_BY)) return -1;
    for (;;) {
        if (group->n) sb_add(group, ", ");
        if (p->i < p->nt && p->t[p->i].k == T_INT) {
            int64_t pos;
            px_int(p, &pos);
            if (pos < 1 || pos > q->ncols) {
                px_fail(p);
                return -1;
            }
            sb_printf(group, "%lld", (long long)pos);
            if (selref_add(&s->grp, &s->ngrp, "", (int)pos)) return px_failc(p, -208, NULL);
        } else {
            xv g;
            if (ixs_expr(p, &g)) {
                xv_free(&g);
                return -1;
            }
            sb_add(group, g.s.p ? g.s.p : "NULL");
            int rc = selref_add(&s->grp, &s->ngrp, g.s.p, 0);
            xv_free(&g);
            if (rc) return px_failc(p, -208, NULL);
        }
        if (!px_acc_op(p, ",")) break;
    }
    return 0;
}

/* In a query with aggregates or GROUP BY, a select item that is a plain
 * column of the query's tables must be in the GROUP BY list (by its
 * expression or its position): -294 "The column (%s) must be in the GROUP
 * BY list." */
static int sel_grouped(px *p, const qres *q, const selcore *s) {
    if (!s->has_agg && !s->ngrp) return 0;
    for (int i = 0; i < s->nbare; i++) {
        int in = 0;
        for (int g = 0; g < s->ngrp && !in; g++)
            in = s->grp[g].col ? s->grp[g].col == s->bare[i].col + 1
                               : !strcmp(s->grp[g].sql, s->bare[i].sql);
        if (!in) return px_failc(p, IXS_E_NOT_GROUPED, "%s", q->cols[s->bare[i].col].name);
    }
    return 0;
}

/* HAVING condition (after HAVING) */
static int sel_having(px *p, sb *having) {
    xv h;
    if (ixs_cond(p, &h)) {
        xv_free(&h);
        return -1;
    }
    sb_add(having, h.s.p);
    xv_free(&h);
    return 0;
}

/* select list, then [WHERE cond] [GROUP BY ...] [HAVING cond] after the FROM clause */
static int sel_clauses(px *p, scope *sc, qres *q, selcore *s, int list_end, int after_from) {
    if (sel_list(p, sc, q, s, list_end)) return -1;
    p->olap_ok = 0;
    p->i = after_from;
    /* WHERE: conjuncts, split for Informix OUTER tables */
    if (px_acc(p, IXK_WHERE) && where_split(p, sc, s->from, &s->where)) return -1;
    if (px_acc(p, IXK_GROUP) && sel_group(p, q, s)) return -1;
    if (px_acc(p, IXK_HAVING) && sel_having(p, &s->having)) return -1;
    return sel_grouped(p, q, s);
}

/* Writes the SQLite SELECT of a parsed core into q->sql. */
static void sel_emit(px *p, scope *sc, qres *q, selcore *s) {
    if (p->rowid_want == 1 && p->depth == 1 && sc->n == 1 && !s->distinct && !s->has_agg &&
        !s->group.n)
        ixs_cursor_rowid(p, sc->t[0], &s->list);
    sb_add(&q->sql, s->distinct ? "SELECT DISTINCT " : "SELECT ");
    sb_add(&q->sql, s->list.p ? s->list.p : "NULL");
    if (s->from) {
        sb_add(&q->sql, " FROM ");
        emit_group(s->from, 0, sc->n, &q->sql, &s->where);
    }
    if (s->where.n) sb_printf(&q->sql, " WHERE %s", s->where.p);
    if (s->group.n) sb_printf(&q->sql, " GROUP BY %s", s->group.p);
    if (s->having.n) sb_printf(&q->sql, " HAVING %s", s->having.p);
}

/* One SELECT core. On return the scope (sc) holds the FROM tables.
 * core = SELECT head select_list [FROM from] [WHERE cond] [GROUP BY ...] [HAVING cond]
 * The FROM clause is parsed first so that the select list can see its tables. */
static int select_core(px *p, scope *sc, qres *q, sb *limit, sb *offset) {
    selcore s = {0};
    if (sel_head(p, limit, offset, &s.distinct)) return -1;
    int list_start = p->i, list_end = sel_list_end(p);
    int has_from = px_kw(p, list_end, IXK_FROM);
    sc->up = p->sc;
    if (has_from) {
        p->i = list_end + 1;
        if (sel_from(p, sc, &s.from)) {
            ofrom_free(s.from);
            return -1;
        }
    }
    int after_from = has_from ? p->i : list_end;
    p->i = list_start;
    scope *save = p->sc;
    p->sc = sc;
    int olap0 = p->olap_ok;
    p->olap_ok = 1;
    int rc = sel_clauses(p, sc, q, &s, list_end, after_from);
    p->sc = save;
    if (!rc) sel_emit(p, sc, q, &s);
    p->olap_ok = olap0;
    selcore_free(&s);
    return rc || p->failed ? -1 : 0;
}

/* ---- set operators --------------------------------------------------------------------- */

/* The storage class of a numeric type ('i', 'd' or 'f'), 0 for others. */
static int num_class(int code) {
    return ixs_is_int(code) ? 'i' : ixs_is_dec(code) ? 'd' : ixs_is_float(code) ? 'f' : 0;
}

/* The result type of a column of a combined query: the first SELECT's,
 * CHAR lengths widened, integers widened to the DECIMAL or FLOAT of the
 * other side. */
static void set_merge(ocol *a, const ocol *b, int op) {
    if (ixs_is_char(a->t.code) && ixs_is_char(b->t.code) && b->t.len > a->t.len)
        a->t.len = b->t.len;
    if (ixs_is_int(a->t.code) && (ixs_is_dec(b->t.code) || ixs_is_float(b->t.code))) a->t = b->t;
    if (op == 'u')
        a->notnull &= b->notnull;
    else if (op == 'i')
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
        sb_add(body, q->sql.p ? q->sql.p : "");
        return 0;
    }
    sb_add(body, "SELECT ");
    for (int i = 0; i < res->ncols; i++) {
        xv v;
        memset(&v, 0, sizeof v);
        v.pidx = -1;
        v.k = XK_COL;
        v.t = q->cols[i].t;
        sb_add(&v.s, "_o.");
        sb_ident(&v.s, q->cols[i].name);
        if (num_class(v.t.code) && num_class(res->cols[i].t.code))
            ixs_to_type(p, &v, res->cols[i].t);
        sb_printf(body, "%s%s AS ", i ? ", " : "", v.s.p);
        sb_ident(body, res->cols[i].name);
        xv_free(&v);
    }
    sb_printf(body, " FROM (%s) AS _o", q->sql.p);
    return p->failed ? -1 : 0;
}

/* set_op := UNION [ALL] | INTERSECT | EXCEPT | MINUS : its SQL (consumed), NULL if none */
static const char *set_op(px *p) {
    const char *op = px_kw(p, p->i, IXK_UNION)       ? " UNION "
                     : px_kw(p, p->i, IXK_INTERSECT) ? " INTERSECT "
                     : px_kw(p, p->i, IXK_EXCEPT)    ? " EXCEPT "
                     : px_kw(p, p->i, IXK_MINUS)     ? " EXCEPT "
                                                     : NULL;
    if (!op) return NULL;
    p->i++;
    if (op[1] == 'U' && px_acc(p, IXK_ALL)) op = " UNION ALL ";
    return op;
}

/* The select_core after set operator op, into q; the result's column types
 * (out) merged with its. */
static int set_core(px *p, qres *out, qres *q, const char *op) {
    scope sc2;
    memset(&sc2, 0, sizeof sc2);
    sb l2 = {0}, o2 = {0};
    int rc = select_core(p, &sc2, q, &l2, &o2);
    scope_free(&sc2);
    sb_free(&l2);
    sb_free(&o2);
    if (!rc && q->ncols != out->ncols) rc = px_fail(p);
    if (rc) return rc;
    for (int i = 0; i < out->ncols; i++)
        set_merge(&out->cols[i], &q->cols[i], op[1] == 'U' ? 'u' : op[1] == 'I' ? 'i' : 'e');
    return 0;
}

/* set_ops := { set_op select_core }
 * set_op  := UNION [ALL] | INTERSECT | EXCEPT | MINUS
 * after the first core (in out): the combined SQL into body. INTERSECT and
 * EXCEPT (MINUS) return distinct rows and take no ALL; NULLs compare equal;
 * the operators apply left to right. */
static int set_ops(px *p, qres *out, sb *body, int *nops) {
    qres *ops = NULL, first = *out;
    const char **opsql = NULL;
    int n = 0, rc = 0;
    /* the first core's own column types (out->cols become the result's) */
    first.cols = malloc(sizeof(ocol) * (size_t)(out->ncols ? out->ncols : 1));
    if (!first.cols) return px_failc(p, -208, NULL);
    if (out->ncols) memcpy(first.cols, out->cols, sizeof(ocol) * (size_t)out->ncols);
    for (;;) {
        const char *op = set_op(p);
        if (!op) break;
        qres *nq = realloc(ops, sizeof *ops * (size_t)(n + 1));
        const char **no = nq ? realloc(opsql, sizeof *opsql * (size_t)(n + 1)) : NULL;
        if (nq) ops = nq;
        if (no) opsql = no;
        if (!nq || !no) {
            rc = px_failc(p, -208, NULL);
            break;
        }
        memset(&ops[n], 0, sizeof ops[n]);
        opsql[n] = op;
        rc = set_core(p, out, &ops[n++], op);
        if (rc) break;
    }
    if (!rc) rc = set_operand(p, &first, out, body);
    free(first.cols);
    for (int k = 0; k < n && !rc; k++) {
        sb_add(body, opsql[k]);
        rc = set_operand(p, &ops[k], out, body);
    }
    for (int k = 0; k < n; k++)
        qres_free(&ops[k]);
    free(ops);
    free(opsql);
    *nops = n;
    return rc;
}

/* The tokens that may follow an output column name used as an ORDER BY item. */
static int order_name_end(px *p) {
    return p->i >= p->nt || p->t[p->i].k == T_EOF || px_op(p, p->i, ",") ||
           px_kw(p, p->i, IXK_ASC) || px_kw(p, p->i, IXK_DESC) || px_kw(p, p->i, IXK_NULLS) ||
           px_kw(p, p->i, IXK_LIMIT) || px_op(p, p->i, ")") || px_kw(p, p->i, IXK_FOR) ||
           px_kw(p, p->i, IXK_INTO) || px_op(p, p->i, ";");
}

/* position | output_column_name : an ORDER BY item naming a result column;
 * 1 if it was one, 0 if not (nothing consumed), -1 on error. */
static int order_by_col(px *p, qres *out, sb *ord) {
    if (p->i < p->nt && p->t[p->i].k == T_INT) {
        int64_t pos;
        px_int(p, &pos);
        if (pos < 1 || pos > out->ncols) {
            px_fail(p);
            return -1;
        }
        sb_printf(ord, "%lld", (long long)pos);
        return ixs_row_order_check(p, out->cols[pos - 1].t) ? -1 : 1;
    }
    if (!px_is_ident(p, p->i) || px_op(p, p->i + 1, ".") || px_op(p, p->i + 1, "(")) return 0;
    char nm[IXS_NAME_MAX + 1];
    int at = p->i;
    px_ident(p, nm, sizeof nm);
    int hit = 0;
    for (int i = 0; i < out->ncols; i++)
        if (!strcmp(out->cols[i].name, nm)) {
            hit = i + 1;
            break;
        }
    if (hit && order_name_end(p)) {
        sb_printf(ord, "%d", hit);
        return ixs_row_order_check(p, out->cols[hit - 1].t) ? -1 : 1;
    }
    p->i = at;
    return 0;
}

/* expr : an ORDER BY expression (refused after a set operator) */
static int order_by_expr(px *p, int nunion, sb *ord) {
    if (nunion) {
        px_fail(p);
        return -1;
    }
    xv e;
    if (ixs_expr(p, &e)) {
        xv_free(&e);
        return -1;
    }
    sb_add(ord, e.s.p ? e.s.p : "NULL");
    ityp et = e.t;
    xv_free(&e);
    return ixs_row_order_check(p, et) ? -1 : 0;
}

/* [ ASC | DESC ] [ NULLS { FIRST | LAST } ] */
static int order_dir(px *p, sb *ord) {
    if (px_acc(p, IXK_DESC))
        sb_add(ord, " DESC");
    else
        px_acc(p, IXK_ASC);
    if (!px_acc(p, IXK_NULLS)) return 0;
    if (px_acc(p, IXK_FIRST))
        sb_add(ord, " NULLS FIRST");
    else if (px_acc(p, IXK_LAST))
        sb_add(ord, " NULLS LAST");
    else {
        px_fail(p);
        return -1;
    }
    return 0;
}

/* order_item = ( position | output_column_name | expr ) order_dir */
static int order_item(px *p, qres *out, int nunion, sb *ord) {
    if (ord->n) sb_add(ord, ", ");
    int r = order_by_col(p, out, ord);
    if (r < 0 || (r == 0 && order_by_expr(p, nunion, ord))) return -1;
    return order_dir(p, ord);
}

/* ORDER BY order_item { "," order_item } (after ORDER), seeing the core's tables (sc0) */
static int order_by(px *p, scope *sc0, qres *out, int nunion, sb *body) {
    if (px_expect(p, IXK_BY)) return -1;
    sb ord = {0};
    scope *save = p->sc;
    sc0->up = p->sc;
    p->sc = sc0;
    int olap0 = p->olap_ok;
    p->olap_ok = 1;
    int rc = 0;
    for (;;) {
        if (order_item(p, out, nunion, &ord)) {
            rc = -1;
            break;
        }
        if (!px_acc_op(p, ",")) break;
    }
    p->olap_ok = olap0;
    p->sc = save;
    if (!rc) sb_printf(body, " ORDER BY %s", ord.p);
    sb_free(&ord);
    return rc;
}

/* FOR UPDATE [ OF column { "," column } ] | FOR READ ONLY (after FOR) */
static int for_clause(px *p) {
    if (px_acc(p, IXK_UPDATE)) {
        if (px_acc(p, IXK_OF)) {
            char c[IXS_NAME_MAX + 1];
            do {
                if (px_ident(p, c, sizeof c)) return -1;
            } while (px_acc_op(p, ","));
        }
        return 0;
    }
    if (px_acc(p, IXK_READ)) return px_expect(p, IXK_ONLY) ? -1 : 0;
    px_fail(p);
    return -1;
}

/* [ LIMIT n ] [ for_clause ] after ORDER BY; then the body becomes out->sql. */
static int select_tail(px *p, qres *out, sb *limit, sb *offset, sb *body) {
    if (px_acc(p, IXK_LIMIT)) {
        sb_free(limit);
        if (limit_arg(p, limit)) return -1;
    }
    if (limit->n || offset->n)
        sb_printf(body, " LIMIT %s%s%s", limit->n ? limit->p : "-1", offset->n ? " OFFSET " : "",
                  offset->n ? offset->p : "");
    if (px_acc(p, IXK_FOR) && for_clause(p)) return -1;
    sb_free(&out->sql);
    sb_add(&out->sql, body->p ? body->p : "");
    if (out->sql.oom) return px_failc(p, -208, NULL);
    return 0;
}

/* select = core { set_op core } [ ORDER BY order_item {, order_item} ] [ LIMIT n ]
 *          [ FOR UPDATE [OF column {, column}] | FOR READ ONLY ] */
int ixs_select_sub(px *p, qres *out, int *start) {
    *start = p->i;
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    memset(out, 0, sizeof *out);
    scope sc0;
    memset(&sc0, 0, sizeof sc0);
    sb limit = {0}, offset = {0}, body = {0};
    int nunion = 0;
    int rc = select_core(p, &sc0, out, &limit, &offset);
    if (!rc) rc = set_ops(p, out, &body, &nunion);
    if (!rc && px_acc(p, IXK_ORDER)) rc = order_by(p, &sc0, out, nunion, &body);
    if (!rc) rc = select_tail(p, out, &limit, &offset, &body);
    scope_free(&sc0);
    sb_free(&limit);
    sb_free(&offset);
    sb_free(&body);
    p->depth--;
    return rc || p->failed ? -1 : 0;
}

/* statement := select (ixs_select_sub), the result columns described as a client sees them */
int ixs_select(px *p, qres *out) {
    int st, top = p->row_top; /* a statement's own rows: their ROW items are text */
    int rc = ixs_select_sub(p, out, &st);
    /* a statement's collection columns are described as LVARCHAR text
     * (ixs_collection.c); inside it they keep their type */
    for (int i = 0; !rc && i < out->ncols; i++)
        if (ixs_coll_is(out->cols[i].t.code) || (top && out->cols[i].t.code == IX_T_ROW))
            out->cols[i].t = ixs_t(IX_T_LVARCHAR, IXS_COLL_DESC_LEN);
    return rc;
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
        if (ixs_coll_is(s->cols[i].t.code) || s->cols[i].t.code == IX_T_ROW)
            s->cols[i].t = ixs_t(IX_T_LVARCHAR, IXS_COLL_DESC_LEN);
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

/* The state of one INSERT: the target table, the columns given values, the
 * serial columns not listed (they get their next value) and the SQL. */
typedef struct {
    tref *t;
    icol **cols;
    int nc;
    int extra[8], nextra;
    sb sql;
} insctx;

/* [ "(" column { "," column } ")" ] : the columns given values (all by default) */
static int ins_columns(px *p, insctx *ic) {
    if (!px_acc_op(p, "(")) {
        for (int i = 0; i < ic->t->tab.ncols; i++)
            ic->cols[ic->nc++] = &ic->t->tab.cols[i];
        return 0;
    }
    do {
        char cn[IXS_NAME_MAX + 1];
        if (px_ident(p, cn, sizeof cn)) return -1;
        icol *c = find_tcol(ic->t, cn);
        if (!c) {
            px_failc(p, -217, "%s", cn);
            return -1;
        }
        for (int i = 0; i < ic->nc; i++)
            if (ic->cols[i] == c) {
                px_fail(p);
                return -1;
            }
        if (ic->nc >= ic->t->tab.ncols) {
            px_fail(p);
            return -1;
        }
        ic->cols[ic->nc++] = c;
    } while (px_acc_op(p, ","));
    return px_expect_op(p, ")") ? -1 : 0;
}

/* INSERT INTO name(columns, unlisted serial columns) */
static void ins_head_sql(insctx *ic) {
    tref *t = ic->t;
    sb_add(&ic->sql, "INSERT INTO ");
    sb_ident(&ic->sql, t->tab.name);
    sb_addc(&ic->sql, '(');
    for (int i = 0; i < ic->nc; i++) {
        if (i) sb_addc(&ic->sql, ',');
        sb_ident(&ic->sql, ic->cols[i]->name);
    }
    /* serial columns that were not listed */
    for (int i = 0; i < t->tab.ncols && ic->nextra < 8; i++) {
        if (!t->tab.cols[i].serial) continue;
        int listed = 0;
        for (int k = 0; k < ic->nc; k++)
            if (ic->cols[k] == &t->tab.cols[i]) listed = 1;
        if (!listed) {
            ic->extra[ic->nextra++] = i;
            sb_addc(&ic->sql, ',');
            sb_ident(&ic->sql, t->tab.cols[i].name);
        }
    }
    sb_add(&ic->sql, ") ");
}

/* The next values of the unlisted serial columns. */
static void ins_extra_sql(px *p, insctx *ic) {
    for (int i = 0; i < ic->nextra; i++) {
        sb_addc(&ic->sql, ',');
        serial_wrap(p, ic->t, &ic->t->tab.cols[ic->extra[i]], NULL, &ic->sql);
    }
}

/* expr : the value of column nv, converted to the column's type */
static int ins_value(px *p, insctx *ic, int nv) {
    xv v;
    if (ixs_expr(p, &v)) {
        xv_free(&v);
        return -1;
    }
    if (nv >= ic->nc) {
        xv_free(&v);
        px_failc(p, -236, NULL);
        return -1;
    }
    if (v.k == XK_PRED) v.t = ixs_t(IX_T_BOOLEAN, 1);
    ixs_to_type(p, &v, ic->cols[nv]->t);
    if (p->failed) {
        xv_free(&v);
        return -1;
    }
    if (nv) sb_addc(&ic->sql, ',');
    if (ic->cols[nv]->serial)
        serial_wrap(p, ic->t, ic->cols[nv], &v, &ic->sql);
    else
        sb_add(&ic->sql, v.s.p ? v.s.p : "NULL");
    xv_free(&v);
    return 0;
}

/* "(" expr { "," expr } (the closing ")" is left); *nv counts the values */
static int ins_value_list(px *p, insctx *ic, int *nv) {
    if (px_expect_op(p, "(")) return -1;
    sb_add(&ic->sql, "VALUES(");
    for (;;) {
        if (ins_value(p, ic, *nv)) return -1;
        (*nv)++;
        if (!px_acc_op(p, ",")) break;
    }
    return 0;
}

/* VALUES "(" expr { "," expr } ")" (after VALUES); the values see no table */
static int ins_values(px *p, insctx *ic) {
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.up = NULL;
    scope *save = p->sc;
    p->sc = &sc;
    int nv = 0;
    int rc = ins_value_list(p, ic, &nv);
    p->sc = save;
    if (rc || px_expect_op(p, ")")) return -1;
    if (nv != ic->nc) {
        px_failc(p, -236, NULL);
        return -1;
    }
    ins_extra_sql(p, ic);
    sb_addc(&ic->sql, ')');
    return 0;
}

/* select | "(" select ")" : the rows to insert, converted to the columns' types */
static int ins_select(px *p, insctx *ic, qres *q) {
    int paren = px_acc_op(p, "(");
    int st;
    if (ixs_select_sub(p, q, &st)) return -1;
    if (paren && px_expect_op(p, ")")) return -1;
    if (q->ncols != ic->nc) {
        px_failc(p, -236, NULL);
        return -1;
    }
    sb_add(&ic->sql, "SELECT ");
    for (int i = 0; i < ic->nc; i++) {
        xv v;
        memset(&v, 0, sizeof v);
        v.pidx = -1;
        sb_add(&v.s, "_s.");
        sb_ident(&v.s, q->cols[i].name);
        v.t = q->cols[i].t;
        v.k = XK_COL;
        ixs_to_type(p, &v, ic->cols[i]->t);
        if (i) sb_addc(&ic->sql, ',');
        if (ic->cols[i]->serial)
            serial_wrap(p, ic->t, ic->cols[i], &v, &ic->sql);
        else
            sb_add(&ic->sql, v.s.p);
        xv_free(&v);
    }
    ins_extra_sql(p, ic);
    sb_printf(&ic->sql, " FROM (%s) AS _s", q->sql.p);
    return 0;
}

/* Everything of an INSERT after its table name; the SQL goes to s->sqlite_sql. */
static int ins_body(px *p, ixd_stmt *s, insctx *ic, qres *q) {
    if (!ic->cols) {
        px_failc(p, -208, NULL);
        return -1;
    }
    if (ic->t->tab.is_view && !ixs_view_updatable(p->db, ic->t->tab.name)) {
        px_failc(p, IXS_E_VIEW_READONLY, "%s", ic->t->tab.name);
        return -1;
    }
    if (ins_columns(p, ic) || set_desc_cols(p, s, ic->cols, ic->nc)) return -1;
    ins_head_sql(ic);
    if (px_acc(p, IXK_VALUES)) {
        if (ins_values(p, ic)) return -1;
    } else if (px_kw(p, p->i, IXK_SELECT) || px_op(p, p->i, "(")) {
        if (ins_select(p, ic, q)) return -1;
    } else {
        px_fail(p);
        return -1;
    }
    if (p->failed) return -1;
    s->sqlite_sql = sb_take(&ic->sql);
    if (!s->sqlite_sql) {
        px_failc(p, -208, NULL);
        return -1;
    }
    return 0;
}

/* INSERT INTO table [ "(" column { "," column } ")" ]
 *        ( VALUES "(" expr { "," expr } ")" | select | "(" select ")" ) */
static int do_insert(px *p, ixd_stmt *s) {
    char name[IXS_NAME_MAX + 1];
    if (px_expect(p, IXK_INTO) || table_name(p, name, sizeof name)) return -1;
    insctx ic;
    memset(&ic, 0, sizeof ic);
    ic.t = ixs_tref_new(p, name, NULL);
    if (!ic.t) return -1;
    snprintf(s->table, sizeof s->table, "%s", ic.t->tab.name);
    ic.cols = calloc((size_t)ic.t->tab.ncols + 1, sizeof(icol *));
    qres q;
    memset(&q, 0, sizeof q);
    int rc = ins_body(p, s, &ic, &q);
    qres_free(&q);
    sb_free(&ic.sql);
    free(ic.cols);
    ixs_tref_free(ic.t);
    return rc;
}

/* where_clause := [ WHERE cond | WHERE CURRENT OF cursor ] (UPDATE, DELETE) */
static int where_clause(px *p, sb *sql, ixd_stmt *s) {
    if (!px_acc(p, IXK_WHERE)) {
        /* sqlstype: UPDATE/DELETE without WHERE */
        if (s->stype == IX_STMTTYPE_DELETE) s->stype = IX_STMTTYPE_DELETE_ALL;
        if (s->stype == IX_STMTTYPE_UPDATE) s->stype = IX_STMTTYPE_UPDATE_ALL;
        return 0;
    }
    if (px_acc(p, IXK_CURRENT)) return ixs_current_of(p, sql, s);
    xv c;
    if (ixs_cond(p, &c)) {
        xv_free(&c);
        return -1;
    }
    sb_printf(sql, " WHERE %s", c.s.p);
    xv_free(&c);
    return 0;
}

/* The index of the ')' that closes the '(' at token i, or -1. */
static int close_paren(px *p, int i) {
    for (int depth = 0; i < p->nt && p->t[i].k != T_EOF; i++) {
        if (px_op(p, i, "("))
            depth++;
        else if (px_op(p, i, ")") && --depth == 0)
            return i;
    }
    return -1;
}

/* row_subquery := ( SELECT ... ) | ( ( SELECT ... ) )
 * after `SET (cols) =`: the columns set from the one row of a query, as
 * `(c1, c2) = (SELECT ...)` into sql. No row sets NULLs; more than one row
 * is -284, as for a scalar subquery. Returns 1 (nothing read) when the
 * value list is not a row subquery. */
static int set_row_subquery(px *p, icol **cols, int nc, sb *sql) {
    int i = p->i, dbl = px_op(p, i, "(") && px_op(p, i + 1, "(") && px_kw(p, i + 2, IXK_SELECT);
    if (dbl) {
        int c = close_paren(p, i + 1);
        dbl = c > 0 && px_op(p, c + 1, ")");
    }
    if (!dbl && !(px_op(p, i, "(") && px_kw(p, i + 1, IXK_SELECT))) return 1;
    p->i += dbl ? 2 : 1;
    qres q;
    memset(&q, 0, sizeof q);
    int st;
    int rc = ixs_select_sub(p, &q, &st);
    if (!rc) rc = px_expect_op(p, ")");
    if (!rc && dbl) rc = px_expect_op(p, ")");
    if (!rc && q.ncols != nc) rc = px_fail(p);
    for (int k = 0; k < nc && !rc; k++) {
        sb_add(sql, k ? ", " : "(");
        sb_ident(sql, cols[k]->name);
    }
    if (!rc) sb_add(sql, ") = (SELECT ");
    for (int k = 0; k < nc && !rc; k++) {
        xv v;
        memset(&v, 0, sizeof v);
        v.pidx = -1;
        v.k = XK_EXPR;
        v.t = q.cols[k].t;
        sb_add(&v.s, "min(_q1.");
        sb_ident(&v.s, q.cols[k].name);
        sb_addc(&v.s, ')');
        ixs_to_type(p, &v, cols[k]->t);
        if (k)
            sb_printf(sql, ", %s", v.s.p);
        else
            sb_printf(sql, "CASE WHEN count(*) > 1 THEN ixd_raise(%d, '') ELSE %s END",
                      IXS_E_SUBQUERY_ROWS, v.s.p);
        xv_free(&v);
        if (p->failed) rc = -1;
    }
    if (!rc) sb_printf(sql, " FROM (SELECT * FROM (%s) LIMIT 2) AS _q1)", q.sql.p);
    qres_free(&q);
    return rc ? -1 : 0;
}

/* The state of one UPDATE: its table, the columns set and the SQL. */
typedef struct {
    tref *t;
    icol **cols;
    int nc;
    sb sql;
} updctx;

/* Column cn of the UPDATE's table as the next SET target: -217 when the
 * table has none, -201 when more targets than columns are named. */
static int upd_add_col(px *p, updctx *u, const char *cn) {
    icol *c = find_tcol(u->t, cn);
    if (!c) return px_failc(p, -217, "%s", cn);
    if (u->nc >= u->t->tab.ncols) return px_fail(p);
    u->cols[u->nc++] = c;
    return 0;
}

/* "*" | "(" column { "," column } ")" : the columns of a multiple-column SET */
static int upd_col_list(px *p, updctx *u) {
    if (px_acc_op(p, "*")) {
        for (int i = 0; i < u->t->tab.ncols; i++)
            u->cols[u->nc++] = &u->t->tab.cols[i];
        return 0;
    }
    p->i++;
    do {
        char cn[IXS_NAME_MAX + 1];
        if (px_ident(p, cn, sizeof cn)) return -1;
        if (upd_add_col(p, u, cn)) return -1;
    } while (px_acc_op(p, ","));
    return px_expect_op(p, ")") ? -1 : 0;
}

/* "(" expr { "," expr } ")" : one value for each column of the list */
static int upd_row_values(px *p, updctx *u) {
    if (px_expect_op(p, "(")) return -1;
    for (int i = 0; i < u->nc; i++) {
        if (i && px_expect_op(p, ",")) return -1;
        xv v;
        if (ixs_expr(p, &v)) {
            xv_free(&v);
            return -1;
        }
        ixs_to_type(p, &v, u->cols[i]->t);
        if (i) sb_add(&u->sql, ", ");
        sb_ident(&u->sql, u->cols[i]->name);
        sb_printf(&u->sql, " = %s", v.s.p ? v.s.p : "NULL");
        xv_free(&v);
        if (p->failed) return -1;
    }
    return px_expect_op(p, ")") ? -1 : 0;
}

/* ( "*" | "(" column {, column} ")" ) "=" ( "(" expr {, expr} ")" | "(" select ")" ) */
static int upd_multi(px *p, updctx *u) {
    if (upd_col_list(p, u) || px_expect_op(p, "=")) return -1;
    int r = set_row_subquery(p, u->cols, u->nc, &u->sql);
    if (r < 0) return -1;
    if (r == 0) return 0;
    return upd_row_values(p, u);
}

/* [table "."] column "=" expr : one assignment of a single-column SET */
static int upd_assign(px *p, updctx *u) {
    char cn[IXS_NAME_MAX + 1];
    if (px_ident(p, cn, sizeof cn)) return -1;
    if (px_acc_op(p, ".")) { /* t.col */
        if (px_ident(p, cn, sizeof cn)) return -1;
    }
    if (upd_add_col(p, u, cn)) return -1;
    icol *c = u->cols[u->nc - 1];
    if (px_expect_op(p, "=")) return -1;
    xv v;
    if (ixs_expr(p, &v)) {
        xv_free(&v);
        return -1;
    }
    if (v.k == XK_PRED) v.t = ixs_t(IX_T_BOOLEAN, 1);
    ixs_to_type(p, &v, c->t);
    if (u->nc > 1) sb_add(&u->sql, ", ");
    sb_ident(&u->sql, c->name);
    sb_printf(&u->sql, " = %s", v.s.p ? v.s.p : "NULL");
    xv_free(&v);
    return p->failed ? -1 : 0;
}

/* SET ( assignment { "," assignment } | multi ) [WHERE ...]; the SQL goes to s->sqlite_sql */
static int upd_body(px *p, ixd_stmt *s, updctx *u) {
    tref *t = u->t;
    if (!u->cols) {
        px_failc(p, -208, NULL);
        return -1;
    }
    if (t->tab.is_view && !ixs_view_updatable(p->db, t->tab.name)) {
        px_failc(p, IXS_E_VIEW_READONLY, "%s", t->tab.name);
        return -1;
    }
    if (px_expect(p, IXK_SET)) return -1;
    sb_add(&u->sql, "UPDATE ");
    sb_ident(&u->sql, t->tab.name);
    if (strcmp(t->alias, t->tab.name)) { /* a synonym: its name qualifies columns */
        sb_add(&u->sql, " AS ");
        sb_ident(&u->sql, t->alias);
    }
    sb_add(&u->sql, " SET ");
    if (px_op(p, p->i, "(") || px_op(p, p->i, "*")) {
        if (upd_multi(p, u)) return -1;
    } else {
        for (;;) {
            if (upd_assign(p, u)) return -1;
            if (!px_acc_op(p, ",")) break;
        }
    }
    if (set_desc_cols(p, s, u->cols, u->nc)) return -1;
    if (where_clause(p, &u->sql, s)) return -1;
    s->sqlite_sql = sb_take(&u->sql);
    if (!s->sqlite_sql) {
        px_failc(p, -208, NULL);
        return -1;
    }
    return 0;
}

/* UPDATE table SET ( column "=" expr { "," column "=" expr }
 *                  | ( "*" | "(" column {, column} ")" ) "=" ( "(" expr {, expr} ")" | "(" select
 * ")" ) ) [ WHERE cond | WHERE CURRENT OF cursor ] */
static int do_update(px *p, ixd_stmt *s) {
    char name[IXS_NAME_MAX + 1];
    if (table_name(p, name, sizeof name)) return -1;
    tref *t = ixs_tref_new(p, name, NULL);
    if (!t) return -1;
    snprintf(s->table, sizeof s->table, "%s", t->tab.name);
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = t;
    sc.n = 1;
    scope *save = p->sc;
    p->sc = &sc;
    updctx u;
    memset(&u, 0, sizeof u);
    u.t = t;
    u.cols = calloc((size_t)t->tab.ncols + 1, sizeof(icol *));
    int rc = upd_body(p, s, &u);
    p->sc = save;
    sb_free(&u.sql);
    free(u.cols);
    ixs_tref_free(t);
    return rc;
}

/* DELETE [ FROM ] table [ WHERE cond | WHERE CURRENT OF cursor ] (after DELETE) */
static int do_delete(px *p, ixd_stmt *s) {
    px_acc(p, IXK_FROM);
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

/* dml := INSERT insert | UPDATE update | DELETE delete */
int ixs_dml(px *p, ixd_stmt *s) {
    if (px_acc(p, IXK_INSERT)) {
        s->stype = IX_STMTTYPE_INSERT;
        return do_insert(p, s);
    }
    if (px_acc(p, IXK_UPDATE)) {
        s->stype = IX_STMTTYPE_UPDATE;
        return do_update(p, s);
    }
    if (px_acc(p, IXK_DELETE)) {
        s->stype = IX_STMTTYPE_DELETE;
        return do_delete(p, s);
    }
    return px_fail(p);
}
