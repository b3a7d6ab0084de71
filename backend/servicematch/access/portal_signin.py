"""Signing in to a portal (a provider's, a buyer's): the steps its routes take, apart from the
shape of their answers.

Both portals follow the same settings (SERVICEMATCH_PORTAL_*: session lengths, the throttle),
each with its own accounts, session table and cookie, known-device cookie, e-mailed sign-in links
(`surface`) and audit actions, so a failure at one never counts against the other.

Every step that can refuse returns the refusal (a JSONResponse) rather than raising, because a
refusal is often recorded first: the audit entry of a failed sign-in is what the throttle counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import Request
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access import devices, links, passwords
from servicematch.access.accounts import WRONG_CODE, PasswordAccounts, password_matches
from servicematch.access.devices import DeviceCookie
from servicematch.access.models import add_audit_entry
from servicematch.access.sessions import csrf_token_for, open_session, set_session_cookie
from servicematch.access.throttle import DEVICE, LINK, Throttle, enforce_signin_throttle
from servicematch.errors import error_body
from servicematch.kernel.clock import utcnow
from servicematch.settings import Settings

WRONG_CREDENTIALS = "The e-mail address or password is not right."
CODE_NEEDED = "Enter the 6-digit code from your authenticator app."
LINK_ASKED = ("If {email} is the address of an account locked by failed sign-in attempts, we sent it a sign-in "
              "link. The link works once, for 15 minutes; check your spam folder if it does not arrive.")


@dataclass(frozen=True)
class SignInActions:
    """The audit actions of one portal's sign-ins (its failures are what its throttle counts)."""

    sign_in: str
    failed: str
    password_set: str
    known_device: str  # a known device signed in while strangers' failures kept the account locked
    link_sent: str
    link_used: str


@dataclass(frozen=True)
class PortalDoor:
    """One portal's way in."""

    accounts: PasswordAccounts
    device: DeviceCookie
    surface: str  # its e-mailed sign-in links (access/links.py)
    actions: SignInActions

    def throttle(self, settings: Settings) -> Throttle:
        return Throttle(failure_action=self.actions.failed, per_account=settings.portal_signin_failures_per_account,
                        per_address=settings.portal_signin_failures_per_address,
                        window=timedelta(seconds=settings.portal_signin_window_seconds),
                        per_device=settings.portal_signin_failures_per_device)


def refused(message: str, *, totp_required: bool = False) -> JSONResponse:
    body = error_body(message)
    if totp_required:
        body["totpRequired"] = True
    return JSONResponse(body, status_code=401)


def _failed(db: Session, door: PortalDoor, *, email: str, ip: str, detail: dict) -> None:
    add_audit_entry(db, action=door.actions.failed, actor_id=None, actor_email=email, ip=ip, target=email,
                    detail=detail)
    db.commit()


def _known_device(request: Request, settings: Settings, door: PortalDoor, account, now: datetime) -> str | None:
    """The device's name when the browser holds this account's known-device cookie."""
    if account is None:
        return None
    return devices.recognised(settings, door.device, request.cookies.get(door.device.name), account_id=account.id,
                              not_before=account.password_changed_at, now=now)


def check_password(db: Session, settings: Settings, door: PortalDoor, request: Request, *, ip: str, email: str,
                   password: str, code: str | None):
    """The account when the e-mail, password (and, with TOTP on, the code) are right; else the
    refusal, the failure recorded. 429 (raised) while the throttle holds the account or address."""
    email, now = passwords.normalise_email(email), utcnow()
    account = door.accounts.find(db, email)
    device = _known_device(request, settings, door, account, now)
    past_lockout = enforce_signin_throttle(db, door.throttle(settings), email=email, ip=ip, now=now, device=device)
    # A known device's failures name it: they count against it, as well as against the account.
    through = {DEVICE: device} if device else {}
    # password_matches runs Argon2 even for an unknown e-mail, so the answer time does not tell.
    if not password_matches(account, password):
        named = account.email if account is not None else ""
        _failed(db, door, email=named, ip=ip, detail={"reason": "credentials" if named else "unknown account",
                                                      **through})
        return refused(WRONG_CREDENTIALS)
    if account.totp_secret is not None:
        if not code:
            return refused(CODE_NEEDED, totp_required=True)
        if not door.accounts.verify_totp(settings, account, code):
            _failed(db, door, email=email, ip=ip, detail={"reason": "totp", **through})
            return refused(WRONG_CODE, totp_required=True)
    if past_lockout:
        add_audit_entry(db, action=door.actions.known_device, actor_id=account.id, actor_email=account.email, ip=ip,
                        target=account.email, detail=through)
    return account


def check_link_code(db: Session, settings: Settings, door: PortalDoor, account, *, ip: str,
                    code: str | None) -> JSONResponse | None:
    """None when a password link may set the password: a lost password is no way around the second
    factor, so with TOTP on the link also needs a code. A wrong one leaves the link good (nothing
    of the request is committed) and counts as a failed sign-in."""
    if account.totp_secret is None:
        return None
    if not code:
        return refused(CODE_NEEDED, totp_required=True)
    if door.accounts.verify_totp(settings, account, code):
        return None
    db.rollback()
    _failed(db, door, email=account.email, ip=ip, detail={"reason": "totp"})
    return refused(WRONG_CODE, totp_required=True)


def account_by_signin_link(db: Session, settings: Settings, door: PortalDoor, *, token: str, code: str | None,
                           ip: str):
    """The account an e-mailed sign-in link is for (410, raised, for a spent one), its other links
    spent; or the refusal of a missing or wrong TOTP code (links.code_problem)."""
    now = utcnow()
    link = links.redeem(db, token, surface=door.surface, now=now)
    account = db.get(door.accounts.table, link.account_id)
    if account is None or not account.active or account.password_hash is None:
        raise links.spent()
    if account.totp_secret is not None:
        email = account.email
        problem = links.code_problem(
            db, door.throttle(settings), email=email, link_id=link.id, code=code, now=now,
            right=lambda given: door.accounts.verify_totp(settings, account, given),
            record_wrong=lambda: add_audit_entry(db, action=door.actions.failed, actor_id=None, actor_email=email,
                                                 ip=ip, target=email, detail={"reason": "totp", LINK: link.id}))
        if problem is not None:
            return refused(CODE_NEEDED if problem == links.CODE_MISSING else WRONG_CODE, totp_required=True)
    links.void_outstanding(db, surface=door.surface, account_id=account.id, now=now)
    add_audit_entry(db, action=door.actions.link_used, actor_id=account.id, actor_email=account.email, ip=ip,
                    target=account.email)
    return account


def mail_signin_link(session_factory: sessionmaker[Session], settings: Settings, door: PortalDoor, *, email: str,
                     ip: str, now: datetime, send: Callable[[str, str], object]) -> None:
    """For the mail thread: a sign-in link for a locked account (access/links.py), mailed by
    `send(email, token)`; nothing for any other address."""
    issued = links.issue_when_locked(session_factory, surface=door.surface, throttle=door.throttle(settings),
                                     find=door.accounts.find, sent_action=door.actions.link_sent, email=email,
                                     ip=ip, now=now)
    if issued is not None:
        send(issued.email, issued.token)


@dataclass(frozen=True)
class Opened:
    """A session just opened: the cookie's token (never stored) and its CSRF token."""

    token: str
    csrf_token: str


def open_portal_session(db: Session, settings: Settings, door: PortalDoor, request: Request, account, *,
                        ip: str) -> Opened:
    """A new session for the account, its sign-in on the audit log, committed."""
    token, _row = open_session(db, door.accounts.sessions, owner_id=account.id, ip=ip,
                               user_agent=request.headers.get("user-agent", ""),
                               lifetime=timedelta(hours=settings.portal_session_max_hours))
    add_audit_entry(db, action=door.actions.sign_in, actor_id=account.id, actor_email=account.email, ip=ip,
                    target=account.email)
    db.commit()
    return Opened(token=token, csrf_token=csrf_token_for(settings, door.accounts.sessions, token))


def signed_in_response(settings: Settings, door: PortalDoor, opened: Opened, account, body: dict) -> JSONResponse:
    """The answer `body` with the session's cookie set, and the browser marked a known device."""
    response = JSONResponse(body)
    set_session_cookie(response, door.accounts.sessions, opened.token,
                       max_age=settings.portal_session_max_hours * 3600, settings=settings)
    devices.remember(response, settings, door.device, account_id=account.id, now=utcnow())
    return response
