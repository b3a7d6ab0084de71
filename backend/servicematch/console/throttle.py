"""Sign-in throttling, counted from the audit log's recent failures.

The log is shared by every web process and survives restarts, so the limit holds however
many processes serve the console; failures are what count, so an operator who signs in
correctly is never slowed down by their own successes.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.console.audit import Action
from servicematch.console.models import AuditEntry
from servicematch.delivery.models import as_utc
from servicematch.errors import ServiceMatchError
from servicematch.settings import Settings


def _wait(session: Session, *, column, value: str, limit: int, since: datetime, window: timedelta,
          now: datetime) -> float:
    """Seconds until fewer than `limit` failures for this value remain in the window (0: none)."""
    count, oldest = session.execute(
        select(func.count(), func.min(AuditEntry.at))
        .where(AuditEntry.action == Action.SIGN_IN_FAILED, column == value, AuditEntry.at > since)
    ).one()
    if count < limit:
        return 0.0
    if count > limit:
        # Only the failures beyond the limit must age out; find when the last of those does.
        nth = session.scalars(
            select(AuditEntry.at)
            .where(AuditEntry.action == Action.SIGN_IN_FAILED, column == value, AuditEntry.at > since)
            .order_by(AuditEntry.at.desc()).offset(limit - 1).limit(1)
        ).first()
        oldest = nth or oldest
    return max(1.0, (as_utc(oldest) + window - now).total_seconds())


def enforce_signin_throttle(session: Session, settings: Settings, *, email: str, ip: str,
                            now: datetime) -> None:
    """429 with Retry-After when this account or this address failed too often lately."""
    window = timedelta(seconds=settings.console_signin_window_seconds)
    since = now - window
    wait = max(
        _wait(session, column=AuditEntry.target, value=email, since=since, window=window, now=now,
              limit=settings.console_signin_failures_per_account),
        _wait(session, column=AuditEntry.ip, value=ip, since=since, window=window, now=now,
              limit=settings.console_signin_failures_per_address),
    )
    if wait > 0:
        minutes = math.ceil(wait / 60)
        raise ServiceMatchError(
            f"Too many failed sign-in attempts. Try again in {minutes} minute{'s' if minutes != 1 else ''}.",
            status_code=429, headers={"Retry-After": str(math.ceil(wait))},
        )
