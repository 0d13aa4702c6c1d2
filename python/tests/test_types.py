"""Type round trips (bind and fetch) and NULLs against a real ixd."""

import datetime as dt
import unittest
from decimal import Decimal

import ixdtest
from ixdtest import ixdb


class Types(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = ixdtest.server().connect(autocommit=True)

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()

    def roundtrip(self, coltype, values, expect=None):
        cu = self.conn.cursor()
        cu.execute("drop table if exists rt")
        cu.execute("create table rt (n serial, v %s)" % coltype)
        cu.executemany("insert into rt (v) values (?)", [(v,) for v in values])
        cu.execute("insert into rt (v) values (?)", (None,))
        cu.execute("select v from rt order by n")
        got = [r[0] for r in cu.fetchall()]
        want = list(expect if expect is not None else values) + [None]
        self.assertEqual(got, want)
        for g, w in zip(got, want):
            self.assertIs(type(g), type(w), coltype)
        # each value also bound in a WHERE clause finds its row
        for w in want[:-1]:
            cu.execute("select count(*) from rt where v = ?", (w,))
            self.assertGreaterEqual(cu.fetchone()[0], 1, (coltype, w))
        return cu

    def fetch_literal(self, coltype, literal, expect):
        cu = self.conn.cursor()
        cu.execute("drop table if exists rl")
        cu.execute("create table rl (v %s)" % coltype)
        cu.execute("insert into rl values (%s)" % literal)
        cu.execute("select v from rl")
        got = cu.fetchone()[0]
        self.assertEqual(got, expect)
        self.assertIs(type(got), type(expect))

    def test_integers(self):
        self.roundtrip("smallint", [0, 1, -32767, 32767])
        self.roundtrip("integer", [0, -2147483647, 2147483647])
        self.roundtrip("bigint", [2**63 - 1, -(2**63 - 1), 2**40])
        self.roundtrip("int8", [2**62, -5])

    def test_float(self):
        self.roundtrip("float", [0.0, 1.5, -1e300, 3.141592653589793, float("inf")])
        self.roundtrip("smallfloat", [0.5, -2.25])

    def test_decimal_exact(self):
        vals = [Decimal("0.00"), Decimal("-12.50"), Decimal("99999999.99"), Decimal("0.01")]
        self.roundtrip("decimal(10,2)", vals)
        big = [Decimal("12345678901234567890123456789012"), Decimal("-0.0000000000000000000000000000001"),
               Decimal("1234567890.1234567890123456789012")]
        self.roundtrip("decimal(32)", big)
        self.roundtrip("money(12,2)", [Decimal("3.10"), Decimal("-98765.43")])

    def test_decimal_scale_and_ints(self):
        cu = self.roundtrip("decimal(12,4)", [Decimal("1.5"), 7, Decimal("-0.0001")],
                            [Decimal("1.5000"), Decimal("7.0000"), Decimal("-0.0001")])
        cu.execute("select sum(v) from rt")
        self.assertEqual(cu.fetchone()[0], Decimal("8.4999"))
        # an int beyond 64 bits goes as an exact DECIMAL
        self.roundtrip("decimal(30)", [2**80, -(2**70)], [Decimal(2**80), Decimal(-(2**70))])

    def test_strings(self):
        self.roundtrip("varchar(40)", ["", "abc", "héllo wörld €", "x" * 40])
        self.roundtrip("lvarchar(5000)", ["y" * 255, "ünïcode"])
        self.roundtrip("char(6)", ["ab", "abcdef"], ["ab    ", "abcdef"])
        self.roundtrip("nchar(3)", ["a"], ["a  "])

    def test_byte_and_text(self):
        # also against ixd --strict: a conservative connection sends BYTE/TEXT
        # values as a descriptor, SQ_BBIND and SQ_BLOB chunks
        # BYTE comes back as bytes (fetched through SQ_FETCHBLOB), TEXT as str
        cu = self.conn.cursor()
        cu.execute("drop table if exists bt")
        cu.execute("create table bt (n integer, b byte, t text)")
        values = [(1, b"", "x"), (2, bytes(range(256)) * 3, "text two"),
                  (3, bytes(200000), "t" * 1000), (4, None, None)]
        cu.executemany("insert into bt values (?, ?, ?)", values)
        cu.execute("select n, b, t from bt order by n")
        self.assertEqual(cu.fetchall(), values)

    def test_bytes_into_varchar(self):
        cu = self.conn.cursor()
        cu.execute("drop table if exists rb")
        cu.execute("create table rb (v varchar(20))")
        cu.execute("insert into rb values (?)", (b"raw bytes",))
        cu.execute("insert into rb values (?)", (bytearray(b"ba"),))
        cu.execute("select v from rb order by v")
        self.assertEqual(cu.fetchall(), [("ba",), ("raw bytes",)])
        self.assertIs(ixdb.Binary, bytes)

    def test_long_strings(self):
        # a bound string longer than a VARCHAR can hold (255 bytes)
        self.roundtrip("lvarchar(5000)", ["y" * 5000])

    def test_datetime_other_qualifier(self):
        # a value without microseconds is sent YEAR TO SECOND and extended
        # to the column's qualifier, as Informix does
        self.roundtrip("datetime year to fraction(5)", [dt.datetime(2000, 1, 1)])

    def test_bool(self):
        self.roundtrip("boolean", [True, False])

    def test_date(self):
        self.roundtrip("date", [dt.date(2024, 2, 29), dt.date(1899, 12, 31), dt.date(1, 1, 1),
                                dt.date(9999, 12, 31), dt.date(1970, 1, 1)])

    def test_datetime(self):
        self.roundtrip("datetime year to second", [dt.datetime(2026, 6, 20, 12, 34, 56)])
        self.roundtrip("datetime year to fraction(5)",
                       [dt.datetime(2026, 6, 20, 12, 34, 56, 123450), dt.datetime(2000, 1, 1, 0, 0, 0, 10)])
        # other qualifiers: fetched (ixd only takes binds of the column's qualifier)
        self.fetch_literal("datetime year to day", "datetime(2026-06-20) year to day",
                           dt.datetime(2026, 6, 20))
        self.fetch_literal("datetime year to minute", "datetime(1999-12-31 23:59) year to minute",
                           dt.datetime(1999, 12, 31, 23, 59))
        self.fetch_literal("datetime month to day", "datetime(02-29) month to day",
                           dt.datetime(2000, 2, 29))
        self.fetch_literal("datetime hour to minute", "datetime(07:45) hour to minute",
                           dt.time(7, 45))
        # FRACTION(5) keeps 10 microseconds; the last digit is cut
        cu = self.conn.cursor()
        cu.execute("drop table if exists rf")
        cu.execute("create table rf (v datetime year to fraction(5))")
        cu.execute("insert into rf values (?)", (dt.datetime(2020, 5, 6, 7, 8, 9, 999999),))
        cu.execute("select v from rf")
        self.assertEqual(cu.fetchone()[0], dt.datetime(2020, 5, 6, 7, 8, 9, 999990))

    def test_time(self):
        self.roundtrip("datetime hour to second", [dt.time(0, 0, 0), dt.time(23, 59, 59)])
        self.roundtrip("datetime hour to fraction(5)", [dt.time(12, 0, 1, 10), dt.time(1, 2, 3, 456780)],
                       [dt.time(12, 0, 1, 10), dt.time(1, 2, 3, 456780)])

    def test_interval_day_to_fraction(self):
        vals = [dt.timedelta(microseconds=10), dt.timedelta(days=3, hours=3, minutes=27, seconds=1, microseconds=123450),
                dt.timedelta(days=-3, seconds=5, microseconds=10), dt.timedelta(days=999, seconds=86399, microseconds=990)]
        self.roundtrip("interval day(3) to fraction(5)", vals)
        self.roundtrip("interval day(9) to second", [dt.timedelta(days=999999999), dt.timedelta(seconds=-1)])
        self.fetch_literal("interval hour(5) to minute", "interval(30:05) hour(5) to minute",
                           dt.timedelta(hours=30, minutes=5))
        self.fetch_literal("interval minute(4) to fraction(3)",
                           "interval(-75:01.500) minute(4) to fraction(3)",
                           -dt.timedelta(minutes=75, seconds=1, microseconds=500000))

    def test_interval_months(self):
        vals = [ixdb.Months(0), ixdb.Months(18), ixdb.Months(-18), ixdb.Months(years=999, months=11)]
        self.roundtrip("interval year(4) to month", vals)
        self.fetch_literal("interval month(3) to month", "interval(120) month(3) to month",
                           ixdb.Months(120))
        m = ixdb.Months(years=1, months=6)
        self.assertEqual((m.months, m.years, int(m), str(m)), (18, 1, 18, "1-06"))
        self.assertEqual(m + ixdb.Months(6), ixdb.Months(24))
        self.assertEqual(-m, ixdb.Months(-18))
        self.assertEqual(repr(m), "ixdb.Months(18)")

    def test_nulls_every_type(self):
        types = ["smallint", "integer", "bigint", "int8", "float", "smallfloat", "decimal(8,2)",
                 "money", "date", "datetime year to second", "interval day to second",
                 "interval year to month", "varchar(10)", "char(3)", "lvarchar", "boolean"]
        cu = self.conn.cursor()
        cu.execute("drop table if exists rn")
        cu.execute("create table rn (%s)" % ", ".join("c%d %s" % (i, t) for i, t in enumerate(types)))
        cu.execute("insert into rn values (%s)" % ", ".join("?" * len(types)), [None] * len(types))
        cu.execute("select * from rn")
        self.assertEqual(cu.fetchone(), (None,) * len(types))

    def test_description_and_type_objects(self):
        cu = self.conn.cursor()
        cu.execute("drop table if exists rd")
        cu.execute("create table rd (a int not null, b varchar(12), c decimal(9,3), d date,"
                   " e datetime year to second, f byte, g serial8)")
        cu.execute("select * from rd")
        d = cu.description
        self.assertEqual([x[0] for x in d], list("abcdefg"))
        self.assertEqual(d[0][1], ixdb.NUMBER)
        self.assertEqual(d[1][1], ixdb.STRING)
        self.assertEqual(d[2][1], ixdb.NUMBER)
        self.assertEqual(d[3][1], ixdb.DATETIME)
        self.assertEqual(d[4][1], ixdb.DATETIME)
        self.assertEqual(d[5][1], ixdb.BINARY)
        self.assertEqual(d[6][1], ixdb.ROWID)
        self.assertNotEqual(d[1][1], ixdb.NUMBER)
        self.assertEqual(d[0][6], False)
        self.assertEqual(d[1][6], True)
        self.assertEqual((d[1][3], d[2][4], d[2][5]), (12, 9, 3))
        self.assertEqual(cu.typenames, ["INTEGER", "VARCHAR(12)", "DECIMAL(9,3)", "DATE",
                                        "DATETIME YEAR TO SECOND", "BYTE", "SERIAL8"])
        self.assertEqual(cu.fetchall(), [])

    def test_unsupported_param(self):
        cu = self.conn.cursor()
        with self.assertRaises(ixdb.ProgrammingError):
            cu.execute("select count(*) from systables where tabid = ?", (object(),))
        with self.assertRaises(ixdb.DataError):
            cu.execute("select count(*) from systables where tabid = ?", (Decimal("NaN"),))

    def test_constructors(self):
        self.assertEqual(ixdb.Date(2020, 1, 2), dt.date(2020, 1, 2))
        self.assertEqual(ixdb.Time(1, 2, 3), dt.time(1, 2, 3))
        self.assertEqual(ixdb.Timestamp(2020, 1, 2, 3, 4, 5), dt.datetime(2020, 1, 2, 3, 4, 5))
        self.assertIsInstance(ixdb.DateFromTicks(0), dt.date)
        self.assertIsInstance(ixdb.TimeFromTicks(0), dt.time)
        self.assertIsInstance(ixdb.TimestampFromTicks(0), dt.datetime)


if __name__ == "__main__":
    ixdtest.main()
