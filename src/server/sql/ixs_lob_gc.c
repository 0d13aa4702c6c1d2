/*
 * ixs_lob_gc.c: LOs that no row holds any more are deleted, as Informix's
 * reference counts do (docs/server.md "Smart large objects", "When an LO
 * goes").
 *
 * _ixd_lo.refs counts the rows that hold an LO. Three SQLite triggers on
 * each table with BLOB/CLOB columns keep it (made with the table and again
 * after every rebuild of it):
 *   _ixd_lo_i_<table>  AFTER INSERT: refs + 1 for each new LOB value
 *   _ixd_lo_d_<table>  AFTER DELETE: refs - 1 for each old value
 *   _ixd_lo_u_<table>  AFTER UPDATE OF the LOB columns: -1 / +1 where a
 *                      value changed
 * DROP TABLE (which fires no trigger) and ALTER TABLE's rebuild count the
 * table's values down (and the rebuilt table's up) themselves.
 *
 * An LO whose count fell to 0 is deleted at the end of the transaction
 * (COMMIT, or the statement outside one) unless the session has it open.
 * An LO that no row ever held (refs NULL: made by ifx_lo_create, FILETOBLOB,
 * a bound value, ...) lives until the end of the session that made it, as
 * Informix's transient LOs do; a transaction that rolls back takes its LOs
 * with it (they are rows of the database file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_lob_int.h"

#define LO_KEY_SHIFT 20 /* as the page keys of ixs_lob.c */

static int run(ixs_conn *db, char *sql, ixv_err *err) {
    if (!sql) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
    sqlite3_free(sql);
    return rc == SQLITE_OK ? 0 : ixs_sqlite_err(db, rc, 0, NULL, err);
}

static int has_lobs(const tdef *t) {
    for (int i = 0; i < t->ncols; i++)
        if (ixv_lob_is(t->cols[i].t.code)) return 1;
    return 0;
}

/* Drops the LO triggers of table (whatever name they were made under: a
 * RENAME TABLE keeps the old names). */
static int drop_hooks(ixs_conn *db, const char *table, ixv_err *err) {
    sqlite3_stmt *st;
    char *names = NULL;
    int rc =
        sqlite3_prepare_v2(db->h,
                           "SELECT group_concat('DROP TRIGGER \"' || replace(name, '\"', '\"\"')"
                           " || '\";', '') FROM sqlite_master WHERE type = 'trigger' AND"
                           " tbl_name = ?1 AND name LIKE '\\_ixd\\_lo\\_%' ESCAPE '\\'",
                           -1, &st, NULL);
    if (rc != SQLITE_OK) return ixs_sqlite_err(db, rc, 0, NULL, err);
    char stn[IXV_STNAME_MAX + 1];
    sqlite3_bind_text(st, 1, ixv_stname(table, stn, sizeof stn), -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        names = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return names ? run(db, names, err) : 0;
}

/* One trigger: "CREATE TRIGGER ... BEGIN <per column> <tail> END;" */
static char *trigger(const tdef *t, const char *kind, const char *event, const char *col_fmt) {
    char tn[IXV_STNAME_MAX + 1], cn[IXV_STNAME_MAX + 1];
    const char *tab = ixv_stname(t->name, tn, sizeof tn);
    char *s = sqlite3_mprintf("CREATE TRIGGER \"_ixd_lo_%s_%w\" AFTER %s", kind, tab, event);
    if (s && !strcmp(kind, "u")) { /* AFTER UPDATE OF the LOB columns */
        const char *sep = " OF ";
        for (int i = 0; s && i < t->ncols; i++)
            if (ixv_lob_is(t->cols[i].t.code)) {
                char *n = sqlite3_mprintf("%s%s\"%w\"", s, sep,
                                          ixv_stname(t->cols[i].name, cn, sizeof cn));
                sqlite3_free(s);
                s = n, sep = ",";
            }
    }
    char *n = s ? sqlite3_mprintf("%s ON \"%w\" BEGIN ", s, tab) : NULL;
    sqlite3_free(s);
    s = n;
    for (int i = 0; s && i < t->ncols; i++)
        if (ixv_lob_is(t->cols[i].t.code)) {
            const char *c = ixv_stname(t->cols[i].name, cn, sizeof cn);
            n = sqlite3_mprintf(col_fmt, c, c, c, c, c, c, c, c);
            char *m = n ? sqlite3_mprintf("%s%s", s, n) : NULL;
            sqlite3_free(n);
            sqlite3_free(s);
            s = m;
        }
    n = s ? sqlite3_mprintf("%s%sEND;", s, strcmp(kind, "i") ? "SELECT ixd_lo_gone(); " : "")
          : NULL;
    sqlite3_free(s);
    return n;
}

int ixs_lob_table_hooks(ixs_conn *db, const tdef *t, ixv_err *err) {
    /* the store first: making it hooks the tables it finds, this one too */
    if (has_lobs(t) && ixs_lob_ensure_tables(db, err)) return -1;
    if (drop_hooks(db, t->name, err)) return -1;
    if (!has_lobs(t)) return 0;
    static const char up[] =
        "UPDATE _ixd_lo SET refs = coalesce(refs, 0) + 1 WHERE id = new.\"%w\";",
                      down[] =
                          "UPDATE _ixd_lo SET refs = coalesce(refs, 1) - 1 WHERE id = old.\"%w\";",
                      both[] = "UPDATE _ixd_lo SET refs = coalesce(refs, 0) + 1 WHERE id = "
                               "new.\"%w\" AND new.\"%w\" IS NOT old.\"%w\";"
                               "UPDATE _ixd_lo SET refs = coalesce(refs, 1) - 1 WHERE id = "
                               "old.\"%w\" AND new.\"%w\" IS NOT old.\"%w\";";
    if (run(db, trigger(t, "i", "INSERT", up), err) ||
        run(db, trigger(t, "d", "DELETE", down), err) ||
        run(db, trigger(t, "u", "UPDATE", both), err))
        return -1;
    return 0;
}

/* A store made or given its refs column now: the tables that already have
 * LOB columns get their triggers and their counts (their rows hold the
 * LOs they hold), before any LO is made that a trigger should count. */
int ixs_lob_upgrade(ixs_conn *db, ixv_err *err) {
    sqlite3_stmt *st;
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT t.tabname, c.colname FROM _ixd_columns c JOIN _ixd_tables t ON t.tabid ="
             " c.tabid WHERE c.coltype IN (%d, %d) ORDER BY t.tabid, c.colno",
             IX_T_BLOB, IX_T_CLOB);
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) return 0; /* no catalogue */
    tdef *ts = NULL;
    int nt = 0, rc = 0;
    while (!rc && sqlite3_step(st) == SQLITE_ROW) {
        const char *tn = (const char *)sqlite3_column_text(st, 0),
                   *cn = (const char *)sqlite3_column_text(st, 1);
        if (!tn || !cn) continue;
        if (!nt || strcmp(ts[nt - 1].name, tn)) {
            tdef *n = realloc(ts, (size_t)(nt + 1) * sizeof *ts);
            if (!n) {
                rc = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
                break;
            }
            ts = n;
            memset(&ts[nt], 0, sizeof ts[nt]);
            snprintf(ts[nt++].name, sizeof ts->name, "%s", tn);
        }
        tdef *t = &ts[nt - 1];
        cdef *c = realloc(t->cols, (size_t)(t->ncols + 1) * sizeof *c);
        if (!c) {
            rc = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
            break;
        }
        t->cols = c;
        memset(&c[t->ncols], 0, sizeof *c);
        snprintf(c[t->ncols].name, sizeof c->name, "%s", cn);
        c[t->ncols++].t.code = IX_T_BLOB;
    }
    sqlite3_finalize(st);
    for (int i = 0; i < nt; i++) {
        if (!rc) rc = ixs_lob_table_hooks(db, &ts[i], err);
        if (!rc) rc = ixs_lob_table_refs(db, &ts[i], 1, err);
        free(ts[i].cols);
    }
    free(ts);
    return rc;
}

int ixs_lob_table_refs(ixs_conn *db, const tdef *t, int delta, ixv_err *err) {
    if (!has_lobs(t)) return 0;
    if (ixs_lob_ensure_tables(db, err)) return -1;
    for (int i = 0; i < t->ncols; i++) {
        if (!ixv_lob_is(t->cols[i].t.code)) continue;
        char cn[IXV_STNAME_MAX + 1], tn[IXV_STNAME_MAX + 1];
        const char *c = ixv_stname(t->cols[i].name, cn, sizeof cn);
        /* the count of the table's rows that hold each LO, added or taken */
        char *sql = sqlite3_mprintf(
            "WITH n(id, k) AS (SELECT \"%w\", count(*) FROM \"%w\" WHERE \"%w\" IS NOT NULL"
            " GROUP BY 1) UPDATE _ixd_lo SET refs = %s FROM n WHERE _ixd_lo.id = n.id;",
            c, ixv_stname(t->name, tn, sizeof tn), c,
            delta > 0 ? "coalesce(refs, 0) + n.k" : "coalesce(refs, n.k) - n.k");
        if (run(db, sql, err)) return -1;
    }
    if (delta < 0 && ixs_lob_sess(db)) db->lob->gone = 1;
    return 0;
}

/* "id NOT IN (...)" for the LOs the session has open ("1" when none). */
static char *open_ones(ixs_conn *db) {
    char *s = sqlite3_mprintf("1");
    const char *sep = " AND id NOT IN (";
    for (int i = 0; s && db->lob && i < IXS_LO_MAXFD; i++)
        if (db->lob->fd[i].used) {
            char *n = sqlite3_mprintf("%s%s%lld", s, sep, (long long)db->lob->fd[i].id);
            sqlite3_free(s);
            s = n, sep = ",";
        }
    if (s && strcmp(sep, ",") == 0) {
        char *n = sqlite3_mprintf("%s)", s);
        sqlite3_free(s);
        s = n;
    }
    return s;
}

/* Deletes the LOs that match cond (and are not open here), pages first. */
static int delete_where(ixs_conn *db, const char *cond, ixv_err *err) {
    char *keep = open_ones(db);
    if (!keep) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    char *sql = sqlite3_mprintf(
        "DELETE FROM _ixd_lo_data WHERE k IN (SELECT d.k FROM _ixd_lo l, _ixd_lo_data d"
        " WHERE (%s) AND %s AND d.k >= l.id << %d AND d.k < (l.id + 1) << %d);"
        "DELETE FROM _ixd_lo AS l WHERE (%s) AND %s;",
        cond, keep, LO_KEY_SHIFT, LO_KEY_SHIFT, cond, keep);
    sqlite3_free(keep);
    return run(db, sql, err);
}

static int store_exists(ixs_conn *db) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT refs FROM _ixd_lo LIMIT 0", -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_finalize(st);
    return 1;
}

/* Runs f inside the open transaction, or in one savepoint of its own. */
static int atomically(ixs_conn *db, int (*f)(ixs_conn *, ixv_err *), ixv_err *err) {
    if (!sqlite3_get_autocommit(db->h)) return f(db, err);
    if (sqlite3_exec(db->h, "SAVEPOINT ixd_lo_gc", NULL, NULL, NULL) != SQLITE_OK) return -1;
    int rc = f(db, err);
    sqlite3_exec(db->h, rc ? "ROLLBACK TO ixd_lo_gc; RELEASE ixd_lo_gc" : "RELEASE ixd_lo_gc", NULL,
                 NULL, NULL);
    return rc;
}

static int collect(ixs_conn *db, ixv_err *err) {
    return delete_where(db, "l.refs <= 0", err);
}

void ixs_lob_stmt_end(ixs_conn *db) {
    if (!db || !db->h || !db->lob || !db->lob->gone || !sqlite3_get_autocommit(db->h)) return;
    /* not in the middle of another statement (a routine's, a cursor's) */
    for (sqlite3_stmt *st = sqlite3_next_stmt(db->h, NULL); st; st = sqlite3_next_stmt(db->h, st))
        if (sqlite3_stmt_busy(st)) return;
    ixs_lob_gc(db);
}

int ixs_lob_drop_table(px *p, const char *table) {
    tdef t;
    int rc = ixs_tdef_load(p, table, &t) > 0 ? ixs_lob_table_refs(p->db, &t, -1, p->err) : 0;
    ixs_tdef_free(&t);
    if (rc) p->failed = 1;
    return rc;
}

void ixs_lob_gc(ixs_conn *db) {
    if (!db || !db->h || !db->lob || !db->lob->gone) return;
    db->lob->gone = 0;
    ixv_err e = {0};
    if (store_exists(db)) atomically(db, collect, &e);
}

/* The session's own LOs that no row ever held, and the ones let go. */
static int collect_all(ixs_conn *db, ixv_err *err) {
    struct ixs_lobsess *ls = db->lob;
    for (size_t i = 0; i < ls->nmade;) {
        size_t k = ls->nmade - i < 256 ? ls->nmade - i : 256;
        char *ids = sqlite3_mprintf("l.refs IS NULL AND l.id IN (%lld", (long long)ls->made[i]);
        for (size_t j = 1; ids && j < k; j++) {
            char *n = sqlite3_mprintf("%s,%lld", ids, (long long)ls->made[i + j]);
            sqlite3_free(ids);
            ids = n;
        }
        char *cond = ids ? sqlite3_mprintf("%s)", ids) : NULL;
        sqlite3_free(ids);
        if (!cond) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
        int rc = delete_where(db, cond, err);
        sqlite3_free(cond);
        if (rc) return -1;
        i += k;
    }
    return collect(db, err);
}

void ixs_lob_close(ixs_conn *db) {
    if (db->lob && db->h && sqlite3_get_autocommit(db->h) && store_exists(db)) {
        ixv_err e = {0};
        for (int i = 0; i < IXS_LO_MAXFD; i++) /* descriptors end with the session */
            db->lob->fd[i].used = 0;
        atomically(db, collect_all, &e);
    }
    ixs_lob_free_sess(db);
}

int64_t ixs_lob_count(ixs_conn *db) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT count(*) FROM _ixd_lo", -1, &st, NULL) != SQLITE_OK)
        return 0; /* no store yet */
    int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return n;
}
