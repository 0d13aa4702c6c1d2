/* bench_ddl_cg.c: CREATE TABLE and ALTER TABLE in process (ixd's engine, no
 * socket), for instruction counts of their prepare and execute:
 *
 *   bench_ddl_cg create N   N CREATE TABLEs (6 columns, 3 constraints)
 *   bench_ddl_cg alter N    the same, each followed by an ALTER TABLE of 3
 *                           actions (ADD ... BEFORE, ADD CONSTRAINT, MODIFY)
 *   bench_ddl_cg objs N     N rounds of the statements of other modules: CREATE
 *                           SEQUENCE, SYNONYM, PROCEDURE, TRIGGER, ROW TYPE and a
 *                           SELECT ... INTO TEMP, then their DROPs (12 statements)
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

/* One round of the other modules' statements (objs). */
static int objs(int i) {
    static const char *const v[] = {
        "create sequence s%d increment by 2 start with 10 maxvalue 1000 cycle",
        "create synonym y%d for base",
        "create procedure p%d(a int, b char(10)); define c int; let c = a * 2; "
        "if c > 10 then insert into logt values (c); end if; end procedure",
        "create trigger g%d insert on base referencing new as n for each row "
        "(execute procedure p%d(n.a, 'x'))",
        "create row type r%d (x int, y char(8), z decimal(10,2))",
        "select a, count(*) from base where a > 0 group by a into temp m%d with no log",
        "drop table m%d",
        "drop row type r%d restrict",
        "drop trigger g%d",
        "drop procedure p%d",
        "drop synonym y%d",
        "drop sequence s%d",
    };
    char sql[512];
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
        snprintf(sql, sizeof sql, v[k], i, i);
        int rc = one(sql);
        if (rc) return rc;
    }
    return 0;
}

int main(int argc, char **argv) {
    int n = argc > 2 ? atoi(argv[2]) : 20, alter = argc > 1 && !strcmp(argv[1], "alter");
    int ob = argc > 1 && !strcmp(argv[1], "objs");
    eu_setup("bench_ddl");
    int rc = run("create database bench_ddl with log");
    if (ob && !rc) rc = run("create table base (a int, b char(10))");
    if (ob && !rc) rc = run("create table logt (c int)");
    for (int i = 0; ob && i < n && !rc; i++)
        rc = objs(i);
    char sql[1024];
    for (int i = 0; !ob && i < n && !rc; i++) {
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
    printf("%d statements\n", ob ? 12 * n : alter ? 2 * n : n);
    eu_teardown();
    return rc ? 1 : 0;
}
