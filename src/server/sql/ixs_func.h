/* ixs_func.h: the SQLite side of the built-in functions: the ixd_* functions
 * of ixs_func_impl.c, and the helpers of ixd_store_fn.c they share. */
#ifndef IXS_FUNC_H
#define IXS_FUNC_H

#include "server/sql/ixs.h"

/* Registers the functions of ixs_func_impl.c on h (ud: the ixd_db); 0 or -1. */
int ixs_register_builtins(sqlite3 *h, void *ud);

/* ixd_store_fn.c. ixd_fn_err raises SQLCODE code (with its insertion text)
 * from a function. ixd_fn_arg_dec reads any number into d: 0, 1 for NULL,
 * or -1 after raising the error. ixd_fn_res_dec returns d (NULL when it is
 * NULL). ixd_fn_full_dt reads a DATE (code IX_T_DATE) or a DATETIME of
 * qualifier q into a full datetime (leading fields from the current time):
 * 0, 1 for NULL, or an SQLCODE. ixd_fn_res_dt returns dt as a DATETIME of
 * qualifier q. */
void ixd_fn_err(sqlite3_context *ctx, int code, const char *text);
int ixd_fn_arg_dec(sqlite3_context *ctx, sqlite3_value *x, ixt_decimal *d);
void ixd_fn_res_dec(sqlite3_context *ctx, const ixt_decimal *d);
int ixd_fn_full_dt(sqlite3_value *x, int code, uint32_t q, ixt_datetime *dt);
void ixd_fn_res_dt(sqlite3_context *ctx, uint32_t q, const ixt_datetime *dt);

#endif
