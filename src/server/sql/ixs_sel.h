/* ixs_sel.h: SELECT, INSERT, UPDATE and DELETE as trees, in three stages.
 *
 *   ixs_sel_parse    tokens -> statement tree (no catalogue, no SQLite)
 *   ixs_sel_emit     tables resolved (catalogue, owners, views, OUTER
 *                    scopes), expressions resolved in their scopes, then the
 *                    SQLite SQL and the described columns
 *
 * ixs_select, ixs_select_sub and ixs_dml_tail (ixs_parse.h) run the stages at
 * the current token for their callers. A tree is owned by whoever parsed it
 * and freed with ixs_sel_free. */
#ifndef IXS_SEL_H
#define IXS_SEL_H

#include "server/sql/ixs_parse.h"

typedef struct ixs_sel ixs_sel;

/* Parses a query (SELECT ... [UNION ...] [ORDER BY ...]) at p->i, as a
 * subquery ends: before its closing ')'. NULL with p->failed on a syntax
 * error. */
ixs_sel *ixs_sel_parse(px *p);
/* Resolves q in the scope p->sc (as its enclosing scope) and writes its
 * SQLite SQL and columns into out: 0, or -1 with p->failed. */
int ixs_sel_emit(px *p, ixs_sel *q, qres *out);
void ixs_sel_free(ixs_sel *q);
/* Parses a FROM item at p->i (a derived table "(query) [AS] alias [(cols)]"
 * or "TABLE(collection) [AS] alias [(col)]") into the query SELECT * FROM
 * item, and its alias into alias (n bytes; "" when none): MERGE's source.
 * NULL with p->failed on a syntax error. */
ixs_sel *ixs_sel_from_source(px *p, char *alias, size_t n);
/* ixs_sel_emit for a statement's own query (ixs_query.c): its collection
 * columns (and, with p->row_top, ROW columns) are described as LVARCHAR. */
int ixs_select_emit(px *p, ixs_sel *q, qres *out);
/* ixs_select_tail (ixs_parse.h) that also hands the query's tree to the
 * caller in *keep (keep NULL: freed) when it succeeds. */
int ixs_select_keep(px *p, qres *out, int (*tail)(px *p, void *ud), void *ud, ixs_sel **keep);

#endif
