#!/usr/bin/env python3
"""ixsql's prompt follows the current connection's database on a
pseudo-terminal against a real ixd: DATABASE, CLOSE DATABASE, CREATE
DATABASE, \\c, CONNECT / SET CONNECTION / DISCONNECT, and the password of
CONNECT ... USING kept out of ~/.ixsql_history.

usage: test_ixsql_conn_tty.py IXSQL IXD
"""
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

IXSQL, IXD = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok - " + name)
    else:
        failed += 1
        print("not ok - %s\n%r" % (name, detail))


class Term:
    """ixsql on a pty; out holds everything it wrote since the last clear."""

    def __init__(self, args, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(IXSQL, [IXSQL] + args, env)
        self.out = ""

    def until(self, want, timeout=3.0):
        end = time.monotonic() + timeout
        while want not in self.out:
            left = end - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                self.out += data.decode("utf-8", "replace")
        return True

    def send(self, text):
        self.out = ""
        os.write(self.fd, text.encode())

    def status(self, timeout=3.0):
        """The exit status, or None if ixsql did not end (it is killed)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.until("\0", 0.05)  # drain the terminal
            p, st = os.waitpid(self.pid, os.WNOHANG)
            if p == self.pid:
                os.close(self.fd)
                return os.WEXITSTATUS(st) if os.WIFEXITED(st) else -1
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return None


def prompts(url, env):
    t = Term([url], env)
    check("no database: ixsql> ", t.until("ixsql> "), t.out)
    t.send("database one;\n")
    check("DATABASE changes the prompt", t.until("Database selected.") and t.until("one> "), t.out)
    t.send("close database;\n")
    check("CLOSE DATABASE clears it", t.until("Database closed.") and t.until("ixsql> "), t.out)
    t.send("create database three;\n")
    check("CREATE DATABASE makes it current", t.until("Database created.") and t.until("three> "),
          t.out)
    t.send("select 1\n")
    check("the continuation prompt is as wide", t.until("\r\n  ...> "), t.out)
    t.send(";\n")
    t.until("three> ")
    t.send("database nosuch;\n")
    check("a failed DATABASE keeps the prompt", t.until("329") and t.until("three> "), t.out)
    t.send("\\c one\n")
    check("\\c db selects it", t.until("one> "), t.out)
    t.send("connect to 'two' as 'c2' user 'informix' using 'in4mix';\n")
    check("CONNECT shows the new connection's database", t.until("Connected.") and t.until("two> "),
          t.out)
    t.send("set connection default;\n")
    check("SET CONNECTION DEFAULT: its database", t.until("one> "), t.out)
    t.send("set connection 'c2';\n")
    check("SET CONNECTION 'c2': its database", t.until("two> "), t.out)
    t.send("disconnect current;\n")
    check("DISCONNECT CURRENT: no database", t.until("Disconnected.") and t.until("ixsql> "), t.out)
    t.send("quit\n")
    check("quit: one statement failed", t.status() == 1)
    path = os.path.join(env["HOME"], ".ixsql_history")
    hist = open(path).read() if os.path.exists(path) else ""
    check("the history has the statements", "close database;" in hist, hist)
    check("but not CONNECT's password", "in4mix" not in hist, hist)


def main():
    tmp = tempfile.mkdtemp(prefix="ixsqlconntty.")
    portfile = os.path.join(tmp, "port")
    log = open(os.path.join(tmp, "ixd.log"), "w")
    ixd = subprocess.Popen([IXD, "--data", os.path.join(tmp, "db"), "--listen",
                            "127.0.0.1:0", "--port-file", portfile], stderr=log)
    try:
        for _ in range(200):
            if os.path.exists(portfile) and os.path.getsize(portfile) > 0:
                break
            time.sleep(0.05)
        port = open(portfile).read().strip()
        url = "informix://informix:in4mix@127.0.0.1:%s" % port
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        inputrc = os.path.join(tmp, "inputrc")
        open(inputrc, "w").close()
        env = {"HOME": home, "PATH": os.environ.get("PATH", ""), "TERM": "dumb",
               "INPUTRC": inputrc, "USER": "informix"}
        subprocess.run([IXSQL, url, "-c", "create database one", "-c", "create database two"],
                       check=True, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        prompts(url, env)
    finally:
        ixd.send_signal(signal.SIGTERM)
        ixd.wait(timeout=10)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


main()
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
