/* test_engine_ddltree.c: DDL and the other statements ixd runs itself are
 * parsed once, at prepare, into a tree that execute runs: a prepared
 * statement whose text is overwritten after prepare still runs as written,
 * a statement executed twice runs from the same unchanged tree, and names
 * are resolved at execute, against the catalogue as it is then. */
#include "server/sql/ixs.h"
#include "test_engine_util.h"

/* Prepares sql, overwrites the statement's kept text (so that only what
 * prepare built can run), executes it: its SQLCODE. */
static int run_from_tree(const char *sql) {
    ixd_stmt *s;
    memset(&ERR, 0, sizeof ERR);
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) return ERR.sqlcode;
    CHECK(s->ddl != NULL, "%s: no tree", sql);
    if (s->text) memset(s->text, '?', s->textn);
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
    ts_rowtype_at_execute();
    syntax_first();
    eu_teardown();
    return tap_done();
}
