/* ixs_ex_types.c: the Informix types of literals and expressions, and the
 * coercions that bring a value to a type or two operands to one storage
 * domain (comparisons, CASE branches, arithmetic, built-in arguments). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"
#include "server/sql/ixs_lob.h"

void ixs_xv_init(xv *v) {
    memset(v, 0, sizeof *v);
    v->t.code = -1;
    v->pidx = -1;
}

void ixs_xv_set_sql(xv *v, sb *nsql) {
    ixv_sb_free(&v->s);
    v->stored = 0; /* no longer the column as read */
    v->s = *nsql;
    memset(nsql, 0, sizeof *nsql);
}

const char *ixs_xs(const xv *v) {
    return v->s.p ? v->s.p : "NULL";
}

int ixs_ex_xv_copy(const xv *v, xv *out) {
    *out = *v;
    memset(&out->s, 0, sizeof out->s);
    out->lit = NULL;
    if (v->s.p) ixv_sb_add(&out->s, v->s.p);
    if (v->lit) {
        out->lit = malloc(v->litn + 1);
        if (!out->lit) return -1;
        memcpy(out->lit, v->lit, v->litn + 1);
    }
    return out->s.oom ? -1 : 0;
}

ityp ixs_lit_type(const xv *v) {
    if (v->t.code >= 0) return v->t;
    switch (v->k) {
    case XK_INT: {
        int64_t x = v->lit ? strtoll(v->lit, NULL, 10) : 0;
        return x >= -INT32_MAX && x <= INT32_MAX ? ixv_t(IX_T_INTEGER, 4) : ixv_t(IX_T_INT8, 10);
    }
    case XK_NUM: {
        if (v->lit && strpbrk(v->lit, "eE")) return ixv_t(IX_T_FLOAT, 8);
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
        return ixv_t(IX_T_DECIMAL, (uint32_t)digits << 8 | (uint32_t)frac);
    }
    case XK_STR: {
        uint32_t n = (uint32_t)(v->litn ? v->litn : 1);
        if (n > 32767) n = 32767;
        return ixv_t(IX_T_CHAR, n);
    }
    case XK_PARAM: return ixv_t(IX_T_VARCHAR, 255);
    default: return ixv_t(IX_T_CHAR, 1);
    }
}

ityp ixs_dec_of(ityp t) {
    switch (t.code) {
    case IX_T_SMALLINT: return ixv_t(IX_T_DECIMAL, 5u << 8);
    case IX_T_INTEGER:
    case IX_T_SERIAL: return ixv_t(IX_T_DECIMAL, 10u << 8);
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return ixv_t(IX_T_DECIMAL, 19u << 8);
    case IX_T_DECIMAL:
    case IX_T_MONEY: return t;
    default: return ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    }
}

int ixs_ex_is_temporal(int c) {
    return c == IX_T_DATE || c == IX_T_DATETIME || c == IX_T_INTERVAL;
}

int ixs_ex_storage_class(int c) {
    if (ixv_is_int(c) || c == IX_T_DATE || c == IX_T_BOOLEAN || c == IX_T_INTERVAL) return 'i';
    if (ixv_is_float(c)) return 'f';
    if (ixv_is_dec(c)) return 'd';
    if (c == IX_T_BYTE) return 'b';
    return 't';
}

int ixs_ex_is_lit(const xv *v) {
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
        ixv_text_to_sval(ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff), v->lit ? v->lit : "", v->litn, &n);
    if (rc) return rc;
    rc = ixv_convert(ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff), &n, ixv_t(IX_T_DATE, 4), out);
    ixv_sval_free(&n);
    return rc;
}

enum { MONEY_TEXT_MAX = 256 }; /* longer than any number a DECIMAL holds */

/* A string made MONEY or DECIMAL type t as Informix reads it: with the
 * currency symbols and the decimal separator of DBMONEY ('$1.50', and
 * 'DM1,50' under DBMONEY "DM,"); what is left must be a number (-1213). */
static int money_text_to_sval(px *p, ityp t, const char *s, size_t n, sval *out) {
    char buf[MONEY_TEXT_MAX];
    size_t k;
    if (ixt_money_plain(p->db->dbmoney, s, n, buf, sizeof buf, &k) != IX_OK)
        return ixv_cvt_code(t, IX_ERANGE);
    return ixv_text_to_sval(ixv_t(IX_T_DECIMAL, t.len), buf, k, out);
}

/* A literal converted to type t at translation time; money: a string may
 * be written as DBMONEY writes MONEY (t is MONEY or DECIMAL). */
static void lit_to_type(px *p, xv *v, ityp t, int money) {
    sval sv;
    int lob = v->k == XK_STR && ixv_lob_is(t.code); /* '<hex>'::BLOB */
    const char *lit = v->lit ? v->lit : "";
    int rc;
    if (lob)
        rc = ixv_lob_text_to_sval(t, lit, v->litn, &sv);
    else if (v->k != XK_STR && t.code == IX_T_DATE)
        rc = num_to_date(v, &sv);
    else if (money && v->k == XK_STR && ixv_is_dec(t.code))
        rc = money_text_to_sval(p, t, lit, v->litn, &sv);
    else
        rc = ixv_text_to_sval(t, lit, v->litn, &sv);
    if (rc && lob) {
        ixs_px_failc(p, rc, "a string to %s (an LO handle is %d hex digits)",
                     t.code == IX_T_CLOB ? "CLOB" : "BLOB", IXV_LO_HEX_LEN);
        return;
    }
    if (rc) {
        ixs_px_failc(p, rc, NULL);
        return;
    }
    sb n = {0};
    ixv_sval_sql(&sv, &n);
    ixv_sval_free(&sv);
    ixs_xv_set_sql(v, &n);
    v->t = t;
    v->k = XK_EXPR;
}

/* The SQL that converts a number of type f to number type t into n; 0 if
 * the value needs no conversion. */
static int num_cvt_sql(xv *v, ityp f, ityp t, sb *n) {
    int fc = ixs_ex_storage_class(f.code), tc = ixs_ex_storage_class(t.code);
    if (tc == 'd' && (t.len & 0xff) != 0xff)
        ixv_sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", ixs_xs(v), f.code, f.len, t.code, t.len);
    else if (tc == 'd' && fc != 'd')
        ixv_sb_printf(n, "ixd_dec(%s)", ixs_xs(v));
    else if (tc == 'f' && fc == 'd')
        ixv_sb_printf(n, "ixd_dbl(%s)", ixs_xs(v));
    else if (tc == 'd' && fc == 'd' && (t.len & 0xff) != 0xff && (t.len & 0xff) != (f.len & 0xff))
        ixv_sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", ixs_xs(v), f.code, f.len, t.code, t.len);
    else if (tc == 'i' && (fc != 'i' || int_width(t.code) < int_width(f.code)))
        ixv_sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", ixs_xs(v), f.code, f.len, t.code, t.len);
    else
        return 0;
    return 1;
}

/* The SQL that converts an expression of type f to type t into n; 0 if
 * the value needs no conversion (only its type changes). */
static int cvt_sql(xv *v, ityp f, ityp t, sb *n) {
    int fc = ixs_ex_storage_class(f.code), tc = ixs_ex_storage_class(t.code);
    if (ixv_is_numeric(f.code) && ixv_is_numeric(t.code)) return num_cvt_sql(v, f, t, n);
    if (t.code == IX_T_DATETIME && (f.code == IX_T_DATETIME || f.code == IX_T_DATE))
        ixv_sb_printf(n, "ixd_extend(%s,%d,%u,%u)", ixs_xs(v), f.code, f.len, t.len);
    else if (t.code == IX_T_DATE && f.code == IX_T_DATETIME)
        ixv_sb_printf(n, "ixd_part(%s,%d,%u,4)", ixs_xs(v), f.code, f.len);
    else if (t.code == IX_T_INTERVAL && f.code == IX_T_INTERVAL &&
             (IXT_QUAL_START(t.len) <= IXT_TU_MONTH) == (IXT_QUAL_START(f.len) <= IXT_TU_MONTH))
        return 0;
    else if (ixv_is_char(t.code) && ixv_is_char(f.code))
        return 0;
    else if (fc == tc && f.code == t.code)
        return 0;
    else
        ixv_sb_printf(n, "ixd_cvt(%s,%d,%u,%d,%u)", ixs_xs(v), f.code, f.len, t.code, t.len);
    return 1;
}

/* Converts v to type t: its SQL and type; a parameter takes t as its type;
 * money: as lit_to_type. */
static void to_type(px *p, xv *v, ityp t, int money) {
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
        lit_to_type(p, v, t, money);
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
    ixs_xv_set_sql(v, &n);
    v->t = t;
    v->k = XK_EXPR;
}

/* A string made MONEY (a MONEY column's value, an operand compared with
 * one) reads DBMONEY's symbols; made another type it does not. */
void ixs_to_type(px *p, xv *v, ityp t) {
    to_type(p, v, t, t.code == IX_T_MONEY);
}

void ixs_to_type_money(px *p, xv *v, ityp t) {
    to_type(p, v, t, ixv_is_dec(t.code));
}

void ixs_make_num_money(px *p, xv *v) {
    if (v->k == XK_STR)
        ixs_to_type_money(p, v, ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff));
    else
        ixs_make_num(p, v);
}

/* Whether a value of type f, made type t by ixs_to_type, may hold what a
 * column of type t cannot. Literals are converted at prepare, parameters
 * at bind, and the conversions ixs_to_type writes (ixd_cvt) check the
 * range; a value already in t's domain is not converted, and SQLite's
 * arithmetic can take it out of t's range (or a text past t's length). */
static int store_unbounded(ityp f, ityp t) {
    if (ixv_is_int(t.code))
        return f.code < 0 || (ixv_is_int(f.code) && int_width(f.code) <= int_width(t.code));
    switch (t.code) {
    case IX_T_DATE:
    case IX_T_INTERVAL: return f.code < 0 || f.code == t.code;
    case IX_T_SMALLFLOAT: return f.code < 0 || ixv_is_numeric(f.code);
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR:
        return f.code < 0 || f.code == IX_T_TEXT ||
               (ixv_is_char(f.code) && ixs_char_len(f) > ixs_char_len(t));
    default: return 0;
    }
}

/* Whether a base table's column of type f holds only values a column of
 * type t holds (a narrower integer, the same DATE, the same type). */
static int stored_fits(ityp f, ityp t) {
    if (ixv_is_int(f.code) && ixv_is_int(t.code)) return 1;
    return f.code == t.code && (f.len == t.len || t.code == IX_T_DATE);
}

/* Converts v to type t as a value stored into a column of type t: as
 * ixs_to_type, and checked at run time (ixd_chk) when nothing else bounds
 * it to what the column holds. */
void ixs_to_store(px *p, xv *v, ityp t) {
    int bounded = ixs_ex_is_lit(v) || (v->k == XK_COL && v->stored && stored_fits(v->t, t));
    ityp f = v->t;
    ixs_to_type(p, v, t);
    if (p->failed || bounded || !store_unbounded(f, t)) return;
    sb n = {0};
    ixv_sb_printf(&n, "ixd_chk(%s,%d,%u)", ixs_xs(v), t.code, t.len);
    ixs_xv_set_sql(v, &n);
    v->k = XK_EXPR;
}

void ixs_qcol_xv(const ocol *c, xv *v) {
    ixs_xv_init(v);
    ixv_sb_add(&v->s, "_s.");
    ixv_sb_ident(&v->s, c->name);
    v->t = c->t;
    v->k = XK_COL;
    v->lk = LB_COL;
    v->stored = c->stored;
}

/* Two constants compared: numbers compare as numbers, strings as strings. */
static void cmp_coerce_lits(px *p, xv *l, xv *r) {
    if ((l->k == XK_STR) != (r->k == XK_STR)) {
        xv *str = l->k == XK_STR ? l : r, *num = str == l ? r : l;
        ityp dec = ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
        if (num->k != XK_NULL && num->k != XK_PARAM) ixs_to_type(p, str, dec);
        if (num->k == XK_INT) ixs_to_type(p, num, dec); /* 1 = '1' as DECIMALs */
    }
    if (l->k == XK_PARAM && r->k != XK_PARAM) ixs_to_type(p, l, ixs_lit_type(r));
    if (r->k == XK_PARAM && l->k != XK_PARAM) ixs_to_type(p, r, ixs_lit_type(l));
    if ((l->k == XK_NUM) != (r->k == XK_NUM) && l->k != XK_STR && r->k != XK_STR) {
        if (l->k == XK_INT) ixs_to_type(p, l, ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff));
        if (r->k == XK_INT) ixs_to_type(p, r, ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff));
    }
}

/* Two typed numbers compared: the narrower storage class takes the wider one. */
static void cmp_coerce_nums(px *p, xv *l, xv *r) {
    ityp a = l->t, b = r->t;
    int ca = ixs_ex_storage_class(a.code), cb = ixs_ex_storage_class(b.code);
    if (ca == cb) return;
    if (ca == 'd' && cb == 'i')
        ixs_to_type(p, r, ixs_dec_of(b));
    else if (cb == 'd' && ca == 'i')
        ixs_to_type(p, l, ixs_dec_of(a));
    else if (ca == 'f' && cb == 'd')
        ixs_to_type(p, r, a);
    else if (cb == 'f' && ca == 'd')
        ixs_to_type(p, l, b);
}

/* Two typed values compared: numbers, DATETIME and DATE, text and others. */
static void cmp_coerce_typed(px *p, xv *l, xv *r) {
    ityp a = l->t, b = r->t;
    if (a.code < 0 || b.code < 0) return;
    if (ixv_is_numeric(a.code) && ixv_is_numeric(b.code)) {
        cmp_coerce_nums(p, l, r);
        return;
    }
    if (a.code == IX_T_DATETIME && b.code == IX_T_DATETIME) {
        if (a.len == b.len) return;
        ityp full = ixv_t(IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5)));
        ixs_to_type(p, l, full);
        ixs_to_type(p, r, full);
    } else if (a.code == IX_T_DATETIME && b.code == IX_T_DATE)
        ixs_to_type(p, r, a);
    else if (b.code == IX_T_DATETIME && a.code == IX_T_DATE)
        ixs_to_type(p, l, b);
    else if (ixv_is_char(a.code) && !ixv_is_char(b.code))
        ixs_to_type(p, l, b);
    else if (ixv_is_char(b.code) && !ixv_is_char(a.code))
        ixs_to_type(p, r, a);
    else if (ixs_ex_storage_class(a.code) != ixs_ex_storage_class(b.code))
        ixs_to_type(p, r, a);
}

/* A number constant n compared with a character value c: Informix reads
 * the character value as a number (-1213 when it is none), where SQLite
 * would compare it with the number's text ('10' < '9'). */
static int num_vs_char(const xv *n, const xv *c) {
    return (n->k == XK_INT || n->k == XK_NUM) && ixv_is_char(c->t.code);
}

/* Brings two operands of a comparison to one storage domain. */
void ixs_cmp_coerce(px *p, xv *l, xv *r) {
    if (p->failed || ixs_row_cmp(p, l, r)) return;
    int ll = ixs_ex_is_lit(l), rl = ixs_ex_is_lit(r);
    if (ll && !rl && num_vs_char(l, r)) {
        ixs_make_num(p, r);
        ixs_to_type(p, l, r->t);
    } else if (rl && !ll && num_vs_char(r, l)) {
        ixs_make_num(p, l);
        ixs_to_type(p, r, l->t);
    } else if (ll && !rl && r->t.code >= 0)
        ixs_to_type_money(p, l, r->t);
    else if (rl && !ll && l->t.code >= 0)
        ixs_to_type_money(p, r, l->t);
    else if (ll && rl)
        cmp_coerce_lits(p, l, r);
    else
        cmp_coerce_typed(p, l, r);
}

int ixs_is_blank_cmp(int code) {
    return code != IX_T_TEXT && ixv_is_char(code);
}

void ixs_blanks_collate(xv *v) {
    int text = ixs_is_blank_cmp(v->t.code) || (v->k == XK_STR && v->t.code < 0);
    if (!text || v->k == XK_COL || v->k == XK_NULL) return;
    sb n = {0};
    ixv_sb_printf(&n, "(%s) COLLATE " IXS_COLLATE_BLANKS, ixs_xs(v));
    ixs_xv_set_sql(v, &n);
    v->k = XK_EXPR;
}

/* Gives an untyped literal its own type (select-list constants, operands). */
void ixs_settle(px *p, xv *v) {
    if (v->t.code >= 0 || p->failed) return;
    if (v->k == XK_PARAM) return;
    if (v->k == XK_NULL) return;
    v->t = ixs_lit_type(v);
}

uint32_t ixs_char_len(ityp t) {
    if (t.code == IX_T_VARCHAR || t.code == IX_T_NVARCHAR) return t.len & 0xff;
    if (ixv_is_char(t.code)) return t.len ? t.len : 1;
    if (ixv_is_numeric(t.code)) return 40;
    if (ixs_ex_is_temporal(t.code)) return 30;
    return 255;
}

/* Text of any value (for ||, LIKE, LENGTH ...). */
void ixs_as_text(px *p, xv *v) {
    ixs_settle(p, v);
    if (v->k == XK_PARAM) {
        ixs_to_type(p, v, ixv_t(IX_T_VARCHAR, 255));
        return;
    }
    if (v->t.code < 0 || ixv_is_char(v->t.code)) return;
    ityp t = ixv_t(IX_T_VARCHAR, 255);
    sb n = {0};
    ixv_sb_printf(&n, "ixd_cvt(%s,%d,%u,%d,%u)", ixs_xs(v), v->t.code, v->t.len, t.code, t.len);
    ixs_xv_set_sql(v, &n);
    v->k = XK_EXPR;
    v->t = ixv_t(IX_T_VARCHAR, ixs_char_len(v->t));
}

void ixs_make_num(px *p, xv *v) {
    ixs_settle(p, v);
    if (v->k == XK_PARAM)
        ixs_to_type(p, v, ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff));
    else if (ixv_is_char(v->t.code))
        ixs_to_type(p, v, ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff));
}

/* The type that holds both a and b (CASE, DECODE, NVL results). */
ityp ixs_merge_type(ityp a, ityp b) {
    if (a.code < 0) return b;
    if (b.code < 0) return a;
    if (ixv_is_char(a.code) && ixv_is_char(b.code)) {
        uint32_t la = ixs_char_len(a), lb = ixs_char_len(b), n = la > lb ? la : lb;
        if (a.code == IX_T_LVARCHAR || b.code == IX_T_LVARCHAR || n > 255)
            return ixv_t(IX_T_LVARCHAR, n > 32739 ? 32739 : n);
        if (a.code == IX_T_VARCHAR || b.code == IX_T_VARCHAR) return ixv_t(IX_T_VARCHAR, n);
        return ixv_t(a.code, n);
    }
    if (ixv_is_numeric(a.code) && ixv_is_numeric(b.code)) {
        if (ixv_is_float(a.code) || ixv_is_float(b.code)) return ixv_t(IX_T_FLOAT, 8);
        if (ixv_is_dec(a.code) || ixv_is_dec(b.code)) {
            ityp da = ixs_dec_of(a), db = ixs_dec_of(b);
            int sa = (int)(da.len & 0xff), sb2 = (int)(db.len & 0xff);
            if (sa == 0xff || sb2 == 0xff) return ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
            int ia = (int)(da.len >> 8) - sa, ib = (int)(db.len >> 8) - sb2;
            int sc = sa > sb2 ? sa : sb2, ip = ia > ib ? ia : ib;
            int pr = ip + sc > 32 ? 32 : ip + sc;
            int money = a.code == IX_T_MONEY && b.code == IX_T_MONEY;
            return ixv_t(money ? IX_T_MONEY : IX_T_DECIMAL, (uint32_t)pr << 8 | (uint32_t)sc);
        }
        int w8 = a.code == IX_T_INT8 || b.code == IX_T_INT8 || a.code == IX_T_SERIAL8 ||
                 b.code == IX_T_SERIAL8;
        int wb = a.code == IX_T_BIGINT || b.code == IX_T_BIGINT || a.code == IX_T_BIGSERIAL ||
                 b.code == IX_T_BIGSERIAL;
        int wi = a.code != IX_T_SMALLINT || b.code != IX_T_SMALLINT;
        return w8   ? ixv_t(IX_T_INT8, 10)
               : wb ? ixv_t(IX_T_BIGINT, 8)
               : wi ? ixv_t(IX_T_INTEGER, 4)
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
