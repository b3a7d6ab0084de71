"""POST/GET/DELETE /api/console/session: sign in, who am I, sign out; and the e-mailed sign-in link
(POST /session/link, /session/link/use) for an operator whose account strangers' failures locked."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Literal

from fastapi import APIRouter, BackgroundTasks, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access import devices, links, passwords
from servicematch.access.sessions import clear_session_cookie, set_session_cookie
from servicematch.access.throttle import (
    DEVICE,
    LINK,
    Throttle,
    enforce_signin_throttle,
)
from servicematch.console import accounts, audit
from servicematch.console.audit import Action
from servicematch.console.auth import AnyOperator, Db, request_ip
from servicematch.console.models import Operator
from servicematch.console.sessions import (
    CONSOLE,
    CONSOLE_DEVICE,
    SIGNIN_SURFACE,
    end_session,
    start_session,
)
from servicematch.console.shapes import Shape
from servicematch.deps import SessionFactoryDep, SettingsDep, request_part
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody, error_body
from servicematch.inbound.ratelimit import SlidingWindowLimiter, too_many
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.mail.transport import new_message, send_message
from servicematch.settings import Settings

log = logging.getLogger("servicematch.console")

WRONG_CREDENTIALS = "The e-mail address or password is not right."
CODE_NEEDED = "Enter the 6-digit code from your authenticator app."
WRONG_CODE = "That code is not right or was used already; enter the current one."
LINK_ASKED = ("If {email} is the address of an operator account locked by failed sign-in attempts, we sent it a "
              "sign-in link. The link works once, for 15 minutes; check your spam folder if it does not arrive.")


class SignInAction:
    """The audit actions of the ways past a lockout (console/audit.py's Action has the rest)."""

    # A known device signed in while strangers' failures kept the account locked for everyone else.
    KNOWN_DEVICE = "signin.known_device"
    LINK_SENT = "signin.link_sent"
    LINK_USED = "signin.link_used"

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)


class SignIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    email: text(254, min_length=1)
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)
    totp: str | None = Field(default=None, max_length=12)


class LinkAsk(BaseModel):
    email: text(254, min_length=1)


class LinkSignIn(BaseModel):
    """Signing in with an e-mailed sign-in link (the token from its fragment)."""

    token: text(200, min_length=1)
    totp: str | None = Field(default=None, max_length=12)


def console_throttle(settings: Settings) -> Throttle:
    return Throttle(failure_action=Action.SIGN_IN_FAILED, per_account=settings.console_signin_failures_per_account,
                    per_address=settings.console_signin_failures_per_address,
                    window=timedelta(seconds=settings.console_signin_window_seconds),
                    per_device=settings.console_signin_failures_per_device)


async def link_calls_limited(request: Request, settings: SettingsDep) -> None:
    """429 once this address asked for or followed as many sign-in links within the throttle's window
    as it may fail sign-ins: mail-bombing an address and guessing stay slow. Counted in the app's
    shared limit store, so with Redis every web process sees the same count."""
    limiter = SlidingWindowLimiter(name="console-link", limit=settings.console_signin_failures_per_address,
                                   window_seconds=settings.console_signin_window_seconds,
                                   store=request_part(request, "rate_limit_store"))
    wait = await limiter.call(limiter.hit, request_ip(request))
    if wait > 0:
        raise too_many(wait)


_link_limit = Depends(link_calls_limited)


class ConsoleOperator(Shape):
    id: str
    email: str
    role: Literal["admin", "analyst"]
    totpEnabled: bool


class ConsoleSession(Shape):
    """The signed-in operator, and the token every change sends back as X-CSRF-Token."""

    operator: ConsoleOperator
    csrfToken: str


class ConsoleMessage(Shape):
    message: str


def operator_json(operator: Operator) -> dict:
    return {"id": operator.id, "email": operator.email, "role": operator.role,
            "totpEnabled": operator.totp_secret is not None}


def _refused(message: str, *, totp_required: bool = False) -> JSONResponse:
    body = error_body(message)
    if totp_required:
        body["totpRequired"] = True
    return JSONResponse(body, status_code=401)


@router.post("/session", response_model=ConsoleSession,
             summary="Sign in (e-mail, password and, for admins with TOTP, a code)")
def sign_in(data: SignIn, request: Request, db: Db, settings: SettingsDep) -> Response:
    ip, email, now = request_ip(request), passwords.normalise_email(data.email), utcnow()
    operator = accounts.find_operator(db, email)
    device = _known_device(request, settings, operator, now)
    past_lockout = enforce_signin_throttle(db, console_throttle(settings), email=email, ip=ip, now=now, device=device)
    # A known device's failures name it: they count against it, as well as against the account.
    through = {DEVICE: device} if device else {}
    # verify_password hashes even for an unknown e-mail, so the answer time does not tell.
    if not accounts.verify_password(operator, data.password) or operator is None or not operator.active:
        # The log cannot be edited: what was typed is kept only when it names an account (it may be a password).
        named = operator.email if operator is not None else ""
        audit.record(db, action=Action.SIGN_IN_FAILED, operator=None, operator_email=named, ip=ip,
                     target=named, detail={"reason": "credentials" if named else "unknown account", **through})
        db.commit()
        return _refused(WRONG_CREDENTIALS)
    if operator.totp_secret is not None:
        if not data.totp:
            return _refused(CODE_NEEDED, totp_required=True)
        if not accounts.verify_totp(settings, operator, data.totp):
            audit.record(db, action=Action.SIGN_IN_FAILED, operator=None, operator_email=email, ip=ip,
                         target=email, detail={"reason": "totp", **through})
            db.commit()
            return _refused(WRONG_CODE, totp_required=True)
    if past_lockout:
        audit.record(db, action=SignInAction.KNOWN_DEVICE, operator=operator, ip=ip, target=email, detail=through)
    return _signed_in(db, settings, request, operator, ip=ip)


def _known_device(request: Request, settings: Settings, operator: Operator | None, now: datetime) -> str | None:
    """The device's name when the browser holds this operator's known-device cookie."""
    if operator is None:
        return None
    return devices.recognised(settings, CONSOLE_DEVICE, request.cookies.get(CONSOLE_DEVICE.name),
                              account_id=operator.id, not_before=operator.password_changed_at, now=now)


def _signed_in(db: Session, settings: Settings, request: Request, operator: Operator, *, ip: str) -> JSONResponse:
    """Start a session; the answer sets its cookie, and marks the browser a known device."""
    token, signed_in = start_session(db, settings, operator=operator, ip=ip,
                                     user_agent=request.headers.get("user-agent", ""))
    audit.record(db, action=Action.SIGN_IN, operator=operator, ip=ip, target=operator.email)
    db.commit()
    response = JSONResponse({"operator": operator_json(operator), "csrfToken": signed_in.csrf_token})
    set_session_cookie(response, CONSOLE, token, max_age=settings.console_session_max_hours * 3600,
                       settings=settings)
    devices.remember(response, settings, CONSOLE_DEVICE, account_id=operator.id, now=utcnow())
    return response


@router.post("/session/link", status_code=202, response_model=ConsoleMessage, dependencies=[_link_limit],
             summary="Mail a sign-in link to an account locked by failed sign-ins (the same answer for any address)")
def ask_for_signin_link(data: LinkAsk, request: Request, background: BackgroundTasks, settings: SettingsDep,
                        factory: SessionFactoryDep) -> ConsoleMessage:
    email = passwords.normalise_email(data.email)
    # After the answer: a known and an unknown address answer alike, in time too.
    background.add_task(_mail_signin_link, factory, settings, email=email, ip=request_ip(request), now=utcnow())
    return ConsoleMessage(message=LINK_ASKED.format(email=email))


def _mail_signin_link(factory: sessionmaker[Session], settings: Settings, *, email: str, ip: str,
                      now: datetime) -> None:
    try:
        issued = links.issue_when_locked(factory, surface=SIGNIN_SURFACE, throttle=console_throttle(settings),
                                         find=accounts.find_operator, sent_action=SignInAction.LINK_SENT,
                                         email=email, ip=ip, now=now)
        if issued is None:
            return
        url = f"{settings.site_origin.rstrip('/')}/admin/sign-in-link#{issued.token}"
        subject, body = links.message(settings.brand_name, place="console", url=url)
        send_message(settings=settings, message=new_message(settings=settings, to=issued.email, subject=subject,
                                                            text=body, message_id_key=f"console-{new_id()}"))
    except Exception:
        log.exception("a console sign-in link could not be prepared or sent")  # never the message or its link


@router.post("/session/link/use", response_model=ConsoleSession, dependencies=[_link_limit],
             responses={410: {"model": ErrorBody, "description": "The link expired or was used already"}},
             summary="Sign in with an e-mailed sign-in link's token (and, for admins with TOTP, a code)")
def sign_in_by_link(data: LinkSignIn, request: Request, db: Db, settings: SettingsDep) -> Response:
    ip, now = request_ip(request), utcnow()
    link = links.redeem(db, data.token, surface=SIGNIN_SURFACE, now=now)
    operator = db.get(Operator, link.account_id)
    if operator is None or not operator.active:
        raise links.spent()
    if operator.totp_secret is not None:
        refused = _link_code_refused(db, settings, operator, link_id=link.id, code=data.totp, ip=ip, now=now)
        if refused is not None:
            return refused
    links.void_outstanding(db, surface=SIGNIN_SURFACE, account_id=operator.id, now=now)
    audit.record(db, action=SignInAction.LINK_USED, operator=operator, ip=ip, target=operator.email)
    return _signed_in(db, settings, request, operator, ip=ip)


def _link_code_refused(db: Session, settings: Settings, operator: Operator, *, link_id: str, code: str | None,
                       ip: str, now: datetime) -> JSONResponse | None:
    """None when the code is right; else the refusal (links.code_problem)."""
    email = operator.email
    problem = links.code_problem(
        db, console_throttle(settings), email=email, link_id=link_id, code=code, now=now,
        right=lambda given: accounts.verify_totp(settings, operator, given),
        record_wrong=lambda: audit.record(db, action=Action.SIGN_IN_FAILED, operator=None, operator_email=email,
                                          ip=ip, target=email, detail={"reason": "totp", LINK: link_id}))
    if problem is None:
        return None
    return _refused(CODE_NEEDED if problem == links.CODE_MISSING else WRONG_CODE, totp_required=True)


@router.get("/session", response_model=ConsoleSession, summary="The signed-in operator and the CSRF token")
def read_session(caller: AnyOperator) -> dict:
    return {"operator": operator_json(caller.operator), "csrfToken": caller.csrf_token}


@router.delete("/session", status_code=204, summary="Sign out")
def sign_out(caller: AnyOperator, db: Db, settings: SettingsDep) -> Response:
    end_session(db, caller.session_id)
    audit.record(db, action=Action.SIGN_OUT, operator=caller.operator, ip=caller.ip,
                 target=caller.operator.email)
    db.commit()
    response = Response(status_code=204)
    clear_session_cookie(response, CONSOLE, settings=settings)
    return response
