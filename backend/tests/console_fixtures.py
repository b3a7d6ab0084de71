"""Console fixtures: operators of each role, signed-in clients, leads stored through the public API.

Imported by the conftest.py of console/, access/ (sign-in) and reporting/ (the daily counts)."""

from __future__ import annotations

import base64
import os
import uuid
from pathlib import Path

import pytest
from argon2 import PasswordHasher, profiles
from console_api_support import PASSWORD, Receiver, sign_in

from servicematch.access import passwords
from servicematch.console import accounts
from servicematch.settings import Settings
from servicematch.workers import make_worker


@pytest.fixture(autouse=True)
def cheapest_password_hashing(monkeypatch):
    """Argon2id at its lowest cost: these tests are about what the hash guards, and the default
    (RFC 9106 low-memory, about half a second here) would make each sign-in cost that much.
    access/test_signin.py checks the default's parameters."""
    monkeypatch.setattr(passwords, "_hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))


@pytest.fixture
def receiver():
    server = Receiver().start()
    yield server
    server.stop()


@pytest.fixture
def settings(database_url: str, static_dir: Path, receiver: Receiver) -> Settings:
    # The built-in worker stays off: a test runs a worker itself when it wants deliveries sent.
    return Settings(
        environment="test", database_url=database_url, static_dir=static_dir, secret_key="test-secret-key",
        data_key=base64.b64encode(os.urandom(32)).decode(), worker_enabled=False, submit_rate_limit=10_000,
        buyer_url=receiver.url, buyer_secret="buyer-secret-for-tests-0123456789abcdef", buyer_name="Fixed Lead Buyer LLC",
        console_signin_failures_per_account=3, console_signin_failures_per_address=5,
    )


@pytest.fixture
def worker(app, settings):
    delivery_worker = make_worker(session_factory=app.state.session_factory, settings=settings)
    yield delivery_worker
    delivery_worker.close()


@pytest.fixture
def add_operator(app):
    def add(role: str = "admin", email: str | None = None, password: str = PASSWORD) -> str:
        email = email or f"{role}-{uuid.uuid4().hex[:8]}@example.com"
        with app.state.session_factory() as session:
            accounts.add_operator(session, email=email, role=role, password=password)
            session.commit()
        return email

    return add


@pytest.fixture
def admin(client, add_operator):
    sign_in(client, add_operator("admin"))
    return client


@pytest.fixture
def analyst(client, add_operator):
    sign_in(client, add_operator("analyst"))
    return client

