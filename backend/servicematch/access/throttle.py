"""Sign-in throttling, counted from the audit log's recent failures.

The log is shared by every web process and survives restarts, so the limit holds however
many processes serve sign-ins; failures are what count, so a person who signs in correctly is
never slowed down by their own successes. The console and the portal each count their own
failure action.

A stranger's guesses lock an account for everyone without its known-device cookie
(access/devices.py): a browser that signed in to the account before is judged only by its own
failures, so whoever knows an e-mail address cannot keep its owner out. The lockout's answer
offers an e-mailed sign-in link (access/links.py) for the owner on another device.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.access.models import AuditEntry
from servicematch.errors import ServiceMatchError

# The failure detail that names the known device (or the sign-in link) a failure came through.
DEVICE = "device"
LINK = "link"


@dataclass(frozen=True)
class Throttle:
    failure_action: str  # the audit action of a failed sign-in
    per_account: int
    per_address: int
    window: timedelta
    per_device: int  # failures of one known device (and wrong codes through one sign-in link)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _wait(session: Session, *conditions, action: str, limit: int, since: datetime, window: timedelta,
          now: datetime) -> float:
    """Seconds until fewer than `limit` failures matching `conditions` remain in the window (0: none)."""
    failures = (AuditEntry.action == action, AuditEntry.at > since, *conditions)
    count, oldest = session.execute(select(func.count(), func.min(AuditEntry.at)).where(*failures)).one()
    if count < limit:
        return 0.0
    if count > limit:
        # Only the failures beyond the limit must age out; find when the last of those does.
        nth = session.scalars(select(AuditEntry.at).where(*failures)
                              .order_by(AuditEntry.at.desc()).offset(limit - 1).limit(1)).first()
        oldest = nth or oldest
    return max(1.0, (_aware(oldest) + window - now).total_seconds())


def _common(throttle: Throttle, now: datetime) -> dict:
    return {"action": throttle.failure_action, "since": now - throttle.window, "window": throttle.window, "now": now}


def lockout_wait(session: Session, throttle: Throttle, *, email: str, ip: str, now: datetime) -> float:
    """Seconds until a sign-in to this account from this address is heard again (0: now)."""
    common = _common(throttle, now)
    return max(_wait(session, AuditEntry.target == email, limit=throttle.per_account, **common),
               _wait(session, AuditEntry.ip == ip, limit=throttle.per_address, **common))


def own_failures_wait(session: Session, throttle: Throttle, *, email: str, through: str, key: str,
                      now: datetime) -> float:
    """Seconds until one known device (key DEVICE) or one sign-in link (key LINK) of this account may
    try again. The account's own rows are found by the index first; the detail only sorts them."""
    return _wait(session, AuditEntry.target == email, AuditEntry.detail[key].as_string() == through,
                 limit=throttle.per_device, **_common(throttle, now))


def too_many(wait: float) -> ServiceMatchError:
    minutes = math.ceil(wait / 60)
    return ServiceMatchError(
        f"Too many failed sign-in attempts. Try again in {minutes} minute{'s' if minutes != 1 else ''}, "
        "or have a sign-in link e-mailed to you.",
        status_code=429, headers={"Retry-After": str(math.ceil(wait))},
    )


def enforce_signin_throttle(session: Session, throttle: Throttle, *, email: str, ip: str, now: datetime,
                            device: str | None = None) -> bool:
    """429 with Retry-After when this account or this address failed too often lately; for a known
    `device` of the account, when that device did. True when a known device goes past a lockout
    that holds for everyone else (the sign-in then says so in the audit log)."""
    locked = lockout_wait(session, throttle, email=email, ip=ip, now=now)
    if device is None:
        if locked > 0:
            raise too_many(locked)
        return False
    own = own_failures_wait(session, throttle, email=email, through=device, key=DEVICE, now=now)
    if own > 0:
        raise too_many(own)
    return locked > 0
