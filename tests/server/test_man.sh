#!/bin/sh
# The man pages docs/ixd.1, docs/ixwire.1, docs/ixprobe.1 and docs/libixdb.3:
# groff renders each without a warning; ixd.1, ixwire.1 and ixprobe.1 name
# every option their program's --help prints; libixdb.3's example compiles
# against ixdb.h.
# usage: test_man.sh GROFF CC SOURCE_DIR IXD IXWIRE IXPROBE
GROFF=$1
CC=$2
SRC=$3
IXD=$4
IXWIRE=$5
IXPROBE=$6
. "$SRC/tests/shell/lib.sh"
tmp=$(mktemp -d /tmp/ixdman.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

for page in ixd.1 ixwire.1 ixprobe.1 libixdb.3; do
    warnings=$("$GROFF" -man -ww -z "$SRC/docs/$page" 2>&1)
    check "groff -man -ww renders $page without warnings" "" "$warnings"
done

# Every option of PROG --help, short and long, appears in PAGE.
names_options() { # PROG PAGE
    text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$2")
    opts=$("$1" --help | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z-]*' | sed 's/^[ ,]*//' | sort -u)
    [ -n "$opts" ] || check "$1 --help lists options" "some" ""
    for o in $opts; do
        case $text in
        *"$o"*) pass=$((pass + 1)) ;;
        *) check "$(basename "$2") names $o" "present" "missing" ;;
        esac
    done
}
names_options "$IXD" "$SRC/docs/ixd.1"
names_options "$IXWIRE" "$SRC/docs/ixwire.1"
names_options "$IXPROBE" "$SRC/docs/ixprobe.1"

# The EXAMPLES section of libixdb.3, with roff's escapes undone, compiles.
sed -n '/^\.SH EXAMPLES/,/^\.SH SEE ALSO/p' "$SRC/docs/libixdb.3" | sed -e '/^\./d' \
    -e 's/\\-/-/g' -e 's/\\e/\\/g' > "$tmp/example.c"
if "$CC" -std=c17 -Wall -Wextra -Werror -fsyntax-only -I "$SRC/include" "$tmp/example.c" \
    2> "$tmp/cc.log"; then
    pass=$((pass + 1))
else
    check "libixdb.3's example compiles" "" "$(cat "$tmp/cc.log")"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
