"""What intake keeps for the quality gate: the form's signals, an address hash, reCAPTCHA's score."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from background_server import serve_in_background

from servicematch.intake.submission import address_key, quality_signals
from servicematch.settings import Settings

from .gate_fixtures import TAB_ID, index, lead_body, settings, stored_lead, submit  # noqa: F401 (fixtures)


def test_the_forms_signals_are_kept_with_the_lead(client, app, index):  # noqa: F811 (the fixtures imported above)
    lead = stored_lead(app, submit(client, lead_body(index, seconds=48.26, honeypot="")))
    assert lead.quality_signals == {"form_seconds": 48.3, "tab_id": TAB_ID, "honeypot": False}
    assert lead.address_hash is not None and lead.address_hash != lead.phone_hash


def test_what_a_bot_typed_in_the_honeypot_is_not_kept(client, app, index):  # noqa: F811 (the fixtures imported above)
    lead = stored_lead(app, submit(client, lead_body(index, honeypot="https://cheap-pills.example")))
    assert lead.quality_signals["honeypot"] is True
    assert "cheap-pills" not in json.dumps(lead.quality_signals)


def test_a_client_that_sends_no_signals_still_works(client, app, index):  # noqa: F811 (the fixtures imported above)
    body = lead_body(index)
    del body["formSignals"]
    lead = stored_lead(app, submit(client, body))
    assert lead.quality_signals is None


@pytest.mark.parametrize("signals", [{"secondsOnForm": -1}, {"tabId": "no"}, {"secondsOnForm": "soon"},
                                     {"honeypot": "x" * 2001}, {"startedAt": 1}])
def test_malformed_signals_are_a_422(client, index, signals):  # noqa: F811 (the fixtures imported above)
    body = {**lead_body(index), "formSignals": signals}
    response = client.post("/api/submit-form", json=body)
    assert response.status_code == 422, response.text


def test_a_retry_with_new_timing_is_the_same_request(client, index):  # noqa: F811 (the fixtures imported above)
    body = lead_body(index, seconds=30.0)
    first = client.post("/api/submit-form", json=body)
    again = client.post("/api/submit-form", json={**body, "formSignals": {**body["formSignals"], "secondsOnForm": 41}})
    assert (first.status_code, again.status_code) == (202, 202)
    assert again.json()["leadId"] == first.json()["leadId"]
    changed = {**body, "consumer": {**body["consumer"], "first": "Marie"}}
    assert client.post("/api/submit-form", json=changed).status_code == 409


def test_the_call_flow_takes_the_signals_too(client, app, index):  # noqa: F811 (the fixtures imported above)
    from intake.payloads import call_flow_payload, call_services

    body = {**call_flow_payload(call_services(index)[0]), "formSignals": {"secondsOnForm": 75.0, "tabId": TAB_ID}}
    response = client.post("/api/call-submit", json=body)
    assert response.status_code == 202, response.text
    lead = stored_lead(app, response.json()["leadId"])
    assert lead.quality_signals == {"form_seconds": 75.0, "tab_id": TAB_ID, "honeypot": False}


def test_spellings_of_one_address_are_one_address():
    austin = {"address1": "500 Congress Avenue", "zip": "78701", "city": "Austin", "state": "TX"}
    assert address_key(austin) == address_key({**austin, "address1": " 500  congress ave. "}) == "500 congress ave|78701"
    assert address_key({**austin, "address1": "500 N. Congress St"}) == address_key(
        {**austin, "address1": "500 North Congress Street"})
    assert address_key({**austin, "zip": ""}) == "500 congress ave|austin,TX"
    assert address_key({**austin, "address1": "  "}) is None
    assert address_key({**austin, "address1": "501 Congress Ave"}) != address_key(austin)


def test_signals_reduced_to_what_the_gate_reads():
    assert quality_signals(None, None) is None
    assert quality_signals(None, 0.9) == {"recaptcha_score": 0.9}
    assert quality_signals({"secondsOnForm": None, "tabId": None, "honeypot": "  "}, None) == {"honeypot": False}


class _SiteVerify(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Answer)


class _Answer(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        body = json.dumps({"success": True, "score": 0.6, "action": "submit"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args) -> None:
        pass


@pytest.fixture
def with_recaptcha(settings: Settings):  # noqa: F811 (the fixture imported above)
    server = _SiteVerify()
    serve_in_background(server)
    yield settings.model_copy(update={
        "recaptcha_secret_key": "secret", "recaptcha_min_score": 0.5,
        "recaptcha_verify_url": f"http://127.0.0.1:{server.server_address[1]}/siteverify"})
    server.shutdown()
    server.server_close()


def test_the_recaptcha_score_is_kept(database_url, with_recaptcha, index):  # noqa: F811 (the fixtures imported above)
    from fastapi.testclient import TestClient

    from servicematch.app import create_app

    application = create_app(with_recaptcha)
    try:
        with TestClient(application) as recaptcha_client:
            body = {**lead_body(index), "recaptchaToken": "token"}
            lead = stored_lead(application, submit(recaptcha_client, body))
        assert lead.quality_signals["recaptcha_score"] == 0.6
    finally:
        application.state.lead_store.stop()
        application.state.engine.dispose()
