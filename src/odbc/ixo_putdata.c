/*
 * ixo_putdata.c: data at execution (SQLParamData, SQLPutData). A parameter
 * whose length/indicator is SQL_DATA_AT_EXEC or SQL_LEN_DATA_AT_EXEC(n)
 * makes SQLExecute / SQLExecDirect answer SQL_NEED_DATA (ixo_dae_begin);
 * SQLParamData then names each such parameter, row by row for a parameter
 * array, SQLPutData appends its pieces here, and the SQLParamData after the
 * last value executes the statement: bind_row (ixo_exec.c) takes each value
 * collected here (ixo_dae_value) in place of the application's buffer. A
 * value is held whole in memory until the execution ends.
 */
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

/* the first allocation of a value; it doubles from there */
#define DAE_FIRST_CAP 256

/* one data-at-execution value being collected */
typedef struct dae_val {
    int param;         /* 0-based */
    SQLULEN row;       /* the row of the parameter array */
    SQLSMALLINT ctype; /* the C type of the pieces, SQL_C_DEFAULT resolved; SQL_C_CHAR
                        * once SQL_C_WCHAR pieces are converted (dae_finish) */
    char *p;           /* the bytes so far (NULL before the first piece); malloc'd, freed
                        * by ixo_dae_free */
    size_t n, cap;
    int pieces; /* SQLPutData calls taken */
    int null;   /* SQL_NULL_DATA was given */
} dae_val;

struct ixo_dae {
    dae_val *v; /* in the order SQLParamData names them; malloc'd, freed by ixo_dae_free */
    int nv;
    int cur;   /* the value SQLParamData named last; -1 before the first */
    int ready; /* every value collected: the execution binds them */
};

void ixo_dae_free(ixo_stmt *s) {
    ixo_dae *d = s->dae;
    if (!d) return;
    for (int i = 0; i < d->nv; i++)
        free(d->v[i].p);
    free(d->v);
    free(d);
    s->dae = NULL;
}

/* the data-at-execution parameters of rows 0..nrows-1 (row by row, each
 * row's in parameter order) into out (NULL: only counted); their number */
static int scan(ixo_stmt *s, SQLULEN nrows, dae_val *out) {
    int np = ix_bind_parameter_count(s->st), k = 0;
    if (np > s->nparams) np = s->nparams;
    for (SQLULEN r = 0; r < nrows; r++)
        for (int i = 0; i < np; i++) {
            const ixo_bind *b = &s->params[i];
            const void *at = b->io ? ixo_param_elem(s, b, r, 1) : NULL;
            SQLLEN ind; /* row-wise arrays may place it unaligned (pyodbc does) */
            if (!at || (memcpy(&ind, at, sizeof ind), !IXO_IS_DAE(ind))) continue;
            if (out) {
                memset(&out[k], 0, sizeof out[k]);
                out[k].param = i;
                out[k].row = r;
                out[k].ctype = b->ctype == SQL_C_DEFAULT ? ixo_default_ctype(b->sqltype) : b->ctype;
            }
            k++;
        }
    return k;
}

SQLRETURN ixo_dae_begin(ixo_stmt *s, SQLULEN nrows) {
    if (s->dae) return s->dae->ready ? SQL_SUCCESS : SQL_NEED_DATA;
    int n = scan(s, nrows, NULL);
    if (n == 0) return SQL_SUCCESS;
    ixo_dae *d = calloc(1, sizeof *d);
    if (d) d->v = malloc((size_t)n * sizeof *d->v);
    if (!d || !d->v) {
        free(d);
        return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    }
    d->nv = scan(s, nrows, d->v);
    d->cur = -1;
    s->dae = d;
    return SQL_NEED_DATA;
}

int ixo_dae_value(const ixo_stmt *s, int param, SQLULEN row, SQLSMALLINT *ctype, const void **buf,
                  SQLLEN *len) {
    const ixo_dae *d = s->dae;
    for (int i = 0; d && d->ready && i < d->nv; i++) {
        const dae_val *v = &d->v[i];
        if (v->param != param || v->row != row) continue;
        *ctype = v->ctype;
        *buf = v->p;
        *len = v->null ? SQL_NULL_DATA : (SQLLEN)v->n;
        return 1;
    }
    return 0;
}

/* room for add more bytes in v, the buffer doubled as often as needed;
 * 0 when out of memory */
static int grow(dae_val *v, size_t add) {
    if (v->p && v->cap - v->n >= add) return 1;
    size_t cap = v->cap ? v->cap : DAE_FIRST_CAP;
    while (cap - v->n < add) {
        if (cap > SIZE_MAX / 2) return 0;
        cap *= 2;
    }
    char *p = realloc(v->p, cap);
    if (!p) return 0;
    v->p = p;
    v->cap = cap;
    return 1;
}

/* SQLPutData may send a value in pieces: character or binary C data for a
 * character or binary SQL type */
static int in_pieces(SQLSMALLINT ctype, SQLSMALLINT sqltype) {
    return (ctype == SQL_C_CHAR || ctype == SQL_C_WCHAR || ctype == SQL_C_BINARY) &&
           ixo_sql_is_chars(sqltype);
}

/* the bytes of one piece of character or binary data: len a length, or
 * SQL_NTS for character data; -1 for a length ODBC does not take */
static SQLLEN piece_len(SQLSMALLINT ctype, const void *p, SQLLEN len) {
    if (len >= 0) return len;
    if (len != SQL_NTS || !p || ctype == SQL_C_BINARY) return -1;
    if (ctype != SQL_C_WCHAR) return (SQLLEN)strlen(p);
    size_t units = 0;
    for (const SQLWCHAR *w = p; w[units]; units++)
        ;
    return (SQLLEN)(units * sizeof(SQLWCHAR));
}

/* one SQLPutData call for value v */
static SQLRETURN put_piece(ixo_stmt *s, dae_val *v, const void *p, SQLLEN len) {
    if (len == SQL_NULL_DATA || v->null) {
        if (v->pieces) return ixo_err(&s->h, "HY020", 0, "Attempt to concatenate a null value");
        v->null = 1;
        v->pieces = 1;
        return SQL_SUCCESS;
    }
    if (len == SQL_DEFAULT_PARAM)
        return ixo_err(&s->h, "07S01", 0, "Invalid use of default parameter");
    size_t fixed = ixo_ctype_size(v->ctype);
    SQLLEN n = fixed ? (SQLLEN)fixed : piece_len(v->ctype, p, len);
    if (v->pieces && (fixed || !in_pieces(v->ctype, s->params[v->param].sqltype)))
        return ixo_err(&s->h, "HY019", 0,
                       "Non-character and non-binary data sent in pieces (parameter %d)",
                       v->param + 1);
    if (n < 0) return ixo_err(&s->h, "HY090", 0, "Invalid string or buffer length");
    if (n > 0 && !p) return ixo_err(&s->h, "HY009", 0, "Invalid use of null pointer");
    if (!grow(v, (size_t)n)) return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    if (n > 0) memcpy(v->p + v->n, p, (size_t)n);
    v->n += (size_t)n;
    v->pieces++;
    return SQL_SUCCESS;
}

/* the collected SQL_C_WCHAR values into UTF-8 (SQL_C_CHAR), now that a
 * surrogate pair split between two pieces is whole */
static SQLRETURN dae_finish(ixo_stmt *s) {
    ixo_dae *d = s->dae;
    for (int i = 0; i < d->nv; i++) {
        dae_val *v = &d->v[i];
        if (v->null || v->ctype != SQL_C_WCHAR) continue;
        if (v->n % sizeof(SQLWCHAR))
            return ixo_err(&s->h, "22026", 0,
                           "String data, length mismatch: %zu bytes of SQL_C_WCHAR data for "
                           "parameter %d",
                           v->n, v->param + 1);
        char *u;
        size_t k;
        int r = ixo_utf16_dup((const SQLWCHAR *)v->p, v->n / sizeof(SQLWCHAR), &u, &k);
        if (r == IXO_U16_NOMEM) return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
        if (r == IXO_U16_BADCHAR)
            return ixo_err(&s->h, "22018", 0, "Invalid UTF-16 text for parameter %d", v->param + 1);
        free(v->p);
        v->p = u;
        v->n = v->cap = k;
        v->ctype = SQL_C_CHAR;
    }
    d->ready = 1;
    return SQL_SUCCESS;
}

static SQLRETURN sequence_error(ixo_head *h) {
    return ixo_err(h, "HY010", 0, "Function sequence error");
}

SQLRETURN ixo_dae_busy_err(ixo_head *h) {
    return ixo_err(h, "HY010", 0, "Function sequence error: data at execution is under way");
}

SQLRETURN SQL_API SQLParamData(SQLHSTMT hstmt, SQLPOINTER *prgbValue) {
    IXO_ENTER_STMT_ANY(hstmt); /* no HY010 for data at execution */
    ixo_dae *d = s->dae;
    /* nothing to give, or no SQLPutData since the last SQLParamData: the
     * statement keeps waiting (as the driver manager's own HY010) */
    if (!d || d->ready || (d->cur >= 0 && d->v[d->cur].pieces == 0))
        return ixo_leave(h, sequence_error(h));
    if (d->cur + 1 < d->nv) {
        const dae_val *v = &d->v[++d->cur];
        if (prgbValue) *prgbValue = ixo_param_elem(s, &s->params[v->param], v->row, 0);
        if (s->params_processed) *s->params_processed = v->row + 1;
        return ixo_leave(h, SQL_NEED_DATA);
    }
    SQLRETURN rc = dae_finish(s);
    if (rc == SQL_ERROR) {
        ixo_stmt_close(s); /* an error ends the need-data state */
        return ixo_leave(h, rc);
    }
    rc = ixo_stmt_run(s);
    ixo_dae_free(s);
    return ixo_leave(h, rc);
}

SQLRETURN SQL_API SQLPutData(SQLHSTMT hstmt, SQLPOINTER rgbValue, SQLLEN cbValue) {
    IXO_ENTER_STMT_ANY(hstmt); /* no HY010 for data at execution */
    ixo_dae *d = s->dae;
    if (!d || d->ready || d->cur < 0) return ixo_leave(h, sequence_error(h));
    SQLRETURN rc = put_piece(s, &d->v[d->cur], rgbValue, cbValue);
    if (rc == SQL_ERROR) ixo_stmt_close(s); /* an error ends the need-data state */
    return ixo_leave(h, rc);
}
