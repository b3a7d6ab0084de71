"""Buyer fixtures: buyers in the directory, their people (with a password, or invited by e-mail),
a signed-in browser of one, an API key and a client that sends it, and the local mailbox their
links go to.

Imported by the conftest.py of buyer/ (and by any folder whose tests call the buyer portal or its
API). Import `settings` from here only where no other fixture module gives one; elsewhere build the
settings with `buyer_settings(...)`, which turns on what these need (a data key, a local mailbox).

    def test_x(make_buyer, buyer_browser, key_client):
        buyer_id = make_buyer(price_cents=3000)
        browser = buyer_browser(buyer_id)          # cookie and X-CSRF-Token header set
        browser.get("/api/buyer/keys")
        key_client(buyer_id).get("/api/buyer/v1/settings")   # Authorization: Bearer smk_...
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from argon2 import PasswordHasher, profiles
from fastapi.testclient import TestClient
from portal_fixtures import portal_settings
from portal_support import PASSWORD, Mailbox, body

from servicematch.access import passwords
from servicematch.access.sessions import CSRF_HEADER, csrf_token_for, open_session
from servicematch.buyer import keys
from servicematch.buyer.invitations import invite
from servicematch.buyer.models import BuyerAccount
from servicematch.buyer.sessions import API_PREFIX, BUYER_PORTAL, COOKIE_NAME
from servicematch.kernel.clock import utcnow
from servicematch.routing.buyers import BuyerTerms, add_buyer
from servicematch.routing.models import Buyer
from servicematch.settings import Settings

__all__ = ["COOKIE_DOMAIN", "PASSWORD", "BuyerBrowser", "BuyerMailbox", "Person", "buyer_settings"]

# The host TestClient calls; its cookie jar files cookies of a dotless host under ".local".
COOKIE_DOMAIN = "testserver.local"


def buyer_settings(database_url: str, static_dir: Path, tmp_path: Path, **more) -> Settings:
    """The portal's test settings (a data key, mail kept in tmp_path/mail, a site origin), changed by `more`."""
    return portal_settings(database_url, static_dir, tmp_path).model_copy(update=more)


@pytest.fixture(autouse=True)
def cheapest_password_hashing(monkeypatch):
    """Argon2id at its lowest cost: these tests are about what the hash guards, not its cost
    (backend/tests/access/test_signin.py checks the default's parameters)."""
    monkeypatch.setattr(passwords, "_hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path) -> Settings:
    return buyer_settings(database_url, static_dir, tmp_path)


class BuyerMailbox(Mailbox):
    """The local mailbox, reading the buyer portal's links (/buyer/<page>#token)."""

    def token(self, address: str, page: str, count: int = 1) -> str:
        text = body(self.wait_for(address, count)[-1])
        found = re.search(rf"https?://\S+/buyer/{page}#([A-Za-z0-9_-]+)", text)
        assert found, text
        return found.group(1)


@pytest.fixture
def buyer_mailbox(settings: Settings) -> BuyerMailbox:
    return BuyerMailbox(settings.mail_dir)


@pytest.fixture
def make_buyer(app):
    """make_buyer(name=None, **BuyerTerms fields) -> the new buyer's id. A fixed-price buyer ($30)
    of every service, state and ZIP unless told otherwise."""

    def make(name: str | None = None, **terms) -> str:
        terms.setdefault("post_url", "https://buyer.example/leads")
        if not terms.get("ping_url"):
            terms.setdefault("price_cents", 3000)
        with app.state.session_factory() as session:
            buyer = add_buyer(session, BuyerTerms(name=name or f"Buyer {uuid.uuid4().hex[:8]}", **terms),
                              allow_private=True)
            session.commit()
            return buyer.id

    return make


@dataclass(frozen=True)
class Person:
    """A buyer's person: the account's id and e-mail, its buyer and its password (None: not chosen yet)."""

    id: str
    email: str
    buyer_id: str
    password: str | None


@pytest.fixture
def buyer_person(app):
    """buyer_person(buyer_id, email=None, password=PASSWORD, active=True) -> Person. Stored directly,
    as if the invitation's link had been used (password=None: invited, no password yet)."""

    def make(buyer_id: str, email: str | None = None, *, password: str | None = PASSWORD,
             active: bool = True) -> Person:
        email = (email or f"buyer-{uuid.uuid4().hex[:8]}@example.com").lower()
        with app.state.session_factory() as session:
            account = BuyerAccount(buyer_id=buyer_id, email=email, active=active, invited_by="tests",
                                   password_hash=passwords.hash_password(password) if password else None,
                                   password_changed_at=utcnow() if password else None)
            session.add(account)
            session.commit()
            return Person(id=account.id, email=email, buyer_id=buyer_id, password=password)

    return make


@pytest.fixture
def buyer_invited(app, buyer_mailbox):
    """buyer_invited(buyer_id, email=None) -> Person (password None) and the token of the invitation
    link mailed to it, as an operator's invitation sends it (buyer/invitations.py)."""

    def make(buyer_id: str, email: str | None = None) -> tuple[Person, str]:
        email = (email or f"buyer-{uuid.uuid4().hex[:8]}@example.com").lower()
        with app.state.session_factory() as session:
            invited = invite(session, session.get(Buyer, buyer_id), email, invited_by="tests")
            session.commit()
            person = Person(id=invited.account.id, email=email, buyer_id=buyer_id, password=None)
            assert invited.send(app.state.settings).outcome == "delivered"
        return person, buyer_mailbox.token(email, "welcome")

    return make


class BuyerBrowser(TestClient):
    """A person's browser signed in to the buyer portal: its session cookie, and its CSRF token sent
    as X-CSRF-Token on every request (drop it with headers={CSRF_HEADER: ""} to test a refusal)."""

    person: Person
    csrf: str

    @property
    def buyer_id(self) -> str:
        return self.person.buyer_id


@pytest.fixture
def buyer_browser(app, buyer_person):
    """buyer_browser(buyer_id, person=None) -> BuyerBrowser, signed in as `person` (a new person of
    the buyer when None). The session is opened directly; tests/buyer/test_accounts.py signs in
    through the API."""

    def make(buyer_id: str, person: Person | None = None) -> BuyerBrowser:
        person = person or buyer_person(buyer_id)
        settings: Settings = app.state.settings
        with app.state.session_factory() as session:
            token, _row = open_session(session, BUYER_PORTAL, owner_id=person.id, ip="testclient",
                                       user_agent="tests",
                                       lifetime=timedelta(hours=settings.portal_session_max_hours))
            session.commit()
        browser = BuyerBrowser(app)
        browser.person, browser.csrf = person, csrf_token_for(settings, BUYER_PORTAL, token)
        browser.cookies.set(COOKIE_NAME, token, domain=COOKIE_DOMAIN, path=API_PREFIX)
        browser.headers[CSRF_HEADER] = browser.csrf
        return browser

    return make


@pytest.fixture
def buyer_key(app):
    """buyer_key(buyer_id, name="integration") -> the key itself (smk_...), shown once as in the portal."""

    def make(buyer_id: str, name: str = "integration") -> str:
        with app.state.session_factory() as session:
            made = keys.make_key(session, buyer_id=buyer_id, name=name, created_by="tests")
            session.commit()
            return made.secret

    return make


@pytest.fixture
def key_client(app, buyer_key):
    """key_client(buyer_id, key=None) -> a TestClient that sends `Authorization: Bearer <key>` (a new
    key of the buyer when None), as a buyer's system does; no cookie, no CSRF token."""

    def make(buyer_id: str, key: str | None = None) -> TestClient:
        return TestClient(app, headers={"Authorization": f"Bearer {key or buyer_key(buyer_id)}"})

    return make
