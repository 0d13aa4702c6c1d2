/*
 * ixo_routine.h: an SPL routine's CREATE text read for SQLProcedureColumns,
 * and type names (ixo_routine.c).
 */
#ifndef IXO_ROUTINE_H
#define IXO_ROUTINE_H

#include "ixo_int.h"

#define IXO_ROUTINE_MAX 64 /* the parameters and returned values described */

typedef struct ixo_routine {
    char params[IXO_ROUTINE_MAX][IXO_NAME_MAX]; /* "a integer" as written */
    char rets[IXO_ROUTINE_MAX][IXO_NAME_MAX];   /* "integer as total" */
    int nparams, nrets;
} ixo_routine;

/* The parameter list and RETURNING / RETURNS clause of the CREATE text
 * (NUL-terminated) into rt, each item lower-case with its blanks folded. */
void ixo_routine_parse(const char *text, ixo_routine *rt);

/* The items of a list at depth 0 from p (after its opening '(' when paren),
 * each copied lower-case into items[k] (at most max); ends at the closing
 * ')' or, without paren, at ';' or a keyword SPECIFIC / WITH / END. The
 * number of items; *end gets where it stopped. p[-1] must be readable. */
int ixo_split_list(const char *p, int paren, char (*items)[IXO_NAME_MAX], int max,
                   const char **end);

/* The Informix type code and encoded length of a lower-case type name
 * ("decimal(10,2)", "datetime year to second"): 1, or 0 when unknown. */
int ixo_type_of(const char *name, int *ixtype, int *enclen);

#endif
