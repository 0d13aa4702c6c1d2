"""Reference counting: fetching 100k rows (and binding/executemany) leaks
nothing. Checked with tracemalloc, and with sys.gettotalrefcount on a debug
interpreter."""

import datetime as dt
import gc
import sys
import tracemalloc
import unittest
from decimal import Decimal

import ixdtest
from ixdtest import ixdb

N = 100_000


class Leaks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = ixdtest.server().connect(autocommit=True)
        cu = cls.conn.cursor()
        cu.execute("drop table if exists big")
        cu.execute("create table big (a int, b varchar(64), c decimal(12,3), d date,"
                   " e datetime year to fraction(5), f interval day(5) to second, g float,"
                   " h boolean, i interval year to month, j bigint)")
        rows = [(i, "row %d" % i, Decimal(i) / 8, dt.date(2000, 1, 1) + dt.timedelta(days=i % 9000),
                 dt.datetime(2024, 1, 1, 0, 0, 0, 10 + i % 1000 * 10), dt.timedelta(seconds=i),
                 i / 3, bool(i & 1), ixdb.Months(i % 500), None if i % 7 == 0 else i * 1000003)
                for i in range(N)]
        cls.conn.autocommit = False  # one commit (ixd syncs each commit to disk)
        cu.executemany("insert into big values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        cls.conn.commit()
        cls.conn.autocommit = True

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()

    def fetch_all_rows(self):
        cu = self.conn.cursor()
        cu.execute("select * from big")
        n = 0
        for row in cu:
            n += 1
        cu.execute("select * from big")
        n += len(cu.fetchall())
        cu.execute("select * from big")
        while True:
            rows = cu.fetchmany(1000)
            if not rows:
                break
            n += len(rows)
        cu.close()
        return n

    def measure(self, fn, rounds=2):
        gc.collect()
        fn()  # warm up caches (decimal context, interned strings, ...)
        gc.collect()
        rc0 = sys.gettotalrefcount() if hasattr(sys, "gettotalrefcount") else None
        tracemalloc.start()
        snap0 = tracemalloc.take_snapshot()
        for _ in range(rounds):
            fn()
        gc.collect()
        snap1 = tracemalloc.take_snapshot()
        tracemalloc.stop()
        diff = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
        rc1 = sys.gettotalrefcount() if rc0 is not None else None
        return diff, (rc1 - rc0) if rc0 is not None else None

    def test_fetch_100k_rows_no_leak(self):
        self.assertEqual(self.fetch_all_rows(), 3 * N)
        diff, rcd = self.measure(self.fetch_all_rows)
        # 900k rows fetched: anything per row or per value would show as MBs
        self.assertLess(diff, 64 * 1024, "tracemalloc growth %d bytes" % diff)
        if rcd is not None:
            self.assertLess(abs(rcd), 100)

    def test_bind_and_executemany_no_leak(self):
        cu = self.conn.cursor()
        cu.execute("drop table if exists small")
        cu.execute("create table small (a int, b varchar(20), c decimal(10,2), d date)")
        rows = [(i, "x%d" % i, Decimal("1.25"), dt.date(2020, 1, 1)) for i in range(5000)]

        def work():
            cu.execute("delete from small")
            cu.executemany("insert into small values (?, ?, ?, ?)", rows)
            for i in range(500):
                cu.execute("select a, b from small where a = ? and b = ?", (i, "x%d" % i))
                cu.fetchall()
            try:
                cu.execute("select * from nosuch where a = ?", (1,))
            except ixdb.ProgrammingError:
                pass
        diff, rcd = self.measure(work)
        self.assertLess(diff, 64 * 1024, "tracemalloc growth %d bytes" % diff)
        if rcd is not None:
            self.assertLess(abs(rcd), 100)

    def test_row_refcounts(self):
        cu = self.conn.cursor()
        cu.execute("select first 10 * from big")
        rows = cu.fetchall()
        for r in rows:
            self.assertEqual(sys.getrefcount(r), 3)  # the list, r and the argument
            for v in r:
                if v is not None and not isinstance(v, (bool, int)):
                    self.assertLessEqual(sys.getrefcount(v), 3, repr(v))


if __name__ == "__main__":
    ixdtest.main()
