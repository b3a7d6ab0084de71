"""Delivery fixtures: real receivers, an app wired to them, leads stored through intake, a test clock.

The conftest.py of each folder whose tests send leads through the worker imports them (delivery/,
routing/, outbound/)."""

from __future__ import annotations

import base64
import itertools
import os
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from delivery_receivers import HttpReceiver, SmtpReceiver
from delivery_support import BUYER_SECRET, FakeClock

from servicematch.delivery.models import Provider, utcnow
from servicematch.delivery.worker import DeliveryWorker
from servicematch.intake.checks import CheckedLead
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.service import LeadTransactions, NewLead, build_lead
from servicematch.routing.stage import route_pending
from servicematch.settings import Settings
from servicematch.workers import make_worker

# No e-mail address by default, so a lead's consent receipt (routing queues one for every lead) is
# skipped and these tests count only the lead's own sends; make_lead(email=...) gives one.
CONTACT = {
    "first": "Maria", "last": "Garcia", "email": "", "phone": "5125550142",
    "address1": "500 Congress Ave", "address2": "", "city": "Austin", "state": "TX", "zip": "78701",
}


@pytest.fixture
def receiver() -> Iterator[HttpReceiver]:
    server = HttpReceiver().start()
    yield server
    server.stop()


@pytest.fixture
def smtp() -> Iterator[SmtpReceiver]:
    server = SmtpReceiver().start()
    yield server
    server.stop()


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path, receiver: HttpReceiver,
             smtp: SmtpReceiver) -> Settings:
    # The built-in worker stays off: tests drive a worker themselves, on a clock they control.
    return Settings(
        environment="test", database_url=database_url, static_dir=static_dir,
        secret_key="test-secret-key", data_key=base64.b64encode(os.urandom(32)).decode(),
        worker_enabled=False, buyer_url=receiver.url, buyer_secret=BUYER_SECRET, buyer_name="Fixed Lead Buyer LLC",
        smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_starttls=False,
        # Generous: other work may share this machine, and a slow answer must not look like a failure.
        delivery_timeout_seconds=10, delivery_lease_seconds=30, admin_token="admin-token",
        submit_rate_limit=10_000,
    )


@pytest.fixture
def session_factory(app):
    return app.state.session_factory


@pytest.fixture
def clock() -> FakeClock:
    # A minute ahead of real time, so leads stored just now are already due.
    return FakeClock(utcnow() + timedelta(minutes=1))


@pytest.fixture
def worker(app, settings: Settings, clock: FakeClock) -> Iterator[DeliveryWorker]:
    delivery_worker = make_worker(session_factory=app.state.session_factory, settings=settings, clock=clock)
    yield delivery_worker
    delivery_worker.close()


def _transactions(app, settings: Settings) -> LeadTransactions:
    return LeadTransactions(session_factory=app.state.session_factory, settings=settings, index=app.state.catalog)


def route_accepted(app, settings: Settings) -> None:
    """Run routing over every accepted lead, as the worker does right after intake's commit."""
    route_pending(session_factory=app.state.session_factory, settings=settings)


@pytest.fixture
def make_lead(app, settings: Settings):
    """Store a lead through intake's own transactions, so its outbox rows are made as in production."""
    index = app.state.catalog
    # Each lead gets its own phone number: a repeated one would be flagged duplicate and,
    # by design, skip provider matching.
    phone_suffixes = itertools.count(1000)

    def make(service: str = "hvac", vertical: str = "services", *, state: str = "TX",
             zip_code: str = "78701", city: str = "Austin", phone: str | None = None,
             do_not_sell: bool = False, is_test: bool = False, store: bool = True,
             with_settings: Settings | None = None, email: str = ""):
        config = index.find(service, vertical)
        contact = {**CONTACT, "state": state, "zip": zip_code, "city": city, "email": email,
                   "phone": phone or f"512555{next(phone_suffixes):04d}"}
        checked = CheckedLead(service=config, flow="form", contact=contact,
                              answers={"cq1": "Replace an existing system"})
        request_id = str(uuid.uuid4())
        lead = build_lead(settings=settings, checked=checked, request_id=request_id,
                          request_hash=uuid.uuid4().hex, is_test=is_test, click={"subid1": "abc"},
                          do_not_sell=do_not_sell)
        evidence = ConsentEvidence(ip_address="203.0.113.7", user_agent="pytest", page_url="",
                                   trustedform_cert_url="", global_privacy_control=do_not_sell)
        if not store:
            return NewLead(lead=lead, evidence=evidence)
        stored = _transactions(app, with_settings or settings).store_one(NewLead(lead=lead, evidence=evidence)).lead
        route_accepted(app, with_settings or settings)
        return stored

    return make


@pytest.fixture
def make_leads_together(app, settings: Settings, make_lead):
    """Store several leads in one transaction, as the lead writer does under load."""

    def make(count: int, **lead) -> list:
        batch = [make_lead(store=False, **lead) for _ in range(count)]
        stored = [stored.lead for stored in _transactions(app, settings).store_together(batch)]
        route_accepted(app, settings)
        return stored

    return make


@pytest.fixture
def add_provider(app):
    """Insert a provider row directly; the directory's own validation is tested separately."""

    def add(name: str, *, services=("hvac",), states=("TX",), zips=(), radius_miles=None,
            daily_cap=None, webhook_url=None, webhook_secret=None, active=True,
            contact_email=None, **profile) -> Provider:
        with app.state.session_factory() as session:
            provider = Provider(
                name=name, contact_email=contact_email or f"{name.lower().replace(' ', '.')}@example.com",
                services=list(services), states=list(states), zips=list(zips), radius_miles=radius_miles,
                daily_cap=daily_cap, webhook_url=webhook_url, webhook_secret=webhook_secret,
                active=active, created_at=utcnow(), **profile,
            )
            session.add(provider)
            session.commit()
            return provider

    return add
