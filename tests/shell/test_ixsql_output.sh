#!/bin/sh
# Where ixsql's results go and how wide they are, against a real ixd:
# OUTPUT TO file / PIPE program [WITHOUT HEADINGS] (rows there, messages on
# the terminal; files that cannot be opened, programs that fail, a reader
# that stops early), \o file / \o |command / \o, --format and \pset format
# markdown and vertical, and widths in terminal cells: accented and CJK
# text aligned, a character cut by name[1,n] shown as \xNN.
# usage: test_ixsql_output.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"
contains() { # name needle haystack
    case "$3" in *"$2"*) pass=$((pass + 1)) ;; *)
        fail=$((fail + 1))
        printf 'not ok - %s\n--- wanted somewhere\n%s\n--- got\n%s\n---\n' "$1" "$2" "$3" ;;
    esac
}
LC_ALL=C.UTF-8
export LC_ALL

start_ixd ixsqlout
cd "$DIR" || exit 1
DB="$URL/o"
"$IXSQL" "$URL" -c "create database o" > /dev/null 2>&1 < /dev/null
"$IXSQL" "$DB" -c "create table t (id int, s varchar(20), c char(12))" \
    -c "insert into t values (1, 'a|b', 'Zoë')" \
    -c "insert into t values (2, '東京タワー', '東京タワー')" \
    -c "insert into t values (3, null, 'x')" > /dev/null 2>&1 < /dev/null
Q="select * from t order by 1"
TABLE="
         id s                    c           

          1 a|b                  Zoë         
          2 東京タワー           東京タワ    
          3                      x           "
ROWS="
          1 a|b                  Zoë         
          2 東京タワー           東京タワ    
          3                      x           "

# --- OUTPUT TO file -------------------------------------------------------------
out=$("$IXSQL" "$DB" -c "output to 'out1.txt' $Q" 2> err.txt < /dev/null)
check "output to file: status" 0 $?
check "output to file: nothing on stdout" "" "$out"
check "output to file: the message on stderr" "
3 row(s) retrieved." "$(cat err.txt)"
check "output to file: the rows" "$TABLE" "$(cat out1.txt)"
"$IXSQL" "$DB" -c "OUTPUT TO out2.txt WITHOUT HEADINGS $Q" > /dev/null 2>&1 < /dev/null
check "output to a bare file name, without headings" "$ROWS" "$(cat out2.txt)"
"$IXSQL" "$DB" -c "output to pipe.txt without headings select id from t where id = 1" \
    > /dev/null 2>&1 < /dev/null
check "output to a file whose name starts with pipe" "
          1" "$(cat pipe.txt)"
echo old > out2.txt
"$IXSQL" "$DB" -c "output to out2.txt without headings select id from t where id = 1" \
    > /dev/null 2>&1 < /dev/null
check "output to file: overwritten" "
          1" "$(cat out2.txt)"
out=$("$IXSQL" "$DB" -c "output to '$DIR/no/such/dir' $Q" 2>&1 < /dev/null)
check "output to a file that cannot be opened: status" 1 $?
check "output to a file that cannot be opened: message" "
ixsql: cannot open $DIR/no/such/dir: No such file or directory" "$out"
out=$("$IXSQL" "$DB" -c "output to f.txt
 select nosuch from t" 2>&1 < /dev/null)
check "output: the statement's error" "
  217: Column (nosuch) not found in any table in the query (or SLV is undefined)." "$out"
out=$("$IXSQL" "$DB" -c "output to x.txt without select 1 from t" 2>&1 < /dev/null)
check "output: WITHOUT without HEADINGS" "
  201: A syntax error has occurred.
Error in line 1
Near character position 25" "$out"
out=$("$IXSQL" "$DB" -c "output to" 2>&1 < /dev/null)
check "output: no file" 1 $?

# --- OUTPUT TO PIPE ---------------------------------------------------------------
out=$("$IXSQL" "$DB" -c "output to pipe 'sort -r > p.txt' without headings select id from t" \
    2> err.txt < /dev/null)
check "output to pipe: status" 0 $?
check "output to pipe: the message on stderr" "
3 row(s) retrieved." "$(cat err.txt)"
check "output to pipe: the command read the rows" "          3
          2
          1" "$(cat p.txt)"
out=$("$IXSQL" "$DB" -c "output to pipe cat $Q" 2>/dev/null < /dev/null)
check "output to pipe: the command's output on the terminal" "$TABLE" "$out"
out=$("$IXSQL" "$DB" -c "output to pipe 'cat > /dev/null; exit 3' select id from t where id = 1" 2>&1 \
    < /dev/null)
check "output to a failing command: status" 1 $?
check "output to a failing command: message" "
1 row(s) retrieved.


ixsql: command 'cat > /dev/null; exit 3' failed: exit status 3" "$out"
out=$("$IXSQL" "$DB" -c "output to pipe 'no-such-program-here 2>/dev/null' $Q" 2>&1 < /dev/null)
check "output to a missing program: status" 1 $?
contains "output to a missing program: message" \
    "ixsql: command 'no-such-program-here 2>/dev/null' failed: exit status 127" "$out"
out=$("$IXSQL" "$DB" -c "output to pipe 'head -c 12' select a.id from t a, t b, t c, t d, t e" \
    -c "select id from t where id = 3" 2>/dev/null < /dev/null)
check "output to a reader that stops early: status" 0 $?
check "output to a reader that stops early: the shell goes on" "
         id
         id

          3" "$out"

# --- \o -----------------------------------------------------------------------------
cat > o.sql <<'SQL'
select id from t where id = 1;
\o o.txt
select id from t where id = 2;
output to 'inner.txt' select id from t where id = 3;
select c from t where id = 1;
\o |tr a-z A-Z > upper.txt
select 'lower' from t where id = 1;
\o
select id from t where id = 3;
SQL
out=$("$IXSQL" -q "$DB" o.sql 2>&1 < /dev/null)
check "\\o: status" 0 $?
check "\\o: what stays on the terminal" "
         id

          1

         id

          3" "$out"
check "\\o file: the statements between" "
         id

          2

c           

Zoë         " "$(cat o.txt)"
check "\\o: an OUTPUT statement writes to its own file" "
         id

          3" "$(cat inner.txt)"
check "\\o |command: the command read them" "
(CONSTANT)

LOWER     " "$(cat upper.txt)"
out=$("$IXSQL" "$DB" -c '\o /no/such/dir/x' 2>&1 < /dev/null)
check "\\o to a file that cannot be opened: status" 1 $?
check "\\o to a file that cannot be opened: message" "
ixsql: cannot open /no/such/dir/x: No such file or directory" "$out"

# --- markdown -------------------------------------------------------------------------
MD="| id | s | c |
| ---: | --- | --- |
| 1 | a\\|b | Zoë         |
| 2 | 東京タワー | 東京タワ |
| 3 | (null) | x            |
| 4 | two<br>lines | y            |"
"$IXSQL" "$DB" -c "insert into t values (4, 'two
lines', 'y')" > /dev/null 2>&1 < /dev/null
Q="select * from t order by 1"
out=$("$IXSQL" "$DB" --format=markdown -c '\pset null (null)' -c "$Q" 2>/dev/null < /dev/null)
check "--format=markdown" "$MD" "$out"
out=$(printf '%s\n' '\pset format markdown' '\pset null (null)' "$Q;" \
    "output to md.txt without headings select id from t where id = 1;" |
    "$IXSQL" -q "$DB" - 2>&1)
check "\\pset format markdown" "$MD" "$out"
check "markdown without headings" "| 1 |" "$(cat md.txt)"

# --- vertical ---------------------------------------------------------------------------
VERT="
id  1
s   a|b
c   Zoë        

id  2
s   東京タワー
c   東京タワ

id  4
s   two
lines
c   y           "
V="select * from t where id in (1, 2, 4) order by 1"
out=$("$IXSQL" "$DB" --format=vertical -c "$V" 2>/dev/null < /dev/null)
check "--format=vertical" "$VERT" "$out"
out=$(printf '%s\n' '\pset format vertical' "$V;" | "$IXSQL" -q "$DB" - 2>&1)
check "\\pset format vertical" "$VERT" "$out"
"$IXSQL" "$DB" --format=vertical -c "output to v.txt without headings $V" > /dev/null 2>&1 \
    < /dev/null
check "vertical without headings: the values alone" "
1
a|b
Zoë        

2
東京タワー
東京タワ

4
two
lines
y           " "$(cat v.txt)"

# --- widths in terminal cells, cut characters ---------------------------------------------
out=$("$IXSQL" "$DB" -c "select id, c[1,4] from t where id < 4 order by 1" 2>/dev/null \
    < /dev/null)
check "a cut character as \\xNN, widths in cells" "
         id (expression)

          1 Zoë         
          2 東\\xE4      
          3 x           " "$out"
out=$("$IXSQL" "$DB" --format=vertical -c "select c[1,5] cut from t where id = 2" 2>/dev/null \
    < /dev/null)
check "vertical: a cut character as \\xNN" "
cut  東\\xE4\\xBA" "$out"
out=$("$IXSQL" "$DB" --format=unaligned -c "select c[1,4] from t where id = 2" 2>/dev/null \
    < /dev/null | od -An -tx1 | tr -d ' \n')
check "unaligned: the server's bytes as they are" "2865787072657373696f6e290ae69db1e40a" "$out"
out=$(LC_ALL=C "$IXSQL" "$DB" -c "select id, c from t where id = 2" 2>/dev/null < /dev/null)
check "a locale that is not UTF-8: one cell a character" "
         id c           

          2 東京タワ        " "$out"

K=東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京
printf "select '%s' frm t;\n" "$K" > long.sql
out=$("$IXSQL" "$DB" long.sql 2>&1 < /dev/null)
contains "a failed statement's name: 72 cells, whole characters" \
    "Failed statement at line 1: select '東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京東京 ..." \
    "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
