"""Known devices: strangers' wrong guesses lock an account for everyone but the browsers its owner
signed in from before, which are judged by their own failures (through the console's sign-in)."""

from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from console_api_support import PASSWORD, sign_in
from fastapi.testclient import TestClient
from sqlalchemy import select

from servicematch.access import devices
from servicematch.console import accounts
from servicematch.console.models import AuditEntry
from servicematch.console.sessions import CONSOLE_DEVICE
from servicematch.kernel.clock import utcnow

OWNER_ADDRESS = ("198.51.100.4", 50000)
STRANGER_ADDRESS = ("203.0.113.9", 50000)


@pytest.fixture
def settings(settings):
    # Apart from the account's limit (3 in these tests), so the test can tell which one counted.
    return settings.model_copy(update={"console_signin_failures_per_device": 4})


def _browser(app, address=OWNER_ADDRESS) -> TestClient:
    return TestClient(app, client=address)


def _attempt(browser: TestClient, email: str, password: str = PASSWORD, **extra):
    return browser.post("/api/console/session", json={"email": email, "password": password, **extra})


def _lock_out(app, email: str, address=STRANGER_ADDRESS) -> TestClient:
    """A stranger's three wrong guesses (the account's limit in these tests); returns the stranger."""
    stranger = _browser(app, address)
    for _ in range(3):
        assert _attempt(stranger, email, "a wrong guess at it").status_code == 401
    assert _attempt(stranger, email).status_code == 429  # even the right password, without the cookie
    return stranger


def _actions(app, action: str) -> list[AuditEntry]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)))


def test_the_owner_signs_in_from_a_known_device_while_a_stranger_keeps_the_account_locked(app, add_operator):
    email = add_operator("admin")
    owner = _browser(app)
    sign_in(owner, email)
    owner.delete("/api/console/session")
    stranger = _lock_out(app, email)

    again = _attempt(owner, email)
    assert again.status_code == 200, again.text
    assert owner.get("/api/console/session").status_code == 200
    # The stranger, without the cookie, is throttled exactly as before: per account ...
    refused = _attempt(stranger, email)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "sign-in link" in refused.json()["error"]
    # ... from any other address too.
    assert _attempt(_browser(app, ("192.0.2.77", 50000)), email).status_code == 429
    [admitted] = _actions(app, "signin.known_device")
    assert admitted.target == email and admitted.ip == OWNER_ADDRESS[0] and admitted.detail["device"]


def test_a_known_device_is_let_past_its_own_address_being_locked(app, add_operator):
    email = add_operator("admin")
    owner = _browser(app)
    sign_in(owner, email)
    # Guesses at other accounts from the owner's own network lock that address (5 in these tests).
    guesser = _browser(app)
    for n in range(5):
        _attempt(guesser, f"guess{n}@example.com", "x" * 12)
    assert _attempt(guesser, email).status_code == 429
    assert _attempt(owner, email).status_code == 200


def test_wrong_guesses_from_a_known_device_are_limited_by_its_own_count(app, add_operator):
    email = add_operator("admin")
    owner, second = _browser(app), _browser(app, ("198.51.100.5", 50000))
    sign_in(owner, email)
    sign_in(second, email)
    _lock_out(app, email)
    # Past the account's limit, the device is still heard: its own four failures (its limit here) ...
    for _ in range(4):
        assert _attempt(owner, email, "still not the password").status_code == 401
    # ... and then it waits, the right password included.
    throttled = _attempt(owner, email)
    assert throttled.status_code == 429 and int(throttled.headers["Retry-After"]) > 0
    # Each failure named the device; the owner's other browser has a count of its own.
    failures = [e for e in _actions(app, "signin.failure") if "device" in e.detail]
    assert len(failures) == 4 and len({e.detail["device"] for e in failures}) == 1
    assert _attempt(second, email).status_code == 200


def test_totp_is_still_asked_of_a_known_device(app, add_operator, settings):
    email = add_operator("admin")
    with app.state.session_factory() as session:
        totp = pyotp.parse_uri(accounts.enable_totp(session, settings, email))
        session.commit()
    owner = _browser(app)
    sign_in(owner, email, totp=totp.now())
    _lock_out(app, email)
    asked = _attempt(owner, email)
    assert asked.status_code == 401 and asked.json()["totpRequired"] is True
    assert _attempt(owner, email, totp="000000" if totp.now() != "000000" else "111111").status_code == 401
    assert _attempt(owner, email, totp=totp.at(utcnow() + timedelta(seconds=30))).status_code == 200


def _with_cookie(app, email: str, value: str, password: str = PASSWORD):
    """A sign-in from a new browser that carries `value` as its known-device cookie."""
    return _browser(app, ("192.0.2.50", 50000)).post(
        "/api/console/session", json={"email": email, "password": password},
        headers={"Cookie": f"{CONSOLE_DEVICE.name}={value}"})


def test_another_accounts_cookie_a_forged_one_or_one_from_before_a_new_password_opens_nothing(app, add_operator):
    owner_email, other_email = add_operator("admin"), add_operator("admin")
    owner = _browser(app)
    sign_in(owner, owner_email)
    genuine = owner.cookies.get(CONSOLE_DEVICE.name)
    _lock_out(app, owner_email)
    _lock_out(app, other_email, ("203.0.113.10", 50000))
    assert _with_cookie(app, owner_email, genuine).status_code == 200  # the cookie alone is what counts
    assert _with_cookie(app, other_email, genuine).status_code == 429  # it names the owner's account only
    forged = genuine[:-4] + ("0000" if not genuine.endswith("0000") else "1111")
    assert _with_cookie(app, owner_email, forged).status_code == 429

    with app.state.session_factory() as session:
        accounts.reset_password(session, owner_email, "a brand new password 42")
        session.commit()
    assert _with_cookie(app, owner_email, genuine, "a brand new password 42").status_code == 429


def test_the_cookie_is_http_only_strict_kept_for_the_sign_in_calls_and_names_no_person(app, add_operator):
    email = add_operator("analyst")
    answer = _browser(app).post("/api/console/session", json={"email": email, "password": PASSWORD})
    [cookie] = [c for c in answer.headers.get_list("set-cookie") if c.startswith(f"{CONSOLE_DEVICE.name}=")]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/api/console/session" in cookie
    assert f"Max-Age={int(devices.LIFETIME.total_seconds())}" in cookie
    value = cookie.split(";", 1)[0].split("=", 1)[1]
    assert email.split("@")[0] not in value and "@" not in value


def test_a_cookie_is_recognised_only_while_current_and_genuine(settings):
    now = utcnow()
    value = devices.issue(settings, CONSOLE_DEVICE, account_id="account-1", now=now)
    device = devices.recognised(settings, CONSOLE_DEVICE, value, account_id="account-1", not_before=None, now=now)
    assert device and device in value
    later = now + devices.LIFETIME + timedelta(seconds=1)
    assert devices.recognised(settings, CONSOLE_DEVICE, value, account_id="account-1", not_before=None,
                              now=later) is None
    assert devices.recognised(settings, CONSOLE_DEVICE, value, account_id="account-2", not_before=None,
                              now=now) is None
    assert devices.recognised(settings, CONSOLE_DEVICE, value, account_id="account-1",
                              not_before=now + timedelta(seconds=2), now=now) is None
    other_key = settings.model_copy(update={"secret_key": "another-secret-key"})
    assert devices.recognised(other_key, CONSOLE_DEVICE, value, account_id="account-1", not_before=None,
                              now=now) is None
    ahead = devices.issue(settings, CONSOLE_DEVICE, account_id="account-1", now=now + timedelta(hours=1))
    assert devices.recognised(settings, CONSOLE_DEVICE, ahead, account_id="account-1", not_before=None,
                              now=now) is None
    for junk in ("", "a.b.c", "x" * 500, value.replace(".", "", 1)):
        assert devices.recognised(settings, CONSOLE_DEVICE, junk, account_id="account-1", not_before=None,
                                  now=now) is None
