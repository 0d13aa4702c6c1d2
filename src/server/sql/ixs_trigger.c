/*
 * ixs_trigger.c: CREATE / DROP TRIGGER.
 *
 * Each [WHEN (...)] (actions) clause of the FOR EACH ROW section becomes
 * one SQLite trigger, AFTER the row's change
 * (Informix runs row actions after each row is changed): every action is
 * translated by the ordinary translator with each old.col / new.col as a
 * typed '?', and those marks are then replaced by SQLite's OLD."col" /
 * NEW."col". A failing action fails the triggering statement, which SQLite
 * undoes as a whole. The WHEN condition becomes the SQLite trigger's WHEN
 * EXISTS (...). The statement-level BEFORE / AFTER clauses run around the
 * statement (ixs_trigger_stmt.c); a trigger without a row section still
 * gets a SQLite trigger that never fires (WHEN 0), so that every trigger
 * change moves SQLite's schema version, which that file watches.
 *
 * The catalogue: systriggers (event 'I', 'U', 'D'), systrigbody 'D' the
 * header text and 'A' the actions text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_spl.h"

#define TRG_MAX_REFS 256
#define TRG_PREFIX   IXV_INTERNAL_PREFIX "trg_"

enum {
    IXS_E_TRG_EXISTS = IXV_E_OBJECT_EXISTS, /* Object (%s) already exists in database. */
    IXS_E_TRG_NOT_FOUND = IXV_E_NO_OBJECT,  /* Object does not exist. */
};

typedef trg_range range;

typedef struct trg {
    char name[IXS_NAME_MAX + 1];
    char table[IXS_NAME_MAX + 1];
    char oldn[IXS_NAME_MAX + 1], newn[IXS_NAME_MAX + 1];
    char event; /* 'I', 'U', 'D' */
    range cols; /* UPDATE OF col, ... */
    trg_body body;
    int head_end, body_start; /* text offsets */
} trg;

/* The tokens up to the ')' that closes the '(' before the current token. */
static int close_paren(px *p) {
    int depth = 0;
    for (int i = p->i; i < p->nt && p->t[i].k != T_EOF; i++) {
        if (ixs_px_op(p, i, "(")) depth++;
        if (ixs_px_op(p, i, ")") && depth-- == 0) return i;
    }
    return -1;
}

/* ( action [, action ...] ): the actions' token ranges into c */
static int actions(px *p, trg_clause *c) {
    if (ixs_px_expect_op(p, "(")) return -1;
    int end = close_paren(p);
    if (end < 0) return ixs_px_fail(p);
    while (p->i < end) {
        if (c->nact == TRG_MAX_ACTIONS) return ixs_px_fail(p);
        int depth = 0, i = p->i, into = 0;
        for (; i < end; i++) {
            if (ixs_px_op(p, i, "(")) depth++;
            if (ixs_px_op(p, i, ")")) depth--;
            if (!depth && ixs_px_kw(p, i, IXK_INTO) && ixs_px_kw(p, p->i, IXK_EXECUTE)) into = 1;
            /* the columns of EXECUTE ... INTO a, b run on to the next action */
            if (!depth && ixs_px_op(p, i, ",") &&
                (!into || ixs_px_kw(p, i + 1, IXK_INSERT) || ixs_px_kw(p, i + 1, IXK_UPDATE) ||
                 ixs_px_kw(p, i + 1, IXK_DELETE) || ixs_px_kw(p, i + 1, IXK_EXECUTE)))
                break;
        }
        if (i == p->i) return ixs_px_fail(p);
        if (!ixs_px_kw(p, p->i, IXK_INSERT) && !ixs_px_kw(p, p->i, IXK_UPDATE) &&
            !ixs_px_kw(p, p->i, IXK_DELETE) && !ixs_px_kw(p, p->i, IXK_EXECUTE))
            return ixs_px_fail(p);
        int ex = ixs_px_kw(p, p->i, IXK_EXECUTE), nm = p->i + 2;
        if (ex && ixs_px_op(p, nm + 1, ".")) nm += 2; /* owner.name */
        c->bare[c->nact] = ex && !ixs_px_op(p, nm + 1, "(");
        c->into[c->nact] = 0;
        for (int k = p->i, d = 0; ex && k < i; k++) {
            if (ixs_px_op(p, k, "(")) d++;
            if (ixs_px_op(p, k, ")")) d--;
            if (!d && ixs_px_kw(p, k, IXK_INTO)) c->into[c->nact] = k;
        }
        c->act[c->nact].a = p->i;
        c->act[c->nact++].b = i;
        p->i = i < end ? i + 1 : i;
    }
    p->i = end + 1;
    return 0;
}

/*
 * triggered_action := clause [, clause ...]
 * clause := [WHEN ( condition )] ( action [, action ...] )
 */
static int section(px *p, trg_body *b, char phase) {
    do {
        if (b->n == TRG_MAX_CLAUSES) return ixs_px_fail(p);
        trg_clause *c = &b->c[b->n++];
        memset(c, 0, sizeof *c);
        c->phase = phase;
        if (ixs_px_acc(p, IXK_WHEN)) {
            if (ixs_px_expect_op(p, "(")) return -1;
            int e = close_paren(p);
            if (e < 0 || e == p->i) return ixs_px_fail(p);
            c->when.a = p->i;
            c->when.b = e;
            p->i = e + 1;
        }
        if (actions(p, c)) return -1;
    } while ((ixs_px_op(p, p->i, ",") &&
              (ixs_px_kw(p, p->i + 1, IXK_WHEN) || ixs_px_op(p, p->i + 1, "("))) &&
             ixs_px_acc_op(p, ","));
    return 0;
}

/*
 * body := [BEFORE triggered_action] [FOR EACH ROW triggered_action]
 *         [AFTER triggered_action]          (at least one section)
 */
int ixs_trg_parse_body(px *p, trg_body *b) {
    memset(b, 0, sizeof *b);
    if (ixs_px_acc(p, IXK_BEFORE) && section(p, b, TRG_BEFORE)) return -1;
    if (ixs_px_kw(p, p->i, IXK_FOR)) {
        if (ixs_px_expect(p, IXK_FOR) || ixs_px_expect(p, IXK_EACH) || ixs_px_expect(p, IXK_ROW))
            return -1;
        if (section(p, b, TRG_ROW)) return -1;
    }
    if (ixs_px_acc(p, IXK_AFTER) && section(p, b, TRG_AFTER)) return -1;
    return b->n ? 0 : ixs_px_fail(p);
}

/*
 * CREATE TRIGGER [owner.]name
 *     { INSERT | DELETE | UPDATE [OF col [, ...]] } ON [owner.]table
 *     [REFERENCING { OLD [AS] name | NEW [AS] name } ...]
 *     body
 * action: INSERT ... | UPDATE ... | DELETE ... | EXECUTE PROCEDURE name(args)
 */
static int parse(px *p, trg *t) {
    memset(t, 0, sizeof *t);
    if (ixs_px_newname(p, t->name, sizeof t->name)) return -1;
    if (ixs_px_acc_op(p, ".") && ixs_px_newname(p, t->name, sizeof t->name)) return -1;
    if (ixs_px_acc(p, IXK_INSERT))
        t->event = 'I';
    else if (ixs_px_acc(p, IXK_DELETE))
        t->event = 'D';
    else if (ixs_px_acc(p, IXK_UPDATE)) {
        t->event = 'U';
        if (ixs_px_acc(p, IXK_OF)) {
            t->cols.a = p->i;
            char c[IXS_NAME_MAX + 1];
            do {
                if (ixs_px_ident(p, c, sizeof c)) return -1;
            } while (ixs_px_acc_op(p, ","));
            t->cols.b = p->i;
        }
    } else
        return ixs_px_fail(p);
    if (ixs_px_expect(p, IXK_ON) || ixs_px_ident(p, t->table, sizeof t->table)) return -1;
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, t->table, sizeof t->table)) return -1;
    if (ixs_px_acc(p, IXK_REFERENCING)) {
        while (ixs_px_kw(p, p->i, IXK_OLD) || ixs_px_kw(p, p->i, IXK_NEW)) {
            int isnew = ixs_px_acc(p, IXK_NEW) || !ixs_px_acc(p, IXK_OLD);
            ixs_px_acc(p, IXK_AS);
            if (ixs_px_ident(p, isnew ? t->newn : t->oldn, IXS_NAME_MAX + 1)) return -1;
        }
    }
    t->head_end = p->i < p->nt ? p->t[p->i].pos : (int)p->n;
    t->body_start = t->head_end;
    return ixs_trg_parse_body(p, &t->body);
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
        if (!ixs_px_is_ident(p, i) || !ixs_px_op(p, i + 1, ".") || !ixs_px_is_ident(p, i + 2))
            continue;
        char a[IXS_NAME_MAX + 1], c[IXS_NAME_MAX + 1];
        ixs_px_ident_at(p, i, a, sizeof a);
        ixs_px_ident_at(p, i + 2, c, sizeof c);
        int isnew = t->newn[0] && !strcmp(a, t->newn);
        if (!isnew && !(t->oldn[0] && !strcmp(a, t->oldn))) continue;
        const icol *col = NULL;
        for (int k = 0; k < tab->ncols; k++)
            if (!strcmp(tab->cols[k].name, c)) col = &tab->cols[k];
        if (!col) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", c);
        if (rf->n == TRG_MAX_REFS) return ixs_px_fail(p);
        char tn[64];
        ixv_type_text(col->t, tn, sizeof tn);
        ixv_sb_addn(out, p->sql + from, (size_t)(p->t[i].pos - from));
        ixv_sb_printf(out, "(?::%s)", tn);
        rf->isnew[rf->n] = isnew;
        snprintf(rf->col[rf->n++], IXS_NAME_MAX + 1, "%s", c);
        from = p->t[i + 2].pos + p->t[i + 2].len;
        i += 2;
    }
    int end = p->t[r.b - 1].pos + p->t[r.b - 1].len;
    if (end > from) ixv_sb_addn(out, p->sql + from, (size_t)(end - from));
    return out->oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
}

/* The SQLite text of Informix statement text: translated, its ?N marks
 * replaced by OLD."col" / NEW."col", appended to out. */
static int translate(px *p, const char *text, const refs *rf, sb *out, ixs_stmt **keep) {
    ixs_stmt *s;
    ixs_conn *db = p->db;
    int64_t dl = db->deadline;
    int rc = ixs_prepare(db, text, strlen(text), &s, p->err);
    db->deadline = dl;
    if (rc) {
        p->failed = 1;
        return -1;
    }
    const char *q = s->sqlite_sql;
    if (!q || s->kind == SK_SQL) {
        ixs_stmt_free(s);
        return ixs_px_fail(p);
    }
    sb nested = {0}; /* EXECUTE PROCEDURE: the form that runs inside SQLite's trigger */
    if (s->spl_direct) {
        ixs_spl_nested_sql(s, &nested);
        if (nested.oom) {
            ixs_stmt_free(s);
            return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        }
        q = nested.p;
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
                ixs_stmt_free(s);
                ixv_sb_free(&nested);
                return ixs_px_fail(p);
            }
            ixv_sb_add(out, rf->isnew[k] ? "NEW." : "OLD.");
            ixv_sb_ident(out, rf->col[k]);
            continue;
        }
        ixv_sb_addc(out, c);
    }
    ixv_sb_free(&nested);
    if (keep)
        *keep = s;
    else
        ixs_stmt_free(s);
    return 0;
}

/*
 * EXECUTE PROCEDURE p(args) INTO col [, col ...] in a FOR EACH ROW section:
 * the values the routine returns become the new row's columns. SQLite's row
 * triggers run after the change, so the row is updated in place:
 *   UPDATE "t" SET ("c1", ...) = (SELECT <c0 as c1's type>, ... FROM
 *     (<the routine's query>) LIMIT 1) WHERE rowid = NEW.rowid
 * (no row returned: the columns become NULL). cols: the INTO list.
 */
static int set_new_row(px *p, const char *text, const refs *rf, const itab *tab, range cols,
                       sb *out) {
    sb q = {0};
    ixs_stmt *s = NULL;
    if (translate(p, text, rf, &q, &s)) {
        ixv_sb_free(&q);
        return -1;
    }
    int rc = s->stype == IX_STMTTYPE_EXECUTE_PROC ? 0 : ixs_px_fail(p);
    sb set = {0}, val = {0};
    int n = 0;
    for (p->i = cols.a; !rc && p->i < cols.b; n++) {
        char cn[IXS_NAME_MAX + 1];
        if (n && ixs_px_expect_op(p, ",")) rc = -1;
        if (!rc && ixs_px_ident(p, cn, sizeof cn)) rc = -1;
        const icol *c = NULL;
        for (int k = 0; !rc && k < tab->ncols && !c; k++)
            if (!strcmp(tab->cols[k].name, cn)) c = &tab->cols[k];
        if (!rc && !c) rc = ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", cn);
        if (!rc && n >= s->ncols) rc = ixs_px_failc(p, IXS_E_SPL_RET_COUNT, NULL);
        if (rc) break;
        ixv_sb_add(&set, n ? ", " : "");
        ixv_sb_ident(&set, c->name);
        ityp from = s->cols[n].t;
        if (from.code == c->t.code && from.len == c->t.len)
            ixv_sb_printf(&val, "%s_r.c%d", n ? ", " : "", n);
        else
            ixv_sb_printf(&val, "%sixd_cvt(_r.c%d, %d, %u, %d, %u)", n ? ", " : "", n, from.code,
                          from.len, c->t.code, c->t.len);
    }
    if (!rc && n != s->ncols) rc = ixs_px_failc(p, IXS_E_SPL_RET_COUNT, NULL);
    if (!rc) {
        ixv_sb_add(out, "UPDATE ");
        ixv_sb_ident(out, tab->name);
        ixv_sb_printf(out,
                      " SET (%s) = (SELECT %s FROM (%s) AS _r LIMIT 1) WHERE rowid = NEW.rowid",
                      set.p, val.p, q.p);
    }
    ixs_stmt_free(s);
    ixv_sb_free(&q);
    ixv_sb_free(&set);
    ixv_sb_free(&val);
    return rc;
}

/* The SQLite name of row clause k of trigger name into buf. */
static void sqlite_name(const char *name, int k, char *buf, size_t n) {
    if (k)
        snprintf(buf, n, TRG_PREFIX "%s#%d", name, k + 1);
    else
        snprintf(buf, n, TRG_PREFIX "%s", name);
}

/* CREATE TRIGGER "_ixd_trg_name[#k]" AFTER event ON "table" FOR EACH ROW
 * [WHEN EXISTS (...)] BEGIN actions; END; for the row clause c, the k-th */
static int sqlite_trigger(px *p, const trg *t, const trg_clause *c, int k, const itab *tab,
                          sb *out) {
    ixv_sb_add(out, "CREATE TRIGGER ");
    char nm[IXS_NAME_MAX + 32];
    sqlite_name(t->name, k, nm, sizeof nm);
    ixv_sb_ident(out, nm);
    ixv_sb_add(out, t->event == 'I'   ? " AFTER INSERT"
                    : t->event == 'D' ? " AFTER DELETE"
                                      : " AFTER UPDATE");
    if (t->cols.b > t->cols.a) { /* the names of UPDATE OF, as SQLite stores them */
        ixv_sb_add(out, " OF ");
        for (int i = t->cols.a; i < t->cols.b; i++) {
            char cn[IXS_NAME_MAX + 1];
            if (!ixs_px_is_name(p, i)) {
                ixv_sb_add(out, ixs_px_op(p, i, ",") ? ", " : " ");
            } else if (ixs_px_ident_at(p, i, cn, sizeof cn)) {
                return -1;
            } else {
                ixv_sb_ident(out, cn);
            }
        }
    }
    ixv_sb_add(out, " ON ");
    ixv_sb_ident(out, tab->name);
    ixv_sb_add(out, " FOR EACH ROW");
    if (!c->nact) ixv_sb_add(out, " WHEN 0 BEGIN SELECT 1; ");
    if (c->when.b > c->when.a) {
        refs rf = {0};
        sb w = {0};
        ixv_sb_add(&w, "SELECT 1 FROM systables WHERE tabid = 1 AND (");
        int rc = with_marks(p, t, tab, c->when, &w, &rf);
        ixv_sb_addc(&w, ')');
        ixv_sb_add(out, " WHEN EXISTS (");
        if (!rc)
            rc = w.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : translate(p, w.p, &rf, out, NULL);
        ixv_sb_free(&w);
        if (rc) return -1;
        ixv_sb_addc(out, ')');
    }
    if (c->nact) ixv_sb_add(out, " BEGIN ");
    for (int i = 0; i < c->nact; i++) {
        refs rf = {0};
        sb a = {0};
        range r = c->act[i];
        if (c->into[i]) r.b = c->into[i];
        int rc = with_marks(p, t, tab, r, &a, &rf);
        if (c->bare[i]) ixv_sb_add(&a, "()");
        if (!rc && a.oom) rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
        if (!rc && c->into[i]) {
            range cols = {c->into[i] + 1, c->act[i].b};
            rc = t->event == 'D' ? ixs_px_fail(p) : set_new_row(p, a.p, &rf, tab, cols, out);
        } else if (!rc)
            rc = translate(p, a.p, &rf, out, NULL);
        ixv_sb_free(&a);
        if (rc) return -1;
        ixv_sb_add(out, "; ");
    }
    ixv_sb_add(out, "END;");
    return out->oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
}

/* A statement-level action: prepared (and freed) to check its names. */
static int check_action(px *p, const char *text) {
    ixs_stmt *s;
    int64_t dl = p->db->deadline;
    int rc = ixs_prepare(p->db, text, strlen(text), &s, p->err);
    p->db->deadline = dl;
    if (rc) {
        p->failed = 1;
        return -1;
    }
    ixs_stmt_free(s);
    return 0;
}

/* The SQLite triggers of every row clause of t, in reverse order (SQLite
 * runs the triggers of one event newest first, Informix the clauses in
 * order), into out; the statement-level clauses are checked by preparing
 * their actions (they run as their own statements: ixs_trigger_stmt.c). */
static int sqlite_triggers(px *p, const trg *t, const itab *tab, sb *out) {
    int k = 0;
    for (int i = 0; i < t->body.n; i++)
        if (t->body.c[i].phase == TRG_ROW) k++;
    if (!k) { /* no row section: a trigger that never fires marks the schema */
        trg_clause none = {.phase = TRG_ROW};
        if (sqlite_trigger(p, t, &none, 0, tab, out)) return -1;
    }
    for (int i = t->body.n; i-- > 0;) {
        const trg_clause *c = &t->body.c[i];
        if (c->phase == TRG_ROW) {
            if (sqlite_trigger(p, t, c, --k, tab, out)) return -1;
            continue;
        }
        for (int j = 0; j < c->nact; j++) {
            refs rf = {0};
            sb a = {0};
            (void)rf;
            const tok *x = &p->t[c->act[j].a], *y = &p->t[c->act[j].b - 1];
            ixv_sb_addn(&a, p->sql + x->pos, (size_t)(y->pos + y->len - x->pos));
            if (c->bare[j]) ixv_sb_add(&a, "()");
            int rc = a.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : check_action(p, a.p);
            ixv_sb_free(&a);
            if (rc) return -1;
        }
    }
    return 0;
}

/* ---- the statements --------------------------------------------------------------- */

static int trigger_id(ixs_conn *db, const char *name) {
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
    ixs_conn *db = p->db;
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
    if (ixs_spl_cat_put_body(db, "systrigbody", id, "D", p->sql + start,
                             (size_t)(t->head_end - start), p->err) ||
        ixs_spl_cat_put_body(db, "systrigbody", id, "A", p->sql + t->body_start,
                             (size_t)(end - t->body_start), p->err))
        return -1;
    if (db->delimident &&
        ixs_spl_cat_put_body(db, "systrigbody", id, IXS_TRG_DELIM_KEY, IXS_TRG_DELIM_DATA,
                             strlen(IXS_TRG_DELIM_DATA), p->err))
        return -1;
    return 0;
}

/* CREATE TRIGGER, parsed: the trigger and where its text is. */
typedef struct trg_create {
    trg t;
    int start, end; /* the statement's text */
} trg_create;

static int trg_create_run(px *p, const void *tree) {
    const trg_create *c = tree;
    const trg *t = &c->t;
    itab tab;
    int f = ixs_cat_table(p->db, t->table, &tab, p->err);
    if (f < 0) {
        p->failed = 1;
        return -1;
    }
    if (!f) return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", t->table);
    int rc = 0;
    if (tab.is_view)
        rc = ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", t->table);
    else if (trigger_id(p->db, t->name))
        rc = ixs_px_failc(p, IXS_E_TRG_EXISTS, "%s", t->name);
    sb q = {0};
    if (!rc && sqlite_triggers(p, t, &tab, &q)) rc = -1;
    if (!rc && ixs_ddl_begin(p)) rc = -1;
    if (!rc) {
        int ok = ixs_exec(p->db, q.p, p->err) == 0 && store(p, t, &tab, c->start, c->end) == 0;
        if (!ok) p->failed = 1;
        if (ixs_ddl_end(p, ok)) rc = -1;
    }
    ixv_sb_free(&q);
    ixs_itab_free(&tab);
    return rc;
}

int ixs_trigger_create_stmt(px *p, int *stype, ixs_plan *pl) {
    if (!ixs_px_acc(p, IXK_TRIGGER)) return 0;
    *stype = IX_STMTTYPE_CREATE_TRIGGER;
    trg_create c;
    c.start = p->t[p->i - 2].pos;
    if (parse(p, &c.t)) return -1;
    c.end = p->t[p->i - 1].pos + p->t[p->i - 1].len;
    return ixs_plan_keep(p, pl, &c, sizeof c, trg_create_run, NULL) ? -1 : 1;
}

/* DROP TRIGGER, parsed */
typedef struct trg_drop {
    char name[IXS_NAME_MAX + 1];
    int ife; /* IF EXISTS */
} trg_drop;

static int trg_drop_run(px *p, const void *tree) {
    const trg_drop *d = tree;
    int id = trigger_id(p->db, d->name);
    if (!id) return d->ife ? 0 : ixs_px_failc(p, IXS_E_TRG_NOT_FOUND, "%s", d->name);
    if (ixs_ddl_begin(p)) return -1;
    sb q = {0};
    for (int k = 0; k < TRG_MAX_CLAUSES; k++) {
        char nm[IXS_NAME_MAX + 32];
        sqlite_name(d->name, k, nm, sizeof nm);
        ixv_sb_add(&q, "DROP TRIGGER IF EXISTS ");
        ixv_sb_ident(&q, nm);
        ixv_sb_add(&q, "; ");
    }
    ixv_sb_printf(&q,
                  "DELETE FROM systrigbody WHERE trigid = %d; DELETE FROM systriggers WHERE "
                  "trigid = %d;",
                  id, id);
    int ok = !q.oom && ixs_exec(p->db, q.p, p->err) == 0;
    ixv_sb_free(&q);
    if (!ok) p->failed = 1;
    return ixs_ddl_end(p, ok);
}

/* DROP TRIGGER [IF EXISTS] [owner.]name, after DROP */
int ixs_trigger_drop_stmt(px *p, int *stype, ixs_plan *pl) {
    if (!ixs_px_acc(p, IXK_TRIGGER)) return 0;
    *stype = IX_STMTTYPE_DROP_TRIGGER;
    trg_drop d = {0};
    d.ife = ixs_px_acc(p, IXK_IF) && !ixs_px_expect(p, IXK_EXISTS);
    if (p->failed || ixs_px_ident(p, d.name, sizeof d.name)) return -1;
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, d.name, sizeof d.name)) return -1;
    return ixs_plan_keep(p, pl, &d, sizeof d, trg_drop_run, NULL) ? -1 : 1;
}

/* ---- the table changes ------------------------------------------------------------ */

void ixs_trigger_drop_table_sql(int tabid, sb *s) {
    ixv_sb_printf(s,
                  "DELETE FROM systrigbody WHERE trigid IN (SELECT trigid FROM systriggers WHERE "
                  "tabid = %d); DELETE FROM systriggers WHERE tabid = %d;",
                  tabid, tabid);
}

/* The SQLite triggers of the trigger whose CREATE text is text, made again
 * on table tab (after an ALTER TABLE rebuild). */
static int remake(px *outer, const char *text, int delim, const itab *tab) {
    px p;
    memset(&p, 0, sizeof p);
    p.db = outer->db;
    p.sql = text;
    p.n = strlen(text);
    p.err = outer->err;
    trg t;
    int was = p.db->delimident; /* the trigger's own (IXS_TRG_DELIM_KEY) */
    p.db->delimident = delim;
    int rc = ixs_lex(&p);
    if (!rc)
        rc = ixs_px_expect(&p, IXK_CREATE) || ixs_px_expect(&p, IXK_TRIGGER) || parse(&p, &t) ? -1
                                                                                              : 0;
    sb q = {0};
    if (!rc) rc = sqlite_triggers(&p, &t, tab, &q);
    if (!rc) rc = q.oom ? ixs_px_failc(&p, IXV_E_NOMEM, NULL) : ixs_exec(p.db, q.p, p.err);
    p.db->delimident = was;
    ixv_sb_free(&q);
    free(p.t);
    free(p.ptypes);
    return rc ? -1 : 0;
}

int ixs_trigger_rebuild(px *p, const char *table) {
    itab tab;
    int f = ixs_cat_table(p->db, table, &tab, p->err);
    if (f <= 0) {
        p->failed = 1;
        return f < 0 ? -1 : ixs_px_failc(p, IXV_E_NO_TABLE, "%s", table);
    }
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(p->db->h,
                                "SELECT b.trigid, b.data, " IXS_TRG_DELIM_SQL
                                " FROM systriggers t JOIN systrigbody b "
                                "ON b.trigid = t.trigid WHERE t.tabid = ? AND b.datakey IN ('D', "
                                "'A') ORDER BY b.trigid, b.datakey DESC, b.seqno",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) { /* a file without the trigger catalogue */
        ixs_itab_free(&tab);
        return 0;
    }
    sqlite3_bind_int(st, 1, tab.tabid);
    sb text = {0};
    int id = 0, step, delim = 0;
    rc = 0;
    for (;;) {
        step = sqlite3_step(st);
        int nid = step == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
        if (id && nid != id) {
            rc = text.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : remake(p, text.p, delim, &tab);
            text.n = 0;
            if (text.p) text.p[0] = 0;
        }
        if (step != SQLITE_ROW || rc) break;
        id = nid;
        delim = sqlite3_column_int(st, 2);
        const char *d = (const char *)sqlite3_column_text(st, 1);
        ixv_sb_add(&text, d ? d : "");
    }
    sqlite3_finalize(st);
    ixv_sb_free(&text);
    ixs_itab_free(&tab);
    if (rc) p->failed = 1;
    return rc ? -1 : 0;
}
