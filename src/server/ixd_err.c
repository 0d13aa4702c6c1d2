/* ixd_err.c: Informix error records for ixd. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ixd_engine.h"
#include "ixd_int.h"

int ixd_seterr(ixd_err *err, int sqlcode, int isamcode, int offset, const char *fmt, ...) {
    if (!err) return -1;
    err->sqlcode = sqlcode;
    err->isamcode = isamcode;
    err->offset = offset;
    err->text[0] = 0;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof err->text, fmt, ap);
        va_end(ap);
    }
    return -1;
}
