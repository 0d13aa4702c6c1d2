#!/usr/bin/env python3
"""Writes the fuzz_server seeds (tests/fuzz/corpus/fuzz_server/seq-*) from
the readable descriptions in SEEDS below.

A fuzz_server input is: byte 0 selects a prefix the target sends first
(bit 0: a valid login and SQ_PROTOCOLS offer, so f62 is granted and SQL
text lengths are i32; bit 1: also SQ_DBOPEN sysmaster), byte 1 is the chunk
size the rest is fed in (0: all at once), then client messages
(docs: /work/shared/docs/sqli-protocol.md, codes in src/proto/ix_msg.h).

A description is one message per line, `NAME args`, with strings quoted:

  COMMAND "sql"               PREPARE nparams "sql"     CURNAME "name"
  ID n                        BIND value...             NFETCH [size]
  SFETCH direction position [size]                     DBOPEN "name" [flags]
  RBWORK [flag]               RET_TYPE type:length...   INFO key=value...
  FETCHBLOB handle|null       LODATA_WRITE fd "data"    LODATA_READ fd length
  LODATA_SEEK fd length offset whence                   GENKEYS [n]
  FILE_STATUS op status       FILE_DATA "data" (the client's SQ_FILE replies)
  BBIND count                 BLOB "data" (a BYTE/TEXT value's chunk; "" ends it)
  SVPOINT "name" [unique]     RELSVPOINT "name"         RBSVPOINT "name"
  GETROUTINE "signature"      EXFP "db" handle arg...   (fast path, 101 / 102)
  and the body-less OPEN EXECUTE CLOSE RELEASE EOT CMMTWORK NDESCRIBE
  SCROLL DBLIST BEGIN DBCLOSE HOLD WANTDONE EXIT AUTOFREE BATCH_START
  BATCH_END.

BIND values: int:5 smallint:1 bigint:7 float:1.5 date:25568 char:"x"
varchar:"x" null:TYPE default:TYPE, and bytedesc:N / textdesc:N, the
56-byte descriptor of an N-byte BYTE / TEXT value whose bytes follow in
SQ_BBIND + SQ_BLOB (src/proto/ix_blob.h).
EXFP arguments: int:5, spec (the 596-byte ifx_lo_spec with its magic),
badspec (without it), blob (a 72-byte zero "blob").

Usage: gen_server_seeds.py [OUTDIR]   (default: the corpus folder)
"""
import os
import shlex
import struct
import sys

SEL_RAW, SEL_LOGIN, SEL_DB = 0, 1, 3  # byte 0: the prefix
SEL_STRICT = 4  # byte 0, bit 2: ixd --strict
CHUNK_ALL = 0  # byte 1: feed the rest at once
FETCH_SIZE = 4096  # NFETCH / SFETCH buffer size
LO_BUFSIZE = 32000  # SQ_LODATA transfer buffer (§3.15)
BLOB_DESC_LEN = 56  # BYTE/TEXT descriptor without f70 (§3.14)
BLOB_HANDLE_AT = 4  # where ixd keeps the blob's handle in it
BLOB_NULL_AT = 39  # bit 0: NULL
BLOB_SIZE_AT = 16  # a bound descriptor's size (i32)
INFO_SUBTYPE = 6
INT_SLOT = 0x0A00  # JDBC's INTEGER bind slot (precision 10 << 8)
LO_READ, LO_READSEEK, LO_WRITE = 0, 1, 2
FILE_READ = 2  # SQ_FILE operations (src/proto/ix_lob.h)
FP_UDT = 44  # a fast-path UDT argument (src/proto/ix_fastpath.h)
LO_SPEC_LEN, LO_SPEC_MAGIC, LOCATOR_LEN = 596, 0xDADAFEED, 72
# ixd's handle of BLOB 1 as SQL names it: "IXLO", kind 10, 0, id 1, zeros
LO1_HEX = (b"IXLO" + struct.pack(">hhq", 10, 0, 1) + bytes(56)).hex()

TAGS = {
    "COMMAND": 1, "PREPARE": 2, "CURNAME": 3, "ID": 4, "BIND": 5, "OPEN": 6,
    "EXECUTE": 7, "NFETCH": 9, "CLOSE": 10, "RELEASE": 11, "EOT": 12,
    "CMMTWORK": 19, "RBWORK": 20, "NDESCRIBE": 22, "SFETCH": 23, "SCROLL": 24,
    "DBLIST": 26, "FILE": 98, "BLOB": 39, "BBIND": 41, "BEGIN": 35, "DBOPEN": 36, "DBCLOSE": 37, "FETCHBLOB": 38,
    "HOLD": 43, "WANTDONE": 49, "EXIT": 56, "INFO": 81, "LODATA": 97,
    "RET_TYPE": 100, "GETROUTINE": 101, "EXFP": 102, "AUTOFREE": 108, "GENKEYS": 134, "SVPOINT": 137,
    "RELSVPOINT": 138, "RBSVPOINT": 139, "BATCH_START": 141, "BATCH_END": 142,
}

TYPES = {"char": 0, "smallint": 1, "int": 2, "float": 3, "decimal": 5,
         "date": 7, "byte": 11, "text": 12, "varchar": 13, "bigint": 52}
DESC_TYPES = {"bytedesc": 11, "textdesc": 12}


def i16(v):
    return struct.pack(">h", v)


def i32(v):
    return struct.pack(">i", v)


def pad(b):
    return b + (b"\0" if len(b) & 1 else b"")


def char(s):
    b = s.encode()
    return i16(len(b)) + pad(b)


def sqltext(s):
    b = s.encode()
    return i32(len(b)) + pad(b)


def bind_value(spec):
    kind, _, val = spec.partition(":")
    if kind in ("null", "default"):
        return i16(TYPES[val]) + i16(-1 if kind == "null" else -2) + i16(0)
    if kind in DESC_TYPES:
        d = bytearray(BLOB_DESC_LEN)
        d[BLOB_SIZE_AT:BLOB_SIZE_AT + 4] = i32(int(val))
        return i16(DESC_TYPES[kind]) + i16(0) + i16(BLOB_DESC_LEN) + bytes(d)
    head = i16(TYPES[kind]) + i16(0)
    fixed = {"smallint": ">h", "int": ">i", "date": ">i", "bigint": ">q", "float": ">d"}
    if kind in fixed:
        num = float(val) if kind == "float" else int(val)
        return head + i16(INT_SLOT if kind == "int" else 0) + struct.pack(fixed[kind], num)
    return head + i16(0) + char(val)  # char, varchar: i16 length, bytes, pad


def ret_type(specs):
    cols = [s.split(":") for s in specs]
    return i16(1) + i16(len(cols)) + b"".join(i16(int(t)) + i32(int(n)) for t, n in cols)


def info(pairs):
    kv = [p.split("=", 1) for p in pairs]
    body = b"".join(char(k) + char(v) for k, v in kv)
    longest = max([0] + [len(pad(x.encode())) for p in kv for x in p])
    return i16(INFO_SUBTYPE) + i16(6 + len(body)) + i16(longest) + i16(longest) + body + \
        i16(0) + i16(0)


def blob_desc(arg):
    d = bytearray(BLOB_DESC_LEN)
    if arg == "null":
        d[BLOB_NULL_AT] = 1
    else:
        d[BLOB_HANDLE_AT:BLOB_HANDLE_AT + 4] = i32(int(arg))
    return bytes(d)


def lodata(op, fd, length, tail=b""):
    return i16(op) + i16(fd) + i32(length) + i16(LO_BUFSIZE) + tail


def fp_udt(name, data):
    """A fast-path UDT value record: type 44, owner "", name, i32 length."""
    pad = b"\0" if len(data) % 2 else b""
    return i16(FP_UDT) + char("") + char(name) + i16(0) + i16(0) + i32(len(data)) + data + pad


def fp_arg(v):
    """One SQ_EXFPROUTINE argument record (see EXFP arguments above)."""
    if v.startswith("int:"):
        return i16(TYPES["int"]) + i16(0) + i16(0) + i32(int(v[4:]))
    if v in ("spec", "badspec"):
        magic = struct.pack(">I", LO_SPEC_MAGIC if v == "spec" else 0)
        return fp_udt("ifx_lo_spec", magic + bytes(LO_SPEC_LEN - 4))
    return fp_udt("blob", bytes(LOCATOR_LEN))


def body(name, a):
    """The bytes after the tag of message `name` with arguments a."""
    n = [int(x) for x in a if x.lstrip("-").isdigit()]
    if name == "COMMAND":
        return i16(0) + sqltext(a[0])
    if name == "PREPARE":
        return i16(n[0]) + sqltext(a[1])
    if name in ("CURNAME", "RELSVPOINT", "RBSVPOINT"):
        return char(a[0])
    if name == "ID":
        return i16(n[0])
    if name == "BIND":
        return i16(len(a)) + b"".join(bind_value(v) for v in a)
    if name == "NFETCH":
        return i32(n[0] if n else FETCH_SIZE) + i16(0)
    if name == "SFETCH":
        return i16(n[0]) + i32(n[1]) + i32(n[2] if len(n) > 2 else FETCH_SIZE)
    if name == "DBOPEN":
        return char(a[0]) + i16(n[0] if n else 0)
    if name == "RBWORK":
        return i16(n[0]) if n else b""
    if name == "RET_TYPE":
        return ret_type(a)
    if name == "INFO":
        return info(a)
    if name == "FETCHBLOB":
        return blob_desc(a[0])
    if name == "LODATA_WRITE":
        data = a[1].encode()
        return lodata(LO_WRITE, n[0], len(data), char(a[1]))
    if name == "LODATA_READ":
        return lodata(LO_READ, n[0], n[1])
    if name == "LODATA_SEEK":
        # the offset: i16 sign, u32 low word, u32 high word (a JDBC long int)
        mag = abs(n[2])
        off = struct.pack(">hII", -1 if n[2] < 0 else 1, mag & 0xFFFFFFFF, mag >> 32)
        return lodata(LO_READSEEK, n[0], n[1], off + i16(n[3]))
    if name == "FILE_STATUS":
        return i16(n[0]) + i32(n[1])
    if name == "FILE_DATA":
        return i16(FILE_READ) + i32(len(a[0].encode())) + char(a[0])
    if name == "BBIND":
        return i16(n[0])
    if name == "BLOB":
        return char(a[0])
    if name == "GENKEYS":
        return i16(n[0] if n else 1)
    if name == "GETROUTINE":
        sig = a[0].encode()
        return b"\0" + i32(len(sig)) + sig + (b"\0" if len(sig) % 2 else b"") + i16(0)
    if name == "EXFP":
        args = a[2:]
        return (char(a[0]) + i32(int(a[1])) + i16(len(args)) + i16(0) + i16(TAGS["BIND"]) +
                i16(len(args)) + b"".join(fp_arg(v) for v in args))
    if name == "SVPOINT":
        return char(a[0]) + i16(n[0] if n else 0)
    return b""


def message(line):
    w = shlex.split(line)
    name, args = w[0], w[1:]
    tag = TAGS[name.split("_")[0] if name.startswith(("LODATA_", "FILE_")) else name]
    return i16(tag) + body(name, args)


def seed_bytes(sel, chunk, text):
    lines = [ln.strip() for ln in text.strip().splitlines()]
    msgs = b"".join(message(ln) for ln in lines if ln and not ln.startswith("#"))
    return bytes([sel, chunk]) + msgs


# Ask for a statement's description and end the group.
DESCRIBE = "NDESCRIBE\nWANTDONE\nEOT"
# Run one statement at once (§3.3).
def command(sql):
    return 'COMMAND "%s"\nNDESCRIBE\nEXECUTE\nRELEASE\nEOT' % sql


BBIND_SEQ = """
        """ + command("CREATE DATABASE fzbb") + """
        DBOPEN "fzbb"
        EOT
        """ + command("CREATE TABLE bb (id INT, b BYTE, t TEXT)") + """
        PREPARE 3 "INSERT INTO bb VALUES (?, ?, ?)"
        """ + DESCRIBE + """
        ID 0
        BIND int:1 bytedesc:3 textdesc:0
        BBIND 2
        BLOB "abc"
        BLOB ""
        BLOB ""
        EXECUTE
        EOT
        ID 0
        BIND int:2 null:byte textdesc:1
        BBIND 1
        BLOB "x"
        BLOB ""
        EXECUTE
        EOT
        ID 0
        BIND int:3 bytedesc:2 null:text
        BBIND 2
        EXECUTE
        EOT
        ID 0
        BIND int:4 bytedesc:2 null:text
        BLOB "ab"
        EXECUTE
        EOT
        ID 0
        BIND int:5 bytedesc:2 null:text
        EXECUTE
        EOT
        BLOB "zz"
        EOT
        PREPARE 0 "SELECT b, t FROM bb"
        """ + DESCRIBE + """
        ID 1
        CURNAME "bb"
        OPEN
        ID 1
        NFETCH
        EOT
        ID 1
        FETCHBLOB 1
        EOT
"""

SEEDS = {
    # §2.7 SQ_INFO, then §2.8 DBOPEN of an unknown and of a known database
    "seq-info-dbopen": (SEL_LOGIN, CHUNK_ALL, """
        INFO DBTEMP=/tmp SUBQCACHESZ=10
        EOT
        DBOPEN "nosuchdb"
        EOT
        DBOPEN "sysmaster"
        EOT
        DBLIST
        EOT
        EXIT
    """),
    # §3.1 PREPARE / DESCRIBE, §3.6 CURNAME / OPEN / NFETCH, CLOSE, RELEASE
    "seq-prepare-fetch": (SEL_DB, CHUNK_ALL, """
        PREPARE 0 "SELECT tabname, tabid, created FROM systables WHERE tabid < 20"
        """ + DESCRIBE + """
        ID 0
        CURNAME "_ifxc0000000000001"
        OPEN
        EOT
        ID 0
        NFETCH 256
        EOT
        ID 0
        NFETCH
        EOT
        ID 0
        CLOSE
        EOT
        ID 0
        RELEASE
        EOT
        EXIT
    """),
    # JDBC's one-group open and fetch, RET_TYPE, a parameter bound at OPEN
    "seq-open-bind-fetch": (SEL_DB, CHUNK_ALL, """
        PREPARE 1 "SELECT tabname, tabid FROM systables WHERE tabid > ?"
        """ + DESCRIBE + """
        ID 0
        CURNAME "c1"
        BIND int:5
        OPEN
        ID 0
        RET_TYPE 13:128 2:4
        NFETCH 0
        EOT
        ID 0
        CLOSE
        EOT
        ID 0
        BIND int:90
        CURNAME "c1"
        OPEN
        ID 0
        NFETCH
        EOT
        ID 0
        RELEASE
        EOT
    """),
    # §3.4 / §3.5 EXECUTE with BIND of every simple type, NULL and DEFAULT
    "seq-execute-bind": (SEL_LOGIN, CHUNK_ALL, """
        """ + command("CREATE DATABASE fzbind WITH LOG") + """
        DBOPEN "fzbind"
        EOT
        """ + command("CREATE TABLE b (s SMALLINT, i INT, g BIGINT, f FLOAT, d DATE, "
                      "c CHAR(4), v VARCHAR(20), n INT DEFAULT 7)") + """
        PREPARE 8 "INSERT INTO b VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        """ + DESCRIBE + """
        ID 0
        BIND smallint:1 int:2 bigint:3 float:1.5 date:25568 char:"ab" varchar:"xyz" int:9
        EXECUTE
        EOT
        ID 0
        BIND null:smallint null:int null:bigint null:float null:date null:char null:varchar default:int
        EXECUTE
        EOT
        ID 0
        BIND int:1
        EXECUTE
        EOT
        ID 0
        RELEASE
        EOT
        PREPARE 1 "UPDATE b SET v = ? WHERE i = 2"
        """ + DESCRIBE + """
        ID 0
        BIND varchar:"updated"
        EXECUTE
        EOT
        """ + command("DELETE FROM b WHERE s IS NULL") + """
        EXIT
    """),
    # §3.12 BEGIN / COMMIT / ROLLBACK messages (both orders), SQL ones, savepoints
    "seq-transactions": (SEL_LOGIN, CHUNK_ALL, """
        """ + command("CREATE DATABASE fztxn WITH LOG") + """
        DBOPEN "fztxn"
        EOT
        """ + command("CREATE TABLE t1 (a INT)") + """
        BEGIN
        EOT
        """ + command("INSERT INTO t1 VALUES (1)") + """
        CMMTWORK
        EOT
        EOT
        BEGIN
        """ + command("INSERT INTO t1 VALUES (2)") + """
        RBWORK 0
        EOT
        BEGIN
        EOT
        SVPOINT "sp1" 0
        EOT
        """ + command("INSERT INTO t1 VALUES (3)") + """
        RBSVPOINT "sp1"
        EOT
        SVPOINT "sp2" 1
        RELSVPOINT "sp2"
        EOT
        RBWORK
        EOT
        CMMTWORK
        EOT
        """ + command("BEGIN WORK") + """
        """ + command("ROLLBACK WORK") + """
        BEGIN
        EOT
        EXIT
    """),
    # §3.13 scroll cursor: SCROLL before OPEN, SFETCH in every direction
    "seq-scroll": (SEL_DB, CHUNK_ALL, """
        PREPARE 0 "SELECT tabid, tabname FROM systables WHERE tabid < 30 ORDER BY tabid"
        """ + DESCRIBE + """
        ID 0
        CURNAME "sc"
        SCROLL
        HOLD
        OPEN
        EOT
        ID 0
        SFETCH 1 0
        EOT
        ID 0
        SFETCH 4 0
        EOT
        ID 0
        SFETCH 6 3
        EOT
        ID 0
        SFETCH 2 0
        EOT
        ID 0
        SFETCH 6 1000
        EOT
        ID 0
        SFETCH 5 -2
        EOT
        ID 0
        SFETCH 3 0 16
        EOT
        ID 0
        CLOSE
        EOT
        ID 0
        RELEASE
        EOT
    """),
    # §3.6 AUTOFREE: the statement goes with its cursor's CLOSE
    "seq-autofree": (SEL_DB, CHUNK_ALL, """
        PREPARE 0 "SELECT FIRST 2 tabname FROM systables"
        """ + DESCRIBE + """
        ID 0
        CURNAME "af"
        AUTOFREE
        OPEN
        ID 0
        NFETCH
        EOT
        ID 0
        CLOSE
        EOT
        ID 0
        NFETCH
        EOT
        ID 0
        RELEASE
        EOT
    """),
    # §3.14 BYTE / TEXT: a row with a TEXT value, FETCHBLOB of it, of a NULL
    # and of a handle that is not there
    "seq-fetchblob": (SEL_LOGIN, CHUNK_ALL, """
        """ + command("CREATE DATABASE fzblob") + """
        DBOPEN "fzblob"
        EOT
        """ + command("CREATE TABLE bl (id INT, tx TEXT, bt BYTE)") + """
        """ + command("INSERT INTO bl VALUES (1, 'some text', NULL)") + """
        PREPARE 0 "SELECT tx, bt FROM bl"
        """ + DESCRIBE + """
        ID 0
        CURNAME "bc"
        OPEN
        ID 0
        NFETCH
        EOT
        ID 0
        FETCHBLOB 1
        ID 0
        FETCHBLOB null
        ID 0
        FETCHBLOB 99
        EOT
        ID 0
        CLOSE
        EOT
        ID 0
        FETCHBLOB 1
        EOT
    """),
    # BYTE / TEXT values after the BIND (src/proto/ix_blob.h): two values
    # and the zero-length one, a NULL item, then a count that differs, a
    # chunk without SQ_BBIND, EXECUTE before the data, a stray chunk; the
    # rows read back
    "seq-bbind": (SEL_LOGIN, CHUNK_ALL, BBIND_SEQ),
    "seq-bbind-strict": (SEL_LOGIN | SEL_STRICT, CHUNK_ALL, BBIND_SEQ),
    # §3.15 smart LOBs: ifx_lo_* routines, SQ_LODATA write, seek, read
    "seq-lodata": (SEL_DB, CHUNK_ALL, """
        PREPARE 0 "SELECT ifx_lo_open(ifx_lo_create('clob'), 8) FROM systables WHERE tabid = 1"
        """ + DESCRIBE + """
        ID 0
        CURNAME "lo"
        OPEN
        ID 0
        NFETCH
        EOT
        LODATA_WRITE 0 "some smart large object data"
        EOT
        LODATA_SEEK 0 10 5 0
        EOT
        LODATA_READ 0 64
        EOT
        LODATA_READ 7 64
        EOT
        PREPARE 0 "SELECT ifx_lo_close(0) FROM systables WHERE tabid = 1"
        """ + DESCRIBE + """
        ID 1
        CURNAME "lc"
        OPEN
        ID 1
        NFETCH
        EOT
        LODATA_READ 0 4
        EOT
    """),
    # fast path: look-ups (one unknown), a create, a write and read on its
    # fd, the close, then calls with a bad spec, an unknown handle, another
    # database
    "seq-fastpath": (SEL_LOGIN, CHUNK_ALL, """
        """ + command("CREATE DATABASE fzfast") + """
        GETROUTINE "function informix.ifx_lo_create( ifx_lo_spec,integer,blob)"
        EOT
        GETROUTINE "function informix.ifx_lo_close(integer)"
        EOT
        GETROUTINE "function informix.nothing(integer)"
        EOT
        EXFP "fzfast" 1 spec int:8 blob
        EOT
        LODATA_WRITE 0 "data through the fast path"
        EOT
        LODATA_SEEK 0 64 0 0
        EOT
        EXFP "fzfast" 3 int:0
        EOT
        EXFP "fzfast" 2 badspec int:8 blob
        EOT
        EXFP "fzfast" 9 int:0
        EOT
        EXFP "other" 3 int:0
        EOT
    """ + command("SELECT ifx_lo_open('%s'::BLOB, 4) FROM sysmaster:sysdual" % LO1_HEX)),
    # client files (FILETOBLOB / LOTOFILE 'client'): the session has no
    # channel to ask the client, then SQ_FILE replies nobody asked for
    "seq-client-files": (SEL_DB, CHUNK_ALL, """
        PREPARE 0 "SELECT filetoblob('in.txt', 'client') FROM systables WHERE tabid = 1"
        """ + DESCRIBE + """
        ID 0
        CURNAME "cf"
        OPEN
        ID 0
        NFETCH
        EOT
        FILE_STATUS 0 0
        EOT
        FILE_DATA "file contents"
        EOT
        FILE_STATUS 4 -3
        EOT
    """),
    # JDBC extras: generated keys, batches, a statement id reused after RELEASE
    "seq-genkeys-batch": (SEL_LOGIN, CHUNK_ALL, """
        """ + command("CREATE DATABASE fzkeys WITH LOG") + """
        DBOPEN "fzkeys"
        EOT
        """ + command("CREATE TABLE k (id SERIAL, v VARCHAR(10))") + """
        PREPARE 1 "INSERT INTO k (v) VALUES (?)"
        GENKEYS 1
        """ + DESCRIBE + """
        BATCH_START
        ID 0
        BIND varchar:"a"
        EXECUTE
        ID 0
        BIND varchar:"b"
        EXECUTE
        BATCH_END
        EOT
        ID 0
        RELEASE
        EOT
        PREPARE 0 "SELECT id, v FROM k"
        """ + DESCRIBE + """
        ID 0
        CURNAME "k"
        OPEN
        ID 0
        NFETCH
        EOT
    """),
    # §2.9 disconnect: DBCLOSE, then a database again, then EXIT with an
    # open transaction (rolled back)
    "seq-dbclose-exit": (SEL_DB, CHUNK_ALL, """
        DBCLOSE
        EOT
        DBOPEN "sysmaster"
        EOT
        BEGIN
        EOT
        DBCLOSE
        EXIT
    """),
    # statements that outlive their database: prepared and opened, then the
    # database closed (and another opened); every later use is -349 / -410
    "seq-stmt-after-dbclose": (SEL_DB, CHUNK_ALL, """
        PREPARE 0 "select tabname from systables"
        NDESCRIBE
        WANTDONE
        EOT
        ID 0
        CURNAME "c1"
        OPEN
        EOT
        DBCLOSE
        EOT
        ID 0
        NFETCH
        EOT
        ID 0
        OPEN
        EOT
        DBOPEN "sysmaster"
        EOT
        ID 0
        EXECUTE
        EOT
        ID 0
        NDESCRIBE
        EOT
        ID 0
        RELEASE
        EOT
    """),
    # messages on statement ids never prepared, and an error mid-group
    "seq-unknown-ids": (SEL_DB, CHUNK_ALL, """
        ID 5
        CURNAME "x"
        OPEN
        EOT
        ID 5
        NFETCH
        EOT
        ID 5
        EXECUTE
        EOT
        ID 7
        CLOSE
        RELEASE
        EOT
        """ + command("SELECT nosuchcolumn FROM systables") + """
        PREPARE 0 "SELECT 1 FROM systables WHERE tabid = 1"
        ID 0
        EXECUTE
        EOT
    """),
    # the same session fed 3 bytes at a time
    "seq-prepare-fetch-chunked": (SEL_DB, 3, """
        PREPARE 0 "SELECT tabname FROM systables WHERE tabid = 1"
        """ + DESCRIBE + """
        ID 0
        CURNAME "ck"
        OPEN
        ID 0
        NFETCH
        EOT
        ID 0
        RELEASE
        EOT
        EXIT
    """),
    # a pipelined batch: ID, BIND, EXECUTE, EOT per row (the session's
    # one-step group, ixp_reader_bind_group), with NULLs, a wrong count, a
    # duplicate key, an unknown id and a cursor's id in between
    "seq-bind-groups": (SEL_DB, CHUNK_ALL, """
        COMMAND "CREATE TEMP TABLE bg (id INT PRIMARY KEY, name VARCHAR(10), v FLOAT, d DATE)"
        EOT
        PREPARE 4 "INSERT INTO bg VALUES (?, ?, ?, ?)"
        EOT
        ID 0
        BIND int:1 varchar:"a" float:1.5 date:25568
        EXECUTE
        EOT
        ID 0
        BIND int:2 null:varchar null:float null:date
        EXECUTE
        EOT
        ID 0
        BIND int:3 varchar:"b"
        EXECUTE
        EOT
        ID 0
        BIND int:1 varchar:"dup" float:2.5 date:1
        EXECUTE
        EOT
        ID 9
        BIND int:4 varchar:"c" float:1 date:2
        EXECUTE
        EOT
        PREPARE 0 "SELECT id, name FROM bg"
        EOT
        ID 1
        BIND int:5 varchar:"d" float:1 date:2
        EXECUTE
        EOT
        ID 0
        BIND smallint:5 varchar:"0123456789abc" float:1 date:2
        EXECUTE
        EOT
        EXIT
    """),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus", "fuzz_server")
    os.makedirs(out, exist_ok=True)
    for name, (sel, chunk, text) in sorted(SEEDS.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(seed_bytes(sel, chunk, text))


if __name__ == "__main__":
    main()
