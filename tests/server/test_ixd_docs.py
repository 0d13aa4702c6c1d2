#!/usr/bin/env python3
"""ixd's options are the same in its --help, in docs/server.md (the synopsis
and the option table) and in the man page docs/ixd.1: every option one of
them names, the others name too.

usage: test_ixd_docs.py IXD SOURCE_DIR
"""
import re
import subprocess
import sys

IXD, SRC = sys.argv[1], sys.argv[2]
OPT = r"--[a-z][a-z-]*[a-z]"


def from_help():
    out = subprocess.run([IXD, "--help"], capture_output=True, text=True, check=True).stdout
    # option lines: "      --name=VALUE  meaning" or "  -h, --help ..."
    return {m.group(1) for m in re.finditer(r"^\s+(?:-\w, )?(" + OPT + ")", out, re.M)}


def server_md():
    text = open(SRC + "/docs/server.md").read()
    synopsis = text.split("```sh", 1)[1].split("```", 1)[0]
    table = re.findall(r"^\| (`-.*?) \|", text, re.M)
    return (set(re.findall(OPT, synopsis)),
            {o for cell in table for o in re.findall(OPT, cell)})


def man_page():
    text = open(SRC + "/docs/ixd.1").read().replace("\\-", "-")
    names = set()
    for m in re.finditer(r"^\.TP\n\.B[IR]? (.*)$", text, re.M):
        names |= set(re.findall(OPT, m.group(1)))
    return names


failed = 0


def same(what, a, b):
    global failed
    if a == b:
        print("ok - %s" % what)
    else:
        failed += 1
        print("not ok - %s: only in the first %s, only in the second %s"
              % (what, sorted(a - b), sorted(b - a)))


helped = from_help()
synopsis, table = server_md()
same("--help and docs/server.md's option table", helped, table)
same("--help and docs/ixd.1", helped, man_page())
# the synopsis shows every option that takes part in running the server
same("--help and docs/server.md's synopsis", helped - {"--help", "--version"},
     synopsis - {"--help", "--version"})
print("%d passed, %d failed" % (3 - failed, failed))
sys.exit(1 if failed else 0)
