"""Interrupting a running statement from Python: Ctrl-C (SIGINT) while a
query runs (execute waits for its first row) raises KeyboardInterrupt from
execute within a second, the server stops the
query, and the connection stays usable; a signal handler that raises
another exception cancels as well; an interrupt between statements is
harmless."""

import os
import signal
import threading
import time
import unittest

import ixdtest
from ixdtest import ixdb

LONG_SQL = "select count(*) from n a, n b, n c"  # minutes of work
# ixd --strict (IXDB_TEST_STRICT=1) takes no interrupt: libixdb's cancel closes
# the connection there (python/tests/test_request_forms.py tests that)
NO_INTERRUPT = unittest.skipIf(os.environ.get("IXDB_TEST_STRICT") == "1",
                               "a cancel closes the connection against ixd --strict")


def setUpModule():
    srv = ixdtest.server()
    c = srv.connect(autocommit=True)
    cu = c.cursor()
    cu.execute("create table n (i integer)")
    cu.executemany("insert into n values (?)", [(i,) for i in range(2000)])
    c.close()


def sigint_after(seconds):
    """Sends SIGINT to this process after `seconds`, from a thread (the
    signal is handled by the main thread, as Ctrl-C would be)."""
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


class Cancel(unittest.TestCase):
    def setUp(self):
        self.conn = ixdtest.server().connect(autocommit=True)
        self.cu = self.conn.cursor()

    def tearDown(self):
        self.conn.close()

    def usable(self):
        self.cu.execute("select count(*) from n")
        self.assertEqual(self.cu.fetchone()[0], 2000)

    @NO_INTERRUPT
    def test_keyboard_interrupt(self):
        t = sigint_after(0.3)
        t0 = time.monotonic()
        with self.assertRaises(KeyboardInterrupt):
            self.cu.execute(LONG_SQL)  # execute itself waits for the first row
        took = time.monotonic() - t0
        t.join()
        self.assertLess(took, 1.5, "KeyboardInterrupt within a second of Ctrl-C")
        self.usable()

    @NO_INTERRUPT
    def test_in_transaction(self):
        self.conn.autocommit = False
        self.cu.execute("insert into n values (-1)")
        t = sigint_after(0.3)
        with self.assertRaises(KeyboardInterrupt):
            self.cu.execute(LONG_SQL)  # execute itself waits for the first row
        t.join()
        self.assertTrue(self.conn.in_transaction, "the transaction is left as it was")
        self.conn.rollback()
        self.usable()

    @NO_INTERRUPT
    def test_other_exception_from_a_handler(self):
        class Late(Exception):
            pass

        def handler(sig, frame):
            raise Late()

        old = signal.signal(signal.SIGALRM, handler)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            t0 = time.monotonic()
            with self.assertRaises(Late):
                self.cu.execute(LONG_SQL)  # execute itself waits for the first row
            self.assertLess(time.monotonic() - t0, 1.5)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        self.usable()

    def test_interrupt_between_statements(self):
        t = sigint_after(0.05)
        with self.assertRaises(KeyboardInterrupt):
            time.sleep(1)
        t.join()
        self.usable()


if __name__ == "__main__":
    ixdtest.main()
