"""Many rows in one PostgreSQL statement: one array parameter a column, zipped into rows by unnest().

The statement is the same whatever the number of rows, so it is built, compiled and prepared once,
and the driver adapts each array in one go. A multi-row VALUES list is a new statement for each
count of rows, which psycopg parses again every time past 50 parameters; an executemany costs
psycopg Python work for every row. Where a batch writes or reads many rows, this costs neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import bindparam, column, func
from sqlalchemy.dialects import postgresql
from sqlalchemy.types import TypeEngine

Columns = Sequence[tuple[str, type[TypeEngine] | TypeEngine]]


def unnested(name: str, columns: Columns):
    """A derived table `name` of `columns`, its rows zipped from the array parameters `<column>s`
    (a row a position), for a FROM, a join or an INSERT ... SELECT."""
    return (func.unnest(*(bindparam(f"{key}s", type_=postgresql.ARRAY(kind)) for key, kind in columns))
            .table_valued(*(column(key, kind) for key, kind in columns)).render_derived().alias(name))


def as_arrays(rows: Sequence[Mapping], columns: Columns) -> dict[str, list]:
    """The parameters of `unnested(..., columns)` for these rows (mappings by column name)."""
    return {f"{key}s": [row[key] for row in rows] for key, _ in columns}
