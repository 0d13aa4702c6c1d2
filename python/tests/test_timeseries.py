"""ixdb.timeseries against a real ixd: the Writer (flush at N and at the
byte limit, several keys, counts, a refused batch row naming its key,
dup="error", the context manager), read (tuples of datetime and numbers),
read_json_pages / read_json (pages together == the window), and writes
rolled back with the transaction."""

import datetime as dt
import json
import math
import unittest

import ixdtest
from ixdtest import ixdb
from ixdb import timeseries as ts

T0 = dt.datetime(2026, 1, 1)
MIN = dt.timedelta(minutes=1)


class TimeSeries(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        srv = ixdtest.server()
        c = srv.connect(autocommit=True)
        cu = c.cursor()
        cu.execute("create row type pyreading_t (ts datetime year to fraction(5), m1 float, "
                   "m2 float, m3 float)")
        cu.execute("create table pymeters (id int primary key, readings timeseries(pyreading_t))")
        for k in range(1, 12):
            cu.execute("execute function oni_ts_create('pymeters', 'readings', ?, "
                       "'2026-01-01 00:00', '1 minute')", (k,))
            assert cu.fetchall() == [(1,)]
        c.close()

    def setUp(self):
        self.conn = ixdtest.server().connect(autocommit=True)

    def tearDown(self):
        self.conn.close()

    def count(self, key, start=None, end=None):
        return sum(1 for _ in ts.read(self.conn, "pymeters", "readings", key, start, end))

    def test_flush_at_n(self):
        w = ts.Writer(self.conn, "pymeters", "readings", flush=10)
        for i in range(9):
            w.write(1, T0 + i * MIN, i, 2 * i, 3 * i)
            w.write(2, T0 + i * MIN, i, None, None)
            if i < 4:
                w.write(3, T0 + i * MIN, i, None, None)
        self.assertEqual((w.written, w.pending), (0, 22))
        self.assertEqual(self.count(1), 0)
        w.write(1, T0 + 9 * MIN, 9, 18, 27)  # key 1 full: goes with key 2 (half full)
        self.assertEqual((w.written, w.pending), (19, 4))
        self.assertEqual([self.count(k) for k in (1, 2, 3)], [10, 9, 0])
        w.flush()
        self.assertEqual((w.written, w.pending), (23, 0))
        self.assertEqual(self.count(3), 4)
        w.close()

    def test_flush_at_bytes(self):
        with ts.Writer(self.conn, "pymeters", "readings", flush=100000) as w:
            total = 0
            for i in range(962):  # 33-byte lines: 962 * 34 - 1 = 32707 bytes
                line = ts.element_text(T0 + i * MIN, 1000000000 + i, None, None)
                self.assertEqual(len(line), 33)
                w.write_text(4, line)
                total += len(line) + (1 if i else 0)
            line = ts.element_text(T0 + 962 * MIN, 10000000, None, None)  # 31 bytes
            total += len(line) + 1
            self.assertEqual(total, ts.MAX_TEXT)
            w.write_text(4, line)
            self.assertEqual((w.written, w.pending), (0, 963))
            w.write(4, T0 + 963 * MIN, 1, None, None)
            self.assertEqual((w.written, w.pending), (963, 1))
            self.assertEqual(self.count(4), 963)
        self.assertEqual(self.count(4), 964)
        w = ts.Writer(self.conn, "pymeters", "readings")
        with self.assertRaises(ixdb.DataError):
            w.write_text(4, "2026-01-02 00:00|" + "1" * ts.MAX_TEXT)
        with self.assertRaises(TypeError):
            w.write(4, T0, "text")
        with self.assertRaises(ValueError):
            ts.Writer(self.conn, "pymeters", "readings", flush=0)
        w.close()

    def test_write_text_fast_path(self):
        """write_text's one-call path leaves the writer as _add (the
        general path) does after every element: buffers, counts, what was
        sent; at flush N on two keys, at the byte limit, then with
        non-ASCII and newline text."""
        small = []
        for i in range(40):
            small.append((10, ts.element_text(T0 + i * MIN, i, 2 * i, None)))
            small.append((11, ts.element_text(T0 + i * MIN, i + 0.5, 1, 2)))
        big = [(10, ts.element_text(T0 + (100 + i) * MIN, 1000000000 + i, None, None))
               for i in range(1000)]  # 33 bytes: a send at the byte limit
        bad = [(11, "2026-01-01 05:00|1|2|\u00e9"), (11, "2026-01-01 05:01|1\n2026-01-01 05:02|2")]
        traces = []
        for fast in (True, False):
            trace = []
            for flush, lines in ((7, small), (100000, big), (7, bad)):
                w = ts.Writer(self.conn, "pymeters", "readings", flush=flush)
                for j, (key, line) in enumerate(lines):
                    try:
                        (w.write_text if fast else w._add)(key, line)
                        outcome = None
                    except ixdb.Error as e:
                        outcome = type(e).__name__
                    bufs = sorted((k, len(b[0]), b[1], b[0][-1:]) for k, b in w._bufs.items())
                    trace.append((outcome, w.written, w.pending, bufs))
                try:
                    w.close()
                except ixdb.Error as e:
                    trace.append(type(e).__name__)
                trace.append((w.written, w.pending))
            trace.append((self.count(10), self.count(11)))
            traces.append(trace)
            for k in (10, 11):
                self.conn.cursor().execute(
                    "execute function oni_ts_delete('pymeters', 'readings', ?, NULL, NULL)", (k,))
        self.assertEqual(traces[0][-1], (1040, 40))
        self.assertEqual(traces[0], traces[1])

    def test_refused_row(self):
        w = ts.Writer(self.conn, "pymeters", "readings", flush=50)
        d = dt.datetime(2026, 1, 3)
        w.write(6, d, 1, 2, 3)
        w.write(6, d + MIN, 1, 2, 3)
        w.write_text(6, "2026-01-03 00:02|1|zz|3")
        w.write(7, d, 1, 2, 3)
        with self.assertRaises(ixdb.DatabaseError) as cm:
            w.flush()
        self.assertEqual(cm.exception.sqlcode, -746)
        self.assertEqual(cm.exception.key, 6)
        self.assertEqual(self.count(6, d, d + 100 * MIN), 0)
        self.assertEqual(self.count(7, d, d + 100 * MIN), 1)
        self.assertEqual(w.written, 1)
        with self.assertRaises(ixdb.DatabaseError):
            w.write(7, d + MIN, 1, 2, 3)
        with ts.Writer(self.conn, "pymeters", "readings", dup="error") as w:
            w.write(7, d, 9, 9, 9)
            with self.assertRaises(ixdb.IntegrityError) as cm:
                w.flush()
            self.assertEqual(cm.exception.sqlcode, -268)
            self.assertEqual(cm.exception.key, 7)

    def test_values_and_read(self):
        d = dt.datetime(2026, 1, 4)
        vals = [0.1, -2.0, 20.01, 1e300, -1e-300, 1 / 3, 5e-324, -0.0, 1e21, None]
        with ts.Writer(self.conn, "pymeters", "readings") as w:
            w.write_many(8, [(d + i * MIN, v, i, None) for i, v in enumerate(vals)])
            w.write(8, d + 20 * MIN, math.nan, math.inf, -math.inf)
        rows = list(ts.read(self.conn, "pymeters", "readings", 8, d, d + dt.timedelta(days=1)))
        self.assertEqual(len(rows), len(vals) + 1)
        for i, v in enumerate(vals):
            self.assertEqual(rows[i][0], d + i * MIN)
            self.assertEqual(rows[i][1:], (v, float(i), None))
            if v is not None:
                self.assertEqual(math.copysign(1, rows[i][1]), math.copysign(1, v))
        last = rows[-1]  # (NaN: ixd's row reads give None; JSON keeps it)
        self.assertEqual(last[2:], (math.inf, -math.inf))
        cols = ts.read_json(self.conn, "pymeters", "readings", 8, d + 20 * MIN, d + 20 * MIN)
        self.assertTrue(math.isnan(cols["m1"][0]))
        self.assertEqual((cols["m2"], cols["m3"]), ([math.inf], [-math.inf]))
        self.assertEqual(ts.element_text(dt.datetime(2026, 1, 1, 0, 0, 0, 120), 1.5),
                         "2026-01-01 00:00:00.00012|1.5")
        self.assertEqual(ts.element_text(dt.datetime(2026, 1, 1, 0, 0, 0, 123456), None, 2),
                         "2026-01-01 00:00:00.123456||2")
        self.assertEqual(ts.element_text(dt.datetime(2026, 1, 1), 1, None),
                         "2026-01-01 00:00:00|1||")

    def test_json_pages(self):
        d = dt.datetime(2026, 1, 5)
        n = 3000
        with ts.Writer(self.conn, "pymeters", "readings") as w:
            w.write_many(9, ((d + i * MIN, 20 + i * 0.01, None if i % 5 == 0 else i * 0.5,
                              1000 + i) for i in range(n)))
        pages = list(ts.read_json_pages(self.conn, "pymeters", "readings", 9, d))
        self.assertGreater(len(pages), 1)
        self.assertTrue(all(len(p.encode()) <= ts.MAX_TEXT for p in pages))
        self.assertEqual(sum(json.loads(p)["n"] for p in pages), n)
        small = list(ts.read_json_pages(self.conn, "pymeters", "readings", 9, d, None, "max=4000"))
        self.assertTrue(all(len(p) <= 4000 for p in small))
        self.assertTrue(all(len(p) > 3900 for p in small[:-1]), [len(p) for p in small])
        cols = ts.read_json(self.conn, "pymeters", "readings", 9, d, max_bytes=4000)
        rows = list(ts.read(self.conn, "pymeters", "readings", 9, d))
        self.assertEqual(len(cols["ts"]), n)
        self.assertEqual(cols["ts"], [r[0] for r in rows])
        self.assertEqual(cols["m1"], [r[1] for r in rows])
        self.assertEqual(cols["m2"], [r[2] for r in rows])
        self.assertEqual(cols["m3"], [r[3] for r in rows])
        empty = ts.read_json(self.conn, "pymeters", "readings", 9, "2030-01-01", "2030-01-02")
        self.assertEqual(empty, {"ts": []})

    def test_rollback(self):
        c = ixdtest.server().connect()  # autocommit off: one transaction
        w = ts.Writer(c, "pymeters", "readings", flush=20)
        for i in range(50):
            w.write(5, T0 + i * MIN, i, 1, 1)
        w.close()
        self.assertEqual(sum(1 for _ in ts.read(c, "pymeters", "readings", 5)), 50)
        c.rollback()
        self.assertEqual(sum(1 for _ in ts.read(c, "pymeters", "readings", 5)), 0)
        c.close()


if __name__ == "__main__":
    ixdtest.main()
