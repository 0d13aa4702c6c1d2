/* ixs_func.h: the SQLite side of the built-in functions: the ixd_* functions
 * of ixs_func_impl.c (the helpers they share with ixd_store_fn.c are in
 * src/server/value/ixv.h). */
#ifndef IXS_FUNC_H
#define IXS_FUNC_H

#include "server/sql/ixs.h"

/* Registers the functions of ixs_func_impl.c on h (ud: the ixs_conn); 0 or -1. */
int ixs_register_builtins(sqlite3 *h, void *ud);

#endif
