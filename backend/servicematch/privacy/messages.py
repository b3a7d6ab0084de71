"""What privacy deliveries say: the consumer's consent receipt and the notices to recipients."""

from __future__ import annotations

from sqlalchemy import column, select, table
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, Provider
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


# Routing's buyers table, by name only: privacy reads who bought a lead, and imports nothing of routing.
_BUYERS = table("buyers", column("id"), column("name"))


def lead_recipients(*, session: Session, lead_id: str) -> tuple[bool, list[str]]:
    """Whether the buyer gets (or got) this lead, and the names of its providers in a stable order."""
    return recipients_of(session=session, lead_ids=[lead_id])[lead_id]


def recipients_of(*, session: Session, lead_ids: list[str],
                  delivered_only: bool = False) -> dict[str, tuple[bool, list[str]]]:
    """lead_recipients for several leads in one query: a worker's round reads all its receipts' at once.

    `delivered_only`: only the parties whose delivery of the lead has arrived (a 2xx, or the
    SMTP server took the e-mail), not those still being sent to; what the thank-you page names.
    """
    rows = session.execute(
        select(Delivery.lead_id, Delivery.kind, Delivery.status, Provider.name, _BUYERS.c.name)
        .outerjoin(Provider, Delivery.provider_id == Provider.id)
        .outerjoin(_BUYERS, Delivery.buyer_id == _BUYERS.c.id)
        .where(Delivery.lead_id.in_(lead_ids), Delivery.payload_kind == LEAD)
    ).all()
    buyers, names = set(), {lead_id: set() for lead_id in lead_ids}
    for lead_id, kind, status, name, buyer_name in rows:
        if delivered_only and status != "delivered":
            continue
        if kind == "buyer" and status != "skipped":
            buyers.add(lead_id)
        if name is not None:
            names[lead_id].add(name)
        # An auction's buyer received the details only if it took the post.
        if buyer_name is not None and status == "delivered":
            names[lead_id].add(buyer_name)
    return {lead_id: (lead_id in buyers, sorted(names[lead_id])) for lead_id in lead_ids}


def recipient_names(recipients: tuple[bool, list[str]], settings: Settings) -> list[str]:
    """lead_recipients' answer as names: the fixed buyer's first, then the others'."""
    buyer, names = recipients
    return [settings.buyer_name or "our lead-buying partner", *names] if buyer else list(names)


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


def receipt(*, lead: Lead, recipients: tuple[bool, list[str]], settings: Settings,
            catalog) -> tuple[str, str, str, dict]:
    """(recipient, subject, text, extra headers) of the consent receipt for `lead`, given
    lead_recipients' answer for it."""
    contact = decrypt_personal_data(lead=lead, settings=settings)["contact"]
    consent = lead.consent
    service_name = service_name_of(lead, catalog)
    link = stop_url(settings=settings, lead_id=lead.id)
    parties = recipient_names(recipients, settings)
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
        "Who may contact you about it:",
        *([f"  - {name}" for name in parts] if (parts := parties) else
          ["  - nobody yet: no provider in your area has been matched"]),
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
    # RFC 8058 one-click unsubscribe: mail clients show a button that POSTs to this address.
    one_click = link.replace("/privacy/stop?", "/api/privacy/one-click?", 1)
    headers = {"List-Unsubscribe": f"<{one_click}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    subject = f"Your {settings.brand_name} request: {service_name} (your consent receipt)"
    return contact.get("email", ""), subject, "\n".join(lines) + "\n", headers


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
