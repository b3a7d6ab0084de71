"""The e-mailed sign-in link: how an operator on a new device gets in while strangers' guesses keep
the account locked. Sent only then, the same answer for any address, once, for 15 minutes."""

from __future__ import annotations

import logging
import re
from datetime import timedelta

import pyotp
import pytest
from console_api_support import PASSWORD, sign_in
from fastapi.testclient import TestClient
from portal_support import Mailbox, body
from sqlalchemy import select, update

from servicematch.access.models import AuditEntry, SignInLink
from servicematch.console import accounts
from servicematch.console.sessions import CONSOLE_DEVICE, COOKIE_NAME
from servicematch.kernel.clock import utcnow

STRANGER_ADDRESS = ("203.0.113.9", 50000)
NEW_DEVICE_ADDRESS = ("198.51.100.4", 50000)


@pytest.fixture
def settings(settings, tmp_path):
    # Link calls per address are limited as failed sign-ins per address are (5 in the console's
    # tests): more here, so a test may ask and follow several from one address.
    return settings.model_copy(update={"mail_dir": tmp_path / "mail", "site_origin": "https://servicematch.example",
                                       "console_signin_failures_per_address": 20})


@pytest.fixture
def mailbox(settings) -> Mailbox:
    return Mailbox(settings.mail_dir)


def _lock_out(app, email: str) -> None:
    stranger = TestClient(app, client=STRANGER_ADDRESS)
    for _ in range(3):  # console_signin_failures_per_account in these tests
        stranger.post("/api/console/session", json={"email": email, "password": "a wrong guess at it"})
    assert stranger.post("/api/console/session", json={"email": email, "password": PASSWORD}).status_code == 429


def _ask(browser: TestClient, email: str):
    return browser.post("/api/console/session/link", json={"email": email})


def _token(mailbox: Mailbox, email: str, count: int = 1) -> str:
    text = body(mailbox.wait_for(email, count)[-1])
    found = re.search(r"https://servicematch\.example/admin/sign-in-link#([A-Za-z0-9_-]+)", text)
    assert found, text
    return found.group(1)


def _use(browser: TestClient, token: str, **extra):
    return browser.post("/api/console/session/link/use", json={"token": token, **extra})


def _actions(app) -> list[tuple[str, str]]:
    with app.state.session_factory() as session:
        return [(e.action, e.target) for e in session.scalars(select(AuditEntry).order_by(AuditEntry.id))]


def test_a_locked_out_operator_signs_in_once_by_link_and_the_device_is_known_after(app, add_operator, mailbox,
                                                                                   caplog):
    caplog.set_level(logging.DEBUG)
    email = add_operator("admin")
    _lock_out(app, email)
    new_device = TestClient(app, client=NEW_DEVICE_ADDRESS)
    assert new_device.post("/api/console/session", json={"email": email, "password": PASSWORD}).status_code == 429

    asked = _ask(new_device, email.upper())
    assert asked.status_code == 202 and "15 minutes" in asked.json()["message"]
    token = _token(mailbox, email)
    assert "works once, for 15 minutes" in body(mailbox.to(email)[-1])
    used = _use(new_device, token)
    assert used.status_code == 200, used.text
    assert used.json()["operator"]["email"] == email
    assert new_device.get("/api/console/session").status_code == 200
    assert new_device.cookies.get(COOKIE_NAME) and new_device.cookies.get(CONSOLE_DEVICE.name)

    again = TestClient(app, client=NEW_DEVICE_ADDRESS)
    assert _use(again, token).status_code == 410  # once only
    assert again.get("/api/console/session").status_code == 401
    # The device is known now: signed out, it signs in with the password while the lock holds.
    new_device.delete("/api/console/session")
    assert new_device.post("/api/console/session", json={"email": email, "password": PASSWORD}).status_code == 200

    actions = _actions(app)
    assert ("signin.link_sent", email) in actions and ("signin.link_used", email) in actions
    assert ("signin.known_device", email) in actions
    with app.state.session_factory() as session:
        details = " ".join(str(e.detail) for e in session.scalars(select(AuditEntry)))
        [row] = session.scalars(select(SignInLink)).all()
    assert token not in details and token not in row.token_hash
    assert row.surface == "console" and row.expires_at - row.created_at == timedelta(minutes=15)
    assert token not in caplog.text


def test_the_answer_is_the_same_for_any_address_and_only_a_locked_account_is_mailed(app, add_operator, mailbox):
    locked, unlocked = add_operator("admin"), add_operator("analyst")
    _lock_out(app, locked)
    browser = TestClient(app, client=NEW_DEVICE_ADDRESS)
    answers = {email: _ask(browser, email) for email in (locked, unlocked, "nobody@example.com")}
    assert {answer.status_code for answer in answers.values()} == {202}
    assert len({answer.json()["message"].replace(email, "X") for email, answer in answers.items()}) == 1
    assert len(mailbox.wait_for(locked)) == 1
    assert mailbox.to(unlocked) == [] and mailbox.to("nobody@example.com") == []
    assert [target for action, target in _actions(app) if action == "signin.link_sent"] == [locked]


def test_a_link_expires_after_15_minutes(app, add_operator, mailbox):
    email = add_operator("admin")
    _lock_out(app, email)
    browser = TestClient(app, client=NEW_DEVICE_ADDRESS)
    _ask(browser, email)
    token = _token(mailbox, email)
    with app.state.session_factory() as session:
        session.execute(update(SignInLink).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    spent = _use(browser, token)
    assert spent.status_code == 410 and spent.json()["fields"] == {"token": spent.json()["error"]}
    assert _use(browser, "not-a-token-anyone-was-sent").json() == spent.json()  # all alike
    assert browser.get("/api/console/session").status_code == 401


def test_at_most_three_links_an_hour_and_signing_in_spends_the_others(app, add_operator, mailbox):
    email = add_operator("admin")
    _lock_out(app, email)
    browser = TestClient(app, client=NEW_DEVICE_ADDRESS)
    for _ in range(4):
        assert _ask(browser, email).status_code == 202
    sent = [re.search(r"#([A-Za-z0-9_-]+)", body(message)).group(1) for message in mailbox.wait_for(email, 3)]
    assert len(mailbox.to(email)) == 3 and len(set(sent)) == 3
    assert _use(browser, sent[0]).status_code == 200
    assert [_use(TestClient(app), token).status_code for token in sent[1:]] == [410, 410]


def test_with_totp_on_the_link_also_needs_a_code_and_wrong_codes_spend_it(app, add_operator, mailbox, settings):
    email = add_operator("admin")
    with app.state.session_factory() as session:
        totp = pyotp.parse_uri(accounts.enable_totp(session, settings, email))
        session.commit()
    _lock_out(app, email)
    browser = TestClient(app, client=NEW_DEVICE_ADDRESS)
    _ask(browser, email)
    token = _token(mailbox, email)
    asked = _use(browser, token)
    assert asked.status_code == 401 and asked.json()["totpRequired"] is True
    wrong = "000000" if totp.now() != "000000" else "111111"
    assert _use(browser, token, totp=wrong).status_code == 401
    signed_in = _use(browser, token, totp=totp.now())  # the link stayed good for the right code
    assert signed_in.status_code == 200 and signed_in.json()["operator"]["totpEnabled"] is True

    _ask(browser, email)
    second = _token(mailbox, email, 2)
    for _ in range(5):  # console_signin_failures_per_device (5): the link's own allowance of wrong codes
        assert _use(browser, second, totp=wrong).status_code == 401
    assert _use(browser, second, totp=totp.at(utcnow() + timedelta(seconds=30))).status_code == 410


def test_asking_for_links_is_rate_limited_per_address(app, settings):
    browser = TestClient(app, client=NEW_DEVICE_ADDRESS)
    for n in range(settings.console_signin_failures_per_address):
        assert _ask(browser, f"someone{n}@example.com").status_code == 202
    refused = _ask(browser, "someone@example.com")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert _ask(TestClient(app, client=STRANGER_ADDRESS), "someone@example.com").status_code == 202


def test_an_operator_signed_in_normally_is_marked_a_known_device_too(client, add_operator):
    sign_in(client, add_operator("analyst"))
    assert client.cookies.get(CONSOLE_DEVICE.name)
