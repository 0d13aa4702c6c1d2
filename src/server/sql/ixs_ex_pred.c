/* ixs_ex_pred.c: the emission of predicates: comparisons (also with ANY,
 * SOME, ALL and a subquery), BETWEEN, IN (a list, a subquery, a
 * collection), LIKE / MATCHES and IS NULL. The operands are brought to one
 * storage domain first (ixs_cmp_coerce); character values then compare
 * ignoring trailing blanks (ixs_blanks_collate). */
#include <stdio.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"

#define xs ixs_xs

/* The first column of subquery q as the operand _q.column */
static void sub_col(const qres *q, xv *c) {
    ixs_xv_init(c);
    ixv_sb_add(&c->s, "_q.");
    ixv_sb_ident(&c->s, q->ncols ? q->cols[0].name : "");
    c->t = q->ncols ? q->cols[0].t : ixv_t(-1, 0);
    c->k = XK_COL;
}

/* x op ANY|SOME|ALL ( select ):
 * x op ANY (sub) == EXISTS (SELECT 1 FROM (sub) WHERE x op c) */
static int pred_quant(px *p, ixs_ex *e, xv *out, const qres *q, sb *s) {
    ixs_settle(p, out);
    xv c;
    sub_col(q, &c);
    ixs_cmp_coerce(p, out, &c);
    ixs_blanks_collate(out);
    if (e->flag)
        ixv_sb_printf(s, "EXISTS (SELECT 1 FROM (%s) AS _q WHERE %s %s %s)", q->sql.p, xs(out),
                      e->cmp, xs(&c));
    else
        ixv_sb_printf(s, "NOT EXISTS (SELECT 1 FROM (%s) AS _q WHERE NOT (%s %s %s))", q->sql.p,
                      xs(out), e->cmp, xs(&c));
    ixs_xv_free(&c);
    return 0;
}

/* x [NOT] IN ( select ) */
static int pred_in_sub(px *p, ixs_ex *e, xv *out, const qres *q, sb *s) {
    ixs_settle(p, out);
    if (q->ncols != 1) return ixs_px_fail(p);
    xv c;
    sub_col(q, &c);
    if (out->k == XK_PARAM || ixs_ex_is_lit(out)) ixs_to_type(p, out, c.t);
    ixs_cmp_coerce(p, out, &c);
    ixs_blanks_collate(out);
    const char *neg = e->neg ? "NOT " : "";
    if (!strncmp(c.s.p, "_q.", 3))
        ixv_sb_printf(s, "(%s %sIN (%s))", xs(out), neg, q->sql.p);
    else
        ixv_sb_printf(s, "(%s %sIN (SELECT %s FROM (%s) AS _q))", xs(out), neg, xs(&c), q->sql.p);
    ixs_xv_free(&c);
    return 0;
}

/* The predicates over a subquery: its SQL, then the predicate's. */
static int pred_sub(px *p, ixs_ex *e, xv *out, sb *s) {
    qres q;
    memset(&q, 0, sizeof q);
    int rc = ixs_sel_emit(p, e->qs, &q);
    ixs_px_at(p, e->end);
    if (!rc) rc = e->op == EX_QUANT ? pred_quant(p, e, out, &q, s) : pred_in_sub(p, e, out, &q, s);
    ixs_qres_free(&q);
    return rc || p->failed ? -1 : 0;
}

/* x [NOT] IN ( add { , add } ) */
static int pred_in_list(px *p, ixs_ex *e, xv *out, sb *s) {
    ixs_settle(p, out);
    sb body = {0};
    for (int k = 0; k < e->nk; k++) {
        xv v;
        ixs_xv_init(&v);
        if (ixs_ex_emit_node(p, e->kids[k], &v)) {
            ixs_xv_free(&v);
            ixv_sb_free(&body);
            return -1;
        }
        if (ixs_ex_is_lit(out) && !ixs_ex_is_lit(&v)) ixs_settle(p, &v);
        ixs_cmp_coerce(p, out, &v);
        if (k) ixv_sb_addc(&body, ',');
        ixv_sb_add(&body, xs(&v));
        ixs_xv_free(&v);
    }
    ixs_blanks_collate(out);
    ixv_sb_printf(s, "(%s %sIN (%s))", xs(out), e->neg ? "NOT " : "", body.p ? body.p : "");
    ixv_sb_free(&body);
    return 0;
}

/* x [NOT] BETWEEN r AND hi */
static int pred_between(px *p, ixs_ex *e, xv *out, xv *r, sb *s) {
    xv hi;
    ixs_xv_init(&hi);
    if (ixs_ex_emit_node(p, e->b, r) || ixs_ex_emit_node(p, e->c, &hi)) {
        ixs_xv_free(&hi);
        return -1;
    }
    ixs_settle(p, out);
    if (ixs_ex_is_lit(out)) {
        ixs_settle(p, r);
        ixs_to_type(p, out, r->t);
    }
    ixs_cmp_coerce(p, out, r);
    ixs_cmp_coerce(p, out, &hi);
    ixs_blanks_collate(out);
    ixv_sb_printf(s, "(%s %sBETWEEN %s AND %s)", xs(out), e->neg ? "NOT " : "", xs(r), xs(&hi));
    ixs_xv_free(&hi);
    return 0;
}

/* x [NOT] LIKE|MATCHES r [ESCAPE esc] */
static int pred_like(px *p, ixs_ex *e, xv *out, xv *r, sb *s) {
    if (ixs_ex_emit_node(p, e->b, r)) return -1;
    ixs_as_text(p, out);
    ixs_as_text(p, r);
    xv esc;
    ixs_xv_init(&esc);
    if (e->c && ixs_ex_emit_node(p, e->c, &esc)) {
        ixs_xv_free(&esc);
        return -1;
    }
    const char *neg = e->neg ? "NOT " : "";
    if (e->flag)
        ixv_sb_printf(s, "(%sixd_matches(%s,%s))", neg, xs(out), xs(r));
    else
        ixv_sb_printf(s, "(%s %sLIKE %s ESCAPE %s)", xs(out), neg, xs(r), e->c ? xs(&esc) : "'\\'");
    ixs_xv_free(&esc);
    return 0;
}

/* The predicate's SQL s from its first operand out (and r) */
static int pred_sql(px *p, ixs_ex *e, xv *out, xv *r, sb *s) {
    switch (e->op) {
    case EX_CMP:
        if (ixs_ex_emit_node(p, e->b, r)) return -1;
        ixs_cmp_coerce(p, out, r);
        if (r->k != XK_COL) ixs_blanks_collate(out);
        ixv_sb_printf(s, "(%s %s %s)", xs(out), e->cmp, xs(r));
        return 0;
    case EX_QUANT:
    case EX_IN_SUB: return pred_sub(p, e, out, s);
    case EX_BETWEEN: return pred_between(p, e, out, r, s);
    case EX_IN_COLL:
        return ixs_ex_emit_node(p, e->b, r) || ixs_coll_in(p, out, r, e->neg, s) ? -1 : 0;
    case EX_IN_LIST: return pred_in_list(p, e, out, s);
    case EX_LIKE: return pred_like(p, e, out, r, s);
    default: ixv_sb_printf(s, "(%s IS %sNULL)", xs(out), e->neg ? "NOT " : ""); return 0;
    }
}

int ixs_ex_emit_pred(px *p, ixs_ex *e, xv *out) {
    if (ixs_ex_emit_node(p, e->a, out)) return -1;
    xv r;
    ixs_xv_init(&r);
    sb s = {0};
    int rc = pred_sql(p, e, out, &r, &s);
    if (rc || p->failed) {
        ixv_sb_free(&s);
        ixs_xv_free(&r);
        return -1;
    }
    /* out becomes the predicate */
    int agg = out->agg || r.agg;
    ixs_xv_free(out);
    ixs_xv_free(&r);
    out->s = s;
    out->t = e->t; /* BOOLEAN (the resolver's) */
    out->k = XK_PRED;
    out->agg = agg;
    out->lk = LB_EXPR;
    out->pidx = -1;
    return 0;
}
