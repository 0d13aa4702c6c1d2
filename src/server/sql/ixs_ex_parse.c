/* ixs_ex_parse.c: Informix expressions and search conditions, tokens ->
 * tree (ixs_ex_tree.h). No catalogue, no scope, no SQLite here: names stay
 * names (ixs_ex_resolve.c binds them), literals are read into their values.
 * TimeSeries routine calls are calls like the others (EX_CALL, sub
 * EXC_TS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"

static ixs_ex *parse_or(px *p);
static ixs_ex *parse_add(px *p);

ixs_ex *ixs_ex_node(px *p, int op, int at) {
    ixs_ex *e = calloc(1, sizeof *e);
    if (!e) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    e->op = op;
    e->tok = at;
    e->end = at;
    e->t = ixv_t(-1, 0);
    if (op == EX_LIT) {
        e->lit = malloc(sizeof *e->lit);
        if (!e->lit) {
            free(e);
            ixs_px_failc(p, IXV_E_NOMEM, NULL);
            return NULL;
        }
        ixs_xv_init(e->lit);
    }
    return e;
}

/* e, finished at the current token; NULL (e freed) when p failed. */
static ixs_ex *done(px *p, ixs_ex *e) {
    if (!e) return NULL;
    e->end = p->i;
    if (p->failed || ixs_ex_height_check(p, e)) {
        ixs_ex_free(e);
        return NULL;
    }
    return e;
}

int ixs_ex_kid_add(px *p, ixs_ex *e, ixs_ex *k) {
    if (!k) return -1;
    if (!(e->nk & (e->nk + 1)) || !e->kids) {
        size_t cap = e->nk ? (size_t)(e->nk + 1) * 2 : 4;
        ixs_ex **nk = realloc(e->kids, cap * sizeof *nk);
        if (!nk) {
            ixs_ex_free(k);
            return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        }
        e->kids = nk;
    }
    e->kids[e->nk++] = k;
    return 0;
}

/* "(" select ")" as a subquery tree (at its SELECT; the ")" is read here). */
static int subq(px *p, ixs_ex *e) {
    e->qs = ixs_sel_parse(p);
    if (!e->qs) return -1;
    return ixs_px_expect_op(p, ")");
}

/* DATETIME ( text ) qual | INTERVAL ( text ) qual (after the keyword) */
static int typed_literal(px *p, int interval, xv *out) {
    if (ixs_px_expect_op(p, "(")) return -1;
    int start = p->i, depth = 1;
    while (p->i < p->nt && p->t[p->i].k != T_EOF) {
        if (ixs_px_op(p, p->i, "(")) depth++;
        if (ixs_px_op(p, p->i, ")") && --depth == 0) break;
        p->i++;
    }
    if (!ixs_px_op(p, p->i, ")")) return ixs_px_fail(p);
    int a = p->t[start].pos, b = p->t[p->i].pos;
    p->i++;
    uint32_t q;
    if (ixs_parse_qual(p, interval, &q)) return -1;
    ityp t = ixv_t(interval ? IX_T_INTERVAL : IX_T_DATETIME, q);
    sval v;
    /* Informix writes interval literals with a leading sign and blanks */
    int rc = ixv_text_to_sval(t, p->sql + a, (size_t)(b - a), &v);
    if (rc) return ixs_px_failc(p, rc, NULL);
    ixv_sval_sql(&v, &out->s);
    ixv_sval_free(&v);
    out->t = t;
    out->lk = LB_CONST;
    return 0;
}

/* An integer literal that fits in INT8 is an XK_INT (typed when used); 0
 * when it does not fit. */
static int int_literal(xv *out, int len) {
    int64_t v = 0;
    for (int k = 0; k < len; k++) {
        int d = out->lit[k] - '0';
        if (v > (INT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    out->k = XK_INT;
    ixv_sb_printf(&out->s, "%lld", (long long)v);
    return 1;
}

/* number = digits | digits "." digits [ ("e" | "E") ["+" | "-"] digits ] */
static int prim_number(px *p, xv *out, tok *t) {
    out->lit = strndup(p->sql + t->pos, (size_t)t->len);
    if (!out->lit) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    out->litn = (size_t)t->len;
    out->lk = LB_CONST;
    p->i++;
    if (t->k == T_INT && int_literal(out, t->len)) return 0;
    out->k = XK_NUM;
    /* natural form: a DECIMAL (or FLOAT with an exponent) */
    int hasexp = strpbrk(out->lit, "eE") != NULL;
    sval v;
    int rc = ixv_text_to_sval(hasexp ? ixv_t(IX_T_FLOAT, 8) : ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff),
                              out->lit, out->litn, &v);
    if (rc) return ixs_px_failc(p, rc, NULL);
    ixv_sval_sql(&v, &out->s);
    ixv_sval_free(&v);
    return 0;
}

/* string = "'" chars "'" | '"' chars '"' */
static int prim_string(px *p, xv *out) {
    sb b = {0};
    ixs_px_tokstr(p, p->i, &b);
    if (b.oom) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    out->litn = b.n;
    out->lit = ixv_sb_take(&b);
    out->k = XK_STR;
    out->lk = LB_CONST;
    ixv_sb_strlit(&out->s, out->lit, out->litn);
    p->i++;
    return 0;
}

/* CURRENT [ qualifier ] | SYSDATE */
static ixs_ex *prim_current(px *p) {
    ixs_ex *e = ixs_ex_node(p, EX_CURRENT, p->i);
    if (!e) return NULL;
    int sysd = ixs_px_kw(p, p->i, IXK_SYSDATE);
    p->i++;
    e->q = ixt_dt_qual(IXT_TU_YEAR, sysd ? IXT_TU_F(5) : IXT_TU_F(3));
    static const char *uk[] = {"year", "month", "day", "hour", "minute", "second", "fraction"};
    for (size_t k = 0; k < 7 && !sysd; k++)
        if (ixs_px_kw_str(p, p->i, uk[k])) {
            ixs_parse_qual(p, 0, &e->q);
            break;
        }
    return done(p, e);
}

/* A node of kind op for the keyword at the current token. */
static ixs_ex *word(px *p, int op) {
    ixs_ex *e = ixs_ex_node(p, op, p->i);
    if (e) p->i++;
    return done(p, e);
}

/* NULL | TODAY | CURRENT [qual] | SYSDATE | USER | DBSERVERNAME | SITENAME
 * | CURRENT_USER: a word that is a value by itself; *done is set if the
 * word was one. */
static ixs_ex *prim_value_word(px *p, int nextparen, int *isword) {
    *isword = 1;
    if (ixs_px_kw(p, p->i, IXK_NULL)) {
        ixs_ex *e = ixs_ex_node(p, EX_LIT, p->i);
        if (!e) return NULL;
        p->i++;
        e->lit->k = XK_NULL;
        e->lit->lk = LB_CONST;
        ixv_sb_add(&e->lit->s, "NULL");
        return done(p, e);
    }
    if (ixs_px_kw(p, p->i, IXK_TODAY) && !nextparen) return word(p, EX_TODAY);
    if ((ixs_px_kw(p, p->i, IXK_CURRENT) || ixs_px_kw(p, p->i, IXK_SYSDATE)) && !nextparen)
        return prim_current(p);
    int which = ixs_func_niladic_at(p);
    if (which >= 0) {
        ixs_ex *e = word(p, EX_NILADIC);
        if (e) e->sub = which;
        return e;
    }
    if (ixs_px_kw(p, p->i, IXK_USER) && !nextparen) return word(p, EX_USER);
    *isword = 0;
    return NULL;
}

/* case := CASE WHEN cond THEN or { WHEN cond THEN or } [ ELSE or ] END
 *       | CASE or WHEN add THEN or { WHEN add THEN or } [ ELSE or ] END
 * (at CASE) */
static ixs_ex *parse_case(px *p) {
    ixs_ex *e = ixs_ex_node(p, EX_CASE, p->i);
    if (!e) return NULL;
    p->i++;
    if (!ixs_px_kw(p, p->i, IXK_WHEN) && !(e->a = parse_or(p))) goto fail;
    while (ixs_px_acc(p, IXK_WHEN)) {
        if (e->nk >= 2 * IXS_EX_MAXWHEN) {
            ixs_px_too_complex(p, "more than %d WHEN branches in a CASE", IXS_EX_MAXWHEN);
            goto fail;
        }
        if (ixs_ex_kid_add(p, e, e->a ? parse_add(p) : ixs_ex_parse(p, IXS_EX_COND))) goto fail;
        if (ixs_px_expect(p, IXK_THEN) || ixs_ex_kid_add(p, e, parse_or(p))) goto fail;
    }
    if (!e->nk) {
        ixs_px_fail(p);
        goto fail;
    }
    if (ixs_px_acc(p, IXK_ELSE)) {
        e->flag = 1;
        if (!(e->c = parse_or(p))) goto fail;
    }
    if (ixs_px_expect(p, IXK_END)) goto fail;
    return done(p, e);
fail:
    ixs_ex_free(e);
    return NULL;
}

/* DATETIME "(" ... ")" qual | INTERVAL "(" ... ")" qual | EXISTS "(" select ")"
 * (at the keyword, followed by "(") */
static ixs_ex *prim_keyword_paren(px *p) {
    if (ixs_px_kw(p, p->i, IXK_EXISTS)) {
        ixs_ex *e = ixs_ex_node(p, EX_EXISTS, p->i);
        if (!e) return NULL;
        p->i += 2;
        if (!ixs_px_kw(p, p->i, IXK_SELECT))
            ixs_px_fail(p);
        else
            subq(p, e);
        return done(p, e);
    }
    ixs_ex *e = ixs_ex_node(p, EX_LIT, p->i);
    if (!e) return NULL;
    int iv = ixs_px_kw(p, p->i, IXK_INTERVAL);
    p->i++;
    typed_literal(p, iv, e->lit);
    return done(p, e);
}

/* The type of a cast into e (a named row type by its name, for the resolver). */
static int cast_type(px *p, ixs_ex *e) {
    char named[IXS_NAME_MAX + 1];
    if (ixs_parse_type_named(p, &e->t, named)) return -1;
    if (named[0] && !(e->tname = strdup(named))) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    return 0;
}

/* args := ")" | or { "," or } ")" (after "(") */
static int call_args(px *p, ixs_ex *e) {
    if (ixs_px_acc_op(p, ")")) return 0;
    do {
        if (e->sub == EXC_TS && e->nk >= IXS_TS_MAXARGS) /* no routine takes more */
            return ixs_px_failc(p, IXS_E_TS_UNRESOLVED, "%s", e->part[0]);
        if (e->nk >= IXS_FN_MAXARGS) return ixs_px_fail(p);
        if (ixs_ex_kid_add(p, e, parse_or(p))) return -1;
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* agg := [DISTINCT | UNIQUE | ALL] or ")" | "*" ")" (COUNT) (after "(") */
static int call_agg(px *p, ixs_ex *e) {
    e->flag = ixs_px_acc(p, IXK_DISTINCT) || ixs_px_acc(p, IXK_UNIQUE);
    if (!e->flag) ixs_px_acc(p, IXK_ALL);
    if (!strcmp(e->part[0], "count") && ixs_px_acc_op(p, "*")) return ixs_px_expect_op(p, ")");
    if (p->in_agg) return ixs_px_fail(p); /* an aggregate of an aggregate */
    p->in_agg = 1;
    e->a = parse_or(p);
    p->in_agg = 0;
    return e->a ? ixs_px_expect_op(p, ")") : -1;
}

/* cast := or AS type ")" | extend := or [ "," qualifier ] ")"
 * | substring := or FROM add [ FOR add ] ")" (after "(") */
static int call_special(px *p, ixs_ex *e) {
    if (!(e->a = parse_or(p))) return -1;
    if (e->op == EX_FCAST) {
        if (ixs_px_expect(p, IXK_AS) || cast_type(p, e)) return -1;
    } else if (e->op == EX_EXTEND) {
        e->flag = ixs_px_acc_op(p, ",");
        if (e->flag && ixs_parse_qual(p, 0, &e->q)) return -1;
    } else {
        if (ixs_px_expect(p, IXK_FROM) || !(e->b = parse_add(p))) return -1;
        if (ixs_px_acc(p, IXK_FOR) && !(e->c = parse_add(p))) return -1;
    }
    return ixs_px_expect_op(p, ")");
}

/* trim := [ LEADING | TRAILING | BOTH ] [ [ or ] FROM ] or ")" (after "(") */
static int call_trim(px *p, ixs_ex *e) {
    e->sub = ixs_px_acc(p, IXK_LEADING) ? 1 : ixs_px_acc(p, IXK_TRAILING) ? 2 : 0;
    if (!e->sub) ixs_px_acc(p, IXK_BOTH);
    if (!ixs_px_acc(p, IXK_FROM)) {
        if (!(e->a = parse_or(p))) return -1;
        if (ixs_px_acc(p, IXK_FROM)) {
            e->c = e->a;
            e->a = NULL;
        }
    }
    if (!e->a && !(e->a = parse_or(p))) return -1;
    return ixs_px_expect_op(p, ")");
}

/* call := name "(" ( args | agg | cast | extend | substring | trim ) (at the
 * name: built-ins by their row in ixs_func.c, other names are routines) */
ixs_ex *ixs_ex_parse_call(px *p) {
    char fn[IXS_NAME_MAX + 1];
    int at = p->i;
    if (ixs_px_ident(p, fn, sizeof fn)) return NULL;
    int kind = ixs_func_kind(fn);
    static const int ops[] = {[IXS_FN_EMIT] = EX_CALL,
                              [IXS_FN_ROUTINE] = EX_CALL,
                              [IXS_FN_TS] = EX_CALL,
                              [IXS_FN_AGG] = EX_AGG,
                              [IXS_FN_CAST] = EX_FCAST,
                              [IXS_FN_EXTEND] = EX_EXTEND,
                              [IXS_FN_SUBSTRING] = EX_SUBSTRING,
                              [IXS_FN_TRIM] = EX_TRIM};
    ixs_ex *e = ixs_ex_node(p, ops[kind], at);
    if (!e) return NULL;
    e->part = malloc(sizeof *e->part);
    if (!e->part) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return done(p, e);
    }
    snprintf(e->part[0], sizeof e->part[0], "%s", fn);
    e->npart = 1;
    e->sub = kind == IXS_FN_TS ? EXC_TS : EXC_FUNC;
    p->i++; /* ( */
    if (e->op == EX_CALL)
        call_args(p, e);
    else if (e->op == EX_AGG)
        call_agg(p, e);
    else if (e->op == EX_TRIM)
        call_trim(p, e);
    else
        call_special(p, e);
    return done(p, e);
}

/* row_literal := ROW "(" or { "," or } ")" (at ROW) */
static ixs_ex *row_literal(px *p) {
    ixs_ex *e = ixs_ex_node(p, EX_ROW, p->i);
    if (!e) return NULL;
    p->i += 2;
    do {
        if (e->nk >= IXS_ROW_MAX_FIELDS) {
            ixs_px_fail(p);
            break;
        }
        if (ixs_ex_kid_add(p, e, parse_or(p))) break;
    } while (ixs_px_acc_op(p, ","));
    if (!p->failed) ixs_px_expect_op(p, ")");
    return done(p, e);
}

/* a word not followed by ".": the value words, DATETIME(...) qual,
 * INTERVAL(...) qual, CASE ..., EXISTS (select), ROW(...), window
 * functions, name "(" args ")"; *isword is set if it was one of these. */
static ixs_ex *prim_word(px *p, int nextparen, int *isword) {
    ixs_ex *e = prim_value_word(p, nextparen, isword);
    if (*isword) return e;
    *isword = 1;
    if ((ixs_px_kw(p, p->i, IXK_DATETIME) || ixs_px_kw(p, p->i, IXK_INTERVAL) ||
         ixs_px_kw(p, p->i, IXK_EXISTS)) &&
        nextparen)
        return prim_keyword_paren(p);
    if (ixs_px_kw(p, p->i, IXK_CASE)) return parse_case(p);
    if (nextparen && ixs_px_kw(p, p->i, IXK_ROW)) return row_literal(p);
    if (nextparen && ixs_window_at(p)) return ixs_window_parse(p);
    if (nextparen) return ixs_ex_parse_call(p);
    *isword = 0;
    return NULL;
}

/* column = [owner "."] table "." column | column ; also table.column.field,
 * column.field (ROW fields), [owner.]sequence.NEXTVAL | CURRVAL: up to
 * three names, told apart by the resolver */
static ixs_ex *prim_column(px *p) {
    ixs_ex *e = ixs_ex_node(p, EX_COL, p->i);
    if (!e) return NULL;
    e->part = malloc(EX_NPART * sizeof *e->part);
    if (!e->part) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return done(p, e);
    }
    do {
        if (ixs_px_ident(p, e->part[e->npart], sizeof e->part[0])) break;
        e->npart++;
    } while (e->npart < EX_NPART && ixs_px_acc_op(p, "."));
    return done(p, e);
}

/* "(" ( select | or ) ")" (at the "(") */
static ixs_ex *prim_paren(px *p) {
    ixs_ex *e = ixs_ex_node(p, EX_PAREN, p->i);
    if (!e) return NULL;
    p->i++;
    if (ixs_px_kw(p, p->i, IXK_SELECT)) {
        e->op = EX_SUBQ;
        subq(p, e);
    } else if ((e->a = parse_or(p)) && !ixs_px_expect_op(p, ")") && e->a->op == EX_PAREN) {
        ixs_ex *in = e->a; /* ((x)) is (x) */
        e->a = in->a;
        in->a = NULL;
        ixs_ex_free(in);
    }
    return done(p, e);
}

/* A literal node whose value is read by f at the current token. */
static ixs_ex *prim_lit(px *p, int (*f)(px *, xv *, tok *)) {
    ixs_ex *e = ixs_ex_node(p, EX_LIT, p->i);
    if (e) f(p, e->lit, &p->t[p->i]);
    return done(p, e);
}

static int lit_string(px *p, xv *out, tok *t) {
    (void)t;
    return prim_string(p, out);
}

/* primary = number | string | param | "(" ( select | or ) ")" | collection literal
 *         | NULL | TODAY | CURRENT [qual] | SYSDATE | USER | niladic function
 *         | DATETIME "(" ... ")" qual | INTERVAL "(" ... ")" qual | CASE ... END
 *         | EXISTS "(" select ")" | ROW "(" ... ")" | window function
 *         | name "(" args ")" | column */
static ixs_ex *primary(px *p) {
    if (p->i >= p->nt || p->t[p->i].k == T_EOF) {
        ixs_px_fail(p);
        return NULL;
    }
    tok *t = &p->t[p->i];
    if (t->k == T_INT || t->k == T_NUM) return prim_lit(p, prim_number);
    if (ixs_name_is_owner_colref(p, p->i)) {
        p->i += 2; /* "owner".table.column: the owner does not take part */
        t = &p->t[p->i];
    }
    if (t->k == T_STR) return prim_lit(p, lit_string);
    if (t->k == T_PARAM) {
        ixs_ex *e = ixs_ex_node(p, EX_PARAM, p->i);
        if (!e) return NULL;
        e->pidx = t->pidx;
        if (t->pidx >= p->nparams) p->nparams = t->pidx + 1;
        p->i++;
        return done(p, e);
    }
    if (ixs_px_op(p, p->i, "(")) return prim_paren(p);
    if (t->k != T_ID) {
        ixs_px_fail(p);
        return NULL;
    }
    if (ixs_px_op(p, p->i + 1, "{")) { /* a collection literal */
        ixs_ex *e = ixs_ex_node(p, EX_LIT, p->i);
        if (e) ixs_coll_literal(p, e->lit);
        return done(p, e);
    }
    int nextparen = ixs_px_op(p, p->i + 1, "(");
    int nextdot = ixs_px_op(p, p->i + 1, ".");
    if (!nextdot) {
        int isword;
        ixs_ex *e = prim_word(p, nextparen, &isword);
        if (isword) return e;
    }
    if (!nextdot && ixs_px_is_clause_kw(p, p->i)) { /* -201, not -217 */
        ixs_px_fail(p);
        return NULL;
    }
    return prim_column(p);
}

/* A postfix node of kind op over a. */
static ixs_ex *post(px *p, int op, ixs_ex *a) {
    ixs_ex *e = ixs_ex_node(p, op, a->tok);
    if (!e) {
        ixs_ex_free(a);
        return NULL;
    }
    e->a = a;
    return e;
}

/* f(args).field or (expr).field: a ROW value's field, as an EX_PAREN
 * with field set (its name kept in part[0]). */
static ixs_ex *post_field(px *p, ixs_ex *e) {
    e = post(p, EX_PAREN, e);
    if (!e) return NULL;
    p->i++; /* . */
    if (!(e->part = malloc(sizeof *e->part))) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return e;
    }
    e->npart = 1;
    if (ixs_px_ident(p, e->part[0], sizeof e->part[0]) == 0) e->field = e->part[0];
    return e;
}

/* One postfix after e: "::" type | "[" first [ "," last ] "]" | UNITS unit
 * | "." field (after a call or a parenthesis); e itself when there is none,
 * NULL on error. */
static ixs_ex *post1(px *p, ixs_ex *e, int *more) {
    *more = 1;
    if ((e->op == EX_CALL || e->op == EX_PAREN) && ixs_px_op(p, p->i, ".") &&
        ixs_px_is_ident(p, p->i + 1)) {
        e = post_field(p, e);
    } else if (ixs_px_acc_op(p, "::")) {
        e = post(p, EX_CAST, e);
        if (e) cast_type(p, e);
    } else if (ixs_px_acc_op(p, "[")) {
        e = post(p, EX_SUBSTR, e);
        if (e && !ixs_px_int(p, &e->n1)) {
            e->n2 = e->n1;
            if (!(ixs_px_acc_op(p, ",") && ixs_px_int(p, &e->n2)) && !ixs_px_expect_op(p, "]") &&
                (e->n1 < 1 || e->n2 < e->n1 || e->n2 > 32767))
                ixs_px_fail(p);
        }
    } else if (ixs_px_acc(p, IXK_UNITS)) {
        int n, u;
        e = post(p, EX_UNITS, e);
        if (e && !ixs_parse_unit(p, &u, &n, 1)) e->n1 = u;
    } else
        *more = 0;
    return done(p, e);
}

/* postfix := primary { "::" type | "[" first [ "," last ] "]" | UNITS unit
 *                     | "." field } */
static ixs_ex *postfix(px *p) {
    ixs_ex *e = primary(p);
    int more = 1;
    while (e && more)
        e = post1(p, e, &more);
    return e;
}

/* unary := { "+" | "-" } postfix (a minus on a number literal is folded
 * into it) */
static ixs_ex *unary(px *p) {
    if (ixs_px_deeper(p)) return NULL;
    ixs_ex *e;
    if (ixs_px_op(p, p->i, "-") || ixs_px_op(p, p->i, "+")) {
        int neg = ixs_px_op(p, p->i, "-"), at = p->i;
        p->i++;
        e = unary(p);
        if (e && neg) {
            if (e->op == EX_LIT && (e->lit->k == XK_INT || e->lit->k == XK_NUM) &&
                e->tok == at + 1) {
                e->neg++;
                e->tok = at;
            } else
                e = done(p, post(p, EX_NEG, e));
            if (e) e->tok = at;
        }
    } else {
        e = postfix(p);
    }
    p->depth--;
    return e;
}

/* The tree of the chain read into c (kind: EX_ARITH for the + and *
 * levels), c freed; NULL when reading it failed. */
static ixs_ex *chain_end(px *p, ixs_chain *c, int kind) {
    if (p->failed) {
        ixs_chain_free(c);
        return NULL;
    }
    return ixs_chain_tree(p, c, kind);
}

/* mul := unary { ( "*" | "/" ) unary } */
static ixs_ex *parse_mul(px *p) {
    ixs_chain c = {0};
    int rc = ixs_chain_add(p, &c, unary(p), '*');
    while (!rc && (ixs_px_op(p, p->i, "*") || ixs_px_op(p, p->i, "/"))) {
        char op = p->sql[p->t[p->i].pos];
        p->i++;
        rc = ixs_chain_add(p, &c, unary(p), op);
    }
    return chain_end(p, &c, EX_ARITH);
}

/* add := mul { ( "+" | "-" | "||" ) mul } */
static ixs_ex *parse_add(px *p) {
    if (ixs_px_deeper(p)) return NULL;
    ixs_chain c = {0};
    int rc = ixs_chain_add(p, &c, parse_mul(p), '+');
    while (!rc &&
           (ixs_px_op(p, p->i, "+") || ixs_px_op(p, p->i, "-") || ixs_px_op(p, p->i, "||"))) {
        char op = p->sql[p->t[p->i].pos];
        p->i++;
        rc = ixs_chain_add(p, &c, parse_mul(p), op);
    }
    ixs_ex *e = chain_end(p, &c, EX_ARITH);
    if (e) p->depth--;
    return e;
}

/* The comparison operator at the current token (= == != <> < > <= >=), or NULL. */
static const char *cmp_op(px *p) {
    if (ixs_px_op(p, p->i, "=") || ixs_px_op(p, p->i, "==")) return "=";
    if (ixs_px_op(p, p->i, "!=") || ixs_px_op(p, p->i, "<>")) return "<>";
    if (ixs_px_op(p, p->i, "<")) return "<";
    if (ixs_px_op(p, p->i, ">")) return ">";
    if (ixs_px_op(p, p->i, "<=")) return "<=";
    if (ixs_px_op(p, p->i, ">=")) return ">=";
    return NULL;
}

/* x op [ ANY | SOME | ALL ] ( add | "(" select ")" ) (after op) */
static int pred_cmp(px *p, ixs_ex *e, const char *op) {
    snprintf(e->cmp, sizeof e->cmp, "%s", op);
    int any = ixs_px_acc(p, IXK_ANY) || ixs_px_acc(p, IXK_SOME);
    if (any || ixs_px_acc(p, IXK_ALL)) {
        e->op = EX_QUANT;
        e->flag = any;
        if (ixs_px_expect_op(p, "(") || !ixs_px_kw(p, p->i, IXK_SELECT)) return ixs_px_fail(p);
        return subq(p, e);
    }
    e->op = EX_CMP;
    return (e->b = parse_add(p)) ? 0 : -1;
}

/* x [NOT] IN "(" ( select | add { "," add } ) ")" | x [NOT] IN add (a
 * collection) (after IN) */
static int pred_in(px *p, ixs_ex *e) {
    if (!ixs_px_op(p, p->i, "(")) {
        e->op = EX_IN_COLL;
        return (e->b = parse_add(p)) ? 0 : -1;
    }
    p->i++;
    if (ixs_px_kw(p, p->i, IXK_SELECT)) {
        e->op = EX_IN_SUB;
        return subq(p, e);
    }
    e->op = EX_IN_LIST;
    do {
        if (e->nk >= IXS_MAX_TERMS) {
            return ixs_px_too_complex(p, "more than %d items in an IN list", IXS_MAX_TERMS);
        }
        if (ixs_ex_kid_add(p, e, parse_add(p))) return -1;
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* The predicate after its first operand (e->a, NOT read into e->neg). */
static int pred_rest(px *p, ixs_ex *e) {
    const char *op = e->neg ? NULL : cmp_op(p);
    if (op) {
        p->i++;
        return pred_cmp(p, e, op);
    }
    if (ixs_px_acc(p, IXK_BETWEEN)) {
        e->op = EX_BETWEEN;
        if (!(e->b = parse_add(p)) || ixs_px_expect(p, IXK_AND)) return -1;
        return (e->c = parse_add(p)) ? 0 : -1;
    }
    if (ixs_px_acc(p, IXK_IN)) return pred_in(p, e);
    if (ixs_px_acc(p, IXK_LIKE) || ixs_px_acc(p, IXK_MATCHES)) {
        e->op = EX_LIKE;
        e->flag = ixs_px_kw(p, p->i - 1, IXK_MATCHES);
        if (!(e->b = parse_add(p))) return -1;
        if (ixs_px_acc(p, IXK_ESCAPE) && !(e->c = parse_add(p))) return -1;
        return 0;
    }
    e->op = EX_IS_NULL; /* at IS */
    p->i++;
    e->neg = ixs_px_acc(p, IXK_NOT);
    return ixs_px_expect(p, IXK_NULL);
}

/* pred = add [ cmp_op [ANY | SOME | ALL] ( add | "(" select ")" )
 *            | [NOT] BETWEEN add AND add
 *            | [NOT] IN add                                  (a collection)
 *            | [NOT] IN "(" ( select | add { "," add } ) ")"
 *            | [NOT] ( LIKE | MATCHES ) add [ESCAPE add]
 *            | IS [NOT] NULL ] */
static ixs_ex *pred(px *p) {
    ixs_ex *a = parse_add(p);
    if (!a) return NULL;
    int save = p->i, neg = ixs_px_acc(p, IXK_NOT);
    int is_pred = (!neg && cmp_op(p)) || ixs_px_kw(p, p->i, IXK_BETWEEN) ||
                  ixs_px_kw(p, p->i, IXK_IN) || ixs_px_kw(p, p->i, IXK_LIKE) ||
                  ixs_px_kw(p, p->i, IXK_MATCHES) || (!neg && ixs_px_kw(p, p->i, IXK_IS));
    if (!is_pred) {
        p->i = save;
        return a;
    }
    ixs_ex *e = post(p, EX_CMP, a);
    if (!e) return NULL;
    e->neg = neg;
    pred_rest(p, e);
    return done(p, e);
}

/* not := { NOT } pred */
static ixs_ex *parse_not(px *p) {
    if (ixs_px_deeper(p)) return NULL;
    ixs_ex *e;
    if (ixs_px_kw(p, p->i, IXK_NOT)) {
        int at = p->i++;
        e = parse_not(p);
        if (e) e = done(p, post(p, EX_NOT, e));
        if (e) e->tok = at;
    } else {
        e = pred(p);
    }
    p->depth--;
    return e;
}

/* and := not { AND not } */
static ixs_ex *parse_and(px *p) {
    ixs_chain c = {0};
    int rc = ixs_chain_add(p, &c, parse_not(p), 0);
    while (!rc && ixs_px_acc(p, IXK_AND))
        rc = ixs_chain_add(p, &c, parse_not(p), 0);
    return chain_end(p, &c, EX_AND);
}

/* or := and { OR and } */
static ixs_ex *parse_or(px *p) {
    if (ixs_px_deeper(p)) return NULL;
    ixs_chain c = {0};
    int rc = ixs_chain_add(p, &c, parse_and(p), 0);
    while (!rc && ixs_px_acc(p, IXK_OR))
        rc = ixs_chain_add(p, &c, parse_and(p), 0);
    ixs_ex *e = chain_end(p, &c, EX_OR);
    if (e) p->depth--;
    return e;
}

/* expr := or | cond := or | conj := not | add (IXS_EX_ADD) */
ixs_ex *ixs_ex_parse(px *p, int what) {
    ixs_ex *e = what == IXS_EX_CONJ  ? parse_not(p)
                : what == IXS_EX_ADD ? parse_add(p)
                                     : parse_or(p);
    if (e && p->failed) {
        ixs_ex_free(e);
        return NULL;
    }
    return e;
}

void ixs_ex_free(ixs_ex *e) {
    if (!e) return;
    ixs_ex_free(e->a);
    ixs_ex_free(e->b);
    ixs_ex_free(e->c);
    for (int k = 0; k < e->nk; k++)
        ixs_ex_free(e->kids[k]);
    free(e->kids);
    free(e->part);
    free(e->tname);
    if (e->lit) ixs_xv_free(e->lit);
    if (e->rx) ixs_xv_free(e->rx);
    free(e->lit);
    free(e->rx);
    if (e->qs) ixs_sel_free(e->qs);
    ixs_window_free(e->win);
    free(e);
}
