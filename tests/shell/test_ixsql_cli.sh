#!/bin/sh
# ixsql's command line against a real ixd: the dbaccess forms
# (database@server, "- -", a file, stdin), the URL and keyword DSNs, -c,
# the options -e -a (and DBACCNOIGN) -m -q -X -V --help, the password from
# the environment and ~/.ixdbpass, the naming of a failed script statement
# and exit statuses that count the failures.
# usage: test_ixsql_cli.sh IXSQL IXD
IXSQL=$1
IXD=$2
. "$(dirname "$0")/lib.sh"
contains() { # name needle haystack
    case "$3" in *"$2"*) pass=$((pass + 1)) ;; *)
        fail=$((fail + 1))
        printf 'not ok - %s\n--- wanted somewhere\n%s\n--- got\n%s\n---\n' "$1" "$2" "$3" ;;
    esac
}

start_ixd ixsqlcli --server-name ixtest
PORT=$(cat "$DIR/port")

# A clean environment: the server "ixtest" found through sqlhosts, user
# informix, no password anywhere unless a case sets one.
mkdir "$DIR/home"
printf 'ixtest onsoctcp 127.0.0.1 %s\n' "$PORT" > "$DIR/sqlhosts"
unset IXPASSWORD INFORMIXPASSWORD DBACCNOIGN INFORMIXSERVER
export HOME="$DIR/home" USER=informix INFORMIXSQLHOSTS="$DIR/sqlhosts"
run() { # stdout and stderr together, then the exit status; stdin from nowhere
    "$IXSQL" "$@" 2>&1 < /dev/null
    echo "rc=$?"
}

"$IXSQL" "$URL" -c "create database cli" -c "create table t (id int)" \
    -c "insert into t values (1)" -c "insert into t values (2)" \
    -c "create unique index t_id on t (id)" > /dev/null 2>&1 < /dev/null

# --- --help, -V, bad usage --------------------------------------------------
out=$("$IXSQL" --help 2>/dev/null < /dev/null)
check "--help exit status" 0 $?
contains "--help on stdout" "usage: ixsql [options] [database[@server] | DSN | -] [file.sql | -]" "$out"
contains "--help names -e" "-e, --echo" "$out"
out=$("$IXSQL" --help 2>&1 >/dev/null)
check "--help: nothing on stderr" "" "$out"
out=$("$IXSQL" -V < /dev/null)
check "-V exit status" 0 $?
contains "-V" "ixsql " "$out"
out=$("$IXSQL" --version < /dev/null)
contains "--version" "ixsql " "$out"
out=$("$IXSQL" --no-such-option 2>/dev/null < /dev/null)
check "bad option: status" 126 $?
check "bad option: nothing on stdout" "" "$out"
out=$("$IXSQL" a b c 2>&1 < /dev/null)
check "too many arguments: status" 126 $?
contains "too many arguments: message" "ixsql: too many arguments" "$out"

# --- the password -------------------------------------------------------------
out=$(IXPASSWORD=in4mix run cli@ixtest -c "select count(*) n from t")
contains "database@server with \$IXPASSWORD" "          2" "$out"
contains "database@server with \$IXPASSWORD: status" "rc=0" "$out"
out=$(INFORMIXPASSWORD=in4mix run cli@ixtest -c "select count(*) n from t")
contains "\$INFORMIXPASSWORD" "rc=0" "$out"
out=$(IXPASSWORD=in4mix run "host=127.0.0.1 port=$PORT database=cli" -c "select count(*) n from t")
contains "keyword DSN, password from the environment" "rc=0" "$out"
out=$(IXPASSWORD=in4mix run "informix://informix@127.0.0.1:$PORT/cli" -c "select count(*) n from t")
contains "URL without a password, password from the environment" "rc=0" "$out"
out=$(IXPASSWORD=wrong run "$URL/cli" -c "select count(*) n from t")
contains "the DSN's password wins over the environment" "rc=0" "$out"
out=$(run cli@ixtest -c "select count(*) n from t")
check "no password, no terminal: no prompt, the server says no" "
  951: Incorrect password or user informix is not known on the database server.

rc=1" "$out"

printf '# host:port:database:user:password\nother:*:*:*:nope\nixtest:9088:cli:informix:in4\\:mix\n' > "$HOME/.ixdbpass"
chmod 600 "$HOME/.ixdbpass"
out=$(run cli@ixtest -c "select count(*) n from t")
check "~/.ixdbpass: escaped ':' in the password does not match" "
  951: Incorrect password or user informix is not known on the database server.

rc=1" "$out"
printf 'other:*:*:*:nope\nixtest:9088:cli:informix:in4mix\n' > "$HOME/.ixdbpass"
out=$(run cli@ixtest -c "select count(*) n from t")
contains "~/.ixdbpass, the matching line" "rc=0" "$out"
printf '127.0.0.1:%s:*:informix:in4mix\n' "$PORT" > "$HOME/.ixdbpass"
out=$(run "host=127.0.0.1 port=$PORT database=cli" -c "select count(*) n from t")
contains "~/.ixdbpass, host and port with a wildcard database" "rc=0" "$out"
chmod 644 "$HOME/.ixdbpass"
out=$(run "host=127.0.0.1 port=$PORT database=cli" -c "select count(*) n from t")
contains "~/.ixdbpass readable by others is ignored" "ixsql: $HOME/.ixdbpass is readable or writable by others (chmod 600): ignored" "$out"
contains "~/.ixdbpass readable by others: no password" "rc=1" "$out"
rm -f "$HOME/.ixdbpass"

# --- positional forms: database file, database -, - - -------------------------
export IXPASSWORD=in4mix
printf 'select id from t where id = 1;\n' > "$DIR/one.sql"
out=$(run cli@ixtest "$DIR/one.sql")
check "database@server file.sql" "
         id

          1

1 row(s) retrieved.

rc=0" "$out"
out=$(printf 'select id from t where id = 2;\n' | "$IXSQL" cli@ixtest - 2>&1; echo "rc=$?")
check "database - reads stdin" "
         id

          2

1 row(s) retrieved.

rc=0" "$out"
out=$(printf 'database cli;\nselect id from t where id = 2;\n' | INFORMIXSERVER=ixtest "$IXSQL" - - 2>&1; echo "rc=$?")
check "- -: the database from the script" "
Database selected.


         id

          2

1 row(s) retrieved.

rc=0" "$out"
out=$(run cli@ixtest)
check "empty standard input: nothing to do" "rc=0" "$out"
: > "$DIR/empty.sql"
out=$(run cli@ixtest "$DIR/empty.sql")
check "an empty script" "rc=0" "$out"
out=$(run cli@ixtest "$DIR/nosuch.sql")
contains "a missing script counts as a failure" "ixsql: cannot open $DIR/nosuch.sql" "$out"
contains "a missing script: status" "rc=1" "$out"

# --- -e echo, -q quiet, -m all errors, -X ---------------------------------------
out=$(run -e cli@ixtest "$DIR/one.sql")
check "-e echoes each statement" "select id from t where id = 1;

         id

          1

1 row(s) retrieved.

rc=0" "$out"
out=$(run -q cli@ixtest -c "select id from t where id = 1" -c "insert into t values (3)" -c "delete from t where id = 3")
check "-q: rows, no confirmations or counts" "
         id

          1
rc=0" "$out"
out=$(run -m cli@ixtest -c "insert into t values (1)")
check "-m: the SQLSTATE and the whole message" "
  239: Could not insert new row - duplicate value in a UNIQUE INDEX column (informix.t_id).

  100: ISAM error:  duplicate value for a record with unique key.
SQLSTATE 23000: Could not insert new row - duplicate value in a UNIQUE INDEX column (informix.t_id). [-100: ISAM error: duplicate value for a record with unique key.]

rc=1" "$out"
out=$(run cli@ixtest -c "insert into t values (1)")
case "$out" in *SQLSTATE*) fail=$((fail + 1)); echo "not ok - no SQLSTATE without -m" ;; *) pass=$((pass + 1)) ;; esac
out=$(run -X cli@ixtest -c "select count(*) from t where id = 1")
contains "-X is accepted" "rc=0" "$out"

# --- a failing script: statements named, -a, DBACCNOIGN, the count ------------
printf 'select id from t where id = 1;\nselect *\n  from nosuch;\nselect id frm t;\nselect id from t where id = 2;\n' > "$DIR/bad.sql"
out=$(run cli@ixtest "$DIR/bad.sql")
check "errors name the statement; the status counts them" "
         id

          1

1 row(s) retrieved.


  206: The specified table (nosuch) is not in the database.
Failed statement at line 2: select * ...


  201: A syntax error has occurred.
Error in line 4
Near character position 15
Failed statement at line 4: select id frm t


         id

          2

1 row(s) retrieved.

rc=2" "$out"
stop_out="
         id

          1

1 row(s) retrieved.


  206: The specified table (nosuch) is not in the database.
Failed statement at line 2: select * ...

rc=1"
out=$(run -a cli@ixtest "$DIR/bad.sql")
check "-a stops at the first error" "$stop_out" "$out"
out=$(DBACCNOIGN=1 run cli@ixtest "$DIR/bad.sql")
check "DBACCNOIGN=1 stops at the first error" "$stop_out" "$out"
out=$(DBACCNOIGN=0 run cli@ixtest "$DIR/bad.sql")
contains "DBACCNOIGN=0 goes on" "rc=2" "$out"
long=$(printf 'select %0100d from nosuch' 0)
out=$(printf '%s;\n' "$long" | "$IXSQL" cli@ixtest 2>&1)
contains "a long first line is cut in the name" "Failed statement at line 1: select 00000000000000000000000000000000000000000000000000000000000000000 ..." "$out"
out=$(run cli@ixtest -c "select * from nosuch1" -c "select * from nosuch2" -c "select * from nosuch3")
contains "-c: three failures, status 3" "rc=3" "$out"
case "$out" in *"Failed statement"*) fail=$((fail + 1)); echo "not ok - -c statements are not named" ;; *) pass=$((pass + 1)) ;; esac

# --- what a newcomer trips on -------------------------------------------------
# A '?' with nothing to bind is refused as dbaccess refuses it (-254), and
# nothing is inserted.
out=$(run cli@ixtest -c "insert into t (id) values (?)" -c "select count(*) n from t")
check "an unbound ? is -254" "
  254: Too many or too few host variables given.


          n

          2

1 row(s) retrieved.

rc=1" "$out"
# Without $USER the login name is the process's (the password database).
me=$(id -un)
out=$(env -u USER "$IXSQL" "host=127.0.0.1 port=$PORT database=cli" -c "select 1 from t" 2>&1 < /dev/null)
contains "no \$USER: the login name from the password database" "user $me is not known" "$out"
out=$(run cli@ixtest -c "create row type newcomer_rt (a int)" -c "drop row type newcomer_rt restrict")
check "row types are confirmed" "
Row type created.


Row type dropped.

rc=0" "$out"
# psql's habits: \dt, \d+ (with the indexes), \x auto, \?, \h.
out=$(run cli@ixtest -c '\dt')
contains "\\dt lists the tables" "Table name" "$out"
out=$(run cli@ixtest -c '\d+ t')
contains "\\d+ shows the columns" "id                   integer" "$out"
contains "\\d+ shows the indexes" "t_id" "$out"
out=$(run cli@ixtest -c '\x auto')
contains "\\x auto" "Expanded display is used automatically." "$out"
out=$(run cli@ixtest -c '\?')
contains "\\? outside the prompt" "LOAD FROM 'file'" "$out"
contains "the help names UNLOAD" "UNLOAD TO 'file'" "$out"
contains "the help names INFO" "INFO TABLES" "$out"
out=$(run cli@ixtest -c '\h create ta')
check "\\h CREATE TABLE" "CREATE [TEMP] TABLE [IF NOT EXISTS] t (col type [DEFAULT v] [NOT NULL]
  [PRIMARY KEY | UNIQUE | REFERENCES t2 (col)] [CHECK (cond)], ...
  [, PRIMARY KEY (cols) | UNIQUE (cols) | FOREIGN KEY (cols) REFERENCES t2])
  [WITH NO LOG] [LOCK MODE ROW | PAGE]
rc=0" "$out"
out=$(run cli@ixtest -c '\h')
contains "\\h lists the statements" "MERGE" "$out"
out=$(run cli@ixtest -c '\h frobnicate')
check "\\h of nothing known" "
ixsql: no help for frobnicate (\\h lists the statements)

rc=1" "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
