"""What each target receives: the buyer's submission payload, a provider's webhook and e-mail."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from servicematch.delivery.models import Provider
from servicematch.intake.models import Lead
from servicematch.intake.payload import buyer_payload
from servicematch.kernel.clock import as_utc
from servicematch.kernel.webhook_events import event_envelope
from servicematch.settings import Settings

LEAD_MATCHED = "lead.matched"
# (lead=, settings=) -> the spec's submission payload, rebuilt from the lead's encrypted data.
PayloadBuilder = Callable[..., dict]

CONSUMER_CONTACT_FIELDS = ("first", "last", "email", "phone", "address1", "address2", "city",
                           "state", "zip")


def intake_payload_builder(*, lead: Lead, settings: Settings) -> dict:
    """Intake owns the encryption, so it is the one that turns a stored lead back into a payload."""
    return buyer_payload(lead=lead, settings=settings)


def provider_lead_details(*, lead: Lead, provider: Provider, payload: dict) -> dict:
    """The lead's details for a matched provider; tracking data stays with us and the buyer."""
    consumer = payload.get("consumer", {})
    return {
        "requestId": lead.request_id,
        "leadId": lead.id,
        "createdAt": as_utc(lead.created_at).isoformat() if lead.created_at else None,
        "vertical": lead.vertical,
        "service": lead.service,
        "istest": payload.get("istest", "Y" if lead.is_test else "N"),
        "provider": {"id": provider.id, "name": provider.name},
        "consumer": {key: consumer.get(key, "") for key in CONSUMER_CONTACT_FIELDS},
        "answers": {key: value for key, value in consumer.items() if key not in CONSUMER_CONTACT_FIELDS},
    }


def provider_webhook_body(*, lead: Lead, provider: Provider, payload: dict, matched_at: datetime) -> dict:
    """The `lead.matched` event a provider's webhook receives: the details in the shared envelope,
    timed when the lead was matched to the provider (its delivery's creation)."""
    details = provider_lead_details(lead=lead, provider=provider, payload=payload)
    return event_envelope(LEAD_MATCHED, occurred_at=matched_at, data=details)


def provider_email(*, lead: Lead, provider: Provider, payload: dict, brand_name: str) -> tuple[str, str]:
    """Subject and plain-text body of a provider's new-lead e-mail."""
    details = provider_lead_details(lead=lead, provider=provider, payload=payload)
    consumer = details["consumer"]
    place = ", ".join(part for part in (consumer["city"], consumer["state"]) if part)
    test = "[TEST] " if details["istest"] == "Y" else ""
    subject = f"{test}New {lead.service} request" + (f" in {place}" if place else "")
    lines = [
        f"Hello {provider.name},",
        "",
        f"{brand_name} matched you with a new {lead.service} request.",
        "",
        f"Name:    {consumer['first']} {consumer['last']}".rstrip(),
        f"Phone:   {consumer['phone']}",
        f"Email:   {consumer['email']}",
        f"Address: {' '.join(p for p in (consumer['address1'], consumer['address2']) if p)}",
        f"         {place} {consumer['zip']}".rstrip(),
    ]
    if details["answers"]:
        lines += ["", "Answers:"] + [f"  {key}: {value}" for key, value in details["answers"].items()]
    lines += ["", f"Request id: {lead.request_id}"]
    return subject, "\n".join(lines) + "\n"
