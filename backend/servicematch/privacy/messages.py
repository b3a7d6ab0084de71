"""What privacy deliveries say: the consumer's consent receipt and the notices to recipients."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, column, func, select, table
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryStatus, Provider
from servicematch.delivery.ratings import NO_RATING, Rating, provider_ratings
from servicematch.intake.models import QUALITY_HELD, QUALITY_REJECTED, Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.kernel.references import shown_reference
from servicematch.kernel.webhook_events import event_envelope
from servicematch.privacy.contacts import aware
from servicematch.privacy.links import stop_url
from servicematch.privacy.models import LeadErasure, LeadRevocation
from servicematch.privacy.notices import (
    CORRECTED,
    DELETED,
    DISCARD,
    DO_NOT_SELL,
    LATE,
    LEAD,
    REFUSED,
    REVOKED,
    discarded_post,
    post_answers,
)
from servicematch.settings import Settings

NOTICE_ASKS = {
    REVOKED: "The consumer withdrew consent to be contacted. Do not call, text or e-mail them about "
             "this request, and stop any contact under way.",
    DELETED: "The consumer asked us to delete their personal data. Delete what you received with "
             "this request, and pass the request on to anyone you shared it with.",
    CORRECTED: "The consumer asked us to correct their personal data. Update what you received "
               "with this request as below.",
    DO_NOT_SELL: "The consumer opted out of the sale and sharing of their personal information. Do not "
                 "sell or share what you received with this request, from now on.",
}
DISCARD_ASKS = {
    REFUSED: "You did not buy this lead: you refused its post. Delete the consumer's details you received "
             "with it, do not contact them, and do not pass the details on.",
    LATE: "You did not buy this lead: your answer to its post did not reach us in time, though we sent it "
          "again with the same webhook-id, so it was not sold to you, whatever you answered. Delete the consumer's details you received "
          "with it, do not contact them, and do not pass the details on.",
}


# Routing's tables, by name only: privacy reads who bought a lead and which providers still weigh an
# offer of it, and imports nothing of routing.
_BUYERS = table("buyers", column("id"), column("name"))
OPEN_OFFERS = ("Providers in your area have been told about your request, without your name or contact details. "
               "If one of them takes it on, we will e-mail you its name.")
_OFFERS = table("provider_offers", column("lead_id"), column("status"))


# What a company did with the consumer's details (Company.did).
BOUGHT = "bought"          # a buyer took the lead (the fixed buyer's 2xx, an auction buyer's sale)
RECEIVED = "received"      # a provider's webhook or mailbox took it
ACCEPTED = "accepted"      # a provider accepted the offer in its portal
SENDING = "sending"        # being sent right now (the consent receipt only)
TOOK = (BOUGHT, RECEIVED, ACCEPTED, SENDING)
# The details reached it but it did not take the request: it answered no, or too late.
TURNED_DOWN = (REFUSED, LATE)


@dataclass(frozen=True)
class Company:
    """A company the consumer's contact details went to, with its consumers' rating (providers only),
    what it did with them, and whether it was told to discard them."""

    name: str
    rating: Rating = NO_RATING
    did: str = RECEIVED
    told_to_discard: bool = False
    # A lead buyer (the fixed buyer or an auction's), not a provider.
    is_buyer: bool = False

    def in_words(self) -> str:
        return f"{self.name} (rated {self.rating.in_words()})" if self.rating.count else self.name

    def what_happened(self) -> str:
        """What it did with the details, in the consumer's words."""
        told = " We told it to delete them." if self.told_to_discard else ""
        return {
            BOUGHT: "Bought your request. It may contact you about it.",
            RECEIVED: "Received your request. It may contact you about it.",
            ACCEPTED: "Accepted your request in its provider portal. It may contact you about it.",
            SENDING: "Is being sent your request. It may contact you about it.",
            REFUSED: f"Was sent your contact details but turned your request down.{told}",
            LATE: f"Was sent your contact details but did not answer in time, so it did not get your "
                  f"request.{told}",
        }[self.did]


@dataclass(frozen=True)
class Recipients:
    """Who holds a lead's contact details: the fixed buyer (SERVICEMATCH_BUYER_URL), and the other
    companies by name, each with what it did. Open offers are providers still weighing the lead
    without the details."""

    fixed_buyer: bool
    companies: tuple[Company, ...] = ()
    open_offers: int = 0
    # What the fixed buyer did, when it received the lead.
    fixed_buyer_did: str = BOUGHT

    def holders(self, settings: Settings) -> list[Company]:
        """Every company the details reached, whatever it answered, the fixed buyer's name first."""
        buyer = ([Company(settings.buyer_name or "Our lead-buying partner", did=self.fixed_buyer_did, is_buyer=True)]
                 if self.fixed_buyer else [])
        return [*buyer, *self.companies]

    def named(self, settings: Settings) -> list[Company]:
        """The companies that took the request (and may contact the consumer), the fixed buyer first."""
        return [company for company in self.holders(settings) if company.did in TOOK]

    def turned_down(self, settings: Settings) -> list[Company]:
        """The companies the details reached that did not take the request."""
        return [company for company in self.holders(settings) if company.did in TURNED_DOWN]


_HTTP_KINDS = ("buyer", "buyer_post", "provider_webhook")


def _did(kind: str, status: str, answer: str | None) -> str | None:
    """What a lead delivery's party did with the details, or None when they never reached it."""
    if status == DeliveryStatus.DELIVERED:
        return {"buyer": BOUGHT, "buyer_post": BOUGHT, "provider_portal": ACCEPTED}.get(kind, RECEIVED)
    if status == DeliveryStatus.PENDING:
        return SENDING
    # An HTTP receiver that answered got the whole request, whatever it answered; an auction post
    # also counts when it went out and no answer came in time. An e-mail refused never arrived.
    if kind in _HTTP_KINDS and (answer == REFUSED or (answer == LATE and kind == "buyer_post")):
        return answer
    return None


def _rank(did: str) -> int:
    # A provider reached by webhook and by e-mail: what it took counts over what it refused.
    return (BOUGHT, ACCEPTED, RECEIVED, SENDING, REFUSED, LATE).index(did)


# Built once: every consent receipt asks (a round of receipts at a time), and building the
# statements and their cache keys cost more than running them.
_LEAD_DELIVERIES = (
    select(Delivery.id, Delivery.lead_id, Delivery.kind, Delivery.status, Delivery.provider_id, Provider.name,
           _BUYERS.c.name, Delivery.buyer_id)
    .outerjoin(Provider, Delivery.provider_id == Provider.id)
    .outerjoin(_BUYERS, Delivery.buyer_id == _BUYERS.c.id)
    .where(Delivery.lead_id.in_(bindparam("lead_ids", expanding=True)), Delivery.payload_kind == LEAD))
_DISCARD_NOTICES = select(Delivery.lead_id, Delivery.buyer_id).where(
    Delivery.lead_id.in_(bindparam("lead_ids", expanding=True)), Delivery.payload_kind == DISCARD)
_OPEN_OFFERS = (
    select(_OFFERS.c.lead_id, func.count())
    .where(_OFFERS.c.lead_id.in_(bindparam("lead_ids", expanding=True)), _OFFERS.c.status == "open")
    .group_by(_OFFERS.c.lead_id))


def recipients_of(*, session: Session, lead_ids: list[str], under_way: bool = False) -> dict[str, Recipients]:
    """Who received each lead's contact details, for several leads in one go: a delivery of the
    lead that arrived (a 2xx, the SMTP server took the e-mail, or a provider accepted the offer in
    the portal: its provider_portal row), and a request that reached a webhook or a buyer's post
    URL whatever its answer (a refusal, or an auction post that went out and was not answered in
    time): each company with what it did. Not a delivery skipped or never sent (a refused
    connection, a rejected e-mail), and not an offer still open, declined, expired or withdrawn:
    those details never left.

    `under_way` (the consent receipt, written while the lead's e-mails and webhooks go out): also
    the deliveries still being sent, and the count of offers still open.
    """
    rows = session.execute(_LEAD_DELIVERIES, {"lead_ids": list(lead_ids)}).all()
    answers = post_answers(session=session, delivery_ids=[
        row.id for row in rows if row.kind in _HTTP_KINDS
        and row.status in (DeliveryStatus.REJECTED, DeliveryStatus.FAILED)])
    told = set(session.execute(_DISCARD_NOTICES, {"lead_ids": list(lead_ids)}).all())
    found = []
    for row in rows:
        did = _did(row.kind, row.status, answers.get(row.id))
        if did is None or (did == SENDING and not under_way):
            continue
        # An auction's buyer received the details once its post went out (settled before the receipt).
        if did == SENDING and row.kind == "buyer_post":
            continue
        found.append((row, did))
    ratings = provider_ratings(session=session, provider_ids=[row.provider_id for row, _ in found
                                                              if row.provider_id is not None])
    fixed: dict[str, str] = {}
    names: dict[str, dict[str, Company]] = {lead_id: {} for lead_id in lead_ids}
    for row, did in found:
        if row.kind == "buyer":
            if row.lead_id not in fixed or _rank(did) < _rank(fixed[row.lead_id]):
                fixed[row.lead_id] = did
            continue
        name = row[5] if row[5] is not None else row[6]
        if name is None:
            continue
        company = Company(name, ratings.get(row.provider_id, NO_RATING), did,
                          told_to_discard=(row.lead_id, row.buyer_id) in told and did in TURNED_DOWN,
                          is_buyer=row.kind == "buyer_post")
        known = names[row.lead_id].get(name)
        if known is None or _rank(did) < _rank(known.did):
            names[row.lead_id][name] = company
    waiting = dict(session.execute(_OPEN_OFFERS, {"lead_ids": list(lead_ids)}).all()) if under_way else {}
    return {lead_id: Recipients(fixed_buyer=lead_id in fixed, fixed_buyer_did=fixed.get(lead_id, BOUGHT),
                                companies=tuple(names[lead_id][name] for name in sorted(names[lead_id])),
                                open_offers=waiting.get(lead_id, 0))
            for lead_id in lead_ids}


def recipient_names(recipients: Recipients, settings: Settings) -> list[str]:
    """The names of every company that received the lead's details, whatever it answered, the fixed
    buyer's first."""
    return [company.name for company in recipients.holders(settings)]


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
    turned_down = recipients.turned_down(settings)
    # Said only while no lead buyer holds the details (an opt-out may come after a sale).
    not_sold = None if any(company.is_buyer for company in recipients.holders(settings)) else not_sold_because(lead)
    # Held by the quality gate: nobody was pinged, so nobody has the details while it is reviewed.
    reviewing = lead.quality_status == QUALITY_HELD and not parties
    declined = lead.quality_status == QUALITY_REJECTED and not parties
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
          ["  - nobody yet" if recipients.open_offers or reviewing else
           "  - nobody" if not_sold or declined else
           "  - nobody yet: no provider in your area has been matched"]),
        *(["", OPEN_OFFERS] if recipients.open_offers else []),
        *(["", UNDER_REVIEW] if reviewing else []),
        *(["", NOT_PASSED_ON] if declined else []),
        *(["", "Sent your contact details, but did not take your request:",
           *[f"  - {company.name}: {company.what_happened()}" for company in turned_down]] if turned_down else []),
        *(["", not_sold] if not_sold else []),
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


# The quality gate's hold and an operator's rejection, in the receipt's words (docs/quality.md).
UNDER_REVIEW = ("Your request is being reviewed before it is passed on. While it is, no company has your "
                "contact details.")
NOT_PASSED_ON = "We reviewed your request and did not pass it on to any company."
GPC_HONOURED = ("Your browser sent a Global Privacy Control signal, and we honoured it: your request "
                "was not sold to or shared with any lead buyer.")
OPTED_OUT = ("You opted out of the sale and sharing of your information: your request was not sold to or "
             "shared with any lead buyer.")


def not_sold_because(lead: Lead) -> str | None:
    """Why a lead went to no lead buyer, in the receipt's words, when the consumer chose so."""
    if lead.consent is not None and lead.consent.global_privacy_control:
        return GPC_HONOURED
    return OPTED_OUT if lead.do_not_sell else None


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
    if delivery.payload_kind == DISCARD:
        post = discarded_post(session=session, notice=delivery)
        # The post's own webhook-id, so the buyer finds the exact message it should not have kept.
        data["postId"] = post.id if post is not None else None
        data["reason"] = (post_answers(session=session, delivery_ids=[post.id])[post.id] if post else None) or LATE
        data["action"] = DISCARD_ASKS[data["reason"]]
    else:
        data["action"] = NOTICE_ASKS[delivery.payload_kind]
    return event_envelope(delivery.payload_kind, occurred_at=delivery.created_at, data=data)


def notice_email(*, body: dict, brand_name: str) -> tuple[str, str]:
    """Subject and text of a notice for a recipient without a webhook, from notice_body's event."""
    kind, data = body["type"], body["data"]
    subject = {REVOKED: "Stop contacting", DELETED: "Delete the data of",
               CORRECTED: "Correct the data of", DO_NOT_SELL: "Do not sell or share",
               DISCARD: "Discard"}[kind]
    lines = [data["action"], "", f"Request id: {data['requestId']}", f"Service:    {data['service']}"]
    if data.get("revokedAt"):
        lines.append(f"Withdrawn:  {data['revokedAt']} ({data['method']})")
    if data.get("correction"):
        lines += ["", "Correction:", data["correction"]]
    lines += ["", f"{brand_name} privacy notice ({kind})"]
    return f"{subject} request {data['requestId']}", "\n".join(lines) + "\n"
