"""SQLAlchemy dialect for Informix on the ixdb driver.

    engine = sqlalchemy.create_engine(
        "informix+ixdb://informix:in4mix@127.0.0.1:9088/shop?server=ixd")

Importing ixdb.sqlalchemy registers the dialect under ``informix+ixdb``
(and ``informix``, ixdb being its default driver) with
``sqlalchemy.dialects.registry``; an installed ixdb also declares it as a
``sqlalchemy.dialects`` entry point, so the URL works without the import.
See docs/python.md "SQLAlchemy".
"""

from sqlalchemy.dialects import registry as _registry

from .base import (  # noqa: F401
    BIGSERIAL,
    BOOLEAN,
    BYTE,
    DATETIME,
    INT8,
    INTERVAL,
    LVARCHAR,
    MONEY,
    NCHAR,
    NVARCHAR,
    SERIAL,
    SERIAL8,
    SMALLFLOAT,
    TEXT,
    IxdbDialect,
    dialect,
)

_registry.register("informix.ixdb", "ixdb.sqlalchemy.base", "IxdbDialect")
_registry.register("informix", "ixdb.sqlalchemy.base", "IxdbDialect")

__all__ = ["IxdbDialect", "dialect", "BIGSERIAL", "BOOLEAN", "BYTE", "DATETIME", "INT8",
           "INTERVAL", "LVARCHAR", "MONEY", "NCHAR", "NVARCHAR", "SERIAL", "SERIAL8",
           "SMALLFLOAT", "TEXT"]
