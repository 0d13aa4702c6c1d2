#!/usr/bin/env python3
"""check-client-private.py ROOT: the client's structs stay private to their files.

docs/architecture.md, "The client's files": struct ix_conn is defined in
src/client/ix_conn_int.h, struct ix_stmt in src/client/ix_stmt_int.h and the
queue of expected replies in src/client/ix_reply_int.h. This check fails
(exit 1, one line per finding) when
  - a statement file includes ix_conn_int.h (it must reach the connection
    through the functions of ix_client_int.h),
  - a connection file includes ix_stmt_int.h (it must reach a statement
    through ixc_stmt_take_fetch, ixc_stmt_op_reply and the like),
  - a file other than ix_reply.c touches the queue's fields (c->pq),
  - a file other than ix_client_int.h and the connection's files uses
    ixc_state / ixc_cstate (the connection's shared part, read through the
    inline accessors only).
Exit 0 when none is found, 2 on a usage error.
"""
import pathlib
import re
import sys

STMT_FILES = ["ix_stmt.c", "ix_bind.c", "ix_column.c", "ix_scroll.c", "ix_batch.c"]
CONN_FILES = ["ix_conn.c", "ix_reply.c", "ix_txn.c", "ix_cluster.c", "ix_dsn.c"]
QUEUE_OWNER = "ix_reply.c"
STATE_USERS = ["ix_client_int.h"]

INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:client/)?([^"]+)"', re.M)
QUEUE_FIELD = re.compile(r"(?:->|\.)pq\b")
STATE_CALL = re.compile(r"\bixc_c?state\s*\(")


COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)


def includes(text):
    return set(INCLUDE.findall(text))


def code_of(text):
    """text without its comments and string literals."""
    return COMMENT_OR_STRING.sub(" ", text)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    client = pathlib.Path(argv[1]) / "src" / "client"
    if not client.is_dir():
        print(f"no {client}", file=sys.stderr)
        return 2
    bad = []
    for path in sorted(client.glob("*.[ch]")):
        name = path.name
        text = path.read_text(encoding="utf-8", errors="replace")
        inc = includes(text)
        code = code_of(text)
        if name in STMT_FILES and "ix_conn_int.h" in inc:
            bad.append(f"{name}: a statement file includes ix_conn_int.h")
        if name in CONN_FILES and "ix_stmt_int.h" in inc:
            bad.append(f"{name}: a connection file includes ix_stmt_int.h")
        if name != QUEUE_OWNER and name != "ix_reply_int.h" and QUEUE_FIELD.search(code):
            bad.append(f"{name}: touches the reply queue's fields (only {QUEUE_OWNER} may)")
        if name not in STATE_USERS and name not in CONN_FILES and STATE_CALL.search(code):
            bad.append(f"{name}: uses ixc_state / ixc_cstate (use the accessors)")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
