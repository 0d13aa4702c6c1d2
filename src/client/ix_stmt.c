/*
 * ix_stmt.c: statements. PREPARE + describe, parameter binding (§3.4 bind
 * forms), execution, streaming cursors with read-ahead (§3.6), column
 * accessors, and pipelined batches.
 *
 * Request groups written here (sqli-protocol.md §3):
 *   prepare   PREPARE nparams sql, NDESCRIBE, WANTDONE, EOT
 *             (deferred: the same without EOT, at the head of the first
 *             open or execute group, whose SQ_ID it replaces)
 *   execute   ID id, [BIND], EXECUTE, EOT
 *   open      ID id, CURNAME name, [BIND], OPEN, ID id, NFETCH bufsize, EOT
 *             (optofc=0: OPEN, EOT, then the fetch group)
 *   fetch     ID id, NFETCH bufsize, EOT
 *   close     ID id, CLOSE, EOT        (reply read lazily: PEND_DISCARD)
 *   release   ID id, RELEASE, EOT      (reply read lazily: PEND_DISCARD)
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ix_sqlscan.h"
#include "ix_client_int.h"
#include "ix_stmt_int.h"
#include "proto/ix_blob.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"

/* ---- helpers ------------------------------------------------------------------ */

int ixc_stmt_check(const ix_stmt *s) {
    if (!s) return IX_EMISUSE;
    if (!s->conn) return IX_EMISUSE;
    return IX_OK;
}

/* Counts ? outside quotes and comments. */
static int count_params(const char *s, size_t n) {
    int k = 0;
    size_t i = 0;
    ixb_tok t;
    while (ixb_sql_next(s, n, &i, 0, &t) != IXB_TOK_END)
        k += t.kind == IXB_TOK_PARAM;
    return k;
}

static void link_stmt(ix_conn *c, ix_stmt *s) {
    ix_stmt **head = ixc_stmt_list(c);
    s->next = *head;
    if (*head) (*head)->prev = s;
    *head = s;
}

void ixc_unlink_stmt(ix_stmt *s) {
    ix_conn *c = s->conn;
    if (!c) return;
    if (s->prev)
        s->prev->next = s->next;
    else
        *ixc_stmt_list(c) = s->next;
    if (s->next) s->next->prev = s->prev;
    s->prev = s->next = NULL;
}

void ixc_disown_pending(ix_conn *c, ix_stmt *s) {
    ixc_pend_disown(c, s);
    s->inflight = 0;
}

void ixc_free_batches(ix_stmt *s) {
    ixc_batch_release(s->conn, s->cur);
    ixc_batch_release(s->conn, s->queue);
    s->cur = s->queue = s->queue_tail = NULL;
    s->cur_pos = 0;
    s->has_row = 0;
    s->row_cols = 0;
}

void ixc_stmt_detach_all(ix_conn *c) {
    ix_stmt **head = ixc_stmt_list(c);
    ix_stmt *s = *head;
    while (s) {
        ix_stmt *n = s->next;
        s->conn = NULL;
        s->prev = s->next = NULL;
        s->inflight = 0;
        s = n;
    }
    *head = NULL;
}

/* ---- prepare ----------------------------------------------------------------
 * Deferred PREPARE (DSN key deferred_prepare, on by default; IBM's
 * IFX_DEFERRED_PREPARE): ix_prepare sends nothing for a statement whose kind
 * the text settles, and the PREPARE travels at the head of the first OPEN or
 * EXECUTE group (docs/protocol.md "Request sequences"):
 *
 *   PREPARE nparams sql, NDESCRIBE, WANTDONE, CURNAME, [BIND], OPEN, NFETCH, EOT
 *   PREPARE nparams sql, NDESCRIBE, WANTDONE, [BIND], EXECUTE, EOT
 *
 * No SQ_ID: the server's current statement is the one just prepared, whose
 * id the DESCRIBE at the head of the reply tells. An error in the PREPARE
 * makes the server skip the rest of the group (§3.10). Anything that needs
 * the description before the first step (ix_column_count, ...) sends the
 * PREPARE on its own first. */

enum { DEFER_NO = 0, DEFER_CURSOR = 1, DEFER_EXEC = 2 };

/* Whether the text settles the statement's kind: a SELECT without INTO
 * (INTO TEMP / SCRATCH / EXTERNAL returns no rows) is a cursor; INSERT,
 * UPDATE and DELETE are executed. Anything else is prepared at once. */
static int defer_kind(const char *sql, size_t n) {
    size_t i = 0;
    ixb_tok t;
    while (ixb_sql_next(sql, n, &i, 0, &t) != IXB_TOK_END && t.kind != IXB_TOK_WORD) {
    }
    if (ixb_tok_is(&t, "INSERT") || ixb_tok_is(&t, "UPDATE") || ixb_tok_is(&t, "DELETE"))
        return DEFER_EXEC;
    if (!ixb_tok_is(&t, "SELECT")) return DEFER_NO;
    while (ixb_sql_next(sql, n, &i, 0, &t) != IXB_TOK_END)
        if (ixb_tok_is(&t, "INTO")) return DEFER_NO;
    return DEFER_CURSOR;
}

void ixc_free_param_cols(ix_stmt *s) {
    ixc_cols_free(s->pcols, s->nparams);
    s->pcols = NULL;
}

/* 1 when t is the punctuation c. */
static int tok_punct(const ixb_tok *t, char c) {
    return t->kind == IXB_TOK_PUNCT && t->p[0] == c;
}

/* 1 when the text's VALUES list holds placeholders only ("VALUES (?, ?)",
 * nothing after it but a ';'): then an INSERT's describe places them. */
static int values_all_params(const char *sql, size_t n) {
    size_t i = 0;
    ixb_tok t;
    while (ixb_sql_next(sql, n, &i, 0, &t) != IXB_TOK_END && !ixb_tok_is(&t, "VALUES")) {
    }
    if (t.kind == IXB_TOK_END || ixb_sql_next(sql, n, &i, 0, &t) != IXB_TOK_PUNCT ||
        !tok_punct(&t, '('))
        return 0;
    do {
        if (ixb_sql_next(sql, n, &i, 0, &t) != IXB_TOK_PARAM) return 0;
        ixb_sql_next(sql, n, &i, 0, &t);
    } while (tok_punct(&t, ','));
    if (!tok_punct(&t, ')')) return 0;
    ixb_sql_next(sql, n, &i, 0, &t);
    return t.kind == IXB_TOK_END ||
           (tok_punct(&t, ';') && ixb_sql_next(sql, n, &i, 0, &t) == IXB_TOK_END);
}

/* Keeps the columns an INSERT puts its parameters into (s->pcols), for
 * ix_param_describe and the real form of BYTE/TEXT values
 * (ixc_blob_form_type). The describe of an INSERT lists its target columns;
 * when it lists as many as there are parameters (INSERT ... VALUES (?, ?,
 * ...)), parameter i is taken to be column i, as libsqli does; the text is
 * checked too, so that an INSERT ... SELECT or EXECUTE FUNCTION with as many
 * parameters as columns is not taken for one. Any other statement leaves
 * s->pcols NULL. r's columns move to s. */
static void note_param_columns(ix_stmt *s, ixc_reply *r) {
    ixc_free_param_cols(s);
    if (r->stmt_type != IX_STMTTYPE_INSERT || r->ncols != s->nparams || s->nparams == 0 ||
        !values_all_params(s->sql, s->sql_len))
        return;
    s->pcols = r->cols;
    r->cols = NULL;
    r->ncols = 0;
}

/* Takes what the DESCRIBE of a PREPARE said (r's columns move to s). */
static void apply_describe(ix_stmt *s, ixc_reply *r) {
    s->id = r->stmt_id;
    s->prepared = 1;
    s->schema_gen = ixc_schema_gen(s->conn);
    s->stmt_type = r->stmt_type;
    s->tuple_size = r->tuple_size;
    /* A SELECT, or another statement that returns columns (EXECUTE
     * FUNCTION). INSERT/UPDATE/DELETE describe their target columns, and so
     * do UPDATE/DELETE without WHERE (sqlstype.h 33/32) and SELECT ... INTO
     * TEMP (3), which return no rows. */
    int dml = r->stmt_type == IX_STMTTYPE_INSERT || r->stmt_type == IX_STMTTYPE_UPDATE ||
              r->stmt_type == IX_STMTTYPE_DELETE || r->stmt_type == IX_STMTTYPE_SELECT_INTO_TEMP ||
              r->stmt_type == IX_STMTTYPE_DELETE_ALL || r->stmt_type == IX_STMTTYPE_UPDATE_ALL;
    s->is_cursor = r->stmt_type == IX_STMTTYPE_SELECT || (r->ncols > 0 && !dml);
    note_param_columns(s, r);
    if (s->is_cursor) {
        s->cols = r->cols;
        s->ncols = r->ncols;
        r->cols = NULL;
        r->ncols = 0;
    }
}

/* Appends PREPARE nparams sql, NDESCRIBE, WANTDONE (no EOT). */
static int encode_prepare(ix_stmt *s) {
    ix_conn *c = s->conn;
    const char *wire;
    size_t wn;
    int rc = ixc_sql_to_db(c, s->sql, s->sql_len, &wire, &wn);
    if (rc != IX_OK) return rc;
    ixb_wbuf *out = ixc_out(c);
    ixp_enc_prepare(out, ixc_caps(c), s->nparams, wire, wn);
    ixp_enc_tag(out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(out, IXP_SQ_WANTDONE);
    return IX_OK;
}

/* Reads the PREPARE's part of a reply: DESCRIBE, [INSERTDONE], DONE (the
 * WANTDONE's). On an error the server skipped the rest of the group and
 * the whole reply has been read (r->at_eot). Returns IX_OK with the
 * description applied to s, the server's error (recorded), or a connection
 * error. */
static int read_prepare_part(ix_stmt *s, ixc_reply *r) {
    ix_conn *c = s->conn;
    r->want_describe = 1;
    r->stop_at_done = 1;
    int rc = ixc_read_reply(c, r);
    if (rc == IX_OK && !r->sqlcode && r->at_eot && !r->has_describe)
        rc = ixc_kill(c, IX_EPROTO, "the server did not describe the prepared statement");
    if (rc == IX_OK && !r->sqlcode && !r->at_eot && !r->has_describe)
        rc = ixc_kill(c, IX_EPROTO, "SQ_DONE before the prepared statement's describe");
    if (rc == IX_OK && r->sqlcode && !r->at_eot) {
        /* an error after the describe: the rest of the group is skipped */
        ixc_reply rest;
        memset(&rest, 0, sizeof rest);
        rc = ixc_read_reply(c, &rest);
    }
    if (rc == IX_OK && r->sqlcode) rc = ixc_fail_sql(c, r->sqlcode, r->isamcode, r->offset, r->msg);
    if (rc == IX_OK && !r->sqlcode) apply_describe(s, r);
    ixc_reply_free(r);
    return rc;
}

/* ---- requests whose replies an op handler decodes ---------------------------
 * A request of a statement queues a PEND_OP entry; its reply is decoded by
 * ixc_stmt_op_reply when the connection reaches it (in request order, by
 * whichever call reads: the statement's own wait, another statement's, or
 * ix_consume_input), and the outcome waits in the statement (op_done,
 * op_rc, op_err) for the completion call. Blocking calls send and wait at
 * once (ixc_op_wait); in non-blocking mode op_wait returns IX_WANT_* until the
 * reply has arrived whole. */

int ixc_push_op(ix_stmt *s, int op, int64_t groups) {
    ix_conn *c = s->conn;
    /* only an OPEN's time is used (the first fetch's round trip) */
    int64_t t0 = op == IXC_OP_OPEN ? ixc_now_us() : 0;
    int rc = ixc_push_pend_entry(c, (ixc_pend){PEND_OP, s, t0, 0, groups}, 0);
    if (rc != IX_OK) return rc;
    s->op = op;
    s->op_done = 0;
    s->op_t0 = t0;
    return IX_OK;
}

/* The outcome of the op decoded last, its error record back on the
 * connection. */
int ixc_op_take(ix_stmt *s) {
    ix_conn *c = s->conn;
    s->op_done = 0;
    if (s->op_rc < 0 && !ixc_is_dead(c) && s->op_err.err) ixc_err_restore(c, &s->op_err);
    return s->op_rc;
}

/* Waits (blocking mode) or looks (non-blocking: IX_WANT_*) for the op's
 * outcome. */
int ixc_op_wait(ix_stmt *s) {
    ix_conn *c = s->conn;
    while (!s->op_done) {
        if (!s->op) return ixc_fail(c, IX_EMISUSE, "no request of the statement is outstanding");
        int rc = ixc_pend_step(c);
        if (rc != IX_OK) return rc;
    }
    return ixc_op_take(s);
}

/* PREPARE on its own (one round trip): queued; prepare_reply decodes. */
static int prepare_send(ix_stmt *s) {
    ix_conn *c = s->conn;
    int rc = ixc_check(c);
    if (rc != IX_OK) return rc;
    size_t mark = ixc_mark(c);
    if ((rc = encode_prepare(s)) != IX_OK) return rc;
    ixp_enc_tag(ixc_out(c), IXP_SQ_EOT);
    ixc_queued(c, mark);
    if ((rc = ixc_push_op(s, IXC_OP_PREPARE, 1)) != IX_OK) return rc;
    return ixc_flush(c);
}

static int prepare_reply(ix_stmt *s) {
    ix_conn *c = s->conn;
    ixc_reply r;
    memset(&r, 0, sizeof r);
    int rc = read_prepare_part(s, &r);
    if (rc == IX_OK && !r.at_eot) {
        ixc_reply rest; /* the COST after the DONE, and the EOT */
        memset(&rest, 0, sizeof rest);
        rc = ixc_read_reply(c, &rest);
        if (rc == IX_OK && rest.sqlcode)
            rc = ixc_fail_sql(c, rest.sqlcode, rest.isamcode, rest.offset, rest.msg);
    }
    int exec = s->exec_queued;
    s->exec_queued = 0;
    if (rc == IX_OK && exec) rc = s->is_cursor ? ixc_open_send(s) : ixc_exec_send(s);
    return rc;
}

static int prepare_now(ix_stmt *s) {
    int rc = prepare_send(s);
    return rc == IX_OK ? ixc_op_wait(s) : rc;
}

/* A deferred statement is prepared now (for its description). */
int ixc_ensure_prepared(ix_stmt *s) {
    if (!s || !s->conn || s->prepared) return IX_OK;
    ix_conn *c = s->conn;
    int nb = ixc_set_nb_step(c, 0); /* the describe calls wait */
    int rc = IX_OK;
    while (rc == IX_OK && s->op && !s->op_done) /* its own request in flight */
        rc = ixc_pend_step(c);
    if (rc == IX_OK && !s->prepared && !s->op && !s->op_done) rc = prepare_now(s);
    ixc_set_nb_step(c, nb);
    return rc;
}

/* For the describe accessors, which take a const statement. */
const ix_stmt *ixc_described(const ix_stmt *s) {
    if (s && s->conn && !s->prepared) ixc_ensure_prepared((ix_stmt *)(uintptr_t)s);
    return s;
}

int ix_prepare(ix_conn *c, const char *sql, size_t len, ix_stmt **out) {
    return ix_prepare_v2(c, sql, len, 0, out);
}

static int prepare_common(ix_conn *c, const char *sql, size_t len, unsigned flags, ix_stmt **out,
                          int send);

int ix_prepare_v2(ix_conn *c, const char *sql, size_t len, unsigned flags, ix_stmt **out) {
    return prepare_common(c, sql, len, flags, out, 0);
}

/* n of a leading "SELECT [SKIP m] FIRST n" or "SELECT [SKIP m] LIMIT n", or 0. */
static int64_t sql_first_rows(const char *sql, size_t len) {
    size_t i = 0;
    ixb_tok t;
    if (ixb_sql_next(sql, len, &i, 0, &t) != IXB_TOK_WORD || !ixb_tok_is(&t, "SELECT")) return 0;
    for (int k = 0; k < 2; k++) {
        ixb_sql_next(sql, len, &i, 0, &t);
        int skip = ixb_tok_is(&t, "SKIP");
        if (!skip && !ixb_tok_is(&t, "FIRST") && !ixb_tok_is(&t, "LIMIT")) return 0;
        if (ixb_sql_next(sql, len, &i, 0, &t) != IXB_TOK_NUMBER) return 0;
        int64_t n = 0;
        for (size_t d = 0; d < t.n; d++) {
            if (t.p[d] < '0' || t.p[d] > '9') return 0;
            if (n < INT32_MAX) n = n * 10 + (t.p[d] - '0');
        }
        if (!skip) return n;
    }
    return 0;
}

/* send: only queue the PREPARE (ix_send_prepare). */
static int prepare_common(ix_conn *c, const char *sql, size_t len, unsigned flags, ix_stmt **out,
                          int send) {
    if (out) *out = NULL;
    if (!c) return IX_EMISUSE;
    if (!sql || !out) return ixc_fail(c, IX_EMISUSE, "NULL argument to ix_prepare");
    if (flags & ~(unsigned)(IX_PREPARE_SCROLL | IX_PREPARE_WITH_HOLD | IX_PREPARE_NOW))
        return ixc_fail(c, IX_EINVAL, "unknown ix_prepare_v2 flags 0x%x", flags);
    if (ixc_dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    size_t n = IXC_IS_NTS(len) ? strlen(sql) : len;
    ix_stmt *s = ixc_cache_take(c, sql, n, flags);
    if (s) {
        *out = s;
        return IX_OK;
    }
    s = ixc_calloc(1, sizeof *s);
    if (!s) return ixc_fail(c, IX_ENOMEM, "out of memory");
    s->sql = ixc_malloc(n + 1);
    if (!s->sql) {
        ixc_free(s);
        return ixc_fail(c, IX_ENOMEM, "out of memory");
    }
    memcpy(s->sql, sql, n);
    s->sql[n] = 0;
    s->sql_len = n;
    s->first_rows = sql_first_rows(sql, n);
    s->nparams = count_params(sql, n);
    if (s->nparams > 0) {
        s->params = ixc_calloc((size_t)s->nparams, sizeof *s->params);
        if (!s->params) {
            ixc_free(s->sql);
            ixc_free(s);
            return ixc_fail(c, IX_ENOMEM, "out of memory");
        }
        for (int i = 0; i < s->nparams; i++)
            ixb_wbuf_init(&s->params[i].val, ixc_mem());
    }
    ixc_fetch_defaults(c, &s->fetch_buffer, &s->readahead);
    s->flags = flags;
    s->conn = c;
    int kind =
        ixc_form_deferred_prepare(c) && !(flags & IX_PREPARE_NOW) ? defer_kind(sql, n) : DEFER_NO;
    const char *wire;
    size_t wn;
    /* the text must convert now, deferred or not */
    int rc = ixc_sql_to_db(c, sql, n, &wire, &wn);
    if (rc == IX_OK && kind == DEFER_NO) rc = send ? prepare_send(s) : prepare_now(s);
    if (rc != IX_OK) {
        ixc_disown_pending(c, s);
        s->conn = NULL;
        ix_finalize(s);
        return rc;
    }
    if (!s->prepared) s->is_cursor = kind == DEFER_CURSOR;
    link_stmt(c, s);
    *out = s;
    return IX_OK;
}

ix_conn *ix_stmt_conn(const ix_stmt *s) {
    return s ? s->conn : NULL;
}

int ix_bind_parameter_count(const ix_stmt *s) {
    return s ? s->nparams : 0;
}

/* ---- execution -------------------------------------------------------------- */

/* ---- fetch-buffer sizing ---------------------------------------------------
 * A static size (fetch_buffer=N, FET_BUF_SIZE=N, ix_*set_fetch_buffer) is sent
 * as it is, with the read-ahead depth asked for (1 when none was).
 *
 * IX_FETCH_AUTO (the default):
 *   first NFETCH  IXC_AUTO_FIRST (256 KiB: a result of a few thousand rows in
 *                 one round trip), less when the statement says how many rows
 *                 it wants (SELECT [SKIP m] FIRST n / LIMIT n: n rows of the
 *                 describe's tuple size), never less than IX_FETCH_AUTO_MIN
 *                 or one row.
 *   after a full  when the round trip (send to first reply byte, the smallest
 *   reply         seen on the cursor) is at least 1/IXC_AUTO_RATIO of the
 *                 reply's own transfer time (first to last byte, decoding
 *                 included), the size grows IXC_AUTO_GROWTH times, up to
 *                 IX_FETCH_AUTO_MAX, and the read-ahead depth becomes the
 *                 number of such replies one round trip takes (at least 1);
 *                 otherwise the round trip hardly costs anything: batches of
 *                 IXC_AUTO_STEADY (cache-sized), one ahead.
 *   bound         requests in flight + batches queued + the batch being read
 *                 stay within IXC_AUTO_BUDGET bytes asked (4 MiB: depth at
 *                 most 3 at 1 MiB; at most 64 requests), plus at most one row
 *                 per reply (a reply always carries one row).
 * An explicit read-ahead depth (readahead=N, ix_*set_readahead) is kept as
 * it is with either kind of size. */

#define IXC_AUTO_RATIO  16
#define IXC_AUTO_FIRST  (256 * 1024)
#define IXC_AUTO_STEADY (64 * 1024)
#define IXC_AUTO_GROWTH 4
#define IXC_AUTO_BUDGET (4 * 1024 * 1024)
#define IXC_DEPTH_MAX   64 /* the largest read-ahead depth (ix_set_readahead) */

/* The size asked for, within what the negotiated NFETCH field can carry (an
 * i32 when the server granted f62, an i16, at most 32767, when it did not,
 * as an IDS 11.50-era server expects) and what the server documents
 * (ixc_fetch_max: 32767 before 11.70.xC5, 1 MiB after). */
int32_t ixc_fetch_size(const ix_stmt *s) {
    int32_t n = s->fetch_buffer == IX_FETCH_AUTO ? s->auto_size : s->fetch_buffer;
    int32_t max = ixc_fetch_max(s->conn);
    return n > max ? max : n;
}

/* The size of an automatic cursor's first NFETCH. */
int32_t ixc_auto_first(const ix_stmt *s) {
    int64_t row = (s->tuple_size > 0 ? s->tuple_size : 1) + IXC_TUPLE_WIRE;
    int64_t want = IXC_AUTO_FIRST, n = s->first_rows;
    if (n > 0 && n < want / row) want = n * row;
    if (want < IX_FETCH_AUTO_MIN) want = IX_FETCH_AUTO_MIN;
    if (want < row) want = row;
    return (int32_t)(want > IX_FETCH_AUTO_MAX ? IX_FETCH_AUTO_MAX : want);
}

static void auto_reset(ix_stmt *s) {
    s->rtt_min_us = -1;
    s->auto_size = ixc_auto_first(s);
    s->auto_depth = 1;
}

/* NFETCH requests to keep in flight. */
static int fetch_depth(const ix_stmt *s) {
    if (s->readahead != IXC_READAHEAD_AUTO) return s->readahead;
    return s->fetch_buffer == IX_FETCH_AUTO ? s->auto_depth : 1;
}

void ixc_fetch_feedback(ix_stmt *s, int32_t asked, int64_t rtt_us, int64_t xfer_us, int last) {
    if (rtt_us < 0) rtt_us = 0;
    if (xfer_us < 0) xfer_us = 0;
    if (s->rtt_min_us < 0 || rtt_us < s->rtt_min_us) s->rtt_min_us = rtt_us;
    if (s->fetch_buffer != IX_FETCH_AUTO || last) return;
    if (asked != ixc_fetch_size(s)) return; /* asked before the last change: already counted */
    int64_t row = (s->tuple_size > 0 ? s->tuple_size : 1) + IXC_TUPLE_WIRE;
    if (s->rtt_min_us * IXC_AUTO_RATIO < xfer_us) {
        int64_t steady = IXC_AUTO_STEADY > row ? IXC_AUTO_STEADY : row;
        if (s->auto_size > steady) s->auto_size = (int32_t)steady;
        s->auto_depth = 1;
        return;
    }
    int64_t next = (int64_t)s->auto_size * IXC_AUTO_GROWTH;
    if (next > IX_FETCH_AUTO_MAX) next = IX_FETCH_AUTO_MAX;
    /* Replies of the next size (as sent: an old server's is smaller) one
     * round trip takes, within the budget and the read-ahead maximum. */
    int64_t sent = next, max = ixc_fetch_max(s->conn);
    if (sent > max) sent = max;
    int64_t xfer_next = xfer_us * sent / (asked > 0 ? asked : 1);
    int64_t depth = xfer_next > 0 ? (s->rtt_min_us + xfer_next - 1) / xfer_next : IXC_AUTO_BUDGET;
    int64_t cap = IXC_AUTO_BUDGET / sent - 1;
    if (cap > IXC_DEPTH_MAX) cap = IXC_DEPTH_MAX;
    if (depth > cap) depth = cap;
    s->auto_size = (int32_t)next;
    s->auto_depth = depth < 1 ? 1 : (int)depth;
}

void ixc_stmt_take_fetch(ix_stmt *s, ixc_batch *b, const ixc_reply *r, const ixc_pend *e,
                         int64_t bytes) {
    s->inflight--;
    if (!b) return;
    s->roundtrips++;
    s->bytes_in += bytes;
    int last = r->has_done || r->sqlcode != 0;
    ixc_fetch_feedback(s, e->asked, r->first_us - e->sent_us, r->end_us - r->first_us, last);
    b->done = last;
    b->sqlcode = r->sqlcode;
    b->isamcode = r->isamcode;
    b->offset = r->offset;
    memcpy(b->msg, r->msg, sizeof b->msg);
    if (s->queue_tail)
        s->queue_tail->next = b;
    else
        s->queue = b;
    s->queue_tail = b;
}

int ixc_stmt_is_text(const ix_stmt *s, const char *sql, size_t n, unsigned flags) {
    return s->sql_len == n && s->flags == flags && memcmp(s->sql, sql, n) == 0;
}

int ixc_stmt_keepable(const ix_stmt *s) {
    return s->prepared && s->schema_gen == ixc_schema_gen(s->conn);
}

void ixc_stmt_set_cached(ix_stmt *s, int on) {
    s->cached = on;
}

void ixc_stmt_revive(ix_stmt *s) {
    ixc_fetch_defaults(s->conn, &s->fetch_buffer, &s->readahead);
    s->changes = 0;
}

int ixc_stmt_id_in_use(ix_conn *c, int id) {
    for (const ix_stmt *s = *ixc_stmt_list(c); s; s = s->next)
        if (s->prepared && s->id == id) return 1;
    return 0;
}

int ixc_stmts_all_cached(ix_conn *c) {
    for (const ix_stmt *s = *ixc_stmt_list(c); s; s = s->next)
        if (!s->cached) return 0;
    return 1;
}

int ixc_stmt_op(const ix_stmt *s) {
    return s->op;
}

int ixc_stmt_has_batch(const ix_stmt *s) {
    return s->queue != NULL;
}

/* Batches that arrived for s and are not being read yet. */
static int queued(const ix_stmt *s) {
    int n = 0;
    for (const ixc_batch *b = s->queue; b; b = b->next)
        n++;
    return n;
}

static void encode_fetch(ix_stmt *s, int id);
static int expect_fetch(ix_stmt *s, int64_t sent_us);

static int send_fetch(ix_stmt *s) {
    ix_conn *c = s->conn;
    size_t mark = ixc_mark(c);
    encode_fetch(s, 1);
    ixp_enc_tag(ixc_out(c), IXP_SQ_EOT);
    ixc_queued(c, mark);
    return expect_fetch(s, 0);
}

/* The reply to an EXECUTE (after the PREPARE's part when deferred). */
static int exec_reply(ix_stmt *s) {
    ix_conn *c = s->conn;
    ixc_reply r;
    memset(&r, 0, sizeof r);
    int rc = ixc_read_reply(c, &r);
    if (rc == IX_OK && r.sqlcode) rc = ixc_note_txn_failure(c, s->sql, s->sql_len, &r);
    if (rc != IX_OK) return rc;
    if (r.sqlcode) return ixc_fail_sql(c, r.sqlcode, r.isamcode, r.offset, r.msg);
    s->changes = r.rows;
    ixc_set_changes(c, r.rows);
    if (r.serial || r.serial8 || r.bigserial) { /* this INSERT's values, 0 the other */
        ixc_set_serial(c, r.serial);
        ixc_set_serial8(c, r.serial8 ? r.serial8 : r.bigserial);
    }
    ixc_note_txn_sql(c, s->sql, s->sql_len);
    s->state = ST_DONE;
    return IX_DONE;
}

/* [ID id | deferred PREPARE], [BIND], EXECUTE, EOT: one round trip;
 * exec_op_reply decodes. */
int ixc_exec_send(ix_stmt *s) {
    ix_conn *c = s->conn;
    int deferred = !s->prepared;
    size_t mark = ixc_mark(c);
    int rc = deferred ? encode_prepare(s) : IX_OK;
    if (rc != IX_OK) return rc;
    if (!deferred) ixp_enc_id(ixc_out(c), s->id);
    ixc_encode_bind(s);
    ixp_enc_tag(ixc_out(c), IXP_SQ_EXECUTE);
    ixp_enc_tag(ixc_out(c), IXP_SQ_EOT);
    ixc_queued(c, mark);
    if ((rc = ixc_push_op(s, IXC_OP_EXEC, 1)) != IX_OK) return rc;
    return ixc_flush(c);
}

/* IX_DONE (ran), IX_OK (a cursor was opened instead), or the failure. */
static int exec_op_reply(ix_stmt *s) {
    ix_conn *c = s->conn;
    if (!s->prepared) { /* deferred: the PREPARE's part first */
        ixc_reply r;
        memset(&r, 0, sizeof r);
        int rc = read_prepare_part(s, &r);
        if (rc != IX_OK) return rc;
        if (s->is_cursor) {
            /* The text looked like a statement without rows but the server
             * describes rows: its EXECUTE failed (-260); open it instead. */
            ixc_reply rest;
            memset(&rest, 0, sizeof rest);
            if ((rc = ixc_read_reply(c, &rest)) != IX_OK) return rc;
            ixc_clear_err(c);
            return ixc_open_send(s); /* IX_OK, or an op in flight again */
        }
    }
    return exec_reply(s);
}

/* Appends ID id, NFETCH size and expects its reply (PEND_FETCH); `id`: 0
 * leaves the SQ_ID out (the statement just prepared or opened in this group
 * is the server's current one). */
static void encode_fetch(ix_stmt *s, int id) {
    ix_conn *c = s->conn;
    int32_t size = ixc_fetch_size(s);
    if (id) ixp_enc_id(ixc_out(c), s->id);
    ixp_enc_nfetch(ixc_out(c), ixc_caps(c), size);
    s->last_asked = size;
}

/* IX_OK, or IX_ENOMEM (the connection is dead: its replies cannot be matched). */
static int expect_fetch(ix_stmt *s, int64_t sent_us) {
    ix_conn *c = s->conn;
    ixc_pend e = {PEND_FETCH, s, sent_us ? sent_us : ixc_now_us(), s->last_asked, 0};
    int rc = ixc_push_pend_entry(c, e, 0);
    if (rc != IX_OK) return rc;
    s->inflight++;
    s->fetches++;
    return IX_OK;
}

/* Whether the OPEN and the first NFETCH go in one group: with optofc, for a
 * cursor that is not a scroll cursor, and not in an ANSI database, where the
 * client must know whether the OPEN failed (a CLOSE of a cursor that is not
 * open is an error there; one group's reply does not tell). */
static int open_fetch_group(const ix_stmt *s) {
    const ix_conn *c = s->conn;
    return ixc_form_optofc(c) && !(s->flags & IX_PREPARE_SCROLL) && !ixc_db_ansi(c);
}

/* The cursor was opened on the server (or may have been: one group). */
static void note_open(ix_stmt *s) {
    s->srv_open = 1;
    s->open_txn = ixc_txn_ends(s->conn);
}

/* Whether the server still has the cursor open, so that ix_reset CLOSEs it:
 * not when its OPEN failed, and not, in an ANSI database, after the end of
 * the transaction it was opened in unless it is WITH HOLD. */
int ixc_open_on_server(const ix_stmt *s) {
    if (!s->srv_open) return 0;
    if (!ixc_db_ansi(s->conn) || (s->flags & IX_PREPARE_WITH_HOLD)) return 1;
    return s->open_txn == ixc_txn_ends(s->conn);
}

/*
 * OPEN and the first fetch. In one group when open_fetch_group, answered
 * with one reply: [ID id | deferred PREPARE], CURNAME, [BIND], OPEN, [ID id],
 * NFETCH, EOT. Otherwise the OPEN is its own group and the NFETCH follows it
 * (pipelined when the id is known). Errors of the OPEN come back as the
 * fetch's reply (ix_step reports them).
 */
int ixc_open_send(ix_stmt *s) {
    ix_conn *c = s->conn;
    if (!s->named) {
        snprintf(s->curname, sizeof s->curname, "_ixc%012u", ixc_next_cursor_seq(c));
        s->named = 1;
    }
    int deferred = !s->prepared;
    s->fetches = 0;
    s->fetch_done = 0;
    s->roundtrips = 0;
    s->bytes_in = 0;
    auto_reset(s);
    size_t mark = ixc_mark(c);
    int rc = deferred ? encode_prepare(s) : IX_OK;
    if (rc != IX_OK) return rc;
    ixb_wbuf *out = ixc_out(c);
    if (!deferred) ixp_enc_id(out, s->id);
    ixp_enc_curname(out, s->curname, strlen(s->curname));
    if (s->flags & IX_PREPARE_SCROLL) ixp_enc_tag(out, IXP_SQ_SCROLL);
    if (s->flags & IX_PREPARE_WITH_HOLD) ixp_enc_tag(out, IXP_SQ_HOLD);
    ixc_encode_bind(s);
    ixp_enc_tag(out, IXP_SQ_OPEN);
    /* a scroll cursor's rows come with SFETCH (scroll_fetch), not NFETCH */
    int scroll = (s->flags & IX_PREPARE_SCROLL) != 0;
    int one_group = open_fetch_group(s);
    /* deferred: the describe (and so the tuple size) is not known yet */
    if (one_group) encode_fetch(s, !deferred);
    ixp_enc_tag(out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    if (one_group) note_open(s);
    if (!deferred && one_group) { /* the reply is the fetch's: nothing to decode here */
        if ((rc = expect_fetch(s, ixc_now_us())) != IX_OK) return rc;
        s->state = ST_OPEN;
        s->spos = 0;
        s->changes = 0;
        return ixc_flush(c);
    }
    if ((rc = ixc_push_op(s, IXC_OP_OPEN, 1)) != IX_OK) return rc;
    /* the first fetch goes right behind the OPEN */
    if (!deferred && !scroll && (rc = send_fetch(s)) != IX_OK) return rc;
    return ixc_flush(c);
}

/* The OPEN's reply (after the PREPARE's part when deferred). IX_OK with the
 * cursor open, or the failure. */
static int open_op_reply(ix_stmt *s) {
    ix_conn *c = s->conn;
    int deferred = !s->prepared;
    int scroll = (s->flags & IX_PREPARE_SCROLL) != 0;
    int one_group = open_fetch_group(s);
    int rc = IX_OK;
    if (deferred) {
        ixc_reply r;
        memset(&r, 0, sizeof r);
        if ((rc = read_prepare_part(s, &r)) != IX_OK) return rc;
        if (!s->is_cursor) return ixc_kill(c, IX_EPROTO, "a SELECT was described without rows");
        if (one_group) { /* the rest of this group is the first fetch's reply */
            ixc_pend e = {PEND_FETCH, s, s->op_t0, s->last_asked, 0};
            if ((rc = ixc_push_pend_entry(c, e, 1)) != IX_OK) return rc;
            s->inflight++;
            s->fetches++;
        }
    }
    if (!one_group) {
        ixc_reply r; /* the OPEN's reply (the rest of it, when deferred) */
        memset(&r, 0, sizeof r);
        if ((rc = ixc_read_reply(c, &r)) != IX_OK) return rc;
        if (r.sqlcode) {
            ixc_disown_pending(c, s); /* the fetch behind it is answered with an error too */
            return ixc_fail_sql(c, r.sqlcode, r.isamcode, r.offset, r.msg);
        }
        note_open(s);
        if (deferred && !scroll) {
            if ((rc = send_fetch(s)) != IX_OK) return rc;
            if ((rc = ixc_flush(c)) != IX_OK) return rc;
        }
    }
    s->state = scroll ? ST_SCROLL : ST_OPEN;
    s->spos = 0;
    s->changes = 0;
    return IX_OK;
}

int ixc_stmt_op_reply(ix_stmt *s, int last) {
    ix_conn *c = s->conn;
    int kind = s->op, rc;
    if (kind == IXC_OP_BATCH) {
        rc = ixc_batch_op_reply(s, last);
        if (!last && rc >= 0 && !ixc_is_dead(c)) return IX_OK;
    } else {
        s->op = 0;
        /* a PREPARE that fails with an execution queued behind it fails
         * that execution (ix_execute_result reports it) */
        int queued_exec = kind == IXC_OP_PREPARE && s->exec_queued;
        rc = kind == IXC_OP_PREPARE ? prepare_reply(s)
             : kind == IXC_OP_EXEC  ? exec_op_reply(s)
                                    : open_op_reply(s);
        if (s->op && !ixc_is_dead(c)) return IX_OK; /* a further request is on its way */
        if (queued_exec) kind = IXC_OP_EXEC;
    }
    s->op = 0;
    s->op_done = 1;
    s->op_rc = rc;
    s->op_last = kind;
    s->op_err.err = 0;
    if (rc < 0) {
        ixc_err_save(c, &s->op_err);
        if (!ixc_is_dead(c)) ixc_clear_err(c);
    }
    return !ixc_is_dead(c) ? IX_OK : rc < 0 ? rc : ixc_check(c);
}

int ixc_open_cursor(ix_stmt *s) {
    int rc = ixc_open_send(s);
    return rc == IX_OK && s->op ? ixc_op_wait(s) : rc;
}

int ixc_exec_plain(ix_stmt *s) {
    int rc = ixc_exec_send(s);
    return rc == IX_OK ? ixc_op_wait(s) : rc;
}

/* ---- the row plan ---------------------------------------------------------------
 * Built from the describe when the first fetched batch arrives; every tuple
 * of every batch was checked and stored as a record then (ixc_read_reply,
 * ixc_rowplan_take), so a row is made current by pointing at its record,
 * and a column's offset is one addition away (ixc_rowplan_at). */

const ixc_rowplan *ixc_stmt_plan(ix_stmt *s) {
    if (s->planned) return &s->plan;
    int n = s->ncols;
    ixt_vtype *vt = ixc_malloc((n > 0 ? (size_t)n : 1) * sizeof *vt);
    int rc = vt ? IX_OK : IX_ENOMEM;
    for (int i = 0; rc == IX_OK && i < n; i++)
        vt[i] = s->cols[i].vt;
    if (rc == IX_OK) rc = ixc_rowplan_build(&s->plan, vt, n, s->conn && ixc_caps(s->conn)->f70);
    ixc_free(vt);
    if (rc != IX_OK) return NULL;
    if (s->conn && ixc_cv_from_db(s->conn) != (iconv_t)-1) ixc_rowplan_converted(&s->plan);
    s->planned = 1;
    return &s->plan;
}

static int cursor_fail(ix_stmt *s, const ixc_batch *b) {
    ix_conn *c = s->conn;
    int code = b->sqlcode, isam = b->isamcode;
    int32_t off = b->offset;
    char msg[256];
    memcpy(msg, b->msg, sizeof msg);
    ix_reset(s);
    return ixc_fail_sql(c, code, isam, off, msg);
}

int ixc_next_row(ix_stmt *s) {
    ix_conn *c = s->conn;
    s->has_row = 0;
    s->row_cols = 0;
    for (;;) {
        ixc_batch *b = s->cur;
        if (b && s->cur_pos < b->data.len) /* whole records only (take_tuple) */
            return ixc_load_row(s);
        if (b) {
            if (b->sqlcode) return cursor_fail(s, b);
            if (b->done) {
                s->fetch_done = 1;
                s->state = ST_DONE;
                return IX_DONE;
            }
            ixc_batch_release(c, b);
            s->cur = NULL;
        }
        if (!s->queue) {
            int rc = s->inflight == 0 ? send_fetch(s) : IX_OK;
            if (rc == IX_OK) rc = ixc_drain_for(c, s);
            if (rc != IX_OK) return rc;
            if (!s->queue) return ixc_kill(c, IX_EPROTO, "fetch reply lost");
        }
        b = s->queue;
        s->queue = b->next;
        if (!s->queue) s->queue_tail = NULL;
        b->next = NULL;
        s->cur = b;
        s->cur_pos = 0;
        /* Read-ahead: ask for the next batches before the application reads
         * this one. */
        if (!b->done && !b->sqlcode) {
            /* Batches ahead: in flight or queued (the memory bound). */
            int depth = fetch_depth(s), q = queued(s);
            while (s->inflight + q < depth) {
                int rc = send_fetch(s);
                if (rc != IX_OK) return rc;
            }
            if (ixc_unsent(c) > 0) {
                int rc = ixc_flush(c);
                if (rc != IX_OK) return rc;
            }
        }
    }
}

/* ---- non-blocking requests (include/ixdb.h, "non-blocking") ------------------ */

static int need_nb(ix_conn *c, const char *what) {
    if (ixc_nb_mode(c)) return IX_OK;
    return ixc_fail(c, IX_EMISUSE, "%s needs non-blocking mode (ix_set_nonblocking)", what);
}

int ix_send_prepare(ix_conn *c, const char *sql, size_t len, unsigned flags, ix_stmt **out) {
    if (out) *out = NULL;
    if (!c) return IX_EMISUSE;
    int rc = need_nb(c, "ix_send_prepare");
    if (rc != IX_OK) return rc;
    ixc_set_nb_step(c, 1);
    rc = prepare_common(c, sql, len, flags, out, 1);
    ixc_set_nb_step(c, 0);
    return rc;
}

static int prepare_result_run(ix_stmt *s) {
    ix_conn *c = s->conn;
    int rc = IX_OK;
    if (!s->op && !s->op_done) rc = prepare_send(s); /* deferred: nothing was sent */
    if (rc != IX_OK) return rc;
    if (s->op == IXC_OP_PREPARE || (s->op_done && s->op_last == IXC_OP_PREPARE))
        return ixc_op_wait(s);
    /* the PREPARE travels with the execution in flight */
    while (s->op && !s->op_done)
        if ((rc = ixc_pend_step(c)) != IX_OK) return rc;
    if (s->prepared || !s->op_done) return IX_OK;
    rc = ixc_op_take(s); /* its failure, kept for ix_execute_result as well */
    s->op_done = 1;
    return rc;
}

int ix_prepare_result(ix_stmt *s) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (s->prepared && !s->op && !(s->op_done && s->op_last == IXC_OP_PREPARE)) return IX_OK;
    if (ixc_dead(c)) return IX_ECONN;
    ixc_set_nb_step(c, ixc_nb_mode(c));
    rc = prepare_result_run(s);
    ixc_set_nb_step(c, 0);
    return rc;
}

int ix_send_execute(ix_stmt *s) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (ixc_dead(c)) return IX_ECONN;
    if ((rc = need_nb(c, "ix_send_execute")) != IX_OK) return rc;
    if (s->state != ST_READY)
        return ixc_fail(c, IX_EMISUSE, "the statement has run or is open: ix_reset it first");
    if (s->exec_queued || (s->op && s->op != IXC_OP_PREPARE) ||
        (s->op_done && s->op_last != IXC_OP_PREPARE))
        return ixc_fail(c, IX_EMISUSE, "a request of the statement is outstanding");
    ixc_clear_err(c);
    ixc_set_nb_step(c, 1);
    rc = ixc_begin_for(s);
    if (rc == IX_OK && s->op == IXC_OP_PREPARE) {
        s->exec_queued = 1; /* sent when the describe has come (ids are the server's) */
    } else if (rc == IX_OK && s->op_done) {
        if (s->op_rc < 0)
            s->op_last = IXC_OP_EXEC; /* the PREPARE's failure is the execution's */
        else
            s->op_done = 0;
    }
    if (rc == IX_OK && !s->op && !s->op_done)
        rc = s->is_cursor ? ixc_open_send(s) : ixc_exec_send(s);
    ixc_set_nb_step(c, 0);
    return rc;
}

int ix_execute_result(ix_stmt *s) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    int batch = s->op == IXC_OP_BATCH || (s->op_done && s->op_last == IXC_OP_BATCH);
    if (batch || (s->op == IXC_OP_PREPARE && !s->exec_queued) ||
        (s->op_done && s->op_last == IXC_OP_PREPARE))
        return ixc_fail(c, IX_EMISUSE, "no execution of the statement was sent");
    if (!s->op && !s->op_done) {
        if (s->state == ST_OPEN || s->state == ST_SCROLL) return IX_OK;
        if (s->state == ST_DONE) return IX_DONE;
        return ixc_fail(c, IX_EMISUSE, "no execution of the statement was sent");
    }
    ixc_clear_err(c);
    ixc_set_nb_step(c, ixc_nb_mode(c));
    rc = ixc_op_wait(s);
    ixc_set_nb_step(c, 0);
    return rc;
}

int ix_send_fetch(ix_stmt *s) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (ixc_dead(c)) return IX_ECONN;
    if ((rc = need_nb(c, "ix_send_fetch")) != IX_OK) return rc;
    if (s->state == ST_DONE) return IX_DONE;
    if (s->state != ST_OPEN) return ixc_fail(c, IX_EMISUSE, "ix_send_fetch needs an open cursor");
    if (s->fetch_done || (s->cur && (s->cur->done || s->cur->sqlcode))) return IX_DONE;
    for (const ixc_batch *b = s->queue; b; b = b->next)
        if (b->done || b->sqlcode) return IX_DONE;
    if (s->inflight >= 64) return IX_OK;
    if ((rc = send_fetch(s)) != IX_OK) return rc;
    ixc_set_nb_step(c, 1);
    rc = ixc_flush(c);
    ixc_set_nb_step(c, 0);
    return rc;
}

int ix_stmt_busy(const ix_stmt *s) {
    if (!s || !s->conn || ixc_is_dead(s->conn)) return 0;
    if (s->op && !s->op_done) return 1;
    if (s->state != ST_OPEN) return 0;
    const ixc_batch *b = s->cur;
    if (b && (s->cur_pos < b->data.len || b->done || b->sqlcode)) return 0;
    return s->queue == NULL;
}

int ix_batch_result(ix_stmt *s, int *sqlcodes, int64_t *nfailed) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (!(s->op == IXC_OP_BATCH || (s->op_done && s->op_last == IXC_OP_BATCH)))
        return ixc_fail(c, IX_EMISUSE, "no batch of the statement was sent");
    ixc_set_nb_step(c, ixc_nb_mode(c));
    rc = ixc_op_wait(s);
    ixc_set_nb_step(c, 0);
    if (rc == IX_WANT_READ || rc == IX_WANT_WRITE) return rc;
    if (sqlcodes && s->b_codes) memcpy(sqlcodes, s->b_codes, (size_t)s->replied * sizeof *sqlcodes);
    if (nfailed) *nfailed = s->b_failed;
    return rc;
}
