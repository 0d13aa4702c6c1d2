#!/bin/sh
# Runs one libFuzzer binary for RUNS executions from the seeds in CORPUS,
# writing what it finds to a scratch folder so the repository stays clean.
set -u
bin=$1 runs=$2 corpus=$3
scratch=$(mktemp -d)
"$bin" -runs="$runs" -seed=1 -max_len=4096 "$scratch" "$corpus"
rc=$?
rm -rf "$scratch"
exit $rc
