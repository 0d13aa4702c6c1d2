#!/bin/sh
# ixsql's connections against two real ixd servers: CONNECT TO 'db@server' /
# 'db' / '@server' / DEFAULT [AS] [USER USING] [WITH CONCURRENT TRANSACTION]
# (the second server found through a sqlhosts file), DISCONNECT 'name' /
# CURRENT / ALL / DEFAULT, SET CONNECTION [DORMANT], Informix's errors for
# each case (-1800, -1802, -1803, -1811, -1813, -201), DATABASE without a
# connection, the password kept out of -e and the failed statement's name,
# and \c, \l, \d, \d table.
# usage: test_ixsql_conn.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"

start_ixd ixsqlconn
URL1=$URL
# The second server, named srv2, in the same directory (removed by lib.sh's trap).
"$IXD" --data "$DIR/db2" --listen 127.0.0.1:0 --port-file "$DIR/port2" --server-name srv2 \
    2> "$DIR/ixd2.log" &
IXD2_PID=$!
trap 'kill -TERM $IXD_PID $IXD2_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$DIR"' EXIT
i=0
while [ ! -s "$DIR/port2" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
printf '# sqlhosts for the test\nsrv2 onsoctcp 127.0.0.1 %s\n' "$(cat "$DIR/port2")" > "$DIR/sqlhosts"
INFORMIXSQLHOSTS=$DIR/sqlhosts
export INFORMIXSQLHOSTS
unset INFORMIXSERVER IXPASSWORD INFORMIXPASSWORD

run() {
    "$IXSQL" "$@" 2>&1
    echo "rc=$?"
}

"$IXSQL" "$URL1" -c "create database d1 with log" -c "create table t1 (a int)" > /dev/null 2>&1
"$IXSQL" "$URL1" -c "create database other" > /dev/null 2>&1

# CONNECT to the other server through sqlhosts, statements there, back with
# SET CONNECTION DEFAULT; -e hides USING's password.
out=$(run -e "$URL1/d1" - << 'SQL'
connect to '@srv2' as 'two' user 'informix' using 'in4mix';
create database d2 with log;
create table t2 (b int);
info tables;
set connection default;
info tables;
set connection 'two';
info tables;
SQL
)
check "connect @server, set connection" "connect to '@srv2' as 'two' user 'informix' using '********';

Connected.

create database d2 with log;

Database created.

create table t2 (b int);

Table created.

info tables;

Table name

t2

set connection default;
info tables;

Table name

t1

set connection 'two';
info tables;

Table name

t2

rc=0" "$out"

# A wrong password: the server's error, the password hidden in the name of
# the failed statement; the default connection stays current.
out=$(run "$URL1/d1" - << 'SQL'
connect to '@srv2' as 'two'
  user 'informix' using 's3cr&t';
info tables;
SQL
)
check "wrong password" "
  951: Incorrect password or user informix is not known on the database server.
Failed statement at line 1: connect to '@srv2' as 'two' ...


Table name

t1

rc=1" "$out"

# 'db@server' (named by its string), 'db' on the command line's server,
# DEFAULT; each connection keeps its database; names in use (-1802).
out=$(run "$URL1" - << 'SQL'
connect to 'd2@srv2';
info tables;
connect to 'd1';
info tables;
connect to 'd1';
connect to 'other' as 'd2@srv2';
set connection 'd2@srv2';
info tables;
connect to default;
disconnect default;
connect to default;
select count(*) from systables where tabid = 1;
disconnect 'd1';
set connection 'd1';
SQL
)
check "db@server, db, default, -1802" "
Connected.


Table name

t2


Connected.


Table name

t1


 1802: Connection name is in use.
Failed statement at line 5: connect to 'd1'


 1802: Connection name is in use.
Failed statement at line 6: connect to 'other' as 'd2@srv2'


Table name

t2


 1802: Connection name is in use.
Failed statement at line 9: connect to default


Disconnected.


Connected.


  349: Database not selected yet.
Failed statement at line 12: select count(*) from systables where tabid = 1


Disconnected.


 1803: Connection does not exist.
Failed statement at line 14: set connection 'd1'

rc=5" "$out"

# Transactions: leaving a connection inside one is -1800 unless it was opened
# WITH CONCURRENT TRANSACTION; DORMANT only for the current one (-1813).
out=$(run "$URL1" - << 'SQL'
connect to 'd1' as 'a';
begin work;
connect to 'd2@srv2' as 'b';
set connection default;
set connection 'a' dormant;
rollback work;
connect to 'd2@srv2' as 'b' with concurrent transaction;
begin work;
insert into t2 values (1);
set connection 'a';
set connection 'b';
select count(*) from t2;
rollback work;
set connection default dormant;
set connection current dormant;
select count(*) from t2;
set connection 'b';
set connection 'b' dormant;
SQL
)
check "transactions, dormant" "
Connected.


Started transaction.


 1800: Invalid transaction state.
Failed statement at line 3: connect to 'd2@srv2' as 'b'


 1800: Invalid transaction state.
Failed statement at line 4: set connection default


 1800: Invalid transaction state.
Failed statement at line 5: set connection 'a' dormant


Data rolled back.


Connected.


Started transaction.


1 row(s) inserted.


 (count(*))

          1

1 row(s) retrieved.


Data rolled back.


 1813: Only the current connection can be made dormant.
Failed statement at line 14: set connection default dormant


 1803: Connection does not exist.
Failed statement at line 16: select count(*) from t2

rc=5" "$out"

# DISCONNECT CURRENT / ALL, statements without a current connection (-1803),
# DATABASE while connections are dormant (-1811) and when there are none (it
# opens the default connection).
out=$(run "$URL1/d1" - << 'SQL'
connect to 'd2@srv2' as 'b';
disconnect current;
select count(*) from t1;
disconnect current;
database d1;
set connection default;
disconnect all;
disconnect all;
info tables;
database d1;
info tables;
disconnect default;
SQL
)
check "disconnect, -1803, -1811, implicit database" "
Connected.


Disconnected.


 1803: Connection does not exist.
Failed statement at line 3: select count(*) from t1


 1803: Connection does not exist.
Failed statement at line 4: disconnect current


 1811: Implicit connection not allowed after an explicit connection.
Failed statement at line 5: database d1


Disconnected.


 1803: Connection does not exist.
Failed statement at line 8: disconnect all


 1803: Connection does not exist.
Failed statement at line 9: info tables


Database selected.


Table name

t1


Disconnected.

rc=5" "$out"

# Syntax errors (-201 with the position), a server not in sqlhosts, a
# database the server does not have.
out=$(run "$URL1" - << 'SQL'
connect to;
connect to 'd1' as;
connect to 'd1' user 'informix';
connect to 'd1' with concurrent;
disconnect;
disconnect 'a' 'b';
set connection current;
set connection 'a' now;
connect to '@nosuch';
connect to 'nodb@srv2';
SQL
)
check "syntax errors, unknown server and database" "
  201: A syntax error has occurred.
Error in line 1
Near character position 11
Failed statement at line 1: connect to


  201: A syntax error has occurred.
Error in line 2
Near character position 19
Failed statement at line 2: connect to 'd1' as


  201: A syntax error has occurred.
Error in line 3
Near character position 32
Failed statement at line 3: connect to 'd1' user 'informix'


  201: A syntax error has occurred.
Error in line 4
Near character position 32
Failed statement at line 4: connect to 'd1' with concurrent


  201: A syntax error has occurred.
Error in line 5
Near character position 11
Failed statement at line 5: disconnect


  201: A syntax error has occurred.
Error in line 6
Near character position 16
Failed statement at line 6: disconnect 'a' 'b'


  201: A syntax error has occurred.
Error in line 7
Near character position 23
Failed statement at line 7: set connection current


  201: A syntax error has occurred.
Error in line 8
Near character position 20
Failed statement at line 8: set connection 'a' now


ixsql: nosuch is not listed in the sqlhosts file $DIR/sqlhosts
Failed statement at line 9: connect to '@nosuch'


  329: Database not found or no system permission.
Failed statement at line 10: connect to 'nodb@srv2'

rc=10" "$out"

# \c db (as DATABASE db), \l (sysmaster:sysdatabases), \d and \d table.
out=$(run "$URL1" - << 'SQL'
\c d1
\d
\d t1
\c other
\l
SQL
)
check "backslash commands" "
Database selected.


Table name

t1


Column name          Type              Nulls

a                    integer           yes


Database selected.


name        d1
owner       informix                        
is_logging  1
is_ansi     0

name        other
owner       informix                        
is_logging  0
is_ansi     0

name        sysmaster
owner       informix                        
is_logging  1
is_ansi     0

3 row(s) retrieved.

rc=0" "$out"
out=$(run "$URL1" -c '\d' -c '\l')
check "no database: \\d, \\l" "
Table name



  349: Database not selected yet.

  349: Database not selected yet.
rc=2" "$out"

# A keyword DSN: its settings carry over; '@ixd' (the name the first server
# gave at login) keeps its host and port, no sqlhosts entry needed.
KW="host=127.0.0.1 port=$(cat "$DIR/port") user=informix password='in4mix'"
out=$(run "$KW" -c "connect to 'd1@ixd'" -c "info tables" -c "connect to 'd2@srv2' as 'x'" \
    -c "info tables")
check "keyword DSN, the first server by name" "
Connected.


Table name

t1


Connected.


Table name

t2

rc=0" "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
