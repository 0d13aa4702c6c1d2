/* ts_read.c: reading a window of a series (chunks, then the head) and the
 * per-chunk summaries that let aggregates skip decoding. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "server/ts/ts_int.h"

/* Drops the iterator's statement: the connection's kept one is reset (a
 * cached iterator's), its own is finalized. */
static void iter_stmt_drop(ts_iter *it) {
    if (it->st && it->cached)
        sqlite3_reset(it->st);
    else if (it->st)
        sqlite3_finalize(it->st);
    it->st = NULL;
}

/* Opens the iterator's statement for query q (TS_Q_CHUNK_WIN or
 * TS_Q_HEAD_GET). A cached iterator, closed before its call returns, uses
 * the connection's kept copy (TS_Q_ITER_*: not the writers' statements);
 * others prepare their own, as several may be open at once. */
static int iter_stmt(ts_iter *it, int q, ixv_err *e) {
    iter_stmt_drop(it);
    if (it->cached) {
        it->st = ixts_q(it->c, q == TS_Q_CHUNK_WIN ? TS_Q_ITER_CHUNK : TS_Q_ITER_HEAD, e);
        if (!it->st) return -1;
    } else {
        const char *sql = ixts_q_sql(it->c, q, e);
        if (!sql) return -1;
        int rc = sqlite3_prepare_v3(it->c->h, sql, -1, 0, &it->st, NULL);
        if (rc != SQLITE_OK) return ixts_sqlerr(it->c, rc, e);
    }
    sqlite3_bind_int64(it->st, 1, it->s->sid);
    sqlite3_bind_int64(it->st, 2, it->lo);
    sqlite3_bind_int64(it->st, 3, it->hi);
    return 0;
}

int ixts_iter_open(ts_iter *it, ts_conn *c, ts_series *s, int64_t lo, int64_t hi, int cached,
                   ixv_err *e) {
    memset(it, 0, sizeof *it);
    it->c = c;
    it->s = s;
    it->lo = lo;
    it->hi = hi;
    ixts_dec_init(&it->own);
    it->cached = cached;
    it->dec = cached ? &c->cache[c->cache_last].dec : &it->own;
    it->dec->scaled_lazy = 1; /* ixts_iter_val makes the doubles it is asked for */
    it->head = calloc(1, sizeof *it->head);
    if (!it->head) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    if (lo > hi) {
        it->phase = 2;
        return 0;
    }
    /* no sealed chunk reaches the window: straight to the head */
    if (s->hi == TS_NO_TIME || lo > s->hi) {
        it->phase = 1;
        return iter_stmt(it, TS_Q_HEAD_GET, e);
    }
    return iter_stmt(it, TS_Q_CHUNK_WIN, e);
}

void ixts_iter_close(ts_iter *it) {
    iter_stmt_drop(it);
    ixts_dec_free(&it->own);
    free(it->head);
    it->head = NULL;
}

int ixts_iter_next_chunk(ts_iter *it, ixv_err *e) {
    while (it->phase == 0) {
        int rc = sqlite3_step(it->st);
        if (rc == SQLITE_ROW) {
            it->t0 = sqlite3_column_int64(it->st, 0);
            it->t1 = sqlite3_column_int64(it->st, 1);
            it->cn = (uint32_t)sqlite3_column_int64(it->st, 2);
            if (it->t1 < it->lo) continue; /* the chunk before the window */
            it->summ = sqlite3_column_blob(it->st, 4);
            it->summn = (size_t)sqlite3_column_bytes(it->st, 4);
            it->whole = it->t0 >= it->lo && it->t1 <= it->hi;
            it->decoded = 0;
            return 1;
        }
        if (rc != SQLITE_DONE) return ixts_sqlerr(it->c, rc, e);
        it->phase = 1;
        if (iter_stmt(it, TS_Q_HEAD_GET, e)) return -1;
    }
    return 0;
}

/* A 64-bit hash of a chunk blob (FNV-1a over 8-byte words, then mixed). */
static uint64_t blob_hash(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, p + k, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; k < n; k++)
        h = (h ^ p[k]) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

/* Decodes the current chunk and finds the window in it. */
int ixts_iter_decode(ts_iter *it, ixv_err *e) {
    const ts_rowtype *rt = &it->s->rt;
    int kinds[TS_MAX_COLS];
    kinds[0] = TS_K_INT;
    for (int m = 1; m < rt->nf; m++)
        kinds[m] = ixts_field_kind(&rt->f[m]);
    const uint8_t *p = sqlite3_column_blob(it->st, 3);
    size_t n = (size_t)sqlite3_column_bytes(it->st, 3);
    ts_conn *c = it->c;
    ts_ccache *cc = NULL;
    uint64_t h = 0;
    if (it->cached) { /* a kept chunk, or the entry not used last */
        h = blob_hash(p, n);
        int k = 0;
        while (k < TS_CCACHE_N &&
               !(c->cache[k].valid && c->cache[k].sid == it->s->sid && c->cache[k].t0 == it->t0 &&
                 c->cache[k].len == n && c->cache[k].hash == h))
            k++;
        int hit = k < TS_CCACHE_N;
        if (!hit) k = (c->cache_last + 1) % TS_CCACHE_N;
        c->cache_last = k;
        cc = &c->cache[k];
        it->dec = &cc->dec;
        if (hit) cc = NULL; /* nothing to decode */
    }
    if (!it->cached || cc) {
        if (cc) cc->valid = 0;
        it->dec->scaled_lazy = 1; /* ixts_iter_val makes the doubles it is asked for */
        int rc = ixts_chunk_decode(it->dec, p, n, rt->nf, kinds, ~0ull);
        if (rc == TS_ENOMEM) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
        if (rc != TS_OK)
            return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "A chunk of the series is damaged");
        if (cc) *cc = (ts_ccache){1, it->s->sid, it->t0, n, h, cc->dec};
    }
    const int64_t *t = it->dec->cols[0].i;
    uint32_t lo = 0, hi = it->dec->n;
    while (lo < hi) { /* first t >= it->lo */
        uint32_t mid = lo + (hi - lo) / 2;
        if (t[mid] < it->lo)
            lo = mid + 1;
        else
            hi = mid;
    }
    it->k = lo;
    hi = it->dec->n;
    uint32_t a = lo;
    while (a < hi) { /* first t > it->hi */
        uint32_t mid = a + (hi - a) / 2;
        if (t[mid] <= it->hi)
            a = mid + 1;
        else
            hi = mid;
    }
    it->kend = a;
    it->decoded = 1;
    return 0;
}

int ixts_iter_next(ts_iter *it, ixv_err *e) {
    for (;;) {
        if (it->phase == 0) {
            if (it->decoded && it->k < it->kend) {
                it->cur_chunk = 1;
                it->cur_k = it->k++;
                it->cur_t = it->dec->cols[0].i[it->cur_k];
                return 1;
            }
            int r = ixts_iter_next_chunk(it, e);
            if (r < 0) return -1;
            if (r > 0 && ixts_iter_decode(it, e)) return -1;
            continue;
        }
        if (it->phase == 1) {
            int rc = sqlite3_step(it->st);
            if (rc == SQLITE_ROW) {
                ts_elem *el = it->head;
                el->t = sqlite3_column_int64(it->st, 0);
                if (ixts_elem_unpack(&it->s->rt, sqlite3_column_blob(it->st, 1),
                                     (size_t)sqlite3_column_bytes(it->st, 1), el))
                    return ixv_seterr(e, TS_E_ROUTINE, 0, 0,
                                      "A head element of the series is damaged");
                it->cur_chunk = 0;
                it->cur_t = el->t;
                return 1;
            }
            if (rc != SQLITE_DONE) return ixts_sqlerr(it->c, rc, e);
            it->phase = 2;
        }
        return 0;
    }
}

void ixts_iter_val(const ts_iter *it, int m, ts_val *v) {
    if (!it->cur_chunk) {
        *v = it->head->v[m];
        return;
    }
    const ts_colv *cv = &it->dec->cols[m + 1];
    uint32_t k = it->cur_k;
    v->null = cv->null ? cv->null[k] : 0;
    v->i = cv->i ? cv->i[k] : 0;
    v->d = cv->d ? cv->d[k] : cv->dscale >= 0 ? ixts_scaled_double(v->i, cv->dscale, cv->kind) : 0;
    v->scale = cv->kind == TS_K_DEC ? (int8_t)cv->scale : 0;
}

/* ---- summaries ----------------------------------------------------------------------
 *
 * Per metric, in row type order:
 *   u32 LE   count of non-NULL values
 *   8 bytes  min, max, first, last: int64 (INT, DEC mantissa) or double bits
 *   8 bytes  sum as a double
 *   1 byte   DEC only: the scale of the mantissas
 * NaN values take no part in min and max (they do in sum).
 */
static void put64(ixb_wbuf *o, uint64_t u) {
    uint8_t b[8];
    for (int k = 0; k < 8; k++)
        b[k] = (uint8_t)(u >> (8 * k));
    ixb_put_bytes(o, b, 8);
}

static uint64_t get64(const uint8_t *p) {
    uint64_t u = 0;
    for (int k = 0; k < 8; k++)
        u |= (uint64_t)p[k] << (8 * k);
    return u;
}

static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void summ_metric(const ts_colv *cv, uint32_t n, ixb_wbuf *out) {
    uint32_t cnt = 0;
    int isf = cv->kind == TS_K_F64 || cv->kind == TS_K_F32;
    int64_t imin = 0, imax = 0, ifirst = 0, ilast = 0;
    double dmin = NAN, dmax = NAN, dfirst = 0, dlast = 0, sum = 0;
    double scale = cv->kind == TS_K_DEC ? pow(10, -cv->scale) : 1;
    for (uint32_t k = 0; k < n; k++) {
        if (cv->null && cv->null[k]) continue;
        if (isf) {
            double d = cv->d[k];
            if (!cnt) dfirst = d;
            dlast = d;
            sum += d;
            if (!isnan(d)) {
                if (isnan(dmin) || d < dmin) dmin = d;
                if (isnan(dmax) || d > dmax) dmax = d;
            }
        } else {
            int64_t v = cv->i[k];
            if (!cnt) imin = imax = ifirst = v;
            if (v < imin) imin = v;
            if (v > imax) imax = v;
            ilast = v;
            sum += (double)v * scale;
        }
        cnt++;
    }
    uint8_t c4[4] = {(uint8_t)cnt, (uint8_t)(cnt >> 8), (uint8_t)(cnt >> 16), (uint8_t)(cnt >> 24)};
    ixb_put_bytes(out, c4, 4);
    if (isf) {
        put64(out, dbits(dmin));
        put64(out, dbits(dmax));
        put64(out, dbits(dfirst));
        put64(out, dbits(dlast));
    } else {
        put64(out, (uint64_t)imin);
        put64(out, (uint64_t)imax);
        put64(out, (uint64_t)ifirst);
        put64(out, (uint64_t)ilast);
    }
    put64(out, dbits(sum));
    if (cv->kind == TS_K_DEC) ixb_put_u8(out, (uint8_t)cv->scale);
}

void ixts_summ_build(const ts_rowtype *rt, uint32_t n, const ts_colv *cols, ixb_wbuf *out) {
    for (int m = 1; m < rt->nf; m++)
        summ_metric(&cols[m], n, out);
}

int ixts_summ_get(const ts_rowtype *rt, const uint8_t *p, size_t n, int m, ts_msum *out) {
    size_t at = 0;
    for (int f = 1; f < rt->nf; f++) {
        int kind = ixts_field_kind(&rt->f[f]);
        size_t sz = 44 + (kind == TS_K_DEC);
        if (at > n || n - at < sz) return -1;
        if (f - 1 == m) {
            const uint8_t *q = p + at;
            memset(out, 0, sizeof *out);
            out->count =
                (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
            ts_val *vals[4] = {&out->min, &out->max, &out->first, &out->last};
            int8_t scale = kind == TS_K_DEC ? (int8_t)q[44] : 0;
            for (int k = 0; k < 4; k++) {
                uint64_t u = get64(q + 4 + 8 * k);
                if (kind == TS_K_F64 || kind == TS_K_F32)
                    memcpy(&vals[k]->d, &u, 8);
                else
                    vals[k]->i = (int64_t)u;
                vals[k]->scale = scale;
                vals[k]->null = out->count == 0;
            }
            uint64_t su = get64(q + 36);
            memcpy(&out->sum, &su, 8);
            return 0;
        }
        at += sz;
    }
    return -1;
}
