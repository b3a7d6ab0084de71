"""The result of one send, whatever the channel, and how an HTTP answer is classified."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# Enough of a receiver's answer to understand a rejection, not enough to bloat the table. The
# sender stops reading an answer here, so a huge or endless body costs nothing.
RESPONSE_BODY_LIMIT = 2048


class Outcome:
    DELIVERED = "delivered"
    REJECTED = "rejected"
    RETRY = "retry"
    # An attempt on record before it is sent; it keeps this outcome only while the send is under
    # way, and becomes UNKNOWN if its worker stopped before the answer was recorded.
    SENDING = "sending"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SendResult:
    outcome: str
    target: str
    duration_ms: int
    status_code: int | None = None
    error: str | None = None
    response_body: str | None = None
    # False when nothing reached the receiver (refused URL, missing setting, a bug building the
    # message): such a failure says nothing about the endpoint's health.
    sent: bool = True

    @property
    def may_have_arrived(self) -> bool:
        return self.sent and may_have_arrived(outcome=self.outcome, status_code=self.status_code, error=self.error)

    @property
    def endpoint_failed(self) -> bool:
        """Whether this answer counts towards pausing the endpoint (the circuit breaker)."""
        if not self.sent:
            return False
        redirected = self.status_code is not None and 300 <= self.status_code < 400
        return self.outcome == Outcome.RETRY or redirected


# Errors of an attempt that never left: a connection that never opened (http_sender formats
# errors as "<exception type>: <message>"), or a message the worker did not send.
NEVER_LEFT = ("ConnectionRefusedError:", "ConnectionError: cannot resolve", "gaierror:",
              "OSError: [Errno 101]", "OSError: [Errno 113]", "not sent:")


def may_have_arrived(*, outcome: str, status_code: int | None, error: str | None) -> bool:
    """Whether an attempt may have reached its receiver: it answered (whatever it answered), or the
    request went out and no answer came (a timeout, a reset, a worker stopped mid-send). Not a
    connection that never opened, nor a message that was never sent."""
    if status_code is not None:
        return True
    return (outcome in (Outcome.RETRY, Outcome.UNKNOWN, Outcome.SENDING)
            and not (error or "").startswith(NEVER_LEFT))


def is_definite(status_code: int | None) -> bool:
    """A receiver's answer that settles a post: a 2xx (taken) or a refusal (4xx other than 408 and
    429). A 5xx, 408, 429 or no answer at all leaves it open: the receiver may have taken it."""
    return status_code is not None and classify_http_status(status_code) != Outcome.RETRY


# A message built and ready: given the seconds left for the attempt, it is sent once and answers;
# it never raises for network trouble.
Send = Callable[[float], SendResult]


def classify_http_status(status_code: int) -> str:
    """2xx delivered; 3xx and 4xx other than 408 and 429 are permanent; anything else is retried.

    A redirect is not followed (the signature and the address check cover one URL), and it will
    not change by waiting: it is the receiver's configuration that needs fixing.
    """
    if 200 <= status_code < 300:
        return Outcome.DELIVERED
    if 300 <= status_code < 400:
        return Outcome.REJECTED
    if 400 <= status_code < 500 and status_code not in (408, 429):
        return Outcome.REJECTED
    return Outcome.RETRY

