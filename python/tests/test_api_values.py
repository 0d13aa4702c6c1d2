"""Values through libixdb's own accessors: declared type names
(ix_column_decltype), exact DECIMAL values (ix_column_get_decimal), DATE
through the library's calendar, and long text binds, against a real ixd."""

import datetime as dt
import unittest
from decimal import Decimal

import ixdtest


class ApiValues(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = ixdtest.server().connect(autocommit=True)

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()

    def test_typenames(self):
        cu = self.conn.cursor()
        cu.execute("drop table if exists tn")
        cu.execute("create table tn (a decimal(10,2), b datetime year to fraction(3),"
                   " c varchar(20), d char(5), e interval day(3) to second, f money(8,2),"
                   " g lvarchar(2048), h decimal(16), i interval year to month)")
        cu.execute("select * from tn")
        self.assertEqual(cu.typenames, [
            "DECIMAL(10,2)", "DATETIME YEAR TO FRACTION(3)", "VARCHAR(20)", "CHAR(5)",
            "INTERVAL DAY(3) TO SECOND", "MONEY(8,2)", "LVARCHAR(2048)", "DECIMAL(16)",
            "INTERVAL YEAR TO MONTH"])

    def fetch(self, coltype, literal):
        cu = self.conn.cursor()
        cu.execute("drop table if exists fv")
        cu.execute("create table fv (v %s)" % coltype)
        cu.execute("insert into fv values (%s)" % literal)
        cu.execute("select v from fv")
        return cu.fetchone()[0]

    def test_decimal_forms(self):
        # the digits and the exponent Decimal gets, not only its value
        cases = [("decimal(5,2)", "1.5", (0, (1, 5, 0), -2)),
                 ("decimal(5,2)", "0", (0, (0,), -2)),
                 ("money(8,2)", "-0.05", (1, (5,), -2)),
                 ("decimal(16)", "0.001", (0, (1,), -3)),
                 ("decimal(16)", "-2.5e-7", (1, (2, 5), -8)),
                 ("decimal(16)", "1e20", (0, (1,) + (0,) * 20, 0))]
        for coltype, literal, want in cases:
            got = self.fetch(coltype, literal)
            self.assertIs(type(got), Decimal)
            self.assertEqual(got.as_tuple(), want, (coltype, literal))

    def test_date_range(self):
        cu = self.conn.cursor()
        cu.execute("drop table if exists dr")
        cu.execute("create table dr (n integer, v date)")
        days = [dt.date(1, 1, 1), dt.date(1899, 12, 31), dt.date(1900, 2, 28),
                dt.date(2000, 2, 29), dt.date(9999, 12, 31)]
        cu.executemany("insert into dr values (?, ?)", list(enumerate(days)))
        # the day numbers the server keeps are those of Informix (0 = 1899-12-31)
        cu.execute("select v - date('1899-12-31') from dr order by n")
        self.assertEqual([r[0] for r in cu.fetchall()], [-693594, 0, 59, 36584, 2958464])
        cu.execute("select v from dr order by n")
        self.assertEqual([r[0] for r in cu.fetchall()], days)

    def test_long_text(self):
        cu = self.conn.cursor()
        cu.execute("drop table if exists lt")
        cu.execute("create table lt (n integer, v text)")
        values = [(1, "a" * 32767), (2, "b" * 32768), (3, "ü" * (1 << 19))]
        cu.executemany("insert into lt values (?, ?)", values)
        cu.execute("select n, v from lt order by n")
        self.assertEqual(cu.fetchall(), values)


if __name__ == "__main__":
    ixdtest.main()
