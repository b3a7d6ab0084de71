"""The buyer portal's session and account API under /api/buyer (the page itself is /buyer).

Signing in, out and back (an invitation or password link sets the password, an e-mailed link
signs in a locked account's owner) follow access/portal_signin.py, as the provider portal does;
every other call needs a person's session and, for a change, its CSRF token (buyer/auth.py).
The buyer's people are read here and managed by operators in the console; API keys are made and
revoked by people only, never by a key.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from servicematch.access import passwords, portal_signin
from servicematch.access.accounts import disable_totp, password_matches
from servicematch.access.mailer import run_later
from servicematch.access.models import add_audit_entry
from servicematch.access.sessions import clear_session_cookie, end_session
from servicematch.buyer import accounts, keys
from servicematch.buyer.accounts import BUYER_ACCOUNTS, BUYER_DOOR, Action
from servicematch.buyer.auth import Caller, SignedInPerson, request_ip
from servicematch.buyer.models import BuyerAccount, BuyerApiKey
from servicematch.buyer.sessions import API_PREFIX, BUYER_PORTAL
from servicematch.deps import SessionDep, SessionFactoryDep, SettingsDep
from servicematch.errors import (
    RATE_LIMITED_RESPONSES,
    SIGNED_IN_ERROR_RESPONSES,
    ErrorBody,
    ServiceMatchError,
)
from servicematch.inbound.ratelimit import counted_always
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.portal.ledger import iso
from servicematch.portal.router_join import PartnerMessage
from servicematch.routing.models import Buyer
from servicematch.settings import Settings

BUYER_SWITCHED_OFF = "ServiceMatch has switched this buyer's account off: ask your account manager."
router = APIRouter(prefix=API_PREFIX, tags=["buyer portal"],
                   responses={**SIGNED_IN_ERROR_RESPONSES, **RATE_LIMITED_RESPONSES})
# The provider portal's per-address limit on links and forgotten passwords, shared: guessing a
# token or mail-bombing an address stays slow whichever portal is asked.
_link_limit = Depends(counted_always("portal_link_limiter"))
LINK_SPENT = {410: {"model": ErrorBody, "description": "The link expired or was used already"}}
NOT_FOUND_NO_BODY = {404: {"description": "Not one of this buyer's keys, or none: no body at all"}}
KeyId = Annotated[str, Path(max_length=64)]


class BuyerSignIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    email: text(254, min_length=1)
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)
    totp: str | None = Field(default=None, max_length=12)


class BuyerChoosePassword(BaseModel):
    """A password chosen through an invitation or a password link (the token from its fragment)."""

    token: text(200, min_length=1)
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)
    totp: str | None = Field(default=None, max_length=12)


class BuyerEmail(BaseModel):
    email: text(254, min_length=1)


class BuyerLinkSignIn(BaseModel):
    """Signing in with an e-mailed sign-in link (the token from its fragment)."""

    token: text(200, min_length=1)
    totp: str | None = Field(default=None, max_length=12)


class BuyerPortalAccount(BaseModel):
    id: str
    email: str
    totpEnabled: bool


class BuyerPortalBuyer(BaseModel):
    id: str
    name: str


class BuyerPortalSession(BaseModel):
    account: BuyerPortalAccount
    buyer: BuyerPortalBuyer
    csrfToken: str


class BuyerTotpSetup(BaseModel):
    secret: str = Field(description="The seed, base32, for typing into an authenticator app")
    uri: str = Field(description="otpauth:// URI of the same seed")


class BuyerTotpCode(BaseModel):
    code: text(12, min_length=1)


class BuyerPasswordCheck(BaseModel):
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)


class BuyerPerson(BaseModel):
    id: str
    email: str
    active: bool
    hasPassword: bool = Field(description="False while the invitation's link is unused")
    createdAt: str


class BuyerPeople(BaseModel):
    items: list[BuyerPerson]


class BuyerKey(BaseModel):
    id: str
    name: str
    prefix: str = Field(description="The key's first characters, to tell keys apart; never the key")
    createdBy: str
    createdAt: str
    lastUsedAt: str | None = Field(description="To the minute: a key in steady use is touched once a minute")
    revokedAt: str | None


class BuyerKeys(BaseModel):
    items: list[BuyerKey]


class BuyerKeyName(BaseModel):
    name: text(keys.MAX_NAME_LENGTH, min_length=1)


class BuyerNewKey(BaseModel):
    key: BuyerKey
    secret: str = Field(description="The key itself (smk_...): shown this once, stored only as a hash")


def _session_answer(account: BuyerAccount, buyer: Buyer, csrf: str) -> BuyerPortalSession:
    return BuyerPortalSession(
        account=BuyerPortalAccount(id=account.id, email=account.email, totpEnabled=account.totp_secret is not None),
        buyer=BuyerPortalBuyer(id=buyer.id, name=buyer.name), csrfToken=csrf)


def _signed_in(db, settings: Settings, request: Request, account: BuyerAccount, *, ip: str) -> Response:
    """A session for the person (its cookie, and the browser marked a known device), unless an
    operator switched its buyer off: then nothing of the request is kept."""
    buyer = db.get(Buyer, account.buyer_id)
    if buyer is None or not buyer.active:
        db.rollback()
        return portal_signin.refused(BUYER_SWITCHED_OFF)
    opened = portal_signin.open_portal_session(db, settings, BUYER_DOOR, request, account, ip=ip)
    body = _session_answer(account, buyer, opened.csrf_token).model_dump()
    return portal_signin.signed_in_response(settings, BUYER_DOOR, opened, account, body)


@router.post("/session", response_model=BuyerPortalSession,
             summary="Sign in (e-mail, password and, with TOTP on, a code); sets the session cookie")
def sign_in(data: BuyerSignIn, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    ip = request_ip(request)
    found = portal_signin.check_password(db, settings, BUYER_DOOR, request, ip=ip, email=data.email,
                                         password=data.password, code=data.totp)
    return found if isinstance(found, Response) else _signed_in(db, settings, request, found, ip=ip)


@router.get("/session", response_model=BuyerPortalSession, summary="The signed-in person, its buyer and the CSRF token")
def read_session(caller: SignedInPerson) -> BuyerPortalSession:
    return _session_answer(caller.account, caller.buyer, caller.csrf_token)


@router.delete("/session", status_code=204, summary="Sign out")
def sign_out(caller: SignedInPerson, db: SessionDep, settings: SettingsDep) -> Response:
    end_session(db, BUYER_PORTAL, caller.session_id)
    add_audit_entry(db, action=Action.SIGN_OUT, actor_id=caller.account.id, actor_email=caller.account.email,
                    ip=caller.ip, target=caller.account.email)
    db.commit()
    response = Response(status_code=204)
    clear_session_cookie(response, BUYER_PORTAL, settings=settings)
    return response


@router.post("/password", response_model=BuyerPortalSession, dependencies=[_link_limit], responses=LINK_SPENT,
             summary="Choose a password with an invitation's or a password link's token; then signed in")
def choose_password(data: BuyerChoosePassword, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    ip = request_ip(request)
    spent, account = BUYER_ACCOUNTS.account_for_link(db, data.token)
    passwords.check_password_strength(data.password)
    refused = portal_signin.check_link_code(db, settings, BUYER_DOOR, account, ip=ip, code=data.totp)
    if refused is not None:
        return refused
    BUYER_ACCOUNTS.set_password(db, account, data.password)
    add_audit_entry(db, action=Action.PASSWORD_SET, actor_id=account.id, actor_email=account.email, ip=ip,
                    target=account.email, detail={"link": spent.purpose})
    return _signed_in(db, settings, request, account, ip=ip)


@router.post("/password/forgot", status_code=202, response_model=PartnerMessage, dependencies=[_link_limit],
             summary="Mail a link to choose a new password (the same answer whether or not the address is known)")
async def forgot_password(data: BuyerEmail, settings: SettingsDep, factory: SessionFactoryDep) -> PartnerMessage:
    return PartnerMessage(message=await run_in_threadpool(accounts.forgot_password, factory, settings, data.email))


@router.post("/session/link", status_code=202, response_model=PartnerMessage, dependencies=[_link_limit],
             summary="Mail a sign-in link to an account locked by failed sign-ins (the same answer for any address)")
async def ask_for_signin_link(data: BuyerEmail, request: Request, settings: SettingsDep,
                              factory: SessionFactoryDep) -> PartnerMessage:
    email, ip, now = passwords.normalise_email(data.email), request_ip(request), utcnow()
    # After the answer, on the mail thread: a known and an unknown address answer alike, in time too.
    run_later(lambda: portal_signin.mail_signin_link(
        factory, settings, BUYER_DOOR, email=email, ip=ip, now=now,
        send=lambda address, token: accounts.mail_signin_link(settings, address, token)))
    return PartnerMessage(message=portal_signin.LINK_ASKED.format(email=email))


@router.post("/session/link/use", response_model=BuyerPortalSession, dependencies=[_link_limit],
             responses=LINK_SPENT, summary="Sign in with an e-mailed sign-in link's token (and, with TOTP on, a code)")
def sign_in_by_link(data: BuyerLinkSignIn, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    ip = request_ip(request)
    found = portal_signin.account_by_signin_link(db, settings, BUYER_DOOR, token=data.token, code=data.totp, ip=ip)
    return found if isinstance(found, Response) else _signed_in(db, settings, request, found, ip=ip)


def _recorded(db, caller: Caller, action: str, detail: dict | None = None) -> None:
    """The person's own change, on the audit log under its buyer, committed with it."""
    add_audit_entry(db, action=action, actor_id=caller.account.id, actor_email=caller.account.email, ip=caller.ip,
                    target=caller.buyer.id, detail=detail)
    db.commit()


@router.post("/account/totp", response_model=BuyerTotpSetup,
             summary="Start turning on the second factor: a new seed for an authenticator app")
def start_totp(caller: SignedInPerson, db: SessionDep, settings: SettingsDep) -> BuyerTotpSetup:
    seed, uri = BUYER_ACCOUNTS.start_totp(settings, caller.account)
    db.commit()
    return BuyerTotpSetup(secret=seed, uri=uri)


@router.post("/account/totp/confirm", status_code=204, summary="Turn the second factor on with a code from the app")
def confirm_totp(body: BuyerTotpCode, caller: SignedInPerson, db: SessionDep, settings: SettingsDep) -> Response:
    BUYER_ACCOUNTS.confirm_totp(settings, caller.account, body.code)
    _recorded(db, caller, Action.TOTP_ON)
    return Response(status_code=204)


@router.post("/account/totp/disable", status_code=204,
             summary="Turn the second factor off (the password again, to be sure it is the person)")
def turn_totp_off(body: BuyerPasswordCheck, caller: SignedInPerson, db: SessionDep) -> Response:
    if not password_matches(caller.account, body.password):
        raise ServiceMatchError("That is not your password.", fields={"password": "wrong"}, status_code=422)
    disable_totp(caller.account)
    _recorded(db, caller, Action.TOTP_OFF)
    return Response(status_code=204)


@router.get("/people", response_model=BuyerPeople,
            summary="The buyer's people (ServiceMatch invites and disables them; ask your account manager)")
def list_people(caller: SignedInPerson, db: SessionDep) -> BuyerPeople:
    return BuyerPeople(items=[
        BuyerPerson(id=person.id, email=person.email, active=person.active,
                    hasPassword=person.password_hash is not None, createdAt=iso(person.created_at))
        for person in accounts.people_of(db, caller.buyer.id)])


def _key_json(key: BuyerApiKey) -> BuyerKey:
    return BuyerKey(id=key.id, name=key.name, prefix=key.prefix, createdBy=key.created_by,
                    createdAt=iso(key.created_at), lastUsedAt=iso(key.last_used_at), revokedAt=iso(key.revoked_at))


@router.get("/keys", response_model=BuyerKeys, summary="The buyer's API keys, live and revoked (never the keys)")
def list_keys(caller: SignedInPerson, db: SessionDep) -> BuyerKeys:
    return BuyerKeys(items=[_key_json(key) for key in keys.list_keys(db, caller.buyer.id)])


@router.post("/keys", status_code=201, response_model=BuyerNewKey,
             responses={409: {"model": ErrorBody, "description": "The buyer holds the most live keys it may"}},
             summary="Make an API key: the answer holds the key itself, shown this once")
def make_key(body: BuyerKeyName, caller: SignedInPerson, db: SessionDep, response: Response) -> BuyerNewKey:
    made = keys.make_key(db, buyer_id=caller.buyer.id, name=body.name, created_by=caller.who)
    # The key's name and first characters only: the key itself goes nowhere but this answer.
    _recorded(db, caller, Action.KEY_CREATE, {"name": made.key.name, "prefix": made.key.prefix})
    response.headers["Cache-Control"] = "no-store"
    return BuyerNewKey(key=_key_json(made.key), secret=made.secret)


@router.delete("/keys/{key_id}", status_code=204, responses=NOT_FOUND_NO_BODY,
               summary="Revoke an API key: calls with it are refused from now on")
def revoke_key(key_id: KeyId, caller: SignedInPerson, db: SessionDep) -> Response:
    key = keys.revoke_key(db, buyer_id=caller.buyer.id, key_id=key_id)
    _recorded(db, caller, Action.KEY_REVOKE, {"name": key.name, "prefix": key.prefix})
    return Response(status_code=204)
