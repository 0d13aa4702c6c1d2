/*
 * ixo_result.c: results the driver makes itself (the catalogue functions,
 * SQLGetTypeInfo): rows of text or integer cells, read through the same
 * fetch and conversion paths as a server's rows.
 */
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

ixo_result *ixo_result_new(const ixo_rcol *cols, int ncols) {
    ixo_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->cols = cols;
    r->ncols = ncols;
    return r;
}

void ixo_result_free(ixo_result *r) {
    if (!r) return;
    for (int64_t i = 0; i < r->nrows * r->ncols; i++)
        free(r->cells[i].text);
    free(r->cells);
    free(r);
}

int ixo_result_add(ixo_result *r) {
    if (r->nrows == r->cap) {
        int64_t cap = r->cap ? r->cap * 2 : 16;
        struct ixo_cell *c = realloc(r->cells, (size_t)(cap * r->ncols) * sizeof *c);
        if (!c) return 0;
        r->cells = c;
        r->cap = cap;
    }
    memset(&r->cells[r->nrows * r->ncols], 0, (size_t)r->ncols * sizeof *r->cells);
    r->nrows++;
    return 1;
}

int ixo_result_text(ixo_result *r, int c, const char *text) {
    struct ixo_cell *cell = &r->cells[(r->nrows - 1) * r->ncols + c];
    if (!text) return 1;
    cell->text = strdup(text);
    return cell->text != NULL;
}

void ixo_result_int(ixo_result *r, int c, int64_t v) {
    struct ixo_cell *cell = &r->cells[(r->nrows - 1) * r->ncols + c];
    cell->is_int = 1;
    cell->i = v;
}

void ixo_stmt_set_result(ixo_stmt *s, ixo_result *r) {
    s->res = r;
    free(s->cols);
    s->cols = calloc((size_t)r->ncols, sizeof *s->cols);
    s->ncols = s->cols ? r->ncols : 0;
    for (int i = 0; i < s->ncols; i++) {
        ixo_col *c = &s->cols[i];
        int t = r->cols[i].sqltype;
        c->notnull = !r->cols[i].nullable;
        if (t == SQL_SMALLINT)
            ixo_type_describe(IX_T_SMALLINT, 2, 0, &c->ti);
        else if (t == SQL_INTEGER)
            ixo_type_describe(IX_T_INTEGER, 4, 0, &c->ti);
        else
            ixo_type_describe(IX_T_VARCHAR, IXO_NAME_MAX, 0, &c->ti);
        c->ixtype = t == SQL_SMALLINT  ? IX_T_SMALLINT
                    : t == SQL_INTEGER ? IX_T_INTEGER
                                       : IX_T_VARCHAR;
    }
    s->executed = 1;
}
