/* ixs_expr.c: Informix expressions and search conditions -> SQLite SQL in
 * ixd's storage domain, with the Informix type of every expression. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_parse.h"

void xv_free(xv *v) {
    sb_free(&v->s);
    free(v->lit);
    memset(v, 0, sizeof *v);
}

static void xv_init(xv *v) {
    memset(v, 0, sizeof *v);
    v->t.code = -1;
    v->pidx = -1;
}

static void xv_set_sql(xv *v, sb *nsql) {
    sb_free(&v->s);
    v->s = *nsql;
    memset(nsql, 0, sizeof *nsql);
}

static const char *xs(const xv *v) {
    return v->s.p ? v->s.p : "NULL";
}

/* ---- types of literals and of expressions ------------------------------------------- */

ityp ixs_lit_type(const xv *v) {
    if (v->t.code >= 0) return v->t;
    switch (v->k) {
    case XK_INT: {
        int64_t x = v->lit ? strtoll(v->lit, NULL, 10) : 0;
        return x >= -INT32_MAX && x <= INT32_MAX ? ixs_t(IX_T_INTEGER, 4) : ixs_t(IX_T_INT8, 10);
    }
    case XK_NUM: {
        if (v->lit && strpbrk(v->lit, "eE")) return ixs_t(IX_T_FLOAT, 8);
        int digits = 0, frac = 0, after = 0;
        for (size_t k = 0; k < v->litn; k++) {
            char c = v->lit[k];
            if (c == '.')
                after = 1;
            else if (c >= '0' && c <= '9') {
                digits++;
                frac += after;
            }
        }
        if (digits > 32) digits = 32;
        if (digits < 1) digits = 1;
        if (frac > digits) frac = digits;
        return ixs_t(IX_T_DECIMAL, (uint32_t)digits << 8 | (uint32_t)frac);
    }
    case XK_STR: {
        uint32_t n = (uint32_t)(v->litn ? v->litn : 1);
        if (n > 32767) n = 32767;
        return ixs_t(IX_T_CHAR, n);
    }
    case XK_PARAM: return ixs_t(IX_T_VARCHAR, 255);
    default: return ixs_t(IX_T_CHAR, 1);
    }
}

static ityp dec_of(ityp t) {
    switch (t.code) {
    case IX_T_SMALLINT: return ixs_t(IX_T_DECIMAL, 5u << 8);
    case IX_T_INTEGER:
    case IX_T_SERIAL: return ixs_t(IX_T_DECIMAL, 10u << 8);
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return ixs_t(IX_T_DECIMAL, 19u << 8);
    case IX_T_DECIMAL:
    case IX_T_MONEY: return t;
    default: return ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    }
}

static int is_temporal(int c) {
    return c == IX_T_DATE || c == IX_T_DATETIME || c == IX_T_INTERVAL;
}

static int storage_class(int c) {
    if (ixs_is_int(c) || c == IX_T_DATE || c == IX_T_BOOLEAN || c == IX_T_INTERVAL) return 'i';
    if (ixs_is_float(c)) return 'f';
    if (ixs_is_dec(c)) return 'd';
    if (c == IX_T_BYTE) return 'b';
    return 't';
}

static int is_lit(const xv *v) {
    return v->k == XK_STR || v->k == XK_NUM || v->k == XK_INT || v->k == XK_NULL ||
           v->k == XK_PARAM;
}

static int int_width(int c) {
    return c == IX_T_SMALLINT ? 2 : (c == IX_T_INTEGER || c == IX_T_SERIAL) ? 4 : 8;
}

/* ---- coercion ----------------------------------------------------------------------- */

void ixs_to_type(px *p, xv *v, ityp t) {
    if (p->failed || t.code < 0) return;
    if (ixs_coll_is(t.code)) {
        ixs_coll_to_type(p, v, t);
        return;
    }
    if (v->k == XK_NULL) {
        v->t = t;
        return;
    }
    if (v->k == XK_PARAM) {
        if (p->ptypes[v->pidx].code < 0) p->ptypes[v->pidx] = t;
        v->t = t;
        return;
    }
    if (v->k == XK_STR || v->k == XK_NUM || v->k == XK_INT) {
        sval sv;
        int rc = ixs_text_to_sval(t, v->lit ? v->lit : "", v->litn, &sv);
        if (rc) {
            px_failc(p, rc, NULL);
            return;
        }
        sb n = {0};
        sval_sql(&sv, &n);
        sval_free(&sv);
        xv_set_sql(v, &n);
        v->t = t;
        v->k = XK_EXPR;
        return;
    }
    ityp f = v->t;
    if (f.code < 0) {
        v->t = t;
        return;
    }
    int fc = storage_class(f.code), tc = storage_class(t.code);
    sb n = {0};
    if (f.code == t.code && f.len == t.len) return;
    if (ixs_is_numeric(f.code) && ixs_is_numeric(t.code)) {
        if (tc == 'd' && (t.len & 0xff) != 0xff)
            sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
        else if (tc == 'd' && fc != 'd')
            sb_printf(&n, "ixd_dec(%s)", xs(v));
        else if (tc == 'f' && fc == 'd')
            sb_printf(&n, "ixd_dbl(%s)", xs(v));
        else if (tc == 'd' && fc == 'd' && (t.len & 0xff) != 0xff &&
                 (t.len & 0xff) != (f.len & 0xff))
            sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
        else if (tc == 'i' && (fc != 'i' || int_width(t.code) < int_width(f.code)))
            sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
        else {
            v->t = t;
            return;
        }
    } else if (t.code == IX_T_DATETIME && (f.code == IX_T_DATETIME || f.code == IX_T_DATE)) {
        sb_printf(&n, "ixd_extend(%s,%d,%u,%u)", xs(v), f.code, f.len, t.len);
    } else if (t.code == IX_T_DATE && f.code == IX_T_DATETIME) {
        sb_printf(&n, "ixd_part(%s,%d,%u,4)", xs(v), f.code, f.len);
    } else if (t.code == IX_T_INTERVAL && f.code == IX_T_INTERVAL &&
               (IX_QUAL_START(t.len) <= IX_TU_MONTH) == (IX_QUAL_START(f.len) <= IX_TU_MONTH)) {
        v->t = t;
        return;
    } else if (ixs_is_char(t.code) && ixs_is_char(f.code)) {
        v->t = t;
        return;
    } else if (fc == tc && f.code == t.code) {
        v->t = t;
        return;
    } else {
        sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
    }
    xv_set_sql(v, &n);
    v->t = t;
    v->k = XK_EXPR;
}

/* Brings two operands of a comparison to one storage domain. */
static void cmp_coerce(px *p, xv *l, xv *r) {
    if (p->failed) return;
    int ll = is_lit(l), rl = is_lit(r);
    if (ll && !rl && r->t.code >= 0) {
        ixs_to_type(p, l, r->t);
        return;
    }
    if (rl && !ll && l->t.code >= 0) {
        ixs_to_type(p, r, l->t);
        return;
    }
    if (ll && rl) {
        /* two constants: numbers compare as numbers, strings as strings */
        if ((l->k == XK_STR) != (r->k == XK_STR)) {
            if (l->k == XK_STR && r->k != XK_NULL && r->k != XK_PARAM)
                ixs_to_type(p, l, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
            if (r->k == XK_STR && l->k != XK_NULL && l->k != XK_PARAM)
                ixs_to_type(p, r, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
        }
        if (l->k == XK_PARAM && r->k != XK_PARAM) ixs_to_type(p, l, ixs_lit_type(r));
        if (r->k == XK_PARAM && l->k != XK_PARAM) ixs_to_type(p, r, ixs_lit_type(l));
        if ((l->k == XK_NUM) != (r->k == XK_NUM) && l->k != XK_STR && r->k != XK_STR) {
            if (l->k == XK_INT) ixs_to_type(p, l, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
            if (r->k == XK_INT) ixs_to_type(p, r, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
        }
        return;
    }
    ityp a = l->t, b = r->t;
    if (a.code < 0 || b.code < 0) return;
    int ca = storage_class(a.code), cb = storage_class(b.code);
    if (ixs_is_numeric(a.code) && ixs_is_numeric(b.code)) {
        if (ca == cb) return;
        if (ca == 'd' && cb == 'i')
            ixs_to_type(p, r, dec_of(b));
        else if (cb == 'd' && ca == 'i')
            ixs_to_type(p, l, dec_of(a));
        else if (ca == 'f' && cb == 'd')
            ixs_to_type(p, r, a);
        else if (cb == 'f' && ca == 'd')
            ixs_to_type(p, l, b);
        return;
    }
    if (a.code == IX_T_DATETIME && b.code == IX_T_DATETIME) {
        if (a.len == b.len) return;
        ityp full = ixs_t(IX_T_DATETIME, ix_dt_qual(IX_TU_YEAR, IX_TU_F(5)));
        ixs_to_type(p, l, full);
        ixs_to_type(p, r, full);
        return;
    }
    if (a.code == IX_T_DATETIME && b.code == IX_T_DATE) {
        ixs_to_type(p, r, a);
        return;
    }
    if (b.code == IX_T_DATETIME && a.code == IX_T_DATE) {
        ixs_to_type(p, l, b);
        return;
    }
    if (ixs_is_char(a.code) && !ixs_is_char(b.code)) {
        ixs_to_type(p, l, b);
        return;
    }
    if (ixs_is_char(b.code) && !ixs_is_char(a.code)) {
        ixs_to_type(p, r, a);
        return;
    }
    if (ca != cb) ixs_to_type(p, r, a);
}

/* Gives an untyped literal its own type (select-list constants, operands). */
static void settle(px *p, xv *v) {
    if (v->t.code >= 0 || p->failed) return;
    if (v->k == XK_PARAM) return;
    if (v->k == XK_NULL) return;
    v->t = ixs_lit_type(v);
}

/* ---- column references ---------------------------------------------------------------- */

static int emit_col(px *p, scope *sc, int ti, int ci, xv *out, int rowid) {
    (void)p;
    tref *t = sc->t[ti];
    if (sc == p->sc)
        sc->refmask |= (uint64_t)1 << ti;
    else
        p->sc->outer_ref = 1;
    sb_free(&out->s);
    if (t->alias[0]) {
        sb_ident(&out->s, t->alias);
        sb_addc(&out->s, '.');
    }
    if (rowid) {
        sb_add(&out->s, "rowid");
        out->t = ixs_t(IX_T_INTEGER, 4);
        snprintf(out->label, sizeof out->label, "rowid");
    } else {
        icol *c = &t->tab.cols[ci];
        sb_ident(&out->s, c->name);
        out->t = c->t;
        if (c->serial == 1) out->t = ixs_t(IX_T_SERIAL, 4);
        out->notnull = c->notnull && !t->outer;
        snprintf(out->label, sizeof out->label, "%s", c->name);
    }
    out->k = XK_COL;
    out->lk = LB_COL;
    return 0;
}

static int tref_match(const tref *t, const char *q) {
    return !strcmp(t->alias, q) || !strcmp(t->tab.name, q);
}

static int find_col(px *p, const char *q, const char *name, xv *out) {
    for (scope *sc = p->sc; sc; sc = sc->up) {
        int hit_t = -1, hit_c = -1, nhit = 0, qual_found = 0;
        for (int ti = 0; ti < sc->n; ti++) {
            tref *t = sc->t[ti];
            if (q && !tref_match(t, q)) continue;
            if (q) qual_found = 1;
            if (!strcmp(name, "rowid") && !t->derived && !t->tab.is_view) {
                if (!nhit) {
                    hit_t = ti;
                    hit_c = -2;
                }
                nhit++;
                continue;
            }
            for (int ci = 0; ci < t->tab.ncols; ci++)
                if (!strcmp(t->tab.cols[ci].name, name)) {
                    if (!nhit || hit_c == -2) {
                        hit_t = ti;
                        hit_c = ci;
                    }
                    nhit++;
                    break;
                }
            if (q && nhit) break;
        }
        if (nhit > 1 && hit_c != -2) return px_failc(p, -324, "%s", name);
        if (nhit) return emit_col(p, sc, hit_t, hit_c, out, hit_c == -2);
        if (q && qual_found) return px_failc(p, -217, "%s", name);
    }
    if (q) return px_failc(p, -217, "%s.%s", q, name);
    return px_failc(p, -217, "%s", name);
}

/* ---- primaries --------------------------------------------------------------------- */

static int parse_or(px *p, xv *out);
static int parse_add(px *p, xv *out);

static int qual_unit(px *p, int *u, int *n, int as_end) {
    static const struct {
        const char *kw;
        int u;
    } units[] = {{"year", IX_TU_YEAR},        {"month", IX_TU_MONTH},   {"day", IX_TU_DAY},
                 {"hour", IX_TU_HOUR},        {"minute", IX_TU_MINUTE}, {"second", IX_TU_SECOND},
                 {"fraction", IX_TU_FRACTION}};
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (px_acc(p, units[k].kw)) {
            *u = units[k].u;
            *n = -1;
            if (px_acc_op(p, "(")) {
                int64_t v;
                if (px_int(p, &v) || px_expect_op(p, ")")) return -1;
                if (v < 1 || v > 9) return px_fail(p);
                *n = (int)v;
            }
            if (as_end && *u != IX_TU_FRACTION && *n >= 0) return px_fail(p);
            if (*u == IX_TU_FRACTION && as_end) {
                *u = IX_TU_F(*n < 0 ? 3 : (*n > 5 ? 5 : *n));
            }
            return 0;
        }
    return px_fail(p);
}

int ixs_parse_qual(px *p, int interval, uint32_t *q) {
    int s, sn, e, en;
    int at = p->i;
    if (qual_unit(p, &s, &sn, 0)) return -1;
    if (px_acc(p, "to")) {
        if (qual_unit(p, &e, &en, 1)) return -1;
    } else {
        e = s == IX_TU_FRACTION ? IX_TU_F(sn < 0 ? 3 : sn) : s;
    }
    if (s == IX_TU_FRACTION && interval) {
        /* FRACTION TO FRACTION(n) */
        *q = ix_iv_qual(0, IX_TU_FRACTION, e);
    } else if (interval) {
        int prec = sn > 0 ? sn : (s == IX_TU_YEAR ? 4 : 2);
        *q = ix_iv_qual(prec, s, e);
    } else {
        *q = ix_dt_qual(s == IX_TU_FRACTION ? IX_TU_FRACTION : s, e);
    }
    if (!*q) {
        p->i = at;
        return px_fail(p);
    }
    return 0;
}

/* DATETIME (text) q / INTERVAL (text) q */
static int typed_literal(px *p, int interval, xv *out) {
    if (px_expect_op(p, "(")) return -1;
    int start = p->i, depth = 1;
    while (p->i < p->nt && p->t[p->i].k != T_EOF) {
        if (px_op(p, p->i, "(")) depth++;
        if (px_op(p, p->i, ")") && --depth == 0) break;
        p->i++;
    }
    if (!px_op(p, p->i, ")")) return px_fail(p);
    int a = p->t[start].pos, b = p->t[p->i].pos;
    p->i++;
    uint32_t q;
    if (ixs_parse_qual(p, interval, &q)) return -1;
    ityp t = ixs_t(interval ? IX_T_INTERVAL : IX_T_DATETIME, q);
    sval v;
    /* Informix writes interval literals with a leading sign and blanks */
    int rc = ixs_text_to_sval(t, p->sql + a, (size_t)(b - a), &v);
    if (rc) return px_failc(p, rc, NULL);
    sval_sql(&v, &out->s);
    sval_free(&v);
    out->t = t;
    out->lk = LB_CONST;
    return 0;
}

static int arg_list(px *p, xv *args, int max, int *nargs) {
    *nargs = 0;
    if (px_acc_op(p, ")")) return 0;
    for (;;) {
        if (*nargs >= max) return px_fail(p);
        xv_init(&args[*nargs]);
        if (parse_or(p, &args[*nargs])) {
            (*nargs)++;
            return -1;
        }
        (*nargs)++;
        if (px_acc_op(p, ",")) continue;
        return px_expect_op(p, ")");
    }
}

static uint32_t char_len(ityp t) {
    if (t.code == IX_T_VARCHAR || t.code == IX_T_NVARCHAR) return t.len & 0xff;
    if (ixs_is_char(t.code)) return t.len ? t.len : 1;
    if (ixs_is_numeric(t.code)) return 40;
    if (is_temporal(t.code)) return 30;
    return 255;
}

/* Text of any value (for ||, LIKE, LENGTH ...). */
static void as_text(px *p, xv *v) {
    settle(p, v);
    if (v->k == XK_PARAM) {
        ixs_to_type(p, v, ixs_t(IX_T_VARCHAR, 255));
        return;
    }
    if (v->t.code < 0 || ixs_is_char(v->t.code)) return;
    ityp t = ixs_t(IX_T_VARCHAR, 255);
    sb n = {0};
    sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), v->t.code, v->t.len, t.code, t.len);
    xv_set_sql(v, &n);
    v->k = XK_EXPR;
    v->t = ixs_t(IX_T_VARCHAR, char_len(v->t));
}

static void make_num(px *p, xv *v) {
    settle(p, v);
    if (v->k == XK_PARAM)
        ixs_to_type(p, v, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
    else if (ixs_is_char(v->t.code))
        ixs_to_type(p, v, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
}

static int agg_call(px *p, const char *fn, xv *out) {
    /* after '(' */
    int distinct = px_acc(p, "distinct") || px_acc(p, "unique");
    if (!distinct) px_acc(p, "all");
    if (!strcmp(fn, "count") && px_acc_op(p, "*")) {
        if (px_expect_op(p, ")")) return -1;
        sb_add(&out->s, "count(*)");
        out->t = ixs_t(IX_T_INTEGER, 4);
        snprintf(out->label, sizeof out->label, "(count(*))");
        out->lk = LB_AGG;
        out->agg = 1;
        return 0;
    }
    if (p->in_agg) return px_fail(p);
    p->in_agg = 1;
    xv a;
    xv_init(&a);
    int rc = parse_or(p, &a);
    p->in_agg = 0;
    if (rc || px_expect_op(p, ")")) {
        xv_free(&a);
        return -1;
    }
    settle(p, &a);
    const char *d = distinct ? "DISTINCT " : "";
    snprintf(out->label, sizeof out->label, "(%s)", fn);
    out->lk = LB_AGG;
    out->agg = 1;
    if (!strcmp(fn, "count")) {
        sb_printf(&out->s, "count(%s%s)", d, xs(&a));
        out->t = ixs_t(IX_T_INTEGER, 4);
    } else if (!strcmp(fn, "min") || !strcmp(fn, "max")) {
        sb_printf(&out->s, "%s(%s%s)", fn, d, xs(&a));
        out->t = a.t.code < 0 ? ixs_t(IX_T_VARCHAR, 255) : a.t;
        if (out->t.code == IX_T_SERIAL) out->t = ixs_t(IX_T_INTEGER, 4);
        if (out->t.code == IX_T_SERIAL8) out->t = ixs_t(IX_T_INT8, 10);
        if (out->t.code == IX_T_BIGSERIAL) out->t = ixs_t(IX_T_BIGINT, 8);
    } else {
        make_num(p, &a);
        if (ixs_is_float(a.t.code)) {
            sb_printf(&out->s, "%s(%s%s)", fn, d, xs(&a));
            out->t = ixs_t(IX_T_FLOAT, 8);
        } else if (!ixs_is_numeric(a.t.code) && a.t.code != IX_T_INTERVAL) {
            xv_free(&a);
            return px_failc(p, -1213, NULL);
        } else if (a.t.code == IX_T_INTERVAL) {
            sb_printf(&out->s, "CAST(%s(%s%s) AS INTEGER)", !strcmp(fn, "sum") ? "sum" : "avg", d,
                      xs(&a));
            out->t = a.t;
        } else {
            int avg = !strcmp(fn, "avg");
            sb_printf(&out->s, "ixd_d%s(%s%s)", avg ? "avg" : "sum", d, xs(&a));
            if (avg)
                out->t = ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff);
            else if (ixs_is_dec(a.t.code))
                out->t = ixs_t(a.t.code,
                               32u << 8 | ((a.t.len & 0xff) == 0xff ? 0xff : (a.t.len & 0xff)));
            else
                out->t = ixs_t(IX_T_DECIMAL, 32u << 8);
        }
    }
    xv_free(&a);
    return 0;
}

int ixs_agg_call(px *p, const char *fn, xv *out) {
    return agg_call(p, fn, out);
}

/* The type that holds both a and b (CASE, DECODE, NVL results). */
static ityp merge_type(ityp a, ityp b) {
    if (a.code < 0) return b;
    if (b.code < 0) return a;
    if (ixs_is_char(a.code) && ixs_is_char(b.code)) {
        uint32_t la = char_len(a), lb = char_len(b), n = la > lb ? la : lb;
        if (a.code == IX_T_LVARCHAR || b.code == IX_T_LVARCHAR || n > 255)
            return ixs_t(IX_T_LVARCHAR, n > 32739 ? 32739 : n);
        if (a.code == IX_T_VARCHAR || b.code == IX_T_VARCHAR) return ixs_t(IX_T_VARCHAR, n);
        return ixs_t(a.code, n);
    }
    if (ixs_is_numeric(a.code) && ixs_is_numeric(b.code)) {
        if (ixs_is_float(a.code) || ixs_is_float(b.code)) return ixs_t(IX_T_FLOAT, 8);
        if (ixs_is_dec(a.code) || ixs_is_dec(b.code)) {
            ityp da = dec_of(a), db = dec_of(b);
            int sa = (int)(da.len & 0xff), sb2 = (int)(db.len & 0xff);
            if (sa == 0xff || sb2 == 0xff) return ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff);
            int ia = (int)(da.len >> 8) - sa, ib = (int)(db.len >> 8) - sb2;
            int sc = sa > sb2 ? sa : sb2, ip = ia > ib ? ia : ib;
            int pr = ip + sc > 32 ? 32 : ip + sc;
            int money = a.code == IX_T_MONEY && b.code == IX_T_MONEY;
            return ixs_t(money ? IX_T_MONEY : IX_T_DECIMAL, (uint32_t)pr << 8 | (uint32_t)sc);
        }
        int w8 = a.code == IX_T_INT8 || b.code == IX_T_INT8 || a.code == IX_T_SERIAL8 ||
                 b.code == IX_T_SERIAL8;
        int wb = a.code == IX_T_BIGINT || b.code == IX_T_BIGINT || a.code == IX_T_BIGSERIAL ||
                 b.code == IX_T_BIGSERIAL;
        int wi = a.code != IX_T_SMALLINT || b.code != IX_T_SMALLINT;
        return w8   ? ixs_t(IX_T_INT8, 10)
               : wb ? ixs_t(IX_T_BIGINT, 8)
               : wi ? ixs_t(IX_T_INTEGER, 4)
                    : a;
    }
    return a;
}

#define MAXWHEN 256

static int parse_case(px *p, xv *out) {
    /* after CASE: collect the branches, then type and emit them (on the
     * heap: 257 branches would take 100 KiB of a connection's stack) */
    xv sel, *w = malloc(MAXWHEN * sizeof *w), *r = malloc((MAXWHEN + 1) * sizeof *r);
    int nw = 0, has_else = 0, simple = 0, rc = -1;
    xv_init(&sel);
    if (!w || !r) {
        px_failc(p, -208, NULL);
        goto out;
    }
    if (!px_kw(p, p->i, "when")) {
        if (parse_or(p, &sel)) goto out;
        simple = 1;
        settle(p, &sel);
    }
    while (px_acc(p, "when")) {
        if (nw >= MAXWHEN) {
            px_fail(p);
            goto out;
        }
        xv_init(&w[nw]);
        xv_init(&r[nw]);
        nw++;
        if (simple ? parse_add(p, &w[nw - 1]) : ixs_cond(p, &w[nw - 1])) goto out;
        if (px_expect(p, "then") || parse_or(p, &r[nw - 1])) goto out;
    }
    if (!nw) {
        px_fail(p);
        goto out;
    }
    if (px_acc(p, "else")) {
        xv_init(&r[nw]);
        has_else = 1;
        if (parse_or(p, &r[nw])) goto out;
    }
    if (px_expect(p, "end")) goto out;
    ityp rt = ixs_t(-1, 0);
    for (int i = 0; i < nw + has_else; i++) {
        settle(p, &r[i]);
        if (r[i].k != XK_NULL && r[i].k != XK_PARAM) rt = merge_type(rt, r[i].t);
    }
    if (rt.code < 0) rt = ixs_t(IX_T_CHAR, 1);
    sb s = {0};
    sb_add(&s, "CASE");
    if (simple) sb_printf(&s, " %s", xs(&sel));
    for (int i = 0; i < nw; i++) {
        if (simple) cmp_coerce(p, &sel, &w[i]);
        ixs_to_type(p, &r[i], rt);
        sb_printf(&s, " WHEN %s THEN %s", xs(&w[i]), xs(&r[i]));
    }
    if (has_else) {
        ixs_to_type(p, &r[nw], rt);
        sb_printf(&s, " ELSE %s", xs(&r[nw]));
    }
    sb_add(&s, " END");
    xv_set_sql(out, &s);
    out->t = rt;
    rc = p->failed ? -1 : 0;
out:
    xv_free(&sel);
    for (int i = 0; i < nw; i++) {
        xv_free(&w[i]);
        xv_free(&r[i]);
    }
    if (has_else) xv_free(&r[nw]);
    free(w);
    free(r);
    return rc;
}

static int tu_factor(int u, int64_t *f, int *ym) {
    *ym = 0;
    switch (u) {
    case IX_TU_YEAR: *f = 12, *ym = 1; return 0;
    case IX_TU_MONTH: *f = 1, *ym = 1; return 0;
    case IX_TU_DAY: *f = 86400LL * IX_UNITS_PER_SECOND; return 0;
    case IX_TU_HOUR: *f = 3600LL * IX_UNITS_PER_SECOND; return 0;
    case IX_TU_MINUTE: *f = 60LL * IX_UNITS_PER_SECOND; return 0;
    case IX_TU_SECOND: *f = IX_UNITS_PER_SECOND; return 0;
    default: *f = 1; return 0;
    }
}

/*
 * DBINFO(key [, parameter]) as ixd_dbinfo(key [, parameter]). Keys and
 * their types: 'sqlca.sqlerrd1' INTEGER, 'serial8' INT8, 'bigserial' BIGINT,
 * 'sessionid' INTEGER, 'dbname' and 'dbhostname' VARCHAR(128), and
 * 'version' with one of the parameters IBM documents ('server-type',
 * 'major', 'minor', 'os', 'level', 'full'), VARCHAR(128): the parts of the
 * server's banner (f_dbinfo). Any other key, a 'version' without a known
 * parameter, or a parameter after another key is -728.
 */
static int dbinfo_call(px *p, xv *args, int na, xv *out) {
    static const char *const parts[] = {"server-type", "major", "minor", "os", "level", "full"};
    if (args[0].k != XK_STR) return px_failc(p, -728, "%s", "");
    const char *k = args[0].lit;
    int version = !strcasecmp(k, "version");
    if (version) {
        int ok = na == 2 && args[1].k == XK_STR;
        for (size_t i = 0; ok && i < sizeof parts / sizeof parts[0]; i++)
            if (!strcasecmp(args[1].lit, parts[i])) ok = 2;
        if (ok != 2) return px_failc(p, -728, "%s", k);
        out->t = ixs_t(IX_T_VARCHAR, 128);
    } else if (na != 1) {
        return px_failc(p, -728, "%s", k);
    } else if (!strcasecmp(k, "sqlca.sqlerrd1") || !strcasecmp(k, "sessionid")) {
        out->t = ixs_t(IX_T_INTEGER, 4);
    } else if (!strcasecmp(k, "serial8")) {
        out->t = ixs_t(IX_T_INT8, 10);
    } else if (!strcasecmp(k, "bigserial")) {
        out->t = ixs_t(IX_T_BIGINT, 8);
    } else if (!strcasecmp(k, "dbname") || !strcasecmp(k, "dbhostname")) {
        out->t = ixs_t(IX_T_VARCHAR, 128);
    } else {
        return px_failc(p, -728, "%s", k);
    }
    sb_add(&out->s, "ixd_dbinfo(");
    sb_strlit(&out->s, k, strlen(k));
    if (version) {
        sb_addc(&out->s, ',');
        sb_strlit(&out->s, args[1].lit, strlen(args[1].lit));
    }
    sb_addc(&out->s, ')');
    return 0;
}

static int func_call(px *p, const char *fn, xv *out) {
    /* after '(' */
    if (!strncmp(fn, "oni_ts_", 7)) return ixs_ts_call(p, fn, out);
    if (!strcmp(fn, "count") || !strcmp(fn, "sum") || !strcmp(fn, "avg") || !strcmp(fn, "min") ||
        !strcmp(fn, "max"))
        return agg_call(p, fn, out);
    out->lk = LB_EXPR;
    if (!strcmp(fn, "extend")) {
        xv a;
        xv_init(&a);
        if (parse_or(p, &a)) {
            xv_free(&a);
            return -1;
        }
        settle(p, &a);
        uint32_t q = 0;
        if (px_acc_op(p, ",")) {
            if (ixs_parse_qual(p, 0, &q)) {
                xv_free(&a);
                return -1;
            }
        } else {
            q = a.t.code == IX_T_DATETIME ? a.t.len : ix_dt_qual(IX_TU_YEAR, IX_TU_DAY);
        }
        if (px_expect_op(p, ")")) {
            xv_free(&a);
            return -1;
        }
        if (ixs_is_char(a.t.code) || a.k == XK_PARAM)
            ixs_to_type(p, &a, ixs_t(IX_T_DATETIME, ix_dt_qual(IX_TU_YEAR, IX_TU_F(5))));
        sb_printf(&out->s, "ixd_extend(%s,%d,%u,%u)", xs(&a), a.t.code, a.t.len, q);
        out->t = ixs_t(IX_T_DATETIME, q);
        xv_free(&a);
        return p->failed ? -1 : 0;
    }
    if (!strcmp(fn, "substring")) {
        xv a, b, c;
        xv_init(&a);
        xv_init(&b);
        xv_init(&c);
        int rc = parse_or(p, &a);
        if (!rc) rc = px_expect(p, "from");
        if (!rc) rc = parse_add(p, &b);
        int hasc = 0;
        if (!rc && px_acc(p, "for")) {
            hasc = 1;
            rc = parse_add(p, &c);
        }
        if (!rc) rc = px_expect_op(p, ")");
        if (!rc) {
            as_text(p, &a);
            ixs_to_type(p, &b, ixs_t(IX_T_INTEGER, 4));
            if (hasc) ixs_to_type(p, &c, ixs_t(IX_T_INTEGER, 4));
            if (hasc)
                sb_printf(&out->s, "substr(%s,%s,%s)", xs(&a), xs(&b), xs(&c));
            else
                sb_printf(&out->s, "substr(%s,%s)", xs(&a), xs(&b));
            out->t = ixs_t(IX_T_VARCHAR, char_len(a.t) > 255 ? 255 : char_len(a.t));
        }
        xv_free(&a);
        xv_free(&b);
        xv_free(&c);
        return rc || p->failed ? -1 : 0;
    }
    if (!strcmp(fn, "trim")) {
        const char *f = "trim";
        if (px_acc(p, "leading"))
            f = "ltrim";
        else if (px_acc(p, "trailing"))
            f = "rtrim";
        else
            px_acc(p, "both");
        xv a, c;
        xv_init(&a);
        xv_init(&c);
        int hasc = 0, rc = 0;
        if (px_acc(p, "from")) {
        } else {
            rc = parse_or(p, &a);
            if (!rc && px_acc(p, "from")) {
                c = a;
                xv_init(&a);
                hasc = 1;
            }
        }
        if (!rc && !a.s.p) rc = parse_or(p, &a);
        if (!rc) rc = px_expect_op(p, ")");
        if (!rc) {
            as_text(p, &a);
            if (hasc) as_text(p, &c);
            if (hasc)
                sb_printf(&out->s, "%s(%s,%s)", f, xs(&a), xs(&c));
            else
                sb_printf(&out->s, "%s(%s,' ')", f, xs(&a));
            out->t = ixs_t(IX_T_VARCHAR, char_len(a.t) > 255 ? 255 : char_len(a.t));
        }
        xv_free(&a);
        xv_free(&c);
        return rc || p->failed ? -1 : 0;
    }
    if (!strcmp(fn, "cast")) {
        xv a;
        xv_init(&a);
        if (parse_or(p, &a) || px_expect(p, "as")) {
            xv_free(&a);
            return -1;
        }
        ityp t;
        int serial;
        int64_t st;
        uint32_t cl;
        if (ixs_parse_type(p, &t, &serial, &st, &cl) || px_expect_op(p, ")")) {
            xv_free(&a);
            return -1;
        }
        settle(p, &a);
        ixs_to_type(p, &a, t);
        out->s = a.s;
        memset(&a.s, 0, sizeof a.s);
        out->t = t;
        xv_free(&a);
        return p->failed ? -1 : 0;
    }
    xv args[64];
    int na = 0;
    if (arg_list(p, args, 64, &na)) {
        for (int i = 0; i < na; i++)
            xv_free(&args[i]);
        return -1;
    }
    int rc = 0;
#define NARGS(lo, hi)                                                                              \
    do {                                                                                           \
        if (na < (lo) || na > (hi)) {                                                              \
            rc = px_failc(p, -674, "%s", fn);                                                      \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)
    for (int i = 0; i < na; i++)
        settle(p, &args[i]);
    if (!strcmp(fn, "nvl")) {
        NARGS(2, 2);
        ityp rt =
            merge_type(args[0].k == XK_NULL || args[0].k == XK_PARAM ? ixs_t(-1, 0) : args[0].t,
                       args[1].k == XK_NULL || args[1].k == XK_PARAM ? ixs_t(-1, 0) : args[1].t);
        if (rt.code < 0) rt = ixs_t(IX_T_CHAR, 1);
        ixs_to_type(p, &args[0], rt);
        ixs_to_type(p, &args[1], rt);
        sb_printf(&out->s, "ifnull(%s,%s)", xs(&args[0]), xs(&args[1]));
        out->t = rt;
    } else if (!strcmp(fn, "decode")) {
        NARGS(3, 63);
        ityp rt = ixs_t(-1, 0);
        int i;
        for (i = 2; i < na; i += 2)
            if (args[i].k != XK_NULL && args[i].k != XK_PARAM) rt = merge_type(rt, args[i].t);
        if (na % 2 == 0 && args[na - 1].k != XK_NULL && args[na - 1].k != XK_PARAM)
            rt = merge_type(rt, args[na - 1].t);
        if (rt.code < 0) rt = ixs_t(IX_T_CHAR, 1);
        sb_printf(&out->s, "CASE %s", xs(&args[0]));
        for (i = 1; i + 1 < na; i += 2) {
            cmp_coerce(p, &args[0], &args[i]);
            ixs_to_type(p, &args[i + 1], rt);
            sb_printf(&out->s, " WHEN %s THEN %s", xs(&args[i]), xs(&args[i + 1]));
        }
        if (i < na) {
            ixs_to_type(p, &args[i], rt);
            sb_printf(&out->s, " ELSE %s", xs(&args[i]));
        }
        sb_add(&out->s, " END");
        out->t = rt;
    } else if (!strcmp(fn, "mdy")) {
        NARGS(3, 3);
        for (int i = 0; i < 3; i++)
            ixs_to_type(p, &args[i], ixs_t(IX_T_INTEGER, 4));
        sb_printf(&out->s, "ixd_mdy(%s,%s,%s)", xs(&args[0]), xs(&args[1]), xs(&args[2]));
        out->t = ixs_t(IX_T_DATE, 4);
    } else if (!strcmp(fn, "year") || !strcmp(fn, "month") || !strcmp(fn, "day") ||
               !strcmp(fn, "weekday") || !strcmp(fn, "date")) {
        NARGS(1, 1);
        int which = !strcmp(fn, "year")      ? 0
                    : !strcmp(fn, "month")   ? 1
                    : !strcmp(fn, "day")     ? 2
                    : !strcmp(fn, "weekday") ? 3
                                             : 4;
        xv *a = &args[0];
        if (a->k == XK_PARAM || ixs_is_char(a->t.code)) ixs_to_type(p, a, ixs_t(IX_T_DATE, 4));
        if (which == 4 && ixs_is_int(a->t.code))
            sb_printf(&out->s, "(%s)", xs(a));
        else if (a->t.code != IX_T_DATE && a->t.code != IX_T_DATETIME && !ixs_is_int(a->t.code))
            rc = px_failc(p, -1218, NULL);
        else
            sb_printf(&out->s, "ixd_part(%s,%d,%u,%d)", xs(a),
                      ixs_is_int(a->t.code) ? IX_T_DATE : a->t.code, a->t.len, which);
        out->t = which == 4 ? ixs_t(IX_T_DATE, 4) : ixs_t(IX_T_SMALLINT, 2);
    } else if (!strcmp(fn, "length") || !strcmp(fn, "char_length") ||
               !strcmp(fn, "character_length") || !strcmp(fn, "octet_length")) {
        NARGS(1, 1);
        as_text(p, &args[0]);
        if (!strcmp(fn, "octet_length"))
            sb_printf(&out->s, "length(CAST(rtrim(%s,' ') AS BLOB))", xs(&args[0]));
        else
            sb_printf(&out->s, "length(rtrim(%s,' '))", xs(&args[0]));
        out->t = ixs_t(IX_T_INTEGER, 4);
    } else if (!strcmp(fn, "upper") || !strcmp(fn, "lower")) {
        NARGS(1, 1);
        as_text(p, &args[0]);
        sb_printf(&out->s, "%s(%s)", fn, xs(&args[0]));
        out->t = args[0].t.code < 0 ? ixs_t(IX_T_VARCHAR, 255) : args[0].t;
    } else if (!strcmp(fn, "substr")) {
        NARGS(2, 3);
        as_text(p, &args[0]);
        ixs_to_type(p, &args[1], ixs_t(IX_T_INTEGER, 4));
        if (na == 3) ixs_to_type(p, &args[2], ixs_t(IX_T_INTEGER, 4));
        if (na == 3)
            sb_printf(&out->s, "substr(%s,%s,%s)", xs(&args[0]), xs(&args[1]), xs(&args[2]));
        else
            sb_printf(&out->s, "substr(%s,%s)", xs(&args[0]), xs(&args[1]));
        out->t = ixs_t(IX_T_VARCHAR, char_len(args[0].t) > 255 ? 255 : char_len(args[0].t));
    } else if (!strcmp(fn, "dbinfo")) {
        NARGS(1, 2);
        rc = dbinfo_call(p, args, na, out);
    } else if (!strcmp(fn, "abs")) {
        NARGS(1, 1);
        make_num(p, &args[0]);
        if (ixs_is_dec(args[0].t.code))
            sb_printf(&out->s, "(CASE WHEN %s < X'80' THEN ixd_dsub(X'80',%s) ELSE %s END)",
                      xs(&args[0]), xs(&args[0]), xs(&args[0]));
        else
            sb_printf(&out->s, "abs(%s)", xs(&args[0]));
        out->t = args[0].t;
    } else if (!strcmp(fn, "mod")) {
        NARGS(2, 2);
        ixs_to_type(p, &args[0], ixs_t(IX_T_BIGINT, 8));
        ixs_to_type(p, &args[1], ixs_t(IX_T_BIGINT, 8));
        sb_printf(&out->s, "(%s - ixd_idiv(%s,%s) * %s)", xs(&args[0]), xs(&args[0]), xs(&args[1]),
                  xs(&args[1]));
        out->t = ixs_t(IX_T_INTEGER, 4);
    } else if (!strcmp(fn, "round") || !strcmp(fn, "trunc")) {
        NARGS(1, 2);
        int64_t nd = 0;
        if (na == 2) {
            if (args[1].k != XK_INT) {
                rc = px_fail(p);
                goto done;
            }
            nd = strtoll(args[1].lit, NULL, 10);
        }
        if (nd < 0 || nd > 32) nd = 0;
        make_num(p, &args[0]);
        if (ixs_is_float(args[0].t.code)) {
            if (!strcmp(fn, "round"))
                sb_printf(&out->s, "round(%s,%d)", xs(&args[0]), (int)nd);
            else
                sb_printf(&out->s, "(CAST(%s * 1e%d AS INTEGER) / 1e%d)", xs(&args[0]), (int)nd,
                          (int)nd);
            out->t = args[0].t;
        } else if (ixs_is_int(args[0].t.code)) {
            sb_printf(&out->s, "(%s)", xs(&args[0]));
            out->t = args[0].t;
        } else {
            ityp dt = dec_of(args[0].t);
            ityp r = ixs_t(IX_T_DECIMAL, 32u << 8 | (uint32_t)nd);
            if (!strcmp(fn, "round"))
                sb_printf(&out->s, "ixd_cvt(%s,%d,%u,%d,%u)", xs(&args[0]), dt.code, dt.len, r.code,
                          r.len);
            else
                sb_printf(&out->s, "ixd_cvt(ixd_dtrunc(%s,%d),5,%u,5,%u)", xs(&args[0]), (int)nd,
                          32u << 8 | 0xff, r.len);
            out->t = r;
        }
    } else if (!strcmp(fn, "sqrt") || !strcmp(fn, "exp") || !strcmp(fn, "log10") ||
               !strcmp(fn, "logn") || !strcmp(fn, "pow") || !strcmp(fn, "power")) {
        NARGS(1, 2);
        for (int i = 0; i < na; i++) {
            make_num(p, &args[i]);
            ixs_to_type(p, &args[i], ixs_t(IX_T_FLOAT, 8));
        }
        const char *sf = !strcmp(fn, "logn") ? "ln" : !strcmp(fn, "power") ? "pow" : fn;
        if (na == 2)
            sb_printf(&out->s, "%s(%s,%s)", sf, xs(&args[0]), xs(&args[1]));
        else
            sb_printf(&out->s, "%s(%s)", sf, xs(&args[0]));
        out->t = ixs_t(IX_T_FLOAT, 8);
    } else {
        rc = px_failc(p, -674, "%s", fn);
    }
done:
    for (int i = 0; i < na; i++)
        xv_free(&args[i]);
    return rc || p->failed ? -1 : 0;
#undef NARGS
}

static int subquery(px *p, xv *out, int exists) {
    /* at SELECT, after '(' */
    qres q;
    memset(&q, 0, sizeof q);
    int start;
    if (ixs_select_sub(p, &q, &start)) {
        qres_free(&q);
        return -1;
    }
    if (px_expect_op(p, ")")) {
        qres_free(&q);
        return -1;
    }
    if (exists) {
        sb_printf(&out->s, "EXISTS (%s)", q.sql.p);
        out->t = ixs_t(IX_T_BOOLEAN, 1);
        out->k = XK_PRED;
    } else {
        if (q.ncols != 1) {
            qres_free(&q);
            return px_fail(p);
        }
        /* more than one row is -284, as in Informix */
        sb_add(&out->s, "(SELECT CASE WHEN count(*) > 1 THEN ixd_raise(-284, '') ELSE min(_q1.");
        sb_ident(&out->s, q.cols[0].name);
        sb_printf(&out->s, ") END FROM (SELECT * FROM (%s) LIMIT 2) AS _q1)", q.sql.p);
        out->t = q.cols[0].t;
        out->lk = LB_EXPR;
    }
    qres_free(&q);
    return 0;
}

static int primary(px *p, xv *out) {
    if (p->i >= p->nt) return px_fail(p);
    tok *t = &p->t[p->i];
    if (t->k == T_EOF) return px_fail(p);
    if (t->k == T_INT || t->k == T_NUM) {
        out->lit = strndup(p->sql + t->pos, (size_t)t->len);
        if (!out->lit) return px_failc(p, -208, NULL);
        out->litn = (size_t)t->len;
        out->lk = LB_CONST;
        p->i++;
        if (t->k == T_INT) {
            int64_t v = 0;
            int big = 0;
            for (int k = 0; k < t->len; k++) {
                int d = out->lit[k] - '0';
                if (v > (INT64_MAX - d) / 10) {
                    big = 1;
                    break;
                }
                v = v * 10 + d;
            }
            if (!big) {
                out->k = XK_INT;
                sb_printf(&out->s, "%lld", (long long)v);
                out->t = v <= INT32_MAX ? ixs_t(IX_T_INTEGER, 4) : ixs_t(IX_T_INT8, 10);
                out->t.code = -1; /* typed when used */
                return 0;
            }
        }
        out->k = XK_NUM;
        /* natural form: a DECIMAL (or FLOAT with an exponent) */
        int hasexp = strpbrk(out->lit, "eE") != NULL;
        ityp lt;
        if (hasexp)
            lt = ixs_t(IX_T_FLOAT, 8);
        else {
            int digits = 0, frac = 0, after = 0;
            for (size_t k = 0; k < out->litn; k++) {
                if (out->lit[k] == '.')
                    after = 1;
                else {
                    digits++;
                    frac += after;
                }
            }
            if (digits > 32) digits = 32;
            if (frac > digits) frac = digits;
            lt = ixs_t(IX_T_DECIMAL, (uint32_t)digits << 8 | (uint32_t)frac);
        }
        sval v;
        int rc = ixs_text_to_sval(hasexp ? lt : ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff), out->lit,
                                  out->litn, &v);
        if (rc) return px_failc(p, rc, NULL);
        sval_sql(&v, &out->s);
        sval_free(&v);
        return 0;
    }
    if (t->k == T_STR) {
        sb b = {0};
        px_tokstr(p, p->i, &b);
        if (b.oom) return px_failc(p, -208, NULL);
        out->litn = b.n;
        out->lit = sb_take(&b);
        out->k = XK_STR;
        out->lk = LB_CONST;
        sb_strlit(&out->s, out->lit, out->litn);
        p->i++;
        return 0;
    }
    if (t->k == T_PARAM) {
        out->k = XK_PARAM;
        out->pidx = t->pidx;
        out->lk = LB_EXPR;
        sb_printf(&out->s, "?%d", t->pidx + 1);
        if (t->pidx >= p->nparams) p->nparams = t->pidx + 1;
        p->i++;
        if (p->ptypes[t->pidx].code >= 0) out->t = p->ptypes[t->pidx];
        return 0;
    }
    if (px_op(p, p->i, "(")) {
        p->i++;
        if (px_kw(p, p->i, "select")) return subquery(p, out, 0);
        xv in;
        xv_init(&in);
        if (parse_or(p, &in) || px_expect_op(p, ")")) {
            xv_free(&in);
            return -1;
        }
        *out = in;
        sb n = {0};
        sb_printf(&n, "(%s)", xs(out));
        xv_set_sql(out, &n);
        if (out->lk == LB_COL) out->lk = LB_EXPR;
        return 0;
    }
    if (t->k != T_ID) return px_fail(p);
    if (px_op(p, p->i + 1, "{")) return ixs_coll_literal(p, out);
    int nextparen = px_op(p, p->i + 1, "(");
    int nextdot = px_op(p, p->i + 1, ".");
    if (!nextdot) {
        if (px_kw(p, p->i, "null")) {
            p->i++;
            out->k = XK_NULL;
            out->lk = LB_CONST;
            sb_add(&out->s, "NULL");
            return 0;
        }
        if (px_kw(p, p->i, "today") && !nextparen) {
            p->i++;
            sb_add(&out->s, "ixd_today()");
            out->t = ixs_t(IX_T_DATE, 4);
            out->lk = LB_EXPR;
            return 0;
        }
        if ((px_kw(p, p->i, "current") || px_kw(p, p->i, "sysdate")) && !nextparen) {
            int sysd = px_kw(p, p->i, "sysdate");
            p->i++;
            uint32_t q = ix_dt_qual(IX_TU_YEAR, sysd ? IX_TU_F(5) : IX_TU_F(3));
            static const char *uk[] = {"year",   "month",  "day",     "hour",
                                       "minute", "second", "fraction"};
            for (size_t k = 0; k < 7 && !sysd; k++)
                if (px_kw(p, p->i, uk[k])) {
                    if (ixs_parse_qual(p, 0, &q)) return -1;
                    break;
                }
            sb_printf(&out->s, "ixd_current(%u)", q);
            out->t = ixs_t(IX_T_DATETIME, q);
            out->lk = LB_EXPR;
            return 0;
        }
        if (px_kw(p, p->i, "user") && !nextparen) {
            p->i++;
            sb_strlit(&out->s, p->db->user, strlen(p->db->user));
            out->t = ixs_t(IX_T_VARCHAR, 32);
            out->lk = LB_EXPR;
            return 0;
        }
        if ((px_kw(p, p->i, "datetime") || px_kw(p, p->i, "interval")) && nextparen) {
            int iv = px_kw(p, p->i, "interval");
            p->i++;
            return typed_literal(p, iv, out);
        }
        if (px_kw(p, p->i, "case")) {
            p->i++;
            out->lk = LB_EXPR;
            return parse_case(p, out);
        }
        if (px_kw(p, p->i, "exists") && nextparen) {
            p->i += 2;
            if (!px_kw(p, p->i, "select")) return px_fail(p);
            return subquery(p, out, 1);
        }
        if (nextparen && ixs_window_at(p)) return ixs_window_call(p, out);
        if (nextparen) {
            char fn[IXS_NAME_MAX + 1];
            if (px_ident(p, fn, sizeof fn)) return -1;
            p->i++; /* ( */
            return func_call(p, fn, out);
        }
    }
    /* column: [owner.]table.col, table.col, col */
    char a[IXS_NAME_MAX + 1], b[IXS_NAME_MAX + 1], c[IXS_NAME_MAX + 1];
    if (px_ident(p, a, sizeof a)) return -1;
    if (px_acc_op(p, ".")) {
        if (px_ident(p, b, sizeof b)) return -1;
        if (px_acc_op(p, ".")) {
            if (px_ident(p, c, sizeof c)) return -1;
            return find_col(p, b, c, out);
        }
        return find_col(p, a, b, out);
    }
    return find_col(p, NULL, a, out);
}

static int postfix(px *p, xv *out) {
    if (primary(p, out)) return -1;
    for (;;) {
        if (px_acc_op(p, "::")) {
            ityp t;
            int serial;
            int64_t st;
            uint32_t cl;
            if (ixs_parse_type(p, &t, &serial, &st, &cl)) return -1;
            settle(p, out);
            ixs_to_type(p, out, t);
            out->t = t;
            out->lk = LB_EXPR;
            if (p->failed) return -1;
            continue;
        }
        if (px_op(p, p->i, "[")) {
            /* Informix substring: col[first,last] (1-based, inclusive) */
            p->i++;
            int64_t a, b;
            if (px_int(p, &a)) return -1;
            b = a;
            if (px_acc_op(p, ",") && px_int(p, &b)) return -1;
            if (px_expect_op(p, "]")) return -1;
            if (a < 1 || b < a || b > 32767) return px_fail(p);
            as_text(p, out);
            sb n3 = {0};
            sb_printf(&n3, "substr(%s,%lld,%lld)", xs(out), (long long)a, (long long)(b - a + 1));
            xv_set_sql(out, &n3);
            out->t = ixs_t(IX_T_CHAR, (uint32_t)(b - a + 1));
            out->k = XK_EXPR;
            out->lk = LB_EXPR;
            continue;
        }
        if (px_acc(p, "units")) {
            int u, n;
            if (qual_unit(p, &u, &n, 1)) return -1;
            int64_t f;
            int ym;
            tu_factor(u, &f, &ym);
            uint32_t q = u > IX_TU_SECOND ? ix_iv_qual(0, IX_TU_FRACTION, u) : ix_iv_qual(9, u, u);
            if (u == IX_TU_FRACTION) q = ix_iv_qual(0, IX_TU_FRACTION, IX_TU_F(5));
            make_num(p, out);
            sb n2 = {0};
            sb_printf(&n2, "CAST(ixd_dbl(%s) * %lld AS INTEGER)", xs(out), (long long)f);
            xv_set_sql(out, &n2);
            out->t = ixs_t(IX_T_INTERVAL, q);
            out->k = XK_EXPR;
            out->lk = LB_EXPR;
            continue;
        }
        return 0;
    }
}

static int unary(px *p, xv *out) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    int rc;
    if (px_op(p, p->i, "-") || px_op(p, p->i, "+")) {
        int neg = px_op(p, p->i, "-");
        p->i++;
        rc = unary(p, out);
        if (!rc && neg) {
            if (out->k == XK_INT || out->k == XK_NUM) {
                /* fold the sign into the literal */
                size_t n = out->litn + 1;
                char *l = malloc(n + 1);
                if (!l) return px_failc(p, -208, NULL);
                l[0] = '-';
                memcpy(l + 1, out->lit, out->litn + 1);
                if (l[1] == '-') { /* double negation */
                    memmove(l, l + 2, n - 1);
                    n -= 2;
                }
                free(out->lit);
                out->lit = l;
                out->litn = n;
                sval v;
                int isint = out->k == XK_INT;
                int r2 = ixs_text_to_sval(isint ? ixs_t(IX_T_BIGINT, 8)
                                                : (strpbrk(l, "eE")
                                                       ? ixs_t(IX_T_FLOAT, 8)
                                                       : ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff)),
                                          l, n, &v);
                if (r2) {
                    p->depth--;
                    return px_failc(p, r2, NULL);
                }
                sb ns = {0};
                sval_sql(&v, &ns);
                sval_free(&v);
                xv_set_sql(out, &ns);
            } else {
                make_num(p, out);
                sb ns = {0};
                if (ixs_is_dec(out->t.code))
                    sb_printf(&ns, "ixd_dsub(X'80',%s)", xs(out));
                else
                    sb_printf(&ns, "(-%s)", xs(out));
                xv_set_sql(out, &ns);
                out->k = XK_EXPR;
                out->lk = LB_EXPR;
            }
        }
    } else {
        rc = postfix(p, out);
    }
    p->depth--;
    return rc;
}

/* arithmetic */
static int arith(px *p, xv *l, char op, xv *r, xv *out) {
    settle(p, l);
    settle(p, r);
    if (l->k == XK_PARAM && r->k != XK_PARAM)
        ixs_to_type(p, l,
                    r->t.code == IX_T_DATE || r->t.code == IX_T_DATETIME ? ixs_t(IX_T_INTEGER, 4)
                                                                         : r->t);
    if (r->k == XK_PARAM && l->k != XK_PARAM)
        ixs_to_type(p, r, l->t.code == IX_T_DATE ? ixs_t(IX_T_INTEGER, 4) : l->t);
    if (l->k == XK_PARAM && r->k == XK_PARAM) {
        ixs_to_type(p, l, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
        ixs_to_type(p, r, ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff));
    }
    if (l->k == XK_NULL || r->k == XK_NULL) {
        sb_add(&out->s, "NULL");
        out->t = l->k == XK_NULL ? r->t : l->t;
        return 0;
    }
    int a = l->t.code, b = r->t.code;
    /* strings in arithmetic are numbers */
    if (ixs_is_char(a) && !is_temporal(b)) {
        make_num(p, l);
        a = l->t.code;
    }
    if (ixs_is_char(b) && !is_temporal(a)) {
        make_num(p, r);
        b = r->t.code;
    }
    if (ixs_is_char(a) && is_temporal(b) && b != IX_T_INTERVAL) {
        ixs_to_type(p, l, r->t);
        a = b;
    }
    if (ixs_is_char(b) && is_temporal(a)) {
        ityp tt = a == IX_T_DATE ? ixs_t(IX_T_INTEGER, 4) : a == IX_T_INTERVAL ? l->t : r->t;
        if (a == IX_T_DATETIME) tt = ixs_t(IX_T_INTERVAL, ix_iv_qual(9, IX_TU_DAY, IX_TU_F(5)));
        ixs_to_type(p, r, tt);
        b = r->t.code;
    }
    if (p->failed) return -1;
    const char *L = xs(l), *R = xs(r);
    /* dates and times */
    if (a == IX_T_DATE || b == IX_T_DATE || a == IX_T_DATETIME || b == IX_T_DATETIME ||
        a == IX_T_INTERVAL || b == IX_T_INTERVAL) {
        if (a == IX_T_DATE && b == IX_T_DATE && op == '-') {
            sb_printf(&out->s, "(%s - %s)", L, R);
            out->t = ixs_t(IX_T_INTEGER, 4);
            return 0;
        }
        if (a == IX_T_DATE && (ixs_is_int(b) || ixs_is_numeric(b)) && (op == '+' || op == '-')) {
            if (!ixs_is_int(b)) ixs_to_type(p, r, ixs_t(IX_T_INTEGER, 4));
            sb_printf(&out->s, "(%s %c %s)", L, op, xs(r));
            out->t = ixs_t(IX_T_DATE, 4);
            return 0;
        }
        if (b == IX_T_DATE && ixs_is_numeric(a) && op == '+') {
            if (!ixs_is_int(a)) ixs_to_type(p, l, ixs_t(IX_T_INTEGER, 4));
            sb_printf(&out->s, "(%s + %s)", xs(l), R);
            out->t = ixs_t(IX_T_DATE, 4);
            return 0;
        }
        if ((a == IX_T_DATETIME || a == IX_T_DATE) && (b == IX_T_DATETIME || b == IX_T_DATE) &&
            op == '-') {
            int ea = a == IX_T_DATE ? IX_TU_DAY : IX_QUAL_END(l->t.len);
            int eb = b == IX_T_DATE ? IX_TU_DAY : IX_QUAL_END(r->t.len);
            int e = ea > eb ? ea : eb;
            uint32_t q = ix_iv_qual(9, IX_TU_DAY, e);
            sb_printf(&out->s, "ixd_dtsub(%s,%u,%s,%u,%u)", L, a == IX_T_DATE ? 0 : l->t.len, R,
                      b == IX_T_DATE ? 0 : r->t.len, q);
            out->t = ixs_t(IX_T_INTERVAL, q);
            return 0;
        }
        if ((a == IX_T_DATETIME || a == IX_T_DATE) && b == IX_T_INTERVAL &&
            (op == '+' || op == '-')) {
            uint32_t q = a == IX_T_DATE ? 0 : l->t.len;
            if (a == IX_T_DATE && IX_QUAL_END(r->t.len) > IX_TU_DAY)
                q = ix_dt_qual(IX_TU_YEAR, IX_QUAL_END(r->t.len));
            sb_printf(&out->s, "ixd_dtadd(%s,%u,%s,%u,%d)", L, q, R, r->t.len, op == '-' ? -1 : 1);
            out->t = q ? ixs_t(IX_T_DATETIME, q) : ixs_t(IX_T_DATE, 4);
            if (a == IX_T_DATE && q) {
                sb n = {0};
                sb_printf(&n, "ixd_dtadd(%s,%u,%s,%u,%d)", L, q, R, r->t.len, op == '-' ? -1 : 1);
                /* DATE + day-time interval: extend the date first */
                sb_free(&out->s);
                sb_printf(&out->s, "ixd_dtadd(ixd_extend(%s,%d,4,%u),%u,%s,%u,%d)", L, IX_T_DATE, q,
                          q, R, r->t.len, op == '-' ? -1 : 1);
                sb_free(&n);
            }
            return 0;
        }
        if (a == IX_T_INTERVAL && b == IX_T_DATETIME && op == '+') {
            sb_printf(&out->s, "ixd_dtadd(%s,%u,%s,%u,1)", R, r->t.len, L, l->t.len);
            out->t = r->t;
            return 0;
        }
        if (a == IX_T_INTERVAL && b == IX_T_INTERVAL && (op == '+' || op == '-')) {
            sb_printf(&out->s, "(%s %c %s)", L, op, R);
            out->t = l->t;
            return 0;
        }
        if (a == IX_T_INTERVAL && ixs_is_numeric(b) && (op == '*' || op == '/')) {
            if (op == '*')
                sb_printf(&out->s, "CAST(%s * ixd_dbl(%s) AS INTEGER)", L, R);
            else
                sb_printf(&out->s, "CAST(ixd_fdiv(%s, ixd_dbl(%s)) AS INTEGER)", L, R);
            out->t = l->t;
            return 0;
        }
        if (b == IX_T_INTERVAL && ixs_is_numeric(a) && op == '*') {
            sb_printf(&out->s, "CAST(%s * ixd_dbl(%s) AS INTEGER)", R, L);
            out->t = r->t;
            return 0;
        }
        return px_failc(p, -1263, NULL);
    }
    if (!ixs_is_numeric(a) || !ixs_is_numeric(b)) return px_failc(p, -1213, NULL);
    int ca = storage_class(a), cb = storage_class(b);
    if (ca == 'f' || cb == 'f') {
        if (ca == 'd') ixs_to_type(p, l, ixs_t(IX_T_FLOAT, 8));
        if (cb == 'd') ixs_to_type(p, r, ixs_t(IX_T_FLOAT, 8));
        if (op == '/')
            sb_printf(&out->s, "ixd_fdiv(%s,%s)", xs(l), xs(r));
        else
            sb_printf(&out->s, "(%s %c %s)", xs(l), op, xs(r));
        out->t = ixs_t(IX_T_FLOAT, 8);
        return 0;
    }
    if (ca == 'i' && cb == 'i' && op != '/') {
        sb_printf(&out->s, "(%s %c %s)", L, op, R);
        int big8 = a == IX_T_INT8 || a == IX_T_SERIAL8 || b == IX_T_INT8 || b == IX_T_SERIAL8;
        int bigb =
            a == IX_T_BIGINT || a == IX_T_BIGSERIAL || b == IX_T_BIGINT || b == IX_T_BIGSERIAL;
        out->t = big8   ? ixs_t(IX_T_INT8, 10)
                 : bigb ? ixs_t(IX_T_BIGINT, 8)
                        : ixs_t(IX_T_INTEGER, 4);
        return 0;
    }
    /* exact decimal arithmetic */
    ityp da = dec_of(l->t), db = dec_of(r->t);
    const char *fn = op == '+'   ? "ixd_dadd"
                     : op == '-' ? "ixd_dsub"
                     : op == '*' ? "ixd_dmul"
                                 : "ixd_ddiv";
    sb_printf(&out->s, "%s(%s,%s)", fn, L, R);
    int pa = (int)(da.len >> 8), sa = (int)(da.len & 0xff), pb = (int)(db.len >> 8),
        sbb = (int)(db.len & 0xff);
    int money = (a == IX_T_MONEY || b == IX_T_MONEY) && op != '/';
    ityp rt = ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    if (sa != 0xff && sbb != 0xff && op != '/') {
        int s, pr;
        if (op == '*') {
            s = sa + sbb;
            pr = pa + pb;
        } else {
            s = sa > sbb ? sa : sbb;
            int ia = pa - sa, ib = pb - sbb;
            pr = (ia > ib ? ia : ib) + s + 1;
        }
        if (pr > 32) pr = 32;
        if (s <= pr) rt = ixs_t(IX_T_DECIMAL, (uint32_t)pr << 8 | (uint32_t)s);
    }
    if (money) rt.code = IX_T_MONEY;
    out->t = rt;
    return 0;
}

static int parse_mul(px *p, xv *out) {
    if (unary(p, out)) return -1;
    for (;;) {
        char op;
        if (px_op(p, p->i, "*"))
            op = '*';
        else if (px_op(p, p->i, "/"))
            op = '/';
        else
            return 0;
        p->i++;
        xv r, res;
        xv_init(&r);
        xv_init(&res);
        if (unary(p, &r) || arith(p, out, op, &r, &res)) {
            xv_free(&r);
            xv_free(&res);
            return -1;
        }
        res.agg = out->agg || r.agg;
        res.lk = LB_EXPR;
        xv_free(out);
        xv_free(&r);
        *out = res;
    }
}

static int parse_add(px *p, xv *out) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    if (parse_mul(p, out)) return -1;
    for (;;) {
        char op;
        if (px_op(p, p->i, "+"))
            op = '+';
        else if (px_op(p, p->i, "-"))
            op = '-';
        else if (px_op(p, p->i, "||"))
            op = '|';
        else
            break;
        p->i++;
        xv r, res;
        xv_init(&r);
        xv_init(&res);
        int rc = parse_mul(p, &r);
        if (!rc && op == '|') {
            as_text(p, out);
            as_text(p, &r);
            sb_printf(&res.s, "(%s || %s)", xs(out), xs(&r));
            uint32_t n = char_len(ixs_lit_type(out)) + char_len(ixs_lit_type(&r));
            int bothchar = out->t.code == IX_T_CHAR && r.t.code == IX_T_CHAR;
            if (bothchar && n <= 32767)
                res.t = ixs_t(IX_T_CHAR, n);
            else if (n <= 255)
                res.t = ixs_t(IX_T_VARCHAR, n);
            else
                res.t = ixs_t(IX_T_LVARCHAR, n > 32739 ? 32739 : n);
        } else if (!rc) {
            rc = arith(p, out, op, &r, &res);
        }
        if (rc || p->failed) {
            xv_free(&r);
            xv_free(&res);
            return -1;
        }
        res.agg = out->agg || r.agg;
        res.lk = LB_EXPR;
        xv_free(out);
        xv_free(&r);
        *out = res;
    }
    p->depth--;
    return 0;
}

static int pred(px *p, xv *out) {
    if (parse_add(p, out)) return -1;
    int neg = 0;
    int save = p->i;
    if (px_acc(p, "not")) neg = 1;
    const char *op = NULL;
    if (!neg) {
        if (px_op(p, p->i, "=") || px_op(p, p->i, "=="))
            op = "=";
        else if (px_op(p, p->i, "!=") || px_op(p, p->i, "<>"))
            op = "<>";
        else if (px_op(p, p->i, "<"))
            op = "<";
        else if (px_op(p, p->i, ">"))
            op = ">";
        else if (px_op(p, p->i, "<="))
            op = "<=";
        else if (px_op(p, p->i, ">="))
            op = ">=";
    }
    xv r;
    xv_init(&r);
    sb s = {0};
    if (op) {
        p->i++;
        int any = 0, all = 0;
        if (px_acc(p, "any") || px_acc(p, "some"))
            any = 1;
        else if (px_acc(p, "all"))
            all = 1;
        if (any || all) {
            if (px_expect_op(p, "(") || !px_kw(p, p->i, "select")) {
                px_fail(p);
                goto fail;
            }
            qres q;
            memset(&q, 0, sizeof q);
            int st;
            if (ixs_select_sub(p, &q, &st) || px_expect_op(p, ")")) {
                qres_free(&q);
                goto fail;
            }
            settle(p, out);
            /* x op ANY (sub) == EXISTS (SELECT 1 FROM (sub) WHERE x op c) */
            const char *cn = q.ncols ? q.cols[0].name : "";
            xv c;
            xv_init(&c);
            sb_add(&c.s, "_q.");
            sb_ident(&c.s, cn);
            c.t = q.ncols ? q.cols[0].t : ixs_t(-1, 0);
            c.k = XK_COL;
            cmp_coerce(p, out, &c);
            if (any)
                sb_printf(&s, "EXISTS (SELECT 1 FROM (%s) AS _q WHERE %s %s %s)", q.sql.p, xs(out),
                          op, xs(&c));
            else
                sb_printf(&s, "NOT EXISTS (SELECT 1 FROM (%s) AS _q WHERE NOT (%s %s %s))", q.sql.p,
                          xs(out), op, xs(&c));
            xv_free(&c);
            qres_free(&q);
        } else {
            if (parse_add(p, &r)) goto fail;
            cmp_coerce(p, out, &r);
            sb_printf(&s, "(%s %s %s)", xs(out), op, xs(&r));
        }
    } else if (px_acc(p, "between")) {
        xv hi;
        xv_init(&hi);
        if (parse_add(p, &r) || px_expect(p, "and") || parse_add(p, &hi)) {
            xv_free(&hi);
            goto fail;
        }
        settle(p, out);
        if (is_lit(out)) {
            settle(p, &r);
            ixs_to_type(p, out, r.t);
        }
        xv o2 = *out;
        cmp_coerce(p, out, &r);
        (void)o2;
        cmp_coerce(p, out, &hi);
        sb_printf(&s, "(%s %sBETWEEN %s AND %s)", xs(out), neg ? "NOT " : "", xs(&r), xs(&hi));
        xv_free(&hi);
    } else if (px_kw(p, p->i, "in") && !px_op(p, p->i + 1, "(")) {
        p->i++; /* x IN collection */
        if (parse_add(p, &r) || ixs_coll_in(p, out, &r, neg, &s)) goto fail;
    } else if (px_acc(p, "in")) {
        if (px_expect_op(p, "(")) goto fail;
        if (px_kw(p, p->i, "select")) {
            qres q;
            memset(&q, 0, sizeof q);
            int st;
            if (ixs_select_sub(p, &q, &st) || px_expect_op(p, ")")) {
                qres_free(&q);
                goto fail;
            }
            settle(p, out);
            if (q.ncols != 1) {
                qres_free(&q);
                px_fail(p);
                goto fail;
            }
            xv c;
            xv_init(&c);
            sb_add(&c.s, "_q.");
            sb_ident(&c.s, q.cols[0].name);
            c.t = q.cols[0].t;
            c.k = XK_COL;
            if (out->k == XK_PARAM || is_lit(out)) ixs_to_type(p, out, c.t);
            cmp_coerce(p, out, &c);
            if (!strncmp(c.s.p, "_q.", 3))
                sb_printf(&s, "(%s %sIN (%s))", xs(out), neg ? "NOT " : "", q.sql.p);
            else
                sb_printf(&s, "(%s %sIN (SELECT %s FROM (%s) AS _q))", xs(out), neg ? "NOT " : "",
                          xs(&c), q.sql.p);
            xv_free(&c);
            qres_free(&q);
        } else {
            settle(p, out);
            sb_printf(&s, "(%s %sIN (", "", neg ? "NOT " : "");
            sb body = {0};
            int first = 1;
            for (;;) {
                xv e;
                xv_init(&e);
                if (parse_add(p, &e)) {
                    xv_free(&e);
                    sb_free(&body);
                    goto fail;
                }
                if (is_lit(out) && !is_lit(&e)) {
                    settle(p, &e);
                }
                cmp_coerce(p, out, &e);
                if (!first) sb_addc(&body, ',');
                sb_add(&body, xs(&e));
                first = 0;
                xv_free(&e);
                if (px_acc_op(p, ",")) continue;
                break;
            }
            if (px_expect_op(p, ")")) {
                sb_free(&body);
                goto fail;
            }
            sb_free(&s);
            sb_printf(&s, "(%s %sIN (%s))", xs(out), neg ? "NOT " : "", body.p ? body.p : "");
            sb_free(&body);
        }
    } else if (px_acc(p, "like") || px_acc(p, "matches")) {
        int matches = px_kw(p, p->i - 1, "matches");
        if (parse_add(p, &r)) goto fail;
        as_text(p, out);
        as_text(p, &r);
        xv esc;
        xv_init(&esc);
        int has_esc = 0;
        if (px_acc(p, "escape")) {
            if (parse_add(p, &esc)) {
                xv_free(&esc);
                goto fail;
            }
            has_esc = 1;
        }
        if (matches)
            sb_printf(&s, "(%sixd_matches(%s,%s))", neg ? "NOT " : "", xs(out), xs(&r));
        else
            sb_printf(&s, "(%s %sLIKE %s ESCAPE %s)", xs(out), neg ? "NOT " : "", xs(&r),
                      has_esc ? xs(&esc) : "'\\'");
        xv_free(&esc);
    } else if (!neg && px_acc(p, "is")) {
        int n2 = px_acc(p, "not");
        if (px_expect(p, "null")) goto fail;
        sb_printf(&s, "(%s IS %sNULL)", xs(out), n2 ? "NOT " : "");
    } else {
        p->i = save;
        return 0;
    }
    if (p->failed) goto fail;
    {
        int agg = out->agg || r.agg;
        xv_free(out);
        xv_free(&r);
        out->s = s;
        out->t = ixs_t(IX_T_BOOLEAN, 1);
        out->k = XK_PRED;
        out->agg = agg;
        out->lk = LB_EXPR;
        out->pidx = -1;
    }
    return 0;
fail:
    sb_free(&s);
    xv_free(&r);
    return -1;
}

static int parse_not(px *p, xv *out) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    int rc;
    if (px_acc(p, "not")) {
        rc = parse_not(p, out);
        if (!rc) {
            sb n = {0};
            sb_printf(&n, "(NOT %s)", xs(out));
            xv_set_sql(out, &n);
            out->k = XK_PRED;
            out->t = ixs_t(IX_T_BOOLEAN, 1);
        }
    } else {
        rc = pred(p, out);
    }
    p->depth--;
    return rc;
}

static int parse_and(px *p, xv *out) {
    if (parse_not(p, out)) return -1;
    while (px_acc(p, "and")) {
        xv r;
        xv_init(&r);
        if (parse_not(p, &r)) {
            xv_free(&r);
            return -1;
        }
        sb n = {0};
        sb_printf(&n, "(%s AND %s)", xs(out), xs(&r));
        xv_set_sql(out, &n);
        out->agg |= r.agg;
        out->k = XK_PRED;
        out->t = ixs_t(IX_T_BOOLEAN, 1);
        xv_free(&r);
    }
    return 0;
}

static int parse_or(px *p, xv *out) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    if (parse_and(p, out)) return -1;
    while (px_acc(p, "or")) {
        xv r;
        xv_init(&r);
        if (parse_and(p, &r)) {
            xv_free(&r);
            return -1;
        }
        sb n = {0};
        sb_printf(&n, "(%s OR %s)", xs(out), xs(&r));
        xv_set_sql(out, &n);
        out->agg |= r.agg;
        out->k = XK_PRED;
        out->t = ixs_t(IX_T_BOOLEAN, 1);
        xv_free(&r);
    }
    p->depth--;
    return 0;
}

int ixs_conj(px *p, xv *out) {
    xv_init(out);
    if (parse_not(p, out) || p->failed) return -1;
    return 0;
}

int ixs_expr(px *p, xv *out) {
    xv_init(out);
    int rc = parse_or(p, out);
    if (rc || p->failed) return -1;
    return 0;
}

int ixs_cond(px *p, xv *out) {
    xv_init(out);
    if (parse_or(p, out) || p->failed) return -1;
    if (out->k != XK_PRED) {
        /* a bare value as a condition: BOOLEAN column, or constant */
        settle(p, out);
        if (out->t.code != IX_T_BOOLEAN) return px_fail(p);
    }
    return 0;
}

/* ---- types in DDL and CAST ------------------------------------------------------------------ */

int ixs_parse_type(px *p, ityp *t, int *serial, int64_t *serial_start, uint32_t *collen) {
    *serial = 0;
    *serial_start = 1;
    if (ixs_coll_type_at(p)) return ixs_coll_parse_type(p, t, collen);
    int64_t a = -1, b = -1;
    char nm[IXS_NAME_MAX + 1];
    int at = p->i;
    if (px_ident(p, nm, sizeof nm)) return -1;
#define OPTARGS()                                                                                  \
    do {                                                                                           \
        if (px_acc_op(p, "(")) {                                                                   \
            if (px_int(p, &a)) return -1;                                                          \
            if (px_acc_op(p, ",") && px_int(p, &b)) return -1;                                     \
            if (px_expect_op(p, ")")) return -1;                                                   \
        }                                                                                          \
    } while (0)
    if (!strcmp(nm, "char") || !strcmp(nm, "character") || !strcmp(nm, "nchar")) {
        int n = !strcmp(nm, "nchar");
        if (!n && px_acc(p, "varying")) {
            OPTARGS();
            if (a < 1 || a > 255 || b > a) return px_fail(p);
            *t = ixs_t(IX_T_VARCHAR, (uint32_t)a);
            *collen = (uint32_t)a | (uint32_t)(b > 0 ? b : 0) << 8;
            return 0;
        }
        OPTARGS();
        if (a < 0) a = 1;
        if (a < 1 || a > 32767 || b >= 0) return px_fail(p);
        *t = ixs_t(n ? IX_T_NCHAR : IX_T_CHAR, (uint32_t)a);
    } else if (!strcmp(nm, "varchar") || !strcmp(nm, "nvarchar")) {
        OPTARGS();
        if (a < 0) a = 1;
        if (a < 1 || a > 255 || b > a) return px_fail(p);
        *t = ixs_t(nm[0] == 'n' ? IX_T_NVARCHAR : IX_T_VARCHAR, (uint32_t)a);
        *collen = (uint32_t)a | (uint32_t)(b > 0 ? b : 0) << 8;
        return 0;
    } else if (!strcmp(nm, "lvarchar")) {
        OPTARGS();
        if (a < 0) a = 2048;
        if (a < 1 || a > 32739 || b >= 0) return px_fail(p);
        *t = ixs_t(IX_T_LVARCHAR, (uint32_t)a);
    } else if (!strcmp(nm, "smallint")) {
        *t = ixs_t(IX_T_SMALLINT, 2);
    } else if (!strcmp(nm, "integer") || !strcmp(nm, "int")) {
        *t = ixs_t(IX_T_INTEGER, 4);
    } else if (!strcmp(nm, "int8")) {
        *t = ixs_t(IX_T_INT8, 10);
    } else if (!strcmp(nm, "bigint")) {
        *t = ixs_t(IX_T_BIGINT, 8);
    } else if (!strcmp(nm, "serial") || !strcmp(nm, "serial8") || !strcmp(nm, "bigserial")) {
        OPTARGS();
        if (b >= 0) return px_fail(p);
        *serial = nm[6] == '8' ? 2 : nm[0] == 'b' ? 3 : 1;
        if (a > 0) *serial_start = a;
        if (a == 0 || a < -1) return px_fail(p);
        *t = *serial == 1   ? ixs_t(IX_T_SERIAL, 4)
             : *serial == 2 ? ixs_t(IX_T_SERIAL8, 10)
                            : ixs_t(IX_T_BIGSERIAL, 8);
    } else if (!strcmp(nm, "smallfloat") || !strcmp(nm, "real")) {
        *t = ixs_t(IX_T_SMALLFLOAT, 4);
    } else if (!strcmp(nm, "float")) {
        OPTARGS();
        *t = ixs_t(IX_T_FLOAT, 8);
    } else if (!strcmp(nm, "double")) {
        if (px_expect(p, "precision")) return -1;
        *t = ixs_t(IX_T_FLOAT, 8);
    } else if (!strcmp(nm, "decimal") || !strcmp(nm, "dec") || !strcmp(nm, "numeric") ||
               !strcmp(nm, "money")) {
        OPTARGS();
        int money = nm[0] == 'm';
        if (a < 0) a = 16;
        if (a < 1 || a > 32) return px_fail(p);
        if (b < 0)
            b = money ? 2 : 0xff;
        else if (b > a)
            return px_fail(p);
        if (money && b == 0xff) b = 2;
        if (money && b > a) b = a;
        *t = ixs_t(money ? IX_T_MONEY : IX_T_DECIMAL, (uint32_t)a << 8 | (uint32_t)b);
    } else if (!strcmp(nm, "date")) {
        *t = ixs_t(IX_T_DATE, 4);
    } else if (!strcmp(nm, "datetime") || !strcmp(nm, "interval")) {
        uint32_t q;
        if (ixs_parse_qual(p, nm[0] == 'i', &q)) return -1;
        *t = ixs_t(nm[0] == 'i' ? IX_T_INTERVAL : IX_T_DATETIME, q);
    } else if (!strcmp(nm, "boolean")) {
        *t = ixs_t(IX_T_BOOLEAN, 1);
    } else if (!strcmp(nm, "byte") || !strcmp(nm, "text")) {
        if (px_acc(p, "in")) {
            char dummy[IXS_NAME_MAX + 1];
            if (px_ident(p, dummy, sizeof dummy)) return -1;
        }
        *t = ixs_t(nm[0] == 'b' ? IX_T_BYTE : IX_T_TEXT, 56);
    } else {
        p->i = at;
        return px_fail(p);
    }
    *collen = t->len;
    return 0;
#undef OPTARGS
}
