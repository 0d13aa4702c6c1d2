/* ixs_ex_resolve.c: the names of an expression tree bound in the scopes of
 * p->sc (columns of this and enclosing scopes, ROW fields, sequences), with
 * the references recorded for the statement (refmask: the tables of this
 * scope a conjunct uses; outer_ref: a correlated reference). Subqueries are
 * resolved by ixs_sel_emit at emission; TimeSeries routine calls by
 * ixs_ts_call_resolve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_spl.h"

/* Table t is the one q names: by its alias (the name it shows: the table's
 * own name when it has none) and, when no table of any scope shows that
 * name (by_alias 0), by the name of the table behind it. So in `UPDATE m SET
 * x = (SELECT ... FROM m m2 WHERE m2.a = m.a)` m.a is the outer m's. */
static int tref_match(const tref *t, const char *q, int by_alias) {
    return !strcmp(t->alias, q) || (!by_alias && !strcmp(t->tab.name, q));
}

/* 1 when a table of p's scopes shows the name q (its alias). */
static int alias_shown(px *p, const char *q) {
    for (scope *sc = p->sc; sc; sc = sc->up)
        for (int ti = 0; ti < sc->n; ti++)
            if (!strcmp(sc->t[ti]->alias, q)) return 1;
    return 0;
}

/* Binds e to column ti/ci (ci -2: rowid) of scope sc. */
static int bind(px *p, ixs_ex *e, scope *sc, int ti, int ci) {
    if (sc == p->sc)
        sc->refmask |= (uint64_t)1 << ti;
    else
        p->sc->outer_ref = 1;
    e->rk = ci == -2 ? EXR_ROWID : EXR_COL;
    e->rsc = sc;
    e->ti = ti;
    e->ci = ci;
    e->t = ci == -2 ? ixv_t(IX_T_INTEGER, 4) : sc->t[ti]->tab.cols[ci].t;
    if (ci >= 0 && sc->t[ti]->tab.cols[ci].serial == 1) e->t = ixv_t(IX_T_SERIAL, 4);
    return 0;
}

/* The column of table ti of sc named name: its index, -2 for rowid, -1. */
static int col_of(const tref *t, const char *name) {
    if (!strcmp(name, "rowid") && !t->derived && !t->tab.is_view) return -2;
    for (int ci = 0; ci < t->tab.ncols; ci++)
        if (!strcmp(t->tab.cols[ci].name, name)) return ci;
    return -1;
}

/* [q.]name: the column in the nearest scope that has it; -217 when none,
 * -324 when two tables of one scope have it. */
static int find_col(px *p, ixs_ex *e, const char *q, const char *name) {
    int by_alias = q && alias_shown(p, q);
    for (scope *sc = p->sc; sc; sc = sc->up) {
        int hit_t = -1, hit_c = -1, nhit = 0, qual_found = 0;
        for (int ti = 0; ti < sc->n; ti++) {
            tref *t = sc->t[ti];
            if (q && !tref_match(t, q, by_alias)) continue;
            if (q) qual_found = 1;
            int ci = col_of(t, name);
            if (ci == -2) {
                if (!nhit) {
                    hit_t = ti;
                    hit_c = -2;
                }
                nhit++;
                continue;
            }
            if (ci >= 0) {
                if (!nhit || hit_c == -2) {
                    hit_t = ti;
                    hit_c = ci;
                }
                nhit++;
            }
            if (q && nhit) break;
        }
        if (nhit > 1 && hit_c != -2) return ixs_px_failc(p, IXV_E_AMBIGUOUS_COLUMN, "%s", name);
        if (nhit) return bind(p, e, sc, hit_t, hit_c);
        if (q && qual_found) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", name);
    }
    if (q) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s.%s", q, name);
    return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", name);
}

/* name.NEXTVAL / name.CURRVAL of a sequence (ixs_seq.c), its value and
 * type kept for emission: 1, 0 not one, -1. */
static int seq_ref(px *p, ixs_ex *e, const char *name, const char *what) {
    int next = !strcmp(what, "nextval");
    if (!next && strcmp(what, "currval")) return 0;
    if (!e->rx && !(e->rx = malloc(sizeof *e->rx))) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    ixs_xv_init(e->rx);
    int rc = ixs_seq_ref(p, name, next, e->rx);
    if (rc > 0) {
        e->rk = EXR_SEQ;
        e->t = e->rx->t; /* INT8 */
    }
    return rc;
}

/* A name whose type is found at emission (a ROW field: ixs_row_field). */
static int untyped(ixs_ex *e) {
    e->t = ixv_t(-1, 0);
    return 0;
}

/* column | q.column | column.field | q.column.field | [owner.]seq.NEXTVAL|CURRVAL */
static int resolve_name(px *p, ixs_ex *e) {
    char(*n)[IXS_NAME_MAX + 1] = e->part;
    ixs_px_at(p, e->end);
    if (e->npart == 1) return find_col(p, e, NULL, n[0]);
    if (e->npart == 3) {
        if (ixs_row_colref(p, n[0], n[1])) { /* table.column.field */
            e->field = n[2];
            return find_col(p, e, n[0], n[1]) ? -1 : untyped(e);
        }
        int sq = seq_ref(p, e, n[1], n[2]); /* owner.seq.NEXTVAL */
        return sq ? (sq < 0 ? -1 : 0) : find_col(p, e, n[1], n[2]);
    }
    if (ixs_row_colref(p, NULL, n[0])) { /* column.field */
        e->field = n[1];
        return find_col(p, e, NULL, n[0]) ? -1 : untyped(e);
    }
    int sq = seq_ref(p, e, n[0], n[1]); /* seq.NEXTVAL, seq.CURRVAL */
    if (sq) return sq < 0 ? -1 : 0;
    return find_col(p, e, n[0], n[1]);
}

/* Whether the emitter gives e the type e->t once settled (the nodes typed
 * here): 1 typed, 0 a parameter or NULL (no type of its own), -1 a node
 * whose type the emitter still decides. */
static int typed(const ixs_ex *e) {
    if (e->op == EX_PARAM || (e->op == EX_LIT && e->lit->k == XK_NULL)) return 0;
    if (e->t.code < 0 || (e->op == EX_LIT && e->neg && e->lit->k == XK_STR)) return -1;
    switch (e->op) {
    case EX_LIT:
    case EX_COL:
    case EX_CALL:
    case EX_AGG:
    case EX_WINDOW:
    case EX_EXTEND:
    case EX_SUBSTRING:
    case EX_TRIM:
    case EX_PAREN:
    case EX_NEG:
    case EX_ROW:
    case EX_CAST:
    case EX_FCAST:
    case EX_TODAY:
    case EX_CURRENT:
    case EX_USER:
    case EX_NILADIC:
    case EX_SUBSTR:
    case EX_UNITS:
    case EX_EXISTS:
    case EX_CONCAT:
    case EX_ARITH:
    case EX_CASE: return 1;
    default: return e->op >= EX_CMP && e->op <= EX_OR ? 1 : -1;
    }
}

/* a || b when both operands are typed: both as text (a parameter
 * VARCHAR(255), a NULL one character), CHAR when both are CHAR, else
 * VARCHAR or LVARCHAR of the sum of their lengths. */
static void type_concat(ixs_ex *e) {
    const ixs_ex *k[2] = {e->a, e->b};
    uint32_t n = 0;
    int bothchar = 1;
    for (int i = 0; i < 2; i++) {
        int ty = typed(k[i]);
        if (ty < 0) return;
        ityp t = !ty ? (k[i]->op == EX_PARAM ? ixv_t(IX_T_VARCHAR, 255) : ixv_t(-1, 0)) : k[i]->t;
        if (t.code >= 0 && !ixv_is_char(t.code)) t = ixv_t(IX_T_VARCHAR, ixs_char_len(t));
        n += t.code < 0 ? 1 : ixs_char_len(t);
        bothchar &= t.code == IX_T_CHAR;
    }
    e->t = ixs_ex_concat_type(n, bothchar);
}

/* a op b (+ - * /) when both operands are typed, NULL or parameters: by
 * their types as the arithmetic meets them (ixs_ex_arith_met_type). */
static void type_arith(ixs_ex *e) {
    int ta = typed(e->a), tb = typed(e->b);
    if (ta < 0 || tb < 0) return;
    int ka = ta ? IXS_AR_VALUE : e->a->op == EX_PARAM ? IXS_AR_PARAM : IXS_AR_NULL;
    int kb = tb ? IXS_AR_VALUE : e->b->op == EX_PARAM ? IXS_AR_PARAM : IXS_AR_NULL;
    e->t = ixs_ex_arith_met_type(e->a->t, ka, e->b->t, kb, (char)e->sub);
}

/* CASE when its results are typed: the type that holds them all (NULL and
 * parameters aside), CHAR(1) when none has one. */
static void type_case(ixs_ex *e) {
    int nw = e->nk / 2;
    ityp rt = ixv_t(-1, 0);
    for (int i = 0; i < nw + e->flag; i++) {
        const ixs_ex *r = i < nw ? e->kids[2 * i + 1] : e->c;
        int ty = typed(r);
        if (ty < 0) return;
        if (ty) rt = ixs_merge_type(rt, r->t);
    }
    e->t = rt.code < 0 ? ixv_t(IX_T_CHAR, 1) : rt;
}

/* A built-in call whose rule depends on its arguments, when they are typed
 * (a NULL or parameter as code -1): ixs_func_type's rule. */
static void type_call(ixs_ex *e) {
    ityp at[IXS_FN_MAXARGS];
    if (e->t.code >= 0 || !e->fn || e->nk > IXS_FN_MAXARGS) return;
    for (int k = 0; k < e->nk; k++) {
        int ty = typed(e->kids[k]);
        if (ty < 0) return;
        at[k] = ty ? e->kids[k]->t : ixv_t(-1, 0);
    }
    const ixs_ex *k1 = e->nk > 1 ? e->kids[1] : NULL;
    int64_t nd = INT64_MIN;
    if (k1 && k1->op == EX_LIT && k1->lit->k == XK_INT && !k1->neg)
        nd = strtoll(k1->lit->lit, NULL, 10);
    e->t = ixs_func_type(e->fn, at, e->nk, nd);
}

/* An aggregate over a typed value (any, for COUNT), COUNT(*). */
static void type_agg(ixs_ex *e) {
    if (!e->a || !strcmp(e->part[0], "count")) {
        e->t = ixs_func_agg_type(e->part[0], NULL);
        return;
    }
    if (typed(e->a) == 1) e->t = ixs_func_agg_type(e->part[0], &e->a->t);
}

/* EXTEND ( a [, q] ): a DATETIME of q, else of a DATETIME a's qualifier,
 * else YEAR TO DAY (a typed). */
static void type_extend(ixs_ex *e) {
    if (!e->flag && typed(e->a) < 1) return;
    uint32_t q = e->flag                         ? e->q
                 : e->a->t.code == IX_T_DATETIME ? e->a->t.len
                                                 : ixt_dt_qual(IXT_TU_YEAR, IXT_TU_DAY);
    e->t = ixv_t(IX_T_DATETIME, q);
}

/* SUBSTRING and TRIM of a typed string: VARCHAR of its length (<= 255). */
static void type_substring(ixs_ex *e) {
    if (typed(e->a) < 1 || !ixv_is_char(e->a->t.code)) return;
    uint32_t n = ixs_char_len(e->a->t);
    e->t = ixv_t(IX_T_VARCHAR, n > 255 ? 255 : n);
}

/* ( a ), and - a of a typed value that is no string or literal: a's type. */
static void type_same(ixs_ex *e) {
    if (typed(e->a) < 1) return;
    if (e->op == EX_NEG &&
        (ixv_is_char(e->a->t.code) || e->a->op == EX_LIT || e->a->op == EX_PAREN))
        return;
    e->t = e->a->t;
}

/* An OLAP window: an aggregate's type, or its function's rule for a typed
 * (or NULL, not a parameter) first argument. */
static void type_window(ixs_ex *e) {
    const ixs_ex *c = e->a;
    if (c->op == EX_AGG) {
        if (typed(c) == 1) e->t = c->t;
        return;
    }
    if (!c->nk) {
        e->t = ixs_window_type(e->win, NULL);
        return;
    }
    int ty = typed(c->kids[0]);
    if (ty < 0 || c->kids[0]->op == EX_PARAM) return;
    ityp a0 = ty ? c->kids[0]->t : ixv_t(-1, 0);
    e->t = ixs_window_type(e->win, &a0);
}

/* The result type of a node whose type follows from its kind and fields:
 * the value words, predicates and logic (BOOLEAN), a [ n1, n2 ] (CHAR of
 * its length), UNITS (an INTERVAL of its unit); a literal's own type. Casts
 * have theirs from the parser (a named row type from ixs_row_named_type),
 * names from their binding, TimeSeries calls from their routine. */
static void type_node(ixs_ex *e) {
    switch (e->op) {
    case EX_LIT: e->t = ixs_lit_type(e->lit); break;
    case EX_TODAY: e->t = ixv_t(IX_T_DATE, 4); break;
    case EX_CURRENT: e->t = ixv_t(IX_T_DATETIME, e->q); break;
    case EX_USER: e->t = ixv_t(IX_T_VARCHAR, 32); break;
    case EX_NILADIC: e->t = ixs_func_niladic_type(e->sub); break;
    case EX_SUBSTR: e->t = ixv_t(IX_T_CHAR, (uint32_t)(e->n2 - e->n1 + 1)); break;
    case EX_UNITS: e->t = ixv_t(IX_T_INTERVAL, ixs_ex_units_qual((int)e->n1)); break;
    case EX_CONCAT: type_concat(e); break;
    case EX_CASE: type_case(e); break;
    case EX_ARITH: type_arith(e); break;
    case EX_CALL: type_call(e); break;
    case EX_AGG: type_agg(e); break;
    case EX_WINDOW: type_window(e); break;
    case EX_EXTEND: type_extend(e); break;
    case EX_SUBSTRING:
    case EX_TRIM: type_substring(e); break;
    case EX_PAREN:
        if (e->field) { /* a ROW field: typed at emission (ixs_row_field) */
            untyped(e);
            break;
        }
        /* fall through */
    case EX_NEG: type_same(e); break;
    case EX_ROW: e->t = ixs_row_lit_type(e->nk); break;
    case EX_EXISTS:
    case EX_NOT:
    case EX_AND:
    case EX_OR: e->t = ixv_t(IX_T_BOOLEAN, 1); break;
    default:
        if (e->op >= EX_CMP && e->op <= EX_IS_NULL) e->t = ixv_t(IX_T_BOOLEAN, 1);
    }
}

int ixs_ex_resolve(px *p, ixs_ex *e) {
    if (!e || p->failed) return p->failed ? -1 : 0;
    if (ixs_px_stack_check(p, e->tok)) return -1;
    if (e->op == EX_COL) return resolve_name(p, e);
    if (e->op == EX_CALL && e->sub == EXC_TS) return ixs_ts_call_resolve(p, e);
    if (ixs_ex_resolve(p, e->a) || ixs_ex_resolve(p, e->b) || ixs_ex_resolve(p, e->c)) return -1;
    for (int k = 0; k < e->nk; k++)
        if (ixs_ex_resolve(p, e->kids[k])) return -1;
    if (e->op == EX_CALL) { /* a built-in: its row, argument count and fixed result type */
        ixs_px_at(p, e->end);
        int bi = ixs_func_resolve(p, e->part[0], e->nk, &e->fn, &e->t);
        if (bi < 0) return -1;
        if (!bi) { /* a user routine's: resolved by its arguments' types */
            ityp at[SPL_MAX_ARGS];
            for (int k = 0; k < e->nk && k < SPL_MAX_ARGS; k++)
                at[k] = e->kids[k]->op == EX_LIT && e->kids[k]->lit
                            ? ixs_spl_arg_type(e->kids[k]->lit)
                            : e->kids[k]->t;
            if (e->nk <= SPL_MAX_ARGS) ixs_spl_ret_type(p, e->part[0], at, e->nk, &e->t);
        }
    }
    type_node(e);
    if (e->tname) { /* a cast to a named row type */
        uint32_t collen;
        ixs_px_at(p, e->end);
        if (ixs_row_named_type(p, e->tname, &e->t, &collen)) return -1;
    }
    return p->failed ? -1 : 0;
}
