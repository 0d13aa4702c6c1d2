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

# examples/hello.c built exactly as docs/c-api.md "Building a program" says
# (the rpath form: it runs with no LD_LIBRARY_PATH), run against a real ixd.
src=$(cd "$here/../.." && pwd)
# shellcheck disable=SC2046
if $cc $extra "$src/examples/hello.c" -o "$prefix/hello" $(pkg-config --cflags --libs ixdb) \
    -Wl,-rpath,$(pkg-config --variable=libdir ixdb); then ok; else bad "compile examples/hello.c"; fi
"$build/ixd" --data "$prefix/db" --listen 127.0.0.1:0 --port-file "$prefix/port" \
    >"$prefix/ixd.log" 2>&1 &
ixd_pid=$!
trap 'kill $ixd_pid 2>/dev/null || true; rm -rf "$prefix"' EXIT
i=0
while [ ! -s "$prefix/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
dsn="host=127.0.0.1 port=$(cat "$prefix/port") user=informix password=in4mix"
"$build/ixsql" -q "$dsn" -c "create database demo" </dev/null >/dev/null 2>&1 || bad "create database"
dsn="$dsn database=demo"
out=$(env -u LD_LIBRARY_PATH "$prefix/hello" "$dsn" 2>&1) || true
[ "$out" = "1 Ada
2 Grace
3 Edsger" ] && ok || bad "examples/hello.c with the rpath: $out"
# without the rpath the loader needs LD_LIBRARY_PATH, as docs/c-api.md says
# shellcheck disable=SC2046
$cc $extra "$src/examples/hello.c" -o "$prefix/hello_plain" $(pkg-config --cflags --libs ixdb)
out=$(env -u LD_LIBRARY_PATH "$prefix/hello_plain" "$dsn" 2>&1) && bad "ran without rpath" || ok
case "$out" in *"libixdb.so.0: cannot open shared object file"*) ok ;; *) bad "loader: $out" ;; esac
out=$(LD_LIBRARY_PATH="$libdir" "$prefix/hello_plain" "$dsn" 2>&1) && ok || bad "LD_LIBRARY_PATH: $out"
out=$(env -u LD_LIBRARY_PATH "$prefix/hello" "host=127.0.0.1 port=1" 2>&1) && bad "no server" || ok
case "$out" in "connect: SQLCODE "*) ok ;; *) bad "a failure names its SQLCODE: $out" ;; esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
