/*
 * ixsql_lob.h: smart large objects (BLOB, CLOB) in ixsql (ixsql_lob.c):
 * how a value prints, and the LOB files of UNLOAD and LOAD.
 *
 * Printing (docs/ixsql.md "Smart large objects"): dbaccess shows the
 * string <SBlob value> for a BLOB or CLOB; \pset lob size adds the size
 * and \pset lob text prints the text of a CLOB (a BLOB keeps the
 * placeholder).
 *
 * UNLOAD / LOAD (Informix's "Unloading / Loading Smart Large Objects"): the
 * values of one LOB column go into one file, blob<hex> or clob<hex>, next
 * to the unload file; the unload file's field is start_off,length,path
 * with the offset and length in hexadecimal. LOAD takes that form and a
 * bare path (the whole file is the value).
 */
#ifndef IXSQL_LOB_H
#define IXSQL_LOB_H

#include <stdint.h>
#include <stdio.h>

#include "ixdb.h"
#include "ixsql_unl.h"

enum { IXSQL_LOB_PLACEHOLDER, IXSQL_LOB_SIZE, IXSQL_LOB_TEXT };
extern int ixsql_lob_show; /* \pset lob: an IXSQL_LOB_* */

/* "placeholder" / "size" / "text" (any case): the IXSQL_LOB_*, or -1; and
 * the name of one. */
int ixsql_lob_parse(const char *name);
const char *ixsql_lob_name(int mode);

/* 1 when column i (described) may hold a smart LOB: UDTFIXED with the
 * handle's length. */
int ixsql_lob_column(ix_stmt *s, int i);

/* Column i of the current row as it prints: a smart LOB as \pset lob says,
 * any other value as ix_column_text gives it; NULL for NULL. *n its
 * length. The text stays valid until the next call for the same column or
 * ixsql_lob_end. */
const char *ixsql_col_text(ix_stmt *s, int i, size_t *n);
void ixsql_lob_end(void);

/* UNLOAD: the files of the LOB columns of one UNLOAD. dir is the directory
 * of the unload file ("" for the current one). ixsql_lob_put writes the
 * value of column i (not NULL) to its column's file and appends the field
 * to b: 0, -1 out of memory, -2 the connection failed (error on conn), -3
 * a file error (message printed). ixsql_lob_unl_close closes the files:
 * 0, or -3 when a write failed. */
typedef struct ixsql_lob_unl ixsql_lob_unl;
ixsql_lob_unl *ixsql_lob_unl_new(const char *unl_file, int ncols);
int ixsql_lob_put(ixsql_lob_unl *u, ix_stmt *s, int i, ixsql_buf *b, char delim, int hex);
int ixsql_lob_unl_close(ixsql_lob_unl *u);

/* LOAD: the kind (IX_T_BLOB / IX_T_CLOB) of column col of table, from
 * the catalogue (IX_T_BLOB when it does not say). */
int ixsql_lob_kind(ix_conn *conn, const char *table, size_t tlen, const char *col);
/* A new LO of type kind holding what the LOAD field text (n bytes, escapes
 * undone) names: "off,len,path" (hexadecimal) or "path". *loc its handle.
 * 0; -2 the connection failed; -3 a bad field or file (message printed). */
int ixsql_lob_load(ix_conn *conn, int kind, const char *text, size_t n, ix_locator *loc);

#endif
