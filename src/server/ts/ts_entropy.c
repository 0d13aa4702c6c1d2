/* ts_entropy.c: the static-model rANS coder of ts_entropy.h. */
#include "ts_entropy.h"

#include "ts_codec_int.h"

int ixts_rans_bits(uint32_t cnt) {
    int bits = TS_RANS_BITS_MIN;
    while (bits < 10 && (1u << bits) < cnt)
        bits++;
    return bits;
}

void ixts_rans_norm(const uint32_t *cnt, int a, uint32_t m, int bits, uint32_t *freq) {
    uint32_t tot = 1u << bits, sum = 0;
    int top = 0;
    for (int s = 0; s < a; s++) {
        freq[s] = (uint32_t)((uint64_t)cnt[s] * tot / m);
        if (cnt[s] && !freq[s]) freq[s] = 1;
        sum += freq[s];
        if (cnt[s] > cnt[top]) top = s;
    }
    /* Raising rare symbols to 1 may overshoot: take the excess from the
     * largest frequencies (a <= tot, so there is room). */
    while (sum > tot) {
        int big = 0;
        for (int s = 1; s < a; s++)
            big = freq[s] > freq[big] ? s : big;
        uint32_t take = freq[big] - 1 < sum - tot ? freq[big] - 1 : sum - tot;
        freq[big] -= take;
        sum -= take;
    }
    freq[top] += tot - sum;
}

/* One encoder step: renormalise (at most one word out), then fold in the
 * symbol of frequency f starting at c. */
static inline uint32_t enc_put(uint32_t x, uint32_t f, uint32_t c, int bits, uint16_t **wp) {
    if ((uint64_t)x >= (uint64_t)f << (32 - bits)) {
        *--*wp = (uint16_t)x;
        x >>= 16;
    }
    return ((x / f) << bits) + x % f + c;
}

void ixts_rans_encode(const uint8_t *sym, uint32_t m, const uint32_t *freq, int a, int bits,
                      uint16_t *scratch, ixb_wbuf *out) {
    uint32_t cum[TS_ALPHA_MAX + 1];
    cum[0] = 0;
    for (int s = 0; s < a; s++)
        cum[s + 1] = cum[s] + freq[s];
    uint16_t *end = scratch + m + 8, *wp = end;
    uint32_t x[TS_RANS_NS] = {TS_RANS_L, TS_RANS_L, TS_RANS_L, TS_RANS_L};
    for (uint32_t j = m; j-- > 0;) {
        uint8_t s = sym[j];
        x[j % TS_RANS_NS] = enc_put(x[j % TS_RANS_NS], freq[s], cum[s], bits, &wp);
    }
    size_t nw = (size_t)(end - wp);
    if (ixb_wbuf_reserve(out, 4 * TS_RANS_NS + 2 * nw)) return;
    uint8_t *o = out->data + out->len;
    for (int k = 0; k < TS_RANS_NS; k++)
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

/* One decoder step on state X. The renormalisation word is read without a
 * branch (the stream is copied with zero padding; the caller checks the
 * position after each round). */
#define DEC_STEP(X, J)                                                                             \
    do {                                                                                           \
        uint32_t e_ = tab[X & mask];                                                               \
        X = ((e_ >> 20) + 1) * (X >> bits) + ((e_ >> 8) & 0xfff);                                  \
        sym[J] = (uint8_t)e_;                                                                      \
        uint32_t need_ = X < TS_RANS_L;                                                            \
        uint32_t w_ = (uint32_t)q[0] | (uint32_t)q[1] << 8;                                        \
        X = need_ ? X << 16 | w_ : X;                                                              \
        q += need_ << 1;                                                                           \
    } while (0)

int ixts_rans_decode(const uint8_t *p, size_t len, const uint32_t *freq, int a, int bits,
                     uint32_t *tab, uint8_t *pad, uint8_t *sym, uint32_t m) {
    if (len < 4 * TS_RANS_NS || (len & 1)) return -1;
    uint32_t x0 = ts_ld32(p), x1 = ts_ld32(p + 4), x2 = ts_ld32(p + 8), x3 = ts_ld32(p + 12);
    if (x0 < TS_RANS_L || x1 < TS_RANS_L || x2 < TS_RANS_L || x3 < TS_RANS_L) return -1;
    build_tab(freq, a, tab);
    memcpy(pad, p, len);
    memset(pad + len, 0, 16);
    const uint8_t *q = pad + 16, *qe = pad + len;
    uint32_t mask = (1u << bits) - 1, j = 0;
    for (; j + 4 <= m; j += 4) {
        DEC_STEP(x0, j);
        DEC_STEP(x1, j + 1);
        DEC_STEP(x2, j + 2);
        DEC_STEP(x3, j + 3);
        if (q > qe) return -1; /* read into the padding: the stream is short */
    }
    for (; j < m; j++) {
        uint32_t *x = j % 4 == 0 ? &x0 : j % 4 == 1 ? &x1 : &x2;
        DEC_STEP(*x, j);
    }
    if (q != qe) return -1;
    return x0 == TS_RANS_L && x1 == TS_RANS_L && x2 == TS_RANS_L && x3 == TS_RANS_L ? 0 : -1;
}
