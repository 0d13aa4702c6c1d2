/*
 * bench_odbc.c: block fetch through libixodbc (unixODBC's driver manager,
 * SQLBindCol on the five columns, a row array of 1,000, SQLFetchScroll)
 * against libixdb's own loop, on the bench table (id INT, name VARCHAR(64),
 * counter INT, value FLOAT, created DATE):
 *   libixdb   ix_step and the five typed accessors (bench_read_row5: the
 *             name's length, the DATE's day number)
 *   everyday  ix_step, the name copied out (ix_column_text, its length) and
 *             the DATE as year/month/day: what the driver hands over
 *   odbc      SQL_C_SLONG, SQL_C_CHAR[65], SQL_C_SLONG, SQL_C_DOUBLE,
 *             SQL_C_TYPE_DATE, 1,000 rows a call
 * Instructions per row with callgrind, client side only (driver manager,
 * driver, libixdb): each workload at N and 2N rows, each in its own
 * connection, per row = (I(2N) - I(N)) / N so that the fixed costs cancel.
 * Wall time per row: median and IQR over 10 rounds of 2N rows.
 * Goal (docs/odbc.md): the driver's instructions per row <= 1.5x libixdb's.
 *
 * Usage: bench_odbc [--rows N]        (default 20000; BENCH_KEEP=1 keeps the
 *                                     callgrind profiles)
 *        bench_odbc --child PORT N    (the client under callgrind)
 */
#include <signal.h>
#include <sql.h>
#include <sqlext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proxy/cmp_common.h"

enum { W_LIBIXDB, W_EVERYDAY, W_ODBC, NWORK };
static const char *const WNAME[NWORK] = {"libixdb ix_step + 5 typed reads",
                                         "libixdb, name copied, date as y/m/d",
                                         "ODBC block fetch (1,000 rows a call)"};
#define BLOCK  1000
#define ROUNDS 10

static int64_t fetch_ixdb(int port, const char *table, int everyday) {
    ix_conn *c = cmp_connect(port, "bench");
    char sql[128], name[65];
    snprintf(sql, sizeof sql, "select id, name, counter, value, created from %s", table);
    ix_stmt *s = NULL;
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &s));
    int64_t rows = 0, sum = 0;
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        if (everyday) {
            int y, m, d;
            size_t n = ix_column_text_len(s, 1);
            const char *t = ix_column_text(s, 1);
            memcpy(name, t ? t : "", n < sizeof name ? n + 1 : sizeof name);
            ix_column_date_ymd(s, 4, &y, &m, &d);
            sum += ix_column_int(s, 0) + name[0] + ix_column_int(s, 2) +
                   (int64_t)ix_column_double(s, 3) + y + m + d;
        } else {
            sum += bench_read_row5(s);
        }
        rows++;
    }
    BENCH_CHECK(c, rc);
    ix_finalize(s);
    ix_close(c);
    if (sum == 42) printf(" ");
    return rows;
}

static int64_t fetch_odbc(int port, const char *table) {
    static SQLINTEGER id[BLOCK], counter[BLOCK];
    static char name[BLOCK][65];
    static double value[BLOCK];
    static SQL_DATE_STRUCT created[BLOCK];
    static SQLLEN ind[5][BLOCK];
    SQLHENV env;
    SQLHDBC dbc;
    SQLHSTMT st;
    SQLULEN got = 0;
    char cs[256], sql[128];
    snprintf(cs, sizeof cs,
             "DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;DATABASE=bench;UID=" CMP_USER
             ";PWD=" CMP_PASS,
             port);
    SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
    SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
    if (!SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL,
                                        SQL_DRIVER_NOPROMPT))) {
        fprintf(stderr, "ODBC connect failed (is the driver in $ODBCSYSINI/odbcinst.ini?)\n");
        exit(1);
    }
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)BLOCK, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &got, 0);
    SQLBindCol(st, 1, SQL_C_SLONG, id, 0, ind[0]);
    SQLBindCol(st, 2, SQL_C_CHAR, name, 65, ind[1]);
    SQLBindCol(st, 3, SQL_C_SLONG, counter, 0, ind[2]);
    SQLBindCol(st, 4, SQL_C_DOUBLE, value, 0, ind[3]);
    SQLBindCol(st, 5, SQL_C_TYPE_DATE, created, 0, ind[4]);
    snprintf(sql, sizeof sql, "select id, name, counter, value, created from %s", table);
    if (!SQL_SUCCEEDED(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS))) exit(1);
    int64_t rows = 0, sum = 0;
    while (SQL_SUCCEEDED(SQLFetchScroll(st, SQL_FETCH_NEXT, 0))) {
        for (SQLULEN r = 0; r < got; r++)
            sum += id[r] + name[r][0] + counter[r] + (int64_t)value[r] + created[r].day;
        rows += (int64_t)got;
    }
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    if (sum == 42) printf(" ");
    return rows;
}

/* One measured unit: connect, workload w over table, close. Not inlined:
 * callgrind collects from here (--toggle-collect=odbc_work). */
__attribute__((noinline)) int64_t odbc_work(int port, int w, const char *table);
__attribute__((noinline)) int64_t odbc_work(int port, int w, const char *table) {
    return w == W_ODBC ? fetch_odbc(port, table) : fetch_ixdb(port, table, w == W_EVERYDAY);
}

static int child(int port, int64_t n) {
    for (int w = 0; w < NWORK; w++)
        for (int z = 0; z < 2; z++) {
            char t[16];
            snprintf(t, sizeof t, "f_%d", z);
            if (odbc_work(port, w, t) != n * (z + 1)) return 1;
        }
    return 0;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc == 4 && strcmp(argv[1], "--child") == 0) return child(atoi(argv[2]), atoll(argv[3]));
    int64_t n = 20000;
    if (argc == 3 && strcmp(argv[1], "--rows") == 0) n = atoll(argv[2]);
    if (n < 100 || n > 10000000) return 2;
    ixd_proc P;
    cmp_start_ixd(&P);
    /* the driver, registered for this run */
    char path[400];
    snprintf(path, sizeof path, "%s/odbcinst.ini", P.dir);
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    fprintf(f, "[ixdb]\nDriver = %s\n", IXODBC_LIB);
    fclose(f);
    setenv("ODBCSYSINI", P.dir, 1);
    cmp_data D;
    cmp_make_data(&D, 2 * n);
    ix_conn *c = cmp_connect(P.port, "bench");
    for (int z = 0; z < 2; z++) {
        char t[16];
        snprintf(t, sizeof t, "f_%d", z);
        cmp_create(c, t);
        cmp_insert(c, t, &D, n * (z + 1));
    }
    ix_close(c);
    cmp_free_data(&D);

    printf("## ODBC block fetch against libixdb (%lld and %lld rows)\n\n", (long long)n,
           (long long)(2 * n));
    double ns[NWORK][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        for (int w = 0; w < NWORK; w++) {
            double t0 = bench_now();
            odbc_work(P.port, w, "f_1");
            ns[w][r] = (bench_now() - t0) * 1e9 / (double)(2 * n);
        }
    char self[512], cmd[1600];
    if (bench_self_exe(self, sizeof self)) return 1;
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --toggle-collect=odbc_work --dump-after=odbc_work "
             "--callgrind-out-file=%s/client.cg '%s' --child %d %lld >%s/client.log 2>&1",
             P.dir, self, P.port, (long long)n, P.dir);
    int crc = system(cmd);
    ixd_stop(&P, SIGTERM);
    if (crc != 0) {
        fprintf(stderr, "client under callgrind failed (see %s/client.log)\n", P.dir);
        return 1;
    }
    double per[NWORK];
    printf("| workload | instructions per row | ns per row, median (IQR) |\n|---|---|---|\n");
    for (int w = 0; w < NWORK; w++) {
        double i[2];
        for (int z = 0; z < 2; z++) {
            char p[450];
            snprintf(p, sizeof p, "%s/client.cg.%d", P.dir, w * 2 + z + 1);
            i[z] = cmp_cg_total(p);
        }
        per[w] = (i[1] - i[0]) / (double)n;
        bench_stat st = bench_stats(ns[w], ROUNDS);
        printf("| %s | %.0f | %.0f (%.0f-%.0f) |\n", WNAME[w], per[w], st.median, st.q1, st.q3);
    }
    printf("\n");
    bench_goal_header();
    bench_goal("ODBC block fetch instructions per row / libixdb's", per[W_ODBC] / per[W_LIBIXDB],
               "x", 1, 1.5, NULL);
    if (getenv("BENCH_KEEP")) /* the profiles, for callgrind_annotate */
        printf("\nprofiles: %s/client.cg.N (N = 2 x workload + size + 1)\n", P.dir);
    else
        ixd_rmdir(&P);
    return 0;
}
