"""The e-mail that tells a provider in review mode about a new offer: the job, the place and the
time, a link to the offer in the portal, and none of the consumer's contact details.

It goes through the delivery outbox (a provider_email row with payload_kind "offer") and is sent
by the delivery worker like the provider's other e-mails; the worker is handed its builder
where it is composed (servicematch.workers), so delivery imports nothing of routing.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from servicematch.catalog.loader import cached_catalog
from servicematch.delivery.models import Delivery, DeliveryStatus, Provider, TargetKind
from servicematch.intake.models import Lead
from servicematch.kernel import wakeup
from servicematch.kernel.clock import as_utc
from servicematch.kernel.ids import new_id
from servicematch.mail.transport import message_send, new_message
from servicematch.outbound.outcome import Outcome, Send, SendResult
from servicematch.routing.matching import zip_city
from servicematch.routing.models import ProviderOffer
from servicematch.settings import Settings

OFFER_NOTICE = "offer"


def notice_key(provider_id: str) -> str:
    return f"offer:{provider_id}"


def service_name(settings: Settings, lead: Lead) -> str:
    """The service as the catalogue names it ("Heating & AC repair"), else its category or slug."""
    found = cached_catalog(settings.catalog_dir).find(lead.service, lead.vertical)
    return getattr(found, "name", None) or lead.category or lead.service


def place_of(lead: Lead) -> str:
    """"Austin, TX 78701": the ZIP's city, never the consumer's street."""
    city = zip_city(lead.zip)
    return " ".join(part for part in (f"{city}," if city else "", lead.state or "", lead.zip or "") if part)


def enqueue_offer_notice(*, session: Session, lead: Lead, provider: Provider, settings: Settings,
                         now: datetime) -> Delivery:
    """The notice's outbox row, in the transaction that makes the offer."""
    skip = None if settings.smtp_host else "not sent: no SMTP server is configured"
    row = Delivery(id=new_id(), lead_id=lead.id, provider_id=provider.id, kind=TargetKind.PROVIDER_EMAIL,
                   payload_kind=OFFER_NOTICE, target_key=notice_key(provider.id),
                   status=DeliveryStatus.SKIPPED if skip else DeliveryStatus.PENDING, attempt_count=0,
                   last_error=skip, next_attempt_at=now, window_started_at=now, created_at=now,
                   completed_at=now if skip else None)
    session.add(row)
    if not skip:
        wakeup.notify_after_commit(session)
    return row


def skip_unsent_notices(*, session: Session, offers: list[ProviderOffer], reason: str, now: datetime) -> None:
    """An offer decided before its notice went out: the notice stays unsent."""
    for offer in offers:
        session.execute(
            update(Delivery)
            .where(Delivery.lead_id == offer.lead_id, Delivery.target_key == notice_key(offer.provider_id),
                   Delivery.status == DeliveryStatus.PENDING,
                   or_(Delivery.claimed_until.is_(None), Delivery.claimed_until < now))
            .values(status=DeliveryStatus.SKIPPED, last_error=f"not sent: {reason}", completed_at=now)
            .execution_options(synchronize_session=False))


def offer_email(*, settings: Settings, lead: Lead, provider: Provider, offer: ProviderOffer) -> tuple[str, str]:
    """Subject and text of the notice: what, where, when, the price and the link; no contact details."""
    name, place = service_name(settings, lead), place_of(lead)
    link = f"{settings.site_origin.rstrip('/')}/pro/offers/{offer.id}"
    test = "[TEST] " if lead.is_test else ""
    price = f"${offer.price_cents / 100:,.2f}"
    lines = [
        f"Hello {provider.name},",
        "",
        f"{settings.brand_name} has a new {name} request for you" + (" alone (exclusive)." if offer.exclusive
                                                                       else "."),
        "",
        f"Service:   {name}",
        f"Where:     {place}",
        f"Requested: {as_utc(lead.created_at):%B %d, %Y at %H:%M} UTC",
        f"Price:     {price}, charged only if you accept",
        f"Answer by: {as_utc(offer.expires_at):%B %d, %Y at %H:%M} UTC",
        "",
        f"Accept or decline: {link}",
        "",
        "The customer's name and contact details appear in the portal once you accept.",
    ]
    return f"{test}New offer: {name} in {place}", "\n".join(lines) + "\n"


def prepare_offer_notice(*, session: Session, delivery: Delivery, lead: Lead, settings: Settings) -> SendResult | Send:
    provider = delivery.provider
    offer = session.scalars(select(ProviderOffer).where(
        ProviderOffer.lead_id == lead.id, ProviderOffer.provider_id == delivery.provider_id)).first()
    if provider is None or offer is None:
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0, sent=False,
                          error="the offer or its provider no longer exists")
    if not settings.smtp_host:
        return SendResult(outcome=Outcome.RETRY, target=delivery.target_key, duration_ms=0, sent=False,
                          error="SERVICEMATCH_SMTP_HOST is not set")
    subject, text = offer_email(settings=settings, lead=lead, provider=provider, offer=offer)
    message = new_message(settings=settings, to=provider.contact_email, subject=subject, text=text,
                          message_id_key=delivery.id)
    return message_send(settings=settings, message=message)

