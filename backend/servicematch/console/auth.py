"""Who is calling: the session cookie, the CSRF header on every change, and the role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from servicematch.access.sessions import SAFE_METHODS
from servicematch.console.models import Operator, Role
from servicematch.console.sessions import COOKIE_NAME, CSRF_HEADER, csrf_matches, resume_session
from servicematch.deps import SessionDep, SettingsDep, settings_of
from servicematch.errors import ServiceMatchError
from servicematch.inbound.client import client_ip
from servicematch.settings import Settings

NOT_SIGNED_IN = "Sign in to use the console."
BAD_CSRF = "This request lacks a valid X-CSRF-Token header; reload the console and try again."
ADMINS_ONLY = "Only an admin may do this."


Db = SessionDep


@dataclass(frozen=True)
class Caller:
    operator: Operator
    session_id: str
    csrf_token: str
    ip: str

    @property
    def is_admin(self) -> bool:
        return self.operator.role == Role.ADMIN


def request_ip(request: Request) -> str:
    settings: Settings = settings_of(request)
    return client_ip(request, trusted_proxies=settings.trusted_proxies)


def current_caller(request: Request, db: Db, settings: SettingsDep) -> Caller:
    """401 without a live session; 403 when a state-changing call lacks the session's CSRF token."""
    token = request.cookies.get(COOKIE_NAME)
    signed_in = resume_session(db, settings, token)
    if signed_in is None:
        raise ServiceMatchError(NOT_SIGNED_IN, status_code=401)
    if request.method not in SAFE_METHODS and not csrf_matches(settings, token or "",
                                                              request.headers.get(CSRF_HEADER)):
        raise ServiceMatchError(BAD_CSRF, status_code=403)
    return Caller(operator=signed_in.operator, session_id=signed_in.session_id,
                  csrf_token=signed_in.csrf_token, ip=request_ip(request))


def admin_caller(caller: Annotated[Caller, Depends(current_caller)]) -> Caller:
    if not caller.is_admin:
        raise ServiceMatchError(ADMINS_ONLY, status_code=403)
    return caller


AnyOperator = Annotated[Caller, Depends(current_caller)]
AdminOnly = Annotated[Caller, Depends(admin_caller)]
