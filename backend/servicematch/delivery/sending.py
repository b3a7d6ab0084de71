"""Send one claimed delivery through its channel: buyer POST, provider webhook or provider e-mail."""

from __future__ import annotations

import httpx
from sqlalchemy.orm import Session

from servicematch.delivery.content import (
    PayloadBuilder,
    provider_email,
    provider_webhook_body,
)
from servicematch.delivery.email_sender import send_email
from servicematch.delivery.http_sender import encode_body, post_signed
from servicematch.delivery.models import Delivery, TargetKind
from servicematch.delivery.outcome import Outcome, SendResult
from servicematch.intake.models import Lead
from servicematch.privacy.sending import send_privacy_delivery
from servicematch.settings import Settings


def send_delivery(
    *, session: Session, delivery: Delivery, settings: Settings, client: httpx.Client,
    payload_builder: PayloadBuilder, timestamp: int, deadline: float,
) -> SendResult:
    """Build what this target receives from the stored lead, and send it once within `deadline` s."""
    lead = session.get(Lead, delivery.lead_id)
    if lead is None:
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                          error="the lead no longer exists", sent=False)
    if delivery.payload_kind != "lead":
        # A consent receipt or a privacy notice about the lead: privacy builds and sends those.
        return send_privacy_delivery(session=session, delivery=delivery, lead=lead, settings=settings,
                                     client=client, timestamp=timestamp, deadline=deadline)
    payload = payload_builder(lead=lead, settings=settings)
    if delivery.kind == TargetKind.BUYER:
        if not settings.buyer_url:
            return _not_configured(delivery, "SERVICEMATCH_BUYER_URL is not set")
        return post_signed(
            client=client, url=settings.buyer_url, body=encode_body(payload),
            secret=settings.buyer_secret, idempotency_key=lead.request_id, timestamp=timestamp,
            timeout=deadline, allow_private=settings.private_webhooks_allowed,
        )
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
        body = provider_webhook_body(lead=lead, provider=provider, payload=payload)
        return post_signed(
            client=client, url=provider.webhook_url, body=encode_body(body),
            secret=provider.webhook_secret or "", idempotency_key=lead.request_id,
            timestamp=timestamp, timeout=deadline, allow_private=settings.private_webhooks_allowed,
        )
    if not settings.smtp_host:
        return _not_configured(delivery, "SERVICEMATCH_SMTP_HOST is not set")
    subject, text = provider_email(lead=lead, provider=provider, payload=payload,
                                   brand_name=settings.brand_name)
    return send_email(settings=settings, to=provider.contact_email, subject=subject, text=text,
                      message_id_key=delivery.id, deadline=deadline)


def _not_configured(delivery: Delivery, why: str) -> SendResult:
    # Retried, not rejected: once the setting is fixed, the waiting deliveries go out.
    return SendResult(outcome=Outcome.RETRY, target=delivery.target_key, duration_ms=0, error=why,
                      sent=False)
