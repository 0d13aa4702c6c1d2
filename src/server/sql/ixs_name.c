/* ixs_name.c: the one parser of object names (tables, views, indexes,
 * constraints, synonyms, types) in every statement.
 *
 * Informix writes names the way dbschema and dbexport print them:
 *
 *   objname   := [ database [ '@' server ] ':' ] [ owner '.' ] name
 *   database  := identifier
 *   server    := identifier
 *   owner     := identifier | "quoted owner" | 'quoted owner' (DELIMIDENT)
 *   name      := identifier | "quoted name"
 *
 * The owner is kept for the catalogue (systables.owner, sysindices.owner,
 * sysconstraints.owner) when a statement defines an object, and otherwise has
 * no part in name resolution: in a database that is not ANSI-compliant
 * Informix resolves a table by its name alone (two owners cannot both have a
 * table of the same name), so `"informix".customer` and `customer` are the
 * same table whoever the owner is. A quoted owner keeps its case and
 * characters, an unquoted one is folded to lower case, as ixs_px_ident does.
 * Under DELIMIDENT a "quoted" name is a delimited identifier (a T_ID token)
 * and an owner may also be written in single quotes.
 *
 * A database prefix must name the current database or sysmaster (the tables
 * of sysmaster that ixd has, such as sysdatabases and sysdual, exist in every
 * database); another database is -206 with its name: ixd has no cross-database
 * queries. The server of `database@server:` is ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sql/ixs_parse.h"

#define IXS_SYSMASTER "sysmaster"

/* 1 when tokens i, i+1 are `owner .` followed by a name. */
static int owner_at(px *p, int i) {
    return ixs_px_is_name(p, i) && ixs_px_op(p, i + 1, ".") && ixs_px_is_name(p, i + 2);
}

/* Under DELIMIDENT, a 'quoted' owner before `.` and a name (Informix takes
 * it there as the owner's name as written): 1 read into buf, 0 not there,
 * -1 error (-201: empty or longer than a name). */
static int single_quoted_owner(px *p, char *buf, size_t n) {
    int i = p->i;
    if (!p->db || !p->db->delimident || i >= p->nt || p->t[i].k != T_STR ||
        p->sql[p->t[i].pos] != '\'' || !ixs_px_op(p, i + 1, ".") || !ixs_px_is_name(p, i + 2))
        return 0;
    sb b = {0};
    ixs_px_tokstr(p, i, &b);
    int bad = b.oom || b.n == 0 || b.n > IXS_NAME_MAX || b.n >= n || strlen(b.p) != b.n;
    if (!bad) memcpy(buf, b.p, b.n + 1);
    ixv_sb_free(&b);
    if (bad) return ixs_px_fail(p);
    p->i++;
    return 1;
}

int ixs_name_parse(px *p, int flags, ixs_name *o) {
    memset(o, 0, sizeof *o);
    o->pos = p->i < p->nt ? p->t[p->i].pos : (int)p->n;
    char a[IXS_NAME_MAX + 1];
    int start = p->i;
    int sq = single_quoted_owner(p, a, sizeof a);
    if (sq < 0 || (!sq && ixs_px_ident(p, a, sizeof a))) return -1;
    if ((flags & IXS_NAME_DB) && (ixs_px_op(p, p->i, "@") || ixs_px_op(p, p->i, ":"))) {
        if (ixs_px_acc_op(p, "@")) {
            if (ixs_px_ident(p, o->server, sizeof o->server)) return -1;
        }
        if (ixs_px_expect_op(p, ":")) return -1;
        snprintf(o->db, sizeof o->db, "%s", a);
        if (strcmp(a, p->db->name) && strcmp(a, IXS_SYSMASTER))
            return ixs_px_failc(p, IXV_E_NO_TABLE, "%s", a);
        start = p->i;
        if (ixs_px_ident(p, a, sizeof a)) return -1;
    }
    if (ixs_px_op(p, p->i, ".") && ixs_px_is_name(p, p->i + 1)) {
        snprintf(o->owner, sizeof o->owner, "%s", a);
        p->i++;
        start = p->i;
        if (ixs_px_ident(p, a, sizeof a)) return -1;
    }
    if ((flags & IXS_NAME_NEW) && ixv_internal_name(a)) {
        p->i = start;
        return ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", a);
    }
    snprintf(o->name, sizeof o->name, "%s", a);
    return 0;
}

int ixs_px_objname(px *p, int flags, char *name, size_t n) {
    ixs_name o;
    if (ixs_name_parse(p, flags, &o)) return -1;
    snprintf(name, n, "%s", o.name);
    return 0;
}

int ixs_name_skip_owner(px *p) {
    if (!owner_at(p, p->i)) return 0;
    p->i += 2;
    return 1;
}

int ixs_name_is_owner_colref(px *p, int i) {
    /* "owner".table.column: a quoted owner, then two more names */
    return i < p->nt && p->t[i].k == T_STR && p->sql[p->t[i].pos] == '"' && owner_at(p, i) &&
           ixs_px_op(p, i + 3, ".") && ixs_px_is_name(p, i + 4);
}

const char *ixs_name_owner(const ixs_name *o, const ixs_conn *db) {
    return o->owner[0] ? o->owner : db->user;
}

void ixs_itab_free(itab *t) {
    if (!t) return;
    for (int i = 0; i < t->ncols; i++)
        free(t->cols[i].defsql);
    free(t->cols);
    t->cols = NULL;
    t->ncols = 0;
}
