#!/bin/sh
# make install installs only what a user needs and builds no test:
#  1. cmake --install into a scratch prefix installs exactly the list below
#     (the libraries, the header, ixdb.pc, the programs, their man pages,
#     the contrib/ examples, and the ODBC driver with its odbcinst.ini): nothing else, in particular no test program;
#  2. the `installables` target (what make install builds) depends on no
#     test target, fuzz target, benchmark or the Python module;
#  3. a build configured with -DIXDB_BUILD_TESTS=OFF has no test at all.
# usage: test_install_files.sh BUILD SOURCE_DIR CC
build=$1
src=$2
cc=$3
. "$src/tests/shell/lib.sh"
tmp=$(mktemp -d /tmp/ixdb-files.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if ! cmake --install "$build" --prefix "$tmp/p" > "$tmp/install.log" 2>&1; then
    check "cmake --install" "0" "$(cat "$tmp/install.log")"
fi
pc=$(find "$tmp/p" -name ixdb.pc)
libdir=$(dirname "$(dirname "$pc")")
libdir=${libdir#"$tmp/p/"}
have=$(cd "$tmp/p" && find . ! -type d | sed -e 's|^\./||' -e "s|^$libdir/|LIBDIR/|" \
    -e 's|libixdb\.so\.[0-9]*\.[0-9]*\.[0-9]*$|libixdb.so.X.Y.Z|' | LC_ALL=C sort)
want="LIBDIR/libixdb.a
LIBDIR/libixdb.so
LIBDIR/libixdb.so.0
LIBDIR/libixdb.so.X.Y.Z
LIBDIR/pkgconfig/ixdb.pc
bin/ixd
bin/ixprobe
bin/ixsql
bin/ixwire
include/ixdb.h
share/doc/ixdb/examples/hello.c
share/doc/ixdb/examples/ixd.conf
share/doc/ixdb/examples/ixd.service
share/doc/ixdb/examples/poll_many.c
share/man/man1/ixd.1
share/man/man1/ixprobe.1
share/man/man1/ixsql.1
share/man/man1/ixwire.1
share/man/man3/libixdb.3"
# the ODBC driver and its odbcinst.ini template, when unixODBC's headers were found
odbc=""
if [ -f "$build/lib/libixodbc.so" ]; then
    want=$(printf '%s\nLIBDIR/libixodbc.so\nshare/doc/ixdb/odbcinst.ini\n' "$want" | LC_ALL=C sort)
    odbc="ixodbc ixodbc_objs "
fi
check "the installed files" "$want" "$have"

# 2. The targets installables needs, from the Makefile generator's rules.
mk="$build/CMakeFiles/Makefile2"
if [ -f "$mk" ]; then
    deps=$(awk -F': ' '/^CMakeFiles\/[A-Za-z0-9_]*\.dir\/all: / {
            a = $1; b = $2; sub(/^CMakeFiles\//, "", a); sub(/\.dir\/all$/, "", a)
            sub(/^.*CMakeFiles\//, "", b); sub(/\.dir\/all$/, "", b); print a, b }' "$mk")
    need="installables" todo="installables"
    while [ -n "$todo" ]; do
        next=""
        for t in $todo; do
            for d in $(echo "$deps" | awk -v t="$t" '$1 == t { print $2 }'); do
                case " $need " in *" $d "*) ;; *) need="$need $d" next="$next $d" ;; esac
            done
        done
        todo=$next
    done
    got=$(echo $need | tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ')
    check "make install builds only these targets" \
        "installables ixcodec ixd ixdb ixdb_pkg_objs ixdb_shared ixdb_static ixdserver ${odbc}ixprobe ixsql ixwire " \
        "$got"
else
    echo "skip - not a Makefile build: the installables check needs CMakeFiles/Makefile2"
fi

# 3. IXDB_BUILD_TESTS=OFF: configured without a single test.
if cmake -S "$src" -B "$tmp/b" -DIXDB_BUILD_TESTS=OFF -DCMAKE_C_COMPILER="$cc" \
    -DIXDB_PYTHON=OFF > "$tmp/configure.log" 2>&1; then
    n=$(cd "$tmp/b" && ctest -N 2>/dev/null | sed -n 's/^Total Tests: //p')
    check "IXDB_BUILD_TESTS=OFF configures no test" "0" "${n:-none}"
    tests=$(grep -lE '^CMakeFiles/(client_test_|it_test_|test_|fuzz_|sqltest)' \
        "$tmp/b/CMakeFiles/Makefile2" 2>/dev/null)
    check "IXDB_BUILD_TESTS=OFF defines no test program" "" "$tests"
else
    check "configure with IXDB_BUILD_TESTS=OFF" "0" "$(cat "$tmp/configure.log")"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
