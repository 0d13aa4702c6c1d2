#!/usr/bin/env python3
"""scripts/sql-corpus.py on a 5-statement script: what passes, what is
skipped, and that a wrong expectation (rows, error code, a statement that
fails) is counted as a failure. Needs IXD_BIN and IXDB_PYTHONPATH (CTest sets
them, as for python/tests)."""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(ROOT, "scripts", "sql-corpus.py")
SCRIPT = os.path.join(HERE, "sql_corpus_selftest.jsonl")


def run(path):
    cmd = [sys.executable, RUNNER, "--ixd", os.environ.get("IXD_BIN", os.path.join(ROOT, "build", "ixd")),
           "--timeout", "20", "--json", "-", path]
    if os.environ.get("IXDB_PYTHONPATH"):
        cmd[-1:-1] = ["--pythonpath", os.environ["IXDB_PYTHONPATH"]]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError("runner exited %d: %s" % (p.returncode, p.stderr[-2000:]))
    return json.loads(p.stdout), p.stderr


def main():
    passed = failed = 0

    def check(what, ok):
        nonlocal passed, failed
        print("%s: %s" % ("ok" if ok else "FAIL", what))
        passed += ok
        failed += not ok

    doc, text = run(SCRIPT)
    t = doc["totals"]
    check("5 statements: 4 runnable, 1 skipped", t["all"]["runnable"] == 4 and t["all"]["skip"] == 1)
    check("all 4 runnable pass", t["all"]["pass"] == 4)
    check("classes: ddl 1, dml 1, query 2", (t["ddl"]["runnable"], t["dml"]["runnable"],
                                            t["query"]["runnable"]) == (1, 1, 2))
    check("no crash, no hang", doc["crashes"] == 0 and doc["hangs"] == 0)
    check("text report has the per-class table", "query" in text and "100.0%" in text)

    # the same statements with wrong expectations: each must count as a failure
    lines = [json.loads(x) for x in open(SCRIPT)]
    lines[3]["rows"] = [{"n": 8, "s": "seven", "d": "2024-02-29"}]     # rows differ
    lines[4]["code"] = -217                                             # other error code
    lines[2]["rowcount"] = 2                                            # row count differs
    lines.append({"sql": "select nosuchcol from sc_t"})                 # fails, expected ok
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for x in lines:
            f.write(json.dumps(x) + "\n")
    try:
        doc, _ = run(f.name)
    finally:
        os.unlink(f.name)
    t = doc["totals"]["all"]
    check("wrong expectations: 5 runnable, 1 pass", (t["runnable"], t["pass"]) == (5, 1))
    bad = {s["line"]: s for s in doc["statements"] if s["result"] == "fail"}
    check("the failing statement's own SQLCODE is reported", bad.get(5, {}).get("sqlcode") == -206)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
