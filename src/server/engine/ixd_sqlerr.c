/* ixd_sqlerr.c: SQLite's failures as Informix errors (ixd_sqlite_err), by
 * SQLite's extended result code: the errors ixd's own SQL functions raise
 * (ixv_fn_err), a full disk, locks, constraints with their names, the limits
 * of the SQLite parser. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_int.h"

static int space_errno(int e) {
#ifdef EDQUOT
    if (e == EDQUOT) return 1;
#endif
    return e == ENOSPC || e == EFBIG;
}

/* The errno values SQLite recorded for its last failed system calls on h:
 * its own record (not always kept), and those of the WAL (or rollback
 * journal) file and of the database file, where the unix VFS keeps the errno
 * of a failed write. */
static void os_errnos(sqlite3 *h, int e[3]) {
    e[0] = sqlite3_system_errno(h);
    e[1] = e[2] = 0;
    sqlite3_file *j = NULL;
    if (sqlite3_file_control(h, "main", SQLITE_FCNTL_JOURNAL_POINTER, &j) == SQLITE_OK && j &&
        j->pMethods && j->pMethods->xFileControl)
        j->pMethods->xFileControl(j, SQLITE_FCNTL_LAST_ERRNO, &e[1]);
    sqlite3_file_control(h, "main", SQLITE_FCNTL_LAST_ERRNO, &e[2]);
}

int ixd_no_space(sqlite3 *h, int rc) {
    if ((rc & 0xff) == SQLITE_FULL) return 1;
    if ((rc & 0xff) != SQLITE_IOERR || !h) return 0;
    int e[3];
    os_errnos(h, e);
    return space_errno(e[0]) || space_errno(e[1]) || space_errno(e[2]);
}

int ixd_os_errno(sqlite3 *h) {
    int e[3];
    os_errnos(h, e);
    return e[0] ? e[0] : e[1] ? e[1] : e[2];
}

int ixd_no_space_code(int stype) {
    switch (stype) {
    case IX_STMTTYPE_INSERT: return IXS_E_INSERT;
    case IX_STMTTYPE_UPDATE:
    case IX_STMTTYPE_UPDATE_ALL: return IXS_E_UPDATE;
    case IX_STMTTYPE_DELETE:
    case IX_STMTTYPE_DELETE_ALL: return IXS_E_DELETE;
    case IX_STMTTYPE_SELECT: return IXS_E_TEMP_WRITE;
    case IX_STMTTYPE_EXECUTE_PROC: /* a TimeSeries routine's rows */ return IXS_E_INSERT;
    case IX_STMTTYPE_CREATE_TABLE:
    case IX_STMTTYPE_CREATE_TEMP_TABLE:
    case IX_STMTTYPE_SELECT_INTO_TEMP:
    case IX_STMTTYPE_ALTER_TABLE: /* rebuilds the table */ return IXS_E_CREATE_FILE;
    case IX_STMTTYPE_CREATE_INDEX: return IXS_E_ADD_INDEX;
    case IX_STMTTYPE_COMMIT_WORK: return IXS_E_COMMIT_FAILED;
    default: return IXS_E_CATALOG_UPDATE;
    }
}

static int lock_code(int stype) {
    switch (stype) {
    case IX_STMTTYPE_INSERT: return IXV_E_INSERT;
    case IX_STMTTYPE_UPDATE: return IXV_E_UPDATE;
    case IX_STMTTYPE_DELETE: return IXV_E_DELETE;
    case IX_STMTTYPE_SELECT: return IXV_E_READ_NEXT;
    default: return IXV_E_POSITION;
    }
}

/* Finds the index/constraint of table `tab` whose columns are `cols` (a
 * comma-separated list of names). */
static int unique_err(ixd_db *db, const char *tab, const char *cols, ixv_err *err) {
    sqlite3_stmt *st;
    const char *sql = "SELECT i.idxname, i.is_constraint, i.cols, "
                      "(SELECT constrname FROM _ixd_constraints c WHERE c.idxname = i.idxname) "
                      "FROM _ixd_indexes i JOIN _ixd_tables t ON t.tabid = i.tabid "
                      "WHERE t.tabname = ? AND i.idxtype = 'U'";
    if (sqlite3_prepare_v2(db->x.h, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *ic = (const char *)sqlite3_column_text(st, 2);
            if (ic && !strcmp(ic, cols)) {
                const char *iname = (const char *)sqlite3_column_text(st, 0);
                const char *cname = (const char *)sqlite3_column_text(st, 3);
                int isc = sqlite3_column_int(st, 1);
                char nm[IXS_NAME_MAX * 2 + 2];
                snprintf(nm, sizeof nm, "%s.%s", db->x.user,
                         isc && cname ? cname : (iname ? iname : ""));
                sqlite3_finalize(st);
                if (isc) return ixv_seterr(err, IXV_E_UNIQUE, IXV_ISAM_DUP_KEY, 0, "%s", nm);
                return ixv_seterr(err, IXV_E_DUP_INDEX, IXV_ISAM_DUP_KEY, 0, "%s", nm);
            }
        }
        sqlite3_finalize(st);
    }
    return ixv_seterr(err, IXV_E_DUP_INDEX, IXV_ISAM_DUP_KEY, 0, "%s", cols);
}

static int fk_name(ixd_db *db, const char *tab, int child, char *buf, size_t n) {
    sqlite3_stmt *st;
    const char *sql =
        child ? "SELECT constrname FROM _ixd_constraints c JOIN _ixd_tables t ON t.tabid = "
                "c.tabid WHERE t.tabname = ? AND c.constrtype = 'R' ORDER BY constrid"
              : "SELECT constrname FROM _ixd_constraints c JOIN _ixd_tables t ON t.tabid = "
                "c.reftabid WHERE t.tabname = ? AND c.constrtype = 'R' ORDER BY constrid";
    buf[0] = 0;
    if (sqlite3_prepare_v2(db->x.h, sql, -1, &st, NULL) != SQLITE_OK) return 0;
    sqlite3_bind_text(st, 1, tab, -1, SQLITE_STATIC);
    int found = 0;
    if (sqlite3_step(st) == SQLITE_ROW) {
        snprintf(buf, n, "%s.%s", db->x.user, (const char *)sqlite3_column_text(st, 0));
        found = 1;
    }
    sqlite3_finalize(st);
    return found;
}

/* ---- what only SQLite's message says ------------------------------------------------
 * The one place ixd reads SQLite's message text. The result code says what
 * failed; a few facts SQLite gives only in its message: the column of a NOT
 * NULL failure, the columns of a UNIQUE or PRIMARY KEY failure and the name
 * of a CHECK constraint ("... constraint failed: <detail>", the extended code
 * SQLITE_CONSTRAINT_*), and, inside a plain SQLITE_ERROR, the name in "no
 * such table/column", sum()'s integer overflow and a compiled-in limit of
 * SQLite's parser. (The catalogue knows a table's NOT NULL columns and
 * indexes, not which of them a row broke; the name after "failed: " is the
 * only record of it.) Returns one of the MSG_* kinds with *detail pointing
 * into msg (a name, or NULL). */
enum { MSG_OTHER, MSG_NO_TABLE, MSG_NO_COLUMN, MSG_OVERFLOW, MSG_LIMIT };
static int sqlite_msg_detail(int ext, const char *msg, const char **detail) {
    static const char *const limits[] = {"parser stack overflow",
                                         "Expression tree is too large",
                                         "too many terms in compound SELECT",
                                         "too many columns",
                                         "too many arguments on function",
                                         "too many SQL variables",
                                         "at most 64 tables in a join"};
    const char *p;
    *detail = NULL;
    if ((ext & 0xff) == SQLITE_CONSTRAINT) {
        if ((p = strstr(msg, "failed: "))) *detail = p + 8;
        return MSG_OTHER;
    }
    if (ext != SQLITE_ERROR) return MSG_OTHER;
    if (!strncmp(msg, "no such table: ", 15)) return *detail = msg + 15, MSG_NO_TABLE;
    if (!strncmp(msg, "no such column: ", 16)) return *detail = msg + 16, MSG_NO_COLUMN;
    if (strstr(msg, "integer overflow")) return MSG_OVERFLOW;
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++)
        if (strstr(msg, limits[k])) return MSG_LIMIT;
    return MSG_OTHER;
}

/* The one reader of the legacy error text "ixd:<sqlcode>[,<isam>]:<text>":
 * the RAISE(ABORT, ...) of the WITH CHECK OPTION triggers that earlier
 * versions of ixd stored in users' database files (ixs_view.c now raises
 * through ixd_raise). SQLite fails such a trigger with
 * SQLITE_CONSTRAINT_TRIGGER. Returns 1 with *err set, 0 for other text. */
static int legacy_raise(const char *msg, ixv_err *err) {
    if (strncmp(msg, "ixd:", 4)) return 0;
    int code = atoi(msg + 4);
    const char *t = strchr(msg + 4, ':'), *c = strchr(msg + 4, ',');
    int isam = c && t && c < t ? atoi(c + 1) : 0;
    ixv_seterr(err, code ? code : IXV_E_NOT_IMPLEMENTED, isam, 0, "%s", t ? t + 1 : "");
    return 1;
}

/* A constraint violation as Informix reports it (-391, -268/-239, -530,
 * -691/-692): ext is SQLite's extended code, detail what its message names
 * (sqlite_msg_detail). Returns 1 with *err set, 0 when ext is not one of
 * those. */
static int constraint_err(ixd_db *db, int ext, const char *detail, int stype, const char *table,
                          ixv_err *err) {
    const char *p = detail;
    if (ext == SQLITE_CONSTRAINT_NOTNULL && p) {
        const char *dot = strchr(p, '.');
        ixv_seterr(err, IXV_E_NULL_COLUMN, 0, 0, "%s", dot ? dot + 1 : p);
        return 1;
    }
    if ((ext == SQLITE_CONSTRAINT_UNIQUE || ext == SQLITE_CONSTRAINT_PRIMARYKEY) && p) {
        /* "t.a, t.b" -> "a,b" */
        char cols[512], tab[IXS_NAME_MAX + 1];
        size_t k = 0;
        tab[0] = 0;
        while (*p && k + 1 < sizeof cols) {
            const char *dot = strchr(p, '.');
            const char *end = strstr(p, ", ");
            if (!end) end = p + strlen(p);
            if (dot && dot < end) {
                snprintf(tab, sizeof tab, "%.*s", (int)(dot - p), p);
                p = dot + 1;
            }
            if (k) cols[k++] = ',';
            while (p < end && k + 1 < sizeof cols)
                cols[k++] = *p++;
            if (*p) p += 2;
        }
        cols[k] = 0;
        unique_err(db, tab[0] ? tab : (table ? table : ""), cols, err);
        return 1;
    }
    if (ext == SQLITE_CONSTRAINT_CHECK && p) {
        ixv_seterr(err, IXV_E_CHECK, 0, 0, "%s.%s", db->x.user, p);
        return 1;
    }
    if (ext == SQLITE_CONSTRAINT_FOREIGNKEY) {
        char nm[300];
        int child = stype != IX_STMTTYPE_DELETE;
        if (stype == IX_STMTTYPE_UPDATE && !fk_name(db, table ? table : "", 1, nm, sizeof nm))
            child = 0;
        fk_name(db, table ? table : "", child, nm, sizeof nm);
        ixv_seterr(err, child ? IXV_E_FK_NO_PARENT : IXV_E_FK_REFERENCED, 0, 0, "%s", nm);
        return 1;
    }
    return 0;
}

int ixd_sqlite_err(ixd_db *db, int rc, int stype, const char *table, ixv_err *err) {
    if (stype == IX_STMTTYPE_DELETE_ALL) stype = IX_STMTTYPE_DELETE;
    if (stype == IX_STMTTYPE_UPDATE_ALL) stype = IX_STMTTYPE_UPDATE;
    sqlite3 *h = db ? db->x.h : NULL;
    const char *msg = h ? sqlite3_errmsg(h) : sqlite3_errstr(rc);
    int ext = h ? sqlite3_extended_errcode(h) : rc;
    if (!msg) msg = "";
    ixd_txn_sync(db);
    /* an SQL function's or a virtual table's own error (ixv_fn_err) */
    if (ext == IXV_SQLITE_RAISED || rc == IXV_SQLITE_RAISED) {
        if (ixv_raised_take(err)) return -1;
        return ixv_seterr(err, IXV_E_NOT_IMPLEMENTED, 0, 0, "%.200s", msg);
    }
    ixv_raised_clear(); /* one nobody took belongs to no later failure */
    if (ixd_no_space(h, rc) || ixd_no_space(h, ext))
        return ixv_seterr(err, ixd_no_space_code(stype), IXS_ISAM_NO_SPACE, 0, "%s",
                          table ? table : "");
    if (ext == SQLITE_CONSTRAINT_TRIGGER && legacy_raise(msg, err)) return -1;
    int prim = rc & 0xff;
    if (db && db->x.interrupted) return ixv_seterr(err, IXV_E_INTERRUPTED, 0, 0, NULL);
    if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED || (ext & 0xff) == SQLITE_BUSY)
        return ixv_seterr(err, lock_code(stype),
                          db && db->x.wait_ms < 0 ? IXV_ISAM_LOCKED : IXV_ISAM_LOCK_TIMEOUT, 0,
                          "%s", table ? table : "");
    if (prim == SQLITE_NOMEM) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    if (prim == SQLITE_INTERRUPT) return ixv_seterr(err, IXV_E_INTERRUPTED, 0, 0, NULL);
    const char *detail;
    int kind = sqlite_msg_detail(ext, msg, &detail);
    sb names = {0}; /* the names detail gives, as written (ixv_sb_unstname) */
    if (detail) {
        ixv_sb_unstname(&names, detail);
        if (names.oom) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
        detail = names.p;
    }
    int done = prim == SQLITE_CONSTRAINT && constraint_err(db, ext, detail, stype, table, err);
    if (!done && (kind == MSG_NO_TABLE || kind == MSG_NO_COLUMN)) {
        ixv_seterr(err, kind == MSG_NO_TABLE ? IXV_E_NO_TABLE : IXV_E_NO_COLUMN, 0, 0, "%s",
                   detail);
        done = 1;
    }
    ixv_sb_free(&names);
    if (done) return -1;
    if (kind == MSG_OVERFLOW) return ixv_seterr(err, IXV_E_INT_RANGE, 0, 0, NULL);
    if (kind == MSG_LIMIT)
        return ixv_seterr(err, IXS_E_COMPLEX, 0, 0, "statement too complex for the engine (%.120s)",
                          msg);
    return ixv_seterr(err, IXV_E_NOT_IMPLEMENTED, 0, 0, "%.200s", msg);
}
