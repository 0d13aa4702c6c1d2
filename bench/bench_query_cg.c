/* bench_query_cg.c: the prepare of a query in process (ixd's engine, no
 * socket), for instruction counts of the SELECT translator:
 *
 *   bench_query_cg N   N prepares of a 3-table join with WHERE, GROUP BY,
 *                      HAVING and ORDER BY (expressions of every common kind)
 *
 *   valgrind --tool=callgrind build/bench_query_cg 20
 *   callgrind_annotate --inclusive=yes callgrind.out.<pid> | \
 *       grep -E ':(query_prepare|ixs_lex) \['
 *
 * query_prepare is ixd_prepare of the query; divide by N. */
#include "test_engine_util.h"

__attribute__((noinline)) static int query_prepare(const char *sql, ixd_stmt **s) {
    return ixd_prepare(D, sql, strlen(sql), s, &ERR);
}

static const char QUERY[] =
    "select c.customer_num, c.lname, count(*) as n, sum(i.total_price * 1.1) as total, "
    "max(o.order_date) from customer c, orders o, items i "
    "where c.customer_num = o.customer_num and o.order_num = i.order_num "
    "and i.total_price between 10 and 1000 and c.lname like 'S%%' "
    "and o.order_date >= '01/01/1998' and (c.state in ('CA', 'NY') or c.zipcode is null) "
    "group by c.customer_num, c.lname having count(*) > %d "
    "order by 4 desc, c.lname";

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20;
    eu_setup("bench_query");
    int rc = run("create database bench_query with log");
    if (!rc)
        rc = run("create table customer (customer_num serial primary key, lname char(15), "
                 "state char(2), zipcode char(5))");
    if (!rc)
        rc = run("create table orders (order_num serial primary key, order_date date, "
                 "customer_num integer)");
    if (!rc)
        rc = run("create table items (item_num smallint, order_num integer, "
                 "total_price money(8,2))");
    char sql[2048];
    for (int i = 0; i < n && !rc; i++) {
        ixd_stmt *s;
        snprintf(sql, sizeof sql, QUERY, i); /* a new text: not a parked statement */
        if (query_prepare(sql, &s)) {
            rc = ERR.sqlcode;
            break;
        }
        ixd_stmt_free(s);
    }
    if (rc) printf("statement failed: %d\n", rc);
    printf("%d prepares\n", n);
    eu_teardown();
    return rc ? 1 : 0;
}
