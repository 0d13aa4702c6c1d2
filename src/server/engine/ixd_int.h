/* ixd_int.h: the engine's own structs and the functions its files share.
 * Only the engine's files include it (the session uses ixd_engine.h, the
 * translator and TimeSeries the interfaces in sql/ixs.h and ts/ts.h). */
#ifndef IXD_INT_H
#define IXD_INT_H

#include <pthread.h>
#include <stddef.h>
#include <sqlite3.h>

#include "ixd_engine.h"
#include "server/sql/ixs.h"

enum {
    IXD_E_NOMEM = IXV_E_NOMEM, /* Memory allocation failed during query processing. */
};

/* The errno of the last failed system call on h's files, or 0
 * (ixd_sqlerr.c). */
int ixd_os_errno(sqlite3 *h);

/* ---- the engine and its databases ---------------------------------------------------- */
/* The databases open in sessions, by name, with the number of handles on
 * each (ixd_db_open adds one, ixd_db_close removes it). DROP DATABASE looks
 * here; every field after dir is guarded by mu. */
typedef struct ixd_dbuse {
    char name[IXS_NAME_MAX + 1];
    int n;
} ixd_dbuse;

struct ixd_engine {
    char *dir;
    char *banner;      /* ixd_engine_set_banner; NULL: IXP_LOGIN_DEFAULT_BANNER */
    char *server_name; /* ixd_engine_set_server_name; NULL: "ixd" */
    char *server_aliases; /* ixd_engine_set_server_aliases: "a,b"; NULL: none */
    pthread_mutex_t mu;
    ixd_dbuse *use;
    int nuse, capuse;
};

#define IXD_CAT_NSTMT 4  /* catalog lookup statements cached per connection */
#define IXD_PARKED    16 /* freed statements kept per connection for reuse */
/* A session's database connection: the translator's part (x: what the
 * modules in sql/ read and keep) first, then the engine's own. */
struct ixd_db {
    ixs_conn x;
    ixd_engine *e;
    int timeout_ms;                      /* ixd_set_timeout; 0 = none */
    struct ts_conn *ts;                  /* the TimeSeries state (src/server/ts) */
    /* own_txn's transaction is open: a statement's own, not the session's
     * (a routine's BEGIN WORK commits it and begins the session's) */
    int own_txn;
    sqlite3_stmt *cat_st[IXD_CAT_NSTMT]; /* ixd_cat_table's lookups, prepared once */
    /* the session's cursors by name (ixd_set_cursor_lookup) */
    ixd_stmt *(*cursor_fn)(void *ud, const char *name);
    void *cursor_ud;
    /* Statement reuse (ixd_engine.c): a freed SELECT/DML statement is kept
     * for the next prepare of the same text while nothing that may change
     * its translation has happened since: x.gen counts such local events,
     * the data version (ixd_data_version) any commit, local or by another
     * connection. */
    ixd_stmt *live; /* statements prepared on db and not yet freed */
    ixd_stmt *parked[IXD_PARKED];
    int nparked;
};

/* The engine's connection of the translator's part (the first member). */
static inline ixd_db *ixd_db_of(ixs_conn *c) {
    return (ixd_db *)c;
}
_Static_assert(offsetof(ixd_db, x) == 0, "ixd_db_of: x is ixd_db's first member");

/* How a result column is encoded per row (ixd_store_row.c): a kind with
 * direct stores for the common types (RK_GENERIC: through sval and
 * ixv_sval_to_tuple), its width, and `rest`, the most bytes the direct
 * columns from this one to the last write, so that one reserve covers them. */
typedef struct ixd_rcol {
    int kind;
    uint32_t width;
    size_t rest;
} ixd_rcol;

/* How a parameter takes a value of an SQ_BIND directly (ixd_store_row.c,
 * ixd_bind_wire): its class, type code, the integers it takes (lo..hi) and
 * the width a text is cut to (0: none). */
typedef struct ixd_wparam {
    int cls, code;
    int64_t lo, hi;
    size_t width;
} ixd_wparam;

/* A prepared statement: the translator's part (x) first, then the engine's. */
struct ixd_stmt {
    ixs_stmt x;     /* x.db: its connection's part, NULL once the connection closed */
    uint8_t **pbuf; /* reused bytes of TEXT parameters bound by ixd_bind_fast */
    size_t *pcap;
    ixd_rcol *rplan;   /* per result column, made by ixd_row_plan */
    ixd_wparam *wplan; /* per parameter, made by ixd_bind_wire's first call */
    int wired;         /* SQLite's parameters hold x.pvals, bound by ixd_bind_wire:
                        * bind_all has nothing to do (ixd_bind and park clear it) */
    /* reuse (see ixd_db): the Informix text, x.gen, the data version and
     * DELIMIDENT (x.delimident, which an SPL routine sets to its own while it
     * runs) when parked, the links of db->live (live: on that list) */
    char *key;
    size_t keyn;
    uint64_t gen;
    unsigned dver;
    int delim;
    int live;
    ixd_stmt *live_prev, *live_next;
    int row_ready; /* x.run_at_open: the routine's row is ready */
    /* cursor */
    int open, done, scroll;
    uint8_t **rows;
    size_t *rowlen;
    int64_t nrows, caprows, pos;
    /* BYTE/TEXT values of the open cursor, fetched with SQ_FETCHBLOB by the
     * handle their descriptor carries; freed when the cursor closes. */
    uint8_t **blobs;
    size_t *bloblen;
    uint32_t nblobs, capblobs;
};

/* The engine's statement of the translator's part (the first member). */
static inline ixd_stmt *ixd_stmt_of(ixs_stmt *s) {
    return (ixd_stmt *)s;
}
_Static_assert(offsetof(ixd_stmt, x) == 0, "ixd_stmt_of: x is ixd_stmt's first member");
/* The engine's connection of statement s, NULL once it closed (ixd_db_close). */
static inline ixd_db *ixd_stmt_db(const ixd_stmt *s) {
    return s->x.db ? ixd_db_of(s->x.db) : NULL;
}

/* Registers the engine's ixd_* SQL functions on a connection; ud is the ixd_db. */
int ixd_register_functions(sqlite3 *h, void *ud);
/* Registers the eponymous virtual table _ixd_databases (ixd_catalog_vt.c). */
int ixd_register_vtabs(sqlite3 *h, void *db);

int ixd_temp_catalog(ixd_db *db, ixv_err *err);
/* Runs SQL (no results) and maps errors. */
int ixd_exec(ixd_db *db, const char *sql, ixv_err *err);
/* Maps a SQLite failure on db (rc from step/prepare) to *err. stype is the
 * statement type for lock errors, table a table name for texts. */
int ixd_sqlite_err(ixd_db *db, int rc, int stype, const char *table, ixv_err *err);
/* 1 when rc (a result of h) says a write failed for want of space: SQLITE_FULL
 * (a full disk, or PRAGMA max_page_count), or an I/O error with errno ENOSPC,
 * EDQUOT or EFBIG (the file size limit). */
int ixd_no_space(sqlite3 *h, int rc);
/* The SQLCODE of a statement of type stype that ran out of space (ISAM -131):
 * -271 INSERT, -346 UPDATE, -240 DELETE, -264 SELECT (temporary files), -261
 * CREATE TABLE / SELECT INTO TEMP / ALTER TABLE, -212 CREATE INDEX, -942
 * COMMIT, -312 other statements (they update the catalog). */
int ixd_no_space_code(int stype);
/* Ends db's transaction when SQLite has rolled it back by itself (after an
 * I/O error or a full disk): in_txn follows SQLite's autocommit state. */
void ixd_txn_sync(ixd_db *db);
void ixd_set_busy(ixd_db *db);
void ixd_arm(ixd_db *db); /* starts the statement time limit */

/* ---- catalog --------------------------------------------------------------------- */
/* Loads table `name` (lower case). Returns 1 found, 0 not found, -1 error. */
int ixd_cat_table(ixd_db *db, const char *name, itab *out, ixv_err *err);
/* Finalizes the catalog statements ixd_cat_table keeps (before the
 * connection closes). */
void ixd_cat_close(ixd_db *db);
/* The data version of db's main file (changes with every commit, by this
 * connection or another) as of its last read; with fresh, as of now
 * (outside a transaction a read is started for it). */
unsigned ixd_data_version(ixd_db *db, int fresh);
/* Creates ixd's catalog in a new database file (space: -330, ISAM -131). */
int ixd_cat_init(sqlite3 *h, int logmode, const char *user, ixv_err *err);
int ixd_cat_logmode(sqlite3 *h);
/* Brings the catalog of a file made by an earlier ixd up to date (best
 * effort: a file that cannot be written keeps working as before). */
void ixd_cat_upgrade(sqlite3 *h);
/* Next serial value bookkeeping (inside the running statement). */
int64_t ixd_serial_next(ixd_db *db, int tabid, int kind, int64_t v, int *ok);

/* ---- statements ----------------------------------------------------------------- */
/* Per-row fast paths (ixd_store_row.c). ixd_row_plan fills s->rplan from
 * s->x.cols (0, or -208 out of memory). ixd_row_encode appends the tuple of
 * the current row of s->x.st to out: the values of the planned kinds with
 * direct stores, one capacity check per row (and one more after each
 * general-path column), and every other value (NULL of
 * some types, another storage class, a value out of range, other types)
 * through general(), which gives the exact result or error; returns 0 or a
 * negative SQLCODE (out as it was). ixd_bind_fast sets parameter i from a
 * tuple value of type from when the conversion to the parameter's type is
 * direct; returns 0, 1 for the general path, or -208. */
typedef int (*ixd_put_fn)(ixd_stmt *s, int i, sqlite3_value *x, ixb_wbuf *out);
int ixd_row_plan(ixd_stmt *s);
int ixd_row_encode(ixd_stmt *s, ixb_wbuf *out, ixd_put_fn general);
int ixd_bind_fast(ixd_stmt *s, int i, ityp from, const uint8_t *p, size_t n);
/* 0 turns ixd_bind_wire off (every SQ_BIND takes the general path): the
 * tests compare the two. */
extern int ixd_fast_binds;

int ixd_db_path(ixd_engine *e, const char *name, char *buf, size_t n, ixv_err *err);
/* CREATE DATABASE: creates the file and its catalog (-330 if it exists). */
int ixd_create_database(ixd_engine *e, const char *name, int logmode, const char *user,
                        ixv_err *err);
/* DROP DATABASE: removes the files of database name unless a session has
 * it open: -359 when it is cur (the caller's current database), -425 when
 * another session has it (or for sysmaster), -329 when it does not exist
 * (0 with if_exists). Returns 0 or -1 with *err. */
int ixd_drop_database(ixd_engine *e, const char *name, const ixd_db *cur, int if_exists,
                      ixv_err *err);

/* Transactions */
int ixd_sql_begin(ixd_db *db, ixv_err *err);
int ixd_sql_commit(ixd_db *db, ixv_err *err);
int ixd_sql_rollback(ixd_db *db, ixv_err *err);
int ixd_ansi_autobegin(ixd_db *db, ixv_err *err);

/* The translator's host (ixd_host.c): the engine's functions behind ixs_host. */
extern const ixs_host ixd_host;

#endif
