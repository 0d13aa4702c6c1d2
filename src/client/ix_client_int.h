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
#include <string.h>

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
/* The reasons of a connect that reached no server that ix_unreached_sqlcode
 * tells apart: the start of a resolver failure's message, and what a server
 * name sqlhosts does not list says. */
#define IXC_MSG_NO_HOST         "cannot resolve"
#define IXC_MSG_NOT_IN_SQLHOSTS "is not listed in the sqlhosts file"

/* Looks server up in the sqlhosts file at path: a server line gives one
 * entry, a group line gives its members (lines with g=group) in file order.
 * Returns the number of entries written to out (at most max; 0: the name is
 * not in the file), or -1 when the file cannot be read, or -2 when an entry
 * cannot be used (unsupported nettype, unknown service); err says why. */
int ixc_sqlhosts_lookup(const char *path, const char *server, ixc_hostent *out, int max, char *err,
                        size_t errlen);

/* ---- code sets (ix_locale.c) ------------------------------------------------ */

/* Sets up the conversions of c (ixc_cv_to_db, ixc_cv_from_db) for the code
 * sets of the two locales (client default UTF-8; DB default: the
 * client's). Returns IX_OK or IX_EINVAL (unknown code set, or iconv has no
 * such conversion; err says which). */
int ixc_locale_setup(ix_conn *c, const char *client_locale, const char *db_locale, char *err,
                     size_t errlen);
/* Closes c's conversions (none is needed any more). Returns nothing. */
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

#define IXC_ERRMSG_CAP 512 /* bytes of an error message, with its NUL */

/* A saved error record (a reply decoded before its completion call). */
typedef struct ixc_errrec {
    int err, sqlcode, isamcode;
    int32_t erroffset;
    char errmsg[IXC_ERRMSG_CAP];
} ixc_errrec;

/* The part of a connection its statements reach on their per-row paths,
 * through the inline functions of "a connection, as the other parts reach
 * it" below: what every call checks and sets first (whether the connection
 * is lost, its blocking mode, the error record of the last call:
 * ix_errcode, ix_sqlcode, ix_errmsg, ...), the buffer requests are encoded
 * into, and what the connect and the login fixed for the connection's life
 * (code-set conversions, the forms in use). The first member of struct
 * ix_conn (ix_conn_int.h); only the connection's files touch its fields. */
typedef struct ixc_connstate {
    int dead;    /* the connection is lost: calls fail with IX_ECONN */
    int nb;      /* non-blocking mode (ix_set_nonblocking) */
    int nb_step; /* a non-blocking entry point runs: ixc_io never waits */
    int err;     /* IX_* of the last call */
    int sqlcode, isamcode;
    int32_t erroffset;
    char errmsg[IXC_ERRMSG_CAP];
    ixb_wbuf out; /* requests not yet sent: data[sent .. len) */
    size_t sent;
    /* code-set conversions to the database and from it, (iconv_t)-1 when
     * none is needed (ixc_locale_setup, at the connect) */
    iconv_t cv_to_db, cv_from_db;
    int fast; /* forms only ixd is known to take are in use (the login) */
} ixc_connstate;

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

typedef struct ixc_col {
    char *name;
    ixt_vtype vt;
    int16_t type;      /* as described, with flags */
    uint64_t text_row; /* text holds the value of this row (ix_stmt.row_seq) */
    ixb_wbuf text;
    char *decl;   /* ix_column_decltype, made on first use */
    int lob_type; /* IX_T_BLOB / IX_T_CLOB from the extended name, else 0 */
} ixc_col;

/* Answers an SQ_FILE request of the server (ix_file.c): appends the answer
 * to the request buffer and sends it. IX_OK or a connection error. */
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
    int64_t first_us, end_us; /* fetch replies: when the first message / the EOT was read */
    int stop_at_done;         /* return after the first SQ_DONE (deferred PREPARE's part) */
    int at_eot;               /* the group's EOT was read */
    ixc_batch *tuples;        /* where SQ_TUPLEs go, or NULL to drop them */
    const ixc_rowplan *plan;  /* with tuples: every tuple is checked against it */
    int has_tupid;            /* an SQ_TUPID arrived (scroll fetch) */
    int32_t tupid;            /* the first one: the position of the first row */
} ixc_reply;

/* Clears r for ixc_read_reply. The message text is only read after an
 * SQ_ERR wrote it: only its first byte is cleared. */
static inline void ixc_reply_clear(ixc_reply *r) {
    memset(r, 0, offsetof(ixc_reply, msg) + 1);
    memset(&r->has_done, 0, sizeof *r - offsetof(ixc_reply, has_done));
}

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

/* ---- the error record and the request buffer (ix_conn.c) --------------------
 * The connection's files and the statement's both call these; c is
 * borrowed, fmt and ins are copied into c's error message. */

/* Records the library error rc with a printf-style message on c (nothing
 * when c is NULL) and returns rc. */
int ixc_fail(ix_conn *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Records the server's error (SQLCODE, ISAM code, error offset, the
 * insertion text ins) on c and returns IX_ESQL. */
int ixc_fail_sql(ix_conn *c, int sqlcode, int isamcode, int32_t offset, const char *ins);
/* Records rc (IX_ECONN when ix_cancel shut the socket) with a message, marks
 * c dead and closes its transport; returns the code recorded. */
int ixc_kill(ix_conn *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Where the next request group starts in the request buffer (ixc_out),
 * for ixc_queued. */
size_t ixc_mark(ix_conn *c);
/* A request group was encoded from mark to the end of the request buffer:
 * counts it as in flight and traces it. Returns nothing. */
void ixc_queued(ix_conn *c, size_t from);
/* Sends what the request buffer holds (without waiting in a non-blocking
 * step). IX_OK or a connection error. */
int ixc_flush(ix_conn *c);
/* The monotonic clock in microseconds (ixc_now_us) or milliseconds
 * (ixc_now_ms). */
int64_t ixc_now_us(void);
int64_t ixc_now_ms(void);
/* IX_OK when c is usable, IX_EMISUSE for NULL, IX_ECONN when dead (nothing
 * recorded). */
int ixc_check(const ix_conn *c);

/* ---- reading replies (ix_reply.c) -------------------------------------------- */

/* Reads every reply still expected on c. IX_OK or a connection error. */
int ixc_drain(ix_conn *c);
/* Reads expected replies until s (borrowed) has a batch read ahead, or
 * none is expected. IX_OK or a connection error. */
int ixc_drain_for(ix_conn *c, ix_stmt *s);
/* Reads the reply of the oldest expected entry and hands it to its owner.
 * IX_OK, the owner's failure, or a connection error. */
int ixc_pend_one(ix_conn *c);
/* ---- the queue of replies still expected (ix_reply.c) -----------------------
 * Its fields are private to ix_reply.c (ix_reply_int.h). ixc_push_pend
 * queues an entry of kind for owner (NULL: the reply is read and dropped),
 * timed now; ixc_push_pend_entry queues e as given (at the back, or at the
 * front when front: the rest of the group being read). Both return IX_OK,
 * or IX_ENOMEM with c killed (its replies could no longer be matched). The
 * queue does not own the statements its entries name. */
int ixc_push_pend(ix_conn *c, int kind, ix_stmt *owner);
int ixc_push_pend_entry(ix_conn *c, ixc_pend e, int front);
/* The number of replies c still expects. */
size_t ixc_pend_count(const ix_conn *c);
/* Entries of s become entries of nobody (their replies are read and
 * dropped): s is reset or released. Returns nothing. */
void ixc_pend_disown(ix_conn *c, const ix_stmt *s);
/* Forgets every entry (the connection starts again on a new socket);
 * ixc_pend_free also frees the ring (ix_close). Return nothing. */
void ixc_pend_clear(ix_conn *c);
void ixc_pend_free(ix_conn *c);

/* ---- a connection, as the other parts reach it (ix_conn.c) ------------------
 * A connection's fields are private to the connection's files
 * (ix_conn_int.h); a statement reads and changes them only through these.
 * None of them takes ownership of anything; pointers returned are borrowed
 * from c and valid until ix_close(c). */

/* The shared state of c, owned by c (struct ix_conn's first member; the
 * pointer is valid until ix_close(c)). */
static inline ixc_connstate *ixc_state(ix_conn *c) {
    return (ixc_connstate *)(void *)c;
}
static inline const ixc_connstate *ixc_cstate(const ix_conn *c) {
    return (const ixc_connstate *)(const void *)c;
}
/* Clears c's error record (every API call starts so). Returns nothing. */
static inline void ixc_clear_err(ix_conn *c) {
    ixc_connstate *st = ixc_state(c);
    st->err = IX_OK;
    st->sqlcode = st->isamcode = 0;
    st->erroffset = 0;
    st->errmsg[0] = 0;
}
/* 1 when c is dead (its error record then says IX_ECONN), 0 when alive. */
static inline int ixc_dead(ix_conn *c) {
    ixc_connstate *st = ixc_state(c);
    if (!st->dead) return 0;
    if (st->err != IX_ECONN) {
        st->err = IX_ECONN;
        st->sqlcode = st->isamcode = 0;
    }
    return 1;
}
/* 1 when c is dead, 0 when alive; changes nothing. */
static inline int ixc_is_dead(const ix_conn *c) {
    return ixc_cstate(c)->dead;
}
/* The fast path of ix_step: 1 when c is alive, with its error record
 * cleared (as every call starts); 0 when dead, nothing changed. */
static inline int ixc_alive_clear(ix_conn *c) {
    if (ixc_is_dead(c)) return 0;
    ixc_clear_err(c);
    return 1;
}
/* 1 in non-blocking mode (ix_set_nonblocking), else 0. */
static inline int ixc_nb_mode(const ix_conn *c) {
    return ixc_cstate(c)->nb;
}
/* Sets whether the call running is a non-blocking step (ixc_io then never
 * waits) to on; returns the previous setting, for restoring it. */
static inline int ixc_set_nb_step(ix_conn *c, int on) {
    ixc_connstate *st = ixc_state(c);
    int was = st->nb_step;
    st->nb_step = on;
    return was;
}
/* The buffer requests are encoded into (between ixc_mark and ixc_queued);
 * its err says an encoding failed. Owned by c. */
static inline ixb_wbuf *ixc_out(ix_conn *c) {
    return &ixc_state(c)->out;
}
/* The capabilities granted at the login (encoders take them). */
const ixp_caps *ixc_caps(const ix_conn *c);
/* Bytes encoded into ixc_out(c) and not yet sent. */
static inline size_t ixc_unsent(const ix_conn *c) {
    return ixc_cstate(c)->out.len - ixc_cstate(c)->sent;
}
/* Copies c's error record into *e (ixc_err_save), or *e back onto c
 * (ixc_err_restore). Return nothing. */
void ixc_err_save(const ix_conn *c, ixc_errrec *e);
void ixc_err_restore(ix_conn *c, const ixc_errrec *e);
/* Appends printf-style text to c's error message (truncated to fit). */
void ixc_err_append(ix_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The results of the last statement (ix_conn_changes, ix_last_serial,
 * ix_last_serial8) become changes, and serial / serial8. Return nothing. */
void ixc_set_changes(ix_conn *c, int64_t changes);
void ixc_set_serial(ix_conn *c, int32_t serial);
void ixc_set_serial8(ix_conn *c, int64_t serial8);
/* The address of the head of c's list of statements (the statement's
 * files link and unlink through it; the list does not own them). */
ix_stmt **ixc_stmt_list(ix_conn *c);
/* The count of DDL statements run on c (the statement cache compares it). */
unsigned ixc_schema_gen(const ix_conn *c);
/* A number for a new cursor name, never given before on c. */
unsigned ixc_next_cursor_seq(ix_conn *c);
/* The fetch buffer (bytes, or IX_FETCH_AUTO) and read-ahead a new statement
 * starts with, into *fetch_buffer and *readahead. Returns nothing. */
void ixc_fetch_defaults(const ix_conn *c, int32_t *fetch_buffer, int *readahead);
/* The request forms in use (docs/protocol.md "Request sequences"), 1 or 0:
 * PREPARE deferred to the first OPEN / EXECUTE; OPEN and the first NFETCH
 * in one group. */
int ixc_form_deferred_prepare(const ix_conn *c);
int ixc_form_optofc(const ix_conn *c);
/* 1 when the forms only ixd is known to take are in use, else 0. */
static inline int ixc_form_fast(const ix_conn *c) {
    return ixc_cstate(c)->fast;
}
/* 1 when the open database is ANSI mode, else 0. */
int ixc_db_ansi(const ix_conn *c);
/* ix_txn.c: 1 while the server has a transaction open, else 0; and the
 * count of transactions ended on c (cursors opened before an end are
 * closed unless WITH HOLD). */
int ixc_in_txn(const ix_conn *c);
unsigned ixc_txn_ends(const ix_conn *c);
/* ix_locale.c: DBDATE for formatting dates, or NULL. Owned by c. */
const char *ixc_dbdate(const ix_conn *c);

/* The conversion of character values to the database's code set, and from
 * it; (iconv_t)-1 when none is needed. Owned by c. */
static inline iconv_t ixc_cv_to_db(const ix_conn *c) {
    return ixc_cstate(c)->cv_to_db;
}
static inline iconv_t ixc_cv_from_db(const ix_conn *c) {
    return ixc_cstate(c)->cv_from_db;
}

/* ---- a statement, as the other parts reach it (ix_stmt.c, ...) ------------- */

/* s's row plan, built on first use; NULL (IX_ENOMEM recorded). Owned by s. */
const ixc_rowplan *ixc_stmt_plan(ix_stmt *s);
/* The request of s whose reply is awaited (IXC_OP_*), 0 when none. */
int ixc_stmt_op(const ix_stmt *s);
/* 1 when s has a batch read ahead and not yet taken, else 0. */
int ixc_stmt_has_batch(const ix_stmt *s);
/* For the statement cache (ix_stmt_cache.c) and the pool (ix_pool.c), s
 * and c borrowed: */
/* 1 when s was prepared from exactly sql[0..n) with flags, else 0. */
int ixc_stmt_is_text(const ix_stmt *s, const char *sql, size_t n, unsigned flags);
/* 1 when s may be kept for a later ix_prepare of its text: prepared on the
 * server, and no DDL ran on its connection since; else 0. */
int ixc_stmt_keepable(const ix_stmt *s);
/* Notes whether s is kept in its connection's cache (on 1) or not (0).
 * Returns nothing. */
void ixc_stmt_set_cached(ix_stmt *s, int on);
/* s leaves the cache for a new ix_prepare: the connection's fetch buffer and
 * read-ahead again, no changes counted. Returns nothing. */
void ixc_stmt_revive(ix_stmt *s);
/* 1 when a statement of c is prepared on the server with the id, else 0. */
int ixc_stmt_id_in_use(ix_conn *c, int id);
/* 1 when every statement of c is kept in its cache (none is open), else 0. */
int ixc_stmts_all_cached(ix_conn *c);
/* For the smart large objects (ix_lob.c), s borrowed: */
/* IX_T_BLOB / IX_T_CLOB when the describe named column i's extended type
 * blob / clob, else 0; i must be a valid column index. */
int ixc_column_lob_hint(const ix_stmt *s, int i);
/* Parameter i (1-based, just bound NULL by ix_bind_null) becomes a
 * UDTFIXED of slot bytes: a NULL when v is NULL, else the value v[0..slot)
 * (copied) after its i16 length. IX_OK, or IX_ENOMEM recorded on the
 * connection. */
int ixc_bind_udtfixed(ix_stmt *s, int i, int slot, const uint8_t *v);
/* The reply to s's NFETCH e was read (bytes long). b, the batch of its rows,
 * passes to s, which appends it to its queue; NULL when reading it failed
 * (the request is then no longer in flight). r says the reply's outcome
 * and timing (with b only). Returns nothing. */
void ixc_stmt_take_fetch(ix_stmt *s, ixc_batch *b, const ixc_reply *r, const ixc_pend *e,
                         int64_t bytes);
/* ix_stmt.c: decodes one reply group of s's op (the last one when last);
 * IX_OK while the connection lives (the op's outcome waits in s for its
 * completion call), else the connection error. */
int ixc_stmt_op_reply(ix_stmt *s, int last);
/* Flushes and processes the oldest expected reply (non-blocking mode: only
 * once it has arrived whole, else IX_WANT_READ / IX_WANT_WRITE). IX_OK or a
 * failure. */
int ixc_pend_step(ix_conn *c);
/* ix_nb.c: non-blocking progress. ixc_nb_ready: 1 when the reply of the
 * oldest pending entry has arrived whole (after reading what the socket
 * has), 0 when not (then *want is IX_WANT_READ / IX_WANT_WRITE), or a
 * connection error < 0. ixc_nb_pump: non-blocking I/O, then every whole
 * reply decoded; IX_OK or a failure. */
int ixc_nb_ready(ix_conn *c, int *want);
int ixc_nb_pump(ix_conn *c);
/* ix_reply.c: writes and reads what the socket allows, without waiting.
 * IX_OK or a connection error. */
int ixc_nb_io(ix_conn *c);
/* IX_WANT_WRITE while requests wait to be sent, else IX_WANT_READ. */
int ixc_nb_want(const ix_conn *c);
/* Reads one reply group (up to its EOT) into *r (the caller's; its columns,
 * when asked for, are owned by r: ixc_reply_free). IX_OK (a server error is
 * in r->sqlcode), or a connection error. */
int ixc_read_reply(ix_conn *c, ixc_reply *r);
/* The next message from the server into *m (borrowing c's input buffer,
 * valid until the next read). IX_OK or a connection error. */
int ixc_next_msg(ix_conn *c, ixp_msg *m);
/* One round of I/O: waits (up to the read timeout) until the socket is
 * readable, or writable when want_write and requests wait, and moves
 * bytes. IX_OK or a connection error. */
int ixc_io(ix_conn *c, int want_write);
/* Frees what r owns (its described columns). Returns nothing. */
void ixc_reply_free(ixc_reply *r);
/* Frees n described columns (their names, declared types and texts) and the
 * array (NULL: nothing). Returns nothing. */
void ixc_cols_free(ixc_col *cols, int n);
/* ix_stmt.c: c is being closed: its statements are detached (they stay the
 * caller's, every call on them then fails with IX_EMISUSE). Returns
 * nothing. */
void ixc_stmt_detach_all(ix_conn *c);
/* Frees the list of batches starting at b. Returns nothing. */
void ixc_batch_free(ixc_batch *b);
/* As ixc_batch_free, but c (NULL: none) may keep one of them for its next
 * fetch reply, so that a re-executed cursor allocates nothing. Returns
 * nothing. */
void ixc_batch_release(ix_conn *c, ixc_batch *b);
/* ix_txn.c: after sql (n bytes) succeeded: BEGIN [WORK] opens a
 * transaction, COMMIT / ROLLBACK [WORK] close it. Returns nothing. */
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
