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

static int parse_opts(const char *o, jopts *j, ts_err *e) {
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
            return ts_fail(e, TS_E_ROUTINE, "Bad option '%s' of oni_ts_read", item);
        o += l;
    }
    return 0;
}

static void add_time(const ts_series *s, int64_t us, sb *out) {
    char b[TS_TIME_TEXT];
    sb_addc(out, '"');
    sb_addn(out, b, ts_time_format(us, ts_time_digits(&s->rt, us), b));
    sb_addc(out, '"');
}

/* Appends metric m of the iterator's element as a JSON value: the scaled
 * integers of a decimal-scaled chunk are printed without a double. */
static void add_val(const ts_iter *it, int m, sb *out) {
    const ts_colv *cv = ts_iter_col(it, m);
    if (cv && cv->dscale >= 0 && cv->i && !(cv->null && cv->null[it->cur_k])) {
        int64_t v = cv->i[it->cur_k];
        int sc = cv->dscale;
        while (sc > 0 && v % 10 == 0)
            v /= 10, sc--;
        ts_dec_text(v, sc, out);
        return;
    }
    ts_val v;
    ts_iter_val(it, m, &v);
    ts_val_text(&it->s->rt.f[m + 1], &v, 1, out);
}

/* The page under construction. */
typedef struct page {
    sb arr[TS_MAX_METRICS + 1]; /* metric arrays; arr[nm] = time offsets */
    int nm;
    int64_t n;
    int64_t start, prev; /* first and previous element time (storage units) */
    int gaps;            /* regular series: a slot was skipped */
    size_t fixed;        /* bytes of the metric arrays with their names */
} page;

static size_t ndigits(int64_t v) {
    size_t d = 1;
    for (uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v; u >= 10; u /= 10)
        d++;
    return d + (v < 0);
}

/* The length the page would have with n elements and a "next" time: the
 * exact length of what page_emit writes, the next time at its longest. */
static size_t page_bytes(const page *pg, const ts_series *s, int rows, int64_t n) {
    size_t tl = 2 + 20 + (size_t)(s->regular ? ts_rowtype_fdig(&s->rt) : 6);
    size_t b = strlen("{\"n\":") + ndigits(n) + strlen(",\"next\":") + tl + 1;
    if (rows) return b + strlen(",\"rows\":[]") + pg->arr[0].n;
    b += strlen(",\"start\":") + tl;
    if (s->regular) b += strlen(",\"step\":") + ndigits(s->step);
    if (!s->regular || pg->gaps) b += strlen(",\"t\":[]") + pg->arr[pg->nm].n;
    return b + pg->fixed;
}

/* Appends element of it to pg (columns). */
static void page_add_cols(page *pg, const ts_iter *it) {
    const ts_series *s = it->s;
    for (int m = 0; m < pg->nm; m++) {
        if (pg->n) sb_addc(&pg->arr[m], ',');
        add_val(it, m, &pg->arr[m]);
    }
    sb *t = &pg->arr[pg->nm];
    if (pg->n) sb_addc(t, ',');
    int64_t off = it->cur_t - pg->start;
    if (s->regular && pg->n && it->cur_t != pg->prev + 1) pg->gaps = 1;
    sb_printf(t, "%lld", (long long)(s->regular ? off : off));
}

static void page_add_row(page *pg, const ts_iter *it) {
    sb *r = &pg->arr[0];
    if (pg->n) sb_addc(r, ',');
    sb_add(r, "{\"ts\":");
    add_time(it->s, ts_time_of(it->s, it->cur_t), r);
    for (int m = 0; m < it->s->rt.nf - 1; m++) {
        sb_printf(r, ",\"%s\":", it->s->rt.f[m + 1].name);
        add_val(it, m, r);
    }
    sb_addc(r, '}');
}

static void page_free(page *pg) {
    for (int m = 0; m <= TS_MAX_METRICS; m++)
        sb_free(&pg->arr[m]);
}

/* Writes the finished page. next: time of the first element left out. */
static void page_emit(const page *pg, const ts_series *s, const jopts *j, int has_next,
                      int64_t next, sb *out) {
    sb_printf(out, "{\"n\":%lld", (long long)pg->n);
    if (pg->n) {
        if (j->rows) {
            sb_add(out, ",\"rows\":[");
            sb_addn(out, pg->arr[0].p, pg->arr[0].n);
            sb_addc(out, ']');
        } else {
            sb_add(out, ",\"start\":");
            add_time(s, ts_time_of(s, pg->start), out);
            if (s->regular) sb_printf(out, ",\"step\":%lld", (long long)s->step);
            if (!s->regular || pg->gaps) {
                sb_add(out, s->regular ? ",\"i\":[" : ",\"t\":[");
                sb_addn(out, pg->arr[pg->nm].p, pg->arr[pg->nm].n);
                sb_addc(out, ']');
            }
            for (int m = 0; m < pg->nm; m++) {
                sb_printf(out, ",\"%s\":[", s->rt.f[m + 1].name);
                sb_addn(out, pg->arr[m].p, pg->arr[m].n);
                sb_addc(out, ']');
            }
        }
    }
    sb_add(out, ",\"next\":");
    if (has_next)
        add_time(s, ts_time_of(s, next), out);
    else
        sb_add(out, "null");
    sb_addc(out, '}');
}

/* Bytes of the metric arrays' names and brackets. */
static size_t page_fixed(const ts_series *s, const page *pg) {
    size_t b = 0;
    for (int m = 0; m < pg->nm; m++)
        b += strlen(s->rt.f[m + 1].name) + strlen(",\"\":[]") + pg->arr[m].n;
    return b;
}

int ts_json_page(ts_conn *c, ts_series *s, int64_t lo, int64_t hi, const char *opts, sb *out,
                 ts_err *e) {
    jopts j;
    if (parse_opts(opts, &j, e)) return -1;
    page pg;
    memset(&pg, 0, sizeof pg);
    pg.nm = j.rows ? 1 : s->rt.nf - 1;
    ts_iter it;
    int rc = ts_iter_open(&it, c, s, lo, hi, e);
    int has_next = 0;
    int64_t next = 0;
    while (!rc) {
        int r = ts_iter_next(&it, e);
        if (r < 0) rc = -1;
        if (r <= 0) break;
        if (j.lim && pg.n == j.lim) {
            has_next = 1;
            next = it.cur_t;
            break;
        }
        size_t keep[TS_MAX_METRICS + 1];
        for (int m = 0; m <= pg.nm; m++)
            keep[m] = pg.arr[m].n;
        int gaps = pg.gaps;
        if (!pg.n) pg.start = it.cur_t;
        if (j.rows)
            page_add_row(&pg, &it);
        else
            page_add_cols(&pg, &it);
        if (pg.arr[0].oom || pg.arr[pg.nm].oom) {
            rc = ts_fail(e, TS_E_NOMEM, NULL);
            break;
        }
        pg.fixed = j.rows ? 0 : page_fixed(s, &pg);
        if (page_bytes(&pg, s, j.rows, pg.n + 1) > j.max) {
            for (int m = 0; m <= pg.nm; m++)
                pg.arr[m].n = keep[m];
            pg.gaps = gaps;
            has_next = 1;
            next = it.cur_t;
            if (!pg.n)
                rc = ts_fail(e, TS_E_ROUTINE, "One element does not fit in %zu bytes", j.max);
            break;
        }
        pg.prev = it.cur_t;
        pg.n++;
    }
    ts_iter_close(&it);
    if (!rc) page_emit(&pg, s, &j, has_next, next, out);
    page_free(&pg);
    if (!rc && out->oom) rc = ts_fail(e, TS_E_NOMEM, NULL);
    return rc;
}

/* ---- oni_ts_info --------------------------------------------------------------------- */

int ts_info_json(ts_conn *c, ts_series *s, sb *out, ts_err *e) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->h, "SELECT n, data, length(summ) FROM _ixd_ts_chunk WHERE sid = ?1",
                           -1, &st, NULL))
        return ts_sqlerr(c, sqlite3_errcode(c->h), e);
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
        if (ts_chunk_info(sqlite3_column_blob(st, 1), n, s->rt.nf, info) == TS_OK)
            for (int m = 0; m < s->rt.nf; m++) {
                mbytes[m] += (double)info[m].bytes;
                if (info[m].codec > 0 && info[m].codec < TS_C_NCODECS) ncodec[m][info[m].codec]++;
            }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return ts_sqlerr(c, rc, e);
    char ob[TS_TIME_TEXT], iv[64];
    ts_time_format(s->origin, ts_rowtype_fdig(&s->rt), ob);
    sb_printf(out,
              "{\"elements\":%lld,\"chunks\":%lld,\"head\":%lld,\"bytes\":%lld,"
              "\"regular\":%s,\"origin\":\"%s\"",
              (long long)s->n, (long long)chunks, (long long)s->nhead, (long long)bytes,
              s->regular ? "true" : "false", ob);
    if (s->regular) {
        ts_interval_format(s->step, iv, sizeof iv);
        sb_printf(out, ",\"interval\":\"%s\"", iv);
    }
    sb_add(out, ",\"metrics\":[");
    for (int m = 0; m < s->rt.nf; m++) {
        char tn[64];
        ityp t = {s->rt.f[m].code, s->rt.f[m].len};
        ixs_type_text(t, tn, sizeof tn);
        double bpv = nchunked ? mbytes[m] / (double)nchunked : 0;
        sb_printf(out, "%s{\"name\":\"%s\",\"type\":\"%s\",\"bytes_per_value\":%.4f,\"codecs\":{",
                  m ? "," : "", m ? s->rt.f[m].name : "(time)", tn, bpv);
        int first = 1;
        for (int k = 1; k < TS_C_NCODECS; k++)
            if (ncodec[m][k]) {
                sb_printf(out, "%s\"%s\":%lld", first ? "" : ",", ts_codec_name(k),
                          (long long)ncodec[m][k]);
                first = 0;
            }
        sb_add(out, "}}");
    }
    sb_add(out, "]}");
    return out->oom ? ts_fail(e, TS_E_NOMEM, NULL) : 0;
}
