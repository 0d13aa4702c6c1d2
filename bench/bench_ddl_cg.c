/* bench_ddl_cg.c: CREATE TABLE and ALTER TABLE in process (ixd's engine, no
 * socket), for instruction counts of their prepare and execute:
 *
 *   bench_ddl_cg create N   N CREATE TABLEs (6 columns, 3 constraints)
 *   bench_ddl_cg alter N    the same, each followed by an ALTER TABLE of 3
 *                           actions (ADD ... BEFORE, ADD CONSTRAINT, MODIFY)
 *
 *   valgrind --tool=callgrind build/bench_ddl_cg create 20
 *   callgrind_annotate --inclusive=yes callgrind.out.<pid> | \
 *       grep -E ':(ddl_prepare|ddl_execute|ixs_lex) \['
 *
 * ddl_prepare and ddl_execute are the two halves (docs/server-sql.md, "DDL:
 * parsed once"); ixs_lex runs once per statement. */
#include "test_engine_util.h"

__attribute__((noinline)) static int ddl_prepare(const char *sql, ixd_stmt **s) {
    return ixd_prepare(D, sql, strlen(sql), s, &ERR);
}

__attribute__((noinline)) static int ddl_execute(ixd_stmt *s) {
    return ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR);
}

static int one(const char *sql) {
    ixd_stmt *s;
    if (ddl_prepare(sql, &s)) return ERR.sqlcode;
    int rc = ddl_execute(s) ? ERR.sqlcode : 0;
    ixd_stmt_free(s);
    return rc;
}

int main(int argc, char **argv) {
    int n = argc > 2 ? atoi(argv[2]) : 20, alter = argc > 1 && !strcmp(argv[1], "alter");
    eu_setup("bench_ddl");
    int rc = run("create database bench_ddl with log");
    char sql[1024];
    for (int i = 0; i < n && !rc; i++) {
        snprintf(sql, sizeof sql,
                 "create table t%d (id serial primary key, name char(30) not null, "
                 "price decimal(8,2) default 0 check (price >= 0), qty integer, "
                 "d date default today, note varchar(100), unique (name))",
                 i);
        rc = one(sql);
        if (rc || !alter) continue;
        snprintf(sql, sizeof sql,
                 "alter table t%d add (extra smallint before qty), add constraint check "
                 "(qty > 0) constraint t%d_q, modify note varchar(200)",
                 i, i);
        rc = one(sql);
    }
    if (rc) printf("statement failed: %d\n", rc);
    printf("%d statements\n", alter ? 2 * n : n);
    eu_teardown();
    return rc ? 1 : 0;
}
