"""Sign-in sessions: a random cookie token, stored only as a hash, with idle and absolute expiry.

The CSRF token is an HMAC of the session token under a key derived from the secret key for one
kind of session (settings.derive_key): the browser learns it from the session answers, and a page
on another site can learn neither. The console and the portal each have a SessionKind: their own
table, cookie and key, so a session of one never opens the other.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from starlette.responses import Response

from servicematch.kernel.clock import utcnow
from servicematch.kernel.keys import checking_keys, signing_key
from servicematch.settings import Settings

CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# last_seen_at is written at most this often, so reading pages is not a write per request.
TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class SessionKind:
    """One kind of signed-in browser."""

    table: type  # the session rows (access.models.SessionColumns and a foreign key named `owner`)
    account: type  # the accounts they belong to (an `id` and an `active` flag)
    owner: str  # the session table's column naming the account
    csrf_purpose: str
    cookie_name: str
    cookie_path: str


def _aware(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything stored here is UTC.
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _csrf(key: bytes, token: str) -> str:
    return hmac.new(key, token.encode(), hashlib.sha256).hexdigest()


def csrf_token_for(settings: Settings, kind: SessionKind, token: str) -> str:
    return _csrf(signing_key(settings, kind.csrf_purpose), token)


def csrf_matches(settings: Settings, kind: SessionKind, token: str, given: str | None) -> bool:
    # A session opened before a secret rotation goes on: its CSRF token, made with an earlier
    # secret (SERVICEMATCH_SECRET_KEYS_OLD), is still accepted. Bytes: compare_digest refuses str
    # with non-ASCII characters.
    typed = (given or "").encode("utf-8", "replace")
    return bool(given) and any(hmac.compare_digest(_csrf(key, token).encode(), typed)
                               for key in checking_keys(settings, kind.csrf_purpose))


def open_session(session: Session, kind: SessionKind, *, owner_id: str, ip: str, user_agent: str,
                 lifetime: timedelta):
    """Store a new session; returns the cookie's token (never stored) and the row."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    row = kind.table(token_hash=token_hash(token), created_at=now, last_seen_at=now, expires_at=now + lifetime,
                     ip=ip[:45], user_agent=(user_agent or "")[:300], **{kind.owner: owner_id})
    session.add(row)
    session.flush()
    return token, row


def live_session(session: Session, kind: SessionKind, token: str | None, *, idle: timedelta,
                 now: datetime | None = None):
    """(session row, account) behind a cookie token, or None when it is unknown, ended or expired."""
    if not token or len(token) > 200:
        return None
    now = now or utcnow()
    found = session.execute(
        select(kind.table, kind.account).join(kind.account, kind.account.id == getattr(kind.table, kind.owner))
        .where(kind.table.token_hash == token_hash(token))
    ).first()
    if found is None:
        return None
    row, account = found
    if not _still_live(row, account, idle=idle, now=now):
        return None
    if now - _aware(row.last_seen_at) >= TOUCH_EVERY:
        row.last_seen_at = now
        session.commit()
    return row, account


def _still_live(row, account, *, idle: timedelta, now: datetime) -> bool:
    return row.ended_at is None and account.active and now < _aware(row.expires_at) \
        and now < _aware(row.last_seen_at) + idle


def session_is_live(session: Session, kind: SessionKind, session_id: str, *, idle: timedelta,
                    now: datetime | None = None) -> bool:
    """Whether a session found earlier is still good, without counting this look as the person's use
    (a long-lived stream must not keep an unattended browser signed in)."""
    found = session.execute(
        select(kind.table, kind.account).join(kind.account, kind.account.id == getattr(kind.table, kind.owner))
        .where(kind.table.id == session_id)
    ).first()
    return found is not None and _still_live(*found, idle=idle, now=now or utcnow())


def end_session(session: Session, kind: SessionKind, session_id: str) -> None:
    session.execute(update(kind.table).where(kind.table.id == session_id, kind.table.ended_at.is_(None))
                    .values(ended_at=utcnow()))


def end_all_sessions(session: Session, kind: SessionKind, *, owner_id: str) -> None:
    """End every open session of one account (a new password, a disabled account)."""
    session.execute(update(kind.table).where(getattr(kind.table, kind.owner) == owner_id,
                                             kind.table.ended_at.is_(None))
                    .values(ended_at=utcnow()))


def set_session_cookie(response: Response, kind: SessionKind, token: str, *, max_age: int,
                       settings: Settings) -> None:
    response.set_cookie(kind.cookie_name, token, max_age=max_age, path=kind.cookie_path, httponly=True,
                        samesite="strict", secure=settings.environment == "production")


def clear_session_cookie(response: Response, kind: SessionKind, *, settings: Settings) -> None:
    response.delete_cookie(kind.cookie_name, path=kind.cookie_path, httponly=True, samesite="strict",
                           secure=settings.environment == "production")
