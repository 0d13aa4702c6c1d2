"""pyodbc (Debian python3-pyodbc, under /usr/bin/python3) through unixODBC
and libixodbc against a real ixd: connecting by DSN and by connection
string, every common type both ways, NULLs, fetchone / fetchmany /
fetchall, long values read in pieces (TEXT, BYTE, LVARCHAR, CLOB, BLOB), errors with SQLSTATE and SQLCODE,
executemany (row by row and as one parameter array; fast_executemany with
typed parameters), the query timeout, transactions, the catalogue calls
and getinfo, INTERVAL through an output converter or CAST. Environment:
IXD_BIN (the ixd program),
IXODBC_LIB (libixodbc.so). Ends with "N passed, N failed"."""

import datetime
import decimal
import os
import sys
import unittest

try:
    import pyodbc
except ImportError:
    print("pyodbc not installed (Debian python3-pyodbc): skipped")
    sys.exit(77)

import odbcenv  # noqa: E402
from odbcenv import start, stop  # noqa: E402,F401


TYPES = ("i INTEGER, s SMALLINT, b BIGINT, i8 INT8, f FLOAT, sf SMALLFLOAT, d DECIMAL(12,4), "
         "m MONEY(8,2), dt DATE, ts DATETIME YEAR TO FRACTION(5), tm DATETIME HOUR TO SECOND, "
         "c CHAR(6), v VARCHAR(40), nv NVARCHAR(40), lv LVARCHAR(4000), bo BOOLEAN, tx TEXT, "
         "by BYTE")
ROW = (7, -3, 2 ** 40, -(2 ** 62), 1.25, 0.5, decimal.Decimal("-12345678.1234"),
       decimal.Decimal("9.99"), datetime.date(2024, 2, 29),
       datetime.datetime(2024, 2, 29, 13, 14, 15, 123450), datetime.time(23, 59, 58), "ab",
       "héllo wörld ✓", "nv", "x" * 3000, True, "long text " * 2000, bytes(range(256)) * 3)


class Driver(unittest.TestCase):
    def setUp(self):
        self.c = pyodbc.connect("DSN=pyt", autocommit=True)
        self.cur = self.c.cursor()

    def tearDown(self):
        self.c.close()

    def fresh(self, name, cols):
        try:
            self.cur.execute("DROP TABLE " + name)
        except pyodbc.Error:
            pass
        self.cur.execute("CREATE TABLE %s (%s)" % (name, cols))

    def test_connect_string(self):
        c = pyodbc.connect("DRIVER={ixdb};HOST=127.0.0.1;SERVICE=%d;SERVER=ixd;DATABASE=pyt;"
                           "UID=informix;PWD=in4mix;CLIENT_LOCALE=en_US.utf8" % odbcenv.PORT)
        self.assertEqual(c.execute("SELECT 1 + 1 FROM systables WHERE tabid = 1").fetchone()[0], 2)
        self.assertEqual(c.getinfo(pyodbc.SQL_DATABASE_NAME), "pyt")
        c.close()

    def test_types_both_ways(self):
        self.fresh("ty", TYPES)
        self.cur.execute("INSERT INTO ty VALUES (%s)" % ",".join("?" * len(ROW)), *ROW)
        self.assertEqual(self.cur.rowcount, 1)
        got = self.cur.execute("SELECT * FROM ty").fetchone()
        want = list(ROW)
        want[11] = "ab    "  # CHAR(6) keeps its blanks
        self.assertEqual(len(got), len(want))
        for i, (g, w) in enumerate(zip(got, want)):
            self.assertEqual(g, w, self.cur.description[i][0])
        kinds = [d[1] for d in self.cur.description]
        self.assertEqual(kinds, [int, int, int, int, float, float, decimal.Decimal,
                                 decimal.Decimal, datetime.date, datetime.datetime, datetime.time,
                                 str, str, str, str, bool, str, bytearray])
        d = {x[0]: x for x in self.cur.description}
        self.assertEqual(d["d"][4:6], (12, 4))
        self.assertEqual(d["v"][3], 40)

    def test_nulls(self):
        self.fresh("tn", TYPES)
        self.cur.execute("INSERT INTO tn VALUES (%s)" % ",".join("?" * len(ROW)), *([None] * len(ROW)))
        self.assertEqual(list(self.cur.execute("SELECT * FROM tn").fetchone()), [None] * len(ROW))

    def test_non_ascii_names(self):
        # the wide SQLDescribeColW counts characters (the driver manager's
        # conversion of the narrow one counted UTF-8 bytes)
        self.cur.execute('SELECT 1 AS "ñame", 2 AS "plain" FROM systables WHERE tabid = 1')
        self.assertEqual([d[0] for d in self.cur.description], ["ñame", "plain"])

    def test_non_ascii_text_and_messages(self):
        # pyodbc calls the wide functions (SQLDriverConnectW, SQLExecDirectW,
        # SQLGetDiagRecW, ...): the driver's own, so SQL text, names and
        # messages are UTF-16 converted to and from UTF-8, a character
        # outside the BMP included
        self.fresh("tëst", "nämé VARCHAR(20)")
        self.cur.execute("INSERT INTO tëst VALUES ('höhe €𝄞')")
        self.assertEqual(self.cur.execute("SELECT nämé FROM tëst WHERE nämé LIKE 'h%𝄞'")
                         .fetchall()[0][0], "höhe €𝄞")
        self.assertEqual(self.cur.description[0][0], "nämé")
        self.assertEqual([r.column_name for r in self.cur.columns(table="tëst")], ["nämé"])
        with self.assertRaises(pyodbc.ProgrammingError) as e:
            self.cur.execute("SELECT * FROM nöpe_𝄞")
        self.assertEqual(e.exception.args[0], "42S02")
        self.assertIn("[ixdb][libixodbc]The specified table (nöpe_𝄞) is not in the database. "
                      "(-206)", e.exception.args[1])

    def test_fetchmany(self):
        self.fresh("tf", "n INTEGER, t VARCHAR(10)")
        self.cur.executemany("INSERT INTO tf VALUES (?, ?)", [(i, str(i)) for i in range(25)])
        self.cur.execute("SELECT n, t FROM tf ORDER BY n")
        self.assertEqual(self.cur.fetchone()[0], 0)
        self.assertEqual([r[0] for r in self.cur.fetchmany(10)], list(range(1, 11)))
        rest = self.cur.fetchall()
        self.assertEqual([tuple(r) for r in rest], [(i, str(i)) for i in range(11, 25)])
        self.assertEqual(self.cur.fetchone(), None)

    def test_errors(self):
        with self.assertRaises(pyodbc.ProgrammingError) as e:
            self.cur.execute("SELECT * FROM nosuch")
        self.assertEqual(e.exception.args[0], "42S02")
        self.assertIn("[ixdb][libixodbc]The specified table (nosuch) is not in the database. (-206)",
                      e.exception.args[1])
        with self.assertRaises(pyodbc.Error) as e:
            self.cur.execute("SELEC 1")
        self.assertEqual(e.exception.args[0], "42000")
        self.assertIn("(-201)", e.exception.args[1])
        self.fresh("tu", "n INTEGER PRIMARY KEY")
        self.cur.execute("INSERT INTO tu VALUES (1)")
        with self.assertRaises(pyodbc.IntegrityError) as e:
            self.cur.execute("INSERT INTO tu VALUES (?)", 1)
        self.assertEqual(e.exception.args[0], "23000")
        self.assertIn("(-268)", e.exception.args[1])
        # the connection goes on after errors
        self.assertEqual(self.cur.execute("SELECT COUNT(*) FROM tu").fetchone()[0], 1)

    def test_executemany(self):
        self.fresh("te", "n INTEGER PRIMARY KEY, t VARCHAR(20), d DECIMAL(8,2)")
        rows = [(i, "row %d" % i, decimal.Decimal(i) / 4) for i in range(100)]
        self.cur.executemany("INSERT INTO te VALUES (?, ?, ?)", rows)
        self.assertEqual(self.cur.execute("SELECT COUNT(*), SUM(d) FROM te").fetchone()[0], 100)
        # one parameter array (SQL_ATTR_PARAMSET_SIZE), sent as one batch;
        # text for a DECIMAL column goes as text
        self.cur.fast_executemany = True
        more = [(i, "fast %d" % i, "0.25" if i % 2 else None) for i in range(100, 1100)]
        self.cur.executemany("INSERT INTO te VALUES (?, ?, ?)", more)
        self.cur.fast_executemany = False
        self.assertEqual(self.cur.execute("SELECT COUNT(*) FROM te").fetchone()[0], 1100)
        self.assertEqual(tuple(self.cur.execute("SELECT t, d FROM te WHERE n = 777").fetchone()),
                         ("fast 777", decimal.Decimal("0.25")))
        self.assertEqual(tuple(self.cur.execute("SELECT t, d FROM te WHERE n = 778").fetchone()),
                         ("fast 778", None))

    def test_fast_executemany_typed(self):
        # SQLDescribeParam describes each parameter by its column, so that
        # pyodbc binds Decimals as SQL_NUMERIC_STRUCT at the column's scale,
        # dates and datetimes as structs, ints, floats and text as such
        self.fresh("tf", "n INTEGER NOT NULL, d DECIMAL(10,2), dt DATE, "
                   "ts DATETIME YEAR TO SECOND, tf DATETIME YEAR TO FRACTION(3), f FLOAT, "
                   "v VARCHAR(30), b BIGINT")
        ts0 = datetime.datetime(2026, 12, 4, 10, 11, 12)
        rows = [(i, decimal.Decimal(i * 37 - 500) / 100 if i % 5 else None,
                 datetime.date(2024, 2, 29) + datetime.timedelta(days=i),
                 ts0 + datetime.timedelta(seconds=i),
                 ts0 + datetime.timedelta(milliseconds=i * 7), i / 8, "wörd %d" % i, 2 ** 40 + i)
                for i in range(500)]
        self.cur.fast_executemany = True
        self.cur.executemany("INSERT INTO tf VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self.cur.executemany("INSERT INTO tf (n, d) VALUES (?, ?)",
                             [(1000, decimal.Decimal("-99999999.99")),
                              (1001, decimal.Decimal("0.01"))])
        self.cur.fast_executemany = False
        got = [tuple(r) for r in self.cur.execute("SELECT * FROM tf WHERE n < 1000 ORDER BY n")]
        self.assertEqual(got, rows)
        self.assertEqual([r[0] for r in self.cur.execute("SELECT d FROM tf WHERE n >= 1000 "
                                                         "ORDER BY n")],
                         [decimal.Decimal("-99999999.99"), decimal.Decimal("0.01")])

    def test_query_timeout(self):
        # pyodbc's Connection.timeout is SQL_ATTR_QUERY_TIMEOUT on its cursors
        self.fresh("tq", "i INTEGER")
        self.cur.fast_executemany = True
        self.cur.executemany("INSERT INTO tq VALUES (?)", [(i,) for i in range(2000)])
        self.c.timeout = 1
        cur = self.c.cursor()
        with self.assertRaises(pyodbc.OperationalError) as e:
            cur.execute("SELECT COUNT(*) FROM tq a, tq b, tq c")
        self.assertEqual(e.exception.args[0], "HYT00")
        self.assertIn("Timeout expired (-213)", e.exception.args[1])
        self.assertEqual(cur.execute("SELECT COUNT(*) FROM tq").fetchone()[0], 2000)

    def test_executemany_failing_row(self):
        self.fresh("tx", "n INTEGER PRIMARY KEY")
        with self.assertRaises(pyodbc.IntegrityError):
            self.cur.executemany("INSERT INTO tx VALUES (?)", [(1,), (2,), (2,), (3,)])
        self.assertEqual([r[0] for r in self.cur.execute("SELECT n FROM tx ORDER BY n")], [1, 2])

    def test_transactions(self):
        self.fresh("tt", "n INTEGER")
        c = pyodbc.connect("DSN=pyt", autocommit=False)
        c.execute("INSERT INTO tt VALUES (1)")
        c.rollback()
        c.execute("INSERT INTO tt VALUES (2)")
        c.commit()
        self.assertEqual([r[0] for r in self.cur.execute("SELECT n FROM tt")], [2])
        c.close()

    def test_no_transactions_without_a_logged_database(self):
        # pyodbc turns autocommit off at connect: without a database, or in
        # an unlogged one, the driver keeps it on (01S02) instead of failing
        c = pyodbc.connect("DSN=nodb")
        c.execute("CREATE DATABASE plain")
        c.execute("CREATE TABLE p (i INTEGER)")
        c.execute("INSERT INTO p VALUES (1)")
        c.rollback()  # nothing to roll back: each statement committed
        self.assertEqual(c.execute("SELECT COUNT(*) FROM p").fetchone()[0], 1)
        self.assertEqual(c.getinfo(pyodbc.SQL_DATABASE_NAME), "plain")
        c.close()

    def test_long_values_in_pieces(self):
        self.fresh("tl", "tx TEXT, bt BYTE, lv LVARCHAR(32000)")
        text = "".join(chr(0x41 + i % 26) for i in range(200000))
        blob = os.urandom(150000)
        self.cur.execute("INSERT INTO tl VALUES (?, ?, ?)", text, blob, "é" * 10000)
        got = self.cur.execute("SELECT tx, bt, lv FROM tl").fetchone()
        self.assertEqual(got[0], text)
        self.assertEqual(bytes(got[1]), blob)
        self.assertEqual(got[2], "é" * 10000)

    def test_smart_lobs(self):
        self.fresh("tlob", "id INTEGER, c CLOB, b BLOB")
        text, blob = "ünïcode " * 20000, os.urandom(300000)
        self.cur.execute("INSERT INTO tlob VALUES (?, ?, ?)", 1, text, blob)
        self.cur.execute("INSERT INTO tlob VALUES (?, ?, ?)", 2, None, None)
        rows = self.cur.execute("SELECT id, c, b FROM tlob ORDER BY id").fetchall()
        self.assertEqual((rows[0][1], bytes(rows[0][2])), (text, blob))
        self.assertEqual((rows[1][1], rows[1][2]), (None, None))
        kinds = [(d[0], d[1]) for d in self.cur.description]
        self.assertEqual(kinds, [("id", int), ("c", str), ("b", bytearray)])

    def test_catalogue(self):
        self.fresh("tcat", "id SERIAL NOT NULL, name VARCHAR(30), amount DECIMAL(10,2)")
        tables = [r.table_name for r in self.cur.tables(table="tcat")]
        self.assertEqual(tables, ["tcat"])
        self.assertEqual(self.cur.tables(table="tcat").fetchone().table_type, "TABLE")
        self.assertIn("systables", [r.table_name for r in self.cur.tables(tableType="SYSTEM TABLE")])
        cols = [(r.column_name, r.data_type, r.type_name, r.column_size, r.decimal_digits,
                 r.nullable, r.ordinal_position) for r in self.cur.columns(table="tcat")]
        self.assertEqual(cols, [("id", pyodbc.SQL_INTEGER, "SERIAL", 10, 0, 0, 1),
                                ("name", pyodbc.SQL_VARCHAR, "VARCHAR", 30, None, 1, 2),
                                ("amount", pyodbc.SQL_DECIMAL, "DECIMAL", 10, 2, 1, 3)])
        names = [r.type_name for r in self.cur.getTypeInfo(pyodbc.SQL_INTEGER)]
        self.assertEqual(names, ["INTEGER", "SERIAL"])

    def test_keys_and_indexes(self):
        self.fresh("tk", "a INTEGER, b VARCHAR(10), c INTEGER, PRIMARY KEY (b, a)")
        self.cur.execute("CREATE INDEX tk_c ON tk (c DESC)")
        self.assertEqual([(r.column_name, r.key_seq) for r in self.cur.primaryKeys("tk")],
                         [("b", 1), ("a", 2)])
        stats = [(r.non_unique, r.ordinal_position, r.column_name, r.asc_or_desc)
                 for r in self.cur.statistics("tk")]
        self.assertEqual(stats, [(0, 1, "b", "A"), (0, 2, "a", "A"), (1, 1, "c", "D")])
        self.assertEqual(len(list(self.cur.statistics("tk", unique=True))), 2)

    def test_getinfo(self):
        self.assertEqual(self.c.getinfo(pyodbc.SQL_DBMS_NAME), "Informix")
        self.assertTrue(self.c.getinfo(pyodbc.SQL_DBMS_VER))
        self.assertEqual(self.c.getinfo(pyodbc.SQL_DRIVER_NAME), "libixodbc.so")
        self.assertEqual(self.c.getinfo(pyodbc.SQL_DRIVER_ODBC_VER), "03.80")
        self.assertEqual(self.c.getinfo(pyodbc.SQL_IDENTIFIER_QUOTE_CHAR), '"')

    def test_intervals(self):
        # INTERVAL columns are SQL_INTERVAL_* (101..113), which pyodbc does
        # not fetch by itself; an output converter takes the driver's
        # SQL_C_BINARY form, the Informix text; CAST to CHAR needs nothing
        self.fresh("tiv", "d INTERVAL DAY(3) TO FRACTION(5), ym INTERVAL YEAR TO MONTH")
        self.cur.execute("INSERT INTO tiv VALUES (?, ?)", "-3 03:27:01.12345", "12-06")
        self.cur.execute("INSERT INTO tiv VALUES (NULL, NULL)")
        sql = "SELECT d, ym FROM tiv ORDER BY d"
        with self.assertRaisesRegex(pyodbc.Error, "ODBC SQL type 110 is not yet supported"):
            self.cur.execute(sql).fetchall()
        for t in (pyodbc.SQL_INTERVAL_DAY_TO_SECOND, pyodbc.SQL_INTERVAL_YEAR_TO_MONTH):
            self.c.add_output_converter(t, lambda b: None if b is None else b.decode())
        rows = [tuple(r) for r in self.cur.execute(sql).fetchall()]
        self.assertEqual(sorted(rows, key=str), sorted([(None, None),
                                                        (" -3 03:27:01.12345", "  12-06")], key=str))
        self.c.clear_output_converters()
        got = self.cur.execute("SELECT CAST(d AS CHAR(20)) FROM tiv WHERE d IS NOT NULL").fetchone()
        self.assertEqual(got[0].rstrip(), " -3 03:27:01.12345")
        d = {x[0]: x for x in self.cur.execute(sql).description}
        self.assertEqual(d["d"][3:6], (18, 18, 5))

    def test_cancel_idle_and_reuse(self):
        self.cur.execute("SELECT tabid FROM systables")
        self.cur.cancel()
        self.assertEqual(self.cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1").fetchone()[0], 1)


def main():
    start()
    try:
        r = unittest.TextTestRunner(verbosity=2).run(unittest.defaultTestLoader.loadTestsFromTestCase(Driver))
    finally:
        stop()
    failed = len(r.failures) + len(r.errors)
    print("%d passed, %d failed" % (r.testsRun - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
