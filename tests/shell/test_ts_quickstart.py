#!/usr/bin/env python3
"""docs/timeseries.md "Quick start", run as written: every ```sh and ```python
block of the section, in order, in one scratch directory, against a real
ixd (only port=9088 becomes the test server's port); the ```text block after
a block is its output (standard output and error together, trailing blanks
and blank lines at the ends ignored).

usage: test_ts_quickstart.py IXSQL IXD PYTHONPATH SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

IXSQL, IXD, PYPATH, SRC = [os.path.abspath(a) for a in sys.argv[1:5]]


def blocks():
    text = open(os.path.join(SRC, "docs", "timeseries.md")).read()
    section = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```(\w+)\n(.*?)^```$", section, re.M | re.S)


def norm(out):
    return "\n".join(line.rstrip() for line in out.strip("\n").split("\n")).strip("\n")


def run_block(lang, code, port, work, env, shell_vars):
    """Runs one block; returns (exit status, output)."""
    code = code.replace("port=9088", "port=" + port)
    if lang == "sh":
        shell_vars += re.findall(r"^[A-Z_]+=.*$", code, re.M)  # kept for later blocks
        argv = ["bash", "-ec", "\n".join(shell_vars) + "\n" + code]
        # ixsql of a sanitizer build carries its runtime: not the one preloaded for python
        env = {k: v for k, v in env.items() if k != "LD_PRELOAD"}
    elif lang == "python":
        argv = [sys.executable, "-c", code]
    else:
        raise SystemExit("unknown block kind " + lang)
    r = subprocess.run(argv, cwd=work, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    return r.returncode, r.stdout


def start_ixd(work):
    port_file = os.path.join(work, "port")
    # a sanitizer build preloads its runtime for python; ixd carries its own
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    ixd = subprocess.Popen([IXD, "--data", os.path.join(work, "data"), "--listen",
                            "127.0.0.1:0", "--port-file", port_file],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return ixd, open(port_file).read().strip()
        time.sleep(0.05)
    raise SystemExit("ixd did not start")


def main():
    work = tempfile.mkdtemp(prefix="tsqs.")
    ixd, port = start_ixd(work)
    env = dict(os.environ, PATH=os.path.dirname(IXSQL) + ":" + os.environ["PATH"],
               PYTHONPATH=PYPATH)
    env.pop("IXPASSWORD", None)
    results = []  # (what, ok, detail)
    try:
        shell_vars = []
        runs = blocks()
        if len(runs) < 8:
            results.append(("the section's blocks", False, "%d, fewer than 8" % len(runs)))
        for k, (lang, code) in enumerate(runs):
            if lang == "text":
                continue
            what = "block %d (%s)" % (k + 1, lang)
            status, out = run_block(lang, code, port, work, env, shell_vars)
            results.append((what + " exit status", status == 0, out))
            # the ```text block after it is its output; none: it prints nothing
            want = runs[k + 1][1] if k + 1 < len(runs) and runs[k + 1][0] == "text" else ""
            results.append((what + " output", norm(want) == norm(out),
                            "--- expected\n%s\n--- got\n%s" % (norm(want), norm(out))))
    finally:
        ixd.terminate()
        ixd.wait()
        shutil.rmtree(work, ignore_errors=True)
    for what, ok, detail in results:
        if not ok:
            print("not ok - %s\n%s" % (what, detail))
    failed = sum(1 for r in results if not r[1])
    print("%d passed, %d failed" % (len(results) - failed, failed))
    sys.exit(1 if failed else 0)


main()
