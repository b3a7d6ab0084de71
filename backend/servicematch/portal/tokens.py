"""The provider portal's one-time links (access/one_time.py's rules on its own table): an
applicant's address, an invitation, a new password."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from servicematch.access.one_time import SPENT, OneTimeLinks
from servicematch.portal.models import PortalToken, TokenPurpose

__all__ = ["LIFETIME", "LINKS", "SPENT", "issue", "redeem", "void_outstanding"]

LIFETIME = {
    TokenPurpose.CONFIRM: timedelta(hours=72),
    TokenPurpose.INVITE: timedelta(hours=72),
    TokenPurpose.RESET: timedelta(hours=1),
}
LINKS = OneTimeLinks(table=PortalToken, lifetimes=LIFETIME)


def issue(session: Session, *, purpose: str, account_id: str | None = None, application_id: str | None = None,
          now: datetime | None = None) -> str:
    """A new token for an account or an application (the caller commits); the token itself is returned."""
    return LINKS.issue(session, purpose=purpose, now=now, account_id=account_id, application_id=application_id)


def redeem(session: Session, token: str, *, purposes: tuple[str, ...], now: datetime | None = None) -> PortalToken:
    return LINKS.redeem(session, token, purposes=purposes, now=now)


def void_outstanding(session: Session, *, account_id: str, purposes: tuple[str, ...]) -> None:
    LINKS.void_outstanding(session, account_id=account_id, purposes=purposes)
