/* ixd_int.h: internals shared by the ixd source files. */
#ifndef IXD_INT_H
#define IXD_INT_H

#include "ixd_engine.h"

/* Fills *err (sqlcode, isamcode, offset, printf-style insertion text; fmt may
 * be NULL) and returns -1, so that callers can `return ixd_seterr(...)`. */
int ixd_seterr(ixd_err *err, int sqlcode, int isamcode, int offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
