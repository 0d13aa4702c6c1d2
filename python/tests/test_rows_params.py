"""row_factory (ixdb.rows.dict / namedtuple / any callable, on the
connection and the cursor), named parameters refused, the numeric style
(:1, :2) rewritten to ?, and str(e) of server errors (SQLCODE first)."""

import unittest

import ixdtest
from ixdtest import ixdb


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c = ixdtest.server().connect(autocommit=True)
        cu = c.cursor()
        try:
            cu.execute("drop table rp_t")
        except ixdb.Error:
            pass
        cu.execute("create table rp_t (n integer, s varchar(20))")
        cu.execute("create unique index rp_u on rp_t (n)")
        cu.executemany("insert into rp_t values (?, ?)", [(1, "one"), (2, "two"), (3, "it's")])
        c.close()

    def setUp(self):
        self.conn = ixdtest.server().connect(autocommit=True)
        self.cu = self.conn.cursor()

    def tearDown(self):
        self.conn.close()


class RowFactory(Base):
    def test_default_tuples(self):
        self.assertIsNone(self.conn.row_factory)
        self.assertIsNone(self.cu.row_factory)
        self.cu.execute("select n, s from rp_t where n = 1")
        self.assertEqual(self.cu.fetchone(), (1, "one"))

    def test_dict(self):
        self.cu.row_factory = ixdb.rows.dict
        self.cu.execute("select n, s from rp_t order by n")
        self.assertEqual(self.cu.fetchone(), {"n": 1, "s": "one"})
        self.assertEqual(self.cu.fetchmany(1), [{"n": 2, "s": "two"}])
        self.assertEqual([r["n"] for r in self.cu], [3])

    def test_namedtuple(self):
        self.cu.row_factory = ixdb.rows.namedtuple
        self.cu.execute("select n, s, count(*) from rp_t group by 1, 2 order by n")
        r = self.cu.fetchall()[1]
        self.assertEqual((r.n, r.s, r[2]), (2, "two", 1))
        self.assertEqual(r, (2, "two", 1))

    def test_connection_factory_inherited_at_creation(self):
        self.conn.row_factory = ixdb.rows.dict
        cu = self.conn.cursor()
        self.assertIs(cu.row_factory, ixdb.rows.dict)
        self.conn.row_factory = None
        self.assertIs(cu.row_factory, ixdb.rows.dict)  # taken at creation
        self.assertIsNone(self.conn.cursor().row_factory)
        cu.execute("select n from rp_t where n = 2")
        self.assertEqual(cu.fetchall(), [{"n": 2}])

    def test_any_callable(self):
        seen = []

        def factory(cursor, row):
            seen.append(cursor)
            return list(row)
        self.cu.row_factory = factory
        self.cu.execute("select n from rp_t where n <= 2 order by n")
        self.assertEqual(self.cu.fetchall(), [[1], [2]])
        self.assertEqual(seen, [self.cu, self.cu])
        with self.assertRaises(TypeError):
            self.cu.row_factory = 42
        self.cu.row_factory = None
        self.cu.execute("select n from rp_t where n = 1")
        self.assertEqual(self.cu.fetchone(), (1,))

    def test_factory_error(self):
        def bad(cursor, row):
            raise ValueError("nope")
        self.cu.row_factory = bad
        self.cu.execute("select n from rp_t")
        with self.assertRaises(ValueError):
            self.cu.fetchone()


class Params(Base):
    def test_mapping_refused_at_once(self):
        for sql in ("select n from rp_t where n = :n", "select n from rp_t where n = ?"):
            with self.assertRaises(ixdb.ProgrammingError) as cm:
                self.cu.execute(sql, {"n": 1})
            msg = str(cm.exception)
            self.assertIn("qmark", msg)
            self.assertIn(":1", msg)
            self.assertNotIn("syntax", msg)
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.executemany("insert into rp_t values (:n, :s)", [{"n": 9, "s": "x"}])
        self.assertIn("qmark", str(cm.exception))

    def test_numeric(self):
        self.cu.execute("select n, s from rp_t where n = :1 or n = :2 order by n", (1, 3))
        self.assertEqual(self.cu.fetchall(), [(1, "one"), (3, "it's")])

    def test_numeric_reused_and_out_of_order(self):
        self.cu.execute("select :2, n from rp_t where n = :1 or n + :1 = 4 order by n", (1, "x"))
        self.assertEqual(self.cu.fetchall(), [("x", 1), ("x", 3)])

    def test_numeric_not_in_literals_comments_names(self):
        self.cu.execute("select n, ':1', s -- :2 here\n from rp_t { :3 } /* :4 */ "
                        "where n = :1", (2,))
        self.assertEqual(self.cu.fetchall(), [(2, ":1", "two")])
        self.cu.execute("select n from rp_t where s = 'it''s :1' or n = :1", (1,))
        self.assertEqual(self.cu.fetchall(), [(1,)])
        # DATETIME / INTERVAL literals keep their colons
        self.cu.execute("select n, datetime (12:30) hour to minute, "
                        "interval (1:30) hour to minute from rp_t where n = :1", (3,))
        row = self.cu.fetchone()
        self.assertEqual(row[0], 3)
        self.assertEqual((row[1].hour, row[1].minute), (12, 30))
        self.assertEqual(row[2].total_seconds(), 5400)

    def test_numeric_executemany(self):
        self.cu.executemany("insert into rp_t values (:1, :2)", [(10, "ten"), (11, "eleven")])
        self.cu.execute("select s from rp_t where n >= :1 order by n", (10,))
        self.assertEqual(self.cu.fetchall(), [("ten",), ("eleven",)])
        self.cu.execute("delete from rp_t where n >= 10")

    def test_numeric_errors(self):
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.execute("select n from rp_t where n = :1 or n = ?", (1, 2))
        self.assertIn("mixes", str(cm.exception))
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.execute("select n from rp_t where n = :2", (1,))
        self.assertIn(":2", str(cm.exception))
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.execute("select n from rp_t where n = :0", (1,))


class ErrorText(Base):
    def test_sqlcode_first_with_isam(self):
        with self.assertRaises(ixdb.IntegrityError) as cm:
            self.cu.execute("insert into rp_t values (1, 'dup')")
        e = cm.exception
        self.assertTrue(str(e).startswith("%d: " % e.sqlcode), str(e))
        self.assertIn(e.sqlcode, (-239, -268))
        self.assertNotEqual(e.isamcode, 0)
        self.assertIn("(ISAM %d: " % e.isamcode, str(e))
        self.assertTrue(str(e).endswith(")"), str(e))
        self.assertNotIn("[", str(e))
        self.assertEqual(e.sqlstate, "23000")

    def test_no_isam_part_when_zero(self):
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.execute("select nosuch from rp_t")
        e = cm.exception
        self.assertEqual(e.isamcode, 0)
        self.assertTrue(str(e).startswith("-217: "), str(e))
        self.assertIn("nosuch", str(e))
        self.assertNotIn("ISAM", str(e))

    def test_executemany_text(self):
        with self.assertRaises(ixdb.IntegrityError) as cm:
            self.cu.executemany("insert into rp_t values (?, ?)", [(20, "a"), (1, "dup")])
        s = str(cm.exception)
        self.assertTrue(s.startswith("%d: " % cm.exception.sqlcode), s)
        self.assertIn("(ISAM ", s)
        self.assertIn("(executemany: 1 of 2 rows failed, first row 1)", s)
        self.cu.execute("delete from rp_t where n = 20")


if __name__ == "__main__":
    ixdtest.main()
