"""A new SERVICEMATCH_SECRET_KEY with the earlier one in SERVICEMATCH_SECRET_KEYS_OLD: what the earlier
secret signed (stop links, privacy codes, lead status tokens, CSRF tokens, known-device cookies)
keeps working until it expires; what is signed now is signed with the new secret only."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from encrypted_rows import new_key
from fastapi.testclient import TestClient
from lead_payloads import hvac_payload

from servicematch.access import devices, sessions
from servicematch.app import create_app
from servicematch.console.sessions import CONSOLE, CONSOLE_DEVICE
from servicematch.errors import ServiceMatchError
from servicematch.intake.status_token import STATUS_TOKEN_HEADER, status_token, status_token_matches
from servicematch.kernel.clock import utcnow
from servicematch.privacy import codes, links
from servicematch.privacy.models import PrivacyRequest
from servicematch.settings import Settings

BEFORE, AFTER = "the-secret-before-the-rotation-0123456789", "the-secret-after-the-rotation-9876543210"


@pytest.fixture
def settings(database_url: str, static_dir: Path) -> Settings:
    return Settings(environment="test", database_url=database_url, static_dir=static_dir, secret_key=BEFORE, data_key=new_key(),
                    worker_enabled=False, submit_rate_limit=10_000)


def rotated(settings: Settings, *earlier: str) -> Settings:
    return settings.model_copy(update={"secret_key": AFTER, "secret_keys_old": ",".join(earlier)})


def test_a_stop_link_mailed_before_the_rotation_works_until_it_expires(settings):
    now = utcnow()
    link = links.sign_link(settings=settings, purpose="stop", lead_id="lead-1", now=now)
    assert links.read_link(settings=rotated(settings, BEFORE), token=link, purpose="stop", now=now).lead_id == "lead-1"
    with pytest.raises(ServiceMatchError) as expired:
        links.read_link(settings=rotated(settings, BEFORE), token=link, purpose="stop",
                        now=now + links.STOP_LINK_LIFETIME + timedelta(seconds=1))
    assert expired.value.status_code == 410
    with pytest.raises(ServiceMatchError, match="not valid"):  # the earlier secret dropped
        links.read_link(settings=rotated(settings), token=link, purpose="stop", now=now)
    fresh = links.sign_link(settings=rotated(settings, BEFORE), purpose="stop", lead_id="lead-1", now=now)
    with pytest.raises(ServiceMatchError, match="not valid"):  # signed with the new secret, not the old
        links.read_link(settings=settings, token=fresh, purpose="stop", now=now)


def test_a_code_mailed_before_the_rotation_is_accepted(app, settings):
    now = utcnow()
    with app.state.session_factory() as session:
        request = PrivacyRequest(id="request-1", kind="access", channel="web", contact_key="email:x", due_at=now)
        session.add(request)
        session.flush()
        code = codes.issue_code(session=session, settings=settings, request=request, now=now)
        session.commit()
    with app.state.session_factory() as session:
        with pytest.raises(ServiceMatchError, match="not right"):
            codes.check_code(session=session, settings=rotated(settings), request_id="request-1", code=code, now=now)
        codes.check_code(session=session, settings=rotated(settings, BEFORE), request_id="request-1", code=code,
                         now=now)
        session.commit()


def test_status_tokens_csrf_tokens_and_known_devices_from_before_are_accepted(settings):
    after = rotated(settings, BEFORE)
    token = status_token(settings, "lead-1")
    assert status_token_matches(after, "lead-1", token)
    assert not status_token_matches(rotated(settings), "lead-1", token)
    assert status_token(after, "lead-1") == status_token(rotated(settings), "lead-1") != token

    csrf = sessions.csrf_token_for(settings, CONSOLE, "session-token")
    assert sessions.csrf_matches(after, CONSOLE, "session-token", csrf)
    assert not sessions.csrf_matches(rotated(settings), CONSOLE, "session-token", csrf)
    assert not sessions.csrf_matches(after, CONSOLE, "session-token", "é" + csrf[1:])

    now = utcnow()
    cookie = devices.issue(settings, CONSOLE_DEVICE, account_id="operator-1", now=now)
    assert devices.recognised(after, CONSOLE_DEVICE, cookie, account_id="operator-1", not_before=None, now=now)
    assert devices.recognised(rotated(settings), CONSOLE_DEVICE, cookie, account_id="operator-1", not_before=None,
                              now=now) is None


@contextmanager
def site(settings: Settings):
    application = create_app(settings)
    try:
        with TestClient(application) as client:
            yield application, client
    finally:
        application.state.lead_store.stop()
        application.state.engine.dispose()


def test_the_thank_you_page_of_a_lead_sent_before_the_rotation_still_reads_its_status(app, client, settings):
    body = hvac_payload(app.state.catalog)
    token = client.post("/api/submit-form", json=body).json()["statusToken"]
    status = f"/api/leads/{body['requestId']}/status"
    with site(rotated(settings, BEFORE)) as (_, after):
        assert after.get(status, headers={STATUS_TOKEN_HEADER: token}).status_code == 200
        submitted = hvac_payload(app.state.catalog, phone="5125550199")
        new_token = after.post("/api/submit-form", json=submitted).json()["statusToken"]
    assert client.get(f"/api/leads/{submitted['requestId']}/status",
                      headers={STATUS_TOKEN_HEADER: new_token}).status_code == 404  # the old secret did not sign it
    with site(rotated(settings)) as (_, dropped):
        assert dropped.get(status, headers={STATUS_TOKEN_HEADER: token}).status_code == 404
