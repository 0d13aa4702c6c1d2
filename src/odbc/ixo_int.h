/*
 * ixo_int.h: the handles of libixodbc and what its files share. The driver
 * is a client of libixdb's public API (include/ixdb.h) only.
 *
 *   ixo_env   SQL_HANDLE_ENV: the ODBC version asked for
 *   ixo_dbc   SQL_HANDLE_DBC: one ix_conn and its attributes
 *   ixo_stmt  SQL_HANDLE_STMT: one ix_stmt (or a result made by the driver:
 *             catalogue functions, SQLGetTypeInfo), its bindings and
 *             attributes
 *   ixo_desc  SQL_HANDLE_DESC: the four descriptors a statement hands out
 *             (views of the statement's fields: ixo_desc.c), or an
 *             application descriptor allocated with SQLAllocHandle, whose
 *             records and header the statements using it share
 * Each handle starts with its kind and its diagnostics; a call clears the
 * diagnostics of the handle it is given, records its own, and never
 * prints or exits.
 */
#ifndef IXO_INT_H
#define IXO_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "ixo_conv.h"

#define IXO_DRIVER_NAME "libixodbc.so"
#define IXO_DRIVER_VER  "00.01.0000"
#define IXO_MSG_PREFIX  "[ixdb][libixodbc]"
#define IXO_MSG_MAX     512
#define IXO_NAME_MAX    128

typedef struct ixo_diag {
    char state[6];
    SQLINTEGER native;
    char msg[IXO_MSG_MAX];
} ixo_diag;

/* the head every handle starts with */
typedef struct ixo_head {
    SQLSMALLINT kind; /* SQL_HANDLE_ENV, _DBC, _STMT, _DESC */
    int ndiag;
    ixo_diag *diag;
    SQLLEN diag_rows; /* SQL_DIAG_ROW_COUNT */
    pthread_mutex_t lock;
    pthread_mutex_t *lk; /* the lock a call takes: a statement's is its connection's */
    /* the handle in a call under lock (NULL: none); busy points to the
     * owner's (a statement's to its connection's), so that SQLCancel knows
     * whether the statement it is given is the one running */
    _Atomic(struct ixo_head *) in_call;
    _Atomic(struct ixo_head *) *busy;
} ixo_head;

typedef struct ixo_env {
    ixo_head h;
    SQLINTEGER odbc_version;
} ixo_env;

typedef struct ixo_stmt ixo_stmt;
typedef struct ixo_desc ixo_desc;
typedef struct ixo_watch ixo_watch; /* a connection's query-timeout watchdog (ixo_timer.c) */
typedef struct ixo_slot ixo_slot;   /* a bound column's place in a rowset (ixo_fetch.c) */
typedef struct ixo_dae ixo_dae;     /* data at execution under way (ixo_putdata.c) */

typedef struct ixo_dbc {
    ixo_head h;
    ixo_env *env;
    ix_conn *conn; /* NULL when not connected */
    int autocommit;
    SQLUINTEGER login_timeout;
    SQLUINTEGER txn_isolation;
    char dsn[256];
    char database[IXO_NAME_MAX];
    ixo_stmt *stmts;       /* the statements, linked through next */
    SQLULEN query_timeout; /* SQL_ATTR_QUERY_TIMEOUT of new statements */
    ixo_watch *watch;      /* started on the first call with a query timeout, or NULL */
    ixo_desc *descs;       /* the explicit descriptors */
    unsigned cursor_seq;   /* the last default cursor name's number (SQL_CURn) */
} ixo_dbc;

/* a column bound with SQLBindCol, or a parameter with SQLBindParameter: a
 * record of the ARD, or of the APD (the C side) and the IPD (sqltype, size,
 * digits, io) */
typedef struct ixo_bind {
    SQLSMALLINT ctype, sqltype, io;
    SQLULEN size;
    SQLSMALLINT digits;
    SQLPOINTER buf;
    SQLLEN buflen;
    SQLLEN *ind;               /* the length / indicator the driver reads and writes */
    SQLLEN *ind_ptr, *oct_ptr; /* SQL_DESC_INDICATOR_PTR, _OCTET_LENGTH_PTR as set */
    SQLSMALLINT prec, scale;   /* SQL_DESC_PRECISION, _SCALE of the C side */
    SQLINTEGER ivprec;         /* SQL_DESC_DATETIME_INTERVAL_PRECISION of the C side */
} ixo_bind;

/* a statement's descriptors, the index into ixo_stmt.desc */
enum { IXO_ARD, IXO_APD, IXO_IRD, IXO_IPD };

/* an application descriptor's records and header: an explicit
 * descriptor's own, or one a statement keeps aside (ixo_desc.c) */
typedef struct ixo_app {
    ixo_bind *rec; /* n records, malloc'd: an explicit descriptor's are freed by
                    * ixo_desc_free; a statement's go back to its bound / params
                    * (ixo_stmt_detach), which the statement's free releases */
    int n;
    SQLULEN array_size, bind_type;
    void *bind_offset;
    SQLUSMALLINT *op; /* SQL_DESC_ARRAY_STATUS_PTR: row / parameter operations (the
                       * application's array) */
} ixo_app;

struct ixo_desc {
    ixo_head h;
    ixo_stmt *stmt; /* an implicit descriptor's statement; NULL: allocated by the application */
    int which;      /* IXO_ARD ... of an implicit descriptor */
    ixo_dbc *dbc;
    ixo_app app;    /* an explicit descriptor's records and header */
    ixo_desc *next; /* the connection's explicit descriptors */
};

/* a result the driver made (catalogue functions, SQLGetTypeInfo) */
typedef struct ixo_rcol {
    char name[IXO_NAME_MAX];
    SQLSMALLINT sqltype; /* SQL_VARCHAR, SQL_SMALLINT or SQL_INTEGER */
    int nullable;
} ixo_rcol;
typedef struct ixo_result {
    int ncols;
    const ixo_rcol *cols;
    int64_t nrows, cap, pos; /* pos: the current row, 1-based (0 before the first) */
    /* nrows x ncols cells: text (NULL = SQL NULL), or an integer when
     * is_int */
    struct ixo_cell {
        char *text;
        int64_t i;
        int is_int;
    } * cells;
} ixo_result;

/* a result column as the describe gave it */
typedef struct ixo_col {
    int ixtype, enclen, notnull;
    int lob; /* IX_T_BLOB, IX_T_CLOB, or 0 */
    ixo_typeinfo ti;
} ixo_col;

struct ixo_stmt {
    ixo_head h;
    ixo_dbc *dbc;
    ixo_stmt *next;
    ixo_desc desc[4];               /* ARD, APD, IRD, IPD handles (IXO_ARD ...) */
    ixo_desc *app[2];               /* the explicit ARD and APD in use, or NULL */
    ixo_app imp[2];                 /* the implicit ARD and APD, kept aside while app[] is set */
    char curname[IXO_NAME_MAX + 1]; /* the cursor name, "" until one is set or made */
    ix_stmt *st;                    /* the prepared statement, or NULL */
    ixo_result *res;                /* or a result made by the driver */
    int prepared;                   /* SQLPrepare ran: SQLExecute may run */
    int executed;                   /* executed since the prepare or the last close */
    int pending;                    /* ix_step gave a row SQLFetch has not taken yet */
    int done;                       /* the cursor is at its end */
    int has_row;                    /* a current row to read with SQLGetData */
    int ncols;
    ixo_col *cols;
    SQLLEN rowcount;
    /* bindings: columns 1..nbound, parameters 1..nparams */
    int nbound, nparams;
    ixo_slot *slots; /* SQLFetch's plan of the bound columns: nslots of them, then
                      * nslots ix_store (ixo_fetch.c), one block */
    int nslots;
    ixo_bind *bound, *params;
    size_t *gd_offset; /* SQLGetData: bytes returned so far, per column */
    int gd_cap;        /* columns gd_offset has room for */
    int gd_col;        /* the column SQLGetData read last */
    /* attributes */
    SQLULEN row_array_size, row_bind_type, paramset_size, param_bind_type, max_rows;
    SQLULEN query_timeout; /* seconds, 0: none */
    int timer_armed;       /* the running call is armed with the query timeout */
    SQLUSMALLINT *row_status, *row_op, *param_op;
    SQLULEN *rows_fetched;
    SQLLEN *row_bind_offset;
    SQLULEN *param_bind_offset;
    SQLUSMALLINT *param_status;
    SQLULEN *params_processed;
    ixo_scratch scratch;
    /* smart-LOB values read whole (ix_column_lob) for the current row, per
     * column, so that SQLGetData's pieces read the LO once */
    void **lobs;
    size_t *lob_n;
    int64_t *lob_row;
    int nlobs;
    int64_t rowno; /* rows stepped, for lob_row */
    /* cursors: SQL_ATTR_CURSOR_TYPE, and the scroll state (ixo_fetch.c) */
    SQLULEN cursor_type;  /* SQL_CURSOR_FORWARD_ONLY or SQL_CURSOR_STATIC */
    int scroll;           /* st was prepared with IX_PREPARE_SCROLL */
    int64_t row_number;   /* SQL_ATTR_ROW_NUMBER: the first row of the rowset, 0: none */
    int64_t sc_start;     /* the rowset's first row; IXO_BEFORE_START, IXO_AFTER_END */
    int64_t sc_cur;       /* the row current in libixdb, 0 when not known */
    int64_t sc_max;       /* the highest row known to exist */
    int64_t sc_nrows;     /* the rows of the result, -1 while not known */
    SQLULEN sc_prev_size; /* the rowset size of the previous fetch */
    ixo_dae *dae;         /* set while SQLParamData / SQLPutData collect values; freed by
                           * ixo_dae_free (ixo_stmt_close calls it) */
};

#define IXO_BEFORE_START 0
#define IXO_AFTER_END    (-1)

/* ---- locking and diagnostics (ixo_diag.c) ---- */
void ixo_head_init(ixo_head *h, SQLSMALLINT kind);
/* h takes owner's lock and busy slot (a statement and its descriptors:
 * their connection's) */
void ixo_head_share(ixo_head *h, ixo_head *owner);
/* 1 when h itself is in a call now (not another handle sharing its lock) */
int ixo_in_call(ixo_head *h);
void ixo_head_free(ixo_head *h);
/* the handle of kind, locked with its diagnostics cleared, or NULL
 * (SQL_INVALID_HANDLE) */
ixo_head *ixo_enter(SQLHANDLE handle, SQLSMALLINT kind);
/* unlocks h and returns rc (a statement's armed query timeout ended first:
 * ixo_timer_disarm) */
SQLRETURN ixo_leave(ixo_head *h, SQLRETURN rc);
/* the failing call's first record becomes HYT00 "Timeout expired", its
 * native error kept (a record is added when there is none) */
void ixo_diag_timeout(ixo_head *h);
/* adds a record; returns SQL_ERROR (callers pass it through) */
SQLRETURN ixo_err(ixo_head *h, const char *state, SQLINTEGER native, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* adds a record for a warning; returns SQL_SUCCESS_WITH_INFO */
SQLRETURN ixo_warn(ixo_head *h, const char *state, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* the last failure of conn as a record (SQLSTATE, SQLCODE, text) */
SQLRETURN ixo_err_conn(ixo_head *h, ix_conn *conn);
/* a conversion result as a record: SQL_SUCCESS, _WITH_INFO, SQL_ERROR or
 * SQL_NO_DATA */
SQLRETURN ixo_err_cv(ixo_head *h, ixo_cv cv, int col);

/* ---- strings in and out (ixo_diag.c) ---- */
/* an input string (len SQL_NTS or a length) copied NUL-terminated into a
 * new allocation; NULL when s is NULL or out of memory (*oom set) */
char *ixo_strdup_in(const SQLCHAR *s, SQLINTEGER len, int *oom);
/* copies s into out (cap bytes, NUL-terminated, cut), *len its whole
 * length; 1 when it was cut (01004) */
int ixo_str_out(const char *s, void *out, SQLLEN cap, SQLSMALLINT *len16, SQLINTEGER *len32);

/* ---- information (ixo_info.c) ---- */
/* 1 when SQLGetInfo answers information type id with a string */
int ixo_info_is_text(SQLUSMALLINT id);

/* ---- statements (ixo_exec.c) ---- */
void ixo_stmt_close(ixo_stmt *s); /* the cursor closed, results dropped */
void ixo_stmt_reset_result(ixo_stmt *s);
void ixo_stmt_free(ixo_stmt *s);
void ixo_stmt_unprepare(ixo_stmt *s); /* the statement and its describe dropped */
void ixo_stmt_free_lobs(ixo_stmt *s);
/* the cursor's position before the first row, nothing known of the result */
void ixo_scroll_reset(ixo_stmt *s);
ixo_stmt *ixo_stmt_new(ixo_dbc *dbc);
/* SQLExecDirect's body, for the catalogue functions too */
SQLRETURN ixo_exec_direct(ixo_stmt *s, const char *sql, size_t len);
/* executes the prepared s->st with its parameters (SQLExecute's body):
 * SQL_NEED_DATA when data at execution is wanted first */
SQLRETURN ixo_stmt_run(ixo_stmt *s);
/* the address of row r's element of parameter b's value buffer (ind 0)
 * or length/indicator buffer (ind 1): bind offset, row- or column-wise
 * step; NULL when the buffer is */
void *ixo_param_elem(const ixo_stmt *s, const ixo_bind *b, SQLULEN r, int ind);

/* ---- data at execution (ixo_putdata.c) ---- */
/* a length/indicator that asks for data at execution */
#define IXO_IS_DAE(ind) ((ind) == SQL_DATA_AT_EXEC || (ind) <= SQL_LEN_DATA_AT_EXEC_OFFSET)
/* Before an execution binds rows 0..nrows-1: SQL_SUCCESS when no parameter
 * wants data at execution or every such value is collected, SQL_NEED_DATA
 * when the statement now waits for them (s->dae set), SQL_ERROR (HY001). */
SQLRETURN ixo_dae_begin(ixo_stmt *s, SQLULEN nrows);
/* The collected value of parameter param (0-based) in row: its C type (a
 * SQL_C_WCHAR value comes as UTF-8 SQL_C_CHAR), bytes (owned by s->dae)
 * and length (SQL_NULL_DATA for NULL). 0 when there is none. */
int ixo_dae_value(const ixo_stmt *s, int param, SQLULEN row, SQLSMALLINT *ctype, const void **buf,
                  SQLLEN *len);
/* drops the data-at-execution state and its values (s->dae NULL) */
void ixo_dae_free(ixo_stmt *s);
/* HY010 on h for a statement function called while s->dae is set;
 * returns SQL_ERROR */
SQLRETURN ixo_dae_busy_err(ixo_head *h);
/* The entry of a statement function: h (the head) and s (the statement)
 * declared; SQL_INVALID_HANDLE for a bad handle; HY010 while the statement
 * waits for data at execution (only SQLParamData, SQLPutData, SQLCancel
 * and the diagnostics go on then). */
#define IXO_ENTER_STMT(hs)                                                                         \
    IXO_ENTER_STMT_ANY(hs);                                                                        \
    if (s->dae) return ixo_leave(h, ixo_dae_busy_err(h))
/* The same, going on while data at execution is under way (SQLParamData,
 * SQLPutData, the cursor names). */
#define IXO_ENTER_STMT_ANY(hs)                                                                     \
    ixo_head *h = ixo_enter(hs, SQL_HANDLE_STMT);                                                  \
    if (!h) return SQL_INVALID_HANDLE;                                                             \
    ixo_stmt *s = (ixo_stmt *)h

/* ---- query timeouts (ixo_timer.c) ---- */
/* Arms s's query timeout (nothing when it is 0) for a call that runs the
 * statement: if the call has not ended after query_timeout seconds, the
 * connection's watchdog thread (started here on first use) interrupts it
 * with ix_cancel. ixo_leave disarms it. SQL_SUCCESS, or SQL_ERROR with a
 * record when the watchdog cannot start. */
SQLRETURN ixo_timer_arm(ixo_stmt *s);
/* Disarms it; returns rc, with the error record made HYT00 when the
 * watchdog interrupted the call and rc is SQL_ERROR. */
SQLRETURN ixo_timer_disarm(ixo_stmt *s, SQLRETURN rc);
/* Stops and joins d's watchdog and frees it (no call is armed). */
void ixo_timer_stop(ixo_dbc *d);

/* ---- results (ixo_fetch.c) ---- */
/* the columns of the statement's describe into s->cols */
SQLRETURN ixo_describe(ixo_stmt *s);

/* field of result column i (0-based; s described) as SQLColAttribute and the
 * IRD give it: 0 with *str (the statement's or a constant string, NULL for a
 * number) and *num set; -1 when field is no column attribute */
int ixo_col_field(ixo_stmt *s, int i, SQLUSMALLINT field, const char **str, SQLLEN *num);

/* ---- descriptors (ixo_desc.c) ---- */
/* After a statement function changed the bindings or header attributes of
 * s's application descriptor w (IXO_ARD, IXO_APD): an explicit descriptor
 * in use takes them, and the other statements sharing it see them. */
void ixo_app_sync(ixo_stmt *s, int w);
/* SQLSetStmtAttr(SQL_ATTR_APP_ROW_DESC / _APP_PARAM_DESC): v an explicit
 * descriptor of s's connection, or SQL_NULL_HDESC / s's implicit one to go
 * back to that. SQL_SUCCESS, or SQL_ERROR with a record on s. */
SQLRETURN ixo_desc_attach(ixo_stmt *s, int w, SQLPOINTER v);
/* the descriptor handle s uses as w (SQLGetStmtAttr) */
ixo_desc *ixo_desc_of(ixo_stmt *s, int w);
/* s back on its implicit descriptors (before it is freed) */
void ixo_stmt_detach(ixo_stmt *s);
/* SQLAllocHandle(SQL_HANDLE_DESC): a new explicit descriptor of d in *out;
 * SQL_ERROR with a record on d when out of memory */
SQLRETURN ixo_desc_alloc(ixo_dbc *d, SQLHANDLE *out);
/* SQLFreeHandle(SQL_HANDLE_DESC): the statements using desc go back to
 * their implicit descriptors; desc is freed (an implicit one: HY017) */
SQLRETURN ixo_desc_free(ixo_desc *desc);
/* 1 when descriptor field f is a string (the wide functions convert it) */
int ixo_desc_field_is_text(SQLSMALLINT f);

/* ---- UTF-16 text in (ixo_wide.c) ---- */
enum { IXO_U16_OK, IXO_U16_BADCHAR, IXO_U16_NOMEM };
/* the n UTF-16 units at w as UTF-8 in a new allocation *out (NUL-terminated,
 * *outlen bytes; the caller frees it): IXO_U16_OK, IXO_U16_NOMEM, or
 * IXO_U16_BADCHAR for text that is no UTF-16 (an unpaired surrogate); *out
 * is NULL on failure */
int ixo_utf16_dup(const SQLWCHAR *w, size_t n, char **out, size_t *outlen);

/* ---- cursor names (ixo_cursor.c) ---- */
/* s's cursor name, made ("SQL_CUR" and the connection's next number) when
 * none was set */
const char *ixo_cursor_name(ixo_stmt *s);
/* s's cursor name, when it has one, into its prepared statement while no
 * cursor is open (in effect from the next OPEN; SQLExecute calls it again) */
void ixo_cursor_apply(ixo_stmt *s);

/* ---- results made by the driver (ixo_result.c) ---- */
ixo_result *ixo_result_new(const ixo_rcol *cols, int ncols);
void ixo_result_free(ixo_result *r);
/* a new row, every cell NULL; 0 on out of memory */
int ixo_result_add(ixo_result *r);
/* cell c of the last row */
int ixo_result_text(ixo_result *r, int c, const char *text);
void ixo_result_int(ixo_result *r, int c, int64_t v);
/* s's result becomes r (describe included) */
void ixo_stmt_set_result(ixo_stmt *s, ixo_result *r);

/* ---- catalogue queries (ixo_catalog.c; ixo_catkeys.c, ixo_catproc.c) ---- */
/* syscolumns.coltype: the type in the low byte, NOT NULL in this bit */
#define COLTYPE_NOTNULL 0x100
#define COLTYPE_TYPE    0xff
/* syscolumns.extended_id of BLOB and CLOB */
#define EXTID_BLOB  10
#define EXTID_CLOB  11
#define INDEX_PARTS 16   /* sysindexes.part1 .. part16: column numbers, negative descending */
#define MAX_COLNO   1024 /* the most columns an index part may name here */
/* a catalogue argument into out: NULL as "%" for patterns (else "") */
void ixo_cat_arg(char *out, size_t cap, const SQLCHAR *s, SQLSMALLINT n, int pattern);
/* prepares sql and binds the texts; NULL with a record on failure */
ix_stmt *ixo_cat_query(ixo_stmt *s, const char *sql, const char *const *args, int nargs);
/* the text of column i without the blanks a CHAR pads with, into buf */
const char *ixo_cat_trimmed(ix_stmt *st, int i, char *buf, size_t cap);
/* The ODBC description of a syscolumns row's coltype, collength and
 * extended_id (BLOB and CLOB told apart by the last) into ti. */
void ixo_cat_coltype(int coltype, int collength, int extended_id, ixo_typeinfo *ti);
/* steps st to its end with row_fn filling r's rows (cat: the catalog name);
 * the statement's result becomes r; st is finalized, r freed on failure */
SQLRETURN ixo_cat_fill(ixo_stmt *s, ix_stmt *st, ixo_result *r,
                       int (*row_fn)(ixo_result *, ix_stmt *, const char *));
/* the column names of table tabid, by colno (names[colno]); 0 on failure */
int ixo_cat_column_names(ixo_stmt *s, int tabid, char (*names)[IXO_NAME_MAX], int max);

#endif
