/* ixs_ddl_misc.c: UPDATE STATISTICS, TRUNCATE, CREATE SCHEMA AUTHORIZATION
 * and the view text kept for sysviews. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_parse.h"

#define VIEWTEXT_PIECE 64 /* sysviews.viewtext is CHAR(64) */

/* The catalogue row of a user table: 1 found (tabid set), 0 not, -1 error. */
static int user_table(px *p, const char *name, int *tabid) {
    itab t;
    int r = ixs_cat_table(p->db, name, &t, p->err);
    if (r < 0) {
        p->failed = 1;
        return -1;
    }
    *tabid = t.tabid;
    int ok = r == 1 && !t.is_view && t.tabid < IXS_TEMP_TABID;
    int found = r == 1;
    if (ok) {
        ixs_itab_free(&t);
        return 1;
    }
    ixs_itab_free(&t);
    return found ? 2 : 0; /* 2: a view, a catalogue or a temp table */
}

/* Statistics of table tabid/name: systables.nrows and SQLite's ANALYZE. */
static void stats_sql(sb *s, int tabid, const char *name) {
    ixv_sb_add(s, "ANALYZE ");
    ixv_sb_ident(s, name);
    ixv_sb_add(s, "; UPDATE " IXV_INTERNAL_PREFIX "tables SET nrows = (SELECT count(*) FROM ");
    ixv_sb_ident(s, name);
    ixv_sb_printf(s, ") WHERE tabid = %d;", tabid);
}

/* [(col, ...)] after FOR TABLE name, into us (checked at execute). */
static int stats_columns(px *p, ddl_stats *us) {
    if (!ixs_px_acc_op(p, "(")) return 0;
    do {
        char(*n)[IXS_NAME_MAX + 1] = realloc(us->cols, sizeof *n * (size_t)(us->ncols + 1));
        if (!n) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        us->cols = n;
        if (ixs_px_ident(p, us->cols[us->ncols], sizeof us->cols[0])) return -1;
        us->ncols++;
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* The options after the mode (any order):
 *   [FOR TABLE [ONLY] [name [(col, ...)]]] [DROP DISTRIBUTIONS [ONLY]]
 *   [DISTRIBUTIONS ONLY] [RESOLUTION pct [conf]] [SAMPLING SIZE n]
 *   [FORCE | AUTO]
 * The table, if any, into us->table ("" = all tables). */
static int stats_options(px *p, ddl_stats *us) {
    for (;;) {
        if (ixs_px_acc(p, IXK_FOR)) {
            if (ixs_px_expect(p, IXK_TABLE)) return -1;
            ixs_px_acc(p, IXK_ONLY);
            if (ixs_px_is_name(p, p->i)) {
                if (ixs_px_objname(p, IXS_NAME_DB, us->table, sizeof us->table)) return -1;
                if (stats_columns(p, us)) return -1;
            }
        } else if (ixs_px_acc(p, IXK_DROP)) {
            if (ixs_px_expect(p, IXK_DISTRIBUTIONS)) return -1;
            ixs_px_acc(p, IXK_ONLY);
        } else if (ixs_px_acc(p, IXK_DISTRIBUTIONS)) {
            if (ixs_px_expect(p, IXK_ONLY)) return -1;
        } else if (ixs_px_acc(p, IXK_RESOLUTION)) {
            if (p->i >= p->nt || (p->t[p->i].k != T_INT && p->t[p->i].k != T_NUM))
                return ixs_px_fail(p);
            p->i++;
            if (p->t[p->i].k == T_INT || p->t[p->i].k == T_NUM) p->i++;
        } else if (ixs_px_acc(p, IXK_SAMPLING)) {
            int64_t v;
            if (ixs_px_expect(p, IXK_SIZE) || ixs_px_int(p, &v)) return -1;
        } else if (!ixs_px_acc(p, IXK_FORCE) && !ixs_px_acc(p, IXK_AUTO))
            return 0;
    }
}

int ixs_is_update_statistics(px *p) {
    int i = p->i;
    return ixs_px_kw(p, i, IXK_UPDATE) && ixs_px_kw(p, i + 1, IXK_STATISTICS) &&
           !ixs_px_kw(p, i + 2, IXK_SET) && !ixs_px_op(p, i + 2, ".") &&
           !ixs_px_kw(p, i + 2, IXK_AS);
}

/* UPDATE STATISTICS, after these two words:
 *   UPDATE STATISTICS [LOW | MEDIUM | HIGH] [options]
 *   UPDATE STATISTICS FOR [SPECIFIC] PROCEDURE|FUNCTION|ROUTINE [name [(types)]]
 * For tables ixd records the row count (systables.nrows) and runs SQLite's
 * ANALYZE, for every user table when none is named. Routines have no
 * statistics of their own in ixd: that form is accepted and does nothing. */
int ixs_update_statistics_parse(px *p, ixs_ddl *d) {
    d->kind = DDL_UPDATE_STATS;
    d->stype = IX_STMTTYPE_UPDATE_STATISTICS;
    int routine = ixs_px_kw(p, p->i, IXK_FOR) &&
                  (ixs_px_kw(p, p->i + 1, IXK_PROCEDURE) || ixs_px_kw(p, p->i + 1, IXK_FUNCTION) ||
                   ixs_px_kw(p, p->i + 1, IXK_ROUTINE) || ixs_px_kw(p, p->i + 1, IXK_SPECIFIC));
    if (!routine) {
        (void)(ixs_px_acc(p, IXK_LOW) || ixs_px_acc(p, IXK_MEDIUM) || ixs_px_acc(p, IXK_HIGH));
        return stats_options(p, &d->u.us);
    }
    d->stype = IX_STMTTYPE_PROC_STATISTICS;
    d->u.us.routine = 1;
    p->i += 2;
    if (ixs_px_kw(p, p->i - 1, IXK_SPECIFIC) && !ixs_px_acc(p, IXK_PROCEDURE) &&
        !ixs_px_acc(p, IXK_FUNCTION) && !ixs_px_acc(p, IXK_ROUTINE))
        return ixs_px_fail(p);
    if (!ixs_px_is_name(p, p->i)) return 0;
    char name[IXS_NAME_MAX + 1];
    if (ixs_px_objname(p, IXS_NAME_DB, name, sizeof name)) return -1;
    if (ixs_px_acc_op(p, "(")) {
        int depth = 1;
        while (p->i < p->nt && p->t[p->i].k != T_EOF && depth) {
            depth += ixs_px_op(p, p->i, "(") - ixs_px_op(p, p->i, ")");
            p->i++;
        }
        if (depth) return ixs_px_fail(p);
    }
    return 0;
}

/* The named table of UPDATE STATISTICS: a user table (-206) with the columns
 * listed (-217). Its tabid into *tabid. */
static int stats_table(px *p, const ddl_stats *us, int *tabid) {
    int r = user_table(p, us->table, tabid);
    if (r < 0) return -1;
    if (r == 0) return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", us->table);
    if (!us->ncols) return 0;
    itab t;
    r = ixs_cat_table(p->db, us->table, &t, p->err);
    if (r < 0) return p->failed = 1, -1;
    for (int c = 0; c < us->ncols && !p->failed; c++) {
        int hit = r != 1;
        for (int i = 0; r == 1 && i < t.ncols; i++)
            hit |= !strcmp(t.cols[i].name, us->cols[c]);
        if (!hit) ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", us->cols[c]);
    }
    if (r == 1) ixs_itab_free(&t);
    return p->failed ? -1 : 0;
}

int ixs_update_statistics_run(px *p, const ddl_stats *us) {
    if (us->routine) return 0;
    sb s = {0};
    if (us->table[0]) {
        int tabid;
        if (stats_table(p, us, &tabid)) return -1;
        stats_sql(&s, tabid, us->table);
    } else {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(p->db->h,
                               "SELECT tabid, tabname FROM " IXV_INTERNAL_PREFIX
                               "tables WHERE tabid >= 100 AND tabtype = 'T' ORDER BY tabid",
                               -1, &st, NULL) != SQLITE_OK)
            return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "catalog");
        while (sqlite3_step(st) == SQLITE_ROW)
            stats_sql(&s, sqlite3_column_int(st, 0), (const char *)sqlite3_column_text(st, 1));
        sqlite3_finalize(st);
    }
    if (s.oom) {
        ixv_sb_free(&s);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    int rc = s.p ? ixs_ddl_exec_sql(p, s.p, us->table) : 0;
    ixv_sb_free(&s);
    return rc;
}

/* TRUNCATE, after its keyword:
 *   TRUNCATE [TABLE] [ONLY] [db:][owner.]table [DROP STORAGE | REUSE STORAGE]
 *   [KEEP STATISTICS]
 * Removes every row (a view or a catalogue table is -206, as a table that
 * does not exist; a parent whose rows are still referenced is -692). The
 * SERIAL counters are kept, as a DELETE keeps them. */
int ixs_truncate_parse(px *p, ddl_table *tb) {
    ixs_px_acc(p, IXK_TABLE);
    ixs_px_acc(p, IXK_ONLY);
    if (ixs_px_objname(p, IXS_NAME_DB, tb->name, sizeof tb->name)) return -1;
    if (ixs_px_acc(p, IXK_DROP) || ixs_px_acc(p, IXK_REUSE)) {
        if (ixs_px_expect(p, IXK_STORAGE)) return -1;
    }
    if (ixs_px_acc(p, IXK_KEEP) && ixs_px_expect(p, IXK_STATISTICS)) return -1;
    return 0;
}

int ixs_truncate_run(px *p, const ddl_table *tb) {
    int tabid;
    int r = user_table(p, tb->name, &tabid);
    if (r < 0) return -1;
    if (r == 2 && tabid > 0 && tabid < 100)
        return ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", tb->name);
    if (r != 1) return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", tb->name);
    sb s = {0};
    ixv_sb_add(&s, "DELETE FROM ");
    ixv_sb_ident(&s, tb->name);
    if (s.oom) {
        ixv_sb_free(&s);
        return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    int rc = ixs_ddl_exec_sql(p, s.p, tb->name);
    if (rc && (p->err->sqlcode == IXS_E_DELETE || p->err->sqlcode == IXV_E_FK_NO_PARENT))
        ixv_recode(p->err, IXV_E_FK_REFERENCED, IXV_KEEP_ISAM); /* rows still referenced */
    ixv_sb_free(&s);
    return rc;
}

/* 1 when token i starts a statement of a CREATE SCHEMA. */
static int schema_stmt_at(px *p, int i) {
    return ixs_px_kw(p, i, IXK_CREATE) || ixs_px_kw(p, i, IXK_GRANT);
}

/* The CREATE statements a schema may hold (IBM Informix Guide to SQL:
 * Syntax, CREATE SCHEMA): TABLE, VIEW, INDEX, SYNONYM, TRIGGER, SEQUENCE,
 * ROW / OPAQUE / DISTINCT TYPE, CAST; the word after CREATE at token i. */
static int schema_create_ok(px *p, int i) {
    static const int kw[] = {IXK_TABLE,    IXK_TEMP,    IXK_RAW,     IXK_STANDARD, IXK_UNIQUE,
                             IXK_DISTINCT, IXK_CLUSTER, IXK_INDEX,   IXK_VIEW,     IXK_SYNONYM,
                             IXK_PUBLIC,   IXK_PRIVATE, IXK_TRIGGER, IXK_SEQUENCE, IXK_ROW};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (ixs_px_kw(p, i, kw[k])) return 1;
    if (i >= p->nt || p->t[i].k != T_ID) return 0;
    const char *w = p->sql + p->t[i].pos;
    int n = p->t[i].len;
    return (n == 6 && !strncasecmp(w, "opaque", 6)) || (n == 4 && !strncasecmp(w, "cast", 4));
}

/* The token after the statement of the schema that starts at token i (the
 * next CREATE or GRANT outside parentheses, or end + 1). */
static int schema_stmt_end(px *p, int i, int end) {
    int depth = 0, j = i + 1;
    for (; j <= end; j++) {
        depth += ixs_px_op(p, j, "(") - ixs_px_op(p, j, ")");
        if (depth == 0 && schema_stmt_at(p, j)) break;
    }
    return j;
}

/* The owner: a name, or a quoted string kept as written ('sarah', "sarah"). */
static int schema_owner(px *p, char *buf, size_t n) {
    if (p->i >= p->nt || p->t[p->i].k != T_STR) return ixs_px_ident(p, buf, n);
    sb b = {0};
    ixs_px_tokstr(p, p->i, &b);
    int bad = b.oom || b.n == 0 || b.n >= n;
    if (!bad) snprintf(buf, n, "%s", b.p);
    ixv_sb_free(&b);
    if (bad) return ixs_px_fail(p);
    p->i++;
    return 0;
}

/* The statement of the schema in tokens a..b-1 parsed as it will run (no
 * catalogue): a syntax error is the schema's, at its offset in the text. */
static int schema_stmt_check(px *p, int a, int b) {
    if (ixs_px_kw(p, a, IXK_CREATE) && !schema_create_ok(p, a + 1)) return ixs_px_fail_at(p, a + 1);
    size_t from = (size_t)p->t[a].pos;
    size_t to = (size_t)(p->t[b - 1].pos + p->t[b - 1].len);
    px q;
    ixs_ddl d;
    memset(&d, 0, sizeof d);
    int rc = ixs_px_init(&q, p->db, p->sql + from, to - from, p->err);
    if (!rc) {
        q.dry = 1;
        rc = ixs_ddl_parse(&q, &d);
        if (!rc) rc = ixs_at_end(&q);
    }
    ixs_ddl_free(&d);
    ixs_px_done(&q);
    if (rc) {
        p->err->offset += (int)from; /* offsets of the whole statement */
        p->failed = 1;
    }
    return rc ? -1 : 0;
}

/* CREATE SCHEMA AUTHORIZATION, after these three words:
 *   CREATE SCHEMA AUTHORIZATION user { create_table | create_view |
 *       create_index | grant | create_synonym | create_trigger |
 *       create_sequence | create_row_type | ... } ... [;]
 * The statements follow one another without semicolons; the schema ends at
 * a semicolon or the end of the text (another statement after the
 * semicolon is -201, as after any statement). They run in order, as one
 * unit (any failure undoes them all), and the objects they create are
 * owned by user. At prepare each is parsed for its form only: a statement
 * may name a table an earlier one creates. */
int ixs_create_schema_parse(px *p, ddl_schema *cs) {
    if (schema_owner(p, cs->user, sizeof cs->user)) return -1;
    if (!schema_stmt_at(p, p->i)) return ixs_px_fail(p);
    cs->start = p->i;
    int depth = 0, i = p->i;
    for (; i < p->nt && p->t[i].k != T_EOF; i++) {
        depth += ixs_px_op(p, i, "(") - ixs_px_op(p, i, ")");
        if (depth == 0 && ixs_px_op(p, i, ";")) break;
    }
    cs->end = i - 1;
    for (int a = cs->start; a <= cs->end;) {
        int b = schema_stmt_end(p, a, cs->end);
        if (schema_stmt_check(p, a, b)) return -1;
        a = b;
    }
    p->i = cs->end + 1;
    return 0;
}

/* The statements of cs, each parsed and run in turn as cs->user. */
int ixs_create_schema_run(px *p, const ddl_schema *cs) {
    if (ixs_ddl_begin(p)) return -1;
    char saved[IXS_NAME_MAX + 1];
    snprintf(saved, sizeof saved, "%s", p->db->user);
    snprintf(p->db->user, sizeof p->db->user, "%s", cs->user);
    int ok = 1;
    for (int i = cs->start; ok && i <= cs->end;) {
        int j = schema_stmt_end(p, i, cs->end);
        size_t a = (size_t)p->t[i].pos;
        size_t b = (size_t)(p->t[j - 1].pos + p->t[j - 1].len);
        int64_t n = 0;
        ok = ixs_run_sql(p->db, p->sql + a, b - a, &n, p->err) == 0;
        if (!ok) p->err->offset += (int)a; /* offsets of the whole statement */
        i = j;
    }
    snprintf(p->db->user, sizeof p->db->user, "%s", saved);
    if (!ok) p->failed = 1;
    return ixs_ddl_end(p, ok);
}

void ixs_cat_view_text(px *p, int tabid, sb *s) {
    size_t a = (size_t)p->t[0].pos, b = a;
    for (int i = 0; i < p->nt && p->t[i].k != T_EOF; i++)
        if (!ixs_px_op(p, i, ";")) b = (size_t)(p->t[i].pos + p->t[i].len);
    for (int seq = 0; a < b; seq++) {
        size_t n = b - a > VIEWTEXT_PIECE ? VIEWTEXT_PIECE : b - a;
        ixv_sb_printf(
            s, "INSERT INTO " IXV_INTERNAL_PREFIX "views(tabid, seqno, viewtext) VALUES(%d, %d, ",
            tabid, seq);
        ixv_sb_strlit(s, p->sql + a, n);
        ixv_sb_add(s, ");");
        a += n;
    }
}
