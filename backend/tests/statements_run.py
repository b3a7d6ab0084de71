"""The SQL statements an engine runs while a block runs: for tests that count round trips, and
for tests that find statements compiled again for every execution."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import CacheStats


@contextmanager
def _listening(engine: Engine, name: str, listener: Callable) -> Iterator[None]:
    event.listen(engine, name, listener)
    try:
        yield
    finally:
        event.remove(engine, name, listener)


@contextmanager
def statements_run(engine: Engine) -> Iterator[list[str]]:
    statements: list[str] = []

    def seen(_connection, _cursor, statement, *_args) -> None:
        statements.append(statement)

    with _listening(engine, "before_cursor_execute", seen):
        yield statements


@contextmanager
def statements_uncached(engine: Engine) -> Iterator[list[str]]:
    """The statements run while a block runs that SQLAlchemy could not cache, so compiled them again
    for every execution: a statement with no cache key, such as a multi-row VALUES built from data."""
    uncached: list[str] = []

    def seen(_connection, _cursor, statement, _parameters, context, _executemany) -> None:
        if context is not None and context.cache_hit in (CacheStats.NO_CACHE_KEY, CacheStats.CACHING_DISABLED):
            uncached.append(statement)

    with _listening(engine, "after_cursor_execute", seen):
        yield uncached
