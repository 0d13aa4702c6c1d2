/*
 * ts_store.c: series storage in the database file.
 *
 * Tables (made by ts_schema, ts_catalog.c):
 *   _ixd_ts_series(sid, tab, col, key, origin, step, n, nhead, hi, last, lastv)
 *       one row per series: its calendar (step 0 = irregular), element
 *       counts, the last t of the sealed chunks (hi) and of the series
 *       (last) with the packed last element (lastv: oni_ts_last in O(1)).
 *   _ixd_ts_chunk(sid, t0, t1, n, data, summ)   PRIMARY KEY (sid, t0)
 *       sealed chunks: ixts_chunk_encode blob of n elements t0..t1 and the
 *       per-metric summaries (ixts_summ_build). Chunks of a series never
 *       overlap in time.
 *   _ixd_ts_head(sid, t, v)   PRIMARY KEY (sid, t), WITHOUT ROWID
 *       the open head: elements after hi, uncompressed (ixts_elem_pack).
 *
 * Writes: elements after hi go to the head; when the head reaches
 * TS_CHUNK_MAX elements, TS_CHUNK_MAX of them are sealed into a chunk. A
 * batch that brings at least TS_SEAL_MIN elements past the full chunks
 * seals them too (a bulk load leaves no head behind). An element at or
 * before hi (late, out of order) is merged into the one chunk whose time
 * range it falls in (from its t0 to the next chunk's t0), which is rewritten
 * (split in two when it grows beyond TS_CHUNK_MAX). Everything runs in the
 * caller's transaction, so a crash or a ROLLBACK never leaves part of it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/ts/ts_int.h"

#define TS_SEAL_MIN 256

#define HEAD_GET_SQL                                                                               \
    "SELECT t, v FROM _ixd_ts_head WHERE sid = ?1 AND t BETWEEN ?2 AND ?3 ORDER BY t"
#define CHUNK_WIN_SQL                                                                              \
    "SELECT t0, t1, n, data, summ FROM _ixd_ts_chunk WHERE sid = ?1 AND "                          \
    "t0 >= coalesce((SELECT max(t0) FROM _ixd_ts_chunk WHERE sid = ?1 AND "                        \
    "t0 <= ?2), ?2) AND t0 <= ?3 ORDER BY t0"

static const char *const qsql[TS_NQ] = {
    [TS_Q_SERIES] = "SELECT s.sid, s.origin, s.step, s.n, s.nhead, s.hi, s.last, c.rowtype "
                    "FROM _ixd_ts_series s JOIN _ixd_ts_columns c ON c.tab = s.tab AND "
                    "c.col = s.col WHERE s.tab = ?1 AND s.col = ?2 AND s.key = ?3",
    [TS_Q_SERIES_SET] = "UPDATE _ixd_ts_series SET n = ?2, nhead = ?3, hi = ?4, last = ?5, "
                        "lastv = ?6 WHERE sid = ?1",
    [TS_Q_HEAD_INS] = "INSERT INTO _ixd_ts_head(sid, t, v) VALUES(?1, ?2, ?3)",
    [TS_Q_HEAD_UPD] = "UPDATE _ixd_ts_head SET v = ?3 WHERE sid = ?1 AND t = ?2",
    [TS_Q_HEAD_GET] = HEAD_GET_SQL,
    [TS_Q_HEAD_DEL] = "DELETE FROM _ixd_ts_head WHERE sid = ?1 AND t BETWEEN ?2 AND ?3",
    [TS_Q_CHUNK_INS] = "INSERT INTO _ixd_ts_chunk(sid, t0, t1, n, data) "
                       "VALUES(?1, ?2, ?3, ?4, ?5)",
    [TS_Q_CHUNK_AT] = "SELECT rowid, t0, t1, n, data FROM _ixd_ts_chunk WHERE sid = ?1 AND "
                      "t0 <= ?2 ORDER BY t0 DESC LIMIT 1",
    [TS_Q_CHUNK_NEXT] = "SELECT rowid, t0, t1, n, data FROM _ixd_ts_chunk WHERE sid = ?1 AND "
                        "t0 > ?2 ORDER BY t0 LIMIT 1",
    [TS_Q_CHUNK_WIN] = CHUNK_WIN_SQL,
    [TS_Q_ITER_CHUNK] = CHUNK_WIN_SQL,
    [TS_Q_ITER_HEAD] = HEAD_GET_SQL,
    [TS_Q_CHUNK_DEL] = "DELETE FROM _ixd_ts_chunk WHERE rowid = ?1",
    [TS_Q_CHUNK_UPD] = "UPDATE _ixd_ts_chunk SET t0 = ?2, t1 = ?3, n = ?4, data = ?5, summ = NULL "
                       "WHERE rowid = ?1",
    [TS_Q_SUMM_PUT] = "INSERT OR REPLACE INTO _ixd_ts_summ(sid, t0, summ) VALUES(?1, ?2, ?3)",
    [TS_Q_COLUMN] = "SELECT c.rowtype, c.keycol, c.keytype, r.fields FROM _ixd_ts_columns c "
                    "LEFT JOIN _ixd_rowtypes r ON r.name = c.rowtype WHERE c.tab = ?1 AND "
                    "c.col = ?2",
    [TS_Q_LASTV] = "SELECT lastv FROM _ixd_ts_series WHERE sid = ?1",
    [TS_Q_SAVE] = "SAVEPOINT _ixd_ts",
    [TS_Q_RELEASE] = "RELEASE _ixd_ts",
    [TS_Q_ROLLBACK] = "ROLLBACK TO _ixd_ts",
};

/* TS_Q_CHUNK_WIN with the summaries of the summaries' table (a chunk
 * written before it has its own) */
#define CHUNK_WIN_SUMM_SQL                                                                         \
    "SELECT c.t0, c.t1, c.n, c.data, coalesce(c.summ, (SELECT s.summ FROM _ixd_ts_summ s WHERE "   \
    "s.sid = c.sid AND s.t0 = c.t0)) FROM _ixd_ts_chunk c WHERE c.sid = ?1 AND "                   \
    "c.t0 >= coalesce((SELECT max(t0) FROM _ixd_ts_chunk WHERE sid = ?1 AND "                      \
    "t0 <= ?2), ?2) AND c.t0 <= ?3 ORDER BY c.t0"

/* The variant of q's SQL for c's database: 1 the summaries' table, 0 the
 * summaries in the chunks (a file made before that table, not yet written
 * to); -1 error. */
static int q_variant(ts_conn *c, int q, ixv_err *e) {
    if (q != TS_Q_CHUNK_WIN && q != TS_Q_ITER_CHUNK) return 0;
    return ixts_summ_table(c, 0, e);
}

const char *ixts_q_sql(ts_conn *c, int q, ixv_err *e) {
    int v = q_variant(c, q, e);
    if (v < 0) return NULL;
    return v ? CHUNK_WIN_SUMM_SQL : qsql[q];
}

sqlite3_stmt *ixts_q(ts_conn *c, int q, ixv_err *e) {
    int v = q_variant(c, q, e);
    if (v < 0) return NULL;
    if (c->q[q] && c->qv[q] != v) { /* the summaries' table came */
        sqlite3_finalize(c->q[q]);
        c->q[q] = NULL;
    }
    if (!c->q[q]) {
        c->qv[q] = (uint8_t)v;
        int rc = sqlite3_prepare_v3(c->h, v ? CHUNK_WIN_SUMM_SQL : qsql[q], -1,
                                    SQLITE_PREPARE_PERSISTENT, &c->q[q], NULL);
        if (rc != SQLITE_OK) {
            c->q[q] = NULL;
            /* no TimeSeries tables yet: nothing was ever made here */
            ixts_sqlerr(c, rc, e);
            return NULL;
        }
    } else {
        sqlite3_reset(c->q[q]);
        sqlite3_clear_bindings(c->q[q]);
    }
    return c->q[q];
}

/* 1 when the database has the tables the queries above read (made with its
 * first TIMESERIES column, ts_catalog.c), 0 when one is missing, -1 when the
 * schema cannot be read. */
static int ts_tables_exist(sqlite3 *h) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h,
                           "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                           "('_ixd_ts_columns', '_ixd_ts_series', '_ixd_ts_chunk', "
                           "'_ixd_ts_head', '_ixd_rowtypes')",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int r = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) == 5 : -1;
    sqlite3_finalize(st);
    return r;
}

int ixts_sqlerr(ts_conn *c, int rc, ixv_err *e) {
    if (rc == SQLITE_NOMEM) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    /* the engine maps SQLite's own failures (locks, full disk): see ts_sql.c */
    ixv_seterr_sqlite(e, rc, sqlite3_errmsg(c->h));
    if ((rc & 0xff) == SQLITE_ERROR && ts_tables_exist(c->h) == 0)
        return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "No TIMESERIES column exists in this database");
    return -1;
}

/* Steps a statement that returns no row. */
static int step_done(ts_conn *c, sqlite3_stmt *st, ixv_err *e) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : ixts_sqlerr(c, rc, e);
}

/* ---- row types and columns ------------------------------------------------------ */

/* A decimal number at *s (advanced); -1 when there is none. */
static int64_t field_num(const char **s) {
    int64_t v = 0;
    const char *p = *s;
    if (*p < '0' || *p > '9') return -1;
    while (*p >= '0' && *p <= '9' && v < (1LL << 40))
        v = v * 10 + (*p++ - '0');
    *s = p;
    return v;
}

/* Row type fields as stored (ts_rowtype_create): "name code len;...". Read
 * on every routine call, so by hand. */
static int fields_parse(const char *s, ts_rowtype *rt) {
    rt->nf = 0;
    while (s && *s) {
        if (rt->nf > TS_MAX_METRICS) return -1;
        ts_field *f = &rt->f[rt->nf];
        size_t l = strcspn(s, " ");
        if (!l || l > TS_NAME_MAX || s[l] != ' ') return -1;
        memcpy(f->name, s, l);
        f->name[l] = 0;
        s += l + 1;
        int64_t code = field_num(&s), len = (*s == ' ' ? (s++, field_num(&s)) : -1);
        if (code < 0 || len < 0 || len > UINT32_MAX || (*s && *s != ';')) return -1;
        f->code = (int)code;
        f->len = (uint32_t)len;
        rt->nf++;
        if (*s == ';') s++;
    }
    return rt->nf >= 2 ? 0 : -1;
}

int ixts_rowtype_load(sqlite3 *h, const char *name, ts_rowtype *out) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, "SELECT fields FROM _ixd_rowtypes WHERE name = ?1", -1, &st, NULL))
        return 0; /* no row types here */
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        snprintf(out->name, sizeof out->name, "%s", name);
        found = fields_parse((const char *)sqlite3_column_text(st, 0), out) == 0 ? 1 : -1;
    } else if (rc != SQLITE_DONE)
        found = -1;
    sqlite3_finalize(st);
    return found;
}

int ixts_column_open(ts_conn *c, const char *tab, const char *col, ts_rowtype *rt, char *keycol,
                     int *keycode, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, TS_Q_COLUMN, e);
    if (!st) return -1;
    sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) return ixts_sqlerr(c, rc, e);
        return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "%s.%s is not a TIMESERIES column", tab, col);
    }
    char rtname[TS_NAME_MAX + 1];
    snprintf(rtname, sizeof rtname, "%s", (const char *)sqlite3_column_text(st, 0));
    if (keycol) snprintf(keycol, TS_NAME_MAX + 1, "%s", (const char *)sqlite3_column_text(st, 1));
    if (keycode) *keycode = sqlite3_column_int(st, 2);
    int ok = fields_parse((const char *)sqlite3_column_text(st, 3), rt) == 0;
    sqlite3_reset(st);
    if (!ok)
        return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Row type %s of %s.%s is missing", rtname, tab,
                          col);
    snprintf(rt->name, sizeof rt->name, "%s", rtname);
    return 0;
}

int ixts_key_convert(sqlite3_value *x, int keycode, sval *out, ixv_err *e) {
    memset(out, 0, sizeof *out);
    int vt = sqlite3_value_type(x);
    if (vt == SQLITE_NULL) return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "The series key is NULL");
    if (vt == SQLITE_INTEGER && ixv_is_int(keycode)) {
        out->kind = SQLITE_INTEGER;
        out->i = sqlite3_value_int64(x);
        return 0;
    }
    if (vt == SQLITE_BLOB) {
        ixv_sval_from_sqlite(out, x);
        return 0;
    }
    const char *s = (const char *)sqlite3_value_text(x);
    int n = sqlite3_value_bytes(x);
    int rc = ixv_text_to_sval(ixv_t_default(keycode), s ? s : "", (size_t)n, out);
    if (rc < 0) return ixv_seterr(e, rc, 0, 0, NULL);
    return 0;
}

int ixts_series_lookup(ts_conn *c, const char *tab, const char *col, const ts_rowtype *rt,
                       const sval *key, ts_series *s, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, TS_Q_SERIES, e);
    if (!st) return -1;
    sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    ixv_sval_bind_static(key, st, 3);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        memset(s, 0, offsetof(ts_series, rt));
        s->sid = sqlite3_column_int64(st, 0);
        s->origin = sqlite3_column_int64(st, 1);
        s->step = sqlite3_column_int64(st, 2);
        s->n = sqlite3_column_int64(st, 3);
        s->nhead = sqlite3_column_int64(st, 4);
        s->hi =
            sqlite3_column_type(st, 5) == SQLITE_NULL ? TS_NO_TIME : sqlite3_column_int64(st, 5);
        s->last =
            sqlite3_column_type(st, 6) == SQLITE_NULL ? TS_NO_TIME : sqlite3_column_int64(st, 6);
        snprintf(s->tab, sizeof s->tab, "%s", tab);
        snprintf(s->col, sizeof s->col, "%s", col);
        if (&s->rt != rt) memcpy(&s->rt, rt, sizeof *rt);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_ROW) return 1;
    return rc == SQLITE_DONE ? 0 : ixts_sqlerr(c, rc, e);
}

int ixts_series_open(ts_conn *c, const char *tab, const char *col, sqlite3_value *key, ts_series *s,
                     ixv_err *e) {
    int keycode;
    if (ixts_column_open(c, tab, col, &s->rt, NULL, &keycode, e)) return -1;
    sval k;
    if (ixts_key_convert(key, keycode, &k, e)) return -1;
    int r = ixts_series_lookup(c, tab, col, &s->rt, &k, s, e);
    ixv_sval_free(&k);
    return r;
}

int ixts_slot(const ts_series *s, int64_t us, int64_t *t, ixv_err *e) {
    if (!s->step) {
        *t = us;
        return 0;
    }
    if (us < s->origin) {
        char b[TS_TIME_TEXT], o[TS_TIME_TEXT];
        ixts_time_format(us, 5, b);
        ixts_time_format(s->origin, 5, o);
        return ixv_seterr(e, TS_E_ROUTINE, 0, 0,
                          "Timestamp %s is before the origin %s of the series", b, o);
    }
    *t = (us - s->origin) / s->step;
    return 0;
}

/* ---- chunks ------------------------------------------------------------------------ */

/* Column arrays of a run of elements, for the encoder. */
typedef struct colset {
    ts_colv cols[TS_MAX_COLS];
    int64_t *ibuf;
    double *dbuf;
    uint8_t *nbuf;
} colset;

static void colset_free(colset *cs) {
    free(cs->ibuf);
    free(cs->dbuf);
    free(cs->nbuf);
}

/* One metric column of els[from..from+n): values, NULL flags, and for
 * DECIMAL the mantissas at the largest scale of the run. */
static int colset_metric(ts_colv *cv, const ts_els *els, size_t from, uint32_t n, int m, int kind,
                         ixv_err *e) {
    int anynull = 0, scale = 0;
    for (uint32_t k = 0; k < n; k++) {
        const ts_val *v = &ts_at(els, from + k)->v[m - 1];
        cv->null[k] = v->null;
        anynull |= v->null;
        if (!v->null && v->scale > scale) scale = v->scale;
    }
    if (!anynull) cv->null = NULL;
    cv->kind = kind;
    cv->scale = scale;
    for (uint32_t k = 0; k < n; k++) {
        const ts_val *v = &ts_at(els, from + k)->v[m - 1];
        cv->i[k] = 0;
        cv->d[k] = 0;
        if (v->null) continue;
        if (kind == TS_K_F64 || kind == TS_K_F32) {
            cv->d[k] = v->d;
            continue;
        }
        int64_t x = v->i;
        for (int sc = v->scale; kind == TS_K_DEC && sc < scale; sc++) {
            if (x > INT64_MAX / 10 || x < INT64_MIN / 10)
                return ixv_seterr(e, TS_E_DEC_PREC, 0, 0, NULL);
            x *= 10;
        }
        cv->i[k] = x;
    }
    return 0;
}

static int colset_fill(colset *cs, const ts_rowtype *rt, const ts_els *els, size_t from, uint32_t n,
                       ixv_err *e) {
    size_t need = (size_t)n * (size_t)rt->nf;
    cs->ibuf = malloc(need * sizeof(int64_t));
    cs->dbuf = malloc(need * sizeof(double));
    cs->nbuf = malloc(need);
    if (!cs->ibuf || !cs->dbuf || !cs->nbuf) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    ts_colv *tc = &cs->cols[0];
    memset(tc, 0, sizeof *tc);
    tc->kind = TS_K_INT;
    tc->i = cs->ibuf;
    for (uint32_t k = 0; k < n; k++)
        tc->i[k] = ts_at(els, from + k)->t;
    for (int m = 1; m < rt->nf; m++) {
        ts_colv *cv = &cs->cols[m];
        memset(cv, 0, sizeof *cv);
        cv->i = cs->ibuf + (size_t)m * n;
        cv->d = cs->dbuf + (size_t)m * n;
        cv->null = cs->nbuf + (size_t)m * n;
        if (colset_metric(cv, els, from, n, m, ixts_field_kind(&rt->f[m]), e)) return -1;
    }
    return 0;
}

/* Inserts the chunk of els[from..from+n), or rewrites chunk rowid when
 * rowid > 0. */
static int chunk_put(ts_conn *c, ts_series *s, int64_t rowid, const ts_els *els, size_t from,
                     uint32_t n, ixv_err *e) {
    ixb_wbuf data, summ;
    ixb_wbuf_init(&data, NULL);
    ixb_wbuf_init(&summ, NULL);
    colset cs;
    memset(&cs, 0, sizeof cs);
    int rc = colset_fill(&cs, &s->rt, els, from, n, e);
    if (!rc && ixts_chunk_encode(n, s->rt.nf, cs.cols, &data) != TS_OK)
        rc = ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    if (!rc) {
        ixts_summ_build(&s->rt, n, cs.cols, &summ);
        if (summ.err) rc = ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    }
    colset_free(&cs);
    ixts_cache_drop(c); /* a chunk changes */
    if (!rc && ixts_summ_table(c, 1, e) < 0) rc = -1;
    sqlite3_stmt *st = rc ? NULL : ixts_q(c, rowid > 0 ? TS_Q_CHUNK_UPD : TS_Q_CHUNK_INS, e);
    if (!rc && !st) rc = -1;
    /* (read only when the chunk is written: n >= 1 then) */
    int64_t t0 = rc ? 0 : ts_at(els, from)->t, t1 = rc ? 0 : ts_at(els, from + n - 1)->t;
    if (!rc) {
        sqlite3_bind_int64(st, 1, rowid > 0 ? rowid : s->sid);
        sqlite3_bind_int64(st, 2, t0);
        sqlite3_bind_int64(st, 3, t1);
        sqlite3_bind_int64(st, 4, n);
        sqlite3_bind_blob(st, 5, data.data, (int)data.len, SQLITE_STATIC);
        rc = step_done(c, st, e);
    }
    /* the summary after its chunk: a rewrite that moved t0 dropped the old
     * one (trigger _ixd_ts_chunk_t0) */
    st = rc ? NULL : ixts_q(c, TS_Q_SUMM_PUT, e);
    if (!rc && !st) rc = -1;
    if (!rc) {
        sqlite3_bind_int64(st, 1, s->sid);
        sqlite3_bind_int64(st, 2, t0);
        sqlite3_bind_blob(st, 3, summ.data, (int)summ.len, SQLITE_STATIC);
        rc = step_done(c, st, e);
        if (!rc && (s->hi == TS_NO_TIME || t1 > s->hi)) s->hi = t1;
    }
    ixb_wbuf_free(&data);
    ixb_wbuf_free(&summ);
    return rc;
}

/* Decodes a chunk blob and appends its elements to out. */
static int chunk_elems(ts_conn *c, const ts_rowtype *rt, const uint8_t *p, size_t len, ts_els *out,
                       ixv_err *e) {
    int kinds[TS_MAX_COLS];
    kinds[0] = TS_K_INT;
    for (int m = 1; m < rt->nf; m++)
        kinds[m] = ixts_field_kind(&rt->f[m]);
    int rc = ixts_chunk_decode(&c->dec, p, len, rt->nf, kinds, ~0ull);
    if (rc == TS_ENOMEM) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    if (rc != TS_OK) return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "A chunk of the series is damaged");
    uint32_t k = c->dec.n;
    if (ixts_els_reserve(out, out->n + k)) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    for (uint32_t j = 0; j < k; j++) {
        ts_elem *el = ts_at(out, out->n + j);
        el->t = c->dec.cols[0].i[j];
        for (int m = 1; m < rt->nf; m++) {
            const ts_colv *cv = &c->dec.cols[m];
            ts_val *v = &el->v[m - 1];
            v->null = cv->null ? cv->null[j] : 0;
            v->i = cv->i ? cv->i[j] : 0;
            v->d = cv->d ? cv->d[j] : 0;
            v->scale = cv->kind == TS_K_DEC ? (int8_t)cv->scale : 0;
        }
    }
    out->n += k;
    return 0;
}

/* ---- writes -------------------------------------------------------------------------- */

static int series_save(ts_conn *c, ts_series *s, const ts_elem *last, ixv_err *e);

/* Sorts els by t (stable: of equal times the one written last stays) and
 * removes duplicates; *dupfound tells whether there were any. */
static int sort_dedupe(ts_els *els, int *dupfound, ixv_err *e) {
    size_t n = els->n, sz = els->sz;
    int sorted = 1;
    for (size_t k = 1; k < n && sorted; k++)
        sorted = ts_at(els, k - 1)->t < ts_at(els, k)->t;
    if (sorted) return 0;
    size_t *idx = malloc(n * sizeof *idx), *aux = malloc(n * sizeof *aux);
    uint8_t *tmp = malloc(n * sz);
    if (!idx || !aux || !tmp) {
        free(idx);
        free(aux);
        free(tmp);
        return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    }
    for (size_t k = 0; k < n; k++)
        idx[k] = k;
    for (size_t w = 1; w < n; w *= 2) { /* bottom-up merge sort of indices */
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                aux[o++] = ts_at(els, idx[b])->t < ts_at(els, idx[a])->t ? idx[b++] : idx[a++];
            while (a < mid)
                aux[o++] = idx[a++];
            while (b < hi)
                aux[o++] = idx[b++];
        }
        memcpy(idx, aux, n * sizeof *idx);
    }
    size_t o = 0;
    for (size_t k = 0; k < n; k++) {
        const ts_elem *src = ts_at(els, idx[k]);
        if (o && ((const ts_elem *)(void *)(tmp + (o - 1) * sz))->t == src->t) {
            *dupfound = 1;
            memcpy(tmp + (o - 1) * sz, src, sz); /* the later one wins */
        } else
            memcpy(tmp + o++ * sz, src, sz);
    }
    free(idx);
    free(aux);
    free(els->p);
    els->p = tmp;
    els->n = o;
    els->cap = n;
    return 0;
}

/* Merges sorted b[from..to) into sorted *a: equal times replace (or fail
 * with dup error); *added counts the elements that are new. */
static int merge_into(ts_els *a, const ts_els *b, size_t from, size_t to, int dup, int64_t *added,
                      ixv_err *e) {
    size_t n = a->n, nb = to - from, sz = a->sz;
    ts_els out;
    out.sz = sz;
    out.n = 0;
    out.cap = 0;
    out.p = NULL;
    if (ixts_els_reserve(&out, n + nb ? n + nb : 1)) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    size_t i = 0, j = from;
    while (i < n || j < to) {
        const ts_elem *x = i < n ? ts_at(a, i) : NULL, *y = j < to ? ts_at(b, j) : NULL;
        const ts_elem *pick;
        if (!y || (x && x->t < y->t))
            pick = x, i++;
        else if (!x || y->t < x->t)
            pick = y, j++, (*added)++;
        else {
            if (dup == TS_DUP_ERROR) {
                ixts_els_free(&out);
                return ixv_seterr(e, TS_E_UNIQUE, 0, 0, "timestamp");
            }
            pick = y, i++, j++;
        }
        memcpy(ts_at(&out, out.n++), pick, sz);
    }
    ixts_els_free(a);
    *a = out;
    return 0;
}

/* Reads the chunk found by query q at t: 1 with its rowid, t0 and elements
 * (replacing els' content), 0 none. */
static int chunk_load(ts_conn *c, ts_series *s, int q, int64_t t, int64_t *rowid, int64_t *t0,
                      ts_els *els, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, q, e);
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, t);
    int rc = sqlite3_step(st);
    els->n = 0;
    if (rc != SQLITE_ROW) {
        sqlite3_reset(st);
        return rc == SQLITE_DONE ? 0 : ixts_sqlerr(c, rc, e);
    }
    *rowid = sqlite3_column_int64(st, 0);
    *t0 = sqlite3_column_int64(st, 1);
    const uint8_t *p = sqlite3_column_blob(st, 4);
    size_t len = (size_t)sqlite3_column_bytes(st, 4);
    rc = chunk_elems(c, &s->rt, p, len, els, e);
    sqlite3_reset(st);
    return rc ? -1 : 1;
}

/* The t0 of the first chunk after t (INT64_MAX when none). */
static int next_t0(ts_conn *c, ts_series *s, int64_t t, int64_t *t0, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, TS_Q_CHUNK_NEXT, e);
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, t);
    int rc = sqlite3_step(st);
    *t0 = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : INT64_MAX;
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : ixts_sqlerr(c, rc, e);
}

/* Slots per aligned block of a regular series: a chunk never spans two
 * blocks, so that buckets of a natural period (a day of one-minute data, an
 * hour of one-second data) are answered from chunk summaries. The block is
 * the longest of week, day, hour, minute, second that is a whole number of
 * steps and at most TS_CHUNK_MAX of them, repeated while it stays under
 * TS_CHUNK_MAX when it is short. 0 = no alignment (irregular series, or no
 * such period). */
static int64_t block_slots(const ts_series *s) {
    static const int64_t periods[] = {7 * 86400000000LL, 86400000000LL, 3600000000LL, 60000000LL,
                                      1000000LL};
    if (!s->step) return 0;
    for (size_t k = 0; k < sizeof periods / sizeof periods[0]; k++) {
        if (periods[k] % s->step) continue;
        int64_t b = periods[k] / s->step;
        if (b > TS_CHUNK_MAX) continue;
        if (b < TS_SEAL_MIN) b *= TS_CHUNK_MAX / b;
        return b;
    }
    return 0;
}

/* The block of t (t / b rounded down), for b > 0. */
static int64_t block_of(int64_t t, int64_t b) {
    return t >= 0 ? t / b : -((-t + b - 1) / b);
}

/* The end (exclusive) of t's block, INT64_MAX without blocks. */
static int64_t block_end(int64_t t, int64_t b) {
    return b ? (block_of(t, b) + 1) * b : INT64_MAX;
}

/* Writes the late elements els[0..n) (sorted, all t <= s->hi). A run of
 * them inside one chunk's range [t0, t1] rewrites that chunk. A run in a
 * gap joins the chunk before the gap when that one is in the same block
 * and has room, else the chunk after it when that one is in the same block,
 * else it becomes a chunk of its own: a chunk never spans two blocks. */
static int write_late(ts_conn *c, ts_series *s, const ts_els *els, size_t n, int dup,
                      int64_t *added, ixv_err *e) {
    ts_els cur;
    ixts_els_init(&cur, s->rt.nf);
    int64_t b = block_slots(s);
    int rc = 0;
    for (size_t k = 0; k < n && !rc;) {
        int64_t rowid = 0, t0 = 0, nt0, end;
        int64_t t = ts_at(els, k)->t;
        int found = chunk_load(c, s, TS_Q_CHUNK_AT, t, &rowid, &t0, &cur, e);
        if (found < 0 || next_t0(c, s, found ? t0 : t, &nt0, e)) {
            rc = -1;
            break;
        }
        int64_t t1 = found ? ts_at(&cur, cur.n - 1)->t : TS_NO_TIME;
        if (found && t > t1 &&
            (cur.n >= TS_CHUNK_MAX || (b && block_of(t1, b) != block_of(t, b)))) {
            /* in a gap after a full chunk or one of another block */
            found = 0;
            if (nt0 != INT64_MAX && (!b || block_of(nt0, b) == block_of(t, b))) {
                int64_t dummy;
                found = chunk_load(c, s, TS_Q_CHUNK_AT, nt0, &rowid, &t0, &cur, e);
                if (found < 0 || next_t0(c, s, t0, &dummy, e)) {
                    rc = -1;
                    break;
                }
                end = dummy;
            } else {
                cur.n = 0;
                rowid = 0;
                end = nt0;
            }
        } else if (!found) {
            /* before the first chunk: it joins that chunk */
            found = chunk_load(c, s, TS_Q_CHUNK_NEXT, t, &rowid, &t0, &cur, e);
            if (found <= 0 || next_t0(c, s, t0, &end, e)) {
                rc = found < 0
                         ? -1
                         : ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Series storage is inconsistent");
                break;
            }
        } else
            end = nt0;
        int64_t bend = block_end(t, b);
        if (bend < end) end = bend;
        size_t j = k;
        while (j < n && ts_at(els, j)->t < end)
            j++;
        if (j == k) j = k + 1; /* the element itself (its block begins before t0) */
        rc = merge_into(&cur, els, k, j, dup, added, e);
        /* rewrite: one chunk, or two when it outgrew TS_CHUNK_MAX */
        uint32_t first = cur.n > TS_CHUNK_MAX ? (uint32_t)(cur.n / 2) : (uint32_t)cur.n;
        if (!rc) rc = chunk_put(c, s, rowid, &cur, 0, first, e);
        if (!rc && first < cur.n)
            rc = chunk_put(c, s, 0, &cur, first, (uint32_t)(cur.n - first), e);
        k = j;
    }
    ixts_els_free(&cur);
    return rc;
}

/* Loads the head elements of [lo, hi] into els (appended). */
static int head_load(ts_conn *c, ts_series *s, int64_t lo, int64_t hi, ts_els *els, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, TS_Q_HEAD_GET, e);
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, lo);
    sqlite3_bind_int64(st, 3, hi);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        ts_elem *el = ixts_els_push(els);
        if (!el) {
            sqlite3_reset(st);
            return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
        }
        el->t = sqlite3_column_int64(st, 0);
        if (ixts_elem_unpack(&s->rt, sqlite3_column_blob(st, 1),
                             (size_t)sqlite3_column_bytes(st, 1), el)) {
            sqlite3_reset(st);
            return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "A head element of the series is damaged");
        }
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : ixts_sqlerr(c, rc, e);
}

static int head_delete(ts_conn *c, ts_series *s, int64_t lo, int64_t hi, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, TS_Q_HEAD_DEL, e);
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, lo);
    sqlite3_bind_int64(st, 3, hi);
    return step_done(c, st, e);
}

/* Puts one element into the head: 1 new, 0 replaced, -1 error. */
static int head_put(ts_conn *c, ts_series *s, const ts_elem *el, int dup, ixv_err *e) {
    uint8_t buf[TS_PACK_MAX];
    size_t n = ixts_elem_pack(&s->rt, el, buf);
    sqlite3_stmt *st = ixts_q(c, TS_Q_HEAD_INS, e);
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, el->t);
    sqlite3_bind_blob(st, 3, buf, (int)n, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) return 1;
    if ((rc & 0xff) != SQLITE_CONSTRAINT) return ixts_sqlerr(c, rc, e);
    if (dup == TS_DUP_ERROR) return ixv_seterr(e, TS_E_UNIQUE, 0, 0, "timestamp");
    st = ixts_q(c, TS_Q_HEAD_UPD, e);
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, el->t);
    sqlite3_bind_blob(st, 3, buf, (int)n, SQLITE_STATIC);
    return step_done(c, st, e) ? -1 : 0;
}

/* Appends all[0..n) (one block's group after the series' sealed end) to
 * the last chunk when it is in the same block and has room, so that batch
 * writes fill a block's chunk instead of leaving small ones: 1 done, 0 not
 * possible, -1 error. A group of the open block smaller than TS_SEAL_MIN
 * (closed = 0) stays in the head instead: rewriting a chunk for a few
 * elements per call would cost a chunk per call. */
static int extend_last(ts_conn *c, ts_series *s, const ts_els *all, size_t n, int closed,
                       ixv_err *e) {
    int64_t b = block_slots(s);
    if (s->hi == TS_NO_TIME || (!closed && n < TS_SEAL_MIN)) return 0;
    if (b && block_of(ts_at(all, 0)->t, b) != block_of(s->hi, b)) return 0;
    ts_els last;
    ixts_els_init(&last, s->rt.nf);
    int64_t rowid, t0, added = 0;
    int r = chunk_load(c, s, TS_Q_CHUNK_AT, s->hi, &rowid, &t0, &last, e);
    if (r > 0 && last.n + n > TS_CHUNK_MAX) r = 0;
    if (r > 0 && merge_into(&last, all, 0, n, TS_DUP_REPLACE, &added, e)) r = -1;
    if (r > 0 && chunk_put(c, s, rowid, &last, 0, (uint32_t)last.n, e)) r = -1;
    ixts_els_free(&last);
    return r;
}

/* Cuts all (sorted, after the sealed end, the head already deleted) into
 * groups of at most TS_CHUNK_MAX elements of one block: a group is sealed
 * (into the last chunk when extend_last can) when a later element exists or
 * it has TS_SEAL_MIN elements; the rest becomes the head. */
static int seal_groups(ts_conn *c, ts_series *s, const ts_els *all, ixv_err *e) {
    int64_t b = block_slots(s);
    int rc = 0;
    s->nhead = 0;
    size_t k = 0;
    while (!rc && k < all->n) {
        size_t j = k + 1, cap = k + TS_CHUNK_MAX < all->n ? k + TS_CHUNK_MAX : all->n;
        int64_t blk = b ? block_of(ts_at(all, k)->t, b) : 0;
        while (j < cap && (!b || block_of(ts_at(all, j)->t, b) == blk))
            j++;
        int r = k == 0 ? extend_last(c, s, all, j, j < all->n, e) : 0;
        if (r < 0) {
            rc = -1;
        } else if (r > 0) {
            /* the first group went into the last chunk */
        } else if (j < all->n || j - k >= TS_SEAL_MIN) {
            rc = chunk_put(c, s, 0, all, k, (uint32_t)(j - k), e);
        } else {
            for (size_t h = k; !rc && h < j; h++) {
                if (head_put(c, s, ts_at(all, h), TS_DUP_REPLACE, e) < 0) rc = -1;
                s->nhead++;
            }
        }
        k = j;
    }
    return rc;
}

int ixts_seal(ts_conn *c, ts_series *s, ixv_err *e) {
    if (s->nhead < TS_SEAL_MIN) return 0;
    ts_els all;
    ixts_els_init(&all, s->rt.nf);
    ts_elem last;
    int rc = head_load(c, s, INT64_MIN, INT64_MAX, &all, e);
    if (!rc) rc = head_delete(c, s, INT64_MIN, INT64_MAX, e);
    if (!rc) rc = seal_groups(c, s, &all, e);
    if (!rc && ixts_last(c, s, &last, e) < 0) rc = -1;
    if (!rc) rc = series_save(c, s, s->n ? &last : NULL, e);
    ixts_els_free(&all);
    return rc;
}

/* Writes the new elements els[from..n) (sorted, all t > s->hi). Cheap path:
 * each goes into the head. Otherwise the head and the new elements are
 * merged and cut into groups (at most TS_CHUNK_MAX elements of one block);
 * a group is sealed into a chunk when a later element exists (its block is
 * over, or it is full) or, for the last group, when it has TS_SEAL_MIN
 * elements (a bulk load leaves no head behind); the rest is the new head. */
static int write_new(ts_conn *c, ts_series *s, const ts_els *els, size_t from, int dup,
                     int64_t *added, ixv_err *e) {
    size_t n = els->n - from;
    int64_t b = block_slots(s);
    int same_block = !b || s->nhead == 0 ||
                     (block_of(ts_at(els, from)->t, b) == block_of(s->last, b) &&
                      block_of(ts_at(els, els->n - 1)->t, b) == block_of(s->last, b));
    if (s->nhead + (int64_t)n < TS_CHUNK_MAX && n < TS_SEAL_MIN && same_block) {
        ixts_touch(c, s);
        for (size_t k = from; k < els->n; k++) {
            int r = head_put(c, s, ts_at(els, k), dup, e);
            if (r < 0) return -1;
            *added += r;
            s->nhead += r;
        }
        return 0;
    }
    ts_els all;
    ixts_els_init(&all, s->rt.nf);
    int rc = s->nhead ? head_load(c, s, INT64_MIN, INT64_MAX, &all, e) : 0;
    if (!rc) rc = merge_into(&all, els, from, els->n, dup, added, e);
    if (!rc && s->nhead) rc = head_delete(c, s, INT64_MIN, INT64_MAX, e);
    if (!rc) rc = seal_groups(c, s, &all, e);
    ixts_els_free(&all);
    return rc;
}

/* Stores the series' counts and its last element (el, or none: NULL). */
static int series_save(ts_conn *c, ts_series *s, const ts_elem *last, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, TS_Q_SERIES_SET, e);
    if (!st) return -1;
    uint8_t buf[TS_PACK_MAX + 8];
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, s->n);
    sqlite3_bind_int64(st, 3, s->nhead);
    if (s->hi != TS_NO_TIME) sqlite3_bind_int64(st, 4, s->hi);
    if (s->last != TS_NO_TIME) sqlite3_bind_int64(st, 5, s->last);
    if (last) {
        for (int b = 0; b < 8; b++)
            buf[b] = (uint8_t)((uint64_t)last->t >> (8 * b));
        size_t n = 8 + ixts_elem_pack(&s->rt, last, buf + 8);
        sqlite3_bind_blob(st, 6, buf, (int)n, SQLITE_STATIC);
    }
    return step_done(c, st, e);
}

int ixts_write(ts_conn *c, ts_series *s, ts_els *els, int dup, ixv_err *e) {
    if (!els->n) return 0;
    int dupfound = 0;
    if (sort_dedupe(els, &dupfound, e)) return -1;
    if (dupfound && dup == TS_DUP_ERROR) return ixv_seterr(e, TS_E_UNIQUE, 0, 0, "timestamp");
    size_t nlate = 0, n = els->n;
    while (nlate < n && s->hi != TS_NO_TIME && ts_at(els, nlate)->t <= s->hi)
        nlate++;
    int64_t added = 0;
    if (nlate && write_late(c, s, els, nlate, dup, &added, e)) return -1;
    if (nlate < n && write_new(c, s, els, nlate, dup, &added, e)) return -1;
    s->n += added;
    const ts_elem *lastel = ts_at(els, n - 1);
    if (s->last != TS_NO_TIME && s->last > lastel->t) {
        /* the last element stays: its counts change, the element does not */
        ts_elem keep;
        if (ixts_last(c, s, &keep, e) < 0) return -1;
        return series_save(c, s, &keep, e);
    }
    s->last = lastel->t;
    return series_save(c, s, lastel, e);
}

int ixts_last(ts_conn *c, ts_series *s, ts_elem *el, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, TS_Q_LASTV, e);
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, s->sid);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_BLOB) {
        const uint8_t *p = sqlite3_column_blob(st, 0);
        size_t n = (size_t)sqlite3_column_bytes(st, 0);
        if (n >= 8) {
            uint64_t u = 0;
            for (int b = 0; b < 8; b++)
                u |= (uint64_t)p[b] << (8 * b);
            el->t = (int64_t)u;
            found = ixts_elem_unpack(&s->rt, p + 8, n - 8, el) == 0 ? 1 : -1;
        } else
            found = -1;
    }
    sqlite3_reset(st);
    if (found < 0) return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "The series' last element is damaged");
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return ixts_sqlerr(c, rc, e);
    return found && s->n > 0;
}

/* ---- delete and retention -------------------------------------------------------------- */

/* The last element of the sealed chunks (1) or none (0). */
static int chunks_last(ts_conn *c, ts_series *s, ts_elem *out, ixv_err *e) {
    if (s->hi == TS_NO_TIME) return 0;
    ts_els ce;
    ixts_els_init(&ce, s->rt.nf);
    int64_t rowid, t0;
    int r = chunk_load(c, s, TS_Q_CHUNK_AT, s->hi, &rowid, &t0, &ce, e);
    if (r > 0 && ce.n)
        memcpy(out, ts_at(&ce, ce.n - 1), ce.sz);
    else if (r > 0)
        r = 0;
    ixts_els_free(&ce);
    return r;
}

/* Recomputes the counts, hi and the last element after a removal. */
static int series_refresh(ts_conn *c, ts_series *s, ixv_err *e) {
    sqlite3_stmt *st;
    s->hi = TS_NO_TIME;
    if (sqlite3_prepare_v2(c->h,
                           "SELECT max(t1), coalesce(sum(n), 0) FROM _ixd_ts_chunk WHERE sid = ?1",
                           -1, &st, NULL))
        return ixts_sqlerr(c, sqlite3_errcode(c->h), e);
    sqlite3_bind_int64(st, 1, s->sid);
    int64_t nchunked = 0;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (sqlite3_column_type(st, 0) != SQLITE_NULL) s->hi = sqlite3_column_int64(st, 0);
        nchunked = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return ixts_sqlerr(c, rc, e);
    ts_els head;
    ixts_els_init(&head, s->rt.nf);
    ts_elem last;
    int have = 0;
    rc = head_load(c, s, INT64_MIN, INT64_MAX, &head, e);
    s->nhead = (int64_t)head.n;
    s->n = nchunked + (int64_t)head.n;
    if (!rc && head.n) {
        memcpy(&last, ts_at(&head, head.n - 1), head.sz);
        have = 1;
    } else if (!rc) {
        have = chunks_last(c, s, &last, e);
        if (have < 0) rc = -1;
    }
    ixts_els_free(&head);
    if (rc) return -1;
    s->last = have ? last.t : TS_NO_TIME;
    return series_save(c, s, have ? &last : NULL, e);
}

/* Deletes one chunk by rowid. */
static int chunk_drop(ts_conn *c, int64_t rowid, ixv_err *e) {
    ixts_cache_drop(c);
    sqlite3_stmt *d = ixts_q(c, TS_Q_CHUNK_DEL, e);
    if (!d) return -1;
    sqlite3_bind_int64(d, 1, rowid);
    return step_done(c, d, e);
}

int ixts_delete(ts_conn *c, ts_series *s, int64_t lo, int64_t hi, int64_t *deleted, ixv_err *e) {
    *deleted = 0;
    int64_t before = s->n;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->h,
                           "SELECT rowid, t0, t1 FROM _ixd_ts_chunk WHERE sid = ?1 AND "
                           "t1 >= ?2 AND t0 <= ?3 ORDER BY t0",
                           -1, &st, NULL))
        return ixts_sqlerr(c, sqlite3_errcode(c->h), e);
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, lo);
    sqlite3_bind_int64(st, 3, hi);
    /* chunks wholly inside the window are dropped; the (at most two) that
     * cross its ends are rewritten */
    int64_t *whole = NULL, part[2];
    size_t nw = 0, capw = 0;
    int npart = 0, rc = 0, r;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t t0 = sqlite3_column_int64(st, 1), t1 = sqlite3_column_int64(st, 2);
        if (t0 >= lo && t1 <= hi) {
            if (nw == capw) {
                capw = capw ? capw * 2 : 16;
                int64_t *nwh = realloc(whole, capw * sizeof *whole);
                if (!nwh) {
                    rc = ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
                    break;
                }
                whole = nwh;
            }
            whole[nw++] = sqlite3_column_int64(st, 0);
        } else if (npart < 2)
            part[npart++] = t0;
    }
    sqlite3_finalize(st);
    if (!rc && r != SQLITE_DONE) rc = ixts_sqlerr(c, r, e);
    for (size_t k = 0; !rc && k < nw; k++)
        rc = chunk_drop(c, whole[k], e);
    free(whole);
    ts_els keep;
    ixts_els_init(&keep, s->rt.nf);
    for (int k = 0; !rc && k < npart; k++) {
        int64_t rowid, t0;
        if (chunk_load(c, s, TS_Q_CHUNK_AT, part[k], &rowid, &t0, &keep, e) < 0) {
            rc = -1;
            break;
        }
        size_t o = 0;
        for (size_t j = 0; j < keep.n; j++) {
            int64_t t = ts_at(&keep, j)->t;
            if (t < lo || t > hi) memmove(ts_at(&keep, o++), ts_at(&keep, j), keep.sz);
        }
        rc = o ? chunk_put(c, s, rowid, &keep, 0, (uint32_t)o, e) : chunk_drop(c, rowid, e);
    }
    ixts_els_free(&keep);
    if (!rc) rc = head_delete(c, s, lo, hi, e);
    if (!rc) rc = series_refresh(c, s, e);
    if (!rc) *deleted = before - s->n;
    return rc;
}

int ixts_retain(ts_conn *c, ts_series *s, int64_t cut, int64_t *dropped, ixv_err *e) {
    *dropped = 0;
    int64_t before = s->n;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->h, "DELETE FROM _ixd_ts_chunk WHERE sid = ?1 AND t1 < ?2", -1, &st,
                           NULL))
        return ixts_sqlerr(c, sqlite3_errcode(c->h), e);
    sqlite3_bind_int64(st, 1, s->sid);
    sqlite3_bind_int64(st, 2, cut);
    ixts_cache_drop(c);
    int r = sqlite3_step(st);
    int changed = sqlite3_changes(c->h);
    sqlite3_finalize(st);
    if (r != SQLITE_DONE) return ixts_sqlerr(c, r, e);
    if (!changed) return 0;
    if (series_refresh(c, s, e)) return -1;
    *dropped = before - s->n;
    return 0;
}
