"""pandas with ixdb: read_sql through the SQLAlchemy dialect (an engine)
and through a raw ixdb connection, to_sql through the engine, and a
DataFrame built from Cursor.fetch_arrays. Runs under an interpreter with
Debian's python3-pandas, python3-numpy and python3-sqlalchemy
(ixdextra.py)."""

import datetime as dt
import decimal
import unittest
import warnings

import ixdextra

MISSING = ixdextra.need("pandas", "numpy", "sqlalchemy")
if MISSING:
    ixdextra.skip_all(MISSING)

import ixdtest  # noqa: E402
import ixdb  # noqa: E402
import ixdb.sqlalchemy  # noqa: E402,F401
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import sqlalchemy as sa  # noqa: E402

N = 500


def setUpModule():
    global ENGINE, CONN
    s = ixdtest.server()
    CONN = s.connect(autocommit=True)
    cur = CONN.cursor()
    cur.execute("create table pd_t (id int, name varchar(20), price decimal(8,2), "
                "ratio float, day date, at datetime year to second, ok boolean)")
    cur.executemany("insert into pd_t values (?, ?, ?, ?, ?, ?, ?)", [
        (i, "n%d" % i, decimal.Decimal(i) / 4, i / 8, dt.date(2024, 1, 1) + dt.timedelta(i),
         dt.datetime(2024, 1, 1, 12) + dt.timedelta(minutes=i), i % 2 == 0) for i in range(N)])
    cur.execute("insert into pd_t (id) values (?)", (N,))  # a row of NULLs
    ENGINE = sa.create_engine("informix+ixdb://informix:in4mix@127.0.0.1:%d/pyt?server=ixd"
                              % s.port)


def tearDownModule():
    ENGINE.dispose()
    CONN.close()


class PandasTest(unittest.TestCase):
    def check_frame(self, df):
        self.assertEqual(list(df.columns), ["id", "name", "price", "ratio", "day", "at", "ok"])
        self.assertEqual(len(df), N + 1)
        self.assertEqual(df["id"].sum(), sum(range(N + 1)))
        self.assertEqual(df["name"][7], "n7")
        self.assertEqual(df["price"][8], decimal.Decimal("2.00"))
        self.assertAlmostEqual(df["ratio"][4], 0.5)
        self.assertTrue(pd.isna(df["ratio"][N]))
        self.assertIsNone(df["name"][N])

    def test_read_sql_engine(self):
        df = pd.read_sql("select * from pd_t order by id", ENGINE)
        self.check_frame(df)
        self.assertEqual(str(df["at"].dtype), "datetime64[ns]")
        self.assertEqual(df["at"][1], pd.Timestamp("2024-01-01 12:01:00"))
        # parameters and a Core selectable
        df2 = pd.read_sql(sa.text("select id from pd_t where id < :n order by id"), ENGINE,
                          params={"n": 5})
        self.assertEqual(df2["id"].tolist(), [0, 1, 2, 3, 4])
        t = sa.Table("pd_t", sa.MetaData(), autoload_with=ENGINE)
        df3 = pd.read_sql(sa.select(t.c.id, t.c.name).order_by(t.c.id).limit(3).offset(2),
                          ENGINE)
        self.assertEqual(df3["name"].tolist(), ["n2", "n3", "n4"])
        df4 = pd.read_sql_table("pd_t", ENGINE)
        self.assertEqual(len(df4), N + 1)

    def test_read_sql_raw_connection(self):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "only supports SQLAlchemy ..."
            df = pd.read_sql("select * from pd_t order by id", CONN)
            df2 = pd.read_sql("select id, name from pd_t where id between ? and ? order by id",
                              CONN, params=(10, 12))
        self.check_frame(df)
        self.assertEqual(df2["name"].tolist(), ["n10", "n11", "n12"])
        # docs/python.md "pandas": DECIMAL becomes float64 (pandas' coerce_float=True)
        # unless coerce_float=False keeps the Decimal objects
        self.assertEqual(str(df["price"].dtype), "float64")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            exact = pd.read_sql("select price from pd_t order by id", CONN, coerce_float=False)
        self.assertEqual(str(exact["price"].dtype), "object")
        self.assertIsInstance(exact["price"][8], decimal.Decimal)
        self.assertEqual(str(exact["price"][9]), "2.25")

    def test_to_sql_through_engine(self):
        df = pd.DataFrame({"k": np.arange(200), "v": ["v%d" % i for i in range(200)],
                           "x": np.linspace(0, 1, 200)})
        try:
            df.to_sql("pd_out", ENGINE, index=False)
            back = pd.read_sql("select * from pd_out order by k", ENGINE)
            self.assertEqual(back["k"].tolist(), list(range(200)))
            self.assertEqual(back["v"][199], "v199")
            self.assertAlmostEqual(back["x"][100], df["x"][100])
            df.to_sql("pd_out", ENGINE, index=False, if_exists="append")
            n = pd.read_sql("select count(*) as n from pd_out", ENGINE)["n"][0]
            self.assertEqual(n, 400)
        finally:
            with ENGINE.begin() as c:
                c.exec_driver_sql("drop table pd_out")

    def test_frame_from_fetch_arrays(self):
        cur = CONN.cursor()
        cur.execute("select id, ratio, day, ok from pd_t order by id")
        names = [d[0] for d in cur.description]
        df = pd.DataFrame(dict(zip(names, cur.fetch_arrays())))
        self.assertEqual(len(df), N + 1)
        # the masked NULLs are NaN / NaT in the frame
        self.assertTrue(pd.isna(df["ratio"][N]) and pd.isna(df["day"][N]))
        self.assertEqual(df["day"][3], pd.Timestamp("2024-01-04"))
        cur.execute("select id, ratio from pd_t where id < ? order by id", (N,))
        df2 = pd.DataFrame(dict(zip(["id", "ratio"], cur.fetch_arrays())))
        self.assertEqual(str(df2["id"].dtype), "int64")
        self.assertEqual(df2["id"].sum(), sum(range(N)))


if __name__ == "__main__":
    ixdtest.main()
