/* ix_reader.c: push parser over an SQLI byte stream. */
#include "ix_reader.h"

#include <string.h>

#include "ix_login.h"

void ixp_reader_init(ixp_reader *r, ixp_role role, const ixb_alloc *alloc) {
    memset(r, 0, sizeof *r);
    r->role = role;
    r->alloc = alloc;
    r->expect_login = 1;
}

void ixp_reader_free(ixp_reader *r) {
    ixb_free(r->alloc, r->buf);
    r->buf = NULL;
    r->start = r->end = r->cap = 0;
}

uint8_t *ixp_reader_space(ixp_reader *r, size_t *want, int *rc) {
    *rc = r->err;
    if (r->err) return NULL;
    size_t max = r->max_buffer ? r->max_buffer : (64u << 20) + (64u << 10);
    size_t pending = r->end - r->start;
    if (pending >= max) return *rc = IX_ELIMIT, NULL;
    if (*want > max - pending) *want = max - pending;
    size_t n = *want;
    if (r->start > 0) { /* compact: the previous message is no longer valid */
        memmove(r->buf, r->buf + r->start, pending);
        r->base += r->start;
        r->start = 0;
        r->end = pending;
    }
    if (r->end + n > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->end + n)
            cap *= 2;
        uint8_t *b = ixb_realloc(r->alloc, r->buf, cap);
        if (!b) return *rc = IX_ENOMEM, NULL;
        r->buf = b;
        r->cap = cap;
    }
    return r->buf + r->end;
}

void ixp_reader_commit(ixp_reader *r, size_t n) {
    r->end += n;
}

int ixp_reader_feed(ixp_reader *r, const void *p, size_t n) {
    if (r->err) return r->err;
    if (n == 0) return IX_OK;
    int rc;
    size_t room = n;
    uint8_t *d = ixp_reader_space(r, &room, &rc);
    if (!d) return rc;
    if (room < n) return IX_ELIMIT;
    memcpy(d, p, n);
    r->end += n;
    return IX_OK;
}

/* The fixed-size messages a server ends every statement's reply with (EOT,
 * DONE, COST: a pipelined batch reads them once per row) decoded in place,
 * as ixp_msg_decode decodes them (test_reader_small in tests/unit/test_msg.c
 * compares the two). Returns their size with *m filled (its union member alone), or
 * 0 when the message is another one or not wholly buffered. */
static size_t next_small(const ixp_reader *r, const uint8_t *p, size_t n, ixp_msg *m) {
    if (r->role != IXP_FROM_SERVER || n < 2) return 0;
    int tag = (int16_t)ixb_be16(p);
    size_t len;
    switch (tag) {
    case IXP_SQ_EOT: len = IXP_EOT_LEN; break;
    case IXP_SQ_COST: /* §3.9 i32 estimated rows, i32 estimated cost */
        if (n < (len = IXP_COST_LEN)) return 0;
        m->u.cost.est_rows = (int32_t)ixb_be32(p + 2);
        m->u.cost.est_cost = (int32_t)ixb_be32(p + 6);
        break;
    case IXP_SQ_DONE: /* §3.9 i16 warnings, rows, rowid (i64 with f70, else i32), i32 serial */
        if (n < (len = r->caps.f70 ? IXP_DONE_LEN_F70 : IXP_DONE_LEN)) return 0;
        m->u.done.warnings = (int16_t)ixb_be16(p + 2);
        if (r->caps.f70) {
            m->u.done.rows = (int64_t)ixb_be64(p + 4);
            m->u.done.rowid = (int64_t)ixb_be64(p + 12);
            m->u.done.serial = (int32_t)ixb_be32(p + 20);
        } else {
            m->u.done.rows = (int32_t)ixb_be32(p + 4);
            m->u.done.rowid = (int32_t)ixb_be32(p + 8);
            m->u.done.serial = (int32_t)ixb_be32(p + 12);
        }
        break;
    default: return 0;
    }
    m->tag = tag;
    m->len = len;
    return len;
}

int ixp_reader_next(ixp_reader *r, ixp_msg *m) {
    if (r->err) return r->err;
    size_t n = r->end - r->start;
    if (n == 0) return IX_NEED_MORE;
    const uint8_t *p = r->buf + r->start;
    size_t small = r->expect_login ? 0 : next_small(r, p, n, m);
    if (small) {
        r->start += small;
        return IX_OK;
    }
    size_t at = 0;
    const char *why = NULL;
    int rc;
    if (r->expect_login) {
        ixp_sl_hdr h;
        rc = ixp_sl_peek(p, n, &h);
        if (rc == IX_OK) {
            memset(m, 0, sizeof *m);
            m->tag = IXP_MSG_LOGIN;
            m->len = h.total;
            m->u.login.sl_type = h.type;
            m->u.login.packet.p = p;
            m->u.login.packet.n = h.total;
            r->expect_login = 0;
        } else if (rc != IX_NEED_MORE) {
            why = "bad SL login header";
        }
    } else {
        /* ixp_msg_decode fills the defaults into its own copy */
        rc = ixp_msg_decode(p, n, r->role, &r->caps, &r->lim, m, &at, &why);
    }
    if (rc == IX_OK) {
        r->start += m->len;
        return IX_OK;
    }
    if (rc == IX_NEED_MORE) return rc;
    r->err = rc;
    r->err_at = r->base + r->start + at;
    r->why = why;
    return rc;
}

size_t ixp_reader_done_group(ixp_reader *r, ixp_msg *done) {
    /* the tags at their fixed places first, then the DONE in place */
    if (r->err || r->expect_login || r->role != IXP_FROM_SERVER) return 0;
    size_t n = r->end - r->start, at = r->caps.f70 ? IXP_DONE_LEN_F70 : IXP_DONE_LEN;
    if (n < at + IXP_EOT_LEN) return 0; /* (buf may be NULL: nothing fed yet) */
    const uint8_t *p = r->buf + r->start;
    if (ixb_be16(p) != IXP_SQ_DONE) return 0;
    while (n - at >= IXP_COST_LEN && ixb_be16(p + at) == IXP_SQ_COST)
        at += IXP_COST_LEN;
    if (n - at < IXP_EOT_LEN || ixb_be16(p + at) != IXP_SQ_EOT) return 0;
    next_small(r, p, n, done);
    r->start += at + IXP_EOT_LEN;
    return at + IXP_EOT_LEN;
}

/* §3.5 ID: i16 tag, i16 id; §3.4 BIND: i16 tag, i16 count, values; EXECUTE
 * and EOT: the bare tag. Each tag at its fixed place, each length checked
 * before it is used; the values through the decoder's own fast form. */
int ixp_reader_bind_group(ixp_reader *r, ixp_bind_group *g) {
    if (r->err || r->expect_login || r->role != IXP_FROM_CLIENT) return 0;
    size_t n = r->end - r->start;
    enum { ID_LEN = 4, BIND_HEAD = 4, TAIL = 4 }; /* EXECUTE + EOT */
    if (n < ID_LEN + BIND_HEAD + TAIL) return 0;  /* (also: no buffer yet) */
    const uint8_t *p = r->buf + r->start;
    if (ixb_be16(p) != IXP_SQ_ID || ixb_be16(p + ID_LEN) != IXP_SQ_BIND) return 0;
    int16_t count = (int16_t)ixb_be16(p + ID_LEN + 2);
    uint32_t max_columns = r->lim.max_columns, max_value = r->lim.max_value;
    if (!max_columns || !max_value) {
        ixp_limits lim = r->lim;
        ixp_limits_default(&lim);
        max_columns = lim.max_columns;
        max_value = lim.max_value;
    }
    if (count <= 0 || (uint32_t)count > max_columns) return 0;
    size_t at = ID_LEN + BIND_HEAD, left = n - at;
    size_t used = ixp_bind_values_span(p + at, left - TAIL, count, max_value);
    if (!used) return 0;
    at += used;
    if (ixb_be16(p + at) != IXP_SQ_EXECUTE || ixb_be16(p + at + 2) != IXP_SQ_EOT) return 0;
    g->id = (int16_t)ixb_be16(p + 2);
    g->count = count;
    g->raw = (ixp_bytes){p + ID_LEN + BIND_HEAD, used};
    g->id_len = ID_LEN;
    g->bind_len = BIND_HEAD + used;
    r->start += at + TAIL;
    return 1;
}

uint64_t ixp_reader_offset(const ixp_reader *r) {
    return r->err ? r->err_at : r->base + r->start;
}

const char *ixp_reader_why(const ixp_reader *r) {
    return r->why;
}

size_t ixp_reader_pending(const ixp_reader *r) {
    return r->end - r->start;
}
