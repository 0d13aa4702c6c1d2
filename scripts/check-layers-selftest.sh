#!/bin/sh
# check-layers-selftest.sh ROOT BUILD: check-layers.py fails on deliberate
# violations: an include of the client's header from the codec, an include of
# the engine's private header from the session, and the translator's calls
# of TimeSeries under rules that do not allow them. Exit 0 when all three
# fail the check as they should.
set -u
root=$1 build=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/python"
cp -r "$root/src" "$root/include" "$tmp/" && cp -r "$root/python/src" "$tmp/python/" &&
    cp "$root/scripts/check-layers.py" "$root/scripts/layers-known.txt" "$tmp/scripts/" || exit 1
python3 "$tmp/scripts/check-layers.py" "$tmp" "$build" >/dev/null || {
    echo "the copy does not pass before the change"
    exit 1
}
printf '#include "client/ix_client_int.h"\n' >>"$tmp/src/proto/ix_caps.c"
out=$(python3 "$tmp/scripts/check-layers.py" "$tmp" "$build") && {
    echo "an include of the client from the codec passed"
    exit 1
}
echo "$out" | grep -q 'not allowed.*include src/proto/ix_caps.c src/client/ix_client_int.h' || {
    echo "the include was not named: $out"
    exit 1
}
sed -i '$ d' "$tmp/src/proto/ix_caps.c"
# the engine's own structs, included by the session
printf '#include "server/engine/ixd_int.h"\n' >>"$tmp/src/server/session/ixd_lock.c"
out=$(python3 "$tmp/scripts/check-layers.py" "$tmp" "$build") && {
    echo "an include of the engine's private header from the session passed"
    exit 1
}
echo "$out" | grep -q 'not allowed.*include src/server/session/ixd_lock.c src/server/engine/ixd_int.h' || {
    echo "the private include was not named: $out"
    exit 1
}
sed -i '$ d' "$tmp/src/server/session/ixd_lock.c"
# a call the rules forbid: the translator's calls of TimeSeries, with the
# rule that allows them taken away in the copy
sed -i 's/\["base", "types", "proto", "value", "ts", "api"\], \["ixs_"\]/["base", "types", "proto", "value", "api"], ["ixs_"]/' \
    "$tmp/scripts/check-layers.py"
out=$(python3 "$tmp/scripts/check-layers.py" "$tmp" "$build") && {
    echo "a call of TimeSeries from the translator passed without its rule"
    exit 1
}
echo "$out" | grep -q 'not allowed.*call src/server/sql/ixs_ts.c src/server/ts/.* ixts_' || {
    echo "the call was not named: $out"
    exit 1
}
echo "the three deliberate violations fail the check"
