/* ts_codec.c: the TimeSeries chunk codec of ts_codec.h (encoder, decoder,
 * blob inspection). The range coder is in ts_entropy.c. */
#include "ts_codec.h"

#include <stdlib.h>
#include <string.h>

#include "ts_codec_int.h"
#include "ts_entropy.h"

#define TWO53 9007199254740992.0

static const double p10[TS_DSCALE_MAX + 1] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                              1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

static const char *const codec_names[TS_C_NCODECS] = {NULL,  "const", "rle", "delta",
                                                      "dod", "xor",   "raw"};

const char *ixts_codec_name(int codec) {
    return codec > 0 && codec < TS_C_NCODECS ? codec_names[codec] : "?";
}

static int kind_ok(int kind) {
    return kind >= TS_K_INT && kind <= TS_K_DEC;
}

static int is_double(int kind) {
    return kind == TS_K_F64 || kind == TS_K_F32;
}

/* Integer codecs work on integers (ints, mantissas); XOR and RAW on bits. */
static int int_codec(int codec) {
    return codec == TS_C_CONST || codec == TS_C_RLE || codec == TS_C_DELTA || codec == TS_C_DOD;
}

static double f32_word(uint64_t w) {
    uint32_t u = (uint32_t)w;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t dbits(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

/* ---- decimal scaling ----------------------------------------------------- */

/* v == m / 10^s exactly (as a float for f32) for m = llround(v * 10^s),
 * |m| < 2^53. The rounding is llround's (half away from zero), done inline:
 * for |t| < 2^53 the fraction t - trunc(t) is exact. Rejects -0.0 (0 / 10^s
 * is +0.0), infinities and NaN (t is not in range). */
static int dec_ok(double v, int s, int f32, int64_t *m) {
    double t = v * p10[s];
    if (!(t > -TWO53 && t < TWO53)) return 0;
    int64_t q = (int64_t)t;
    double fr = t - (double)q;
    if (fr >= 0.5)
        q++;
    else if (fr <= -0.5)
        q--;
    if (q >= (int64_t)1 << 53 || q <= -((int64_t)1 << 53)) return 0;
    double back = (double)q / p10[s];
    if (f32) back = (double)(float)back;
    if (dbits(back) != dbits(v)) return 0;
    *m = q;
    return 1;
}

/* The smallest s in 0..15 under which every value is exact, with the
 * mantissas in sm[], or -1. A value that needs a larger s than the values
 * before it raises s and restarts the check from the first value, so the
 * result is the smallest s that works for all. */
static int dec_scale(const uint64_t *w, uint32_t m, int f32, uint64_t *sm) {
    int s = 0;
    uint32_t k = 0;
    if (m == 0) return -1;
    while (k < m) {
        double v = f32 ? f32_word(w[k]) : 0;
        if (!f32) memcpy(&v, &w[k], 8);
        int64_t q;
        if (dec_ok(v, s, f32, &q)) {
            sm[k++] = (uint64_t)q;
            continue;
        }
        do
            s++;
        while (s <= TS_DSCALE_MAX && !dec_ok(v, s, f32, &q));
        if (s > TS_DSCALE_MAX) return -1;
        k = 0;
    }
    return s;
}

/* ---- encoder ------------------------------------------------------------- */

typedef struct ts_ews {
    uint64_t w[TS_CHUNK_MAX];  /* non-NULL values: ints or bits */
    uint64_t sm[TS_CHUNK_MAX]; /* mantissas of a decimal-scaled double column */
    uint64_t r[TS_CHUNK_MAX];  /* residuals */
    uint8_t sym[TS_CHUNK_MAX];
    uint16_t words[TS_CHUNK_MAX + 8];
    ixb_wbuf best, trial;
} ts_ews;

/* One column being encoded. */
typedef struct enc_col {
    uint32_t m;         /* non-NULL values */
    int kind, wbits;    /* wbits: 32 (F32 bits) or 64 */
    int ds;             /* decimal scale of a double column, or -1 */
    const uint64_t *iv; /* what the integer codecs code */
    const uint64_t *bv; /* what XOR and RAW code */
} enc_col;

static void put_const(ixb_wbuf *b, const uint64_t *v) {
    ts_put_uv(b, ts_zz(v[0]));
}

static uint32_t count_runs(const uint64_t *v, uint32_t m) {
    uint32_t runs = 1;
    for (uint32_t k = 1; k < m; k++)
        runs += v[k] != v[k - 1];
    return runs;
}

static void put_rle(ixb_wbuf *b, const uint64_t *v, uint32_t m) {
    for (uint32_t k = 0; k < m;) {
        uint32_t j = k + 1;
        while (j < m && v[j] == v[k])
            j++;
        ts_put_uv(b, ts_zz(v[k]));
        ts_put_uv(b, j - k);
        k = j;
    }
}

static unsigned bit_width(uint64_t v) {
    return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* Frames of TS_FRAME residuals: min (varint), width (byte), the values
 * minus min packed in width bits each, low bit first, padded to a byte. */
static void put_frames(ixb_wbuf *b, const uint64_t *r, uint32_t cnt) {
    for (uint32_t f = 0; f < cnt; f += TS_FRAME) {
        uint32_t k = cnt - f < TS_FRAME ? cnt - f : TS_FRAME;
        uint64_t mn = r[f], mx = r[f];
        for (uint32_t j = f + 1; j < f + k; j++) {
            mn = r[j] < mn ? r[j] : mn;
            mx = r[j] > mx ? r[j] : mx;
        }
        unsigned w = bit_width(mx - mn);
        ts_put_uv(b, mn);
        if (ixb_wbuf_reserve(b, 1 + (size_t)k * 8 + 16)) return;
        b->data[b->len++] = (uint8_t)w;
        ts_bw bw = {b->data + b->len, 0, 0};
        for (uint32_t j = f; j < f + k && w; j++)
            ts_bw_put(&bw, r[j] - mn, w);
        ts_bw_flush(&bw);
        b->len = (size_t)(bw.p - b->data);
    }
}

/* Range-coded residuals: base (varint), alphabet size - 1 (byte), then
 * when the alphabet has more than one symbol the precision bits (byte),
 * the frequencies (varints, total 2^bits) and the rANS stream. -1: the
 * alphabet is too wide. */
static int put_entropy(ixb_wbuf *b, const uint64_t *r, uint32_t cnt, ts_ews *ws) {
    uint64_t mn = r[0], mx = r[0];
    for (uint32_t j = 1; j < cnt; j++) {
        mn = r[j] < mn ? r[j] : mn;
        mx = r[j] > mx ? r[j] : mx;
    }
    if (mx - mn >= TS_ALPHA_MAX) return -1;
    int a = (int)(mx - mn) + 1;
    ts_put_uv(b, mn);
    ixb_put_u8(b, (uint8_t)(a - 1));
    if (a == 1) return 0;
    uint32_t cnts[TS_ALPHA_MAX] = {0}, freq[TS_ALPHA_MAX];
    for (uint32_t j = 0; j < cnt; j++) {
        ws->sym[j] = (uint8_t)(r[j] - mn);
        cnts[ws->sym[j]]++;
    }
    int bits = ixts_rans_bits(cnt);
    ixts_rans_norm(cnts, a, cnt, bits, freq);
    ixb_put_u8(b, (uint8_t)bits);
    for (int s = 0; s < a; s++)
        ts_put_uv(b, freq[s]);
    ixts_rans_encode(ws->sym, cnt, freq, a, bits, ws->words, b);
    return 0;
}

/* DELTA: the first value, then the zigzag deltas as residuals. DOD: the
 * first value and the first delta, then the zigzag deltas of the deltas.
 * ent: 1 range coded, 0 frames. */
static int put_delta(ixb_wbuf *b, const uint64_t *v, uint32_t m, int dod, int ent, ts_ews *ws) {
    uint64_t *r = ws->r;
    uint32_t cnt;
    ts_put_uv(b, ts_zz(v[0]));
    if (!dod) {
        cnt = m - 1;
        for (uint32_t k = 0; k < cnt; k++)
            r[k] = ts_zz(v[k + 1] - v[k]);
    } else {
        if (m < 2) return 0;
        ts_put_uv(b, ts_zz(v[1] - v[0]));
        cnt = m - 2;
        for (uint32_t k = 0; k < cnt; k++)
            r[k] = ts_zz((v[k + 2] - v[k + 1]) - (v[k + 1] - v[k]));
    }
    if (cnt == 0) return 0;
    if (ent) return put_entropy(b, r, cnt, ws);
    put_frames(b, r, cnt);
    return 0;
}

/* XOR (Gorilla): the first value in wbits bits; then per value x = v ^ prev:
 * '0' when x == 0; '1','0' + the bits of the previous window; '1','1' +
 * leading zeros (6 bits) + meaningful length - 1 (6 bits) + the bits. */
static void put_xor(ixb_wbuf *b, const uint64_t *v, uint32_t m, unsigned wb) {
    if (ixb_wbuf_reserve(b, (size_t)m * 10 + 16)) return;
    ts_bw bw = {b->data + b->len, 0, 0};
    ts_bw_put(&bw, v[0], wb);
    unsigned plz = 0, ptz = 0;
    int win = 0;
    for (uint32_t k = 1; k < m; k++) {
        uint64_t x = v[k] ^ v[k - 1];
        if (x == 0) {
            ts_bw_put(&bw, 0, 1);
            continue;
        }
        unsigned lz = (unsigned)__builtin_clzll(x) - (64 - wb), tz = (unsigned)__builtin_ctzll(x);
        if (win && lz >= plz && tz >= ptz) {
            ts_bw_put(&bw, 1, 2);
            ts_bw_put(&bw, x >> ptz, wb - plz - ptz);
            continue;
        }
        unsigned len = wb - lz - tz;
        ts_bw_put(&bw, 3 | lz << 2 | (uint64_t)(len - 1) << 8, 14);
        ts_bw_put(&bw, x >> tz, len);
        plz = lz, ptz = tz, win = 1;
    }
    ts_bw_flush(&bw);
    b->len = (size_t)(bw.p - b->data);
}

static void put_raw(ixb_wbuf *b, const uint64_t *v, uint32_t m, unsigned wb) {
    size_t sz = wb / 8;
    if (ixb_wbuf_reserve(b, (size_t)m * sz + 8)) return;
    uint8_t *o = b->data + b->len;
    for (uint32_t k = 0; k < m; k++, o += sz)
        ts_st64(o, v[k]); /* little-endian: the low sz bytes first */
    b->len += (size_t)m * sz;
}

/* Writes the body of codec (ent for DELTA/DOD: 1 range coded, 0 frames)
 * into b. -1: the codec cannot represent the column. */
static int put_body(ixb_wbuf *b, const enc_col *ec, int codec, int ent, ts_ews *ws) {
    switch (codec) {
    case TS_C_CONST:
        if (count_runs(ec->iv, ec->m) != 1) return -1;
        put_const(b, ec->iv);
        return 0;
    case TS_C_RLE: put_rle(b, ec->iv, ec->m); return 0;
    case TS_C_DELTA:
    case TS_C_DOD: return put_delta(b, ec->iv, ec->m, codec == TS_C_DOD, ent, ws);
    case TS_C_XOR: put_xor(b, ec->bv, ec->m, (unsigned)ec->wbits); return 0;
    case TS_C_RAW: put_raw(b, ec->bv, ec->m, (unsigned)ec->wbits); return 0;
    default: return -1;
    }
}

/* Codes the candidate into ws->trial and keeps it in ws->best when it is
 * the shortest so far. Returns 1 kept, 0 not applicable or longer,
 * TS_ENOMEM. */
static int try_cand(ts_ews *ws, const enc_col *ec, int codec, int ent, int *bc, int *be) {
    ixb_wbuf_reset(&ws->trial);
    if (put_body(&ws->trial, ec, codec, ent, ws) != 0) return 0;
    if (ws->trial.err) return TS_ENOMEM;
    if (*bc && ws->trial.len >= ws->best.len) return 0;
    ixb_wbuf t = ws->best;
    ws->best = ws->trial;
    ws->trial = t;
    *bc = codec;
    *be = ent;
    return 1;
}

/* The automatic choice: every codec that applies to the column's values,
 * skipping those that cannot win (RLE when its runs alone outweigh the
 * best, RAW when longer, XOR over decimal mantissas unless the best costs
 * more than 4 bytes a value). */
static int choose_auto(ts_ews *ws, const enc_col *ec, int *bc, int *be) {
    int rc = 0, ints = !is_double(ec->kind) || ec->ds >= 0;
    uint32_t runs = count_runs(ec->iv, ec->m);
    if (runs == 1) return try_cand(ws, ec, TS_C_CONST, 0, bc, be);
    if (ints) {
        for (int codec = TS_C_DELTA; codec <= TS_C_DOD && rc >= 0; codec++)
            for (int ent = 0; ent <= 1 && rc >= 0; ent++)
                rc = try_cand(ws, ec, codec, ent, bc, be);
    }
    if (rc >= 0 && (!ints || ws->best.len > (size_t)ec->m * 4))
        rc = try_cand(ws, ec, TS_C_XOR, 0, bc, be);
    if (rc >= 0 && (!*bc || (size_t)runs * 2 < ws->best.len))
        rc = try_cand(ws, ec, TS_C_RLE, 0, bc, be);
    if (rc >= 0 && (!*bc || (size_t)ec->m * (size_t)(ec->wbits / 8) < ws->best.len))
        rc = try_cand(ws, ec, TS_C_RAW, 0, bc, be);
    return rc < 0 ? rc : 0;
}

static int choose_forced(ts_ews *ws, const enc_col *ec, int force, int *bc, int *be) {
    int codec = force & 0xff, rc = 0;
    if (codec < TS_C_CONST || codec >= TS_C_NCODECS) return TS_EINVAL;
    if (codec == TS_C_DELTA || codec == TS_C_DOD) {
        if (!(force & TS_FORCE_ENTROPY)) rc = try_cand(ws, ec, codec, 0, bc, be);
        if (rc >= 0 && !(force & TS_FORCE_FRAMES)) rc = try_cand(ws, ec, codec, 1, bc, be);
    } else {
        rc = try_cand(ws, ec, codec, 0, bc, be);
    }
    if (rc < 0) return rc;
    return *bc ? 0 : TS_EINVAL;
}

/* Collects the non-NULL values of a column into ws->w (ints, or the bits
 * of the doubles, or of the floats for TS_K_F32). */
static int gather(const ts_colv *cv, uint32_t n, ts_ews *ws, enc_col *ec, int *has_null) {
    uint32_t m = 0;
    *has_null = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (cv->null && cv->null[k]) {
            *has_null = 1;
            continue;
        }
        if (cv->kind == TS_K_INT || cv->kind == TS_K_DEC) {
            if (!cv->i) return TS_EINVAL;
            ws->w[m++] = (uint64_t)cv->i[k];
        } else if (!cv->d) {
            return TS_EINVAL;
        } else if (cv->kind == TS_K_F64) {
            ws->w[m++] = dbits(cv->d[k]);
        } else {
            float f = (float)cv->d[k];
            uint32_t u;
            if (dbits((double)f) != dbits(cv->d[k])) return TS_EINVAL; /* not a float */
            memcpy(&u, &f, 4);
            ws->w[m++] = u;
        }
    }
    ec->m = m;
    ec->kind = cv->kind;
    ec->wbits = cv->kind == TS_K_F32 ? 32 : 64;
    ec->ds = is_double(cv->kind) ? dec_scale(ws->w, m, cv->kind == TS_K_F32, ws->sm) : -1;
    ec->iv = ec->ds >= 0 ? ws->sm : ws->w;
    ec->bv = ws->w;
    return TS_OK;
}

static void put_bitmap(ixb_wbuf *b, const uint8_t *null, uint32_t n) {
    if (ixb_wbuf_reserve(b, (n + 7) / 8)) return;
    uint8_t *o = b->data + b->len;
    memset(o, 0, (n + 7) / 8);
    for (uint32_t k = 0; k < n; k++)
        o[k >> 3] |= (uint8_t)((null[k] != 0) << (k & 7));
    b->len += (n + 7) / 8;
}

/* One column: header (codec, flags, scale), block length, payload. */
static int put_column(ts_ews *ws, const ts_colv *cv, uint32_t n, int force, ixb_wbuf *out) {
    enc_col ec;
    int has_null, bc = 0, be = 0, rc;
    if (!kind_ok(cv->kind)) return TS_EINVAL;
    if (cv->kind == TS_K_DEC && (cv->scale < 0 || cv->scale > TS_DEC_SCALE_MAX)) return TS_EINVAL;
    if ((rc = gather(cv, n, ws, &ec, &has_null)) != TS_OK) return rc;
    if (ec.m == 0)
        rc = try_cand(ws, &ec, TS_C_RAW, 0, &bc, &be);
    else if (force)
        rc = choose_forced(ws, &ec, force, &bc, &be);
    else
        rc = choose_auto(ws, &ec, &bc, &be);
    if (rc < 0) return rc;
    int scaled = ec.ds >= 0 && int_codec(bc);
    unsigned flags = (unsigned)cv->kind << TS_FL_KSHIFT | (has_null ? TS_FL_NULL : 0) |
                     (be ? TS_FL_ENTROPY : 0) | (scaled ? TS_FL_SCALED : 0);
    size_t len = ws->best.len + (has_null ? (n + 7) / 8 : 0);
    ixb_put_u8(out, (uint8_t)bc);
    ixb_put_u8(out, (uint8_t)flags);
    if (cv->kind == TS_K_DEC) ixb_put_u8(out, (uint8_t)cv->scale);
    if (scaled) ixb_put_u8(out, (uint8_t)ec.ds);
    ts_put_uv(out, len);
    if (has_null) put_bitmap(out, cv->null, n);
    ixb_put_bytes(out, ws->best.data, ws->best.len);
    return out->err ? TS_ENOMEM : TS_OK;
}

/*
 * Blob layout (all varints are unsigned LEB128; zz(v) is the zigzag map
 * 0,-1,1,-2.. -> 0,1,2,3..; multi-byte fixed fields are little-endian):
 *
 *   field            size      meaning
 *   version          1         TS_BLOB_V1
 *   n                varint    elements, 1..TS_CHUNK_MAX
 *   ncols            1         columns, 1..TS_MAX_COLS
 *   then per column:
 *   codec            1         ts_codec_id
 *   flags            1         bit 0 TS_FL_NULL: a presence bitmap starts the payload
 *                              bit 1 TS_FL_ENTROPY: DELTA/DOD residuals range coded
 *                              bit 2 TS_FL_SCALED: F64/F32 coded as decimal mantissas
 *                              bits 4-6: ts_kind; bits 3 and 7 zero
 *   scale            1         TS_K_DEC: the column's scale (0..32); with
 *                              TS_FL_SCALED: the decimal scale s (0..15); else absent
 *   length           varint    payload bytes L
 *   payload          L         [bitmap] body
 *
 *   bitmap: ceil(n/8) bytes, bit k (byte k/8, bit k%8) set = element k is
 *   NULL; the unused high bits of the last byte are zero. The body codes
 *   the m non-NULL values in order. A value is an int64 (TS_K_INT, DEC
 *   mantissas, scaled doubles: value = m / 10^s, for F32 rounded to float)
 *   or the bits of the double (F64) or of the float (F32, 32 bits).
 *
 *   codec   body (m >= 1; a column without a non-NULL value is RAW, empty)
 *   CONST   varint zz(v)
 *   RLE     runs until m values: varint zz(v), varint count (>= 1)
 *   DELTA   varint zz(v0), then m-1 residuals zz(v[k+1] - v[k])
 *   DOD     varint zz(v0), [m >= 2: varint zz(v1 - v0)], then m-2 residuals
 *           zz(d[k+1] - d[k]) of the deltas d[k] = v[k+1] - v[k]
 *   XOR     bit stream (low bit first, zero padded to a byte): v0 in w bits
 *           (w = 32 for F32, else 64); per next value x = v ^ prev:
 *           0 | 1,0 + bits of the previous window | 1,1 + leading zeros (6
 *           bits) + length - 1 (6 bits) + length bits (leading + length <= w)
 *   RAW     m values of w/8 bytes
 *
 *   residuals (none when their count is 0), frames unless TS_FL_ENTROPY:
 *   per TS_FRAME (128) residuals (the last frame may be shorter):
 *     varint min, byte width (0..64), ceil(count * width / 8) bytes of
 *     residual - min in width bits each, low bit first
 *   with TS_FL_ENTROPY, once for all residuals:
 *     varint base, byte a - 1 (alphabet 1..256; symbol = residual - base),
 *     when a > 1: byte bits (8..12), a varints of frequencies (total
 *     2^bits) and the rANS stream of ts_entropy.h to the end of the payload
 *
 * Nothing may follow the last column; a body must fill its payload.
 */
int ixts_chunk_encode(uint32_t n, int ncols, const ts_colv *cols, ixb_wbuf *out) {
    return ixts_chunk_encode_with(n, ncols, cols, NULL, out);
}

int ixts_chunk_encode_with(uint32_t n, int ncols, const ts_colv *cols, const int *force,
                           ixb_wbuf *out) {
    if (n < 1 || n > TS_CHUNK_MAX || ncols < 1 || ncols > TS_MAX_COLS || !cols) return TS_EINVAL;
    if (out->err) return TS_ENOMEM;
    ts_ews *ws = malloc(sizeof *ws);
    if (!ws) return TS_ENOMEM;
    ixb_wbuf_init(&ws->best, NULL);
    ixb_wbuf_init(&ws->trial, NULL);
    size_t start = out->len;
    ixb_put_u8(out, TS_BLOB_V1);
    ts_put_uv(out, n);
    ixb_put_u8(out, (uint8_t)ncols);
    int rc = out->err ? TS_ENOMEM : TS_OK;
    for (int c = 0; c < ncols && rc == TS_OK; c++) {
        ixb_wbuf_reset(&ws->best);
        rc = put_column(ws, &cols[c], n, force ? force[c] : 0, out);
    }
    ixb_wbuf_free(&ws->best);
    ixb_wbuf_free(&ws->trial);
    free(ws);
    if (rc != TS_OK && !out->err) out->len = start;
    return rc;
}

/* ---- decoder ------------------------------------------------------------- */

typedef struct ts_dcol {
    int64_t *i;
    double *d;
    uint8_t *null;
    uint32_t cap_i, cap_d, cap_n;
} ts_dcol;

typedef struct ts_dpriv {
    ts_dcol col[TS_MAX_COLS];
    uint32_t tab[TS_RANS_MMAX];
    uint8_t sym[TS_CHUNK_MAX];
    uint8_t stream[4 * TS_RANS_NS + 2 * TS_CHUNK_MAX + 16]; /* a padded rANS stream */
    uint8_t frame[TS_FRAME * 8 + TS_FRAME_PAD];
} ts_dpriv;

void ixts_dec_init(ts_dec *d) {
    memset(d, 0, sizeof *d);
}

void ixts_dec_free(ts_dec *d) {
    ts_dpriv *pv = d->priv;
    if (pv) {
        for (int c = 0; c < TS_MAX_COLS; c++) {
            free(pv->col[c].i);
            free(pv->col[c].d);
            free(pv->col[c].null);
        }
        free(pv);
    }
    ixts_dec_init(d);
}

/* Makes *p hold n elements of size sz (kept across calls). */
static int grow(void **p, uint32_t *cap, uint32_t n, size_t sz) {
    if (*cap >= n) return 0;
    void *q = realloc(*p, (size_t)n * sz);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* A column header as read, checked for its structure (not yet its kind). */
typedef struct colhdr {
    int codec, flags, kind, scale;
    const uint8_t *pay;
    size_t len, hdr_bytes;
} colhdr;

static int get_colhdr(ts_rd *r, colhdr *h) {
    const uint8_t *at = r->p;
    h->codec = ts_get_u8(r);
    h->flags = ts_get_u8(r);
    h->kind = (h->flags & TS_FL_KMASK) >> TS_FL_KSHIFT;
    h->scale = -1;
    if (r->bad || h->codec < TS_C_CONST || h->codec >= TS_C_NCODECS) return -1;
    if ((h->flags & ~TS_FL_KNOWN) || !kind_ok(h->kind)) return -1;
    if ((h->flags & TS_FL_ENTROPY) && h->codec != TS_C_DELTA && h->codec != TS_C_DOD) return -1;
    if (h->flags & TS_FL_SCALED) {
        if (!is_double(h->kind) || !int_codec(h->codec)) return -1;
        h->scale = ts_get_u8(r);
        if (h->scale > TS_DSCALE_MAX) return -1;
    } else if (h->kind == TS_K_DEC) {
        h->scale = ts_get_u8(r);
        if (h->scale > TS_DEC_SCALE_MAX) return -1;
    }
    uint64_t len = ts_get_uv(r);
    if (r->bad || len > ts_rd_left(r)) return -1;
    h->len = (size_t)len;
    h->hdr_bytes = (size_t)(r->p - at);
    h->pay = ts_get_bytes(r, h->len);
    return 0;
}

static int get_blobhdr(ts_rd *r, uint32_t *n, int *ncols) {
    if (ts_get_u8(r) != TS_BLOB_V1) return -1;
    uint64_t v = ts_get_uv(r);
    *ncols = ts_get_u8(r);
    if (r->bad || v < 1 || v > TS_CHUNK_MAX || *ncols < 1 || *ncols > TS_MAX_COLS) return -1;
    *n = (uint32_t)v;
    return 0;
}

uint32_t ixts_chunk_count(const uint8_t *p, size_t len) {
    ts_rd r = {p, p + len, 0};
    uint32_t n;
    int ncols;
    return p && get_blobhdr(&r, &n, &ncols) == 0 ? n : 0;
}

int ixts_chunk_info(const uint8_t *p, size_t len, int ncols, ts_colinfo *info) {
    ts_rd r = {p, p + len, 0};
    uint32_t n;
    int nc;
    if (!p || get_blobhdr(&r, &n, &nc) != 0 || nc != ncols) return TS_EBADCHUNK;
    for (int c = 0; c < nc; c++) {
        colhdr h;
        if (get_colhdr(&r, &h) != 0) return TS_EBADCHUNK;
        info[c].codec = h.codec;
        info[c].bytes = h.hdr_bytes + h.len;
    }
    return r.p == r.end ? TS_OK : TS_EBADCHUNK;
}

/* cnt values of w bits (1..64) from s (readable 9 bytes past the values)
 * into out[j] = mn + value. */
static void unpack(const uint8_t *s, unsigned w, uint32_t cnt, uint64_t mn, uint64_t *out) {
    uint64_t mask = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
    size_t bit = 0;
    if (w <= 57) {
        for (uint32_t j = 0; j < cnt; j++, bit += w)
            out[j] = mn + ((ts_ld64(s + (bit >> 3)) >> (bit & 7)) & mask);
        return;
    }
    for (uint32_t j = 0; j < cnt; j++, bit += w) {
        unsigned sh = bit & 7;
        uint64_t x = ts_ld64(s + (bit >> 3)) >> sh;
        if (sh) x |= (uint64_t)s[(bit >> 3) + 8] << (64 - sh);
        out[j] = mn + (x & mask);
    }
}

static int get_frames(ts_rd *r, uint64_t *out, uint32_t cnt, uint8_t *pad) {
    for (uint32_t f = 0; f < cnt; f += TS_FRAME) {
        uint32_t k = cnt - f < TS_FRAME ? cnt - f : TS_FRAME;
        uint64_t mn = ts_get_uv(r);
        unsigned w = ts_get_u8(r);
        if (r->bad || w > 64) return -1;
        size_t nb = ((size_t)k * w + 7) / 8;
        const uint8_t *s = ts_get_bytes(r, nb);
        if (!s) return -1;
        if (w == 0) {
            for (uint32_t j = 0; j < k; j++)
                out[f + j] = mn;
            continue;
        }
        if (ts_rd_left(r) < TS_FRAME_PAD) { /* too near the end for wide loads */
            memcpy(pad, s, nb);
            memset(pad + nb, 0, TS_FRAME_PAD);
            s = pad;
        }
        unpack(s, w, k, mn, out + f);
    }
    return 0;
}

static int get_entropy(ts_rd *r, uint64_t *out, uint32_t cnt, ts_dpriv *pv) {
    uint64_t base = ts_get_uv(r);
    int a = ts_get_u8(r) + 1;
    if (r->bad) return -1;
    if (a == 1) {
        for (uint32_t j = 0; j < cnt; j++)
            out[j] = base;
        return 0;
    }
    int bits = ts_get_u8(r);
    if (bits < TS_RANS_BITS_MIN || bits > TS_RANS_BITS_MAX) return -1;
    uint32_t freq[TS_ALPHA_MAX];
    uint64_t sum = 0;
    for (int s = 0; s < a; s++) {
        uint64_t f = ts_get_uv(r);
        if (f > TS_RANS_MMAX) return -1;
        freq[s] = (uint32_t)f;
        sum += f;
    }
    /* at most one renormalisation word a symbol */
    size_t len = ts_rd_left(r);
    if (r->bad || sum != 1u << bits || len > 4 * TS_RANS_NS + 2 * (size_t)cnt) return -1;
    if (ixts_rans_decode(r->p, len, freq, a, bits, pv->tab, pv->stream, pv->sym, cnt)) return -1;
    for (uint32_t j = 0; j < cnt; j++)
        out[j] = base + pv->sym[j];
    r->p = r->end;
    return 0;
}

static int get_delta(ts_rd *r, const colhdr *h, uint64_t *o, uint32_t m, ts_dpriv *pv) {
    int dod = h->codec == TS_C_DOD;
    uint32_t head = 1;
    uint64_t d = 0;
    o[0] = ts_unzz(ts_get_uv(r));
    if (dod && m >= 2) {
        d = ts_unzz(ts_get_uv(r));
        o[1] = o[0] + d;
        head = 2;
    }
    if (r->bad) return -1;
    if (m > head) {
        int rc = (h->flags & TS_FL_ENTROPY) ? get_entropy(r, o + head, m - head, pv)
                                            : get_frames(r, o + head, m - head, pv->frame);
        if (rc) return -1;
    }
    if (!dod) {
        for (uint32_t k = 1; k < m; k++)
            o[k] = o[k - 1] + ts_unzz(o[k]);
    } else {
        for (uint32_t k = 2; k < m; k++) {
            d += ts_unzz(o[k]);
            o[k] = o[k - 1] + d;
        }
    }
    return 0;
}

static int get_rle(ts_rd *r, uint64_t *o, uint32_t m) {
    for (uint32_t k = 0; k < m;) {
        uint64_t v = ts_unzz(ts_get_uv(r)), cnt = ts_get_uv(r);
        if (r->bad || cnt == 0 || cnt > m - k) return -1;
        for (uint64_t j = 0; j < cnt; j++)
            o[k++] = v;
    }
    return 0;
}

/* A bounded bit reader, low bit first; `bad` is sticky. */
typedef struct ts_br {
    const uint8_t *p, *end;
    uint64_t acc;
    unsigned nb;
    int bad;
} ts_br;

/* w bits, 0..56. */
static inline uint64_t br_get(ts_br *b, unsigned w) {
    while (b->nb <= 56 && b->p < b->end) {
        b->acc |= (uint64_t)*b->p++ << b->nb;
        b->nb += 8;
    }
    if (b->nb < w) {
        b->bad = 1;
        return 0;
    }
    uint64_t v = b->acc & (((uint64_t)1 << w) - 1);
    b->acc >>= w;
    b->nb -= w;
    return v;
}

/* w bits, 0..64. */
static inline uint64_t br_wide(ts_br *b, unsigned w) {
    if (w <= 32) return br_get(b, w);
    uint64_t lo = br_get(b, 32);
    return lo | br_get(b, w - 32) << 32;
}

static int get_xor(ts_rd *r, uint64_t *o, uint32_t m, unsigned wb) {
    ts_br b = {r->p, r->end, 0, 0, 0};
    unsigned plz = 0, ptz = 0;
    int win = 0;
    o[0] = br_wide(&b, wb);
    for (uint32_t k = 1; k < m && !b.bad; k++) {
        uint64_t x = 0;
        if (br_get(&b, 1) == 0) {
            o[k] = o[k - 1];
            continue;
        }
        if (br_get(&b, 1) == 0) {
            if (!win) return -1;
            x = br_wide(&b, wb - plz - ptz) << ptz;
        } else {
            unsigned lz = (unsigned)br_get(&b, 6), len = (unsigned)br_get(&b, 6) + 1;
            if (lz + len > wb) return -1;
            plz = lz, ptz = wb - lz - len, win = 1;
            x = br_wide(&b, len) << ptz;
        }
        o[k] = o[k - 1] ^ x;
    }
    /* Only the zero padding of the last byte may be left. */
    if (b.bad || b.p != b.end || b.nb >= 8 || b.acc) return -1;
    r->p = r->end;
    return 0;
}

static int get_raw(ts_rd *r, uint64_t *o, uint32_t m, unsigned wb) {
    const uint8_t *s = ts_get_bytes(r, (size_t)m * (wb / 8));
    if (!s) return -1;
    for (uint32_t k = 0; k < m; k++)
        o[k] = wb == 64 ? ts_ld64(s + 8 * k) : ts_ld32(s + 4 * k);
    return 0;
}

/* The m values of a body into o (ints, mantissas or bits). */
static int get_body(ts_rd *r, const colhdr *h, uint64_t *o, uint32_t m, ts_dpriv *pv) {
    unsigned wb = h->kind == TS_K_F32 ? 32 : 64;
    if (m == 0) return h->codec == TS_C_RAW ? 0 : -1;
    switch (h->codec) {
    case TS_C_CONST: {
        uint64_t v = ts_unzz(ts_get_uv(r));
        for (uint32_t k = 0; k < m; k++)
            o[k] = v;
        return r->bad ? -1 : 0;
    }
    case TS_C_RLE: return get_rle(r, o, m);
    case TS_C_DELTA:
    case TS_C_DOD: return get_delta(r, h, o, m, pv);
    case TS_C_XOR: return get_xor(r, o, m, wb);
    default: return get_raw(r, o, m, wb);
    }
}

double ixts_scaled_double(int64_t m, int s, int kind) {
    double v = (double)m / p10[s < 0 ? 0 : s > 15 ? 15 : s];
    return kind == TS_K_F32 ? (double)(float)v : v;
}

/* The values of a double column from its words: bits, or decimal
 * mantissas m / 10^s (rounded to float for F32). */
static void to_doubles(const colhdr *h, const uint64_t *w, double *d, uint32_t m) {
    if (h->flags & TS_FL_SCALED) {
        double p = p10[h->scale];
        if (h->kind == TS_K_F32)
            for (uint32_t k = 0; k < m; k++)
                d[k] = (double)(float)((double)(int64_t)w[k] / p);
        else
            for (uint32_t k = 0; k < m; k++)
                d[k] = (double)(int64_t)w[k] / p;
    } else if (h->kind == TS_K_F32) {
        for (uint32_t k = 0; k < m; k++)
            d[k] = f32_word(w[k]);
    } else {
        memcpy(d, w, (size_t)m * 8);
    }
}

/* Reads the bitmap into null[0..n); returns the non-NULL count or -1. */
static int64_t get_bitmap(ts_rd *r, uint8_t *null, uint32_t n) {
    const uint8_t *bm = ts_get_bytes(r, (n + 7) / 8);
    if (!bm || ((n & 7) && (bm[n / 8] >> (n & 7)))) return -1;
    uint32_t m = n;
    for (uint32_t k = 0; k < n; k++) {
        null[k] = (bm[k >> 3] >> (k & 7)) & 1;
        m -= null[k];
    }
    return m;
}

/* Moves the m dense values of v to their slots, 0 in the NULL slots. */
static void expand64(uint64_t *v, const uint8_t *null, uint32_t n, uint32_t m) {
    for (uint32_t k = n; k-- > 0;)
        v[k] = null[k] ? 0 : v[--m];
}

static int dec_column(ts_dec *d, ts_dpriv *pv, int c, const colhdr *h) {
    uint32_t n = d->n, m = n;
    ts_dcol *dc = &pv->col[c];
    ts_colv *cv = &d->cols[c];
    ts_rd r = {h->pay, h->pay + h->len, 0};
    if (grow((void **)&dc->i, &dc->cap_i, n, 8)) return TS_ENOMEM;
    if (h->flags & TS_FL_NULL) {
        if (grow((void **)&dc->null, &dc->cap_n, n, 1)) return TS_ENOMEM;
        int64_t got = get_bitmap(&r, dc->null, n);
        if (got < 0) return TS_EBADCHUNK;
        m = (uint32_t)got;
    }
    uint64_t *w = (uint64_t *)dc->i;
    if (get_body(&r, h, w, m, pv) != 0 || r.bad || r.p != r.end) return TS_EBADCHUNK;
    if (is_double(h->kind) && (h->flags & TS_FL_SCALED) && d->scaled_lazy) {
        cv->i = dc->i;
        cv->dscale = h->scale;
    } else if (is_double(h->kind)) {
        if (grow((void **)&dc->d, &dc->cap_d, n, 8)) return TS_ENOMEM;
        to_doubles(h, w, dc->d, m);
        cv->d = dc->d;
        if (h->flags & TS_FL_SCALED) {
            cv->i = dc->i;
            cv->dscale = h->scale;
        }
    } else {
        cv->i = dc->i;
    }
    if (h->flags & TS_FL_NULL) {
        cv->null = dc->null;
        if (cv->i) expand64((uint64_t *)cv->i, cv->null, n, m);
        if (cv->d) expand64((uint64_t *)(void *)cv->d, cv->null, n, m);
    }
    return TS_OK;
}

static int dec_columns(ts_dec *d, ts_rd *r, int ncols, const int *kinds, uint64_t mask) {
    ts_dpriv *pv = d->priv;
    for (int c = 0; c < ncols; c++) {
        colhdr h;
        if (get_colhdr(r, &h) != 0 || h.kind != kinds[c]) return TS_EBADCHUNK;
        ts_colv *cv = &d->cols[c];
        cv->kind = h.kind;
        cv->scale = h.kind == TS_K_DEC ? h.scale : 0;
        cv->dscale = -1;
        if (!((mask >> (c < 63 ? c : 63)) & 1)) continue;
        int rc = dec_column(d, pv, c, &h);
        if (rc != TS_OK) return rc;
    }
    return r->p == r->end ? TS_OK : TS_EBADCHUNK;
}

int ixts_chunk_decode(ts_dec *d, const uint8_t *p, size_t len, int ncols, const int *kinds,
                      uint64_t mask) {
    d->n = 0;
    d->ncols = 0;
    memset(d->cols, 0, sizeof d->cols);
    if (!p || !kinds || ncols < 1 || ncols > TS_MAX_COLS) return TS_EBADCHUNK;
    if (!d->priv && !(d->priv = calloc(1, sizeof(ts_dpriv)))) return TS_ENOMEM;
    ts_rd r = {p, p + len, 0};
    int nc;
    if (get_blobhdr(&r, &d->n, &nc) != 0 || nc != ncols) {
        d->n = 0;
        return TS_EBADCHUNK;
    }
    int rc = dec_columns(d, &r, ncols, kinds, mask);
    if (rc != TS_OK) {
        d->n = 0;
        memset(d->cols, 0, sizeof d->cols);
        return rc;
    }
    d->ncols = ncols;
    return TS_OK;
}
