"""Benchmark (not a test): ixdb fetchall of 100k rows (INT, VARCHAR(64), INT,
FLOAT, DATE) against building the same tuples in Python from memory, and
executemany of 100k rows against a loop of execute. Medians and IQR over
ROUNDS rounds; ratios printed.

    IXD_BIN=build/ixd PYTHONPATH=build/python python3 python/bench_fetch.py [rounds]
"""

import datetime as dt
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))
import ixdtest  # noqa: E402  (starts ixd, finds the module)

N = 100_000
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 10


def stats(xs):
    q = statistics.quantiles(xs, n=4)
    return statistics.median(xs), q[2] - q[0]


def timeit(fn, rounds):
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return stats(out)


def main():
    srv = ixdtest.server()
    # autocommit off: ixd syncs every commit to disk (synchronous=FULL), so each
    # round is one transaction, committed at its end
    conn = srv.connect(autocommit=False, fetch_buffer=65536)
    cu = conn.cursor()
    cu.execute("drop table if exists bench")
    cu.execute("create table bench (a int, b varchar(64), c int, d float, e date)")
    base = dt.date(2000, 1, 1)
    rows = [(i, "name %08d" % i, i * 7, i / 3, base + dt.timedelta(days=i % 9000))
            for i in range(N)]
    cu.executemany("insert into bench values (?, ?, ?, ?, ?)", rows)
    conn.commit()

    def fetch():
        cu.execute("select a, b, c, d, e from bench")
        r = cu.fetchall()
        assert len(r) == N
        conn.commit()

    cols = [(i, "name %08d" % i, i * 7, i / 3, i % 9000) for i in range(N)]

    def build():  # the same tuples made in Python from data already in memory
        r = [(a, b, c, d, base + dt.timedelta(days=e)) for a, b, c, d, e in cols]
        assert len(r) == N

    cu2 = conn.cursor()
    cu2.execute("drop table if exists bench2")
    cu2.execute("create table bench2 (a int, b varchar(64), c int, d float, e date)")
    conn.commit()

    def many():
        cu2.execute("delete from bench2")
        cu2.executemany("insert into bench2 values (?, ?, ?, ?, ?)", rows)
        conn.commit()

    def loop():
        cu2.execute("delete from bench2")
        for r in rows:
            cu2.execute("insert into bench2 values (?, ?, ?, ?, ?)", r)
        conn.commit()

    fetch()
    f = timeit(fetch, ROUNDS)
    b = timeit(build, ROUNDS)
    m = timeit(many, ROUNDS)
    lp = timeit(loop, max(3, ROUNDS // 3) if os.environ.get("BENCH_FAST") else ROUNDS)
    print("rows: %d, rounds: %d, python %s" % (N, ROUNDS, sys.version.split()[0]))
    print("fetchall (ixdb)              median %7.1f ms  IQR %6.1f ms  %7.0f rows/s"
          % (f[0] * 1e3, f[1] * 1e3, N / f[0]))
    print("tuples built in Python       median %7.1f ms  IQR %6.1f ms" % (b[0] * 1e3, b[1] * 1e3))
    print("  ratio fetchall / python build: %.2f" % (f[0] / b[0]))
    print("executemany                  median %7.1f ms  IQR %6.1f ms  %7.0f rows/s"
          % (m[0] * 1e3, m[1] * 1e3, N / m[0]))
    print("loop of execute              median %7.1f ms  IQR %6.1f ms  %7.0f rows/s"
          % (lp[0] * 1e3, lp[1] * 1e3, N / lp[0]))
    print("  ratio loop / executemany: %.1f" % (lp[0] / m[0]))
    conn.close()
    srv.stop()


if __name__ == "__main__":
    main()
