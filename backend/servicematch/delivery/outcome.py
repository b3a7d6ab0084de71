"""The result of one send, whatever the channel, and how an HTTP answer is classified."""

from __future__ import annotations

from dataclasses import dataclass

# Enough of a receiver's answer to understand a rejection, not enough to bloat the table.
RESPONSE_BODY_LIMIT = 2048


class Outcome:
    DELIVERED = "delivered"
    REJECTED = "rejected"
    RETRY = "retry"


@dataclass(frozen=True)
class SendResult:
    outcome: str
    target: str
    duration_ms: int
    status_code: int | None = None
    error: str | None = None
    response_body: str | None = None


def classify_http_status(status_code: int) -> str:
    """2xx delivered; 4xx other than 408 and 429 is a permanent no; anything else is retried."""
    if 200 <= status_code < 300:
        return Outcome.DELIVERED
    if 400 <= status_code < 500 and status_code not in (408, 429):
        return Outcome.REJECTED
    return Outcome.RETRY


def cap_body(text: str | None) -> str | None:
    if text is None:
        return None
    return text[:RESPONSE_BODY_LIMIT]
