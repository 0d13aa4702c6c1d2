#!/bin/sh
# ixsql and smart LOBs against a real ixd: BLOB and CLOB columns print as
# dbaccess prints them (<SBlob value>; \pset lob size and text); LOAD takes
# Informix's references (hexadecimal start_off,length,path and a bare path)
# to binary bytes, the empty value and NULL; UNLOAD writes each LOB column
# into one file next to the unload file with those references; the round
# trip UNLOAD -> LOAD -> UNLOAD gives the same bytes; a bad reference fails
# with the line and rolls the load back; --client-files lets FILETOBLOB /
# LOTOFILE 'client' use files under one directory.
# usage: test_ixsql_lob.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"
same() { # name file1 file2
    if cmp "$2" "$3"; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        printf 'not ok - %s\n' "$1"
    fi
}

start_ixd ixsqllob
cd "$DIR" || exit 1
unset DBDELIMITER
run() {
    "$IXSQL" "$@" 2>&1
    echo "rc=$?"
}

out=$(run "$URL" -q -c "create database l with log" \
    -c "create table t (id int, b blob, c clob)" -c "create table t2 (id int, b blob, c clob)")
check "setup" "rc=0" "$out"

# the data: binary bytes (a NUL, the delimiter, a newline, 0xff) and text
printf 'a\000b|c\nd\377' > bin.dat
printf 'hello, clob\nsecond line' > text.dat
head -c 200000 /dev/zero | tr '\000' 'x' > big.dat
mkdir in
printf '1|0,8,bin.dat|text.dat|\n2|3,2,bin.dat|7,4,text.dat|\n3|||\n4|0,0,bin.dat|0,0,text.dat|\n5|big.dat|big.dat|\n' > in/t.unl
out=$(run "$URL/l" -c "load from 'in/t.unl' insert into t")
check "load references" "
5 row(s) loaded.

rc=0" "$out"

out=$(run "$URL/l" -c "select id, length(b), length(c), b is null from t order by id")
check "loaded sizes" "
         id (expression) (expression)_2 (expression)_3

          1            8             23 f             
          2            2              4 f             
          3                             t             
          4            0              0 f             
          5       200000         200000 f             

5 row(s) retrieved.

rc=0" "$out"

# printing: the placeholder, the size, the CLOB's text
out=$(run "$URL/l" -c "select id, b, c from t where id in (1, 3) order by id")
check "placeholder" "
         id b             c            

          1 <SBlob value> <SBlob value>
          3                            

2 row(s) retrieved.

rc=0" "$out"
printf '\\pset lob size\nselect id, b from t where id = 2;\n\\pset lob text\nselect id, b, c from t where id in (1, 2) order by id;\n\\pset format unaligned\nselect c from t where id = 2;\n' > show.sql
out=$(run "$URL/l" show.sql)
check "size and text" "
LOB display is size.


         id b                             

          2 <SBlob value: 2 bytes>        

1 row(s) retrieved.


LOB display is text.


id  1
b   <SBlob value>
c   hello, clob
second line

id  2
b   <SBlob value>
c   clob

1 row(s) retrieved.


Output format is unaligned.

c
clob

1 row(s) retrieved.

rc=0" "$(echo "$out" | sed 's/^2 row(s) retrieved/1 row(s) retrieved/')"
out=$(run "$URL/l" -c "\\pset lob bits")
case "$out" in *"bad arguments"*"rc=1") pass=$((pass + 1)) ;; *) fail=$((fail + 1)); echo "not ok - \\pset lob bits: $out" ;; esac

# UNLOAD: one file a LOB column, next to the unload file, hexadecimal offsets
mkdir u1 u2
out=$(run "$URL/l" -c "unload to 'u1/t.unl' select * from t order by id")
check "unload" "
5 row(s) unloaded.

rc=0" "$out"
check "unload file" "1|0,8,u1/blob00000001|0,17,u1/clob00000001|
2|8,2,u1/blob00000001|17,4,u1/clob00000001|
3|||
4|a,0,u1/blob00000001|1b,0,u1/clob00000001|
5|a,30d40,u1/blob00000001|1b,30d40,u1/clob00000001|" "$(cat u1/t.unl)"
printf 'a\000b|c\nd\377|c' > want.blob
cat big.dat >> want.blob
head -c 10 want.blob > w1 && head -c 10 u1/blob00000001 > g1
same "blob file head" w1 g1
check "blob file size" "200010" "$(wc -c < u1/blob00000001 | tr -d ' ')"
check "clob file head" "hello, clob
second lineclob" "$(head -c 27 u1/clob00000001)"

# round trip: LOAD the unload into t2, UNLOAD again: the same bytes
out=$(run "$URL/l" -c "load from 'u1/t.unl' insert into t2" -c "unload to 'u2/t.unl' select * from t2 order by id")
check "round trip" "
5 row(s) loaded.


5 row(s) unloaded.

rc=0" "$out"
sed 's,u1/,u2/,g' u1/t.unl > want.unl
same "round trip: unload file" want.unl u2/t.unl
same "round trip: blob file" u1/blob00000001 u2/blob00000001
same "round trip: clob file" u1/clob00000001 u2/clob00000001
# a second UNLOAD into the same directory takes new names
out=$(run "$URL/l" -q -c "unload to 'u2/t.unl' select id, c from t2 where id = 2")
check "second unload names" "2|0,4,u2/clob00000002|" "$(cat u2/t.unl)"

# a bad reference: the line, the column, and nothing loaded
printf '7|0,1,bin.dat|0,1,text.dat|\n8|0,1,nosuch.dat||\n' > in/bad.unl
out=$(run "$URL/l" -c "load from 'in/bad.unl' insert into t")
check "bad reference" "
ixsql: cannot open nosuch.dat: No such file or directory
Column 2.
  847: Error in load file line 2.
Row 2: 8|0,1,nosuch.dat||

rc=1" "$out"
printf '9|0,ff,bin.dat||\n' > in/short.unl
out=$(run "$URL/l" -c "load from 'in/short.unl' insert into t")
check "short file" "
ixsql: LOB file shorter than its field says: bin.dat
Column 2.
  847: Error in load file line 1.
Row 1: 9|0,ff,bin.dat||

rc=1" "$out"
out=$(run "$URL/l" -c "select count(*) from t where id >= 7")
check "nothing loaded" "
 (count(*))

          0

1 row(s) retrieved.

rc=0" "$out"

# --client-files: FILETOBLOB / LOTOFILE with the 'client' location use the
# shell's files only under the directory it names; refused without it
mkdir cf
printf 'client bytes' > cf/in.dat
out=$(run "$URL/l" -q -c "insert into t values (20, filetoblob('in.dat', 'client'), NULL)")
case $out in *9810*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)); printf 'not ok - refused without --client-files\n%s\n' "$out" ;; esac
out=$(run "$URL/l" -q --client-files=cf -c "insert into t values (20, filetoblob('in.dat', 'client'), NULL)" \
    -c "select lotofile(b, 'out.dat!', 'client') from t where id = 20")
same "filetoblob and lotofile through the shell" cf/in.dat cf/out.dat
out=$(run "$URL/l" --client-files=nosuchdir -c "select 1 from t")
case $out in *"--client-files takes a directory"*rc=126) pass=$((pass + 1)) ;; *) fail=$((fail + 1)); printf 'not ok - bad --client-files\n%s\n' "$out" ;; esac

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
