"""Inviting a provider (the CLI, both forms of area) and its link: 72 hours, once, then signed in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from portal_support import PASSWORD, PortalClient, body
from sqlalchemy import select, update

from servicematch.cli import main
from servicematch.delivery.models import Provider, ProviderMode
from servicematch.kernel.clock import utcnow
from servicematch.portal.models import PortalToken, ProviderAccount
from servicematch.portal.sessions import COOKIE_NAME
from servicematch.settings import get_settings


@pytest.fixture
def cli(monkeypatch, settings):
    """The CLI against the test database and mailbox, its settings read from the environment like a shell's."""
    for name, value in {"DATABASE_URL": settings.database_url, "DATA_KEY": settings.data_key, "ENVIRONMENT": "test",
                        "MAIL_DIR": str(settings.mail_dir), "SITE_ORIGIN": settings.site_origin}.items():
        monkeypatch.setenv(f"SERVICEMATCH_{name}", value)
    get_settings.cache_clear()
    yield lambda *args: CliRunner().invoke(main, list(args), catch_exceptions=False)
    get_settings.cache_clear()


def _provider(app, email: str) -> Provider:
    with app.state.session_factory() as session:
        account = session.scalars(select(ProviderAccount).where(ProviderAccount.email == email)).one()
        return session.get(Provider, account.provider_id)


def test_the_cli_invites_with_zips_and_a_radius(cli, app, mailbox):
    result = cli("providers", "invite", "--email", "Ana@CoolAir.example", "--name", "Cool Air LLC",
                 "--services", "services/hvac,roofing", "--zips", "78701,78702", "--radius", "25",
                 "--licence", "TACLA12345C", "--licence-state", "TX")
    assert result.exit_code == 0, result.output
    assert "review mode" in result.output and "72 hours" in result.output and "servicematch mail list" in result.output
    provider = _provider(app, "ana@coolair.example")
    assert (provider.name, provider.services, provider.zips, provider.radius_miles, provider.states) == (
        "Cool Air LLC", ["services/hvac", "services/roofing"], ["78701", "78702"], 25.0, [])
    assert (provider.mode, provider.auto_accept, provider.verified_at, provider.active) == (
        ProviderMode.REVIEW, False, None, True)
    [message] = mailbox.to("ana@coolair.example")
    assert "https://servicematch.example/pro/welcome#" in body(message) and "72 hours" in body(message)


def test_the_cli_invites_with_states(cli, app, mailbox):
    result = cli("providers", "invite", "--email", "roof@example.com", "--name", "Top Roofs", "--services", "roofing",
                 "--states", "tx,CA")
    assert result.exit_code == 0, result.output
    provider = _provider(app, "roof@example.com")
    assert (provider.states, provider.zips, provider.radius_miles) == (["CA", "TX"], [], None)
    assert mailbox.to("roof@example.com")


@pytest.mark.parametrize(("args", "says"), [
    (["--zips", "78701", "--states", "TX"], "--zips"),
    ([], "--zips"),
    (["--states", "TX", "--radius", "10"], "--radius needs --zips"),
    (["--zips", "7870"], "zips"),
    (["--states", "TX", "--services", "plumbing"], "services"),
    (["--states", "TX", "--services", "legal/bankruptcy"], "licenceNumber"),
], ids=["both-areas", "no-area", "radius-without-zips", "bad-zip", "unknown-service", "licence-needed"])
def test_the_cli_refuses_what_cannot_be_invited_and_says_why(cli, app, mailbox, args, says):
    base = ["providers", "invite", "--email", "x@example.com", "--name", "X"]
    result = cli(*base, *(args if "--services" in args else ["--services", "roofing", *args]))
    assert result.exit_code != 0 and says in result.output, result.output
    assert mailbox.to("x@example.com") == []


def test_an_address_with_an_account_is_not_invited_twice(cli, app):
    first = cli("providers", "invite", "--email", "a@example.com", "--name", "A", "--services", "roofing",
                "--states", "TX")
    again = cli("providers", "invite", "--email", "A@example.com", "--name", "A", "--services", "roofing",
                "--states", "TX")
    assert first.exit_code == 0 and again.exit_code != 0 and "has a portal account already" in again.output


def test_the_invitation_link_sets_the_password_and_signs_in_once(app, invited):
    provider_id, token = invited("ana@coolair.example")
    browser = PortalClient(TestClient(app), provider_id)
    short = browser.choose_password(token, "short")
    assert short.status_code == 422 and short.json()["fields"] == {"password": "too short"}
    answer = browser.choose_password(token, PASSWORD)
    assert answer.status_code == 200, answer.text
    assert answer.json()["provider"]["id"] == provider_id and answer.json()["account"]["email"] == "ana@coolair.example"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=") and "Path=/api/pro" in cookie and "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert browser.get("/session").status_code == 200
    # The link is spent: it sets no other password and opens no other session.
    stranger = PortalClient(TestClient(app), provider_id)
    assert stranger.choose_password(token, "another password 1234").status_code == 410
    assert browser.sign_in("ana@coolair.example", PASSWORD).status_code == 200


def test_an_expired_invitation_link_is_refused_and_a_new_one_works(app, invited, mailbox):
    provider_id, token = invited("late@example.com")
    with app.state.session_factory() as session:
        session.execute(update(PortalToken).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    browser = PortalClient(TestClient(app), provider_id)
    assert browser.choose_password(token, PASSWORD).status_code == 410
    # The forgotten-password form serves an account that never chose one too.
    assert browser.http.post("/api/pro/password/forgot", json={"email": "late@example.com"}).status_code == 202
    fresh = mailbox.token("late@example.com", "reset", count=2)
    assert browser.choose_password(fresh, PASSWORD).status_code == 200


def test_the_invitation_expires_after_72_hours(app, invited):
    invited("clock@example.com")
    with app.state.session_factory() as session:
        [row] = session.scalars(select(PortalToken)).all()
        assert row.expires_at - row.created_at == timedelta(hours=72)
