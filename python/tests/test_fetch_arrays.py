"""Cursor.fetch_arrays against fetchall on every type: NumPy arrays (typed,
masked at NULLs; object columns) when NumPy imports (this script runs
again under an interpreter that has it, ixdextra.py), Python lists with
numpy=False; n rows at a time; errors."""

import datetime as dt
import decimal
import unittest

import ixdextra

MISSING = ixdextra.need("numpy")

import ixdtest  # noqa: E402
import ixdb  # noqa: E402

COLS = [
    ("c_small", "smallint", "int64"),
    ("c_int", "integer", "int64"),
    ("c_big", "bigint", "int64"),
    ("c_int8", "int8", "int64"),
    ("c_float", "float", "float64"),
    ("c_sfloat", "smallfloat", "float64"),
    ("c_dec", "decimal(12,3)", "object"),
    ("c_money", "money(10,2)", "object"),
    ("c_date", "date", "datetime64[D]"),
    ("c_dts", "datetime year to second", "datetime64[us]"),
    ("c_dtf", "datetime year to fraction(5)", "datetime64[us]"),
    ("c_dtm", "datetime year to month", "datetime64[us]"),
    ("c_dtd", "datetime month to day", "datetime64[us]"),
    ("c_time", "datetime hour to second", "object"),
    ("c_ivds", "interval day(5) to fraction(3)", "timedelta64[us]"),
    ("c_ivhm", "interval hour(4) to minute", "timedelta64[us]"),
    ("c_ivym", "interval year(4) to month", "object"),
    ("c_char", "char(6)", "object"),
    ("c_vc", "varchar(30)", "object"),
    ("c_nvc", "nvarchar(30)", "object"),
    ("c_lvc", "lvarchar(2000)", "object"),
    ("c_bool", "boolean", "bool"),
    ("c_text", "text", "object"),
    ("c_byte", "byte", "object"),
]

ROWS = [
    (1, 7, 2 ** 40, -5, 1.5, 0.25, decimal.Decimal("123456789.125"), decimal.Decimal("9.99"),
     dt.date(2024, 2, 29), dt.datetime(1999, 12, 31, 23, 59, 58),
     dt.datetime(2020, 1, 2, 3, 4, 5, 123450), dt.datetime(2021, 7, 1), dt.datetime(2000, 3, 4),
     dt.time(12, 30, 1), dt.timedelta(days=3, seconds=7, microseconds=250000),
     dt.timedelta(hours=30, minutes=15), ixdb.Months(years=2, months=3), "ab",
     "vé", "ñ", "x" * 1500, True, "a text", b"\x00\x01bytes"),
    (-32767, -2 ** 31 + 1, -2 ** 62, 0, -1e300, -3.5, decimal.Decimal("-0.001"),
     decimal.Decimal("0.00"), dt.date(1, 1, 1), dt.datetime(1900, 1, 1), dt.datetime(9999, 12, 31,
                                                                                     23, 59, 59, 999990),
     dt.datetime(1, 1, 1), dt.datetime(2000, 12, 31), dt.time(0, 0, 0),
     -dt.timedelta(days=99999, hours=1), -dt.timedelta(minutes=1), ixdb.Months(-14), "",
     "", "", "", False, "", b""),
    tuple([None] * len(COLS)),
]


def setUpModule():
    global CONN
    s = ixdtest.server()
    CONN = s.connect(autocommit=True)
    cur = CONN.cursor()
    cur.execute("create table fa (id serial, %s)" % ", ".join("%s %s" % (n, t) for n, t, _ in COLS))
    cur.executemany("insert into fa (%s) values (%s)" % (", ".join(n for n, _, _ in COLS),
                                                          ", ".join("?" * len(COLS))), ROWS)
    cur.execute("create table fbig (i int, f float, s varchar(10))")
    cur.executemany("insert into fbig values (?, ?, ?)",
                    [(i, i / 4, "s%d" % i) for i in range(3000)])


def tearDownModule():
    CONN.close()


SELECT = "select %s from fa order by id" % ", ".join(n for n, _, _ in COLS)


def columns_as_lists(arrays):
    out = []
    for a in arrays:
        out.append(a.tolist() if hasattr(a, "tolist") else list(a))
    return out


class ListsTest(unittest.TestCase):
    """numpy=False (and the fallback without NumPy): lists per column."""

    def test_every_type_equals_fetchall(self):
        cur = CONN.cursor()
        cur.execute(SELECT)
        rows = cur.fetchall()
        self.assertEqual(len(rows), 3)
        cur.execute(SELECT)
        cols = cur.fetch_arrays(numpy=False)
        self.assertEqual(len(cols), len(COLS))
        for c in cols:
            self.assertIsInstance(c, list)
        self.assertEqual(list(zip(*cols)), rows)
        self.assertEqual(cur.fetch_arrays(numpy=False), [[] for _ in COLS], "exhausted")

    def test_n_rows_at_a_time(self):
        cur = CONN.cursor()
        cur.execute("select i, s from fbig order by i")
        got = []
        while True:
            part = cur.fetch_arrays(1000, numpy=False)
            if not part[0]:
                break
            self.assertLessEqual(len(part[0]), 1000)
            got.extend(zip(*part))
        cur.execute("select i, s from fbig order by i")
        self.assertEqual(got, cur.fetchall())
        cur.execute("select i from fbig order by i")
        first = cur.fetchone()
        rest = cur.fetch_arrays(numpy=False)[0]
        self.assertEqual([first[0]] + rest, list(range(3000)), "mixes with fetchone")

    def test_errors(self):
        cur = CONN.cursor()
        with self.assertRaises(ixdb.ProgrammingError):
            cur.fetch_arrays()
        cur.execute("update fbig set i = i where i < 0")
        with self.assertRaises(ixdb.ProgrammingError):
            cur.fetch_arrays()
        cur.close()
        with self.assertRaises(ixdb.InterfaceError):
            cur.fetch_arrays()


@unittest.skipIf(MISSING, "NumPy is not importable by any interpreter with this ABI")
class NumpyTest(unittest.TestCase):
    def test_every_type_equals_fetchall(self):
        import numpy as np
        cur = CONN.cursor()
        cur.execute(SELECT)
        rows = cur.fetchall()
        cur.execute(SELECT)
        arrays = cur.fetch_arrays()
        self.assertEqual(len(arrays), len(COLS))
        for (name, _, dtype), a in zip(COLS, arrays):
            self.assertIsInstance(a, np.ndarray, name)
            self.assertEqual(str(a.dtype), dtype, name)
            self.assertEqual(len(a), 3)
            if dtype != "object":
                self.assertIsInstance(a, np.ma.MaskedArray, name + ": the NULL row masks it")
                self.assertEqual(a.mask.tolist(), [False, False, True], name)
            else:
                self.assertIsNone(a[2], name)
        self.assertEqual(list(zip(*columns_as_lists(arrays))), rows)

    def test_no_nulls_plain_arrays(self):
        import numpy as np
        cur = CONN.cursor()
        cur.execute("select i, f, s from fbig order by i")
        i, f, s = cur.fetch_arrays()
        self.assertNotIsInstance(i, np.ma.MaskedArray)
        self.assertEqual(i.dtype, np.int64)
        self.assertTrue(i.flags.writeable)
        self.assertEqual(int(i.sum()), sum(range(3000)))
        self.assertEqual(f.dtype, np.float64)
        self.assertAlmostEqual(float(f.sum()), sum(range(3000)) / 4)
        self.assertEqual(s.dtype, object)
        self.assertEqual(s[2999], "s2999")

    def test_empty_result_keeps_dtypes(self):
        cur = CONN.cursor()
        cur.execute("select c_int, c_date, c_vc from fa where id < 0")
        a, d, v = cur.fetch_arrays()
        self.assertEqual((len(a), str(a.dtype)), (0, "int64"))
        self.assertEqual(str(d.dtype), "datetime64[D]")
        self.assertEqual(str(v.dtype), "object")

    def test_n_rows(self):
        cur = CONN.cursor()
        cur.execute("select i from fbig order by i")
        a = cur.fetch_arrays(n=10)[0]
        b = cur.fetch_arrays()[0]
        self.assertEqual(a.tolist() + b.tolist(), list(range(3000)))


if __name__ == "__main__":
    ixdtest.main()
