"""The SQL statements an engine runs while a block runs: for tests that count round trips."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.engine import Engine


@contextmanager
def statements_run(engine: Engine) -> Iterator[list[str]]:
    statements: list[str] = []

    def seen(_connection, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", seen)
