"""Console sign-in sessions: a random cookie token, stored only as a hash, with idle and absolute expiry.

The CSRF token is an HMAC of the session token under a key derived from the secret key
(settings.derive_key): the browser learns it from the session answers, and a page on another
site can learn neither.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from servicematch.console.models import Operator, OperatorSession
from servicematch.delivery.models import as_utc
from servicematch.kernel.clock import utcnow
from servicematch.settings import Settings

COOKIE_NAME = "sm_console"
CSRF_HEADER = "X-CSRF-Token"
# last_seen_at is written at most this often, so reading pages is not a write per request.
TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class SignedIn:
    operator: Operator
    session_id: str
    csrf_token: str


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token_for(settings: Settings, token: str) -> str:
    return hmac.new(settings.derive_key("console csrf"), token.encode(), hashlib.sha256).hexdigest()


def csrf_matches(settings: Settings, token: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(csrf_token_for(settings, token), given or "")


def start_session(session: Session, settings: Settings, *, operator: Operator, ip: str,
                  user_agent: str) -> tuple[str, SignedIn]:
    """Store a new session; returns the cookie's token (never stored) and what the browser is told."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    row = OperatorSession(token_hash=_token_hash(token), operator_id=operator.id, created_at=now,
                          last_seen_at=now, expires_at=now + timedelta(hours=settings.console_session_max_hours),
                          ip=ip[:45], user_agent=(user_agent or "")[:300])
    session.add(row)
    session.flush()
    return token, SignedIn(operator=operator, session_id=row.id, csrf_token=csrf_token_for(settings, token))


def resume_session(session: Session, settings: Settings, token: str | None,
                   now: datetime | None = None) -> SignedIn | None:
    """The signed-in operator behind a cookie token, or None when it is unknown, ended or expired."""
    if not token or len(token) > 200:
        return None
    now = now or utcnow()
    found = session.execute(
        select(OperatorSession, Operator).join(Operator, Operator.id == OperatorSession.operator_id)
        .where(OperatorSession.token_hash == _token_hash(token))
    ).first()
    if found is None:
        return None
    row, operator = found
    idle_limit = as_utc(row.last_seen_at) + timedelta(minutes=settings.console_session_idle_minutes)
    if row.ended_at is not None or not operator.active or now >= as_utc(row.expires_at) or now >= idle_limit:
        return None
    if now - as_utc(row.last_seen_at) >= TOUCH_EVERY:
        row.last_seen_at = now
        session.commit()
    return SignedIn(operator=operator, session_id=row.id, csrf_token=csrf_token_for(settings, token))


def end_session(session: Session, session_id: str) -> None:
    session.execute(update(OperatorSession).where(OperatorSession.id == session_id,
                                                  OperatorSession.ended_at.is_(None))
                    .values(ended_at=utcnow()))


def end_all_sessions(session: Session, *, operator_id: str) -> None:
    session.execute(update(OperatorSession).where(OperatorSession.operator_id == operator_id,
                                                  OperatorSession.ended_at.is_(None))
                    .values(ended_at=utcnow()))
