/* ts_json.c: a window of a series as one JSON page (oni_ts_read) and the
 * storage description (oni_ts_info). The shapes are in docs/timeseries.md.
 *
 * A page is built in one pass: every element's values are appended to one
 * buffer per array (per metric, plus the time offsets), and the element is
 * taken back out when the page would grow past its byte limit; the closing
 * part ("next") is reserved at its longest, so the page never goes over. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/ts/ts_int.h"

typedef struct jopts {
    int rows;    /* shape=rows */
    int64_t lim; /* limit=N, 0 = none */
    size_t max;  /* max=B */
} jopts;

static int parse_opts(const char *o, jopts *j, ixv_err *e) {
    j->rows = 0;
    j->lim = 0;
    j->max = TS_LVARCHAR_MAX;
    while (o && *o) {
        while (*o == ' ' || *o == ',')
            o++;
        if (!*o) break;
        size_t l = strcspn(o, ",");
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)(l < 63 ? l : 63), o);
        long long v;
        if (!strcmp(item, "shape=rows"))
            j->rows = 1;
        else if (!strcmp(item, "shape=columns"))
            j->rows = 0;
        else if (sscanf(item, "limit=%lld", &v) == 1 && v > 0)
            j->lim = v;
        else if (sscanf(item, "max=%lld", &v) == 1 && v >= 256 && v <= TS_LVARCHAR_MAX)
            j->max = (size_t)v;
        else
            return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Bad option '%s' of oni_ts_read", item);
        o += l;
    }
    return 0;
}

static void add_time(const ts_series *s, int64_t us, sb *out) {
    char b[TS_TIME_TEXT];
    ixv_sb_addc(out, '"');
    ixv_sb_addn(out, b, ixts_time_format(us, ixts_time_digits(&s->rt, us), b));
    ixv_sb_addc(out, '"');
}

/* An array of the page: bytes written straight in (the hot path), with
 * room for one more value always reserved. */
typedef struct jbuf {
    char *p;
    size_t n, cap;
} jbuf;
#define JB_VALUE_MAX 48 /* the longest JSON value text ("-9223372036854775808", doubles) */

static int jb_room(jbuf *b, size_t need) {
    if (b->n + need <= b->cap) return 0;
    size_t nc = b->cap ? b->cap * 2 : 4096;
    while (nc < b->n + need)
        nc *= 2;
    char *np = realloc(b->p, nc);
    if (!np) return -1;
    b->p = np;
    b->cap = nc;
    return 0;
}

static char *put_i64(char *o, int64_t v) {
    if (v < 0) *o++ = '-';
    return ixts_put_u64(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* x (< 2^32) at o; returns the end. Up to four digits through the pairs. */
static char *put_u32(char *o, uint32_t x) {
    if (x < 10) {
        *o = (char)('0' + x);
        return o + 1;
    }
    if (x < 100) {
        memcpy(o, digit_pairs + 2 * x, 2);
        return o + 2;
    }
    if (x < 1000) {
        *o = (char)('0' + x / 100);
        memcpy(o + 1, digit_pairs + 2 * (x % 100), 2);
        return o + 3;
    }
    if (x < 10000) {
        memcpy(o, digit_pairs + 2 * (x / 100), 2);
        memcpy(o + 2, digit_pairs + 2 * (x % 100), 2);
        return o + 4;
    }
    return ixts_put_u64(o, x);
}

/* f as exactly n digits (zeros in front) at o; returns the end. */
static char *put_fixed(char *o, uint32_t f, int n) {
    char *p = o + n;
    for (; p - o >= 2; f /= 100) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * (f % 100), 2);
    }
    if (p > o) *--p = (char)('0' + f % 10);
    return o + n;
}

/* f (< 10^n) as exactly n digits at o, trailing zeros dropped (f > 0);
 * returns the end. */
static char *put_frac(char *o, uint32_t f, int n) {
    if (n == 2) { /* cents */
        if (f % 10) {
            memcpy(o, digit_pairs + 2 * f, 2);
            return o + 2;
        }
        *o = (char)('0' + f / 10);
        return o + 1;
    }
    while (f % 10 == 0)
        f /= 10, n--;
    return put_fixed(o, f, n);
}

/* v * 10^-sc with trailing zeros dropped (the shortest text of a
 * decimal-scaled double): the integer part, the point, sc digits. Only
 * for what ixts_double_text prints the same way: at most ten digits and
 * nine decimals (so no shorter text reads back to the same double), and
 * 0 or at least 1e-4 (smaller ones it writes with an exponent); NULL
 * otherwise, with nothing written. The common scales divide by constants. */
static char *put_scaled(char *o, int64_t v, int sc) {
    static const uint32_t p10u[10] = {1,      10,      100,      1000,      10000,
                                      100000, 1000000, 10000000, 100000000, 1000000000};
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (u > UINT32_MAX || sc < 1 || sc > 9 || (u && sc > 4 && u < p10u[sc - 4])) return NULL;
    if (v < 0) *o++ = '-';
    uint32_t x = (uint32_t)u, ip;
    switch (sc) {
    case 1: ip = x / 10; break;
    case 2: ip = x / 100; break;
    case 3: ip = x / 1000; break;
    case 4: ip = x / 10000; break;
    default: ip = x / p10u[sc]; break;
    }
    uint32_t f = x - ip * p10u[sc];
    o = put_u32(o, ip);
    if (!f) return o;
    *o++ = '.';
    return put_frac(o, f, sc);
}

/* Writes metric m of the iterator's element as a JSON value at o (room for
 * JB_VALUE_MAX bytes); returns the end. The scaled integers of a
 * decimal-scaled chunk and integers are printed without a double. */
static char *put_val(const ts_iter *it, int m, char *o) {
    const ts_colv *cv = it->cur_chunk ? &it->dec->cols[m + 1] : NULL;
    if (cv && cv->i && !(cv->null && cv->null[it->cur_k])) {
        if (cv->dscale >= 0 && (cv->kind == TS_K_F64 || cv->kind == TS_K_F32)) {
            char *e = put_scaled(o, cv->i[it->cur_k], cv->dscale);
            if (e) return e;
        }
        if (cv->kind == TS_K_INT) return put_i64(o, cv->i[it->cur_k]);
    }
    ts_val v;
    ixts_iter_val(it, m, &v);
    sb t = {0};
    ixts_val_text(&it->s->rt.f[m + 1], &v, 1, &t);
    size_t n = t.n < JB_VALUE_MAX ? t.n : 0;
    if (n) memcpy(o, t.p, n);
    ixv_sb_free(&t);
    return o + n;
}

/* The page under construction. */
typedef struct page {
    jbuf arr[TS_MAX_METRICS + 1]; /* metric arrays (rows: arr[0]); arr[nm] = time offsets */
    int nm;
    int64_t n;
    int64_t start, prev; /* first and previous element time (storage units) */
    int gaps;            /* regular series: a slot was skipped (offsets then written) */
    size_t names;        /* bytes of the metric arrays' names and brackets */
    size_t base;         /* bytes besides the arrays and the digits of n */
    size_t vals;         /* bytes in the metric arrays (or the rows) */
    size_t dig;          /* digits of the n page_bytes was last asked for */
    int64_t dig_next;    /* the least n with more digits */
} page;

static size_t ndigits(int64_t v) {
    size_t d = 1;
    for (uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v; u >= 10; u /= 10)
        d++;
    return d + (v < 0);
}

/* The length the page would have with n elements and a "next" time: the
 * exact length of what page_emit writes, the next time at its longest. */
static size_t page_bytes(page *pg, const ts_series *s, int64_t n) {
    if (n >= pg->dig_next || n < 0) { /* n grows: its digits change seldom */
        pg->dig = ndigits(n);
        pg->dig_next = n < 0 ? 0 : 1;
        for (size_t d = 0; d < pg->dig && pg->dig_next <= INT64_MAX / 10; d++)
            pg->dig_next *= 10;
    }
    size_t b = pg->base + pg->dig + pg->vals;
    if (!s->step || pg->gaps) b += strlen(",\"t\":[]") + pg->arr[pg->nm].n;
    return b;
}

/* page_bytes without the arrays and the digits of n. */
static size_t page_base(const page *pg, const ts_series *s, int rows) {
    size_t tl = 2 + 20 + (size_t)(s->step ? ixts_rowtype_fdig(&s->rt) : 6);
    size_t b = strlen("{\"n\":") + strlen(",\"next\":") + tl + 1;
    if (rows) return b + strlen(",\"rows\":[]");
    b += strlen(",\"start\":") + tl;
    if (s->step) b += strlen(",\"step\":") + ndigits(s->step);
    return b + pg->names;
}

/* Appends the time offset off of element k (k > 0: after a comma). */
static int put_offset(jbuf *t, int64_t k, int64_t off) {
    if (jb_room(t, JB_VALUE_MAX)) return -1;
    if (k) t->p[t->n++] = ',';
    t->n = (size_t)(put_i64(t->p + t->n, off) - t->p);
    return 0;
}

/* Appends element of it to pg (columns). -1 when out of memory. */
static int page_add_cols(page *pg, const ts_iter *it) {
    const ts_series *s = it->s;
    for (int m = 0; m < pg->nm; m++) {
        jbuf *b = &pg->arr[m];
        if (jb_room(b, JB_VALUE_MAX + 1)) return -1;
        size_t was = b->n;
        if (pg->n) b->p[b->n++] = ',';
        b->n = (size_t)(put_val(it, m, b->p + b->n) - b->p);
        pg->vals += b->n - was;
    }
    jbuf *t = &pg->arr[pg->nm];
    int64_t off = it->cur_t - pg->start;
    if (!s->step) return put_offset(t, pg->n, off);
    if (!pg->gaps && pg->n && it->cur_t != pg->prev + 1) {
        /* the first gap: the offsets so far were 0, 1, 2, ... */
        pg->gaps = 1;
        for (int64_t k = 0; k < pg->n; k++)
            if (put_offset(t, k, k)) return -1;
    }
    return pg->gaps ? put_offset(t, pg->n, off) : 0;
}

static int page_add_row(page *pg, const ts_iter *it) {
    sb r = {0};
    if (pg->n) ixv_sb_addc(&r, ',');
    ixv_sb_add(&r, "{\"ts\":");
    add_time(it->s, ts_time_of(it->s, it->cur_t), &r);
    for (int m = 0; m < it->s->rt.nf - 1; m++) {
        char v[JB_VALUE_MAX];
        ixv_sb_printf(&r, ",\"%s\":", it->s->rt.f[m + 1].name);
        ixv_sb_addn(&r, v, (size_t)(put_val(it, m, v) - v));
    }
    ixv_sb_addc(&r, '}');
    jbuf *b = &pg->arr[0];
    int rc = r.oom || jb_room(b, r.n) ? -1 : 0;
    if (!rc) {
        memcpy(b->p + b->n, r.p, r.n);
        b->n += r.n;
        pg->vals += r.n;
    }
    ixv_sb_free(&r);
    return rc;
}

static void page_free(page *pg) {
    for (int m = 0; m <= TS_MAX_METRICS; m++)
        free(pg->arr[m].p);
}

/* Writes the finished page. next: time of the first element left out. */
static void page_emit(const page *pg, const ts_series *s, const jopts *j, int has_next,
                      int64_t next, sb *out) {
    ixv_sb_printf(out, "{\"n\":%lld", (long long)pg->n);
    if (pg->n) {
        if (j->rows) {
            ixv_sb_add(out, ",\"rows\":[");
            ixv_sb_addn(out, pg->arr[0].p ? pg->arr[0].p : "", pg->arr[0].n);
            ixv_sb_addc(out, ']');
        } else {
            ixv_sb_add(out, ",\"start\":");
            add_time(s, ts_time_of(s, pg->start), out);
            if (s->step) ixv_sb_printf(out, ",\"step\":%lld", (long long)s->step);
            if (!s->step || pg->gaps) {
                ixv_sb_add(out, s->step ? ",\"i\":[" : ",\"t\":[");
                ixv_sb_addn(out, pg->arr[pg->nm].p ? pg->arr[pg->nm].p : "", pg->arr[pg->nm].n);
                ixv_sb_addc(out, ']');
            }
            for (int m = 0; m < pg->nm; m++) {
                ixv_sb_printf(out, ",\"%s\":[", s->rt.f[m + 1].name);
                ixv_sb_addn(out, pg->arr[m].p ? pg->arr[m].p : "", pg->arr[m].n);
                ixv_sb_addc(out, ']');
            }
        }
    }
    ixv_sb_add(out, ",\"next\":");
    if (has_next)
        add_time(s, ts_time_of(s, next), out);
    else
        ixv_sb_add(out, "null");
    ixv_sb_addc(out, '}');
}

/* Bytes of the metric arrays' names and brackets. */
static size_t page_names(const ts_series *s) {
    size_t b = 0;
    for (int m = 1; m < s->rt.nf; m++)
        b += strlen(s->rt.f[m].name) + strlen(",\"\":[]");
    return b;
}

int ixts_json_page(ts_conn *c, ts_series *s, int64_t lo, int64_t hi, const char *opts, sb *out,
                   ixv_err *e) {
    jopts j;
    if (parse_opts(opts, &j, e)) return -1;
    page pg;
    memset(&pg, 0, sizeof pg);
    pg.nm = j.rows ? 1 : s->rt.nf - 1;
    pg.names = j.rows ? 0 : page_names(s);
    pg.base = page_base(&pg, s, j.rows);
    /* a page's arrays never hold more than max bytes and one value: one
     * allocation each */
    for (int m = 0; m < pg.nm; m++)
        if (jb_room(&pg.arr[m], j.max + JB_VALUE_MAX + 1)) {
            page_free(&pg);
            return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
        }
    ts_iter it;
    int rc = ixts_iter_open(&it, c, s, lo, hi, 1, e);
    int has_next = 0;
    int64_t next = 0;
    while (!rc) {
        int r = ixts_iter_next(&it, e);
        if (r < 0) rc = -1;
        if (r <= 0) break;
        if (j.lim && pg.n == j.lim) {
            has_next = 1;
            next = it.cur_t;
            break;
        }
        size_t keep[TS_MAX_METRICS + 1], vals = pg.vals;
        for (int m = 0; m <= pg.nm; m++)
            keep[m] = pg.arr[m].n;
        int gaps = pg.gaps;
        if (!pg.n) pg.start = it.cur_t;
        if (j.rows ? page_add_row(&pg, &it) : page_add_cols(&pg, &it)) {
            rc = ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
            break;
        }
        if (page_bytes(&pg, s, pg.n + 1) > j.max) {
            for (int m = 0; m <= pg.nm; m++)
                pg.arr[m].n = keep[m];
            pg.vals = vals;
            pg.gaps = gaps;
            has_next = 1;
            next = it.cur_t;
            if (!pg.n)
                rc = ixv_seterr(e, TS_E_ROUTINE, 0, 0, "One element does not fit in %zu bytes",
                                j.max);
            break;
        }
        pg.prev = it.cur_t;
        pg.n++;
    }
    ixts_iter_close(&it);
    if (!rc) page_emit(&pg, s, &j, has_next, next, out);
    page_free(&pg);
    if (!rc && out->oom) rc = ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    return rc;
}

/* ---- oni_ts_info --------------------------------------------------------------------- */

int ixts_info_json(ts_conn *c, ts_series *s, sb *out, ixv_err *e) {
    sqlite3_stmt *st;
    int summ_tab = ixts_summ_table(c, 0, e);
    if (summ_tab < 0) return -1;
    if (sqlite3_prepare_v2(c->h,
                           summ_tab ? "SELECT n, data, coalesce(length(c.summ), (SELECT "
                                      "length(s.summ) FROM _ixd_ts_summ s WHERE s.sid = c.sid AND "
                                      "s.t0 = c.t0)) FROM _ixd_ts_chunk c WHERE c.sid = ?1"
                                    : "SELECT n, data, length(summ) FROM _ixd_ts_chunk WHERE "
                                      "sid = ?1",
                           -1, &st, NULL))
        return ixts_sqlerr(c, sqlite3_errcode(c->h), e);
    sqlite3_bind_int64(st, 1, s->sid);
    int64_t chunks = 0, bytes = 0, nchunked = 0;
    double mbytes[TS_MAX_COLS] = {0};
    int64_t ncodec[TS_MAX_COLS][TS_C_NCODECS] = {{0}};
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        chunks++;
        nchunked += sqlite3_column_int64(st, 0);
        size_t n = (size_t)sqlite3_column_bytes(st, 1);
        bytes += (int64_t)n + sqlite3_column_int64(st, 2);
        ts_colinfo info[TS_MAX_COLS];
        if (ixts_chunk_info(sqlite3_column_blob(st, 1), n, s->rt.nf, info) == TS_OK)
            for (int m = 0; m < s->rt.nf; m++) {
                mbytes[m] += (double)info[m].bytes;
                if (info[m].codec > 0 && info[m].codec < TS_C_NCODECS) ncodec[m][info[m].codec]++;
            }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return ixts_sqlerr(c, rc, e);
    char ob[TS_TIME_TEXT], iv[64];
    ixts_time_format(s->origin, ixts_rowtype_fdig(&s->rt), ob);
    ixv_sb_printf(out,
                  "{\"elements\":%lld,\"chunks\":%lld,\"head\":%lld,\"bytes\":%lld,"
                  "\"regular\":%s,\"origin\":\"%s\"",
                  (long long)s->n, (long long)chunks, (long long)s->nhead, (long long)bytes,
                  s->step ? "true" : "false", ob);
    if (s->step) {
        ixts_interval_format(s->step, iv, sizeof iv);
        ixv_sb_printf(out, ",\"interval\":\"%s\"", iv);
    }
    ixv_sb_add(out, ",\"metrics\":[");
    for (int m = 0; m < s->rt.nf; m++) {
        char tn[64];
        ityp t = {s->rt.f[m].code, s->rt.f[m].len};
        ixv_type_text(t, tn, sizeof tn);
        double bpv = nchunked ? mbytes[m] / (double)nchunked : 0;
        ixv_sb_printf(out,
                      "%s{\"name\":\"%s\",\"type\":\"%s\",\"bytes_per_value\":%.4f,\"codecs\":{",
                      m ? "," : "", m ? s->rt.f[m].name : "(time)", tn, bpv);
        int first = 1;
        for (int k = 1; k < TS_C_NCODECS; k++)
            if (ncodec[m][k]) {
                ixv_sb_printf(out, "%s\"%s\":%lld", first ? "" : ",", ixts_codec_name(k),
                              (long long)ncodec[m][k]);
                first = 0;
            }
        ixv_sb_add(out, "}}");
    }
    ixv_sb_add(out, "]}");
    return out->oom ? ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL) : 0;
}
