/*
 * ixd_host.c: the engine's side of the translator's interface (ixs_host in
 * sql/ixs.h): each entry takes the translator's part of a connection or a
 * statement and calls the engine's function on the whole.
 */
#include "ixd_int.h"

static int h_prepare(ixs_conn *c, const char *sql, size_t n, ixs_stmt **out, ixv_err *err) {
    ixd_stmt *s = NULL;
    int rc = ixd_prepare(ixd_db_of(c), sql, n, &s, err);
    *out = s ? &s->x : NULL;
    return rc;
}
static int h_execute(ixs_stmt *s, int64_t *rows, ixv_err *err) {
    int32_t serial;
    int64_t serial8;
    return ixd_execute(ixd_stmt_of(s), rows, &serial, &serial8, err);
}
static int h_open(ixs_stmt *s, ixv_err *err) {
    return ixd_open(ixd_stmt_of(s), 0, err);
}
static int h_fetch(ixs_stmt *s, ixb_wbuf *out, ixv_err *err) {
    return ixd_fetch(ixd_stmt_of(s), out, err);
}
static void h_stmt_free(ixs_stmt *s) {
    ixd_stmt_free(ixd_stmt_of(s));
}
static int h_stmt_is_cursor(const ixs_stmt *s) {
    return ixd_stmt_is_cursor((const ixd_stmt *)s);
}
static ixs_stmt *h_cursor(ixs_conn *c, const char *name, int *open) {
    ixd_db *db = ixd_db_of(c);
    ixd_stmt *s = db->cursor_fn ? db->cursor_fn(db->cursor_ud, name) : NULL;
    *open = s && s->open;
    return s ? &s->x : NULL;
}
static int h_exec(ixs_conn *c, const char *sql, ixv_err *err) {
    return ixd_exec(ixd_db_of(c), sql, err);
}
static int h_sqlite_err(ixs_conn *c, int rc, int stype, const char *table, ixv_err *err) {
    return ixd_sqlite_err(ixd_db_of(c), rc, stype, table, err);
}
static int h_cat_table(ixs_conn *c, const char *name, itab *out, ixv_err *err) {
    return ixd_cat_table(ixd_db_of(c), name, out, err);
}
static int h_temp_catalog(ixs_conn *c, ixv_err *err) {
    return ixd_temp_catalog(ixd_db_of(c), err);
}
static unsigned h_data_version(ixs_conn *c, int fresh) {
    return ixd_data_version(ixd_db_of(c), fresh);
}
static int h_begin(ixs_conn *c, ixv_err *err) {
    return ixd_sql_begin(ixd_db_of(c), err);
}
static int h_commit(ixs_conn *c, ixv_err *err) {
    return ixd_sql_commit(ixd_db_of(c), err);
}
static int h_rollback(ixs_conn *c, ixv_err *err) {
    return ixd_sql_rollback(ixd_db_of(c), err);
}
static int h_ansi_autobegin(ixs_conn *c, ixv_err *err) {
    return ixd_ansi_autobegin(ixd_db_of(c), err);
}
static void h_txn_sync(ixs_conn *c) {
    ixd_txn_sync(ixd_db_of(c));
}
static void h_set_busy(ixs_conn *c) {
    ixd_set_busy(ixd_db_of(c));
}
static const char *h_server_name(const ixs_conn *c) {
    return ixd_engine_server_name(((const ixd_db *)c)->e);
}
static int h_db_path(const ixs_conn *c, const char *name, char *buf, size_t n, ixv_err *err) {
    return ixd_db_path(((const ixd_db *)c)->e, name, buf, n, err);
}

const ixs_host ixd_host = {
    .prepare = h_prepare,
    .execute = h_execute,
    .open = h_open,
    .fetch = h_fetch,
    .stmt_free = h_stmt_free,
    .stmt_is_cursor = h_stmt_is_cursor,
    .cursor = h_cursor,
    .exec = h_exec,
    .sqlite_err = h_sqlite_err,
    .cat_table = h_cat_table,
    .temp_catalog = h_temp_catalog,
    .data_version = h_data_version,
    .begin = h_begin,
    .commit = h_commit,
    .rollback = h_rollback,
    .ansi_autobegin = h_ansi_autobegin,
    .txn_sync = h_txn_sync,
    .set_busy = h_set_busy,
    .server_name = h_server_name,
    .db_path = h_db_path,
};
