/*
 * ix_client_int.h: internals of libixdb shared by its source files. Not part
 * of the public API (include/ixdb.h); tests may include it to reach the
 * transport seam (ixc_connect_transport).
 */
#ifndef IXC_CLIENT_INT_H
#define IXC_CLIENT_INT_H

#include <iconv.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ixdb.h"
#include "base/ix_buf.h"
#include "proto/ix_caps.h"
#include "proto/ix_login.h"
#include "proto/ix_msg.h"
#include "proto/ix_print.h"
#include "proto/ix_reader.h"
#include "types/ix_types.h"
#include "types/ix_value.h"
#include "client/ix_rowplan.h"

/* ---- memory (ix_alloc.c) -----------------------------------------------------
 * Every allocation of the client goes through these (ix_set_allocator chooses
 * the functions); ixc_mem() is the hook set handed to the codec's buffers,
 * NULL for the C library's. ixc_calloc checks n * size for overflow. */
const ixb_alloc *ixc_mem(void);
void *ixc_malloc(size_t n);
void *ixc_calloc(size_t n, size_t size);
void *ixc_realloc(void *p, size_t n);
void ixc_free(void *p);
char *ixc_strdup(const char *s);
char *ixc_strndup(const char *s, size_t n);

/* ---- transport (ix_transport.c) ---------------------------------------------
 * A byte stream behind a tiny vtable: plain TCP or TLS over TCP. Tests may
 * plug in their own (a memory stream) through ixc_connect_transport.
 *
 * send/recv return the number of bytes moved (> 0), 0 for end of stream
 * (recv only), IXC_WANT_READ / IXC_WANT_WRITE when the call would block
 * (poll the fd for that event, then call again), or IXC_IOERR with a
 * message written to the transport's err buffer. */
#define IXC_WANT_READ  (-100)
#define IXC_WANT_WRITE (-101)
#define IXC_IOERR      (-102)

typedef struct ixc_transport ixc_transport;
typedef struct ixc_transport_vt {
    long (*send)(ixc_transport *t, const void *p, size_t n);
    long (*recv)(ixc_transport *t, void *p, size_t n);
    size_t (*pending)(ixc_transport *t); /* bytes readable without the fd (TLS) */
    void (*close)(ixc_transport *t);     /* closes and frees t */
} ixc_transport_vt;

struct ixc_transport {
    const ixc_transport_vt *vt;
    int fd; /* pollable descriptor, or -1: always ready (memory streams) */
    char err[256];
};

typedef struct ixc_tcp_opts {
    const char *host;
    const char *port;
    int connect_timeout_ms; /* 0 = none */
    int tls;
    int tls_verify;
    const char *tls_ca;
    int keepalive_s; /* TCP keepalive: idle seconds before the first probe; 0 = off */
} ixc_tcp_opts;

/* Starts connecting to o (name resolution may block; the TCP connect does
 * not): IX_OK with *out, whose fd to wait on is out->fd, or IX_ECONN /
 * IX_ENOMEM with a message in err. ixc_transport_poll then takes one step
 * (TCP connect, the TLS handshake when o->tls): IX_OK when ready,
 * IXC_WANT_READ / IXC_WANT_WRITE, or IX_ECONN / IX_ETLS / IX_ENOMEM with a
 * message in err. Timeouts are the caller's. ixc_transport_phase names the
 * step in progress ("connect", "TLS handshake", "ready"). */
int ixc_transport_start(const ixc_tcp_opts *o, ixc_transport **out, char *err, size_t errlen);
int ixc_transport_poll(ixc_transport *t, char *err, size_t errlen);
const char *ixc_transport_phase(const ixc_transport *t);
/* Sends the interrupt on socket fd (async-signal-safe). 0 or -1. */
int ixc_send_interrupt(int fd);
/* Shuts the socket fd down both ways (ix_cancel on a server that takes no
 * interrupt: the wait for it ends at once). Async-signal-safe. 0 or -1. */
int ixc_shutdown_socket(int fd);

/* ---- sqlhosts (ix_sqlhosts.c) ------------------------------------------------
 * One place to connect to: a server line of the sqlhosts file, or one member
 * of a group (members in file order). */
typedef struct ixc_hostent {
    char server[128]; /* dbservername (sent in the login) */
    char host[256];
    char port[32];    /* numeric: a service name is resolved while parsing */
    int tls;          /* onsocssl */
    int keepalive;    /* option k: 0 off, 1 on, -1 not given (the DSN decides) */
    int random_start; /* the group line's c=1: start at a random member */
} ixc_hostent;
#define IXC_SQLHOSTS_MAX 32

/* Looks server up in the sqlhosts file at path: a server line gives one
 * entry, a group line gives its members (lines with g=group) in file order.
 * Returns the number of entries written to out (at most max; 0: the name is
 * not in the file), or -1 when the file cannot be read, or -2 when an entry
 * cannot be used (unsupported nettype, unknown service); err says why. */
int ixc_sqlhosts_lookup(const char *path, const char *server, ixc_hostent *out, int max, char *err,
                        size_t errlen);

/* ---- code sets (ix_locale.c) ------------------------------------------------ */

/* Sets up c->cv_to_db / c->cv_from_db for the code sets of the two locales
 * (client default UTF-8; DB default: the client's). Returns IX_OK or
 * IX_EINVAL (unknown code set, or iconv has no such conversion; err says
 * which). */
int ixc_locale_setup(ix_conn *c, const char *client_locale, const char *db_locale, char *err,
                     size_t errlen);
void ixc_locale_free(ix_conn *c);
/* Converts in[0..n) with cd, appending to out. Returns IX_OK, IX_EINVAL (a
 * character the target code set lacks, or an invalid sequence) or
 * IX_ENOMEM. */
int ixc_convert(iconv_t cd, const void *in, size_t n, ixb_wbuf *out);
/* 1 for the character types whose values are converted (CHAR, NCHAR,
 * VARCHAR, NVARCHAR, LVARCHAR, TEXT). */
int ixc_is_char_type(int code);
/* IX_T_BLOB / IX_T_CLOB for a described UDTFIXED with the extended name
 * blob / clob (any case), else 0 (ix_lob.c). */
int ixc_lob_type_of(int code, const char *ext_name);
/* SQL text to send: sql itself, or its conversion in c->conv (valid until
 * the next call). Returns IX_OK, or IX_EINVAL / IX_ENOMEM recorded on c. */
int ixc_sql_to_db(ix_conn *c, const char *sql, size_t n, const char **wire, size_t *wn);

/* ---- error catalogue (ix_errtext.c) --------------------------------------- */
const char *ixc_sqlstate_for(int ixrc, int sqlcode, int logged_in);

/* A length that means "NUL-terminated" (include/ixdb.h, IX_NTS): any value
 * above PTRDIFF_MAX, which is also what a negative int becomes. */
#define IXC_IS_NTS(n) ((size_t)(n) > (size_t)PTRDIFF_MAX)

/* ---- connection ------------------------------------------------------------ */

/* readahead of a connection / statement when none was asked for: adaptive
 * with the automatic fetch buffer, 1 with a static one (ix_stmt.c). */
#define IXC_READAHEAD_AUTO (-1)

/* Kinds of replies the connection still expects, in request order. */
enum { PEND_DISCARD = 1, PEND_FETCH = 2, PEND_OP = 3 };
typedef struct ixc_pend {
    int kind;
    ix_stmt *owner;  /* PEND_FETCH / PEND_OP: the statement (NULL: discard the reply) */
    int64_t sent_us; /* when the request was queued (monotonic microseconds) */
    int32_t asked;   /* PEND_FETCH: the NFETCH buffer size */
    int64_t groups;  /* PEND_OP: reply groups still due (a batch: one per row) */
} ixc_pend;

/* Requests of a statement whose reply is decoded by its op handler
 * (ix_stmt.c, ixc_stmt_op_reply), in blocking and non-blocking mode. */
enum { IXC_OP_PREPARE = 1, IXC_OP_EXEC = 2, IXC_OP_OPEN = 3, IXC_OP_BATCH = 4 };

/* A saved error record (a reply decoded before its completion call). */
typedef struct ixc_errrec {
    int err, sqlcode, isamcode;
    int32_t erroffset;
    char errmsg[512];
} ixc_errrec;

/* One fetched batch: tuples as [u32 length, host order][bytes] records,
 * each checked against the statement's row plan when it arrived. */
typedef struct ixc_batch {
    ixb_wbuf data;
    int ntuples;
    int done; /* DONE arrived: the cursor is exhausted after these rows */
    int sqlcode, isamcode;
    int32_t offset;
    char msg[256];
    struct ixc_batch *next;
} ixc_batch;

/* A bound parameter: its SQ_BIND item (type, indicator, slot) and value
 * bytes exactly as on the wire, stored at bind time. A fixed-width value
 * (INTEGER, BIGINT, FLOAT, DATE, BOOLEAN) is stored in fix[0..nfix) with no
 * buffer call; any other value (nfix == 0) in val. encode_bind copies them
 * into the request in one reserve per row. */
typedef struct ixc_param {
    int set;
    int16_t type;
    int16_t indicator;
    int16_t slot;
    uint8_t nfix;
    uint8_t fix[8];
    ixb_wbuf val;
} ixc_param;

typedef struct ixc_col {
    char *name;
    ixt_vtype vt;
    int16_t type;      /* as described, with flags */
    uint64_t text_row; /* text holds the value of this row (ix_stmt.row_seq) */
    ixb_wbuf text;
    char *decl;   /* ix_column_decltype, made on first use */
    int lob_type; /* IX_T_BLOB / IX_T_CLOB from the extended name, else 0 */
} ixc_col;

struct ix_stmt {
    ix_conn *conn;
    ix_stmt *prev, *next; /* the connection's list */
    int id;               /* server statement id (valid when prepared) */
    int prepared;         /* the server has prepared it and told its id */
    char *sql;            /* copy of the SQL text */
    size_t sql_len;
    int stmt_type;
    int is_cursor;
    int nparams;
    ixc_param *params;
    /* per parameter, IX_T_BYTE / IX_T_TEXT when the INSERT's describe puts
     * such a column there, else 0; NULL when it puts none (blob_form_type
     * in ix_stmt.c) */
    uint8_t *blobcols;
    int ncols;
    ixc_col *cols;
    int32_t fetch_buffer; /* bytes, or IX_FETCH_AUTO */
    int readahead;
    int32_t tuple_size; /* from the describe */
    /* fetch-buffer auto-sizing and counters (per cursor open) */
    int32_t auto_size;  /* the next NFETCH size when fetch_buffer is IX_FETCH_AUTO */
    int auto_depth;     /* its read-ahead depth (when readahead is IXC_READAHEAD_AUTO) */
    int64_t rtt_min_us; /* smallest send-to-first-byte time seen, -1: none */
    int32_t last_asked; /* the size of the last NFETCH sent */
    int64_t roundtrips; /* NFETCH replies read */
    int64_t bytes_in;   /* bytes of those replies */
    /* execution state */
    int state;        /* 0 ready, 1 cursor open, 2 done */
    int inflight;     /* NFETCH requests sent whose reply is not read */
    int fetch_done;   /* the server has said the cursor is exhausted */
    ixc_batch *cur;   /* the batch being read */
    size_t cur_pos;   /* read position in cur->data */
    ixc_batch *queue; /* batches read ahead (drained from the wire) */
    ixc_batch *queue_tail;
    int has_row;
    /* the row plan (built when the first fetched batch arrives) and the
     * current row: its bytes and the offsets of its columns (ncols + 1) */
    int planned;
    ixc_rowplan plan;
    const uint8_t *row;
    uint32_t *segat;   /* ixc_rowplan_segments of the current row (nseg + 1) */
    unsigned row_cols; /* ncols while a row is current, else 0 */
    uint64_t row_seq;  /* counts rows read (text caches are per row) */
    int64_t fetches;
    int64_t changes;
    int64_t replied;
    int named;
    /* the cursor is open on the server (its OPEN succeeded, or was sent in
     * one group with the first NFETCH, and no CLOSE went since), and the
     * count of transactions ended when it was opened (ix_conn.txn_ends) */
    int srv_open;
    unsigned open_txn;
    char curname[24];
    unsigned flags; /* IXC_PREPARE_* of ix_prepare_v2 */
    /* scroll cursor: the current row's position (0 before the first row,
     * IXC_SPOS_AFTER after the last) */
    int64_t spos;
    int cached;          /* kept in the connection's statement cache (ix_stmt_cache.c) */
    unsigned schema_gen; /* c->schema_gen when it was prepared */
    /* the request whose reply an op handler decodes (IXC_OP_*, 0: none),
     * and its outcome once decoded (op_done) until the completion call */
    int op, op_done, op_rc;
    int op_last;     /* the kind of the op whose outcome op_rc is */
    int exec_queued; /* ix_send_execute while the PREPARE was outstanding */
    int64_t op_t0;   /* when the op's request was queued (us) */
    ixc_errrec op_err;
    /* batch (ixc_stmt_op_reply, IXC_OP_BATCH) */
    int64_t b_rows, b_failed, b_first_row;
    int *b_codes; /* sqlcodes of the rows (non-blocking batch), or NULL */
    int b_first_code, b_first_isam;
    int32_t b_first_off;
    char b_first_msg[256];
    int b_stop; /* the row function's stop value */
};
#define IXC_SPOS_AFTER INT64_MAX

/* A fast-path routine looked up on a connection (ix_fastpath.c): its
 * signature, the database name and the handle SQ_GETROUTINE answered. The
 * strings are owned by the entry. */
typedef struct ixc_fproutine {
    char *sig;
    char *db;
    size_t dbn;
    int32_t handle;
} ixc_fproutine;
#define IXC_FP_CACHE_MAX 8 /* routines kept per connection (libixdb calls three) */

struct ix_conn {
    ixc_transport *tr;
    ixp_reader rd;
    ixb_wbuf out; /* bytes not yet sent: data[sent .. len) */
    size_t sent;
    ixp_caps caps;
    int dead;
    /* ix_cancel (any thread, signal handlers): lock-free atomics only.
     * cancel_fd: the socket it writes to (-1 when none). inflight: request
     * groups sent and not yet answered (one per ixc_queued after the login,
     * one less per EOT read). cancel_wait: answers still due for the groups
     * sent before the last interrupt; another interrupt waits until 0, so
     * that the server has read past the first (a second urgent byte before
     * the first is read would turn the first into stream data). */
    atomic_int cancel_fd, inflight, cancel_wait;
    ix_signal_fn on_signal; /* called when a wait is interrupted by a signal */
    void *on_signal_ud;
    int logged_in;
    int read_timeout_ms;
    int32_t fetch_buffer;
    int readahead;
    int db_open;
    int db_logged, db_ansi;
    int in_txn;
    unsigned txn_ends; /* transactions ended (ixc_txn_ended): closes cursors not WITH HOLD */
    int manual_commit; /* ix_set_autocommit(conn, 0): keep a transaction open */
    /* request sequences (DSN keys compat, deferred_prepare, optofc,
     * pipeline_login; docs/protocol.md "Evidence"): the forms in use, chosen
     * when the login is accepted (choose_forms in ix_conn.c) */
    int compat;           /* IXC_COMPAT_*: what the DSN asked for */
    int is_ixd;           /* the login accept carried IXP_IXD_SERIAL */
    int fast;             /* forms only ixd is known to take are in use */
    int deferred_prepare; /* PREPARE travels with the first OPEN / EXECUTE */
    int optofc;           /* OPEN and the first NFETCH in one group */
    int pipeline_login;   /* SQ_PROTOCOLS, SQ_INFO, SQ_DBOPEN in one flight */
    int32_t fetch_max;    /* the largest NFETCH size the server documents */
    char forms[96];       /* ix_conn_forms */
    /* the watchdog of replies to requests that run no user statement
     * (CLOSE, RELEASE, a PREPARE on its own); 0 = none. ctl_wait: such a
     * reply is being awaited (ixc_pend_one). */
    int watchdog_ms;
    int ctl_wait;
    atomic_int cancel_closed; /* ix_cancel shut the socket down (no interrupt) */
    /* round trips: reply flights read after a request was sent (for tests) */
    int64_t roundtrips;
    int sent_since_read;
    char *server_name, *server_version;
    char *member; /* ix_conn_server: "NAME@HOST:PORT" of the server that answered */
    char *dbdate; /* DBDATE for text formatting, or NULL */
    /* code-set conversion, (iconv_t)-1 when none is needed */
    iconv_t cv_to_db, cv_from_db;
    ixb_wbuf conv; /* scratch for converted SQL text */
    /* pending replies */
    ixc_pend *pend;
    size_t pend_head, pend_len, pend_cap;
    ix_stmt *stmts;
    unsigned cursor_seq;
    /* statement cache (ix_stmt_cache.c): cache[0 .. cache_len), oldest first */
    ix_stmt **cache;
    int cache_len, cache_max;
    unsigned schema_gen; /* counts the DDL statements run on the connection */
    int session_set;     /* SET ISOLATION / SET LOCK MODE ran (ix_pool's reset) */
    /* results of the last statement */
    int64_t changes, serial, serial8;
    /* error record */
    int err;
    int sqlcode, isamcode;
    int32_t erroffset;
    char errmsg[512];
    /* tracing */
    ix_trace_fn trace;
    void *trace_ud;
    int trace_fd;
    ixp_printer pr_in, pr_out;
    ixb_wbuf line;
    /* non-blocking use (ix_nb.c): nb is the mode; nb_step is set while a
     * non-blocking entry point runs (ixc_io then never waits). scan_*: how
     * far the buffered input was scanned for whole reply groups. */
    int nb, nb_step;
    int nb_decoding; /* a buffered reply is being decoded (non-blocking): flushes do not wait */
    int peer_eof; /* non-blocking read met the end of the stream (reported when bytes are needed) */
    uint64_t scan_off;
    int64_t scan_groups;
    int scan_bad;
    int64_t io_at_ms;       /* when bytes last arrived, or a reply began to be awaited */
    struct ixc_connsm *csm; /* the login in progress (ix_connect_poll) */
    char *client_dir;       /* ix_set_client_files: realpath of the allowed directory, or NULL */
    int client_fd;          /* the file an SQ_FILE request opened, plus one (0: none) */
    /* fast-path routines looked up (ix_fastpath.c), fp_cache[0 .. fp_len) */
    ixc_fproutine fp_cache[IXC_FP_CACHE_MAX];
    int fp_len;
};
/* Answers an SQ_FILE request of the server (ix_file.c): appends the answer
 * to c->out and sends it. IX_OK or a connection error. */
int ixc_file_answer(ix_conn *c, const ixp_msg *m);
/* Closes an SQ_FILE file still open and frees the directory (ix_close). */
void ixc_file_free(ix_conn *c);

/* ---- fast-path calls (ix_fastpath.c) ---------------------------------------
 * An argument: an INTEGER, or a UDT value of the named type (sent as type
 * 44 with an empty owner, as LSQ sends ifx_lo_spec and blob), p[0..n)
 * borrowed for the call. */
enum { IXC_FP_INT = 1, IXC_FP_UDT = 2 };
typedef struct ixc_fparg {
    int kind;
    int32_t i32;
    const char *type_name;
    const void *p;
    size_t n;
} ixc_fparg;
/* A result as the caller expects it: an integer (INTEGER, SERIAL or
 * SMALLINT) into i32, or a UDT value of exactly cap bytes copied into buf
 * (the caller's memory; type_name names it in messages). */
typedef struct ixc_fpres {
    int kind;
    int32_t i32;
    const char *type_name;
    uint8_t *buf;
    size_t cap;
} ixc_fpres;
/* Calls the routine of signature sig with args[0..nargs) and reads exactly
 * nres values into res: IX_OK; IX_ESQL when the server refused the look-up
 * or the call (SQ_ERR; the kept handle is dropped); IX_EPROTO with the
 * connection dropped for an answer of the wrong shape (another count, a
 * type or length other than res[] says, a NULL); or a connection error.
 * Replies still due are read first. The look-up (SQ_GETROUTINE) is done
 * once per signature and kept on c until ixc_fp_forget. */
int ixc_fp_call(ix_conn *c, const char *sig, const ixc_fparg *args, int nargs, ixc_fpres *res,
                int nres);
/* Drops every kept look-up (the current database changed; ix_close). */
void ixc_fp_forget(ix_conn *c);
/* 1 for a message that may come with any answer and says nothing to the
 * call awaiting it: SQ_DONE, SQ_COST, SQ_XACTSTAT (whose transaction state
 * is taken here); 0 for any other. */
int ixc_reply_extra(ix_conn *c, const ixp_msg *m);

/* Reply of one request group, gathered by ixc_read_reply. */
typedef struct ixc_reply {
    int sqlcode, isamcode;
    int32_t offset;
    char msg[256];
    int has_done, has_describe, has_xact;
    int64_t rows, rowid;
    int32_t serial;
    int has_insertdone;
    int64_t serial8, bigserial;
    int done_warnings;
    /* describe */
    int stmt_type, stmt_id, ncols;
    ixc_col *cols; /* allocated when want_describe */
    int want_describe;
    int32_t tuple_size;
    int64_t first_us, end_us; /* when the first message / the EOT was read */
    int stop_at_done;         /* return after the first SQ_DONE (deferred PREPARE's part) */
    int at_eot;               /* the group's EOT was read */
    ixc_batch *tuples;        /* where SQ_TUPLEs go, or NULL to drop them */
    const ixc_rowplan *plan;  /* with tuples: every tuple is checked against it */
    int has_tupid;            /* an SQ_TUPID arrived (scroll fetch) */
    int32_t tupid;            /* the first one: the position of the first row */
} ixc_reply;

/* What compat= asked for (DSN key; docs/protocol.md "Evidence"). */
enum { IXC_COMPAT_AUTO = 0, IXC_COMPAT_CONSERVATIVE = 1, IXC_COMPAT_FAST = 2 };
/* NFETCH sizes servers document: up to 11.70.xC4 at most 32767; from
 * 11.70.xC5 FET_BUF_SIZE may be larger and the server caps it at 1 MiB. */
#define IXC_FETCH_MAX_OLD       32767
#define IXC_FETCH_MAX_NEW       (1024 * 1024)
#define IXC_WATCHDOG_DEFAULT_MS 30000
/* conn.c: the largest NFETCH size to send on c (its forms and the granted
 * capabilities). */
int32_t ixc_fetch_max(const ix_conn *c);
/* conn.c: whether a version banner ("IBM Informix Dynamic Server Version
 * 11.70.FC5", "... 12.10.UC1W2", "... 14.10.FC10") names 11.70.xC5 or later,
 * the first release whose FET_BUF_SIZE may exceed 32767. */
int ixc_banner_big_fetch(const char *banner);
/* conn.c: how long one wait for the server may last (ms; 0 = for ever): the
 * read timeout, or the watchdog when that is shorter and the awaited reply
 * is one of a request that runs no user statement. */
int ixc_wait_limit_ms(const ix_conn *c);
/* conn.c: kills c with IX_ETIMEOUT after a wait of limit ms (the watchdog's
 * message when limit is not the read timeout). */
int ixc_timed_out(ix_conn *c, int limit);

/* A transaction ended (COMMIT, ROLLBACK, one the server aborted): the
 * server closed the cursors opened in it that are not WITH HOLD. */
static inline void ixc_txn_ended(ix_conn *c) {
    c->in_txn = 0;
    c->txn_ends++;
}

/* conn.c helpers used by stmt.c */
int ixc_fail(ix_conn *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ixc_fail_sql(ix_conn *c, int sqlcode, int isamcode, int32_t offset, const char *ins);
static inline void ixc_clear_err(ix_conn *c) {
    c->err = IX_OK;
    c->sqlcode = c->isamcode = 0;
    c->erroffset = 0;
    c->errmsg[0] = 0;
}
int ixc_kill(ix_conn *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
size_t ixc_mark(ix_conn *c);
void ixc_queued(ix_conn *c, size_t from);
int ixc_flush(ix_conn *c);
int ixc_push_pend(ix_conn *c, int kind, ix_stmt *owner);
/* The same with the time the request was queued given (0: not timed). */
int ixc_push_pend_at(ix_conn *c, int kind, ix_stmt *owner, int64_t sent_us);
int64_t ixc_now_us(void);
/* stmt.c: a fetch reply for s arrived (asked bytes, send-to-first-byte and
 * first-to-last-byte times in microseconds, last: the cursor ended). */
void ixc_fetch_feedback(ix_stmt *s, int32_t asked, int64_t rtt_us, int64_t xfer_us, int last);
/* stmt.c: s's row plan, built on first use; NULL (IX_ENOMEM recorded). */
const ixc_rowplan *ixc_stmt_plan(ix_stmt *s);
int ixc_drain(ix_conn *c);
int ixc_drain_for(ix_conn *c, ix_stmt *s);
/* Processes the oldest pending reply (conn.c). */
int ixc_pend_one(ix_conn *c);
/* Queues a pending entry at the front (the rest of the group being read). */
int ixc_push_pend_front(ix_conn *c, int kind, ix_stmt *owner);
/* stmt.c: decodes one reply group of s's op (kind); IX_* outcome. */
int ixc_stmt_op_reply(ix_stmt *s, int last);
/* conn.c: flushes and processes the oldest pending reply (non-blocking
 * mode: only once it has arrived whole, else IX_WANT_*). */
int ixc_pend_step(ix_conn *c);
/* ix_nb.c: non-blocking progress. ixc_nb_ready: 1 when the reply of the
 * oldest pending entry has arrived whole (after reading what the socket
 * has), 0 when not (then *want is IX_WANT_READ / IX_WANT_WRITE), or a
 * connection error < 0. ixc_nb_pump: non-blocking I/O, then every whole
 * reply decoded. */
int ixc_nb_ready(ix_conn *c, int *want);
int ixc_nb_pump(ix_conn *c);
/* An EOT (or the login answer) was decoded: one scanned group fewer. */
static inline void ixc_nb_group_read(ix_conn *c) {
    if (c->scan_groups > 0) c->scan_groups--;
}
/* conn.c: writes and reads what the socket allows, without waiting. */
int ixc_nb_io(ix_conn *c);
int64_t ixc_now_ms(void);
int ixc_nb_want(const ix_conn *c);
int ixc_read_reply(ix_conn *c, ixc_reply *r);
int ixc_next_msg(ix_conn *c, ixp_msg *m);
int ixc_io(ix_conn *c, int want_write);
void ixc_reply_free(ixc_reply *r);
int ixc_check(const ix_conn *c);
void ixc_stmt_detach_all(ix_conn *c);
void ixc_batch_free(ixc_batch *b);
void ixc_note_txn_sql(ix_conn *c, const char *sql, size_t n);
/* After sql failed with reply r: finds out whether a failed COMMIT left the
 * server's transaction open (a BEGIN probe). IX_OK or a connection error. */
int ixc_note_txn_failure(ix_conn *c, const char *sql, size_t n, const ixc_reply *r);
/* With autocommit off and no transaction open, sends SQ_BEGIN (one round
 * trip) unless sql (n bytes) is a statement that needs none (transaction
 * control, SET, DATABASE statements). Returns IX_OK or the failure, recorded
 * on c. */
int ixc_auto_begin(ix_conn *c, const char *sql, size_t n);

/* ---- statement cache (ix_stmt_cache.c) -----------------------------------------
 * ixc_cache_take: the kept statement for sql (n bytes) and flags, removed
 * from the cache, or NULL. ixc_cache_put: keeps s (reset, bindings cleared)
 * instead of releasing it; 1 when kept, 0 when s must be released.
 * ixc_cache_schema_changed: DDL ran: releases every kept statement.
 * ixc_cache_free: releases them all and turns the cache off (ix_close). */
ix_stmt *ixc_cache_take(ix_conn *c, const char *sql, size_t n, unsigned flags);
int ixc_cache_put(ix_conn *c, ix_stmt *s);
void ixc_cache_schema_changed(ix_conn *c);
void ixc_cache_free(ix_conn *c);
/* stmt.c: ix_finalize without the cache (RELEASE on the server, freed). */
int ixc_stmt_release(ix_stmt *s);

/* For tests: connect over a caller-made transport (takes ownership of tr,
 * freed by ix_close). dsn gives user, password, server, database, etc.; host
 * and port are ignored. Same results as ix_connect. */
int ixc_connect_transport(ix_conn **out, const char *dsn, ixc_transport *tr);

/* For ixprobe --capture: a process-wide tap that sees every byte every
 * connection sends (from_server 0, after the transport took them) or
 * receives (1), in order, TLS already removed; the urgent byte of a cancel
 * is not among them. fn NULL removes it. Set it while no connection is in
 * use (it is read without a lock). Not in the public API (libixdb.so does
 * not export it); the library itself never prints or stores what it sees. */
typedef void (*ixc_wire_tap_fn)(void *ud, const ix_conn *c, int from_server, const uint8_t *p,
                                size_t n);
void ixc_set_wire_tap(ixc_wire_tap_fn fn, void *ud);

#endif /* IXC_CLIENT_INT_H */
