/* ixs_sel_parse.c: SELECT, INSERT, UPDATE and DELETE into trees
 * (ixs_sel_tree.h). Nothing here reads the catalogue or writes SQLite SQL:
 * the expressions are ixs_ex trees (ixs_ex_parse), the names are kept as
 * written, and every syntax error is -201 at its token. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_sel_tree.h"

static sel_join *join_chain(px *p);
static void join_free(sel_join *j);
static sel_from *from_list(px *p);
static void from_free(sel_from *f);

/* Grows the array *v of *n elements of size sz by one zeroed element. */
static void *grow(px *p, void *v, int *n, size_t sz) {
    char *nv = realloc(v, sz * (size_t)(*n + 1));
    if (!nv) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    memset(nv + sz * (size_t)*n, 0, sz);
    (*n)++;
    return nv;
}
#define GROW(p, arr, n) grow_into(p, (void **)&(arr), &(n), sizeof *(arr))
/* WHERE conjuncts placed one by one (as join conditions of Informix OUTER
 * groups, ixs_sel_emit.c); a longer AND chain is one condition, so that its
 * SQL nests log2(n) deep. */
#define SEL_MAX_CONJ 64
static int grow_into(px *p, void **arr, int *n, size_t sz) {
    void *nv = grow(p, *arr, n, sz);
    if (!nv) return -1;
    *arr = nv;
    return 0;
}

static const char *reserved[] = {"where", "group",   "order",  "having", "union",     "inner",
                                 "left",  "right",   "full",   "cross",  "join",      "on",
                                 "outer", "into",    "for",    "limit",  "skip",      "first",
                                 "from",  "natural", "with",   "select", "intersect", "except",
                                 "minus", "set",     "values", NULL};

static int is_reserved(px *p, int i) {
    for (int k = 0; reserved[k]; k++)
        if (ixs_px_kw_str(p, i, reserved[k])) return 1;
    return 0;
}

/* opt_alias := [ AS ] alias | alias (a word not reserved after a table) | (nothing) */
static int opt_alias(px *p, char *alias, size_t n) {
    alias[0] = 0;
    if (ixs_px_acc(p, IXK_AS)) return ixs_px_ident(p, alias, n);
    if (ixs_px_is_ident(p, p->i) && !is_reserved(p, p->i)) return ixs_px_ident(p, alias, n);
    return 0;
}

/* The index of the ')' that closes the '(' at token i, or -1. */
static int close_paren(px *p, int i) {
    for (int depth = 0; i < p->nt && p->t[i].k != T_EOF; i++) {
        if (ixs_px_op(p, i, "("))
            depth++;
        else if (ixs_px_op(p, i, ")") && --depth == 0)
            return i;
    }
    return -1;
}

/* limit_arg := unsigned_integer | "?" */
static int limit_arg(px *p, sel_lim *l) {
    memset(l, 0, sizeof *l);
    l->set = 1;
    if (p->i < p->nt && p->t[p->i].k == T_PARAM) {
        l->param = 1;
        l->pidx = p->t[p->i++].pidx;
        return 0;
    }
    if (ixs_px_int(p, &l->v)) return -1;
    return l->v < 0 ? ixs_px_fail(p) : 0;
}

/* ---- FROM ---------------------------------------------------------------------------- */

static void tref_free(sel_tref *t) {
    if (!t) return;
    ixs_sel_free(t->q);
    ixs_ex_free(t->coll);
    ixs_ts_from_free(t->ts);
    free(t->cn);
    join_free(t->join);
    free(t->sql);
    free(t);
}

/* derived_tail := opt_alias [ "(" column { "," column } ")" ] (the column
 * list only after an alias) */
static int derived_tail(px *p, sel_tref *t) {
    if (opt_alias(p, t->alias, sizeof t->alias)) return -1;
    if (!t->alias[0] || !ixs_px_acc_op(p, "(")) return 0;
    do {
        if (GROW(p, t->cn, t->ncn) || ixs_px_newname(p, t->cn[t->ncn - 1], sizeof t->cn[0]))
            return -1;
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* coll_table := TABLE "(" collection_expr ")" [[AS] alias [ "(" column ")" ]] */
static int coll_table(px *p, sel_tref *t) {
    t->kind = TR_COLL;
    p->i += 2;
    if (!(t->coll = ixs_ex_parse(p, IXS_EX_VALUE)) || ixs_px_expect_op(p, ")")) return -1;
    if (opt_alias(p, t->alias, sizeof t->alias)) return -1;
    if (t->alias[0] && ixs_px_acc_op(p, "("))
        return ixs_px_ident(p, t->col, sizeof t->col) || ixs_px_expect_op(p, ")") ? -1 : 0;
    return 0;
}

/* TABLE "(" MULTISET "(" SELECT at token i: a collection-derived table of
 * a query's rows. */
static int multiset_query_at(px *p, int i) {
    return ixs_px_kw(p, i, IXK_TABLE) && ixs_px_op(p, i + 1, "(") &&
           ixs_px_kw_str(p, i + 2, "multiset") && ixs_px_op(p, i + 3, "(") &&
           ixs_px_kw(p, i + 4, IXK_SELECT);
}

/* TABLE "(" MULTISET "(" query ")" ")" derived_tail: the query's rows, as
 * the derived table "(" query ")" (SELECT ITEM col: the column's values). */
static int multiset_table(px *p, sel_tref *t) {
    t->kind = TR_QUERY;
    p->i += 4;
    int item = p->coll_item;
    p->coll_item = 1;
    t->q = ixs_sel_parse(p);
    p->coll_item = item;
    if (!t->q || ixs_px_expect_op(p, ")") || ixs_px_expect_op(p, ")")) return -1;
    return derived_tail(p, t);
}

/* table_ref := "(" query ")" derived_tail
 *            | TABLE "(" MULTISET "(" query ")" ")" derived_tail
 *            | coll_table
 *            | TABLE "(" [ FUNCTION ] name "(" args ")" ")" derived_tail
 *            | "(" join_chain ")"
 *            | [db[@server]:][owner.]name opt_alias */
static sel_tref *table_ref(px *p) {
    sel_tref *t = calloc(1, sizeof *t);
    if (!t) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    t->tok = p->i;
    int rc;
    if (ixs_px_deeper(p))
        rc = -1;
    else if (ixs_px_op(p, p->i, "(") && ixs_px_kw(p, p->i + 1, IXK_SELECT)) {
        t->kind = TR_QUERY;
        p->i++;
        rc = !(t->q = ixs_sel_parse(p)) || ixs_px_expect_op(p, ")") || derived_tail(p, t);
    } else if (multiset_query_at(p, p->i)) {
        rc = multiset_table(p, t);
    } else if (ixs_px_kw(p, p->i, IXK_TABLE) && ixs_px_op(p, p->i + 1, "(") &&
               !ixs_px_kw(p, p->i + 2, IXK_FUNCTION) &&
               !(ixs_px_is_ident(p, p->i + 2) && ixs_px_op(p, p->i + 3, "(")))
        rc = coll_table(p, t);
    else if (ixs_px_kw(p, p->i, IXK_TABLE) && ixs_px_op(p, p->i + 1, "(")) {
        /* a TimeSeries routine (ixs_ts.c) */
        t->kind = TR_FUNC;
        int c = close_paren(p, p->i + 1);
        if (c < 0) {
            p->i++;
            rc = ixs_px_fail(p);
        } else {
            t->fn_end = c + 1;
            rc = !(t->ts = ixs_ts_from_parse(p)) || (p->i != t->fn_end && ixs_px_fail(p)) ||
                 derived_tail(p, t);
        }
    } else if (ixs_px_op(p, p->i, "(")) {
        t->kind = TR_JOIN;
        p->i++;
        rc = !(t->join = join_chain(p)) || ixs_px_expect_op(p, ")");
    } else {
        t->kind = TR_NAME;
        rc = ixs_px_objname(p, IXS_NAME_DB, t->name, sizeof t->name) ||
             opt_alias(p, t->alias, sizeof t->alias);
    }
    p->depth--;
    if (rc) {
        tref_free(t);
        return NULL;
    }
    return t;
}

/* join_kw := [INNER | CROSS | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN
 * *kind is JK_NONE when no join starts here; a join type without JOIN is -201. */
static int join_kw(px *p, int *kind) {
    int save = p->i, k = JK_INNER;
    *kind = JK_NONE;
    if (ixs_px_acc(p, IXK_INNER))
        k = JK_INNER;
    else if (ixs_px_acc(p, IXK_CROSS))
        k = JK_CROSS;
    else if (ixs_px_acc(p, IXK_LEFT))
        k = JK_LEFT;
    else if (ixs_px_acc(p, IXK_RIGHT))
        k = JK_RIGHT;
    else if (ixs_px_acc(p, IXK_FULL))
        k = JK_FULL;
    if (k == JK_LEFT || k == JK_RIGHT || k == JK_FULL) ixs_px_acc(p, IXK_OUTER);
    if (ixs_px_acc(p, IXK_JOIN)) {
        *kind = k;
        return 0;
    }
    if (p->i != save) {
        p->i = save;
        return ixs_px_fail(p);
    }
    return 0;
}

static void join_free(sel_join *j) {
    if (!j) return;
    tref_free(j->first);
    for (int i = 0; i < j->nop; i++) {
        join_free(j->op[i].rhs);
        ixs_ex_free(j->op[i].on);
    }
    free(j->op);
    free(j);
}

/* join_tail := { join }
 * join      := CROSS JOIN table_ref
 *            | [INNER | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN join_rhs ON cond
 * join_rhs  := table_ref join_tail
 * The right side takes the joins that follow it until its own ON, so
 * `a JOIN b JOIN c ON c1 ON c2` is `a JOIN (b JOIN c ON c1) ON c2`. */
static int join_tail(px *p, sel_join *j) {
    for (;;) {
        int k;
        if (join_kw(p, &k)) return -1;
        if (k == JK_NONE) return 0;
        if (ixs_px_deeper(p)) return -1;
        if (GROW(p, j->op, j->nop)) return ixs_px_fail(p);
        sel_joinop *o = &j->op[j->nop - 1];
        o->kind = k;
        int rc = !(o->rhs = calloc(1, sizeof *o->rhs)) ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
        if (!rc) rc = !(o->rhs->first = table_ref(p));
        if (!rc && k != JK_CROSS) rc = join_tail(p, o->rhs);
        p->depth--;
        if (!rc && k != JK_CROSS)
            rc = ixs_px_expect(p, IXK_ON) || !(o->on = ixs_ex_parse(p, IXS_EX_COND));
        if (rc) return -1;
    }
}

/* join_chain := table_ref join_tail */
static sel_join *join_chain(px *p) {
    sel_join *j = calloc(1, sizeof *j);
    if (!j) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    if (!(j->first = table_ref(p)) || join_tail(p, j)) {
        join_free(j);
        return NULL;
    }
    return j;
}

static void from_free(sel_from *f) {
    if (!f) return;
    for (int i = 0; i < f->n; i++) {
        join_free(f->it[i].chain);
        tref_free(f->it[i].t);
        from_free(f->it[i].list);
    }
    free(f->it);
    free(f);
}

/* from_item := OUTER "(" from_list ")" | OUTER table_ref | join_chain */
static int from_item(px *p, sel_fitem *it) {
    if (!ixs_px_acc(p, IXK_OUTER)) {
        it->kind = FI_CHAIN;
        return (it->chain = join_chain(p)) ? 0 : -1;
    }
    if (ixs_px_deeper(p)) return -1;
    int rc;
    if (ixs_px_op(p, p->i, "(") && !ixs_px_kw(p, p->i + 1, IXK_SELECT)) {
        it->kind = FI_OUTER_LIST;
        p->i++;
        rc = !(it->list = from_list(p)) || ixs_px_expect_op(p, ")");
    } else {
        it->kind = FI_OUTER_REF;
        rc = !(it->t = table_ref(p));
    }
    p->depth--;
    return rc ? -1 : 0;
}

/* from_list := from_item { "," from_item } */
static sel_from *from_list(px *p) {
    sel_from *f = calloc(1, sizeof *f);
    if (!f) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    do {
        if (GROW(p, f->it, f->n) || from_item(p, &f->it[f->n - 1])) {
            from_free(f);
            return NULL;
        }
    } while (ixs_px_acc_op(p, ","));
    return f;
}

/* ---- one SELECT core --------------------------------------------------------------------- */

static void core_free(sel_core *c) {
    for (int i = 0; i < c->nitems; i++)
        ixs_ex_free(c->items[i].e);
    free(c->items);
    from_free(c->from);
    for (int i = 0; i < c->nwhere; i++)
        ixs_ex_free(c->where[i].e);
    free(c->where);
    for (int i = 0; i < c->ngroup; i++)
        ixs_ex_free(c->group[i].e);
    free(c->group);
    ixs_ex_free(c->having);
}

/* head := SELECT [ ITEM ] { SKIP n | FIRST n | LIMIT n } [ DISTINCT | UNIQUE | ALL ]
 * (ITEM in the query of MULTISET(...) only: one column's values) */
static int sel_head(px *p, sel_core *c) {
    if (ixs_px_expect(p, IXK_SELECT)) return -1;
    int item = p->coll_item;
    p->coll_item = 0; /* not in the query's subqueries */
    if (item && ixs_px_kw_str(p, p->i, "item") && !ixs_px_kw(p, p->i + 1, IXK_FROM) &&
        !ixs_px_op(p, p->i + 1, ","))
        p->i++;
    for (;;) {
        if (ixs_px_acc(p, IXK_SKIP)) {
            if (limit_arg(p, &c->skip)) return -1;
        } else if (ixs_px_acc(p, IXK_FIRST) || ixs_px_acc(p, IXK_LIMIT)) {
            if (limit_arg(p, &c->first)) return -1;
        } else
            break;
    }
    if (ixs_px_acc(p, IXK_DISTINCT) || ixs_px_acc(p, IXK_UNIQUE))
        c->distinct = 1;
    else
        ixs_px_acc(p, IXK_ALL);
    return 0;
}

/* The token that ends the select list: FROM, a set operator, ORDER or INTO
 * at depth 0, an unmatched ')' or the end. */
static int sel_list_end(px *p) {
    int depth = 0, k = p->i;
    for (; k < p->nt && p->t[k].k != T_EOF; k++) {
        if (ixs_px_op(p, k, "("))
            depth++;
        else if (ixs_px_op(p, k, ")")) {
            if (--depth < 0) break;
        } else if (depth == 0 && (ixs_px_kw(p, k, IXK_FROM) || ixs_px_kw(p, k, IXK_UNION) ||
                                  ixs_px_kw(p, k, IXK_INTERSECT) || ixs_px_kw(p, k, IXK_EXCEPT) ||
                                  ixs_px_kw(p, k, IXK_MINUS) || ixs_px_kw(p, k, IXK_ORDER) ||
                                  ixs_px_kw(p, k, IXK_INTO)))
            break;
    }
    return k;
}

/* item := "*" | table "." "*" | expr [ [AS] alias ] */
static int item_parse(px *p, sel_core *c) {
    if (GROW(p, c->items, c->nitems)) return -1;
    sel_item *it = &c->items[c->nitems - 1];
    it->tok = p->i;
    if (ixs_px_acc_op(p, "*")) {
        it->kind = SI_STAR;
        return 0;
    }
    if (ixs_px_is_ident(p, p->i) && ixs_px_op(p, p->i + 1, ".") && ixs_px_op(p, p->i + 2, "*")) {
        it->kind = SI_TSTAR;
        ixs_px_ident(p, it->tname, sizeof it->tname);
        p->i += 2;
        return 0;
    }
    it->kind = SI_EXPR;
    if (!(it->e = ixs_ex_parse(p, IXS_EX_VALUE))) return -1;
    if (p->i < c->list_end && !ixs_px_op(p, p->i, ",")) {
        if (opt_alias(p, it->alias, sizeof it->alias)) return -1;
        if (!it->alias[0]) return ixs_px_fail(p);
    }
    return 0;
}

/* select_list := item { "," item } (OLAP window expressions allowed) */
static int sel_list(px *p, sel_core *c) {
    c->list_end = sel_list_end(p);
    int olap = p->olap_ok, rc = 0;
    p->olap_ok = 1;
    for (;;) {
        if ((rc = item_parse(p, c))) break;
        if (c->nitems > IXS_MAX_COLS) { /* counted before the items are resolved */
            rc = ixs_px_fail(p);
            break;
        }
        if (p->i < c->list_end && ixs_px_acc_op(p, ",")) continue;
        break;
    }
    p->olap_ok = olap;
    if (!rc && p->i != c->list_end) rc = ixs_px_fail(p);
    return rc;
}

/* where := conj { AND conj } | cond (when a top-level OR follows the
 * conjuncts, or they are more than SEL_MAX_CONJ: the whole condition is
 * one, its AND chain a balanced tree) */
static int sel_where(px *p, sel_core *c) {
    int start = p->i;
    for (int whole = 0;; whole = 1) {
        for (;;) {
            if (GROW(p, c->where, c->nwhere)) return -1;
            sel_conj *w = &c->where[c->nwhere - 1];
            if (!(w->e = ixs_ex_parse(p, whole ? IXS_EX_COND : IXS_EX_CONJ))) return -1;
            w->end = p->i;
            if (whole || c->nwhere > SEL_MAX_CONJ || !ixs_px_acc(p, IXK_AND)) break;
        }
        if (whole || (c->nwhere <= SEL_MAX_CONJ && !ixs_px_kw(p, p->i, IXK_OR))) return 0;
        for (int i = 0; i < c->nwhere; i++)
            ixs_ex_free(c->where[i].e);
        c->nwhere = 0;
        p->i = start;
    }
}

/* group := GROUP BY ( position | expr ) { "," ( position | expr ) } */
static int sel_group(px *p, sel_core *c) {
    if (ixs_px_expect(p, IXK_BY)) return -1;
    do {
        if (GROW(p, c->group, c->ngroup)) return -1;
        sel_gitem *g = &c->group[c->ngroup - 1];
        g->tok = p->i;
        if (p->i < p->nt && p->t[p->i].k == T_INT) {
            int64_t pos;
            if (ixs_px_int(p, &pos)) return -1;
            if (pos < 1 || pos > IXS_MAX_COLS) {
                p->i = g->tok;
                return ixs_px_fail(p);
            }
            g->pos = (int)pos;
        } else if (!(g->e = ixs_ex_parse(p, IXS_EX_VALUE)))
            return -1;
    } while (ixs_px_acc_op(p, ","));
    return 0;
}

/* core := head select_list [ FROM from_list ] [ WHERE where ] [ group ] [ HAVING cond ] */
static int sel_core_parse(px *p, sel_core *c) {
    c->tok = p->i;
    if (sel_head(p, c) || sel_list(p, c)) return -1;
    int olap = p->olap_ok, rc = 0;
    p->olap_ok = 0;
    if (ixs_px_acc(p, IXK_FROM) && !(c->from = from_list(p))) rc = -1;
    if (!rc && ixs_px_acc(p, IXK_WHERE)) rc = sel_where(p, c);
    if (!rc && ixs_px_acc(p, IXK_GROUP)) rc = sel_group(p, c);
    if (!rc && ixs_px_acc(p, IXK_HAVING)) rc = !(c->having = ixs_ex_parse(p, IXS_EX_COND));
    p->olap_ok = olap;
    return rc;
}

/* ---- the query ----------------------------------------------------------------------------- */

void ixs_sel_free(ixs_sel *q) {
    if (!q) return;
    for (int i = 0; i < q->ncore; i++)
        core_free(&q->core[i]);
    free(q->core);
    free(q->op);
    for (int i = 0; i < q->norder; i++)
        ixs_ex_free(q->order[i].e);
    free(q->order);
    free(q);
}

/* set_op := UNION [ALL] | INTERSECT | EXCEPT | MINUS: SO_*, -1 when none */
static int set_op(px *p) {
    if (ixs_px_acc(p, IXK_UNION)) return ixs_px_acc(p, IXK_ALL) ? SO_UNION_ALL : SO_UNION;
    if (ixs_px_acc(p, IXK_INTERSECT)) return SO_INTERSECT;
    if (ixs_px_acc(p, IXK_EXCEPT) || ixs_px_acc(p, IXK_MINUS)) return SO_EXCEPT;
    return -1;
}

/* The tokens that may follow an output column name used as an ORDER BY item. */
static int order_name_end(px *p) {
    return p->i >= p->nt || p->t[p->i].k == T_EOF || ixs_px_op(p, p->i, ",") ||
           ixs_px_kw(p, p->i, IXK_ASC) || ixs_px_kw(p, p->i, IXK_DESC) ||
           ixs_px_kw(p, p->i, IXK_NULLS) || ixs_px_kw(p, p->i, IXK_LIMIT) ||
           ixs_px_op(p, p->i, ")") || ixs_px_kw(p, p->i, IXK_FOR) || ixs_px_kw(p, p->i, IXK_INTO) ||
           ixs_px_op(p, p->i, ";");
}

/* order_item := ( position | output_column_name | expr ) [ ASC | DESC ]
 *               [ NULLS { FIRST | LAST } ]
 * A name is kept both as a possible output column and as an expression. */
static int order_item(px *p, sel_oitem *o) {
    o->tok = p->i;
    if (p->i < p->nt && p->t[p->i].k == T_INT) {
        int64_t pos;
        if (ixs_px_int(p, &pos)) return -1;
        if (pos < 1 || pos > IXS_MAX_COLS) {
            p->i = o->tok;
            return ixs_px_fail(p);
        }
        o->pos = (int)pos;
    } else {
        if (ixs_px_is_ident(p, p->i) && !ixs_px_op(p, p->i + 1, ".") &&
            !ixs_px_op(p, p->i + 1, "(")) {
            ixs_ident nm;
            ixs_px_ident(p, nm, sizeof nm);
            if (order_name_end(p)) memcpy(o->name, nm, sizeof nm);
            p->i = o->tok;
        }
        if (!(o->e = ixs_ex_parse(p, IXS_EX_VALUE))) return -1;
    }
    if (ixs_px_acc(p, IXK_DESC))
        o->desc = 1;
    else
        ixs_px_acc(p, IXK_ASC);
    if (!ixs_px_acc(p, IXK_NULLS)) return 0;
    if (ixs_px_acc(p, IXK_FIRST))
        o->nulls = 'F';
    else if (ixs_px_acc(p, IXK_LAST))
        o->nulls = 'L';
    else
        return ixs_px_fail(p);
    return 0;
}

/* order_by := ORDER BY order_item { "," order_item } (OLAP expressions allowed) */
static int order_by(px *p, ixs_sel *q) {
    if (ixs_px_expect(p, IXK_BY)) return -1;
    int olap = p->olap_ok, rc = 0;
    p->olap_ok = 1;
    do {
        if ((rc = GROW(p, q->order, q->norder)) || (rc = order_item(p, &q->order[q->norder - 1])))
            break;
    } while (ixs_px_acc_op(p, ","));
    p->olap_ok = olap;
    return rc;
}

/* for_clause := FOR UPDATE [ OF column { "," column } ] | FOR READ ONLY */
static int for_clause(px *p, ixs_sel *q) {
    if (ixs_px_acc(p, IXK_UPDATE)) {
        q->for_update = 1;
        if (ixs_px_acc(p, IXK_OF)) {
            ixs_ident c;
            do {
                if (ixs_px_ident(p, c, sizeof c)) return -1;
            } while (ixs_px_acc_op(p, ","));
        }
        return 0;
    }
    if (ixs_px_acc(p, IXK_READ)) return ixs_px_expect(p, IXK_ONLY);
    return ixs_px_fail(p);
}

/* query := core { set_op core } [ order_by ] [ LIMIT n ] [ for_clause ] */
ixs_sel *ixs_sel_parse(px *p) {
    ixs_sel *q = calloc(1, sizeof *q);
    if (!q) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    q->tok = p->i;
    int rc = ixs_px_deeper(p);
    for (int op = SO_UNION; !rc;) {
        int n = q->ncore, nop = q->ncore ? q->ncore - 1 : 0;
        if ((rc = GROW(p, q->core, q->ncore))) break;
        if (n && (rc = GROW(p, q->op, nop))) break;
        if (n) q->op[n - 1] = op;
        if ((rc = sel_core_parse(p, &q->core[n]))) break;
        if ((op = set_op(p)) < 0) break;
    }
    if (!rc && ixs_px_acc(p, IXK_ORDER)) rc = order_by(p, q);
    if (!rc && ixs_px_acc(p, IXK_LIMIT)) rc = limit_arg(p, &q->limit);
    if (!rc && ixs_px_acc(p, IXK_FOR)) rc = for_clause(p, q);
    p->depth--;
    if (rc || p->failed) {
        ixs_sel_free(q);
        return NULL;
    }
    return q;
}

/* source := table_ref (a derived table or TABLE(collection), with its alias
 * and column list) as the query SELECT * FROM table_ref; its alias into
 * alias (MERGE's USING). */
ixs_sel *ixs_sel_from_source(px *p, char *alias, size_t n) {
    ixs_sel *q = calloc(1, sizeof *q);
    sel_core *c = q ? calloc(1, sizeof *c) : NULL;
    if (!c) {
        free(q);
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    q->core = c;
    q->ncore = 1;
    q->tok = c->tok = c->list_end = p->i;
    int rc = GROW(p, c->items, c->nitems);
    if (!rc) {
        c->items[0].kind = SI_STAR;
        c->items[0].tok = p->i;
        rc = !(c->from = calloc(1, sizeof *c->from)) ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
    }
    if (!rc) rc = GROW(p, c->from->it, c->from->n);
    if (!rc) {
        sel_fitem *it = &c->from->it[0];
        it->kind = FI_CHAIN;
        if (!(it->chain = calloc(1, sizeof *it->chain)))
            rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
        else if (!(it->chain->first = table_ref(p)))
            rc = -1;
        else
            snprintf(alias, n, "%s", it->chain->first->alias);
    }
    if (rc || p->failed) {
        ixs_sel_free(q);
        return NULL;
    }
    return q;
}

/* ---- INSERT / UPDATE / DELETE ---------------------------------------------------------------- */

void ixs_dml_free(ixs_dml_t *d) {
    if (!d) return;
    free(d->cols);
    free(d->coltok);
    for (int i = 0; i < d->nvals; i++)
        ixs_ex_free(d->vals[i]);
    free(d->vals);
    free(d->valtok);
    ixs_sel_free(d->q);
    ixs_ex_free(d->cond);
    free(d);
}

/* Column name cn (at token at) as the next of d's columns. */
static int add_col(px *p, ixs_dml_t *d, const char *cn, int at) {
    int n = d->ncols;
    if (GROW(p, d->cols, d->ncols)) return -1;
    if (GROW(p, d->coltok, n)) return -1;
    memcpy(d->cols[d->ncols - 1], cn, sizeof(ixs_ident));
    d->coltok[d->ncols - 1] = at;
    return 0;
}

/* column_list := column { "," column } ")" (after its "(") */
static int col_list(px *p, ixs_dml_t *d) {
    do {
        ixs_ident cn;
        int at = p->i;
        if (ixs_px_ident(p, cn, sizeof cn) || add_col(p, d, cn, at)) return -1;
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* value_list := expr { "," expr } ")" (after its "(") */
static int value_list(px *p, ixs_dml_t *d) {
    do {
        int n = d->nvals, nt = n, at = p->i;
        if (GROW(p, d->vals, d->nvals) || GROW(p, d->valtok, nt)) return -1;
        d->valtok[n] = at;
        if (!(d->vals[n] = ixs_ex_parse(p, IXS_EX_VALUE))) return -1;
    } while (ixs_px_acc_op(p, ","));
    d->vals_end = p->i;
    return ixs_px_expect_op(p, ")");
}

/* where_clause := [ WHERE cond | WHERE CURRENT OF cursor ] */
static int where_clause(px *p, ixs_dml_t *d) {
    if (!ixs_px_acc(p, IXK_WHERE)) return 0;
    if (ixs_px_acc(p, IXK_CURRENT)) {
        d->where = WH_CURRENT;
        return ixs_px_expect(p, IXK_OF) || ixs_px_ident(p, d->cursor, sizeof d->cursor);
    }
    d->where = WH_COND;
    return (d->cond = ixs_ex_parse(p, IXS_EX_COND)) ? 0 : -1;
}

/* insert := INSERT INTO table [ "(" column_list ]
 *           ( VALUES "(" value_list | query | "(" query ")" ) */
static int insert_parse(px *p, ixs_dml_t *d) {
    if (ixs_px_expect(p, IXK_INTO)) return -1;
    d->tok = p->i;
    if (ixs_px_objname(p, IXS_NAME_DB, d->table, sizeof d->table)) return -1;
    if (ixs_px_acc_op(p, "(")) {
        d->multi = 1; /* the columns are listed */
        if (col_list(p, d)) return -1;
    }
    if (ixs_px_acc(p, IXK_VALUES)) return ixs_px_expect_op(p, "(") || value_list(p, d);
    if (!ixs_px_kw(p, p->i, IXK_SELECT) && !ixs_px_op(p, p->i, "(")) return ixs_px_fail(p);
    int paren = ixs_px_acc_op(p, "(");
    if (!(d->q = ixs_sel_parse(p))) return -1;
    return paren ? ixs_px_expect_op(p, ")") : 0;
}

/* row_values := "(" query ")" | "(" "(" query ")" ")" | "(" value_list
 * after `SET (columns) =` */
static int upd_row_values(px *p, ixs_dml_t *d) {
    int i = p->i,
        dbl = ixs_px_op(p, i, "(") && ixs_px_op(p, i + 1, "(") && ixs_px_kw(p, i + 2, IXK_SELECT);
    if (dbl) {
        int c = close_paren(p, i + 1);
        dbl = c > 0 && ixs_px_op(p, c + 1, ")");
    }
    if (dbl || (ixs_px_op(p, i, "(") && ixs_px_kw(p, i + 1, IXK_SELECT))) {
        p->i += dbl ? 2 : 1;
        if (!(d->q = ixs_sel_parse(p)) || ixs_px_expect_op(p, ")")) return -1;
        return dbl ? ixs_px_expect_op(p, ")") : 0;
    }
    return ixs_px_expect_op(p, "(") || value_list(p, d);
}

/* assignment := [ table "." ] column "=" expr */
static int upd_assign(px *p, ixs_dml_t *d) {
    ixs_ident cn;
    int at = p->i;
    if (ixs_px_ident(p, cn, sizeof cn)) return -1;
    if (ixs_px_acc_op(p, ".")) {
        at = p->i;
        if (ixs_px_ident(p, cn, sizeof cn)) return -1;
    }
    if (add_col(p, d, cn, at) || ixs_px_expect_op(p, "=")) return -1;
    int n = d->nvals, nt = n;
    if (GROW(p, d->vals, d->nvals) || GROW(p, d->valtok, nt)) return -1;
    d->valtok[n] = p->i;
    return (d->vals[n] = ixs_ex_parse(p, IXS_EX_VALUE)) ? 0 : -1;
}

/* update := UPDATE table SET ( assignment { "," assignment }
 *                            | ( "*" | "(" column_list ) "=" row_values )
 *           where_clause */
static int update_parse(px *p, ixs_dml_t *d) {
    d->tok = p->i;
    if (ixs_px_objname(p, IXS_NAME_DB, d->table, sizeof d->table) || ixs_px_expect(p, IXK_SET))
        return -1;
    if (ixs_px_op(p, p->i, "(") || ixs_px_op(p, p->i, "*")) {
        d->multi = 1;
        if (ixs_px_acc_op(p, "*"))
            d->star = 1;
        else if (ixs_px_acc_op(p, "(") && col_list(p, d))
            return -1;
        if (ixs_px_expect_op(p, "=") || upd_row_values(p, d)) return -1;
    } else
        do {
            if (upd_assign(p, d)) return -1;
        } while (ixs_px_acc_op(p, ","));
    return where_clause(p, d);
}

/* delete := DELETE [ FROM ] table where_clause */
static int delete_parse(px *p, ixs_dml_t *d) {
    ixs_px_acc(p, IXK_FROM);
    d->tok = p->i;
    if (ixs_px_objname(p, IXS_NAME_DB, d->table, sizeof d->table)) return -1;
    return where_clause(p, d);
}

/* dml := INSERT insert | UPDATE update | DELETE delete */
ixs_dml_t *ixs_dml_parse(px *p) {
    ixs_dml_t *d = calloc(1, sizeof *d);
    if (!d) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    int rc;
    if (ixs_px_acc(p, IXK_INSERT)) {
        d->kind = DML_INSERT;
        rc = insert_parse(p, d);
    } else if (ixs_px_acc(p, IXK_UPDATE)) {
        d->kind = DML_UPDATE;
        rc = update_parse(p, d);
    } else if (ixs_px_acc(p, IXK_DELETE)) {
        d->kind = DML_DELETE;
        rc = delete_parse(p, d);
    } else
        rc = ixs_px_fail(p);
    if (rc || p->failed) {
        ixs_dml_free(d);
        return NULL;
    }
    return d;
}
