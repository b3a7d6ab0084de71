"""Known devices: a long-lived cookie that a browser signed in to one account before.

After every sign-in the server sets it: the account's id, when it was issued and a random name
for the device, under an HMAC with a key derived from the secret key for one surface. It holds
no personal data and opens nothing by itself (the password, and the code with TOTP on, are still
asked); it only tells the throttle that this is the owner's browser, judged by its own failures
rather than by the lockout strangers caused (access/throttle.py). Each surface has its own
cookie, key and path (only its sign-in calls receive it); a new password forgets every device
known before it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from starlette.responses import Response

from servicematch.kernel.keys import checking_keys, signing_key
from servicematch.settings import Settings

# A browser not used to sign in for this long is a stranger again.
LIFETIME = timedelta(days=90)
# Clocks of several web processes may differ a little; a cookie from further ahead is forged.
CLOCK_SKEW = timedelta(minutes=5)
MAX_LENGTH = 200


@dataclass(frozen=True)
class DeviceCookie:
    """The known-device cookie of one surface (the console or the portal)."""

    name: str
    path: str  # the surface's sign-in calls, so no other request carries it
    key_purpose: str


def _mac(key: bytes, body: str) -> str:
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def _genuine(settings: Settings, cookie: DeviceCookie, body: str, mac: str) -> bool:
    # A cookie set before a secret rotation stays known while the earlier secret is listed. Bytes:
    # compare_digest refuses str with non-ASCII characters.
    given = mac.encode("utf-8", "replace")
    return any(hmac.compare_digest(given, _mac(key, body).encode()) for key in checking_keys(settings, cookie.key_purpose))


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _ms(at: datetime) -> int:
    return int(_aware(at).timestamp() * 1000)


def issue(settings: Settings, cookie: DeviceCookie, *, account_id: str, now: datetime) -> str:
    """A new cookie value naming `account_id` and a fresh device name."""
    body = f"{account_id}.{_ms(now)}.{secrets.token_urlsafe(12)}"
    return f"{body}.{_mac(signing_key(settings, cookie.key_purpose), body)}"


def recognised(settings: Settings, cookie: DeviceCookie, value: str | None, *, account_id: str,
               not_before: datetime | None, now: datetime) -> str | None:
    """The device's name when `value` is a genuine, current cookie of this account issued after
    `not_before` (the last password change); None for anything else."""
    if not value or len(value) > MAX_LENGTH:
        return None
    parts = value.split(".")
    if len(parts) != 4:
        return None
    owner, issued, device, mac = parts
    if not _genuine(settings, cookie, f"{owner}.{issued}.{device}", mac):
        return None
    if owner != account_id or not issued.isdigit():
        return None
    at = int(issued)
    if not _ms(now - LIFETIME) < at <= _ms(now + CLOCK_SKEW):
        return None
    if not_before is not None and at < _ms(not_before):
        return None
    return device


def remember(response: Response, settings: Settings, cookie: DeviceCookie, *, account_id: str,
             now: datetime) -> None:
    """Mark the browser that just signed in as a known device of the account."""
    response.set_cookie(cookie.name, issue(settings, cookie, account_id=account_id, now=now),
                        max_age=int(LIFETIME.total_seconds()), path=cookie.path, httponly=True,
                        samesite="strict", secure=settings.environment == "production")
