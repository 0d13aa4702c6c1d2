#!/bin/sh
# ixsql's LOAD SERIES against a real ixd: loader lines of several keys
# (blank lines skipped, trailing delimiter), DELIMITER, the element count,
# a bad value naming its file line and loading nothing (the load is one
# transaction), a line a field short, a line that is not a loader line,
# syntax errors, a missing file.
# usage: test_ixsql_ts.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"
# name pattern actual: the output contains every line of pattern (fixed strings)
contains() {
    missing=$(printf '%s\n' "$2" | while IFS= read -r l; do
        [ -z "$l" ] && continue
        printf '%s\n' "$3" | grep -qF -- "$l" || printf '%s\n' "$l"
    done)
    if [ -z "$missing" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        printf 'not ok - %s\n--- missing\n%s\n--- got\n%s\n---\n' "$1" "$missing" "$3"
    fi
}

start_ixd ixsqlts

run() {
    "$IXSQL" "$@" 2>&1
    echo "rc=$?"
}
# Elements of meter $1's series, as ixsql's row count line.
count() {
    "$IXSQL" "$URL/tsh" -c "select * from table(oni_ts_read_rows('meters', 'readings', $1,
        null, null))" 2>&1 >/dev/null | grep -E 'row\(s\) retrieved|No rows found' | tr -d '\n'
}

out=$(run "$URL" -c "create database tsh with log" -c "create row type r_t (ts datetime year to
  fraction(5), m1 float, m2 float)" -c "create table meters (id int primary key,
  readings timeseries(r_t))" -c "execute function oni_ts_create('meters', 'readings', 1,
  '2026-01-01 00:00', '1 minute')" -c "execute function oni_ts_create('meters', 'readings', 2,
  '2026-01-01 00:00', '1 minute')")
contains "setup" "Database created.
Table created.
rc=0" "$out"

cd "$DIR" || exit 1
{
    echo "1|2026-01-01 00:00|1.5|2|"
    echo "2|2026-01-01 00:00|7|8|"
    echo ""
    echo "1|2026-01-01 00:01|1.25||"
    echo "1|2026-01-01 00:02||3"
    echo "2|2026-01-01 00:01|9|10|"
} > good.unl
out=$(run "$URL/tsh" -c "load series from 'good.unl' into meters(readings)")
check "load" "
5 elements loaded.

rc=0" "$out"
check "key 1" "3 row(s) retrieved." "$(count 1)"
check "key 2" "2 row(s) retrieved." "$(count 2)"

printf '1,2026-01-01 00:03,4,4,\r\n2,2026-01-01 00:02,5,5\r\n' > comma.unl
out=$(run "$URL/tsh" -c "LOAD SERIES FROM \"comma.unl\"
  INTO meters ( readings ) DELIMITER ','")
check "delimiter" "
2 elements loaded.

rc=0" "$out"
check "key 1 after" "4 row(s) retrieved." "$(count 1)"
echo "2|2026-01-01 00:02|7|7|" > one.unl  # replaces an element
out=$(run "$URL/tsh" -c "load series from 'one.unl' into meters(readings)")
check "one element, in the singular" "
1 element loaded.

rc=0" "$out"
check "key 2 after, the element replaced" "3 row(s) retrieved." "$(count 2)"

# A bad value on line 3: the error names it; nothing of the file stays.
{
    echo "1|2026-01-01 00:10|1|1|"
    echo "2|2026-01-01 00:10|1|1|"
    echo "1|2026-01-01 00:11|x|1|"
    echo "1|2026-01-01 00:12|1|1|"
} > bad.unl
out=$(run "$URL/tsh" -c "load series from 'bad.unl' into meters(readings)")
contains "bad value" "  746: series 1: line 2:
Error in load file line 3.
rc=1" "$out"
check "rolled back 1" "4 row(s) retrieved." "$(count 1)"
check "rolled back 2" "3 row(s) retrieved." "$(count 2)"

# One field per column: the trailing delimiter closes the line, so a line a
# field short is refused (-746, wrong field count), not loaded with a NULL.
printf '1|2026-01-01 00:30|1|\n' > short.unl
out=$(run "$URL/tsh" -c "load series from 'short.unl' into meters(readings)")
contains "short line" "Element has 2 fields, r_t has 3
Error in load file line 1.
rc=1" "$out"
check "nothing of the short line" "4 row(s) retrieved." "$(count 1)"

printf '1|2026-01-01 00:20|1|1|\nnot a loader line\n' > junk.unl
out=$(run "$URL/tsh" -c "load series from 'junk.unl' into meters(readings)")
check "not a loader line" "
ixsql: not a series loader line (key|timestamp|values...)
Error in load file line 2.

rc=1" "$out"
check "nothing of it" "4 row(s) retrieved." "$(count 1)"

out=$(run "$URL/tsh" -c "load series from 'good.unl' into meters")
check "syntax" "
  201: A syntax error has occurred.
Error in line 1
Near character position 40

rc=1" "$out"
out=$(run "$URL/tsh" -c "load series from 'nosuch.unl' into meters(readings)")
check "missing file" "
ixsql: cannot open nosuch.unl: No such file or directory

rc=1" "$out"
out=$(run "$URL/tsh" -c "load series from 'good.unl' into nosuch(readings)")
contains "unknown table" "rc=1" "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
