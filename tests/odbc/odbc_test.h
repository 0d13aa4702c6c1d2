/* odbc_test.h: what the C tests of libixodbc share: their ixd and ini
 * files, the first diagnostic record of a handle, a checked call, a
 * statement run and closed. */
#ifndef ODBC_TEST_H
#define ODBC_TEST_H

#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>

#include "ixd_proc.h"
#include "tap.h"

/* An odbcinst.ini naming the driver (IXODBC_LIB) with Threading = 0 as the
 * installed one has it (unixODBC then serializes no call: the driver's own
 * locks do), and an odbc.ini with one DSN for ixd p's port and database,
 * both in p's directory, and ODBCSYSINI / ODBCINI pointing unixODBC at
 * them. Returns 0, or -1 when a file cannot be written. */
static int odbc_write_dsn(const ixd_proc *p, const char *dsn, const char *database) {
    static char ini[400];
    char inst[400];
    snprintf(inst, sizeof inst, "%s/odbcinst.ini", p->dir);
    snprintf(ini, sizeof ini, "%s/odbc.ini", p->dir);
    FILE *f = fopen(inst, "w");
    if (!f) return -1;
    fprintf(f, "[ixdb]\nDriver = %s\nThreading = 0\n", IXODBC_LIB);
    if (fclose(f) != 0 || !(f = fopen(ini, "w"))) return -1;
    fprintf(f,
            "[%s]\nDriver = ixdb\nHost = 127.0.0.1\nService = %d\nDatabase = %s\nUID = "
            "informix\nPWD = in4mix\n",
            dsn, p->port, database);
    if (fclose(f) != 0) return -1;
    setenv("ODBCSYSINI", p->dir, 1);
    setenv("ODBCINI", ini, 1);
    return 0;
}

/* Starts ixd p and writes the ini files of DSN dsn (database db): 0, or
 * -1 after printing a failed TAP summary. */
static inline int odbc_test_start(ixd_proc *p, const char *dsn, const char *db) {
    if (ixd_start(p, NULL, NULL) != 0) {
        printf("ixd did not start\n0 passed, 1 failed\n");
        return -1;
    }
    if (odbc_write_dsn(p, dsn, db) != 0) {
        printf("cannot write the ODBC ini files in %s\n0 passed, 1 failed\n", p->dir);
        return -1;
    }
    return 0;
}

/* A new environment for ODBC 3 (the caller frees it). */
static inline SQLHENV odbc_test_env(void) {
    SQLHENV env = SQL_NULL_HENV;
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    return env;
}

/* A connection of env to the ixd on port, by connection string with no
 * database (the caller disconnects and frees it); checked. */
static inline SQLHDBC odbc_test_connect(SQLHENV env, int port);

/* The SQLSTATE of handle h's first diagnostic record ("none" when it has
 * none; a static buffer), its native error in *native and its message in
 * msg[0..cap) when they are not NULL. */
static inline const char *odbc_state(SQLSMALLINT type, SQLHANDLE h, SQLINTEGER *native, char *msg,
                                     size_t cap) {
    static char st[6];
    SQLCHAR m[512];
    SQLSMALLINT len;
    SQLINTEGER nat = 0;
    st[0] = 0;
    if (!SQL_SUCCEEDED(SQLGetDiagRec(type, h, 1, (SQLCHAR *)st, &nat, m, sizeof m, &len)))
        return "none";
    if (native) *native = nat;
    if (msg) snprintf(msg, cap, "%s", (char *)m);
    return st;
}

/* call succeeds (a CHECK naming it and h's SQLSTATE) */
#define OK(call, type, h)                                                                          \
    do {                                                                                           \
        SQLRETURN rc_ = (call);                                                                    \
        CHECK(SQL_SUCCEEDED(rc_), "%s: %d %s", #call, rc_, odbc_state(type, h, NULL, NULL, 0));    \
    } while (0)

/* Runs sql on st (checked) and closes its cursor. */
static inline void odbc_exec(SQLHSTMT st, const char *sql) {
    OK(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st);
    SQLFreeStmt(st, SQL_CLOSE);
}

static inline SQLHDBC odbc_test_connect(SQLHENV env, int port) {
    char cs[256];
    SQLHDBC dbc = SQL_NULL_HDBC;
    snprintf(cs, sizeof cs, "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;UID=informix;PWD=in4mix",
             port);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    OK(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT),
       SQL_HANDLE_DBC, dbc);
    return dbc;
}

#endif
