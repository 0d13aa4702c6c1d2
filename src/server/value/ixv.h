/*
 * ixv.h: ixd's value layer, below the engine, the translator and
 * TimeSeries (docs/architecture.md): the string builder the SQL text is
 * built with, Informix types as ixd keeps them (ityp), SQLite storage
 * values (sval) and the conversions between them, the tuple and text forms
 * and the exact DECIMAL helpers. Defined in ixv_value.c.
 */
#ifndef IXV_H
#define IXV_H

#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"
#include "proto/ix_lob.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

#include "server/value/ixv_codes.h"

/* ---- the error record (ixv_err.c) ----------------------------------------------------
 * An Informix error, what SQ_ERR carries: every layer of ixd fills one. */
typedef struct ixv_err {
    int sqlcode;    /* negative SQLCODE, e.g. -201; 0 = no error */
    int isamcode;   /* ISAM code, e.g. -100, -154; 0 if none */
    int offset;     /* position in the statement text (syntax errors), else 0 */
    char text[256]; /* insertion text for the message's %s (table name, ...) */
    int sqlrc;      /* sqlcode 0: an SQLite failure, this result code, that the
                     * engine maps (TimeSeries' storage calls) */
} ixv_err;
/* The one function that sets an error: fills *err (sqlcode, isamcode,
 * offset, printf-style insertion text; fmt may be NULL; sqlrc 0) and returns
 * -1, so that callers can `return ixv_seterr(...)`. err NULL: nothing, -1.
 * ixv_vseterr is the same with a va_list (the parser's ixs_px_failc). */
int ixv_seterr(ixv_err *err, int sqlcode, int isamcode, int offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int ixv_vseterr(ixv_err *err, int sqlcode, int isamcode, int offset, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
/* Gives a record already set another SQLCODE and ISAM code (isamcode
 * IXV_KEEP_ISAM keeps it), keeping its offset and insertion text: a caller
 * that knows better what failed (a duplicate key while a unique index is
 * built is -371). Returns -1. */
#define IXV_KEEP_ISAM 1
int ixv_recode(ixv_err *err, int sqlcode, int isamcode);
/* An SQLite failure that the engine maps (ixd_sqlite_err), recorded by a
 * layer that cannot map it (TimeSeries' storage calls): sqlcode 0, sqlrc rc,
 * text SQLite's message (copied; may be NULL). Returns -1. */
int ixv_seterr_sqlite(ixv_err *err, int rc, const char *msg);

/* ---- errors raised by SQL functions (ixv_err.c) ----------------------------------------
 * An SQL function (or a virtual table's method) that fails leaves its
 * Informix error in the error record of the thread that runs the statement
 * and fails with the result code IXV_SQLITE_RAISED (sqlite3_result_error_code;
 * a virtual table's method returns it); the engine (ixd_sqlite_err) takes the
 * record back with ixv_raised_take when a statement fails with that code.
 * (The record is the thread's: SQLite runs a function on the thread that
 * steps its statement, and SQLite 3.40 has no per-connection client data.)
 * No message text travels through SQLite. */
#define IXV_SQLITE_RAISED (SQLITE_ERROR | (0x49 << 8))
/* Raises SQLCODE code with insertion text text (may be NULL) from ctx. */
void ixv_fn_err(sqlite3_context *ctx, int code, const char *text);
/* Raises the whole record e (SQLCODE, ISAM code, text) from ctx; a record
 * with sqlcode 0 (ixv_seterr_sqlite) fails ctx with its SQLite result code
 * instead, for the engine to map. */
void ixv_fn_raise(sqlite3_context *ctx, const ixv_err *e);
/* The same from a virtual table's method: leaves e in the thread's record
 * and returns the result code the method returns (IXV_SQLITE_RAISED, or
 * e's SQLite result code for a record with sqlcode 0). */
int ixv_vtab_raise(const ixv_err *e);
/* 1 with *out the error a function raised on this thread (the pending record
 * is cleared), 0 when there is none (*out untouched). */
int ixv_raised_take(ixv_err *out);
/* Drops a raised error nobody took (a failure that is not a raise). */
void ixv_raised_clear(void);

/* The standard Informix message text of an SQLCODE or ISAM code (e.g. -206
 * "The specified table (%s) is not in the database."; -154 "ISAM error: Lock
 * Timeout Expired"); "Unknown error." for codes ixd does not know. Static,
 * never NULL. */
const char *ixv_errtext(int sqlcode);

/* ---- string builder ---------------------------------------------------------- */
typedef struct sb {
    char *p;
    size_t n, cap;
    int oom;
} sb;
void ixv_sb_addn(sb *b, const char *s, size_t n);
void ixv_sb_add(sb *b, const char *s);
void ixv_sb_addc(sb *b, char c);
void ixv_sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Names in SQLite. SQLite compares names without case, Informix a delimited
 * identifier ("Name" under DELIMIDENT) with it: a name that holds an ASCII
 * upper-case letter or IXV_NAME_ESC is stored in SQLite under its storage
 * name, each such letter written as IXV_NAME_ESC and its lower case, each
 * IXV_NAME_ESC doubled ("Test" -> ^test, "TEST" -> ^t^e^s^t); any other
 * name (every name written without quotes) is its own storage name. The
 * catalogue (_ixd_tables, _ixd_columns, ...) keeps the name as written.
 * ixv_name_escaped: 1 when name's storage name differs from it.
 * ixv_stname: the storage name,
 * name itself when it is its own, else written into buf of n bytes (cut
 * when shorter than IXV_STNAME_MAX + 1). ixv_sb_ident: the storage name
 * quoted for SQLite; ixv_sb_quoted: name itself quoted (a savepoint's,
 * or a name of Informix SQL, "" doubled). ixv_sb_unstname: text s (a name SQLite gives, or
 * its message naming them) with every storage name read back as written. */
#define IXV_NAME_ESC   '^'
#define IXV_STNAME_MAX (2 * 128)
int ixv_name_escaped(const char *name);
const char *ixv_stname(const char *name, char *buf, size_t n);
void ixv_sb_unstname(sb *b, const char *s);
void ixv_sb_quoted(sb *b, const char *name);
void ixv_sb_ident(sb *b, const char *name);         /* "name" quoted for SQLite */
void ixv_sb_strlit(sb *b, const char *s, size_t n); /* 'text' quoted for SQLite */
void ixv_sb_free(sb *b);
char *ixv_sb_take(sb *b); /* returns the NUL-terminated text (caller frees) */

/* ---- types --------------------------------------------------------------------- */
/* An Informix value type: code is the base IXT_T_* code as the value codec uses
 * it (LVARCHAR 43, BOOLEAN 45); -1 = not known (NULL literal, untyped ?). */
typedef struct ityp {
    int code;
    uint32_t len;
} ityp;

int ixv_is_int(int code);   /* SMALLINT, INTEGER, SERIAL, INT8, SERIAL8, BIGINT, BIGSERIAL */
int ixv_is_float(int code); /* FLOAT, SMALLFLOAT */
int ixv_is_dec(int code);   /* DECIMAL, MONEY */
int ixv_is_numeric(int code);
int ixv_is_char(int code); /* CHAR, NCHAR, VARCHAR, NVARCHAR, LVARCHAR, TEXT */
ityp ixv_t(int code, uint32_t len);
ityp ixv_t_default(int code); /* with the fixed width / default length */
/* The describe form of a type: code (40/41 for LVARCHAR/BOOLEAN) and xname. */
int ixv_desc_code(int code, const char **xname);
/* Name of a type as "DECIMAL(10,2)" into buf. */
void ixv_type_text(ityp t, char *buf, size_t n);

/* ---- storage values -------------------------------------------------------------- */
typedef struct sval {
    int kind; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB */
    int64_t i;
    double d;
    const uint8_t *p; /* TEXT/BLOB bytes (borrowed unless own) */
    size_t n;
    uint8_t *own;
} sval;
void ixv_sval_free(sval *v);
void ixv_sval_from_sqlite(sval *v, sqlite3_value *x); /* borrowed */
void ixv_sval_from_column(sval *v, sqlite3_stmt *st, int i);
int ixv_sval_bind(const sval *v, sqlite3_stmt *st, int idx);
/* As ixv_sval_bind, without copying text and blob bytes: v must outlive the
 * binding. */
int ixv_sval_bind_static(const sval *v, sqlite3_stmt *st, int idx);
void ixv_sval_result(const sval *v, sqlite3_context *ctx);
void ixv_sval_sql(const sval *v, sb *out); /* as an SQL literal */

/* Conversions. Each returns 0 or a negative Informix SQLCODE (-1213, ...). */
int ixv_tuple_to_sval(ityp t, const uint8_t *p, size_t n, sval *out);
int ixv_sval_to_tuple(ityp t, const sval *v, ixb_wbuf *out);
int ixv_text_to_sval(ityp t, const char *s, size_t n, sval *out);
int ixv_sval_to_text(ityp t, const sval *v, ixb_wbuf *out); /* NULL -> nothing, returns 1 */
/* Converts a storage value of type from into type to (via text when the
 * storage classes differ). */
int ixv_convert(ityp from, const sval *v, ityp to, sval *out);
/* 1 if v fits integer type code (SMALLINT, INTEGER/SERIAL/DATE: their NULL
 * forms excluded; the 8-byte types: all but INT64_MIN). */
int ixv_int_fits(int code, int64_t v);
/* SQLCODE for a failed conversion to t (IX_EINVAL/IX_ERANGE). */
int ixv_cvt_code(ityp to, int ixrc);
/* A value stored into a column of type t (ixd_chk): 0 if the column can
 * hold it, else the negative SQLCODE a fetch of it would give (an integer
 * out of SMALLINT, INTEGER or INT8 range, a DATE outside 0001..9999, a
 * SMALLFLOAT out of float range; an INTERVAL over its leading precision
 * -1265). ixv_store_text_len: the bytes of text s (n bytes) a character
 * column of type t keeps: cut to its length, a CHAR without the trailing
 * blanks of the cut; n when it fits. */
int ixv_store_check(ityp t, const sval *v);
/* The most bytes a value of character type t (CHAR, NCHAR, VARCHAR,
 * NVARCHAR, LVARCHAR) holds: its declared length, or the type's default. */
size_t ixv_text_width(ityp t);
size_t ixv_store_text_len(ityp t, const uint8_t *s, size_t n);

/* decimal helpers */
int ixv_dec_from_sval(const sval *v, ixt_decimal *d);                /* any storage class */
void ixv_dec_to_blob(const ixt_decimal *d, uint8_t *buf, size_t *n); /* buf >= 18 */
/* ixt_dec_add, _mul, _div (src/types) with their status as the SQL
 * operation's: 0, 1 (an operand is NULL), -1202 (division by zero) or
 * -1226 (out of DECIMAL's range). */
int ixv_dec_add(const ixt_decimal *a, const ixt_decimal *b, int sub, ixt_decimal *r);
int ixv_dec_mul(const ixt_decimal *a, const ixt_decimal *b, ixt_decimal *r);
int ixv_dec_div(const ixt_decimal *a, const ixt_decimal *b, ixt_decimal *r);

/* ---- BLOB and CLOB values (ixv_lob.c) ---------------------------------------------- */
#define IXV_LO_HEX_LEN (2 * IXP_LOCATOR_LEN) /* hex digits of a handle */
/* 1 for IX_T_BLOB and IX_T_CLOB. */
int ixv_lob_is(int code);
/* The extended type id of a LOB type (10 BLOB, 11 CLOB) and back. */
int ixv_lob_xid(int code);
int ixv_lob_code(int xid);
/* A tuple or bind value (the UDT envelope around the handle) to its SQLite
 * value (the LO id), back, and a converted value (LOB to LOB). Each returns
 * 0 or a negative SQLCODE. */
int ixv_lob_tuple_to_sval(ityp t, const uint8_t *p, size_t n, sval *out);
int ixv_lob_sval_to_tuple(ityp t, const sval *v, ixb_wbuf *out);
int ixv_lob_convert(ityp from, const sval *v, ityp to, sval *out);
/* A string cast to BLOB or CLOB ('<hex>'::BLOB, as clients name an LO in
 * SQL): exactly IXV_LO_HEX_LEN hex digits (either case) spelling a 72-byte
 * handle give that handle's LO; 0 with *out the LO id, or -9634 for any
 * other string. Whether the LO exists is checked where it is used. */
int ixv_lob_text_to_sval(ityp t, const char *s, size_t n, sval *out);

/* ---- what the SQL functions share (ixv_fn.c) ------------------------------------------
 * ixv_fn_arg_dec reads any number into d: 0, 1 for NULL,
 * or -1 after raising the error. ixv_fn_res_dec returns d (NULL when it is
 * NULL). ixv_fn_full_dt reads a DATE (code IX_T_DATE) or a DATETIME of
 * qualifier q into a full datetime (leading fields from the current time):
 * 0, 1 for NULL, or an SQLCODE. ixv_fn_res_dt returns dt as a DATETIME of
 * qualifier q. */
int ixv_fn_arg_dec(sqlite3_context *ctx, sqlite3_value *x, ixt_decimal *d);
void ixv_fn_res_dec(sqlite3_context *ctx, const ixt_decimal *d);
int ixv_fn_full_dt(sqlite3_value *x, int code, uint32_t q, ixt_datetime *dt);
void ixv_fn_res_dt(sqlite3_context *ctx, uint32_t q, const ixt_datetime *dt);

/* Today as an Informix DATE day number, and now as a full datetime to the
 * microsecond (local time). */
int32_t ixv_today(void);
void ixv_now_dt(ixt_datetime *dt);

/* The SQL function that checks integer + - * against Informix's range
 * (registered by the engine, emitted by the translator): ixd_irange(x, 4)
 * for INTEGER, ixd_irange(x, 8) for INT8 and BIGINT; -1215 past it. */
#define IXV_FN_IRANGE "ixd_irange"

/* ---- internal names --------------------------------------------------------------- */
/* Every object ixd keeps for itself in a database file (the _ixd_* catalog
 * tables, the session catalog temp._ixd_t*, the _ixd_databases virtual table,
 * the _ixd_new table of an ALTER rebuild and its _ixd_old<n> columns) has a
 * name that starts with IXV_INTERNAL_PREFIX; SQLite keeps sqlite_* for itself.
 * User SQL can neither name nor create such objects: the catalog lookup treats
 * them as missing, and every name a statement defines is checked. */
#define IXV_INTERNAL_PREFIX "_ixd_"
/* 1 when name (any case) is in ixd's or SQLite's internal name space. */
int ixv_internal_name(const char *name);

#endif
