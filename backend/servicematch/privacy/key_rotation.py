"""Re-encrypting stored personal data under the current data key, in batches, while the site runs.

Each value names the key that made it (kernel/crypto.py), so what is left to do is every value
not under the current key: no progress table. A column is walked in primary-key order; a batch
is read in one short transaction, re-encrypted outside any, and written in another short
transaction that changes a row only if it still holds the value read (a row erased or corrected
meanwhile was written under the current key already). Intake only inserts leads, so it never
waits for these row locks. A rotation killed at any point resumes where it stopped: the next run
finds only what is not done yet.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from cryptography.exceptions import InvalidTag
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    LargeBinary,
    Table,
    and_,
    bindparam,
    case,
    func,
    literal,
    select,
    text,
    update,
)

from servicematch.intake.models import Lead
from servicematch.kernel.crypto import (
    HEADER_BYTES,
    UNKEYED_FORMAT,
    DataCipher,
    DataKeyError,
    made_by,
)
from servicematch.privacy.models import PrivacyRequest

# Passes over a column while the last one re-encrypted something and values are still left
# (written meanwhile by a process that still had the earlier key as its current one).
MAX_PASSES = 3
# Recent leads whose phone's lookup hash is recomputed to check the lookup key.
LOOKUP_SAMPLE = 20


@dataclass(frozen=True)
class EncryptedColumn:
    """A column of values encrypted with the data key, each bound to `name_prefix` + its row's id."""

    table: Table
    column: str
    name_prefix: str

    @property
    def label(self) -> str:
        return f"{self.table.name}.{self.column}"

    @property
    def value(self) -> Column:
        return self.table.c[self.column]

    @property
    def row_id(self) -> Column:
        [key] = self.table.primary_key.columns
        return key


# What this room encrypts: leads' personal data and the text of privacy corrections. The TOTP
# seeds of operators and portal accounts belong to later rooms (ops/key_commands.py lists them).
LEAD_PERSONAL_DATA = EncryptedColumn(Lead.__table__, "personal_data", "")
PRIVACY_CORRECTIONS = EncryptedColumn(PrivacyRequest.__table__, "details", "privacy-request:")
PRIVACY_COLUMNS = (LEAD_PERSONAL_DATA, PRIVACY_CORRECTIONS)


def _header(column: EncryptedColumn):
    return func.substr(column.value, 1, HEADER_BYTES)


def count_by_key(engine: Engine, column: EncryptedColumn) -> Counter[bytes | None]:
    """How many values each key made (None: written before key ids)."""
    made = case((func.substr(column.value, 1, 1) == literal(UNKEYED_FORMAT, LargeBinary), literal(b"", LargeBinary)),
                else_=_header(column))
    with engine.connect() as connection:
        rows = connection.execute(select(made, func.count()).where(column.value.is_not(None)).group_by(made)).all()
    return Counter({(made_by(head) if head else None): count for head, count in rows})


def pending(engine: Engine, column: EncryptedColumn, cipher: DataCipher) -> int:
    """Values not under the current key."""
    with engine.connect() as connection:
        return connection.scalar(select(func.count()).select_from(column.table).where(_not_current(column, cipher)))


def _not_current(column: EncryptedColumn, cipher: DataCipher):
    return and_(column.value.is_not(None), _header(column) != literal(cipher.header, LargeBinary))


@dataclass
class Batch:
    """One batch's outcome: the last row id read, rows rewritten, rows changed by someone else
    meanwhile (left alone: already under the current key), ids that no configured key reads."""

    last_id: str | None
    rotated: int = 0
    changed_meanwhile: int = 0
    unreadable: list[str] = field(default_factory=list)


def rotate_batch(engine: Engine, column: EncryptedColumn, cipher: DataCipher, *, after: str, size: int) -> Batch:
    """Re-encrypt the next `size` values after row id `after` that are not under the current key."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(column.row_id, column.value).where(column.row_id > after, _not_current(column, cipher))
            .order_by(column.row_id).limit(size)).all()
    batch = Batch(last_id=rows[-1][0] if rows else None)
    changes = []
    for row_id, blob in rows:
        try:
            changes.append({"row": row_id, "old": blob, "new": cipher.reseal(blob, column.name_prefix + row_id)})
        except (DataKeyError, InvalidTag):
            batch.unreadable.append(row_id)
    if changes:
        with engine.begin() as connection:
            batch.rotated = _write(connection, column, changes)
        batch.changed_meanwhile = len(changes) - batch.rotated
    return batch


def _write(connection: Connection, column: EncryptedColumn, changes: list[dict]) -> int:
    """Each row's new value where it still holds the old one; how many rows changed."""
    if connection.dialect.name == "postgresql":
        # One statement for the batch (arrays unnested), not one per row: a round trip and a
        # statement each made writing a batch cost ten times as much as reading it.
        quote = connection.dialect.identifier_preparer.quote
        table, value, key = quote(column.table.name), quote(column.column), quote(column.row_id.name)
        key_type = column.row_id.type.compile(connection.dialect)
        statement = text(
            f"UPDATE {table} AS stored SET {value} = given.new FROM unnest(CAST(:rows AS {key_type}[]), "
            "CAST(:olds AS bytea[]), CAST(:news AS bytea[])) AS given(row_id, old, new) "
            f"WHERE stored.{key} = given.row_id AND stored.{value} = given.old")
        # Each row through the primary key: on a small table the planner would rather hash it
        # whole, once per batch, which grows with the table. And no wait for the commit's flush: a
        # batch a crash loses is still under the earlier key, which still reads it, and the next
        # run re-encrypts it.
        for setting in ("enable_hashjoin = off", "enable_mergejoin = off", "synchronous_commit = off"):
            connection.exec_driver_sql(f"SET LOCAL {setting}")
        return connection.execute(statement, {name: [change[field] for change in changes] for name, field in
                                              (("rows", "row"), ("olds", "old"), ("news", "new"))}).rowcount
    statement = (update(column.table).where(column.row_id == bindparam("row"), column.value == bindparam("old"))
                 .values({column.column: bindparam("new")}))
    return connection.execute(statement, changes).rowcount


def rotate_column(engine: Engine, column: EncryptedColumn, cipher: DataCipher, *, batch_size: int,
                  pause_seconds: float = 0.0, on_batch: Callable[[Batch], None] = lambda _batch: None) -> list[str]:
    """Re-encrypt every value of the column not under the current key; the ids no configured key reads."""
    unreadable: list[str] = []
    for _ in range(MAX_PASSES):
        rotated, unreadable, after = 0, [], ""
        while True:
            batch = rotate_batch(engine, column, cipher, after=after, size=batch_size)
            if batch.last_id is None:
                break
            rotated += batch.rotated
            unreadable += batch.unreadable
            after = batch.last_id
            on_batch(batch)
            if pause_seconds:
                time.sleep(pause_seconds)
        if not rotated or pending(engine, column, cipher) <= len(unreadable):
            break
    return unreadable


@dataclass
class Progress:
    """Rows done of rows to do, the rate so far and what it gives as the time left."""

    to_do: int
    done: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds > 0 else 0.0

    @property
    def seconds_left(self) -> float | None:
        return max(0, self.to_do - self.done) / self.rate if self.rate else None


@dataclass(frozen=True)
class LookupCheck:
    """Of the recent leads that still hold a phone number (`sampled`), how many have the phone hash
    each candidate lookup key gives, by the id of the data key it derives from."""

    sampled: int
    agreeing: Counter[bytes]


def check_lookup_keys(engine: Engine, cipher: DataCipher, candidates: dict[bytes, bytes]) -> LookupCheck:
    """Recompute recent leads' phone hashes with each candidate lookup key: the key in use shows itself."""
    leads = Lead.__table__.c  # the table's columns: no ORM mapping to configure in a command of its own
    with engine.connect() as connection:
        rows = connection.execute(
            select(leads.id, leads.personal_data, leads.phone_hash)
            .where(leads.phone_hash.is_not(None), leads.email_hash.is_not(None))  # an erased lead has no e-mail hash
            .order_by(leads.created_at.desc()).limit(LOOKUP_SAMPLE)).all()
    sampled, agreeing = 0, Counter()
    for lead_id, blob, stored in rows:
        try:
            phone = cipher.decrypt(blob, lead_id=lead_id).get("contact", {}).get("phone")
        except (DataKeyError, InvalidTag, ValueError):
            continue
        if phone:
            sampled += 1
            agreeing.update(key_id for key_id, lookup_key in candidates.items()
                            if replace(cipher, lookup_key=lookup_key).lookup_hash("phone", phone) == stored)
    return LookupCheck(sampled=sampled, agreeing=agreeing)
