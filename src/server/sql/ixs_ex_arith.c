/* ixs_ex_arith.c: the emission of arithmetic: + - * / on numbers, dates,
 * DATETIME and INTERVAL values with Informix's result types, || and the
 * negation of a value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"

static int tu_factor(int u, int64_t *f, int *ym) {
    *ym = 0;
    switch (u) {
    case IXT_TU_YEAR: *f = 12, *ym = 1; return 0;
    case IXT_TU_MONTH: *f = 1, *ym = 1; return 0;
    case IXT_TU_DAY: *f = 86400LL * IXT_UNITS_PER_SECOND; return 0;
    case IXT_TU_HOUR: *f = 3600LL * IXT_UNITS_PER_SECOND; return 0;
    case IXT_TU_MINUTE: *f = 60LL * IXT_UNITS_PER_SECOND; return 0;
    case IXT_TU_SECOND: *f = IXT_UNITS_PER_SECOND; return 0;
    default: *f = 1; return 0;
    }
}

static int neg_literal(px *p, xv *out) {
    size_t n = out->litn + 1;
    char *l = malloc(n + 1);
    if (!l) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
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
    int r2 = ixv_text_to_sval(isint              ? ixv_t(IX_T_BIGINT, 8)
                              : strpbrk(l, "eE") ? ixv_t(IX_T_FLOAT, 8)
                                                 : ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff),
                              l, n, &v);
    if (r2) return ixs_px_failc(p, r2, NULL);
    sb ns = {0};
    ixv_sval_sql(&v, &ns);
    ixv_sval_free(&v);
    ixs_xv_set_sql(out, &ns);
    return 0;
}

/* The negation of an expression that is not a number literal. */
static void neg_expr(px *p, xv *out) {
    ixs_make_num(p, out);
    sb ns = {0};
    if (ixv_is_dec(out->t.code))
        ixv_sb_printf(&ns, "ixd_dsub(X'80',%s)", ixs_xs(out));
    else
        ixv_sb_printf(&ns, "(-%s)", ixs_xs(out));
    ixs_xv_set_sql(out, &ns);
    out->k = XK_EXPR;
    out->lk = LB_EXPR;
}

/* The result of exact arithmetic with a MONEY operand (rt: the DECIMAL
 * rule's type): for + and - MONEY with that precision and scale; for * and /
 * MONEY(32, s) at the scale s of the MONEY operand (the larger of two), the
 * value rounded to it (MONEY(8,2) * 1.5 is MONEY(32,2), as AVG); MONEY /
 * MONEY is a DECIMAL ratio. */
static ityp money_type(ityp lt, ityp rt0, char op, ityp rt) {
    if (op == '/' && lt.code == IX_T_MONEY && rt0.code == IX_T_MONEY) return rt;
    if (op == '+' || op == '-') return ixv_t(IX_T_MONEY, rt.len);
    int sa = lt.code == IX_T_MONEY ? (int)(lt.len & 0xff) : -1;
    int sb2 = rt0.code == IX_T_MONEY ? (int)(rt0.len & 0xff) : -1;
    int sc = sa > sb2 ? sa : sb2;
    if (sc < 0 || sc > 32) sc = 2;
    return ixv_t(IX_T_MONEY, 32u << 8 | (uint32_t)sc);
}

/* A MONEY product or quotient rounded to the scale of its type m when the
 * DECIMAL rule's type rt has another. */
static void money_round(ityp rt, ityp m, sb *s) {
    if (m.code != IX_T_MONEY || (rt.len & 0xff) == (m.len & 0xff)) return;
    sb n = {0};
    ixv_sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", s->p ? s->p : "NULL", IX_T_DECIMAL,
                  32u << 8 | 0xff, m.code, m.len);
    ixv_sb_free(s);
    *s = n;
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
                    r->t.code == IX_T_DATE || r->t.code == IX_T_DATETIME ? ixv_t(IX_T_INTEGER, 4)
                                                                         : r->t);
    if (r->k == XK_PARAM && l->k != XK_PARAM)
        ixs_to_type(p, r, l->t.code == IX_T_DATE ? ixv_t(IX_T_INTEGER, 4) : l->t);
    if (l->k == XK_PARAM && r->k == XK_PARAM) {
        ixs_to_type(p, l, ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff));
        ixs_to_type(p, r, ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff));
    }
}

/* Strings in arithmetic are numbers, or next to a date or time of its type. */
static void arith_text(px *p, arop *o) {
    xv *l = o->l, *r = o->r;
    if (ixv_is_char(o->a) && !ixs_ex_is_temporal(o->b)) {
        if (ixv_is_dec(o->b))
            ixs_make_num_money(p, l); /* '$1.50' * price */
        else
            ixs_make_num(p, l);
        o->a = l->t.code;
    }
    if (ixv_is_char(o->b) && !ixs_ex_is_temporal(o->a)) {
        if (ixv_is_dec(o->a))
            ixs_make_num_money(p, r);
        else
            ixs_make_num(p, r);
        o->b = r->t.code;
    }
    if (ixv_is_char(o->a) && ixs_ex_is_temporal(o->b) && o->b != IX_T_INTERVAL) {
        ixs_to_type(p, l, r->t);
        o->a = o->b;
    }
    if (ixv_is_char(o->b) && ixs_ex_is_temporal(o->a)) {
        int a = o->a;
        ityp tt = a == IX_T_DATE ? ixv_t(IX_T_INTEGER, 4) : a == IX_T_INTERVAL ? l->t : r->t;
        if (a == IX_T_DATETIME) tt = ixv_t(IX_T_INTERVAL, ixt_iv_qual(9, IXT_TU_DAY, IXT_TU_F(5)));
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
        ixv_sb_printf(&out->s, "(%s - %s)", o->L, o->R);
        return 0;
    }
    if (a == IX_T_DATE && (ixv_is_int(b) || ixv_is_numeric(b)) && (op == '+' || op == '-')) {
        if (!ixv_is_int(b)) ixs_to_type(p, o->r, ixv_t(IX_T_INTEGER, 4));
        ixv_sb_printf(&out->s, "(%s %c %s)", o->L, op, ixs_xs(o->r));
        return 0;
    }
    if (b == IX_T_DATE && ixv_is_numeric(a) && op == '+') {
        if (!ixv_is_int(a)) ixs_to_type(p, o->l, ixv_t(IX_T_INTEGER, 4));
        ixv_sb_printf(&out->s, "(%s + %s)", ixs_xs(o->l), o->R);
        return 0;
    }
    return 1;
}

/* The qualifier of DATETIME|DATE l +/- INTERVAL r (0: a DATE), and of the
 * INTERVAL DATETIME|DATE l - DATETIME|DATE r. */
static uint32_t dt_add_qual(ityp l, ityp r) {
    if (l.code != IX_T_DATE) return l.len;
    return IXT_QUAL_END(r.len) > IXT_TU_DAY ? ixt_dt_qual(IXT_TU_YEAR, IXT_QUAL_END(r.len)) : 0;
}

static uint32_t dt_sub_qual(ityp l, ityp r) {
    int ea = l.code == IX_T_DATE ? IXT_TU_DAY : IXT_QUAL_END(l.len);
    int eb = r.code == IX_T_DATE ? IXT_TU_DAY : IXT_QUAL_END(r.len);
    return ixt_iv_qual(9, IXT_TU_DAY, ea > eb ? ea : eb);
}

/* DATETIME|DATE +/- INTERVAL (a DATE with a day-time interval is extended first) */
static void arith_dt_add(arop *o) {
    xv *l = o->l, *r = o->r, *out = o->out;
    int a = o->a, sign = o->op == '-' ? -1 : 1;
    uint32_t q = dt_add_qual(l->t, r->t);
    ixv_sb_printf(&out->s, "ixd_dtadd(%s,%u,%s,%u,%d)", o->L, q, o->R, r->t.len, sign);
    if (a == IX_T_DATE && q) {
        /* DATE + day-time interval: extend the date first */
        ixv_sb_free(&out->s);
        ixv_sb_printf(&out->s, "ixd_dtadd(ixd_extend(%s,%d,4,%u),%u,%s,%u,%d)", o->L, IX_T_DATE, q,
                      q, o->R, r->t.len, sign);
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
        uint32_t q = dt_sub_qual(l->t, r->t);
        ixv_sb_printf(&out->s, "ixd_dtsub(%s,%u,%s,%u,%u)", o->L, a == IX_T_DATE ? 0 : l->t.len,
                      o->R, b == IX_T_DATE ? 0 : r->t.len, q);
        return 0;
    }
    if ((a == IX_T_DATETIME || a == IX_T_DATE) && b == IX_T_INTERVAL && (op == '+' || op == '-')) {
        arith_dt_add(o);
        return 0;
    }
    if (a == IX_T_INTERVAL && b == IX_T_DATETIME && op == '+') {
        ixv_sb_printf(&out->s, "ixd_dtadd(%s,%u,%s,%u,1)", o->R, r->t.len, o->L, l->t.len);
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
        ixv_sb_printf(&out->s, "(%s %c %s)", o->L, op, o->R);
        return 0;
    }
    if (a == IX_T_INTERVAL && ixv_is_numeric(b) && (op == '*' || op == '/')) {
        if (op == '*')
            ixv_sb_printf(&out->s, "CAST(%s * ixd_dbl(%s) AS INTEGER)", o->L, o->R);
        else
            ixv_sb_printf(&out->s, "CAST(ixd_fdiv(%s, ixd_dbl(%s)) AS INTEGER)", o->L, o->R);
        return 0;
    }
    if (b == IX_T_INTERVAL && ixv_is_numeric(a) && op == '*') {
        ixv_sb_printf(&out->s, "CAST(%s * ixd_dbl(%s) AS INTEGER)", o->R, o->L);
        return 0;
    }
    return 1;
}

/* The type of an exact DECIMAL result: its precision and scale when both
 * operands have a fixed scale (not for '/'), else floating DECIMAL(32). */
static ityp decimal_result(ityp da, ityp db, char op) {
    int pa = (int)(da.len >> 8), sa = (int)(da.len & 0xff), pb = (int)(db.len >> 8),
        sbb = (int)(db.len & 0xff);
    ityp rt = ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
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
        if (s <= pr) rt = ixv_t(IX_T_DECIMAL, (uint32_t)pr << 8 | (uint32_t)s);
    }
    return rt;
}

/* Arithmetic on numbers: FLOAT, integer or exact decimal. */
static int arith_numeric(px *p, arop *o) {
    xv *l = o->l, *r = o->r, *out = o->out;
    int a = o->a, b = o->b;
    char op = o->op;
    if (!ixv_is_numeric(a) || !ixv_is_numeric(b)) return ixs_px_failc(p, IXV_E_CONVERT, NULL);
    int ca = ixs_ex_storage_class(a), cb = ixs_ex_storage_class(b);
    if (ca == 'f' || cb == 'f') {
        if (ca == 'd') ixs_to_type(p, l, ixv_t(IX_T_FLOAT, 8));
        if (cb == 'd') ixs_to_type(p, r, ixv_t(IX_T_FLOAT, 8));
        if (op == '/')
            ixv_sb_printf(&out->s, "ixd_fdiv(%s,%s)", ixs_xs(l), ixs_xs(r));
        else
            ixv_sb_printf(&out->s, "(%s %c %s)", ixs_xs(l), op, ixs_xs(r));
        return 0;
    }
    if (ca == 'i' && cb == 'i' && op != '/') {
        /* checked against the result type's range, as Informix does (two
         * SMALLINTs cannot leave INTEGER's: 32767 * 32767 < 2^31) */
        int w = ixs_ex_arith_type(l->t, r->t, op).code == IX_T_INTEGER ? 4 : 8;
        if (a == IX_T_SMALLINT && b == IX_T_SMALLINT)
            ixv_sb_printf(&out->s, "(%s %c %s)", o->L, op, o->R);
        else
            ixv_sb_printf(&out->s, IXV_FN_IRANGE "((%s %c %s),%d)", o->L, op, o->R, w);
        return 0;
    }
    /* exact decimal arithmetic */
    ityp da = ixs_dec_of(l->t), db = ixs_dec_of(r->t);
    const char *fn = op == '+'   ? "ixd_dadd"
                     : op == '-' ? "ixd_dsub"
                     : op == '*' ? "ixd_dmul"
                                 : "ixd_ddiv";
    ixv_sb_printf(&out->s, "%s(%s,%s)", fn, o->L, o->R);
    ityp rt = decimal_result(da, db, op);
    if (a == IX_T_MONEY || b == IX_T_MONEY)
        money_round(rt, money_type(l->t, r->t, op, rt), &out->s);
    return 0;
}

/* The type of l op r on dates and times; code -1 for none (-1263). */
static ityp temporal_type(ityp l, ityp r, char op) {
    int a = l.code, b = r.code, add = op == '+' || op == '-';
    int adate = a == IX_T_DATE || a == IX_T_DATETIME, bdate = b == IX_T_DATE || b == IX_T_DATETIME;
    if (a == IX_T_DATE && b == IX_T_DATE && op == '-') return ixv_t(IX_T_INTEGER, 4);
    if (a == IX_T_DATE && ixv_is_numeric(b) && add) return ixv_t(IX_T_DATE, 4);
    if (b == IX_T_DATE && ixv_is_numeric(a) && op == '+') return ixv_t(IX_T_DATE, 4);
    if (adate && bdate && op == '-') return ixv_t(IX_T_INTERVAL, dt_sub_qual(l, r));
    if (adate && b == IX_T_INTERVAL && add) {
        uint32_t q = dt_add_qual(l, r);
        return q ? ixv_t(IX_T_DATETIME, q) : ixv_t(IX_T_DATE, 4);
    }
    if (a == IX_T_INTERVAL && b == IX_T_DATETIME && op == '+') return r;
    if (a == IX_T_INTERVAL && b == IX_T_INTERVAL && add) return l;
    if (a == IX_T_INTERVAL && ixv_is_numeric(b) && (op == '*' || op == '/')) return l;
    if (b == IX_T_INTERVAL && ixv_is_numeric(a) && op == '*') return r;
    return ixv_t(-1, 0);
}

ityp ixs_ex_arith_type(ityp l, ityp r, char op) {
    int a = l.code, b = r.code;
    if (ixs_ex_is_temporal(a) || ixs_ex_is_temporal(b)) return temporal_type(l, r, op);
    if (!ixv_is_numeric(a) || !ixv_is_numeric(b)) return ixv_t(-1, 0);
    int ca = ixs_ex_storage_class(a), cb = ixs_ex_storage_class(b);
    if (ca == 'f' || cb == 'f') return ixv_t(IX_T_FLOAT, 8);
    if (ca == 'i' && cb == 'i' && op != '/') {
        if (a == IX_T_INT8 || a == IX_T_SERIAL8 || b == IX_T_INT8 || b == IX_T_SERIAL8)
            return ixv_t(IX_T_INT8, 10);
        if (a == IX_T_BIGINT || a == IX_T_BIGSERIAL || b == IX_T_BIGINT || b == IX_T_BIGSERIAL)
            return ixv_t(IX_T_BIGINT, 8);
        return ixv_t(IX_T_INTEGER, 4);
    }
    ityp rt = decimal_result(ixs_dec_of(l), ixs_dec_of(r), op);
    return a == IX_T_MONEY || b == IX_T_MONEY ? money_type(l, r, op, rt) : rt;
}

/* The operand types as the arithmetic meets them (arith_params, then
 * arith_text): a parameter takes the other operand's type (an INTEGER next
 * to a DATE or DATETIME on its right, to a DATE on its left), two are
 * DECIMAL; a string is a number, or next to a DATE or DATETIME of its type,
 * next to an INTERVAL of its type and a DATE's day count or a DATETIME's
 * INTERVAL DAY TO FRACTION(5) on the right. */
static void met_types(ityp *l, int lk, ityp *r, int rk) {
    ityp l0 = *l, r0 = *r, d = ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    if (lk == IXS_AR_PARAM && rk == IXS_AR_PARAM) *l = *r = d;
    if (lk == IXS_AR_PARAM && rk != IXS_AR_PARAM)
        *l = r0.code == IX_T_DATE || r0.code == IX_T_DATETIME ? ixv_t(IX_T_INTEGER, 4) : r0;
    if (rk == IXS_AR_PARAM && lk != IXS_AR_PARAM)
        *r = l0.code == IX_T_DATE ? ixv_t(IX_T_INTEGER, 4) : l0;
    if (ixv_is_char(l->code) && !ixs_ex_is_temporal(r->code)) *l = d;
    if (ixv_is_char(r->code) && !ixs_ex_is_temporal(l->code)) *r = d;
    if (ixv_is_char(l->code) && ixs_ex_is_temporal(r->code) && r->code != IX_T_INTERVAL) *l = *r;
    if (ixv_is_char(r->code) && ixs_ex_is_temporal(l->code)) {
        int a = l->code;
        *r = a == IX_T_DATE ? ixv_t(IX_T_INTEGER, 4) : a == IX_T_INTERVAL ? *l : *r;
        if (a == IX_T_DATETIME) *r = ixv_t(IX_T_INTERVAL, ixt_iv_qual(9, IXT_TU_DAY, IXT_TU_F(5)));
    }
}

ityp ixs_ex_arith_met_type(ityp l, int lk, ityp r, int rk, char op) {
    if (lk == IXS_AR_NULL || rk == IXS_AR_NULL) {
        if (lk != IXS_AR_VALUE && rk != IXS_AR_VALUE) return ixv_t(-1, 0);
        return lk == IXS_AR_NULL ? r : l; /* NULL, of the other's type */
    }
    met_types(&l, lk, &r, rk);
    return ixs_ex_arith_type(l, r, op);
}

/* arithmetic: out = l op r (op one of + - * /), of type t (the resolver's;
 * code -1: decided here) */
int ixs_ex_arith(px *p, xv *l, char op, xv *r, ityp t, xv *out) {
    ixs_settle(p, l);
    ixs_settle(p, r);
    arith_params(p, l, r);
    if (l->k == XK_NULL || r->k == XK_NULL) {
        ixv_sb_add(&out->s, "NULL");
        out->t = l->k == XK_NULL ? r->t : l->t;
        return 0;
    }
    arop o = {.l = l, .r = r, .out = out, .op = op, .a = l->t.code, .b = r->t.code};
    arith_text(p, &o);
    if (p->failed) return -1;
    o.L = ixs_xs(l);
    o.R = ixs_xs(r);
    int a = o.a, b = o.b;
    out->t = t.code >= 0 ? t : ixs_ex_arith_type(l->t, r->t, op);
    /* dates and times */
    if (ixs_ex_is_temporal(a) || ixs_ex_is_temporal(b)) {
        if (!arith_date(p, &o) || !arith_datetime(&o) || !arith_interval(&o)) return 0;
        return ixs_px_failc(p, IXV_E_DT_FIELD, NULL);
    }
    return arith_numeric(p, &o);
}

int ixs_ex_neg(px *p, xv *out) {
    if (out->k == XK_INT || out->k == XK_NUM) return neg_literal(p, out);
    neg_expr(p, out);
    return 0;
}

uint32_t ixs_ex_units_qual(int u) {
    if (u == IXT_TU_FRACTION) return ixt_iv_qual(0, IXT_TU_FRACTION, IXT_TU_F(5));
    return u > IXT_TU_SECOND ? ixt_iv_qual(0, IXT_TU_FRACTION, u) : ixt_iv_qual(9, u, u);
}

/* A number as an INTERVAL of unit u (UNITS u), of its resolved type t. */
void ixs_ex_units(px *p, xv *out, ityp t, int u) {
    int64_t f;
    int ym;
    tu_factor(u, &f, &ym);
    ixs_make_num(p, out);
    sb n2 = {0};
    ixv_sb_printf(&n2, "CAST(ixd_dbl(%s) * %lld AS INTEGER)", ixs_xs(out), (long long)f);
    ixs_xv_set_sql(out, &n2);
    out->t = t;
    out->k = XK_EXPR;
    out->lk = LB_EXPR;
}

/* l || r: both as text, of type t (the resolver's), or when t is not known
 * (an operand typed only here), CHAR when both are CHAR, else VARCHAR or
 * LVARCHAR of the sum of their lengths. */
/* A CHAR(w) or NCHAR(w) column is stored without its trailing blanks; in
 * || Informix keeps them (CHAR(10) 'abcdef' || 'x' is 'abcdef    x'), so the
 * column is blank-filled to w first. Only columns: a literal keeps its own
 * text and a parameter's value may be longer than its guessed type. */
static void concat_blank_fill(xv *v) {
    if (v->k != XK_COL || (v->t.code != IX_T_CHAR && v->t.code != IX_T_NCHAR) || v->t.len == 0)
        return;
    sb n = {0};
    ixv_sb_printf(&n, "ixd_pad(%s,%u,' ',0,%u)", ixs_xs(v), (unsigned)v->t.len, (unsigned)v->t.len);
    ixs_xv_set_sql(v, &n);
}

void ixs_ex_concat(px *p, xv *l, xv *r, ityp t, xv *res) {
    concat_blank_fill(l);
    concat_blank_fill(r);
    ixs_as_text(p, l);
    ixs_as_text(p, r);
    ixv_sb_printf(&res->s, "(%s || %s)", ixs_xs(l), ixs_xs(r));
    res->t = t;
    if (t.code >= 0) return;
    uint32_t n = ixs_char_len(ixs_lit_type(l)) + ixs_char_len(ixs_lit_type(r));
    res->t = ixs_ex_concat_type(n, l->t.code == IX_T_CHAR && r->t.code == IX_T_CHAR);
}

ityp ixs_ex_concat_type(uint32_t n, int bothchar) {
    if (bothchar && n <= 32767) return ixv_t(IX_T_CHAR, n);
    if (n <= 255) return ixv_t(IX_T_VARCHAR, n);
    return ixv_t(IX_T_LVARCHAR, n > 32739 ? 32739 : n);
}
