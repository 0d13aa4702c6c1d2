/*
 * ix_lob.c: smart large objects in libixdb (the LOB block of ixdb.h).
 *
 * A LOB column's value is a 72-byte handle (src/proto/ix_lob.h). Opening,
 * creating, sizing, seeking on the server and closing are one-row SELECTs of
 * the routines ifx_lo_open / ifx_lo_create / ifx_lo_size / ifx_lo_seek /
 * ifx_lo_close (how the reference says the LO routines are reached through
 * SQL); the bytes move in SQ_LODATA messages of at most IXC_LO_PIECE bytes,
 * one round trip each, written straight from and read straight into the
 * caller's buffer (the codec's output buffer holds one message at a time).
 * The position is kept here: every read names it (read after a seek), and a
 * write after a seek first moves the server's position.
 */
#include <stdio.h>
#include <string.h>

#include "ix_client_int.h"
#include "proto/ix_lob.h"

#define IXC_LO_PIECE (1 << 20) /* bytes one SQ_LODATA moves */

struct ix_lob {
    ix_conn *c;
    int fd;
    int type;  /* IX_T_BLOB / IX_T_CLOB */
    int flags; /* IX_LO_* as opened */
    ixp_locator loc;
    int64_t pos;     /* where the next read or write goes */
    int64_t srv_pos; /* where the server's descriptor stands, -1 unknown */
};

/* Smart-LOB streams reach the server through SQL routines (ifx_lo_open, ...)
 * and SQ_LODATA as ixd takes them; a real server opens, reads and writes
 * smart LOBs through fast-path routine calls, which libixdb does not send
 * yet. So on a connection that uses only verified forms the LOB calls are
 * refused before anything is sent. IX_OK, or IX_ENOTSUP recorded on c. */
static int lob_forms_ok(ix_conn *c) {
    if (c->fast) return IX_OK;
    return ixc_fail(c, IX_ENOTSUP,
                    "smart-LOB streams need fast-path routine calls on this server, which "
                    "libixdb does not send yet (compat=fast sends ixd's form anyway; "
                    "docs/protocol.md \"Evidence\")");
}

/* ---- handles ----------------------------------------------------------------------------- */

static int type_of(int kind) {
    return kind == IXP_LO_XID_CLOB ? IX_T_CLOB : IX_T_BLOB;
}

int ixc_lob_type_of(int code, const char *ext_name) {
    if ((code & 0xff) != IX_T_UDTFIXED || !ext_name) return 0;
    char low[8] = "";
    for (size_t k = 0; k < sizeof low - 1 && ext_name[k]; k++)
        low[k] = (char)(ext_name[k] >= 'A' && ext_name[k] <= 'Z' ? ext_name[k] + 32 : ext_name[k]);
    if (strlen(ext_name) != 4) return 0;
    return !strcmp(low, "blob") ? IX_T_BLOB : !strcmp(low, "clob") ? IX_T_CLOB : 0;
}

/* The handle in column i of the current row: IX_OK, IX_NULL_VALUE, or
 * IX_EINVAL (recorded on the connection) for a column that holds none. */
static int col_locator(ix_stmt *s, int i, ixp_locator *l) {
    ix_conn *c = ix_stmt_conn(s);
    if (!c) return IX_EMISUSE;
    const uint8_t *p = ix_column_raw(s, i);
    size_t n = ix_column_bytes(s, i), used = 0;
    int is_null = 0;
    if (!p || ix_column_type(s, i) != IX_T_UDTFIXED ||
        ixp_lob_tuple_decode(p, n, &is_null, l, &used) != IX_OK || used != n)
        return ixc_fail(c, IX_EINVAL, "column %d holds no smart-LOB handle", i);
    return is_null ? IX_NULL_VALUE : IX_OK;
}

int ix_column_lob_type(ix_stmt *s, int i) {
    ixp_locator l;
    const uint8_t *p = s ? ix_column_raw(s, i) : NULL;
    size_t n = p ? ix_column_bytes(s, i) : 0, used = 0;
    int is_null = 1;
    if (!p || ix_column_type(s, i) != IX_T_UDTFIXED ||
        ixp_lob_tuple_decode(p, n, &is_null, &l, &used) != IX_OK || used != n || is_null)
        return 0;
    return type_of(l.kind);
}

int ix_column_locator(ix_stmt *s, int i, ix_locator *out) {
    if (!s || !out) return IX_EMISUSE;
    ixp_locator l;
    int rc = col_locator(s, i, &l);
    if (rc == IX_OK) ixp_locator_encode(&l, out->bytes);
    return rc;
}

static int from_user(ix_conn *c, const ix_locator *loc, ixp_locator *l) {
    if (ixp_locator_decode(loc->bytes, IX_LOCATOR_LEN, l) != IX_OK)
        return ixc_fail(c, IX_EINVAL, "not a smart-LOB handle of this server");
    return IX_OK;
}

/* ---- binds ------------------------------------------------------------------------------- */

/*
 * A handle as a bind value: type 41 without the extended names (libixdb's
 * bind items carry none; the handle says its type), slot 72, then i16 72
 * and the handle (src/proto/ix_lob.c). ix_bind_null checks the statement and
 * the index and leaves the parameter ready to fill.
 */
int ix_bind_locator(ix_stmt *s, int i, int type, const ix_locator *loc) {
    int rc = ix_bind_null(s, i);
    if (rc != IX_OK) return rc;
    if (type != IX_T_BLOB && type != IX_T_CLOB)
        return ixc_fail(s->conn, IX_EINVAL, "type %d is neither IX_T_BLOB nor IX_T_CLOB", type);
    ixc_param *p = &s->params[i - 1];
    p->type = IX_T_UDTFIXED;
    p->slot = IXP_LOCATOR_LEN;
    if (!loc) return IX_OK; /* a NULL */
    ixp_locator l;
    if ((rc = from_user(s->conn, loc, &l)) != IX_OK) return rc;
    ixb_wbuf_reset(&p->val);
    ixb_put_i16(&p->val, IXP_LOCATOR_LEN);
    ixb_put_bytes(&p->val, loc->bytes, IX_LOCATOR_LEN);
    if (p->val.err) return ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    p->indicator = IXP_IND_VALUE;
    return IX_OK;
}

/* ---- the routines, through SQL ------------------------------------------------------------ */

/* Runs a one-row SELECT of one LO routine: parameter 1 the handle when l,
 * then the integers; its value into *out (an integer) or *lout (a handle). */
static int lo_sql(ix_conn *c, const char *sql, const ixp_locator *l, int type, const int64_t *ints,
                  int nints, int64_t *out, ixp_locator *lout) {
    ix_stmt *s;
    int rc = ix_prepare(c, sql, (size_t)-1, &s);
    if (rc != IX_OK) return rc;
    int k = 1;
    if (l) {
        ix_locator u;
        ixp_locator_encode(l, u.bytes);
        rc = ix_bind_locator(s, k++, type, &u);
    }
    for (int j = 0; rc == IX_OK && j < nints; j++)
        rc = ix_bind_int64(s, k++, ints[j]);
    if (rc == IX_OK) rc = ix_step(s);
    if (rc == IX_ROW) {
        rc = IX_OK;
        if (lout)
            rc = col_locator(s, 0, lout) == IX_OK ? IX_OK : IX_EPROTO;
        else if (ix_column_get_int64(s, 0, out) != IX_OK)
            rc = IX_EPROTO;
        if (rc == IX_EPROTO) ixc_fail(c, rc, "unexpected answer to %s", sql);
    } else if (rc == IX_DONE) {
        rc = ixc_fail(c, IX_EPROTO, "no row from %s", sql);
    }
    /* the error (if any) is the connection's: keep it past the finalize */
    int err = c->err, sqlcode = c->sqlcode, isam = c->isamcode;
    char msg[sizeof c->errmsg];
    memcpy(msg, c->errmsg, sizeof msg);
    ix_finalize(s);
    if (rc != IX_OK) {
        c->err = err, c->sqlcode = sqlcode, c->isamcode = isam;
        memcpy(c->errmsg, msg, sizeof msg);
    }
    return rc;
}

static int lob_new(ix_conn *c, const ixp_locator *l, int flags, ix_lob **out) {
    int64_t fd = -1, a[1] = {flags};
    int rc = lob_forms_ok(c);
    if (rc == IX_OK)
        rc = lo_sql(c, "SELECT ifx_lo_open(?, ?)", l, type_of(l->kind), a, 1, &fd, NULL);
    if (rc != IX_OK) return rc;
    ix_lob *b = ixc_calloc(1, sizeof *b);
    if (!b) {
        int64_t f[1] = {fd}, z;
        lo_sql(c, "SELECT ifx_lo_close(?)", NULL, 0, f, 1, &z, NULL);
        return ixc_fail(c, IX_ENOMEM, "out of memory");
    }
    *b = (ix_lob){c, (int)fd, type_of(l->kind), flags, *l, 0, 0};
    *out = b;
    return IX_OK;
}

int ix_lob_open(ix_conn *c, const ix_locator *loc, int flags, ix_lob **out) {
    if (out) *out = NULL;
    if (!c || !loc || !out) return IX_EMISUSE;
    ixp_locator l;
    int rc = from_user(c, loc, &l);
    return rc != IX_OK ? rc : lob_new(c, &l, flags, out);
}

int ix_lob_open_column(ix_stmt *s, int i, int flags, ix_lob **out) {
    if (out) *out = NULL;
    if (!s || !out) return IX_EMISUSE;
    ixp_locator l;
    int rc = col_locator(s, i, &l);
    return rc != IX_OK ? rc : lob_new(s->conn, &l, flags, out);
}

int ix_lob_create(ix_conn *c, int type, ix_lob **out) {
    if (out) *out = NULL;
    if (!c || !out) return IX_EMISUSE;
    if (type != IX_T_BLOB && type != IX_T_CLOB)
        return ixc_fail(c, IX_EINVAL, "type %d is neither IX_T_BLOB nor IX_T_CLOB", type);
    ixp_locator l;
    int rc = lob_forms_ok(c);
    if (rc == IX_OK)
        rc = lo_sql(
            c, type == IX_T_CLOB ? "SELECT ifx_lo_create('clob')" : "SELECT ifx_lo_create('blob')",
            NULL, 0, NULL, 0, NULL, &l);
    return rc != IX_OK ? rc : lob_new(c, &l, IX_LO_RDWR, out);
}

int ix_lob_locator(const ix_lob *b, ix_locator *out) {
    if (!b || !out) return IX_EMISUSE;
    ixp_locator_encode(&b->loc, out->bytes);
    return IX_OK;
}

int ix_lob_type(const ix_lob *b) {
    return b ? b->type : 0;
}

int ix_lob_size(ix_lob *b, int64_t *size) {
    if (!b || !size) return IX_EMISUSE;
    int64_t a[1] = {b->fd};
    return lo_sql(b->c, "SELECT ifx_lo_size(?)", NULL, 0, a, 1, size, NULL);
}

int ix_lob_seek(ix_lob *b, int64_t off, int whence, int64_t *pos) {
    if (!b) return IX_EMISUSE;
    int64_t base = b->pos;
    if (whence == IX_LO_SEEK_SET) {
        base = 0;
    } else if (whence == IX_LO_SEEK_END) {
        int rc = ix_lob_size(b, &base);
        if (rc != IX_OK) return rc;
    } else if (whence != IX_LO_SEEK_CUR) {
        return ixc_fail(b->c, IX_EINVAL, "unknown seek origin %d", whence);
    }
    if ((off < 0 && base + off < 0) || (off > 0 && off > INT64_MAX - base))
        return ixc_fail(b->c, IX_EINVAL, "seek out of range");
    b->pos = base + off;
    if (pos) *pos = b->pos;
    return IX_OK;
}

int ix_lob_close(ix_lob *b) {
    if (!b) return IX_OK;
    int64_t a[1] = {b->fd}, z;
    int rc = ixc_check(b->c) == IX_OK
                 ? lo_sql(b->c, "SELECT ifx_lo_close(?)", NULL, 0, a, 1, &z, NULL)
                 : IX_OK;
    ixc_free(b);
    return rc;
}

/* ---- SQ_LODATA ---------------------------------------------------------------------------- */

/* 1 for the messages a real server may send around an SQ_LODATA reply and
 * that say nothing to a LOB call (SQ_DONE, SQ_COST, SQ_XACTSTAT). */
static int lob_reply_extra(int tag) {
    return tag == IXP_SQ_DONE || tag == IXP_SQ_COST || tag == IXP_SQ_XACTSTAT;
}

/* Copies the chunks of a read reply to dst (at most cap bytes): the number
 * copied, or -1 when they would not fit (the decoder holds them to what was
 * asked: c->rd.lim.max_lo_read). */
static int64_t take_chunks(const ixp_lodata *d, uint8_t *dst, size_t cap) {
    size_t pos = 0, at = 0;
    ixp_bytes ch;
    while (ixp_lodata_chunk(d, &pos, &ch)) {
        if (ch.n > cap - at) return -1;
        memcpy(dst + at, ch.p, ch.n);
        at += ch.n;
    }
    return (int64_t)at;
}

/* Sends the group queued at c->out[mark..] and reads its answer: the
 * SQ_LODATA reply or the error. A read (dst set) takes the chunks that
 * come, at most cap bytes (a real server may state the LO's size in the
 * reply, docs/protocol.md "SQ_LODATA (97)"), into dst, and *moved gets
 * their count; a write's *moved is the reply's size. */
static int lodata_exchange(ix_conn *c, size_t mark, int op, uint8_t *dst, size_t cap,
                           int64_t *moved) {
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (c->out.err) return ixc_fail(c, IX_ENOMEM, "out of memory");
    ixc_queued(c, mark);
    int rc = ixc_flush(c);
    if (rc != IX_OK) return rc;
    int sqlcode = 0, isam = 0, got_reply = 0;
    int32_t off = 0;
    char ins[256] = "";
    ixp_msg m;
    *moved = 0;
    c->rd.lim.max_lo_read = dst ? (uint32_t)(cap ? cap : 1) : 0;
    while ((rc = ixc_next_msg(c, &m)) == IX_OK && m.tag != IXP_SQ_EOT) {
        if (m.tag == IXP_SQ_LODATA && !got_reply && m.u.lodata.op == op) {
            got_reply = 1;
            *moved = dst ? take_chunks(&m.u.lodata, dst, cap) : m.u.lodata.length;
            if (*moved < 0) rc = ixc_kill(c, IX_EPROTO, "SQ_LODATA reply longer than asked");
        } else if (m.tag == IXP_SQ_ERR) {
            sqlcode = m.u.err.sqlcode ? m.u.err.sqlcode : -1;
            isam = m.u.err.isamcode;
            off = m.u.err.offset;
            snprintf(ins, sizeof ins, "%.*s", (int)m.u.err.msg.n, (const char *)m.u.err.msg.p);
        } else if (!lob_reply_extra(m.tag)) {
            rc = ixc_kill(c, IX_EPROTO, "unexpected %s in a smart-LOB reply",
                          ixp_tag_name(m.tag) ? ixp_tag_name(m.tag) : "message");
        }
        if (rc != IX_OK) break;
    }
    c->rd.lim.max_lo_read = 0; /* back to the default */
    if (rc != IX_OK) return rc;
    if (sqlcode) return ixc_fail_sql(c, sqlcode, isam, off, ins);
    if (!got_reply) return ixc_kill(c, IX_EPROTO, "no SQ_LODATA in a smart-LOB reply");
    return IX_OK;
}

/* Before a request group: the replies still due (a statement's CLOSE and
 * RELEASE are queued in front of the next request) are read first, so that
 * the next EOT read is this group's. */
static int lob_begin(ix_conn *c, size_t *mark) {
    int rc = ixc_drain(c);
    *mark = ixc_mark(c);
    return rc;
}

static int lob_ready(ix_lob *b) {
    if (!b) return IX_EMISUSE;
    int rc = ixc_check(b->c);
    if (rc == IX_OK) rc = ixc_drain(b->c);
    return rc;
}

int ix_lob_read(ix_lob *b, void *buf, size_t n, size_t *got) {
    if (got) *got = 0;
    int rc = lob_ready(b);
    if (rc != IX_OK) return rc;
    if (!buf && n) return IX_EMISUSE;
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < IXC_LO_PIECE ? n - done : IXC_LO_PIECE;
        size_t mark;
        if ((rc = lob_begin(b->c, &mark)) != IX_OK) return rc;
        ixp_enc_lo_readseek(&b->c->out, b->fd, (int32_t)k, b->pos, IXP_LO_SEEK_SET);
        int64_t moved = 0;
        rc = lodata_exchange(b->c, mark, IXP_LO_OP_READSEEK, (uint8_t *)buf + done, k, &moved);
        if (rc != IX_OK) return rc;
        b->pos += moved;
        b->srv_pos = b->pos;
        done += (size_t)moved;
        if ((size_t)moved < k) break; /* the end of the LO */
    }
    if (got) *got = done;
    return IX_OK;
}

int ix_lob_write(ix_lob *b, const void *p, size_t n) {
    int rc = lob_ready(b);
    if (rc != IX_OK) return rc;
    if (!p && n) return IX_EMISUSE;
    if (!(b->flags & IX_LO_APPEND) && b->srv_pos != b->pos) {
        int64_t a[3] = {b->fd, b->pos, IX_LO_SEEK_SET}, z;
        if ((rc = lo_sql(b->c, "SELECT ifx_lo_seek(?, ?, ?)", NULL, 0, a, 3, &z, NULL)) != IX_OK)
            return rc;
        b->srv_pos = b->pos;
    }
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < IXC_LO_PIECE ? n - done : IXC_LO_PIECE;
        size_t mark;
        if ((rc = lob_begin(b->c, &mark)) != IX_OK) return rc;
        ixp_enc_lo_write(&b->c->out, b->fd, (const uint8_t *)p + done, k);
        int64_t moved = 0;
        rc = lodata_exchange(b->c, mark, IXP_LO_OP_WRITE, NULL, 0, &moved);
        if (rc != IX_OK) return rc;
        if (moved != (int64_t)k) return ixc_kill(b->c, IX_EPROTO, "short smart-LOB write");
        done += k;
        b->pos += (int64_t)k;
        b->srv_pos = b->pos;
    }
    if (b->flags & IX_LO_APPEND) b->srv_pos = -1; /* appends go to the end, wherever that is */
    return IX_OK;
}

/* ---- whole values ------------------------------------------------------------------------- */

int ix_column_lob(ix_stmt *s, int i, void **data, size_t *n) {
    if (data) *data = NULL;
    if (n) *n = 0;
    if (!s || !data || !n) return IX_EMISUSE;
    ix_lob *b;
    int rc = ix_lob_open_column(s, i, IX_LO_RDONLY, &b);
    if (rc != IX_OK) return rc;
    int64_t size = 0;
    rc = ix_lob_size(b, &size);
    if (rc == IX_OK && (uint64_t)size >= SIZE_MAX)
        rc = ixc_fail(s->conn, IX_ENOMEM, "a LOB of %lld bytes does not fit in memory",
                      (long long)size);
    uint8_t *p = rc == IX_OK ? ixc_malloc((size_t)size + 1) : NULL;
    if (rc == IX_OK && !p) rc = ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    size_t got = 0;
    if (rc == IX_OK) rc = ix_lob_read(b, p, (size_t)size, &got);
    int crc = ix_lob_close(b);
    if (rc == IX_OK) rc = crc;
    if (rc != IX_OK) {
        ixc_free(p);
        return rc;
    }
    p[got] = 0;
    *data = p;
    *n = got;
    return IX_OK;
}

void ix_lob_free(void *p) {
    ixc_free(p);
}

/* A new LO filled by fill(ud, ...) in pieces, then bound as a handle. */
static int bind_new(ix_stmt *s, int i, int type, ix_lob_source_fn fn, void *ud, const void *p,
                    size_t n) {
    if (!s || !s->conn) return IX_EMISUSE;
    if (type != IX_T_BLOB && type != IX_T_CLOB)
        return ixc_fail(s->conn, IX_EINVAL, "type %d is neither IX_T_BLOB nor IX_T_CLOB", type);
    ix_lob *b;
    int rc = ix_lob_create(s->conn, type, &b);
    if (rc != IX_OK) return rc;
    uint8_t *buf = fn ? ixc_malloc(IXC_LO_PIECE) : NULL;
    if (fn && !buf) rc = ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    while (rc == IX_OK && fn) {
        long long k = fn(ud, buf, IXC_LO_PIECE);
        if (k < 0 || k > IXC_LO_PIECE)
            rc = ixc_fail(s->conn, IX_EINVAL, "the LOB source failed (%lld)", k);
        if (k <= 0 || rc != IX_OK) break;
        rc = ix_lob_write(b, buf, (size_t)k);
    }
    if (rc == IX_OK && !fn) rc = ix_lob_write(b, p, n);
    ixc_free(buf);
    ix_locator loc;
    ix_lob_locator(b, &loc);
    int crc = ix_lob_close(b);
    if (rc == IX_OK) rc = crc;
    return rc == IX_OK ? ix_bind_locator(s, i, type, &loc) : rc;
}

int ix_bind_lob(ix_stmt *s, int i, int type, const void *p, size_t n) {
    if (!p && n) return IX_EMISUSE;
    return bind_new(s, i, type, NULL, NULL, p, n);
}

int ix_bind_lob_stream(ix_stmt *s, int i, int type, ix_lob_source_fn fn, void *ud) {
    if (!fn) return IX_EMISUSE;
    return bind_new(s, i, type, fn, ud, NULL, 0);
}
