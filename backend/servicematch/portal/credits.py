"""Credit requests: a provider asks for the price of a lead it accepted back, with a reason.

The rules (docs/portal.md, "Credits"): only on an accepted offer of its own, within
SERVICEMATCH_CREDIT_WINDOW_DAYS of accepting it, once per offer. A duplicate that the records
prove (the provider already bought this consumer's request for the same service) is approved at
once; every other request waits for an operator (console/credits.py). Requests waiting or
approved this calendar month (UTC) may not pass the provider's monthly cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, StringConstraints
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery.models import Provider
from servicematch.errors import NothingHere, ServiceMatchError
from servicematch.inbound.validation import has_control_characters
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.ledger.models import Cause, EntryKind, LedgerEntry
from servicematch.ledger.statements import month_start, next_month
from servicematch.portal.ledger import iso, post_credit
from servicematch.portal.models import CreditReason, CreditRequest, CreditStatus
from servicematch.portal.places import LeadPlace, places_of
from servicematch.privacy.contacts import keys_of_lead, leads_of
from servicematch.routing.models import OfferStatus, ProviderOffer
from servicematch.settings import Settings

# Who decided a duplicate the records prove: nobody had to.
AUTOMATIC = "automatic"
REASON_LABELS = {
    CreditReason.WRONG_PHONE: "Wrong or disconnected phone",
    CreditReason.DUPLICATE: "Duplicate",
    CreditReason.OUTSIDE_AREA: "Outside my area",
    CreditReason.WRONG_SERVICE: "Wrong service",
    CreditReason.COMPETITOR: "Competitor testing",
    CreditReason.OTHER: "Other",
}
MAX_DETAIL = 1000
NOT_ACCEPTED = "Credits can be requested only on a lead you accepted."
ALREADY_REQUESTED = "A credit was already requested for this lead."
DETAIL_NEEDED = "Say in a few words what was wrong with the lead."


def _no_controls(value: str) -> str:
    if has_control_characters(value, allow_line_breaks=True):
        raise ValueError("must not contain control characters")
    return value


Detail = Annotated[str, StringConstraints(strip_whitespace=True, max_length=MAX_DETAIL), AfterValidator(_no_controls)]
Reason = Literal["wrong_phone", "duplicate", "outside_area", "wrong_service", "competitor_testing", "other"]


class CreditAsk(BaseModel):
    """What the provider sends: a reason and, for "other" (and optionally else), its own words."""

    reason: Reason
    detail: Detail | None = None


class CreditRequestView(BaseModel):
    id: str
    offerId: str | None
    reason: Reason
    reasonLabel: str
    detail: str | None
    status: Literal["pending", "approved", "denied"]
    amountCents: int
    createdAt: str
    decidedAt: str | None
    decisionNote: str | None
    serviceName: str | None
    city: str | None
    state: str | None


class CreditList(BaseModel):
    items: list[CreditRequestView]
    capPercent: int
    usedThisMonth: int
    allowedThisMonth: int


def view_of(row: CreditRequest, place: LeadPlace) -> CreditRequestView:
    return CreditRequestView(
        id=row.id, offerId=row.offer_id, reason=row.reason, reasonLabel=REASON_LABELS.get(row.reason, row.reason),
        detail=row.detail, status=row.status, amountCents=row.amount_cents, createdAt=iso(row.created_at),
        decidedAt=iso(row.decided_at), decisionNote=row.decision_note, serviceName=place.service_name,
        city=place.city, state=place.state)


def views_of(db: Session, catalog: CatalogIndex, rows: list[CreditRequest]) -> list[CreditRequestView]:
    places = places_of(db, catalog, [row.lead_id for row in rows])
    return [view_of(row, places.get(row.lead_id, LeadPlace())) for row in rows]


@dataclass(frozen=True)
class Allowance:
    cap_percent: int
    used: int
    allowed: int

    @property
    def reached(self) -> bool:
        return self.used >= self.allowed

    def refusal(self) -> str:
        if self.allowed == 0:
            return "Credits are turned off for your account this month; write to us if a lead was wrong."
        return f"You have used this month's credits: {self.used} of {self.allowed}."


def allowance(db: Session, provider: Provider, now: datetime) -> Allowance:
    """This calendar month's (UTC) requests that count against the cap, and how many the cap allows.

    Counted: requests waiting or approved, made this month, except duplicates the records proved
    (those are the marketplace's own mistake). Allowed: cap percent of the leads accepted this
    month, rounded down, and at least one while the cap is above zero, so a provider with one bad
    lead early in a month (or from last month, within the window) can still ask.
    """
    start, end = month_start(now), next_month(month_start(now))
    used = db.scalar(select(func.count()).select_from(CreditRequest).where(
        CreditRequest.provider_id == provider.id, CreditRequest.created_at >= start, CreditRequest.created_at < end,
        CreditRequest.status.in_((CreditStatus.PENDING, CreditStatus.APPROVED)),
        func.coalesce(CreditRequest.decided_by, "") != AUTOMATIC)) or 0
    accepted = db.scalar(select(func.count()).select_from(ProviderOffer).where(
        ProviderOffer.provider_id == provider.id, ProviderOffer.status == OfferStatus.ACCEPTED,
        ProviderOffer.decided_at >= start, ProviderOffer.decided_at < end)) or 0
    percent = provider.credit_cap_percent
    allowed = 0 if percent <= 0 else max(1, accepted * percent // 100)
    return Allowance(cap_percent=percent, used=used, allowed=allowed)


def own_offer(db: Session, provider: Provider, offer_id: str) -> ProviderOffer:
    """The provider's own offer; another's, or none, is a 404 that says nothing."""
    offer = db.get(ProviderOffer, offer_id[:36])
    if offer is None or offer.provider_id != provider.id:
        raise NothingHere()
    return offer


def bought_before(db: Session, settings: Settings, offer: ProviderOffer, lead: Lead) -> bool:
    """Whether the provider accepted, before this offer, another lead of the same consumer (the same
    e-mail or phone, by intake's keyed hashes) for the same service within intake's duplicate
    window: what intake itself calls a duplicate, seen from this provider's side."""
    since = as_utc(lead.created_at) - timedelta(days=settings.duplicate_window_days)
    earlier = [other.id for other in leads_of(session=db, keys=keys_of_lead(lead))
               if other.id != lead.id and other.service == lead.service and as_utc(other.created_at) >= since]
    if not earlier:
        return False
    return db.scalar(select(ProviderOffer.id).where(
        ProviderOffer.provider_id == offer.provider_id, ProviderOffer.lead_id.in_(earlier),
        ProviderOffer.status == OfferStatus.ACCEPTED, ProviderOffer.decided_at <= offer.decided_at,
        ProviderOffer.id != offer.id).limit(1)) is not None


def _charged(db: Session, offer: ProviderOffer) -> int:
    """What accepting the offer cost: its charge in the ledger (the offer's price, should there be none)."""
    charge = db.scalar(select(LedgerEntry.amount_cents).where(LedgerEntry.cause == Cause.OFFER,
                                                             LedgerEntry.cause_id == offer.id,
                                                             LedgerEntry.kind == EntryKind.CHARGE))
    return -charge if charge is not None else offer.price_cents


def _check_offer(db: Session, settings: Settings, offer: ProviderOffer, now: datetime) -> None:
    if offer.status != OfferStatus.ACCEPTED or offer.decided_at is None:
        raise ServiceMatchError(NOT_ACCEPTED, fields={"offerId": NOT_ACCEPTED}, status_code=422)
    if db.scalar(select(CreditRequest.id).where(CreditRequest.offer_id == offer.id)) is not None:
        raise ServiceMatchError(ALREADY_REQUESTED, status_code=409)
    if now > as_utc(offer.decided_at) + timedelta(days=settings.credit_window_days):
        message = f"Credits can be requested within {settings.credit_window_days} days of accepting a lead."
        raise ServiceMatchError(message, fields={"offerId": message}, status_code=422)


def request_credit(db: Session, settings: Settings, provider: Provider, offer_id: str, ask: CreditAsk,
                   *, now: datetime) -> CreditRequest:
    """Store the request (approved at once, its credit in the ledger, when a proven duplicate);
    the caller commits. The provider's row is locked first, so two requests at once cannot both
    take the month's last credit."""
    db.execute(select(Provider.id).where(Provider.id == provider.id).with_for_update())
    offer = own_offer(db, provider, offer_id)
    _check_offer(db, settings, offer, now)
    if ask.reason == CreditReason.OTHER and not ask.detail:
        raise ServiceMatchError(DETAIL_NEEDED, fields={"detail": DETAIL_NEEDED}, status_code=422)
    lead = db.get(Lead, offer.lead_id) if offer.lead_id else None
    automatic = ask.reason == CreditReason.DUPLICATE and lead is not None and bought_before(db, settings, offer, lead)
    if not automatic:
        cap = allowance(db, provider, now)
        if cap.reached:
            raise ServiceMatchError(cap.refusal(), fields={"reason": cap.refusal()}, status_code=422)
    row = CreditRequest(provider_id=provider.id, offer_id=offer.id, lead_id=offer.lead_id, reason=ask.reason,
                        detail=ask.detail or None, amount_cents=_charged(db, offer), created_at=now)
    db.add(row)
    try:
        db.flush()
    except IntegrityError as exc:  # the same offer's request, committed a moment ago by another call
        db.rollback()
        raise ServiceMatchError(ALREADY_REQUESTED, status_code=409) from exc
    if automatic:
        decide(db, row, approve=True, by=AUTOMATIC,
               note="Approved automatically: you had already bought this customer's request.", now=now)
    return row


def decide(db: Session, row: CreditRequest, *, approve: bool, by: str, note: str | None, now: datetime) -> None:
    """Approve (the credit goes into the ledger in the same transaction) or deny a waiting request."""
    if row.status != CreditStatus.PENDING:
        raise ServiceMatchError(f"This credit request was already {row.status}.", status_code=409)
    row.status = CreditStatus.APPROVED if approve else CreditStatus.DENIED
    row.decided_at, row.decided_by, row.decision_note = now, by, note or None
    if approve:
        post_credit(db, row, label=REASON_LABELS.get(row.reason, row.reason), now=now)
    db.flush()


def provider_requests(db: Session, provider_id: str) -> list[CreditRequest]:
    """A provider's credit requests, newest first (a handful a month: the cap keeps them few)."""
    return list(db.scalars(select(CreditRequest).where(CreditRequest.provider_id == provider_id)
                           .order_by(CreditRequest.created_at.desc(), CreditRequest.id.desc())))
