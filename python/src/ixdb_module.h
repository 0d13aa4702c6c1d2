/*
 * ixdb_module.h: what the C files of the Python module (python/src/...)
 * share: the exception classes, the object structures and the helpers that
 * raise errors and build values. Defined in ixdb_module.c.
 */
#ifndef IXDB_MODULE_H
#define IXDB_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <ixdb.h>
#include <stdint.h>

/* ---- module state (single-phase init: one interpreter) -------------------- */

extern PyObject *Warning_, *Error, *InterfaceError, *DatabaseError, *DataError, *OperationalError,
    *IntegrityError, *InternalError, *ProgrammingError, *NotSupportedError;
extern PyObject *DecimalType; /* decimal.Decimal */
extern PyTypeObject MonthsType, ConnectionType, CursorType;

/* ---- Connection and Cursor structures -------------------------------------- */

typedef struct {
    PyObject_HEAD ix_conn *conn; /* NULL once closed */
    int autocommit;              /* the DB-API setting */
    int nolog;                   /* BEGIN WORK gave -256: no transactions */
    int busy;                    /* a call with the GIL released is running */
    const char *encoding;        /* NULL: UTF-8 fast path (blob bytes) */
    char encbuf[64];
    ix_stmt **zombies; /* statements to finalize when the connection is free */
    size_t nzombies, capzombies;
    /* DB-API extensions */
    PyObject *row_factory;    /* None or callable(cursor, row): cursors start with it */
    PyObject *messages;       /* list of (class, value) of the connection's errors */
    PyObject *tz;             /* tzinfo aware datetimes are converted to (None: local) */
    struct ixpool_link *pool; /* NULL: not from an ixdb.pool.Pool (ixdb_pool.c) */
    struct ixpy_lob *lobs;    /* open LOB streams, closed before the connection (ixdb_lob.c) */
    int aio_err;              /* ixdb.aio: the failure ix_consume_input / ix_flush met (0: none) */
} ConnectionObject;

/* How a column's values become Python objects: chosen once per statement
 * (cursor_describe) from the type, the qualifier and the connection's code
 * set, so that building a row is one switch per value. */
enum {
    K_INT,     /* SMALLINT .. BIGSERIAL: int */
    K_FLOAT,   /* FLOAT, SMALLFLOAT: float */
    K_DEC,     /* DECIMAL, MONEY: decimal.Decimal */
    K_DATE,    /* DATE: datetime.date */
    K_STR,     /* character types, no locale: str from the bytes (UTF-8) */
    K_VSTR,    /* VARCHAR, NVARCHAR, no locale: str of ix_column_text, read in place */
    K_STR_ENC, /* character types with CLIENT_LOCALE: str in its code set */
    K_BOOL,    /* BOOLEAN: bool */
    K_DT,      /* DATETIME from YEAR, MONTH or DAY: datetime.datetime */
    K_TIME,    /* DATETIME from HOUR or later: datetime.time */
    K_IV_DS,   /* INTERVAL DAY .. FRACTION class: datetime.timedelta */
    K_IV_YM,   /* INTERVAL YEAR / MONTH class: ixdb.Months */
    K_BYTES,   /* BYTE: bytes (its own round trip) */
    K_TEXT,    /* TEXT: str (its own round trip) */
    K_TEXTISH, /* any other type: str of ix_column_text */
    K_BLOB,    /* BLOB: bytes (ixdb_lob.c) */
    K_CLOB,    /* CLOB: str in the connection's code set */
    K_LOCATOR, /* BLOB or CLOB with Cursor.lob_locators: ixdb.Locator */
};

typedef struct colinfo colinfo;
/* A column's converter: column i of the current row as a new reference
 * (None for NULL), or NULL with an exception (enc: the connection's code
 * set, NULL for UTF-8). */
typedef PyObject *(*value_fn)(ix_stmt *s, int i, const colinfo *ci, const char *enc);
struct colinfo {
    int type, enclen, kind;
    value_fn value; /* the converter of kind, set with colinfo_set_kind */
};
/* Sets ci's kind and the converter that goes with it. */
void colinfo_set_kind(colinfo *ci, int kind);

typedef struct {
    PyObject_HEAD ConnectionObject *conn;
    ix_stmt *stmt;
    PyObject *sql; /* the text stmt was prepared from */
    int stmt_type;
    int ncols;
    colinfo *cols;
    int untrack;  /* rows hold only atomic objects: built untracked by the GC */
    int has_rows; /* a result set is open and not exhausted */
    int closed;
    PyObject *description; /* tuple or None */
    PyObject *typenames;   /* list or None */
    PyObject *errors;      /* list of (row, sqlcode) of the last executemany */
    PyObject *lastrowid;
    long long rowcount; /* PEP 249's: -1 when the statement has no row count */
    long long changes;  /* libixdb's ix_changes of the last execute (Cursor._changes) */
    Py_ssize_t arraysize;
    /* GIL predictor (cursor_step): round trips and reply bytes at the
     * start of the current batch, rows of the batches before it, rows read
     * from it, its predicted rows (0: unknown) and the window around them
     * (predict_window), the row count of the next probe; steps run without
     * the GIL, batch starts stepped with it */
    int64_t last_rt, last_bytes, rows_done;
    long since, batch_est, window, next_probe;
    int64_t released, missed;
    /* DB-API extensions */
    PyObject *row_factory; /* None or callable(cursor, row) */
    PyObject *messages;    /* list of (class, value) of the cursor's errors */
    long long rownumber;   /* 0-based index of the next row; -1: no result set */
    unsigned prep_flags;   /* IX_PREPARE_SCROLL / IX_PREPARE_WITH_HOLD */
    int pending;           /* the current row (the first one, read by execute, or a
                              scroll's) is the next one fetched */
    int *pmap;             /* numeric style: value number of each ? (NULL: qmark) */
    int npmap, pmap_top;   /* markers, highest number */
    int lob_locators;      /* BLOB / CLOB columns fetch as ixdb.Locator */
} CursorObject;

/* ---- numeric parameter style (ixdb_params.c) -------------------------------- */

typedef struct {
    char *text; /* the text with ? in place of :N */
    size_t len;
    int *map;   /* map[k]: the number N of the k-th marker */
    int count;  /* markers */
    int top;    /* highest N */
    int qmarks; /* ? already in the text (mixed styles) */
} numeric_sql;

/* Rewrites :N markers into ?. Returns the number of markers (0: none, *out
 * empty), -1 when out of memory. */
int ixpy_numeric_rewrite(const char *sql, size_t n, numeric_sql *out);
void ixpy_numeric_free(numeric_sql *ns);

/* ---- shared helpers (ixdb_module.c) ---------------------------------------- */

PyObject *raise_conn(ix_conn *c, int rc);
/* Raises a failed login (ixdb.connect, ixdb.aio): see docs/python.md
 * "Errors" for the codes; server names the server for the message. */
PyObject *raise_connect(ix_conn *c, int rc, const char *server);
PyObject *raise_simple(PyObject *cls, const char *msg);
int conn_enter(ConnectionObject *co);
void conn_leave(ConnectionObject *co);
int cursor_check(CursorObject *cu);
PyObject *fetch_value(ix_stmt *s, int i, const colinfo *ci, const char *enc);
int cursor_step(CursorObject *cu);
/* The next row of the result set made current: the pending one (read by
 * execute or a scroll) without I/O, else cursor_step's. Returns IX_ROW,
 * IX_DONE or a failure (raise_conn it). Called with the connection
 * entered. */
static inline int cursor_advance(CursorObject *cu) {
    if (cu->pending) {
        cu->pending = 0;
        return IX_ROW;
    }
    return cursor_step(cu);
}
/* PEP 249's rowcount of a statement of kind stmt_type that has run with
 * changes rows affected (ix_changes): changes for INSERT, UPDATE, DELETE,
 * MERGE and SELECT ... INTO TEMP; -1 for every other kind (queries, DDL,
 * SET, routines, transaction and database statements have no row count). */
long long rowcount_of(int stmt_type, int64_t changes);
/* Records what a statement that has run leaves on the cursor: changes,
 * rowcount (rowcount_of) and lastrowid. */
void cursor_set_counts(CursorObject *cu, int64_t changes);
PyObject *build_row(CursorObject *cu);
/* 1 for the statement kinds run as one-shot commands (DATABASE, CREATE /
 * DROP / CLOSE / START DATABASE). */
int is_db_statement(int t);
/* 1 when a statement of this kind opens the implicit transaction of
 * autocommit-off mode (0 for the database and transaction statements). */
int stmt_opens_txn(int stmt_type);
/* cu->lastrowid from the INSERT just run (the SERIAL8 or SERIAL it made),
 * None for other statements. */
void set_lastrowid(CursorObject *cu);
/* A new Connection owning c, with every field set (encoding NULL or "" for
 * UTF-8; tz: None or the tzinfo of aware datetimes). connection_wrap
 * ix_close's c when it fails; connection_new leaves c to the caller and
 * returns NULL with a Python error set. */
PyObject *connection_wrap(ix_conn *c, int autocommit, const char *encoding, PyObject *tz);
ConnectionObject *connection_new(ix_conn *c, int autocommit, const char *encoding, PyObject *tz);
int on_wait_signal(void *ud);
int conn_maybe_begin(ConnectionObject *co, int stmt_type);
int bind_params(CursorObject *cu, ix_stmt *s, PyObject *params);
int cursor_numeric(CursorObject *cu, const char *text, size_t n, numeric_sql *ns);
int cursor_describe(CursorObject *cu);
void cursor_clear_result(CursorObject *cu);

/* ---- pool (ixdb_pool.c) and column arrays (ixdb_arrays.c) ------------------- */

PyObject *mod_pool_type(PyObject *mod, PyObject *unused);
void pool_giveback(ConnectionObject *co); /* close of a pooled connection */
int pool_track_cursor(ConnectionObject *co, CursorObject *cu);
void pool_forget_cursor(CursorObject *cu);
PyObject *Cursor_fetch_arrays(CursorObject *cu, PyObject *args, PyObject *kw);

/* ---- smart LOBs (ixdb_lob.c) ------------------------------------------------ */

int ixpy_lob_init(PyObject *mod);
void ixpy_lob_close_all(ConnectionObject *co);
/* IX_T_BLOB / IX_T_CLOB for a smart-LOB column, else IX_T_UDTFIXED. */
int ixpy_lob_coltype(ix_stmt *s, int i);
/* The K_* kind of a column of type (IX_T_BLOB / IX_T_CLOB: by
 * cu->lob_locators; any other type keeps kind). */
int ixpy_lob_kind(const CursorObject *cu, int type, int kind);
PyObject *ixpy_lob_value(ix_stmt *s, int i, int kind, const char *enc);
/* 1 with *loc and *type set when o binds as a smart-LOB handle (an
 * ixdb.Locator, an ixdb.LobStream, or a file-like object copied into a new
 * LO), 0 when o is none of those, -1 with an exception. */
int ixpy_lob_param(ConnectionObject *co, PyObject *o, ix_locator *loc, int *type);
PyObject *Cursor_lob_open(CursorObject *cu, PyObject *args, PyObject *kw);
PyObject *Cursor_fetch_locator(CursorObject *cu, PyObject *column);
PyObject *Cursor_get_lob_locators(CursorObject *cu, void *c);
int Cursor_set_lob_locators(CursorObject *cu, PyObject *v, void *c);
PyObject *Connection_lob_open(ConnectionObject *co, PyObject *args, PyObject *kw);
PyObject *Connection_lob_create(ConnectionObject *co, PyObject *args, PyObject *kw);

/* ---- ixdb.aio (ixdb_aio.c) ---------------------------------------------------- */

int aio_add_functions(PyObject *module);

/* Runs stmt without the GIL. */
#define NOGIL(stmt)                                                                                \
    do {                                                                                           \
        Py_BEGIN_ALLOW_THREADS stmt;                                                               \
        Py_END_ALLOW_THREADS                                                                       \
    } while (0)

/* A parameter value converted from Python (its text kinds in an arena). */
enum { P_NULL, P_INT, P_DOUBLE, P_BOOL, P_TEXT, P_BLOB, P_DEC, P_DATE, P_DT, P_IV, P_LOC };

typedef struct {
    int kind;
    int n;         /* byte length of text kinds */
    unsigned qual; /* P_DT / P_IV */
    union {
        int64_t i;
        double d;
        size_t off; /* text kinds: offset in the arena */
    } u;
} pval;

typedef struct {
    char *data;
    size_t len, cap;
} arena;

/* ---- executemany's fast path (ixdb_many.c) ----------------------------------- */

/* Rows read straight into column arrays for ix_batch_execute_arrays. */
typedef struct many_fast many_fast;
int many_init(void); /* at module init: 0 or -1 */
PyObject *mod_executemany_fast(PyObject *self, PyObject *args);
PyObject *mod_executemany_fast_rows(PyObject *self, PyObject *noarg);
PyObject *mod_fetch_general(PyObject *self, PyObject *args);
/* A fast path for np parameters (pmap, top: the numeric style, as
 * convert_row) and chunks of cap rows, or NULL when it does not apply (the
 * general path is then taken: no exception set). */
many_fast *many_new(const ConnectionObject *co, int np, const int *pmap, int top, int64_t cap);
/* Reads rows from it until the chunk is full or it ends: 0 (many_count rows
 * ready), 1 (a row did not fit: the chunk's rows, that one last, are in
 * many_rows for the general path, and this fast path is done), or -1 (the
 * iterator raised). */
int many_fill(many_fast *mf, PyObject *it);
int64_t many_count(const many_fast *mf);
PyObject *const *many_rows(const many_fast *mf, Py_ssize_t *n);
/* Runs the chunk (ix_batch_execute_arrays; no Python call: without the GIL). */
int many_run(many_fast *mf, ix_stmt *s, int *codes, int64_t *nfailed);
/* Drops the chunk's references (with the GIL), for the next many_fill. */
void many_release(many_fast *mf);
void many_free(many_fast *mf);

/* Shared by ixdb_module.c, ixdb_errors.c and ixdb_cursor.c. */
int bind_pval(ix_stmt *s, int i, const pval *v, const char *base, ix_destructor life);
PyObject *class_for_rc(int rc, int sqlcode);
void clear_messages(PyObject *messages);
void conn_release_stmt(ConnectionObject *co, ix_stmt *s);
int convert_row(ConnectionObject *co, PyObject *params, int nparams, pval *out, arena *a,
                const int *pmap, int top);
void cursor_predict_reset(CursorObject *cu);
int is_mapping(PyObject *params);
int kind_is_atomic(int k);
int kind_of(int type, int enclen, int encoded);
int named_params_error(void);
PyObject *note_error(PyObject *messages);
PyObject *noted(PyObject *messages, PyObject *r);
PyObject *raise_full(PyObject *cls, const char *msg, int errcode, int sqlcode, int isam,
                     const char *sqlstate, int offset);
PyObject *raise_full_tail(PyObject *cls, const char *msg, const char *tail, int errcode,
                          int sqlcode, int isam, const char *sqlstate, int offset);
int set_row_factory(PyObject **slot, PyObject *v);

#endif
