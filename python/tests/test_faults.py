"""A COMMIT that fails on the server for lack of space (ixd under a real
file-size limit, set with prlimit) ends the transaction there: the module
must follow, so that in_transaction is right, the next statement begins a
new transaction, and what the application then rolls back is gone."""

import resource
import unittest

import ixdtest
from ixdtest import ixdb


def limit_files(pid, nbytes):
    _, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (nbytes, hard))


class FullDisk(unittest.TestCase):
    def test_failed_commit(self):
        srv = ixdtest.server()
        c = srv.connect(autocommit=True)
        cu = c.cursor()
        cu.execute("create table big (i integer, pad char(200))")
        cu.execute("create table after (i integer)")
        c.autocommit = False
        cu.executemany("insert into big values (?, ?)", [(i, "x" * 200) for i in range(3000)])
        self.assertTrue(c.in_transaction)
        limit_files(srv.proc.pid, 64 * 1024)
        try:
            with self.assertRaises(ixdb.DatabaseError) as cm:
                c.commit()
            self.assertLess(cm.exception.sqlcode, 0)
        finally:
            limit_files(srv.proc.pid, resource.RLIM_INFINITY)
        self.assertFalse(c.in_transaction, "the server ended the transaction")
        cu.execute("insert into after values (1)")
        self.assertTrue(c.in_transaction, "a new transaction began")
        c.rollback()
        c.autocommit = True
        cu.execute("select count(*) from after")
        self.assertEqual(cu.fetchone()[0], 0, "what was rolled back is gone")
        cu.execute("select count(*) from big")
        self.assertEqual(cu.fetchone()[0], 0)
        cu.execute("insert into after values (2)")
        cu.execute("select count(*) from after")
        self.assertEqual(cu.fetchone()[0], 1, "writes resume")
        c.close()


if __name__ == "__main__":
    ixdtest.main()
