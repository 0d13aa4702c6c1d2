/*
 * ixs_spl.h: stored procedures and functions in SPL (docs/server-sql.md,
 * "Stored procedures").
 *
 * Stages:
 *   ixs_spl_parse.c  CREATE PROCEDURE / FUNCTION text -> spl_rt, a tree of
 *                    spl_node (no SQLite; the catalogue only for the types
 *                    given as LIKE table.column). Expressions
 *                    and embedded SQL stay Informix SQL text in which every
 *                    SPL variable has become a '?' (spl_sql), translated by
 *                    the ordinary translator when first run.
 *   ixs_spl_cat.c    the catalogue: sysprocedures and sysprocbody (the text,
 *                    parsed again into a tree when a connection first calls
 *                    the routine), CREATE / DROP, and which of an
 *                    overloaded name's routines a call's argument types
 *                    pick (ixs_spl_cat_pick).
 *   ixs_spl_sql.c    the calls from SQL: EXECUTE, a call in an expression,
 *                    TABLE(FUNCTION f(...)) in FROM.
 *   ixs_spl_exec.c   the interpreter, the per-connection tree cache, EXECUTE
 *                    PROCEDURE / FUNCTION, and the SQLite function and table
 *                    that run a routine from inside SQL.
 */
#ifndef IXS_SPL_H
#define IXS_SPL_H

#include "server/sql/ixs_parse.h"

#define SPL_MAX_ARGS  32 /* parameters of a routine (columns of _ixd_spl) */
#define SPL_MAX_RET   32 /* values a RETURN gives */
#define SPL_MAX_VARS  1024
#define SPL_MAX_DEPTH 32 /* nested routine calls: IXS_E_SPL_DEPTH */
#define SPL_MAX_NEST                                                                               \
    128 /* statements nested in a routine (blocks, IF, loops,                                      \
           ELIF arms): IXS_E_COMPLEX */

/* The Informix codes of routines. */
enum {
    IXS_E_SPL_EXISTS = IXV_E_ROUTINE_EXISTS,         /* Function (%s) already exists in database. */
    IXS_E_SPL_UNRESOLVED = IXV_E_ROUTINE_UNRESOLVED, /* Routine (%s) can not be resolved. */
    IXS_E_SPL_MANY_ROWS = IXV_E_MANY_ROWS,   /* Function (%s) has returned more than one row. */
    IXS_E_SPL_SYSTEM = IXV_E_SYSTEM_CMD,     /* The system command cannot be executed. */
    IXS_E_SPL_ONE_ROW = IXV_E_SUBQUERY_ROWS, /* A subquery has returned not exactly one row. */
    IXS_E_SPL_NOT_PROC =
        IXV_E_NOT_PROCEDURE,       /* Routine (%s) cannot be executed as a procedure/function */
    IXS_E_SPL_DEPTH = IXV_E_STACK, /* Out of stack space. (routine calls nested too deep) */
    IXS_E_SPL_RET_COUNT = IXV_E_RETURN_COUNT,      /* RETURN gives a different number of values */
    IXS_E_SPL_TOO_MANY_ARGS = IXV_E_TOO_MANY_ARGS, /* more arguments than parameters */
    IXS_E_SPL_AMBIGUOUS =
        IXV_E_ROUTINE_AMBIGUOUS /* Routine (%s) ambiguous - more than one routine ... */
};

/* Statement kinds of the tree. */
enum {
    SN_BLOCK = 1, /* BEGIN ... END, and the routine's body */
    SN_LET,
    SN_IF,
    SN_FOR,     /* FOR v = a TO b [STEP s] */
    SN_FORIN,   /* FOR v IN (e, ...) */
    SN_FOREACH, /* FOREACH SELECT ... INTO / FOREACH EXECUTE ... INTO */
    SN_WHILE,
    SN_EXIT,
    SN_CONTINUE,
    SN_RETURN,
    SN_RAISE,
    SN_SQL,  /* an embedded SQL statement (SELECT INTO, DML, DDL) */
    SN_CALL, /* CALL / EXECUTE PROCEDURE / EXECUTE FUNCTION / LET a = f() */
    SN_SYSTEM,
    SN_TRACE,
    SN_EXECIMM, /* EXECUTE IMMEDIATE char_expr: q is "SELECT char_expr" */
    SN_LOOP     /* LOOP ... END LOOP (left by EXIT or RETURN only) */
};

/* Loop kinds of EXIT / CONTINUE FOR|WHILE|FOREACH|LOOP (LOOP: any loop
 * written LOOP ... END LOOP). */
enum { SPL_LOOP_FOR = 1, SPL_LOOP_WHILE, SPL_LOOP_FOREACH, SPL_LOOP_LOOP };

/* An SPL variable (parameters first, then every DEFINE in text order). */
typedef struct spl_var {
    char name[IXS_NAME_MAX + 1];
    ityp t;
    int global;
    char *defsql; /* DEFAULT (parameters and GLOBAL): "SELECT expr", or NULL */
} spl_var;

/* Informix SQL with the SPL variables it names replaced by '?', the
 * variables in the order of those marks, and SELECT ... INTO targets. The
 * translation (an ixs_stmt) is kept here while db->gen says it is valid. */
typedef struct spl_sql {
    char *text;
    int *slots, nslots;
    int *into, ninto;
    int pos; /* where it starts in the CREATE text */
    ixs_stmt *st;
    uint64_t gen;
    int busy; /* st is stepping (a recursive call prepares its own) */
} spl_sql;

typedef struct spl_node spl_node;

/* ON EXCEPTION [IN (codes)] [SET sqlv, isamv, textv] body END EXCEPTION
 * [WITH RESUME] */
typedef struct spl_handler {
    int *codes, ncodes; /* 0: every error */
    int setv[3];        /* variable slots, -1 none */
    int resume;
    spl_node *body;
} spl_handler;

struct spl_node {
    int kind;
    int pos;
    spl_node *next;
    spl_sql q;                     /* the expression list, condition or statement */
    char callee[IXS_NAME_MAX + 1]; /* SN_CALL, FOREACH EXECUTE */
    char cursor[IXS_NAME_MAX + 1]; /* FOREACH cursor FOR SELECT: its name */
    int *tgt, ntgt;                /* LET targets, FOR variable, INTO of a call */
    int *forin, nforin;            /* SN_FORIN: values of each item (1, or 3: a TO b STEP s) */
    int nargs;                     /* SN_CALL, FOREACH EXECUTE: arguments of the call */
    spl_node *body;                /* block, loop, THEN */
    spl_node *elsep;               /* IF: the ELIF (an SN_IF) or ELSE block */
    spl_node *target;     /* EXIT / CONTINUE: the loop it leaves or goes on with (q: its WHEN) */
    int resume;           /* RETURN WITH RESUME */
    int first_var, nvars; /* SN_BLOCK: the variables it defines */
    spl_handler *h;
    int nh;
    /* SN_CALL, FOREACH EXECUTE: the routine the call resolved to, kept while
     * the connection's gen and data version stay */
    char *rkey;
    uint64_t rgen;
    unsigned rdver;
};

/* A routine. */
typedef struct spl_rt {
    char name[IXS_NAME_MAX + 1];
    char owner[IXS_NAME_MAX + 1];
    char specific[IXS_NAME_MAX + 1];
    char *document;
    int procid;
    int isproc; /* CREATE PROCEDURE */
    int dba;
    int nparams;
    int nvars;
    spl_var *vars;
    int nret;
    ityp ret[SPL_MAX_RET];
    char retname[SPL_MAX_RET][IXS_NAME_MAX + 1];
    int variant, handlesnulls;
    /* its text is read with DELIMIDENT (that of the session that created it,
     * kept in sysprocedures.procflags as IXS_PROCFLAG_DELIMIDENT): its body
     * and statements are translated so wherever it runs */
    int delimident;
    int txn;        /* its body holds BEGIN / COMMIT / ROLLBACK WORK */
    spl_node *body; /* an SN_BLOCK */
    /* the per-connection cache */
    int key_nargs; /* the argument count it was looked up with (-1: any) */
    char *key_sig; /* the paramtypes it was looked up with (overloaded), else NULL */
    int active;
    int stale;
    struct spl_rt *next;
} spl_rt;

/* ---- parsing (ixs_spl_parse.c) --------------------------------------------------- */
/* Parses CREATE [DBA] PROCEDURE|FUNCTION ... END PROCEDURE|FUNCTION [DOCUMENT
 * ...] [WITH LISTING IN ...] from token p->i (at CREATE) into *out. Returns 0
 * or -1 with p's error (-201 at the token, unknown variables -201 too). */
int ixs_spl_parse_create(px *p, spl_rt **out);
void ixs_spl_rt_free(spl_rt *r);

/* ---- catalogue (ixs_spl_cat.c) ---------------------------------------------------- */
/* Creates sysprocedures, sysprocbody, systriggers and systrigbody with their
 * catalogue rows (in the transaction of ixd_cat_init); ixs_spl_cat_upgrade
 * adds them to a file made before them. */
int ixs_spl_cat_init(sqlite3 *h, ixv_err *err);
void ixs_spl_cat_upgrade(sqlite3 *h);
/* The procid and text of routine name called with nargs arguments (-1: any):
 * the one with exactly nargs parameters, else the one with the fewest
 * parameters above nargs (DEFAULTs fill the rest); when sig is not NULL,
 * the one whose sysprocedures.paramtypes is sig. 1 found, 0 not, -1 error.
 * *text is malloc'ed; *procflags (when not NULL) its sysprocedures.procflags. */
int ixs_spl_cat_find(ixs_conn *db, const char *name, int nargs, const char *sig, int *procid,
                     char **text, int *procflags, ixv_err *err);
/* sysprocedures.procflags: the routine was created with DELIMIDENT on */
#define IXS_PROCFLAG_DELIMIDENT 1
/* Overloading: the routine of name that a call with nargs arguments of
 * types argt resolves to. Routines of that name with exactly nargs
 * parameters, else those with the fewest above nargs; among them, the one
 * whose parameters' types the arguments reach at the lowest cost (the same
 * type, another character type, a wider number, a narrower one, through
 * text); two at the lowest cost are -9700. 1 found (*sig: NULL when the
 * count alone decides, else the routine's paramtypes, malloc'ed), 0 none,
 * -1 error. */
int ixs_spl_cat_pick(ixs_conn *db, const char *name, int nargs, const ityp *argt, char **sig,
                     ixv_err *err);
/* Writes a catalogue body (sysprocbody / systrigbody) in CHAR(256) chunks. */
int ixs_spl_cat_put_body(ixs_conn *db, const char *table, int id, const char *key, const char *text,
                         size_t n, ixv_err *err);

/* ---- execution (ixs_spl_exec.c) --------------------------------------------------- */
/* The routine of key for a call with nargs arguments (-1: any; see
 * ixs_spl_cat_find) for db (parsed from the catalogue and cached): key is
 * its name, or "name(paramtypes)" for one of an overloaded name (what
 * spl_rt.key gives). 1 found (*out valid until the next DDL), 0 not, -1
 * error. */
int ixs_spl_get(ixs_conn *db, const char *key, int nargs, spl_rt **out, ixv_err *err);
/* The routine of name that a call with nargs arguments of types argt
 * resolves to (ixs_spl_cat_pick), as ixs_spl_get gives it: 1, 0, -1 (-9700
 * when two are as good). */
int ixs_spl_resolve(ixs_conn *db, const char *name, int nargs, const ityp *argt, spl_rt **out,
                    ixv_err *err);
/* The key of r for ixs_spl_get ("name" or "name(paramtypes)") into b. */
void ixs_spl_key(const spl_rt *r, sb *b);
/* Forgets the cached routine name (after DROP / CREATE). */
void ixs_spl_forget(ixs_conn *db, const char *name);
/* Frees the per-connection state (before the connection closes). */
void ixs_spl_close(ixs_conn *db);
/* Registers ixd_spl_fn() and the table _ixd_spl on a connection. */
int ixs_spl_register(sqlite3 *h, ixs_conn *db);

/* The rows a routine returns. */
typedef struct spl_rows {
    int ncols;
    int n, cap;
    sval *v; /* n * ncols values */
} spl_rows;
void ixs_spl_rows_free(spl_rows *r);
/* Runs r with args (storage values of its parameter types; nargs may be
 * fewer than its parameters: DEFAULTs fill the rest). */
int ixs_spl_run(ixs_conn *db, spl_rt *r, const sval *args, int nargs, spl_rows *out, ixv_err *err);

/* A routine runs from inside an SQL statement (a call in an expression, an
 * iterator's rows, a row trigger): d +1 on the way in, -1 on the way out.
 * There, transaction statements and the DDL that drops or alters objects
 * are -675, as in Informix, and SQLite refuses them anyway. */
void ixs_spl_in_dml(ixs_conn *db, int d);

/* ---- hooks of the translator ---------------------------------------------------- */
/* CREATE / DROP PROCEDURE|FUNCTION|ROUTINE after the statement's first
 * token: 1 parsed (its plan in pl, run when the statement executes), 0 not
 * such a statement, -1 error. */
int ixs_spl_create_stmt(px *p, int *stype, ixs_plan *pl);
int ixs_spl_drop_stmt(px *p, int *stype, ixs_plan *pl);
/* EXECUTE PROCEDURE|FUNCTION name ( after '(' of a user routine into s: 1
 * done, 0 no such routine, -1 error. */
int ixs_spl_execute(px *p, ixs_stmt *s, int proc, const char *name);
/* The SQL that runs the routine of EXECUTE statement s (s->spl_direct) from
 * inside another statement (a row trigger's action): SELECT c0, ... FROM
 * _ixd_spl('key', args), into out. */
void ixs_spl_nested_sql(const ixs_stmt *s, sb *out);
/* A call of user routine fn in an expression, its arguments parsed: 0 done,
 * -1 error (-674 when there is no such routine). */
int ixs_spl_call(px *p, const char *fn, xv *args, int na, xv *out);
/* TABLE ( [FUNCTION] fn ( args ) ) in FROM for a user routine: the rows
 * its RETURN [WITH RESUME] gives, as the SELECT of a derived table into q
 * (its columns the RETURNING types, named by their AS names, else
 * "(expression)", "(expression)2", ...). args_end: the token after the
 * arguments. 0, or -1 with p's error (-674 no such function). */
struct ixs_ex;
int ixs_spl_from_emit(px *p, const char *fn, struct ixs_ex *const *args, int na, int args_end,
                      qres *q);
/* The type an argument brings to overloading: its own, or for an untyped
 * literal its natural one (CHAR, INTEGER, DECIMAL); NULL and '?' unknown. */
ityp ixs_spl_arg_type(const xv *v);
/* The result type of user routine fn called with na arguments of types
 * argt into *t: 1, 0 when there is none (ixs_spl_call gives the error). */
int ixs_spl_ret_type(px *p, const char *fn, const ityp *argt, int na, ityp *t);

/* ---- WHERE CURRENT OF (ixs_cursor.c) --------------------------------------------- */
/* A named FOREACH running (db->spl_cursors, innermost first): st is its
 * update cursor once it has stepped onto a row. */
typedef struct ixs_curframe {
    char name[IXS_NAME_MAX + 1];
    ixs_stmt *st;
    struct ixs_curframe *up;
} ixs_curframe;

/* ---- triggers (ixs_trigger.c, ixs_trigger_stmt.c) --------------------------------- */
#define TRG_MAX_ACTIONS 32 /* actions of one clause */
#define TRG_MAX_CLAUSES 16 /* [WHEN (...)] (actions) clauses of one trigger */
enum { TRG_BEFORE = 'B', TRG_ROW = 'R', TRG_AFTER = 'A' };
typedef struct trg_range {
    int a, b; /* tokens [a, b) */
} trg_range;
typedef struct trg_clause {
    char phase; /* TRG_BEFORE, TRG_ROW, TRG_AFTER */
    trg_range when;
    trg_range act[TRG_MAX_ACTIONS];
    unsigned char bare[TRG_MAX_ACTIONS]; /* EXECUTE PROCEDURE name: no "()" */
    int into[TRG_MAX_ACTIONS]; /* EXECUTE PROCEDURE ... INTO cols: the INTO token, else 0 */
    int nact;
} trg_clause;
typedef struct trg_body {
    trg_clause c[TRG_MAX_CLAUSES];
    int n;
} trg_body;
/* The sections of a trigger (BEFORE / FOR EACH ROW / AFTER) from token p->i
 * into b: 0 or -1 (-201). */
int ixs_trg_parse_body(px *p, trg_body *b);
/* Statement-level actions of the INSERT / UPDATE / DELETE s (its BEFORE and
 * AFTER clauses, found once per prepared statement and found again when
 * db->gen or the schema moved). ixs_trg_stmt_before runs the BEFORE clauses
 * in a savepoint: 0 (nothing to do or done) or -1 with *err (nothing
 * changed). ixs_trg_stmt_after runs the AFTER clauses when ok (the
 * statement succeeded) and ends the savepoint (rolled back on any failure):
 * 0 or -1 with *err. ixs_trg_stmt_free frees the cache of s. */
typedef struct trg_stmt trg_stmt;
int ixs_trg_stmt_before(ixs_stmt *s, ixv_err *err);
int ixs_trg_stmt_after(ixs_stmt *s, int ok, ixv_err *err);
void ixs_trg_stmt_free(ixs_stmt *s);
/* CREATE / DROP TRIGGER after the statement's first token: 1 parsed (its
 * plan in pl, run when the statement executes), 0 not such a statement, -1
 * error. */
int ixs_trigger_create_stmt(px *p, int *stype, ixs_plan *pl);
int ixs_trigger_drop_stmt(px *p, int *stype, ixs_plan *pl);
/* DROP TABLE: appends to s the SQL that removes the catalogue rows of the
 * triggers of table tabid (SQLite drops its own triggers with the table). */
void ixs_trigger_drop_table_sql(int tabid, sb *s);
/* After an ALTER TABLE rebuild of table: its triggers made again from
 * their catalogue text: 0 or -1 (p->failed). */
int ixs_trigger_rebuild(px *p, const char *table);
/* A trigger created with DELIMIDENT on has a systrigbody row of datakey
 * IXS_TRG_DELIM_KEY (Informix's linearized header, which ixd has no other
 * use for) holding IXS_TRG_DELIM_DATA: its text is read with DELIMIDENT
 * wherever it runs; one without the row without it. IXS_TRG_DELIM_SQL: 1
 * when trigger t.trigid has it, as an SQL expression. */
#define IXS_TRG_DELIM_KEY  "H"
#define IXS_TRG_DELIM_DATA "delimident"
#define IXS_TRG_DELIM_SQL                                                                          \
    "EXISTS (SELECT 1 FROM systrigbody h WHERE h.trigid = t.trigid AND h.datakey = "               \
    "'" IXS_TRG_DELIM_KEY "' AND h.data = '" IXS_TRG_DELIM_DATA "')"

#endif
