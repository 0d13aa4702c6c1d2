"""Benchmark (not a test): asyncio throughput of ixdb.aio. Ten workers, each
on its own connection, each running the same mix (a point query by key,
a 100-row range fetch, an insert) a fixed number of times:
  aio      10 asyncio tasks in one thread (ixdb.aio, add_reader/add_writer)
  threads  10 threads with the sync module (GIL released around the network)
  serial   the same work from one thread, connection after connection
Each mode runs --rounds times (>= 10 by default); the median and the
interquartile range of the wall time are printed side by side, with the
operations per second at the median.

    IXD_BIN=build/ixd PYTHONPATH=build/python \\
        python3 bench/bench_py_aio.py [--ops N] [--rounds N] [--workers N]
"""

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python", "tests"))
import ixdtest  # noqa: E402  (starts ixd, finds the built module)

ixdb = ixdtest.ixdb
import ixdb.aio as aio  # noqa: E402

ROWS = 10000
POINT = "select id, name, value from em where id = ?"
RANGE = "select id, name, value from em where id between ? and ?"
INSERT = "insert into log_%d (worker, k) values (?, ?)"


def stats(xs):
    if len(xs) == 1:
        return xs[0], 0.0
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return statistics.median(xs), q[2] - q[0]


def keys(w, i):
    return (w * 7919 + i * 104729) % (ROWS - 100)


def sync_work(conn, w, ops):
    cu = conn.cursor()
    for i in range(ops):
        k = keys(w, i)
        cu.execute(POINT, (k,))
        assert cu.fetchone()[0] == k
        cu.execute(RANGE, (k, k + 99))
        assert len(cu.fetchall()) == 100
        cu.execute(INSERT % w, (w, k))


async def aio_work(conn, w, ops):
    cu = conn.cursor()
    for i in range(ops):
        k = keys(w, i)
        await cu.execute(POINT, (k,))
        assert (await cu.fetchone())[0] == k
        await cu.execute(RANGE, (k, k + 99))
        assert len(await cu.fetchall()) == 100
        await cu.execute(INSERT % w, (w, k))


def run_threads(conns, ops):
    ts = [threading.Thread(target=sync_work, args=(c, w, ops)) for w, c in enumerate(conns)]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return time.perf_counter() - t0


def run_serial(conns, ops):
    t0 = time.perf_counter()
    for w, c in enumerate(conns):
        sync_work(c, w, ops)
    return time.perf_counter() - t0


async def run_aio(conns, ops):
    t0 = time.perf_counter()
    await asyncio.gather(*(aio_work(c, w, ops) for w, c in enumerate(conns)))
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=200, help="mixes per worker and round")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--workers", type=int, default=10)
    a = ap.parse_args()

    srv = ixdtest.Server()
    try:
        c0 = ixdb.connect(srv.dsn(), autocommit=True)
        c0.cursor().execute("create database bench")  # unlogged: no fsync per insert
        c0.close()
        dsn = srv.dsn("bench")
        conn = ixdb.connect(dsn, autocommit=True)
        cu = conn.cursor()
        cu.execute("create table em (id int primary key, name varchar(64), value float)")
        cu.executemany("insert into em values (?, ?, ?)",
                       [(i, "customer %08d" % i, i * 1.25) for i in range(ROWS)])
        for w in range(a.workers):
            cu.execute("create table log_%d (worker int, k int)" % w)
        conn.close()

        sync_conns = [ixdb.connect(dsn, autocommit=True) for _ in range(a.workers)]

        async def aio_rounds():
            conns = [await aio.connect(dsn, autocommit=True) for _ in range(a.workers)]
            out = [await run_aio(conns, a.ops) for _ in range(a.rounds)]
            for c in conns:
                await c.close()
            return out

        times = {
            "aio": asyncio.run(aio_rounds()),
            "threads": [run_threads(sync_conns, a.ops) for _ in range(a.rounds)],
            "serial": [run_serial(sync_conns, a.ops) for _ in range(a.rounds)],
        }
        for c in sync_conns:
            c.close()
        nops = 3 * a.ops * a.workers
        print("%d workers x %d mixes (point + 100-row range + insert), %d rounds"
              % (a.workers, a.ops, a.rounds))
        print("%-8s %10s %10s %12s" % ("mode", "median_s", "iqr_s", "stmts/s"))
        for name, xs in times.items():
            med, iqr = stats(xs)
            print("%-8s %10.4f %10.4f %12.0f" % (name, med, iqr, nops / med))
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
