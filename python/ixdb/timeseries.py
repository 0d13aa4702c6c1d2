"""ixdb.timeseries: clients of ixd's TimeSeries routines (docs/timeseries.md).

* :class:`Writer` buffers elements per series key and sends them with the
  pipelined ``executemany`` of ``EXECUTE PROCEDURE oni_ts_write_many`` (one
  batch row per buffer), the same policy as libixdb's ``ix_ts_writer``.
* :func:`read` yields the elements of a window as tuples ``(datetime, v1,
  v2, ...)`` through ``oni_ts_read_rows``.
* :func:`read_json_pages` yields the JSON pages of ``oni_ts_read`` (str),
  following each page's ``next``; :func:`read_json` merges them into one
  dict of columns.

Everything runs in the connection's transaction: with ``autocommit=False``
(the default) ``conn.commit()`` makes the writes stand.
"""

import datetime as _dt
import json as _json
import math as _math

from . import _ixdb

MAX_TEXT = 32739  # bytes of elements per oni_ts_write_many call (LVARCHAR)

_WRITE = "EXECUTE PROCEDURE oni_ts_write_many(?, ?, ?, ?)"
_WRITE_DUP = "EXECUTE PROCEDURE oni_ts_write_many(?, ?, ?, ?, ?)"
_EPOCH = _dt.datetime(1970, 1, 1)


def _ts_text(ts):
    """Element timestamp text: YYYY-MM-DD HH:MI:SS[.fffff[f]]."""
    if isinstance(ts, str):
        return ts
    if isinstance(ts, _dt.datetime):
        s = "%04d-%02d-%02d %02d:%02d:%02d" % (ts.year, ts.month, ts.day, ts.hour, ts.minute,
                                                ts.second)
        us = ts.microsecond
        if us:
            s += (".%06d" % us) if us % 10 else (".%05d" % (us // 10))
        return s
    if isinstance(ts, _dt.date):
        return "%04d-%02d-%02d" % (ts.year, ts.month, ts.day)
    raise TypeError("timestamp must be a datetime, a date or a str, not %s" % type(ts).__name__)


def _value_text(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)  # shortest round trip; nan, inf, -inf as the server reads them
    if isinstance(v, (int, bool)):
        return str(int(v))
    if hasattr(v, "as_tuple"):  # Decimal
        return str(v)
    raise TypeError("value must be a number or None, not %s" % type(v).__name__)


def element_text(ts, *values):
    """The element text ``timestamp|v1|v2|...`` the routines take.

    A NULL (None) last value is an empty field closed by ``|`` (``t|1||``):
    the server drops one trailing ``|``, Informix's loader line end."""
    text = "|".join([_ts_text(ts)] + [_value_text(v) for v in values])
    return text + "|" if values and values[-1] is None else text


class Writer:
    """Buffered writer of the series in table.column.

    ``write(key, ts, *values)`` appends one element to key's buffer (key is
    the primary-key value: int or str). A buffer is sent when it holds
    ``flush`` elements or when the next element would make it longer than
    32,739 bytes; it then goes together with every buffer at least half full
    in one pipelined ``executemany`` (one row per buffer). ``flush()`` sends
    every buffer. ``dup="error"`` makes the server refuse an element whose
    timestamp exists (-268) instead of replacing it.

    A batch row the server refuses stops the writer: the exception of
    ``executemany`` is raised with ``key`` (the series) set, that row's
    elements are not written, and every later call raises it again.
    ``written`` counts the elements the server reported written,
    ``pending`` those still buffered.
    """

    def __init__(self, conn, table, column, flush=1000, dup="replace"):
        if not isinstance(flush, int) or not 1 <= flush <= 100000:
            raise ValueError("flush must be 1 .. 100000 elements")
        if dup not in ("replace", "error"):
            raise ValueError('dup must be "replace" or "error"')
        self._conn = conn
        self._table = table
        self._column = column
        self._flush = flush
        self._dup = dup
        self._bufs = {}  # key -> [lines, bytes]
        self._cur = conn.cursor()
        self._failed = None
        self.written = 0
        self.pending = 0

    def write(self, key, ts, *values):
        """Appends the element (ts, values...); may send (see the class)."""
        self._add(key, element_text(ts, *values))

    def write_many(self, key, elements):
        """Appends every (ts, v1, v2, ...) tuple of elements to key's series."""
        for e in elements:
            self._add(key, element_text(*e))

    def write_text(self, key, text):
        """Appends one element given as element text."""
        # the common case in one call: an ASCII line without a newline that
        # joins a buffer with room, which then sends nothing (_add's checks
        # and outcome, without its second call)
        b = self._bufs.get(key)
        if (b is not None and self._failed is None and text.isascii() and "\n" not in text
                and "\r" not in text):
            lines = b[0]
            size = b[1] + 1 + len(text)
            if lines and size <= MAX_TEXT and len(lines) + 1 < self._flush:
                lines.append(text)
                b[1] = size
                self.pending += 1
                return
        self._add(key, text)

    def _add(self, key, line):
        if self._failed is not None:
            raise self._failed
        n = len(line.encode("utf-8")) if not line.isascii() else len(line)
        if n > MAX_TEXT:
            raise _ixdb.DataError("element of %d bytes: at most %d" % (n, MAX_TEXT))
        if "\n" in line or "\r" in line:
            raise _ixdb.DataError("a newline in element text")
        b = self._bufs.get(key)
        if b is None:
            b = self._bufs[key] = [[], 0]
        if b[0] and b[1] + 1 + n > MAX_TEXT:
            self._send(self._chosen(b))
        b[1] += n + (1 if b[0] else 0)
        b[0].append(line)
        self.pending += 1
        if len(b[0]) >= self._flush:
            self._send(self._chosen(b))

    def _chosen(self, full):
        half = self._flush / 2
        return [k for k, b in self._bufs.items()
                if b[0] and (b is full or len(b[0]) >= half or b[1] * 2 >= MAX_TEXT)]

    def _send(self, keys):
        if not keys:
            return
        if self._dup == "error":
            sql = _WRITE_DUP
            rows = [(self._table, self._column, k, "\n".join(self._bufs[k][0]), "dup=error")
                    for k in keys]
        else:
            sql = _WRITE
            rows = [(self._table, self._column, k, "\n".join(self._bufs[k][0])) for k in keys]
        counts = [len(self._bufs[k][0]) for k in keys]
        for k in keys:  # emptied in place: the caller may hold the buffer
            b = self._bufs[k]
            b[0] = []
            b[1] = 0
        self.pending -= sum(counts)
        # the elements written are the routine's count (Cursor._changes):
        # rowcount is -1 for routines, as PEP 249 asks
        try:
            self._cur.executemany(sql, rows)
        except _ixdb.Error as e:
            if self._cur._changes > 0:
                self.written += self._cur._changes
            errors = getattr(e, "errors", None) or []
            e.key = keys[errors[0][0]] if errors else None
            self._failed = e
            raise
        self.written += self._cur._changes

    def flush(self):
        """Sends every buffered element (one pipelined batch)."""
        if self._failed is not None:
            raise self._failed
        self._send([k for k, b in self._bufs.items() if b[0]])

    def close(self):
        """Flushes (unless the writer has failed) and releases the cursor."""
        try:
            if self._failed is None:
                self.flush()
        finally:
            self._cur.close()

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            self.close()
        else:  # an exception in the block: what is buffered is not sent
            self._cur.close()
        return False


def _literal(s):
    return "'" + str(s).replace("'", "''") + "'"


def read(conn, table, column, key, start=None, end=None):
    """Yields the elements of key's series in [start, end] (inclusive;
    None = unbounded) as tuples (datetime, v1, v2, ...), streamed through
    oni_ts_read_rows."""
    cur = conn.cursor()
    try:
        cur.execute("SELECT * FROM TABLE(oni_ts_read_rows(%s, %s, ?, ?, ?))"
                    % (_literal(table), _literal(column)),
                    (key, _bound_ts(start), _bound_ts(end)))
        while True:
            rows = cur.fetchmany(2048)
            if not rows:
                break
            yield from rows
    finally:
        cur.close()


def _bound_ts(ts):
    return ts if ts is None or isinstance(ts, str) else _ts_text(ts)


def _pages(conn, table, column, key, start, end, options):
    cur = conn.cursor()
    try:
        frm = _bound_ts(start)
        while True:
            cur.execute("EXECUTE FUNCTION oni_ts_read(?, ?, ?, ?, ?, ?)",
                        (table, column, key, frm, _bound_ts(end), options))
            row = cur.fetchone()
            if row is None or row[0] is None:
                raise _ixdb.InterfaceError("oni_ts_read returned no page")
            text = row[0]
            doc = _json.loads(text)
            yield text, doc
            nxt = doc.get("next")
            if nxt is None:
                break
            if nxt == frm:
                raise _ixdb.InterfaceError("oni_ts_read page does not move on (next %s)" % nxt)
            frm = nxt
    finally:
        cur.close()


def read_json_pages(conn, table, column, key, start=None, end=None, options=None):
    """Yields the JSON pages (str) of oni_ts_read over [start, end],
    each page's "next" passed as the next call's from, until it is null.
    options goes to the routine ("shape=rows", "limit=N", "max=B")."""
    for text, _doc in _pages(conn, table, column, key, start, end, options):
        yield text


_NONFINITE = {"NaN": _math.nan, "Infinity": _math.inf, "-Infinity": -_math.inf}


def _parse_ts(s):
    return _dt.datetime.strptime(s, "%Y-%m-%d %H:%M:%S.%f" if "." in s else "%Y-%m-%d %H:%M:%S")


def read_json(conn, table, column, key, start=None, end=None, max_bytes=None):
    """The window [start, end] as one dict of columns: "ts" (datetimes) and
    one list per metric (numbers; None for NULL; NaN and infinities as
    floats), merged from the columnar JSON pages of oni_ts_read. An empty
    window gives {"ts": []}."""
    out = {"ts": []}
    options = None if max_bytes is None else "max=%d" % max_bytes
    for _text, doc in _pages(conn, table, column, key, start, end, options):
        n = doc.get("n", 0)
        if not n:
            continue
        base = _parse_ts(doc["start"])
        if "t" in doc:
            offs = doc["t"]
        else:
            step = doc["step"]
            offs = [k * step for k in doc.get("i", range(n))]
        out["ts"].extend(base + _dt.timedelta(microseconds=o) for o in offs)
        for name, vals in doc.items():
            if isinstance(vals, list) and name not in ("t", "i"):
                col = out.setdefault(name, [])
                col.extend(_NONFINITE.get(v, v) if isinstance(v, str) else v for v in vals)
    return out


__all__ = ["Writer", "read", "read_json_pages", "read_json", "element_text", "MAX_TEXT"]
