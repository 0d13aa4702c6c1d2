/* ixs_parse.h: the Informix SQL tokenizer and translator internals. */
#ifndef IXS_PARSE_H
#define IXS_PARSE_H

#include "server/sql/ixs.h"
#include "server/sql/ixs_kw.h"

enum { T_EOF, T_ID, T_INT, T_NUM, T_STR, T_OP, T_PARAM };

typedef struct tok {
    int k;
    int kw; /* T_ID: its keyword code (ixs_kw.h), else IXK_NONE */
    int pos;
    int len;
    int pidx;  /* T_PARAM: its number in text order */
    int delim; /* T_ID: a delimited identifier ("Name" when the connection's
                  DELIMIDENT is on): its name is its text as written
                  (ixs_px_ident), case kept, never a keyword */
} tok;

typedef struct tref {
    char alias[IXS_NAME_MAX + 1]; /* as emitted; "" = unqualified (CHECK) */
    itab tab;
    int outer; /* Informix OUTER table */
    int derived;
} tref;

typedef struct scope {
    tref *t[IXS_MAX_TABS];
    int n;
    struct scope *up;
    uint64_t refmask; /* tables of this scope referenced by the current conjunct */
    int outer_ref;    /* a reference into an enclosing scope happened */
} scope;

enum { XK_EXPR, XK_STR, XK_NUM, XK_INT, XK_NULL, XK_PARAM, XK_COL, XK_PRED };
enum { LB_EXPR, LB_COL, LB_AGG, LB_CONST };

typedef struct xv {
    sb s;
    ityp t;
    int k;
    char *lit; /* literal text (XK_STR decoded, XK_NUM/XK_INT as written) */
    size_t litn;
    int pidx;
    int agg;
    int notnull;
    int lk;
    int stored; /* a base table's column as read: it holds only what its type holds */
    char label[IXS_NAME_MAX + 1];
} xv;

#define IXS_MAX_SEQREF 16
typedef struct px {
    ixs_conn *db;
    const char *sql;
    size_t n;
    tok *t;
    int nt;
    int i;
    int at; /* 1 + the token resolve and emit place their errors at (ixs_px_at); 0: the
               current token p->i, as while parsing */
    ixv_err *err;
    int failed;
    int depth;
    int nparams;
    ityp *ptypes;
    scope *sc;
    int in_agg;
    int dry;                      /* at prepare: a ROW type a column names is not looked up */
    int dry_deferred;             /* a dry parse skipped a catalogue lookup (a ROW type): the
                                     statement runs from its text (ixs_ddl_prepare) */
    struct ixs_rowref *dry_row;   /* the ROW type the last skipped lookup was of (owned;
                                     ixs_row_ref_take, ixs_px_done) */
    int ddl_own;                  /* ddl_begin began the transaction (none was open) */
    int ts_write;                 /* a TimeSeries write routine is called */
    int seq_done[IXS_MAX_SEQREF]; /* sequences this statement increments (ixs_seq.c) */
    int nseq_done;
    int64_t rows;   /* MERGE: rows changed */
    int olap_ok;    /* OLAP window expressions allowed here (projection, ORDER BY) */
    int row_top;    /* set for a statement's own SELECT (and INTO TEMP): its ROW items are
                       text, described as LVARCHAR (ixs_rowtype.c, ixs_select) */
    int rowid_want; /* 1: an update cursor's query (ixs_cursor.c); 2: rowid appended */
    int coll_item;  /* the query of MULTISET(...) is parsed: its SELECT may say ITEM */
    char rowid_table[IXS_NAME_MAX + 1];
    /* at execute of a prepared statement that runs as a tree (SELECT ... INTO
     * TEMP): the statement whose bound values its ?N parameters take */
    const struct ixs_stmt *bound;
} px;

/* queries */
typedef struct qres {
    sb sql;
    int ncols;
    ocol *cols;
} qres;
/* lexer */
int ixs_lex(px *p);
int ixs_px_kw(px *p, int i, int kw); /* token i is keyword kw (IXK_*) */
/* As ixs_px_kw and ixs_px_acc for a keyword given as text (tables of words). */
int ixs_px_kw_str(px *p, int i, const char *kw);
int ixs_px_acc_str(px *p, const char *kw);
int ixs_px_acc(px *p, int kw); /* accept keyword */
/* token i is a keyword that starts or joins clauses (FROM, WHERE, AND, ...):
 * where an operand is expected it is a syntax error, not a column */
int ixs_px_is_clause_kw(px *p, int i);
int ixs_px_op(px *p, int i, const char *op);
int ixs_px_acc_op(px *p, const char *op);
int ixs_px_fail(px *p); /* -201 at the current token */
/* Resolve and emit never move the token cursor p->i: they place their errors
 * at a node's token, kept in the tree at parse. ixs_px_at(p, at) makes token
 * at (an index into p->t; p->nt: the end of the text) where the errors of what
 * runs next are placed (ixs_px_fail, ixs_px_too_complex, ixs_px_deeper) until
 * another ixs_px_at or ixs_px_at_cursor; ixs_px_at_cursor places them at the
 * current token again (a parse). ixs_px_fail_at: ixs_px_at, then
 * ixs_px_fail: returns -1. ixs_px_err_pos: the byte offset an error gets. */
void ixs_px_at(px *p, int at);
void ixs_px_at_cursor(px *p);
int ixs_px_fail_at(px *p, int at);
int ixs_px_err_pos(const px *p);
/* ixs_limit.c: one more level of the parser's recursion (p->depth): 0, or
 * -1 with IXS_E_COMPLEX at the current token past IXS_MAX_DEPTH or when the
 * stack runs short. ixs_px_too_complex sets that error at the current token,
 * its insertion text (fmt) naming the limit, unless p failed already:
 * returns -1. */
int ixs_px_deeper(px *p);
int ixs_px_too_complex(px *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For a recursive walk, at the node whose first token is at: 0, or -1 with
 * IXS_E_COMPLEX there when the stack runs short (ixs_stack_low). */
int ixs_px_stack_check(px *p, int at);
/* 1 when this thread's stack has less than its reserve left: a recursive
 * walk stops with IXS_E_COMPLEX instead of going deeper. */
int ixs_stack_low(void);
int ixs_px_failc(px *p, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ixs_px_expect(px *p, int kw);
int ixs_px_expect_op(px *p, const char *op);
/* identifier at the current token, lower-cased into buf; advances. */
int ixs_px_ident(px *p, char *buf, size_t n);
/* The identifier token i is (ixs_px_is_ident), lower-cased into buf of n
 * bytes, without moving the cursor: 0, or -1 with -201 at it (buf "") when it
 * is longer than a name or than buf. */
int ixs_px_ident_at(px *p, int i, char *buf, size_t n);
int ixs_px_is_ident(px *p, int i);
/* ixs_px_ident_at without an error: -1 (buf "") when it does not fit. */
int ixs_px_ident_peek(px *p, int i, char *buf, size_t n);
/* token i can be a name: an identifier or a "quoted" identifier */
int ixs_px_is_name(px *p, int i);
/* The name of an object the statement defines (table, view, index, synonym,
 * constraint, column, new name of a RENAME), as ixs_px_ident reads it; a name in
 * ixd's internal name space (ixv_internal_name) is -511 "Cannot modify system
 * catalog (name)." */
int ixs_px_newname(px *p, char *buf, size_t n);
/* Object names (ixs_name.c): [database[@server]:][owner.]name. */
enum {
    IXS_NAME_DB = 1,  /* a database[@server]: prefix may come first */
    IXS_NAME_NEW = 2, /* the statement defines it: an internal name is -511 */
};
typedef struct ixs_name {
    char db[IXS_NAME_MAX + 1];     /* "" when not given */
    char server[IXS_NAME_MAX + 1]; /* "" when not given */
    char owner[IXS_NAME_MAX + 1];  /* "" when not given */
    char name[IXS_NAME_MAX + 1];
    int pos; /* byte offset of the name's first token */
} ixs_name;
int ixs_name_parse(px *p, int flags, ixs_name *o);
/* ixs_name_parse keeping only the name. */
int ixs_px_objname(px *p, int flags, char *name, size_t n);
/* Skips `owner .` before a name at the current token: 1 skipped, 0 not. */
int ixs_name_skip_owner(px *p);
/* 1 when token i starts "owner".table.column. */
int ixs_name_is_owner_colref(px *p, int i);
/* The owner to record for o: its own, else the session user. */
const char *ixs_name_owner(const ixs_name *o, const ixs_conn *db);
void ixs_px_tokstr(px *p, int i, sb *out); /* decoded string literal */
int ixs_px_int(px *p, int64_t *v);         /* integer literal (optionally signed) */

/* expressions */
void ixs_xv_free(xv *v);
int ixs_expr(px *p, xv *out);
int ixs_cond(px *p, xv *out); /* a search condition */
int ixs_conj(px *p, xv *out); /* one conjunct (NOT-level) of a condition */
int ixs_select_sub(px *p, qres *out, int *start);
void ixs_to_type(px *p, xv *v, ityp t); /* coerce to t's storage domain */
/* ixs_to_type where a string literal made MONEY or DECIMAL may carry the
 * DBMONEY symbols ('$1.50': compared or combined with a MONEY or DECIMAL
 * operand); ixs_make_num_money: ixs_make_num so. */
void ixs_to_type_money(px *p, xv *v, ityp t);
void ixs_make_num_money(px *p, xv *v);
/* ixs_to_type for a value stored into a column of type t (INSERT, UPDATE,
 * MERGE): out-of-range values refused, text cut to the column's length. */
void ixs_to_store(px *p, xv *v, ityp t);
/* Result column c of a query read as _s.name (INSERT ... SELECT, INTO
 * TEMP) into v (initialised here; the caller frees it with ixs_xv_free), for
 * ixs_to_store. */
void ixs_qcol_xv(const ocol *c, xv *v);
ityp ixs_lit_type(const xv *v);
int ixs_parse_type(px *p, ityp *t, int *serial, int64_t *serial_start, uint32_t *collen);
int ixs_parse_qual(px *p, int interval, uint32_t *q);

void ixs_qres_free(qres *q);
int ixs_select(px *p, qres *out); /* SELECT [... UNION ...] [ORDER BY] */
/* ixs_select and INSERT / UPDATE / DELETE (ixs_dml_tail) for a statement: tail (when not NULL)
 * reads what follows the query or DML (INTO TEMP, the statement's end) after it is parsed and
 * before any name is resolved, so a syntax error there is -201 before -206, -217 and the other
 * errors of names and types. */
int ixs_select_tail(px *p, qres *out, int (*tail)(px *p, void *ud), void *ud);
int ixs_dml_tail(px *p, ixs_stmt *s, int (*tail)(px *p, void *ud), void *ud);
tref *ixs_tref_new(px *p, const char *name, const char *alias);
void ixs_tref_free(tref *t);

/* Binds the ?N parameters of st to the values bound to s (a value not set,
 * or no s: NULL): a SQLite result code (ixs_translate.c). */
int ixs_bind_params(const struct ixs_stmt *s, sqlite3_stmt *st);

/* DDL and others: parsed at prepare (ixs_ddl_tree.h), run at execute */
/* A DDL change in its own savepoint (and transaction when none is open):
 * ixs_ddl_end releases it when ok, else rolls it back; both return 0 or
 * -1 (p->failed). */
int ixs_ddl_begin(px *p);
int ixs_ddl_end(px *p, int ok);
/* Runs sql (one or more statements) in the DDL savepoint, a failure as the
 * SQLCODE of SQLite's error (name for its text): 0 or -1 (p->failed).
 * ixs_ddl_exec_sb: the same for the text of s, which it frees (-208 when s
 * ran out of memory). */
int ixs_ddl_exec_sql(px *p, const char *sql, const char *name);
int ixs_ddl_exec_sb(px *p, sb *s, const char *name);

/* 1 when the statement at the current token is UPDATE STATISTICS (not an
 * UPDATE of a table named statistics). */
int ixs_is_update_statistics(px *p);
/* Appends to s the SQL that records the text of the CREATE VIEW statement p
 * (its tokens up to the end) for view tabid in sysviews (64-character pieces,
 * as Informix stores them). */
void ixs_cat_view_text(px *p, int tabid, sb *s);
/* The statement parse state (ixs_ddl.c): ixs_px_init lexes sql; ixs_at_end
 * accepts a final ';' and fails unless the text ends there. */
int ixs_px_init(px *p, ixs_conn *db, const char *sql, size_t n, ixv_err *err);
void ixs_px_done(px *p);
int ixs_at_end(px *p);
/* Parses a DDL or other statement of p once into s->ddl (kind SK_SQL). */
int ixs_ddl_prepare(px *p, ixs_stmt *s);
/* The tree of a statement another module runs itself (ROW TYPE, SPL
 * routine, trigger, sequence, synonym), parsed once without the catalogue,
 * and how to run it (p: the statement's parse state over the tokens the
 * tree was parsed from; 0 or -1 with p->failed) and free it. */
typedef struct ixs_plan {
    void *tree;
    int (*run)(px *p, const void *tree);
    void (*free)(void *tree);
} ixs_plan;
/* Keeps a copy of the size bytes of tree in pl (a shallow copy: what tree
 * points to then belongs to pl, freed by fr; fr NULL frees the copy alone).
 * 0, or -1 with -208 in p. */
int ixs_plan_keep(px *p, ixs_plan *pl, const void *tree, size_t size,
                  int (*run)(px *p, const void *tree), void (*fr)(void *tree));

/* TimeSeries (ixs_ts.c; its calls in expressions: ixs_ex_tree.h). TABLE(routine(...)) in FROM:
 * ixs_ts_from_parse parses it at TABLE into a tree the caller owns (NULL with p->failed),
 * ixs_ts_from_emit resolves and emits the tree as a SELECT into q (0, or -1 with p->failed),
 * ixs_ts_from_free frees it (NULL: nothing). ixs_ts_execute: EXECUTE FUNCTION / PROCEDURE into s.
 * ixs_ts_rowtype_stmt: CREATE /
 * DROP ROW TYPE after CREATE or DROP: 1 parsed (its plan in pl), 0 not such
 * a statement, -1 error. */
typedef struct ixs_ts_from ixs_ts_from;
ixs_ts_from *ixs_ts_from_parse(px *p);
int ixs_ts_from_emit(px *p, const ixs_ts_from *f, qres *q);
void ixs_ts_from_free(ixs_ts_from *f);
int ixs_ts_execute(px *p, ixs_stmt *s);
int ixs_ts_rowtype_stmt(px *p, int create, int *stype, ixs_plan *pl);

/* Built-in functions (ixs_func.c). ixs_func_kind: what a call of fn (lower
 * case) is: a built-in of the table with a list of arguments, one with its
 * own syntax, a TimeSeries routine (ixs_ts.c) or a routine that is not a
 * built-in. ixs_func_emit: the call of fn with its na arguments (emitted)
 * into out: a built-in of the table, else a user routine (ixs_spl_call),
 * else -674 "Routine (%s) can not be resolved.". ixs_func_agg ...
 * ixs_func_cast: the functions with their own syntax, their arguments
 * emitted: an aggregate (a NULL: COUNT(*)), EXTEND(a [, q]), SUBSTRING(a[0]
 * FROM a[1] [FOR a[2]]) (n arguments), TRIM([how] [c FROM] a) (how 0 BOTH,
 * 1 LEADING, 2 TRAILING), CAST(a AS t). ixs_func_niladic_at:
 * a built-in written without parentheses (DBSERVERNAME, SITENAME,
 * CURRENT_USER, CURRENT_ROLE, DEFAULT_ROLE) at the current token (its index), or -1 when there is
 * none; ixs_func_niladic_emit: its value into out, of ixs_func_niladic_type. */
#define IXS_FN_MAXARGS 64
enum {
    IXS_FN_EMIT,
    IXS_FN_ROUTINE,
    IXS_FN_TS,
    IXS_FN_AGG,
    IXS_FN_CAST,
    IXS_FN_EXTEND,
    IXS_FN_SUBSTRING,
    IXS_FN_TRIM,
};
int ixs_func_kind(const char *fn);
/* ixs_func_resolve: the row of fn for a call of na arguments into *def and
 * the result type its rule gives without the arguments into *t (code -1 when
 * it depends on them, set by ixs_func_emit): 1, 0 fn is no built-in (a
 * routine), -1 a wrong argument count (-674). ixs_func_emit takes that row
 * (NULL: the user routine fn). */
struct fdef;
int ixs_func_resolve(px *p, const char *fn, int na, const struct fdef **def, ityp *t);
int ixs_func_emit(px *p, const struct fdef *def, const char *fn, xv *args, int na, xv *out);
/* ixs_func_type: the result type of built-in def for arguments of types at
 * (code -1: a NULL or a parameter), nd the value of an integer literal
 * second argument (INT64_MIN: none); code -1 when it is what the emitter
 * makes of the arguments (strings made numbers or dates, parameters). */
ityp ixs_func_type(const struct fdef *def, const ityp *at, int na, int64_t nd);
int ixs_func_agg(px *p, const char *fn, int distinct, xv *a, xv *out);
/* ixs_func_agg_type: the result type of aggregate fn over a value of type
 * *a (NULL: COUNT(*)); code -1 when it is what the emitter makes of it (a
 * string made a number) or an error there. */
ityp ixs_func_agg_type(const char *fn, const ityp *a);
int ixs_func_extend(px *p, xv *a, const uint32_t *q, xv *out);
int ixs_func_substring(px *p, xv *a, int n, xv *out);
int ixs_func_trim(px *p, int how, xv *a, xv *c, xv *out);
int ixs_func_cast(px *p, xv *a, ityp t, xv *out);
int ixs_func_niladic_at(px *p);
void ixs_func_niladic_emit(px *p, int which, xv *out);
ityp ixs_func_niladic_type(int which);

/* Expression helpers the built-ins use (ixs_expr.c). */
void ixs_xv_init(xv *v);
const char *ixs_xs(const xv *v); /* the SQL text, "NULL" when empty */
void ixs_xv_set_sql(xv *v, sb *nsql);
void ixs_settle(px *p, xv *v);   /* an untyped literal gets its own type */
void ixs_as_text(px *p, xv *v);  /* any value as text */
void ixs_make_num(px *p, xv *v); /* strings and parameters as DECIMAL */
void ixs_cmp_coerce(px *p, xv *l, xv *r);
/* v, a character value but no column, compared ignoring trailing blanks:
 * its SQL given the collation IXS_COLLATE_BLANKS (a column has it from its
 * table). */
void ixs_blanks_collate(xv *v);
ityp ixs_merge_type(ityp a, ityp b); /* the type holding both (CASE, NVL) */
ityp ixs_dec_of(ityp t);             /* the DECIMAL form of a number type */
uint32_t ixs_char_len(ityp t);       /* characters of a value's text form */
int ixs_parse_or(px *p, xv *out);
int ixs_parse_add(px *p, xv *out);
/* OLAP window expressions (ixs_window.c). ixs_window_at: the tokens at the
 * current one are `name ( ... ) OVER` (ixs_ex_tree.h has the rest). */
int ixs_window_at(px *p);

/* Collections SET, MULTISET, LIST (ixs_collection.c). ixs_coll_type_at:
 * such a type at the current token; ixs_coll_parse_type reads it.
 * ixs_coll_literal: a literal `SET{...}` at the current token.
 * ixs_coll_to_type: v converted to collection type t (ixs_to_type's part).
 * ixs_coll_in: `x [NOT] IN coll` as SQL into out. ixs_coll_canon: text s as
 * the canonical literal of t into out (0 or an SQLCODE). */
#define IXS_COLL_DESC_LEN 2048 /* collections are described as LVARCHAR(2048) */
int ixs_coll_is(int code);
ityp ixs_coll_elem(ityp t);
int ixs_coll_type_at(px *p);
int ixs_coll_parse_type(px *p, ityp *t, uint32_t *collen);
int ixs_coll_literal(px *p, xv *out);
void ixs_coll_to_type(px *p, xv *v, ityp t);
int ixs_coll_in(px *p, xv *x, xv *coll, int neg, sb *out);
int ixs_coll_canon(sqlite3 *h, ityp t, const char *s, size_t n, sb *out);
/* v has a collection type with a known element type (a literal's is
 * inferred from its elements); else -201. */
int ixs_coll_typed(px *p, xv *v);

/* ROW types (ixs_rowtype.c). ixs_row_type_at: ROW( at the current token
 * (an unnamed type); ixs_row_parse_type reads it; ixs_row_named_type: the
 * type of named row type name (-9628 when none). ixs_row_to_type: v as row
 * type t (ixs_to_type's part). ixs_row_cmp: the operands of a comparison
 * when one is a row (1 done). ixs_row_lit_type: the type of a ROW(expr, ...)
 * literal of nfields fields (its SQL: ixs_ex_emit.c).
 * ixs_row_field: field of the row value out. ixs_row_colref: 1 when
 * [q.]name is a ROW column of the scope (name.field). ixs_row_out: the
 * select item at list->p + start is shown as its text (top level only).
 * ixs_row_stmt: CREATE / DROP ROW TYPE after CREATE or DROP: 1 parsed (its
 * plan in pl), 0 not such a statement, -1 error. ixs_row_coltype: the coltype to record. */
int ixs_row_type_at(px *p);
int ixs_row_parse_type(px *p, ityp *t, uint32_t *collen);
/* A ROW type a type names, as a dry parse (p->dry) read it without the
 * catalogue: a named type's name, or an unnamed type's fields.
 * ixs_row_ref_take: the one p->dry_row holds, now the caller's (NULL: none),
 * freed with ixs_row_ref_free (NULL: nothing). ixs_row_ref_id: its type's id
 * in the catalogue now (an unnamed type recorded when it is new): the id, or
 * -1 with p->failed (IXS_E_ROW_TYPE_NF for a name that is not a type). */
typedef struct ixs_rowref ixs_rowref;
ixs_rowref *ixs_row_ref_take(px *p);
void ixs_row_ref_free(ixs_rowref *r);
int ixs_row_ref_id(px *p, const ixs_rowref *r);
int ixs_row_named_type(px *p, const char *name, ityp *t, uint32_t *collen);
void ixs_row_to_type(px *p, xv *v, ityp t);
int ixs_row_cmp(px *p, xv *l, xv *r);
#define IXS_ROW_MAX_FIELDS 120 /* SQLite's 127 function arguments, less the description */
ityp ixs_row_lit_type(int nfields);
int ixs_row_field(px *p, xv *out, const char *field);
/* v of type from as type to, as ixv_convert does, except that a row into
 * another row type has each field converted to the type's (ixd_row_cast's
 * rule; SPL's LET, RETURN and arguments). 0 with out set (the caller frees
 * it), or a negative SQLCODE. */
int ixs_row_convert(sqlite3 *h, ityp from, const sval *v, ityp to, sval *out);
int ixs_row_colref(px *p, const char *q, const char *name);
void ixs_row_out(px *p, sb *list, size_t start, ityp t);
int ixs_row_order_check(px *p, ityp t); /* ORDER BY a row: -9926 */
int ixs_row_stmt(px *p, int create, int *stype, ixs_plan *pl);
int ixs_row_coltype(int code, uint32_t len, sqlite3 *h);
/* Row elements of collections: the text s of a row of type id as a packed
 * row (own bytes), or in its canonical text form (0 or an SQLCODE). */
int ixs_row_from_text(sqlite3 *h, int id, const char *s, size_t n, sval *out);
int ixs_row_canon(sqlite3 *h, int id, const char *s, size_t n, sb *out);
/* Update cursors and WHERE CURRENT OF (ixs_cursor.c). ixs_cursor_wanted:
 * 1 when the SELECT at token 0 ends with FOR UPDATE [OF ...] and has no set
 * operator (its one table's rowid is then selected after the columns:
 * ixs_cursor_rowid, from the select list's assembly); ixs_cursor_stmt marks
 * s as an update cursor when that happened. ixs_current_of: `CURRENT OF
 * name` after WHERE of the UPDATE / DELETE s, as its SQLite condition. */
int ixs_cursor_wanted(px *p);
void ixs_cursor_rowid(px *p, const tref *t, sb *list);
void ixs_cursor_stmt(px *p, ixs_stmt *s);
int ixs_current_of(px *p, const char *name, sb *sql, ixs_stmt *s);

#endif
