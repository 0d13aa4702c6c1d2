"""File-like streams on smart LOBs (BLOB, CLOB): ixdb.LobStream.

The C extension opens the LO (Cursor.lob_open, Connection.lob_open,
Connection.lob_create) and hands its handle to _wrap; the bytes move in
the handle's methods, with the GIL released. See docs/python.md, "Smart
LOBs".
"""

import io

from ._ixdb import BLOB, CLOB, LO_APPEND, LO_RDONLY, LO_RDWR, LO_WRONLY, NotSupportedError

_FIRST_PIECE = 64 << 10  # readall without the size: the first piece, doubled each time
_LAST_PIECE = 8 << 20  # ... up to this


class LobStream(io.RawIOBase):
    """A smart LOB opened as a raw binary stream (io.RawIOBase): read,
    readinto, write, seek, tell, size, close; a context manager.

    ``locator`` is its ixdb.Locator (bind it, or bind the stream itself,
    to keep a new LOB in a row); ``type`` is ixdb.BLOB or ixdb.CLOB."""

    def __init__(self, handle):
        super().__init__()
        self._h = handle

    # ---- state --------------------------------------------------------------

    @property
    def closed(self):
        return self._h.closed or super().closed

    def readable(self):
        self._checkClosed()
        return not self._h.flags & LO_WRONLY

    def writable(self):
        self._checkClosed()
        return bool(self._h.flags & (LO_WRONLY | LO_RDWR))

    def seekable(self):
        self._checkClosed()
        return True

    @property
    def locator(self):
        return self._h.locator

    @property
    def type(self):
        return self._h.locator.type

    @property
    def mode(self):
        f = self._h.flags
        if f & LO_RDWR:
            return "a+b" if f & LO_APPEND else "r+b"
        if f & LO_WRONLY:
            return "ab" if f & LO_APPEND else "wb"
        return "rb"

    def _need(self, ok, what):
        self._checkClosed()
        if not ok():
            raise io.UnsupportedOperation("the LOB stream is not open for %s" % what)

    # ---- bytes --------------------------------------------------------------

    def readinto(self, b):
        self._need(self.readable, "reading")
        return self._h.readinto(b)

    def read(self, size=-1):
        self._need(self.readable, "reading")
        if size is None or size < 0:
            return self.readall()
        return self._h.read(size)

    def readall(self):
        """The rest of the LOB: one piece of its remaining size when the
        server tells sizes (ixd), else pieces that grow until one comes
        back short (a server without ifx_lo_size)."""
        self._need(self.readable, "reading")
        try:
            parts = [self._h.read(max(self._h.size() - self._h.tell(), 0))]
            piece = io.DEFAULT_BUFFER_SIZE
        except NotSupportedError:
            parts, piece = [], _FIRST_PIECE
        while True:  # the LOB may have grown meanwhile
            more = self._h.read(piece)
            if more:
                parts.append(more)
            if len(more) < piece:
                break
            piece = min(piece * 2, _LAST_PIECE)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def write(self, b):
        self._need(self.writable, "writing")
        return self._h.write(b)

    def seek(self, offset, whence=io.SEEK_SET):
        self._checkClosed()
        return self._h.seek(offset, whence)

    def tell(self):
        self._checkClosed()
        return self._h.tell()

    def size(self):
        """The LOB's size in bytes (one round trip). NotSupportedError on a
        server other than ixd (no public source shows ifx_lo_size there)."""
        self._checkClosed()
        return self._h.size()

    def truncate(self, size=None):
        raise io.UnsupportedOperation("a smart LOB cannot be truncated")

    def close(self):
        if not self._h.closed:
            try:
                self._h.close()
            finally:
                super().close()
        else:
            super().close()

    def __enter__(self):
        self._checkClosed()
        return self

    def __exit__(self, exc_type=None, exc_value=None, traceback=None):
        self.close()

    def __repr__(self):
        state = "closed" if self.closed else self.mode
        return "<ixdb.LobStream %s %s>" % ("CLOB" if self._h_type() == CLOB else "BLOB", state)

    def _h_type(self):
        try:
            return self._h.locator.type
        except ValueError:
            return BLOB


LobStream.__module__ = "ixdb"


def _wrap(handle, mode, encoding, text):
    raw = LobStream(handle)
    if not text:
        return raw
    if "+" in mode:
        buf = io.BufferedRandom(raw)
    elif handle.flags == LO_RDONLY:
        buf = io.BufferedReader(raw)
    else:
        buf = io.BufferedWriter(raw)
    return io.TextIOWrapper(buf, encoding=encoding, errors="surrogateescape")


def _is_text(obj):
    return isinstance(obj, io.TextIOBase)
