"""FILETOBLOB / LOTOFILE with the 'client' location from Python: refused
without client_files, a round trip inside the directory, a path outside it
refused with -9810, in the sync and the asyncio module. A server that is not
ixd (ixd --strict) asks in IBM's form, which libixdb refuses (NotSupportedError)."""

import asyncio
import os
import tempfile
import unittest

import ixdtest
from ixdtest import ixdb


class ClientFiles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        with open(os.path.join(self.dir.name, "in.bin"), "wb") as f:
            f.write(b"\x00abc" * 1000)

    @ixdtest.ixd_only("the client-file exchange (SQ_FILE) in ixd's layout")
    def test_refused_by_default(self):
        conn = ixdtest.server().connect(autocommit=True)
        cu = conn.cursor()
        with self.assertRaises(ixdb.DatabaseError) as e:
            cu.execute("select filetoblob('in.bin', 'client') from systables where tabid = 1")
            cu.fetchall()
        self.assertEqual(e.exception.sqlcode, -9810)
        self.assertIn("not enabled", str(e.exception))
        conn.close()

    @ixdtest.ixd_only("the client-file exchange (SQ_FILE) in ixd's layout")
    def test_round_trip(self):
        conn = ixdtest.server().connect(autocommit=True, client_files=self.dir.name)
        cu = conn.cursor()
        cu.execute("create temp table cf (b blob)")
        cu.execute("insert into cf values (filetoblob('in.bin', 'client'))")
        cu.execute("select lotofile(b, 'out.bin!', 'client') from cf")
        self.assertEqual(cu.fetchone()[0], "out.bin")
        with open(os.path.join(self.dir.name, "out.bin"), "rb") as f:
            self.assertEqual(f.read(), b"\x00abc" * 1000)
        with self.assertRaises(ixdb.DatabaseError) as e:
            cu.execute("insert into cf values (filetoblob('../x', 'client'))")
        self.assertEqual(e.exception.sqlcode, -9810)
        cu.execute("select count(*) from cf")
        self.assertEqual(cu.fetchone()[0], 1)
        conn.close()

    @unittest.skipUnless(ixdtest.STRICT, "a server that is not ixd")
    def test_not_ixd(self):
        conn = ixdtest.server().connect(autocommit=True, client_files=self.dir.name)
        cu = conn.cursor()
        with self.assertRaises(ixdb.NotSupportedError) as e:
            cu.execute("select filetoblob('in.bin', 'client') from systables where tabid = 1")
            cu.fetchall()
        self.assertIn("SQ_FILE", str(e.exception))
        conn.close()

    def test_not_a_directory(self):
        with self.assertRaises(ixdb.ProgrammingError):
            ixdtest.server().connect(client_files=os.path.join(self.dir.name, "in.bin"))

    @ixdtest.ixd_only("the client-file exchange (SQ_FILE) in ixd's layout")
    def test_asyncio(self):
        async def run():
            from ixdb import aio
            conn = await aio.connect(ixdtest.server().dsn("pyt"), autocommit=True,
                                     client_files=self.dir.name)
            cu = conn.cursor()
            await cu.execute("select length(filetoblob('in.bin', 'client')) "
                             "from systables where tabid = 1")
            row = await cu.fetchone()
            await conn.close()
            return row[0]
        self.assertEqual(asyncio.run(run()), 4000)


if __name__ == "__main__":
    ixdtest.main()
