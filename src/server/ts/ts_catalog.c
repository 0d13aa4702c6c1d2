/* ts_catalog.c: TIMESERIES columns in the database file, and the
 * TimeSeries tables (made with the first such column). Row types are in the
 * catalogue of all row types (src/server/sql/ixs_rowtype.c), read here
 * through its view _ixd_rowtypes. Run by DDL inside its transaction. */
#include <stdio.h>
#include <string.h>

#include "server/ts/ts_int.h"

static const char *const schema =
    "CREATE TABLE IF NOT EXISTS _ixd_ts_columns(tab TEXT, col TEXT, rowtype TEXT,"
    " keycol TEXT, keytype INTEGER, PRIMARY KEY(tab, col));"
    "CREATE TABLE IF NOT EXISTS _ixd_ts_series(sid INTEGER PRIMARY KEY, tab TEXT, col TEXT,"
    " key, origin INTEGER, step INTEGER, n INTEGER DEFAULT 0, nhead INTEGER DEFAULT 0,"
    " hi INTEGER, last INTEGER, lastv BLOB, UNIQUE(tab, col, key));"
    "CREATE TABLE IF NOT EXISTS _ixd_ts_chunk(sid INTEGER, t0 INTEGER, t1 INTEGER,"
    " n INTEGER, data BLOB, summ BLOB, PRIMARY KEY(sid, t0));"
    "CREATE TABLE IF NOT EXISTS _ixd_ts_head(sid INTEGER, t INTEGER, v BLOB,"
    " PRIMARY KEY(sid, t)) WITHOUT ROWID;" TS_SUMM_SCHEMA;

static int exec_err(sqlite3 *h, const char *sql, ixv_err *err) {
    char *msg = NULL;
    int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        ixv_seterr(err, rc == SQLITE_FULL ? IXV_E_CATALOG_UPDATE : IXV_E_TEXT,
                   rc == SQLITE_FULL ? IXV_ISAM_NO_SPACE : 0, 0, "%s",
                   msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* The chunk summaries' own table (files made before it keep theirs in
 * _ixd_ts_chunk.summ; ixts_summ_table adds it at their first write): a
 * chunk record without its summary is small enough for four to a 4 KB
 * page. The triggers drop a summary with its chunk or its chunk's t0. */
const char *const ixts_summ_schema = TS_SUMM_SCHEMA;

int ixts_summ_table(ts_conn *c, int create, ixv_err *e) {
    if (c->summ_tab) return 1;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->h,
                                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                "name = '_ixd_ts_summ'",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) return ixts_sqlerr(c, rc, e);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return c->summ_tab = 1;
    if (rc != SQLITE_DONE) return ixts_sqlerr(c, rc, e);
    if (!create) return 0;
    if (exec_err(c->h, ixts_summ_schema, e)) return -1;
    return c->summ_tab = 1;
}

/* 1 when the TimeSeries tables exist. */
static int have_schema(sqlite3 *h) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h,
                           "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                           "name = '_ixd_ts_columns'",
                           -1, &st, NULL))
        return 0;
    int r = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return r;
}

int ixts_rowtype_check(const ts_rowtype *rt, ixv_err *err) {
    const ts_field *t = &rt->f[0];
    if (rt->nf < 2 || rt->nf > TS_MAX_METRICS + 1)
        return ixv_seterr(err, TS_E_ROUTINE, 0, 0,
                          "A TimeSeries row type has a timestamp and 1 to %d metrics",
                          TS_MAX_METRICS);
    if (t->code != IX_T_DATETIME || IXT_QUAL_START(t->len) != IXT_TU_YEAR ||
        IXT_QUAL_END(t->len) <= IXT_TU_SECOND)
        return ixv_seterr(err, TS_E_ROUTINE, 0, 0,
                          "The first field of %s must be DATETIME YEAR TO FRACTION(n)", rt->name);
    for (int m = 1; m < rt->nf; m++) {
        const ts_field *f = &rt->f[m];
        if (!ixts_field_kind(f))
            return ixv_seterr(err, TS_E_ROUTINE, 0, 0,
                              "Field %s: a TimeSeries metric is SMALLINT, INTEGER, INT8, "
                              "BIGINT, SMALLFLOAT, FLOAT or DECIMAL",
                              f->name);
        if (f->code == IX_T_DECIMAL && (f->len >> 8) > 18)
            return ixv_seterr(err, TS_E_ROUTINE, 0, 0,
                              "Field %s: DECIMAL metrics hold at most 18 digits", f->name);
        for (int k = 0; k < m; k++)
            if (!strcmp(rt->f[k].name, f->name))
                return ixv_seterr(err, TS_E_ROUTINE, 0, 0, "Field %s appears twice", f->name);
    }
    return 0;
}

/* The Informix type code of column col of table tab (from ixd's catalog). */
static int column_code(sqlite3 *h, const char *tab, const char *col) {
    sqlite3_stmt *st;
    int code = -1;
    if (sqlite3_prepare_v2(h,
                           "SELECT c.coltype FROM _ixd_columns c JOIN _ixd_tables t ON "
                           "t.tabid = c.tabid WHERE t.tabname = ?1 AND c.colname = ?2",
                           -1, &st, NULL))
        return -1;
    sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) code = sqlite3_column_int(st, 0) & 0xff;
    sqlite3_finalize(st);
    return code;
}

/* The trigger that deletes a row's series with the row (made again after
 * ALTER TABLE rebuilds the table). */
static int make_trigger(sqlite3 *h, const char *tab, const char *keycol, ixv_err *err) {
    char trig[TS_NAME_MAX + 32];
    snprintf(trig, sizeof trig, "_ixd_ts_del_%s", tab);
    sb q = {0}, sel = {0};
    ixv_sb_add(&sel, "(SELECT sid FROM _ixd_ts_series WHERE tab = ");
    ixv_sb_strlit(&sel, tab, strlen(tab));
    ixv_sb_add(&sel, " AND key = old.");
    ixv_sb_ident(&sel, keycol);
    ixv_sb_addc(&sel, ')');
    ixv_sb_add(&q, "DROP TRIGGER IF EXISTS ");
    ixv_sb_ident(&q, trig);
    ixv_sb_add(&q, "; CREATE TRIGGER ");
    ixv_sb_ident(&q, trig);
    ixv_sb_add(&q, " AFTER DELETE ON ");
    ixv_sb_ident(&q, tab);
    const char *in = sel.p ? sel.p : "";
    ixv_sb_printf(&q,
                  " BEGIN DELETE FROM _ixd_ts_chunk WHERE sid IN %s;"
                  " DELETE FROM _ixd_ts_head WHERE sid IN %s;"
                  " DELETE FROM _ixd_ts_series WHERE sid IN %s; END;",
                  in, in, in);
    int rc = q.oom || sel.oom ? ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL) : exec_err(h, q.p, err);
    ixv_sb_free(&q);
    ixv_sb_free(&sel);
    return rc;
}

int ixts_column_add(sqlite3 *h, const char *tab, const char *col, const char *rowtype,
                    const char *keycol, ixv_err *err) {
    if (!keycol)
        return ixv_seterr(err, TS_E_ROUTINE, 0, 0,
                          "Table %s with a TIMESERIES column needs a one-column primary key", tab);
    if (exec_err(h, schema, err)) return -1; /* the TimeSeries tables, with the first column */
    int keycode = column_code(h, tab, keycol);
    if (keycode < 0) return ixv_seterr(err, TS_E_NO_COLUMN, 0, 0, "%s", keycol);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(h, "INSERT INTO _ixd_ts_columns VALUES(?1, ?2, ?3, ?4, ?5)", -1,
                                &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, rowtype, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, keycol, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 5, keycode);
        rc = sqlite3_step(st);
        sqlite3_finalize(st);
    }
    if (rc != SQLITE_DONE)
        return ixv_seterr(err, rc == SQLITE_FULL ? IXV_E_CATALOG_UPDATE : IXV_E_TEXT, 0, 0, "%s",
                          sqlite3_errmsg(h));
    return make_trigger(h, tab, keycol, err);
}

/* Deletes the series of table tab (gone_only: only those of TIMESERIES
 * columns the table no longer has), their chunks and heads, and their
 * column records. */
static int drop_series(sqlite3 *h, const char *tab, int gone_only, ixv_err *err) {
    sb q = {0}, t = {0}, which = {0};
    ixv_sb_strlit(&t, tab, strlen(tab));
    const char *lit = t.p ? t.p : "''";
    ixv_sb_printf(&which, "tab = %s", lit);
    if (gone_only)
        ixv_sb_printf(&which,
                      " AND col NOT IN (SELECT c.colname FROM _ixd_columns c JOIN _ixd_tables tt "
                      "ON tt.tabid = c.tabid WHERE tt.tabname = %s)",
                      lit);
    const char *w = which.p ? which.p : "0";
    ixv_sb_printf(
        &q,
        "DELETE FROM _ixd_ts_chunk WHERE sid IN (SELECT sid FROM _ixd_ts_series WHERE %s);"
        "DELETE FROM _ixd_ts_head WHERE sid IN (SELECT sid FROM _ixd_ts_series WHERE %s);"
        "DELETE FROM _ixd_ts_series WHERE %s; DELETE FROM _ixd_ts_columns WHERE %s;",
        w, w, w, w);
    int rc = q.oom || t.oom || which.oom ? ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL)
                                         : exec_err(h, q.p, err);
    ixv_sb_free(&q);
    ixv_sb_free(&t);
    ixv_sb_free(&which);
    return rc;
}

int ixts_table_altered(sqlite3 *h, const char *tab, const char *keycol, ixv_err *err) {
    if (!have_schema(h)) return 0;
    /* the series of TIMESERIES columns the ALTER dropped go with them */
    if (drop_series(h, tab, 1, err)) return -1;
    /* the columns that remain keep their key and their trigger */
    sqlite3_stmt *st;
    int n = 0;
    if (sqlite3_prepare_v2(h, "SELECT count(*) FROM _ixd_ts_columns WHERE tab = ?1", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    if (!n) return 0;
    if (!keycol)
        return ixv_seterr(err, TS_E_ROUTINE, 0, 0,
                          "Table %s with a TIMESERIES column needs a one-column primary key", tab);
    int keycode = column_code(h, tab, keycol);
    if (sqlite3_prepare_v2(h, "UPDATE _ixd_ts_columns SET keycol = ?2, keytype = ?3 WHERE tab = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return ixv_seterr(err, IXV_E_TEXT, 0, 0, "%s", sqlite3_errmsg(h));
    sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, keycol, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, keycode);
    int r = sqlite3_step(st);
    sqlite3_finalize(st);
    if (r != SQLITE_DONE) return ixv_seterr(err, IXV_E_TEXT, 0, 0, "%s", sqlite3_errmsg(h));
    return make_trigger(h, tab, keycol, err);
}

int ixts_column_rowtype(sqlite3 *h, const char *tab, const char *col, char *buf, size_t n) {
    if (!have_schema(h)) return 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, "SELECT rowtype FROM _ixd_ts_columns WHERE tab = ?1 AND col = ?2", -1,
                           &st, NULL))
        return -1;
    sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(st, 0));
        found = 1;
    } else if (rc != SQLITE_DONE)
        found = -1;
    sqlite3_finalize(st);
    return found;
}

int ixts_table_dropped(sqlite3 *h, const char *tab, ixv_err *err) {
    return have_schema(h) ? drop_series(h, tab, 0, err) : 0;
}
