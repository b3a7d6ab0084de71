"""Operator accounts: Argon2id passwords, optional TOTP, create, list, disable, reset."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.access import totp
from servicematch.access.passwords import (
    EMAIL_PATTERN,
    check_password_strength,
    hash_password,
    normalise_email,
    password_matches,
)
from servicematch.console.models import Operator, Role
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.settings import Settings

TOTP_ISSUER = "ServiceMatch console"


def verify_password(operator: Operator | None, password: str) -> bool:
    """True when the password is this operator's; runs Argon2 even for no operator at all."""
    return password_matches(operator.password_hash if operator is not None else None, password)


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
    seed = totp.new_seed()
    operator.totp_secret = totp.sealed_seed(settings, seed, context=_totp_context(operator))
    operator.totp_last_step = None
    return totp.provisioning_uri(seed, name=operator.email, issuer=TOTP_ISSUER)


def disable_totp(session: Session, email: str) -> Operator:
    operator = require_operator(session, email)
    operator.totp_secret = None
    operator.totp_last_step = None
    return operator


def verify_totp(settings: Settings, operator: Operator, code: str) -> bool:
    """A current code (one step of clock drift either way), each accepted once only."""
    return totp.verify_totp(settings, operator, code, context=_totp_context(operator))
