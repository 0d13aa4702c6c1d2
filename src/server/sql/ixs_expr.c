/* ixs_expr.c: the one-call entry points of expressions (ixs_expr, ixs_cond,
 * ixs_conj, ixs_parse_or, ixs_parse_add: the three stages of ixs_ex.h at
 * the current token), and the Informix types and qualifiers as written in
 * DDL and casts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_ex_tree.h"

void ixs_xv_free(xv *v) {
    ixv_sb_free(&v->s);
    free(v->lit);
    memset(v, 0, sizeof *v);
}

/* unit := ( YEAR | MONTH | DAY | HOUR | MINUTE | SECOND | FRACTION ) [ "(" 1..9 ")" ]
 * (as_end: the unit after TO, where only FRACTION takes "(n)") */
int ixs_parse_unit(px *p, int *u, int *n, int as_end) {
    static const struct {
        const char *kw;
        int u;
    } units[] = {{"year", IXT_TU_YEAR},        {"month", IXT_TU_MONTH},   {"day", IXT_TU_DAY},
                 {"hour", IXT_TU_HOUR},        {"minute", IXT_TU_MINUTE}, {"second", IXT_TU_SECOND},
                 {"fraction", IXT_TU_FRACTION}};
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (ixs_px_acc_str(p, units[k].kw)) {
            *u = units[k].u;
            *n = -1;
            if (ixs_px_acc_op(p, "(")) {
                int64_t v;
                if (ixs_px_int(p, &v) || ixs_px_expect_op(p, ")")) return -1;
                if (v < 1 || v > 9) return ixs_px_fail(p);
                *n = (int)v;
            }
            if (as_end && *u != IXT_TU_FRACTION && *n >= 0) return ixs_px_fail(p);
            if (*u == IXT_TU_FRACTION && as_end) {
                *u = IXT_TU_F(*n < 0 ? 3 : (*n > 5 ? 5 : *n));
            }
            return 0;
        }
    return ixs_px_fail(p);
}

/* qualifier := unit [ TO unit ] (a DATETIME or, with interval, an INTERVAL qualifier) */
int ixs_parse_qual(px *p, int interval, uint32_t *q) {
    int s, sn, e, en;
    int at = p->i;
    if (ixs_parse_unit(p, &s, &sn, 0)) return -1;
    if (ixs_px_acc(p, IXK_TO)) {
        if (ixs_parse_unit(p, &e, &en, 1)) return -1;
    } else {
        e = s == IXT_TU_FRACTION ? IXT_TU_F(sn < 0 ? 3 : sn) : s;
    }
    if (s == IXT_TU_FRACTION && interval) {
        /* FRACTION TO FRACTION(n) */
        *q = ixt_iv_qual(0, IXT_TU_FRACTION, e);
    } else if (interval) {
        int prec = sn > 0 ? sn : (s == IXT_TU_YEAR ? 4 : 2);
        *q = ixt_iv_qual(prec, s, e);
    } else {
        *q = ixt_dt_qual(s == IXT_TU_FRACTION ? IXT_TU_FRACTION : s, e);
    }
    if (!*q) {
        p->i = at;
        return ixs_px_fail(p);
    }
    return 0;
}

/* [ "(" int [ "," int ] ")" ] : the optional length (a) and second number (b) of a type */
static int type_args(px *p, int64_t *a, int64_t *b) {
    if (ixs_px_acc_op(p, "(")) {
        if (ixs_px_int(p, a)) return -1;
        if (ixs_px_acc_op(p, ",") && ixs_px_int(p, b)) return -1;
        if (ixs_px_expect_op(p, ")")) return -1;
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
        if (!n && ixs_px_acc(p, IXK_VARYING)) {
            if (type_args(p, &a, &b)) return -1;
            if (a < 1 || a > 255 || b > a) return ixs_px_fail(p);
            *t = ixv_t(IX_T_VARCHAR, (uint32_t)a);
            *collen = (uint32_t)a | (uint32_t)(b > 0 ? b : 0) << 8;
            return 0;
        }
        if (type_args(p, &a, &b)) return -1;
        if (a < 0) a = 1;
        if (a < 1 || a > 32767 || b >= 0) return ixs_px_fail(p);
        *t = ixv_t(n ? IX_T_NCHAR : IX_T_CHAR, (uint32_t)a);
    } else if (vary) {
        if (type_args(p, &a, &b)) return -1;
        if (a < 0) a = 1;
        if (a < 1 || a > 255 || b > a) return ixs_px_fail(p);
        *t = ixv_t(nm[0] == 'n' ? IX_T_NVARCHAR : IX_T_VARCHAR, (uint32_t)a);
        *collen = (uint32_t)a | (uint32_t)(b > 0 ? b : 0) << 8;
        return 0;
    } else if (!strcmp(nm, "lvarchar")) {
        if (type_args(p, &a, &b)) return -1;
        if (a < 0) a = 2048;
        if (a < 1 || a > 32739 || b >= 0) return ixs_px_fail(p);
        *t = ixv_t(IX_T_LVARCHAR, (uint32_t)a);
    } else
        return 1;
    *collen = t->len;
    return 0;
}

/* SERIAL [(start)] | SERIAL8 [(start)] | BIGSERIAL [(start)] */
static int type_serial(px *p, const char *nm, ityp *t, int *serial, int64_t *serial_start) {
    int64_t a = -1, b = -1;
    if (type_args(p, &a, &b)) return -1;
    if (b >= 0) return ixs_px_fail(p);
    *serial = nm[6] == '8' ? 2 : nm[0] == 'b' ? 3 : 1;
    if (a > 0) *serial_start = a;
    if (a == 0 || a < -1) return ixs_px_fail(p);
    *t = *serial == 1   ? ixv_t(IX_T_SERIAL, 4)
         : *serial == 2 ? ixv_t(IX_T_SERIAL8, 10)
                        : ixv_t(IX_T_BIGSERIAL, 8);
    return 0;
}

/* { DECIMAL | DEC | NUMERIC | MONEY } [ "(" precision [ "," scale ] ")" ] */
static int type_decimal(px *p, const char *nm, ityp *t) {
    int64_t a = -1, b = -1;
    if (type_args(p, &a, &b)) return -1;
    int money = nm[0] == 'm';
    if (a < 0) a = 16;
    if (a < 1 || a > 32) return ixs_px_fail(p);
    if (b < 0)
        b = money ? 2 : 0xff;
    else if (b > a)
        return ixs_px_fail(p);
    if (money && b == 0xff) b = 2;
    if (money && b > a) b = a;
    *t = ixv_t(money ? IX_T_MONEY : IX_T_DECIMAL, (uint32_t)a << 8 | (uint32_t)b);
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
                 {"boolean", IX_T_BOOLEAN, 1},   {"blob", IX_T_BLOB, 72},
                 {"clob", IX_T_CLOB, 72}};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (!strcmp(nm, words[k].name)) {
            *t = ixv_t(words[k].code, words[k].len);
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
        *t = ixv_t(IX_T_FLOAT, 8);
    } else if (!strcmp(nm, "double")) {
        if (ixs_px_expect(p, IXK_PRECISION)) return -1;
        *t = ixv_t(IX_T_FLOAT, 8);
    } else if (!strcmp(nm, "datetime") || !strcmp(nm, "interval")) {
        uint32_t q;
        if (ixs_parse_qual(p, nm[0] == 'i', &q)) return -1;
        *t = ixv_t(nm[0] == 'i' ? IX_T_INTERVAL : IX_T_DATETIME, q);
    } else if (!strcmp(nm, "byte") || !strcmp(nm, "text")) {
        if (ixs_px_acc(p, IXK_IN)) {
            char dummy[IXS_NAME_MAX + 1];
            if (ixs_px_ident(p, dummy, sizeof dummy)) return -1;
        }
        *t = ixv_t(nm[0] == 'b' ? IX_T_BYTE : IX_T_TEXT, 56);
    } else
        return 1;
    return 0;
}

/* type = collection_type | row_type | [owner "."] name [ "(" int [ "," int ] ")" ]
 *      | CHARACTER VARYING ... | DOUBLE PRECISION | DATETIME qual | INTERVAL qual
 *      | { BYTE | TEXT } [ IN space ] | named_row_type */
/* As ixs_parse_type; a named row type is looked up unless named is given:
 * then its name goes there (t->code -1) for the caller to resolve. */
static int parse_type(px *p, ityp *t, int *serial, int64_t *serial_start, uint32_t *collen,
                      char *named) {
    *serial = 0;
    *serial_start = 1;
    if (ixs_coll_type_at(p)) return ixs_coll_parse_type(p, t, collen);
    if (ixs_row_type_at(p)) return ixs_row_parse_type(p, t, collen);
    char nm[IXS_NAME_MAX + 1];
    ixs_name_skip_owner(p); /* "informix".boolean */
    if (ixs_px_ident(p, nm, sizeof nm)) return -1;
    int r = type_char(p, nm, t, collen);
    if (r <= 0) return r;
    if (!strcmp(nm, "serial") || !strcmp(nm, "serial8") || !strcmp(nm, "bigserial"))
        r = type_serial(p, nm, t, serial, serial_start);
    else if (!strcmp(nm, "decimal") || !strcmp(nm, "dec") || !strcmp(nm, "numeric") ||
             !strcmp(nm, "money"))
        r = type_decimal(p, nm, t);
    else if (type_word(nm, t))
        r = 0;
    else if ((r = type_other(p, nm, t)) > 0 && named) {
        snprintf(named, IXS_NAME_MAX + 1, "%s", nm); /* a named row type */
        *t = ixv_t(-1, 0);
        return 0;
    } else if (r > 0)
        return ixs_row_named_type(p, nm, t, collen); /* a named row type */
    if (r) return r;
    *collen = t->len;
    return 0;
}

/* ---- for the built-in functions (ixs_func.c) ----------------------------------------------- */

int ixs_parse_type(px *p, ityp *t, int *serial, int64_t *serial_start, uint32_t *collen) {
    return parse_type(p, t, serial, serial_start, collen, NULL);
}

int ixs_parse_type_named(px *p, ityp *t, char *named) {
    int serial;
    int64_t st;
    uint32_t cl;
    named[0] = 0;
    return parse_type(p, t, &serial, &st, &cl, named);
}

/* Parses at p->i the expression of level what, resolves and emits it into
 * out; p->i is then after it. */
static int ex_run(px *p, int what, xv *out) {
    ixs_px_at_cursor(p); /* a parse: its errors at the current token */
    ixs_ex *e = ixs_ex_parse(p, what);
    if (!e) return -1;
    int rc = ixs_ex_resolve(p, e) || ixs_ex_emit(p, e, out) ? -1 : 0;
    ixs_ex_free(e);
    if (!rc) ixs_px_at_cursor(p);
    if (!rc && what == IXS_EX_COND && out->k != XK_PRED) {
        /* a bare value as a condition: BOOLEAN column, or constant */
        ixs_settle(p, out);
        if (out->t.code != IX_T_BOOLEAN) return ixs_px_fail(p);
    }
    return rc || p->failed ? -1 : 0;
}

int ixs_cond_emit(px *p, ixs_ex *e, int end, xv *out) {
    ixs_xv_init(out);
    ixs_px_at(p, end); /* where ixs_cond's parse left the cursor */
    if (ixs_ex_resolve(p, e) || ixs_ex_emit(p, e, out)) return -1;
    ixs_px_at(p, end);
    if (out->k != XK_PRED) {
        /* a bare value as a condition: BOOLEAN column, or constant */
        ixs_settle(p, out);
        if (out->t.code != IX_T_BOOLEAN) return ixs_px_fail(p);
    }
    return p->failed ? -1 : 0;
}

/* conj := not (one conjunct of a WHERE condition) */
int ixs_conj(px *p, xv *out) {
    ixs_xv_init(out);
    return ex_run(p, IXS_EX_CONJ, out);
}

/* expr := or */
int ixs_expr(px *p, xv *out) {
    ixs_xv_init(out);
    return ex_run(p, IXS_EX_VALUE, out);
}

/* cond := or (a predicate, a BOOLEAN value or a constant) */
int ixs_cond(px *p, xv *out) {
    ixs_xv_init(out);
    return ex_run(p, IXS_EX_COND, out);
}

/* or := and { OR and } into out (initialised by the caller) */
int ixs_parse_or(px *p, xv *out) {
    return ex_run(p, IXS_EX_VALUE, out);
}

/* add := mul { ( "+" | "-" | "||" ) mul } into out (initialised by the caller) */
int ixs_parse_add(px *p, xv *out) {
    return ex_run(p, IXS_EX_ADD, out);
}
