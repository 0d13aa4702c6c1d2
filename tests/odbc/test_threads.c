/* test_threads.c: libixodbc used from several threads through unixODBC's
 * driver manager, against a real ixd. The driver is registered with
 * Threading = 0, so the driver manager serializes nothing (unixODBC reads
 * Threading from the driver's section of odbcinst.ini; 0 means no lock) and
 * the driver's own locking (ixo_enter / ixo_leave) is what is tested:
 *   (a) 6 threads, each with its own connection from one shared environment
 *       and its own table: 500 rows as one parameter array, read back with
 *       a block fetch and again with SQLGetData, every value checked; 3
 *       rounds (with a query timeout: every call arms and disarms the
 *       connection's watchdog thread, in (b) too)
 *   (b) one connection shared by 4 threads, each with its own statements:
 *       prepared INSERTs and SELECTs (block fetch, cursors interleaved with
 *       the other threads' statements), a failing statement read with
 *       SQLGetDiagRec while the others run, and (c) statements allocated,
 *       used and freed while the others use the connection; the main thread
 *       frees an idle statement with an open cursor meanwhile
 *   (b2) while one thread is inside a long query on the shared connection,
 *       SQLGetDiagRec on another statement answers at once (the driver
 *       manager takes no lock) and SQLCancel of that other, idle statement
 *       leaves the running query alone; SQLCancel of the running one ends it
 *   (d) SQLDisconnect after the threads stop, statements still allocated
 * Every phase runs under an alarm: a deadlock fails the test (ixd killed,
 * exit status 3) instead of hanging it. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sql.h>
#include <sqlext.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define NCONN               6   /* (a): threads, each with its own connection */
#define NROWS               500 /* (a): rows per round */
#define ROUNDS              3
#define BLOCK               64  /* (a): the rowset size */
#define NSHARE              4   /* (b): threads on the one connection */
#define LOOPS               100 /* (b): iterations per thread */
#define SHARED_ROWS         100
#define QUERY_TIMEOUT       120 /* (a), (b): seconds, never reached */
#define PHASE_SECONDS       240 /* the bound of every phase */
#define NULL_EVERY          7   /* (a): every 7th name is NULL */
#define SQLCODE_NO_TABLE    (-206)
#define SQLCODE_INTERRUPTED (-213)

static ixd_proc P;
static SQLHENV env;
static char connstr[512];

/* ---- the watchdog ---- */

static void on_alarm(int sig) {
    (void)sig;
    static const char m[] = "not ok - watchdog: a phase did not end in time (a deadlock?)\n";
    if (write(1, m, sizeof m - 1) < 0) _exit(4);
    if (P.pid > 0) kill(P.pid, SIGKILL);
    _exit(3);
}

static void phase(const char *name) {
    printf("# %s\n", name);
    fflush(stdout);
    alarm(PHASE_SECONDS);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- what a thread found ---- */

typedef struct job {
    int id;
    int failures;
    char why[1024];
    int64_t rows; /* rows checked */
} job;

/* the first record of handle h: "STATE native message" into buf */
static const char *diag(SQLSMALLINT type, SQLHANDLE h, char *buf, size_t cap) {
    SQLCHAR st[6] = "", m[300] = "";
    SQLINTEGER nat = 0;
    SQLSMALLINT len;
    if (!SQL_SUCCEEDED(SQLGetDiagRec(type, h, 1, st, &nat, m, sizeof m, &len)))
        snprintf(buf, cap, "(no diagnostics)");
    else
        snprintf(buf, cap, "%s %d %s", (char *)st, (int)nat, (char *)m);
    return buf;
}

/* records the first failure of j and jumps to out */
#define FAIL(j, ...)                                                                               \
    do {                                                                                           \
        if (!(j)->failures++) snprintf((j)->why, sizeof(j)->why, __VA_ARGS__);                     \
        goto out;                                                                                  \
    } while (0)

/* a call that must succeed, its handle's record in the failure */
#define MUST(j, call, type, h)                                                                     \
    do {                                                                                           \
        SQLRETURN rc_ = (call);                                                                    \
        char d_[400];                                                                              \
        if (!SQL_SUCCEEDED(rc_))                                                                   \
            FAIL(j, "%s: rc %d: %s", #call, rc_, diag(type, h, d_, sizeof d_));                    \
    } while (0)

/* SQLExecDirect then SQL_CLOSE; the record of a failure into d */
static SQLRETURN exec_close(SQLHSTMT st, const char *sql, char *d, size_t cap) {
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc)) diag(SQL_HANDLE_STMT, st, d, cap);
    SQLFreeStmt(st, SQL_CLOSE);
    return rc;
}

/* ---- (a) a connection per thread ---- */

/* the values of row i of thread t in round r */
static void row_name(char *buf, size_t cap, int t, int r, int i) {
    snprintf(buf, cap, "t%d r%d row %d", t, r, i);
}
static int64_t row_cents(int t, int r, int i) {
    return (int64_t)i * 1013 + r * 7 + t - 50000; /* negative ones too */
}
static int64_t row_big(int t, int r, int i) {
    return ((int64_t)t << 40) + ((int64_t)r << 20) + i;
}

typedef struct rows_a {
    SQLINTEGER id[NROWS];
    char name[NROWS][32];
    SQLLEN name_ind[NROWS];
    char amount[NROWS][24];
    SQLBIGINT big[NROWS];
    SQLUSMALLINT status[NROWS];
} rows_a;

static int insert_round(job *j, SQLHSTMT st, rows_a *w, const char *table, int r) {
    char sql[200], d[400];
    SQLULEN done = 0;
    SQLLEN count = 0;
    for (int i = 0; i < NROWS; i++) {
        w->id[i] = i;
        row_name(w->name[i], sizeof w->name[i], j->id, r, i);
        w->name_ind[i] = i % NULL_EVERY == 3 ? SQL_NULL_DATA : SQL_NTS;
        int64_t c = row_cents(j->id, r, i);
        snprintf(w->amount[i], sizeof w->amount[i], "%s%lld.%02lld", c < 0 ? "-" : "",
                 (long long)(llabs(c) / 100), (long long)(llabs(c) % 100));
        w->big[i] = row_big(j->id, r, i);
        w->status[i] = 99;
    }
    snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (?, ?, ?, ?)", table);
    MUST(j, SQLPrepare(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)NROWS, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, w->status, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, &done, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, w->id, 0, NULL);
    SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 31, 0, w->name, 32,
                     w->name_ind);
    SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_DECIMAL, 12, 2, w->amount, 24, NULL);
    SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0, 0, w->big, 0, NULL);
    SQLRETURN xr = SQLExecute(st);
    d[0] = 0;
    if (xr != SQL_SUCCESS) diag(SQL_HANDLE_STMT, st, d, sizeof d);
    if (!SQL_SUCCEEDED(xr)) FAIL(j, "round %d insert: rc %d: %s", r, xr, d);
    MUST(j, SQLRowCount(st, &count), SQL_HANDLE_STMT, st);
    int good = 0, first_bad = -1;
    for (int i = 0; i < NROWS; i++)
        if (w->status[i] == SQL_PARAM_SUCCESS)
            good++;
        else if (first_bad < 0)
            first_bad = i;
    if (count != NROWS || done != NROWS || good != NROWS)
        FAIL(j, "round %d insert: %ld rows, %lu processed, %d succeeded (row %d: %d): %s", r,
             (long)count, (unsigned long)done, good, first_bad,
             first_bad < 0 ? 0 : w->status[first_bad], d);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0);
    return 0;
out:
    return -1;
}

/* 1 when row i's values are those of thread t, round r */
static int row_ok(int t, int r, int i, SQLINTEGER id, const char *name, SQLLEN name_ind,
                  const char *amount, SQLBIGINT big) {
    char want[32];
    row_name(want, sizeof want, t, r, i);
    if (id != i || big != row_big(t, r, i)) return 0;
    if (i % NULL_EVERY == 3 ? name_ind != SQL_NULL_DATA
                            : name_ind != (SQLLEN)strlen(want) || strcmp(name, want) != 0)
        return 0;
    return llround(strtod(amount, NULL) * 100) == row_cents(t, r, i);
}

static int block_read(job *j, SQLHSTMT st, const char *table, int r) {
    static _Thread_local struct {
        SQLINTEGER id[BLOCK];
        char name[BLOCK][32];
        char amount[BLOCK][24];
        SQLBIGINT big[BLOCK];
        SQLLEN ii[BLOCK], ni[BLOCK], ai[BLOCK], bi[BLOCK];
        SQLUSMALLINT status[BLOCK];
    } b;
    char sql[200];
    SQLULEN got = 0;
    int next = 0;
    SQLRETURN rc;
    snprintf(sql, sizeof sql, "SELECT id, name, amount, big FROM %s ORDER BY id", table);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)BLOCK, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &got, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, b.status, 0);
    MUST(j, SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st);
    SQLBindCol(st, 1, SQL_C_SLONG, b.id, 0, b.ii);
    SQLBindCol(st, 2, SQL_C_CHAR, b.name, 32, b.ni);
    SQLBindCol(st, 3, SQL_C_CHAR, b.amount, 24, b.ai);
    SQLBindCol(st, 4, SQL_C_SBIGINT, b.big, 0, b.bi);
    while (SQL_SUCCEEDED(rc = SQLFetch(st))) {
        for (SQLULEN k = 0; k < got; k++, next++)
            if (b.status[k] != SQL_ROW_SUCCESS ||
                !row_ok(j->id, r, next, b.id[k], b.name[k], b.ni[k], b.amount[k], b.big[k]))
                FAIL(j, "round %d block fetch: row %d is %d '%s' %s %lld", r, next, (int)b.id[k],
                     b.name[k], b.amount[k], (long long)b.big[k]);
    }
    if (rc != SQL_NO_DATA || next != NROWS)
        FAIL(j, "round %d block fetch: %d rows, rc %d", r, next, rc);
    j->rows += next;
    SQLFreeStmt(st, SQL_CLOSE);
    SQLFreeStmt(st, SQL_UNBIND);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, NULL, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, NULL, 0);
    return 0;
out:
    return -1;
}

static int getdata_read(job *j, SQLHSTMT st, const char *table, int r) {
    char sql[200], name[32], amount[24];
    SQLINTEGER id;
    SQLBIGINT big;
    SQLLEN ii, ni, ai, bi;
    int next = 0;
    SQLRETURN rc;
    snprintf(sql, sizeof sql, "SELECT id, name, amount, big FROM %s ORDER BY id", table);
    MUST(j, SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st);
    while ((rc = SQLFetch(st)) == SQL_SUCCESS) {
        name[0] = 0;
        MUST(j, SQLGetData(st, 1, SQL_C_SLONG, &id, 0, &ii), SQL_HANDLE_STMT, st);
        MUST(j, SQLGetData(st, 2, SQL_C_CHAR, name, sizeof name, &ni), SQL_HANDLE_STMT, st);
        MUST(j, SQLGetData(st, 3, SQL_C_CHAR, amount, sizeof amount, &ai), SQL_HANDLE_STMT, st);
        MUST(j, SQLGetData(st, 4, SQL_C_SBIGINT, &big, 0, &bi), SQL_HANDLE_STMT, st);
        if (!row_ok(j->id, r, next, id, name, ni, amount, big))
            FAIL(j, "round %d SQLGetData: row %d is %d '%s' %s %lld", r, next, (int)id, name,
                 amount, (long long)big);
        next++;
    }
    if (rc != SQL_NO_DATA || next != NROWS)
        FAIL(j, "round %d SQLGetData: %d rows, rc %d", r, next, rc);
    j->rows += next;
    SQLFreeStmt(st, SQL_CLOSE);
    return 0;
out:
    return -1;
}

static void *own_connection(void *arg) {
    job *j = arg;
    SQLHDBC dbc = SQL_NULL_HDBC;
    SQLHSTMT st = SQL_NULL_HSTMT;
    char table[32], sql[200], d[400];
    rows_a *w = calloc(1, sizeof *w);
    if (!w) FAIL(j, "out of memory");
    MUST(j, SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc), SQL_HANDLE_ENV, env);
    MUST(j,
         SQLDriverConnect(dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, NULL, 0, NULL,
                          SQL_DRIVER_NOPROMPT),
         SQL_HANDLE_DBC, dbc);
    MUST(j, SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc);
    MUST(j, SQLSetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)QUERY_TIMEOUT, 0),
         SQL_HANDLE_STMT, st);
    /* the connections write at the same time: wait for locks, as Informix
     * applications do, instead of failing at once with -107 */
    if (!SQL_SUCCEEDED(exec_close(st, "SET LOCK MODE TO WAIT 60", d, sizeof d)))
        FAIL(j, "SET LOCK MODE: %s", d);
    snprintf(table, sizeof table, "ta%d", j->id);
    snprintf(sql, sizeof sql,
             "CREATE TABLE %s (id INTEGER, name VARCHAR(31), amount DECIMAL(12,2), big BIGINT)",
             table);
    if (!SQL_SUCCEEDED(exec_close(st, sql, d, sizeof d))) FAIL(j, "%s: %s", sql, d);
    for (int r = 0; r < ROUNDS; r++) {
        snprintf(sql, sizeof sql, "DELETE FROM %s", table);
        SQLRETURN rc = exec_close(st, sql, d, sizeof d);
        if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) FAIL(j, "%s: %s", sql, d);
        if (insert_round(j, st, w, table, r) || block_read(j, st, table, r) ||
            getdata_read(j, st, table, r))
            goto out;
    }
out:
    if (st) SQLFreeHandle(SQL_HANDLE_STMT, st);
    if (dbc) {
        SQLDisconnect(dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    }
    free(w);
    return NULL;
}

static void phase_own_connections(void) {
    phase("(a) 6 threads, a connection each");
    pthread_t t[NCONN];
    job jobs[NCONN];
    double t0 = now_s();
    for (int i = 0; i < NCONN; i++) {
        jobs[i] = (job){.id = i};
        pthread_create(&t[i], NULL, own_connection, &jobs[i]);
    }
    for (int i = 0; i < NCONN; i++) {
        pthread_join(t[i], NULL);
        CHECK(jobs[i].failures == 0 && jobs[i].rows == (int64_t)NROWS * ROUNDS * 2,
              "(a) thread %d: %lld rows checked: %s", i, (long long)jobs[i].rows, jobs[i].why);
    }
    printf("# (a) %d x %d rounds x %d rows written and read twice in %.2f s\n", NCONN, ROUNDS,
           NROWS, now_s() - t0);
}

/* ---- (b) one connection, statements per thread ---- */

static SQLHDBC shared;

/* the rows of tb<k> after iteration i: 0..i, v = "k<k> i<i>" */
static int shared_loop(job *j, SQLHSTMT ins, SQLHSTMT sel, SQLHSTMT bad, int i) {
    static _Thread_local struct {
        SQLINTEGER id[3];
        char v[3][24];
        SQLLEN ii[3], vi[3];
    } b;
    SQLINTEGER id = i, from = 0;
    char v[24], want[24], badsql[40];
    SQLULEN got = 0;
    SQLRETURN rc;
    snprintf(v, sizeof v, "k%d i%d", j->id, i);
    SQLBindParameter(ins, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, NULL);
    SQLBindParameter(ins, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 23, 0, v, 0, NULL);
    MUST(j, SQLExecute(ins), SQL_HANDLE_STMT, ins);
    /* a block fetch of 3 rows at a time: between two SQLFetch calls the
     * other threads run their statements on the connection */
    SQLBindParameter(sel, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &from, 0, NULL);
    SQLSetStmtAttr(sel, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)3, 0);
    SQLSetStmtAttr(sel, SQL_ATTR_ROWS_FETCHED_PTR, &got, 0);
    MUST(j, SQLExecute(sel), SQL_HANDLE_STMT, sel);
    SQLBindCol(sel, 1, SQL_C_SLONG, b.id, 0, b.ii);
    SQLBindCol(sel, 2, SQL_C_CHAR, b.v, 24, b.vi);
    int next = 0;
    while (SQL_SUCCEEDED(rc = SQLFetch(sel))) {
        for (SQLULEN k = 0; k < got; k++, next++) {
            snprintf(want, sizeof want, "k%d i%d", j->id, next);
            if (b.id[k] != next || strcmp(b.v[k], want) != 0)
                FAIL(j, "iteration %d: row %d is %d '%s'", i, next, (int)b.id[k], b.v[k]);
        }
        sched_yield();
    }
    if (rc != SQL_NO_DATA || next != i + 1) FAIL(j, "iteration %d: %d rows, rc %d", i, next, rc);
    j->rows += next;
    SQLFreeStmt(sel, SQL_CLOSE);
    /* a failing statement, its record read while the others run */
    if (i % 5 == 0) {
        SQLCHAR st[6] = "", m[300];
        SQLINTEGER nat = 0;
        SQLSMALLINT len;
        snprintf(badsql, sizeof badsql, "SELECT * FROM nosuch%d", j->id);
        rc = SQLExecDirect(bad, (SQLCHAR *)badsql, SQL_NTS);
        if (rc != SQL_ERROR) FAIL(j, "iteration %d: %s gives %d", i, badsql, rc);
        for (int k = 0; k < 3; k++) { /* the record stays while other threads run */
            if (!SQL_SUCCEEDED(
                    SQLGetDiagRec(SQL_HANDLE_STMT, bad, 1, st, &nat, m, sizeof m, &len)) ||
                strcmp((char *)st, "42S02") != 0 || nat != SQLCODE_NO_TABLE)
                FAIL(j, "iteration %d: the record of %s: %s %d", i, badsql, (char *)st, (int)nat);
            sched_yield();
        }
    }
    return 0;
out:
    return -1;
}

/* (c) a statement allocated, used and freed, its cursor still open */
static int temp_statement(job *j, int i) {
    SQLHSTMT t = SQL_NULL_HSTMT;
    SQLINTEGER n = 0, sum = 0;
    SQLLEN ind;
    MUST(j, SQLAllocHandle(SQL_HANDLE_STMT, shared, &t), SQL_HANDLE_DBC, shared);
    MUST(j, SQLExecDirect(t, (SQLCHAR *)"SELECT COUNT(*), SUM(id) FROM tbs", SQL_NTS),
         SQL_HANDLE_STMT, t);
    MUST(j, SQLFetch(t), SQL_HANDLE_STMT, t);
    SQLGetData(t, 1, SQL_C_SLONG, &n, 0, &ind);
    SQLGetData(t, 2, SQL_C_SLONG, &sum, 0, &ind);
    if (n != SHARED_ROWS || sum != SHARED_ROWS * (SHARED_ROWS - 1) / 2)
        FAIL(j, "iteration %d: tbs has %d rows, sum %d", i, (int)n, (int)sum);
    SQLFreeStmt(t, SQL_CLOSE);
    /* a second cursor left open at its first row */
    MUST(j, SQLExecDirect(t, (SQLCHAR *)"SELECT id FROM tbs ORDER BY id", SQL_NTS), SQL_HANDLE_STMT,
         t);
    MUST(j, SQLFetch(t), SQL_HANDLE_STMT, t);
    SQLRETURN rc = SQLFreeHandle(SQL_HANDLE_STMT, t);
    t = SQL_NULL_HSTMT;
    if (rc != SQL_SUCCESS) FAIL(j, "iteration %d: SQLFreeHandle %d", i, rc);
    return 0;
out:
    if (t) SQLFreeHandle(SQL_HANDLE_STMT, t);
    return -1;
}

static void *shared_connection(void *arg) {
    job *j = arg;
    SQLHSTMT ins = SQL_NULL_HSTMT, sel = SQL_NULL_HSTMT, bad = SQL_NULL_HSTMT;
    char sql[200];
    MUST(j, SQLAllocHandle(SQL_HANDLE_STMT, shared, &ins), SQL_HANDLE_DBC, shared);
    MUST(j, SQLAllocHandle(SQL_HANDLE_STMT, shared, &sel), SQL_HANDLE_DBC, shared);
    MUST(j, SQLAllocHandle(SQL_HANDLE_STMT, shared, &bad), SQL_HANDLE_DBC, shared);
    /* a query timeout: every call arms the connection's watchdog thread */
    MUST(j, SQLSetStmtAttr(ins, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)QUERY_TIMEOUT, 0),
         SQL_HANDLE_STMT, ins);
    MUST(j, SQLSetStmtAttr(sel, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)QUERY_TIMEOUT, 0),
         SQL_HANDLE_STMT, sel);
    snprintf(sql, sizeof sql, "INSERT INTO tb%d VALUES (?, ?)", j->id);
    MUST(j, SQLPrepare(ins, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, ins);
    snprintf(sql, sizeof sql, "SELECT id, v FROM tb%d WHERE id >= ? ORDER BY id", j->id);
    MUST(j, SQLPrepare(sel, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, sel);
    for (int i = 0; i < LOOPS; i++) {
        if (shared_loop(j, ins, sel, bad, i)) goto out;
        if (i % 10 == 9 && temp_statement(j, i)) goto out;
    }
out:
    if (ins) SQLFreeHandle(SQL_HANDLE_STMT, ins);
    if (sel) SQLFreeHandle(SQL_HANDLE_STMT, sel);
    if (bad) SQLFreeHandle(SQL_HANDLE_STMT, bad);
    return NULL;
}

static void exec_ok(SQLHSTMT st, const char *sql) {
    char d[400];
    SQLRETURN rc = exec_close(st, sql, d, sizeof d);
    CHECK(SQL_SUCCEEDED(rc), "%s: %d %s", sql, rc, d);
}

static void shared_setup(SQLHSTMT st) {
    static SQLINTEGER ids[2000];
    char sql[100];
    for (int k = 0; k < NSHARE; k++) {
        snprintf(sql, sizeof sql, "CREATE TABLE tb%d (id INTEGER, v VARCHAR(23))", k);
        exec_ok(st, sql);
    }
    exec_ok(st, "CREATE TABLE tbs (id INTEGER)");
    exec_ok(st, "CREATE TABLE n (i INTEGER)");
    for (int i = 0; i < 2000; i++)
        ids[i] = i;
    SQLPrepare(st, (SQLCHAR *)"INSERT INTO n VALUES (?)", SQL_NTS);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)2000, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL);
    CHECK(SQL_SUCCEEDED(SQLExecute(st)), "2000 rows into n");
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)SHARED_ROWS, 0);
    SQLPrepare(st, (SQLCHAR *)"INSERT INTO tbs VALUES (?)", SQL_NTS);
    CHECK(SQL_SUCCEEDED(SQLExecute(st)), "%d rows into tbs", SHARED_ROWS);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
}

static void phase_shared_connection(void) {
    phase("(b) 4 threads on one connection, (c) statements freed meanwhile");
    pthread_t t[NSHARE];
    job jobs[NSHARE];
    SQLHSTMT idle, st;
    SQLAllocHandle(SQL_HANDLE_STMT, shared, &st);
    shared_setup(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    /* an idle statement with an open cursor, freed while the threads run */
    SQLAllocHandle(SQL_HANDLE_STMT, shared, &idle);
    CHECK(SQL_SUCCEEDED(SQLExecDirect(idle, (SQLCHAR *)"SELECT id FROM tbs", SQL_NTS)) &&
              SQL_SUCCEEDED(SQLFetch(idle)),
          "the idle statement's cursor");
    double t0 = now_s();
    for (int i = 0; i < NSHARE; i++) {
        jobs[i] = (job){.id = i};
        pthread_create(&t[i], NULL, shared_connection, &jobs[i]);
    }
    sleep_ms(50);
    CHECK(SQLFreeHandle(SQL_HANDLE_STMT, idle) == SQL_SUCCESS,
          "(c) SQLFreeHandle of an idle statement while the threads run");
    for (int i = 0; i < NSHARE; i++) {
        pthread_join(t[i], NULL);
        CHECK(jobs[i].failures == 0 && jobs[i].rows == (int64_t)LOOPS * (LOOPS + 1) / 2,
              "(b) thread %d: %lld rows checked: %s", i, (long long)jobs[i].rows, jobs[i].why);
    }
    printf("# (b) %d threads x %d iterations in %.2f s\n", NSHARE, LOOPS, now_s() - t0);
}

/* ---- (b2) a long query on the shared connection ---- */

typedef struct long_run {
    SQLHSTMT st;
    _Atomic int started, done;
    SQLRETURN rc;
    char diag[400];
} long_run;

static void *run_long(void *arg) {
    long_run *l = arg;
    atomic_store(&l->started, 1);
    l->rc = SQLExecDirect(l->st, (SQLCHAR *)"SELECT COUNT(*) FROM n a, n b, n c", SQL_NTS);
    diag(SQL_HANDLE_STMT, l->st, l->diag, sizeof l->diag);
    atomic_store(&l->done, 1);
    return NULL;
}

static void phase_long_query(void) {
    phase("(b2) SQLGetDiagRec and SQLCancel of another statement during a long query");
    SQLHSTMT other;
    long_run l = {0};
    SQLAllocHandle(SQL_HANDLE_STMT, shared, &l.st);
    SQLAllocHandle(SQL_HANDLE_STMT, shared, &other);
    CHECK(SQLExecDirect(other, (SQLCHAR *)"SELECT * FROM nosuch", SQL_NTS) == SQL_ERROR,
          "a failing statement");
    pthread_t t;
    pthread_create(&t, NULL, run_long, &l);
    while (!atomic_load(&l.started))
        sleep_ms(1);
    sleep_ms(500); /* inside the query, holding the connection */
    SQLCHAR st[6] = "", m[300];
    SQLINTEGER nat = 0;
    SQLSMALLINT len;
    double t0 = now_s();
    SQLRETURN rc = SQLGetDiagRec(SQL_HANDLE_STMT, other, 1, st, &nat, m, sizeof m, &len);
    double took = now_s() - t0;
    CHECK(SQL_SUCCEEDED(rc) && strcmp((char *)st, "42S02") == 0 && nat == SQLCODE_NO_TABLE &&
              !atomic_load(&l.done),
          "SQLGetDiagRec of an idle statement during the query: rc %d %s %d after %.3f s, query "
          "done %d",
          rc, (char *)st, (int)nat, took, atomic_load(&l.done));
    rc = SQLCancel(other);
    sleep_ms(1000);
    CHECK(rc == SQL_SUCCESS && !atomic_load(&l.done),
          "SQLCancel of an idle statement leaves the running one alone: rc %d, query done %d (%s)",
          rc, atomic_load(&l.done), atomic_load(&l.done) ? l.diag : "");
    rc = SQLCancel(l.st);
    pthread_join(t, NULL);
    CHECK(rc == SQL_SUCCESS && l.rc == SQL_ERROR && strncmp(l.diag, "HY008 -213", 10) == 0,
          "SQLCancel of the running statement: %d, the query %d %s", rc, l.rc, l.diag);
    SQLINTEGER n = 0;
    SQLLEN ind;
    CHECK(SQL_SUCCEEDED(SQLExecDirect(other, (SQLCHAR *)"SELECT COUNT(*) FROM n", SQL_NTS)) &&
              SQL_SUCCEEDED(SQLFetch(other)) &&
              SQL_SUCCEEDED(SQLGetData(other, 1, SQL_C_SLONG, &n, 0, &ind)) && n == 2000,
          "the connection after the cancel: %d", (int)n);
    SQLFreeHandle(SQL_HANDLE_STMT, other);
    /* l.st stays allocated: SQLDisconnect frees it */
}

int main(void) {
    signal(SIGALRM, on_alarm);
    phase("start");
    if (ixd_start(&P, NULL, NULL) != 0) {
        printf("ixd did not start\n0 passed, 1 failed\n");
        return 1;
    }
    if (odbc_write_dsn(&P, "t", "odbcthr") != 0) {
        printf("cannot write the ODBC ini files in %s\n0 passed, 1 failed\n", P.dir);
        return 1;
    }
    snprintf(connstr, sizeof connstr,
             "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;DATABASE=odbcthr;UID=informix;PWD=in4mix",
             P.port);
    env = odbc_test_env();
    SQLHSTMT st;
    char cs[300], d[400];
    snprintf(cs, sizeof cs, "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;UID=informix;PWD=in4mix",
             P.port);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &shared);
    SQLRETURN rc =
        SQLDriverConnect(shared, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
    CHECK(SQL_SUCCEEDED(rc), "connect: %s", diag(SQL_HANDLE_DBC, shared, d, sizeof d));
    SQLAllocHandle(SQL_HANDLE_STMT, shared, &st);
    exec_ok(st, "CREATE DATABASE odbcthr WITH LOG");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    phase_own_connections();
    phase_shared_connection();
    phase_long_query();
    phase("(d) SQLDisconnect after the threads");
    CHECK(SQLDisconnect(shared) == SQL_SUCCESS, "SQLDisconnect with a statement allocated: %s",
          diag(SQL_HANDLE_DBC, shared, d, sizeof d));
    CHECK(SQLFreeHandle(SQL_HANDLE_DBC, shared) == SQL_SUCCESS, "SQLFreeHandle of the connection");
    CHECK(SQLFreeHandle(SQL_HANDLE_ENV, env) == SQL_SUCCESS, "SQLFreeHandle of the environment");
    alarm(0);
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
