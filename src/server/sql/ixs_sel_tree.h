/* ixs_sel_tree.h: the trees of SELECT, INSERT, UPDATE and DELETE
 * (ixs_sel_parse.c builds them; ixs_sel_resolve.c binds their tables;
 * ixs_sel_emit.c and ixs_sel_dml.c write their SQLite SQL).
 *
 * A tree names tokens of the statement by index (tok: where an error is
 * reported); its expressions are ixs_ex trees (ixs_ex.h). */
#ifndef IXS_SEL_TREE_H
#define IXS_SEL_TREE_H

#include "server/sql/ixs_ex.h"
#include "server/sql/ixs_sel.h"

typedef char ixs_ident[IXS_NAME_MAX + 1];

/* FIRST / SKIP / LIMIT n: an unsigned integer or a parameter. */
typedef struct sel_lim {
    int set;
    int param; /* 1: the parameter pidx */
    int pidx;
    int64_t v;
} sel_lim;

/* A FROM item (table_ref). */
enum { TR_NAME, TR_QUERY, TR_COLL, TR_FUNC, TR_JOIN };
typedef struct sel_join sel_join;
typedef struct sel_tref {
    int kind, tok;
    ixs_ident name;  /* TR_NAME: the table, view or synonym */
    ixs_ident alias; /* "" when none */
    ixs_sel *q;      /* TR_QUERY */
    ixs_ex *coll;    /* TR_COLL: the collection */
    ixs_ident col;   /* TR_COLL: its column's name, "" for the default */
    int fn_end;      /* TR_FUNC: the token after TABLE(...) (tok is TABLE) */
    ixs_ts_from *ts; /* TR_FUNC: the TimeSeries routine's call */
    ixs_ident *cn;   /* TR_QUERY, TR_FUNC: new column names */
    int ncn;
    sel_join *join; /* TR_JOIN: a parenthesized join chain */
    /* resolved (ixs_sel_resolve.c) */
    tref *rt;  /* TR_NAME: the table, owned by the scope */
    char *sql; /* TR_QUERY, TR_COLL, TR_FUNC: the derived table as FROM text */
    int ntabs; /* TR_JOIN: the tables it holds */
} sel_tref;

/* join_chain := table_ref { join }: each join has a right side that is a
 * chain of its own (`a JOIN b JOIN c ON c1 ON c2`). */
enum { JK_NONE, JK_INNER, JK_CROSS, JK_LEFT, JK_RIGHT, JK_FULL };
typedef struct sel_joinop {
    int kind;
    sel_join *rhs;
    ixs_ex *on; /* NULL for CROSS */
    int on_n;   /* resolved: the tables of the scope its ON sees */
} sel_joinop;
struct sel_join {
    sel_tref *first;
    sel_joinop *op;
    int nop;
};

/* from_list := from_item { , from_item } (Informix OUTER groups nest). */
enum { FI_CHAIN, FI_OUTER_REF, FI_OUTER_LIST };
typedef struct sel_from sel_from;
typedef struct sel_fitem {
    int kind;
    sel_join *chain; /* FI_CHAIN */
    sel_tref *t;     /* FI_OUTER_REF */
    sel_from *list;  /* FI_OUTER_LIST */
} sel_fitem;
struct sel_from {
    sel_fitem *it;
    int n;
};

/* A select item: *, table.*, or expr [[AS] alias]. */
enum { SI_STAR, SI_TSTAR, SI_EXPR };
typedef struct sel_item {
    int kind, tok;
    ixs_ident tname; /* SI_TSTAR */
    ixs_ex *e;
    ixs_ident alias;
} sel_item;

/* A WHERE conjunct (or the whole condition), the token after it. */
typedef struct sel_conj {
    ixs_ex *e;
    int end;
} sel_conj;

typedef struct sel_gitem {
    int pos; /* GROUP BY position (1-based), else 0 */
    int tok;
    ixs_ex *e;
} sel_gitem;

typedef struct sel_core {
    int tok;
    sel_lim first, skip;
    int distinct;
    sel_item *items;
    int nitems;
    int list_end;   /* the token after the select list */
    sel_from *from; /* NULL: no FROM */
    sel_conj *where;
    int nwhere;
    sel_gitem *group;
    int ngroup;
    ixs_ex *having;
} sel_core;

enum { SO_UNION, SO_UNION_ALL, SO_INTERSECT, SO_EXCEPT };

typedef struct sel_oitem {
    int tok;
    int pos;        /* a position, else 0 */
    ixs_ident name; /* an output column name it may be, else "" */
    ixs_ex *e;      /* the expression it is otherwise */
    int desc;
    int nulls; /* 0, 'F' or 'L' */
} sel_oitem;

struct ixs_sel {
    int tok;
    sel_core *core;
    int *op; /* op[i]: the operator before core[i + 1] */
    int ncore;
    sel_oitem *order;
    int norder;
    sel_lim limit; /* LIMIT after ORDER BY */
    int for_update;
};

/* INSERT, UPDATE, DELETE */
enum { DML_INSERT, DML_UPDATE, DML_DELETE };
enum { WH_NONE, WH_COND, WH_CURRENT };
typedef struct ixs_dml_t {
    int kind, tok;
    ixs_ident table; /* tok: its first token */
    ixs_ident *cols; /* INSERT / UPDATE: the columns named */
    int ncols;
    int *coltok;
    int star;      /* UPDATE SET * = ... */
    int multi;     /* UPDATE SET (cols) = ... */
    ixs_ex **vals; /* INSERT VALUES, UPDATE SET values */
    int *valtok;
    int nvals;
    int vals_end;     /* the token of the values' ')' */
    ixs_sel *q;       /* INSERT's query, UPDATE's row subquery */
    int where;        /* WH_* */
    ixs_ex *cond;     /* WH_COND */
    ixs_ident cursor; /* WH_CURRENT */
} ixs_dml_t;

ixs_dml_t *ixs_dml_parse(px *p);
void ixs_dml_free(ixs_dml_t *d);
int ixs_dml_emit(px *p, ixs_dml_t *d, ixs_stmt *s);

/* ixs_sel_resolve.c. The Informix OUTER groups of a FROM list: group 0
 * holds the dominant tables, each OUTER item is a group under the group it
 * appears in; a group is LEFT JOINed to its parent, and the WHERE conjuncts
 * that mention its tables become its join condition. */
typedef struct ogroup {
    int parent; /* -1 for group 0 */
    int depth;
    sel_join *chain[IXS_MAX_TABS]; /* its own items: a chain or an OUTER table */
    sel_tref *one[IXS_MAX_TABS];
    int nown;
    sb on; /* the conjuncts placed as its join condition */
} ogroup;
typedef struct ofrom {
    ogroup g[IXS_MAX_TABS];
    int ng;
    int tg[IXS_MAX_TABS]; /* the group of each table of the scope */
} ofrom;
/* Binds the FROM list f into scope sc (tables from the catalogue, derived
 * tables emitted, ON conditions resolved) and its OUTER groups into *out. */
int ixs_sel_from_resolve(px *p, scope *sc, sel_from *f, ofrom **out);
void ixs_sel_ofrom_free(ofrom *f);
void ixs_sel_scope_free(scope *sc);
icol *ixs_sel_find_col(tref *t, const char *name);

/* ixs_sel_emit.c: FIRST / SKIP / LIMIT n as SQL (a parameter typed INTEGER). */
void ixs_sel_lim_sql(px *p, const sel_lim *l, sb *out);

#endif
