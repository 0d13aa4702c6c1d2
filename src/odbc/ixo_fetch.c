/*
 * ixo_fetch.c: result columns and rows. A row's values are read with
 * libixdb's typed accessors into an ixo_val (no copy of text: it points into
 * the row) and converted once into the application's buffer: per bound
 * column and row, one accessor call and one conversion. SQLFetch fills
 * SQL_ATTR_ROW_ARRAY_SIZE rows (column-wise or row-wise binding) with the
 * row status array and the rows-fetched count; SQLGetData reads character
 * and binary values in pieces.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixo_int.h"

SQLRETURN ixo_describe(ixo_stmt *s) {
    if (s->ncols >= 0) return SQL_SUCCESS;
    if (!s->st) {
        s->ncols = 0;
        return SQL_SUCCESS;
    }
    int n = ix_column_count(s->st);
    if (n == 0 && ix_errcode(s->dbc->conn) != IX_OK) return ixo_err_conn(&s->h, s->dbc->conn);
    ixo_col *cols = calloc(n > 0 ? (size_t)n : 1, sizeof *cols);
    if (!cols) return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    for (int i = 0; i < n; i++) {
        ixo_col *c = &cols[i];
        c->ixtype = ix_column_type(s->st, i);
        c->enclen = ix_column_enclen(s->st, i);
        c->notnull = ix_column_notnull(s->st, i);
        int lob = 0;
        if (c->ixtype == IX_T_UDTFIXED || c->ixtype == IX_T_UDTVAR) {
            const char *d = ix_column_decltype(s->st, i);
            lob = d && strcasecmp(d, "BLOB") == 0   ? IX_T_BLOB
                  : d && strcasecmp(d, "CLOB") == 0 ? IX_T_CLOB
                                                    : 0;
        }
        c->lob = lob;
        ixo_type_describe(c->ixtype, c->enclen, lob, &c->ti);
    }
    free(s->cols);
    s->cols = cols;
    s->ncols = n;
    return SQL_SUCCESS;
}

/* a text accessor's NULL: SQL NULL, or a value that does not convert */
static ixo_cv text_null(ix_stmt *st, int i, ixo_val *v) {
    if (ix_column_is_null(st, i)) {
        v->kind = IXO_V_NULL;
        return IXO_CV_OK;
    }
    return IXO_CV_BADCHAR;
}

/* a status accessor's answer: IX_NULL_VALUE is NULL (libixdb's NULL rule) */
static ixo_cv status(int rc, ixo_val *v, ixo_cv bad) {
    if (rc == IX_OK) return IXO_CV_OK;
    if (rc == IX_NULL_VALUE) {
        v->kind = IXO_V_NULL;
        return IXO_CV_OK;
    }
    return bad;
}

/* a DATETIME's value with the parts its qualifier has, or its text */
static ixo_cv datetime_value(ix_stmt *st, int i, int q, ixo_val *v) {
    int start = IXO_QUAL_START(q), end = IXO_QUAL_END(q);
    if (start != IX_UNIT_YEAR && start < IX_UNIT_HOUR) {
        v->kind = IXO_V_TEXT;
        v->p = ix_column_text(st, i);
        v->n = ix_column_text_len(st, i);
        return v->p ? IXO_CV_OK : text_null(st, i, v);
    }
    v->kind = IXO_V_DT;
    v->has_date = start == IX_UNIT_YEAR;
    v->has_time = end >= IX_UNIT_HOUR;
    v->fdigits = end > IX_UNIT_SECOND ? end - IX_UNIT_SECOND : 0;
    return status(ix_column_datetime(st, i, &v->dt), v, IXO_CV_BADDT);
}

static ixo_cv result_value(const ixo_result *r, int i, ixo_val *v) {
    const struct ixo_cell *c = &r->cells[(r->pos - 1) * r->ncols + i];
    if (c->is_int) {
        v->kind = IXO_V_INT;
        v->i = c->i;
    } else if (c->text) {
        v->kind = IXO_V_TEXT;
        v->p = c->text;
        v->n = strlen(c->text);
    }
    return IXO_CV_OK;
}

/* a BLOB or CLOB of the current row, read whole once per row and column */
static ixo_cv lob_value(ixo_stmt *s, int i, ixo_val *v) {
    if (s->nlobs < s->ncols) {
        void **l = realloc(s->lobs, (size_t)s->ncols * sizeof *l);
        if (l) s->lobs = l;
        size_t *n = l ? realloc(s->lob_n, (size_t)s->ncols * sizeof *n) : NULL;
        if (n) s->lob_n = n;
        int64_t *r = n ? realloc(s->lob_row, (size_t)s->ncols * sizeof *r) : NULL;
        if (!r) return IXO_CV_NOMEM;
        s->lob_row = r;
        for (int k = s->nlobs; k < s->ncols; k++)
            s->lobs[k] = NULL, s->lob_row[k] = -1;
        s->nlobs = s->ncols;
    }
    if (s->lob_row[i] != s->rowno) {
        ix_lob_free(s->lobs[i]);
        s->lobs[i] = NULL;
        int rc = ix_column_lob(s->st, i, &s->lobs[i], &s->lob_n[i]);
        if (rc != IX_OK && rc != IX_NULL_VALUE) return IXO_CV_BADCHAR;
        s->lob_row[i] = s->rowno;
    }
    if (!s->lobs[i]) return IXO_CV_OK; /* NULL */
    v->kind = s->cols[i].lob == IX_T_BLOB ? IXO_V_BIN : IXO_V_TEXT;
    v->p = s->lobs[i];
    v->n = s->lob_n[i];
    return IXO_CV_OK;
}

void ixo_stmt_free_lobs(ixo_stmt *s) {
    for (int k = 0; k < s->nlobs; k++)
        ix_lob_free(s->lobs[k]);
    free(s->lobs);
    free(s->lob_n);
    free(s->lob_row);
    s->lobs = NULL;
    s->lob_n = NULL;
    s->lob_row = NULL;
    s->nlobs = 0;
}

/* Each type's typed accessor, whose status (or NULL pointer) also tells
 * SQL NULL: one libixdb call per value. */
static ixo_cv column_value(ixo_stmt *s, int i, ixo_val *v) {
    ix_stmt *st = s->st;
    v->kind = IXO_V_NULL;
    v->is_real = 0;
    if (s->res) return result_value(s->res, i, v);
    const ixo_col *c = &s->cols[i];
    switch (c->ixtype) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
        v->kind = IXO_V_INT;
        return status(ix_column_get_int64(st, i, &v->i), v, IXO_CV_RANGE);
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
        v->kind = IXO_V_DOUBLE;
        v->is_real = c->ixtype == IX_T_SMALLFLOAT;
        return status(ix_column_get_double(st, i, &v->d), v, IXO_CV_RANGE);
    case IX_T_DECIMAL:
    case IX_T_MONEY:
        v->kind = IXO_V_DEC;
        return status(ix_column_get_decimal(st, i, &v->dec), v, IXO_CV_RANGE);
    case IX_T_DATE:
        v->kind = IXO_V_DT;
        v->has_date = 1;
        v->has_time = 0;
        v->fdigits = 0;
        v->dt.hour = v->dt.minute = v->dt.second = v->dt.fraction = 0;
        return status(ix_column_date_ymd(st, i, &v->dt.year, &v->dt.month, &v->dt.day), v,
                      IXO_CV_BADDT);
    case IX_T_DATETIME: return datetime_value(st, i, c->enclen, v);
    case IX_T_BOOLEAN:
        v->kind = IXO_V_BOOL;
        return status(ix_column_get_int64(st, i, &v->i), v, IXO_CV_RANGE);
    case IX_T_INTERVAL:
        if (c->ti.desc_type != SQL_INTERVAL) break; /* a qualifier not described: its text */
        v->kind = IXO_V_IV;
        v->qual = (unsigned)c->enclen;
        return status(ix_column_interval(st, i, &v->iv), v, IXO_CV_BADCHAR);
    case IX_T_BYTE:
        v->kind = IXO_V_BIN;
        v->p = ix_column_blob(st, i, &v->n);
        return v->p ? IXO_CV_OK : text_null(st, i, v);
    default: /* character types, TEXT, BLOB and CLOB, the rest as text */
        if (c->lob) return lob_value(s, i, v);
        break;
    }
    v->kind = IXO_V_TEXT;
    v->p = ix_column_text(st, i);
    v->n = ix_column_text_len(st, i);
    return v->p ? IXO_CV_OK : text_null(st, i, v);
}

/* ---- describing ---- */

#define ENTER_STMT(hs) IXO_ENTER_STMT(hs)

static const char *col_name(const ixo_stmt *s, int i) {
    if (s->res) return s->res->cols[i].name;
    const char *n = ix_column_name(s->st, i);
    return n ? n : "";
}

SQLRETURN SQL_API SQLNumResultCols(SQLHSTMT StatementHandle, SQLSMALLINT *ColumnCount) {
    ENTER_STMT(StatementHandle);
    if (ixo_describe(s) == SQL_ERROR) return ixo_leave(h, SQL_ERROR);
    if (ColumnCount) *ColumnCount = (SQLSMALLINT)s->ncols;
    return ixo_leave(h, SQL_SUCCESS);
}

/* column ColumnNumber (1-based) checked; SQL_ERROR with 07009 */
static SQLRETURN check_col(ixo_stmt *s, SQLUSMALLINT col) {
    if (ixo_describe(s) == SQL_ERROR) return SQL_ERROR;
    if (col < 1 || col > s->ncols)
        return ixo_err(&s->h, "07009", 0, "Invalid descriptor index %d", col);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLDescribeCol(SQLHSTMT StatementHandle, SQLUSMALLINT ColumnNumber,
                                 SQLCHAR *ColumnName, SQLSMALLINT BufferLength,
                                 SQLSMALLINT *NameLength, SQLSMALLINT *DataType,
                                 SQLULEN *ColumnSize, SQLSMALLINT *DecimalDigits,
                                 SQLSMALLINT *Nullable) {
    ENTER_STMT(StatementHandle);
    if (check_col(s, ColumnNumber) == SQL_ERROR) return ixo_leave(h, SQL_ERROR);
    const ixo_col *c = &s->cols[ColumnNumber - 1];
    SQLRETURN rc = SQL_SUCCESS;
    if (ixo_str_out(col_name(s, ColumnNumber - 1), ColumnName, BufferLength, NameLength, NULL) &&
        ColumnName)
        rc = ixo_warn(h, "01004", "String data, right truncated");
    if (DataType) *DataType = c->ti.sql_type;
    if (ColumnSize) *ColumnSize = c->ti.column_size;
    if (DecimalDigits) *DecimalDigits = c->ti.digits;
    if (Nullable) *Nullable = c->notnull ? SQL_NO_NULLS : SQL_NULLABLE;
    return ixo_leave(h, rc);
}

static int is_char_type(SQLSMALLINT t) {
    return t == SQL_CHAR || t == SQL_VARCHAR || t == SQL_LONGVARCHAR;
}

int ixo_col_field(ixo_stmt *s, int i, SQLUSMALLINT field, const char **str, SQLLEN *num) {
    const ixo_col *c = &s->cols[i];
    const ixo_typeinfo *t = &c->ti;
    *str = NULL;
    *num = 0;
    switch (field) {
    case SQL_DESC_NAME:
    case SQL_DESC_LABEL:
    case SQL_DESC_BASE_COLUMN_NAME:
    case SQL_COLUMN_NAME: *str = col_name(s, i); break;
    case SQL_DESC_TYPE_NAME:
    case SQL_DESC_LOCAL_TYPE_NAME: *str = t->type_name; break;
    case SQL_DESC_TABLE_NAME:
    case SQL_DESC_BASE_TABLE_NAME:
    case SQL_DESC_SCHEMA_NAME:
    case SQL_DESC_CATALOG_NAME: *str = ""; break;
    case SQL_DESC_LITERAL_PREFIX:
    case SQL_DESC_LITERAL_SUFFIX:
        *str = is_char_type(t->sql_type) || t->c_default != SQL_C_CHAR ? (t->radix ? "" : "'") : "";
        break;
    case SQL_DESC_CONCISE_TYPE: *num = t->sql_type; break;
    case SQL_DESC_TYPE: *num = t->desc_type; break;
    case SQL_DESC_DATETIME_INTERVAL_CODE: *num = t->dt_code; break;
    case SQL_DESC_DATETIME_INTERVAL_PRECISION: *num = t->iv_prec; break;
    case SQL_DESC_LENGTH:
    case SQL_COLUMN_LENGTH:
    case SQL_COLUMN_PRECISION: *num = (SQLLEN)t->column_size; break;
    case SQL_DESC_PRECISION:
        *num = t->radix || t->digits ? (SQLLEN)(t->radix ? t->column_size : (SQLULEN)t->digits) : 0;
        break;
    case SQL_DESC_SCALE:
    case SQL_COLUMN_SCALE: *num = t->digits; break;
    case SQL_DESC_OCTET_LENGTH: *num = t->octet_length; break;
    case SQL_DESC_DISPLAY_SIZE: *num = t->display_size; break;
    case SQL_DESC_NULLABLE:
    case SQL_COLUMN_NULLABLE: *num = c->notnull ? SQL_NO_NULLS : SQL_NULLABLE; break;
    case SQL_DESC_UNSIGNED: *num = t->unsigned_ ? SQL_TRUE : SQL_FALSE; break;
    case SQL_DESC_NUM_PREC_RADIX: *num = t->radix; break;
    case SQL_DESC_FIXED_PREC_SCALE: *num = c->ixtype == IX_T_MONEY; break;
    case SQL_DESC_AUTO_UNIQUE_VALUE:
        *num = c->ixtype == IX_T_SERIAL || c->ixtype == IX_T_SERIAL8 || c->ixtype == IX_T_BIGSERIAL;
        break;
    case SQL_DESC_CASE_SENSITIVE: *num = is_char_type(t->sql_type); break;
    case SQL_DESC_SEARCHABLE:
        *num = t->sql_type == SQL_LONGVARCHAR || t->sql_type == SQL_LONGVARBINARY
                   ? SQL_PRED_NONE
                   : SQL_PRED_SEARCHABLE;
        break;
    case SQL_DESC_UPDATABLE: *num = SQL_ATTR_READWRITE_UNKNOWN; break;
    case SQL_DESC_UNNAMED: *num = SQL_NAMED; break;
    case SQL_DESC_ROWVER: *num = SQL_FALSE; break;
    default: return -1;
    }
    return 0;
}

SQLRETURN SQL_API SQLColAttribute(SQLHSTMT StatementHandle, SQLUSMALLINT ColumnNumber,
                                  SQLUSMALLINT FieldIdentifier, SQLPOINTER CharacterAttribute,
                                  SQLSMALLINT BufferLength, SQLSMALLINT *StringLength,
                                  SQLLEN *NumericAttribute) {
    ENTER_STMT(StatementHandle);
    if (FieldIdentifier == SQL_DESC_COUNT) {
        if (ixo_describe(s) == SQL_ERROR) return ixo_leave(h, SQL_ERROR);
        if (NumericAttribute) *NumericAttribute = s->ncols;
        return ixo_leave(h, SQL_SUCCESS);
    }
    if (check_col(s, ColumnNumber) == SQL_ERROR) return ixo_leave(h, SQL_ERROR);
    const char *str;
    SQLLEN num;
    if (ixo_col_field(s, ColumnNumber - 1, FieldIdentifier, &str, &num) < 0)
        return ixo_leave(h, ixo_err(h, "HY091", 0, "Invalid descriptor field %d", FieldIdentifier));
    if (str) {
        SQLRETURN rc = ixo_str_out(str, CharacterAttribute, BufferLength, StringLength, NULL) &&
                               CharacterAttribute
                           ? ixo_warn(h, "01004", "String data, right truncated")
                           : SQL_SUCCESS;
        return ixo_leave(h, rc);
    }
    if (NumericAttribute) *NumericAttribute = num;
    return ixo_leave(h, SQL_SUCCESS);
}

/* ---- binding and fetching ---- */

SQLRETURN SQL_API SQLBindCol(SQLHSTMT StatementHandle, SQLUSMALLINT ColumnNumber,
                             SQLSMALLINT TargetType, SQLPOINTER TargetValue, SQLLEN BufferLength,
                             SQLLEN *StrLen_or_Ind) {
    ENTER_STMT(StatementHandle);
    if (ColumnNumber < 1)
        return ixo_leave(h, ixo_err(h, "07009", 0, "Bookmarks are not implemented"));
    if (ColumnNumber > s->nbound) {
        if (!TargetValue && !StrLen_or_Ind)
            return ixo_leave(h, SQL_SUCCESS); /* unbind: nothing bound */
        ixo_bind *b = realloc(s->bound, ColumnNumber * sizeof *b);
        if (!b) return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
        memset(b + s->nbound, 0, (ColumnNumber - (size_t)s->nbound) * sizeof *b);
        s->bound = b;
        s->nbound = ColumnNumber;
    }
    ixo_bind *b = &s->bound[ColumnNumber - 1];
    b->ctype = TargetType;
    b->buf = TargetValue;
    b->buflen = BufferLength;
    b->ind = b->ind_ptr = b->oct_ptr = StrLen_or_Ind;
    while (s->nbound > 0 && !s->bound[s->nbound - 1].buf && !s->bound[s->nbound - 1].ind)
        s->nbound--; /* SQL_DESC_COUNT: the highest bound column */
    ixo_app_sync(s, IXO_ARD);
    return ixo_leave(h, SQL_SUCCESS);
}

/* the next row into the statement: 1, 0 at the end, -1 on an error */
static int next_row(ixo_stmt *s) {
    if (s->res) {
        if (s->res->pos >= s->res->nrows) return 0;
        s->res->pos++;
        return 1;
    }
    if (s->pending) {
        s->pending = 0;
        s->rowno++;
        return 1;
    }
    if (s->done) return 0;
    int rc = ix_step(s->st);
    s->rowno++;
    if (rc == IX_ROW) return 1;
    s->done = 1;
    return rc == IX_DONE ? 0 : -1;
}

/* The pairs a block fetch meets most (integers, FLOAT/SMALLFLOAT, the
 * character types and DATE into their usual C types) go through libixdb's
 * ix_row_store: a row's values straight into the application's buffers, one
 * call for a run of such columns. A value it leaves (a text that does not
 * fit, a value out of the C type's range, a NULL without an indicator, any
 * other pair) takes the general path (column_value + ixo_get), which gives
 * the same bytes and the diagnostics. odbc.api compares block fetch with
 * SQLGetData, every type of these and NULL. */
static ix_store_kind store_kind(int ixtype, SQLSMALLINT ctype) {
    switch (ixtype) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
        return ctype == SQL_C_SLONG || ctype == SQL_C_LONG ? IX_STORE_INT32
               : ctype == SQL_C_SBIGINT                    ? IX_STORE_INT64
                                                           : IX_STORE_NONE;
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: return ctype == SQL_C_DOUBLE ? IX_STORE_DOUBLE : IX_STORE_NONE;
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: return ctype == SQL_C_CHAR ? IX_STORE_TEXT : IX_STORE_NONE;
    case IX_T_DATE: return ctype == SQL_C_TYPE_DATE ? IX_STORE_DATE16 : IX_STORE_NONE;
    default: return IX_STORE_NONE;
    }
}

/* where each bound column's values go in this rowset, and how: computed
 * once per SQLFetch, used for every row */
typedef struct ixo_slot {
    char *buf;
    char *ind;
    size_t step, istep;
    SQLSMALLINT ctype;
    SQLLEN buflen;
    int col;
} ixo_slot;

/* slot o's ix_store destination; kind IX_STORE_NONE when its values take
 * the general path (ix_row_store writes lengths as int64_t: SQLLEN must be
 * one) */
static ix_store plan_store(const ixo_stmt *s, const ixo_slot *o) {
    ix_store_kind kind = s->res || !o->buf || !o->ind || sizeof(SQLLEN) != sizeof(int64_t)
                             ? IX_STORE_NONE
                             : store_kind(s->cols[o->col].ixtype, o->ctype);
    if (kind == IX_STORE_TEXT && o->buflen <= 0) kind = IX_STORE_NONE;
    return (ix_store){o->col,
                      kind,
                      o->buf,
                      o->step,
                      kind == IX_STORE_TEXT ? (size_t)o->buflen : 0,
                      (int64_t *)(void *)o->ind,
                      o->istep};
}

static int plan_slots(ixo_stmt *s, ixo_slot *slots, ix_store *stores) {
    SQLLEN off = s->row_bind_offset ? *s->row_bind_offset : 0;
    int n = s->nbound < s->ncols ? s->nbound : s->ncols, k = 0;
    for (int i = 0; i < n; i++) {
        const ixo_bind *b = &s->bound[i];
        if (!b->buf && !b->ind) continue;
        ixo_slot *o = &slots[k];
        o->col = i;
        o->ctype = b->ctype == SQL_C_DEFAULT ? s->cols[i].ti.c_default : b->ctype;
        o->buflen = b->buflen;
        size_t fixed = ixo_ctype_size(o->ctype);
        o->step = s->row_bind_type ? s->row_bind_type : fixed ? fixed : (size_t)b->buflen;
        o->istep = s->row_bind_type ? s->row_bind_type : sizeof(SQLLEN);
        o->buf = b->buf ? (char *)b->buf + off : NULL;
        o->ind = b->ind ? (char *)b->ind + off : NULL;
        stores[k++] = plan_store(s, o);
    }
    return k;
}

/* slot o's value of the current row into rowset row r by the general path
 * (column_value + ixo_get), its diagnostic recorded: SQL_SUCCESS,
 * SQL_SUCCESS_WITH_INFO or SQL_ERROR */
static SQLRETURN put_other(ixo_stmt *s, const ixo_slot *o, SQLULEN r) {
    char *buf = o->buf ? o->buf + r * o->step : NULL;
    SQLLEN *ind = o->ind ? (SQLLEN *)(void *)(o->ind + r * o->istep) : NULL;
    ixo_val v;
    ixo_cv cv = column_value(s, o->col, &v);
    if (cv == IXO_CV_OK)
        cv = ixo_get(&v, o->ctype, s->cols[o->col].ti.c_default, buf, o->buflen, ind, NULL,
                     &s->scratch);
    return cv == IXO_CV_OK ? SQL_SUCCESS : ixo_err_cv(&s->h, cv, o->col + 1);
}

/* the worse of two row results */
static SQLRETURN worse(SQLRETURN a, SQLRETURN b) {
    return a == SQL_ERROR || b == SQL_ERROR ? SQL_ERROR : a != SQL_SUCCESS ? a : b;
}

/* the bound columns of the current row into rowset row r */
static SQLRETURN put_row(ixo_stmt *s, const ixo_slot *slots, const ix_store *stores, int nslots,
                         SQLULEN r) {
    SQLRETURN ret = SQL_SUCCESS;
    for (size_t k = 0, n = (size_t)nslots; k < n; k++) {
        k += ix_row_store(s->st, &stores[k], n - k, r); /* up to a value left to the general path */
        if (k < n) ret = worse(ret, put_other(s, &slots[k], r));
    }
    return ret;
}

void ixo_scroll_reset(ixo_stmt *s) {
    s->row_number = 0;
    s->sc_start = IXO_BEFORE_START;
    s->sc_cur = s->sc_max = 0;
    s->sc_nrows = -1;
    s->sc_prev_size = 0;
}

static int is_scroll(const ixo_stmt *s) {
    return s->res ? s->cursor_type == SQL_CURSOR_STATIC : s->scroll;
}

/* row k (1-based) of a scroll cursor into the statement: 1, 0 when there
 * is no such row, -1 on an error. The row after the current one is
 * ix_step (rows come in batches), any other one ix_fetch_absolute. */
static int scroll_row(ixo_stmt *s, int64_t k) {
    if (k < 1 || (s->sc_nrows >= 0 && k > s->sc_nrows)) return 0;
    if (s->res) {
        if (k > s->res->nrows) return 0;
        s->res->pos = k;
        return 1;
    }
    int rc;
    if (s->pending && k == 1)
        rc = IX_ROW; /* the first row, stepped by the execution */
    else if (s->sc_cur > 0 && k == s->sc_cur + 1)
        rc = ix_step(s->st);
    else
        rc = ix_fetch_absolute(s->st, k);
    s->pending = 0;
    s->rowno++;
    if (rc == IX_ROW) {
        s->sc_cur = k;
        if (k > s->sc_max) s->sc_max = k;
        return 1;
    }
    s->sc_cur = 0;
    if (rc != IX_DONE) return -1;
    if (k - 1 <= s->sc_max) s->sc_nrows = k - 1; /* row k-1 exists, row k does not */
    return 0;
}

/* the rows of a scroll cursor's result: known from the rows read, or found
 * by probing (doubling, then halving: 2 log2(n) round trips); -1 on an
 * error */
static int64_t scroll_count(ixo_stmt *s) {
    if (s->res) return s->res->nrows;
    int64_t lo = s->sc_max, hi = -1;
    while (s->sc_nrows < 0 && hi < 0) {
        int64_t probe = lo < 8 ? lo + 8 : lo * 2;
        int k = scroll_row(s, probe);
        if (k < 0) return -1;
        if (k)
            lo = probe;
        else
            hi = probe;
    }
    while (s->sc_nrows < 0 && hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        int k = scroll_row(s, mid);
        if (k < 0) return -1;
        if (k)
            lo = mid;
        else
            hi = mid;
    }
    if (s->sc_nrows < 0) s->sc_nrows = lo;
    return s->sc_nrows;
}

/* the rows of a rowset ending past the start of the result begin at row 1,
 * with 01S06 when warn */
typedef struct ixo_target {
    int64_t start; /* the first row, or IXO_BEFORE_START / IXO_AFTER_END */
    int warn;      /* 01S06: the rowset would have begun before row 1 */
    int err;       /* counting the rows failed */
} ixo_target;

/* SQL_FETCH_ABSOLUTE n (n < 0: from the end) */
static ixo_target target_absolute(ixo_stmt *s, int64_t n, int64_t size) {
    ixo_target t = {IXO_BEFORE_START, 0, 0};
    if (n > 0) {
        t.start = n;
    } else if (n < 0) {
        int64_t nrows = scroll_count(s);
        if (nrows < 0)
            t.err = 1;
        else if (-n <= nrows)
            t.start = nrows + n + 1;
        else if (-n <= size)
            t.start = 1;
    }
    return t;
}

/* SQL_FETCH_RELATIVE n from the current rowset */
static ixo_target target_relative(ixo_stmt *s, int64_t n, int64_t size) {
    int64_t cur = s->sc_start;
    ixo_target t = {IXO_AFTER_END, 0, 0};
    if (cur == IXO_BEFORE_START)
        return n > 0 ? target_absolute(s, n, size) : (ixo_target){IXO_BEFORE_START, 0, 0};
    if (cur == IXO_AFTER_END) return n < 0 ? target_absolute(s, n, size) : t;
    if (cur + n >= 1) {
        t.start = cur + n; /* past the end: the fill finds no row */
    } else {
        t.start = cur == 1 || -n > size ? IXO_BEFORE_START : 1;
        t.warn = t.start == 1;
    }
    return t;
}

/* where the rowset of a fetch in orientation o begins (ODBC 3's table of
 * SQLFetchScroll's cursor positions) */
static ixo_target scroll_target(ixo_stmt *s, SQLSMALLINT o, SQLLEN off, int64_t size) {
    int64_t cur = s->sc_start, prev = s->sc_prev_size ? (int64_t)s->sc_prev_size : size;
    ixo_target t = {IXO_BEFORE_START, 0, 0};
    switch (o) {
    case SQL_FETCH_NEXT:
        t.start = cur == IXO_BEFORE_START ? 1 : cur == IXO_AFTER_END ? IXO_AFTER_END : cur + prev;
        return t;
    case SQL_FETCH_FIRST: t.start = 1; return t;
    case SQL_FETCH_ABSOLUTE: return target_absolute(s, off, size);
    case SQL_FETCH_RELATIVE: return target_relative(s, off, size);
    case SQL_FETCH_PRIOR:
        if (cur == IXO_AFTER_END) return target_absolute(s, -size, size);
        return target_relative(s, cur == IXO_BEFORE_START ? 0 : -size, size);
    default: { /* SQL_FETCH_LAST */
        int64_t nrows = scroll_count(s);
        t.err = nrows < 0;
        t.start = nrows > size ? nrows - size + 1 : 1;
        return t;
    }
    }
}

/* A rowset's results so far: the call's, and the values in error. */
typedef struct ixo_fillres {
    ixo_stmt *s;
    const ixo_slot *slots;
    int64_t rowno0; /* s->rowno before the bulk rows */
    SQLULEN r0;     /* the rowset row of the first bulk row */
    SQLRETURN ret;
    int errors;
} ixo_fillres;

/* one row's result into the rowset's */
static void row_result(ixo_fillres *f, SQLULEN r, SQLRETURN rc, int first) {
    ixo_stmt *s = f->s;
    SQLUSMALLINT st = rc == SQL_SUCCESS ? SQL_ROW_SUCCESS
                      : rc == SQL_ERROR ? SQL_ROW_ERROR
                                        : SQL_ROW_SUCCESS_WITH_INFO;
    if (s->row_status && (first || st == SQL_ROW_ERROR || s->row_status[r] == SQL_ROW_SUCCESS))
        s->row_status[r] = st;
    if (rc == SQL_ERROR) f->errors++;
    if (rc != SQL_SUCCESS && f->ret == SQL_SUCCESS) f->ret = SQL_SUCCESS_WITH_INFO;
}

/* ix_step_store's value left to the general path: slot k of rowset row r */
static void bulk_other(void *ctx, size_t r, size_t k) {
    ixo_fillres *f = ctx;
    f->s->rowno = f->rowno0 + (int64_t)(r - f->r0) + 1; /* the LOB cache's row */
    SQLRETURN rc = put_other(f->s, &f->slots[k], r);
    if (rc != SQL_SUCCESS) row_result(f, r, rc, 0);
}

/* the rows r.. of a forward-only rowset in one ix_step_store: the rows
 * stored */
static SQLULEN fill_bulk(ixo_fillres *f, const ix_store *stores, int nslots, SQLULEN r, SQLULEN n) {
    ixo_stmt *s = f->s;
    for (SQLULEN i = r; s->row_status && i < n; i++)
        s->row_status[i] = SQL_ROW_SUCCESS;
    f->rowno0 = s->rowno;
    f->r0 = r;
    size_t got = 0;
    int rc = ix_step_store(s->st, stores, (size_t)nslots, r, n - r, bulk_other, f, &got);
    s->rowno = f->rowno0 + (int64_t)got;
    if (rc == IX_ROW) return got;
    s->done = 1;
    s->rowno++; /* the step that found the end, as next_row counts it */
    if (rc != IX_DONE) {
        ixo_err_conn(&s->h, s->dbc->conn);
        f->ret = r + got == 0 ? SQL_ERROR : SQL_SUCCESS_WITH_INFO;
    }
    return got;
}

/* a rowset from the cursor into the bound columns: from row start on a
 * scroll cursor, the next rows on a forward-only one */
static SQLRETURN fill(ixo_stmt *s, int64_t start) {
    SQLULEN n = s->row_array_size, got = 0;
    ixo_fillres f = {s, NULL, 0, 0, SQL_SUCCESS, 0};
    int scroll = start > 0;
    s->has_row = 0;
    if (s->nslots < s->nbound) { /* the slots, then as many ix_store: one block */
        ixo_slot *p = realloc(s->slots, (size_t)s->nbound * (sizeof *p + sizeof(ix_store)));
        if (!p) return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
        s->slots = p;
        s->nslots = s->nbound;
    }
    /* no bound column: no block (and no arithmetic on its NULL) */
    ix_store *stores = s->slots ? (ix_store *)(void *)(s->slots + s->nslots) : NULL;
    int nslots = plan_slots(s, s->slots, stores);
    f.slots = s->slots;
    for (SQLULEN r = 0; r < n; r++) {
        if (!scroll && !s->res && !s->pending && !s->done) { /* the rest in one pass */
            if (r == 0) s->row_number = s->sc_max + 1;
            got += fill_bulk(&f, stores, nslots, r, n);
            if (got == 0 && f.ret == SQL_ERROR) return SQL_ERROR;
            break;
        }
        int k = scroll ? scroll_row(s, start + (int64_t)r) : next_row(s);
        if (k < 0) {
            ixo_err_conn(&s->h, s->dbc->conn);
            if (got == 0) return SQL_ERROR;
            f.ret = SQL_SUCCESS_WITH_INFO;
            break;
        }
        if (k == 0) break;
        if (r == 0) s->row_number = scroll ? start : s->res ? s->res->pos : s->sc_max + 1;
        row_result(&f, r, put_row(s, s->slots, stores, nslots, r), 1);
        got++;
    }
    if (!scroll) s->sc_max += (int64_t)got; /* a forward-only cursor's rows read */
    for (SQLULEN r = got; s->row_status && r < n; r++)
        s->row_status[r] = SQL_ROW_NOROW;
    if (s->rows_fetched) *s->rows_fetched = got;
    if (got == 0) return SQL_NO_DATA;
    s->has_row = 1;
    for (int i = 0; i < s->gd_cap; i++)
        s->gd_offset[i] = 0;
    /* one row: its error is the call's; a rowset: each row's status says
     * which failed, the call succeeds with information */
    return n == 1 && f.errors ? SQL_ERROR : f.ret;
}

static SQLRETURN check_cursor(ixo_stmt *s) {
    if (ixo_describe(s) == SQL_ERROR) return SQL_ERROR;
    if ((!s->executed && !s->res) || s->ncols <= 0)
        return ixo_err(&s->h, "24000", 0, "Invalid cursor state");
    return SQL_SUCCESS;
}

/* SQLFetchScroll on a scroll cursor */
static SQLRETURN fetch_scroll(ixo_stmt *s, SQLSMALLINT o, SQLLEN off) {
    int64_t size = (int64_t)s->row_array_size;
    ixo_target t = scroll_target(s, o, off, size);
    s->sc_prev_size = s->row_array_size;
    if (t.err) return ixo_err_conn(&s->h, s->dbc->conn);
    SQLRETURN rc = SQL_NO_DATA;
    if (t.start > 0) rc = fill(s, t.start);
    if (rc == SQL_NO_DATA) {
        s->has_row = 0;
        s->row_number = 0;
        s->sc_start = t.start > 0 ? IXO_AFTER_END : t.start;
        if (s->rows_fetched) *s->rows_fetched = 0;
        for (SQLULEN r = 0; s->row_status && r < s->row_array_size; r++)
            s->row_status[r] = SQL_ROW_NOROW;
        return rc;
    }
    if (rc != SQL_ERROR) s->sc_start = t.start;
    if (t.warn && rc != SQL_ERROR)
        return ixo_warn(&s->h, "01S06",
                        "Attempt to fetch before the result set returned the first rowset");
    return rc;
}

static SQLRETURN fetch(ixo_stmt *s, SQLSMALLINT o, SQLLEN off) {
    if (check_cursor(s) == SQL_ERROR) return SQL_ERROR;
    if (is_scroll(s)) {
        if (o < SQL_FETCH_NEXT || o > SQL_FETCH_RELATIVE)
            return ixo_err(&s->h, "HY106", 0, "Fetch type out of range");
        return fetch_scroll(s, o, off);
    }
    if (o != SQL_FETCH_NEXT)
        return ixo_err(&s->h, "HY106", 0, "Fetch type out of range (forward-only cursor)");
    return fill(s, 0);
}

SQLRETURN SQL_API SQLFetch(SQLHSTMT StatementHandle) {
    ENTER_STMT(StatementHandle);
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    return ixo_leave(h, fetch(s, SQL_FETCH_NEXT, 0));
}

SQLRETURN SQL_API SQLFetchScroll(SQLHSTMT StatementHandle, SQLSMALLINT FetchOrientation,
                                 SQLLEN FetchOffset) {
    ENTER_STMT(StatementHandle);
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    return ixo_leave(h, fetch(s, FetchOrientation, FetchOffset));
}

/* ODBC 2's scrolling fetch (PHP's odbc calls it when SQL_FETCH_DIRECTION
 * has SQL_FD_FETCH_ABSOLUTE): SQLFetchScroll with its own rows-fetched and
 * row status outputs in place of the statement attributes */
SQLRETURN SQL_API SQLExtendedFetch(SQLHSTMT hstmt, SQLUSMALLINT fFetchType, SQLLEN irow,
                                   SQLULEN *pcrow, SQLUSMALLINT *rgfRowStatus) {
    ENTER_STMT(hstmt);
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    SQLULEN *fetched = s->rows_fetched;
    SQLUSMALLINT *status = s->row_status;
    s->rows_fetched = pcrow;
    s->row_status = rgfRowStatus;
    SQLRETURN rc = fetch(s, (SQLSMALLINT)fFetchType, irow);
    s->rows_fetched = fetched;
    s->row_status = status;
    return ixo_leave(h, rc);
}

SQLRETURN SQL_API SQLGetData(SQLHSTMT StatementHandle, SQLUSMALLINT ColumnNumber,
                             SQLSMALLINT TargetType, SQLPOINTER TargetValue, SQLLEN BufferLength,
                             SQLLEN *StrLen_or_Ind) {
    ENTER_STMT(StatementHandle);
    if (!s->has_row) return ixo_leave(h, ixo_err(h, "24000", 0, "Invalid cursor state"));
    if (check_col(s, ColumnNumber) == SQL_ERROR) return ixo_leave(h, SQL_ERROR);
    if (s->gd_cap < s->ncols) {
        size_t *o = realloc(s->gd_offset, (size_t)s->ncols * sizeof *o);
        if (!o) return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
        memset(o, 0, (size_t)s->ncols * sizeof *o);
        s->gd_offset = o;
        s->gd_cap = s->ncols;
    }
    int i = ColumnNumber - 1;
    if (s->gd_col != i && s->gd_col >= 0 && s->gd_col < s->gd_cap) s->gd_offset[s->gd_col] = 0;
    s->gd_col = i;
    SQLSMALLINT ct = TargetType == SQL_C_DEFAULT || TargetType == SQL_ARD_TYPE
                         ? s->cols[i].ti.c_default
                         : TargetType;
    int pieces = ct == SQL_C_CHAR || ct == SQL_C_WCHAR || ct == SQL_C_BINARY;
    if (!pieces && s->gd_offset[i]) return ixo_leave(h, SQL_NO_DATA);
    ixo_val v;
    ixo_cv cv = column_value(s, i, &v);
    if (cv == IXO_CV_OK)
        cv = ixo_get(&v, ct, s->cols[i].ti.c_default, TargetValue, BufferLength, StrLen_or_Ind,
                     pieces ? &s->gd_offset[i] : NULL, &s->scratch);
    if (!pieces && (cv == IXO_CV_OK || cv == IXO_CV_FRACTION)) s->gd_offset[i] = 1;
    return ixo_leave(h, ixo_err_cv(h, cv, ColumnNumber));
}
