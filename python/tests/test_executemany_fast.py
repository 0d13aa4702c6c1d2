"""executemany's fast path (python/src/ixdb_many.c: rows read straight into
column arrays) against its general path (every value through convert_row,
forced with ixdb._ixdb._executemany_fast(False)): the same rows go through
both into two tables and the stored rows must be equal exactly (every type
the module binds, NULLs, mixed types in one column, rows that leave the fast
path at any point of a chunk), and so must the rowcount, the errors and the
exception of a refused row, a row that cannot be converted and a bad row."""

import datetime as dt
import unittest
from decimal import Decimal

import ixdtest
from ixdtest import ixdb

_ixdb = ixdb._ixdb

COLS = ("i int, b bigint, f float, s varchar(255), l lvarchar(2000), d date, "
        "x decimal(30,5), t datetime year to fraction(5), h datetime hour to second, "
        "v interval day(9) to fraction(5), m interval year(4) to month, o boolean, "
        "sf smallfloat, c char(6)")

D0 = dt.date(1899, 12, 31)
DATES = [dt.date(1, 1, 1), dt.date(1899, 12, 30), D0, dt.date(1900, 1, 1),
         dt.date(1900, 2, 28), dt.date(1900, 3, 1), dt.date(1970, 1, 1), dt.date(2000, 2, 29),
         dt.date(2024, 12, 31), dt.date(9999, 12, 31)]
TEXTS = ["", "a", "customer name number 00000001 of the bench", "h\u00e9llo w\u00f6rld",
         "\u65e5\u672c\u8a9e", "emoji \U0001f600", "quote ' and \" and \\", "x" * 255]
INTS = [0, 1, -1, 2**31 - 1, -(2**31 - 1), 2**31, -(2**31), 2**53 + 1, 2**63 - 1,
        -(2**63 - 1), 2**30 - 1, 2**30, -(2**30 - 1), -(2**30), 2**60, -(2**60)]
FLOATS = [0.0, -0.0, 1.25, -2.5e-300, 1.7976931348623157e308, 5e-324, 0.1]


class Sub(int):
    pass


def seed_rows(n):
    """The bench's shape (INT, VARCHAR, INT, FLOAT, DATE) with NULLs."""
    rows = []
    for k in range(n):
        rows.append((None if k % 11 == 3 else INTS[k % 8],
                     None if k % 7 == 5 else TEXTS[k % len(TEXTS)],
                     None if k % 13 == 0 else k * 7 % 1000,
                     None if k % 5 == 4 else FLOATS[k % len(FLOATS)] * (k + 1),
                     None if k % 9 == 8 else DATES[k % len(DATES)]))
    return rows


class FastPath(unittest.TestCase):
    def setUp(self):
        self.conn = ixdtest.server().connect(autocommit=True)
        self.cu = self.conn.cursor()
        self.was = _ixdb._executemany_fast()

    def tearDown(self):
        _ixdb._executemany_fast(self.was)
        self.conn.close()

    def make(self, name, cols):
        self.cu.execute("drop table if exists %s" % name)
        self.cu.execute("create table %s (seq serial, %s)" % (name, cols))

    def run_both(self, cols, names, rows, sql=None, fast_rows=None):
        """Runs rows through each path into its own table; returns
        (outcome, stored rows) of each, outcome being (rowcount, errors,
        exception class, sqlcode, rowindex, exception errors, message)."""
        res = []
        for fast in (True, False):
            t = "emf_" + ("fast" if fast else "gen")
            self.make(t, cols)
            _ixdb._executemany_fast(fast)
            text = (sql or "insert into {t} (%s) values (%s)" % (
                names, ", ".join("?" * len(names.split(", "))))).format(t=t)
            before = _ixdb._executemany_fast_rows()
            exc = None
            try:
                self.cu.executemany(text, rows() if callable(rows) else rows)
            except ixdb.Error as e:
                exc = e
            sent_fast = _ixdb._executemany_fast_rows() - before
            if fast and fast_rows is not None:
                self.assertEqual(sent_fast, fast_rows)
            if not fast:
                self.assertEqual(sent_fast, 0)
            out = (self.cu.rowcount, self.cu.errors,
                   None if exc is None else (type(exc), exc.sqlcode, exc.rowindex, exc.errors,
                                             str(exc).replace("emf_fast", "emf_gen")))
            self.cu.execute("select %s from %s order by seq" % (names, t))
            res.append((out, [tuple(repr(v) for v in r) for r in self.cu.fetchall()]))
        self.assertEqual(res[0][0], res[1][0])
        self.assertEqual(res[0][1], res[1][1])
        return res[0]

    def test_seed_shape_with_nulls(self):
        rows = seed_rows(3000)
        out, stored = self.run_both("i bigint, s varchar(255), c int, f float, d date",
                                    "i, s, c, f, d", rows, fast_rows=3000)
        self.assertEqual(out[:3], (3000, [], None))
        self.assertEqual(len(stored), 3000)
        self.assertEqual(stored[3][0], "None")  # NULLs stored as NULL

    def test_every_value_of_each_fast_kind(self):
        n = max(len(INTS), len(FLOATS), len(TEXTS), len(DATES))
        rows = [(INTS[k % len(INTS)], FLOATS[k % len(FLOATS)], TEXTS[k % len(TEXTS)],
                 DATES[k % len(DATES)], TEXTS[(k + 3) % len(TEXTS)] * 7) for k in range(n)]
        self.run_both(COLS, "b, f, s, d, l", rows, fast_rows=n)
        self.run_both(COLS, "i, sf, c", [(5, 0.5, "ab"), (-7, 1e10, "")], fast_rows=2)

    def test_columns_of_nulls_then_values(self):
        rows = [(None, None, None, None)] * 5 + [(1, 2.5, "t", D0), (None, None, None, None)]
        self.run_both(COLS, "b, f, s, d", rows, fast_rows=7)
        self.run_both(COLS, "b, f, s, d", [(None, None, None, None)] * 4, fast_rows=4)

    def test_types_only_the_general_path_takes(self):
        rows = [(Decimal("-12345.67891"), dt.datetime(2026, 6, 20, 12, 34, 56, 123450),
                 dt.time(7, 45, 1), -dt.timedelta(days=3, seconds=5, microseconds=10),
                 ixdb.Months(-11999), True, b"\x00bytes", 2**70)]
        self.run_both(COLS, "x, t, h, v, m, o, s, b", rows, fast_rows=0)
        self.run_both(COLS, "x, t, h, v, m, o, l", [
            (Decimal("1.5"), dt.datetime(2000, 1, 1), dt.time(0, 0), dt.timedelta(0),
             ixdb.Months(3), False, "plain")] * 3, fast_rows=0)

    def test_mixed_types_in_one_column(self):
        cases = [
            ("f", [(1.5,), (2,), (None,), (3.25,)]),  # float then int
            ("b", [(1,), (2.0,)]),  # int then float
            ("b", [(1,), (True,), (3,)]),  # a bool among ints
            ("b", [(1,), (Sub(5),)]),  # an int subclass
            ("x", [(1,), (2**64,), (3,)]),  # an int beyond 64 bits
            ("s", [("a",), (7,), ("c",)]),  # str then int
            ("s", [(None,), ("a",), (b"b",)]),  # str then bytes
            ("s", [("a",), ("\x00",), ("c",)]),  # the one character NUL (sent as TEXT)
            ("s", [("a",), ("lone \udc80 surrogate",)]),  # not UTF-8: surrogateescape
            ("t", [(dt.date(2020, 1, 2),), (dt.datetime(2020, 1, 2, 3, 4, 5),)]),
            ("d", [(dt.date(2020, 1, 2),), ("2020-01-03",)]),
        ]
        for col, rows in cases:
            with self.subTest(col=col, rows=rows):
                self.run_both(COLS, col, rows, fast_rows=0)

    def test_strs_holding_nul(self):
        # a NUL inside a str is sent with the rest (IX_ARRAY_TEXTN carries the
        # length; the general path binds the same bytes with ix_bind_text);
        # the str "\x00" alone leaves the fast path (ix_bind_text sends it
        # as TEXT: as a VARCHAR it would be the NULL form)
        nuls = ["nul\x00inside", "\x00\x00", "a\x00", "\x00b", "\x00" * 255, "x" * 254 + "\x00",
                "\u00e9\x00\U0001f600", ""]
        rows = [(k, nuls[k % len(nuls)], None if k % 3 else nuls[(k + 1) % len(nuls)] * 40)
                for k in range(40)]
        out, stored = self.run_both(COLS, "b, s, l", rows, fast_rows=40)
        self.assertEqual(out[:3], (40, [], None))
        self.assertEqual(stored[0][1], repr(nuls[0]))
        self.run_both(COLS, "b, s, l", rows + [(99, "\x00", "\x00")], fast_rows=0)
        self.run_both(COLS, "b, l", [(1, "\x00"), (2, "\x00\x00")], fast_rows=0)

    def test_rows_that_leave_the_fast_path_after_a_chunk(self):
        # chunks of 8192 rows: the first goes fast, the second leaves it at
        # its 1000th row and is sent whole through the general path
        rows = seed_rows(12000)
        rows[9192] = (1, "s", 2, 3, D0)  # an int in the FLOAT column
        self.run_both("i bigint, s varchar(255), c int, f float, d date", "i, s, c, f, d",
                      rows, fast_rows=8192)

    def test_list_rows_numeric_style_and_generators(self):
        rows = [[k, "r%d" % k, float(k)] if k % 2 else (k, "r%d" % k, float(k))
                for k in range(50)]
        self.run_both(COLS, "b, s, f", rows, fast_rows=50)
        sql = "insert into {t} (s, b, f) values (:2, :1, :3)"
        self.run_both(COLS, "s, b, f", rows, sql=sql, fast_rows=50)
        sql = "insert into {t} (b, s, f) values (:1, :2, :1)"
        self.run_both(COLS, "b, s, f", [(1, "a"), (2, "b")], sql=sql, fast_rows=2)
        self.run_both(COLS, "b, s, f", lambda: ((k, "g", 0.5) for k in range(30)), fast_rows=30)

    def test_a_refused_row(self):
        # the refused row last: no row after it whose sending depends on timing
        rows = [(k, "r") for k in range(100)] + [(2**40, "too big for INT")]
        out, stored = self.run_both(COLS, "i, s", rows, fast_rows=101)
        self.assertEqual(out[0], 100)
        self.assertEqual(out[1], [(100, out[2][1])])
        self.assertEqual(out[2][2], 100)
        self.assertEqual(len(stored), 100)

    def test_a_refused_row_in_the_middle(self):
        # the rows in flight after it ran or not (timing): compare what is fixed
        res = []
        for fast in (True, False):
            _ixdb._executemany_fast(fast)
            self.make("emf_mid", "a int primary key, s varchar(10)")
            rows = [(k, "r") for k in range(5000)]
            rows[7] = (3, "dup")
            with self.assertRaises(ixdb.IntegrityError) as cm:
                self.cu.executemany("insert into emf_mid (a, s) values (?, ?)", rows)
            e = cm.exception
            self.cu.execute("select a from emf_mid where a < 7 order by a")
            res.append((e.sqlcode, e.rowindex, e.errors, self.cu.fetchall()))
        self.assertEqual(res[0], res[1])
        self.assertEqual(res[0][:3], (-268, 7, [(7, -268)]))

    def test_rows_that_cannot_be_converted(self):
        # none of the chunk is sent: the same in both paths
        for bad in [(1, object()), (1,), (1, "a", 3), {"b": 1, "s": "a"}, 5, None]:
            rows = [(k, "r") for k in range(20)] + [bad] + [(99, "after")]
            with self.subTest(bad=bad):
                out, stored = self.run_both(COLS, "b, s", rows, fast_rows=0)
                self.assertIsNotNone(out[2])
                self.assertEqual(out[2][2], 20)
                self.assertEqual(stored, [])

    def test_conversion_error_after_a_fast_chunk(self):
        rows = [(k, "r") for k in range(8192)] + [(1, "a"), (2, object())]
        out, stored = self.run_both(COLS, "b, s", rows, fast_rows=8192)
        self.assertEqual(out[2][0], ixdb.ProgrammingError)
        self.assertEqual(out[2][2], 8193)
        self.assertEqual(len(stored), 8192)

    def test_iterator_that_raises(self):
        def gen():
            yield (1, "a")
            yield (2, "b")
            raise KeyError("from the iterator")
        for fast in (True, False):
            _ixdb._executemany_fast(fast)
            self.make("emf_it", COLS)
            with self.assertRaises(KeyError):
                self.cu.executemany("insert into emf_it (b, s) values (?, ?)", gen())
            self.cu.execute("select count(*) from emf_it")
            self.assertEqual(self.cu.fetchone(), (0,))

    def test_values_stay_alive(self):
        # the strs of a chunk are held while it is sent (no GIL): rows built
        # on the fly and dropped at once still arrive intact
        self.run_both(COLS, "l, b", lambda: (("v%06d" % k + "\u00e9" * (k % 3), k)
                                             for k in range(10000)), fast_rows=10000)


if __name__ == "__main__":
    ixdtest.main()
