"""Input that must never be stored as given: control characters, and personal data in URLs."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from servicematch.inbound.validation import CONTROL_CHARACTERS_REFUSED
from servicematch.intake.models import Lead

from .payloads import call_flow_payload, call_services, field_with, lead_form_payload, with_answer


def hvac(index):
    return index.find("hvac", "services")


def lead_count(app) -> int:
    with app.state.session_factory() as session:
        return session.scalar(select(func.count()).select_from(Lead))


def stored(app, lead_id: str) -> Lead:
    with app.state.session_factory() as session:
        query = select(Lead).options(selectinload(Lead.consent)).where(Lead.id == lead_id)
        return session.scalars(query).one()


@pytest.mark.parametrize("value", ["Austin\r\nBcc: victim@example.com", "Aus\x00tin", "Austin\x1b[31m",
                                   "Austin\ttx", "Austin\x7f", "Austin\u2028", "Austin\x85"])
@pytest.mark.parametrize("key", ["city", "first", "address1", "email"])
def test_control_characters_in_a_consumer_field_are_refused_naming_it(client, app, index, key, value):
    response = client.post("/api/submit-form", json=with_answer(lead_form_payload(hvac(index)), key, value))
    assert response.status_code == 422, response.text
    assert response.json()["fields"] == {f"consumer.{key}": CONTROL_CHARACTERS_REFUSED}
    assert lead_count(app) == 0


def test_a_lone_surrogate_is_refused_not_a_database_error(client, app, index):
    # json.dumps escapes the surrogate as \ud800, as a hostile client would send it.
    payload = lead_form_payload(hvac(index))
    body = json.dumps(with_answer(payload, "last", "Garcia\ud800"))
    response = client.post("/api/submit-form", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert "consumer.last" in response.json()["fields"]
    assert lead_count(app) == 0


def test_a_textarea_answer_keeps_its_line_breaks_but_not_other_controls(client, app, index):
    service = hvac(index)
    key = field_with(service, type="textarea").mapping
    accepted = with_answer(lead_form_payload(service), key, "Upstairs unit.\r\nNo cooling\tat all.")
    assert client.post("/api/submit-form", json=accepted).status_code == 202
    refused = with_answer(lead_form_payload(service), key, "Upstairs\x1b]0;pwned\x07")
    response = client.post("/api/submit-form", json=refused)
    assert response.status_code == 422
    assert f"consumer.{key}" in response.json()["fields"]


def test_a_call_flow_answer_with_a_line_break_is_refused(client, app, index):
    service = call_services(index)[0]
    payload = call_flow_payload(service)
    first_key = next(iter(payload["answers"]))
    payload["answers"][first_key] = "Ann\nLee"
    response = client.post("/api/call-submit", json=payload)
    assert response.status_code == 422, response.text
    assert any(field.startswith("answers") for field in response.json()["fields"])
    assert lead_count(app) == 0


def test_validate_refuses_control_characters_clearly(client):
    response = client.post("/api/validate", json={"type": "email", "value": "a@example.com\r\nBcc: b@x.io"})
    assert response.status_code == 422
    assert response.json()["fields"] == {"value": CONTROL_CHARACTERS_REFUSED}


def test_nul_in_the_page_url_and_user_agent_is_stripped_and_stored(client, app, index):
    payload = lead_form_payload(hvac(index))
    payload["click"]["domain_url"] = "https://servicematch.example/services/hvac\x00?subid1=a\x01b"
    payload["click"]["useragent"] = "Agent\x00/1.0"
    response = client.post("/api/submit-form", json=payload, headers={"User-Agent": ""})
    assert response.status_code == 202, response.text
    lead = stored(app, response.json()["leadId"])
    assert lead.click["domain_url"] == "https://servicematch.example/services/hvac?subid1=ab"
    assert lead.consent.page_url == "https://servicematch.example/services/hvac?subid1=ab"
    assert lead.consent.user_agent == "Agent/1.0"


def test_personal_parameters_never_reach_the_stored_page_url(client, app, index):
    payload = lead_form_payload(hvac(index))
    payload["click"]["domain_url"] = ("https://servicematch.example/form/hvac?first=Maria&EMAIL=maria%40example.com"
                                      "&phone=5125550142&subid1=abc&address1=500+Congress&zip=78701&utm_source=fb"
                                      "&last_name=Garcia#email=maria@example.com")
    response = client.post("/api/submit-form", json=payload)
    assert response.status_code == 202, response.text
    lead = stored(app, response.json()["leadId"])
    expected = "https://servicematch.example/form/hvac?subid1=abc&utm_source=fb"
    assert lead.click["domain_url"] == expected
    assert lead.consent.page_url == expected


def test_an_unreadable_page_url_is_dropped_not_refused(client, app, index):
    payload = lead_form_payload(hvac(index))
    payload["click"]["domain_url"] = "http://[::1/form?email=maria@example.com"
    response = client.post("/api/submit-form", json=payload)
    assert response.status_code == 202, response.text
    assert stored(app, response.json()["leadId"]).consent.page_url is None


@pytest.mark.parametrize("path", ["/api/privacy/stop/preview", "/api/privacy/stop"])
def test_a_stop_token_with_non_ascii_characters_is_a_clear_400(client, path):
    response = client.post(path, json={"token": "0.é"})
    assert response.status_code == 400, response.text
    assert "token" in response.json()["fields"]
    # A control character (U+0080) is refused before the token is read, like every body id.
    controlled = client.post(path, json={"token": "0.\x80é"})
    assert controlled.status_code == 422 and "token" in controlled.json()["fields"]
