"""The server refuses, with nothing changed: no session (401), wrong role (403), no CSRF token (403)."""

from __future__ import annotations

import pytest
from console_api_support import hvac_payload, sign_in
from sqlalchemy import func, select

from servicematch.console.models import AuditEntry
from servicematch.console.sessions import CSRF_HEADER
from servicematch.delivery.models import Delivery, Provider
from servicematch.routing.models import Buyer

NEW_PROVIDER = {"name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"]}
NEW_BUYER = {"name": "Bright Leads", "postUrl": "https://buyer.example/post", "price": 20}
X = "00000000-0000-0000-0000-000000000000"

READS = ["/api/console/session", "/api/console/dashboard", "/api/console/leads", f"/api/console/leads/{X}",
         "/api/console/leads.csv", "/api/console/deliveries", "/api/console/deliveries/counts",
         "/api/console/providers", "/api/console/audit",
         "/api/console/buyers", f"/api/console/buyers/{X}/bids", "/api/console/credits"]
CHANGES = [("post", f"/api/console/deliveries/{X}/retry", None), ("post", "/api/console/deliveries/retry", {"ids": [X]}),
           ("post", "/api/console/providers", NEW_PROVIDER), ("patch", f"/api/console/providers/{X}", {"name": "B"}),
           ("post", f"/api/console/providers/{X}/disable", None), ("post", f"/api/console/providers/{X}/enable", None),
           ("post", f"/api/console/providers/{X}/test-send", None),
           ("post", "/api/console/buyers", NEW_BUYER), ("patch", f"/api/console/buyers/{X}", {"name": "B"}),
           ("post", f"/api/console/buyers/{X}/pause", None), ("post", f"/api/console/buyers/{X}/resume", None),
           ("post", f"/api/console/buyers/{X}/test-ping", None), ("post", f"/api/console/buyers/{X}/test-post", None),
           ("post", f"/api/console/credits/{X}/approve", {}), ("post", f"/api/console/credits/{X}/deny", {"note": "No"}),
           ("delete", "/api/console/session", None)]
ADMIN_ONLY = [("get", "/api/console/leads.csv", None)] + [c for c in CHANGES if c[1] != "/api/console/session"]


def _call(client, method: str, path: str, body):
    return client.request(method.upper(), path, json=body) if body is not None else client.request(method.upper(), path)


def _counts(app) -> tuple[int, int, int]:
    with app.state.session_factory() as session:
        return (session.scalar(select(func.count()).select_from(Provider)) +
                session.scalar(select(func.count()).select_from(Buyer)),
                session.scalar(select(func.count()).select_from(AuditEntry)),
                session.scalar(select(func.count()).select_from(Delivery).where(Delivery.status == "pending")))


@pytest.mark.parametrize("path", READS)
def test_reads_without_a_session_are_401(client, path):
    answer = client.get(path)
    assert answer.status_code == 401
    assert answer.json() == {"error": "Sign in to use the console.", "fields": {}}


@pytest.mark.parametrize(("method", "path", "body"), CHANGES)
def test_changes_without_a_session_are_401_and_change_nothing(client, app, method, path, body):
    before = _counts(app)
    assert _call(client, method, path, body).status_code == 401
    assert _counts(app) == before


@pytest.mark.parametrize(("method", "path", "body"), ADMIN_ONLY)
def test_analysts_get_403_from_admin_routes_and_change_nothing(analyst, app, method, path, body):
    before = _counts(app)
    answer = _call(analyst, method, path, body)
    assert answer.status_code == 403
    assert answer.json()["error"] == "Only an admin may do this."
    assert _counts(app) == before


@pytest.mark.parametrize(("method", "path", "body"), CHANGES)
def test_changes_without_the_csrf_token_are_403_and_change_nothing(admin, app, method, path, body):
    del admin.headers[CSRF_HEADER]
    before = _counts(app)
    answer = _call(admin, method, path, body)
    assert answer.status_code == 403
    assert "X-CSRF-Token" in answer.json()["error"]
    assert _counts(app) == before
    assert admin.get("/api/console/session").status_code == 200  # still signed in: sign-out needs the token too


def test_another_sessions_csrf_token_does_not_do(client, app, add_operator):
    first = sign_in(client, add_operator("admin"))["csrfToken"]
    sign_in(client, add_operator("admin"))
    client.headers[CSRF_HEADER] = first
    before = _counts(app)
    assert client.post("/api/console/providers", json=NEW_PROVIDER).status_code == 403
    assert _counts(app) == before


def test_analysts_see_masked_leads_and_their_look_is_not_logged_as_a_view(analyst, app):
    analyst.post("/api/submit-form", json=hvac_payload(app.state.catalog))
    (item,) = analyst.get("/api/console/leads").json()["items"]
    assert (item["name"], item["email"], item["phone"]) == ("M*** G***", "m***@example.com", "(***) ***-0142")
    detail = analyst.get(f"/api/console/leads/{item['id']}").json()
    assert detail["email"] == "m***@example.com" and detail["consent"]["ip"] == "(hidden)"
    with app.state.session_factory() as session:
        actions = session.scalars(select(AuditEntry.action)).all()
    assert "lead.view" not in actions


def test_admins_see_personal_data_and_each_look_is_audited(admin, app):
    admin.post("/api/submit-form", json=hvac_payload(app.state.catalog))
    (item,) = admin.get("/api/console/leads").json()["items"]
    assert (item["name"], item["email"], item["phone"]) == ("Maria Garcia", "maria.garcia@example.com", "5125550142")
    detail = admin.get(f"/api/console/leads/{item['id']}").json()
    assert detail["consent"]["textSha256"] and detail["consent"]["ip"]
    audit = admin.get("/api/console/audit").json()["items"]
    assert audit[0]["action"] == "lead.view" and audit[0]["target"] == item["id"]
