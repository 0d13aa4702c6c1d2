/*
 * ts_codec_int.h: internals of the TimeSeries chunk codec shared by its
 * files (ts_codec.c, ts_entropy.c) and the unit test: byte and bit I/O,
 * zigzag, and the test-only encoder that forces a codec.
 */
#ifndef TS_CODEC_INT_H
#define TS_CODEC_INT_H

#include <string.h>

#include "ts_codec.h"

#define TS_BLOB_V1   1   /* the blob's version byte */
#define TS_FRAME     128 /* residuals per bit-packed frame */
#define TS_UV_MAX    10  /* bytes of a 64-bit varint */
#define TS_FRAME_PAD 16  /* zero bytes after a copied frame (unaligned loads) */

/* Column flags (the byte after the codec byte). */
#define TS_FL_NULL    0x01 /* a presence bitmap starts the payload */
#define TS_FL_ENTROPY 0x02 /* DELTA/DOD residuals are range coded, not frames */
#define TS_FL_SCALED  0x04 /* F64/F32: the integer codecs carry decimal mantissas */
#define TS_FL_KSHIFT  4    /* bits 4-6: the column's ts_kind */
#define TS_FL_KMASK   0x70
#define TS_FL_KNOWN   (TS_FL_NULL | TS_FL_ENTROPY | TS_FL_SCALED | TS_FL_KMASK)

#define TS_DEC_SCALE_MAX 32 /* TS_K_DEC scales 0..32 */
#define TS_DSCALE_MAX    15 /* decimal scaling of doubles: s in 0..15 */

/* ixts_chunk_encode_with: force[c] is 0 (automatic choice) or a ts_codec_id,
 * optionally or-ed with TS_FORCE_ENTROPY (DELTA/DOD residuals range coded)
 * or TS_FORCE_FRAMES (DELTA/DOD residuals bit packed). A forced codec that
 * cannot represent the column (CONST over different values, the range
 * coder over an alphabet wider than TS_ALPHA_MAX) gives TS_EINVAL. A column
 * without a non-NULL value is always RAW. Test and tuning use only. */
#define TS_FORCE_ENTROPY 0x100
#define TS_FORCE_FRAMES  0x200
int ixts_chunk_encode_with(uint32_t n, int ncols, const ts_colv *cols, const int *force,
                           ixb_wbuf *out);

/* ---- little-endian loads and stores ------------------------------------ */

static inline uint64_t ts_ld64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void ts_st64(uint8_t *p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

static inline uint32_t ts_ld32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t ts_zz(uint64_t d) {
    return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

static inline uint64_t ts_unzz(uint64_t u) {
    return (u >> 1) ^ (0 - (u & 1));
}

/* ---- writing ----------------------------------------------------------- */

/* Unsigned LEB128 (7 bits a byte, low first). */
static inline void ts_put_uv(ixb_wbuf *b, uint64_t v) {
    if (ixb_wbuf_reserve(b, TS_UV_MAX)) return;
    uint8_t *p = b->data + b->len;
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    b->len = (size_t)(p - b->data);
}

/* A bit writer, low bit first, into a wbuf (reserved by the caller: at
 * most 8 bytes per ts_bw_put plus 8 for ts_bw_flush). */
typedef struct ts_bw {
    uint8_t *p;
    uint64_t acc;
    unsigned nb; /* bits held in acc, < 64 */
} ts_bw;

/* Appends the w low bits of v (v < 2^w, w 0..64). */
static inline void ts_bw_put(ts_bw *w, uint64_t v, unsigned bits) {
    if (bits == 0) return;
    w->acc |= v << w->nb;
    if (w->nb + bits >= 64) {
        ts_st64(w->p, w->acc);
        w->p += 8;
        w->acc = w->nb ? v >> (64 - w->nb) : 0;
        w->nb = w->nb + bits - 64;
    } else {
        w->nb += bits;
    }
}

/* Writes the bits held, padded with zeros to a whole byte. */
static inline void ts_bw_flush(ts_bw *w) {
    for (; w->nb > 0; w->nb = w->nb > 8 ? w->nb - 8 : 0) {
        *w->p++ = (uint8_t)w->acc;
        w->acc >>= 8;
    }
}

/* ---- reading ----------------------------------------------------------- */

/* A bounded cursor; `bad` is sticky and every read past the end sets it. */
typedef struct ts_rd {
    const uint8_t *p, *end;
    int bad;
} ts_rd;

static inline size_t ts_rd_left(const ts_rd *r) {
    return (size_t)(r->end - r->p);
}

static inline uint8_t ts_get_u8(ts_rd *r) {
    if (r->p >= r->end) {
        r->bad = 1;
        return 0;
    }
    return *r->p++;
}

/* LEB128; more than 10 bytes or bits beyond 64 are malformed. */
static inline uint64_t ts_get_uv(ts_rd *r) {
    uint64_t v = 0;
    for (unsigned sh = 0; sh < 64; sh += 7) {
        if (r->p >= r->end) break;
        uint8_t b = *r->p++;
        if (sh == 63 && b > 1) break;
        v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) return v;
    }
    r->bad = 1;
    return 0;
}

static inline const uint8_t *ts_get_bytes(ts_rd *r, size_t n) {
    if (ts_rd_left(r) < n) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    return p;
}

#endif
