#!/usr/bin/env python3
"""ixd for operators: the command line (--help, --version, unknown options,
bad values), --config FILE (keys as the long options, the command line
wins), contrib/ixd.conf and contrib/ixd.service, and the data directory's
lock (a second ixd refuses to start; kill -9 leaves no stale lock).

usage: test_ixd_ops.py IXD IXSQL SOURCE_DIR"""
import json
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ixdops import Ixd, check, finish, ixsql, scratch, wait_for  # noqa: E402

IXD, IXSQL, SRC = sys.argv[1], sys.argv[2], sys.argv[3]
EXIT_USAGE, EXIT_IN_USE = 2, 3


def run(*args, stdin=""):
    return subprocess.run([IXD] + list(args), input=stdin, capture_output=True, text=True,
                          timeout=30)


def command_line(tmp):
    r = run("--help")
    check("--help: usage on stdout, exit 0",
          r.returncode == 0 and r.stdout.startswith("usage: ixd") and r.stderr == "", r)
    for opt in ("--data", "--listen", "--config", "--log-file", "--log-format", "--make-user"):
        check("--help names %s" % opt, opt in r.stdout, r.stdout)
    r = run("-h")
    check("-h is --help", r.returncode == 0 and r.stdout.startswith("usage: ixd"), r)
    r = run("--version")
    check("--version", r.returncode == 0 and re.match(r"^ixd \d+\.\d+\.\d+\n$", r.stdout), r)
    r = run("--data", tmp, "--no-such-option")
    check("an unknown option names itself, exit 2",
          r.returncode == EXIT_USAGE and "--no-such-option" in r.stderr and r.stdout == "", r)
    r = run("--data")
    check("a missing argument is named, exit 2",
          r.returncode == EXIT_USAGE and "--data" in r.stderr, r)
    r = run("--data", tmp, "--max-reply", "12")
    check("a bad value names its option, exit 2",
          r.returncode == EXIT_USAGE and "--max-reply" in r.stderr and "12" in r.stderr, r)
    r = run("--listen", "127.0.0.1:0")
    check("--data is required", r.returncode == EXIT_USAGE and "--data" in r.stderr, r)
    r = run("--data", tmp, "stray")
    check("a stray argument is refused", r.returncode == EXIT_USAGE and "stray" in r.stderr, r)
    r = run("--make-user", "alice", stdin="secret\n")
    check("--make-user prints a users-file line",
          r.returncode == 0 and r.stdout.startswith("alice:") and r.stdout.count(":") == 2, r)
    r = run("--make-user=bob", stdin="secret\n")
    check("--opt=value works", r.returncode == 0 and r.stdout.startswith("bob:"), r)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def first_json(path, needle):
    for ln in open(path).read().splitlines():
        o = json.loads(ln)
        if needle in o["msg"]:
            return o["msg"]
    return ""


def config(tmp):
    log = os.path.join(tmp, "cfg.log")
    cfg = write(os.path.join(tmp, "ixd.conf"),
                "# a comment\n\n  server-name = fromfile  \nlog-format=json\n"
                "log-file = %s\nverbose = no\nmax-reply = 4096\n" % log)
    d = Ixd(IXD, tmp, ["--config", cfg], data=os.path.join(tmp, "cfgdb"), tag="cfg")
    check("ixd starts with --config", d.port, d.stderr())
    r = ixsql(IXSQL, d.url("sysmaster") + "?server=fromfile", "select count(*) from systables")
    check("server-name from the file", r.returncode == 0, r.stdout + r.stderr)
    d.stop()
    check("log-format and log-file from the file",
          "as fromfile" in first_json(log, "listening on"), open(log).read())
    # The command line overrides the file.
    d = Ixd(IXD, tmp, ["--config", cfg, "--server-name", "fromcli", "--log-format", "text"],
            data=os.path.join(tmp, "cfgdb"), tag="cfg2")
    check("ixd starts with --config and overrides", d.port, d.stderr())
    d.stop()
    last = open(log).read().splitlines()
    check("the command line wins over the file",
          any("as fromcli" in ln and not ln.startswith("{") for ln in last), "\n".join(last))
    for text, want in (("server-name = x\nno-such-key = 1\n", ":2: unknown key 'no-such-key'"),
                       ("max-reply = 12\n", ":1: '12' is not"),
                       ("verbose = perhaps\n", ":1: 'perhaps' is not yes or no"),
                       ("just words\n", ":1: expected key = value"),
                       ("make-user = x\n", ":1: unknown key 'make-user'")):
        bad = write(os.path.join(tmp, "bad.conf"), text)
        r = run("--config", bad, "--data", tmp)
        check("config %r is refused with file:line" % text,
              r.returncode == EXIT_USAGE and bad + want in r.stderr, r)
    r = run("--config", os.path.join(tmp, "missing.conf"), "--data", tmp)
    check("a missing config file is refused", r.returncode != 0 and "missing.conf" in r.stderr, r)


def contrib(tmp):
    """The example configuration starts ixd once the paths point here."""
    log = os.path.join(tmp, "contrib.log")
    d = Ixd(IXD, tmp, ["--config", os.path.join(SRC, "contrib/ixd.conf"), "--log-file", log],
            data=os.path.join(tmp, "contribdb"), tag="contrib")
    check("contrib/ixd.conf is a valid configuration", d.port, d.stderr())
    check("it stops cleanly", d.stop() == 0, d.stderr())
    unit = open(os.path.join(SRC, "contrib/ixd.service")).read()
    m = re.search(r"^ExecStart=(\S+) (.*)$", unit, re.M)
    check("the unit starts ixd --config", m and m.group(1).endswith("/ixd") and
          m.group(2).startswith("--config "), unit)
    helptext = run("--help").stdout
    opts = re.findall(r"--[a-z-]+", m.group(2) if m else "")
    check("the unit's options exist", opts and all(o in helptext for o in opts), opts)
    m = re.search(r"^RestartPreventExitStatus=(.*)$", unit, re.M)
    check("the unit does not restart on exit 2 and 3", m and m.group(1).split() == ["2", "3"],
          unit)


def lock(tmp):
    data = os.path.join(tmp, "lockdb")
    a = Ixd(IXD, tmp, [], data=data, tag="a")
    check("the first ixd starts", a.port, a.stderr())
    lockfile = os.path.join(data, "ixd.lock")
    check("the lock file holds its pid",
          os.path.exists(lockfile) and open(lockfile).read().strip() == str(a.proc.pid))
    b = Ixd(IXD, tmp, [], data=data, tag="b")
    rc = b.stop()
    check("a second ixd on the same directory exits %d" % EXIT_IN_USE, rc == EXIT_IN_USE,
          "rc=%s %s" % (rc, b.stderr()))
    check("and says why", "data directory %s is in use by another ixd (pid %d" %
          (data, a.proc.pid) in b.stderr(), b.stderr())
    r = ixsql(IXSQL, a.url("sysmaster"), "select count(*) from systables")
    check("the first one still serves", r.returncode == 0, r.stdout + r.stderr)
    a.stop(signal.SIGKILL)
    check("kill -9 leaves the lock file", os.path.exists(lockfile))
    c = Ixd(IXD, tmp, [], data=data, tag="c")
    check("a new ixd starts after kill -9 (no stale lock)", c.port, c.stderr())
    check("and takes the lock", wait_for(
        lambda: open(lockfile).read().strip() == str(c.proc.pid)))
    c.stop()
    other = Ixd(IXD, tmp, [], data=os.path.join(tmp, "otherdb"), tag="d")
    check("ixd on another directory is not affected", other.port, other.stderr())
    other.stop()


def aliases(tmp):
    """--server-aliases: a login (INFORMIXSERVER, CONNECT TO '@name') may ask
    for the server's name or one of its aliases; another name is -761."""
    d = Ixd(IXD, tmp, ["--server-name", "main", "--server-aliases", "ol_informix1210,demo_on"],
            data=os.path.join(tmp, "aliasdb"), tag="alias")
    check("ixd starts with --server-aliases", d.port, d.stderr())
    q = "select count(*) from systables where tabid = 1"
    for name in ("main", "ol_informix1210", "demo_on"):
        r = ixsql(IXSQL, d.url("sysmaster") + "?server=" + name, q)
        check("a login asking for %s is served" % name, r.returncode == 0, r.stdout + r.stderr)
    for name in ("other", "demo", "Main"):
        r = ixsql(IXSQL, d.url("sysmaster") + "?server=" + name, q)
        check("a login asking for %s gets -761" % name,
              r.returncode != 0 and "761" in r.stdout + r.stderr, r.stdout + r.stderr)
    hosts = write(os.path.join(tmp, "sqlhosts"),
                  "".join("%s onsoctcp 127.0.0.1 %d\n" % (n, d.port)
                          for n in ("demo_on", "ol_informix1210", "nosuch")))
    url = d.url("sysmaster") + "?server=main&sqlhosts=" + hosts
    r = ixsql(IXSQL, url, "connect to '@demo_on'", "database sysmaster", q,
              "connect to 'sysmaster@ol_informix1210' as 'c2'", q)
    check("CONNECT TO '@alias' and 'db@alias' connect to ixd",
          r.returncode == 0 and (r.stdout + r.stderr).count("Connected.") == 2,
          "rc %d: %s%s" % (r.returncode, r.stdout, r.stderr))
    r = ixsql(IXSQL, url, "connect to '@nosuch'")
    check("CONNECT TO '@nosuch' (listed, not ixd's) is -761",
          r.returncode != 0 and "761" in r.stdout + r.stderr, r.stdout + r.stderr)
    d.stop()


def main():
    tmp, cleanup = scratch("ixdops.")
    try:
        command_line(tmp)
        config(tmp)
        contrib(tmp)
        lock(tmp)
        aliases(tmp)
    finally:
        cleanup()
    finish()


main()
