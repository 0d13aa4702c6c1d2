/*
 * ixs_trigger.c: CREATE / DROP TRIGGER.
 *
 * A FOR EACH ROW section becomes one SQLite trigger, AFTER the row's change
 * (Informix runs row actions after each row is changed): every action is
 * translated by the ordinary translator with each old.col / new.col as a
 * typed '?', and those marks are then replaced by SQLite's OLD."col" /
 * NEW."col". A failing action fails the triggering statement, which SQLite
 * undoes as a whole. The WHEN condition becomes the SQLite trigger's WHEN
 * EXISTS (...). Statement-level BEFORE / AFTER sections are refused
 * (docs/server-sql.md).
 *
 * The catalogue: systriggers (event 'I', 'U', 'D'), systrigbody 'D' the
 * header text and 'A' the actions text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_spl.h"

#define TRG_MAX_ACTIONS 32
#define TRG_MAX_REFS    256
#define TRG_PREFIX      IXS_INTERNAL_PREFIX "trg_"

enum {
    IXS_E_TRG_EXISTS = -743,    /* Object (%s) already exists in database. */
    IXS_E_TRG_NOT_FOUND = -634, /* Object does not exist. */
    IXS_E_TRG_SECTION = -999,   /* statement-level sections: not supported */
};

typedef struct range {
    int a, b; /* tokens [a, b) */
} range;

typedef struct trg {
    char name[IXS_NAME_MAX + 1];
    char table[IXS_NAME_MAX + 1];
    char oldn[IXS_NAME_MAX + 1], newn[IXS_NAME_MAX + 1];
    char event; /* 'I', 'U', 'D' */
    range cols; /* UPDATE OF col, ... */
    range when;
    range act[TRG_MAX_ACTIONS];
    int nact;
    int head_end, body_start; /* text offsets */
} trg;

/* The tokens up to the ')' that closes the '(' before the current token. */
static int close_paren(px *p) {
    int depth = 0;
    for (int i = p->i; i < p->nt && p->t[i].k != T_EOF; i++) {
        if (px_op(p, i, "(")) depth++;
        if (px_op(p, i, ")") && depth-- == 0) return i;
    }
    return -1;
}

/* ( action [, action ...] ): the actions' token ranges */
static int actions(px *p, trg *t) {
    if (px_expect_op(p, "(")) return -1;
    int end = close_paren(p);
    if (end < 0) return px_fail(p);
    while (p->i < end) {
        if (t->nact == TRG_MAX_ACTIONS) return px_fail(p);
        int depth = 0, i = p->i;
        for (; i < end; i++) {
            if (px_op(p, i, "(")) depth++;
            if (px_op(p, i, ")")) depth--;
            if (!depth && px_op(p, i, ",")) break;
        }
        if (i == p->i) return px_fail(p);
        if (!px_kw(p, p->i, "insert") && !px_kw(p, p->i, "update") && !px_kw(p, p->i, "delete") &&
            !px_kw(p, p->i, "execute"))
            return px_fail(p);
        t->act[t->nact].a = p->i;
        t->act[t->nact++].b = i;
        p->i = i < end ? i + 1 : i;
    }
    p->i = end + 1;
    return 0;
}

/*
 * CREATE TRIGGER [owner.]name
 *     { INSERT | DELETE | UPDATE [OF col [, ...]] } ON [owner.]table
 *     [REFERENCING { OLD [AS] name | NEW [AS] name } ...]
 *     FOR EACH ROW [WHEN ( condition )] ( action [, ...] )
 * action: INSERT ... | UPDATE ... | DELETE ... | EXECUTE PROCEDURE name(args)
 */
static int parse(px *p, trg *t) {
    memset(t, 0, sizeof *t);
    if (px_newname(p, t->name, sizeof t->name)) return -1;
    if (px_acc_op(p, ".") && px_newname(p, t->name, sizeof t->name)) return -1;
    if (px_acc(p, "insert"))
        t->event = 'I';
    else if (px_acc(p, "delete"))
        t->event = 'D';
    else if (px_acc(p, "update")) {
        t->event = 'U';
        if (px_acc(p, "of")) {
            t->cols.a = p->i;
            char c[IXS_NAME_MAX + 1];
            do {
                if (px_ident(p, c, sizeof c)) return -1;
            } while (px_acc_op(p, ","));
            t->cols.b = p->i;
        }
    } else
        return px_fail(p);
    if (px_expect(p, "on") || px_ident(p, t->table, sizeof t->table)) return -1;
    if (px_acc_op(p, ".") && px_ident(p, t->table, sizeof t->table)) return -1;
    if (px_acc(p, "referencing")) {
        while (px_kw(p, p->i, "old") || px_kw(p, p->i, "new")) {
            int isnew = px_acc(p, "new") || !px_acc(p, "old");
            px_acc(p, "as");
            if (px_ident(p, isnew ? t->newn : t->oldn, IXS_NAME_MAX + 1)) return -1;
        }
    }
    t->head_end = p->i < p->nt ? p->t[p->i].pos : (int)p->n;
    t->body_start = t->head_end;
    if (px_kw(p, p->i, "before") || px_kw(p, p->i, "after"))
        return px_failc(p, IXS_E_TRG_SECTION, "statement-level trigger actions");
    if (px_expect(p, "for") || px_expect(p, "each") || px_expect(p, "row")) return -1;
    if (px_acc(p, "when")) {
        if (px_expect_op(p, "(")) return -1;
        int e = close_paren(p);
        if (e < 0 || e == p->i) return px_fail(p);
        t->when.a = p->i;
        t->when.b = e;
        p->i = e + 1;
    }
    if (actions(p, t)) return -1;
    if (px_kw(p, p->i, "before") || px_kw(p, p->i, "after"))
        return px_failc(p, IXS_E_TRG_SECTION, "statement-level trigger actions");
    return 0;
}

/* ---- translation -------------------------------------------------------------------- */

typedef struct refs {
    int isnew[TRG_MAX_REFS];
    char col[TRG_MAX_REFS][IXS_NAME_MAX + 1];
    int n;
} refs;

/* Tokens [a, b) with old.col / new.col as typed '?' marks into out. */
static int with_marks(px *p, const trg *t, const itab *tab, range r, sb *out, refs *rf) {
    int from = p->t[r.a].pos;
    for (int i = r.a; i < r.b; i++) {
        if (!px_is_ident(p, i) || !px_op(p, i + 1, ".") || !px_is_ident(p, i + 2)) continue;
        char a[IXS_NAME_MAX + 1], c[IXS_NAME_MAX + 1];
        int save = p->i;
        p->i = i;
        px_ident(p, a, sizeof a);
        p->i = i + 2;
        px_ident(p, c, sizeof c);
        p->i = save;
        int isnew = t->newn[0] && !strcmp(a, t->newn);
        if (!isnew && !(t->oldn[0] && !strcmp(a, t->oldn))) continue;
        const icol *col = NULL;
        for (int k = 0; k < tab->ncols; k++)
            if (!strcmp(tab->cols[k].name, c)) col = &tab->cols[k];
        if (!col) return px_failc(p, -217, "%s", c);
        if (rf->n == TRG_MAX_REFS) return px_fail(p);
        char tn[64];
        ixs_type_text(col->t, tn, sizeof tn);
        sb_addn(out, p->sql + from, (size_t)(p->t[i].pos - from));
        sb_printf(out, "(?::%s)", tn);
        rf->isnew[rf->n] = isnew;
        snprintf(rf->col[rf->n++], IXS_NAME_MAX + 1, "%s", c);
        from = p->t[i + 2].pos + p->t[i + 2].len;
        i += 2;
    }
    int end = p->t[r.b - 1].pos + p->t[r.b - 1].len;
    if (end > from) sb_addn(out, p->sql + from, (size_t)(end - from));
    return out->oom ? px_failc(p, -208, NULL) : 0;
}

/* The SQLite text of Informix statement text: translated, its ?N marks
 * replaced by OLD."col" / NEW."col", appended to out. */
static int translate(px *p, const char *text, const refs *rf, sb *out) {
    ixd_stmt *s;
    ixd_db *db = p->db;
    int64_t dl = db->deadline;
    int rc = ixd_prepare(db, text, strlen(text), &s, p->err);
    db->deadline = dl;
    if (rc) {
        p->failed = 1;
        return -1;
    }
    const char *q = s->sqlite_sql;
    if (!q || s->kind == SK_SQL) {
        ixd_stmt_free(s);
        return px_fail(p);
    }
    char quote = 0;
    for (size_t i = 0; q[i]; i++) {
        char c = q[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"')
            quote = c;
        else if (c == '?' && q[i + 1] >= '0' && q[i + 1] <= '9') {
            int k = atoi(q + i + 1) - 1;
            while (q[i + 1] >= '0' && q[i + 1] <= '9')
                i++;
            if (k < 0 || k >= rf->n) {
                ixd_stmt_free(s);
                return px_fail(p);
            }
            sb_add(out, rf->isnew[k] ? "NEW." : "OLD.");
            sb_ident(out, rf->col[k]);
            continue;
        }
        sb_addc(out, c);
    }
    ixd_stmt_free(s);
    return 0;
}

/* CREATE TRIGGER "_ixd_trg_name" AFTER event ON "table" FOR EACH ROW
 * [WHEN EXISTS (...)] BEGIN actions; END */
static int sqlite_trigger(px *p, const trg *t, const itab *tab, sb *out) {
    sb_add(out, "CREATE TRIGGER ");
    char nm[IXS_NAME_MAX + 16];
    snprintf(nm, sizeof nm, TRG_PREFIX "%s", t->name);
    sb_ident(out, nm);
    sb_add(out, t->event == 'I'   ? " AFTER INSERT"
                : t->event == 'D' ? " AFTER DELETE"
                                  : " AFTER UPDATE");
    if (t->cols.b > t->cols.a) {
        sb_add(out, " OF ");
        sb_addn(out, p->sql + p->t[t->cols.a].pos,
                (size_t)(p->t[t->cols.b - 1].pos + p->t[t->cols.b - 1].len - p->t[t->cols.a].pos));
    }
    sb_add(out, " ON ");
    sb_ident(out, t->table);
    sb_add(out, " FOR EACH ROW");
    if (t->when.b > t->when.a) {
        refs rf = {0};
        sb w = {0};
        sb_add(&w, "SELECT 1 FROM systables WHERE tabid = 1 AND (");
        int rc = with_marks(p, t, tab, t->when, &w, &rf);
        sb_addc(&w, ')');
        sb_add(out, " WHEN EXISTS (");
        if (!rc) rc = w.oom ? px_failc(p, -208, NULL) : translate(p, w.p, &rf, out);
        sb_free(&w);
        if (rc) return -1;
        sb_addc(out, ')');
    }
    sb_add(out, " BEGIN ");
    for (int k = 0; k < t->nact; k++) {
        refs rf = {0};
        sb a = {0};
        int rc = with_marks(p, t, tab, t->act[k], &a, &rf);
        if (!rc) rc = a.oom ? px_failc(p, -208, NULL) : translate(p, a.p, &rf, out);
        sb_free(&a);
        if (rc) return -1;
        sb_add(out, "; ");
    }
    sb_add(out, "END");
    return out->oom ? px_failc(p, -208, NULL) : 0;
}

/* ---- the statements --------------------------------------------------------------- */

static int trigger_id(ixd_db *db, const char *name) {
    sqlite3_stmt *st;
    int id = 0;
    if (sqlite3_prepare_v2(db->h, "SELECT trigid FROM systriggers WHERE trigname = ?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW) id = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    return id;
}

static int store(px *p, const trg *t, const itab *tab, int start, int end) {
    ixd_db *db = p->db;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->h,
                                "INSERT INTO systriggers VALUES((SELECT coalesce(max(trigid), 0) "
                                "+ 1 FROM systriggers), ?, ?, ?, ?, ?, ?, 'O', 'en_US.819')",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) return ixs_sqlite_err(db, rc, IX_STMTTYPE_CREATE_TRIGGER, NULL, p->err);
    char ev[2] = {t->event, 0};
    sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, db->user, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, tab->tabid);
    sqlite3_bind_text(st, 4, ev, -1, SQLITE_STATIC);
    if (t->oldn[0]) sqlite3_bind_text(st, 5, t->oldn, -1, SQLITE_STATIC);
    if (t->newn[0]) sqlite3_bind_text(st, 6, t->newn, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return ixs_sqlite_err(db, rc, IX_STMTTYPE_CREATE_TRIGGER, NULL, p->err);
    int id = trigger_id(db, t->name);
    if (spl_cat_put_body(db, "systrigbody", id, "D", p->sql + start, (size_t)(t->head_end - start),
                         p->err) ||
        spl_cat_put_body(db, "systrigbody", id, "A", p->sql + t->body_start,
                         (size_t)(end - t->body_start), p->err))
        return -1;
    return 0;
}

int ixs_trigger_create_stmt(px *p, int *stype) {
    if (!px_acc(p, "trigger")) return 0;
    *stype = IX_STMTTYPE_CREATE_TRIGGER;
    int start = p->t[p->i - 2].pos;
    trg t;
    if (parse(p, &t)) return -1;
    int end = p->t[p->i - 1].pos + p->t[p->i - 1].len;
    if (p->dry) return 1;
    itab tab;
    int f = ixs_cat_table(p->db, t.table, &tab, p->err);
    if (f < 0) {
        p->failed = 1;
        return -1;
    }
    if (!f) return px_failc(p, -206, "%s", t.table);
    int rc = 1;
    if (tab.is_view)
        rc = px_failc(p, IXS_E_CATALOG_MODIFY, "%s", t.table);
    else if (trigger_id(p->db, t.name))
        rc = px_failc(p, IXS_E_TRG_EXISTS, "%s", t.name);
    sb q = {0};
    if (rc > 0 && sqlite_trigger(p, &t, &tab, &q)) rc = -1;
    if (rc > 0 && ixs_ddl_begin(p)) rc = -1;
    if (rc > 0) {
        int ok = ixs_exec(p->db, q.p, p->err) == 0 && store(p, &t, &tab, start, end) == 0;
        if (!ok) p->failed = 1;
        if (ixs_ddl_end(p, ok)) rc = -1;
    }
    sb_free(&q);
    ixs_itab_free(&tab);
    return rc;
}

/* DROP TRIGGER [IF EXISTS] [owner.]name, after DROP */
int ixs_trigger_drop_stmt(px *p, int *stype) {
    if (!px_acc(p, "trigger")) return 0;
    *stype = IX_STMTTYPE_DROP_TRIGGER;
    int ife = px_acc(p, "if") && !px_expect(p, "exists");
    char name[IXS_NAME_MAX + 1];
    if (p->failed || px_ident(p, name, sizeof name)) return -1;
    if (px_acc_op(p, ".") && px_ident(p, name, sizeof name)) return -1;
    if (p->dry) return 1;
    int id = trigger_id(p->db, name);
    if (!id) return ife ? 1 : px_failc(p, IXS_E_TRG_NOT_FOUND, "%s", name);
    if (ixs_ddl_begin(p)) return -1;
    sb q = {0};
    sb_add(&q, "DROP TRIGGER IF EXISTS ");
    char nm[IXS_NAME_MAX + 16];
    snprintf(nm, sizeof nm, TRG_PREFIX "%s", name);
    sb_ident(&q, nm);
    sb_printf(&q,
              "; DELETE FROM systrigbody WHERE trigid = %d; DELETE FROM systriggers WHERE "
              "trigid = %d;",
              id, id);
    int ok = !q.oom && ixs_exec(p->db, q.p, p->err) == 0;
    sb_free(&q);
    if (!ok) p->failed = 1;
    return ixs_ddl_end(p, ok) ? -1 : 1;
}
