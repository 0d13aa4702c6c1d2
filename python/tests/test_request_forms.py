"""The compat keyword (libixdb's request forms, DSN key compat=) of
ixdb.connect, ixdb.aio.connect and both pools, Connection.compat and
Connection.forms; and what a cancel does where libixdb knows no interrupt
(compat="conservative": it closes the connection): Ctrl-C during execute
and an asyncio timeout raise at once, the connection reads closed, a pool
drops it, and a new connection works."""

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
# IXDB_TEST_STRICT=1: ixd --strict plays a real Informix server: "auto" gives
# the conservative forms, and the fast ones are not taken
STRICT = os.environ.get("IXDB_TEST_STRICT") == "1"
DEFAULT = "conservative" if STRICT else "fast"
MODES = ("conservative",) if STRICT else ("fast", "conservative")


def setUpModule():
    c = ixdtest.server().connect(autocommit=True)
    cu = c.cursor()
    cu.execute("create table n (i integer)")
    cu.executemany("insert into n values (?)", [(i,) for i in range(2000)])
    c.close()


def run(coro, limit=60):
    async def bounded():
        return await asyncio.wait_for(coro, limit)
    return asyncio.run(bounded())


def dsn():
    return ixdtest.server().dsn("pyt")


def count_n(conn):
    cu = conn.cursor()
    cu.execute("select count(*) from n")
    return cu.fetchone()[0]


class Forms(unittest.TestCase):
    def test_conservative_long_text(self):
        # a value over 32767 bytes goes as TEXT; a conservative connection
        # sends it as a real server takes it (descriptor, SQ_BBIND, SQ_BLOB)
        c = ixdtest.server().connect(autocommit=True, compat="conservative")
        cu = c.cursor()
        cu.execute("create temp table big_t (n integer, t text) with no log")
        cu.execute("insert into big_t values (?, ?)", (1, "x" * 40000))
        cu.execute("insert into big_t values (?, ?)", (2, "y" * 32767))
        cu.execute("select n, t from big_t order by n")
        self.assertEqual(cu.fetchall(), [(1, "x" * 40000), (2, "y" * 32767)])
        self.assertFalse(c.closed)
        c.close()

    def test_default_is_fast_with_ixd(self):
        c = ixdtest.server().connect()
        self.assertEqual(c.compat, DEFAULT)
        self.assertIsInstance(c.forms, tuple)
        for f in ("pipeline_login", "deferred_prepare", "urgent_cancel"):
            self.assertEqual(f in c.forms, not STRICT, f)
        self.assertTrue(all(isinstance(f, str) and f for f in c.forms))
        c.close()
        with self.assertRaises(ixdb.InterfaceError):
            c.compat
        with self.assertRaises(ixdb.InterfaceError):
            c.forms

    def test_keyword(self):
        for mode, want in (("auto", DEFAULT), ("fast", "fast"),
                           ("conservative", "conservative")):
            if want not in MODES:
                continue
            c = ixdtest.server().connect(compat=mode)
            self.assertEqual(c.compat, want, mode)
            if want == "conservative":
                self.assertNotIn("urgent_cancel", c.forms)
                self.assertNotIn("deferred_prepare", c.forms)
            self.assertEqual(count_n(c), 2000)
            c.close()
        with self.assertRaises(ixdb.ProgrammingError):
            ixdtest.server().connect(compat="bogus")

    def test_errors_at_execute_in_both_modes(self):
        for mode in MODES:
            c = ixdtest.server().connect(compat=mode)
            with self.assertRaises(ixdb.DataError) as cm:
                c.cursor().execute("select 1/0 from sysmaster:sysdual")
            self.assertEqual(cm.exception.sqlcode, -1202, mode)
            c.close()

    def test_pools_and_aio(self):
        pool = ixdb.pool.Pool(dsn(), min_size=0, max_size=1, compat="conservative")
        with pool.connection() as c:
            self.assertEqual(c.compat, "conservative")
        pool.close()

        async def main():
            conn = await aio.connect(dsn(), compat="conservative")
            self.assertEqual(conn.compat, "conservative")
            self.assertEqual(conn.forms, conn._c.forms)
            await conn.close()
            async with aio.create_pool(dsn(), min_size=0, max_size=1, compat=MODES[0]) as p:
                async with p.connection() as conn:
                    self.assertEqual(conn.compat, MODES[0])
        run(main())


class CancelByClosing(unittest.TestCase):
    def test_ctrl_c_during_execute(self):
        c = ixdtest.server().connect(autocommit=True, compat="conservative")
        cu = c.cursor()
        t = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        t.start()
        t0 = time.monotonic()
        try:
            with self.assertRaises(KeyboardInterrupt):
                cu.execute(LONG_SQL)
        finally:
            t.cancel()
            t.join()
        self.assertLess(time.monotonic() - t0, 2.0)
        self.assertTrue(c.closed, "libixdb closed the connection to cancel")
        with self.assertRaises(ixdb.Error):
            cu.execute("select count(*) from n")
        c.close()
        c2 = ixdtest.server().connect(compat="conservative")
        self.assertEqual(count_n(c2), 2000)
        c2.close()

    def test_pool_drops_the_connection(self):
        pool = ixdb.pool.Pool(dsn(), min_size=0, max_size=1, compat="conservative")
        conn = pool.getconn()
        t = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        t.start()
        try:
            with self.assertRaises(KeyboardInterrupt):
                conn.cursor().execute(LONG_SQL)
        finally:
            t.cancel()
            t.join()
        self.assertTrue(conn.closed)
        pool.putconn(conn)
        self.assertEqual(pool.stats()["idle"], 0)
        with pool.connection() as c2:  # max_size 1: the dead one is not counted
            self.assertEqual(count_n(c2), 2000)
        pool.close()

    def test_asyncio_timeout(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True, compat="conservative")
            cur = conn.cursor()
            t0 = time.monotonic()
            with self.assertRaises(asyncio.TimeoutError):
                await asyncio.wait_for(cur.execute(LONG_SQL), 1.0)
            self.assertLess(time.monotonic() - t0, 2.0, "no wait for an answer")
            self.assertTrue(conn.closed)
            with self.assertRaises(ixdb.InterfaceError):
                await cur.execute("select count(*) from n")
            await conn.close()
            conn = await aio.connect(dsn(), compat="conservative")
            cur = conn.cursor()
            await cur.execute("select count(*) from n")
            self.assertEqual(await cur.fetchone(), (2000,))
            await conn.close()
        run(main())

    def test_asyncio_connection_cancel(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True, compat="conservative")
            cur = conn.cursor()

            async def later():
                await asyncio.sleep(0.3)
                return conn.cancel()

            canceller = asyncio.create_task(later())
            with self.assertRaises(ixdb.OperationalError):
                await cur.execute(LONG_SQL)
            self.assertTrue(await canceller)
            self.assertTrue(conn.closed)
            await conn.close()
        run(main())

    def test_asyncio_pool_drops_the_connection(self):
        async def main():
            async with aio.create_pool(dsn(), min_size=0, max_size=1,
                                       compat="conservative") as pool:
                conn = await pool.getconn()
                with self.assertRaises(asyncio.TimeoutError):
                    await asyncio.wait_for(conn.cursor().execute(LONG_SQL), 0.5)
                await pool.putconn(conn)
                self.assertEqual((pool.size, pool.idle), (0, 0))
                async with pool.connection() as c2:
                    cur = c2.cursor()
                    await cur.execute("select count(*) from n")
                    self.assertEqual(await cur.fetchone(), (2000,))
        run(main())


if __name__ == "__main__":
    ixdtest.main()
