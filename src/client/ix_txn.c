/*
 * ix_txn.c: transactions as the server keeps them (tracked from the
 * statements and replies), and one-shot execution.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/ix_sqlscan.h"
#include "ix_client_int.h"
#include "ix_conn_int.h"

/* ---- transaction tracking ---------------------------------------------------- */

/* After DATABASE name or CREATE DATABASE name the current database is
 * name; after CLOSE DATABASE, or DROP DATABASE of the current one, none.
 * (Out of memory leaves the name as it was: it is only reported.) */
static void note_database(ix_conn *c, const ixb_tok *w, const ixb_tok t[3]) {
    const ixb_tok *name = ixb_tok_is(w, "DATABASE") ? &t[1] : &t[2];
    if (ixb_tok_is(w, "CLOSE") ||
        (ixb_tok_is(w, "DROP") && c->database && name->n == strlen(c->database) &&
         strncasecmp(name->p, c->database, name->n) == 0)) {
        ixc_free(c->database);
        c->database = NULL;
    } else if (!ixb_tok_is(w, "DROP") && name->n) {
        ixc_set_str(&c->database, name->p, name->n);
    }
}

/* Called after a statement succeeded: BEGIN [WORK] opens a transaction,
 * COMMIT / ROLLBACK [WORK] (not ROLLBACK TO SAVEPOINT) close it. */
void ixc_note_txn_sql(ix_conn *c, const char *sql, size_t len) {
    ixb_tok t[3];
    ixb_sql_words(sql, len, t, 3);
    const ixb_tok *w = &t[0], *w2 = ixb_tok_is(&t[1], "WORK") ? &t[2] : &t[1];
    if (ixb_tok_is(w, "BEGIN"))
        c->in_txn = 1;
    else if (ixb_tok_is(w, "COMMIT"))
        ixc_txn_ended(c);
    else if (ixb_tok_is(w, "ROLLBACK") && !ixb_tok_is(w2, "TO"))
        ixc_txn_ended(c);
    else if (ixb_tok_is(w, "DATABASE") ||
             ((ixb_tok_is(w, "CLOSE") || ixb_tok_is(w, "CREATE") || ixb_tok_is(w, "DROP")) &&
              ixb_tok_is(w2, "DATABASE"))) {
        /* A new (or no) current database: autocommit is back on. */
        note_database(c, w, t);
        ixc_txn_ended(c);
        c->manual_commit = 0;
        ixc_cache_schema_changed(c);
        ixc_fp_forget(c); /* routine handles are the old database's */
    } else if (ixb_tok_is(w, "CREATE") || ixb_tok_is(w, "ALTER") || ixb_tok_is(w, "DROP") ||
               ixb_tok_is(w, "RENAME")) {
        ixc_cache_schema_changed(c); /* kept statements may describe what changed */
    } else if (ixb_tok_is(w, "SET") && (ixb_tok_is(w2, "ISOLATION") || ixb_tok_is(w2, "LOCK"))) {
        c->session_set = 1;
    }
}

static int txn_resync(ix_conn *c);

/* A COMMIT (message or SQL) failed with reply r: unless the reply already
 * settled the state (XACTSTAT, or an error that txn_from_err acted on), ask
 * the server. IX_OK or a connection error. */
static int after_failed_commit(ix_conn *c, const ixc_reply *r) {
    return c->in_txn && !r->has_xact ? txn_resync(c) : IX_OK;
}

int ixc_note_txn_failure(ix_conn *c, const char *sql, size_t len, const ixc_reply *r) {
    ixb_tok w;
    ixb_sql_words(sql, len, &w, 1);
    return ixb_tok_is(&w, "COMMIT") ? after_failed_commit(c, r) : IX_OK;
}

/* 1 if sql needs no transaction of its own: BEGIN, COMMIT, ROLLBACK,
 * SAVEPOINT, RELEASE SAVEPOINT, SET ..., DATABASE, CLOSE/CREATE/DROP
 * DATABASE. */
static int txn_neutral(const char *sql, size_t len) {
    ixb_tok t[2];
    ixb_sql_words(sql, len, t, 2);
    const ixb_tok *w = &t[0], *w2 = &t[1];
    static const char *const first[] = {"BEGIN", "COMMIT",   "ROLLBACK", "SAVEPOINT",
                                        "SET",   "DATABASE", "RELEASE"};
    for (size_t k = 0; k < sizeof first / sizeof first[0]; k++)
        if (ixb_tok_is(w, first[k])) return 1;
    return (ixb_tok_is(w, "CLOSE") || ixb_tok_is(w, "CREATE") || ixb_tok_is(w, "DROP")) &&
           ixb_tok_is(w2, "DATABASE");
}

static int txn_op(ix_conn *c, int tag, int opens);

int ixc_auto_begin(ix_conn *c, const char *sql, size_t n) {
    if (!c->manual_commit || c->in_txn || c->db_ansi) return IX_OK;
    if (sql && txn_neutral(sql, n)) return IX_OK;
    int rc = txn_op(c, IXP_SQ_BEGIN, 1);
    if (rc == IX_ESQL && c->st.sqlcode == IX_SQLCODE_ALREADY_IN_TXN) {
        ixc_clear_err(c); /* the server's transaction is the one wanted */
        return IX_OK;
    }
    return rc;
}

/* ---- one-shot execution and transactions ------------------------------------- */

static int simple_request(ix_conn *c, size_t mark, ixc_reply *r) {
    int rc = ixc_send_group(c, mark);
    if (rc == IX_OK) rc = ixc_drain(c);
    if (rc == IX_OK) rc = ixc_read_reply(c, r);
    return rc;
}

/* ix_exec; auto_begin 0 never starts a transaction (ix_set_isolation ...). */
static int exec_sql(ix_conn *c, const char *sql, int auto_begin) {
    if (!c || !sql) return c ? ixc_fail(c, IX_EMISUSE, "NULL SQL text") : IX_EMISUSE;
    if (c->st.dead) return ixc_dead_rc(c);
    ixc_clear_err(c);
    size_t n = strlen(sql);
    int rc;
    if (auto_begin && (rc = ixc_auto_begin(c, sql, n)) != IX_OK) return rc;
    size_t mark = ixc_mark(c);
    const char *wire = sql;
    size_t wn = n;
    rc = ixc_sql_to_db(c, sql, n, &wire, &wn);
    if (rc != IX_OK) return rc;
    ixp_enc_command(&c->st.out, &c->caps, wire, wn);
    ixp_enc_tag(&c->st.out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c->st.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c->st.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    ixc_reply r;
    memset(&r, 0, sizeof r);
    rc = simple_request(c, mark, &r);
    if (rc == IX_OK && r.sqlcode) rc = ixc_note_txn_failure(c, sql, n, &r);
    if (rc != IX_OK) return rc;
    if (r.sqlcode) return ixc_fail_sql(c, r.sqlcode, r.isamcode, r.offset, r.msg);
    c->changes = r.rows;
    if (r.serial || r.serial8 || r.bigserial) { /* this INSERT's values, 0 the other */
        c->serial = r.serial;
        c->serial8 = r.serial8 ? r.serial8 : r.bigserial;
    }
    ixc_note_txn_sql(c, sql, n);
    if (r.has_describe &&
        (r.stmt_type == IX_STMTTYPE_DATABASE || r.stmt_type == IX_STMTTYPE_CREATE_DB ||
         r.stmt_type == IX_STMTTYPE_START_DB)) {
        c->db_open = 1;
        /* The DONE of DATABASE carries the database's flags (1 logged,
         * 2 ANSI), as SQ_DBOPEN's does. */
        c->db_logged = r.done_warnings & 1;
        c->db_ansi = (r.done_warnings & 2) != 0;
    }
    return IX_OK;
}

int ix_exec(ix_conn *c, const char *sql) {
    return exec_sql(c, sql, 1);
}

/* Sends one BEGIN / COMMIT / ROLLBACK message and reads its reply. */
static int txn_send(ix_conn *c, int tag, ixc_reply *r) {
    size_t mark = ixc_mark(c);
    ixp_enc_tag(&c->st.out, tag);
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    memset(r, 0, sizeof *r);
    return simple_request(c, mark, r);
}

/*
 * After a COMMIT failed without the server saying (no XACTSTAT, no code
 * above) whether its transaction survived, asks it: a BEGIN either opens
 * one (there was none: the server ended it) or fails with -535 (it is
 * still open). In autocommit mode the probe's own transaction is committed
 * at once (it is empty); in manual-commit mode it is kept, as the library
 * keeps one open there anyway. The connection's error record is untouched.
 */
static int txn_resync(ix_conn *c) {
    ixc_reply r;
    int rc = txn_send(c, IXP_SQ_BEGIN, &r);
    if (rc != IX_OK || r.sqlcode || c->manual_commit) return rc;
    c->in_txn = 1;
    rc = txn_send(c, IXP_SQ_CMMTWORK, &r);
    if (rc == IX_OK && !r.sqlcode) ixc_txn_ended(c);
    return rc;
}

static int txn_op(ix_conn *c, int tag, int opens) {
    if (!c) return IX_EMISUSE;
    if (c->st.dead) return ixc_dead_rc(c);
    ixc_clear_err(c);
    ixc_reply r;
    int rc = txn_send(c, tag, &r);
    if (rc != IX_OK) return rc;
    if (r.sqlcode) {
        if (tag == IXP_SQ_RBWORK) ixc_txn_ended(c); /* a failed ROLLBACK leaves none open */
        if (tag == IXP_SQ_CMMTWORK && (rc = after_failed_commit(c, &r)) != IX_OK) return rc;
        return ixc_fail_sql(c, r.sqlcode, r.isamcode, r.offset, r.msg);
    }
    /* what the message did is known, whatever XACTSTAT's levels mean */
    if (opens)
        c->in_txn = 1;
    else
        ixc_txn_ended(c);
    return IX_OK;
}

int ix_begin(ix_conn *c) {
    return txn_op(c, IXP_SQ_BEGIN, 1);
}
int ix_commit(ix_conn *c) {
    return txn_op(c, IXP_SQ_CMMTWORK, 0);
}
/* SQ_RBWORK has one public source (libsqli): a server not known to take it
 * gets ROLLBACK WORK as SQL text (SQ_COMMAND, a verified form). */
int ix_rollback(ix_conn *c) {
    if (c && c->logged_in && !c->st.fast) {
        int rc = ix_exec(c, "rollback work");
        if (rc == IX_ESQL) ixc_txn_ended(c); /* a failed ROLLBACK leaves none open */
        return rc;
    }
    return txn_op(c, IXP_SQ_RBWORK, 0);
}

int ix_set_autocommit(ix_conn *c, int on) {
    if (!c) return IX_EMISUSE;
    if (c->st.dead) return ixc_dead_rc(c);
    ixc_clear_err(c);
    if (c->db_ansi) {
        if (on) return ixc_fail(c, IX_EINVAL, "an ANSI-mode database has no autocommit");
        return IX_OK;
    }
    if (on) {
        if (!c->manual_commit) return IX_OK;
        if (c->in_txn) {
            int rc = txn_op(c, IXP_SQ_CMMTWORK, 0);
            if (rc != IX_OK) return rc;
        }
        c->manual_commit = 0;
        return IX_OK;
    }
    if (c->manual_commit) return IX_OK;
    if (!c->in_txn) {
        int rc = txn_op(c, IXP_SQ_BEGIN, 1);
        if (rc != IX_OK) return rc;
    }
    c->manual_commit = 1;
    return IX_OK;
}

int ix_autocommit(const ix_conn *c) {
    if (!c) return -1;
    if (c->db_ansi || c->in_txn || c->manual_commit) return 0;
    return 1;
}

int ix_set_isolation(ix_conn *c, int level) {
    static const char *const sql[] = {
        NULL,
        "SET ISOLATION TO DIRTY READ",
        "SET ISOLATION TO COMMITTED READ",
        "SET ISOLATION TO CURSOR STABILITY",
        "SET ISOLATION TO REPEATABLE READ",
    };
    if (!c) return IX_EMISUSE;
    if (c->st.dead) return ixc_dead_rc(c);
    if (level < IX_ISO_DIRTY_READ || level > IX_ISO_REPEATABLE_READ)
        return ixc_fail(c, IX_EINVAL, "unknown isolation level %d", level);
    return exec_sql(c, sql[level], 0);
}

int ix_set_lock_wait(ix_conn *c, int seconds) {
    if (!c) return IX_EMISUSE;
    if (c->st.dead) return ixc_dead_rc(c);
    if (seconds < -1)
        return ixc_fail(c, IX_EINVAL, "lock wait must be -1, 0 or a number of seconds");
    char sql[64];
    if (seconds < 0)
        snprintf(sql, sizeof sql, "SET LOCK MODE TO WAIT");
    else if (seconds == 0)
        snprintf(sql, sizeof sql, "SET LOCK MODE TO NOT WAIT");
    else
        snprintf(sql, sizeof sql, "SET LOCK MODE TO WAIT %d", seconds);
    return exec_sql(c, sql, 0);
}

int ixc_in_txn(const ix_conn *c) {
    return c->in_txn;
}

unsigned ixc_txn_ends(const ix_conn *c) {
    return c->txn_ends;
}
