"""Benchmark (not a test): table 1 of docs/benchmarks-comparisons.md, Python
side. The workloads of bench/bench_drivers.c through the ixdb Python module
(default settings), plus the limits: building the same tuples in Python from
memory (tuples_1k/10k/100k) and Python's own per-row baseline (a loop of
cursor.execute). Writes "name median_s iqr_s" lines for
bench_drivers --py FILE and prints them.

Beside executemany_100k, c_batch_100k inserts the same 100k rows on the same
ixd through libixdb's pipelined ix_batch_execute_arrays (build/bench_em_batch,
beside IXD_BIN; one process per round, the time measured inside it, rounds
interleaved with the Python ones), and the goal line compares the two.
--only NAME,NAME runs only those workloads (e.g. the goal's pair);
With valgrind on PATH (unless --no-callgrind), callgrind also counts the
client's instructions per row of the two for 10k rows: Python's executemany
call (Cursor_executemany: the module, libixdb, the interpreter under it)
and bench_em_batch's em_batch (libixdb).
--general sends executemany through its general path only (every value
converted one by one, python/src/ixdb_many.c's fast path off), for comparison.

    IXD_BIN=build/ixd PYTHONPATH=build/python \
        python3 bench/bench_py_drivers.py [--quick] [--rounds N] [--out FILE]
                                          [--only executemany_100k,c_batch_100k]
                                          [--general] [--no-callgrind]
"""

import argparse
import datetime as dt
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python", "tests"))
import ixdtest  # noqa: E402  (starts ixd, finds the built module)

ixdb = ixdtest.ixdb
from bench_py_util import bench_db, goal, stats  # noqa: E402
SIZES = [(1000, "1k"), (10000, "10k"), (100000, "100k")]
BASE = dt.date(1899, 12, 31)


CG_ROWS = 10000


def cg_child(port, n, general):
    """Under callgrind: one executemany of n rows (Cursor_executemany collected)."""
    if general:
        ixdb._ixdb._executemany_fast(False)
    rows = make_rows(n)
    conn = ixdb.connect("host=127.0.0.1 port=%d user=informix password=in4mix database=bench"
                        % port, autocommit=False)
    conn.cursor().executemany("insert into em values (?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()


def cg_total(path):
    """Instructions of a callgrind profile (its "totals:" / "summary:" line)."""
    ir = None
    with open(path) as f:
        for line in f:
            if line.startswith(("totals:", "summary:")):
                ir = float(line.split(":")[1].split()[0])
    return ir


def callgrind_per_row(srv, cbatch, general):
    """(Python, C) client instructions per row of a 10k-row insert, or Nones."""
    def run(out, toggle, args):
        try:
            subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=" + toggle,
                            "--callgrind-out-file=" + out] + args, check=True,
                           capture_output=True, timeout=600)
        except (OSError, subprocess.SubprocessError):
            return None
        ir = cg_total(out)
        return ir / CG_ROWS if ir else None
    py = run(os.path.join(srv.dir, "cg.py.out"), "Cursor_executemany",
             [sys.executable, os.path.abspath(__file__), "--cg-child", str(srv.port),
              str(CG_ROWS)] + (["--general"] if general else []))
    c = run(os.path.join(srv.dir, "cg.c.out"), "em_batch", [cbatch, str(srv.port), str(CG_ROWS)])
    return py, c


def make_rows(n):
    return [(i, "customer name number %08d of the bench" % i, i * 7 % 1000, i * 1.25,
             BASE + dt.timedelta(days=45000 + i % 3650)) for i in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default=None)
    ap.add_argument("--general", action="store_true")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--cg-child", nargs=2, type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.cg_child:
        return cg_child(*a.cg_child, a.general)
    if a.general:
        ixdb._ixdb._executemany_fast(False)
    rounds = a.rounds or (5 if a.quick else 10)
    rounds_big = min(rounds, 3) if a.quick else rounds
    rounds_loop = 1 if a.quick else min(rounds, 3)

    srv = ixdtest.Server()
    try:
        conn = bench_db(srv)
        cu = conn.cursor()
        rows = make_rows(SIZES[-1][0])
        cols = [(r[0], r[1], r[2], r[3], 45000 + r[0] % 3650) for r in rows]
        cu.execute("create table em (id int, name varchar(64), counter int, value float, "
                   "created date)")
        for n, name in SIZES:
            cu.execute("create table sel_%d (id int, name varchar(64), counter int, "
                       "value float, created date)" % n)
            cu.executemany("insert into sel_%d values (?, ?, ?, ?, ?)" % n, rows[:n])
        conn.commit()

        def w_one():
            cu.execute("select tabname from systables where tabid = 1")
            assert len(cu.fetchall()) == 1
            conn.commit()

        def w_ten():
            cu.execute("select first 10 * from systables")
            assert len(cu.fetchall()) == 10
            conn.commit()

        def w_connect():
            srv.connect("bench").close()

        def w_many(n):
            def f():
                cu.executemany("insert into em values (?, ?, ?, ?, ?)", rows[:n])
                conn.commit()
            return f

        def w_sel(n):
            def f():
                cu.execute("select id, name, counter, value, created from sel_%d" % n)
                assert len(cu.fetchall()) == n
                conn.commit()
            return f

        def w_tuples(n):
            src = cols[:n]

            def f():  # the same tuples built in Python from data in memory
                r = [(i, s, c, v, BASE + dt.timedelta(days=d)) for i, s, c, v, d in src]
                assert len(r) == n
            return f

        cbatch = os.path.join(os.path.dirname(os.path.abspath(srv.bin)), "bench_em_batch")

        def w_cbatch(n):
            def f():  # its own time, measured in the C program
                out = subprocess.run([cbatch, str(srv.port), str(n)], check=True,
                                     capture_output=True, text=True).stdout
                return float(out.split()[0])
            return f

        def w_loop(n):
            def f():
                for r in rows[:n]:
                    cu.execute("insert into em values (?, ?, ?, ?, ?)", r)
                conn.commit()
            return f

        def empty():
            cu.execute("delete from em")
            conn.commit()

        work = [("select_one_row", w_one, rounds, None),
                ("select_systables_first_10", w_ten, rounds, None),
                ("cold_connect_disconnect", w_connect, rounds, None)]
        for n, name in SIZES:
            work.append(("executemany_" + name, w_many(n), rounds_big if n >= 100000 else rounds,
                         empty))
        for n, name in SIZES:
            work.append(("select_" + name, w_sel(n), rounds_big if n >= 100000 else rounds, None))
            work.append(("tuples_" + name, w_tuples(n), rounds_big if n >= 100000 else rounds,
                         None))
        if os.access(cbatch, os.X_OK):
            work.append(("c_batch_100k", w_cbatch(100000), rounds_big, None))
        else:
            print("%s not built (cmake --build build --target bench_em_batch): "
                  "c_batch_100k left out" % cbatch)
        work.append(("python_execute_loop_100k", w_loop(100000), rounds_loop, empty))
        if a.only:
            only = a.only.split(",")
            work = [w for w in work if w[0] in only]

        samples = {name: [] for name, _, _, _ in work}
        for name, fn, _, setup in work:  # warm-up (the execute loop is long: skipped)
            if name.startswith("python_execute_loop"):
                continue
            if setup:
                setup()
            fn()
        t0 = time.perf_counter()
        for r in range(rounds):
            for k in range(len(work)):
                name, fn, nr, setup = work[(k + r) % len(work)]
                if r >= nr:
                    continue
                if setup:
                    setup()
                t = time.perf_counter()
                own = fn()
                samples[name].append(own if own is not None else time.perf_counter() - t)
        elapsed = time.perf_counter() - t0
        conn.close()
        cg = (None, None)
        if not a.no_callgrind and os.access(cbatch, os.X_OK) and \
                subprocess.run(["valgrind", "--version"], capture_output=True).returncode == 0:
            cg = callgrind_per_row(srv, cbatch, a.general)
    finally:
        srv.stop()
    out = open(a.out, "w") if a.out else None
    print("bench_py_drivers%s%s: python %s, %d rounds (%d for 100k, %d for the execute loop), "
          "%.0f s" % (" --quick" if a.quick else "", " --general" if a.general else "",
                      sys.version.split()[0], rounds,
                      rounds_big, rounds_loop, elapsed))
    med = {}
    for name, _, _, _ in work:
        med[name], iqr = stats(samples[name])
        print("%-28s median %10.3f ms  IQR %8.3f ms" % (name, med[name] * 1e3, iqr * 1e3))
        if out:
            out.write("%s %.9f %.9f\n" % (name, med[name], iqr))
    if out:
        out.close()
    py, c = med.get("executemany_100k"), med.get("c_batch_100k")
    if py is not None and c is not None:
        print("executemany_100k: Python %.3f us/row, C batch %.3f us/row" % (py * 10, c * 10))
    if cg[0] and cg[1]:
        print("callgrind, client instructions/row (10k rows): Python executemany %.0f, C batch "
              "%.0f (%.2fx)" % (cg[0], cg[1], cg[0] / cg[1]))
    print("| goal | measured | target | status |\n|---|---:|---:|---|")
    goal("Python executemany / C batch (ix_batch_execute_arrays), 100k rows (INT, VARCHAR(64), "
         "INT, FLOAT, DATE), same ixd", py / c if py and c else None, "x", 1.3)


if __name__ == "__main__":
    main()
