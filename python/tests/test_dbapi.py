"""PEP 249 behaviour: globals, errors, transactions, executemany, threads,
closing, callproc, fetch methods."""

import gc
import threading
import unittest

import ixdtest
from ixdtest import ixdb


class Module(unittest.TestCase):
    def test_globals(self):
        self.assertEqual(ixdb.apilevel, "2.0")
        self.assertEqual(ixdb.threadsafety, 1)
        self.assertEqual(ixdb.paramstyle, "qmark")
        for n in ("Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
                  "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
                  "NotSupportedError"):
            self.assertTrue(issubclass(getattr(ixdb, n), Exception), n)
        self.assertTrue(issubclass(ixdb.IntegrityError, ixdb.DatabaseError))
        self.assertTrue(issubclass(ixdb.DatabaseError, ixdb.Error))
        self.assertTrue(issubclass(ixdb.InterfaceError, ixdb.Error))
        self.assertFalse(issubclass(ixdb.Warning, ixdb.Error))


class Base(unittest.TestCase):
    def setUp(self):
        self.srv = ixdtest.server()
        self.conn = self.srv.connect(autocommit=True)
        self.cu = self.conn.cursor()

    def tearDown(self):
        self.conn.close()


class Errors(Base):
    def test_connect_errors(self):
        with self.assertRaises(ixdb.OperationalError) as cm:
            ixdb.connect("host=127.0.0.1 port=%d user=informix password=wrong" % self.srv.port)
        self.assertEqual(cm.exception.sqlcode, -951)
        self.assertEqual(cm.exception.sqlstate, "28000")
        with self.assertRaises(ixdb.OperationalError):
            ixdb.connect(self.srv.dsn("nosuchdb"))
        with self.assertRaises(ixdb.OperationalError):
            ixdb.connect("host=127.0.0.1 port=1 user=informix password=x", timeout=2)
        with self.assertRaises(ixdb.Error):
            ixdb.connect(self.srv.dsn(), bogus_key=1)

    def test_sql_errors(self):
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.execute("select * from nosuch")
        e = cm.exception
        self.assertEqual((e.sqlcode, e.sqlstate), (-206, "42S02"))
        self.assertIn("nosuch", str(e))
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.execute("selec 1 from systables")
        self.assertEqual(cm.exception.sqlcode, -201)
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.execute("select nocol from systables")
        self.assertEqual(cm.exception.sqlcode, -217)
        self.cu.execute("drop table if exists e1")
        self.cu.execute("create table e1 (a int primary key, b int not null, c int check (c > 0))")
        self.cu.execute("insert into e1 values (1, 1, 1)")
        with self.assertRaises(ixdb.IntegrityError) as cm:
            self.cu.execute("insert into e1 values (1, 1, 1)")
        self.assertEqual((cm.exception.sqlcode, cm.exception.isamcode), (-268, -100))
        self.assertEqual(cm.exception.sqlstate, "23000")
        with self.assertRaises(ixdb.IntegrityError) as cm:
            self.cu.execute("insert into e1 values (2, ?, 1)", (None,))
        self.assertEqual(cm.exception.sqlcode, -391)
        with self.assertRaises(ixdb.IntegrityError) as cm:
            self.cu.execute("insert into e1 values (3, 1, -1)")
        self.assertEqual(cm.exception.sqlcode, -530)
        with self.assertRaises(ixdb.DataError):
            self.cu.execute("select 1/0 from systables where tabid = 1")
            self.cu.fetchall()
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.execute("select * from e1 where a = ?", (1, 2))
        # the connection is still usable
        self.cu.execute("select count(*) from e1")
        self.assertEqual(self.cu.fetchone(), (1,))

    def test_fetch_without_result(self):
        self.cu.execute("drop table if exists e2")
        self.cu.execute("create table e2 (a int)")
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.fetchone()


class Transactions(Base):
    def test_autocommit_off(self):
        self.cu.execute("drop table if exists tx")
        self.cu.execute("create table tx (a int)")
        c2 = self.srv.connect()  # autocommit off (PEP 249 default)
        self.assertFalse(c2.autocommit)
        k = c2.cursor()
        k.execute("insert into tx values (1)")
        self.assertTrue(c2.in_transaction)
        c2.rollback()
        k.execute("select count(*) from tx")
        self.assertEqual(k.fetchone(), (0,))
        k.execute("insert into tx values (2)")
        self.cu.execute("select count(*) from tx")  # other session: not yet visible
        self.assertEqual(self.cu.fetchone(), (0,))
        c2.commit()
        self.cu.execute("select count(*) from tx")
        self.assertEqual(self.cu.fetchone(), (1,))
        # close without commit rolls back
        k.execute("insert into tx values (3)")
        c2.close()
        self.cu.execute("select count(*) from tx")
        self.assertEqual(self.cu.fetchone(), (1,))

    def test_autocommit_on_and_switch(self):
        self.cu.execute("drop table if exists ty")
        self.cu.execute("create table ty (a int)")
        self.assertTrue(self.conn.autocommit)
        self.cu.execute("insert into ty values (1)")
        self.assertFalse(self.conn.in_transaction)
        self.conn.rollback()  # nothing to roll back
        self.conn.autocommit = False
        self.cu.execute("insert into ty values (2)")
        self.assertTrue(self.conn.in_transaction)
        self.conn.autocommit = True  # commits
        self.conn.rollback()
        self.cu.execute("select count(*) from ty")
        self.assertEqual(self.cu.fetchone(), (2,))

    def test_context_manager(self):
        self.cu.execute("drop table if exists tz")
        self.cu.execute("create table tz (a int)")
        with self.srv.connect() as c:
            with c.cursor() as k:
                k.execute("insert into tz values (1)")
        self.assertTrue(c.closed)
        with self.assertRaises(ZeroDivisionError):
            with self.srv.connect() as c:
                c.cursor().execute("insert into tz values (2)")
                1 / 0
        self.cu.execute("select a from tz")
        self.assertEqual(self.cu.fetchall(), [(1,)])

    def test_unlogged_database(self):
        self.cu.execute("create database if not exists pynolog")
        c = self.srv.connect("pynolog")
        k = c.cursor()
        k.execute("drop table if exists n1")
        k.execute("create table n1 (a int)")
        k.execute("insert into n1 values (1)")
        c.commit()
        c.rollback()
        k.execute("select count(*) from n1")
        self.assertEqual(k.fetchone(), (1,))
        c.close()
        self.cu.execute("database pyt")


class ExecuteMany(Base):
    def test_failing_row(self):
        self.cu.execute("drop table if exists m1")
        self.cu.execute("create table m1 (a int primary key, b varchar(10))")
        rows = [(i, "r%d" % i) for i in range(20000)]
        rows[7] = (3, "dup")
        rows[15000] = (4, "dup2")
        with self.assertRaises(ixdb.IntegrityError) as cm:
            self.cu.executemany("insert into m1 values (?, ?)", rows)
        e = cm.exception
        self.assertEqual(e.rowindex, 7)
        self.assertEqual(e.sqlcode, -268)
        # The batch stops at its first refused row: rows already in flight
        # ran, the rest (row 15000 among them) were not sent.
        self.assertEqual(e.errors, [(7, -268)])
        self.assertEqual(self.cu.errors, [(7, -268)])
        ran = self.cu.rowcount
        self.assertTrue(7 <= ran < 15000, ran)
        self.cu.execute("select count(*) from m1")
        self.assertEqual(self.cu.fetchone(), (ran,))

    def test_mixed_types_and_rowcount(self):
        import datetime, decimal
        self.cu.execute("drop table if exists m2")
        self.cu.execute("create table m2 (n serial, a int, d date, x decimal(8,2), s varchar(5))")
        rows = [(i, datetime.date(2020, 1, 1 + i % 28), decimal.Decimal(i) / 4,
                 None if i % 3 else "s") for i in range(1000)]
        self.cu.executemany("insert into m2 (a, d, x, s) values (?, ?, ?, ?)", rows)
        self.assertEqual(self.cu.rowcount, 1000)
        self.assertEqual(self.cu.lastrowid, 1000)
        self.assertEqual(self.cu.errors, [])
        self.cu.execute("select a, d, x, s from m2 order by n")
        got = self.cu.fetchall()
        self.assertEqual(got[:3], [(0, datetime.date(2020, 1, 1), decimal.Decimal("0.00"), "s"),
                                   (1, datetime.date(2020, 1, 2), decimal.Decimal("0.25"), None),
                                   (2, datetime.date(2020, 1, 3), decimal.Decimal("0.50"), None)])
        self.assertEqual(len(got), 1000)
        self.cu.executemany("update m2 set a = a + 1 where n = ?", [(1,), (2,), (3,)])
        self.assertEqual(self.cu.rowcount, 3)
        self.cu.executemany("insert into m2 (a) values (?)", [])
        self.assertEqual(self.cu.rowcount, 0)

    def test_bad_parameters(self):
        self.cu.execute("drop table if exists m3")
        self.cu.execute("create table m3 (a int)")
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            self.cu.executemany("insert into m3 values (?)", [(1,), (2, 3)])
        self.assertEqual(cm.exception.rowindex, 1)
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.executemany("select * from m3 where a = ?", [(1,)])


class Misc(Base):
    def test_serials(self):
        self.cu.execute("drop table if exists s1")
        self.cu.execute("create table s1 (id serial, v int)")
        self.cu.execute("insert into s1 (v) values (1)")
        self.cu.execute("insert into s1 (v) values (2)")
        self.assertEqual(self.cu.lastrowid, 2)
        self.cu.execute("drop table if exists s8")
        self.cu.execute("create table s8 (id serial8(100), v int)")
        self.cu.execute("insert into s8 (v) values (1)")
        self.assertEqual(self.cu.lastrowid, 100)
        self.cu.execute("drop table if exists sb")
        self.cu.execute("create table sb (id bigserial(5000000000), v int)")
        self.cu.execute("insert into sb (v) values (1)")
        self.assertEqual(self.cu.lastrowid, 5000000000)
        self.cu.execute("update s1 set v = 3")
        self.assertEqual(self.cu.rowcount, 2)
        self.assertIsNone(self.cu.lastrowid)
        self.cu.execute("update s1 set v = ? where id = ?", (9, 1))
        self.assertEqual(self.cu.rowcount, 1)
        self.cu.execute("update s1 set v = ?", (7,))  # UPDATE without WHERE, with a parameter
        self.assertEqual(self.cu.rowcount, 2)
        self.cu.execute("delete from s1")
        self.assertEqual(self.cu.rowcount, 2)

    def test_fetch_methods(self):
        self.cu.execute("drop table if exists f1")
        self.cu.execute("create table f1 (a int)")
        self.cu.executemany("insert into f1 values (?)", [(i,) for i in range(10)])
        self.cu.execute("select a from f1 order by a")
        self.assertEqual(self.cu.fetchone(), (0,))
        self.assertEqual(self.cu.fetchmany(), [(1,)])
        self.cu.arraysize = 3
        self.assertEqual(self.cu.fetchmany(), [(2,), (3,), (4,)])
        self.assertEqual(self.cu.fetchmany(2), [(5,), (6,)])
        self.assertEqual([r for r in self.cu], [(7,), (8,), (9,)])
        self.assertIsNone(self.cu.fetchone())
        self.assertEqual(self.cu.fetchall(), [])
        self.cu.execute("select a from f1 where a > ? order by a", (7,))
        self.assertEqual(self.cu.fetchall(), [(8,), (9,)])
        self.cu.execute("select a from f1 where a > ? order by a", (8,))  # re-executed, reused
        self.assertEqual(self.cu.fetchall(), [(9,)])
        self.cu.setinputsizes([None])
        self.cu.setoutputsize(10)
        # two cursors open at once on one connection
        k2 = self.conn.cursor()
        self.cu.execute("select a from f1 order by a")
        k2.execute("select a from f1 order by a desc")
        self.assertEqual(self.cu.fetchone(), (0,))
        self.assertEqual(k2.fetchone(), (9,))
        self.assertEqual(len(self.cu.fetchall()), 9)

    def test_callproc(self):
        # an unknown routine: -674 "Routine (myproc) can not be resolved."
        with self.assertRaises(ixdb.Error) as cm:
            self.cu.callproc("myproc", (1, "a"))
        self.assertEqual(cm.exception.sqlcode, -674)
        self.assertIsInstance(cm.exception, (ixdb.NotSupportedError, ixdb.ProgrammingError))

    def test_closed_connection_with_live_cursors(self):
        c = self.srv.connect(autocommit=True)
        k = c.cursor()
        k.execute("select tabid from systables")
        k.fetchone()
        k2 = c.cursor()
        c.close()
        c.close()  # twice is fine
        for f in (k.fetchone, k.fetchall, lambda: k.execute("select 1 from systables"),
                  lambda: k2.executemany("insert into x values (?)", [(1,)]), c.cursor,
                  c.commit):
            with self.assertRaises(ixdb.InterfaceError):
                f()
        k.close()
        del c
        gc.collect()
        del k2
        gc.collect()

    def test_closed_cursor(self):
        k = self.conn.cursor()
        k.close()
        with self.assertRaises(ixdb.InterfaceError):
            k.execute("select 1 from systables")
        k.close()

    def test_database_statements(self):
        self.cu.execute("create database if not exists pyother with log")
        self.cu.execute("create table if not exists o1 (a int)")
        self.cu.execute("database pyt")
        self.cu.execute("select count(*) from systables where tabname = 'o1'")
        self.assertEqual(self.cu.fetchone(), (0,))


class Threads(unittest.TestCase):
    def test_threads_separate_connections(self):
        srv = ixdtest.server()
        c = srv.connect(autocommit=True)
        c.cursor().execute("drop table if exists th")
        c.cursor().execute("create table th (t int, i int)")
        errors = []

        def work(t):
            try:
                with srv.connect(autocommit=True) as cc:
                    k = cc.cursor()
                    k.execute("set lock mode to wait 60")  # SQLite: one writer at a time
                    k.executemany("insert into th values (?, ?)", [(t, i) for i in range(2000)])
                    for _ in range(5):
                        k.execute("select i from th where t = ?", (t,))
                        if len(k.fetchall()) != 2000:
                            errors.append("bad count")
            except Exception as e:  # noqa: BLE001
                errors.append(repr(e))

        ts = [threading.Thread(target=work, args=(t,)) for t in range(6)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])
        k = c.cursor()
        k.execute("select count(*) from th")
        self.assertEqual(k.fetchone(), (12000,))
        c.close()

    def test_shared_connection_is_refused_not_crashing(self):
        srv = ixdtest.server()
        c = srv.connect(autocommit=True)
        errs = []

        def work():
            k = c.cursor()
            for _ in range(50):
                try:
                    k.execute("select tabid from systables")
                    k.fetchall()
                except ixdb.ProgrammingError:
                    errs.append(1)
        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        c.close()


if __name__ == "__main__":
    ixdtest.main()
