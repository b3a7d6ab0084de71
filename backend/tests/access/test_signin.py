"""Sign-in, sessions, sign-out, throttling and the second factor."""

from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
from argon2 import Type
from console_api_support import PASSWORD, sign_in
from sqlalchemy import select, update

from servicematch.access import passwords
from servicematch.console import accounts
from servicematch.console.models import AuditEntry, OperatorSession
from servicematch.console.sessions import COOKIE_NAME
from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.kernel.crypto import cipher_for


def _audit(app) -> list[tuple[str, str]]:
    with app.state.session_factory() as session:
        return [(e.action, e.target) for e in session.scalars(select(AuditEntry).order_by(AuditEntry.id))]


def test_sign_in_sets_a_strict_http_only_cookie_and_answers_the_operator(client, add_operator, app):
    email = add_operator("analyst")
    answer = client.post("/api/console/session", json={"email": email.upper(), "password": PASSWORD})
    assert answer.status_code == 200
    body = answer.json()
    assert body["operator"]["email"] == email and body["operator"]["role"] == "analyst"
    assert len(body["csrfToken"]) == 64
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Path=/" in cookie
    assert client.get("/api/console/session").json()["csrfToken"] == body["csrfToken"]
    assert ("signin.success", email) in _audit(app)


def test_the_database_keeps_a_hash_of_the_token_not_the_token(client, add_operator, app):
    sign_in(client, add_operator("admin"))
    token = client.cookies.get(COOKIE_NAME)
    with app.state.session_factory() as session:
        stored = session.scalars(select(OperatorSession.token_hash)).all()
    assert len(stored) == 1 and token not in stored[0] and len(stored[0]) == 64


def test_sign_out_ends_the_session(client, add_operator):
    sign_in(client, add_operator("admin"))
    cookie = client.cookies.get(COOKIE_NAME)
    assert client.delete("/api/console/session").status_code == 204
    client.cookies.set(COOKIE_NAME, cookie)  # even a copy of the old cookie is worthless now
    assert client.get("/api/console/session").status_code == 401


def test_wrong_password_and_unknown_account_get_the_same_answer_and_are_audited(client, add_operator, app,
                                                                                monkeypatch):
    email = add_operator("admin")
    verified = []
    real = passwords._hasher

    class CountingHasher:
        def verify(self, stored: str, password: str) -> bool:
            verified.append(stored)
            return real.verify(stored, password)

        def hash(self, password: str) -> str:
            return real.hash(password)

    monkeypatch.setattr(passwords, "_hasher", CountingHasher())
    wrong = client.post("/api/console/session", json={"email": email, "password": "not the password"})
    unknown = client.post("/api/console/session", json={"email": "nobody@example.com", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": accounts_message(), "fields": {}}
    # The unknown account still cost one Argon2 verification, so timing does not tell them apart.
    assert len(verified) == 2
    # What was typed is kept only when it names an account: the unknown one is logged without it.
    assert _audit(app) == [("signin.failure", email), ("signin.failure", "")]
    assert client.cookies.get(COOKIE_NAME) is None


def test_a_failed_sign_in_keeps_no_trace_of_an_e_mail_that_names_no_account(client, add_operator, app):
    add_operator("admin")
    typed = "correct horse battery staple"  # a password typed in the e-mail field
    assert client.post("/api/console/session", json={"email": typed, "password": "x"}).status_code == 401
    with app.state.session_factory() as session:
        entries = session.scalars(select(AuditEntry).where(AuditEntry.action == "signin.failure")).all()
    assert len(entries) == 1
    assert typed not in f"{entries[0].operator_email} {entries[0].target} {entries[0].detail}"


def accounts_message() -> str:
    from servicematch.console.router_session import WRONG_CREDENTIALS

    return WRONG_CREDENTIALS


def test_failures_per_account_are_throttled_even_for_the_right_password(client, add_operator):
    email = add_operator("admin")
    for _ in range(3):  # console_signin_failures_per_account in these tests
        assert client.post("/api/console/session", json={"email": email, "password": "wrong one"}).status_code == 401
    answer = client.post("/api/console/session", json={"email": email, "password": PASSWORD})
    assert answer.status_code == 429
    assert int(answer.headers["Retry-After"]) > 0
    assert answer.json()["error"] == ("Too many failed sign-in attempts. Try again in 15 minutes, "
                                      "or have a sign-in link e-mailed to you.")


def test_failures_per_address_are_throttled_across_accounts(client, add_operator):
    for n in range(5):  # console_signin_failures_per_address in these tests
        client.post("/api/console/session", json={"email": f"guess{n}@example.com", "password": "x" * 12})
    fresh = add_operator("admin")
    assert client.post("/api/console/session", json={"email": fresh, "password": PASSWORD}).status_code == 429


def test_the_throttle_lets_go_once_the_failures_age_out(client, add_operator, app):
    email = add_operator("admin")
    for _ in range(3):
        client.post("/api/console/session", json={"email": email, "password": "wrong one"})
    with app.state.session_factory() as session:
        session.execute(update(AuditEntry).values(at=utcnow() - timedelta(minutes=16)))
        session.commit()
    assert client.post("/api/console/session", json={"email": email, "password": PASSWORD}).status_code == 200


def test_a_disabled_operator_is_signed_out_and_cannot_sign_in(client, add_operator, app):
    email = add_operator("admin")
    sign_in(client, email)
    with app.state.session_factory() as session:
        accounts.disable_operator(session, email)
        session.commit()
    assert client.get("/api/console/session").status_code == 401
    assert client.post("/api/console/session", json={"email": email, "password": PASSWORD}).status_code == 401


def test_idle_and_absolute_expiry(client, add_operator, app, settings):
    sign_in(client, add_operator("admin"))
    assert client.get("/api/console/session").status_code == 200
    idle = utcnow() - timedelta(minutes=settings.console_session_idle_minutes + 1)
    with app.state.session_factory() as session:
        session.execute(update(OperatorSession).values(last_seen_at=idle))
        session.commit()
    assert client.get("/api/console/session").status_code == 401
    sign_in(client, add_operator("admin"))
    with app.state.session_factory() as session:
        session.execute(update(OperatorSession).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    assert client.get("/api/console/session").status_code == 401


def test_an_admin_with_totp_needs_a_fresh_code(client, add_operator, app, settings):
    email = add_operator("admin")
    with app.state.session_factory() as session:
        uri = accounts.enable_totp(session, settings, email)
        session.commit()
    assert uri.startswith("otpauth://totp/")
    totp = pyotp.parse_uri(uri)
    missing = client.post("/api/console/session", json={"email": email, "password": PASSWORD})
    assert missing.status_code == 401 and missing.json()["totpRequired"] is True
    wrong_code = "000000" if totp.now() != "000000" else "111111"
    wrong = client.post("/api/console/session", json={"email": email, "password": PASSWORD, "totp": wrong_code})
    assert wrong.status_code == 401 and wrong.json()["totpRequired"] is True
    code = totp.now()
    body = sign_in(client, email, totp=code)
    assert body["operator"]["totpEnabled"] is True
    replayed = client.post("/api/console/session", json={"email": email, "password": PASSWORD, "totp": code})
    assert replayed.status_code == 401
    with app.state.session_factory() as session:
        secret = accounts.find_operator(session, email).totp_secret
    assert totp.secret.encode() not in secret  # the seed is stored encrypted
    assert cipher_for(settings).decrypt(secret, lead_id=f"operator-totp:{_operator_id(app, email)}")["seed"] == totp.secret


def _operator_id(app, email: str) -> str:
    with app.state.session_factory() as session:
        return accounts.find_operator(session, email).id


def test_passwords_are_hashed_at_rfc_9106_cost():
    # The other console tests hash at the lowest cost (conftest); the server never does.
    assert passwords.PASSWORD_HASHING.type is Type.ID
    assert passwords.PASSWORD_HASHING.memory_cost >= 64 * 1024 and passwords.PASSWORD_HASHING.time_cost >= 3


def test_passwords_are_argon2id_and_short_ones_are_refused(app):
    with app.state.session_factory() as session:
        operator = accounts.add_operator(session, email="New@Example.com", role="analyst", password=PASSWORD)
        assert operator.email == "new@example.com"
        assert operator.password_hash.startswith("$argon2id$")
        with pytest.raises(ServiceMatchError, match="at least 12 characters"):
            accounts.add_operator(session, email="short@example.com", role="analyst", password="short")
