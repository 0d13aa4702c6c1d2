/* ixs_ddl_alter.c: ALTER TABLE, parsed into its list of actions at prepare
 * and, at execute, applied in order to the table's definition from the
 * catalogue, which is then rebuilt (a new table, the rows copied). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_lob.h"
#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_ex.h"
#include "server/sql/ixs_spl.h"
#include "server/ts/ts.h"

static int list_has(const char *list, const char *name) {
    const char *c = list ? list : "";
    size_t nl = strlen(name);
    while (*c) {
        size_t l = strcspn(c, ",");
        if (l == nl && !strncmp(c, name, l)) return 1;
        c += l;
        if (*c) c++;
    }
    return 0;
}

/* Removes the constraints and indexes of t that name column col. */
void ixs_drop_column_refs(tdef *t, const char *col) {
    sb qb = {0};
    ixv_sb_ident(&qb, col); /* as check texts name it */
    const char *q = qb.p ? qb.p : "\"\"";
    for (int i = 0; i < t->nk; i++) {
        kdef *k = &t->k[i];
        int hit = list_has(k->cols, col) || (k->checksql && strstr(k->checksql, q));
        if (hit) {
            ixs_kdef_free(k);
            memmove(k, k + 1, sizeof(kdef) * (size_t)(t->nk - i - 1));
            t->nk--;
            i--;
        }
    }
    for (int i = 0; i < t->nx; i++)
        if (list_has(t->x[i].cols, col)) {
            free(t->x[i].cols);
            memmove(&t->x[i], &t->x[i + 1], sizeof(xdef) * (size_t)(t->nx - i - 1));
            t->nx--;
            i--;
        }
    ixv_sb_free(&qb);
}

static ddl_action *add_action(px *p, ddl_alter *al, int kind) {
    ddl_action *n = realloc(al->a, sizeof *n * (size_t)(al->n + 1));
    if (!n) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    al->a = n;
    ddl_action *a = &n[al->n++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->def.defer_cols = 1; /* the table's columns are known at execute */
    return a;
}

/* ADD ... / MODIFY ... one column: column_def [BEFORE column] */
static int column_action(px *p, ddl_alter *al, int kind) {
    ddl_action *a = add_action(p, al, kind);
    if (!a) return -1;
    cdef *c = ixs_tdef_addcol(p, &a->def);
    if (!c || ixs_column_def(p, &a->def, c, kind == ALT_MODIFY)) return -1;
    if (kind == ALT_ADD_COLUMN && ixs_px_acc(p, IXK_BEFORE) &&
        ixs_px_ident(p, a->before, sizeof a->before))
        return -1;
    return 0;
}

/* One constraint of ADD CONSTRAINT: table_constraint */
static int constraint_action(px *p, ddl_alter *al) {
    ddl_action *a = add_action(p, al, ALT_ADD_CONSTRAINT);
    return a ? ixs_table_constraint(p, &a->def) : -1;
}

/* DROP CONSTRAINT name / DROP column: one name */
static int name_action(px *p, ddl_alter *al, int kind) {
    ddl_action *a = add_action(p, al, kind);
    if (!a || ixs_px_ident(p, a->name, sizeof a->name)) return -1;
    a->last_tok = p->i;
    return 0;
}

/* [(] item [, item ...] [)]: a list in parentheses, or one item */
static int item_list(px *p, ddl_alter *al, int kind) {
    int paren = ixs_px_acc_op(p, "(");
    do {
        int r = kind == ALT_ADD_CONSTRAINT ? constraint_action(p, al)
                : kind == ALT_DROP_CONSTRAINT || kind == ALT_DROP_COLUMN
                    ? name_action(p, al, kind)
                    : column_action(p, al, kind);
        if (r) return -1;
    } while (paren && ixs_px_acc_op(p, ","));
    if (paren && ixs_px_expect_op(p, ")")) return -1;
    if (kind == ALT_DROP_COLUMN) { /* no column may be left: checked at its end */
        al->a[al->n - 1].ends_drop = 1;
        al->a[al->n - 1].last_tok = p->i;
    }
    return 0;
}

/* 1 when ADD CONSTRAINT is followed by the constraint's name (ANSI order:
 * ADD CONSTRAINT n UNIQUE (..)), which table_constraint reads itself. */
static int ansi_constraint(px *p) {
    int i = p->i + 1;
    return ixs_px_kw(p, p->i, IXK_CONSTRAINT) && ixs_px_is_name(p, i) && !ixs_px_op(p, i, "(") &&
           !ixs_px_kw(p, i, IXK_PRIMARY) && !ixs_px_kw(p, i, IXK_UNIQUE) &&
           !ixs_px_kw(p, i, IXK_CHECK) && !ixs_px_kw(p, i, IXK_FOREIGN) &&
           !ixs_px_kw(p, i, IXK_DISTINCT);
}

/* ADD ..., after ADD */
static int add_clause(px *p, ddl_alter *al) {
    if (ansi_constraint(p)) return constraint_action(p, al);
    if (ixs_px_acc(p, IXK_CONSTRAINT)) return item_list(p, al, ALT_ADD_CONSTRAINT);
    return item_list(p, al, ALT_ADD_COLUMN);
}

/* The CHECK conditions of an action, parsed into their trees (their
 * columns are the table's, resolved at execute, when they are translated). */
static int check_syntax(px *p, tdef *t) {
    int save_i = p->i, rc = 0;
    for (int i = 0; i < t->nk && !rc; i++) {
        kdef *k = &t->k[i];
        if (k->type != KDEF_CHECK || k->check_tok < 0) continue;
        p->i = k->check_tok;
        k->check = ixs_ex_parse(p, IXS_EX_COND);
        k->check_own = 1;
        k->check_end = p->i;
        if (!k->check)
            rc = -1;
        else if (!ixs_px_op(p, p->i, ")"))
            rc = ixs_px_fail(p);
    }
    p->i = save_i;
    return rc;
}

/*
 * ALTER TABLE, after ALTER:
 *   TABLE [db:][owner.]name action [, action ...]
 *   action: ADD [(] column_def [BEFORE column] [, ...] [)]
 *         | ADD CONSTRAINT [(] table_constraint [, ...] [)]
 *         | ADD CONSTRAINT name { PRIMARY KEY | UNIQUE | CHECK | FOREIGN KEY } ...
 *         | DROP CONSTRAINT [(] name [, ...] [)]
 *         | DROP [(] column [, ...] [)]
 *         | MODIFY [(] column_def [, ...] [)]
 *         | LOCK MODE ( { ROW | PAGE | TABLE } )
 */
int ixs_alter_parse(px *p, ddl_alter *al) {
    if (ixs_px_expect(p, IXK_TABLE)) return -1;
    if (ixs_px_objname(p, IXS_NAME_DB, al->name, sizeof al->name)) return -1;
    do {
        int r = 0;
        if (ixs_px_acc(p, IXK_ADD))
            r = add_clause(p, al);
        else if (ixs_px_acc(p, IXK_DROP))
            r = item_list(p, al,
                          ixs_px_acc(p, IXK_CONSTRAINT) ? ALT_DROP_CONSTRAINT : ALT_DROP_COLUMN);
        else if (ixs_px_acc(p, IXK_MODIFY))
            r = item_list(p, al, ALT_MODIFY);
        else if (ixs_px_acc(p, IXK_LOCK)) {
            ixs_px_acc(p, IXK_MODE);
            if (ixs_px_expect_op(p, "(")) return -1;
            if (!ixs_px_acc(p, IXK_ROW) && !ixs_px_acc(p, IXK_PAGE)) ixs_px_acc(p, IXK_TABLE);
            r = ixs_px_expect_op(p, ")");
        } else
            r = ixs_px_fail(p);
        if (r) return -1;
    } while (ixs_px_acc_op(p, ","));
    for (int i = 0; i < al->n; i++)
        if (check_syntax(p, &al->a[i].def)) return -1;
    return 0;
}

void ixs_alter_free(ddl_alter *al) {
    for (int i = 0; i < al->n; i++)
        ixs_tdef_free(&al->a[i].def);
    free(al->a);
    al->a = NULL;
    al->n = 0;
}

/* ---- execute: the actions applied to the table's definition -------------------- */

/* Appends copies of the constraints of a to t; their column lists must name
 * columns of t (-217), and those of a primary key become NOT NULL. */
static int add_constraints(px *p, tdef *t, const tdef *a) {
    for (int i = 0; i < a->nk; i++) {
        const kdef *k = &a->k[i];
        for (const char *c = k->cols ? k->cols : ""; *c;) {
            size_t l = strcspn(c, ",");
            char nm[IXS_NAME_MAX + 1];
            snprintf(nm, sizeof nm, "%.*s", (int)l, c);
            int ci = ixs_tdef_find(t, nm);
            if (ci < 0) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", nm);
            if (k->type == KDEF_PRIMARY) t->cols[ci].notnull = 1;
            c += l;
            if (*c) c++;
        }
        kdef *n = ixs_tdef_addk(p, t);
        if (!n || ixs_kdef_copy(p, n, k)) return -1;
    }
    return 0;
}

/* ADD column: -328 when t has it, -391 for NOT NULL without a default on a
 * table with rows, -217 for a BEFORE column t does not have. */
static int add_column(px *p, tdef *t, const ddl_action *a) {
    const cdef *src = &a->def.cols[0];
    if (ixs_tdef_find(t, src->name) >= 0)
        return ixs_px_failc(p, IXV_E_COLUMN_EXISTS, "%s", src->name);
    if (ixs_ts_rowtypes(p, &a->def)) return -1;
    cdef *c = ixs_tdef_addcol(p, t);
    if (!c || ixs_cdef_copy(p, c, src)) return -1;
    if (add_constraints(p, t, &a->def)) return -1;
    c = &t->cols[t->ncols - 1];
    if (c->notnull && !c->defsql && !c->serial) {
        int64_t n;
        sb q = {0};
        ixv_sb_add(&q, "SELECT count(*) FROM ");
        ixv_sb_ident(&q, t->name);
        if (q.oom) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        ixs_ddl_q_int(p->db, q.p, NULL, &n);
        ixv_sb_free(&q);
        if (n) return ixs_px_failc(p, IXV_E_NULL_COLUMN, "%s", c->name);
    }
    if (!a->before[0]) return 0;
    int bi = ixs_tdef_find(t, a->before);
    if (bi < 0) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", a->before);
    cdef tmp = t->cols[t->ncols - 1];
    memmove(&t->cols[bi + 1], &t->cols[bi], sizeof(cdef) * (size_t)(t->ncols - 1 - bi));
    t->cols[bi] = tmp;
    return 0;
}

/* DROP CONSTRAINT: -623 when t has none of that name. */
static int drop_constraint(px *p, tdef *t, const char *name) {
    for (int i = 0; i < t->nk; i++)
        if (!strcmp(t->k[i].name, name)) {
            ixs_kdef_free(&t->k[i]);
            memmove(&t->k[i], &t->k[i + 1], sizeof(kdef) * (size_t)(t->nk - i - 1));
            t->nk--;
            return 0;
        }
    return ixs_px_failc(p, IXV_E_NO_CONSTRAINT, "%s", name);
}

/* DROP column: -217 when t has none, -201 (at the list's end) when no
 * column would be left; its constraints and indexes go with it. */
static int drop_column(px *p, tdef *t, const ddl_action *a) {
    int ci = ixs_tdef_find(t, a->name);
    if (ci < 0) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", a->name);
    free(t->cols[ci].defsql);
    memmove(&t->cols[ci], &t->cols[ci + 1], sizeof(cdef) * (size_t)(t->ncols - ci - 1));
    t->ncols--;
    ixs_drop_column_refs(t, a->name);
    if (a->ends_drop && t->ncols == 0) {
        return ixs_px_fail_at(p, a->last_tok);
    }
    return 0;
}

/* MODIFY column: -217 when t has none; the data are converted at the copy. */
static int modify_column(px *p, tdef *t, const ddl_action *a) {
    const cdef *src = &a->def.cols[0];
    if (ixs_ts_rowtypes(p, &a->def)) return -1;
    int ci = ixs_tdef_find(t, src->name);
    if (ci < 0) return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", src->name);
    cdef nc;
    if (ixs_cdef_copy(p, &nc, src)) return -1;
    nc.oldno = t->cols[ci].oldno;
    nc.oldt = t->cols[ci].oldt;
    free(t->cols[ci].defsql);
    t->cols[ci] = nc;
    return add_constraints(p, t, &a->def);
}

static int apply(px *p, tdef *t, const ddl_action *a) {
    switch (a->kind) {
    case ALT_ADD_COLUMN: return add_column(p, t, a);
    case ALT_ADD_CONSTRAINT: return add_constraints(p, t, &a->def);
    case ALT_DROP_CONSTRAINT: return drop_constraint(p, t, a->name);
    case ALT_DROP_COLUMN: return drop_column(p, t, a);
    default: return modify_column(p, t, a);
    }
}

/* The rebuild of table t (its new definition) in one savepoint. */
static int rebuild(px *p, tdef *t) {
    if (ixs_ddl_begin(p)) return -1;
    sqlite3_exec(p->db->h, "PRAGMA defer_foreign_keys = ON", NULL, NULL, NULL);
    /* the old rows' LOB references go, the new rows' come (a dropped column's LOs go) */
    if (ixs_lob_drop_table(p, t->name)) return ixs_ddl_end(p, 0);
    int ok = ixs_materialize(p, t, 1) == 0 && ixs_lob_table_refs(p->db, t, 1, p->err) == 0 &&
             ixs_ts_columns(p, t, 0) == 0 && ixs_trigger_rebuild(p, t->name) == 0;
    if (ok && ixts_table_altered(p->db->h, t->name, ixs_ts_key(t), p->err)) {
        p->failed = 1;
        ok = 0;
    }
    return ixs_ddl_end(p, ok);
}

/* Runs ALTER TABLE: -206 without the table; the actions in order, the new
 * CHECK conditions translated against the resulting columns, the rebuild. */
int ixs_alter_run(px *p, const ddl_alter *al) {
    tdef t;
    int lr = ixs_tdef_load(p, al->name, &t), rc = -1;
    if (lr == 0) ixs_px_failc(p, IXV_E_NO_TABLE, "%s", al->name);
    for (int i = 0; lr > 0 && i < al->n && !p->failed; i++)
        apply(p, &t, &al->a[i]);
    if (lr > 0 && !p->failed && ixs_translate_checks(p, &t) == 0) rc = rebuild(p, &t);
    ixs_tdef_free(&t);
    return rc;
}
