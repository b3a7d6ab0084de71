"""Who is calling the portal: the session cookie, the CSRF header on every change, and whose data it is.

Routes that read or change a provider's data take its id in the path and go through
`own_provider`: another provider's id (or one that does not exist) answers 404 with an empty
body, so a caller cannot even tell whether the id exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request

from servicematch.access.sessions import (
    CSRF_HEADER,
    SAFE_METHODS,
    csrf_matches,
    csrf_token_for,
    live_session,
)
from servicematch.delivery.models import Provider
from servicematch.deps import SessionDep, SettingsDep, settings_of
from servicematch.errors import NothingHere, ServiceMatchError
from servicematch.inbound.client import client_ip
from servicematch.portal.models import ProviderAccount
from servicematch.portal.sessions import COOKIE_NAME, PORTAL

NOT_SIGNED_IN = "Sign in to use the provider portal."
BAD_CSRF = "This request lacks a valid X-CSRF-Token header; reload the page and try again."


@dataclass(frozen=True)
class Caller:
    account: ProviderAccount
    provider: Provider
    session_id: str
    csrf_token: str
    ip: str


def request_ip(request: Request) -> str:
    return client_ip(request, trusted_proxies=settings_of(request).trusted_proxies)


def current_provider(request: Request, db: SessionDep, settings: SettingsDep) -> Caller:
    """401 without a live portal session; 403 when a state-changing call lacks its CSRF token."""
    token = request.cookies.get(COOKIE_NAME)
    found = live_session(db, PORTAL, token, idle=timedelta(minutes=settings.portal_session_idle_minutes))
    if found is None:
        raise ServiceMatchError(NOT_SIGNED_IN, status_code=401)
    if request.method not in SAFE_METHODS and not csrf_matches(settings, PORTAL, token or "",
                                                              request.headers.get(CSRF_HEADER)):
        raise ServiceMatchError(BAD_CSRF, status_code=403)
    row, account = found
    provider = db.get(Provider, account.provider_id)
    if provider is None:
        raise ServiceMatchError(NOT_SIGNED_IN, status_code=401)
    return Caller(account=account, provider=provider, session_id=row.id,
                  csrf_token=csrf_token_for(settings, PORTAL, token or ""), ip=request_ip(request))


SignedInProvider = Annotated[Caller, Depends(current_provider)]


def own_provider(provider_id: str, caller: SignedInProvider) -> Caller:
    """The caller, when `provider_id` is its own provider's; else a 404 that says nothing."""
    if provider_id != caller.provider.id:
        raise NothingHere()
    return caller


OwnProvider = Annotated[Caller, Depends(own_provider)]
