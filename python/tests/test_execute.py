"""execute() executes (sync and ixdb.aio): a routine called for its effect
runs without a fetch, and a following execute on the same cursor does not
lose it; a query's error is raised by execute, not by the first fetch; the
first row read by execute is the first one fetched; rowcount is -1 for
statements without a row count (DDL, SET, routines, queries) and the rows
affected by INSERT / UPDATE / DELETE and executemany; asyncio.wait_for
around an execute times out and cancels the statement on the server, the
next execute answering at once; Ctrl-C during a blocking execute; a server
that does not answer (stopped) leaves the connection closed, and the pools
discard it."""

import asyncio
import os
import signal
import threading
import time
import unittest

import ixdtest
from ixdtest import ixdb

import ixdb.aio as aio
import ixdb.pool

LONG_SQL = "select count(*) from n a, n b, n c"  # minutes of work on ixd
CREATE_TS = ("execute function oni_ts_create('xseries', 's', ?, '2026-01-01 00:00', "
             "'1 minute')")


def setUpModule():
    c = ixdtest.server().connect(autocommit=True)
    cu = c.cursor()
    cu.execute("create table n (i integer)")
    cu.executemany("insert into n values (?)", [(i,) for i in range(2000)])
    cu.execute("create row type xpoint_t (ts datetime year to fraction(5), v float)")
    cu.execute("create table xseries (id int primary key, s timeseries(xpoint_t))")
    c.close()


def run(coro, limit=60):
    """Runs coro on a fresh loop; a hang fails the test instead of the run."""
    async def bounded():
        return await asyncio.wait_for(coro, limit)
    return asyncio.run(bounded())


def sigint_after(seconds):
    """Sends SIGINT to this process after `seconds` from a timer thread (the
    main thread handles it, as Ctrl-C); cancel() it if the call returned."""
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def interrupts(conn):
    """True when libixdb cancels conn's statements with an interrupt (-213,
    the connection stays); else a cancel closes it (ixd --strict, as any
    server but ixd: IXDB_TEST_STRICT=1)."""
    return "urgent_cancel" in conn.forms


def series_rows(key):
    """Rows of xseries with id key, read on a connection of its own."""
    c = ixdtest.server().connect(autocommit=True)
    try:
        cu = c.cursor()
        cu.execute("select count(*) from xseries where id = ?", (key,))
        return cu.fetchone()[0]
    finally:
        c.close()


class Stopped:
    """A server of its own, stopped (SIGSTOP) inside the block: it takes no
    interrupt and sends nothing, as a hung server."""

    def __init__(self):
        self.srv = ixdtest.Server()
        c = ixdb.connect(self.srv.dsn(), autocommit=True)
        c.cursor().execute("create database st")
        c.close()

    def dsn(self):
        return self.srv.dsn("st")

    def __enter__(self):
        pid = self.srv.proc.pid
        os.kill(pid, signal.SIGSTOP)
        # SIGSTOP arrives asynchronously: a thread running on another CPU
        # could still answer a request sent at once. Wait until all stop.
        for _ in range(2000):
            states = []
            for tid in os.listdir("/proc/%d/task" % pid):
                try:
                    with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                        states.append(f.read().rsplit(")", 1)[1].split()[0])
                except OSError:
                    pass
            if states and all(st == "T" for st in states):
                break
            time.sleep(0.001)
        return self

    def __exit__(self, *exc):
        os.kill(self.srv.proc.pid, signal.SIGCONT)
        return False


class SyncExecute(unittest.TestCase):
    def setUp(self):
        self.conn = ixdtest.server().connect(autocommit=True)
        self.cu = self.conn.cursor()

    def tearDown(self):
        self.conn.close()

    def test_routine_runs_without_fetch(self):
        self.cu.execute(CREATE_TS, (101,))
        self.cu.execute("select count(*) from n")  # the same cursor, next statement
        self.assertEqual(series_rows(101), 1, "oni_ts_create ran at execute")
        self.assertEqual(self.cu.fetchone(), (2000,))
        self.cu.callproc("oni_ts_create", ("xseries", "s", 102, "2026-01-01 00:00", "1 minute"))
        self.assertEqual(series_rows(102), 1, "callproc ran the routine")

    def test_error_raised_by_execute(self):
        with self.assertRaises(ixdb.DataError) as cm:
            self.cu.execute("select 1/0 from sysmaster:sysdual")
        self.assertEqual(cm.exception.sqlcode, -1202)
        self.assertIsNone(self.cu.description)
        with self.assertRaises(ixdb.ProgrammingError):
            self.cu.fetchone()
        self.cu.execute("select count(*) from n")
        self.assertEqual(self.cu.fetchall(), [(2000,)])

    def test_first_row_then_fetches(self):
        self.cu.execute("select i from n where i < 5 order by i")
        self.assertEqual(self.cu.rownumber, 0)
        self.assertEqual(self.cu.fetchone(), (0,))
        self.assertEqual(self.cu.fetchmany(2), [(1,), (2,)])
        self.assertEqual(list(self.cu), [(3,), (4,)])
        self.cu.execute("select i from n where i < 0")
        self.assertIsNotNone(self.cu.description)
        self.assertEqual(self.cu.fetchall(), [])
        self.cu.execute("select i from n where i < 3 order by i")
        self.cu.scroll(1)
        self.assertEqual(self.cu.fetchall(), [(1,), (2,)])
        sc = self.conn.cursor(scrollable=True)
        sc.execute("select i from n where i < 3 order by i")
        self.assertEqual(sc.fetchone(), (0,))
        self.assertEqual(sc.fetch_last(), (2,))
        self.assertEqual(sc.fetch_first(), (0,))

    def test_one_round_trip_for_a_small_select(self):
        self.cu.execute("select i from n where i < 3")
        self.assertEqual(self.cu.fetch_stats["roundtrips"], 1)
        self.assertEqual(len(self.cu.fetchall()), 3)
        self.assertEqual(self.cu.fetch_stats["roundtrips"], 1)

    def test_rowcount(self):
        cu = self.cu
        cu.execute("create table rc (i integer, t varchar(10))")
        self.assertEqual(cu.rowcount, -1, "CREATE TABLE")
        cu.execute("insert into rc values (1, 'a')")
        self.assertEqual(cu.rowcount, 1)
        cu.executemany("insert into rc values (?, ?)", [(i, "b") for i in range(2, 12)])
        self.assertEqual(cu.rowcount, 10, "executemany INSERT")
        cu.executemany("update rc set t = 'c' where i < ?", [(3,), (5,)])
        self.assertEqual(cu.rowcount, 2 + 4, "executemany UPDATE: the sum")
        cu.execute("update rc set t = 'd' where i > ?", (8,))
        self.assertEqual(cu.rowcount, 3)
        cu.execute("update rc set t = 'e' where i > 100")
        self.assertEqual(cu.rowcount, 0)
        cu.execute("update rc set t = 'f'")
        self.assertEqual(cu.rowcount, 11, "UPDATE without WHERE")
        cu.execute("delete from rc where i <= ?", (4,))
        self.assertEqual(cu.rowcount, 4)
        cu.execute("select * from rc")
        self.assertEqual(cu.rowcount, -1, "SELECT")
        cu.execute("set lock mode to wait 5")
        self.assertEqual(cu.rowcount, -1, "SET LOCK MODE")
        cu.execute("set isolation to committed read")
        self.assertEqual(cu.rowcount, -1, "SET ISOLATION")
        cu.execute("create index rc_i on rc (i)")
        self.assertEqual(cu.rowcount, -1, "CREATE INDEX")
        cu.execute(CREATE_TS, (103,))
        self.assertEqual(cu.rowcount, -1, "EXECUTE FUNCTION")
        cu.executemany("execute procedure oni_ts_write_many(?, ?, ?, ?)",
                       [("xseries", "s", 103, "2026-01-01 00:00|1.5\n2026-01-01 00:01|2.5")])
        self.assertEqual(cu.rowcount, -1, "executemany EXECUTE PROCEDURE")
        self.assertEqual(cu._changes, 2, "the elements written, as libixdb reports them")
        cu.execute("delete from rc")
        self.assertEqual(cu.rowcount, 7, "DELETE without WHERE")
        cu.execute("drop table rc")
        self.assertEqual(cu.rowcount, -1, "DROP TABLE")

    def test_keyboard_interrupt_during_execute(self):
        urgent = interrupts(self.conn)
        t = sigint_after(0.3)
        t0 = time.monotonic()
        try:
            with self.assertRaises(KeyboardInterrupt):
                self.cu.execute(LONG_SQL)  # no fetch: execute itself waits
        finally:
            t.cancel()
            t.join()
        self.assertLess(time.monotonic() - t0, 2.0, "within a second of Ctrl-C")
        if not urgent:  # libixdb closed it (ixd --strict)
            self.assertTrue(self.conn.closed)
            self.conn.close()
            self.conn = ixdtest.server().connect(autocommit=True)
            self.cu = self.conn.cursor()
        self.assertFalse(self.conn.closed, "ixd honours the interrupt")
        t0 = time.monotonic()
        self.cu.execute("select count(*) from n")
        self.assertEqual(self.cu.fetchone(), (2000,))
        self.assertLess(time.monotonic() - t0, 1.0, "nothing left running")


class SyncDeadServer(unittest.TestCase):
    def test_stopped_server_closes_the_connection(self):
        st = Stopped()  # connected while the server runs, then stopped
        try:
            conn = ixdb.connect(st.dsn(), autocommit=True, read_timeout=1)
            cu = conn.cursor()
            with st:
                t0 = time.monotonic()
                with self.assertRaises(ixdb.OperationalError):
                    cu.execute("select count(*) from sysmaster:sysdual")
                self.assertLess(time.monotonic() - t0, 5.0)
                self.assertTrue(conn.closed, "a lost session shows as closed")
                with self.assertRaises(ixdb.Error):
                    cu.execute("select 1 from sysmaster:sysdual")
            conn.close()
            self.assertTrue(conn.closed)
        finally:
            st.srv.stop()

    def test_ctrl_c_with_a_server_that_does_not_answer(self):
        st = Stopped()
        try:
            conn = ixdb.connect(st.dsn(), autocommit=True, read_timeout=2)
            cu = conn.cursor()
            with st:
                t = sigint_after(0.3)
                t0 = time.monotonic()
                try:
                    with self.assertRaises(KeyboardInterrupt):
                        cu.execute("select count(*) from sysmaster:sysdual")
                finally:
                    t.cancel()
                    t.join()
                self.assertLess(time.monotonic() - t0, 6.0)
                self.assertTrue(conn.closed, "the connection is reported dead")
            conn.close()
        finally:
            st.srv.stop()

    def test_pool_discards_a_dead_connection(self):
        st = Stopped()
        try:
            pool = ixdb.pool.Pool(st.dsn(), min_size=0, max_size=2, read_timeout=1,
                                  autocommit=True)
            conn = pool.getconn()
            with st:
                with self.assertRaises(ixdb.OperationalError):
                    conn.cursor().execute("select count(*) from sysmaster:sysdual")
                self.assertTrue(conn.closed)
                pool.putconn(conn)
            self.assertEqual(pool.stats()["idle"], 0, "the dead one is not kept")
            with pool.connection() as c2:
                cu = c2.cursor()
                cu.execute("select count(*) from sysmaster:sysdual")
                self.assertEqual(cu.fetchone(), (1,))
            pool.close()
        finally:
            st.srv.stop()


def adsn():
    return ixdtest.server().dsn("pyt")


class AioExecute(unittest.TestCase):
    def test_routine_runs_without_fetch(self):
        async def main():
            conn = await aio.connect(adsn(), autocommit=True)
            cur = conn.cursor()
            await cur.execute(CREATE_TS, (201,))
            self.assertEqual(cur.rowcount, -1)
            await cur.execute("select count(*) from n")
            self.assertEqual(await cur.fetchone(), (2000,))
            await conn.close()
        run(main())
        self.assertEqual(series_rows(201), 1, "oni_ts_create ran at execute")

    def test_error_raised_by_execute(self):
        async def main():
            conn = await aio.connect(adsn(), autocommit=True)
            cur = conn.cursor()
            with self.assertRaises(ixdb.DataError) as cm:
                await cur.execute("select 1/0 from sysmaster:sysdual")
            self.assertEqual(cm.exception.sqlcode, -1202)
            await cur.execute("select i from n where i < 4 order by i")
            self.assertEqual(await cur.fetchone(), (0,))
            self.assertEqual([r async for r in cur], [(1,), (2,), (3,)])
            await cur.execute("select i from n where i < 0")
            self.assertEqual(await cur.fetchall(), [])
            await conn.close()
        run(main())

    def test_rowcount(self):
        async def main():
            conn = await aio.connect(adsn(), autocommit=True)
            cur = conn.cursor()
            await cur.execute("create table arc (i integer)")
            self.assertEqual(cur.rowcount, -1)
            await cur.executemany("insert into arc values (?)", [(i,) for i in range(7)])
            self.assertEqual(cur.rowcount, 7)
            await cur.execute("update arc set i = i + 1 where i < ?", (3,))
            self.assertEqual(cur.rowcount, 3)
            await cur.execute("delete from arc")
            self.assertEqual(cur.rowcount, 7)
            await cur.execute("set lock mode to wait 5")
            self.assertEqual(cur.rowcount, -1)
            await cur.execute("select * from arc")
            self.assertEqual(cur.rowcount, -1)
            await cur.execute("drop table arc")
            self.assertEqual(cur.rowcount, -1)
            await conn.close()
        run(main())

    def test_wait_for_times_out_around_execute(self):
        async def main():
            conn = await aio.connect(adsn(), autocommit=True)
            urgent = interrupts(conn)
            cur = conn.cursor()
            t0 = time.monotonic()
            with self.assertRaises(asyncio.TimeoutError):
                await asyncio.wait_for(cur.execute(LONG_SQL), 1.0)
            self.assertLess(time.monotonic() - t0, 2.5, "timed out and cancelled")
            if not urgent:  # libixdb closed it (ixd --strict)
                self.assertTrue(conn.closed)
                await conn.close()
                conn = await aio.connect(adsn(), autocommit=True)
                cur = conn.cursor()
            self.assertFalse(conn.closed, "ixd honours the interrupt")
            t0 = time.monotonic()
            await asyncio.wait_for(cur.execute("select count(*) from n where i < 10"), 5)
            self.assertEqual(await cur.fetchone(), (10,))
            self.assertLess(time.monotonic() - t0, 1.0, "the next execute answers at once")
            await conn.close()
        run(main())

    def test_timeout_with_a_server_that_does_not_answer(self):
        st = Stopped()
        grace = aio.CANCEL_GRACE

        async def main():
            conn = await aio.connect(st.dsn(), autocommit=True)
            cur = conn.cursor()
            with st:
                with self.assertRaises(asyncio.TimeoutError):
                    await asyncio.wait_for(cur.execute("select count(*) from sysmaster:sysdual"), 0.5)
                self.assertTrue(conn.closed, "given up: reported dead")
                with self.assertRaises(ixdb.InterfaceError):
                    await cur.execute("select 1 from sysmaster:sysdual")
            await conn.close()

        try:
            aio.CANCEL_GRACE = 1.0
            run(main())
        finally:
            aio.CANCEL_GRACE = grace
            st.srv.stop()

    def test_pool_discards_a_dead_connection(self):
        st = Stopped()

        async def main():
            pool = await aio.create_pool(st.dsn(), min_size=0, max_size=2, read_timeout=1,
                                         autocommit=True)
            conn = await pool.getconn()
            with st:
                with self.assertRaises(ixdb.OperationalError):
                    await conn.cursor().execute("select count(*) from sysmaster:sysdual")
                self.assertTrue(conn.closed)
                await pool.putconn(conn)
            self.assertEqual((pool.size, pool.idle), (0, 0))
            async with pool.connection() as c2:
                cur = c2.cursor()
                await cur.execute("select count(*) from sysmaster:sysdual")
                self.assertEqual(await cur.fetchone(), (1,))
            await pool.close()

        try:
            run(main())
        finally:
            st.srv.stop()


if __name__ == "__main__":
    ixdtest.main()
