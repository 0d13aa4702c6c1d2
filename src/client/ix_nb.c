/*
 * ix_nb.c: non-blocking use of a connection (include/ixdb.h,
 * "non-blocking"): the mode switch, the socket and deadlines the event loop
 * waits on, ix_flush / ix_consume_input / ix_is_busy.
 *
 * The one rule that makes every reply handler work unchanged in both modes:
 * in non-blocking mode a reply group is decoded only once it has arrived
 * whole. The buffered input is scanned (a copy of the reader decodes message
 * boundaries; nothing is consumed) and the groups it holds are counted:
 * every SQ_EOT, and the login packet, ends one. The scan resumes where it
 * stopped, so each byte is scanned once.
 */
#include <limits.h>
#include <string.h>

#include "ix_client_int.h"
#include "ix_conn_int.h"

/* Whole reply groups buffered and not yet decoded. */
static int64_t groups_buffered(ix_conn *c) {
    uint64_t at = ixp_reader_offset(&c->rd);
    if (c->scan_off < at) { /* decoded past the scan (blocking calls) */
        c->scan_off = at;
        c->scan_groups = 0;
        c->scan_bad = 0;
    }
    if (c->scan_bad) return INT64_MAX; /* let the decoder report the error */
    ixp_reader cp = c->rd;
    if (c->scan_off > at) cp.expect_login = 0; /* the login packet is behind the scan */
    cp.start += (size_t)(c->scan_off - at);
    for (;;) {
        ixp_msg m;
        int rc = ixp_reader_next(&cp, &m);
        if (rc == IX_NEED_MORE) break;
        if (rc != IX_OK) {
            c->scan_bad = 1;
            return INT64_MAX;
        }
        /* an SQ_FILE request is answered by the decoder, which then waits
         * for the rest of its reply (the server sends it once answered) */
        if (m.tag == IXP_SQ_EOT || m.tag == IXP_MSG_LOGIN || m.tag == IXP_SQ_FILE) c->scan_groups++;
        c->scan_off = ixp_reader_offset(&cp);
    }
    return c->scan_groups;
}

/* The read timeout of an awaited reply: IX_ETIMEOUT once it has expired. */
static int check_timeout(ix_conn *c) {
    int limit = ixc_wait_limit_ms(c);
    if (limit <= 0 || ixc_pend_count(c) == 0 || c->st.dead) return IX_OK;
    if (ixc_now_ms() - c->io_at_ms < limit) return IX_OK;
    return ixc_timed_out(c, limit);
}

int ixc_nb_ready(ix_conn *c, int *want) {
    if (groups_buffered(c) > 0) return 1;
    int rc = ixc_nb_io(c);
    /* what arrived before the connection broke still counts (not after a
     * failure of this side, such as memory) */
    if (rc != IX_OK && rc != IX_ECONN) return rc;
    if (groups_buffered(c) > 0) return 1;
    if (rc != IX_OK) return rc;
    if (c->peer_eof) return ixc_kill(c, IX_ECONN, "the server closed the connection");
    if ((rc = check_timeout(c)) != IX_OK) return rc;
    *want = ixc_nb_want(c);
    return 0;
}

/* Decodes every reply that has arrived whole (handlers run with nb_step
 * cleared: their bytes are buffered). */
static int decode_ready(ix_conn *c) {
    int save = c->st.nb_step;
    int rc = IX_OK;
    c->st.nb_step = 0;
    c->nb_decoding++;
    while (rc == IX_OK && ixc_pend_count(c) > 0 && groups_buffered(c) > 0)
        rc = ixc_pend_one(c);
    c->nb_decoding--;
    c->st.nb_step = save;
    return rc;
}

int ixc_nb_pump(ix_conn *c) {
    int rc = ixc_nb_io(c);
    int drc = decode_ready(c);
    if (rc == IX_OK) rc = drc;
    if (rc == IX_OK && ixc_pend_count(c) > 0 && groups_buffered(c) == 0) {
        if (c->peer_eof) return ixc_kill(c, IX_ECONN, "the server closed the connection");
        rc = check_timeout(c);
    }
    return rc;
}

int ix_socket(const ix_conn *c) {
    if (!c || c->st.dead || !c->tr) return -1;
    return c->tr->fd;
}

int ix_set_nonblocking(ix_conn *c, int on) {
    if (!c) return IX_EMISUSE;
    if (on) {
        if (!c->st.nb) c->io_at_ms = ixc_now_ms();
        c->st.nb = 1;
        return IX_OK;
    }
    if (!c->st.nb) return IX_OK;
    c->st.nb = 0;
    if (c->st.dead || c->csm) return IX_OK;
    return ixc_drain(c);
}

int ix_is_nonblocking(const ix_conn *c) {
    return c && c->st.nb;
}

int ix_flush(ix_conn *c) {
    if (!c) return IX_EMISUSE;
    if (c->st.dead) return ixc_check(c);
    if (c->csm) return IX_OK;
    /* it reads too (a server blocked on its writes must be drained for it to
     * read ours), so it decodes what arrived whole, as ix_consume_input:
     * no reply may wait in our buffer while the socket is quiet */
    c->st.nb_step = 1;
    int rc = ixc_nb_pump(c);
    c->st.nb_step = 0;
    if (rc != IX_OK) return rc;
    return c->st.sent < c->st.out.len ? IX_WANT_WRITE : IX_OK;
}

int ix_consume_input(ix_conn *c) {
    if (!c) return IX_EMISUSE;
    if (c->csm) return IX_OK; /* connecting: ix_connect_poll reads */
    if (c->st.dead) {
        int rc = decode_ready(c); /* replies that arrived before it died */
        return rc != IX_OK ? rc : ixc_check(c);
    }
    c->st.nb_step = 1;
    int rc = ixc_nb_pump(c);
    c->st.nb_step = 0;
    return rc;
}

int ix_is_busy(const ix_conn *c) {
    if (!c || c->st.dead) return 0;
    return ixc_pend_count(c) > 0;
}

int ix_timeout_ms(const ix_conn *c) {
    if (!c) return -1;
    int64_t at = 0;
    if (c->csm) {
        int64_t ixc_connsm_deadline(const ix_conn *conn);
        at = ixc_connsm_deadline(c);
    } else if (!c->st.dead && ixc_pend_count(c) > 0) {
        int limit = ixc_wait_limit_ms(c);
        if (limit > 0) at = c->io_at_ms + limit;
    }
    if (at <= 0) return -1;
    int64_t left = at - ixc_now_ms();
    return left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left;
}
