/*
 * ix_conn_int.h: struct ix_conn and what the connection's files share:
 * ix_conn.c (login, error record, tracing), ix_dsn.c, ix_reply.c,
 * ix_cluster.c and ix_txn.c; also the connection-wide features ix_nb.c,
 * ix_file.c, ix_fastpath.c, ix_locale.c, and ix_lob.c, ix_pool.c,
 * ix_stmt_cache.c, ix_ts.c. The statement's files (ix_stmt.c, ix_bind.c,
 * ix_column.c, ix_scroll.c, ix_batch.c) never include it: they reach the
 * connection through the functions of ix_client_int.h ("a connection, as
 * the other parts reach it"), inline ones over ixc_connstate, the
 * connection's first member, on their per-row paths.
 */
#ifndef IXC_CONN_INT_H
#define IXC_CONN_INT_H

#include "ix_client_int.h"
#include "ix_reply_int.h"

/* The options of a connection, from the DSN, the environment and sqlhosts
 * (ix_dsn.c). */
typedef struct dsn_opts {
    char *host, *port, *server, *database, *user, *password;
    char *client_locale, *db_locale, *dbdate, *tls_ca, *sqlhosts;
    int addr_given;       /* host or port came from the DSN */
    int32_t fetch_buffer; /* bytes, or IX_FETCH_AUTO */
    int readahead;
    int connect_timeout_ms, read_timeout_ms;
    int keepalive_s;
    int tls, tls_verify;
    int deferred_prepare, optofc, pipeline_login;
    int compat;              /* IXC_COMPAT_* */
    int watchdog_ms;         /* DSN key watchdog */
    int contime_s, conretry; /* INFORMIXCONTIME / INFORMIXCONRETRY; -1: not set */
} dsn_opts;

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
    ixc_connstate st; /* first: ixc_state (ix_client_int.h) relies on it */
    ixc_transport *tr;
    ixp_reader rd;
    ixp_caps caps;
    /* a fetch batch kept for the next fetch reply (ixc_batch_release);
     * owned by c, freed when c is closed */
    ixc_batch *spare;
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
    char *database; /* the current database as named (NULL: none; ix_conn_database) */
    int in_txn;
    unsigned txn_ends; /* transactions ended (ixc_txn_ended): closes cursors not WITH HOLD */
    int manual_commit; /* ix_set_autocommit(conn, 0): keep a transaction open */
    /* request sequences (DSN keys compat, deferred_prepare, optofc,
     * pipeline_login; docs/protocol.md "Evidence"): the forms in use, chosen
     * when the login is accepted (choose_forms in ix_conn.c) */
    int compat;           /* IXC_COMPAT_*: what the DSN asked for */
    int is_ixd;           /* the login accept carried IXP_IXD_SERIAL */
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
    char *member;  /* ix_conn_server: "NAME@HOST:PORT" of the server that answered */
    char *dbdate;  /* DBDATE for text formatting, or NULL */
    ixb_wbuf conv; /* scratch for converted SQL text */
    ixc_pendq pq;  /* replies still expected (ix_reply_int.h; ix_reply.c only) */
    ix_stmt *stmts;
    unsigned cursor_seq;
    /* statement cache (ix_stmt_cache.c): cache[0 .. cache_len), oldest first */
    ix_stmt **cache;
    int cache_len, cache_max;
    unsigned schema_gen; /* counts the DDL statements run on the connection */
    int session_set;     /* SET ISOLATION / SET LOCK MODE ran (ix_pool's reset) */
    /* results of the last statement */
    int64_t changes, serial, serial8;
    /* tracing */
    ix_trace_fn trace;
    void *trace_ud;
    int trace_fd;
    ixp_printer pr_in, pr_out;
    ixb_wbuf line;
    /* non-blocking use (ix_nb.c; the mode is in st). scan_*: how far the
     * buffered input was scanned for whole reply groups. */
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
_Static_assert(offsetof(struct ix_conn, st) == 0, "ixc_state needs st first");

/* A transaction ended (COMMIT, ROLLBACK, one the server aborted): the
 * server closed the cursors opened in it that are not WITH HOLD. */
static inline void ixc_txn_ended(ix_conn *c) {
    c->in_txn = 0;
    c->txn_ends++;
}

/* An EOT (or the login answer) was decoded: one scanned group fewer. */
static inline void ixc_nb_group_read(ix_conn *c) {
    if (c->scan_groups > 0) c->scan_groups--;
}

/* Results of a login attempt beside the IX_* codes. */
#define IXC_CONNECTED  1001
#define IXC_REDIRECTED 1000

/* ---- ix_conn.c ----------------------------------------------------------------- */

/* A new connection, not connected (no transport, no conversions, the
 * defaults of the DSN keys), or NULL when out of memory. The caller owns it
 * (ix_close frees it). */
ix_conn *ixc_conn_new(void);
/* Records IX_ECONN on the dead connection c (unless already recorded) and
 * returns IX_ECONN. */
int ixc_dead_rc(ix_conn *c);
/* A NUL-terminated copy of s[0..n), or NULL when out of memory; the caller
 * owns it (ixc_free). */
char *ixc_dupstr(const char *s, size_t n);
/* Hands the trace line built in c's line buffer to the trace callback and
 * the IXDB_TRACE file, prefixed with dir ("C->S", "S->C", "--"), and
 * empties the buffer. Returns nothing. */
void ixc_emit_line(ix_conn *c, const char *dir);
/* Writes c->forms (ix_conn_forms) from the forms chosen and the NFETCH size
 * the granted capabilities allow. Returns nothing. */
void ixc_name_forms(ix_conn *c);
/* Queues SQ_PROTOCOLS, and SQ_INFO and SQ_DBOPEN behind it in one flight
 * with pipeline_login, after an accepted login (o borrowed for the call).
 * Returns nothing: an encoding failure is in ixc_out(c)->err. */
void ixc_open_session_send(ix_conn *c, const dsn_opts *o);
/* Queues SQ_INFO, its own group. Returns nothing (as above). */
void ixc_queue_info(ix_conn *c);
/* Queues SQ_DBOPEN when o names a database, its own group. Returns nothing
 * (as above). */
void ixc_queue_dbopen(ix_conn *c, const dsn_opts *o);
/* Sends the login request of o (o borrowed for the call). IX_OK, or the
 * failure recorded on c. */
int ixc_send_conreq(ix_conn *c, const dsn_opts *o);
/* Reads the server's answer to the login: IX_OK when accepted (the server's
 * name and version kept on c), IXC_REDIRECTED with *redir filled (the
 * caller's), or an error recorded on c. */
int ixc_read_conacc(ix_conn *c, const dsn_opts *o, ixp_redirect_target *redir);
/* Traces and sends the group encoded in ixc_out(c) from mark. IX_OK or a
 * connection error. */
int ixc_send_group(ix_conn *c, size_t mark);
/* 1 when c traces its messages (a callback or IXDB_TRACE), else 0. */
static inline int ixc_tracing(const ix_conn *c) {
    return c->trace || c->trace_fd >= 0;
}

/* ---- ix_dsn.c -------------------------------------------------------------------- */

/* Fills *o from the defaults, the environment (INFORMIXSERVER, ...) and the
 * DSN text dsn. IX_OK, or IX_EINVAL / IX_ENOMEM with a message in err.
 * *o owns its strings (ixc_opts_free), also after a failure. */
int ixc_opts_load(dsn_opts *o, const char *dsn, char *err, size_t errlen);
/* Frees the strings of *o and sets them to NULL. Returns nothing. */
void ixc_opts_free(dsn_opts *o);
/* Replaces *dst (owned, freed) by a copy of v[0..n). IX_OK, or IX_ENOMEM
 * with *dst unchanged. */
int ixc_set_str(char **dst, const char *v, size_t n);

#endif
