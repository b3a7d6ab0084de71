"""Outbound safety: https only, no private addresses, nothing unsigned, unless settings allow it."""

from __future__ import annotations

import base64
import os

import pytest
from delivery_support import attempts_of, deliveries_of
from pydantic import ValidationError

from servicematch.delivery.models import DeliveryStatus, TargetKind
from servicematch.outbound.guarded_network import is_public_address
from servicematch.settings import Settings
from servicematch.workers import make_worker

PRODUCTION = {"environment": "production", "smtp_host": "smtp.example.com", "secret_key": "s" * 40, "admin_token": "t" * 40,
              "site_origin": "https://www.servicematch.example",
              "data_key": base64.b64encode(os.urandom(32)).decode()}


def _worker(session_factory, settings, clock, **changes):
    return make_worker(session_factory=session_factory, settings=settings.model_copy(update=changes),
                          clock=clock)


def _buyer(session_factory, lead):
    [delivery] = [d for d in deliveries_of(session_factory, lead.id) if d.kind == TargetKind.BUYER]
    return delivery, attempts_of(session_factory, delivery.id)


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254",
                                     "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1",
                                     "224.0.0.1"])
def test_private_loopback_link_local_and_multicast_addresses_are_not_public(address):
    assert not is_public_address(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:2800:220:1:248:1893:25c7:1946"])
def test_public_addresses_are(address):
    assert is_public_address(address)


def test_a_plain_http_url_is_refused_unless_allowed(make_lead, receiver, clock, session_factory, settings):
    worker = _worker(session_factory, settings, clock, allow_private_webhooks=False)
    lead = make_lead()
    try:
        worker.run_until_idle()
    finally:
        worker.close()

    delivery, [attempt] = _buyer(session_factory, lead)
    assert receiver.requests == []
    assert delivery.status == DeliveryStatus.REJECTED
    assert "is not https" in attempt.error and "SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS" in attempt.error


def test_an_https_url_that_resolves_to_a_private_address_is_refused(make_lead, receiver, clock,
                                                                    session_factory, settings):
    # "localhost" is checked where the connection is made, on the addresses the name resolves to.
    worker = _worker(session_factory, settings, clock, allow_private_webhooks=False,
                     buyer_url=f"https://localhost:{receiver.port}/leads")
    lead = make_lead()
    try:
        worker.run_until_idle()
    finally:
        worker.close()

    delivery, [attempt] = _buyer(session_factory, lead)
    assert receiver.requests == []
    assert delivery.status == DeliveryStatus.REJECTED
    assert "resolves to a private, loopback or link-local address" in attempt.error
    assert attempt.status_code is None


def test_private_receivers_are_allowed_outside_production_and_refused_in_it(settings):
    assert settings.allow_private_webhooks is None and settings.private_webhooks_allowed
    production = Settings(**PRODUCTION, buyer_name="Acme", buyer_url="https://buyer.example/leads", buyer_secret="b" * 40)
    assert not production.private_webhooks_allowed
    assert Settings(**PRODUCTION, allow_private_webhooks=True).private_webhooks_allowed


def test_production_refuses_an_http_buyer_and_an_unsigned_buyer():
    with pytest.raises(ValidationError, match="must be an https:// URL"):
        Settings(**PRODUCTION, buyer_name="Acme", buyer_url="http://buyer.example/leads", buyer_secret="b" * 40)
    with pytest.raises(ValidationError, match="SERVICEMATCH_BUYER_SECRET"):
        Settings(**PRODUCTION, buyer_name="Acme", buyer_url="https://buyer.example/leads", buyer_secret="")


def test_production_does_not_send_a_provider_webhook_unsigned(add_provider, make_lead, clock, session_factory,
                                                              settings):
    from delivery_receivers import HttpReceiver

    hook = HttpReceiver().start()
    # The test's own data key stays: the lead was encrypted with it.
    production = settings.model_copy(update={"environment": "production", "allow_private_webhooks": True,
                                             "smtp_host": ""})
    worker = make_worker(session_factory=session_factory, settings=production, clock=clock)
    try:
        add_provider("No Secret", webhook_url=hook.url)
        lead = make_lead()
        worker.run_until_idle()
    finally:
        worker.close()
        hook.stop()

    [webhook] = [d for d in deliveries_of(session_factory, lead.id) if d.kind == TargetKind.PROVIDER_WEBHOOK]
    assert hook.requests == []
    assert webhook.status == DeliveryStatus.REJECTED
    assert "unsigned webhooks are not sent in production" in webhook.last_error
