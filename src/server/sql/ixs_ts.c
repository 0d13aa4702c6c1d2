/*
 * ixs_ts.c: the TimeSeries statements and routine calls of Informix SQL,
 * translated for the engine in src/server/ts (through ts.h only):
 *
 *   CREATE / DROP ROW TYPE                             ixs_rowtype.c
 *   column type TIMESERIES ( row_type )                in CREATE TABLE
 *   EXECUTE FUNCTION oni_ts_x ( args )                 a cursor of the result
 *   EXECUTE PROCEDURE oni_ts_x ( args )                the result discarded;
 *                                                      an INTEGER result is the
 *                                                      rows-processed count
 *   oni_ts_x ( args )                                  in expressions
 *   TABLE ( [FUNCTION] oni_ts_read_rows ( args )
 *           [ :: MULTISET ( row_type ) ] )             in FROM
 *
 * Scalar routines become calls of SQLite functions, the table routines
 * (oni_ts_read_rows, oni_ts_aggregate) a SELECT from their virtual table
 * with columns named after the row type.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex_tree.h"
#include "server/sql/ixs_parse.h"
#include "server/sql/ixs_spl.h"
#include "server/ts/ts.h"

#define TS_MAX_ARGS IXS_TS_MAXARGS

enum {
    IXS_E_ROUTINE_UNRESOLVED = IXV_E_ROUTINE_UNRESOLVED, /* Routine (%s) can not be resolved. */
    IXS_E_MANY_ROWS = IXV_E_MANY_ROWS, /* Function (%s) has returned more than one row. */
    IXS_E_ROUTINE = IXV_E_TEXT,        /* %s */
};

/* The arguments of a call, after its '(' up to and including ')'. */
typedef struct targs {
    xv v[TS_MAX_ARGS];
    int n;
} targs;

static void targs_free(targs *a) {
    for (int k = 0; k < a->n; k++)
        ixs_xv_free(&a->v[k]);
    a->n = 0;
}

/* Argument k of routine r: the key (2) keeps its type (an untyped ? is
 * VARCHAR); element lists are TEXT when bound; the rest is text. */
static void arg_type(px *p, const ts_routine *r, int k, xv *v) {
    if (k == 2 && strcmp(r->name, "oni_ts_write_file")) {
        if (v->k == XK_PARAM) ixs_to_type(p, v, ixv_t(IX_T_VARCHAR, 255));
        return;
    }
    if (k == 3 && v->k == XK_PARAM &&
        (!strcmp(r->name, "oni_ts_write_many") || !strcmp(r->name, "oni_ts_write"))) {
        ixs_to_type(p, v, ixv_t(IX_T_TEXT, 56));
        return;
    }
    ixs_to_type(p, v, ixv_t(IX_T_LVARCHAR, 32739));
}

/* The count and types of a's arguments for r. */
static int args_check(px *p, const ts_routine *r, targs *a) {
    if (a->n < r->min_args || a->n > r->max_args)
        return ixs_px_failc(p, IXS_E_ROUTINE_UNRESOLVED, "%s", r->name);
    for (int k = 0; k < a->n; k++)
        arg_type(p, r, k, &a->v[k]);
    return p->failed ? -1 : 0;
}

static int parse_args(px *p, const ts_routine *r, targs *a) {
    a->n = 0;
    if (r->writes) p->ts_write = 1;
    if (!ixs_px_acc_op(p, ")")) {
        do {
            if (a->n >= TS_MAX_ARGS)
                return ixs_px_failc(p, IXS_E_ROUTINE_UNRESOLVED, "%s", r->name);
            xv *v = &a->v[a->n++];
            memset(v, 0, sizeof *v);
            v->t.code = -1;
            v->pidx = -1;
            if (ixs_expr(p, v)) return -1;
        } while (ixs_px_acc_op(p, ","));
        if (ixs_px_expect_op(p, ")")) return -1;
    }
    return args_check(p, r, a);
}

/* Appends "name(a, b, ...)" (n arguments) to out. */
static void emit_call(const char *name, const xv *a, int n, sb *out) {
    ixv_sb_add(out, name);
    ixv_sb_addc(out, '(');
    for (int k = 0; k < n; k++) {
        if (k) ixv_sb_add(out, ", ");
        ixv_sb_add(out, a[k].s.p ? a[k].s.p : "NULL");
    }
    ixv_sb_addc(out, ')');
}

static ityp ret_type(const ts_routine *r) {
    return r->ret == TS_RET_INT ? ixv_t(IX_T_INTEGER, 4) : ixv_t(IX_T_LVARCHAR, 32739);
}

/* ---- in expressions ------------------------------------------------------------------ */

/* name ( args ) of a TimeSeries routine: the routine found before its
 * arguments are resolved, their count checked after. */
int ixs_ts_call_resolve(px *p, ixs_ex *e) {
    const char *fn = e->part[0];
    const ts_routine *r = ixts_routine_find(fn);
    ixs_px_at(p, e->tok + 2); /* after name ( */
    if (!r) return ixs_px_failc(p, IXS_E_ROUTINE_UNRESOLVED, "%s", fn);
    if (r->ret == TS_RET_ROWS || r->ret == TS_RET_AGG)
        return ixs_px_failc(p, IXS_E_MANY_ROWS, "%s", fn);
    if (r->writes) p->ts_write = 1;
    for (int k = 0; k < e->nk; k++)
        if (ixs_ex_resolve(p, e->kids[k])) return -1;
    ixs_px_at(p, e->end);
    if (e->nk < r->min_args || e->nk > r->max_args)
        return ixs_px_failc(p, IXS_E_ROUTINE_UNRESOLVED, "%s", fn);
    e->ts = r;
    e->t = ret_type(r);
    return 0;
}

/* The call of the routine's SQLite function, its n arguments a emitted. */
int ixs_ts_call_emit(px *p, const ixs_ex *e, xv *a, int n, xv *out) {
    for (int k = 0; k < n; k++)
        arg_type(p, e->ts, k, &a[k]);
    if (p->failed) return -1;
    emit_call(e->ts->sqlite_name, a, n, &out->s);
    out->t = e->t;
    out->k = XK_EXPR;
    out->lk = LB_EXPR;
    return out->s.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
}

/* ---- the rows of a table routine ----------------------------------------------------------- */

static int add_out(px *p, qres *q, const char *name, ityp t) {
    ocol *nc = realloc(q->cols, sizeof *nc * (size_t)(q->ncols + 1));
    if (!nc) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    q->cols = nc;
    q->cols[q->ncols].name = strdup(name);
    q->cols[q->ncols].t = t;
    q->cols[q->ncols].notnull = 0;
    q->cols[q->ncols].stored = 0;
    if (!q->cols[q->ncols].name) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    q->ncols++;
    return 0;
}

/* The row type of a table routine's series: the cast's, else the one of the
 * (literal) table and column arguments. */
static int call_rowtype(px *p, const ts_routine *r, const targs *a, const char *cast,
                        ts_rowtype *rt) {
    char name[IXS_NAME_MAX + 1];
    if (cast && *cast) {
        snprintf(name, sizeof name, "%s", cast);
    } else {
        const xv *t = &a->v[0], *c = &a->v[1];
        if (!t->lit || !c->lit)
            return ixs_px_failc(p, IXS_E_ROUTINE,
                                "%s needs literal table and column names, or ::MULTISET(row_type)",
                                r->name);
        char tab[IXS_NAME_MAX + 1], col[IXS_NAME_MAX + 1];
        snprintf(tab, sizeof tab, "%s", t->lit);
        snprintf(col, sizeof col, "%s", c->lit);
        for (char *s = tab; *s; s++)
            *s = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
        for (char *s = col; *s; s++)
            *s = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
        int f = ixts_column_rowtype(p->db->h, tab, col, name, sizeof name);
        if (f < 0) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        if (!f) return ixs_px_failc(p, IXS_E_ROUTINE, "%s.%s is not a TIMESERIES column", tab, col);
    }
    int f = ixts_rowtype_load(p->db->h, name, rt);
    if (f <= 0) return ixs_px_failc(p, IXS_E_ROUTINE, "Row type %s does not exist", name);
    return 0;
}

/* SELECT of the rows of table routine r into q (SQL and columns). */
static int table_select(px *p, const ts_routine *r, const targs *a, const char *cast, qres *q) {
    ts_rowtype rt;
    if (call_rowtype(p, r, a, cast, &rt)) return -1;
    sb *s = &q->sql;
    ixv_sb_add(s, "SELECT c0 AS ");
    if (r->ret == TS_RET_ROWS) {
        ixv_sb_ident(s, rt.f[0].name);
        if (add_out(p, q, rt.f[0].name, ixv_t(IX_T_DATETIME, rt.f[0].len))) return -1;
        for (int m = 1; m < rt.nf; m++) {
            ixv_sb_printf(s, ", c%d AS ", m);
            ixv_sb_ident(s, rt.f[m].name);
            if (add_out(p, q, rt.f[m].name, ixv_t(rt.f[m].code, rt.f[m].len))) return -1;
        }
    } else {
        const xv *aggs = &a->v[6];
        int ids[TS_NAGG];
        int na = aggs->lit ? ixts_agg_parse(aggs->lit, ids) : -1;
        if (na < 0)
            return ixs_px_failc(
                p, IXS_E_ROUTINE,
                "oni_ts_aggregate needs a literal list of min, max, avg, sum, count, "
                "first, last");
        ixv_sb_add(s, "\"ts\"");
        if (add_out(p, q, "ts", ixv_t(IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5)))))
            return -1;
        for (int m = 1; m < rt.nf; m++)
            for (int k = 0; k < na; k++) {
                char nm[IXS_NAME_MAX + 16];
                snprintf(nm, sizeof nm, "%s_%s", rt.f[m].name, ixts_agg_name(ids[k]));
                ityp t = ids[k] == TS_AGG_COUNT ? ixv_t(IX_T_INTEGER, 4)
                         : ids[k] == TS_AGG_SUM || ids[k] == TS_AGG_AVG
                             ? ixv_t(IX_T_FLOAT, 8)
                             : ixv_t(rt.f[m].code, rt.f[m].len);
                ixv_sb_printf(s, ", c%d AS ", 1 + (m - 1) * TS_NAGG + ids[k]);
                ixv_sb_ident(s, nm);
                if (add_out(p, q, nm, t)) return -1;
            }
    }
    ixv_sb_add(s, " FROM ");
    emit_call(r->sqlite_name, a->v, a->n, s);
    return s->oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
}

/* TABLE ( [FUNCTION] name ( args ) [ :: MULTISET ( row_type ) ] ) in FROM, parsed. */
struct ixs_ts_from {
    char fn[IXS_NAME_MAX + 1];
    ixs_ex *arg[TS_MAX_ARGS];
    int n;
    int over;     /* more than TS_MAX_ARGS arguments */
    int args_end; /* the token after the arguments' ")" */
    char cast[IXS_NAME_MAX + 1];
};

void ixs_ts_from_free(ixs_ts_from *f) {
    if (!f) return;
    for (int k = 0; k < f->n; k++)
        ixs_ex_free(f->arg[k]);
    free(f);
}

/* The arguments after "(" up to and including ")". */
static int from_args_parse(px *p, ixs_ts_from *f) {
    if (!ixs_px_acc_op(p, ")")) {
        do {
            ixs_ex *e = ixs_ex_parse(p, IXS_EX_VALUE);
            if (!e) return -1;
            if (f->n < TS_MAX_ARGS)
                f->arg[f->n++] = e;
            else {
                ixs_ex_free(e);
                f->over = 1;
            }
        } while (ixs_px_acc_op(p, ","));
        if (ixs_px_expect_op(p, ")")) return -1;
    }
    f->args_end = p->i;
    return 0;
}

/* :: MULTISET | SET | LIST ( row_type [NOT NULL] ), after "::" */
static int from_cast_parse(px *p, char *cast, size_t n) {
    if (!ixs_px_acc(p, IXK_MULTISET) && !ixs_px_acc(p, IXK_SET) && !ixs_px_acc(p, IXK_LIST))
        return ixs_px_fail(p);
    if (ixs_px_expect_op(p, "(") || ixs_px_ident(p, cast, n)) return -1;
    if (ixs_px_acc(p, IXK_NOT) && ixs_px_expect(p, IXK_NULL)) return -1;
    return ixs_px_expect_op(p, ")");
}

ixs_ts_from *ixs_ts_from_parse(px *p) {
    ixs_ts_from *f = calloc(1, sizeof *f);
    if (!f) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    int rc = ixs_px_expect(p, IXK_TABLE) || ixs_px_expect_op(p, "(") ? -1 : 0;
    if (!rc) ixs_px_acc(p, IXK_FUNCTION);
    if (!rc && (ixs_px_ident(p, f->fn, sizeof f->fn) || ixs_px_expect_op(p, "("))) rc = -1;
    if (!rc) rc = from_args_parse(p, f);
    if (!rc && ixs_px_acc_op(p, "::")) rc = from_cast_parse(p, f->cast, sizeof f->cast);
    if (!rc && ixs_px_expect_op(p, ")")) rc = -1;
    if (rc) {
        ixs_ts_from_free(f);
        return NULL;
    }
    return f;
}

int ixs_ts_from_emit(px *p, const ixs_ts_from *f, qres *q) {
    const ts_routine *r = ixts_routine_find(f->fn);
    if (!r && !f->over) return ixs_spl_from_emit(p, f->fn, f->arg, f->n, f->args_end, q);
    if (!r) return ixs_px_failc(p, IXS_E_ROUTINE_UNRESOLVED, "%s", f->fn);
    if (r->ret != TS_RET_ROWS && r->ret != TS_RET_AGG)
        return ixs_px_failc(p, IXS_E_ROUTINE, "%s does not return rows", f->fn);
    if (r->writes) p->ts_write = 1;
    if (f->over) return ixs_px_failc(p, IXS_E_ROUTINE_UNRESOLVED, "%s", r->name);
    targs a;
    int rc = 0;
    for (a.n = 0; a.n < f->n && !rc;) {
        xv *v = &a.v[a.n++];
        ixs_xv_init(v);
        ixs_px_at(p, f->arg[a.n - 1]->end); /* where the argument's parse ended */
        rc = ixs_ex_resolve(p, f->arg[a.n - 1]) || ixs_ex_emit(p, f->arg[a.n - 1], v) ? -1 : 0;
    }
    ixs_px_at(p, f->args_end);
    if (!rc) rc = args_check(p, r, &a);
    if (!rc) rc = table_select(p, r, &a, f->cast, q);
    targs_free(&a);
    return rc;
}

/* ---- EXECUTE FUNCTION / PROCEDURE ------------------------------------------------------- */

int ixs_ts_execute(px *p, ixs_stmt *s) {
    if (ixs_px_expect(p, IXK_EXECUTE)) return -1;
    int proc = ixs_px_acc(p, IXK_PROCEDURE);
    if (!proc && ixs_px_expect(p, IXK_FUNCTION)) return -1;
    char fn[IXS_NAME_MAX + 1];
    if (ixs_px_ident(p, fn, sizeof fn) || ixs_px_expect_op(p, "(")) return -1;
    const ts_routine *r = ixts_routine_find(fn);
    int spl = r ? 0 : ixs_spl_execute(p, s, proc, fn); /* a user routine */
    if (spl) return spl < 0 ? -1 : 0;
    if (!r) return ixs_px_failc(p, IXS_E_ROUTINE_UNRESOLVED, "%s", fn);
    targs a;
    qres q;
    memset(&q, 0, sizeof q);
    int rc = parse_args(p, r, &a);
    if (!rc && (r->ret == TS_RET_ROWS || r->ret == TS_RET_AGG)) {
        if (proc) rc = ixs_px_failc(p, IXS_E_MANY_ROWS, "%s", fn);
        if (!rc) rc = table_select(p, r, &a, NULL, &q);
    } else if (!rc) {
        ixv_sb_add(&q.sql, "SELECT ");
        emit_call(r->sqlite_name, a.v, a.n, &q.sql);
        if (!proc) rc = add_out(p, &q, "(expression)", ret_type(r));
        s->run_at_open = 1; /* one value, not an iterator */
    }
    targs_free(&a);
    if (!rc && q.sql.oom) rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (!rc) {
        s->kind = proc ? SK_DML : SK_SELECT;
        s->stype = IX_STMTTYPE_EXECUTE_PROC;
        s->sqlite_sql = ixv_sb_take(&q.sql);
        s->cols = q.cols;
        s->ncols = q.ncols;
        q.cols = NULL;
        q.ncols = 0;
        if (!s->sqlite_sql) rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
    }
    ixs_qres_free(&q);
    return rc;
}

/* ---- DDL -------------------------------------------------------------------------------- */

int ixs_ts_rowtype_stmt(px *p, int create, int *stype, ixs_plan *pl) {
    return ixs_row_stmt(p, create, stype, pl); /* one catalogue of row types (ixs_rowtype.c) */
}
