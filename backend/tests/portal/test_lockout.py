"""A provider locked out by a stranger's guesses still gets in: with the password from a browser it
signed in from before (a known device), or by an e-mailed sign-in link from a new one."""

from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from fastapi.testclient import TestClient
from portal_support import PASSWORD, PortalClient, body
from sqlalchemy import select, update

from servicematch.access import links
from servicematch.access.models import AuditEntry, SignInLink
from servicematch.kernel.clock import utcnow
from servicematch.portal.invitations import find_account
from servicematch.portal.router import LINK_ASKED, Action, portal_throttle
from servicematch.portal.sessions import COOKIE_NAME, PORTAL_DEVICE, SIGNIN_SURFACE

EMAIL = "ana@coolair.example"
STRANGER_ADDRESS = ("203.0.113.9", 50000)
NEW_DEVICE_ADDRESS = ("198.51.100.4", 50000)


@pytest.fixture
def settings(settings):
    # Apart from the account's limit (3 in these tests), so the test can tell which one counted.
    return settings.model_copy(update={"portal_signin_failures_per_device": 4})


def _browser(app, address=NEW_DEVICE_ADDRESS) -> PortalClient:
    return PortalClient(TestClient(app, client=address), "")


def _lock_out(app, email: str = EMAIL) -> PortalClient:
    stranger = _browser(app, STRANGER_ADDRESS)
    for _ in range(3):  # portal_signin_failures_per_account in these tests
        assert stranger.sign_in(email, "a wrong guess at it").status_code == 401
    assert stranger.sign_in(email, PASSWORD).status_code == 429
    return stranger


def _actions(app) -> list[tuple[str, str]]:
    with app.state.session_factory() as session:
        return [(e.action, e.target) for e in session.scalars(select(AuditEntry).order_by(AuditEntry.id))
                if e.action.startswith("portal.signin")]


def _ask(browser: PortalClient, email: str = EMAIL):
    return browser.http.post("/api/pro/session/link", json={"email": email})


def _use(browser: PortalClient, token: str, **extra):
    return browser.http.post("/api/pro/session/link/use", json={"token": token, **extra})


def test_the_provider_signs_in_from_its_known_device_while_a_stranger_keeps_the_account_locked(app, provider):
    browser = provider(EMAIL)  # signed in through its invitation: the browser is known from then on
    assert browser.http.cookies.get(PORTAL_DEVICE.name)
    assert browser.send("DELETE", "/session").status_code == 204
    stranger = _lock_out(app)

    assert browser.sign_in(EMAIL, PASSWORD).status_code == 200
    assert browser.get("/session").status_code == 200
    refused = stranger.sign_in(EMAIL, PASSWORD)
    assert refused.status_code == 429 and "sign-in link" in refused.json()["error"]
    assert _browser(app).sign_in(EMAIL, PASSWORD).status_code == 429  # a new device waits, from any address
    assert ("portal.signin.known_device", EMAIL) in _actions(app)


def test_wrong_guesses_from_the_known_device_are_limited_by_its_own_count(app, provider):
    browser = provider(EMAIL)
    _lock_out(app)
    for _ in range(4):  # the device's own limit here; the account's (3) was reached already
        assert browser.sign_in(EMAIL, "still not the password").status_code == 401
    throttled = browser.sign_in(EMAIL, PASSWORD)
    assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) > 0


def test_a_link_signs_a_locked_out_provider_in_once_from_a_new_device(app, provider, mailbox):
    provider(EMAIL)
    _lock_out(app)
    new_device = _browser(app)
    asked, unknown = _ask(new_device, "Ana@CoolAir.example"), _ask(new_device, "nobody@example.com")
    assert asked.status_code == unknown.status_code == 202
    assert asked.json()["message"] == LINK_ASKED.format(email=EMAIL)
    assert unknown.json()["message"] == LINK_ASKED.format(email="nobody@example.com")
    token = mailbox.token(EMAIL, "sign-in-link", count=2)  # the invitation, then this
    assert "works once, for 15 minutes" in body(mailbox.to(EMAIL)[-1])

    used = _use(new_device, token)
    assert used.status_code == 200, used.text
    assert used.json()["account"]["email"] == EMAIL
    assert new_device.get("/session").status_code == 200
    assert new_device.http.cookies.get(COOKIE_NAME) and new_device.http.cookies.get(PORTAL_DEVICE.name)
    assert _use(_browser(app), token).status_code == 410  # once only
    # Known from now on: signed out, the new device signs in with the password while the lock holds.
    new_device.send("DELETE", "/session")
    assert new_device.sign_in(EMAIL, PASSWORD).status_code == 200
    assert mailbox.to("nobody@example.com") == []
    actions = _actions(app)
    assert ("portal.signin.link_sent", EMAIL) in actions and ("portal.signin.link_used", EMAIL) in actions
    with app.state.session_factory() as session:
        [row] = session.scalars(select(SignInLink)).all()
    assert row.surface == "portal" and row.expires_at - row.created_at == timedelta(minutes=15)


def test_no_link_for_an_account_that_is_not_locked_and_an_expired_one_is_refused(app, provider, mailbox, settings):
    provider(EMAIL)
    ask = {"surface": SIGNIN_SURFACE, "throttle": portal_throttle(settings), "find": find_account,
           "sent_action": Action.LINK_SENT, "email": EMAIL, "ip": NEW_DEVICE_ADDRESS[0]}
    # What the mail thread does after the answer: nothing while the password signs in ...
    assert links.issue_when_locked(app.state.session_factory, now=utcnow(), **ask) is None
    _lock_out(app)
    # ... a link once the account is locked.
    assert links.issue_when_locked(app.state.session_factory, now=utcnow(), **ask) is not None
    browser = _browser(app)
    assert _ask(browser).status_code == 202
    token = mailbox.token(EMAIL, "sign-in-link", count=2)
    with app.state.session_factory() as session:
        session.execute(update(SignInLink).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    assert _use(browser, token).status_code == 410
    assert browser.get("/session").status_code == 401


def test_with_totp_on_a_link_also_needs_the_code(app, provider, mailbox):
    browser = provider(EMAIL)
    setup = browser.send("POST", "/account/totp").json()
    totp = pyotp.TOTP(setup["secret"])
    assert browser.send("POST", "/account/totp/confirm", {"code": totp.now()}).status_code == 200
    _lock_out(app)
    new_device = _browser(app)
    _ask(new_device)
    token = mailbox.token(EMAIL, "sign-in-link", count=2)
    asked = _use(new_device, token)
    assert asked.status_code == 401 and asked.json()["totpRequired"] is True
    assert _use(new_device, token, totp="000000" if totp.now() != "000000" else "111111").status_code == 401
    signed_in = _use(new_device, token, totp=totp.at(utcnow() + timedelta(seconds=30)))
    assert signed_in.status_code == 200 and signed_in.json()["account"]["totpEnabled"] is True
