"""One-time links (an invitation, a new password, an applicant's address): a random token in the
link's fragment (#...), so it never reaches a server log or a Referer header; stored here only as
its hash, with its purpose and when it expires.

Each portal keeps its links in a table of its own (an `id`, `purpose`, `token_hash`, `account_id`,
`created_at`, `expires_at` and `used_at`); `OneTimeLinks` holds the rules for any of them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from servicematch.access.sessions import token_hash
from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import as_utc, utcnow

SPENT = "This link has expired or was used already."
MAX_TOKEN_LENGTH = 100


def spent() -> ServiceMatchError:
    return ServiceMatchError(SPENT, fields={"token": SPENT}, status_code=410)


@dataclass(frozen=True)
class OneTimeLinks:
    """The links of one table: how long each purpose's link works."""

    table: type
    lifetimes: dict[str, timedelta]

    def issue(self, session: Session, *, purpose: str, now: datetime | None = None, **owner: str | None) -> str:
        """A new token for one purpose and owner (account_id=..., or another owner column); the
        caller commits. The token itself is returned, never stored."""
        token = secrets.token_urlsafe(32)
        now = now or utcnow()
        session.add(self.table(purpose=purpose, token_hash=token_hash(token), created_at=now,
                               expires_at=now + self.lifetimes[purpose], **owner))
        session.flush()
        return token

    def redeem(self, session: Session, token: str, *, purposes: tuple[str, ...], now: datetime | None = None):
        """Spend a live token of one of `purposes` (the caller commits); 410 for an unknown, used or
        expired one, all alike, so a guess learns nothing."""
        now = now or utcnow()
        row = None
        if token and len(token) <= MAX_TOKEN_LENGTH:
            row = session.scalars(select(self.table).where(self.table.token_hash == token_hash(token))
                                  .with_for_update()).first()
        if row is None or row.purpose not in purposes or row.used_at is not None or as_utc(row.expires_at) <= now:
            raise spent()
        row.used_at = now
        return row

    def void_outstanding(self, session: Session, *, account_id: str, purposes: tuple[str, ...]) -> None:
        """Spend every live link of an account: a new link or a new password makes older links worthless."""
        table = self.table
        session.execute(update(table).where(table.account_id == account_id, table.purpose.in_(purposes),
                                            table.used_at.is_(None))
                        .values(used_at=utcnow()))

    def issued_lately(self, session: Session, *, account_id: str, purpose: str, now: datetime) -> int:
        """Links of one purpose an account was sent within one lifetime of that purpose."""
        table = self.table
        return session.scalar(select(func.count()).select_from(table).where(
            table.account_id == account_id, table.purpose == purpose,
            table.created_at > now - self.lifetimes[purpose]))
