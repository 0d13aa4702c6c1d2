"""Benchmark (not a test): table 3 of docs/benchmarks-comparisons.md, Python
side. The TimeSeries routines through the ixdb Python module, on the shape
of bench/bench_ts.c: S series x N one-minute points x 3 FLOAT metrics, each
a seeded random walk in 0.01 steps.

    rows      the full series 1 as rows: ixdb.timeseries.read (oni_ts_read_rows)
    writer    the whole data set loaded through ixdb.timeseries.Writer
              (flush=1000, one commit), in elements/s
    many      oni_ts_write_many from Python: series 1 in batches of 400
              elements, one executemany of all the batches (pipelined), one
              commit, in elements/s

Each runs --rounds times (default 10, at least 10 for the goals); the
report is the median and IQR (Q3 - Q1) over the rounds, then the goals as
"| goal: " rows in bench_ts's format (bench/run_all.sh collects them).

    IXD_BIN=build/ixd IXDB_PYTHONPATH=build/python \
        python3 bench/bench_py_ts.py [--quick] [--rounds N] [--series S] [--points N]
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python", "tests"))
import ixdtest  # noqa: E402  (starts ixd, finds the built module)

ixdb = ixdtest.ixdb
from bench_py_util import bench_db, goal, stats  # noqa: E402
from ixdb import timeseries  # noqa: E402

MIN_PER_DAY = 1440
BATCH = 400  # elements per oni_ts_write_many row of "many"


def ts_text(k):
    """Minute k from 2026-01-01 00:00 (k < 30 days)."""
    return "2026-01-%02d %02d:%02d" % (1 + k // MIN_PER_DAY, k // 60 % 24, k % 60)


def make_lines(nser, npts):
    """Element text per series: random walks in cents, as text with two
    decimals (the values of bench_ts.c's data set)."""
    out = []
    r = 12345
    for s in range(nser):
        w = [2000 + 10 * s, 5000 + 10 * s, 100000 + 10 * s]
        lines = []
        for k in range(npts):
            for m in range(3):
                r = (r * 1103515245 + 12345) & 0xFFFFFFFF
                w[m] += (r >> 16) % 3 - 1
            lines.append("%s|%s|%s|%s" % (ts_text(k), *("%d.%02d" % divmod(v, 100) if v >= 0
                                                         else "-%d.%02d" % divmod(-v, 100)
                                                         for v in w)))
        out.append(lines)
    return out


def reset(cu, conn, nser):
    """A fresh TIMESERIES table with nser empty regular one-minute series."""
    try:
        cu.execute("drop table meters")
    except ixdb.Error:
        conn.rollback()
    cu.execute("create table meters (id int primary key, readings timeseries(reading_t))")
    for s in range(1, nser + 1):
        cu.execute("execute procedure oni_ts_create('meters','readings',%d,'2026-01-01 00:00',"
                   "'1 minute')" % s)
    conn.commit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--series", type=int, default=None)
    ap.add_argument("--points", type=int, default=None)
    a = ap.parse_args()
    rounds = a.rounds or (5 if a.quick else 10)
    nser = a.series or (2 if a.quick else 10)
    npts = a.points or (8 * MIN_PER_DAY if a.quick else 20160)
    if rounds < 1 or nser < 1 or not 1 <= npts <= 30 * MIN_PER_DAY:
        ap.error("rounds >= 1, series >= 1, points 1 .. %d" % (30 * MIN_PER_DAY))
    data = make_lines(nser, npts)
    n_all = nser * npts

    srv = ixdtest.Server()
    try:
        conn = bench_db(srv)
        cu = conn.cursor()
        cu.execute("create row type reading_t (ts datetime year to fraction(5), m1 float, "
                   "m2 float, m3 float)")
        conn.commit()

        t_writer, t_many, t_rows = [], [], []
        for _ in range(rounds):
            reset(cu, conn, nser)
            t0 = time.perf_counter()
            w = timeseries.Writer(conn, "meters", "readings", flush=1000)
            for k in range(npts):  # a live feed: element k of every series, then k + 1
                for s in range(nser):
                    w.write_text(s + 1, data[s][k])
            w.close()
            conn.commit()
            t_writer.append(time.perf_counter() - t0)
            assert w.written == n_all, (w.written, n_all)

            reset(cu, conn, nser)
            lines = data[0]
            rows = [("meters", "readings", 1, "\n".join(lines[k:k + BATCH]))
                    for k in range(0, npts, BATCH)]
            t0 = time.perf_counter()
            cu.executemany("execute procedure oni_ts_write_many(?, ?, ?, ?)", rows)
            conn.commit()
            t_many.append(time.perf_counter() - t0)

        # the full series as rows, over the data set the Writer loaded
        reset(cu, conn, nser)
        w = timeseries.Writer(conn, "meters", "readings", flush=1000)
        for s in range(nser):
            for line in data[s]:
                w.write_text(s + 1, line)
        w.close()
        conn.commit()
        for _ in range(rounds):
            t0 = time.perf_counter()
            got = list(timeseries.read(conn, "meters", "readings", 1))
            conn.commit()
            t_rows.append(time.perf_counter() - t0)
            assert len(got) == npts and len(got[-1]) == 4, (len(got), npts)
        conn.close()
    finally:
        srv.stop()

    print("## Table 3, Python side (bench_py_ts.py)\n")
    print("%d series x %d one-minute points x 3 FLOAT metrics = %d elements, %d rounds%s; "
          "median and IQR over the rounds.\n" % (nser, npts, n_all, rounds,
                                                 " (fewer than 10)" if rounds < 10 else ""))
    print("| workload | elements | median ms | IQR ms | elements/s |\n|---|---:|---:|---:|---:|")
    res = {}
    for name, n, ts in (("full series 1 as rows (timeseries.read)", npts, t_rows),
                        ("load, timeseries.Writer (flush=1000)", n_all, t_writer),
                        ("oni_ts_write_many, batches of %d (executemany)" % BATCH, npts, t_many)):
        med, iqr = stats(ts)
        res[name] = med
        print("| %s | %d | %.2f | %.2f | %.0f |" % (name, n, med * 1e3, iqr * 1e3, n / med))
    print("\n#### Goals (table 3, Python)\n")
    print("| goal | measured | target | status |\n|---|---:|---:|---|")
    note = None if npts == 20160 else "(%d elements)" % npts
    goal("Python TimeSeries full series as rows (timeseries.read)",
         stats(t_rows)[0] * 1e3, "ms", 8, note)
    goal("Python TimeSeries load (timeseries.Writer)",
         n_all / stats(t_writer)[0] / 1e6, "M elements/s", 1.0, le=False)
    goal("Python TimeSeries oni_ts_write_many, batches of %d" % BATCH,
         npts / stats(t_many)[0] / 1e6, "M elements/s", 1.0, le=False)
    print()


if __name__ == "__main__":
    main()
