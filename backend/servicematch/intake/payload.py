"""Read a stored lead back: its decrypted personal data and the buyer's submission payload."""

from __future__ import annotations

from datetime import UTC

from servicematch.catalog.schema import SITE_SOURCE
from servicematch.kernel.crypto import cipher_for
from servicematch.settings import Settings

from .models import Lead

PID = 16
SID = 143
SOURCE = SITE_SOURCE
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


def consent_proof(lead: Lead) -> dict:
    """What lets a buyer prove the consumer's consent: the text the visitor saw, word for word, and
    its SHA-256, when, from where (the page without personal parameters), the certificate."""
    consent = lead.consent
    return {
        "leadId": lead.id,
        "requestId": lead.request_id,
        "createdAt": _iso(lead.created_at),
        "consent": {
            "text": consent.consent_text if consent else None,
            "textSha256": consent.consent_text_sha256 if consent else None,
            "consentedAt": _iso(consent.consented_at) if consent else None,
            "ip": consent.ip_address if consent else None,
            "userAgent": consent.user_agent if consent else None,
            "pageUrl": consent.page_url if consent else None,
            "trustedFormCertUrl": (consent.trustedform_cert_url or None) if consent else None,
            "partnerListVersion": consent.partner_list_version if consent else None,
            "globalPrivacyControl": bool(consent and consent.global_privacy_control),
            "doNotSell": bool(lead.do_not_sell),
            # What TrustedForm said of the certificate when the quality gate asked (verified, retained).
            **(lead.quality_proof or {}),
        },
    }


def quality_of(lead: Lead) -> dict | None:
    """The quality gate's verdict as pings and posts carry it: {"score": 87, "reasons": [...]}."""
    if lead.quality_score is None:
        return None
    return {"score": lead.quality_score, "reasons": list(lead.quality_reasons or [])}


def auction_post_payload(*, lead: Lead, settings: Settings) -> dict:
    """What a buyer that won a lead receives: the submission payload and the consent proof."""
    return {**buyer_payload(lead=lead, settings=settings), **consent_proof(lead), "quality": quality_of(lead)}


def _iso(moment) -> str | None:
    """ISO 8601 in UTC with a Z (SQLite hands back naive datetimes; everything stored is UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
