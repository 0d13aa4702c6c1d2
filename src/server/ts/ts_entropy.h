/*
 * ts_entropy.h: a static-model range coder (rANS, four interleaved 32-bit
 * states, 16-bit renormalisation) over a small alphabet, for the residuals
 * of the DELTA and DOD codecs. The model is one frequency table per block
 * totalling 2^bits (bits TS_RANS_BITS_MIN..TS_RANS_BITS_MAX), written by
 * the caller.
 *
 * Stream layout (what ixts_rans_encode appends, ixts_rans_decode reads):
 *   offset  size  field
 *   0       16    states 0..3 (little-endian u32 each, >= TS_RANS_L)
 *   16      2*k   renormalisation words (little-endian u16), in read order
 * Symbol j is coded with state j % 4. The decoder ends with every state
 * back at TS_RANS_L and every word read; anything else is malformed.
 */
#ifndef TS_ENTROPY_H
#define TS_ENTROPY_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"

#define TS_RANS_BITS_MIN 8
#define TS_RANS_BITS_MAX 12
#define TS_RANS_MMAX     (1u << TS_RANS_BITS_MAX)
#define TS_RANS_L        (1u << 16) /* lower bound of a state */
#define TS_RANS_NS       4          /* interleaved states */
#define TS_ALPHA_MAX     256        /* symbols 0..255 */

/* The precision the encoder uses for cnt symbols: small tables for short
 * blocks (the decoder builds one entry per 2^bits slot). */
int ixts_rans_bits(uint32_t cnt);

/* Scales the counts cnt[0..a) (total m >= 1, a <= 2^bits) to frequencies
 * totalling 2^bits; a symbol that occurs keeps >= 1. */
void ixts_rans_norm(const uint32_t *cnt, int a, uint32_t m, int bits, uint32_t *freq);

/* Appends the stream of sym[0..m) under freq[0..a) (every sym[j] < a with
 * freq[sym[j]] > 0). scratch holds m + 8 words. */
void ixts_rans_encode(const uint8_t *sym, uint32_t m, const uint32_t *freq, int a, int bits,
                      uint16_t *scratch, ixb_wbuf *out);

/* Decodes m symbols from the stream p[0..len) under freq[0..a) (total
 * 2^bits, checked by the caller) into sym[0..m). tab: 2^bits words of
 * scratch; pad: len + 16 bytes of scratch. Returns 0, or -1 when the
 * stream is malformed (short, long, or not ending at the initial states). */
int ixts_rans_decode(const uint8_t *p, size_t len, const uint32_t *freq, int a, int bits,
                     uint32_t *tab, uint8_t *pad, uint8_t *sym, uint32_t m);

#endif
