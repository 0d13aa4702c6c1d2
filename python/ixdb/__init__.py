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
    Locator,
    Months,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    Warning,
    libixdb_version,
)
from . import _ixdb
from . import rows  # noqa: F401
from ._lob import LobStream  # noqa: F401

__version__ = "0.1.0"

apilevel = "2.0"
threadsafety = 1  # threads may share the module, not connections
paramstyle = "qmark"

# ---- type objects ----------------------------------------------------------

# Informix type codes (Cursor.description[i][1]).
CHAR, SMALLINT, INTEGER, FLOAT, SMALLFLOAT, DECIMAL, SERIAL, DATE, MONEY = range(9)
DATETIME_T, BYTE, TEXT, VARCHAR, INTERVAL, NCHAR, NVARCHAR, INT8, SERIAL8 = range(10, 19)
LVARCHAR, BOOLEAN, BIGINT, BIGSERIAL = 43, 45, 52, 53
CLOB, BLOB = 101, 102  # smart LOBs (on the wire UDTFIXED 41; the codes of ixdb.h, JDBC's)


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


STRING = DBAPITypeObject("STRING", CHAR, VARCHAR, NCHAR, NVARCHAR, LVARCHAR, TEXT, CLOB)
BINARY = DBAPITypeObject("BINARY", BYTE, BLOB)
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

# Keys of IfxPy (CSDK) connection strings "SERVER=ixd;DATABASE=shop;...",
# upper case -> ixdb DSN key (PROTOCOL and TIMEZONE are handled apart).
_IFX_KEYS = dict(_ENV_KEYS, **{
    "SERVER": "server", "DATABASE": "database", "DB": "database", "HOST": "host",
    "HOSTNAME": "host", "SERVICE": "port", "PORT": "port", "UID": "user", "USER": "user",
    "PWD": "password", "PASSWORD": "password", "CONNECT_TIMEOUT": "connect_timeout",
    "READ_TIMEOUT": "read_timeout", "KEEPALIVE": "keepalive",
})

# PROTOCOL (sqlhosts nettype) values: TCP, or TCP with TLS.
_TCP = {p + n for p in ("on", "ol", "dr", "se") for n in ("soctcp", "tlitcp")}
_SSL = {p + "socssl" for p in ("on", "ol", "dr")}


def _quote(v):
    if isinstance(v, bool):
        v = int(v)
    s = str(v)
    if s and all(c.isalnum() or c in "._-/:@[]" for c in s):
        return s
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _ifx_pairs(text):
    """The KEY=VALUE pairs of an IfxPy connection string (';' between
    pairs; a value may be braced, {a;b})."""
    pairs, i, n = [], 0, len(text)
    while i < n:
        j = text.find("=", i)
        if j < 0:
            if text[i:].strip(" ;"):
                raise ProgrammingError("connection string: %r is not KEY=VALUE" % text[i:])
            break
        key = text[i:j].strip(" ;")
        j += 1
        if text[j:j + 1] == "{":
            k = text.find("}", j)
            if k < 0:
                raise ProgrammingError("connection string: the value of %s has no '}'" % key)
            value, i = text[j + 1:k], text.find(";", k) + 1 or n
        else:
            k = text.find(";", j)
            k = n if k < 0 else k
            value, i = text[j:k].strip(), k + 1
        pairs.append((key, value))
    return pairs


def _is_ifx_string(text):
    if not text or text.startswith("informix://") or "=" not in text:
        return False
    first = text.split("=", 1)[0].strip()
    return ";" in text or (first.isupper() and " " not in first)


def _from_ifx_string(text, keys):
    """Adds the keys of an IfxPy connection string to keys; returns the
    TIMEZONE value (or None)."""
    tz = None
    for key, value in _ifx_pairs(text):
        k = key.upper()
        if k == "PROTOCOL":
            p = value.lower()
            if p in _SSL:
                keys["tls"] = 1
            elif p not in _TCP:
                raise ProgrammingError(
                    "connection string: PROTOCOL=%s is not supported (ixdb speaks SQLI over "
                    "TCP: onsoctcp, or onsocssl for TLS)" % value)
        elif k == "TIMEZONE":
            tz = value
        elif k in _IFX_KEYS:
            keys.setdefault(_IFX_KEYS[k], value)
        else:
            raise ProgrammingError("connection string: unknown key %s" % key)
    return tz


def _port(value, name):
    """A port number from a number or a services-database name."""
    if isinstance(value, bool):
        raise ProgrammingError("%s must be a port number, not %r" % (name, value))
    if isinstance(value, int) or str(value).isdigit():
        port = int(value)
        if 0 < port < 65536:
            return port
    else:
        import socket
        try:
            return socket.getservbyname(str(value), "tcp")
        except OSError:
            pass
    raise ProgrammingError("%s=%s is neither a port number nor a known service name"
                           % (name, value))


def _timezone(tz):
    if tz is None or isinstance(tz, _dt.tzinfo):
        return tz
    if isinstance(tz, str):
        if tz.upper() in ("UTC", "Z"):
            return _dt.timezone.utc
        try:
            import zoneinfo
            return zoneinfo.ZoneInfo(tz)
        except (ImportError, ValueError, KeyError, OSError):
            raise ProgrammingError("timezone %r is not a known time zone" % tz) from None
    raise ProgrammingError("timezone must be a tzinfo or a zone name, not %r" % (tz,))


def _take_timezone(text):
    """Removes a timezone key (not one of libixdb's) from a DSN; returns
    (text, value or None)."""
    import re
    m = re.search(r"(^|\s)timezone=('(?:[^'\\]|\\.)*'|\S+)", text) or \
        re.search(r"[?&]timezone=([^&]*)", text)
    if not m:
        return text, None
    value = m.group(m.lastindex).strip("'")
    if text.startswith("informix://"):
        from urllib.parse import unquote
        value = unquote(value)
        rest = text[:m.start()] + text[m.end():]
        if m.group(0).startswith("?") and "&" in rest[m.start():]:
            rest = rest[:m.start()] + "?" + rest[m.start():].replace("&", "", 1)
        return rest, value
    return (text[:m.start()] + " " + text[m.end():]).strip(), value


def connect(dsn=None, user=None, password=None, *, host=None, port=None, database=None,
            server=None, autocommit=False, fetch_buffer=None, read_ahead=None, tls=None,
            timeout=None, connect_timeout=None, read_timeout=None, keepalive=None,
            client_locale=None, db_locale=None, dbdate=None, timezone=None, env=None,
            client_files=None, compat=None, _open=None, **dsn_keys):
    """Opens a connection.

    ``dsn`` is a libixdb DSN: a URL ``informix://user:pw@host:port/db?server=X``
    or a keyword string ``"host=h port=9088 user=u password=p database=db"``,
    or an IfxPy connection string ``"SERVER=ixd;DATABASE=shop;HOST=h;
    SERVICE=9088;UID=u;PWD=p;PROTOCOL=onsoctcp"`` (keys in any case; also
    DB_LOCALE, CLIENT_LOCALE, DBDATE, FET_BUF_SIZE, INFORMIXSQLHOSTS).
    ``user`` and ``password`` may follow it (as IfxPy.connect takes them).
    The keywords (informix-driver's names) add to (or replace) its keys:
    ``host``, ``port``, ``user``, ``password``, ``database``, ``server``,
    ``connect_timeout`` (or ``timeout``; seconds), ``read_timeout``
    (seconds; expiry kills the connection), ``keepalive`` (bool, or idle
    seconds), ``client_locale``, ``db_locale``, ``dbdate``, ``tls`` (bool
    or an ssl.SSLContext: TLS, verified unless its verify_mode is
    CERT_NONE), ``fetch_buffer`` (bytes per NFETCH, or ``"auto"``),
    ``read_ahead`` (NFETCH requests in flight), ``compat`` (``"auto"``, the
    default: the fast request forms with ixd, the conservative ones with any
    other server; ``"conservative"``; ``"fast"``: libixdb's request forms,
    see Connection.compat and Connection.forms), ``timezone`` (a tzinfo or
    zone name: the session zone aware datetimes are converted to; default
    the local zone), ``env`` (a dict of Informix environment settings such
    as ``{"DBDATE": "DMY4/"}``); other libixdb DSN keys may be given as
    extra keywords, e.g. ``tls_verify=0``. An unknown or bad option raises
    ProgrammingError naming it. ``autocommit`` (default False, as PEP 249
    asks) makes every statement commit by itself. ``client_files`` (a
    directory) lets FILETOBLOB/LOTOFILE(..., 'client') reach files inside it
    (refused by default: docs/c-api.md "Client files").
    """
    keys = {}
    text = dsn or ""
    if not isinstance(text, str):
        raise ProgrammingError("dsn must be a str, not %s" % type(text).__name__)
    if _is_ifx_string(text):
        tz_text = _from_ifx_string(text, keys)
        text = ""
    else:
        text, tz_text = _take_timezone(text)
    if env:
        for k, v in env.items():
            keys[_ENV_KEYS.get(k.upper(), k.lower())] = v
    if timeout is not None and connect_timeout is None:
        connect_timeout = timeout
    if isinstance(keepalive, bool):
        keepalive = 60 if keepalive else 0
    if tls is not None and not isinstance(tls, (bool, int)):
        import ssl
        if not isinstance(tls, ssl.SSLContext):
            raise ProgrammingError("tls must be a bool or an ssl.SSLContext, not %r" % (tls,))
        if tls.verify_mode == ssl.CERT_NONE:
            keys["tls_verify"] = 0
        tls = True
    for k, v in (("host", host), ("port", port), ("user", user or None),
                 ("password", password or None), ("database", database), ("server", server),
                 ("fetch_buffer", fetch_buffer), ("readahead", read_ahead), ("tls", tls),
                 ("connect_timeout", connect_timeout), ("read_timeout", read_timeout),
                 ("keepalive", keepalive), ("client_locale", client_locale),
                 ("db_locale", db_locale), ("dbdate", dbdate), ("compat", compat)):
        if v is not None:
            keys[k] = v
    for k, v in dsn_keys.items():
        if v is not None:
            keys[k] = v
    if "port" in keys:
        keys["port"] = _port(keys["port"], "port")
    for k in ("connect_timeout", "read_timeout", "keepalive"):
        if k in keys:
            try:
                if float(keys[k]) < 0:
                    raise ValueError
            except (TypeError, ValueError):
                raise ProgrammingError("%s=%r is not a number of seconds" % (k, keys[k])) from None
    tz = _timezone(timezone if timezone is not None else tz_text)
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
    conn = (_open or _ixdb._connect)(text, bool(autocommit), encoding, tz)
    if client_files is not None and _open is None:  # ixdb.aio sets it after its login
        conn._set_client_files(_os.fspath(client_files))
    return conn


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
    "TimestampFromTicks", "Binary", "Months", "rows", "BLOB", "CLOB", "Locator", "LobStream",
]
