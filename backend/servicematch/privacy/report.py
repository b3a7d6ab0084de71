"""The access report: every lead, answer, consent record and delivery held about a contact."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.intake.models import Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.privacy.contacts import aware
from servicematch.privacy.messages import recipient_names, recipients_of
from servicematch.privacy.models import LeadErasure, LeadRevocation, PrivacyRequest
from servicematch.settings import Settings

CHANNELS = {"buyer": "lead buyer (web)", "buyer_post": "lead buyer (web)", "provider_webhook": "provider (web)",
            "provider_email": "provider (e-mail)", "provider_portal": "provider (accepted in its portal)",
            "consumer_email": "you (e-mail)"}


def _iso(value) -> str | None:
    return aware(value).isoformat() if value is not None else None


def _recipient(delivery: Delivery, settings: Settings) -> str:
    if delivery.kind == "buyer":
        return settings.buyer_name or "Lead buyer"
    if delivery.kind == "consumer_email":
        return "You"
    if delivery.buyer is not None:
        return delivery.buyer.name
    return delivery.provider.name if delivery.provider is not None else "A company (since removed)"


# Stored keys that no field of the catalogue labels.
EXTRA_LABELS = {"address2": "Address line 2", "cq20": "Year employment began"}


def question_labels(index: CatalogIndex | None, lead: Lead) -> dict[str, str]:
    """The question each stored key answers, as the visitor read it on the form."""
    if index is None:
        return dict(EXTRA_LABELS)
    labels = {**EXTRA_LABELS, **{f.id: f.label for f in index.catalog.site.baseFields}}
    service = index.find(lead.service, lead.vertical)
    for definition in service.fields if service else []:
        labels[definition.id] = definition.label
        if definition.mapping:
            labels[definition.mapping] = definition.label
    return labels


def in_words(*, labels: dict[str, str], contact: dict, answers: dict) -> list[dict[str, str]]:
    """Each detail and answer held, under its question's label, the contact details first."""
    return [{"question": labels.get(key, key), "answer": str(value)}
            for key, value in [*contact.items(), *answers.items()] if value not in ("", None)]


def lead_report(*, session: Session, settings: Settings, lead: Lead, index: CatalogIndex | None = None) -> dict:
    personal = decrypt_personal_data(lead=lead, settings=settings)
    contact = personal.get("contact", {})
    answers = {**(lead.answers or {}), **personal.get("answers", {})}
    consent = lead.consent
    deliveries = session.scalars(select(Delivery).where(Delivery.lead_id == lead.id)
                                 .order_by(Delivery.created_at)).all()
    revocation = session.get(LeadRevocation, lead.id)
    erasure = session.get(LeadErasure, lead.id)
    received = recipients_of(session=session, lead_ids=[lead.id])
    return {
        "requestId": lead.request_id,
        "submittedAt": _iso(lead.created_at),
        "vertical": lead.vertical,
        "service": lead.service,
        "category": lead.category,
        "contact": contact,
        "answers": answers,
        "inWords": in_words(labels=question_labels(index, lead), contact=contact, answers=answers),
        "click": lead.click or {},
        "doNotSell": lead.do_not_sell,
        "consent": None if consent is None else {
            "text": consent.consent_text, "textSha256": consent.consent_text_sha256,
            "partnerListVersion": consent.partner_list_version, "givenAt": _iso(consent.consented_at),
            "pageUrl": consent.page_url, "ipAddress": consent.ip_address, "userAgent": consent.user_agent,
            "trustedFormCertificate": consent.trustedform_cert_url,
            "globalPrivacyControl": consent.global_privacy_control,
        },
        "revoked": None if revocation is None else {"at": _iso(revocation.revoked_at), "how": revocation.method},
        "erased": None if erasure is None else {"at": _iso(erasure.erased_at), "why": erasure.reason},
        # Exactly the companies the contact details reached, whatever they answered; "deliveries"
        # below also lists the attempts that never arrived, and privacy notices, each with its status.
        "receivedBy": recipient_names(received[lead.id], settings),
        # The same companies, each with what it did with the details.
        "companies": [{"name": company.name, "did": company.did, "toldToDiscard": company.told_to_discard,
                       "inWords": company.what_happened()}
                      for company in received[lead.id].holders(settings)],
        "deliveries": [
            {"recipient": _recipient(d, settings), "channel": CHANNELS.get(d.kind, d.kind),
             "what": d.payload_kind, "status": d.status,
             "receivedAt": _iso(d.completed_at) if d.status == DeliveryStatus.DELIVERED else None}
            for d in deliveries
        ],
    }


def access_report(*, session: Session, settings: Settings, leads: list[Lead], keys: list[str],
                  generated_at, index: CatalogIndex | None = None) -> dict:
    requests = session.scalars(select(PrivacyRequest).where(PrivacyRequest.contact_key.in_(keys))
                               .order_by(PrivacyRequest.received_at)).all()
    return {
        "generatedAt": _iso(generated_at),
        "business": settings.brand_name,
        "leads": [lead_report(session=session, settings=settings, lead=lead, index=index) for lead in leads],
        "privacyRequests": [
            {"kind": r.kind, "receivedAt": _iso(r.received_at), "verifiedAt": _iso(r.verified_at),
             "closedAt": _iso(r.closed_at), "outcome": r.outcome}
            for r in requests
        ],
    }
