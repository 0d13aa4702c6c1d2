/*
 * ts.h: the TimeSeries engine of ixd, as the rest of ixd sees it. The SQL
 * translator (src/server/sql/ixs_ts.c) and the engine (engine/ixd_engine.c) use only
 * what is declared here; storage, codecs and routines stay in src/server/ts.
 *
 * The user's model (docs/timeseries.md): a row type whose first field is the
 * timestamp, a TIMESERIES(row_type) column in a table with a one-column
 * primary key, one series per row, and the oni_ts_* routines.
 */
#ifndef TS_H
#define TS_H

#include <sqlite3.h>
#include <stdint.h>

#include "server/value/ixv.h"

#define TS_MAX_METRICS 64
#define TS_NAME_MAX    128

/* One field of a row type: its name and Informix type (base IXT_T_* code and
 * encoded length, as the translator's ityp). */
typedef struct ts_field {
    char name[TS_NAME_MAX + 1];
    int code;
    uint32_t len;
} ts_field;

/* A row type: f[0] the timestamp (DATETIME YEAR TO FRACTION(n)), f[1..nf-1]
 * the metrics. */
typedef struct ts_rowtype {
    char name[TS_NAME_MAX + 1];
    int nf;
    ts_field f[TS_MAX_METRICS + 1];
} ts_rowtype;

/* ---- per connection ------------------------------------------------------ */

typedef struct ts_conn ts_conn;
/* What a connection's kept series are valid in: the caller's count of
 * local events that may change them (gen) and the data version of the
 * file, fresh (another connection's commit shows). */
typedef void (*ixts_stamp_fn)(void *ud, uint64_t *gen, unsigned *dver);
/* Registers the oni_ts_* SQL functions and the row and aggregate virtual
 * tables on connection h; *out is the connection's TimeSeries state, the
 * caller's until ixts_close. Returns SQLITE_OK or an SQLite error code. */
int ixts_register(sqlite3 *h, ixts_stamp_fn stamp, void *ud, ts_conn **out);
/* Frees a connection's TimeSeries state (cached statements, the kept chunk
 * and series; NULL: nothing); before the connection closes. */
void ixts_close(ts_conn *c);
/* Before the connection's COMMIT (c NULL: nothing): the heads that grew in the transaction and hold
 * at least 256 elements are sealed into chunks (in a savepoint: a failure leaves them as they are
 * and is not reported; the COMMIT goes on). Then the list and the kept series are forgotten, as
 * ixts_txn_end does after a ROLLBACK or a failed COMMIT. */
void ixts_before_commit(ts_conn *c);
void ixts_txn_end(ts_conn *c);
/* The directory oni_ts_write_file reads from (NULL: the routine is
 * disabled). The engine keeps one copy; set before sessions start. */
void ixts_set_load_dir(const char *dir);

/* ---- catalogue (run by DDL, inside the DDL's transaction) ----------------- */

/* 0 when rt can be the row type of a TIMESERIES column (first field
 * DATETIME YEAR TO FRACTION, 1..64 metrics of the supported types), else -1
 * with *err (-746). Row types themselves are made by CREATE ROW TYPE
 * (src/server/sql/ixs_rowtype.c). */
int ixts_rowtype_check(const ts_rowtype *rt, ixv_err *err);
/* Loads row type `name` (lower case): 1 found, 0 not, -1 error. */
int ixts_rowtype_load(sqlite3 *h, const char *name, ts_rowtype *out);
/* Records that column `col` of the new table `tab` is TIMESERIES(rowtype)
 * and `keycol` its primary-key column (NULL: the table has none, -746),
 * and makes the trigger that deletes a row's series with the row. */
int ixts_column_add(sqlite3 *h, const char *tab, const char *col, const char *rowtype,
                    const char *keycol, ixv_err *err);
/* ALTER TABLE tab has rebuilt the table (keycol: its one-column primary
 * key, or NULL): the series of dropped TIMESERIES columns are deleted, the
 * others keep their key (-746 when the table no longer has one) and get
 * their trigger back. */
int ixts_table_altered(sqlite3 *h, const char *tab, const char *keycol, ixv_err *err);
/* The row type name of a TIMESERIES column into buf: 1, 0 not such a
 * column, -1 error. */
int ixts_column_rowtype(sqlite3 *h, const char *tab, const char *col, char *buf, size_t n);
/* DROP TABLE tab: its series and column records go too. */
int ixts_table_dropped(sqlite3 *h, const char *tab, ixv_err *err);

/* ---- routines -------------------------------------------------------------- */

/* What a routine returns. */
enum {
    TS_RET_INT = 1, /* INTEGER */
    TS_RET_TEXT,    /* LVARCHAR (JSON or element text) */
    TS_RET_ROWS,    /* rows of the series' row type (table function) */
    TS_RET_AGG,     /* rows of aggregates per bucket (table function) */
};

/* One routine: its SQL name, argument counts, result, and the SQLite name
 * the translator emits (a function, or the virtual table of a table
 * function). */
typedef struct ts_routine {
    const char *name;
    int min_args, max_args;
    int ret;
    const char *sqlite_name;
    int writes; /* changes the database */
} ts_routine;

/* The routine called name (lower case), or NULL. */
const ts_routine *ixts_routine_find(const char *name);

/* Columns of the table functions: value columns c0.. (c0 the timestamp or
 * the bucket start) followed by the hidden argument columns. Rows: c1..
 * the metrics. Aggregates: column 1 + m * TS_NAGG + a holds metric m's
 * aggregate a (TS_AGG_*). */
#define TS_ROWS_COLS (1 + TS_MAX_METRICS)
#define TS_AGG_COLS  (1 + TS_MAX_METRICS * TS_NAGG)
enum {
    TS_AGG_MIN,
    TS_AGG_MAX,
    TS_AGG_AVG,
    TS_AGG_SUM,
    TS_AGG_COUNT,
    TS_AGG_FIRST,
    TS_AGG_LAST,
    TS_NAGG
};
/* Parses an aggregate list ("min,max,avg"): the ids in order into ids
 * (at most TS_NAGG), returns their count, or -1 for a bad list. */
int ixts_agg_parse(const char *s, int *ids);
const char *ixts_agg_name(int id);

#endif
