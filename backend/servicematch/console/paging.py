"""Cursors and date formats shared by the console's lists."""

from __future__ import annotations

import base64
import binascii
import re
from datetime import date, datetime

from sqlalchemy import func
from sqlalchemy.orm import Session

from servicematch.errors import ServiceMatchError
from servicematch.events.rollup import day_start
from servicematch.kernel.clock import as_utc

__all__ = ["day_start"]

BAD_CURSOR = "The cursor is not valid; start again from the first page."
MAX_LIMIT = 200
# A row id: 18 digits at most, so it fits a 64-bit integer on both databases (more overflowed).
INT_CURSOR = re.compile(r"[0-9]{1,18}")
INT_CURSOR_PATTERN = r"^[0-9]{0,18}$"
# The one form of a day the console's filters take (RFC 3339's full-date), or nothing; the OpenAPI
# schema says the same (json_schema_extra of their query parameters).
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
EARLIEST_DAY, LATEST_DAY = date(1900, 1, 1), date(9000, 12, 31)
DAY_SCHEMA = {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "maxLength": 0}]}


def iso(value: datetime | None) -> str | None:
    value = as_utc(value)
    return value.isoformat(timespec="seconds").replace("+00:00", "Z") if value else None


def decode_int_cursor(cursor: str | None) -> int | None:
    if not cursor:
        return None
    if not INT_CURSOR.fullmatch(cursor):
        raise ServiceMatchError(BAD_CURSOR, fields={"cursor": "invalid"}, status_code=422)
    return int(cursor)


def encode_position(created_at: datetime, row_id: str) -> str:
    """(time, id) of the last row shown: the next page starts strictly after it."""
    text = f"{as_utc(created_at).isoformat()}|{row_id}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_position(cursor: str | None) -> tuple[datetime, str] | None:
    if not cursor:
        return None
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        moment, row_id = text.split("|", 1)
        return as_utc(datetime.fromisoformat(moment)), row_id
    except (binascii.Error, ValueError, UnicodeDecodeError) as exc:
        raise ServiceMatchError(BAD_CURSOR, fields={"cursor": "invalid"}, status_code=422) from exc


def parse_day(value: str | None, name: str) -> date | None:
    if not value:
        return None
    try:
        if not DAY.fullmatch(value):
            raise ValueError(value)  # fromisoformat also reads 20261123 and 2026-W48-1
        day = date.fromisoformat(value)
    except ValueError as exc:
        raise ServiceMatchError(f"{name} must be a date like 2026-11-23.", fields={name: "invalid date"},
                                status_code=422) from exc
    # No lead is older than EARLIEST_DAY or newer than LATEST_DAY: a day beyond them selects what the
    # nearest one does, and the filters' day arithmetic (a day after, 30 days before) stays in range.
    return min(max(day, EARLIEST_DAY), LATEST_DAY)


def day_of(session: Session, column):
    """The UTC calendar day of a timestamp, on either database."""
    if session.bind.dialect.name == "postgresql":
        return func.date(func.timezone("UTC", column))
    return func.date(column)
