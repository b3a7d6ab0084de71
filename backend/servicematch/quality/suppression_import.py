"""Importing a suppression list: the file is read line by line, in batches, never held whole; each
batch is staged in a temporary table and moved into the entries in key order
(quality/suppression_writers.py). An entry already on the list is skipped, so importing the same
file again adds nothing. A line that is no phone, no e-mail or no digest of the named algorithm is
counted (its number kept, the first few shown), never fatal.

Transactions: the caller's connection, committed by the caller (the console: with its audit
entry, all or nothing); `commit_each_batch` commits after every batch and every part of a move
instead (the command on SQLite, so a ten-million-line import never holds SQLite's one writer lock
for long).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain

from sqlalchemy import Connection, Row, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.quality.suppression import (
    ALGORITHMS,
    HEX_LENGTH,
    KINDS,
    Algorithm,
    EntryKind,
    SuppressionEntry,
    SuppressionList,
    list_name,
    normalise,
    sha256_hex,
)
from servicematch.quality.suppression_writers import IMPORTED_AT_ONCE, writer_for

# Lines read per batch: about 25 MB of Python strings at most.
BATCH_LINES = 200_000
# Digests staged before they are moved into the entries (suppression_writers.py): a file of up to
# this many lines is moved once, in key order.
MOVE_ROWS = 20_000_000
BAD_LINES_SHOWN = 10
# Spreadsheet exports quote values and start with a byte-order mark; neither is part of a value.
STRIPPED = " \t\r\n\v\f\"'\ufeff"
NEED_KIND = ("Say whether the list holds phones or e-mails (kind: phone or email): "
             "a new list's kind cannot be read from hashed values.")


@dataclass(frozen=True)
class ImportRequest:
    list_name: str
    # None: plain phones or e-mails (normalised, then kept as SHA-256); else the file's algorithm.
    hashed: str | None = None
    # Needed for a new list of hashed values; read from the first line of a plain file otherwise.
    kind: str | None = None
    buyer_id: str | None = None
    description: str | None = None
    replace: bool = False
    created_by: str = "cli"


@dataclass
class ImportResult:
    list_id: int
    list_name: str
    kind: str
    created: bool
    lines: int = 0
    blank: int = 0
    valid: int = 0
    added: int = 0
    bad: int = 0
    bad_lines: list[int] = field(default_factory=list)
    removed: int = 0
    seconds: float = 0.0

    @property
    def unchanged(self) -> int:
        """Valid lines that added nothing: on the list already, or repeated in the file."""
        return self.valid - self.added

    def note_bad(self, line_number: int) -> None:
        self.bad += 1
        if len(self.bad_lines) < BAD_LINES_SHOWN:
            self.bad_lines.append(line_number)


def _checked(request: ImportRequest) -> ImportRequest:
    if request.hashed is not None and request.hashed not in ALGORITHMS:
        raise ServiceMatchError("hashed is md5 or sha256 (or empty for plain phones or e-mails).",
                                fields={"hashed": "md5 or sha256"}, status_code=422)
    if request.kind is not None and request.kind not in KINDS:
        raise ServiceMatchError("kind is phone or email.", fields={"kind": "phone or email"}, status_code=422)
    return request


def _what(kind: str, hashed: str | None) -> str:
    if hashed:
        name = "an MD5" if hashed == Algorithm.MD5 else "a SHA-256"
        return f"{name} digest ({HEX_LENGTH[hashed]} hexadecimal characters)"
    return "a US phone number (10 digits)" if kind == EntryKind.PHONE else "an e-mail address"


def _first_value(lines: Iterator[str]) -> tuple[str | None, list[str]]:
    """The first non-blank line, and every line read to find it (to be read again)."""
    read: list[str] = []
    for line in lines:
        read.append(line)
        if line.strip(STRIPPED):
            return line.strip(STRIPPED), read
    return None, read


def _open_list(connection: Connection, request: ImportRequest, lines: Iterator[str]
               ) -> tuple[Row | None, str, list[str]]:
    """(the list if it exists, its kind, lines read ahead to tell a new plain list's kind)."""
    name = list_name(request.list_name)
    found = connection.execute(select(SuppressionList.__table__).where(SuppressionList.name == name)).first()
    if found is not None:
        if request.kind is not None and request.kind != found.kind:
            raise ServiceMatchError(f"The list {name} holds {found.kind} entries, not {request.kind} entries.",
                                    fields={"kind": f"this list holds {found.kind} entries"}, status_code=409)
        if request.buyer_id is not None and request.buyer_id != found.buyer_id:
            raise ServiceMatchError(f"The list {name} belongs to another buyer (or to none): choose another name.",
                                    fields={"buyerId": "not this list's buyer"}, status_code=409)
        return found, found.kind, []
    if request.kind is not None:
        return None, request.kind, []
    if request.hashed is not None:
        raise ServiceMatchError(NEED_KIND, fields={"kind": "phone or email"}, status_code=422)
    first, read = _first_value(lines)
    return None, EntryKind.EMAIL if first and "@" in first else EntryKind.PHONE, read


def _create_list(connection: Connection, request: ImportRequest, kind: str) -> int:
    values = {"name": list_name(request.list_name), "kind": kind, "buyer_id": request.buyer_id,
              "description": request.description, "created_at": utcnow(), "created_by": request.created_by,
              "entry_count": 0}
    try:
        return connection.execute(insert(SuppressionList.__table__).values(**values)
                                  .returning(SuppressionList.id)).scalar_one()
    except IntegrityError as clash:  # made by another import since _open_list looked; the caller rolls back
        raise ServiceMatchError(IMPORTED_AT_ONCE, status_code=409) from clash


def _reader(kind: str, hashed: str | None) -> Callable[[str], str | None]:
    """A line's value -> its lower-case hex digest, or None when it is not valid."""
    if hashed:
        valid = re.compile(f"[0-9a-f]{{{HEX_LENGTH[hashed]}}}").fullmatch

        def digest_as_given(value: str) -> str | None:
            value = value.lower()
            return value if valid(value) else None

        return digest_as_given

    def digest_of_plain(value: str) -> str | None:
        normalised = normalise(kind, value)
        return None if normalised is None else sha256_hex(normalised)

    return digest_of_plain


def _digests(lines: Iterable[str], *, kind: str, hashed: str | None, result: ImportResult) -> Iterator[list[str]]:
    """Batches of lower-case hex digests, the lines counted into `result` as they go."""
    read = _reader(kind, hashed)
    batch: list[str] = []
    number = 0
    for number, line in enumerate(lines, 1):
        value = line.strip(STRIPPED)
        if not value:
            result.blank += 1
            continue
        digest = read(value)
        if digest is None:
            result.note_bad(number)
            continue
        batch.append(digest)
        if len(batch) >= BATCH_LINES:
            result.lines = number
            yield batch
            batch = []
    result.lines = number
    if batch:
        yield batch


def remove_entries(connection: Connection, list_id: int) -> int:
    removed = connection.execute(delete(SuppressionEntry).where(SuppressionEntry.list_id == list_id)).rowcount
    connection.execute(update(SuppressionList).where(SuppressionList.id == list_id).values(entry_count=0))
    return removed


def import_list(connection: Connection, lines: Iterable[str], request: ImportRequest, *,
                commit_each_batch: bool = False,
                progress: Callable[[ImportResult], None] | None = None) -> ImportResult:
    """Add the lines' entries to the list (made when new); with `replace`, its entries before are
    removed first (in the same transaction unless `commit_each_batch`)."""
    started = time.monotonic()
    request = _checked(request)
    stream = iter(lines)
    found, kind, read_ahead = _open_list(connection, request, stream)
    list_id = found.id if found is not None else _create_list(connection, request, kind)
    result = ImportResult(list_id=list_id, list_name=list_name(request.list_name), kind=kind,
                          created=found is None)
    if request.replace and found is not None:
        result.removed = remove_entries(connection, list_id)
    if found is not None and request.description:
        connection.execute(update(SuppressionList).where(SuppressionList.id == list_id)
                           .values(description=request.description))
    # SQLite commits batch by batch: a list emptied by --replace is then no longer known to stay empty.
    writer = writer_for(connection, list_id, request.hashed or Algorithm.SHA256,
                        empty=(found is None or request.replace) and not commit_each_batch)

    def moved(added: int) -> None:
        result.added += added
        connection.execute(update(SuppressionList).where(SuppressionList.id == list_id)
                           .values(entry_count=SuppressionList.entry_count + added))
        if commit_each_batch:
            connection.commit()
        report()

    def report() -> None:
        if progress is not None:
            result.seconds = time.monotonic() - started
            progress(result)

    for batch in _digests(chain(read_ahead, stream), kind=kind, hashed=request.hashed, result=result):
        result.valid += len(batch)
        writer.add(batch)
        if writer.pending >= MOVE_ROWS:
            writer.move(moved)
        elif commit_each_batch:
            connection.commit()
        report()
    writer.move(moved)
    writer.close()
    if result.bad and not result.valid:
        # The wrong kind or algorithm, most likely: nothing is kept, not even a new empty list.
        more = ", ..." if result.bad > len(result.bad_lines) else ""
        raise ServiceMatchError(f"None of the {result.bad:,} lines is {_what(kind, request.hashed)} (lines "
                                f"{', '.join(map(str, result.bad_lines))}{more}): nothing was imported.",
                                fields={"content": "no valid line"}, status_code=422)
    if commit_each_batch:
        connection.commit()
    result.seconds = time.monotonic() - started
    return result

