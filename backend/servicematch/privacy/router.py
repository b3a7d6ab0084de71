"""Privacy API: rights requests proved by a one-time code, and the receipt's one-click stop."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, FastAPI, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionFactoryDep, SettingsDep, install_part
from servicematch.errors import RATE_LIMITED_RESPONSES
from servicematch.inbound.ratelimit import SlidingWindowLimiter, counted_always, limit_store_of
from servicematch.intake.schemas import text
from servicematch.privacy import requests as rights
from servicematch.privacy import stop
from servicematch.settings import Settings


class StartRequest(BaseModel):
    kind: Literal["access", "delete", "correct", "opt_out", "stop"]
    email: str = Field(default="", max_length=254)
    phone: str = Field(default="", max_length=32)
    correction: str = Field(default="", max_length=4000)


class Started(BaseModel):
    requestId: str
    message: str


class VerifyRequest(BaseModel):
    code: text(32)


class Verified(BaseModel):
    kind: str
    requestId: str
    message: str
    report: dict | None = None


class LinkToken(BaseModel):
    token: text(2000)


class StopPreview(BaseModel):
    requests: list[dict]
    recipients: list[str]
    alreadyStopped: bool


class Stopped(BaseModel):
    message: str
    stopped: int



router = APIRouter(tags=["privacy"], responses=RATE_LIMITED_RESPONSES)
# Per client address, on top of the per-contact limit on codes: guessing and mail-bombing stay slow.
_start_limit = Depends(counted_always("privacy_start_limiter"))
_try_limit = Depends(counted_always("privacy_try_limiter"))


def install_privacy(app: FastAPI, settings: Settings) -> None:
    """The privacy routes and their limits, in the app's rate-limit store (Redis when it is set)."""
    store = limit_store_of(app)
    install_part(app, "privacy_start_limiter", SlidingWindowLimiter(name="privacy-start", limit=20,
                                                                    window_seconds=900, store=store))
    install_part(app, "privacy_try_limiter", SlidingWindowLimiter(name="privacy-try", limit=40,
                                                                  window_seconds=900, store=store))
    app.include_router(router)


@router.post("/api/privacy/requests", status_code=202, response_model=Started, dependencies=[_start_limit],
             summary="Start a rights request: a code goes to the e-mail address (on file, for a phone)")
async def start(body: StartRequest, settings: SettingsDep, factory: SessionFactoryDep) -> Started:
    channel = "choices page" if body.kind == "stop" else "web form"
    started = await run_in_threadpool(
        rights.start_request, session_factory=factory, settings=settings, kind=body.kind, channel=channel,
        email=body.email, phone=body.phone, correction=body.correction)
    return Started(requestId=started.request_id, message=started.message)


@router.post("/api/privacy/requests/{request_id}/verify", response_model=Verified, dependencies=[_try_limit],
             summary="Prove the e-mail with the code; the request is carried out and closed")
async def verify(request_id: str, body: VerifyRequest, settings: SettingsDep,
                 factory: SessionFactoryDep, index: CatalogDep) -> Verified:
    answer = await run_in_threadpool(rights.verify_request, session_factory=factory, settings=settings,
                                     request_id=request_id[:64], code=body.code, index=index)
    return Verified(**answer)


@router.post("/api/privacy/stop/preview", response_model=StopPreview,
             summary="What a receipt's stop link would stop (changes nothing)")
async def stop_preview(body: LinkToken, settings: SettingsDep, factory: SessionFactoryDep) -> StopPreview:
    return StopPreview(**await run_in_threadpool(stop.preview_stop, session_factory=factory,
                                                 settings=settings, token=body.token))


@router.post("/api/privacy/stop", response_model=Stopped, dependencies=[_try_limit],
             summary="Withdraw consent with a receipt's stop link")
async def stop_now(body: LinkToken, settings: SettingsDep, factory: SessionFactoryDep) -> Stopped:
    return Stopped(**await run_in_threadpool(stop.stop_by_link, session_factory=factory, settings=settings,
                                             token=body.token))


@router.post("/api/privacy/one-click", response_model=Stopped, dependencies=[_try_limit],
             summary="RFC 8058 one-click stop: the List-Unsubscribe-Post target of a receipt")
async def one_click(request: Request, settings: SettingsDep, factory: SessionFactoryDep) -> Stopped:
    """The mail client POSTs `List-Unsubscribe=One-Click` here, the token in the query string."""
    return Stopped(**await run_in_threadpool(stop.stop_by_link, session_factory=factory, settings=settings,
                                             token=request.query_params.get("t", "")))
