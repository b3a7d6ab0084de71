"""How an import's digests reach `suppression_entries` on each database.

Digests are uniformly spread, so any batch of them lands all over the entries' primary key: written
batch by batch, a ten-million-entry list would rewrite every page of the key once per batch (on
SQLite, through its write-ahead log, once per commit). Instead the batches are staged in a
temporary table, and moved into the entries in key order, so that each page is written once:

- PostgreSQL: each batch is COPYed into the temporary table; a move is one INSERT ... SELECT ...
  ORDER BY digest ON CONFLICT DO NOTHING, in the caller's transaction. Into a list that had no
  entries (new, or emptied by --replace), the first move is a SELECT DISTINCT and a plain INSERT:
  ON CONFLICT's speculative insertion would double its cost, and nothing can conflict but another
  import into the same list at the same moment, which is refused (409).
- SQLite: each batch is appended to the temporary table (executemany); a move indexes it (one
  sort) and then copies it range of digests by range, INSERT OR IGNORE, each range of about
  CHUNK_ROWS its own transaction when the caller commits batch by batch, so SQLite's one writer
  lock is never held for long.

Either way an entry already on the list is skipped, and the temporary table is gone afterwards.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import psycopg
from sqlalchemy import Connection

from servicematch.errors import ServiceMatchError

TEMPORARY_TABLE = "suppression_import"
BYTEA_PREFIX = "\\\\x"
# PostgreSQL: the memory a move's sort may use, for the rest of the transaction (about 60 bytes a row).
SORT_MEMORY = "256MB"
# SQLite: entries moved per range (a transaction each when the import commits batch by batch).
CHUNK_ROWS = 200_000
# Ranges are cut on the first two bytes of the digest.
PREFIXES = 1 << 16

IMPORTED_AT_ONCE = "Another import wrote to this list at the same moment; nothing was imported: import again."
# Called after each part of a move with the entries it added; it may commit.
Moved = Callable[[int], None]


class PostgresWriter:
    def __init__(self, connection: Connection, list_id: int, algorithm: str, *, empty: bool) -> None:
        self.raw = connection.connection.driver_connection
        self.list_id, self.algorithm = list_id, algorithm
        self.pending = 0
        self.empty = empty
        with self.raw.cursor() as cursor:
            # A session's temporary table outlives its transactions: one an earlier import on this
            # pooled connection left behind (it failed after a commit) starts empty.
            cursor.execute(f"CREATE TEMPORARY TABLE IF NOT EXISTS {TEMPORARY_TABLE} (digest bytea)")
            cursor.execute(f"TRUNCATE {TEMPORARY_TABLE}")

    def add(self, digests: list[str]) -> None:
        with self.raw.cursor() as cursor, cursor.copy(f"COPY {TEMPORARY_TABLE} (digest) FROM STDIN") as copy:
            # bytea's hex input, \x then the digits; COPY's text format wants its backslash doubled.
            copy.write(BYTEA_PREFIX + f"\n{BYTEA_PREFIX}".join(digests) + "\n")
        self.pending += len(digests)

    def move(self, moved: Moved) -> None:
        if not self.pending:
            return
        distinct = "DISTINCT " if self.empty else ""
        select = f"SELECT {distinct}%s, digest, %s FROM {TEMPORARY_TABLE} ORDER BY 2"
        conflict = "" if self.empty else " ON CONFLICT DO NOTHING"
        with self.raw.cursor() as cursor:
            cursor.execute(f"SET LOCAL work_mem = '{SORT_MEMORY}'")
            try:
                cursor.execute(f"INSERT INTO suppression_entries (algorithm, digest, list_id) {select}{conflict}",
                               (self.algorithm, self.list_id))
            except psycopg.errors.UniqueViolation as clash:
                raise ServiceMatchError(IMPORTED_AT_ONCE, status_code=409) from clash
            added = cursor.rowcount
            cursor.execute(f"TRUNCATE {TEMPORARY_TABLE}")
        self.empty = False
        self.pending = 0
        moved(added)

    def close(self) -> None:
        with self.raw.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {TEMPORARY_TABLE}")


class SQLiteWriter:
    def __init__(self, connection: Connection, list_id: int, algorithm: str, *, empty: bool) -> None:
        self.connection, self.list_id, self.algorithm = connection, list_id, algorithm
        self.pending = 0
        # A connection's temporary tables outlive its transactions: one an earlier import left
        # behind (it failed half-way) starts empty.
        connection.exec_driver_sql(f"DROP TABLE IF EXISTS temp.{TEMPORARY_TABLE}")
        connection.exec_driver_sql(f"CREATE TEMPORARY TABLE {TEMPORARY_TABLE} (digest BLOB NOT NULL)")

    def add(self, digests: list[str]) -> None:
        self.connection.exec_driver_sql(f"INSERT INTO temp.{TEMPORARY_TABLE} (digest) VALUES (?)",
                                        [(bytes.fromhex(digest),) for digest in digests])
        self.pending += len(digests)

    def move(self, moved: Moved) -> None:
        if not self.pending:
            return
        self.connection.exec_driver_sql(f"CREATE INDEX temp.ix_{TEMPORARY_TABLE} ON {TEMPORARY_TABLE} (digest)")
        ranges = max(1, min(PREFIXES, math.ceil(self.pending / CHUNK_ROWS)))
        bounds = [(n * PREFIXES // ranges).to_bytes(2, "big") for n in range(1, ranges)]
        for low, high in zip([None, *bounds], [*bounds, None], strict=True):
            where = " AND ".join(f"digest {op} ?" for bound, op in ((low, ">="), (high, "<")) if bound is not None)
            parameters = [bound for bound in (low, high) if bound is not None]
            added = self.connection.exec_driver_sql(
                f"INSERT OR IGNORE INTO suppression_entries (algorithm, digest, list_id) "
                f"SELECT ?, digest, ? FROM temp.{TEMPORARY_TABLE} {'WHERE ' + where if where else ''} "
                f"ORDER BY digest", (self.algorithm, self.list_id, *parameters)).rowcount
            moved(added)
        self.connection.exec_driver_sql(f"DROP TABLE temp.{TEMPORARY_TABLE}")
        self.connection.exec_driver_sql(f"CREATE TEMPORARY TABLE {TEMPORARY_TABLE} (digest BLOB NOT NULL)")
        self.pending = 0

    def close(self) -> None:
        self.connection.exec_driver_sql(f"DROP TABLE IF EXISTS temp.{TEMPORARY_TABLE}")


def writer_for(connection: Connection, list_id: int, algorithm: str, *, empty: bool
               ) -> PostgresWriter | SQLiteWriter:
    """`empty`: the list has no entries (it is new, or its entries were removed in this transaction)."""
    kind = PostgresWriter if connection.dialect.name == "postgresql" else SQLiteWriter
    return kind(connection, list_id, algorithm, empty=empty)
