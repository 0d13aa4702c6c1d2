/*
 * ix_buf.h: allocator hooks, a growable output buffer and a bounded input
 * cursor. The bottom layer: every codec reads and writes bytes through these,
 * so that no read passes the end of its buffer and every write either lands
 * or leaves a sticky failure flag.
 *
 * All integers on the SQLI wire are big-endian two's complement.
 */
#ifndef IX_BUF_H
#define IX_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "ixdb.h"

/* Allocator hooks, in the style of nghttp2_mem. A NULL ix_alloc pointer
 * everywhere means the C library's malloc/realloc/free. */
typedef struct ix_alloc {
    void *(*malloc)(size_t size, void *ud);
    void *(*realloc)(void *ptr, size_t size, void *ud);
    void (*free)(void *ptr, void *ud);
    void *ud;
} ix_alloc;

void *ix_malloc(const ix_alloc *a, size_t n);
void *ix_realloc(const ix_alloc *a, void *p, size_t n);
void ix_free(const ix_alloc *a, void *p);

/* ---- output ------------------------------------------------------------ */

/* A growable byte buffer. Invariant: len <= cap; data is owned by the buffer
 * and freed by ix_wbuf_free. `err` is sticky: once a write fails (IX_ENOMEM
 * or IX_ELIMIT), later writes do nothing, so an encoder may write a whole
 * message and check once at the end. */
typedef struct ix_wbuf {
    uint8_t *data;
    size_t len;
    size_t cap;
    size_t max; /* hard upper bound on len; 0 = SIZE_MAX/2 */
    int err;    /* IX_OK or the first failure */
    const ix_alloc *alloc;
} ix_wbuf;

void ix_wbuf_init(ix_wbuf *b, const ix_alloc *a);
void ix_wbuf_free(ix_wbuf *b);
/* Empties the buffer (keeps its memory) and clears err. */
void ix_wbuf_reset(ix_wbuf *b);
/* Makes room for n more bytes; returns IX_OK or the sticky error. */
int ix_wbuf_reserve(ix_wbuf *b, size_t n);
void ix_put_bytes(ix_wbuf *b, const void *p, size_t n);
void ix_put_u8(ix_wbuf *b, uint8_t v);
void ix_put_i16(ix_wbuf *b, int v);
void ix_put_i32(ix_wbuf *b, int64_t v);
void ix_put_i64(ix_wbuf *b, int64_t v);
void ix_put_zeros(ix_wbuf *b, size_t n);
/* Writes one 00 byte if n is odd (the SQLI even-length pad). */
void ix_put_pad(ix_wbuf *b, size_t n);
/* Overwrites 2 or 4 bytes at offset `at` (already written) big-endian. */
void ix_patch_i16(ix_wbuf *b, size_t at, int v);
void ix_patch_i32(ix_wbuf *b, size_t at, int64_t v);

/* ---- input ------------------------------------------------------------- */

/* A read cursor over borrowed bytes [p, p+len). A read that would pass the
 * end sets st = IX_NEED_MORE and returns zero; a caller-declared violation
 * sets st = IX_EMALFORMED or IX_ELIMIT with `why` and the offset `err_at`.
 * Like ix_wbuf, the status is sticky and all later reads return zero. */
typedef struct ix_rbuf {
    const uint8_t *p;
    size_t len;
    size_t pos;
    int st;
    size_t err_at;
    const char *why; /* static text, set with st < 0 */
} ix_rbuf;

void ix_rbuf_init(ix_rbuf *r, const void *p, size_t len);
static inline size_t ix_left(const ix_rbuf *r) {
    return r->st == IX_OK ? r->len - r->pos : 0;
}
/* Returns 1 if n bytes are available, else sets IX_NEED_MORE and returns 0. */
int ix_need(ix_rbuf *r, size_t n);
uint8_t ix_get_u8(ix_rbuf *r);
int16_t ix_get_i16(ix_rbuf *r);
uint16_t ix_get_u16(ix_rbuf *r);
int32_t ix_get_i32(ix_rbuf *r);
uint32_t ix_get_u32(ix_rbuf *r);
int64_t ix_get_i64(ix_rbuf *r);
/* Returns a pointer to the next n bytes and skips them, or NULL (NEED_MORE). */
const uint8_t *ix_get_bytes(ix_rbuf *r, size_t n);
/* Skips the pad byte that follows an item of odd length n. */
void ix_get_pad(ix_rbuf *r, size_t n);
/* Marks the cursor malformed at its current position (offset `at`). */
void ix_rbuf_fail(ix_rbuf *r, int st, size_t at, const char *why);

/* Unaligned big-endian loads and stores on raw bytes. */
static inline uint16_t ix_be16(const uint8_t *p) {
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}
static inline uint32_t ix_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t ix_be64(const uint8_t *p) {
    return (uint64_t)ix_be32(p) << 32 | ix_be32(p + 4);
}
static inline void ix_st16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static inline void ix_st32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static inline void ix_st64(uint8_t *p, uint64_t v) {
    ix_st32(p, (uint32_t)(v >> 32));
    ix_st32(p + 4, (uint32_t)v);
}

#endif /* IX_BUF_H */
