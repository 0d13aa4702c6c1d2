#!/bin/sh
# ixsql's output formats for scripting against a real ixd: --format=
# unaligned|csv|json (and aligned, the dbaccess layout), CSV read back with
# python3's csv module and JSON with its json module, with awkward values
# (commas, quotes, CR and LF, UTF-8, NULL against the empty string,
# decimals, MONEY, floats); the backslash commands \pset format, \pset null,
# \x and \timing in scripts and in -c; bad formats and commands.
# usage: test_ixsql_fmt.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"
contains() { # name needle haystack
    case "$3" in *"$2"*) pass=$((pass + 1)) ;; *)
        fail=$((fail + 1))
        printf 'not ok - %s\n--- wanted somewhere\n%s\n--- got\n%s\n---\n' "$1" "$2" "$3" ;;
    esac
}

start_ixd ixsqlfmt
cd "$DIR" || exit 1
DB="$URL/f"
CR=$(printf '\r')
"$IXSQL" "$URL" -c "create database f" > /dev/null 2>&1 < /dev/null
"$IXSQL" "$DB" -c "create table t (id int, s varchar(40), d decimal(10,2), m money(8,2),
    fl float, n int8, b boolean, dt date)" \
    -c "insert into t values (1, 'a,b \"q\" ''x''', 1.5, 12.25, 0.5, 9000000000, 't', '12/31/2025')" \
    -c "insert into t values (2, 'two
lines$CR', -0.25, -3, -1e300, -7, 'f', null)" \
    -c "insert into t values (3, 'Zoë — 東京	tab\\', 0, 0, 0, 0, null, null)" \
    -c "insert into t values (4, '', null, null, null, null, null, null)" \
    -c "insert into t values (null, null, null, null, null, null, null, null)" \
    -c "create table e (x int)" > /dev/null 2>&1 < /dev/null
Q="select id, s, d, m, fl, n, b, dt from t order by 1"

# --- JSON: valid RFC 8259, numbers as numbers, NULL as null ------------------
"$IXSQL" "$DB" --format=json -c "$Q" > out.json 2> err.txt < /dev/null
check "json: status" 0 $?
check "json: the count on stderr" "
5 row(s) retrieved." "$(cat err.txt)"
got=$(python3 -c '
import json, sys
rows = json.load(sys.stdin)
want = [
 {"id": None, "s": None, "d": None, "m": None, "fl": None, "n": None, "b": None, "dt": None},
 {"id": 1, "s": "a,b \"q\" '"'"'x'"'"'", "d": 1.5, "m": 12.25, "fl": 0.5, "n": 9000000000,
  "b": "t", "dt": "12/31/2025"},
 {"id": 2, "s": "two\nlines\r", "d": -0.25, "m": -3, "fl": -1e300, "n": -7, "b": "f", "dt": None},
 {"id": 3, "s": "Zo\u00eb \u2014 \u6771\u4eac\ttab\\", "d": 0, "m": 0, "fl": 0, "n": 0, "b": None,
  "dt": None},
 {"id": 4, "s": "", "d": None, "m": None, "fl": None, "n": None, "b": None, "dt": None},
]
if rows != want:
    print(rows)
for r in rows:
    for k in ("id", "d", "m", "fl", "n"):
        if r[k] is not None and not isinstance(r[k], (int, float)):
            print("not a number", k, r[k])
print("ok")
' < out.json 2>&1)
check "json: parsed values" "ok" "$got"
contains "json: money without its symbol" '"m":12.25,' "$(cat out.json)"
contains "json: decimal scale kept" '"d":1.50,' "$(cat out.json)"
contains "json: control characters escaped" '"s":"two\nlines\r"' "$(cat out.json)"
out=$("$IXSQL" "$DB" --format=json -c "select x from e" 2>/dev/null < /dev/null)
check "json: no rows is an empty array" "[]" "$out"

# --- CSV: RFC 4180 -----------------------------------------------------------
"$IXSQL" "$DB" --format=csv -c "$Q" > out.csv 2>/dev/null < /dev/null
check "csv: status" 0 $?
got=$(python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
want = [["id", "s", "d", "m", "fl", "n", "b", "dt"],
 ["", "", "", "", "", "", "", ""],
 ["1", "a,b \"q\" '"'"'x'"'"'", "1.50", "$12.25", "0.500000000000000", "9000000000", "t", "12/31/2025"],
 ["2", "two\nlines\r", "-0.25", "-$3.00", "-1.00000000000000e+300", "-7", "f", ""],
 ["3", "Zo\u00eb \u2014 \u6771\u4eac\ttab\\", "0.00", "$0.00", "0.00000000000000", "0", "", ""],
 ["4", "", "", "", "", "", "", ""]]
if rows != want:
    print(rows)
print("ok")
' out.csv 2>&1)
check "csv: read back by the csv module" "ok" "$got"
check "csv: NULL unquoted, the empty string quoted, CRLF" \
    ",,,,,,,$CR|4,\"\",,,,,,$CR" "$(sed -n '/^4,/p;/^,/p' out.csv | tr '\n' '|' | sed 's/|$//')"
contains "csv: quotes doubled" '1,"a,b ""q"" '"'x'"'",1.50' "$(cat out.csv)"
out=$("$IXSQL" "$DB" --format=csv -c "select x from e" 2>/dev/null < /dev/null)
check "csv: no rows is the header" "x$CR" "$out"

# --- unaligned ------------------------------------------------------------------
out=$("$IXSQL" "$DB" --format=unaligned -c "select id, s, d from t where id in (1, 4) order by 1" \
    2>/dev/null < /dev/null)
check "unaligned" "id|s|d
1|a,b \"q\" 'x'|1.50
4||" "$out"

# --- bad --format -----------------------------------------------------------------
out=$("$IXSQL" "$DB" --format=xml -c "select 1 from e" 2>&1 < /dev/null)
check "--format=xml: status" 126 $?
contains "--format=xml: message" "ixsql: --format takes aligned, unaligned, csv, json, markdown or vertical" "$out"

# --- backslash commands in a script ---------------------------------------------
cat > s.sql <<'SQL'
-- formats switched in the middle of a script
\pset format unaligned
\pset null '(null)'
select id, b from t where id in (3, 4) order by 1;
\x on
select id, b from t where id = 3;
\x off
\pset format csv
select id, s from t where id = 4;
\pset format json
select id from t where id = 1;
\pset format aligned
select id, b from t where id = 3;
\x
select id, b from t where id = 3;
SQL
out=$("$IXSQL" -q "$DB" s.sql 2>&1 < /dev/null)
check "script: status" 0 $?
check "script: each format in turn" "id|b
3|(null)
4|(null)
id|3
b|(null)
id,s$CR
4,\"\"$CR
[
{\"id\":1}
]

         id b

          3 (null)

id  3
b   (null)" "$out"

# --- \timing, -c, errors ----------------------------------------------------------
out=$("$IXSQL" -q "$DB" -c '\timing' -c "select id from t where id = 1" 2>&1 >/dev/null < /dev/null)
check "\\timing: status" 0 $?
check "\\timing: a line on stderr" "ok" "$(echo "$out" | grep -Eq '^Time: [0-9]+\.[0-9]{3} ms$' && echo ok)"
out=$("$IXSQL" "$DB" -c '\timing on' -c "select id from t where id = 1" 2>/dev/null < /dev/null)
check "\\timing: nothing on stdout" "
         id

          1" "$out"
out=$("$IXSQL" -q "$DB" -c "select id from t where id = 1" 2>&1 >/dev/null < /dev/null)
check "no \\timing: no time" "" "$out"
out=$("$IXSQL" "$DB" -c '\pset format json' -c "select id from t where id = 1" 2>/dev/null < /dev/null)
check "-c \\pset format" "[
{\"id\":1}
]" "$out"
printf '\\pset format yaml\n\\frob\nselect nosuch from t;\n' > bad.sql
out=$("$IXSQL" "$DB" bad.sql 2>&1 < /dev/null)
check "bad commands: status counts them" 3 $?
contains "bad \\pset" "ixsql: bad arguments: \\pset format yaml" "$out"
contains "unknown command" "ixsql: invalid command \\frob (try \\?)" "$out"
contains "line numbers count command lines" "Failed statement at line 3: select nosuch from t" "$out"
printf '\\frob\nselect 1 from e;\n' > stop.sql
out=$("$IXSQL" -a "$DB" stop.sql 2>&1 < /dev/null)
check "-a stops at a bad command" 1 $?
check "-a: nothing after it" "
ixsql: invalid command \\frob (try \\?)" "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
