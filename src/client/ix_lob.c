/*
 * ix_lob.c: smart large objects in libixdb (the LOB block of ixdb.h).
 *
 * A LOB column's value is a 72-byte handle (src/proto/ix_lob.h). The bytes
 * move in SQ_LODATA messages of at most IXC_LO_PIECE bytes, one round trip
 * each, written straight from and read straight into the caller's buffer
 * (the codec's output buffer holds one message at a time). The position is
 * kept here: every read names it (read after a seek).
 *
 * The routines are reached in one of two ways, by the connection's forms
 * (c->st.fast; docs/protocol.md "Evidence"):
 * - ixd's (fast): one-row SELECTs of ifx_lo_open / ifx_lo_create /
 *   ifx_lo_size / ifx_lo_seek / ifx_lo_close with bound arguments; a read
 *   names its absolute position, a write after a seek first moves the
 *   server's position.
 * - a real server's (conservative; docs/protocol.md "Smart-LOB routines on
 *   a real server"): ifx_lo_create(ifx_lo_spec, integer, blob) and
 *   ifx_lo_close(integer) as fast-path calls (ix_fastpath.c), ifx_lo_open
 *   as `SELECT ifx_lo_open('<hex>'::BLOB, mode) FROM sysmaster:sysdual`
 *   with literals, reads relative to the server's position (LO_SEEK_CUR).
 *   No public source shows ifx_lo_size or ifx_lo_seek on a real server, so
 *   what needs them (ix_lob_size, IX_LO_SEEK_END, a write away from the
 *   server's position) is refused with IX_ENOTSUP.
 */
#include <stdio.h>
#include <string.h>

#include "ix_client_int.h"
#include "ix_conn_int.h"
#include "proto/ix_fastpath.h"
#include "proto/ix_lob.h"

#define IXC_LO_PIECE (1 << 20) /* bytes one SQ_LODATA moves */

struct ix_lob {
    ix_conn *c;
    int fd;
    int type;                   /* IX_T_BLOB / IX_T_CLOB */
    int flags;                  /* IX_LO_* as opened */
    uint8_t h[IXP_LOCATOR_LEN]; /* the handle as the server gave it */
    int64_t pos;                /* where the next read or write goes */
    int64_t srv_pos;            /* where the server's descriptor stands, -1 unknown */
};

/* Records on c that `what` needs a call no public source shows on a
 * server other than ixd (docs/c-api.md "Smart LOBs on other servers").
 * Returns IX_ENOTSUP. */
static int lob_unsourced(ix_conn *c, const char *what) {
    return ixc_fail(c, IX_ENOTSUP,
                    "%s needs ifx_lo_size or ifx_lo_seek, which no public source shows on a "
                    "server other than ixd (docs/protocol.md \"Smart-LOB routines on a real "
                    "server\")",
                    what);
}

/* ---- handles ----------------------------------------------------------------------------- */

/* IX_T_CLOB or IX_T_BLOB for a handle's kind (IXP_LO_XID_*). */
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

/* The type of handle h (72 bytes): its kind when ixd made it, else the
 * column's declared type (col_type, 0 when unknown), else IX_T_BLOB (the
 * one public client casts every handle to BLOB to open it). */
static int handle_type(const uint8_t *h, int col_type) {
    ixp_locator l;
    if (ixp_locator_decode(h, IXP_LOCATOR_LEN, &l) == IX_OK) return type_of(l.kind);
    return col_type ? col_type : IX_T_BLOB;
}

/* Whether c takes a handle it cannot read: the handles of a server other
 * than ixd are its own (IBM: "an opaque structure"); ixd's must be ixd's. */
static int handles_opaque(const ix_conn *c) {
    return !c->st.fast;
}

/* The handle in column i of the current row: its bytes into h and its type
 * into *type. IX_OK, IX_NULL_VALUE, or IX_EINVAL (recorded on the
 * connection) for a column that holds none. */
static int col_handle(ix_stmt *s, int i, uint8_t *h, int *type) {
    ix_conn *c = ix_stmt_conn(s);
    if (!c) return IX_EMISUSE;
    const uint8_t *p = ix_column_raw(s, i), *raw = NULL;
    size_t n = ix_column_bytes(s, i), used = 0;
    int is_null = 0;
    ixp_locator l;
    if (!p || ix_column_type(s, i) != IX_T_UDTFIXED ||
        ixp_lob_tuple_split(p, n, &is_null, &raw, &used) != IX_OK || used != n ||
        (!is_null && !handles_opaque(c) && ixp_locator_decode(raw, IXP_LOCATOR_LEN, &l) != IX_OK))
        return ixc_fail(c, IX_EINVAL, "column %d holds no smart-LOB handle", i);
    if (is_null) return IX_NULL_VALUE;
    memcpy(h, raw, IXP_LOCATOR_LEN);
    *type = handle_type(h, ixc_column_lob_hint(s, i));
    return IX_OK;
}

int ix_column_lob_type(ix_stmt *s, int i) {
    const uint8_t *p = s ? ix_column_raw(s, i) : NULL, *h = NULL;
    size_t n = p ? ix_column_bytes(s, i) : 0, used = 0;
    int is_null = 1;
    ixp_locator l;
    if (!p || ix_column_type(s, i) != IX_T_UDTFIXED ||
        ixp_lob_tuple_split(p, n, &is_null, &h, &used) != IX_OK || used != n || is_null)
        return 0;
    if (!handles_opaque(ix_stmt_conn(s)) && ixp_locator_decode(h, IXP_LOCATOR_LEN, &l) != IX_OK)
        return 0;
    return handle_type(h, ixc_column_lob_hint(s, i));
}

int ix_column_locator(ix_stmt *s, int i, ix_locator *out) {
    if (!s || !out) return IX_EMISUSE;
    int type = 0;
    return col_handle(s, i, out->bytes, &type);
}

/* Checks a handle the caller gives for c: IX_OK with its type in *type
 * (may be NULL), or IX_EINVAL recorded on c. */
static int from_user(ix_conn *c, const ix_locator *loc, int *type) {
    ixp_locator l;
    if (!handles_opaque(c) && ixp_locator_decode(loc->bytes, IX_LOCATOR_LEN, &l) != IX_OK)
        return ixc_fail(c, IX_EINVAL, "not a smart-LOB handle of this server");
    if (type) *type = handle_type(loc->bytes, 0);
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
    ix_conn *c = ix_stmt_conn(s);
    if (type != IX_T_BLOB && type != IX_T_CLOB)
        return ixc_fail(c, IX_EINVAL, "type %d is neither IX_T_BLOB nor IX_T_CLOB", type);
    ixc_bind_udtfixed(s, i, IXP_LOCATOR_LEN, NULL);
    if (!loc) return IX_OK; /* a NULL */
    if ((rc = from_user(c, loc, NULL)) != IX_OK) return rc;
    return ixc_bind_udtfixed(s, i, IXP_LOCATOR_LEN, loc->bytes);
}

/* ---- ixd's routines, through SQL with bound arguments ------------------------------------- */

/* The value of lo_sql's row: an integer into *out, or a handle into hout.
 * IX_OK, or IX_EPROTO recorded on the connection. */
static int lo_sql_value(ix_stmt *s, const char *sql, int64_t *out, uint8_t *hout) {
    ix_locator u;
    int ok = hout ? ix_column_locator(s, 0, &u) == IX_OK : ix_column_get_int64(s, 0, out) == IX_OK;
    if (!ok) return ixc_fail(ix_stmt_conn(s), IX_EPROTO, "unexpected answer to %s", sql);
    if (hout) memcpy(hout, u.bytes, IX_LOCATOR_LEN);
    return IX_OK;
}

/* Finalizes s; when the call failed (rc), the connection's error record
 * is kept as it was (the error outlives the statement's release). */
static void lo_finalize_keep_err(ix_conn *c, ix_stmt *s, int rc) {
    int err = c->st.err, sqlcode = c->st.sqlcode, isam = c->st.isamcode;
    char msg[sizeof c->st.errmsg];
    memcpy(msg, c->st.errmsg, sizeof msg);
    ix_finalize(s);
    if (rc != IX_OK) {
        c->st.err = err, c->st.sqlcode = sqlcode, c->st.isamcode = isam;
        memcpy(c->st.errmsg, msg, sizeof msg);
    }
}

/* Runs a one-row SELECT of one LO routine: parameter 1 the handle h (of
 * type) when h is set, then the integers; its value into *out (an integer)
 * or hout (a handle's 72 bytes). */
static int lo_sql(ix_conn *c, const char *sql, const uint8_t *h, int type, const int64_t *ints,
                  int nints, int64_t *out, uint8_t *hout) {
    ix_stmt *s;
    int rc = ix_prepare(c, sql, (size_t)-1, &s);
    if (rc != IX_OK) return rc;
    int k = 1;
    if (h) {
        ix_locator u;
        memcpy(u.bytes, h, IX_LOCATOR_LEN);
        rc = ix_bind_locator(s, k++, type, &u);
    }
    for (int j = 0; rc == IX_OK && j < nints; j++)
        rc = ix_bind_int64(s, k++, ints[j]);
    if (rc == IX_OK) rc = ix_step(s);
    if (rc == IX_ROW)
        rc = lo_sql_value(s, sql, out, hout);
    else if (rc == IX_DONE)
        rc = ixc_fail(c, IX_EPROTO, "no row from %s", sql);
    lo_finalize_keep_err(c, s, rc);
    return rc;
}

/* ---- a real server's routines --------------------------------------------------------------- */

/* The ifx_lo_spec of a new LO with every setting left to the server
 * (docs/protocol.md "Smart-LOB routines on a real server", single source):
 * | 0: magic da da fe ed | 4: i32 create flags 0 | 12, 24: estimated and
 * maximum size, 12 bytes each: u32 low word, u32 high word of the
 * magnitude, i16 sign, 2 zero bytes; -1 = the default |
 * | 36: i32 extent size, -1 = the default | 40: sbspace name, 128 bytes,
 * empty = the default | 168: the column descriptor, 428 bytes, with its
 * bytes 404..411 set to ff as the one public client sends it | */
#define LO_SPEC_FLAGS    4
#define LO_SPEC_EST      12
#define LO_SPEC_MAX      24
#define LO_SPEC_EXTENT   36
#define LO_SPEC_COLDESC  168
#define LO_SPEC_FF_FIRST 404
#define LO_SPEC_FF_LAST  411

/* Writes the 12-byte size field -1 ("the default") at p. */
static void spec_size_default(uint8_t *p) {
    ixb_st32(p, 1); /* the magnitude's low word */
    ixb_st32(p + 4, 0);
    ixb_st16(p + 8, (uint16_t)-1); /* the sign */
    ixb_st16(p + 10, 0);
}

/* Fills spec (IXP_LO_SPEC_LEN bytes) with the defaults above. */
static void lo_spec_default(uint8_t *spec) {
    memset(spec, 0, IXP_LO_SPEC_LEN);
    ixb_st32(spec, IXP_LO_SPEC_MAGIC);
    ixb_st32(spec + LO_SPEC_FLAGS, 0);
    spec_size_default(spec + LO_SPEC_EST);
    spec_size_default(spec + LO_SPEC_MAX);
    ixb_st32(spec + LO_SPEC_EXTENT, (uint32_t)-1);
    for (int k = LO_SPEC_FF_FIRST; k <= LO_SPEC_FF_LAST; k++)
        spec[LO_SPEC_COLDESC + k] = 0xff;
}

/* Checks a descriptor a server gave: IX_OK, or IX_EPROTO with c dropped
 * (SQ_LODATA carries it in an i16). */
static int fd_ok(ix_conn *c, int64_t fd) {
    if (fd >= 0 && fd <= INT16_MAX) return IX_OK;
    return ixc_kill(c, IX_EPROTO, "LO descriptor %lld out of range", (long long)fd);
}

/* ifx_lo_create(ifx_lo_spec, integer, blob|clob) over the fast path: the
 * new LO's handle into h and its descriptor, opened with flags, into *fd. */
static int fp_create(ix_conn *c, int type, int flags, uint8_t *h, int64_t *fd) {
    uint8_t spec[IXP_LO_SPEC_LEN], zero[IXP_LOCATOR_LEN] = {0};
    lo_spec_default(spec);
    const char *tname = type == IX_T_CLOB ? "clob" : "blob";
    ixc_fparg args[3] = {
        {.kind = IXC_FP_UDT, .type_name = "ifx_lo_spec", .p = spec, .n = sizeof spec},
        {.kind = IXC_FP_INT, .i32 = flags},
        {.kind = IXC_FP_UDT, .type_name = tname, .p = zero, .n = sizeof zero},
    };
    ixc_fpres res[2] = {
        {.kind = IXC_FP_UDT, .type_name = tname, .buf = h, .cap = IXP_LOCATOR_LEN},
        {.kind = IXC_FP_INT, .type_name = "integer"},
    };
    int rc = ixc_fp_call(c, type == IX_T_CLOB ? IXP_FP_LO_CREATE_CLOB : IXP_FP_LO_CREATE_BLOB, args,
                         3, res, 2);
    if (rc != IX_OK) return rc;
    *fd = res[1].i32;
    return fd_ok(c, *fd);
}

/* ifx_lo_close(fd) over the fast path. */
static int fp_close(ix_conn *c, int fd) {
    ixc_fparg arg = {.kind = IXC_FP_INT, .i32 = fd};
    ixc_fpres res = {.kind = IXC_FP_INT, .type_name = "integer"};
    return ixc_fp_call(c, IXP_FP_LO_CLOSE, &arg, 1, &res, 1);
}

/* ifx_lo_open as the public client sends it to a real server: the handle
 * as a hex literal cast to BLOB / CLOB, the flags a literal. */
static int sql_open_literal(ix_conn *c, const uint8_t *h, int type, int flags, int64_t *fd) {
    static const char hex[] = "0123456789abcdef";
    char digits[2 * IXP_LOCATOR_LEN + 1], sql[2 * IXP_LOCATOR_LEN + 96];
    for (int k = 0; k < IXP_LOCATOR_LEN; k++) {
        digits[2 * k] = hex[h[k] >> 4];
        digits[2 * k + 1] = hex[h[k] & 0xf];
    }
    digits[2 * IXP_LOCATOR_LEN] = 0;
    snprintf(sql, sizeof sql, "SELECT ifx_lo_open('%s'::%s, %d) FROM sysmaster:sysdual", digits,
             type == IX_T_CLOB ? "CLOB" : "BLOB", flags);
    int rc = lo_sql(c, sql, NULL, 0, NULL, 0, fd, NULL);
    return rc == IX_OK ? fd_ok(c, *fd) : rc;
}

/* ---- the routines, by the connection's forms ----------------------------------------------- */

/* Opens the LO of handle h (of type) for flags: its descriptor in *fd. */
static int lo_open(ix_conn *c, const uint8_t *h, int type, int flags, int64_t *fd) {
    if (!c->st.fast) return sql_open_literal(c, h, type, flags, fd);
    int64_t a[1] = {flags};
    return lo_sql(c, "SELECT ifx_lo_open(?, ?)", h, type, a, 1, fd, NULL);
}

/* Closes descriptor fd. */
static int lo_close(ix_conn *c, int fd) {
    if (!c->st.fast) return fp_close(c, fd);
    int64_t a[1] = {fd}, z;
    return lo_sql(c, "SELECT ifx_lo_close(?)", NULL, 0, a, 1, &z, NULL);
}

/* Creates an LO of type opened for reading and writing: its handle into h,
 * its descriptor into *fd (ixd: a create, then an open). */
static int lo_create(ix_conn *c, int type, uint8_t *h, int64_t *fd) {
    if (!c->st.fast) return fp_create(c, type, IX_LO_RDWR, h, fd);
    int rc = lo_sql(
        c, type == IX_T_CLOB ? "SELECT ifx_lo_create('clob')" : "SELECT ifx_lo_create('blob')",
        NULL, 0, NULL, 0, NULL, h);
    return rc == IX_OK ? lo_open(c, h, type, IX_LO_RDWR, fd) : rc;
}

/* A stream on descriptor fd, positioned at 0 (so is the server's). The
 * descriptor is closed when memory runs out. */
static int lob_wrap(ix_conn *c, const uint8_t *h, int type, int flags, int64_t fd, ix_lob **out) {
    ix_lob *b = ixc_calloc(1, sizeof *b);
    if (!b) {
        lo_close(c, (int)fd);
        return ixc_fail(c, IX_ENOMEM, "out of memory");
    }
    *b = (ix_lob){.c = c, .fd = (int)fd, .type = type, .flags = flags, .pos = 0, .srv_pos = 0};
    memcpy(b->h, h, IXP_LOCATOR_LEN);
    *out = b;
    return IX_OK;
}

/* Opens the LO of handle h (of type) for flags: a new stream (the
 * caller's, closed with ix_lob_close) in *out, or the failure recorded on
 * c. */
static int lob_new(ix_conn *c, const uint8_t *h, int type, int flags, ix_lob **out) {
    int64_t fd = -1;
    int rc = lo_open(c, h, type, flags, &fd);
    return rc != IX_OK ? rc : lob_wrap(c, h, type, flags, fd, out);
}

int ix_lob_open(ix_conn *c, const ix_locator *loc, int flags, ix_lob **out) {
    if (out) *out = NULL;
    if (!c || !loc || !out) return IX_EMISUSE;
    int type = 0;
    int rc = from_user(c, loc, &type);
    return rc != IX_OK ? rc : lob_new(c, loc->bytes, type, flags, out);
}

int ix_lob_open_column(ix_stmt *s, int i, int flags, ix_lob **out) {
    if (out) *out = NULL;
    if (!s || !out) return IX_EMISUSE;
    uint8_t h[IXP_LOCATOR_LEN];
    int type = 0;
    int rc = col_handle(s, i, h, &type);
    return rc != IX_OK ? rc : lob_new(ix_stmt_conn(s), h, type, flags, out);
}

int ix_lob_create(ix_conn *c, int type, ix_lob **out) {
    if (out) *out = NULL;
    if (!c || !out) return IX_EMISUSE;
    if (type != IX_T_BLOB && type != IX_T_CLOB)
        return ixc_fail(c, IX_EINVAL, "type %d is neither IX_T_BLOB nor IX_T_CLOB", type);
    uint8_t h[IXP_LOCATOR_LEN];
    int64_t fd = -1;
    int rc = lo_create(c, type, h, &fd);
    return rc != IX_OK ? rc : lob_wrap(c, h, type, IX_LO_RDWR, fd, out);
}

int ix_lob_locator(const ix_lob *b, ix_locator *out) {
    if (!b || !out) return IX_EMISUSE;
    memcpy(out->bytes, b->h, IX_LOCATOR_LEN);
    return IX_OK;
}

int ix_lob_type(const ix_lob *b) {
    return b ? b->type : 0;
}

int ix_lob_size(ix_lob *b, int64_t *size) {
    if (!b || !size) return IX_EMISUSE;
    if (!b->c->st.fast) return lob_unsourced(b->c, "the size of a smart LOB");
    int64_t a[1] = {b->fd};
    return lo_sql(b->c, "SELECT ifx_lo_size(?)", NULL, 0, a, 1, size, NULL);
}

int ix_lob_seek(ix_lob *b, int64_t off, int whence, int64_t *pos) {
    if (!b) return IX_EMISUSE;
    int64_t base = b->pos;
    if (whence == IX_LO_SEEK_SET) {
        base = 0;
    } else if (whence == IX_LO_SEEK_END) {
        if (!b->c->st.fast) return lob_unsourced(b->c, "a seek from the end");
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
    int rc = ixc_check(b->c) == IX_OK ? lo_close(b->c, b->fd) : IX_OK;
    ixc_free(b);
    return rc;
}

/* ---- SQ_LODATA ---------------------------------------------------------------------------- */

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

/* Sends the group queued at c->st.out[mark..] and reads its answer: the
 * SQ_LODATA reply or the error. A read (dst set) takes the chunks that
 * come, at most cap bytes (a real server may state the LO's size in the
 * reply, docs/protocol.md "SQ_LODATA (97)"), into dst, and *moved gets
 * their count; a write's *moved is the reply's size. */
static int lodata_exchange(ix_conn *c, size_t mark, int op, uint8_t *dst, size_t cap,
                           int64_t *moved) {
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    if (c->st.out.err) return ixc_fail(c, IX_ENOMEM, "out of memory");
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
        } else if (!ixc_reply_extra(c, &m)) {
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

/* Queues the read of k bytes at b->pos: ixd takes the absolute position
 * (LO_SEEK_SET); a real server's form, as the public client sends it, is
 * the distance from the server's position (LO_SEEK_CUR). */
static void read_request(ix_lob *b, size_t k) {
    if (b->c->st.fast)
        ixp_enc_lo_readseek(&b->c->st.out, b->fd, (int32_t)k, b->pos, IXP_LO_SEEK_SET);
    else
        ixp_enc_lo_readseek(&b->c->st.out, b->fd, (int32_t)k, b->pos - b->srv_pos, IXP_LO_SEEK_CUR);
}

int ix_lob_read(ix_lob *b, void *buf, size_t n, size_t *got) {
    if (got) *got = 0;
    int rc = lob_ready(b);
    if (rc != IX_OK) return rc;
    if (!buf && n) return IX_EMISUSE;
    if (!b->c->st.fast && b->srv_pos < 0)
        return ixc_fail(b->c, IX_ENOTSUP,
                        "a read after an append needs ifx_lo_seek, which no public source shows "
                        "on a server other than ixd");
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < IXC_LO_PIECE ? n - done : IXC_LO_PIECE;
        size_t mark;
        if ((rc = lob_begin(b->c, &mark)) != IX_OK) return rc;
        read_request(b, k);
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

/* Moves the server's position to b->pos before a write: ifx_lo_seek on
 * ixd; refused (IX_ENOTSUP) on other servers. */
static int server_seek(ix_lob *b) {
    if (!b->c->st.fast) return lob_unsourced(b->c, "a write away from the last read or write");
    int64_t a[3] = {b->fd, b->pos, IX_LO_SEEK_SET}, z;
    int rc = lo_sql(b->c, "SELECT ifx_lo_seek(?, ?, ?)", NULL, 0, a, 3, &z, NULL);
    if (rc == IX_OK) b->srv_pos = b->pos;
    return rc;
}

/* Whether a write reply's size (moved) accepts a write of k bytes: ixd
 * states the bytes written; of a real server's reply the public client
 * checks only that it is not negative (docs/protocol.md "SQ_LODATA"). */
static int write_reply_ok(const ix_conn *c, int64_t moved, size_t k) {
    return c->st.fast ? moved == (int64_t)k : moved >= 0;
}

int ix_lob_write(ix_lob *b, const void *p, size_t n) {
    int rc = lob_ready(b);
    if (rc != IX_OK) return rc;
    if (!p && n) return IX_EMISUSE;
    if (!(b->flags & IX_LO_APPEND) && b->srv_pos != b->pos && (rc = server_seek(b)) != IX_OK)
        return rc;
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < IXC_LO_PIECE ? n - done : IXC_LO_PIECE;
        size_t mark;
        if ((rc = lob_begin(b->c, &mark)) != IX_OK) return rc;
        ixp_enc_lo_write(&b->c->st.out, b->fd, (const uint8_t *)p + done, k);
        int64_t moved = 0;
        rc = lodata_exchange(b->c, mark, IXP_LO_OP_WRITE, NULL, 0, &moved);
        if (rc != IX_OK) return rc;
        if (!write_reply_ok(b->c, moved, k))
            return ixc_kill(b->c, IX_EPROTO, "short smart-LOB write");
        done += k;
        b->pos += (int64_t)k;
        b->srv_pos = b->pos;
    }
    if (b->flags & IX_LO_APPEND) b->srv_pos = -1; /* appends go to the end, wherever that is */
    return IX_OK;
}

/* ---- whole values ------------------------------------------------------------------------- */

#define IXC_LO_FIRST_READ (64 * 1024) /* the first piece of a read whose size is not known */

/* Reads all of b from its start by its size (ixd): a buffer of size + 1
 * bytes (owned by the caller) into *out, the bytes read into *got. */
static int read_sized(ix_lob *b, uint8_t **out, size_t *got) {
    int64_t size = 0;
    int rc = ix_lob_size(b, &size);
    if (rc == IX_OK && (uint64_t)size >= SIZE_MAX)
        rc = ixc_fail(b->c, IX_ENOMEM, "a LOB of %lld bytes does not fit in memory",
                      (long long)size);
    uint8_t *p = rc == IX_OK ? ixc_malloc((size_t)size + 1) : NULL;
    if (rc == IX_OK && !p) rc = ixc_fail(b->c, IX_ENOMEM, "out of memory");
    if (rc == IX_OK) rc = ix_lob_read(b, p, (size_t)size, got);
    *out = p;
    return rc;
}

/* Reads all of b from its start without its size (other servers): pieces
 * that double in length until a read comes back short. The buffer (cap + 1
 * bytes, owned by the caller, also on failure) into *out. */
static int read_growing(ix_lob *b, uint8_t **out, size_t *got) {
    size_t cap = IXC_LO_FIRST_READ, have = 0;
    uint8_t *p = NULL;
    for (;;) {
        uint8_t *q = cap < SIZE_MAX / 2 ? ixc_realloc(p, cap + 1) : NULL;
        if (!q) {
            *out = p;
            return ixc_fail(b->c, IX_ENOMEM, "out of memory");
        }
        p = q;
        size_t k = 0;
        int rc = ix_lob_read(b, p + have, cap - have, &k);
        have += k;
        *out = p;
        *got = have;
        if (rc != IX_OK || have < cap) return rc;
        cap *= 2;
    }
}

int ix_column_lob(ix_stmt *s, int i, void **data, size_t *n) {
    if (data) *data = NULL;
    if (n) *n = 0;
    if (!s || !data || !n) return IX_EMISUSE;
    ix_lob *b;
    int rc = ix_lob_open_column(s, i, IX_LO_RDONLY, &b);
    if (rc != IX_OK) return rc;
    uint8_t *p = NULL;
    size_t got = 0;
    rc = ixc_form_fast(ix_stmt_conn(s)) ? read_sized(b, &p, &got) : read_growing(b, &p, &got);
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
    ix_conn *c = ix_stmt_conn(s);
    if (!c) return IX_EMISUSE;
    if (type != IX_T_BLOB && type != IX_T_CLOB)
        return ixc_fail(c, IX_EINVAL, "type %d is neither IX_T_BLOB nor IX_T_CLOB", type);
    ix_lob *b;
    int rc = ix_lob_create(c, type, &b);
    if (rc != IX_OK) return rc;
    uint8_t *buf = fn ? ixc_malloc(IXC_LO_PIECE) : NULL;
    if (fn && !buf) rc = ixc_fail(c, IX_ENOMEM, "out of memory");
    while (rc == IX_OK && fn) {
        long long k = fn(ud, buf, IXC_LO_PIECE);
        if (k < 0 || k > IXC_LO_PIECE)
            rc = ixc_fail(c, IX_EINVAL, "the LOB source failed (%lld)", k);
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
