/*
 * ixs_priv.c: GRANT and REVOKE of database-level and table-level privileges,
 * kept in the catalogue as Informix keeps them (sysusers, systabauth,
 * syscolauth).
 *
 * ixd records privileges but does not enforce them: every user who can
 * connect may read and change every table (docs/server-sql.md). What is
 * recorded is what tools read: dbschema's GRANT statements, DB-Access's INFO
 * PRIVILEGES, and applications that look at systabauth.
 *
 * systabauth.tabauth is a 9-character pattern, one position per privilege
 * (IBM's Guide to SQL: Reference):
 *
 *   position  0 1 2 3 4 5 6 7 8
 *   letter    s u * i d x a r n
 *             | | | | | | | | under
 *             | | | | | | | references
 *             | | | | | | alter
 *             | | | | | index
 *             | | | | delete
 *             | | | insert
 *             | | column-level privileges exist (syscolauth)
 *             | update
 *             select
 *
 * A letter in upper case was granted WITH GRANT OPTION; '-' is a privilege not
 * held. syscolauth.colauth has three positions: s u r (select, update,
 * references) for one column.
 *
 * A new table of a database without ANSI mode grants Select, Update, Insert,
 * Delete and Index to PUBLIC ('su-idx---', grantor the owner), as Informix
 * does unless NODEFDAC is set; an ANSI database grants nothing to PUBLIC.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_priv.h"

#define TABAUTH_LEN            9
#define COLAUTH_LEN            3
#define TABAUTH_NONE           "---------"
#define COLAUTH_NONE           "---"
#define TABAUTH_PUBLIC_DEFAULT "su-idx---"
#define TABAUTH_COLS           2 /* the '*' position */

enum {
    IXS_E_NO_TABLE = IXV_E_NO_TABLE,   /* The specified table (%s) is not in the database. */
    IXS_E_NO_COLUMN = IXV_E_NO_COLUMN, /* Column (%s) not found in any table in the query. */
};

/* One table-level privilege: its keyword, its letter and position in
 * tabauth, and its position in colauth (-1: no column form). */
static const struct tpriv {
    int kw;
    char letter;
    int pos;
    int colpos;
} tprivs[] = {
    {IXK_SELECT, 's', 0, 0},     {IXK_UPDATE, 'u', 1, 1}, {IXK_INSERT, 'i', 3, -1},
    {IXK_DELETE, 'd', 4, -1},    {IXK_INDEX, 'x', 5, -1}, {IXK_ALTER, 'a', 6, -1},
    {IXK_REFERENCES, 'r', 7, 2}, {IXK_UNDER, 'n', 8, -1},
};
#define NTPRIVS (sizeof tprivs / sizeof tprivs[0])
_Static_assert(NTPRIVS == IXS_PRIV_NTABLE, "one cols[] entry per table-level privilege");

/* Database-level privileges: keyword and sysusers.usertype. */
static const struct dpriv {
    const char *word;
    char usertype;
} dprivs[] = {{"connect", 'C'}, {"resource", 'R'}, {"dba", 'D'}};

void ixs_priv_free(ixs_priv *g) {
    free(g->grantees);
    for (size_t i = 0; i < NTPRIVS; i++)
        free(g->cols[i]);
    memset(g, 0, sizeof *g);
}

/* The database-level privilege at p->i (followed by TO, or FROM for
 * REVOKE), or -1. */
static int dpriv_at(px *p, int revoke) {
    for (int k = 0; k < 3; k++)
        if (ixs_px_kw_str(p, p->i, dprivs[k].word) &&
            ixs_px_kw(p, p->i + 1, revoke ? IXK_FROM : IXK_TO))
            return k;
    return -1;
}

/* 1 when a role's name is at p->i, followed by TO (FROM for REVOKE): a name
 * or 'string' that is no privilege and no built-in role (EXTEND, DBSECADM,
 * ..., accepted without effect as before). */
static int role_at(px *p, int revoke) {
    static const char *const builtin[] = {"extend", "dbsecadm", "dbsso", "aao", "access"};
    if (!ixs_px_kw(p, p->i + 1, revoke ? IXK_FROM : IXK_TO)) return 0;
    if (p->t[p->i].k == T_STR) return 1;
    if (!ixs_px_is_ident(p, p->i)) return 0;
    for (size_t k = 0; k < sizeof builtin / sizeof builtin[0]; k++)
        if (ixs_px_kw_str(p, p->i, builtin[k])) return 0;
    return 1;
}

static int tpriv_of(px *p, int i) {
    for (size_t k = 0; k < NTPRIVS; k++)
        if (ixs_px_kw(p, i, tprivs[k].kw)) return (int)k;
    return -1;
}

/* A user name: an identifier, a "quoted" identifier or a 'string'. */
static int user_name(px *p, char *buf, size_t n) {
    if (p->t[p->i].k == T_STR) {
        sb s = {0};
        ixs_px_tokstr(p, p->i, &s);
        snprintf(buf, n, "%s", s.p ? s.p : "");
        ixv_sb_free(&s);
        p->i++;
        return 0;
    }
    return ixs_px_ident(p, buf, n);
}

/* grantees: PUBLIC | user [, user ...] */
static int grantee_list(px *p, ixs_priv *g) {
    for (;;) {
        char(*v)[IXS_NAME_MAX + 1] = realloc(g->grantees, (size_t)(g->ngrantees + 1) * sizeof *v);
        if (!v) return ixs_px_failc(p, IXV_E_NOMEM, NULL);
        g->grantees = v;
        if (user_name(p, g->grantees[g->ngrantees], sizeof g->grantees[0])) return -1;
        g->ngrantees++;
        if (!ixs_px_acc_op(p, ",")) return 0;
    }
}

/* [ ( column [, column ...] ) ] after SELECT, UPDATE or REFERENCES */
static int priv_cols(px *p, ixs_priv *g, int k) {
    if (!ixs_px_acc_op(p, "(")) return 0;
    if (tprivs[k].colpos < 0) return ixs_px_fail(p);
    sb s = {0};
    if (g->cols[k]) ixv_sb_add(&s, g->cols[k]);
    do {
        char c[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, c, sizeof c)) {
            ixv_sb_free(&s);
            return -1;
        }
        if (s.n) ixv_sb_addc(&s, ',');
        ixv_sb_add(&s, c);
    } while (ixs_px_acc_op(p, ","));
    free(g->cols[k]);
    g->cols[k] = s.p;
    return s.oom ? ixs_px_failc(p, IXV_E_NOMEM, NULL) : ixs_px_expect_op(p, ")");
}

/* ALL [PRIVILEGES] | privilege [(cols)] [, privilege [(cols)] ...] */
static int tpriv_list(px *p, ixs_priv *g) {
    if (ixs_px_acc(p, IXK_ALL)) {
        ixs_px_acc_str(p, "privileges");
        for (size_t k = 0; k < NTPRIVS; k++)
            g->mask |= 1u << k;
        return 0;
    }
    do {
        int k = tpriv_of(p, p->i);
        if (k < 0) return ixs_px_fail(p);
        p->i++;
        g->mask |= 1u << k;
        if (priv_cols(p, g, k)) return -1;
    } while (ixs_px_acc_op(p, ","));
    return 0;
}

/*
 * GRANT { CONNECT | RESOURCE | DBA } TO grantees [AS grantor]
 * GRANT privileges ON [owner.]table TO grantees [WITH GRANT OPTION] [AS grantor]
 * REVOKE { CONNECT | RESOURCE | DBA } FROM grantees
 * REVOKE privileges ON [owner.]table FROM grantees [CASCADE | RESTRICT] [AS grantor]
 *
 * GRANT role TO grantees [WITH GRANT OPTION] | REVOKE role FROM grantees
 * GRANT DEFAULT ROLE role TO grantees | REVOKE DEFAULT ROLE FROM grantees
 *   (ixs_role.c, the role in g->table)
 *
 * Other forms (EXECUTE ON routines, USAGE ON types and languages, built-in
 * roles, FRAGMENT) return 0 with g->kind IXS_PRIV_OTHER: accepted without
 * effect. p is at GRANT or REVOKE.
 */
int ixs_priv_parse(px *p, ixs_priv *g) {
    memset(g, 0, sizeof *g);
    g->revoke = ixs_px_kw(p, p->i, IXK_REVOKE);
    p->i++;
    int d = dpriv_at(p, g->revoke);
    if (d >= 0) {
        g->kind = IXS_PRIV_DATABASE;
        g->usertype = dprivs[d].usertype;
        p->i += 2;
    } else if (ixs_px_kw(p, p->i, IXK_ALL) || tpriv_of(p, p->i) >= 0) {
        g->kind = IXS_PRIV_TABLE;
        if (tpriv_list(p, g) || ixs_px_expect(p, IXK_ON)) return -1;
        if (ixs_px_objname(p, 0, g->table, sizeof g->table)) return -1;
        if (ixs_px_expect(p, g->revoke ? IXK_FROM : IXK_TO)) return -1;
    } else if (ixs_px_kw(p, p->i, IXK_DEFAULT) && ixs_px_kw_str(p, p->i + 1, "role")) {
        g->kind = IXS_PRIV_DEFROLE;
        p->i += 2;
        if (!g->revoke && ixs_role_name(p, g->table, sizeof g->table)) return -1;
        if (ixs_px_expect(p, g->revoke ? IXK_FROM : IXK_TO)) return -1;
    } else if (role_at(p, g->revoke)) {
        g->kind = IXS_PRIV_ROLE;
        if (ixs_role_name(p, g->table, sizeof g->table)) return -1;
        p->i++; /* TO or FROM */
    } else {
        g->kind = IXS_PRIV_OTHER;
        while (p->i < p->nt && p->t[p->i].k != T_EOF && !ixs_px_op(p, p->i, ";"))
            p->i++;
        return 0;
    }
    if (grantee_list(p, g)) return -1;
    if (!g->revoke && (g->kind == IXS_PRIV_TABLE || g->kind == IXS_PRIV_ROLE) &&
        ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_expect(p, IXK_GRANT) || ixs_px_expect(p, IXK_OPTION)) return -1;
        g->grant_option = 1;
    }
    if (g->revoke && !ixs_px_acc(p, IXK_CASCADE)) ixs_px_acc(p, IXK_RESTRICT);
    if (ixs_px_acc(p, IXK_AS) && user_name(p, g->grantor, sizeof g->grantor)) return -1;
    return 0;
}

/* ---- execution ----------------------------------------------------------------------- */

/* Runs sql with ?1 a, ?2 b, ?3 tabid, ?4 d and ?5 colno (parameters sql does
 * not have are ignored). With out, the first column of the first row goes
 * there ("" when there is none); without, the statement must complete.
 * 0 or -1 (p failed). */
static int run_sql(px *p, const char *sql, const char *a, const char *b, int64_t tabid,
                   const char *d, int64_t colno, char *out, size_t outn) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(p->db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
    sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, tabid);
    sqlite3_bind_text(st, 4, d, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, colno);
    int rc = 0;
    if (out) {
        out[0] = 0;
        if (sqlite3_step(st) == SQLITE_ROW) {
            const unsigned char *v = sqlite3_column_text(st, 0);
            snprintf(out, outn, "%s", v ? (const char *)v : "");
        }
    } else if (sqlite3_step(st) != SQLITE_DONE)
        rc = ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
    sqlite3_finalize(st);
    return rc;
}

/* Sets (grant) or clears (revoke) the letters of mask in pattern pat
 * (tabauth or colauth), the WITH GRANT OPTION ones in upper case. */
static void apply(char *pat, const int *pos, const char *letters, int n, int revoke, int upper) {
    for (int i = 0; i < n; i++) {
        if (pos[i] < 0) continue;
        pat[pos[i]] =
            revoke ? '-' : (char)(upper ? toupper((unsigned char)letters[i]) : letters[i]);
    }
}

static int is_none(const char *pat) {
    for (; *pat; pat++)
        if (*pat != '-') return 0;
    return 1;
}

/* Writes pattern pat for the row (or deletes the row when it holds none). */
static int store_tabauth(px *p, const char *grantor, const char *grantee, int64_t tabid,
                         const char *pat) {
    if (is_none(pat))
        return run_sql(
            p, "DELETE FROM _ixd_tabauth WHERE grantor = ?1 AND grantee = ?2 AND tabid = ?3",
            grantor, grantee, tabid, NULL, 0, NULL, 0);
    return run_sql(p, "INSERT OR REPLACE INTO _ixd_tabauth VALUES(?1, ?2, ?3, ?4)", grantor,
                   grantee, tabid, pat, 0, NULL, 0);
}

/* The column numbers privilege k of g applies to, into cols (at most max):
 * the columns named (-217 for one the table does not have), or, for a
 * REVOKE of the whole privilege, every column the grantee holds it on. */
static int priv_colnos(px *p, const ixs_priv *g, size_t k, const char *grantor, const char *grantee,
                       int64_t tabid, int64_t *cols, int max, int *n) {
    sqlite3_stmt *st;
    *n = 0;
    if (!g->cols[k]) {
        if (sqlite3_prepare_v2(p->db->h,
                               "SELECT colno FROM _ixd_colauth WHERE grantor = ?1 AND grantee = ?2"
                               " AND tabid = ?3",
                               -1, &st, NULL) != SQLITE_OK)
            return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
        sqlite3_bind_text(st, 1, grantor, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, grantee, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, tabid);
        while (*n < max && sqlite3_step(st) == SQLITE_ROW)
            cols[(*n)++] = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return 0;
    }
    for (const char *c = g->cols[k]; *c && *n < max;) {
        size_t len = strcspn(c, ",");
        char name[IXS_NAME_MAX + 1];
        snprintf(name, sizeof name, "%.*s", (int)len, c);
        int64_t colno = 0;
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(p->db->h,
                               "SELECT colno FROM _ixd_columns WHERE tabid = ?1 AND colname = ?2",
                               -1, &q, NULL) != SQLITE_OK)
            return ixs_px_failc(p, IXV_E_NOT_IMPLEMENTED, "%s", sqlite3_errmsg(p->db->h));
        sqlite3_bind_int64(q, 1, tabid);
        sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
        if (sqlite3_step(q) == SQLITE_ROW) colno = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
        if (!colno) return ixs_px_failc(p, IXS_E_NO_COLUMN, "%s", name);
        cols[(*n)++] = colno;
        c += len + (c[len] == ',');
    }
    return 0;
}

/* The column-level privileges of g for one grantee (syscolauth); *any set
 * when a syscolauth row remains for (grantor, grantee, tabid). */
static int column_privs(px *p, const ixs_priv *g, const char *grantor, const char *grantee,
                        int64_t tabid, int *any) {
    for (size_t k = 0; k < NTPRIVS; k++) {
        int pos = tprivs[k].colpos;
        if (pos < 0 || !(g->mask & (1u << k)) || (!g->cols[k] && !g->revoke)) continue;
        int64_t cols[IXS_PRIV_MAX_COLS];
        int nc;
        if (priv_colnos(p, g, k, grantor, grantee, tabid, cols, IXS_PRIV_MAX_COLS, &nc)) return -1;
        for (int i = 0; i < nc; i++) {
            char pat[COLAUTH_LEN + 1];
            if (run_sql(p,
                        "SELECT colauth FROM _ixd_colauth WHERE grantor = ?1 AND grantee = ?2"
                        " AND tabid = ?3 AND colno = ?5",
                        grantor, grantee, tabid, NULL, cols[i], pat, sizeof pat))
                return -1;
            if (strlen(pat) != COLAUTH_LEN) strcpy(pat, COLAUTH_NONE);
            char letter = tprivs[k].letter;
            apply(pat, &pos, &letter, 1, g->revoke, g->grant_option);
            const char *q = is_none(pat) ? "DELETE FROM _ixd_colauth WHERE grantor = ?1 AND "
                                           "grantee = ?2 AND tabid = ?3 AND colno = ?5"
                                         : "INSERT OR REPLACE INTO _ixd_colauth VALUES(?1, ?2, "
                                           "?3, ?5, ?4)";
            if (run_sql(p, q, grantor, grantee, tabid, pat, cols[i], NULL, 0)) return -1;
        }
    }
    char left[2];
    if (run_sql(p,
                "SELECT 'y' FROM _ixd_colauth WHERE grantor = ?1 AND grantee = ?2 AND tabid = ?3",
                grantor, grantee, tabid, NULL, 0, left, sizeof left))
        return -1;
    *any = left[0] == 'y';
    return 0;
}

/* GRANT / REVOKE on a table for one grantee. */
static int table_grantee(px *p, const ixs_priv *g, const char *grantor, const char *grantee,
                         int64_t tabid) {
    char pat[TABAUTH_LEN + 1];
    if (run_sql(p,
                "SELECT tabauth FROM _ixd_tabauth WHERE grantor = ?1 AND grantee = ?2 AND "
                "tabid = ?3",
                grantor, grantee, tabid, NULL, 0, pat, sizeof pat))
        return -1;
    if (strlen(pat) != TABAUTH_LEN) strcpy(pat, TABAUTH_NONE);
    int pos[NTPRIVS];
    char letters[NTPRIVS];
    int n = 0;
    for (size_t k = 0; k < NTPRIVS; k++) {
        if (!(g->mask & (1u << k))) continue;
        letters[n] = tprivs[k].letter;
        /* a column list grants in syscolauth, not for the whole table */
        pos[n++] = g->cols[k] && !g->revoke ? -1 : tprivs[k].pos;
    }
    apply(pat, pos, letters, n, g->revoke, g->grant_option);
    int anycol = 0;
    if (column_privs(p, g, grantor, grantee, tabid, &anycol)) return -1;
    pat[TABAUTH_COLS] = anycol ? '*' : '-';
    return store_tabauth(p, grantor, grantee, tabid, pat);
}

static int database_grantee(px *p, const ixs_priv *g, const char *grantee) {
    if (!g->revoke)
        return run_sql(
            p,
            "INSERT INTO _ixd_users(username, usertype) VALUES(?1, ?2) ON CONFLICT(username)"
            " DO UPDATE SET usertype = excluded.usertype WHERE usertype <> 'G'",
            grantee,
            g->usertype == 'D'   ? "D"
            : g->usertype == 'R' ? "R"
                                 : "C",
            0, NULL, 0, NULL, 0);
    /* REVOKE CONNECT removes the user; RESOURCE or DBA leaves Connect */
    if (g->usertype == 'C')
        return run_sql(p, "DELETE FROM _ixd_users WHERE username = ?1", grantee, NULL, 0, NULL, 0,
                       NULL, 0);
    return run_sql(p, "UPDATE _ixd_users SET usertype = 'C' WHERE username = ?1 AND usertype = ?2",
                   grantee, g->usertype == 'D' ? "D" : "R", 0, NULL, 0, NULL, 0);
}

int ixs_priv_run(px *p, const ixs_priv *g) {
    if (g->kind == IXS_PRIV_OTHER) return 0;
    if (g->kind == IXS_PRIV_ROLE || g->kind == IXS_PRIV_DEFROLE) return ixs_role_grant_run(p, g);
    const char *grantor = g->grantor[0] ? g->grantor : p->db->user;
    int64_t tabid = 0;
    if (g->kind == IXS_PRIV_TABLE) {
        if (!ixs_ddl_q_int(p->db, "SELECT tabid FROM _ixd_tables WHERE tabname = ?", g->table,
                           &tabid) ||
            tabid <= 0)
            return ixs_px_failc(p, IXS_E_NO_TABLE, "%s", g->table);
    }
    if (ixs_ddl_begin(p)) return -1;
    int rc = 0;
    for (int i = 0; i < g->ngrantees && !rc; i++)
        rc = g->kind == IXS_PRIV_TABLE ? table_grantee(p, g, grantor, g->grantees[i], tabid)
                                       : database_grantee(p, g, g->grantees[i]);
    return ixs_ddl_end(p, rc == 0 && !p->failed);
}

/* ---- catalogue --------------------------------------------------------------------- */

const char *ixs_priv_cat_ddl(void) {
    return "CREATE TABLE IF NOT EXISTS _ixd_tabauth(grantor TEXT, grantee TEXT, tabid INTEGER,"
           " tabauth TEXT, PRIMARY KEY(tabid, grantor, grantee));"
           "CREATE TABLE IF NOT EXISTS _ixd_colauth(grantor TEXT, grantee TEXT, tabid INTEGER,"
           " colno INTEGER, colauth TEXT, PRIMARY KEY(tabid, grantor, grantee, colno));"
           "CREATE TABLE IF NOT EXISTS _ixd_roleauth(rolename TEXT, grantee TEXT,"
           " is_grantable TEXT, PRIMARY KEY(rolename, grantee));";
}

void ixs_priv_new_table_sql(sb *s, int tabid, const char *owner, int logmode) {
    if (logmode == IXS_LOGMODE_ANSI) return;
    ixv_sb_add(s, "INSERT OR IGNORE INTO _ixd_tabauth VALUES(");
    ixv_sb_strlit(s, owner, strlen(owner));
    ixv_sb_printf(s, ", 'public', %d, '" TABAUTH_PUBLIC_DEFAULT "');", tabid);
}

void ixs_priv_upgrade_sql(sb *s, int logmode) {
    if (logmode == IXS_LOGMODE_ANSI) return;
    ixv_sb_add(
        s,
        "INSERT OR IGNORE INTO _ixd_tabauth SELECT owner, 'public', tabid, '" TABAUTH_PUBLIC_DEFAULT
        "' FROM _ixd_tables WHERE tabid >= 100 AND tabtype = 'T';");
}

void ixs_priv_drop_table_sql(sb *s, int64_t tabid) {
    ixv_sb_printf(s,
                  "DELETE FROM _ixd_tabauth WHERE tabid = %lld; DELETE FROM _ixd_colauth WHERE "
                  "tabid = %lld;",
                  (long long)tabid, (long long)tabid);
}
