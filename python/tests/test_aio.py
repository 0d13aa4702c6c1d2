"""ixdb.aio against a real ixd: queries, parameters, executemany, errors of
the same classes as the sync module, transactions, ten tasks on ten
connections at once, cancellation of a long statement (the connection stays
usable), a server killed while a statement is awaited (OperationalError,
no hang), a loop that stays responsive during a large fetch, and the pool."""

import asyncio
import decimal
import itertools
import os
import signal
import time
import unittest

import ixdtest
from ixdtest import ixdb

import ixdb.aio as aio

LONG_SQL = "select count(*) from n a, n b, n c"  # minutes of work
# ixd --strict (IXDB_TEST_STRICT=1) takes no interrupt: libixdb's cancel closes
# the connection there (python/tests/test_request_forms.py tests that)
NO_INTERRUPT = unittest.skipIf(os.environ.get("IXDB_TEST_STRICT") == "1",
                               "a cancel closes the connection against ixd --strict")
RUNS = itertools.count()  # table names of tests that may run more than once


def fill(c):
    """Table n: 0 .. 1999, in one transaction (c: a sync connection)."""
    cu = c.cursor()
    cu.execute("create table n (i integer)")
    cu.executemany("insert into n values (?)", [(i,) for i in range(2000)])
    c.commit()
    c.close()


def setUpModule():
    fill(ixdtest.server().connect())


def run(coro, limit=30):
    """Runs coro on a fresh loop; a hang fails the test instead of the run."""
    async def bounded():
        return await asyncio.wait_for(coro, limit)
    return asyncio.run(bounded())


def dsn():
    return ixdtest.server().dsn("pyt")


class Basics(unittest.TestCase):
    def test_query_fetch_and_iterate(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True)
            cur = await conn.cursor()
            await cur.execute("create table a1 (id serial, name varchar(20), amount decimal(8,2))")
            await cur.execute("insert into a1 (name, amount) values (?, ?)",
                              ("x", decimal.Decimal("1.50")))
            self.assertEqual(cur.rowcount, 1)
            self.assertEqual(cur.lastrowid, 1)
            await cur.executemany("insert into a1 (name, amount) values (?, ?)",
                                  [("n%d" % i, i) for i in range(2, 11)])
            self.assertEqual(cur.rowcount, 9)
            await cur.execute("select id, name, amount from a1 where id >= ? order by id", (1,))
            self.assertEqual([d[0] for d in cur.description], ["id", "name", "amount"])
            self.assertEqual(await cur.fetchone(), (1, "x", decimal.Decimal("1.50")))
            self.assertEqual([r[0] for r in await cur.fetchmany(3)], [2, 3, 4])
            rest = [r async for r in cur]
            self.assertEqual([r[0] for r in rest], list(range(5, 11)))
            self.assertIsNone(await cur.fetchone())
            await cur.execute("select count(*) from a1")
            self.assertEqual(await cur.fetchall(), [(10,)])
            async with conn.cursor() as c2:  # a second cursor, closed by the block
                await c2.execute("select name from a1 where id = 2")
                self.assertEqual(await c2.fetchone(), ("n2",))
            self.assertTrue(c2.closed)
            await conn.close()
            self.assertTrue(conn.closed)
        run(main())

    def test_keywords_as_ixdb_connect(self):
        async def main():
            srv = ixdtest.server()
            conn = await aio.connect(host="127.0.0.1", port=srv.port, user="informix",
                                     password="in4mix", database="pyt")
            cur = conn.cursor()
            await cur.execute("select count(*) from n")
            self.assertEqual(await cur.fetchone(), (2000,))
            await conn.close()
        run(main())

    def test_executemany_beyond_one_slice(self):
        async def main():
            async with await aio.connect(dsn()) as conn:  # committed by the block
                cur = conn.cursor()
                await cur.execute("create table a2 (i integer, t varchar(10))")
                n = aio.BATCH_ROWS + 100
                await cur.executemany("insert into a2 values (?, ?)",
                                      ((i, str(i)) for i in range(n)))
                self.assertEqual(cur.rowcount, n)
                await cur.execute("select count(*), sum(i) from a2")
                self.assertEqual(await cur.fetchone(), (n, n * (n - 1) // 2))
        run(main())


class Errors(unittest.TestCase):
    def test_same_classes_as_the_sync_module(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True)
            cur = conn.cursor()
            with self.assertRaises(ixdb.ProgrammingError) as cm:
                await cur.execute("select * from no_such_table")
            self.assertEqual(cm.exception.sqlcode, -206)
            self.assertIs(aio.ProgrammingError, ixdb.ProgrammingError)
            await cur.execute("create table e1 (i integer primary key)")
            await cur.execute("insert into e1 values (?)", (1,))
            with self.assertRaises(ixdb.IntegrityError) as cm:
                await cur.execute("insert into e1 values (?)", (1,))
            self.assertEqual(cm.exception.sqlcode, -268)
            with self.assertRaises(ixdb.IntegrityError) as cm:
                await cur.executemany("insert into e1 values (?)", [(2,), (1,), (3,), (2,)])
            self.assertEqual(cm.exception.rowindex, 1)
            self.assertEqual([r for r, _ in cm.exception.errors], [1, 3])
            self.assertEqual(cur.rowcount, 2)
            with self.assertRaises(ixdb.ProgrammingError):
                await cur.execute("select * from e1 where i = ?", (object(),))
            with self.assertRaises(ixdb.ProgrammingError):
                await cur.execute("select * from e1 where i = ?")
            with self.assertRaises(ixdb.ProgrammingError):
                await cur.executemany("select * from e1", [()])
            with self.assertRaises(ixdb.ProgrammingError) as cm:  # a value that cannot bind
                await cur.executemany("insert into e1 values (?)", [(10,), (11,), (object(),)])
            self.assertEqual(cm.exception.rowindex, 2)
            with self.assertRaises(ixdb.ProgrammingError):
                await conn.cursor().fetchone()  # nothing executed
            # the connection is fine after all of them
            await cur.execute("select count(*) from e1")
            self.assertEqual(await cur.fetchone(), (5,))  # 1, 2, 3, and 10, 11 before the bad row
            await conn.close()
            with self.assertRaises(ixdb.InterfaceError):
                await cur.execute("select 1 from e1")
        run(main())

    def test_connect_failure(self):
        async def main():
            with self.assertRaises(ixdb.OperationalError):
                # a port nothing listens on (the server's, plus one)
                await aio.connect("host=127.0.0.1 port=%d user=u password=p connect_timeout=2"
                                  % (ixdtest.server().port + 1))
        run(main())


class Transactions(unittest.TestCase):
    def test_commit_rollback_and_block(self):
        async def main():
            conn = await aio.connect(dsn())
            self.assertFalse(conn.autocommit)
            cur = conn.cursor()
            await cur.execute("create table t1 (i integer)")
            await conn.commit()
            await cur.execute("insert into t1 values (1)")
            self.assertTrue(conn.in_transaction)
            await conn.rollback()
            self.assertFalse(conn.in_transaction)
            await cur.execute("insert into t1 values (2)")
            await conn.commit()
            async with conn:
                await cur.execute("insert into t1 values (3)")
            self.assertTrue(conn.closed)
            other = ixdtest.server().connect(autocommit=True)
            oc = other.cursor()
            oc.execute("select i from t1 order by i")
            self.assertEqual(oc.fetchall(), [(2,), (3,)])
            other.close()
        run(main())


class Concurrency(unittest.TestCase):
    def test_ten_tasks_ten_connections(self):
        run_no = next(RUNS)

        async def task(k):
            conn = await aio.connect(dsn(), autocommit=True)
            cur = conn.cursor()
            await cur.execute("set lock mode to wait 10")  # ixd: one writer at a time
            table = "c%d_%d" % (run_no, k)
            await cur.execute("create table %s (i integer)" % table)
            await cur.executemany("insert into %s values (?)" % table,
                                  [(k * 1000 + i,) for i in range(20 + k)])
            await cur.execute("select count(*), sum(i) from %s" % table)
            got = await cur.fetchone()
            await cur.execute("select i from n where i < ? order by i", (k * 10,))
            rows = [r[0] async for r in cur]
            await conn.close()
            return k, got, rows

        async def main():
            return await asyncio.gather(*(task(k) for k in range(10)))

        for k, got, rows in run(main()):
            m = 20 + k
            self.assertEqual(got, (m, k * 1000 * m + m * (m - 1) // 2))
            self.assertEqual(rows, list(range(k * 10)))

    def test_tasks_sharing_one_connection(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True)

            async def q(k):
                cur = conn.cursor()
                await cur.execute("select count(*) from n where i < ?", (k,))
                return (await cur.fetchone())[0]

            got = await asyncio.gather(*(q(k * 100) for k in range(10)))
            await conn.close()
            return got
        self.assertEqual(run(main()), [k * 100 for k in range(10)])

    def test_loop_stays_responsive_during_a_large_fetch(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True)
            cur = conn.cursor()
            ticks = []
            stop = asyncio.Event()

            async def ticker():
                while not stop.is_set():
                    ticks.append(time.monotonic())
                    await asyncio.sleep(0.001)

            t = asyncio.create_task(ticker())
            await asyncio.sleep(0)
            t0 = time.monotonic()
            # large enough to take a while on a fast machine (800k rows),
            # read in batches so that memory stays small
            await cur.execute("select a.i, b.i from n a, n b where b.i < 400")
            rows = 0
            while True:
                got = await cur.fetchmany(5000)
                if not got:
                    break
                rows += len(got)
            took = time.monotonic() - t0
            stop.set()
            await t
            await conn.close()
            return rows, ticks, t0, took

        rows, ticks, t0, took = run(main())
        self.assertEqual(rows, 2000 * 400)
        during = [x for x in ticks if x >= t0]
        self.assertGreater(len(during), 5, "the ticker ran during the fetch (%.2fs)" % took)
        gaps = [b - a for a, b in zip(during, during[1:])]
        self.assertLess(max(gaps), max(0.5, took / 3), "no long stall of the loop")


@NO_INTERRUPT
class Cancel(unittest.TestCase):
    def usable(self, conn):
        async def check():
            cur = conn.cursor()
            await cur.execute("select count(*) from n")
            self.assertEqual(await cur.fetchone(), (2000,))
        return check()

    def test_wait_for_timeout_cancels_on_the_server(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True)
            cur = conn.cursor()

            async def long():
                await cur.execute(LONG_SQL)
                return await cur.fetchone()

            t0 = time.monotonic()
            with self.assertRaises(asyncio.TimeoutError):
                await asyncio.wait_for(long(), 0.3)
            self.assertLess(time.monotonic() - t0, 2.0, "the server stopped the statement")
            self.assertFalse(conn.closed)
            await self.usable(conn)
            await cur.execute("select count(*) from n where i < 10")  # the same cursor
            self.assertEqual(await cur.fetchone(), (10,))
            await conn.close()
        run(main())

    def test_task_cancel_in_a_transaction(self):
        async def main():
            conn = await aio.connect(dsn())
            cur = conn.cursor()
            await cur.execute("insert into n values (-1)")

            async def long():
                await cur.execute(LONG_SQL)
                return await cur.fetchone()

            task = asyncio.create_task(long())
            await asyncio.sleep(0.2)
            task.cancel()
            t0 = time.monotonic()
            with self.assertRaises(asyncio.CancelledError):
                await task
            self.assertLess(time.monotonic() - t0, 2.0)
            self.assertTrue(conn.in_transaction, "the transaction is left as it was")
            await conn.rollback()
            await self.usable(conn)
            t0 = time.monotonic()
            await conn.close()
            self.assertLess(time.monotonic() - t0, 1.0, "nothing left waiting at close")
        for _ in range(3):
            run(main())

    def test_connection_cancel_raises_213(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True)
            cur = conn.cursor()

            async def later():
                await asyncio.sleep(0.2)
                return conn.cancel()

            canceller = asyncio.create_task(later())
            with self.assertRaises(ixdb.OperationalError) as cm:
                await cur.execute(LONG_SQL)  # waits for the first row
            self.assertEqual(cm.exception.sqlcode, -213)
            self.assertTrue(await canceller)
            await self.usable(conn)
            await conn.close()
        run(main())


class ServerKilled(unittest.TestCase):
    def test_killed_while_awaiting(self):
        srv = ixdtest.Server()
        try:
            c = ixdb.connect(srv.dsn(), autocommit=True)
            c.cursor().execute("create database k with log")
            c.close()
            fill(ixdb.connect(srv.dsn("k")))

            async def main():
                conn = await aio.connect(srv.dsn("k"), autocommit=True)
                cur = conn.cursor()
                loop = asyncio.get_running_loop()
                loop.call_later(0.3, os.kill, srv.proc.pid, signal.SIGKILL)
                t0 = time.monotonic()
                with self.assertRaises(ixdb.OperationalError):
                    await cur.execute(LONG_SQL)
                    await cur.fetchone()
                self.assertLess(time.monotonic() - t0, 5.0)
                with self.assertRaises(ixdb.Error):
                    await cur.execute("select count(*) from n")
                await conn.close()
            run(main(), limit=20)
        finally:
            srv.stop()


class ReadTimeout(unittest.TestCase):
    def test_read_timeout_expires_without_a_blocking_call(self):
        async def main():
            conn = await aio.connect(dsn(), autocommit=True, read_timeout=1)
            cur = conn.cursor()
            t0 = time.monotonic()
            with self.assertRaises(ixdb.OperationalError):
                await cur.execute(LONG_SQL)
                await cur.fetchone()
            self.assertLess(time.monotonic() - t0, 3.0)
            await conn.close()
        run(main(), limit=10)


class PoolTests(unittest.TestCase):
    def test_checkout_limits_and_rollback(self):
        async def main():
            async with aio.create_pool(dsn(), min_size=1, max_size=2, timeout=0.2) as pool:
                self.assertEqual((pool.size, pool.idle), (1, 1))
                async with pool.connection() as a:
                    cur = a.cursor()
                    await cur.execute("create table p1 (i integer)")
                    await a.commit()
                    await cur.execute("insert into p1 values (1)")
                    self.assertTrue(a.in_transaction)
                    async with pool.connection() as b:
                        self.assertIsNot(a, b)
                        t0 = time.monotonic()
                        with self.assertRaises(aio.PoolTimeout):
                            async with pool.connection():
                                pass
                        self.assertGreaterEqual(time.monotonic() - t0, 0.15)
                        self.assertTrue(issubclass(aio.PoolTimeout, ixdb.OperationalError))
                # a was given back with its insert rolled back
                async with pool.connection() as c:
                    self.assertFalse(c.in_transaction)
                    cur = c.cursor()
                    await cur.execute("select count(*) from p1")
                    self.assertEqual(await cur.fetchone(), (0,))
                self.assertEqual(pool.size, 2)
            self.assertTrue(pool.closed)
            self.assertEqual(pool.size, 0)
        run(main())

    def test_waiter_gets_the_connection_given_back(self):
        async def main():
            pool = await aio.create_pool(dsn(), min_size=0, max_size=1, timeout=5)
            order = []

            async def user(k):
                async with pool.connection() as conn:
                    cur = conn.cursor()
                    await cur.execute("select count(*) from n where i < ?", (k,))
                    order.append((await cur.fetchone())[0])
                    await asyncio.sleep(0.01)

            await asyncio.gather(*(user(k) for k in range(5)))
            self.assertEqual(sorted(order), list(range(5)))
            self.assertEqual(pool.size, 1)
            await pool.close()
        run(main())

    def test_lifetime_and_idle(self):
        async def main():
            pool = await aio.create_pool(dsn(), min_size=0, max_size=3, max_lifetime=0.05,
                                         max_idle=None)
            async with pool.connection() as a:
                pass
            await asyncio.sleep(0.1)
            async with pool.connection() as b:
                self.assertIsNot(a, b)
            self.assertTrue(a.closed, "past max_lifetime: closed")
            await pool.close()
            pool = await aio.create_pool(dsn(), min_size=0, max_size=3, max_idle=0.05)
            async with pool.connection() as a:
                pass
            self.assertEqual(pool.idle, 1)
            await asyncio.sleep(0.1)
            async with pool.connection() as b:
                self.assertIsNot(a, b)
            self.assertTrue(a.closed, "idle past max_idle: closed")
            await pool.close()
        run(main())


if __name__ == "__main__":
    ixdtest.main()
