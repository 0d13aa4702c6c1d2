/* bench_query_cg.c: the prepare of SELECT and DML statements in process
 * (ixd's engine, no socket), for instruction counts of their translation:
 *
 *   bench_query_cg select N   N prepares of a 3-table join with WHERE,
 *                             GROUP BY, HAVING and ORDER BY
 *   bench_query_cg dml N      N prepares each of an INSERT ... SELECT, an
 *                             UPDATE with a subquery and a DELETE
 *   bench_query_cg call N     N prepares of a SELECT calling an SPL function
 *                             twice (one routine of that name)
 *   bench_query_cg overload N the same, the name shared by three routines of
 *                             one parameter (picked by the argument's type)
 *
 *   valgrind --tool=callgrind build/bench_query_cg select 20
 *   callgrind_annotate --inclusive=yes callgrind.out.<pid> | \
 *       grep -E ':(query_prepare|ixs_lex) \['
 *
 * query_prepare is the whole prepare of one statement (lexer, parse,
 * resolution, emission and SQLite's own prepare of the result); each
 * statement differs in a constant, so that no prepare is a cached one. */
#include "test_engine_util.h"

__attribute__((noinline)) static int query_prepare(const char *sql, ixd_stmt **s) {
    return ixd_prepare(D, sql, strlen(sql), s, &ERR);
}

static const char *const schema[] = {
    "create table customer (customer_num serial primary key, fname char(15), "
    "lname char(15), city char(15), state char(2))",
    "create table orders (order_num serial primary key, order_date date, customer_num "
    "integer, ship_weight decimal(8,2), paid_date date)",
    "create table items (item_num smallint, order_num integer, stock_num smallint, "
    "quantity smallint, total_price money(8,2))",
};

static const char *const selects[] = {
    "select c.customer_num, c.lname, count(distinct o.order_num), sum(i.total_price) "
    "from customer c, orders o, items i where c.customer_num = o.customer_num and "
    "o.order_num = i.order_num and i.quantity > %d and c.state = 'CA' "
    "group by c.customer_num, c.lname having sum(i.total_price) > 100 "
    "order by 4 desc, c.lname",
};

static const char *const dmls[] = {
    "insert into items (item_num, order_num, stock_num, quantity, total_price) "
    "select %d, o.order_num, 5, 2, 10.5 from orders o where o.paid_date is null",
    "update orders set ship_weight = %d + (select sum(quantity) from items i where "
    "i.order_num = orders.order_num) where customer_num in (select customer_num "
    "from customer where state = 'CA')",
    "delete from items where order_num in (select order_num from orders where "
    "paid_date < today - 30) and quantity = %d",
};

static const char *const calls[] = {
    "select c.customer_num, share(c.customer_num + %d), share(c.customer_num) from customer c "
    "where share(c.customer_num) > 1",
};

static const char *const routines[] = {
    "create function share(n integer) returning decimal(8,2); return n * 1.5; end function",
    "create function share(n char(15)) returning decimal(8,2); return length(n); end function",
    "create function share(n date) returning decimal(8,2); return 0; end function",
};

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "select";
    int n = argc > 2 ? atoi(argv[2]) : 20, dml = !strcmp(mode, "dml");
    int call = !strcmp(mode, "call"), over = !strcmp(mode, "overload");
    eu_setup("bench_query");
    int rc = run("create database bench_query with log");
    for (size_t k = 0; k < sizeof schema / sizeof *schema && !rc; k++)
        rc = run(schema[k]);
    for (size_t k = 0; k < (over ? 3u : call ? 1u : 0u) && !rc; k++)
        rc = run(routines[k]);
    const char *const *v = dml ? dmls : call || over ? calls : selects;
    size_t nv = dml            ? sizeof dmls / sizeof *dmls
                : call || over ? sizeof calls / sizeof *calls
                               : sizeof selects / sizeof *selects;
    int count = 0;
    for (int i = 0; i < n && !rc; i++)
        for (size_t k = 0; k < nv && !rc; k++) {
            ixd_stmt *s;
            char sql[1024];
            snprintf(sql, sizeof sql, v[k], i);
            if (query_prepare(sql, &s)) {
                rc = ERR.sqlcode;
                break;
            }
            ixd_stmt_free(s);
            count++;
        }
    if (rc) printf("statement failed: %d\n", rc);
    printf("%d prepares\n", count);
    eu_teardown();
    return rc ? 1 : 0;
}
