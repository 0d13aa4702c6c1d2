"""ixdb.pool: a thread-safe connection pool on libixdb's ix_pool.

    pool = ixdb.pool.Pool("host=db1 port=9088 user=u password=p database=shop",
                          min_size=1, max_size=10)
    with pool.connection() as conn:
        cur = conn.cursor()
        cur.execute("update stock set qty = qty - 1 where id = ?", (7,))
        conn.commit()
    pool.close()

At the end of the ``with`` block the connection goes back to the pool: the
statements of its cursors are finalized, an open transaction is rolled back
(commit what must stay), autocommit, isolation and lock mode are restored,
and the Connection object refuses further use (InterfaceError); its
session serves the next checkout. ``conn.close()`` gives it back too. See
docs/python.md "Connection pool".
"""

from . import _ixdb, _quote, OperationalError

__all__ = ["Pool", "PoolTimeout"]


class PoolTimeout(OperationalError):
    """No connection was free within the pool's timeout."""


def _ms(seconds, name, none_value):
    if seconds is None:
        return none_value
    if seconds < 0:
        raise ValueError("%s must be >= 0 or None" % name)
    return int(round(seconds * 1000))


def _dsn_text(dsn, keys):
    parts = [dsn] if dsn else []
    parts += ["%s=%s" % (k, _quote(v)) for k, v in keys.items() if v is not None]
    return " ".join(parts)


def _dsn_value(text, key):
    for word in text.split():
        k, _, v = word.partition("=")
        if k.lower() == key:
            return v.strip("'")
    return None


def _encoding(text):
    import os
    cl = _dsn_value(text, "client_locale") or os.environ.get("CLIENT_LOCALE")
    dl = _dsn_value(text, "db_locale") or os.environ.get("DB_LOCALE")
    if cl or dl:
        return (_ixdb._locale_codeset(cl) if cl else None) or "UTF-8"
    return None


class _Checkout:
    """The context manager of Pool.connection()."""

    __slots__ = ("_pool", "_conn")

    def __init__(self, pool):
        self._pool = pool
        self._conn = None

    def __enter__(self):
        self._conn = self._pool.getconn()
        return self._conn

    def __exit__(self, et, ev, tb):
        conn, self._conn = self._conn, None
        conn.close()  # back to the pool (rolled back if a transaction is open)
        return False


class Pool:
    """A pool of connections to one DSN, shared by threads.

    ``dsn`` is a libixdb keyword DSN (``"host=h port=9088 user=u ..."``);
    keyword arguments add DSN keys (``host=``, ``database=``, ...).
    ``min_size`` connections are opened at once (the first error is raised);
    at most ``max_size`` are open. ``timeout`` (seconds, None: forever) is
    how long a checkout waits for a free connection (then PoolTimeout); the
    GIL is released while it waits or connects. ``max_idle`` (seconds,
    None: no limit) closes connections idle that long, down to min_size;
    ``max_lifetime`` (seconds, None: no limit) closes older ones instead of
    reusing them; ``check_idle`` (seconds, default 30; None: never; 0:
    always) checks a connection idle that long with one round trip before
    handing it out. ``autocommit`` is the checked-out connections' setting
    (default False, as ixdb.connect); ``compat`` the request forms, as for
    ixdb.connect (the DSN key compat=).
    """

    def __init__(self, dsn=None, min_size=1, max_size=10, timeout=30.0, max_idle=600.0,
                 max_lifetime=3600.0, *, check_idle=30.0, autocommit=False, compat=None,
                 **dsn_keys):
        text = _dsn_text(dsn, dict(dsn_keys, compat=compat))
        self._core = _ixdb._pool_type()(
            text, int(min_size), int(max_size), _ms(timeout, "timeout", -1),
            _ms(check_idle, "check_idle", -1), _ms(max_idle, "max_idle", 0),
            _ms(max_lifetime, "max_lifetime", 0), bool(autocommit), _encoding(text),
            PoolTimeout)
        self.min_size = int(min_size)
        self.max_size = int(max_size)
        self.timeout = timeout
        self.max_idle = max_idle
        self.max_lifetime = max_lifetime

    def getconn(self):
        """A connection from the pool; give it back with putconn() or close()."""
        return self._core.acquire()

    def putconn(self, conn):
        """Gives a connection from getconn() back to the pool."""
        conn.close()

    def connection(self):
        """``with pool.connection() as conn:`` checks out a connection for
        the block and gives it back at its end."""
        return _Checkout(self)

    def stats(self):
        """A dict: open, idle, checked_out, created, discarded, checks,
        waits, timeouts, min_size, max_size."""
        return self._core.stats()

    def close(self):
        """Refuses further checkouts and closes the idle connections;
        connections still out are closed when they are given back."""
        self._core.close()

    @property
    def closed(self):
        return self._core.closed

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        self.close()
        return False

    def __repr__(self):
        st = self.stats()
        return "<ixdb.pool.Pool open=%d idle=%d out=%d max=%d%s>" % (
            st["open"], st["idle"], st["checked_out"], self.max_size,
            " closed" if self.closed else "")
