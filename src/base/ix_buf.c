/* ix_buf.c: allocator hooks, growable output buffer, bounded input cursor. */
#include "ix_buf.h"

#include <stdlib.h>
#include <string.h>

void *ixb_malloc(const ixb_alloc *a, size_t n) {
    return a ? a->malloc(n, a->ud) : malloc(n);
}

/* A NULL p is a malloc: ix_allocator's realloc only ever sees live blocks. */
void *ixb_realloc(const ixb_alloc *a, void *p, size_t n) {
    if (!p) return ixb_malloc(a, n);
    return a ? a->realloc(p, n, a->ud) : realloc(p, n);
}

void ixb_free(const ixb_alloc *a, void *p) {
    if (!p) return;
    if (a)
        a->free(p, a->ud);
    else
        free(p);
}

void ixb_wbuf_init(ixb_wbuf *b, const ixb_alloc *a) {
    memset(b, 0, sizeof *b);
    b->alloc = a;
}

void ixb_wbuf_free(ixb_wbuf *b) {
    ixb_free(b->alloc, b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void ixb_wbuf_reset(ixb_wbuf *b) {
    b->len = 0;
    b->err = IX_OK;
}

int ixb_wbuf_reserve(ixb_wbuf *b, size_t n) {
    if (b->err) return b->err;
    size_t max = b->max ? b->max : SIZE_MAX / 2;
    if (n > max || b->len > max - n) return b->err = IX_ELIMIT;
    if (b->len + n <= b->cap) return IX_OK;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + n)
        cap = cap > max / 2 ? max : cap * 2;
    uint8_t *d = ixb_realloc(b->alloc, b->data, cap);
    if (!d) return b->err = IX_ENOMEM;
    b->data = d;
    b->cap = cap;
    return IX_OK;
}

void ixb_put_bytes(ixb_wbuf *b, const void *p, size_t n) {
    if (n == 0 || (!ixb_wbuf_fits(b, n) && ixb_wbuf_reserve(b, n))) return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void ixb_put_zeros(ixb_wbuf *b, size_t n) {
    if (n == 0 || ixb_wbuf_reserve(b, n)) return;
    memset(b->data + b->len, 0, n);
    b->len += n;
}

void ixb_put_pad(ixb_wbuf *b, size_t n) {
    if (n & 1) ixb_put_u8(b, 0);
}

void ixb_patch_i16(ixb_wbuf *b, size_t at, int v) {
    if (!b->err && at + 2 <= b->len) ixb_st16(b->data + at, (uint16_t)v);
}

void ixb_patch_i32(ixb_wbuf *b, size_t at, int64_t v) {
    if (!b->err && at + 4 <= b->len) ixb_st32(b->data + at, (uint32_t)v);
}

void ixb_rbuf_init(ixb_rbuf *r, const void *p, size_t len) {
    memset(r, 0, sizeof *r);
    r->p = p;
    r->len = len;
}

int ixb_need(ixb_rbuf *r, size_t n) {
    if (r->st != IX_OK) return 0;
    if (r->len - r->pos < n) {
        r->st = IX_NEED_MORE;
        r->err_at = r->len;
        r->why = "input ends inside a message";
        return 0;
    }
    return 1;
}

void ixb_rbuf_fail(ixb_rbuf *r, int st, size_t at, const char *why) {
    if (r->st == IX_OK || r->st == IX_NEED_MORE) {
        r->st = st;
        r->err_at = at;
        r->why = why;
    }
}

const uint8_t *ixb_get_bytes(ixb_rbuf *r, size_t n) {
    if (!ixb_need(r, n)) return NULL;
    const uint8_t *p = r->p + r->pos;
    r->pos += n;
    return p;
}

uint8_t ixb_get_u8(ixb_rbuf *r) {
    const uint8_t *p = ixb_get_bytes(r, 1);
    return p ? p[0] : 0;
}

uint16_t ixb_get_u16(ixb_rbuf *r) {
    const uint8_t *p = ixb_get_bytes(r, 2);
    return p ? ixb_be16(p) : 0;
}

int16_t ixb_get_i16(ixb_rbuf *r) {
    return (int16_t)ixb_get_u16(r);
}

uint32_t ixb_get_u32(ixb_rbuf *r) {
    const uint8_t *p = ixb_get_bytes(r, 4);
    return p ? ixb_be32(p) : 0;
}

int32_t ixb_get_i32(ixb_rbuf *r) {
    return (int32_t)ixb_get_u32(r);
}

int64_t ixb_get_i64(ixb_rbuf *r) {
    const uint8_t *p = ixb_get_bytes(r, 8);
    return p ? (int64_t)ixb_be64(p) : 0;
}

void ixb_get_pad(ixb_rbuf *r, size_t n) {
    if (n & 1) (void)ixb_get_bytes(r, 1);
}

const char *ix_rc_str(int rc) {
    switch (rc) {
    case IX_OK: return "ok";
    case IX_NEED_MORE: return "need more bytes";
    case IX_NULL_VALUE: return "null value";
    case IX_EMALFORMED: return "malformed input";
    case IX_ELIMIT: return "length exceeds limit";
    case IX_ENOMEM: return "out of memory";
    case IX_EINVAL: return "invalid argument";
    case IX_ERANGE: return "value out of range";
    case IX_ESPACE: return "output buffer too small";
    case IX_ECONN: return "connection is dead";
    case IX_ESQL: return "SQL error";
    case IX_ETIMEOUT: return "timed out";
    case IX_ETLS: return "TLS failure";
    case IX_EMISUSE: return "API misuse";
    case IX_EPROTO: return "protocol violation";
    case IX_ENOTSUP: return "not supported with this server";
    case IX_ROW: return "row";
    case IX_DONE: return "done";
    case IX_WANT_READ: return "wait until readable";
    case IX_WANT_WRITE: return "wait until writable";
    case IX_WANT_TIMER: return "wait for the timer";
    case IX_UNDESCRIBED: return "not described";
    default: return "unknown status";
    }
}
