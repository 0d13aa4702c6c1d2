#!/bin/sh
# ixsql's LOAD and UNLOAD against a real ixd: a table of every type with
# awkward text (delimiters, backslashes, newlines, UTF-8, NULL against the
# empty string, CHAR blanks), UNLOAD, LOAD into a copy, UNLOAD again and
# compare the files byte for byte; the exact UNL text of known rows; BYTE
# and TEXT from a load file; DELIMITER; DBDELIMITER; DBDATE; hex escapes;
# a bad line's error (its line and text) and the rollback; syntax errors.
# usage: test_ixsql_unl.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"
same() { # name file1 file2
    if cmp "$2" "$3"; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        printf 'not ok - %s\n' "$1"
        od -c "$2" | head -20
        od -c "$3" | head -20
    fi
}

start_ixd ixsqlunl
cd "$DIR" || exit 1
unset DBDELIMITER DBDATE

run() {
    "$IXSQL" "$@" 2>&1
    echo "rc=$?"
}
COLS="a smallint, b int, c int8, d bigint, e float, f smallfloat, g decimal(10,2),
  h decimal(8), i money(8,2), j date, k datetime year to fraction(3),
  l interval day(3) to second, m char(6), n varchar(20), o lvarchar(100), p nchar(5),
  q nvarchar(10), r boolean, s byte, u text, v serial8, w datetime hour to minute,
  x interval year to month"
out=$(run "$URL" -c "create database u with log" -c "create table t ($COLS)" \
    -c "create table t2 ($COLS)" -c "create table t3 ($COLS)" -c "create table p (a int, b int)")
check "setup" "
Database created.


Table created.


Table created.


Table created.


Table created.

rc=0" "$out"

out=$(run "$URL/u" -c "insert into t values (1, 2, 3, 4, 1.5, 2.25, 12.5, 3.14159, 7.5,
  '12/10/2015', '2026-01-02 03:04:05.678', '12 03:04:05', 'ab', 'x|y', 'lv', 'nc', 'nv',
  't', null, null, 0, '23:59', '3-11')" \
    -c "insert into t (a, e, f, m, n, o, q) values (2, 0.1, 0.1, '', '', '', ' ')" \
    -c "insert into t values (-3, -2147483647, -9223372036854775807, 9223372036854775807,
  -1e300, -3.5e-20, -12.5, -0.000001, -7.25, '02/29/2000', '0001-01-01 00:00:00.000',
  '-999 23:59:59', '  a   ', 'a|b\\c', 'x
y', '  ', 'é|ü\\', 'f', null, null, 0, '00:00', '-99-01')")
check "rows" "
1 row(s) inserted.


1 row(s) inserted.


1 row(s) inserted.

rc=0" "$out"

out=$(run "$URL/u" -c "unload to 'a.unl' select * from t order by v")
check "unload" "
3 row(s) unloaded.

rc=0" "$out"
# The exact text: every field followed by |, NULL empty, '' as '\ ', CHAR
# without trailing blanks, VARCHAR keeps them, escapes, MONEY without $.
printf '%s\n' '1|2|3|4|1.5|2.25|12.50|3.14159|7.50|12/10/2015|2026-01-02 03:04:05.678|12 03:04:05|ab|x\|y|lv|nc|nv|t|||1|23:59|3-11|' \
    '2||||0.1|0.1|||||||\ |\ |\ || ||||2|||' \
    '-3|-2147483647|-9223372036854775807|9223372036854775807|-1e+300|-3.5e-20|-12.50|-0.000001|-7.25|02/29/2000|0001-01-01 00:00:00.000|-999 23:59:59|  a|a\|b\\c|x\' \
    'y|\ |é\|ü\\|f|||3|00:00|-99-01|' > want.unl
same "unl text" want.unl a.unl

out=$(run "$URL/u" -c "load from 'a.unl' insert into t2" -c "unload to 'b.unl' select * from t2 order by v")
check "load copy" "
3 row(s) loaded.


3 row(s) unloaded.

rc=0" "$out"
same "round trip" a.unl b.unl
out=$("$IXSQL" "$URL/u" -c "select count(*) from t2 where m = '' and p is null and n = '' and o = '' and q = ' '" 2>/dev/null | tr -s ' \n' ' ')
check "empty is not NULL" " (count(*)) 1 " "$out"

# BYTE and TEXT from a load file (hex, text with escapes, UTF-8, a newline).
printf '%s\n' '9||||||||||||||||||00ff41|text \| and \\ é\' 'next|9|||' \
    '10'"$(printf '|%.0s' $(seq 19))"'\ |10|||' > blob.unl
out=$(run "$URL/u" -c "load from 'blob.unl' insert into t3" -c "unload to 'c.unl' select * from t3 order by v")
check "blob load" "
2 row(s) loaded.


2 row(s) unloaded.

rc=0" "$out"
same "blob round trip" blob.unl c.unl

# DELIMITER, and DBDELIMITER as the default.
out=$(run "$URL/u" -c "unload to 'd.unl' delimiter ',' select a, n, q from t order by v")
printf '%s\n' '1,x|y,nv,' '2,\ , ,' '-3,a|b\\c,é|ü\\,' > want.unl
same "delimiter ," want.unl d.unl
out=$(DBDELIMITER=';' run "$URL/u" -c "unload to 'e.unl' select a, n from t where a = 1" \
    -c "delete from p" -c "load from 'e.unl' insert into t3 (a, n)")
printf '1;x|y;\n' > want.unl
same "DBDELIMITER" want.unl e.unl
# DBDATE for DATE in both directions.
out=$(DBDATE=Y4MD- run "$URL/u" -c "unload to 'f.unl' select a, j from t where a = 1" \
    -c "load from 'f.unl' insert into t3 (a, j)" -c "unload to 'g.unl' select a, j from t3 where a = 1 and j is not null")
printf '1|2015-12-10|\n' > want.unl
same "DBDATE unload" want.unl f.unl
same "DBDATE load" want.unl g.unl
# Hex escapes (dbaccess -X): control characters as \xNN, back again.
printf '%s\n' '77|a\x09b\x01c\x7f\|d|' > hex.unl
out=$(run "$URL/u" -X -c "load from 'hex.unl' insert into t3 (a, n)" \
    -c "unload to 'h.unl' select a, n from t3 where a = 77")
same "hex escapes" hex.unl h.unl
out=$(run "$URL/u" -c "unload to 'i.unl' select n from t3 where a = 77")
printf 'a\tb\001c\177\\|d|\n' > want.unl
same "hex escapes off" want.unl i.unl

# A bad value: the line (of the file) and the text; nothing stays.
printf '1|1|\n2|2|\n3|x\\\ny|\n4|4|\n' > bad.unl
out=$(run "$URL/u" -c "load from 'bad.unl' insert into p")
check "bad value" "
 1213: A character to numeric conversion process failed.
Column 2.
  847: Error in load file line 3.
Row 3: 3|x\\
y|

rc=1" "$out"
printf '1|1|\n2|2|3|\n' > count.unl
out=$(run "$URL/u" -c "load from 'count.unl' insert into p")
check "field count" "
  846: Number of values in load file is not equal to number of columns.
  847: Error in load file line 2.
Row 2: 2|2|3|

rc=1" "$out"
out=$("$IXSQL" "$URL/u" -c "select count(*) from p" 2>/dev/null | tr -s ' \n' ' ')
check "rolled back" " (count(*)) 0 " "$out"
# A value the server refuses (duplicate key) names its line too.
out=$(run "$URL/u" -c "create unique index pa on p(a)" -c "load from 'count.unl' insert into p (a)")
printf '5|\n6|\n5|\n' > dup.unl
out=$(run "$URL/u" -c "load from 'dup.unl' insert into p (a)")
case "$out" in
*"  847: Error in load file line 3.
Row 3: 5|

rc=1") pass=$((pass + 1)) ;;
*) fail=$((fail + 1)); printf 'not ok - duplicate\n%s\n' "$out" ;;
esac

# Values out of their column's range (docs/server-sql.md, "Values out of
# range"): the server refuses an INTEGER -1215, a SMALLINT -1214, a
# SMALLFLOAT -1226, the shell an integer past INT8's range; the line is
# named and nothing stays.
out=$(run "$URL/u" -c "create table r (a int, s smallint, b int8, f smallfloat)")
for row in '2147483648|1|1|1|:1215' '2|40000|1|1|:1214' '2|1|99999999999999999999|1|:1215' \
    '2|1|1|1e39|:1226'; do
    printf '1|1|1|1|\n%s\n' "${row%:*}" > range.unl
    out=$(run "$URL/u" -c "load from 'range.unl' insert into r")
    case "$out" in
    *" ${row##*:}: "*"  847: Error in load file line 2.
Row 2: ${row%:*}

rc=1") pass=$((pass + 1)) ;;
    *) fail=$((fail + 1)); printf 'not ok - range %s\n%s\n' "$row" "$out" ;;
    esac
done
out=$("$IXSQL" "$URL/u" -c "select count(*) from r" 2>/dev/null | tr -s ' \n' ' ')
check "out of range rolled back" " (count(*)) 0 " "$out"

# The progress line when standard error is a terminal (a pty): rows and
# rows/s after each batch of 1000, erased before the count.
seq 1 2500 | sed 's/.*/&|&|/' > many.unl
if command -v python3 > /dev/null; then
    out=$(python3 - "$IXSQL" "$URL/u" << 'PY'
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen([sys.argv[1], sys.argv[2], "-c",
                      "load from 'many.unl' insert into p (b, a)"],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
p.wait()
text = data.decode()
ok = "\r1000 rows, " in text and "\r2000 rows, " in text and "rows/s" in text
print("progress" if ok else repr(text), "2500 row(s) loaded." in text, p.returncode)
PY
)
    check "progress line" "progress True 0" "$out"
fi
out=$(run "$URL/u" -c "load from 'a.unl' into t2")
check "load syntax" "
  201: A syntax error has occurred.
Error in line 1
Near character position 19

rc=1" "$out"
out=$(run "$URL/u" -c "unload to 'x.unl' delimiter 'ab' select * from t")
check "delimiter syntax" "
  201: A syntax error has occurred.
Error in line 1
Near character position 29

rc=1" "$out"
out=$(run "$URL/u" -c "load from 'nosuch.unl' insert into p")
check "missing file" "
ixsql: cannot open nosuch.unl: No such file or directory

rc=1" "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
