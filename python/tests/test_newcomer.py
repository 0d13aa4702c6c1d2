"""What a newcomer from other drivers meets first: the error for %s markers,
Connection.execute, repr() of connections and cursors (never the
password), the SQLCODE of each way a connection fails (as IBM's clients
give them, so code that tests sqlcode works), and the documented idiom that
makes an executemany all or nothing."""

import os
import socket
import tempfile
import threading
import unittest

import ixdtest
from ixdtest import ixdb


class Newcomer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ixdtest.fresh_table("nc_t", "id integer primary key, s varchar(10)", [(1, "one")])

    def setUp(self):
        self.conn = ixdtest.server().connect()

    def tearDown(self):
        self.conn.close()

    def test_format_markers_named(self):
        cu = self.conn.cursor()
        for sql, params in (("select s from nc_t where id = %s", (1,)),
                            ("select s from nc_t where id = %(id)s", (1,))):
            with self.assertRaises(ixdb.ProgrammingError) as e:
                cu.execute(sql, params)
            self.assertIn("'qmark'", str(e.exception))
            self.assertIn("%s", str(e.exception))
        with self.assertRaises(ixdb.ProgrammingError) as e:
            cu.executemany("insert into nc_t values (%s, %s)", [(5, "x")])
        self.assertIn("'qmark'", str(e.exception))
        # a plain count mismatch keeps its count
        with self.assertRaises(ixdb.ProgrammingError) as e:
            cu.execute("select s from nc_t where id = ?", (1, 2))
        self.assertIn("1 parameter(s) but 2 value(s)", str(e.exception))

    def test_connection_execute(self):
        cu = self.conn.execute("select s from nc_t where id = ?", (1,))
        self.assertIsInstance(cu, ixdb.Cursor)
        self.assertEqual(cu.fetchall(), [("one",)])
        self.assertEqual(self.conn.execute("select count(*) from nc_t").fetchone(), (1,))
        with self.assertRaises(ixdb.ProgrammingError):
            self.conn.execute("select nosuchcolumn from nc_t")

    def test_repr(self):
        srv = ixdtest.server()
        r = repr(self.conn)
        self.assertIn("127.0.0.1:%d" % srv.port, r)
        self.assertIn("database 'pyt'", r)
        self.assertNotIn("in4mix", r)
        cu = self.conn.cursor()
        self.assertIn("idle", repr(cu))
        cu.execute("select s from nc_t")
        self.assertIn("rows open: 'select s from nc_t'", repr(cu))
        cu.close()
        self.assertIn("closed", repr(cu))
        c = ixdb.connect(srv.dsn(), autocommit=True)
        self.assertIn("no database", repr(c))
        c.execute("database pyt")
        self.assertIn("database 'pyt'", repr(c))
        self.assertIn("autocommit", repr(c))
        c.execute("close database")
        self.assertIn("no database", repr(c))
        c.close()
        self.assertIn("closed", repr(c))

    def fails(self, dsn):
        with self.assertRaises(ixdb.OperationalError) as e:
            ixdb.connect(dsn)
        return e.exception

    def test_connect_refused(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()  # nothing listens there now
        e = self.fails("host=127.0.0.1 port=%d user=informix password=in4mix" % port)
        self.assertEqual((e.sqlcode, e.sqlstate), (-908, "08001"))
        self.assertIn("Attempt to connect to database server", str(e))
        self.assertIn("refused", str(e))

    def test_connect_unknown_host(self):
        e = self.fails("host=nosuch.invalid port=9088 user=informix password=in4mix")
        self.assertEqual((e.sqlcode, e.sqlstate), (-930, "08001"))
        self.assertIn("Cannot connect to database server", str(e))

    def test_connect_not_in_sqlhosts(self):
        # IBM's -25596, as the ODBC driver gives it (ix_unreached_sqlcode)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sqlhosts")
            with open(path, "w") as f:
                f.write("other onsoctcp 127.0.0.1 9088\n")
            e = self.fails("server=nosuch sqlhosts=%s user=informix password=in4mix" % path)
        self.assertEqual((e.sqlcode, e.sqlstate), (-25596, "08001"))
        self.assertIn("not listed in the sqlhosts file", str(e))

    def test_connect_timeout(self):
        # a listener that never answers the login
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        held = []
        t = threading.Thread(target=lambda: held.append(s.accept()), daemon=True)
        t.start()
        try:
            e = self.fails("host=127.0.0.1 port=%d user=informix password=in4mix "
                           "connect_timeout=0.5" % s.getsockname()[1])
        finally:
            s.close()
        self.assertEqual((e.sqlcode, e.sqlstate), (-908, "08001"))

    def test_connect_wrong_password(self):
        srv = ixdtest.server()
        e = self.fails("host=127.0.0.1 port=%d user=informix password=wrong" % srv.port)
        self.assertEqual(e.sqlcode, -951)

    def test_connect_tls_to_plain_server(self):
        srv = ixdtest.server()
        e = self.fails("host=127.0.0.1 port=%d user=informix password=in4mix tls=1 "
                       "connect_timeout=2" % srv.port)
        self.assertEqual((e.sqlcode, e.sqlstate), (-908, "08001"))

    def test_executemany_all_or_nothing(self):
        # docs/python.md "executemany": a savepoint makes the call all or nothing
        cu = self.conn.cursor()
        rows = [(10, "a"), (11, "b"), (1, "dup"), (12, "c")]
        cu.execute("savepoint before_many")
        try:
            cu.executemany("insert into nc_t values (?, ?)", rows)
        except ixdb.IntegrityError:
            cu.execute("rollback to savepoint before_many")
        self.conn.commit()
        cu.execute("select count(*) from nc_t where id >= 10")
        self.assertEqual(cu.fetchone(), (0,))


if __name__ == "__main__":
    ixdtest.main()
