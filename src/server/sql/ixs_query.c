/* ixs_query.c: the entry points of SELECT and INSERT / UPDATE / DELETE for
 * callers that translate a statement at the current token: each parses a
 * tree (ixs_sel_parse.c) and emits it (ixs_sel_resolve.c, ixs_sel_emit.c,
 * ixs_sel_dml.c). */
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_sel_tree.h"

void ixs_qres_free(qres *q) {
    ixv_sb_free(&q->sql);
    for (int i = 0; i < q->ncols; i++)
        free(q->cols[i].name);
    free(q->cols);
    memset(q, 0, sizeof *q);
}

/* select (a query that ends where a subquery ends) into out; *start is its
 * first token */
int ixs_select_sub(px *p, qres *out, int *start) {
    *start = p->i;
    memset(out, 0, sizeof *out);
    ixs_sel *q = ixs_sel_parse(p);
    if (!q) return -1;
    int rc = ixs_sel_emit(p, q, out);
    ixs_px_at_cursor(p);
    ixs_sel_free(q);
    return rc || p->failed ? -1 : 0;
}

int ixs_select_emit(px *p, ixs_sel *q, qres *out) {
    int top = p->row_top; /* a statement's own rows: their ROW items are text */
    int rc = ixs_sel_emit(p, q, out);
    /* a statement's collection columns are described as LVARCHAR text
     * (ixs_collection.c); inside it they keep their type */
    for (int i = 0; !rc && i < out->ncols; i++)
        if (ixs_coll_is(out->cols[i].t.code) || (top && out->cols[i].t.code == IX_T_ROW))
            out->cols[i].t = ixv_t(IX_T_LVARCHAR, IXS_COLL_DESC_LEN);
    return rc || p->failed ? -1 : 0;
}

int ixs_select_keep(px *p, qres *out, int (*tail)(px *p, void *ud), void *ud, ixs_sel **keep) {
    memset(out, 0, sizeof *out);
    ixs_sel *q = ixs_sel_parse(p);
    if (!q) return -1;
    int rc = tail ? tail(p, ud) : 0;
    if (!rc) rc = ixs_select_emit(p, q, out);
    ixs_px_at_cursor(p);
    if (keep && !rc && !p->failed)
        *keep = q;
    else
        ixs_sel_free(q);
    return rc || p->failed ? -1 : 0;
}

int ixs_select_tail(px *p, qres *out, int (*tail)(px *p, void *ud), void *ud) {
    return ixs_select_keep(p, out, tail, ud, NULL);
}

/* statement := select, the result columns described as a client sees them */
int ixs_select(px *p, qres *out) {
    return ixs_select_tail(p, out, NULL, NULL);
}

int ixs_dml_tail(px *p, ixs_stmt *s, int (*tail)(px *p, void *ud), void *ud) {
    ixs_dml_t *d = ixs_dml_parse(p);
    if (!d) return -1;
    int rc = tail ? tail(p, ud) : 0;
    if (!rc) rc = ixs_dml_emit(p, d, s);
    ixs_px_at_cursor(p);
    ixs_dml_free(d);
    return rc || p->failed ? -1 : 0;
}
