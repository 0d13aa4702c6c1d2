/* ixs_collfrom.c: a collection literal as a derived table in FROM,
 * `TABLE(SET{1, 2, 3}) [AS] t(x)`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_parse.h"

#define COLL_LABEL "unnamed_col_1" /* the column of TABLE(SET{...}) without t(x) */

int ixs_collfrom_at(px *p) {
    return px_kw(p, p->i, "table") && px_op(p, p->i + 1, "(") &&
           (px_kw(p, p->i + 2, "set") || px_kw(p, p->i + 2, "multiset") ||
            px_kw(p, p->i + 2, "list")) &&
           px_op(p, p->i + 3, "{");
}

/* TABLE ( {SET | MULTISET | LIST} { expr [, expr ...] } )
 * One row per element, in the order written (a SET keeps each value once).
 * The column has the type of the first element. An empty collection is
 * -201 (its element type is unknown). */
int ixs_collfrom(px *p, qres *q) {
    p->i += 2;
    int set = px_kw(p, p->i, "set");
    p->i++;
    if (px_expect_op(p, "{")) return -1;
    ityp t = {-1, 0};
    int n = 0;
    sb_add(&q->sql, "SELECT * FROM (");
    do {
        xv v;
        memset(&v, 0, sizeof v);
        v.t.code = -1;
        v.pidx = -1;
        if (ixs_expr(p, &v)) {
            xv_free(&v);
            return -1;
        }
        ityp vt = ixs_lit_type(&v);
        if (t.code < 0)
            t = vt;
        else if (ixs_is_char(t.code) && ixs_is_char(vt.code) && vt.len > t.len)
            t.len = vt.len; /* character elements: the longest */
        if (t.code >= 0 && !ixs_is_char(t.code)) ixs_to_type(p, &v, t);
        if (n) sb_add(&q->sql, set ? " UNION " : " UNION ALL ");
        sb_printf(&q->sql, "SELECT %s AS \"" COLL_LABEL "\"", v.s.p ? v.s.p : "NULL");
        xv_free(&v);
        if (p->failed) return -1;
        n++;
    } while (px_acc_op(p, ","));
    if (px_expect_op(p, "}") || px_expect_op(p, ")")) return -1;
    sb_addc(&q->sql, ')');
    if (t.code < 0) t = ixs_t(IX_T_VARCHAR, 255);
    q->cols = calloc(1, sizeof(ocol));
    if (!q->cols || !(q->cols[0].name = strdup(COLL_LABEL))) return px_failc(p, -208, NULL);
    q->ncols = 1;
    q->cols[0].t = t;
    return q->sql.oom ? px_failc(p, -208, NULL) : 0;
}
