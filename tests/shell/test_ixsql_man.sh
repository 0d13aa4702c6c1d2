#!/bin/sh
# docs/ixsql.1: groff renders it without a warning, and it names every option
# that ixsql --help prints (short and long).
# usage: test_ixsql_man.sh IXSQL GROFF MANPAGE
IXSQL=$1
GROFF=$2
MAN=$3
. "$(dirname "$0")/lib.sh"

warnings=$("$GROFF" -man -ww -z "$MAN" 2>&1)
check "groff -man -ww renders it without warnings" "" "$warnings"

# The page's text with roff's escapes of '-' and of fonts undone.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$MAN")
opts=$("$IXSQL" --help | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z-]*' | sed 's/^[ ,]*//' | sort -u)
[ -n "$opts" ] || check "ixsql --help lists options" "some" ""
for o in $opts; do
    case $text in
    *"$o"*) pass=$((pass + 1)) ;;
    *) check "the man page names $o" "present" "missing" ;;
    esac
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
