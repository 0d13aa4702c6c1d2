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
#include "proto/ix_blob.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"

/* ST_SCROLL: a scroll cursor is open (ix_step and the ix_fetch_* calls go
 * through scroll_fetch; the fast path of ix_step is for ST_OPEN only). */
enum { ST_READY = 0, ST_OPEN = 1, ST_DONE = 2, ST_SCROLL = 3 };

/* ---- helpers ------------------------------------------------------------------ */

static int stmt_check(const ix_stmt *s) {
    if (!s) return IX_EMISUSE;
    if (!s->conn) return IX_EMISUSE;
    return IX_OK;
}

static int dead(ix_conn *c) {
    if (!c->dead) return 0;
    if (c->err != IX_ECONN) {
        c->err = IX_ECONN;
        c->sqlcode = c->isamcode = 0;
    }
    return 1;
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
    s->next = c->stmts;
    if (c->stmts) c->stmts->prev = s;
    c->stmts = s;
}

static void unlink_stmt(ix_stmt *s) {
    ix_conn *c = s->conn;
    if (!c) return;
    if (s->prev)
        s->prev->next = s->next;
    else
        c->stmts = s->next;
    if (s->next) s->next->prev = s->prev;
    s->prev = s->next = NULL;
}

static void disown_pending(ix_conn *c, ix_stmt *s) {
    for (size_t i = 0; i < c->pend_len; i++) {
        ixc_pend *e = &c->pend[(c->pend_head + i) % c->pend_cap];
        if (e->owner == s) e->owner = NULL;
    }
    s->inflight = 0;
}

static void free_batches(ix_stmt *s) {
    ixc_batch_free(s->cur);
    ixc_batch_free(s->queue);
    s->cur = s->queue = s->queue_tail = NULL;
    s->cur_pos = 0;
    s->has_row = 0;
    s->row_cols = 0;
}

void ixc_stmt_detach_all(ix_conn *c) {
    ix_stmt *s = c->stmts;
    while (s) {
        ix_stmt *n = s->next;
        s->conn = NULL;
        s->prev = s->next = NULL;
        s->inflight = 0;
        s = n;
    }
    c->stmts = NULL;
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

/* Keeps which parameters an INSERT puts into BYTE/TEXT columns
 * (s->blobcols), for the real form of their values (blob_form_type). The
 * describe of an INSERT lists its target columns; when it lists as many as
 * there are parameters (INSERT ... VALUES (?, ?, ...)), parameter i is
 * taken to be column i, as libsqli does. Any other statement, or no memory,
 * leaves s->blobcols NULL. */
static void note_blob_columns(ix_stmt *s, const ixc_reply *r) {
    ixc_free(s->blobcols);
    s->blobcols = NULL;
    if (r->stmt_type != IX_STMTTYPE_INSERT || r->ncols != s->nparams || s->nparams == 0) return;
    int any = 0;
    for (int i = 0; i < r->ncols; i++) {
        int code = r->cols[i].type & 0xff;
        any |= code == IX_T_BYTE || code == IX_T_TEXT;
    }
    if (!any || !(s->blobcols = ixc_calloc((size_t)s->nparams, 1))) return;
    for (int i = 0; i < r->ncols; i++) {
        int code = r->cols[i].type & 0xff;
        if (code == IX_T_BYTE || code == IX_T_TEXT) s->blobcols[i] = (uint8_t)code;
    }
}

/* Takes what the DESCRIBE of a PREPARE said (r's columns move to s). */
static void apply_describe(ix_stmt *s, ixc_reply *r) {
    s->id = r->stmt_id;
    s->prepared = 1;
    s->schema_gen = s->conn->schema_gen;
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
    note_blob_columns(s, r);
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
    ixp_enc_prepare(&c->out, &c->caps, s->nparams, wire, wn);
    ixp_enc_tag(&c->out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c->out, IXP_SQ_WANTDONE);
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
 * once (op_wait); in non-blocking mode op_wait returns IX_WANT_* until the
 * reply has arrived whole. */

static int push_op(ix_stmt *s, int op, int64_t groups) {
    ix_conn *c = s->conn;
    /* only an OPEN's time is used (the first fetch's round trip) */
    int rc = ixc_push_pend_at(c, PEND_OP, s, op == IXC_OP_OPEN ? ixc_now_us() : 0);
    if (rc != IX_OK) return rc;
    ixc_pend *e = &c->pend[(c->pend_head + c->pend_len - 1) % c->pend_cap];
    e->groups = groups;
    s->op = op;
    s->op_done = 0;
    s->op_t0 = e->sent_us;
    return IX_OK;
}

/* The outcome of the op decoded last, its error record back on the
 * connection. */
static int op_take(ix_stmt *s) {
    ix_conn *c = s->conn;
    s->op_done = 0;
    if (s->op_rc < 0 && !c->dead && s->op_err.err) {
        c->err = s->op_err.err;
        c->sqlcode = s->op_err.sqlcode;
        c->isamcode = s->op_err.isamcode;
        c->erroffset = s->op_err.erroffset;
        memcpy(c->errmsg, s->op_err.errmsg, sizeof c->errmsg);
    }
    return s->op_rc;
}

/* Waits (blocking mode) or looks (non-blocking: IX_WANT_*) for the op's
 * outcome. */
static int op_wait(ix_stmt *s) {
    ix_conn *c = s->conn;
    while (!s->op_done) {
        if (!s->op) return ixc_fail(c, IX_EMISUSE, "no request of the statement is outstanding");
        int rc = ixc_pend_step(c);
        if (rc != IX_OK) return rc;
    }
    return op_take(s);
}

/* PREPARE on its own (one round trip): queued; prepare_reply decodes. */
static int prepare_send(ix_stmt *s) {
    ix_conn *c = s->conn;
    int rc = ixc_check(c);
    if (rc != IX_OK) return rc;
    size_t mark = ixc_mark(c);
    if ((rc = encode_prepare(s)) != IX_OK) return rc;
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    if ((rc = push_op(s, IXC_OP_PREPARE, 1)) != IX_OK) return rc;
    return ixc_flush(c);
}

static int exec_send(ix_stmt *s);
static int open_send(ix_stmt *s);

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
    if (rc == IX_OK && exec) rc = s->is_cursor ? open_send(s) : exec_send(s);
    return rc;
}

static int prepare_now(ix_stmt *s) {
    int rc = prepare_send(s);
    return rc == IX_OK ? op_wait(s) : rc;
}

/* A deferred statement is prepared now (for its description). */
static int ensure_prepared(ix_stmt *s) {
    if (!s || !s->conn || s->prepared) return IX_OK;
    ix_conn *c = s->conn;
    int nb = c->nb_step;
    c->nb_step = 0; /* the describe calls wait */
    int rc = IX_OK;
    while (rc == IX_OK && s->op && !s->op_done) /* its own request in flight */
        rc = ixc_pend_step(c);
    if (rc == IX_OK && !s->prepared && !s->op && !s->op_done) rc = prepare_now(s);
    c->nb_step = nb;
    return rc;
}

/* For the describe accessors, which take a const statement. */
static const ix_stmt *described(const ix_stmt *s) {
    if (s && s->conn && !s->prepared) ensure_prepared((ix_stmt *)(uintptr_t)s);
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

/* send: only queue the PREPARE (ix_send_prepare). */
static int prepare_common(ix_conn *c, const char *sql, size_t len, unsigned flags, ix_stmt **out,
                          int send) {
    if (out) *out = NULL;
    if (!c) return IX_EMISUSE;
    if (!sql || !out) return ixc_fail(c, IX_EMISUSE, "NULL argument to ix_prepare");
    if (flags & ~(unsigned)(IX_PREPARE_SCROLL | IX_PREPARE_WITH_HOLD | IX_PREPARE_NOW))
        return ixc_fail(c, IX_EINVAL, "unknown ix_prepare_v2 flags 0x%x", flags);
    if (dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    size_t n = IXC_IS_NTS(len) ? strlen(sql) : len;
    ix_stmt *s = c->cache_len ? ixc_cache_take(c, sql, n, flags) : NULL;
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
    s->fetch_buffer = c->fetch_buffer;
    s->readahead = c->readahead;
    s->flags = flags;
    s->conn = c;
    int kind = c->deferred_prepare && !(flags & IX_PREPARE_NOW) ? defer_kind(sql, n) : DEFER_NO;
    const char *wire;
    size_t wn;
    /* the text must convert now, deferred or not */
    int rc = ixc_sql_to_db(c, sql, n, &wire, &wn);
    if (rc == IX_OK && kind == DEFER_NO) rc = send ? prepare_send(s) : prepare_now(s);
    if (rc != IX_OK) {
        disown_pending(c, s);
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

/* ---- binding ------------------------------------------------------------------ */

/* Returns the parameter slot or NULL (error recorded). */
static ixc_param *param_at(ix_stmt *s, int i, int *rc) {
    *rc = stmt_check(s);
    if (*rc) return NULL;
    if (s->state == ST_OPEN || s->state == ST_SCROLL) {
        *rc = ixc_fail(s->conn, IX_EMISUSE, "cannot bind while a cursor is open (ix_reset first)");
        return NULL;
    }
    if (i < 1 || i > s->nparams) {
        *rc = ixc_fail(s->conn, IX_ERANGE, "parameter index %d out of range 1..%d", i, s->nparams);
        return NULL;
    }
    ixc_param *p = &s->params[i - 1];
    ixb_wbuf_reset(&p->val);
    p->set = 0;
    p->nfix = 0;
    return p;
}

/* Stores a fixed-width value (n <= 8 bytes, already big-endian in be). */
static int param_fixed(ixc_param *p, const uint8_t *be, int n, int type, int slot) {
    memcpy(p->fix, be, (size_t)n);
    p->nfix = (uint8_t)n;
    p->set = 1;
    p->type = (int16_t)type;
    p->indicator = IXP_IND_VALUE;
    p->slot = (int16_t)slot;
    return IX_OK;
}

/* A value that could not be encoded: IX_ENOMEM, or IX_ERANGE with why. */
static int encode_fail(ix_stmt *s, int rc, const char *why) {
    if (rc == IX_ENOMEM) return ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    return ixc_fail(s->conn, IX_ERANGE, "%s", why);
}

static int param_done(ix_stmt *s, ixc_param *p, int type, int slot) {
    if (p->val.err) {
        int e = p->val.err;
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, e, "cannot store the value");
    }
    p->set = 1;
    p->type = (int16_t)type;
    p->indicator = IXP_IND_VALUE;
    p->slot = (int16_t)slot;
    return IX_OK;
}

/* The slots of the integer binds (docs/c-api.md). */
#define IXC_BIND_VARCHAR_MAX 32767 /* bytes of a VARCHAR bind (i16 length) */
#define SLOT_INTEGER         0x0a00
#define SLOT_BIGINT          0x1300

/* A double's FLOAT bytes: all-ff is FLOAT's NULL form, sent as a NaN. */
static uint64_t float_bits(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u == UINT64_MAX ? 0x7ff8000000000000ull : u;
}

int ix_bind_null(ix_stmt *s, int i) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    p->set = 1;
    p->type = IX_T_VARCHAR;
    p->indicator = IXP_IND_NULL;
    p->slot = 0;
    return IX_OK;
}

int ix_bind_int64(ix_stmt *s, int i, int64_t v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    uint8_t be[8];
    if (v > INT32_MIN && v <= INT32_MAX) {
        ixb_st32(be, (uint32_t)v);
        return param_fixed(p, be, 4, IX_T_INTEGER, SLOT_INTEGER);
    }
    if (v == INT64_MIN) return ixc_fail(s->conn, IX_ERANGE, "%s", "-2^63 is BIGINT's NULL form");
    ixb_st64(be, (uint64_t)v);
    return param_fixed(p, be, 8, IX_T_BIGINT, SLOT_BIGINT);
}

int ix_bind_int(ix_stmt *s, int i, int v) {
    return ix_bind_int64(s, i, v);
}

int ix_bind_double(ix_stmt *s, int i, double v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    uint8_t be[8];
    ixb_st64(be, float_bits(v));
    return param_fixed(p, be, 8, IX_T_FLOAT, 0);
}

int ix_bind_bool(ix_stmt *s, int i, int v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    uint8_t be[1] = {v ? 1 : 0};
    return param_fixed(p, be, 1, IX_T_BOOLEAN, 0);
}

static int bind_bytes(ix_stmt *s, int i, const void *b, size_t n, ix_destructor del, int text) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    size_t len = b && text && IXC_IS_NTS(n) ? strlen(b) : n;
    ixb_wbuf conv;
    ixb_wbuf_init(&conv, ixc_mem());
    if (p && b && text && s->conn->cv_to_db != (iconv_t)-1) {
        /* Text goes to the database in its code set. */
        rc = ixc_convert(s->conn->cv_to_db, b, len, &conv);
        if (rc != IX_OK) {
            ixb_wbuf_free(&conv);
            if (del != IX_STATIC && del != IX_TRANSIENT) del((void *)(uintptr_t)b);
            return ixc_fail(s->conn, rc,
                            rc == IX_ENOMEM ? "out of memory"
                                            : "parameter %d has a character that the database "
                                              "code set cannot hold",
                            i);
        }
    }
    const void *bytes = conv.data ? conv.data : b;
    if (conv.data) len = conv.len;
    if (p && !b)
        rc = ixc_fail(s->conn, IX_EMISUSE, "NULL pointer bound (use ix_bind_null)");
    else if (p && (len > IXC_BIND_VARCHAR_MAX || (len == 1 && *(const uint8_t *)bytes == 0))) {
        /* Beyond what a VARCHAR bind carries: text as TEXT (type 12), bytes
         * as BYTE (type 11), kept with an i32 length. (The single byte 00 is
         * one too: as a VARCHAR it is the NULL form, which servers refuse as
         * a value; a BLOB or CLOB of that one byte must still go.) ixd takes
         * them inline in the BIND, ixdb's own form; other servers get the
         * real form, a descriptor and SQ_BLOB chunks (blob_form_type). */
        if (len > INT32_MAX) {
            rc = ixc_fail(s->conn, IX_ERANGE, "a bound value is limited to 2 GiB");
        } else {
            ixb_put_i32(&p->val, (int64_t)len);
            ixb_put_bytes(&p->val, bytes, len);
            rc = param_done(s, p, text ? IX_T_TEXT : IX_T_BYTE, 0);
        }
    } else if (p) {
        ixb_put_i16(&p->val, (int)len);
        ixb_put_bytes(&p->val, bytes, len);
        rc = param_done(s, p, IX_T_VARCHAR, 0);
    }
    ixb_wbuf_free(&conv);
    /* The bytes are copied into the request form at once: IX_STATIC and
     * IX_TRANSIENT behave alike, and a destructor is called right away. */
    if (del != IX_STATIC && del != IX_TRANSIENT && b) del((void *)(uintptr_t)b);
    return rc;
}

int ix_bind_text(ix_stmt *s, int i, const char *str, size_t n, ix_destructor del) {
    return bind_bytes(s, i, str, n, del, 1);
}

int ix_bind_blob(ix_stmt *s, int i, const void *b, size_t n, ix_destructor del) {
    return bind_bytes(s, i, b, n, del, 0);
}

int ix_bind_decimal_text(ix_stmt *s, int i, const char *str, size_t n) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!str) return ixc_fail(s->conn, IX_EMISUSE, "NULL text (use ix_bind_null)");
    size_t len = IXC_IS_NTS(n) ? strlen(str) : n;
    ixt_decimal d;
    rc = ixt_dec_from_text(&d, str, len);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc, "not a DECIMAL value: \"%.*s\"", (int)(len > 60 ? 60 : len),
                        str);
    /* Scale slot: the fraction digits written, or floating for exponents. */
    int scale = 0, in_frac = 0, expo = 0;
    for (size_t k = 0; k < len; k++) {
        if (str[k] == '.')
            in_frac = 1;
        else if (str[k] == 'e' || str[k] == 'E')
            expo = 1;
        else if (in_frac && str[k] >= '0' && str[k] <= '9')
            scale++;
    }
    int slot = expo || scale > 32 ? IXT_DEC_FLOAT : scale;
    rc = ixt_dec_encode_bind(&d, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, rc, "DECIMAL value out of range");
    }
    return param_done(s, p, IX_T_DECIMAL, slot);
}

int ix_bind_date(ix_stmt *s, int i, int32_t days) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (days < IXT_DATE_MIN || days > IXT_DATE_MAX)
        return ixc_fail(s->conn, IX_ERANGE, "day number %ld outside 0001-01-01..9999-12-31",
                        (long)days);
    uint8_t be[4];
    ixb_st32(be, (uint32_t)days);
    return param_fixed(p, be, 4, IX_T_DATE, 0);
}

int ix_bind_date_ymd(ix_stmt *s, int i, int y, int m, int d) {
    int32_t days;
    if (ixt_date_from_ymd(y, m, d, &days) != IX_OK) {
        if (!s || !s->conn) return IX_EMISUSE;
        return ixc_fail(s->conn, IX_ERANGE, "no such date %04d-%02d-%02d", y, m, d);
    }
    return ix_bind_date(s, i, days);
}

unsigned ix_qualifier_dt(int start, int end) {
    return ixt_dt_qual(start, end);
}

unsigned ix_qualifier_iv(int precision, int start, int end) {
    return ixt_iv_qual(precision, start, end);
}

int ix_qualifier_check(unsigned q, int is_interval) {
    return is_interval ? ixt_iv_qual_valid(q) : ixt_dt_qual_valid(q);
}

/* Digits after the first '.', 0 if none (capped at 5). */
static int frac_digits(const char *str, size_t n) {
    const char *dot = memchr(str, '.', n);
    if (!dot) return 0;
    int k = 0;
    for (const char *q = dot + 1; q < str + n && *q >= '0' && *q <= '9'; q++)
        k++;
    return k > 5 ? 5 : k;
}

static uint32_t infer_dt(const char *str, size_t n) {
    int f = frac_digits(str, n);
    static const int pairs[][2] = {{0, 10}, {0, 8}, {0, 6}, {0, 4},  {0, 2}, {0, 0},
                                   {6, 10}, {6, 8}, {2, 4}, {8, 10}, {4, 4}, {6, 6}};
    ixt_datetime dt;
    if (f) {
        static const int fs[] = {0, 6, 8, 10};
        for (size_t k = 0; k < sizeof fs / sizeof fs[0]; k++) {
            uint32_t q = ixt_dt_qual(fs[k], IXT_TU_F(f));
            if (q && ixt_dt_parse(q, str, n, &dt) == IX_OK) return q;
        }
    }
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        uint32_t q = ixt_dt_qual(pairs[k][0], pairs[k][1]);
        if (q && ixt_dt_parse(q, str, n, &dt) == IX_OK) return q;
    }
    return 0;
}

static uint32_t infer_iv(const char *str, size_t n) {
    size_t k = 0;
    while (k < n && (str[k] == ' ' || str[k] == '+' || str[k] == '-'))
        k++;
    int prec = 0;
    while (k < n && str[k] >= '0' && str[k] <= '9')
        prec++, k++;
    if (prec < 1) prec = 1;
    if (prec > 9) return 0;
    int f = frac_digits(str, n);
    int ends[] = {f ? IXT_TU_F(f) : -1, 10, 8, 6, 4, 2, 0};
    static const int starts[] = {0, 4, 6, 8, 10};
    ixt_interval iv;
    for (size_t si = 0; si < sizeof starts / sizeof starts[0]; si++) {
        for (size_t ei = 0; ei < sizeof ends / sizeof ends[0]; ei++) {
            if (ends[ei] < 0) continue;
            uint32_t q = ixt_iv_qual(prec, starts[si], ends[ei]);
            if (q && ixt_iv_parse(q, str, n, &iv) == IX_OK) return q;
        }
    }
    if (f) {
        uint32_t q = ixt_iv_qual(f, IXT_TU_FRACTION, IXT_TU_F(f));
        if (q && ixt_iv_parse(q, str, n, &iv) == IX_OK) return q;
    }
    return 0;
}

int ix_bind_datetime_text(ix_stmt *s, int i, const char *str, size_t n, unsigned q) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!str) return ixc_fail(s->conn, IX_EMISUSE, "NULL text (use ix_bind_null)");
    size_t len = IXC_IS_NTS(n) ? strlen(str) : n;
    if (q == 0) q = infer_dt(str, len);
    if (!q || !ixt_dt_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "no DATETIME qualifier fits \"%.*s\"",
                        (int)(len > 60 ? 60 : len), str);
    ixt_datetime dt;
    rc = ixt_dt_parse(q, str, len, &dt);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc, "not a DATETIME value: \"%.*s\"", (int)(len > 60 ? 60 : len),
                        str);
    rc = ixt_dt_encode_bind(q, &dt, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return ixc_fail(s->conn, rc, "cannot encode the DATETIME value");
    }
    return param_done(s, p, IX_T_DATETIME, (int)(int16_t)q);
}

int ix_bind_interval_text(ix_stmt *s, int i, const char *str, size_t n, unsigned q) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!str) return ixc_fail(s->conn, IX_EMISUSE, "NULL text (use ix_bind_null)");
    size_t len = IXC_IS_NTS(n) ? strlen(str) : n;
    if (q == 0) q = infer_iv(str, len);
    if (!q || !ixt_iv_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "no INTERVAL qualifier fits \"%.*s\"",
                        (int)(len > 60 ? 60 : len), str);
    ixt_interval iv;
    rc = ixt_iv_parse(q, str, len, &iv);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc, "not an INTERVAL value: \"%.*s\"", (int)(len > 60 ? 60 : len),
                        str);
    rc = ixt_iv_encode_bind(q, &iv, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return ixc_fail(s->conn, rc, "cannot encode the INTERVAL value");
    }
    return param_done(s, p, IX_T_INTERVAL, (int)(int16_t)q);
}

/* ---- DATETIME / INTERVAL from structs ------------------------------------------ */

#define IV_FIELD_MAX 999999999LL

int ix_bind_datetime(ix_stmt *s, int i, unsigned q, const ix_datetime_t *v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!v) return ixc_fail(s->conn, IX_EMISUSE, "NULL DATETIME value (use ix_bind_null)");
    if (q == 0) q = ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5));
    if (!ixt_dt_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "0x%x is not a DATETIME qualifier", q);
    ixt_datetime dt = {v->year, v->month, v->day, v->hour, v->minute, v->second, v->fraction};
    rc = ixt_dt_check(q, &dt);
    if (rc != IX_OK)
        return ixc_fail(s->conn, rc,
                        "DATETIME field out of range (%04d-%02d-%02d %02d:%02d:%02d.%05d)", v->year,
                        v->month, v->day, v->hour, v->minute, v->second, v->fraction);
    rc = ixt_dt_encode_bind(q, &dt, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, rc, "cannot encode the DATETIME value");
    }
    return param_done(s, p, IX_T_DATETIME, (int)(int16_t)q);
}

int ix_bind_interval(ix_stmt *s, int i, unsigned q, const ix_interval_t *v) {
    int rc;
    ixc_param *p = param_at(s, i, &rc);
    if (!p) return rc;
    if (!v) return ixc_fail(s->conn, IX_EMISUSE, "NULL INTERVAL value (use ix_bind_null)");
    const int64_t f[7] = {v->years,   v->months,  v->days,    v->hours,
                          v->minutes, v->seconds, v->fraction};
    for (int k = 0; k < 7; k++)
        if (f[k] < 0 || f[k] > (k == 6 ? 99999 : IV_FIELD_MAX))
            return ixc_fail(s->conn, IX_ERANGE, "INTERVAL field %d out of range", k);
    int ym = v->years || v->months,
        dtime = v->days || v->hours || v->minutes || v->seconds || v->fraction;
    if (q == 0)
        q = ym && !dtime ? ixt_iv_qual(9, IXT_TU_YEAR, IXT_TU_MONTH)
                         : ixt_iv_qual(9, IXT_TU_DAY, IXT_TU_F(5));
    if (!ixt_iv_qual_valid(q))
        return ixc_fail(s->conn, IX_EINVAL, "0x%x is not an INTERVAL qualifier", q);
    int q_ym = IXT_QUAL_START(q) <= IXT_TU_MONTH;
    if ((q_ym && dtime) || (!q_ym && ym))
        return ixc_fail(s->conn, IX_EINVAL,
                        q_ym ? "a day-time value for a year-month INTERVAL qualifier"
                             : "a year-month value for a day-time INTERVAL qualifier");
    ixt_interval iv = {v->sign < 0 ? -1 : 1, 0, 0};
    iv.months = v->years * 12 + v->months;
    iv.units = (((v->days * 24 + v->hours) * 60 + v->minutes) * 60 + v->seconds) *
                   (int64_t)IXT_UNITS_PER_SECOND +
               v->fraction;
    if (iv.months == 0 && iv.units == 0) iv.sign = 1;
    rc = ixt_iv_encode_bind(q, &iv, &p->val);
    if (rc != IX_OK) {
        ixb_wbuf_reset(&p->val);
        return encode_fail(s, rc, "the INTERVAL value does not fit its qualifier");
    }
    return param_done(s, p, IX_T_INTERVAL, (int)(int16_t)q);
}

int ix_clear_bindings(ix_stmt *s) {
    if (!s) return IX_EMISUSE;
    for (int i = 0; i < s->nparams; i++) {
        s->params[i].set = 0;
        s->params[i].nfix = 0;
        ixb_wbuf_reset(&s->params[i].val);
    }
    return IX_OK;
}

/*
 * One execution's request group, written with one reserve and direct stores:
 * | i16 SQ_ID | i16 id |
 * | i16 SQ_BIND | i16 n | n x item |        (no SQ_BIND when n == 0)
 * | i16 SQ_EXECUTE | i16 SQ_EOT |
 * item: | i16 type | i16 indicator | i16 slot | [value bytes | 00 if odd] |
 * (value bytes only when indicator is IXP_IND_VALUE; the layout of
 * ixp_enc_bind, without the extended-type names, which binds never carry).
 */
#define GROUP_FIXED 12 /* ID, id, EXECUTE, EOT + the BIND tag and count */
#define ITEM_HEAD   6

/* Bytes of one item with n value bytes. */
static size_t item_size(int indicator, size_t n) {
    return ITEM_HEAD + (indicator == IXP_IND_VALUE ? n + (n & 1) : 0);
}

static uint8_t *put_item(uint8_t *o, int type, int indicator, int slot, const void *v, size_t n) {
    ixb_st16(o, (uint16_t)type);
    ixb_st16(o + 2, (uint16_t)indicator);
    ixb_st16(o + 4, (uint16_t)slot);
    o += ITEM_HEAD;
    if (indicator != IXP_IND_VALUE) return o;
    if (n) memcpy(o, v, n);
    o += n;
    if (n & 1) *o++ = 0;
    return o;
}

/* Parameter i's item as bound (unbound: a NULL VARCHAR). */
static const uint8_t *param_bytes(const ixc_param *p, size_t *n) {
    *n = p->nfix ? p->nfix : p->val.len;
    return p->nfix ? p->fix : p->val.data;
}

static size_t param_size(const ixc_param *p) {
    size_t n;
    param_bytes(p, &n);
    return p->set ? item_size(p->indicator, n) : ITEM_HEAD;
}

static uint8_t *put_param(uint8_t *o, const ixc_param *p) {
    if (!p->set) return put_item(o, IX_T_VARCHAR, IXP_IND_NULL, 0, NULL, 0);
    size_t n;
    const uint8_t *v = param_bytes(p, &n);
    return put_item(o, p->type, p->indicator, p->slot, v, n);
}

/* ---- BYTE/TEXT values in the real form (proto/ix_blob.h) --------------------
 * On a connection without ixd's forms (c->fast 0), a BYTE/TEXT value goes as
 * a real server takes it: a 56-byte descriptor in the BIND, then SQ_BBIND and
 * each value's SQ_BLOB chunks, all in the same group before EXECUTE / OPEN
 * (no extra round trip). ixd gets the inline form (older ixd builds know no
 * other). docs/protocol.md "BYTE and TEXT values: the insert path". */

#define BLOB_LEN_WORD    4 /* a kept BYTE/TEXT value's i32 length */
#define VARCHAR_LEN_WORD 2 /* a kept VARCHAR value's i16 length */

/* Parameter i's type (IX_T_BYTE / IX_T_TEXT) when it goes in the real form,
 * else 0: on a conservative connection, a value bound as BYTE/TEXT, or a
 * text, blob or NULL bound for a BYTE/TEXT column of the INSERT. */
static int blob_form_type(const ix_stmt *s, int i) {
    if (s->conn->fast) return 0;
    const ixc_param *p = &s->params[i];
    int code = p->type & 0xff;
    if (p->set && p->indicator == IXP_IND_VALUE && (code == IX_T_BYTE || code == IX_T_TEXT))
        return code;
    int col = s->blobcols ? s->blobcols[i] : 0;
    if (!col || (p->set && p->indicator == IXP_IND_DEFAULT)) return 0;
    if (!p->set || p->indicator == IXP_IND_NULL) return col;
    return code == IX_T_VARCHAR && !p->nfix ? col : 0;
}

/* The bytes of a real-form value (its length word skipped); *n their count.
 * NULL for a NULL. */
static const uint8_t *blob_form_data(const ixc_param *p, size_t *n) {
    *n = 0;
    if (!p->set || p->indicator != IXP_IND_VALUE) return NULL;
    int code = p->type & 0xff;
    size_t head = code == IX_T_BYTE || code == IX_T_TEXT ? BLOB_LEN_WORD : VARCHAR_LEN_WORD;
    *n = p->val.len - head;
    return p->val.data + head;
}

/* Bytes of parameter i's BIND item. */
static size_t param_item_size(const ix_stmt *s, int i) {
    if (!blob_form_type(s, i)) return param_size(&s->params[i]);
    size_t n;
    return blob_form_data(&s->params[i], &n) ? ITEM_HEAD + IXP_BLOBDESC_LEN : ITEM_HEAD;
}

/* Writes parameter i's BIND item at o; returns the byte after it. */
static uint8_t *put_param_item(uint8_t *o, const ix_stmt *s, int i) {
    int type = blob_form_type(s, i);
    if (!type) return put_param(o, &s->params[i]);
    size_t n;
    if (!blob_form_data(&s->params[i], &n)) return put_item(o, type, IXP_IND_NULL, 0, NULL, 0);
    uint8_t *d = put_item(o, type, IXP_IND_VALUE, IXP_BLOBDESC_LEN, NULL, 0);
    return ixp_blobdesc_put(d, (uint32_t)n);
}

/* Bytes of what follows the BIND for the real-form values: SQ_BBIND and
 * every value's chunks; 0 when there is none. */
static size_t blob_tail_size(const ix_stmt *s) {
    size_t total = 0, n;
    int count = 0;
    if (s->conn->fast) return 0;
    for (int i = 0; i < s->nparams; i++)
        if (blob_form_type(s, i) && blob_form_data(&s->params[i], &n)) {
            total += ixp_blob_stream_size(n);
            count++;
        }
    return count ? IXP_BBIND_LEN + total : 0;
}

/* Writes that tail at o (blob_tail_size bytes of room); returns its end. */
static uint8_t *put_blob_tail(uint8_t *o, const ix_stmt *s) {
    size_t n;
    int count = 0;
    if (s->conn->fast) return o;
    for (int i = 0; i < s->nparams; i++)
        count += blob_form_type(s, i) && blob_form_data(&s->params[i], &n);
    if (!count) return o;
    o = ixp_bbind_put(o, count);
    for (int i = 0; i < s->nparams; i++) {
        const uint8_t *v = blob_form_type(s, i) ? blob_form_data(&s->params[i], &n) : NULL;
        if (v) o = ixp_blob_stream_put(o, v, n);
    }
    return o;
}

/* Reserves a group of `body` bytes of BIND items on c->out and writes its
 * head (ID and, with parameters, the BIND tag and count); returns where the
 * items go, or NULL (c->out.err set). */
static uint8_t *group_begin(ix_stmt *s, size_t body) {
    ixb_wbuf *out = &s->conn->out;
    size_t need = GROUP_FIXED + body;
    /* (the common case without a call: room left, no bound, no error) */
    if ((out->err || out->max || out->cap - out->len < need) && ixb_wbuf_reserve(out, need))
        return NULL;
    uint8_t *o = out->data + out->len;
    ixb_st16(o, IXP_SQ_ID);
    ixb_st16(o + 2, (uint16_t)s->id);
    o += 4;
    if (s->nparams) {
        ixb_st16(o, IXP_SQ_BIND);
        ixb_st16(o + 2, (uint16_t)s->nparams);
        o += 4;
    }
    return o;
}

/* Writes EXECUTE and EOT after the items ending at o. */
static void group_end(ix_stmt *s, uint8_t *o) {
    ixb_wbuf *out = &s->conn->out;
    ixb_st16(o, IXP_SQ_EXECUTE);
    ixb_st16(o + 2, IXP_SQ_EOT);
    out->len = (size_t)(o + 4 - out->data);
}

/* Appends SQ_BIND with every parameter (none when the statement has none). */
static void encode_bind(ix_stmt *s) {
    if (s->nparams == 0) return;
    ixb_wbuf *out = &s->conn->out;
    size_t body = 4 + blob_tail_size(s);
    for (int i = 0; i < s->nparams; i++)
        body += param_item_size(s, i);
    if (ixb_wbuf_reserve(out, body)) return;
    uint8_t *o = out->data + out->len;
    ixb_st16(o, IXP_SQ_BIND);
    ixb_st16(o + 2, (uint16_t)s->nparams);
    o += 4;
    for (int i = 0; i < s->nparams; i++)
        o = put_param_item(o, s, i);
    o = put_blob_tail(o, s);
    out->len = (size_t)(o - out->data);
}

/* Appends the group that executes s with its bound parameters. */
static void encode_exec(ix_stmt *s) {
    size_t body = blob_tail_size(s);
    for (int i = 0; i < s->nparams; i++)
        body += param_item_size(s, i);
    uint8_t *o = group_begin(s, body);
    if (!o) return;
    for (int i = 0; i < s->nparams; i++)
        o = put_param_item(o, s, i);
    o = put_blob_tail(o, s);
    group_end(s, o);
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
#define IXC_TUPLE_WIRE  8  /* SQ_TUPLE header bytes around each row (§3.7) */
#define IXC_DEPTH_MAX   64 /* the largest read-ahead depth (ix_set_readahead) */

/* The size asked for, within what the negotiated NFETCH field can carry (an
 * i32 when the server granted f62, an i16, at most 32767, when it did not,
 * as an IDS 11.50-era server expects) and what the server documents
 * (ixc_fetch_max: 32767 before 11.70.xC5, 1 MiB after). */
static int32_t fetch_size(const ix_stmt *s) {
    int32_t n = s->fetch_buffer == IX_FETCH_AUTO ? s->auto_size : s->fetch_buffer;
    int32_t max = ixc_fetch_max(s->conn);
    return n > max ? max : n;
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

/* The size of an automatic cursor's first NFETCH. */
static int32_t auto_first(const ix_stmt *s) {
    int64_t row = (s->tuple_size > 0 ? s->tuple_size : 1) + IXC_TUPLE_WIRE;
    int64_t want = IXC_AUTO_FIRST, n = sql_first_rows(s->sql, s->sql_len);
    if (n > 0 && n < want / row) want = n * row;
    if (want < IX_FETCH_AUTO_MIN) want = IX_FETCH_AUTO_MIN;
    if (want < row) want = row;
    return (int32_t)(want > IX_FETCH_AUTO_MAX ? IX_FETCH_AUTO_MAX : want);
}

static void auto_reset(ix_stmt *s) {
    s->rtt_min_us = -1;
    s->auto_size = auto_first(s);
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
    if (asked != fetch_size(s)) return; /* asked before the last change: already counted */
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
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    return expect_fetch(s, 0);
}

static int open_cursor(ix_stmt *s);
static int open_send(ix_stmt *s);

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
    c->changes = r.rows;
    if (r.serial || r.serial8 || r.bigserial) { /* this INSERT's values, 0 the other */
        c->serial = r.serial;
        c->serial8 = r.serial8 ? r.serial8 : r.bigserial;
    }
    ixc_note_txn_sql(c, s->sql, s->sql_len);
    s->state = ST_DONE;
    return IX_DONE;
}

/* [ID id | deferred PREPARE], [BIND], EXECUTE, EOT: one round trip;
 * exec_op_reply decodes. */
static int exec_send(ix_stmt *s) {
    ix_conn *c = s->conn;
    int deferred = !s->prepared;
    size_t mark = ixc_mark(c);
    int rc = deferred ? encode_prepare(s) : IX_OK;
    if (rc != IX_OK) return rc;
    if (!deferred) ixp_enc_id(&c->out, s->id);
    encode_bind(s);
    ixp_enc_tag(&c->out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    if ((rc = push_op(s, IXC_OP_EXEC, 1)) != IX_OK) return rc;
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
            return open_send(s); /* IX_OK, or an op in flight again */
        }
    }
    return exec_reply(s);
}

/* Appends ID id, NFETCH size and expects its reply (PEND_FETCH); `id`: 0
 * leaves the SQ_ID out (the statement just prepared or opened in this group
 * is the server's current one). */
static void encode_fetch(ix_stmt *s, int id) {
    ix_conn *c = s->conn;
    int32_t size = fetch_size(s);
    if (id) ixp_enc_id(&c->out, s->id);
    ixp_enc_nfetch(&c->out, &c->caps, size);
    s->last_asked = size;
}

/* IX_OK, or IX_ENOMEM (the connection is dead: its replies cannot be matched). */
static int expect_fetch(ix_stmt *s, int64_t sent_us) {
    ix_conn *c = s->conn;
    int rc = ixc_push_pend(c, PEND_FETCH, s);
    if (rc != IX_OK) return rc;
    ixc_pend *e = &c->pend[(c->pend_head + c->pend_len - 1) % c->pend_cap];
    e->asked = s->last_asked;
    if (sent_us) e->sent_us = sent_us;
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
    return c->optofc && !(s->flags & IX_PREPARE_SCROLL) && !c->db_ansi;
}

/* The cursor was opened on the server (or may have been: one group). */
static void note_open(ix_stmt *s) {
    s->srv_open = 1;
    s->open_txn = s->conn->txn_ends;
}

/* Whether the server still has the cursor open, so that ix_reset CLOSEs it:
 * not when its OPEN failed, and not, in an ANSI database, after the end of
 * the transaction it was opened in unless it is WITH HOLD. */
static int open_on_server(const ix_stmt *s) {
    if (!s->srv_open) return 0;
    if (!s->conn->db_ansi || (s->flags & IX_PREPARE_WITH_HOLD)) return 1;
    return s->open_txn == s->conn->txn_ends;
}

/*
 * OPEN and the first fetch. In one group when open_fetch_group, answered
 * with one reply: [ID id | deferred PREPARE], CURNAME, [BIND], OPEN, [ID id],
 * NFETCH, EOT. Otherwise the OPEN is its own group and the NFETCH follows it
 * (pipelined when the id is known). Errors of the OPEN come back as the
 * fetch's reply (ix_step reports them).
 */
static int open_send(ix_stmt *s) {
    ix_conn *c = s->conn;
    if (!s->named) {
        snprintf(s->curname, sizeof s->curname, "_ixc%012u", ++c->cursor_seq);
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
    if (!deferred) ixp_enc_id(&c->out, s->id);
    ixp_enc_curname(&c->out, s->curname, strlen(s->curname));
    if (s->flags & IX_PREPARE_SCROLL) ixp_enc_tag(&c->out, IXP_SQ_SCROLL);
    if (s->flags & IX_PREPARE_WITH_HOLD) ixp_enc_tag(&c->out, IXP_SQ_HOLD);
    encode_bind(s);
    ixp_enc_tag(&c->out, IXP_SQ_OPEN);
    /* a scroll cursor's rows come with SFETCH (scroll_fetch), not NFETCH */
    int scroll = (s->flags & IX_PREPARE_SCROLL) != 0;
    int one_group = open_fetch_group(s);
    /* deferred: the describe (and so the tuple size) is not known yet */
    if (one_group) encode_fetch(s, !deferred);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    if (one_group) note_open(s);
    if (!deferred && one_group) { /* the reply is the fetch's: nothing to decode here */
        if ((rc = expect_fetch(s, ixc_now_us())) != IX_OK) return rc;
        s->state = ST_OPEN;
        s->spos = 0;
        s->changes = 0;
        return ixc_flush(c);
    }
    if ((rc = push_op(s, IXC_OP_OPEN, 1)) != IX_OK) return rc;
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
            if ((rc = ixc_push_pend_front(c, PEND_FETCH, s)) != IX_OK) return rc;
            c->pend[c->pend_head].asked = s->last_asked;
            c->pend[c->pend_head].sent_us = s->op_t0;
            s->inflight++;
            s->fetches++;
        }
    }
    if (!one_group) {
        ixc_reply r; /* the OPEN's reply (the rest of it, when deferred) */
        memset(&r, 0, sizeof r);
        if ((rc = ixc_read_reply(c, &r)) != IX_OK) return rc;
        if (r.sqlcode) {
            disown_pending(c, s); /* the fetch behind it is answered with an error too */
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

static int batch_op_reply(ix_stmt *s, int last);

int ixc_stmt_op_reply(ix_stmt *s, int last) {
    ix_conn *c = s->conn;
    int kind = s->op, rc;
    if (kind == IXC_OP_BATCH) {
        rc = batch_op_reply(s, last);
        if (!last && rc >= 0 && !c->dead) return IX_OK;
    } else {
        s->op = 0;
        /* a PREPARE that fails with an execution queued behind it fails
         * that execution (ix_execute_result reports it) */
        int queued_exec = kind == IXC_OP_PREPARE && s->exec_queued;
        rc = kind == IXC_OP_PREPARE ? prepare_reply(s)
             : kind == IXC_OP_EXEC  ? exec_op_reply(s)
                                    : open_op_reply(s);
        if (s->op && !c->dead) return IX_OK; /* a further request is on its way */
        if (queued_exec) kind = IXC_OP_EXEC;
    }
    s->op = 0;
    s->op_done = 1;
    s->op_rc = rc;
    s->op_last = kind;
    s->op_err.err = 0;
    if (rc < 0) {
        s->op_err.err = c->err;
        s->op_err.sqlcode = c->sqlcode;
        s->op_err.isamcode = c->isamcode;
        s->op_err.erroffset = c->erroffset;
        memcpy(s->op_err.errmsg, c->errmsg, sizeof c->errmsg);
        if (!c->dead) ixc_clear_err(c);
    }
    return !c->dead ? IX_OK : rc < 0 ? rc : ixc_check(c);
}

static int open_cursor(ix_stmt *s) {
    int rc = open_send(s);
    return rc == IX_OK && s->op ? op_wait(s) : rc;
}

static int exec_plain(ix_stmt *s) {
    int rc = exec_send(s);
    return rc == IX_OK ? op_wait(s) : rc;
}

/* ---- the row plan ---------------------------------------------------------------
 * Built from the describe when the first fetched batch arrives; every tuple
 * of every batch was checked against it then (ixc_read_reply), so a row is
 * made current by pointing at it and, for a variable layout only, noting
 * where each variable value ends (ixc_rowplan_segments); a column's offset is
 * then one addition away (ixc_rowplan_at). */

const ixc_rowplan *ixc_stmt_plan(ix_stmt *s) {
    if (s->planned) return &s->plan;
    int n = s->ncols;
    ixt_vtype *vt = ixc_malloc((n > 0 ? (size_t)n : 1) * sizeof *vt);
    int rc = vt ? IX_OK : IX_ENOMEM;
    for (int i = 0; rc == IX_OK && i < n; i++)
        vt[i] = s->cols[i].vt;
    if (rc == IX_OK) rc = ixc_rowplan_build(&s->plan, vt, n, s->conn && s->conn->caps.f70);
    ixc_free(vt);
    if (rc != IX_OK) return NULL;
    s->segat = ixc_calloc((size_t)s->plan.nseg + 1, sizeof *s->segat);
    if (!s->segat) {
        ixc_rowplan_free(&s->plan);
        return NULL;
    }
    s->planned = 1;
    return &s->plan;
}

/* Makes the record at t (checked at arrival) the current row. */
static inline int load_row(ix_stmt *s, const uint8_t *t) {
    s->row = t;
    if (s->plan.nseg) ixc_rowplan_segments(&s->plan, t, s->segat);
    s->row_seq++;
    s->has_row = 1;
    s->row_cols = (unsigned)s->ncols;
    return IX_ROW;
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

static int next_row(ix_stmt *s) {
    ix_conn *c = s->conn;
    s->has_row = 0;
    s->row_cols = 0;
    for (;;) {
        ixc_batch *b = s->cur;
        if (b && s->cur_pos < b->data.len) { /* whole records only (take_tuple) */
            uint32_t n;
            memcpy(&n, b->data.data + s->cur_pos, 4);
            const uint8_t *t = b->data.data + s->cur_pos + 4;
            s->cur_pos += 4 + (size_t)n;
            return load_row(s, t);
        }
        if (b) {
            if (b->sqlcode) return cursor_fail(s, b);
            if (b->done) {
                s->fetch_done = 1;
                s->state = ST_DONE;
                return IX_DONE;
            }
            ixc_batch_free(b);
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
            if (c->sent < c->out.len) {
                int rc = ixc_flush(c);
                if (rc != IX_OK) return rc;
            }
        }
    }
}

static int scroll_next(ix_stmt *s);

/* ---- scroll cursors ------------------------------------------------------------
 * A cursor prepared with IX_PREPARE_SCROLL is opened with SQ_SCROLL between
 * CURNAME and OPEN and read with SFETCH only (§3.13):
 *
 *   i16 SQ_ID, i16 id, i16 SQ_SFETCH, i16 direction, i32 position,
 *   i32|i16 buffer size (as NFETCH's), i16 SQ_EOT
 *
 * answered by [SQ_TUPID i32 position, SQ_TUPLE]... and DONE + COST (no row:
 * the position is outside the result). NEXT brings as many rows as fit the
 * fetch buffer (ix_step reads them in order), every other direction one.
 * The library keeps the current row's position (s->spos) and asks for the
 * others as ABSOLUTE positions computed from it, so rows read ahead by NEXT
 * never shift the server's idea of "current"; only after the end, where the
 * result's size is not known, PRIOR and RELATIVE go to the server as they
 * are (its position is then one past the last row). */

/* The one row a non-NEXT scroll fetch asks room for. */
static int32_t one_row_size(const ix_stmt *s) {
    int64_t row = (s->tuple_size > 0 ? s->tuple_size : 1) + IXC_TUPLE_WIRE;
    int32_t max = ixc_fetch_max(s->conn);
    return row > max ? max : (int32_t)row;
}

/* Sends SFETCH dir pos and reads its reply into s->cur. Returns IX_ROW with
 * the first row current, IX_DONE (no row there), IX_ESQL, or a connection
 * error. */
static int scroll_fetch(ix_stmt *s, int dir, int64_t pos) {
    ix_conn *c = s->conn;
    free_batches(s);
    if (pos > INT32_MAX) pos = INT32_MAX;              /* past any result */
    if (pos < 0 && dir != IXP_FETCH_RELATIVE) pos = 0; /* before the first row */
    if (pos < INT32_MIN) pos = INT32_MIN;
    const ixc_rowplan *plan = ixc_stmt_plan(s);
    ixc_batch *b = plan ? ixc_calloc(1, sizeof *b) : NULL;
    if (!b) return ixc_fail(c, IX_ENOMEM, "out of memory");
    ixb_wbuf_init(&b->data, ixc_mem());
    size_t mark = ixc_mark(c);
    ixp_enc_id(&c->out, s->id);
    ixp_enc_sfetch(&c->out, &c->caps, dir, (int32_t)pos,
                   dir == IXP_FETCH_NEXT ? fetch_size(s) : one_row_size(s));
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    ixc_reply r;
    memset(&r, 0, sizeof r);
    r.tuples = b;
    r.plan = plan;
    int rc = ixc_flush(c);
    if (rc == IX_OK) rc = ixc_drain(c);
    if (rc == IX_OK) rc = ixc_read_reply(c, &r);
    s->fetches++;
    s->roundtrips++;
    if (rc == IX_OK && r.sqlcode) rc = ixc_fail_sql(c, r.sqlcode, r.isamcode, r.offset, r.msg);
    if (rc == IX_OK && b->ntuples > 0 && (!r.has_tupid || r.tupid < 1))
        rc = ixc_kill(c, IX_EPROTO, "a scroll fetch reply without the row's position");
    if (rc != IX_OK || b->ntuples == 0) {
        ixc_batch_free(b);
        if (rc != IX_OK) return rc;
        /* no row: before the first (asked for a position below 1) or after the last */
        int before = (dir == IXP_FETCH_ABSOLUTE && pos < 1) || dir == IXP_FETCH_PRIOR ||
                     (dir == IXP_FETCH_RELATIVE && pos < 0) ||
                     (dir == IXP_FETCH_LAST); /* LAST of an empty result */
        s->spos = before ? 0 : IXC_SPOS_AFTER;
        return IX_DONE;
    }
    s->cur = b;
    s->cur_pos = 0;
    s->spos = (int64_t)r.tupid - 1;
    return scroll_next(s);
}

/* ix_step on a scroll cursor: the next row read ahead, else SFETCH NEXT. */
static int scroll_next(ix_stmt *s) {
    s->has_row = 0;
    s->row_cols = 0;
    ixc_batch *b = s->cur;
    if (b && s->cur_pos < b->data.len) {
        uint32_t n;
        memcpy(&n, b->data.data + s->cur_pos, 4);
        const uint8_t *t = b->data.data + s->cur_pos + 4;
        s->cur_pos += 4 + (size_t)n;
        s->spos++;
        return load_row(s, t);
    }
    if (s->spos == IXC_SPOS_AFTER) return IX_DONE;
    return scroll_fetch(s, IXP_FETCH_NEXT, 0);
}

/* The fetch orientations of ix_fetch_*. */
enum { ORIENT_FIRST, ORIENT_LAST, ORIENT_PRIOR, ORIENT_ABSOLUTE, ORIENT_RELATIVE };

static int64_t add_clamped(int64_t a, int64_t b) {
    if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
    return a + b;
}

static int fetch_oriented(ix_stmt *s, int orient, int64_t n) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    if (!(s->flags & IX_PREPARE_SCROLL)) return ixc_fail_sql(c, -482, 0, 0, NULL);
    if (s->state == ST_READY) {
        if ((rc = ixc_auto_begin(c, s->sql, s->sql_len)) != IX_OK) return rc;
        if (!s->is_cursor && (rc = exec_plain(s)) != IX_OK) return rc;
        if (!s->is_cursor) return ixc_fail_sql(c, -482, 0, 0, NULL); /* no rows */
        if (s->state == ST_READY && (rc = open_cursor(s)) != IX_OK) return rc;
    }
    if (s->state != ST_SCROLL) return ixc_fail_sql(c, -482, 0, 0, NULL);
    int after = s->spos == IXC_SPOS_AFTER;
    switch (orient) {
    case ORIENT_FIRST: return scroll_fetch(s, IXP_FETCH_ABSOLUTE, 1);
    case ORIENT_LAST: return scroll_fetch(s, IXP_FETCH_LAST, 0);
    case ORIENT_ABSOLUTE: return scroll_fetch(s, IXP_FETCH_ABSOLUTE, n);
    case ORIENT_PRIOR:
        if (after) return scroll_fetch(s, IXP_FETCH_PRIOR, 0);
        return scroll_fetch(s, IXP_FETCH_ABSOLUTE, s->spos - 1);
    default:
        if (after) return scroll_fetch(s, IXP_FETCH_RELATIVE, n < INT32_MIN ? INT32_MIN : n);
        return scroll_fetch(s, IXP_FETCH_ABSOLUTE, add_clamped(s->spos, n));
    }
}

int ix_fetch_first(ix_stmt *s) {
    return fetch_oriented(s, ORIENT_FIRST, 0);
}
int ix_fetch_last(ix_stmt *s) {
    return fetch_oriented(s, ORIENT_LAST, 0);
}
int ix_fetch_prior(ix_stmt *s) {
    return fetch_oriented(s, ORIENT_PRIOR, 0);
}
int ix_fetch_absolute(ix_stmt *s, int64_t n) {
    return fetch_oriented(s, ORIENT_ABSOLUTE, n);
}
int ix_fetch_relative(ix_stmt *s, int64_t n) {
    return fetch_oriented(s, ORIENT_RELATIVE, n);
}

/* With autocommit off, the SQ_BEGIN before a statement (a round trip that
 * waits, in non-blocking mode too). */
static int begin_for(ix_stmt *s) {
    ix_conn *c = s->conn;
    int nb = c->nb_step;
    c->nb_step = 0;
    int rc = ixc_auto_begin(c, s->sql, s->sql_len);
    c->nb_step = nb;
    return rc;
}

/* Runs s to its next row or its end: sends the execution when s is ready,
 * waits for (or, non-blocking, looks at) the op's outcome, then reads rows. */
static int step_run(ix_stmt *s) {
    ix_conn *c = s->conn;
    for (;;) {
        int rc;
        if (s->op || s->op_done) {
            if (s->op == IXC_OP_BATCH || (s->op_done && s->op_last == IXC_OP_BATCH))
                return ixc_fail(c, IX_EMISUSE, "a batch is running on the statement");
            if (s->op == IXC_OP_PREPARE) s->exec_queued = 1;
            /* IX_OK: prepared, or a cursor opened (also for a deferred
             * statement that turned out to return rows) */
            if ((rc = op_wait(s)) != IX_OK) return rc;
            continue;
        }
        if (s->state == ST_DONE) return IX_DONE;
        if (s->state != ST_READY) break;
        if ((rc = begin_for(s)) != IX_OK) return rc;
        rc = s->is_cursor ? open_send(s) : exec_send(s);
        if (rc != IX_OK) return rc;
    }
    if (s->state == ST_SCROLL) {
        c->nb_step = 0; /* scroll fetches wait */
        return scroll_next(s);
    }
    return next_row(s);
}

static __attribute__((noinline)) int step_general(ix_stmt *s) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    c->nb_step = c->nb;
    rc = step_run(s);
    c->nb_step = 0;
    return rc;
}

int ix_step(ix_stmt *s) {
    /* The common case first: the next row of the batch being read. */
    ixc_batch *b = s ? s->cur : NULL;
    if (b && s->state == ST_OPEN && s->cur_pos < b->data.len && s->conn && !s->conn->dead) {
        ixc_clear_err(s->conn);
        uint32_t n;
        memcpy(&n, b->data.data + s->cur_pos, 4);
        const uint8_t *t = b->data.data + s->cur_pos + 4;
        s->cur_pos += 4 + (size_t)n;
        return load_row(s, t);
    }
    return step_general(s);
}

int ix_reset(ix_stmt *s) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    free_batches(s);
    if (s->op) disown_pending(c, s); /* its reply is read and dropped */
    s->op = s->op_done = s->exec_queued = 0;
    if (s->is_cursor && s->state != ST_READY) {
        disown_pending(c, s);
        s->state = ST_READY;
        if (c->dead) return IX_ECONN;
        int open = open_on_server(s);
        s->srv_open = 0;
        if (!open) return IX_OK;
        size_t mark = ixc_mark(c);
        ixp_enc_id(&c->out, s->id);
        ixp_enc_tag(&c->out, IXP_SQ_CLOSE);
        ixp_enc_tag(&c->out, IXP_SQ_EOT);
        ixc_queued(c, mark);
        return ixc_push_pend(c, PEND_DISCARD, NULL);
    }
    s->state = ST_READY;
    return IX_OK;
}

int ix_finalize(ix_stmt *s) {
    if (!s) return IX_OK;
    if (s->conn && !s->cached && ixc_cache_put(s->conn, s)) return IX_OK;
    return ixc_stmt_release(s);
}

int ixc_stmt_release(ix_stmt *s) {
    int rc = IX_OK;
    ix_conn *c = s->conn;
    if (c) {
        rc = ix_reset(s);
        if (!c->dead && s->prepared) {
            size_t mark = ixc_mark(c);
            ixp_enc_id(&c->out, s->id);
            ixp_enc_tag(&c->out, IXP_SQ_RELEASE);
            ixp_enc_tag(&c->out, IXP_SQ_EOT);
            ixc_queued(c, mark);
            int r2 = ixc_push_pend(c, PEND_DISCARD, NULL);
            if (rc == IX_OK) rc = r2;
        }
        disown_pending(c, s);
        unlink_stmt(s);
    }
    free_batches(s);
    for (int i = 0; i < s->nparams; i++)
        ixb_wbuf_free(&s->params[i].val);
    ixc_free(s->params);
    ixc_free(s->blobcols);
    for (int i = 0; i < s->ncols; i++) {
        ixc_free(s->cols[i].name);
        ixc_free(s->cols[i].decl);
        ixb_wbuf_free(&s->cols[i].text);
    }
    ixc_free(s->cols);
    if (s->planned) ixc_rowplan_free(&s->plan);
    ixc_free(s->segat);
    ixc_free(s->b_codes);
    ixc_free(s->sql);
    ixc_free(s);
    return rc;
}

int ix_stmt_set_fetch_buffer(ix_stmt *s, int32_t bytes) {
    int rc = stmt_check(s);
    if (rc) return rc;
    if (bytes < 1 && bytes != IX_FETCH_AUTO)
        return ixc_fail(s->conn, IX_EINVAL,
                        "fetch buffer must be at least 1 byte (or IX_FETCH_AUTO)");
    s->fetch_buffer = bytes;
    return IX_OK;
}

int ix_stmt_set_readahead(ix_stmt *s, int depth) {
    int rc = stmt_check(s);
    if (rc) return rc;
    if (depth < 0 || depth > 64)
        return ixc_fail(s->conn, IX_EINVAL, "read-ahead depth must be 0..64");
    s->readahead = depth;
    return IX_OK;
}

int64_t ix_stmt_fetch_count(const ix_stmt *s) {
    return s ? s->fetches : 0;
}

int64_t ix_stmt_fetch_roundtrips(const ix_stmt *s) {
    return s ? s->roundtrips : 0;
}

int64_t ix_stmt_fetch_bytes(const ix_stmt *s) {
    return s ? s->bytes_in : 0;
}

int32_t ix_stmt_fetch_size(const ix_stmt *s) {
    if (!s) return 0;
    if (s->last_asked) return s->last_asked;
    return s->fetch_buffer == IX_FETCH_AUTO ? auto_first(s) : s->fetch_buffer;
}

int64_t ix_changes(const ix_stmt *s) {
    return s ? s->changes : 0;
}

/* ---- columns ------------------------------------------------------------------ */

int ix_column_count(const ix_stmt *s) {
    s = described(s);
    return s ? s->ncols : 0;
}

const char *ix_column_name(const ix_stmt *s, int i) {
    s = described(s);
    return s && i >= 0 && i < s->ncols ? s->cols[i].name : NULL;
}

int ix_column_type(const ix_stmt *s, int i) {
    s = described(s);
    return s && i >= 0 && i < s->ncols ? s->cols[i].vt.code : -1;
}

int ix_column_notnull(const ix_stmt *s, int i) {
    s = described(s);
    return s && i >= 0 && i < s->ncols ? (s->cols[i].type & IXT_TF_NOTNULL) != 0 : 0;
}

int ix_column_enclen(const ix_stmt *s, int i) {
    s = described(s);
    return s && i >= 0 && i < s->ncols ? (int)s->cols[i].vt.enclen : -1;
}

/* Records a column accessor's misuse: no current row, or i out of range. */
static void cell_misuse(ix_stmt *s, int i) {
    if (s && s->conn)
        ixc_fail(s->conn, IX_EMISUSE,
                 i < 0 || i >= s->ncols ? "column index %d out of range"
                                        : "no current row (column %d)",
                 i);
}

/* The current row's column i: its value's bytes (*n of them, as checked when
 * the row arrived), or NULL (IX_EMISUSE recorded). */
static inline const uint8_t *cell(ix_stmt *s, int i, size_t *n) {
    if (!s || (unsigned)i >= s->row_cols) {
        cell_misuse(s, i);
        *n = 0;
        return NULL;
    }
    uint32_t a = ixc_rowplan_at(&s->plan, s->segat, i);
    *n = ixc_rowplan_at(&s->plan, s->segat, i + 1) - a;
    return s->row + a;
}

static inline int cell_null(const ix_stmt *s, int i, const uint8_t *p, size_t n) {
    return ixc_rowplan_is_null(&s->plan.col[i], p, n);
}

int ix_column_is_null(ix_stmt *s, int i) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    return p ? cell_null(s, i, p, n) : 0;
}

const void *ix_column_raw(ix_stmt *s, int i) {
    size_t n;
    return cell(s, i, &n);
}

size_t ix_column_bytes(ix_stmt *s, int i) {
    size_t n;
    cell(s, i, &n);
    return n;
}

static int fetch_blob(ix_stmt *s, ixc_col *col, const uint8_t *p, size_t n);

/* The characters of a CHAR / VARCHAR / LVARCHAR value read in place (the
 * row plan's text kind), or IX_EINVAL when the value must be formatted (or
 * is longer than its column allows: the formatter reports that). */
static inline int plain_chars(const ixc_rpcol *pc, const uint8_t *p, size_t n, const uint8_t **d,
                              size_t *len) {
    switch (pc->text_kind) {
    case RT_RAW: *d = p, *len = n; return IX_OK;
    case RT_VAR1:
        if (n - 1 > pc->max_len) return IX_EINVAL;
        *d = p + 1, *len = n - 1;
        return IX_OK;
    case RT_ENV:
        if (pc->max_len && n - 5 > pc->max_len) return IX_EINVAL;
        *d = p + 5, *len = n - 5;
        return IX_OK;
    default: return IX_EINVAL;
    }
}

static inline int no_conversion(const ix_stmt *s) {
    return !s->conn || s->conn->cv_from_db == (iconv_t)-1;
}

static int make_text(ix_stmt *s, int i, const uint8_t *p, size_t n) {
    ixc_col *col = &s->cols[i];
    if (col->text_row == s->row_seq) return IX_OK;
    if (col->vt.code == IX_T_TEXT) /* a TEXT value prints as its characters */
        return fetch_blob(s, col, p, n);
    ixb_wbuf_reset(&col->text);
    const uint8_t *d;
    size_t len;
    int rc;
    if (no_conversion(s) && plain_chars(&s->plan.col[i], p, n, &d, &len) == IX_OK) {
        ixb_put_bytes(&col->text, d, len);
        rc = IX_OK;
    } else {
        ixt_fmt fmt = {s->conn ? s->conn->dbdate : NULL, NULL};
        rc = ixt_value_format(col->vt, p, n, &fmt, &col->text);
    }
    if (rc == IX_OK && !no_conversion(s) && ixc_is_char_type(col->vt.code) && !col->text.err) {
        /* Character values come back in the client's code set. */
        ixb_wbuf t;
        ixb_wbuf_init(&t, ixc_mem());
        rc = ixc_convert(s->conn->cv_from_db, col->text.data, col->text.len, &t);
        if (rc == IX_OK) {
            ixb_wbuf_free(&col->text);
            col->text = t;
        } else {
            ixb_wbuf_free(&t);
        }
    }
    if (rc == IX_OK) ixb_put_u8(&col->text, 0);
    if (rc == IX_OK && col->text.err) rc = IX_ENOMEM;
    if (rc != IX_OK) return rc;
    col->text_row = s->row_seq;
    return IX_OK;
}

const char *ix_column_text(ix_stmt *s, int i) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    if (!p || cell_null(s, i, p, n)) return NULL;
    int rc = make_text(s, i, p, n);
    if (rc != IX_OK) {
        if (s->conn) ixc_fail(s->conn, rc, "cannot format column %d: %s", i, ix_rc_str(rc));
        return NULL;
    }
    return (const char *)s->cols[i].text.data;
}

static __attribute__((noinline)) size_t text_len_general(ix_stmt *s, int i) {
    const char *t = ix_column_text(s, i);
    return t ? s->cols[i].text.len - 1 : 0;
}

size_t ix_column_text_len(ix_stmt *s, int i) {
    /* Characters read in place have their length without a copy. */
    if (s && (unsigned)i < s->row_cols && no_conversion(s)) {
        uint32_t a = ixc_rowplan_at(&s->plan, s->segat, i);
        size_t n = ixc_rowplan_at(&s->plan, s->segat, i + 1) - a, len;
        const uint8_t *p = s->row + a, *d;
        const ixc_rpcol *pc = &s->plan.col[i];
        if (ixc_rowplan_is_null(pc, p, n)) return 0;
        if (plain_chars(pc, p, n, &d, &len) == IX_OK) return len;
    }
    return text_len_general(s, i);
}

/*
 * A BYTE or TEXT value: the tuple holds only a descriptor, so the data is
 * asked for with ID + SQ_FETCHBLOB + EOT and arrives as SQ_BLOB chunks, then
 * DONE/COST and one EOT (§3.14; ixd answers FETCHBLOB with its EOT at once
 * and swallows the EOT that follows). Earlier replies (read-ahead batches)
 * are drained first, so this is one round trip. The value is kept in the
 * column's text buffer until the next step.
 */
static int fetch_blob(ix_stmt *s, ixc_col *col, const uint8_t *p, size_t n) {
    if (col->text_row == s->row_seq) return IX_OK;
    ix_conn *c = s->conn;
    int rc = ixc_check(c);
    if (rc == IX_OK) rc = ixc_drain(c);
    if (rc != IX_OK) return rc;
    size_t mark = ixc_mark(c);
    ixp_enc_id(&c->out, s->id);
    ixp_enc_fetchblob(&c->out, p, n);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    if ((rc = ixc_flush(c)) != IX_OK) return rc;
    ixb_wbuf_reset(&col->text);
    int sqlcode = 0, isam = 0;
    int32_t off = 0;
    char ins[256] = "";
    ixp_msg m;
    while ((rc = ixc_next_msg(c, &m)) == IX_OK && m.tag != IXP_SQ_EOT) {
        if (m.tag == IXP_SQ_BLOB) {
            ixb_put_bytes(&col->text, m.u.blob.p, m.u.blob.n);
        } else if (m.tag == IXP_SQ_ERR) {
            sqlcode = m.u.err.sqlcode;
            isam = m.u.err.isamcode;
            off = m.u.err.offset;
            snprintf(ins, sizeof ins, "%.*s", (int)m.u.err.msg.n, (const char *)m.u.err.msg.p);
        }
    }
    if (rc != IX_OK) return rc;
    if (sqlcode) return ixc_fail_sql(c, sqlcode, isam, off, ins);
    ixb_put_u8(&col->text, 0); /* a NUL after the bytes, counted as make_text counts it */
    if (col->text.err) return ixc_fail(c, IX_ENOMEM, "out of memory");
    col->text_row = s->row_seq;
    return IX_OK;
}

static int is_blob_col(const ixc_col *col) {
    return col->vt.code == IX_T_BYTE || col->vt.code == IX_T_TEXT;
}

const void *ix_column_blob(ix_stmt *s, int i, size_t *n) {
    if (n) *n = 0;
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p || cell_null(s, i, p, vn)) return NULL;
    ixc_col *col = &s->cols[i];
    if (is_blob_col(col)) {
        if (fetch_blob(s, col, p, vn) != IX_OK) return NULL;
        if (n) *n = col->text.len - 1;
        return col->text.data ? col->text.data : (const uint8_t *)"";
    }
    const uint8_t *d;
    size_t len;
    if (ixt_value_get_bytes(col->vt, p, vn, &d, &len) != IX_OK) {
        if (s->conn) ixc_fail(s->conn, IX_EINVAL, "column %d is not a character column", i);
        return NULL;
    }
    if (n) *n = len;
    return d;
}

static int text_number(const uint8_t *d, size_t len, int want_int, int64_t *iv, double *dv) {
    char buf[80];
    while (len && (*d == ' '))
        d++, len--;
    while (len && d[len - 1] == ' ')
        len--;
    if (len == 0 || len >= sizeof buf) return IX_EINVAL;
    memcpy(buf, d, len);
    buf[len] = 0;
    char *end;
    errno = 0;
    if (want_int) {
        long long x = strtoll(buf, &end, 10);
        if (*end) return IX_EINVAL;
        if (errno) return IX_ERANGE;
        *iv = x;
    } else {
        double x = strtod(buf, &end);
        if (*end) return IX_EINVAL;
        *dv = x;
    }
    return IX_OK;
}

/* The general conversions of ix_column_get_int64, for the value p[0..vn). */
static int int64_slow(ix_stmt *s, int i, const uint8_t *p, size_t vn, int64_t *out) {
    ixc_col *col = &s->cols[i];
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    int64_t v = 0;
    double d;
    int b, rc;
    switch (col->vt.code) {
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
        rc = ixt_value_get_double(col->vt, p, vn, &d);
        if (rc != IX_OK) return rc;
        if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return IX_ERANGE;
        v = (int64_t)d;
        /* A fraction is reported; the value truncated toward zero stays in
         * *out (docs/c-api.md, "Conversions"). */
        *out = v;
        return (double)v == d ? IX_OK : IX_ERANGE;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal x;
        int pt;
        rc = ixt_dec_decode(&x, p, vn);
        if (rc == IX_OK) rc = ixt_dec_to_i64(&x, &v);
        if (rc != IX_OK) return rc;
        *out = v;
        return ixt_dec_digits(&x, &pt) > pt ? IX_ERANGE : IX_OK;
    }
    case IX_T_BOOLEAN:
        rc = ixt_value_get_bool(col->vt, p, vn, &b);
        if (rc != IX_OK) return rc;
        v = b;
        break;
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *t;
        size_t n;
        rc = ixt_value_get_bytes(col->vt, p, vn, &t, &n);
        if (rc == IX_OK) rc = text_number(t, n, 1, &v, &d);
        if (rc != IX_OK) return rc;
        break;
    }
    default:
        rc = ixt_value_get_int(col->vt, p, vn, &v);
        if (rc != IX_OK) return rc;
    }
    *out = v;
    return IX_OK;
}

/* The general conversions of ix_column_get_double, for the value p[0..vn). */
static int double_slow(ix_stmt *s, int i, const uint8_t *p, size_t vn, double *out) {
    ixc_col *col = &s->cols[i];
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    double d = 0;
    int64_t v;
    int b, rc;
    switch (col->vt.code) {
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
        rc = ixt_value_get_double(col->vt, p, vn, &d);
        if (rc != IX_OK) return rc;
        break;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        ixt_decimal x;
        rc = ixt_dec_decode(&x, p, vn);
        if (rc == IX_OK) rc = ixt_dec_to_double(&x, &d);
        if (rc != IX_OK) return rc;
        break;
    }
    case IX_T_BOOLEAN:
        rc = ixt_value_get_bool(col->vt, p, vn, &b);
        if (rc != IX_OK) return rc;
        d = b;
        break;
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR: {
        const uint8_t *t;
        size_t n;
        rc = ixt_value_get_bytes(col->vt, p, vn, &t, &n);
        if (rc == IX_OK) rc = text_number(t, n, 0, &v, &d);
        if (rc != IX_OK) return rc;
        break;
    }
    default:
        rc = ixt_value_get_int(col->vt, p, vn, &v);
        if (rc != IX_OK) return rc;
        d = (double)v;
    }
    *out = d;
    return IX_OK;
}

/* A fixed-width number read in place (the row plan's get kind). */
#define NULL_I16 0x8000u
#define NULL_I32 0x80000000u
#define NULL_I64 ((uint64_t)1 << 63)
#define NULL_F32 0xffffffffu
#define NULL_F64 UINT64_MAX

/* The value of column i of the current row when it is a non-NULL integer
 * the plan reads in place (1), else 0: then the general path (which also
 * records misuse) answers. No calls, so the accessors below need no frame. */
static inline int fast_int(const ix_stmt *s, int i, int64_t *v) {
    if (!s || (unsigned)i >= s->row_cols) return 0;
    const ixc_rpat *a = &s->plan.at[i];
    const uint8_t *p = s->row + s->segat[a->base] + a->rel;
    switch (a->get_kind) {
    case RG_I32: {
        uint32_t u = ixb_be32(p);
        *v = (int32_t)u;
        return u != NULL_I32;
    }
    case RG_I16: {
        uint16_t u = ixb_be16(p);
        *v = (int16_t)u;
        return u != NULL_I16;
    }
    case RG_I64: {
        uint64_t u = ixb_be64(p);
        *v = (int64_t)u;
        return u != NULL_I64;
    }
    default: return 0;
    }
}

static __attribute__((noinline)) int get_int64_general(ix_stmt *s, int i, int64_t *out) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    *out = 0;
    if (!p) return IX_EMISUSE;
    return int64_slow(s, i, p, n, out);
}

static __attribute__((noinline)) int get_double_general(ix_stmt *s, int i, double *out) {
    size_t n;
    const uint8_t *p = cell(s, i, &n);
    *out = 0;
    if (!p) return IX_EMISUSE;
    return double_slow(s, i, p, n, out);
}

int ix_column_get_int64(ix_stmt *s, int i, int64_t *out) {
    if (fast_int(s, i, out)) return IX_OK;
    return get_int64_general(s, i, out);
}

/* The value of column i as a double when the plan reads it in place and it
 * is not NULL (1), else 0. */
static inline int fast_double(const ix_stmt *s, int i, double *out) {
    if (!s || (unsigned)i >= s->row_cols) return 0;
    const ixc_rpat *a = &s->plan.at[i];
    const uint8_t *p = s->row + s->segat[a->base] + a->rel;
    switch (a->get_kind) {
    case RG_F64: {
        uint64_t u = ixb_be64(p);
        memcpy(out, &u, 8);
        return u != NULL_F64;
    }
    case RG_F32: {
        uint32_t u = ixb_be32(p);
        float f;
        memcpy(&f, &u, 4);
        *out = f;
        return u != NULL_F32;
    }
    default: {
        int64_t v;
        if (!fast_int(s, i, &v)) return 0;
        *out = (double)v;
        return 1;
    }
    }
}

int ix_column_get_double(ix_stmt *s, int i, double *out) {
    if (fast_double(s, i, out)) return IX_OK;
    return get_double_general(s, i, out);
}

/* ---- DATETIME / INTERVAL into structs ------------------------------------------ */

int ix_column_datetime(ix_stmt *s, int i, ix_datetime_t *out) {
    if (out) memset(out, 0, sizeof *out);
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p) return IX_EMISUSE;
    if (!out) return ixc_fail(s->conn, IX_EMISUSE, "NULL output struct");
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    const ixc_col *col = &s->cols[i];
    if (col->vt.code == IX_T_DATE) {
        int64_t days;
        int rc = ixt_value_get_int(col->vt, p, vn, &days);
        if (rc != IX_OK) return rc;
        ixt_date_to_ymd((int32_t)days, &out->year, &out->month, &out->day);
        return IX_OK;
    }
    if (col->vt.code != IX_T_DATETIME) return IX_EINVAL;
    ixt_datetime dt;
    int rc = ixt_dt_decode((uint32_t)col->vt.enclen, p, vn, &dt);
    if (rc == IX_NULL_VALUE) return rc;
    if (rc != IX_OK) return IX_EMALFORMED;
    *out = (ix_datetime_t){dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.fraction};
    return IX_OK;
}

int ix_column_interval(ix_stmt *s, int i, ix_interval_t *out) {
    if (out) memset(out, 0, sizeof *out);
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p) return IX_EMISUSE;
    if (!out) return ixc_fail(s->conn, IX_EMISUSE, "NULL output struct");
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE;
    const ixc_col *col = &s->cols[i];
    if (col->vt.code != IX_T_INTERVAL) return IX_EINVAL;
    uint32_t q = (uint32_t)col->vt.enclen;
    ixt_interval iv;
    int rc = ixt_iv_decode(q, p, vn, &iv);
    if (rc == IX_NULL_VALUE) return rc;
    if (rc != IX_OK) return IX_EMALFORMED;
    out->sign = iv.sign < 0 ? -1 : 1;
    int start = IXT_QUAL_START(q);
    if (start <= IXT_TU_MONTH) {
        if (start == IXT_TU_YEAR) {
            out->years = iv.months / 12;
            out->months = iv.months % 12;
        } else {
            out->months = iv.months;
        }
        return IX_OK;
    }
    /* Split the units from the bottom; the leading field keeps the rest. */
    int64_t u = iv.units;
    out->fraction = u % IXT_UNITS_PER_SECOND;
    u /= IXT_UNITS_PER_SECOND;
    if (start == IXT_TU_FRACTION) {
        out->fraction += u * IXT_UNITS_PER_SECOND;
        return IX_OK;
    }
    if (start == IXT_TU_SECOND) {
        out->seconds = u;
        return IX_OK;
    }
    out->seconds = u % 60;
    u /= 60;
    if (start == IXT_TU_MINUTE) {
        out->minutes = u;
        return IX_OK;
    }
    out->minutes = u % 60;
    u /= 60;
    if (start == IXT_TU_HOUR) {
        out->hours = u;
        return IX_OK;
    }
    out->hours = u % 24;
    out->days = u / 24;
    return IX_OK;
}

int ix_column_date_ymd(ix_stmt *s, int i, int *y, int *m, int *d) {
    if (y) *y = 0;
    if (m) *m = 0;
    if (d) *d = 0;
    size_t vn;
    const uint8_t *p = cell(s, i, &vn);
    if (!p) return IX_EMISUSE;
    if (cell_null(s, i, p, vn)) return IX_NULL_VALUE; /* before the type, as every accessor */
    const ixc_col *col = &s->cols[i];
    if (col->vt.code == IX_T_DATETIME && (IXT_QUAL_START((uint32_t)col->vt.enclen) != IXT_TU_YEAR ||
                                          IXT_QUAL_END((uint32_t)col->vt.enclen) < IXT_TU_DAY))
        return IX_EINVAL;
    if (col->vt.code != IX_T_DATE && col->vt.code != IX_T_DATETIME) return IX_EINVAL;
    ix_datetime_t dt;
    int rc = ix_column_datetime(s, i, &dt);
    if (rc != IX_OK) return rc;
    if (y) *y = dt.year;
    if (m) *m = dt.month;
    if (d) *d = dt.day;
    return IX_OK;
}

/* The slow halves of the accessors below: kept out of line, so that the
 * fast halves need no stack frame. */
/* IX_ERANGE for a fraction leaves the truncated value in *out (0 when the
 * value is out of range): the status-less accessors truncate. */
static __attribute__((noinline)) int64_t int64_general(ix_stmt *s, int i) {
    int64_t v;
    int rc = get_int64_general(s, i, &v);
    return rc == IX_OK || rc == IX_ERANGE ? v : 0;
}

static __attribute__((noinline)) int int_general(ix_stmt *s, int i) {
    int64_t v;
    int rc = get_int64_general(s, i, &v);
    if (rc != IX_OK && rc != IX_ERANGE) return 0;
    return v < INT32_MIN || v > INT32_MAX ? 0 : (int)v;
}

static __attribute__((noinline)) double double_general(ix_stmt *s, int i) {
    double d;
    return get_double_general(s, i, &d) == IX_OK ? d : 0;
}

int64_t ix_column_int64(ix_stmt *s, int i) {
    int64_t v;
    if (fast_int(s, i, &v)) return v;
    return int64_general(s, i);
}

int ix_column_int(ix_stmt *s, int i) {
    int64_t v;
    if (fast_int(s, i, &v)) return v < INT32_MIN || v > INT32_MAX ? 0 : (int)v;
    return int_general(s, i);
}

double ix_column_double(ix_stmt *s, int i) {
    double d;
    if (fast_double(s, i, &d)) return d;
    return double_general(s, i);
}

/* ---- pipelined batches ---------------------------------------------------------- */

#define BATCH_AHEAD (256 * 1024) /* bytes of requests kept written ahead of replies */
#define BATCH_ROWS  4096         /* rows sent and not yet answered, at most */

/* Marks rows [from, to) of sqlcodes (may be NULL) with code. */
static void batch_mark(int *sqlcodes, int64_t from, int64_t to, int code) {
    for (int64_t r = from; sqlcodes && r < to; r++)
        sqlcodes[r] = code;
}

/* Encodes row `row`'s request group on s->conn->out; < 0 stops the batch
 * (nothing encoded). */
typedef int (*batch_enc_fn)(ix_stmt *s, int64_t row, void *ud);

static int batch_run(ix_stmt *s, int64_t nrows, batch_enc_fn enc, void *ud, int *sqlcodes,
                     int64_t *nfailed) {
    if (nfailed) *nfailed = 0;
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    if ((rc = ensure_prepared(s)) != IX_OK) return rc;
    if (s->is_cursor)
        return ixc_fail(c, IX_EMISUSE, "ix_batch_execute needs a statement without rows");
    if (nrows < 0) return ixc_fail(c, IX_EMISUSE, "bad batch arguments");
    s->replied = 0;
    s->changes = 0;
    if ((rc = ixc_drain(c)) != IX_OK) return rc;
    if ((rc = ixc_auto_begin(c, s->sql, s->sql_len)) != IX_OK) return rc;
    int64_t written = 0, failed = 0, first_err = -1;
    int stop = 0;
    /* A failure that ends the batch's transaction stops the rows not yet
     * sent: they would run in autocommit, one by one. */
    int in_txn = c->in_txn, txn_lost = 0;
    ixc_reply first;
    memset(&first, 0, sizeof first);
    while (s->replied < written || (!stop && !txn_lost && first_err < 0 && written < nrows)) {
        /* Write ahead while the unsent output is small and few rows are in
         * flight; nothing more after the first refused row. */
        while (!stop && !txn_lost && first_err < 0 && written < nrows &&
               c->out.len - c->sent < BATCH_AHEAD && written - s->replied < BATCH_ROWS) {
            size_t mark = ixc_mark(c);
            int u = enc(s, written, ud);
            if (u < 0) {
                stop = u;
                break;
            }
            ixc_queued(c, mark);
            if (c->out.err)
                return ixc_kill(c, c->out.err, "cannot encode the batch: %s",
                                ix_rc_str(c->out.err));
            written++;
        }
        if (s->replied == written) {
            if (c->sent < c->out.len && (rc = ixc_flush(c)) != IX_OK) return rc;
            continue;
        }
        /* Reading one reply also writes pending output (ixc_io polls both).
         * The message text is only read after an SQ_ERR wrote it: only its
         * first byte is cleared. */
        ixc_reply r;
        memset(&r, 0, offsetof(ixc_reply, msg) + 1);
        memset(&r.has_done, 0, sizeof r - offsetof(ixc_reply, has_done));
        rc = ixc_read_reply(c, &r);
        if (rc != IX_OK) { /* the rows in flight may or may not have run */
            batch_mark(sqlcodes, s->replied, written, IX_BATCH_UNKNOWN);
            batch_mark(sqlcodes, written, nrows, IX_BATCH_NOT_SENT);
            return rc;
        }
        int64_t row = s->replied++;
        if (in_txn && !c->in_txn) txn_lost = 1;
        if (r.sqlcode) {
            failed++;
            if (first_err < 0) {
                first_err = row;
                first = r;
            }
            if (sqlcodes) sqlcodes[row] = r.sqlcode;
        } else {
            if (sqlcodes) sqlcodes[row] = 0;
            s->changes += r.rows;
            if (r.serial || r.serial8 || r.bigserial) { /* this INSERT's values, 0 the other */
                c->serial = r.serial;
                c->serial8 = r.serial8 ? r.serial8 : r.bigserial;
            }
        }
    }
    c->changes = s->changes;
    if (nfailed) *nfailed = failed;
    batch_mark(sqlcodes, written, nrows, IX_BATCH_NOT_SENT);
    if (first_err >= 0) {
        ixc_fail_sql(c, first.sqlcode, first.isamcode, first.offset, first.msg);
        size_t l = strlen(c->errmsg);
        snprintf(c->errmsg + l, sizeof c->errmsg - l, " (batch row %lld; %lld rows failed)",
                 (long long)first_err, (long long)failed);
        return stop ? stop : IX_ESQL;
    }
    return stop ? stop : IX_OK;
}

/* ix_send_batch: every row encoded and queued now; batch_op_reply decodes
 * the replies, one group per row. */
static int batch_send(ix_stmt *s, int64_t nrows, batch_enc_fn enc, void *ud) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (dead(c)) return IX_ECONN;
    if (!c->nb) return ixc_fail(c, IX_EMISUSE, "ix_send_batch needs non-blocking mode");
    if ((s->op && s->op != IXC_OP_PREPARE) || s->exec_queued)
        return ixc_fail(c, IX_EMISUSE, "a request of the statement is outstanding");
    ixc_clear_err(c);
    if ((rc = ensure_prepared(s)) != IX_OK) return rc;
    if (s->op_done && s->op_last == IXC_OP_PREPARE && (rc = op_take(s)) != IX_OK) return rc;
    if (s->is_cursor)
        return ixc_fail(c, IX_EMISUSE, "ix_send_batch needs a statement without rows");
    if (nrows < 0) return ixc_fail(c, IX_EMISUSE, "bad batch arguments");
    if ((rc = begin_for(s)) != IX_OK) return rc;
    ixc_free(s->b_codes);
    s->b_codes = nrows > 0 ? ixc_malloc((size_t)nrows * sizeof *s->b_codes) : NULL;
    if (nrows > 0 && !s->b_codes) return ixc_fail(c, IX_ENOMEM, "out of memory");
    s->replied = s->changes = s->b_failed = 0;
    s->b_first_row = -1;
    s->b_stop = 0;
    int64_t written = 0;
    while (written < nrows) {
        size_t mark = ixc_mark(c);
        int u = enc(s, written, ud);
        if (u < 0) {
            s->b_stop = u;
            break;
        }
        ixc_queued(c, mark);
        if (c->out.err) return ixc_kill(c, c->out.err, "cannot encode the batch");
        written++;
    }
    s->b_rows = written;
    if (written == 0) { /* nothing to wait for */
        s->op_done = 1;
        s->op_last = IXC_OP_BATCH;
        s->op_rc = s->b_stop ? s->b_stop : IX_OK;
        s->op_err.err = 0;
        return s->op_rc;
    }
    if ((rc = push_op(s, IXC_OP_BATCH, written)) != IX_OK) return rc;
    c->nb_step = 1;
    rc = ixc_flush(c);
    c->nb_step = 0;
    return rc != IX_OK ? rc : s->b_stop ? s->b_stop : IX_OK;
}

/* One row's reply of a non-blocking batch; after the last, the batch's
 * outcome as ix_batch_execute's. */
static int batch_op_reply(ix_stmt *s, int last) {
    ix_conn *c = s->conn;
    ixc_reply r;
    memset(&r, 0, sizeof r);
    int rc = ixc_read_reply(c, &r);
    if (rc != IX_OK) return rc;
    int64_t row = s->replied++;
    if (r.sqlcode) {
        s->b_failed++;
        if (s->b_first_row < 0) {
            s->b_first_row = row;
            s->b_first_code = r.sqlcode;
            s->b_first_isam = r.isamcode;
            s->b_first_off = r.offset;
            memcpy(s->b_first_msg, r.msg, sizeof s->b_first_msg);
        }
        if (s->b_codes) s->b_codes[row] = r.sqlcode;
    } else {
        if (s->b_codes) s->b_codes[row] = 0;
        s->changes += r.rows;
        if (r.serial) c->serial = r.serial;
        if (r.has_insertdone && (r.serial8 || r.bigserial))
            c->serial8 = r.serial8 ? r.serial8 : r.bigserial;
    }
    if (!last) return IX_OK;
    c->changes = s->changes;
    if (s->b_first_row >= 0) {
        ixc_fail_sql(c, s->b_first_code, s->b_first_isam, s->b_first_off, s->b_first_msg);
        size_t l = strlen(c->errmsg);
        snprintf(c->errmsg + l, sizeof c->errmsg - l, " (batch row %lld; %lld rows failed)",
                 (long long)s->b_first_row, (long long)s->b_failed);
        return s->b_stop ? s->b_stop : IX_ESQL;
    }
    return s->b_stop ? s->b_stop : IX_OK;
}

typedef struct rowfn_ctx {
    ix_batch_row_fn fn;
    void *ud;
} rowfn_ctx;

/* ix_batch_execute's rows: the callback binds, the bindings are encoded. */
static int enc_bound_row(ix_stmt *s, int64_t row, void *ud) {
    const rowfn_ctx *r = ud;
    int u = r->fn(s, row, r->ud);
    if (u < 0) return u;
    encode_exec(s);
    return 0;
}

int ix_batch_execute(ix_stmt *s, int64_t nrows, ix_batch_row_fn row_fn, void *ud, int *sqlcodes,
                     int64_t *nfailed) {
    if (nfailed) *nfailed = 0;
    int rc = stmt_check(s);
    if (rc) return rc;
    if (!row_fn) return ixc_fail(s->conn, IX_EMISUSE, "bad batch arguments");
    rowfn_ctx r = {row_fn, ud};
    return batch_run(s, nrows, enc_bound_row, &r, sqlcodes, nfailed);
}

typedef struct arrays_ctx {
    const ix_array *cols;
    int ncols;
    int general;    /* every row through ix_bind_* (text to convert, a bad kind) */
    size_t fixed;   /* the most bytes the fixed-width columns' items take */
    ixb_wbuf extra; /* the items of the parameters past the arrays (as bound) */
    size_t *lens;   /* per text column: the length in the row being encoded */
} arrays_ctx;

/* The general path of one row: ix_bind_* for every array, then the bound
 * parameters are encoded (conversions, range errors, long values). */
static int bind_arrays_row(ix_stmt *s, int64_t row, const arrays_ctx *a) {
    for (int k = 0; k < a->ncols; k++) {
        const ix_array *col = &a->cols[k];
        int rc;
        if (col->is_null && col->is_null[row]) {
            rc = ix_bind_null(s, k + 1);
        } else {
            switch (col->kind) {
            case IX_ARRAY_INT64:
                rc = ix_bind_int64(s, k + 1, ((const int64_t *)col->values)[row]);
                break;
            case IX_ARRAY_INT32:
                rc = ix_bind_int64(s, k + 1, ((const int32_t *)col->values)[row]);
                break;
            case IX_ARRAY_DATE:
                rc = ix_bind_date(s, k + 1, ((const int32_t *)col->values)[row]);
                break;
            case IX_ARRAY_DOUBLE:
                rc = ix_bind_double(s, k + 1, ((const double *)col->values)[row]);
                break;
            case IX_ARRAY_TEXT: {
                const char *t = ((const char *const *)col->values)[row];
                rc = t ? ix_bind_text(s, k + 1, t, -1, IX_STATIC) : ix_bind_null(s, k + 1);
                break;
            }
            default: rc = ixc_fail(s->conn, IX_EINVAL, "bad array kind for parameter %d", k + 1);
            }
        }
        if (rc != IX_OK) return rc;
    }
    encode_exec(s);
    return 0;
}

static uint8_t *put_head(uint8_t *o, int type, int slot) {
    ixb_st16(o, (uint16_t)type);
    ixb_st16(o + 2, (uint16_t)IXP_IND_VALUE);
    ixb_st16(o + 4, (uint16_t)slot);
    return o + ITEM_HEAD;
}

/* INTEGER when the value fits 32 bits, else BIGINT (as ix_bind_int64);
 * NULL for -2^63 (an error the general path reports). */
static uint8_t *put_int(uint8_t *o, int64_t v) {
    if (v > INT32_MIN && v <= INT32_MAX) {
        ixb_st32(put_head(o, IX_T_INTEGER, SLOT_INTEGER), (uint32_t)v);
        return o + ITEM_HEAD + 4;
    }
    if (v == INT64_MIN) return NULL;
    ixb_st64(put_head(o, IX_T_BIGINT, SLOT_BIGINT), (uint64_t)v);
    return o + ITEM_HEAD + 8;
}

/* Column k's item of row `row` at o (room reserved: a->fixed for the fixed
 * widths, lens[k] for text); NULL when the value needs the general path (out
 * of range). The bytes are those ix_bind_* + encode_exec write. */
static uint8_t *put_array_item(uint8_t *o, const arrays_ctx *a, int k, int64_t row) {
    const ix_array *col = &a->cols[k];
    if (col->is_null && col->is_null[row])
        return put_item(o, IX_T_VARCHAR, IXP_IND_NULL, 0, NULL, 0);
    switch (col->kind) {
    case IX_ARRAY_INT64: return put_int(o, ((const int64_t *)col->values)[row]);
    case IX_ARRAY_INT32: return put_int(o, ((const int32_t *)col->values)[row]);
    case IX_ARRAY_DOUBLE:
        ixb_st64(put_head(o, IX_T_FLOAT, 0), float_bits(((const double *)col->values)[row]));
        return o + ITEM_HEAD + 8;
    case IX_ARRAY_DATE: {
        int32_t d = ((const int32_t *)col->values)[row];
        if (d < IXT_DATE_MIN || d > IXT_DATE_MAX) return NULL;
        ixb_st32(put_head(o, IX_T_DATE, 0), (uint32_t)d);
        return o + ITEM_HEAD + 4;
    }
    default: { /* IX_ARRAY_TEXT: one VARCHAR value, | i16 length | bytes | */
        const char *t = ((const char *const *)col->values)[row];
        if (!t) return put_item(o, IX_T_VARCHAR, IXP_IND_NULL, 0, NULL, 0);
        size_t n = a->lens[k];
        ixb_st16(put_head(o, IX_T_VARCHAR, 0), (uint16_t)n);
        memcpy(o + ITEM_HEAD + 2, t, n);
        o += ITEM_HEAD + 2 + n;
        if (n & 1) *o++ = 0;
        return o;
    }
    }
}

/* ix_batch_execute_arrays's rows: encoded straight from the arrays into
 * the room reserved for the row, the parameters past the arrays copied as
 * bound; a row with a value that needs more goes through ix_bind_* (the
 * room is then given up). */
static int enc_arrays_row(ix_stmt *s, int64_t row, void *ud) {
    arrays_ctx *a = ud;
    if (a->general) return bind_arrays_row(s, row, a);
    size_t body = a->fixed + a->extra.len;
    for (int k = 0; k < a->ncols; k++) {
        const ix_array *col = &a->cols[k];
        if (col->kind != IX_ARRAY_TEXT || (col->is_null && col->is_null[row])) continue;
        const char *t = ((const char *const *)col->values)[row];
        size_t n = t ? strlen(t) : 0;
        if (n > IXC_BIND_VARCHAR_MAX) return bind_arrays_row(s, row, a);
        a->lens[k] = n;
        body += item_size(IXP_IND_VALUE, 2 + n);
    }
    uint8_t *o = group_begin(s, body);
    if (!o) return 0; /* c->out.err: the batch ends */
    for (int k = 0; k < a->ncols && o; k++)
        o = put_array_item(o, a, k, row);
    if (!o) return bind_arrays_row(s, row, a);
    if (a->extra.len) memcpy(o, a->extra.data, a->extra.len);
    group_end(s, o + a->extra.len);
    return 0;
}

/* Sets up a: the fast path's fixed room, the extra parameters' items. */
static int arrays_prepare(ix_stmt *s, arrays_ctx *a) {
    for (int k = 0; k < a->ncols; k++) {
        switch (a->cols[k].kind) {
        case IX_ARRAY_INT64:
        case IX_ARRAY_INT32:
        case IX_ARRAY_DOUBLE:
        case IX_ARRAY_DATE: a->fixed += ITEM_HEAD + 8; break;
        case IX_ARRAY_TEXT:
            if (s->conn->cv_to_db != (iconv_t)-1) a->general = 1;
            break;
        default: a->general = 1;
        }
    }
    /* BYTE/TEXT values in the real form are written by encode_exec */
    for (int k = 0; k < s->nparams; k++)
        if (blob_form_type(s, k)) a->general = 1;
    size_t body = 0;
    for (int k = a->ncols; k < s->nparams; k++)
        body += param_size(&s->params[k]);
    if (ixb_wbuf_reserve(&a->extra, body)) return IX_ENOMEM;
    uint8_t *o = a->extra.data;
    for (int k = a->ncols; k < s->nparams; k++)
        o = put_param(o, &s->params[k]);
    a->extra.len = body;
    return IX_OK;
}

static int arrays_run(ix_stmt *s, int64_t nrows, const ix_array *cols, int ncols, int *sqlcodes,
                      int64_t *nfailed, int send);

int ix_batch_execute_arrays(ix_stmt *s, int64_t nrows, const ix_array *cols, int ncols,
                            int *sqlcodes, int64_t *nfailed) {
    return arrays_run(s, nrows, cols, ncols, sqlcodes, nfailed, 0);
}

static int arrays_run(ix_stmt *s, int64_t nrows, const ix_array *cols, int ncols, int *sqlcodes,
                      int64_t *nfailed, int send) {
    if (nfailed) *nfailed = 0;
    int rc = stmt_check(s);
    if (rc) return rc;
    if ((!cols && ncols > 0) || ncols < 0 || ncols > s->nparams)
        return ixc_fail(s->conn, IX_EMISUSE, "ix_batch_execute_arrays: %d arrays for %d parameters",
                        ncols, s->nparams);
    size_t local[16];
    arrays_ctx a = {cols, ncols, 0, 0, {0}, NULL};
    ixb_wbuf_init(&a.extra, ixc_mem());
    a.lens = ncols <= 16 ? local : ixc_malloc((size_t)ncols * sizeof(size_t));
    if (!a.lens || arrays_prepare(s, &a) != IX_OK) {
        if (a.lens != local) ixc_free(a.lens);
        ixb_wbuf_free(&a.extra);
        return ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    }
    rc = send ? batch_send(s, nrows, enc_arrays_row, &a)
              : batch_run(s, nrows, enc_arrays_row, &a, sqlcodes, nfailed);
    if (a.lens != local) ixc_free(a.lens);
    ixb_wbuf_free(&a.extra);
    /* The arrays' parameters are left unbound (rows may or may not have
     * gone through ix_bind_*): the same state whatever the values were. */
    for (int k = 0; k < ncols; k++) {
        s->params[k].set = 0;
        s->params[k].nfix = 0;
        ixb_wbuf_reset(&s->params[k].val);
    }
    return rc;
}

int64_t ix_batch_replied(const ix_stmt *s) {
    return s ? s->replied : 0;
}

int ix_stmt_type(const ix_stmt *stmt) {
    stmt = described(stmt);
    return stmt ? stmt->stmt_type : -1;
}

/* ---- non-blocking requests (include/ixdb.h, "non-blocking") ------------------ */

static int need_nb(ix_conn *c, const char *what) {
    if (c->nb) return IX_OK;
    return ixc_fail(c, IX_EMISUSE, "%s needs non-blocking mode (ix_set_nonblocking)", what);
}

int ix_send_prepare(ix_conn *c, const char *sql, size_t len, unsigned flags, ix_stmt **out) {
    if (out) *out = NULL;
    if (!c) return IX_EMISUSE;
    int rc = need_nb(c, "ix_send_prepare");
    if (rc != IX_OK) return rc;
    c->nb_step = 1;
    rc = prepare_common(c, sql, len, flags, out, 1);
    c->nb_step = 0;
    return rc;
}

static int prepare_result_run(ix_stmt *s) {
    ix_conn *c = s->conn;
    int rc = IX_OK;
    if (!s->op && !s->op_done) rc = prepare_send(s); /* deferred: nothing was sent */
    if (rc != IX_OK) return rc;
    if (s->op == IXC_OP_PREPARE || (s->op_done && s->op_last == IXC_OP_PREPARE)) return op_wait(s);
    /* the PREPARE travels with the execution in flight */
    while (s->op && !s->op_done)
        if ((rc = ixc_pend_step(c)) != IX_OK) return rc;
    if (s->prepared || !s->op_done) return IX_OK;
    rc = op_take(s); /* its failure, kept for ix_execute_result as well */
    s->op_done = 1;
    return rc;
}

int ix_prepare_result(ix_stmt *s) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (s->prepared && !s->op && !(s->op_done && s->op_last == IXC_OP_PREPARE)) return IX_OK;
    if (dead(c)) return IX_ECONN;
    c->nb_step = c->nb;
    rc = prepare_result_run(s);
    c->nb_step = 0;
    return rc;
}

int ix_send_execute(ix_stmt *s) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (dead(c)) return IX_ECONN;
    if ((rc = need_nb(c, "ix_send_execute")) != IX_OK) return rc;
    if (s->state != ST_READY)
        return ixc_fail(c, IX_EMISUSE, "the statement has run or is open: ix_reset it first");
    if (s->exec_queued || (s->op && s->op != IXC_OP_PREPARE) ||
        (s->op_done && s->op_last != IXC_OP_PREPARE))
        return ixc_fail(c, IX_EMISUSE, "a request of the statement is outstanding");
    ixc_clear_err(c);
    c->nb_step = 1;
    rc = begin_for(s);
    if (rc == IX_OK && s->op == IXC_OP_PREPARE) {
        s->exec_queued = 1; /* sent when the describe has come (ids are the server's) */
    } else if (rc == IX_OK && s->op_done) {
        if (s->op_rc < 0)
            s->op_last = IXC_OP_EXEC; /* the PREPARE's failure is the execution's */
        else
            s->op_done = 0;
    }
    if (rc == IX_OK && !s->op && !s->op_done) rc = s->is_cursor ? open_send(s) : exec_send(s);
    c->nb_step = 0;
    return rc;
}

int ix_execute_result(ix_stmt *s) {
    int rc = stmt_check(s);
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
    c->nb_step = c->nb;
    rc = op_wait(s);
    c->nb_step = 0;
    return rc;
}

int ix_send_fetch(ix_stmt *s) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (dead(c)) return IX_ECONN;
    if ((rc = need_nb(c, "ix_send_fetch")) != IX_OK) return rc;
    if (s->state == ST_DONE) return IX_DONE;
    if (s->state != ST_OPEN) return ixc_fail(c, IX_EMISUSE, "ix_send_fetch needs an open cursor");
    if (s->fetch_done || (s->cur && (s->cur->done || s->cur->sqlcode))) return IX_DONE;
    for (const ixc_batch *b = s->queue; b; b = b->next)
        if (b->done || b->sqlcode) return IX_DONE;
    if (s->inflight >= 64) return IX_OK;
    if ((rc = send_fetch(s)) != IX_OK) return rc;
    c->nb_step = 1;
    rc = ixc_flush(c);
    c->nb_step = 0;
    return rc;
}

int ix_stmt_busy(const ix_stmt *s) {
    if (!s || !s->conn || s->conn->dead) return 0;
    if (s->op && !s->op_done) return 1;
    if (s->state != ST_OPEN) return 0;
    const ixc_batch *b = s->cur;
    if (b && (s->cur_pos < b->data.len || b->done || b->sqlcode)) return 0;
    return s->queue == NULL;
}

int ix_send_batch(ix_stmt *s, int64_t nrows, ix_batch_row_fn row_fn, void *ud) {
    int rc = stmt_check(s);
    if (rc) return rc;
    if (!row_fn) return ixc_fail(s->conn, IX_EMISUSE, "bad batch arguments");
    rowfn_ctx r = {row_fn, ud};
    return batch_send(s, nrows, enc_bound_row, &r);
}

int ix_send_batch_arrays(ix_stmt *s, int64_t nrows, const ix_array *cols, int ncols) {
    return arrays_run(s, nrows, cols, ncols, NULL, NULL, 1);
}

int ix_batch_result(ix_stmt *s, int *sqlcodes, int64_t *nfailed) {
    int rc = stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (!(s->op == IXC_OP_BATCH || (s->op_done && s->op_last == IXC_OP_BATCH)))
        return ixc_fail(c, IX_EMISUSE, "no batch of the statement was sent");
    c->nb_step = c->nb;
    rc = op_wait(s);
    c->nb_step = 0;
    if (rc == IX_WANT_READ || rc == IX_WANT_WRITE) return rc;
    if (sqlcodes && s->b_codes) memcpy(sqlcodes, s->b_codes, (size_t)s->replied * sizeof *sqlcodes);
    if (nfailed) *nfailed = s->b_failed;
    return rc;
}
