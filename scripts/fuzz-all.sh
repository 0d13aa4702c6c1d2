#!/bin/sh
# Long fuzzing runs (make fuzz): every libFuzzer target in BUILD runs on a
# scratch copy of its corpus (the repository's corpus keeps only seeds and
# crash reproducers) until it has executed RUNS inputs or run SECONDS,
# whichever comes first.
#   usage: fuzz-all.sh [BUILD [RUNS [SECONDS]]]   (build-asan, 10000000, 1800)
# Prints one line per target: its executions and time. A target that crashes
# (or leaks, times out, runs out of memory) does not stop the others; its
# line names the input libFuzzer saved (under BUILD/fuzz-artifacts/) and its
# log, and the script exits 1 at the end.
set -u
BUILD=${1:-build-asan}
RUNS=${2:-10000000}
SECONDS_MAX=${3:-1800}
MAX_LEN=4096
HERE=$(cd "$(dirname "$0")/.." && pwd)
ARTIFACTS="$BUILD/fuzz-artifacts"
mkdir -p "$ARTIFACTS"
failed=0

# Inputs executed, from libFuzzer's final statistics in log $1 or else from
# its last status line ("#1234  pulse ...").
executions() {
    n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$1" | grep -o '[0-9]*$' | tail -n 1)
    [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$1" | tr -d '#' | tail -n 1)
    echo "${n:-?}"
}

for bin in "$BUILD"/tests/fuzz_*; do
    case "$bin" in *_replay) continue ;; esac
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    work=$(mktemp -d)
    cp -r "$HERE/tests/fuzz/corpus/$name/." "$work/" 2>/dev/null || true
    log="$BUILD/$name.log"
    start=$(date +%s)
    "$bin" -runs="$RUNS" -max_total_time="$SECONDS_MAX" -max_len="$MAX_LEN" \
        -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$name-" "$work" > "$log" 2>&1
    rc=$?
    took=$(($(date +%s) - start))
    execs=$(executions "$log")
    rm -rf "$work"
    if [ "$rc" -eq 0 ]; then
        echo "$name: $execs executions in ${took}s"
        continue
    fi
    failed=1
    saved=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    echo "$name: FAILED (exit $rc) after $execs executions in ${took}s;" \
        "input: ${saved:-none saved}; log: $log"
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz-all: some targets failed; their inputs are in $ARTIFACTS/"
    exit 1
fi
