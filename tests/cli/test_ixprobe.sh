#!/bin/sh
# ixprobe against ixd (every form holds) and ixd --strict (a conservative
# real server: the table says what such a server does with each form), the
# masked capture (trace lines and hex streams that ixwire decodes), and the
# exit statuses.
# usage: test_ixprobe.sh IXPROBE IXD IXSQL IXWIRE SOURCE_DIR
IXPROBE=$1
IXD=$2
IXSQL=$3
IXWIRE=$4
. "$5/tests/shell/lib.sh"
TIMEOUT=2

# row FORM OUTPUT: the "result  detail" part of FORM's row of the table.
row() {
    printf '%s\n' "$2" | awk -v f="$1" 'substr($0, 1, length(f)) == f {
        s = substr($0, 24); sub(/ +$/, "", s); print s }'
}
# result FORM OUTPUT: FORM's result column.
result() {
    row "$1" "$2" | cut -c1-16 | sed 's/ *$//'
}

# check_hex TAG: each probe's hex streams decode with ixwire (the client's
# with the --caps list of its header), hold no password and only zero rows
# (a BYTE column's zeroed descriptor prints as <BYTE value>).
check_hex() {
    for n in 0 1 2 3 4 5 6 7 8; do
        caps=$(grep "^## .*capture\.txt\.$n\.client\.hex: --caps" "$CAP" | sed 's/.*--caps \([^;]*\);.*/\1/')
        for who in client server; do
            out=$("$IXWIRE" decode --from $who --caps "${caps:-auto}" - < "$CAP.$n.$who.hex" 2>&1)
            check "$1: probe $n's $who stream decodes" "0" "$?"
            check "$1: probe $n's $who rows masked" "" "$(printf '%s\n' "$out" | grep SQ_TUPLE |
                grep -v -e 'len=[0-9]* ([0, ]*)$' -e '(<BYTE value>)$' | head -n 2)"
        done
        check "$1: probe $n's hex without the password" "" "$(grep -l 696e346d6978 "$CAP.$n.client.hex")"
    done
}

# probe_server [ixd options]: starts ixd with a logged database, runs
# ixprobe with a capture; sets OUT, RC, CAP.
probe_server() {
    start_ixd ixprobe "$@"
    echo "create database probedb with log;" | "$IXSQL" "$URL" > "$DIR/ixsql.log" 2>&1
    CAP="$DIR/capture.txt"
    OUT=$("$IXPROBE" --timeout $TIMEOUT --capture "$CAP" "$URL/probedb" 2>&1)
    RC=$?
}

probe_server
check "ixd: exit status" 0 $RC
check "ixd: conservative forms" "forms:   open_fetch,fetch_1m" "$(printf '%s\n' "$OUT" | grep '^forms:')"
for f in "pipelined login" "deferred EXECUTE" "deferred SELECT" "NFETCH > 32767" \
    "urgent-byte interrupt" "SQ_RBWORK" "smart LOB fast path" "BYTE bind (SQ_BBIND)"; do
    check "ixd: $f" "held" "$(result "$f" "$OUT")"
done
case $(row "NFETCH > 32767" "$OUT") in
*"NFETCH 1048576: all "*" rows came") pass=$((pass + 1)) ;;
*) check "ixd: NFETCH size and rows" "NFETCH 1048576: all N rows came" "$(row "NFETCH > 32767" "$OUT")" ;;
esac
check "capture: one header per probe" 9 "$(grep -c '^## ' "$CAP")"
check "capture: both directions" "yes" "$(grep -q '^C->S SQ_PREPARE' "$CAP" && grep -q '^S->C SQ_TUPLE' "$CAP" && echo yes)"
check "capture: row values masked" "" "$(grep 'SQ_TUPLE' "$CAP" | grep -v 'len=[0-9]* ([*, ]*)$' | head -n 3)"
check "capture: no password" "" "$(grep -l in4mix "$CAP")"
check "capture: the login without the password" "yes" "$(grep -q 'CONREQ .*password=<6 bytes>' "$CAP" && echo yes)"
# Exactly one unverified form per probe: no NFETCH above 32767 outside its
# own probe.
check "capture: big NFETCH only in its probe" "" "$(awk '/^## / { f = $0 }
    /SQ_NFETCH/ { n = $0; sub(/.*bufsize=/, "", n); sub(/ .*/, "", n)
                  if (n + 0 > 32767 && index(f, "## NFETCH > 32767 ") != 1) print f ": " $0 }' "$CAP")"
check "capture: the big NFETCH sent" "yes" "$(grep -q 'SQ_NFETCH bufsize=1048576' "$CAP" && echo yes)"
check_hex ixd
rows=$(row "NFETCH > 32767" "$OUT" | sed -n 's/.*all \([0-9]*\) rows came/\1/p')
check "hex: the rows are in the capture" "${rows:-?}" "$("$IXWIRE" decode --from server - < "$CAP.4.server.hex" | grep -c 'SQ_TUPLE.*len=8')"
kill -TERM "$IXD_PID"
wait "$IXD_PID" 2> /dev/null
rm -rf "$DIR"

probe_server --strict
check "strict: exit status" 0 $RC
check "strict: conservative forms" "forms:   open_fetch" "$(printf '%s\n' "$OUT" | grep '^forms:')"
check "strict: pipelined login" "no answer" "$(result "pipelined login" "$OUT")"
check "strict: deferred EXECUTE" "refused          deferred INSERT: SQLCODE -404: The cursor or statement is not available." \
    "$(row "deferred EXECUTE" "$OUT")"
check "strict: deferred SELECT" "refused          deferred SELECT: SQLCODE -404: The cursor or statement is not available." \
    "$(row "deferred SELECT" "$OUT")"
check "strict: NFETCH > 32767" "not tried        not possible: the server did not grant f62 (NFETCH sizes are an i16, at most 32767)" \
    "$(row "NFETCH > 32767" "$OUT")"
check "strict: urgent-byte interrupt" "did not hold" "$(result "urgent-byte interrupt" "$OUT")"
check "strict: SQ_RBWORK" "held" "$(result "SQ_RBWORK" "$OUT")"
# a real server's LOB and BYTE forms, which ixd --strict answers
check "strict: smart LOB fast path" "held             40000 bytes written and read back" \
    "$(row "smart LOB fast path" "$OUT")"
check "strict: BYTE bind" "held             40000 bytes inserted and read back" \
    "$(row "BYTE bind (SQ_BBIND)" "$OUT")"
check "strict capture: the fast-path calls" "yes" "$(grep -q '^C->S SQ_GETROUTINE' "$CAP" &&
    grep -q '^C->S SQ_EXFPROUTINE' "$CAP" && grep -q '^S->C SQ_FPROUTINE' "$CAP" && echo yes)"
check "strict capture: SQ_BBIND and SQ_BLOB" "yes" "$(grep -q '^C->S SQ_BBIND' "$CAP" &&
    grep -q '^C->S SQ_BLOB' "$CAP" && echo yes)"
check_hex strict

# Exit statuses: usage errors 2, no server 1, --help 0.
"$IXPROBE" > /dev/null 2>&1
check "no DSN: exit 2" 2 $?
"$IXPROBE" --timeout 0 "$URL" > /dev/null 2>&1
check "--timeout 0: exit 2" 2 $?
"$IXPROBE" --bogus "$URL" > /dev/null 2>&1
check "unknown option: exit 2" 2 $?
check "--help" "usage: ixprobe [--timeout SECS] [--capture FILE] DSN" "$("$IXPROBE" --help | head -n 1)"
"$IXPROBE" --timeout 1 "informix://informix:in4mix@127.0.0.1:1/probedb" > /dev/null 2>&1
check "no server: exit 1" 1 $?

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
