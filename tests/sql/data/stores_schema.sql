{ DATABASE stores_demo  delimiter | }

grant dba to "informix";
grant connect to "public";

{ TABLE "informix".customer row size = 134 number of columns = 10 index size = 7 }

create table "informix".customer 
  (
    customer_num serial not null ,
    fname char(15),
    lname char(15),
    company char(20),
    address1 char(20),
    address2 char(20),
    city char(15),
    state char(2),
    zipcode char(5),
    phone char(18),
    primary key (customer_num)  constraint "informix".u101_1
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".customer from "public" as "informix";

{ TABLE "informix".orders row size = 80 number of columns = 10 index size = 16 }

create table "informix".orders 
  (
    order_num serial not null ,
    order_date date,
    customer_num integer not null ,
    ship_instruct char(40),
    backlog char(1),
    po_num char(10),
    ship_date date,
    ship_weight decimal(8,2),
    ship_charge money(6,2),
    paid_date date,
    primary key (order_num)  constraint "informix".u102_3
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".orders from "public" as "informix";

{ TABLE "informix".manufact row size = 21 number of columns = 3 index size = 7 }

create table "informix".manufact 
  (
    manu_code char(3),
    manu_name char(15),
    lead_time interval day(3) to day,
    primary key (manu_code)  constraint "informix".u103_5
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".manufact from "public" as "informix";

{ TABLE "informix".stock row size = 43 number of columns = 6 index size = 16 }

create table "informix".stock 
  (
    stock_num smallint,
    manu_code char(3),
    description char(15),
    unit_price money(6,2),
    unit char(4),
    unit_descr char(15),
    primary key (stock_num,manu_code)  constraint "informix".u104_6
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".stock from "public" as "informix";

{ TABLE "informix".items row size = 18 number of columns = 6 index size = 28 }

create table "informix".items 
  (
    item_num smallint,
    order_num integer,
    stock_num smallint not null ,
    manu_code char(3) not null ,
    quantity smallint,
    total_price money(8,2),
    
    check (quantity >= 1 ) constraint "informix".c105_10,
    primary key (item_num,order_num)  constraint "informix".u105_8
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".items from "public" as "informix";

{ TABLE "informix".state row size = 17 number of columns = 2 index size = 6 }

create table "informix".state 
  (
    code char(2),
    sname char(15),
    primary key (code)  constraint "informix".u106_13
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".state from "public" as "informix";

{ TABLE "informix".call_type row size = 31 number of columns = 2 index size = 5 }

create table "informix".call_type 
  (
    call_code char(1),
    code_descr char(30),
    primary key (call_code)  constraint "informix".u107_14
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".call_type from "public" as "informix";

{ TABLE "informix".cust_calls row size = 517 number of columns = 7 index size = 24 }

create table "informix".cust_calls 
  (
    customer_num integer,
    call_dtime datetime year to minute,
    user_id char(18) 
        default user,
    call_code char(1),
    call_descr char(240),
    res_dtime datetime year to minute,
    res_descr char(240),
    primary key (customer_num,call_dtime)  constraint "informix".u108_15
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".cust_calls from "public" as "informix";

{ TABLE "informix".log_record row size = 25 number of columns = 6 index size = 0 }

create table "informix".log_record 
  (
    item_num smallint,
    ord_num integer,
    username char(8),
    update_time datetime year to minute,
    old_qty smallint,
    new_qty smallint
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".log_record from "public" as "informix";

{ TABLE "informix".catalog row size = 377 number of columns = 6 index size = 16 }

create table "informix".catalog 
  (
    catalog_num serial not null ,
    stock_num smallint not null ,
    manu_code char(3) not null ,
    cat_descr text,
    cat_picture byte,
    cat_advert varchar(255,65),
    primary key (catalog_num)  constraint "informix".u110_18
  ) extent size 16 next size 16 lock mode page;

revoke all on "informix".catalog from "public" as "informix";

create index "informix".zip_ix on "informix".customer (zipcode) 
    using btree ;

alter table "informix".orders add constraint (foreign key (customer_num) 
    references "informix".customer  constraint "informix".r102_4);

alter table "informix".stock add constraint (foreign key (manu_code) 
    references "informix".manufact  constraint "informix".r104_7);

alter table "informix".items add constraint (foreign key (order_num) 
    references "informix".orders  constraint "informix".r105_11);

alter table "informix".items add constraint (foreign key (stock_num,
    manu_code) references "informix".stock  constraint "informix".r105_12);

alter table "informix".cust_calls add constraint (foreign key (customer_num) 
    references "informix".customer  constraint "informix".r108_16);

alter table "informix".cust_calls add constraint (foreign key (call_code) 
    references "informix".call_type  constraint "informix".r108_17);

alter table "informix".catalog add constraint (foreign key (stock_num,
    manu_code) references "informix".stock  constraint "informix".r110_19);

grant select on "informix".customer to "public" as "informix";
grant update on "informix".customer to "public" as "informix";
grant insert on "informix".customer to "public" as "informix";
grant delete on "informix".customer to "public" as "informix";
grant index on "informix".customer to "public" as "informix";
grant select on "informix".orders to "public" as "informix";
grant update on "informix".orders to "public" as "informix";
grant insert on "informix".orders to "public" as "informix";
grant delete on "informix".orders to "public" as "informix";
grant index on "informix".orders to "public" as "informix";
grant select on "informix".manufact to "public" as "informix";
grant update on "informix".manufact to "public" as "informix";
grant insert on "informix".manufact to "public" as "informix";
grant delete on "informix".manufact to "public" as "informix";
grant index on "informix".manufact to "public" as "informix";
grant select on "informix".stock to "public" as "informix";
grant update on "informix".stock to "public" as "informix";
grant insert on "informix".stock to "public" as "informix";
grant delete on "informix".stock to "public" as "informix";
grant index on "informix".stock to "public" as "informix";
grant select on "informix".items to "public" as "informix";
grant update on "informix".items to "public" as "informix";
grant insert on "informix".items to "public" as "informix";
grant delete on "informix".items to "public" as "informix";
grant index on "informix".items to "public" as "informix";
grant select on "informix".state to "public" as "informix";
grant update on "informix".state to "public" as "informix";
grant insert on "informix".state to "public" as "informix";
grant delete on "informix".state to "public" as "informix";
grant index on "informix".state to "public" as "informix";
grant select on "informix".call_type to "public" as "informix";
grant update on "informix".call_type to "public" as "informix";
grant insert on "informix".call_type to "public" as "informix";
grant delete on "informix".call_type to "public" as "informix";
grant index on "informix".call_type to "public" as "informix";
grant select on "informix".cust_calls to "public" as "informix";
grant update on "informix".cust_calls to "public" as "informix";
grant insert on "informix".cust_calls to "public" as "informix";
grant delete on "informix".cust_calls to "public" as "informix";
grant index on "informix".cust_calls to "public" as "informix";
grant select on "informix".log_record to "public" as "informix";
grant update on "informix".log_record to "public" as "informix";
grant insert on "informix".log_record to "public" as "informix";
grant delete on "informix".log_record to "public" as "informix";
grant index on "informix".log_record to "public" as "informix";
grant select on "informix".catalog to "public" as "informix";
grant update on "informix".catalog to "public" as "informix";
grant insert on "informix".catalog to "public" as "informix";
grant delete on "informix".catalog to "public" as "informix";
grant index on "informix".catalog to "public" as "informix";

create procedure "informix".read_address (lastname char(15))
    returning char(15), char(15), char(20), char(15), char(2), char(5);

    define p_fname, p_city char(15);
    define p_add char(20);
    define p_state char(2);
    define p_zip char(5);

    select fname, address1, city, state, zipcode
        into p_fname, p_add, p_city, p_state, p_zip
        from customer
        where lname = lastname;

    return p_fname, lastname, p_add, p_city, p_state, p_zip;
end procedure;

create view "informix".custview (firstname,lastname,company,city) as 
  select x0.fname ,x0.lname ,x0.company ,x0.city from "informix".customer 
    x0 where (x0.city = 'Redwood City' ) with check option;

grant select on "informix".custview to "public" as "informix";
grant update on "informix".custview to "public" as "informix";
grant insert on "informix".custview to "public" as "informix";
grant delete on "informix".custview to "public" as "informix";

create trigger "informix".upqty_i update of quantity on "informix".items 
    referencing old as pre_upd new as post_upd
    for each row
        (
        insert into "informix".log_record (item_num,ord_num,username,
            update_time,old_qty,new_qty)  values (pre_upd.item_num ,
            pre_upd.order_num ,USER ,CURRENT year to minute ,pre_upd.quantity ,
            post_upd.quantity ));
