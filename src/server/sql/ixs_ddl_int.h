/*
 * ixs_ddl_int.h: what the DDL files share and nothing else sees:
 * ixs_ddl.c, ixs_ddl_def.c, ixs_ddl_cat.c, ixs_translate.c, ixs_dbstmt.c.
 */
#ifndef IXS_DDL_INT_H
#define IXS_DDL_INT_H

#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_parse.h"

void ixs_add_cols_sql(sb *s, const char *cols, const int *parts);
int ixs_colno_of(const tdef *t, const char *cols, int *parts);
void ixs_index_row_sql(sb *s, const char *name, const char *owner, int tabid, char type,
                       int is_constraint, const char *cols, const int *parts);
int ixs_temp_materialize(px *p, tdef *t);

#endif
