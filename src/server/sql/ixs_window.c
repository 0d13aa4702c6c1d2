/* ixs_window.c: Informix OLAP window expressions (12.10 and later) -> SQLite
 * window functions.
 *
 *   window_expr := olap_fn OVER ( [PARTITION BY expr {, expr}]
 *                                 [ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST] {, ...}]
 *                                 [frame] )
 *   olap_fn     := ROW_NUMBER() | ROWNUMBER() | RANK() | DENSE_RANK() | DENSERANK()
 *                | PERCENT_RANK() | CUME_DIST() | NTILE(expr)
 *                | LAG(expr [, offset [, default]]) | LEAD(...)
 *                | FIRST_VALUE(expr) | LAST_VALUE(expr)
 *                | COUNT | SUM | AVG | MIN | MAX (aggregate arguments)
 *   frame       := {ROWS | RANGE} {bound | BETWEEN bound AND bound}
 *   bound       := UNBOUNDED {PRECEDING | FOLLOWING} | n {PRECEDING | FOLLOWING}
 *                | CURRENT ROW
 *
 * Result types (docs/server-sql.md): the numbering and ranking functions and
 * NTILE are BIGINT, PERCENT_RANK and CUME_DIST FLOAT, LAG/LEAD/FIRST_VALUE/
 * LAST_VALUE the type of their argument, aggregates as without OVER. The
 * ranking functions, LAG and LEAD need the window ORDER BY (-201 without). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_parse.h"

enum {
    WF_NUMBER, /* ROW_NUMBER: no argument, ORDER BY optional */
    WF_RANK,   /* no argument, ORDER BY required, BIGINT */
    WF_DIST,   /* no argument, ORDER BY required, FLOAT */
    WF_NTILE,  /* one argument, ORDER BY required, BIGINT */
    WF_OFFSET, /* LAG/LEAD: 1-3 arguments, ORDER BY required */
    WF_VALUE,  /* FIRST_VALUE/LAST_VALUE: one argument */
    WF_AGG,    /* an aggregate (ixs_agg_call) */
};

static const struct wfn {
    const char *name, *sql;
    int kind;
} wfns[] = {
    {"row_number", "row_number", WF_NUMBER},
    {"rownumber", "row_number", WF_NUMBER},
    {"rank", "rank", WF_RANK},
    {"dense_rank", "dense_rank", WF_RANK},
    {"denserank", "dense_rank", WF_RANK},
    {"percent_rank", "percent_rank", WF_DIST},
    {"cume_dist", "cume_dist", WF_DIST},
    {"ntile", "ntile", WF_NTILE},
    {"lag", "lag", WF_OFFSET},
    {"lead", "lead", WF_OFFSET},
    {"first_value", "first_value", WF_VALUE},
    {"last_value", "last_value", WF_VALUE},
    {"count", "count", WF_AGG},
    {"sum", "sum", WF_AGG},
    {"avg", "avg", WF_AGG},
    {"min", "min", WF_AGG},
    {"max", "max", WF_AGG},
};

static const struct wfn *wfn_find(const char *name) {
    for (size_t i = 0; i < sizeof wfns / sizeof wfns[0]; i++)
        if (!strcmp(wfns[i].name, name)) return &wfns[i];
    return NULL;
}

int ixs_window_at(px *p) {
    if (!px_is_ident(p, p->i) || !px_op(p, p->i + 1, "(")) return 0;
    int depth = 0, k = p->i + 1;
    for (; k < p->nt && p->t[k].k != T_EOF; k++) {
        if (px_op(p, k, "("))
            depth++;
        else if (px_op(p, k, ")") && --depth == 0)
            break;
    }
    return k < p->nt && px_kw(p, k + 1, IXK_OVER);
}

static void settle_lit(xv *v) {
    if (v->t.code < 0 && v->k != XK_PARAM && v->k != XK_NULL) v->t = ixs_lit_type(v);
}

/* The arguments of a non-aggregate OLAP function (after its '('), emitted as
 * "fn(args)" into out with the result type. */
static int olap_args(px *p, const struct wfn *f, xv *out) {
    int max = f->kind == WF_OFFSET ? 3 : (f->kind == WF_NTILE || f->kind == WF_VALUE) ? 1 : 0;
    int min = max ? 1 : 0, n = 0, rc = 0;
    xv a[3];
    sb_printf(&out->s, "%s(", f->sql);
    while (!rc && !px_op(p, p->i, ")")) {
        if (n >= max || (n && px_expect_op(p, ","))) {
            rc = px_fail(p);
            break;
        }
        rc = ixs_expr(p, &a[n]);
        n++;
        if (rc) break;
        settle_lit(&a[n - 1]);
        if (n == 2 && !ixs_is_int(a[1].t.code) && a[1].k != XK_PARAM && !p->syntax_only)
            rc = px_fail(p);
        if (n == 3) ixs_to_type(p, &a[2], a[0].t); /* the default, as the value */
        if (n == 1 && f->kind == WF_NTILE && !ixs_is_int(a[0].t.code) && !p->syntax_only)
            rc = px_fail(p);
        if (n == 2 && a[1].k == XK_PARAM) ixs_to_type(p, &a[1], ixs_t(IX_T_INTEGER, 4));
        if (p->failed) rc = -1;
        if (!rc) sb_printf(&out->s, "%s%s", n > 1 ? "," : "", a[n - 1].s.p ? a[n - 1].s.p : "NULL");
    }
    if (!rc && n < min) rc = px_fail(p);
    if (!rc) rc = px_expect_op(p, ")");
    sb_addc(&out->s, ')');
    if (f->kind == WF_OFFSET || f->kind == WF_VALUE)
        out->t = n ? a[0].t : ixs_t(IX_T_INTEGER, 4);
    else
        out->t = f->kind == WF_DIST ? ixs_t(IX_T_FLOAT, 8) : ixs_t(IX_T_BIGINT, 8);
    if (out->t.code < 0) out->t = ixs_t(IX_T_VARCHAR, 255); /* lag(NULL) */
    for (int i = 0; i < n; i++)
        xv_free(&a[i]);
    return rc;
}

/* bound := UNBOUNDED {PRECEDING | FOLLOWING} | n {PRECEDING | FOLLOWING} | CURRENT ROW */
static int frame_bound(px *p, sb *out, int *offset) {
    if (px_acc(p, IXK_CURRENT)) {
        sb_add(out, "CURRENT ROW");
        return px_expect(p, IXK_ROW);
    }
    if (px_acc(p, IXK_UNBOUNDED))
        sb_add(out, "UNBOUNDED");
    else {
        int64_t n;
        if (p->i >= p->nt || p->t[p->i].k != T_INT || px_int(p, &n)) return px_fail(p);
        sb_printf(out, "%lld", (long long)n);
        *offset = 1;
    }
    if (px_acc(p, IXK_PRECEDING))
        sb_add(out, " PRECEDING");
    else if (px_acc(p, IXK_FOLLOWING))
        sb_add(out, " FOLLOWING");
    else
        return px_fail(p);
    return 0;
}

/* frame := {ROWS | RANGE} {bound | BETWEEN bound AND bound}; *range_off is
 * set for RANGE with a numeric offset. */
static int frame(px *p, sb *out, int *range_off) {
    int range = px_kw(p, p->i, IXK_RANGE), off = 0;
    if (!range && !px_kw(p, p->i, IXK_ROWS)) return 0;
    p->i++;
    sb_add(out, range ? " RANGE " : " ROWS ");
    if (px_acc(p, IXK_BETWEEN)) {
        sb_add(out, "BETWEEN ");
        if (frame_bound(p, out, &off) || px_expect(p, IXK_AND)) return -1;
        sb_add(out, " AND ");
        if (frame_bound(p, out, &off)) return -1;
    } else if (frame_bound(p, out, &off))
        return -1;
    *range_off = range && off;
    return 0;
}

/* ORDER BY item {, item} of a window, into out; *nkeys the number of keys,
 * *key1 the class of the first ('n' numeric in SQLite's sense, 'd' DECIMAL
 * or MONEY, 0 other). */
static int win_order(px *p, sb *out, int *nkeys, int *key1, size_t *key1_end) {
    sb_add(out, " ORDER BY ");
    for (*nkeys = 0;; (*nkeys)++) {
        xv e;
        if (ixs_expr(p, &e)) {
            xv_free(&e);
            return -1;
        }
        settle_lit(&e);
        if (*nkeys == 0)
            *key1 = ixs_is_dec(e.t.code)                                ? 'd'
                    : ixs_is_numeric(e.t.code) || e.t.code == IX_T_DATE ? 'n'
                                                                        : 0;
        else
            sb_add(out, ", ");
        size_t at = out->n;
        sb_add(out, e.s.p ? e.s.p : "NULL");
        if (*nkeys == 0) key1_end[0] = at, key1_end[1] = out->n;
        xv_free(&e);
        if (px_acc(p, IXK_DESC))
            sb_add(out, " DESC");
        else
            px_acc(p, IXK_ASC);
        if (px_acc(p, IXK_NULLS)) {
            if (px_acc(p, IXK_FIRST))
                sb_add(out, " NULLS FIRST");
            else if (px_acc(p, IXK_LAST))
                sb_add(out, " NULLS LAST");
            else
                return px_fail(p);
        }
        if (!px_acc_op(p, ",")) break;
    }
    (*nkeys)++;
    return 0;
}

/* OVER ( ... ) into out; *ordered: an ORDER BY was given. */
static int over_clause(px *p, sb *out, int *ordered) {
    if (px_expect(p, IXK_OVER) || px_expect_op(p, "(")) return -1;
    sb_add(out, " OVER (");
    if (px_acc(p, IXK_PARTITION)) {
        if (px_expect(p, IXK_BY)) return -1;
        sb_add(out, "PARTITION BY ");
        for (int n = 0;; n++) {
            xv e;
            int rc = ixs_expr(p, &e);
            if (!rc) sb_printf(out, "%s%s", n ? ", " : "", e.s.p ? e.s.p : "NULL");
            xv_free(&e);
            if (rc) return -1;
            if (!px_acc_op(p, ",")) break;
        }
    }
    int nkeys = 0, key1 = 0, range_off = 0;
    size_t key1_at[2] = {0, 0};
    *ordered = 0;
    if (px_acc(p, IXK_ORDER)) {
        if (px_expect(p, IXK_BY) || win_order(p, out, &nkeys, &key1, key1_at)) return -1;
        *ordered = 1;
    }
    if (frame(p, out, &range_off)) return -1;
    /* RANGE n PRECEDING/FOLLOWING: one numeric key (a DECIMAL read as a
     * number: its stored form is not one) */
    if (range_off && (nkeys != 1 || !key1) && !p->syntax_only) return px_fail(p);
    if (range_off && key1 == 'd') {
        sb k = {0};
        sb_addn(&k, out->p + key1_at[0], key1_at[1] - key1_at[0]);
        sb fixed = {0};
        sb_addn(&fixed, out->p, key1_at[0]);
        sb_printf(&fixed, "ixd_dbl(%s)%s", k.p, out->p + key1_at[1]);
        sb_free(&k);
        sb_free(out);
        *out = fixed;
    }
    sb_addc(out, ')');
    return px_expect_op(p, ")");
}

int ixs_window_call(px *p, xv *out) {
    char fn[IXS_NAME_MAX + 1];
    if (px_ident(p, fn, sizeof fn) || px_expect_op(p, "(")) return -1;
    const struct wfn *f = wfn_find(fn);
    if (!f) return px_failc(p, -674, "%s", fn);
    /* only in a projection list or an ORDER BY, and not in its own OVER */
    if (!p->olap_ok) return px_fail(p);
    p->olap_ok = 0;
    int rc, ordered = 0;
    if (f->kind == WF_AGG) {
        rc = ixs_agg_call(p, fn, out);
        out->agg = 0; /* a value per row, not a group's */
    } else {
        rc = olap_args(p, f, out);
        out->lk = LB_EXPR;
    }
    out->k = XK_EXPR;
    if (!rc) rc = over_clause(p, &out->s, &ordered);
    if (!rc && !ordered && f->kind != WF_NUMBER && f->kind != WF_VALUE && f->kind != WF_AGG)
        rc = px_fail(p);
    if (!rc && out->s.oom) rc = px_failc(p, -208, NULL);
    p->olap_ok = 1;
    return rc || p->failed ? -1 : 0;
}
