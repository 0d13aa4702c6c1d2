/*
 * ixs_dbstmt.c: the database statements of a session parsed: CREATE
 * DATABASE, DROP DATABASE, DATABASE and CLOSE DATABASE (the engine runs
 * them: engine/ixd_dbstmt.c).
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
        int quoted = t->k == T_STR || t->delim;
        if (t->len - (quoted ? 2 : 0) > IXS_NAME_MAX)
            return ixs_px_failc(p, IXS_E_DB_NAME, "%.*s", IXS_NAME_MAX, p->sql + t->pos + quoted);
    }
    return ixs_px_ident(p, name, IXS_NAME_MAX + 1);
}

/* CREATE DATABASE [IF NOT EXISTS] name [IN dbspace] [WITH [BUFFERED] LOG |
 * WITH LOG MODE ANSI] [NLSCASE {SENSITIVE | INSENSITIVE}], after DATABASE.
 * 0, or -2 on a syntax error. */
static int create_db_stmt(px *p, ixs_dbstmt *d) {
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_NOT) || ixs_px_expect(p, IXK_EXISTS)) return -2;
        d->if_flag = 1;
    }
    if (db_name(p, d->name)) return -2;
    if (ixs_px_acc(p, IXK_IN)) {
        char space[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, space, sizeof space)) return -2;
    }
    if (ixs_px_acc(p, IXK_WITH)) {
        if (ixs_px_acc(p, IXK_BUFFERED)) {
            if (ixs_px_expect(p, IXK_LOG)) return -2;
            d->logmode = IXS_LOGMODE_BUFFERED;
        } else if (ixs_px_acc(p, IXK_LOG)) {
            d->logmode = IXS_LOGMODE_LOG;
            if (ixs_px_acc(p, IXK_MODE)) {
                if (ixs_px_expect(p, IXK_ANSI)) return -2;
                d->logmode = IXS_LOGMODE_ANSI;
            }
        } else
            return -2;
    }
    (void)(ixs_px_acc(p, IXK_NLSCASE) &&
           (ixs_px_acc(p, IXK_SENSITIVE) || ixs_px_acc(p, IXK_INSENSITIVE)));
    return ixs_at_end(p) ? -2 : 0;
}

/* DROP DATABASE [IF EXISTS] name, after DATABASE. */
static int drop_db_stmt(px *p, ixs_dbstmt *d) {
    if (ixs_px_acc(p, IXK_IF)) {
        if (ixs_px_expect(p, IXK_EXISTS)) return -2;
        d->if_flag = 1;
    }
    return db_name(p, d->name) || ixs_at_end(p) ? -2 : 0;
}

/* DATABASE name[@server] [EXCLUSIVE], after DATABASE. */
static int database_stmt(px *p, ixs_dbstmt *d) {
    if (db_name(p, d->name)) return -2;
    if (ixs_px_acc_op(p, "@")) {
        char srv[IXS_NAME_MAX + 1];
        if (ixs_px_ident(p, srv, sizeof srv)) return -2;
    }
    ixs_px_acc(p, IXK_EXCLUSIVE);
    return ixs_at_end(p) ? -2 : 0;
}

int ixs_dbstmt_parse(const char *sql, size_t n, ixs_dbstmt *d, ixv_err *err) {
    px p;
    ixs_conn none; /* the statements read no connection state */
    memset(&none, 0, sizeof none);
    memset(d, 0, sizeof *d);
    if (ixs_px_init(&p, &none, sql, n, err)) {
        ixs_px_done(&p);
        /* not ours if it does not even tokenize: let prepare report it */
        memset(err, 0, sizeof *err);
        return 0;
    }
    int rc = 0;
    if (ixs_px_kw(&p, 0, IXK_DATABASE)) {
        d->kind = IXS_DB_OPEN;
        p.i = 1;
        rc = database_stmt(&p, d);
    } else if (ixs_px_kw(&p, 1, IXK_DATABASE)) {
        d->kind = ixs_px_kw(&p, 0, IXK_CREATE)  ? IXS_DB_CREATE
                  : ixs_px_kw(&p, 0, IXK_DROP)  ? IXS_DB_DROP
                  : ixs_px_kw(&p, 0, IXK_CLOSE) ? IXS_DB_CLOSE
                                                : IXS_DB_NONE;
        p.i = 2;
        rc = d->kind == IXS_DB_CREATE  ? create_db_stmt(&p, d)
             : d->kind == IXS_DB_DROP  ? drop_db_stmt(&p, d)
             : d->kind == IXS_DB_CLOSE ? (ixs_at_end(&p) ? -2 : 0)
                                       : 0;
    }
    if (rc == -2) ixs_px_fail(&p); /* sets -201 unless a more precise error is already set */
    ixs_px_done(&p);
    return rc ? -1 : d->kind != IXS_DB_NONE;
}
