"""The portal's API under /api/pro (the page itself is /pro, frontend/pro.html).

Signing in, out and back (a one-time link sets the password, an e-mailed one signs in a locked
account's owner) need no session; every other call needs the portal's session, and every one of
those that changes something its CSRF token (portal/auth.py). A provider's data lives under
/providers/{provider_id}: its own id only.
"""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from servicematch.access import devices, links, passwords
from servicematch.access.models import add_audit_entry
from servicematch.access.sessions import (
    clear_session_cookie,
    csrf_token_for,
    end_session,
    open_session,
    set_session_cookie,
)
from servicematch.access.throttle import (
    DEVICE,
    LINK,
    Throttle,
    enforce_signin_throttle,
)
from servicematch.catalog.loader import CatalogDep
from servicematch.delivery.models import Provider
from servicematch.deps import SessionDep, SessionFactoryDep, SettingsDep, install_part, part_of
from servicematch.errors import (
    RATE_LIMITED_RESPONSES,
    SIGNED_IN_ERROR_RESPONSES,
    ErrorBody,
    ServiceMatchError,
    error_body,
)
from servicematch.inbound.ratelimit import SlidingWindowLimiter, counted_always, limit_store_of
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.portal import accounts, mail, profile
from servicematch.portal.auth import OwnProvider, SignedInProvider, request_ip
from servicematch.portal.invitations import find_account
from servicematch.portal.models import ProviderAccount
from servicematch.portal.router_events import router as events_router
from servicematch.portal.router_join import PartnerMessage
from servicematch.portal.router_join import router as join_router
from servicematch.portal.router_money import router as money_router
from servicematch.portal.router_offers import router as offers_router
from servicematch.portal.router_reviews import install_reviews
from servicematch.portal.sessions import API_PREFIX, PORTAL, PORTAL_DEVICE, SIGNIN_SURFACE
from servicematch.settings import Settings

WRONG_CREDENTIALS = "The e-mail address or password is not right."
CODE_NEEDED = "Enter the 6-digit code from your authenticator app."
LINK_ASKED = ("If {email} is the address of an account locked by failed sign-in attempts, we sent it a sign-in "
              "link. The link works once, for 15 minutes; check your spam folder if it does not arrive.")


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
    return Throttle(failure_action=Action.SIGN_IN_FAILED, per_account=settings.portal_signin_failures_per_account,
                    per_address=settings.portal_signin_failures_per_address,
                    window=timedelta(seconds=settings.portal_signin_window_seconds),
                    per_device=settings.portal_signin_failures_per_device)


def _answer(settings: Settings, account: ProviderAccount, provider_name: str, csrf: str) -> PortalSession:
    return PortalSession(account=PortalAccount(email=account.email, totpEnabled=account.totp_secret is not None),
                         provider=PortalProvider(id=account.provider_id, name=provider_name), csrfToken=csrf)


def _signed_in(db, settings: Settings, request: Request, account: ProviderAccount) -> JSONResponse:
    """Start a session for the account; the answer sets its cookie, and marks the browser a known device."""
    token, _row = open_session(db, PORTAL, owner_id=account.id, ip=request_ip(request),
                               user_agent=request.headers.get("user-agent", ""),
                               lifetime=timedelta(hours=settings.portal_session_max_hours))
    add_audit_entry(db, action=Action.SIGN_IN, actor_id=account.id, actor_email=account.email,
                    ip=request_ip(request), target=account.email)
    db.commit()
    provider = db.get(Provider, account.provider_id)
    answer = _answer(settings, account, provider.name if provider else "", csrf_token_for(settings, PORTAL, token))
    response = JSONResponse(answer.model_dump())
    set_session_cookie(response, PORTAL, token, max_age=settings.portal_session_max_hours * 3600, settings=settings)
    devices.remember(response, settings, PORTAL_DEVICE, account_id=account.id, now=utcnow())
    return response


def _known_device(request: Request, settings: Settings, account: ProviderAccount | None, now) -> str | None:
    """The device's name when the browser holds this account's known-device cookie."""
    if account is None:
        return None
    return devices.recognised(settings, PORTAL_DEVICE, request.cookies.get(PORTAL_DEVICE.name), account_id=account.id,
                              not_before=account.password_changed_at, now=now)


def _refused(message: str, *, totp_required: bool = False) -> JSONResponse:
    body = error_body(message)
    if totp_required:
        body["totpRequired"] = True
    return JSONResponse(body, status_code=401)


@router.post("/session", response_model=PortalSession, summary="Sign in (e-mail, password and, with TOTP on, a code)")
def sign_in(data: PortalSignIn, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    ip, email, now = request_ip(request), passwords.normalise_email(data.email), utcnow()
    account = find_account(db, email)
    device = _known_device(request, settings, account, now)
    past_lockout = enforce_signin_throttle(db, portal_throttle(settings), email=email, ip=ip, now=now, device=device)
    # A known device's failures name it: they count against it, as well as against the account.
    through = {DEVICE: device} if device else {}
    # password_matches runs Argon2 even for an unknown e-mail, so the answer time does not tell.
    if not accounts.password_matches(account, data.password):
        named = account.email if account is not None else ""
        add_audit_entry(db, action=Action.SIGN_IN_FAILED, actor_id=None, actor_email=named, ip=ip, target=named,
                        detail={"reason": "credentials" if named else "unknown account", **through})
        db.commit()
        return _refused(WRONG_CREDENTIALS)
    if account.totp_secret is not None:
        if not data.totp:
            return _refused(CODE_NEEDED, totp_required=True)
        if not accounts.verify_totp(settings, account, data.totp):
            add_audit_entry(db, action=Action.SIGN_IN_FAILED, actor_id=None, actor_email=email, ip=ip, target=email,
                            detail={"reason": "totp", **through})
            db.commit()
            return _refused(accounts.WRONG_CODE, totp_required=True)
    if past_lockout:
        add_audit_entry(db, action=Action.KNOWN_DEVICE, actor_id=account.id, actor_email=account.email, ip=ip,
                        target=account.email, detail=through)
    return _signed_in(db, settings, request, account)


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
    # A lost password is no way around the second factor: with TOTP on, the link also needs a code.
    if account.totp_secret is not None:
        if not data.totp:
            return _refused(CODE_NEEDED, totp_required=True)
        if not accounts.verify_totp(settings, account, data.totp):
            db.rollback()  # the link stays good for the right code; the wrong one counts as a failed sign-in
            add_audit_entry(db, action=Action.SIGN_IN_FAILED, actor_id=None, actor_email=account.email,
                            ip=request_ip(request), target=account.email, detail={"reason": "totp"})
            db.commit()
            return _refused(accounts.WRONG_CODE, totp_required=True)
    accounts.set_password(db, account, data.password)
    add_audit_entry(db, action=Action.PASSWORD_SET, actor_id=account.id, actor_email=account.email,
                    ip=request_ip(request), target=account.email, detail={"link": spent.purpose})
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
    mail.run_later(lambda: _mail_signin_link(factory, settings, email=email, ip=ip, now=now))
    return PartnerMessage(message=LINK_ASKED.format(email=email))


def _mail_signin_link(factory, settings: Settings, *, email: str, ip: str, now) -> None:
    issued = links.issue_when_locked(factory, surface=SIGNIN_SURFACE, throttle=portal_throttle(settings),
                                     find=find_account, sent_action=Action.LINK_SENT, email=email, ip=ip, now=now)
    if issued is not None:
        subject, text = mail.signin_link(settings, token=issued.token)
        mail.send_now(settings, to=issued.email, subject=subject, text=text)


@router.post("/session/link/use", response_model=PortalSession, dependencies=[_link_limit],
             responses={410: {"model": ErrorBody, "description": "The link expired or was used already"}},
             summary="Sign in with an e-mailed sign-in link's token (and, with TOTP on, a code)")
def sign_in_by_link(data: PortalLinkSignIn, request: Request, db: SessionDep, settings: SettingsDep) -> Response:
    ip, now = request_ip(request), utcnow()
    link = links.redeem(db, data.token, surface=SIGNIN_SURFACE, now=now)
    account = db.get(ProviderAccount, link.account_id)
    if account is None or not account.active or account.password_hash is None:
        raise links.spent()
    if account.totp_secret is not None:
        refused = _link_code_refused(db, settings, account, link_id=link.id, code=data.totp, ip=ip, now=now)
        if refused is not None:
            return refused
    links.void_outstanding(db, surface=SIGNIN_SURFACE, account_id=account.id, now=now)
    add_audit_entry(db, action=Action.LINK_USED, actor_id=account.id, actor_email=account.email, ip=ip,
                    target=account.email)
    return _signed_in(db, settings, request, account)


def _link_code_refused(db, settings: Settings, account: ProviderAccount, *, link_id: str, code: str | None, ip: str,
                       now) -> JSONResponse | None:
    """None when the code is right; else the refusal (links.code_problem)."""
    email = account.email
    problem = links.code_problem(
        db, portal_throttle(settings), email=email, link_id=link_id, code=code, now=now,
        right=lambda given: accounts.verify_totp(settings, account, given),
        record_wrong=lambda: add_audit_entry(db, action=Action.SIGN_IN_FAILED, actor_id=None, actor_email=email,
                                             ip=ip, target=email, detail={"reason": "totp", LINK: link_id}))
    if problem is None:
        return None
    return _refused(CODE_NEEDED if problem == links.CODE_MISSING else accounts.WRONG_CODE, totp_required=True)


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
