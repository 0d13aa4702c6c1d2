/*
 * ix_stmt_int.h: struct ix_stmt and what the statement's files share:
 * ix_stmt.c (prepare, requests, execution and fetching), ix_bind.c,
 * ix_column.c, ix_scroll.c and ix_batch.c; also ix_coldetail.c. The
 * connection's files (ix_conn.c, ix_reply.c, ix_txn.c, ix_cluster.c,
 * ix_dsn.c) and the features beside them (ix_stmt_cache.c, ix_pool.c,
 * ix_lob.c, ...) never include it: they reach a statement through the
 * functions of ix_client_int.h ("a statement, as the other parts reach
 * it"). This file includes no connection internals.
 */
#ifndef IXC_STMT_INT_H
#define IXC_STMT_INT_H

#include "ix_client_int.h"

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

struct ix_stmt {
    ix_conn *conn;
    ix_stmt *prev, *next; /* the connection's list */
    int id;               /* server statement id (valid when prepared) */
    int prepared;         /* the server has prepared it and told its id */
    char *sql;            /* copy of the SQL text */
    size_t sql_len;
    int64_t first_rows; /* n of a leading "SELECT [SKIP m] FIRST n" (or LIMIT n), else 0 */
    int stmt_type;
    int is_cursor;
    int nparams;
    ixc_param *params;
    /* the target columns of an INSERT whose describe lists as many columns
     * as it has parameters (INSERT ... VALUES (?, ?, ...)): parameter i goes
     * into pcols[i] (nparams of them); NULL for any other statement
     * (note_param_columns in ix_stmt.c; ix_param_describe,
     * ixc_blob_form_type) */
    ixc_col *pcols;
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
    const uint8_t *rec; /* the current row's record (ix_rowplan.h, "Records"), in s->cur */
    const uint8_t *row; /* its stored row */
    unsigned row_cols;  /* ncols while a row is current, else 0 */
    uint64_t row_seq;   /* counts rows read (text caches are per row) */
    int64_t fetches;
    int64_t changes;
    int64_t replied;
    int named;
    /* the cursor is open on the server (its OPEN succeeded, or was sent in
     * one group with the first NFETCH, and no CLOSE went since), and the
     * count of transactions ended when it was opened (ix_conn.txn_ends) */
    int srv_open;
    unsigned open_txn;
    char curname[IX_CURSOR_NAME_MAX + 1]; /* SQ_CURNAME: ix_stmt_set_cursor_name's, or made */
    unsigned flags;                       /* IXC_PREPARE_* of ix_prepare_v2 */
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

/* ST_SCROLL: a scroll cursor is open (ix_step and the ix_fetch_* calls go
 * through scroll_fetch; the fast path of ix_step is for ST_OPEN only). */
enum { ST_READY = 0, ST_OPEN = 1, ST_DONE = 2, ST_SCROLL = 3 };

/* Bind items (§3.4): the head (type, indicator, slot) and the slots. */
#define ITEM_HEAD            6
#define IXC_BIND_VARCHAR_MAX 32767 /* bytes of a VARCHAR bind (i16 length) */
#define IXC_TUPLE_WIRE       8     /* SQ_TUPLE header bytes around each row (§3.7) */
#define SLOT_BIGINT          0x1300
#define SLOT_INTEGER         0x0a00

/* Unless stated otherwise, the functions below return IX_OK or a failure
 * recorded on s's connection, take s borrowed, and keep nothing of their
 * pointer arguments beyond the call. */

/* ---- ix_stmt.c: the statement's life, requests and fetching --------------------- */

/* IX_OK when s is usable (not NULL, attached to a connection), else
 * IX_EMISUSE (nothing recorded: there may be no connection). */
int ixc_stmt_check(const ix_stmt *s);
/* Takes s out of its connection's list of statements. Returns nothing. */
void ixc_unlink_stmt(ix_stmt *s);
/* The replies still expected for s are read and dropped when they come
 * (c is s's connection); s has no fetch in flight. Returns nothing. */
void ixc_disown_pending(ix_conn *c, ix_stmt *s);
/* Frees the batches fetched for s (current and read ahead); no row is
 * current. Returns nothing. */
void ixc_free_batches(ix_stmt *s);
/* Prepares a deferred statement now (its description is needed), waiting
 * even in non-blocking mode. IX_OK also when s is NULL, detached or
 * prepared already. */
int ixc_ensure_prepared(ix_stmt *s);
/* Frees s->pcols (NULL after). Returns nothing. */
void ixc_free_param_cols(ix_stmt *s);
/* s, prepared first when deferred (for the describe accessors, which take a
 * const statement); a failure stays recorded on the connection. */
const ix_stmt *ixc_described(const ix_stmt *s);
/* Queues the reply entry of s's request op (IXC_OP_*) expecting groups
 * reply groups; s->op is then op. */
int ixc_push_op(ix_stmt *s, int op, int64_t groups);
/* The outcome of the op decoded last (IX_OK, IX_DONE, or the failure), its
 * error record put back on the connection. */
int ixc_op_take(ix_stmt *s);
/* Waits (blocking mode) or looks (non-blocking: IX_WANT_READ /
 * IX_WANT_WRITE) for the outcome of s's op, then as ixc_op_take. */
int ixc_op_wait(ix_stmt *s);
/* Sends [ID | deferred PREPARE], [BIND], EXECUTE, EOT and queues its op;
 * exec_op_reply decodes the reply. */
int ixc_exec_send(ix_stmt *s);
/* ixc_exec_send, then waits: IX_DONE (ran), IX_OK (a cursor was opened
 * instead), or the failure. */
int ixc_exec_plain(ix_stmt *s);
/* Sends the OPEN (with the first NFETCH when they go in one group) and
 * queues what its reply needs; the cursor is open or its op in flight. */
int ixc_open_send(ix_stmt *s);
/* ixc_open_send, then waits for the OPEN's op when there is one. */
int ixc_open_cursor(ix_stmt *s);
/* 1 when the server still has s's cursor open (ix_reset CLOSEs it), else
 * 0. */
int ixc_open_on_server(const ix_stmt *s);
/* The size of an automatic cursor's first NFETCH, in bytes. */
int32_t ixc_auto_first(const ix_stmt *s);
/* The NFETCH size to ask for next, in bytes, within what the server takes. */
int32_t ixc_fetch_size(const ix_stmt *s);
/* A fetch reply for s arrived: asked bytes, send-to-first-byte and
 * first-to-last-byte times in microseconds, last: the cursor ended. Moves
 * the automatic fetch size and read-ahead depth; returns nothing. */
void ixc_fetch_feedback(ix_stmt *s, int32_t asked, int64_t rtt_us, int64_t xfer_us, int last);
/* Makes the next record of s's current batch (checked when it arrived) the
 * current row; the caller knows one is there. Returns IX_ROW. */
static inline int ixc_load_row(ix_stmt *s) {
    const uint8_t *rec = s->cur->data.data + s->cur_pos;
    s->rec = rec;
    s->row = rec + ixc_rowplan_head(&s->plan);
    s->cur_pos += ixc_rowplan_rec_len(&s->plan, rec);
    s->row_seq++;
    s->has_row = 1;
    s->row_cols = (unsigned)s->ncols;
    return IX_ROW;
}
/* ix_step on an open cursor that is not a scroll cursor: IX_ROW with the
 * next row current (fetching and reading ahead as needed), IX_DONE at the
 * end, or the failure. */
int ixc_next_row(ix_stmt *s);

/* ---- ix_scroll.c: ix_step, ix_reset and scroll cursors ------------------------- */

/* With autocommit off, sends SQ_BEGIN before s runs (a round trip that
 * waits, in non-blocking mode too). */
int ixc_begin_for(ix_stmt *s);
/* ix_step on a scroll cursor: IX_ROW with the next row (read ahead, else
 * SFETCH NEXT), IX_DONE after the last, or the failure. */
int ixc_scroll_next(ix_stmt *s);

/* ---- ix_bind.c: parameters and their encoding --------------------------------- */

/* A double's FLOAT bytes as a 64-bit pattern (all-ff, FLOAT's NULL form,
 * goes as a NaN). */
uint64_t ixc_float_bits(double v);
/* Bytes of one BIND item with n value bytes and that indicator. */
size_t ixc_item_size(int indicator, size_t n);
/* Writes one BIND item (v[0..n) copied, padded to even) at o, which has
 * ixc_item_size bytes of room; returns the byte after it. */
uint8_t *ixc_put_item(uint8_t *o, int type, int indicator, int slot, const void *v, size_t n);
/* Bytes of p's BIND item as bound (unbound: a NULL VARCHAR's). */
size_t ixc_param_size(const ixc_param *p);
/* Writes p's BIND item at o (ixc_param_size bytes of room); returns the
 * byte after it. */
uint8_t *ixc_put_param(uint8_t *o, const ixc_param *p);
/* Parameter i's type (IX_T_BYTE / IX_T_TEXT) when its value goes in the
 * real BYTE/TEXT form, else 0. */
int ixc_blob_form_type(const ix_stmt *s, int i);
/* Appends SQ_BIND with every parameter to the connection's request buffer
 * (nothing when s has none). Returns nothing: an encoding failure is in
 * ixc_out(conn)->err. */
void ixc_encode_bind(ix_stmt *s);
/* Appends the group that executes s with its bound parameters. Returns
 * nothing (as ixc_encode_bind). */
void ixc_encode_exec(ix_stmt *s);
/* Reserves a group of body bytes of BIND items in the request buffer and
 * writes its head; returns where the items go (inside the buffer, valid
 * until it grows), or NULL with the buffer's err set. */
uint8_t *ixc_group_begin(ix_stmt *s, size_t body);
/* Writes EXECUTE and EOT after the items ending at o (from
 * ixc_group_begin). Returns nothing. */
void ixc_group_end(ix_stmt *s, uint8_t *o);

/* ---- ix_batch.c --------------------------------------------------------------- */

/* Decodes one row's reply of a non-blocking batch; after the last (last
 * non-zero), the batch's outcome as ix_batch_execute's. */
int ixc_batch_op_reply(ix_stmt *s, int last);

#endif
