"""The catalogue functions pyodbc reaches through unixODBC and libixodbc
against a real ixd: SQLForeignKeys (both forms), SQLSpecialColumns
(SQL_BEST_ROWID from a primary key or a unique index; SQL_ROWVER),
SQLProcedures and SQLProcedureColumns over SPL routines, and
SQLGetFunctions for the four. Environment: IXD_BIN (the ixd program),
IXODBC_LIB (libixodbc.so). Ends with "N passed, N failed"."""

import ctypes
import ctypes.util
import sys
import unittest

try:
    import pyodbc
except ImportError:
    print("pyodbc not installed (Debian python3-pyodbc): skipped")
    sys.exit(77)

import odbcenv  # noqa: E402
from odbcenv import start, stop  # noqa: E402,F401


# ODBC's numbers pyodbc does not name (sql.h, sqlext.h)
SQL_CASCADE, SQL_NO_ACTION, SQL_NOT_DEFERRABLE = 0, 3, 7
SQL_PT_PROCEDURE, SQL_PT_FUNCTION = 1, 2
SQL_PARAM_INPUT, SQL_RESULT_COL, SQL_RETURN_VALUE = 1, 3, 5
SQL_API = {"SQLForeignKeys": 60, "SQLSpecialColumns": 52, "SQLProcedures": 67,
           "SQLProcedureColumns": 66}

SCHEMA = [
    "CREATE TABLE cust (region CHAR(2) NOT NULL, id INTEGER NOT NULL, name VARCHAR(30), "
    "PRIMARY KEY (region, id) CONSTRAINT cust_pk)",
    "CREATE TABLE ord (ono SERIAL NOT NULL PRIMARY KEY CONSTRAINT ord_pk, creg CHAR(2), cid INTEGER, "
    "FOREIGN KEY (creg, cid) REFERENCES cust CONSTRAINT ord_cust)",
    "CREATE TABLE line (ono INTEGER REFERENCES ord ON DELETE CASCADE CONSTRAINT line_ord, "
    "lno SMALLINT, amount DECIMAL(10,2))",
    "CREATE UNIQUE INDEX line_u ON line (ono, lno)",
    "CREATE TABLE loose (a INTEGER, b VARCHAR(10))",
    "CREATE PROCEDURE touch(a INTEGER, b CHAR(15), w INTERVAL YEAR TO MONTH)\n  LET a = a + 1;\nEND PROCEDURE",
    "CREATE FUNCTION total(o INTEGER, since DATETIME YEAR TO SECOND) RETURNING DECIMAL(12,2);\n"
    "  RETURN 1.5;\nEND FUNCTION",
    "CREATE PROCEDURE pair(n INT) RETURNING INTEGER AS lo, VARCHAR(20) AS hi;\n"
    "  RETURN n, 'x';\nEND PROCEDURE",
]


class Catalogue(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c = pyodbc.connect("DSN=pyt", autocommit=True)
        for sql in SCHEMA:
            c.execute(sql)
        c.close()

    def setUp(self):
        self.c = pyodbc.connect("DSN=pyt", autocommit=True)
        self.cur = self.c.cursor()

    def tearDown(self):
        self.c.close()

    def fk(self, rows):
        return [(r.pktable_name, r.pkcolumn_name, r.fktable_name, r.fkcolumn_name, r.key_seq,
                 r.update_rule, r.delete_rule, r.fk_name, r.pk_name, r.deferrability) for r in rows]

    def test_foreign_keys_of_a_table(self):
        rows = self.fk(self.cur.foreignKeys(foreignTable="ord"))
        na, nd = SQL_NO_ACTION, SQL_NOT_DEFERRABLE
        self.assertEqual(rows, [("cust", "region", "ord", "creg", 1, na, na, "ord_cust", "cust_pk", nd),
                                ("cust", "id", "ord", "cid", 2, na, na, "ord_cust", "cust_pk", nd)])
        rows = self.fk(self.cur.foreignKeys(foreignTable="line"))
        self.assertEqual(rows, [("ord", "ono", "line", "ono", 1, na, SQL_CASCADE, "line_ord",
                                 "ord_pk", nd)])

    def test_foreign_keys_to_a_table(self):
        rows = self.fk(self.cur.foreignKeys(table="ord"))
        self.assertEqual([(r[2], r[3], r[4]) for r in rows], [("line", "ono", 1)])
        rows = self.fk(self.cur.foreignKeys(table="cust"))
        self.assertEqual([(r[2], r[3], r[4]) for r in rows], [("ord", "creg", 1), ("ord", "cid", 2)])
        self.assertEqual(self.fk(self.cur.foreignKeys(table="cust", foreignTable="line")), [])
        self.assertEqual(len(self.fk(self.cur.foreignKeys(table="cust", foreignTable="ord"))), 2)
        self.assertEqual(self.fk(self.cur.foreignKeys(table="loose")), [])
        cols = [d[0] for d in self.cur.foreignKeys(table="cust").description]
        self.assertEqual(cols, ["pktable_cat", "pktable_schem", "pktable_name", "pkcolumn_name",
                                "fktable_cat", "fktable_schem", "fktable_name", "fkcolumn_name",
                                "key_seq", "update_rule", "delete_rule", "fk_name", "pk_name",
                                "deferrability"])

    def test_foreign_keys_needs_a_table(self):
        with self.assertRaises(pyodbc.Error) as e:
            self.cur.foreignKeys()
        self.assertIn("HY009", str(e.exception))

    def test_row_id_columns(self):
        rows = [(r.scope, r.column_name, r.data_type, r.type_name, r.column_size, r.pseudo_column)
                for r in self.cur.rowIdColumns("cust")]
        self.assertEqual(rows, [(pyodbc.SQL_SCOPE_SESSION, "region", pyodbc.SQL_CHAR, "CHAR", 2, 1),
                                (pyodbc.SQL_SCOPE_SESSION, "id", pyodbc.SQL_INTEGER, "INTEGER", 10, 1)])
        # no primary key: the unique index; its columns take NULL
        self.assertEqual([r.column_name for r in self.cur.rowIdColumns("line")], ["ono", "lno"])
        self.assertEqual([r.column_name for r in self.cur.rowIdColumns("line", nullable=False)], [])
        self.assertEqual(list(self.cur.rowIdColumns("loose")), [])
        self.assertEqual(list(self.cur.rowVerColumns("cust")), [])
        cols = [d[0] for d in self.cur.rowIdColumns("cust").description]
        self.assertEqual(cols, ["scope", "column_name", "data_type", "type_name", "column_size",
                                "buffer_length", "decimal_digits", "pseudo_column"])

    def test_procedures(self):
        rows = [(r.procedure_name, r.num_input_params, r.procedure_type)
                for r in self.cur.procedures()]
        self.assertEqual(rows, [("pair", 1, SQL_PT_FUNCTION),
                                ("total", 2, SQL_PT_FUNCTION),
                                ("touch", 3, SQL_PT_PROCEDURE)])
        self.assertEqual([r.procedure_name for r in self.cur.procedures("to%")], ["total", "touch"])
        cols = [d[0] for d in self.cur.procedures().description]
        self.assertEqual(cols, ["procedure_cat", "procedure_schem", "procedure_name",
                                "num_input_params", "num_output_params", "num_result_sets",
                                "remarks", "procedure_type"])

    def test_procedure_columns(self):
        def cols(name):
            return [(r.column_name, r.column_type, r.data_type, r.type_name, r.column_size,
                     r.decimal_digits, r.ordinal_position)
                    for r in self.cur.procedureColumns(name)]
        inp, ret, res = SQL_PARAM_INPUT, SQL_RETURN_VALUE, SQL_RESULT_COL
        self.assertEqual(cols("touch"), [("a", inp, pyodbc.SQL_INTEGER, "INTEGER", 10, 0, 1),
                                         ("b", inp, pyodbc.SQL_CHAR, "CHAR", 15, None, 2),
                                         ("w", inp, pyodbc.SQL_INTERVAL_YEAR_TO_MONTH, "INTERVAL",
                                          7, 0, 3)])
        self.assertEqual(cols("total"),
                         [("o", inp, pyodbc.SQL_INTEGER, "INTEGER", 10, 0, 1),
                          ("since", inp, pyodbc.SQL_TYPE_TIMESTAMP, "DATETIME", 19, 0, 2),
                          ("", ret, pyodbc.SQL_DECIMAL, "DECIMAL", 12, 2, 0)])
        self.assertEqual(cols("pair"), [("n", inp, pyodbc.SQL_INTEGER, "INTEGER", 10, 0, 1),
                                        ("lo", res, pyodbc.SQL_INTEGER, "INTEGER", 10, 0, 1),
                                        ("hi", res, pyodbc.SQL_VARCHAR, "VARCHAR", 20, None, 2)])

    def raw(self):
        """an ODBC 3 connection to pyt through the driver manager, by ctypes
        (for what pyodbc does not call): (libodbc, env, dbc)"""
        odbc = ctypes.CDLL(ctypes.util.find_library("odbc") or "libodbc.so.2")
        env, dbc = ctypes.c_void_p(), ctypes.c_void_p()
        self.assertEqual(odbc.SQLAllocHandle(1, None, ctypes.byref(env)), 0)
        odbc.SQLSetEnvAttr(env, 200, ctypes.c_void_p(3), 0)  # SQL_ATTR_ODBC_VERSION, 3
        self.assertEqual(odbc.SQLAllocHandle(2, env, ctypes.byref(dbc)), 0)
        self.assertIn(odbc.SQLDriverConnect(dbc, None, b"DSN=pyt", -3, None, 0, None, 0), (0, 1))
        self.addCleanup(odbc.SQLFreeHandle, 1, env)
        self.addCleanup(odbc.SQLFreeHandle, 2, dbc)
        self.addCleanup(odbc.SQLDisconnect, dbc)
        return odbc, env, dbc

    def test_get_functions(self):
        odbc, env, dbc = self.raw()
        for name, fid in SQL_API.items():
            ok = ctypes.c_ushort(0)
            self.assertEqual(odbc.SQLGetFunctions(dbc, fid, ctypes.byref(ok)), 0)
            self.assertEqual(ok.value, 1, name)

    def test_procedure_columns_by_pattern(self):
        odbc, env, dbc = self.raw()
        st = ctypes.c_void_p()
        self.assertEqual(odbc.SQLAllocHandle(3, dbc, ctypes.byref(st)), 0)
        self.addCleanup(odbc.SQLFreeHandle, 3, st)
        self.assertEqual(odbc.SQLProcedureColumns(st, None, 0, None, 0, b"p%", -3, b"h%", -3), 0)
        names, buf, ind = [], ctypes.create_string_buffer(64), ctypes.c_long(0)
        while odbc.SQLFetch(st) == 0:
            odbc.SQLGetData(st, 4, 1, buf, 64, ctypes.byref(ind))  # COLUMN_NAME as SQL_C_CHAR
            names.append(buf.value.decode())
        self.assertEqual(names, ["hi"])

def main():
    start()
    try:
        r = unittest.TextTestRunner(verbosity=2).run(
            unittest.defaultTestLoader.loadTestsFromTestCase(Catalogue))
    finally:
        stop()
    failed = len(r.failures) + len(r.errors)
    print("%d passed, %d failed" % (r.testsRun - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
