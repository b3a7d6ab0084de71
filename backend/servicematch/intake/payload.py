"""Read a stored lead back: its decrypted personal data and the buyer's submission payload."""

from __future__ import annotations

from servicematch.settings import Settings

from .crypto import cipher_for
from .models import Lead

PID = 16
SID = 143
SOURCE = "website"
CLICK_KEYS = ("domain_url", "externalid", "subid1", "subid2", "fbclid", "fbp", "useragent", "ip", "trustedform")


def decrypt_personal_data(*, lead: Lead, settings: Settings) -> dict:
    """{"contact": {first, last, email, phone, address1, address2, city, state, zip},
    "answers": {date of birth and free-text answers, by mapping}}."""
    return cipher_for(settings).decrypt(lead.personal_data, lead_id=lead.id)


def buyer_payload(*, lead: Lead, settings: Settings) -> dict:
    """The spec's submission payload (section 3) for this lead, with the server-seen IP filled in."""
    personal = decrypt_personal_data(lead=lead, settings=settings)
    answers = {**lead.answers, **personal["answers"]}
    consumer = {
        **personal["contact"],
        "vertical": lead.vertical,
        "category": lead.category,
        "source": SOURCE,
        **answers,
    }
    click = {key: str(lead.click.get(key, "")) for key in CLICK_KEYS}
    click["ip"] = (lead.consent.ip_address if lead.consent else None) or ""
    return {
        "pid": PID,
        "sid": SID,
        "cid": lead.cid,
        "istest": "Y" if lead.is_test else "N",
        "requestId": lead.request_id,
        "consumer": consumer,
        "customquestions": {key: value for key, value in answers.items() if key.startswith("cq")},
        "click": click,
    }
