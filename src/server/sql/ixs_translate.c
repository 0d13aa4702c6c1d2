/*
 * ixs_translate.c: statement dispatch: the parser state (ixs_px_init / done)
 * and ixs_translate, which sends each statement kind to its parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "server/sql/ixs_lob.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_parse.h"
#include "server/sql/ixs_sel.h"
#include "server/sql/ixs_spl.h"

#define MAXC IXS_MAX_COLS
#include "server/sql/ixs_ddl_int.h"

int ixs_at_end(px *p) {
    ixs_px_acc_op(p, ";");
    if (p->i < p->nt && p->t[p->i].k != T_EOF) return ixs_px_fail(p);
    return 0;
}

int ixs_px_init(px *p, ixs_conn *db, const char *sql, size_t n, ixv_err *err) {
    memset(p, 0, sizeof *p);
    p->db = db;
    p->sql = sql;
    p->n = n;
    p->err = err;
    memset(err, 0, sizeof *err);
    for (size_t i = 0; i < n; i++)
        if (sql[i] == 0) return ixv_seterr(err, IXV_E_SYNTAX, 0, (int)i, NULL);
    if (ixs_lex(p)) return -1;
    int np = 0;
    for (int i = 0; i < p->nt; i++)
        if (p->t[i].k == T_PARAM) np++;
    p->ptypes = calloc((size_t)(np ? np : 1), sizeof(ityp));
    if (!p->ptypes) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    for (int i = 0; i < np; i++)
        p->ptypes[i].code = -1;
    p->nparams = np;
    return 0;
}

void ixs_px_done(px *p) {
    ixs_row_ref_free(ixs_row_ref_take(p));
    free(p->t);
    free(p->ptypes);
    p->t = NULL;
    p->ptypes = NULL;
}

int ixs_bind_params(const ixs_stmt *s, sqlite3_stmt *st) {
    for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
        const char *nm = sqlite3_bind_parameter_name(st, i);
        int k = nm && nm[0] == '?' ? atoi(nm + 1) - 1 : -1;
        int rc = s && k >= 0 && k < s->nparams && s->pset && s->pset[k]
                     ? ixv_sval_bind_static(&s->pvals[k], st, i)
                     : sqlite3_bind_null(st, i);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

/* What follows a statement's SELECT: INTO TEMP and the table's name. */
typedef struct into_tail {
    int into; /* INTO TEMP is there */
    char name[IXS_NAME_MAX + 1];
} into_tail;

/* [ INTO TEMP name [ WITH NO LOG ] ] and the end, after a statement's
 * SELECT, into the into_tail ud. */
static int into_temp_tail(px *p, void *ud) {
    into_tail *it = ud;
    if (ixs_px_acc(p, IXK_INTO)) {
        it->into = 1;
        if (ixs_px_expect(p, IXK_TEMP) || ixs_px_newname(p, it->name, sizeof it->name)) return -1;
        if (ixs_px_acc(p, IXK_WITH) && (ixs_px_expect(p, IXK_NO) || ixs_px_expect(p, IXK_LOG)))
            return -1;
    }
    return ixs_at_end(p);
}

/* SELECT ... INTO TEMP prepared: its query tree q (then s's) kept as s's
 * DDL_INTO_TEMP tree. */
static int into_temp_prepare(px *p, ixs_stmt *s, ixs_sel *q, const char *name) {
    ixs_ddl *d = calloc(1, sizeof *d);
    if (!d) {
        ixs_sel_free(q);
        return ixv_seterr(p->err, IXV_E_NOMEM, 0, 0, NULL);
    }
    d->kind = DDL_INTO_TEMP;
    d->stype = IX_STMTTYPE_SELECT_INTO_TEMP;
    d->u.it.q = q;
    d->u.it.sel = 0;
    snprintf(d->u.it.name, sizeof d->u.it.name, "%s", name);
    return ixs_ddl_keep(p, s, d);
}

static int at_end_tail(px *p, void *ud) {
    (void)ud;
    return ixs_at_end(p);
}

static int translate1(ixs_conn *db, ixs_stmt *s, const char *sql, size_t n, ixv_err *err) {
    px p;
    if (ixs_px_init(&p, db, sql, n, err)) {
        ixs_px_done(&p);
        return -1;
    }
    int rc;
    if (ixs_px_kw(&p, 0, IXK_SELECT) || (ixs_px_op(&p, 0, "(") && ixs_px_kw(&p, 1, IXK_SELECT))) {
        qres q;
        memset(&q, 0, sizeof q);
        s->kind = SK_SELECT;
        s->stype = IX_STMTTYPE_SELECT;
        p.row_top = !db->spl_prep; /* its ROW values are sent as text to a client */
        p.rowid_want = ixs_cursor_wanted(&p);
        into_tail it;
        memset(&it, 0, sizeof it);
        ixs_sel *keep = NULL;
        rc = ixs_select_keep(&p, &q, into_temp_tail, &it, &keep);
        if (!rc && it.into) {
            /* its tree runs at execute time, like DDL */
            ixs_qres_free(&q);
            rc = into_temp_prepare(&p, s, keep, it.name);
            if (!rc) { /* its parameters as the query met them: bound at execute */
                s->nparams = p.nparams;
                s->ptypes = p.ptypes;
                p.ptypes = NULL;
            }
            ixs_px_done(&p);
            return rc ? -1 : 0;
        }
        ixs_sel_free(keep);
        if (!rc) {
            s->sqlite_sql = ixv_sb_take(&q.sql);
            s->cols = q.cols;
            s->ncols = q.ncols;
            ixs_cursor_stmt(&p, s);
            q.cols = NULL;
            q.ncols = 0;
            if (!s->sqlite_sql) rc = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
        }
        ixs_qres_free(&q);
    } else if (ixs_px_kw(&p, 0, IXK_EXECUTE) &&
               (ixs_px_kw(&p, 1, IXK_FUNCTION) || ixs_px_kw(&p, 1, IXK_PROCEDURE))) {
        rc = ixs_ts_execute(&p, s);
        if (!rc) rc = ixs_at_end(&p);
    } else if (ixs_px_kw(&p, 0, IXK_MERGE)) {
        s->kind = SK_MERGE;
        s->stype = IX_STMTTYPE_MERGE;
        p.i = 1;
        rc = ixs_merge_prepare(&p, s);
        if (!rc) rc = ixs_at_end(&p);
    } else if (ixs_px_kw(&p, 0, IXK_INSERT) ||
               (ixs_px_kw(&p, 0, IXK_UPDATE) && !ixs_is_update_statistics(&p)) ||
               ixs_px_kw(&p, 0, IXK_DELETE)) {
        s->kind = SK_DML;
        rc = ixs_dml_tail(&p, s, at_end_tail, NULL);
        if (!rc) {
            /* child tables with foreign keys give -691 */
            int64_t v;
            s->has_fk =
                ixs_ddl_q_int(db,
                              "SELECT 1 FROM _ixd_constraints c JOIN _ixd_tables t ON "
                              "t.tabid = c.tabid WHERE t.tabname = ? AND c.constrtype = 'R'",
                              s->table, &v) == 1;
        }
    } else {
        rc = ixs_ddl_prepare(&p, s);
    }
    if (!rc && s->kind != SK_SQL) {
        s->ts_write = p.ts_write;
        s->nparams = p.nparams;
        s->ptypes = p.ptypes;
        p.ptypes = NULL;
    }
    ixs_px_done(&p);
    return rc ? -1 : 0;
}

/* Informix checks the syntax of a statement before it looks up its names
 * (-201 rather than -206 or -217 when both are wrong): every statement is
 * parsed whole before its names are resolved (ixs_sel_parse.c, the DDL
 * trees), so one pass gives that order. */
int ixs_translate(ixs_conn *db, ixs_stmt *s, const char *sql, size_t n, ixv_err *err) {
    return translate1(db, s, sql, n, err);
}
