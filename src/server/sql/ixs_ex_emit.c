/* ixs_ex_emit.c: the SQLite SQL of a resolved expression tree, in ixd's
 * storage domain, with the Informix type of every value (xv). Operands are
 * emitted in text order, then coerced to each other (ixs_ex_types.c), as
 * the parameters' types are inferred from their first use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"

#define xs ixs_xs

/* The SQL of a bound column reference. */
static int emit_col(px *p, ixs_ex *e, xv *out) {
    if (e->rk == EXR_SEQ)
        return ixs_ex_xv_copy(e->rx, out) ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
    tref *t = e->rsc->t[e->ti];
    if (t->alias[0]) {
        ixv_sb_ident(&out->s, t->alias);
        ixv_sb_addc(&out->s, '.');
    }
    if (e->rk == EXR_ROWID) {
        ixv_sb_add(&out->s, "rowid");
        out->t = ixv_t(IX_T_INTEGER, 4);
        snprintf(out->label, sizeof out->label, "rowid");
    } else {
        icol *c = &t->tab.cols[e->ci];
        ixv_sb_ident(&out->s, c->name);
        out->t = c->t;
        if (c->serial == 1) out->t = ixv_t(IX_T_SERIAL, 4);
        out->notnull = c->notnull && !t->outer;
        out->stored = !t->derived && !t->tab.is_view;
        snprintf(out->label, sizeof out->label, "%s", c->name);
    }
    out->k = XK_COL;
    out->lk = LB_COL;
    if (e->field) {
        ixs_px_at(p, e->end);
        return ixs_row_field(p, out, e->field);
    }
    return 0;
}

/* One field of a ROW literal into desc (its type) and args (its SQL): the
 * fields keep their own types (a literal is settled to its type). */
static int row_field(px *p, ixs_ex *f, sb *desc, sb *args) {
    xv v;
    ixs_xv_init(&v);
    if (ixs_ex_emit_node(p, f, &v)) {
        ixs_xv_free(&v);
        return -1;
    }
    ixs_px_at(p, f->end);
    ixs_settle(p, &v);
    if (v.k == XK_PARAM) ixs_to_type(p, &v, ixv_t(IX_T_VARCHAR, 255));
    ityp t = v.t.code >= 0 ? v.t : ixv_t(IX_T_CHAR, 1);
    int rc = 0;
    if (ixs_coll_is(t.code) || t.code == IX_T_ROW)
        rc = ixs_px_fail(p); /* nested rows and collections: not supported */
    ixv_sb_printf(desc, "%02X%08X", (unsigned)t.code & 0xff, t.len);
    ixv_sb_printf(args, ",%s", ixs_xs(&v));
    ixs_xv_free(&v);
    return rc;
}

/* ROW ( fields ) as ixd_row_pack(description, fields) */
static int emit_row(px *p, ixs_ex *e, xv *out) {
    sb args = {0}, desc = {0};
    int rc = 0;
    ixv_sb_add(&desc, "X'");
    for (int k = 0; k < e->nk && !rc; k++)
        rc = row_field(p, e->kids[k], &desc, &args);
    ixv_sb_addc(&desc, '\'');
    if (!rc)
        ixv_sb_printf(&out->s, "ixd_row_pack(%s%s)", desc.p ? desc.p : "X''", args.p ? args.p : "");
    ixv_sb_free(&args);
    ixv_sb_free(&desc);
    if (rc) return -1;
    out->k = XK_EXPR;
    out->lk = LB_EXPR;
    out->t = e->t;
    return out->s.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
}

/* name ( args ): the arguments emitted, then the call */
static int emit_call(px *p, ixs_ex *e, xv *out) {
    xv *a = malloc((size_t)(e->nk ? e->nk : 1) * sizeof *a);
    if (!a) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    int n = 0, rc = 0;
    for (; n < e->nk && !rc; n++) {
        ixs_xv_init(&a[n]);
        rc = ixs_ex_emit_node(p, e->kids[n], &a[n]);
    }
    ixs_px_at(p, e->end);
    if (!rc && e->sub == EXC_TS)
        rc = ixs_ts_call_emit(p, e, a, n, out);
    else if (!rc)
        rc = ixs_func_emit(p, e->fn, e->part[0], a, n, out);
    if (!rc && e->sub != EXC_TS && e->t.code >= 0) out->t = e->t; /* the resolver's */
    for (int k = 0; k < n; k++)
        ixs_xv_free(&a[k]);
    free(a);
    return rc || p->failed ? -1 : 0;
}

/* An aggregate: its argument emitted where another aggregate is an error */
static int emit_agg(px *p, ixs_ex *e, xv *out) {
    if (!e->a) return ixs_func_agg(p, e->part[0], 0, NULL, out);
    xv a;
    ixs_xv_init(&a);
    p->in_agg = 1;
    int rc = ixs_ex_emit_node(p, e->a, &a);
    p->in_agg = 0;
    ixs_px_at(p, e->end);
    if (!rc) rc = ixs_func_agg(p, e->part[0], e->flag, &a, out);
    if (!rc && e->t.code >= 0) out->t = e->t; /* the resolver's */
    ixs_xv_free(&a);
    return rc;
}

/* CAST, EXTEND, SUBSTRING, TRIM: the operands a, b, c emitted (c first:
 * TRIM's characters come before its source), then the function */
static int emit_special(px *p, ixs_ex *e, xv *out) {
    xv v[3];
    ixs_ex *k[3] = {e->a, e->b, e->c};
    int order[3] = {0, 1, 2}, rc = 0;
    if (e->op == EX_TRIM) order[0] = 2, order[2] = 0;
    for (int i = 0; i < 3; i++)
        ixs_xv_init(&v[i]);
    for (int i = 0; i < 3 && !rc; i++)
        if (k[order[i]]) rc = ixs_ex_emit_node(p, k[order[i]], &v[order[i]]);
    ixs_px_at(p, e->end);
    if (!rc && e->op == EX_FCAST) rc = ixs_func_cast(p, &v[0], e->t, out);
    if (!rc && e->op == EX_EXTEND) rc = ixs_func_extend(p, &v[0], e->flag ? &e->q : NULL, out);
    if (!rc && e->op == EX_SUBSTRING) rc = ixs_func_substring(p, v, e->c ? 3 : 2, out);
    if (!rc && e->op == EX_TRIM) rc = ixs_func_trim(p, e->sub, &v[0], e->c ? &v[2] : NULL, out);
    if (!rc && e->t.code >= 0) out->t = e->t; /* the resolver's */
    for (int i = 0; i < 3; i++)
        ixs_xv_free(&v[i]);
    return rc || p->failed ? -1 : 0;
}

static int emit_param(px *p, ixs_ex *e, xv *out) {
    out->k = XK_PARAM;
    out->pidx = e->pidx;
    out->lk = LB_EXPR;
    ixv_sb_printf(&out->s, "?%d", e->pidx + 1);
    if (p->ptypes[e->pidx].code >= 0) out->t = p->ptypes[e->pidx];
    return 0;
}

static int emit_lit(px *p, ixs_ex *e, xv *out) {
    if (ixs_ex_xv_copy(e->lit, out)) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    for (int k = 0; k < e->neg; k++)
        if (ixs_ex_neg(p, out)) return -1;
    return 0;
}

/* TODAY, CURRENT, USER and the niladic built-ins */
static int emit_word(px *p, ixs_ex *e, xv *out) {
    out->lk = LB_EXPR;
    switch (e->op) {
    case EX_TODAY: ixv_sb_add(&out->s, "ixv_today()"); break;
    case EX_CURRENT: ixv_sb_printf(&out->s, "ixd_current(%u)", e->q); break;
    case EX_USER: ixv_sb_strlit(&out->s, p->db->user, strlen(p->db->user)); break;
    default: ixs_func_niladic_emit(p, e->sub, out);
    }
    out->t = e->t;
    return 0;
}

/* ( select ) as a value, or EXISTS ( select ) */
static int emit_subq(px *p, ixs_ex *e, xv *out) {
    qres q;
    memset(&q, 0, sizeof q);
    if (ixs_sel_emit(p, e->qs, &q)) {
        ixs_qres_free(&q);
        return -1;
    }
    ixs_px_at(p, e->end);
    if (e->op == EX_EXISTS) {
        ixv_sb_printf(&out->s, "EXISTS (%s)", q.sql.p);
        out->t = e->t;
        out->k = XK_PRED;
    } else {
        if (q.ncols != 1) {
            ixs_qres_free(&q);
            return ixs_px_fail(p);
        }
        /* more than one row is -284, as in Informix */
        ixv_sb_add(&out->s,
                   "(SELECT CASE WHEN count(*) > 1 THEN ixd_raise(-284, '') ELSE min(_q1.");
        ixv_sb_ident(&out->s, q.cols[0].name);
        ixv_sb_printf(&out->s, ") END FROM (SELECT * FROM (%s) LIMIT 2) AS _q1)", q.sql.p);
        out->t = q.cols[0].t;
        out->lk = LB_EXPR;
    }
    ixs_qres_free(&q);
    return 0;
}

/* ( a ) */
static int emit_paren(px *p, ixs_ex *e, xv *out) {
    if (ixs_ex_emit_node(p, e->a, out)) return -1;
    if (e->field) { /* f(args).field */
        ixs_px_at(p, e->end);
        return ixs_row_field(p, out, e->field);
    }
    sb n = {0};
    ixv_sb_printf(&n, "(%s)", xs(out));
    ixs_xv_set_sql(out, &n);
    if (out->lk == LB_COL) out->lk = LB_EXPR;
    if (e->t.code >= 0) out->t = e->t; /* the resolver's */
    return 0;
}

/* The branches of a CASE emitted into w (WHEN values) and r (results,
 * r[nw] the ELSE), then typed alike (the type holding every result). */
static int case_branches(px *p, ixs_ex *e, xv *sel, xv *w, xv *r, int nw) {
    if (e->a) {
        if (ixs_ex_emit_node(p, e->a, sel)) return -1;
        ixs_settle(p, sel);
    }
    for (int k = 0; k < nw; k++) {
        ixs_ex *we = e->kids[2 * k], *re = e->kids[2 * k + 1];
        if (e->a ? ixs_ex_emit_node(p, we, &w[k]) : ixs_ex_emit_cond(p, we, &w[k])) return -1;
        if (ixs_ex_emit_node(p, re, &r[k])) return -1;
    }
    return e->flag ? ixs_ex_emit_node(p, e->c, &r[nw]) : 0;
}

/* CASE: its SQL with the results of one type into out (the resolver's, or
 * when it could not type every result, the type that holds them all). */
static int case_sql(px *p, ixs_ex *e, xv *sel, xv *w, xv *r, int nw, xv *out) {
    ityp rt = e->t;
    int known = rt.code >= 0;
    for (int i = 0; i < nw + e->flag; i++) {
        ixs_settle(p, &r[i]);
        if (!known && r[i].k != XK_NULL && r[i].k != XK_PARAM) rt = ixs_merge_type(rt, r[i].t);
    }
    if (rt.code < 0) rt = ixv_t(IX_T_CHAR, 1);
    sb s = {0};
    ixv_sb_add(&s, "CASE");
    for (int i = 0; e->a && i < nw; i++) /* x and the WHEN values, then x's SQL */
        ixs_cmp_coerce(p, sel, &w[i]);
    if (e->a) ixs_blanks_collate(sel); /* WHEN values compare ignoring trailing blanks */
    if (e->a) ixv_sb_printf(&s, " %s", xs(sel));
    for (int i = 0; i < nw; i++) {
        ixs_to_type(p, &r[i], rt);
        ixv_sb_printf(&s, " WHEN %s THEN %s", xs(&w[i]), xs(&r[i]));
    }
    if (e->flag) {
        ixs_to_type(p, &r[nw], rt);
        ixv_sb_printf(&s, " ELSE %s", xs(&r[nw]));
    }
    ixv_sb_add(&s, " END");
    ixs_xv_set_sql(out, &s);
    out->t = rt;
    out->lk = LB_EXPR;
    return p->failed ? -1 : 0;
}

/* CASE (the branches on the heap: 257 of them would take 100 KiB of a
 * connection's stack) */
static int emit_case(px *p, ixs_ex *e, xv *out) {
    int nw = e->nk / 2, rc = -1;
    xv sel, *w = malloc((size_t)(nw ? nw : 1) * sizeof *w),
            *r = malloc((size_t)(nw + 1) * sizeof *r);
    ixs_xv_init(&sel);
    if (!w || !r) {
        free(w);
        free(r);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    for (int k = 0; k < nw; k++) {
        ixs_xv_init(&w[k]);
        ixs_xv_init(&r[k]);
    }
    ixs_xv_init(&r[nw]);
    if (!case_branches(p, e, &sel, w, r, nw)) rc = case_sql(p, e, &sel, w, r, nw, out);
    ixs_xv_free(&sel);
    for (int k = 0; k < nw; k++) {
        ixs_xv_free(&w[k]);
        ixs_xv_free(&r[k]);
    }
    ixs_xv_free(&r[nw]);
    free(w);
    free(r);
    return rc;
}

/* a :: t */
static int emit_cast(px *p, ixs_ex *e, xv *out) {
    if (ixs_ex_emit_node(p, e->a, out)) return -1;
    ixs_px_at(p, e->end);
    ixs_settle(p, out);
    ixs_to_type(p, out, e->t);
    out->t = e->t;
    out->lk = LB_EXPR;
    if (out->k == XK_PARAM) out->k = XK_EXPR; /* a typed value now: ?::INTEGER */
    return p->failed ? -1 : 0;
}

/* a [ n1, n2 ]: Informix substring (1-based, inclusive) */
static int emit_substr(px *p, ixs_ex *e, xv *out) {
    if (ixs_ex_emit_node(p, e->a, out)) return -1;
    ixs_as_text(p, out);
    sb n3 = {0};
    ixv_sb_printf(&n3, "substr(%s,%lld,%lld)", xs(out), (long long)e->n1,
                  (long long)(e->n2 - e->n1 + 1));
    ixs_xv_set_sql(out, &n3);
    out->t = e->t;
    out->k = XK_EXPR;
    out->lk = LB_EXPR;
    return 0;
}

/* a op b: arithmetic (EX_ARITH) or || (EX_CONCAT) */
static int emit_binary(px *p, ixs_ex *e, xv *out) {
    xv l, r;
    ixs_xv_init(&l);
    ixs_xv_init(&r);
    int rc = ixs_ex_emit_node(p, e->a, &l) || ixs_ex_emit_node(p, e->b, &r) ? -1 : 0;
    ixs_px_at(p, e->end);
    if (!rc && e->op == EX_CONCAT)
        ixs_ex_concat(p, &l, &r, e->t, out);
    else if (!rc)
        rc = ixs_ex_arith(p, &l, (char)e->sub, &r, e->t, out);
    out->agg = l.agg || r.agg;
    out->lk = LB_EXPR;
    ixs_xv_free(&l);
    ixs_xv_free(&r);
    return rc || p->failed ? -1 : 0;
}

/* a AND b, a OR b */
static int emit_logic(px *p, ixs_ex *e, xv *out) {
    xv r;
    ixs_xv_init(&r);
    if (ixs_ex_emit_node(p, e->a, out) || ixs_ex_emit_node(p, e->b, &r)) {
        ixs_xv_free(&r);
        return -1;
    }
    sb n = {0};
    ixv_sb_printf(&n, "(%s %s %s)", xs(out), e->op == EX_AND ? "AND" : "OR", xs(&r));
    ixs_xv_set_sql(out, &n);
    out->agg |= r.agg;
    out->k = XK_PRED;
    out->t = e->t;
    ixs_xv_free(&r);
    return 0;
}

/* NOT a */
static int emit_not(px *p, ixs_ex *e, xv *out) {
    if (ixs_ex_emit_node(p, e->a, out)) return -1;
    sb n = {0};
    ixv_sb_printf(&n, "(NOT %s)", xs(out));
    ixs_xv_set_sql(out, &n);
    out->k = XK_PRED;
    out->t = e->t;
    return 0;
}

int ixs_ex_emit_node(px *p, ixs_ex *e, xv *out) {
    if (p->failed) return -1;
    if (ixs_px_stack_check(p, e->tok)) return -1;
    switch (e->op) {
    case EX_LIT: return emit_lit(p, e, out);
    case EX_PARAM: return emit_param(p, e, out);
    case EX_TODAY:
    case EX_CURRENT:
    case EX_USER:
    case EX_NILADIC: return emit_word(p, e, out);
    case EX_COL: return emit_col(p, e, out);
    case EX_CALL: return emit_call(p, e, out);
    case EX_ROW: return emit_row(p, e, out);
    case EX_WINDOW: return ixs_window_emit(p, e, out);
    case EX_AGG: return emit_agg(p, e, out);
    case EX_FCAST:
    case EX_EXTEND:
    case EX_SUBSTRING:
    case EX_TRIM: return emit_special(p, e, out);
    case EX_PAREN: return emit_paren(p, e, out);
    case EX_SUBQ:
    case EX_EXISTS: return emit_subq(p, e, out);
    case EX_CASE: return emit_case(p, e, out);
    case EX_CAST: return emit_cast(p, e, out);
    case EX_SUBSTR: return emit_substr(p, e, out);
    case EX_UNITS:
        if (ixs_ex_emit_node(p, e->a, out)) return -1;
        ixs_ex_units(p, out, e->t, (int)e->n1);
        return p->failed ? -1 : 0;
    case EX_NEG:
        if (ixs_ex_emit_node(p, e->a, out) || ixs_ex_neg(p, out)) return -1;
        if (e->t.code >= 0) out->t = e->t; /* the resolver's */
        return 0;
    case EX_ARITH:
    case EX_CONCAT: return emit_binary(p, e, out);
    case EX_NOT: return emit_not(p, e, out);
    case EX_AND:
    case EX_OR: return emit_logic(p, e, out);
    default: return ixs_ex_emit_pred(p, e, out);
    }
}

int ixs_ex_emit(px *p, ixs_ex *e, xv *out) {
    int rc = ixs_ex_emit_node(p, e, out);
    return rc || p->failed ? -1 : 0;
}

int ixs_ex_emit_cond(px *p, ixs_ex *e, xv *out) {
    if (ixs_ex_emit_node(p, e, out)) return -1;
    if (out->k != XK_PRED) {
        /* a bare value as a condition: BOOLEAN column, or constant */
        ixs_settle(p, out);
        ixs_px_at(p, e->end);
        if (out->t.code != IX_T_BOOLEAN) return ixs_px_fail(p);
    }
    return p->failed ? -1 : 0;
}
