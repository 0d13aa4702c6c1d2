/*
 * ixs_trigger_stmt.c: the statement-level sections of triggers (BEFORE and
 * AFTER), which ixd runs itself around the triggering statement.
 *
 * SQLite has only row triggers, so the FOR EACH ROW section is a SQLite
 * trigger (ixs_trigger.c) and the BEFORE / AFTER clauses run here, from
 * ixd_execute, for every INSERT, UPDATE and DELETE, client or SPL, whether
 * or not it changes a row:
 *
 *   SAVEPOINT; BEFORE clauses; the statement (with its row triggers);
 *   AFTER clauses; RELEASE        (any failure: ROLLBACK TO, the error)
 *
 * Each clause is [WHEN (condition)] (action, ...); a condition runs as
 * "SELECT 1 FROM systables WHERE tabid = 1 AND (condition)", each action as
 * a statement of its own (so the statement-level triggers of the tables it
 * changes run too, cascaded up to TRG_MAX_CASCADE deep).
 *
 * The clauses are read from systriggers / systrigbody once per prepared
 * statement (UPDATE: the triggers whose UPDATE OF list names a column the
 * statement sets, or that have none) and kept in s->trg. They are read again
 * only when db->gen moved (DDL on this connection, transaction ends) or the
 * schema version did (CREATE / DROP TRIGGER on another connection: every
 * trigger leaves a SQLite object, see ixs_trigger.c). Inside a transaction
 * that already checked, nothing is read at all; outside one, the check is
 * one `PRAGMA schema_version` step, never a catalogue query.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_spl.h"

#define TRG_MAX_CASCADE 61 /* cascaded triggers (Informix's limit) */
#define TRG_SAVEPOINT   IXV_INTERNAL_PREFIX "trgs"

enum {
    IXS_E_TRG_CASCADE =
        IXV_E_TRIGGER_CASCADE, /* Exceeded limit on maximum number of cascaded triggers. */
};

typedef struct tclause {
    char phase;  /* TRG_BEFORE, TRG_AFTER */
    char *when;  /* the condition as a query, or NULL */
    char **acts; /* Informix text of each action */
    int nact;
    int delim; /* read with DELIMIDENT (the trigger's, IXS_TRG_DELIM_KEY) */
} tclause;

struct trg_stmt {
    int loaded;
    uint64_t gen;
    int schema;      /* PRAGMA schema_version when loaded */
    int txn_checked; /* checked inside the explicit transaction of gen */
    sqlite3_stmt *sv;
    tclause *c;
    int n;
    int open; /* the savepoint of a running statement */
};

static _Thread_local int cascade_depth;

static void clauses_free(trg_stmt *t) {
    for (int i = 0; i < t->n; i++) {
        free(t->c[i].when);
        for (int k = 0; k < t->c[i].nact; k++)
            free(t->c[i].acts[k]);
        free(t->c[i].acts);
    }
    free(t->c);
    t->c = NULL;
    t->n = 0;
    t->loaded = 0;
}

void ixs_trg_stmt_free(ixs_stmt *s) {
    if (!s->trg) return;
    clauses_free(s->trg);
    sqlite3_finalize(s->trg->sv);
    free(s->trg);
    s->trg = NULL;
}

static char event_of(int stype) {
    switch (stype) {
    case IX_STMTTYPE_INSERT: return 'I';
    case IX_STMTTYPE_UPDATE:
    case IX_STMTTYPE_UPDATE_ALL: return 'U';
    case IX_STMTTYPE_DELETE:
    case IX_STMTTYPE_DELETE_ALL: return 'D';
    }
    return 0;
}

/* ---- loading ------------------------------------------------------------------------ */

/* Lexes text into p with DELIMIDENT delim (the trigger's own). */
static int lex_text(ixs_conn *db, const char *text, int delim, px *p, ixv_err *err) {
    memset(p, 0, sizeof *p);
    p->db = db;
    p->sql = text;
    p->n = strlen(text);
    p->err = err;
    int was = db->delimident;
    db->delimident = delim;
    int rc = ixs_lex(p);
    db->delimident = was;
    return rc;
}

static void px_done(px *p) {
    free(p->t);
    free(p->ptypes);
}

/* 1 when the UPDATE s fires a trigger whose header is head: it has no
 * UPDATE OF list, or the list names a column s sets. */
static int update_fires(ixs_stmt *s, const char *head, int delim, ixv_err *err) {
    px p;
    if (lex_text(s->db, head, delim, &p, err)) {
        px_done(&p);
        return -1;
    }
    int i = 0, fires = 1;
    while (i < p.nt && p.t[i].k != T_EOF && !ixs_px_kw(&p, i, IXK_UPDATE))
        i++;
    if (ixs_px_kw(&p, i + 1, IXK_OF)) {
        fires = 0;
        for (p.i = i + 2; p.i < p.nt && !ixs_px_kw(&p, p.i, IXK_ON) && !fires;) {
            char c[IXS_NAME_MAX + 1];
            if (ixs_px_ident(&p, c, sizeof c)) break;
            for (int k = 0; k < s->ncols && !fires; k++)
                fires = !strcmp(s->cols[k].name, c);
            ixs_px_acc_op(&p, ",");
        }
    }
    px_done(&p);
    return fires;
}

static char *tok_text(px *p, trg_range r, int bare) {
    const tok *a = &p->t[r.a], *b = &p->t[r.b - 1];
    sb o = {0};
    ixv_sb_addn(&o, p->sql + a->pos, (size_t)(b->pos + b->len - a->pos));
    if (bare) ixv_sb_add(&o, "()");
    return ixv_sb_take(&o);
}

/* The statement-level clauses of the actions text body into t. */
static int add_clauses(trg_stmt *t, ixs_conn *db, const char *body, int delim, ixv_err *err) {
    px p;
    trg_body *b = malloc(sizeof *b);
    if (!b) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    int rc = lex_text(db, body, delim, &p, err) || ixs_trg_parse_body(&p, b) ? -1 : 0;
    for (int i = 0; !rc && i < b->n; i++) {
        const trg_clause *c = &b->c[i];
        if (c->phase == TRG_ROW) continue;
        tclause *n = realloc(t->c, sizeof *t->c * (size_t)(t->n + 1));
        if (!n) {
            rc = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
            break;
        }
        t->c = n;
        tclause *x = &t->c[t->n++];
        memset(x, 0, sizeof *x);
        x->phase = c->phase;
        x->delim = delim;
        x->acts = calloc((size_t)c->nact, sizeof *x->acts);
        if (!x->acts) rc = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
        if (!rc && c->when.b > c->when.a) {
            char *w = tok_text(&p, c->when, 0);
            sb q = {0};
            ixv_sb_add(&q, "SELECT 1 FROM systables WHERE tabid = 1 AND (");
            ixv_sb_add(&q, w ? w : "");
            ixv_sb_addc(&q, ')');
            free(w);
            x->when = ixv_sb_take(&q);
            if (!x->when) rc = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
        }
        for (int k = 0; !rc && k < c->nact; k++) {
            x->acts[k] = tok_text(&p, c->act[k], c->bare[k]);
            if (!x->acts[k]) rc = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
            x->nact = k + 1;
        }
    }
    free(b);
    px_done(&p);
    return rc;
}

/* Reads the triggers of s's table and event: 0 or -1 with *err. */
static int load(ixs_stmt *s, trg_stmt *t, ixv_err *err) {
    ixs_conn *db = s->db;
    clauses_free(t);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT t.trigid, b.datakey, b.data, " IXS_TRG_DELIM_SQL
                           " FROM systriggers t JOIN "
                           "_ixd_tables x ON x.tabid = t.tabid JOIN systrigbody b ON b.trigid = "
                           "t.trigid WHERE x.tabname = ? AND t.event = ? AND b.datakey IN "
                           "('A', 'D') ORDER BY t.trigid, b.datakey, b.seqno",
                           -1, &st, NULL) != SQLITE_OK)
        return 0; /* a file without the trigger catalogue: no triggers */
    char ev[2] = {event_of(s->stype), 0};
    sqlite3_bind_text(st, 1, s->table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, ev, -1, SQLITE_STATIC);
    sb body = {0}, head = {0};
    int id = 0, rc = 0, step, delim = 0;
    for (;;) {
        step = sqlite3_step(st);
        int nid = step == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
        if (id && nid != id) { /* one trigger read: take its clauses */
            int f = ev[0] != 'U' ? 1 : update_fires(s, head.p ? head.p : "", delim, err);
            if (body.oom || head.oom) f = ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
            if (f < 0 || (f && add_clauses(t, db, body.p ? body.p : "", delim, err))) rc = -1;
            body.n = head.n = 0;
            if (body.p) body.p[0] = 0;
            if (head.p) head.p[0] = 0;
        }
        if (step != SQLITE_ROW || rc) break;
        id = nid;
        delim = sqlite3_column_int(st, 3);
        const char *key = (const char *)sqlite3_column_text(st, 1);
        const char *data = (const char *)sqlite3_column_text(st, 2);
        ixv_sb_add(key && key[0] == 'D' ? &head : &body, data ? data : "");
    }
    if (!rc && step != SQLITE_DONE) rc = ixs_sqlite_err(db, step, s->stype, s->table, err);
    sqlite3_finalize(st);
    ixv_sb_free(&body);
    ixv_sb_free(&head);
    if (!rc) t->loaded = 1;
    return rc;
}

static int schema_version(ixs_conn *db, trg_stmt *t) {
    if (!t->sv && sqlite3_prepare_v2(db->h, "PRAGMA schema_version", -1, &t->sv, NULL) != SQLITE_OK)
        return -1;
    int v = sqlite3_step(t->sv) == SQLITE_ROW ? sqlite3_column_int(t->sv, 0) : -1;
    sqlite3_reset(t->sv);
    return v;
}

/* s->trg up to date: 0 or -1 with *err. */
static int refresh(ixs_stmt *s, ixv_err *err) {
    ixs_conn *db = s->db;
    if (!s->trg && !(s->trg = calloc(1, sizeof *s->trg)))
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    trg_stmt *t = s->trg;
    if (t->loaded && t->gen == db->gen && t->txn_checked && db->in_txn) return 0;
    int sv = schema_version(db, t);
    if (t->loaded && t->gen == db->gen && t->schema == sv && sv >= 0) {
        t->txn_checked = db->in_txn;
        return 0;
    }
    t->gen = db->gen;
    t->schema = sv;
    t->txn_checked = db->in_txn;
    return load(s, t, err);
}

/* ---- running ------------------------------------------------------------------------ */

/* 1 when the query q returns a row, 0 not, -1 error. */
static int when_true(ixs_conn *db, const char *q, ixv_err *err) {
    ixs_stmt *w;
    if (ixs_prepare(db, q, strlen(q), &w, err)) return -1;
    int r = ixs_open(w, err);
    if (!r) {
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        r = ixs_fetch(w, &b, err);
        ixb_wbuf_free(&b);
    }
    ixs_stmt_free(w);
    return r;
}

static int run_action(ixs_conn *db, const char *text, ixv_err *err) {
    ixs_stmt *a;
    if (ixs_prepare(db, text, strlen(text), &a, err)) return -1;
    int64_t rows;
    int rc = ixs_stmt_is_cursor(a) ? ixs_open(a, err) : ixs_execute(a, &rows, err);
    if (!rc && ixs_stmt_is_cursor(a)) { /* EXECUTE FUNCTION: run it through */
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        while ((rc = ixs_fetch(a, &b, err)) > 0)
            ixb_wbuf_reset(&b);
        ixb_wbuf_free(&b);
    }
    ixs_stmt_free(a);
    return rc < 0 ? -1 : 0;
}

/* Runs the clauses of phase: 0 or -1 with *err. What the triggering
 * statement reports (serial values, rows) stays its own. */
static int run_phase(ixs_stmt *s, char phase, ixv_err *err) {
    ixs_conn *db = s->db;
    trg_stmt *t = s->trg;
    int64_t lr = db->last_rows, ls = db->last_serial, l8 = db->last_serial8,
            lb = db->last_bigserial;
    int64_t dl = db->deadline;
    int rc = 0;
    cascade_depth++;
    for (int i = 0; i < t->n && !rc; i++) {
        const tclause *c = &t->c[i];
        if (c->phase != phase) continue;
        int was = db->delimident; /* the clause is read with the trigger's */
        db->delimident = c->delim;
        int w = c->when ? when_true(db, c->when, err) : 1;
        if (w < 0) rc = -1;
        for (int k = 0; w > 0 && !rc && k < c->nact; k++)
            rc = run_action(db, c->acts[k], err);
        db->delimident = was;
    }
    cascade_depth--;
    db->deadline = dl;
    db->last_rows = lr;
    db->last_serial = ls;
    db->last_serial8 = l8;
    db->last_bigserial = lb;
    return rc;
}

static int has_phase(const trg_stmt *t) {
    for (int i = 0; i < t->n; i++)
        if (t->c[i].nact) return 1;
    return 0;
}

static void end_savepoint(ixs_stmt *s, int ok) {
    ixs_conn *db = s->db;
    if (!ok) sqlite3_exec(db->h, "ROLLBACK TO " TRG_SAVEPOINT, NULL, NULL, NULL);
    sqlite3_exec(db->h, "RELEASE " TRG_SAVEPOINT, NULL, NULL, NULL);
    db->nsavepoints--;
    s->trg->open = 0;
    ixs_txn_sync(db);
}

int ixs_trg_stmt_before(ixs_stmt *s, ixv_err *err) {
    if (!s->db || !event_of(s->stype)) return 0;
    if (refresh(s, err)) return -1;
    if (!has_phase(s->trg)) return 0;
    if (cascade_depth >= TRG_MAX_CASCADE) return ixv_seterr(err, IXS_E_TRG_CASCADE, 0, 0, NULL);
    if (ixs_exec(s->db, "SAVEPOINT " TRG_SAVEPOINT, err)) return -1;
    s->db->nsavepoints++;
    s->trg->open = 1;
    if (run_phase(s, TRG_BEFORE, err)) {
        end_savepoint(s, 0);
        return -1;
    }
    return 0;
}

int ixs_trg_stmt_after(ixs_stmt *s, int ok, ixv_err *err) {
    if (!s->trg || !s->trg->open) return ok ? 0 : -1;
    if (ok && run_phase(s, TRG_AFTER, err)) ok = 0;
    end_savepoint(s, ok);
    return ok ? 0 : -1;
}
