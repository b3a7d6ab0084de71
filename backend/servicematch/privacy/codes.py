"""One-time codes: six digits mailed to the person, stored only as a keyed hash, short-lived,
a few tries each, and a few codes per contact per quarter hour."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.errors import ServiceMatchError
from servicematch.kernel.ids import new_id
from servicematch.kernel.keys import checking_keys, signing_key
from servicematch.privacy.contacts import aware
from servicematch.privacy.models import PrivacyRequest, VerificationCode
from servicematch.settings import Settings

CODE_LIFETIME = timedelta(minutes=15)
MAX_ATTEMPTS = 5
CODES_PER_CONTACT = 3
CODE_WINDOW = timedelta(minutes=15)

WRONG = "That code is not right. Check the latest e-mail from us and type its 6 digits."
SPENT = ("This code can no longer be used (it expired, was already used, or was tried too many "
         "times). Start again to get a new code.")
TOO_MANY_CODES = ("We have sent several codes to this contact in the last 15 minutes. Please use "
                  "the latest one, or try again in 15 minutes.")


def _hash(key: bytes, code_id: str, code: str) -> str:
    return hmac.new(key, f"{code_id}:{code}".encode(), hashlib.sha256).hexdigest()


def _matches(settings: Settings, code_hash: str, code_id: str, typed: str) -> bool:
    # A code issued before a secret rotation is hashed with the earlier secret's key: still good.
    return any(hmac.compare_digest(code_hash, _hash(key, code_id, typed))
               for key in checking_keys(settings, "privacy.codes"))


def issue_code(*, session: Session, settings: Settings, request: PrivacyRequest, now: datetime) -> str:
    """A new code for `request`; refused (429) once the contact had its share of codes lately."""
    recent = session.scalar(
        select(func.count()).select_from(VerificationCode)
        .join(PrivacyRequest, PrivacyRequest.id == VerificationCode.request_id)
        .where(PrivacyRequest.contact_key == request.contact_key,
               VerificationCode.created_at > now - CODE_WINDOW)
    )
    if recent >= CODES_PER_CONTACT:
        raise ServiceMatchError(TOO_MANY_CODES, status_code=429,
                                headers={"Retry-After": str(int(CODE_WINDOW.total_seconds()))})
    code = f"{secrets.randbelow(1_000_000):06d}"
    code_id = new_id()
    session.add(VerificationCode(id=code_id, request_id=request.id, code_hash=_hash(signing_key(settings, "privacy.codes"), code_id, code),
                                 created_at=now, expires_at=now + CODE_LIFETIME, attempts=0))
    return code


def check_code(*, session: Session, settings: Settings, request_id: str, code: str, now: datetime) -> None:
    """Accept the request's newest live code once, or say clearly why not (each try is counted)."""
    candidate = session.scalars(
        select(VerificationCode).where(VerificationCode.request_id == request_id)
        .order_by(VerificationCode.created_at.desc()).limit(1).with_for_update()
    ).first()
    typed = "".join(ch for ch in (code or "") if ch.isdigit())
    if candidate is None or candidate.used_at is not None or candidate.attempts >= MAX_ATTEMPTS \
            or aware(candidate.expires_at) <= now:
        # Same hash work as a live code, so a spent code is not quicker to recognise.
        _matches(settings, "", new_id(), typed)
        raise ServiceMatchError(SPENT, fields={"code": SPENT}, status_code=410)
    candidate.attempts += 1
    if not _matches(settings, candidate.code_hash, candidate.id, typed):
        session.commit()
        raise ServiceMatchError(WRONG, fields={"code": WRONG})
    candidate.used_at = now
