/* ixs_priv.h: GRANT and REVOKE (ixs_priv.c): the statement's tree, its
 * execution, and the catalogue rows of privileges. */
#ifndef IXS_PRIV_H
#define IXS_PRIV_H

#include "server/sql/ixs_parse.h"

#define IXS_PRIV_NTABLE   8    /* table-level privileges (select ... under) */
#define IXS_PRIV_MAX_COLS 1024 /* columns of one privilege's list */

enum {
    IXS_PRIV_OTHER = 0, /* a form ixd accepts without effect (EXECUTE ON, EXTEND, ...) */
    IXS_PRIV_DATABASE,  /* CONNECT, RESOURCE, DBA: sysusers */
    IXS_PRIV_TABLE,     /* table-level: systabauth, syscolauth */
    IXS_PRIV_ROLE,      /* GRANT role TO / REVOKE role FROM: sysroleauth (ixs_role.c) */
    IXS_PRIV_DEFROLE,   /* GRANT DEFAULT ROLE role TO / REVOKE DEFAULT ROLE FROM */
};

/* Informix codes of roles (ixs_role.c; texts in src/proto/ix_errcat.c) */
enum {
    IXS_E_ROLE_EXISTS = IXV_E_ROLE_EXISTS,   /* a role or user of that name exists */
    IXS_E_ROLE_UNKNOWN = IXV_E_ROLE_UNKNOWN, /* no such role, or not held (SET ROLE) */
};
#define IXS_ROLE_FN "ixd_role" /* ixd_role(0) CURRENT_ROLE, ixd_role(1) DEFAULT_ROLE */

typedef struct ixs_priv {
    int kind;                     /* IXS_PRIV_* */
    int revoke;                   /* REVOKE, else GRANT */
    char usertype;                /* IXS_PRIV_DATABASE: 'C', 'R' or 'D' */
    unsigned mask;                /* IXS_PRIV_TABLE: bit k = privilege k of ixs_priv.c's table */
    char *cols[IXS_PRIV_NTABLE];  /* "a,b": the column list of privilege k, or NULL */
    char table[IXS_NAME_MAX + 1]; /* IXS_PRIV_ROLE, _DEFROLE: the role ("" none) */
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

/* Roles (ixs_role.c). ixs_role_stmt: CREATE / DROP / SET ROLE at ROLE after
 * the verb ('C', 'D', 'S', already read): 1 when such a statement (parsed into
 * the plan pl, or failed with p->failed), 0 when not (nothing consumed).
 * ixs_role_grant_run: runs a GRANT / REVOKE of kind IXS_PRIV_ROLE or
 * IXS_PRIV_DEFROLE in its own DDL savepoint; 0 or -1. ixs_role_name: a role
 * name at p->i (an identifier, lower-cased, or a 'string' as written) into
 * buf; 0 or -1 (-201). ixs_role_register: ixd_role() on connection h of c. */
int ixs_role_stmt(px *p, int verb, int *stype, ixs_plan *pl);
int ixs_role_grant_run(px *p, const ixs_priv *g);
int ixs_role_name(px *p, char *buf, size_t n);
int ixs_role_register(sqlite3 *h, ixs_conn *c);

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
