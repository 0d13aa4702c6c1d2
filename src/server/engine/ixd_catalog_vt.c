/* ixd_catalog_vt.c: the eponymous virtual table _ixd_databases, which lists
 * the databases of the data directory (DIR/<name>.db) with their logging
 * mode; the catalog view sysdatabases is built on it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_int.h"

typedef struct dbrow {
    char name[IXS_NAME_MAX + 1];
    int logmode;
    int created;
} dbrow;

typedef struct vt {
    sqlite3_vtab base;
    ixd_db *db;
} vt;

typedef struct vcur {
    sqlite3_vtab_cursor base;
    dbrow *rows;
    int n, i;
} vcur;

static int x_connect(sqlite3 *h, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **err) {
    (void)argc;
    (void)argv;
    (void)err;
    int rc = sqlite3_declare_vtab(h, "CREATE TABLE x(name TEXT, logmode INTEGER, created INTEGER)");
    if (rc != SQLITE_OK) return rc;
    vt *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->db = aux;
    *out = &v->base;
    return SQLITE_OK;
}

static int x_disconnect(sqlite3_vtab *v) {
    sqlite3_free(v);
    return SQLITE_OK;
}

static int x_best(sqlite3_vtab *v, sqlite3_index_info *info) {
    (void)v;
    info->estimatedCost = 100;
    return SQLITE_OK;
}

static int x_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out) {
    (void)v;
    vcur *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int x_close(sqlite3_vtab_cursor *cur) {
    vcur *c = (vcur *)cur;
    free(c->rows);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int x_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs, int argc,
                    sqlite3_value **argv) {
    (void)idx;
    (void)idxs;
    (void)argc;
    (void)argv;
    vcur *c = (vcur *)cur;
    vt *v = (vt *)cur->pVtab;
    free(c->rows);
    c->rows = NULL;
    c->n = c->i = 0;
    if (!v->db || !v->db->e) return SQLITE_OK;
    DIR *d = opendir(v->db->e->dir);
    if (!d) return SQLITE_OK;
    struct dirent *de;
    int cap = 0;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 4 || l - 3 > IXS_NAME_MAX || strcmp(de->d_name + l - 3, ".db")) continue;
        char name[IXS_NAME_MAX + 1], path[4096];
        snprintf(name, sizeof name, "%.*s", (int)(l - 3), de->d_name);
        ixv_err e;
        if (ixd_db_path(v->db->e, name, path, sizeof path, &e)) continue;
        if (c->n == cap) {
            int nc = cap ? cap * 2 : 16;
            if (nc > 100000) break;
            dbrow *nr = realloc(c->rows, sizeof(dbrow) * (size_t)nc);
            if (!nr) break;
            c->rows = nr;
            cap = nc;
        }
        dbrow *r = &c->rows[c->n];
        snprintf(r->name, sizeof r->name, "%s", name);
        r->logmode = 0;
        r->created = 0;
        sqlite3 *h;
        if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) ==
            SQLITE_OK) {
            sqlite3_busy_timeout(h, 1000);
            sqlite3_stmt *st;
            if (sqlite3_prepare_v2(h, "SELECT k, v FROM _ixd_meta", -1, &st, NULL) == SQLITE_OK) {
                while (sqlite3_step(st) == SQLITE_ROW) {
                    const char *k = (const char *)sqlite3_column_text(st, 0);
                    if (k && !strcmp(k, "logmode")) r->logmode = sqlite3_column_int(st, 1);
                    if (k && !strcmp(k, "created")) r->created = sqlite3_column_int(st, 1);
                }
                sqlite3_finalize(st);
                c->n++;
            }
        }
        sqlite3_close(h);
    }
    closedir(d);
    return SQLITE_OK;
}

static int x_next(sqlite3_vtab_cursor *cur) {
    ((vcur *)cur)->i++;
    return SQLITE_OK;
}
static int x_eof(sqlite3_vtab_cursor *cur) {
    vcur *c = (vcur *)cur;
    return c->i >= c->n;
}
static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
    vcur *c = (vcur *)cur;
    dbrow *r = &c->rows[c->i];
    if (i == 0)
        sqlite3_result_text(ctx, r->name, -1, SQLITE_TRANSIENT);
    else if (i == 1)
        sqlite3_result_int(ctx, r->logmode);
    else
        sqlite3_result_int(ctx, r->created);
    return SQLITE_OK;
}
static int x_rowid(sqlite3_vtab_cursor *cur, sqlite_int64 *id) {
    *id = ((vcur *)cur)->i + 1;
    return SQLITE_OK;
}

/* xCreate NULL: an eponymous-only virtual table */
static const sqlite3_module mod = {
    0,        x_connect, x_connect, x_best,   x_disconnect, x_disconnect, x_open, x_close,
    x_filter, x_next,    x_eof,     x_column, x_rowid,      NULL,         NULL,   NULL,
    NULL,     NULL,      NULL,      NULL,     NULL,         NULL,         NULL,   NULL};

int ixd_register_vtabs(sqlite3 *h, void *db) {
    return sqlite3_create_module(h, IXV_INTERNAL_PREFIX "databases", &mod, db) == SQLITE_OK ? 0
                                                                                            : -1;
}
