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

#include "base/ix_buf.h"
#include "server/value/ixv.h"
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
#define IXS_DBMONEY_MAX     32           /* DBMONEY: front symbol, separator, back symbol */
#define IXS_WAIT_FOREVER_MS (300 * 1000) /* SET LOCK MODE TO WAIT (no n) */
#define IXS_NOWAIT_GRACE_MS 200

/* ---- Informix codes ixd reports for storage faults and names ----------------- */
enum {
    IXS_E_COMPLEX = IXV_E_NOMEM,           /* Memory allocation failed during query processing. (the
                                       statement passes a limit: the insertion text names it) */
    IXS_E_STMT_LONG = IXV_E_STMT_LONG,     /* Statement length exceeds maximum. */
    IXS_ISAM_NO_SPACE = IXV_ISAM_NO_SPACE, /* ISAM error: no free disk space */
    IXS_E_ADD_INDEX = IXV_E_ADD_INDEX,     /* Cannot add index. */
    IXS_E_OPEN_FILE = IXV_E_OPEN_FILE,     /* Cannot open file for table (%s). */
    IXS_E_CREATE_FILE = IXV_E_CREATE_FILE, /* Cannot create file for table (%s). */
    IXS_E_INSERT = IXV_E_INSERT,           /* Could not insert new row into the table. */
    IXS_E_UPDATE = IXV_E_UPDATE,           /* Could not update a row in the table. */
    IXS_E_DELETE = IXV_E_DELETE,           /* Could not delete a row. */
    IXS_E_TEMP_WRITE = IXV_E_TEMP_WRITE,   /* Could not write to a temporary file. */
    IXS_E_CATALOG_UPDATE = IXV_E_CATALOG_UPDATE, /* Cannot update system catalog (%s). */
    IXS_E_CREATE_DB = IXV_E_CREATE_DB,           /* Cannot create or rename the database. */
    IXS_E_DB_NAME = IXV_E_DB_NAME,               /* Incorrect database or cursor name format. */
    IXS_E_DROP_CURRENT_DB =
        IXV_E_DROP_CURRENT_DB,         /* Cannot drop or rename the current database ... */
    IXS_E_DB_IN_USE = IXV_E_DB_IN_USE, /* Database is currently opened by another user. */
    IXS_E_CATALOG_MODIFY = IXV_E_CATALOG_MODIFY, /* Cannot modify system catalog (%s). */
    IXS_E_CATALOG_RENAME = IXV_E_CATALOG_RENAME, /* Cannot rename system catalog. */
    IXS_E_NOT_GROUPED = IXV_E_NOT_GROUPED,       /* The column (%s) must be in the GROUP BY list. */
    IXS_E_CATALOG_RENCOL = IXV_E_CATALOG_RENCOL, /* Cannot rename column in system catalog. */
    IXS_E_DROP_DEPENDENT =
        IXV_E_DROP_DEPENDENT, /* Cannot drop table or view because of existing dependencies. */
    IXS_E_COMMIT_FAILED =
        IXV_E_COMMIT_FAILED, /* Transaction commit failed - transaction will be rolled back. */
};

/* Informix compares CHAR, NCHAR, VARCHAR, NVARCHAR and LVARCHAR values
 * ignoring trailing blanks: SQLite does with this collation, which the
 * columns of these types declare and the emitter puts on the comparisons
 * of other such values (docs/server-sql.md, "Character comparisons"). */
#define IXS_COLLATE_BLANKS "RTRIM"

/* A database's logging (_ixd_meta logmode; CREATE DATABASE ... WITH ...) */
enum {
    IXS_LOGMODE_NONE = 0,
    IXS_LOGMODE_LOG = 1,      /* WITH LOG */
    IXS_LOGMODE_BUFFERED = 2, /* WITH BUFFERED LOG */
    IXS_LOGMODE_ANSI = 3,     /* WITH LOG MODE ANSI */
};
int ixs_is_blank_cmp(int code); /* a type that compares ignoring trailing blanks */

/* Registers the collection functions ixd_coll, ixd_coll_has (ixs_collection.c). */
int ixs_coll_register(sqlite3 *h);
/* Registers the ROW functions ixd_row_* (ixs_rowtype.c); ixs_row_cat_init
 * makes the row type catalogue (in the transaction of the catalogue's
 * creation), ixs_row_cat_upgrade brings an older file's one up to date. */
int ixs_row_register(sqlite3 *h);
int ixs_row_cat_init(sqlite3 *h);
void ixs_row_cat_upgrade(sqlite3 *h);

typedef struct ixs_conn ixs_conn;
typedef struct ixs_stmt ixs_stmt;

/* The translator's modules (SPL, ROW types, sequences and synonyms,
 * privileges, smart LOBs, collections, the built-in functions), from one
 * table (ixs_modules.c). ixs_cat_init adds their tables to a new database
 * file's catalogue, in the caller's transaction (0, or -1 with *err: -330,
 * ISAM -131 when the disk is full); ixs_cat_upgrade brings a file made by
 * an earlier ixd up to date (best effort); ixs_register puts their SQL
 * functions and virtual tables on connection h of c (0 or -1); ixs_close
 * frees what they keep for c, before the connection closes. */
int ixs_cat_init(sqlite3 *h, ixv_err *err);
void ixs_cat_upgrade(sqlite3 *h);
int ixs_register(sqlite3 *h, ixs_conn *c);
void ixs_close(ixs_conn *c);

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
/* Frees what a look-up put in *t (its columns and their defaults); the
 * struct itself is the caller's. */
void ixs_itab_free(itab *t);
#define IXS_TEMP_TABID 1000000 /* temp tables get tabids from here */

/* ---- what the engine does for the translator ------------------------------------ */
/* The translator runs inside the engine and never calls it by name: the
 * engine fills one ixs_host and every connection (ixs_conn.host) points to
 * it. Statements prepared through it are the engine's; the translator sees
 * their ixs_stmt part. Every function that can fail returns 0 (or a count)
 * or -1 with *err, as the engine's own functions of the same name. */
typedef struct ixs_host {
    /* statements: prepare (*out owned by the caller until stmt_free),
     * execute (rows changed), open a cursor, fetch its next row as a tuple
     * (1 row, 0 end), is_cursor (1 for a statement that returns rows) */
    int (*prepare)(ixs_conn *c, const char *sql, size_t n, ixs_stmt **out, ixv_err *err);
    int (*execute)(ixs_stmt *s, int64_t *rows, ixv_err *err);
    int (*open)(ixs_stmt *s, ixv_err *err);
    int (*fetch)(ixs_stmt *s, ixb_wbuf *out, ixv_err *err);
    void (*stmt_free)(ixs_stmt *s);
    int (*stmt_is_cursor)(const ixs_stmt *s);
    /* the session's cursor of that name (WHERE CURRENT OF), or NULL; *open
     * 1 when it is open */
    ixs_stmt *(*cursor)(ixs_conn *c, const char *name, int *open);
    /* runs SQL with no results; maps a SQLite failure (rc of step or prepare)
     * of a statement of type stype on table (for texts; may be NULL) */
    int (*exec)(ixs_conn *c, const char *sql, ixv_err *err);
    int (*sqlite_err)(ixs_conn *c, int rc, int stype, const char *table, ixv_err *err);
    /* the catalogue: table name (lower case) into *out (1 found, 0 not,
     * -1 error; ixs_itab_free frees it), the session's temp catalogue made
     * on first use, the data version of the main file (fresh: as of now) */
    int (*cat_table)(ixs_conn *c, const char *name, itab *out, ixv_err *err);
    int (*temp_catalog)(ixs_conn *c, ixv_err *err);
    unsigned (*data_version)(ixs_conn *c, int fresh);
    /* transactions: BEGIN/COMMIT/ROLLBACK WORK, the implicit BEGIN of an
     * ANSI database, in_txn brought in line after SQLite rolled back by
     * itself, the lock wait of SET LOCK MODE applied */
    int (*begin)(ixs_conn *c, ixv_err *err);
    int (*commit)(ixs_conn *c, ixv_err *err);
    int (*rollback)(ixs_conn *c, ixv_err *err);
    int (*ansi_autobegin)(ixs_conn *c, ixv_err *err);
    void (*txn_sync)(ixs_conn *c);
    void (*set_busy)(ixs_conn *c);
    /* the server: its name (DBSERVERNAME), the file of database name */
    const char *(*server_name)(const ixs_conn *c);
    int (*db_path)(const ixs_conn *c, const char *name, char *buf, size_t n, ixv_err *err);
} ixs_host;

/* ---- the connection as the translator sees it ----------------------------------------- */
/* The part of a session's database connection that the translator and the
 * modules in sql/ (SPL, triggers, sequences, smart LOBs, cursors) read and
 * keep; the engine's connection holds it (and the rest is the engine's). */
struct ixs_conn {
    const ixs_host *host;
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
    int64_t deadline;         /* monotonic ms, 0 = none */
    int (*intr_fn)(void *ud); /* 1 = stop the statement (the session's check) */
    void *intr_ud;
    /* sends a request to the client and reads its one-message answer
     * (SQ_FILE); 0, or -1 when the client is gone */
    int (*ask_fn)(void *ud, const uint8_t *req, size_t n, struct ixp_msg *ans);
    void *ask_ud;
    int interrupted; /* the running statement was stopped by intr_fn: -213 */
    int spl_prep;    /* an SPL routine's statement is prepared: ROW values stay
                      * rows (not text) in its select list (ixs_spl_exec.c) */
    int has_temp;    /* the session's temp catalog (temp._ixd_ttables) exists */
    /* counts local events that may change a translation (every other
     * statement, transaction ends): kept translations compare it */
    uint64_t gen;
    struct spl_conn *spl;    /* SPL routines and globals (ixs_spl_exec.c) */
    struct ixs_seqsess *seq; /* the session's sequence counters (ixs_seq.c) */
    struct ixs_lobsess *lob; /* the session's open smart LOBs (ixs_lob.c) */
    int64_t stmt_vrows;      /* rows changed through updatable views (ixs_view.c) */
    /* WHERE CURRENT OF (ixs_cursor.c): the named FOREACH cursors of running
     * SPL routines (innermost first) */
    struct ixs_curframe *spl_cursors;
    /* the client's environment (ixd_set_env): DBMONEY ("" = "$."), read
     * when a string is made MONEY or DECIMAL */
    char dbmoney[IXS_DBMONEY_MAX + 1];
    /* SET ROLE (ixs_role.c): role_set 0 until the first SET ROLE (the
     * current role is then the user's default role), role "" for none */
    int role_set;
    char role[IXS_NAME_MAX + 1];
    /* DELIMIDENT set (not n/N): a double-quoted token is a delimited
     * identifier, not a string (ixs_lex.c); while an SPL routine runs, the
     * one it was created with (ixs_spl_exec.c) */
    int delimident;
};

/* The host's functions as the translator calls them (see ixs_host). */
static inline int ixs_prepare(ixs_conn *c, const char *sql, size_t n, ixs_stmt **out,
                              ixv_err *err) {
    return c->host->prepare(c, sql, n, out, err);
}
static inline int ixs_exec(ixs_conn *c, const char *sql, ixv_err *err) {
    return c->host->exec(c, sql, err);
}
static inline int ixs_sqlite_err(ixs_conn *c, int rc, int stype, const char *table, ixv_err *err) {
    return c->host->sqlite_err(c, rc, stype, table, err);
}
static inline int ixs_cat_table(ixs_conn *c, const char *name, itab *out, ixv_err *err) {
    return c->host->cat_table(c, name, out, err);
}
static inline int ixs_temp_catalog(ixs_conn *c, ixv_err *err) {
    return c->host->temp_catalog(c, err);
}
static inline unsigned ixs_data_version(ixs_conn *c, int fresh) {
    return c->host->data_version(c, fresh);
}
static inline int ixs_begin(ixs_conn *c, ixv_err *err) {
    return c->host->begin(c, err);
}
static inline int ixs_commit(ixs_conn *c, ixv_err *err) {
    return c->host->commit(c, err);
}
static inline int ixs_rollback(ixs_conn *c, ixv_err *err) {
    return c->host->rollback(c, err);
}
static inline int ixs_ansi_autobegin(ixs_conn *c, ixv_err *err) {
    return c->host->ansi_autobegin(c, err);
}
static inline void ixs_txn_sync(ixs_conn *c) {
    c->host->txn_sync(c);
}
static inline void ixs_set_busy(ixs_conn *c) {
    c->host->set_busy(c);
}
static inline const char *ixs_server_name(const ixs_conn *c) {
    return c->host->server_name(c);
}
static inline int ixs_db_path(const ixs_conn *c, const char *name, char *buf, size_t n,
                              ixv_err *err) {
    return c->host->db_path(c, name, buf, n, err);
}

/* ---- statements ----------------------------------------------------------------- */
typedef struct ocol { /* a described column */
    char *name;
    ityp t;
    int notnull;
    int stored; /* a base table's column as read (xv.stored) */
} ocol;

enum {
    SK_SELECT = 1,
    SK_DML,   /* INSERT/UPDATE/DELETE: one SQLite statement */
    SK_SQL,   /* other statements, run by ixd from their tree (DDL, ...) */
    SK_MERGE, /* MERGE: a plan of SQLite statements (ixs_merge.c) */
};

/* A prepared MERGE's statements (ixs_merge.c); ixs_mplan_free(NULL) is a no-op. */
typedef struct ixs_mplan ixs_mplan;
void ixs_mplan_free(ixs_mplan *m);

/* A statement as the translator makes it (ixs_translate) and as SPL and
 * triggers run it through the host: the engine's statement holds it. */
struct ixs_stmt {
    const ixs_host *host; /* the engine that made it (it outlives db) */
    ixs_conn *db;         /* NULL once its connection closed */
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
    ixs_mplan *mplan;             /* SK_MERGE */
    char table[IXS_NAME_MAX + 1]; /* target table for error texts */
    int has_fk;                   /* target table has foreign keys (child) */
    int ts_write;                 /* calls a TimeSeries write routine (the engine's open) */
    struct trg_stmt *trg;         /* statement-level triggers (ixs_trigger_stmt.c) */
    /* EXECUTE FUNCTION of a routine that is not an iterator: the engine's
     * open runs it (steps onto its row), so that its effects and errors
     * belong to OPEN, as in Informix; an iterator runs as it is fetched */
    int run_at_open;
    /* EXECUTE PROCEDURE|FUNCTION of a routine that is not an iterator:
     * sqlite_sql is only "SELECT 'key', args", and the engine runs the
     * routine with ixs_spl_direct, outside any SQLite statement (so that it
     * may run DDL); spl_txn: its body holds BEGIN / COMMIT / ROLLBACK WORK
     * (the engine then gives it no transaction of its own) */
    int spl_direct, spl_txn;
    /* an update cursor (SELECT ... FOR UPDATE on one table): SQLite column
     * ncols is the row's rowid; the rowid of the row last fetched */
    int rowid_col, cur_valid;
    int64_t cur_rowid;
};

static inline int ixs_execute(ixs_stmt *s, int64_t *rows, ixv_err *err) {
    return s->host->execute(s, rows, err);
}
static inline int ixs_open(ixs_stmt *s, ixv_err *err) {
    return s->host->open(s, err);
}
static inline int ixs_fetch(ixs_stmt *s, ixb_wbuf *out, ixv_err *err) {
    return s->host->fetch(s, out, err);
}
static inline void ixs_stmt_free(ixs_stmt *s) {
    if (s) s->host->stmt_free(s);
}
static inline int ixs_stmt_is_cursor(const ixs_stmt *s) {
    return s->host->stmt_is_cursor(s);
}

/* Runs the routine of s (s->spl_direct): steps s->st, bound by the
 * caller, onto the arguments, resets it, and runs the routine with them;
 * row(ud, v, n, err) takes each row it returns (non-zero stops with that
 * error in *err). Returns 0 or -1 with *err (ixs_spl_sql.c). */
typedef int (*ixs_spl_row_fn)(void *ud, const sval *v, int n, ixv_err *err);
int ixs_spl_direct(ixs_stmt *s, ixs_spl_row_fn row, void *ud, ixv_err *err);

/* The current row of an update cursor: after the engine's fetch (or an SPL
 * FOREACH) stepped s->st onto a row (ixs_cursor.c). */
void ixs_cursor_fetched(ixs_stmt *s);
/* Registers ixd_current_of() on a connection (ixs_cursor.c). */
int ixs_cursor_register(sqlite3 *h, ixs_conn *db);

/* The translator. ixs_translate fills s (kind, stype, sqlite_sql, cols,
 * params) for SELECT/INSERT/UPDATE/DELETE, or sets kind SK_SQL with the
 * statement's tree (s->ddl) for the others. Returns 0 or -1 with *err. */
int ixs_translate(ixs_conn *db, ixs_stmt *s, const char *sql, size_t n, ixv_err *err);
/* Parses and runs the text of an SK_SQL statement (DDL, transaction
 * control, SET ...): for statements inside others (CREATE SCHEMA, DROP
 * TABLE's cascade) and those without a tree (s->ddl NULL). */
int ixs_run_sql(ixs_conn *db, const char *sql, size_t n, int64_t *rows, ixv_err *err);
/* Executes the SK_SQL statement s from its tree (its text when it has none). */
int ixs_ddl_exec(ixs_stmt *s, int64_t *rows, ixv_err *err);
/* Frees a statement tree (NULL: nothing). */
void ixs_ddl_destroy(struct ixs_ddl *d);

/* The database statements of a session, parsed (ixs_dbstmt.c); the engine
 * runs them. */
enum {
    IXS_DB_NONE = 0,
    IXS_DB_CREATE, /* CREATE DATABASE [IF NOT EXISTS] name [WITH ... LOG] */
    IXS_DB_DROP,   /* DROP DATABASE [IF EXISTS] name */
    IXS_DB_OPEN,   /* DATABASE name[@server] [EXCLUSIVE] */
    IXS_DB_CLOSE,  /* CLOSE DATABASE */
};
typedef struct ixs_dbstmt {
    int kind;                    /* IXS_DB_* */
    char name[IXS_NAME_MAX + 1]; /* the database */
    int logmode;                 /* CREATE: 0 none, 1 log, 2 buffered, 3 ANSI */
    int if_flag;                 /* IF [NOT] EXISTS */
} ixs_dbstmt;
/* Parses a database statement into *out: 1 when sql is one (out filled),
 * 0 when it is not (or does not tokenize: prepare reports that), -1 with
 * *err on a malformed one (out->kind still says which it is). */
int ixs_dbstmt_parse(const char *sql, size_t n, ixs_dbstmt *out, ixv_err *err);

#endif
