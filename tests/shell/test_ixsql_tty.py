#!/usr/bin/env python3
"""ixsql's interactive mode on a pseudo-terminal against a real ixd: the
prompt with the database, the continuation prompt inside a statement and a
string, help and \\?, history recall with the up arrow (and across sessions
through ~/.ixsql_history), quit / exit / \\q / Ctrl-D / a second Ctrl-C at
an empty prompt, and the password prompt without echo.

usage: test_ixsql_tty.py IXSQL IXD
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


def editing(url, env):
    t = Term([url + "/tty"], env)
    check("the prompt names the database", t.until("tty> "), t.out)
    t.send("select id\n")
    check("continuation prompt inside a statement", t.until("...> "), t.out)
    t.send("  from t where id = 1;\n")
    check("the statement spanning two lines runs", t.until("1 row(s) retrieved."), t.out)
    check("then the main prompt again", t.until("tty> "), t.out)
    t.send("select 'a;\n")
    check("continuation prompt inside a string", t.until("...> "), t.out)
    t.send("b' x from t where id = 1;\n")
    check("the string keeps its ';' and newline", t.until("a;\r\nb") and t.until("tty> "), t.out)
    t.send("help\n")
    check("help lists the commands",
          t.until("quit, exit, \\q") and t.until("tty> ") and "201" not in t.out, t.out)
    t.send("\\?\n")
    check("\\? lists the commands", t.until("help, \\?") and t.until("tty> "), t.out)
    t.send("select 40 + 2 from t where id = 1;\n")
    check("a query", t.until("42") and t.until("tty> "), t.out)
    t.send("\x1b[A")
    check("the up arrow recalls the last line", t.until("select 40 + 2 from t where id = 1;"),
          t.out)
    t.send("\n")
    check("and runs it again", t.until("42") and t.until("tty> "), t.out)
    t.send("\x03")
    check("one Ctrl-C at an empty prompt only warns", t.until("Ctrl-C again") and t.until("tty> "),
          t.out)
    t.send("select 7 * 6 from t where id = 1;\n")
    check("the shell goes on after it", t.until("42") and t.until("tty> "), t.out)
    t.send("quit\n")
    check("quit leaves with status 0", t.status() == 0)
    path = os.path.join(env["HOME"], ".ixsql_history")
    hist = open(path).read() if os.path.exists(path) else ""
    check("~/.ixsql_history keeps the lines", "select 40 + 2 from t where id = 1;" in hist, hist)

    t = Term([url + "/tty"], env)
    t.until("tty> ")
    t.send("\x1b[A\x1b[A")
    check("history from the last session", t.until("select 7 * 6 from t where id = 1;"), t.out)
    t.send("\x15exit\n")  # Ctrl-U clears the recalled line
    check("exit leaves with status 0", t.status() == 0)


def leaving(url, env):
    for name, keys in (("\\q", "\\q\n"), ("Ctrl-D", "\x04"), ("QUIT;", "QUIT;\n")):
        t = Term([url + "/tty"], env)
        t.until("tty> ")
        t.send(keys)
        check(name + " leaves", t.status() == 0)
    t = Term([url + "/tty"], env)
    t.until("tty> ")
    t.send("select 1\n")
    t.until("...> ")
    t.out = ""  # from here on, wait for what comes next (the new prompt)
    t.send("\x03")
    check("Ctrl-C in an open statement drops it", t.until("tty> ") and "...>" not in t.out, t.out)
    t.out = ""
    t.send("\x03")
    t.until("Ctrl-C again")
    t.send("\x03")
    check("a second Ctrl-C at an empty prompt leaves", t.status() == 0)


def password(port, env):
    t = Term(["informix://informix@127.0.0.1:%s/tty" % port], env)
    check("the password is asked for", t.until("Password for informix: "), t.out)
    t.send("in4mix\n")
    check("then the session starts", t.until("tty> "), t.out)
    check("the password is not echoed", "in4mix" not in t.out, t.out)
    t.send("\\q\n")
    t.status()


def main():
    tmp = tempfile.mkdtemp(prefix="ixsqltty.")
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
        subprocess.run([IXSQL, url, "-c", "create database tty", "-c", "create table t (id int)",
                        "-c", "insert into t values (1)"], check=True, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        editing(url, env)
        leaving(url, env)
        password(port, env)
    finally:
        ixd.send_signal(signal.SIGTERM)
        ixd.wait(timeout=10)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


main()
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
