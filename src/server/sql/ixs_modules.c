/*
 * ixs_modules.c: the translator's modules as the engine sees them, one
 * table: what each adds to a new database file's catalogue, brings up to
 * date in a file made by an earlier ixd, registers on a connection (SQL
 * functions, virtual tables) and frees when the connection closes. The
 * engine calls the four functions at the end; it names no module.
 */
#include "server/sql/ixs_func.h"
#include "server/sql/ixs_lob.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_priv.h"
#include "server/sql/ixs_spl.h"

typedef struct module {
    const char *name;
    int (*cat_init)(sqlite3 *h, ixv_err *err); /* 0 or -1 with *err; NULL: none */
    void (*cat_upgrade)(sqlite3 *h);           /* best effort; NULL: none */
    int (*reg)(sqlite3 *h, ixs_conn *c);       /* SQLITE_OK or not; NULL: none */
    void (*close)(ixs_conn *c);                /* NULL: none */
} module;

/* A catalogue's SQL run at creation: -330 with SQLite's text (and ISAM
 * -131 when the disk or the file's size limit is full). */
static int cat_run(sqlite3 *h, int rc, ixv_err *err) {
    if (rc == SQLITE_OK) return 0;
    int full = (rc & 0xff) == SQLITE_FULL;
    return ixv_seterr(err, IXS_E_CREATE_DB, full ? IXS_ISAM_NO_SPACE : 0, 0, "%s",
                      sqlite3_errmsg(h));
}

static int priv_init(sqlite3 *h, ixv_err *err) {
    return cat_run(h, sqlite3_exec(h, ixs_priv_cat_ddl(), NULL, NULL, NULL), err);
}
static int row_init(sqlite3 *h, ixv_err *err) {
    return cat_run(h, ixs_row_cat_init(h), err);
}
static int objs_init(sqlite3 *h, ixv_err *err) {
    return cat_run(h, ixs_objs_cat_init(h), err);
}
static int builtins_reg(sqlite3 *h, ixs_conn *c) {
    return ixs_register_builtins(h, c);
}
static int coll_reg(sqlite3 *h, ixs_conn *c) {
    (void)c;
    return ixs_coll_register(h);
}
static int row_reg(sqlite3 *h, ixs_conn *c) {
    (void)c;
    return ixs_row_register(h);
}

/* In order: creation, upgrade and registration run down the table, closing
 * too (SPL's kept statements go before the sequences and LOs they use). */
static const module modules[] = {
    {"built-in functions", NULL, NULL, builtins_reg, NULL},
    {"collections", NULL, NULL, coll_reg, NULL},
    {"privileges and roles", priv_init, NULL, ixs_role_register,
     NULL}, /* upgraded with the engine's tables */
    {"SPL routines and triggers", ixs_spl_cat_init, ixs_spl_cat_upgrade, ixs_spl_register,
     ixs_spl_close},
    {"ROW types", row_init, ixs_row_cat_upgrade, row_reg, NULL},
    {"sequences, synonyms and views", objs_init, ixs_objs_cat_upgrade, ixs_objs_register,
     ixs_seq_close},
    {"smart LOBs", NULL, NULL, ixs_lob_register, ixs_lob_close},
};
#define NMODULES (sizeof modules / sizeof modules[0])

int ixs_cat_init(sqlite3 *h, ixv_err *err) {
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i].cat_init && modules[i].cat_init(h, err)) return -1;
    return 0;
}

void ixs_cat_upgrade(sqlite3 *h) {
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i].cat_upgrade) modules[i].cat_upgrade(h);
}

int ixs_register(sqlite3 *h, ixs_conn *c) {
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i].reg && modules[i].reg(h, c) != SQLITE_OK) return -1;
    return 0;
}

void ixs_close(ixs_conn *c) {
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i].close) modules[i].close(c);
}
