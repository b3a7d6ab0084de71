"""E-mailed sign-in links: the way in for an account's owner on a new device while strangers'
failures keep the account locked (access/throttle.py).

A link is sent only while a sign-in to the account from the asking address would be refused,
to an active account with a password, a few an hour at most. Its token rides after '#' (never in
a server log or a Referer header), is stored only as a hash, works once and for 15 minutes; the
page it opens posts it back, with a TOTP code when the account has the second factor on. The
console and the portal keep their links apart by `surface`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access.models import SignInLink, add_audit_entry
from servicematch.access.sessions import token_hash
from servicematch.access.throttle import LINK, Throttle, lockout_wait, own_failures_wait
from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import as_utc

LIFETIME = timedelta(minutes=15)
# Links an hour per account: enough for a lost message, not a mail bomb.
LINKS_PER_HOUR = 3
SPENT = "This sign-in link has expired or was used already."
MAX_TOKEN_LENGTH = 100


class Account(Protocol):
    id: str
    email: str
    active: bool
    password_hash: str | None


@dataclass(frozen=True)
class Issued:
    """A link stored and committed, not yet mailed: the token goes only into the message."""

    email: str
    token: str


def sent_lately(session: Session, *, surface: str, account_id: str, now: datetime) -> int:
    return session.scalar(select(func.count()).select_from(SignInLink).where(
        SignInLink.surface == surface, SignInLink.account_id == account_id,
        SignInLink.created_at > now - timedelta(hours=1)))


def issue(session: Session, *, surface: str, account_id: str, now: datetime) -> str:
    """A new link's token (the caller commits); only its hash is stored."""
    token = secrets.token_urlsafe(32)
    session.add(SignInLink(surface=surface, account_id=account_id, token_hash=token_hash(token), created_at=now,
                           expires_at=now + LIFETIME))
    session.flush()
    return token


def issue_when_locked(session_factory: sessionmaker[Session], *, surface: str, throttle: Throttle,
                      find: Callable[[Session, str], Account | None], sent_action: str, email: str, ip: str,
                      now: datetime) -> Issued | None:
    """A link for the account `email` names, when a sign-in to it from `ip` is refused now and it
    has not had its links for the hour; recorded in the audit log. None otherwise, which the
    asker is never told: the answer is the same for any address."""
    with session_factory() as session:
        account = find(session, email)
        if account is None or not account.active or account.password_hash is None:
            return None
        if lockout_wait(session, throttle, email=account.email, ip=ip, now=now) <= 0:
            return None  # not locked: the password signs in
        if sent_lately(session, surface=surface, account_id=account.id, now=now) >= LINKS_PER_HOUR:
            return None
        token = issue(session, surface=surface, account_id=account.id, now=now)
        add_audit_entry(session, action=sent_action, actor_id=None, actor_email=account.email, ip=ip,
                        target=account.email)
        session.commit()
        return Issued(email=account.email, token=token)


def redeem(session: Session, token: str, *, surface: str, now: datetime) -> SignInLink:
    """Spend a live link of this surface (the caller commits); 410 for an unknown, used or expired
    one, all alike, so a guess learns nothing."""
    row = None
    if token and len(token) <= MAX_TOKEN_LENGTH:
        row = session.scalars(select(SignInLink).where(SignInLink.token_hash == token_hash(token))
                              .with_for_update()).first()
    if row is None or row.surface != surface or row.used_at is not None or as_utc(row.expires_at) <= now:
        raise spent()
    row.used_at = now
    return row


def spent() -> ServiceMatchError:
    return ServiceMatchError(SPENT, fields={"token": SPENT}, status_code=410)


# Why a link's TOTP code was refused (code_problem).
CODE_MISSING, CODE_WRONG = "missing", "wrong"


def code_problem(session: Session, throttle: Throttle, *, email: str, link_id: str, code: str | None,
                 right: Callable[[str], bool], record_wrong: Callable[[], None], now: datetime) -> str | None:
    """None when the account's TOTP code is right; else CODE_MISSING or CODE_WRONG. The link stays
    good for the right code, for a few wrong ones: past the device limit it is spent (raises), so a
    link is no way to guess codes. `record_wrong` puts the failure on the audit log."""
    if own_failures_wait(session, throttle, email=email, through=link_id, key=LINK, now=now) > 0:
        session.commit()  # spent by redeem
        raise spent()
    if not code:
        return CODE_MISSING  # not committed: the link is not spent
    if right(code):
        return None
    session.rollback()
    record_wrong()
    session.commit()
    return CODE_WRONG


def void_outstanding(session: Session, *, surface: str, account_id: str, now: datetime) -> None:
    """Spend every live link of an account: once it is signed in, older links are worthless."""
    session.execute(update(SignInLink).where(SignInLink.surface == surface, SignInLink.account_id == account_id,
                                             SignInLink.used_at.is_(None))
                    .values(used_at=now))


def message(brand: str, *, place: str, url: str) -> tuple[str, str]:
    """The e-mail: subject and text, for `place` (what it signs in to) and the link's `url`."""
    minutes = int(LIFETIME.total_seconds() // 60)
    return (f"Your {brand} sign-in link",
            (f"Someone asked for a link to sign in to the {brand} {place} with this e-mail address, while "
             "failed sign-in attempts keep the account locked.\n\n"
             f"To sign in, open this link:\n{url}\n\n"
             f"The link works once, for {minutes} minutes. If you did not ask, ignore this e-mail: the "
             "account stays as it is. Someone may be guessing your password; make sure it is long and "
             "used nowhere else.\n"))
