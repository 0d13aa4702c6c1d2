/* ixs_seq.c: sequences. CREATE/ALTER/DROP/RENAME SEQUENCE (parsed into a
 * seqdef, then run), seq.NEXTVAL and seq.CURRVAL in expressions, the SQL
 * functions behind them, and the catalog of this file group (sequences and
 * synonyms: _ixd_sequences, _ixd_syntable and the Informix views).
 *
 * Where the values come from. A sequence's definition is catalog data in the
 * database file (transactional, like all DDL). Its counter is not: NEXTVAL is
 * not undone by ROLLBACK, and a session inside a transaction (reading an old
 * snapshot, or holding the write lock) must still get a value no other session
 * ever gets. So the counter lives in a second SQLite file beside the database,
 * DIR/<db>.db-seq, table seqstate(seqid, token, last), and every NEXTVAL is one
 * short write transaction on that file through the session's own connection
 * to it (BEGIN IMMEDIATE: sessions and processes take turns). The token ties a
 * counter to one definition: CREATE and ALTER ... RESTART give the definition
 * a new random token, and a counter whose token differs starts again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_objs.h"

#define SEQ_FILE_SUFFIX "-seq"
#define SEQ_BUSY_MS     10000
#define SEQ_MAX_DEF     INT64_MAX    /* NOMAXVALUE of an ascending sequence */
#define SEQ_MIN_DEF     (-INT64_MAX) /* NOMINVALUE of a descending sequence */
#define SEQ_CACHE_DEF   20
#define SEQ_TABID_SYN   9  /* syssynonyms */
#define SEQ_TABID_SYNT  10 /* syssyntable */
#define SEQ_TABID_SEQ   47 /* syssequences */

/* ---- catalog --------------------------------------------------------------------- */

static const char *objs_ddl =
    "CREATE TABLE IF NOT EXISTS " IXV_INTERNAL_PREFIX "sequences(seqid INTEGER PRIMARY KEY,"
    " tabid INTEGER UNIQUE, start_val INTEGER, inc_val INTEGER, max_val INTEGER,"
    " min_val INTEGER, cycle TEXT, restart_val INTEGER, cache INTEGER, seqorder TEXT,"
    " token INTEGER);"
    "CREATE TABLE IF NOT EXISTS " IXV_INTERNAL_PREFIX "syntable(tabid INTEGER PRIMARY KEY,"
    " owner TEXT, tabname TEXT, btabid INTEGER);"
    "CREATE VIEW IF NOT EXISTS syssequences AS SELECT seqid, tabid, start_val, inc_val,"
    " max_val, min_val, cycle, restart_val, cache, seqorder AS \"order\" FROM " IXV_INTERNAL_PREFIX
    "sequences;"
    "CREATE VIEW IF NOT EXISTS syssyntable AS SELECT tabid, NULL AS servername, NULL AS dbname,"
    " owner, tabname, btabid FROM " IXV_INTERNAL_PREFIX "syntable;"
    "CREATE VIEW IF NOT EXISTS syssynonyms AS SELECT t.owner AS owner, t.tabname AS synname,"
    " t.created AS created, s.btabid AS tabid FROM " IXV_INTERNAL_PREFIX
    "syntable s JOIN " IXV_INTERNAL_PREFIX "tables t ON t.tabid = s.tabid;";

typedef struct ocatcol {
    const char *name;
    int code;
    uint32_t len;
} ocatcol;
static const ocatcol c_syssequences[] = {{"seqid", IX_T_SERIAL, 4},
                                         {"tabid", IX_T_INTEGER, 4},
                                         {"start_val", IX_T_INT8, 10},
                                         {"inc_val", IX_T_INT8, 10},
                                         {"max_val", IX_T_INT8, 10},
                                         {"min_val", IX_T_INT8, 10},
                                         {"cycle", IX_T_CHAR, 1},
                                         {"restart_val", IX_T_INT8, 10},
                                         {"cache", IX_T_INTEGER, 4},
                                         {"order", IX_T_CHAR, 1},
                                         {NULL, 0, 0}};
static const ocatcol c_syssyntable[] = {{"tabid", IX_T_INTEGER, 4},
                                        {"servername", IX_T_VARCHAR, 128},
                                        {"dbname", IX_T_VARCHAR, 128},
                                        {"owner", IX_T_CHAR, 32},
                                        {"tabname", IX_T_VARCHAR, 128},
                                        {"btabid", IX_T_INTEGER, 4},
                                        {NULL, 0, 0}};
static const ocatcol c_syssynonyms[] = {{"owner", IX_T_CHAR, 32},
                                        {"synname", IX_T_VARCHAR, 128},
                                        {"created", IX_T_DATE, 4},
                                        {"tabid", IX_T_INTEGER, 4},
                                        {NULL, 0, 0}};
static const struct {
    const char *name;
    int tabid;
    const ocatcol *cols;
} objs_tabs[] = {{"syssynonyms", SEQ_TABID_SYN, c_syssynonyms},
                 {"syssyntable", SEQ_TABID_SYNT, c_syssyntable},
                 {"syssequences", SEQ_TABID_SEQ, c_syssequences}};

int ixs_objs_cat_init(sqlite3 *h) {
    sb q = {0};
    ixv_sb_add(&q, objs_ddl);
    for (size_t i = 0; i < sizeof objs_tabs / sizeof objs_tabs[0]; i++) {
        int ncol = 0;
        for (const ocatcol *c = objs_tabs[i].cols; c->name; c++)
            ixv_sb_printf(
                &q,
                "INSERT OR IGNORE INTO " IXV_INTERNAL_PREFIX
                "columns(tabid,colno,colname,coltype,collength) VALUES(%d,%d,'%s',%d,%u);",
                objs_tabs[i].tabid, ++ncol, c->name, c->code, c->len);
        ixv_sb_printf(
            &q,
            "INSERT OR IGNORE INTO " IXV_INTERNAL_PREFIX
            "tables(tabid,tabname,owner,created,tabtype) VALUES(%d,'%s','informix',%d,'T');",
            objs_tabs[i].tabid, objs_tabs[i].name, (int)ixv_today());
    }
    int rc = q.oom ? SQLITE_NOMEM : sqlite3_exec(h, q.p, NULL, NULL, NULL);
    ixv_sb_free(&q);
    return rc;
}

void ixs_objs_cat_upgrade(sqlite3 *h) {
    sqlite3_stmt *st;
    int have = 0;
    if (sqlite3_prepare_v2(
            h, "SELECT 1 FROM sqlite_master WHERE name = '" IXV_INTERNAL_PREFIX "syntable'", -1,
            &st, NULL) != SQLITE_OK)
        return;
    have = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    if (have || sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return;
    if (ixs_objs_cat_init(h) == SQLITE_OK &&
        sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return;
    if (!sqlite3_get_autocommit(h)) sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- small catalog helpers -------------------------------------------------------- */

/* 1 when name is taken by a table, view, synonym or sequence (or a temp table
 * of the session). */
static int name_taken(ixs_conn *db, const char *name) {
    int64_t v;
    if (ixs_ddl_q_int(db, "SELECT 1 FROM " IXV_INTERNAL_PREFIX "tables WHERE tabname = ?", name,
                      &v) == 1)
        return 1;
    return db->has_temp &&
           ixs_ddl_q_int(db, "SELECT 1 FROM " IXV_INTERNAL_PREFIX "ttables WHERE tabname = ?", name,
                         &v) == 1;
}

/* The code for a name in use: -8301 a sequence, -310 a table, view or synonym. */
static int taken_code(ixs_conn *db, const char *name) {
    int64_t v;
    return ixs_ddl_q_int(db,
                         "SELECT 1 FROM " IXV_INTERNAL_PREFIX
                         "tables WHERE tabname = ? AND tabtype = 'Q'",
                         name, &v) == 1
               ? IXS_E_SEQ_EXISTS
               : IXV_E_TABLE_EXISTS;
}

static int next_tabid(ixs_conn *db) {
    int64_t maxid = 0;
    ixs_ddl_q_int(db, "SELECT max(tabid) FROM " IXV_INTERNAL_PREFIX "tables", NULL, &maxid);
    return maxid < 99 ? 100 : (int)maxid + 1;
}

/* ---- the statement tree ------------------------------------------------------------ */

enum { SO_INC, SO_START, SO_RESTART, SO_MAX, SO_MIN, SO_CYCLE, SO_CACHE, SO_ORDER, SO_N };

typedef struct seqdef {
    char name[IXS_NAME_MAX + 1];
    char newname[IXS_NAME_MAX + 1]; /* RENAME */
    int ife;                        /* IF [NOT] EXISTS */
    int set[SO_N];                  /* the option was given */
    int64_t inc, start, restart, max, min, cache;
    int nomax, nomin, restart_val, cycle, order;
    int verb; /* the statement: 'C' CREATE, 'A' ALTER, 'D' DROP, 'R' RENAME */
} seqdef;

/* The values of a sequence as the catalog keeps them. */
typedef struct seqrow {
    int tabid;
    int64_t start, inc, max, min, cache;
    int cycle, order, has_restart;
    int64_t restart;
} seqrow;

/* [owner.]name */
static int seq_name(px *p, char *name, int define) {
    if (define ? ixs_px_newname(p, name, IXS_NAME_MAX + 1)
               : ixs_px_ident(p, name, IXS_NAME_MAX + 1))
        return -1;
    if (ixs_px_acc_op(p, ".") && (define ? ixs_px_newname(p, name, IXS_NAME_MAX + 1)
                                         : ixs_px_ident(p, name, IXS_NAME_MAX + 1)))
        return -1;
    return 0;
}

/* One option has one value: a second INCREMENT, or MAXVALUE with
 * NOMAXVALUE, is -8303 naming the option (the keyword just read). */
static int opt_once(px *p, seqdef *d, int k) {
    if (d->set[k]) {
        const tok *t = &p->t[p->i - 1];
        return ixs_px_failc(p, IXS_E_SEQ_DUP, "%.*s", t->len, p->sql + t->pos);
    }
    d->set[k] = 1;
    return 0;
}

/*
 * options := { INCREMENT [BY] n | START [WITH] n | RESTART [WITH [n]] |
 *              MAXVALUE n | NOMAXVALUE | MINVALUE n | NOMINVALUE |
 *              CYCLE | NOCYCLE | CACHE n | NOCACHE | ORDER | NOORDER } ...
 * (START only in CREATE, RESTART only in ALTER)
 */
static int seq_options(px *p, seqdef *d, int alter) {
    for (;;) {
        int r = 0;
        if (ixs_px_acc(p, IXK_INCREMENT)) {
            ixs_px_acc(p, IXK_BY);
            r = opt_once(p, d, SO_INC) || ixs_px_int(p, &d->inc);
        } else if (!alter && ixs_px_acc(p, IXK_START)) {
            ixs_px_acc(p, IXK_WITH);
            r = opt_once(p, d, SO_START) || ixs_px_int(p, &d->start);
        } else if (alter && ixs_px_acc(p, IXK_RESTART)) {
            r = opt_once(p, d, SO_RESTART);
            if (!r && ixs_px_acc(p, IXK_WITH)) {
                d->restart_val = 1;
                r = ixs_px_int(p, &d->restart);
            }
        } else if (ixs_px_acc(p, IXK_MAXVALUE)) {
            r = opt_once(p, d, SO_MAX) || ixs_px_int(p, &d->max);
        } else if (ixs_px_acc(p, IXK_NOMAXVALUE)) {
            r = opt_once(p, d, SO_MAX);
            d->nomax = 1;
        } else if (ixs_px_acc(p, IXK_MINVALUE)) {
            r = opt_once(p, d, SO_MIN) || ixs_px_int(p, &d->min);
        } else if (ixs_px_acc(p, IXK_NOMINVALUE)) {
            r = opt_once(p, d, SO_MIN);
            d->nomin = 1;
        } else if (ixs_px_kw(p, p->i, IXK_CYCLE) || ixs_px_kw(p, p->i, IXK_NOCYCLE)) {
            d->cycle = ixs_px_acc(p, IXK_CYCLE);
            if (!d->cycle) p->i++;
            r = opt_once(p, d, SO_CYCLE);
        } else if (ixs_px_acc(p, IXK_CACHE)) {
            r = opt_once(p, d, SO_CACHE) || ixs_px_int(p, &d->cache);
        } else if (ixs_px_acc(p, IXK_NOCACHE)) {
            r = opt_once(p, d, SO_CACHE);
            d->cache = 0;
        } else if (ixs_px_kw(p, p->i, IXK_ORDER) || ixs_px_kw(p, p->i, IXK_NOORDER)) {
            d->order = ixs_px_acc(p, IXK_ORDER);
            if (!d->order) p->i++;
            r = opt_once(p, d, SO_ORDER);
        } else
            return 0;
        if (r) return -1;
    }
}

/* CREATE SEQUENCE [IF NOT EXISTS] [owner.]name [options] */
static int parse_create(px *p, seqdef *d) {
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -1;
        d->ife = 1;
    }
    return seq_name(p, d->name, 1) || seq_options(p, d, 0) ? -1 : 0;
}

/* Applies the options of d to r (defaults for a new sequence when create),
 * then checks the result: -8305 INCREMENT 0, -8304 MINVALUE not below
 * MAXVALUE, -8302 a CACHE of 1 or less than 0 (Informix: "an integer > 1"),
 * -8307 a CACHE given of more than one cycle (the default 20 is not
 * checked), -8308 / -8309 a START / RESTART
 * value outside [MINVALUE, MAXVALUE]. */
static int seq_apply(px *p, const seqdef *d, seqrow *r, int create) {
    if (d->set[SO_INC]) r->inc = d->inc;
    if (create && !d->set[SO_INC]) r->inc = 1;
    if (r->inc == 0) return ixs_px_failc(p, IXS_E_SEQ_INC0, NULL);
    if (d->set[SO_MAX] && !d->nomax) r->max = d->max;
    if ((create && !d->set[SO_MAX]) || d->nomax) r->max = r->inc > 0 ? SEQ_MAX_DEF : -1;
    if (d->set[SO_MIN] && !d->nomin) r->min = d->min;
    if ((create && !d->set[SO_MIN]) || d->nomin) r->min = r->inc > 0 ? 1 : SEQ_MIN_DEF;
    if (d->set[SO_CYCLE]) r->cycle = d->cycle;
    if (d->set[SO_CACHE]) r->cache = d->cache;
    if (create && !d->set[SO_CACHE]) r->cache = SEQ_CACHE_DEF;
    if (d->set[SO_ORDER]) r->order = d->order;
    if (create) r->start = d->set[SO_START] ? d->start : r->inc > 0 ? r->min : r->max;
    if (d->set[SO_RESTART]) {
        r->has_restart = 1;
        r->restart = d->restart_val ? d->restart : r->start;
    }
    if (r->min >= r->max) return ixs_px_failc(p, IXS_E_SEQ_MINMAX, NULL);
    if (r->cache < 0 || r->cache == 1) return ixs_px_failc(p, IXS_E_SEQ_VALUE, NULL);
    uint64_t span = (uint64_t)r->max - (uint64_t)r->min;
    uint64_t step = r->inc > 0 ? (uint64_t)r->inc : 0 - (uint64_t)r->inc;
    if (d->set[SO_CACHE] && r->cache > 0 && (uint64_t)r->cache > span / step + 1)
        return ixs_px_failc(p, IXS_E_SEQ_CACHE, NULL);
    int64_t first = r->has_restart ? r->restart : r->start;
    if (first < r->min || first > r->max)
        return ixs_px_failc(p, r->has_restart ? IXS_E_SEQ_RESTART : IXS_E_SEQ_START, NULL);
    return 0;
}

static int64_t new_token(void) {
    int64_t t;
    sqlite3_randomness(sizeof t, &t);
    return t & INT64_MAX;
}

static void row_values(sb *s, const seqrow *r) {
    ixv_sb_printf(s, "start_val = %lld, inc_val = %lld, max_val = %lld, min_val = %lld,",
                  (long long)r->start, (long long)r->inc, (long long)r->max, (long long)r->min);
    ixv_sb_printf(s, " cycle = '%d', cache = %lld, seqorder = '%d'", r->cycle, (long long)r->cache,
                  r->order);
    if (r->has_restart)
        ixv_sb_printf(s, ", restart_val = %lld, token = %lld", (long long)r->restart,
                      (long long)new_token());
}

static int run_create(px *p, const seqdef *d) {
    seqrow r;
    memset(&r, 0, sizeof r);
    if (seq_apply(p, d, &r, 1)) return -1;
    if (name_taken(p->db, d->name))
        return d->ife ? 0 : ixs_px_failc(p, taken_code(p->db, d->name), "%s", d->name);
    int tabid = next_tabid(p->db);
    sb s = {0};
    ixv_sb_printf(&s,
                  "INSERT INTO " IXV_INTERNAL_PREFIX
                  "tables(tabid, tabname, owner, created, tabtype) VALUES(%d, ",
                  tabid);
    ixv_sb_strlit(&s, d->name, strlen(d->name));
    ixv_sb_addc(&s, ',');
    ixv_sb_strlit(&s, p->db->user, strlen(p->db->user));
    ixv_sb_printf(&s, ", %d, 'Q');", (int)ixv_today());
    ixv_sb_printf(&s,
                  "INSERT INTO " IXV_INTERNAL_PREFIX "sequences(tabid, token) VALUES(%d, %lld);"
                  "UPDATE " IXV_INTERNAL_PREFIX "sequences SET ",
                  tabid, (long long)new_token());
    row_values(&s, &r);
    ixv_sb_printf(&s, " WHERE tabid = %d;", tabid);
    return ixs_ddl_exec_sb(p, &s, d->name);
}

/* The catalog row of sequence name: 1, 0 none, -1 error. */
static int seq_load(ixs_conn *db, const char *name, seqrow *r) {
    sqlite3_stmt *st;
    memset(r, 0, sizeof *r);
    if (sqlite3_prepare_v2(db->h,
                           "SELECT s.tabid, start_val, inc_val, max_val, min_val, cycle, cache,"
                           " seqorder, restart_val FROM " IXV_INTERNAL_PREFIX
                           "sequences s JOIN " IXV_INTERNAL_PREFIX "tables t ON t.tabid = s.tabid"
                           " WHERE t.tabname = ? AND t.tabtype = 'Q'",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), found = rc == SQLITE_ROW;
    if (found) {
        r->tabid = sqlite3_column_int(st, 0);
        r->start = sqlite3_column_int64(st, 1);
        r->inc = sqlite3_column_int64(st, 2);
        r->max = sqlite3_column_int64(st, 3);
        r->min = sqlite3_column_int64(st, 4);
        r->cycle = sqlite3_column_int(st, 5);
        r->cache = sqlite3_column_int64(st, 6);
        r->order = sqlite3_column_int(st, 7);
        r->has_restart = sqlite3_column_type(st, 8) != SQLITE_NULL;
        r->restart = sqlite3_column_int64(st, 8);
    }
    sqlite3_finalize(st);
    return found ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int load_or_fail(px *p, const char *name, seqrow *r) {
    int f = seq_load(p->db, name, r);
    if (f < 0) return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
    if (!f) return ixs_px_failc(p, IXS_E_SEQ_NOT_FOUND, "%s", name);
    return 0;
}

/* ALTER SEQUENCE [owner.]name options (RESTART keeps the row's other values) */
static int run_alter(px *p, const seqdef *d) {
    seqrow r;
    int any = 0;
    for (int k = 0; k < SO_N; k++)
        any |= d->set[k];
    if (!any) return ixs_px_failc(p, IXS_E_SEQ_NO_OPTS, NULL);
    if (load_or_fail(p, d->name, &r)) return -1;
    r.has_restart = 0;
    if (seq_apply(p, d, &r, 0)) return -1;
    sb s = {0};
    ixv_sb_add(&s, "UPDATE " IXV_INTERNAL_PREFIX "sequences SET ");
    row_values(&s, &r);
    ixv_sb_printf(&s, " WHERE tabid = %d;", r.tabid);
    return ixs_ddl_exec_sb(p, &s, d->name);
}

static int run_drop(px *p, const seqdef *d) {
    seqrow r;
    int f = seq_load(p->db, d->name, &r);
    if (f == 0 && d->ife) return 0;
    if (load_or_fail(p, d->name, &r)) return -1;
    sb s = {0};
    ixv_sb_printf(&s,
                  "DELETE FROM " IXV_INTERNAL_PREFIX "sequences WHERE tabid = %d;"
                  "DELETE FROM " IXV_INTERNAL_PREFIX "tables WHERE tabid = %d;",
                  r.tabid, r.tabid);
    return ixs_ddl_exec_sb(p, &s, d->name);
}

static int run_rename(px *p, const seqdef *d) {
    seqrow r;
    if (load_or_fail(p, d->name, &r)) return -1;
    if (name_taken(p->db, d->newname))
        return ixs_px_failc(p, taken_code(p->db, d->newname), "%s", d->newname);
    sb s = {0};
    ixv_sb_add(&s, "UPDATE " IXV_INTERNAL_PREFIX "tables SET tabname = ");
    ixv_sb_strlit(&s, d->newname, strlen(d->newname));
    ixv_sb_printf(&s, " WHERE tabid = %d;", r.tabid);
    return ixs_ddl_exec_sb(p, &s, d->name);
}

/* Runs the parsed statement d. */
static int seq_run(px *p, const void *tree) {
    const seqdef *d = tree;
    return d->verb == 'C'   ? run_create(p, d)
           : d->verb == 'A' ? run_alter(p, d)
           : d->verb == 'D' ? run_drop(p, d)
                            : run_rename(p, d);
}

/*
 * After CREATE / ALTER / DROP / RENAME and SEQUENCE:
 *   CREATE SEQUENCE [IF NOT EXISTS] [owner.]s [options]
 *   ALTER SEQUENCE [owner.]s options
 *   DROP SEQUENCE [IF EXISTS] [owner.]s
 *   RENAME SEQUENCE [owner.]s TO s2
 */
static int seq_stmt(px *p, int verb, int *stype, ixs_plan *pl) {
    seqdef d;
    memset(&d, 0, sizeof d);
    int r = 0;
    switch (verb) {
    case 'C':
        *stype = IX_STMTTYPE_CREATE_SEQUENCE;
        r = parse_create(p, &d);
        break;
    case 'A':
        *stype = IX_STMTTYPE_ALTER_SEQUENCE;
        r = seq_name(p, d.name, 0) || seq_options(p, &d, 1) ? -1 : 0;
        break;
    case 'D':
        *stype = IX_STMTTYPE_DROP_SEQUENCE;
        if (ixs_px_acc(p, IXK_IF) && ixs_px_expect(p, IXK_EXISTS)) return -1;
        d.ife = ixs_px_kw(p, p->i - 1, IXK_EXISTS);
        r = seq_name(p, d.name, 0);
        break;
    default:
        *stype = IX_STMTTYPE_RENAME_SEQUENCE;
        r = seq_name(p, d.name, 0) || ixs_px_expect(p, IXK_TO) ||
                    ixs_px_newname(p, d.newname, sizeof d.newname)
                ? -1
                : 0;
    }
    if (r) return r;
    d.verb = verb;
    return ixs_plan_keep(p, pl, &d, sizeof d, seq_run, NULL);
}

int ixs_objs_stmt(px *p, int verb, int *stype, ixs_plan *pl) {
    if (ixs_px_kw(p, p->i, IXK_SEQUENCE)) {
        p->i++;
        return seq_stmt(p, verb, stype, pl) ? (p->failed = 1, 1) : 1;
    }
    int syn = ixs_px_kw(p, p->i, IXK_SYNONYM) ? 1
              : (ixs_px_kw(p, p->i, IXK_PUBLIC) || ixs_px_kw(p, p->i, IXK_PRIVATE)) &&
                      ixs_px_kw(p, p->i + 1, IXK_SYNONYM)
                  ? 2
                  : 0;
    if (!syn || (verb != 'C' && verb != 'D')) return 0;
    return ixs_syn_stmt(p, verb == 'C', stype, pl) ? (p->failed = 1, 1) : 1;
}

/* ---- NEXTVAL and CURRVAL in expressions ------------------------------------------- */

/* 1 when the statement has name.NEXTVAL anywhere (tabid's sequence). */
static int stmt_has_nextval(px *p, int tabid) {
    int found = 0;
    for (int i = 0; !found && i + 2 < p->nt; i++) {
        if (!ixs_px_is_ident(p, i) || !ixs_px_op(p, i + 1, ".") ||
            !ixs_px_kw(p, i + 2, IXK_NEXTVAL))
            continue;
        char name[IXS_NAME_MAX + 1]; /* the sequence's name, or a synonym's */
        int t;
        if (ixs_px_ident_at(p, i, name, sizeof name) == 0 && ixs_syn_sequence(p->db, name, &t) == 1)
            found = t == tabid;
    }
    return found;
}

/* One statement increments a sequence once: the first reference to it (in
 * text order) is NEXTVAL when the statement has a NEXTVAL of it, and every
 * other reference returns that value (IBM: "every occurrence of
 * sequence.NEXTVAL in the same SQL statement returns the same value", and so
 * does CURRVAL there). */
int ixs_seq_ref(px *p, const char *name, int next, xv *out) {
    int tabid;
    int f = ixs_syn_sequence(p->db, name, &tabid); /* the sequence, or a synonym of it */
    if (f < 0) return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
    if (!f) return 0;
    int seen = 0;
    for (int k = 0; k < p->nseq_done; k++)
        if (p->seq_done[k] == tabid) seen = 1;
    int emit_next = !seen && (next || stmt_has_nextval(p, tabid));
    if (emit_next && p->nseq_done < IXS_MAX_SEQREF) p->seq_done[p->nseq_done++] = tabid;
    ixv_sb_printf(&out->s, "ixd_seq_%s(%d)", emit_next ? "next" : "curr", tabid);
    out->t = ixv_t(IX_T_INT8, 10);
    out->k = XK_EXPR;
    out->lk = LB_COL;
    snprintf(out->label, sizeof out->label, "%s", next ? "nextval" : "currval");
    return 1;
}

/* ---- the session's counters ------------------------------------------------------- */

typedef struct seqcur {
    int tabid;
    int64_t v;
} seqcur;

struct ixs_seqsess {
    sqlite3 *h; /* the counter file */
    seqcur *cur;
    int n, cap;
};

void ixs_seq_close(ixs_conn *db) {
    if (!db->seq) return;
    sqlite3_close_v2(db->seq->h);
    free(db->seq->cur);
    free(db->seq);
    db->seq = NULL;
}

static int seq_file_open(ixs_conn *db) {
    if (!db->seq && !(db->seq = calloc(1, sizeof *db->seq))) return SQLITE_NOMEM;
    if (db->seq->h) return SQLITE_OK;
    char path[4200];
    ixv_err e;
    if (ixs_db_path(db, db->name, path, sizeof path - sizeof SEQ_FILE_SUFFIX, &e))
        return SQLITE_CANTOPEN;
    strcat(path, SEQ_FILE_SUFFIX);
    int rc = sqlite3_open_v2(path, &db->seq->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(db->seq->h, SEQ_BUSY_MS);
        rc = sqlite3_exec(db->seq->h,
                          "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                          "CREATE TABLE IF NOT EXISTS seqstate(seqid INTEGER PRIMARY KEY,"
                          " token INTEGER, last INTEGER);",
                          NULL, NULL, NULL);
    }
    if (rc != SQLITE_OK) {
        sqlite3_close_v2(db->seq->h);
        db->seq->h = NULL;
    }
    return rc;
}

static int64_t *cur_slot(ixs_conn *db, int tabid, int add) {
    if (!db->seq) return NULL;
    for (int i = 0; i < db->seq->n; i++)
        if (db->seq->cur[i].tabid == tabid) return &db->seq->cur[i].v;
    if (!add) return NULL;
    if (db->seq->n == db->seq->cap) {
        int cap = db->seq->cap ? db->seq->cap * 2 : 8;
        seqcur *nc = realloc(db->seq->cur, sizeof *nc * (size_t)cap);
        if (!nc) return NULL;
        db->seq->cur = nc;
        db->seq->cap = cap;
    }
    db->seq->cur[db->seq->n].tabid = tabid;
    return &db->seq->cur[db->seq->n++].v;
}

static void fn_fail(sqlite3_context *ctx, int code, const char *text) {
    ixv_fn_err(ctx, code, text);
}

/* The definition of sequence tabid as the session sees it, with its token and
 * name: 1, 0 gone, -1 error. */
static int def_load(ixs_conn *db, int tabid, seqrow *r, int64_t *token, char *name, size_t n) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT start_val, inc_val, max_val, min_val, cycle, restart_val, token,"
                           " t.tabname FROM " IXV_INTERNAL_PREFIX
                           "sequences s JOIN " IXV_INTERNAL_PREFIX
                           "tables t ON t.tabid = s.tabid WHERE s.tabid = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int(st, 1, tabid);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        memset(r, 0, sizeof *r);
        r->start = sqlite3_column_int64(st, 0);
        r->inc = sqlite3_column_int64(st, 1);
        r->max = sqlite3_column_int64(st, 2);
        r->min = sqlite3_column_int64(st, 3);
        r->cycle = sqlite3_column_int(st, 4);
        if (sqlite3_column_type(st, 5) != SQLITE_NULL) r->start = sqlite3_column_int64(st, 5);
        *token = sqlite3_column_int64(st, 6);
        const char *nm = (const char *)sqlite3_column_text(st, 7);
        snprintf(name, n, "%s", nm ? nm : "");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* The value after last (a fresh counter: r->start); 1 when the sequence is
 * exhausted (NOCYCLE). */
static int seq_step(const seqrow *r, int fresh, int64_t last, int64_t *v) {
    if (fresh) {
        *v = r->start;
        return 0;
    }
    int64_t x;
    int over = __builtin_add_overflow(last, r->inc, &x) || x > r->max || x < r->min;
    if (!over) {
        *v = x;
        return 0;
    }
    if (!r->cycle) return 1;
    *v = r->inc > 0 ? r->min : r->max;
    return 0;
}

/* One NEXTVAL of sequence r (token) in the counter file: 0 with *v, 1
 * exhausted, else a SQLite error. */
static int file_next(sqlite3 *h, int tabid, const seqrow *r, int64_t token, int64_t *v) {
    int rc = sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(h, "SELECT token, last FROM seqstate WHERE seqid = ?", -1, &st, NULL);
    int fresh = 1;
    int64_t last = 0;
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(st, 1, tabid);
        if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            fresh = sqlite3_column_int64(st, 0) != token;
            last = sqlite3_column_int64(st, 1);
        }
        rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
        sqlite3_finalize(st);
    }
    if (rc == SQLITE_OK && seq_step(r, fresh, last, v)) rc = 1;
    if (rc == SQLITE_OK)
        rc =
            sqlite3_prepare_v2(h, "INSERT OR REPLACE INTO seqstate VALUES(?, ?, ?)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(st, 1, tabid);
        sqlite3_bind_int64(st, 2, token);
        sqlite3_bind_int64(st, 3, *v);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(h);
        sqlite3_finalize(st);
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* ixd_seq_next(tabid): the next value, committed at once in the counter file. */
static void f_seq_next(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixs_conn *db = sqlite3_user_data(ctx);
    int tabid = sqlite3_value_int(argv[0]);
    seqrow r;
    int64_t token = 0, v = 0;
    char name[IXS_NAME_MAX + 1] = "";
    int f = def_load(db, tabid, &r, &token, name, sizeof name);
    if (f <= 0) {
        fn_fail(ctx, f ? IXV_E_NOT_IMPLEMENTED : IXV_E_NO_TABLE,
                f ? sqlite3_errmsg(db->h) : "sequence");
        return;
    }
    int rc = seq_file_open(db);
    if (rc == SQLITE_OK) rc = file_next(db->seq->h, tabid, &r, token, &v);
    if (rc == 1) {
        fn_fail(ctx, r.inc > 0 ? IXS_E_SEQ_MAX : IXS_E_SEQ_MIN, name);
        return;
    }
    int64_t *slot = rc == SQLITE_OK ? cur_slot(db, tabid, 1) : NULL;
    if (!slot) {
        fn_fail(ctx, rc == SQLITE_OK || rc == SQLITE_NOMEM ? IXV_E_NOMEM : IXV_E_NOT_IMPLEMENTED,
                db->seq && db->seq->h ? sqlite3_errmsg(db->seq->h) : "sequence file");
        return;
    }
    *slot = v;
    sqlite3_result_int64(ctx, v);
}

/* ixd_seq_curr(tabid): the session's last NEXTVAL of it. */
static void f_seq_curr(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixs_conn *db = sqlite3_user_data(ctx);
    int tabid = sqlite3_value_int(argv[0]);
    int64_t *slot = cur_slot(db, tabid, 0);
    if (!slot) {
        seqrow r;
        int64_t token;
        char name[IXS_NAME_MAX + 1] = "";
        (void)def_load(db, tabid, &r, &token, name, sizeof name);
        fn_fail(ctx, IXS_E_SEQ_CURRVAL, name);
        return;
    }
    sqlite3_result_int64(ctx, *slot);
}

int ixs_objs_register(sqlite3 *h, ixs_conn *db) {
    int rc = sqlite3_create_function(h, "ixd_seq_next", 1, SQLITE_UTF8, db, f_seq_next, NULL, NULL);
    rc |= sqlite3_create_function(h, "ixd_seq_curr", 1, SQLITE_UTF8, db, f_seq_curr, NULL, NULL);
    rc |= ixs_view_register(h, db);
    return rc;
}
