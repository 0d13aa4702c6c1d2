/*
 * ts_codec.h: lossless compression of one TimeSeries chunk (plain C: no
 * SQLite, no I/O). A chunk is n elements (1..TS_CHUNK_MAX) of ncols columns
 * (1..TS_MAX_COLS); column 0 is the time column (TS_K_INT: slot numbers of
 * a regular series or microseconds of an irregular one, strictly
 * increasing), the others the metrics of the row type.
 *
 * Each column is compressed on its own with the smallest of the codecs
 * below (ts_codec_id); the encoder tries the candidates that apply and keeps
 * the shortest block. Every codec is exact: integers as they are, doubles
 * bit for bit (-0.0, +-Inf and every NaN payload included), floats (TS_K_F32)
 * bit for bit as floats. NULL is kept per value in a bitmap (only when the
 * column has a NULL).
 *
 * The decoder is written for hostile input: every count and length in the
 * block is checked against the bytes present and against TS_CHUNK_MAX /
 * TS_MAX_COLS before use, and malformed input returns TS_EBADCHUNK, never a
 * crash or an over-read (fuzzed by tests/fuzz/fuzz_ts_chunk.c).
 *
 * Blob layout: see the table above ixts_chunk_encode in ts_codec.c.
 */
#ifndef TS_CODEC_H
#define TS_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"

#define TS_CHUNK_MAX 4096 /* elements in one chunk */
#define TS_MAX_COLS  65   /* time column + up to 64 metrics */

/* The value kind of a column. */
typedef enum ts_kind {
    TS_K_INT = 1, /* int64 values (SMALLINT, INTEGER, INT8/BIGINT; the time column) */
    TS_K_F64 = 2, /* double (FLOAT) */
    TS_K_F32 = 3, /* float (SMALLFLOAT), carried as double: each value is exactly a float */
    TS_K_DEC = 4, /* DECIMAL: value = i * 10^-scale, one scale per column (0..32) */
} ts_kind;

/* The codec a column block uses (the first byte of the block). */
typedef enum ts_codec_id {
    TS_C_CONST = 1, /* every non-NULL value the same */
    TS_C_RLE = 2,   /* runs of equal values */
    TS_C_DELTA = 3, /* (decimal scaling for doubles) + delta + zigzag + bit packing */
    TS_C_DOD = 4,   /* as DELTA with delta of delta */
    TS_C_XOR = 5,   /* XOR of consecutive doubles (Gorilla) */
    TS_C_RAW = 6,   /* the values as they are */
    TS_C_NCODECS
} ts_codec_id;

/* One column of n values: encoder input or decoder output.
 * - null: n flags (1 = NULL) or NULL when the column has no NULL. A NULL
 *   value's i/d slot is ignored by the encoder and set to 0 by the decoder.
 * - i: TS_K_INT values, TS_K_DEC mantissas (value = i[k] * 10^-scale).
 * - d: TS_K_F64 / TS_K_F32 values.
 * - scale: TS_K_DEC: the column's scale (0..32), in and out.
 * - dscale: decoder output for TS_K_F64/F32 only: -1, or the decimal scale
 *   s (0..15) of a decimal-scaled block, in which case the decoder also
 *   fills i with the scaled integers: d[k] == (double)i[k] / 10^s exactly
 *   (for TS_K_F32: d[k] == (double)(float)((double)i[k] / 10^s)), so the
 *   JSON writer prints them without formatting a double. With dscale -1 a
 *   double column's i is NULL.
 * A block is decimal-scaled when every non-NULL value v satisfies, for the
 * smallest s in 0..15 that works for all: m = llround(v * 10^s), |m| <
 * 2^53 and m / 10^s == v bit for bit (rounded to float for F32); so never
 * with -0.0, an infinity or a NaN. */
typedef struct ts_colv {
    int kind;
    uint8_t *null;
    int64_t *i;
    double *d;
    int scale;
    int dscale;
} ts_colv;

/* Return codes (0 = OK). */
enum { TS_OK = 0, TS_EBADCHUNK = -1, TS_ENOMEM = -2, TS_EINVAL = -3 };

/* Appends the compressed chunk of n elements (1..TS_CHUNK_MAX) of ncols
 * columns (1..TS_MAX_COLS; cols[c].kind set, null/i/d as the kind needs)
 * to out. Returns TS_OK, TS_EINVAL (n, ncols or a kind out of range, a
 * DEC scale out of range, a TS_K_F32 value that is not exactly a float,
 * i or d NULL where a non-NULL value needs it; out is left as it was) or
 * TS_ENOMEM (out's sticky error, or the encoder's workspace of about
 * 100 KB, one malloc per call). The caller owns everything; nothing is
 * kept. */
int ixts_chunk_encode(uint32_t n, int ncols, const ts_colv *cols, ixb_wbuf *out);

/* Decoded chunk. The decoder owns the arrays and reuses them across calls:
 * cols[c].null / i / d stay valid until the next ixts_chunk_decode on the same
 * ts_dec or ixts_dec_free. */
typedef struct ts_dec {
    uint32_t n;
    int ncols;
    ts_colv cols[TS_MAX_COLS];
    /* in (set after ixts_dec_init, kept across calls): 1 = a decimal-scaled
     * double column is given as i and dscale only, d NULL (the value is
     * ixts_scaled_double(i[k], dscale, kind)); readers that print or sum the
     * scaled integers skip one division per value */
    int scaled_lazy;
    /* private: buffers and their capacities */
    void *priv;
} ts_dec;

/* The double of scaled integer m of a decimal-scaled column (scale s
 * 0..15, kind TS_K_F64 or TS_K_F32): exactly what the decoder gives as d. */
double ixts_scaled_double(int64_t m, int s, int kind);

void ixts_dec_init(ts_dec *d);
void ixts_dec_free(ts_dec *d);

/* Decodes a chunk blob p[0..len) made by ixts_chunk_encode with columns of the
 * given kinds (ncols of them: the row type the chunk was written with).
 * mask: bit c set = decode column c (columns not asked for are skipped, but
 * their headers checked, and their cols[c] arrays left NULL; kind and scale
 * are set); bit 63 stands for columns 63 and 64; ~0ull for all. On an error
 * n is 0 and every cols[c] is zeroed. Returns TS_OK,
 * TS_EBADCHUNK (malformed, truncated, trailing bytes, a count beyond
 * TS_CHUNK_MAX, kinds not those of the blob) or TS_ENOMEM. */
int ixts_chunk_decode(ts_dec *d, const uint8_t *p, size_t len, int ncols, const int *kinds,
                      uint64_t mask);

/* Element count of a chunk blob without decoding it (0 when malformed). */
uint32_t ixts_chunk_count(const uint8_t *p, size_t len);

/* What a chunk blob is made of, for oni_ts_info: per column the codec id
 * and the bytes of its block. Returns TS_OK or TS_EBADCHUNK. */
typedef struct ts_colinfo {
    int codec;    /* ts_codec_id */
    size_t bytes; /* block bytes, header included */
} ts_colinfo;
int ixts_chunk_info(const uint8_t *p, size_t len, int ncols, ts_colinfo *info);

/* Name of a codec ("const", "rle", "delta", "dod", "xor", "raw"). */
const char *ixts_codec_name(int codec);

#endif
