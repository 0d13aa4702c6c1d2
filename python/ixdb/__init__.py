"""ixdb: a DB-API 2.0 (PEP 249) driver for IBM Informix, on libixdb.

The work is done in the C extension ``ixdb._ixdb``; this file holds the
module globals, the type objects and constructors, and the keyword handling
of :func:`connect`. See docs/python.md.
"""

import datetime as _dt
import os as _os
import time as _time

from ._ixdb import (  # noqa: F401
    Connection,
    Cursor,
    DatabaseError,
    DataError,
    Error,
    IntegrityError,
    InterfaceError,
    InternalError,
    Months,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    Warning,
    libixdb_version,
)
from . import _ixdb

__version__ = "0.1.0"

apilevel = "2.0"
threadsafety = 1  # threads may share the module, not connections
paramstyle = "qmark"

# ---- type objects ----------------------------------------------------------

# Informix type codes (Cursor.description[i][1]).
CHAR, SMALLINT, INTEGER, FLOAT, SMALLFLOAT, DECIMAL, SERIAL, DATE, MONEY = range(9)
DATETIME_T, BYTE, TEXT, VARCHAR, INTERVAL, NCHAR, NVARCHAR, INT8, SERIAL8 = range(10, 19)
LVARCHAR, BOOLEAN, BIGINT, BIGSERIAL = 43, 45, 52, 53


class DBAPITypeObject:
    """Compares equal to every Informix type code of its group."""

    def __init__(self, name, *codes):
        self.name = name
        self.values = frozenset(codes)

    def __eq__(self, other):
        if isinstance(other, DBAPITypeObject):
            return self.values == other.values
        return other in self.values

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.values)

    def __repr__(self):
        return "ixdb.%s" % self.name


STRING = DBAPITypeObject("STRING", CHAR, VARCHAR, NCHAR, NVARCHAR, LVARCHAR, TEXT)
BINARY = DBAPITypeObject("BINARY", BYTE)
NUMBER = DBAPITypeObject(
    "NUMBER", SMALLINT, INTEGER, FLOAT, SMALLFLOAT, DECIMAL, SERIAL, MONEY, INT8,
    SERIAL8, BIGINT, BIGSERIAL, BOOLEAN)
DATETIME = DBAPITypeObject("DATETIME", DATE, DATETIME_T, INTERVAL)
ROWID = DBAPITypeObject("ROWID", SERIAL, SERIAL8, BIGSERIAL)

# ---- constructors -------------------------------------------------------------

Date = _dt.date
Time = _dt.time
Timestamp = _dt.datetime
Binary = bytes


def DateFromTicks(ticks):
    return Date(*_time.localtime(ticks)[:3])


def TimeFromTicks(ticks):
    return Time(*_time.localtime(ticks)[3:6])


def TimestampFromTicks(ticks):
    return Timestamp(*_time.localtime(ticks)[:6])


# ---- connect -------------------------------------------------------------------

_ENV_KEYS = {  # Informix environment variable -> DSN key
    "DBDATE": "dbdate",
    "CLIENT_LOCALE": "client_locale",
    "DB_LOCALE": "db_locale",
    "INFORMIXSQLHOSTS": "sqlhosts",
    "FET_BUF_SIZE": "fetch_buffer",
    "INFORMIXSERVER": "server",
}


def _quote(v):
    if isinstance(v, bool):
        v = int(v)
    s = str(v)
    if s and all(c.isalnum() or c in "._-/:@[]" for c in s):
        return s
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def connect(dsn=None, *, host=None, port=None, user=None, password=None, database=None,
            server=None, autocommit=False, fetch_buffer=None, read_ahead=None, tls=None,
            timeout=None, read_timeout=None, env=None, _open=None, **dsn_keys):
    """Opens a connection.

    ``dsn`` is a libixdb DSN: a URL ``informix://user:pw@host:port/db?server=X``
    or a keyword string ``"host=h port=9088 user=u password=p database=db"``.
    The keywords add to (or replace) its keys: ``host``, ``port``, ``user``,
    ``password``, ``database``, ``server``, ``fetch_buffer`` (bytes per
    NFETCH, or ``"auto"``), ``read_ahead`` (NFETCH requests in flight),
    ``tls`` (bool), ``timeout`` (connect timeout, seconds), ``read_timeout``
    (seconds; expiry kills the connection), ``env`` (a dict of Informix
    environment settings such as ``{"DBDATE": "DMY4/", "CLIENT_LOCALE":
    "en_US.8859-1"}``; other libixdb DSN keys may be given as extra
    keywords, e.g. ``tls_verify=0``). ``autocommit`` (default False, as PEP
    249 asks) makes every statement commit by itself.
    """
    keys = {}
    if env:
        for k, v in env.items():
            keys[_ENV_KEYS.get(k.upper(), k.lower())] = v
    for k, v in (("host", host), ("port", port), ("user", user), ("password", password),
                 ("database", database), ("server", server),
                 ("fetch_buffer", fetch_buffer), ("readahead", read_ahead), ("tls", tls),
                 ("connect_timeout", timeout), ("read_timeout", read_timeout)):
        if v is not None:
            keys[k] = v
    for k, v in dsn_keys.items():
        if v is not None:
            keys[k] = v
    text = dsn or ""
    if keys:
        if text.startswith("informix://"):
            # URL form: extra keys go in the query string.
            from urllib.parse import quote
            sep = "&" if "?" in text else "?"
            text += sep + "&".join("%s=%s" % (k, quote(str(int(v) if isinstance(v, bool) else v),
                                                        safe=""))
                                   for k, v in keys.items())
        else:
            parts = [text] if text else []
            parts += ["%s=%s" % (k, _quote(v)) for k, v in keys.items()]
            text = " ".join(parts)
    # Character data: UTF-8 unless a client or database locale says otherwise.
    encoding = None
    cl = keys.get("client_locale") or _dsn_value(text, "client_locale") or \
        _os.environ.get("CLIENT_LOCALE")
    dl = keys.get("db_locale") or _dsn_value(text, "db_locale") or _os.environ.get("DB_LOCALE")
    if cl or dl:
        encoding = (_ixdb._locale_codeset(cl) if cl else None) or "UTF-8"
    # _open: ixdb.aio passes its own opener (same DSN, non-blocking login)
    return (_open or _ixdb._connect)(text, bool(autocommit), encoding)


def _dsn_value(text, key):
    for sep in (" ", "&", "?"):
        marker = sep + key + "="
        i = (sep + text).find(marker)
        if i >= 0:
            rest = (sep + text)[i + len(marker):]
            for stop in (" ", "&"):
                j = rest.find(stop)
                if j >= 0:
                    rest = rest[:j]
            return rest.strip("'")
    return None


__all__ = [
    "apilevel", "threadsafety", "paramstyle", "connect", "Connection", "Cursor",
    "Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
    "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
    "NotSupportedError", "STRING", "BINARY", "NUMBER", "DATETIME", "ROWID",
    "Date", "Time", "Timestamp", "DateFromTicks", "TimeFromTicks",
    "TimestampFromTicks", "Binary", "Months",
]
