"""The one clock: timezone-aware UTC, so stored times compare the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    return datetime.now(UTC)

