/* ixs_ex_shim.c: the expression interface of ixs_ex.h over the one-pass
 * translator (ixs_expr, ixs_cond, ixs_conj), until expressions are trees.
 *
 *   parse    runs the translator of that kind in syntax-only mode, in an
 *            empty scope and into a throwaway value, and records the tokens
 *            [start, end) it read; the parse state is restored afterwards
 *   resolve  nothing (names are bound when the span is translated)
 *   emit     translates the span in the current scope p->sc and checks that
 *            it ends where the parse ended
 */
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex.h"

struct ixs_ex {
    int what;
    int start, end;
};

static int run(px *p, int what, xv *out) {
    return what == IXS_EX_COND   ? ixs_cond(p, out)
           : what == IXS_EX_CONJ ? ixs_conj(p, out)
                                 : ixs_expr(p, out);
}

/* The span of the expression at p->i, read for its syntax alone. */
static int span(px *p, int what, int *end) {
    px save = *p;
    int np = p->nparams > 0 ? p->nparams : 1;
    ityp *pt = malloc(sizeof(ityp) * (size_t)np);
    if (!pt) return px_failc(p, -208, NULL);
    memcpy(pt, p->ptypes, sizeof(ityp) * (size_t)np);
    scope empty;
    memset(&empty, 0, sizeof empty);
    ixd_err e2;
    memset(&e2, 0, sizeof e2);
    p->sc = &empty;
    p->syntax_only = 1;
    p->err = &e2;
    p->failed = 0;
    /* a condition reads as a value does (OR level); the check that a bare
     * value is BOOLEAN needs its type, and so waits for emit */
    xv v;
    int rc = run(p, what == IXS_EX_COND ? IXS_EX_VALUE : what, &v);
    xv_free(&v);
    *end = p->i;
    memcpy(save.ptypes, pt, sizeof(ityp) * (size_t)np);
    free(pt);
    *p = save;
    if (rc || e2.sqlcode) {
        if (!p->failed) *p->err = e2;
        p->failed = 1;
        return -1;
    }
    return 0;
}

ixs_ex *ixs_ex_parse(px *p, int what) {
    int end;
    if (span(p, what, &end)) return NULL;
    ixs_ex *e = malloc(sizeof *e);
    if (!e) {
        px_failc(p, -208, NULL);
        return NULL;
    }
    e->what = what;
    e->start = p->i;
    e->end = end;
    p->i = end;
    return e;
}

int ixs_ex_resolve(px *p, ixs_ex *e) {
    (void)e;
    return p->failed ? -1 : 0;
}

int ixs_ex_emit(px *p, ixs_ex *e, xv *out) {
    int save = p->i;
    p->i = e->start;
    xv_free(out);
    int rc = run(p, e->what, out);
    if (!rc && p->i != e->end) rc = px_fail(p);
    if (!rc) p->i = save;
    return rc || p->failed ? -1 : 0;
}

void ixs_ex_free(ixs_ex *e) {
    free(e);
}
