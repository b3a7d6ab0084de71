"""Console sign-in sessions: access/sessions.py's rules, on the operators' own table and cookie.

The known-device cookie (access/devices.py, sm_console_device) goes only to the sign-in calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from servicematch.access import sessions as shared
from servicematch.access.devices import DeviceCookie
from servicematch.access.sessions import SessionKind
from servicematch.console.models import Operator, OperatorSession
from servicematch.settings import Settings

COOKIE_NAME = "sm_console"
CONSOLE = SessionKind(table=OperatorSession, account=Operator, owner="operator_id", csrf_purpose="console csrf",
                      cookie_name=COOKIE_NAME, cookie_path="/")

CSRF_HEADER = shared.CSRF_HEADER
# The console's e-mailed sign-in links (access/links.py) and known devices, apart from the portal's.
SIGNIN_SURFACE = "console"
CONSOLE_DEVICE = DeviceCookie(name="sm_console_device", path="/api/console/session",
                              key_purpose="console known device")


@dataclass(frozen=True)
class SignedIn:
    operator: Operator
    session_id: str
    csrf_token: str


def csrf_token_for(settings: Settings, token: str) -> str:
    return shared.csrf_token_for(settings, CONSOLE, token)


def csrf_matches(settings: Settings, token: str, given: str | None) -> bool:
    return shared.csrf_matches(settings, CONSOLE, token, given)


def start_session(session: Session, settings: Settings, *, operator: Operator, ip: str,
                  user_agent: str) -> tuple[str, SignedIn]:
    """Store a new session; returns the cookie's token (never stored) and what the browser is told."""
    token, row = shared.open_session(session, CONSOLE, owner_id=operator.id, ip=ip, user_agent=user_agent,
                                     lifetime=timedelta(hours=settings.console_session_max_hours))
    return token, SignedIn(operator=operator, session_id=row.id, csrf_token=csrf_token_for(settings, token))


def resume_session(session: Session, settings: Settings, token: str | None,
                   now: datetime | None = None) -> SignedIn | None:
    """The signed-in operator behind a cookie token, or None when it is unknown, ended or expired."""
    found = shared.live_session(session, CONSOLE, token, now=now,
                                idle=timedelta(minutes=settings.console_session_idle_minutes))
    if found is None:
        return None
    row, operator = found
    return SignedIn(operator=operator, session_id=row.id, csrf_token=csrf_token_for(settings, token or ""))


def end_session(session: Session, session_id: str) -> None:
    shared.end_session(session, CONSOLE, session_id)


def end_all_sessions(session: Session, *, operator_id: str) -> None:
    shared.end_all_sessions(session, CONSOLE, owner_id=operator_id)
