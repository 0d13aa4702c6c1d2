#!/bin/sh
# ixwire's command line: the issue's examples, NULL, decode, and exit status
# 2 with an offset for malformed input.
IXWIRE=$1
pass=0 fail=0
check() { # name expected actual
    if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "not ok - $1: expected [$2] got [$3]"; fi
}
check "DECIMAL" "123.4500" "$("$IXWIRE" value DECIMAL 0x0804 c201172d00)"
check "DATE" "01/01/1970" "$("$IXWIRE" value DATE 4 000063e0)"
check "DATE --iso" "1970-01-01" "$("$IXWIRE" value DATE 4 000063e0 --iso)"
check "NULL" "NULL" "$("$IXWIRE" value INTEGER 4 80000000)"
check "MONEY" '-$98765.43' "$("$IXWIRE" value MONEY 0x0c02 3c5a0c22390000)"
check "INTERVAL" "  3 03:27:01.12345" "$("$IXWIRE" value INTERVAL 0x0e4f c403031b010c223200)"
check "type code" "t" "$("$IXWIRE" value 45 1 000000000101)"
out=$("$IXWIRE" decode --from client 002400067465737464620000000c)
check "decode" '000000 SQ_DBOPEN "testdb" flags=0
000012 SQ_EOT' "$out"
# An NMAP-era client (7-byte offer, no f62): an i16 NFETCH size, SQ_DBLIST.
out=$("$IXWIRE" decode --from client 007e0007fffc7ffc3c8c8a00000c00040001000910000000000c001a000c)
check "decode old client" '000000 SQ_PROTOCOLS 7 bytes fffc7ffc3c8c8a ( f44 f54)
000012 SQ_EOT
000014 SQ_ID 1
000018 SQ_NFETCH bufsize=4096 arraysize=0
000024 SQ_EOT
000026 SQ_DBLIST
000028 SQ_EOT' "$out"
out=$("$IXWIRE" decode --from server 001a00056f6c6464620000097379736d6173746572000000000c)
check "decode DBLIST" '000000 SQ_DBLIST count=2 ["olddb", "sysmaster"]
000024 SQ_EOT' "$out"
# SQ_LODATA (smart-LOB data): a read-with-seek request, a read reply, a
# reply whose chunk runs past its stated size.
out=$("$IXWIRE" decode --from client 006100010003000000647d00000100000010000000000000000c)
check "decode LODATA request" '000000 SQ_LODATA op=readseek fd=3 length=100 bufsize=32000 offset=16 whence=0
000024 SQ_EOT' "$out"
out=$("$IXWIRE" decode --from server 0061000000000005000568656c6c6f00000c)
check "decode LODATA reply" '000000 SQ_LODATA op=read size=5 data=5 bytes in 1 chunks
000016 SQ_EOT' "$out"
err=$("$IXWIRE" decode --from server 00610000000000050009 2>&1 >/dev/null); rc=$?
check "LODATA chunk past size exit" 2 $rc
# Fast path: a routine look-up (the one-byte flag makes it odd-sized, so the
# EOT starts at an odd offset) and a result with a NULL CLOB and an INTEGER.
out=$("$IXWIRE" decode --from client 0065000000002766756e6374696f6e20696e666f726d69782e6966785f6c6f5f636c6f736528696e746567657229000000000c)
check "decode GETROUTINE" '000000 SQ_GETROUTINE sig="function informix.ifx_lo_close(integer)"
000049 SQ_EOT' "$out"
out=$("$IXWIRE" decode --from server 0067000200290008696e666f726d69780004636c6f62ffff00020000000000000003000c)
check "decode FPROUTINE" '000000 SQ_FPROUTINE count=2 [informix.clob(41) NULL, INTEGER 3]
000034 SQ_EOT' "$out"
check "LODATA chunk past size" "ixwire: malformed input at offset 8: SQ_LODATA chunk past the stated length" "$err"
echo 002400097379736d6173746572000000000c | "$IXWIRE" decode --from client - > /dev/null
check "decode stdin" 0 $?
err=$("$IXWIRE" value DECIMAL 0x0804 c201172d 2>&1 >/dev/null); rc=$?
check "short value exit" 2 $rc
check "short value message" "ixwire: malformed input at offset 4: DECIMAL value needs 5 bytes, got 4" "$err"
err=$("$IXWIRE" value DECIMAL 0x0804 c2ff172d00 2>&1 >/dev/null); rc=$?
check "bad value exit" 2 $rc
err=$("$IXWIRE" decode --from client 0024000674657374 2>&1 >/dev/null); rc=$?
check "truncated exit" 2 $rc
check "truncated message" "ixwire: malformed input at offset 8: input ends inside a message" "$err"
err=$("$IXWIRE" decode --from client 000c1234 2>&1 >/dev/null); rc=$?
check "unknown tag exit" 2 $rc
check "unknown tag message" "ixwire: malformed input at offset 2: unknown message tag" "$err"
err=$("$IXWIRE" decode --from server 0002 2>&1 >/dev/null); rc=$?
check "wrong direction exit" 2 $rc
"$IXWIRE" value > /dev/null 2>&1
check "usage exit" 1 $?
# getopt_long: --help on stdout with status 0, --version, an unknown option
# named, options before or after the positional arguments, --opt=value.
out=$("$IXWIRE" --help 2>/dev/null); rc=$?
check "--help exit" 0 $rc
check "--help on stdout" "usage: ixwire value TYPE ENCODED_LENGTH HEX [--iso] [--dbdate FMT] [--dbmoney FMT]" "$(echo "$out" | head -n 1)"
check "-h" "$out" "$("$IXWIRE" -h)"
check "--version" "ixwire" "$("$IXWIRE" --version | cut -d' ' -f1)"
err=$("$IXWIRE" value --bogus DATE 4 000063e0 2>&1 >/dev/null); rc=$?
check "unknown option exit" 1 $rc
case $err in *"'--bogus'"*) pass=$((pass + 1)) ;; *) check "unknown option named" "--bogus" "$err" ;; esac
check "option first" "1970-01-01" "$("$IXWIRE" value --iso DATE 4 000063e0)"
check "--dbdate=FMT" "1970/01/01" "$("$IXWIRE" value DATE 4 000063e0 --dbdate=Y4MD/)"
check "--from=server" '000000 SQ_EOT' "$("$IXWIRE" decode --from=server 000c)"
check "-f" '000000 SQ_EOT' "$("$IXWIRE" decode -f server 000c)"
"$IXWIRE" decode 000c > /dev/null 2>&1
check "decode without --from" 1 $?
"$IXWIRE" frobnicate > /dev/null 2>&1
check "unknown command" 1 $?
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
