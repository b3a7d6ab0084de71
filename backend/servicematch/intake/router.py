"""POST /api/validate, /api/submit-form and /api/call-submit."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from servicematch.catalog.router import CatalogDep, SettingsDep
from servicematch.errors import ErrorBody, NotFound
from servicematch.settings import Settings

from . import recaptcha
from .body_limit import BodySizeLimit
from .checks import CheckedLead, check_call_flow, check_lead_form
from .client import client_ip, sends_global_privacy_control, user_agent
from .consent import ConsentEvidence
from .models import Lead
from .ratelimit import SlidingWindowLimiter, enforce
from .schemas import (
    CallFlowSubmission,
    Click,
    LeadAccepted,
    LeadFormSubmission,
    ValidateRequest,
    ValidateResponse,
)
from .service import NewLead, build_lead, find_replay, fingerprint
from .validation import check_email, check_phone
from .writer import LeadWriter

log = logging.getLogger("servicematch.intake")

MAX_BODY_BYTES = 64 * 1024
INTAKE_PATHS = frozenset({"/api/validate", "/api/submit-form", "/api/call-submit"})
SERVICE_NOT_FOUND = "Service Not Found"


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """Error answers particular to these routes; 400, 404 and 422 are documented app-wide."""
    return {code: {"model": ErrorBody} for code in codes}


async def enforce_submit_rate(request: Request) -> None:
    """Count this submission against the client's address; 429 once the window is used up.

    A coroutine because it never blocks (the limiter's lock is held for a dictionary update),
    which spares each submission a trip through the thread pool.
    """
    settings: Settings = request.app.state.settings
    enforce(limiter=request.app.state.submit_limiter,
            client=client_ip(request, trusted_proxies=settings.trusted_proxies))


RateLimited = Annotated[None, Depends(enforce_submit_rate)]
router = APIRouter(prefix="/api", tags=["intake"])


@router.post("/validate", summary="Check one email address or phone number",
             responses=_errors(413))
def validate(body: ValidateRequest) -> ValidateResponse:
    error = check_email(body.value) if body.type == "email" else check_phone(body.value)
    return ValidateResponse(isValid=error is None, error=error)


@router.post("/submit-form", status_code=202, summary="Accept a lead from the multi-step form",
             response_model=LeadAccepted, responses=_errors(409, 413, 429))
async def submit_form(submission: LeadFormSubmission, request: Request, settings: SettingsDep,
                index: CatalogDep, _: RateLimited) -> JSONResponse:
    consumer = submission.consumer
    service = index.find_by_hidden_params(consumer.vertical, consumer.category)
    if service is None or service.flow != "form":
        raise NotFound(SERVICE_NOT_FOUND, fields={"consumer.category": SERVICE_NOT_FOUND})
    return await _accept(
        request=request, settings=settings, body=submission.model_dump(mode="json"),
        token=submission.recaptchaToken, click=submission.click, is_test=submission.istest == "Y",
        check=lambda today: check_lead_form(index=index, service=service, submission=submission, today=today),
    )


@router.post("/call-submit", status_code=202, summary="Accept a lead from the call-flow questionnaire",
             response_model=LeadAccepted, responses=_errors(409, 413, 429))
async def call_submit(submission: CallFlowSubmission, request: Request, settings: SettingsDep,
                index: CatalogDep, _: RateLimited) -> JSONResponse:
    service = index.find(submission.service, submission.vertical)
    if service is None or service.flow != "call":
        raise NotFound(SERVICE_NOT_FOUND, fields={"service": SERVICE_NOT_FOUND})
    return await _accept(
        request=request, settings=settings, body=submission.model_dump(mode="json"),
        token=submission.recaptchaToken, click=submission.click, is_test=False,
        check=lambda today: check_call_flow(service=service, submission=submission, today=today),
    )


async def _accept(*, request: Request, settings: Settings, body: dict, token: str | None,
                  click: Click, is_test: bool, check) -> JSONResponse:
    """Replay an identical earlier request, or verify, check and store a new lead.

    A coroutine: checking and encrypting a lead is a fraction of a millisecond of CPU, done on
    the event loop; what blocks (reCAPTCHA's HTTP call, a database read) goes to the thread
    pool, and storing waits on the lead writer without holding a thread.
    """
    request_hash = fingerprint(body)
    ip = client_ip(request, trusted_proxies=settings.trusted_proxies)
    if recaptcha.is_enabled(settings):
        # A replay's token was single-use, so answer it before asking reCAPTCHA again. Without
        # reCAPTCHA the unique requestId in store_leads settles replays, one query cheaper.
        earlier = await run_in_threadpool(_earlier_lead, request=request, request_id=body["requestId"],
                                          request_hash=request_hash)
        if earlier is not None:
            return _accepted(earlier)
        await run_in_threadpool(recaptcha.verify, settings=settings, token=token, remote_ip=ip)
    checked: CheckedLead = check(datetime.now(UTC).date())
    gpc = sends_global_privacy_control(request)
    lead = build_lead(settings=settings, checked=checked, request_id=body["requestId"],
                      request_hash=request_hash, is_test=is_test, click=click.model_dump(), do_not_sell=gpc)
    evidence = ConsentEvidence(
        ip_address=ip, user_agent=user_agent(request, reported=click.useragent), page_url=click.domain_url,
        trustedform_cert_url=click.trustedform, global_privacy_control=gpc,
    )
    stored = await request.app.state.lead_writer.store(NewLead(lead=lead, evidence=evidence))
    return _accepted(stored)


def _earlier_lead(*, request: Request, request_id: str, request_hash: str) -> Lead | None:
    with request.app.state.session_factory() as session:
        return find_replay(session=session, request_id=request_id, request_hash=request_hash)


def _accepted(lead: Lead) -> JSONResponse:
    # Built directly: the route's response_model documents this shape, and skipping FastAPI's
    # validation of our own two strings saves every submission a model round trip.
    return JSONResponse({"leadId": lead.id, "requestId": lead.request_id}, status_code=202)


def install_intake(app: FastAPI) -> None:
    """Add the intake routes, their body-size cap, the per-IP submission limiter and the lead writer."""
    settings: Settings = app.state.settings
    app.state.submit_limiter = SlidingWindowLimiter(
        limit=settings.submit_rate_limit, window_seconds=settings.submit_rate_window_seconds
    )
    app.state.lead_writer = LeadWriter(session_factory=app.state.session_factory, settings=settings,
                                       index=app.state.catalog)
    app.router.on_shutdown.append(app.state.lead_writer.stop)
    app.add_middleware(BodySizeLimit, max_bytes=MAX_BODY_BYTES, paths=INTAKE_PATHS)
    app.include_router(router)
    if not recaptcha.is_enabled(settings):
        log.warning("reCAPTCHA is off (SERVICEMATCH_RECAPTCHA_SECRET_KEY is empty): "
                    "lead submissions are accepted without a bot check")
