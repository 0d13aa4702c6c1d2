#!/bin/sh
# ixsql against a real ixd, byte for byte: the horizontal and the vertical
# layout, NULLs, confirmations, the error format (SQLCODE, ISAM line, line
# and position), going on after an error, exit statuses, and input splitting
# (several statements on a line, ';' in strings and comments, no final ';').
# usage: test_ixsql.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"

start_ixd ixsqltest

# Output (stdout and stderr together) followed by the exit status.
run() {
    "$IXSQL" "$@" 2>&1
    echo "rc=$?"
}

# --- confirmations --------------------------------------------------------
out=$(run "$URL" -c "create database sh with log" -c "create table t (id serial, name char(8),
  qty smallint, price decimal(6,2), d date, note lvarchar(100))" \
    -c "insert into t values (0, 'bolt', 10, 0.25, '01/31/2024', 'steel');
        insert into t values (0, 'nut', -3, 1234.5, '2024-02-29', NULL)" \
    -c "insert into t (name) values ('washer')")
check "create and insert" "
Database created.


Table created.


1 row(s) inserted.


1 row(s) inserted.


1 row(s) inserted.

rc=0" "$out"

# --- horizontal layout: numbers right-aligned (and their headers), NULL empty
out=$(run "$URL/sh" -c "select id, name, qty, price, d from t order by id")
check "horizontal" "
         id name        qty    price d         

          1 bolt         10     0.25 01/31/2024
          2 nut          -3  1234.50 02/29/2024
          3 washer                             

3 row(s) retrieved.

rc=0" "$out"

# Rows on stdout, messages on stderr (as dbaccess).
out=$("$IXSQL" "$URL/sh" -c "select id from t where id = 2" 2>/dev/null)
check "stdout only" "
         id

          2" "$out"
out=$("$IXSQL" "$URL/sh" -c "select id from t where id = 2" 2>&1 >/dev/null)
check "stderr only" "
1 row(s) retrieved." "$out"

# --- vertical layout: LVARCHAR(100) makes the row wider than 80 ---------------
out=$(run "$URL/sh" -c "select id, name, note from t where id <= 2 order by id")
check "vertical" "
id    1
name  bolt    
note  steel

id    2
name  nut     
note  

2 row(s) retrieved.

rc=0" "$out"

out=$(run "$URL/sh" -c "select id from t where id > 99")
check "no rows" "
No rows found.

rc=0" "$out"

# --- DML counts and transactions --------------------------------------------
out=$(run "$URL/sh" -c "begin work; update t set qty = qty + 1 where id < 3;
delete from t where id = 3; rollback work; select count(*) from t")
check "update, delete, rollback" "
Started transaction.


2 row(s) updated.


1 row(s) deleted.


Data rolled back.


 (count(*))

          3

1 row(s) retrieved.

rc=0" "$out"

# --- errors ------------------------------------------------------------------
out=$(run "$URL/sh" -c "select * frm t")
check "syntax error" "
  201: A syntax error has occurred.
Error in line 1
Near character position 10

rc=1" "$out"

out=$(run "$URL/sh" -c "select * from nosuch")
check "unknown table" "
  206: The specified table (nosuch) is not in the database.

rc=1" "$out"

out=$(run "$URL/sh" -c "create unique index ix_name on t (name)" \
    -c "insert into t (name) values ('bolt')" -c "select count(*) from t")
check "ISAM line, and going on after an error" "
Index created.


  239: Could not insert new row - duplicate value in a UNIQUE INDEX column (informix.ix_name).

  100: ISAM error:  duplicate value for a record with unique key.


 (count(*))

          3

1 row(s) retrieved.

rc=1" "$out"

# A script from a file: line numbers count in the file, positions in the line.
printf -- '-- a script\nselect id from t where id = 1; select id\n  from t\n order id;\nselect 1 from t where id = 1\n' > "$DIR/s.sql"
out=$(run "$URL/sh" -f "$DIR/s.sql")
check "-f with an error on line 4" "
         id

          1

1 row(s) retrieved.


  201: A syntax error has occurred.
Error in line 4
Near character position 8
Failed statement at line 2: select id ...


 (constant)

          1

1 row(s) retrieved.

rc=1" "$out"

# --- input splitting on stdin --------------------------------------------------
out=$(printf "select 'a;b' x from t where id = 1; -- c;\n{ d; } select \"e;\" y\n from t where id = 1 /* f; */;\n;\nselect 'it''s' z from t where id = 1" |
      run "$URL/sh")
check "stdin splitting" "
x  

a;b

1 row(s) retrieved.


y 

e;

1 row(s) retrieved.


z   

it's

1 row(s) retrieved.

rc=0" "$out"

# --- the 80-column limit: a row of exactly 80 stays horizontal ---------------------
c68=$(printf '%068d' 0)
out=$(run "$URL/sh" -c "select '$c68' a, id from t where id = 1" -c "select '${c68}9' a, id from t where id = 1")
check "80 columns" "
a                                                                             id

$c68           1

1 row(s) retrieved.


a   ${c68}9
id  1

1 row(s) retrieved.

rc=0" "$out"

# UPDATE without WHERE (statement type 33).
out=$(run "$URL/sh" -c "update t set qty = 0")
check "update all" "
3 row(s) updated.

rc=0" "$out"

# --- connection failures and usage ---------------------------------------------
out=$(run "informix://informix:wrong@127.0.0.1:$(cat "$DIR/port")/sh" -c "select 1 from t")
check "bad password" "
  951: Incorrect password or user informix is not known on the database server.

rc=1" "$out"
out=$(run "$URL/nosuchdb" -c "select 1 from t")
check "no database" "
  329: Database not found or no system permission.

rc=1" "$out"
"$IXSQL" -x > /dev/null 2>&1
check "usage" 126 $?

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
