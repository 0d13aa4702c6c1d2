"""The statement cache is on in Python (libixdb's ix_set_stmt_cache): the
same text runs again without a new PREPARE, and DDL on the connection makes a
kept statement be prepared and described anew."""

import unittest

import ixdtest


class StmtCache(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = ixdtest.server().connect(autocommit=True)

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()

    def test_on(self):
        self.assertEqual(self.conn.stmt_cache, 32)

    def test_reuse_and_ddl(self):
        cu = self.conn.cursor()
        cu.execute("drop table if exists sc")
        cu.execute("create table sc (a int, b int)")
        cu.execute("insert into sc values (1, 2)")
        for _ in range(50):  # kept prepared: the same rows every time
            cu.execute("select * from sc where a = ?", (1,))
            self.assertEqual(cu.fetchall(), [(1, 2)])
        cu.execute("alter table sc add c int")
        cu.execute("select * from sc where a = ?", (1,))
        self.assertEqual([d[0] for d in cu.description], ["a", "b", "c"])
        self.assertEqual(cu.fetchall(), [(1, 2, None)])


if __name__ == "__main__":
    ixdtest.main()
