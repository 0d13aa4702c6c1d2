/*
 * ixo_exec.c: statement handles, parameters and execution. SQLPrepare
 * prepares at once (its errors come from SQLPrepare); SQLExecDirect lets
 * libixdb defer the PREPARE to the first step (one round trip). Execution
 * is the first ix_step: a SELECT's first row waits in the statement
 * (pending) for SQLFetch, so that the errors of a query come from
 * SQLExecute as tools expect. Parameter arrays (SQL_ATTR_PARAMSET_SIZE > 1)
 * go as one pipelined libixdb batch. Parameters given at execution
 * (SQLParamData, SQLPutData) are collected in ixo_putdata.c first.
 */
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

ixo_stmt *ixo_stmt_new(ixo_dbc *dbc) {
    ixo_stmt *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    ixo_head_init(&s->h, SQL_HANDLE_STMT);
    ixo_head_share(&s->h, &dbc->h);
    for (int i = 0; i < 4; i++) {
        ixo_head_init(&s->desc[i].h, SQL_HANDLE_DESC);
        ixo_head_share(&s->desc[i].h, &dbc->h);
        s->desc[i].stmt = s;
        s->desc[i].which = i;
        s->desc[i].dbc = dbc;
    }
    s->dbc = dbc;
    s->ncols = -1;
    s->row_array_size = 1;
    s->paramset_size = 1;
    s->rowcount = -1;
    s->cursor_type = SQL_CURSOR_FORWARD_ONLY;
    s->query_timeout = dbc->query_timeout;
    ixo_scroll_reset(s);
    s->next = dbc->stmts;
    dbc->stmts = s;
    return s;
}

void ixo_stmt_reset_result(ixo_stmt *s) {
    s->pending = s->done = s->has_row = 0;
    ixo_scroll_reset(s);
    ixo_stmt_free_lobs(s);
    s->gd_col = -1;
    if (s->res) {
        ixo_result_free(s->res);
        s->res = NULL;
        free(s->cols);
        s->cols = NULL;
        s->ncols = -1;
    }
}

void ixo_stmt_close(ixo_stmt *s) {
    if (s->st) {
        if (s->prepared) {
            ix_reset(s->st);
        } else {
            ix_finalize(s->st);
            s->st = NULL;
            free(s->cols);
            s->cols = NULL;
            s->ncols = -1;
        }
    }
    s->executed = 0;
    ixo_dae_free(s); /* data at execution under way ends here too */
    ixo_stmt_reset_result(s);
}

/* drops the statement and its describe: a new SQL text comes */
void ixo_stmt_unprepare(ixo_stmt *s) {
    s->prepared = 0;
    ixo_stmt_close(s);
    if (s->st) ix_finalize(s->st);
    s->st = NULL;
    free(s->cols);
    s->cols = NULL;
    s->ncols = -1;
    s->rowcount = -1;
}

void ixo_stmt_free(ixo_stmt *s) {
    ixo_stmt_unprepare(s);
    ixo_stmt_detach(s);
    for (ixo_stmt **p = &s->dbc->stmts; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    free(s->bound);
    free(s->slots);
    free(s->params);
    free(s->gd_offset);
    ixo_scratch_free(&s->scratch);
    for (int i = 0; i < 4; i++) {
        s->desc[i].h.kind = 0;
        free(s->desc[i].h.diag);
    }
    s->h.kind = 0;
    free(s->h.diag);
    pthread_mutex_destroy(&s->h.lock);
    free(s);
}

/* ---- parameters ---- */

/* the size SQLDescribeParam gives a parameter the server's describe does
 * not place (a VARCHAR): what an application that sizes its buffers from it
 * (pyodbc's fast_executemany) allocates per row */
#define DESCRIBED_PARAM_SIZE 4000

/* the address of row r's element of a bound buffer (ixo_int.h); a
 * negative buffer length (the application's) steps as 0 */
void *ixo_param_elem(const ixo_stmt *s, const ixo_bind *b, SQLULEN r, int ind) {
    char *base = ind ? (char *)b->ind : (char *)b->buf;
    if (!base) return NULL;
    if (s->param_bind_offset) base += *s->param_bind_offset;
    size_t step;
    if (s->param_bind_type != SQL_PARAM_BIND_BY_COLUMN)
        step = s->param_bind_type;
    else if (ind)
        step = sizeof(SQLLEN);
    else
        step = ixo_ctype_size(b->ctype) ? ixo_ctype_size(b->ctype)
               : b->buflen > 0          ? (size_t)b->buflen
                                        : 0;
    return base + r * step;
}

/* an interval value or text into parameter i: an SQL_INTERVAL_* type gives
 * the qualifier (leading precision 9, the server converts), else the C
 * type's fields do */
static int bind_interval(ix_stmt *st, int i, const ixo_val *v, const ixo_bind *b) {
    if (v->kind == IXO_V_TEXT) {
        int frac = memchr(v->p, '.', v->n) ? IXO_IV_FRAC_DIGITS : 0;
        return ix_bind_interval_text(st, i, v->p, v->n, ixo_iv_param_qual(b->sqltype, frac));
    }
    unsigned q = ixo_iv_param_qual(b->sqltype, b->digits);
    return ix_bind_interval(st, i, q ? q : v->qual, &v->iv);
}

/* one value into parameter i (1-based) of st, as the SQL type asks */
static int bind_value(ix_stmt *st, int i, const ixo_val *v, const ixo_bind *b) {
    char text[IX_DECIMAL_TEXT_SIZE];
    SQLSMALLINT sqltype = b->sqltype;
    ixo_val t;
    if (v->kind == IXO_V_IV || (v->kind == IXO_V_TEXT && ixo_iv_param_qual(sqltype, 0)))
        return bind_interval(st, i, v, b);
    switch (v->kind) {
    case IXO_V_NULL: return ix_bind_null(st, i);
    case IXO_V_INT:
        return sqltype == SQL_BIT ? ix_bind_bool(st, i, v->i != 0) : ix_bind_int64(st, i, v->i);
    case IXO_V_BOOL: return ix_bind_bool(st, i, (int)v->i);
    case IXO_V_DOUBLE: return ix_bind_double(st, i, v->d);
    case IXO_V_DEC:
        if (ix_decimal_text(&v->dec, text, sizeof text) < 0) return IX_EINVAL;
        return ix_bind_decimal_text(st, i, text, IX_NTS);
    case IXO_V_BIN: return ix_bind_blob(st, i, v->p, v->n, IX_TRANSIENT);
    case IXO_V_DT: t = *v; break;
    case IXO_V_TEXT:
        switch (sqltype) {
        case SQL_TYPE_DATE:
        case SQL_TYPE_TIME:
        case SQL_TYPE_TIMESTAMP:
        case SQL_DATE:
        case SQL_TIME:
        case SQL_TIMESTAMP:
            if (!ixo_parse_dt(v->p, v->n, &t)) return IX_EINVAL;
            break;
        case SQL_DECIMAL:
        case SQL_NUMERIC: return ix_bind_decimal_text(st, i, v->p, v->n);
        case SQL_BINARY:
        case SQL_VARBINARY:
        case SQL_LONGVARBINARY: return ix_bind_blob(st, i, v->p, v->n, IX_TRANSIENT);
        default: return ix_bind_text(st, i, v->p, v->n, IX_TRANSIENT);
        }
        break;
    default: return IX_EINVAL;
    }
    /* a date, time or timestamp */
    if (t.has_date && (!t.has_time || sqltype == SQL_TYPE_DATE || sqltype == SQL_DATE))
        return ix_bind_date_ymd(st, i, t.dt.year, t.dt.month, t.dt.day);
    if (!t.has_date)
        return ix_bind_datetime(
            st, i, ix_qualifier_dt(IX_UNIT_HOUR, t.dt.fraction ? IX_UNIT_FRAC(5) : IX_UNIT_SECOND),
            &t.dt);
    return ix_bind_datetime(st, i, ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_FRAC(5)), &t.dt);
}

/* binds parameter row r; SQL_ERROR with a record on failure */
static SQLRETURN bind_row(ixo_stmt *s, SQLULEN r) {
    int n = ix_bind_parameter_count(s->st);
    SQLRETURN ret = SQL_SUCCESS;
    for (int i = 0; i < n; i++) {
        ixo_val v;
        ixo_cv cv;
        if (i >= s->nparams || !s->params[i].io) {
            if (ix_bind_null(s->st, i + 1) != IX_OK) return ixo_err_conn(&s->h, s->dbc->conn);
            continue;
        }
        const ixo_bind *b = &s->params[i];
        SQLLEN *ind = ixo_param_elem(s, b, r, 1), len = SQL_NTS;
        if (ind) memcpy(&len, ind, sizeof len); /* row-wise arrays may place it unaligned */
        SQLSMALLINT ct = b->ctype == SQL_C_DEFAULT ? ixo_default_ctype(b->sqltype) : b->ctype;
        const void *buf = ixo_param_elem(s, b, r, 0);
        /* data at execution: the value SQLPutData collected */
        if (ind && IXO_IS_DAE(len) && !ixo_dae_value(s, i, r, &ct, &buf, &len))
            return ixo_err(&s->h, "HY010", 0, "Function sequence error (parameter %d)", i + 1);
        cv = ixo_put(ct, buf, b->buflen, len, ind != NULL, &v, &s->scratch);
        if (cv != IXO_CV_OK && cv != IXO_CV_FRACTION) return ixo_err_cv(&s->h, cv, i + 1);
        int rc = bind_value(s->st, i + 1, &v, b);
        /* out of range: an interval's field overflows (22015) */
        int iv = v.kind == IXO_V_IV || ixo_iv_param_qual(b->sqltype, 0);
        if (rc == IX_EINVAL || rc == IX_ERANGE)
            return ixo_err(&s->h,
                           rc == IX_EINVAL ? "22018"
                           : iv            ? ixo_cv_state(IXO_CV_IVFIELD)
                                           : "22003",
                           0, "Parameter %d: %s", i + 1, ix_errmsg(s->dbc->conn));
        if (rc != IX_OK) return ixo_err_conn(&s->h, s->dbc->conn);
    }
    return ret;
}

typedef struct batch_ctx {
    ixo_stmt *s;
    SQLRETURN failed;
} batch_ctx;

static int batch_row(ix_stmt *st, int64_t row, void *ud) {
    batch_ctx *b = ud;
    (void)st;
    SQLRETURN rc = bind_row(b->s, (SQLULEN)row);
    if (rc == SQL_ERROR) {
        b->failed = rc;
        return -1;
    }
    return 0;
}

/* SQL_ATTR_PARAMSET_SIZE rows as one batch, with per-row status */
static SQLRETURN run_batch(ixo_stmt *s) {
    SQLULEN n = s->paramset_size;
    int *codes = malloc(n * sizeof *codes);
    if (!codes) return ixo_err(&s->h, "HY001", 0, "Memory allocation error");
    batch_ctx b = {s, SQL_SUCCESS};
    int64_t nfailed = 0;
    int rc = ix_batch_execute(s->st, (int64_t)n, batch_row, &b, codes, &nfailed);
    int64_t replied = ix_batch_replied(s->st);
    SQLRETURN ret = SQL_SUCCESS;
    if (rc == IX_ESQL)
        ret = ixo_err_conn(&s->h, s->dbc->conn);
    else if (rc < 0 && b.failed == SQL_SUCCESS)
        ret = ixo_err_conn(&s->h, s->dbc->conn);
    else if (rc < 0)
        ret = SQL_ERROR;
    for (SQLULEN r = 0; s->param_status && r < n; r++)
        s->param_status[r] = codes[r] == 0                   ? SQL_PARAM_SUCCESS
                             : codes[r] == IX_BATCH_NOT_SENT ? SQL_PARAM_UNUSED
                                                             : SQL_PARAM_ERROR;
    if (s->params_processed) s->params_processed[0] = (SQLULEN)replied;
    /* some rows ran: ODBC says SQL_SUCCESS_WITH_INFO when not all failed */
    if (ret == SQL_ERROR && rc == IX_ESQL && nfailed < (int64_t)n && replied > nfailed)
        ret = SQL_SUCCESS_WITH_INFO;
    s->rowcount = ix_changes(s->st);
    free(codes);
    return ret;
}

/* executes s->st: parameters bound, the first step taken (ixo_int.h) */
SQLRETURN ixo_stmt_run(ixo_stmt *s) {
    ix_conn *c = s->dbc->conn;
    SQLRETURN rc = SQL_SUCCESS;
    s->rowcount = -1;
    if (s->params_processed) *s->params_processed = 0;
    int batch = s->paramset_size > 1 && ix_bind_parameter_count(s->st) > 0 &&
                ix_stmt_type(s->st) != IX_STMTTYPE_SELECT;
    if ((rc = ixo_dae_begin(s, batch ? s->paramset_size : 1)) != SQL_SUCCESS) return rc;
    if (batch) {
        rc = run_batch(s);
        s->executed = 1;
        s->done = 1;
        return rc;
    }
    if (ix_bind_parameter_count(s->st) > 0 && (rc = bind_row(s, 0)) == SQL_ERROR) return rc;
    int st = ix_step(s->st);
    if (st == IX_ROW) {
        s->pending = 1;
    } else if (st == IX_DONE) {
        s->done = 1;
        if (ix_column_count(s->st) == 0) s->rowcount = ix_changes(s->st);
    } else {
        return ixo_err_conn(&s->h, c);
    }
    s->executed = 1;
    if (s->params_processed) *s->params_processed = 1;
    if (s->param_status) s->param_status[0] = SQL_PARAM_SUCCESS;
    if (s->ncols < 0 && ixo_describe(s) == SQL_ERROR) return SQL_ERROR;
    if (s->done && s->ncols == 0 && s->rowcount == 0 &&
        (ix_stmt_type(s->st) == IX_STMTTYPE_UPDATE || ix_stmt_type(s->st) == IX_STMTTYPE_DELETE ||
         ix_stmt_type(s->st) == IX_STMTTYPE_DELETE_ALL ||
         ix_stmt_type(s->st) == IX_STMTTYPE_UPDATE_ALL))
        return SQL_NO_DATA; /* a searched UPDATE or DELETE that touched no row */
    return rc;
}

/* the ix_prepare_v2 flags of the cursor type: a static cursor is a scroll
 * cursor (libixdb ignores the flag for a statement that returns no rows) */
static unsigned cursor_flags(const ixo_stmt *s) {
    return s->cursor_type == SQL_CURSOR_STATIC ? IX_PREPARE_SCROLL : 0;
}

SQLRETURN ixo_exec_direct(ixo_stmt *s, const char *sql, size_t len) {
    ixo_stmt_unprepare(s);
    if (ix_prepare_v2(s->dbc->conn, sql, len, cursor_flags(s), &s->st) != IX_OK)
        return ixo_err_conn(&s->h, s->dbc->conn);
    s->scroll = s->cursor_type == SQL_CURSOR_STATIC;
    ixo_cursor_apply(s);
    return ixo_stmt_run(s);
}

/* ---- entry points ---- */

#define ENTER_STMT(hs) IXO_ENTER_STMT(hs)

SQLRETURN SQL_API SQLExecDirect(SQLHSTMT StatementHandle, SQLCHAR *StatementText,
                                SQLINTEGER TextLength) {
    ENTER_STMT(StatementHandle);
    if (!StatementText) return ixo_leave(h, ixo_err(h, "HY009", 0, "Invalid use of null pointer"));
    size_t n = TextLength == SQL_NTS || TextLength < 0 ? strlen((const char *)StatementText)
                                                       : (size_t)TextLength;
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    return ixo_leave(h, ixo_exec_direct(s, (const char *)StatementText, n));
}

SQLRETURN SQL_API SQLPrepare(SQLHSTMT StatementHandle, SQLCHAR *StatementText,
                             SQLINTEGER TextLength) {
    ENTER_STMT(StatementHandle);
    if (!StatementText) return ixo_leave(h, ixo_err(h, "HY009", 0, "Invalid use of null pointer"));
    size_t n = TextLength == SQL_NTS || TextLength < 0 ? strlen((const char *)StatementText)
                                                       : (size_t)TextLength;
    ixo_stmt_unprepare(s);
    if (ix_prepare_v2(s->dbc->conn, (const char *)StatementText, n,
                      IX_PREPARE_NOW | cursor_flags(s), &s->st) != IX_OK)
        return ixo_leave(h, ixo_err_conn(h, s->dbc->conn));
    s->prepared = 1;
    s->scroll = s->cursor_type == SQL_CURSOR_STATIC;
    ixo_cursor_apply(s);
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLExecute(SQLHSTMT StatementHandle) {
    ENTER_STMT(StatementHandle);
    if (!s->prepared || !s->st)
        return ixo_leave(h, ixo_err(h, "HY010", 0, "Function sequence error"));
    if (s->executed) ixo_stmt_close(s);
    ixo_cursor_apply(s);
    if (ixo_timer_arm(s) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    return ixo_leave(h, ixo_stmt_run(s));
}

SQLRETURN SQL_API SQLBindParameter(SQLHSTMT hstmt, SQLUSMALLINT ipar, SQLSMALLINT fParamType,
                                   SQLSMALLINT fCType, SQLSMALLINT fSqlType, SQLULEN cbColDef,
                                   SQLSMALLINT ibScale, SQLPOINTER rgbValue, SQLLEN cbValueMax,
                                   SQLLEN *pcbValue) {
    ENTER_STMT(hstmt);
    if (ipar < 1) return ixo_leave(h, ixo_err(h, "07009", 0, "Invalid descriptor index"));
    if (fParamType != SQL_PARAM_INPUT)
        return ixo_leave(h, ixo_err(h, "HYC00", 0, "Only input parameters are implemented"));
    if (ipar > s->nparams) {
        ixo_bind *p = realloc(s->params, ipar * sizeof *p);
        if (!p) return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
        memset(p + s->nparams, 0, (ipar - (size_t)s->nparams) * sizeof *p);
        s->params = p;
        s->nparams = ipar;
    }
    ixo_bind *b = &s->params[ipar - 1];
    b->io = fParamType;
    b->ctype = fCType;
    b->sqltype = fSqlType;
    b->size = cbColDef;
    b->digits = ibScale;
    b->buf = rgbValue;
    b->buflen = cbValueMax;
    b->ind = b->ind_ptr = b->oct_ptr = pcbValue;
    ixo_app_sync(s, IXO_APD);
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLNumParams(SQLHSTMT hstmt, SQLSMALLINT *pcpar) {
    ENTER_STMT(hstmt);
    if (!s->st) return ixo_leave(h, ixo_err(h, "HY010", 0, "Function sequence error"));
    if (pcpar) *pcpar = (SQLSMALLINT)ix_bind_parameter_count(s->st);
    return ixo_leave(h, SQL_SUCCESS);
}

/* Parameter ipar's description into *ti and *nullable: the column the
 * server's describe places it in (ix_param_describe: INSERT ... VALUES (?,
 * ...)), described as SQLDescribeCol describes it (ixo_type_describe).
 * Every other parameter, and one for a TEXT, BYTE, CLOB or BLOB column
 * (whose 2 GiB column size an application that sizes a row buffer from it
 * cannot allocate), is text the server converts: SQL_VARCHAR of
 * DESCRIBED_PARAM_SIZE. SQL_ERROR with a record when the PREPARE fails. */
static SQLRETURN describe_param(ixo_stmt *s, int ipar, ixo_typeinfo *ti, SQLSMALLINT *nullable) {
    ix_param_desc d;
    int rc = ix_param_describe(s->st, ipar, &d);
    if (rc != IX_OK && rc != IX_UNDESCRIBED) return ixo_err_conn(&s->h, s->dbc->conn);
    if (rc == IX_OK) ixo_type_describe(d.type, d.enclen, d.lob_type, ti);
    if (rc == IX_OK && ti->sql_type != SQL_LONGVARCHAR && ti->sql_type != SQL_LONGVARBINARY) {
        *nullable = d.notnull ? SQL_NO_NULLS : SQL_NULLABLE;
        return SQL_SUCCESS;
    }
    ixo_type_describe(IX_T_LVARCHAR, DESCRIBED_PARAM_SIZE, 0, ti); /* SQL_VARCHAR */
    *nullable = SQL_NULLABLE_UNKNOWN;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLDescribeParam(SQLHSTMT hstmt, SQLUSMALLINT ipar, SQLSMALLINT *pfSqlType,
                                   SQLULEN *pcbParamDef, SQLSMALLINT *pibScale,
                                   SQLSMALLINT *pfNullable) {
    ENTER_STMT(hstmt);
    if (!s->st) return ixo_leave(h, ixo_err(h, "HY010", 0, "Function sequence error"));
    if (ipar < 1 || ipar > ix_bind_parameter_count(s->st))
        return ixo_leave(h, ixo_err(h, "07009", 0, "Invalid descriptor index"));
    ixo_typeinfo ti;
    SQLSMALLINT nullable = SQL_NULLABLE_UNKNOWN;
    if (describe_param(s, ipar, &ti, &nullable) != SQL_SUCCESS) return ixo_leave(h, SQL_ERROR);
    if (pfSqlType) *pfSqlType = ti.sql_type;
    if (pcbParamDef) *pcbParamDef = ti.column_size;
    if (pibScale) *pibScale = ti.digits;
    if (pfNullable) *pfNullable = nullable;
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLRowCount(SQLHSTMT StatementHandle, SQLLEN *RowCount) {
    ENTER_STMT(StatementHandle);
    if (RowCount) *RowCount = s->rowcount;
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLFreeStmt(SQLHSTMT StatementHandle, SQLUSMALLINT Option) {
    if (Option == SQL_DROP) return SQLFreeHandle(SQL_HANDLE_STMT, StatementHandle);
    ENTER_STMT(StatementHandle);
    switch (Option) {
    case SQL_CLOSE: ixo_stmt_close(s); break;
    case SQL_UNBIND: s->nbound = 0; break;
    case SQL_RESET_PARAMS: s->nparams = 0; break;
    default: return ixo_leave(h, ixo_err(h, "HY092", 0, "Invalid option %d", Option));
    }
    ixo_app_sync(s, Option == SQL_UNBIND ? IXO_ARD : IXO_APD);
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLCloseCursor(SQLHSTMT StatementHandle) {
    ENTER_STMT(StatementHandle);
    if (!s->executed && !s->res)
        return ixo_leave(h, ixo_err(h, "24000", 0, "Invalid cursor state"));
    ixo_stmt_close(s);
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLCancel(SQLHSTMT StatementHandle) {
    ixo_stmt *s = StatementHandle;
    if (!s || s->h.kind != SQL_HANDLE_STMT) return SQL_INVALID_HANDLE;
    if (pthread_mutex_trylock(s->h.lk) == 0) { /* nothing running: close the cursor */
        atomic_store(s->h.busy, &s->h);
        s->h.ndiag = 0;
        ixo_stmt_close(s);
        return ixo_leave(&s->h, SQL_SUCCESS);
    }
    /* another thread is in a call on the connection: interrupt it when it
     * is this statement's; another statement's call is left alone */
    if (!ixo_in_call(&s->h)) return SQL_SUCCESS;
    ix_conn *c = s->dbc->conn;
    return c && ix_cancel(c) == IX_OK ? SQL_SUCCESS : SQL_ERROR;
}

SQLRETURN SQL_API SQLMoreResults(SQLHSTMT hstmt) {
    ENTER_STMT(hstmt);
    ixo_stmt_close(s); /* one result per statement */
    return ixo_leave(h, SQL_NO_DATA);
}

/* ---- statement attributes ---- */

static SQLRETURN set_stmt_attr(ixo_stmt *s, SQLINTEGER a, SQLPOINTER v) {
    SQLULEN u = (SQLULEN)v;
    switch (a) {
    case SQL_ATTR_ROW_ARRAY_SIZE:
    case SQL_ROWSET_SIZE:
        if (u < 1) return ixo_err(&s->h, "HY024", 0, "Invalid attribute value");
        s->row_array_size = u;
        return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_TYPE: s->row_bind_type = u; return SQL_SUCCESS;
    case SQL_ATTR_ROW_STATUS_PTR: s->row_status = v; return SQL_SUCCESS;
    case SQL_ATTR_ROWS_FETCHED_PTR: s->rows_fetched = v; return SQL_SUCCESS;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR: s->row_bind_offset = v; return SQL_SUCCESS;
    case SQL_ATTR_PARAMSET_SIZE:
        if (u < 1) return ixo_err(&s->h, "HY024", 0, "Invalid attribute value");
        s->paramset_size = u;
        return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_TYPE: s->param_bind_type = u; return SQL_SUCCESS;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR: s->param_bind_offset = v; return SQL_SUCCESS;
    case SQL_ATTR_PARAM_STATUS_PTR: s->param_status = v; return SQL_SUCCESS;
    case SQL_ATTR_PARAMS_PROCESSED_PTR: s->params_processed = v; return SQL_SUCCESS;
    case SQL_ATTR_ROW_OPERATION_PTR: s->row_op = v; return SQL_SUCCESS;
    case SQL_ATTR_PARAM_OPERATION_PTR: s->param_op = v; return SQL_SUCCESS;
    case SQL_ATTR_APP_ROW_DESC: return ixo_desc_attach(s, IXO_ARD, v);
    case SQL_ATTR_APP_PARAM_DESC: return ixo_desc_attach(s, IXO_APD, v);
    case SQL_ATTR_IMP_ROW_DESC:
    case SQL_ATTR_IMP_PARAM_DESC:
        return ixo_err(&s->h, "HY017", 0, "Invalid use of an automatically allocated descriptor");
    case SQL_ATTR_QUERY_TIMEOUT: s->query_timeout = u; return SQL_SUCCESS;
    case SQL_ATTR_MAX_ROWS: s->max_rows = u; return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_TYPE:
        s->cursor_type = u == SQL_CURSOR_FORWARD_ONLY ? u : SQL_CURSOR_STATIC;
        if (u != SQL_CURSOR_FORWARD_ONLY && u != SQL_CURSOR_STATIC)
            return ixo_warn(&s->h, "01S02", "Option value changed (static)");
        return SQL_SUCCESS;
    case SQL_ATTR_CONCURRENCY:
        if (u != SQL_CONCUR_READ_ONLY)
            return ixo_warn(&s->h, "01S02", "Option value changed (read-only)");
        return SQL_SUCCESS;
    case SQL_ATTR_CURSOR_SCROLLABLE:
        if (u != SQL_NONSCROLLABLE && u != SQL_SCROLLABLE)
            return ixo_err(&s->h, "HY024", 0, "Invalid attribute value");
        s->cursor_type = u == SQL_SCROLLABLE ? SQL_CURSOR_STATIC : SQL_CURSOR_FORWARD_ONLY;
        return SQL_SUCCESS;
    case SQL_ATTR_NOSCAN:
    case SQL_ATTR_MAX_LENGTH:
    case SQL_ATTR_RETRIEVE_DATA:
    case SQL_ATTR_CURSOR_SENSITIVITY:
    case SQL_ATTR_USE_BOOKMARKS:
    case SQL_ATTR_METADATA_ID:
    case SQL_ATTR_ENABLE_AUTO_IPD: return SQL_SUCCESS;
    case SQL_ATTR_ASYNC_ENABLE:
        if (u != SQL_ASYNC_ENABLE_OFF)
            return ixo_err(&s->h, "HYC00", 0, "Asynchronous calls are not implemented");
        return SQL_SUCCESS;
    default: return ixo_err(&s->h, "HY092", 0, "Invalid statement attribute %d", (int)a);
    }
}

SQLRETURN SQL_API SQLSetStmtAttr(SQLHSTMT StatementHandle, SQLINTEGER Attribute, SQLPOINTER Value,
                                 SQLINTEGER StringLength) {
    (void)StringLength;
    ENTER_STMT(StatementHandle);
    SQLRETURN rc = set_stmt_attr(s, Attribute, Value);
    if (SQL_SUCCEEDED(rc)) { /* an explicit ARD or APD takes its header attributes */
        ixo_app_sync(s, IXO_ARD);
        ixo_app_sync(s, IXO_APD);
    }
    return ixo_leave(h, rc);
}

SQLRETURN SQL_API SQLGetStmtAttr(SQLHSTMT StatementHandle, SQLINTEGER Attribute, SQLPOINTER Value,
                                 SQLINTEGER BufferLength, SQLINTEGER *StringLength) {
    (void)BufferLength;
    ENTER_STMT(StatementHandle);
    SQLULEN u;
    SQLPOINTER p;
    switch (Attribute) {
    case SQL_ATTR_APP_ROW_DESC: p = ixo_desc_of(s, IXO_ARD); goto ptr;
    case SQL_ATTR_APP_PARAM_DESC: p = ixo_desc_of(s, IXO_APD); goto ptr;
    case SQL_ATTR_IMP_ROW_DESC: p = &s->desc[IXO_IRD]; goto ptr;
    case SQL_ATTR_IMP_PARAM_DESC: p = &s->desc[IXO_IPD]; goto ptr;
    case SQL_ATTR_ROW_OPERATION_PTR: p = s->row_op; goto ptr;
    case SQL_ATTR_PARAM_OPERATION_PTR: p = s->param_op; goto ptr;
    case SQL_ATTR_ROW_STATUS_PTR: p = s->row_status; goto ptr;
    case SQL_ATTR_ROWS_FETCHED_PTR: p = s->rows_fetched; goto ptr;
    case SQL_ATTR_ROW_BIND_OFFSET_PTR: p = s->row_bind_offset; goto ptr;
    case SQL_ATTR_PARAM_STATUS_PTR: p = s->param_status; goto ptr;
    case SQL_ATTR_PARAM_BIND_OFFSET_PTR: p = s->param_bind_offset; goto ptr;
    case SQL_ATTR_PARAMS_PROCESSED_PTR: p = s->params_processed; goto ptr;
    case SQL_ATTR_ROW_ARRAY_SIZE:
    case SQL_ROWSET_SIZE: u = s->row_array_size; break;
    case SQL_ATTR_ROW_BIND_TYPE: u = s->row_bind_type; break;
    case SQL_ATTR_PARAMSET_SIZE: u = s->paramset_size; break;
    case SQL_ATTR_PARAM_BIND_TYPE: u = s->param_bind_type; break;
    case SQL_ATTR_QUERY_TIMEOUT: u = s->query_timeout; break;
    case SQL_ATTR_MAX_ROWS: u = s->max_rows; break;
    case SQL_ATTR_CURSOR_TYPE: u = s->cursor_type; break;
    case SQL_ATTR_CONCURRENCY: u = SQL_CONCUR_READ_ONLY; break;
    case SQL_ATTR_CURSOR_SCROLLABLE:
        u = s->cursor_type == SQL_CURSOR_STATIC ? SQL_SCROLLABLE : SQL_NONSCROLLABLE;
        break;
    case SQL_ATTR_CURSOR_SENSITIVITY: u = SQL_UNSPECIFIED; break;
    case SQL_ATTR_ASYNC_ENABLE: u = SQL_ASYNC_ENABLE_OFF; break;
    case SQL_ATTR_NOSCAN: u = SQL_NOSCAN_OFF; break;
    case SQL_ATTR_MAX_LENGTH: u = 0; break;
    case SQL_ATTR_RETRIEVE_DATA: u = SQL_RD_ON; break;
    case SQL_ATTR_USE_BOOKMARKS: u = SQL_UB_OFF; break;
    case SQL_ATTR_METADATA_ID: u = SQL_FALSE; break;
    case SQL_ATTR_ROW_NUMBER: u = (SQLULEN)s->row_number; break;
    default:
        return ixo_leave(h,
                         ixo_err(h, "HY092", 0, "Invalid statement attribute %d", (int)Attribute));
    }
    if (Value) *(SQLULEN *)Value = u;
    if (StringLength) *StringLength = sizeof u;
    return ixo_leave(h, SQL_SUCCESS);
ptr:
    if (Value) *(SQLPOINTER *)Value = p;
    if (StringLength) *StringLength = sizeof p;
    return ixo_leave(h, SQL_SUCCESS);
}
