"""The Informix dialect of SQLAlchemy (1.4 and 2.0) on ixdb: SQL and DDL
compilers, types, reflection from the system catalogue (systables,
syscolumns, sysconstraints, sysindexes, sysreferences, sysdefaults,
sysviews, syschecks), SKIP/FIRST paging, SERIAL/BIGSERIAL identity,
sequences, savepoints and isolation levels. docs/python.md "SQLAlchemy".
"""

import datetime as _dt
import re

from sqlalchemy import exc, schema as sa_schema, util
from sqlalchemy.sql import sqltypes
from sqlalchemy.engine import default, reflection
from sqlalchemy.sql import compiler

# ---- types -------------------------------------------------------------------

# DATETIME / INTERVAL units (syscolumns.collength: digits<<8 | start<<4 | end)
_UNITS = {"YEAR": 0, "MONTH": 2, "DAY": 4, "HOUR": 6, "MINUTE": 8, "SECOND": 10,
          "FRACTION": 11}
_UNIT_NAMES = {v: k for k, v in _UNITS.items()}


def _unit_text(code):
    if code > 10:
        return "FRACTION(%d)" % (code - 10)
    return _UNIT_NAMES[code]


def _unit_code(text):
    m = re.match(r"\s*FRACTION\s*(?:\((\d)\))?\s*$", text, re.I)
    if m:
        return 10 + int(m.group(1) or 3)
    return _UNITS[text.strip().upper()]


class DATETIME(sqltypes.DateTime):
    """Informix DATETIME with its qualifier: DATETIME("YEAR", "SECOND"),
    DATETIME("HOUR", "FRACTION(3)"). Values are datetime.datetime, or
    datetime.time when the qualifier starts at HOUR or later."""

    __visit_name__ = "DATETIME"

    def __init__(self, start="YEAR", end="FRACTION(5)", timezone=False):
        super().__init__(timezone=False)
        self.start = start.upper()
        self.end = end.upper()

    @property
    def python_type(self):
        return _dt.time if _unit_code(self.start) >= _UNITS["HOUR"] else _dt.datetime


class _IxTime(sqltypes.Time):
    __visit_name__ = "TIME"


class INTERVAL(sqltypes.NativeForEmulated, sqltypes._AbstractInterval):
    """Informix INTERVAL: INTERVAL("DAY", "FRACTION(5)", precision=9).
    Day-time intervals are datetime.timedelta, year-month ones ixdb.Months."""

    __visit_name__ = "INTERVAL"
    native = True

    def __init__(self, start="DAY", end="FRACTION(5)", precision=9):
        self.start = start.upper()
        self.end = end.upper()
        self.precision = precision

    @classmethod
    def adapt_emulated_to_native(cls, interval, **kw):
        return INTERVAL()

    @property
    def _type_affinity(self):
        return sqltypes.Interval

    def as_generic(self, allow_nulltype=False):
        return sqltypes.Interval(native=True)

    @property
    def python_type(self):
        return _dt.timedelta

    def coerce_compared_value(self, op, value):
        return self


class MONEY(sqltypes.Numeric):
    __visit_name__ = "MONEY"

    def __init__(self, precision=16, scale=2, asdecimal=True):
        super().__init__(precision=precision, scale=scale, asdecimal=asdecimal)


class SERIAL(sqltypes.Integer):
    __visit_name__ = "SERIAL"


class SERIAL8(sqltypes.BigInteger):
    __visit_name__ = "SERIAL8"


class BIGSERIAL(sqltypes.BigInteger):
    __visit_name__ = "BIGSERIAL"


class INT8(sqltypes.BigInteger):
    __visit_name__ = "INT8"


class SMALLFLOAT(sqltypes.REAL):
    __visit_name__ = "SMALLFLOAT"


class LVARCHAR(sqltypes.String):
    __visit_name__ = "LVARCHAR"


class NCHAR(sqltypes.NCHAR):
    __visit_name__ = "NCHAR"


class NVARCHAR(sqltypes.NVARCHAR):
    __visit_name__ = "NVARCHAR"


class TEXT(sqltypes.Text):
    __visit_name__ = "TEXT"


class BYTE(sqltypes.LargeBinary):
    __visit_name__ = "BYTE"


class BOOLEAN(sqltypes.Boolean):
    __visit_name__ = "BOOLEAN"


colspecs = {
    sqltypes.Interval: INTERVAL,
    sqltypes.Time: _IxTime,
}

# syscolumns.coltype (low byte) -> type
_CHAR, _SMALLINT, _INTEGER, _FLOAT, _SMALLFLOAT, _DECIMAL, _SERIAL, _DATE, _MONEY = range(9)
_DATETIME, _BYTE, _TEXT, _VARCHAR, _INTERVAL, _NCHAR, _NVARCHAR, _INT8, _SERIAL8 = range(10, 19)
_LVARCHAR, _BOOLEAN, _BIGINT, _BIGSERIAL = 43, 45, 52, 53
_NOT_NULL = 0x100
_SERIALS = (_SERIAL, _SERIAL8, _BIGSERIAL)

ischema_names = {
    "CHAR": sqltypes.CHAR, "SMALLINT": sqltypes.SMALLINT, "INTEGER": sqltypes.INTEGER,
    "FLOAT": sqltypes.FLOAT, "SMALLFLOAT": SMALLFLOAT, "DECIMAL": sqltypes.DECIMAL,
    "SERIAL": SERIAL, "DATE": sqltypes.DATE, "MONEY": MONEY, "DATETIME": DATETIME,
    "BYTE": BYTE, "TEXT": TEXT, "VARCHAR": sqltypes.VARCHAR, "INTERVAL": INTERVAL,
    "NCHAR": NCHAR, "NVARCHAR": NVARCHAR, "INT8": INT8, "SERIAL8": SERIAL8,
    "LVARCHAR": LVARCHAR, "BOOLEAN": BOOLEAN, "BIGINT": sqltypes.BIGINT,
    "BIGSERIAL": BIGSERIAL,
}


def _qualifier(collength):
    return _unit_text((collength >> 4) & 0xF), _unit_text(collength & 0xF)


def type_from_catalogue(coltype, collength):
    """The SQLAlchemy type of a syscolumns row (coltype without the NOT NULL
    bit, collength)."""
    t = coltype & 0xFF
    if t in (_CHAR, _NCHAR):
        return (sqltypes.CHAR if t == _CHAR else NCHAR)(length=collength)
    if t in (_VARCHAR, _NVARCHAR):
        return (sqltypes.VARCHAR if t == _VARCHAR else NVARCHAR)(length=collength & 0xFF)
    if t == _LVARCHAR:
        return LVARCHAR(length=collength)
    if t in (_DECIMAL, _MONEY):
        p, s = collength >> 8, collength & 0xFF
        if t == _MONEY:
            return MONEY(precision=p, scale=s)
        return sqltypes.DECIMAL(precision=p, scale=None if s == 0xFF else s)
    if t == _DATETIME:
        return DATETIME(*_qualifier(collength))
    if t == _INTERVAL:
        start, end = (collength >> 4) & 0xF, collength & 0xF
        return INTERVAL(_unit_text(start), _unit_text(end),
                        precision=(collength >> 8) - (end - start))
    simple = {_SMALLINT: sqltypes.SMALLINT, _INTEGER: sqltypes.INTEGER, _FLOAT: sqltypes.FLOAT,
              _SMALLFLOAT: SMALLFLOAT, _SERIAL: SERIAL, _DATE: sqltypes.DATE, _BYTE: BYTE,
              _TEXT: TEXT, _INT8: INT8, _SERIAL8: SERIAL8, _BOOLEAN: BOOLEAN,
              _BIGINT: sqltypes.BIGINT, _BIGSERIAL: BIGSERIAL}
    cls = simple.get(t)
    if cls is None:
        util.warn("Did not recognize Informix type code %d" % coltype)
        return sqltypes.NULLTYPE
    return cls()


# ---- compilers ---------------------------------------------------------------


class IxdbCompiler(compiler.SQLCompiler):
    def get_select_precolumns(self, select, **kw):
        s = super().get_select_precolumns(select, **kw)
        if select._offset_clause is not None:
            s += "SKIP %s " % self.process(select._offset_clause, **kw)
        limit = select._limit_clause if select._limit_clause is not None \
            else select._fetch_clause
        if limit is not None:
            s += "FIRST %s " % self.process(limit, **kw)
        return s

    def limit_clause(self, select, **kw):
        return ""

    def fetch_clause(self, select, **kw):
        return ""

    def default_from(self):
        return " FROM sysmaster:sysdual"

    def visit_true(self, expr, **kw):
        return "'t'"

    def visit_false(self, expr, **kw):
        return "'f'"

    def visit_sequence(self, seq, **kw):
        return "%s.NEXTVAL" % self.preparer.format_sequence(seq)

    def visit_now_func(self, fn, **kw):
        return "CURRENT YEAR TO FRACTION(5)"

    def visit_current_timestamp_func(self, fn, **kw):
        return "CURRENT YEAR TO FRACTION(5)"

    def visit_localtimestamp_func(self, fn, **kw):
        return "CURRENT YEAR TO FRACTION(5)"

    def visit_current_date_func(self, fn, **kw):
        return "TODAY"

    def visit_current_time_func(self, fn, **kw):
        return "CURRENT HOUR TO SECOND"

    def visit_current_user_func(self, fn, **kw):
        return "USER"

    def visit_char_length_func(self, fn, **kw):
        return "CHAR_LENGTH%s" % self.function_argspec(fn, **kw)

    def visit_mod_binary(self, binary, operator, **kw):
        return "MOD(%s, %s)" % (self.process(binary.left, **kw),
                                self.process(binary.right, **kw))

    def for_update_clause(self, select, **kw):
        return " FOR UPDATE"

    def visit_empty_set_expr(self, element_types):
        return "SELECT 1 FROM sysmaster:sysdual WHERE 1 != 1"


class IxdbDDLCompiler(compiler.DDLCompiler):
    """Informix puts a constraint's name after it (PRIMARY KEY (a)
    CONSTRAINT pk_t) and has no ON UPDATE actions."""

    def _name(self, constraint):
        if constraint.name is None:
            return ""
        name = self.preparer.format_constraint(constraint)
        return " CONSTRAINT %s" % name if name else ""

    def get_column_specification(self, column, **kw):
        t = column.table
        if (column.primary_key and column is t._autoincrement_column and
                (column.default is None or
                 (isinstance(column.default, sa_schema.Sequence) and
                  column.default.optional))):
            if isinstance(column.type, sqltypes.BigInteger):
                coltype = "BIGSERIAL"
            else:
                coltype = "SERIAL"
            spec = "%s %s" % (self.preparer.format_column(column), coltype)
        else:
            spec = "%s %s" % (self.preparer.format_column(column),
                              self.dialect.type_compiler.process(column.type,
                                                                 type_expression=column))
            default = self.get_column_default_string(column)
            if default is not None:
                spec += " DEFAULT " + default
        if not column.nullable:
            spec += " NOT NULL"
        return spec

    def visit_primary_key_constraint(self, constraint, **kw):
        if len(constraint) == 0:
            return ""
        cols = constraint.columns_autoinc_first if constraint._implicit_generated \
            else constraint.columns
        return "PRIMARY KEY (%s)%s" % (", ".join(self.preparer.quote(c.name) for c in cols),
                                       self._name(constraint))

    def visit_unique_constraint(self, constraint, **kw):
        if len(constraint) == 0:
            return ""
        return "UNIQUE (%s)%s" % (", ".join(self.preparer.quote(c.name) for c in constraint),
                                  self._name(constraint))

    def visit_check_constraint(self, constraint, **kw):
        return "CHECK (%s)%s" % (self.sql_compiler.process(constraint.sqltext,
                                                           include_table=False,
                                                           literal_binds=True),
                                 self._name(constraint))

    def visit_foreign_key_constraint(self, constraint, **kw):
        remote = list(constraint.elements)[0].column.table
        text = "FOREIGN KEY (%s) REFERENCES %s (%s)" % (
            ", ".join(self.preparer.quote(f.parent.name) for f in constraint.elements),
            self.define_constraint_remote_table(constraint, remote, self.preparer),
            ", ".join(self.preparer.quote(f.column.name) for f in constraint.elements))
        if constraint.ondelete is not None and constraint.ondelete.upper() == "CASCADE":
            text += " ON DELETE CASCADE"
        return text + self._name(constraint)

    def get_identity_options(self, o):
        """CREATE SEQUENCE options as Informix spells them (NOMAXVALUE,
        NOCYCLE, NOCACHE, NOORDER: one word)."""
        text = []
        if o.increment is not None:
            text.append("INCREMENT BY %d" % o.increment)
        if o.start is not None:
            text.append("START WITH %d" % o.start)
        if o.minvalue is not None:
            text.append("MINVALUE %d" % o.minvalue)
        elif o.nominvalue:
            text.append("NOMINVALUE")
        if o.maxvalue is not None:
            text.append("MAXVALUE %d" % o.maxvalue)
        elif o.nomaxvalue:
            text.append("NOMAXVALUE")
        if o.cache is not None:
            text.append("CACHE %d" % o.cache if o.cache else "NOCACHE")
        if o.order is not None:
            text.append("ORDER" if o.order else "NOORDER")
        if o.cycle is not None:
            text.append("CYCLE" if o.cycle else "NOCYCLE")
        return " ".join(text)


class IxdbTypeCompiler(compiler.GenericTypeCompiler):
    def visit_DATETIME(self, type_, **kw):
        start = getattr(type_, "start", "YEAR")
        end = getattr(type_, "end", "FRACTION(5)")
        return "DATETIME %s TO %s" % (start, end)

    def visit_datetime(self, type_, **kw):
        return "DATETIME YEAR TO FRACTION(5)"

    visit_TIMESTAMP = visit_datetime

    def visit_TIME(self, type_, **kw):
        return "DATETIME HOUR TO FRACTION(5)"

    visit_time = visit_TIME

    def visit_INTERVAL(self, type_, **kw):
        start = getattr(type_, "start", "DAY")
        end = getattr(type_, "end", "FRACTION(5)")
        prec = getattr(type_, "precision", 9)
        if start.startswith("FRACTION"):
            return "INTERVAL %s" % start
        return "INTERVAL %s(%d) TO %s" % (start, prec or 2, end)

    def visit_interval(self, type_, **kw):
        return "INTERVAL DAY(9) TO FRACTION(5)"

    def visit_MONEY(self, type_, **kw):
        return "MONEY(%d,%d)" % (type_.precision or 16, type_.scale or 0)

    def visit_SERIAL(self, type_, **kw):
        return "SERIAL"

    def visit_SERIAL8(self, type_, **kw):
        return "SERIAL8"

    def visit_BIGSERIAL(self, type_, **kw):
        return "BIGSERIAL"

    def visit_INT8(self, type_, **kw):
        return "INT8"

    def visit_big_integer(self, type_, **kw):
        return "BIGINT"

    def visit_SMALLFLOAT(self, type_, **kw):
        return "SMALLFLOAT"

    def visit_REAL(self, type_, **kw):
        return "SMALLFLOAT"

    def visit_float(self, type_, **kw):
        if type_.precision is not None and type_.precision <= 24:
            return "SMALLFLOAT"
        return "FLOAT"

    def visit_DOUBLE(self, type_, **kw):
        return "FLOAT"

    visit_DOUBLE_PRECISION = visit_DOUBLE

    def visit_numeric(self, type_, **kw):
        return self.visit_DECIMAL(type_, **kw)

    def visit_NUMERIC(self, type_, **kw):
        return self.visit_DECIMAL(type_, **kw)

    def visit_DECIMAL(self, type_, **kw):
        if type_.precision is None:
            return "DECIMAL(16)"
        if type_.scale is None:
            return "DECIMAL(%d)" % type_.precision
        return "DECIMAL(%d,%d)" % (type_.precision, type_.scale)

    def visit_LVARCHAR(self, type_, **kw):
        return "LVARCHAR(%d)" % type_.length if type_.length else "LVARCHAR"

    def visit_string(self, type_, **kw):
        if not type_.length:
            return "LVARCHAR"
        if type_.length > 255:
            return "LVARCHAR(%d)" % type_.length
        return "VARCHAR(%d)" % type_.length

    visit_unicode = visit_string

    def visit_VARCHAR(self, type_, **kw):
        return self.visit_string(type_, **kw)

    def visit_NVARCHAR(self, type_, **kw):
        if not type_.length or type_.length > 255:
            return self.visit_string(type_, **kw)
        return "NVARCHAR(%d)" % type_.length

    def visit_text(self, type_, **kw):
        if type_.length:
            return "LVARCHAR(%d)" % type_.length
        return "TEXT"

    visit_unicode_text = visit_text

    def visit_TEXT(self, type_, **kw):
        return "TEXT"

    def visit_CLOB(self, type_, **kw):
        return "TEXT"

    def visit_large_binary(self, type_, **kw):
        return "BYTE"

    visit_BYTE = visit_BLOB = visit_BINARY = visit_VARBINARY = visit_large_binary

    def visit_boolean(self, type_, **kw):
        return "BOOLEAN"

    visit_BOOLEAN = visit_boolean


class IxdbIdentifierPreparer(compiler.IdentifierPreparer):
    """Without DELIMIDENT, Informix reads "x" as a string: names are never
    quoted (the server folds them to lower case)."""

    def __init__(self, dialect, **kw):
        super().__init__(dialect, initial_quote='"', **kw)

    def _requires_quotes(self, value):
        return False

    def _requires_quotes_illegal_chars(self, value):
        return False

    def quote_identifier(self, value):
        return value


class IxdbExecutionContext(default.DefaultExecutionContext):
    def fire_sequence(self, seq, type_):
        return self._execute_scalar(
            "SELECT %s.NEXTVAL FROM sysmaster:sysdual"
            % self.identifier_preparer.format_sequence(seq), type_)

    def get_lastrowid(self):
        return self.cursor.lastrowid


# ---- the dialect -------------------------------------------------------------

# SQLAlchemy's level names -> SET ISOLATION TO ... (Informix's REPEATABLE
# READ is serializable)
_ISOLATION = {
    "READ UNCOMMITTED": "DIRTY READ",
    "READ COMMITTED": "COMMITTED READ",
    "CURSOR STABILITY": "CURSOR STABILITY",
    "REPEATABLE READ": "REPEATABLE READ",
    "SERIALIZABLE": "REPEATABLE READ",
}


class IxdbDialect(default.DefaultDialect):
    name = "informix"
    driver = "ixdb"
    supports_statement_cache = True
    default_paramstyle = "qmark"
    supports_native_decimal = True
    supports_native_boolean = True
    supports_unicode_statements = True
    supports_unicode_binds = True
    returns_unicode_strings = getattr(sqltypes.String, "RETURNS_UNICODE", True)
    supports_sane_rowcount = True
    supports_sane_multi_rowcount = True
    supports_multivalues_insert = False
    supports_empty_insert = False
    supports_default_values = False
    supports_sequences = True
    sequences_optional = True
    postfetch_lastrowid = True
    implicit_returning = False
    full_returning = False
    insert_returning = False
    supports_alter = True
    supports_comments = False
    requires_name_normalize = False
    max_identifier_length = 128
    supports_simple_order_by_label = True
    cte_follows_insert = False
    tuple_in_values = False

    colspecs = colspecs
    ischema_names = ischema_names
    statement_compiler = IxdbCompiler
    ddl_compiler = IxdbDDLCompiler
    type_compiler = IxdbTypeCompiler
    preparer = IxdbIdentifierPreparer
    execution_ctx_cls = IxdbExecutionContext

    def __init__(self, isolation_level=None, **kw):
        super().__init__(**kw)
        self.isolation_level = isolation_level
        self._levels = {}

    @classmethod
    def dbapi(cls):  # SQLAlchemy 1.4
        import ixdb
        return ixdb

    @classmethod
    def import_dbapi(cls):  # SQLAlchemy 2.0
        import ixdb
        return ixdb

    def create_connect_args(self, url):
        kw = {}
        for k in ("host", "port", "database"):
            v = getattr(url, k)
            if v is not None:
                kw[k] = v
        if url.username is not None:
            kw["user"] = url.username
        if url.password is not None:
            kw["password"] = str(url.password)
        for k, v in url.query.items():
            kw[k] = v if isinstance(v, str) else v[-1]
        if "autocommit" in kw:
            kw["autocommit"] = str(kw["autocommit"]).lower() in ("1", "true", "yes", "on")
        return [], kw

    def on_connect(self):
        def setup(conn):
            self._levels[id(self._raw(conn))] = "READ COMMITTED"
            if self.isolation_level is not None:
                self.set_isolation_level(conn, self.isolation_level)
        return setup

    def _get_server_version_info(self, connection):
        v = connection.connection.server_version
        m = re.search(r"(\d+)\.(\d+)", v or "")
        return (int(m.group(1)), int(m.group(2))) if m else ()

    def _get_default_schema_name(self, connection):
        return connection.exec_driver_sql(
            "SELECT USER FROM systables WHERE tabid = 1").scalar().strip()

    # ---- isolation levels ----

    @staticmethod
    def _raw(connection):
        """The ixdb.Connection under a pool's connection proxy."""
        import ixdb
        for _ in range(4):
            if isinstance(connection, ixdb.Connection):
                break
            connection = getattr(connection, "dbapi_connection", None) or \
                getattr(connection, "connection", connection)
        return connection

    def set_isolation_level(self, connection, level):
        connection = self._raw(connection)
        level = level.replace("_", " ").upper()
        if level == "AUTOCOMMIT":
            connection.autocommit = True
        elif level in _ISOLATION:
            connection.autocommit = False
            cur = connection.cursor()
            cur.execute("SET ISOLATION TO " + _ISOLATION[level])
            cur.close()
        else:
            raise exc.ArgumentError(
                "Invalid value %r for isolation_level. Valid isolation levels for %s are %s"
                % (level, self.name, ", ".join(["AUTOCOMMIT"] + list(_ISOLATION))))
        self._levels[id(connection)] = level

    def get_isolation_level(self, connection):
        connection = self._raw(connection)
        if getattr(connection, "autocommit", False):
            return "AUTOCOMMIT"
        return self._levels.get(id(connection), "READ COMMITTED")

    def get_isolation_level_values(self, dbapi_conn):
        return ["AUTOCOMMIT"] + list(_ISOLATION)

    def do_begin_twophase(self, connection, xid):
        raise NotImplementedError("two-phase commit")

    def is_disconnect(self, e, connection, cursor):
        """A dead connection: SQLSTATE class 08 (libixdb gives it to every
        connection failure), a use after close, or a DB-API connection that
        reads closed (the session is lost: libixdb ended a cancel by closing
        it, a read timed out)."""
        if isinstance(e, self.dbapi.Error) and getattr(connection, "closed", False) is True:
            return True
        if isinstance(e, self.dbapi.InterfaceError):
            return "closed" in str(e)
        if isinstance(e, self.dbapi.Error):
            return str(getattr(e, "sqlstate", "") or "").startswith("08")
        return False

    # ---- reflection ----

    def _owner(self, connection, schema):
        return schema if schema is not None else self.default_schema_name

    def _rows(self, connection, sql, *params):
        return connection.exec_driver_sql(sql, tuple(params)).fetchall()

    def _tabid(self, connection, table_name, schema):
        rows = self._rows(connection,
                          "SELECT tabid FROM systables WHERE tabname = ? AND owner = ?",
                          table_name.lower(), self._owner(connection, schema))
        if not rows:
            raise exc.NoSuchTableError(table_name)
        return rows[0][0]

    def has_table(self, connection, table_name, schema=None, **kw):
        if hasattr(self, "_ensure_has_table_connection"):
            self._ensure_has_table_connection(connection)
        return bool(self._rows(
            connection, "SELECT 1 FROM systables WHERE tabname = ? AND owner = ? AND "
                        "tabtype IN ('T', 'V')",
            table_name.lower(), self._owner(connection, schema)))

    def has_sequence(self, connection, sequence_name, schema=None, **kw):
        return bool(self._rows(
            connection, "SELECT 1 FROM systables WHERE tabname = ? AND owner = ? AND "
                        "tabtype = 'Q'",
            sequence_name.lower(), self._owner(connection, schema)))

    def _names(self, connection, schema, tabtype):
        return [r[0] for r in self._rows(
            connection, "SELECT tabname FROM systables WHERE tabtype = ? AND owner = ? AND "
                        "tabid >= 100 ORDER BY tabname",
            tabtype, self._owner(connection, schema))]

    @reflection.cache
    def get_schema_names(self, connection, **kw):
        return [r[0].strip() for r in self._rows(
            connection, "SELECT DISTINCT owner FROM systables WHERE tabid >= 100 ORDER BY 1")]

    @reflection.cache
    def get_table_names(self, connection, schema=None, **kw):
        return self._names(connection, schema, "T")

    @reflection.cache
    def get_view_names(self, connection, schema=None, **kw):
        return self._names(connection, schema, "V")

    @reflection.cache
    def get_sequence_names(self, connection, schema=None, **kw):
        return self._names(connection, schema, "Q")

    @reflection.cache
    def get_view_definition(self, connection, view_name, schema=None, **kw):
        tabid = self._tabid(connection, view_name, schema)
        rows = self._rows(connection,
                          "SELECT viewtext FROM sysviews WHERE tabid = ? ORDER BY seqno", tabid)
        return "".join(r[0] for r in rows).strip()

    def _defaults(self, connection, tabid):
        out = {}
        for colno, kind, text in self._rows(
                connection, "SELECT d.colno, d.type, d.default FROM sysdefaults d "
                            "WHERE d.tabid = ?", tabid):
            out[colno] = (kind, (text or "").rstrip())
        return out

    @staticmethod
    def _default_text(kind, text, type_):
        if kind == "L":
            if isinstance(type_, (sqltypes.String, sqltypes.Date, sqltypes.DateTime,
                                  INTERVAL)) or isinstance(type_, sqltypes.Boolean):
                return "'%s'" % text.replace("'", "''")
            return text
        return {"U": "USER", "T": "TODAY", "C": "CURRENT YEAR TO FRACTION(5)",
                "N": "NULL"}.get(kind)

    @reflection.cache
    def get_columns(self, connection, table_name, schema=None, **kw):
        tabid = self._tabid(connection, table_name, schema)
        defaults = self._defaults(connection, tabid)
        cols = []
        for name, coltype, collength, colno in self._rows(
                connection, "SELECT colname, coltype, collength, colno FROM syscolumns "
                            "WHERE tabid = ? ORDER BY colno", tabid):
            type_ = type_from_catalogue(coltype, collength)
            d = defaults.get(colno)
            cols.append({
                "name": name,
                "type": type_,
                "nullable": not coltype & _NOT_NULL,
                "default": self._default_text(d[0], d[1], type_) if d else None,
                "autoincrement": (coltype & 0xFF) in _SERIALS,
            })
        return cols

    def _index_columns(self, connection, idxname, tabid):
        """The column names of index idxname (in order) and their orders."""
        rows = self._rows(connection,
                          "SELECT " + ", ".join("part%d" % i for i in range(1, 17)) +
                          " FROM sysindexes WHERE idxname = ? AND tabid = ?", idxname, tabid)
        if not rows:
            return [], []
        names = dict(self._rows(connection,
                                "SELECT colno, colname FROM syscolumns WHERE tabid = ?", tabid))
        parts = [p for p in rows[0] if p]
        return [names[abs(p)] for p in parts], [p < 0 for p in parts]

    def _constraints(self, connection, tabid, ctype):
        return self._rows(connection,
                          "SELECT constrid, constrname, idxname FROM sysconstraints "
                          "WHERE tabid = ? AND constrtype = ? ORDER BY constrid", tabid, ctype)

    @reflection.cache
    def get_pk_constraint(self, connection, table_name, schema=None, **kw):
        tabid = self._tabid(connection, table_name, schema)
        for _, name, idx in self._constraints(connection, tabid, "P"):
            return {"constrained_columns": self._index_columns(connection, idx, tabid)[0],
                    "name": name}
        return {"constrained_columns": [], "name": None}

    @reflection.cache
    def get_foreign_keys(self, connection, table_name, schema=None, **kw):
        tabid = self._tabid(connection, table_name, schema)
        out = []
        for constrid, name, idx in self._constraints(connection, tabid, "R"):
            ref = self._rows(
                connection, "SELECT r.ptabid, r.delrule, p.idxname, t.tabname, t.owner "
                            "FROM sysreferences r, sysconstraints p, systables t "
                            "WHERE r.constrid = ? AND p.constrid = r.primary AND "
                            "t.tabid = r.ptabid", constrid)
            if not ref:
                continue
            ptabid, delrule, pidx, ptab, powner = ref[0]
            powner = powner.strip()
            fk = {
                "name": name,
                "constrained_columns": self._index_columns(connection, idx, tabid)[0],
                "referred_schema": None if powner == self._owner(connection, schema)
                and schema is None else powner,
                "referred_table": ptab,
                "referred_columns": self._index_columns(connection, pidx, ptabid)[0],
                "options": {"ondelete": "CASCADE"} if delrule == "C" else {},
            }
            out.append(fk)
        return out

    @reflection.cache
    def get_unique_constraints(self, connection, table_name, schema=None, **kw):
        tabid = self._tabid(connection, table_name, schema)
        return [{"name": name, "column_names": self._index_columns(connection, idx, tabid)[0]}
                for _, name, idx in self._constraints(connection, tabid, "U")]

    @reflection.cache
    def get_check_constraints(self, connection, table_name, schema=None, **kw):
        tabid = self._tabid(connection, table_name, schema)
        out = []
        for constrid, name, _ in self._constraints(connection, tabid, "C"):
            text = "".join(r[0] for r in self._rows(
                connection, "SELECT checktext FROM syschecks WHERE constrid = ? AND "
                            "type = 'T' ORDER BY seqno", constrid)).strip()
            if text.startswith("(") and text.endswith(")"):
                text = text[1:-1]
            out.append({"name": name, "sqltext": text})
        return out

    @reflection.cache
    def get_indexes(self, connection, table_name, schema=None, **kw):
        tabid = self._tabid(connection, table_name, schema)
        owned = {r[0] for r in self._rows(
            connection, "SELECT idxname FROM sysconstraints WHERE tabid = ? AND "
                        "idxname IS NOT NULL", tabid)}
        out = []
        for idxname, idxtype in self._rows(
                connection, "SELECT idxname, idxtype FROM sysindexes WHERE tabid = ? "
                            "ORDER BY idxname", tabid):
            if idxname in owned or idxname.startswith(" "):
                continue
            cols, desc = self._index_columns(connection, idxname, tabid)
            ix = {"name": idxname, "column_names": cols, "unique": idxtype == "U"}
            if any(desc):
                ix["column_sorting"] = {c: ("desc",) for c, d in zip(cols, desc) if d}
            out.append(ix)
        return out

    @reflection.cache
    def get_table_comment(self, connection, table_name, schema=None, **kw):
        return {"text": None}


dialect = IxdbDialect
