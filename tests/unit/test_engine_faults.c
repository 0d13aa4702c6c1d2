/* test_engine_faults.c: storage faults and name spaces of the ixd engine.
 *
 * - A full disk, two ways: SQLite's page limit (PRAGMA max_page_count on the
 *   database's own connection gives SQLITE_FULL exactly as a full disk does),
 *   and a real file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored) in a child
 *   process, where every write of the WAL really fails with EFBIG. Each
 *   statement gets its own SQLCODE with ISAM -131, nothing of it stays,
 *   earlier data stays, a failed COMMIT ends the transaction, and writes
 *   resume when the limit is lifted.
 * - A database whose -wal or -shm cannot be made (a directory in the way, a
 *   data directory the user cannot write): -215 with the errno, naming it.
 * - DROP DATABASE of a database another session has open (-425), of the
 *   current one (-359), and from threads racing sessions that open it.
 * - A catalog made by an earlier ixd replaced when the database opens.
 * - Database names over 128 bytes (-354) through the C API.
 * Internal names (_ixd_*, sqlite_*) out of reach of user SQL, quoted
 * savepoint names and long database names in SQL are data-file tests:
 * tests/sql/engine_names.test and engine_txn.test.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "server/engine/ixd_int.h" /* ixd_db's SQLite handle, for the page limit */
#include "test_engine_util.h"

#define CHECK_ERR(sql, code, isam)                                                                 \
    do {                                                                                           \
        int rc_ = run(sql);                                                                        \
        CHECK(rc_ == (code) && ERR.isamcode == (isam), "%s -> %d (isam %d, '%s'), want %d/%d",     \
              sql, rc_, ERR.isamcode, ERR.text, code, isam);                                       \
    } while (0)

/* Runs one statement on another session's database. */
static int run_on(ixd_db *db, const char *sql) {
    ixd_db *mine = D;
    D = db;
    int rc = run(sql);
    D = mine;
    return rc;
}

/* A single integer from SQLite itself (PRAGMA), on the current database. */
static int64_t pragma(const char *sql) {
    sqlite3_stmt *st;
    int64_t v = -1;
    if (sqlite3_prepare_v2(D->x.h, sql, -1, &st, NULL) != SQLITE_OK) return -1;
    if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* "insert into TAB values ('xxxx...')" with a value of n bytes. */
static char *big_insert(const char *head, size_t n, const char *tail) {
    size_t hl = strlen(head), tl = strlen(tail);
    char *s = malloc(hl + n + tl + 1);
    if (!s) exit(1);
    memcpy(s, head, hl);
    memset(s + hl, 'x', n);
    memcpy(s + hl + n, tail, tl + 1);
    return s;
}

/* ---- a full disk: SQLite's page limit --------------------------------------------------- */

static void test_page_limit(void) {
    CHECK_RUN("create database pagefull with log", 0);
    CHECK_RUN("create table t (id integer, pad varchar(255))", 0);
    CHECK_RUN("create table b (id integer, x lvarchar(30000))", 0);
    CHECK_RUN("insert into t values (1, 'kept')", 0);
    CHECK_RUN("insert into b values (1, 'small')", 0);
    /* from here on no page may be added to the file, as on a full disk */
    char sql[100];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld",
             (long long)pragma("PRAGMA page_count"));
    CHECK(pragma(sql) > 0, "page limit set");
    char *ins = big_insert("insert into b values (2, '", 20000, "')");
    char *upd = big_insert("update b set x = '", 20000, "' where id = 1");
    CHECK_ERR(ins, -271, -131);
    CHECK_ERR(upd, -346, -131);
    CHECK_ERR("create table c (a integer, b char(100))", -261, -131);
    CHECK(!strcmp(ERR.text, "c"), "-261 names the table: '%s'", ERR.text);
    CHECK_ERR("create index bx on b (x)", -212, -131);
    CHECK_Q("select count(*) from b", "1");
    CHECK_Q("select x from b", "small");
    /* in a transaction only the failing statement is undone */
    /* In a transaction SQLite undoes the whole transaction when a statement
     * without a statement journal (one row) finds the disk full: the
     * transaction has ended, and ixd says so. */
    CHECK_RUN("begin work", 0);
    CHECK_RUN("update t set pad = 'changed' where id = 1", 0);
    CHECK_ERR(ins, -271, -131);
    CHECK(ixd_in_transaction(D) == 0, "the transaction has ended");
    CHECK_RUN("commit work", -255);
    CHECK_Q("select pad from t", "kept");
    CHECK_Q("select count(*) from b", "1");
    CHECK_RUN("begin work", 0); /* a new one starts */
    CHECK_RUN("update t set pad = 'changed' where id = 1", 0);
    CHECK_RUN("commit work", 0);
    CHECK_Q("select pad from t", "changed");
    CHECK_Q("select count(*) from c", "ERR -206");
    /* space returns: writes resume */
    CHECK(pragma("PRAGMA max_page_count = 1073741823") > 0, "page limit lifted");
    CHECK_RUN(ins, 0);
    CHECK_RUN(upd, 0);
    CHECK_RUN("create table c (a integer, b char(100))", 0);
    CHECK_RUN("create index bx on b (x)", 0);
    CHECK_Q("select length(x) from b order by id", "20000\n20000");
    free(ins);
    free(upd);
    CHECK_RUN("close database", 0);
}

/* ---- a full disk: a real file-size limit, in a child process ------------------------------ */

/* The child reports each check as "ok|not ok <what>" lines on a pipe. */
static FILE *REPORT;
#define CHILD_CHECK(cond, ...)                                                                     \
    do {                                                                                           \
        fprintf(REPORT, (cond) ? "ok " : "not ok ");                                               \
        fprintf(REPORT, __VA_ARGS__);                                                              \
        fprintf(REPORT, "\n");                                                                     \
    } while (0)
#define CHILD_ERR(sql, code, isam)                                                                 \
    do {                                                                                           \
        int rc_ = run(sql);                                                                        \
        CHILD_CHECK(rc_ == (code) && ERR.isamcode == (isam), "%s -> %d/%d, want %d/%d", sql, rc_,  \
                    ERR.isamcode, code, isam);                                                     \
    } while (0)

static int set_fsize(rlim_t cur) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl)) return -1;
    rl.rlim_cur = cur < rl.rlim_max ? cur : rl.rlim_max;
    return setrlimit(RLIMIT_FSIZE, &rl);
}

static void file_limit_child(void) {
    signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG */
    if (ixd_engine_open(&E, DIR_, &ERR)) _exit(2);
    CHILD_CHECK(run("database filefull") == 0, "open");
    if (!D) _exit(3);
    /* an empty WAL, then no byte may be added to any file */
    CHILD_CHECK(pragma("PRAGMA wal_checkpoint(TRUNCATE)") == 0, "checkpoint");
    CHILD_CHECK(set_fsize(0) == 0, "RLIMIT_FSIZE 0");
    CHILD_ERR("insert into t values (4, 'new')", -271, -131);
    CHILD_ERR("update t set pad = 'changed'", -346, -131);
    CHILD_ERR("delete from t where id = 1", -240, -131);
    CHILD_ERR("create table t2 (a integer)", -261, -131);
    CHILD_ERR("create index ti on t (id)", -212, -131);
    CHILD_ERR("alter table t add (z integer)", -261, -131);
    CHILD_ERR("drop table t", -312, -131);
    CHILD_ERR("begin work", 0, 0);
    CHILD_ERR("insert into t values (5, 'in a transaction')", 0, 0);
    CHILD_ERR("commit work", -942, -131);
    CHILD_CHECK(ixd_in_transaction(D) == 0, "a failed COMMIT ends the transaction");
    CHILD_ERR("commit work", -255, 0);
    CHILD_ERR("begin work", 0, 0);
    CHILD_ERR("insert into t values (6, 'in a transaction')", 0, 0);
    memset(&ERR, 0, sizeof ERR);
    CHILD_CHECK(ixd_commit(D, &ERR) == -1 && ERR.sqlcode == -942 && ERR.isamcode == -131,
                "ixd_commit -> %d/%d", ERR.sqlcode, ERR.isamcode);
    CHILD_CHECK(ixd_in_transaction(D) == 0, "ixd_commit ended the transaction");
    CHILD_CHECK(ixd_commit(D, &ERR) == -1 && ERR.sqlcode == -255, "then -255");
    const char *got = q("select count(*), min(id), max(id) from t");
    CHILD_CHECK(!strcmp(got, "3|1|3"), "data intact while full: %s", got);
    /* the limit lifted: writes resume on the same connection */
    CHILD_CHECK(set_fsize(RLIM_INFINITY) == 0, "RLIMIT_FSIZE lifted");
    CHILD_ERR("insert into t values (7, 'resumed')", 0, 0);
    CHILD_ERR("begin work", 0, 0);
    CHILD_ERR("insert into t values (8, 'resumed')", 0, 0);
    CHILD_ERR("commit work", 0, 0);
    CHILD_ERR("create index ti on t (id)", 0, 0);
    got = q("select count(*), min(id), max(id) from t");
    CHILD_CHECK(!strcmp(got, "5|1|8"), "after: %s", got);
    ixd_db_close(D);
    ixd_engine_close(E);
    fprintf(REPORT, "done\n");
    fclose(REPORT);
    _exit(0);
}

static void test_file_limit(void) {
    CHECK_RUN("create database filefull with log", 0);
    CHECK_RUN("create table t (id integer, pad char(20))", 0);
    CHECK_RUN("insert into t values (1, 'a')", 0);
    CHECK_RUN("insert into t values (2, 'b')", 0);
    CHECK_RUN("insert into t values (3, 'c')", 0);
    CHECK_RUN("close database", 0);
    int fds[2];
    if (pipe(fds)) return;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        REPORT = fdopen(fds[1], "w");
        if (!REPORT) _exit(4);
        file_limit_child();
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    char line[512];
    int lines = 0, done = 0;
    while (in && fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = 0;
        if (!strcmp(line, "done")) {
            done = 1;
            continue;
        }
        CHECK(!strncmp(line, "ok ", 3), "file-size limit: %s", line);
        lines++;
    }
    if (in) fclose(in);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && done, "child status %d after %d checks", st,
          lines);
    /* the file as the child left it */
    CHECK_RUN("database filefull", 0);
    CHECK_Q("select id from t order by id", "1\n2\n3\n7\n8");
    CHECK_RUN("close database", 0);
}

/* ---- -wal and -shm files that cannot be made ------------------------------------------------ */

static void blocked_aux(const char *suffix) {
    char aux[512];
    snprintf(aux, sizeof aux, "%s/walfiles.db%s", DIR_, suffix);
    CHECK(mkdir(aux, 0700) == 0, "mkdir %s", aux);
    CHECK_ERR("database walfiles", -215, -EISDIR);
    CHECK(strstr(ERR.text, suffix) && strstr(ERR.text, "walfiles.db"), "names %s: '%s'", suffix,
          ERR.text);
    CHECK(D == NULL, "not opened");
    rmdir(aux);
    CHECK_RUN("database walfiles", 0);
    CHECK_RUN("insert into t values (1)", 0);
    CHECK_RUN("close database", 0);
}

/* In a child: as a user that cannot write the data directory. Returns the
 * number of failed checks, or -1 when the check cannot be made here. */
static int readonly_dir_child(void) {
    if (geteuid() == 0 && (setgid(65534) || setuid(65534))) return -1;
    if (geteuid() == 0) return -1;
    char dir[64] = "/tmp/ixd_test_ro_XXXXXX";
    if (!mkdtemp(dir)) return -1;
    ixd_engine *e;
    ixd_db *db;
    ixv_err err;
    int fl, bad = 0;
    const char *c = "create database ro with log";
    db = NULL;
    if (ixd_engine_open(&e, dir, &err) ||
        ixd_session_exec(e, "u", c, strlen(c), &db, &fl, &err) != 1)
        return -1;
    ixd_db_close(db);
    chmod(dir, 0500);
    db = NULL;
    if (ixd_db_open(e, "ro", "u", &db, &fl, &err) != -1 || err.sqlcode != -215 ||
        err.isamcode != -EACCES || !strstr(err.text, "ro.db-wal"))
        bad++;
    ixd_db_close(db);
    chmod(dir, 0700);
    db = NULL;
    if (ixd_db_open(e, "ro", "u", &db, &fl, &err) != 0) bad++;
    ixd_db_close(db);
    ixd_engine_close(e);
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) {
    }
    return bad;
}

static void test_wal_files(void) {
    CHECK_RUN("create database walfiles with log", 0);
    CHECK_RUN("create table t (a integer)", 0);
    CHECK_RUN("close database", 0);
    blocked_aux("-shm");
    blocked_aux("-wal");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int r = readonly_dir_child();
        _exit(r < 0 ? 100 : r);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 100)
        printf("# read-only data directory: no unprivileged user here, not checked\n");
    else
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "read-only data directory: status %d", st);
}

/* ---- DROP DATABASE of a database in use ---------------------------------------------------- */

static void test_drop_in_use(void) {
    CHECK_RUN("create database inuse with log", 0);
    CHECK_RUN("create table t (a integer)", 0);
    ixd_db *other = NULL;
    int fl;
    ixv_err e;
    CHECK(ixd_db_open(E, "inuse", "other", &other, &fl, &e) == 0, "second session opens it");
    CHECK_RUN("create database elsewhere with log", 0); /* this session moves on */
    CHECK_RUN("drop database inuse", -425);
    CHECK_RUN("drop database INUSE", -425);
    CHECK(run_on(other, "insert into t values (1)") == 0, "the other session writes");
    CHECK_RUN("drop database inuse", -425);
    CHECK(run_on(other, "insert into t values (2)") == 0, "and writes again");
    ixd_db_close(other);
    CHECK_RUN("database inuse", 0);
    CHECK_Q("select a from t order by a", "1\n2");
    CHECK_RUN("drop database inuse", -359); /* the current database */
    CHECK_RUN("close database", 0);
    CHECK_RUN("drop database inuse", 0);
    CHECK_RUN("database inuse", -329);
    CHECK_RUN("drop database elsewhere", 0);
    CHECK_RUN("drop database if exists elsewhere", 0);
}

/* Sessions on threads open, write and close "hot" while the main thread
 * drops and re-creates it: a session that has it open must never lose it. */
typedef struct churn {
    int iters, opened, lost, other, finished;
} churn;

static void *churner(void *ap) {
    churn *c = ap;
    char path[512];
    snprintf(path, sizeof path, "%s/hot.db", DIR_);
    for (int i = 0; i < c->iters; i++) {
        ixd_db *db;
        ixv_err e;
        int fl;
        if (ixd_db_open(E, "hot", "churn", &db, &fl, &e) != 0) {
            if (e.sqlcode != -329) c->other++;
            continue;
        }
        c->opened++;
        struct stat st;
        if (stat(path, &st) != 0) c->lost++;
        ixd_stmt *s;
        if (ixd_prepare(db, "insert into t values (1)", 24, &s, &e) == 0) {
            ixd_execute(s, NULL, NULL, NULL, &e);
            ixd_stmt_free(s);
        }
        if (stat(path, &st) != 0) c->lost++;
        ixd_db_close(db);
        nanosleep(&(struct timespec){0, 300000}, NULL); /* a window for DROP */
    }
    __atomic_store_n(&c->finished, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void test_drop_race(void) {
    churn c[3] = {{50, 0, 0, 0, 0}, {50, 0, 0, 0, 0}, {50, 0, 0, 0, 0}};
    CHECK_RUN("create database hot with log", 0);
    CHECK_RUN("create table t (a integer)", 0);
    CHECK_RUN("close database", 0);
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, churner, &c[i]);
    int drops = 0, refused = 0;
    for (;;) {
        int busy = 0;
        for (int i = 0; i < 3; i++)
            busy |= !__atomic_load_n(&c[i].finished, __ATOMIC_SEQ_CST);
        if (!busy) break;
        int r = run("drop database hot");
        if (r == -425) {
            refused++;
            nanosleep(&(struct timespec){0, 100000}, NULL);
            continue;
        }
        CHECK(r == 0, "drop hot -> %d", r);
        drops++;
        CHECK_RUN("create database hot with log", 0);
        CHECK_RUN("set lock mode to wait 10", 0); /* the sessions write to it */
        CHECK_RUN("create table t (a integer)", 0);
        CHECK_RUN("close database", 0);
    }
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 3; i++)
        CHECK(c[i].lost == 0 && c[i].other == 0, "session %d: %d opens, %d lost, %d errors", i,
              c[i].opened, c[i].lost, c[i].other);
    printf("# %d drops, %d refused while in use\n", drops, refused);
    CHECK_RUN("drop database hot", 0); /* nobody has it open now */
}

/* ---- internal names (the SQL of them: tests/sql/engine_names.test) ---------------------- */

/* A file made by an earlier ixd: its sysdatabases read "ixd_databases", a
 * name user SQL could take. Opening it replaces the view. */
static void test_old_catalog(void) {
    CHECK_RUN("create database oldcat with log", 0);
    CHECK(sqlite3_exec(D->x.h,
                       "DROP VIEW sysdatabases; CREATE VIEW sysdatabases AS SELECT name, 1048576 + "
                       "rowid AS partnum, 'informix' AS owner, created, CASE WHEN logmode > 0 "
                       "THEN 1 ELSE 0 END AS is_logging, CASE WHEN logmode = 2 THEN 1 ELSE 0 END "
                       "AS is_buff_log, CASE WHEN logmode = 3 THEN 1 ELSE 0 END AS is_ansi, 0 AS "
                       "is_nls, 0 AS flags FROM ixd_databases ORDER BY name;"
                       "CREATE TABLE ixd_databases(name, logmode, created);"
                       "INSERT INTO ixd_databases VALUES('spoofed', 1, 0);",
                       NULL, NULL, NULL) == SQLITE_OK,
          "old view made");
    CHECK_Q("select name from sysdatabases", "spoofed");
    CHECK_RUN("close database", 0);
    CHECK_RUN("database oldcat", 0);
    CHECK_Q("select count(*) from sysdatabases where name = 'spoofed'", "0");
    CHECK_Q("select count(*) from sysdatabases where name = 'oldcat'", "1");
    CHECK_RUN("close database", 0);
}

/* ---- database names over 128 bytes (their SQL: tests/sql/engine_names.test) -------------- */

static void test_long_names(void) {
    char name[200];
    memset(name, 'd', 129);
    name[129] = 0;
    ixd_db *db = NULL;
    int fl;
    ixv_err e;
    CHECK(ixd_db_open(E, name, "u", &db, &fl, &e) == -1 && e.sqlcode == -354, "ixd_db_open -> %d",
          e.sqlcode);
}

/* every code these faults give has its standard text */
static void test_texts(void) {
    static const int codes[] = {-131, -212, -215, -261, -264, -271, -346, -240,
                                -312, -330, -354, -359, -425, -511, -942};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        CHECK(strcmp(ixv_errtext(codes[i]), "Unknown error."), "text of %d", codes[i]);
}

int main(void) {
    eu_setup("faults");
    test_texts();
    test_page_limit();
    test_file_limit();
    test_wal_files();
    test_drop_in_use();
    test_drop_race();
    test_old_catalog();
    test_long_names();
    eu_teardown();
    return tap_done();
}
