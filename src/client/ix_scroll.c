/*
 * ix_scroll.c: scroll cursors (IX_PREPARE_SCROLL, SQ_SCROLL + SFETCH, §3.13)
 * and the ix_fetch_* calls.
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

#include "ix_stmt_int.h"

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
    ixc_free_batches(s);
    if (pos > INT32_MAX) pos = INT32_MAX;              /* past any result */
    if (pos < 0 && dir != IXP_FETCH_RELATIVE) pos = 0; /* before the first row */
    if (pos < INT32_MIN) pos = INT32_MIN;
    const ixc_rowplan *plan = ixc_stmt_plan(s);
    ixc_batch *b = plan ? ixc_calloc(1, sizeof *b) : NULL;
    if (!b) return ixc_fail(c, IX_ENOMEM, "out of memory");
    ixb_wbuf_init(&b->data, ixc_mem());
    size_t mark = ixc_mark(c);
    ixp_enc_id(ixc_out(c), s->id);
    ixp_enc_sfetch(ixc_out(c), ixc_caps(c), dir, (int32_t)pos,
                   dir == IXP_FETCH_NEXT ? ixc_fetch_size(s) : one_row_size(s));
    ixp_enc_tag(ixc_out(c), IXP_SQ_EOT);
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
    return ixc_scroll_next(s);
}

/* ix_step on a scroll cursor: the next row read ahead, else SFETCH NEXT. */
int ixc_scroll_next(ix_stmt *s) {
    s->has_row = 0;
    s->row_cols = 0;
    ixc_batch *b = s->cur;
    if (b && s->cur_pos < b->data.len) {
        s->spos++;
        return ixc_load_row(s);
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
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (ixc_dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    if (!(s->flags & IX_PREPARE_SCROLL)) return ixc_fail_sql(c, -482, 0, 0, NULL);
    if (s->state == ST_READY) {
        if ((rc = ixc_auto_begin(c, s->sql, s->sql_len)) != IX_OK) return rc;
        if (!s->is_cursor && (rc = ixc_exec_plain(s)) != IX_OK) return rc;
        if (!s->is_cursor) return ixc_fail_sql(c, -482, 0, 0, NULL); /* no rows */
        if (s->state == ST_READY && (rc = ixc_open_cursor(s)) != IX_OK) return rc;
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
int ixc_begin_for(ix_stmt *s) {
    ix_conn *c = s->conn;
    int nb = ixc_set_nb_step(c, 0);
    int rc = ixc_auto_begin(c, s->sql, s->sql_len);
    ixc_set_nb_step(c, nb);
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
            if ((rc = ixc_op_wait(s)) != IX_OK) return rc;
            continue;
        }
        if (s->state == ST_DONE) return IX_DONE;
        if (s->state != ST_READY) break;
        if ((rc = ixc_begin_for(s)) != IX_OK) return rc;
        rc = s->is_cursor ? ixc_open_send(s) : ixc_exec_send(s);
        if (rc != IX_OK) return rc;
    }
    if (s->state == ST_SCROLL) {
        ixc_set_nb_step(c, 0); /* scroll fetches wait */
        return ixc_scroll_next(s);
    }
    return ixc_next_row(s);
}

static __attribute__((noinline)) int step_general(ix_stmt *s) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (ixc_dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    ixc_set_nb_step(c, ixc_nb_mode(c));
    rc = step_run(s);
    ixc_set_nb_step(c, 0);
    return rc;
}

int ix_step(ix_stmt *s) {
    /* The common case first: the next row of the batch being read. */
    ixc_batch *b = s ? s->cur : NULL;
    if (b && s->state == ST_OPEN && s->cur_pos < b->data.len && s->conn && ixc_alive_clear(s->conn))
        return ixc_load_row(s);
    return step_general(s);
}

int ix_reset(ix_stmt *s) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    ixc_free_batches(s);
    if (s->op) ixc_disown_pending(c, s); /* its reply is read and dropped */
    s->op = s->op_done = s->exec_queued = 0;
    if (s->is_cursor && s->state != ST_READY) {
        ixc_disown_pending(c, s);
        s->state = ST_READY;
        if (ixc_is_dead(c)) return IX_ECONN;
        int open = ixc_open_on_server(s);
        s->srv_open = 0;
        if (!open) return IX_OK;
        size_t mark = ixc_mark(c);
        ixp_enc_id(ixc_out(c), s->id);
        ixp_enc_tag(ixc_out(c), IXP_SQ_CLOSE);
        ixp_enc_tag(ixc_out(c), IXP_SQ_EOT);
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
        if (!ixc_is_dead(c) && s->prepared) {
            size_t mark = ixc_mark(c);
            ixp_enc_id(ixc_out(c), s->id);
            ixp_enc_tag(ixc_out(c), IXP_SQ_RELEASE);
            ixp_enc_tag(ixc_out(c), IXP_SQ_EOT);
            ixc_queued(c, mark);
            int r2 = ixc_push_pend(c, PEND_DISCARD, NULL);
            if (rc == IX_OK) rc = r2;
        }
        ixc_disown_pending(c, s);
        ixc_unlink_stmt(s);
    }
    ixc_free_batches(s);
    for (int i = 0; i < s->nparams; i++)
        ixb_wbuf_free(&s->params[i].val);
    ixc_free(s->params);
    ixc_free_param_cols(s);
    ixc_cols_free(s->cols, s->ncols);
    if (s->planned) ixc_rowplan_free(&s->plan);
    ixc_free(s->b_codes);
    ixc_free(s->sql);
    ixc_free(s);
    return rc;
}

int ix_stmt_set_fetch_buffer(ix_stmt *s, int32_t bytes) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    if (bytes < 1 && bytes != IX_FETCH_AUTO)
        return ixc_fail(s->conn, IX_EINVAL,
                        "fetch buffer must be at least 1 byte (or IX_FETCH_AUTO)");
    s->fetch_buffer = bytes;
    return IX_OK;
}

int ix_stmt_set_readahead(ix_stmt *s, int depth) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    if (depth < 0 || depth > 64)
        return ixc_fail(s->conn, IX_EINVAL, "read-ahead depth must be 0..64");
    s->readahead = depth;
    return IX_OK;
}

int ix_stmt_set_cursor_name(ix_stmt *s, const char *name, size_t len) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    if (s->state == ST_OPEN || s->state == ST_SCROLL)
        return ixc_fail(s->conn, IX_EMISUSE, "the cursor is open");
    if (!name) return ixc_fail(s->conn, IX_EINVAL, "no cursor name");
    if (len > PTRDIFF_MAX) len = strlen(name);
    int ok =
        len > 0 && len <= IX_CURSOR_NAME_MAX && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (size_t i = 1; ok && i < len; i++)
        ok = isalnum((unsigned char)name[i]) || name[i] == '_';
    if (!ok) return ixc_fail(s->conn, IX_EINVAL, "a cursor name is an identifier of 1..128 bytes");
    memcpy(s->curname, name, len);
    s->curname[len] = 0;
    s->named = 1;
    s->readahead = 0; /* one row per NFETCH: the server's current row is the one read */
    s->fetch_buffer = 1;
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
    return s->fetch_buffer == IX_FETCH_AUTO ? ixc_auto_first(s) : s->fetch_buffer;
}

int64_t ix_changes(const ix_stmt *s) {
    return s ? s->changes : 0;
}
