"""Operator accounts: Argon2id passwords, optional TOTP, create, list, disable, reset."""

from __future__ import annotations

import hmac
import re
from functools import lru_cache

import pyotp
from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.console.models import Operator, Role
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.intake.crypto import cipher_for
from servicematch.kernel.clock import utcnow
from servicematch.settings import Settings

MIN_PASSWORD_LENGTH = 12
MAX_PASSWORD_LENGTH = 256
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
TOTP_ISSUER = "ServiceMatch console"

# Argon2id with RFC 9106's low-memory profile (argon2-cffi's default): 64 MiB, 3 passes.
PASSWORD_HASHING = profiles.RFC_9106_LOW_MEMORY
_hasher = PasswordHasher.from_parameters(PASSWORD_HASHING)


@lru_cache(maxsize=1)
def _decoy_hash() -> str:
    """A hash to verify against when the account does not exist, so both cases take as long."""
    return _hasher.hash("no such operator: the decoy keeps timing equal")


def normalise_email(email: str) -> str:
    return email.strip().lower()


def check_password_strength(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceMatchError(f"The password needs at least {MIN_PASSWORD_LENGTH} characters.",
                                fields={"password": "too short"}, status_code=422)
    if len(password) > MAX_PASSWORD_LENGTH:
        raise ServiceMatchError(f"The password may have at most {MAX_PASSWORD_LENGTH} characters.",
                                fields={"password": "too long"}, status_code=422)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(operator: Operator | None, password: str) -> bool:
    """True when the password is this operator's; runs Argon2 even for no operator at all."""
    stored = operator.password_hash if operator is not None else _decoy_hash()
    try:
        _hasher.verify(stored, password[:MAX_PASSWORD_LENGTH])
    except (VerificationError, InvalidHashError):
        return False
    return operator is not None


def find_operator(session: Session, email: str) -> Operator | None:
    return session.scalars(select(Operator).where(Operator.email == normalise_email(email))).first()


def add_operator(session: Session, *, email: str, role: str, password: str) -> Operator:
    """A new active operator (the caller commits)."""
    email = normalise_email(email)
    if not EMAIL_PATTERN.match(email) or len(email) > 254:
        raise ServiceMatchError("Give a valid e-mail address.", fields={"email": "invalid"}, status_code=422)
    if role not in Role.ALL:
        raise ServiceMatchError("The role is admin or analyst.", fields={"role": "invalid"}, status_code=422)
    check_password_strength(password)
    if find_operator(session, email) is not None:
        raise ServiceMatchError(f"An operator with e-mail {email} exists already.",
                                fields={"email": "taken"}, status_code=409)
    operator = Operator(email=email, role=role, password_hash=hash_password(password), active=True,
                        created_at=utcnow(), password_changed_at=utcnow())
    session.add(operator)
    session.flush()
    return operator


def list_operators(session: Session) -> list[Operator]:
    return list(session.scalars(select(Operator).order_by(func.lower(Operator.email))).all())


def require_operator(session: Session, email: str) -> Operator:
    operator = find_operator(session, email)
    if operator is None:
        raise NotFound(f"No operator with e-mail {normalise_email(email)}.")
    return operator


def disable_operator(session: Session, email: str) -> Operator:
    """Refuse every future sign-in and end every open session of this operator at once."""
    from servicematch.console.sessions import end_all_sessions

    operator = require_operator(session, email)
    operator.active = False
    end_all_sessions(session, operator_id=operator.id)
    return operator


def reset_password(session: Session, email: str, password: str) -> Operator:
    """A new password; every open session ends, so a stolen one stops working."""
    from servicematch.console.sessions import end_all_sessions

    operator = require_operator(session, email)
    check_password_strength(password)
    operator.password_hash = hash_password(password)
    operator.password_changed_at = utcnow()
    end_all_sessions(session, operator_id=operator.id)
    return operator


def _totp_context(operator: Operator) -> str:
    # The cipher binds each ciphertext to a name; an operator's seed is bound to its id.
    return f"operator-totp:{operator.id}"


def enable_totp(session: Session, settings: Settings, email: str) -> str:
    """Give an admin a fresh TOTP seed; returns the provisioning URI for an authenticator app."""
    operator = require_operator(session, email)
    if operator.role != Role.ADMIN:
        raise ServiceMatchError("The second factor is for admins; analysts sign in with a password.",
                                status_code=422)
    seed = pyotp.random_base32()
    operator.totp_secret = cipher_for(settings).encrypt({"seed": seed}, lead_id=_totp_context(operator))
    operator.totp_last_step = None
    return pyotp.TOTP(seed).provisioning_uri(name=operator.email, issuer_name=TOTP_ISSUER)


def disable_totp(session: Session, email: str) -> Operator:
    operator = require_operator(session, email)
    operator.totp_secret = None
    operator.totp_last_step = None
    return operator


def verify_totp(settings: Settings, operator: Operator, code: str) -> bool:
    """A current code (one step of clock drift either way), each accepted once only."""
    if operator.totp_secret is None:
        return True
    code = (code or "").strip().replace(" ", "")
    if not code.isdigit() or len(code) != 6:
        return False
    seed = cipher_for(settings).decrypt(operator.totp_secret, lead_id=_totp_context(operator))["seed"]
    totp = pyotp.TOTP(seed)
    now_step = totp.timecode(utcnow())
    for step in (now_step - 1, now_step, now_step + 1):
        if hmac.compare_digest(totp.generate_otp(step), code) and (operator.totp_last_step is None or step > operator.totp_last_step):
            operator.totp_last_step = step
            return True
    return False
