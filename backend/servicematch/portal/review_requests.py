"""Asking consumers to rate: SERVICEMATCH_REVIEW_DELAY_DAYS after a provider accepted a lead, one
e-mail, once, through the delivery outbox like the consent receipt.

An hourly chore (workers.py) queues a consumer_email delivery of payload kind "review_request"
for each accepted offer that is due and not yet asked about, and marks the offer asked in the
same transaction. Never for a lead whose consent was withdrawn or whose data was erased, nor for
one without an e-mail address: the chore passes those over, the privacy room skips a queued one
when either happens before it is sent (privacy/notices.py), and the sender checks once more.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import cached_catalog
from servicematch.delivery.models import Delivery, DeliveryStatus, Provider, TargetKind
from servicematch.intake.models import Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.kernel import wakeup
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.outbound.outcome import Outcome, Send, SendResult
from servicematch.portal.reviews import LINK_LIFETIME, review_url
from servicematch.privacy.links import stop_url
from servicematch.privacy.messages import service_name_of, unsubscribe_headers
from servicematch.privacy.models import LeadErasure, LeadRevocation
from servicematch.privacy.notices import REVIEW_REQUEST
from servicematch.privacy.sending import consumer_mail
from servicematch.routing.models import OfferStatus, ProviderOffer
from servicematch.settings import Settings

BATCH = 200
# A worker that was down for a long time does not ask about jobs months old: past this, the
# offer is left unasked.
ASK_WITHIN = timedelta(days=30)
TARGET_PREFIX = "review:"


def _withdrawn(lead_id_column):
    return (exists().where(LeadRevocation.lead_id == lead_id_column)
            | exists().where(LeadErasure.lead_id == lead_id_column))


def request_reviews(*, session_factory: sessionmaker[Session], settings: Settings,
                    now: datetime | None = None) -> int:
    """Queue the review requests now due; how many were queued."""
    now = now or utcnow()
    due_before = now - timedelta(days=settings.review_delay_days)
    queued = 0
    while True:
        with session_factory() as session:
            due = session.execute(
                select(ProviderOffer.id, ProviderOffer.lead_id)
                .join(Lead, Lead.id == ProviderOffer.lead_id)
                .where(ProviderOffer.status == OfferStatus.ACCEPTED, ProviderOffer.review_requested_at.is_(None),
                       ProviderOffer.decided_at <= due_before, ProviderOffer.decided_at > due_before - ASK_WITHIN,
                       Lead.email_hash.is_not(None), ~_withdrawn(ProviderOffer.lead_id))
                .order_by(ProviderOffer.decided_at).limit(BATCH)
            ).all()
            if not due:
                return queued
            for offer_id, lead_id in due:
                # Compare-and-set: two workers running the chore at once ask once.
                table = ProviderOffer.__table__
                taken = session.execute(update(table).where(table.c.id == offer_id,
                                                            table.c.review_requested_at.is_(None))
                                        .values(review_requested_at=now)).rowcount
                if taken:
                    session.add(Delivery(id=new_id(), lead_id=lead_id, kind=TargetKind.CONSUMER_EMAIL,
                                         payload_kind=REVIEW_REQUEST, target_key=f"{TARGET_PREFIX}{offer_id}",
                                         status=DeliveryStatus.PENDING, attempt_count=0, next_attempt_at=now,
                                         window_started_at=now, created_at=now))
                    queued += 1
            wakeup.notify_after_commit(session)
            session.commit()


def review_request(*, lead: Lead, offer: ProviderOffer, provider_name: str, settings: Settings,
                   catalog) -> tuple[str, str, str, dict]:
    """(recipient, subject, text, extra headers) of the e-mail asking the consumer to rate a provider."""
    contact = decrypt_personal_data(lead=lead, settings=settings)["contact"]
    service = service_name_of(lead, catalog)
    stop = stop_url(settings=settings, lead_id=lead.id)
    accepted = offer.decided_at.replace(tzinfo=None)
    lines = [
        f"Hello {contact.get('first') or 'there'},",
        "",
        f"On {accepted:%B %d, %Y}, {provider_name} took on your {service} request through {settings.brand_name}.",
        f"How did it go? Rate {provider_name} from 1 to 5 stars, with a few words if you like:",
        review_url(settings=settings, offer_id=offer.id),
        "",
        (f"No account is needed, and the link works for {LINK_LIFETIME.days} days. {provider_name} and our team "
         "see your stars, your words and your city, never your name or contact details."),
        "We ask once: you will not get this e-mail again about this request.",
        "",
        "To stop calls, texts and e-mails about your requests, open this link and press the button:",
        stop,
    ]
    subject = f"How did {provider_name} do? Rate your {service} provider"
    return contact.get("email", ""), subject, "\n".join(lines) + "\n", unsubscribe_headers(stop)


def prepare_review_request(*, session: Session, delivery: Delivery, lead: Lead, settings: Settings) -> SendResult | Send:
    offer = session.get(ProviderOffer, delivery.target_key.removeprefix(TARGET_PREFIX))
    if offer is None or offer.status != OfferStatus.ACCEPTED:
        return _not_sent(delivery, "not sent: the offer is no longer accepted")
    if session.get(LeadRevocation, lead.id) is not None or session.get(LeadErasure, lead.id) is not None:
        return _not_sent(delivery, "not sent: the consumer withdrew consent or had the data erased")
    provider = session.get(Provider, offer.provider_id)
    to, subject, text, headers = review_request(lead=lead, offer=offer, settings=settings,
                                                provider_name=provider.name, catalog=cached_catalog(settings.catalog_dir))
    if not to:
        return _not_sent(delivery, "not sent: the lead has no e-mail address any more")
    return consumer_mail(settings=settings, delivery=delivery, to=to, subject=subject, text=text, headers=headers,
                         label="review request")


def _not_sent(delivery: Delivery, why: str) -> SendResult:
    return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0, error=why, sent=False)

