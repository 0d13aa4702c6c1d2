#!/bin/sh
# bench/run_all.sh: the comparison benchmarks (docs/benchmarks-comparisons.md)
# and their report. Used by `make bench` and `make bench-quick`.
#
#   sh bench/run_all.sh [BUILD_DIR=build] [--quick]
#
# Writes bench/results/: report.md (goals, proxy self-test, instructions per
# row, round trips, table 1, table 2, table 3), goals.md, instr.md/.tsv, rtt.md,
# table1.md, table2.md, table3.md, table3_py.md, proxy_selftest.txt, py_drivers.txt/.tsv,
# drivers.dat, fetchbuf.rtt*.dat and, when gnuplot is available, drivers.png
# and fetchbuf.png. When gnuplot is missing the script installs Debian's
# gnuplot-nox (as root; BENCH_INSTALL_GNUPLOT=0 turns that off) and skips the
# plots if it cannot. Each program runs under `timeout`.
set -u
BUILD=build
QUICK=
for a in "$@"; do
    case "$a" in
    --quick) QUICK=--quick ;;
    *) BUILD=$a ;;
    esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
RES=bench/results
mkdir -p "$RES"
if [ -n "$QUICK" ]; then T=300; else T=7200; fi

cmake --build "$BUILD" --target bench ixd || exit 1

echo "== ixproxy self-test"
timeout 120 "$BUILD/ixproxy" --selftest --pings 2000 >"$RES/proxy_selftest.txt" || exit 1
timeout 120 "$BUILD/ixproxy" --selftest --rtt-ms 5 --pings 200 >>"$RES/proxy_selftest.txt" || exit 1
cat "$RES/proxy_selftest.txt"

echo "== instructions per row (callgrind)"
INSTRARG=
if timeout "$T" "$BUILD/bench_instr" $QUICK --tsv "$RES/instr.tsv" >"$RES/instr.md"; then
    [ -s "$RES/instr.tsv" ] && INSTRARG="--instr $RES/instr.tsv"
else
    echo "bench_instr failed; instruction counts left out" >>"$RES/instr.md"
fi
cat "$RES/instr.md"

echo "== instructions per accessor call (callgrind)"
timeout "$T" "$BUILD/bench_accessors" >"$RES/accessors.md" ||
    echo "bench_accessors failed; accessor table left out" >>"$RES/accessors.md"
cat "$RES/accessors.md"

echo "== round trips per statement (proxy, 20 ms)"
timeout "$T" "$BUILD/bench_rtt" $QUICK >"$RES/rtt.md" || exit 1
cat "$RES/rtt.md"

echo "== table 1, Python side"
PYARG=
rm -f "$RES/py_drivers.tsv"
if [ -d "$BUILD/python/ixdb" ] && command -v python3 >/dev/null 2>&1; then
    if IXD_BIN="$BUILD/ixd" IXDB_PYTHONPATH="$BUILD/python" timeout "$T" \
        python3 bench/bench_py_drivers.py $QUICK --out "$RES/py_drivers.tsv" \
        >"$RES/py_drivers.txt" 2>&1; then
        PYARG="--py $RES/py_drivers.tsv"
    else
        echo "bench_py_drivers.py failed (see $RES/py_drivers.txt); Python column left empty"
    fi
    cat "$RES/py_drivers.txt"
else
    echo "no Python module in $BUILD/python: Python column left empty" | tee "$RES/py_drivers.txt"
fi

echo "== table 1, C side"
# shellcheck disable=SC2086
timeout "$T" "$BUILD/bench_drivers" $QUICK $PYARG $INSTRARG --dat "$RES/drivers.dat" \
    >"$RES/table1.md" || exit 1
cat "$RES/table1.md"

echo "== table 2"
timeout "$T" "$BUILD/bench_fetchbuf" $QUICK --dat "$RES/fetchbuf" >"$RES/table2.md" || exit 1
cat "$RES/table2.md"

echo "== table 3 (TimeSeries)"
timeout "$T" "$BUILD/bench_ts" $QUICK >"$RES/table3.md" || exit 1
cat "$RES/table3.md"

echo "== table 3, Python side (TimeSeries)"
if [ -d "$BUILD/python/ixdb" ] && command -v python3 >/dev/null 2>&1; then
    IXD_BIN="$BUILD/ixd" IXDB_PYTHONPATH="$BUILD/python" timeout "$T" \
        python3 bench/bench_py_ts.py $QUICK >"$RES/table3_py.md" 2>&1 ||
        echo "bench_py_ts.py failed; Python TimeSeries figures left out" >>"$RES/table3_py.md"
else
    echo "no Python module in $BUILD/python: Python TimeSeries figures left out" >"$RES/table3_py.md"
fi
cat "$RES/table3_py.md"

# every goal, from the "| goal: " rows the programs print beside their figures
{
    echo "## Goals"
    echo
    echo "Collected from the sections below (\"met\", or how far the figure still is)."
    echo
    echo "| goal | measured | target | status |"
    echo "|---|---:|---:|---|"
    cat "$RES/instr.md" "$RES/rtt.md" "$RES/py_drivers.txt" "$RES/table1.md" "$RES/table2.md" \
        "$RES/table3.md" "$RES/table3_py.md" |
        grep '^| goal: ' | sed 's/^| goal: /| /'
} >"$RES/goals.md"
cat "$RES/goals.md"

PLOTS="(plots skipped: gnuplot not found and could not be installed; install gnuplot-nox)"
if ! command -v gnuplot >/dev/null 2>&1 && [ "${BENCH_INSTALL_GNUPLOT:-1}" = 1 ] &&
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    { timeout 600 apt-get install -y gnuplot-nox || { timeout 600 apt-get update -qq &&
        timeout 600 apt-get install -y gnuplot-nox; }; } >/dev/null 2>&1 || true
fi
if command -v gnuplot >/dev/null 2>&1; then
    if timeout 120 gnuplot -e "resdir='$RES'" bench/plot.gp; then
        PLOTS="![table 1](drivers.png)

![table 2](fetchbuf.png)"
    else
        PLOTS="(plots failed: gnuplot error)"
    fi
fi

{
    echo "# ixdb comparison benchmarks${QUICK:+ (quick)}"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (modified tree)'), $(uname -srm), $(nproc) CPUs, $(${CC:-cc} --version 2>/dev/null | head -1)."
    echo "Method: docs/benchmarks-comparisons.md."
    echo
    cat "$RES/goals.md"
    echo
    echo "## Proxy self-test"
    echo
    echo '```'
    cat "$RES/proxy_selftest.txt"
    echo '```'
    echo
    cat "$RES/instr.md"
    echo
    cat "$RES/rtt.md"
    echo
    cat "$RES/table1.md"
    echo
    echo "Python side (bench_py_drivers.py):"
    echo
    echo '```'
    cat "$RES/py_drivers.txt"
    echo '```'
    echo
    cat "$RES/table2.md"
    echo
    cat "$RES/table3.md"
    echo
    cat "$RES/table3_py.md"
    echo
    echo "## Plots"
    echo
    echo "$PLOTS"
} >"$RES/report.md"
echo "== report: $RES/report.md"
