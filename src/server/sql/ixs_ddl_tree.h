/*
 * ixs_ddl_tree.h: the parse tree of DDL and the other statements ixd runs
 * itself (transaction control, savepoints, SET, LOCK, GRANT, ...).
 *
 * A statement is parsed once, at prepare, into an ixs_ddl: one node kind per
 * statement kind, built without any catalogue or SQLite access. The node
 * keeps the statement's text and tokens, so that what execute finds (a table
 * that does not exist, a column of an ALTER, a CHECK condition to translate
 * against the table's columns) reports the same SQLCODE and offset a parse
 * error there would. At execute the node is resolved against the catalogue
 * and run (ixs_ddl_run); it is freed with the statement.
 *
 * Statements of other modules (ROW TYPE, SPL routines, triggers, sequences,
 * synonyms) are DDL_PLAN: their module parses them into its own tree
 * (ixs_plan, ixs_parse.h), run at execute. SELECT ... INTO TEMP is
 * DDL_INTO_TEMP: its query tree, resolved and emitted at prepare (to report
 * what is wrong then) and again when it runs. The SELECT of CREATE VIEW is
 * resolved and emitted from its tree when the statement runs.
 *
 * A column type of CREATE or ALTER TABLE that names a ROW type is parsed
 * without the catalogue at prepare (p->dry) and looked up when the
 * statement runs, before anything else (cdef.rowref: the type's name or
 * fields as parsed; its tokens are not read again), as the parse itself
 * did it when such statements ran from their text.
 *
 * DDL_TEXT is left for MERGE inside another statement (ixs_run_sql) and
 * for the statements whose prepare met a ROW type elsewhere (an SPL
 * parameter or variable, a DEFAULT or CHECK casting to one:
 * p->dry_deferred), run from their text.
 */
#ifndef IXS_DDL_TREE_H
#define IXS_DDL_TREE_H

#include "server/sql/ixs_parse.h"
#include "server/sql/ixs_priv.h"
#include "server/sql/ixs_sel.h"

enum {
    IXS_E_TS_ROWTYPE = IXV_E_TEXT, /* %s: TIMESERIES of a row type that does not exist */
};

/* ---- table definitions (CREATE TABLE, ALTER TABLE, the catalogue form) ------- */
#define IXS_DEFTEXT_MAX 256 /* sysdefaults.default is CHAR(256) */

typedef struct cdef {
    char name[IXS_NAME_MAX + 1];
    ityp t;
    uint32_t collen;
    int notnull;
    int serial;
    int64_t start;
    char *defsql;
    /* DEFAULT as sysdefaults shows it: type L (a literal, deftext its value), N
     * (NULL), T (TODAY), C (CURRENT), U (USER); 0 without DEFAULT */
    char deftype;
    char deftext[IXS_DEFTEXT_MAX + 1];
    int oldno; /* column number in the old table (ALTER), 0 = new */
    ityp oldt;
    char tsrow[IXS_NAME_MAX + 1]; /* TIMESERIES(row type): its name, else "" */
    /* a type naming a ROW type (named or not, or a collection of one), parsed
     * at prepare without the catalogue: its first token and the ROW type as
     * parsed (owned; a copy has none), looked up in the catalogue when the
     * statement runs (ixs_tdef_row_types); else 0 and NULL */
    int rowtype_tok;
    ixs_rowref *rowref;
} cdef;

enum { KDEF_PRIMARY = 'P', KDEF_UNIQUE = 'U', KDEF_CHECK = 'C', KDEF_REFERENCES = 'R' };
typedef struct kdef {
    char type; /* KDEF_* */
    char name[IXS_NAME_MAX + 1];
    char owner[IXS_NAME_MAX + 1]; /* CONSTRAINT owner.name; "" = the table's */
    char *cols;                   /* "a,b" */
    char *checksql;               /* translated, unqualified column names */
    int check_tok;                /* token index of the condition, -1 once translated */
    struct ixs_ex *check;         /* ALTER: the condition's tree, parsed at prepare */
    int check_end;                /* the token after it (its ")") */
    int check_own;                /* check is this kdef's to free (a copy borrows it) */
    char *ifxcheck;               /* CHECK: the condition as written, "(cond)" (syschecks) */
    char reftab[IXS_NAME_MAX + 1];
    char *refcols;
    int cascade;
} kdef;

typedef struct xdef {
    char name[IXS_NAME_MAX + 1];
    char owner[IXS_NAME_MAX + 1];
    int uniq;
    char *cols;
    int parts[16];
} xdef;

typedef struct tdef {
    char name[IXS_NAME_MAX + 1];
    char owner[IXS_NAME_MAX + 1];
    int tabid;
    int created;
    int64_t serial_next, serial8_next;
    int ncols;
    cdef *cols;
    int nk;
    kdef *k;
    int nx;
    xdef *x;
    int defer_cols; /* constraint column lists are checked later (ALTER) */
} tdef;

/* ---- statement nodes ------------------------------------------------------------ */
enum ddl_kind {
    DDL_TEXT = 1,      /* run from its text at execute (see above) */
    DDL_FAIL,          /* fails at execute with fail_code / fail_text */
    DDL_NOOP,          /* accepted, nothing to run (SET ISOLATION, GRANT, ...) */
    DDL_CREATE_TABLE,  /* u.ct */
    DDL_CREATE_INDEX,  /* u.ci */
    DDL_DROP,          /* u.dr */
    DDL_ALTER,         /* u.al */
    DDL_RENAME_TABLE,  /* u.rn */
    DDL_RENAME_COLUMN, /* u.rn */
    DDL_BEGIN,
    DDL_COMMIT,
    DDL_ROLLBACK,
    DDL_ROLLBACK_TO,   /* u.sp (name "" = the outermost) */
    DDL_SAVEPOINT,     /* u.sp */
    DDL_RELEASE,       /* u.sp */
    DDL_SET_LOCK_MODE, /* u.lm */
    DDL_LOCK_TABLE,    /* u.tab */
    DDL_TRUNCATE,      /* u.tab */
    DDL_UPDATE_STATS,  /* u.us */
    DDL_CREATE_SCHEMA, /* u.cs */
    DDL_CREATE_VIEW,   /* u.vw */
    DDL_PRIV,          /* u.pv: GRANT / REVOKE */
    DDL_PLAN,          /* u.plan: a statement of another module */
    DDL_INTO_TEMP,     /* u.it: SELECT ... INTO TEMP */
};

typedef struct ddl_create_table {
    tdef t;
    int temp, ifne;
} ddl_create_table;

typedef struct ddl_create_index {
    char name[IXS_NAME_MAX + 1];
    char owner[IXS_NAME_MAX + 1];
    char tab[IXS_NAME_MAX + 1];
    char *cols;    /* "a,b" */
    int parts[16]; /* 1 ascending, -1 descending (column numbers at execute) */
    int uniq, ifne;
} ddl_create_index;

enum { DROP_TABLE = 1, DROP_INDEX, DROP_VIEW };
typedef struct ddl_drop {
    int what; /* DROP_* */
    int ife, cascade;
    char name[IXS_NAME_MAX + 1];
} ddl_drop;

typedef struct ddl_rename {
    char tab[IXS_NAME_MAX + 1];
    char from[IXS_NAME_MAX + 1]; /* RENAME COLUMN: the column */
    char to[IXS_NAME_MAX + 1];
} ddl_rename;

/* One action of ALTER TABLE; ADD (a, b) and DROP (a, b) are one per name. */
enum { ALT_ADD_COLUMN = 1, ALT_ADD_CONSTRAINT, ALT_DROP_CONSTRAINT, ALT_DROP_COLUMN, ALT_MODIFY };
typedef struct ddl_action {
    int kind;
    tdef def;                      /* ADD/MODIFY: cols[0] and its constraints; ADD CONSTRAINT: k */
    char name[IXS_NAME_MAX + 1];   /* DROP CONSTRAINT / DROP COLUMN */
    char before[IXS_NAME_MAX + 1]; /* ADD ... BEFORE column; "" = at the end */
    int last_tok;                  /* token after the action's clause (the last DROP of a list) */
    int ends_drop;                 /* the last name of a DROP column list */
} ddl_action;

typedef struct ddl_alter {
    char name[IXS_NAME_MAX + 1];
    int n;
    ddl_action *a;
} ddl_alter;

typedef struct ddl_savepoint {
    char name[IXS_NAME_MAX + 1];
} ddl_savepoint;

typedef struct ddl_lock_mode {
    int not_wait;
    int64_t secs; /* -1: WAIT without a limit */
} ddl_lock_mode;

typedef struct ddl_table {
    char name[IXS_NAME_MAX + 1];
} ddl_table;

typedef struct ddl_stats {
    char table[IXS_NAME_MAX + 1]; /* "" = every user table (or a routine form) */
    int routine;                  /* FOR PROCEDURE/FUNCTION/ROUTINE: nothing to do */
    int ncols;
    char (*cols)[IXS_NAME_MAX + 1];
} ddl_stats;

typedef struct ddl_schema {
    char user[IXS_NAME_MAX + 1];
    int start, end; /* tokens of the statements */
} ddl_schema;

#define IXS_VIEW_MAX_COLS 64 /* names in CREATE VIEW v (a, b, ...) */
typedef struct ddl_view {
    char name[IXS_NAME_MAX + 1];
    char owner[IXS_NAME_MAX + 1];
    int ncn; /* the column list, 0 = the select labels */
    char (*cn)[IXS_NAME_MAX + 1];
    int sel;    /* token of the SELECT */
    ixs_sel *q; /* the SELECT */
    int chk;    /* WITH CHECK OPTION */
    int ifne;   /* IF NOT EXISTS: an existing name is no error */
} ddl_view;

typedef struct ddl_into_temp {
    char name[IXS_NAME_MAX + 1]; /* the table */
    int sel;                     /* token of the SELECT */
    ixs_sel *q;
} ddl_into_temp;

typedef struct ixs_ddl {
    int kind; /* ddl_kind */
    int stype;
    /* the statement's text and tokens (owned) */
    char *sql;
    size_t n;
    tok *t;
    int nt;
    int fail_code;
    char fail_text[80];
    union {
        ddl_create_table ct;
        ddl_create_index ci;
        ddl_drop dr;
        ddl_alter al;
        ddl_rename rn;
        ddl_savepoint sp;
        ddl_lock_mode lm;
        ddl_table tab;
        ddl_stats us;
        ddl_schema cs;
        ddl_view vw;
        ixs_priv pv;
        ixs_plan plan;
        ddl_into_temp it;
    } u;
} ixs_ddl;

/* Parses the statement at p's first token into d. With p->dry (at
 * prepare) a ROW type that a column names is not looked up (the statement
 * is then run from its text: p->dry_deferred). MERGE runs while it is
 * parsed (DDL_TEXT: only inside other statements). Returns 0 or -1
 * (p->failed). */
int ixs_ddl_parse(px *p, ixs_ddl *d);
/* Resolves and runs d; p is the statement's parse state over d's tokens.
 * rows: rows changed, where the statement has them. Returns 0 or -1. */
int ixs_ddl_run(px *p, ixs_ddl *d, int64_t *rows);
/* Frees what d holds (d itself is the caller's). */
void ixs_ddl_free(ixs_ddl *d);

/* ---- helpers of ixs_ddl.c (table definitions) ------------------------------------- */
void ixs_tdef_free(tdef *t);
cdef *ixs_tdef_addcol(px *p, tdef *t);
kdef *ixs_tdef_addk(px *p, tdef *t);
int ixs_tdef_find(const tdef *t, const char *name);
/* Deep copies: 0 or -208 through p. */
int ixs_tdef_copy(px *p, tdef *dst, const tdef *src);
int ixs_cdef_copy(px *p, cdef *dst, const cdef *src);
int ixs_kdef_copy(px *p, kdef *dst, const kdef *src);
void ixs_kdef_free(kdef *k);
int ixs_column_def(px *p, tdef *t, cdef *c, int modify);
int ixs_table_constraint(px *p, tdef *t);
int ixs_translate_checks(px *p, tdef *t);
int ixs_tdef_load(px *p, const char *name, tdef *t);
int ixs_materialize(px *p, tdef *t, int rebuild);
int ixs_ts_columns(px *p, const tdef *t, int temp);
const char *ixs_ts_key(const tdef *t);
int ixs_ddl_q_int(ixs_conn *db, const char *sql, const char *arg, int64_t *out);
/* 1 a table or view, 2 a session temp table, 0 neither */
int ixs_table_exists(ixs_conn *db, const char *name);
void ixs_drop_column_refs(tdef *t, const char *col);
/* The types of t's columns with a rowref, looked up in the catalogue
 * now (an unnamed ROW type is made when it is new): 0 or -1 (p->failed). */
int ixs_tdef_row_types(px *p, tdef *t);
/* The row types of t's TIMESERIES columns exist (-746 naming one that does not). */
int ixs_ts_rowtypes(px *p, const tdef *t);

/* The statements of ixs_ddl.c and ixs_ddl_alter.c, parse (after the
 * statement's first keywords) and run. */
int ixs_create_table_parse(px *p, int temp, ddl_create_table *ct);
int ixs_create_table_run(px *p, const ddl_create_table *ct);
int ixs_create_index_parse(px *p, int uniq, ddl_create_index *ci);
int ixs_create_index_run(px *p, const ddl_create_index *ci);
int ixs_drop_parse(px *p, ddl_drop *dr);
int ixs_drop_run(px *p, const ddl_drop *dr);
int ixs_rename_parse(px *p, ixs_ddl *d);
int ixs_rename_table_run(px *p, const ddl_rename *rn);
int ixs_rename_column_run(px *p, const ddl_rename *rn);
int ixs_alter_parse(px *p, ddl_alter *al);
int ixs_alter_run(px *p, const ddl_alter *al);
void ixs_alter_free(ddl_alter *al);
int ixs_create_view_parse(px *p, ddl_view *v);
int ixs_create_view_run(px *p, const ddl_view *v);
int ixs_select_into_temp(px *p, int64_t *rows);
int ixs_into_temp_run(px *p, const ddl_into_temp *it, int64_t *rows);
/* Keeps d (its text and p's tokens) as s's tree (kind SK_SQL); d is then
 * s's, or freed on failure. 0 or -1 with -208. */
int ixs_ddl_keep(px *p, ixs_stmt *s, ixs_ddl *d);

/* ixs_ddl_misc.c */
int ixs_update_statistics_parse(px *p, ixs_ddl *d);
int ixs_update_statistics_run(px *p, const ddl_stats *us);
int ixs_truncate_parse(px *p, ddl_table *tb);
int ixs_truncate_run(px *p, const ddl_table *tb);
int ixs_create_schema_parse(px *p, ddl_schema *cs);
int ixs_create_schema_run(px *p, const ddl_schema *cs);

#endif
