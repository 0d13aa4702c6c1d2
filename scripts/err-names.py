#!/usr/bin/env python3
"""err-names.py ROOT: rewrites, in place, the bare negative codes in ixd's
error-reporting calls (ixv_seterr, ixs_px_failc, ixv_fn_err,
ixd_sess_send_errcode, ...) and the values of the layers' own error-code
names (IXS_E_X = -206) under ROOT/src/server to the names of
src/server/value/ixv_codes.h, and prints the codes that have no name there
yet (add them to the header and run it again). For a branch made before
the header: run it, review `git diff`, run clang-format on the files."""
import os
import re
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
ROOT = sys.argv[1]
hdr = open(os.path.join(ROOT, 'src/server/value/ixv_codes.h')).read()
sqlname, isamname = {}, {}
for m in re.finditer(r'#define\s+(IXV_(E|ISAM)_\w+)\s+\((-\d+)\)', hdr):
    (sqlname if m.group(2) == 'E' else isamname)[int(m.group(3))] = m.group(1)
# function -> {arg index: 'sql' | 'isam'}
FUNCS = {'ixv_seterr': {1: 'sql', 2: 'isam'}, 'ixs_px_failc': {1: 'sql'}, 'ixv_fn_err': {1: 'sql'},
         'ixd_sess_send_errcode': {1: 'sql', 2: 'isam'}, 'ixd_sess_blobin_fail': {2: 'sql'},
         'row_err': {1: 'sql'}, 'fail': {1: 'sql'}, 'fn_fail': {1: 'sql'}, 'coll_err': {1: 'sql'},
         'each_fail': {1: 'sql'}, 'fail_later': {1: 'sql'}}
call_re = re.compile(r'\b(' + '|'.join(FUNCS) + r')\s*\(')
def split_args(src, i):
    """[(start, end)] of each top-level argument of the call whose '(' ends at i."""
    depth, j, start, out, instr = 1, i, i, [], None
    while j < len(src) and depth:
        c = src[j]
        if instr:
            if c == '\\': j += 1
            elif c == instr: instr = None
        elif c in '"\'': instr = c
        elif c == '(': depth += 1
        elif c == ')':
            depth -= 1
            if not depth: out.append((start, j))
        elif c == ',' and depth == 1: out.append((start, j)); start = j + 1
        j += 1
    return out
missing = set(); n = 0
for d, _, fs in os.walk(os.path.join(ROOT, 'src/server')):
    for f in fs:
        if not f.endswith(('.c', '.h')) or f == 'ixv_codes.h': continue
        p = os.path.join(d, f); src = open(p).read(); edits = []
        for m in call_re.finditer(src):
            ls = src.rfind('\n', 0, m.start()) + 1
            if re.match(r'^\s*(static\s+)?(int|void)\s*\*?\s*$', src[ls:m.start()]): continue
            args = split_args(src, m.end())
            for k, kind in FUNCS[m.group(1)].items():
                if k >= len(args): continue
                a, b = args[k]; v = src[a:b]
                mm = re.fullmatch(r'(\s*)\(?(-\s*\d+)\)?(\s*)', v)
                if not mm: continue
                code = int(mm.group(2).replace(' ', ''))
                name = (sqlname if kind == 'sql' else isamname).get(code)
                if not name: missing.add((kind, code)); continue
                edits.append((a, b, mm.group(1) + name + mm.group(3)))
        # the layers' own names: NAME = -NNN, / #define NAME (-NNN)
        for m in re.finditer(r'^(\s*(?:IXS|TS|IXD|IXV)_(?:E|ISAM)_\w+\s*=\s*)\(?(-\d+)\)?', src, re.M):
            code = int(m.group(2)); nm = re.match(r'\s*(\w+)', m.group(1)).group(1)
            table = isamname if '_ISAM_' in nm else sqlname
            if code in table: edits.append((m.start(2) - (1 if src[m.start(2)-1] == '(' else 0), m.end(0), table[code]))
            else: missing.add(('enum', code))
        for m in re.finditer(r'^(#define\s+(?:IXS|TS|IXD)_(?:E|ISAM)_\w+\s+)(\(-\d+\))', src, re.M):
            code = int(m.group(2).strip('()'))
            nm = m.group(0).split()[1]
            table = isamname if '_ISAM_' in nm else sqlname
            if code in table: edits.append((m.start(2), m.end(2), table[code]))
            else: missing.add(('define', code))
        if not edits: continue
        for a, b, t in sorted(edits, reverse=True):
            src = src[:a] + t + src[b:]
        n += len(edits)
        open(p, 'w').write(src)
print('rewrote', n, 'codes; no name for', sorted(missing))
