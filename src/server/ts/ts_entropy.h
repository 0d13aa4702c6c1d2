/*
 * ts_entropy.h: a static-model range coder (rANS, two interleaved 32-bit
 * states, 16-bit renormalisation) over a small alphabet, for the residuals
 * of the DELTA and DOD codecs. The model is one frequency table per block
 * (TS_RANS_M total), written by the caller.
 *
 * Stream layout (what ts_rans_encode appends, ts_rans_decode reads):
 *   offset  size  field
 *   0       4     state 0 (little-endian u32, >= TS_RANS_L)
 *   4       4     state 1
 *   8       2*k   renormalisation words (little-endian u16), in read order
 * Symbol j is coded with state j & 1. The decoder ends with both states
 * back at TS_RANS_L and every word read; anything else is malformed.
 */
#ifndef TS_ENTROPY_H
#define TS_ENTROPY_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"

#define TS_RANS_BITS 12
#define TS_RANS_M    (1u << TS_RANS_BITS) /* the frequencies' total */
#define TS_RANS_L    (1u << 16)           /* lower bound of a state */
#define TS_ALPHA_MAX 256                  /* symbols 0..255 */

/* Scales the counts cnt[0..a) (total m, 1 <= m <= TS_RANS_M) to
 * frequencies totalling TS_RANS_M; a symbol that occurs keeps >= 1. */
void ts_rans_norm(const uint32_t *cnt, int a, uint32_t m, uint32_t *freq);

/* Appends the stream of sym[0..m) under freq[0..a) (every sym[j] < a with
 * freq[sym[j]] > 0). scratch holds m + 4 words. */
void ts_rans_encode(const uint8_t *sym, uint32_t m, const uint32_t *freq, int a, uint16_t *scratch,
                    ix_wbuf *out);

/* Decodes m symbols from the stream p[0..len) under freq[0..a) (total
 * TS_RANS_M, checked by the caller) into out[j] = base + symbol. tab is
 * TS_RANS_M words of scratch. Returns 0, or -1 when the stream is
 * malformed (short, long, or not ending at the initial states). */
int ts_rans_decode(const uint8_t *p, size_t len, const uint32_t *freq, int a, uint32_t *tab,
                   uint64_t base, uint64_t *out, uint32_t m);

#endif
