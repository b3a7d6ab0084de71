"""POST /api/validate, /api/submit-form and /api/call-submit."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.router import CatalogDep, SettingsDep
from servicematch.errors import ErrorBody, NotFound
from servicematch.settings import Settings

from . import recaptcha
from .body_limit import BodySizeLimit
from .checks import CheckedLead, check_call_flow, check_lead_form
from .client import client_ip, sends_global_privacy_control, user_agent
from .consent import ConsentEvidence
from .ratelimit import SlidingWindowLimiter, enforce
from .schemas import (
    CallFlowSubmission,
    Click,
    LeadAccepted,
    LeadFormSubmission,
    ValidateRequest,
    ValidateResponse,
)
from .service import build_lead, find_replay, fingerprint, store_lead
from .validation import check_email, check_phone

log = logging.getLogger("servicematch.intake")

MAX_BODY_BYTES = 64 * 1024
INTAKE_PATHS = frozenset({"/api/validate", "/api/submit-form", "/api/call-submit"})
SERVICE_NOT_FOUND = "Service Not Found"


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """Error answers particular to these routes; 400, 404 and 422 are documented app-wide."""
    return {code: {"model": ErrorBody} for code in codes}


def enforce_submit_rate(request: Request) -> None:
    """Count this submission against the client's address; 429 once the window is used up."""
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
             responses=_errors(409, 413, 429))
def submit_form(submission: LeadFormSubmission, request: Request, settings: SettingsDep,
                index: CatalogDep, _: RateLimited) -> LeadAccepted:
    consumer = submission.consumer
    service = index.find_by_hidden_params(consumer.vertical, consumer.category)
    if service is None or service.flow != "form":
        raise NotFound(SERVICE_NOT_FOUND, fields={"consumer.category": SERVICE_NOT_FOUND})
    return _accept(
        request=request, settings=settings, index=index, body=submission.model_dump(mode="json"),
        token=submission.recaptchaToken, click=submission.click, is_test=submission.istest == "Y",
        check=lambda today: check_lead_form(index=index, service=service, submission=submission, today=today),
    )


@router.post("/call-submit", status_code=202, summary="Accept a lead from the call-flow questionnaire",
             responses=_errors(409, 413, 429))
def call_submit(submission: CallFlowSubmission, request: Request, settings: SettingsDep,
                index: CatalogDep, _: RateLimited) -> LeadAccepted:
    service = index.find(submission.service, submission.vertical)
    if service is None or service.flow != "call":
        raise NotFound(SERVICE_NOT_FOUND, fields={"service": SERVICE_NOT_FOUND})
    return _accept(
        request=request, settings=settings, index=index, body=submission.model_dump(mode="json"),
        token=submission.recaptchaToken, click=submission.click, is_test=False,
        check=lambda today: check_call_flow(service=service, submission=submission, today=today),
    )


def _accept(*, request: Request, settings: Settings, index: CatalogIndex, body: dict, token: str | None,
            click: Click, is_test: bool, check) -> LeadAccepted:
    """Replay an identical earlier request, or verify, check and store a new lead."""
    request_hash = fingerprint(body)
    factory = request.app.state.session_factory
    if recaptcha.is_enabled(settings):
        # A replay's token was single-use, so answer it before asking reCAPTCHA again. Without
        # reCAPTCHA the unique requestId in store_lead settles replays, one query cheaper.
        with factory() as session:
            earlier = find_replay(session=session, request_id=body["requestId"], request_hash=request_hash)
        if earlier is not None:
            return LeadAccepted(leadId=earlier.id, requestId=earlier.request_id)
    ip = client_ip(request, trusted_proxies=settings.trusted_proxies)
    recaptcha.verify(settings=settings, token=token, remote_ip=ip)
    checked: CheckedLead = check(datetime.now(UTC).date())
    gpc = sends_global_privacy_control(request)
    lead = build_lead(settings=settings, checked=checked, request_id=body["requestId"],
                      request_hash=request_hash, is_test=is_test, click=click.model_dump(), do_not_sell=gpc)
    evidence = ConsentEvidence(
        ip_address=ip, user_agent=user_agent(request, reported=click.useragent), page_url=click.domain_url,
        trustedform_cert_url=click.trustedform, global_privacy_control=gpc,
    )
    stored = store_lead(session_factory=factory, settings=settings, index=index, lead=lead, evidence=evidence)
    return LeadAccepted(leadId=stored.id, requestId=stored.request_id)


def install_intake(app: FastAPI) -> None:
    """Add the intake routes, their body-size cap and the per-IP submission limiter to the app."""
    settings: Settings = app.state.settings
    app.state.submit_limiter = SlidingWindowLimiter(
        limit=settings.submit_rate_limit, window_seconds=settings.submit_rate_window_seconds
    )
    app.add_middleware(BodySizeLimit, max_bytes=MAX_BODY_BYTES, paths=INTAKE_PATHS)
    app.include_router(router)
    if not recaptcha.is_enabled(settings):
        log.warning("reCAPTCHA is off (SERVICEMATCH_RECAPTCHA_SECRET_KEY is empty): "
                    "lead submissions are accepted without a bot check")
