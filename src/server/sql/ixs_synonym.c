/* ixs_synonym.c: CREATE/DROP SYNONYM and what a synonym stands for.
 *
 * A synonym is a row of _ixd_tables (tabtype 'S' public, 'P' private, owner
 * its creator) and a row of _ixd_syntable (the table it stands for: owner,
 * name, btabid). The catalog lookup that every statement makes for a table
 * name (ixd_cat_table) follows it to the table, view or other synonym, so a
 * synonym works wherever a table name is read. A private synonym is visible
 * to its owner only; for other users the name is not there (-206). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "server/sql/ixs_objs.h"

typedef struct syndef {
    char name[IXS_NAME_MAX + 1];
    char target[IXS_NAME_MAX + 1];
    int private_;
    int ife;
    int create; /* CREATE, else DROP */
} syndef;

/* [db[@server]:][owner.]name: the name (the database must be the current one
 * or sysmaster, as for tables). */
static int object_name(px *p, char *name, int define) {
    char a[IXS_NAME_MAX + 1];
    if (ixs_px_ident(p, a, sizeof a)) return -1;
    if (ixs_px_acc_op(p, "@") && ixs_px_ident(p, name, IXS_NAME_MAX + 1)) return -1;
    if (ixs_px_acc_op(p, ":")) {
        if (strcmp(a, p->db->name) && strcmp(a, "sysmaster"))
            return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", a);
        if (ixs_px_ident(p, a, sizeof a)) return -1;
    }
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, a, sizeof a)) return -1;
    if (define && ixv_internal_name(a)) return ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", a);
    snprintf(name, IXS_NAME_MAX + 1, "%s", a);
    return 0;
}

/* tabid, tabtype and owner of name in _ixd_tables: 1, 0 none, -1 error. */
static int obj_find(ixs_conn *db, const char *name, int *tabid, char *tt, char *owner) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT tabid, tabtype, owner FROM " IXV_INTERNAL_PREFIX
                           "tables WHERE tabname = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *tabid = sqlite3_column_int(st, 0);
        const char *t = (const char *)sqlite3_column_text(st, 1);
        *tt = t ? t[0] : 'T';
        const char *o = (const char *)sqlite3_column_text(st, 2);
        snprintf(owner, IXS_NAME_MAX + 1, "%s", o ? o : "");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int run_create(px *p, const syndef *d) {
    ixs_conn *db = p->db;
    int btabid, tabid;
    char btt, bowner[IXS_NAME_MAX + 1], tt, owner[IXS_NAME_MAX + 1];
    int f = obj_find(db, d->name, &tabid, &tt, owner);
    if (f < 0) return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(db->h));
    if (f) return d->ife ? 0 : ixs_px_failc(p, IXV_E_TABLE_EXISTS, "%s", d->name);
    f = obj_find(db, d->target, &btabid, &btt, bowner);
    if (f < 0) return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(db->h));
    if (!f || (btt == 'P' && strcmp(bowner, db->user)))
        return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", d->target);
    int64_t maxid = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT max(tabid) FROM " IXV_INTERNAL_PREFIX "tables", -1, &st,
                           NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) maxid = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    tabid = maxid < 99 ? 100 : (int)maxid + 1;
    sb s = {0};
    ixv_sb_printf(&s,
                  "INSERT INTO " IXV_INTERNAL_PREFIX
                  "tables(tabid, tabname, owner, created, tabtype) VALUES(%d, ",
                  tabid);
    ixv_sb_strlit(&s, d->name, strlen(d->name));
    ixv_sb_addc(&s, ',');
    ixv_sb_strlit(&s, db->user, strlen(db->user));
    ixv_sb_printf(&s, ", %d, '%c');", (int)ixv_today(), d->private_ ? 'P' : 'S');
    ixv_sb_printf(&s, "INSERT INTO " IXV_INTERNAL_PREFIX "syntable VALUES(%d, ", tabid);
    ixv_sb_strlit(&s, bowner, strlen(bowner));
    ixv_sb_addc(&s, ',');
    ixv_sb_strlit(&s, d->target, strlen(d->target));
    ixv_sb_printf(&s, ", %d);", btabid);
    return ixs_ddl_exec_sb(p, &s, d->name);
}

static int run_drop(px *p, const syndef *d) {
    ixs_conn *db = p->db;
    int tabid;
    char tt, owner[IXS_NAME_MAX + 1];
    int f = obj_find(db, d->name, &tabid, &tt, owner);
    if (f < 0) return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(db->h));
    int visible = f && (tt == 'S' || (tt == 'P' && !strcmp(owner, db->user)));
    if (!visible) return d->ife ? 0 : ixs_px_failc(p, IXV_E_NO_TABLE, "%s", d->name);
    sb s = {0};
    ixv_sb_printf(&s,
                  "DELETE FROM " IXV_INTERNAL_PREFIX "syntable WHERE tabid = %d;"
                  "DELETE FROM " IXV_INTERNAL_PREFIX "tables WHERE tabid = %d;",
                  tabid, tabid);
    return ixs_ddl_exec_sb(p, &s, d->name);
}

static int syn_run(px *p, const void *tree) {
    const syndef *d = tree;
    return d->create ? run_create(p, d) : run_drop(p, d);
}

/*
 * At [PUBLIC|PRIVATE] SYNONYM, after CREATE or DROP:
 *   CREATE [PUBLIC|PRIVATE] SYNONYM [IF NOT EXISTS] [owner.]syn
 *          FOR [db[@server]:][owner.]table|view|sequence|synonym
 *   DROP SYNONYM [IF EXISTS] [owner.]syn
 * (PUBLIC is the default, as in a database that is not ANSI.)
 */
int ixs_syn_stmt(px *p, int create, int *stype, ixs_plan *pl) {
    syndef d;
    memset(&d, 0, sizeof d);
    *stype = create ? IX_STMTTYPE_CREATE_SYNONYM : IX_STMTTYPE_DROP_SYNONYM;
    if (ixs_px_acc(p, IXK_PRIVATE))
        d.private_ = 1;
    else
        ixs_px_acc(p, IXK_PUBLIC);
    if (!create && p->i > 0 && (d.private_ || ixs_px_kw(p, p->i - 1, IXK_PUBLIC)))
        return ixs_px_fail(p);
    if (ixs_px_expect(p, IXK_SYNONYM)) return -1;
    if (ixs_px_acc(p, IXK_IF)) {
        if (create && ixs_px_expect(p, IXK_NOT)) return -1;
        if (ixs_px_expect(p, IXK_EXISTS)) return -1;
        d.ife = 1;
    }
    if (object_name(p, d.name, create)) return -1;
    if (create && (ixs_px_expect(p, IXK_FOR) || object_name(p, d.target, 0))) return -1;
    d.create = create;
    return ixs_plan_keep(p, pl, &d, sizeof d, syn_run, NULL);
}

int ixs_syn_base(ixs_conn *db, int tabid, char tt, const char *owner, char *base, size_t n) {
    if (tt != 'S' && tt != 'P') return 0; /* a sequence */
    if (tt == 'P' && strcmp(owner, db->user)) return 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT t.tabname FROM " IXV_INTERNAL_PREFIX
                           "syntable s JOIN " IXV_INTERNAL_PREFIX
                           "tables t ON t.tabid = s.btabid WHERE s.tabid = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int(st, 1, tabid);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *b = (const char *)sqlite3_column_text(st, 0);
        snprintf(base, n, "%s", b ? b : "");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* tabtype and owner of tabid, and the tabid a synonym stands for (0 for
 * other objects): 1, 0 none, -1 error. */
static int obj_by_id(ixs_conn *db, int tabid, char *tt, int *visible, int *btabid) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT t.tabtype, t.owner, s.btabid FROM " IXV_INTERNAL_PREFIX
                           "tables t LEFT JOIN " IXV_INTERNAL_PREFIX
                           "syntable s ON s.tabid = t.tabid WHERE t.tabid = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int(st, 1, tabid);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        const char *o = (const char *)sqlite3_column_text(st, 1);
        *tt = t ? t[0] : 'T';
        *visible = *tt != 'P' || (o && !strcmp(o, db->user));
        *btabid = sqlite3_column_int(st, 2);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int ixs_syn_sequence(ixs_conn *db, const char *name, int *tabid) {
    char tt, owner[IXS_NAME_MAX + 1];
    int f = obj_find(db, name, tabid, &tt, owner);
    for (int depth = 0; f == 1 && depth < IXS_SEQ_SYN_DEPTH; depth++) {
        int visible, btabid;
        f = obj_by_id(db, *tabid, &tt, &visible, &btabid);
        if (f != 1) break;
        if (tt == 'Q') return 1;
        if ((tt != 'S' && tt != 'P') || !visible || !btabid) return 0;
        *tabid = btabid;
    }
    return f < 0 ? -1 : 0;
}
