/* ixs_merge.c: MERGE.
 *
 * Stage 1 parses the statement into an mtree: names, aliases, the source's
 * query, and the conditions, SET items and VALUES of the clauses as trees
 * (no catalog access). Stage 2 resolves and emits the trees:
 * the clauses are translated against a scope of the target and the source
 * into a plan (ixs_mplan) of SQLite statements, made once when the
 * statement is prepared; `?` parameters in it are numbered ?N as in any
 * translated statement and bound to each statement of the plan when it runs.
 * The plan runs in one savepoint:
 *   1. the source is copied into a temporary table (a table, a view or a
 *      SELECT alike), each row numbered (_ixd_sid);
 *   2. the pairs (target row, source number) meeting ON are computed once,
 *      and of them the pairs a MATCHED clause acts on, each with the number
 *      of the first MATCHED clause whose AND condition it meets; a target row
 *      in two such pairs is an error;
 *   3. per MATCHED clause, UPDATE ... FROM / DELETE of its target rows;
 *   4. INSERT ... SELECT of the source rows in no pair (NOT MATCHED, with its
 *      AND condition). The pairs were fixed in 2., so rows the INSERT adds
 *      are never matched, and rows the UPDATE changes are not matched again.
 * The target is a table or a simple updatable view (ixs_view.c): a view's
 * rows are named by the base rowid it carries (_ixd_rowid), and its INSTEAD
 * OF triggers apply the changes to the base table. Triggers and constraints
 * act as for the single statements. The row count is the rows updated,
 * deleted and inserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ex.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_sel.h"

#define M_SRC         IXV_INTERNAL_PREFIX "msrc"
#define M_PAIR        IXV_INTERNAL_PREFIX "mpair"
#define M_ACT         IXV_INTERNAL_PREFIX "mact"
#define M_SID         IXV_INTERNAL_PREFIX "sid" /* the source row's number (UPDATE FROM has no rowid) */
#define M_VROWID      IXV_INTERNAL_PREFIX "rowid" /* a view's base rowid (ixs_view.c) */
#define M_MAX_MATCHED 8                           /* WHEN MATCHED clauses of one MERGE */

enum { MW_NONE, MW_UPDATE, MW_DELETE, MW_INSERT };

/* A condition and the token after it. */
typedef struct mcond {
    ixs_ex *e;
    int end;
} mcond;

/* An UPDATE's SET col = value, an INSERT's column (tok: its name's token,
 * end: the token after its value) or value (e; end: the token after it). */
typedef struct mitem {
    char col[IXS_NAME_MAX + 1];
    char qual[IXS_NAME_MAX + 1]; /* t in t.col, "" when none */
    int tok, end;
    ixs_ex *e;
} mitem;

typedef struct mwhen {
    int kind;
    int cond;     /* token after AND, or -1 */
    mcond c;      /* the condition after AND */
    int body;     /* token after SET, or of INSERT's '(' / VALUES */
    mitem *set;   /* MW_UPDATE: the SET items; MW_INSERT: the columns listed */
    int nset;     /* their count (MW_INSERT: 0 when none are listed) */
    mitem *val;   /* MW_INSERT: the VALUES */
    int nval;     /* their count */
    int vals_end; /* MW_INSERT: the token after VALUES' ")" */
} mwhen;

typedef struct mtree {
    char target[IXS_NAME_MAX + 1], talias[IXS_NAME_MAX + 1];
    char source[IXS_NAME_MAX + 1], salias[IXS_NAME_MAX + 1];
    int src_sel;  /* first token of a derived or TABLE(...) source, or -1 */
    ixs_sel *src; /* that source as SELECT * FROM source */
    int src_end;  /* the token after it */
    int on;       /* token after ON */
    mcond onc;    /* the ON condition */
    mwhen matched[M_MAX_MATCHED], notmatched;
    int nmatched;
} mtree;

/* The statements a prepared MERGE runs (see the top of the file). */
struct ixs_mplan {
    sb fill, pairs, action, insert;
    int has_matched;
};

/* Skips to the next token at parenthesis depth 0 that is one of the
 * keywords (or the end). */
static void skip_to(px *p, const char *const *kw) {
    int depth = 0;
    for (; p->i < p->nt && p->t[p->i].k != T_EOF; p->i++) {
        if (ixs_px_op(p, p->i, "(")) depth++;
        if (ixs_px_op(p, p->i, ")")) depth--;
        if (depth < 0) return;
        if (depth == 0 && ixs_px_op(p, p->i, ";")) return;
        for (int k = 0; depth == 0 && kw[k]; k++)
            if (ixs_px_kw_str(p, p->i, kw[k])) return;
    }
}

static const char *const KW_WHEN[] = {"when", NULL};
static const char *const KW_THEN[] = {"then", NULL};

/* [db:][owner.]name */
static int m_name(px *p, char *name) {
    if (ixs_px_ident(p, name, IXS_NAME_MAX + 1)) return -1;
    if (ixs_px_acc_op(p, ":") && ixs_px_ident(p, name, IXS_NAME_MAX + 1)) return -1;
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, name, IXS_NAME_MAX + 1)) return -1;
    return 0;
}

static int m_alias(px *p, char *alias) {
    alias[0] = 0;
    if (ixs_px_acc(p, IXK_AS)) return ixs_px_ident(p, alias, IXS_NAME_MAX + 1);
    if (ixs_px_is_ident(p, p->i) && !ixs_px_kw(p, p->i, IXK_USING) && !ixs_px_kw(p, p->i, IXK_ON))
        return ixs_px_ident(p, alias, IXS_NAME_MAX + 1);
    return 0;
}

static void items_free(mitem *a, int n) {
    for (int k = 0; k < n; k++)
        ixs_ex_free(a[k].e);
    free(a);
}

static void mtree_free(mtree *m) {
    ixs_sel_free(m->src);
    ixs_ex_free(m->onc.e);
    for (int k = 0; k <= m->nmatched; k++) {
        mwhen *w = k < m->nmatched ? &m->matched[k] : &m->notmatched;
        ixs_ex_free(w->c.e);
        items_free(w->set, w->nset);
        items_free(w->val, w->nval);
    }
}

/* One more item of *a (*n of them), zeroed: NULL with -208 in p. */
static mitem *item_add(px *p, mitem **a, int *n) {
    mitem *na = realloc(*a, sizeof **a * (size_t)(*n + 1));
    if (!na) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    *a = na;
    memset(&na[*n], 0, sizeof *na);
    return &na[(*n)++];
}

/* The condition at token at into c (what follows it is not read). */
static int cond_parse(px *p, int at, mcond *c) {
    p->i = at;
    c->e = ixs_ex_parse(p, IXS_EX_COND);
    c->end = p->i;
    return c->e ? 0 : -1;
}

/* [t.]col at p->i into it: the column and its qualifier */
static int target_item(px *p, mitem *it) {
    if (ixs_px_ident(p, it->col, sizeof it->col)) return -1;
    if (!ixs_px_acc_op(p, ".")) return 0;
    memcpy(it->qual, it->col, sizeof it->qual);
    return ixs_px_ident(p, it->col, sizeof it->col);
}

/* [t.]col = expr {, ...} at p->i into w->set */
static int set_parse(px *p, mwhen *w) {
    do {
        mitem *it = item_add(p, &w->set, &w->nset);
        if (!it) return -1;
        it->tok = p->i;
        if (target_item(p, it)) return -1;
        if (ixs_px_expect_op(p, "=") || !(it->e = ixs_ex_parse(p, IXS_EX_VALUE))) return -1;
        it->end = p->i;
    } while (ixs_px_acc_op(p, ","));
    return 0;
}

/* [( [t.]col {, ...} )] VALUES ( expr {, ...} ) at p->i into w */
static int insert_parse(px *p, mwhen *w) {
    if (ixs_px_acc_op(p, "(")) {
        do {
            mitem *it = item_add(p, &w->set, &w->nset);
            if (!it) return -1;
            it->tok = p->i;
            if (target_item(p, it)) return -1;
        } while (ixs_px_acc_op(p, ","));
        if (ixs_px_expect_op(p, ")")) return -1;
    }
    if (ixs_px_expect(p, IXK_VALUES) || ixs_px_expect_op(p, "(")) return -1;
    do {
        mitem *it = item_add(p, &w->val, &w->nval);
        if (!it) return -1;
        it->tok = p->i;
        if (!(it->e = ixs_ex_parse(p, IXS_EX_VALUE))) return -1;
        it->end = p->i;
    } while (ixs_px_acc_op(p, ","));
    w->vals_end = p->i;
    return ixs_px_expect_op(p, ")");
}

/* The source's query, the conditions and the bodies of the clauses, at the
 * tokens where parse_merge found them, into trees (in that order); p->i is
 * left where it was. */
static int trees_parse(px *p, mtree *m) {
    int save = p->i, rc;
    rc = cond_parse(p, m->on, &m->onc);
    for (int k = 0; !rc && k < m->nmatched; k++)
        if (m->matched[k].cond >= 0) rc = cond_parse(p, m->matched[k].cond, &m->matched[k].c);
    if (!rc && m->notmatched.kind && m->notmatched.cond >= 0)
        rc = cond_parse(p, m->notmatched.cond, &m->notmatched.c);
    for (int k = 0; !rc && k < m->nmatched; k++) {
        p->i = m->matched[k].body;
        if (m->matched[k].kind == MW_UPDATE) rc = set_parse(p, &m->matched[k]);
    }
    p->i = m->notmatched.body;
    if (!rc && m->notmatched.kind) rc = insert_parse(p, &m->notmatched);
    p->i = save;
    return rc;
}

/*
 * when := WHEN MATCHED [AND cond] THEN { UPDATE SET col = expr {, ...} | DELETE }
 *       | WHEN NOT MATCHED [AND cond] THEN INSERT [(col {, col})] VALUES (expr {, ...})
 */
static int parse_when(px *p, mtree *m) {
    int notm = ixs_px_acc(p, IXK_NOT);
    if (ixs_px_expect(p, IXK_MATCHED)) return -1;
    if (!notm && m->nmatched == M_MAX_MATCHED) return ixs_px_fail(p);
    mwhen *w = notm ? &m->notmatched : &m->matched[m->nmatched++];
    if (w->kind) return ixs_px_fail(p); /* NOT MATCHED once */
    w->cond = -1;
    if (ixs_px_acc(p, IXK_AND)) {
        w->cond = p->i;
        skip_to(p, KW_THEN);
    }
    if (ixs_px_expect(p, IXK_THEN)) return -1;
    if (!notm && ixs_px_acc(p, IXK_UPDATE)) {
        if (ixs_px_expect(p, IXK_SET)) return -1;
        w->kind = MW_UPDATE;
    } else if (!notm && ixs_px_acc(p, IXK_DELETE)) {
        w->kind = MW_DELETE;
    } else if (notm && ixs_px_acc(p, IXK_INSERT)) {
        w->kind = MW_INSERT;
    } else
        return ixs_px_fail(p);
    w->body = p->i;
    skip_to(p, KW_WHEN);
    return 0;
}

/*
 * MERGE INTO [owner.]target [[AS] t]
 *       USING { [owner.]source [[AS] s] | (query) [[AS] s [(col {, col})]]
 *             | TABLE(collection) [[AS] s [(col)]] }
 *       ON cond when {when}
 * (WHEN MATCHED up to M_MAX_MATCHED times, WHEN NOT MATCHED once)
 */
static int parse_merge(px *p, mtree *m) {
    memset(m, 0, sizeof *m);
    m->src_sel = -1;
    if (ixs_px_expect(p, IXK_INTO) || m_name(p, m->target) || m_alias(p, m->talias)) return -1;
    if (ixs_px_expect(p, IXK_USING)) return -1;
    if (ixs_px_op(p, p->i, "(") || (ixs_px_kw(p, p->i, IXK_TABLE) && ixs_px_op(p, p->i + 1, "("))) {
        m->src_sel = p->i;
        if (!(m->src = ixs_sel_from_source(p, m->salias, sizeof m->salias))) return -1;
        m->src_end = p->i;
    } else if (m_name(p, m->source) || m_alias(p, m->salias))
        return -1;
    if (ixs_px_expect(p, IXK_ON)) return -1;
    m->on = p->i;
    skip_to(p, KW_WHEN);
    if (!ixs_px_kw(p, p->i, IXK_WHEN)) return ixs_px_fail(p);
    while (ixs_px_acc(p, IXK_WHEN))
        if (parse_when(p, m)) return -1;
    return trees_parse(p, m);
}

/* ---- stage 2 ------------------------------------------------------------------------ */

/* The source as a tref over the temporary copy M_SRC (its columns), and the
 * SQL that fills the copy. */
static tref *source_ref(px *p, const mtree *m, sb *fill) {
    qres q;
    memset(&q, 0, sizeof q);
    tref *t = calloc(1, sizeof *t), *st = NULL;
    if (!t) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    int n = 0;
    if (m->src) {
        ixs_px_at(p, m->src_end); /* where the query's parse ended */
        if (ixs_sel_emit(p, m->src, &q)) goto fail;
        n = q.ncols;
    } else {
        if (!(st = ixs_tref_new(p, m->source, NULL))) goto fail;
        n = st->tab.ncols;
    }
    t->derived = 1;
    snprintf(t->alias, sizeof t->alias, "%s", m->salias[0] ? m->salias : m->source);
    snprintf(t->tab.name, sizeof t->tab.name, "%s", t->alias);
    if (!(t->tab.cols = calloc((size_t)(n ? n : 1), sizeof(icol)))) goto fail;
    t->tab.ncols = n;
    ixv_sb_add(fill, "CREATE TEMP TABLE " M_SRC "(" M_SID " INTEGER PRIMARY KEY");
    sb cl = {0};
    for (int i = 0; i < n; i++) {
        icol *c = &t->tab.cols[i];
        snprintf(c->name, sizeof c->name, "%s", st ? st->tab.cols[i].name : q.cols[i].name);
        c->t = st ? st->tab.cols[i].t : q.cols[i].t;
        c->colno = i + 1;
        ixv_sb_addc(fill, ',');
        ixv_sb_ident(fill, c->name);
        if (ixs_is_blank_cmp(c->t.code)) ixv_sb_add(fill, " COLLATE " IXS_COLLATE_BLANKS);
        if (i) ixv_sb_addc(&cl, ',');
        ixv_sb_ident(&cl, c->name);
    }
    ixv_sb_printf(fill, "); INSERT INTO " M_SRC "(%s) SELECT ", cl.p ? cl.p : "");
    ixv_sb_free(&cl);
    if (st) {
        for (int i = 0; i < n; i++) {
            if (i) ixv_sb_addc(fill, ',');
            ixv_sb_ident(fill, st->tab.cols[i].name);
        }
        ixv_sb_add(fill, " FROM ");
        ixv_sb_ident(fill, st->tab.name);
    } else
        ixv_sb_printf(fill, "* FROM (%s)", q.sql.p);
    ixv_sb_add(fill, ";");
    ixs_tref_free(st);
    ixs_qres_free(&q);
    return t;
fail:
    ixs_tref_free(st);
    ixs_qres_free(&q);
    ixs_tref_free(t);
    return NULL;
}

/* The condition c, into out. */
static int m_cond(px *p, const mcond *c0, sb *out) {
    xv c;
    int rc = ixs_cond_emit(p, c0->e, c0->end, &c);
    if (!rc) ixv_sb_add(out, c.s.p);
    ixs_xv_free(&c);
    return rc;
}

/* The target's column of item it: its qualifier, when it has one, names the
 * target (its alias or its table), else -217 as for any unknown column. */
static icol *target_col(px *p, tref *t, const mitem *it) {
    if (it->qual[0] && strcmp(it->qual, t->alias) && strcmp(it->qual, t->tab.name)) {
        ixs_px_failc(p, IXV_E_NO_COLUMN, "%s.%s", it->qual, it->col);
        return NULL;
    }
    for (int i = 0; i < t->tab.ncols; i++)
        if (!strcmp(t->tab.cols[i].name, it->col)) return &t->tab.cols[i];
    ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", it->col);
    return NULL;
}

/* The SQL naming a target row: its rowid, or a view's base rowid. */
static void target_rid(const tref *t, sb *out) {
    ixv_sb_ident(out, t->alias);
    ixv_sb_add(out, t->tab.is_view ? "." M_VROWID : ".rowid");
}

/* SET [t.]col = expr {, ...} as UPDATE ... FROM of the pairs of MATCHED
 * clause k. */
static int emit_update(px *p, tref *t, tref *s, const mwhen *wh, int k, sb *out) {
    ixv_sb_add(out, "UPDATE ");
    ixv_sb_ident(out, t->tab.name);
    ixv_sb_add(out, " AS ");
    ixv_sb_ident(out, t->alias);
    ixv_sb_add(out, " SET ");
    for (int n = 0; n < wh->nset; n++) {
        const mitem *it = &wh->set[n];
        icol *c = target_col(p, t, it);
        if (!c) return -1;
        xv v;
        ixs_xv_init(&v);
        ixs_px_at(p, it->end); /* where the value's parse ended */
        if (ixs_ex_resolve(p, it->e) || ixs_ex_emit(p, it->e, &v)) {
            ixs_xv_free(&v);
            return -1;
        }
        ixs_px_at(p, it->end);
        if (v.k == XK_PRED) v.t = ixv_t(IX_T_BOOLEAN, 1);
        ixs_to_store(p, &v, c->t);
        if (n) ixv_sb_add(out, ", ");
        ixv_sb_ident(out, c->name);
        ixv_sb_printf(out, " = %s", v.s.p ? v.s.p : "NULL");
        ixs_xv_free(&v);
        if (p->failed) return -1;
    }
    ixv_sb_add(out, " FROM " M_SRC " AS ");
    ixv_sb_ident(out, s->alias);
    ixv_sb_add(out, ", " M_ACT " AS _m WHERE _m.trid = ");
    target_rid(t, out);
    ixv_sb_add(out, " AND _m.srid = ");
    ixv_sb_ident(out, s->alias);
    ixv_sb_printf(out, "." M_SID " AND _m.w = %d;", k);
    return 0;
}

/* DELETE of the target rows of the pairs of MATCHED clause k. */
static void emit_delete(const tref *t, int k, sb *out) {
    ixv_sb_add(out, "DELETE FROM ");
    ixv_sb_ident(out, t->tab.name);
    ixv_sb_add(out, t->tab.is_view ? " WHERE " M_VROWID : " WHERE rowid");
    ixv_sb_printf(out, " IN (SELECT trid FROM " M_ACT " WHERE w = %d);", k);
}

/* [(cols)] VALUES (exprs) as INSERT ... SELECT of the unmatched source rows. */
static int emit_insert(px *p, tref *t, tref *s, const mwhen *wh, const char *cond, sb *out) {
    icol *cols[IXS_MAX_COLS];
    int nc = 0;
    if (wh->nset) {
        for (int i = 0; i < wh->nset; i++) {
            if (nc >= t->tab.ncols) return ixs_px_fail_at(p, wh->set[i].tok);
            if (!(cols[nc++] = target_col(p, t, &wh->set[i]))) return -1;
        }
    } else
        for (int i = 0; i < t->tab.ncols; i++)
            cols[nc++] = &t->tab.cols[i];
    sb vals = {0};
    ixv_sb_add(out, "INSERT INTO ");
    ixv_sb_ident(out, t->tab.name);
    ixv_sb_addc(out, '(');
    for (int i = 0; i < nc; i++) {
        xv v;
        ixs_xv_init(&v);
        if (i < wh->nval) ixs_px_at(p, wh->val[i].end); /* where the value's parse ended */
        if (i >= wh->nval || ixs_ex_resolve(p, wh->val[i].e) || ixs_ex_emit(p, wh->val[i].e, &v)) {
            ixs_xv_free(&v);
            ixv_sb_free(&vals);
            return i >= wh->nval ? ixs_px_fail_at(p, wh->vals_end) : -1;
        }
        ixs_px_at(p, wh->val[i].end);
        ixs_to_store(p, &v, cols[i]->t);
        if (i) {
            ixv_sb_addc(out, ',');
            ixv_sb_addc(&vals, ',');
        }
        ixv_sb_ident(out, cols[i]->name);
        if (cols[i]->serial)
            ixv_sb_printf(&vals, "ixd_serial(%d,%d,%s)", t->tab.tabid, cols[i]->serial, v.s.p);
        else
            ixv_sb_add(&vals, v.s.p ? v.s.p : "NULL");
        ixs_xv_free(&v);
    }
    for (int i = 0; i < t->tab.ncols; i++) { /* unlisted serials */
        int listed = 0;
        for (int k = 0; k < nc; k++)
            listed |= cols[k] == &t->tab.cols[i];
        if (listed || !t->tab.cols[i].serial) continue;
        ixv_sb_addc(out, ',');
        ixv_sb_ident(out, t->tab.cols[i].name);
        ixv_sb_printf(&vals, ",ixd_serial(%d,%d,NULL)", t->tab.tabid, t->tab.cols[i].serial);
    }
    ixv_sb_printf(out, ") SELECT %s FROM " M_SRC " AS ", vals.p ? vals.p : "");
    ixv_sb_ident(out, s->alias);
    ixv_sb_add(out, " WHERE NOT EXISTS (SELECT 1 FROM " M_PAIR " _m WHERE _m.srid = ");
    ixv_sb_ident(out, s->alias);
    ixv_sb_add(out, "." M_SID ")");
    if (cond) ixv_sb_printf(out, " AND (%s)", cond);
    ixv_sb_addc(out, ';');
    ixv_sb_free(&vals);
    if (p->failed) return -1;
    return wh->nval > nc ? ixs_px_fail_at(p, wh->val[nc - 1].end) : 0;
}

/* The pair tables: M_PAIR (ON), M_ACT (the pairs a MATCHED clause acts on,
 * w the number of the first clause whose condition holds). */
static void emit_pairs(const tref *t, const tref *s, const char *on, const char *w, sb *out) {
    ixv_sb_add(out, "CREATE TEMP TABLE " M_PAIR " AS SELECT ");
    target_rid(t, out);
    ixv_sb_add(out, " AS trid, ");
    ixv_sb_ident(out, s->alias);
    ixv_sb_add(out, "." M_SID " AS srid FROM ");
    ixv_sb_ident(out, t->tab.name);
    ixv_sb_add(out, " AS ");
    ixv_sb_ident(out, t->alias);
    ixv_sb_add(out, " JOIN " M_SRC " AS ");
    ixv_sb_ident(out, s->alias);
    ixv_sb_printf(out, " ON %s;", on);
    ixv_sb_printf(out,
                  "CREATE TEMP TABLE " M_ACT " AS SELECT * FROM (SELECT _m.trid, _m.srid, %s AS w "
                  "FROM " M_PAIR " _m JOIN ",
                  w);
    ixv_sb_ident(out, t->tab.name);
    ixv_sb_add(out, " AS ");
    ixv_sb_ident(out, t->alias);
    ixv_sb_add(out, " ON ");
    target_rid(t, out);
    ixv_sb_add(out, " = _m.trid JOIN " M_SRC " AS ");
    ixv_sb_ident(out, s->alias);
    ixv_sb_add(out, " ON ");
    ixv_sb_ident(out, s->alias);
    ixv_sb_add(out, "." M_SID " = _m.srid) WHERE w IS NOT NULL;");
}

static void mplan_free(ixs_mplan *m) {
    ixv_sb_free(&m->fill);
    ixv_sb_free(&m->pairs);
    ixv_sb_free(&m->action);
    ixv_sb_free(&m->insert);
}

void ixs_mplan_free(ixs_mplan *m) {
    if (!m) return;
    mplan_free(m);
    free(m);
}

/* CASE WHEN cond0 THEN 0 WHEN cond1 THEN 1 ... END: the MATCHED clause a
 * pair meets first (a clause without AND: always). */
static int matched_case(px *p, const mtree *m, sb *w) {
    ixv_sb_add(w, "CASE");
    for (int k = 0; k < m->nmatched; k++) {
        sb c = {0};
        if (m->matched[k].cond >= 0 && m_cond(p, &m->matched[k].c, &c)) {
            ixv_sb_free(&c);
            return -1;
        }
        ixv_sb_printf(w, " WHEN %s THEN %d", c.p ? c.p : "1", k);
        ixv_sb_free(&c);
    }
    ixv_sb_add(w, " END");
    return 0;
}

/* Translates the clauses of m (stage 2) into pl. */
static int merge_emit(px *p, const mtree *m, tref *t, tref *s, ixs_mplan *pl) {
    scope sc;
    memset(&sc, 0, sizeof sc);
    sc.t[0] = t;
    sc.t[1] = s;
    sc.n = 2;
    scope *save = p->sc;
    p->sc = &sc;
    sb on = {0}, w = {0}, nc = {0};
    int rc = m_cond(p, &m->onc, &on);
    if (!rc) rc = matched_case(p, m, &w);
    if (!rc && m->notmatched.kind && m->notmatched.cond >= 0) rc = m_cond(p, &m->notmatched.c, &nc);
    if (!rc) emit_pairs(t, s, on.p, m->nmatched ? w.p : "NULL", &pl->pairs);
    for (int k = 0; !rc && k < m->nmatched; k++) {
        if (m->matched[k].kind == MW_UPDATE)
            rc = emit_update(p, t, s, &m->matched[k], k, &pl->action);
        else
            emit_delete(t, k, &pl->action);
    }
    if (!rc && m->notmatched.kind)
        rc = emit_insert(p, t, s, &m->notmatched, m->notmatched.cond >= 0 ? nc.p : NULL,
                         &pl->insert);
    p->sc = save;
    ixv_sb_free(&on);
    ixv_sb_free(&w);
    ixv_sb_free(&nc);
    pl->has_matched = m->nmatched > 0;
    return rc ? -1 : 0;
}

/* Runs the statements of sql one by one, their parameters bound from s;
 * adds the rows they change (through views too) to *rows when count. */
static int m_exec(px *p, const ixs_stmt *s, const char *sql, int count, int64_t *rows) {
    const char *next = sql;
    while (next && *next) {
        sqlite3_stmt *st = NULL;
        int r = sqlite3_prepare_v2(p->db->h, next, -1, &st, &next);
        if (r == SQLITE_OK && !st) continue; /* blanks at the end */
        int64_t v0 = p->db->stmt_vrows;
        if (r == SQLITE_OK) r = ixs_bind_params(s, st);
        if (r == SQLITE_OK) {
            while ((r = sqlite3_step(st)) == SQLITE_ROW) {
            }
            if (r == SQLITE_DONE) r = SQLITE_OK;
        }
        if (r != SQLITE_OK) {
            ixs_sqlite_err(p->db, r, IX_STMTTYPE_UPDATE, NULL, p->err);
            sqlite3_finalize(st);
            p->failed = 1;
            return -1;
        }
        if (count) *rows += sqlite3_changes64(p->db->h) + (p->db->stmt_vrows - v0);
        sqlite3_finalize(st);
    }
    return 0;
}

#define M_DROP                                                                                     \
    "DROP TABLE IF EXISTS temp." M_SRC "; DROP TABLE IF EXISTS temp." M_PAIR                       \
    "; DROP TABLE IF EXISTS temp." M_ACT ";"

static int merge_run(px *p, const ixs_mplan *pl, const ixs_stmt *s, int64_t *rows) {
    *rows = 0;
    if (ixs_ddl_begin(p)) return -1;
    int ok = !m_exec(p, NULL, M_DROP, 0, rows) && !m_exec(p, s, pl->fill.p, 0, rows) &&
             !m_exec(p, s, pl->pairs.p, 0, rows);
    if (ok && pl->has_matched) {
        sqlite3_stmt *st;
        int dup = 0;
        if (sqlite3_prepare_v2(p->db->h,
                               "SELECT 1 FROM " M_ACT " GROUP BY trid HAVING count(*) > 1", -1, &st,
                               NULL) == SQLITE_OK) {
            dup = sqlite3_step(st) == SQLITE_ROW;
            sqlite3_finalize(st);
        }
        if (dup) {
            ixs_px_failc(p, IXS_E_MERGE_TWICE, NULL);
            ok = 0;
        }
    }
    if (ok && pl->action.p) ok = !m_exec(p, s, pl->action.p, 1, rows);
    if (ok && pl->insert.p) ok = !m_exec(p, s, pl->insert.p, 1, rows);
    if (ok) ok = !m_exec(p, NULL, M_DROP, 0, rows);
    return ixs_ddl_end(p, ok);
}

/* Stage 2 of the parsed m: the plan into *out (NULL when it fails). */
static int merge_plan(px *p, const mtree *m, ixs_mplan **out) {
    int rc = -1;
    *out = NULL;
    ixs_mplan *pl = calloc(1, sizeof *pl);
    tref *t = ixs_tref_new(p, m->target, m->talias), *s = NULL;
    if (!pl || !t) {
        if (!pl) ixs_px_failc(p, IXV_E_NOMEM, NULL);
        goto out;
    }
    if ((t->tab.is_view && !ixs_view_updatable(p->db, t->tab.name)) ||
        t->tab.tabid >= IXS_TEMP_TABID) {
        ixs_px_failc(p, IXS_E_VIEW_READONLY, "%s", m->target);
        goto out;
    }
    if (!(s = source_ref(p, m, &pl->fill))) goto out;
    if (!strcmp(t->alias, s->alias)) {
        ixs_px_failc(p, IXV_E_SYNTAX, NULL);
        goto out;
    }
    if (merge_emit(p, m, t, s, pl)) goto out;
    if (pl->fill.oom || pl->pairs.oom || pl->action.oom || pl->insert.oom) {
        ixs_px_failc(p, IXV_E_NOMEM, NULL);
        goto out;
    }
    *out = pl;
    pl = NULL;
    rc = 0;
out:
    ixs_mplan_free(pl);
    ixs_tref_free(t);
    ixs_tref_free(s);
    return rc;
}

int ixs_merge_prepare(px *p, ixs_stmt *st) {
    mtree m;
    int rc = parse_merge(p, &m) ? -1 : merge_plan(p, &m, &st->mplan);
    ixs_px_at_cursor(p); /* what follows is read at the current token */
    mtree_free(&m);
    return rc;
}

int ixs_merge_exec(ixs_stmt *s, int64_t *rows, ixv_err *err) {
    px p;
    memset(&p, 0, sizeof p);
    p.db = s->db;
    p.err = err;
    *rows = 0;
    if (!s->mplan) return ixv_seterr(err, IXV_E_SYNTAX, 0, 0, NULL);
    if (ixs_ansi_autobegin(s->db, err)) return -1;
    return merge_run(&p, s->mplan, s, rows);
}

int ixs_merge(px *p, int64_t *rows) {
    mtree m;
    *rows = 0;
    ixs_mplan *pl;
    int rc = parse_merge(p, &m) ? -1 : p->dry ? 1 : merge_plan(p, &m, &pl);
    ixs_px_at_cursor(p);
    mtree_free(&m);
    if (rc) return rc < 0 ? -1 : 0;
    rc = merge_run(p, pl, NULL, rows);
    ixs_mplan_free(pl);
    return rc;
}
