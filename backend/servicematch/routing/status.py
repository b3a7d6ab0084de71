"""GET /api/leads/{requestId}/status: what became of a lead, for the thank-you page of the browser
that submitted it (the status token of its submit answer, in a header; never in a URL).

Routing has finished with a lead once its auction is closed (decided, every buyer post settled)
and none of its deliveries to a buyer or provider is still being sent; until then the answer says
so and names nobody. Finished, it names exactly the companies the consumer's details reached (a
2xx, or the SMTP server took the e-mail): not a buyer that refused its post, not a provider whose
webhook said no, not a provider whose offer is still open or was declined (one that accepted it in
the portal is named), and nobody for a duplicate, a do-not-sell lead no provider took, or a stopped one.
A lead the quality gate held is finished for now and names nobody, saying only that it is being
reviewed (routing pinged no one: nobody has the details); one an operator rejected is finished
and named nobody, saying it was not passed on; one released is routed again, as any other lead.
Each company consumers have rated comes with its rating, and each is said to be what it is: a lead
buyer (which may pass the request on) or a provider in the network, with whether an operator
checked its licence; the answer names the service too, so the page can say what the provider offers.
The answer holds no personal data; a wrong or missing token is the same 404 as an unknown request.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Path
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from servicematch.catalog.loader import CatalogDep
from servicematch.delivery.models import LEAD_KINDS, Delivery, DeliveryStatus, Provider
from servicematch.deps import SessionFactoryDep, SettingsDep, install_part
from servicematch.errors import RATE_LIMITED_RESPONSES, NotFound
from servicematch.inbound.ratelimit import SlidingWindowLimiter, counted_always, limit_store_of
from servicematch.intake.models import QUALITY_HELD, QUALITY_REJECTED, Lead
from servicematch.intake.status_token import STATUS_TOKEN_HEADER, status_token_matches
from servicematch.kernel.clock import utcnow
from servicematch.kernel.references import shown_reference
from servicematch.privacy.messages import recipients_of, service_name_of
from servicematch.privacy.notices import LEAD, RECEIPT
from servicematch.routing.models import Auction, OfferStatus, ProviderOffer
from servicematch.settings import Settings

NOT_FOUND = "No such request."
MINUTE = 60
# What the consumer is told of the quality gate's verdict (docs/quality.md): nothing while it passed.
REVIEWS = {QUALITY_HELD: "reviewing", QUALITY_REJECTED: "declined"}


class CompanyRating(BaseModel):
    company: str = Field(description="A name of `companies`")
    average: float = Field(description="Average stars, 1-5, one decimal place")
    count: int = Field(description="How many consumers rated it (at least one)")


class Recipient(BaseModel):
    name: str = Field(description="A name of `companies`, in the same order")
    kind: Literal["buyer", "provider"] = Field(
        description="buyer: a lead buyer, which may pass the request on to companies it works with; "
                    "provider: a provider in the network that offers the service")
    licenceChecked: bool = Field(description="A provider whose licence an operator checked (never a buyer)")


class LeadStatus(BaseModel):
    reference: str = Field(description="The lead's reference, as the consumer is shown it: 7K3M-Q9TX")
    finished: bool = Field(description="Routing has decided and every delivery to a company has settled")
    companies: list[str] = Field(description="Who received the consumer's details, by name (empty until finished)")
    ratings: list[CompanyRating] = Field(
        description="Consumers' ratings of the companies named, for those rated at least once")
    recipients: list[Recipient] = Field(default_factory=list,
                                        description="What each company of `companies` is, in the same order")
    service: str = Field(default="", description="The service requested, as the site names it: Roofing")
    offered: int = Field(default=0, description="Local pros weighing an open offer of the request, who may still "
                                                "take it on (the consumer is e-mailed the name of one that does)")
    receiptEmail: bool = Field(description="The consent receipt e-mail is sent or on its way")
    review: Literal["none", "reviewing", "declined"] = Field(
        default="none", description="reviewing: the request is being checked before it is passed on, and no "
                                    "company has it (finished until then); declined: it was checked and passed "
                                    "on to no company; none: neither")


router = APIRouter(prefix="/api", tags=["intake"], responses=RATE_LIMITED_RESPONSES)


def install_lead_status(app: FastAPI, settings: Settings) -> None:
    """The route and its per-address limit, in the app's rate-limit store (Redis when it is set)."""
    install_part(app, "status_limiter", SlidingWindowLimiter(
        name="lead-status", limit=settings.status_rate_limit, window_seconds=MINUTE, store=limit_store_of(app)))
    app.include_router(router)


@router.get("/leads/{request_id}/status", response_model=LeadStatus,
            dependencies=[Depends(counted_always("status_limiter"))],
            summary="What became of a submitted lead: routing under way or finished, and who received it")
async def read_lead_status(
    request_id: Annotated[str, Path(max_length=64, description="The requestId the lead was submitted with")],
    settings: SettingsDep, factory: SessionFactoryDep, catalog: CatalogDep,
    token: Annotated[str, Header(alias=STATUS_TOKEN_HEADER, description="The submit answer's statusToken")] = "",
) -> LeadStatus:
    status = await run_in_threadpool(lead_status, session_factory=factory, settings=settings,
                                     request_id=request_id, token=token, catalog=catalog)
    if status is None:
        raise NotFound(NOT_FOUND)
    return status


def lead_status(*, session_factory: sessionmaker[Session], settings: Settings, request_id: str,
                token: str, catalog=None) -> LeadStatus | None:
    """The status of the lead with this requestId, or None when there is none or the token is not its."""
    with session_factory() as session:
        lead = session.execute(select(Lead.id, Lead.reference, Lead.email_hash, Lead.service, Lead.vertical,
                                      Lead.category, Lead.quality_status).where(Lead.request_id == request_id)).first()
        if lead is None or not status_token_matches(settings, lead.id, token):
            return None
        closed = session.scalar(select(Auction.closed_at).where(Auction.lead_id == lead.id)) is not None
        sends = session.execute(select(Delivery.kind, Delivery.payload_kind, Delivery.status).where(
            Delivery.lead_id == lead.id, Delivery.payload_kind.in_((LEAD, RECEIPT)))).all()
        sending = any(kind in LEAD_KINDS and payload == LEAD and status == DeliveryStatus.PENDING
                      for kind, payload, status in sends)
        receipts = [status for _, payload, status in sends if payload == RECEIPT]
        review = REVIEWS.get(lead.quality_status or "", "none")
        # Held or rejected, routing has nothing under way: the gate stopped it before any ping.
        finished = (closed or review != "none") and not sending
        named = recipients_of(session=session, lead_ids=[lead.id])[lead.id].named(settings) if finished else []
        offered = session.scalar(select(func.count()).select_from(ProviderOffer).where(
            ProviderOffer.lead_id == lead.id, ProviderOffer.status == OfferStatus.OPEN,
            ProviderOffer.expires_at > utcnow())) if finished else 0
        # The providers the lead went to, by name, with their licence check: every other name is a buyer's.
        providers = dict(session.execute(
            select(Provider.name, Provider.verified_at).join(Delivery, Delivery.provider_id == Provider.id)
            .where(Delivery.lead_id == lead.id, Delivery.payload_kind == LEAD)).all()) if named else {}
    # Before routing queues the receipt, it is on its way for a lead with an e-mail address; not for a
    # held one, whose receipt waits for the review.
    receipt_email = (receipts[0] in (DeliveryStatus.PENDING, DeliveryStatus.DELIVERED) if receipts
                     else lead.email_hash is not None and review == "none")
    return LeadStatus(reference=shown_reference(lead.reference), finished=finished,
                      companies=[company.name for company in named],
                      ratings=[CompanyRating(company=company.name, average=company.rating.average,
                                             count=company.rating.count) for company in named if company.rating.count],
                      recipients=[Recipient(name=company.name,
                                            kind="provider" if company.name in providers else "buyer",
                                            licenceChecked=providers.get(company.name) is not None)
                                  for company in named],
                      service=service_name_of(lead, catalog), offered=offered or 0, receiptEmail=receipt_email,
                      review=review)
