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

#include "server/sql/ixs_ex_tree.h"

enum {
    WF_NUMBER, /* ROW_NUMBER: no argument, ORDER BY optional */
    WF_RANK,   /* no argument, ORDER BY required, BIGINT */
    WF_DIST,   /* no argument, ORDER BY required, FLOAT */
    WF_NTILE,  /* one argument, ORDER BY required, BIGINT */
    WF_OFFSET, /* LAG/LEAD: 1-3 arguments, ORDER BY required */
    WF_VALUE,  /* FIRST_VALUE/LAST_VALUE: one argument */
    WF_AGG,    /* an aggregate (an EX_AGG call) */
};

struct wfn {
    const char *name, *sql;
    int kind;
};

static const struct wfn wfns[] = {
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
    if (!ixs_px_is_ident(p, p->i) || !ixs_px_op(p, p->i + 1, "(")) return 0;
    int depth = 0, k = p->i + 1;
    for (; k < p->nt && p->t[k].k != T_EOF; k++) {
        if (ixs_px_op(p, k, "("))
            depth++;
        else if (ixs_px_op(p, k, ")") && --depth == 0)
            break;
    }
    return k < p->nt && ixs_px_kw(p, k + 1, IXK_OVER);
}

static void settle_lit(xv *v) {
    if (v->t.code < 0 && v->k != XK_PARAM && v->k != XK_NULL) v->t = ixs_lit_type(v);
}

/* ---- parse ------------------------------------------------------------------------------ */

void ixs_window_free(ixs_win *w) {
    if (!w) return;
    ixv_sb_free(&w->frame);
    free(w->oflag);
    free(w);
}

/* The function of a window: olap_fn "(" args ")" (an EX_CALL of its
 * arguments, checked against the function's arity) or an aggregate call. */
static ixs_ex *olap_fn(px *p, const struct wfn *f) {
    int at = p->i;
    ixs_ex *c = ixs_ex_parse_call(p);
    if (!c || f->kind == WF_AGG) return c;
    int max = f->kind == WF_OFFSET ? 3 : (f->kind == WF_NTILE || f->kind == WF_VALUE) ? 1 : 0;
    if (c->op != EX_CALL || c->nk > max || c->nk < (max ? 1 : 0)) {
        p->i = c->op != EX_CALL ? at + 2 /* after "(" */
               : c->nk > max    ? (max ? c->kids[max - 1]->end : at + 2)
                                : c->end - 1; /* at ")" */
        ixs_px_fail(p);
        ixs_ex_free(c);
        return NULL;
    }
    return c;
}

/* bound := UNBOUNDED {PRECEDING | FOLLOWING} | n {PRECEDING | FOLLOWING} | CURRENT ROW */
static int frame_bound(px *p, sb *out, int *offset) {
    if (ixs_px_acc(p, IXK_CURRENT)) {
        ixv_sb_add(out, "CURRENT ROW");
        return ixs_px_expect(p, IXK_ROW);
    }
    if (ixs_px_acc(p, IXK_UNBOUNDED))
        ixv_sb_add(out, "UNBOUNDED");
    else {
        int64_t n;
        if (p->i >= p->nt || p->t[p->i].k != T_INT || ixs_px_int(p, &n)) return ixs_px_fail(p);
        ixv_sb_printf(out, "%lld", (long long)n);
        *offset = 1;
    }
    if (ixs_px_acc(p, IXK_PRECEDING))
        ixv_sb_add(out, " PRECEDING");
    else if (ixs_px_acc(p, IXK_FOLLOWING))
        ixv_sb_add(out, " FOLLOWING");
    else
        return ixs_px_fail(p);
    return 0;
}

/* frame := {ROWS | RANGE} {bound | BETWEEN bound AND bound}; *range_off is
 * set for RANGE with a numeric offset. */
static int frame(px *p, sb *out, int *range_off) {
    int range = ixs_px_kw(p, p->i, IXK_RANGE), off = 0;
    if (!range && !ixs_px_kw(p, p->i, IXK_ROWS)) return 0;
    p->i++;
    ixv_sb_add(out, range ? " RANGE " : " ROWS ");
    if (ixs_px_acc(p, IXK_BETWEEN)) {
        ixv_sb_add(out, "BETWEEN ");
        if (frame_bound(p, out, &off) || ixs_px_expect(p, IXK_AND)) return -1;
        ixv_sb_add(out, " AND ");
        if (frame_bound(p, out, &off)) return -1;
    } else if (frame_bound(p, out, &off))
        return -1;
    *range_off = range && off;
    return 0;
}

/* expr { "," expr } into the kids of e */
static int expr_list(px *p, ixs_ex *e, ixs_win *w) {
    do {
        ixs_ex *k = ixs_ex_parse(p, IXS_EX_VALUE);
        if (!k || ixs_ex_kid_add(p, e, k)) return -1;
        if (w) {
            int fl = ixs_px_acc(p, IXK_DESC) ? 1 : (ixs_px_acc(p, IXK_ASC), 0);
            if (ixs_px_acc(p, IXK_NULLS)) {
                if (ixs_px_acc(p, IXK_FIRST))
                    fl |= 2;
                else if (ixs_px_acc(p, IXK_LAST))
                    fl |= 4;
                else
                    return ixs_px_fail(p);
            }
            int *nf = realloc(w->oflag, (size_t)(w->nord + 1) * sizeof *nf);
            if (!nf) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
            w->oflag = nf;
            w->oflag[w->nord++] = fl;
        }
    } while (ixs_px_acc_op(p, ","));
    return 0;
}

/* over := OVER "(" [ PARTITION BY expr {, expr} ]
 *         [ ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST] {, ...} ] [frame] ")" */
static int over_parse(px *p, ixs_ex *e, ixs_win *w) {
    if (ixs_px_expect(p, IXK_OVER) || ixs_px_expect_op(p, "(")) return -1;
    if (ixs_px_acc(p, IXK_PARTITION) && (ixs_px_expect(p, IXK_BY) || expr_list(p, e, NULL)))
        return -1;
    w->npart = e->nk;
    if (ixs_px_acc(p, IXK_ORDER) && (ixs_px_expect(p, IXK_BY) || expr_list(p, e, w))) return -1;
    if (frame(p, &w->frame, &w->range_off)) return -1;
    w->close = p->i;
    return ixs_px_expect_op(p, ")");
}

/* window_expr := olap_fn OVER ( ... ) (at its name) */
ixs_ex *ixs_window_parse(px *p) {
    char fn[IXS_NAME_MAX + 1];
    int at = p->i;
    if (ixs_px_ident(p, fn, sizeof fn) || ixs_px_expect_op(p, "(")) return NULL;
    const struct wfn *f = wfn_find(fn);
    if (!f) {
        ixs_px_failc(p, IXV_E_ROUTINE_UNRESOLVED, "%s", fn);
        return NULL;
    }
    /* only in a projection list or an ORDER BY, and not in its own OVER */
    if (!p->olap_ok) {
        ixs_px_fail(p);
        return NULL;
    }
    ixs_ex *e = ixs_ex_node(p, EX_WINDOW, at);
    if (!e) return NULL;
    e->win = calloc(1, sizeof *e->win);
    if (!e->win) ixs_px_failc(p, IXV_E_NOMEM, NULL);
    p->olap_ok = 0;
    p->i = at;
    if (e->win && (e->a = olap_fn(p, f))) over_parse(p, e, e->win);
    p->olap_ok = 1;
    if (e->win) e->win->f = f;
    e->end = p->i;
    if (p->failed) {
        ixs_ex_free(e);
        return NULL;
    }
    return e;
}

/* ---- emit ------------------------------------------------------------------------------- */

/* The arguments of a non-aggregate OLAP function, emitted as "fn(args)" into
 * out with the result type. */
static int olap_args(px *p, const struct wfn *f, ixs_ex *c, xv *out) {
    int n = 0, rc = 0;
    xv a[3];
    ixv_sb_printf(&out->s, "%s(", f->sql);
    for (; !rc && n < c->nk; n++) {
        ixs_xv_init(&a[n]);
        rc = ixs_ex_emit_node(p, c->kids[n], &a[n]);
        if (rc) continue;
        ixs_px_at(p, c->kids[n]->end);
        settle_lit(&a[n]);
        if (n == 1 && !ixv_is_int(a[1].t.code) && a[1].k != XK_PARAM) rc = ixs_px_fail(p);
        if (n == 2) ixs_to_type(p, &a[2], a[0].t); /* the default, as the value */
        if (n == 0 && f->kind == WF_NTILE && !ixv_is_int(a[0].t.code)) rc = ixs_px_fail(p);
        if (n == 1 && a[1].k == XK_PARAM) ixs_to_type(p, &a[1], ixv_t(IX_T_INTEGER, 4));
        if (p->failed) rc = -1;
        if (!rc) ixv_sb_printf(&out->s, "%s%s", n ? "," : "", a[n].s.p ? a[n].s.p : "NULL");
    }
    ixv_sb_addc(&out->s, ')');
    if (f->kind == WF_OFFSET || f->kind == WF_VALUE)
        out->t = n ? a[0].t : ixv_t(IX_T_INTEGER, 4);
    else
        out->t = f->kind == WF_DIST ? ixv_t(IX_T_FLOAT, 8) : ixv_t(IX_T_BIGINT, 8);
    if (out->t.code < 0) out->t = ixv_t(IX_T_VARCHAR, 255); /* lag(NULL) */
    for (int i = 0; i < n; i++)
        ixs_xv_free(&a[i]);
    return rc;
}

/* The ORDER BY keys of a window into out; *key1 the class of the first
 * ('n' numeric in SQLite's sense, 'd' DECIMAL or MONEY, 0 other) and
 * key1_at where its SQL is in out. */
static int win_order(px *p, ixs_ex *e, const ixs_win *w, sb *out, int *key1, size_t *key1_at) {
    ixv_sb_add(out, " ORDER BY ");
    for (int k = 0; k < w->nord; k++) {
        xv v;
        ixs_xv_init(&v);
        if (ixs_ex_emit_node(p, e->kids[w->npart + k], &v)) {
            ixs_xv_free(&v);
            return -1;
        }
        settle_lit(&v);
        if (k == 0)
            *key1 = ixv_is_dec(v.t.code)                                ? 'd'
                    : ixv_is_numeric(v.t.code) || v.t.code == IX_T_DATE ? 'n'
                                                                        : 0;
        else
            ixv_sb_add(out, ", ");
        size_t at = out->n;
        ixv_sb_add(out, v.s.p ? v.s.p : "NULL");
        if (k == 0) key1_at[0] = at, key1_at[1] = out->n;
        ixs_xv_free(&v);
        if (w->oflag[k] & 1) ixv_sb_add(out, " DESC");
        if (w->oflag[k] & 2) ixv_sb_add(out, " NULLS FIRST");
        if (w->oflag[k] & 4) ixv_sb_add(out, " NULLS LAST");
    }
    return 0;
}

/* OVER ( ... ) into out. */
static int over_emit(px *p, ixs_ex *e, const ixs_win *w, sb *out) {
    ixv_sb_add(out, " OVER (");
    for (int k = 0; k < w->npart; k++) {
        xv v;
        ixs_xv_init(&v);
        int rc = ixs_ex_emit_node(p, e->kids[k], &v);
        if (!rc) ixv_sb_printf(out, "%s%s", k ? ", " : "PARTITION BY ", v.s.p ? v.s.p : "NULL");
        ixs_xv_free(&v);
        if (rc) return -1;
    }
    int key1 = 0;
    size_t key1_at[2] = {0, 0};
    if (w->nord && win_order(p, e, w, out, &key1, key1_at)) return -1;
    ixv_sb_add(out, w->frame.p ? w->frame.p : "");
    /* RANGE n PRECEDING/FOLLOWING: one numeric key (a DECIMAL read as a
     * number: its stored form is not one) */
    ixs_px_at(p, w->close);
    if (w->range_off && (w->nord != 1 || !key1)) return ixs_px_fail(p);
    if (w->range_off && key1 == 'd') {
        sb k = {0};
        ixv_sb_addn(&k, out->p + key1_at[0], key1_at[1] - key1_at[0]);
        sb fixed = {0};
        ixv_sb_addn(&fixed, out->p, key1_at[0]);
        ixv_sb_printf(&fixed, "ixd_dbl(%s)%s", k.p, out->p + key1_at[1]);
        ixv_sb_free(&k);
        ixv_sb_free(out);
        *out = fixed;
    }
    ixv_sb_addc(out, ')');
    return 0;
}

ityp ixs_window_type(const ixs_win *w, const ityp *a0) {
    const struct wfn *f = w->f;
    if (f->kind == WF_OFFSET || f->kind == WF_VALUE) {
        ityp t = a0 ? *a0 : ixv_t(IX_T_INTEGER, 4);
        return t.code < 0 ? ixv_t(IX_T_VARCHAR, 255) : t; /* lag(NULL) */
    }
    return f->kind == WF_DIST ? ixv_t(IX_T_FLOAT, 8) : ixv_t(IX_T_BIGINT, 8);
}

int ixs_window_emit(px *p, ixs_ex *e, xv *out) {
    const ixs_win *w = e->win;
    const struct wfn *f = w->f;
    int rc;
    p->olap_ok = 0;
    if (f->kind == WF_AGG) {
        rc = ixs_ex_emit_node(p, e->a, out);
        out->agg = 0; /* a value per row, not a group's */
    } else {
        rc = olap_args(p, f, e->a, out);
        out->lk = LB_EXPR;
    }
    out->k = XK_EXPR;
    if (!rc) rc = over_emit(p, e, w, &out->s);
    ixs_px_at(p, e->end);
    if (!rc && !w->nord && f->kind != WF_NUMBER && f->kind != WF_VALUE && f->kind != WF_AGG)
        rc = ixs_px_fail(p);
    if (!rc && out->s.oom) rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (!rc && e->t.code >= 0) out->t = e->t; /* the resolver's */
    p->olap_ok = 1;
    return rc || p->failed ? -1 : 0;
}
