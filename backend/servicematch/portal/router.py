"""The portal's API under /api/pro (the page itself is /pro, frontend/pro.html).

Signing in, out and back (a one-time link sets the password, an e-mailed one signs in a locked
account's owner) need no session; every other call needs the portal's session, and every one of
those that changes something its CSRF token (portal/auth.py). A provider's data lives under
/providers/{provider_id}: its own id only.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from servicematch.access import passwords, portal_signin
from servicematch.access.mailer import run_later
from servicematch.access.models import add_audit_entry
from servicematch.access.portal_signin import LINK_ASKED, PortalDoor, SignInActions
from servicematch.access.sessions import clear_session_cookie, end_session
from servicematch.access.throttle import Throttle
from servicematch.catalog.loader import CatalogDep
from servicematch.delivery.models import Provider
from servicematch.deps import SessionDep, SessionFactoryDep, SettingsDep, install_part, part_of
from servicematch.errors import (
    RATE_LIMITED_RESPONSES,
    SIGNED_IN_ERROR_RESPONSES,
    ErrorBody,
    ServiceMatchError,
)
from servicematch.inbound.ratelimit import SlidingWindowLimiter, counted_always, limit_store_of
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.portal import accounts, mail, profile
from servicematch.portal.auth import OwnProvider, SignedInProvider, request_ip
from servicematch.portal.models import ProviderAccount
from servicematch.portal.router_events import router as events_router
from servicematch.portal.router_funds import router as funds_router
from servicematch.portal.router_invoices import router as invoices_router
from servicematch.portal.router_join import PartnerMessage
from servicematch.portal.router_join import router as join_router
from servicematch.portal.router_money import router as money_router
from servicematch.portal.router_offers import router as offers_router
from servicematch.portal.router_reviews import install_reviews
from servicematch.portal.router_standing import router as standing_router
from servicematch.portal.sessions import API_PREFIX, PORTAL, PORTAL_DEVICE, SIGNIN_SURFACE
from servicematch.settings import Settings


class Action:
    SIGN_IN = "portal.signin.success"
    SIGN_IN_FAILED = "portal.signin.failure"
    SIGN_OUT = "portal.signout"
    PASSWORD_SET = "portal.password.set"
    PROFILE_CHANGE = "portal.profile.change"
    PAUSE = "portal.pause"
    RESUME = "portal.resume"
    TOTP_ON = "portal.totp.on"
    TOTP_OFF = "portal.totp.off"
    # A known device signed in while strangers' failures kept the account locked for everyone else.
    KNOWN_DEVICE = "portal.signin.known_device"
    LINK_SENT = "portal.signin.link_sent"
    LINK_USED = "portal.signin.link_used"


PROVIDER_DOOR = PortalDoor(accounts=accounts.PROVIDER_ACCOUNTS, device=PORTAL_DEVICE, surface=SIGNIN_SURFACE,
                           actions=SignInActions(sign_in=Action.SIGN_IN, failed=Action.SIGN_IN_FAILED,
                                                 password_set=Action.PASSWORD_SET, known_device=Action.KNOWN_DEVICE,
                                                 link_sent=Action.LINK_SENT, link_used=Action.LINK_USED))
NOT_FOUND_NO_BODY = {404: {"description": "Not this account's provider, or none: no body at all"}}
router = APIRouter(prefix=API_PREFIX, tags=["portal"],
                   responses={**SIGNED_IN_ERROR_RESPONSES, **RATE_LIMITED_RESPONSES})
_link_limit = Depends(counted_always("portal_link_limiter"))


class PortalSignIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    email: text(254, min_length=1)
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)
    totp: str | None = Field(default=None, max_length=12)


class PortalChoosePassword(BaseModel):
    """A password chosen through an invitation or a password link (the token from its fragment)."""

    token: text(200, min_length=1)
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)
    totp: str | None = Field(default=None, max_length=12)


class PortalForgot(BaseModel):
    email: text(254, min_length=1)


class PortalLinkAsk(BaseModel):
    email: text(254, min_length=1)


class PortalLinkSignIn(BaseModel):
    """Signing in with an e-mailed sign-in link (the token from its fragment)."""

    token: text(200, min_length=1)
    totp: str | None = Field(default=None, max_length=12)


class PortalAccount(BaseModel):
    email: str
    totpEnabled: bool


class PortalProvider(BaseModel):
    id: str
    name: str


class PortalSession(BaseModel):
    account: PortalAccount
    provider: PortalProvider
    csrfToken: str


class PortalTotpSetup(BaseModel):
    secret: str = Field(description="The seed, base32, for typing into an authenticator app")
    uri: str = Field(description="otpauth:// URI of the same seed")


class PortalTotpCode(BaseModel):
    code: text(12, min_length=1)


class PortalPasswordCheck(BaseModel):
    password: str = Field(min_length=1, max_length=passwords.MAX_PASSWORD_LENGTH)


def portal_throttle(settings: Settings) -> Throttle:
    return PROVIDER_DOOR.throttle(settings)


def _answer(settings: Settings, account: ProviderAccount, provider_name: str, csrf: str) -> PortalSession:
    return PortalSession(account=PortalAccount(email=account.email, totpEnabled=account.totp_secret is not None),
                         provider=PortalProvider(id=account.provider_id, name=provider_name), csrfToken=csrf)


def _signed_in(db, settings: Settings, request: Request, account: ProviderAccount) -> JSONResponse:
    """Start a session for the account; the answer sets its cookie, and marks the browser a known device."""
    opened = portal_signin.open_portal_session(db, settings, PROVIDER_DOOR, request, account, ip=request_ip(request))
    provider = db.get(Provider, account.provider_id)
    answer = _answer(settings, account, provider.name if provider else "", opened.csrf_token)
    return portal_signin.signed_in_response(settings, PROVIDER_DOOR, opened, account, answer.model_dump())


@router.post("/session", response_model=PortalSession, summary="Sign in (e-mail, password and, with TOTP on, a code)")
def sign_in(data: PortalSignIn, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    found = portal_signin.check_password(db, settings, PROVIDER_DOOR, request, ip=request_ip(request),
                                         email=data.email, password=data.password, code=data.totp)
    return found if isinstance(found, Response) else _signed_in(db, settings, request, found)


@router.get("/session", response_model=PortalSession, summary="The signed-in provider and the CSRF token")
def read_session(caller: SignedInProvider, settings: SettingsDep) -> PortalSession:
    return _answer(settings, caller.account, caller.provider.name, caller.csrf_token)


@router.delete("/session", status_code=204, summary="Sign out")
def sign_out(caller: SignedInProvider, db: SessionDep, settings: SettingsDep) -> Response:
    end_session(db, PORTAL, caller.session_id)
    add_audit_entry(db, action=Action.SIGN_OUT, actor_id=caller.account.id, actor_email=caller.account.email,
                    ip=caller.ip, target=caller.account.email)
    db.commit()
    response = Response(status_code=204)
    clear_session_cookie(response, PORTAL, settings=settings)
    return response


@router.post("/password", response_model=PortalSession, dependencies=[_link_limit],
             responses={410: {"model": ErrorBody, "description": "The link expired or was used already"}},
             summary="Choose a password with an invitation's or a password link's token; then signed in")
def choose_password(data: PortalChoosePassword, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    spent, account = accounts.account_for_link(db, data.token)
    passwords.check_password_strength(data.password)
    ip = request_ip(request)
    refused = portal_signin.check_link_code(db, settings, PROVIDER_DOOR, account, ip=ip, code=data.totp)
    if refused is not None:
        return refused
    accounts.set_password(db, account, data.password)
    add_audit_entry(db, action=Action.PASSWORD_SET, actor_id=account.id, actor_email=account.email, ip=ip,
                    target=account.email, detail={"link": spent.purpose})
    return _signed_in(db, settings, request, account)


@router.post("/password/forgot", status_code=202, response_model=PartnerMessage, dependencies=[_link_limit],
             summary="Mail a link to choose a new password (the same answer whether or not the address is known)")
async def forgot_password(data: PortalForgot, settings: SettingsDep, factory: SessionFactoryDep) -> PartnerMessage:
    return PartnerMessage(message=await run_in_threadpool(accounts.forgot_password, factory, settings, data.email))


@router.post("/session/link", status_code=202, response_model=PartnerMessage, dependencies=[_link_limit],
             summary="Mail a sign-in link to an account locked by failed sign-ins (the same answer for any address)")
async def ask_for_signin_link(data: PortalLinkAsk, request: Request, settings: SettingsDep,
                              factory: SessionFactoryDep) -> PartnerMessage:
    email, ip, now = passwords.normalise_email(data.email), request_ip(request), utcnow()
    # After the answer, on the mail thread: a known and an unknown address answer alike, in time too.
    run_later(lambda: portal_signin.mail_signin_link(
        factory, settings, PROVIDER_DOOR, email=email, ip=ip, now=now, send=_mail_signin_link(settings)))
    return PartnerMessage(message=LINK_ASKED.format(email=email))


def _mail_signin_link(settings: Settings):
    def send(address: str, token: str) -> None:
        subject, text = mail.signin_link(settings, token=token)
        mail.send_now(settings, to=address, subject=subject, text=text)
    return send


@router.post("/session/link/use", response_model=PortalSession, dependencies=[_link_limit],
             responses={410: {"model": ErrorBody, "description": "The link expired or was used already"}},
             summary="Sign in with an e-mailed sign-in link's token (and, with TOTP on, a code)")
def sign_in_by_link(data: PortalLinkSignIn, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    found = portal_signin.account_by_signin_link(db, settings, PROVIDER_DOOR, token=data.token, code=data.totp,
                                                 ip=request_ip(request))
    return found if isinstance(found, Response) else _signed_in(db, settings, request, found)


@router.get("/providers/{provider_id}", response_model=profile.ProviderProfile, responses=NOT_FOUND_NO_BODY,
            summary="The provider's profile (its own only)")
def read_profile(caller: OwnProvider) -> profile.ProviderProfile:
    return profile.profile_of(caller.provider)


def _recorded(db, caller, action: str, detail: dict | None = None) -> None:
    """The provider's own change, on the audit log, committed with it."""
    add_audit_entry(db, action=action, actor_id=caller.account.id, actor_email=caller.account.email, ip=caller.ip,
                    target=caller.provider.id, detail=detail)
    db.commit()


def _changed(db, caller, action: str, detail: dict | None = None) -> profile.ProviderProfile:
    _recorded(db, caller, action, detail)
    return profile.profile_of(caller.provider)


@router.patch("/providers/{provider_id}", response_model=profile.ProviderProfile, responses=NOT_FOUND_NO_BODY,
              summary="Change the profile; send only the fields to change")
def change_profile(changes: profile.ProviderProfileChanges, caller: OwnProvider, db: SessionDep,
                   catalog: CatalogDep) -> profile.ProviderProfile:
    fields = profile.change_profile(db, catalog, caller.provider, changes)
    return _changed(db, caller, Action.PROFILE_CHANGE, {"fields": fields})


@router.post("/providers/{provider_id}/pause", response_model=profile.ProviderProfile, responses=NOT_FOUND_NO_BODY,
             summary="Pause: no new leads until resumed")
def pause(caller: OwnProvider, db: SessionDep) -> profile.ProviderProfile:
    profile.pause(caller.provider)
    return _changed(db, caller, Action.PAUSE)


@router.post("/providers/{provider_id}/resume", response_model=profile.ProviderProfile, responses=NOT_FOUND_NO_BODY,
             summary="Resume after pausing (not when an operator paused the provider)")
def resume(caller: OwnProvider, db: SessionDep) -> profile.ProviderProfile:
    profile.resume(caller.provider)
    return _changed(db, caller, Action.RESUME)


@router.post("/account/totp", response_model=PortalTotpSetup,
             summary="Start turning on the second factor: a new seed for an authenticator app")
def start_totp(caller: SignedInProvider, db: SessionDep, settings: SettingsDep) -> PortalTotpSetup:
    seed, uri = accounts.start_totp(settings, caller.account)
    db.commit()
    return PortalTotpSetup(secret=seed, uri=uri)


@router.post("/account/totp/confirm", response_model=PortalAccount,
             summary="Turn the second factor on with a code from the app")
def confirm_totp(body: PortalTotpCode, caller: SignedInProvider, db: SessionDep, settings: SettingsDep) -> PortalAccount:
    accounts.confirm_totp(settings, caller.account, body.code)
    _recorded(db, caller, Action.TOTP_ON)
    return PortalAccount(email=caller.account.email, totpEnabled=True)


@router.post("/account/totp/disable", response_model=PortalAccount,
             summary="Turn the second factor off (the password again, to be sure it is the provider)")
def disable_totp(body: PortalPasswordCheck, caller: SignedInProvider, db: SessionDep) -> PortalAccount:
    if not accounts.password_matches(caller.account, body.password):
        raise ServiceMatchError("That is not your password.", fields={"password": "wrong"}, status_code=422)
    accounts.disable_totp(caller.account)
    _recorded(db, caller, Action.TOTP_OFF)
    return PortalAccount(email=caller.account.email, totpEnabled=False)


router.include_router(money_router)
router.include_router(funds_router)
router.include_router(invoices_router)


def install_portal(app: FastAPI) -> None:
    """The portal's API and the joining API, with their per-address limits in the app's store."""
    settings: Settings = part_of(app, "settings")
    store = limit_store_of(app)
    install_part(app, "partner_apply_limiter", SlidingWindowLimiter(
        name="partner-apply", limit=settings.partner_application_rate_limit, window_seconds=3600, store=store))
    # Links and forgotten passwords: guessing a token and mail-bombing an address stay slow.
    install_part(app, "portal_link_limiter", SlidingWindowLimiter(name="portal-link", limit=40, window_seconds=900,
                                                                  store=store))
    app.include_router(join_router)
    app.include_router(router)
    app.include_router(offers_router)
    install_reviews(app, store)  # the consumer's review link, and the provider's reviews
    app.include_router(events_router)
    app.include_router(standing_router)
