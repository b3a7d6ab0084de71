"""Privacy fixtures: a real buyer receiver, a provider webhook receiver, a real SMTP server, the
app as create_app composes it (receipts included), and a delivery worker on a test clock."""

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
from privacy_support import CONTACT, PROVIDER_SECRET

from servicematch.delivery.models import Provider
from servicematch.delivery.worker import DeliveryWorker
from servicematch.intake.checks import CheckedLead
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.service import NewLead, build_lead
from servicematch.kernel.clock import utcnow
from servicematch.settings import Settings
from servicematch.workers import make_worker


@pytest.fixture
def buyer() -> Iterator[HttpReceiver]:
    server = HttpReceiver().start()
    yield server
    server.stop()


@pytest.fixture
def provider_hook() -> Iterator[HttpReceiver]:
    server = HttpReceiver().start()
    yield server
    server.stop()


@pytest.fixture
def smtp() -> Iterator[SmtpReceiver]:
    server = SmtpReceiver().start()
    yield server
    server.stop()


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path, buyer: HttpReceiver,
             smtp: SmtpReceiver) -> Settings:
    return Settings(
        environment="test", database_url=database_url, static_dir=static_dir,
        secret_key="test-secret-key-for-privacy-links", data_key=base64.b64encode(os.urandom(32)).decode(),
        worker_enabled=False, buyer_url=buyer.url, buyer_secret=BUYER_SECRET, buyer_name="Acme Home Quotes LLC",
        smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_starttls=False, mail_dir=tmp_path / "mail",
        delivery_timeout_seconds=10, delivery_lease_seconds=30, submit_rate_limit=10_000,
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(utcnow() + timedelta(minutes=1))


@pytest.fixture
def worker(app, settings: Settings, clock: FakeClock) -> Iterator[DeliveryWorker]:
    delivery_worker = make_worker(session_factory=app.state.session_factory, settings=settings, clock=clock)
    yield delivery_worker
    delivery_worker.close()


@pytest.fixture
def providers(app, provider_hook: HttpReceiver) -> list[Provider]:
    """Two providers for HVAC in Texas: one takes leads by webhook, one by e-mail."""
    rows = [
        Provider(name="Cool Air", contact_email="dispatch@coolair.example", services=["hvac"], states=["TX"],
                 zips=[], webhook_url=provider_hook.url, webhook_secret=PROVIDER_SECRET, active=True,
                 created_at=utcnow()),
        Provider(name="Lone Star Heating", contact_email="office@lonestar.example", services=["hvac"],
                 states=["TX"], zips=[], active=True, created_at=utcnow()),
    ]
    with app.state.session_factory() as session:
        session.add_all(rows)
        session.commit()
    return rows


@pytest.fixture
def make_lead(app, settings: Settings):
    """Store a lead through the app's own lead transactions, side effects as composed by create_app."""
    numbers = itertools.count(1000)

    def make(*, email: str = CONTACT["email"], phone: str | None = None, page_url: str = "",
             do_not_sell: bool = False):
        config = app.state.catalog.find("hvac", "services")
        contact = {**CONTACT, "email": email, "phone": phone or f"512555{next(numbers):04d}"}
        checked = CheckedLead(service=config, flow="form", contact=contact,
                              answers={"cq1": "Replace an existing system"})
        lead = build_lead(settings=settings, checked=checked, request_id=str(uuid.uuid4()),
                          request_hash=uuid.uuid4().hex, is_test=False, click={"subid1": "abc"},
                          do_not_sell=do_not_sell)
        evidence = ConsentEvidence(ip_address="203.0.113.7", user_agent="Mozilla/5.0 (pytest)",
                                   page_url=page_url or "http://127.0.0.1:8000/services/hvac",
                                   trustedform_cert_url="", global_privacy_control=do_not_sell)
        return app.state.lead_store.transactions.store_one(NewLead(lead=lead, evidence=evidence)).lead

    return make
