/*
 * ixs.h: internals of the ixd SQL engine (the engine, the catalog, the
 * storage mapping and the Informix SQL translator). Not a public header.
 *
 * Storage mapping (one SQLite value per Informix value; docs/server-sql.md):
 *   CHAR/NCHAR            TEXT, trailing blanks removed (padded on output)
 *   VARCHAR/NVARCHAR/LVARCHAR/TEXT  TEXT
 *   BYTE                  BLOB
 *   SMALLINT..BIGSERIAL   INTEGER
 *   SMALLFLOAT/FLOAT      REAL
 *   DECIMAL/MONEY         BLOB: the base-100 tuple form with trailing zero
 *                         pairs removed (memcmp order = numeric order)
 *   DATE                  INTEGER day number (0 = 1899-12-31)
 *   DATETIME              TEXT in the qualifier's canonical form (sortable)
 *   INTERVAL              INTEGER signed months (YEAR/MONTH class) or
 *                         10 microsecond units (DAY..FRACTION class)
 *   BOOLEAN               INTEGER 0/1
 */
#ifndef IXS_H
#define IXS_H

#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "server/ixd_engine.h"
#include "server/value/ixv.h"
#include "server/ixd_int.h"
#include "proto/ix_msg.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

/* ---- limits ---------------------------------------------------------------- */
/* What a statement may hold (docs/server-sql.md "Limits"). Each is counted
 * by the lexer or the parser before anything recurses past it. */
#define IXS_MAX_SQL    (1u << 20) /* statement text, bytes: IXS_E_STMT_LONG */
#define IXS_MAX_TOKENS 262144     /* tokens of one statement: IXS_E_STMT_LONG */
/* parentheses (and the calls, CASEs and subqueries in them) nested in one
 * another: IXS_E_COMPLEX */
#define IXS_MAX_NEST 255
/* The parser's own recursion: an expression level in parentheses passes
 * through four grammar levels (OR, NOT, +, unary), a subquery through a few
 * more. */
#define IXS_MAX_DEPTH  (4 * IXS_MAX_NEST + 8)
#define IXS_MAX_HEIGHT 1000   /* an expression tree's height (chains are balanced) */
#define IXS_MAX_TERMS  100000 /* operands of one AND/OR/+/|| chain, items of an IN list */
/* a +/- or * chain of more terms is evaluated as a balanced tree (its SQL
 * nests log2(n) deep) */
#define IXS_CHAIN_FLAT      16
#define IXS_MAX_PARAMS      4096
#define IXS_MAX_COLS        1000 /* columns of a table or a select list */
#define IXS_MAX_TABS        64   /* tables in one FROM */
#define IXS_NAME_MAX        128
#define IXS_WAIT_FOREVER_MS (300 * 1000) /* SET LOCK MODE TO WAIT (no n) */
#define IXS_NOWAIT_GRACE_MS 200

/* ---- Informix codes ixd reports for storage faults and names ----------------- */
enum {
    IXS_E_COMPLEX = -208,         /* Memory allocation failed during query processing. (the
                                     statement passes a limit: the insertion text names it) */
    IXS_E_STMT_LONG = -460,       /* Statement length exceeds maximum. */
    IXS_ISAM_NO_SPACE = -131,     /* ISAM error: no free disk space */
    IXS_E_ADD_INDEX = -212,       /* Cannot add index. */
    IXS_E_OPEN_FILE = -215,       /* Cannot open file for table (%s). */
    IXS_E_CREATE_FILE = -261,     /* Cannot create file for table (%s). */
    IXS_E_INSERT = -271,          /* Could not insert new row into the table. */
    IXS_E_UPDATE = -346,          /* Could not update a row in the table. */
    IXS_E_DELETE = -240,          /* Could not delete a row. */
    IXS_E_TEMP_WRITE = -264,      /* Could not write to a temporary file. */
    IXS_E_CATALOG_UPDATE = -312,  /* Cannot update system catalog (%s). */
    IXS_E_CREATE_DB = -330,       /* Cannot create or rename the database. */
    IXS_E_DB_NAME = -354,         /* Incorrect database or cursor name format. */
    IXS_E_DROP_CURRENT_DB = -359, /* Cannot drop or rename the current database ... */
    IXS_E_DB_IN_USE = -425,       /* Database is currently opened by another user. */
    IXS_E_CATALOG_MODIFY = -511,  /* Cannot modify system catalog (%s). */
    IXS_E_CATALOG_RENAME = -584,  /* Cannot rename system catalog. */
    IXS_E_NOT_GROUPED = -294,     /* The column (%s) must be in the GROUP BY list. */
    IXS_E_CATALOG_RENCOL = -585,  /* Cannot rename column in system catalog. */
    IXS_E_DROP_DEPENDENT = -886,  /* Cannot drop table or view because of existing dependencies. */
    IXS_E_COMMIT_FAILED = -942,   /* Transaction commit failed - transaction will be rolled back. */
};

/* Informix compares CHAR, NCHAR, VARCHAR, NVARCHAR and LVARCHAR values
 * ignoring trailing blanks: SQLite does with this collation, which the
 * columns of these types declare and the emitter puts on the comparisons
 * of other such values (docs/server-sql.md, "Character comparisons"). */
#define IXS_COLLATE_BLANKS "RTRIM"
int ixs_is_blank_cmp(int code); /* a type that compares ignoring trailing blanks */

/* Registers the ixd_* SQL functions on a connection; ud is the ixd_db. */
int ixd_register_functions(sqlite3 *h, void *ud);
/* Registers the eponymous virtual table _ixd_databases (ixd_catalog_vt.c). */
int ixd_register_vtabs(sqlite3 *h, void *db);
/* Registers the collection functions ixd_coll, ixd_coll_has (ixs_collection.c). */
int ixs_coll_register(sqlite3 *h);
/* Registers the ROW functions ixd_row_* (ixs_rowtype.c); ixs_row_cat_init
 * makes the row type catalogue (in the transaction of ixd_cat_init),
 * ixs_row_cat_upgrade brings an older file's one up to date. */
int ixs_row_register(sqlite3 *h);
int ixs_row_cat_init(sqlite3 *h);
void ixs_row_cat_upgrade(sqlite3 *h);

/* ---- the database handle ------------------------------------------------------------ */
/* The databases open in sessions, by name, with the number of handles on
 * each (ixd_db_open adds one, ixd_db_close removes it). DROP DATABASE looks
 * here; every field after dir is guarded by mu. */
typedef struct ixs_dbuse {
    char name[IXS_NAME_MAX + 1];
    int n;
} ixs_dbuse;

struct ixd_engine {
    char *dir;
    char *banner;      /* ixd_engine_set_banner; NULL: IXP_LOGIN_DEFAULT_BANNER */
    char *server_name; /* ixd_engine_set_server_name; NULL: "ixd" */
    pthread_mutex_t mu;
    ixs_dbuse *use;
    int nuse, capuse;
};

#define IXS_CAT_NSTMT 4  /* catalog lookup statements cached per connection */
#define IXS_PARKED    16 /* freed statements kept per connection for reuse */
struct ixd_db {
    ixd_engine *e;
    sqlite3 *h;
    char name[IXS_NAME_MAX + 1];
    char user[IXS_NAME_MAX + 1];
    int logmode; /* 0 none, 1 log, 2 buffered log, 3 ANSI */
    int in_txn;  /* explicit BEGIN WORK (or implicit in ANSI) */
    int wait_ms; /* SET LOCK MODE: -1 = NOT WAIT */
    int64_t last_serial;
    int64_t last_serial8;
    int64_t last_bigserial;
    int64_t last_rows;   /* rows of the last INSERT/UPDATE/DELETE: DBINFO('sqlca.sqlerrd2') */
    int64_t stmt_serial; /* values assigned by the current statement */
    int64_t stmt_serial8;
    int64_t stmt_bigserial;
    int nsavepoints;
    int timeout_ms;           /* ixd_set_timeout; 0 = none */
    int64_t deadline;         /* monotonic ms, 0 = none */
    int (*intr_fn)(void *ud); /* ixd_set_interrupt_check: 1 = stop the statement */
    void *intr_ud;
    /* ixd_set_client_channel: sends a request to the client and reads its
     * one-message answer (SQ_FILE); 0, or -1 when the client is gone */
    int (*ask_fn)(void *ud, const uint8_t *req, size_t n, struct ixp_msg *ans);
    void *ask_ud;
    int interrupted;                     /* the running statement was stopped by intr_fn: -213 */
    int has_temp;                        /* the session's temp catalog (temp._ixd_ttables) exists */
    sqlite3_stmt *cat_st[IXS_CAT_NSTMT]; /* ixd_cat_table's lookups, prepared once */
    /* Statement reuse (ixd_engine.c): a freed SELECT/DML statement is kept
     * for the next prepare of the same text while nothing that may change
     * its translation has happened since: gen counts such local events
     * (every other statement, transaction ends), the data version
     * (ixd_data_version) any commit, local or by another connection. */
    struct ts_conn *ts;      /* the TimeSeries state (src/server/ts) */
    struct spl_conn *spl;    /* SPL routines and globals (ixs_spl_exec.c) */
    struct ixs_seqsess *seq; /* the session's sequence counters (ixs_seq.c) */
    struct ixs_lobsess *lob; /* the session's open smart LOBs (ixs_lob.c) */
    int64_t stmt_vrows;      /* rows changed through updatable views (ixs_view.c) */
    /* WHERE CURRENT OF (ixs_cursor.c): the session's cursors by name, the
     * named FOREACH cursors of running SPL routines (innermost first) */
    ixd_stmt *(*cursor_fn)(void *ud, const char *name);
    void *cursor_ud;
    struct ixs_curframe *spl_cursors;
    ixd_stmt *live; /* statements prepared on db and not yet freed */
    ixd_stmt *parked[IXS_PARKED];
    int nparked;
    uint64_t gen;
};

#define IXS_TEMP_TABID 1000000 /* temp tables get tabids from here */
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
typedef struct icol {
    char name[IXS_NAME_MAX + 1];
    ityp t;
    int notnull;
    int colno;    /* 1-based */
    int serial;   /* 0, 1 SERIAL, 2 SERIAL8, 3 BIGSERIAL */
    char *defsql; /* default as an SQLite expression in storage form, or NULL */
} icol;
typedef struct itab {
    char name[IXS_NAME_MAX + 1];
    char owner[IXS_NAME_MAX + 1];
    int tabid;
    int ncols;
    icol *cols;
    int is_view; /* catalog view: read only */
} itab;
/* Loads table `name` (lower case). Returns 1 found, 0 not found, -1 error. */
int ixd_cat_table(ixd_db *db, const char *name, itab *out, ixv_err *err);
/* Finalizes the catalog statements ixd_cat_table keeps (before the
 * connection closes). */
void ixd_cat_close(ixd_db *db);
/* The data version of db's main file (changes with every commit, by this
 * connection or another) as of its last read; with fresh, as of now
 * (outside a transaction a read is started for it). */
unsigned ixd_data_version(ixd_db *db, int fresh);
void ixd_itab_free(itab *t);
/* Creates ixd's catalog in a new database file (space: -330, ISAM -131). */
int ixd_cat_init(sqlite3 *h, int logmode, const char *user, ixv_err *err);
int ixd_cat_logmode(sqlite3 *h);
/* Brings the catalog of a file made by an earlier ixd up to date (best
 * effort: a file that cannot be written keeps working as before). */
void ixd_cat_upgrade(sqlite3 *h);
/* Next serial value bookkeeping (inside the running statement). */
int64_t ixd_serial_next(ixd_db *db, int tabid, int kind, int64_t v, int *ok);

/* ---- statements ----------------------------------------------------------------- */
typedef struct ocol { /* a described column */
    char *name;
    ityp t;
    int notnull;
    int stored; /* a base table's column as read (xv.stored) */
} ocol;

/* How a result column is encoded per row (ixd_store_row.c): a kind with
 * direct stores for the common types (RK_GENERIC: through sval and
 * ixv_sval_to_tuple), its width, and `rest`, the most bytes the direct
 * columns from this one to the last write, so that one reserve covers them. */
typedef struct ixs_rcol {
    int kind;
    uint32_t width;
    size_t rest;
} ixs_rcol;

enum {
    SK_SELECT = 1,
    SK_DML,   /* INSERT/UPDATE/DELETE: one SQLite statement */
    SK_SQL,   /* other statements, run by ixd from their tree (DDL, ...) */
    SK_MERGE, /* MERGE: a plan of SQLite statements (ixs_merge.c) */
};

/* A prepared MERGE's statements (ixs_merge.c); ixs_mplan_free(NULL) is a no-op. */
typedef struct ixs_mplan ixs_mplan;
void ixs_mplan_free(ixs_mplan *m);

struct ixd_stmt {
    ixd_db *db;
    int kind;
    int stype;  /* ix_stmttype */
    char *text; /* the Informix text (for SK_SQL) */
    size_t textn;
    struct ixs_ddl *ddl; /* SK_SQL: the parsed statement (ixs_ddl_tree.h); NULL: run text */
    char *sqlite_sql;    /* translated (SK_SELECT/SK_DML) */
    sqlite3_stmt *st;
    int ncols;
    ocol *cols;
    int nparams;
    ityp *ptypes;
    sval *pvals;
    int *pset;
    uint8_t **pbuf; /* reused bytes of TEXT parameters bound by ixd_bind_fast */
    size_t *pcap;
    ixs_rcol *rplan;  /* per result column, made by ixd_row_plan */
    ixs_mplan *mplan; /* SK_MERGE */
    /* reuse (see ixd_db): the Informix text, db->gen and the data version
     * when parked, the links of db->live (live: on that list) */
    char *key;
    size_t keyn;
    uint64_t gen;
    unsigned dver;
    int live;
    ixd_stmt *live_prev, *live_next;
    char table[IXS_NAME_MAX + 1]; /* target table for error texts */
    int has_fk;                   /* target table has foreign keys (child) */
    int ts_write;                 /* calls a TimeSeries write routine (ixd_open) */
    struct trg_stmt *trg;         /* statement-level triggers (ixs_trigger_stmt.c) */
    /* EXECUTE FUNCTION of a routine that is not an iterator: ixd_open runs
     * it (steps onto its row, row_ready), so that its effects and errors
     * belong to OPEN, as in Informix; an iterator runs as it is fetched */
    int run_at_open, row_ready;
    /* an update cursor (SELECT ... FOR UPDATE on one table): SQLite column
     * ncols is the row's rowid; the rowid of the row last fetched */
    int rowid_col, cur_valid;
    int64_t cur_rowid;
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

/* Per-row fast paths (ixd_store_row.c). ixd_row_plan fills s->rplan from
 * s->cols (0, or -208 out of memory). ixd_row_encode appends the tuple of
 * the current row of s->st to out: the values of the planned kinds with
 * direct stores, one capacity check per row, and every other value (NULL of
 * some types, another storage class, a value out of range, other types)
 * through general(), which gives the exact result or error; returns 0 or a
 * negative SQLCODE (out as it was). ixd_bind_fast sets parameter i from a
 * tuple value of type from when the conversion to the parameter's type is
 * direct; returns 0, 1 for the general path, or -208. */
typedef int (*ixs_put_fn)(ixd_stmt *s, int i, sqlite3_value *x, ixb_wbuf *out);
int ixd_row_plan(ixd_stmt *s);
int ixd_row_encode(ixd_stmt *s, ixb_wbuf *out, ixs_put_fn general);
int ixd_bind_fast(ixd_stmt *s, int i, ityp from, const uint8_t *p, size_t n);
/* The current row of an update cursor: after ixd_fetch (or an SPL FOREACH)
 * stepped s->st onto a row (ixs_cursor.c). */
void ixs_cursor_fetched(ixd_stmt *s);
/* Registers ixd_current_of() on a connection (ixs_cursor.c). */
int ixs_cursor_register(sqlite3 *h, ixd_db *db);

/* The translator. ixs_translate fills s (kind, stype, sqlite_sql, cols,
 * params) for SELECT/INSERT/UPDATE/DELETE, or sets kind SK_SQL with the
 * statement's tree (s->ddl) for the others. Returns 0 or -1 with *err. */
int ixs_translate(ixd_db *db, ixd_stmt *s, const char *sql, size_t n, ixv_err *err);
/* Parses and runs the text of an SK_SQL statement (DDL, transaction
 * control, SET ...): for statements inside others (CREATE SCHEMA, DROP
 * TABLE's cascade) and those without a tree (s->ddl NULL). */
int ixs_run_sql(ixd_db *db, const char *sql, size_t n, int64_t *rows, ixv_err *err);
/* Executes the SK_SQL statement s from its tree (its text when it has none). */
int ixs_ddl_exec(ixd_stmt *s, int64_t *rows, ixv_err *err);
/* Frees a statement tree (NULL: nothing). */
void ixs_ddl_destroy(struct ixs_ddl *d);
/* Database-level statements for sessions (CREATE/DROP/DATABASE/CLOSE). Returns
 * 1 handled, 0 not such a statement, -1 error. */
int ixs_dbstmt(ixd_engine *e, const char *user, const char *sql, size_t n, ixd_db **db,
               int *dbflags, ixv_err *err);
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

#endif
