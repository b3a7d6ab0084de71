"""POST/GET/DELETE /api/console/session: sign in, who am I, sign out."""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from servicematch.access import passwords
from servicematch.access.sessions import clear_session_cookie, set_session_cookie
from servicematch.access.throttle import Throttle, enforce_signin_throttle
from servicematch.console import accounts, audit
from servicematch.console.audit import Action
from servicematch.console.auth import AnyOperator, Db, request_ip
from servicematch.console.models import Operator
from servicematch.console.sessions import CONSOLE, end_session, start_session
from servicematch.console.shapes import Shape
from servicematch.deps import SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, error_body
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.settings import Settings

WRONG_CREDENTIALS = "The e-mail address or password is not right."
CODE_NEEDED = "Enter the 6-digit code from your authenticator app."
WRONG_CODE = "That code is not right or was used already; enter the current one."

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)


class SignIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    email: text(254, min_length=1)
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)
    totp: str | None = Field(default=None, max_length=12)


def console_throttle(settings: Settings) -> Throttle:
    return Throttle(failure_action=Action.SIGN_IN_FAILED, per_account=settings.console_signin_failures_per_account,
                    per_address=settings.console_signin_failures_per_address,
                    window=timedelta(seconds=settings.console_signin_window_seconds))


class ConsoleOperator(Shape):
    id: str
    email: str
    role: Literal["admin", "analyst"]
    totpEnabled: bool


class ConsoleSession(Shape):
    """The signed-in operator, and the token every change sends back as X-CSRF-Token."""

    operator: ConsoleOperator
    csrfToken: str


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
    enforce_signin_throttle(db, console_throttle(settings), email=email, ip=ip, now=now)
    operator = accounts.find_operator(db, email)
    # verify_password hashes even for an unknown e-mail, so the answer time does not tell.
    if not accounts.verify_password(operator, data.password) or operator is None or not operator.active:
        # The log cannot be edited: what was typed is kept only when it names an account (it may be a password).
        named = operator.email if operator is not None else ""
        audit.record(db, action=Action.SIGN_IN_FAILED, operator=None, operator_email=named, ip=ip,
                     target=named, detail={"reason": "credentials" if named else "unknown account"})
        db.commit()
        return _refused(WRONG_CREDENTIALS)
    if operator.totp_secret is not None:
        if not data.totp:
            return _refused(CODE_NEEDED, totp_required=True)
        if not accounts.verify_totp(settings, operator, data.totp):
            audit.record(db, action=Action.SIGN_IN_FAILED, operator=None, operator_email=email, ip=ip,
                         target=email, detail={"reason": "totp"})
            db.commit()
            return _refused(WRONG_CODE, totp_required=True)
    token, signed_in = start_session(db, settings, operator=operator, ip=ip,
                                     user_agent=request.headers.get("user-agent", ""))
    audit.record(db, action=Action.SIGN_IN, operator=operator, ip=ip, target=email)
    db.commit()
    response = JSONResponse({"operator": operator_json(operator), "csrfToken": signed_in.csrf_token})
    set_session_cookie(response, CONSOLE, token, max_age=settings.console_session_max_hours * 3600,
                       settings=settings)
    return response


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
