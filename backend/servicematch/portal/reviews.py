"""Consumers' reviews of the providers that accepted their leads: the signed link, reading it,
rating once, the provider's list and its rating, and an operator hiding a review.

The link is /review#<token>: a token signed like the receipt's stop link (privacy/links.py) for
the purpose "review", naming the accepted offer, good for LINK_LIFETIME. It sits in the fragment,
so it never reaches a server log; the page posts it. Anyone holding the e-mail may rate once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from servicematch.delivery.models import Provider
from servicematch.delivery.ratings import provider_ratings
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.portal.models import ProviderReview
from servicematch.privacy.links import read_link, sign_link
from servicematch.privacy.messages import service_name_of
from servicematch.privacy.models import LeadErasure
from servicematch.routing.models import OfferStatus, ProviderOffer
from servicematch.settings import Settings

PURPOSE = "review"
LINK_LIFETIME = timedelta(days=60)
MAX_TEXT = 1000
BAD_LINK = ("This link is not valid: it may have been changed or cut short. Open the whole link from "
            "the e-mail we sent you.")
EXPIRED = f"This link has expired: a provider can be rated within {LINK_LIFETIME.days} days of our e-mail."
GONE = "This link no longer applies: the request it belongs to has been deleted."
ALREADY = "You have already rated this provider for this request. Thank you!"
PAGE_LIMIT = 100


def review_url(*, settings: Settings, offer_id: str, now: datetime | None = None) -> str:
    # The signed subject is the offer (the stop link's is a lead; the purpose tells them apart).
    token = sign_link(settings=settings, purpose=PURPOSE, lead_id=offer_id, now=now, lifetime=LINK_LIFETIME)
    return f"{settings.site_origin.rstrip('/')}/review#{token}"


def _refused(message: str) -> ServiceMatchError:
    return ServiceMatchError(message, fields={"token": message}, status_code=410)


def offer_for_link(session: Session, settings: Settings, token: str, now: datetime) -> tuple[ProviderOffer, Lead]:
    """The accepted offer a genuine, unexpired link names, with its lead; 410 for anything else."""
    try:
        claims = read_link(settings=settings, token=token, purpose=PURPOSE, now=now)
    except ServiceMatchError as exc:
        raise _refused(EXPIRED if exc.status_code == 410 else BAD_LINK) from exc
    offer = session.get(ProviderOffer, claims.lead_id)
    lead = session.get(Lead, offer.lead_id) if offer is not None else None
    if offer is None or lead is None or offer.status != OfferStatus.ACCEPTED:
        raise _refused(GONE)
    if session.get(LeadErasure, lead.id) is not None:
        raise _refused(GONE)  # the consumer asked us to delete the request: nothing new is tied to it
    return offer, lead


@dataclass(frozen=True)
class LinkLookup:
    provider_name: str
    service_name: str
    already_rated: bool


def look_up(session: Session, settings: Settings, catalog, token: str, now: datetime | None = None) -> LinkLookup:
    """What the review page shows: who is rated, for which service, and whether it already was."""
    offer, lead = offer_for_link(session, settings, token, now or utcnow())
    provider = session.get(Provider, offer.provider_id)
    rated = session.scalar(select(ProviderReview.id).where(ProviderReview.offer_id == offer.id)) is not None
    return LinkLookup(provider_name=provider.name, service_name=service_name_of(lead, catalog), already_rated=rated)


def submit(session: Session, settings: Settings, *, token: str, stars: int, text: str | None,
           now: datetime | None = None) -> ProviderReview:
    """Store the consumer's rating (the caller commits); a second one for the same offer is a 409."""
    now = now or utcnow()
    offer, lead = offer_for_link(session, settings, token, now)
    if session.scalar(select(ProviderReview.id).where(ProviderReview.offer_id == offer.id)) is not None:
        raise ServiceMatchError(ALREADY, status_code=409)
    contact = decrypt_personal_data(lead=lead, settings=settings).get("contact", {})
    review = ProviderReview(provider_id=offer.provider_id, offer_id=offer.id, stars=stars,
                            text=(text or "").strip() or None, city=(contact.get("city") or None),
                            state=lead.state, created_at=now)
    session.add(review)
    try:
        session.flush()
    except IntegrityError as exc:  # two sends at once: the other one was first
        session.rollback()
        raise ServiceMatchError(ALREADY, status_code=409) from exc
    return review


def provider_reviews(session: Session, provider_id: str) -> dict:
    """The provider's rating and its visible reviews, newest first (the portal's list)."""
    rating = provider_ratings(session=session, provider_ids=[provider_id])[provider_id]
    rows = session.scalars(select(ProviderReview)
                           .where(ProviderReview.provider_id == provider_id, ProviderReview.hidden_at.is_(None))
                           .order_by(ProviderReview.created_at.desc(), ProviderReview.id).limit(PAGE_LIMIT))
    return {"average": rating.average, "count": rating.count,
            "items": [{"id": row.id, "stars": row.stars, "text": row.text, "city": row.city, "state": row.state,
                       "createdAt": as_iso(row.created_at)} for row in rows]}


def as_iso(value: datetime | None) -> str | None:
    return as_utc(value).isoformat() if value is not None else None


def hide(session: Session, review_id: str, *, operator_email: str, now: datetime | None = None) -> ProviderReview:
    """Leave a review out of the provider's list and rating for good (the caller audits and commits)."""
    review = session.get(ProviderReview, review_id)
    if review is None:
        raise ServiceMatchError("No such review.", status_code=404)
    if review.hidden_at is None:
        review.hidden_at, review.hidden_by = now or utcnow(), operator_email
    return review
