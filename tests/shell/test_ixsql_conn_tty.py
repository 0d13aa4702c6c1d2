#!/usr/bin/env python3
"""ixsql's prompt follows the current connection's database on a
pseudo-terminal against a real ixd: DATABASE, CLOSE DATABASE, CREATE
DATABASE, \\c, CONNECT / SET CONNECTION / DISCONNECT, and the password of
CONNECT ... USING kept out of ~/.ixsql_history.

usage: test_ixsql_conn_tty.py IXSQL IXD
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptylib  # noqa: E402
from ptylib import Checks  # noqa: E402

IXSQL, IXD = sys.argv[1], sys.argv[2]
check = Checks()


def Term(args, env):
    return ptylib.Term(IXSQL, args, env, timeout=3.0)


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
    with ptylib.server(IXD, "ixsqlconntty.") as (tmp, port, url):
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


main()
sys.exit(check.done())
