"""ixdb.pool.Pool against a real ixd: checkout and return, the reset of a
returned connection, refusal of use after return, cursors finalized,
timeout, max_idle, threads, close and stats."""

import threading
import time
import unittest

import ixdtest
import ixdb
import ixdb.pool


def setUpModule():
    s = ixdtest.server()
    c = s.connect(autocommit=True)
    cur = c.cursor()
    cur.execute("create table pt (k int, v varchar(20))")
    cur.execute("insert into pt values (1, 'one')")
    c.close()


def dsn():
    return ixdtest.server().dsn("pyt")


def count(conn):
    cur = conn.cursor()
    cur.execute("select count(*) from pt")
    n = cur.fetchone()[0]
    cur.close()
    return n


class PoolTest(unittest.TestCase):
    def test_checkout_and_reuse(self):
        with ixdb.pool.Pool(dsn(), min_size=1, max_size=2) as pool:
            st = pool.stats()
            self.assertEqual((st["open"], st["idle"], st["checked_out"]), (1, 1, 0))
            with pool.connection() as c:
                self.assertIsInstance(c, ixdb.Connection)
                self.assertEqual(pool.stats()["checked_out"], 1)
                self.assertEqual(count(c), 1)
            st = pool.stats()
            self.assertEqual((st["idle"], st["checked_out"], st["created"]), (1, 0, 1))
            with pool.connection() as c2:
                self.assertEqual(count(c2), 1)
            self.assertEqual(pool.stats()["created"], 1, "the same connection served again")
        self.assertTrue(pool.closed)

    def test_refused_after_return(self):
        with ixdb.pool.Pool(dsn(), min_size=0, max_size=1) as pool:
            with pool.connection() as c:
                cur = c.cursor()
                cur.execute("select k from pt")
            self.assertTrue(c.closed)
            with self.assertRaises(ixdb.InterfaceError):
                c.cursor()
            with self.assertRaises(ixdb.InterfaceError):
                cur.execute("select 1 from pt")
            with self.assertRaises(ixdb.InterfaceError):
                c.commit()
            # the open cursor was finalized: the connection was kept, not discarded
            st = pool.stats()
            self.assertEqual((st["idle"], st["discarded"]), (1, 0))

    def test_open_transaction_rolled_back(self):
        with ixdb.pool.Pool(dsn(), min_size=1, max_size=1) as pool:
            with pool.connection() as c:
                self.assertFalse(c.autocommit)
                c.cursor().execute("insert into pt values (2, 'left open')")
                self.assertTrue(c.in_transaction)
            with pool.connection() as c:
                self.assertFalse(c.in_transaction)
                self.assertEqual(count(c), 1, "rolled back when returned")
                c.cursor().execute("insert into pt values (3, 'committed')")
                c.commit()
            with pool.connection() as c:
                self.assertEqual(count(c), 2)
                cur = c.cursor()
                cur.execute("delete from pt where k = 3")
                c.commit()
            self.assertEqual(pool.stats()["created"], 1)

    def test_exception_in_block_returns(self):
        pool = ixdb.pool.Pool(dsn(), min_size=0, max_size=1)
        with self.assertRaises(ZeroDivisionError):
            with pool.connection() as c:
                c.cursor().execute("insert into pt values (4, 'x')")
                1 / 0
        self.assertEqual(pool.stats()["checked_out"], 0)
        with pool.connection() as c:
            self.assertEqual(count(c), 1)
        pool.close()

    def test_timeout(self):
        with ixdb.pool.Pool(dsn(), min_size=0, max_size=1, timeout=0.2) as pool:
            c = pool.getconn()
            t0 = time.monotonic()
            with self.assertRaises(ixdb.pool.PoolTimeout) as cm:
                pool.getconn()
            self.assertGreaterEqual(time.monotonic() - t0, 0.15)
            self.assertIsInstance(cm.exception, ixdb.OperationalError)
            self.assertIn("max_size 1", str(cm.exception))
            self.assertEqual(pool.stats()["timeouts"], 1)
            pool.putconn(c)
            pool.putconn(pool.getconn())

    def test_gil_released_while_waiting(self):
        with ixdb.pool.Pool(dsn(), min_size=0, max_size=1, timeout=5) as pool:
            c = pool.getconn()
            got = []

            def waiter():
                with pool.connection() as c2:
                    got.append(count(c2))

            t = threading.Thread(target=waiter)
            t.start()
            # this thread runs (and queries) while the other waits in the pool
            for _ in range(5):
                self.assertEqual(count(c), 1)
            time.sleep(0.05)
            self.assertEqual(got, [])
            c.close()
            t.join(5)
            self.assertEqual(got, [1])
            self.assertGreaterEqual(pool.stats()["waits"], 1)

    def test_threads(self):
        with ixdb.pool.Pool(dsn(), min_size=0, max_size=3, timeout=20) as pool:
            errors = []
            out = [0, 0]
            lock = threading.Lock()

            def work(i):
                try:
                    for _ in range(10):
                        with pool.connection() as c:
                            with lock:
                                out[0] += 1
                                out[1] = max(out[1], out[0])
                            self.assertEqual(count(c), 1)
                            with lock:
                                out[0] -= 1
                except Exception as e:  # noqa: BLE001
                    errors.append(e)

            ts = [threading.Thread(target=work, args=(i,)) for i in range(6)]
            for t in ts:
                t.start()
            for t in ts:
                t.join(30)
            self.assertEqual(errors, [])
            self.assertLessEqual(out[1], 3)
            st = pool.stats()
            self.assertLessEqual(st["created"], 3)
            self.assertEqual(st["checked_out"], 0)

    def test_max_idle(self):
        with ixdb.pool.Pool(dsn(), min_size=1, max_size=3, max_idle=0.2) as pool:
            cs = [pool.getconn() for _ in range(3)]
            for c in cs:
                pool.putconn(c)
            self.assertEqual(pool.stats()["idle"], 3)
            time.sleep(0.3)
            with pool.connection() as c:
                self.assertEqual(count(c), 1)
            st = pool.stats()
            self.assertEqual((st["open"], st["discarded"]), (1, 2))

    def test_close_with_connection_out(self):
        pool = ixdb.pool.Pool(dsn(), min_size=2, max_size=2)
        c = pool.getconn()
        pool.close()
        with self.assertRaises(ixdb.InterfaceError):
            pool.getconn()
        self.assertEqual(count(c), 1, "a connection out stays usable")
        c.close()
        self.assertEqual(pool.stats()["open"], 0, "destroyed with the last one back")

    def test_dropped_connection_returns(self):
        pool = ixdb.pool.Pool(dsn(), min_size=0, max_size=1, timeout=1)
        c = pool.getconn()
        cur = c.cursor()
        cur.execute("select * from pt")
        del c, cur  # never closed: collected, it goes back
        with pool.connection() as c:
            self.assertEqual(count(c), 1)
        self.assertEqual(pool.stats()["created"], 1)
        pool.close()

    def test_bad_config_and_connect_error(self):
        with self.assertRaises(ixdb.ProgrammingError):
            ixdb.pool.Pool(dsn(), min_size=3, max_size=2)
        with self.assertRaises(ixdb.OperationalError):
            ixdb.pool.Pool("host=127.0.0.1 port=1 user=informix password=x", min_size=1)
        pool = ixdb.pool.Pool("host=127.0.0.1 port=1 user=informix password=x", min_size=0)
        with self.assertRaises(ixdb.OperationalError):
            pool.getconn()
        pool.close()


if __name__ == "__main__":
    ixdtest.main()
