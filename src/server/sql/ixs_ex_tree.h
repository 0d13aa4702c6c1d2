/* ixs_ex_tree.h: the expression tree of ixs_ex.h, shared by its parser
 * (ixs_ex_parse.c), resolver (ixs_ex_resolve.c) and emitter (ixs_ex_emit.c,
 * ixs_ex_arith.c), and the type rules and coercions (ixs_ex_types.c) the
 * emitter and the built-ins share. */
#ifndef IXS_EX_TREE_H
#define IXS_EX_TREE_H

#include "server/sql/ixs_ex.h"
#include "server/sql/ixs_sel.h"

/* What a node is. Operands are a, b, c; lists are kids. */
enum {
    EX_LIT,       /* number, string, NULL, DATETIME/INTERVAL literal: lit holds it */
    EX_PARAM,     /* ? (pidx) */
    EX_TODAY,     /* TODAY */
    EX_CURRENT,   /* CURRENT [qual] | SYSDATE (q) */
    EX_USER,      /* USER */
    EX_NILADIC,   /* DBSERVERNAME | SITENAME | CURRENT_USER (sub: which) */
    EX_COL,       /* a name of 1..3 parts: column, row field, sequence */
    EX_CALL,      /* part[0] ( kids ): a built-in of the table, a routine (sub: EXC_*) */
    EX_AGG,       /* part[0] ( [DISTINCT] a ) (a NULL: COUNT(*)); flag: DISTINCT */
    EX_FCAST,     /* CAST ( a AS t ) */
    EX_EXTEND,    /* EXTEND ( a [, q] ) (flag: q given) */
    EX_SUBSTRING, /* SUBSTRING ( a FROM b [FOR c] ) */
    EX_WINDOW,    /* a (the function) OVER ( kids: PARTITION BY, then ORDER BY ) (win) */
    EX_ROW,       /* ROW ( kids ) */
    EX_TRIM,      /* TRIM ( [how] [c FROM] a ) (sub: 0 BOTH, 1 LEADING, 2 TRAILING) */
    EX_PAREN,     /* ( a ) */
    EX_SUBQ,      /* ( select ): q */
    EX_EXISTS,    /* EXISTS ( select ): q */
    EX_CASE,      /* CASE [a] WHEN kids[2k] THEN kids[2k+1] ... [ELSE c] END */
    EX_CAST,      /* a :: t */
    EX_SUBSTR,    /* a [ n1 , n2 ] */
    EX_UNITS,     /* a UNITS (unit n1) */
    EX_NEG,       /* - a */
    EX_ARITH,     /* a op b, op one of + - * / */
    EX_CONCAT,    /* a || b */
    EX_CMP,       /* a cmp b (cmp: = <> < > <= >=) */
    EX_QUANT,     /* a cmp ANY|ALL ( q ) (flag: 1 ANY/SOME) */
    EX_BETWEEN,   /* a [NOT] BETWEEN b AND c */
    EX_IN_SUB,    /* a [NOT] IN ( q ) */
    EX_IN_LIST,   /* a [NOT] IN ( kids ) */
    EX_IN_COLL,   /* a [NOT] IN b (a collection) */
    EX_LIKE,      /* a [NOT] LIKE|MATCHES (flag 1) b [ESCAPE c] */
    EX_IS_NULL,   /* a IS [NOT] NULL */
    EX_NOT,       /* NOT a */
    EX_AND,       /* a AND b */
    EX_OR,        /* a OR b */
};

/* What an EX_CALL calls: a built-in of ixs_func.c or a user routine, or
 * a TimeSeries routine of src/server/ts (ixs_ts.c; ts set by the resolver). */
enum { EXC_FUNC, EXC_TS };

/* What an EX_COL name was bound to by the resolver. */
enum { EXR_NONE, EXR_COL, EXR_ROWID, EXR_SEQ };

#define EX_NPART       3
#define IXS_EX_MAXWHEN 10000 /* WHEN branches of a CASE: IXS_E_COMPLEX */

/* The OVER clause of an EX_WINDOW (ixs_window.c). */
typedef struct ixs_win {
    const struct wfn *f; /* the OLAP function */
    int npart, nord;     /* PARTITION BY and ORDER BY keys among the kids */
    int *oflag;          /* per ORDER BY key: 1 DESC, 2 NULLS FIRST, 4 NULLS LAST */
    sb frame;            /* the frame clause as SQLite writes it */
    int range_off;       /* RANGE with a numeric offset */
    int close;           /* the token of OVER's ")" */
} ixs_win;

struct ixs_ex {
    int op;  /* EX_* */
    int h;   /* the height of its tree (parser: ixs_ex_height_check) */
    int tok; /* its first token */
    int end; /* the token after it */
    ixs_ex *a, *b, *c;
    ixs_ex **kids;
    int nk;
    int neg;     /* NOT (BETWEEN, IN, LIKE, IS NULL), or the count of '-' folded into a literal */
    int flag;    /* EX_QUANT: ANY; EX_LIKE: MATCHES; EX_CASE: has ELSE */
    int sub;     /* EX_CALL: EXC_*; EX_NILADIC: which; EX_ARITH: the operator */
    char cmp[3]; /* EX_CMP, EX_QUANT */
    xv *lit;     /* EX_LIT: the literal as read */
    int pidx;    /* EX_PARAM */
    uint32_t q;  /* EX_CURRENT: qualifier */
    ityp t;      /* EX_CAST: the type; after resolution, a name's type */
    int64_t n1, n2;
    ixs_sel *qs;                    /* subqueries */
    char *tname;                    /* EX_CAST, EX_FCAST: a named row type to resolve */
    ixs_win *win;                   /* EX_WINDOW */
    char (*part)[IXS_NAME_MAX + 1]; /* EX_COL: its names */
    int npart;
    /* the resolver's binding of an EX_COL */
    int rk;                      /* EXR_* */
    scope *rsc;                  /* the scope of the column */
    int ti, ci;                  /* its table and column there */
    const char *field;           /* a ROW field after the column, or NULL */
    xv *rx;                      /* EXR_SEQ: the sequence value */
    const struct ts_routine *ts; /* EX_CALL of EXC_TS: the routine */
    const struct fdef *fn;       /* EX_CALL of EXC_FUNC: the built-in (NULL: a routine) */
};

/* ixs_ex_chain.c: the operands of one precedence level as read (op[k]:
 * the operator before t[k], '|' for ||; the first IXS_CHAIN_INLINE in the
 * struct itself, as most chains are one operand), and the tree made of them
 * (c emptied; NULL on failure). The tree of a long chain is balanced. A
 * chain starts zeroed. */
#define IXS_CHAIN_INLINE 4
typedef struct ixs_chain {
    ixs_ex **t; /* in_t, or on the heap past IXS_CHAIN_INLINE operands */
    char *op;
    int n, cap;
    ixs_ex *in_t[IXS_CHAIN_INLINE];
    char in_op[IXS_CHAIN_INLINE];
} ixs_chain;
int ixs_chain_add(px *p, ixs_chain *c, ixs_ex *e, char op);
ixs_ex *ixs_chain_tree(px *p, ixs_chain *c, int kind);
void ixs_chain_free(ixs_chain *c);
/* e->h from its operands' heights: 0, or -1 with IXS_E_COMPLEX past
 * IXS_MAX_HEIGHT. */
int ixs_ex_height_check(px *p, ixs_ex *e);

/* ixs_ex_parse.c for the parsers of other modules: a node of kind op at
 * token at; k added to the kids of e (freed on error); a call name "(" ...
 * ")" at the current token. */
ixs_ex *ixs_ex_node(px *p, int op, int at);
int ixs_ex_kid_add(px *p, ixs_ex *e, ixs_ex *k);
ixs_ex *ixs_ex_parse_call(px *p);

/* ixs_window.c: an OLAP window expression at its name (ixs_window_at), its
 * SQL, and the OVER clause freed. */
ixs_ex *ixs_window_parse(px *p);
int ixs_window_emit(px *p, ixs_ex *e, xv *out);
void ixs_window_free(ixs_win *w);
/* The result type of window w's function: of an aggregate, the aggregate's
 * (not here); of LAG/LEAD/FIRST_VALUE/LAST_VALUE their first argument's
 * (*a0; code -1 a NULL: VARCHAR(255)), else BIGINT, FLOAT for PERCENT_RANK
 * and CUME_DIST. */
ityp ixs_window_type(const ixs_win *w, const ityp *a0);

/* ixs_ts.c: a TimeSeries routine call in an expression. The resolver
 * finds the routine (-674 unknown, -686 a table routine), resolves the
 * arguments, checks their count (-674) and types the node by the routine's
 * result; the emitter writes the call of its SQLite function from the
 * arguments' SQL a (n of them). */
#define IXS_TS_MAXARGS 8
enum { IXS_E_TS_UNRESOLVED = IXV_E_ROUTINE_UNRESOLVED }; /* Routine (%s) can not be resolved. */
int ixs_ts_call_resolve(px *p, ixs_ex *e);
int ixs_ts_call_emit(px *p, const ixs_ex *e, xv *a, int n, xv *out);

/* The parser's entry for the levels below a condition (ixs_parse_add). */
enum { IXS_EX_ADD = 16 };

/* A type as ixs_parse_type reads it (ixs_expr.c), but a named row type
 * only by its name (named, IXS_NAME_MAX + 1 bytes; t->code -1) for the
 * resolver: 0 or -1. */
int ixs_parse_type_named(px *p, ityp *t, char *named);

/* unit := YEAR | ... | FRACTION [ "(" n ")" ] (ixs_expr.c; as_end: after TO) */
int ixs_parse_unit(px *p, int *u, int *n, int as_end);

/* ixs_ex_emit.c: a node's SQL into out (initialised). */
int ixs_ex_emit_node(px *p, ixs_ex *e, xv *out);
/* ixs_ex_pred.c: a predicate node (EX_CMP .. EX_IS_NULL). */
int ixs_ex_emit_pred(px *p, ixs_ex *e, xv *out);
/* The SQL of e as a search condition (a predicate or a BOOLEAN value). */
int ixs_ex_emit_cond(px *p, ixs_ex *e, xv *out);
/* ixs_ex_arith.c: out = l op r (+ - * /), and l || r. */
int ixs_ex_arith(px *p, xv *l, char op, xv *r, ityp t, xv *out);
/* The type of l op r for operand types as the arithmetic meets them
 * (strings made numbers, parameters typed); code -1 when it has none. */
ityp ixs_ex_arith_type(ityp l, ityp r, char op);
/* The type of l op r for operands of types l and r that are values, NULLs
 * or parameters (lk, rk: IXS_AR_*; a parameter's type not used) as the
 * arithmetic meets them (strings made numbers or dates, parameters typed by
 * the other operand); code -1 when it has none. */
enum { IXS_AR_VALUE, IXS_AR_NULL, IXS_AR_PARAM };
ityp ixs_ex_arith_met_type(ityp l, int lk, ityp r, int rk, char op);
void ixs_ex_concat(px *p, xv *l, xv *r, ityp t, xv *out);
/* The type of a || b: n characters in all, bothchar if both are CHAR. */
ityp ixs_ex_concat_type(uint32_t n, int bothchar);
int ixs_ex_neg(px *p, xv *out);                   /* - out */
void ixs_ex_units(px *p, xv *out, ityp t, int u); /* out UNITS u, of type t */
uint32_t ixs_ex_units_qual(int u);                /* the INTERVAL qualifier of UNITS u */
/* A copy of v into out (initialised); 0 or -1 out of memory. */
int ixs_ex_xv_copy(const xv *v, xv *out);

/* ixs_ex_types.c: type rules and coercions. */
int ixs_ex_is_temporal(int c);
int ixs_ex_storage_class(int c); /* 'i' 'f' 'd' 'b' 't' */
int ixs_ex_is_lit(const xv *v);

#endif
