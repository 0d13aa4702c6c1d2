#!/usr/bin/env python3
"""ixsql's interactive mode on a pseudo-terminal against a real ixd: the
prompt with the database, the continuation prompt inside a statement and a
string, help and \\?, history recall with the up arrow (and across sessions
through ~/.ixsql_history), quit / exit / \\q / Ctrl-D / a second Ctrl-C at
an empty prompt, and the password prompt without echo.

usage: test_ixsql_tty.py IXSQL IXD
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
    check("help names LOAD, UNLOAD and INFO",
          all(w in t.out for w in ("LOAD FROM 'file'", "UNLOAD TO 'file'", "INFO TABLES")), t.out)
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
    home = os.path.join(env["HOME"], "other")  # its own history
    os.makedirs(home, exist_ok=True)
    t = Term([url + "/tty"], dict(env, HOME=home))
    t.send("select 1 from t where id = 1;\n")
    t.until("tty> ")
    t.send("selct * from t;\n")
    check("at the prompt an error's line counts within the statement",
          t.until("Error in line 1\r\nNear character position 1") and t.until("tty> "), t.out)
    t.send("quit\n")
    check("a failed statement counts in the status", t.status() == 1)
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
    with ptylib.server(IXD, "ixsqltty.") as (tmp, port, url):
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


main()
sys.exit(check.done())
