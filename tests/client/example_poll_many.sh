#!/bin/sh
# example_poll_many.sh EXAMPLE IXD: runs examples/poll_many (100 queries on
# 10 connections from one thread with poll()) against a fresh ixd.
set -u
EXAMPLE=$1
IXD=$2
DIR=$(mktemp -d /tmp/ixdpollmany.XXXXXX)
"$IXD" --data "$DIR" --listen 127.0.0.1:0 --port-file "$DIR/port" 2> "$DIR/ixd.log" &
IXD_PID=$!
trap 'kill -TERM $IXD_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$DIR"' EXIT
i=0
while [ ! -s "$DIR/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -s "$DIR/port" ] || { echo "ixd did not start"; cat "$DIR/ixd.log"; exit 1; }
out=$("$EXAMPLE" "host=127.0.0.1 port=$(cat "$DIR/port") user=informix password=in4mix" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] && [ "$out" = "100 queries, 0 wrong" ] || { echo "not ok - poll_many (rc=$rc)"; exit 1; }
echo "ok - poll_many"
