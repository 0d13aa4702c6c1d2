/*
 * ix_lob.c: the smart-LOB parts of the codec (ix_lob.h): the LO handle in
 * tuples and binds, and SQ_LODATA in both roles. Every length read from the
 * wire is checked against the bytes left and against the limits before use.
 */
#include "proto/ix_lob.h"

#include <string.h>
#include <strings.h>

#include "proto/ix_print.h"
#include "types/ix_types.h"

/*
 * The LO handle (72 bytes). Informix documents it as opaque (ESQL/C
 * "ifx_lo_t is an opaque structure", DataBlade "MI_LO_HANDLE ... opaque"),
 * and no public source shows a real one, so the content is ixd's own:
 * | offset | size | field                                         |
 * | 0      | 4    | format word "IXLO" (0x49584c4f)               |
 * | 4      | 2    | kind: extended type id, 10 BLOB / 11 CLOB      |
 * | 6      | 2    | 0 (flags, reserved)                           |
 * | 8      | 8    | LO id, i64 > 0                                |
 * | 16     | 56   | zeros (reserved)                              |
 * A handle with anything else in the reserved bytes is malformed, so that
 * equal LOs have equal handles. Doubt: a client that builds or inspects
 * handles of a real server would not understand these; clients only pass
 * them back, as IBM requires.
 */
#define LOC_MAGIC 0x49584c4fu

void ixp_locator_encode(const ixp_locator *l, uint8_t out[IXP_LOCATOR_LEN]) {
    memset(out, 0, IXP_LOCATOR_LEN);
    ixb_st32(out, LOC_MAGIC);
    ixb_st16(out + 4, (uint16_t)l->kind);
    ixb_st64(out + 8, (uint64_t)l->id);
}

int ixp_locator_decode(const uint8_t *p, size_t n, ixp_locator *l) {
    if (n != IXP_LOCATOR_LEN || ixb_be32(p) != LOC_MAGIC || ixb_be16(p + 6)) return IX_EMALFORMED;
    for (size_t i = 16; i < IXP_LOCATOR_LEN; i++) /* reserved: a handle has one form */
        if (p[i]) return IX_EMALFORMED;
    int kind = ixb_be16(p + 4);
    int64_t id = (int64_t)ixb_be64(p + 8);
    if ((kind != IXP_LO_XID_BLOB && kind != IXP_LO_XID_CLOB) || id <= 0) return IX_EMALFORMED;
    l->kind = kind;
    l->id = id;
    return IX_OK;
}

/*
 * In a tuple (§4.2, DBX's tuple walker; single restricted source for the
 * envelope around type 41):
 * | u8 flag (0 value, 1 NULL) | i32 length (72, or 0 for NULL) | handle |
 * The NULL form is BOOLEAN's and LVARCHAR's (`01 00 00 00 00`): no source
 * shows a NULL BLOB (unresolved).
 */
void ixp_lob_tuple_encode(ixb_wbuf *out, const ixp_locator *l) {
    if (!l) {
        static const uint8_t null_form[5] = {1, 0, 0, 0, 0};
        ixb_put_bytes(out, null_form, sizeof null_form);
        return;
    }
    uint8_t h[IXP_LOCATOR_LEN];
    ixp_locator_encode(l, h);
    ixb_put_u8(out, 0);
    ixb_put_i32(out, IXP_LOCATOR_LEN);
    ixb_put_bytes(out, h, sizeof h);
}

int ixp_lob_tuple_split(const uint8_t *p, size_t n, int *is_null, const uint8_t **h, size_t *used) {
    if (n < 5) return IX_NEED_MORE;
    uint32_t len = ixb_be32(p + 1);
    if (p[0] == 1) {
        if (len != 0) return IX_EMALFORMED;
        *is_null = 1;
        *used = 5;
        return IX_OK;
    }
    if (p[0] != 0 || len != IXP_LOCATOR_LEN) return IX_EMALFORMED;
    if (n < 5 + IXP_LOCATOR_LEN) return IX_NEED_MORE;
    *is_null = 0;
    *h = p + 5;
    *used = 5 + IXP_LOCATOR_LEN;
    return IX_OK;
}

int ixp_lob_tuple_decode(const uint8_t *p, size_t n, int *is_null, ixp_locator *l, size_t *used) {
    const uint8_t *h = NULL;
    int rc = ixp_lob_tuple_split(p, n, is_null, &h, used);
    if (rc != IX_OK || *is_null) return rc;
    return ixp_locator_decode(h, IXP_LOCATOR_LEN, l) == IX_OK ? IX_OK : IX_EMALFORMED;
}

int ixp_lob_xname(const uint8_t *p, size_t n, int *kind) {
    if (n != 4) return 0;
    if (!strncasecmp((const char *)p, "blob", 4)) {
        *kind = IXP_LO_XID_BLOB;
        return 1;
    }
    if (!strncasecmp((const char *)p, "clob", 4)) {
        *kind = IXP_LO_XID_CLOB;
        return 1;
    }
    return 0;
}

/*
 * In SQ_BIND (§3.4 framing; the value form is unresolved, no source binds a
 * smart LOB): type 41, [CHAR "informix", CHAR "blob"/"clob"], indicator,
 * slot 72, then i16 72 and the handle (the i16-length form of the other UDT
 * and string binds). The names may be left out (the handle says which type
 * it is; libixdb's bind items never carry names). Decided here and in
 * bind_value_len (ix_msg_items.c).
 */
void ixp_lob_bind_item(ixb_wbuf *out, int kind, const ixp_locator *l) {
    ixb_put_i16(out, IX_T_UDTFIXED);
    ixp_enc_char(out, "informix", 8);
    ixp_enc_char(out, kind == IXP_LO_XID_CLOB ? "clob" : "blob", 4);
    ixb_put_i16(out, l ? IXP_IND_VALUE : IXP_IND_NULL);
    ixb_put_i16(out, IXP_LOCATOR_LEN);
    if (!l) return;
    uint8_t h[IXP_LOCATOR_LEN];
    ixp_locator_encode(l, h);
    ixb_put_i16(out, IXP_LOCATOR_LEN);
    ixb_put_bytes(out, h, sizeof h);
}

int ixp_lob_bind_value(const ixp_bindval *v, ixp_locator *l) {
    if (v->indicator != IXP_IND_VALUE || v->value.n != 2 + IXP_LOCATOR_LEN ||
        ixb_be16(v->value.p) != IXP_LOCATOR_LEN)
        return IX_EMALFORMED;
    return ixp_locator_decode(v->value.p + 2, IXP_LOCATOR_LEN, l);
}

/* ---- SQ_LODATA ---------------------------------------------------------------------------- */

/* Reads the chunks that must add up to total bytes (layout in ix_lob.h):
 * each 1..IXP_LO_CHUNK bytes, none past the total. */
static void rd_chunks(ixb_rbuf *r, int64_t total, ixp_bytes *data) {
    size_t start = r->pos;
    int64_t left = total;
    while (left > 0 && r->st == IX_OK) {
        size_t at = r->pos;
        int16_t n = ixb_get_i16(r);
        if (r->st) return;
        if (n <= 0 || n > IXP_LO_CHUNK_MAX)
            return ixb_rbuf_fail(r, IX_EMALFORMED, at, "SQ_LODATA chunk length out of range");
        if (n > left)
            return ixb_rbuf_fail(r, IX_EMALFORMED, at, "SQ_LODATA chunk past the stated length");
        if (!ixb_get_bytes(r, (size_t)n)) return;
        ixb_get_pad(r, (size_t)n);
        left -= n;
    }
    data->p = r->p + start;
    data->n = r->pos - start;
}

/* Reads the chunks of a read reply (server -> client): a real server may
 * state in the size more than it sends (LSQ names it the LO's size and
 * takes min(size, asked)), so the chunks add up to at most want =
 * min(size, lim->max_lo_read), and end there or at a zero-length chunk
 * (taken as part of the data). A chunk past want is malformed. */
static void rd_reply_chunks(ixb_rbuf *r, int64_t size, int64_t want, ixp_bytes *data) {
    size_t start = r->pos;
    int64_t left = want;
    while (left > 0 && r->st == IX_OK) {
        size_t at = r->pos;
        int16_t n = ixb_get_i16(r);
        if (r->st || n == 0) break;
        if (n < 0 || n > IXP_LO_CHUNK_MAX)
            return ixb_rbuf_fail(r, IX_EMALFORMED, at, "SQ_LODATA chunk length out of range");
        if (n > left)
            return ixb_rbuf_fail(r, IX_EMALFORMED, at,
                                 want == size ? "SQ_LODATA chunk past the stated length"
                                              : "SQ_LODATA chunk past what was asked");
        if (!ixb_get_bytes(r, (size_t)n)) return;
        ixb_get_pad(r, (size_t)n);
        left -= n;
    }
    data->p = r->p + start;
    data->n = r->pos - start;
}

/* The SQ_LODATA seek offset, a JDBC "long int" (10 bytes, the INT8 form):
 * | i16 sign: 1, or -1 when negative | u32 low word | u32 high word |
 * of the magnitude. The width has two sources, the word order one
 * (docs/protocol.md "SQ_LODATA (97)"); this pair is the one place. */
static void put_longint(ixb_wbuf *out, int64_t v) {
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    ixb_put_i16(out, v < 0 ? -1 : 1);
    ixb_put_i32(out, (uint32_t)m); /* the low 32 bits, as they are */
    ixb_put_i32(out, (uint32_t)(m >> 32));
}

/* Reads a long int into *v: 0, or -1 for a sign other than 1 / -1, a
 * magnitude past INT64_MAX, or -0 (not canonical: it would not encode back
 * to the same bytes). A short read is left to r's status. */
static int get_longint(ixb_rbuf *r, int64_t *v) {
    int sign = ixb_get_i16(r);
    uint64_t lo = ixb_get_u32(r), hi = ixb_get_u32(r);
    *v = 0;
    if (r->st) return 0;
    uint64_t m = hi << 32 | lo;
    if ((sign != 1 && sign != -1) || m > INT64_MAX || (sign < 0 && m == 0)) return -1;
    *v = sign < 0 ? -(int64_t)m : (int64_t)m;
    return 0;
}

void ixp_rd_lodata(ixb_rbuf *r, ixp_role role, const ixp_limits *lim, ixp_lodata *d) {
    memset(d, 0, sizeof *d);
    size_t at = r->pos;
    d->op = ixb_get_i16(r);
    if (role == IXP_FROM_CLIENT) d->fd = ixb_get_i16(r);
    size_t lat = r->pos;
    d->length = ixb_get_i32(r);
    if (role == IXP_FROM_CLIENT) d->bufsize = ixb_get_i16(r);
    if (r->st) return;
    if (d->op != IXP_LO_OP_READ && d->op != IXP_LO_OP_READSEEK && d->op != IXP_LO_OP_WRITE)
        return ixb_rbuf_fail(r, IX_EMALFORMED, at, "unknown SQ_LODATA operation");
    if (d->length < 0) return ixb_rbuf_fail(r, IX_EMALFORMED, lat, "negative SQ_LODATA length");
    /* a read reply's size may be the LO's: what is taken of it is bounded below */
    int read_reply = role == IXP_FROM_SERVER && d->op != IXP_LO_OP_WRITE;
    if (!read_reply && (uint32_t)d->length > lim->max_value)
        return ixb_rbuf_fail(r, IX_ELIMIT, lat, "SQ_LODATA length exceeds limit");
    if (role == IXP_FROM_CLIENT) {
        if (d->fd < 0) return ixb_rbuf_fail(r, IX_EMALFORMED, at + 2, "negative LO descriptor");
        if (d->op == IXP_LO_OP_READSEEK) {
            size_t oat = r->pos;
            if (get_longint(r, &d->offset) != 0)
                return ixb_rbuf_fail(r, IX_EMALFORMED, oat, "bad SQ_LODATA seek offset");
            size_t wat = r->pos;
            d->whence = ixb_get_i16(r);
            if (r->st) return;
            if (d->whence < IXP_LO_SEEK_SET || d->whence > IXP_LO_SEEK_END)
                return ixb_rbuf_fail(r, IX_EMALFORMED, wat, "unknown SQ_LODATA seek origin");
        }
        if (d->op == IXP_LO_OP_WRITE) rd_chunks(r, d->length, &d->data);
    } else if (d->op != IXP_LO_OP_WRITE) {
        int64_t cap = (int64_t)lim->max_lo_read;
        rd_reply_chunks(r, d->length, d->length < cap ? d->length : cap, &d->data);
    }
}

int ixp_lodata_chunk(const ixp_lodata *d, size_t *pos, ixp_bytes *chunk) {
    if (*pos + 2 > d->data.n) return 0;
    size_t n = ixb_be16(d->data.p + *pos);
    /* rd_chunks checked every chunk at decode; data made elsewhere is not
     * trusted: a chunk must lie inside data */
    if (n > d->data.n - *pos - 2) return 0;
    chunk->p = d->data.p + *pos + 2;
    chunk->n = n;
    *pos += 2 + n + (n & 1);
    return 1;
}

static void put_chunks(ixb_wbuf *out, const uint8_t *p, size_t n) {
    while (n > 0) {
        size_t k = n < IXP_LO_CHUNK ? n : IXP_LO_CHUNK;
        ixb_put_i16(out, (int)k);
        ixb_put_bytes(out, p, k);
        ixb_put_pad(out, k);
        p += k;
        n -= k;
    }
}

static void put_request(ixb_wbuf *out, int op, int fd, int32_t n) {
    ixb_put_i16(out, IXP_SQ_LODATA);
    ixb_put_i16(out, op);
    ixb_put_i16(out, fd);
    ixb_put_i32(out, n);
    ixb_put_i16(out, IXP_LO_BUFSIZE);
}

int ixp_enc_lo_read(ixb_wbuf *out, int fd, int32_t n) {
    if (fd < 0 || fd > INT16_MAX || n < 0) return IX_EINVAL;
    put_request(out, IXP_LO_OP_READ, fd, n);
    return out->err;
}

int ixp_enc_lo_readseek(ixb_wbuf *out, int fd, int32_t n, int64_t offset, int whence) {
    if (fd < 0 || fd > INT16_MAX || n < 0 || whence < IXP_LO_SEEK_SET || whence > IXP_LO_SEEK_END ||
        offset == INT64_MIN)
        return IX_EINVAL;
    put_request(out, IXP_LO_OP_READSEEK, fd, n);
    put_longint(out, offset);
    ixb_put_i16(out, whence);
    return out->err;
}

/* Where a write's bytes travel is not shown by any source (the reference
 * gives only the request header); they follow the header in the reply's
 * chunk form. */
int ixp_enc_lo_write(ixb_wbuf *out, int fd, const void *p, size_t n) {
    if (fd < 0 || fd > INT16_MAX || n > INT32_MAX || (n && !p)) return IX_EINVAL;
    put_request(out, IXP_LO_OP_WRITE, fd, (int32_t)n);
    put_chunks(out, p, n);
    return out->err;
}

int ixp_enc_lo_reply(ixb_wbuf *out, int op, const void *p, size_t n) {
    if (n > INT32_MAX || (op != IXP_LO_OP_WRITE && n && !p)) return IX_EINVAL;
    ixb_put_i16(out, IXP_SQ_LODATA);
    ixb_put_i16(out, op);
    ixb_put_i32(out, (int64_t)n);
    if (op != IXP_LO_OP_WRITE) put_chunks(out, p, n);
    return out->err;
}

void ixp_wr_lodata(ixb_wbuf *out, ixp_role role, const ixp_lodata *d) {
    ixb_put_i16(out, IXP_SQ_LODATA);
    ixb_put_i16(out, d->op);
    if (role == IXP_FROM_CLIENT) ixb_put_i16(out, d->fd);
    ixb_put_i32(out, d->length);
    if (role == IXP_FROM_CLIENT) {
        ixb_put_i16(out, d->bufsize);
        if (d->op == IXP_LO_OP_READSEEK) {
            put_longint(out, d->offset);
            ixb_put_i16(out, d->whence);
        }
    }
    ixb_put_bytes(out, d->data.p, d->data.n);
}

void ixp_lob_print(const ixp_lodata *d, ixp_role role, ixb_wbuf *out) {
    static const char *const ops[] = {"read", "readseek", "write"};
    const char *op = d->op >= 0 && d->op <= IXP_LO_OP_WRITE ? ops[d->op] : "?";
    if (role == IXP_FROM_CLIENT)
        ixp_printf(out, " op=%s fd=%d length=%d bufsize=%d", op, d->fd, d->length, d->bufsize);
    else
        ixp_printf(out, " op=%s size=%d", op, d->length);
    if (role == IXP_FROM_CLIENT && d->op == IXP_LO_OP_READSEEK)
        ixp_printf(out, " offset=%lld whence=%d", (long long)d->offset, d->whence);
    size_t pos = 0, total = 0;
    int k = 0;
    ixp_bytes c;
    while (ixp_lodata_chunk(d, &pos, &c)) {
        total += c.n;
        k++;
    }
    if (k) ixp_printf(out, " data=%zu bytes in %d chunks", total, k);
}

/* ---- SQ_FILE (layout: ix_lob.h) ---------------------------------------------------------- */

void ixp_rd_file(ixb_rbuf *r, ixp_role role, const ixp_limits *lim, ixp_lodata *d) {
    memset(d, 0, sizeof *d);
    size_t at = r->pos;
    d->op = ixb_get_i16(r);
    size_t lat = r->pos;
    d->length = ixb_get_i32(r);
    if (r->st) return;
    if (d->op < IXP_FILE_OPEN_READ || d->op > IXP_FILE_CLOSE)
        return ixb_rbuf_fail(r, IX_EMALFORMED, at, "unknown SQ_FILE operation");
    if (d->length > 0 && (uint32_t)d->length > lim->max_value)
        return ixb_rbuf_fail(r, IX_ELIMIT, lat, "SQ_FILE length exceeds limit");
    if (role == IXP_FROM_CLIENT) { /* a reply: status */
        if (d->op == IXP_FILE_READ && d->length > 0) rd_chunks(r, d->length, &d->data);
        return;
    }
    if (d->length < 0) return ixb_rbuf_fail(r, IX_EMALFORMED, lat, "negative SQ_FILE length");
    switch (d->op) {
    case IXP_FILE_OPEN_READ:
    case IXP_FILE_OPEN_WRITE:
        if (d->length < 1 || d->length > IXP_FILE_NAME_MAX)
            return ixb_rbuf_fail(r, IX_EMALFORMED, lat, "SQ_FILE name length out of range");
        /* data: the name and its pad as they came (the name is length bytes) */
        d->data.n = (size_t)d->length + ((size_t)d->length & 1);
        d->data.p = ixb_get_bytes(r, d->data.n);
        break;
    case IXP_FILE_READ:
        if (d->length < 1) return ixb_rbuf_fail(r, IX_EMALFORMED, lat, "SQ_FILE read of 0 bytes");
        break;
    case IXP_FILE_WRITE: rd_chunks(r, d->length, &d->data); break;
    default:
        if (d->length) return ixb_rbuf_fail(r, IX_EMALFORMED, lat, "SQ_FILE close with a length");
    }
}

void ixp_wr_file(ixb_wbuf *out, ixp_role role, const ixp_lodata *d) {
    (void)role;
    ixb_put_i16(out, IXP_SQ_FILE);
    ixb_put_i16(out, d->op);
    ixb_put_i32(out, d->length);
    ixb_put_bytes(out, d->data.p, d->data.n);
}

int ixp_enc_file_req(ixb_wbuf *out, int op, const void *p, size_t n) {
    int open = op == IXP_FILE_OPEN_READ || op == IXP_FILE_OPEN_WRITE;
    if (op < IXP_FILE_OPEN_READ || op > IXP_FILE_CLOSE || n > INT32_MAX ||
        (open && (n < 1 || n > IXP_FILE_NAME_MAX || !p)) || (op == IXP_FILE_READ && n < 1) ||
        (op == IXP_FILE_WRITE && n && !p) || (op == IXP_FILE_CLOSE && n))
        return IX_EINVAL;
    ixb_put_i16(out, IXP_SQ_FILE);
    ixb_put_i16(out, op);
    ixb_put_i32(out, (int64_t)n);
    if (open) {
        ixb_put_bytes(out, p, n);
        ixb_put_pad(out, n);
    } else if (op == IXP_FILE_WRITE) {
        put_chunks(out, p, n);
    }
    return out->err;
}

int ixp_enc_file_reply(ixb_wbuf *out, int op, int32_t status, const void *p, size_t n) {
    int data = op == IXP_FILE_READ && status > 0;
    if (op < IXP_FILE_OPEN_READ || op > IXP_FILE_CLOSE || (data && ((size_t)status != n || !p)))
        return IX_EINVAL;
    ixb_put_i16(out, IXP_SQ_FILE);
    ixb_put_i16(out, op);
    ixb_put_i32(out, status);
    if (data) put_chunks(out, p, n);
    return out->err;
}

void ixp_file_print(const ixp_lodata *d, ixp_role role, ixb_wbuf *out) {
    static const char *const ops[] = {"open-read", "open-write", "read", "write", "close"};
    const char *op = d->op >= 0 && d->op <= IXP_FILE_CLOSE ? ops[d->op] : "?";
    if (role == IXP_FROM_CLIENT) {
        ixp_printf(out, " op=%s status=%d", op, d->length);
        return;
    }
    ixp_printf(out, " op=%s length=%d", op, d->length);
    if (d->op <= IXP_FILE_OPEN_WRITE) {
        ixb_put_u8(out, ' ');
        ixp_print_quoted(out, d->data.p, (size_t)d->length);
    }
}
