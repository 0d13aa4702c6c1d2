"""The SQLAlchemy dialect (ixdb.sqlalchemy, informix+ixdb://) against a
real ixd, Core and ORM: create_all/drop_all with every type, SERIAL and
BIGSERIAL identity, inserts and executemany, limit/offset as SKIP/FIRST,
joins, reflection (MetaData.reflect, inspect), sequences, savepoints,
isolation levels, a unique violation as IntegrityError. Runs under an
interpreter with Debian's python3-sqlalchemy (ixdextra.py)."""

import datetime as dt
import decimal
import unittest

import ixdextra

MISSING = ixdextra.need("sqlalchemy")
if MISSING:
    ixdextra.skip_all(MISSING)

import ixdtest  # noqa: E402
import ixdb  # noqa: E402
import ixdb.sqlalchemy as ixsa  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from sqlalchemy import orm  # noqa: E402


def url(db="pyt", **q):
    s = ixdtest.server()
    u = "informix+ixdb://informix:in4mix@127.0.0.1:%d/%s?server=ixd" % (s.port, db)
    for k, v in q.items():
        u += "&%s=%s" % (k, v)
    return u


def setUpModule():
    global ENGINE
    ENGINE = sa.create_engine(url())


def tearDownModule():
    ENGINE.dispose()


def make_meta():
    md = sa.MetaData()
    users = sa.Table(
        "sa_users", md,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("score", sa.Numeric(10, 2), server_default="0"),
        sa.Column("active", sa.Boolean, nullable=False, server_default=sa.text("'t'")),
    )
    addrs = sa.Table(
        "sa_addrs", md,
        sa.Column("id", sa.BigInteger, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("sa_users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("email", sa.String(80)),
        sa.UniqueConstraint("user_id", "email", name="sa_addrs_ue"),
        sa.Index("sa_addrs_email", "email"),
    )
    types = sa.Table(
        "sa_types", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("small", sa.SmallInteger),
        sa.Column("big", sa.BigInteger),
        sa.Column("flt", sa.Float),
        sa.Column("real", sa.REAL),
        sa.Column("dec", sa.Numeric(12, 4)),
        sa.Column("money", ixsa.MONEY(10, 2)),
        sa.Column("day", sa.Date),
        sa.Column("ts", sa.DateTime),
        sa.Column("dts", ixsa.DATETIME("YEAR", "SECOND")),
        sa.Column("dtm", ixsa.DATETIME("YEAR", "MONTH")),
        sa.Column("tod", sa.Time),
        sa.Column("iv", sa.Interval),
        sa.Column("ivhm", ixsa.INTERVAL("HOUR", "MINUTE", precision=3)),
        sa.Column("s", sa.String(20)),
        sa.Column("ls", sa.String(1000)),
        sa.Column("lv", ixsa.LVARCHAR(500)),
        sa.Column("nv", ixsa.NVARCHAR(30)),
        sa.Column("ch", sa.CHAR(4)),
        sa.Column("flag", sa.Boolean),
        sa.Column("txt", sa.Text),
        sa.Column("blob", sa.LargeBinary),
    )
    return md, users, addrs, types


TYPE_ROW = dict(id=1, small=-3, big=2 ** 50, flt=2.5, real=0.5, dec=decimal.Decimal("-12.3456"),
                money=decimal.Decimal("19.99"), day=dt.date(2024, 2, 29),
                ts=dt.datetime(2023, 5, 6, 7, 8, 9, 123450),
                dts=dt.datetime(2001, 2, 3, 4, 5, 6), dtm=dt.datetime(2020, 7, 1),
                tod=dt.time(13, 14, 15, 160000), iv=dt.timedelta(days=400, seconds=5),
                ivhm=dt.timedelta(hours=100, minutes=5), s="short", ls="x" * 700, lv="lvarchar",
                nv="ñandú", ch="ab  ", flag=True, txt="a long text " * 20, blob=b"\x00\xff" * 9)


class CoreTest(unittest.TestCase):
    def setUp(self):
        self.md, self.users, self.addrs, self.types = make_meta()
        self.md.create_all(ENGINE)

    def tearDown(self):
        self.md.drop_all(ENGINE)
        insp = sa.inspect(ENGINE)
        self.assertNotIn("sa_users", insp.get_table_names())

    def test_ddl_and_types_round_trip(self):
        with ENGINE.begin() as c:
            c.execute(self.types.insert(), TYPE_ROW)
            row = c.execute(sa.select(self.types)).mappings().one()
        self.assertEqual(dict(row), TYPE_ROW)
        ddl = str(sa.schema.CreateTable(self.types).compile(ENGINE))
        for piece in ("DATETIME YEAR TO FRACTION(5)", "DATETIME YEAR TO SECOND",
                      "DATETIME YEAR TO MONTH", "DATETIME HOUR TO FRACTION(5)",
                      "INTERVAL DAY(9) TO FRACTION(5)", "INTERVAL HOUR(3) TO MINUTE",
                      "MONEY(10,2)", "DECIMAL(12,4)", "LVARCHAR(1000)", "LVARCHAR(500)",
                      "BOOLEAN", "TEXT", "BYTE", "SMALLFLOAT", "BIGINT"):
            self.assertIn(piece, ddl)
        ddl = str(sa.schema.CreateTable(self.users).compile(ENGINE))
        self.assertIn("id SERIAL NOT NULL", ddl)
        self.assertIn("BIGSERIAL", str(sa.schema.CreateTable(self.addrs).compile(ENGINE)))

    def test_identity_lastrowid_and_executemany(self):
        with ENGINE.begin() as c:
            r = c.execute(self.users.insert().values(name="ann"))
            uid = r.inserted_primary_key[0]
            self.assertIsInstance(uid, int)
            r2 = c.execute(self.users.insert().values(name="bob"))
            self.assertEqual(r2.inserted_primary_key[0], uid + 1)
            ra = c.execute(self.addrs.insert().values(user_id=uid, email="a@x"))
            self.assertIsInstance(ra.inserted_primary_key[0], int)
            c.execute(self.addrs.insert(), [{"user_id": uid, "email": "e%d@x" % i}
                                             for i in range(50)])
            n = c.execute(sa.select(sa.func.count()).select_from(self.addrs)).scalar()
            self.assertEqual(n, 51)
            # server defaults
            row = c.execute(sa.select(self.users.c.score, self.users.c.active)
                            .where(self.users.c.id == uid)).one()
            self.assertEqual(row, (decimal.Decimal("0"), True))

    def test_limit_offset_and_joins(self):
        with ENGINE.begin() as c:
            c.execute(self.users.insert(), [{"name": "u%02d" % i} for i in range(20)])
            q = sa.select(self.users.c.name).order_by(self.users.c.name)
            self.assertEqual(c.execute(q.limit(3)).scalars().all(), ["u00", "u01", "u02"])
            self.assertEqual(c.execute(q.offset(18)).scalars().all(), ["u18", "u19"])
            self.assertEqual(c.execute(q.limit(2).offset(5)).scalars().all(), ["u05", "u06"])
            sql = str(q.limit(2).offset(5).compile(ENGINE))
            self.assertRegex(sql, r"^SELECT SKIP \? FIRST \? ")
            ids = dict(c.execute(sa.select(self.users.c.name, self.users.c.id)).all())
            c.execute(self.addrs.insert(), [{"user_id": ids["u03"], "email": "three@x"},
                                            {"user_id": ids["u04"], "email": "four@x"}])
            j = self.users.join(self.addrs)
            rows = c.execute(sa.select(self.users.c.name, self.addrs.c.email).select_from(j)
                             .order_by(self.users.c.name)).all()
            self.assertEqual(rows, [("u03", "three@x"), ("u04", "four@x")])
            n = c.execute(sa.select(sa.func.count()).select_from(
                self.users.outerjoin(self.addrs))).scalar()
            self.assertEqual(n, 20)
            self.assertEqual(c.execute(sa.select(sa.literal(5) + 2)).scalar(), 7)
            self.assertTrue(c.execute(sa.select(sa.true())).scalar())

    def test_unique_violation_is_integrity_error(self):
        with ENGINE.begin() as c:
            c.execute(self.users.insert().values(name="dup"))
        with self.assertRaises(sa.exc.IntegrityError) as cm:
            with ENGINE.begin() as c:
                c.execute(self.users.insert().values(name="dup"))
        self.assertIsInstance(cm.exception.orig, ixdb.IntegrityError)
        self.assertEqual(cm.exception.orig.sqlcode, -268)

    def test_reflection(self):
        with ENGINE.begin() as c:
            c.exec_driver_sql("create view sa_v as select id, name from sa_users")
        try:
            insp = sa.inspect(ENGINE)
            self.assertEqual(insp.default_schema_name, "informix")
            names = insp.get_table_names()
            for t in ("sa_users", "sa_addrs", "sa_types"):
                self.assertIn(t, names)
            self.assertEqual(insp.get_view_names(), ["sa_v"])
            self.assertIn("select id, name from sa_users", insp.get_view_definition("sa_v"))
            self.assertTrue(insp.has_table("sa_users") if hasattr(insp, "has_table")
                            else ENGINE.dialect.has_table(ENGINE.connect(), "sa_users"))
            cols = {c["name"]: c for c in insp.get_columns("sa_types")}
            self.assertEqual(list(cols)[:3], ["id", "small", "big"])
            self.assertIsInstance(cols["dts"]["type"], ixsa.DATETIME)
            self.assertEqual((cols["dts"]["type"].start, cols["dts"]["type"].end),
                             ("YEAR", "SECOND"))
            self.assertEqual(cols["ts"]["type"].end, "FRACTION(5)")
            self.assertEqual((cols["ivhm"]["type"].start, cols["ivhm"]["type"].end,
                              cols["ivhm"]["type"].precision), ("HOUR", "MINUTE", 3))
            self.assertEqual((cols["dec"]["type"].precision, cols["dec"]["type"].scale), (12, 4))
            self.assertIsInstance(cols["money"]["type"], ixsa.MONEY)
            self.assertEqual(cols["s"]["type"].length, 20)
            self.assertIsInstance(cols["ls"]["type"], ixsa.LVARCHAR)
            self.assertIsInstance(cols["flag"]["type"], sa.Boolean)
            self.assertIsInstance(cols["txt"]["type"], ixsa.TEXT)
            self.assertIsInstance(cols["blob"]["type"], ixsa.BYTE)
            self.assertFalse(cols["id"]["nullable"])
            self.assertTrue(cols["small"]["nullable"])
            ucols = {c["name"]: c for c in insp.get_columns("sa_users")}
            self.assertTrue(ucols["id"]["autoincrement"])
            self.assertIsInstance(ucols["id"]["type"], ixsa.SERIAL)
            self.assertEqual(ucols["score"]["default"], "0")
            self.assertEqual(ucols["active"]["default"], "'t'")
            pk = insp.get_pk_constraint("sa_addrs")
            self.assertEqual(pk["constrained_columns"], ["id"])
            fks = insp.get_foreign_keys("sa_addrs")
            self.assertEqual(len(fks), 1)
            self.assertEqual((fks[0]["constrained_columns"], fks[0]["referred_table"],
                              fks[0]["referred_columns"], fks[0]["options"]),
                             (["user_id"], "sa_users", ["id"], {"ondelete": "CASCADE"}))
            uqs = insp.get_unique_constraints("sa_addrs")
            self.assertEqual([(u["name"], u["column_names"]) for u in uqs],
                             [("sa_addrs_ue", ["user_id", "email"])])
            self.assertEqual([u["column_names"] for u in insp.get_unique_constraints("sa_users")],
                             [["name"]])
            idx = insp.get_indexes("sa_addrs")
            self.assertEqual([(i["name"], i["column_names"], i["unique"]) for i in idx],
                             [("sa_addrs_email", ["email"], False)])
            with self.assertRaises(sa.exc.NoSuchTableError):
                insp.get_columns("no_such_table")
            # MetaData.reflect builds working tables
            md2 = sa.MetaData()
            md2.reflect(ENGINE, only=["sa_users", "sa_addrs", "sa_types"])
            t = md2.tables["sa_types"]
            with ENGINE.begin() as c:
                c.execute(t.insert(), TYPE_ROW)
                self.assertEqual(dict(c.execute(sa.select(t)).mappings().one()), TYPE_ROW)
            a = md2.tables["sa_addrs"]
            self.assertEqual([fk.target_fullname for fk in a.c.user_id.foreign_keys],
                             ["sa_users.id"])
            # the reflected tables create again (DDL from reflection)
            ddl = str(sa.schema.CreateTable(a).compile(ENGINE))
            self.assertIn("FOREIGN KEY (user_id) REFERENCES sa_users (id) ON DELETE CASCADE",
                          ddl)
        finally:
            with ENGINE.begin() as c:
                c.exec_driver_sql("drop view sa_v")

    def test_savepoints(self):
        with ENGINE.connect() as c:
            with c.begin():
                c.execute(self.users.insert().values(name="kept"))
                sp = c.begin_nested()
                c.execute(self.users.insert().values(name="undone"))
                sp.rollback()
                sp2 = c.begin_nested()
                c.execute(self.users.insert().values(name="released"))
                sp2.commit()
            names = c.execute(sa.select(self.users.c.name).order_by("name")).scalars().all()
        self.assertEqual(names, ["kept", "released"])


class SequenceAndIsolationTest(unittest.TestCase):
    def test_sequence(self):
        md = sa.MetaData()
        seq = sa.Sequence("sa_seq", start=100)
        t = sa.Table("sa_sq", md, sa.Column("id", sa.Integer, seq, primary_key=True),
                     sa.Column("v", sa.String(10)))
        md.create_all(ENGINE)
        try:
            insp = sa.inspect(ENGINE)
            self.assertIn("sa_seq", insp.get_sequence_names())
            self.assertTrue(ENGINE.dialect.has_sequence(ENGINE.connect(), "sa_seq"))
            self.assertIn("id INTEGER NOT NULL", str(sa.schema.CreateTable(t).compile(ENGINE)))
            with ENGINE.begin() as c:
                r = c.execute(t.insert().values(v="a"))
                self.assertEqual(r.inserted_primary_key[0], 100)
                c.execute(t.insert().values(v="b"))
                self.assertEqual(c.execute(seq), 102)
                self.assertEqual(c.execute(sa.select(t.c.id).order_by(t.c.id)).scalars().all(),
                                 [100, 101])
        finally:
            md.drop_all(ENGINE)
        self.assertNotIn("sa_seq", sa.inspect(ENGINE).get_sequence_names())

    def test_isolation_levels(self):
        with ENGINE.connect() as c:
            self.assertEqual(c.get_isolation_level(), "READ COMMITTED")
            for level in ("READ UNCOMMITTED", "REPEATABLE READ", "SERIALIZABLE",
                          "READ COMMITTED"):
                c2 = c.execution_options(isolation_level=level)
                self.assertEqual(c2.get_isolation_level(), level)
                c2.exec_driver_sql("select count(*) from systables").scalar()
        with ENGINE.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            self.assertTrue(c.connection.dbapi_connection.autocommit
                            if hasattr(c.connection, "dbapi_connection")
                            else c.connection.connection.autocommit)
        e2 = sa.create_engine(url(), isolation_level="REPEATABLE READ")
        with e2.connect() as c:
            self.assertEqual(c.get_isolation_level(), "REPEATABLE READ")
        e2.dispose()
        with self.assertRaises(sa.exc.ArgumentError):
            with ENGINE.connect() as c:
                c.execution_options(isolation_level="BOGUS").exec_driver_sql(
                    "select 1 from systables")


class Base(orm.declarative_base()):
    __abstract__ = True


class Author(Base):
    __tablename__ = "orm_author"
    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(50), nullable=False, unique=True)
    born = sa.Column(sa.Date)
    books = orm.relationship("Book", back_populates="author", cascade="all, delete-orphan",
                             order_by="Book.id")


class Book(Base):
    __tablename__ = "orm_book"
    id = sa.Column(sa.BigInteger, primary_key=True)
    author_id = sa.Column(sa.Integer, sa.ForeignKey("orm_author.id"), nullable=False)
    title = sa.Column(sa.String(100), nullable=False)
    price = sa.Column(sa.Numeric(8, 2))
    author = orm.relationship("Author", back_populates="books")


class OrmTest(unittest.TestCase):
    def setUp(self):
        Base.metadata.create_all(ENGINE)

    def tearDown(self):
        Base.metadata.drop_all(ENGINE)

    def test_session(self):
        with orm.Session(ENGINE) as s:
            a = Author(name="Borges", born=dt.date(1899, 8, 24))
            a.books = [Book(title="Ficciones", price=decimal.Decimal("9.50")),
                       Book(title="El Aleph", price=decimal.Decimal("8.25"))]
            s.add(a)
            s.add_all([Author(name="A%02d" % i) for i in range(15)])
            s.commit()
            self.assertIsInstance(a.id, int)
            self.assertTrue(all(isinstance(b.id, int) for b in a.books))
        with orm.Session(ENGINE) as s:
            got = s.query(Author).filter_by(name="Borges").one()
            self.assertEqual([b.title for b in got.books], ["Ficciones", "El Aleph"])
            page = s.query(Author).order_by(Author.name).offset(2).limit(3).all()
            self.assertEqual([x.name for x in page], ["A02", "A03", "A04"])
            rows = s.execute(sa.select(Author.name, Book.title).join(Book.author)
                             .where(Book.price > 9).order_by(Book.title)).all()
            self.assertEqual(rows, [("Borges", "Ficciones")])
            total = s.query(sa.func.sum(Book.price)).scalar()
            self.assertEqual(total, decimal.Decimal("17.75"))
            got.books[0].price = decimal.Decimal("10.00")
            s.delete(got.books[1])
            s.commit()
        with orm.Session(ENGINE) as s:
            self.assertEqual(s.query(Book).count(), 1)
            s.add(Author(name="Borges"))
            with self.assertRaises(sa.exc.IntegrityError):
                s.commit()
            s.rollback()
            s.delete(s.query(Author).filter_by(name="Borges").one())
            s.commit()
            self.assertEqual(s.query(Book).count(), 0, "delete-orphan cascade")


class UrlTest(unittest.TestCase):
    def test_connect_args(self):
        u = sa.engine.make_url("informix+ixdb://u:p%40w@h:9088/shop?server=ixd&read_timeout=5")
        args, kw = ixsa.dialect().create_connect_args(u)
        self.assertEqual(args, [])
        self.assertEqual(kw, {"host": "h", "port": 9088, "database": "shop", "user": "u",
                              "password": "p@w", "server": "ixd", "read_timeout": "5"})

    def test_registered(self):
        from sqlalchemy.dialects import registry
        self.assertIs(registry.load("informix.ixdb"), ixsa.IxdbDialect)
        self.assertEqual(sa.create_engine(url()).dialect.name, "informix")


class DisconnectTest(unittest.TestCase):
    def test_a_lost_session_is_a_disconnect(self):
        d = ENGINE.dialect
        e = ixdb.OperationalError("-213: Statement interrupted by user.")
        e.sqlstate = "HY008"

        class Conn:
            closed = False

        live, dead = Conn(), Conn()
        dead.closed = True
        self.assertFalse(d.is_disconnect(e, live, None))
        self.assertTrue(d.is_disconnect(e, dead, None), "closed: the pool drops it")
        e.sqlstate = "08003"
        self.assertTrue(d.is_disconnect(e, live, None))
        self.assertFalse(d.is_disconnect(ValueError("x"), dead, None))


if __name__ == "__main__":
    ixdtest.main()
