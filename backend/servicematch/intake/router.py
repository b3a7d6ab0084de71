"""POST /api/validate, /api/submit-form and /api/call-submit: parse, find the service, hand to submission."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute

from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SettingsDep
from servicematch.errors import ErrorBody, NotFound, ServiceMatchError
from servicematch.inbound.client import client_ip, sends_global_privacy_control, user_agent
from servicematch.inbound.ratelimit import Allowance, counted_always, counted_when_accepted
from servicematch.inbound.validation import check_email, check_phone
from servicematch.intake.store import LeadStoreDep
from servicematch.kernel.logs import LEAD_REFERENCE
from servicematch.kernel.metrics import count_lead
from servicematch.kernel.references import shown_reference
from servicematch.settings import Settings

from .checks import check_call_flow, check_lead_form
from .schemas import (
    CallFlowSubmission,
    LeadAccepted,
    LeadFormSubmission,
    ValidateRequest,
    ValidateResponse,
)
from .service import StoredLead
from .status_token import status_token
from .submission import Sender, Submission, accept

MAX_BODY_BYTES = 64 * 1024
INTAKE_PATHS = frozenset({"/api/validate", "/api/submit-form", "/api/call-submit"})
SERVICE_NOT_FOUND = "Service Not Found"


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """Error answers particular to these routes; 400, 404 and 422 are documented app-wide."""
    return {code: {"model": ErrorBody} for code in codes}


# A submission counts against the client's allowance only once accepted (or replayed):
# a refused one (422, 404, 409) costs the visitor nothing. 429 once the window is used up.
enforce_submit_rate = counted_when_accepted("submit_limiter")


RateLimited = Annotated[Allowance, Depends(enforce_submit_rate)]
LookupLimited = Annotated[None, Depends(counted_always("validate_limiter"))]
LEAD_PATHS = frozenset({"/api/submit-form", "/api/call-submit"})
# servicematch_leads_total{outcome}: why a submission was refused, by the status it was refused with.
REFUSALS = {400: "recaptcha_failed", 404: "unknown_service", 409: "request_id_reused", 422: "invalid",
            429: "rate_limited"}


class CountedLeadRoute(APIRoute):
    """Counts every submission to the lead routes by outcome, whoever answered it: the route, its
    rate limit (429) or the body's validation (422), which both answer before the route runs."""

    def get_route_handler(self) -> Callable[[Request], Awaitable[Response]]:
        handler = super().get_route_handler()
        if self.path not in LEAD_PATHS:
            return handler

        async def counted(request: Request) -> Response:
            try:
                response = await handler(request)
            except RequestValidationError:
                count_lead("invalid")
                raise
            except ServiceMatchError as refusal:
                count_lead(REFUSALS.get(refusal.status_code, "failed"))
                raise
            except Exception:
                count_lead("failed")
                raise
            count_lead("accepted" if response.status_code == 202 else "failed")
            return response

        return counted


router = APIRouter(prefix="/api", tags=["intake"], route_class=CountedLeadRoute)


@router.post("/validate", summary="Check one email address or phone number",
             responses=_errors(413, 429))
def validate(body: ValidateRequest, _: LookupLimited) -> ValidateResponse:
    error = check_email(body.value) if body.type == "email" else check_phone(body.value)
    return ValidateResponse(isValid=error is None, error=error)


@router.post("/submit-form", status_code=202, summary="Accept a lead from the multi-step form",
             response_model=LeadAccepted, responses=_errors(409, 413, 429))
async def submit_form(submission: LeadFormSubmission, request: Request, settings: SettingsDep,
                      index: CatalogDep, store: LeadStoreDep, allowance: RateLimited) -> JSONResponse:
    consumer = submission.consumer
    service = index.find_by_hidden_params(consumer.vertical, consumer.category)
    if service is None or service.flow != "form":
        raise NotFound(SERVICE_NOT_FOUND, fields={"consumer.category": SERVICE_NOT_FOUND})
    parsed = Submission(
        body=submission.model_dump(mode="json"), recaptcha_token=submission.recaptchaToken,
        click=submission.click, is_test=submission.istest == "Y",
        check=lambda today: check_lead_form(index=index, service=service, submission=submission, today=today),
    )
    return await _accepted(allowance, await accept(store=store, settings=settings, submission=parsed,
                                                   sender=_sender(request, settings, parsed)), settings)


@router.post("/call-submit", status_code=202, summary="Accept a lead from the call-flow questionnaire",
             response_model=LeadAccepted, responses=_errors(409, 413, 429))
async def call_submit(submission: CallFlowSubmission, request: Request, settings: SettingsDep,
                      index: CatalogDep, store: LeadStoreDep, allowance: RateLimited) -> JSONResponse:
    service = index.find(submission.service, submission.vertical)
    if service is None or service.flow != "call":
        raise NotFound(SERVICE_NOT_FOUND, fields={"service": SERVICE_NOT_FOUND})
    parsed = Submission(
        body=submission.model_dump(mode="json"), recaptcha_token=submission.recaptchaToken,
        click=submission.click, is_test=False,
        check=lambda today: check_call_flow(index=index, service=service, submission=submission, today=today),
    )
    return await _accepted(allowance, await accept(store=store, settings=settings, submission=parsed,
                                                   sender=_sender(request, settings, parsed)), settings)


def _sender(request: Request, settings: Settings, submission: Submission) -> Sender:
    return Sender(ip=client_ip(request, trusted_proxies=settings.trusted_proxies),
                  user_agent=user_agent(request, reported=submission.click.useragent),
                  global_privacy_control=sends_global_privacy_control(request))


async def _accepted(allowance: Allowance, stored: StoredLead, settings: Settings) -> JSONResponse:
    """The 202 for a stored (or replayed) lead, which spends one of the client's submissions."""
    await allowance.spend()
    # Built directly: the route's response_model documents this shape, and skipping FastAPI's
    # validation of our own strings saves every submission a model round trip.
    lead = stored.lead
    LEAD_REFERENCE.set(shown_reference(lead.reference))  # log lines of this request name the lead
    # Who gets the lead is decided after this answer, by routing: the list is always empty here,
    # and the status token lets this browser ask afterwards.
    return JSONResponse({"leadId": lead.id, "requestId": lead.request_id, "reference": shown_reference(lead.reference),
                         "statusToken": status_token(settings, lead.id), "providers": []},
                        status_code=202)
