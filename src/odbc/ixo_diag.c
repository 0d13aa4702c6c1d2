/*
 * ixo_diag.c: handle heads (kind check, lock, diagnostics), the records of
 * SQLGetDiagRec / SQLGetDiagField, and the string helpers every entry
 * point uses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixo_int.h"

#define DIAG_MAX 32 /* records kept per call: the rest are dropped */

void ixo_head_init(ixo_head *h, SQLSMALLINT kind) {
    memset(h, 0, sizeof *h);
    h->kind = kind;
    pthread_mutex_init(&h->lock, NULL);
    h->lk = &h->lock;
    atomic_init(&h->in_call, NULL);
    h->busy = &h->in_call;
}

void ixo_head_share(ixo_head *h, ixo_head *owner) {
    h->lk = owner->lk;
    h->busy = owner->busy;
}

int ixo_in_call(ixo_head *h) {
    return atomic_load(h->busy) == h;
}

void ixo_head_free(ixo_head *h) {
    free(h->diag);
    h->diag = NULL;
    h->ndiag = 0;
    pthread_mutex_destroy(&h->lock);
}

ixo_head *ixo_enter(SQLHANDLE handle, SQLSMALLINT kind) {
    ixo_head *h = handle;
    if (!h || h->kind != kind) return NULL;
    pthread_mutex_lock(h->lk);
    atomic_store(h->busy, h);
    h->ndiag = 0;
    h->diag_rows = 0;
    return h;
}

SQLRETURN ixo_leave(ixo_head *h, SQLRETURN rc) {
    if (h->kind == SQL_HANDLE_STMT && ((ixo_stmt *)h)->timer_armed)
        rc = ixo_timer_disarm((ixo_stmt *)h, rc);
    atomic_store(h->busy, NULL);
    pthread_mutex_unlock(h->lk);
    return rc;
}

static void add(ixo_head *h, const char *state, SQLINTEGER native, const char *fmt, va_list ap) {
    if (h->ndiag >= DIAG_MAX) return;
    if (!h->diag) {
        h->diag = malloc(DIAG_MAX * sizeof *h->diag);
        if (!h->diag) return;
    }
    ixo_diag *d = &h->diag[h->ndiag++];
    snprintf(d->state, sizeof d->state, "%s", state);
    d->native = native;
    int n = snprintf(d->msg, sizeof d->msg, "%s", IXO_MSG_PREFIX);
    vsnprintf(d->msg + n, sizeof d->msg - (size_t)n, fmt, ap);
}

SQLRETURN ixo_err(ixo_head *h, const char *state, SQLINTEGER native, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    add(h, state, native, fmt, ap);
    va_end(ap);
    return SQL_ERROR;
}

SQLRETURN ixo_warn(ixo_head *h, const char *state, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    add(h, state, 0, fmt, ap);
    va_end(ap);
    return SQL_SUCCESS_WITH_INFO;
}

SQLRETURN ixo_err_conn(ixo_head *h, ix_conn *conn) {
    const char *msg = ix_errmsg(conn);
    int code = ix_sqlcode(conn);
    if (!msg || !*msg) msg = ix_rc_str(ix_errcode(conn));
    /* a statement SQLCancel interrupted: ODBC's "operation canceled" */
    const char *state = code == IX_SQLCODE_INTERRUPTED ? "HY008" : ix_sqlstate(conn);
    return ixo_err(h, state, code, "%s", msg);
}

void ixo_diag_timeout(ixo_head *h) {
    if (h->ndiag == 0) {
        ixo_err(h, "HYT00", 0, "Timeout expired");
        return;
    }
    ixo_diag *d = &h->diag[0];
    snprintf(d->state, sizeof d->state, "HYT00");
    snprintf(d->msg, sizeof d->msg, "%sTimeout expired", IXO_MSG_PREFIX);
}

SQLRETURN ixo_err_cv(ixo_head *h, ixo_cv cv, int col) {
    static const char *const text[] = {
        [IXO_CV_TRUNC] = "String data, right truncated",
        [IXO_CV_FRACTION] = "Fractional truncation",
        [IXO_CV_BADTYPE] = "Restricted data type attribute violation",
        [IXO_CV_RANGE] = "Numeric value out of range",
        [IXO_CV_BADCHAR] = "Invalid character value for cast specification",
        [IXO_CV_BADDT] = "Invalid datetime format",
        [IXO_CV_NULLNOIND] = "Indicator variable required but not supplied",
        [IXO_CV_NOMEM] = "Memory allocation error",
        [IXO_CV_UNSUPPORTED] = "Optional feature not implemented (C type)",
    };
    switch (cv) {
    case IXO_CV_OK: return SQL_SUCCESS;
    case IXO_CV_NODATA: return SQL_NO_DATA;
    case IXO_CV_TRUNC:
    case IXO_CV_FRACTION: return ixo_warn(h, ixo_cv_state(cv), "%s (column %d)", text[cv], col);
    default: return ixo_err(h, ixo_cv_state(cv), 0, "%s (column %d)", text[cv], col);
    }
}

char *ixo_strdup_in(const SQLCHAR *s, SQLINTEGER len, int *oom) {
    *oom = 0;
    if (!s) return NULL;
    size_t n = len == SQL_NTS || len < 0 ? strlen((const char *)s) : (size_t)len;
    char *p = malloc(n + 1);
    if (!p) {
        *oom = 1;
        return NULL;
    }
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

int ixo_str_out(const char *s, void *out, SQLLEN cap, SQLSMALLINT *len16, SQLINTEGER *len32) {
    size_t n = strlen(s);
    if (len16) *len16 = (SQLSMALLINT)(n > INT16_MAX ? INT16_MAX : n);
    if (len32) *len32 = (SQLINTEGER)n;
    if (!out || cap <= 0) return n > 0;
    size_t k = n < (size_t)cap ? n : (size_t)cap - 1;
    memcpy(out, s, k);
    ((char *)out)[k] = 0;
    return k < n;
}

/* ---- SQLGetDiagRec / SQLGetDiagField ---- */

static ixo_head *diag_head(SQLSMALLINT type, SQLHANDLE handle) {
    ixo_head *h = handle;
    if (!h || h->kind != type) return NULL;
    return h;
}

SQLRETURN SQL_API SQLGetDiagRec(SQLSMALLINT HandleType, SQLHANDLE Handle, SQLSMALLINT RecNumber,
                                SQLCHAR *Sqlstate, SQLINTEGER *NativeError, SQLCHAR *MessageText,
                                SQLSMALLINT BufferLength, SQLSMALLINT *TextLength) {
    ixo_head *h = diag_head(HandleType, Handle);
    if (!h) return SQL_INVALID_HANDLE;
    if (RecNumber < 1 || BufferLength < 0) return SQL_ERROR;
    if (RecNumber > h->ndiag) return SQL_NO_DATA;
    const ixo_diag *d = &h->diag[RecNumber - 1];
    if (Sqlstate) memcpy(Sqlstate, d->state, 6);
    if (NativeError) *NativeError = d->native;
    int cut = ixo_str_out(d->msg, MessageText, BufferLength, TextLength, NULL);
    return cut && MessageText ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

static SQLRETURN diag_text(const char *s, SQLPOINTER out, SQLSMALLINT cap, SQLSMALLINT *len) {
    return ixo_str_out(s, out, cap, len, NULL) && out ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetDiagField(SQLSMALLINT HandleType, SQLHANDLE Handle, SQLSMALLINT RecNumber,
                                  SQLSMALLINT DiagIdentifier, SQLPOINTER DiagInfo,
                                  SQLSMALLINT BufferLength, SQLSMALLINT *StringLength) {
    ixo_head *h = diag_head(HandleType, Handle);
    if (!h) return SQL_INVALID_HANDLE;
    /* header fields */
    switch (DiagIdentifier) {
    case SQL_DIAG_NUMBER:
        if (DiagInfo) *(SQLINTEGER *)DiagInfo = h->ndiag;
        return SQL_SUCCESS;
    case SQL_DIAG_ROW_COUNT:
        if (HandleType != SQL_HANDLE_STMT) return SQL_ERROR;
        if (DiagInfo) *(SQLLEN *)DiagInfo = h->diag_rows;
        return SQL_SUCCESS;
    case SQL_DIAG_RETURNCODE:
        if (DiagInfo) *(SQLRETURN *)DiagInfo = h->ndiag ? SQL_ERROR : SQL_SUCCESS;
        return SQL_SUCCESS;
    case SQL_DIAG_CURSOR_ROW_COUNT:
    case SQL_DIAG_DYNAMIC_FUNCTION_CODE:
        if (DiagInfo) *(SQLLEN *)DiagInfo = 0;
        return SQL_SUCCESS;
    case SQL_DIAG_DYNAMIC_FUNCTION: return diag_text("", DiagInfo, BufferLength, StringLength);
    default: break;
    }
    if (RecNumber < 1) return SQL_ERROR;
    if (RecNumber > h->ndiag) return SQL_NO_DATA;
    const ixo_diag *d = &h->diag[RecNumber - 1];
    switch (DiagIdentifier) {
    case SQL_DIAG_SQLSTATE: return diag_text(d->state, DiagInfo, BufferLength, StringLength);
    case SQL_DIAG_NATIVE:
        if (DiagInfo) *(SQLINTEGER *)DiagInfo = d->native;
        return SQL_SUCCESS;
    case SQL_DIAG_MESSAGE_TEXT: return diag_text(d->msg, DiagInfo, BufferLength, StringLength);
    case SQL_DIAG_CLASS_ORIGIN:
    case SQL_DIAG_SUBCLASS_ORIGIN:
        return diag_text(strncmp(d->state, "IX", 2) == 0 ? "ixdb" : "ISO 9075", DiagInfo,
                         BufferLength, StringLength);
    case SQL_DIAG_CONNECTION_NAME:
    case SQL_DIAG_SERVER_NAME: return diag_text("", DiagInfo, BufferLength, StringLength);
    case SQL_DIAG_ROW_NUMBER:
        if (DiagInfo) *(SQLLEN *)DiagInfo = SQL_ROW_NUMBER_UNKNOWN;
        return SQL_SUCCESS;
    case SQL_DIAG_COLUMN_NUMBER:
        if (DiagInfo) *(SQLINTEGER *)DiagInfo = SQL_COLUMN_NUMBER_UNKNOWN;
        return SQL_SUCCESS;
    default: return SQL_ERROR;
    }
}
