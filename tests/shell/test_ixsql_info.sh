#!/bin/sh
# ixsql's INFO statements against a real ixd, byte for byte: TABLES, COLUMNS
# (every type name decoded from coltype / collength, NOT NULL), INDEXES
# (several columns, DESC), STATUS, PRIVILEGES / ACCESS, REFERENCES (with the
# foreign keys), FRAGMENTS (not supported), a missing table (-206), an owner
# prefix, quoted names, syntax errors.
# usage: test_ixsql_info.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"

start_ixd ixsqlinfo

run() {
    "$IXSQL" "$@" 2>&1
    echo "rc=$?"
}

"$IXSQL" "$URL" -c "create database inf with log" > /dev/null 2>&1
out=$(run "$URL/inf" -c "create table cust (id serial primary key, name char(15) not null,
  bal decimal(10,2), m money(8), df decimal(12), v varchar(20), v2 varchar(30,5),
  nv nvarchar(10), lv lvarchar(200), d date, ts datetime year to second,
  tf datetime hour to fraction(3), iv interval day(3) to second, iy interval year to month,
  f float, sf smallfloat, i8 int8, bi bigint, b boolean, t text, by byte)" \
    -c "create table ord (o serial, cid integer references cust(id) on delete cascade,
  qty smallint)" -c "create unique index ix_n on cust(name, d desc)" \
    -c "create index ix_q on ord(qty)" -c 'create table "Mixed" (a int)' \
    -c "insert into cust (name) values ('x')")
check "setup" "
Table created.


Table created.


Index created.


Index created.


Table created.


1 row(s) inserted.

rc=0" "$out"

out=$(run "$URL/inf" -c "info tables")
check "tables" "
Table name

Mixed               cust                ord

rc=0" "$out"

out=$(run "$URL/inf" -c "INFO COLUMNS FOR cust")
check "columns" "
Column name          Type              Nulls

id                   serial            no
name                 char(15)          no
bal                  decimal(10,2)     yes
m                    money(8,2)        yes
df                   decimal(12)       yes
v                    varchar(20,0)     yes
v2                   varchar(30,5)     yes
nv                   nvarchar(10,0)    yes
lv                   lvarchar(200)     yes
d                    date              yes
ts                   datetime year to second yes
tf                   datetime hour to fraction(3) yes
iv                   interval day(3) to second yes
iy                   interval year(4) to month yes
f                    float             yes
sf                   smallfloat        yes
i8                   int8              yes
bi                   bigint            yes
b                    boolean           yes
t                    text              yes
by                   byte              yes

rc=0" "$out"

# the owner prefix, keywords in any case, a quoted (case-kept) name
out=$(run "$URL/inf" -c "info   columns   for informix.ord" -c 'info columns for "Mixed"')
check "owner and quoted name" "
Column name          Type              Nulls

o                    serial            no
cid                  integer           yes
qty                  smallint          yes


Column name          Type              Nulls

a                    integer           yes

rc=0" "$out"

out=$(run "$URL/inf" -c "info indexes for cust" -c "info indexes for ord")
check "indexes" "
Index name         Owner    Type   Clus Columns

ix_n               informix unique No   name
                                        d desc
u100_1             informix unique No   id


Index name         Owner    Type   Clus Columns

 r101_2            informix dupls  No   cid
ix_q               informix dupls  No   qty

rc=0" "$out"

today=$("$IXSQL" "$URL/inf" -c "select today from systables where tabid = 1" 2>/dev/null | sed -n 4p | tr -d ' ')
# systables.nrows is what the last UPDATE STATISTICS counted (as in Informix)
"$IXSQL" "$URL/inf" -c "update statistics for table cust" > /dev/null 2>&1
out=$(run "$URL/inf" -c "info status for cust")
check "status" "
Table Name        cust
Owner             informix
Row Size          482
Number of Rows    1
Number of Columns 21
Date Created      $today

rc=0" "$out"

# PUBLIC's default privileges and a user's (systabauth; column-level grants,
# syscolauth, are not shown)
run "$URL/inf" -c "grant select, update (name) on cust to bob" > /dev/null 2>&1
out=$(run "$URL/inf" -c "info privileges for cust" -c "info access for cust")
check "privileges, access" "
User               Select Update Insert Delete Index  Alter

bob                All    No     No     No     No     No
public             All    All    Yes    Yes    Yes    No


User               Select Update Insert Delete Index  Alter

bob                All    No     No     No     No     No
public             All    All    Yes    Yes    Yes    No

rc=0" "$out"

out=$(run "$URL/inf" -c "info references for ord")
check "references" "
User               References


Constraint name    References table   On delete

r101_2             cust               cascade

rc=0" "$out"

out=$(run "$URL/inf" -c "info fragments for ord")
check "fragments" "
ixsql: INFO FRAGMENTS is not supported: ixd tables are not fragmented.

rc=1" "$out"

out=$(run "$URL/inf" -c "info columns for nosuch" -c "info status for other.cust")
check "missing table" "
  206: The specified table (nosuch) is not in the database.


  206: The specified table (cust) is not in the database.

rc=2" "$out"

out=$(run "$URL/inf" -c "info columns cust" -c "info nothing" -c "info tables now")
check "syntax errors" "
  201: A syntax error has occurred.
Error in line 1
Near character position 14


  201: A syntax error has occurred.
Error in line 1
Near character position 6


  201: A syntax error has occurred.
Error in line 1
Near character position 13

rc=3" "$out"

# INFO in a script, between other statements
printf 'info tables;\nselect count(*) from ord;\n' > "$DIR/s.sql"
out=$(run "$URL/inf" "$DIR/s.sql")
check "script" "
Table name

Mixed               cust                ord


 (count(*))

          0

1 row(s) retrieved.

rc=0" "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
