"""Many rows in one PostgreSQL statement, whatever their number, so that it is built, compiled and
prepared once. A multi-row VALUES list is a new statement for each count of rows, which psycopg
parses again every time past 50 parameters; an executemany costs psycopg Python work for every row.

Two forms:
- one array parameter a column, zipped into rows by unnest(): for a join (an UPDATE ... FROM, a
  read of many keys); psycopg writes each array out element by element, in Python;
- one JSON array of objects read by json_to_recordset(): for inserting many rows of many columns,
  where the JSON is written by the standard library's C encoder and parsed by PostgreSQL in its own
  process (bench/auction_steps_insert.py: about a third of the worker's CPU of either other way).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date

from sqlalchemy import String, bindparam, cast, column, func
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


def json_recordset(name: str, columns: Columns):
    """A derived table `name` of `columns`, its rows read from the JSON parameter `rows` (an array of
    objects by column name), for an INSERT ... SELECT."""
    return (func.json_to_recordset(cast(bindparam("rows", type_=String), postgresql.JSON))
            .table_valued(*(column(key, kind) for key, kind in columns)).render_derived(with_types=True)
            .alias(name))


def as_json(rows: Sequence[Mapping]) -> dict[str, str]:
    """The parameter of a `json_recordset` for these rows, as they are: json_to_recordset() reads the
    keys its columns name and ignores any other. Dates and times go as ISO 8601, which PostgreSQL
    reads back exactly (an aware time keeps its offset)."""
    return {"rows": json.dumps(list(rows), default=_iso)}


def _iso(value):
    if isinstance(value, date):  # datetimes too
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not written as JSON here")
