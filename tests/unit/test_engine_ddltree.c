/* test_engine_ddltree.c: DDL and the other statements ixd runs itself
 * (those of ROW types, SPL routines, triggers, sequences and synonyms, and
 * SELECT ... INTO TEMP too) are parsed once, at prepare, into a tree that
 * execute runs: a prepared
 * statement whose text is overwritten after prepare still runs as written,
 * a statement executed twice runs from the same unchanged tree, and names
 * are resolved at execute, against the catalogue as it is then. */
#include "server/engine/ixd_int.h"
#include "test_engine_util.h"

/* Prepares sql, overwrites the statement's kept text (so that only what
 * prepare built can run), executes it: its SQLCODE. */
static int run_from_tree(const char *sql) {
    ixd_stmt *s;
    memset(&ERR, 0, sizeof ERR);
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) return ERR.sqlcode;
    CHECK(s->x.ddl != NULL, "%s: no tree", sql);
    if (s->x.text) memset(s->x.text, '?', s->x.textn);
    int rc = ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR) ? ERR.sqlcode : 0;
    ixd_stmt_free(s);
    return rc;
}

#define CHECK_TREE(sql, code)                                                                      \
    do {                                                                                           \
        int rc_ = run_from_tree(sql);                                                              \
        CHECK(rc_ == (code), "%s -> %d (text '%s'), want %d", sql, rc_, ERR.text, code);           \
    } while (0)

static void parsed_once(void) {
    CHECK_TREE("create table t1 (a int primary key, b char(10) default 'z' check (b <> 'x'))", 0);
    CHECK_Q("select colname from syscolumns c, systables t where c.tabid = t.tabid and "
            "t.tabname = 't1' order by colno",
            "a\nb");
    CHECK_TREE("alter table t1 add c int before b, add constraint unique (c) constraint t1_u", 0);
    CHECK_Q("select colname from syscolumns c, systables t where c.tabid = t.tabid and "
            "t.tabname = 't1' order by colno",
            "a\nc\nb");
    CHECK_TREE("create index t1_i on t1 (b desc)", 0);
    CHECK_TREE("create view t1_v (x, y) as select a, c from t1 where a > 0 with check option", 0);
    CHECK_Q("select viewtext from sysviews v, systables t where v.tabid = t.tabid and "
            "t.tabname = 't1_v' and seqno = 0",
            "create view t1_v (x, y) as select a, c from t1 where a > 0 with ");
    CHECK_TREE("drop view t1_v", 0);
    CHECK_TREE("rename column t1.b to bb", 0);
    CHECK_TREE("update statistics for table t1 (a)", 0);
    CHECK_TREE("begin work", 0);
    CHECK_TREE("savepoint s1", 0);
    CHECK_TREE("set lock mode to wait 2", 0);
    CHECK_TREE("rollback work", 0);
    CHECK_TREE("truncate table t1", 0);
    CHECK_TREE("drop index t1_i", 0);
    CHECK_TREE("drop table t1", 0);
    CHECK_Q("select count(*) from systables where tabname = 't1'", "0");
}

/* The statements of the modules that keep their own trees, run from them. */
static void modules_parsed_once(void) {
    CHECK_RUN("create table m1 (a int, b char(4))", 0);
    CHECK_RUN("create table m1log (a int)", 0);
    CHECK_TREE("create row type m1_rt (x int, y char(3) not null)", 0);
    CHECK_Q("select count(*) from sysxtdtypes where name = 'm1_rt'", "1");
    CHECK_TREE("create row type m1_rt (x int)", -9631);
    CHECK_TREE("create row type if not exists m1_rt (x int)", 0);
    CHECK_TREE("create row type m1_sub (z int) under m1_rt", -999);
    CHECK_TREE("create function m1_f(a int) returning int; define b int; let b = a * 2; "
               "return b + 1; end function",
               0);
    CHECK_Q("select m1_f(20) from systables where tabid = 1", "41");
    CHECK_TREE("create procedure m1_p(a int); insert into m1log values (a); end procedure", 0);
    CHECK_TREE("create trigger m1_t insert on m1 referencing new as n for each row "
               "(execute procedure m1_p(n.a))",
               0);
    CHECK_RUN("insert into m1 values (7, 'x')", 0);
    CHECK_Q("select a from m1log", "7");
    CHECK_TREE("drop trigger m1_t", 0);
    CHECK_TREE("drop trigger m1_t", -634);
    CHECK_TREE("drop procedure m1_p", 0);
    CHECK_TREE("drop function m1_f (int)", 0);
    CHECK_Q("select count(*) from sysprocedures where procname[1,3] = 'm1_'", "0");
    CHECK_TREE("create sequence m1_s increment by 5 start with 10", 0);
    CHECK_TREE("alter sequence m1_s increment by 3", 0);
    CHECK_Q("select inc_val, start_val from syssequences q, systables t where q.tabid = t.tabid "
            "and t.tabname = 'm1_s'",
            "3|10");
    CHECK_TREE("rename sequence m1_s to m1_s2", 0);
    CHECK_TREE("drop sequence m1_s2", 0);
    CHECK_TREE("drop sequence m1_s2", -8300);
    CHECK_TREE("create synonym m1_syn for m1", 0);
    CHECK_Q("select trim(b) from m1_syn", "x");
    CHECK_TREE("drop synonym m1_syn", 0);
    CHECK_TREE("drop row type m1_rt restrict", 0);
    CHECK_TREE("drop row type m1_rt", -9628);
    CHECK_TREE("select a, b from m1 where a > 0 into temp m1_tmp with no log", 0);
    CHECK(ROWS == 1, "into temp rows %lld", (long long)ROWS);
    CHECK_Q("select a, trim(b) from m1_tmp", "7|x");
}

/* Runs the prepared statement s once more: its SQLCODE. */
static int again(ixd_stmt *s) {
    memset(&ERR, 0, sizeof ERR);
    return ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR) ? ERR.sqlcode : 0;
}

static void executed_twice(void) {
    const char *sql = "create table t2 (a serial, b int, check (b > 0), unique (b))";
    ixd_stmt *s;
    CHECK(ixd_prepare(D, sql, strlen(sql), &s, &ERR) == 0, "prepare %d", ERR.sqlcode);
    CHECK(again(s) == 0, "first %d", ERR.sqlcode);
    CHECK(again(s) == -310, "second %d", ERR.sqlcode);
    CHECK_RUN("create table t0 (x int)", 0);
    CHECK_RUN("drop table t2", 0);
    CHECK(again(s) == 0, "third %d", ERR.sqlcode);
    ixd_stmt_free(s);
    /* a new tabid (after t0's), and constraints named for it */
    CHECK_Q("select count(*) from systables a, systables b where a.tabname = 't2' and "
            "b.tabname = 't0' and a.tabid > b.tabid",
            "1");
    CHECK_Q("select count(*) from sysconstraints c, systables t where c.tabid = t.tabid and "
            "t.tabname = 't2' and c.constrname[1,4] = 'u' || t.tabid",
            "1");
    CHECK_RUN("insert into t2 (b) values (0)", -530);
    CHECK_RUN("insert into t2 (b) values (1)", 0);
}

/* A module's tree runs again each time, against the catalogue as it is then. */
static void modules_executed_twice(void) {
    const char *sql[] = {"create synonym m2_syn for m2", "create sequence m2_s",
                         "select a from m2 into temp m2_tmp"};
    ixd_stmt *s[3];
    for (int k = 0; k < 2; k++)
        CHECK(ixd_prepare(D, sql[k], strlen(sql[k]), &s[k], &ERR) == 0, "prepare %d %d", k,
              ERR.sqlcode);
    CHECK(again(s[0]) == -206, "synonym before its table %d", ERR.sqlcode);
    CHECK_RUN("create table m2 (a int)", 0);
    CHECK_RUN("insert into m2 values (4)", 0);
    CHECK(ixd_prepare(D, sql[2], strlen(sql[2]), &s[2], &ERR) == 0, "prepare %d", ERR.sqlcode);
    CHECK(again(s[0]) == 0, "synonym %d", ERR.sqlcode);
    CHECK(again(s[0]) == -310, "synonym twice %d", ERR.sqlcode);
    CHECK(again(s[1]) == 0, "sequence %d", ERR.sqlcode);
    CHECK(again(s[1]) == -8301, "sequence twice %d", ERR.sqlcode);
    CHECK_RUN("insert into m2 values (5)", 0);
    CHECK(again(s[2]) == 0 && ROWS == 2, "into temp %d rows %lld", ERR.sqlcode, (long long)ROWS);
    CHECK(again(s[2]) == -310, "into temp twice %d", ERR.sqlcode);
    for (int k = 0; k < 3; k++)
        ixd_stmt_free(s[k]);
    CHECK_Q("select a from m2_syn order by a", "4\n5");
    CHECK_Q("select count(*) from m2_tmp", "2");
}

/* The names of an ALTER TABLE are those of the table when it runs. */
static void resolved_at_execute(void) {
    const char *sql = "alter table t3 add (d int), drop c";
    ixd_stmt *s;
    CHECK_RUN("create table t3 (a int, c int)", 0);
    CHECK(ixd_prepare(D, sql, strlen(sql), &s, &ERR) == 0, "prepare %d", ERR.sqlcode);
    CHECK_RUN("alter table t3 add (d char(1))", 0);
    CHECK(again(s) == -328, "duplicate column %d", ERR.sqlcode);
    CHECK_RUN("alter table t3 drop d", 0);
    CHECK(again(s) == 0, "after drop %d", ERR.sqlcode);
    CHECK(again(s) == -328, "twice %d", ERR.sqlcode);
    ixd_stmt_free(s);
    CHECK_Q("select colname from syscolumns c, systables t where c.tabid = t.tabid and "
            "t.tabname = 't3' order by colno",
            "a\nd");
}

/* A ROW type that a column names is looked up when the statement runs, from
 * the tree (an unnamed one made then when it is new). */
static void row_columns_at_execute(void) {
    const char *sql = "create table r1 (id int, p r1_pt, q row(a int, b char(2)))";
    ixd_stmt *s;
    CHECK(ixd_prepare(D, sql, strlen(sql), &s, &ERR) == 0, "prepare %d", ERR.sqlcode);
    CHECK(s->x.ddl != NULL, "no tree");
    if (s->x.text) memset(s->x.text, '?', s->x.textn);
    CHECK(again(s) == -9628, "before its row type %d", ERR.sqlcode);
    CHECK_RUN("create row type r1_pt (x int, y int)", 0);
    CHECK(again(s) == 0, "after %d", ERR.sqlcode);
    CHECK(again(s) == -310, "twice %d", ERR.sqlcode);
    ixd_stmt_free(s);
    CHECK_RUN("insert into r1 values (1, row(2, 3)::r1_pt, row(4, 'z'))", 0);
    CHECK_Q("select p.y, trim(q.b) from r1", "3|z");
    CHECK_TREE("alter table r1 add (r r1_pt, t row(a int, b char(4)))", 0);
    CHECK_Q("select count(*) from sysxtdtypes where name is null and mode = 'C'", "2");
    CHECK_TREE("alter table r1 add (s no_such_rt)", -9628);
    CHECK_TREE("create table r2 (l list(r1_pt not null))", 0);
    /* a CHECK and a DEFAULT in a table with a ROW column, from the tree */
    CHECK_TREE("create table r3 (id int, p r1_pt, check (id < 3 and p is not null))", 0);
    CHECK_RUN("insert into r3 values (1, row(2, 3)::r1_pt)", 0);
    CHECK_RUN("insert into r3 values (5, row(2, 3)::r1_pt)", -530);
    CHECK_TREE("create table r4 (id int, p r1_pt default null)", 0);
    CHECK_RUN("insert into r3 values (2, null)", -530);
}

/* The syntax is checked when the statement is prepared, before any name is
 * looked up: a syntax error comes before an unknown table. */
static void syntax_first(void) {
    CHECK_RUN("alter table nosuch drop (", -201);
    CHECK(ERR.offset == 25, "offset %d", ERR.offset);
    CHECK_RUN("alter table nosuch add constraint check (a > )", -201);
    CHECK_RUN("alter table nosuch add constraint check (a > 0)", -206);
    CHECK_RUN("create view nv as select * from nosuch where (", -201);
    CHECK_RUN("create view nv as select * from nosuch", -206);
}

/* Row types of TIMESERIES columns are looked up when the statement runs. */
static void ts_rowtype_at_execute(void) {
    CHECK_RUN("create table tsx (id int primary key, r timeseries(no_such_t))", -746);
    CHECK(strcmp(ERR.text, "Row type no_such_t does not exist") == 0, "text '%s'", ERR.text);
    CHECK_RUN("create table tsx (id int primary key)", 0);
    CHECK_RUN("alter table tsx add (r timeseries(no_such_t))", -746);
    CHECK_RUN("alter table tsx add (id timeseries(no_such_t))", -328);
}

int main(void) {
    eu_setup("ddltree");
    CHECK_RUN("create database dt with log", 0);
    parsed_once();
    executed_twice();
    resolved_at_execute();
    modules_parsed_once();
    modules_executed_twice();
    row_columns_at_execute();
    ts_rowtype_at_execute();
    syntax_first();
    eu_teardown();
    return tap_done();
}
