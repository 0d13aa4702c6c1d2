#!/bin/sh
# Runs every libFuzzer target for RUNS executions on a scratch copy of its
# corpus (the repository's corpus keeps only seeds and crash reproducers).
# Prints one line per target with the execution count libFuzzer reported.
set -eu
BUILD=${1:-build-asan}
RUNS=${2:-10000000}
HERE=$(cd "$(dirname "$0")/.." && pwd)
for bin in "$BUILD"/tests/fuzz_*; do
    case "$bin" in *_replay) continue ;; esac
    name=$(basename "$bin")
    work=$(mktemp -d)
    cp -r "$HERE/tests/fuzz/corpus/$name/." "$work/" 2>/dev/null || true
    log="$BUILD/$name.log"
    "$bin" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$work" > "$log" 2>&1 || {
        echo "$name: FAILED (see $log)"; exit 1; }
    echo "$name: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') executions"
    rm -rf "$work"
done
