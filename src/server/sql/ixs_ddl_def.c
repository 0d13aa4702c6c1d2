/*
 * ixs_ddl_def.c: table definitions as DDL parses them: tdef / cdef / kdef
 * (copy, free, look-up), column definitions, column and table constraints,
 * defaults and CHECK texts, TimeSeries row types of columns.
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
#include "server/sql/ixs_ex.h"
#include "server/sql/ixs_parse.h"
#include "server/sql/ixs_sel.h"
#include "server/sql/ixs_spl.h"
#include "server/ts/ts.h"

#define MAXC IXS_MAX_COLS
#include "server/sql/ixs_ddl_int.h"

void ixs_kdef_free(kdef *k) {
    if (k->check_own) ixs_ex_free(k->check);
    k->check = NULL;
    k->check_own = 0;
    free(k->cols);
    free(k->checksql);
    free(k->refcols);
    free(k->ifxcheck);
    k->cols = k->checksql = k->refcols = k->ifxcheck = NULL;
}

void ixs_tdef_free(tdef *t) {
    for (int i = 0; i < t->ncols; i++) {
        free(t->cols[i].defsql);
        ixs_row_ref_free(t->cols[i].rowref);
    }
    free(t->cols);
    for (int i = 0; i < t->nk; i++)
        ixs_kdef_free(&t->k[i]);
    free(t->k);
    for (int i = 0; i < t->nx; i++)
        free(t->x[i].cols);
    free(t->x);
    memset(t, 0, sizeof *t);
}

cdef *ixs_tdef_addcol(px *p, tdef *t) {
    if (t->ncols >= MAXC) {
        ixs_px_fail(p);
        return NULL;
    }
    cdef *n = realloc(t->cols, sizeof(cdef) * (size_t)(t->ncols + 1));
    if (!n) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    t->cols = n;
    memset(&n[t->ncols], 0, sizeof(cdef));
    return &n[t->ncols++];
}

kdef *ixs_tdef_addk(px *p, tdef *t) {
    if (t->nk >= MAXC) {
        ixs_px_fail(p);
        return NULL;
    }
    kdef *n = realloc(t->k, sizeof(kdef) * (size_t)(t->nk + 1));
    if (!n) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    t->k = n;
    memset(&n[t->nk], 0, sizeof(kdef));
    n[t->nk].check_tok = -1;
    return &n[t->nk++];
}

int ixs_tdef_find(const tdef *t, const char *name) {
    for (int i = 0; i < t->ncols; i++)
        if (!strcmp(t->cols[i].name, name)) return i;
    return -1;
}

static int dup_str(px *p, char **dst, const char *src) {
    *dst = NULL;
    if (!src) return 0;
    *dst = strdup(src);
    return *dst ? 0 : ixs_px_failc(p, IXV_E_NOMEM, NULL);
}

int ixs_cdef_copy(px *p, cdef *dst, const cdef *src) {
    *dst = *src;
    dst->rowref = NULL;
    return dup_str(p, &dst->defsql, src->defsql);
}

int ixs_kdef_copy(px *p, kdef *dst, const kdef *src) {
    *dst = *src;
    dst->check_own = 0; /* the tree stays src's */
    dst->cols = dst->checksql = dst->refcols = dst->ifxcheck = NULL;
    if (dup_str(p, &dst->cols, src->cols) || dup_str(p, &dst->checksql, src->checksql) ||
        dup_str(p, &dst->refcols, src->refcols) || dup_str(p, &dst->ifxcheck, src->ifxcheck)) {
        ixs_kdef_free(dst);
        return -1;
    }
    return 0;
}

/* A deep copy of src (its index list excepted: a new table has none). */
int ixs_tdef_copy(px *p, tdef *dst, const tdef *src) {
    *dst = *src;
    dst->cols = NULL;
    dst->k = NULL;
    dst->x = NULL;
    dst->ncols = dst->nk = dst->nx = 0;
    for (int i = 0; i < src->ncols; i++) {
        cdef *c = ixs_tdef_addcol(p, dst);
        if (!c || ixs_cdef_copy(p, c, &src->cols[i])) return -1;
    }
    for (int i = 0; i < src->nk; i++) {
        kdef *k = ixs_tdef_addk(p, dst);
        if (!k || ixs_kdef_copy(p, k, &src->k[i])) return -1;
    }
    return 0;
}

static int col_list(px *p, const tdef *t, char **out) {
    sb b = {0};
    if (ixs_px_expect_op(p, "(")) return -1;
    do {
        char c[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, c, sizeof c)) {
            ixv_sb_free(&b);
            return -1;
        }
        if (t && !t->defer_cols && ixs_tdef_find(t, c) < 0) {
            ixv_sb_free(&b);
            return ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", c);
        }
        if (b.n) ixv_sb_addc(&b, ',');
        ixv_sb_add(&b, c);
    } while (ixs_px_acc_op(p, ","));
    if (ixs_px_expect_op(p, ")")) {
        ixv_sb_free(&b);
        return -1;
    }
    *out = ixv_sb_take(&b);
    return *out ? 0 : ixs_px_failc(p, IXV_E_NOMEM, NULL);
}

/* [CONSTRAINT [owner.]name] */
static int opt_cname(px *p, kdef *k) {
    if (!ixs_px_acc(p, IXK_CONSTRAINT)) return 0;
    ixs_name o;
    if (ixs_name_parse(p, IXS_NAME_NEW, &o)) return -1;
    snprintf(k->name, sizeof k->name, "%s", o.name);
    snprintf(k->owner, sizeof k->owner, "%s", o.owner);
    return 0;
}

/* REFERENCES [db:][owner.]table [(cols)] [ON DELETE CASCADE], after REFERENCES */
static int references(px *p, kdef *k) {
    if (ixs_px_objname(p, IXS_NAME_DB, k->reftab, sizeof k->reftab)) return -1;
    if (ixs_px_op(p, p->i, "(") && col_list(p, NULL, &k->refcols)) return -1;
    if (ixs_px_acc(p, IXK_ON)) {
        if (ixs_px_expect(p, IXK_DELETE) || ixs_px_expect(p, IXK_CASCADE)) return -1;
        k->cascade = 1;
    }
    return 0;
}

/* The value of DEFAULT, after DEFAULT, as storage SQL into c->defsql:
 *   NULL | TODAY | { CURRENT | SYSDATE } [qualifier] | USER | constant
 * (a constant expression, converted to the column's type). */
static int default_value(px *p, cdef *c) {
    sb d = {0};
    c->deftext[0] = 0;
    if (ixs_px_acc(p, IXK_NULL)) {
        c->deftype = 'N';
        ixv_sb_add(&d, "NULL");
    } else if (ixs_px_acc(p, IXK_TODAY)) {
        c->deftype = 'T';
        ixv_sb_add(&d, "ixv_today()");
    } else if (ixs_px_kw(p, p->i, IXK_CURRENT) || ixs_px_kw(p, p->i, IXK_SYSDATE)) {
        c->deftype = 'C';
        p->i++;
        uint32_t q = c->t.code == IX_T_DATETIME ? c->t.len : ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(3));
        if (ixs_px_is_ident(p, p->i) && !ixs_px_kw(p, p->i, IXK_NOT) &&
            !ixs_px_kw(p, p->i, IXK_NULL) && !ixs_px_kw(p, p->i, IXK_PRIMARY) &&
            !ixs_px_kw(p, p->i, IXK_UNIQUE) && !ixs_px_kw(p, p->i, IXK_CHECK) &&
            !ixs_px_kw(p, p->i, IXK_REFERENCES) && !ixs_px_kw(p, p->i, IXK_CONSTRAINT) &&
            !ixs_px_kw(p, p->i, IXK_DISTINCT)) {
            if (ixs_parse_qual(p, 0, &q)) return -1;
        }
        if (c->t.code == IX_T_DATETIME)
            ixv_sb_printf(&d, "ixd_extend(ixd_current(%u),%d,%u,%u)", q, IX_T_DATETIME, q,
                          c->t.len);
        else
            ixv_sb_printf(&d, "ixd_current(%u)", q);
    } else if (ixs_px_acc(p, IXK_USER)) {
        c->deftype = 'U';
        ixv_sb_strlit(&d, p->db->user, strlen(p->db->user));
    } else {
        xv v;
        int at = p->i;
        if (ixs_expr(p, &v)) {
            ixs_xv_free(&v);
            return -1;
        }
        if (v.k != XK_STR && v.k != XK_NUM && v.k != XK_INT && v.k != XK_EXPR) {
            ixs_xv_free(&v);
            p->i = at;
            return ixs_px_fail(p);
        }
        if (v.k == XK_EXPR && v.lk != LB_CONST) {
            ixs_xv_free(&v);
            p->i = at;
            return ixs_px_fail(p);
        }
        c->deftype = 'L';
        if (v.k == XK_STR) /* the value of a string, the text of others */
            snprintf(c->deftext, sizeof c->deftext, "%.*s", (int)v.litn, v.lit ? v.lit : "");
        else
            snprintf(c->deftext, sizeof c->deftext, "%.*s",
                     p->t[p->i - 1].pos + p->t[p->i - 1].len - p->t[at].pos, p->sql + p->t[at].pos);
        ixs_to_type(p, &v, c->t);
        if (p->failed) {
            ixs_xv_free(&v);
            return -1;
        }
        ixv_sb_add(&d, v.s.p ? v.s.p : "NULL");
        ixs_xv_free(&v);
    }
    free(c->defsql);
    c->defsql = ixv_sb_take(&d);
    return c->defsql ? 0 : ixs_px_failc(p, IXV_E_NOMEM, NULL);
}

/* The condition of CHECK ( cond ), after CHECK: its first token into k (it
 * is translated once the columns are known). */
static int check_clause(px *p, kdef *k) {
    k->type = KDEF_CHECK;
    if (ixs_px_expect_op(p, "(")) return -1;
    k->check_tok = p->i;
    int depth = 1;
    while (p->i < p->nt && p->t[p->i].k != T_EOF && depth) {
        if (ixs_px_op(p, p->i, "(")) depth++;
        if (ixs_px_op(p, p->i, ")")) depth--;
        p->i++;
    }
    return depth ? ixs_px_fail(p) : 0;
}

/* The text of k's CHECK condition as written, from its first token to the
 * ')' at token end, kept as "(cond)" for syschecks. */
static int check_text(px *p, kdef *k, int end) {
    int a = p->t[k->check_tok].pos, b = p->t[end].pos;
    while (b > a && (p->sql[b - 1] == ' ' || p->sql[b - 1] == '\n' || p->sql[b - 1] == '\t'))
        b--;
    free(k->ifxcheck);
    k->ifxcheck = malloc((size_t)(b - a) + 3);
    if (!k->ifxcheck) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    snprintf(k->ifxcheck, (size_t)(b - a) + 3, "(%.*s)", b - a, p->sql + a);
    return 0;
}

/* A constraint of column ci of t, at its keyword:
 *   { PRIMARY KEY | UNIQUE | DISTINCT | CHECK ( cond ) | REFERENCES ... }
 *   [CONSTRAINT [owner.]name] */
static int column_constraint(px *p, tdef *t, int ci) {
    int pk = ixs_px_kw(p, p->i, IXK_PRIMARY), chk = ixs_px_kw(p, p->i, IXK_CHECK);
    int ref = ixs_px_kw(p, p->i, IXK_REFERENCES);
    p->i++;
    if (pk && ixs_px_expect(p, IXK_KEY)) return -1;
    kdef *k = ixs_tdef_addk(p, t);
    if (!k) return -1;
    cdef *c = &t->cols[ci];
    if (chk) return check_clause(p, k) || opt_cname(p, k) ? -1 : 0;
    k->type = pk ? KDEF_PRIMARY : ref ? KDEF_REFERENCES : KDEF_UNIQUE;
    k->cols = strdup(c->name);
    if (!k->cols) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    if (pk) c->notnull = 1;
    if (ref && references(p, k)) return -1;
    return opt_cname(p, k);
}

/* TIMESERIES ( row_type ): 1 with the row type's name in c (it must exist
 * when the statement runs: ixs_ts_rowtypes), 0 not that type, -1 error. */
static int ts_coltype(px *p, cdef *c) {
    if (!ixs_px_kw(p, p->i, IXK_TIMESERIES)) return 0;
    p->i++;
    if (ixs_px_expect_op(p, "(") || ixs_px_ident(p, c->tsrow, sizeof c->tsrow) ||
        ixs_px_expect_op(p, ")"))
        return -1;
    /* the column shows the series header (docs/timeseries.md) */
    c->t = ixv_t(IX_T_LVARCHAR, 2048);
    c->collen = 2048;
    return 1;
}

int ixs_ts_rowtypes(px *p, const tdef *t) {
    for (int i = 0; i < t->ncols; i++) {
        ts_rowtype rt;
        if (!t->cols[i].tsrow[0]) continue;
        if (ixts_rowtype_load(p->db->h, t->cols[i].tsrow, &rt) <= 0)
            return ixs_px_failc(p, IXS_E_TS_ROWTYPE, "Row type %s does not exist",
                                t->cols[i].tsrow);
        if (ixts_rowtype_check(&rt, p->err)) { /* a TimeSeries row type */
            p->failed = 1;
            return -1;
        }
    }
    return 0;
}

int ixs_tdef_row_types(px *p, tdef *t) {
    for (int i = 0; i < t->ncols; i++) {
        cdef *c = &t->cols[i];
        if (!c->rowref) continue;
        int id = ixs_row_ref_id(p, c->rowref);
        if (id < 0) return -1;
        if (ixs_coll_is(c->t.code)) { /* a collection of rows: the element's id */
            if (id > 0xffff) return ixs_px_fail_at(p, c->rowtype_tok + 2);
            c->t.len = (c->t.len & ~0xffffu) | (uint32_t)id;
        } else
            c->t = ixv_t(IX_T_ROW, (uint32_t)id);
        c->collen = c->t.len;
    }
    return 0;
}

/*
 * A column of CREATE TABLE / ALTER TABLE ADD (modify: MODIFY) into c, a
 * column of t (its constraints go to t):
 *   name type [DEFAULT value] [NOT NULL [CONSTRAINT name]] [NULL]
 *        [column_constraint ...]
 * A name t already has is -328 (not for MODIFY).
 */
int ixs_column_def(px *p, tdef *t, cdef *c, int modify) {
    if (ixs_px_newname(p, c->name, sizeof c->name)) return -1;
    for (int i = 0; i < t->ncols; i++)
        if (!modify && &t->cols[i] != c && !strcmp(t->cols[i].name, c->name))
            return ixs_px_failc(p, IXV_E_COLUMN_EXISTS, "%s", c->name);
    int ts = ts_coltype(p, c);
    if (ts < 0) return -1;
    int deferred = p->dry_deferred, at = p->i;
    p->dry_deferred = 0;
    if (!ts && ixs_parse_type(p, &c->t, &c->serial, &c->start, &c->collen)) return -1;
    if (p->dry_deferred) { /* looked up when the statement runs */
        c->rowtype_tok = at;
        ixs_row_ref_free(c->rowref);
        c->rowref = ixs_row_ref_take(p);
    }
    p->dry_deferred = deferred;
    if (c->serial) c->notnull = 1;
    int ci = (int)(c - t->cols);
    for (;;) {
        if (ixs_px_acc(p, IXK_DEFAULT)) {
            if (default_value(p, c)) return -1;
        } else if (ixs_px_acc(p, IXK_NOT)) {
            if (ixs_px_expect(p, IXK_NULL)) return -1;
            c->notnull = 1;
            kdef tmp;
            memset(&tmp, 0, sizeof tmp);
            if (opt_cname(p, &tmp)) return -1;
        } else if (ixs_px_acc(p, IXK_NULL)) {
        } else if (ixs_px_kw(p, p->i, IXK_PRIMARY) || ixs_px_kw(p, p->i, IXK_UNIQUE) ||
                   ixs_px_kw(p, p->i, IXK_DISTINCT) || ixs_px_kw(p, p->i, IXK_CHECK) ||
                   ixs_px_kw(p, p->i, IXK_REFERENCES)) {
            if (column_constraint(p, t, ci)) return -1;
            c = &t->cols[ci];
        } else
            return 0;
    }
}

/*
 * A table constraint of CREATE TABLE / ALTER TABLE ADD CONSTRAINT into t:
 *   [CONSTRAINT [owner.]name] { PRIMARY KEY ( cols ) | { UNIQUE | DISTINCT }
 *   ( cols ) | CHECK ( cond ) | FOREIGN KEY ( cols ) REFERENCES table
 *   [( cols )] [ON DELETE CASCADE] } [CONSTRAINT [owner.]name]
 * The columns must be t's (-217), unless t->defer_cols.
 */
int ixs_table_constraint(px *p, tdef *t) {
    ixs_name pre;
    memset(&pre, 0, sizeof pre);
    if (ixs_px_acc(p, IXK_CONSTRAINT) && ixs_name_parse(p, IXS_NAME_NEW, &pre)) return -1;
    kdef *k = ixs_tdef_addk(p, t);
    if (!k) return -1;
    if (ixs_px_acc(p, IXK_PRIMARY)) {
        if (ixs_px_expect(p, IXK_KEY) || col_list(p, t, &k->cols)) return -1;
        k->type = 'P';
        char *s = k->cols;
        /* primary key columns are NOT NULL */
        char buf[IXS_NAME_MAX + 1];
        while (s && *s) {
            size_t l = strcspn(s, ",");
            snprintf(buf, sizeof buf, "%.*s", (int)l, s);
            int ci = ixs_tdef_find(t, buf);
            if (ci >= 0) t->cols[ci].notnull = 1;
            s += l;
            if (*s) s++;
        }
    } else if (ixs_px_acc(p, IXK_UNIQUE) || ixs_px_acc(p, IXK_DISTINCT)) {
        if (col_list(p, t, &k->cols)) return -1;
        k->type = 'U';
    } else if (ixs_px_acc(p, IXK_CHECK)) {
        if (check_clause(p, k)) return -1;
    } else if (ixs_px_acc(p, IXK_FOREIGN)) {
        if (ixs_px_expect(p, IXK_KEY) || col_list(p, t, &k->cols) ||
            ixs_px_expect(p, IXK_REFERENCES) || references(p, k))
            return -1;
        k->type = 'R';
    } else {
        return ixs_px_fail(p);
    }
    if (pre.name[0]) {
        snprintf(k->name, sizeof k->name, "%s", pre.name);
        snprintf(k->owner, sizeof k->owner, "%s", pre.owner);
    }
    return opt_cname(p, k);
}

/* The CHECK condition of k translated into c: from its tree when the parse
 * kept one (ALTER TABLE), else parsed at its token (CREATE TABLE's parse). */
static int check_translate(px *p, kdef *k, xv *c) {
    if (k->check) {
        int rc = ixs_cond_emit(p, k->check, k->check_end, c);
        return rc ? rc : check_text(p, k, k->check_end);
    }
    int save = p->i;
    p->i = k->check_tok;
    int rc = ixs_cond(p, c);
    if (!rc && !ixs_px_op(p, p->i, ")")) rc = ixs_px_fail(p);
    if (!rc) rc = check_text(p, k, p->i);
    p->i = save;
    return rc;
}

/* Translates the pending CHECK conditions with the table's columns. */
int ixs_translate_checks(px *p, tdef *t) {
    tref tr;
    memset(&tr, 0, sizeof tr);
    tr.tab.ncols = t->ncols;
    tr.tab.cols = calloc((size_t)(t->ncols ? t->ncols : 1), sizeof(icol));
    if (!tr.tab.cols) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    for (int i = 0; i < t->ncols; i++) {
        snprintf(tr.tab.cols[i].name, sizeof tr.tab.cols[i].name, "%s", t->cols[i].name);
        tr.tab.cols[i].t = t->cols[i].t;
        tr.tab.cols[i].colno = i + 1;
    }
    snprintf(tr.tab.name, sizeof tr.tab.name, "%s", t->name);
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = &tr;
    sc.n = 1;
    scope *save = p->sc;
    int rc = 0;
    p->sc = &sc;
    for (int i = 0; i < t->nk && !rc; i++) {
        kdef *k = &t->k[i];
        if (k->type != 'C' || k->check_tok < 0) continue;
        xv c;
        rc = check_translate(p, k, &c);
        if (!rc) {
            k->checksql = c.s.p;
            memset(&c.s, 0, sizeof c.s);
            k->check_tok = -1;
        }
        ixs_xv_free(&c);
    }
    p->sc = save;
    ixs_px_at_cursor(p); /* the cursor did not move: later errors are at it */
    free(tr.tab.cols);
    return rc;
}
