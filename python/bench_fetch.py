"""Benchmark (not a test): ixdb fetchall of 100k rows (INT, VARCHAR(64), INT,
FLOAT, DATE) against building the same tuples in Python from memory (the
definition of bench/bench_py_drivers.py: tuples_100k), at the default fetch
buffer and at 1 MiB; and executemany of 100k rows against a loop of execute.
The fetch and the build alternate round by round; medians (and IQR) of the
wall-clock times and of this process's CPU time; ratios printed.

    IXD_BIN=build/ixd PYTHONPATH=build/python python3 python/bench_fetch.py [rounds]
    BENCH_FETCH_ONLY=1 ...   skips executemany and the execute loop
    BENCH_FETCH_AUTO=1 ...   also fetches with fetch_buffer="auto"
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
BASE = dt.date(1899, 12, 31)
BUFFERS = [("default buffer", {}), ("1 MiB buffer", {"fetch_buffer": 1 << 20})]
if os.environ.get("BENCH_FETCH_AUTO"):
    BUFFERS.append(("auto buffer", {"fetch_buffer": "auto"}))


def stats(xs):
    if len(xs) < 2:
        return xs[0], 0.0
    q = statistics.quantiles(xs, n=4)
    return statistics.median(xs), q[2] - q[0]


def timeit(fn, rounds):
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return stats(out)


def alternate(fns, rounds):
    """Runs the functions in turn, rounds times: medians of wall and CPU."""
    wall = [[] for _ in fns]
    cpu = [[] for _ in fns]
    for fn in fns:
        fn()  # warm-up
    for _ in range(rounds):
        for k, fn in enumerate(fns):
            c, t = time.process_time(), time.perf_counter()
            fn()
            wall[k].append(time.perf_counter() - t)
            cpu[k].append(time.process_time() - c)
    return [(stats(w), stats(c)) for w, c in zip(wall, cpu)]


def main():
    srv = ixdtest.server()
    # autocommit off: ixd syncs every commit to disk (synchronous=FULL), so each
    # round is one transaction, committed at its end
    conn = srv.connect(autocommit=False)
    cu = conn.cursor()
    cu.execute("drop table if exists bench")
    cu.execute("create table bench (id int, name varchar(64), counter int, value float, "
               "created date)")
    rows = [(i, "customer name number %08d of the bench" % i, i * 7 % 1000, i * 1.25,
             BASE + dt.timedelta(days=45000 + i % 3650)) for i in range(N)]
    cu.executemany("insert into bench values (?, ?, ?, ?, ?)", rows)
    conn.commit()
    cols = [(r[0], r[1], r[2], r[3], 45000 + r[0] % 3650) for r in rows]

    def build():  # the same tuples made in Python from data already in memory
        r = [(i, s, c, v, BASE + dt.timedelta(days=d)) for i, s, c, v, d in cols]
        assert len(r) == N

    print("rows: %d, rounds: %d, python %s" % (N, ROUNDS, sys.version.split()[0]))
    for label, kw in BUFFERS:
        fc = srv.connect(autocommit=False, **kw)
        fcu = fc.cursor()

        def fetch():
            fcu.execute("select id, name, counter, value, created from bench")
            r = fcu.fetchall()
            assert len(r) == N
            fc.commit()

        (fw, fcp), (bw, bcp) = alternate([fetch, build], ROUNDS)
        st = fcu.fetch_stats
        print("fetchall, %s (%d bytes, %d round trips, %d GIL releases)"
              % (label, st["buffer"], st["roundtrips"], st.get("gil_releases", -1)))
        print("  fetchall      wall %7.1f ms (IQR %5.1f)  cpu %7.1f ms  %8.0f rows/s"
              % (fw[0] * 1e3, fw[1] * 1e3, fcp[0] * 1e3, N / fw[0]))
        print("  python build  wall %7.1f ms (IQR %5.1f)  cpu %7.1f ms"
              % (bw[0] * 1e3, bw[1] * 1e3, bcp[0] * 1e3))
        print("  ratio fetchall / python build: wall %.2f, cpu %.2f"
              % (fw[0] / bw[0], fcp[0] / bcp[0]))
        fc.close()
    if os.environ.get("BENCH_FETCH_ONLY"):
        conn.close()
        srv.stop()
        return

    cu2 = conn.cursor()
    cu2.execute("drop table if exists bench2")
    cu2.execute("create table bench2 (id int, name varchar(64), counter int, value float, "
                "created date)")
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

    m = timeit(many, ROUNDS)
    lp = timeit(loop, max(3, ROUNDS // 3) if os.environ.get("BENCH_FAST") else ROUNDS)
    print("executemany                  median %7.1f ms  IQR %6.1f ms  %7.0f rows/s"
          % (m[0] * 1e3, m[1] * 1e3, N / m[0]))
    print("loop of execute              median %7.1f ms  IQR %6.1f ms  %7.0f rows/s"
          % (lp[0] * 1e3, lp[1] * 1e3, N / lp[0]))
    print("  ratio loop / executemany: %.1f" % (lp[0] / m[0]))
    conn.close()
    srv.stop()


if __name__ == "__main__":
    main()
