/*
 * ix_reply.c: the I/O pump over the transport and the queue of replies still
 * expected (pipelining): requests are encoded into c->st.out (whole groups
 * ending in EOT) and sent by ixc_io, which always also reads whatever the
 * server has sent into the push parser c->rd, so neither side can block the
 * other. Every reply group the connection still expects but has not read is
 * an entry of the FIFO c->pq (read-ahead fetches, CLOSE/RELEASE replies),
 * whose fields only this file touches (ix_reply_int.h); a caller that wants
 * its own reply first drains the FIFO (ixc_drain), then reads. A fetch's
 * batch goes to its statement through ixc_stmt_take_fetch, one call.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/ix_sqlscan.h"
#include "ix_client_int.h"
#include "ix_conn_int.h"

/* ---- I/O ------------------------------------------------------------------ */

int64_t ixc_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t ixc_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define RECV_CHUNK 65536 /* bytes asked of one recv */

static ixc_wire_tap_fn wire_tap;
static void *wire_tap_ud;

/* Sets or removes the process-wide wire tap (ix_client_int.h). Returns
 * nothing. */
void ixc_set_wire_tap(ixc_wire_tap_fn fn, void *ud) {
    wire_tap = fn;
    wire_tap_ud = ud;
}

/* Reads what the transport has straight into the reader's buffer (the only
 * copy before a fetched row is stored in its batch). */
static int do_recv(ix_conn *c) {
    int rc;
    size_t room = RECV_CHUNK;
    uint8_t *buf = ixp_reader_space(&c->rd, &room, &rc);
    if (!buf)
        return ixc_kill(c, rc == IX_ENOMEM ? IX_ENOMEM : IX_EPROTO,
                        "cannot buffer the server's reply: %s", ix_rc_str(rc));
    long k = c->tr->vt->recv(c->tr, buf, room);
    if (k > 0) {
        if (wire_tap) wire_tap(wire_tap_ud, c, 1, buf, (size_t)k);
        ixp_reader_commit(&c->rd, (size_t)k);
        if (c->st.nb || c->csm) c->io_at_ms = ixc_now_ms();
        return IX_OK;
    }
    if (k == 0 && c->st.nb_step) { /* what is buffered is still decoded first */
        c->peer_eof = 1;
        return IX_OK;
    }
    if (k == 0) return ixc_kill(c, IX_ECONN, "the server closed the connection");
    if (k == IXC_IOERR) return ixc_kill(c, IX_ECONN, "%s", c->tr->err);
    return IX_OK; /* would block */
}

static int do_send(ix_conn *c) {
    if (c->st.sent >= c->st.out.len) return IX_OK;
    long k = c->tr->vt->send(c->tr, c->st.out.data + c->st.sent, c->st.out.len - c->st.sent);
    if (k > 0) {
        if (wire_tap) wire_tap(wire_tap_ud, c, 0, c->st.out.data + c->st.sent, (size_t)k);
        c->st.sent += (size_t)k;
        c->sent_since_read = 1;
        if (c->st.sent == c->st.out.len) {
            ixb_wbuf_reset(&c->st.out);
            c->st.sent = 0;
        } else if (c->st.sent >= 65536 && c->st.sent * 2 >= c->st.out.len) {
            /* A pipelined batch never empties the buffer: drop the sent part. */
            memmove(c->st.out.data, c->st.out.data + c->st.sent, c->st.out.len - c->st.sent);
            c->st.out.len -= c->st.sent;
            c->st.sent = 0;
        }
        return IX_OK;
    }
    if (k == IXC_IOERR) return ixc_kill(c, IX_ECONN, "%s", c->tr->err);
    return IX_OK;
}

/* Whether the oldest reply still expected is one of a request that runs no
 * user statement: a CLOSE or RELEASE, or a PREPARE sent on its own. */
static int ctl_pending(const ix_conn *c) {
    if (c->pq.len == 0) return 0;
    const ixc_pend *e = &c->pq.v[c->pq.head];
    return e->kind == PEND_DISCARD ||
           (e->kind == PEND_OP && e->owner && ixc_stmt_op(e->owner) == IXC_OP_PREPARE);
}

int ixc_wait_limit_ms(const ix_conn *c) {
    int rt = c->read_timeout_ms, wd = c->watchdog_ms;
    if (wd <= 0 || !(c->ctl_wait || ctl_pending(c))) return rt;
    return rt > 0 && rt < wd ? rt : wd;
}

int ixc_timed_out(ix_conn *c, int limit) {
    if (limit != c->read_timeout_ms)
        return ixc_kill(c, IX_ETIMEOUT,
                        "the server did not answer a request that runs no statement (CLOSE, "
                        "RELEASE or PREPARE) within %d ms (the watchdog; DSN key watchdog)",
                        limit);
    return ixc_kill(c, IX_ETIMEOUT, "timed out after %d ms waiting for the server", limit);
}

/* One round: waits (up to the read timeout) until the socket is readable,
 * or writable when want_write and output is pending, and moves bytes. */
static int nb_io(ix_conn *c, int wr);

int ixc_io(ix_conn *c, int want_write) {
    if (c->st.dead) return ixc_dead_rc(c);
    if (c->st.out.err)
        return ixc_kill(c, c->st.out.err, "cannot encode the request: %s",
                        ix_rc_str(c->st.out.err));
    int wr = want_write && c->st.sent < c->st.out.len;
    if (c->peer_eof && !wr) return ixc_kill(c, IX_ECONN, "the server closed the connection");
    if (c->st.nb_step) return nb_io(c, wr);
    if (c->tr->vt->pending(c->tr) > 0) return do_recv(c);
    if (c->tr->fd < 0) { /* memory transport: always ready */
        return wr ? do_send(c) : do_recv(c);
    }
    int limit = ixc_wait_limit_ms(c);
    int64_t deadline = limit > 0 ? ixc_now_ms() + limit : 0;
    for (;;) {
        struct pollfd pf = {c->tr->fd, (short)((c->peer_eof ? 0 : POLLIN) | (wr ? POLLOUT : 0)), 0};
        int ms = -1;
        if (deadline) {
            int64_t left = deadline - ixc_now_ms();
            ms = left > 0 ? (int)left : 0;
        }
        int k = poll(&pf, 1, ms);
        if (k < 0) {
            if (errno == EINTR) {
                if (c->on_signal && c->on_signal(c->on_signal_ud)) ix_cancel(c);
                continue;
            }
            return ixc_kill(c, IX_ECONN, "poll: %s", strerror(errno));
        }
        if (k == 0) return ixc_timed_out(c, limit);
        int rc = IX_OK;
        if (!c->peer_eof && (pf.revents & (POLLIN | POLLERR | POLLHUP))) rc = do_recv(c);
        if (rc == IX_OK && !c->st.dead && (pf.revents & POLLOUT)) rc = do_send(c);
        return rc;
    }
}

/* Non-blocking mode's round: moves what the socket takes and has, without
 * waiting. IX_OK when bytes moved, else IX_WANT_WRITE (output is pending)
 * or IX_WANT_READ; or a connection error. */
static int nb_io(ix_conn *c, int wr) {
    size_t left = c->st.out.len - c->st.sent, have = ixp_reader_pending(&c->rd);
    int rc = wr ? do_send(c) : IX_OK;
    if (rc == IX_OK && !c->st.dead && !c->peer_eof) rc = do_recv(c);
    if (rc != IX_OK) return rc;
    if (c->st.out.len - c->st.sent != left || ixp_reader_pending(&c->rd) != have) return IX_OK;
    return c->st.sent < c->st.out.len ? IX_WANT_WRITE : IX_WANT_READ;
}

/* Writes without waiting while the socket takes bytes. */
static int nb_write(ix_conn *c) {
    while (!c->st.dead && c->st.sent < c->st.out.len) {
        size_t left = c->st.out.len - c->st.sent;
        int rc = do_send(c);
        if (rc != IX_OK) return rc;
        if (c->st.out.len - c->st.sent == left) break;
    }
    return c->st.dead ? ixc_dead_rc(c) : IX_OK;
}

/* Reads without waiting (at most a few chunks per call). IX_OK or a
 * connection error. */
static int nb_read(ix_conn *c) {
    for (int i = 0; i < 16 && !c->st.dead && !c->peer_eof; i++) {
        size_t have = ixp_reader_pending(&c->rd);
        int rc = do_recv(c);
        if (rc != IX_OK) return rc;
        if (ixp_reader_pending(&c->rd) == have && c->tr->vt->pending(c->tr) == 0) break;
    }
    return IX_OK;
}

int ixc_nb_want(const ix_conn *c) {
    return c->st.sent < c->st.out.len ? IX_WANT_WRITE : IX_WANT_READ;
}

/* Non-blocking I/O for ix_nb.c: writes and reads what the socket allows. */
int ixc_nb_io(ix_conn *c) {
    if (c->st.dead) return ixc_dead_rc(c);
    if (!c->tr) return ixc_kill(c, IX_ECONN, "not connected");
    if (c->st.out.err)
        return ixc_kill(c, c->st.out.err, "cannot encode the request: %s",
                        ix_rc_str(c->st.out.err));
    int rc = nb_write(c);
    if (rc == IX_OK) rc = nb_read(c);
    if (rc == IX_OK) rc = nb_write(c);
    return rc;
}

int ixc_flush(ix_conn *c) {
    if (c->st.nb_step || c->nb_decoding) return c->st.dead ? ixc_dead_rc(c) : nb_write(c);
    while (!c->st.dead && c->st.sent < c->st.out.len) {
        int rc = ixc_io(c, 1);
        if (rc != IX_OK) return rc;
    }
    return c->st.dead ? ixc_dead_rc(c) : IX_OK;
}

/* An EOT ended the answer to the oldest group in flight. */
static void group_answered(ix_conn *c) {
    ixc_nb_group_read(c);
    if (atomic_load(&c->inflight) > 0) atomic_fetch_sub(&c->inflight, 1);
    int w = atomic_load(&c->cancel_wait);
    /* only ix_cancel raises it, and only from 0: no lost update */
    if (w > 0) atomic_compare_exchange_strong(&c->cancel_wait, &w, w - 1);
}

int ixc_next_msg(ix_conn *c, ixp_msg *m) {
    for (;;) {
        /* Replies already received are still read after the connection
         * died (a batch reports every row that got its answer). */
        int rc = ixp_reader_pending(&c->rd) > 0 ? ixp_reader_next(&c->rd, m) : IX_NEED_MORE;
        if (rc == IX_OK && m->tag == IXP_SQ_EOT) group_answered(c);
        if (rc == IX_OK && m->tag == IXP_MSG_LOGIN) ixc_nb_group_read(c);
        if (rc == IX_OK && c->sent_since_read) {
            /* the first reply message read since a request went out */
            c->roundtrips++;
            c->sent_since_read = 0;
        }
        if (rc == IX_OK && m->tag == IXP_SQ_FILE) { /* a request inside a reply: answer it */
            if (!c->is_ixd) /* IBM's SQ_FILE is only partly published (docs/protocol.md) */
                return ixc_kill(c, IX_ENOTSUP,
                                "the server asked for a client file (SQ_FILE, LOTOFILE or "
                                "FILETOBLOB with 'client'); libixdb speaks that exchange with "
                                "ixd only");
            if (ixc_tracing(c)) {
                ixp_print_msg(&c->pr_in, IXP_FROM_SERVER, m, &c->line);
                ixc_emit_line(c, "S->C");
            }
            if ((rc = ixc_file_answer(c, m)) != IX_OK) return rc;
            continue;
        }
        if (rc == IX_OK) {
            if (ixc_tracing(c)) {
                if (m->tag == IXP_MSG_LOGIN)
                    ixp_login_print(m->u.login.packet.p, m->u.login.packet.n, &c->line);
                else
                    ixp_print_msg(&c->pr_in, IXP_FROM_SERVER, m, &c->line);
                ixc_emit_line(c, "S->C");
            }
            return IX_OK;
        }
        if (rc == IX_NEED_MORE && c->st.dead) return ixc_dead_rc(c);
        if (rc != IX_NEED_MORE) {
            const char *why = ixp_reader_why(&c->rd);
            return ixc_kill(c, IX_EPROTO, "lost sync with the server at byte %llu: %s",
                            (unsigned long long)ixp_reader_offset(&c->rd),
                            why ? why : ix_rc_str(rc));
        }
        rc = ixc_io(c, 1);
        if (rc != IX_OK) return rc;
    }
}

/* The largest batch buffer a connection keeps as its spare. */
#define SPARE_MAX (4 * RECV_CHUNK)

void ixc_batch_release(ix_conn *c, ixc_batch *b) {
    if (c && b && !c->spare && b->data.cap <= SPARE_MAX) {
        ixc_batch *rest = b->next;
        b->next = NULL;
        c->spare = b;
        b = rest;
    }
    ixc_batch_free(b);
}

/* A batch for a fetch reply: the spare, emptied, or a new one with room for
 * asked bytes (up to RECV_CHUNK: fewer reallocs). NULL: out of memory. */
static ixc_batch *batch_for(ix_conn *c, int32_t asked) {
    ixc_batch *b = c->spare;
    if (b) {
        c->spare = NULL;
        ixb_wbuf w = b->data;
        ixb_wbuf_reset(&w);
        memset(b, 0, sizeof *b);
        b->data = w;
    } else {
        b = ixc_calloc(1, sizeof *b);
        if (!b) return NULL;
        ixb_wbuf_init(&b->data, ixc_mem());
    }
    ixb_wbuf_reserve(&b->data, asked > 0 && asked < RECV_CHUNK ? (size_t)asked : RECV_CHUNK);
    return b;
}

void ixc_batch_free(ixc_batch *b) {
    while (b) {
        ixc_batch *n = b->next;
        ixb_wbuf_free(&b->data);
        ixc_free(b);
        b = n;
    }
}

void ixc_cols_free(ixc_col *cols, int n) {
    if (!cols) return;
    for (int i = 0; i < n; i++) {
        ixc_free(cols[i].name);
        ixc_free(cols[i].decl);
        ixb_wbuf_free(&cols[i].text);
    }
    ixc_free(cols);
}

void ixc_reply_free(ixc_reply *r) {
    ixc_cols_free(r->cols, r->ncols);
    r->cols = NULL;
    r->ncols = 0;
}

static void set_caps(ix_conn *c, const ixp_caps *caps) {
    c->scan_off = 0; /* bytes after this message decode with the new caps: scan again */
    c->scan_groups = 0;
    c->scan_bad = 0;
    c->caps = *caps;
    c->rd.caps = *caps;
    c->pr_in.caps = *caps;
    c->pr_out.caps = *caps;
}

static int copy_describe(ix_conn *c, const ixp_msg *m, ixc_reply *r) {
    r->stmt_type = m->u.describe.stmt_type;
    r->stmt_id = m->u.describe.stmt_id;
    r->tuple_size = m->u.describe.tuple_size;
    r->has_describe = 1;
    if (!r->want_describe) return IX_OK;
    int n = m->u.describe.ncols;
    ixc_cols_free(r->cols, r->ncols);
    r->ncols = 0;
    r->cols = n > 0 ? ixc_calloc((size_t)n, sizeof *r->cols) : NULL;
    if (n > 0 && !r->cols) return ixc_kill(c, IX_ENOMEM, "out of memory");
    size_t pos = 0;
    ixp_column col;
    while (r->ncols < n && ixp_describe_next(m, &pos, &col)) {
        ixc_col *d = &r->cols[r->ncols++];
        char xn[64] = "";
        if (col.xname.n < sizeof xn) memcpy(xn, col.xname.p, col.xname.n);
        d->vt.code = ixt_vtype_resolve(col.type & 0xff, xn);
        d->lob_type = ixc_lob_type_of(col.type, xn);
        d->vt.enclen = (uint32_t)col.enclen;
        d->type = col.type;
        d->name = ixc_malloc(col.name.n + 1);
        if (!d->name) return ixc_kill(c, IX_ENOMEM, "out of memory");
        memcpy(d->name, col.name.p, col.name.n);
        d->name[col.name.n] = 0;
        ixb_wbuf_init(&d->text, ixc_mem());
    }
    return IX_OK;
}

/*
 * What a reply says about the server's transaction moves c->in_txn, on
 * every path (one-shot, statements, pipelined batches, fetches):
 *   SQ_XACTSTAT       new level 0: no transaction; otherwise one is open.
 *                     (Event and level values are unresolved for real
 *                     servers, sqli-protocol.md §8 #17; ixd sends event 2
 *                     and level 1 inside a transaction, 0 outside.)
 *   SQ_ERR -255 / -256 / -458: no transaction (none open, none possible,
 *                     or the server rolled it back).
 *   SQ_ERR -535       a transaction is open.
 */
static void txn_from_err(ix_conn *c, int sqlcode) {
    switch (sqlcode) {
    case IX_SQLCODE_NOT_IN_TXN:
    case IX_SQLCODE_TXN_UNAVAILABLE:
    case IX_SQLCODE_LONG_TXN_ABORTED: ixc_txn_ended(c); break;
    case IX_SQLCODE_ALREADY_IN_TXN: c->in_txn = 1; break;
    }
}

/* A tuple that is not one row of the statement's plan: the stream cannot be
 * trusted any more (as for any protocol error, the connection is closed). */
static __attribute__((noinline)) int bad_tuple(ix_conn *c, const ixc_rowplan *p, int rc, int col,
                                               size_t n) {
    if (rc == IX_ELIMIT)
        return ixc_kill(c, IX_EPROTO,
                        "malformed row from the server: bytes after column %d (%zu bytes)",
                        p->ncols, n);
    const char *tn = ixt_type_name(p->col[col].vt.code);
    if (rc == IX_EINVAL)
        return ixc_kill(c, IX_EPROTO, "cannot walk column %d (%s) of a row: unknown layout",
                        col + 1, tn ? tn : "unknown type");
    return ixc_kill(
        c, IX_EPROTO, "malformed row from the server: %s in column %d (%s), row of %zu bytes",
        rc == IX_NEED_MORE ? "the row ends" : "bad length", col + 1, tn ? tn : "unknown type", n);
}

/* Appends one SQ_TUPLE's payload t[0..n) to b as a record of p
 * (ix_rowplan.h, "Records"), checked and copied in one pass. */
static inline __attribute__((always_inline)) int
take_tuple(ix_conn *c, const ixc_rowplan *p, ixc_batch *b, const uint8_t *t, size_t n) {
    ixb_wbuf *w = &b->data;
    if (n > UINT32_MAX / 2) return bad_tuple(c, p, IX_ELIMIT, p->ncols, n);
    size_t need = ixc_rowplan_rec_size(p, n);
    if (w->cap - w->len < need && ixb_wbuf_reserve(w, need) != IX_OK)
        return ixc_kill(c, IX_ENOMEM, "out of memory for a fetched row");
    int col = 0;
    int rc = ixc_rowplan_take(p, t, n, w->data + w->len, &col);
    if (rc != IX_OK) return bad_tuple(c, p, rc, col, n);
    w->len += need;
    b->ntuples++;
    return IX_OK;
}

/* Takes the SQ_TUPLEs wholly buffered in c's reader into r->tuples (the
 * rows' fast path: no general decode). */
static int take_tuples(ix_conn *c, ixc_reply *r) {
    const ixc_rowplan *p = r->plan;
    ixc_batch *b = r->tuples;
    const uint8_t *t;
    size_t n;
    if (!r->first_us && ixp_reader_pending(&c->rd)) r->first_us = ixc_now_us();
    if (!ixp_reader_tuples_ok(&c->rd)) return IX_OK;
    while (ixp_reader_take_tuple(&c->rd, &t, &n)) {
        int rc = take_tuple(c, p, b, t, n);
        if (rc != IX_OK) return rc;
    }
    return IX_OK;
}

static void take_done(ixc_reply *r, const ixp_msg *m) {
    r->has_done = 1;
    r->rows = m->u.done.rows;
    r->rowid = m->u.done.rowid;
    r->serial = m->u.done.serial;
    r->done_warnings = m->u.done.warnings;
}

/* A reply of DONE, COST and EOT alone, wholly buffered (each row of a
 * pipelined batch): read in one step, with what ixc_next_msg does for its
 * first message and its EOT. Returns 1, or 0 with nothing read. */
static int read_done_group(ix_conn *c, ixc_reply *r) {
    ixp_msg m;
    if (r->tuples || r->stop_at_done || ixc_tracing(c) || !ixp_reader_done_group(&c->rd, &m))
        return 0;
    if (c->sent_since_read) {
        c->roundtrips++;
        c->sent_since_read = 0;
    }
    group_answered(c);
    take_done(r, &m);
    r->at_eot = 1;
    return 1;
}

/* Reads one reply group (up to its EOT) into *r. Returns IX_OK (a server
 * error is in r->sqlcode, not in the return value), or a connection error. */
int ixc_read_reply(ix_conn *c, ixc_reply *r) {
    ixp_msg m;
    if (read_done_group(c, r)) return IX_OK;
    int fast = r->tuples && !ixc_tracing(c);
    for (;;) {
        int rc;
        if (fast && (rc = take_tuples(c, r)) != IX_OK) return rc;
        rc = ixc_next_msg(c, &m);
        if (rc != IX_OK) return rc;
        if (r->tuples && !r->first_us) r->first_us = ixc_now_us(); /* fetch timing only */
        switch (m.tag) {
        case IXP_SQ_EOT:
            if (r->tuples) r->end_us = ixc_now_us();
            r->at_eot = 1;
            return IX_OK;
        case IXP_SQ_ERR:
            txn_from_err(c, m.u.err.sqlcode);
            if (!r->sqlcode) {
                r->sqlcode = m.u.err.sqlcode ? m.u.err.sqlcode : -1;
                r->isamcode = m.u.err.isamcode;
                r->offset = m.u.err.offset;
                size_t n = m.u.err.msg.n < sizeof r->msg - 1 ? m.u.err.msg.n : sizeof r->msg - 1;
                memcpy(r->msg, m.u.err.msg.p, n);
                r->msg[n] = 0;
            }
            break;
        case IXP_SQ_DONE:
            take_done(r, &m);
            if (r->stop_at_done) return IX_OK;
            break;
        case IXP_SQ_INSERTDONE:
            r->has_insertdone = 1;
            r->serial8 = m.u.insertdone.serial8;
            r->bigserial = m.u.insertdone.has_bigserial ? m.u.insertdone.bigserial : 0;
            break;
        case IXP_SQ_DESCRIBE:
            if ((rc = copy_describe(c, &m, r)) != IX_OK) return rc;
            break;
        case IXP_SQ_TUPLE:
            if (r->tuples && (rc = take_tuple(c, r->plan, r->tuples, m.u.tuple.data.p,
                                              m.u.tuple.data.n)) != IX_OK)
                return rc;
            break;
        case IXP_SQ_XACTSTAT:
            r->has_xact = 1;
            c->in_txn = m.u.xactstat.new_level != 0;
            break;
        case IXP_SQ_PROTOCOLS: {
            ixp_caps caps = ixp_caps_from_bits(m.u.protocols.p, m.u.protocols.n);
            set_caps(c, &caps);
            break;
        }
        case IXP_SQ_EXIT: return ixc_kill(c, IX_ECONN, "the server ended the session");
        case IXP_SQ_CLOSE: /* server auto-closed the cursor: end of data */ r->has_done = 1; break;
        case IXP_SQ_TUPID: /* a scroll fetch: the position of its first row */
            if (!r->has_tupid) r->tupid = m.u.tupid;
            r->has_tupid = 1;
            break;
        case IXP_SQ_COST:
        case IXP_SQ_GENKEYS_REPLY: break;
        default:
            return ixc_kill(c, IX_EPROTO, "unexpected %s in a reply",
                            ixp_tag_name(m.tag) ? ixp_tag_name(m.tag) : "message");
        }
    }
}

/* ---- the queue of expected replies ------------------------------------------- */

int ixc_push_pend(ix_conn *c, int kind, ix_stmt *owner) {
    return ixc_push_pend_entry(c, (ixc_pend){kind, owner, ixc_now_us(), 0, 0}, 0);
}

#define PEND_CAP_FIRST 16 /* entries of a queue's first ring */

/* Makes room for one more entry (the ring doubles, in order from head 0). */
static int pend_grow(ix_conn *c) {
    ixc_pendq *q = &c->pq;
    if (q->len < q->cap) return IX_OK;
    size_t cap = q->cap ? q->cap * 2 : PEND_CAP_FIRST;
    ixc_pend *p = ixc_malloc(cap * sizeof *p);
    if (!p) return ixc_kill(c, IX_ENOMEM, "out of memory");
    for (size_t i = 0; i < q->len; i++)
        p[i] = q->v[(q->head + i) % q->cap];
    ixc_free(q->v);
    q->v = p;
    q->cap = cap;
    q->head = 0;
    return IX_OK;
}

int ixc_push_pend_entry(ix_conn *c, ixc_pend e, int front) {
    int rc = pend_grow(c);
    if (rc != IX_OK) return rc;
    ixc_pendq *q = &c->pq;
    if (front) {
        q->head = (q->head + q->cap - 1) % q->cap;
        q->v[q->head] = e;
    } else {
        q->v[(q->head + q->len) % q->cap] = e;
    }
    q->len++;
    return IX_OK;
}

size_t ixc_pend_count(const ix_conn *c) {
    return c->pq.len;
}

void ixc_pend_disown(ix_conn *c, const ix_stmt *s) {
    const ixc_pendq *q = &c->pq;
    for (size_t i = 0; i < q->len; i++) {
        ixc_pend *e = &q->v[(q->head + i) % q->cap];
        if (e->owner == s) e->owner = NULL;
    }
}

void ixc_pend_clear(ix_conn *c) {
    c->pq.head = c->pq.len = 0;
}

void ixc_pend_free(ix_conn *c) {
    ixc_free(c->pq.v);
    c->pq = (ixc_pendq){0};
}

/* A statement's request (PEND_OP): its op handler decodes one reply group
 * (the entry stays until every group it expects has been read). */
static int pend_op(ix_conn *c) {
    ixc_pend *f = &c->pq.v[c->pq.head];
    ix_stmt *s = f->owner;
    int last = --f->groups <= 0;
    if (last) {
        c->pq.head = (c->pq.head + 1) % c->pq.cap;
        c->pq.len--;
    }
    if (s) return ixc_stmt_op_reply(s, last);
    ixc_reply r;
    memset(&r, 0, sizeof r);
    return ixc_read_reply(c, &r);
}

/* Reads the reply for the oldest pending entry (c->ctl_wait says meanwhile
 * whether the watchdog applies). */
static int pend_one(ix_conn *c);

int ixc_pend_one(ix_conn *c) {
    int save = c->ctl_wait;
    c->ctl_wait = ctl_pending(c);
    int rc = pend_one(c);
    c->ctl_wait = save;
    return rc;
}

static int pend_one(ix_conn *c) {
    if (c->pq.v[c->pq.head].kind == PEND_OP) return pend_op(c);
    ixc_pend e = c->pq.v[c->pq.head];
    c->pq.head = (c->pq.head + 1) % c->pq.cap;
    c->pq.len--;
    ixc_reply r;
    ixc_reply_clear(&r);
    ixc_batch *b = NULL;
    if (e.kind == PEND_FETCH && e.owner) {
        if (!(b = batch_for(c, e.asked))) return ixc_kill(c, IX_ENOMEM, "out of memory");
        r.tuples = b;
        r.plan = ixc_stmt_plan(e.owner);
    }
    uint64_t at = ixp_reader_offset(&c->rd);
    int rc = b && !r.plan ? ixc_kill(c, IX_ENOMEM, "out of memory") : ixc_read_reply(c, &r);
    if (e.kind == PEND_FETCH && e.owner) {
        if (rc != IX_OK) {
            ixc_batch_release(c, b);
            b = NULL;
        }
        ixc_stmt_take_fetch(e.owner, b, &r, &e, (int64_t)(ixp_reader_offset(&c->rd) - at));
    }
    return rc;
}

/* In non-blocking mode: the oldest pending reply when it has arrived
 * whole, else IX_WANT_READ / IX_WANT_WRITE. */
static __attribute__((noinline)) int pend_one_nb(ix_conn *c) {
    int want = IX_WANT_READ;
    int k = ixc_nb_ready(c, &want);
    if (k <= 0) return k < 0 ? k : want;
    c->st.nb_step = 0; /* the reply is buffered: nothing waits (but rare second round trips) */
    c->nb_decoding++;
    int rc = ixc_pend_one(c);
    c->nb_decoding--;
    c->st.nb_step = 1;
    return rc;
}

int ixc_pend_step(ix_conn *c) {
    int rc = c->st.sent < c->st.out.len ? ixc_flush(c) : IX_OK;
    if (rc == IX_OK) rc = c->st.nb_step ? pend_one_nb(c) : ixc_pend_one(c);
    return rc;
}

int ixc_drain(ix_conn *c) {
    while (c->pq.len > 0) {
        int rc = ixc_flush(c);
        if (rc == IX_OK) rc = c->st.nb_step ? pend_one_nb(c) : ixc_pend_one(c);
        if (rc != IX_OK) return rc;
    }
    return IX_OK;
}

/* Drains until stmt has a read-ahead batch (or nothing is pending). */
int ixc_drain_for(ix_conn *c, ix_stmt *s) {
    while (c->pq.len > 0 && !ixc_stmt_has_batch(s)) {
        int rc = ixc_flush(c);
        if (rc == IX_OK) rc = c->st.nb_step ? pend_one_nb(c) : ixc_pend_one(c);
        if (rc != IX_OK) return rc;
    }
    return IX_OK;
}
