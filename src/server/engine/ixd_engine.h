/*
 * ixd_engine.h: the SQL engine of ixd, the boundary between the protocol
 * session (ixd_session.c) and SQLite.
 *
 * The engine takes Informix SQL, runs it on SQLite, and speaks in Informix
 * terms: statement types (ix_stmttype), column types and encoded lengths
 * (§3.2.1), values in their SQLI tuple encoding (src/types), and errors as
 * SQLCODE + ISAM code + statement offset + insertion text.
 *
 * Threads: an ixd_engine is shared by all sessions (it only holds the data
 * directory and settings); an ixd_db and everything made from it belongs to
 * one session thread at a time.
 */
#ifndef IXD_ENGINE_H
#define IXD_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"
#include "types/ix_value.h"
#include "server/value/ixv.h"

/* Statements and their database (docs/server.md "Statements when the
 * database closes"): a message that needs a database while none is open is
 * IXD_E_NO_DB; a statement or cursor whose database has been closed (or
 * changed) since it was prepared is gone, as if never prepared:
 * IXD_E_NO_STMT. */
#define IXD_E_NO_DB   IXV_E_NO_DB_SELECTED /* Database not selected yet. */
#define IXD_E_NO_STMT IXV_E_NO_STMT        /* Prepare statement failed or was not executed. */
/* A cursor that is not open (NFETCH, SFETCH; CLOSE in strict mode), or a
 * statement a message cannot reach (strict mode). */
#define IXD_E_NOT_AVAILABLE IXV_E_NOT_AVAILABLE /* The cursor or statement is not available. */

typedef struct ixd_engine ixd_engine;
typedef struct ixd_db ixd_db;
typedef struct ixd_stmt ixd_stmt;

/* Creates the engine over data directory `dir` (created if missing), and the
 * sysmaster database if it does not exist. Returns 0, or -1 with *err set.
 * The engine knows which databases its sessions have open (thread-safe);
 * close every ixd_db before ixd_engine_close. */
int ixd_engine_open(ixd_engine **out, const char *dir, ixv_err *err);
void ixd_engine_close(ixd_engine *e);

/* The server's version banner, the one string the login accept (CONACC)
 * carries and DBINFO('version', ...) reports. ixd_engine_set_banner copies
 * it (NULL: IXP_LOGIN_DEFAULT_BANNER) and returns 0, or -1 when out of
 * memory (the old banner stays). ixd_engine_banner never returns NULL. */
int ixd_engine_set_banner(ixd_engine *e, const char *banner);
const char *ixd_engine_banner(const ixd_engine *e);
/* The server's name (DBSERVERNAME, SITENAME): as the banner; the default
 * (NULL) is "ixd". */
int ixd_engine_set_server_name(ixd_engine *e, const char *name);
const char *ixd_engine_server_name(const ixd_engine *e);
/* The other names the server answers to (DBSERVERALIASES): names separated
 * by commas, copied (NULL or "": none); 0, or -1 when out of memory (the
 * old list stays). ixd_engine_is_server: 1 when name is the server's name
 * or one of its aliases (compared as written), the names a login's
 * INFORMIXSERVER (CONNECT TO '@name', 'db@name') may ask for; else 0. */
int ixd_engine_set_server_aliases(ixd_engine *e, const char *names);
int ixd_engine_is_server(const ixd_engine *e, const char *name);

/* The databases of the data directory, in name order (SQ_DBLIST; the same
 * set as the sysdatabases view). Returns their count n with *names an array
 * of n strings in one allocation, to be freed with free() (also when n is
 * 0), or -1 with *err (-208 out of memory) and *names NULL. */
int ixd_db_list(ixd_engine *e, char ***names, ixv_err *err);

/* The longest database name, in bytes; a longer one is -354. */
#define IXD_DBNAME_MAX 128

/* Opens database `name` for a session logged in as `user`. -329 if it does
 * not exist, -354 for a name that is not 1..IXD_DBNAME_MAX characters of
 * [A-Za-z_][A-Za-z0-9_]*, -215 (ISAM code: minus the errno) when the file or
 * the -wal/-shm files SQLite needs beside it cannot be written or created
 * (text: that file's path). *flags gets the SQ_DONE warnings of DBOPEN (0x15
 * logged, 0x14 unlogged, | 0x02 for MODE ANSI; §2.8). While it is open, DROP
 * DATABASE of it from any session is refused (-425). */
int ixd_db_open(ixd_engine *e, const char *name, const char *user, ixd_db **out, int *flags,
                ixv_err *err);
/* Closes it; an open transaction rolls back. NULL is a no-op. The engine
 * must still be open. Statements prepared on it may still be freed with
 * ixd_stmt_free afterwards; ixd_stmt_orphaned says 1 for them, and every
 * other call on them fails with IXD_E_NO_STMT (ixd_stmt_type and the other
 * describe calls still answer from what the statement kept). */
void ixd_db_close(ixd_db *db);
/* 1 when s's database has been closed since s was prepared. */
int ixd_stmt_orphaned(const ixd_stmt *s);

/* A session with no database open still runs CREATE DATABASE, DATABASE and
 * DROP DATABASE: ixd_session_exec handles those statements for a session
 * (db may be NULL); it returns 1 if it handled sql (with *db replaced as the
 * statement says), 0 if sql is not such a statement. */
int ixd_session_exec(ixd_engine *e, const char *user, const char *sql, size_t n, ixd_db **db,
                     int *dbflags, ixv_err *err);

/* Prepares one Informix statement. Returns 0 or -1 with *err (e.g. -201
 * with the offset, -206 with the table name, -217 with the column name). */
int ixd_prepare(ixd_db *db, const char *sql, size_t n, ixd_stmt **out, ixv_err *err);
void ixd_stmt_free(ixd_stmt *s);

/* UPDATE / DELETE ... WHERE CURRENT OF name: fn(ud, name) gives the
 * statement of the session's cursor of that name (lower case), or NULL when
 * there is none (fn NULL: no session cursors). ixd_stmt_for_update: 1 when
 * s is an update cursor (SELECT ... FOR UPDATE of one table), whose current
 * row is the row ixd_fetch returned last: a session sends such a cursor's
 * rows one a reply (no read-ahead), as Informix does. */
void ixd_set_cursor_lookup(ixd_db *db, ixd_stmt *(*fn)(void *ud, const char *name), void *ud);
int ixd_stmt_for_update(const ixd_stmt *s);

/* What DESCRIBE reports. */
int ixd_stmt_type(const ixd_stmt *s); /* IX_STMTTYPE_SELECT, IX_STMTTYPE_INSERT, ... */
/* 1 when s returns rows through a cursor (SELECT, EXECUTE FUNCTION). */
int ixd_stmt_is_cursor(const ixd_stmt *s);
int ixd_stmt_nparams(const ixd_stmt *s);
int ixd_stmt_ncols(const ixd_stmt *s); /* result columns; for INSERT/UPDATE the target columns */
typedef struct ixd_col {
    const char *name;  /* valid while the statement lives */
    int type;          /* Informix type code with flags (0x100 NOT NULL); LVARCHAR 40, BOOLEAN 41 */
    uint32_t enclen;   /* encoded length (§3.2.1) */
    const char *xname; /* "lvarchar", "boolean" or NULL */
} ixd_col;
void ixd_stmt_col(const ixd_stmt *s, int i, ixd_col *out);
/* The type expected for parameter i (for binds that carry another type). */
ixt_vtype ixd_stmt_param_type(const ixd_stmt *s, int i);

/* Binds parameter i (0-based) to one value in tuple encoding (t, p, n), or
 * to NULL when p is NULL. The engine converts it to the column's type where
 * Informix would (a CHAR bound to an INTEGER column is parsed; -1213 etc. on
 * failure). Values are copied. Returns 0 or -1 with *err. */
int ixd_bind(ixd_stmt *s, int i, ixt_vtype t, const uint8_t *p, size_t n, ixv_err *err);

/* Binds all count parameters of an INSERT/UPDATE/DELETE straight from the
 * values of an SQ_BIND message (p[0..n), validated by the decoder), in one
 * pass and without the tuple form, when every value is of a common type
 * (SMALLINT, INTEGER, SERIAL, DATE, BIGINT, BIGSERIAL, FLOAT, SMALLFLOAT,
 * VARCHAR, NVARCHAR) that its parameter takes without a conversion that can
 * fail: the parameters then hold what ixd_bind of each value's tuple form
 * would have set. Returns 0 done, or 1 when it does not apply (another
 * type, a NULL, a value the general path rewrites or refuses, a count that
 * is not the statement's): the caller then binds every value with ixd_bind,
 * which sets each parameter anew. */
int ixd_bind_wire(ixd_stmt *s, const uint8_t *p, size_t n, int count);

/* Runs a statement without a cursor (DDL, DML, transaction control, SET,
 * ...). *rows gets the rows affected, *serial the SERIAL assigned by an
 * INSERT (0 if none), *serial8 the SERIAL8/BIGSERIAL value (0 if none).
 * A SELECT here is -260. Returns 0 or -1 with *err. When the disk (or the
 * file size limit) is full: ISAM -131 with the statement's SQLCODE (-271
 * INSERT, -346 UPDATE, -240 DELETE, -261 CREATE TABLE, -212 CREATE INDEX,
 * -942 COMMIT, ...; docs/server-sql.md); the statement has no effect. */
int ixd_execute(ixd_stmt *s, int64_t *rows, int32_t *serial, int64_t *serial8, ixv_err *err);

/* Cursors. ixd_open starts the query (scroll: rows may be fetched by
 * position). ixd_fetch appends the next row's tuple payload to out and
 * returns 1, returns 0 at the end, -1 with *err on error. ixd_fetch_at
 * fetches row `pos` (1-based) of a scroll cursor. ixd_close ends the query
 * (the statement stays prepared). */
int ixd_open(ixd_stmt *s, int scroll, ixv_err *err);
int ixd_fetch(ixd_stmt *s, ixb_wbuf *out, ixv_err *err);
int ixd_fetch_at(ixd_stmt *s, int64_t pos, ixb_wbuf *out, ixv_err *err);
/* A fetch reply's rows in one call: the rows ixd_fetch would give one by
 * one, each appended to out as a whole SQ_TUPLE message (i16 tag, i16
 * warnings 0, i32 length, the payload, padded to even: ixp_enc_tuple's
 * bytes), while they fit. f->sent (rows already in the reply) and f->used
 * (their payload bytes) go in and are counted on; a row whose payload
 * would take used past cap while sent > 0 stays at the end of out
 * (f->last_at, payload f->last_n) and is not counted: the caller keeps it
 * for its next reply. Returns IXD_BATCH_FULL after such a row, 0 at the
 * end of the rows, -1 with *err for the row that failed (out as before
 * it), or IXD_BATCH_NO for a cursor this does not serve (a scroll or
 * update cursor, one not open: use ixd_fetch). */
typedef struct ixd_batch {
    int64_t sent;
    size_t used;
    size_t last_at, last_n;
} ixd_batch;
enum { IXD_BATCH_FULL = 1, IXD_BATCH_NO = 2 };
int ixd_fetch_tuples(ixd_stmt *s, ixb_wbuf *out, size_t cap, ixd_batch *f, ixv_err *err);
int64_t ixd_row_count(ixd_stmt *s); /* rows of an open scroll cursor */
/* The BYTE/TEXT value a fetched descriptor names (SQ_FETCHBLOB). *data is
 * borrowed, valid until the cursor closes; NULL with *len 0 for the NULL
 * descriptor. Returns 0 or -1 with *err (-608 for a descriptor this cursor
 * did not send, -404 when the cursor is not open). */
int ixd_fetch_blob(ixd_stmt *s, const uint8_t *desc, size_t n, const uint8_t **data, size_t *len,
                   ixv_err *err);
void ixd_close(ixd_stmt *s);

/* Transactions, as a logged non-ANSI Informix database (§3.12): without
 * BEGIN WORK each statement commits by itself. These return 0 or -1 with
 * *err (-255 not in transaction, -256 no log, -535 already in transaction).
 * A COMMIT whose writes fail (-942; ISAM -131 for a full disk) rolls the
 * transaction back and ends it. After any failed call, ixd_in_transaction
 * says whether the transaction is still open (SQLite may have rolled it
 * back, e.g. after an I/O error). */
int ixd_begin(ixd_db *db, ixv_err *err);
int ixd_commit(ixd_db *db, ixv_err *err);
int ixd_rollback(ixd_db *db, ixv_err *err);
int ixd_in_transaction(const ixd_db *db);

/* A time limit for the statements of db: an ixd_execute, ixd_open or
 * ixd_fetch call that runs longer than ms milliseconds stops with -213
 * ("Statement interrupted by user."). 0 (the default) = no limit. */
void ixd_set_timeout(ixd_db *db, int ms);
/* A variable of the client's environment as the session received it at
 * login: DBMONEY (the currency symbols and decimal separator that strings
 * made MONEY or DECIMAL may carry; NULL or "" = "$."), DELIMIDENT (any value
 * but "n" or "N": a double-quoted token is a delimited identifier, not a
 * string; off when never set). Returns 0 when set,
 * 1 for a name the engine does not read, -1 for a value it cannot take.
 * Kept until db is closed. */
int ixd_set_env(ixd_db *db, const char *name, const char *value);
/* Stops the statement now running on db with -213 (in-process callers; a
 * client interrupt goes through ixd_set_interrupt_check). Safe to
 * call from another thread while db is open; a no-op when nothing runs. */
void ixd_interrupt(ixd_db *db);
/* fn(ud) is called while a statement runs (every 1000 SQLite steps and
 * during lock waits); when it returns 1 the statement stops with -213
 * "Statement interrupted by user". fn NULL: none. fn must be cheap. */
void ixd_set_interrupt_check(ixd_db *db, int (*fn)(void *ud), void *ud);
/* fn(ud, req, n, ans) sends req[0..n) to the client while a statement runs
 * and reads the client's one-message answer into *ans (valid until the next
 * call): 0, or -1 when the client is gone, times out or answers garbage.
 * Used for the 'client' files of FILETOBLOB/LOTOFILE. fn NULL: none. */
struct ixp_msg;
void ixd_set_client_channel(ixd_db *db,
                            int (*fn)(void *ud, const uint8_t *req, size_t n, struct ixp_msg *ans),
                            void *ud);

/* ---- fast-path routine calls (ixd_fastpath.c) -----------------------------
 * SQ_GETROUTINE: looks the signature up (case and blanks ignored) and
 * appends the answer (db's name, the routine handle) to reply. SQ_EXFPROUTINE:
 * runs the routine of the handle in db (the call must name db) and
 * appends SQ_FPROUTINE with its results. Each returns 0, or -1 with err set
 * and nothing appended: -349 without a database, -674 for an unknown
 * signature, handle, database or argument list, the LO routines' own
 * errors otherwise. The session adds SQ_DONE and the group's EOT. */
struct ixp_getroutine;
struct ixp_exfp;
int ixd_fp_getroutine(ixd_db *db, const struct ixp_getroutine *g, ixb_wbuf *reply, ixv_err *err);
int ixd_fp_call(ixd_db *db, const struct ixp_exfp *e, ixb_wbuf *reply, ixv_err *err);

/* ---- files outside the data directory -------------------------------------------------
 * The only directory server files of FILETOBLOB / LOTOFILE may be in (ixd
 * --lob-dir) and the only one oni_ts_write_file reads (--load-dir); NULL
 * refuses every such file. Process-wide, set at start. */
void ixd_set_lob_dir(const char *dir);
void ixd_set_load_dir(const char *dir);

/* SQ_LODATA from a client (src/server/ixd_lob.c): performs it and appends
 * the reply to reply; 0, or -1 with err set (nothing appended). */
struct ixp_lodata;
int ixd_lob_message(ixd_db *db, const struct ixp_lodata *d, ixb_wbuf *reply, ixv_err *err);

#endif
