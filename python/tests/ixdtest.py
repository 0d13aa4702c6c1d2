"""Shared helpers for the ixdb Python tests: start a real ixd (path in
$IXD_BIN) on a free loopback port with a temporary data directory, and a
unittest runner that ends with an "N passed, N failed" line."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
_pp = os.environ.get("IXDB_PYTHONPATH") or os.path.join(ROOT, "build", "python")
# the built package first (python/ixdb, the sources, has no extension in it)
sys.path[:] = [_pp] + [p for p in sys.path
                       if os.path.abspath(p or ".") != os.path.join(ROOT, "python")]

import ixdb  # noqa: E402


class Server:
    def __init__(self):
        self.bin = os.environ.get("IXD_BIN") or os.path.join(ROOT, "build", "ixd")
        self.dir = tempfile.mkdtemp(prefix="ixdpy.")
        portfile = os.path.join(self.dir, ".port")
        self.log = open(os.path.join(self.dir, ".ixd.log"), "ab")
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        args = [self.bin, "--data", self.dir, "--listen", "127.0.0.1:0", "--port-file", portfile]
        # IXDB_TEST_STRICT=1: ixd plays a conservative real Informix server
        # (docs/server.md "Strict mode")
        if os.environ.get("IXDB_TEST_STRICT") == "1":
            args.append("--strict")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=self.log, env=env)
        self.port = 0
        for _ in range(1000):
            try:
                with open(portfile) as f:
                    self.port = int(f.read().strip() or 0)
                if self.port:
                    break
            except (OSError, ValueError):
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("ixd exited with %s" % self.proc.returncode)
            time.sleep(0.01)
        if not self.port:
            raise RuntimeError("ixd did not start")

    def dsn(self, database=None, **extra):
        s = "host=127.0.0.1 port=%d user=informix password=in4mix" % self.port
        if database:
            s += " database=" + database
        for k, v in extra.items():
            s += " %s=%s" % (k, v)
        return s

    def connect(self, database="pyt", **kw):
        return ixdb.connect(self.dsn(database), **kw)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


SERVER = None


# Against ixd --strict (IXDB_TEST_STRICT=1) the connection uses only verified
# request forms; what needs a form only ixd takes is refused (NotSupportedError).
STRICT = os.environ.get("IXDB_TEST_STRICT") == "1"


def ixd_only(why):
    """Skips a test against ixd --strict: it needs a form only ixd takes."""
    return unittest.skipIf(STRICT, "needs a form only ixd takes: " + why)


def server():
    """The module's server, started on first use, with database pyt (logged)."""
    global SERVER
    if SERVER is None:
        SERVER = Server()
        c = ixdb.connect(SERVER.dsn(), autocommit=True)
        c.cursor().execute("create database pyt with log")
        c.close()
    return SERVER


def fresh_table(name, columns, rows=()):
    """Drops table name if it exists, creates it with columns (the text in
    parentheses) and inserts rows, in the module's database."""
    c = server().connect(autocommit=True)
    cu = c.cursor()
    try:
        cu.execute("drop table " + name)
    except ixdb.Error:
        pass
    cu.execute("create table %s (%s)" % (name, columns))
    if rows:
        cu.executemany("insert into %s values (%s)" % (name, ", ".join("?" * len(rows[0]))),
                       rows)
    c.close()


def main():
    """Runs the calling module's tests; prints "N passed, N failed"."""
    import __main__
    suite = unittest.defaultTestLoader.loadTestsFromModule(__main__)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed - len(result.skipped) - len(result.expectedFailures)
    if SERVER is not None:
        SERVER.stop()
    print("%d passed, %d failed, %d skipped, %d expected failures"
          % (passed, failed, len(result.skipped), len(result.expectedFailures)))
    sys.exit(1 if failed else 0)
