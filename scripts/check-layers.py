#!/usr/bin/env python3
"""check-layers.py ROOT [BUILD]: the layers of docs/architecture.md, checked.

Every source file belongs to one layer (LAYERS below, by path). A layer may
include the headers of the layers it lists, its own and include/ixdb.h
(the one list of status codes and type numbers every layer shares); with BUILD (a CMake
build directory holding the static archives) it may also call only
functions defined in those layers, and every global function or variable it
defines carries its layer's prefix.

What already breaks the rules is listed, one line each, in
scripts/layers-known.txt: the debt that the server's redesign pays off. A
violation that is not listed fails the check (nothing new may go upwards);
a listed line that no longer happens fails it too, so the list only
shrinks (delete the line). Exit 0 when the code and the list agree, 1
otherwise, 2 on a usage error.

ixd reports errors through one channel (docs/architecture.md "One error
channel"): a server file (src/server) that builds the legacy "ixd:<code>"
text, matches SQLite's message (sqlite3_errmsg) with strstr/strcmp outside
the two functions that may (ERRMSG_READERS), passes a bare negative number to
an error-reporting call instead of a name of src/server/value/ixv_codes.h,
or sets an error record's codes by hand instead of through ixv_seterr
(value/ixv_err.c) breaks the rules too ("error" lines).

  --list   print every violation found, in the list's format (to rebuild it)
"""
import pathlib
import re
import subprocess
import sys

# layer: (path prefixes, layers it may use, prefixes of its global symbols)
LAYERS = {
    "base": (["src/base/"], [], ["ixb_"]),
    "types": (["src/types/"], ["base"], ["ixt_"]),
    "proto": (["src/proto/"], ["base", "types"], ["ixp_"]),
    "client": (["src/client/"], ["base", "types", "proto", "api"], ["ixc_", "ix_"]),
    "shell": (["src/shell/"], ["base", "api"], ["ixsql_"]),
    "tools": (["src/tools/"], ["base", "types", "proto", "client", "api"], []),
    "python": (["python/src/"], ["api"], ["PyInit_"]),
    # libixodbc: the ODBC driver, a client of the public API like any other
    "odbc": (["src/odbc/"], ["api"], ["ixo_", "SQL"]),
    # ixd: the session speaks SQLI and calls the engine; the engine runs
    # statements on SQLite and calls the translator, which reaches the
    # engine only through the ixs_host the engine hands it, and TimeSeries,
    # whose routines and catalogue the translator also uses.
    "session": (["src/server/session/"], ["base", "types", "proto", "value", "engine", "api"],
                ["ixd_"]),
    "engine": (
        ["src/server/engine/"],
        ["base", "types", "proto", "value", "translator", "ts", "api"],
        ["ixd_"],
    ),
    "translator": (["src/server/sql/"], ["base", "types", "proto", "value", "ts", "api"], ["ixs_"]),
    "ts": (["src/server/ts/"], ["base", "types", "proto", "value", "api"], ["ixts_"]),
    # ixd's values: the string builder, storage values, conversions
    "value": (["src/server/value/"], ["base", "types", "proto", "api"], ["ixv_"]),
    "api": (["include/"], [], ["ix_"]),
}

# A layer whose structs are its own: the layers above it include only these
# of its headers (the engine's structs are in ixd_int.h, for its files alone).
EXPORTS = {"engine": ["src/server/engine/ixd_engine.h"]}

KNOWN = "scripts/layers-known.txt"
# the static archives of a build and the folders their objects come from
ARCHIVES = {
    "libixcodec.a": ("src/base/", "src/types/", "src/proto/"),
    "libixdserver.a": ("src/server/",),
    "libixdb.a": ("src/client/",),
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    """The layer of a path relative to ROOT: the longest matching prefix."""
    best, best_len = None, -1
    for name, (prefixes, _, _) in LAYERS.items():
        for p in prefixes:
            if rel.startswith(p) and len(p) > best_len:
                best, best_len = name, len(p)
    return best


def sources(root):
    for top in ("src", "python/src", "include"):
        for f in sorted((root / top).rglob("*.[ch]")):
            yield f.relative_to(root).as_posix()


def resolve(root, rel, inc):
    """The file an include names: beside the includer, then from src/, include/."""
    for base in (pathlib.Path(rel).parent, pathlib.Path("src"), pathlib.Path("include")):
        p = (base / inc).as_posix()
        if (root / p).is_file():
            return pathlib.Path(p).as_posix()
    return None


def include_violations(root):
    out = set()
    for rel in sources(root):
        me = layer_of(rel)
        if me is None:
            continue
        allowed = set(LAYERS[me][1]) | {me, "api"}
        text = (root / rel).read_text(errors="replace")
        for inc in INCLUDE.findall(text):
            target = resolve(root, rel, inc)
            if target is None:
                continue
            other = layer_of(target)
            if other is not None and other not in allowed:
                out.add(f"include {rel} {target}")
            elif other != me and other in EXPORTS and target not in EXPORTS[other]:
                out.add(f"include {rel} {target}")
    return out


def archive_symbols(build):
    """{member: (defined globals, undefined)} over the static archives."""
    members = {}
    for lib in ARCHIVES:
        path = pathlib.Path(build) / lib
        if not path.is_file():
            continue
        text = subprocess.run(["nm", "-A", str(path)], check=True, capture_output=True,
                              text=True).stdout
        for line in text.splitlines():
            parts = line.split(":", 2)  # archive:member:value type name
            if len(parts) < 3:
                continue
            f = parts[2].split()
            d, u = members.setdefault((lib, parts[1]), (set(), set()))
            if len(f) == 2 and f[0] == "U":
                u.add(f[1])
            elif len(f) == 3 and f[1] in ("T", "D", "B", "R", "C"):
                d.add(f[2])
    return members


def symbol_violations(root, build):
    members = archive_symbols(build)
    src = {}  # (archive, member) -> source path
    for rel in sources(root):
        for lib, dirs in ARCHIVES.items():
            if rel.startswith(dirs) and (lib, pathlib.Path(rel).name + ".o") in members:
                src[(lib, pathlib.Path(rel).name + ".o")] = rel
    owner = {s: key for key, (d, _) in members.items() for s in d}
    out = set()
    for key, (d, u) in members.items():
        rel = src.get(key)
        me = layer_of(rel) if rel else None
        if me is None:
            continue
        allowed = set(LAYERS[me][1]) | {me, "api"}
        prefixes = LAYERS[me][2] + ["ix_"]  # ix_: the API, checked by check-prefixes.py
        for s in d:
            if not any(s.startswith(p) for p in prefixes):
                out.add(f"prefix {rel} {s}")
        for s in u:
            other_rel = src.get(owner.get(s))
            other = layer_of(other_rel) if other_rel else None
            if other is not None and other not in allowed:
                out.add(f"call {rel} {other_rel} {s}")
    return out


# ---- the one error channel ----------------------------------------------------------
# The functions of a server file that may read SQLite's message text: what
# SQLite says only there (constraint names, "no such table"), and the legacy
# "ixd:" text of view triggers stored in users' files.
ERRMSG_READERS = {("src/server/engine/ixd_sqlerr.c", "sqlite_msg_detail"),
                  ("src/server/engine/ixd_sqlerr.c", "legacy_raise")}
# The file that sets an error record's fields: ixv_seterr and its kin.
ERR_SETTER = "src/server/value/ixv_err.c"
# A call that reports an error: its arguments may not hold a bare negative
# number (an SQLCODE or ISAM code without its name).
ERR_CALL = re.compile(r"\b(?!sqlite3_)(\w*(?:seterr|fail|failc|_err|errcode|recode|raise))\s*\(")
LEGACY_TEXT = re.compile(r'"ixd:(?:%|-?[0-9])')
STR_MATCH = r"\bstr(?:str|n?cmp|casestr|n?casecmp)\s*\(\s*"
BARE_CODE = re.compile(r"(?<![\w.])-\s*[0-9]{2,}\b")


def strip_comments(text):
    """text with comments and the contents of string literals blanked (the
    length and lines kept); LEGACY_TEXT is checked on the original."""
    def blank(m):
        t = m.group(0)
        if t.startswith('"'):
            return '"' + re.sub(r"[^\n]", " ", t[1:-1]) + '"'
        return re.sub(r"[^\n]", " ", t)
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', blank,
                  text, flags=re.S)


def function_at(text, pos):
    """The name of the function whose definition encloses pos (a definition
    starts at column 0), or ''."""
    last = ""
    for m in re.finditer(r"^[A-Za-z_][^\n;]*?\b(\w+)\s*\([^;]*?\)\s*\{", text[:pos], re.M | re.S):
        last = m.group(1)
    return last


def call_args(code, start):
    """The text of the arguments of the call whose '(' ends at start."""
    depth, j = 1, start
    while j < len(code) and depth:
        depth += {"(": 1, ")": -1}.get(code[j], 0)
        j += 1
    return code[start:j - 1]


def error_violations(root):
    out = set()
    for rel in sources(root):
        if not rel.startswith("src/server/"):
            continue
        text = (root / rel).read_text(errors="replace")
        code = strip_comments(text)
        line = lambda pos: text.count("\n", 0, pos) + 1  # noqa: E731
        for m in LEGACY_TEXT.finditer(text):
            if code[m.start()] == '"':  # a literal, not a comment
                out.add(f"error {rel}:{line(m.start())} builds the legacy \"ixd:\" error text")
        # SQLite's message matched as text, directly or through a variable
        msgvars = set(re.findall(r"(\w+)\s*=[^;=]*\bsqlite3_errmsg\s*\(", code))
        pats = [STR_MATCH + r"sqlite3_errmsg\b"] + [STR_MATCH + re.escape(v) + r"\b" for v in msgvars]
        for m in re.finditer("|".join(pats), code):
            if (rel, function_at(code, m.start())) not in ERRMSG_READERS:
                out.add(f"error {rel}:{line(m.start())} matches SQLite's message text")
        for m in ERR_CALL.finditer(code):
            pre = code[code.rfind("\n", 0, m.start()) + 1:m.start()]
            d = re.match(r"^\s*(static\s+)?(const\s+)?(\w+)\s*\*?\s*$", pre)
            if d and d.group(3) not in ("return", "else", "do", "case"):
                continue  # a definition or declaration
            if BARE_CODE.search(call_args(code, m.end())):
                out.add(f"error {rel}:{line(m.start())} bare error code in {m.group(1)}()")
        if rel != ERR_SETTER:
            for m in re.finditer(r"(?:->|\.)(?:sqlcode|isamcode|sqlrc)\s*=(?!=)|"
                                 r"\bixv_err\s+\w+\s*=\s*\{\s*[^0}\s]", code):
                out.add(f"error {rel}:{line(m.start())} sets an error record without ixv_seterr")
    return out


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if not args:
        print(__doc__)
        return 2
    root = pathlib.Path(args[0])
    found = include_violations(root) | error_violations(root)
    if len(args) > 1:
        found |= symbol_violations(root, args[1])
    if "--list" in argv:
        print("\n".join(sorted(found)))
        return 0
    known_path = root / KNOWN
    known = {l.strip() for l in known_path.read_text().splitlines()
             if l.strip() and not l.startswith("#")}
    if len(args) == 1:
        known = {k for k in known if k.startswith(("include ", "error "))}
    new, gone = sorted(found - known), sorted(known - found)
    for v in new:
        print(f"not allowed (docs/architecture.md \"Layers\"): {v}")
    for v in gone:
        print(f"no longer happens, delete it from {KNOWN}: {v}")
    kinds = {k: sum(1 for v in known if v.startswith(k))
             for k in ("include", "call", "prefix", "error")}
    print(f"{len(found)} violations known and found; the list holds "
          f"{kinds['include']} includes, {kinds['call']} calls, {kinds['prefix']} names, "
          f"{kinds['error']} errors")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
