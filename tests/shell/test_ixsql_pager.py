#!/usr/bin/env python3
"""ixsql's pager, on a pseudo-terminal against a real ixd: results taller
than the terminal go through $PAGER (a script that records what it read),
shorter ones to the terminal; \\pset pager off, an empty PAGER, output that
is not a terminal, OUTPUT TO and \\o never page; without PAGER, less from
the PATH (with LESS=FSX); a pager that cannot run leaves the rows on the
terminal.

usage: test_ixsql_pager.py IXSQL IXD
"""
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptylib  # noqa: E402
from ptylib import Checks  # noqa: E402

IXSQL, IXD = sys.argv[1], sys.argv[2]
ROWS = 10  # the terminal's height
check = Checks()


def run_pty(args, env, typed=()):
    """Runs ixsql with a terminal of ROWS rows as stdin, stdout and stderr;
    typed: (text to wait for, keys to send) in turn. Returns what the
    terminal showed and the exit status."""
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, 80, 0, 0))
        os.execve(IXSQL, [IXSQL] + args, env)
    out = b""
    steps, mark = list(typed), 0  # each text is waited for after the last keys
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if steps and steps[0][0].encode() in out[mark:]:
            os.write(fd, steps.pop(0)[1].encode())
            mark = len(out)
        r, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
        if not r:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the child has gone
            break
        if not data:
            break
        out += data
    else:
        os.kill(pid, signal.SIGKILL)
    _, st = os.waitpid(pid, 0)
    os.close(fd)
    return out.decode("utf-8", "replace").replace("\r\n", "\n"), st


def main():
    with ptylib.server(IXD, "ixsqlpager.") as (tmp, port, url):
        script = os.path.join(tmp, "setup.sql")
        with open(script, "w") as f:
            f.write("create database pg;\ncreate table n (i integer);\n")
            for i in range(30):
                f.write("insert into n values (%d);\n" % (1000 + i))
        subprocess.run([IXSQL, url, "-f", script], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cases(tmp, url + "/pg")


def pager_script(tmp, name):
    """A pager that records that it ran, LESS, and what it read."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write('#!/bin/sh\necho "ran LESS=$LESS" > "%s/ran"\ncat > "%s/paged"\n' % (tmp, tmp))
    os.chmod(path, 0o755)
    return path


def reset(tmp):
    for name in ("ran", "paged"):
        try:
            os.remove(os.path.join(tmp, name))
        except FileNotFoundError:
            pass


def read(tmp, name):
    try:
        return open(os.path.join(tmp, name)).read()
    except FileNotFoundError:
        return None


def cases(tmp, url):
    pager = pager_script(tmp, "mypager")
    env = dict(os.environ, PAGER=pager, LC_ALL="C.UTF-8")
    tall = "select i from n order by 1"
    short = "select i from n where i < 1003 order by 1"

    reset(tmp)
    out, st = run_pty([url, "-c", tall], env)
    paged = read(tmp, "paged") or ""
    check("taller than the terminal: the pager ran", read(tmp, "ran") is not None, out)
    check("the pager read every row", paged.count("\n") == 33 and "1029" in paged and
          paged.startswith("\n          i\n\n       1000\n"), paged)
    check("the rows not on the terminal, the count is", "1029" not in out and
          "30 row(s) retrieved." in out, out)
    check("status 0", os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0, "%s" % st)

    reset(tmp)
    out, _ = run_pty([url, "-c", short], env)
    check("shorter than the terminal: no pager", read(tmp, "ran") is None, out)
    check("shorter: the rows on the terminal", "1002" in out and "3 row(s)" in out, out)

    reset(tmp)
    out, _ = run_pty([url, "-c", "\\pset pager off", "-c", tall], env)
    check("\\pset pager off: no pager", read(tmp, "ran") is None and "1029" in out, out)

    reset(tmp)
    out, _ = run_pty([url, "-c", "\\pset pager off", "-c", "\\pset pager on", "-c", tall], env)
    check("\\pset pager on again: the pager", read(tmp, "ran") is not None, out)

    reset(tmp)
    out, _ = run_pty([url, "-c", tall], dict(env, PAGER=""))
    check("PAGER empty: no pager", read(tmp, "ran") is None and "1029" in out, out)

    reset(tmp)
    r = subprocess.run([IXSQL, url, "-c", tall], env=env, capture_output=True, text=True)
    check("stdout not a terminal: no pager", read(tmp, "ran") is None and "1029" in r.stdout,
          r.stdout)

    reset(tmp)
    out, _ = run_pty([url, "-c", "output to '%s/o.txt' %s" % (tmp, tall)], env)
    check("OUTPUT TO: no pager", read(tmp, "ran") is None and
          "1029" in (read(tmp, "o.txt") or ""), out)

    reset(tmp)
    out, _ = run_pty([url, "-c", "\\o %s/o2.txt" % tmp, "-c", tall], env)
    check("\\o: no pager", read(tmp, "ran") is None and "1029" in (read(tmp, "o2.txt") or ""),
          out)

    reset(tmp)
    bindir = os.path.join(tmp, "bin")
    os.mkdir(bindir)
    shutil.copy(pager, os.path.join(bindir, "less"))
    noenv = {k: v for k, v in env.items() if k not in ("PAGER", "LESS")}
    noenv["PATH"] = bindir + ":/usr/bin:/bin"
    out, _ = run_pty([url, "-c", tall], noenv)
    check("no PAGER: less from the PATH, with LESS=FSX",
          (read(tmp, "ran") or "").strip() == "ran LESS=FSX", "%r" % read(tmp, "ran"))

    reset(tmp)
    out, _ = run_pty([url, "-c", tall], dict(env, PAGER="no-such-pager-here 2>/dev/null"))
    check("a pager that cannot run: the rows on the terminal",
          "cannot run the pager" in out and "1029" in out, out)

    reset(tmp)
    out, st = run_pty([url], env, [("pg> ", tall + ";\n"), ("pg> ", "\x04")])
    check("at the prompt: the pager, then the shell goes on",
          read(tmp, "ran") is not None and "30 row(s) retrieved." in out and
          os.WIFEXITED(st), out)


main()
sys.exit(check.done())
