/*
 * ixs_spl_parse.c: CREATE PROCEDURE / FUNCTION into a tree (ixs_spl.h).
 * Only tokens are read here, no SQLite; the one look-up is the catalogue's
 * column of a `LIKE table.column` type (a parameter, a RETURNING type or a
 * DEFINE), since the casts of the '?' marks below need every variable's
 * type. Expressions and embedded SQL are kept as Informix SQL text with the
 * variables replaced by '?' marks (the order of the marks is
 * spl_sql.slots).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_spl.h"

/* The parse state: px and the visible variables (slot numbers). */
typedef struct sps {
    px *p;
    spl_rt *r;
    int vis[SPL_MAX_VARS];
    int nvis;
    struct {
        int kind;                     /* SPL_LOOP_* */
        int form;                     /* written LOOP ... END LOOP */
        char label[IXS_NAME_MAX + 1]; /* <<label>>, else "" */
        spl_node *n;
    } loops[SPL_MAX_NEST]; /* the enclosing loops, innermost last (each is a nesting level) */
    int nloops;
    char label[IXS_NAME_MAX + 1]; /* the <<label>> before the loop being read */
    int depth;                    /* nesting of statements and ELIF (bounded: hostile input) */
} sps;

static spl_node *node_new(sps *s, int kind) {
    spl_node *n = calloc(1, sizeof *n);
    if (!n) {
        ixs_px_failc(s->p, IXV_E_NOMEM, NULL);
        return NULL;
    }
    n->kind = kind;
    n->pos = s->p->i < s->p->nt ? s->p->t[s->p->i].pos : 0;
    return n;
}

static void sql_free(spl_sql *q) {
    free(q->text);
    free(q->slots);
    free(q->into);
    ixs_stmt_free(q->st);
    memset(q, 0, sizeof *q);
}

static void node_free(spl_node *n) {
    while (n) {
        spl_node *next = n->next;
        sql_free(&n->q);
        free(n->tgt);
        free(n->forin);
        node_free(n->body);
        node_free(n->elsep);
        for (int k = 0; k < n->nh; k++) {
            free(n->h[k].codes);
            node_free(n->h[k].body);
        }
        free(n->h);
        free(n->rkey);
        free(n);
        n = next;
    }
}

void ixs_spl_rt_free(spl_rt *r) {
    if (!r) return;
    for (int k = 0; k < r->nvars; k++)
        free(r->vars[k].defsql);
    free(r->vars);
    free(r->document);
    free(r->key_sig);
    node_free(r->body);
    free(r);
}

/* ---- variables ---------------------------------------------------------------------- */

static int var_find(sps *s, const char *name) {
    for (int k = s->nvis; k-- > 0;)
        if (!strcmp(s->r->vars[s->vis[k]].name, name)) return s->vis[k];
    return -1;
}

/* The slot of the variable named by token i, or -1. */
static int var_at(sps *s, int i) {
    px *p = s->p;
    if (!ixs_px_is_ident(p, i)) return -1;
    char b[IXS_NAME_MAX + 1];
    if (ixs_px_ident_peek(p, i, b, sizeof b)) return -1;
    return var_find(s, b);
}

static int var_add(sps *s, const char *name, ityp t) {
    spl_rt *r = s->r;
    if (r->nvars >= SPL_MAX_VARS || s->nvis >= SPL_MAX_VARS) return ixs_px_fail(s->p);
    spl_var *nv = realloc(r->vars, sizeof *nv * (size_t)(r->nvars + 1));
    if (!nv) return ixs_px_failc(s->p, IXV_E_NOMEM, NULL);
    r->vars = nv;
    memset(&nv[r->nvars], 0, sizeof *nv);
    snprintf(nv[r->nvars].name, sizeof nv[r->nvars].name, "%s", name);
    nv[r->nvars].t = t;
    s->vis[s->nvis++] = r->nvars;
    return r->nvars++;
}

/* A variable name at the current token (it must be visible): its slot. */
static int var_ref(sps *s) {
    int v = var_at(s, s->p->i);
    if (v < 0) return ixs_px_fail(s->p);
    s->p->i++;
    return v;
}

/* v [, v ...] into *out (malloc'ed). */
static int var_list(sps *s, int **out, int *n) {
    *n = 0;
    *out = NULL;
    do {
        int v = var_ref(s);
        if (v < 0) return -1;
        int *no = realloc(*out, sizeof(int) * (size_t)(*n + 1));
        if (!no) return ixs_px_failc(s->p, IXV_E_NOMEM, NULL);
        *out = no;
        (*out)[(*n)++] = v;
    } while (ixs_px_acc_op(s->p, ","));
    return 0;
}

/* ---- SQL text with variables ---------------------------------------------------------- */

/* Keywords after which a name is a table, not a variable. */
static int names_table(px *p, int i) {
    static const char *kw[] = {"from", "into", "update", "table", "join", "index", NULL};
    for (int k = 0; kw[k]; k++)
        if (ixs_px_kw_str(p, i, kw[k])) return 1;
    return 0;
}

/* Appends tokens [a, b) of the source to q->text (as written), the
 * variables among them as '?' (cast: "(?::type)", for expressions whose
 * type the translator must know) with their slots; tokens [skip_a, skip_b)
 * are left out. */
static int emit(sps *s, int a, int b, int skip_a, int skip_b, int cast, sb *out, spl_sql *q) {
    px *p = s->p;
    int from = a < p->nt ? p->t[a].pos : (int)p->n;
    for (int i = a; i < b; i++) {
        if (i == skip_a) {
            ixv_sb_addn(out, p->sql + from, (size_t)(p->t[i].pos - from));
            i = skip_b - 1;
            from = skip_b < p->nt ? p->t[skip_b].pos : (int)p->n;
            continue;
        }
        int v = var_at(s, i);
        if (v < 0 || (i > 0 && ixs_px_op(p, i - 1, ".")) || ixs_px_op(p, i + 1, ".") ||
            ixs_px_op(p, i + 1, "(") || (i > 0 && names_table(p, i - 1)))
            continue;
        ixv_sb_addn(out, p->sql + from, (size_t)(p->t[i].pos - from));
        if (cast) {
            char tn[64];
            ixv_type_text(s->r->vars[v].t, tn, sizeof tn);
            ixv_sb_printf(out, "(?::%s)", tn);
        } else
            ixv_sb_addc(out, '?');
        int *ns = realloc(q->slots, sizeof(int) * (size_t)(q->nslots + 1));
        if (!ns) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        q->slots = ns;
        q->slots[q->nslots++] = v;
        from = p->t[i].pos + p->t[i].len;
    }
    int end = b > a ? p->t[b - 1].pos + p->t[b - 1].len : from;
    if (end > from) ixv_sb_addn(out, p->sql + from, (size_t)(end - from));
    return out->oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : 0;
}

static int take(sps *s, sb *b, spl_sql *q) {
    if (b->oom) return ixs_px_failc(s->p, IXV_E_NOMEM, NULL);
    q->text = ixv_sb_take(b);
    return q->text ? 0 : ixs_px_failc(s->p, IXV_E_NOMEM, NULL);
}

/* The end of an expression from the current token: the first token at
 * parenthesis depth 0 that is ',' (when comma) or one of the stop
 * keywords, ';' or the end. */
static int expr_end(sps *s, int comma, const char *const *stop) {
    px *p = s->p;
    int depth = 0, i = p->i;
    for (; i < p->nt && p->t[i].k != T_EOF; i++) {
        if (ixs_px_op(p, i, "(") || ixs_px_op(p, i, "[")) depth++;
        if (ixs_px_op(p, i, ")") || ixs_px_op(p, i, "]")) {
            if (depth == 0) break;
            depth--;
        }
        if (depth) continue;
        if (ixs_px_op(p, i, ";") || (comma && ixs_px_op(p, i, ","))) break;
        int hit = 0;
        for (int k = 0; stop && stop[k]; k++)
            if (ixs_px_kw_str(p, i, stop[k])) hit = 1;
        if (hit && ixs_px_kw(p, i, IXK_UPDATE) && i > 0 && ixs_px_kw(p, i - 1, IXK_FOR))
            hit = 0; /* FOR UPDATE */
        if (hit) break;
    }
    return i;
}

/* expr [, expr ...] up to a stop keyword or ';', as "SELECT e1, e2" into q;
 * *count gets the number of expressions. */
static int expr_list(sps *s, const char *const *stop, spl_sql *q, int *count) {
    px *p = s->p;
    sb b = {0};
    ixv_sb_add(&b, "SELECT ");
    int n = 0;
    q->pos = p->i < p->nt ? p->t[p->i].pos : 0;
    for (;;) {
        int e = expr_end(s, 1, stop);
        if (e == p->i) {
            ixv_sb_free(&b);
            return ixs_px_fail(p);
        }
        if (n) ixv_sb_add(&b, ", ");
        if (emit(s, p->i, e, -1, -1, 1, &b, q)) {
            ixv_sb_free(&b);
            return -1;
        }
        n++;
        p->i = e;
        if (!ixs_px_acc_op(p, ",")) break;
    }
    *count = n;
    return take(s, &b, q);
}

/* One expression of a FOR list up to ',', ')' or a stop keyword, appended
 * to b. */
static int forin_expr(sps *s, const char *const *stop, sb *b, spl_sql *q) {
    px *p = s->p;
    int e = expr_end(s, 1, stop);
    if (e == p->i) return ixs_px_fail(p);
    if (emit(s, p->i, e, -1, -1, 1, b, q)) return -1;
    p->i = e;
    return 0;
}

/*
 * FOR v IN ( item [, item ...] )
 * item := expr | expr TO expr [STEP expr]
 * as "SELECT e, a, b, s, ..." into n->q, n->forin[k] the number of values
 * of item k (1, or 3 for a range).
 */
static int forin_list(sps *s, spl_node *n) {
    static const char *const to[] = {"to", NULL};
    static const char *const step[] = {"step", NULL};
    px *p = s->p;
    sb b = {0};
    ixv_sb_add(&b, "SELECT ");
    n->q.pos = p->i < p->nt ? p->t[p->i].pos : 0;
    int rc = 0;
    do {
        int *f = realloc(n->forin, sizeof(int) * (size_t)(n->nforin + 1));
        if (!f) {
            rc = ixs_px_failc(p, IXV_E_NOMEM, NULL);
            break;
        }
        n->forin = f;
        if (n->nforin) ixv_sb_add(&b, ", ");
        if ((rc = forin_expr(s, to, &b, &n->q))) break;
        n->forin[n->nforin] = 1;
        if (ixs_px_acc(p, IXK_TO)) {
            n->forin[n->nforin] = 3;
            ixv_sb_add(&b, ", ");
            if ((rc = forin_expr(s, step, &b, &n->q))) break;
            ixv_sb_add(&b, ", ");
            if (ixs_px_acc(p, IXK_STEP))
                rc = forin_expr(s, NULL, &b, &n->q);
            else
                ixv_sb_add(&b, "1");
            if (rc) break;
        }
        n->nforin++;
    } while (ixs_px_acc_op(p, ","));
    if (rc) {
        ixv_sb_free(&b);
        return -1;
    }
    return take(s, &b, &n->q);
}

/* A condition up to a stop keyword, as "SELECT 1 FROM systables WHERE
 * tabid = 1 AND (cond)" (true when it returns a row). */
static int cond(sps *s, const char *const *stop, spl_sql *q) {
    px *p = s->p;
    int e = expr_end(s, 0, stop);
    if (e == p->i) return ixs_px_fail(p);
    sb b = {0};
    q->pos = p->t[p->i].pos;
    ixv_sb_add(&b, "SELECT 1 FROM systables WHERE tabid = 1 AND (");
    if (emit(s, p->i, e, -1, -1, 1, &b, q)) {
        ixv_sb_free(&b);
        return -1;
    }
    ixv_sb_addc(&b, ')');
    p->i = e;
    return take(s, &b, q);
}

/* An embedded SQL statement up to ';': a SELECT loses its INTO v, ... list
 * (the targets, into q->into). */
static int sql_stmt(sps *s, spl_sql *q, const char *const *stop) {
    px *p = s->p;
    int a = p->i, e = expr_end(s, 0, stop);
    int ia = -1, ib = -1;
    if (ixs_px_kw(p, a, IXK_SELECT)) {
        int depth = 0;
        for (int i = a; i < e; i++) {
            if (ixs_px_op(p, i, "(")) depth++;
            if (ixs_px_op(p, i, ")")) depth--;
            if (depth || !ixs_px_kw(p, i, IXK_INTO) || ixs_px_kw(p, i + 1, IXK_TEMP) ||
                ixs_px_kw(p, i + 1, IXK_EXTERNAL) || ixs_px_kw(p, i + 1, IXK_RAW) ||
                ixs_px_kw(p, i + 1, IXK_SCRATCH))
                continue;
            p->i = i + 1;
            if (var_list(s, &q->into, &q->ninto)) return -1;
            ia = i;
            ib = p->i;
            break;
        }
    }
    sb b = {0};
    q->pos = p->t[a].pos;
    if (emit(s, a, e, ia, ib, 0, &b, q)) {
        ixv_sb_free(&b);
        return -1;
    }
    p->i = e;
    return take(s, &b, q);
}

/* ---- statements ---------------------------------------------------------------------- */

static int stmts(sps *s, spl_node **out, const char *const *end);
static int block_body(sps *s, spl_node *blk, const char *const *end);

static int end_of(sps *s, const char *what) {
    if (ixs_px_expect(s->p, IXK_END) || (ixs_px_acc_str(s->p, what) ? 0 : ixs_px_fail(s->p)))
        return -1;
    return 0;
}

/* LIKE [owner.]table.column: the column's type (a SERIAL's is INTEGER, a
 * SERIAL8's INT8, a BIGSERIAL's BIGINT, as the catalogue keeps them).
 * -206 / -217 for unknown names. */
static int like_type(px *p, ityp *t) {
    char a[IXS_NAME_MAX + 1], b[IXS_NAME_MAX + 1];
    if (ixs_px_ident(p, a, sizeof a) || ixs_px_expect_op(p, ".") || ixs_px_ident(p, b, sizeof b))
        return -1;
    if (ixs_px_acc_op(p, ".")) { /* owner.table.column */
        snprintf(a, sizeof a, "%s", b);
        if (ixs_px_ident(p, b, sizeof b)) return -1;
    }
    itab tab;
    int f = p->db ? ixs_cat_table(p->db, a, &tab, p->err) : 0;
    if (f < 0) {
        p->failed = 1;
        return -1;
    }
    if (!f) return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", a);
    const icol *c = NULL;
    for (int k = 0; k < tab.ncols && !c; k++)
        if (!strcmp(tab.cols[k].name, b)) c = &tab.cols[k];
    if (c) *t = c->t; /* a SERIAL column's type is its INTEGER form */
    int rc = c ? 0 : ixs_px_failc(p, IXV_E_NO_COLUMN, "%s", b);
    ixs_itab_free(&tab);
    return rc;
}

/* { type | LIKE [owner.]table.column } into *t (a SERIAL type is -201: a
 * variable, parameter or returned value has none). */
static int type_or_like(px *p, ityp *t) {
    if (ixs_px_acc(p, IXK_LIKE)) return like_type(p, t);
    int serial = 0;
    int64_t st;
    uint32_t cl;
    if (ixs_parse_type(p, t, &serial, &st, &cl)) return -1;
    return serial ? ixs_px_fail(p) : 0;
}

/* DEFINE [GLOBAL] v [, v ...] { type | LIKE [owner.]table.column } [DEFAULT expr] */
static int define_stmt(sps *s) {
    px *p = s->p;
    int global = ixs_px_acc(p, IXK_GLOBAL);
    char names[64][IXS_NAME_MAX + 1];
    int n = 0;
    do {
        if (n == 64 || ixs_px_newname(p, names[n], sizeof names[n])) return ixs_px_fail(p);
        n++;
    } while (ixs_px_acc_op(p, ","));
    ityp t;
    if (type_or_like(p, &t)) return -1;
    char *def = NULL;
    if (ixs_px_acc(p, IXK_DEFAULT)) {
        static const char *const none[] = {NULL};
        spl_sql q;
        memset(&q, 0, sizeof q);
        int cnt = 0;
        if (expr_list(s, none, &q, &cnt) || cnt != 1 || q.nslots) {
            sql_free(&q);
            return ixs_px_fail(p);
        }
        def = q.text;
        q.text = NULL;
        sql_free(&q);
    } else if (global)
        return ixs_px_fail(p); /* a GLOBAL needs its DEFAULT */
    for (int k = 0; k < n; k++) {
        int v = var_add(s, names[k], t);
        if (v < 0) {
            free(def);
            return -1;
        }
        s->r->vars[v].global = global;
        if (def) s->r->vars[v].defsql = k == n - 1 ? def : strdup(def);
    }
    return ixs_px_expect_op(p, ";");
}

/* Where a statement starts, and LOOP: where a loop's head ends. */
static const char *const LOOP_KW[] = {
    "let",      "if",       "for",    "foreach",  "while",  "return", "raise",
    "call",     "execute",  "insert", "update",   "delete", "select", "exit",
    "continue", "begin",    "system", "trace",    "create", "drop",   "alter",
    "lock",     "unlock",   "set",    "define",   "on",     "grant",  "revoke",
    "rename",   "truncate", "commit", "rollback", "loop",   NULL};

/* LET v [, v ...] = expr [, expr ...] | LET v, ... = routine(args) */
static int let_stmt(sps *s, spl_node *n) {
    px *p = s->p;
    if (var_list(s, &n->tgt, &n->ntgt) || ixs_px_expect_op(p, "=")) return -1;
    /* a user routine giving several values: LET a, b = f(x) */
    int name_at = p->i;
    if (n->ntgt > 1 && ixs_px_is_ident(p, name_at) && ixs_px_op(p, name_at + 1, "(") &&
        var_at(s, name_at) < 0) {
        int e = expr_end(s, 0, NULL);
        if (ixs_px_op(p, e - 1, ")")) {
            n->kind = SN_CALL;
            ixs_px_ident(p, n->callee, sizeof n->callee);
            p->i++;
            if (!ixs_px_op(p, p->i, ")")) {
                static const char *const none[] = {NULL};
                if (expr_list(s, none, &n->q, &n->nargs)) return -1;
            }
            if (ixs_px_expect_op(p, ")")) return -1;
            return ixs_px_expect_op(p, ";");
        }
    }
    /* LET a, b = (SELECT x, y ...) */
    if (n->ntgt > 1 && ixs_px_op(p, p->i, "(") && ixs_px_kw(p, p->i + 1, IXK_SELECT)) {
        int save = p->i;
        p->i++;
        int e = expr_end(s, 0, NULL);
        if (ixs_px_op(p, e, ")") && (ixs_px_op(p, e + 1, ";"))) {
            sb b = {0};
            n->q.pos = p->t[p->i].pos;
            if (emit(s, p->i, e, -1, -1, 0, &b, &n->q) || take(s, &b, &n->q)) return -1;
            p->i = e + 1;
            return ixs_px_expect_op(p, ";");
        }
        p->i = save;
    }
    static const char *const none[] = {NULL};
    int cnt = 0;
    if (expr_list(s, none, &n->q, &cnt)) return -1;
    if (cnt != n->ntgt) return ixs_px_fail(p);
    return ixs_px_expect_op(p, ";");
}

/* IF cond THEN stmts {ELIF cond THEN stmts} [ELSE stmts] END IF */
static int if_stmt(sps *s, spl_node *n) {
    static const char *const then[] = {"then", NULL};
    static const char *const ends[] = {"elif", "else", "end", NULL};
    px *p = s->p;
    if (cond(s, then, &n->q) || ixs_px_expect(p, IXK_THEN) || stmts(s, &n->body, ends)) return -1;
    if (ixs_px_acc(p, IXK_ELIF)) {
        if (++s->depth > SPL_MAX_NEST)
            return ixs_px_too_complex(p, "SPL statements nested more than %d deep", SPL_MAX_NEST);
        spl_node *e = node_new(s, SN_IF);
        if (!e) return -1;
        n->elsep = e;
        return if_stmt(s, e);
    }
    if (ixs_px_acc(p, IXK_ELSE)) {
        static const char *const endk[] = {"end", NULL};
        spl_node *b = node_new(s, SN_BLOCK);
        if (!b) return -1;
        n->elsep = b;
        if (stmts(s, &b->body, endk)) return -1;
    }
    if (end_of(s, "if")) return -1;
    ixs_px_acc_op(p, ";"); /* END IF [;] */
    return 0;
}

/* After END LOOP: [label] (the loop's own, else -201). */
static int end_label(sps *s, const char *label) {
    px *p = s->p;
    if (!ixs_px_is_name(p, p->i) || !ixs_px_op(p, p->i + 1, ";")) return 0;
    for (int k = 0; LOOP_KW[k]; k++) /* "END LOOP commit;": the next statement */
        if (ixs_px_kw_str(p, p->i, LOOP_KW[k])) return 0;
    char l[IXS_NAME_MAX + 1];
    if (ixs_px_ident(p, l, sizeof l)) return -1;
    return strcmp(l, label) ? ixs_px_fail(p) : 0;
}

/* The body of loop n up to END what (what "loop": END LOOP [label]). The
 * loop takes the <<label>> read before it. */
static int loop_body(sps *s, spl_node *n, int kind, const char *what) {
    static const char *const endk[] = {"end", NULL};
    if (s->nloops == SPL_MAX_NEST) return ixs_px_fail(s->p); /* the nesting check comes first */
    int k = s->nloops++;
    s->loops[k].kind = kind;
    s->loops[k].form = !strcmp(what, "loop");
    s->loops[k].n = n;
    snprintf(s->loops[k].label, sizeof s->loops[k].label, "%s", s->label);
    s->label[0] = 0;
    int rc = stmts(s, &n->body, endk);
    s->nloops--;
    if (rc || end_of(s, what)) return -1;
    if (s->loops[k].form && end_label(s, s->loops[k].label)) return -1;
    ixs_px_acc_op(s->p, ";"); /* END FOR|WHILE|FOREACH|LOOP [;] */
    return 0;
}

/* The end of a loop's head: END FOR|WHILE form, or LOOP ... END LOOP. */
static int loop_rest(sps *s, spl_node *n, int kind, const char *what) {
    if (ixs_px_acc_str(s->p, "loop")) return loop_body(s, n, kind, "loop");
    return loop_body(s, n, kind, what);
}

/* FOR v = a TO b [STEP s] ... END FOR | FOR v IN (e, ...) ... END FOR */
static int for_stmt(sps *s, spl_node *n) {
    px *p = s->p;
    n->tgt = malloc(sizeof(int));
    if (!n->tgt) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    n->ntgt = 1;
    if ((n->tgt[0] = var_ref(s)) < 0) return -1;
    if (ixs_px_acc(p, IXK_IN)) {
        n->kind = SN_FORIN;
        if (ixs_px_expect_op(p, "(") || forin_list(s, n) || ixs_px_expect_op(p, ")")) return -1;
        return loop_rest(s, n, SPL_LOOP_FOR, "for");
    }
    if (ixs_px_expect_op(p, "=")) return -1;
    /* "SELECT a, b, s": the bounds are evaluated once, at the start */
    static const char *const to[] = {"to", NULL};
    static const char *const step[] = {"step", NULL};
    sb b = {0};
    ixv_sb_add(&b, "SELECT ");
    n->q.pos = p->t[p->i].pos;
    int e = expr_end(s, 0, to);
    if (e == p->i || !ixs_px_kw(p, e, IXK_TO) || emit(s, p->i, e, -1, -1, 1, &b, &n->q)) goto fail;
    p->i = e + 1;
    e = expr_end(s, 0, step);
    for (int i = p->i; i < e; i++) /* the body starts after the bound */
        if (i > p->i)
            for (int k = 0; LOOP_KW[k]; k++)
                if (ixs_px_kw_str(p, i, LOOP_KW[k]) && !ixs_px_op(p, i - 1, "(")) {
                    e = i;
                    break;
                }
    ixv_sb_add(&b, ", ");
    if (e == p->i || emit(s, p->i, e, -1, -1, 1, &b, &n->q)) goto fail;
    p->i = e;
    ixv_sb_add(&b, ", ");
    if (ixs_px_acc(p, IXK_STEP)) {
        e = expr_end(s, 0, LOOP_KW);
        if (e == p->i || emit(s, p->i, e, -1, -1, 1, &b, &n->q)) goto fail;
        p->i = e;
    } else
        ixv_sb_add(&b, "1");
    if (take(s, &b, &n->q)) return -1;
    return loop_rest(s, n, SPL_LOOP_FOR, "for");
fail:
    ixv_sb_free(&b);
    return ixs_px_fail(p);
}

/* WHILE cond ... END WHILE | WHILE cond LOOP ... END LOOP [label] */
static int while_stmt(sps *s, spl_node *n) {
    if (cond(s, LOOP_KW, &n->q)) return -1;
    return loop_rest(s, n, SPL_LOOP_WHILE, "while");
}

/* EXECUTE PROCEDURE|FUNCTION name ( args ) / CALL name ( args ), after the
 * first keyword(s): the callee and "SELECT args" into n. */
static int call_head(sps *s, spl_node *n) {
    px *p = s->p;
    if (ixs_px_ident(p, n->callee, sizeof n->callee)) return -1;
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, n->callee, sizeof n->callee)) return -1;
    if (ixs_px_expect_op(p, "(")) return -1;
    if (!ixs_px_op(p, p->i, ")")) {
        static const char *const none[] = {NULL};
        if (expr_list(s, none, &n->q, &n->nargs)) return -1;
    }
    return ixs_px_expect_op(p, ")");
}

/* FOREACH [cursor [WITH HOLD] FOR] SELECT ... INTO v, ... | FOREACH EXECUTE
 * PROCEDURE|FUNCTION name(args) INTO v, ... ; stmts END FOREACH */
static int foreach_stmt(sps *s, spl_node *n) {
    px *p = s->p;
    if (ixs_px_is_ident(p, p->i) && !ixs_px_kw(p, p->i, IXK_SELECT) &&
        !ixs_px_kw(p, p->i, IXK_EXECUTE)) {
        char *cur = n->cursor;
        if (ixs_px_ident(p, cur, sizeof n->cursor)) return -1;
        if (ixs_px_acc(p, IXK_WITH) && ixs_px_expect(p, IXK_HOLD)) return -1;
        if (ixs_px_expect(p, IXK_FOR)) return -1;
    }
    if (ixs_px_acc(p, IXK_EXECUTE)) {
        if (!ixs_px_acc(p, IXK_PROCEDURE) && ixs_px_expect(p, IXK_FUNCTION)) return -1;
        if (call_head(s, n) || ixs_px_expect(p, IXK_INTO) || var_list(s, &n->tgt, &n->ntgt))
            return -1;
        ixs_px_acc_op(p, ";");
    } else {
        if (!ixs_px_kw(p, p->i, IXK_SELECT)) return ixs_px_fail(p);
        /* the SELECT ends at ';' or where the body's first statement starts */
        static const char *const body[] = {"let",    "if",   "foreach",  "while",  "return",
                                           "raise",  "call", "execute",  "insert", "delete",
                                           "update", "exit", "continue", "begin",  "system",
                                           "trace",  "end",  NULL};
        if (sql_stmt(s, &n->q, body)) return -1;
        if (!n->q.ninto) return ixs_px_fail(p);
        if (n->cursor[0]) { /* a named FOREACH is an update cursor (ixs_cursor.c) */
            static const char fu[] = " for update";
            size_t l = strlen(n->q.text);
            char *t = realloc(n->q.text, l + sizeof fu);
            if (!t) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
            memcpy(t + l, fu, sizeof fu);
            n->q.text = t;
        }
        n->tgt = n->q.into;
        n->ntgt = n->q.ninto;
        n->q.into = NULL;
        n->q.ninto = 0;
        ixs_px_acc_op(p, ";");
    }
    return loop_body(s, n, SPL_LOOP_FOREACH, "foreach");
}

static int loop_kind(px *p) {
    return ixs_px_acc(p, IXK_FOR)       ? SPL_LOOP_FOR
           : ixs_px_acc(p, IXK_WHILE)   ? SPL_LOOP_WHILE
           : ixs_px_acc(p, IXK_FOREACH) ? SPL_LOOP_FOREACH
           : ixs_px_acc_str(p, "loop")  ? SPL_LOOP_LOOP
                                        : 0;
}

/* Does enclosing loop k match EXIT kind / label (both 0 / "": any)? */
static int loop_matches(const sps *s, int k, int kind, const char *label) {
    if (label[0]) return !strcmp(s->loops[k].label, label);
    if (kind == SPL_LOOP_LOOP) return s->loops[k].form;
    return !kind || s->loops[k].kind == kind;
}

/* EXIT|CONTINUE [FOR|WHILE|FOREACH|LOOP|label] [WHEN cond]: the innermost
 * enclosing loop of that kind, or the one of that label, or the innermost
 * one; none is -201. */
static int exit_stmt(sps *s, spl_node *n) {
    px *p = s->p;
    int kind = loop_kind(p);
    char label[IXS_NAME_MAX + 1] = "";
    if (!kind && ixs_px_is_name(p, p->i) && !ixs_px_kw_str(p, p->i, "when") &&
        ixs_px_ident(p, label, sizeof label))
        return -1;
    for (int k = s->nloops - 1; k >= 0 && !n->target; k--)
        if (loop_matches(s, k, kind, label)) n->target = s->loops[k].n;
    if (!n->target) return ixs_px_fail(p);
    static const char *const none[] = {NULL};
    if (ixs_px_acc_str(p, "when") && cond(s, none, &n->q)) return -1;
    return ixs_px_expect_op(p, ";");
}

/* <<label>> before a LOOP, WHILE or FOR (into s->label), else -201. */
static int label_stmt(sps *s) {
    px *p = s->p;
    p->i += 2;
    if (ixs_px_ident(p, s->label, sizeof s->label) || ixs_px_expect_op(p, ">") ||
        ixs_px_expect_op(p, ">"))
        return -1;
    for (int k = 0; k < s->nloops; k++)
        if (!strcmp(s->loops[k].label, s->label)) return ixs_px_fail(p);
    if (!ixs_px_kw_str(p, p->i, "loop") && !ixs_px_kw(p, p->i, IXK_WHILE) &&
        !ixs_px_kw(p, p->i, IXK_FOR))
        return ixs_px_fail(p);
    return 0;
}

/* RETURN [expr, ...] [WITH RESUME] */
static int return_stmt(sps *s, spl_node *n) {
    px *p = s->p;
    static const char *const with[] = {"with", NULL};
    int cnt = 0;
    if (!ixs_px_op(p, p->i, ";") && !ixs_px_kw(p, p->i, IXK_WITH) &&
        expr_list(s, with, &n->q, &cnt))
        return -1;
    if (cnt && cnt != s->r->nret) return ixs_px_fail(p);
    if (ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_expect(p, IXK_RESUME)) return -1;
        n->resume = 1;
    }
    return ixs_px_expect_op(p, ";");
}

/* EXECUTE IMMEDIATE char_expr ; (at EXECUTE): the one expression whose
 * value, a statement's text, is prepared and run when the node runs. */
static int execimm_stmt(sps *s, spl_node *n) {
    static const char *const none[] = {NULL};
    px *p = s->p;
    int cnt = 0;
    p->i += 2;
    n->kind = SN_EXECIMM;
    if (expr_list(s, none, &n->q, &cnt)) return -1;
    if (cnt != 1) return ixs_px_fail(p);
    return ixs_px_expect_op(p, ";");
}

/* ON EXCEPTION [IN (code, ...)] [SET v, v, v] stmts END EXCEPTION [WITH RESUME] */
static int handler(sps *s, spl_node *blk) {
    px *p = s->p;
    spl_handler *nh = realloc(blk->h, sizeof *nh * (size_t)(blk->nh + 1));
    if (!nh) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    blk->h = nh;
    spl_handler *h = &nh[blk->nh++];
    memset(h, 0, sizeof *h);
    h->setv[0] = h->setv[1] = h->setv[2] = -1;
    if (ixs_px_acc(p, IXK_IN)) {
        if (ixs_px_expect_op(p, "(")) return -1;
        do {
            int64_t c;
            if (ixs_px_int(p, &c)) return -1;
            int *nc = realloc(h->codes, sizeof(int) * (size_t)(h->ncodes + 1));
            if (!nc) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
            h->codes = nc;
            h->codes[h->ncodes++] = (int)c;
        } while (ixs_px_acc_op(p, ","));
        if (ixs_px_expect_op(p, ")")) return -1;
    }
    if (ixs_px_acc(p, IXK_SET)) {
        int k = 0;
        do {
            if (k == 3 || (h->setv[k++] = var_ref(s)) < 0) return ixs_px_fail(p);
        } while (ixs_px_acc_op(p, ","));
    }
    static const char *const endk[] = {"end", NULL};
    if (stmts(s, &h->body, endk) || end_of(s, "exception")) return -1;
    if (ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_expect(p, IXK_RESUME)) return -1;
        h->resume = 1;
    }
    ixs_px_acc_op(p, ";"); /* END EXCEPTION [WITH RESUME] [;] */
    return 0;
}

/* One statement at the current token into *out (NULL for DEFINE, which
 * only adds variables). */
static int stmt(sps *s, spl_node **out) {
    px *p = s->p;
    *out = NULL;
    if (s->depth + 1 > SPL_MAX_NEST || ixs_stack_low())
        return ixs_px_too_complex(p, "SPL statements nested more than %d deep", SPL_MAX_NEST);
    if (ixs_px_op(p, p->i, "<") && ixs_px_op(p, p->i + 1, "<") && label_stmt(s)) return -1;
    spl_node *n = node_new(s, SN_SQL);
    if (!n) return -1;
    int rc, depth = s->depth++;
    if (ixs_px_acc(p, IXK_LET)) {
        n->kind = SN_LET;
        rc = let_stmt(s, n);
    } else if (ixs_px_acc(p, IXK_IF)) {
        n->kind = SN_IF;
        rc = if_stmt(s, n);
    } else if (ixs_px_acc(p, IXK_FOR)) {
        n->kind = SN_FOR;
        rc = for_stmt(s, n);
    } else if (ixs_px_acc(p, IXK_FOREACH)) {
        n->kind = SN_FOREACH;
        rc = foreach_stmt(s, n);
    } else if (ixs_px_acc(p, IXK_WHILE)) {
        n->kind = SN_WHILE;
        rc = while_stmt(s, n);
    } else if (ixs_px_acc_str(p, "loop")) {
        n->kind = SN_LOOP;
        rc = loop_body(s, n, SPL_LOOP_LOOP, "loop");
    } else if (ixs_px_acc(p, IXK_EXIT)) {
        n->kind = SN_EXIT;
        rc = exit_stmt(s, n);
    } else if (ixs_px_acc(p, IXK_CONTINUE)) {
        n->kind = SN_CONTINUE;
        rc = exit_stmt(s, n);
    } else if (ixs_px_acc(p, IXK_RETURN)) {
        n->kind = SN_RETURN;
        rc = return_stmt(s, n);
    } else if (ixs_px_kw(p, p->i, IXK_RAISE) && ixs_px_kw(p, p->i + 1, IXK_EXCEPTION)) {
        static const char *const none[] = {NULL};
        int cnt;
        p->i += 2;
        n->kind = SN_RAISE;
        rc = expr_list(s, none, &n->q, &cnt);
        if (!rc && cnt > 3) rc = ixs_px_fail(p);
        if (!rc) rc = ixs_px_expect_op(p, ";");
    } else if (ixs_px_acc(p, IXK_CALL) ||
               (ixs_px_kw(p, p->i, IXK_EXECUTE) &&
                (ixs_px_kw(p, p->i + 1, IXK_PROCEDURE) || ixs_px_kw(p, p->i + 1, IXK_FUNCTION)) &&
                (p->i += 2))) {
        int callkw = ixs_px_kw(p, p->i - 1, IXK_CALL);
        n->kind = SN_CALL;
        rc = call_head(s, n);
        if (!rc && (ixs_px_acc(p, callkw ? IXK_RETURNING : IXK_INTO)))
            rc = var_list(s, &n->tgt, &n->ntgt);
        if (!rc) rc = ixs_px_expect_op(p, ";");
    } else if (ixs_px_kw(p, p->i, IXK_EXECUTE) && ixs_px_kw(p, p->i + 1, IXK_IMMEDIATE)) {
        rc = execimm_stmt(s, n);
    } else if (ixs_px_kw(p, p->i, IXK_BEGIN) && !ixs_px_kw(p, p->i + 1, IXK_WORK)) {
        static const char *const endk[] = {"end", NULL};
        p->i++;
        n->kind = SN_BLOCK;
        rc = block_body(s, n, endk);
        if (!rc) rc = ixs_px_expect(p, IXK_END); /* END [;]: Informix's examples omit it */
        if (!rc) ixs_px_acc_op(p, ";");
    } else if (ixs_px_acc(p, IXK_SYSTEM)) {
        static const char *const none[] = {NULL};
        int cnt;
        n->kind = SN_SYSTEM;
        rc = expr_list(s, none, &n->q, &cnt);
        if (!rc) rc = ixs_px_expect_op(p, ";");
    } else if (ixs_px_acc(p, IXK_TRACE)) {
        n->kind = SN_TRACE;
        p->i = expr_end(s, 0, NULL);
        rc = ixs_px_expect_op(p, ";");
    } else if (ixs_px_kw(p, p->i, IXK_DEFINE) || ixs_px_kw(p, p->i, IXK_ON)) {
        rc = ixs_px_fail(p); /* only at the start of a block */
    } else if (ixs_px_is_ident(p, p->i)) {
        if (ixs_px_kw(p, p->i, IXK_BEGIN) || ixs_px_kw(p, p->i, IXK_COMMIT) ||
            ixs_px_kw(p, p->i, IXK_ROLLBACK))
            s->r->txn = 1;
        rc = sql_stmt(s, &n->q, NULL);
        if (!rc) rc = ixs_px_expect_op(p, ";");
    } else
        rc = ixs_px_fail(p);
    s->depth = depth;
    if (rc) {
        node_free(n);
        return -1;
    }
    *out = n;
    return 0;
}

/* Statements up to (not including) one of the end keywords. */
static int stmts(sps *s, spl_node **out, const char *const *end) {
    px *p = s->p;
    spl_node **tail = out;
    for (;;) {
        while (ixs_px_acc_op(p, ";")) {
        }
        if (p->i >= p->nt || p->t[p->i].k == T_EOF) return ixs_px_fail(p);
        for (int k = 0; end[k]; k++)
            if (ixs_px_kw_str(p, p->i, end[k])) return 0;
        spl_node *n;
        if (stmt(s, &n)) return -1;
        *tail = n;
        tail = &n->next;
    }
}

/* [DEFINE ...;]... [ON EXCEPTION ... END EXCEPTION;]... stmts, into blk
 * (its variables are visible inside only). */
static int block_body(sps *s, spl_node *blk, const char *const *end) {
    px *p = s->p;
    int nvis = s->nvis;
    blk->first_var = s->r->nvars;
    while (ixs_px_acc(p, IXK_DEFINE))
        if (define_stmt(s)) return -1;
    blk->nvars = s->r->nvars - blk->first_var;
    while (ixs_px_kw(p, p->i, IXK_ON) && ixs_px_kw(p, p->i + 1, IXK_EXCEPTION)) {
        p->i += 2;
        if (handler(s, blk)) return -1;
    }
    int rc = stmts(s, &blk->body, end);
    s->nvis = nvis;
    return rc;
}

/* ---- the routine header --------------------------------------------------------------- */

/* ( [[OUT|INOUT] name { type | LIKE table.column } [DEFAULT expr]] [, ...] ) */
static int params(sps *s) {
    px *p = s->p;
    if (ixs_px_expect_op(p, "(")) return -1;
    if (ixs_px_acc_op(p, ")")) return 0;
    do {
        (void)(ixs_px_acc(p, IXK_OUT) || ixs_px_acc(p, IXK_INOUT) || ixs_px_acc(p, IXK_IN));
        char name[IXS_NAME_MAX + 1];
        ityp t;
        if (ixs_px_newname(p, name, sizeof name) || type_or_like(p, &t)) return -1;
        if (s->r->nparams >= SPL_MAX_ARGS) return ixs_px_fail(p);
        int v = var_add(s, name, t);
        if (v < 0) return -1;
        s->r->nparams++;
        if (ixs_px_acc(p, IXK_DEFAULT)) {
            static const char *const none[] = {NULL};
            spl_sql q;
            memset(&q, 0, sizeof q);
            int e = expr_end(s, 1, none);
            sb b = {0};
            ixv_sb_add(&b, "SELECT ");
            if (e == p->i || emit(s, p->i, e, -1, -1, 1, &b, &q) || q.nslots) {
                ixv_sb_free(&b);
                sql_free(&q);
                return ixs_px_fail(p);
            }
            p->i = e;
            s->r->vars[v].defsql = ixv_sb_take(&b);
            sql_free(&q);
        }
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* RETURNING|RETURNS { type | LIKE table.column } [AS name] [, ...] */
static int returning(sps *s) {
    px *p = s->p;
    do {
        if (s->r->nret == SPL_MAX_RET) return ixs_px_fail(p);
        ityp t;
        if (type_or_like(p, &t)) return -1;
        s->r->ret[s->r->nret] = t;
        if (ixs_px_acc(p, IXK_AS) &&
            ixs_px_ident(p, s->r->retname[s->r->nret], sizeof s->r->retname[0]))
            return -1;
        s->r->nret++;
    } while (ixs_px_acc_op(p, ","));
    return 0;
}

/* WITH ( modifier [, ...] ) */
static int modifiers(sps *s) {
    px *p = s->p;
    if (ixs_px_expect_op(p, "(")) return -1;
    do {
        if (ixs_px_acc(p, IXK_NOT)) {
            if (ixs_px_expect(p, IXK_VARIANT)) return -1;
        } else if (ixs_px_acc(p, IXK_VARIANT))
            s->r->variant = 1;
        else if (ixs_px_acc(p, IXK_HANDLESNULLS))
            s->r->handlesnulls = 1;
        else if (ixs_px_is_ident(p, p->i)) {
            p->i++;
            if (ixs_px_acc_op(p, "=")) p->i++;
        } else
            return ixs_px_fail(p);
    } while (ixs_px_acc_op(p, ","));
    return ixs_px_expect_op(p, ")");
}

/* The clauses after END PROCEDURE|FUNCTION: DOCUMENT 'text' [, ...] and
 * WITH LISTING IN 'file' (accepted, no listing is written). */
static int trailer(sps *s) {
    px *p = s->p;
    if (ixs_px_acc(p, IXK_DOCUMENT)) {
        sb d = {0};
        do {
            if (p->i >= p->nt || p->t[p->i].k != T_STR) {
                ixv_sb_free(&d);
                return ixs_px_fail(p);
            }
            if (d.n) ixv_sb_addc(&d, '\n');
            ixs_px_tokstr(p, p->i++, &d);
        } while (ixs_px_acc_op(p, ","));
        s->r->document = ixv_sb_take(&d);
    }
    if (ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_expect(p, IXK_LISTING) || ixs_px_expect(p, IXK_IN)) return -1;
        if (p->i >= p->nt || p->t[p->i].k != T_STR) return ixs_px_fail(p);
        p->i++;
    }
    return 0;
}

/*
 * CREATE [DBA] PROCEDURE|FUNCTION [IF NOT EXISTS] [owner.]name ( params )
 *     [RETURNING|RETURNS type [AS name] [, ...]] [;]
 *     [SPECIFIC [owner.]name] [WITH ( modifiers )] [;]
 *     [DEFINE ...;]... [ON EXCEPTION ...]... statements
 * END PROCEDURE|FUNCTION [DOCUMENT 'text' [, ...]] [WITH LISTING IN 'file']
 */
int ixs_spl_parse_create(px *p, spl_rt **out) {
    *out = NULL;
    sps s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.r = calloc(1, sizeof *s.r);
    if (!s.r) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    spl_rt *r = s.r;
    r->delimident = p->db && p->db->delimident;
    int rc = -1;
    if (ixs_px_expect(p, IXK_CREATE)) goto out;
    r->dba = ixs_px_acc(p, IXK_DBA);
    r->isproc = ixs_px_acc(p, IXK_PROCEDURE);
    if (!r->isproc && ixs_px_expect(p, IXK_FUNCTION)) goto out;
    if (ixs_px_acc(p, IXK_IF) && (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)))
        goto out;
    if (ixs_px_newname(p, r->name, sizeof r->name)) goto out;
    if (ixs_px_acc_op(p, ".")) {
        snprintf(r->owner, sizeof r->owner, "%s", r->name);
        if (ixs_px_newname(p, r->name, sizeof r->name)) goto out;
    }
    if (params(&s)) goto out;
    if ((ixs_px_acc(p, IXK_RETURNING) || ixs_px_acc(p, IXK_RETURNS)) && returning(&s)) goto out;
    ixs_px_acc_op(p, ";");
    if (ixs_px_acc(p, IXK_SPECIFIC)) {
        if (ixs_px_ident(p, r->specific, sizeof r->specific)) goto out;
        if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, r->specific, sizeof r->specific)) goto out;
    }
    if (ixs_px_acc(p, IXK_WITH) && modifiers(&s)) goto out;
    ixs_px_acc_op(p, ";");
    if (ixs_px_acc(p, IXK_LANGUAGE) && ixs_px_expect(p, IXK_SPL)) goto out;
    r->body = node_new(&s, SN_BLOCK);
    static const char *const endk[] = {"end", NULL};
    if (!r->body || block_body(&s, r->body, endk)) goto out;
    if (ixs_px_expect(p, IXK_END) || ixs_px_expect(p, r->isproc ? IXK_PROCEDURE : IXK_FUNCTION))
        goto out;
    if (trailer(&s)) goto out;
    rc = 0;
out:
    if (rc) {
        ixs_spl_rt_free(r);
        return -1;
    }
    *out = r;
    return 0;
}
