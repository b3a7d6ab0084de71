"""One lead's page: answers, consent evidence, privacy status, the auction and the delivery timeline."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from servicematch.catalog.loader import CatalogIndex
from servicematch.console.auction import auction_steps
from servicematch.console.delivery_health import CarriedCounts, by_carried
from servicematch.console.lead_quality import QualityReview, quality_review
from servicematch.console.leads import (
    LeadRow,
    answer_labels,
    contact_of,
    lead_facts,
    lead_statuses,
    lead_summary,
)
from servicematch.console.paging import iso
from servicematch.console.shapes import Shape
from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.errors import NotFound
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.privacy.models import LeadErasure
from servicematch.privacy.notices import ACCEPTED, CORRECTED, DELETED, LEAD, RECEIPT, REVOKED
from servicematch.reporting.models import Carried
from servicematch.routing.offer_notice import OFFER_NOTICE
from servicematch.settings import Settings

CHANNELS = {TargetKind.BUYER: "webhook", TargetKind.BUYER_POST: "webhook", TargetKind.PROVIDER_WEBHOOK: "webhook",
            TargetKind.PROVIDER_EMAIL: "email", TargetKind.CONSUMER_EMAIL: "email", TargetKind.PROVIDER_PORTAL: "portal"}
# What a delivery carried, by its payload_kind, as an operator reads it.
CARRIED = {LEAD: "Lead", RECEIPT: "Consent receipt", REVOKED: "Revocation notice", DELETED: "Deletion notice",
           CORRECTED: "Correction notice", ACCEPTED: "Provider accepted (to the consumer)",
           OFFER_NOTICE: "Offer notice (no contact details)"}
# How a delivery held back by the consumer's choice (or anything else that stops a send) records why.
NOT_SENT = "not sent: "


class DeliveryAttempt(Shape):
    at: str | None
    outcome: str
    httpStatus: int | None
    durationMs: int | None
    error: str | None


class LeadDelivery(Shape):
    """One delivery on the lead's timeline: to whom, how, what it carried, and each attempt."""

    id: str
    recipient: str
    channel: str
    # What it carried: lead, receipt, lead.revoked, lead.deleted, lead.corrected, ...
    payload: str
    # As an operator reads it: "Lead", "Consent receipt", "Revocation notice", ...
    carried: str
    status: str
    lastError: str | None
    # Why it was held rather than sent (consent withdrawn, data erased, opted out...); None if it was not.
    heldReason: str | None
    nextAttemptAt: str | None
    attempts: list[DeliveryAttempt]


class LeadConsent(Shape):
    """The consent evidence (analysts: the address and browser "(hidden)")."""

    text: str
    textSha256: str
    partnersVersion: str | None
    at: str | None
    ip: str | None
    userAgent: str | None
    pageUrl: str | None
    trustedform: str | None
    gpc: bool


class LeadPrivacy(Shape):
    doNotSell: bool
    gpc: bool
    revokedAt: str | None
    deletedAt: str | None


class AuctionStep(Shape):
    """A step of the lead's auction, in ms since the lead was committed; amount in dollars."""

    # ping, bid, pass, outcome, post, accepted, refused, resend, closed
    kind: str
    atMs: int
    buyer: str | None
    amount: float | None
    exclusive: bool | None
    detail: str | None


class LeadDetail(LeadRow):
    """GET /leads/{id}: the list's fields, then answers, consent, privacy, deliveries and the auction."""

    answers: dict[str, str]
    consent: LeadConsent | None
    privacy: LeadPrivacy
    deliveries: list[LeadDelivery]
    deliveryCounts: CarriedCounts
    # Empty when the lead had no auction (no buyer qualified, or routing has not run yet).
    auction: list[AuctionStep]
    # The quality gate's reason codes (docs/quality.md), empty when none or not judged yet.
    qualityReasons: list[str]
    # An operator's release or rejection of the lead while it was held; null when none.
    qualityReview: QualityReview | None


def carried(payload_kind: str) -> dict:
    """A delivery's payload_kind and what the console calls it."""
    return {"payload": payload_kind, "carried": CARRIED.get(payload_kind, payload_kind)}


def held_reason(delivery: Delivery) -> str | None:
    """Why a delivery was held rather than sent (the consumer withdrew consent, was erased, opted
    out of sale, ...), as its last error says after "not sent: "; None when it was not held."""
    error = delivery.last_error or ""
    if delivery.status not in (DeliveryStatus.REJECTED, DeliveryStatus.SKIPPED) or not error.startswith(NOT_SENT):
        return None
    reason = error.removeprefix(NOT_SENT).strip()
    return reason[:1].upper() + reason[1:]


def recipient_of(kind: str, name: str | None) -> str:
    """The provider's or auction buyer's name, else what the recipient was."""
    if name:
        return name
    return {TargetKind.BUYER: "Buyer", TargetKind.BUYER_POST: "Removed buyer",
            TargetKind.CONSUMER_EMAIL: "Consumer"}.get(kind, "Removed provider")
HIDDEN = "(hidden)"


def find_lead(session: Session, lead_id: str) -> Lead:
    lead = session.get(Lead, lead_id[:36])
    if lead is None:
        raise NotFound(f"No lead with id {lead_id}.")
    return lead


def lead_detail(session: Session, settings: Settings, index: CatalogIndex, *, lead: Lead, reveal: bool) -> dict:
    labels = answer_labels(index, lead)
    private = contact_of(lead, settings).get("answers", {})
    answers = {labels.get(key, key): value for key, value in lead.answers.items()}
    # Date of birth and free text are personal: shown to admins, hidden from analysts.
    answers.update({labels.get(key, key): value if reveal else HIDDEN for key, value in private.items()})
    consent = session.scalars(select(ConsentRecord).where(ConsentRecord.lead_id == lead.id)).first()
    deliveries = session.scalars(
        select(Delivery).where(Delivery.lead_id == lead.id)
        .options(selectinload(Delivery.attempts), selectinload(Delivery.provider), selectinload(Delivery.buyer))
        .order_by(Delivery.created_at, Delivery.kind, Delivery.target_key)
    ).all()
    facts = lead_facts(session, [lead.id])[lead.id]
    summary = lead_summary(lead, status=lead_statuses(session, [lead.id])[lead.id], facts=facts, settings=settings,
                           reveal=reveal)
    return {
        **summary,
        "answers": answers,
        "consent": _consent(consent, reveal=reveal),
        "privacy": {
            "doNotSell": lead.do_not_sell,
            "gpc": bool(consent and consent.global_privacy_control),
            # Written by the privacy module when a consumer stops contact or has their data erased.
            "revokedAt": iso(facts.revoked_at),
            "deletedAt": iso(session.scalar(select(LeadErasure.erased_at).where(LeadErasure.lead_id == lead.id))),
        },
        "deliveries": [_delivery(d) for d in deliveries],
        # The lead's own deliveries (to buyers and providers), its consent receipt and the privacy
        # notices that followed it, each counted by status on its own.
        "deliveryCounts": by_carried(Counter((Carried.of(d.payload_kind), d.status) for d in deliveries)),
        # The auction, step by step, in ms since the lead was committed; empty when it had none.
        "auction": auction_steps(session, lead),
        "qualityReasons": [str(reason) for reason in lead.quality_reasons or []],
        "qualityReview": quality_review(session, lead.id),
    }


def _consent(consent: ConsentRecord | None, *, reveal: bool) -> dict | None:
    if consent is None:
        return None
    return {
        "text": consent.consent_text, "textSha256": consent.consent_text_sha256,
        "partnersVersion": consent.partner_list_version, "at": iso(consent.consented_at),
        # The address and browser identify a person: admins only.
        "ip": consent.ip_address if reveal else HIDDEN,
        "userAgent": consent.user_agent if reveal else HIDDEN,
        "pageUrl": consent.page_url, "trustedform": consent.trustedform_cert_url,
        "gpc": consent.global_privacy_control,
    }


def _name_of(delivery: Delivery) -> str | None:
    if delivery.kind == TargetKind.CONSUMER_EMAIL:
        return None  # an acceptance e-mail names a provider, but goes to the consumer
    if delivery.provider:
        return delivery.provider.name
    return delivery.buyer.name if delivery.buyer else None


def _delivery(delivery: Delivery) -> dict:
    return {
        "id": delivery.id, "recipient": recipient_of(delivery.kind, _name_of(delivery)),
        "channel": CHANNELS.get(delivery.kind, delivery.kind), **carried(delivery.payload_kind),
        "status": delivery.status, "lastError": delivery.last_error, "heldReason": held_reason(delivery),
        "nextAttemptAt": iso(delivery.next_attempt_at) if delivery.status == "pending" else None,
        "attempts": [
            {"at": iso(a.attempted_at), "outcome": a.outcome, "httpStatus": a.status_code,
             "durationMs": a.duration_ms, "error": a.error}
            for a in delivery.attempts
        ],
    }
