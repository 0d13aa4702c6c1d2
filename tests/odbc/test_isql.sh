#!/bin/sh
# unixODBC's own clients (isql, iusql) through libixodbc against a real ixd:
# the driver registered in a temporary odbcinst.ini, DSNs in a temporary
# odbc.ini (ODBCSYSINI / ODBCINI point unixODBC at them), SQLConnect with a
# DSN, SQLDriverConnect with IBM's keywords (isql -k), a script of DDL, DML
# and queries with every common type and NULLs, errors with their SQLSTATE
# and the Informix text, a refused login, and the wide API through iusql.
# usage: test_isql.sh (IXD_BIN: the ixd program, IXODBC_LIB: libixodbc.so)
IXD=${IXD_BIN:?}
LIB=${IXODBC_LIB:?}
. "$(dirname "$0")/../shell/lib.sh"
command -v isql > /dev/null || { echo "isql not installed (Debian unixodbc): skipped"; exit 77; }

# ixd runs without the sanitizer runtime a sanitizer build preloads for the
# clients (ixd carries its own)
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
start_ixd odbcisql
[ -n "$preload" ] && export LD_PRELOAD="$preload"
PORT=$(cat "$DIR/port")
cat > "$DIR/odbcinst.ini" << EOF
[ixdb]
Driver = $LIB
EOF
cat > "$DIR/odbc.ini" << EOF
[nodb]
Driver = ixdb
Host = 127.0.0.1
Service = $PORT
UID = informix
PWD = in4mix

[t]
Driver = ixdb
Host = 127.0.0.1
Service = $PORT
Database = odbct
UID = informix
PWD = in4mix
CLIENT_LOCALE = en_US.utf8
EOF
export ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" HOME="$DIR"

out=$(echo "CREATE DATABASE odbct WITH LOG" | isql -b -v nodb 2>&1)
check "create database through a DSN without one" "SQLRowCount returns 0" "$out"

out=$(isql -b -v -d'|' -c t 2>&1 << 'EOF'
CREATE TABLE t1 (id SERIAL, name VARCHAR(20), c CHAR(4), n DECIMAL(10,2), f FLOAT, d DATE, ts DATETIME YEAR TO SECOND, b BOOLEAN, i8 INT8)
INSERT INTO t1 VALUES (0, 'one', 'ab', 12.5, 0.25, '01/02/2024', '2024-01-02 03:04:05', 't', 9007199254740993)
INSERT INTO t1 VALUES (0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
INSERT INTO t1 (name) VALUES ('héllo wörld')
UPDATE t1 SET n = -0.05 WHERE id = 2
SELECT id, name, c, n, f, d, ts, b, i8 FROM t1 ORDER BY id
SELECT COUNT(*) AS n FROM t1 WHERE name IS NULL
EOF
)
check "a script of DDL, DML and queries" "id|name|c|n|f|d|ts|b|i8
1|one|ab  |12.50|0.25|2024-01-02|2024-01-02 03:04:05|1|9007199254740993
2|||-0.05|||||
3|héllo wörld|||||||
n
1" "$out"

out=$(isql -b -v t 2>/dev/null << 'EOF'
SELECT nope FROM t1
SELECT 1 FROM nosuch
INSERT INTO t1 (d) VALUES ('notadate')
SELEC 1
EOF
)
check "errors: SQLSTATE and Informix's text" "[S0022][ixdb][libixodbc]Column (nope) not found in any table in the query (or SLV is undefined).
[S0002][ixdb][libixodbc]The specified table (nosuch) is not in the database.
[IX000][ixdb][libixodbc]String to date conversion error.
[37000][ixdb][libixodbc]A syntax error has occurred." "$out"

out=$(echo "SELECT id, name FROM t1 WHERE id = 1" |
      isql -b -v -d'|' -c -k "DRIVER=ixdb;HOST=127.0.0.1;SERVICE=$PORT;DATABASE=odbct;UID=informix;PWD={in4mix}" 2>&1)
check "SQLDriverConnect with IBM's keywords" "id|name
1|one" "$out"

# iusql prints each UTF-16 unit as one byte: Latin-1 here (its own string
# copies overlap: a sanitizer build leaves them unchecked)
out=$(echo "SELECT name FROM t1 WHERE id = 3" | ASAN_OPTIONS="${ASAN_OPTIONS:-}:replace_str=0" iusql -b -v -d'|' t 2>/dev/null | iconv -f latin1 -t utf-8)
check "iusql: the wide API (SQL_C_WCHAR) through the driver manager" "héllo wörld" "$out"

# a message naming a non-ASCII constraint, through the driver's wide
# functions (iusql connects with SQLConnectW), whole and without NULs
printf 'CREATE TABLE tu (n INT UNIQUE CONSTRAINT ünïq)\nINSERT INTO tu VALUES (1)\n' | isql -b t > /dev/null 2>&1
out=$(echo "INSERT INTO tu VALUES (1)" | ASAN_OPTIONS="${ASAN_OPTIONS:-}:replace_str=0" iusql -b -v t 2>/dev/null | tr '\000' '@' | iconv -f latin1 -t utf-8)
check "iusql: a non-ASCII name in a message" "[ixdb][libixodbc]Unique constraint (informix.ünïq) violated. [-100: ISAM error: duplicate value for a record with unique key.]" "$out"

out=$(echo "SELECT 1 FROM t1" | isql -b -v t wronguser badpw 2>/dev/null)
check "a refused login" "[28000][unixODBC][ixdb][libixodbc]Incorrect password or user wronguser is not known on the database server." "$out"

out=$(echo "SELECT 1 FROM t1" | isql -b -v -k "DRIVER=ixdb;HOST=127.0.0.1;SERVICE=1;UID=informix;PWD=x" 2>/dev/null | cut -c1-24)
check "a server that is not there" "[08001][ixdb][libixodbc]" "$out"

# Service by name, from the services database: http is port 80, where no
# server listens here; an unknown name is refused before any connect
out=$(echo "SELECT 1 FROM t1" | isql -b -v -k "DRIVER=ixdb;HOST=127.0.0.1;SERVICE=http;UID=informix;PWD=x" 2>/dev/null)
check "a service name looked up" "[08001][ixdb][libixodbc]connect: Connection refused (127.0.0.1 port 80)" "$out"
out=$(echo "SELECT 1 FROM t1" | isql -b -v -k "DRIVER=ixdb;HOST=127.0.0.1;SERVICE=nosuchsvc;UID=informix;PWD=x" 2>/dev/null)
check "an unknown service name" "[08001][ixdb][libixodbc]Service nosuchsvc is not in the services database" "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
