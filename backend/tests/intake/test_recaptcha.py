"""reCAPTCHA: off without a secret; with one, every token is checked with a (local, real) provider."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import pytest
from background_server import serve_in_background
from sqlalchemy import func, select

from servicematch.intake.models import Lead

from .payloads import lead_form_payload

FAILED = "reCAPTCHA verification failed. Please try again."
# What the provider answers for each token the tests send.
VERDICTS = {
    "human": {"success": True, "score": 0.9, "action": "submit"},
    "bot": {"success": True, "score": 0.1, "action": "submit"},
    "other-action": {"success": True, "score": 0.9, "action": "login"},
    "expired": {"success": False, "error-codes": ["timeout-or-duplicate"]},
}


class SiteVerify(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.received: list[dict[str, list[str]]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/recaptcha/api/siteverify"


class _Handler(BaseHTTPRequestHandler):
    server: SiteVerify

    def do_POST(self) -> None:
        form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        self.server.received.append(form)
        if form["response"] == ["provider-down"]:
            self.send_response(503)
            self.end_headers()
            return
        body = json.dumps(VERDICTS.get(form["response"][0], {"success": False})).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args) -> None:
        pass


@pytest.fixture
def provider() -> Iterator[SiteVerify]:
    server = SiteVerify()
    serve_in_background(server)
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def settings(settings, provider):
    return settings.model_copy(update={"recaptcha_secret_key": "server-secret", "recaptcha_verify_url": provider.url})


def submit(client, index, token: str | None):
    payload = lead_form_payload(index.find("hvac", "services"))
    if token is None:
        del payload["recaptchaToken"]
    else:
        payload["recaptchaToken"] = token
    return client.post("/api/submit-form", json=payload)


def test_a_human_token_is_accepted_and_verified_with_the_secret(client, index, provider):
    assert submit(client, index, "human").status_code == 202
    assert provider.received == [{"secret": ["server-secret"], "response": ["human"], "remoteip": ["testclient"]}]


@pytest.mark.parametrize("token", [None, "", "bot", "other-action", "expired", "unknown", "provider-down"])
def test_missing_or_failed_tokens_are_refused(client, app, index, token):
    response = submit(client, index, token)
    assert response.status_code == 400
    assert response.json() == {"error": FAILED, "fields": {"recaptchaToken": FAILED}}
    with app.state.session_factory() as session:
        assert session.scalar(select(func.count()).select_from(Lead)) == 0


def test_an_unreachable_provider_refuses_rather_than_waves_through(client, app, index, settings):
    app.state.settings = settings.model_copy(update={"recaptcha_verify_url": "http://127.0.0.1:9/siteverify"})
    assert submit(client, index, "human").status_code == 400


def test_a_replayed_request_needs_no_second_verification(client, index, provider):
    payload = lead_form_payload(index.find("hvac", "services"))
    first = client.post("/api/submit-form", json={**payload, "recaptchaToken": "human"})
    # Tokens are single-use: a retry of an accepted request carries a token the provider would refuse.
    again = client.post("/api/submit-form", json={**payload, "recaptchaToken": "expired"})
    assert again.status_code == 202 and again.json() == first.json()
    assert len(provider.received) == 1


def test_without_a_secret_the_check_is_off_and_said_once_at_start(app, settings, caplog):
    from servicematch.app import create_app

    with caplog.at_level("WARNING", logger="servicematch.intake"):
        create_app(settings.model_copy(update={"recaptcha_secret_key": ""})).state.engine.dispose()
    notices = [r.getMessage() for r in caplog.records if "reCAPTCHA is off" in r.getMessage()]
    assert len(notices) == 1
