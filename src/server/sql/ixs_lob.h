/*
 * ixs_lob.h: smart large objects (BLOB, CLOB) in ixd: the store in the
 * database file, the descriptors a session opens, the SQL functions
 * (FILETOBLOB, FILETOCLOB, LOTOFILE, LOCOPY, length() of a LOB, ifx_lo_*),
 * the value conversions of the two types and SQ_LODATA. docs/server.md
 * "Smart large objects" describes the behaviour.
 *
 * Storage (one database file, so transactions cover it):
 *   _ixd_lo(id INTEGER PRIMARY KEY, kind INTEGER, size INTEGER)   one row an LO
 *   _ixd_lo_data(k INTEGER PRIMARY KEY, data BLOB)                 its pages
 * Page n of LO id is row k = id << 20 | n and holds bytes [n * 32 KiB,
 * (n + 1) * 32 KiB); it is read and written with SQLite's incremental blob
 * I/O, so no more than one page of an LO is ever in memory. A BLOB or CLOB
 * column holds the LO id (an INTEGER); NULL is NULL.
 */
#ifndef IXS_LOB_H
#define IXS_LOB_H

#include "proto/ix_lob.h"
#include "proto/ix_msg.h"
#include "server/sql/ixs.h"
#include "server/sql/ixs_parse.h"

#define IXS_LO_PAGE  32768      /* bytes a page */
#define IXS_LO_MAXFD 64         /* descriptors open at once in a session */
#define IXS_LO_MAXIO (16 << 20) /* most bytes one SQ_LODATA read returns */
#define IXS_E_LO     IXV_E_LO   /* Smart-large-object error. */

/* The directory server files of FILETOBLOB / LOTOFILE must be in (ixd
 * --lob-dir); NULL refuses every server file. Process-wide, set at start. */
void ixs_lob_set_dir(const char *dir);

/* Registers the ixd_lo* SQLite functions on h (ud: the ixs_conn); 0 or -1.
 * ixs_lob_close ends the session's LOs (ixd_db_close; see below). */
int ixs_lob_register(sqlite3 *h, ixs_conn *db);
void ixs_lob_close(ixs_conn *db);

/* Creates an empty LO of type code (IX_T_BLOB/CLOB): 0 and *id, or -1. */
int ixs_lob_create(ixs_conn *db, int code, int64_t *id, ixv_err *err);
/* Opens LO id with IXP_LO_* flags: the descriptor (>= 0), or -1. */
int ixs_lob_open(ixs_conn *db, int64_t id, int flags, ixv_err *err);
int ixs_lob_close_fd(ixs_conn *db, int fd, ixv_err *err);
/* Reads up to n bytes at the descriptor's position (advanced); the count
 * (0 at the end), or -1. */
int64_t ixs_lob_read(ixs_conn *db, int fd, uint8_t *buf, size_t n, ixv_err *err);
/* Writes n bytes at the position (at the end with LO_APPEND); 0 or -1. */
int ixs_lob_write(ixs_conn *db, int fd, const uint8_t *p, size_t n, ixv_err *err);
/* Moves the position (IXP_LO_SEEK_*): the new position, or -1. */
int64_t ixs_lob_seek(ixs_conn *db, int fd, int64_t off, int whence, ixv_err *err);
/* The size of the LO open on fd, or -1. */
int64_t ixs_lob_fd_size(ixs_conn *db, int fd, ixv_err *err);
/* The size of LO id, or -1. */
int64_t ixs_lob_size(ixs_conn *db, int64_t id, ixv_err *err);

/* A value bound to a LOB parameter: a handle stays itself; a string or
 * bytes become a new LO holding them (how a client inserts a LOB from a
 * bind value). 0 or a negative SQLCODE (err filled). */
int ixs_lob_bind(ixs_conn *db, ityp from, const sval *v, ityp to, sval *out, ixv_err *err);

/* The translator's side: 1 when fn (lower case) is one of the LOB
 * functions; ixs_lob_emit writes the call (0, or -1 with p failed);
 * ixs_lob_emit_length writes length() of a LOB value. */
int ixs_lob_fn(const char *fn);
int ixs_lob_emit(px *p, const char *fn, xv *a, int na, xv *out);
void ixs_lob_emit_length(px *p, xv *a, xv *out);

/* When an LO goes (ixs_lob_gc.c): rows hold counted references (the
 * triggers ixs_lob_table_hooks makes on a table with LOB columns, after
 * CREATE TABLE and every rebuild; ixs_lob_table_refs counts a table's
 * values up or down around a rebuild or DROP TABLE). ixs_lob_gc, at the
 * end of a transaction, deletes the LOs no row holds any more;
 * ixs_lob_close, at the end of the session, also the ones it made that no
 * row ever held, and frees the session's descriptors. ixs_lob_count: the
 * LOs of the database (the debug function ixd_lo_count()). */
struct tdef;
int ixs_lob_ensure_tables(ixs_conn *db, ixv_err *err);
int ixs_lob_table_hooks(ixs_conn *db, const struct tdef *t, ixv_err *err);
int ixs_lob_table_refs(ixs_conn *db, const struct tdef *t, int delta, ixv_err *err);
void ixs_lob_gc(ixs_conn *db);
/* ixs_lob_gc when no transaction is open and no other statement is
 * running (after a statement that ran outside a transaction). */
void ixs_lob_stmt_end(ixs_conn *db);
/* DROP TABLE and a rebuild: the LOB references of table's rows are let go
 * (0 when it has none or is no catalogued table), or -1 with p failed. */
int ixs_lob_drop_table(px *p, const char *table);
int64_t ixs_lob_count(ixs_conn *db);

#endif
