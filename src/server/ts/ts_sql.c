#define _DEFAULT_SOURCE /* realpath */
/*
 * ts_sql.c: the oni_ts_* routines as SQLite functions (the translator emits
 * calls to them for EXECUTE FUNCTION and in SELECT), the routine table, and
 * the per-connection state.
 *
 * Every write routine runs inside SAVEPOINT _ixd_ts: it is part of the
 * caller's transaction, commits by itself outside one, and writes nothing
 * when it fails. Errors are raised through ixd's error record (ixv_fn_raise:
 * the engine takes them back); SQLite's own failures (locks, a full disk)
 * keep their SQLite code.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/ts/ts_int.h"

static const ts_routine routines[] = {
    {"oni_ts_create", 5, 5, TS_RET_INT, "_ixd_ts_create", 1},
    {"oni_ts_write", 4, 5, TS_RET_INT, "_ixd_ts_write", 1},
    {"oni_ts_write_many", 4, 5, TS_RET_INT, "_ixd_ts_write_many", 1},
    {"oni_ts_write_file", 3, 4, TS_RET_INT, "_ixd_ts_write_file", 1},
    {"oni_ts_read", 5, 6, TS_RET_TEXT, "_ixd_ts_read", 0},
    {"oni_ts_read_rows", 5, 5, TS_RET_ROWS, "_ixd_ts_rows", 0},
    {"oni_ts_aggregate", 7, 7, TS_RET_AGG, "_ixd_ts_agg", 0},
    {"oni_ts_delete", 5, 5, TS_RET_INT, "_ixd_ts_delete", 1},
    {"oni_ts_last", 3, 3, TS_RET_TEXT, "_ixd_ts_last", 0},
    {"oni_ts_info", 3, 3, TS_RET_TEXT, "_ixd_ts_info", 0},
    {"oni_ts_retain", 4, 4, TS_RET_INT, "_ixd_ts_retain", 1},
};

const ts_routine *ixts_routine_find(const char *name) {
    for (size_t k = 0; k < sizeof routines / sizeof routines[0]; k++)
        if (!strcmp(routines[k].name, name)) return &routines[k];
    return NULL;
}

static char *load_dir;

void ixts_set_load_dir(const char *dir) {
    free(load_dir);
    load_dir = dir ? realpath(dir, NULL) : NULL;
}

const char *ixts_load_dir(void) {
    return load_dir;
}

/* ---- arguments and errors ----------------------------------------------------------- */

static void result_err(sqlite3_context *ctx, const ixv_err *e) {
    ixv_fn_raise(ctx, e);
}

/* A table or column name argument, lower-cased (Informix names). */
static int arg_name(sqlite3_value *x, char *buf, const char *what, ixv_err *e) {
    const char *s = (const char *)sqlite3_value_text(x);
    if (!s || !*s) return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "The %s name is missing", what);
    size_t n = strlen(s);
    if (n > TS_NAME_MAX) return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "The %s name is too long", what);
    for (size_t k = 0; k <= n; k++)
        buf[k] = (char)tolower((unsigned char)s[k]);
    return 0;
}

/* A timestamp argument: 0 with *us, 1 NULL, -1 error. */
static int arg_time(sqlite3_value *x, int64_t *us, ixv_err *e) {
    if (sqlite3_value_type(x) == SQLITE_NULL) return 1;
    const char *s = (const char *)sqlite3_value_text(x);
    if (!s) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    return ixts_time_parse(s, (size_t)sqlite3_value_bytes(x), us, e);
}

/* Write options: "dup=replace" (default) or "dup=error". */
static int arg_dup(int argc, sqlite3_value **argv, int at, int *dup, ixv_err *e) {
    *dup = TS_DUP_REPLACE;
    if (argc <= at || sqlite3_value_type(argv[at]) == SQLITE_NULL) return 0;
    const char *o = (const char *)sqlite3_value_text(argv[at]);
    if (!o) return 0;
    while (*o == ' ')
        o++;
    if (!*o || !strcmp(o, "dup=replace")) return 0;
    if (!strcmp(o, "dup=error")) {
        *dup = TS_DUP_ERROR;
        return 0;
    }
    return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Bad write option '%.60s' (dup=replace or dup=error)",
                      o);
}

/* The series named by (table, column, key) arguments argv[0..2], which
 * must exist. */
/* Copies a series: its fields and the row type's nf fields. */
static void series_copy(ts_series *dst, const ts_series *src) {
    memcpy(dst, src, offsetof(ts_series, rt.f) + (size_t)src->rt.nf * sizeof(ts_field));
}

/* The state the series cache is valid in. */
static void scache_stamp(ts_conn *c, uint64_t *gen, unsigned *dver, int64_t *changes, int *ac) {
    /* outside a transaction the calling SELECT may not have read yet:
     * a fresh version, so that another connection's commit shows */
    c->stamp(c->stamp_ud, gen, dver);
    *changes = sqlite3_total_changes64(c->h);
    *ac = sqlite3_get_autocommit(c->h);
}

void ixts_scache_put(ts_conn *c, const ts_series *s, sqlite3_value *key) {
    ts_scache *sc = &c->sc;
    sc->valid = 0;
    int kt = sqlite3_value_type(key);
    if (kt == SQLITE_INTEGER) {
        sc->ki = sqlite3_value_int64(key);
    } else if (kt == SQLITE_TEXT && sqlite3_value_bytes(key) < (int)sizeof sc->kt) {
        sc->ktn = sqlite3_value_bytes(key);
        memcpy(sc->kt, sqlite3_value_text(key), (size_t)sc->ktn);
    } else
        return;
    sc->ktype = kt;
    /* both NUL-terminated within TS_NAME_MAX + 1 bytes: copied, not formatted (every call) */
    memcpy(sc->tab, s->tab, strlen(s->tab) + 1);
    memcpy(sc->col, s->col, strlen(s->col) + 1);
    series_copy(&sc->s, s);
    scache_stamp(c, &sc->gen, &sc->dver, &sc->changes, &sc->autocommit);
    sc->valid = 1;
}

/* The cached series when it is (tab, col, key) and still valid. */
static int scache_get(ts_conn *c, const char *tab, const char *col, sqlite3_value *key,
                      ts_series *s) {
    ts_scache *sc = &c->sc;
    if (!sc->valid || strcmp(sc->tab, tab) || strcmp(sc->col, col)) return 0;
    int kt = sqlite3_value_type(key);
    if (kt != sc->ktype) return 0;
    if (kt == SQLITE_INTEGER ? sqlite3_value_int64(key) != sc->ki
                             : sqlite3_value_bytes(key) != sc->ktn ||
                                   memcmp(sqlite3_value_text(key), sc->kt, (size_t)sc->ktn))
        return 0;
    uint64_t gen;
    unsigned dver;
    int64_t changes;
    int ac;
    scache_stamp(c, &gen, &dver, &changes, &ac);
    if (gen != sc->gen || dver != sc->dver || changes != sc->changes || ac != sc->autocommit) {
        sc->valid = 0;
        return 0;
    }
    series_copy(s, &sc->s);
    return 1;
}

int ixts_args_series(ts_conn *c, sqlite3_value **argv, ts_series *s, ixv_err *e) {
    char tab[TS_NAME_MAX + 1], col[TS_NAME_MAX + 1];
    if (arg_name(argv[0], tab, "table", e) || arg_name(argv[1], col, "column", e)) return -1;
    if (scache_get(c, tab, col, argv[2], s)) return 0;
    int r = ixts_series_open(c, tab, col, argv[2], s, e);
    if (r == 0) {
        const char *k = (const char *)sqlite3_value_text(argv[2]);
        return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "%s.%s has no series for key %.40s", tab, col,
                          k ? k : "NULL");
    }
    return r < 0 ? -1 : 0;
}

/* The window [from, to] of arguments argv[a], argv[a+1] in storage units. */
int ixts_args_window(const ts_series *s, sqlite3_value **argv, int a, int64_t *lo, int64_t *hi,
                     ixv_err *e) {
    int64_t f, t;
    int rf = arg_time(argv[a], &f, e), rt = arg_time(argv[a + 1], &t, e);
    if (rf < 0 || rt < 0) return -1;
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    if (s->step) {
        if (!rf) *lo = f <= s->origin ? 0 : (f - s->origin + s->step - 1) / s->step;
        if (!rt) *hi = t < s->origin ? -1 : (t - s->origin) / s->step;
    } else {
        if (!rf) *lo = f;
        if (!rt) *hi = t;
    }
    return 0;
}

/* ---- savepoints --------------------------------------------------------------------- */

static int sp_run(ts_conn *c, int q, ixv_err *e) {
    sqlite3_stmt *st = ixts_q(c, q, e);
    if (!st) return -1;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : ixts_sqlerr(c, rc, e);
}

static int sp_begin(ts_conn *c, ixv_err *e) {
    return sp_run(c, TS_Q_SAVE, e);
}

/* Ends the savepoint: released when ok, else rolled back (the error in *e
 * stays). Returns ok ? 0 (or the RELEASE failure) : -1. */
static int sp_end(ts_conn *c, int ok, ixv_err *e) {
    if (ok) {
        if (sp_run(c, TS_Q_RELEASE, e) == 0) return 0;
    }
    ixv_err ignore;
    sp_run(c, TS_Q_ROLLBACK, &ignore);
    sp_run(c, TS_Q_RELEASE, &ignore);
    c->summ_tab = 0; /* the summaries' table may have gone with it */
    return -1;
}

static ts_conn *conn_of(sqlite3_context *ctx) {
    return sqlite3_user_data(ctx);
}

/* ---- oni_ts_create ---------------------------------------------------------------------- */

/* Runs sql on the user's table with the key (and text) bound: the rows a
 * SELECT found or an INSERT / UPDATE changed, -1 error. */
static int row_stmt(ts_conn *c, const char *sql, const sval *key, const char *text, ixv_err *e) {
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->h, sql, -1, &st, NULL);
    if (rc) return ixts_sqlerr(c, rc, e);
    ixv_sval_bind_static(key, st, 1);
    if (text) sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    int found = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        found++;
    if (rc != SQLITE_DONE) {
        ixts_sqlerr(c, rc, e);
        sqlite3_finalize(st);
        return -1;
    }
    if (strncmp(sql, "SELECT", 6)) found = sqlite3_changes(c->h);
    sqlite3_finalize(st);
    return found;
}

static int create_series(ts_conn *c, sqlite3_value **argv, ixv_err *e) {
    char tab[TS_NAME_MAX + 1], col[TS_NAME_MAX + 1], keycol[TS_NAME_MAX + 1];
    ts_series s;
    int keycode;
    if (arg_name(argv[0], tab, "table", e) || arg_name(argv[1], col, "column", e)) return -1;
    if (ixts_column_open(c, tab, col, &s.rt, keycol, &keycode, e)) return -1;
    int64_t origin, step = 0;
    int r = arg_time(argv[3], &origin, e);
    if (r)
        return r < 0 ? -1 : ixv_seterr(e, TS_E_ROUTINE, 0, 0, "The origin of a series is required");
    if (sqlite3_value_type(argv[4]) != SQLITE_NULL) {
        const char *iv = (const char *)sqlite3_value_text(argv[4]);
        if (ixts_interval_parse(iv ? iv : "", iv ? strlen(iv) : 0, &step, e)) return -1;
    }
    sval k;
    if (ixts_key_convert(argv[2], keycode, &k, e)) return -1;
    r = ixts_series_lookup(c, tab, col, &s.rt, &k, &s, e);
    if (r != 0) {
        ixv_sval_free(&k);
        if (r < 0) return -1;
        if (s.origin == origin && s.step == step) return 0;
        return ixv_seterr(e, TS_E_ROUTINE, 0, 0,
                          "The series exists with another origin or interval");
    }
    sb q = {0}, hdr = {0};
    char ob[TS_TIME_TEXT], ivb[64];
    ixts_time_format(origin, ixts_rowtype_fdig(&s.rt), ob);
    ixv_sb_printf(&hdr, "origin(%s), ", ob);
    if (step) {
        ixts_interval_format(step, ivb, sizeof ivb);
        ixv_sb_printf(&hdr, "interval(%s), regular", ivb);
    } else
        ixv_sb_add(&hdr, "irregular");
    /* the row: found, or inserted with its key only */
    ixv_sb_add(&q, "SELECT 1 FROM ");
    ixv_sb_ident(&q, tab);
    ixv_sb_add(&q, " WHERE ");
    ixv_sb_ident(&q, keycol);
    ixv_sb_add(&q, " = ?1");
    int rc = q.oom ? ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL) : row_stmt(c, q.p, &k, NULL, e);
    if (rc == 0) {
        ixv_sb_free(&q);
        ixv_sb_add(&q, "INSERT INTO ");
        ixv_sb_ident(&q, tab);
        ixv_sb_addc(&q, '(');
        ixv_sb_ident(&q, keycol);
        ixv_sb_add(&q, ") VALUES(?1)");
        rc = q.oom ? ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL) : row_stmt(c, q.p, &k, NULL, e);
    }
    if (rc > 0) {
        ixv_sb_free(&q);
        ixv_sb_add(&q, "UPDATE ");
        ixv_sb_ident(&q, tab);
        ixv_sb_add(&q, " SET ");
        ixv_sb_ident(&q, col);
        ixv_sb_add(&q, " = ?2 WHERE ");
        ixv_sb_ident(&q, keycol);
        ixv_sb_add(&q, " = ?1");
        rc = q.oom || hdr.oom ? ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL)
                              : row_stmt(c, q.p, &k, hdr.p, e);
    }
    if (rc > 0) {
        sqlite3_stmt *st;
        rc = sqlite3_prepare_v2(c->h,
                                "INSERT INTO _ixd_ts_series(tab, col, key, origin, step) "
                                "VALUES(?1, ?2, ?3, ?4, ?5)",
                                -1, &st, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
            ixv_sval_bind_static(&k, st, 3);
            sqlite3_bind_int64(st, 4, origin);
            sqlite3_bind_int64(st, 5, step);
            rc = sqlite3_step(st);
            sqlite3_finalize(st);
        }
        rc = rc == SQLITE_DONE ? 1 : ixts_sqlerr(c, rc, e);
    }
    ixv_sb_free(&q);
    ixv_sb_free(&hdr);
    ixv_sval_free(&k);
    return rc;
}

static void f_create(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    c->sc.valid = 0;
    if (sp_begin(c, &e)) return result_err(ctx, &e);
    int r = create_series(c, argv, &e);
    if (sp_end(c, r >= 0, &e)) return result_err(ctx, &e);
    sqlite3_result_int(ctx, r);
}

/* ---- writes -------------------------------------------------------------------------- */

/* Parses one element line into a new slot of els, in storage units. */
static int add_elem(const ts_series *s, ts_els *els, const char *line, size_t n, ixv_err *e) {
    ts_elem *el = ixts_els_push(els);
    if (!el) return ixv_seterr(e, TS_E_NOMEM, 0, 0, NULL);
    if (ixts_elem_parse(&s->rt, line, n, el, e) || ixts_slot(s, el->t, &el->t, e)) {
        els->n--;
        return -1;
    }
    return 0;
}

/* Parses the element lines of text[0..n) into els; a bad line's error
 * names its number. */
static int parse_lines(const ts_series *s, const char *text, size_t n, ts_els *els, ixv_err *e) {
    size_t at = 0;
    int64_t line = 0;
    while (at < n) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t end = nl ? (size_t)(nl - text) : n;
        size_t len = end - at;
        line++;
        if (len && text[at + len - 1] == '\r') len--;
        size_t k = 0;
        while (k < len && (text[at + k] == ' ' || text[at + k] == '\t'))
            k++;
        if (k < len && add_elem(s, els, text + at, len, e)) {
            char why[sizeof e->text];
            snprintf(why, sizeof why, "%s", e->text[0] ? e->text : ixv_errtext(e->sqlcode));
            return ixv_seterr(e, e->sqlcode == TS_E_UNIQUE ? e->sqlcode : TS_E_ROUTINE, 0, 0,
                              "line %lld: %s", (long long)line, why);
        }
        at = end + 1;
    }
    return 0;
}

/* oni_ts_write (one element) and oni_ts_write_many (lines). */
static void f_write(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    ts_series s;
    int dup;
    if (ixts_args_series(c, argv, &s, &e) || arg_dup(argc, argv, 4, &dup, &e))
        return result_err(ctx, &e);
    const char *text = sqlite3_value_type(argv[3]) == SQLITE_BLOB
                           ? (const char *)sqlite3_value_blob(argv[3])
                           : (const char *)sqlite3_value_text(argv[3]);
    size_t n = (size_t)sqlite3_value_bytes(argv[3]);
    if (sqlite3_value_type(argv[3]) == SQLITE_NULL) {
        ixv_seterr(&e, TS_E_ROUTINE, 0, 0, "The element is NULL");
        return result_err(ctx, &e);
    }
    ts_els els;
    ixts_els_init(&els, s.rt.nf);
    int rc = parse_lines(&s, text ? text : "", text ? n : 0, &els, &e);
    int64_t written = (int64_t)els.n;
    if (!rc) {
        rc = sp_begin(c, &e);
        if (!rc) rc = sp_end(c, ixts_write(c, &s, &els, dup, &e) == 0, &e);
    }
    ixts_els_free(&els);
    if (rc) {
        c->sc.valid = 0;
        return result_err(ctx, &e);
    }
    ixts_scache_put(c, &s, argv[2]);
    sqlite3_result_int64(ctx, written);
}

/* ---- oni_ts_write_file ------------------------------------------------------------------ */

/* Opens path under the load directory (no absolute path, no "..", and no
 * symbolic link leading out of it). */
static FILE *open_confined(const char *path, ixv_err *e) {
    const char *dir = ixts_load_dir();
    if (!dir) {
        ixv_seterr(e, TS_E_ROUTINE, 0, 0,
                   "oni_ts_write_file is disabled: ixd runs without --load-dir");
        return NULL;
    }
    if (!*path || path[0] == '/' || strstr(path, "..")) {
        ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Path '%.80s' is outside the load directory", path);
        return NULL;
    }
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s/%s", dir, path) >= (int)sizeof full) {
        ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Path '%.80s' is too long", path);
        return NULL;
    }
    char *real = realpath(full, NULL);
    size_t dl = strlen(dir);
    if (!real) {
        ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Cannot open '%.80s': %s", path, strerror(errno));
        return NULL;
    }
    if (strncmp(real, dir, dl) || real[dl] != '/') {
        free(real);
        ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Path '%.80s' is outside the load directory", path);
        return NULL;
    }
    FILE *f = fopen(real, "r");
    free(real);
    if (!f) ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Cannot open '%.80s': %s", path, strerror(errno));
    return f;
}

/* The loader state: lines of one key are gathered and written together. */
typedef struct loader {
    ts_conn *c;
    char tab[TS_NAME_MAX + 1], col[TS_NAME_MAX + 1];
    ts_rowtype rt;
    int keycode;
    char key[256];
    ts_series s;
    ts_els els;
    int dup;
    int64_t written;
} loader;

static int loader_flush(loader *L, ixv_err *e) {
    if (!L->els.n) return 0;
    L->written += (int64_t)L->els.n;
    int rc = ixts_write(L->c, &L->s, &L->els, L->dup, e);
    L->els.n = 0;
    return rc;
}

/* One line "key|timestamp|v1|...|". */
static int loader_line(loader *L, const char *p, size_t n, ixv_err *e) {
    const char *bar = memchr(p, '|', n);
    if (!bar) return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "No '|' after the key");
    size_t kl = (size_t)(bar - p);
    if (kl >= sizeof L->key) return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Key too long");
    if (L->els.sz == 0 || strncmp(L->key, p, kl) || L->key[kl]) {
        if (loader_flush(L, e)) return -1;
        memcpy(L->key, p, kl);
        L->key[kl] = 0;
        sval k;
        int rc = ixv_text_to_sval(ixv_t_default(L->keycode), L->key, kl, &k);
        if (rc < 0) return ixv_seterr(e, rc, 0, 0, NULL);
        int r = ixts_series_lookup(L->c, L->tab, L->col, &L->rt, &k, &L->s, e);
        ixv_sval_free(&k);
        if (r < 0) return -1;
        if (!r)
            return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "%s.%s has no series for key %s", L->tab,
                              L->col, L->key);
        ixts_els_free(&L->els);
        ixts_els_init(&L->els, L->rt.nf);
    }
    return add_elem(&L->s, &L->els, bar + 1, n - kl - 1, e);
}

static int load_file(loader *L, FILE *f, ixv_err *e) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int64_t no = 0;
    int rc = 0;
    while (!rc && (len = getline(&line, &cap, f)) >= 0) {
        no++;
        size_t n = (size_t)len;
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            n--;
        if (!n) continue;
        if (loader_line(L, line, n, e)) {
            char why[sizeof e->text];
            snprintf(why, sizeof why, "%s", e->text[0] ? e->text : ixv_errtext(e->sqlcode));
            rc = ixv_seterr(e, TS_E_ROUTINE, 0, 0, "line %lld: %s", (long long)no, why);
        }
    }
    free(line);
    if (!rc && ferror(f)) rc = ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Read error: %s", strerror(errno));
    if (!rc) rc = loader_flush(L, e);
    return rc;
}

static void f_write_file(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    loader *L = calloc(1, sizeof *L);
    if (!L) return sqlite3_result_error_nomem(ctx);
    c->sc.valid = 0;
    L->c = c;
    const char *path = (const char *)sqlite3_value_text(argv[2]);
    FILE *f = NULL;
    int rc = arg_name(argv[0], L->tab, "table", &e) || arg_name(argv[1], L->col, "column", &e) ||
             arg_dup(argc, argv, 3, &L->dup, &e) ||
             ixts_column_open(c, L->tab, L->col, &L->rt, NULL, &L->keycode, &e);
    if (!rc && !(f = open_confined(path ? path : "", &e))) rc = -1;
    if (!rc) rc = sp_begin(c, &e);
    if (!rc) rc = sp_end(c, load_file(L, f, &e) == 0, &e);
    if (f) fclose(f);
    int64_t written = L->written;
    ixts_els_free(&L->els);
    free(L);
    if (rc) return result_err(ctx, &e);
    sqlite3_result_int64(ctx, written);
}

/* ---- reads and the rest ------------------------------------------------------------------ */

static void f_read(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    ts_series s;
    int64_t lo, hi;
    if (ixts_args_series(c, argv, &s, &e) || ixts_args_window(&s, argv, 3, &lo, &hi, &e))
        return result_err(ctx, &e);
    const char *opts = argc > 5 ? (const char *)sqlite3_value_text(argv[5]) : NULL;
    sb out = {0};
    if (ixts_json_page(c, &s, lo, hi, opts, &out, &e)) {
        ixv_sb_free(&out);
        return result_err(ctx, &e);
    }
    ixts_scache_put(c, &s, argv[2]);
    sqlite3_result_text(ctx, out.p, (int)out.n, free);
}

static void f_delete(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    ts_series s;
    int64_t lo, hi, n = 0;
    if (ixts_args_series(c, argv, &s, &e) || ixts_args_window(&s, argv, 3, &lo, &hi, &e) ||
        sp_begin(c, &e))
        return result_err(ctx, &e);
    c->sc.valid = 0;
    if (sp_end(c, ixts_delete(c, &s, lo, hi, &n, &e) == 0, &e)) return result_err(ctx, &e);
    sqlite3_result_int64(ctx, n);
}

static void f_last(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    ts_series s;
    ts_elem el;
    if (ixts_args_series(c, argv, &s, &e)) return result_err(ctx, &e);
    int r = ixts_last(c, &s, &el, &e);
    if (r < 0) return result_err(ctx, &e);
    ixts_scache_put(c, &s, argv[2]);
    if (!r) return sqlite3_result_null(ctx);
    el.t = ts_time_of(&s, el.t);
    sb out = {0};
    ixts_elem_text(&s.rt, &el, &out);
    if (out.oom) return sqlite3_result_error_nomem(ctx);
    sqlite3_result_text(ctx, out.p, (int)out.n, free);
}

static void f_info(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    ts_series s;
    if (ixts_args_series(c, argv, &s, &e)) return result_err(ctx, &e);
    sb out = {0};
    if (ixts_info_json(c, &s, &out, &e)) {
        ixv_sb_free(&out);
        return result_err(ctx, &e);
    }
    sqlite3_result_text(ctx, out.p, (int)out.n, free);
}

/* oni_ts_retain(table, column, key or NULL, cutoff) */
static void f_retain(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ts_conn *c = conn_of(ctx);
    ixv_err e = {0};
    char tab[TS_NAME_MAX + 1], col[TS_NAME_MAX + 1];
    int64_t cut, total = 0;
    c->sc.valid = 0;
    if (arg_name(argv[0], tab, "table", &e) || arg_name(argv[1], col, "column", &e))
        return result_err(ctx, &e);
    int r = arg_time(argv[3], &cut, &e);
    if (r) {
        if (r > 0) ixv_seterr(&e, TS_E_ROUTINE, 0, 0, "The cut-off of oni_ts_retain is NULL");
        return result_err(ctx, &e);
    }
    /* the keys: the one given, or every series of the column */
    sqlite3_stmt *keys = NULL;
    int rc = sqlite3_prepare_v2(c->h, "SELECT key FROM _ixd_ts_series WHERE tab = ?1 AND col = ?2",
                                -1, &keys, NULL);
    if (rc) {
        ixts_sqlerr(c, rc, &e);
        return result_err(ctx, &e);
    }
    sqlite3_bind_text(keys, 1, tab, -1, SQLITE_STATIC);
    sqlite3_bind_text(keys, 2, col, -1, SQLITE_STATIC);
    int ok = sp_begin(c, &e) == 0;
    int one = sqlite3_value_type(argv[2]) != SQLITE_NULL;
    while (ok) {
        sqlite3_value *key = argv[2];
        if (!one) {
            int sr = sqlite3_step(keys);
            if (sr == SQLITE_DONE) break;
            if (sr != SQLITE_ROW) {
                ok = ixts_sqlerr(c, sr, &e) == 0;
                break;
            }
            key = sqlite3_column_value(keys, 0);
        }
        ts_series s;
        int64_t lo, n = 0;
        int f = ixts_series_open(c, tab, col, key, &s, &e);
        if (f < 0) ok = 0;
        /* chunks whose last element is before cut: t1 < lo */
        lo = !s.step ? cut : cut <= s.origin ? 0 : (cut - s.origin + s.step - 1) / s.step;
        if (f > 0 && ok && ixts_retain(c, &s, lo, &n, &e)) ok = 0;
        total += n;
        if (one) break;
    }
    sqlite3_finalize(keys);
    if (sp_end(c, ok, &e)) return result_err(ctx, &e);
    sqlite3_result_int64(ctx, total);
}

/* ---- commit -------------------------------------------------------------------------- */

void ixts_touch(ts_conn *c, const ts_series *s) {
    for (int k = 0; k < c->ntouched; k++)
        if (c->touched[k].sid == s->sid) return;
    if (c->ntouched == TS_TOUCHED_MAX) return; /* sealed later, when full or by a batch */
    ts_touched *t = &c->touched[c->ntouched++];
    snprintf(t->tab, sizeof t->tab, "%s", s->tab);
    snprintf(t->col, sizeof t->col, "%s", s->col);
    t->sid = s->sid;
}

void ixts_txn_end(ts_conn *c) {
    if (!c) return;
    c->ntouched = 0;
    c->sc.valid = 0;
    c->summ_tab = 0; /* a ROLLBACK may have taken the summaries' table */
}

void ixts_before_commit(ts_conn *c) {
    if (!c) return;
    c->sc.valid = 0; /* sealing changes the series */
    if (!c->ntouched) return;
    ixv_err e = {0};
    if (sp_begin(c, &e)) {
        c->ntouched = 0;
        return;
    }
    int ok = 1;
    for (int k = 0; k < c->ntouched && ok; k++) {
        ts_touched *t = &c->touched[k];
        ts_series s;
        sqlite3_stmt *st;
        /* the key of the series, then the series as the routines open it */
        if (sqlite3_prepare_v2(c->h, "SELECT key FROM _ixd_ts_series WHERE sid = ?1", -1, &st,
                               NULL) != SQLITE_OK)
            break;
        sqlite3_bind_int64(st, 1, t->sid);
        if (sqlite3_step(st) == SQLITE_ROW &&
            ixts_series_open(c, t->tab, t->col, sqlite3_column_value(st, 0), &s, &e) > 0)
            ok = ixts_seal(c, &s, &e) == 0;
        sqlite3_finalize(st);
    }
    sp_end(c, ok, &e);
    c->ntouched = 0;
}

/* ---- registration --------------------------------------------------------------------- */

int ixts_register_functions(ts_conn *c) {
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        {"_ixd_ts_create", 5, f_create},
        {"_ixd_ts_write", 4, f_write},
        {"_ixd_ts_write", 5, f_write},
        {"_ixd_ts_write_many", 4, f_write},
        {"_ixd_ts_write_many", 5, f_write},
        {"_ixd_ts_write_file", 3, f_write_file},
        {"_ixd_ts_write_file", 4, f_write_file},
        {"_ixd_ts_read", 5, f_read},
        {"_ixd_ts_read", 6, f_read},
        {"_ixd_ts_delete", 5, f_delete},
        {"_ixd_ts_last", 3, f_last},
        {"_ixd_ts_info", 3, f_info},
        {"_ixd_ts_retain", 4, f_retain},
    };
    int rc = SQLITE_OK;
    for (size_t k = 0; k < sizeof fns / sizeof fns[0] && rc == SQLITE_OK; k++)
        rc = sqlite3_create_function(c->h, fns[k].name, fns[k].nargs, SQLITE_UTF8, c, fns[k].fn,
                                     NULL, NULL);
    return rc;
}

int ixts_register(sqlite3 *h, ixts_stamp_fn stamp, void *ud, ts_conn **out) {
    ts_conn *c = calloc(1, sizeof *c);
    *out = c;
    if (!c) return SQLITE_NOMEM;
    c->stamp = stamp;
    c->stamp_ud = ud;
    c->h = h;
    ixts_dec_init(&c->dec);
    for (int k = 0; k < TS_CCACHE_N; k++)
        ixts_dec_init(&c->cache[k].dec);
    int rc = ixts_register_functions(c);
    if (rc == SQLITE_OK) rc = ixts_register_vtabs(c);
    return rc;
}

void ixts_close(ts_conn *c) {
    if (!c) return;
    for (int q = 0; q < TS_NQ; q++)
        if (c->q[q]) sqlite3_finalize(c->q[q]);
    ixts_dec_free(&c->dec);
    for (int k = 0; k < TS_CCACHE_N; k++)
        ixts_dec_free(&c->cache[k].dec);
    free(c);
}
