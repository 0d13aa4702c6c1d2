/*
 * ixd_dbstmt.c: the database statements of a session run (CREATE DATABASE,
 * DROP DATABASE, DATABASE, CLOSE DATABASE), as the translator parsed them
 * (ixs_dbstmt_parse).
 */
#include <sys/stat.h>

#include "ixd_int.h"

/* Opens database name as the session's current one (the old one closed). */
static int switch_db(ixd_engine *e, const char *user, const char *name, ixd_db **dbp, int *dbflags,
                     ixv_err *err) {
    ixd_db *ndb;
    int fl = 0;
    if (ixd_db_open(e, name, user, &ndb, &fl, err)) return -1;
    ixd_db_close(*dbp);
    *dbp = ndb;
    if (dbflags) *dbflags = fl;
    return 1;
}

/* CREATE DATABASE: -330 when it exists (with IF NOT EXISTS the existing
 * database becomes the current one, as a new one would); the new database
 * becomes the current one. */
static int create_db(ixd_engine *e, const char *user, const ixs_dbstmt *d, ixd_db **dbp,
                     int *dbflags, ixv_err *err) {
    char path[4096];
    if (ixd_db_path(e, d->name, path, sizeof path, err)) return -1;
    struct stat st;
    if (stat(path, &st) == 0)
        return d->if_flag ? switch_db(e, user, d->name, dbp, dbflags, err)
                          : ixv_seterr(err, IXV_E_CREATE_DB, 0, 0, "%s", d->name);
    if (ixd_create_database(e, d->name, d->logmode, user, err)) return -1;
    return switch_db(e, user, d->name, dbp, dbflags, err);
}

int ixd_session_exec(ixd_engine *e, const char *user, const char *sql, size_t n, ixd_db **dbp,
                     int *dbflags, ixv_err *err) {
    ixd_db *cur = *dbp;
    if (cur) ixd_txn_sync(cur); /* every statement: SQLite may have rolled back by itself */
    ixs_dbstmt d;
    int rc = ixs_dbstmt_parse(sql, n, &d, err);
    if (d.kind == IXS_DB_NONE) return rc;
    /* CREATE, DATABASE and CLOSE inside a transaction: -377 before any
     * other error of the statement */
    if (d.kind != IXS_DB_DROP && cur && cur->x.in_txn && cur->x.logmode != IXS_LOGMODE_ANSI)
        return ixv_seterr(err, IXV_E_CLOSE_IN_TXN, 0, 0, NULL);
    if (rc < 0) return -1;
    switch (d.kind) {
    case IXS_DB_CREATE: return create_db(e, user, &d, dbp, dbflags, err);
    case IXS_DB_DROP: return ixd_drop_database(e, d.name, cur, d.if_flag, err) ? -1 : 1;
    case IXS_DB_OPEN: return switch_db(e, user, d.name, dbp, dbflags, err);
    default: /* IXS_DB_CLOSE */
        if (!cur) return ixv_seterr(err, IXV_E_NO_DB_SELECTED, 0, 0, NULL);
        ixd_db_close(cur);
        *dbp = NULL;
        return 1;
    }
}
