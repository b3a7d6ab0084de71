"""POST /api/payments/stripe/webhook: Stripe tells us what became of payments (docs/money.md).

Each event is verified against SERVICEMATCH_STRIPE_WEBHOOK_SECRET before anything is read from it:
a forged, altered or stale body answers 400 and changes nothing. A verified event answers 200,
whether it did something, was handled before (a retry, a replay) or is of no interest; what it
does is in ledger/stripe_events.py. With card payments off (no SERVICEMATCH_STRIPE_SECRET_KEY) the
path answers 404, as if it were not there.
"""

from __future__ import annotations

import logging
from typing import Literal

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from servicematch.deps import SessionFactoryDep, SettingsDep
from servicematch.errors import ErrorBody, NothingHere, ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.ledger import stripe_events, stripe_gateway

log = logging.getLogger("servicematch.ledger")

PATH = "/api/payments/stripe/webhook"
# Stripe's payment events are a few kilobytes; a body past this is no event of ours.
MAX_EVENT_BYTES = 512 * 1024
BAD_SIGNATURE = "This event is not signed by Stripe with this endpoint's secret."

router = APIRouter(tags=["payments"])


class StripeAnswer(BaseModel):
    received: bool
    # credited: a payment credited now; recorded: a failure, dispute or refund on the ledger;
    # duplicate: this event was handled before; waiting: paid by a slower method, credited later;
    # ignored: of no interest, or about a payment that is not ours.
    outcome: Literal["credited", "recorded", "duplicate", "waiting", "ignored"]


async def _body(request: Request) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_EVENT_BYTES:
        raise ServiceMatchError("This event is too large.", status_code=413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_EVENT_BYTES:
            raise ServiceMatchError("This event is too large.", status_code=413)
        chunks.append(chunk)
    return b"".join(chunks)


def _apply(factory: sessionmaker[Session], event: dict, grace_days: int) -> str:
    with factory() as session:
        outcome = stripe_events.handle(session, event, utcnow(), grace_days=grace_days)
        session.commit()
    return outcome


@router.post(PATH, response_model=StripeAnswer, summary="Stripe's events about payments (signed by Stripe)",
             responses={400: {"model": ErrorBody, "description": "Not signed by Stripe with this endpoint's secret"},
                        404: {"description": "Card payments are not set up: no body"},
                        413: {"model": ErrorBody, "description": "Larger than any payment event"}})
async def stripe_webhook(request: Request, settings: SettingsDep, factory: SessionFactoryDep) -> StripeAnswer:
    if not stripe_gateway.enabled(settings):
        raise NothingHere()
    payload = await _body(request)
    signature = request.headers.get("stripe-signature", "")[:4096] or None
    if not settings.stripe_webhook_secret:
        log.error("SERVICEMATCH_STRIPE_WEBHOOK_SECRET is empty: Stripe's events cannot be verified, so none is "
                  "taken")
    try:
        event = stripe_gateway.verified_event(settings, payload, signature)
    except stripe_gateway.BadSignature:
        log.warning("a Stripe webhook call without a valid signature was refused")
        raise ServiceMatchError(BAD_SIGNATURE, status_code=400) from None
    outcome = await run_in_threadpool(_apply, factory, event, settings.overdue_grace_days)
    log.info("Stripe event %s (%s): %s", event["id"][:255], event["type"][:100], outcome)
    return StripeAnswer(received=True, outcome=outcome)


def install_stripe_webhook(app: FastAPI) -> None:
    app.include_router(router)
