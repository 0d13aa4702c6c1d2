#!/usr/bin/env python3
"""check-exports.py HEADER LIB: the dynamic symbols LIB defines are exactly the
functions HEADER declares (comments ignored).
check-exports.py --only NAME LIB: LIB defines NAME and nothing else (the
Python module exports its init function only).
check-exports.py --prefix P LIB: every name LIB defines starts with P (the
ODBC driver exports its SQL* entry points only), and there is one.
Prints the differences and exits 1 when there are any."""
import re
import subprocess
import sys


def declared(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return set(re.findall(r"\b(ix_[a-z0-9_]+)\s*\(", text))


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    # "ADDR T name@@IXDB_0"; the version node itself is an absolute symbol
    return {f[2].split("@")[0] for f in (l.split() for l in out.splitlines())
            if len(f) == 3 and f[1] != "A"}


def main():
    if sys.argv[1] == "--prefix":
        have = exported(sys.argv[3])
        extra = sorted(n for n in have if not n.startswith(sys.argv[2]))
        for n in extra:
            print(f"exported but not expected: {n}")
        print(f"{len(have)} exported, {len(extra)} without the prefix {sys.argv[2]}")
        return 1 if extra or not have else 0
    if sys.argv[1] == "--only":
        want, have = {sys.argv[2]}, exported(sys.argv[3])
    else:
        want, have = declared(sys.argv[1]), exported(sys.argv[2])
    missing, extra = sorted(want - have), sorted(have - want)
    for n in missing:
        print(f"expected but not exported: {n}")
    for n in extra:
        print(f"exported but not expected: {n}")
    print(f"{len(want)} declared, {len(have)} exported")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
