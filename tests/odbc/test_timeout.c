/* test_timeout.c: SQL_ATTR_QUERY_TIMEOUT through unixODBC's driver manager
 * against a real ixd. A statement that runs far longer than its timeout of
 * 1 s (a three-way cross join of 2,000 rows) ends within about a second
 * with SQL_ERROR, HYT00 and the native error of the interrupt (-213), from
 * SQLExecDirect and from SQLExecute; the next statement on the connection
 * runs. A fast statement with a timeout runs (many times, and after the
 * watchdog has slept past its deadline); a timeout of 0 lets a statement of
 * more than a second end; SQLGetStmtAttr gives the value; the connection's
 * SQL_ATTR_QUERY_TIMEOUT is the default of new statements; the watchdog
 * thread is gone after SQLDisconnect. */
#include <dirent.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define NROWS      2000
#define SLOW_SQL   "SELECT COUNT(*) FROM n a, n b, n c"
#define MEDIUM_SQL "SELECT COUNT(*) FROM n a, n b, m c"
#define FAST_SQL   "SELECT COUNT(*) FROM n"
#define FAST_RUNS  200

static SQLHENV env;
static SQLHDBC dbc;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the driver's watchdog threads (named ixodbc-watch; counted by name, so
 * that a sanitizer's own threads do not count) */
static int threads(void) {
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        char path[300], name[32] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f && fgets(name, sizeof name, f)) n += strncmp(name, "ixodbc-watch", 12) == 0;
        if (f) fclose(f);
    }
    closedir(d);
    return n;
}

/* runs sql; the COUNT(*) it gives, or -1 on failure */
static long count(SQLHSTMT st, const char *sql) {
    SQLINTEGER v = -1;
    SQLLEN ind;
    long r = -1;
    if (SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS)) && SQL_SUCCEEDED(SQLFetch(st)) &&
        SQL_SUCCEEDED(SQLGetData(st, 1, SQL_C_SLONG, &v, 0, &ind)))
        r = v;
    SQLFreeStmt(st, SQL_CLOSE);
    return r;
}

static void fill(SQLHSTMT st) {
    static SQLINTEGER ids[NROWS];
    for (int i = 0; i < NROWS; i++)
        ids[i] = i;
    odbc_exec(st, "CREATE TABLE n (i INTEGER)");
    odbc_exec(st, "CREATE TABLE m (i INTEGER)");
    OK(SQLPrepare(st, (SQLCHAR *)"INSERT INTO n VALUES (?)", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)NROWS, 0);
    SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, ids, 0, NULL);
    OK(SQLExecute(st), SQL_HANDLE_STMT, st);
    SQLFreeStmt(st, SQL_RESET_PARAMS);
    SQLSetStmtAttr(st, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
}

/* the statement in st (run by run()) times out after about a second */
static void expect_timeout(SQLHSTMT st, const char *what, SQLRETURN (*run)(SQLHSTMT)) {
    SQLINTEGER native = 0;
    char msg[512] = "";
    double t0 = now_s();
    SQLRETURN rc = run(st);
    double took = now_s() - t0;
    const char *state = odbc_state(SQL_HANDLE_STMT, st, &native, msg, sizeof msg);
    CHECK(rc == SQL_ERROR && strcmp(state, "HYT00") == 0 && native == -213 &&
              strstr(msg, "Timeout expired") != NULL,
          "%s: rc %d, %s, native %d, %s", what, rc, state, (int)native, msg);
    CHECK(took >= 0.9 && took < 3.5, "%s: ended after %.2f s", what, took);
    SQLFreeStmt(st, SQL_CLOSE);
    CHECK(count(st, FAST_SQL) == NROWS, "%s: the next statement on the connection runs", what);
}

static SQLRETURN run_direct(SQLHSTMT st) {
    return SQLExecDirect(st, (SQLCHAR *)SLOW_SQL, SQL_NTS);
}

static SQLRETURN run_prepared(SQLHSTMT st) {
    SQLRETURN rc = SQLPrepare(st, (SQLCHAR *)SLOW_SQL, SQL_NTS);
    return SQL_SUCCEEDED(rc) ? SQLExecute(st) : rc;
}

static void statement_timeout(SQLHSTMT st) {
    SQLULEN v = 99;
    OK(SQLGetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, &v, 0, NULL), SQL_HANDLE_STMT, st);
    CHECK(v == 0, "the default query timeout is 0: %lu", (unsigned long)v);
    OK(SQLSetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)1, 0), SQL_HANDLE_STMT, st);
    OK(SQLGetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, &v, 0, NULL), SQL_HANDLE_STMT, st);
    CHECK(v == 1, "SQLGetStmtAttr: %lu", (unsigned long)v);
    expect_timeout(st, "SQLExecDirect", run_direct);
    expect_timeout(st, "SQLExecute", run_prepared);
    /* fast statements under the timeout: none is interrupted, also after
     * the watchdog slept past the deadline it knew */
    int good = 0;
    for (int i = 0; i < FAST_RUNS; i++)
        good += count(st, FAST_SQL) == NROWS;
    struct timespec pause = {1, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    good += count(st, FAST_SQL) == NROWS;
    CHECK(good == FAST_RUNS + 1, "fast statements with a timeout: %d of %d ran", good,
          FAST_RUNS + 1);
}

/* A statement of more than a second with the timeout 0 ends; the same with
 * the timeout 1 does not (so that the first proves something). m doubles
 * until n x n x m takes more than 1.5 s. */
static void no_timeout(SQLHSTMT st) {
    odbc_exec(st, "INSERT INTO m VALUES (0)");
    double took = 0;
    long mrows = 1;
    for (int k = 0; k < 8 && took < 1.5; k++, mrows *= 2) {
        if (k) odbc_exec(st, "INSERT INTO m SELECT i FROM m");
        double t0 = now_s();
        long got = count(st, MEDIUM_SQL);
        took = now_s() - t0;
        CHECK(got == (long)NROWS * NROWS * mrows, "timeout 0: %ld rows (m has %ld)", got, mrows);
    }
    printf("# timeout 0: the statement took %.2f s\n", took);
    CHECK(took >= 1.5, "timeout 0: a statement of %.2f s ran to its end", took);
    SQLULEN v = 99;
    OK(SQLGetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, &v, 0, NULL), SQL_HANDLE_STMT, st);
    CHECK(v == 0, "the timeout is 0: %lu", (unsigned long)v);
    OK(SQLSetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)1, 0), SQL_HANDLE_STMT, st);
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)MEDIUM_SQL, SQL_NTS);
    CHECK(rc == SQL_ERROR && strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "HYT00") == 0,
          "the same statement with the timeout 1: %d", rc);
    SQLFreeStmt(st, SQL_CLOSE);
}

/* the connection's attribute is the default of the statements allocated
 * after it is set */
static void connection_default(void) {
    OK(SQLSetConnectAttr(dbc, SQL_ATTR_QUERY_TIMEOUT, (SQLPOINTER)1, 0), SQL_HANDLE_DBC, dbc);
    SQLULEN v = 0;
    OK(SQLGetConnectAttr(dbc, SQL_ATTR_QUERY_TIMEOUT, &v, 0, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(v == 1, "SQLGetConnectAttr: %lu", (unsigned long)v);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    v = 0;
    OK(SQLGetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT, &v, 0, NULL), SQL_HANDLE_STMT, st);
    CHECK(v == 1, "a new statement's timeout: %lu", (unsigned long)v);
    expect_timeout(st, "the connection's timeout", run_direct);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "odbctimeout") != 0) return 1;
    int before = threads();
    env = odbc_test_env();
    dbc = odbc_test_connect(env, p.port);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    odbc_exec(st, "CREATE DATABASE odbctimeout WITH LOG");
    fill(st);
    no_timeout(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    statement_timeout(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    connection_default();
    CHECK(threads() == before + 1, "the watchdog runs: %d threads, %d before", threads(), before);
    SQLDisconnect(dbc);
    CHECK(threads() == before, "the watchdog is joined at SQLDisconnect: %d threads, %d before",
          threads(), before);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    return tap_done();
}
