#!/usr/bin/env python3
"""User docs speak of the product only: README.md and docs/ name no work
item ("issue 15", "part of issue ..."). Prints each hit; status 1 if any.

usage: check-docs.py SOURCE_DIR
"""
import glob
import os
import re
import sys

root = sys.argv[1]
bad = re.compile(r"\b(issue|ticket) #?\d+|separate part of", re.I)
hits = 0
for path in [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*"))):
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if bad.search(line):
                hits += 1
                print("%s:%d: %s" % (os.path.relpath(path, root), n, line.strip()))
print("%d passed, %d failed" % (0 if hits else 1, hits))
sys.exit(1 if hits else 0)
