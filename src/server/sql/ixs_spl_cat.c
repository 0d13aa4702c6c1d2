/*
 * ixs_spl_cat.c: the catalogue of routines and triggers, and CREATE / DROP
 * PROCEDURE / FUNCTION / ROUTINE.
 *
 * The four catalogue tables are SQLite tables of those names (read only to
 * user SQL: their tabids are below 100), registered in _ixd_tables and
 * _ixd_columns with the Informix types:
 *   sysprocedures (16)  one row per routine
 *   sysprocbody   (17)  its text: datakey 'T' the CREATE statement, 'D' the
 *                       DOCUMENT text, in CHAR(256) pieces numbered from 1
 *   systriggers   (22)  one row per trigger
 *   systrigbody   (23)  datakey 'D' the header, 'A' the actions
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_spl.h"

#define BODY_CHUNK 256

typedef struct spcol {
    const char *name;
    int code;
    uint32_t len;
} spcol;

static const spcol c_sysprocedures[] = {
    {"procname", IX_T_VARCHAR, 128},     {"owner", IX_T_CHAR, 32},
    {"procid", IX_T_SERIAL, 4},          {"mode", IX_T_CHAR, 1},
    {"retsize", IX_T_INTEGER, 4},        {"symsize", IX_T_INTEGER, 4},
    {"datasize", IX_T_INTEGER, 4},       {"codesize", IX_T_INTEGER, 4},
    {"numargs", IX_T_SMALLINT, 2},       {"isproc", IX_T_CHAR, 1},
    {"specificname", IX_T_VARCHAR, 128}, {"externalname", IX_T_VARCHAR, 255},
    {"paramstyle", IX_T_CHAR, 1},        {"langid", IX_T_INTEGER, 4},
    {"paramtypes", IX_T_LVARCHAR, 2048}, {"variant", IX_T_BOOLEAN, 1},
    {"client", IX_T_BOOLEAN, 1},         {"handlesnulls", IX_T_BOOLEAN, 1},
    {"iterator", IX_T_BOOLEAN, 1},       {"percallcost", IX_T_INTEGER, 4},
    {"commutator", IX_T_VARCHAR, 128},   {"negator", IX_T_VARCHAR, 128},
    {"selfunc", IX_T_VARCHAR, 128},      {"internal", IX_T_BOOLEAN, 1},
    {"class", IX_T_VARCHAR, 128},        {"stack", IX_T_INTEGER, 4},
    {"parallelizable", IX_T_BOOLEAN, 1}, {"costfunc", IX_T_VARCHAR, 128},
    {"selconst", IX_T_SMALLFLOAT, 4},    {"collation", IX_T_CHAR, 32},
    {"procflags", IX_T_INTEGER, 4},      {NULL, 0, 0}};
static const spcol c_sysprocbody[] = {{"procid", IX_T_INTEGER, 4},
                                      {"datakey", IX_T_CHAR, 1},
                                      {"seqno", IX_T_INTEGER, 4},
                                      {"data", IX_T_CHAR, BODY_CHUNK},
                                      {NULL, 0, 0}};
static const spcol c_systriggers[] = {{"trigid", IX_T_SERIAL, 4},   {"trigname", IX_T_VARCHAR, 128},
                                      {"owner", IX_T_CHAR, 32},     {"tabid", IX_T_INTEGER, 4},
                                      {"event", IX_T_CHAR, 1},      {"old", IX_T_VARCHAR, 128},
                                      {"new", IX_T_VARCHAR, 128},   {"mode", IX_T_CHAR, 1},
                                      {"collation", IX_T_CHAR, 32}, {NULL, 0, 0}};
static const spcol c_systrigbody[] = {{"trigid", IX_T_INTEGER, 4},
                                      {"datakey", IX_T_CHAR, 1},
                                      {"seqno", IX_T_INTEGER, 4},
                                      {"data", IX_T_CHAR, BODY_CHUNK},
                                      {NULL, 0, 0}};

enum {
    TABID_SYSPROCEDURES = 16,
    TABID_SYSPROCBODY = 17,
    TABID_SYSTRIGGERS = 22,
    TABID_SYSTRIGBODY = 23
};

static const struct {
    const char *name;
    int tabid;
    const spcol *cols;
    const char *ddl;
} sp_tabs[] = {
    {"sysprocedures", TABID_SYSPROCEDURES, c_sysprocedures,
     "CREATE TABLE IF NOT EXISTS sysprocedures(procname TEXT, owner TEXT, procid INTEGER PRIMARY "
     "KEY, mode TEXT, retsize INTEGER, symsize INTEGER, datasize INTEGER, codesize INTEGER, "
     "numargs INTEGER, isproc TEXT, specificname TEXT, externalname TEXT, paramstyle TEXT, "
     "langid INTEGER, paramtypes TEXT, variant INTEGER, client INTEGER, handlesnulls INTEGER, "
     "iterator INTEGER, percallcost INTEGER, commutator TEXT, negator TEXT, selfunc TEXT, "
     "internal INTEGER, class TEXT, stack INTEGER, parallelizable INTEGER, costfunc TEXT, "
     "selconst REAL, collation TEXT, procflags INTEGER);"
     "CREATE INDEX IF NOT EXISTS " IXV_INTERNAL_PREFIX
     "procsig2 ON sysprocedures(procname, numargs);"},
    {"sysprocbody", TABID_SYSPROCBODY, c_sysprocbody,
     "CREATE TABLE IF NOT EXISTS sysprocbody(procid INTEGER, datakey TEXT, seqno INTEGER, data "
     "TEXT, PRIMARY KEY(procid, datakey, seqno));"},
    {"systriggers", TABID_SYSTRIGGERS, c_systriggers,
     "CREATE TABLE IF NOT EXISTS systriggers(trigid INTEGER PRIMARY KEY, trigname TEXT UNIQUE, "
     "owner TEXT, tabid INTEGER, event TEXT, old TEXT, new TEXT, mode TEXT, collation TEXT);"},
    {"systrigbody", TABID_SYSTRIGBODY, c_systrigbody,
     "CREATE TABLE IF NOT EXISTS systrigbody(trigid INTEGER, datakey TEXT, seqno INTEGER, data "
     "TEXT, PRIMARY KEY(trigid, datakey, seqno));"},
};

static int run(sqlite3 *h, const char *sql, ixv_err *err) {
    char *msg = NULL;
    int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        if (err) ixv_seterr(err, IXS_E_CREATE_DB, 0, 0, "%s", msg ? msg : "");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

int ixs_spl_cat_init(sqlite3 *h, ixv_err *err) {
    for (size_t i = 0; i < sizeof sp_tabs / sizeof sp_tabs[0]; i++) {
        if (run(h, sp_tabs[i].ddl, err)) return -1;
        sb q = {0};
        int ncol = 0;
        for (const spcol *c = sp_tabs[i].cols; c->name; c++)
            ixv_sb_printf(
                &q,
                "INSERT OR IGNORE INTO _ixd_columns(tabid,colno,colname,coltype,collength)"
                " VALUES(%d,%d,'%s',%d,%u);",
                sp_tabs[i].tabid, ++ncol, c->name, c->code, c->len);
        ixv_sb_printf(&q,
                      "INSERT OR IGNORE INTO _ixd_tables(tabid,tabname,owner,created,tabtype)"
                      " VALUES(%d,'%s','informix',CAST(julianday('now', 'localtime') -"
                      " julianday('1899-12-31') AS INTEGER),'T');",
                      sp_tabs[i].tabid, sp_tabs[i].name);
        int rc = q.oom ? -1 : run(h, q.p, err);
        ixv_sb_free(&q);
        if (rc) return -1;
    }
    return 0;
}

/* Routines overload by their parameters' types: a file made when a name was
 * unique (index procname), or unique with its number of parameters (the
 * unique index procsig), gets the plain (name, numargs) index instead (best
 * effort; CREATE checks the signatures). */
static void upgrade_overloading(sqlite3 *h) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h,
                           "SELECT 1 FROM sqlite_master WHERE name IN ('" IXV_INTERNAL_PREFIX
                           "procname', '" IXV_INTERNAL_PREFIX "procsig')",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    int old = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    if (!old || sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return;
    if (sqlite3_exec(h,
                     "DROP INDEX IF EXISTS " IXV_INTERNAL_PREFIX
                     "procname; DROP INDEX IF EXISTS " IXV_INTERNAL_PREFIX
                     "procsig; CREATE INDEX IF NOT EXISTS " IXV_INTERNAL_PREFIX
                     "procsig2 ON sysprocedures(procname, numargs); COMMIT",
                     NULL, NULL, NULL) != SQLITE_OK &&
        !sqlite3_get_autocommit(h))
        sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

void ixs_spl_cat_upgrade(sqlite3 *h) {
    upgrade_overloading(h);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, "SELECT 1 FROM sqlite_master WHERE name = 'systrigbody'", -1, &st,
                           NULL) != SQLITE_OK)
        return;
    int have = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    if (have || sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return;
    if (ixs_spl_cat_init(h, NULL) == 0 && sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return;
    if (!sqlite3_get_autocommit(h)) sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

int ixs_spl_cat_put_body(ixs_conn *db, const char *table, int id, const char *key, const char *text,
                         size_t n, ixv_err *err) {
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO %s VALUES(?, ?, ?, ?)", table);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return ixs_sqlite_err(db, rc, IX_STMTTYPE_CREATE_PROC, table, err);
    int seq = 0;
    for (size_t off = 0; off < n || (n == 0 && seq == 0); off += BODY_CHUNK) {
        size_t len = n - off < BODY_CHUNK ? n - off : BODY_CHUNK;
        sqlite3_bind_int(st, 1, id);
        sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, ++seq);
        sqlite3_bind_text(st, 4, text + off, (int)len, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE) {
            sqlite3_finalize(st);
            return ixs_sqlite_err(db, rc, IX_STMTTYPE_CREATE_PROC, table, err);
        }
        if (n == 0) break;
    }
    sqlite3_finalize(st);
    return 0;
}

/* ---- overloading ------------------------------------------------------------------- */

/* The types of a paramtypes text ("integer,char(15)") into t (at most max):
 * their number, -1 when the text does not read as types. */
static int sig_types(ixs_conn *db, const char *text, ityp *t, int max) {
    px p;
    ixv_err e;
    memset(&p, 0, sizeof p);
    memset(&e, 0, sizeof e);
    p.db = db;
    p.sql = text;
    p.n = strlen(text);
    p.err = &e;
    int n = 0;
    if (ixs_lex(&p)) n = -1;
    while (n >= 0 && p.i < p.nt && p.t[p.i].k != T_EOF) {
        int serial;
        int64_t st;
        uint32_t cl;
        if (n == max || ixs_parse_type(&p, &t[n], &serial, &st, &cl) ||
            (!ixs_px_acc_op(&p, ",") && p.t[p.i].k != T_EOF))
            n = -1;
        else
            n++;
    }
    free(p.t);
    free(p.ptypes);
    return n;
}

/* The same signature: the same type codes (lengths and precisions apart). */
static int same_sig(const ityp *a, const ityp *b, int n) {
    for (int k = 0; k < n; k++)
        if (a[k].code != b[k].code) return 0;
    return 1;
}

static int is_char(int code) {
    return code == IX_T_CHAR || code == IX_T_VARCHAR || code == IX_T_NCHAR ||
           code == IX_T_NVARCHAR || code == IX_T_LVARCHAR;
}

/* The numeric types in the order a value widens through them (0: not numeric). */
static int num_rank(int code) {
    static const int order[] = {IX_T_SMALLINT, IX_T_INTEGER, IX_T_INT8,       IX_T_BIGINT,
                                IX_T_DECIMAL,  IX_T_MONEY,   IX_T_SMALLFLOAT, IX_T_FLOAT};
    if (code == IX_T_SERIAL) code = IX_T_INTEGER;
    if (code == IX_T_SERIAL8) code = IX_T_INT8;
    if (code == IX_T_BIGSERIAL) code = IX_T_BIGINT;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (order[k] == code) return (int)k + 1;
    return 0;
}

/* What passing a value of type a to a parameter of type p costs: 0 the same
 * type, then another character type, a wider number, a narrower number,
 * through text; a value of unknown type (NULL, a placeholder) the same for
 * every parameter. */
static int type_cost(ityp a, ityp p) {
    enum { SAME = 0, CHARS = 1, WIDER = 2, NARROWER = 10, TEXT = 20, OTHER = 30, UNKNOWN = 40 };
    if (a.code < 0) return UNKNOWN;
    if (a.code == p.code) return SAME;
    if (is_char(a.code) && is_char(p.code)) return CHARS;
    int ra = num_rank(a.code), rp = num_rank(p.code);
    if (ra && rp) return rp > ra ? WIDER + rp - ra : NARROWER + ra - rp;
    if (is_char(a.code) || is_char(p.code)) return TEXT;
    return OTHER;
}

int ixs_spl_cat_pick(ixs_conn *db, const char *name, int nargs, const ityp *argt, char **sig,
                     ixv_err *err) {
    *sig = NULL;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->h,
                                "SELECT numargs, paramtypes FROM sysprocedures WHERE procname = ?1 "
                                "AND numargs >= ?2 ORDER BY numargs <> ?2, numargs, procid",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) return ixs_sqlite_err(db, rc, IX_STMTTYPE_EXECUTE_PROC, NULL, err);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, nargs < 0 ? 0 : nargs);
    int found = 0, first_n = -1, best = -1, ties = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = sqlite3_column_int(st, 0);
        if (found && n != first_n) break; /* only routines of the chosen count */
        first_n = n;
        found++;
        const char *pt = (const char *)sqlite3_column_text(st, 1);
        ityp t[SPL_MAX_ARGS];
        int cost = 0;
        if (sig_types(db, pt ? pt : "", t, SPL_MAX_ARGS) == n)
            for (int k = 0; argt && k < nargs && k < n; k++)
                cost += type_cost(argt[k], t[k]);
        if (best >= 0 && cost > best) continue;
        ties = best == cost ? ties + 1 : 0;
        if (best < 0 || cost < best) {
            best = cost;
            free(*sig);
            *sig = strdup(pt ? pt : "");
            if (!*sig) rc = SQLITE_NOMEM;
        }
        if (rc == SQLITE_NOMEM) break;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        free(*sig);
        *sig = NULL;
        return rc == SQLITE_NOMEM ? ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL)
                                  : ixs_sqlite_err(db, rc, IX_STMTTYPE_EXECUTE_PROC, NULL, err);
    }
    if (found <= 1 || ties) { /* the count alone decides, or nothing does */
        free(*sig);
        *sig = NULL;
        if (ties) return ixv_seterr(err, IXS_E_SPL_AMBIGUOUS, 0, 0, "%s", name);
    }
    return found ? 1 : 0;
}

int ixs_spl_cat_find(ixs_conn *db, const char *name, int nargs, const char *sig, int *procid,
                     char **text, int *procflags, ixv_err *err) {
    sqlite3_stmt *st;
    *procid = 0;
    if (text) *text = NULL;
    int rc = sqlite3_prepare_v2(
        db->h,
        "SELECT p.procid, b.data, p.procflags FROM sysprocedures p LEFT JOIN sysprocbody b ON "
        "b.procid = "
        "p.procid AND b.datakey = 'T' WHERE p.procid = (SELECT procid FROM sysprocedures WHERE "
        "procname = ?1 AND (?2 < 0 OR numargs >= ?2) AND (?3 IS NULL OR paramtypes = ?3) "
        "ORDER BY numargs <> ?2, numargs, procid LIMIT 1) ORDER BY b.seqno",
        -1, &st, NULL);
    if (rc != SQLITE_OK) return ixs_sqlite_err(db, rc, IX_STMTTYPE_EXECUTE_PROC, NULL, err);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, nargs);
    if (sig) sqlite3_bind_text(st, 3, sig, -1, SQLITE_STATIC);
    sb b = {0};
    int found = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        found = 1;
        *procid = sqlite3_column_int(st, 0);
        if (procflags) *procflags = sqlite3_column_int(st, 2);
        const char *d = (const char *)sqlite3_column_text(st, 1);
        if (d) ixv_sb_addn(&b, d, (size_t)sqlite3_column_bytes(st, 1));
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        ixv_sb_free(&b);
        return ixs_sqlite_err(db, rc, IX_STMTTYPE_EXECUTE_PROC, NULL, err);
    }
    if (b.oom) {
        ixv_sb_free(&b);
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    if (text && found)
        *text = b.p ? ixv_sb_take(&b) : strdup("");
    else
        ixv_sb_free(&b);
    if (text && found && !*text) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    return found;
}

/* "integer,char(15)" */
static void param_types(const spl_rt *r, sb *out) {
    for (int k = 0; k < r->nparams; k++) {
        char tn[64];
        ixv_type_text(r->vars[k].t, tn, sizeof tn);
        for (char *c = tn; *c; c++)
            *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        if (k) ixv_sb_addc(out, ',');
        ixv_sb_add(out, tn);
    }
    if (!out->p) ixv_sb_addn(out, "", 0);
}

static int insert_proc(px *p, const spl_rt *r, int procid, const char *text, size_t n) {
    ixs_conn *db = p->db;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(
        db->h,
        "INSERT INTO sysprocedures(procname, owner, procid, mode, retsize, symsize, datasize, "
        "codesize, numargs, isproc, specificname, externalname, paramstyle, langid, paramtypes, "
        "variant, client, handlesnulls, iterator, percallcost, commutator, negator, selfunc, "
        "internal, class, stack, parallelizable, costfunc, selconst, collation, procflags) "
        "VALUES(?1, ?2, ?3, ?4, ?5, 0, 0, ?6, ?7, ?8, ?9, NULL, 'I', 2, ?10, ?11, 0, ?12, 0, 0, "
        "NULL, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, 'en_US.819', ?13)",
        -1, &st, NULL);
    if (rc != SQLITE_OK) return ixs_sqlite_err(db, rc, IX_STMTTYPE_CREATE_PROC, NULL, p->err);
    sb pt = {0};
    param_types(r, &pt);
    const char *owner = r->owner[0] ? r->owner : db->user;
    sqlite3_bind_text(st, 1, r->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, owner, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, procid);
    sqlite3_bind_text(st, 4, r->dba ? "D" : "O", -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, r->nret);
    sqlite3_bind_int64(st, 6, (int64_t)n);
    sqlite3_bind_int(st, 7, r->nparams);
    sqlite3_bind_text(st, 8, r->isproc ? "t" : "f", -1, SQLITE_STATIC);
    if (r->specific[0]) sqlite3_bind_text(st, 9, r->specific, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, pt.p ? pt.p : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 11, r->variant);
    sqlite3_bind_int(st, 12, r->handlesnulls);
    sqlite3_bind_int(st, 13, r->delimident ? IXS_PROCFLAG_DELIMIDENT : 0);
    rc = pt.oom ? SQLITE_NOMEM : sqlite3_step(st);
    sqlite3_finalize(st);
    ixv_sb_free(&pt);
    if (rc != SQLITE_DONE) return ixs_sqlite_err(db, rc, IX_STMTTYPE_CREATE_PROC, NULL, p->err);
    if (ixs_spl_cat_put_body(db, "sysprocbody", procid, "T", text, n, p->err)) return -1;
    if (r->document && ixs_spl_cat_put_body(db, "sysprocbody", procid, "D", r->document,
                                            strlen(r->document), p->err))
        return -1;
    return 0;
}

static int next_id(ixs_conn *db, const char *sql) {
    sqlite3_stmt *st;
    int id = 1;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) id = sqlite3_column_int(st, 0) + 1;
        sqlite3_finalize(st);
    }
    return id;
}

/* The routines of name with exactly nargs parameters (name NULL: the one of
 * specific name spec; nargs -1: any count), of those types when types is
 * not NULL (their codes, lengths apart): their number (-1 error), the
 * first's procid in *procid. */
static int routine_id(ixs_conn *db, const char *name, int nargs, const ityp *types,
                      const char *spec, int *procid) {
    sqlite3_stmt *st;
    *procid = 0;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT procid, paramtypes FROM sysprocedures WHERE (?1 IS NULL OR "
                           "procname = ?1) AND (?2 < 0 OR numargs = ?2) AND (?3 IS NULL OR "
                           "specificname = ?3) ORDER BY procid",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (name) sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, nargs);
    if (spec) sqlite3_bind_text(st, 3, spec, -1, SQLITE_STATIC);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        ityp t[SPL_MAX_ARGS];
        const char *pt = (const char *)sqlite3_column_text(st, 1);
        if (types && nargs > 0 &&
            (sig_types(db, pt ? pt : "", t, SPL_MAX_ARGS) != nargs || !same_sig(t, types, nargs)))
            continue;
        if (!n++) *procid = sqlite3_column_int(st, 0);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? n : -1;
}

static void routine_name(ixs_conn *db, int procid, char *name, size_t n) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT procname FROM sysprocedures WHERE procid = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int(st, 1, procid);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(name, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

/* CREATE PROCEDURE / FUNCTION, parsed: the routine and where its text is. */
typedef struct spl_create {
    spl_rt *r;
    int ine;        /* IF NOT EXISTS */
    int start, end; /* the statement's text (the routine's, for sysprocbody) */
} spl_create;

static void spl_create_free(void *tree) {
    spl_create *c = tree;
    ixs_spl_rt_free(c->r);
    free(c);
}

static int spl_create_run(px *p, const void *tree) {
    const spl_create *c = tree;
    spl_rt *r = c->r;
    int procid;
    ityp t[SPL_MAX_ARGS];
    for (int k = 0; k < r->nparams; k++)
        t[k] = r->vars[k].t;
    int f = routine_id(p->db, r->name, r->nparams, t, NULL, &procid);
    if (f < 0) {
        p->failed = 1;
        return -1;
    }
    if (f) return c->ine ? 0 : ixs_px_failc(p, IXS_E_SPL_EXISTS, "%s", r->name);
    if (ixs_ddl_begin(p)) return -1;
    procid = next_id(p->db, "SELECT max(procid) FROM sysprocedures");
    int ok = insert_proc(p, r, procid, p->sql + c->start, (size_t)(c->end - c->start)) == 0;
    if (!ok) p->failed = 1;
    int rc = ixs_ddl_end(p, ok);
    ixs_spl_forget(p->db, r->name);
    return rc;
}

int ixs_spl_create_stmt(px *p, int *stype, ixs_plan *pl) {
    if (!ixs_px_kw(p, p->i, IXK_DBA) && !ixs_px_kw(p, p->i, IXK_PROCEDURE) &&
        !ixs_px_kw(p, p->i, IXK_FUNCTION))
        return 0;
    p->i--; /* at CREATE */
    *stype = IX_STMTTYPE_CREATE_PROC;
    spl_create c = {0};
    c.start = p->t[p->i].pos;
    c.ine = ixs_px_kw(p, p->i + 1, IXK_IF) ||
            (ixs_px_kw(p, p->i + 2, IXK_IF) && ixs_px_kw(p, p->i + 1, IXK_DBA));
    if (ixs_spl_parse_create(p, &c.r)) return -1;
    c.end = p->t[p->i - 1].pos + p->t[p->i - 1].len;
    if (ixs_plan_keep(p, pl, &c, sizeof c, spl_create_run, spl_create_free)) {
        ixs_spl_rt_free(c.r);
        return -1;
    }
    return 1;
}

/* DROP PROCEDURE / FUNCTION / ROUTINE, parsed */
typedef struct spl_drop {
    char name[IXS_NAME_MAX + 1];
    int specific; /* name is a specific name */
    int ife;      /* IF EXISTS */
    int nargs;    /* the parameter types given: their number, else -1 */
    ityp types[SPL_MAX_ARGS];
} spl_drop;

static int spl_drop_run(px *p, const void *tree) {
    const spl_drop *d = tree;
    char name[IXS_NAME_MAX + 1];
    snprintf(name, sizeof name, "%s", d->name);
    int procid;
    int f = routine_id(p->db, d->specific ? NULL : name, d->nargs, d->nargs > 0 ? d->types : NULL,
                       d->specific ? name : NULL, &procid);
    if (f < 0) {
        p->failed = 1;
        return -1;
    }
    if (f > 1) return ixs_px_failc(p, IXS_E_SPL_AMBIGUOUS, "%s", name);
    if (!f) return d->ife ? 0 : ixs_px_failc(p, IXS_E_SPL_UNRESOLVED, "%s", name);
    if (d->specific) routine_name(p->db, procid, name, sizeof name);
    if (ixs_ddl_begin(p)) return -1;
    char sql[160];
    snprintf(sql, sizeof sql,
             "DELETE FROM sysprocbody WHERE procid = %d; DELETE FROM sysprocedures WHERE procid "
             "= %d;",
             procid, procid);
    int ok = ixs_exec(p->db, sql, p->err) == 0;
    if (!ok) p->failed = 1;
    ixs_spl_forget(p->db, name);
    return ixs_ddl_end(p, ok);
}

/* DROP { PROCEDURE | FUNCTION | ROUTINE } [IF EXISTS] [owner.]name [( [type, ...] )]
 * | DROP SPECIFIC { PROCEDURE | FUNCTION | ROUTINE } [IF EXISTS] [owner.]specific_name,
 * after DROP. Without the types, a name of several routines is -9700. */
int ixs_spl_drop_stmt(px *p, int *stype, ixs_plan *pl) {
    if (!ixs_px_kw(p, p->i, IXK_PROCEDURE) && !ixs_px_kw(p, p->i, IXK_FUNCTION) &&
        !ixs_px_kw(p, p->i, IXK_ROUTINE) && !ixs_px_kw(p, p->i, IXK_SPECIFIC))
        return 0;
    *stype = IX_STMTTYPE_DROP_PROC;
    spl_drop d = {0};
    d.specific = ixs_px_acc(p, IXK_SPECIFIC);
    if (d.specific && !ixs_px_acc(p, IXK_PROCEDURE) && !ixs_px_acc(p, IXK_FUNCTION) &&
        ixs_px_expect(p, IXK_ROUTINE))
        return -1;
    if (!d.specific) p->i++; /* PROCEDURE | FUNCTION | ROUTINE */
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_EXISTS)) return -1;
        d.ife = 1;
    }
    if (ixs_px_ident(p, d.name, sizeof d.name)) return -1;
    if (ixs_px_acc_op(p, ".") && ixs_px_ident(p, d.name, sizeof d.name)) return -1;
    d.nargs = -1;
    if (!d.specific && ixs_px_acc_op(p, "(")) {
        d.nargs = 0;
        if (!ixs_px_acc_op(p, ")")) {
            do {
                int serial;
                int64_t st;
                uint32_t cl;
                if (d.nargs == SPL_MAX_ARGS) return ixs_px_fail(p);
                if (ixs_parse_type(p, &d.types[d.nargs], &serial, &st, &cl)) return -1;
                d.nargs++;
            } while (ixs_px_acc_op(p, ","));
            if (ixs_px_expect_op(p, ")")) return -1;
        }
    }
    return ixs_plan_keep(p, pl, &d, sizeof d, spl_drop_run, NULL) ? -1 : 1;
}
