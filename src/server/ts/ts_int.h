/*
 * ts_int.h: internals of the TimeSeries engine (src/server/ts). Not used
 * outside this folder; ts.h is the interface.
 *
 * Time inside the engine is an int64: microseconds since 1970-01-01
 * 00:00:00 for timestamps and intervals; in storage, a regular series keeps
 * slot numbers (slot k is origin + k * step) and an irregular one
 * microseconds. Both are "t" below.
 */
#ifndef TS_INT_H
#define TS_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "server/ts/ts.h"
#include "server/ts/ts_codec.h"

/* The reply limit of one LVARCHAR value: a JSON page, an element list. */
#define TS_LVARCHAR_MAX 32739
#define TS_TIME_TEXT    32 /* "YYYY-MM-DD HH:MM:SS.ffffff" and NUL */
#define TS_NO_TIME      INT64_MIN

/* Informix errors the routines raise (docs/timeseries.md lists them). */
enum {
    TS_E_ROUTINE = IXV_E_TEXT,  /* %s: the routine's own message */
    TS_E_UNIQUE = IXV_E_UNIQUE, /* Unique constraint (%s) violated. */
    TS_E_DT_CHAR = IXV_E_DT_CHAR,
    TS_E_DT_FIELD = IXV_E_DT_FIELD,
    TS_E_NUM = IXV_E_CONVERT,
    TS_E_DEC_PREC = IXV_E_DEC_PREC,
    TS_E_SMALLINT = IXV_E_SMALLINT_RANGE,
    TS_E_INTEGER = IXV_E_INT_RANGE,
    TS_E_NOMEM = IXV_E_NOMEM,
    TS_E_NO_TABLE = IXV_E_NO_TABLE,
    TS_E_NO_COLUMN = IXV_E_NO_COLUMN,
};

/* An error of a routine: SQLCODE and its insertion text. */

/* ---- time (ts_time.c) ------------------------------------------------------ */

/* "YYYY-MM-DD[ HH[:MI[:SS[.f..]]]]" (up to 6 fraction digits; also a
 * 'T' between date and time) into microseconds. Returns 0 or -1 with *e
 * (-1262 / -1263). */
int ixts_time_parse(const char *s, size_t n, int64_t *us, ixv_err *e);
/* Formats us as "YYYY-MM-DD HH:MM:SS" plus fdig (0..6) fraction digits into
 * buf (TS_TIME_TEXT bytes); returns the length. */
size_t ixts_time_format(int64_t us, int fdig, char *buf);
/* An interval (docs/timeseries.md: '<n> <unit>', ts_1min, 'D HH:MI:SS.f')
 * into microseconds (> 0). Returns 0 or -1 with *e (-746). */
int ixts_interval_parse(const char *s, size_t n, int64_t *us, ixv_err *e);
/* Formats a step as "1 minute", "90 seconds", "250 microseconds". */
void ixts_interval_format(int64_t us, char *buf, size_t n);

/* ---- elements (ts_elem.c) ---------------------------------------------------- */

/* One metric value. INT: i; F64/F32: d; DEC: i * 10^-scale. */
typedef struct ts_val {
    int64_t i;
    double d;
    int8_t scale;
    uint8_t null;
} ts_val;

/* One element: its timestamp (microseconds) and the row type's metrics. */
typedef struct ts_elem {
    int64_t t;
    ts_val v[TS_MAX_METRICS];
} ts_elem;

/* Arrays of elements of one row type: sz bytes each (only the row type's
 * metrics are there, so never assign a ts_elem from one: copy sz bytes).
 * The array owns p; ixts_els_free releases it. */
typedef struct ts_els {
    uint8_t *p;
    size_t n, cap, sz;
} ts_els;
static inline ts_elem *ts_at(const ts_els *a, size_t k) {
    return (ts_elem *)(void *)(a->p + k * a->sz);
}
/* Bytes of one element of a row type with nf fields. */
size_t ixts_elem_size(int nf);
void ixts_els_init(ts_els *a, int nf);
/* Room for n elements in all; 0 or -1 (out of memory). */
int ixts_els_reserve(ts_els *a, size_t n);
/* Appends one element slot (zeroed); NULL when out of memory. */
ts_elem *ixts_els_push(ts_els *a);
void ixts_els_free(ts_els *a);

/* The codec kind of a row type field (TS_K_*), its DECIMAL scale (0..18,
 * or -1 for a floating DECIMAL(p)). */
int ixts_field_kind(const ts_field *f);
int ixts_field_scale(const ts_field *f);
/* Fraction digits of the timestamp field (1..5), and the digits to print
 * time us with: the field's, or more when us has finer digits (an
 * irregular series keeps microseconds). */
int ixts_rowtype_fdig(const ts_rowtype *rt);
int ixts_time_digits(const ts_rowtype *rt, int64_t us);

/* Parses element text "ts|v1|v2|...[|]" of row type rt into *el. Returns 0
 * or -1 with *e (wrong number of fields -746, a bad number -1213 / -1214 /
 * -1215 / -1226, a bad timestamp -1262 / -1263). */
int ixts_elem_parse(const ts_rowtype *rt, const char *s, size_t n, ts_elem *el, ixv_err *e);
/* Parses one metric field text into *v (empty = NULL). */
int ixts_val_parse(const ts_field *f, const char *s, size_t n, ts_val *v, ixv_err *e);

/* Appends metric value v of field f as text (element text and JSON numbers:
 * integers, exact decimals, shortest round-trip doubles; non-finite as
 * inf/-inf/nan, or with json as "Infinity"/"-Infinity"/"NaN" strings;
 * NULL as nothing, or with json as null). */
void ixts_val_text(const ts_field *f, const ts_val *v, int json, sb *out);
/* Writes the digits of u at o (room for 20); returns the end. */
char *ixts_put_u64(char *o, uint64_t u);
/* Appends a decimal number m * 10^-scale (scale 0..32) as text. */
void ixts_dec_text(int64_t m, int scale, sb *out);
/* Appends a double as the shortest text that reads back to it. */
void ixts_double_text(double d, int is_float, sb *out);
/* Appends element text "ts|v1|...|vn" of rt. */
void ixts_elem_text(const ts_rowtype *rt, const ts_elem *el, sb *out);

/* Element values of the metrics as stored in a head row: per metric a tag
 * byte (0 NULL, 1 value) then 8 bytes little-endian (int64 or double bits)
 * and, for DECIMAL, one scale byte. */
size_t ixts_elem_pack(const ts_rowtype *rt, const ts_elem *el, uint8_t *buf);
int ixts_elem_unpack(const ts_rowtype *rt, const uint8_t *p, size_t n, ts_elem *el);
#define TS_PACK_MAX (TS_MAX_METRICS * 10)

/* Storage value of metric v of field f for SQLite (integer, real, or the
 * DECIMAL blob). */
void ixts_val_result(const ts_field *f, const ts_val *v, sqlite3_context *ctx);

/* ---- series and storage (ts_store.c) ----------------------------------------- */

/* An open series. */
typedef struct ts_series {
    int64_t sid;
    char tab[TS_NAME_MAX + 1], col[TS_NAME_MAX + 1];
    int64_t origin, step; /* microseconds; step 0 = irregular */
    int64_t n, nhead;     /* elements in all, in the head */
    int64_t hi;           /* the last t of the sealed chunks, TS_NO_TIME when none */
    int64_t last;         /* the last t of the series, TS_NO_TIME when empty */
    ts_rowtype rt;        /* last: a copy takes only its rt.nf fields */
} ts_series;

/* The last series a routine call opened, for the next call on the same
 * series (one element per call, page after page): used while this
 * connection has changed no row since (sqlite3_total_changes64 counts every
 * INSERT, UPDATE and DELETE, triggers' too), run no other kind of statement
 * and ended no transaction (the db's gen), stayed in or out of its
 * transaction (autocommit) and no other connection has committed (the data
 * version). A failed call drops it. */
typedef struct ts_scache {
    int valid;
    char tab[TS_NAME_MAX + 1], col[TS_NAME_MAX + 1];
    int ktype; /* SQLITE_INTEGER or SQLITE_TEXT */
    int64_t ki;
    char kt[256];
    int ktn;
    uint64_t gen;
    unsigned dver;
    int64_t changes;
    int autocommit;
    ts_series s;
} ts_scache;

/* The connection's TimeSeries state: made by ixts_register, the caller's
 * (the engine keeps it with its connection), freed by ixts_close. */
enum {
    TS_Q_SERIES,     /* series by table, column, key */
    TS_Q_SERIES_SET, /* n, nhead, hi, last, lastv */
    TS_Q_HEAD_INS,   /* one head element */
    TS_Q_HEAD_UPD,   /* replace a head element */
    TS_Q_HEAD_GET,   /* the head elements of a window */
    TS_Q_HEAD_DEL,   /* the head elements of a window */
    TS_Q_CHUNK_INS,  /* a sealed chunk */
    TS_Q_CHUNK_AT,   /* the chunk holding or preceding t */
    TS_Q_CHUNK_NEXT, /* the first chunk after t */
    TS_Q_CHUNK_WIN,  /* the chunks of a window */
    TS_Q_CHUNK_DEL,  /* one chunk by rowid */
    TS_Q_CHUNK_UPD,  /* rewrite one chunk by rowid */
    TS_Q_COLUMN,     /* a TIMESERIES column's row type and key */
    TS_Q_LASTV,      /* the last element of a series */
    TS_Q_ITER_CHUNK, /* TS_Q_CHUNK_WIN of a cached iterator (ixts_iter_open) */
    TS_Q_ITER_HEAD,  /* TS_Q_HEAD_GET of a cached iterator */
    TS_Q_SUMM_PUT,   /* a chunk's summary */
    TS_Q_SAVE,       /* SAVEPOINT of a write routine */
    TS_Q_RELEASE,
    TS_Q_ROLLBACK,
    TS_NQ
};
/* A series whose head grew in the running transaction (sealed at commit
 * when it has TS_SEAL_MIN elements: ixts_before_commit). */
typedef struct ts_touched {
    char tab[TS_NAME_MAX + 1], col[TS_NAME_MAX + 1];
    int64_t sid;
} ts_touched;
#define TS_TOUCHED_MAX 32

/* The client data of a table function's module: which table it is. */
typedef struct ts_vtkind {
    struct ts_conn *c;
    int agg;
} ts_vtkind;

/* A chunk a cached iterator decoded, found again by its series,
 * first time, length and a 64-bit hash of its bytes (so a chunk rewritten
 * by anyone is never taken for the old one). */
typedef struct ts_ccache {
    int valid;
    int64_t sid, t0;
    size_t len;
    uint64_t hash;
    ts_dec dec;
} ts_ccache;

/* Chunks kept decoded: two, so that a page read again (a client polling
 * the same window) that spans two chunks decodes neither. */
#define TS_CCACHE_N 2

struct ts_conn {
    ixts_stamp_fn stamp; /* the validity of kept series (ixts_register) */
    void *stamp_ud;
    sqlite3 *h;
    sqlite3_stmt *q[TS_NQ];
    ts_dec dec;
    ts_touched touched[TS_TOUCHED_MAX];
    int ntouched;
    ts_vtkind vt_rows, vt_agg;
    ts_ccache cache[TS_CCACHE_N]; /* the chunks cached iterators decoded last (freed
                                   * in ixts_close) */
    int cache_last;               /* the entry used last */
    ts_scache sc;
    int summ_tab;      /* the summaries' table is known to exist */
    uint8_t qv[TS_NQ]; /* the SQL variant q[] was prepared with (ixts_q_sql) */
};

/* Forgets the decoded chunks (a chunk changes or goes). */
static inline void ixts_cache_drop(ts_conn *c) {
    for (int k = 0; k < TS_CCACHE_N; k++)
        c->cache[k].valid = 0;
}

/* Keeps s as the connection's last series (after a call that succeeded). */
void ixts_scache_put(ts_conn *c, const ts_series *s, sqlite3_value *key);

/* The chunk summaries' table (ts_catalog.c): 1 when the database has it
 * (made when create and it has not; in the caller's transaction), 0 not,
 * -1 error. Known present, it is not looked up again. */
#define TS_SUMM_SCHEMA                                                                             \
    "CREATE TABLE IF NOT EXISTS _ixd_ts_summ(sid INTEGER, t0 INTEGER, summ BLOB,"                  \
    " PRIMARY KEY(sid, t0)) WITHOUT ROWID;"                                                        \
    "CREATE TRIGGER IF NOT EXISTS _ixd_ts_chunk_del AFTER DELETE ON _ixd_ts_chunk BEGIN"           \
    " DELETE FROM _ixd_ts_summ WHERE sid = old.sid AND t0 = old.t0; END;"                          \
    "CREATE TRIGGER IF NOT EXISTS _ixd_ts_chunk_t0 AFTER UPDATE OF t0 ON _ixd_ts_chunk"            \
    " WHEN old.t0 IS NOT new.t0 BEGIN"                                                             \
    " DELETE FROM _ixd_ts_summ WHERE sid = old.sid AND t0 = old.t0; END;"
extern const char *const ixts_summ_schema;
int ixts_summ_table(ts_conn *c, int create, ixv_err *e);

/* Records that s's head grew in this transaction. */
void ixts_touch(ts_conn *c, const ts_series *s);
/* Seals s's head into chunks when it has TS_SEAL_MIN elements or more. */
int ixts_seal(ts_conn *c, ts_series *s, ixv_err *e);

/* The SQL of statement q (for a reader that prepares its own copy): the
 * readers of summaries take them from the summaries' table when the
 * database has it (ixts_summ_table), else from the chunks. NULL with *e on
 * failure. */
const char *ixts_q_sql(ts_conn *c, int q, ixv_err *e);
/* The cached statement q of c (prepared on first use), reset and with its
 * bindings cleared; NULL with *e on failure. */
sqlite3_stmt *ixts_q(ts_conn *c, int q, ixv_err *e);
/* Maps an SQLite failure to *e; returns -1. */
int ixts_sqlerr(ts_conn *c, int rc, ixv_err *e);

/* The key value of a TIMESERIES column's table in its storage form: text,
 * integer or other SQLite value converted to the primary key's type. */
typedef struct ts_key {
    sval v;
    int code; /* the key column's Informix type */
} ts_key;

/* Finds the series of (tab, col, key) into *s. Returns 1 found, 0 the
 * column has no such series, -1 error (-746 when (tab, col) is not a
 * TIMESERIES column). */
int ixts_series_open(ts_conn *c, const char *tab, const char *col, sqlite3_value *key, ts_series *s,
                     ixv_err *e);
/* Loads the column's row type and key type: 0 or -1 (-206, -217, -746). */
int ixts_column_open(ts_conn *c, const char *tab, const char *col, ts_rowtype *rt, char *keycol,
                     int *keycode, ixv_err *e);
/* Finds the series of key (storage form) in column (tab, col) of row type
 * rt: 1 found, 0 none, -1 error. */
int ixts_series_lookup(ts_conn *c, const char *tab, const char *col, const ts_rowtype *rt,
                       const sval *key, ts_series *s, ixv_err *e);
/* Converts a key argument to the key column's storage form (into *out,
 * which owns any bytes). */
int ixts_key_convert(sqlite3_value *x, int keycode, sval *out, ixv_err *e);

/* t in storage units of s for timestamp us (regular: the slot containing
 * it); -1 with *e when before the origin of a regular series. */
int ixts_slot(const ts_series *s, int64_t us, int64_t *t, ixv_err *e);
static inline int64_t ts_time_of(const ts_series *s, int64_t t) {
    return s->step ? s->origin + t * s->step : t;
}

/* Duplicate handling of writes. */
enum { TS_DUP_REPLACE = 0, TS_DUP_ERROR = 1 };

/* Writes n elements (timestamps in microseconds, any order) into s in the
 * current transaction: new ones after the series' end are appended (and full
 * chunks sealed), earlier ones merged into the chunk that holds their time.
 * A duplicate replaces or fails (dup). Returns 0 or -1 with *e; on -1 the
 * caller rolls back its savepoint. */
int ixts_write(ts_conn *c, ts_series *s, ts_els *els, int dup, ixv_err *e);
/* Deletes the elements of [lo, hi] (storage units); *deleted gets their
 * count. */
int ixts_delete(ts_conn *c, ts_series *s, int64_t lo, int64_t hi, int64_t *deleted, ixv_err *e);
/* Drops whole chunks whose last element is before cut (storage units). */
int ixts_retain(ts_conn *c, ts_series *s, int64_t cut, int64_t *dropped, ixv_err *e);
/* The last element (1), or 0 when the series is empty. */
int ixts_last(ts_conn *c, ts_series *s, ts_elem *el, ixv_err *e);

/* ---- reading (ts_read.c) ---------------------------------------------------- */

/* Summary of one metric in a chunk (stored beside it; ts_summ_* below). */
typedef struct ts_msum {
    uint32_t count; /* non-NULL values */
    ts_val min, max, first, last;
    double sum;
} ts_msum;

/* A cursor over the elements of a window, in time order: the sealed chunks
 * (decoded one at a time, or skipped with their summaries) then the head.
 * It prepares its own statements, so that several can be open at once and
 * live across calls (a virtual table cursor). */
typedef struct ts_iter {
    ts_conn *c;
    ts_series *s;
    int64_t lo, hi; /* window in storage units, inclusive */
    int phase;      /* 0 chunks, 1 head, 2 done */
    sqlite3_stmt *st;
    ts_dec *dec; /* own, or the connection's chunk cache (ixts_iter_open's cached) */
    ts_dec own;
    int cached;       /* dec is the connection's cache */
    int decoded;      /* the current chunk is in dec */
    uint32_t k, kend; /* next element of dec, end of the window in it */
    /* the current chunk (phase 0) */
    int64_t t0, t1;
    uint32_t cn;
    const uint8_t *summ;
    size_t summn;
    int whole;     /* the current chunk lies inside the window */
    ts_elem *head; /* the current head element (phase 1) */
    int64_t cur_t; /* time of the current element */
    int cur_chunk; /* the current element is dec's element cur_k */
    uint32_t cur_k;
} ts_iter;
/* cached: decode into the connection's one-chunk cache, so that the next
 * call reading on from inside the same chunk (the next JSON page) finds it
 * decoded; only for an iterator that is closed before its call returns. */
int ixts_iter_open(ts_iter *it, ts_conn *c, ts_series *s, int64_t lo, int64_t hi, int cached,
                   ixv_err *e);
/* ixts_iter_close frees what the iterator owns (its statement, its decoder
 * and head element; never the connection's cache); call it after a failed
 * ixts_iter_open too. */
/* Moves to the next chunk of the window without decoding it: 1 (t0, t1,
 * cn, summ, whole set), 0 no more chunks (the head comes next), -1 error. */
int ixts_iter_next_chunk(ts_iter *it, ixv_err *e);
/* Moves to the next element: 1 one is there (cur_t, ixts_iter_val), 0 end,
 * -1 error. Decodes the current chunk when ixts_iter_next_chunk did not. */
int ixts_iter_next(ts_iter *it, ixv_err *e);
void ixts_iter_val(const ts_iter *it, int m, ts_val *v);
void ixts_iter_close(ts_iter *it);

/* Summaries: encode n elements' per-metric summaries, decode one. */
void ixts_summ_build(const ts_rowtype *rt, uint32_t n, const ts_colv *cols, ixb_wbuf *out);
int ixts_summ_get(const ts_rowtype *rt, const uint8_t *p, size_t n, int m, ts_msum *out);

/* The JSON page of a window (ts_json.c). opts: "shape=rows", "limit=N",
 * "max=B". Appends the document to out (the caller's buffer); ixts_info_json
 * likewise. */
int ixts_json_page(ts_conn *c, ts_series *s, int64_t lo, int64_t hi, const char *opts, sb *out,
                   ixv_err *e);
int ixts_info_json(ts_conn *c, ts_series *s, sb *out, ixv_err *e);

/* The routines as SQLite functions and the table functions (ts_sql.c,
 * ts_vtab.c). ixts_args_series opens the series of arguments (table,
 * column, key); ixts_args_window reads arguments a, a+1 (from, to: NULL is
 * open) as a window in storage units. */
int ixts_args_series(ts_conn *c, sqlite3_value **argv, ts_series *s, ixv_err *e);
int ixts_args_window(const ts_series *s, sqlite3_value **argv, int a, int64_t *lo, int64_t *hi,
                     ixv_err *e);
/* Decodes the chunk ixts_iter_next_chunk moved to (ts_read.c); its window
 * is then dec[k..kend). */
int ixts_iter_decode(ts_iter *it, ixv_err *e);
int ixts_register_functions(ts_conn *c);
int ixts_register_vtabs(ts_conn *c);
const char *ixts_load_dir(void);

#endif
