"""The one clock: timezone-aware UTC, so stored times compare the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    return datetime.now(UTC)



def as_utc(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; everything stored here is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)
