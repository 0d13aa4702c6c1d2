/* ixs_ex_chain.c: the tree of a chain of operands joined by operators of
 * one precedence level (a OR b OR ..., a + b - c ..., a || b ..., a * b ...),
 * built once the whole chain is read.
 *
 * Generated SQL holds chains of thousands of terms (OR chains, sums). A
 * left-deep tree of them would be as deep as the chain is long, for every
 * walk of the tree and for SQLite's parser, which takes about 30 levels of
 * nested calls. So a chain whose operator is associative is built as a
 * balanced tree, log2(n) deep: always for AND, OR and ||, and for +/- and *
 * chains of more than IXS_CHAIN_FLAT terms (their values are the same for
 * numbers; shorter chains keep Informix's left-to-right typing, which
 * DATE and DATETIME arithmetic depends on). Operands in parentheses that
 * are chains of the same operator join the chain, so that nested
 * parentheses do not nest the SQL either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"

int ixs_ex_height_check(px *p, ixs_ex *e) {
    int h = 0;
    const ixs_ex *ops[] = {e->a, e->b, e->c};
    for (int k = 0; k < 3; k++)
        if (ops[k] && ops[k]->h > h) h = ops[k]->h;
    for (int k = 0; k < e->nk; k++)
        if (e->kids[k] && e->kids[k]->h > h) h = e->kids[k]->h;
    e->h = h + 1;
    if (e->h <= IXS_MAX_HEIGHT) return 0;
    ixs_px_at(p, e->tok);
    return ixs_px_too_complex(p, "expression nested more than %d levels deep", IXS_MAX_HEIGHT);
}

void ixs_chain_free(ixs_chain *c) {
    for (int k = 0; k < c->n; k++)
        ixs_ex_free(c->t[k]);
    if (c->t != c->in_t) {
        free(c->t);
        free(c->op);
    }
    c->t = NULL;
    c->op = NULL;
    c->n = c->cap = 0;
}

/* Twice the room for c's operands, on the heap. */
static int chain_grow(px *p, ixs_chain *c) {
    int cap = c->cap * 2;
    ixs_ex **t = malloc((size_t)cap * sizeof *t);
    char *o = malloc((size_t)cap);
    if (!t || !o) {
        free(t);
        free(o);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    memcpy(t, c->t, (size_t)c->n * sizeof *t);
    memcpy(o, c->op, (size_t)c->n);
    if (c->t != c->in_t) {
        free(c->t);
        free(c->op);
    }
    c->t = t;
    c->op = o;
    c->cap = cap;
    return 0;
}

/* Appends operand e with the operator before it (e freed on failure). */
int ixs_chain_add(px *p, ixs_chain *c, ixs_ex *e, char op) {
    if (!e) return -1;
    if (c->n >= IXS_MAX_TERMS) {
        ixs_px_at(p, e->tok);
        ixs_ex_free(e);
        return ixs_px_too_complex(p, "more than %d operands in one chain", IXS_MAX_TERMS);
    }
    if (!c->cap) {
        c->t = c->in_t;
        c->op = c->in_op;
        c->cap = IXS_CHAIN_INLINE;
    }
    if (c->n == c->cap && chain_grow(p, c)) {
        ixs_ex_free(e);
        return -1;
    }
    c->t[c->n] = e;
    c->op[c->n++] = op;
    return 0;
}

/* 1 when e is a node of the chain family kind (EX_ARITH: of sub's
 * operators, * alone or + and -). */
static int same_family(const ixs_ex *e, int kind, char sub) {
    if (e->op != kind) return 0;
    if (kind != EX_ARITH) return 1;
    return sub == '*' ? e->sub == '*' : e->sub == '+' || e->sub == '-';
}

/* The operands of e, a chain of kind (in parentheses or not), into c with
 * the sign they have in it (neg: e is subtracted); e's own nodes freed. */
static int chain_splice(px *p, ixs_chain *c, ixs_ex *e, int kind, char sub, int neg, char op) {
    if (ixs_px_stack_check(p, e->tok)) {
        ixs_ex_free(e);
        return -1;
    }
    ixs_ex *in = e->op == EX_PAREN && e->a && same_family(e->a, kind, sub) ? e->a : NULL;
    if (!in && !same_family(e, kind, sub))
        return ixs_chain_add(p, c, e, kind == EX_ARITH && sub != '*' ? (neg ? '-' : '+') : op);
    if (in) {
        e->a = NULL;
        ixs_ex_free(e);
        e = in;
    }
    ixs_ex *a = e->a, *b = e->b;
    int bneg = neg ^ (kind == EX_ARITH && e->sub == '-');
    char bop = (char)e->sub;
    e->a = e->b = NULL;
    ixs_ex_free(e);
    int rc = chain_splice(p, c, a, kind, sub, neg, op);
    if (rc) {
        ixs_ex_free(b);
        return rc;
    }
    return chain_splice(p, c, b, kind, sub, bneg, bop);
}

/* The operands a chain of this family would hold with e's parenthesized
 * chains spliced in. */
static int chain_count(const ixs_ex *e, int kind, char sub) {
    if (e->op == EX_PAREN && e->a && same_family(e->a, kind, sub)) e = e->a;
    if (!same_family(e, kind, sub)) return 1;
    return chain_count(e->a, kind, sub) + chain_count(e->b, kind, sub);
}

/* a op b as one node of kind (sub: the arithmetic operator). */
static ixs_ex *join(px *p, int kind, char sub, ixs_ex *a, ixs_ex *b) {
    ixs_ex *e = a && b ? ixs_ex_node(p, kind, a->tok) : NULL;
    if (!e) {
        ixs_ex_free(a);
        ixs_ex_free(b);
        return NULL;
    }
    e->a = a;
    e->b = b;
    e->sub = sub;
    e->end = b->end;
    if (ixs_ex_height_check(p, e)) {
        ixs_ex_free(e);
        return NULL;
    }
    return e;
}

/* The operator between two operands of the chain: op, with a subtraction
 * turned into an addition inside a subtracted group (flip). */
static char flipped(char op, int flip) {
    if (!flip) return op;
    return op == '-' ? '+' : op == '+' ? '-' : op;
}

/* The balanced tree of operands [lo, hi) (taken from c), the first one
 * added, the others with their operators, flipped inside a subtracted
 * group. */
static ixs_ex *balanced(px *p, ixs_chain *c, int kind, int lo, int hi, int flip) {
    if (hi - lo == 1) {
        ixs_ex *e = c->t[lo];
        c->t[lo] = NULL;
        return e;
    }
    int mid = lo + (hi - lo) / 2;
    char op = flipped(c->op[mid], flip);
    ixs_ex *a = balanced(p, c, kind, lo, mid, flip);
    ixs_ex *b = balanced(p, c, kind, mid, hi, flip ^ (op == '-'));
    return join(p, kind, op, a, b);
}

/* The left-deep tree of c, as Informix evaluates it: ((a op b) op c) ... */
static ixs_ex *left_deep(px *p, ixs_chain *c) {
    ixs_ex *e = c->t[0];
    c->t[0] = NULL;
    for (int k = 1; k < c->n && e; k++) {
        ixs_ex *b = c->t[k];
        c->t[k] = NULL;
        e = join(p, c->op[k] == '|' ? EX_CONCAT : EX_ARITH, c->op[k], e, b);
    }
    return e;
}

/* Which family c's operators make (kind: EX_AND, EX_OR, or EX_ARITH for
 * the + - || and * / levels): the kind and sub for chain_splice, or 0 when
 * they mix families (+ with ||, * with /). */
static int chain_family(const ixs_chain *c, int kind, char *sub) {
    *sub = c->op[1];
    if (kind != EX_ARITH) return kind;
    int cat = 0, add = 0, mul = 0;
    for (int k = 1; k < c->n; k++) {
        cat += c->op[k] == '|';
        add += c->op[k] == '+' || c->op[k] == '-';
        mul += c->op[k] == '*';
    }
    if (cat == c->n - 1) return EX_CONCAT;
    return add == c->n - 1 || mul == c->n - 1 ? EX_ARITH : 0;
}

ixs_ex *ixs_chain_tree(px *p, ixs_chain *c, int kind) {
    ixs_ex *e = NULL;
    char sub;
    int fam = c->n > 1 ? chain_family(c, kind, &sub) : 0;
    if (fam == EX_ARITH) { /* balanced only past IXS_CHAIN_FLAT terms */
        int total = 0;
        for (int k = 0; k < c->n; k++)
            total += chain_count(c->t[k], fam, sub);
        if (total <= IXS_CHAIN_FLAT) fam = 0;
    }
    if (!fam) {
        e = c->n ? left_deep(p, c) : NULL;
        ixs_chain_free(c);
        return e;
    }
    ixs_chain flat = {0};
    int rc = 0;
    for (int k = 0; k < c->n; k++) {
        ixs_ex *t = c->t[k];
        c->t[k] = NULL;
        if (!rc)
            rc = chain_splice(p, &flat, t, fam, sub, c->op[k] == '-', c->op[k]);
        else
            ixs_ex_free(t);
    }
    ixs_chain_free(c);
    if (!rc) e = balanced(p, &flat, fam, 0, flat.n, 0);
    ixs_chain_free(&flat);
    return e;
}
