/* test_engine_basic.c: databases, DDL, DML, queries, errors of the ixd engine. */
#include "test_engine_util.h"

int main(void) {
    eu_setup("basic");
    CHECK_RUN("create database db1 with log", 0);
    CHECK(D != NULL, "db open");
    CHECK_RUN("create database db1", -330);
    CHECK_RUN("database nosuch", -329);
    CHECK_RUN("create database ../x", -201);
    CHECK(ERR.offset == 16, "offset %d", ERR.offset);
    CHECK_RUN("create database \"a/b\"", -354);
    CHECK_RUN("create database db2 with nolog", -201);
    CHECK_RUN("drop database nosuch", -329);
    CHECK_RUN("drop database sysmaster", -425);
    CHECK_RUN("create database db3 with buffered log", 0);
    CHECK_RUN("drop database db3", -359); /* the current database: CLOSE DATABASE first */
    CHECK_RUN("close database", 0);
    CHECK(D == NULL, "closed");
    CHECK_RUN("close database", -349);
    CHECK_RUN("drop database db3", 0);
    CHECK_RUN("database db3", -329);
    CHECK_RUN("database db1", 0);
    CHECK_RUN("create table t1 (id serial primary key, name char(10), v varchar(20), "
              "price decimal(10,2), d date, n integer not null)",
              0);
    CHECK_RUN("create table t1 (a int)", -310);
    CHECK_RUN("insert into t1 values (0, 'abc', 'x', 10.5, '01/15/2024', 1)", 0);
    CHECK(SERIAL == 1, "serial %d", SERIAL);
    CHECK_RUN("insert into t1 (name, price, d, n) values ('b', 2.25, '2024-02-01', 2)", 0);
    CHECK(SERIAL == 2, "serial %d", SERIAL);
    CHECK_Q("select id, name, v, price, d, n from t1 order by id",
            "1|abc       |x|10.50|01/15/2024|1\n2|b         |NULL|2.25|02/01/2024|2");
    CHECK_Q("select name from t1 where price > 10.4", "abc       ");
    CHECK_Q("select count(*) from t1 where d = '01/15/2024'", "1");
    CHECK_Q("select count(*) from t1 where d = mdy(2,1,2024)", "1");
    CHECK_Q("select sum(price), avg(price), min(price), max(price) from t1",
            "12.75|6.375|2.25|10.50");
    CHECK_RUN("insert into t1 (name, n) values ('z', null)", -391);
    CHECK(!strcmp(ERR.text, "n"), "text %s", ERR.text);
    CHECK_RUN("insert into t1 (id, name, n) values (1, 'dup', 3)", -268);
    CHECK_RUN("select * from nosuch", -206);
    CHECK_RUN("select nosuch from t1", -217);
    CHECK_RUN("select * fromm t1", -201);
    CHECK(ERR.offset == 9, "offset %d", ERR.offset);
    CHECK_RUN("select * from t1", -260);
    CHECK_RUN("update t1 set price = price * 2 where id = 2", 0);
    CHECK(ROWS == 1, "rows %lld", (long long)ROWS);
    CHECK_Q("select price from t1 where id = 2", "4.50");
    CHECK_RUN("delete from t1 where id = 2", 0);
    CHECK(ROWS == 1, "rows");
    CHECK_Q("select tabname from systables where tabid >= 100", "t1");
    CHECK_Q("select colname, coltype, collength from syscolumns where tabid = (select tabid from "
            "systables where tabname = 't1') order by colno",
            "id|262|4\nname|0|10\nv|13|20\nprice|5|2562\nd|7|4\nn|258|4");
    eu_teardown();
    return tap_done();
}
