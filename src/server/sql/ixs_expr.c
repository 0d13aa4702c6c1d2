/* ixs_expr.c: Informix expressions and search conditions -> SQLite SQL in
 * ixd's storage domain, with the Informix type of every expression. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_objs.h"
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

/* A number literal as a DATE: a day count (Informix: 1 = 1900-01-01). */
static int num_to_date(const xv *v, sval *out) {
    sval n;
    int rc =
        ixs_text_to_sval(ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff), v->lit ? v->lit : "", v->litn, &n);
    if (rc) return rc;
    rc = ixs_convert(ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff), &n, ixs_t(IX_T_DATE, 4), out);
    sval_free(&n);
    return rc;
}

/* A literal converted to type t at translation time. */
static void lit_to_type(px *p, xv *v, ityp t) {
    sval sv;
    int rc = v->k != XK_STR && t.code == IX_T_DATE
                 ? num_to_date(v, &sv)
                 : ixs_text_to_sval(t, v->lit ? v->lit : "", v->litn, &sv);
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
}

/* The SQL that converts a number of type f to number type t into n; 0 if
 * the value needs no conversion. */
static int num_cvt_sql(xv *v, ityp f, ityp t, sb *n) {
    int fc = storage_class(f.code), tc = storage_class(t.code);
    if (tc == 'd' && (t.len & 0xff) != 0xff)
        sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
    else if (tc == 'd' && fc != 'd')
        sb_printf(n, "ixd_dec(%s)", xs(v));
    else if (tc == 'f' && fc == 'd')
        sb_printf(n, "ixd_dbl(%s)", xs(v));
    else if (tc == 'd' && fc == 'd' && (t.len & 0xff) != 0xff && (t.len & 0xff) != (f.len & 0xff))
        sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
    else if (tc == 'i' && (fc != 'i' || int_width(t.code) < int_width(f.code)))
        sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
    else
        return 0;
    return 1;
}

/* The SQL that converts an expression of type f to type t into n; 0 if
 * the value needs no conversion (only its type changes). */
static int cvt_sql(xv *v, ityp f, ityp t, sb *n) {
    int fc = storage_class(f.code), tc = storage_class(t.code);
    if (ixs_is_numeric(f.code) && ixs_is_numeric(t.code)) return num_cvt_sql(v, f, t, n);
    if (t.code == IX_T_DATETIME && (f.code == IX_T_DATETIME || f.code == IX_T_DATE))
        sb_printf(n, "ixd_extend(%s,%d,%u,%u)", xs(v), f.code, f.len, t.len);
    else if (t.code == IX_T_DATE && f.code == IX_T_DATETIME)
        sb_printf(n, "ixd_part(%s,%d,%u,4)", xs(v), f.code, f.len);
    else if (t.code == IX_T_INTERVAL && f.code == IX_T_INTERVAL &&
             (IX_QUAL_START(t.len) <= IX_TU_MONTH) == (IX_QUAL_START(f.len) <= IX_TU_MONTH))
        return 0;
    else if (ixs_is_char(t.code) && ixs_is_char(f.code))
        return 0;
    else if (fc == tc && f.code == t.code)
        return 0;
    else
        sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", xs(v), f.code, f.len, t.code, t.len);
    return 1;
}

/* Converts v to type t: its SQL and type; a parameter takes t as its type. */
void ixs_to_type(px *p, xv *v, ityp t) {
    if (p->failed || t.code < 0) return;
    if (t.code == IX_T_ROW) {
        ixs_row_to_type(p, v, t);
        return;
    }
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
        lit_to_type(p, v, t);
        return;
    }
    ityp f = v->t;
    if (f.code < 0) {
        v->t = t;
        return;
    }
    if (f.code == t.code && f.len == t.len) return;
    sb n = {0};
    if (!cvt_sql(v, f, t, &n)) {
        v->t = t;
        return;
    }
    xv_set_sql(v, &n);
    v->t = t;
    v->k = XK_EXPR;
}

/* Two constants compared: numbers compare as numbers, strings as strings. */
static void cmp_coerce_lits(px *p, xv *l, xv *r) {
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
}

/* Two typed numbers compared: the narrower storage class takes the wider one. */
static void cmp_coerce_nums(px *p, xv *l, xv *r) {
    ityp a = l->t, b = r->t;
    int ca = storage_class(a.code), cb = storage_class(b.code);
    if (ca == cb) return;
    if (ca == 'd' && cb == 'i')
        ixs_to_type(p, r, dec_of(b));
    else if (cb == 'd' && ca == 'i')
        ixs_to_type(p, l, dec_of(a));
    else if (ca == 'f' && cb == 'd')
        ixs_to_type(p, r, a);
    else if (cb == 'f' && ca == 'd')
        ixs_to_type(p, l, b);
}

/* Two typed values compared: numbers, DATETIME and DATE, text and others. */
static void cmp_coerce_typed(px *p, xv *l, xv *r) {
    ityp a = l->t, b = r->t;
    if (a.code < 0 || b.code < 0) return;
    if (ixs_is_numeric(a.code) && ixs_is_numeric(b.code)) {
        cmp_coerce_nums(p, l, r);
        return;
    }
    if (a.code == IX_T_DATETIME && b.code == IX_T_DATETIME) {
        if (a.len == b.len) return;
        ityp full = ixs_t(IX_T_DATETIME, ix_dt_qual(IX_TU_YEAR, IX_TU_F(5)));
        ixs_to_type(p, l, full);
        ixs_to_type(p, r, full);
    } else if (a.code == IX_T_DATETIME && b.code == IX_T_DATE)
        ixs_to_type(p, r, a);
    else if (b.code == IX_T_DATETIME && a.code == IX_T_DATE)
        ixs_to_type(p, l, b);
    else if (ixs_is_char(a.code) && !ixs_is_char(b.code))
        ixs_to_type(p, l, b);
    else if (ixs_is_char(b.code) && !ixs_is_char(a.code))
        ixs_to_type(p, r, a);
    else if (storage_class(a.code) != storage_class(b.code))
        ixs_to_type(p, r, a);
}

/* Brings two operands of a comparison to one storage domain. */
static void cmp_coerce(px *p, xv *l, xv *r) {
    if (p->failed || ixs_row_cmp(p, l, r)) return;
    int ll = is_lit(l), rl = is_lit(r);
    if (ll && !rl && r->t.code >= 0)
        ixs_to_type(p, l, r->t);
    else if (rl && !ll && l->t.code >= 0)
        ixs_to_type(p, r, l->t);
    else if (ll && rl)
        cmp_coerce_lits(p, l, r);
    else
        cmp_coerce_typed(p, l, r);
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
    if (p->syntax_only) { /* any name is a column of unknown type */
        sb_add(&out->s, "NULL");
        out->lk = LB_COL;
        return 0;
    }
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

/* name.NEXTVAL / name.CURRVAL of a sequence (ixs_seq.c): 1, 0 not one, -1. */
static int seq_ref(px *p, const char *name, const char *what, xv *out) {
    int next = !strcmp(what, "nextval");
    if (!next && strcmp(what, "currval")) return 0;
    return ixs_seq_ref(p, name, next, out);
}

/* ---- primaries --------------------------------------------------------------------- */

static int parse_or(px *p, xv *out);
static int parse_add(px *p, xv *out);

/* unit := ( YEAR | MONTH | DAY | HOUR | MINUTE | SECOND | FRACTION ) [ "(" 1..9 ")" ]
 * (as_end: the unit after TO, where only FRACTION takes "(n)") */
static int qual_unit(px *p, int *u, int *n, int as_end) {
    static const struct {
        const char *kw;
        int u;
    } units[] = {{"year", IX_TU_YEAR},        {"month", IX_TU_MONTH},   {"day", IX_TU_DAY},
                 {"hour", IX_TU_HOUR},        {"minute", IX_TU_MINUTE}, {"second", IX_TU_SECOND},
                 {"fraction", IX_TU_FRACTION}};
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (px_acc_str(p, units[k].kw)) {
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

/* qualifier := unit [ TO unit ] (a DATETIME or, with interval, an INTERVAL qualifier) */
int ixs_parse_qual(px *p, int interval, uint32_t *q) {
    int s, sn, e, en;
    int at = p->i;
    if (qual_unit(p, &s, &sn, 0)) return -1;
    if (px_acc(p, IXK_TO)) {
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

/* The branches of a CASE: the operand of a simple CASE, WHEN values w, results r
 * (r[nw] is the ELSE). */
typedef struct {
    xv sel, *w, *r;
    int nw, has_else, simple;
} caseparts;

/* [ or ] WHEN ... [ ELSE or ] END (after CASE): collects the branches */
static int case_parse(px *p, caseparts *c) {
    if (!px_kw(p, p->i, IXK_WHEN)) {
        if (parse_or(p, &c->sel)) return -1;
        c->simple = 1;
        settle(p, &c->sel);
    }
    while (px_acc(p, IXK_WHEN)) {
        if (c->nw >= MAXWHEN) {
            px_fail(p);
            return -1;
        }
        int k = c->nw++;
        xv_init(&c->w[k]);
        xv_init(&c->r[k]);
        if (c->simple ? parse_add(p, &c->w[k]) : ixs_cond(p, &c->w[k])) return -1;
        if (px_expect(p, IXK_THEN) || parse_or(p, &c->r[k])) return -1;
    }
    if (!c->nw) {
        px_fail(p);
        return -1;
    }
    if (px_acc(p, IXK_ELSE)) {
        xv_init(&c->r[c->nw]);
        c->has_else = 1;
        if (parse_or(p, &c->r[c->nw])) return -1;
    }
    return px_expect(p, IXK_END) ? -1 : 0;
}

/* Types the results of a CASE alike and writes its SQL into out. */
static int case_emit(px *p, caseparts *c, xv *out) {
    int nw = c->nw;
    ityp rt = ixs_t(-1, 0);
    for (int i = 0; i < nw + c->has_else; i++) {
        settle(p, &c->r[i]);
        if (c->r[i].k != XK_NULL && c->r[i].k != XK_PARAM) rt = merge_type(rt, c->r[i].t);
    }
    if (rt.code < 0) rt = ixs_t(IX_T_CHAR, 1);
    sb s = {0};
    sb_add(&s, "CASE");
    if (c->simple) sb_printf(&s, " %s", xs(&c->sel));
    for (int i = 0; i < nw; i++) {
        if (c->simple) cmp_coerce(p, &c->sel, &c->w[i]);
        ixs_to_type(p, &c->r[i], rt);
        sb_printf(&s, " WHEN %s THEN %s", xs(&c->w[i]), xs(&c->r[i]));
    }
    if (c->has_else) {
        ixs_to_type(p, &c->r[nw], rt);
        sb_printf(&s, " ELSE %s", xs(&c->r[nw]));
    }
    sb_add(&s, " END");
    xv_set_sql(out, &s);
    out->t = rt;
    return p->failed ? -1 : 0;
}

/* case := CASE WHEN cond THEN or { WHEN cond THEN or } [ ELSE or ] END
 *       | CASE or WHEN add THEN or { WHEN add THEN or } [ ELSE or ] END
 * (after CASE) */
static int parse_case(px *p, xv *out) {
    /* after CASE: collect the branches, then type and emit them (on the
     * heap: 257 branches would take 100 KiB of a connection's stack) */
    caseparts c;
    memset(&c, 0, sizeof c);
    c.w = malloc(MAXWHEN * sizeof *c.w);
    c.r = malloc((MAXWHEN + 1) * sizeof *c.r);
    int rc = -1;
    xv_init(&c.sel);
    if (!c.w || !c.r)
        px_failc(p, -208, NULL);
    else if (!case_parse(p, &c))
        rc = case_emit(p, &c, out);
    xv_free(&c.sel);
    for (int i = 0; i < c.nw; i++) {
        xv_free(&c.w[i]);
        xv_free(&c.r[i]);
    }
    if (c.has_else) xv_free(&c.r[c.nw]);
    free(c.w);
    free(c.r);
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

/* subquery := select ")" (after "("): a scalar value, or with exists EXISTS ( select ) */
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

/* An integer literal that fits in INT8 becomes an XK_INT (typed when used);
 * returns 0 if it does not fit. */
static int int_literal(xv *out, int len) {
    int64_t v = 0;
    for (int k = 0; k < len; k++) {
        int d = out->lit[k] - '0';
        if (v > (INT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    out->k = XK_INT;
    sb_printf(&out->s, "%lld", (long long)v);
    out->t = v <= INT32_MAX ? ixs_t(IX_T_INTEGER, 4) : ixs_t(IX_T_INT8, 10);
    out->t.code = -1; /* typed when used */
    return 1;
}

/* The natural type of a number literal without an exponent: DECIMAL(digits, scale). */
static ityp decimal_literal_type(const xv *out) {
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
    return ixs_t(IX_T_DECIMAL, (uint32_t)digits << 8 | (uint32_t)frac);
}

/* number = digits | digits "." digits [ ("e" | "E") ["+" | "-"] digits ] */
static int prim_number(px *p, xv *out, tok *t) {
    out->lit = strndup(p->sql + t->pos, (size_t)t->len);
    if (!out->lit) return px_failc(p, -208, NULL);
    out->litn = (size_t)t->len;
    out->lk = LB_CONST;
    p->i++;
    if (t->k == T_INT && int_literal(out, t->len)) return 0;
    out->k = XK_NUM;
    /* natural form: a DECIMAL (or FLOAT with an exponent) */
    int hasexp = strpbrk(out->lit, "eE") != NULL;
    ityp lt = hasexp ? ixs_t(IX_T_FLOAT, 8) : decimal_literal_type(out);
    sval v;
    int rc = ixs_text_to_sval(hasexp ? lt : ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff), out->lit,
                              out->litn, &v);
    if (rc) return px_failc(p, rc, NULL);
    sval_sql(&v, &out->s);
    sval_free(&v);
    return 0;
}

/* string = "'" chars "'" | '"' chars '"' */
static int prim_string(px *p, xv *out) {
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

/* param = "?" (numbered in the order of the text) */
static int prim_param(px *p, xv *out, tok *t) {
    out->k = XK_PARAM;
    out->pidx = t->pidx;
    out->lk = LB_EXPR;
    sb_printf(&out->s, "?%d", t->pidx + 1);
    if (t->pidx >= p->nparams) p->nparams = t->pidx + 1;
    p->i++;
    if (p->ptypes[t->pidx].code >= 0) out->t = p->ptypes[t->pidx];
    return 0;
}

/* "(" ( select | or ) ")" (after the "(") */
static int prim_paren(px *p, xv *out) {
    if (px_kw(p, p->i, IXK_SELECT)) return subquery(p, out, 0);
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

/* CURRENT [ qualifier ] | SYSDATE */
static int prim_current(px *p, xv *out) {
    int sysd = px_kw(p, p->i, IXK_SYSDATE);
    p->i++;
    uint32_t q = ix_dt_qual(IX_TU_YEAR, sysd ? IX_TU_F(5) : IX_TU_F(3));
    static const char *uk[] = {"year", "month", "day", "hour", "minute", "second", "fraction"};
    for (size_t k = 0; k < 7 && !sysd; k++)
        if (px_kw_str(p, p->i, uk[k])) {
            if (ixs_parse_qual(p, 0, &q)) return -1;
            break;
        }
    sb_printf(&out->s, "ixd_current(%u)", q);
    out->t = ixs_t(IX_T_DATETIME, q);
    out->lk = LB_EXPR;
    return 0;
}

/* NULL | TODAY | USER | a niladic function : a word that is a value by itself;
 * *done is set if the word was one. */
static int prim_value_word(px *p, xv *out, int nextparen, int *done) {
    *done = 1;
    if (px_kw(p, p->i, IXK_NULL)) {
        p->i++;
        out->k = XK_NULL;
        out->lk = LB_CONST;
        sb_add(&out->s, "NULL");
        return 0;
    }
    if (px_kw(p, p->i, IXK_TODAY) && !nextparen) {
        p->i++;
        sb_add(&out->s, "ixd_today()");
        out->t = ixs_t(IX_T_DATE, 4);
        out->lk = LB_EXPR;
        return 0;
    }
    if ((px_kw(p, p->i, IXK_CURRENT) || px_kw(p, p->i, IXK_SYSDATE)) && !nextparen)
        return prim_current(p, out);
    if (ixs_func_niladic(p, out)) return 0;
    if (px_kw(p, p->i, IXK_USER) && !nextparen) {
        p->i++;
        sb_strlit(&out->s, p->db->user, strlen(p->db->user));
        out->t = ixs_t(IX_T_VARCHAR, 32);
        out->lk = LB_EXPR;
        return 0;
    }
    *done = 0;
    return 0;
}

/* a word not followed by ".": NULL, TODAY, CURRENT, SYSDATE, USER, niladic functions,
 * DATETIME(...) qual, INTERVAL(...) qual, CASE ..., EXISTS (select), ROW(...),
 * window functions, name "(" args ")"; *done is set if it was one of these. */
static int prim_word(px *p, xv *out, int nextparen, int *done) {
    int rc = prim_value_word(p, out, nextparen, done);
    if (*done) return rc;
    *done = 1;
    if ((px_kw(p, p->i, IXK_DATETIME) || px_kw(p, p->i, IXK_INTERVAL)) && nextparen) {
        int iv = px_kw(p, p->i, IXK_INTERVAL);
        p->i++;
        return typed_literal(p, iv, out);
    }
    if (px_kw(p, p->i, IXK_CASE)) {
        p->i++;
        out->lk = LB_EXPR;
        return parse_case(p, out);
    }
    if (px_kw(p, p->i, IXK_EXISTS) && nextparen) {
        p->i += 2;
        if (!px_kw(p, p->i, IXK_SELECT)) return px_fail(p);
        return subquery(p, out, 1);
    }
    if (nextparen && px_kw(p, p->i, IXK_ROW)) return ixs_row_literal(p, out);
    if (nextparen && ixs_window_at(p)) return ixs_window_call(p, out);
    if (nextparen) {
        char fn[IXS_NAME_MAX + 1];
        if (px_ident(p, fn, sizeof fn)) return -1;
        p->i++; /* ( */
        return ixs_func_call(p, fn, out);
    }
    *done = 0;
    return 0;
}

/* column = [owner "."] table "." column | column ; also table.column.field,
 * column.field (ROW fields), [owner.]sequence.NEXTVAL | CURRVAL */
static int prim_column(px *p, xv *out) {
    char a[IXS_NAME_MAX + 1], b[IXS_NAME_MAX + 1], c[IXS_NAME_MAX + 1];
    if (px_ident(p, a, sizeof a)) return -1;
    if (!px_acc_op(p, ".")) return find_col(p, NULL, a, out);
    if (px_ident(p, b, sizeof b)) return -1;
    if (px_acc_op(p, ".")) {
        if (px_ident(p, c, sizeof c)) return -1;
        if (ixs_row_colref(p, a, b)) /* table.column.field */
            return find_col(p, a, b, out) ? -1 : ixs_row_field(p, out, c);
        int sq = seq_ref(p, b, c, out); /* owner.seq.NEXTVAL */
        return sq ? (sq < 0 ? -1 : 0) : find_col(p, b, c, out);
    }
    if (ixs_row_colref(p, NULL, a)) /* column.field */
        return find_col(p, NULL, a, out) ? -1 : ixs_row_field(p, out, b);
    int sq = seq_ref(p, a, b, out); /* seq.NEXTVAL, seq.CURRVAL */
    if (sq) return sq < 0 ? -1 : 0;
    return find_col(p, a, b, out);
}

/* primary = number | string | param | "(" ( select | or ) ")" | collection literal
 *         | NULL | TODAY | CURRENT [qual] | SYSDATE | USER | niladic function
 *         | DATETIME "(" ... ")" qual | INTERVAL "(" ... ")" qual | CASE ... END
 *         | EXISTS "(" select ")" | ROW "(" ... ")" | window function
 *         | name "(" args ")" | column */
static int primary(px *p, xv *out) {
    if (p->i >= p->nt) return px_fail(p);
    tok *t = &p->t[p->i];
    if (t->k == T_EOF) return px_fail(p);
    if (t->k == T_INT || t->k == T_NUM) return prim_number(p, out, t);
    if (ixs_name_is_owner_colref(p, p->i)) {
        p->i += 2; /* "owner".table.column: the owner does not take part */
        t = &p->t[p->i];
    }
    if (t->k == T_STR) return prim_string(p, out);
    if (t->k == T_PARAM) return prim_param(p, out, t);
    if (px_op(p, p->i, "(")) {
        p->i++;
        return prim_paren(p, out);
    }
    if (t->k != T_ID) return px_fail(p);
    if (px_op(p, p->i + 1, "{")) return ixs_coll_literal(p, out);
    int nextparen = px_op(p, p->i + 1, "(");
    int nextdot = px_op(p, p->i + 1, ".");
    if (!nextdot) {
        int done, rc = prim_word(p, out, nextparen, &done);
        if (done) return rc;
    }
    if (!nextdot && px_is_clause_kw(p, p->i)) return px_fail(p); /* -201, not -217 */
    return prim_column(p, out);
}

/* "::" type (after "::"): a cast */
static int post_cast(px *p, xv *out) {
    ityp t;
    int serial;
    int64_t st;
    uint32_t cl;
    if (ixs_parse_type(p, &t, &serial, &st, &cl)) return -1;
    settle(p, out);
    ixs_to_type(p, out, t);
    out->t = t;
    out->lk = LB_EXPR;
    if (out->k == XK_PARAM) out->k = XK_EXPR; /* a typed value now: ?::INTEGER */
    return p->failed ? -1 : 0;
}

/* "[" first [ "," last ] "]" (after "["): Informix substring (1-based, inclusive) */
static int post_substr(px *p, xv *out) {
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
    return 0;
}

/* UNITS unit (after UNITS): a number as an INTERVAL of that unit */
static int post_units(px *p, xv *out) {
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
    return 0;
}

/* postfix := primary { "::" type | "[" first [ "," last ] "]" | UNITS unit } */
static int postfix(px *p, xv *out) {
    if (primary(p, out)) return -1;
    for (;;) {
        int rc;
        if (px_acc_op(p, "::"))
            rc = post_cast(p, out);
        else if (px_op(p, p->i, "[")) {
            p->i++;
            rc = post_substr(p, out);
        } else if (px_acc(p, IXK_UNITS))
            rc = post_units(p, out);
        else
            return 0;
        if (rc) return rc;
    }
}

/* Folds a minus sign into the number literal out (- -1 is 1). */
static int neg_literal(px *p, xv *out) {
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
    int r2 = ixs_text_to_sval(isint              ? ixs_t(IX_T_BIGINT, 8)
                              : strpbrk(l, "eE") ? ixs_t(IX_T_FLOAT, 8)
                                                 : ixs_t(IX_T_DECIMAL, 32u << 8 | 0xff),
                              l, n, &v);
    if (r2) {
        p->depth--; /* as unary did: its depth is given back on this error only */
        return px_failc(p, r2, NULL);
    }
    sb ns = {0};
    sval_sql(&v, &ns);
    sval_free(&v);
    xv_set_sql(out, &ns);
    return 0;
}

/* The negation of an expression that is not a number literal. */
static void neg_expr(px *p, xv *out) {
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

/* unary := { "+" | "-" } postfix */
static int unary(px *p, xv *out) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    int rc;
    if (px_op(p, p->i, "-") || px_op(p, p->i, "+")) {
        int neg = px_op(p, p->i, "-");
        p->i++;
        rc = unary(p, out);
        if (!rc && neg) {
            if (out->k == XK_INT || out->k == XK_NUM) {
                int r = neg_literal(p, out);
                if (r) return r;
            } else
                neg_expr(p, out);
        }
    } else {
        rc = postfix(p, out);
    }
    p->depth--;
    return rc;
}

/* The result of exact arithmetic with a MONEY operand (*rt holds the
 * DECIMAL rule's type): for + and - MONEY with that precision and scale; for
 * * and / MONEY(32, s) at the scale s of the MONEY operand (the larger of
 * two), the value rounded to it (MONEY(8,2) * 1.5 is MONEY(32,2), as AVG);
 * MONEY / MONEY is a DECIMAL ratio. */
static void money_result(ityp lt, ityp rt0, char op, ityp *rt, sb *s) {
    if (op == '/' && lt.code == IX_T_MONEY && rt0.code == IX_T_MONEY) return;
    if (op == '+' || op == '-') {
        rt->code = IX_T_MONEY;
        return;
    }
    int sa = lt.code == IX_T_MONEY ? (int)(lt.len & 0xff) : -1;
    int sb2 = rt0.code == IX_T_MONEY ? (int)(rt0.len & 0xff) : -1;
    int sc = sa > sb2 ? sa : sb2;
    if (sc < 0 || sc > 32) sc = 2;
    ityp m = ixs_t(IX_T_MONEY, 32u << 8 | (uint32_t)sc);
    if ((rt->len & 0xff) != (uint32_t)sc) {
        sb n = {0};
        sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", s->p ? s->p : "NULL", IX_T_DECIMAL,
                  32u << 8 | 0xff, m.code, m.len);
        sb_free(s);
        *s = n;
    }
    *rt = m;
}

/* The operands of one arithmetic operation: types a, b and SQL L, R of l and r. */
typedef struct {
    xv *l, *r, *out;
    char op;
    int a, b;
    const char *L, *R;
} arop;

/* A parameter takes the type of the other operand (DECIMAL if both are parameters). */
static void arith_params(px *p, xv *l, xv *r) {
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
}

/* Strings in arithmetic are numbers, or next to a date or time of its type. */
static void arith_text(px *p, arop *o) {
    xv *l = o->l, *r = o->r;
    if (ixs_is_char(o->a) && !is_temporal(o->b)) {
        make_num(p, l);
        o->a = l->t.code;
    }
    if (ixs_is_char(o->b) && !is_temporal(o->a)) {
        make_num(p, r);
        o->b = r->t.code;
    }
    if (ixs_is_char(o->a) && is_temporal(o->b) && o->b != IX_T_INTERVAL) {
        ixs_to_type(p, l, r->t);
        o->a = o->b;
    }
    if (ixs_is_char(o->b) && is_temporal(o->a)) {
        int a = o->a;
        ityp tt = a == IX_T_DATE ? ixs_t(IX_T_INTEGER, 4) : a == IX_T_INTERVAL ? l->t : r->t;
        if (a == IX_T_DATETIME) tt = ixs_t(IX_T_INTERVAL, ix_iv_qual(9, IX_TU_DAY, IX_TU_F(5)));
        ixs_to_type(p, r, tt);
        o->b = r->t.code;
    }
}

/* DATE - DATE, DATE +/- number, number + DATE; 1 if the operation is none of these. */
static int arith_date(px *p, arop *o) {
    int a = o->a, b = o->b;
    char op = o->op;
    xv *out = o->out;
    if (a == IX_T_DATE && b == IX_T_DATE && op == '-') {
        sb_printf(&out->s, "(%s - %s)", o->L, o->R);
        out->t = ixs_t(IX_T_INTEGER, 4);
        return 0;
    }
    if (a == IX_T_DATE && (ixs_is_int(b) || ixs_is_numeric(b)) && (op == '+' || op == '-')) {
        if (!ixs_is_int(b)) ixs_to_type(p, o->r, ixs_t(IX_T_INTEGER, 4));
        sb_printf(&out->s, "(%s %c %s)", o->L, op, xs(o->r));
        out->t = ixs_t(IX_T_DATE, 4);
        return 0;
    }
    if (b == IX_T_DATE && ixs_is_numeric(a) && op == '+') {
        if (!ixs_is_int(a)) ixs_to_type(p, o->l, ixs_t(IX_T_INTEGER, 4));
        sb_printf(&out->s, "(%s + %s)", xs(o->l), o->R);
        out->t = ixs_t(IX_T_DATE, 4);
        return 0;
    }
    return 1;
}

/* DATETIME|DATE +/- INTERVAL (a DATE with a day-time interval is extended first) */
static void arith_dt_add(arop *o) {
    xv *l = o->l, *r = o->r, *out = o->out;
    int a = o->a, sign = o->op == '-' ? -1 : 1;
    uint32_t q = a == IX_T_DATE ? 0 : l->t.len;
    if (a == IX_T_DATE && IX_QUAL_END(r->t.len) > IX_TU_DAY)
        q = ix_dt_qual(IX_TU_YEAR, IX_QUAL_END(r->t.len));
    sb_printf(&out->s, "ixd_dtadd(%s,%u,%s,%u,%d)", o->L, q, o->R, r->t.len, sign);
    out->t = q ? ixs_t(IX_T_DATETIME, q) : ixs_t(IX_T_DATE, 4);
    if (a == IX_T_DATE && q) {
        /* DATE + day-time interval: extend the date first */
        sb_free(&out->s);
        sb_printf(&out->s, "ixd_dtadd(ixd_extend(%s,%d,4,%u),%u,%s,%u,%d)", o->L, IX_T_DATE, q, q,
                  o->R, r->t.len, sign);
    }
}

/* DATETIME|DATE - DATETIME|DATE, DATETIME|DATE +/- INTERVAL, INTERVAL + DATETIME;
 * 1 if the operation is none of these. */
static int arith_datetime(arop *o) {
    xv *l = o->l, *r = o->r, *out = o->out;
    int a = o->a, b = o->b;
    char op = o->op;
    if ((a == IX_T_DATETIME || a == IX_T_DATE) && (b == IX_T_DATETIME || b == IX_T_DATE) &&
        op == '-') {
        int ea = a == IX_T_DATE ? IX_TU_DAY : IX_QUAL_END(l->t.len);
        int eb = b == IX_T_DATE ? IX_TU_DAY : IX_QUAL_END(r->t.len);
        int e = ea > eb ? ea : eb;
        uint32_t q = ix_iv_qual(9, IX_TU_DAY, e);
        sb_printf(&out->s, "ixd_dtsub(%s,%u,%s,%u,%u)", o->L, a == IX_T_DATE ? 0 : l->t.len, o->R,
                  b == IX_T_DATE ? 0 : r->t.len, q);
        out->t = ixs_t(IX_T_INTERVAL, q);
        return 0;
    }
    if ((a == IX_T_DATETIME || a == IX_T_DATE) && b == IX_T_INTERVAL && (op == '+' || op == '-')) {
        arith_dt_add(o);
        return 0;
    }
    if (a == IX_T_INTERVAL && b == IX_T_DATETIME && op == '+') {
        sb_printf(&out->s, "ixd_dtadd(%s,%u,%s,%u,1)", o->R, r->t.len, o->L, l->t.len);
        out->t = r->t;
        return 0;
    }
    return 1;
}

/* INTERVAL +/- INTERVAL, INTERVAL * or / number, number * INTERVAL;
 * 1 if the operation is none of these. */
static int arith_interval(arop *o) {
    int a = o->a, b = o->b;
    char op = o->op;
    xv *out = o->out;
    if (a == IX_T_INTERVAL && b == IX_T_INTERVAL && (op == '+' || op == '-')) {
        sb_printf(&out->s, "(%s %c %s)", o->L, op, o->R);
        out->t = o->l->t;
        return 0;
    }
    if (a == IX_T_INTERVAL && ixs_is_numeric(b) && (op == '*' || op == '/')) {
        if (op == '*')
            sb_printf(&out->s, "CAST(%s * ixd_dbl(%s) AS INTEGER)", o->L, o->R);
        else
            sb_printf(&out->s, "CAST(ixd_fdiv(%s, ixd_dbl(%s)) AS INTEGER)", o->L, o->R);
        out->t = o->l->t;
        return 0;
    }
    if (b == IX_T_INTERVAL && ixs_is_numeric(a) && op == '*') {
        sb_printf(&out->s, "CAST(%s * ixd_dbl(%s) AS INTEGER)", o->R, o->L);
        out->t = o->r->t;
        return 0;
    }
    return 1;
}

/* The type of an exact DECIMAL result: its precision and scale when both
 * operands have a fixed scale (not for '/'), else floating DECIMAL(32). */
static ityp decimal_result(ityp da, ityp db, char op) {
    int pa = (int)(da.len >> 8), sa = (int)(da.len & 0xff), pb = (int)(db.len >> 8),
        sbb = (int)(db.len & 0xff);
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
    return rt;
}

/* Arithmetic on numbers: FLOAT, integer or exact decimal. */
static int arith_numeric(px *p, arop *o) {
    xv *l = o->l, *r = o->r, *out = o->out;
    int a = o->a, b = o->b;
    char op = o->op;
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
        sb_printf(&out->s, "(%s %c %s)", o->L, op, o->R);
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
    sb_printf(&out->s, "%s(%s,%s)", fn, o->L, o->R);
    ityp rt = decimal_result(da, db, op);
    if (a == IX_T_MONEY || b == IX_T_MONEY) money_result(l->t, r->t, op, &rt, &out->s);
    out->t = rt;
    return 0;
}

/* arithmetic: out = l op r (op one of + - * /) */
static int arith(px *p, xv *l, char op, xv *r, xv *out) {
    settle(p, l);
    settle(p, r);
    arith_params(p, l, r);
    if (l->k == XK_NULL || r->k == XK_NULL) {
        sb_add(&out->s, "NULL");
        out->t = l->k == XK_NULL ? r->t : l->t;
        return 0;
    }
    arop o = {.l = l, .r = r, .out = out, .op = op, .a = l->t.code, .b = r->t.code};
    arith_text(p, &o);
    if (p->failed) return -1;
    o.L = xs(l);
    o.R = xs(r);
    int a = o.a, b = o.b;
    if (p->syntax_only) return 0; /* the types are unknown: no rules apply */
    /* dates and times */
    if (a == IX_T_DATE || b == IX_T_DATE || a == IX_T_DATETIME || b == IX_T_DATETIME ||
        a == IX_T_INTERVAL || b == IX_T_INTERVAL) {
        if (!arith_date(p, &o) || !arith_datetime(&o) || !arith_interval(&o)) return 0;
        return px_failc(p, -1263, NULL);
    }
    return arith_numeric(p, &o);
}

/* mul := unary { ( "*" | "/" ) unary } */
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

/* add := mul { ( "+" | "-" | "||" ) mul } */
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

/* The comparison operator at the current token (= == != <> < > <= >=), or NULL. */
static const char *cmp_op(px *p) {
    if (px_op(p, p->i, "=") || px_op(p, p->i, "==")) return "=";
    if (px_op(p, p->i, "!=") || px_op(p, p->i, "<>")) return "<>";
    if (px_op(p, p->i, "<")) return "<";
    if (px_op(p, p->i, ">")) return ">";
    if (px_op(p, p->i, "<=")) return "<=";
    if (px_op(p, p->i, ">=")) return ">=";
    return NULL;
}

/* "(" select ")" after x op ANY|SOME|ALL:
 * x op ANY (sub) == EXISTS (SELECT 1 FROM (sub) WHERE x op c) */
static int pred_quant(px *p, xv *out, const char *op, int any, sb *s) {
    if (px_expect_op(p, "(") || !px_kw(p, p->i, IXK_SELECT)) {
        px_fail(p);
        return -1;
    }
    qres q;
    memset(&q, 0, sizeof q);
    int st;
    if (ixs_select_sub(p, &q, &st) || px_expect_op(p, ")")) {
        qres_free(&q);
        return -1;
    }
    settle(p, out);
    const char *cn = q.ncols ? q.cols[0].name : "";
    xv c;
    xv_init(&c);
    sb_add(&c.s, "_q.");
    sb_ident(&c.s, cn);
    c.t = q.ncols ? q.cols[0].t : ixs_t(-1, 0);
    c.k = XK_COL;
    cmp_coerce(p, out, &c);
    if (any)
        sb_printf(s, "EXISTS (SELECT 1 FROM (%s) AS _q WHERE %s %s %s)", q.sql.p, xs(out), op,
                  xs(&c));
    else
        sb_printf(s, "NOT EXISTS (SELECT 1 FROM (%s) AS _q WHERE NOT (%s %s %s))", q.sql.p, xs(out),
                  op, xs(&c));
    xv_free(&c);
    qres_free(&q);
    return 0;
}

/* x op [ ANY | SOME | ALL ] ( add | "(" select ")" ) (after op) */
static int pred_cmp(px *p, xv *out, xv *r, const char *op, sb *s) {
    int any = 0, all = 0;
    if (px_acc(p, IXK_ANY) || px_acc(p, IXK_SOME))
        any = 1;
    else if (px_acc(p, IXK_ALL))
        all = 1;
    if (any || all) return pred_quant(p, out, op, any, s);
    if (parse_add(p, r)) return -1;
    cmp_coerce(p, out, r);
    sb_printf(s, "(%s %s %s)", xs(out), op, xs(r));
    return 0;
}

/* x [NOT] BETWEEN add AND add (after BETWEEN) */
static int pred_between(px *p, xv *out, xv *r, int neg, sb *s) {
    xv hi;
    xv_init(&hi);
    if (parse_add(p, r) || px_expect(p, IXK_AND) || parse_add(p, &hi)) {
        xv_free(&hi);
        return -1;
    }
    settle(p, out);
    if (is_lit(out)) {
        settle(p, r);
        ixs_to_type(p, out, r->t);
    }
    cmp_coerce(p, out, r);
    cmp_coerce(p, out, &hi);
    sb_printf(s, "(%s %sBETWEEN %s AND %s)", xs(out), neg ? "NOT " : "", xs(r), xs(&hi));
    xv_free(&hi);
    return 0;
}

/* x [NOT] IN "(" select ")" (after the "(") */
static int pred_in_sub(px *p, xv *out, int neg, sb *s) {
    qres q;
    memset(&q, 0, sizeof q);
    int st;
    if (ixs_select_sub(p, &q, &st) || px_expect_op(p, ")")) {
        qres_free(&q);
        return -1;
    }
    settle(p, out);
    if (q.ncols != 1) {
        qres_free(&q);
        px_fail(p);
        return -1;
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
        sb_printf(s, "(%s %sIN (%s))", xs(out), neg ? "NOT " : "", q.sql.p);
    else
        sb_printf(s, "(%s %sIN (SELECT %s FROM (%s) AS _q))", xs(out), neg ? "NOT " : "", xs(&c),
                  q.sql.p);
    xv_free(&c);
    qres_free(&q);
    return 0;
}

/* x [NOT] IN "(" add { "," add } ")" (after the "(") */
static int pred_in_list(px *p, xv *out, int neg, sb *s) {
    settle(p, out);
    sb_printf(s, "(%s %sIN (", "", neg ? "NOT " : "");
    sb body = {0};
    int first = 1;
    for (;;) {
        xv e;
        xv_init(&e);
        if (parse_add(p, &e)) {
            xv_free(&e);
            sb_free(&body);
            return -1;
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
        return -1;
    }
    sb_free(s);
    sb_printf(s, "(%s %sIN (%s))", xs(out), neg ? "NOT " : "", body.p ? body.p : "");
    sb_free(&body);
    return 0;
}

/* x [NOT] IN "(" ( select | add { "," add } ) ")" (after IN) */
static int pred_in(px *p, xv *out, int neg, sb *s) {
    if (px_expect_op(p, "(")) return -1;
    if (px_kw(p, p->i, IXK_SELECT)) return pred_in_sub(p, out, neg, s);
    return pred_in_list(p, out, neg, s);
}

/* x [NOT] ( LIKE | MATCHES ) add [ ESCAPE add ] (after LIKE or MATCHES) */
static int pred_like(px *p, xv *out, xv *r, int neg, sb *s) {
    int matches = px_kw(p, p->i - 1, IXK_MATCHES);
    if (parse_add(p, r)) return -1;
    as_text(p, out);
    as_text(p, r);
    xv esc;
    xv_init(&esc);
    int has_esc = 0;
    if (px_acc(p, IXK_ESCAPE)) {
        if (parse_add(p, &esc)) {
            xv_free(&esc);
            return -1;
        }
        has_esc = 1;
    }
    if (matches)
        sb_printf(s, "(%sixd_matches(%s,%s))", neg ? "NOT " : "", xs(out), xs(r));
    else
        sb_printf(s, "(%s %sLIKE %s ESCAPE %s)", xs(out), neg ? "NOT " : "", xs(r),
                  has_esc ? xs(&esc) : "'\\'");
    xv_free(&esc);
    return 0;
}

/* x IS [NOT] NULL (after IS) */
static int pred_is_null(px *p, xv *out, sb *s) {
    int n2 = px_acc(p, IXK_NOT);
    if (px_expect(p, IXK_NULL)) return -1;
    sb_printf(s, "(%s IS %sNULL)", xs(out), n2 ? "NOT " : "");
    return 0;
}

/* Makes out the predicate whose SQL is s (out and r are its operands). */
static void pred_result(xv *out, xv *r, sb *s) {
    int agg = out->agg || r->agg;
    xv_free(out);
    xv_free(r);
    out->s = *s;
    out->t = ixs_t(IX_T_BOOLEAN, 1);
    out->k = XK_PRED;
    out->agg = agg;
    out->lk = LB_EXPR;
    out->pidx = -1;
}

/* pred = add [ cmp_op [ANY | SOME | ALL] ( add | "(" select ")" )
 *            | [NOT] BETWEEN add AND add
 *            | [NOT] IN add                                  (a collection)
 *            | [NOT] IN "(" ( select | add { "," add } ) ")"
 *            | [NOT] ( LIKE | MATCHES ) add [ESCAPE add]
 *            | IS [NOT] NULL ] */
static int pred(px *p, xv *out) {
    if (parse_add(p, out)) return -1;
    int neg = 0;
    int save = p->i;
    if (px_acc(p, IXK_NOT)) neg = 1;
    const char *op = neg ? NULL : cmp_op(p);
    xv r;
    xv_init(&r);
    sb s = {0};
    int rc;
    if (op) {
        p->i++;
        rc = pred_cmp(p, out, &r, op, &s);
    } else if (px_acc(p, IXK_BETWEEN))
        rc = pred_between(p, out, &r, neg, &s);
    else if (px_kw(p, p->i, IXK_IN) && !px_op(p, p->i + 1, "(")) {
        p->i++; /* x IN collection */
        rc = parse_add(p, &r) || ixs_coll_in(p, out, &r, neg, &s) ? -1 : 0;
    } else if (px_acc(p, IXK_IN))
        rc = pred_in(p, out, neg, &s);
    else if (px_acc(p, IXK_LIKE) || px_acc(p, IXK_MATCHES))
        rc = pred_like(p, out, &r, neg, &s);
    else if (!neg && px_acc(p, IXK_IS))
        rc = pred_is_null(p, out, &s);
    else {
        p->i = save;
        return 0;
    }
    if (rc || p->failed) {
        sb_free(&s);
        xv_free(&r);
        return -1;
    }
    pred_result(out, &r, &s);
    return 0;
}

/* not := { NOT } pred */
static int parse_not(px *p, xv *out) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    int rc;
    if (px_acc(p, IXK_NOT)) {
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

/* and := not { AND not } */
static int parse_and(px *p, xv *out) {
    if (parse_not(p, out)) return -1;
    while (px_acc(p, IXK_AND)) {
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

/* or := and { OR and } */
static int parse_or(px *p, xv *out) {
    if (++p->depth > IXS_MAX_DEPTH) return px_fail(p);
    if (parse_and(p, out)) return -1;
    while (px_acc(p, IXK_OR)) {
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

/* conj := not (one conjunct of a WHERE condition) */
int ixs_conj(px *p, xv *out) {
    xv_init(out);
    if (parse_not(p, out) || p->failed) return -1;
    return 0;
}

/* expr := or */
int ixs_expr(px *p, xv *out) {
    xv_init(out);
    int rc = parse_or(p, out);
    if (rc || p->failed) return -1;
    return 0;
}

/* cond := or (a predicate, a BOOLEAN value or a constant) */
int ixs_cond(px *p, xv *out) {
    xv_init(out);
    if (parse_or(p, out) || p->failed) return -1;
    if (out->k != XK_PRED) {
        /* a bare value as a condition: BOOLEAN column, or constant */
        settle(p, out);
        if (out->t.code != IX_T_BOOLEAN && !p->syntax_only) return px_fail(p);
    }
    return 0;
}

/* ---- types in DDL and CAST ------------------------------------------------------------------ */

/* [ "(" int [ "," int ] ")" ] : the optional length (a) and second number (b) of a type */
static int type_args(px *p, int64_t *a, int64_t *b) {
    if (px_acc_op(p, "(")) {
        if (px_int(p, a)) return -1;
        if (px_acc_op(p, ",") && px_int(p, b)) return -1;
        if (px_expect_op(p, ")")) return -1;
    }
    return 0;
}

/* CHAR[ACTER] [(n)] | CHAR[ACTER] VARYING [(max[,min])] | NCHAR [(n)]
 * | [N]VARCHAR [(max[,min])] | LVARCHAR [(n)]; 1 if nm is none of these */
static int type_char(px *p, const char *nm, ityp *t, uint32_t *collen) {
    int64_t a = -1, b = -1;
    int vary = !strcmp(nm, "varchar") || !strcmp(nm, "nvarchar");
    if (!strcmp(nm, "char") || !strcmp(nm, "character") || !strcmp(nm, "nchar")) {
        int n = !strcmp(nm, "nchar");
        if (!n && px_acc(p, IXK_VARYING)) {
            if (type_args(p, &a, &b)) return -1;
            if (a < 1 || a > 255 || b > a) return px_fail(p);
            *t = ixs_t(IX_T_VARCHAR, (uint32_t)a);
            *collen = (uint32_t)a | (uint32_t)(b > 0 ? b : 0) << 8;
            return 0;
        }
        if (type_args(p, &a, &b)) return -1;
        if (a < 0) a = 1;
        if (a < 1 || a > 32767 || b >= 0) return px_fail(p);
        *t = ixs_t(n ? IX_T_NCHAR : IX_T_CHAR, (uint32_t)a);
    } else if (vary) {
        if (type_args(p, &a, &b)) return -1;
        if (a < 0) a = 1;
        if (a < 1 || a > 255 || b > a) return px_fail(p);
        *t = ixs_t(nm[0] == 'n' ? IX_T_NVARCHAR : IX_T_VARCHAR, (uint32_t)a);
        *collen = (uint32_t)a | (uint32_t)(b > 0 ? b : 0) << 8;
        return 0;
    } else if (!strcmp(nm, "lvarchar")) {
        if (type_args(p, &a, &b)) return -1;
        if (a < 0) a = 2048;
        if (a < 1 || a > 32739 || b >= 0) return px_fail(p);
        *t = ixs_t(IX_T_LVARCHAR, (uint32_t)a);
    } else
        return 1;
    *collen = t->len;
    return 0;
}

/* SERIAL [(start)] | SERIAL8 [(start)] | BIGSERIAL [(start)] */
static int type_serial(px *p, const char *nm, ityp *t, int *serial, int64_t *serial_start) {
    int64_t a = -1, b = -1;
    if (type_args(p, &a, &b)) return -1;
    if (b >= 0) return px_fail(p);
    *serial = nm[6] == '8' ? 2 : nm[0] == 'b' ? 3 : 1;
    if (a > 0) *serial_start = a;
    if (a == 0 || a < -1) return px_fail(p);
    *t = *serial == 1   ? ixs_t(IX_T_SERIAL, 4)
         : *serial == 2 ? ixs_t(IX_T_SERIAL8, 10)
                        : ixs_t(IX_T_BIGSERIAL, 8);
    return 0;
}

/* { DECIMAL | DEC | NUMERIC | MONEY } [ "(" precision [ "," scale ] ")" ] */
static int type_decimal(px *p, const char *nm, ityp *t) {
    int64_t a = -1, b = -1;
    if (type_args(p, &a, &b)) return -1;
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
    return 0;
}

/* The types written as one word without arguments (SMALLINT, INT, DATE, ...); 1 if found. */
static int type_word(const char *nm, ityp *t) {
    static const struct {
        const char *name;
        int code;
        uint32_t len;
    } words[] = {{"smallint", IX_T_SMALLINT, 2}, {"integer", IX_T_INTEGER, 4},
                 {"int", IX_T_INTEGER, 4},       {"int8", IX_T_INT8, 10},
                 {"bigint", IX_T_BIGINT, 8},     {"smallfloat", IX_T_SMALLFLOAT, 4},
                 {"real", IX_T_SMALLFLOAT, 4},   {"date", IX_T_DATE, 4},
                 {"boolean", IX_T_BOOLEAN, 1}};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (!strcmp(nm, words[k].name)) {
            *t = ixs_t(words[k].code, words[k].len);
            return 1;
        }
    return 0;
}

/* FLOAT [(n)] | DOUBLE PRECISION | DATETIME qual | INTERVAL qual | BYTE [IN space]
 * | TEXT [IN space]; 1 if nm is none of these */
static int type_other(px *p, const char *nm, ityp *t) {
    if (!strcmp(nm, "float")) {
        int64_t a = -1, b = -1;
        if (type_args(p, &a, &b)) return -1;
        *t = ixs_t(IX_T_FLOAT, 8);
    } else if (!strcmp(nm, "double")) {
        if (px_expect(p, IXK_PRECISION)) return -1;
        *t = ixs_t(IX_T_FLOAT, 8);
    } else if (!strcmp(nm, "datetime") || !strcmp(nm, "interval")) {
        uint32_t q;
        if (ixs_parse_qual(p, nm[0] == 'i', &q)) return -1;
        *t = ixs_t(nm[0] == 'i' ? IX_T_INTERVAL : IX_T_DATETIME, q);
    } else if (!strcmp(nm, "byte") || !strcmp(nm, "text")) {
        if (px_acc(p, IXK_IN)) {
            char dummy[IXS_NAME_MAX + 1];
            if (px_ident(p, dummy, sizeof dummy)) return -1;
        }
        *t = ixs_t(nm[0] == 'b' ? IX_T_BYTE : IX_T_TEXT, 56);
    } else
        return 1;
    return 0;
}

/* type = collection_type | row_type | [owner "."] name [ "(" int [ "," int ] ")" ]
 *      | CHARACTER VARYING ... | DOUBLE PRECISION | DATETIME qual | INTERVAL qual
 *      | { BYTE | TEXT } [ IN space ] | named_row_type */
int ixs_parse_type(px *p, ityp *t, int *serial, int64_t *serial_start, uint32_t *collen) {
    *serial = 0;
    *serial_start = 1;
    if (ixs_coll_type_at(p)) return ixs_coll_parse_type(p, t, collen);
    if (ixs_row_type_at(p)) return ixs_row_parse_type(p, t, collen);
    char nm[IXS_NAME_MAX + 1];
    ixs_name_skip_owner(p); /* "informix".boolean */
    if (px_ident(p, nm, sizeof nm)) return -1;
    int r = type_char(p, nm, t, collen);
    if (r <= 0) return r;
    if (!strcmp(nm, "serial") || !strcmp(nm, "serial8") || !strcmp(nm, "bigserial"))
        r = type_serial(p, nm, t, serial, serial_start);
    else if (!strcmp(nm, "decimal") || !strcmp(nm, "dec") || !strcmp(nm, "numeric") ||
             !strcmp(nm, "money"))
        r = type_decimal(p, nm, t);
    else if (type_word(nm, t))
        r = 0;
    else if ((r = type_other(p, nm, t)) > 0)
        return ixs_row_named_type(p, nm, t, collen); /* a named row type */
    if (r) return r;
    *collen = t->len;
    return 0;
}

/* ---- for the built-in functions (ixs_func.c) ----------------------------------------------- */

void ixs_xv_init(xv *v) {
    xv_init(v);
}
const char *ixs_xs(const xv *v) {
    return xs(v);
}
void ixs_xv_set_sql(xv *v, sb *nsql) {
    xv_set_sql(v, nsql);
}
void ixs_settle(px *p, xv *v) {
    settle(p, v);
}
void ixs_as_text(px *p, xv *v) {
    as_text(p, v);
}
void ixs_make_num(px *p, xv *v) {
    make_num(p, v);
}
void ixs_cmp_coerce(px *p, xv *l, xv *r) {
    cmp_coerce(p, l, r);
}
ityp ixs_merge_type(ityp a, ityp b) {
    return merge_type(a, b);
}
ityp ixs_dec_of(ityp t) {
    return dec_of(t);
}
uint32_t ixs_char_len(ityp t) {
    return char_len(t);
}
/* or := and { OR and } (parse_or) */
int ixs_parse_or(px *p, xv *out) {
    return parse_or(p, out);
}
/* add := mul { ( "+" | "-" | "||" ) mul } (parse_add) */
int ixs_parse_add(px *p, xv *out) {
    return parse_add(p, out);
}
