/* test_engine_query.c: joins (ANSI and Informix OUTER), GROUP BY/HAVING,
 * UNION, subqueries, FIRST/SKIP/LIMIT, DISTINCT, built-in functions, labels
 * and result types, the system catalog. */
#include "test_engine_util.h"

static void check_col(const char *sql, int i, const char *name, int type, uint32_t enclen) {
    ixd_stmt *s;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) {
        CHECK(0, "prepare %s -> %d", sql, ERR.sqlcode);
        return;
    }
    ixd_col c;
    ixd_stmt_col(s, i, &c);
    CHECK(c.name && !strcmp(c.name, name) && c.type == type && c.enclen == enclen,
          "%s col %d: %s %#x %#x, want %s %#x %#x", sql, i, c.name ? c.name : "?", c.type, c.enclen,
          name, type, enclen);
    ixd_stmt_free(s);
}

int main(void) {
    eu_setup("query");
    CHECK_RUN("create database q with log", 0);
    CHECK_RUN("create table cust (id integer primary key, name varchar(20), city char(10))", 0);
    CHECK_RUN("create table ord (oid serial, cid integer references cust(id), amt decimal(8,2), "
              "odate date)",
              0);
    CHECK_RUN("insert into cust values (1, 'ann', 'paris')", 0);
    CHECK_RUN("insert into cust values (2, 'bob', 'rome')", 0);
    CHECK_RUN("insert into cust values (3, 'cy', 'paris')", 0);
    CHECK_RUN("insert into ord (cid, amt, odate) values (1, 10.00, '01/02/2024')", 0);
    CHECK_RUN("insert into ord (cid, amt, odate) values (1, 5.50, '01/03/2024')", 0);
    CHECK_RUN("insert into ord (cid, amt, odate) values (2, 7.25, '02/01/2024')", 0);
    CHECK_RUN("insert into ord (cid, amt, odate) values (9, 1, today)", -691);

    CHECK_Q("select c.name, o.amt from cust c join ord o on o.cid = c.id order by o.oid",
            "ann|10.00\nann|5.50\nbob|7.25");
    CHECK_Q("select c.name, o.amt from cust c left outer join ord o on o.cid = c.id "
            "order by c.id, o.amt",
            "ann|5.50\nann|10.00\nbob|7.25\ncy|NULL");
    CHECK_Q("select c.name, o.amt from cust c, outer ord o where o.cid = c.id and c.id > 1 "
            "order by c.id",
            "bob|7.25\ncy|NULL");
    CHECK_Q("select o.oid, c.name from ord o right join cust c on o.cid = c.id order by 2, 1",
            "1|ann\n2|ann\n3|bob\nNULL|cy");
    CHECK_Q("select c.city, count(*), sum(o.amt) from cust c, ord o where o.cid = c.id "
            "group by c.city order by 1",
            "paris     |2|15.50\nrome      |1|7.25");
    CHECK_Q("select cid, count(*) from ord group by cid having count(*) > 1", "1|2");
    CHECK_Q("select city from cust union select 'lyon' from cust order by 1",
            "lyon      \nparis     \nrome      ");
    CHECK_Q("select id from cust where id = 1 union all select id from cust where id = 1", "1\n1");
    CHECK_Q("select name from cust where id in (select cid from ord) order by name", "ann\nbob");
    CHECK_Q("select name from cust c where not exists (select 1 from ord o where o.cid = c.id)",
            "cy");
    CHECK_Q("select name, (select count(*) from ord o where o.cid = c.id) from cust c order by 1",
            "ann|2\nbob|1\ncy|0");
    CHECK_Q("select first 2 id from cust order by id desc", "3\n2");
    CHECK_Q("select (select cid from ord where cid = c.id) from cust c where c.id = 2", "2");
    CHECK_Q("select (select cid from ord where cid = c.id) from cust c where c.id = 1", "ERR -284");
    CHECK_Q("select (select cid from ord where cid = c.id) from cust c where c.id = 3", "NULL");
    CHECK_Q("select skip 1 first 1 id from cust order by id", "2");
    CHECK_Q("select id from cust order by id limit 2", "1\n2");
    CHECK_Q("select limit 1 id from cust order by id", "1");
    CHECK_Q("select distinct city from cust order by city", "paris     \nrome      ");
    CHECK_Q("select unique city from cust order by city desc", "rome      \nparis     ");
    CHECK_Q("select name from cust where name matches 'a*'", "ann");
    CHECK_Q("select name from cust where name matches '[bc]?*' order by 1", "bob\ncy");
    CHECK_Q("select name from cust where name like '_o%'", "bob");
    CHECK_Q("select count(*) from cust where city = 'paris'", "2");
    CHECK_Q("select count(*) from cust where city = 'paris     '", "2");
    CHECK_Q("select * from (select id, name from cust where id < 3) as x order by id desc",
            "2|bob\n1|ann");
    CHECK_Q("select id from cust where id between 2 and 3 order by 1", "2\n3");
    CHECK_Q("select id from cust where name in ('ann', 'cy') order by 1", "1\n3");
    CHECK_Q("select id from cust where id = 1 and city = 'paris' or id = 2 order by 1", "1\n2");
    CHECK_Q("select id from cust where not (id = 1 or id = 2) and id > 0", "3");
    /* built-ins */
    CHECK_Q("select mdy(1,15,2024), year(mdy(1,15,2024)), month(mdy(1,15,2024)), "
            "day(mdy(1,15,2024)), weekday(mdy(1,15,2024)) from cust where id = 1",
            "01/15/2024|2024|1|15|1");
    CHECK_Q("select mdy(3,1,2024) - mdy(2,1,2024), mdy(2,28,2024) + 2 from cust where id = 1",
            "29|03/01/2024");
    CHECK_Q("select nvl(null, 5), decode(2, 1, 'one', 2, 'two', 'many') from cust where id = 1",
            "5|two ");
    CHECK_Q("select case when id = 1 then 'a' when id = 2 then 'b' else 'c' end from cust "
            "order by id",
            "a\nb\nc");
    CHECK_Q("select length('abc  '), upper('ab'), lower('CD'), trim('  x  '), "
            "substr('hello', 2, 3), substring('hello' from 2 for 2), 'a' || 'b' || 1 "
            "from cust where id = 1",
            "3|AB|cd|x|ell|el|ab1");
    CHECK_Q("select extend(datetime(2024-01-15 10:30:00) year to second, year to day) from cust "
            "where id = 1",
            "2024-01-15");
    CHECK_Q("select datetime(2024-01-02 00:00:00) year to second - datetime(2024-01-01 "
            "12:00:00) year to second from cust where id = 1",
            "        0 12:00:00");
    CHECK_Q("select datetime(2024-01-31) year to day + interval(1) month to month from cust "
            "where id = 1",
            "ERR -1263");
    CHECK_Q("select datetime(2024-01-15) year to day + interval(1) month to month from cust "
            "where id = 1",
            "2024-02-15");
    CHECK_Q("select date(datetime(2024-03-04 05:06) year to minute) from cust where id = 1",
            "03/04/2024");
    CHECK_Q("select dbinfo('dbname') from cust where id = 1", "q");
    CHECK_Q("select decode(id, 1, 'one', 2, 'twenty-two') from cust order by id",
            "one       \ntwenty-two\nNULL");
    CHECK_Q("select case when id = 1 then 'a' else 'longer' end, nvl(city, 'x') from cust "
            "order by id",
            "a     |paris     \nlonger|rome      \nlonger|paris     ");
    CHECK_Q("select name[1,2], city[2,3] from cust where id = 2", "bo|om");
    CHECK_Q("select trunc(5000 / 3, 1), trunc(-2.99, 0), round(2.345, 2), trunc(123.456) from "
            "cust where id = 1",
            "1666.6|-2|2.35|123");
    CHECK_Q("select user from cust where id = 1", "tester");
    CHECK_Q("select count(*) from cust where today > mdy(1,1,2020)", "3");
    CHECK_Q("select 7 / 2, 7 * 2, 1.5 + 1, -3 from cust where id = 1", "3.5|14|2.5|-3");
    CHECK_Q("select 1 / 0 from cust where id = 1", "ERR -1202");
    CHECK_Q("select 5 units day from cust where id = 1", "        5");
    check_col("select count(*), sum(amt), avg(amt), max(amt), amt * 2, cid + 1, 7 / 2, 'x', "
              "cid, cid from ord",
              0, "(count(*))", 2, 4);
    check_col("select count(*), sum(amt) from ord", 1, "(sum)", 5, 0x2002);
    check_col("select avg(amt) from ord", 0, "(avg)", 5, 0x20ff);
    check_col("select max(amt) from ord", 0, "(max)", 5, 0x0802);
    check_col("select amt * 2 from ord", 0, "(expression)", 5, 0x1202);
    check_col("select cid + 1 from ord", 0, "(expression)", 2, 4);
    check_col("select 'x' from ord", 0, "(constant)", 0, 1);
    check_col("select cid, cid from ord", 1, "cid_2", 2, 4);
    check_col("select oid from ord", 0, "oid", 0x106, 4);
    check_col("select cid + 1, cid + 2 from ord", 1, "(expression)_2", 2, 4);
    check_col("select sum(cid) from ord", 0, "(sum)", 5, 0x2000);

    /* catalog */
    CHECK_Q("select tabname, tabid from systables where tabid < 4 order by tabid",
            "systables|1\nsyscolumns|2\nsysindices|3");
    CHECK_Q("select first 1 tabname from informix.systables", "systables");
    CHECK_Q("select site from informix.systables where tabname = ' GL_COLLATE'", "en_US.819");
    CHECK_Q("select tabname from systables where tabid >= 100 order by tabid", "cust\nord");
    CHECK_Q("select count(*) from sysindexes where tabid = 100", "1");
    CHECK_Q("select username, usertype from sysusers where username = 'tester'",
            "tester                          |D");
    CHECK_Q("select nindexes, ncols from systables where tabname = 'cust'", "1|3");
    CHECK_Q("select count(*) from q:systables where tabname = 'ord'", "1");
    CHECK_Q("select constrtype from sysconstraints c, systables t where c.tabid = t.tabid and "
            "t.tabname = 'ord'",
            "R");
    CHECK_Q("select name, is_logging, is_ansi from sysmaster:sysdatabases order by name",
            "q|1|0\nsysmaster|1|0");
    eu_teardown();
    return tap_done();
}
