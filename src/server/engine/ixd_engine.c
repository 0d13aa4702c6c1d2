/* ixd_engine.c: the engine API of ixd_engine.h over SQLite: databases (one
 * file per database), statements, cursors, transactions. SQLite errors are
 * mapped in ixd_sqlerr.c. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "proto/ix_login.h"
#include "proto/ix_msg.h"
#include "server/sql/ixs_lob.h"
#include "ixd_int.h"
#include "server/sql/ixs_objs.h"
#include "server/sql/ixs_spl.h"
#include "server/ts/ts.h"

int ixd_exec(ixd_db *db, const char *sql, ixv_err *err) {
    int rc = sqlite3_exec(db->x.h, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK) return ixd_sqlite_err(db, rc, 0, NULL, err);
    return 0;
}

static int64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 1 if the session asked to stop the running statement (a client
 * interrupt, shutdown); remembered so that the error becomes -213. */
static int interrupt_asked(ixd_db *db) {
    if (!db->x.interrupted && db->x.intr_fn && db->x.intr_fn(db->x.intr_ud)) db->x.interrupted = 1;
    return db->x.interrupted;
}

/* SQLite's progress callback, every 1000 virtual-machine steps. */
static int progress(void *ud) {
    ixd_db *db = ud;
    return interrupt_asked(db) || (db->x.deadline && mono_ms() > db->x.deadline);
}

/* Lock waits (SET LOCK MODE): SQLite's busy callback, sleeping in steps of
 * at most 20 ms so that an interrupt ends the wait. */
static int busy_wait(void *ud, int count) {
    ixd_db *db = ud;
    int limit = db->x.wait_ms < 0 ? IXS_NOWAIT_GRACE_MS : db->x.wait_ms;
    static const int steps[] = {1, 2, 5, 10, 20};
    int n = (int)(sizeof steps / sizeof *steps);
    int slept = 0; /* steps[0] + ... + steps[count - 1] */
    for (int i = 0; i < count && i < n; i++)
        slept += steps[i];
    if (count > n) slept += (count - n) * steps[n - 1];
    if (slept >= limit || interrupt_asked(db)) return 0;
    int ms = steps[count < n ? count : n - 1];
    if (ms > limit - slept) ms = limit - slept;
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    return 1;
}

void ixd_arm(ixd_db *db) {
    db->x.deadline = db->timeout_ms > 0 ? mono_ms() + db->timeout_ms : 0;
    db->x.interrupted = 0;
}

void ixd_set_interrupt_check(ixd_db *db, int (*fn)(void *ud), void *ud) {
    if (!db) return;
    db->x.intr_fn = fn;
    db->x.intr_ud = ud;
}

void ixd_set_client_channel(ixd_db *db,
                            int (*fn)(void *ud, const uint8_t *req, size_t n, struct ixp_msg *ans),
                            void *ud) {
    if (!db) return;
    db->x.ask_fn = fn;
    db->x.ask_ud = ud;
}

void ixd_set_timeout(ixd_db *db, int ms) {
    if (db) db->timeout_ms = ms > 0 ? ms : 0;
}

int ixd_set_env(ixd_db *db, const char *name, const char *value) {
    if (!db || !name) return -1;
    if (!value) value = "";
    if (!strcmp(name, "DBMONEY")) {
        if (strlen(value) > IXS_DBMONEY_MAX) return -1;
        snprintf(db->x.dbmoney, sizeof db->x.dbmoney, "%s", value);
        db->x.gen++; /* kept translations read it */
        return 0;
    }
    if (!strcmp(name, "DELIMIDENT")) { /* any value but n or N: on */
        int on = !(value[0] == 'n' || value[0] == 'N') || value[1] != 0;
        if (on != db->x.delimident) db->x.gen++; /* kept translations were lexed by it */
        db->x.delimident = on;
        return 0;
    }
    return 1;
}

void ixd_interrupt(ixd_db *db) {
    if (db && db->x.h) sqlite3_interrupt(db->x.h);
}

void ixd_set_busy(ixd_db *db) {
    sqlite3_busy_handler(db->x.h, busy_wait, db);
}

/* ---- engine and databases ------------------------------------------------------------- */

/* The name as the data directory has it: lower case. */
static void fold_name(const char *name, char *out) {
    size_t k;
    for (k = 0; name[k] && k < IXS_NAME_MAX; k++)
        out[k] = (char)((name[k] >= 'A' && name[k] <= 'Z') ? name[k] + 32 : name[k]);
    out[k] = 0;
}

int ixd_db_path(ixd_engine *e, const char *name, char *buf, size_t n, ixv_err *err) {
    size_t len = strlen(name);
    if (len == 0 || len > IXS_NAME_MAX) return ixv_seterr(err, IXS_E_DB_NAME, 0, 0, "%s", name);
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || c == '_' || (i > 0 && c >= '0' && c <= '9') ||
                 (c >= 'A' && c <= 'Z');
        if (!ok) return ixv_seterr(err, IXS_E_DB_NAME, 0, 0, "%s", name);
    }
    char low[IXS_NAME_MAX + 1];
    fold_name(name, low);
    int k = snprintf(buf, n, "%s/%s.db", e->dir, low);
    if (k < 0 || (size_t)k >= n) return ixv_seterr(err, IXS_E_DB_NAME, 0, 0, "%s", name);
    return 0;
}

/* Removes a database file with SQLite's -wal and -shm beside it. */
static void remove_db_files(const char *path) {
    char aux[4200];
    unlink(path);
    snprintf(aux, sizeof aux, "%s-wal", path);
    unlink(aux);
    snprintf(aux, sizeof aux, "%s-shm", path);
    unlink(aux);
    static const char *const seqf[] = {"-seq", "-seq-wal", "-seq-shm"}; /* ixs_seq.c */
    for (size_t i = 0; i < sizeof seqf / sizeof seqf[0]; i++) {
        snprintf(aux, sizeof aux, "%s%s", path, seqf[i]);
        unlink(aux);
    }
}

/* ---- which databases are open (e->mu held) ---- */

static ixd_dbuse *use_find(ixd_engine *e, const char *low) {
    for (int i = 0; i < e->nuse; i++)
        if (!strcmp(e->use[i].name, low)) return &e->use[i];
    return NULL;
}

static int use_add(ixd_engine *e, const char *low) {
    ixd_dbuse *u = use_find(e, low);
    if (u) {
        u->n++;
        return 0;
    }
    if (e->nuse == e->capuse) {
        int cap = e->capuse ? e->capuse * 2 : 16;
        ixd_dbuse *nu = realloc(e->use, sizeof *nu * (size_t)cap);
        if (!nu) return -1;
        e->use = nu;
        e->capuse = cap;
    }
    snprintf(e->use[e->nuse].name, sizeof e->use[0].name, "%s", low);
    e->use[e->nuse++].n = 1;
    return 0;
}

static void use_del(ixd_engine *e, const char *low) {
    ixd_dbuse *u = use_find(e, low);
    if (u && --u->n == 0) *u = e->use[--e->nuse];
}

/* ---- files ---- */

/* Why SQLite could not create or write file `path` beside a database (its
 * -wal or -shm): 0 when it can, else an errno (EISDIR when a directory has
 * the name, EACCES or EROFS when the data directory cannot be written). */
static int aux_file_errno(const char *dir, const char *path) {
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return EISDIR;
        if (!S_ISREG(st.st_mode)) return EINVAL;
        if (access(path, R_OK | W_OK) == 0) return 0;
        /* another session's last close may remove it meanwhile: then as missing */
        if (errno != ENOENT) return errno;
    } else if (errno != ENOENT) {
        return errno;
    }
    return access(dir, W_OK | X_OK) == 0 ? 0 : errno;
}

/* -215 "Cannot open file for table (file)." with the OS errno as the ISAM code. */
static int file_err(ixv_err *err, int oserr, const char *file) {
    return ixv_seterr(err, IXS_E_OPEN_FILE, oserr ? -oserr : 0, 0, "%s", file);
}

/* A database must be writable, and so must the -wal and -shm that WAL mode
 * keeps beside it: otherwise SQLite opens it read only or not at all, and
 * the first write fails far from the cause. Returns 0 or -1 with *err. */
static int check_db_files(ixd_engine *e, const char *path, ixv_err *err) {
    if (access(path, R_OK | W_OK) != 0) return file_err(err, errno, path);
    static const char *const sfx[] = {"-wal", "-shm"};
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        char aux[4200];
        snprintf(aux, sizeof aux, "%s%s", path, sfx[i]);
        int oserr = aux_file_errno(e->dir, aux);
        if (oserr) return file_err(err, oserr, aux);
    }
    return 0;
}

/* SQLite's Bloom filter (3.38 on) hashes a value's bytes, so a join through
 * it drops the rows that the RTRIM collation of character columns finds
 * equal ('ab' and 'ab '): it is turned off on every connection. The mask is
 * SQLITE_BloomFilter of sqliteInt.h, which SQLITE_TESTCTRL_OPTIMIZATIONS
 * takes as the optimizations to disable. */
#define IXD_SQLITE_OPT_BLOOM_FILTER 0x00080000

static int open_file(const char *path, int create, sqlite3 **out) {
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(path, &h, flags, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_close(h);
        return -1;
    }
    sqlite3_extended_result_codes(h, 1);
    sqlite3_busy_timeout(h, 5000);
    sqlite3_test_control(SQLITE_TESTCTRL_OPTIMIZATIONS, h, IXD_SQLITE_OPT_BLOOM_FILTER);
    sqlite3_exec(h,
                 "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
                 " PRAGMA case_sensitive_like=ON;",
                 NULL, NULL, NULL);
    *out = h;
    return 0;
}

static int create_db(ixd_engine *e, const char *name, int logmode, const char *user, ixv_err *err) {
    char path[4096];
    if (ixd_db_path(e, name, path, sizeof path, err)) return -1;
    pthread_mutex_lock(&e->mu);
    struct stat st;
    sqlite3 *h;
    int r = 0;
    if (stat(path, &st) == 0) {
        r = ixv_seterr(err, IXV_E_CREATE_DB, 0, 0, "%s", name);
    } else if (open_file(path, 1, &h)) {
        r = ixv_seterr(err, IXV_E_CREATE_DB, 0, 0, "%s", name);
        remove_db_files(path);
    } else {
        r = ixd_cat_init(h, logmode, user, err);
        if (r && err && err->isamcode == IXS_ISAM_NO_SPACE)
            snprintf(err->text, sizeof err->text, "%s", name);
        sqlite3_close(h);
        if (r) remove_db_files(path);
    }
    pthread_mutex_unlock(&e->mu);
    return r ? -1 : 0;
}

int ixd_create_database(ixd_engine *e, const char *name, int logmode, const char *user,
                        ixv_err *err) {
    return create_db(e, name, logmode, user, err);
}

int ixd_drop_database(ixd_engine *e, const char *name, const ixd_db *cur, int if_exists,
                      ixv_err *err) {
    char path[4096], low[IXS_NAME_MAX + 1];
    if (ixd_db_path(e, name, path, sizeof path, err)) return -1;
    fold_name(name, low);
    struct stat st;
    int r = 0;
    pthread_mutex_lock(&e->mu);
    if (stat(path, &st) != 0)
        r = if_exists ? 0 : ixv_seterr(err, IXV_E_NO_DATABASE, 0, 0, "%s", name);
    else if (cur && !strcmp(cur->x.name, low))
        r = ixv_seterr(err, IXS_E_DROP_CURRENT_DB, 0, 0, "%s", name);
    else if (!strcmp(low, "sysmaster") || use_find(e, low))
        r = ixv_seterr(err, IXS_E_DB_IN_USE, 0, 0, "%s", name);
    else
        remove_db_files(path);
    pthread_mutex_unlock(&e->mu);
    return r;
}

int ixd_engine_open(ixd_engine **out, const char *dir, ixv_err *err) {
    *out = NULL;
    /* No memory statistics: they take a process-wide mutex on every SQLite
     * allocation (about 200 instructions per inserted row). Only possible
     * before SQLite's first use; later calls are refused, harmlessly. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (!dir || !*dir) return ixv_seterr(err, IXV_E_NO_DATABASE, 0, 0, "data directory");
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return ixv_seterr(err, IXV_E_NO_DATABASE, 0, 0, "%s", dir);
    ixd_engine *e = calloc(1, sizeof *e);
    if (!e) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    e->dir = strdup(dir);
    if (!e->dir || pthread_mutex_init(&e->mu, NULL) != 0) {
        free(e->dir);
        free(e);
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    char path[4096];
    struct stat st;
    if (ixd_db_path(e, "sysmaster", path, sizeof path, err) == 0 && stat(path, &st) != 0) {
        if (create_db(e, "sysmaster", 1, "informix", err)) {
            ixd_engine_close(e);
            return -1;
        }
    }
    *out = e;
    return 0;
}

void ixd_engine_close(ixd_engine *e) {
    if (!e) return;
    pthread_mutex_destroy(&e->mu);
    free(e->use);
    free(e->dir);
    free(e->banner);
    free(e->server_name);
    free(e->server_aliases);
    free(e);
}

int ixd_engine_set_banner(ixd_engine *e, const char *banner) {
    char *b = strdup(banner ? banner : IXP_LOGIN_DEFAULT_BANNER);
    if (!b) return -1;
    free(e->banner);
    e->banner = b;
    return 0;
}

const char *ixd_engine_banner(const ixd_engine *e) {
    return e && e->banner ? e->banner : IXP_LOGIN_DEFAULT_BANNER;
}

int ixd_engine_set_server_name(ixd_engine *e, const char *name) {
    char *b = strdup(name ? name : "ixd");
    if (!b) return -1;
    free(e->server_name);
    e->server_name = b;
    return 0;
}

const char *ixd_engine_server_name(const ixd_engine *e) {
    return e && e->server_name ? e->server_name : "ixd";
}

int ixd_engine_set_server_aliases(ixd_engine *e, const char *names) {
    char *b = NULL;
    if (names && *names && !(b = strdup(names))) return -1;
    free(e->server_aliases);
    e->server_aliases = b;
    return 0;
}

int ixd_engine_is_server(const ixd_engine *e, const char *name) {
    if (!name) return 0;
    if (strcmp(name, ixd_engine_server_name(e)) == 0) return 1;
    size_t n = strlen(name);
    for (const char *a = e ? e->server_aliases : NULL; a && *a;) {
        size_t k = strcspn(a, ",");
        if (k == n && n && memcmp(a, name, n) == 0) return 1;
        a += k + (a[k] == ',');
    }
    return 0;
}

/* 1 if DIR/<name>.db is an ixd database (it has the _ixd_meta table), the
 * test the catalogue view sysdatabases applies too. */
static int is_database(const char *path) {
    sqlite3 *h;
    int ok = 0;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(h, 1000);
        sqlite3_stmt *st;
        ok = sqlite3_prepare_v2(h, "SELECT 1 FROM _ixd_meta", -1, &st, NULL) == SQLITE_OK;
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return ok;
}

static int cmp_name(const void *a, const void *b) {
    return strcmp((const char *)a, (const char *)b);
}

/* Appends the database names of e's directory to (*rows, *n, *cap): rows of
 * IXS_NAME_MAX + 1 bytes. Returns 0, or -1 when out of memory. */
static int scan_databases(ixd_engine *e, char **rows, int *n, int *cap) {
    DIR *d = opendir(e->dir);
    if (!d) return 0;
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 4 || l - 3 > IXS_NAME_MAX || strcmp(de->d_name + l - 3, ".db")) continue;
        char name[IXS_NAME_MAX + 1], path[4096], found[4096];
        snprintf(name, sizeof name, "%.*s", (int)(l - 3), de->d_name);
        snprintf(found, sizeof found, "%s/%s", e->dir, de->d_name);
        ixv_err err;
        /* a valid name whose file DBOPEN would open (names are lower case) */
        if (ixd_db_path(e, name, path, sizeof path, &err) || strcmp(path, found) ||
            !is_database(path))
            continue;
        if (*n == *cap) {
            int nc = *cap ? *cap * 2 : 16;
            char *nr = nc <= 100000 ? realloc(*rows, (size_t)nc * (IXS_NAME_MAX + 1)) : NULL;
            if (!nr) {
                rc = -1;
                break;
            }
            *rows = nr;
            *cap = nc;
        }
        memcpy(*rows + (size_t)*n * (IXS_NAME_MAX + 1), name, sizeof name);
        (*n)++;
    }
    closedir(d);
    return rc;
}

int ixd_db_list(ixd_engine *e, char ***out, ixv_err *err) {
    *out = NULL;
    char *rows = NULL;
    int n = 0, cap = 0;
    if (scan_databases(e, &rows, &n, &cap)) {
        free(rows);
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    if (n) qsort(rows, (size_t)n, IXS_NAME_MAX + 1, cmp_name);
    /* one block: n pointers, then the names */
    size_t bytes = (size_t)n * sizeof(char *) + 1;
    for (int i = 0; i < n; i++)
        bytes += strlen(rows + (size_t)i * (IXS_NAME_MAX + 1)) + 1;
    char **v = malloc(bytes);
    if (!v) {
        free(rows);
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    char *p = (char *)(v + n);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(rows + (size_t)i * (IXS_NAME_MAX + 1)) + 1;
        memcpy(p, rows + (size_t)i * (IXS_NAME_MAX + 1), l);
        v[i] = p;
        p += l;
    }
    free(rows);
    *out = v;
    return n;
}

/* What TimeSeries' kept series are valid in (ixts_stamp_fn). */
static void ts_stamp(void *ud, uint64_t *gen, unsigned *dver) {
    ixd_db *db = ud;
    *gen = db->x.gen;
    *dver = ixd_data_version(db, 1);
}

/* Opens the SQLite connection of a database whose use is already counted. */
static int db_connect(ixd_db *db, const char *path, ixv_err *err) {
    if (check_db_files(db->e, path, err)) return -1;
    if (open_file(path, 0, &db->x.h)) return file_err(err, errno, path);
    db->x.logmode = ixd_cat_logmode(db->x.h);
    if (db->x.logmode < 0) {
        int ext = sqlite3_extended_errcode(db->x.h), prim = ext & 0xff;
        if (prim == SQLITE_CANTOPEN || prim == SQLITE_IOERR || prim == SQLITE_READONLY)
            return file_err(err, ixd_os_errno(db->x.h), path);
        return ixv_seterr(err, IXV_E_NO_DATABASE, 0, 0, "%s", db->x.name);
    }
    if (ixd_register_functions(db->x.h, db) || ixd_register_vtabs(db->x.h, db) ||
        ixts_register(db->x.h, ts_stamp, db, &db->ts) || ixs_register(db->x.h, &db->x))
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    ixd_cat_upgrade(db->x.h);
    return 0;
}

int ixd_db_open(ixd_engine *e, const char *name, const char *user, ixd_db **out, int *flags,
                ixv_err *err) {
    *out = NULL;
    char path[4096];
    if (ixd_db_path(e, name, path, sizeof path, err)) return -1;
    ixd_db *db = calloc(1, sizeof *db);
    if (!db) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    db->e = e;
    db->x.host = &ixd_host;
    fold_name(name, db->x.name);
    snprintf(db->x.user, sizeof db->x.user, "%s", user && *user ? user : "informix");
    /* counted before the files are touched, so that DROP DATABASE sees it */
    struct stat st;
    pthread_mutex_lock(&e->mu);
    int r = stat(path, &st) != 0     ? ixv_seterr(err, IXV_E_NO_DATABASE, 0, 0, "%s", name)
            : use_add(e, db->x.name) ? ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL)
                                     : 0;
    pthread_mutex_unlock(&e->mu);
    if (r) {
        free(db);
        return -1;
    }
    if (db_connect(db, path, err)) {
        ixd_db_close(db);
        return -1;
    }
    db->x.wait_ms = -1;
    ixd_set_busy(db);
    sqlite3_progress_handler(db->x.h, 1000, progress, db);
    /* the connected user appears in sysusers */
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db->x.h,
                           "INSERT OR IGNORE INTO _ixd_users(username, usertype) VALUES(?, 'D')",
                           -1, &ins, NULL) == SQLITE_OK) {
        sqlite3_bind_text(ins, 1, db->x.user, -1, SQLITE_STATIC);
        sqlite3_step(ins);
        sqlite3_finalize(ins);
    }
    if (flags) *flags = (db->x.logmode ? 0x15 : 0x14) | (db->x.logmode == 3 ? 0x02 : 0);
    *out = db;
    return 0;
}

static void stmts_detach(ixd_db *db);

void ixd_db_close(ixd_db *db) {
    if (!db) return;
    if (db->x.h && (db->x.in_txn || !sqlite3_get_autocommit(db->x.h)))
        sqlite3_exec(db->x.h, "ROLLBACK", NULL, NULL, NULL);
    ixs_close(&db->x);
    stmts_detach(db);
    ixd_cat_close(db);
    ixts_close(db->ts);
    /* statements still prepared keep the connection alive until they are
     * freed (ixd_stmt_free only touches its own SQLite statement) */
    sqlite3_close_v2(db->x.h);
    pthread_mutex_lock(&db->e->mu);
    use_del(db->e, db->x.name);
    pthread_mutex_unlock(&db->e->mu);
    free(db);
}

/* ---- transactions ------------------------------------------------------------------ */

void ixd_txn_sync(ixd_db *db) {
    if (db && db->x.h && db->x.in_txn && sqlite3_get_autocommit(db->x.h)) {
        db->x.gen++;
        db->x.in_txn = 0;
        db->x.nsavepoints = 0;
    }
}

int ixd_sql_begin(ixd_db *db, ixv_err *err) {
    db->x.gen++; /* the catalog may change back or for others: no statement reuse */
    ixd_txn_sync(db);
    if (db->x.logmode == 0) return ixv_seterr(err, IXV_E_NO_TXN, 0, 0, NULL);
    if (db->x.in_txn) {
        if (db->x.logmode == 3 && db->x.nsavepoints == 0 && sqlite3_get_autocommit(db->x.h) == 0)
            return 0; /* ANSI: BEGIN WORK inside the implicit transaction */
        return ixv_seterr(err, IXV_E_IN_TXN, 0, 0, NULL);
    }
    if (db->own_txn && !sqlite3_get_autocommit(db->x.h)) {
        /* a routine's BEGIN WORK inside the transaction EXECUTE gave it
         * (own_txn): what it did before commits, as each of its statements
         * would have outside a transaction, and the session's begins */
        db->own_txn = 0;
        ixts_before_commit(db->ts);
        if (ixd_exec(db, "COMMIT", err)) {
            ixts_txn_end(db->ts);
            if (!sqlite3_get_autocommit(db->x.h))
                sqlite3_exec(db->x.h, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    if (ixd_exec(db, "BEGIN", err)) return -1;
    db->x.in_txn = 1;
    db->x.nsavepoints = 0;
    return 0;
}

int ixd_ansi_autobegin(ixd_db *db, ixv_err *err) {
    if (db->x.logmode != 3 || db->x.in_txn) return 0;
    return ixd_sql_begin(db, err);
}

int ixd_sql_commit(ixd_db *db, ixv_err *err) {
    db->x.gen++; /* the catalog may change back or for others: no statement reuse */
    ixd_txn_sync(db);
    if (db->x.logmode == 0) return ixv_seterr(err, IXV_E_NO_TXN, 0, 0, NULL);
    if (!db->x.in_txn) return ixv_seterr(err, IXV_E_NOT_IN_TXN, 0, 0, NULL);
    ixts_before_commit(db->ts);
    ixs_lob_gc(&db->x); /* the LOs no row holds any more */
    int rc = sqlite3_exec(db->x.h, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        ixd_sqlite_err(db, rc, IX_STMTTYPE_COMMIT_WORK, NULL, err);
        /* A write that failed (full disk, I/O error) leaves nothing to retry:
         * the transaction is rolled back and ends, as Informix's -942 says.
         * Other failures (a lock) keep it open for another COMMIT. */
        int prim = rc & 0xff;
        if (prim == SQLITE_FULL || prim == SQLITE_IOERR) {
            if (!sqlite3_get_autocommit(db->x.h))
                sqlite3_exec(db->x.h, "ROLLBACK", NULL, NULL, NULL);
            if (err && err->isamcode != IXS_ISAM_NO_SPACE) {
                int oserr = ixd_os_errno(db->x.h);
                ixv_seterr(err, IXS_E_COMMIT_FAILED, oserr ? -oserr : 0, 0, NULL);
            }
        }
        if (!sqlite3_get_autocommit(db->x.h)) return -1; /* still open: may retry */
        db->x.in_txn = 0;
        db->x.nsavepoints = 0;
        return -1;
    }
    db->x.in_txn = 0;
    db->x.nsavepoints = 0;
    return 0;
}

int ixd_sql_rollback(ixd_db *db, ixv_err *err) {
    db->x.gen++; /* the catalog may change back or for others: no statement reuse */
    ixd_txn_sync(db);
    if (db->x.logmode == 0) return ixv_seterr(err, IXV_E_NO_TXN, 0, 0, NULL);
    if (!db->x.in_txn) return ixv_seterr(err, IXV_E_NOT_IN_TXN, 0, 0, NULL);
    ixts_txn_end(db->ts);
    if (!sqlite3_get_autocommit(db->x.h)) sqlite3_exec(db->x.h, "ROLLBACK", NULL, NULL, NULL);
    db->x.in_txn = 0;
    db->x.nsavepoints = 0;
    return 0;
}

int ixd_begin(ixd_db *db, ixv_err *err) {
    if (!db) return ixv_seterr(err, IXV_E_NO_DB_SELECTED, 0, 0, NULL);
    return ixd_sql_begin(db, err);
}
int ixd_commit(ixd_db *db, ixv_err *err) {
    if (!db) return ixv_seterr(err, IXV_E_NO_DB_SELECTED, 0, 0, NULL);
    return ixd_sql_commit(db, err);
}
int ixd_rollback(ixd_db *db, ixv_err *err) {
    if (!db) return ixv_seterr(err, IXV_E_NO_DB_SELECTED, 0, 0, NULL);
    return ixd_sql_rollback(db, err);
}
int ixd_in_transaction(const ixd_db *db) {
    /* SQLite's own state decides: it may have rolled the transaction back */
    return db && db->x.in_txn && db->x.h && !sqlite3_get_autocommit(db->x.h);
}

/* ---- statements -------------------------------------------------------------------- */

/* ---- statement reuse -----------------------------------------------------------------
 * A client that prepares, runs and frees the same statement again and again
 * (a single-row lookup) would translate it and prepare its SQLite statement
 * each time. ixd_stmt_free keeps a freed SELECT or DML statement instead
 * (IXD_PARKED per connection, the oldest dropped), reset to its prepared
 * state; ixd_prepare of the same text takes it back when db->gen and the
 * data version are still those of before its translation, so that the
 * catalog it was translated against cannot have changed since. Anything
 * else prepares afresh. */

static void live_add(ixd_db *db, ixd_stmt *s) {
    s->live = 1;
    s->live_prev = NULL;
    s->live_next = db->live;
    if (db->live) db->live->live_prev = s;
    db->live = s;
}

static void live_del(ixd_db *db, ixd_stmt *s) {
    if (!s->live) return;
    if (s->live_prev)
        s->live_prev->live_next = s->live_next;
    else
        db->live = s->live_next;
    if (s->live_next) s->live_next->live_prev = s->live_prev;
    s->live = 0;
    s->live_prev = s->live_next = NULL;
}

static void stmt_destroy(ixd_stmt *s);

/* Keeps s for reuse; returns 0 when it is not kept (then destroy it). */
static int park(ixd_db *db, ixd_stmt *s) {
    if (!s->key || !s->x.st || (s->x.kind != SK_SELECT && s->x.kind != SK_DML)) return 0;
    ixd_close(s);
    sqlite3_clear_bindings(s->x.st);
    s->wired = 0;
    for (int i = 0; i < s->x.nparams; i++) {
        ixv_sval_free(&s->x.pvals[i]);
        s->x.pset[i] = 0;
    }
    if (db->nparked == IXD_PARKED) {
        stmt_destroy(db->parked[0]);
        memmove(db->parked, db->parked + 1, (IXD_PARKED - 1) * sizeof *db->parked);
        db->nparked--;
    }
    db->parked[db->nparked++] = s;
    return 1;
}

/* The kept statement of text sql, still valid, or NULL. */
static ixd_stmt *unpark(ixd_db *db, const char *sql, size_t n) {
    for (int i = db->nparked; i-- > 0;) {
        ixd_stmt *s = db->parked[i];
        if (s->keyn != n || memcmp(s->key, sql, n) != 0) continue;
        db->nparked--;
        memmove(db->parked + i, db->parked + i + 1, (size_t)(db->nparked - i) * sizeof *db->parked);
        if (s->gen == db->x.gen && s->delim == db->x.delimident &&
            s->dver == ixd_data_version(db, 1))
            return s;
        stmt_destroy(s);
        return NULL;
    }
    return NULL;
}

/* Before db closes: kept statements go, live ones forget db, their cursors
 * closed (no read snapshot or virtual-table cursor outlives the database). */
static void stmts_detach(ixd_db *db) {
    while (db->nparked > 0)
        stmt_destroy(db->parked[--db->nparked]);
    for (ixd_stmt *s = db->live, *next; s; s = next) {
        next = s->live_next;
        ixd_close(s);
        s->live = 0;
        s->live_prev = s->live_next = NULL;
        s->x.db = NULL;
    }
    db->live = NULL;
}

static int prepare_new(ixd_db *db, const char *sql, size_t n, ixd_stmt **out, ixv_err *err) {
    ixd_stmt *s = calloc(1, sizeof *s);
    if (!s) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    s->x.db = &db->x;
    s->x.host = &ixd_host;
    /* what the translation is made against: read before it, so that a
     * change during it counts as a change after it */
    s->gen = db->x.gen;
    s->delim = db->x.delimident;
    s->dver = ixd_data_version(db, 0);
    if (ixs_translate(&db->x, &s->x, sql, n, err)) {
        stmt_destroy(s);
        return -1;
    }
    if (s->x.kind == SK_SELECT && ixd_row_plan(s)) {
        stmt_destroy(s);
        return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    if (s->x.kind == SK_SELECT || s->x.kind == SK_DML) {
        int rc = sqlite3_prepare_v2(db->x.h, s->x.sqlite_sql, -1, &s->x.st, NULL);
        if (rc != SQLITE_OK) {
            ixd_sqlite_err(db, rc, s->x.stype, s->x.table, err);
            stmt_destroy(s);
            return -1;
        }
        s->key = malloc(n ? n : 1);
        if (s->key) memcpy(s->key, sql, n);
        s->keyn = n;
    }
    if (s->x.nparams) {
        s->x.pvals = calloc((size_t)s->x.nparams, sizeof(sval));
        s->x.pset = calloc((size_t)s->x.nparams, sizeof(int));
        s->pbuf = calloc((size_t)s->x.nparams, sizeof(uint8_t *));
        s->pcap = calloc((size_t)s->x.nparams, sizeof(size_t));
        if (!s->x.pvals || !s->x.pset || !s->pbuf || !s->pcap) {
            stmt_destroy(s);
            return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
        }
    }
    *out = s;
    return 0;
}

int ixd_prepare(ixd_db *db, const char *sql, size_t n, ixd_stmt **out, ixv_err *err) {
    *out = NULL;
    if (!db) return ixv_seterr(err, IXV_E_NO_DB_SELECTED, 0, 0, NULL);
    if (n > IXS_MAX_SQL)
        return ixv_seterr(err, IXS_E_STMT_LONG, 0, 0, "more than %u bytes", IXS_MAX_SQL);
    ixd_arm(db);
    ixd_stmt *s = unpark(db, sql, n);
    if (!s && prepare_new(db, sql, n, &s, err)) return -1;
    live_add(db, s);
    *out = s;
    return 0;
}

static void free_rows(ixd_stmt *s) {
    for (int64_t i = 0; i < s->nrows; i++)
        free(s->rows[i]);
    free(s->rows);
    free(s->rowlen);
    s->rows = NULL;
    s->rowlen = NULL;
    s->nrows = s->caprows = 0;
    for (uint32_t i = 0; i < s->nblobs; i++)
        free(s->blobs[i]);
    free(s->blobs);
    free(s->bloblen);
    s->blobs = NULL;
    s->bloblen = NULL;
    s->nblobs = s->capblobs = 0;
}

/*
 * The BYTE/TEXT descriptor ixd sends in a tuple (56 bytes; sqli-protocol.md
 * §3.14, single restricted source for the size and flag offsets):
 * | off | size | field                                                   |
 * |   0 |    4 | 0                                                       |
 * |   4 |    4 | ixd's handle: 1-based index of the value in the cursor  |
 * |   8 |    4 | size in bytes (also at 12 and 16)                       |
 * |  38 |    2 | flags: 0x0001 = NULL                                    |
 * Everything else is zero. The handle field is ixd's own choice: the real
 * server's descriptor layout there is not published.
 */
#define BLOB_DESC 56
static int put_blob(ixd_stmt *s, const sval *v, ixb_wbuf *out) {
    if (v->kind == SQLITE_NULL) {
        uint8_t d[BLOB_DESC] = {0};
        d[39] = 1;
        ixb_put_bytes(out, d, sizeof d);
        return 0;
    }
    if (v->n > INT32_MAX || s->nblobs >= UINT32_MAX - 1) return -1;
    if (s->nblobs == s->capblobs) {
        uint32_t cap = s->capblobs ? s->capblobs * 2 : 16;
        uint8_t **b = realloc(s->blobs, cap * sizeof *b);
        if (!b) return IXV_E_NOMEM;
        s->blobs = b;
        size_t *l = realloc(s->bloblen, cap * sizeof *l);
        if (!l) return IXV_E_NOMEM;
        s->bloblen = l;
        s->capblobs = cap;
    }
    uint8_t *copy = malloc(v->n ? v->n : 1);
    if (!copy) return IXV_E_NOMEM;
    if (v->n) memcpy(copy, v->p, v->n);
    s->blobs[s->nblobs] = copy;
    s->bloblen[s->nblobs] = v->n;
    s->nblobs++;
    uint8_t d[BLOB_DESC] = {0};
    ixb_st32(d + 4, s->nblobs);
    ixb_st32(d + 8, (uint32_t)v->n);
    ixb_st32(d + 12, (uint32_t)v->n);
    ixb_st32(d + 16, (uint32_t)v->n);
    ixb_put_bytes(out, d, sizeof d);
    return 0;
}

int ixd_stmt_orphaned(const ixd_stmt *s) {
    return s && !s->x.db;
}

/* A statement whose database closed under it (stmts_detach): IXD_E_NO_STMT,
 * never a call through its NULL db. */
static int orphan_err(const ixd_stmt *s, ixv_err *err) {
    if (!ixd_stmt_orphaned(s)) return 0;
    ixv_seterr(err, IXD_E_NO_STMT, 0, 0, NULL);
    return 1;
}

int ixd_fetch_blob(ixd_stmt *s, const uint8_t *desc, size_t n, const uint8_t **data, size_t *len,
                   ixv_err *err) {
    if (orphan_err(s, err)) return -1;
    if (!s->open) return ixv_seterr(err, IXV_E_NOT_AVAILABLE, 0, 0, NULL);
    if (n < BLOB_DESC) return ixv_seterr(err, IXV_E_BLOB_CONVERT, 0, 0, NULL);
    if (desc[39] & 1) {
        *data = NULL;
        *len = 0;
        return 0;
    }
    uint32_t h = ixb_be32(desc + 4);
    if (h == 0 || h > s->nblobs) return ixv_seterr(err, IXV_E_BLOB_CONVERT, 0, 0, NULL);
    *data = s->blobs[h - 1];
    *len = s->bloblen[h - 1];
    return 0;
}

void ixd_stmt_free(ixd_stmt *s) {
    if (!s) return;
    ixd_db *db = ixd_stmt_db(s);
    if (db) {
        live_del(db, s);
        if (park(db, s)) return;
    }
    stmt_destroy(s);
}

static void stmt_destroy(ixd_stmt *s) {
    free_rows(s);
    ixs_trg_stmt_free(&s->x);
    sqlite3_finalize(s->x.st);
    for (int i = 0; i < s->x.ncols; i++)
        free(s->x.cols[i].name);
    free(s->x.cols);
    for (int i = 0; s->x.pvals && i < s->x.nparams; i++)
        ixv_sval_free(&s->x.pvals[i]);
    free(s->x.pvals);
    free(s->x.pset);
    for (int i = 0; s->pbuf && i < s->x.nparams; i++)
        free(s->pbuf[i]);
    free(s->pbuf);
    free(s->pcap);
    free(s->rplan);
    free(s->wplan);
    ixs_mplan_free(s->x.mplan);
    free(s->x.ptypes);
    free(s->x.text);
    ixs_ddl_destroy(s->x.ddl);
    free(s->x.sqlite_sql);
    free(s->key);
    free(s);
}

int ixd_stmt_type(const ixd_stmt *s) {
    return s->x.stype;
}
int ixd_stmt_is_cursor(const ixd_stmt *s) {
    return s->x.kind == SK_SELECT;
}
int ixd_stmt_nparams(const ixd_stmt *s) {
    return s->x.nparams;
}
int ixd_stmt_ncols(const ixd_stmt *s) {
    return s->x.ncols;
}
void ixd_stmt_col(const ixd_stmt *s, int i, ixd_col *out) {
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= s->x.ncols) return;
    const ocol *c = &s->x.cols[i];
    out->name = c->name;
    out->type = ixv_desc_code(c->t.code, &out->xname) | (c->notnull ? IXT_TF_NOTNULL : 0);
    out->enclen = c->t.len;
}
ixt_vtype ixd_stmt_param_type(const ixd_stmt *s, int i) {
    ixt_vtype t = {IX_T_CHAR, 0};
    if (i < 0 || i >= s->x.nparams) return t;
    ityp p = s->x.ptypes[i];
    if (p.code < 0) {
        t.code = IX_T_VARCHAR;
        t.enclen = 255;
        return t;
    }
    t.code = p.code;
    t.enclen = p.len;
    return t;
}

int ixd_bind(ixd_stmt *s, int i, ixt_vtype t, const uint8_t *p, size_t n, ixv_err *err) {
    if (orphan_err(s, err)) return -1;
    if (i < 0 || i >= s->x.nparams) return ixv_seterr(err, IXV_E_HOST_VARS, 0, 0, NULL);
    /* SQLite holds the parameters' bytes without a copy (bind_all): a
     * cursor still reading them is closed before they change. */
    if (s->open && !s->scroll && !s->done) ixd_close(s);
    s->wired = 0;
    s->x.pset[i] = 1;
    if (!p) {
        ixv_sval_free(&s->x.pvals[i]);
        s->x.pvals[i].kind = SQLITE_NULL;
        return 0;
    }
    ityp from = ixv_t(IXT_T_BASE(t.code), t.enclen); /* ixt_vtype_resolve without a name */
    int fast = ixd_bind_fast(s, i, from, p, n);
    if (fast <= 0) return fast ? ixv_seterr(err, fast, 0, 0, NULL) : 0;
    ixv_sval_free(&s->x.pvals[i]);
    sval v;
    int rc = ixv_tuple_to_sval(from, p, n, &v);
    if (rc) return ixv_seterr(err, rc, 0, 0, NULL);
    ityp to = s->x.ptypes[i];
    if (to.code < 0 || v.kind == SQLITE_NULL) {
        s->x.pvals[i] = v;
        return 0;
    }
    sval o;
    if (ixv_lob_is(to.code)) /* a handle, or bytes that become a new LO */
        rc = ixs_lob_bind(s->x.db, from, &v, to, &o, err)
                 ? (err && err->sqlcode ? err->sqlcode : -1)
                 : 0;
    else
        rc = ixv_convert(from, &v, to, &o);
    ixv_sval_free(&v);
    if (rc && ixv_lob_is(to.code)) return -1;
    if (rc) return ixv_seterr(err, rc, 0, 0, NULL);
    s->x.pvals[i] = o;
    return 0;
}

/* Binds every parameter (an unset one is NULL). Text and blob bytes are
 * bound without a copy: they live in s->pvals until the next ixd_bind of
 * that parameter, which closes a cursor still reading them. */
static int bind_all(ixd_stmt *s, ixv_err *err) {
    if (s->wired && !sqlite3_stmt_busy(s->x.st)) return 0; /* bound by ixd_bind_wire */
    sqlite3_reset(s->x.st);
    for (int i = 0; i < s->x.nparams; i++) {
        int rc = s->x.pset[i] ? ixv_sval_bind_static(&s->x.pvals[i], s->x.st, i + 1)
                              : sqlite3_bind_null(s->x.st, i + 1);
        if (rc != SQLITE_OK) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    }
    return 0;
}

/*
 * A transaction that has only read so far cannot become a writer once
 * another session has committed since its snapshot (SQLITE_BUSY_SNAPSHOT),
 * and SQLite does not wait for the write lock on its behalf either (the
 * busy callback is skipped where waiting could deadlock): both answer
 * SQLITE_BUSY at once, whatever the lock wait. With nothing
 * written yet (and no savepoint), the transaction restarts as a writer,
 * waiting for the write lock as SET LOCK MODE says, and the statement runs
 * again: under Informix's committed read, what the earlier statements read
 * stays valid. Returns 1 when st may run again.
 */
static int restart_as_writer(ixd_db *db, sqlite3_stmt *st) {
    if ((sqlite3_extended_errcode(db->x.h) & 0xff) != SQLITE_BUSY || !db->x.in_txn ||
        db->x.nsavepoints || sqlite3_txn_state(db->x.h, NULL) != SQLITE_TXN_READ)
        return 0;
    sqlite3_reset(st);
    if (sqlite3_exec(db->x.h, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK) return 0;
    if (sqlite3_exec(db->x.h, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK) return 1;
    /* no write lock in time: the transaction goes on as a reader, and the
     * statement fails with the lock error */
    sqlite3_exec(db->x.h, "BEGIN", NULL, NULL, NULL);
    return 0;
}

static int execute(ixd_stmt *s, int64_t *rows, int32_t *serial, int64_t *serial8, ixv_err *err);
static int own_txn(ixd_stmt *s, int (*run)(ixd_stmt *, void *, ixv_err *), void *arg, ixv_err *err);

typedef struct exec_args {
    int64_t *rows;
    int32_t *serial;
    int64_t *serial8;
} exec_args;

static int execute_in_txn(ixd_stmt *s, void *arg, ixv_err *err) {
    exec_args *a = arg;
    return execute(s, a->rows, a->serial, a->serial8, err);
}

int ixd_execute(ixd_stmt *s, int64_t *rows, int32_t *serial, int64_t *serial8, ixv_err *err) {
    if (orphan_err(s, err)) return -1;
    if (s->x.ts_write && !s->x.spl_txn && s->x.kind == SK_DML &&
        sqlite3_get_autocommit(s->x.db->h)) {
        exec_args a = {rows, serial, serial8};
        return own_txn(s, execute_in_txn, &a, err);
    }
    int rc = execute(s, rows, serial, serial8, err);
    ixs_lob_stmt_end(s->x.db); /* outside a transaction: the LOs let go are deleted */
    return rc;
}

/* EXECUTE PROCEDURE of a routine that returns nothing: its rows, none. */
static int skip_row(void *ud, const sval *v, int n, ixv_err *err) {
    (void)ud;
    (void)v;
    (void)n;
    (void)err;
    return 0;
}

static int execute(ixd_stmt *s, int64_t *rows, int32_t *serial, int64_t *serial8, ixv_err *err) {
    ixd_db *db = ixd_stmt_db(s);
    if (rows) *rows = 0;
    if (serial) *serial = 0;
    if (serial8) *serial8 = 0;
    if (s->x.kind == SK_SELECT) return ixv_seterr(err, IXV_E_SELECT_NEEDS_CUR, 0, 0, NULL);
    ixd_arm(db);
    if (s->x.kind == SK_SQL) {
        int64_t r = 0;
        db->x.gen++; /* DDL, SET, savepoints, ...: kept statements are not reused */
        if (ixs_ddl_exec(&s->x, &r, err)) {
            /* the statement's own SQLCODE for a full disk */
            if (err && err->isamcode == IXS_ISAM_NO_SPACE)
                ixv_recode(err, ixd_no_space_code(s->x.stype), IXV_KEEP_ISAM);
            return -1;
        }
        if (rows) *rows = r;
        return 0;
    }
    if (s->x.kind == SK_MERGE) {
        int64_t r = 0;
        if (ixs_merge_exec(&s->x, &r, err)) return -1;
        if (rows) *rows = r;
        db->x.last_rows = r;
        return 0;
    }
    if (ixd_ansi_autobegin(db, err)) return -1;
    if (bind_all(s, err)) return -1;
    if (s->x.spl_direct) return ixs_spl_direct(&s->x, skip_row, NULL, err); /* a routine */
    if (ixs_trg_stmt_before(&s->x, err)) return -1;                         /* BEFORE triggers */
    int rc, again = 1;
    int64_t result = 0; /* EXECUTE PROCEDURE: the routine's INTEGER value */
    do {
        db->x.stmt_serial = db->x.stmt_serial8 = db->x.stmt_bigserial = db->x.stmt_vrows = 0;
        while ((rc = sqlite3_step(s->x.st)) == SQLITE_ROW) {
            if (s->x.stype == IX_STMTTYPE_EXECUTE_PROC && sqlite3_column_count(s->x.st) > 0 &&
                sqlite3_column_type(s->x.st, 0) == SQLITE_INTEGER)
                result = sqlite3_column_int64(s->x.st, 0);
        }
    } while (rc != SQLITE_DONE && again-- && restart_as_writer(db, s->x.st));
    if (rc != SQLITE_DONE) {
        ixd_sqlite_err(db, rc, s->x.stype, s->x.table, err);
        sqlite3_reset(s->x.st);
        return ixs_trg_stmt_after(&s->x, 0, err);
    }
    sqlite3_reset(s->x.st);
    if (rows)
        *rows = s->x.stype == IX_STMTTYPE_EXECUTE_PROC
                    ? result
                    : sqlite3_changes64(db->x.h) + db->x.stmt_vrows;
    if (s->x.stype != IX_STMTTYPE_EXECUTE_PROC)
        db->x.last_rows = sqlite3_changes64(db->x.h) + db->x.stmt_vrows;
    if (db->x.stmt_serial) {
        db->x.last_serial = db->x.stmt_serial;
        if (serial) *serial = (int32_t)db->x.stmt_serial;
    }
    if (db->x.stmt_serial8) {
        db->x.last_serial8 = db->x.stmt_serial8;
        if (serial8) *serial8 = db->x.stmt_serial8;
    }
    if (db->x.stmt_bigserial) {
        db->x.last_bigserial = db->x.stmt_bigserial;
        if (serial8) *serial8 = db->x.stmt_bigserial;
    }
    return ixs_trg_stmt_after(&s->x, 1, err); /* AFTER triggers */
}

/* A column value of the general path: through sval (BYTE/TEXT as a
 * descriptor). Returns 0 or a negative SQLCODE. */
static int put_general(ixd_stmt *s, int i, sqlite3_value *x, ixb_wbuf *out) {
    sval v;
    ixv_sval_from_sqlite(&v, x);
    int code = s->x.cols[i].t.code;
    return code == IX_T_BYTE || code == IX_T_TEXT ? put_blob(s, &v, out)
                                                  : ixv_sval_to_tuple(s->x.cols[i].t, &v, out);
}

/* Converts the current row of s->st to tuple bytes. */
static int row_tuple(ixd_stmt *s, ixb_wbuf *out, ixv_err *err) {
    int rc = ixd_row_encode(s, out, put_general);
    return rc ? ixv_seterr(err, rc, 0, 0, NULL) : 0;
}

static int step_row(ixd_stmt *s, ixv_err *err) {
    int rc = sqlite3_step(s->x.st);
    if (rc == SQLITE_ROW) return 1;
    if (rc == SQLITE_DONE) return 0;
    ixd_sqlite_err(ixd_stmt_db(s), rc, s->x.stype, s->x.table, err);
    sqlite3_reset(s->x.st);
    return -1;
}

static int open_rows(ixd_stmt *s, int scroll, ixv_err *err);
static int run_direct(ixd_stmt *s, ixv_err *err);

/* OPEN of a non-iterator routine's cursor (run_at_open): runs it now, onto
 * its row, which the first ixd_fetch returns. Returns 0 or -1 with *err
 * (the cursor closed). */
static int run_routine(ixd_stmt *s, ixv_err *err) {
    int r = step_row(s, err);
    if (r < 0) {
        ixd_close(s);
        return -1;
    }
    s->row_ready = r;
    s->done = !r;
    return 0;
}

/* A statement that calls a TimeSeries write routine writes from inside its
 * SELECT. Outside a transaction it gets one of its own, begun as a writer
 * and committed when the statement has run (its rows are kept, as a scroll
 * cursor's), so that the call commits by itself or not at all. Returns 0
 * or -1 with *err; run(s) is the statement's own work. */
static int own_txn(ixd_stmt *s, int (*run)(ixd_stmt *, void *, ixv_err *), void *arg,
                   ixv_err *err) {
    ixd_db *db = ixd_stmt_db(s);
    if (ixd_exec(db, "BEGIN IMMEDIATE", err)) return -1;
    db->own_txn = 1;
    int rc = run(s, arg, err), mine = db->own_txn;
    db->own_txn = 0;
    if (!mine) return rc; /* a routine's BEGIN WORK made it the session's */
    if (rc) {
        ixts_txn_end(db->ts);
        if (!sqlite3_get_autocommit(db->x.h)) sqlite3_exec(db->x.h, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    ixts_before_commit(db->ts);
    if (ixd_exec(db, "COMMIT", err)) {
        ixts_txn_end(db->ts);
        /* the statement's own code, as an autocommit INSERT reports it */
        if (err->isamcode == IXS_ISAM_NO_SPACE)
            ixv_recode(err, ixd_no_space_code(s->x.stype), IXV_KEEP_ISAM);
        if (!sqlite3_get_autocommit(db->x.h)) sqlite3_exec(db->x.h, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

static int open_materialized(ixd_stmt *s, void *arg, ixv_err *err) {
    (void)arg;
    return open_rows(s, 1, err);
}

int ixd_open(ixd_stmt *s, int scroll, ixv_err *err) {
    if (orphan_err(s, err)) return -1;
    if (s->x.kind != SK_SELECT) return ixv_seterr(err, IXV_E_NOT_AVAILABLE, 0, 0, NULL);
    if (s->x.ts_write && !s->x.spl_txn && sqlite3_get_autocommit(s->x.db->h)) {
        int rc = own_txn(s, open_materialized, NULL, err);
        if (rc) ixd_close(s);
        return rc;
    }
    return open_rows(s, scroll, err);
}

/* Room for one more row of a scroll cursor: 0, or -1 out of memory. */
static int grow_rows(ixd_stmt *s) {
    if (s->nrows < s->caprows) return 0;
    int64_t nc = s->caprows ? s->caprows * 2 : 64;
    uint8_t **nr = realloc(s->rows, sizeof(uint8_t *) * (size_t)nc);
    if (nr) s->rows = nr;
    size_t *nl = realloc(s->rowlen, sizeof(size_t) * (size_t)nc);
    if (nl) s->rowlen = nl;
    if (!nr || !nl) return -1;
    s->caprows = nc;
    return 0;
}

/* Appends a row to a scroll cursor's rows: its tuple bytes, or, for a row
 * with a value its column's type cannot send (code, a negative SQLCODE: a
 * value out of range in a database file written before ixd refused such
 * values at store), no bytes and the code, so that fetching that row gives
 * the code and the other rows still read. Returns 0, or -1 out of memory. */
static int keep_row(ixd_stmt *s, const ixb_wbuf *b, int code) {
    if (grow_rows(s)) return -1;
    uint8_t *row = NULL;
    if (!code) {
        if (!(row = malloc(b->len ? b->len : 1))) return -1;
        if (b->len) memcpy(row, b->data, b->len);
    }
    s->rows[s->nrows] = row;
    s->rowlen[s->nrows] = code ? (size_t)-code : b->len;
    s->nrows++;
    return 0;
}

/* Row i (0-based) of a scroll cursor into out: 1, or -1 with *err (the
 * row's own error, kept by keep_row). */
static int put_kept(ixd_stmt *s, int64_t i, ixb_wbuf *out, ixv_err *err) {
    if (!s->rows[i]) return ixv_seterr(err, -(int)s->rowlen[i], 0, 0, NULL);
    ixb_put_bytes(out, s->rows[i], s->rowlen[i]);
    return out->err ? ixv_seterr(err, IXD_E_NOMEM, 0, 0, NULL) : 1;
}

/* A scroll cursor materialises its rows. Returns 0 or -1 with *err. */
static int materialize(ixd_stmt *s, ixv_err *err) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int r;
    while ((r = step_row(s, err)) > 0) {
        ixb_wbuf_reset(&b);
        int code = ixd_row_encode(s, &b, put_general);
        if (code == IXD_E_NOMEM || keep_row(s, &b, code)) {
            r = ixv_seterr(err, IXD_E_NOMEM, 0, 0, NULL);
            break;
        }
    }
    ixb_wbuf_free(&b);
    return r;
}

static int open_rows(ixd_stmt *s, int scroll, ixv_err *err) {
    ixd_close(s);
    ixd_db *db = ixd_stmt_db(s);
    ixd_arm(db);
    if (ixd_ansi_autobegin(db, err)) return -1;
    if (bind_all(s, err)) return -1;
    s->open = 1;
    s->done = 0;
    s->scroll = scroll;
    s->pos = 0;
    if (s->x.spl_direct) return run_direct(s, err);
    if (!scroll) return s->x.run_at_open ? run_routine(s, err) : 0;
    if (materialize(s, err)) {
        ixd_close(s);
        return -1;
    }
    sqlite3_reset(s->x.st);
    return 0;
}

/* A row an SPL routine returned, kept as a scroll cursor's (keep_row). */
static int keep_routine_row(void *ud, const sval *v, int n, ixv_err *err) {
    ixd_stmt *s = ud;
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int code = 0;
    for (int i = 0; i < s->x.ncols && !code; i++) {
        sval nul = {0};
        nul.kind = SQLITE_NULL;
        const sval *x = i < n ? &v[i] : &nul;
        int t = s->x.cols[i].t.code;
        code = t == IX_T_BYTE || t == IX_T_TEXT ? put_blob(s, x, &b)
                                                : ixv_sval_to_tuple(s->x.cols[i].t, x, &b);
    }
    if (b.err) code = IXD_E_NOMEM;
    int rc = code == IXD_E_NOMEM || keep_row(s, &b, code);
    ixb_wbuf_free(&b);
    return rc ? ixv_seterr(err, IXD_E_NOMEM, 0, 0, NULL) : 0;
}

/* OPEN of an EXECUTE of a routine that is not an iterator (x.spl_direct):
 * the routine runs now, outside any SQLite statement, its rows kept and
 * fetched as a scroll cursor's; its errors belong to OPEN. */
static int run_direct(ixd_stmt *s, ixv_err *err) {
    s->scroll = 1;
    if (ixs_spl_direct(&s->x, keep_routine_row, s, err)) {
        ixd_close(s);
        return -1;
    }
    return 0;
}

/* A sequential cursor's next row: the one stepped ahead, else a step.
 * Returns 1, 0 at the end (the cursor then done), or -1 with *err. */
static int next_row(ixd_stmt *s, ixv_err *err) {
    int r = s->row_ready;
    s->row_ready = 0;
    if (!r) {
        ixd_arm(ixd_stmt_db(s));
        r = step_row(s, err);
    }
    if (r <= 0) {
        s->done = 1;
        s->x.cur_valid = 0;
    }
    return r;
}

int ixd_fetch(ixd_stmt *s, ixb_wbuf *out, ixv_err *err) {
    if (orphan_err(s, err)) return -1;
    if (!s->open) return ixv_seterr(err, IXV_E_NOT_AVAILABLE, 0, 0, NULL);
    if (s->scroll) {
        if (s->pos >= s->nrows) {
            s->pos = s->nrows + 1;
            return 0;
        }
        return put_kept(s, s->pos++, out, err);
    }
    if (s->done) return 0;
    int r = next_row(s, err);
    if (r <= 0) return r;
    if (row_tuple(s, out, err)) return -1;
    ixs_cursor_fetched(&s->x);
    return 1;
}

/* The next row of a sequential cursor as an SQ_TUPLE at the end of out:
 * as ixd_fetch, the message's head and pad around the payload. Returns 1
 * with *n the payload's length, 0 at the end, -1 with *err (out as
 * before). */
static int next_tuple(ixd_stmt *s, ixb_wbuf *out, size_t *n, ixv_err *err) {
    enum { TUPLE_HEAD = 8 }; /* i16 tag, i16 warnings, i32 length */
    int r = next_row(s, err);
    if (r <= 0) return r;
    size_t at = out->len;
    if (out->cap - at < TUPLE_HEAD && ixb_wbuf_reserve(out, TUPLE_HEAD) != IX_OK)
        return ixv_seterr(err, IXD_E_NOMEM, 0, 0, NULL);
    uint8_t *h = out->data + at;
    ixb_st16(h, IXP_SQ_TUPLE);
    ixb_st16(h + 2, 0);
    out->len = at + TUPLE_HEAD;
    int rc = ixd_row_encode(s, out, put_general);
    if (rc) {
        out->len = at;
        return ixv_seterr(err, rc, 0, 0, NULL);
    }
    *n = out->len - at - TUPLE_HEAD;
    ixb_st32(out->data + at + 4, (uint32_t)*n);
    if (*n & 1) { /* the even-length pad */
        if (out->len < out->cap)
            out->data[out->len++] = 0;
        else
            ixb_put_u8(out, 0);
    }
    if (out->err) return ixv_seterr(err, IXD_E_NOMEM, 0, 0, NULL);
    ixs_cursor_fetched(&s->x);
    return 1;
}

int ixd_fetch_tuples(ixd_stmt *s, ixb_wbuf *out, size_t cap, ixd_batch *f, ixv_err *err) {
    if (ixd_stmt_orphaned(s) || !s->open || s->scroll || s->x.rowid_col || s->done)
        return IXD_BATCH_NO;
    for (;;) {
        size_t at = out->len, n = 0;
        int r = next_tuple(s, out, &n, err);
        if (r <= 0) return r;
        if (f->sent > 0 && f->used + n > cap) {
            f->last_at = at;
            f->last_n = n;
            return IXD_BATCH_FULL;
        }
        f->used += n;
        f->sent++;
    }
}

int ixd_fetch_at(ixd_stmt *s, int64_t pos, ixb_wbuf *out, ixv_err *err) {
    if (orphan_err(s, err)) return -1;
    if (!s->open || !s->scroll) return ixv_seterr(err, IXV_E_NOT_AVAILABLE, 0, 0, NULL);
    if (pos < 1 || pos > s->nrows) return 0;
    s->pos = pos;
    return put_kept(s, pos - 1, out, err);
}

int64_t ixd_row_count(ixd_stmt *s) {
    return s->open && s->scroll ? s->nrows : 0;
}

void ixd_close(ixd_stmt *s) {
    if (!s) return;
    if (s->x.st) sqlite3_reset(s->x.st);
    free_rows(s);
    s->open = 0;
    s->done = 0;
    s->row_ready = 0;
    s->pos = 0;
    s->x.cur_valid = 0;
}

/* ---- session cursors (WHERE CURRENT OF) ----------------------------------------------- */

void ixd_set_cursor_lookup(ixd_db *db, ixd_stmt *(*fn)(void *ud, const char *name), void *ud) {
    if (!db) return;
    db->cursor_fn = fn;
    db->cursor_ud = ud;
}

int ixd_stmt_for_update(const ixd_stmt *s) {
    return s && s->x.rowid_col;
}

/* ---- files outside the data directory ------------------------------------------------- */

void ixd_set_lob_dir(const char *dir) {
    ixs_lob_set_dir(dir);
}

void ixd_set_load_dir(const char *dir) {
    ixts_set_load_dir(dir);
}
