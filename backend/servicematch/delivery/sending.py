"""Send one claimed delivery through its channel: buyer POST, provider webhook or provider e-mail."""

from __future__ import annotations

import httpx
from sqlalchemy.orm import Session

from servicematch.delivery.content import (
    PayloadBuilder,
    buyer_body,
    provider_email,
    provider_webhook_body,
)
from servicematch.delivery.email_sender import send_email
from servicematch.delivery.http_sender import encode_body, post_signed
from servicematch.delivery.models import Delivery, TargetKind
from servicematch.delivery.outcome import Outcome, SendResult
from servicematch.intake.models import Lead
from servicematch.settings import Settings


def send_delivery(
    *, session: Session, delivery: Delivery, settings: Settings, client: httpx.Client,
    payload_builder: PayloadBuilder, timestamp: int,
) -> SendResult:
    """Build what this target receives from the stored lead, and send it once."""
    lead = session.get(Lead, delivery.lead_id)
    if lead is None:
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                          error="the lead no longer exists")
    payload = payload_builder(lead=lead, settings=settings)
    if delivery.kind == TargetKind.BUYER:
        if not settings.buyer_url:
            return _not_configured(delivery, "SERVICEMATCH_BUYER_URL is not set")
        return post_signed(
            client=client, url=settings.buyer_url, body=encode_body(buyer_body(payload=payload)),
            secret=settings.buyer_secret, idempotency_key=lead.request_id, timestamp=timestamp,
            timeout=settings.delivery_timeout_seconds,
        )
    provider = delivery.provider
    if provider is None:
        return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                          error="the provider no longer exists")
    if delivery.kind == TargetKind.PROVIDER_WEBHOOK:
        if not provider.webhook_url:
            return SendResult(outcome=Outcome.REJECTED, target=delivery.target_key, duration_ms=0,
                              error="the provider has no webhook URL any more")
        body = provider_webhook_body(lead=lead, provider=provider, payload=payload)
        return post_signed(
            client=client, url=provider.webhook_url, body=encode_body(body),
            secret=provider.webhook_secret or "", idempotency_key=lead.request_id,
            timestamp=timestamp, timeout=settings.delivery_timeout_seconds,
        )
    if not settings.smtp_host:
        return _not_configured(delivery, "SERVICEMATCH_SMTP_HOST is not set")
    subject, text = provider_email(lead=lead, provider=provider, payload=payload,
                                   brand_name=settings.brand_name)
    return send_email(settings=settings, to=provider.contact_email, subject=subject, text=text,
                      message_id_key=delivery.id)


def _not_configured(delivery: Delivery, why: str) -> SendResult:
    # Retried, not rejected: once the setting is fixed, the waiting deliveries go out.
    return SendResult(outcome=Outcome.RETRY, target=delivery.target_key, duration_ms=0, error=why)
