#!/usr/bin/env python3
"""check-header-names.py HEADER CC: every ix_/IX_ identifier that HEADER's
comments name exists. A C file that uses each one (a function's address, a
constant's value, a type in a declaration, a function-like macro through
#ifdef) is compiled against the header with CC; a name written as a family
("IX_E*", "ix_bind_*") must prefix at least one identifier of the code.
Exits 1 with the names at fault."""
import os
import re
import subprocess
import sys
import tempfile

ID = r"\b((?:IX|ix)_[A-Za-z0-9_]*)"


def main():
    header, cc = sys.argv[1], sys.argv[2]
    src = open(header, encoding="utf-8").read()
    comments = re.findall(r"/\*.*?\*/", src, flags=re.S)
    code = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    code_ids = set(re.findall(ID + r"\b", code))
    named, families = set(), set()
    for c in comments:
        for m in re.finditer(ID + r"(\*?)", c):
            name, star = m.group(1), m.group(2)
            (families if star or name.endswith("_") else named).add(name)
    bad = [f for f in sorted(families) if not any(i.startswith(f) for i in code_ids)]
    fnmacros = set(re.findall(r"#\s*define\s+" + ID + r"\(", code))
    macros = set(re.findall(r"#\s*define\s+" + ID, code))
    types = set(re.findall(r"\}\s*" + ID + r"\s*;", code))
    types |= set(re.findall(r"typedef\s+[^;()]*?\b" + ID + r"\s*;", code))
    types |= set(re.findall(r"\(\s*\*\s*" + ID + r"\s*\)\s*\(", code))  # function types
    funcs = set(re.findall(r"[\w*]\s+\**" + ID + r"\s*\(", code)) - macros
    lines = ['#include "%s"' % os.path.abspath(header), "void use_all(void);",
             "void use_all(void) {"]
    pre = []
    for n in sorted(named):
        if n in fnmacros:
            pre += ["#ifndef %s" % n, '#error "%s"' % n, "#endif"]
        elif n in types:
            lines.append("    { %s *p = 0; (void)p; }" % n)
        else:  # functions, constants, object-like macros
            lines.append("    (void)(%s);" % n)
    lines.append("}")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "names.c")
        with open(path, "w") as f:
            f.write("\n".join(lines[:1] + pre + lines[1:]) + "\n")
        r = subprocess.run([cc, "-std=c17", "-Wall", "-Werror", "-c", path, "-o",
                            os.path.join(d, "names.o")], capture_output=True, text=True)
    for f in bad:
        print(f"no identifier of the family {f}* exists")
    if r.returncode:
        print(r.stderr)
    print(f"{len(named)} names and {len(families)} families checked ({len(funcs)} functions)")
    return 1 if bad or r.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
