"""bench_py_util.py: what the Python benches share (bench_py_drivers.py,
bench_py_ts.py): median and IQR of the rounds, the goal rows as
bench/bench_util.h's bench_goal prints them, and a fresh bench database."""

import statistics


def stats(xs):
    """Median and interquartile range of the samples xs."""
    if len(xs) == 1:
        return xs[0], 0.0
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return statistics.median(xs), q[2] - q[0]


def goal(what, measured, unit, target, note=None, le=True):
    """One "| goal: " row: measured <= target (le) or >= target; measured
    None (or NaN, or negative): not measured."""
    if measured is None or measured != measured or measured < 0:
        print("| goal: %s | - | %s %g %s | not measured |" % (what, "<=" if le else ">=",
                                                             target, unit))
        return
    if (measured <= target) if le else (measured >= target):
        st = "met"
    elif le:
        st = "short: %.2fx over" % (measured / target if target > 0 else 0)
    else:
        st = "short: needs %.2fx" % (target / measured if measured > 0 else 0)
    prec = 0 if measured >= 100 else 2 if measured >= 1 else 3
    print("| goal: %s | %.*f %s%s | %s %g %s | %s |" % (
        what, prec, measured, unit, " " + note if note else "", "<=" if le else ">=", target,
        unit, st))


def bench_db(srv):
    """A connection (autocommit off) to a new database "bench" on the ixd srv
    (python/tests/ixdtest.Server, which has put the built module on the path)."""
    import ixdb
    c0 = ixdb.connect(srv.dsn())
    c0.cursor().execute("create database bench with log")
    c0.close()
    return srv.connect("bench", autocommit=False)
