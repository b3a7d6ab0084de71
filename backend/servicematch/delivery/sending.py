"""Prepare one claimed delivery for its channel: buyer POST, provider webhook or provider e-mail.

Preparing reads the database and builds the exact message; it runs on the worker's dispatcher,
for a whole round of claims in one session. What it returns is either the attempt's result
already (nothing can be sent) or a `Send`: a function of the seconds left that sends the message
once and touches nothing but the network.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from sqlalchemy.orm import Session

from servicematch.delivery.content import (
    PayloadBuilder,
    provider_email,
    provider_webhook_body,
)
from servicematch.delivery.models import Delivery, TargetKind
from servicematch.intake.models import Lead
from servicematch.intake.payload import auction_post_payload
from servicematch.mail.transport import message_send, new_message
from servicematch.outbound.http_sender import DeliveryClient, encode_body, signed_post
from servicematch.outbound.outcome import Outcome, Send, SendResult
from servicematch.outbound.signing import overlap_secrets
from servicematch.settings import Settings


class OtherMessages(Protocol):
    """What is sent about a lead besides the lead itself (consent receipts, privacy notices): built
    by the room that owns them (servicematch.privacy) and handed to the worker where it is composed,
    so delivery imports none of it."""

    def recipients_of(self, *, session: Session, lead_ids: list[str]) -> dict[str, object]:
        """Who received each lead (the receipt names them), for several leads in one query."""

    def withheld(self, *, session: Session, lead_ids: list[str]) -> dict[str, str]:
        """For each of these leads whose personal data may go to nobody any more (consent withdrawn,
        data erased), why; the others are left out."""

    def prepare(self, *, session: Session, delivery: Delivery, lead: Lead, settings: Settings,
                client: DeliveryClient, timestamp: int,
                recipients: Callable[[str], object]) -> SendResult | Send:
        """The message for `delivery` (its payload_kind is not "lead"), or the result if none can be sent."""


class MessagesByKind:
    """OtherMessages put together from several rooms: a builder per payload kind (a room's own
    messages, such as offer notices or review requests), and `others` for every other kind and for
    who received each lead."""

    def __init__(self, others: OtherMessages, builders: dict[str, Callable[..., SendResult | Send]]) -> None:
        self.others = others
        self.builders = builders

    def recipients_of(self, *, session: Session, lead_ids: list[str]) -> dict[str, object]:
        return self.others.recipients_of(session=session, lead_ids=lead_ids)

    def withheld(self, *, session: Session, lead_ids: list[str]) -> dict[str, str]:
        return self.others.withheld(session=session, lead_ids=lead_ids)

    def prepare(self, *, session: Session, delivery: Delivery, lead: Lead, settings: Settings,
                **rest) -> SendResult | Send:
        builder = self.builders.get(delivery.payload_kind)
        if builder is not None:
            return builder(session=session, delivery=delivery, lead=lead, settings=settings)
        return self.others.prepare(session=session, delivery=delivery, lead=lead, settings=settings, **rest)


OPTED_OUT = "the consumer opted out of sale and sharing"


def opted_out_of_sale(lead: Lead, kind: str) -> bool:
    """A lead whose consumer opted out of sale (or sent Global Privacy Control) goes to no buyer."""
    return lead.do_not_sell and kind in (TargetKind.BUYER, TargetKind.BUYER_POST)


class RoundLeads:
    """What a round's messages share about each lead, worked out once: the buyer payload (its
    personal data decrypted once for all the lead's targets), which leads may no longer be sent
    (read for all the round's leads in one query) and, for consent receipts, who gets the lead
    (read for all the round's receipts in one query)."""

    def __init__(self, builder: PayloadBuilder, settings: Settings, session: Session,
                 receipt_leads: list[str], messages: OtherMessages | None = None,
                 lead_ids: list[str] | None = None) -> None:
        self._builder, self._settings, self._session = builder, settings, session
        self.messages = messages
        self._receipt_leads = receipt_leads
        self._lead_ids = lead_ids or []
        self._checked: set[str] = set()
        self._built: dict[str, dict | Exception] = {}
        self._recipients: dict[str, object] | None = None
        self._withheld: dict[str, str] | None = None

    def withheld(self, lead: Lead, kind: str) -> str | None:
        """Why this lead's details may not go to a target of `kind` now, or None. Checked at each
        send, not only when the lead was routed: a resend, or a retry queued before a stop, is
        held here too."""
        if self.messages is not None:
            if self._withheld is None:
                self._withheld = self.messages.withheld(session=self._session, lead_ids=self._lead_ids)
                self._checked.update(self._lead_ids)
            if lead.id not in self._checked:
                self._withheld |= self.messages.withheld(session=self._session, lead_ids=[lead.id])
                self._checked.add(lead.id)
            if reason := self._withheld.get(lead.id):
                return f"not sent: {reason}"
        if opted_out_of_sale(lead, kind):
            return f"not sent: {OPTED_OUT}"
        return None

    def payload(self, lead: Lead) -> dict:
        """The payload; raises what building it raised, for each of the lead's targets alike."""
        if lead.id not in self._built:
            try:
                self._built[lead.id] = self._builder(lead=lead, settings=self._settings)
            except Exception as exc:  # noqa: BLE001 - raised again below, for each target
                self._built[lead.id] = exc
        built = self._built[lead.id]
        if isinstance(built, Exception):
            raise built
        return built

    def recipients(self, lead_id: str) -> object:
        """Who received a lead of this round (the privacy room's answer, which delivery only passes on)."""
        if self._recipients is None:
            self._recipients = self.messages.recipients_of(session=self._session, lead_ids=self._receipt_leads)
        if lead_id not in self._recipients:
            self._recipients |= self.messages.recipients_of(session=self._session, lead_ids=[lead_id])
        return self._recipients[lead_id]


def prepare_delivery(
    *, session: Session, delivery: Delivery, settings: Settings, client: DeliveryClient,
    leads: RoundLeads, timestamp: int,
) -> SendResult | Send:
    """Build what this target receives from the stored lead; the result if nothing can be sent."""
    lead = delivery.lead
    if lead is None:
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                          error="the lead no longer exists", sent=False)
    if delivery.payload_kind != "lead":
        # A consent receipt or a privacy notice about the lead: privacy builds and sends those.
        if leads.messages is None:
            return SendResult(outcome=Outcome.RETRY, target=delivery.target_key, duration_ms=0, sent=False,
                              error=f"this worker cannot build {delivery.payload_kind} messages")
        return leads.messages.prepare(session=session, delivery=delivery, lead=lead, settings=settings,
                                      client=client, timestamp=timestamp, recipients=leads.recipients)
    if withheld := leads.withheld(lead, delivery.kind):
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0, error=withheld,
                          sent=False)
    if delivery.kind == TargetKind.BUYER_POST:
        return _auction_post(delivery=delivery, lead=lead, settings=settings, client=client, timestamp=timestamp)
    payload = leads.payload(lead)
    if delivery.kind == TargetKind.BUYER:
        if not settings.buyer_url:
            return _not_configured(delivery, "SERVICEMATCH_BUYER_URL is not set")
        return signed_post(client=client, url=settings.buyer_url, body=encode_body(payload),
                           secret=settings.buyer_secret, message_id=delivery.id,
                           idempotency_key=lead.request_id, timestamp=timestamp,
                           allow_private=settings.private_webhooks_allowed)
    provider = delivery.provider
    if provider is None:
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                          error="the provider no longer exists", sent=False)
    if delivery.kind == TargetKind.PROVIDER_WEBHOOK:
        if not provider.webhook_url:
            return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                              error="the provider has no webhook URL any more", sent=False)
        if not provider.webhook_secret and settings.environment == "production":
            return SendResult(outcome=Outcome.REJECTED, target=provider.webhook_url, duration_ms=0,
                              sent=False, error="refused: unsigned webhooks are not sent in production; "
                              "give the provider a webhook secret, then retry the delivery")
        body = provider_webhook_body(lead=lead, provider=provider, payload=payload,
                                     matched_at=delivery.created_at)
        return signed_post(client=client, url=provider.webhook_url, body=encode_body(body),
                           secret=provider.webhook_secret or "", message_id=delivery.id,
                           idempotency_key=lead.request_id,
                           timestamp=timestamp, allow_private=settings.private_webhooks_allowed)
    if not settings.smtp_host:
        # Callers of the mail sender without a host get the local mailbox; provider mail waits instead.
        return _not_configured(delivery, "SERVICEMATCH_SMTP_HOST is not set")
    subject, text = provider_email(lead=lead, provider=provider, payload=payload,
                                   brand_name=settings.brand_name)
    message = new_message(settings=settings, to=provider.contact_email, subject=subject, text=text,
                          message_id_key=delivery.id)
    return message_send(settings=settings, message=message)


def _auction_post(*, delivery: Delivery, lead: Lead, settings: Settings, client: DeliveryClient,
                  timestamp: int) -> SendResult | Send:
    """The full lead and its consent proof to a buyer that won it, within the post deadline."""
    buyer = delivery.buyer
    if buyer is None:
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                          error="the buyer no longer exists", sent=False)
    body = encode_body(auction_post_payload(lead=lead, settings=settings))
    # During a secret rotation's overlap the post carries a second signature, made with the old secret.
    send = signed_post(client=client, url=buyer.post_url, body=body, secret=buyer.secret,
                       idempotency_key=lead.request_id, message_id=delivery.id, timestamp=timestamp,
                       allow_private=settings.private_webhooks_allowed,
                       extra_secrets=overlap_secrets(buyer.previous_secret, buyer.previous_secret_until,
                                                     timestamp=timestamp))
    # The first post keeps the auction's pace; a re-send settles a post in doubt, and may take as
    # long as any delivery, since the lead waits for this buyer's answer either way.
    post_seconds = (settings.post_timeout_ms / 1000 if delivery.attempt_count <= 1
                    else settings.delivery_timeout_seconds)
    return lambda deadline: send(min(deadline, post_seconds))


def _not_configured(delivery: Delivery, why: str) -> SendResult:
    # Retried, not rejected: once the setting is fixed, the waiting deliveries go out.
    return SendResult(outcome=Outcome.RETRY, target=delivery.target_key, duration_ms=0, error=why,
                      sent=False)
