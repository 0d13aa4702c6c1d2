/*
 * ixo_desc.c: descriptors. A statement's four descriptors are views of what
 * it already keeps: the ARD is its column bindings (ixo_stmt.bound, the
 * array SQLBindCol fills and SQLFetch plans from) and the row attributes,
 * the APD and IPD the two sides of its parameter bindings
 * (ixo_stmt.params), the IRD its describe (ixo_col, answered by
 * ixo_col_field as SQLColAttribute answers it). An explicit descriptor
 * (SQLAllocHandle(SQL_HANDLE_DESC)) owns its records and header (ixo_app);
 * a statement using it as its ARD or APD points its binding fields at the
 * descriptor's records (the implicit ones kept aside in ixo_stmt.imp), and
 * every change, through the descriptor or through any statement using it,
 * reaches all of them (ixo_app_sync), so the records exist once.
 */
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

#define NUMERIC_MAX_PREC 38 /* the digits an SQL_NUMERIC_STRUCT holds */
#define NUMERIC_DEF_PREC 32 /* Informix's largest DECIMAL: the default C precision */
#define IV_LEAD_PREC     9  /* the leading precision parameters are bound at */

/* ---- the statement's fields as an ixo_app ---- */

static void app_get(const ixo_stmt *s, int w, ixo_app *a) {
    if (w == IXO_ARD)
        *a = (ixo_app){s->bound,         s->nbound,          s->row_array_size,
                       s->row_bind_type, s->row_bind_offset, s->row_op};
    else
        *a = (ixo_app){s->params,          s->nparams,           s->paramset_size,
                       s->param_bind_type, s->param_bind_offset, s->param_op};
}

static void app_put(ixo_stmt *s, int w, const ixo_app *a) {
    if (w == IXO_ARD) {
        s->bound = a->rec;
        s->nbound = a->n;
        s->row_array_size = a->array_size;
        s->row_bind_type = a->bind_type;
        s->row_bind_offset = a->bind_offset;
        s->row_op = a->op;
    } else {
        s->params = a->rec;
        s->nparams = a->n;
        s->paramset_size = a->array_size;
        s->param_bind_type = a->bind_type;
        s->param_bind_offset = a->bind_offset;
        s->param_op = a->op;
    }
}

/* explicit descriptor d's records and header into every statement using it */
static void app_spread(ixo_desc *d) {
    for (ixo_stmt *t = d->dbc->stmts; t; t = t->next)
        for (int w = IXO_ARD; w <= IXO_APD; w++)
            if (t->app[w] == d) app_put(t, w, &d->app);
}

void ixo_app_sync(ixo_stmt *s, int w) {
    ixo_desc *d = s->app[w];
    if (!d) return;
    app_get(s, w, &d->app);
    app_spread(d);
}

ixo_desc *ixo_desc_of(ixo_stmt *s, int w) {
    return s->app[w] ? s->app[w] : &s->desc[w];
}

/* s goes back to its implicit descriptor w */
static void detach(ixo_stmt *s, int w) {
    if (!s->app[w]) return;
    app_put(s, w, &s->imp[w]);
    s->app[w] = NULL;
}

void ixo_stmt_detach(ixo_stmt *s) {
    detach(s, IXO_ARD);
    detach(s, IXO_APD);
}

SQLRETURN ixo_desc_attach(ixo_stmt *s, int w, SQLPOINTER v) {
    ixo_desc *d = v;
    if (!d || d == &s->desc[w]) {
        detach(s, w);
        return SQL_SUCCESS;
    }
    ixo_desc *x = s->dbc->descs;
    while (x && x != d)
        x = x->next;
    if (!x) {
        if (d->h.kind == SQL_HANDLE_DESC && d->stmt)
            return ixo_err(&s->h, "HY017", 0,
                           "Invalid use of an automatically allocated descriptor handle");
        return ixo_err(&s->h, "HY024", 0, "Invalid attribute value (no descriptor)");
    }
    if (!s->app[w]) app_get(s, w, &s->imp[w]);
    s->app[w] = d;
    app_put(s, w, &d->app);
    return SQL_SUCCESS;
}

SQLRETURN ixo_desc_alloc(ixo_dbc *dbc, SQLHANDLE *out) {
    ixo_desc *d = calloc(1, sizeof *d);
    if (!d) return ixo_err(&dbc->h, "HY001", 0, "Memory allocation error");
    ixo_head_init(&d->h, SQL_HANDLE_DESC);
    d->h.lk = dbc->h.lk;
    d->dbc = dbc; /* which stays unread: d->stmt is NULL */
    d->app.array_size = 1;
    d->next = dbc->descs;
    dbc->descs = d;
    *out = d;
    return SQL_SUCCESS;
}

SQLRETURN ixo_desc_free(ixo_desc *d) {
    if (d->stmt)
        return ixo_err(&d->h, "HY017", 0, "Invalid use of an automatically allocated descriptor");
    for (ixo_stmt *t = d->dbc->stmts; t; t = t->next)
        for (int w = IXO_ARD; w <= IXO_APD; w++)
            if (t->app[w] == d) detach(t, w);
    for (ixo_desc **p = &d->dbc->descs; *p; p = &(*p)->next)
        if (*p == d) {
            *p = d->next;
            break;
        }
    free(d->app.rec);
    d->h.kind = 0;
    free(d->h.diag);
    free(d);
    return SQL_SUCCESS;
}

/* ---- views: a descriptor's records and header, read and written ---- */

typedef struct dview {
    ixo_desc *d;
    ixo_stmt *s; /* the implicit descriptor's statement, or NULL */
    int kind;    /* IXO_ARD ...; an explicit descriptor is an application one (IXO_ARD) */
    ixo_app a;
} dview;

/* the statement's fields an implicit descriptor view v (not the IRD) reads:
 * the ARD's, or the parameters' (APD and IPD) */
static int view_fields(const dview *v) {
    return v->kind == IXO_ARD ? IXO_ARD : IXO_APD;
}

/* an implicit ARD or APD not in use (an explicit one is): its records kept
 * aside in the statement; NULL otherwise */
static ixo_app *view_aside(const dview *v) {
    int w = view_fields(v);
    return v->kind != IXO_IPD && v->s->app[w] ? &v->s->imp[w] : NULL;
}

static void view_open(ixo_desc *d, dview *v) {
    v->d = d;
    v->s = d->stmt;
    v->kind = d->stmt ? d->which : IXO_ARD;
    memset(&v->a, 0, sizeof v->a);
    if (!v->s)
        v->a = d->app;
    else if (v->kind != IXO_IRD) {
        const ixo_app *aside = view_aside(v);
        if (aside)
            v->a = *aside;
        else
            app_get(v->s, view_fields(v), &v->a);
    }
}

static void view_commit(dview *v) {
    if (!v->s) {
        v->d->app = v->a;
        app_spread(v->d);
        return;
    }
    if (v->kind == IXO_IRD) return;
    ixo_app *aside = view_aside(v);
    if (aside) {
        *aside = v->a;
        return;
    }
    app_put(v->s, view_fields(v), &v->a);
    ixo_app_sync(v->s, view_fields(v));
}

static int is_app(const dview *v) {
    return v->kind == IXO_ARD || v->kind == IXO_APD;
}

/* record rec (1-based) of v, the records grown to it; NULL when out of
 * memory */
static ixo_bind *view_rec(dview *v, int rec) {
    if (rec > v->a.n) {
        ixo_bind *r = realloc(v->a.rec, (size_t)rec * sizeof *r);
        if (!r) return NULL;
        memset(r + v->a.n, 0, (size_t)(rec - v->a.n) * sizeof *r);
        for (int i = v->a.n; i < rec; i++) {
            r[i].ctype = SQL_C_DEFAULT; /* ODBC's defaults of a new record */
            r[i].io = SQL_PARAM_INPUT;  /* a parameter's (an ARD does not read it) */
        }
        v->a.rec = r;
        v->a.n = rec;
    }
    return &v->a.rec[rec - 1];
}

/* ---- types: the concise type, the verbose one and the interval code ---- */

static SQLSMALLINT verbose_type(SQLSMALLINT t) {
    return t >= SQL_TYPE_DATE && t <= SQL_TYPE_TIMESTAMP                  ? SQL_DATETIME
           : t >= SQL_INTERVAL_YEAR && t <= SQL_INTERVAL_MINUTE_TO_SECOND ? SQL_INTERVAL
                                                                          : t;
}

static SQLSMALLINT dt_code(SQLSMALLINT t) {
    if (t >= SQL_TYPE_DATE && t <= SQL_TYPE_TIMESTAMP) return t - SQL_TYPE_DATE + SQL_CODE_DATE;
    if (t >= SQL_INTERVAL_YEAR && t <= SQL_INTERVAL_MINUTE_TO_SECOND)
        return t - SQL_INTERVAL_YEAR + SQL_CODE_YEAR;
    return 0;
}

static int is_numeric_sql(SQLSMALLINT t) {
    switch (t) {
    case SQL_DECIMAL:
    case SQL_NUMERIC:
    case SQL_SMALLINT:
    case SQL_INTEGER:
    case SQL_BIGINT:
    case SQL_TINYINT:
    case SQL_REAL:
    case SQL_FLOAT:
    case SQL_DOUBLE:
    case SQL_BIT: return 1;
    default: return 0;
    }
}

static int valid_ctype(SQLSMALLINT t) {
    switch (t) {
    case SQL_C_CHAR:
    case SQL_C_WCHAR:
    case SQL_C_BINARY:
    case SQL_C_BIT:
    case SQL_C_STINYINT:
    case SQL_C_UTINYINT:
    case SQL_C_TINYINT:
    case SQL_C_SSHORT:
    case SQL_C_USHORT:
    case SQL_C_SHORT:
    case SQL_C_SLONG:
    case SQL_C_ULONG:
    case SQL_C_LONG:
    case SQL_C_SBIGINT:
    case SQL_C_UBIGINT:
    case SQL_C_FLOAT:
    case SQL_C_DOUBLE:
    case SQL_C_NUMERIC:
    case SQL_C_DEFAULT: return 1;
    default: return dt_code(t) != 0;
    }
}

static int valid_sqltype(SQLSMALLINT t) {
    return ixo_sql_is_chars(t) || is_numeric_sql(t) || dt_code(t) != 0;
}

/* The consistency check (ODBC's SQLSetDescField, "Consistency Checks") of
 * an application record (C type) or an IPD record (SQL type): 0 when
 * consistent. */
static int inconsistent(const dview *v, const ixo_bind *b) {
    if (is_app(v)) {
        if (!valid_ctype(b->ctype)) return 1;
        return b->ctype == SQL_C_NUMERIC &&
               (b->prec < 1 || b->prec > NUMERIC_MAX_PREC || b->scale < 0 || b->scale > b->prec);
    }
    if (!valid_sqltype(b->sqltype)) return 1;
    return (b->sqltype == SQL_DECIMAL || b->sqltype == SQL_NUMERIC) &&
           (b->size < 1 || b->digits < 0 || (SQLULEN)b->digits > b->size);
}

/* a new type of record b (concise, or SQL_DATETIME / SQL_INTERVAL waiting
 * for its code), the fields ODBC resets with it reset */
static void set_type(const dview *v, ixo_bind *b, SQLSMALLINT t) {
    if (is_app(v)) {
        b->ctype = t;
        b->prec = t == SQL_C_NUMERIC ? NUMERIC_DEF_PREC : 0;
        b->scale = 0;
        b->ivprec = verbose_type(t) == SQL_INTERVAL ? 2 : 0; /* ODBC's default */
    } else {
        b->sqltype = t;
        b->digits = 0;
        if (t == SQL_CHAR || t == SQL_VARCHAR || t == SQL_WCHAR || t == SQL_WVARCHAR) b->size = 1;
        if (t == SQL_DECIMAL || t == SQL_NUMERIC) b->size = NUMERIC_DEF_PREC;
    }
}

/* ---- fields: their C types ---- */

enum { FK_NONE, FK_SMALL, FK_INT, FK_LEN, FK_ULEN, FK_PTR, FK_STR };

static int field_kind(SQLSMALLINT f) {
    switch (f) {
    case SQL_DESC_ALLOC_TYPE:
    case SQL_DESC_COUNT:
    case SQL_DESC_CONCISE_TYPE:
    case SQL_DESC_TYPE:
    case SQL_DESC_DATETIME_INTERVAL_CODE:
    case SQL_DESC_FIXED_PREC_SCALE:
    case SQL_DESC_NULLABLE:
    case SQL_DESC_PARAMETER_TYPE:
    case SQL_DESC_PRECISION:
    case SQL_DESC_SCALE:
    case SQL_DESC_ROWVER:
    case SQL_DESC_SEARCHABLE:
    case SQL_DESC_UNNAMED:
    case SQL_DESC_UNSIGNED:
    case SQL_DESC_UPDATABLE:
    case SQL_DESC_CASE_SENSITIVE: return FK_SMALL;
    case SQL_DESC_AUTO_UNIQUE_VALUE:
    case SQL_DESC_BIND_TYPE:
    case SQL_DESC_DATETIME_INTERVAL_PRECISION:
    case SQL_DESC_NUM_PREC_RADIX: return FK_INT;
    case SQL_DESC_DISPLAY_SIZE:
    case SQL_DESC_OCTET_LENGTH: return FK_LEN;
    case SQL_DESC_ARRAY_SIZE:
    case SQL_DESC_LENGTH: return FK_ULEN;
    case SQL_DESC_ARRAY_STATUS_PTR:
    case SQL_DESC_BIND_OFFSET_PTR:
    case SQL_DESC_ROWS_PROCESSED_PTR:
    case SQL_DESC_DATA_PTR:
    case SQL_DESC_INDICATOR_PTR:
    case SQL_DESC_OCTET_LENGTH_PTR: return FK_PTR;
    case SQL_DESC_NAME:
    case SQL_DESC_TYPE_NAME:
    case SQL_DESC_LABEL:
    case SQL_DESC_BASE_COLUMN_NAME:
    case SQL_DESC_BASE_TABLE_NAME:
    case SQL_DESC_CATALOG_NAME:
    case SQL_DESC_SCHEMA_NAME:
    case SQL_DESC_TABLE_NAME:
    case SQL_DESC_LITERAL_PREFIX:
    case SQL_DESC_LITERAL_SUFFIX:
    case SQL_DESC_LOCAL_TYPE_NAME: return FK_STR;
    default: return FK_NONE;
    }
}

int ixo_desc_field_is_text(SQLSMALLINT f) {
    return field_kind(f) == FK_STR;
}

static int is_header(SQLSMALLINT f) {
    return f == SQL_DESC_ALLOC_TYPE || f == SQL_DESC_ARRAY_SIZE || f == SQL_DESC_ARRAY_STATUS_PTR ||
           f == SQL_DESC_BIND_OFFSET_PTR || f == SQL_DESC_BIND_TYPE || f == SQL_DESC_COUNT ||
           f == SQL_DESC_ROWS_PROCESSED_PTR;
}

/* a field's value: a number, a pointer or a string */
typedef struct fval {
    SQLLEN num;
    void *ptr;
    const char *str;
} fval;

/* ---- reading ---- */

/* the records of v: the IRD's are the described columns */
static int view_count(dview *v) {
    if (v->kind != IXO_IRD) return v->a.n;
    return ixo_describe(v->s) == SQL_ERROR ? 0 : v->s->ncols;
}

/* header field f of v; 0, or -1 when v has no such field */
static int header_get(dview *v, SQLSMALLINT f, fval *o) {
    ixo_stmt *s = v->s;
    int app = is_app(v);
    switch (f) {
    case SQL_DESC_ALLOC_TYPE: o->num = s ? SQL_DESC_ALLOC_AUTO : SQL_DESC_ALLOC_USER; return 0;
    case SQL_DESC_COUNT: o->num = view_count(v); return 0;
    case SQL_DESC_ARRAY_SIZE: o->num = (SQLLEN)v->a.array_size; return app ? 0 : -1;
    case SQL_DESC_BIND_TYPE: o->num = (SQLLEN)v->a.bind_type; return app ? 0 : -1;
    case SQL_DESC_BIND_OFFSET_PTR: o->ptr = v->a.bind_offset; return app ? 0 : -1;
    case SQL_DESC_ARRAY_STATUS_PTR:
        o->ptr = app                  ? (void *)v->a.op
                 : v->kind == IXO_IRD ? (void *)s->row_status
                                      : (void *)s->param_status;
        return 0;
    case SQL_DESC_ROWS_PROCESSED_PTR:
        o->ptr = v->kind == IXO_IRD ? (void *)s->rows_fetched : (void *)s->params_processed;
        return app ? -1 : 0;
    default: return -1;
    }
}

/* field f of an application record */
static int app_rec_get(const ixo_bind *b, SQLSMALLINT f, fval *o) {
    switch (f) {
    case SQL_DESC_TYPE: o->num = verbose_type(b->ctype); return 0;
    case SQL_DESC_CONCISE_TYPE: o->num = b->ctype; return 0;
    case SQL_DESC_DATETIME_INTERVAL_CODE: o->num = dt_code(b->ctype); return 0;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION: o->num = b->ivprec; return 0;
    case SQL_DESC_DATA_PTR: o->ptr = b->buf; return 0;
    case SQL_DESC_INDICATOR_PTR: o->ptr = b->ind_ptr; return 0;
    case SQL_DESC_OCTET_LENGTH_PTR: o->ptr = b->oct_ptr; return 0;
    case SQL_DESC_LENGTH:
    case SQL_DESC_OCTET_LENGTH: o->num = b->buflen; return 0;
    case SQL_DESC_PRECISION: o->num = b->prec; return 0;
    case SQL_DESC_SCALE: o->num = b->scale; return 0;
    case SQL_DESC_NUM_PREC_RADIX: o->num = b->ctype == SQL_C_NUMERIC ? 10 : 0; return 0;
    default: return -1;
    }
}

/* field f of an IPD record */
static int ipd_rec_get(const ixo_bind *b, SQLSMALLINT f, fval *o) {
    int num = is_numeric_sql(b->sqltype);
    switch (f) {
    case SQL_DESC_TYPE: o->num = verbose_type(b->sqltype); return 0;
    case SQL_DESC_CONCISE_TYPE: o->num = b->sqltype; return 0;
    case SQL_DESC_DATETIME_INTERVAL_CODE: o->num = dt_code(b->sqltype); return 0;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION:
        o->num = verbose_type(b->sqltype) == SQL_INTERVAL ? IV_LEAD_PREC : 0;
        return 0;
    case SQL_DESC_LENGTH:
    case SQL_DESC_OCTET_LENGTH: o->num = (SQLLEN)b->size; return 0;
    case SQL_DESC_PRECISION: o->num = num ? (SQLLEN)b->size : b->digits; return 0;
    case SQL_DESC_SCALE: o->num = num ? b->digits : 0; return 0;
    case SQL_DESC_PARAMETER_TYPE: o->num = b->io; return 0;
    case SQL_DESC_NULLABLE: o->num = SQL_NULLABLE; return 0;
    case SQL_DESC_UNNAMED: o->num = SQL_UNNAMED; return 0;
    case SQL_DESC_NAME: o->str = ""; return 0;
    case SQL_DESC_DATA_PTR: o->ptr = NULL; return 0;
    case SQL_DESC_NUM_PREC_RADIX: o->num = num ? 10 : 0; return 0;
    default: return -1;
    }
}

/* field f of record rec (1 .. count) of v */
static int rec_get(dview *v, int rec, SQLSMALLINT f, fval *o) {
    if (v->kind == IXO_IRD) return ixo_col_field(v->s, rec - 1, f, &o->str, &o->num);
    const ixo_bind *b = &v->a.rec[rec - 1];
    return v->kind == IXO_IPD ? ipd_rec_get(b, f, o) : app_rec_get(b, f, o);
}

/* field f of record rec of the descriptor (header fields: any rec) into
 * *o: SQL_SUCCESS, SQL_NO_DATA (no such record), or SQL_ERROR with a
 * record on the descriptor */
static SQLRETURN get_field(dview *v, SQLSMALLINT rec, SQLSMALLINT f, fval *o) {
    memset(o, 0, sizeof *o);
    if (field_kind(f) == FK_NONE)
        return ixo_err(&v->d->h, "HY091", 0, "Invalid descriptor field identifier %d", f);
    if (is_header(f)) {
        if (header_get(v, f, o) < 0)
            return ixo_err(&v->d->h, "HY091", 0, "Field %d is not one of this descriptor's", f);
        return SQL_SUCCESS;
    }
    if (rec < 0) return ixo_err(&v->d->h, "07009", 0, "Invalid descriptor index %d", rec);
    if (rec == 0) return ixo_err(&v->d->h, "07009", 0, "Invalid descriptor index 0 (no bookmarks)");
    if (rec > view_count(v)) return SQL_NO_DATA;
    if (rec_get(v, rec, f, o) < 0)
        return ixo_err(&v->d->h, "HY091", 0, "Field %d is not one of this descriptor's", f);
    return SQL_SUCCESS;
}

/* *o into the application's Value as field f's C type */
static SQLRETURN put_value(ixo_desc *d, SQLSMALLINT f, const fval *o, SQLPOINTER Value,
                           SQLINTEGER BufferLength, SQLINTEGER *StringLength) {
    switch (field_kind(f)) {
    case FK_STR:
        if (ixo_str_out(o->str ? o->str : "", Value, BufferLength, NULL, StringLength) && Value)
            return ixo_warn(&d->h, "01004", "String data, right truncated");
        return SQL_SUCCESS;
    case FK_PTR:
        if (Value) *(SQLPOINTER *)Value = o->ptr;
        if (StringLength) *StringLength = sizeof(SQLPOINTER);
        return SQL_SUCCESS;
    case FK_SMALL:
        if (Value) *(SQLSMALLINT *)Value = (SQLSMALLINT)o->num;
        if (StringLength) *StringLength = sizeof(SQLSMALLINT);
        return SQL_SUCCESS;
    case FK_INT:
        if (Value) *(SQLINTEGER *)Value = (SQLINTEGER)o->num;
        if (StringLength) *StringLength = sizeof(SQLINTEGER);
        return SQL_SUCCESS;
    default: /* FK_LEN, FK_ULEN: the same size */
        if (Value) *(SQLLEN *)Value = o->num;
        if (StringLength) *StringLength = sizeof(SQLLEN);
        return SQL_SUCCESS;
    }
}

#define ENTER_DESC(hd)                                                                             \
    ixo_head *h = ixo_enter(hd, SQL_HANDLE_DESC);                                                  \
    if (!h) return SQL_INVALID_HANDLE;                                                             \
    ixo_desc *d = (ixo_desc *)h;                                                                   \
    dview v;                                                                                       \
    view_open(d, &v)

SQLRETURN SQL_API SQLGetDescField(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber,
                                  SQLSMALLINT FieldIdentifier, SQLPOINTER Value,
                                  SQLINTEGER BufferLength, SQLINTEGER *StringLength) {
    ENTER_DESC(DescriptorHandle);
    fval o;
    SQLRETURN rc = get_field(&v, RecNumber, FieldIdentifier, &o);
    if (rc != SQL_SUCCESS) return ixo_leave(h, rc);
    return ixo_leave(h, put_value(d, FieldIdentifier, &o, Value, BufferLength, StringLength));
}

SQLRETURN SQL_API SQLGetDescRec(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber, SQLCHAR *Name,
                                SQLSMALLINT BufferLength, SQLSMALLINT *StringLength,
                                SQLSMALLINT *Type, SQLSMALLINT *SubType, SQLLEN *Length,
                                SQLSMALLINT *Precision, SQLSMALLINT *Scale, SQLSMALLINT *Nullable) {
    ENTER_DESC(DescriptorHandle);
    static const SQLSMALLINT fields[] = {SQL_DESC_TYPE,         SQL_DESC_DATETIME_INTERVAL_CODE,
                                         SQL_DESC_OCTET_LENGTH, SQL_DESC_PRECISION,
                                         SQL_DESC_SCALE,        SQL_DESC_NULLABLE};
    SQLSMALLINT *small[] = {Type, SubType, NULL, Precision, Scale, Nullable};
    fval o;
    SQLRETURN rc = get_field(&v, RecNumber, SQL_DESC_CONCISE_TYPE, &o); /* the record exists */
    for (size_t i = 0; rc == SQL_SUCCESS && i < sizeof fields / sizeof *fields; i++) {
        rc = get_field(&v, RecNumber, fields[i], &o);
        if (rc == SQL_ERROR) { /* a field the descriptor lacks (NULLABLE of an ARD): 0 */
            h->ndiag = 0;
            rc = SQL_SUCCESS;
            o.num = 0;
        }
        if (small[i]) *small[i] = (SQLSMALLINT)o.num;
        if (i == 2 && Length) *Length = o.num;
    }
    if (rc != SQL_SUCCESS) return ixo_leave(h, rc);
    const char *name = "";
    if (v.kind == IXO_IRD || v.kind == IXO_IPD) {
        rc = get_field(&v, RecNumber, SQL_DESC_NAME, &o);
        if (rc == SQL_SUCCESS && o.str) name = o.str;
    }
    rc = SQL_SUCCESS;
    if (ixo_str_out(name, Name, BufferLength, StringLength, NULL) && Name)
        rc = ixo_warn(h, "01004", "String data, right truncated");
    return ixo_leave(h, rc);
}

/* ---- writing ---- */

static SQLRETURN err(dview *v, const char *state, const char *msg, int f) {
    return ixo_err(&v->d->h, state, 0, "%s (field %d)", msg, f);
}

/* header field f of v from x */
static SQLRETURN header_set(dview *v, SQLSMALLINT f, const fval *x) {
    ixo_stmt *s = v->s;
    int app = is_app(v);
    if (v->kind == IXO_IRD && f != SQL_DESC_ARRAY_STATUS_PTR && f != SQL_DESC_ROWS_PROCESSED_PTR)
        return err(v, "HY016", "Cannot modify an implementation row descriptor", f);
    switch (f) {
    case SQL_DESC_COUNT:
        if (x->num < 0 || x->num > INT16_MAX) return err(v, "07009", "Invalid descriptor index", f);
        if (x->num > v->a.n && !view_rec(v, (int)x->num))
            return ixo_err(&v->d->h, "HY001", 0, "Memory allocation error");
        v->a.n = (int)x->num;
        return SQL_SUCCESS;
    case SQL_DESC_ARRAY_SIZE:
        if (!app) break;
        if (x->num <= 0) return err(v, "HY024", "Invalid attribute value", f);
        v->a.array_size = (SQLULEN)x->num;
        return SQL_SUCCESS;
    case SQL_DESC_BIND_TYPE:
        if (!app) break;
        v->a.bind_type = (SQLULEN)x->num;
        return SQL_SUCCESS;
    case SQL_DESC_BIND_OFFSET_PTR:
        if (!app) break;
        v->a.bind_offset = x->ptr;
        return SQL_SUCCESS;
    case SQL_DESC_ARRAY_STATUS_PTR:
        if (app)
            v->a.op = x->ptr;
        else if (v->kind == IXO_IRD)
            s->row_status = x->ptr;
        else
            s->param_status = x->ptr;
        return SQL_SUCCESS;
    case SQL_DESC_ROWS_PROCESSED_PTR:
        if (app) break;
        if (v->kind == IXO_IRD)
            s->rows_fetched = x->ptr;
        else
            s->params_processed = x->ptr;
        return SQL_SUCCESS;
    default: break; /* SQL_DESC_ALLOC_TYPE is read-only */
    }
    return err(v, "HY091", "Invalid descriptor field identifier", f);
}

/* concise type *t given its interval code (its verbose type SQL_DATETIME
 * or SQL_INTERVAL); 0 when they form no type */
static int with_code(SQLSMALLINT *t, SQLLEN code) {
    SQLSMALLINT vt = *t == SQL_DATETIME || *t == SQL_INTERVAL ? *t : verbose_type(*t);
    if (vt == SQL_DATETIME && code >= SQL_CODE_DATE && code <= SQL_CODE_TIMESTAMP)
        *t = (SQLSMALLINT)(SQL_TYPE_DATE + code - SQL_CODE_DATE);
    else if (vt == SQL_INTERVAL && code >= SQL_CODE_YEAR && code <= SQL_CODE_MINUTE_TO_SECOND)
        *t = (SQLSMALLINT)(SQL_INTERVAL_YEAR + code - SQL_CODE_YEAR);
    else
        return 0;
    return 1;
}

/* field f of application record b from x; raw (SQLCopyDesc): no
 * consistency check and the record stays bound */
static SQLRETURN app_rec_set(dview *v, ixo_bind *b, SQLSMALLINT f, const fval *x, int raw) {
    SQLSMALLINT n = (SQLSMALLINT)x->num;
    switch (f) {
    case SQL_DESC_DATA_PTR:
        b->buf = x->ptr;
        if (!raw && b->buf && inconsistent(v, b)) {
            b->buf = NULL;
            return err(v, "HY021", "Inconsistent descriptor information", f);
        }
        return SQL_SUCCESS;
    case SQL_DESC_INDICATOR_PTR: b->ind_ptr = x->ptr; break;
    case SQL_DESC_OCTET_LENGTH_PTR: b->oct_ptr = x->ptr; break;
    case SQL_DESC_TYPE:
    case SQL_DESC_CONCISE_TYPE: set_type(v, b, n); break;
    case SQL_DESC_DATETIME_INTERVAL_CODE:
        if (!with_code(&b->ctype, x->num))
            return err(v, "HY021", "Inconsistent descriptor information", f);
        break;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION: b->ivprec = (SQLINTEGER)x->num; break;
    case SQL_DESC_LENGTH:
    case SQL_DESC_OCTET_LENGTH: b->buflen = x->num; break;
    case SQL_DESC_PRECISION: b->prec = n; break;
    case SQL_DESC_SCALE: b->scale = n; break;
    case SQL_DESC_NUM_PREC_RADIX: break;
    default: return err(v, "HY091", "Invalid descriptor field identifier", f);
    }
    b->ind = b->ind_ptr ? b->ind_ptr : b->oct_ptr;
    if (!raw && f != SQL_DESC_INDICATOR_PTR && f != SQL_DESC_OCTET_LENGTH_PTR)
        b->buf = NULL; /* any other field unbinds the record */
    return SQL_SUCCESS;
}

/* field f of IPD record b from x */
static SQLRETURN ipd_rec_set(dview *v, ixo_bind *b, SQLSMALLINT f, const fval *x, int raw) {
    SQLSMALLINT n = (SQLSMALLINT)x->num;
    switch (f) {
    case SQL_DESC_DATA_PTR: /* not kept: a consistency check */
        if (!raw && x->ptr && inconsistent(v, b))
            return err(v, "HY021", "Inconsistent descriptor information", f);
        return SQL_SUCCESS;
    case SQL_DESC_TYPE:
    case SQL_DESC_CONCISE_TYPE: set_type(v, b, n); return SQL_SUCCESS;
    case SQL_DESC_DATETIME_INTERVAL_CODE:
        if (!with_code(&b->sqltype, x->num))
            return err(v, "HY021", "Inconsistent descriptor information", f);
        return SQL_SUCCESS;
    case SQL_DESC_LENGTH:
    case SQL_DESC_OCTET_LENGTH: b->size = (SQLULEN)x->num; return SQL_SUCCESS;
    case SQL_DESC_PRECISION:
        if (is_numeric_sql(b->sqltype))
            b->size = (SQLULEN)x->num;
        else
            b->digits = n;
        return SQL_SUCCESS;
    case SQL_DESC_SCALE:
        if (is_numeric_sql(b->sqltype)) b->digits = n;
        return SQL_SUCCESS;
    case SQL_DESC_PARAMETER_TYPE:
        if (n != SQL_PARAM_INPUT)
            return ixo_err(&v->d->h, "HYC00", 0, "Only input parameters are implemented");
        b->io = n;
        return SQL_SUCCESS;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION:
    case SQL_DESC_NUM_PREC_RADIX: return SQL_SUCCESS; /* intervals go at leading precision 9 */
    case SQL_DESC_UNNAMED:
        if (n == SQL_UNNAMED) return SQL_SUCCESS;
        /* fall through */
    case SQL_DESC_NAME:
        return ixo_err(&v->d->h, "HYC00", 0, "Named parameters are not implemented");
    default: return err(v, "HY091", "Invalid descriptor field identifier", f);
    }
}

/* field f of record or header of v from x; the view is committed by the
 * caller */
static SQLRETURN set_field(dview *v, SQLSMALLINT rec, SQLSMALLINT f, const fval *x, int raw) {
    if (field_kind(f) == FK_NONE) return err(v, "HY091", "Invalid descriptor field identifier", f);
    if (is_header(f)) return header_set(v, f, x);
    if (v->kind == IXO_IRD)
        return err(v, "HY016", "Cannot modify an implementation row descriptor", f);
    if (rec <= 0)
        return ixo_err(&v->d->h, "07009", 0, "Invalid descriptor index %d (no bookmarks)", rec);
    ixo_bind *b = view_rec(v, rec);
    if (!b) return ixo_err(&v->d->h, "HY001", 0, "Memory allocation error");
    return v->kind == IXO_IPD ? ipd_rec_set(v, b, f, x, raw) : app_rec_set(v, b, f, x, raw);
}

/* the application's Value as field f's value */
static fval value_in(SQLSMALLINT f, SQLPOINTER Value) {
    fval x = {0, NULL, NULL};
    if (field_kind(f) == FK_PTR)
        x.ptr = Value;
    else if (field_kind(f) == FK_STR)
        x.str = Value;
    else
        x.num = (SQLLEN)(intptr_t)Value;
    return x;
}

SQLRETURN SQL_API SQLSetDescField(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber,
                                  SQLSMALLINT FieldIdentifier, SQLPOINTER Value,
                                  SQLINTEGER BufferLength) {
    (void)BufferLength;
    ENTER_DESC(DescriptorHandle);
    fval x = value_in(FieldIdentifier, Value);
    SQLRETURN rc = set_field(&v, RecNumber, FieldIdentifier, &x, 0);
    view_commit(&v); /* a record made before a failure stays, as the count says */
    return ixo_leave(h, rc);
}

SQLRETURN SQL_API SQLSetDescRec(SQLHDESC DescriptorHandle, SQLSMALLINT RecNumber, SQLSMALLINT Type,
                                SQLSMALLINT SubType, SQLLEN Length, SQLSMALLINT Precision,
                                SQLSMALLINT Scale, SQLPOINTER Data, SQLLEN *StringLength,
                                SQLLEN *Indicator) {
    ENTER_DESC(DescriptorHandle);
    (void)d;
    struct {
        SQLSMALLINT f;
        fval x;
    } set[] = {
        {SQL_DESC_TYPE, {Type, NULL, NULL}},
        {SQL_DESC_DATETIME_INTERVAL_CODE, {SubType, NULL, NULL}},
        {SQL_DESC_OCTET_LENGTH, {Length, NULL, NULL}},
        {SQL_DESC_PRECISION, {Precision, NULL, NULL}},
        {SQL_DESC_SCALE, {Scale, NULL, NULL}},
        {SQL_DESC_OCTET_LENGTH_PTR, {0, StringLength, NULL}},
        {SQL_DESC_INDICATOR_PTR, {0, Indicator, NULL}},
        {SQL_DESC_DATA_PTR, {0, Data, NULL}},
    };
    SQLRETURN rc = SQL_SUCCESS;
    int dt = Type == SQL_DATETIME || Type == SQL_INTERVAL;
    for (size_t i = 0; rc == SQL_SUCCESS && i < sizeof set / sizeof *set; i++) {
        if (set[i].f == SQL_DESC_DATETIME_INTERVAL_CODE && !dt) continue;
        if (v.kind == IXO_IPD &&
            (set[i].f == SQL_DESC_OCTET_LENGTH_PTR || set[i].f == SQL_DESC_INDICATOR_PTR))
            continue; /* not IPD fields */
        rc = set_field(&v, RecNumber, set[i].f, &set[i].x, 0);
    }
    view_commit(&v);
    return ixo_leave(h, rc);
}

/* ---- SQLCopyDesc ---- */

static const SQLSMALLINT copy_header[] = {SQL_DESC_ARRAY_SIZE, SQL_DESC_BIND_TYPE,
                                          SQL_DESC_BIND_OFFSET_PTR, SQL_DESC_ARRAY_STATUS_PTR,
                                          SQL_DESC_ROWS_PROCESSED_PTR};
static const SQLSMALLINT copy_rec[] = {SQL_DESC_CONCISE_TYPE,  SQL_DESC_DATETIME_INTERVAL_PRECISION,
                                       SQL_DESC_OCTET_LENGTH,  SQL_DESC_PRECISION,
                                       SQL_DESC_SCALE,         SQL_DESC_PARAMETER_TYPE,
                                       SQL_DESC_INDICATOR_PTR, SQL_DESC_OCTET_LENGTH_PTR,
                                       SQL_DESC_DATA_PTR};

/* the fields of src into dst (a field one of them lacks is left): the
 * header, the count, then each record field by field */
static SQLRETURN copy(dview *src, dview *dst) {
    fval o;
    for (size_t i = 0; i < sizeof copy_header / sizeof *copy_header; i++)
        if (header_get(src, copy_header[i], &o) == 0 &&
            ((is_app(src) && is_app(dst)) || src->kind == dst->kind))
            header_set(dst, copy_header[i], &o);
    int n = view_count(src);
    fval cnt = {n, NULL, NULL};
    if (header_set(dst, SQL_DESC_COUNT, &cnt) != SQL_SUCCESS) return SQL_ERROR;
    for (int r = 1; r <= n; r++) {
        ixo_bind *b = view_rec(dst, r);
        if (b && is_app(dst)) b->ind_ptr = b->oct_ptr = b->ind = NULL, b->buf = NULL;
        for (size_t i = 0; b && i < sizeof copy_rec / sizeof *copy_rec; i++) {
            memset(&o, 0, sizeof o);
            if (rec_get(src, r, copy_rec[i], &o) < 0) continue;
            int keep = dst->d->h.ndiag;
            if (set_field(dst, (SQLSMALLINT)r, copy_rec[i], &o, 1) != SQL_SUCCESS)
                dst->d->h.ndiag = keep; /* a field the target lacks */
        }
    }
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLCopyDesc(SQLHDESC SourceDescHandle, SQLHDESC TargetDescHandle) {
    ixo_desc *sd = SourceDescHandle;
    if (!sd || sd->h.kind != SQL_HANDLE_DESC) return SQL_INVALID_HANDLE;
    ENTER_DESC(TargetDescHandle); /* the same connection's lock: the source is safe too */
    if (v.kind == IXO_IRD)
        return ixo_leave(h,
                         ixo_err(h, "HY016", 0, "Cannot modify an implementation row descriptor"));
    if (sd->h.lk != h->lk)
        return ixo_leave(h, ixo_err(h, "HY000", 0, "The descriptors belong to two connections"));
    dview src;
    view_open(sd, &src);
    if (sd == d) return ixo_leave(h, SQL_SUCCESS);
    SQLRETURN rc = copy(&src, &v);
    view_commit(&v);
    return ixo_leave(h, rc);
}
