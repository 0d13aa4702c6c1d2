#!/usr/bin/env python3
"""ixsql's input side against a real ixd: Tab completion on a pseudo-terminal
(keywords, tables and columns from the catalogue, alias.column, backslash
commands, the cache refreshed after DDL and DATABASE), \\e with EDITOR /
DBEDIT set to small scripts, \\set / \\unset with :name substitution, and \\i
(nested, failures named by file and line), interactive and from scripts.

usage: test_ixsql_input.py IXSQL IXD
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
    return ptylib.Term(IXSQL, args, env, timeout=5.0)


def run(args, env, stdin=""):
    p = subprocess.run([IXSQL] + args, input=stdin, env=env, capture_output=True, text=True,
                       timeout=20)
    return p.returncode, p.stdout, p.stderr


def completion(url, env):
    t = Term([url + "/inp"], env)
    t.until("inp> ")
    check("a keyword in lower case", t.tab("sel", "select "), t.out)
    check("a table after FROM", t.tab("* from cus", "customer "), t.out)
    check("alias.column from the statement's alias", t.tab("c where c.fn", "c.fname "), t.out)
    t.send("= 'Ann';\n")
    check("the completed statement runs", t.until("1 row(s) retrieved.") and t.until("inp> "),
          t.out)
    check("a keyword in upper case", t.tab("SEL", "SELECT "), t.out)
    check("table.column", t.tab("customer.customer_n", "customer.customer_num "), t.out)
    check("a table after JOIN",
          t.tab("FROM customer JOIN ord", "orders ") and t.tab("ON orders.cust", "orders.customer_num "),
          t.out)
    t.send("= customer.customer_num;\n")
    check("the join runs", t.until("1 row(s) retrieved.") and t.until("inp> "), t.out)
    check("a column of any user table while the statement names none",
          t.tab("select order_d", "order_date ") and t.tab("from orders", "orders "), t.out)
    t.send(";\n")
    t.until("inp> ")
    t.send("select *\n")
    t.until("...> ")
    check("a table on a continuation line (FROM on it)", t.tab("from ord", "orders "), t.out)
    t.send("\n")
    t.until("...> ")
    check("a column through the earlier lines' table", t.tab("where order_n", "order_num "), t.out)
    t.send("= 7;\n")
    t.until("inp> ")
    check("a table after a ',' in a FROM list", t.tab("select * from orders, cust", "customer "),
          t.out)
    t.send(";\n")
    t.until("inp> ")
    check("the INFO forms, then a table after FOR",
          t.tab("info col", "info columns ") and t.tab("for ord", "orders "), t.out)
    t.send(";\n")
    check("INFO COLUMNS runs", t.until("order_date") and t.until("inp> "), t.out)
    check("a table after LOAD ... INSERT INTO",
          t.tab("load from '/dev/null' insert into cus", "customer "), t.out)
    t.send(";\n")
    t.until("inp> ")
    check("a table after UPDATE and a column after SET",
          t.tab("update ord", "orders ") and t.tab("set order_d", "order_date "), t.out)
    t.send("= today where 1 = 0;\n")
    t.until("inp> ")
    check("a backslash command", t.tab("\\tim", "\\timing "), t.out)
    t.send("\x15")  # Ctrl-U
    check("the system catalogue's tables too", t.tab("select * from syscolu", "syscolumns "), t.out)
    t.send("\x15")
    t.send("create table newer_tab (brand_new int);\n")
    t.until("inp> ")
    check("after CREATE TABLE the new table completes",
          t.tab("select brand_", "brand_new ") and t.tab("from newer", "newer_tab "), t.out)
    t.send(";\n")
    t.until("inp> ")
    t.send("drop table newer_tab;\n")
    t.until("inp> ")
    t.send("select * from newer\t")
    t.until("\0", 0.3)
    check("after DROP TABLE it no longer does", "newer_tab" not in t.out, t.out)
    t.send("\x15database inp2;\n")
    t.until("inp> ")
    check("after DATABASE the other database's tables",
          t.tab("select * from oth", "other_only ") and t.send("\x15") is None, t.out)
    t.send("select * from custo\t")
    t.until("\0", 0.3)
    check("and not the first one's", "customer" not in t.out, t.out)
    t.send("\x15\\q\n")
    check("leaves", t.status() is not None)


EDITOR = """#!/bin/sh
# logs what it was given, then replaces it with $NEWTEXT (or appends $MORE)
cat "$1" >> "$EDLOG"
echo "--" >> "$EDLOG"
if [ -n "$NEWTEXT" ]; then printf '%s\\n' "$NEWTEXT" > "$1"; fi
if [ -n "$MORE" ]; then printf '%s\\n' "$MORE" >> "$1"; fi
exit ${EDSTATUS:-0}
"""


def editing(url, env, tmp):
    ed = os.path.join(tmp, "ed.sh")
    with open(ed, "w") as f:
        f.write(EDITOR)
    os.chmod(ed, 0o755)
    log = os.path.join(tmp, "ed.log")
    e = dict(env, EDITOR=ed, EDLOG=log, NEWTEXT="select lname from customer;")
    t = Term([url + "/inp"], e)
    t.until("inp> ")
    t.send("select fname from customer;\n")
    t.until("inp> ")
    t.send("\\e\n")
    check("\\e runs what the editor leaves", t.until("O'Hara") and t.until("inp> "), t.out)
    check("the editor is given the last statement",
          open(log).read() == "select fname from customer\n--\n", open(log).read())
    t.send("\\q\n")
    t.status()

    open(log, "w").close()
    e = dict(env, EDITOR=ed, EDLOG=log, MORE="from customer")
    t = Term([url + "/inp"], e)
    t.until("inp> ")
    t.send("select lname\n")
    t.until("...> ")
    t.send("\\e\n")
    check("\\e on an open statement edits it and runs it (no ';' needed)",
          t.until("O'Hara") and t.until("inp> ") and "...>" not in t.out, t.out)
    check("the editor is given the open statement",
          open(log).read() == "select lname\n--\n", open(log).read())
    t.send("\\q\n")
    t.status()

    open(log, "w").close()
    e = dict(env, EDITOR=ed, EDLOG=log, NEWTEXT="select 'ran' from customer;", EDSTATUS="3")
    t = Term([url + "/inp"], e)
    t.until("inp> ")
    t.send("\\e\n")
    check("an editor failing runs nothing",
          t.until("status 3; nothing is run") and t.until("inp> ") and "ran" not in t.out, t.out)
    t.send("\\q\n")
    t.status()

    open(log, "w").close()
    dbedit = os.path.join(tmp, "dbedit.sh")
    with open(dbedit, "w") as f:
        f.write("#!/bin/sh\necho \"select 'by dbedit' from customer;\" > \"$1\"\n")
    os.chmod(dbedit, 0o755)
    e = dict(env, EDITOR=ed, DBEDIT=dbedit, EDLOG=log, NEWTEXT="select 'by editor' from customer")
    rc, out, err = run([url + "/inp", "-c", "\\e"], e)
    check("DBEDIT wins over EDITOR", "by dbedit" in out and open(log).read() == "", (out, err))


def variables(url, env, tmp):
    db = url + "/inp"
    script = os.path.join(tmp, "vars.sql")
    with open(script, "w") as f:
        f.write("\\set col lname\n"
                "\\set tab customer\n"
                "\\set who 'O''Hara'\n"
                "\\set cond fname = 'Ann' and 1 = 1\n"
                "select :col, ':col', \":col\" from :tab -- :col\n"
                "  where :cond and lname = :'who' { :tab };\n"
                "select customer_num::char(3) from :tab;\n"
                "\\set\n"
                "\\unset col\n"
                "select :col from :tab;\n")
    rc, out, err = run(["-e", db, script], env)
    check(":name substituted outside strings and comments, :'name' quoted",
          "select lname, ':col', \":col\" from customer -- :col\n"
          "  where fname = 'Ann' and 1 = 1 and lname = 'O''Hara' { :tab };" in out
          and "O'Hara          :col       :col" in out, (out, err))
    check(":: is the cast, not a variable", "select customer_num::char(3) from customer;" in out,
          out)
    check("\\set alone lists the variables by name",
          "col = 'lname'\ncond = 'fname = 'Ann' and 1 = 1'\ntab = 'customer'\nwho = 'O'Hara'\n"
          in out, out)
    check("after \\unset, :name stays as typed (and fails)",
          "select :col from customer;" in out and rc == 1, (rc, err))
    rc, out, err = run([db, "-c", "\\set x", "-c", "select 'x' || :'x' || 'y' from customer"], env)
    check("\\set name alone sets it empty", "xy" in out, (out, err))
    rc, out, err = run([db, "-c", "\\set 9-x 1"], env)
    check("a bad name is refused", rc == 1 and "bad arguments" in err, err)


def includes(url, env, tmp):
    db = url + "/inp"
    inner = os.path.join(tmp, "inner.sql")
    middle = os.path.join(tmp, "middle.sql")
    with open(inner, "w") as f:
        f.write("select 'inner one' from customer;\n\nselect nosuch\n  from customer;\n"
                "select 'inner two' from customer;\n")
    with open(middle, "w") as f:
        f.write("\\set tab customer\nselect 'middle' from :tab;\n\\i %s\nselect 'after' from :tab;\n"
                % inner)
    rc, out, err = run([db, "-"], env, "select 'top' from customer;\n\\i %s\nselect 'end' from "
                       "customer;\n" % middle)
    words = [w for w in ("top", "middle", "inner one", "inner two", "after", "end") if w in out]
    check("\\i runs nested files in order, variables shared",
          words == ["top", "middle", "inner one", "inner two", "after", "end"], (out, err))
    check("a failure in a nested file is named by file and line",
          "Failed statement at line 3 of %s: select nosuch ..." % inner in err, err)
    check("and counted in the exit status", rc == 1, rc)
    rc, out, err = run(["-a", db, "-"], env, "\\i %s\nselect 'end' from customer;\n" % middle)
    check("-a stops the including scripts too",
          "inner one" in out and "inner two" not in out and "after" not in out
          and "end" not in out and rc == 1, (rc, out, err))
    rc, out, err = run([db, "-c", "\\i %s" % middle], env)
    check("\\i from -c", "after" in out and rc == 1, (rc, out, err))
    rc, out, err = run([db, "-c", "\\i %s/none.sql" % tmp], env)
    check("a missing file fails", rc == 1 and "cannot open" in err, (rc, err))
    loop = os.path.join(tmp, "loop.sql")
    with open(loop, "w") as f:
        f.write("\\i %s\n" % loop)
    rc, out, err = run([db, loop], env)
    check("a file including itself stops at the nesting limit",
          "nested more than 16 deep" in err and rc == 1, (rc, err))

    t = Term([db], env)
    t.until("inp> ")
    t.send("\\i %s\n" % middle)
    check("\\i at the prompt", t.until("after") and t.until("inp> ") and
          ("line 3 of %s" % inner) in t.out, t.out)
    t.send("\\q\n")
    check("the session went on after it; its failure counts", t.status() == 1)


def main():
    with ptylib.server(IXD, "ixsqlinp.") as (tmp, port, url):
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        inputrc = os.path.join(tmp, "inputrc")
        open(inputrc, "w").close()
        env = {"HOME": home, "PATH": os.environ.get("PATH", ""), "TERM": "dumb",
               "INPUTRC": inputrc, "USER": "informix", "TMPDIR": tmp}
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):  # the sanitizer build's settings
            if k in os.environ:
                env[k] = os.environ[k]
        setup = ["-c", "create database inp2", "-c", "create table other_only (x int)",
                 "-c", "create database inp",
                 "-c", "create table customer (customer_num serial, fname char(15), "
                 "lname char(15))",
                 "-c", "create table orders (order_num serial, order_date date, "
                 "customer_num int)",
                 "-c", "insert into customer (fname, lname) values ('Ann', 'O''Hara')",
                 "-c", "insert into orders (order_num, order_date, customer_num) "
                 "values (7, today, 1)"]
        subprocess.run([IXSQL, url] + setup, check=True, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        completion(url, env)
        editing(url, env, tmp)
        variables(url, env, tmp)
        includes(url, env, tmp)
        left = [n for n in os.listdir(tmp) if n.startswith("ixsql.")]
        check("\\e leaves no temporary files", left == [], left)


main()
sys.exit(check.done())
