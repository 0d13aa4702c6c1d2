# lib.sh: what the shell tests share (sourced): pass/fail counting with
# check, and start_ixd, which starts ixd on a fresh temporary directory and
# stops it and removes the directory when the test exits.
pass=0 fail=0
check() { # name expected actual
    if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        printf 'not ok - %s\n--- expected\n%s\n--- got\n%s\n---\n' "$1" "$2" "$3"
    fi
}

# start_ixd TAG [ixd options...]: ixd on 127.0.0.1 and a free port, its data
# in $DIR/db, its log in $DIR/ixd.log; sets DIR, IXD_PID and URL (the
# informix user's DSN without a database).
start_ixd() {
    tag=$1
    shift
    DIR=$(mktemp -d "${TMPDIR:-/tmp}/$tag.XXXXXX")
    "$IXD" --data "$DIR/db" --listen 127.0.0.1:0 --port-file "$DIR/port" "$@" 2> "$DIR/ixd.log" &
    IXD_PID=$!
    trap 'kill -TERM $IXD_PID 2>/dev/null; wait $IXD_PID 2>/dev/null; rm -rf "$DIR"' EXIT
    i=0
    while [ ! -s "$DIR/port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$DIR/port" ] || { echo "ixd did not start"; cat "$DIR/ixd.log"; echo "0 passed, 1 failed"; exit 1; }
    URL="informix://informix:in4mix@127.0.0.1:$(cat "$DIR/port")"
}
