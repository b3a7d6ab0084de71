"""Signing in to the portal: passwords, throttling, CSRF on every change, sessions apart from the
console's, TOTP on and off, forgotten passwords."""

from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from fastapi.testclient import TestClient
from portal_support import PASSWORD, PortalClient, body
from sqlalchemy import select, update

from servicematch.access.models import AuditEntry
from servicematch.console.sessions import COOKIE_NAME as CONSOLE_COOKIE
from servicematch.kernel.clock import utcnow
from servicematch.portal.models import PortalToken, ProviderSession
from servicematch.portal.sessions import COOKIE_NAME

# Calls made before there is a session: each carries its own proof (credentials or a link's token).
BEFORE_SIGN_IN = {("POST", "/api/pro/session"), ("POST", "/api/pro/password"), ("POST", "/api/pro/password/forgot"),
                  ("POST", "/api/pro/session/link"), ("POST", "/api/pro/session/link/use")}


def _audit(app, prefix: str = "portal.") -> list[tuple[str, str]]:
    with app.state.session_factory() as session:
        return [(e.action, e.target) for e in session.scalars(select(AuditEntry).order_by(AuditEntry.id))
                if e.action.startswith(prefix)]


def test_sign_in_and_out(app, provider):
    browser = provider("ana@coolair.example")
    assert browser.send("DELETE", "/session").status_code == 204
    assert browser.get("/session").status_code == 401
    signed_in = browser.sign_in("ANA@coolair.example ", PASSWORD)
    assert signed_in.status_code == 200 and signed_in.json()["account"] == {"email": "ana@coolair.example",
                                                                           "totpEnabled": False}
    assert len(signed_in.json()["csrfToken"]) == 64
    assert browser.get("/session").json()["provider"]["id"] == browser.provider_id
    assert ("portal.signin.success", "ana@coolair.example") in _audit(app)


def test_a_wrong_password_and_an_unknown_account_answer_alike_and_are_throttled(app, provider):
    browser = provider("ana@coolair.example")
    stranger = PortalClient(TestClient(app), "")
    wrong = stranger.sign_in("ana@coolair.example", "not the password")
    unknown = stranger.sign_in("nobody@example.com", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401 and wrong.json() == unknown.json()
    assert stranger.http.cookies.get(COOKIE_NAME) is None
    stranger.sign_in("ana@coolair.example", "not the password")
    stranger.sign_in("ana@coolair.example", "not the password")
    # Three failures for the account (the test's limit): even the right password waits now.
    throttled = stranger.sign_in("ana@coolair.example", PASSWORD)
    assert throttled.status_code == 429 and int(throttled.headers["retry-after"]) > 0
    assert _audit(app).count(("portal.signin.failure", "ana@coolair.example")) == 3
    assert ("portal.signin.failure", "") in _audit(app)  # what was typed is kept only when it names an account
    assert browser.get("/session").status_code == 200  # a session already open is not touched


def _state_changing_routes(app) -> list[tuple[str, str]]:
    """Every portal operation but reads and the calls made before signing in, from the API's schema."""
    return sorted((method.upper(), path) for path, operations in app.openapi()["paths"].items()
                  if path.startswith("/api/pro/") for method in operations
                  if method != "get" and (method.upper(), path) not in BEFORE_SIGN_IN)


def test_every_state_changing_portal_call_needs_the_session_and_its_csrf_token(app, provider):
    browser = provider()
    routes = _state_changing_routes(app)
    assert len(routes) >= 7, routes  # the walk sees the routes (profile, pause, resume, TOTP, sign-out)
    stranger = PortalClient(TestClient(app), browser.provider_id)
    for method, path in routes:
        path = path.replace("{provider_id}", browser.provider_id)
        assert stranger.http.request(method, path, json={}).status_code == 401, (method, path)
        without = browser.http.request(method, path, json={})
        assert without.status_code == 403, (method, path, without.text)
        forged = browser.http.request(method, path, json={}, headers={"X-CSRF-Token": "0" * 64})
        assert forged.status_code == 403, (method, path)
    assert browser.get(browser.me).json()["active"] is True  # nothing changed


def test_portal_and_console_sessions_never_open_each_other(app, client, operator, provider):
    browser = provider()
    assert client.get("/api/console/session").status_code == 200
    assert client.get("/api/pro/session").status_code == 401  # an operator is not a provider
    assert browser.http.get("/api/console/session").status_code == 401  # nor the reverse
    # Not even the token itself, put in the other's cookie.
    console_token, portal_token = client.cookies.get(CONSOLE_COOKIE), browser.http.cookies.get(COOKIE_NAME)
    crossed = TestClient(app, cookies={COOKIE_NAME: console_token, CONSOLE_COOKIE: portal_token})
    assert crossed.get("/api/pro/session").status_code == 401
    assert crossed.get("/api/console/session").status_code == 401


def test_the_session_ends_when_idle_too_long(app, provider, settings):
    browser = provider()
    with app.state.session_factory() as session:
        idle = timedelta(minutes=settings.portal_session_idle_minutes, seconds=1)
        session.execute(update(ProviderSession).values(last_seen_at=utcnow() - idle))
        session.commit()
    assert browser.get("/session").status_code == 401


def _turn_on_totp(browser: PortalClient) -> pyotp.TOTP:
    setup = browser.send("POST", "/account/totp")
    assert setup.status_code == 200 and setup.json()["uri"].startswith("otpauth://totp/")
    totp = pyotp.TOTP(setup.json()["secret"])
    assert browser.send("POST", "/account/totp/confirm", {"code": "000000"}).status_code == 422
    confirmed = browser.send("POST", "/account/totp/confirm", {"code": totp.now()})
    assert confirmed.status_code == 200 and confirmed.json()["totpEnabled"] is True
    return totp


def test_totp_on_asks_for_a_code_at_sign_in_and_off_does_not(app, provider):
    browser = provider("ana@coolair.example")
    totp = _turn_on_totp(browser)
    again = PortalClient(TestClient(app), browser.provider_id)
    asked = again.sign_in("ana@coolair.example", PASSWORD)
    assert asked.status_code == 401 and asked.json()["totpRequired"] is True
    assert again.sign_in("ana@coolair.example", PASSWORD, totp="123456").status_code == 401
    # The code used to turn it on is spent: the next one is needed (or the same step's, used once).
    step_code = totp.at(utcnow() + timedelta(seconds=30))
    assert again.sign_in("ana@coolair.example", PASSWORD, totp=step_code).status_code == 200
    wrong = again.send("POST", "/account/totp/disable", {"password": "not it at all"})
    assert wrong.status_code == 422 and wrong.json()["fields"] == {"password": "wrong"}
    assert again.send("POST", "/account/totp/disable", {"password": PASSWORD}).json()["totpEnabled"] is False
    assert PortalClient(TestClient(app), "").sign_in("ana@coolair.example", PASSWORD).status_code == 200
    assert [a for a, _ in _audit(app) if a.startswith("portal.totp")] == ["portal.totp.on", "portal.totp.off"]


def test_a_forgotten_password_is_reset_by_link_ending_every_session(app, provider, mailbox):
    browser = provider("ana@coolair.example")
    stranger = PortalClient(TestClient(app), browser.provider_id)
    asked = stranger.http.post("/api/pro/password/forgot", json={"email": "Ana@CoolAir.example"})
    unknown = stranger.http.post("/api/pro/password/forgot", json={"email": "nobody@example.com"})
    assert asked.status_code == unknown.status_code == 202
    assert "1 hour" in asked.json()["message"]
    assert asked.json()["message"].replace("ana@coolair.example", "X") == unknown.json()["message"].replace(
        "nobody@example.com", "X")
    token = mailbox.token("ana@coolair.example", "reset", count=2)  # the invitation, then this
    assert "choose a new password" in body(mailbox.to("ana@coolair.example")[-1])
    reset = stranger.choose_password(token, "a brand new password 99")
    assert reset.status_code == 200
    assert browser.get("/session").status_code == 401  # the old session ended with the old password
    assert stranger.get("/session").status_code == 200
    assert stranger.sign_in("ana@coolair.example", PASSWORD).status_code == 401
    assert mailbox.to("nobody@example.com") == []
    with app.state.session_factory() as session:
        [row] = session.scalars(select(PortalToken).where(PortalToken.purpose == "reset")).all()
        assert row.expires_at - row.created_at == timedelta(hours=1) and row.used_at is not None


def test_a_reset_link_with_totp_on_also_needs_the_code(app, provider, mailbox):
    browser = provider("ana@coolair.example")
    totp = _turn_on_totp(browser)
    browser.http.post("/api/pro/password/forgot", json={"email": "ana@coolair.example"})
    token = mailbox.token("ana@coolair.example", "reset", count=2)
    stranger = PortalClient(TestClient(app), browser.provider_id)
    asked = stranger.choose_password(token, "a brand new password 99")
    assert asked.status_code == 401 and asked.json()["totpRequired"] is True
    assert stranger.choose_password(token, "a brand new password 99", totp="000000").status_code == 401
    code = totp.at(utcnow() + timedelta(seconds=30))
    assert stranger.choose_password(token, "a brand new password 99", totp=code).status_code == 200


@pytest.mark.parametrize("address", ["x" * 300, "a\nb@example.com"], ids=["long", "line-break"])
def test_odd_addresses_are_a_clear_4xx(client, address):
    assert client.post("/api/pro/password/forgot", json={"email": address}).status_code == 422
    assert client.post("/api/pro/session", json={"email": address, "password": "x"}).status_code == 422


def test_portal_answers_are_never_stored_by_a_browser_or_proxy(client):
    assert client.get("/api/pro/session").headers["cache-control"] == "no-store"
    assert client.post("/api/partner/applications", json={}).headers["cache-control"] == "no-store"
