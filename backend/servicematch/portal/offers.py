"""A provider's offers in the portal: the list, one offer, accept and decline.

Before acceptance an offer shows the job (service, city, ZIP, the answers, the time) and nothing
of the consumer's contact details; the accepted offer shows them, decrypted for this answer only.
Accepting, declining, expiring and the next provider are routing's (routing/offers.py).
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, Field
from sqlalchemy import and_, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery.models import Provider
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.kernel.clock import as_utc
from servicematch.kernel.references import shown_reference
from servicematch.portal.credits import CreditRequestView, views_of
from servicematch.portal.models import CreditRequest
from servicematch.privacy.report import in_words, question_labels
from servicematch.routing import offers as routing_offers
from servicematch.routing.matching import zip_city
from servicematch.routing.models import OfferStatus, ProviderOffer
from servicematch.routing.offer_notice import service_name
from servicematch.settings import Settings

StatusFilter = Literal["open", "accepted", "closed", "all"]
CLOSED = (OfferStatus.DECLINED, OfferStatus.EXPIRED, OfferStatus.WITHDRAWN)
BAD_CURSOR = "This cursor is not one the list gave; start again without it."


class QuestionAnswer(BaseModel):
    question: str
    answer: str


class OfferContact(BaseModel):
    """The consumer's contact details: only in an accepted offer."""

    firstName: str
    lastName: str
    email: str
    phone: str
    street: str
    city: str
    state: str
    zip: str


class OfferSummary(BaseModel):
    id: str
    status: Literal["open", "accepted", "declined", "expired", "withdrawn"]
    exclusive: bool
    priceCents: int
    vertical: str
    service: str
    serviceName: str
    city: str
    state: str
    zip: str
    createdAt: datetime
    expiresAt: datetime
    decidedAt: datetime | None
    autoAccepted: bool


class OfferDetail(OfferSummary):
    answers: list[QuestionAnswer]
    contact: OfferContact | None = Field(description="Only once accepted (and while the consumer's consent stands)")
    reference: str | None = Field(description="The lead's short reference; only once accepted")
    credit: CreditRequestView | None = Field(default=None, description="The offer's credit request, if any")
    creditableUntil: datetime | None = Field(description="Accepted + SERVICEMATCH_CREDIT_WINDOW_DAYS")
    consentWithdrawn: bool = Field(description="The consumer stopped or erased the request: contact them no more")


class OfferList(BaseModel):
    items: list[OfferSummary]
    nextCursor: str | None
    openCount: int


def shown_status(offer: ProviderOffer, now: datetime) -> str:
    """An open offer past its time is expired, whether or not the chore has closed it yet."""
    if offer.status == OfferStatus.OPEN and as_utc(offer.expires_at) <= now:
        return OfferStatus.EXPIRED
    return offer.status


def _summary_fields(settings: Settings, offer: ProviderOffer, lead: Lead, now: datetime) -> dict:
    return {
        "id": offer.id, "status": shown_status(offer, now), "exclusive": offer.exclusive,
        "priceCents": offer.price_cents, "vertical": lead.vertical, "service": lead.service,
        "serviceName": service_name(settings, lead), "city": zip_city(lead.zip), "state": lead.state or "",
        "zip": lead.zip or "", "createdAt": as_utc(offer.created_at), "expiresAt": as_utc(offer.expires_at),
        "decidedAt": as_utc(offer.decided_at), "autoAccepted": offer.auto_accepted,
    }


# -- the list ------------------------------------------------------------------------------------

def _cursor(offer: ProviderOffer) -> str:
    raw = f"{as_utc(offer.created_at).isoformat()}|{offer.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        created, offer_id = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().split("|", 1)
        return datetime.fromisoformat(created), offer_id
    except (ValueError, UnicodeDecodeError, binascii.Error) as exc:
        raise ServiceMatchError(BAD_CURSOR, fields={"before": "unknown cursor"}, status_code=422) from exc


def list_offers(db: Session, settings: Settings, provider: Provider, *, status: StatusFilter, before: str | None,
                limit: int, now: datetime) -> OfferList:
    """The provider's offers, newest first, `limit` a page; `before` is the last page's nextCursor."""
    mine = ProviderOffer.provider_id == provider.id
    still_open = and_(ProviderOffer.status == OfferStatus.OPEN, ProviderOffer.expires_at > now)
    wanted = {"open": still_open, "accepted": ProviderOffer.status == OfferStatus.ACCEPTED,
              "closed": or_(ProviderOffer.status.in_(CLOSED),
                            and_(ProviderOffer.status == OfferStatus.OPEN, ProviderOffer.expires_at <= now)),
              "all": ProviderOffer.id.is_not(None)}[status]
    query = select(ProviderOffer, Lead).join(Lead, Lead.id == ProviderOffer.lead_id).where(mine, wanted)
    if before:
        created, offer_id = _read_cursor(before)
        query = query.where(or_(ProviderOffer.created_at < created,
                                and_(ProviderOffer.created_at == created, ProviderOffer.id < offer_id)))
    rows = db.execute(query.order_by(ProviderOffer.created_at.desc(), ProviderOffer.id.desc()).limit(limit + 1)).all()
    page = rows[:limit]
    open_count = db.scalar(select(func.count()).select_from(ProviderOffer).where(mine, still_open)) or 0
    return OfferList(items=[OfferSummary(**_summary_fields(settings, offer, lead, now)) for offer, lead in page],
                     nextCursor=_cursor(page[-1][0]) if len(rows) > limit else None, openCount=open_count)


# -- one offer -----------------------------------------------------------------------------------

def offer_detail(db: Session, settings: Settings, catalog: CatalogIndex, offer: ProviderOffer,
                 now: datetime) -> OfferDetail:
    """The offer; contact details and the reference only once accepted, and never after the consumer
    withdrew consent (they are told to stop contacting, by e-mail)."""
    lead = db.get(Lead, offer.lead_id)
    withdrawn = routing_offers.consent_withdrawn(db, lead.id) is not None
    accepted = offer.status == OfferStatus.ACCEPTED
    answers, contact = dict(lead.answers or {}), None
    if accepted and not withdrawn:
        personal = decrypt_personal_data(lead=lead, settings=settings)
        answers.update(personal.get("answers", {}))
        contact = _contact(personal.get("contact", {}))
    decided = as_utc(offer.decided_at)
    return OfferDetail(
        **_summary_fields(settings, offer, lead, now),
        answers=[QuestionAnswer(**pair) for pair in
                 in_words(labels=question_labels(catalog, lead), contact={}, answers=answers)],
        contact=contact, reference=shown_reference(lead.reference) if accepted else None,
        credit=_credit_of(db, catalog, offer) if accepted else None,
        creditableUntil=decided + timedelta(days=settings.credit_window_days) if accepted and decided else None,
        consentWithdrawn=withdrawn,
    )


def _contact(stored: dict) -> OfferContact:
    street = " ".join(part for part in (stored.get("address1", ""), stored.get("address2", "")) if part)
    return OfferContact(firstName=stored.get("first", ""), lastName=stored.get("last", ""),
                        email=stored.get("email", ""), phone=stored.get("phone", ""), street=street,
                        city=stored.get("city", ""), state=stored.get("state", ""), zip=stored.get("zip", ""))


def _credit_of(db: Session, catalog: CatalogIndex, offer: ProviderOffer) -> CreditRequestView | None:
    row = db.scalars(select(CreditRequest).where(CreditRequest.offer_id == offer.id)).first()
    return views_of(db, catalog, [row])[0] if row is not None else None


def read_offer(db: Session, settings: Settings, catalog: CatalogIndex, provider: Provider, offer_id: str,
               now: datetime) -> OfferDetail:
    offer = routing_offers.own_offer(db, offer_id=offer_id, provider_id=provider.id)
    return offer_detail(db, settings, catalog, offer, now)


# -- the taps ------------------------------------------------------------------------------------

def decide(db: Session, settings: Settings, provider: Provider, offer_id: str, *, accept: bool,
           now: datetime) -> bool:
    """Accept or decline in one transaction, committed here; True when this tap changed the offer.

    A refusal (no longer open, over budget) commits what it found out (an expiry, a withdrawal)
    and raises the 409. Two accepts at once: the second waits on the offer's row lock
    (PostgreSQL) and finds it accepted; should both still reach the ledger, its one charge per
    offer refuses the second, which then answers as a repeat.
    """
    decision = routing_offers.accept_by_provider if accept else routing_offers.decline_by_provider
    try:
        changed = decision(db, offer_id=offer_id, provider=provider, settings=settings, now=now)
        db.commit()
    except routing_offers.OfferNotOpen:
        db.commit()
        raise
    except IntegrityError:
        db.rollback()
        offer = routing_offers.own_offer(db, offer_id=offer_id, provider_id=provider.id, lock=True)
        if not (accept and offer.status == OfferStatus.ACCEPTED):
            raise
        return False
    return changed
