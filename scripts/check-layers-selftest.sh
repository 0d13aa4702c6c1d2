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

# expect_fail WHAT PATTERN...: the check on the copy must fail, and its
# output hold every PATTERN (grep -E)
expect_fail() {
    what=$1
    shift
    out=$(python3 "$tmp/scripts/check-layers.py" "$tmp" "$build") && {
        echo "passed, but must fail: $what"
        exit 1
    }
    for pat in "$@"; do
        echo "$out" | grep -q -E -- "$pat" || {
            echo "$what: the check did not say /$pat/: $out"
            exit 1
        }
    done
}

# with_line FILE LINE WHAT PATTERN...: LINE appended to FILE fails the check
with_line() {
    f=$1 line=$2
    shift 2
    cp "$tmp/$f" "$tmp/$f.orig"
    printf '%s\n' "$line" >>"$tmp/$f"
    expect_fail "$@"
    mv "$tmp/$f.orig" "$tmp/$f"
}

with_line src/proto/ix_caps.c '#include "client/ix_client_int.h"' \
    "an include of the client from the codec" \
    'not allowed.*include src/proto/ix_caps.c src/client/ix_client_int.h'
with_line src/server/session/ixd_lock.c '#include "server/engine/ixd_int.h"' \
    "an include of the engine's private header from the session" \
    'not allowed.*include src/server/session/ixd_lock.c src/server/engine/ixd_int.h'

# the error channel: each line appended to a server file fails the check
f=src/server/session/ixd_lock.c
with_line $f 'static int bad_code(ixv_err *e) { return ixv_seterr(e, -206, 0, 0, NULL); }' \
    "a bare SQLCODE" "error $f:" 'bare error code in ixv_seterr'
with_line $f 'static const char bad_text[] = "ixd:%d:%s";' \
    "the legacy error text" "error $f:" 'builds the legacy "ixd:" error text'
with_line $f 'static int bad_msg(sqlite3 *h) { return strstr(sqlite3_errmsg(h), "no such") != 0; }' \
    "SQLite's message matched" "error $f:" "matches SQLite's message text"
with_line $f 'static void bad_set(ixv_err *e) { e->sqlcode = IXV_E_NO_TABLE; }' \
    "a record set by hand" "error $f:" 'sets an error record without ixv_seterr'

# a call the rules forbid: the translator's calls of TimeSeries, with the
# rule that allows them taken away in the copy
sed -i 's/\["base", "types", "proto", "value", "ts", "api"\], \["ixs_"\]/["base", "types", "proto", "value", "api"], ["ixs_"]/' \
    "$tmp/scripts/check-layers.py"
expect_fail "a call of TimeSeries from the translator without its rule" \
    'not allowed.*call src/server/sql/ixs_ts.c src/server/ts/.* ixts_'
echo "every deliberate violation fails the check"
