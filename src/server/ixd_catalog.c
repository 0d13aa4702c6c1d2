/* ixd_catalog.c: ixd's own catalog inside each database file (_ixd_* tables)
 * and the Informix system catalog views built on it (systables, syscolumns,
 * sysindexes, sysindices, sysusers, sysconstraints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "server/sql/ixs.h"

static const char *cat_ddl =
    "CREATE TABLE _ixd_meta(k TEXT PRIMARY KEY, v);"
    "CREATE TABLE _ixd_tables(tabid INTEGER PRIMARY KEY, tabname TEXT UNIQUE NOT NULL,"
    " owner TEXT, created INTEGER, tabtype TEXT DEFAULT 'T', rowsize INTEGER DEFAULT 0,"
    " serial_next INTEGER DEFAULT 1, serial8_next INTEGER DEFAULT 1, site TEXT);"
    "CREATE TABLE _ixd_columns(tabid INTEGER, colno INTEGER, colname TEXT, coltype INTEGER,"
    " collength INTEGER, serial INTEGER DEFAULT 0, defsql TEXT, PRIMARY KEY(tabid, colno));"
    "CREATE TABLE _ixd_indexes(idxname TEXT PRIMARY KEY, owner TEXT, tabid INTEGER,"
    " idxtype TEXT, clustered TEXT DEFAULT '-', is_constraint INTEGER DEFAULT 0, cols TEXT,"
    " part1 INTEGER DEFAULT 0, part2 INTEGER DEFAULT 0, part3 INTEGER DEFAULT 0,"
    " part4 INTEGER DEFAULT 0, part5 INTEGER DEFAULT 0, part6 INTEGER DEFAULT 0,"
    " part7 INTEGER DEFAULT 0, part8 INTEGER DEFAULT 0, part9 INTEGER DEFAULT 0,"
    " part10 INTEGER DEFAULT 0, part11 INTEGER DEFAULT 0, part12 INTEGER DEFAULT 0,"
    " part13 INTEGER DEFAULT 0, part14 INTEGER DEFAULT 0, part15 INTEGER DEFAULT 0,"
    " part16 INTEGER DEFAULT 0);"
    "CREATE TABLE _ixd_constraints(constrid INTEGER PRIMARY KEY, constrname TEXT UNIQUE,"
    " owner TEXT, tabid INTEGER, constrtype TEXT, idxname TEXT, cols TEXT, reftabid INTEGER,"
    " refcols TEXT, ondelete TEXT, checktext TEXT);"
    "CREATE TABLE _ixd_users(username TEXT PRIMARY KEY, usertype TEXT);"
    "CREATE VIEW systables AS SELECT tabname, owner, 1048576 + tabid AS partnum, tabid,"
    " rowsize, (SELECT count(*) FROM _ixd_columns c WHERE c.tabid = t.tabid) AS ncols,"
    " (SELECT count(*) FROM _ixd_indexes i WHERE i.tabid = t.tabid) AS nindexes,"
    " 0.0 AS nrows, created, tabid * 65536 AS version, tabtype, 'P' AS locklevel,"
    " 0.0 AS npused, 16 AS fextsize, 16 AS nextsize, 0 AS flags, site, NULL AS dbname"
    " FROM _ixd_tables t ORDER BY tabid;"
    /* a collection's collength holds its element type (ixs_collection.c) */
    "CREATE VIEW syscolumns AS SELECT colname, tabid, colno, coltype,"
    " CASE WHEN coltype & 255 BETWEEN 19 AND 21 THEN 2048 ELSE collength END AS collength,"
    " 0 AS colmin, 0 AS colmax, CASE coltype & 255 WHEN 43 THEN 1 WHEN 45 THEN 5 ELSE 0 END"
    " AS extended_id FROM _ixd_columns;"
    "CREATE VIEW sysindexes AS SELECT idxname, owner, tabid, idxtype, clustered, part1, part2,"
    " part3, part4, part5, part6, part7, part8, part9, part10, part11, part12, part13, part14,"
    " part15, part16, 1 AS levels, 1 AS leaves, 0 AS nunique, 0 AS clust FROM _ixd_indexes;"
    "CREATE VIEW sysindices AS SELECT idxname, owner, tabid, idxtype, clustered, 1 AS levels,"
    " 1 AS leaves, 0 AS nunique, 0 AS clust, 0.0 AS nrows FROM _ixd_indexes;"
    "CREATE VIEW sysusers AS SELECT username, usertype, 0 AS priority, NULL AS password,"
    " NULL AS defrole FROM _ixd_users;"
    "CREATE VIEW sysconstraints AS SELECT constrid, constrname, owner, tabid, constrtype,"
    " idxname FROM _ixd_constraints;";

/* sysdatabases reads the eponymous virtual table _ixd_databases
 * (ixd_catalog_vt.c). Files made before it had its internal name read
 * "ixd_databases" (ixs_cat_upgrade replaces that view). */
static const char *sysdatabases_ddl =
    "CREATE VIEW sysdatabases AS SELECT name, 1048576 + rowid AS partnum, 'informix' AS owner,"
    " created, CASE WHEN logmode > 0 THEN 1 ELSE 0 END AS is_logging,"
    " CASE WHEN logmode = 2 THEN 1 ELSE 0 END AS is_buff_log,"
    " CASE WHEN logmode = 3 THEN 1 ELSE 0 END AS is_ansi, 0 AS is_nls, 0 AS flags"
    " FROM " IXS_INTERNAL_PREFIX "databases ORDER BY name;";
#define OLD_SYSDATABASES_FROM " FROM ixd_databases "

int ixs_internal_name(const char *name) {
    static const char *const prefixes[] = {IXS_INTERNAL_PREFIX, "sqlite_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncasecmp(name, prefixes[i], strlen(prefixes[i]))) return 1;
    return 0;
}

/* The catalog tables as Informix types them: name, type code, length. */
typedef struct catcol {
    const char *name;
    int code;
    uint32_t len;
} catcol;
#define VC(n) IX_T_VARCHAR, n
static const catcol c_systables[] = {{"tabname", VC(128)},
                                     {"owner", IX_T_CHAR, 32},
                                     {"partnum", IX_T_INTEGER, 4},
                                     {"tabid", IX_T_SERIAL, 4},
                                     {"rowsize", IX_T_SMALLINT, 2},
                                     {"ncols", IX_T_SMALLINT, 2},
                                     {"nindexes", IX_T_SMALLINT, 2},
                                     {"nrows", IX_T_FLOAT, 8},
                                     {"created", IX_T_DATE, 4},
                                     {"version", IX_T_INTEGER, 4},
                                     {"tabtype", IX_T_CHAR, 1},
                                     {"locklevel", IX_T_CHAR, 1},
                                     {"npused", IX_T_FLOAT, 8},
                                     {"fextsize", IX_T_INTEGER, 4},
                                     {"nextsize", IX_T_INTEGER, 4},
                                     {"flags", IX_T_SMALLINT, 2},
                                     {"site", VC(128)},
                                     {"dbname", VC(128)},
                                     {NULL, 0, 0}};
static const catcol c_syscolumns[] = {
    {"colname", VC(128)},          {"tabid", IX_T_INTEGER, 4},       {"colno", IX_T_SMALLINT, 2},
    {"coltype", IX_T_SMALLINT, 2}, {"collength", IX_T_SMALLINT, 2},  {"colmin", IX_T_INTEGER, 4},
    {"colmax", IX_T_INTEGER, 4},   {"extended_id", IX_T_INTEGER, 4}, {NULL, 0, 0}};
static const catcol c_sysindexes[] = {{"idxname", VC(128)},         {"owner", IX_T_CHAR, 32},
                                      {"tabid", IX_T_INTEGER, 4},   {"idxtype", IX_T_CHAR, 1},
                                      {"clustered", IX_T_CHAR, 1},  {"part1", IX_T_SMALLINT, 2},
                                      {"part2", IX_T_SMALLINT, 2},  {"part3", IX_T_SMALLINT, 2},
                                      {"part4", IX_T_SMALLINT, 2},  {"part5", IX_T_SMALLINT, 2},
                                      {"part6", IX_T_SMALLINT, 2},  {"part7", IX_T_SMALLINT, 2},
                                      {"part8", IX_T_SMALLINT, 2},  {"part9", IX_T_SMALLINT, 2},
                                      {"part10", IX_T_SMALLINT, 2}, {"part11", IX_T_SMALLINT, 2},
                                      {"part12", IX_T_SMALLINT, 2}, {"part13", IX_T_SMALLINT, 2},
                                      {"part14", IX_T_SMALLINT, 2}, {"part15", IX_T_SMALLINT, 2},
                                      {"part16", IX_T_SMALLINT, 2}, {"levels", IX_T_SMALLINT, 2},
                                      {"leaves", IX_T_INTEGER, 4},  {"nunique", IX_T_INTEGER, 4},
                                      {"clust", IX_T_INTEGER, 4},   {NULL, 0, 0}};
static const catcol c_sysindices[] = {{"idxname", VC(128)},
                                      {"owner", IX_T_CHAR, 32},
                                      {"tabid", IX_T_INTEGER, 4},
                                      {"idxtype", IX_T_CHAR, 1},
                                      {"clustered", IX_T_CHAR, 1},
                                      {"levels", IX_T_SMALLINT, 2},
                                      {"leaves", IX_T_INTEGER, 4},
                                      {"nunique", IX_T_INTEGER, 4},
                                      {"clust", IX_T_INTEGER, 4},
                                      {"nrows", IX_T_FLOAT, 8},
                                      {NULL, 0, 0}};
static const catcol c_sysusers[] = {{"username", IX_T_CHAR, 32},    {"usertype", IX_T_CHAR, 1},
                                    {"priority", IX_T_SMALLINT, 2}, {"password", IX_T_CHAR, 16},
                                    {"defrole", IX_T_CHAR, 32},     {NULL, 0, 0}};
static const catcol c_sysconstraints[] = {{"constrid", IX_T_SERIAL, 4},
                                          {"constrname", VC(128)},
                                          {"owner", IX_T_CHAR, 32},
                                          {"tabid", IX_T_INTEGER, 4},
                                          {"constrtype", IX_T_CHAR, 1},
                                          {"idxname", VC(128)},
                                          {NULL, 0, 0}};

static const catcol c_sysdatabases[] = {{"name", VC(128)},
                                        {"partnum", IX_T_INTEGER, 4},
                                        {"owner", IX_T_CHAR, 32},
                                        {"created", IX_T_DATE, 4},
                                        {"is_logging", IX_T_INTEGER, 4},
                                        {"is_buff_log", IX_T_INTEGER, 4},
                                        {"is_ansi", IX_T_INTEGER, 4},
                                        {"is_nls", IX_T_INTEGER, 4},
                                        {"flags", IX_T_SMALLINT, 2},
                                        {NULL, 0, 0}};

static const struct {
    const char *name;
    int tabid;
    const char *type;
    const catcol *cols;
} cat_tabs[] = {
    {"systables", 1, "T", c_systables},
    {"syscolumns", 2, "T", c_syscolumns},
    {"sysindices", 3, "T", c_sysindices},
    {"sysusers", 7, "T", c_sysusers},
    {"sysconstraints", 11, "T", c_sysconstraints},
    {"sysindexes", 50, "V", c_sysindexes},
    {"sysdatabases", 60, "V", c_sysdatabases},
};

static int32_t today_days(void) {
    time_t t = time(NULL);
    struct tm tmv;
    localtime_r(&t, &tmv);
    int32_t d = 0;
    ix_date_from_ymd(tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday, &d);
    return d;
}

static int xexec(sqlite3 *h, const char *sql, ixd_err *err) {
    char *msg = NULL;
    int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (ixs_no_space(h, rc)) {
        ixd_seterr(err, IXS_E_CREATE_DB, IXS_ISAM_NO_SPACE, 0, NULL);
        sqlite3_free(msg);
        return -1;
    }
    if (rc != SQLITE_OK) {
        ixd_seterr(err, -999, 0, 0, "%s", msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int ixs_cat_init(sqlite3 *h, int logmode, const char *user, ixd_err *err) {
    if (xexec(h, "BEGIN IMMEDIATE", err)) return -1;
    if (xexec(h, cat_ddl, err) || xexec(h, sysdatabases_ddl, err)) goto fail;
    sb q = {0};
    int32_t today = today_days();
    sb_printf(&q, "INSERT INTO _ixd_meta VALUES('logmode', %d), ('created', %d);", logmode,
              (int)today);
    for (size_t i = 0; i < sizeof cat_tabs / sizeof cat_tabs[0]; i++) {
        int ncol = 0, rowsize = 0;
        for (const catcol *c = cat_tabs[i].cols; c->name; c++) {
            ncol++;
            sb_printf(&q,
                      "INSERT INTO _ixd_columns(tabid,colno,colname,coltype,collength)"
                      " VALUES(%d,%d,'%s',%d,%u);",
                      cat_tabs[i].tabid, ncol, c->name, c->code, c->len);
            rowsize += c->code == IX_T_VARCHAR ? (int)c->len + 1 : (int)c->len;
        }
        sb_printf(&q,
                  "INSERT INTO _ixd_tables(tabid,tabname,owner,created,tabtype,rowsize)"
                  " VALUES(%d,'%s','informix',%d,'%s',%d);",
                  cat_tabs[i].tabid, cat_tabs[i].name, (int)today, cat_tabs[i].type, rowsize);
    }
    sb_printf(&q,
              "INSERT INTO _ixd_tables(tabid,tabname,owner,created,tabtype,site) VALUES"
              "(90,' GL_COLLATE','informix',%d,'L','en_US.819'),"
              "(91,' GL_CTYPE','informix',%d,'L','en_US.819');",
              (int)today, (int)today);
    sb_add(&q, "INSERT INTO _ixd_users VALUES('informix','D');");
    if (user && *user && strcmp(user, "informix")) {
        sb_add(&q, "INSERT OR IGNORE INTO _ixd_users VALUES(");
        sb_strlit(&q, user, strlen(user));
        sb_add(&q, ",'D');");
    }
    if (q.oom) {
        sb_free(&q);
        ixd_seterr(err, -208, 0, 0, NULL);
        goto fail;
    }
    int r = xexec(h, q.p, err);
    sb_free(&q);
    if (r) goto fail;
    return xexec(h, "COMMIT", err);
fail:
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

void ixs_cat_upgrade(sqlite3 *h) {
    sqlite3_stmt *st;
    int old = 0;
    if (sqlite3_prepare_v2(h,
                           "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = "
                           "'sysdatabases'",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *sql = (const char *)sqlite3_column_text(st, 0);
        old = sql && strstr(sql, OLD_SYSDATABASES_FROM) != NULL;
    }
    sqlite3_finalize(st);
    if (!old) return;
    if (sqlite3_exec(h, "BEGIN IMMEDIATE; DROP VIEW sysdatabases;", NULL, NULL, NULL) ==
            SQLITE_OK &&
        sqlite3_exec(h, sysdatabases_ddl, NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return;
    if (!sqlite3_get_autocommit(h)) sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

int ixs_cat_logmode(sqlite3 *h) {
    sqlite3_stmt *st;
    int mode = -1;
    if (sqlite3_prepare_v2(h, "SELECT v FROM _ixd_meta WHERE k = 'logmode'", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW) mode = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return mode;
}

void ixs_itab_free(itab *t) {
    if (!t) return;
    for (int i = 0; i < t->ncols; i++)
        free(t->cols[i].defsql);
    free(t->cols);
    t->cols = NULL;
    t->ncols = 0;
}

int ixs_temp_catalog(ixd_db *db, ixd_err *err) {
    if (db->has_temp) return 0;
    if (ixs_exec(db,
                 "CREATE TEMP TABLE IF NOT EXISTS _ixd_ttables(tabid INTEGER PRIMARY KEY,"
                 " tabname TEXT UNIQUE, owner TEXT, tabtype TEXT DEFAULT 'T', serial_next INTEGER"
                 " DEFAULT 1, serial8_next INTEGER DEFAULT 1);"
                 "CREATE TEMP TABLE IF NOT EXISTS _ixd_tcolumns(tabid INTEGER, colno INTEGER,"
                 " colname TEXT, coltype INTEGER, collength INTEGER, serial INTEGER DEFAULT 0,"
                 " defsql TEXT, PRIMARY KEY(tabid, colno));",
                 err))
        return -1;
    db->has_temp = 1;
    return 0;
}

/* The catalog lookups every statement that names a table makes, prepared
 * once per connection (SQLite prepares them again by itself after a schema
 * change) and reset after each use, so that they hold no read transaction. */
static const char *const CAT_SQL[IXS_CAT_NSTMT] = {
    "SELECT tabid, owner, tabtype FROM _ixd_ttables WHERE tabname = ?",
    "SELECT tabid, owner, tabtype FROM _ixd_tables WHERE tabname = ?",
    "SELECT colno, colname, coltype, collength, serial, defsql FROM _ixd_tcolumns WHERE tabid = ? "
    "ORDER BY colno",
    "SELECT colno, colname, coltype, collength, serial, defsql FROM _ixd_columns WHERE tabid = ? "
    "ORDER BY colno",
};
enum { CAT_TTAB, CAT_TAB, CAT_TCOLS, CAT_COLS };

static sqlite3_stmt *cat_stmt(ixd_db *db, int k) {
    if (!db->cat_st[k] && sqlite3_prepare_v3(db->h, CAT_SQL[k], -1, SQLITE_PREPARE_PERSISTENT,
                                             &db->cat_st[k], NULL) != SQLITE_OK)
        db->cat_st[k] = NULL;
    return db->cat_st[k];
}

static void cat_done(sqlite3_stmt *st) {
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

void ixs_cat_close(ixd_db *db) {
    for (int k = 0; k < IXS_CAT_NSTMT; k++) {
        sqlite3_finalize(db->cat_st[k]);
        db->cat_st[k] = NULL;
    }
}

unsigned ixs_data_version(ixd_db *db, int fresh) {
    sqlite3_stmt *st;
    if (fresh && sqlite3_get_autocommit(db->h) && (st = cat_stmt(db, CAT_TAB)) != NULL) {
        sqlite3_bind_text(st, 1, "", 0, SQLITE_STATIC);
        (void)sqlite3_step(st); /* a read transaction: sees other connections' commits */
        cat_done(st);
    }
    unsigned v = 0;
    if (sqlite3_file_control(db->h, "main", SQLITE_FCNTL_DATA_VERSION, &v) != SQLITE_OK) v = 0;
    return v;
}

/* The columns of table tabid into out (statement st, bound, stepped here).
 * Returns the last step's result. */
static int cat_columns(sqlite3_stmt *st, itab *out) {
    int rc, cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->ncols == cap) {
            cap = cap ? cap * 2 : 16;
            icol *nc = realloc(out->cols, sizeof(icol) * (size_t)cap);
            if (!nc) return SQLITE_NOMEM;
            out->cols = nc;
        }
        icol *c = &out->cols[out->ncols++];
        memset(c, 0, sizeof *c);
        c->colno = sqlite3_column_int(st, 0);
        const char *cn = (const char *)sqlite3_column_text(st, 1);
        snprintf(c->name, sizeof c->name, "%s", cn ? cn : "");
        int ct = sqlite3_column_int(st, 2);
        c->notnull = (ct & IX_TF_NOTNULL) != 0;
        c->t = ixs_t(ct & 0xff, (uint32_t)sqlite3_column_int64(st, 3));
        if (c->t.code == IX_T_VARCHAR || c->t.code == IX_T_NVARCHAR) c->t.len &= 0xff;
        c->serial = sqlite3_column_int(st, 4);
        const char *ds = (const char *)sqlite3_column_text(st, 5);
        if (ds) c->defsql = strdup(ds);
    }
    return rc;
}

int ixs_cat_table(ixd_db *db, const char *name, itab *out, ixd_err *err) {
    memset(out, 0, sizeof *out);
    if (ixs_internal_name(name)) return 0; /* never a table of user SQL */
    sqlite3_stmt *st;
    int temp = 0;
    if (db->has_temp && (st = cat_stmt(db, CAT_TTAB)) != NULL) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        temp = sqlite3_step(st) == SQLITE_ROW;
        cat_done(st);
    }
    if (!(st = cat_stmt(db, temp ? CAT_TTAB : CAT_TAB)))
        return ixs_sqlite_err(db, sqlite3_errcode(db->h), 0, name, err);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        cat_done(st);
        if (rc == SQLITE_DONE) return 0;
        return ixs_sqlite_err(db, rc, IX_STMTTYPE_SELECT, name, err);
    }
    out->tabid = sqlite3_column_int(st, 0);
    const char *ow = (const char *)sqlite3_column_text(st, 1);
    snprintf(out->owner, sizeof out->owner, "%s", ow ? ow : "");
    const char *tt = (const char *)sqlite3_column_text(st, 2);
    out->is_view = out->tabid < 100 || (tt && tt[0] == 'V');
    snprintf(out->name, sizeof out->name, "%s", name);
    cat_done(st);
    if (!(st = cat_stmt(db, temp ? CAT_TCOLS : CAT_COLS)))
        return ixs_sqlite_err(db, sqlite3_errcode(db->h), 0, name, err);
    sqlite3_bind_int(st, 1, out->tabid);
    rc = cat_columns(st, out);
    cat_done(st);
    if (rc == SQLITE_NOMEM) {
        ixs_itab_free(out);
        return ixd_seterr(err, -208, 0, 0, NULL);
    }
    if (rc != SQLITE_DONE) {
        ixs_itab_free(out);
        return ixs_sqlite_err(db, rc, IX_STMTTYPE_SELECT, name, err);
    }
    return 1;
}

int64_t ixs_serial_next(ixd_db *db, int tabid, int kind, int64_t v, int *ok) {
    *ok = 0;
    const char *col = kind == 1 ? "serial_next" : "serial8_next";
    char sql[200];
    const char *tab = tabid >= IXS_TEMP_TABID ? "_ixd_ttables" : "_ixd_tables";
    snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE tabid = %d", col, tab, tabid);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) return 0;
    int64_t next = 1;
    if (sqlite3_step(st) == SQLITE_ROW) next = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    int64_t r = v > 0 ? v : next;
    int64_t lim = kind == 1 ? INT32_MAX : INT64_MAX;
    if (r > lim || r <= 0) return 0;
    if (r >= next) {
        snprintf(sql, sizeof sql, "UPDATE %s SET %s = %lld WHERE tabid = %d", tab, col,
                 (long long)(r == INT64_MAX ? r : r + 1), tabid);
        if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK) return 0;
    }
    *ok = 1;
    return r;
}
