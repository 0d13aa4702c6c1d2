/*
 * ixs_role.c: roles, kept in the catalogue as Informix keeps them.
 *
 *   CREATE ROLE [IF NOT EXISTS] role    a sysusers row, usertype 'G'
 *   DROP ROLE [IF EXISTS] role          the row, the role's grants (as role
 *                                       and as grantee), its table and column
 *                                       privileges, and default roles naming it
 *   GRANT role TO grantees [WITH GRANT OPTION]
 *   REVOKE role FROM grantees           sysroleauth rows (rolename, grantee,
 *                                       is_grantable 'y' or 'n')
 *   GRANT DEFAULT ROLE role TO grantees sysusers.defrole (and the role granted)
 *   REVOKE DEFAULT ROLE FROM grantees   sysusers.defrole cleared
 *   SET ROLE { role | NONE | NULL | DEFAULT }
 *
 * A grantee is a user, PUBLIC or another role; a role is a name or a quoted
 * string (kept as written). SET ROLE enables a role the session's user holds:
 * granted to the user, to PUBLIC, or to a role the user holds (roles granted to
 * roles, any depth). Until SET ROLE, the current role is the user's default role
 * (PUBLIC's when the user has none). CURRENT_ROLE and DEFAULT_ROLE
 * (ixd_role()) give them.
 *
 * ixd records privileges but does not enforce them (ixs_priv.c): privileges
 * granted to a role are recorded under the role's name in systabauth and
 * syscolauth, like a user's, and enabling the role changes no check.
 */
#include <stdio.h>
#include <string.h>

#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_priv.h"

enum { RV_CREATE, RV_DROP, RV_SET };
enum { RS_NAME, RS_NONE, RS_DEFAULT };

typedef struct roledef {
    int verb; /* RV_* */
    int ife;  /* IF [NOT] EXISTS */
    int set;  /* RV_SET: RS_* */
    char name[IXS_NAME_MAX + 1];
} roledef;

/* The roles the session's user holds (directly, through PUBLIC, or through
 * roles granted to those), as the CTE held(r); ?1 is the user. */
#define HELD_CTE                                                                                   \
    "WITH RECURSIVE held(r) AS (SELECT rolename FROM _ixd_roleauth WHERE grantee IN (?1, "         \
    "'public') UNION SELECT a.rolename FROM _ixd_roleauth a JOIN held ON a.grantee = held.r) "

/* Runs sql with ?1 a and ?2 b; with out, the first column of its first row
 * goes there ("" when none) and the return is 1 when there was a row, 0 when
 * not; without, the statement runs to its end (0). -1 with p failed. */
static int q_text(px *p, const char *sql, const char *a, const char *b, char *out, size_t n) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(p->db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
    sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), res = 0;
    if (out) {
        out[0] = 0;
        if (rc == SQLITE_ROW) {
            const unsigned char *v = sqlite3_column_text(st, 0);
            snprintf(out, n, "%s", v ? (const char *)v : "");
            res = 1;
        }
    } else if (rc != SQLITE_DONE)
        res = ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
    if (out && rc != SQLITE_ROW && rc != SQLITE_DONE)
        res = ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
    sqlite3_finalize(st);
    return res;
}

/* 1 when name is a role of the database, 0 when not, -1 error. */
static int role_exists(px *p, const char *name) {
    char t[2];
    return q_text(p, "SELECT 1 FROM _ixd_users WHERE username = ?1 AND usertype = 'G'", name, NULL,
                  t, sizeof t);
}

/* The role must exist: 0, or -1 with IXS_E_ROLE_UNKNOWN. */
static int need_role(px *p, const char *name) {
    int r = role_exists(p, name);
    if (r < 0) return -1;
    return r ? 0 : ixs_px_failc(p, IXS_E_ROLE_UNKNOWN, "%s", name);
}

int ixs_role_name(px *p, char *buf, size_t n) {
    if (p->i < p->nt && p->t[p->i].k == T_STR) {
        sb s = {0};
        ixs_px_tokstr(p, p->i, &s);
        int bad = s.oom || s.n == 0 || s.n > IXS_NAME_MAX;
        if (!bad) snprintf(buf, n, "%s", s.p);
        ixv_sb_free(&s);
        return bad ? ixs_px_fail(p) : (p->i++, 0);
    }
    return ixs_px_ident(p, buf, n);
}

/* Names that cannot be a role's: they mean something else after ROLE. */
static int reserved_role(const char *name) {
    static const char *const words[] = {"public", "none", "null", "default"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (!strcmp(name, words[k])) return 1;
    return 0;
}

static int create_run(px *p, const roledef *d) {
    char t[2];
    int r = q_text(p, "SELECT usertype FROM _ixd_users WHERE username = ?1", d->name, NULL, t,
                   sizeof t);
    if (r < 0) return -1;
    if (r) return d->ife && t[0] == 'G' ? 0 : ixs_px_failc(p, IXS_E_ROLE_EXISTS, "%s", d->name);
    if (ixs_ddl_begin(p)) return -1;
    int rc = q_text(p, "INSERT INTO _ixd_users(username, usertype) VALUES(?1, 'G')", d->name, NULL,
                    NULL, 0);
    return ixs_ddl_end(p, rc == 0);
}

static int drop_run(px *p, const roledef *d) {
    int r = role_exists(p, d->name);
    if (r <= 0) return r < 0 ? -1 : d->ife ? 0 : ixs_px_failc(p, IXS_E_ROLE_UNKNOWN, "%s", d->name);
    static const char *const sql[] = {
        "DELETE FROM _ixd_users WHERE username = ?1 AND usertype = 'G'",
        "DELETE FROM _ixd_roleauth WHERE rolename = ?1 OR grantee = ?1",
        "DELETE FROM _ixd_tabauth WHERE grantee = ?1",
        "DELETE FROM _ixd_colauth WHERE grantee = ?1",
        "UPDATE _ixd_users SET defrole = NULL WHERE defrole = ?1",
    };
    if (ixs_ddl_begin(p)) return -1;
    int rc = 0;
    for (size_t k = 0; !rc && k < sizeof sql / sizeof sql[0]; k++)
        rc = q_text(p, sql[k], d->name, NULL, NULL, 0);
    if (!rc && p->db->role_set && !strcmp(p->db->role, d->name)) p->db->role[0] = 0;
    return ixs_ddl_end(p, rc == 0);
}

/* The user's default role (PUBLIC's when the user has none) into out ("":
 * none); 0 or -1. */
static int default_role(px *p, char *out, size_t n) {
    int r = q_text(p,
                   "SELECT defrole FROM _ixd_users WHERE username IN (?1, 'public') AND defrole IS"
                   " NOT NULL ORDER BY username = 'public'",
                   p->db->user, NULL, out, n);
    return r < 0 ? -1 : 0;
}

static int set_run(px *p, const roledef *d) {
    char role[IXS_NAME_MAX + 1] = "";
    if (d->set == RS_DEFAULT && default_role(p, role, sizeof role)) return -1;
    if (d->set == RS_NAME) {
        if (need_role(p, d->name)) return -1;
        char t[2];
        int held = q_text(p, HELD_CTE "SELECT 1 FROM held WHERE r = ?2", p->db->user, d->name, t,
                          sizeof t);
        if (held <= 0) return held < 0 ? -1 : ixs_px_failc(p, IXS_E_ROLE_UNKNOWN, "%s", d->name);
        snprintf(role, sizeof role, "%s", d->name);
    }
    snprintf(p->db->role, sizeof p->db->role, "%s", role);
    p->db->role_set = 1;
    return 0;
}

static int role_run(px *p, const void *tree) {
    const roledef *d = tree;
    switch (d->verb) {
    case RV_CREATE: return create_run(p, d);
    case RV_DROP: return drop_run(p, d);
    default: return set_run(p, d);
    }
}

/* After CREATE / DROP: [IF [NOT] EXISTS] role. After SET: role | NONE | NULL
 * | DEFAULT. */
static int role_parse(px *p, int verb, roledef *d) {
    d->verb = verb;
    if (verb == RV_SET) {
        if (ixs_px_acc(p, IXK_NULL) || ixs_px_acc_str(p, "none")) {
            d->set = RS_NONE;
            return 0;
        }
        if (ixs_px_acc(p, IXK_DEFAULT)) {
            d->set = RS_DEFAULT;
            return 0;
        }
    } else if (ixs_px_acc(p, IXK_IF)) {
        if (verb == RV_CREATE && ixs_px_expect(p, IXK_NOT)) return -1;
        if (ixs_px_expect(p, IXK_EXISTS)) return -1;
        d->ife = 1;
    }
    int at = p->i;
    if (ixs_role_name(p, d->name, sizeof d->name)) return -1;
    if (reserved_role(d->name) && p->t[at].k != T_STR) return ixs_px_fail_at(p, at);
    return 0;
}

int ixs_role_stmt(px *p, int verb, int *stype, ixs_plan *pl) {
    if (!ixs_px_kw_str(p, p->i, "role")) return 0;
    int v = verb == 'C' ? RV_CREATE : verb == 'D' ? RV_DROP : verb == 'S' ? RV_SET : -1;
    if (v < 0) return 0;
    p->i++;
    *stype = v == RV_CREATE ? IX_STMTTYPE_CREATE_ROLE
             : v == RV_DROP ? IX_STMTTYPE_DROP_ROLE
                            : IX_STMTTYPE_SET_ROLE;
    roledef d;
    memset(&d, 0, sizeof d);
    if (role_parse(p, v, &d) || ixs_plan_keep(p, pl, &d, sizeof d, role_run, NULL)) {
        p->failed = 1;
        return 1;
    }
    return 1;
}

/* ---- GRANT / REVOKE [DEFAULT] ROLE (parsed by ixs_priv.c) --------------------------------- */

static int grant_one(px *p, const ixs_priv *g, const char *grantee) {
    if (g->kind == IXS_PRIV_ROLE) {
        if (!strcmp(grantee, g->table)) return ixs_px_failc(p, IXV_E_SYNTAX, NULL);
        if (g->revoke)
            return q_text(p, "DELETE FROM _ixd_roleauth WHERE rolename = ?1 AND grantee = ?2",
                          g->table, grantee, NULL, 0);
        return q_text(p,
                      g->grant_option ? "INSERT OR REPLACE INTO _ixd_roleauth VALUES(?1, ?2, 'y')"
                                      : "INSERT OR REPLACE INTO _ixd_roleauth VALUES(?1, ?2, 'n')",
                      g->table, grantee, NULL, 0);
    }
    if (g->revoke)
        return q_text(p, "UPDATE _ixd_users SET defrole = NULL WHERE username = ?1", grantee, NULL,
                      NULL, 0);
    /* the default role is granted too; a user without a sysusers row gets
     * one (Connect), as a user's row is where Informix keeps defrole */
    return q_text(p, "INSERT OR IGNORE INTO _ixd_roleauth VALUES(?2, ?1, 'n')", grantee, g->table,
                  NULL, 0) ||
                   q_text(p,
                          "INSERT INTO _ixd_users(username, usertype, defrole) VALUES(?1, 'C', ?2)"
                          " ON CONFLICT(username) DO UPDATE SET defrole = excluded.defrole",
                          grantee, g->table, NULL, 0)
               ? -1
               : 0;
}

int ixs_role_grant_run(px *p, const ixs_priv *g) {
    if (g->table[0] && need_role(p, g->table)) return -1;
    if (ixs_ddl_begin(p)) return -1;
    int rc = 0;
    for (int i = 0; i < g->ngrantees && !rc; i++)
        rc = grant_one(p, g, g->grantees[i]);
    return ixs_ddl_end(p, rc == 0 && !p->failed);
}

/* ---- CURRENT_ROLE, DEFAULT_ROLE --------------------------------------------------------- */

/* ixd_role(0): the current role, ixd_role(1): the default role; NULL for none. */
static void fn_role(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    ixs_conn *c = sqlite3_user_data(ctx);
    px p;
    memset(&p, 0, sizeof p);
    ixv_err err;
    p.db = c;
    p.err = &err;
    char role[IXS_NAME_MAX + 1] = "";
    if (sqlite3_value_int(argv[0]) == 0 && c->role_set)
        snprintf(role, sizeof role, "%s", c->role);
    else if (default_role(&p, role, sizeof role)) {
        ixv_fn_raise(ctx, &err);
        return;
    }
    if (role[0])
        sqlite3_result_text(ctx, role, -1, SQLITE_TRANSIENT);
    else
        sqlite3_result_null(ctx);
}

int ixs_role_register(sqlite3 *h, ixs_conn *c) {
    return sqlite3_create_function(h, IXS_ROLE_FN, 1, SQLITE_UTF8, c, fn_role, NULL, NULL);
}
