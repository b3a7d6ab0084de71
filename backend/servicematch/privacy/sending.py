"""Prepare one privacy delivery the worker claimed: a consent receipt or a notice to a recipient."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sqlalchemy.orm import Session

from servicematch.catalog.loader import cached_catalog
from servicematch.delivery.models import Delivery
from servicematch.intake.models import Lead
from servicematch.mail.transport import message_send, new_message, send_message
from servicematch.outbound.http_sender import DeliveryClient, encode_body, signed_post
from servicematch.outbound.outcome import Outcome, Send, SendResult
from servicematch.outbound.signing import overlap_secrets
from servicematch.privacy.holds import withdrawal_reasons
from servicematch.privacy.messages import (
    Recipients,
    acceptance_email,
    notice_body,
    notice_email,
    receipt,
    recipients_of,
)
from servicematch.privacy.notices import ACCEPTED, RECEIPT, correction_request_id
from servicematch.settings import Settings


def prepare_privacy_delivery(*, session: Session, delivery: Delivery, lead: Lead, settings: Settings,
                             client: DeliveryClient, timestamp: int,
                             recipients: Callable[[str], Recipients]) -> SendResult | Send:
    """Build a receipt or a notice; returns the result if nothing can be sent, else its sender.

    The sender takes the seconds left for the attempt and sends once within them. `recipients`
    answers recipients_of (with what is under way) for a lead (the worker reads a whole round's at once).
    """
    if delivery.payload_kind == RECEIPT:
        to, subject, text, headers = receipt(lead=lead, recipients=recipients(lead.id), settings=settings,
                                             catalog=cached_catalog(settings.catalog_dir))
        if not to:
            return _rejected(delivery, "the lead has no e-mail address any more")
        return consumer_mail(settings=settings, delivery=delivery, to=to, subject=subject, text=text,
                             headers=headers, label="receipt")
    if delivery.payload_kind == ACCEPTED:
        if delivery.provider is None:
            return _rejected(delivery, "the provider no longer exists")
        to, subject, text = acceptance_email(lead=lead, provider_name=delivery.provider.name, settings=settings,
                                             catalog=cached_catalog(settings.catalog_dir))
        if not to:
            return _rejected(delivery, "the lead has no e-mail address any more")
        return consumer_mail(settings=settings, delivery=delivery, to=to, subject=subject, text=text, headers={},
                             label="provider accepted")
    correction_of = correction_request_id(delivery)
    body = notice_body(session=session, lead=lead, delivery=delivery,
                       correction=_correction(session, settings, correction_of))
    # Stable across retries, different for each notice: the receiver drops only true repeats.
    idempotency_key = ":".join(filter(None, (lead.request_id, delivery.payload_kind, correction_of)))
    extra_secrets: tuple[str, ...] = ()
    if delivery.kind == "buyer":
        if not settings.buyer_url:
            return SendResult(outcome=Outcome.RETRY, target=delivery.target_key, duration_ms=0,
                              error="SERVICEMATCH_BUYER_URL is not set", sent=False)
        url, secret = settings.buyer_url, settings.buyer_secret
    elif delivery.kind == "buyer_post":
        buyer = delivery.buyer
        if buyer is None:
            return _rejected(delivery, "the buyer no longer exists")
        url, secret = buyer.post_url, buyer.secret
        # Signed with the old secret too while a rotation's overlap lasts, like the buyer's posts.
        extra_secrets = overlap_secrets(buyer.previous_secret, buyer.previous_secret_until, timestamp=timestamp)
    else:
        provider = delivery.provider
        if provider is None:
            return _rejected(delivery, "the provider no longer exists")
        if not (delivery.kind == "provider_webhook" and provider.webhook_url):
            subject, text = notice_email(body=body, brand_name=settings.brand_name)
            message = new_message(settings=settings, to=provider.contact_email, subject=subject, text=text,
                                  message_id_key=delivery.id)
            return message_send(settings=settings, message=message)
        url, secret = provider.webhook_url, provider.webhook_secret or ""
    return signed_post(client=client, url=url, body=encode_body(body), secret=secret,
                       message_id=delivery.id, idempotency_key=idempotency_key, timestamp=timestamp,
                       allow_private=settings.private_webhooks_allowed, extra_secrets=extra_secrets)


def consumer_mail(*, settings: Settings, delivery: Delivery, to: str, subject: str, text: str, headers: dict,
                  label: str) -> Send:
    """The sender of an e-mail to the consumer; its attempt is logged without the address."""
    message = new_message(settings=settings, to=to, subject=subject, text=text, message_id_key=delivery.id,
                          headers=headers)

    def send(deadline: float) -> SendResult:
        result = send_message(settings=settings, deadline=deadline, message=message)
        # The attempt log keeps no consumer address: it outlives an erasure request's reach.
        return replace(result, target=f"consumer e-mail ({label})",
                       error=result.error.replace(to, "<consumer>") if result.error else None)

    return send


def _correction(session: Session, settings: Settings, request_id: str | None) -> str | None:
    if request_id is None:
        return None
    from servicematch.privacy.requests import correction_text

    return correction_text(session=session, settings=settings, request_id=request_id)


def _rejected(delivery: Delivery, why: str) -> SendResult:
    return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0, error=why, sent=False)


class PrivacyMessages:
    """Delivery's OtherMessages: consent receipts and privacy notices, built here."""

    def recipients_of(self, *, session: Session, lead_ids: list[str]) -> dict[str, Recipients]:
        # The receipt goes out with the lead's own deliveries: it names those under way too.
        return recipients_of(session=session, lead_ids=lead_ids, under_way=True)

    def withheld(self, *, session: Session, lead_ids: list[str]) -> dict[str, str]:
        return withdrawal_reasons(session, lead_ids)

    def prepare(self, **message) -> SendResult | Send:
        return prepare_privacy_delivery(**message)
