-- The demo database of `make run`: a small shop whose tables hold every
-- type ixd knows (docs/server-sql.md).
create database shop with log;

create table customer (
    id      serial primary key,
    name    varchar(20) not null,
    city    char(12),
    nick    nchar(6),
    note    nvarchar(40),
    vip     boolean,
    since   date
);

create table product (
    code    integer primary key,
    name    varchar(20) not null,
    price   money(8,2),
    weight  decimal(6,3),
    stock   smallint,
    rating  smallfloat,
    score   float,
    blurb   lvarchar(200)
);

create table orders (
    ono       serial8 primary key,
    cust      integer references customer (id),
    code      integer references product (code),
    qty       smallint,
    amount    decimal(10,2),
    placed    datetime year to second,
    shipped   datetime year to fraction(3),
    lead_time interval day to second,
    big       int8,
    huge      bigint
);

create table audit (
    id      bigserial,
    msg     varchar(60),
    at      datetime year to fraction(3)
);

create index ix_orders_cust on orders (cust);

insert into customer values (0, 'Ada Lovelace', 'London', 'ada', 'first programmer', 't', '12/10/2015');
insert into customer values (0, 'Grace Hopper', 'Arlington', 'amazin', 'COBOL', 't', '2016-12-09');
insert into customer values (0, 'Edgar Codd', 'Portland', 'ted', 'relational model', 'f', '08/23/2019');
insert into customer (name, city) values ('Walk-in', NULL);

insert into product values (1, 'Tape drive', 1499.00, 12.5, 4, 4.5, 0.875, 'A reel-to-reel tape drive, 9 tracks, 800 bpi. Heavy.');
insert into product values (2, 'Punch cards', 9.95, 2.25, 120, 3.75, 0.5, 'A box of 2000 cards.');
insert into product values (3, 'Terminal', 649.50, 18.0, 7, 4.25, 0.9375, NULL);
insert into product values (4, 'Manual', 24.00, 0.8, 0, NULL, NULL, 'Informix-SQL Reference, 1986.');

insert into orders values (0, 1, 1, 1, 1499.00, '2024-03-01 09:15:00', '2024-03-04 16:30:12.250', '3 07:15:12', 9007199254740993, 1);
insert into orders values (0, 1, 2, 10, 99.50, '2024-03-02 11:00:00', '2024-03-02 17:45:00.000', '0 06:45:00', NULL, -9223372036854775807);
insert into orders values (0, 2, 3, 2, 1299.00, '2024-03-05 14:20:30', NULL, NULL, 42, NULL);
insert into orders values (0, 3, 2, 3, 29.85, '2024-03-06 08:05:00', '2024-03-08 10:00:00.125', '2 01:54:59', 7, 7);
insert into orders values (0, 3, 4, 1, 24.00, '2024-03-07 19:45:00', '2024-03-07 20:00:00.000', '0 00:15:00', 0, 0);
insert into orders values (0, 4, 2, 0, 0.00, '2024-03-08 12:00:00', NULL, NULL, NULL, NULL);

insert into audit (msg, at) values ('shop opened', '2024-03-01 08:00:00.000');
insert into audit (msg, at) values ('first order', '2024-03-01 09:15:00.001');

-- A TimeSeries: a row type, a table with one series per row, elements.
create row type reading_t (ts datetime year to fraction(5), temp float, hum float, watts integer);
create table meter (id int primary key, site varchar(20), readings timeseries(reading_t));
execute function oni_ts_create('meter', 'readings', 1, '2024-03-01 00:00', '15 minutes');
execute procedure oni_ts_write_many('meter', 'readings', 1, '2024-03-01 00:00|20.5|41.0|1200
2024-03-01 00:15|20.75|41.5|1180
2024-03-01 00:30|21.0||1175
2024-03-01 00:45|21.25|42.0|1190
2024-03-01 01:00|21.5|42.5|1210');
