#!/usr/bin/env python3
"""Writes the fuzz_sql_shapes seeds (tests/fuzz/corpus/fuzz_sql_shapes/):
one per statement shape of tests/fuzz/fuzz_sql_shapes.c, at the size each
is meant to reach. The target clamps sizes to IX_SHAPES_MAX_TERMS, so today
they run small and grow with it.

Input: byte 0 the shape, bytes 1-2 the size (big-endian), then the choices.
Usage: gen_shapes_seeds.py [OUTDIR]   (default: the corpus folder)
"""
import os
import struct
import sys

# name: (shape index in shapes[], size, choices)
SEEDS = {
    # nesting: within the parser's depth limit (IXS_MAX_DEPTH) and far past it
    "nest-mixed": (0, 2000, bytes(range(12))),
    "nest-mixed-6": (0, 6, bytes(range(12))),
    "nest-parens": (1, 5000, b"\0"),
    "nest-parens-12": (1, 12, b"\0"),
    "nest-calls": (2, 3000, b"\0\1\2"),
    "nest-calls-10": (2, 10, b"\0\1\2"),
    "nest-subqueries": (3, 1000, b"\0\1"),
    "nest-subqueries-3": (3, 3, b"\0\1"),
    "nest-cases": (4, 2000, b"\0\1"),
    "nest-cases-10": (4, 10, b"\0\1"),
    "chain-arith": (5, 2500, b"\0\1"),  # select 1+1+...: today's stack overflow
    "chain-arith-mixed": (5, 20000, bytes(range(8))),
    "chain-logic": (6, 10000, bytes(range(10))),
    "chain-concat": (7, 10000, b"\0\1"),
    "in-list": (8, 30000, b"\0\7\3"),
    "not-in-list": (8, 30000, b"\1\2"),
    "case-arms": (9, 10000, b"\1\3\4"),
    "case-searched-arms": (9, 10000, b"\0\2"),
    "many-columns": (10, 10000, bytes(range(7))),
    "union-arms": (11, 2000, b"\0\1"),
    "long-ident": (12, 100, b"abc"),  # past IXS_NAME_MAX
    "long-ident-15": (12, 15, b"abc"),
    "long-string": (13, 1000, b"\0xyz"),
    "long-number": (13, 200, b"\1\7"),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus", "fuzz_sql_shapes")
    os.makedirs(out, exist_ok=True)
    for name, (shape, size, choices) in sorted(SEEDS.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes([shape]) + struct.pack(">H", size) + choices)


if __name__ == "__main__":
    main()
