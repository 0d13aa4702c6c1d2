/* ixs_sel_shim.c: ixs_sel.h over the one-pass ixs_select_sub, for the
 * subqueries of expressions until the staged statements replace it. The
 * tree is the subquery's token span; emission translates it there. */
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_sel.h"

struct ixs_sel {
    int start, end; /* its first token, and the ')' after it */
};

/* The span of the query at p->i: to the ')' that closes the enclosing
 * parenthesis. A span that does not close is a syntax error where the
 * translator stops. */
ixs_sel *ixs_sel_parse(px *p) {
    int depth = 0, k = p->i;
    for (; k < p->nt && p->t[k].k != T_EOF; k++) {
        if (px_op(p, k, "("))
            depth++;
        else if (px_op(p, k, ")") && --depth < 0)
            break;
    }
    if (depth >= 0) {
        int so = p->syntax_only, st;
        qres q;
        memset(&q, 0, sizeof q);
        p->syntax_only = 1;
        ixs_select_sub(p, &q, &st);
        qres_free(&q);
        p->syntax_only = so;
        px_fail(p);
        return NULL;
    }
    ixs_sel *s = malloc(sizeof *s);
    if (!s) {
        px_failc(p, -208, NULL);
        return NULL;
    }
    s->start = p->i;
    s->end = k;
    p->i = k;
    return s;
}

int ixs_sel_emit(px *p, ixs_sel *q, qres *out) {
    int at = p->i, st;
    p->i = q->start;
    int rc = ixs_select_sub(p, out, &st);
    if (!rc && p->i != q->end) rc = px_fail(p);
    if (!rc) p->i = at;
    return rc || p->failed ? -1 : 0;
}

void ixs_sel_free(ixs_sel *q) {
    free(q);
}
