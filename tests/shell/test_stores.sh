#!/bin/sh
# The stores demonstration database through ixsql against a real ixd: the
# schema as dbschema writes it (tests/sql/data/stores_schema.sql) and its rows
# (tests/sql/data/stores_data.sql, made from tests/sql/stores.test by
# scripts/stores-data.sh) load with no failed statement; then the counts, a
# join and the upqty_i trigger, read back through ixsql; MERGE's confirmation
# and the texts of a few error codes.
# usage: test_stores.sh IXSQL IXD SRCDIR
IXSQL=$1
IXD=$2
SRC=$3
. "$(dirname "$0")/lib.sh"

start_ixd ixstores

# The data file is what the script makes from stores.test, byte for byte.
sh "$SRC/scripts/stores-data.sh" "$SRC/tests/sql/stores.test" > "$DIR/data.sql"
if cmp -s "$DIR/data.sql" "$SRC/tests/sql/data/stores_data.sql"; then pass=$((pass + 1)); else
    fail=$((fail + 1))
    echo "not ok - tests/sql/data/stores_data.sql differs from scripts/stores-data.sh's output"
fi

# Every message a file gave, blank lines left out, counted (sort | uniq -c),
# then ixsql's exit status: a failed statement shows as an error line and
# as rc=1.
load() { # file
    "$IXSQL" "$URL/stores_demo" "$1" > "$DIR/out" 2>&1
    rc=$?
    grep -v '^$' "$DIR/out" | LC_ALL=C sort | uniq -c | sed 's/^ *//'
    echo "rc=$rc"
}

out=$("$IXSQL" "$URL" -c "create database stores_demo with log" 2>&1; echo "rc=$?")
check "create database" "
Database created.

rc=0" "$out"

out=$(load "$SRC/tests/sql/data/stores_schema.sql")
check "schema" "1 Index created.
56 Permission granted.
10 Permission revoked.
1 Routine created.
7 Table altered.
10 Table created.
1 Trigger created.
1 View created.
rc=0" "$out"

out=$(load "$SRC/tests/sql/data/stores_data.sql")
check "data" "339 1 row(s) inserted.
rc=0" "$out"

# Rows only (stdout), one value a line.
rows() {
    "$IXSQL" "$URL/stores_demo" "$@" 2> "$DIR/err"
    echo "rc=$?"
    cat "$DIR/err" | grep -v '^$' | grep -v 'row(s) \(retrieved\|updated\)\.$'
}

out=$(rows -c "select count(*) from customer" -c "select count(*) from orders" \
    -c "select count(*) from items" -c "select count(*) from stock" | grep -v '^$' |
    grep -v 'count')
check "counts" "         28
         23
         67
         74
rc=0" "$out"

out=$(rows -c "select o.order_num, c.lname, o.order_date from orders o, customer c
where o.customer_num = c.customer_num and o.order_num <= 1003 order by o.order_num")
check "join" "
  order_num lname           order_date

       1001 Varga           05/20/2024
       1002 Delgado         05/21/2024
       1003 Varga           05/22/2024
rc=0" "$out"

# upqty_i logs an UPDATE of quantity (one row per item), not of other columns.
out=$("$IXSQL" "$URL/stores_demo" \
    -c "update items set quantity = quantity + 1 where order_num = 1003" \
    -c "update items set total_price = total_price where order_num = 1002" 2>&1; echo "rc=$?")
check "trigger updates" "
3 row(s) updated.


2 row(s) updated.

rc=0" "$out"
out=$(rows -c "select ord_num, count(*) n, sum(new_qty - old_qty) d,
  min(username) u from log_record group by 1 order by 1")
check "trigger log" "
    ord_num           n                                  d u       

       1003           3                                  3 informix
rc=0" "$out"

# MERGE's count, and the texts of codes checked against the published
# message list (a sequence's CURRVAL before NEXTVAL, an unknown trigger).
out=$("$IXSQL" "$URL/stores_demo" -c "merge into state s using (select 'XX' code, 'Nowhere' sname
  from sysmaster:sysdual) x on s.code = x.code when not matched then insert values (x.code, x.sname)" \
    -c "create sequence sq" -c "select sq.currval from sysmaster:sysdual" \
    -c "drop trigger nosuch" 2>&1; echo "rc=$?")
check "merge and error texts" "
1 row(s) merged.


Sequence created.


 8315: Sequence (sq) CURRVAL is not yet defined in this session.


  634: Object does not exist.

rc=2" "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
