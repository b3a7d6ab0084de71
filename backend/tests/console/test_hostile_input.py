"""Control characters in what an operator (or anyone) sends the console: a clear 422, on both databases."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from servicematch.console.models import AuditEntry


@pytest.mark.parametrize("email", ["\x00", "admin@example.com\x00", "a\r\nb@example.com"])
def test_sign_in_refuses_control_characters_and_writes_nothing(client, app, email):
    def audit_entries() -> int:
        with app.state.session_factory() as session:
            return session.scalar(select(func.count()).select_from(AuditEntry))

    before = audit_entries()
    answer = client.post("/api/console/session", json={"email": email, "password": "whatever"})
    assert answer.status_code == 422
    assert "control characters" in answer.json()["fields"]["email"]
    assert audit_entries() == before


@pytest.mark.parametrize(("path", "parameter"), [
    ("/api/console/dashboard", "source"), ("/api/console/dashboard", "service"),
    ("/api/console/leads", "q"), ("/api/console/leads", "state"), ("/api/console/leads", "from"),
    ("/api/console/deliveries", "status"), ("/api/console/audit", "cursor"),
])
def test_filters_with_control_characters_are_refused_by_name(admin, path, parameter):
    answer = admin.get(path, params={parameter: "tx\x00"})
    assert answer.status_code == 422
    assert list(answer.json()["fields"]) == [parameter]
    assert "control characters" in answer.json()["fields"][parameter]
    assert admin.get(path).status_code == 200


@pytest.mark.parametrize(("method", "path", "parameter"), [
    ("post", "/api/console/deliveries/a%00b/retry", "delivery_id"),
    ("get", "/api/console/leads/a%00b", "lead_id"),
    ("patch", "/api/console/providers/p%01/", "provider_id"),
    ("post", "/api/console/providers/p%00/disable", "provider_id"),
    ("post", "/api/console/providers/p%00/enable", "provider_id"),
    ("post", "/api/console/providers/%00/test-send", "provider_id"),
])
def test_ids_in_the_path_with_control_characters_are_refused_by_name(admin, method, path, parameter):
    answer = admin.request(method.upper(), path.rstrip("/"), json={})
    assert answer.status_code == 422
    assert answer.json()["fields"] == {parameter: "Remove control characters (such as line breaks or NUL) from this field"}


def test_ids_in_a_body_with_control_characters_are_refused_by_name(admin):
    answer = admin.post("/api/console/deliveries/retry", json={"ids": ["fine", "a\x00b"]})
    assert answer.status_code == 422
    assert "control characters" in answer.json()["fields"]["ids.1"]


@pytest.mark.parametrize(("path", "params", "field"), [
    ("/api/console/audit", {"cursor": "9" * 20}, "cursor"),  # past a 64-bit integer: was a 500
    ("/api/console/leads", {"from": "20261123"}, "from"),  # a day is written 2026-11-23, nothing else
    ("/api/console/dashboard", {"to": "2026-W48-1"}, "to"),
    ("/api/console/leads", {"status": "lost"}, "status"),
])
def test_filters_take_exactly_the_documented_forms(admin, path, params, field):
    answer = admin.get(path, params=params)
    assert answer.status_code == 422
    assert field in answer.json()["fields"]


@pytest.mark.parametrize(("path", "params"), [
    ("/api/console/leads", {"to": "9999-12-31"}), ("/api/console/leads", {"from": "0001-01-01"}),
    ("/api/console/leads.csv", {"to": "9999-12-31"}), ("/api/console/dashboard", {"to": "0001-01-01"}),
    ("/api/console/dashboard", {"from": "9999-12-31", "to": "9999-12-31"}),
])
def test_the_first_and_last_days_of_the_calendar_are_filters_like_any_other(admin, path, params):
    # A day after 9999-12-31 or 30 days before 0001-01-01 cannot be computed: that was a 500.
    assert admin.get(path, params=params).status_code == 200


def test_the_schema_says_what_the_filters_take_and_what_the_export_answers(client):
    schema = client.get("/openapi.json").json()
    export = schema["paths"]["/api/console/leads.csv"]["get"]
    assert list(export["responses"]["200"]["content"]) == ["text/csv"]
    assert list(export["responses"]["422"]["content"]) == ["application/json"]
    parameters = {p["name"]: p["schema"] for p in export["parameters"]}
    assert {"type": "string", "format": "date"} in parameters["from"]["anyOf"]
    assert parameters["status"]["enum"] == ["", "pending", "delivered", "rejected", "failed", "skipped", "unsent"]
    audit = {p["name"]: p["schema"] for p in schema["paths"]["/api/console/audit"]["get"]["parameters"]}
    assert audit["cursor"]["anyOf"][0]["pattern"] == "^[0-9]{0,18}$"
    for path, operations in schema["paths"].items():
        if path.startswith(("/api/privacy/", "/api/address/suggest", "/api/submit-form")):
            assert all("429" in operation["responses"] for operation in operations.values()), path
