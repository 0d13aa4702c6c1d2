/* ixd_int.h: internals shared by the engine's files. */
#ifndef IXD_INT_H
#define IXD_INT_H

#include <sqlite3.h>

#include "ixd_engine.h"

enum {
    IXD_E_NOMEM = -208, /* Memory allocation failed during query processing. */
};

/* The errno of the last failed system call on h's files, or 0
 * (ixd_sqlerr.c). */
int ixd_os_errno(sqlite3 *h);

#endif
