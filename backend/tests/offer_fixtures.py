"""Offer fixtures: a real SMTP server for the notices, providers in review mode signed in to the
portal, direct providers, leads stored through intake and routed, and a worker that sends.

Imported, beside portal_fixtures, by the conftest.py of portal/offers/ and routing/offers/."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from delivery_receivers import SmtpReceiver
from delivery_support import FakeClock
from fastapi.testclient import TestClient
from portal_fixtures import portal_settings
from portal_support import PASSWORD, PortalClient

from servicematch.delivery.models import Provider
from servicematch.intake.checks import CheckedLead
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import Lead
from servicematch.intake.service import LeadTransactions, NewLead, build_lead
from servicematch.kernel.clock import utcnow
from servicematch.portal import accounts
from servicematch.portal.invitations import Invitee, invite
from servicematch.privacy import actions
from servicematch.routing.stage import route_pending
from servicematch.workers import make_worker

CONTACT = {"first": "Maria", "last": "Garcia", "email": "", "phone": "5125550142",
           "address1": "500 Congress Ave", "address2": "Suite 4", "city": "Austin", "state": "TX", "zip": "78701"}


@pytest.fixture
def smtp() -> Iterator[SmtpReceiver]:
    with SmtpReceiver() as server:
        yield server


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path, smtp: SmtpReceiver):
    """The portal's settings with a real SMTP server: offer notices are provider e-mails, which
    wait for one."""
    return portal_settings(database_url, static_dir, tmp_path).model_copy(update={
        "smtp_host": "127.0.0.1", "smtp_port": smtp.port, "smtp_starttls": False,
        "delivery_timeout_seconds": 10, "delivery_lease_seconds": 30})


@pytest.fixture
def session_factory(app):
    return app.state.session_factory


@pytest.fixture
def reviewer(app):
    """reviewer(name, **profile) -> a PortalClient of a new provider in review mode (HVAC around
    Austin), signed in; profile sets Provider columns (auto_accept, weekly_budget_cents, ...)."""

    def make(name: str = "Cool Air LLC", **profile) -> PortalClient:
        email = f"pro-{uuid.uuid4().hex[:8]}@example.com"
        with app.state.session_factory() as session:
            invited = invite(session, app.state.catalog, Invitee(
                email=email, name=name, services=["services/hvac"], zips=["78701"], radius_miles=25.0, states=[],
                licence_number="TACLA12345C", licence_state="TX"))
            accounts.set_password(session, invited.account, PASSWORD)
            for column, value in profile.items():
                setattr(invited.provider, column, value)
            session.commit()
            client = PortalClient(TestClient(app), invited.provider.id)
        assert client.sign_in(email, PASSWORD).status_code == 200
        client.email = email
        return client

    return make


@pytest.fixture
def add_direct(app):
    """add_direct(name, **columns) -> a provider an operator added: every matched lead in full, by
    e-mail; columns sets others (lead_price_cents, weekly_budget_cents, ...)."""

    def add(name: str, **columns) -> Provider:
        with app.state.session_factory() as session:
            provider = Provider(name=name, contact_email=f"{name.lower().replace(' ', '.')}@example.com",
                                services=["hvac"], states=["TX"], zips=[], created_at=utcnow(), **columns)
            session.add(provider)
            session.commit()
            return provider

    return add


@pytest.fixture
def make_lead(app, settings):
    """make_lead(email="", routed_with=settings, phone=None, do_not_sell=False, withdrawn=False) ->
    an HVAC lead in Austin, stored and routed (a new phone each time unless given; withdrawn: its
    consent withdrawn before routing)."""
    phones = itertools.count(1000)

    def make(*, email: str = "", routed_with=None, phone: str | None = None, do_not_sell: bool = False,
             withdrawn: bool = False):
        checked = CheckedLead(service=app.state.catalog.find("hvac", "services"), flow="form",
                              contact={**CONTACT, "email": email, "phone": phone or f"512555{next(phones):04d}"},
                              answers={"cq1": "Replace an existing system"})
        lead = build_lead(settings=settings, checked=checked, request_id=str(uuid.uuid4()),
                          request_hash=uuid.uuid4().hex, is_test=False, click={}, do_not_sell=do_not_sell)
        evidence = ConsentEvidence(ip_address="203.0.113.7", user_agent="pytest", page_url="", trustedform_cert_url="",
                                   global_privacy_control=do_not_sell)
        transactions = LeadTransactions(session_factory=app.state.session_factory, settings=settings,
                                        index=app.state.catalog)
        stored = transactions.store_one(NewLead(lead=lead, evidence=evidence)).lead
        if withdrawn:
            with app.state.session_factory() as session:
                actions.revoke(session=session, leads=[session.get(Lead, stored.id)], method="test",
                               request_id=None, now=utcnow())
                session.commit()
        route_pending(session_factory=app.state.session_factory, settings=routed_with or settings)
        return stored

    return make


@pytest.fixture
def worker(app, settings):
    """A delivery worker as servicematch.workers composes it, a minute ahead (what is due is due)."""
    delivery_worker = make_worker(session_factory=app.state.session_factory, settings=settings,
                                  clock=FakeClock(utcnow() + timedelta(minutes=1)))
    yield delivery_worker
    delivery_worker.close()
