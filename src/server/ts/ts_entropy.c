/* ts_entropy.c: the static-model rANS coder of ts_entropy.h. */
#include "ts_entropy.h"

#include "ts_codec_int.h"

void ts_rans_norm(const uint32_t *cnt, int a, uint32_t m, uint32_t *freq) {
    /* m <= TS_RANS_M, so cnt * M / m >= cnt >= 1 for a present symbol: no
     * clamping, and the floors leave a non-negative remainder that goes to
     * the most frequent symbol. */
    uint32_t sum = 0;
    int top = 0;
    for (int s = 0; s < a; s++) {
        freq[s] = (uint32_t)((uint64_t)cnt[s] * TS_RANS_M / m);
        sum += freq[s];
        if (cnt[s] > cnt[top]) top = s;
    }
    freq[top] += TS_RANS_M - sum;
}

/* One encoder step: renormalise (at most one word out), then fold in the
 * symbol of frequency f starting at c. */
static inline uint32_t enc_put(uint32_t x, uint32_t f, uint32_t c, uint16_t **wp) {
    if ((uint64_t)x >= (uint64_t)f << (32 - TS_RANS_BITS)) {
        *--*wp = (uint16_t)x;
        x >>= 16;
    }
    return ((x / f) << TS_RANS_BITS) + x % f + c;
}

void ts_rans_encode(const uint8_t *sym, uint32_t m, const uint32_t *freq, int a, uint16_t *scratch,
                    ix_wbuf *out) {
    uint32_t cum[TS_ALPHA_MAX + 1];
    cum[0] = 0;
    for (int s = 0; s < a; s++)
        cum[s + 1] = cum[s] + freq[s];
    uint16_t *end = scratch + m + 4, *wp = end;
    uint32_t x[2] = {TS_RANS_L, TS_RANS_L};
    for (uint32_t j = m; j-- > 0;) {
        uint8_t s = sym[j];
        x[j & 1] = enc_put(x[j & 1], freq[s], cum[s], &wp);
    }
    size_t nw = (size_t)(end - wp);
    if (ix_wbuf_reserve(out, 8 + 2 * nw)) return;
    uint8_t *o = out->data + out->len;
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 4; b++)
            *o++ = (uint8_t)(x[k] >> (8 * b));
    for (; wp < end; wp++) {
        *o++ = (uint8_t)*wp;
        *o++ = (uint8_t)(*wp >> 8);
    }
    out->len = (size_t)(o - out->data);
}

/* tab[slot] = (freq - 1) << 20 | (slot - cum) << 8 | symbol: one load a step. */
static void build_tab(const uint32_t *freq, int a, uint32_t *tab) {
    uint32_t c = 0;
    for (int s = 0; s < a; s++) {
        if (freq[s] == 0) continue;
        uint32_t e = (freq[s] - 1) << 20 | (uint32_t)s;
        for (uint32_t k = 0; k < freq[s]; k++)
            tab[c + k] = e | k << 8;
        c += freq[s];
    }
}

#define DEC_STEP(X)                                                                                \
    do {                                                                                           \
        uint32_t e_ = tab[X & (TS_RANS_M - 1)];                                                    \
        X = ((e_ >> 20) + 1) * (X >> TS_RANS_BITS) + ((e_ >> 8) & (TS_RANS_M - 1));                \
        *o++ = base + (e_ & 0xff);                                                                 \
        if (X < TS_RANS_L) {                                                                       \
            if (q + 2 > qe) return -1;                                                             \
            X = X << 16 | (uint32_t)q[0] | (uint32_t)q[1] << 8;                                    \
            q += 2;                                                                                \
        }                                                                                          \
    } while (0)

int ts_rans_decode(const uint8_t *p, size_t len, const uint32_t *freq, int a, uint32_t *tab,
                   uint64_t base, uint64_t *out, uint32_t m) {
    if (len < 8 || (len & 1)) return -1;
    uint32_t x0 = ts_ld32(p), x1 = ts_ld32(p + 4);
    if (x0 < TS_RANS_L || x1 < TS_RANS_L) return -1;
    build_tab(freq, a, tab);
    const uint8_t *q = p + 8, *qe = p + len;
    uint64_t *o = out, *oe = out + m;
    while (oe - o >= 2) {
        DEC_STEP(x0);
        DEC_STEP(x1);
    }
    if (o < oe) DEC_STEP(x0);
    return x0 == TS_RANS_L && x1 == TS_RANS_L && q == qe ? 0 : -1;
}
