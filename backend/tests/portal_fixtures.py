"""Portal fixtures: a real local mailbox, invited providers signed in through their link, an operator.

Imported by the conftest.py of portal/, portal/offers/ and routing/offers/ (with offer_fixtures)."""

from __future__ import annotations

import base64
import os
import uuid
from pathlib import Path

import pytest
from argon2 import PasswordHasher, profiles
from fastapi.testclient import TestClient
from portal_support import PASSWORD, Mailbox, PortalClient

from servicematch.access import passwords
from servicematch.console import accounts as operator_accounts
from servicematch.portal.invitations import Invitee, invite
from servicematch.settings import Settings


@pytest.fixture(autouse=True)
def cheapest_password_hashing(monkeypatch):
    """Argon2id at its lowest cost: these tests are about what the hash guards, not its cost
    (backend/tests/access/test_signin.py checks the default's parameters)."""
    monkeypatch.setattr(passwords, "_hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))


def portal_settings(database_url: str, static_dir: Path, tmp_path: Path) -> Settings:
    return Settings(
        environment="test", database_url=database_url, static_dir=static_dir, secret_key="test-secret-key",
        data_key=base64.b64encode(os.urandom(32)).decode(), worker_enabled=False, mail_dir=tmp_path / "mail",
        site_origin="https://servicematch.example", portal_signin_failures_per_account=3,
        portal_signin_failures_per_address=5, partner_application_rate_limit=1000,
    )


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path) -> Settings:
    return portal_settings(database_url, static_dir, tmp_path)


@pytest.fixture
def mailbox(settings: Settings) -> Mailbox:
    return Mailbox(settings.mail_dir)


@pytest.fixture
def invited(app, mailbox):
    """invited(email, **area) -> (provider id, the invitation link's token)."""

    def make(email: str | None = None, *, services=("services/hvac", "roofing"), zips=("78701",), radius=25.0,
             states=(), **more) -> tuple[str, str]:
        email = email or f"pro-{uuid.uuid4().hex[:8]}@example.com"
        more.setdefault("licence_number", "TACLA12345C")  # HVAC needs one
        more.setdefault("licence_state", "TX")
        invitee = Invitee(email=email, name=more.pop("name", "Cool Air LLC"), services=list(services), zips=list(zips),
                          radius_miles=radius if zips else None, states=list(states), **more)
        with app.state.session_factory() as session:
            invitation = invite(session, app.state.catalog, invitee)
            session.commit()
            provider_id = invitation.provider.id
            assert invitation.send(app.state.settings).outcome == "delivered"
        return provider_id, mailbox.token(email, "welcome")

    return make


@pytest.fixture
def provider(app, invited):
    """provider(email=None) -> a PortalClient signed in through its invitation link."""

    def make(email: str | None = None, **invitation) -> PortalClient:
        provider_id, token = invited(email, **invitation)
        client = PortalClient(TestClient(app), provider_id)
        client.choose_password(token, PASSWORD)
        return client

    return make


@pytest.fixture
def operator(app, client):
    """The test client signed in to the console as an admin; returns its CSRF token."""
    email = f"admin-{uuid.uuid4().hex[:8]}@example.com"
    with app.state.session_factory() as session:
        operator_accounts.add_operator(session, email=email, role="admin", password=PASSWORD)
        session.commit()
    answer = client.post("/api/console/session", json={"email": email, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return answer.json()["csrfToken"]
