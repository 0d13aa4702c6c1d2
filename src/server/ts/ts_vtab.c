/*
 * ts_vtab.c: the table functions oni_ts_read_rows and oni_ts_aggregate, as
 * SQLite eponymous virtual tables (_ixd_ts_rows, _ixd_ts_agg) whose hidden
 * columns are the routine's arguments. The translator names their value
 * columns after the row type (ts.h: TS_ROWS_COLS, TS_AGG_COLS).
 *
 * Rows stream: a cursor decodes one chunk at a time (never the window
 * whole). Aggregates are computed when the cursor opens, one row per bucket
 * that has elements; a chunk inside the window whose first and last elements
 * fall in one bucket is folded from its stored summary without decoding.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/ts/ts_int.h"

static const char *const agg_names[TS_NAGG] = {"min",   "max",   "avg", "sum",
                                               "count", "first", "last"};

const char *ixts_agg_name(int id) {
    return id >= 0 && id < TS_NAGG ? agg_names[id] : "?";
}

int ixts_agg_parse(const char *s, int *ids) {
    int n = 0;
    while (s && *s) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s) break;
        size_t l = strcspn(s, ", ");
        int id = -1;
        for (int k = 0; k < TS_NAGG; k++)
            if (strlen(agg_names[k]) == l && !strncasecmp(s, agg_names[k], l)) id = k;
        if (id < 0 || n >= TS_NAGG) return -1;
        for (int k = 0; k < n; k++)
            if (ids[k] == id) return -1;
        ids[n++] = id;
        s += l;
    }
    return n ? n : -1;
}

/* ---- the virtual tables ---------------------------------------------------------------- */

typedef struct tvtab {
    sqlite3_vtab base;
    ts_conn *c;
    int agg;   /* _ixd_ts_agg */
    int nval;  /* value columns */
    int nargs; /* hidden argument columns */
} tvtab;

/* One metric's aggregate state in one bucket. */
typedef struct acc {
    int64_t count;
    double sum;
    ts_val min, max, first, last;
} acc;

typedef struct tcur {
    sqlite3_vtab_cursor base;
    ts_series s;
    ts_iter it;
    int open, eof;
    sqlite3_int64 rowid;
    /* aggregates: nb buckets of nm accumulators each */
    int64_t bucket_us;
    int nm;
    int64_t *bk; /* bucket numbers */
    acc *accs;
    size_t nb, capb, at;
} tcur;

static int t_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **err) {
    const ts_vtkind *kind = aux;
    int agg = kind->agg;
    (void)argc;
    (void)argv;
    (void)err;
    tvtab *v = calloc(1, sizeof *v);
    if (!v) return SQLITE_NOMEM;
    v->c = kind->c;
    v->agg = agg;
    v->nval = agg ? TS_AGG_COLS : TS_ROWS_COLS;
    v->nargs = agg ? 7 : 5;
    sb d = {0};
    ixv_sb_add(&d, "CREATE TABLE x(");
    for (int k = 0; k < v->nval; k++)
        ixv_sb_printf(&d, "c%d,", k);
    ixv_sb_add(&d, "tab HIDDEN, col HIDDEN, key HIDDEN, lo HIDDEN, hi HIDDEN");
    if (agg) ixv_sb_add(&d, ", bucket HIDDEN, aggs HIDDEN");
    ixv_sb_addc(&d, ')');
    int rc = d.oom ? SQLITE_NOMEM : sqlite3_declare_vtab(db, d.p);
    ixv_sb_free(&d);
    if (rc != SQLITE_OK) {
        free(v);
        return rc;
    }
    *out = &v->base;
    return SQLITE_OK;
}

static int t_disconnect(sqlite3_vtab *v) {
    free(v);
    return SQLITE_OK;
}

/* Every argument must be given (as table-function arguments are). */
static int t_best(sqlite3_vtab *vt, sqlite3_index_info *ii) {
    tvtab *v = (tvtab *)vt;
    int seen = 0;
    for (int k = 0; k < ii->nConstraint; k++) {
        const struct sqlite3_index_constraint *c = &ii->aConstraint[k];
        int a = c->iColumn - v->nval;
        if (a < 0 || a >= v->nargs) continue;
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ) return SQLITE_CONSTRAINT;
        ii->aConstraintUsage[k].argvIndex = a + 1;
        ii->aConstraintUsage[k].omit = 1;
        seen |= 1 << a;
    }
    if (seen != (1 << v->nargs) - 1) return SQLITE_CONSTRAINT;
    ii->estimatedCost = 1000;
    ii->estimatedRows = 1000;
    return SQLITE_OK;
}

static int t_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out) {
    (void)vt;
    tcur *c = calloc(1, sizeof *c);
    if (!c) return SQLITE_NOMEM;
    c->eof = 1;
    *out = &c->base;
    return SQLITE_OK;
}

static void cur_reset(tcur *c) {
    if (c->open) ixts_iter_close(&c->it);
    c->open = 0;
    free(c->bk);
    free(c->accs);
    c->bk = NULL;
    c->accs = NULL;
    c->nb = c->capb = c->at = 0;
}

static int t_close(sqlite3_vtab_cursor *cur) {
    cur_reset((tcur *)cur);
    free(cur);
    return SQLITE_OK;
}

static int fail(tcur *c, const ixv_err *e) {
    if (!e->sqlcode) { /* SQLite's own failure, its message for the engine */
        sqlite3_vtab *vt = c->base.pVtab;
        sqlite3_free(vt->zErrMsg);
        vt->zErrMsg = sqlite3_mprintf("%s", e->text);
    }
    return ixv_vtab_raise(e);
}

/* ---- aggregates -------------------------------------------------------------------------- */

static long double num(const ts_field *f, const ts_val *v) {
    switch (ixts_field_kind(f)) {
    case TS_K_INT: return (long double)v->i;
    case TS_K_DEC: return (long double)v->i / powl(10, v->scale);
    default: return v->d;
    }
}

/* The accumulators of bucket b (the buckets come in time order). */
static acc *bucket_acc(tcur *c, int64_t b) {
    if (c->nb && c->bk[c->nb - 1] == b) return &c->accs[(c->nb - 1) * (size_t)c->nm];
    if (c->nb == c->capb) {
        size_t nc = c->capb ? c->capb * 2 : 64;
        int64_t *nbk = realloc(c->bk, nc * sizeof *nbk);
        if (!nbk) return NULL;
        c->bk = nbk;
        acc *na = realloc(c->accs, nc * (size_t)c->nm * sizeof *na);
        if (!na) return NULL;
        c->accs = na;
        c->capb = nc;
    }
    c->bk[c->nb] = b;
    acc *a = &c->accs[c->nb * (size_t)c->nm];
    memset(a, 0, (size_t)c->nm * sizeof *a);
    c->nb++;
    return a;
}

static void fold_val(const ts_field *f, acc *a, const ts_val *v) {
    if (v->null) return;
    int isf = ixts_field_kind(f) == TS_K_F64 || ixts_field_kind(f) == TS_K_F32;
    long double x = num(f, v);
    if (!a->count) a->first = *v;
    a->last = *v;
    a->sum += (double)x;
    if (!(isf && isnan(v->d))) {
        if (a->min.null || !a->count || x < num(f, &a->min)) a->min = *v;
        if (a->max.null || !a->count || x > num(f, &a->max)) a->max = *v;
    }
    a->count++;
}

static void fold_summ(const ts_field *f, acc *a, const ts_msum *m) {
    if (!m->count) return;
    if (!a->count) a->first = m->first;
    a->last = m->last;
    a->sum += m->sum;
    if (!m->min.null && (!a->count || num(f, &m->min) < num(f, &a->min))) a->min = m->min;
    if (!m->max.null && (!a->count || num(f, &m->max) > num(f, &a->max))) a->max = m->max;
    a->count += m->count;
}

static int64_t bucket_of(const tcur *c, int64_t t) {
    int64_t d = ts_time_of(&c->s, t) - c->s.origin;
    return d >= 0 ? d / c->bucket_us : -((-d + c->bucket_us - 1) / c->bucket_us);
}

static int fold_elem(tcur *c) {
    acc *a = bucket_acc(c, bucket_of(c, c->it.cur_t));
    if (!a) return -1;
    for (int m = 0; m < c->nm; m++) {
        ts_val v;
        ixts_iter_val(&c->it, m, &v);
        fold_val(&c->s.rt.f[m + 1], &a[m], &v);
    }
    return 0;
}

static int aggregate(tcur *c, ixv_err *e) {
    ts_iter *it = &c->it;
    int r;
    while ((r = ixts_iter_next_chunk(it, e)) > 0) {
        /* a chunk without a summary (its own was dropped) is decoded */
        if (it->whole && it->summn && bucket_of(c, it->t0) == bucket_of(c, it->t1)) {
            acc *a = bucket_acc(c, bucket_of(c, it->t0));
            if (!a) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
            for (int m = 0; m < c->nm; m++) {
                ts_msum ms;
                if (ixts_summ_get(&c->s.rt, it->summ, it->summn, m, &ms))
                    return ixv_seterr(e, TS_E_ROUTINE, 0, 0,
                                      "A chunk summary of the series is damaged");
                fold_summ(&c->s.rt.f[m + 1], &a[m], &ms);
            }
            continue;
        }
        if (ixts_iter_decode(it, e)) return -1;
        for (; it->k < it->kend; it->k++) {
            it->cur_chunk = 1;
            it->cur_k = it->k;
            it->cur_t = it->dec->cols[0].i[it->k];
            if (fold_elem(c)) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
        }
    }
    if (r < 0) return -1;
    while ((r = ixts_iter_next(it, e)) > 0)
        if (fold_elem(c)) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    return r;
}

/* ---- cursor ------------------------------------------------------------------------------- */

static int t_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs, int argc,
                    sqlite3_value **argv) {
    (void)idx;
    (void)idxs;
    tcur *c = (tcur *)cur;
    tvtab *v = (tvtab *)cur->pVtab;
    ixv_err e = {0};
    cur_reset(c);
    c->eof = 1;
    c->rowid = 0;
    if (argc < v->nargs) {
        ixv_seterr(&e, TS_E_ROUTINE, 0, 0, "Missing arguments");
        return fail(c, &e);
    }
    int64_t lo, hi;
    if (ixts_args_series(v->c, argv, &c->s, &e) || ixts_args_window(&c->s, argv, 3, &lo, &hi, &e))
        return fail(c, &e);
    c->nm = c->s.rt.nf - 1;
    if (v->agg) {
        const char *b = (const char *)sqlite3_value_text(argv[5]);
        int ids[TS_NAGG];
        if (ixts_interval_parse(b ? b : "", b ? strlen(b) : 0, &c->bucket_us, &e))
            return fail(c, &e);
        if (ixts_agg_parse((const char *)sqlite3_value_text(argv[6]), ids) < 0) {
            ixv_seterr(&e, TS_E_ROUTINE, 0, 0,
                       "Bad aggregate list (min,max,avg,sum,count,first,last)");
            return fail(c, &e);
        }
    }
    if (ixts_iter_open(&c->it, v->c, &c->s, lo, hi, 0, &e)) {
        ixts_iter_close(&c->it);
        return fail(c, &e);
    }
    c->open = 1;
    if (v->agg) {
        int r = aggregate(c, &e);
        ixts_iter_close(&c->it);
        c->open = 0;
        if (r < 0) return fail(c, &e);
        c->at = 0;
        c->eof = c->nb == 0;
        return SQLITE_OK;
    }
    int r = ixts_iter_next(&c->it, &e);
    if (r < 0) return fail(c, &e);
    c->eof = r == 0;
    return SQLITE_OK;
}

static int t_next(sqlite3_vtab_cursor *cur) {
    tcur *c = (tcur *)cur;
    tvtab *v = (tvtab *)cur->pVtab;
    c->rowid++;
    if (v->agg) {
        c->eof = ++c->at >= c->nb;
        return SQLITE_OK;
    }
    ixv_err e = {0};
    int r = ixts_iter_next(&c->it, &e);
    if (r < 0) return fail(c, &e);
    c->eof = r == 0;
    return SQLITE_OK;
}

static int t_eof(sqlite3_vtab_cursor *cur) {
    return ((tcur *)cur)->eof;
}

static void result_time(const tcur *c, int64_t us, sqlite3_context *ctx) {
    char b[TS_TIME_TEXT];
    size_t n = ixts_time_format(us, ixts_rowtype_fdig(&c->s.rt), b);
    sqlite3_result_text(ctx, b, (int)n, SQLITE_TRANSIENT);
}

static void agg_column(const tcur *c, int i, sqlite3_context *ctx) {
    if (i == 0) {
        result_time(c, c->s.origin + c->bk[c->at] * c->bucket_us, ctx);
        return;
    }
    int m = (i - 1) / TS_NAGG, a = (i - 1) % TS_NAGG;
    if (m >= c->nm) return sqlite3_result_null(ctx);
    const acc *x = &c->accs[c->at * (size_t)c->nm + (size_t)m];
    const ts_field *f = &c->s.rt.f[m + 1];
    if (a == TS_AGG_COUNT) return sqlite3_result_int64(ctx, x->count);
    if (!x->count) return sqlite3_result_null(ctx);
    switch (a) {
    case TS_AGG_MIN: ixts_val_result(f, &x->min, ctx); break;
    case TS_AGG_MAX: ixts_val_result(f, &x->max, ctx); break;
    case TS_AGG_FIRST: ixts_val_result(f, &x->first, ctx); break;
    case TS_AGG_LAST: ixts_val_result(f, &x->last, ctx); break;
    case TS_AGG_SUM: sqlite3_result_double(ctx, x->sum); break;
    default: sqlite3_result_double(ctx, x->sum / (double)x->count); break;
    }
}

static int t_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
    tcur *c = (tcur *)cur;
    tvtab *v = (tvtab *)cur->pVtab;
    if (v->agg) {
        agg_column(c, i, ctx);
        return SQLITE_OK;
    }
    if (i == 0) {
        result_time(c, ts_time_of(&c->s, c->it.cur_t), ctx);
    } else if (i <= c->nm) {
        ts_val x;
        ixts_iter_val(&c->it, i - 1, &x);
        ixts_val_result(&c->s.rt.f[i], &x, ctx);
    } else
        sqlite3_result_null(ctx);
    return SQLITE_OK;
}

static int t_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *r) {
    *r = ((tcur *)cur)->rowid;
    return SQLITE_OK;
}

/* One module for both tables; its client data says which (ts_conn's
 * vt_rows / vt_agg). */
static sqlite3_module module = {
    .xConnect = t_connect,
    .xBestIndex = t_best,
    .xDisconnect = t_disconnect,
    .xOpen = t_open,
    .xClose = t_close,
    .xFilter = t_filter,
    .xNext = t_next,
    .xEof = t_eof,
    .xColumn = t_column,
    .xRowid = t_rowid,
};

int ixts_register_vtabs(ts_conn *c) {
    c->vt_rows = (ts_vtkind){c, 0};
    c->vt_agg = (ts_vtkind){c, 1};
    int rc = sqlite3_create_module(c->h, "_ixd_ts_rows", &module, &c->vt_rows);
    if (rc == SQLITE_OK) rc = sqlite3_create_module(c->h, "_ixd_ts_agg", &module, &c->vt_agg);
    return rc;
}
