"""One-time links: a random token in the link's fragment (#...), so it never reaches a server log
or a Referer header; here only its hash, its purpose and when it expires."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from servicematch.access.sessions import token_hash
from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.portal.models import PortalToken, TokenPurpose

LIFETIME = {
    TokenPurpose.CONFIRM: timedelta(hours=72),
    TokenPurpose.INVITE: timedelta(hours=72),
    TokenPurpose.RESET: timedelta(hours=1),
}
SPENT = "This link has expired or was used already."


def issue(session: Session, *, purpose: str, account_id: str | None = None, application_id: str | None = None,
          now: datetime | None = None) -> str:
    """A new token for one purpose (the caller commits); the token itself is returned, never stored."""
    token = secrets.token_urlsafe(32)
    now = now or utcnow()
    session.add(PortalToken(purpose=purpose, token_hash=token_hash(token), account_id=account_id,
                            application_id=application_id, created_at=now, expires_at=now + LIFETIME[purpose]))
    session.flush()
    return token


def redeem(session: Session, token: str, *, purposes: tuple[str, ...], now: datetime | None = None) -> PortalToken:
    """Spend a live token of one of `purposes` (the caller commits); 410 for an unknown, used or
    expired one, all alike, so a guess learns nothing."""
    now = now or utcnow()
    row = None
    if token and len(token) <= 100:
        row = session.scalars(select(PortalToken).where(PortalToken.token_hash == token_hash(token))
                              .with_for_update()).first()
    if row is None or row.purpose not in purposes or row.used_at is not None or as_utc(row.expires_at) <= now:
        raise ServiceMatchError(SPENT, fields={"token": SPENT}, status_code=410)
    row.used_at = now
    return row


def void_outstanding(session: Session, *, account_id: str, purposes: tuple[str, ...]) -> None:
    """Spend every live link of an account: a new link or a new password makes older links worthless."""
    session.execute(update(PortalToken).where(PortalToken.account_id == account_id,
                                              PortalToken.purpose.in_(purposes), PortalToken.used_at.is_(None))
                    .values(used_at=utcnow()))
