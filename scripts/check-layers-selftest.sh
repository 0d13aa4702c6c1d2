#!/bin/sh
# check-layers-selftest.sh ROOT BUILD: check-layers.py fails on deliberate
# violations: an include of the client's header from the codec, an include of
# the engine's private header from the session, a server file reporting an
# error other than through the one channel (a bare SQLCODE, the legacy
# "ixd:" text, SQLite's message matched with strstr, a record's code set by
# hand), and the translator's calls of TimeSeries under rules that do not
# allow them. Exit 0 when all fail the check as they should.
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
# the error channel: each line appended to a server file must fail the check
f=src/server/session/ixd_lock.c
cp "$tmp/$f" "$tmp/$f.orig"
for bad in \
    'static int bad_code(ixv_err *e) { return ixv_seterr(e, -206, 0, 0, NULL); }|bare error code in ixv_seterr' \
    'static const char bad_text[] = "ixd:%d:%s";|builds the legacy "ixd:" error text' \
    'static int bad_msg(sqlite3 *h) { return strstr(sqlite3_errmsg(h), "no such") != 0; }|matches SQLite'"'"'s message text' \
    'static void bad_set(ixv_err *e) { e->sqlcode = IXV_E_NO_TABLE; }|sets an error record without ixv_seterr'; do
    cp "$tmp/$f.orig" "$tmp/$f"
    printf '%s\n' "${bad%%|*}" >>"$tmp/$f"
    out=$(python3 "$tmp/scripts/check-layers.py" "$tmp" "$build") && {
        echo "an error outside the one channel passed: ${bad%%|*}"
        exit 1
    }
    echo "$out" | grep -q -F "error $f:" || {
        echo "the error-channel violation was not named: $out"
        exit 1
    }
    echo "$out" | grep -q -F "${bad#*|}" || {
        echo "the error-channel violation was named wrongly: $out"
        exit 1
    }
done
cp "$tmp/$f.orig" "$tmp/$f" && rm "$tmp/$f.orig"
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
echo "every deliberate violation fails the check"
