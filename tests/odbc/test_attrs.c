/* test_attrs.c: libixodbc's connection attributes through unixODBC's driver
 * manager, against real ixd processes: the login timeout against a listener
 * that never answers (HYT00 within bounds, the handle usable afterwards),
 * the isolation levels (set before and after connecting, read back, an
 * unknown one refused; what a reader sees of another connection's
 * uncommitted row), and SQL_ATTR_CONNECTION_DEAD before and after the
 * server is killed. The driver manager answers these attributes itself
 * before a connection exists (08003), so they are read once connected. */
#include <netinet/in.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

static SQLHENV env;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static SQLRETURN connect_to(SQLHDBC dbc, int port, const char *db) {
    char cs[300];
    snprintf(cs, sizeof cs, "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;UID=informix;PWD=in4mix%s%s",
             port, db ? ";DATABASE=" : "", db ? db : "");
    return SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
}

static void exec(SQLHDBC dbc, const char *sql) {
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    OK(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* a listening socket whose connections are never accepted or answered (the
 * kernel completes the handshake into the backlog); its port in *port */
static int silent_listener(int *port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t n = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 8) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &n) != 0)
        return -1;
    *port = ntohs(a.sin_port);
    return fd;
}

/* SQL_ATTR_LOGIN_TIMEOUT: the connect gives up with HYT00 */
static void login_timeout(int live_port) {
    int port = 0, fd = silent_listener(&port);
    CHECK(fd >= 0, "a silent listener");
    if (fd < 0) return;
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    OK(SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)1, 0), SQL_HANDLE_DBC, dbc);
    SQLULEN v = 0;
    OK(SQLGetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT, &v, 0, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(v == 1, "login timeout read back: %lu", (unsigned long)v);
    double t0 = now();
    SQLRETURN rc = connect_to(dbc, port, NULL);
    double took = now() - t0;
    SQLINTEGER native = 0;
    const char *st = odbc_state(SQL_HANDLE_DBC, dbc, &native, NULL, 0);
    CHECK(rc == SQL_ERROR && strcmp(st, "HYT00") == 0,
          "a server that never answers: HYT00 (rc %d, %s, native %d)", rc, st, (int)native);
    CHECK(took > 0.8 && took < 4.0, "the login timeout of 1 s bounds the connect: %.2f s", took);
    /* the same handle then connects to a live server */
    OK(connect_to(dbc, live_port, NULL), SQL_HANDLE_DBC, dbc);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    close(fd);
}

static const SQLULEN LEVELS[] = {SQL_TXN_READ_UNCOMMITTED, SQL_TXN_READ_COMMITTED,
                                 SQL_TXN_REPEATABLE_READ, SQL_TXN_SERIALIZABLE};

/* SQL_ATTR_TXN_ISOLATION before and after connecting, and SQLGetInfo */
static void isolation_levels(int port) {
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    SQLULEN v = 0;
    OK(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)SQL_TXN_READ_UNCOMMITTED, 0),
       SQL_HANDLE_DBC, dbc);
    OK(connect_to(dbc, port, "attrs"), SQL_HANDLE_DBC, dbc);
    OK(SQLGetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, &v, 0, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(v == SQL_TXN_READ_UNCOMMITTED, "set before connecting, kept: %lu", (unsigned long)v);
    for (size_t i = 0; i < sizeof LEVELS / sizeof LEVELS[0]; i++) {
        OK(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)LEVELS[i], 0), SQL_HANDLE_DBC,
           dbc);
        OK(SQLGetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, &v, 0, NULL), SQL_HANDLE_DBC, dbc);
        CHECK(v == LEVELS[i], "isolation %lu read back: %lu", (unsigned long)LEVELS[i],
              (unsigned long)v);
    }
    CHECK(SQLSetConnectAttr(dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)12345, 0) == SQL_ERROR,
          "an unknown isolation level is refused (%s)",
          odbc_state(SQL_HANDLE_DBC, dbc, NULL, NULL, 0));
    SQLUINTEGER opts = 0;
    OK(SQLGetInfo(dbc, SQL_TXN_ISOLATION_OPTION, &opts, sizeof opts, NULL), SQL_HANDLE_DBC, dbc);
    CHECK((opts & (SQL_TXN_READ_UNCOMMITTED | SQL_TXN_READ_COMMITTED | SQL_TXN_REPEATABLE_READ)) ==
              (SQL_TXN_READ_UNCOMMITTED | SQL_TXN_READ_COMMITTED | SQL_TXN_REPEATABLE_READ),
          "SQL_TXN_ISOLATION_OPTION lists the levels: %#x", (unsigned)opts);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
}

/* the count of rows of t a connection reads; -1 when the read fails */
static long count_rows(SQLHDBC dbc, char *state) {
    SQLHSTMT st;
    SQLINTEGER n = -1;
    SQLLEN ind;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)"SELECT COUNT(*) FROM t", SQL_NTS);
    if (SQL_SUCCEEDED(rc)) rc = SQLFetch(st);
    if (SQL_SUCCEEDED(rc)) rc = SQLGetData(st, 1, SQL_C_SLONG, &n, 0, &ind);
    snprintf(state, 6, "%s",
             SQL_SUCCEEDED(rc) ? "00000" : odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0));
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return SQL_SUCCEEDED(rc) ? n : -1;
}

/* A writer's uncommitted row: a COMMITTED READ reader does not see it (it
 * reads the committed state, or is refused with a lock error); a DIRTY READ
 * reader's statement runs (ixd reads committed data at every level:
 * docs/server-sql.md) */
static void isolation_effect(int port) {
    SQLHDBC w, r;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &w);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &r);
    OK(connect_to(w, port, "attrs"), SQL_HANDLE_DBC, w);
    OK(connect_to(r, port, "attrs"), SQL_HANDLE_DBC, r);
    exec(w, "CREATE TABLE t (i INTEGER)");
    OK(SQLSetConnectAttr(w, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0), SQL_HANDLE_DBC,
       w);
    exec(w, "INSERT INTO t VALUES (1)");
    char state[6];
    OK(SQLSetConnectAttr(r, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)SQL_TXN_READ_UNCOMMITTED, 0),
       SQL_HANDLE_DBC, r);
    long n = count_rows(r, state);
    CHECK(n == 0 || n == 1, "DIRTY READ reads: %ld (%s)", n, state);
    OK(SQLSetConnectAttr(r, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)SQL_TXN_READ_COMMITTED, 0),
       SQL_HANDLE_DBC, r);
    n = count_rows(r, state);
    CHECK(n == 0 || (n == -1 && strcmp(state, "00000") != 0),
          "COMMITTED READ does not see it: %ld (%s)", n, state);
    OK(SQLEndTran(SQL_HANDLE_DBC, w, SQL_ROLLBACK), SQL_HANDLE_DBC, w);
    SQLDisconnect(w);
    SQLDisconnect(r);
    SQLFreeHandle(SQL_HANDLE_DBC, w);
    SQLFreeHandle(SQL_HANDLE_DBC, r);
}

/* SQL_ATTR_CONNECTION_DEAD: false while the server lives, true once a call
 * found it gone (kill -9) */
static void connection_dead(void) {
    ixd_proc q;
    if (ixd_start(&q, NULL, NULL) != 0) {
        CHECK(0, "a second ixd starts");
        return;
    }
    SQLHDBC dbc;
    SQLUINTEGER dead = 99;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    OK(connect_to(dbc, q.port, NULL), SQL_HANDLE_DBC, dbc);
    OK(SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(dead == SQL_CD_FALSE, "connected: alive (%u)", (unsigned)dead);
    ixd_stop(&q, SIGKILL);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)"CREATE DATABASE gone", SQL_NTS);
    const char *s = odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0);
    CHECK(rc == SQL_ERROR && strncmp(s, "08", 2) == 0, "a call after kill -9: %d %s", rc, s);
    OK(SQLGetConnectAttr(dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(dead == SQL_CD_TRUE, "after the server died: dead (%u)", (unsigned)dead);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    ixd_rmdir(&q);
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "attrs") != 0) return 1;
    env = odbc_test_env();
    SQLHDBC dbc;
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    OK(connect_to(dbc, p.port, NULL), SQL_HANDLE_DBC, dbc);
    exec(dbc, "CREATE DATABASE attrs WITH LOG");
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    login_timeout(p.port);
    isolation_levels(p.port);
    isolation_effect(p.port);
    connection_dead();
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
