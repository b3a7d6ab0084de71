"""Who is calling for a buyer: a person's portal session (cookie, and the CSRF header on every
change) or one of the buyer's API keys (`Authorization: Bearer smk_...`), and whose data it is.

Every route that reads or changes a buyer's data goes through `current_buyer` and filters by
`caller.buyer.id`; a lead, return or key of another buyer answers 404 with an empty body
(`errors.NothingHere`), so a caller cannot even tell whether the id exists.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import select, update

from servicematch.access.sessions import (
    CSRF_HEADER,
    SAFE_METHODS,
    csrf_matches,
    csrf_token_for,
    live_session,
)
from servicematch.buyer.models import BuyerAccount, BuyerApiKey
from servicematch.buyer.sessions import BUYER_PORTAL, COOKIE_NAME
from servicematch.deps import SessionDep, SettingsDep, settings_of
from servicematch.errors import ServiceMatchError
from servicematch.inbound.client import client_ip
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.routing.models import Buyer

NOT_SIGNED_IN = "Sign in to use the buyer portal, or send an API key as Authorization: Bearer <key>."
BAD_KEY = "This API key is not valid or was revoked."
BAD_CSRF = "This request lacks a valid X-CSRF-Token header; reload the page and try again."
KEY_PREFIX = "smk_"
# last_used_at is written at most this often, so a busy integration is not a write per call.
KEY_TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class Caller:
    """A buyer's person (account set, key None) or one of its API keys (key set, account None)."""

    buyer: Buyer
    account: BuyerAccount | None
    key: BuyerApiKey | None
    session_id: str | None
    csrf_token: str | None
    ip: str

    @property
    def who(self) -> str:
        """How the audit log and returns name the caller: a person's e-mail, or `key:<name>`."""
        return self.account.email if self.account is not None else f"key:{self.key.name}"

    @property
    def actor_id(self) -> str:
        return self.account.id if self.account is not None else self.key.id


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def request_ip(request: Request) -> str:
    return client_ip(request, trusted_proxies=settings_of(request).trusted_proxies)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization") or ""
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _by_key(db, request: Request, key: str) -> Caller:
    found = None
    if key.startswith(KEY_PREFIX) and len(key) <= 200:
        found = db.execute(select(BuyerApiKey, Buyer).join(Buyer, Buyer.id == BuyerApiKey.buyer_id)
                           .where(BuyerApiKey.key_hash == key_hash(key))).first()
    if found is None or found[0].revoked_at is not None or not found[1].active:
        raise ServiceMatchError(BAD_KEY, status_code=401)
    api_key, buyer = found
    now = utcnow()
    if api_key.last_used_at is None or now - as_utc(api_key.last_used_at) >= KEY_TOUCH_EVERY:
        db.execute(update(BuyerApiKey).where(BuyerApiKey.id == api_key.id).values(last_used_at=now))
        db.commit()
    return Caller(buyer=buyer, account=None, key=api_key, session_id=None, csrf_token=None, ip=request_ip(request))


def _by_session(db, settings, request: Request) -> Caller:
    token = request.cookies.get(COOKIE_NAME)
    found = live_session(db, BUYER_PORTAL, token, idle=timedelta(minutes=settings.portal_session_idle_minutes))
    if found is None:
        raise ServiceMatchError(NOT_SIGNED_IN, status_code=401)
    if request.method not in SAFE_METHODS and not csrf_matches(settings, BUYER_PORTAL, token or "",
                                                              request.headers.get(CSRF_HEADER)):
        raise ServiceMatchError(BAD_CSRF, status_code=403)
    row, account = found
    buyer = db.get(Buyer, account.buyer_id)
    if buyer is None or not buyer.active:
        raise ServiceMatchError(NOT_SIGNED_IN, status_code=401)
    return Caller(buyer=buyer, account=account, key=None, session_id=row.id,
                  csrf_token=csrf_token_for(settings, BUYER_PORTAL, token or ""), ip=request_ip(request))


def current_buyer(request: Request, db: SessionDep, settings: SettingsDep) -> Caller:
    """A key when the call carries one (a key needs no CSRF token: no browser sends it by itself),
    else the portal session; 401 without either, 403 for a change without the CSRF token."""
    key = _bearer(request)
    return _by_key(db, request, key) if key is not None else _by_session(db, settings, request)


def current_person(caller: Annotated[Caller, Depends(current_buyer)]) -> Caller:
    """Only a person: what a key may not do (make or revoke keys, invite, rotate the secret)."""
    if caller.account is None:
        raise ServiceMatchError("Only a person signed in to the buyer portal can do this, not an API key.",
                                status_code=403)
    return caller


SignedInBuyer = Annotated[Caller, Depends(current_buyer)]
SignedInPerson = Annotated[Caller, Depends(current_person)]
