"""bench_py_odbc.py: pyodbc through unixODBC and libixodbc against the ixdb
Python module, side by side on the same ixd: fetchall of the bench table
(id INT, name VARCHAR(64), counter INT, value FLOAT, created DATE) and
executemany of its rows (pyodbc with fast_executemany: one parameter array,
sent by the driver as one pipelined batch; ixdb's pipelined executemany).
Median and IQR of the rounds, in ms.

Run under /usr/bin/python3 (Debian's python3-pyodbc) from the source tree
after `make`:
    /usr/bin/python3 bench/bench_py_odbc.py [--rows N] [--rounds R]
(default 100000 rows, 10 rounds). IXD_BIN and IXODBC_LIB may name the
programs; they default to build/ixd and build/lib/libixodbc.so.
    valgrind --tool=callgrind /usr/bin/python3 bench/bench_py_odbc.py \
        --rows 20000 --profile-fetch
profiles one pyodbc fetchall (callgrind_annotate --inclusive=yes: pyodbc's
GetData, libodbc's SQLGetData, the driver's SQLGetData)."""

import argparse
import datetime
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
sys.path.insert(0, HERE)

import pyodbc  # noqa: E402

import ixdtest  # noqa: E402  (puts the built ixdb module on the path)
from bench_py_util import stats  # noqa: E402


def rows(n):
    d0 = datetime.date(2020, 1, 1)
    return [(i, "name %d" % i, i % 1000, i * 0.5, d0 + datetime.timedelta(days=i % 3000))
            for i in range(n)]


def timed(fn, rounds):
    xs = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        xs.append((time.perf_counter() - t0) * 1000)
    return stats(xs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--profile-fetch", action="store_true",
                    help="set up, then one pyodbc fetchall and nothing else (to run under "
                         "valgrind --tool=callgrind: where a fetched value's instructions go)")
    a = ap.parse_args()
    import ixdb
    srv = ixdtest.Server()
    tmp = tempfile.mkdtemp(prefix="odbcbench.")
    lib = os.environ.get("IXODBC_LIB") or os.path.join(ROOT, "build", "lib", "libixodbc.so")
    with open(os.path.join(tmp, "odbcinst.ini"), "w") as f:
        f.write("[ixdb]\nDriver = %s\n" % lib)
    os.environ["ODBCSYSINI"] = tmp
    try:
        c = ixdb.connect(srv.dsn())
        c.cursor().execute("create database bench with log")
        c.close()
        data = rows(a.rows)
        ix = ixdb.connect(srv.dsn("bench"))
        cur = ix.cursor()
        cur.execute("create table b (id int, name varchar(64), counter int, value float, "
                    "created date)")
        cur.executemany("insert into b values (?, ?, ?, ?, ?)", data)
        ix.commit()
        od = pyodbc.connect("DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;DATABASE=bench;"
                            "UID=informix;PWD=in4mix" % srv.port)
        ocur = od.cursor()
        ocur.fast_executemany = True
        if a.profile_fetch:
            assert len(ocur.execute("select * from b").fetchall()) == a.rows
            od.close()
            ix.close()
            return

        def ix_fetch():
            assert len(cur.execute("select * from b").fetchall()) == a.rows

        def od_fetch():
            assert len(ocur.execute("select * from b").fetchall()) == a.rows

        def ix_insert():
            cur.execute("delete from e")
            cur.executemany("insert into e values (?, ?, ?, ?, ?)", data)
            ix.commit()

        def od_insert():
            ocur.execute("delete from e")
            ocur.executemany("insert into e values (?, ?, ?, ?, ?)", data)
            od.commit()

        cur.execute("create table e (id int, name varchar(64), counter int, value float, "
                    "created date)")
        ix.commit()
        print("## pyodbc (libixodbc) against the ixdb module, %d rows, %d rounds\n"
              % (a.rows, a.rounds))
        print("| workload | ixdb ms, median (IQR) | pyodbc ms, median (IQR) | pyodbc / ixdb |")
        print("|---|---:|---:|---:|")
        for name, f1, f2 in (("fetchall", ix_fetch, od_fetch),
                             ("executemany (pyodbc: fast_executemany)", ix_insert, od_insert)):
            m1, q1 = timed(f1, a.rounds)
            m2, q2 = timed(f2, a.rounds)
            print("| %s | %.0f (%.0f) | %.0f (%.0f) | %.2f |" % (name, m1, q1, m2, q2, m2 / m1))
        od.close()
        ix.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
