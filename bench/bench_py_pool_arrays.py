"""Benchmark (not a test): the ixdb Python module's pool and column fetch,
side by side in one run, medians and IQR over the rounds (functions of a
pair alternate round by round):

  pool checkout   `with pool.connection() as c:` plus one tiny query,
                  against ixdb.connect() + the same query + close()
  fetch_arrays    cursor.fetch_arrays() of N rows (INT, VARCHAR(64), INT,
                  FLOAT, DATE: the rows of bench_py_drivers.py) against
                  cursor.fetchall(); as NumPy arrays when NumPy imports
                  (else lists), and with numpy=False

    IXD_BIN=build/ixd PYTHONPATH=build/python \
        python3 bench/bench_py_pool_arrays.py [--rows N] [--rounds R] [--checkouts K]

Run it under an interpreter that has NumPy (Debian: /usr/bin/python3 with
python3-numpy) for the NumPy column.
"""

import argparse
import datetime as dt
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python", "tests"))
import ixdtest  # noqa: E402  (starts ixd, finds the built module)

ixdb = ixdtest.ixdb
import ixdb.pool  # noqa: E402

BASE = dt.date(1899, 12, 31)


def stats(xs):
    if len(xs) < 2:
        return xs[0], 0.0
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return statistics.median(xs), q[2] - q[0]


def alternate(fns, rounds):
    times = [[] for _ in fns]
    for fn in fns:
        fn()  # warm-up
    for _ in range(rounds):
        for k, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
    return [stats(t) for t in times]


def show(title, unit, scale, names, results):
    print(title)
    base = results[0][0]
    for name, (med, iqr) in zip(names, results):
        print("  %-28s median %10.3f %s  IQR %8.3f  (%.2fx of the first)"
              % (name, med * scale, unit, iqr * scale, med / base if base else 0))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--checkouts", type=int, default=200)
    a = ap.parse_args()
    srv = ixdtest.Server()
    try:
        dsn = srv.dsn()
        c = ixdb.connect(dsn, autocommit=True)
        cur = c.cursor()
        cur.execute("create database bpa")
        cur.execute("create table t (id int, name varchar(64), qty int, price float, d date)")
        cur.executemany("insert into t values (?, ?, ?, ?, ?)",
                        [(i, "customer name number %08d of the bench" % i, i * 7 % 1000,
                          i * 1.25, BASE + dt.timedelta(days=45000 + i % 3650))
                         for i in range(a.rows)])
        dsn_db = srv.dsn("bpa")
        k = a.checkouts

        # ---- pool checkout against connect ----
        pool = ixdb.pool.Pool(dsn_db, min_size=1, max_size=2, check_idle=None)

        def by_pool():
            for _ in range(k):
                with pool.connection() as pc:
                    q = pc.cursor()
                    q.execute("select id from t where id = 1")
                    q.fetchall()

        def by_connect():
            for _ in range(k):
                cc = ixdb.connect(dsn_db)
                q = cc.cursor()
                q.execute("select id from t where id = 1")
                q.fetchall()
                cc.close()

        r = alternate([by_pool, by_connect], a.rounds)
        show("checkout + one query + return, per checkout (%d per round, %d rounds)"
             % (k, a.rounds), "us", 1e6 / k, ["pool.connection()", "ixdb.connect()"], r)
        print("  pool stats:", pool.stats())
        pool.close()

        # ---- fetch_arrays against fetchall ----
        try:
            import numpy  # noqa: F401
            have_np = True
        except ImportError:
            have_np = False
        fc = ixdb.connect(dsn_db, autocommit=True)
        fcur = fc.cursor()
        sql = "select id, name, qty, price, d from t"

        def fetchall():
            fcur.execute(sql)
            fcur.fetchall()

        def arrays():
            fcur.execute(sql)
            fcur.fetch_arrays()

        def arrays_lists():
            fcur.execute(sql)
            fcur.fetch_arrays(numpy=False)

        names = ["fetchall()", "fetch_arrays() (%s)" % ("NumPy" if have_np else "lists"),
                 "fetch_arrays(numpy=False)"]
        r = alternate([fetchall, arrays, arrays_lists], a.rounds)
        show("%d rows of 5 columns, %d rounds" % (a.rows, a.rounds), "ms", 1e3, names, r)
        fc.close()
        c.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
