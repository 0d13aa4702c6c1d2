#!/bin/sh
# The main job (make run): start ixd on a temporary data directory, build a
# demo database holding every type, run real queries through ixsql and print
# what dbaccess would print, show one deliberate error, stop ixd. Then a short
# look at the wire with ixwire. Exits 0 only if every step (except the
# deliberate error, which must fail) worked.
set -eu
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")/.." && pwd)
IXD="$BUILD/ixd"
IXSQL="$BUILD/ixsql"
IXWIRE="$BUILD/ixwire"
for b in "$IXD" "$IXSQL" "$IXWIRE"; do
    [ -x "$b" ] || { echo "run-main: $b is missing (build first)" >&2; exit 1; }
done

DATA=$(mktemp -d "${TMPDIR:-/tmp}/ixdb-run.XXXXXX")
IXD_PID=
stop_ixd() {
    if [ -n "$IXD_PID" ]; then
        kill -TERM "$IXD_PID" 2>/dev/null || true
        wait "$IXD_PID" 2>/dev/null || true
        IXD_PID=
    fi
}
cleanup() {
    stop_ixd
    rm -rf "$DATA"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

"$IXD" --data "$DATA/db" --listen 127.0.0.1:0 --port-file "$DATA/port" 2> "$DATA/ixd.log" &
IXD_PID=$!
i=0
while [ ! -s "$DATA/port" ]; do
    i=$((i + 1))
    if [ $i -gt 100 ] || ! kill -0 "$IXD_PID" 2>/dev/null; then
        echo "run-main: ixd did not start" >&2
        cat "$DATA/ixd.log" >&2
        exit 1
    fi
    sleep 0.05
done
PORT=$(cat "$DATA/port")
DSN="informix://informix:in4mix@127.0.0.1:$PORT"
echo "== ixd listening on 127.0.0.1:$PORT (data in $DATA)"

echo "== ixsql -f scripts/demo-setup.sql: a demo database with every type"
if ! "$IXSQL" "$DSN" -f "$HERE/scripts/demo-setup.sql" > "$DATA/setup.out" 2>&1; then
    cat "$DATA/setup.out"
    echo "run-main: the demo database could not be built" >&2
    exit 1
fi
# Summarise the confirmations (Table created. x4, 1 row(s) inserted. x16, ...).
grep -v '^$' "$DATA/setup.out" | sort | uniq -c | sed 's/^/  /'

echo
echo "== ixsql -f scripts/demo.sql"
"$IXSQL" "$DSN/shop" -f "$HERE/scripts/demo.sql" 2>&1

echo "== a deliberate error (a duplicate key, then ORDER without BY on line 3)"
if "$IXSQL" "$DSN/shop" -c "insert into product (code, name) values (1, 'Tape drive')" \
        -c "select name
  from product
 order name" 2>&1; then
    echo "run-main: the deliberate error did not fail" >&2
    exit 1
fi
echo "(ixsql exit status 2: both statements failed, as expected)"

# Stop ixd with SIGTERM; it must exit cleanly (status 0).
kill -TERM "$IXD_PID"
st=0
wait "$IXD_PID" || st=$?
IXD_PID=
if [ "$st" -ne 0 ]; then
    echo "run-main: ixd exited with status $st" >&2
    exit 1
fi
echo
echo "== ixd stopped (SIGTERM, exit status 0)"

echo
echo "== ixwire: a recorded login exchange, client side"
"$IXWIRE" decode --from client - < "$HERE/tests/data/sample-login.client.hex" | head -n 8
echo "   ..."
echo "== ixwire: values as dbaccess prints them"
for v in "DECIMAL 0x0804 c201172d00" "MONEY 0x0c02 3c5a0c22390000" "DATE 4 000063e0" \
         "DATETIME 0x130f c7141a07130c22380c2232" "INTERVAL 0x0e4f c403031b010c223200"; do
    # shellcheck disable=SC2086
    printf '%-44s -> %s\n' "$v" "$("$IXWIRE" value $v)"
done
echo
echo "run-main: all steps worked"
