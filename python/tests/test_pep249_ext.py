"""PEP 249 optional extensions: nextset, messages, rownumber,
Connection.Error ..., Cursor.connection, scroll (on any cursor), and
scroll cursors / WITH HOLD cursors (Connection.cursor(scrollable=,
withhold=), fetch_first ... fetch_relative)."""

import os
import tempfile
import unittest

import ixdtest
from ixdtest import ixdb

CLASSES = ("Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
           "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
           "NotSupportedError")


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ixdtest.fresh_table("ext_t", "n integer primary key, s varchar(10)",
                            [(i, "r%d" % i) for i in range(10)])

    def setUp(self):
        self.conn = ixdtest.server().connect()
        self.cu = self.conn.cursor()

    def tearDown(self):
        self.conn.close()


class Extensions(Base):
    def test_nextset(self):
        self.cu.execute("select n from ext_t order by n")
        self.assertIsNone(self.cu.nextset())
        self.assertEqual(self.cu.fetchone(), (0,))  # the result set stays
        self.cu.close()
        with self.assertRaises(ixdb.InterfaceError):
            self.cu.nextset()

    def test_connection_error_classes(self):
        for n in CLASSES:
            self.assertIs(getattr(self.conn, n), getattr(ixdb, n), n)
            self.assertIs(getattr(ixdb.Connection, n), getattr(ixdb, n), n)

    def test_cursor_connection(self):
        self.assertIs(self.cu.connection, self.conn)

    def test_cursor_messages(self):
        self.assertEqual(self.cu.messages, [])
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.execute("select nosuch from ext_t")
        self.assertEqual(len(self.cu.messages), 1)
        cls, value = self.cu.messages[0]
        self.assertIs(cls, ixdb.ProgrammingError)
        self.assertIsInstance(value, ixdb.ProgrammingError)
        self.assertEqual(value.sqlcode, -217)
        self.assertIsNone(value.__traceback__)  # a copy: keeps no frame alive
        # a fetch error is added; fetch does not clear
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.fetchone()
        self.assertEqual(len(self.cu.messages), 2)
        # the next standard call clears
        self.cu.execute("select n from ext_t where n = 1")
        self.assertEqual(self.cu.messages, [])

    def test_connection_messages(self):
        self.assertEqual(self.conn.messages, [])
        c2 = ixdtest.server().connect()
        c2.close()
        with self.assertRaises(ixdb.InterfaceError):
            c2.commit()
        self.assertEqual(len(c2.messages), 1)
        self.assertIs(c2.messages[0][0], ixdb.InterfaceError)
        c2.close()
        self.assertEqual(c2.messages, [])

    def test_rownumber(self):
        self.assertIsNone(self.cu.rownumber)
        self.cu.execute("select n from ext_t order by n")
        self.assertEqual(self.cu.rownumber, 0)
        self.cu.fetchone()
        self.assertEqual(self.cu.rownumber, 1)
        self.cu.fetchmany(3)
        self.assertEqual(self.cu.rownumber, 4)
        self.cu.fetchall()
        self.assertEqual(self.cu.rownumber, 10)
        self.cu.execute("update ext_t set s = s where n = 1")
        self.assertIsNone(self.cu.rownumber)

    def test_scroll_forward_only_cursor(self):
        self.cu.execute("select n from ext_t order by n")
        self.cu.scroll(3)
        self.assertEqual(self.cu.rownumber, 3)
        self.assertEqual(self.cu.fetchone(), (3,))
        self.cu.scroll(6, mode="absolute")
        self.assertEqual(self.cu.fetchone(), (6,))
        with self.assertRaises(ixdb.NotSupportedError):
            self.cu.scroll(-2)
        with self.assertRaises(IndexError):
            self.cu.scroll(50)
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.scroll(1, mode="sideways")


class ScrollCursors(Base):
    def test_scroll(self):
        cu = self.conn.cursor(scrollable=True)
        self.assertTrue(cu.scrollable)
        self.assertFalse(cu.withhold)
        cu.execute("select n, s from ext_t order by n")
        self.assertEqual(cu.fetchmany(3), [(0, "r0"), (1, "r1"), (2, "r2")])
        cu.scroll(-2)
        self.assertEqual(cu.rownumber, 1)
        self.assertEqual(cu.fetchone(), (1, "r1"))
        cu.scroll(8, mode="absolute")
        self.assertEqual(cu.fetchall(), [(8, "r8"), (9, "r9")])
        cu.scroll(0, mode="absolute")
        self.assertEqual(cu.fetchone(), (0, "r0"))
        with self.assertRaises(IndexError):
            cu.scroll(10, mode="absolute")  # one past the last row
        with self.assertRaises(IndexError):
            cu.scroll(-1, mode="absolute")
        cu.scroll(9, mode="absolute")
        self.assertEqual(cu.fetchone(), (9, "r9"))
        self.assertIsNone(cu.fetchone())

    def test_fetch_methods(self):
        cu = self.conn.cursor(scrollable=True)
        cu.execute("select n from ext_t order by n")
        self.assertEqual(cu.fetch_last(), (9,))
        self.assertEqual(cu.fetch_prior(), (8,))
        self.assertEqual(cu.fetch_first(), (0,))
        self.assertEqual(cu.fetch_absolute(5), (4,))
        self.assertEqual(cu.rownumber, 5)
        self.assertEqual(cu.fetch_relative(2), (6,))
        self.assertEqual(cu.fetchone(), (7,))
        cu.scroll(-3)
        # scroll() leaves the cursor between rows 4 and 5: row 4 counts as
        # the current one (the last returned) for fetch_prior/fetch_relative
        self.assertEqual(cu.fetch_prior(), (3,))
        cu.scroll(2, mode="absolute")
        self.assertEqual(cu.fetch_relative(1), (2,))
        self.assertEqual(cu.fetch_relative(0), (2,))
        self.assertIsNone(cu.fetch_absolute(11))
        self.assertEqual(cu.fetch_prior(), (9,))
        plain = self.conn.cursor()
        plain.execute("select n from ext_t")
        with self.assertRaises(ixdb.NotSupportedError):
            plain.fetch_first()

    def traced(self, **kw):
        """The client->server messages of one query on a cursor(**kw)."""
        fd, path = tempfile.mkstemp(prefix="ixdpy.trace.")
        os.close(fd)
        os.environ["IXDB_TRACE"] = path
        try:
            c = ixdtest.server().connect()
        finally:
            del os.environ["IXDB_TRACE"]
        cu = c.cursor(**kw)
        cu.execute("select n from ext_t where n = 1")
        self.assertEqual(cu.fetchall(), [(1,)])
        c.close()
        with open(path) as f:
            text = f.read()
        os.unlink(path)
        return [ln.split()[1] for ln in text.splitlines() if ln.startswith("C->S")]

    def test_cursor_flags_on_the_wire(self):
        self.assertNotIn("SQ_HOLD", self.traced())
        self.assertNotIn("SQ_SCROLL", self.traced())
        self.assertIn("SQ_HOLD", self.traced(withhold=True))
        self.assertNotIn("SQ_SCROLL", self.traced(withhold=True))
        self.assertIn("SQ_SCROLL", self.traced(scrollable=True))
        self.assertNotIn("SQ_HOLD", self.traced(scrollable=True))

    def test_withhold(self):
        cu = self.conn.cursor(withhold=True)
        self.assertTrue(cu.withhold)
        cu.execute("select n from ext_t order by n")
        self.assertEqual(cu.fetchone(), (0,))
        self.conn.commit()
        self.assertEqual(cu.fetchone(), (1,))  # still open after COMMIT WORK
        both = self.conn.cursor(scrollable=True, withhold=True)
        both.execute("select n from ext_t order by n")
        both.fetch_last()
        self.conn.commit()
        self.assertEqual(both.fetch_first(), (0,))


if __name__ == "__main__":
    ixdtest.main()
