#!/usr/bin/env python3
"""ixd's log: ISO 8601 UTC timestamps with milliseconds, a level and the
session id on every line; error messages with their insertion text filled
in; --log-format=json (one object a line); --log-file, reopened on SIGHUP.

usage: test_ixd_log.py IXD IXSQL"""
import json
import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ixdops import Ixd, check, finish, ixsql, scratch, wait_for  # noqa: E402

IXD, IXSQL = sys.argv[1], sys.argv[2]
TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (debug|info|warn|error) "
                       r"\[(\d+)\] (.+)$")
BAD_SQL = "select nosuchcol from systables"


def read(path):
    return open(path).read() if os.path.exists(path) else ""


def text_format(tmp):
    log = os.path.join(tmp, "ixd.log")
    d = Ixd(IXD, tmp, ["--log-file", log])
    check("ixd starts with --log-file", d.port, d.stderr())
    r = ixsql(IXSQL, d.url("sysmaster"), BAD_SQL)
    check("the bad statement fails", r.returncode != 0, r.stdout + r.stderr)
    wait_for(lambda: "session ends" in read(log))
    lines = read(log).splitlines()
    bad = [ln for ln in lines if not TEXT_LINE.match(ln)]
    check("every line has time, level and session", lines and not bad, "\n".join(bad or lines))
    check("no raw template in the log", "%s" not in read(log), read(log))
    err = [TEXT_LINE.match(ln) for ln in lines if "-217" in ln]
    check("the error is logged at level error with its insertion text",
          err and all(m.group(1) == "error" and "Column (nosuchcol) not found" in m.group(3)
                      for m in err), "\n".join(lines))
    conn = [TEXT_LINE.match(ln) for ln in lines if "connection from" in ln]
    check("the error carries the session id of its connection",
          err and conn and err[0].group(2) == conn[0].group(2) and conn[0].group(2) != "0",
          "\n".join(lines))
    start = [TEXT_LINE.match(ln) for ln in lines if "listening on" in ln]
    check("server lines are session 0", start and start[0].group(2) == "0", "\n".join(lines))
    check("nothing on standard error with --log-file", d.stderr() == "", d.stderr())
    rejected(d, log)
    reopen(d, log)
    check("ixd exits 0 on SIGTERM", d.stop() == 0, d.stderr())


def rejected(d, log):
    """A refused login: the -951 text names the user; a control character in
    the name (from the wire) is escaped, so it cannot start a line of its own."""
    url = "informix://ev%%0Ail@127.0.0.1:%d/sysmaster" % d.port
    r = ixsql(IXSQL, url, "select 1 from systables", password="x")
    check("the unknown user is refused", r.returncode != 0, r.stdout + r.stderr)
    wait_for(lambda: "login rejected" in read(log))
    lines = read(log).splitlines()
    rej = [ln for ln in lines if "login rejected" in ln]
    check("the refusal's text has the user name filled in", rej and
          'Incorrect password or user ev\\x0ail is not known' in rej[0], "\n".join(lines))
    check("the newline in the user name is escaped",
          all(TEXT_LINE.match(ln) for ln in lines) and not any(ln.startswith("il") for ln in lines),
          "\n".join(lines))


def reopen(d, log):
    """logrotate's way: rename the file, SIGHUP, and the next lines go to a
    new file of the old name."""
    before = read(log).count("connection from")
    os.rename(log, log + ".1")
    d.proc.send_signal(signal.SIGHUP)
    r = ixsql(IXSQL, d.url("sysmaster"), "select count(*) from systables")
    check("ixd still serves after SIGHUP", r.returncode == 0 and d.proc.poll() is None,
          r.stdout + r.stderr)
    wait_for(lambda: "session ends" in read(log))
    check("after SIGHUP the log file is created again", "connection from" in read(log),
          read(log))
    check("the renamed file gets no more lines", read(log + ".1").count("connection from") == before,
          read(log + ".1"))


def json_format(tmp):
    log = os.path.join(tmp, "json.log")
    d = Ixd(IXD, tmp, ["--log-file", log, "--log-format=json", "--verbose"],
            data=os.path.join(tmp, "db2"), tag="json")
    check("ixd starts with --log-format=json", d.port, d.stderr())
    ixsql(IXSQL, d.url("sysmaster"), BAD_SQL)
    wait_for(lambda: "session ends" in read(log))
    check("ixd exits 0", d.stop() == 0, d.stderr())
    objs, bad = [], []
    for ln in read(log).splitlines():
        try:
            objs.append(json.loads(ln))
        except ValueError:
            bad.append(ln)
    check("every line is one JSON object", objs and not bad, "\n".join(bad))
    keys = {"time", "level", "session", "msg"}
    check("each has time, level, session and msg",
          all(set(o) == keys and TEXT_LINE.match("%s %s [%d] x" % (o["time"], o["level"],
                                                                     o["session"]))
              for o in objs), read(log))
    err = [o for o in objs if o["msg"].startswith("error -217")]
    check("the error's insertion text is filled in",
          err and all("Column (nosuchcol) not found" in o["msg"] and o["level"] == "error"
                      for o in err), read(log))
    check("--verbose lines are level debug",
          any(o["level"] == "debug" and o["msg"].startswith("< SQ_") for o in objs), read(log))


def bad_options(tmp):
    for args, want in ((["--log-format=xml"], "--log-format"),
                       (["--log-file", os.path.join(tmp, "no/such/dir/log")], "log file")):
        d = Ixd(IXD, tmp, args, data=os.path.join(tmp, "db3"), tag="bad")
        rc = d.stop()
        check("%s is refused" % args[0], rc != 0 and want in d.stderr(), d.stderr())


def main():
    tmp, cleanup = scratch("ixdlog.")
    try:
        text_format(tmp)
        json_format(tmp)
        bad_options(tmp)
    finally:
        cleanup()
    finish()


main()
