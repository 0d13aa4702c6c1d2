"""ixdb.aio: native asyncio for ixdb, on libixdb's non-blocking core.

Nothing here uses threads. Every call queues its requests with libixdb's
``ix_send_*`` functions and waits with the event loop's ``add_reader`` /
``add_writer`` on the connection's socket (``ix_socket``); the C half
(``_ixdb._aio_*``, python/src/ixdb_aio.c) never waits. Cancelling a task
that awaits a statement (``task.cancel()``, ``asyncio.wait_for`` timeouts,
also around ``execute``, which waits for the statement's first reply)
cancels the statement on the server (``ix_cancel``): the reply completes
with -213 and the connection stays usable, or, with a server libixdb knows
no interrupt for, the connection is closed (``closed`` True). See
docs/python.md, "asyncio".

    conn = await ixdb.aio.connect("host=127.0.0.1 port=9088 ...", database="shop")
    async with conn:
        cur = conn.cursor()
        await cur.execute("select id, name from customer where id > ?", (10,))
        async for row in cur:
            ...
"""

import asyncio
import collections
import itertools
import os
import socket

from . import _ixdb
from . import connect as _connect_sync
from ._ixdb import (  # noqa: F401  (the same classes as the sync module)
    DatabaseError,
    DataError,
    Error,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    Warning,
)

# Wait codes of the C half (python/src/ixdb_aio.c).
_DONE, _READ, _WRITE, _TIMER, _YIELD = 0, 1, 2, 3, 4

# Seconds a cancelled statement's reply is awaited before the connection
# is given up (closed): the server answers -213 long before.
CANCEL_GRACE = 5.0

# Rows of one pipelined executemany slice (as ixdb's executemany).
BATCH_ROWS = 8192

# Rows `async for` takes at once from those that have arrived.
_ITER_BLOCK = 256


async def _wait(c, code, limit=None):
    """Waits for what a step asked (a _READ / _WRITE / _TIMER / _YIELD code)
    on the C connection c, at most until libixdb's nearest deadline
    (ix_timeout_ms) or limit seconds."""
    if code == _YIELD:
        await asyncio.sleep(0)
        return
    fd, timeout = _ixdb._aio_wait(c)
    if limit is not None and (timeout is None or timeout > limit):
        timeout = limit
    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def wake():
        if not fut.done():
            fut.set_result(None)

    watch = code in (_READ, _WRITE) and fd >= 0
    if watch:
        (loop.add_reader if code == _READ else loop.add_writer)(fd, wake)
    elif timeout is None:
        timeout = 0.01  # no descriptor and no deadline: look again soon
    timer = loop.call_later(timeout, wake) if timeout is not None else None
    try:
        await fut
    finally:
        if watch:
            (loop.remove_reader if code == _READ else loop.remove_writer)(fd)
        if timer is not None:
            timer.cancel()


async def _drive(conn, cu, step, *args):
    """Calls step(*args) until it is done (returns _DONE or a result that
    is not an int), waiting as it asks. A cancelled wait cancels the
    statement on the server (Connection._cancel), drops cu's statement and
    raises CancelledError."""
    c = conn._c
    while True:
        r = step(*args)
        if r == _DONE or not isinstance(r, int):
            return r
        try:
            await _wait(c, r)
        except asyncio.CancelledError:
            await conn._cancel(cu)
            raise
        if r != _YIELD:
            _ixdb._aio_consume(c)


class _Opener:
    """Stands for _ixdb._connect in ixdb.connect: takes its DSN text."""

    args = None

    def __call__(self, *args):
        self.args = args


async def connect(dsn=None, **kwargs):
    """Opens a connection without blocking the loop: the arguments are those
    of :func:`ixdb.connect` (DSN and keywords). Name resolution is the one
    step that may block: give a numeric host (127.0.0.1)."""
    opener = _Opener()
    client_files = kwargs.pop("client_files", None)
    _connect_sync(dsn, _open=opener, **kwargs)
    c = _ixdb._aio_connect_start(*opener.args)
    try:
        while True:
            code = _ixdb._aio_connect_poll(c)
            if code == _DONE:
                break
            await _wait(c, code)
        if client_files is not None:
            c._set_client_files(os.fspath(client_files))
    except BaseException:
        c.close()
        raise
    return Connection(c)


class Connection:
    """An asyncio connection (create with ``await ixdb.aio.connect(...)``).
    Its calls run one at a time (an asyncio.Lock): tasks may share it, or
    each take their own for parallel work."""

    Error = Error

    def __init__(self, c):
        self._c = c
        self._lock = asyncio.Lock()
        self._tx = None  # the cursor of BEGIN / COMMIT / ROLLBACK WORK

    # ---- state -----------------------------------------------------------

    @property
    def closed(self):
        return self._c.closed

    @property
    def autocommit(self):
        return self._c.autocommit

    @autocommit.setter
    def autocommit(self, on):
        if on and self.in_transaction:
            raise ProgrammingError("a transaction is open: await set_autocommit(True), "
                                   "or commit first")
        _ixdb._aio_set_autocommit(self._c, bool(on))

    async def set_autocommit(self, on):
        """Sets autocommit; turning it on commits an open transaction."""
        if on and self.in_transaction:
            await self.commit()
        _ixdb._aio_set_autocommit(self._c, bool(on))

    @property
    def in_transaction(self):
        return self._c.in_transaction

    @property
    def server_name(self):
        return self._c.server_name

    @property
    def server_version(self):
        return self._c.server_version

    @property
    def stmt_cache(self):
        return self._c.stmt_cache

    @property
    def compat(self):
        """The request forms' mode in use: "fast" or "conservative"."""
        return self._c.compat

    @property
    def forms(self):
        """The optional request forms the connection uses (a tuple)."""
        return self._c.forms

    def __repr__(self):
        return "<ixdb.aio.Connection %s>" % ("closed" if self.closed else "open")

    # ---- calls -----------------------------------------------------------

    def cursor(self):
        """A new cursor (``conn.cursor()`` or ``await conn.cursor()``)."""
        return Cursor(self)

    async def _run(self, sql):
        """Runs a statement without parameters nor rows (lock held)."""
        if self._tx is None:
            self._tx = self._c.cursor()
        cu = self._tx
        if _ixdb._aio_prepare(cu, sql):
            await _drive(self, cu, _ixdb._aio_prepare_poll, cu)
        if _ixdb._aio_execute(cu, None):
            await _drive(self, cu, _ixdb._aio_execute_poll, cu)

    async def _begin(self):
        """BEGIN WORK before a statement with autocommit off (lock held):
        -256 (unlogged database) turns it into autocommit for good, -349
        (no database yet) lets the statement run."""
        try:
            await self._run("BEGIN WORK")
        except Error as e:
            if e.sqlcode == -256:
                _ixdb._aio_set_nolog(self._c)
            elif e.sqlcode != -349:
                raise

    async def _end(self, sql):
        if self._c.closed:
            raise InterfaceError("the connection is closed")
        async with self._lock:
            if self._c.in_transaction:
                await self._run(sql)

    async def commit(self):
        await self._end("COMMIT WORK")

    async def rollback(self):
        await self._end("ROLLBACK WORK")

    def cancel(self):
        """Cancels the statement running on the connection, if any (its
        call raises OperationalError -213). True if a cancel was sent."""
        if self._c.closed:
            return False
        return _ixdb._aio_cancel(self._c)

    async def _cancel(self, cu, interrupt=True):
        """After a cancelled wait: cancels the statement on the server
        (interrupt) and waits (CANCEL_GRACE at most) until every reply owed
        has arrived; cu's statement is dropped. A connection that does not
        answer, or dies, is closed."""
        c = self._c
        try:
            if not interrupt or _ixdb._aio_cancel(c):
                loop = asyncio.get_running_loop()
                deadline = loop.time() + CANCEL_GRACE
                while True:
                    code = _ixdb._aio_drain(c)
                    if code == _DONE:
                        break
                    left = deadline - loop.time()
                    if left <= 0:
                        raise OperationalError("no answer from the server")
                    await _wait(c, code, left)
                    _ixdb._aio_consume(c)
            if cu is not None:
                _ixdb._aio_abandon(cu)
            if c.closed:  # libixdb ended the wait by closing the connection
                _abort(c)
        except (Error, asyncio.CancelledError):
            _abort(c)

    async def close(self):
        """Closes the connection. A statement another task is running is
        cancelled first; the requests still queued (CLOSE / RELEASE of
        cursors) are sent and answered, so that the goodbye (SQ_EXIT) is one
        quick exchange with an idle server."""
        c = self._c
        if c.closed:
            c.close()  # a lost session: nothing to say goodbye to
            return
        try:
            await self._cancel(None, interrupt=self._lock.locked())
        finally:
            c.close()  # (a no-op when _cancel gave the connection up)

    def __del__(self):
        # dropped without close(): no goodbye exchange that would block
        c = getattr(self, "_c", None)
        if c is not None:
            try:
                _abort(c)
            except Exception:  # interpreter shutdown
                pass

    async def __aenter__(self):
        return self

    async def __aexit__(self, et, ev, tb):
        """Leaving the block commits (rolls back on an exception), then
        closes, as ixdb's ``with connect(...)`` does."""
        try:
            if not self._c.closed:
                if et is None:
                    await self.commit()
                else:
                    try:
                        await self.rollback()
                    except Error:
                        pass
        finally:
            await self.close()
        return False


class Cursor:
    """An asyncio cursor: ``await cur.execute(...)``, ``await
    cur.fetchone()``, ``async for row in cur``."""

    def __init__(self, conn):
        self._conn = conn
        self._cu = conn._c.cursor()
        self._buf = collections.deque()  # rows taken by async for

    def __await__(self):  # await conn.cursor()
        if False:
            yield
        return self

    # ---- attributes of the sync cursor -----------------------------------

    description = property(lambda self: self._cu.description)
    typenames = property(lambda self: self._cu.typenames)
    rowcount = property(lambda self: self._cu.rowcount)
    lastrowid = property(lambda self: self._cu.lastrowid)
    errors = property(lambda self: self._cu.errors)
    closed = property(lambda self: self._cu.closed)
    connection = property(lambda self: self._conn)

    @property
    def arraysize(self):
        return self._cu.arraysize

    @arraysize.setter
    def arraysize(self, n):
        self._cu.arraysize = n

    def setinputsizes(self, *args):
        pass

    def setoutputsize(self, *args):
        pass

    # ---- execute ---------------------------------------------------------

    async def _prepare(self, sql):
        cu = self._cu
        self._buf.clear()
        if _ixdb._aio_prepare(cu, sql):
            await _drive(self._conn, cu, _ixdb._aio_prepare_poll, cu)
        if _ixdb._aio_need_begin(cu):
            await self._conn._begin()

    async def execute(self, sql, params=None):
        """Prepares (or reuses) and runs sql with params (a sequence, qmark
        style) until the server has answered: a query's first rows have
        arrived (the first one is kept for the fetch methods) and its error,
        if any, is raised here. Returns the cursor."""
        conn, cu = self._conn, self._cu
        async with conn._lock:
            await self._prepare(sql)
            if _ixdb._aio_execute(cu, params):
                await _drive(conn, cu, _ixdb._aio_execute_poll, cu)
        return self

    async def callproc(self, name, params=()):
        params = tuple(params or ())
        marks = ", ".join("?" * len(params))
        await self.execute("EXECUTE PROCEDURE %s(%s)" % (name, marks), params or None)
        return params

    async def executemany(self, sql, seq_of_params):
        """The pipelined batch of ixdb's executemany, slice by slice
        (BATCH_ROWS rows), without blocking the loop. Per-row failures are
        in ``errors`` and raise the first one, as in ixdb."""
        conn, cu = self._conn, self._cu
        it = iter(seq_of_params)
        async with conn._lock:
            await self._prepare(sql)
            total, changes, errors, first, first_row = 0, 0, [], None, None
            while True:
                rows = list(itertools.islice(it, BATCH_ROWS))
                if not rows:
                    break
                queued, bad = _ixdb._aio_batch(cu, rows)
                res = None
                try:
                    if queued:
                        res = await _drive(conn, cu, _ixdb._aio_batch_poll, cu, queued)
                except Error as e:
                    if bad is None:  # the connection failed: rowindex from the slice
                        if isinstance(e.rowindex, int):
                            e.rowindex += total
                        e.errors = errors
                        _ixdb._aio_batch_done(cu, changes, errors)
                        raise
                    # else the slice stopped at the row that could not bind:
                    # that error is the one raised (below)
                if res is not None:
                    ch, errs, f = res
                    changes += ch
                    errors += [(total + r, code) for r, code in errs]
                    if f is not None and first is None:
                        first, first_row = f, total + (errs[0][0] if errs else 0)
                if bad is not None:
                    bad.rowindex = total + bad.rowindex
                    _ixdb._aio_batch_done(cu, changes, errors)
                    raise bad
                total += len(rows)
                if first is not None:
                    break  # a refused row stops the batch, as in ixdb's executemany
            _ixdb._aio_batch_done(cu, changes, errors)
        if first is not None:
            raise _batch_error(first, first_row, len(errors), total, errors)
        return self

    # ---- fetch -----------------------------------------------------------

    async def _fetch(self, want, some=False):
        """Up to want rows (want < 0: all). some: return as soon as at
        least one row has arrived."""
        conn, cu = self._conn, self._cu
        rows = []
        while self._buf and (want < 0 or len(rows) < want):
            rows.append(self._buf.popleft())
        if want >= 0 and len(rows) >= want:
            return rows
        async with conn._lock:
            c = conn._c
            while True:
                got, code = _ixdb._aio_fetch(cu, -1 if want < 0 else want - len(rows))
                rows += got
                if code == _DONE or (some and rows):
                    return rows
                try:
                    await _wait(c, code)
                except asyncio.CancelledError:
                    await conn._cancel(cu)
                    raise
                if code != _YIELD:
                    _ixdb._aio_consume(c)

    async def fetchone(self):
        rows = await self._fetch(1)
        return rows[0] if rows else None

    async def fetchmany(self, size=None):
        return await self._fetch(self.arraysize if size is None else max(size, 0))

    async def fetchall(self):
        return await self._fetch(-1)

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self._buf:
            self._buf.extend(await self._fetch(_ITER_BLOCK, some=True))
            if not self._buf:
                raise StopAsyncIteration
        return self._buf.popleft()

    # ---- close -----------------------------------------------------------

    async def close(self):
        self._buf.clear()
        self._cu.close()

    async def __aenter__(self):
        return self

    async def __aexit__(self, et, ev, tb):
        await self.close()
        return False


def _abort(c):
    """Closes the C connection c at once, without waiting for the server's
    goodbye (a connection given up, or dropped unclosed): the socket is shut
    down first, so ix_close has nobody to wait for. A lost session (closed
    reads True, the handle still held) is just freed."""
    if c.closed:
        c.close()
        return
    try:
        fd = _ixdb._aio_wait(c)[0]
        if fd >= 0:
            s = socket.socket(fileno=os.dup(fd))
            try:
                s.shutdown(socket.SHUT_RDWR)
            finally:
                s.close()
    except (OSError, Error):
        pass
    c.close()


def _batch_error(first, row, nfailed, total, errors):
    """The first failure of an executemany, told as ixdb's executemany
    tells it."""
    msg = str(first)
    cut = msg.find(" (batch row ")
    if cut >= 0:
        msg = msg[:cut]
    e = type(first)("%s (executemany: %d of %d rows failed, first row %d)"
                    % (msg, nfailed, total, row))
    for k in ("sqlcode", "isamcode", "sqlstate", "offset", "errcode"):
        setattr(e, k, getattr(first, k))
    e.rowindex = row
    e.errors = errors
    return e


# ---- pool -----------------------------------------------------------------------


class PoolTimeout(OperationalError):
    """No connection became free within the pool's timeout."""


class Pool:
    """A pool of ixdb.aio connections.

    ``min_size`` connections are opened by :meth:`open` (or ``async with
    pool``) and kept; up to ``max_size`` are opened on demand. A checkout
    waits ``timeout`` seconds at most for a free connection (then
    PoolTimeout). A connection idle for more than ``max_idle`` seconds
    (beyond min_size), or older than ``max_lifetime`` seconds, is closed
    instead of being handed out. A connection given back with a transaction
    open is rolled back; a closed or broken one is dropped. The other
    arguments are those of :func:`connect`.

        async with ixdb.aio.create_pool(dsn, max_size=10) as pool:
            async with pool.connection() as conn:
                ...
    """

    def __init__(self, dsn=None, *, min_size=1, max_size=10, timeout=30.0, max_idle=600.0,
                 max_lifetime=3600.0, **connect_kwargs):
        if min_size < 0 or max_size < 1 or min_size > max_size:
            raise ProgrammingError("pool sizes must be 0 <= min_size <= max_size, max_size >= 1")
        self.dsn, self.connect_kwargs = dsn, connect_kwargs
        self.min_size, self.max_size = min_size, max_size
        self.timeout, self.max_idle, self.max_lifetime = timeout, max_idle, max_lifetime
        self._idle = collections.deque()  # (conn, given back at)
        self._size = 0  # open connections, and those being opened
        self._waiters = collections.deque()
        self._born = {}  # id(conn) -> opened at
        self._closed = False
        self._opened = False

    @property
    def size(self):
        return self._size

    @property
    def idle(self):
        return len(self._idle)

    @property
    def closed(self):
        return self._closed

    async def open(self):
        if self._opened:
            return self
        self._opened = True
        conns = await asyncio.gather(*(self._new() for _ in range(self.min_size)))
        now = asyncio.get_running_loop().time()
        self._idle.extend((c, now) for c in conns)
        return self

    async def _new(self):
        self._size += 1
        try:
            conn = await connect(self.dsn, **self.connect_kwargs)
        except BaseException:
            self._size -= 1
            self._wake()
            raise
        self._born[id(conn)] = asyncio.get_running_loop().time()
        return conn

    def _drop(self, conn):
        self._size -= 1
        self._born.pop(id(conn), None)
        _abort(conn._c)
        self._wake()

    def _wake(self):
        while self._waiters:
            w = self._waiters.popleft()
            if not w.done():
                w.set_result(None)
                return

    def _expired(self, conn, now):
        born = self._born.get(id(conn), now)
        return conn.closed or (self.max_lifetime is not None and now - born > self.max_lifetime)

    def _prune(self, now):
        """Closes idle connections past max_idle (keeping min_size) or
        max_lifetime."""
        keep = collections.deque()
        for conn, since in self._idle:
            stale = self.max_idle is not None and now - since > self.max_idle
            if self._expired(conn, now) or (stale and self._size > self.min_size):
                self._drop(conn)
            else:
                keep.append((conn, since))
        self._idle = keep

    async def getconn(self, timeout=None):
        """Checks a connection out (give it back with putconn)."""
        if self._closed:
            raise InterfaceError("the pool is closed")
        if not self._opened:
            await self.open()
        loop = asyncio.get_running_loop()
        timeout = self.timeout if timeout is None else timeout
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            self._prune(loop.time())
            if self._idle:
                return self._idle.pop()[0]  # the most recently used
            if self._size < self.max_size:
                return await self._new()
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                raise PoolTimeout("no connection became free within %g s (max_size %d)"
                                  % (timeout, self.max_size))
            w = loop.create_future()
            self._waiters.append(w)
            try:
                await asyncio.wait_for(w, left)
            except asyncio.TimeoutError:
                pass
            finally:
                if w in self._waiters:
                    self._waiters.remove(w)

    async def putconn(self, conn):
        """Gives a connection back: rolled back if a transaction is open."""
        loop = asyncio.get_running_loop()
        if not conn.closed and conn.in_transaction:
            try:
                await conn.rollback()
            except Error:
                _abort(conn._c)
        if self._closed or self._expired(conn, loop.time()):
            self._drop(conn)
            return
        self._idle.append((conn, loop.time()))
        self._wake()

    def connection(self, timeout=None):
        """``async with pool.connection() as conn:`` checks a connection
        out and gives it back at the end of the block."""
        return _Checkout(self, timeout)

    async def close(self):
        self._closed = True
        while self._idle:
            self._drop(self._idle.popleft()[0])
        for w in self._waiters:
            if not w.done():
                w.set_result(None)

    async def __aenter__(self):
        return await self.open()

    async def __aexit__(self, et, ev, tb):
        await self.close()
        return False


class _Checkout:
    def __init__(self, pool, timeout):
        self.pool, self.timeout, self.conn = pool, timeout, None

    async def __aenter__(self):
        self.conn = await self.pool.getconn(self.timeout)
        return self.conn

    async def __aexit__(self, et, ev, tb):
        conn, self.conn = self.conn, None
        await self.pool.putconn(conn)
        return False


class _PoolStarter:
    """What create_pool returns: awaitable (an open pool) and an async
    context manager (opened, closed at the end)."""

    def __init__(self, pool):
        self.pool = pool

    def __await__(self):
        return self.pool.open().__await__()

    async def __aenter__(self):
        return await self.pool.open()

    async def __aexit__(self, et, ev, tb):
        await self.pool.close()
        return False


def create_pool(dsn=None, **kwargs):
    """``pool = await create_pool(...)`` or ``async with create_pool(...) as
    pool:``; the arguments are those of :class:`Pool`."""
    return _PoolStarter(Pool(dsn, **kwargs))


__all__ = ["connect", "Connection", "Cursor", "Pool", "PoolTimeout", "create_pool",
           "Error", "Warning", "InterfaceError", "DatabaseError", "DataError",
           "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
           "NotSupportedError"]
