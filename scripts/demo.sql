-- The queries of `make run`, run through ixsql against the demo database
-- (scripts/demo-setup.sql). Every statement here must work.

-- Customers, oldest first.
select id, name, city, vip, since from customer order by since;

-- What each order is: a three-table join.
select c.name, p.name product, o.qty, o.amount
  from orders o
  join customer c on c.id = o.cust
  join product p on p.code = o.code
 order by o.ono;

-- Informix's own outer join: customers and their orders, if any.
select c.name, o.ono, o.placed
  from customer c, outer orders o
 where o.cust = c.id and o.qty > 1
 order by c.name, o.ono;

-- Turnover per customer (too wide for one line: dbaccess prints it vertically).
select c.name, count(*) orders, sum(o.amount) total, avg(o.qty) avg_qty
  from orders o, customer c
 where c.id = o.cust
 group by c.name
 order by 3 desc;

-- The two dearest products.
select first 2 code, name, price, weight from product order by price desc;

-- Times: DATETIME YEAR TO SECOND / FRACTION(3) and INTERVAL DAY TO SECOND.
select placed, shipped, lead_time, shipped - placed took
  from orders where shipped is not null order by ono;

-- INT8 and BIGINT.
select ono, big, huge from orders order by ono;

-- One whole row: LVARCHAR forces the vertical layout.
select * from product where code = 1;

-- The catalog.
select tabid, tabname[1,18] tabname, ncols from systables where tabid >= 100 order by tabid;

-- Changes.
update product set price = price * 1.10, stock = stock + 5 where stock < 10;
select code, name, price, stock from product where stock < 15 order by code;
delete from orders where qty = 0;

-- A transaction that is rolled back.
begin work;
delete from orders;
select count(*) from orders;
rollback work;
select count(*) remaining, sum(amount) total from orders;

insert into audit (msg, at) values ('demo done', '2024-03-31 23:59:59.999');
select id, msg, at from audit order by id;

-- The TimeSeries: rows, a JSON page, an hourly aggregate, the last element.
select * from table(oni_ts_read_rows('meter', 'readings', 1, '2024-03-01 00:00',
    '2024-03-01 00:45')::multiset(reading_t));
execute function oni_ts_read('meter', 'readings', 1, null, null);
execute function oni_ts_aggregate('meter', 'readings', 1, null, null, '1 hour', 'count,avg,max');
select id, oni_ts_last('meter', 'readings', id) last_reading from meter;
