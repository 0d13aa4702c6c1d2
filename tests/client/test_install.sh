#!/bin/sh
# test_install.sh BUILD CC [EXTRA_CFLAGS]: installs the build tree into a
# scratch prefix (cmake --install), checks the layout and the soname, then
# compiles tests/client/install_prog.c against the installed tree with
# pkg-config, linked to the shared library and to the static archive, and
# runs both.
set -eu
build=$1
cc=$2
extra=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d /tmp/ixdb-install.XXXXXX)
trap 'rm -rf "$prefix"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }

cmake --install "$build" --prefix "$prefix" >"$prefix/install.log" 2>&1 || {
    cat "$prefix/install.log"
    bad "cmake --install"
    echo "$pass passed, $fail failed"
    exit 1
}
pc=$(find "$prefix" -name ixdb.pc | head -n 1)
[ -n "$pc" ] && ok || bad "no ixdb.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in "$prefix/include/ixdb.h" "$libdir/libixdb.a" "$libdir/libixdb.so" "$libdir/libixdb.so.0" \
    "$prefix/bin/ixd" "$prefix/bin/ixwire"; do
    [ -e "$f" ] && ok || bad "missing $f"
done
# With the shell built: ixsql and its man page.
if [ -e "$build/ixsql" ]; then
    for f in "$prefix/bin/ixsql" "$prefix/share/man/man1/ixsql.1"; do
        [ -e "$f" ] && ok || bad "missing $f"
    done
fi
soname=$(readelf -d "$libdir/libixdb.so" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
[ "$soname" = "libixdb.so.0" ] && ok || bad "soname is '$soname', not libixdb.so.0"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
flags=$(pkg-config --cflags --libs ixdb) && ok || bad "pkg-config --cflags --libs ixdb"
# shellcheck disable=SC2086
if $cc $extra "$here/install_prog.c" -o "$prefix/prog" $flags; then ok; else bad "compile (shared)"; fi
if LD_LIBRARY_PATH="$libdir" "$prefix/prog"; then ok; else bad "run (shared)"; fi
# Static: the archive plus the private dependencies pkg-config lists.
static_libs=$(pkg-config --static --libs ixdb | sed 's/-lixdb//')
# shellcheck disable=SC2086
if $cc $extra "$here/install_prog.c" -o "$prefix/prog_static" $(pkg-config --cflags ixdb) \
    "$libdir/libixdb.a" $static_libs; then ok; else bad "compile (static)"; fi
if "$prefix/prog_static"; then ok; else bad "run (static)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
