"""connect(): IfxPy connection strings, informix-driver's keyword
arguments, wrong options as ProgrammingError naming them; aware datetime
parameters converted to the session's time zone."""

import datetime as dt
import os
import time
import unittest

import ixdtest
from ixdtest import ixdb


def ifx(srv, **over):
    keys = {"SERVER": "ixd", "DATABASE": "pyt", "HOST": "127.0.0.1", "SERVICE": srv.port,
            "UID": "informix", "PWD": "in4mix", "PROTOCOL": "onsoctcp"}
    keys.update(over)
    return ";".join("%s=%s" % kv for kv in keys.items() if kv[1] is not None)


class IfxPyStrings(unittest.TestCase):
    def setUp(self):
        self.srv = ixdtest.server()

    def one(self, conn):
        try:
            cu = conn.cursor()
            cu.execute("select count(*) from systables where tabid = 1")
            return cu.fetchone()[0]
        finally:
            conn.close()

    def test_ifxpy_string(self):
        self.assertEqual(self.one(ixdb.connect(ifx(self.srv))), 1)

    def test_case_insensitive_keys_locales_and_braces(self):
        s = ("server=ixd;Database=pyt;host=127.0.0.1;service=%d;uid=informix;"
             "PWD={in4mix};Protocol=olsoctcp;DB_LOCALE=en_US.utf8;CLIENT_LOCALE=en_US.utf8;"
             % self.srv.port)
        self.assertEqual(self.one(ixdb.connect(s)), 1)

    def test_user_password_positional(self):
        s = ifx(self.srv, UID=None, PWD=None)
        self.assertEqual(self.one(ixdb.connect(s, "informix", "in4mix")), 1)

    def test_unknown_key(self):
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(ifx(self.srv, FROBNICATE="1"))
        self.assertIn("FROBNICATE", str(cm.exception))

    def test_bad_values(self):
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(ifx(self.srv, SERVICE="no-such-service-x"))
        self.assertIn("no-such-service-x", str(cm.exception))
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(ifx(self.srv, PROTOCOL="onipcshm"))
        self.assertIn("onipcshm", str(cm.exception))


class DriverKeywords(unittest.TestCase):
    def setUp(self):
        self.srv = ixdtest.server()

    def test_informix_driver_keywords(self):
        c = ixdb.connect(host="127.0.0.1", port=self.srv.port, user="informix",
                         password="in4mix", database="pyt", server="ixd", autocommit=False,
                         connect_timeout=10.0, read_timeout=30.0, keepalive=True,
                         client_locale="en_US.utf8", env={"DBDATE": "Y4MD-"}, tls=False)
        cu = c.cursor()
        cu.execute("select count(*) from systables where tabid = 1")
        self.assertEqual(cu.fetchone(), (1,))
        self.assertFalse(c.autocommit)
        c.close()

    def test_unknown_keyword_is_programming_error(self):
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(self.srv.dsn("pyt"), frobnicate=1)
        self.assertIn("frobnicate", str(cm.exception))
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(self.srv.dsn("pyt") + " nosuchkey=2")
        self.assertIn("nosuchkey", str(cm.exception))

    def test_wrong_values(self):
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(host="127.0.0.1", port="abc-not-a-service", user="informix")
        self.assertIn("abc-not-a-service", str(cm.exception))
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(self.srv.dsn("pyt"), read_timeout="soon")
        self.assertIn("read_timeout", str(cm.exception))
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(self.srv.dsn("pyt"), tls="yes please")
        self.assertIn("tls", str(cm.exception))
        with self.assertRaises(ixdb.ProgrammingError) as cm:
            ixdb.connect(self.srv.dsn("pyt"), timezone="Mars/Olympus")
        self.assertIn("Mars/Olympus", str(cm.exception))


class AwareDatetimes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c = ixdtest.server().connect(autocommit=True)
        cu = c.cursor()
        try:
            cu.execute("drop table tz_t")
        except ixdb.Error:
            pass
        cu.execute("create table tz_t (k integer, t datetime year to second)")
        c.close()

    def roundtrip(self, conn, value):
        cu = conn.cursor()
        cu.execute("delete from tz_t")
        cu.execute("insert into tz_t values (1, ?)", (value,))
        cu.execute("select t from tz_t where k = 1")
        got = cu.fetchone()[0]
        conn.close()
        return got

    def setUp(self):
        self.srv = ixdtest.server()
        self.plus2 = dt.datetime(2024, 3, 1, 12, 0, 0,
                                 tzinfo=dt.timezone(dt.timedelta(hours=2)))

    def test_naive_unchanged(self):
        naive = dt.datetime(2024, 3, 1, 12, 0, 0)
        self.assertEqual(self.roundtrip(self.srv.connect(autocommit=True), naive), naive)

    def test_explicit_timezone(self):
        c = self.srv.connect(autocommit=True, timezone="UTC")
        self.assertEqual(self.roundtrip(c, self.plus2), dt.datetime(2024, 3, 1, 10, 0, 0))
        c = ixdb.connect(self.srv.dsn("pyt") + " timezone=UTC", autocommit=True)
        self.assertEqual(self.roundtrip(c, self.plus2), dt.datetime(2024, 3, 1, 10, 0, 0))
        c = ixdb.connect(ifx(self.srv, TIMEZONE="Etc/GMT-5"), autocommit=True)  # UTC+5
        self.assertEqual(self.roundtrip(c, self.plus2), dt.datetime(2024, 3, 1, 15, 0, 0))

    def test_local_zone_of_the_process(self):
        old = os.environ.get("TZ")
        os.environ["TZ"] = "UTC-9"  # POSIX: nine hours east of UTC
        time.tzset()
        try:
            c = self.srv.connect(autocommit=True)
            self.assertEqual(self.roundtrip(c, self.plus2), dt.datetime(2024, 3, 1, 19, 0, 0))
        finally:
            if old is None:
                del os.environ["TZ"]
            else:
                os.environ["TZ"] = old
            time.tzset()

    def test_aware_time_refused(self):
        c = self.srv.connect(autocommit=True)
        cu = c.cursor()
        with self.assertRaises(ixdb.DataError):
            cu.execute("select ? from systables where tabid = 1",
                       (dt.time(12, 0, tzinfo=dt.timezone.utc),))
        c.close()


if __name__ == "__main__":
    ixdtest.main()
