/* ixs_priv.h: GRANT and REVOKE (ixs_priv.c): the statement's tree, its
 * execution, and the catalogue rows of privileges. */
#ifndef IXS_PRIV_H
#define IXS_PRIV_H

#include "server/sql/ixs_parse.h"

#define IXS_PRIV_NTABLE   8    /* table-level privileges (select ... under) */
#define IXS_PRIV_MAX_COLS 1024 /* columns of one privilege's list */

enum {
    IXS_PRIV_OTHER = 0, /* a form ixd accepts without effect (EXECUTE ON, roles, ...) */
    IXS_PRIV_DATABASE,  /* CONNECT, RESOURCE, DBA: sysusers */
    IXS_PRIV_TABLE,     /* table-level: systabauth, syscolauth */
};

typedef struct ixs_priv {
    int kind;                    /* IXS_PRIV_* */
    int revoke;                  /* REVOKE, else GRANT */
    char usertype;               /* IXS_PRIV_DATABASE: 'C', 'R' or 'D' */
    unsigned mask;               /* IXS_PRIV_TABLE: bit k = privilege k of ixs_priv.c's table */
    char *cols[IXS_PRIV_NTABLE]; /* "a,b": the column list of privilege k, or NULL */
    char table[IXS_NAME_MAX + 1];
    int ngrantees;
    char (*grantees)[IXS_NAME_MAX + 1]; /* "public" for PUBLIC */
    int grant_option;                   /* WITH GRANT OPTION */
    char grantor[IXS_NAME_MAX + 1];     /* AS grantor; "" = the session user */
} ixs_priv;

/* Parses GRANT / REVOKE at p->i into g (no catalogue access): 0 or -1. */
int ixs_priv_parse(px *p, ixs_priv *g);
/* Runs g in its own DDL savepoint: 0 or -1 (-206 for a table that does not
 * exist, -217 for a column it does not have). */
int ixs_priv_run(px *p, const ixs_priv *g);
void ixs_priv_free(ixs_priv *g);

/* The SQL that creates ixd's tables of privileges when they are missing. */
const char *ixs_priv_cat_ddl(void);
/* Appends the default privileges of a new table (PUBLIC's, unless the
 * database, of logmode 0-3, is ANSI) and the deletion of a dropped table's privileges. */
void ixs_priv_new_table_sql(sb *s, int tabid, const char *owner, int logmode);
void ixs_priv_drop_table_sql(sb *s, int64_t tabid);
/* Appends the default privileges of the tables of a catalogue older than
 * privileges (what they would have had at CREATE TABLE). */
void ixs_priv_upgrade_sql(sb *s, int logmode);

#endif
