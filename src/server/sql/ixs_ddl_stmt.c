/* ixs_ddl_stmt.c: the statements ixd runs itself (DDL, transaction
 * control, savepoints, SET, LOCK, GRANT/REVOKE): the dispatch that parses
 * one into its tree at prepare (ixs_ddl_prepare), the execution of the tree
 * (ixs_ddl_exec), and the small statements whose node is a few fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_spl.h"

static void skip_rest(px *p) {
    while (p->i < p->nt && p->t[p->i].k != T_EOF && !ixs_px_op(p, p->i, ";"))
        p->i++;
}

int ixs_plan_keep(px *p, ixs_plan *pl, const void *tree, size_t size,
                  int (*run)(px *p, const void *tree), void (*fr)(void *tree)) {
    void *copy = malloc(size);
    if (!copy) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
    memcpy(copy, tree, size);
    pl->tree = copy;
    pl->run = run;
    pl->free = fr;
    return 0;
}

/* After a module's statement parse (rt: 1 parsed, 0 not its statement, -1
 * error): d a DDL_PLAN when the module kept a plan (freed with d). */
static int plan_done(px *p, ixs_ddl *d, int rt) {
    if (d->u.plan.tree) d->kind = DDL_PLAN;
    return rt < 0 || p->failed ? -1 : 0;
}

/* A DDL_FAIL node: the statement fails at execute with code. */
static int fail_later(ixs_ddl *d, int code, const char *text) {
    d->kind = DDL_FAIL;
    d->fail_code = code;
    snprintf(d->fail_text, sizeof d->fail_text, "%s", text);
    return 0;
}

/* ---- transaction control and savepoints --------------------------------------- */

/*
 * BEGIN [WORK | TRANSACTION] | COMMIT [WORK | TRANSACTION]
 * ROLLBACK [WORK | TRANSACTION] [TO [SAVEPOINT] [name]]
 * SAVEPOINT name [UNIQUE] | RELEASE SAVEPOINT name
 */
static int txn_parse(px *p, ixs_ddl *d) {
    int first = p->i;
    p->i++;
    if (ixs_px_kw(p, first, IXK_SAVEPOINT) || ixs_px_kw(p, first, IXK_RELEASE)) {
        d->stype = IX_STMTTYPE_SAVEPOINT;
        d->kind = ixs_px_kw(p, first, IXK_SAVEPOINT) ? DDL_SAVEPOINT : DDL_RELEASE;
        if (d->kind == DDL_RELEASE && ixs_px_expect(p, IXK_SAVEPOINT)) return -1;
        if (ixs_px_ident(p, d->u.sp.name, sizeof d->u.sp.name)) return -1;
        if (d->kind == DDL_SAVEPOINT) ixs_px_acc(p, IXK_UNIQUE);
        return 0;
    }
    d->kind = ixs_px_kw(p, first, IXK_BEGIN)    ? DDL_BEGIN
              : ixs_px_kw(p, first, IXK_COMMIT) ? DDL_COMMIT
                                                : DDL_ROLLBACK;
    d->stype = d->kind == DDL_BEGIN    ? IX_STMTTYPE_BEGIN_WORK
               : d->kind == DDL_COMMIT ? IX_STMTTYPE_COMMIT_WORK
                                       : IX_STMTTYPE_ROLLBACK_WORK;
    (void)(ixs_px_acc(p, IXK_WORK) || ixs_px_acc(p, IXK_TRANSACTION));
    if (d->kind == DDL_ROLLBACK && ixs_px_acc(p, IXK_TO)) {
        d->kind = DDL_ROLLBACK_TO;
        ixs_px_acc(p, IXK_SAVEPOINT);
        if (ixs_px_is_name(p, p->i) && ixs_px_ident(p, d->u.sp.name, sizeof d->u.sp.name))
            return -1;
    }
    if (d->kind == DDL_BEGIN && p->i < p->nt && p->t[p->i].k != T_EOF && !ixs_px_op(p, p->i, ";"))
        return ixs_px_fail(p);
    return 0;
}

/*
 * Runs SAVEPOINT, RELEASE or ROLLBACK TO (verb) on the user savepoint name.
 * User savepoints live in a SQLite name space of their own ("u_" + name), so
 * that no user name can reach ixd's own savepoints (_ixd_ddl around DDL).
 * name is as ixs_px_ident read it: folded to lower case unless it was quoted;
 * SQLite compares savepoint names without regard to case, so that without
 * DELIMIDENT "Sp" and sp are one savepoint; with it, their storage names
 * (ixv_sb_ident) make them two.
 */
static int run_savepoint(px *p, const char *verb, const char *name) {
    ixs_conn *db = p->db;
    char sp[IXS_NAME_MAX + 3];
    snprintf(sp, sizeof sp, "u_%s", name);
    sb s = {0};
    ixv_sb_add(&s, verb);
    ixv_sb_addc(&s, ' ');
    if (db->delimident) /* "Sp" and sp two savepoints, as Informix has them */
        ixv_sb_ident(&s, sp);
    else
        ixv_sb_quoted(&s, sp);
    int r = s.oom ? SQLITE_NOMEM : sqlite3_exec(db->h, s.p, NULL, NULL, NULL);
    ixv_sb_free(&s);
    if (r == SQLITE_OK) return 0;
    ixs_sqlite_err(db, r, 0, NULL, p->err);
    /* RELEASE or ROLLBACK TO of a name SQLite does not have: a plain
     * SQLITE_ERROR (a busy or failing database gives its own code) */
    if (strcmp(verb, "SAVEPOINT") && r == SQLITE_ERROR)
        ixv_seterr(p->err, IXV_E_NO_SAVEPOINT, 0, 0, "%s", name);
    p->failed = 1;
    return -1;
}

/* ROLLBACK TO [SAVEPOINT] [name]: -255 outside a transaction, -256 without
 * logging; no name: back to the start of the transaction. */
static int rollback_to_run(px *p, const char *name) {
    ixs_conn *db = p->db;
    if (!db->in_txn || db->logmode == 0)
        return ixs_px_failc(p, db->logmode ? IXV_E_NOT_IN_TXN : IXV_E_NO_TXN, NULL);
    if (name[0]) return run_savepoint(p, "ROLLBACK TO", name);
    int r = sqlite3_exec(db->h, "ROLLBACK TO " IXV_INTERNAL_PREFIX "sp_outer", NULL, NULL, NULL);
    if (r == SQLITE_OK) return 0;
    ixs_sqlite_err(db, r, 0, NULL, p->err);
    if (r == SQLITE_ERROR) /* no such savepoint: see run_savepoint */
        ixv_seterr(p->err, IXV_E_NO_SAVEPOINT, 0, 0, NULL);
    p->failed = 1;
    return -1;
}

/* SAVEPOINT / RELEASE: -256 without logging, -255 outside a transaction. */
static int savepoint_run(px *p, const ixs_ddl *d) {
    ixs_conn *db = p->db;
    if (db->logmode == 0) return ixs_px_failc(p, IXV_E_NO_TXN, NULL);
    if (!db->in_txn) return ixs_px_failc(p, IXV_E_NOT_IN_TXN, NULL);
    if (d->kind == DDL_RELEASE) return run_savepoint(p, "RELEASE", d->u.sp.name);
    if (run_savepoint(p, "SAVEPOINT", d->u.sp.name)) return -1;
    db->nsavepoints++;
    return 0;
}

static int txn_run(px *p, const ixs_ddl *d) {
    int r = 0;
    switch (d->kind) {
    case DDL_BEGIN: r = ixs_begin(p->db, p->err); break;
    case DDL_COMMIT: r = ixs_commit(p->db, p->err); break;
    case DDL_ROLLBACK: r = ixs_rollback(p->db, p->err); break;
    case DDL_ROLLBACK_TO: return rollback_to_run(p, d->u.sp.name);
    default: return savepoint_run(p, d);
    }
    if (r) p->failed = 1;
    return r ? -1 : 0;
}

/* ---- SET ------------------------------------------------------------------------ */

/* SET ISOLATION [TO] { DIRTY READ [WITH WARNING] | COMMITTED READ [LAST
 * COMMITTED] | CURSOR STABILITY | REPEATABLE READ } [RETAIN UPDATE LOCKS],
 * after ISOLATION. ixd's isolation is SQLite's: accepted, nothing changes. */
static int set_isolation_parse(px *p) {
    ixs_px_acc(p, IXK_TO);
    if (ixs_px_acc(p, IXK_DIRTY)) {
        if (ixs_px_expect(p, IXK_READ)) return -1;
        if (ixs_px_acc(p, IXK_WITH) && (ixs_px_expect(p, IXK_WARNING))) return -1;
    } else if (ixs_px_acc(p, IXK_COMMITTED)) {
        if (ixs_px_expect(p, IXK_READ)) return -1;
        if (ixs_px_acc(p, IXK_LAST) && ixs_px_expect(p, IXK_COMMITTED)) return -1;
    } else if (ixs_px_acc(p, IXK_CURSOR)) {
        if (ixs_px_expect(p, IXK_STABILITY)) return -1;
    } else if (ixs_px_acc(p, IXK_REPEATABLE)) {
        if (ixs_px_expect(p, IXK_READ)) return -1;
    } else
        return ixs_px_fail(p);
    (void)(ixs_px_acc(p, IXK_RETAIN) && ixs_px_acc(p, IXK_UPDATE) && ixs_px_acc(p, IXK_LOCKS));
    return 0;
}

/* The SET statements ixd accepts and ignores (their statement type, 0 = none
 * of its own), after SET: SET EXPLAIN ..., SET PDQPRIORITY ..., ... */
static int set_other_parse(px *p, ixs_ddl *d) {
    static const struct {
        const char *kw;
        int stype;
    } ok[] = {
        {"explain", IX_STMTTYPE_SET_EXPLAIN},
        {"pdqpriority", 0},
        {"optimization", IX_STMTTYPE_SET_OPTIMIZATION},
        {"environment", 0},
        {"constraints", IX_STMTTYPE_SET_CONSTRAINTS},
        {"log", IX_STMTTYPE_SET_LOG},
        {"dataskip", 0},
        {"collation", 0},
        {"deferred_prepare", 0},
        {"statement", 0},
        {"debug", 0},
        {"session", 0},
        {"encryption", 0},
        {"all_mutables", 0},
        {"autofree", 0},
        {"connection", 0},
    };
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++)
        if (ixs_px_kw_str(p, p->i, ok[k].kw)) {
            d->stype = ok[k].stype;
            p->i++;
            skip_rest(p);
            return 0;
        }
    d->stype = 0;
    return ixs_px_fail(p);
}

/*
 * SET, after SET:
 *   LOCK MODE TO { NOT WAIT | WAIT [seconds] }
 *   ISOLATION ... | TRANSACTION ... | EXPLAIN ... | PDQPRIORITY ... | ...
 */
static int set_parse(px *p, ixs_ddl *d) {
    d->kind = DDL_NOOP;
    if (ixs_px_acc(p, IXK_LOCK)) {
        d->kind = DDL_SET_LOCK_MODE;
        d->stype = IX_STMTTYPE_SET_LOCK_MODE;
        if (ixs_px_expect(p, IXK_MODE) || ixs_px_expect(p, IXK_TO)) return -1;
        d->u.lm.not_wait = ixs_px_acc(p, IXK_NOT);
        if (ixs_px_expect(p, IXK_WAIT)) return -1;
        d->u.lm.secs = -1;
        if (!d->u.lm.not_wait && p->i < p->nt && p->t[p->i].k == T_INT &&
            ixs_px_int(p, &d->u.lm.secs))
            return -1;
        return 0;
    }
    if (ixs_px_acc(p, IXK_ISOLATION)) {
        d->stype = IX_STMTTYPE_SET_ISOLATION;
        return set_isolation_parse(p);
    }
    if (ixs_px_acc(p, IXK_TRANSACTION)) {
        d->stype = IX_STMTTYPE_SET_ISOLATION;
        skip_rest(p);
        return 0;
    }
    int rt = ixs_role_stmt(p, 'S', &d->stype, &d->u.plan);
    if (rt) return plan_done(p, d, rt);
    return set_other_parse(p, d);
}

static int set_lock_mode_run(px *p, const ddl_lock_mode *lm) {
    ixs_conn *db = p->db;
    if (lm->not_wait)
        db->wait_ms = -1;
    else if (lm->secs < 0)
        db->wait_ms = IXS_WAIT_FOREVER_MS;
    else
        db->wait_ms = lm->secs > 86400 ? 86400 * 1000 : (int)lm->secs * 1000;
    ixs_set_busy(db);
    return 0;
}

/* ---- CREATE / DROP / ALTER / RENAME ---------------------------------------------- */

/* CREATE SCHEMA AUTHORIZATION ... | CREATE DATABASE (a session statement:
 * -999 here) | anything else: -999 naming the object kind. After CREATE. */
static int create_other_parse(px *p, ixs_ddl *d) {
    if (ixs_px_acc(p, IXK_SCHEMA)) {
        d->kind = DDL_CREATE_SCHEMA;
        d->stype = IX_STMTTYPE_CREATE_SCHEMA;
        if (ixs_px_expect(p, IXK_AUTHORIZATION)) return -1;
        return ixs_create_schema_parse(p, &d->u.cs);
    }
    if (ixs_px_kw(p, p->i, IXK_DATABASE)) {
        d->stype = IX_STMTTYPE_CREATE_DB; /* at prepare: -201 at DATABASE */
        return fail_later(d, IXV_E_NOT_IMPLEMENTED, "CREATE DATABASE needs a session");
    }
    return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "CREATE %.*s", p->i < p->nt ? p->t[p->i].len : 0,
                        p->i < p->nt ? p->sql + p->t[p->i].pos : "");
}

/*
 * CREATE, after CREATE: ROW TYPE, PROCEDURE/FUNCTION, TRIGGER, SEQUENCE and
 * SYNONYM (their modules, DDL_TEXT), [TEMP | RAW | STANDARD] TABLE, [UNIQUE |
 * DISTINCT] [CLUSTER] INDEX, VIEW, SCHEMA AUTHORIZATION.
 */
static int create_parse(px *p, ixs_ddl *d) {
    int rt = ixs_ts_rowtype_stmt(p, 1, &d->stype, &d->u.plan);
    if (!rt) rt = ixs_spl_create_stmt(p, &d->stype, &d->u.plan);
    if (!rt) rt = ixs_trigger_create_stmt(p, &d->stype, &d->u.plan);
    if (!rt) rt = ixs_objs_stmt(p, 'C', &d->stype, &d->u.plan);
    if (!rt) rt = ixs_role_stmt(p, 'C', &d->stype, &d->u.plan);
    if (rt) return plan_done(p, d, rt);
    int temp = ixs_px_acc(p, IXK_TEMP) || ixs_px_acc(p, IXK_RAW) || ixs_px_acc(p, IXK_STANDARD);
    if (ixs_px_acc(p, IXK_TABLE)) {
        d->kind = DDL_CREATE_TABLE;
        d->stype = temp ? IX_STMTTYPE_CREATE_TEMP_TABLE : IX_STMTTYPE_CREATE_TABLE;
        return ixs_create_table_parse(p, temp, &d->u.ct);
    }
    if (ixs_px_kw(p, p->i, IXK_UNIQUE) || ixs_px_kw(p, p->i, IXK_DISTINCT) ||
        ixs_px_kw(p, p->i, IXK_INDEX) || ixs_px_kw(p, p->i, IXK_CLUSTER)) {
        int u = ixs_px_acc(p, IXK_UNIQUE) || ixs_px_acc(p, IXK_DISTINCT);
        d->kind = DDL_CREATE_INDEX;
        d->stype = IX_STMTTYPE_CREATE_INDEX;
        return ixs_create_index_parse(p, u, &d->u.ci);
    }
    if (ixs_px_acc(p, IXK_VIEW)) {
        d->kind = DDL_CREATE_VIEW;
        d->stype = IX_STMTTYPE_CREATE_VIEW;
        return ixs_create_view_parse(p, &d->u.vw);
    }
    return create_other_parse(p, d);
}

/* DROP, after DROP: ROW TYPE, PROCEDURE/FUNCTION, TRIGGER, SEQUENCE, SYNONYM
 * (their modules, DDL_TEXT), TABLE, INDEX, VIEW. */
static int drop_parse(px *p, ixs_ddl *d) {
    int rt = ixs_ts_rowtype_stmt(p, 0, &d->stype, &d->u.plan);
    if (!rt) rt = ixs_spl_drop_stmt(p, &d->stype, &d->u.plan);
    if (!rt) rt = ixs_trigger_drop_stmt(p, &d->stype, &d->u.plan);
    if (!rt) rt = ixs_objs_stmt(p, 'D', &d->stype, &d->u.plan);
    if (!rt) rt = ixs_role_stmt(p, 'D', &d->stype, &d->u.plan);
    if (rt) return plan_done(p, d, rt);
    d->kind = DDL_DROP;
    d->stype = ixs_px_kw(p, p->i, IXK_INDEX)  ? IX_STMTTYPE_DROP_INDEX
               : ixs_px_kw(p, p->i, IXK_VIEW) ? IX_STMTTYPE_DROP_VIEW
                                              : IX_STMTTYPE_DROP_TABLE;
    return ixs_drop_parse(p, &d->u.dr);
}

/* ---- LOCK, GRANT, session statements -------------------------------------------- */

/* { LOCK TABLE name IN { SHARE | EXCLUSIVE } MODE | UNLOCK TABLE name }: the
 * table must exist (-206); SQLite's locks are the database's. */
static int lock_parse(px *p, ixs_ddl *d) {
    d->kind = DDL_LOCK_TABLE;
    d->stype = ixs_px_kw(p, p->i, IXK_LOCK) ? IX_STMTTYPE_LOCK_TABLE : IX_STMTTYPE_UNLOCK_TABLE;
    p->i++;
    if (ixs_px_expect(p, IXK_TABLE)) return -1;
    if (ixs_px_objname(p, IXS_NAME_DB, d->u.tab.name, sizeof d->u.tab.name)) return -1;
    skip_rest(p);
    return 0;
}

/*
 * The statement at p's first token into d (see ixs_ddl_tree.h):
 *   CREATE ... | DROP ... | ALTER ... | RENAME ... | BEGIN | COMMIT | ROLLBACK
 *   | SAVEPOINT | RELEASE | SET ... | UPDATE STATISTICS ... | TRUNCATE ...
 *   | { LOCK | UNLOCK } TABLE ... | MERGE ... | { GRANT | REVOKE } ...
 *   | DATABASE ... | CLOSE DATABASE
 */
int ixs_ddl_parse(px *p, ixs_ddl *d) {
    d->kind = DDL_TEXT;
    d->stype = IX_STMTTYPE_OTHER;
    if (ixs_px_acc(p, IXK_CREATE)) return create_parse(p, d);
    if (ixs_px_acc(p, IXK_DROP)) return drop_parse(p, d);
    if (ixs_px_acc(p, IXK_ALTER)) {
        if (ixs_objs_stmt(p, 'A', &d->stype, &d->u.plan)) return plan_done(p, d, 1);
        d->kind = DDL_ALTER;
        d->stype = IX_STMTTYPE_ALTER_TABLE;
        return ixs_alter_parse(p, &d->u.al);
    }
    if (ixs_px_acc(p, IXK_RENAME)) {
        if (ixs_objs_stmt(p, 'R', &d->stype, &d->u.plan)) return plan_done(p, d, 1);
        d->stype =
            ixs_px_kw(p, p->i, IXK_COLUMN) ? IX_STMTTYPE_RENAME_COLUMN : IX_STMTTYPE_RENAME_TABLE;
        return ixs_rename_parse(p, d);
    }
    if (ixs_px_kw(p, p->i, IXK_BEGIN) || ixs_px_kw(p, p->i, IXK_COMMIT) ||
        ixs_px_kw(p, p->i, IXK_ROLLBACK) || ixs_px_kw(p, p->i, IXK_SAVEPOINT) ||
        ixs_px_kw(p, p->i, IXK_RELEASE))
        return txn_parse(p, d);
    if (ixs_px_acc(p, IXK_SET)) return set_parse(p, d);
    if (ixs_is_update_statistics(p)) {
        p->i += 2;
        return ixs_update_statistics_parse(p, d);
    }
    if (ixs_px_acc(p, IXK_TRUNCATE)) {
        d->kind = DDL_TRUNCATE;
        d->stype = IX_STMTTYPE_TRUNCATE;
        return ixs_truncate_parse(p, &d->u.tab);
    }
    if (ixs_px_kw(p, p->i, IXK_LOCK) || ixs_px_kw(p, p->i, IXK_UNLOCK)) return lock_parse(p, d);
    if (ixs_px_acc(p, IXK_MERGE)) {
        d->stype = IX_STMTTYPE_MERGE;
        return ixs_merge(p, &p->rows);
    }
    if (ixs_px_kw(p, p->i, IXK_GRANT) || ixs_px_kw(p, p->i, IXK_REVOKE)) {
        d->kind = DDL_PRIV; /* recorded in the catalogue, not enforced */
        d->stype = ixs_px_kw(p, p->i, IXK_GRANT) ? IX_STMTTYPE_GRANT : IX_STMTTYPE_REVOKE;
        return ixs_priv_parse(p, &d->u.pv);
    }
    if (ixs_px_kw(p, p->i, IXK_DATABASE) || ixs_px_kw(p, p->i, IXK_CLOSE)) {
        d->stype = ixs_px_kw(p, p->i, IXK_CLOSE) ? IX_STMTTYPE_CLOSE_DB : IX_STMTTYPE_DATABASE;
        skip_rest(p);
        return fail_later(d, IXV_E_NOT_IMPLEMENTED, "database statements need a session");
    }
    return ixs_px_fail(p);
}

/* ---- execution ------------------------------------------------------------------- */

/* The ROW types d's columns name, looked up now (the parse at prepare left
 * them: cdef.rowref). */
static int row_types(px *p, ixs_ddl *d) {
    if (d->kind == DDL_CREATE_TABLE) return ixs_tdef_row_types(p, &d->u.ct.t);
    for (int i = 0; d->kind == DDL_ALTER && i < d->u.al.n; i++)
        if (ixs_tdef_row_types(p, &d->u.al.a[i].def)) return -1;
    return 0;
}

int ixs_ddl_run(px *p, ixs_ddl *d, int64_t *rows) {
    if (row_types(p, d)) return -1;
    switch (d->kind) {
    case DDL_FAIL: return ixs_px_failc(p, d->fail_code, "%s", d->fail_text);
    case DDL_NOOP: return 0;
    case DDL_CREATE_TABLE: return ixs_create_table_run(p, &d->u.ct);
    case DDL_CREATE_INDEX: return ixs_create_index_run(p, &d->u.ci);
    case DDL_DROP: return ixs_drop_run(p, &d->u.dr);
    case DDL_ALTER: return ixs_alter_run(p, &d->u.al);
    case DDL_RENAME_TABLE: return ixs_rename_table_run(p, &d->u.rn);
    case DDL_RENAME_COLUMN: return ixs_rename_column_run(p, &d->u.rn);
    case DDL_SET_LOCK_MODE: return set_lock_mode_run(p, &d->u.lm);
    case DDL_LOCK_TABLE:
        return ixs_table_exists(p->db, d->u.tab.name)
                   ? 0
                   : ixs_px_failc(p, IXV_E_NO_TABLE, "%s", d->u.tab.name);
    case DDL_TRUNCATE: return ixs_truncate_run(p, &d->u.tab);
    case DDL_UPDATE_STATS: return ixs_update_statistics_run(p, &d->u.us);
    case DDL_CREATE_VIEW: return ixs_create_view_run(p, &d->u.vw);
    case DDL_PRIV: return ixs_priv_run(p, &d->u.pv);
    case DDL_CREATE_SCHEMA: *rows = 0; return ixs_create_schema_run(p, &d->u.cs);
    case DDL_PLAN: return d->u.plan.run(p, d->u.plan.tree);
    case DDL_INTO_TEMP: return ixs_into_temp_run(p, &d->u.it, rows);
    case DDL_TEXT: return 0; /* ran while parsing (ixs_run_sql) */
    default: return txn_run(p, d);
    }
}

void ixs_ddl_free(ixs_ddl *d) {
    if (!d) return;
    switch (d->kind) {
    case DDL_CREATE_TABLE: ixs_tdef_free(&d->u.ct.t); break;
    case DDL_CREATE_INDEX: free(d->u.ci.cols); break;
    case DDL_ALTER: ixs_alter_free(&d->u.al); break;
    case DDL_UPDATE_STATS: free(d->u.us.cols); break;
    case DDL_CREATE_VIEW:
        free(d->u.vw.cn);
        ixs_sel_free(d->u.vw.q);
        break;
    case DDL_PRIV: ixs_priv_free(&d->u.pv); break;
    case DDL_PLAN:
        if (d->u.plan.free)
            d->u.plan.free(d->u.plan.tree);
        else
            free(d->u.plan.tree);
        break;
    case DDL_INTO_TEMP: ixs_sel_free(d->u.it.q); break;
    default: break;
    }
    free(d->t);
    free(d->sql);
    memset(d, 0, sizeof *d);
}

void ixs_ddl_destroy(ixs_ddl *d) {
    ixs_ddl_free(d);
    free(d);
}

/* Keeps p's text and tokens in d (the tokens move: p no longer has them). */
static int keep_source(px *p, ixs_ddl *d) {
    d->sql = malloc(p->n + 1);
    if (!d->sql) return ixv_seterr(p->err, IXV_E_NOMEM, 0, 0, NULL);
    memcpy(d->sql, p->sql, p->n);
    d->sql[p->n] = 0;
    d->n = p->n;
    d->t = p->t;
    d->nt = p->nt;
    p->t = NULL;
    p->nt = 0;
    return 0;
}

static int keep_text(ixs_stmt *s, const char *sql, size_t n, ixv_err *err) {
    s->text = malloc(n + 1);
    if (!s->text) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    memcpy(s->text, sql, n);
    s->text[n] = 0;
    s->textn = n;
    return 0;
}

int ixs_ddl_keep(px *p, ixs_stmt *s, ixs_ddl *d) {
    s->kind = SK_SQL;
    s->stype = d->stype;
    if (keep_source(p, d)) {
        ixs_ddl_destroy(d);
        return -1;
    }
    s->ddl = d;
    return 0;
}

/* At prepare: the statement of p into s->ddl, every kind parsed into its
 * tree; those whose parse needed the catalogue (a ROW type of a column:
 * p->dry_deferred) keep their text instead, parsed again when they run. */
int ixs_ddl_prepare(px *p, ixs_stmt *s) {
    s->kind = SK_SQL;
    p->dry = 1;
    ixs_ddl *d = calloc(1, sizeof *d);
    if (!d) return ixv_seterr(p->err, IXV_E_NOMEM, 0, 0, NULL);
    int rc = ixs_ddl_parse(p, d);
    if (!rc) rc = ixs_at_end(p);
    s->stype = d->stype;
    /* those naming ROW types (resolved from the text when they run) keep
     * their text */
    int text = d->kind == DDL_TEXT || p->dry_deferred;
    if (!rc && text) rc = keep_text(s, p->sql, p->n, p->err);
    if (!rc && !text) rc = keep_source(p, d);
    if (rc || text) {
        ixs_ddl_destroy(d);
        return rc ? -1 : 0;
    }
    s->ddl = d;
    return 0;
}

/* Transaction control and SET do not begin an ANSI transaction. */
static int is_txn_kind(const ixs_ddl *d) {
    return d->kind == DDL_BEGIN || d->kind == DDL_COMMIT || d->kind == DDL_ROLLBACK ||
           d->kind == DDL_ROLLBACK_TO || d->kind == DDL_SAVEPOINT || d->kind == DDL_RELEASE ||
           d->kind == DDL_SET_LOCK_MODE || d->kind == DDL_NOOP;
}

/* Runs tree d of statement s on db (no tokens: d's are used; ?N parameters
 * take the values bound to s). */
static int run_tree(ixs_conn *db, const ixs_stmt *s, ixs_ddl *d, int64_t *rows, ixv_err *err) {
    px p;
    memset(&p, 0, sizeof p);
    memset(err, 0, sizeof *err);
    p.db = db;
    p.bound = s;
    p.sql = d->sql;
    p.n = d->n;
    p.t = d->t;
    p.nt = d->nt;
    p.err = err;
    for (int i = 0; i < d->nt; i++) /* '?' in a condition translated now */
        p.nparams += d->t[i].k == T_PARAM;
    p.ptypes = calloc((size_t)(p.nparams ? p.nparams : 1), sizeof(ityp));
    if (!p.ptypes) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    for (int i = 0; i < p.nparams; i++)
        p.ptypes[i].code = -1;
    int rc = 0;
    if (!is_txn_kind(d)) rc = ixs_ansi_autobegin(db, err);
    if (!rc) rc = ixs_ddl_run(&p, d, rows);
    free(p.ptypes);
    return rc ? -1 : 0;
}

int ixs_ddl_exec(ixs_stmt *s, int64_t *rows, ixv_err *err) {
    *rows = 0;
    if (!s->ddl) return ixs_run_sql(s->db, s->text, s->textn, rows, err);
    ixs_txn_sync(s->db);
    return run_tree(s->db, s, s->ddl, rows, err);
}

int ixs_run_sql(ixs_conn *db, const char *sql, size_t n, int64_t *rows, ixv_err *err) {
    px p;
    *rows = 0;
    ixs_txn_sync(db);
    if (ixs_px_init(&p, db, sql, n, err)) {
        ixs_px_done(&p);
        return -1;
    }
    int txn = ixs_px_kw(&p, 0, IXK_BEGIN) || ixs_px_kw(&p, 0, IXK_COMMIT) ||
              ixs_px_kw(&p, 0, IXK_ROLLBACK) || ixs_px_kw(&p, 0, IXK_SET) ||
              ixs_px_kw(&p, 0, IXK_SAVEPOINT) || ixs_px_kw(&p, 0, IXK_RELEASE);
    int rc = txn ? 0 : ixs_ansi_autobegin(db, err);
    if (!rc && ixs_px_kw(&p, 0, IXK_SELECT)) {
        rc = ixs_select_into_temp(&p, rows);
        ixs_px_done(&p);
        return rc ? -1 : 0;
    }
    ixs_ddl d;
    memset(&d, 0, sizeof d);
    if (!rc) rc = ixs_ddl_parse(&p, &d); /* other modules' statements run here */
    if (!rc && d.stype == IX_STMTTYPE_MERGE) *rows = p.rows;
    if (!rc && d.kind != DDL_TEXT) rc = ixs_ddl_run(&p, &d, rows);
    ixs_ddl_free(&d);
    ixs_px_done(&p);
    return rc ? -1 : 0;
}
