/*
 * ixs_dbstmt.c: the database statements of a session: CREATE DATABASE, DROP
 * DATABASE, DATABASE and CLOSE DATABASE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "server/sql/ixs_lob.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_ddl_tree.h"
#include "server/sql/ixs_parse.h"
#include "server/sql/ixs_sel.h"
#include "server/sql/ixs_spl.h"

#define MAXC IXS_MAX_COLS
#include "server/sql/ixs_ddl_int.h"

/* ---- database statements of a session ------------------------------------------------------ */

/* A database name: an identifier or a "quoted" one; longer than 128 bytes is
 * -354 "Incorrect database or cursor name format." (not a syntax error). */
static int db_name(px *p, char *name) {
    if (ixs_px_is_name(p, p->i)) {
        const tok *t = &p->t[p->i];
        int quoted = t->k == T_STR;
        if (t->len - (quoted ? 2 : 0) > IXS_NAME_MAX)
            return ixs_px_failc(p, IXS_E_DB_NAME, "%.*s", IXS_NAME_MAX, p->sql + t->pos + quoted);
    }
    return ixs_px_ident(p, name, IXS_NAME_MAX + 1);
}

/* What a session statement works on: the engine, the user, the session's
 * current database (replaced by the statement) and its flags. */
typedef struct dbctx {
    ixd_engine *e;
    const char *user;
    ixd_db **dbp;
    int *dbflags;
    ixv_err *err;
} dbctx;

/* Opens database name as the session's current one (the old one closed). */
static int switch_db(dbctx *c, const char *name) {
    ixd_db *ndb;
    int fl = 0;
    if (ixd_db_open(c->e, name, c->user, &ndb, &fl, c->err)) return -1;
    ixd_db_close(*c->dbp);
    *c->dbp = ndb;
    if (c->dbflags) *c->dbflags = fl;
    return 1;
}

/* CREATE DATABASE [IF NOT EXISTS] name [IN dbspace] [WITH [BUFFERED] LOG |
 * WITH LOG MODE ANSI] [NLSCASE {SENSITIVE | INSENSITIVE}], after DATABASE:
 * -330 when it exists (with IF NOT EXISTS the existing database becomes the
 * current one, as a new one would); the new database becomes the current
 * one. 1 done, -1 error, -2 syntax error. */
static int create_db_stmt(px *p, dbctx *c) {
    char name[IXS_NAME_MAX + 1];
    int ifne = 0, mode = 0;
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -2;
        ifne = 1;
    }
    if (db_name(p, name)) return -2;
    if (ixs_px_acc(p, IXK_IN)) {
        char d[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, d, sizeof d)) return -2;
    }
    if (ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_acc(p, IXK_BUFFERED)) {
            if (ixs_px_expect(p, IXK_LOG)) return -2;
            mode = 2;
        } else if (ixs_px_acc(p, IXK_LOG)) {
            mode = 1;
            if (ixs_px_acc(p, IXK_MODE)) {
                if (ixs_px_expect(p, IXK_ANSI)) return -2;
                mode = 3;
            }
        } else
            return -2;
    }
    (void)(ixs_px_acc(p, IXK_NLSCASE) &&
           (ixs_px_acc(p, IXK_SENSITIVE) || ixs_px_acc(p, IXK_INSENSITIVE)));
    if (ixs_at_end(p)) return -2;
    char path[4096];
    if (ixd_db_path(c->e, name, path, sizeof path, c->err)) return -1;
    struct stat stt;
    if (stat(path, &stt) == 0) /* IF NOT EXISTS: the existing one becomes current */
        return ifne ? switch_db(c, name) : ixv_seterr(c->err, -330, 0, 0, "%s", name);
    if (ixd_create_database(c->e, name, mode, c->user, c->err)) return -1;
    return switch_db(c, name);
}

/* DROP DATABASE [IF EXISTS] name, after DATABASE. */
static int drop_db_stmt(px *p, dbctx *c) {
    char name[IXS_NAME_MAX + 1];
    int ife = 0;
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_EXISTS)) return -2;
        ife = 1;
    }
    if (db_name(p, name) || ixs_at_end(p)) return -2;
    return ixd_drop_database(c->e, name, *c->dbp, ife, c->err) ? -1 : 1;
}

/* DATABASE name[@server] [EXCLUSIVE], after DATABASE. */
static int database_stmt(px *p, dbctx *c) {
    char name[IXS_NAME_MAX + 1];
    if (db_name(p, name)) return -2;
    if (ixs_px_acc_op(p, "@")) {
        char srv[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, srv, sizeof srv)) return -2;
    }
    ixs_px_acc(p, IXK_EXCLUSIVE);
    if (ixs_at_end(p)) return -2;
    return switch_db(c, name);
}

/* CLOSE DATABASE, after DATABASE: -349 without a current database. */
static int close_db_stmt(px *p, dbctx *c) {
    if (ixs_at_end(p)) return -2;
    if (!*c->dbp) return ixv_seterr(c->err, -349, 0, 0, NULL);
    ixd_db_close(*c->dbp);
    *c->dbp = NULL;
    return 1;
}

int ixs_dbstmt(ixd_engine *e, const char *user, const char *sql, size_t n, ixd_db **dbp,
               int *dbflags, ixv_err *err) {
    px p;
    ixd_db dummy;
    memset(&dummy, 0, sizeof dummy);
    if (ixs_px_init(&p, &dummy, sql, n, err)) {
        ixs_px_done(&p);
        /* not ours if it does not even tokenize: let prepare report it */
        memset(err, 0, sizeof *err);
        return 0;
    }
    dbctx c = {e, user, dbp, dbflags, err};
    int create = ixs_px_kw(&p, 0, IXK_CREATE) && ixs_px_kw(&p, 1, IXK_DATABASE);
    int drop = ixs_px_kw(&p, 0, IXK_DROP) && ixs_px_kw(&p, 1, IXK_DATABASE);
    int close = ixs_px_kw(&p, 0, IXK_CLOSE) && ixs_px_kw(&p, 1, IXK_DATABASE);
    int open = ixs_px_kw(&p, 0, IXK_DATABASE);
    int rc = 0;
    ixd_txn_sync(*dbp);
    if ((create || open || close) && *dbp && (*dbp)->in_txn && (*dbp)->logmode != 3)
        rc = ixv_seterr(err, -377, 0, 0, NULL);
    else if (create || drop || close) {
        p.i = 2;
        rc = create ? create_db_stmt(&p, &c) : drop ? drop_db_stmt(&p, &c) : close_db_stmt(&p, &c);
    } else if (open) {
        p.i = 1;
        rc = database_stmt(&p, &c);
    }
    if (rc == -2) {
        ixs_px_fail(&p); /* sets -201 unless a more precise error is already set */
        rc = -1;
    }
    ixs_px_done(&p);
    return rc;
}
