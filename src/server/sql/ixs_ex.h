/* ixs_ex.h: expressions as a tree, in three stages.
 *
 *   ixs_ex_parse    tokens -> tree (no catalogue, no SQLite, no scopes)
 *   ixs_ex_resolve  names bound in p->sc (columns, OUTER and enclosing
 *                   scopes, sequences, routines), Informix types of every node
 *   ixs_ex_emit     the SQLite SQL and result type of a resolved tree, as an xv
 *
 * ixs_expr, ixs_cond and ixs_conj (ixs_parse.h) run the three at the
 * current token for callers that translate one expression in place. A tree
 * is owned by whoever parsed it and freed with ixs_ex_free. */
#ifndef IXS_EX_H
#define IXS_EX_H

#include "server/sql/ixs_parse.h"

typedef struct ixs_ex ixs_ex;

/* What ixs_ex_parse reads: a value expression, a search condition (OR
 * level), or one conjunct (NOT level) of a condition. */
enum { IXS_EX_VALUE, IXS_EX_COND, IXS_EX_CONJ };

/* Parses one expression of kind what at p->i; NULL with p->failed set on a
 * syntax error (-201 at its token). */
ixs_ex *ixs_ex_parse(px *p, int what);
/* Resolves and emits e, a search condition (IXS_EX_COND) whose text ends
 * before token end, into out (initialised here; the caller frees it with
 * ixs_xv_free), as ixs_cond does after its parse: a value that is not
 * BOOLEAN is -201 at end. 0, or -1 with p->failed. */
int ixs_cond_emit(px *p, ixs_ex *e, int end, xv *out);
/* Binds the names of e in p->sc and types every node: 0, or -1 with
 * p->failed. */
int ixs_ex_resolve(px *p, ixs_ex *e);
/* Writes the SQLite SQL of resolved e into out (initialised by the caller,
 * freed with ixs_xv_free): 0, or -1 with p->failed. */
int ixs_ex_emit(px *p, ixs_ex *e, xv *out);
void ixs_ex_free(ixs_ex *e);

#endif
