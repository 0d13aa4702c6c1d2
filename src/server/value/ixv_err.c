/* ixv_err.c: the Informix error record of ixd (ixv.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/value/ixv.h"

int ixv_seterr(ixv_err *err, int sqlcode, int isamcode, int offset, const char *fmt, ...) {
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
