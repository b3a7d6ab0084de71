"""The envelope every lifecycle event shares on its way to a receiver (docs/lead-payload.md):
`lead.matched`, `lead.revoked`, `lead.deleted` and `lead.corrected`."""

from __future__ import annotations

from datetime import UTC, datetime


def event_envelope(event_type: str, *, occurred_at: datetime, data: dict) -> dict:
    """`{"type": ..., "timestamp": <ISO 8601 UTC, when it happened>, "data": {...}}`.

    The time is when the event was recorded, not when a try of it is sent: every retry of one
    message carries the same body.
    """
    moment = occurred_at.replace(tzinfo=UTC) if occurred_at.tzinfo is None else occurred_at.astimezone(UTC)
    timestamp = moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"type": event_type, "timestamp": timestamp, "data": data}
