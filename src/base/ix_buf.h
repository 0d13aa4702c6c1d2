/*
 * ix_buf.h: allocator hooks, a growable output buffer and a bounded input
 * cursor. The bottom layer: every codec reads and writes bytes through these,
 * so that no read passes the end of its buffer and every write either lands
 * or leaves a sticky failure flag.
 *
 * All integers on the SQLI wire are big-endian two's complement.
 */
#ifndef IXB_BUF_H
#define IXB_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "ixdb.h"

/* Allocator hooks, in the style of nghttp2_mem: the public ix_allocator
 * (ixdb.h). A NULL ixb_alloc pointer everywhere means the C library's
 * malloc/realloc/free. */
typedef ix_allocator ixb_alloc;

void *ixb_malloc(const ixb_alloc *a, size_t n);
void *ixb_realloc(const ixb_alloc *a, void *p, size_t n);
void ixb_free(const ixb_alloc *a, void *p);

/* ---- output ------------------------------------------------------------ */

/* A growable byte buffer. Invariant: len <= cap; data is owned by the buffer
 * and freed by ixb_wbuf_free. `err` is sticky: once a write fails (IX_ENOMEM
 * or IX_ELIMIT), later writes do nothing, so an encoder may write a whole
 * message and check once at the end. */
typedef struct ixb_wbuf {
    uint8_t *data;
    size_t len;
    size_t cap;
    size_t max; /* hard upper bound on len; 0 = SIZE_MAX/2 */
    int err;    /* IX_OK or the first failure */
    const ixb_alloc *alloc;
} ixb_wbuf;

void ixb_wbuf_init(ixb_wbuf *b, const ixb_alloc *a);
void ixb_wbuf_free(ixb_wbuf *b);
/* Empties the buffer (keeps its memory) and clears err. */
void ixb_wbuf_reset(ixb_wbuf *b);
/* Makes room for n more bytes; returns IX_OK or the sticky error. */
int ixb_wbuf_reserve(ixb_wbuf *b, size_t n);
/* Appends n bytes (the writes below: big-endian; each a no-op once err is
 * set). ixb_put_u8 / _i16 / _i32 / _i64 are inline when the value fits as
 * the buffer is (ixb_wbuf_fits), else they take ixb_put_bytes. */
void ixb_put_bytes(ixb_wbuf *b, const void *p, size_t n);
static inline void ixb_put_u8(ixb_wbuf *b, uint8_t v);
static inline void ixb_put_i16(ixb_wbuf *b, int v);
static inline void ixb_put_i32(ixb_wbuf *b, int64_t v);
static inline void ixb_put_i64(ixb_wbuf *b, int64_t v);
void ixb_put_zeros(ixb_wbuf *b, size_t n);
/* Writes one 00 byte if n is odd (the SQLI even-length pad). */
void ixb_put_pad(ixb_wbuf *b, size_t n);
/* Overwrites 2 or 4 bytes at offset `at` (already written) big-endian. */
void ixb_patch_i16(ixb_wbuf *b, size_t at, int v);
void ixb_patch_i32(ixb_wbuf *b, size_t at, int64_t v);

/* ---- input ------------------------------------------------------------- */

/* A read cursor over borrowed bytes [p, p+len). A read that would pass the
 * end sets st = IX_NEED_MORE and returns zero; a caller-declared violation
 * sets st = IX_EMALFORMED or IX_ELIMIT with `why` and the offset `err_at`.
 * Like ixb_wbuf, the status is sticky and all later reads return zero. */
typedef struct ixb_rbuf {
    const uint8_t *p;
    size_t len;
    size_t pos;
    int st;
    size_t err_at;
    const char *why; /* static text, set with st < 0 */
} ixb_rbuf;

void ixb_rbuf_init(ixb_rbuf *r, const void *p, size_t len);
static inline size_t ixb_left(const ixb_rbuf *r) {
    return r->st == IX_OK ? r->len - r->pos : 0;
}
/* Returns 1 if n bytes are available, else sets IX_NEED_MORE and returns 0. */
int ixb_need(ixb_rbuf *r, size_t n);
uint8_t ixb_get_u8(ixb_rbuf *r);
int16_t ixb_get_i16(ixb_rbuf *r);
uint16_t ixb_get_u16(ixb_rbuf *r);
int32_t ixb_get_i32(ixb_rbuf *r);
uint32_t ixb_get_u32(ixb_rbuf *r);
int64_t ixb_get_i64(ixb_rbuf *r);
/* Returns a pointer to the next n bytes and skips them, or NULL (NEED_MORE). */
const uint8_t *ixb_get_bytes(ixb_rbuf *r, size_t n);
/* Skips the pad byte that follows an item of odd length n. */
void ixb_get_pad(ixb_rbuf *r, size_t n);
/* Marks the cursor malformed at its current position (offset `at`). */
void ixb_rbuf_fail(ixb_rbuf *r, int st, size_t at, const char *why);

/* Unaligned big-endian loads and stores on raw bytes. */
static inline uint16_t ixb_be16(const uint8_t *p) {
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}
static inline uint32_t ixb_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t ixb_be64(const uint8_t *p) {
    return (uint64_t)ixb_be32(p) << 32 | ixb_be32(p + 4);
}
static inline void ixb_st16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static inline void ixb_st32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static inline void ixb_st64(uint8_t *p, uint64_t v) {
    ixb_st32(p, (uint32_t)(v >> 32));
    ixb_st32(p + 4, (uint32_t)v);
}

/* 1 when n more bytes fit as the buffer is (no growth, no error, within
 * max): a write then needs no ixb_wbuf_reserve. */
static inline int ixb_wbuf_fits(const ixb_wbuf *b, size_t n) {
    return !b->err && b->cap - b->len >= n && (!b->max || (n <= b->max && b->len <= b->max - n));
}

/* Where n more bytes go when they fit (len then counts them), else NULL. */
static inline uint8_t *ixb_wbuf_take(ixb_wbuf *b, size_t n) {
    if (!ixb_wbuf_fits(b, n)) return NULL;
    b->len += n;
    return b->data + b->len - n;
}
static inline void ixb_put_u8(ixb_wbuf *b, uint8_t v) {
    uint8_t *o = ixb_wbuf_take(b, 1);
    if (o)
        *o = v;
    else
        ixb_put_bytes(b, &v, 1);
}
static inline void ixb_put_i16(ixb_wbuf *b, int v) {
    uint8_t t[2], *o = ixb_wbuf_take(b, 2);
    ixb_st16(o ? o : t, (uint16_t)v);
    if (!o) ixb_put_bytes(b, t, 2);
}
static inline void ixb_put_i32(ixb_wbuf *b, int64_t v) {
    uint8_t t[4], *o = ixb_wbuf_take(b, 4);
    ixb_st32(o ? o : t, (uint32_t)v);
    if (!o) ixb_put_bytes(b, t, 4);
}
static inline void ixb_put_i64(ixb_wbuf *b, int64_t v) {
    uint8_t t[8], *o = ixb_wbuf_take(b, 8);
    ixb_st64(o ? o : t, (uint64_t)v);
    if (!o) ixb_put_bytes(b, t, 8);
}

#endif /* IXB_BUF_H */
