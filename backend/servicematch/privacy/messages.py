"""What privacy deliveries say: the consumer's consent receipt and the notices to recipients."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import column, func, select, table
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryStatus, Provider
from servicematch.delivery.ratings import NO_RATING, Rating, provider_ratings
from servicematch.intake.models import Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.kernel.references import shown_reference
from servicematch.kernel.webhook_events import event_envelope
from servicematch.privacy.contacts import aware
from servicematch.privacy.links import stop_url
from servicematch.privacy.models import LeadErasure, LeadRevocation
from servicematch.privacy.notices import CORRECTED, DELETED, LEAD, REVOKED
from servicematch.settings import Settings

NOTICE_ASKS = {
    REVOKED: "The consumer withdrew consent to be contacted. Do not call, text or e-mail them about "
             "this request, and stop any contact under way.",
    DELETED: "The consumer asked us to delete their personal data. Delete what you received with "
             "this request, and pass the request on to anyone you shared it with.",
    CORRECTED: "The consumer asked us to correct their personal data. Update what you received "
               "with this request as below.",
}


# Routing's tables, by name only: privacy reads who bought a lead and which providers still weigh an
# offer of it, and imports nothing of routing.
_BUYERS = table("buyers", column("id"), column("name"))
OPEN_OFFERS = ("Providers in your area have been told about your request, without your name or contact details. "
               "If one of them takes it on, we will e-mail you its name.")
_OFFERS = table("provider_offers", column("lead_id"), column("status"))


@dataclass(frozen=True)
class Company:
    """A company the consumer's contact details went to, with its consumers' rating (providers only)."""

    name: str
    rating: Rating = NO_RATING

    def in_words(self) -> str:
        return f"{self.name} (rated {self.rating.in_words()})" if self.rating.count else self.name


@dataclass(frozen=True)
class Recipients:
    """Who holds a lead's contact details: the fixed buyer (SERVICEMATCH_BUYER_URL), and the other
    companies by name. Open offers are providers still weighing the lead without the details."""

    fixed_buyer: bool
    companies: tuple[Company, ...] = ()
    open_offers: int = 0

    def named(self, settings: Settings) -> list[Company]:
        """Every company, the fixed buyer's name first."""
        buyer = [Company(settings.buyer_name or "Our lead-buying partner")] if self.fixed_buyer else []
        return [*buyer, *self.companies]


def recipients_of(*, session: Session, lead_ids: list[str], under_way: bool = False) -> dict[str, Recipients]:
    """Who received each lead's contact details, for several leads in one go: a delivery of the
    lead that arrived (a 2xx, the SMTP server took the e-mail, or a provider accepted the offer in
    the portal: its provider_portal row). Not a delivery skipped, refused or given up on, and not
    an offer still open, declined, expired or withdrawn: those details never left.

    `under_way` (the consent receipt, written while the lead's e-mails and webhooks go out): also
    the deliveries still being sent, and the count of offers still open.
    """
    rows = session.execute(
        select(Delivery.lead_id, Delivery.kind, Delivery.status, Delivery.provider_id, Provider.name,
               _BUYERS.c.name)
        .outerjoin(Provider, Delivery.provider_id == Provider.id)
        .outerjoin(_BUYERS, Delivery.buyer_id == _BUYERS.c.id)
        .where(Delivery.lead_id.in_(lead_ids), Delivery.payload_kind == LEAD)
    ).all()
    counted = (DeliveryStatus.DELIVERED, DeliveryStatus.PENDING) if under_way else (DeliveryStatus.DELIVERED,)
    ratings = provider_ratings(session=session, provider_ids=[row[3] for row in rows if row[2] in counted])
    buyers, names = set(), {lead_id: {} for lead_id in lead_ids}
    for lead_id, kind, status, provider_id, name, buyer_name in rows:
        if status not in counted:
            continue
        if kind == "buyer":
            buyers.add(lead_id)
        if name is not None:
            names[lead_id][name] = Company(name, ratings.get(provider_id, NO_RATING))
        # An auction's buyer received the details only if it took the post (settled before the receipt).
        if buyer_name is not None and status == DeliveryStatus.DELIVERED:
            names[lead_id].setdefault(buyer_name, Company(buyer_name))
    waiting = dict(session.execute(
        select(_OFFERS.c.lead_id, func.count()).where(_OFFERS.c.lead_id.in_(lead_ids), _OFFERS.c.status == "open")
        .group_by(_OFFERS.c.lead_id)).all()) if under_way else {}
    return {lead_id: Recipients(fixed_buyer=lead_id in buyers,
                                companies=tuple(names[lead_id][name] for name in sorted(names[lead_id])),
                                open_offers=waiting.get(lead_id, 0))
            for lead_id in lead_ids}


def recipient_names(recipients: Recipients, settings: Settings) -> list[str]:
    """The names of every company that received the lead, the fixed buyer's first."""
    return [company.name for company in recipients.named(settings)]


def service_name_of(lead: Lead, catalog) -> str:
    """The service as the consumer chose it; one since removed from the catalogue still has its
    buyer's name for it."""
    service = catalog.find(lead.service, lead.vertical) if catalog is not None else None
    return getattr(service, "name", None) or lead.category or lead.service


def acceptance_email(*, lead: Lead, provider_name: str, settings: Settings, catalog) -> tuple[str, str, str]:
    """(recipient, subject, text) of the short e-mail telling the consumer that a provider took
    their request in its portal and now has their contact details."""
    contact = decrypt_personal_data(lead=lead, settings=settings)["contact"]
    service_name = service_name_of(lead, catalog)
    lines = [
        f"Hello {contact.get('first') or 'there'},",
        "",
        f"{provider_name} has your request for {service_name} and will contact you.",
        "",
        f"Your reference: {shown_reference(lead.reference)}",
        "",
        "To stop calls, texts and e-mails about this request, open this link and press the button:",
        stop_url(settings=settings, lead_id=lead.id),
    ]
    subject = f"{provider_name} has your {settings.brand_name} request"
    return contact.get("email", ""), subject, "\n".join(lines) + "\n"


def receipt(*, lead: Lead, recipients: Recipients, settings: Settings,
            catalog) -> tuple[str, str, str, dict]:
    """(recipient, subject, text, extra headers) of the consent receipt for `lead`, given
    recipients_of's answer for it (with what is under way)."""
    contact = decrypt_personal_data(lead=lead, settings=settings)["contact"]
    consent = lead.consent
    service_name = service_name_of(lead, catalog)
    link = stop_url(settings=settings, lead_id=lead.id)
    parties = recipients.named(settings)
    when = aware(consent.consented_at) if consent else aware(lead.created_at)
    lines = [
        f"Hello {contact.get('first') or 'there'},",
        "",
        f"This is your copy of the request you sent {settings.brand_name} and the consent you gave.",
        "",
        f"What you asked for: {service_name}",
        f"When: {when:%B %d, %Y at %H:%M} UTC",
        f"From this page: {(consent.page_url if consent else None) or settings.site_origin}",
        f"Your reference: {shown_reference(lead.reference)}",
        "",
        "Who we have given, or are giving, your contact details to (they may contact you about it):",
        *([f"  - {company.in_words()}" for company in parties] if parties else
          ["  - nobody yet" if recipients.open_offers else
           "  - nobody yet: no provider in your area has been matched"]),
        *(["", OPEN_OFFERS] if recipients.open_offers else []),
        "",
        "The consent you agreed to, exactly as shown:",
        "",
        consent.consent_text if consent else "(not recorded)",
        "",
        "To stop calls, texts and e-mails about this request, open this link and press the button:",
        link,
        "",
        f"You can also see, correct or delete your data at {settings.site_origin.rstrip('/')}/privacy/requests",
    ]
    headers = unsubscribe_headers(link)
    subject = f"Your {settings.brand_name} request: {service_name} (your consent receipt)"
    return contact.get("email", ""), subject, "\n".join(lines) + "\n", headers


def unsubscribe_headers(stop_link: str) -> dict[str, str]:
    """RFC 8058 one-click unsubscribe for a stop link: mail clients show a button that POSTs to it."""
    one_click = stop_link.replace("/privacy/stop?", "/api/privacy/one-click?", 1)
    return {"List-Unsubscribe": f"<{one_click}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def notice_body(*, session: Session, lead: Lead, delivery: Delivery, correction: str | None) -> dict:
    """The JSON a receiver gets, in the shared event envelope; it names the lead, never the person.
    Its time is when the notice was queued, with the change it announces."""
    data: dict = {"requestId": lead.request_id, "leadId": lead.id, "vertical": lead.vertical,
                  "service": lead.service}
    if delivery.provider is not None:
        data["provider"] = {"id": delivery.provider.id, "name": delivery.provider.name}
    if delivery.payload_kind == REVOKED:
        revocation = session.get(LeadRevocation, lead.id)
        data["revokedAt"] = aware(revocation.revoked_at).isoformat() if revocation else None
        data["method"] = revocation.method if revocation else None
    elif delivery.payload_kind == DELETED:
        erasure = session.get(LeadErasure, lead.id)
        data["deletedAt"] = aware(erasure.erased_at).isoformat() if erasure else None
    elif delivery.payload_kind == CORRECTED:
        data["correction"] = correction or ""
    data["action"] = NOTICE_ASKS[delivery.payload_kind]
    return event_envelope(delivery.payload_kind, occurred_at=delivery.created_at, data=data)


def notice_email(*, body: dict, brand_name: str) -> tuple[str, str]:
    """Subject and text of a notice for a recipient without a webhook, from notice_body's event."""
    kind, data = body["type"], body["data"]
    subject = {REVOKED: "Stop contacting", DELETED: "Delete the data of",
               CORRECTED: "Correct the data of"}[kind]
    lines = [data["action"], "", f"Request id: {data['requestId']}", f"Service:    {data['service']}"]
    if data.get("revokedAt"):
        lines.append(f"Withdrawn:  {data['revokedAt']} ({data['method']})")
    if data.get("correction"):
        lines += ["", "Correction:", data["correction"]]
    lines += ["", f"{brand_name} privacy notice ({kind})"]
    return f"{subject} request {data['requestId']}", "\n".join(lines) + "\n"
