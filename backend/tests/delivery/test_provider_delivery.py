"""Matched providers: a signed webhook with the lead's details and an e-mail through SMTP."""

from __future__ import annotations

import base64
import email

import pytest
from delivery_receivers import HttpReceiver
from delivery_support import attempts_of, deliveries_of
from standardwebhooks import Webhook, WebhookVerificationError
from webhook_checks import verified

from servicematch.delivery.models import DeliveryStatus, TargetKind
from servicematch.kernel.clock import as_utc
from servicematch.outbound.signing import SIGNATURE_HEADER, new_webhook_secret, verify_signature


def test_a_lead_reaches_its_providers_by_signed_webhook_and_email(add_provider, make_lead, worker, clock,
                                                                  smtp, session_factory):
    hook = HttpReceiver().start()
    try:
        add_provider("Cool Air", webhook_url=hook.url, webhook_secret="cool-secret",
                     contact_email="dispatch@coolair.example")
        lead = make_lead(email="maria.garcia@example.com")
        assert worker.run_until_idle() == 4  # buyer, webhook, e-mail, and the consumer's receipt

        [received] = hook.wait_for(1)
        assert received.headers["Idempotency-Key"] == lead.request_id
        event = verified(received, secret="cool-secret", at=clock())
        assert verify_signature(secret="cool-secret", body=received.body,
                                header=received.headers[SIGNATURE_HEADER], now=int(clock().timestamp()))
        assert set(event) == {"type", "timestamp", "data"} and event["type"] == "lead.matched"
        body = event["data"]
        assert body["requestId"] == lead.request_id and body["provider"]["name"] == "Cool Air"
        assert body["consumer"]["phone"].startswith("512555") and body["consumer"]["last"] == "Garcia"
        assert body["consumer"]["city"] == "Austin" and body["answers"]["cq1"] == "Replace an existing system"
        assert "click" not in body
    finally:
        hook.stop()
    [webhook] = [d for d in deliveries_of(session_factory, lead.id) if d.kind == TargetKind.PROVIDER_WEBHOOK]
    assert received.headers["webhook-id"] == webhook.id
    # The event's time is when the lead was matched, so every try of it carries the same body.
    assert event["timestamp"] == as_utc(webhook.created_at).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")

    [(recipients, raw)] = [mail for mail in smtp.wait_for(2) if mail[0] != ["maria.garcia@example.com"]]
    message = email.message_from_string(raw)
    assert recipients == ["dispatch@coolair.example"]
    assert message["Subject"] == "New hvac request in Austin, TX"
    text = message.get_payload(decode=True).decode()
    assert "Maria Garcia" in text and "maria.garcia@example.com" in text and lead.request_id in text
    assert {d.kind: d.status for d in deliveries_of(session_factory, lead.id)} == {
        TargetKind.BUYER: DeliveryStatus.DELIVERED, TargetKind.PROVIDER_WEBHOOK: DeliveryStatus.DELIVERED,
        TargetKind.PROVIDER_EMAIL: DeliveryStatus.DELIVERED}


def test_a_whsec_secret_signs_as_the_specification_says(add_provider, make_lead, worker, clock):
    secret = new_webhook_secret()
    hook = HttpReceiver().start()
    try:
        add_provider("Cool Air", webhook_url=hook.url, webhook_secret=secret)
        make_lead()
        worker.run_until_idle()
        [received] = hook.wait_for(1)
    finally:
        hook.stop()
    assert verified(received, secret=secret, at=clock())["type"] == "lead.matched"
    # The key is the secret's decoded bytes, not its characters.
    headers, text = received.headers, received.body.decode()
    assert Webhook(secret).sign(headers["webhook-id"], clock(), text) == headers["webhook-signature"]
    characters_as_key = Webhook(base64.b64encode(secret.encode()).decode())
    assert characters_as_key.sign(headers["webhook-id"], clock(), text) != headers["webhook-signature"]
    with pytest.raises(WebhookVerificationError):
        verified(received, secret=new_webhook_secret(), at=clock())


def test_a_mailbox_the_server_refuses_is_a_permanent_rejection(add_provider, make_lead, worker, clock,
                                                               smtp, session_factory):
    add_provider("Gone", contact_email="gone@example.com")
    smtp.refused.add("gone@example.com")
    lead = make_lead()
    worker.run_until_idle()
    clock.advance(days=1)
    worker.run_until_idle()

    [mail] = [d for d in deliveries_of(session_factory, lead.id) if d.kind == TargetKind.PROVIDER_EMAIL]
    assert mail.status == DeliveryStatus.REJECTED
    [attempt] = attempts_of(session_factory, mail.id)
    assert attempt.status_code == 550 and attempt.target == "mailto:gone@example.com"


def test_an_smtp_server_that_is_down_is_retried(add_provider, make_lead, worker, clock, smtp,
                                                session_factory):
    add_provider("Later")
    lead = make_lead()
    smtp.stop()
    worker.run_until_idle()
    [mail] = [d for d in deliveries_of(session_factory, lead.id) if d.kind == TargetKind.PROVIDER_EMAIL]
    assert (mail.status, mail.attempt_count) == (DeliveryStatus.PENDING, 1)
    assert attempts_of(session_factory, mail.id)[0].outcome == "retry"



def test_a_round_decrypts_each_lead_once_for_all_its_targets_and_a_bad_build_fails_alone(
        app, settings, clock, add_provider, make_lead, smtp, session_factory):
    from servicematch.delivery.content import intake_payload_builder
    from servicematch.workers import make_worker

    built: list[str] = []
    broken: set[str] = set()

    def counting_builder(*, lead, settings):
        built.append(lead.id)
        if lead.id in broken:
            raise ValueError("this lead's stored data cannot be read")
        return intake_payload_builder(lead=lead, settings=settings)

    hook = HttpReceiver().start()
    worker = make_worker(session_factory=session_factory, settings=settings, clock=clock,
                            payload_builder=counting_builder)
    try:
        add_provider("Cool Air", webhook_url=hook.url, webhook_secret="cool-secret",
                     contact_email="dispatch@coolair.example")
        good, bad = make_lead(), make_lead()
        broken.add(bad.id)
        assert worker.run_until_idle() == 6  # buyer, webhook and e-mail of each lead, in one round
        assert sorted(built) == sorted([good.id, bad.id])  # once per lead, not once per target
        hook.wait_for(1)
    finally:
        worker.close()
        hook.stop()
    assert {d.status for d in deliveries_of(session_factory, good.id)} == {DeliveryStatus.DELIVERED}
    failed = deliveries_of(session_factory, bad.id)
    assert {d.status for d in failed} == {DeliveryStatus.PENDING}
    for delivery in failed:
        [attempt] = attempts_of(session_factory, delivery.id)
        assert attempt.outcome == "retry" and "cannot be read" in attempt.error
