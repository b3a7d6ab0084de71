"""Sign-in throttling, counted from the audit log's recent failures.

The log is shared by every web process and survives restarts, so the limit holds however
many processes serve sign-ins; failures are what count, so a person who signs in correctly is
never slowed down by their own successes. The console and the portal each count their own
failure action.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.access.models import AuditEntry
from servicematch.errors import ServiceMatchError


@dataclass(frozen=True)
class Throttle:
    failure_action: str  # the audit action of a failed sign-in
    per_account: int
    per_address: int
    window: timedelta


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _wait(session: Session, *, action: str, column, value: str, limit: int, since: datetime,
          window: timedelta, now: datetime) -> float:
    """Seconds until fewer than `limit` failures for this value remain in the window (0: none)."""
    failures = (AuditEntry.action == action, column == value, AuditEntry.at > since)
    count, oldest = session.execute(select(func.count(), func.min(AuditEntry.at)).where(*failures)).one()
    if count < limit:
        return 0.0
    if count > limit:
        # Only the failures beyond the limit must age out; find when the last of those does.
        nth = session.scalars(select(AuditEntry.at).where(*failures)
                              .order_by(AuditEntry.at.desc()).offset(limit - 1).limit(1)).first()
        oldest = nth or oldest
    return max(1.0, (_aware(oldest) + window - now).total_seconds())


def enforce_signin_throttle(session: Session, throttle: Throttle, *, email: str, ip: str, now: datetime) -> None:
    """429 with Retry-After when this account or this address failed too often lately."""
    since = now - throttle.window
    common = {"action": throttle.failure_action, "since": since, "window": throttle.window, "now": now}
    wait = max(_wait(session, column=AuditEntry.target, value=email, limit=throttle.per_account, **common),
               _wait(session, column=AuditEntry.ip, value=ip, limit=throttle.per_address, **common))
    if wait > 0:
        minutes = math.ceil(wait / 60)
        raise ServiceMatchError(
            f"Too many failed sign-in attempts. Try again in {minutes} minute{'s' if minutes != 1 else ''}.",
            status_code=429, headers={"Retry-After": str(math.ceil(wait))},
        )
