/*
 * ixs_spl_sql.c: routines called from SQL.
 *
 *   EXECUTE PROCEDURE|FUNCTION name ( args )
 *       -> SELECT 'name', args      (a routine that is not an iterator: the
 *          engine evaluates the arguments, ends that statement and runs the
 *          routine outside any SQLite statement, ixs_spl_direct, so that the
 *          routine may run DDL and BEGIN / COMMIT / ROLLBACK WORK; a row
 *          trigger's action takes the form below, ixs_spl_nested_sql)
 *       -> SELECT c0, ... FROM _ixd_spl('name', args)   (an iterator: a
 *          cursor whose rows the routine gives as they are fetched)
 *   name ( args ) in an expression
 *       -> ixd_spl_fn('name', args)   (its one value: more rows are -686)
 *
 * The arguments are converted to the parameters' types by the translator;
 * the values come back in the storage form of the RETURNING types. Such
 * statements run in a transaction of their own when none is open (the
 * routine may write, as a TimeSeries write routine does: s->ts_write).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"
#include "server/sql/ixs_spl.h"

/* Runs routine name with the SQLite values argv (storage forms). */
static int run_values(ixs_conn *db, sqlite3_value **argv, int argc, spl_rows *rows, ixv_err *err,
                      spl_rt **rt) {
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    if (!name) return ixv_seterr(err, IXS_E_SPL_UNRESOLVED, 0, 0, NULL);
    spl_rt *r;
    int f = ixs_spl_get(db, name, argc - 1, &r, err); /* name: the routine's key */
    if (f <= 0) return f < 0 ? -1 : ixv_seterr(err, IXS_E_SPL_UNRESOLVED, 0, 0, "%s", name);
    sval args[SPL_MAX_ARGS];
    int na = argc - 1 < SPL_MAX_ARGS ? argc - 1 : SPL_MAX_ARGS;
    for (int k = 0; k < na; k++)
        ixv_sval_from_sqlite(&args[k], argv[k + 1]);
    *rt = r;
    return ixs_spl_run(db, r, args, na, rows, err);
}

/* run_values for a routine called from inside an SQL statement. */
static int run_in_dml(ixs_conn *db, sqlite3_value **argv, int argc, spl_rows *rows, ixv_err *err,
                      spl_rt **rt) {
    ixs_spl_in_dml(db, 1);
    int rc = run_values(db, argv, argc, rows, err, rt);
    ixs_spl_in_dml(db, -1);
    return rc;
}

static void fn_call(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ixs_conn *db = sqlite3_user_data(ctx);
    ixv_err err;
    memset(&err, 0, sizeof err);
    spl_rows rows;
    spl_rt *r = NULL;
    if (run_in_dml(db, argv, argc, &rows, &err, &r)) {
        if (!err.sqlcode) ixv_seterr(&err, IXV_E_NOT_IMPLEMENTED, 0, 0, "%s", err.text);
        ixv_fn_raise(ctx, &err);
        return;
    }
    if (rows.n > 1) {
        ixv_seterr(&err, IXS_E_SPL_MANY_ROWS, 0, 0, "%s", r->name);
        ixv_fn_raise(ctx, &err);
    } else if (rows.n == 1 && rows.ncols > 0)
        ixv_sval_result(&rows.v[0], ctx);
    else
        sqlite3_result_null(ctx);
    ixs_spl_rows_free(&rows);
}

/* ---- EXECUTE of a routine that is not an iterator ---------------------------------------- */

int ixs_spl_direct(ixs_stmt *s, ixs_spl_row_fn row, void *ud, ixv_err *err) {
    ixs_conn *db = s->db;
    int rc = sqlite3_step(s->st);
    if (rc != SQLITE_ROW) { /* the arguments' own error */
        ixs_sqlite_err(db, rc == SQLITE_DONE ? SQLITE_ERROR : rc, s->stype, s->table, err);
        sqlite3_reset(s->st);
        return -1;
    }
    sqlite3_value *argv[SPL_MAX_ARGS + 1];
    int argc = sqlite3_column_count(s->st), ok = 1;
    if (argc > SPL_MAX_ARGS + 1) argc = SPL_MAX_ARGS + 1;
    for (int k = 0; k < argc; k++) /* copies: they outlive the reset */
        if (!(argv[k] = sqlite3_value_dup(sqlite3_column_value(s->st, k)))) ok = 0;
    sqlite3_reset(s->st); /* no statement of the connection is active now */
    spl_rows rows;
    memset(&rows, 0, sizeof rows);
    spl_rt *r = NULL;
    rc = ok ? run_values(db, argv, argc, &rows, err, &r) : ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    if (rc && !err->sqlcode) ixv_seterr(err, IXV_E_NOT_IMPLEMENTED, 0, 0, "%s", err->text);
    for (int i = 0; !rc && i < rows.n; i++)
        rc = row(ud, &rows.v[i * rows.ncols], rows.ncols, err) ? -1 : 0;
    ixs_spl_rows_free(&rows);
    for (int k = 0; k < argc; k++)
        sqlite3_value_free(argv[k]);
    return rc ? -1 : 0;
}

/* ---- the table _ixd_spl: c0..c31 the values, then the hidden name, a0..a31 --------- */

typedef struct spl_vtab {
    sqlite3_vtab base;
    ixs_conn *db;
} spl_vtab;

typedef struct spl_cur {
    sqlite3_vtab_cursor base;
    spl_rows rows;
    int row;
} spl_cur;

static int vt_connect(sqlite3 *h, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **msg) {
    (void)argc;
    (void)argv;
    (void)msg;
    sb s = {0};
    ixv_sb_add(&s, "CREATE TABLE x(");
    for (int k = 0; k < SPL_MAX_RET; k++)
        ixv_sb_printf(&s, "c%d, ", k);
    ixv_sb_add(&s, "name HIDDEN");
    for (int k = 0; k < SPL_MAX_ARGS; k++)
        ixv_sb_printf(&s, ", a%d HIDDEN", k);
    ixv_sb_addc(&s, ')');
    int rc = s.oom ? SQLITE_NOMEM : sqlite3_declare_vtab(h, s.p);
    ixv_sb_free(&s);
    if (rc != SQLITE_OK) return rc;
    spl_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->db = aux;
    *out = &v->base;
    return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *v) {
    sqlite3_free(v);
    return SQLITE_OK;
}

/* Every argument is an equality constraint on a hidden column: they are
 * passed in column order (name, a0, a1, ...); idxNum is their count. */
static int vt_best(sqlite3_vtab *v, sqlite3_index_info *ii) {
    (void)v;
    int n = 0, have_name = 0;
    for (int k = 0; k < ii->nConstraint; k++) {
        const struct sqlite3_index_constraint *c = &ii->aConstraint[k];
        if (c->iColumn < SPL_MAX_RET) continue;
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ) return SQLITE_CONSTRAINT;
        ii->aConstraintUsage[k].argvIndex = c->iColumn - SPL_MAX_RET + 1;
        ii->aConstraintUsage[k].omit = 1;
        if (c->iColumn == SPL_MAX_RET) have_name = 1;
        n++;
    }
    if (!have_name) return SQLITE_CONSTRAINT;
    ii->idxNum = n;
    ii->estimatedCost = 1;
    ii->estimatedRows = 1;
    return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out) {
    (void)v;
    spl_cur *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *cur) {
    spl_cur *c = (spl_cur *)cur;
    ixs_spl_rows_free(&c->rows);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int vt_filter(sqlite3_vtab_cursor *cur, int idx, const char *s, int argc,
                     sqlite3_value **argv) {
    (void)idx;
    (void)s;
    spl_cur *c = (spl_cur *)cur;
    spl_vtab *v = (spl_vtab *)cur->pVtab;
    ixs_spl_rows_free(&c->rows);
    c->row = 0;
    ixv_err err;
    memset(&err, 0, sizeof err);
    spl_rt *r;
    if (run_in_dml(v->db, argv, argc, &c->rows, &err, &r)) {
        if (!err.sqlcode) ixv_seterr(&err, IXV_E_NOT_IMPLEMENTED, 0, 0, "%s", err.text);
        return ixv_vtab_raise(&err);
    }
    return SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *cur) {
    ((spl_cur *)cur)->row++;
    return SQLITE_OK;
}

static int vt_eof(sqlite3_vtab_cursor *cur) {
    spl_cur *c = (spl_cur *)cur;
    return c->row >= c->rows.n;
}

static int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
    spl_cur *c = (spl_cur *)cur;
    if (i < c->rows.ncols && c->row < c->rows.n)
        ixv_sval_result(&c->rows.v[c->row * c->rows.ncols + i], ctx);
    else
        sqlite3_result_null(ctx);
    return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *id) {
    *id = ((spl_cur *)cur)->row;
    return SQLITE_OK;
}

static const sqlite3_module spl_module = {
    .iVersion = 0,
    .xConnect = vt_connect,
    .xBestIndex = vt_best,
    .xDisconnect = vt_disconnect,
    .xOpen = vt_open,
    .xClose = vt_close,
    .xFilter = vt_filter,
    .xNext = vt_next,
    .xEof = vt_eof,
    .xColumn = vt_column,
    .xRowid = vt_rowid,
};

int ixs_spl_register(sqlite3 *h, ixs_conn *db) {
    if (sqlite3_create_function(h, "ixd_spl_fn", -1, SQLITE_UTF8, db, fn_call, NULL, NULL) !=
            SQLITE_OK ||
        ixs_cursor_register(h, db))
        return -1;
    return sqlite3_create_module(h, IXV_INTERNAL_PREFIX "spl", &spl_module, db) == SQLITE_OK ? 0
                                                                                             : -1;
}

/* ---- the translator's side ---------------------------------------------------------------- */

/* Arguments after '(' up to and including ')' into args (at most
 * SPL_MAX_ARGS: more are -674 for routine name). */
static int parse_args(px *p, const char *name, xv *args, int *na) {
    *na = 0;
    if (ixs_px_acc_op(p, ")")) return 0;
    do {
        if (*na >= SPL_MAX_ARGS) return ixs_px_failc(p, IXS_E_SPL_UNRESOLVED, "%s", name);
        xv *v = &args[(*na)++];
        memset(v, 0, sizeof *v);
        v->t.code = -1;
        v->pidx = -1;
        if (ixs_expr(p, v)) return -1;
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* The arguments converted to r's parameter types (a parameter past them
 * needs its DEFAULT). */
static int convert_args(px *p, spl_rt *r, xv *args, int na) {
    if (na > r->nparams) return ixs_px_failc(p, IXS_E_SPL_UNRESOLVED, "%s", r->name);
    for (int k = 0; k < na; k++)
        ixs_to_type(p, &args[k], r->vars[k].t);
    for (int k = na; k < r->nparams; k++)
        if (!r->vars[k].defsql) return ixs_px_failc(p, IXS_E_SPL_UNRESOLVED, "%s", r->name);
    return p->failed ? -1 : 0;
}

ityp ixs_spl_arg_type(const xv *v) {
    if (v->t.code >= 0) return v->t;
    switch (v->k) {
    case XK_STR: return ixv_t(IX_T_CHAR, (uint32_t)v->litn);
    case XK_INT: return ixv_t_default(IX_T_INTEGER);
    case XK_NUM: return ixv_t_default(IX_T_DECIMAL);
    default: return v->t; /* NULL, a placeholder: unknown */
    }
}

/* The routine fn resolves to for arguments args: 1, 0 none, -1 error. */
static int resolve(px *p, const char *fn, const xv *args, int na, spl_rt **r) {
    ityp at[SPL_MAX_ARGS];
    for (int k = 0; k < na && k < SPL_MAX_ARGS; k++)
        at[k] = ixs_spl_arg_type(&args[k]);
    int f = ixs_spl_resolve(p->db, fn, na, at, r, p->err);
    if (f < 0) p->failed = 1;
    return f;
}

/* 'key', arg, ... : the routine's key (its name, with its parameters' types
 * when the name is overloaded) and the arguments. */
static void emit_args(const spl_rt *r, const xv *args, int na, sb *out) {
    sb key = {0};
    ixs_spl_key(r, &key);
    if (key.oom) out->oom = 1;
    ixv_sb_strlit(out, key.p ? key.p : "", key.p ? key.n : 0);
    ixv_sb_free(&key);
    for (int k = 0; k < na; k++) {
        ixv_sb_add(out, ", ");
        ixv_sb_add(out, args[k].s.p ? args[k].s.p : "NULL");
    }
}

static int add_col(px *p, ixs_stmt *s, const char *name, ityp t) {
    ocol *nc = realloc(s->cols, sizeof *nc * (size_t)(s->ncols + 1));
    if (!nc) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    s->cols = nc;
    nc[s->ncols].name = strdup(name);
    nc[s->ncols].t = t;
    nc[s->ncols].notnull = 0;
    if (!nc[s->ncols].name) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    s->ncols++;
    return 0;
}

/* 1 when the statements from n on hold a RETURN ... WITH RESUME: the
 * routine is an iterator. */
static int has_resume(const spl_node *n) {
    for (; n; n = n->next) {
        if (n->kind == SN_RETURN && n->resume) return 1;
        if (has_resume(n->body) || has_resume(n->elsep)) return 1;
        for (int k = 0; k < n->nh; k++)
            if (has_resume(n->h[k].body)) return 1;
    }
    return 0;
}

int ixs_spl_execute(px *p, ixs_stmt *s, int proc, const char *name) {
    (void)proc;
    xv args[SPL_MAX_ARGS];
    int na = 0, at = p->i;
    spl_rt *r = NULL;
    int rc = parse_args(p, name, args, &na);
    int f = rc ? -1 : resolve(p, name, args, na, &r);
    if (f == 0) { /* no such routine: the caller says so, at the '(' */
        for (int k = 0; k < na; k++)
            ixs_xv_free(&args[k]);
        p->i = at;
        return 0;
    }
    if (f < 0) rc = -1;
    if (!rc) rc = convert_args(p, r, args, na);
    sb q = {0};
    int direct = !rc && !has_resume(r->body);
    if (direct) { /* the arguments only: the engine runs the routine */
        ixv_sb_add(&q, "SELECT ");
        emit_args(r, args, na, &q);
        for (int k = 0; k < r->nret && !rc; k++)
            rc = add_col(p, s, r->retname[k][0] ? r->retname[k] : "(expression)", r->ret[k]);
    } else if (!rc) {
        ixv_sb_add(&q, "SELECT ");
        for (int k = 0; k < r->nret; k++)
            ixv_sb_printf(&q, "%sc%d", k ? ", " : "", k);
        if (!r->nret) ixv_sb_add(&q, "NULL");
        ixv_sb_add(&q, " FROM " IXV_INTERNAL_PREFIX "spl(");
        emit_args(r, args, na, &q);
        ixv_sb_addc(&q, ')');
        for (int k = 0; k < r->nret && !rc; k++)
            rc = add_col(p, s, r->retname[k][0] ? r->retname[k] : "(expression)", r->ret[k]);
    }
    for (int k = 0; k < na; k++)
        ixs_xv_free(&args[k]);
    if (!rc && q.oom) rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (rc) {
        ixv_sb_free(&q);
        return -1;
    }
    s->kind = r->nret ? SK_SELECT : SK_DML;
    s->stype = IX_STMTTYPE_EXECUTE_PROC;
    s->spl_direct = direct;
    s->spl_txn = direct && r->txn;
    s->sqlite_sql = ixv_sb_take(&q);
    p->ts_write = 1;
    return s->sqlite_sql ? 1 : ixs_px_failc(p, IXV_E_NOMEM, NULL);
}

void ixs_spl_nested_sql(const ixs_stmt *s, sb *out) {
    static const char sel[] = "SELECT ";
    ixv_sb_add(out, sel);
    for (int k = 0; k < s->ncols; k++)
        ixv_sb_printf(out, "%sc%d", k ? ", " : "", k);
    if (!s->ncols) ixv_sb_add(out, "NULL");
    ixv_sb_add(out, " FROM " IXV_INTERNAL_PREFIX "spl(");
    ixv_sb_add(out, s->sqlite_sql + sizeof sel - 1);
    ixv_sb_addc(out, ')');
}

/* The name of returned column k in a derived table: its AS name, else
 * "(expression)" numbered from the second on (the names must differ). */
static void ret_col_name(const spl_rt *r, int k, char *out, size_t n) {
    int unnamed = 0;
    for (int j = 0; j < k; j++)
        if (!r->retname[j][0]) unnamed++;
    if (r->retname[k][0])
        snprintf(out, n, "%s", r->retname[k]);
    else if (unnamed)
        snprintf(out, n, "(expression)%d", unnamed + 1);
    else
        snprintf(out, n, "(expression)");
}

int ixs_spl_from_emit(px *p, const char *fn, struct ixs_ex *const *args, int na, int args_end,
                      qres *q) {
    xv v[SPL_MAX_ARGS];
    int n = 0, rc = na > SPL_MAX_ARGS ? ixs_px_failc(p, IXS_E_SPL_UNRESOLVED, "%s", fn) : 0;
    while (!rc && n < na) {
        ixs_xv_init(&v[n]);
        ixs_px_at(p, args[n]->end);
        rc = ixs_ex_resolve(p, args[n]) || ixs_ex_emit(p, args[n], &v[n]) ? -1 : 0;
        n++;
    }
    ixs_px_at(p, args_end);
    spl_rt *r = NULL;
    int f = rc ? -1 : resolve(p, fn, v, n, &r);
    if (!rc && f == 0) rc = ixs_px_failc(p, IXS_E_SPL_UNRESOLVED, "%s", fn);
    if (!rc && f < 0) rc = -1;
    if (!rc && r->nret == 0) rc = ixs_px_failc(p, IXS_E_SPL_NOT_PROC, "%s", fn);
    if (!rc) rc = convert_args(p, r, v, n);
    if (!rc) {
        ixv_sb_add(&q->sql, "SELECT ");
        for (int k = 0; k < r->nret && !rc; k++) {
            char name[IXS_NAME_MAX + 16];
            ret_col_name(r, k, name, sizeof name);
            ixv_sb_printf(&q->sql, "%sc%d AS ", k ? ", " : "", k);
            ixv_sb_ident(&q->sql, name);
            ocol *nc = realloc(q->cols, sizeof *nc * (size_t)(q->ncols + 1));
            if (!nc || !(name[0] && (nc[q->ncols].name = strdup(name)))) {
                if (nc) q->cols = nc;
                rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
                break;
            }
            q->cols = nc;
            nc[q->ncols].t = r->ret[k];
            nc[q->ncols].notnull = 0;
            nc[q->ncols].stored = 0;
            q->ncols++;
        }
        ixv_sb_add(&q->sql, " FROM " IXV_INTERNAL_PREFIX "spl(");
        emit_args(r, v, n, &q->sql);
        ixv_sb_addc(&q->sql, ')');
        if (!rc && q->sql.oom) rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
        p->ts_write = 1;
    }
    for (int k = 0; k < n; k++)
        ixs_xv_free(&v[k]);
    return rc;
}

int ixs_spl_ret_type(px *p, const char *fn, const ityp *argt, int na, ityp *t) {
    spl_rt *r;
    ixv_err err;
    memset(&err, 0, sizeof err);
    if (ixs_spl_resolve(p->db, fn, na, argt, &r, &err) != 1 || r->nret == 0 || na > r->nparams)
        return 0;
    *t = r->ret[0];
    return 1;
}

int ixs_spl_call(px *p, const char *fn, xv *args, int na, xv *out) {
    spl_rt *r;
    int f = na > SPL_MAX_ARGS ? 0 : resolve(p, fn, args, na, &r);
    if (f < 0) return -1;
    if (!f || r->nret == 0 || na > r->nparams)
        return ixs_px_failc(p, IXS_E_SPL_UNRESOLVED, "%s", fn);
    if (convert_args(p, r, args, na)) return -1;
    ixv_sb_add(&out->s, "ixd_spl_fn(");
    emit_args(r, args, na, &out->s);
    ixv_sb_addc(&out->s, ')');
    out->t = r->ret[0];
    out->k = XK_EXPR;
    out->lk = LB_EXPR;
    p->ts_write = 1;
    return p->failed ? -1 : 0;
}
