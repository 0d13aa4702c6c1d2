"""Row factories for ``Connection.row_factory`` and ``Cursor.row_factory``.

A row factory is any callable ``factory(cursor, row)`` that gets the cursor
and the row as a tuple and returns the object fetch*() hands out. None (the
default) keeps tuples, with no call per row. See docs/python.md.
"""

import builtins as _builtins
import collections as _collections
import functools as _functools

__all__ = ["dict", "namedtuple", "tuple"]


def _names(cursor):
    return [d[0] for d in cursor.description]


def dict(cursor, row):
    """The row as a dict {column name: value} (names as the server gives
    them: lower case unless quoted with DELIMIDENT)."""
    return _builtins.dict(zip(_names(cursor), row))


@_functools.lru_cache(maxsize=128)
def _row_class(names):
    # rename=True: names that are not identifiers (expressions such as
    # "(count(*))", duplicates) become _0, _1, ...
    return _collections.namedtuple("Row", names, rename=True)


def namedtuple(cursor, row):
    """The row as a named tuple (attribute access by column name; a column
    whose name is not a valid identifier is reached as _<index>)."""
    return _row_class(_builtins.tuple(_names(cursor)))._make(row)


def tuple(cursor, row):
    """The row unchanged (the same as row_factory = None, with a call)."""
    return row
