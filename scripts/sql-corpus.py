#!/usr/bin/env python3
"""sql-corpus.py: runs scripts of Informix SQL taken from public sources
against a fresh ixd and reports how many of the runnable statements pass.

A script is a JSON-lines file (".jsonl"); each line is one statement:

  {"sql": "...", "params": [...], "expect": "ok" | "error" | "skip",
   "code": -206, "rows": [[...], ...], "ordered": true, "tol": 1e-6,
   "rowcount": 3, "why": "...", "origin": "repo@commit:path", "class": "ddl"}

Only "sql" is required ("expect" defaults to "ok"). "setup": true marks a
statement that only prepares what the source's statements need (run, not
counted). A first line with a
"script" key is the header: {"script": name, "origin": ..., "database":
"none"} ("none": the script creates or opens its own database; otherwise
the runner creates a fresh logged database for it). Lines starting with '#'
are comments. Parameters are JSON values; {"$date": "2015-01-01"},
{"$datetime": "2015-01-01 10:00:00.123"}, {"$decimal": "1.25"} and
{"$bytes": "hex"} give the Python types. "rows" (lists, or dicts keyed by
lower-case column name) are compared after normalising: strings without
trailing blanks, numbers as floats within "tol" (relative), dates and
datetimes as ISO text; in any order unless "ordered" (or the query has an
ORDER BY); "*" in an expected row matches any value; "partial": the source fetched only the first len(rows) rows.

A statement passes when it succeeds (and its rows or row count match) if
expected ok, or fails with the expected SQLCODE ("code", any code if none)
if expected error. "skip" statements are not runnable (needs a real
instance's admin facilities, storage, external routines...) and are not run.
Each statement runs with a time limit: a statement that does not answer in
time is a hang (the ixd is restarted); an ixd that dies is a crash (it is
restarted and the script goes on). Both count as failures.

Usage: sql-corpus.py [--ixd build/ixd] [--pythonpath build/python]
                     [--timeout 20] [--json FILE|-] [--fail-list N] PATH...
PATH is a script file or a directory of them (searched recursively).
Exit status: 0 when it ran (whatever passed), 2 on a usage error.
"""

import argparse
import datetime
import decimal
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASSES = ("ddl", "dml", "query", "spl-create", "spl-exec", "merge", "other")
ixdb = None  # imported in main(), from --pythonpath


# -- the server ---------------------------------------------------------------

class Ixd:
    """An ixd on a free loopback port with its own temporary data directory
    (kept across restarts, so databases survive a crash)."""

    def __init__(self, binary):
        self.bin = binary
        self.dir = tempfile.mkdtemp(prefix="ixdcorpus.")
        self.proc = None
        self.port = 0
        self.start()

    def start(self):
        portfile = os.path.join(self.dir, ".port")
        if os.path.exists(portfile):
            os.unlink(portfile)
        log = open(os.path.join(self.dir, ".ixd.log"), "ab")
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        self.proc = subprocess.Popen(
            [self.bin, "--data", self.dir, "--listen", "127.0.0.1:0", "--port-file", portfile],
            stdout=log, stderr=log, env=env)
        log.close()
        for _ in range(1000):
            try:
                with open(portfile) as f:
                    self.port = int(f.read().strip() or 0)
                if self.port:
                    return
            except (OSError, ValueError):
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("ixd exited with %s" % self.proc.returncode)
            time.sleep(0.01)
        raise RuntimeError("ixd did not start")

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def restart(self):
        self.stop(signal.SIGKILL)
        self.start()

    def close(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def connect(self, database, timeout):
        dsn = "host=127.0.0.1 port=%d user=informix password=in4mix" % self.port
        if database:
            dsn += " database=" + database
        return ixdb.connect(dsn, autocommit=True, read_timeout=timeout, connect_timeout=10)


# -- statements ---------------------------------------------------------------

def strip_comments(sql):
    """The text without leading comments ({...}, --..., /*...*/) and blanks."""
    s = sql.lstrip()
    while True:
        if s.startswith("--"):
            s = s.split("\n", 1)[1].lstrip() if "\n" in s else ""
        elif s.startswith("{"):
            s = s.split("}", 1)[1].lstrip() if "}" in s else ""
        elif s.startswith("/*"):
            s = s.split("*/", 1)[1].lstrip() if "*/" in s else ""
        else:
            return s


def classify(sql):
    """One of CLASSES, from the statement's first words."""
    words = re.findall(r"[A-Za-z_]+", strip_comments(sql)[:200].lower())
    if not words:
        return "other"
    w0 = words[0]
    w1 = words[1] if len(words) > 1 else ""
    w2 = words[2] if len(words) > 2 else ""
    if w0 == "create" and ("procedure" in (w1, w2) or "function" in (w1, w2)):
        if "from" not in words[:4]:
            return "spl-create"
    if w0 == "execute" and w1 in ("procedure", "function") or w0 == "call":
        return "spl-exec"
    if w0 == "merge":
        return "merge"
    if w0 in ("select", "with"):
        return "query"
    if w0 in ("insert", "update", "delete", "load", "unload", "truncate") and \
            not (w0 == "update" and w1 == "statistics"):
        return "dml"
    if w0 in ("create", "drop", "alter", "rename", "grant", "revoke"):
        if w1 == "database" or (w0 == "drop" and w1 == "database"):
            return "other"
        return "ddl"
    return "other"


def param(v):
    if isinstance(v, dict) and len(v) == 1:
        (k, x), = v.items()
        if k == "$date":
            return datetime.date.fromisoformat(x)
        if k == "$datetime":
            return datetime.datetime.fromisoformat(x)
        if k == "$decimal":
            return decimal.Decimal(x)
        if k == "$bytes":
            return bytes.fromhex(x)
    return v


def norm(v):
    """A value in the form rows are compared in."""
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float, decimal.Decimal)):
        return float(v)
    if isinstance(v, datetime.datetime):
        s = v.isoformat(sep=" ")
        return s.rstrip("0").rstrip(".") if "." in s else s
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    s = str(v).rstrip(" ")
    if re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+$", s):
        s = s.rstrip("0").rstrip(".")
    return s


def same(a, b, tol):
    if b == "*":
        return True
    if isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= tol * max(abs(a), abs(b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b or (isinstance(a, float) and a == float(b)) or \
            (isinstance(b, float) and b == float(a))
    if isinstance(b, float) and isinstance(a, str):
        try:
            return same(float(a), b, tol)
        except ValueError:
            return False
    return a == b


def rows_match(got, names, st):
    """None when the fetched rows match st["rows"], else what differs."""
    want = st["rows"]
    tol = st.get("tol", 1e-9)
    names = [n.lower() for n in names]
    g = [[norm(x) for x in r] for r in got]
    w = []
    for r in want:
        if isinstance(r, dict):
            try:
                w.append([norm(r[n]) if n in r else norm(r[n.upper()]) for n in names])
            except KeyError:
                return "expected columns %s, got %s" % (sorted(r), names)
        else:
            w.append([norm(x) for x in r])
    if st.get("partial"):  # the source fetched only the first rows of the cursor
        g = g[:len(w)]
    if len(g) != len(w):
        return "%d rows, expected %d" % (len(g), len(w))

    def row_eq(a, b):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))

    ordered = st.get("partial") or st.get("ordered", re.search(r"\border\s+by\b", st["sql"], re.I) is not None)
    if ordered:
        for i, (a, b) in enumerate(zip(g, w)):
            if not row_eq(a, b):
                return "row %d: %r, expected %r" % (i + 1, a, b)
        return None
    left = list(g)
    for b in w:
        for i, a in enumerate(left):
            if row_eq(a, b):
                del left[i]
                break
        else:
            return "expected row %r not fetched (got %r)" % (b, g[:3])
    return None


# -- running a script ---------------------------------------------------------

class Runner:
    def __init__(self, binary, timeout):
        self.binary = binary
        self.timeout = timeout
        self.srv = Ixd(binary)
        self.serial = 0
        self.crashes = 0
        self.hangs = 0

    def conn(self, db):
        return self.srv.connect(db, self.timeout)

    def lost(self):
        """After a lost connection: 'crash' (ixd died), 'hang' (it is alive but
        did not answer in time; it is restarted), or None."""
        if not self.srv.alive():
            self.crashes += 1
            self.srv.start()
            return "crash"
        self.hangs += 1
        self.srv.restart()
        return "hang"

    def run_script(self, path):
        lines = []
        header = {}
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                obj = json.loads(line)
                if "script" in obj and "sql" not in obj:
                    header = obj
                    continue
                obj["line"] = n
                lines.append(obj)
        name = header.get("script") or os.path.splitext(os.path.basename(path))[0]
        self.serial += 1
        db = None
        if header.get("database") != "none":
            db = "corpus%d" % self.serial
            c0 = self.conn(None)
            c0.cursor().execute("create database %s with log" % db)
            c0.close()
        conn = self.conn(db)
        current_db = db
        made = []  # databases the script created: dropped after it, for the next scripts
        results = []
        for st in lines:
            cls = st.get("class") or classify(st["sql"])
            expect = st.get("expect", "ok")
            r = {"script": name, "line": st["line"], "class": cls, "expect": expect,
                 "code": st.get("code"),
                 "sql": st["sql"], "origin": st.get("origin", header.get("origin", ""))}
            if expect == "skip":
                r["result"] = "skip"
                r["why"] = st.get("why", "")
                results.append(r)
                continue
            if st.get("setup"):
                r["class"] = "setup"
            outcome, code, msg = self.run_one(conn, st)
            if outcome in ("crash", "hang"):
                conn = self.reconnect(current_db)
            elif conn is None or getattr(conn, "closed", False):
                conn = self.reconnect(current_db)
            else:
                m = re.match(r"\s*(database|create\s+database)\s+([A-Za-z_][\w$]*)",
                             strip_comments(st["sql"]), re.I)
                if m and outcome != "error":
                    current_db = m.group(2)
                    if m.group(1).lower() != "database":
                        made.append(current_db)
            r["got"] = outcome
            r["sqlcode"] = code
            r["message"] = msg
            r["result"] = self.judge(st, expect, outcome, code)
            results.append(r)
        try:
            conn.close()
        except Exception:
            pass
        self.drop(made)
        return name, header.get("origin", ""), results

    def drop(self, names):
        """Drops the databases a script created (a later script may create
        the same name)."""
        if not names:
            return
        try:
            c = self.conn(None)
            for n in names:
                try:
                    c.cursor().execute("drop database %s" % n)
                except ixdb.Error:
                    pass
            c.close()
        except Exception:
            pass

    def reconnect(self, db):
        for _ in range(2):
            try:
                return self.conn(db)
            except Exception:
                try:
                    return self.conn(None)
                except Exception:
                    if not self.srv.alive():
                        self.crashes += 1
                        self.srv.start()
        return self.conn(None)

    def run_one(self, conn, st):
        """('ok'|'rows-differ'|'count-differs'|'error'|'crash'|'hang', sqlcode, message)."""
        cur = conn.cursor()
        params = [param(p) for p in st.get("params", [])]
        try:
            if params:
                cur.execute(st["sql"], params)
            else:
                cur.execute(st["sql"])
            got = None
            if cur.description is not None:
                got = cur.fetchall()
            if "rows" in st:
                if got is None:
                    return "rows-differ", 0, "no rows: the statement is not a query"
                why = rows_match(got, [d[0] for d in cur.description], st)
                if why:
                    return "rows-differ", 0, why
            if "rowcount" in st and cur.rowcount != st["rowcount"]:
                return "count-differs", 0, "row count %s, expected %s" % (
                    cur.rowcount, st["rowcount"])
            return "ok", 0, ""
        except ixdb.Error as e:
            code = getattr(e, "sqlcode", None) or 0
            msg = str(e).replace("\n", " ")
            if code == 0 and (getattr(conn, "closed", False) or not self.srv.alive()):
                return self.lost(), 0, msg
            if code == 0 and re.search(r"timed? ?out|timeout|connection", msg, re.I):
                return self.lost(), 0, msg
            return "error", code, msg
        except Exception as e:  # the client could not take the value (a Python limit)
            return "client-error", 0, "%s: %s" % (type(e).__name__, e)
        finally:
            try:
                cur.close()
            except Exception:
                pass

    @staticmethod
    def judge(st, expect, outcome, code):
        if outcome in ("crash", "hang"):
            return outcome
        if expect == "ok":
            return "pass" if outcome == "ok" else "fail"
        want = st.get("code")
        if outcome == "error" and (want is None or want == code):
            return "pass"
        return "fail"

    def close(self):
        self.srv.close()


# -- the report ---------------------------------------------------------------

def tally(results):
    t = {}
    for r in results:
        if r["class"] == "setup":
            continue
        for key in (r["class"], "all"):
            e = t.setdefault(key, {"runnable": 0, "pass": 0, "skip": 0})
            if r["result"] == "skip":
                e["skip"] += 1
            else:
                e["runnable"] += 1
                e["pass"] += r["result"] == "pass"
    return t


def pct(e):
    return 100.0 * e["pass"] / e["runnable"] if e["runnable"] else 0.0


def report(scripts, runner, fail_list, out):
    allres = [r for _, _, res in scripts for r in res]
    t = tally(allres)
    w = out.write
    w("Public SQL corpus: %d scripts, %d statements (%d runnable, %d skipped)\n\n" % (
        len(scripts), len(allres), t["all"]["runnable"], t["all"]["skip"]))
    w("%-12s %9s %7s %8s %6s\n" % ("class", "runnable", "pass", "pass%", "skip"))
    for c in CLASSES + ("all",):
        if c in t:
            e = t[c]
            w("%-12s %9d %7d %7.1f%% %6d\n" % (c, e["runnable"], e["pass"], pct(e), e["skip"]))
    w("\ncrashes: %d   hangs: %d\n\n" % (runner.crashes, runner.hangs))
    w("%-44s %9s %7s %8s\n" % ("script", "runnable", "pass", "pass%"))
    for name, _, res in scripts:
        e = tally(res).get("all", {"runnable": 0, "pass": 0})
        w("%-44s %9d %7d %7.1f%%\n" % (name[:44], e["runnable"], e["pass"], pct(e)))
    setup = [r for r in allres if r["class"] == "setup"]
    bad = [r for r in setup if r["result"] != "pass"]
    if setup:
        w("\nsetup statements (not counted): %d, failing %d\n" % (len(setup), len(bad)))
    fails = [r for r in allres if r["result"] in ("fail", "crash", "hang")]
    w("\nfailing statements: %d\n" % len(fails))
    for r in fails[:fail_list]:
        sql = " ".join(strip_comments(r["sql"]).split())
        want = ""
        if r["expect"] == "error":
            want = " (expected error %s)" % (r["code"] if r["code"] is not None else "")
        w("- %s:%d [%s] %s %s%s: %s\n    %s\n" % (
            r["script"], r["line"], r["class"], r["result"],
            r["sqlcode"] if r["got"] == "error" else r["got"], want,
            (r["message"] or "")[:120], sql[:120]))
    if len(fails) > fail_list:
        w("... %d more (--fail-list)\n" % (len(fails) - fail_list))


def find_scripts(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, files in sorted(os.walk(p)):
                out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".jsonl")]
        else:
            out.append(p)
    return out


def main():
    global ixdb
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--ixd", default=os.path.join(ROOT, "build", "ixd"))
    ap.add_argument("--pythonpath", default=None,
                    help="the built ixdb module's folder (default: beside --ixd, python/)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds a statement may take")
    ap.add_argument("--json", help="write the results as JSON to this file ('-': stdout)")
    ap.add_argument("--fail-list", type=int, default=100000,
                    help="list at most this many failing statements")
    a = ap.parse_args()
    pp = a.pythonpath or os.path.join(os.path.dirname(os.path.abspath(a.ixd)), "python")
    sys.path.insert(0, pp)
    import ixdb as mod
    ixdb = mod
    files = find_scripts(a.paths)
    if not files:
        print("no scripts in %s" % " ".join(a.paths), file=sys.stderr)
        return 2
    runner = Runner(a.ixd, a.timeout)
    scripts = []
    try:
        for f in files:
            scripts.append(runner.run_script(f))
    finally:
        runner.close()
    text_out = sys.stderr if a.json == "-" else sys.stdout
    report(scripts, runner, a.fail_list, text_out)
    if a.json:
        allres = [r for _, _, res in scripts for r in res]
        doc = {"totals": tally(allres), "crashes": runner.crashes, "hangs": runner.hangs,
               "scripts": [{"script": n, "origin": o, "totals": tally(res)}
                           for n, o, res in scripts],
               "statements": allres}
        if a.json == "-":
            json.dump(doc, sys.stdout, indent=1, default=str)
        else:
            with open(a.json, "w") as f:
                json.dump(doc, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
