/* test_ts_codec.c: the TimeSeries chunk codec (src/server/ts): round trips
 * of every kind under every codec, the automatic choice, edge values, the
 * decimal scaling rule, hostile blobs, sizes on random-walk data, column
 * masks, and (printed, not asserted) encode/decode speed. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/ts/ts_codec.h"
#include "server/ts/ts_codec_int.h"
#include "tap.h"

#define NMAX TS_CHUNK_MAX

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t bits(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

static double from_bits(uint64_t u) {
    double v;
    memcpy(&v, &u, 8);
    return v;
}

/* A test column with its own storage. */
typedef struct tcol {
    ts_colv v;
    int64_t i[NMAX];
    double d[NMAX];
    uint8_t null[NMAX];
} tcol;

static tcol T[4];
static ts_dec D;
static ixb_wbuf B;

static void col_init(tcol *c, int kind, int with_null) {
    memset(&c->v, 0, sizeof c->v);
    c->v.kind = kind;
    c->v.i = c->i;
    c->v.d = c->d;
    c->v.null = with_null ? c->null : NULL;
    memset(c->null, 0, sizeof c->null);
}

/* Decoded column c equals the input column (values of NULL slots ignored
 * in, 0 out). */
static int same(const ts_colv *in, const ts_colv *out, uint32_t n) {
    int has_null = 0;
    for (uint32_t k = 0; in->null && k < n; k++)
        has_null |= in->null[k];
    if (has_null != (out->null != NULL)) return 0;
    for (uint32_t k = 0; k < n; k++) {
        int isnull = in->null && in->null[k];
        if (has_null && out->null[k] != isnull) return 0;
        if (in->kind == TS_K_INT || in->kind == TS_K_DEC) {
            if (out->i[k] != (isnull ? 0 : in->i[k])) return 0;
        } else if (bits(out->d[k]) != (isnull ? 0 : bits(in->d[k]))) {
            return 0;
        } else if (out->dscale >= 0 && !isnull) {
            double q = (double)out->i[k] / pow(10, out->dscale);
            if (in->kind == TS_K_F32) q = (float)q;
            if (bits(q) != bits(out->d[k])) return 0;
        }
    }
    return in->kind != TS_K_DEC || out->scale == in->scale;
}

/* Encodes (forcing codecs when force != NULL), decodes, compares. Returns
 * the blob size, or -1 on a failure (reported). */
static long roundtrip(uint32_t n, int ncols, tcol *cols, const int *force, const char *what) {
    ts_colv cv[4];
    int kinds[4];
    for (int c = 0; c < ncols; c++) {
        cv[c] = cols[c].v;
        kinds[c] = cv[c].kind;
    }
    ixb_wbuf_reset(&B);
    int rc = ixts_chunk_encode_with(n, ncols, cv, force, &B);
    CHECK(rc == TS_OK, "%s: encode rc %d", what, rc);
    if (rc != TS_OK) return -1;
    rc = ixts_chunk_decode(&D, B.data, B.len, ncols, kinds, ~0ull);
    CHECK(rc == TS_OK, "%s: decode rc %d", what, rc);
    if (rc != TS_OK) return -1;
    int ok = D.n == n && D.ncols == ncols && ixts_chunk_count(B.data, B.len) == n;
    ts_colinfo info[4];
    ok = ok && ixts_chunk_info(B.data, B.len, ncols, info) == TS_OK;
    for (int c = 0; c < ncols && ok; c++) {
        ok = same(&cv[c], &D.cols[c], n);
        if (force && force[c] && ok) ok = info[c].codec == (force[c] & 0xff);
    }
    CHECK(ok, "%s: values differ after the round trip", what);
    return ok ? (long)B.len : -1;
}

/* ---- data sets ------------------------------------------------------- */

enum { DS_WALK, DS_CONST, DS_RANDOM, DS_RUNS, DS_RAMP, DS_SPECIAL, DS_NSETS };

static void fill(tcol *c, int kind, int ds, uint32_t n, int nulls) {
    col_init(c, kind, nulls);
    int64_t x = 2000;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t r = rnd();
        switch (ds) {
        case DS_WALK: x += (int64_t)(r % 3) - 1; break;
        case DS_CONST: x = 1234; break;
        case DS_RANDOM: x = (int64_t)r; break;
        case DS_RUNS: x = (k / 7) % 3 == 0 ? 5 : (int64_t)(k / 21); break;
        case DS_RAMP: x = 1000000 + 60 * (int64_t)k; break;
        default: x = (r & 1) ? INT64_MIN + (int64_t)(r % 5) : INT64_MAX - (int64_t)(r % 5); break;
        }
        c->i[k] = x;
        if (kind == TS_K_F64) {
            static const uint64_t sp[] = {0x8000000000000000ull, 0x7ff0000000000000ull,
                                          0xfff0000000000000ull, 0x7ff8000000000001ull,
                                          0xfff4000000000abcull, 0x0000000000000001ull,
                                          0x000fffffffffffffull, 0x7fefffffffffffffull};
            c->d[k] = ds == DS_RANDOM    ? from_bits(r)
                      : ds == DS_SPECIAL ? from_bits(sp[r % 8])
                                         : (double)x / 100;
        } else if (kind == TS_K_F32) {
            static const float sp[] = {-0.0f, INFINITY, -INFINITY, FLT_MIN / 4, FLT_MAX, 1e-45f};
            uint32_t u = (uint32_t)r;
            float f;
            memcpy(&f, &u, 4);
            if (isnan(f)) f = 1.5f; /* a signalling NaN float is not kept by a double */
            c->d[k] = ds == DS_RANDOM    ? f
                      : ds == DS_SPECIAL ? sp[r % 6]
                                         : (double)(float)((double)x / 100);
        }
        if (nulls) c->null[k] = (r >> 60) < 3;
    }
    if (kind == TS_K_F32 && ds == DS_SPECIAL) c->d[0] = (double)nanf("0x12345");
    if (kind == TS_K_DEC) c->v.scale = (int)(rnd() % 33);
}

static const char *const ds_names[] = {"walk", "const", "random", "runs", "ramp", "special"};

/* Every kind x every data set x every codec (frames and range coded for
 * DELTA/DOD), with and without NULLs; CONST only where it applies. */
static void test_forced(void) {
    static const int forces[] = {TS_C_CONST,
                                 TS_C_RLE,
                                 TS_C_DELTA | TS_FORCE_FRAMES,
                                 TS_C_DELTA | TS_FORCE_ENTROPY,
                                 TS_C_DOD | TS_FORCE_FRAMES,
                                 TS_C_DOD | TS_FORCE_ENTROPY,
                                 TS_C_XOR,
                                 TS_C_RAW};
    int fails = tap_fail;
    for (int kind = TS_K_INT; kind <= TS_K_DEC; kind++)
        for (int ds = 0; ds < DS_NSETS; ds++)
            for (int nulls = 0; nulls <= 1; nulls++)
                for (size_t f = 0; f < sizeof forces / sizeof forces[0]; f++) {
                    uint32_t n = 1 + (uint32_t)(rnd() % 600);
                    fill(&T[0], kind, ds, n, nulls);
                    int force = forces[f];
                    ixb_wbuf_reset(&B);
                    ts_colv cv = T[0].v;
                    int rc = ixts_chunk_encode_with(n, 1, &cv, &force, &B);
                    /* Only CONST over different values and the range coder over a
                     * wide alphabet may refuse; they must not where they apply. */
                    int may_refuse = force == TS_C_CONST || (force & TS_FORCE_ENTROPY);
                    int must_take = ds == DS_CONST || (ds == DS_WALK && force != TS_C_CONST);
                    if (rc == TS_EINVAL && may_refuse && !must_take) continue;
                    char what[96];
                    snprintf(what, sizeof what, "kind %d %s nulls %d codec %s%s n %u", kind,
                             ds_names[ds], nulls, ixts_codec_name(force & 0xff),
                             force & TS_FORCE_ENTROPY ? "+ent" : "", n);
                    CHECK(rc == TS_OK, "%s: rc %d", what, rc);
                    roundtrip(n, 1, T, &force, what);
                }
    CHECK(tap_fail == fails, "forced codecs: all round trips");
}

/* The automatic choice over every kind and data set, several sizes. */
static void test_auto(void) {
    static const uint32_t sizes[] = {1, 2, 3, 127, 128, 129, 130, 2048, NMAX};
    for (int kind = TS_K_INT; kind <= TS_K_DEC; kind++)
        for (int ds = 0; ds < DS_NSETS; ds++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                char what[64];
                snprintf(what, sizeof what, "auto kind %d %s n %u", kind, ds_names[ds], sizes[s]);
                fill(&T[0], kind, ds, sizes[s], (int)(s & 1));
                fill(&T[1], TS_K_INT, DS_RAMP, sizes[s], 0);
                roundtrip(sizes[s], 2, T, NULL, what);
            }
}

/* Edge values: integer limits, all NULL, one element, the largest chunk,
 * the special doubles and floats, DEC scales 0..32 with large mantissas. */
static void test_edges(void) {
    static const int64_t lim[] = {INT64_MIN, INT64_MAX, 0, -1, INT64_MIN, INT64_MIN + 1, 1};
    col_init(&T[0], TS_K_INT, 0);
    memcpy(T[0].i, lim, sizeof lim);
    roundtrip(7, 1, T, NULL, "int64 limits");
    for (int f = TS_C_CONST + 1; f < TS_C_NCODECS; f++)
        roundtrip(7, 1, T, &f, ixts_codec_name(f));

    for (int kind = TS_K_INT; kind <= TS_K_DEC; kind++) {
        fill(&T[0], kind, DS_WALK, 100, 1);
        memset(T[0].null, 1, 100);
        CHECK(roundtrip(100, 1, T, NULL, "all NULL") > 0 && D.cols[0].null, "all NULL kept");
        ts_colinfo info;
        CHECK(ixts_chunk_info(B.data, B.len, 1, &info) == TS_OK && info.codec == TS_C_RAW,
              "all NULL is an empty RAW block");
        fill(&T[0], kind, DS_RANDOM, 1, 0);
        roundtrip(1, 1, T, NULL, "one element");
        fill(&T[0], kind, DS_WALK, NMAX, 1);
        roundtrip(NMAX, 1, T, NULL, "TS_CHUNK_MAX elements");
    }

    static const uint64_t sp[] = {
        0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
        0x7ff0000000000001ull, 0xfff8dead0000beefull, 0x0000000000000001ull, 0x800fffffffffffffull,
        0x0000000000000000ull, 0x3ff0000000000000ull};
    col_init(&T[0], TS_K_F64, 0);
    for (int k = 0; k < 10; k++)
        T[0].d[k] = from_bits(sp[k]);
    roundtrip(10, 1, T, NULL, "special doubles");
    for (int f = TS_C_RLE; f < TS_C_NCODECS; f++)
        roundtrip(10, 1, T, &f, ixts_codec_name(f));
    T[0].d[0] = T[0].d[1] = T[0].d[2] = -0.0;
    roundtrip(3, 1, T, NULL, "-0.0 constant");
    CHECK(D.cols[0].dscale == -1 && signbit(D.cols[0].d[1]), "-0.0 kept, not scaled");

    static const float fs[] = {-0.0f,  INFINITY, -INFINITY, FLT_MIN / 8,
                               1e-45f, FLT_MAX,  0.1f,      3.14159274f};
    col_init(&T[0], TS_K_F32, 0);
    for (int k = 0; k < 8; k++)
        T[0].d[k] = fs[k];
    T[0].d[8] = (double)nanf("0x2abcd");
    roundtrip(9, 1, T, NULL, "special floats");
    for (int f = TS_C_RLE; f < TS_C_NCODECS; f++)
        roundtrip(9, 1, T, &f, ixts_codec_name(f));
    float back = (float)D.cols[0].d[8];
    uint32_t u1, u2;
    float want = nanf("0x2abcd");
    memcpy(&u1, &back, 4);
    memcpy(&u2, &want, 4);
    CHECK(u1 == u2, "float NaN payload %08x, want %08x", u1, u2);

    for (int s = 0; s <= TS_DEC_SCALE_MAX; s++) {
        col_init(&T[0], TS_K_DEC, s & 1);
        T[0].v.scale = s;
        for (int k = 0; k < 50; k++)
            T[0].i[k] = (k & 1 ? -1 : 1) * (int64_t)(rnd() >> (k % 40));
        T[0].i[3] = INT64_MAX;
        T[0].i[4] = INT64_MIN;
        roundtrip(50, 1, T, NULL, "DEC scales");
    }
}

/* Decimal scaling applies exactly when every value is m / 10^s for the
 * smallest s in 0..15 with |m| < 2^53; never for -0.0, Inf or NaN. */
static int scale_of(int kind, const double *v, int n, int64_t *m0) {
    col_init(&T[0], kind, 0);
    memcpy(T[0].d, v, (size_t)n * sizeof *v);
    if (roundtrip((uint32_t)n, 1, T, NULL, "scaling") < 0) return -2;
    if (m0 && D.cols[0].i) *m0 = D.cols[0].i[0];
    return D.cols[0].dscale;
}

static void test_scaling(void) {
    int64_t m = 0;
    double a[] = {1.5, 2.25, -3.125, 7};
    CHECK(scale_of(TS_K_F64, a, 4, &m) == 3 && m == 1500, "s 3, m %lld", (long long)m);
    double b[] = {12.34, 12.35, 12.33, 12.3};
    CHECK(scale_of(TS_K_F64, b, 4, &m) == 2 && m == 1234, "s 2");
    double c[] = {1.0, 2.0, 100.0};
    CHECK(scale_of(TS_K_F64, c, 3, &m) == 0 && m == 1, "s 0");
    double d1[] = {1.0, 0.1 + 0.2};
    CHECK(scale_of(TS_K_F64, d1, 2, NULL) == -1, "0.30000000000000004 is not decimal");
    double e[] = {1e-15, 2e-15};
    CHECK(scale_of(TS_K_F64, e, 2, &m) == 15 && m == 1, "s 15");
    double f[] = {1e-16};
    CHECK(scale_of(TS_K_F64, f, 1, NULL) == -1, "1e-16 needs s 16");
    double g[] = {9007199254740991.0, 1};
    CHECK(scale_of(TS_K_F64, g, 2, NULL) == 0, "2^53 - 1 scales");
    double h[] = {9007199254740992.0, 1};
    CHECK(scale_of(TS_K_F64, h, 2, NULL) == -1, "2^53 does not");
    double i[] = {900719925474.0993, 1}; /* m would be >= 2^53 at s 4 */
    CHECK(scale_of(TS_K_F64, i, 2, NULL) == -1, "mantissa beyond 2^53");
    double j[] = {1.5, -0.0};
    CHECK(scale_of(TS_K_F64, j, 2, NULL) == -1, "-0.0 stops scaling");
    double k[] = {1.5, INFINITY};
    CHECK(scale_of(TS_K_F64, k, 2, NULL) == -1, "Inf stops scaling");
    double l[] = {1.5, NAN};
    CHECK(scale_of(TS_K_F64, l, 2, NULL) == -1, "NaN stops scaling");
    double fl[] = {(float)12.34, (float)-0.5, (float)100};
    CHECK(scale_of(TS_K_F32, fl, 3, &m) == 2 && m == 1234, "float s 2, m %lld", (long long)m);
    double ff[] = {(float)0.1};
    CHECK(scale_of(TS_K_F32, ff, 1, &m) == 1 && m == 1, "0.1f: s 1, m 1");
    /* A value needing a larger s than the first values restarts the check. */
    double r[] = {1, 2, 3, 0.5, 0.25, 4};
    CHECK(scale_of(TS_K_F64, r, 6, &m) == 2 && m == 100, "s raised by later values");
}

/* A TS_K_F32 value that is not a float, bad arguments: TS_EINVAL. */
static void test_einval(void) {
    ts_colv cv = {.kind = TS_K_F32, .d = T[0].d};
    T[0].d[0] = 0.1;
    ixb_wbuf_reset(&B);
    CHECK(ixts_chunk_encode(1, 1, &cv, &B) == TS_EINVAL && B.len == 0, "F32 0.1 (double)");
    cv.kind = TS_K_INT;
    cv.i = T[0].i;
    CHECK(ixts_chunk_encode(0, 1, &cv, &B) == TS_EINVAL, "n 0");
    CHECK(ixts_chunk_encode(NMAX + 1, 1, &cv, &B) == TS_EINVAL, "n > max");
    CHECK(ixts_chunk_encode(1, 0, &cv, &B) == TS_EINVAL, "ncols 0");
    CHECK(ixts_chunk_encode(1, TS_MAX_COLS + 1, &cv, &B) == TS_EINVAL, "ncols > max");
    cv.kind = 9;
    CHECK(ixts_chunk_encode(1, 1, &cv, &B) == TS_EINVAL, "kind");
    cv.kind = TS_K_DEC;
    cv.scale = 33;
    CHECK(ixts_chunk_encode(1, 1, &cv, &B) == TS_EINVAL, "DEC scale 33");
    cv.kind = TS_K_INT;
    T[0].i[0] = 1, T[0].i[1] = 2;
    int f = TS_C_CONST;
    CHECK(ixts_chunk_encode_with(2, 1, &cv, &f, &B) == TS_EINVAL, "forced CONST, 2 values");
    f = TS_C_DELTA | TS_FORCE_ENTROPY;
    T[0].i[1] = 1000, T[0].i[2] = 1000; /* zigzag deltas 1998, 0 */
    CHECK(ixts_chunk_encode_with(3, 1, &cv, &f, &B) == TS_EINVAL, "range coder, wide alphabet");
    CHECK(B.len == 0, "nothing written on failure");
    CHECK(strcmp(ixts_codec_name(TS_C_DOD), "dod") == 0 && strcmp(ixts_codec_name(0), "?") == 0,
          "codec names");
}

/* Every proper prefix of a valid blob, and the blob with a byte more, is
 * TS_EBADCHUNK, for decode and info alike. */
static void check_prefixes(const uint8_t *blob, size_t len, int ncols, const int *kinds,
                           const char *what) {
    uint8_t *cp = malloc(len + 1);
    int bad = 0;
    ts_colinfo info[4];
    for (size_t l = 0; l < len; l++) {
        memcpy(cp, blob, l); /* an exact-size prefix in a heap copy: ASan sees over-reads */
        bad += ixts_chunk_decode(&D, cp, l, ncols, kinds, ~0ull) != TS_EBADCHUNK;
        bad += ixts_chunk_info(cp, l, ncols, info) != TS_EBADCHUNK;
        bad += l < 3 && ixts_chunk_count(cp, l) != 0;
    }
    memcpy(cp, blob, len);
    cp[len] = 0;
    bad += ixts_chunk_decode(&D, cp, len + 1, ncols, kinds, ~0ull) != TS_EBADCHUNK;
    bad += ixts_chunk_info(cp, len + 1, ncols, info) != TS_EBADCHUNK;
    CHECK(bad == 0, "%s: %d prefixes or extensions accepted", what, bad);
    free(cp);
}

static int decode_bytes(const uint8_t *p, size_t len, int kind) {
    return ixts_chunk_decode(&D, p, len, 1, &kind, ~0ull);
}

static void test_hostile(void) {
    static const int forces[] = {0,
                                 TS_C_CONST,
                                 TS_C_RLE,
                                 TS_C_DELTA | TS_FORCE_FRAMES,
                                 TS_C_DELTA | TS_FORCE_ENTROPY,
                                 TS_C_DOD | TS_FORCE_FRAMES,
                                 TS_C_DOD | TS_FORCE_ENTROPY,
                                 TS_C_XOR,
                                 TS_C_RAW};
    for (size_t f = 0; f < sizeof forces / sizeof forces[0]; f++) {
        int ds = forces[f] == TS_C_CONST ? DS_CONST : DS_WALK;
        fill(&T[0], TS_K_INT, DS_RAMP, 300, 0);
        fill(&T[1], TS_K_F64, ds, 300, 1);
        fill(&T[2], TS_K_DEC, ds, 300, 0);
        fill(&T[3], TS_K_F32, ds, 300, 1);
        int force[4] = {0, forces[f], forces[f], forces[f]};
        int kinds[4] = {TS_K_INT, TS_K_F64, TS_K_DEC, TS_K_F32};
        if (roundtrip(300, 4, T, force, "hostile base") < 0) continue;
        check_prefixes(B.data, B.len, 4, kinds, ixts_codec_name(forces[f] & 0xff));
        int wrong[4] = {TS_K_INT, TS_K_F32, TS_K_DEC, TS_K_F32};
        CHECK(ixts_chunk_decode(&D, B.data, B.len, 4, wrong, ~0ull) == TS_EBADCHUNK,
              "kinds not those of the blob");
        CHECK(ixts_chunk_decode(&D, B.data, B.len, 3, kinds, ~0ull) == TS_EBADCHUNK, "ncols");
    }
    /* Hand-made blobs: version, n, frame width, counts, trailing padding. */
    static const uint8_t ok_frames[] = {1, 3, 1, TS_C_DELTA, 0x10, 4, 0, 0, 2, 0x0a};
    CHECK(decode_bytes(ok_frames, sizeof ok_frames, TS_K_INT) == TS_OK && D.cols[0].i[2] == 2,
          "hand-made DELTA frames");
    uint8_t b[32] = {1, 3, 1, TS_C_DELTA, 0x10, 20, 0, 0, 65}; /* width 65, 17 bytes */
    CHECK(decode_bytes(b, 26, TS_K_INT) == TS_EBADCHUNK, "width 65");
    b[5] = 19, b[8] = 64; /* width 64: 16 bytes */
    CHECK(decode_bytes(b, 25, TS_K_INT) == TS_OK, "width 64");
    memcpy(b, ok_frames, sizeof ok_frames);
    b[0] = 2;
    CHECK(decode_bytes(b, sizeof ok_frames, TS_K_INT) == TS_EBADCHUNK, "version 2");
    static const uint8_t big_n[] = {1, 0x81, 0x20, 1, TS_C_CONST, 0x10, 1, 0}; /* n 4097 */
    CHECK(decode_bytes(big_n, sizeof big_n, TS_K_INT) == TS_EBADCHUNK, "n > TS_CHUNK_MAX");
    CHECK(ixts_chunk_count(big_n, sizeof big_n) == 0, "count of n 4097");
    static const uint8_t max_n[] = {1, 0x80, 0x20, 1, TS_C_CONST, 0x10, 1, 0}; /* n 4096 */
    CHECK(decode_bytes(max_n, sizeof max_n, TS_K_INT) == TS_OK && D.n == NMAX, "n 4096");
    static const uint8_t rle_long[] = {1, 3, 1, TS_C_RLE, 0x10, 2, 0, 4}; /* run 4 > 3 */
    CHECK(decode_bytes(rle_long, sizeof rle_long, TS_K_INT) == TS_EBADCHUNK, "run too long");
    static const uint8_t rle_short[] = {1, 3, 1, TS_C_RLE, 0x10, 2, 0, 2}; /* 2 of 3 */
    CHECK(decode_bytes(rle_short, sizeof rle_short, TS_K_INT) == TS_EBADCHUNK, "runs short");
    static const uint8_t pad[] = {1, 9, 1, TS_C_CONST, 0x11, 3, 0x00, 0x02, 0}; /* bit 9 */
    CHECK(decode_bytes(pad, sizeof pad, TS_K_INT) == TS_EBADCHUNK, "bitmap padding bit");
    static const uint8_t freq[] = {1, 3, 1, TS_C_DELTA, 0x12, 8, 0, 0, 1, 8, 1, 1, 0, 0};
    CHECK(decode_bytes(freq, sizeof freq, TS_K_INT) == TS_EBADCHUNK, "frequencies not 2^bits");
    static const uint8_t uv[] = {1,    1,    1,    TS_C_CONST, 0x10, 11,   0xff, 0xff, 0xff,
                                 0xff, 0xff, 0xff, 0xff,       0xff, 0xff, 0xff, 0x01};
    CHECK(decode_bytes(uv, sizeof uv, TS_K_INT) == TS_EBADCHUNK, "11-byte varint");
    static const uint8_t scaled_raw[] = {1, 1, 1, TS_C_RAW, 0x24, 2, 8, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(decode_bytes(scaled_raw, sizeof scaled_raw, TS_K_F64) == TS_EBADCHUNK, "scaled RAW");
}

/* The benchmark's data: a regular time column and three metrics, each a
 * random walk in 0.01 steps (-0.01, 0, +0.01 equally likely), on the
 * decimal grid (a value is cents / 100.0, as parsed from text). */
static void fill_walk(uint32_t n, int64_t t0) {
    col_init(&T[0], TS_K_INT, 0);
    for (uint32_t k = 0; k < n; k++)
        T[0].i[k] = t0 + k;
    for (int c = 1; c < 4; c++) {
        col_init(&T[c], TS_K_F64, 0);
        int64_t cents = 1000 * c + 2000;
        for (uint32_t k = 0; k < n; k++) {
            cents += (int64_t)(rnd() % 3) - 1;
            T[c].d[k] = (double)cents / 100;
        }
    }
}

static void test_sizes(void) {
    enum { N = 2048 };
    fill_walk(N, 1000000);
    long total = roundtrip(N, 4, T, NULL, "random walk");
    ts_colinfo info[4];
    CHECK(ixts_chunk_info(B.data, B.len, 4, info) == TS_OK, "info");
    printf("# random walk, %d elements x 3 metrics: %ld bytes, %.3f bytes/value (metrics + "
           "time column + header)\n",
           N, total, (double)total / (3.0 * N));
    printf("# time column: %s, %zu bytes\n", ixts_codec_name(info[0].codec), info[0].bytes);
    CHECK(info[0].codec == TS_C_DOD || info[0].codec == TS_C_DELTA, "time codec");
    CHECK(info[0].bytes <= 12, "regular time column: %zu bytes", info[0].bytes);
    size_t metric = 0;
    for (int c = 1; c < 4; c++) {
        metric += info[c].bytes;
        CHECK(info[c].codec == TS_C_DELTA, "metric %d codec %s", c, ixts_codec_name(info[c].codec));
    }
    printf("# metric columns (auto): %.4f bytes/value\n", (double)metric / (3.0 * N));
    CHECK((double)metric / (3.0 * N) <= 0.22, "metric bytes/value %.4f",
          (double)metric / (3.0 * N));
    CHECK((double)total / (3.0 * N) <= 0.23, "chunk bytes/value %.4f", (double)total / (3.0 * N));
    static const int forces[] = {TS_C_DELTA | TS_FORCE_ENTROPY,
                                 TS_C_DELTA | TS_FORCE_FRAMES,
                                 TS_C_DOD | TS_FORCE_ENTROPY,
                                 TS_C_DOD | TS_FORCE_FRAMES,
                                 TS_C_RLE,
                                 TS_C_XOR,
                                 TS_C_RAW};
    for (size_t f = 0; f < sizeof forces / sizeof forces[0]; f++) {
        int force[4] = {0, forces[f], forces[f], forces[f]};
        roundtrip(N, 4, T, force, "random walk forced");
        ixts_chunk_info(B.data, B.len, 4, info);
        printf("# metric codec %-5s %-6s %.4f bytes/value\n", ixts_codec_name(forces[f] & 0xff),
               forces[f] & TS_FORCE_ENTROPY  ? "range"
               : forces[f] & TS_FORCE_FRAMES ? "frames"
                                             : "",
               (double)(info[1].bytes + info[2].bytes + info[3].bytes) / (3.0 * N));
    }
    /* The same walk summed in binary floating point (v += 0.01) drifts off
     * the decimal grid: no decimal scaling, XOR. Printed for comparison. */
    col_init(&T[1], TS_K_F64, 0);
    double v = 20;
    for (uint32_t k = 0; k < N; k++)
        T[1].d[k] = v += 0.01 * (double)((int)(rnd() % 3) - 1);
    roundtrip(N, 2, T, NULL, "summed walk");
    ixts_chunk_info(B.data, B.len, 2, info);
    printf("# walk summed in binary (off the decimal grid): %s %.3f bytes/value\n",
           ixts_codec_name(info[1].codec), (double)info[1].bytes / N);
}

/* mask: only the columns asked for are decoded; column 64 follows bit 63. */
static void test_mask(void) {
    fill_walk(500, 7);
    int kinds[4] = {TS_K_INT, TS_K_F64, TS_K_F64, TS_K_F64};
    ts_colv cv[4] = {T[0].v, T[1].v, T[2].v, T[3].v};
    ixb_wbuf_reset(&B);
    CHECK(ixts_chunk_encode(500, 4, cv, &B) == TS_OK, "encode");
    CHECK(ixts_chunk_decode(&D, B.data, B.len, 4, kinds, 1ull << 2) == TS_OK, "decode mask");
    CHECK(!D.cols[0].i && !D.cols[1].d && !D.cols[3].d && D.cols[2].d, "only column 2");
    CHECK(same(&cv[2], &D.cols[2], 500), "column 2 values");
    CHECK(D.cols[1].kind == TS_K_F64 && D.n == 500, "skipped column kind");
    CHECK(ixts_chunk_decode(&D, B.data, B.len, 4, kinds, 0) == TS_OK && !D.cols[2].d, "mask 0");
    /* the skipped columns are still checked */
    B.data[B.len - 1] ^= 0xff;
    B.data[4] ^= 0x80;
    CHECK(ixts_chunk_decode(&D, B.data, B.len, 4, kinds, 1ull << 3) == TS_EBADCHUNK,
          "bad skipped column");

    static ts_colv many[TS_MAX_COLS];
    static int mk[TS_MAX_COLS];
    static int64_t vals[TS_MAX_COLS][3];
    for (int c = 0; c < TS_MAX_COLS; c++) {
        many[c] = (ts_colv){.kind = TS_K_INT, .i = vals[c]};
        mk[c] = TS_K_INT;
        for (int k = 0; k < 3; k++)
            vals[c][k] = c * 10 + k;
    }
    ixb_wbuf_reset(&B);
    CHECK(ixts_chunk_encode(3, TS_MAX_COLS, many, &B) == TS_OK, "65 columns");
    CHECK(ixts_chunk_decode(&D, B.data, B.len, TS_MAX_COLS, mk, 1ull << 63) == TS_OK &&
              D.cols[64].i && D.cols[63].i && !D.cols[62].i && D.cols[64].i[2] == 642,
          "bit 63: columns 63 and 64");
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Speed on 2048-element random-walk chunks (time + 3 metrics): printed. */
static void test_speed(void) {
    enum { N = 2048, REPS = 50 };
    fill_walk(N, 0);
    ts_colv cv[4] = {T[0].v, T[1].v, T[2].v, T[3].v};
    int kinds[4] = {TS_K_INT, TS_K_F64, TS_K_F64, TS_K_F64};
    double t0 = now_ns();
    for (int r = 0; r < REPS; r++) {
        ixb_wbuf_reset(&B);
        ixts_chunk_encode(N, 4, cv, &B);
    }
    double enc = (now_ns() - t0) / (REPS * 4.0 * N);
    t0 = now_ns();
    int bad = 0;
    for (int r = 0; r < REPS * 4; r++)
        bad += ixts_chunk_decode(&D, B.data, B.len, 4, kinds, ~0ull) != TS_OK;
    double dec = (now_ns() - t0) / (REPS * 4 * 4.0 * N);
    CHECK(bad == 0, "decodes");
    printf("# speed (random walk, 4 columns): encode %.1f ns/value, decode %.2f ns/value\n", enc,
           dec);
}

int main(void) {
    ixts_dec_init(&D);
    ixb_wbuf_init(&B, NULL);
    test_forced();
    test_auto();
    test_edges();
    test_scaling();
    test_einval();
    test_hostile();
    test_sizes();
    test_mask();
    test_speed();
    ixts_dec_free(&D);
    ixb_wbuf_free(&B);
    return tap_done();
}
