#!/bin/sh
# The main job. Until the server and the client library land, it decodes a
# sample login exchange (both directions) with ixwire and prints a few values
# as dbaccess would.
set -eu
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")/.." && pwd)
IXWIRE="$BUILD/ixwire"
DATA="$HERE/tests/data"

echo "== client -> server: login request, capabilities, environment, database open"
"$IXWIRE" decode --from client - < "$DATA/sample-login.client.hex"
echo
echo "== server -> client: login accept, granted capabilities, replies"
"$IXWIRE" decode --from server - < "$DATA/sample-login.server.hex"
echo
echo "== values"
for v in "DECIMAL 0x0804 c201172d00" "MONEY 0x0c02 3c5a0c22390000" "DATE 4 000063e0" \
         "DATETIME 0x130f c7141a07130c22380c2232" "INTERVAL 0x0e4f c403031b010c223200" \
         "INT8 10 0001ffffffff7fffffff" "VARCHAR 10 0100"; do
    # shellcheck disable=SC2086
    printf '%-44s -> %s\n' "$v" "$("$IXWIRE" value $v)"
done
