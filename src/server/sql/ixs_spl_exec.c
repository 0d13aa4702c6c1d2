/*
 * ixs_spl_exec.c: the SPL interpreter (ixs_spl.h).
 *
 * A routine's tree is parsed from sysprocbody the first time a connection
 * calls it and kept in db->spl until the routine changes (its procid is
 * checked again when db->gen or the data version moved). Every spl_sql of
 * the tree keeps its translated statement, so a loop translates once.
 *
 * From SQL a routine runs through SQLite:
 *   ixd_spl_fn('name', a1, ...)            one value (a call in an expression)
 *   SELECT c0, ... FROM _ixd_spl('name', a1, ...)
 *                                          every row of RETURN [WITH RESUME]
 *                                          (an iterator's EXECUTE FUNCTION)
 * and EXECUTE PROCEDURE / FUNCTION of a routine that is not an iterator
 * runs it outside any SQLite statement (ixs_spl_direct), where it may run
 * DDL and transaction statements (refused from inside SQL: dml_check).
 * An error inside is raised through ixd's error record (ixv_fn_raise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/sql/ixs_spl.h"

typedef struct spl_global {
    char name[IXS_NAME_MAX + 1];
    ityp t;
    sval v;
} spl_global;

/* What a call of name with nargs arguments of those type codes resolved to
 * (ixs_spl_cat_pick): found, and sig (NULL: the count decides). */
#define SPL_MAX_PICKS 64 /* remembered at once (then forgotten together) */
typedef struct spl_pick {
    char name[IXS_NAME_MAX + 1];
    int nargs;
    int codes[SPL_MAX_ARGS];
    int found;
    char *sig;
    struct spl_pick *next;
} spl_pick;

typedef struct spl_conn {
    spl_rt *rts;
    uint64_t gen; /* db->gen and data version when rts were last checked */
    unsigned dver;
    spl_global *g;
    int ng;
    int depth;
    int dml;         /* routines running from inside an SQL statement (ixs_spl_in_dml) */
    spl_pick *picks; /* valid while db->gen and the data version are pick_gen, pick_dver */
    int npicks;
    uint64_t pick_gen;
    unsigned pick_dver;
} spl_conn;

/* Control flow of the statements. */
enum { C_OK = 0, C_RETURN, C_EXIT, C_CONTINUE, C_ERR = -1 };

typedef struct frame {
    ixs_conn *db;
    spl_rt *r;
    sval *v;
    spl_rows *out;
    ixv_err *err;
    const spl_node *target; /* C_EXIT / C_CONTINUE: the loop they go to */
} frame;

static void sval_copy(const sval *from, sval *to) {
    memset(to, 0, sizeof *to);
    *to = *from;
    to->own = NULL;
    if ((from->kind == SQLITE_TEXT || from->kind == SQLITE_BLOB)) {
        to->own = malloc(from->n + 1);
        if (!to->own) {
            to->kind = SQLITE_NULL;
            return;
        }
        if (from->n) memcpy(to->own, from->p, from->n);
        to->own[from->n] = 0;
        to->p = to->own;
    }
}

void ixs_spl_rows_free(spl_rows *r) {
    for (int k = 0; k < r->n * r->ncols; k++)
        ixv_sval_free(&r->v[k]);
    free(r->v);
    memset(r, 0, sizeof *r);
}

/* ---- the cache ---------------------------------------------------------------------- */

static spl_conn *conn(ixs_conn *db) {
    if (!db->spl) db->spl = calloc(1, sizeof(spl_conn));
    return db->spl;
}

static void picks_free(spl_conn *c) {
    while (c->picks) {
        spl_pick *k = c->picks;
        c->picks = k->next;
        free(k->sig);
        free(k);
    }
    c->npicks = 0;
}

void ixs_spl_forget(ixs_conn *db, const char *name) {
    spl_conn *c = db->spl;
    if (!c) return;
    picks_free(c);
    for (spl_rt **pp = &c->rts; *pp;) {
        spl_rt *r = *pp;
        if (name && strcmp(r->name, name)) {
            pp = &r->next;
            continue;
        }
        *pp = r->next;
        if (r->active)
            r->stale = 1; /* freed when its last call ends */
        else
            ixs_spl_rt_free(r);
    }
}

void ixs_spl_close(ixs_conn *db) {
    spl_conn *c = db->spl;
    if (!c) return;
    ixs_spl_forget(db, NULL);
    for (int k = 0; k < c->ng; k++)
        ixv_sval_free(&c->g[k].v);
    free(c->g);
    free(c);
    db->spl = NULL;
}

/* Sets db's DELIMIDENT to on (that of a routine's text) and returns the one
 * it had, for delim_leave. */
static int delim_enter(ixs_conn *db, int on) {
    int was = db->delimident;
    db->delimident = on;
    return was;
}
static void delim_leave(ixs_conn *db, int was) {
    db->delimident = was;
}

/* The routine's text, read with the DELIMIDENT it was created with. */
static int parse_text(ixs_conn *db, const char *text, int procid, int procflags, spl_rt **out,
                      ixv_err *err) {
    px p;
    memset(&p, 0, sizeof p);
    p.db = db;
    p.sql = text;
    p.n = strlen(text);
    p.err = err;
    int was = delim_enter(db, (procflags & IXS_PROCFLAG_DELIMIDENT) != 0);
    int rc = ixs_lex(&p) ? -1 : ixs_spl_parse_create(&p, out);
    delim_leave(db, was);
    free(p.t);
    free(p.ptypes);
    if (!rc) (*out)->procid = procid;
    return rc;
}

/* A cached routine looked up as name, nargs, sig (NULL: by count). */
static int cached_as(const spl_rt *r, const char *name, int nargs, const char *sig) {
    if (strcmp(r->name, name) || r->key_nargs != nargs) return 0;
    return sig ? r->key_sig && !strcmp(r->key_sig, sig) : !r->key_sig;
}

static int get_sig(ixs_conn *db, const char *name, int nargs, const char *sig, spl_rt **out,
                   ixv_err *err) {
    *out = NULL;
    spl_conn *c = conn(db);
    if (!c) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    unsigned dv = ixs_data_version(db, 0);
    int fresh = c->gen == db->gen && c->dver == dv;
    spl_rt *r = c->rts;
    while (r && !cached_as(r, name, nargs, sig))
        r = r->next;
    if (r && fresh) {
        *out = r;
        return 1;
    }
    if (!fresh) {
        c->gen = db->gen;
        c->dver = dv;
    }
    int procid, flags = 0;
    char *text = NULL;
    int f = ixs_spl_cat_find(db, name, nargs, sig, &procid, r ? NULL : &text, &flags, err);
    if (f <= 0) {
        if (r) ixs_spl_forget(db, name);
        return f;
    }
    if (r && r->procid == procid) {
        *out = r;
        return 1;
    }
    if (r) {
        ixs_spl_forget(db, name);
        f = ixs_spl_cat_find(db, name, nargs, sig, &procid, &text, &flags, err);
        if (f <= 0) return f;
    }
    spl_rt *nr;
    int rc = parse_text(db, text, procid, flags, &nr, err);
    free(text);
    if (rc) return -1;
    nr->key_nargs = nargs;
    if (sig && !(nr->key_sig = strdup(sig))) {
        ixs_spl_rt_free(nr);
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    nr->next = c->rts;
    c->rts = nr;
    *out = nr;
    return 1;
}

int ixs_spl_get(ixs_conn *db, const char *key, int nargs, spl_rt **out, ixv_err *err) {
    const char *par = strchr(key, '(');
    size_t kl = strlen(key);
    if (!par) return get_sig(db, key, nargs, NULL, out, err);
    char name[IXS_NAME_MAX + 1];
    if ((size_t)(par - key) > IXS_NAME_MAX || key[kl - 1] != ')') {
        *out = NULL;
        return 0;
    }
    snprintf(name, sizeof name, "%.*s", (int)(par - key), key);
    char *sig = strndup(par + 1, kl - (size_t)(par - key) - 2);
    if (!sig) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    int rc = get_sig(db, name, nargs, sig, out, err);
    free(sig);
    return rc;
}

/* The remembered pick of name, nargs, argt (NULL: none yet). */
static spl_pick *pick_find(spl_conn *c, const char *name, int nargs, const ityp *argt) {
    for (spl_pick *k = c->picks; k; k = k->next) {
        if (k->nargs != nargs || strcmp(k->name, name)) continue;
        int same = 1;
        for (int j = 0; j < nargs && same; j++)
            same = k->codes[j] == (argt ? argt[j].code : -1);
        if (same) return k;
    }
    return NULL;
}

/* Remembers a pick (best effort: without memory it is picked again). */
static void pick_keep(spl_conn *c, const char *name, int nargs, const ityp *argt, int found,
                      const char *sig) {
    if (c->npicks == SPL_MAX_PICKS) picks_free(c);
    spl_pick *k = calloc(1, sizeof *k);
    if (!k || (sig && !(k->sig = strdup(sig)))) {
        free(k);
        return;
    }
    snprintf(k->name, sizeof k->name, "%s", name);
    k->nargs = nargs;
    for (int j = 0; j < nargs; j++)
        k->codes[j] = argt ? argt[j].code : -1;
    k->found = found;
    k->next = c->picks;
    c->picks = k;
    c->npicks++;
}

int ixs_spl_resolve(ixs_conn *db, const char *name, int nargs, const ityp *argt, spl_rt **out,
                    ixv_err *err) {
    *out = NULL;
    spl_conn *c = conn(db);
    if (!c) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    if (nargs < 0 || nargs > SPL_MAX_ARGS) return 0;
    unsigned dv = ixs_data_version(db, 0);
    if (c->pick_gen != db->gen || c->pick_dver != dv) {
        picks_free(c);
        c->pick_gen = db->gen;
        c->pick_dver = dv;
    }
    spl_pick *k = pick_find(c, name, nargs, argt);
    char *sig = NULL;
    int f;
    if (k) { /* a copy: get_sig may forget the picks */
        f = k->found;
        if (k->sig && !(sig = strdup(k->sig))) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    } else if ((f = ixs_spl_cat_pick(db, name, nargs, argt, &sig, err)) >= 0)
        pick_keep(c, name, nargs, argt, f, sig);
    if (f > 0) f = get_sig(db, name, nargs, sig, out, err);
    free(sig);
    return f;
}

void ixs_spl_key(const spl_rt *r, sb *b) {
    ixv_sb_add(b, r->name);
    if (r->key_sig) ixv_sb_printf(b, "(%s)", r->key_sig);
}

/* ---- statements of the tree ------------------------------------------------------------ */

static int prep_n(ixs_conn *db, const char *text, size_t n, ixs_stmt **out, ixv_err *err) {
    int64_t dl = db->deadline;
    int intr = db->interrupted, spl = db->spl_prep;
    db->spl_prep = 1;
    int rc = ixs_prepare(db, text, n, out, err);
    db->deadline = dl;
    db->interrupted = intr;
    db->spl_prep = spl;
    return rc;
}

static int prep(ixs_conn *db, const char *text, ixs_stmt **out, ixv_err *err) {
    return prep_n(db, text, strlen(text), out, err);
}

/* The translated statement of q (*temp: prepared for this use only). */
static int q_stmt(frame *f, spl_sql *q, ixs_stmt **st, int *temp) {
    *temp = 0;
    if (q->busy) {
        *temp = 1;
        return prep(f->db, q->text, st, f->err);
    }
    if (q->st && q->gen != f->db->gen) {
        ixs_stmt_free(q->st);
        q->st = NULL;
    }
    if (!q->st) {
        if (prep(f->db, q->text, &q->st, f->err)) return -1;
        q->gen = f->db->gen;
    }
    *st = q->st;
    return 0;
}

static void q_done(spl_sql *q, ixs_stmt *st, int temp) {
    if (temp)
        ixs_stmt_free(st);
    else {
        if (st->st) sqlite3_reset(st->st);
        q->busy = 0;
    }
}

/* Sets the parameters of st from the variables of q. */
static int q_bind(frame *f, spl_sql *q, ixs_stmt *st) {
    if (st->nparams != q->nslots)
        return ixv_seterr(f->err, IXV_E_NOT_IMPLEMENTED, 0, 0, "SPL variables");
    for (int i = 0; i < st->nparams; i++) {
        const sval *v = &f->v[q->slots[i]];
        ityp vt = f->r->vars[q->slots[i]].t, pt = st->ptypes[i];
        ixv_sval_free(&st->pvals[i]);
        st->pset[i] = 1;
        if (v->kind == SQLITE_NULL) continue;
        if (pt.code < 0) {
            sval_copy(v, &st->pvals[i]);
            continue;
        }
        int rc = ixv_convert(vt, v, pt, &st->pvals[i]);
        if (rc) return ixv_seterr(f->err, rc, 0, 0, NULL);
    }
    if (st->kind != SK_SELECT) return 0;
    sqlite3_reset(st->st);
    for (int i = 0; i < st->nparams; i++)
        if (ixv_sval_bind(&st->pvals[i], st->st, i + 1) != SQLITE_OK)
            return ixv_seterr(f->err, IXV_E_NOMEM, 0, 0, NULL);
    return 0;
}

/* Assigns value v of type t to variable slot k. */
static int assign(frame *f, int k, ityp t, const sval *v) {
    sval o;
    int rc = ixs_row_convert(f->db->h, t, v, f->r->vars[k].t, &o);
    if (rc) return ixv_seterr(f->err, rc, 0, 0, NULL);
    if (!o.kind) o.kind = SQLITE_NULL; /* ixv_convert's NULL is all zero */
    ixv_sval_free(&f->v[k]);
    f->v[k] = o;
    if (o.kind != SQLITE_NULL && !o.own && (o.kind == SQLITE_TEXT || o.kind == SQLITE_BLOB))
        sval_copy(&o, &f->v[k]);
    return 0;
}

static int step(frame *f, ixs_stmt *st) {
    int rc = sqlite3_step(st->st);
    if (rc == SQLITE_ROW) return 1;
    if (rc == SQLITE_DONE) return 0;
    ixs_sqlite_err(f->db, rc, st->stype, st->table, f->err);
    return -1;
}

/* Runs q as a SELECT and calls row(f, st, ud) for each row (stops when it
 * returns non-zero: that value is returned; C_ERR on error). */
typedef int (*row_fn)(frame *f, ixs_stmt *st, void *ud);
static int q_rows(frame *f, spl_sql *q, row_fn row, void *ud) {
    ixs_stmt *st;
    int temp;
    if (q_stmt(f, q, &st, &temp)) return C_ERR;
    if (st->kind != SK_SELECT) {
        q_done(q, st, temp);
        return ixv_seterr(f->err, IXV_E_SYNTAX, 0, q->pos, NULL);
    }
    if (q_bind(f, q, st)) {
        q_done(q, st, temp);
        return C_ERR;
    }
    if (!temp) q->busy = 1;
    int rc = 0;
    for (;;) {
        int s = step(f, st);
        if (s < 0) {
            rc = C_ERR;
            break;
        }
        if (s == 0) break;
        rc = row(f, st, ud);
        if (rc) break;
    }
    q_done(q, st, temp);
    return rc;
}

/* The values of the one row of "SELECT e1, ..." into vals (caller frees). */
typedef struct vals {
    int n;
    ityp t[SPL_MAX_RET + SPL_MAX_ARGS];
    sval v[SPL_MAX_RET + SPL_MAX_ARGS];
    int rows;
} vals;

static int take_row(frame *f, ixs_stmt *st, void *ud) {
    vals *x = ud;
    if (x->rows++) return ixv_seterr(f->err, IXS_E_SPL_ONE_ROW, 0, 0, NULL);
    x->n = st->ncols < SPL_MAX_RET + SPL_MAX_ARGS ? st->ncols : SPL_MAX_RET + SPL_MAX_ARGS;
    for (int k = 0; k < x->n; k++) {
        sval b;
        ixv_sval_from_column(&b, st->st, k);
        sval_copy(&b, &x->v[k]);
        x->t[k] = st->cols[k].t;
    }
    return 0;
}

static void vals_free(vals *x) {
    for (int k = 0; k < x->n; k++)
        ixv_sval_free(&x->v[k]);
    x->n = 0;
}

static int eval(frame *f, spl_sql *q, vals *x) {
    memset(x, 0, sizeof *x);
    int rc = q_rows(f, q, take_row, x);
    if (rc) vals_free(x);
    return rc ? C_ERR : 0;
}

/* A condition: 1 true, 0 false (or unknown), -1 error. */
static int truth(frame *f, spl_sql *q) {
    vals x;
    if (eval(f, q, &x)) return -1;
    int t = x.rows > 0;
    vals_free(&x);
    return t;
}

/* ---- routine calls ------------------------------------------------------------------- */

/* The routine call n resolves to with arguments of types argt (kept in n
 * while the catalogue stays). */
static int call_routine(frame *f, spl_node *n, const ityp *argt, spl_rt **out) {
    unsigned dv = ixs_data_version(f->db, 0);
    if (n->rkey && n->rgen == f->db->gen && n->rdver == dv)
        return ixs_spl_get(f->db, n->rkey, n->nargs, out, f->err);
    int found = ixs_spl_resolve(f->db, n->callee, n->nargs, argt, out, f->err);
    if (found == 1) {
        sb k = {0};
        ixs_spl_key(*out, &k);
        free(n->rkey);
        n->rkey = k.oom ? NULL : ixv_sb_take(&k); /* else resolved again next time */
        ixv_sb_free(&k);
        n->rgen = f->db->gen;
        n->rdver = dv;
    }
    return found;
}

/* The types a call returns (copied: the routine may be dropped while it runs). */
typedef struct rets {
    int n;
    ityp t[SPL_MAX_RET];
} rets;

static int call_values(frame *f, spl_node *n, spl_rows *rows, rets *rt) {
    vals a;
    memset(&a, 0, sizeof a);
    if (n->q.text && eval(f, &n->q, &a)) return C_ERR;
    spl_rt *r;
    int found = call_routine(f, n, a.t, &r);
    if (found <= 0 || a.n > r->nparams) {
        vals_free(&a);
        return found < 0 ? C_ERR : ixv_seterr(f->err, IXS_E_SPL_UNRESOLVED, 0, 0, "%s", n->callee);
    }
    rt->n = r->nret;
    memcpy(rt->t, r->ret, sizeof rt->t);
    sval args[SPL_MAX_ARGS];
    int rc = 0;
    for (int k = 0; k < a.n; k++) {
        rc = ixs_row_convert(f->db->h, a.t[k], &a.v[k], r->vars[k].t, &args[k]);
        if (rc) {
            for (int j = 0; j < k; j++)
                ixv_sval_free(&args[j]);
            vals_free(&a);
            return ixv_seterr(f->err, rc, 0, 0, NULL);
        }
    }
    int na = a.n;
    vals_free(&a);
    rc = ixs_spl_run(f->db, r, args, na, rows, f->err);
    for (int k = 0; k < na; k++)
        ixv_sval_free(&args[k]);
    return rc ? C_ERR : 0;
}

static int stmts(frame *f, spl_node *n);

static int call_stmt(frame *f, spl_node *n) {
    spl_rows rows;
    memset(&rows, 0, sizeof rows);
    rets rt;
    if (call_values(f, n, &rows, &rt)) return C_ERR;
    int rc = 0;
    if (n->ntgt) {
        if (rows.n > 1) rc = ixv_seterr(f->err, IXS_E_SPL_MANY_ROWS, 0, 0, "%s", n->callee);
        for (int k = 0; !rc && k < n->ntgt; k++) {
            sval nul = {0};
            nul.kind = SQLITE_NULL;
            const sval *v = rows.n && k < rows.ncols ? &rows.v[k] : &nul;
            rc = assign(f, n->tgt[k], k < rt.n ? rt.t[k] : ixv_t(-1, 0), v);
        }
    }
    ixs_spl_rows_free(&rows);
    return rc ? C_ERR : 0;
}

/* ---- loops --------------------------------------------------------------------------- */

/* C_EXIT / C_CONTINUE of loop n end here. */
static int loop_result(frame *f, int rc, const spl_node *loop, int *stop) {
    *stop = 0;
    if ((rc == C_EXIT || rc == C_CONTINUE) && f->target == loop) {
        *stop = rc == C_EXIT;
        return 0;
    }
    if (rc) *stop = 1;
    return rc;
}

static int check_intr(frame *f) {
    ixs_conn *db = f->db;
    if (db->interrupted || (db->intr_fn && db->intr_fn(db->intr_ud))) {
        db->interrupted = 1;
        return ixv_seterr(f->err, IXV_E_INTERRUPTED, 0, 0, NULL);
    }
    if (db->deadline) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 > db->deadline)
            return ixv_seterr(f->err, IXV_E_INTERRUPTED, 0, 0, NULL);
    }
    return 0;
}

typedef struct each {
    spl_node *n;
    int rc;
    ixs_curframe *cur; /* a named FOREACH: its cursor (WHERE CURRENT OF) */
} each;

static int foreach_row(frame *f, ixs_stmt *st, void *ud) {
    each *e = ud;
    if (e->cur) {
        e->cur->st = st;
        ixs_cursor_fetched(st);
    }
    for (int k = 0; k < e->n->ntgt && k < st->ncols; k++) {
        sval b;
        ixv_sval_from_column(&b, st->st, k);
        if (assign(f, e->n->tgt[k], st->cols[k].t, &b)) return e->rc = C_ERR;
    }
    if (check_intr(f)) return e->rc = C_ERR;
    int stop;
    int rc = loop_result(f, stmts(f, e->n->body), e->n, &stop);
    e->rc = rc;
    return stop ? (rc ? rc : 1) : 0;
}

static int foreach_stmt(frame *f, spl_node *n) {
    if (n->callee[0]) {
        spl_rows rows;
        memset(&rows, 0, sizeof rows);
        rets rt;
        if (call_values(f, n, &rows, &rt)) {
            ixs_spl_rows_free(&rows);
            return C_ERR;
        }
        int rc = 0;
        for (int i = 0; i < rows.n && !rc; i++) {
            for (int k = 0; !rc && k < n->ntgt && k < rows.ncols; k++)
                rc = assign(f, n->tgt[k], rt.t[k], &rows.v[i * rows.ncols + k]);
            if (rc || (rc = check_intr(f))) break;
            int stop;
            rc = loop_result(f, stmts(f, n->body), n, &stop);
            if (stop) break;
        }
        ixs_spl_rows_free(&rows);
        return rc;
    }
    ixs_curframe cf = {.up = f->db->spl_cursors};
    each e = {n, 0, n->cursor[0] ? &cf : NULL};
    if (e.cur) {
        snprintf(cf.name, sizeof cf.name, "%s", n->cursor);
        f->db->spl_cursors = &cf;
    }
    int rc = q_rows(f, &n->q, foreach_row, &e);
    if (e.cur) f->db->spl_cursors = cf.up;
    if (rc == C_ERR || e.rc == C_ERR) return C_ERR;
    return e.rc;
}

static int set_int(frame *f, int slot, int64_t v) {
    sval x = {0};
    x.kind = SQLITE_INTEGER;
    x.i = v;
    return assign(f, slot, ixv_t(IX_T_BIGINT, 8), &x);
}

/* FOR v = a TO b STEP s over the values x->v[k..k+2]; *stop when the loop
 * is left (EXIT, RETURN, error). */
static int range_loop(frame *f, spl_node *n, const vals *x, int k, int *stop) {
    int64_t b[3] = {0, 0, 1};
    *stop = 0;
    for (int j = 0; j < 3; j++) {
        sval o;
        if (k + j >= x->n || x->v[k + j].kind == SQLITE_NULL ||
            ixv_convert(x->t[k + j], &x->v[k + j], ixv_t(IX_T_BIGINT, 8), &o)) {
            *stop = 1;
            return ixv_seterr(f->err, IXV_E_CONVERT, 0, 0, NULL);
        }
        b[j] = o.i;
    }
    *stop = 1;
    if (b[2] == 0) return ixv_seterr(f->err, IXV_E_DIV_ZERO, 0, 0, NULL);
    *stop = 0;
    int rc = 0;
    for (int64_t i = b[0]; b[2] > 0 ? i <= b[1] : i >= b[1]; i += b[2]) {
        if (set_int(f, n->tgt[0], i) || check_intr(f)) {
            *stop = 1;
            return C_ERR;
        }
        rc = loop_result(f, stmts(f, n->body), n, stop);
        if (*stop) return rc;
    }
    return rc;
}

static int for_stmt(frame *f, spl_node *n) {
    vals x;
    if (eval(f, &n->q, &x)) return C_ERR;
    int rc = 0, stop = 0;
    if (n->kind == SN_FORIN) {
        for (int item = 0, k = 0; item < n->nforin && !rc && !stop; k += n->forin[item++]) {
            if (n->forin[item] == 3) {
                rc = range_loop(f, n, &x, k, &stop);
                if (!stop) continue;
                break;
            }
            if (k >= x.n || (rc = assign(f, n->tgt[0], x.t[k], &x.v[k])) || (rc = check_intr(f)))
                break;
            rc = loop_result(f, stmts(f, n->body), n, &stop);
        }
        vals_free(&x);
        return rc;
    }
    rc = range_loop(f, n, &x, 0, &stop);
    vals_free(&x);
    return rc;
}

static int while_stmt(frame *f, spl_node *n) {
    for (;;) {
        int t = truth(f, &n->q);
        if (t <= 0) return t < 0 ? C_ERR : 0;
        if (check_intr(f)) return C_ERR;
        int stop;
        int rc = loop_result(f, stmts(f, n->body), n, &stop);
        if (stop) return rc;
    }
}

/* LOOP ... END LOOP: until EXIT, RETURN or an error. */
static int loop_stmt(frame *f, spl_node *n) {
    for (;;) {
        if (check_intr(f)) return C_ERR;
        int stop;
        int rc = loop_result(f, stmts(f, n->body), n, &stop);
        if (stop) return rc;
    }
}

/* EXIT / CONTINUE [WHEN cond] */
static int exit_stmt(frame *f, spl_node *n) {
    if (n->q.text) {
        int t = truth(f, &n->q);
        if (t <= 0) return t < 0 ? C_ERR : 0;
    }
    f->target = n->target;
    return n->kind == SN_EXIT ? C_EXIT : C_CONTINUE;
}

/* ---- the other statements --------------------------------------------------------------- */

static int let_stmt(frame *f, spl_node *n) {
    vals x;
    if (eval(f, &n->q, &x)) return C_ERR;
    int rc = 0;
    for (int k = 0; k < n->ntgt && !rc; k++) {
        sval nul = {0};
        nul.kind = SQLITE_NULL;
        rc = assign(f, n->tgt[k], k < x.n ? x.t[k] : ixv_t(-1, 0), k < x.n ? &x.v[k] : &nul);
    }
    vals_free(&x);
    return rc ? C_ERR : 0;
}

static int return_stmt(frame *f, spl_node *n) {
    if (n->q.text) {
        vals x;
        if (eval(f, &n->q, &x)) return C_ERR;
        spl_rows *o = f->out;
        if (o->n == o->cap) {
            int cap = o->cap ? o->cap * 2 : 4;
            sval *nv = realloc(o->v, sizeof(sval) * (size_t)(cap * o->ncols + 1));
            if (!nv) {
                vals_free(&x);
                return ixv_seterr(f->err, IXV_E_NOMEM, 0, 0, NULL);
            }
            o->v = nv;
            o->cap = cap;
        }
        sval *row = &o->v[o->n * o->ncols];
        int rc = 0;
        for (int k = 0; k < o->ncols; k++) {
            memset(&row[k], 0, sizeof row[k]);
            row[k].kind = SQLITE_NULL;
            if (!rc && k < x.n)
                rc = ixs_row_convert(f->db->h, x.t[k], &x.v[k], f->r->ret[k], &row[k]);
            if (!row[k].kind) row[k].kind = SQLITE_NULL;
            if (!rc && !row[k].own && (row[k].kind == SQLITE_TEXT || row[k].kind == SQLITE_BLOB)) {
                sval c;
                sval_copy(&row[k], &c);
                row[k] = c;
            }
        }
        o->n++;
        vals_free(&x);
        if (rc) return ixv_seterr(f->err, rc, 0, 0, NULL);
    }
    return n->resume ? 0 : C_RETURN;
}

static int raise_stmt(frame *f, spl_node *n) {
    vals x;
    if (eval(f, &n->q, &x)) return C_ERR;
    int64_t c[2] = {0, 0};
    for (int k = 0; k < 2 && k < x.n; k++) {
        sval o;
        if (x.v[k].kind != SQLITE_NULL && !ixv_convert(x.t[k], &x.v[k], ixv_t(IX_T_INTEGER, 4), &o))
            c[k] = o.i;
    }
    char text[256] = "";
    if (x.n > 2 && x.v[2].kind != SQLITE_NULL) {
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        if (ixv_sval_to_text(x.t[2], &x.v[2], &b) == 0)
            snprintf(text, sizeof text, "%.*s", (int)b.len, (const char *)b.data);
        ixb_wbuf_free(&b);
    }
    vals_free(&x);
    ixv_seterr(f->err, c[0] ? (int)c[0] : IXV_E_TEXT, (int)c[1], 0, "%s", text);
    return C_ERR;
}

void ixs_spl_in_dml(ixs_conn *db, int d) {
    spl_conn *c = conn(db);
    if (c) c->dml += d;
}

/* -675 for a statement a routine called from inside an SQL statement may
 * not run (Informix's list; SQLite could not drop or alter a table there). */
static int dml_check(frame *f, const ixs_stmt *st) {
    static const int refused[] = {
        IX_STMTTYPE_BEGIN_WORK,    IX_STMTTYPE_COMMIT_WORK,  IX_STMTTYPE_ROLLBACK_WORK,
        IX_STMTTYPE_DROP_TABLE,    IX_STMTTYPE_DROP_INDEX,   IX_STMTTYPE_ALTER_TABLE,
        IX_STMTTYPE_ALTER_INDEX,   IX_STMTTYPE_RENAME_TABLE, IX_STMTTYPE_RENAME_COLUMN,
        IX_STMTTYPE_DROP_VIEW,     IX_STMTTYPE_DROP_SYNONYM, IX_STMTTYPE_CREATE_TRIGGER,
        IX_STMTTYPE_DROP_TRIGGER,  IX_STMTTYPE_TRUNCATE,     IX_STMTTYPE_DROP_SEQUENCE,
        IX_STMTTYPE_ALTER_SEQUENCE};
    spl_conn *c = f->db->spl;
    if (!c || !c->dml || st->kind != SK_SQL) return 0;
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
        if (st->stype == refused[k]) return ixv_seterr(f->err, IXV_E_SPL_DML_STMT, 0, 0, NULL);
    return 0;
}

static int sql_stmt(frame *f, spl_node *n) {
    if (n->q.ninto) {
        vals x;
        if (eval(f, &n->q, &x)) return C_ERR;
        int rc = 0;
        if (x.rows == 0) {
            /* no row: the variables keep their values (SQLCODE 100) */
        } else
            for (int k = 0; k < n->q.ninto && !rc; k++)
                rc = k < x.n ? assign(f, n->q.into[k], x.t[k], &x.v[k]) : 0;
        vals_free(&x);
        return rc ? C_ERR : 0;
    }
    ixs_stmt *st;
    int temp;
    if (q_stmt(f, &n->q, &st, &temp)) return C_ERR;
    int rc = dml_check(f, st) ? -1 : q_bind(f, &n->q, st);
    if (!rc && st->kind == SK_SELECT) {
        /* a SELECT without INTO: run for its effects */
        int s;
        while ((s = step(f, st)) > 0) {
        }
        rc = s < 0;
    } else if (!rc) {
        int64_t rows;
        int64_t dl = f->db->deadline;
        rc = ixs_execute(st, &rows, f->err);
        f->db->deadline = dl;
    }
    q_done(&n->q, st, temp);
    return rc ? C_ERR : 0;
}

/* EXECUTE IMMEDIATE: the text the expression gives, prepared and run once.
 * A NULL text is -201, a text with '?' placeholders -254, a SELECT that
 * returns rows (an EXECUTE FUNCTION too) -260; the statement's own errors
 * come back as they are. */
static int execimm_stmt(frame *f, spl_node *n) {
    vals x;
    if (eval(f, &n->q, &x)) return C_ERR;
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int rc = 0;
    if (x.n < 1 || x.v[0].kind == SQLITE_NULL)
        rc = ixv_seterr(f->err, IXV_E_SYNTAX, 0, n->q.pos, NULL);
    else if ((rc = ixv_sval_to_text(x.t[0], &x.v[0], &b)))
        rc = ixv_seterr(f->err, rc < 0 ? rc : IXV_E_NOMEM, 0, 0, NULL);
    vals_free(&x);
    ixs_stmt *st = NULL;
    if (!rc && prep_n(f->db, (const char *)b.data, b.len, &st, f->err)) rc = -1;
    ixb_wbuf_free(&b);
    if (!rc && st->nparams) rc = ixv_seterr(f->err, IXV_E_HOST_VARS, 0, 0, NULL);
    if (!rc) rc = dml_check(f, st);
    if (!rc && st->kind == SK_SELECT && st->ncols)
        rc = ixv_seterr(f->err, IXV_E_SELECT_NEEDS_CUR, 0, 0, NULL);
    if (!rc) {
        int64_t rows;
        int64_t dl = f->db->deadline;
        rc = ixs_execute(st, &rows, f->err);
        f->db->deadline = dl;
    }
    ixs_stmt_free(st);
    return rc ? C_ERR : 0;
}

static int block(frame *f, spl_node *b);

static int stmt(frame *f, spl_node *n) {
    switch (n->kind) {
    case SN_BLOCK: return block(f, n);
    case SN_LET: return let_stmt(f, n);
    case SN_IF:
        for (spl_node *c = n; c; c = c->elsep) {
            if (c->kind == SN_BLOCK) return stmts(f, c->body);
            int t = truth(f, &c->q);
            if (t < 0) return C_ERR;
            if (t) return stmts(f, c->body);
        }
        return 0;
    case SN_FOR:
    case SN_FORIN: return for_stmt(f, n);
    case SN_FOREACH: return foreach_stmt(f, n);
    case SN_WHILE: return while_stmt(f, n);
    case SN_EXIT:
    case SN_CONTINUE: return exit_stmt(f, n);
    case SN_LOOP: return loop_stmt(f, n);
    case SN_RETURN: return return_stmt(f, n);
    case SN_RAISE: return raise_stmt(f, n);
    case SN_SQL: return sql_stmt(f, n);
    case SN_CALL: return call_stmt(f, n);
    case SN_SYSTEM: return ixv_seterr(f->err, IXS_E_SPL_SYSTEM, 0, 0, NULL);
    case SN_TRACE: return 0;
    case SN_EXECIMM: return execimm_stmt(f, n);
    }
    return ixv_seterr(f->err, IXV_E_NOT_IMPLEMENTED, 0, 0, "SPL statement");
}

static int stmts(frame *f, spl_node *n) {
    for (; n; n = n->next) {
        int rc = stmt(f, n);
        if (rc) return rc;
    }
    return 0;
}

static const spl_handler *handler_for(const spl_node *b, int code) {
    for (int k = 0; k < b->nh; k++) {
        const spl_handler *h = &b->h[k];
        if (!h->ncodes) return h;
        for (int j = 0; j < h->ncodes; j++)
            if (h->codes[j] == code) return h;
    }
    return NULL;
}

/* Runs a block: its variables start NULL; an error in one of its
 * statements goes to its ON EXCEPTION handler (then, WITH RESUME, on with the
 * next statement, else out of the block). */
static int block(frame *f, spl_node *b) {
    for (int k = b->first_var; k < b->first_var + b->nvars; k++)
        if (!f->r->vars[k].global) {
            ixv_sval_free(&f->v[k]);
            f->v[k].kind = SQLITE_NULL;
        }
    for (spl_node *n = b->body; n; n = n->next) {
        int rc = stmt(f, n);
        if (rc != C_ERR) {
            if (rc) return rc;
            continue;
        }
        const spl_handler *h =
            f->err->sqlcode == IXV_E_INTERRUPTED ? NULL : handler_for(b, f->err->sqlcode);
        if (!h) return C_ERR;
        ixv_err e = *f->err;
        memset(f->err, 0, sizeof *f->err);
        int64_t v3[2] = {e.sqlcode, e.isamcode};
        for (int k = 0; k < 2; k++)
            if (h->setv[k] >= 0 && set_int(f, h->setv[k], v3[k])) return C_ERR;
        if (h->setv[2] >= 0) {
            sval t = {0};
            t.kind = SQLITE_TEXT;
            t.p = (const uint8_t *)e.text;
            t.n = strlen(e.text);
            if (assign(f, h->setv[2], ixv_t(IX_T_VARCHAR, 255), &t)) return C_ERR;
        }
        rc = stmts(f, h->body);
        if (rc) return rc;
        if (!h->resume) return 0;
    }
    return 0;
}

/* ---- running a routine -------------------------------------------------------------- */

static spl_global *global_find(spl_conn *c, const char *name) {
    for (int k = 0; k < c->ng; k++)
        if (!strcmp(c->g[k].name, name)) return &c->g[k];
    return NULL;
}

/* A DEFAULT ("SELECT expr") into variable k. */
static int set_default(frame *f, int k) {
    spl_sql q;
    memset(&q, 0, sizeof q);
    q.text = f->r->vars[k].defsql;
    vals x;
    int rc = eval(f, &q, &x);
    ixs_stmt_free(q.st);
    if (rc) return C_ERR;
    rc = x.n ? assign(f, k, x.t[0], &x.v[0]) : 0;
    vals_free(&x);
    return rc;
}

/* GLOBAL variables: in from the session (the first DEFAULT sets them), and
 * back out when the routine ends (out 1). */
static int globals(frame *f, int out) {
    spl_conn *c = f->db->spl;
    for (int k = 0; k < f->r->nvars; k++) {
        spl_var *v = &f->r->vars[k];
        if (!v->global) continue;
        spl_global *g = global_find(c, v->name);
        if (out) {
            if (g) {
                ixv_sval_free(&g->v);
                sval_copy(&f->v[k], &g->v);
            }
            continue;
        }
        if (g) {
            if (assign(f, k, g->t, &g->v)) return C_ERR;
            continue;
        }
        if (v->defsql && set_default(f, k)) return C_ERR;
        spl_global *ng = realloc(c->g, sizeof *ng * (size_t)(c->ng + 1));
        if (!ng) return ixv_seterr(f->err, IXV_E_NOMEM, 0, 0, NULL);
        c->g = ng;
        g = &c->g[c->ng++];
        memset(g, 0, sizeof *g);
        snprintf(g->name, sizeof g->name, "%s", v->name);
        g->t = v->t;
        sval_copy(&f->v[k], &g->v);
    }
    return 0;
}

int ixs_spl_run(ixs_conn *db, spl_rt *r, const sval *args, int nargs, spl_rows *out, ixv_err *err) {
    spl_conn *c = conn(db);
    memset(out, 0, sizeof *out);
    if (!c) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    if (c->depth >= SPL_MAX_DEPTH) return ixv_seterr(err, IXS_E_SPL_DEPTH, 0, 0, "%s", r->name);
    if (nargs > r->nparams) return ixv_seterr(err, IXS_E_SPL_UNRESOLVED, 0, 0, "%s", r->name);
    frame f = {db, r, NULL, out, err, NULL};
    f.v = calloc((size_t)(r->nvars ? r->nvars : 1), sizeof(sval));
    if (!f.v) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    out->ncols = r->nret;
    c->depth++;
    r->active++;
    int delim_was = delim_enter(db, r->delimident);
    int rc = 0;
    for (int k = 0; k < r->nvars; k++)
        f.v[k].kind = SQLITE_NULL;
    for (int k = 0; k < nargs && !rc; k++)
        sval_copy(&args[k], &f.v[k]);
    for (int k = nargs; k < r->nparams && !rc; k++) {
        if (!r->vars[k].defsql)
            rc = ixv_seterr(err, IXS_E_SPL_UNRESOLVED, 0, 0, "%s", r->name);
        else
            rc = set_default(&f, k);
    }
    if (!rc) rc = globals(&f, 0);
    if (!rc) {
        rc = block(&f, r->body);
        if (rc == C_RETURN) rc = 0;
        if (rc != C_ERR) rc = globals(&f, 1);
    }
    for (int k = 0; k < r->nvars; k++)
        ixv_sval_free(&f.v[k]);
    free(f.v);
    delim_leave(db, delim_was);
    c->depth--;
    r->active--;
    if (!r->active && r->stale) ixs_spl_rt_free(r);
    if (rc) {
        ixs_spl_rows_free(out);
        if (!err->sqlcode) ixv_seterr(err, IXV_E_NOT_IMPLEMENTED, 0, 0, "SPL");
        return -1;
    }
    return 0;
}
