/* ixs_objs.h: sequences (ixs_seq.c), synonyms (ixs_synonym.c), updatable
 * views (ixs_view.c) and MERGE (ixs_merge.c): the hooks the dispatch, the
 * catalog lookup and the expression parser call. */
#ifndef IXS_OBJS_H
#define IXS_OBJS_H

#include "server/sql/ixs_parse.h"

/* Informix codes of these statements (docs/server-sql.md, "Sequences";
 * the texts are in src/proto/ix_errcat.c). */
enum {
    IXS_E_SEQ_NOT_FOUND =
        IXV_E_SEQ_NOT_FOUND, /* The specified sequence object (%s) is not in the database. */
    IXS_E_SEQ_EXISTS = IXV_E_SEQ_EXISTS, /* Sequence (%s) already exists in the database. */
    IXS_E_SEQ_VALUE =
        IXV_E_SEQ_VALUE, /* A Sequence object definition value is invalid or out of range. */
    IXS_E_SEQ_DUP = IXV_E_SEQ_DUP,       /* Duplicate or conflicting (%s) specification ... */
    IXS_E_SEQ_MINMAX = IXV_E_SEQ_MINMAX, /* MAXVALUE cannot be less than MINVALUE. */
    IXS_E_SEQ_INC0 = IXV_E_SEQ_INC0,     /* INCREMENT 0 is not allowed in sequences. */
    IXS_E_SEQ_CACHE = IXV_E_SEQ_CACHE,   /* CACHE size should be less than one cycle. ... */
    IXS_E_SEQ_START =
        IXV_E_SEQ_START, /* Cannot set START value less than MINVALUE or greater ... */
    IXS_E_SEQ_RESTART =
        IXV_E_SEQ_RESTART, /* Cannot RESTART the sequence at a value less than ... */
    IXS_E_SEQ_NO_OPTS = IXV_E_SEQ_NO_OPTS, /* No options specified for ALTER SEQUENCE. */
    IXS_E_SEQ_MAX = IXV_E_SEQ_MAX,         /* Sequence (%s) exceeds its MAXVALUE. */
    IXS_E_SEQ_MIN = IXV_E_SEQ_MIN,         /* Sequence (%s) goes below its MINVALUE. */
    IXS_E_SEQ_CURRVAL =
        IXV_E_SEQ_CURRVAL,          /* Sequence (%s) CURRVAL is not yet defined in this session. */
    IXS_E_VIEW_CHECK = IXV_E_CHECK, /* a change through a WITH CHECK OPTION view leaves it */
    IXS_E_VIEW_READONLY = IXV_E_NO_UPDATE_PERM,
    IXS_E_MERGE_TWICE = IXV_E_UPDATE, /* MERGE: a target row matched by two source rows */
};

/* The catalog tables and views of this file group (_ixd_sequences,
 * _ixd_syntable, syssequences, syssynonyms, syssyntable) in database h, each
 * created when missing. Returns a SQLite result code. */
int ixs_objs_cat_init(sqlite3 *h);
/* The same for a file made before them (best effort, as ixd_cat_upgrade). */
void ixs_objs_cat_upgrade(sqlite3 *h);

/* CREATE/DROP/ALTER/RENAME (verb 'C', 'D', 'A', 'R', already read) of a
 * SEQUENCE or [PUBLIC|PRIVATE] SYNONYM at the current token: 1 when such a
 * statement (parsed into the plan pl, run when the statement executes, or
 * failed with p->failed), 0 when the statement is some other kind (nothing
 * consumed). */
int ixs_objs_stmt(px *p, int verb, int *stype, ixs_plan *pl);

/* CREATE/DROP SYNONYM at [PUBLIC|PRIVATE] SYNONYM (ixs_synonym.c) into the
 * plan pl; 0 or -1. */
int ixs_syn_stmt(px *p, int create, int *stype, ixs_plan *pl);
/* ixd_vrow(), the row counter of updatable views (ixs_view.c). */
int ixs_view_register(sqlite3 *h, ixs_conn *db);

/* seq.NEXTVAL / seq.CURRVAL in an expression: name is the sequence, next 1
 * for NEXTVAL. 1 handled (out filled), 0 no such sequence, -1 error. */
int ixs_seq_ref(px *p, const char *name, int next, xv *out);
/* The SQL functions of sequences and updatable views on connection h. */
int ixs_objs_register(sqlite3 *h, ixs_conn *db);
/* Frees the session's sequence state (before the connection closes). */
void ixs_seq_close(ixs_conn *db);

/* A synonym, private one or sequence found by the catalog lookup (tabid,
 * tabtype tt, owner): 1 with the name of the table it stands for in base, 0
 * when the name is no table for db's user (a sequence, another user's
 * private synonym), -1 error. */
int ixs_syn_base(ixs_conn *db, int tabid, char tt, const char *owner, char *base, size_t n);

/* The sequence name stands for, directly or through (visible) synonyms, at
 * most IXS_SEQ_SYN_DEPTH of them: 1 with its tabid, 0 when name is no such
 * sequence, -1 error. */
#define IXS_SEQ_SYN_DEPTH 16
int ixs_syn_sequence(ixs_conn *db, const char *name, int *tabid);

/* CREATE VIEW of a simple updatable view: appends to out the SQLite view
 * (with the base rowid as an extra column) and its INSTEAD OF triggers.
 * sel is the token of SELECT, chk the WITH CHECK OPTION flag, cn the
 * column names (NULL: the select labels, q). 1 done, 0 not updatable
 * (nothing appended), -1 error. */
int ixs_view_plan(px *p, const char *name, int sel, int chk, char (*cn)[IXS_NAME_MAX + 1],
                  const qres *q, sb *out);
/* 1 when view (lower case) was created updatable. */
int ixs_view_updatable(ixs_conn *db, const char *view);

/* MERGE INTO ... (after MERGE): runs it, *rows the rows changed. */
int ixs_merge(px *p, int64_t *rows);
/* MERGE INTO ... (after MERGE) prepared: its plan into st->mplan, its
 * parameters counted in p (0 or -1). ixs_merge_exec runs the plan with the
 * parameters bound to st, *rows the rows changed (0 or -1 with *err). */
int ixs_merge_prepare(px *p, ixs_stmt *st);
int ixs_merge_exec(ixs_stmt *st, int64_t *rows, ixv_err *err);

#endif
