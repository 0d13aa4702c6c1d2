#!/usr/bin/env python3
"""ixsql on a terminal, as a person uses it: Ctrl-C while a long query runs
stops the query on the server (-213) and keeps the shell; Ctrl-C at the
prompt drops the statement being typed. Runs ixsql in a pseudo-terminal
against a real ixd.

usage: test_ixsql_interrupt.py IXSQL IXD
"""
import os
import pty
import select
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptylib  # noqa: E402
from ptylib import Checks  # noqa: E402

IXSQL, IXD = sys.argv[1], sys.argv[2]
check = Checks()


def read_until(fd, want, timeout, buf):
    """Reads the terminal into buf until want appears; returns the time it
    took, or None at the timeout."""
    t0 = time.monotonic()
    while want not in buf[0]:
        left = timeout - (time.monotonic() - t0)
        if left <= 0:
            return None
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return None
            if not data:
                return None
            buf[0] += data.decode("utf-8", "replace")
    return time.monotonic() - t0


def main():
    with ptylib.server(IXD, "ixsqlint.") as (tmp, port, url):
        script = os.path.join(tmp, "setup.sql")
        with open(script, "w") as f:
            f.write("create database si with log;\ncreate table n (i integer);\n")
            for i in range(2000):
                f.write("insert into n values (%d);\n" % i)
        subprocess.run([IXSQL, url, "-f", script], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        session(url + "/si")
        closing_session(url + "/si?compat=conservative")


def closing_session(url):
    """compat=conservative: ix_cancel closes the connection (no interrupt a
    real server is known to take); the shell says so, connects again to the
    same database and goes on."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(IXSQL, [IXSQL, url])
    buf = [""]
    try:
        os.write(fd, b"select count(*) from n a, n b, n c;\n")
        time.sleep(0.5)
        os.write(fd, b"\x03")
        took = read_until(fd, "connected again", 3, buf)
        check("conservative: Ctrl-C closes the connection and the shell reconnects",
              took is not None and "cancel" in buf[0], buf[0])
        buf[0] = ""
        os.write(fd, b"select count(*) from n;\n")
        check("the next query works on the same database",
              read_until(fd, "2000", 3, buf) is not None, buf[0])
        os.write(fd, b"\x04")
        for _ in range(100):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    finally:
        os.close(fd)


def session(url):
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(IXSQL, [IXSQL, url])
    buf = [""]
    try:
        os.write(fd, b"select count(*) from n a, n b, n c;\n")
        time.sleep(0.5)
        t0 = time.monotonic()
        os.write(fd, b"\x03")  # Ctrl-C: the terminal sends SIGINT to ixsql
        took = read_until(fd, "213", 3, buf)
        check("Ctrl-C stops the running query with -213",
              took is not None and "interrupted by user" in buf[0], buf[0])
        check("within a second", took is not None and time.monotonic() - t0 < 1.5,
              "%s" % took)
        buf[0] = ""
        os.write(fd, b"select count(*) from n;\n")
        check("the shell goes on: the next query works",
              read_until(fd, "2000", 3, buf) is not None, buf[0])
        buf[0] = ""
        os.write(fd, b"select tabid\n")
        time.sleep(0.2)
        os.write(fd, b"\x03")  # at the prompt: drops the statement being typed
        time.sleep(0.2)
        os.write(fd, b"select 40 + 2 from systables where tabid = 1;\n")
        got = read_until(fd, "42", 3, buf)
        check("Ctrl-C at the prompt drops the partial statement",
              got is not None and "201" not in buf[0], buf[0])
        os.write(fd, b"\x04")  # end of input
        st = None
        for _ in range(100):
            p, st = os.waitpid(pid, os.WNOHANG)
            if p == pid:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        check("ixsql ends at end of input, not by a signal",
              st is not None and os.WIFEXITED(st), "status %s" % st)
    finally:
        os.close(fd)


main()
sys.exit(check.done())
