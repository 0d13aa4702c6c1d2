alter table t1 add (c integer check (c > 0 and c < (1 + 2)), d row(x int, y varchar(5))), add constraint check (a <> c) constraint k1, modify b varchar(20)
