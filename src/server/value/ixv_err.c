/* ixv_err.c: the Informix error record of ixd (ixv.h): the one function that
 * sets it, and the record an SQL function leaves its error in. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/value/ixv.h"

int ixv_vseterr(ixv_err *err, int sqlcode, int isamcode, int offset, const char *fmt, va_list ap) {
    if (!err) return -1;
    err->sqlcode = sqlcode;
    err->isamcode = isamcode;
    err->offset = offset;
    err->sqlrc = 0;
    err->text[0] = 0;
    if (fmt) vsnprintf(err->text, sizeof err->text, fmt, ap);
    return -1;
}

int ixv_seterr(ixv_err *err, int sqlcode, int isamcode, int offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ixv_vseterr(err, sqlcode, isamcode, offset, fmt, ap);
    va_end(ap);
    return -1;
}

int ixv_recode(ixv_err *err, int sqlcode, int isamcode) {
    if (!err) return -1;
    err->sqlcode = sqlcode;
    if (isamcode != IXV_KEEP_ISAM) err->isamcode = isamcode;
    return -1;
}

int ixv_seterr_sqlite(ixv_err *err, int rc, const char *msg) {
    ixv_seterr(err, 0, 0, 0, "%s", msg ? msg : "");
    if (err) err->sqlrc = rc;
    return -1;
}

/* ---- errors raised by SQL functions -------------------------------------------------- */

/* The error the last failing function of this thread raised, until the
 * engine takes it (raised_set: 1 while there is one). */
static _Thread_local ixv_err raised;
static _Thread_local int raised_set;

int ixv_vtab_raise(const ixv_err *e) {
    if (!e->sqlcode) return e->sqlrc ? e->sqlrc : SQLITE_ERROR; /* SQLite's own failure */
    raised = *e;
    raised_set = 1;
    return IXV_SQLITE_RAISED;
}

void ixv_fn_raise(sqlite3_context *ctx, const ixv_err *e) {
    int rc = ixv_vtab_raise(e);
    if (rc != IXV_SQLITE_RAISED) sqlite3_result_error(ctx, e->text, -1); /* SQLite's own */
    sqlite3_result_error_code(ctx, rc);
}

void ixv_fn_err(sqlite3_context *ctx, int code, const char *text) {
    ixv_seterr(&raised, code, 0, 0, "%s", text ? text : "");
    raised_set = 1;
    sqlite3_result_error_code(ctx, IXV_SQLITE_RAISED);
}

int ixv_raised_take(ixv_err *out) {
    if (!raised_set) return 0;
    *out = raised;
    raised_set = 0;
    return 1;
}

void ixv_raised_clear(void) {
    raised_set = 0;
}
