#!/usr/bin/env python3
"""check-prefixes.py ROOT: only the API is named ix_/IX_. Every identifier an
internal header (ROOT/src/**/*.h) or a library source names with that prefix
must be declared by ROOT/include/ixdb.h; internal names carry their layer's
prefix (ixb_, ixt_, ixp_, ixc_, ixd_, ixs_, ixsql_). Prints each offender
and exits 1 when there is one."""
import pathlib
import re
import sys

NAME = re.compile(r"\b(?:ix|IX)_[A-Za-z0-9_]*[A-Za-z0-9]\b(?!\.[ch]\b)")


def code(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def main():
    root = pathlib.Path(sys.argv[1])
    api = set(NAME.findall((root / "include" / "ixdb.h").read_text()))
    bad = []
    for f in sorted((root / "src").rglob("*.[ch]")):
        for n in sorted(set(NAME.findall(code(f.read_text(errors="replace")))) - api):
            bad.append(f"{f.relative_to(root)}: {n} is named like the API but ixdb.h does not declare it")
    print("\n".join(bad) if bad else "every ix_ name in src/ is the API's")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
