/*
 * ixs_cursor.c: update cursors and UPDATE / DELETE ... WHERE CURRENT OF.
 *
 * An update cursor is a SELECT ... FOR UPDATE of one table (a client cursor
 * named with SQ_CURNAME), or the SELECT of a named SPL FOREACH (Informix
 * treats it as FOR UPDATE). Its SQLite query selects the table's rowid after
 * the described columns; each fetch keeps the rowid of the row it returned
 * (ixs_stmt.cur_rowid). WHERE CURRENT OF c becomes
 *
 *     WHERE rowid = ixd_current_of('c', 'table', is_delete)
 *
 * and ixd_current_of finds cursor c (the innermost FOREACH of that name,
 * else the session's cursor) when the statement runs:
 *
 *   -507  Cursor (c) not found.
 *   -259  Cursor not open.
 *   -290  Cursor not declared with FOR UPDATE clause.
 *   -266  There is no current row for UPDATE/DELETE cursor. (before the
 *         first fetch, after the last, after a DELETE of the row)
 *   -277  UPDATE table (t) is not the same as the cursor table.
 */
#include <stdio.h>
#include <string.h>

#include "server/sql/ixs_spl.h"

enum {
    IXS_E_CUR_NOT_OPEN = IXV_E_CUR_NOT_OPEN,
    IXS_E_CUR_NO_ROW = IXV_E_CUR_NO_ROW,
    IXS_E_CUR_TABLE = IXV_E_CUR_TABLE,
    IXS_E_CUR_NOT_UPDATE = IXV_E_CUR_NOT_UPDATE,
    IXS_E_CUR_NOT_FOUND = IXV_E_CUR_NOT_FOUND,
};

int ixs_cursor_wanted(px *p) {
    int depth = 0, want = 0;
    for (int i = 0; i < p->nt && p->t[i].k != T_EOF; i++) {
        if (ixs_px_op(p, i, "(")) depth++;
        if (ixs_px_op(p, i, ")")) depth--;
        if (depth) continue;
        if (ixs_px_kw(p, i, IXK_UNION) || ixs_px_kw(p, i, IXK_INTERSECT) ||
            ixs_px_kw(p, i, IXK_EXCEPT) || ixs_px_kw(p, i, IXK_MINUS))
            return 0;
        if (ixs_px_kw(p, i, IXK_FOR) && ixs_px_kw(p, i + 1, IXK_UPDATE)) want = 1;
    }
    return want;
}

void ixs_cursor_rowid(px *p, const tref *t, sb *list) {
    if (t->derived || t->tab.is_view || t->tab.tabid >= IXS_TEMP_TABID) return;
    ixv_sb_add(list, ", ");
    ixv_sb_ident(list, t->alias);
    ixv_sb_add(list, ".rowid");
    p->rowid_want = 2;
    snprintf(p->rowid_table, sizeof p->rowid_table, "%s", t->tab.name);
}

void ixs_cursor_stmt(px *p, ixs_stmt *s) {
    if (p->rowid_want != 2) return;
    s->rowid_col = 1;
    snprintf(s->table, sizeof s->table, "%s", p->rowid_table);
}

/* WHERE CURRENT OF name (the cursor's name parsed with its statement) */
int ixs_current_of(px *p, const char *name, sb *sql, ixs_stmt *s) {
    (void)p;
    ixv_sb_add(sql, " WHERE rowid = ixd_current_of(");
    ixv_sb_strlit(sql, name, strlen(name));
    ixv_sb_addc(sql, ',');
    ixv_sb_strlit(sql, s->table, strlen(s->table));
    ixv_sb_printf(sql, ", %d)", s->stype == IX_STMTTYPE_DELETE);
    return 0;
}

void ixs_cursor_fetched(ixs_stmt *s) {
    if (!s->rowid_col || !s->st) return;
    s->cur_rowid = sqlite3_column_int64(s->st, s->ncols);
    s->cur_valid = 1;
}

static void fail(sqlite3_context *ctx, int code, const char *text) {
    ixv_fn_err(ctx, code, text);
}

/* ixd_current_of(name, table, is_delete): the rowid of the current row */
static void fn_current_of(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ixs_conn *db = sqlite3_user_data(ctx);
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    const char *table = (const char *)sqlite3_value_text(argv[1]);
    if (argc != 3 || !name || !table) return fail(ctx, IXS_E_CUR_NOT_FOUND, "");
    ixs_stmt *st = NULL;
    int spl = 0, open = 0;
    for (const ixs_curframe *f = db->spl_cursors; f && !spl; f = f->up)
        if (!strcmp(f->name, name)) {
            st = f->st;
            spl = 1;
        }
    if (!spl) st = db->host->cursor(db, name, &open);
    if (!spl && !st) return fail(ctx, IXS_E_CUR_NOT_FOUND, name);
    if (st && !st->rowid_col) return fail(ctx, IXS_E_CUR_NOT_UPDATE, NULL);
    if (!spl && !open) return fail(ctx, IXS_E_CUR_NOT_OPEN, NULL);
    if (st && strcmp(st->table, table)) return fail(ctx, IXS_E_CUR_TABLE, table);
    if (!st || !st->cur_valid) return fail(ctx, IXS_E_CUR_NO_ROW, NULL);
    sqlite3_result_int64(ctx, st->cur_rowid);
    if (sqlite3_value_int(argv[2])) st->cur_valid = 0; /* a DELETE: no current row after it */
}

int ixs_cursor_register(sqlite3 *h, ixs_conn *db) {
    return sqlite3_create_function(h, "ixd_current_of", 3, SQLITE_UTF8, db, fn_current_of, NULL,
                                   NULL) == SQLITE_OK
               ? 0
               : -1;
}
