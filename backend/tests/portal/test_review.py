"""Operators review applications in the console (approve: an invitation; reject: a reason, e-mailed),
invite directly, send an invitation again, and check licences for the verified badge; all audited."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient
from portal_support import PASSWORD, PortalClient, body
from sqlalchemy import select
from test_applications import APPLICATION

from servicematch.access.models import AuditEntry
from servicematch.console import accounts as operator_accounts
from servicematch.delivery.models import Provider, ProviderMode
from servicematch.portal.models import ProviderApplication


def _console(client, csrf: str, method: str, path: str, body: dict | None = None):
    return client.request(method, f"/api/console{path}", json=body, headers={"X-CSRF-Token": csrf})


def _applied(client, mailbox, email: str = "ana@coolair.example", confirm: bool = True) -> str:
    assert client.post("/api/partner/applications", json={**APPLICATION, "email": email}).status_code == 202
    if confirm:
        token = mailbox.token(email, "confirm-email")
        assert client.post("/api/partner/applications/confirm", json={"token": token}).status_code == 200
    return client.get("/api/console/applications", params={"status": "pending" if confirm else "unconfirmed"}
                      ).json()["items"][0]["id"]


def _audit(app) -> list[str]:
    with app.state.session_factory() as session:
        return [e.action for e in session.scalars(select(AuditEntry).order_by(AuditEntry.id))]


@pytest.fixture
def analyst(app):
    email = f"analyst-{uuid.uuid4().hex[:8]}@example.com"
    with app.state.session_factory() as session:
        operator_accounts.add_operator(session, email=email, role="analyst", password=PASSWORD)
        session.commit()
    browser = TestClient(app)
    answer = browser.post("/api/console/session", json={"email": email, "password": PASSWORD})
    return browser, answer.json()["csrfToken"]


def test_the_whole_join_apply_confirm_approve_invite_password_signed_in(app, client, operator, mailbox):
    application_id = _applied(client, mailbox)
    [listed] = client.get("/api/console/applications").json()["items"]
    assert (listed["status"], listed["email"], listed["phone"], listed["licenceNumber"]) == (
        "pending", "ana@coolair.example", "5125550142", "TACLA12345C")
    approved = _console(client, operator, "POST", f"/applications/{application_id}/approve")
    assert approved.status_code == 200, approved.text
    decision = approved.json()
    assert decision["application"]["status"] == "approved" and decision["email"] == {"sent": True, "error": None}
    with app.state.session_factory() as session:
        provider = session.get(Provider, decision["application"]["providerId"])
        assert (provider.mode, provider.auto_accept, provider.verified_at, provider.contact_name, provider.phone,
                provider.licence_number, provider.zips, provider.radius_miles) == (
            ProviderMode.REVIEW, False, None, "Ana Ruiz", "5125550142", "TACLA12345C", ["78701", "78702"], 25.0)
    invitation = body(mailbox.to("ana@coolair.example")[-1])
    assert "Hello Ana Ruiz" in invitation and "72 hours" in invitation
    browser = PortalClient(TestClient(app), provider.id)
    signed_in = browser.choose_password(mailbox.token("ana@coolair.example", "welcome", count=2), PASSWORD)
    assert signed_in.status_code == 200 and signed_in.json()["provider"]["name"] == "Cool Air LLC"
    assert browser.get(browser.me).json()["verified"] is False
    assert "application.approve" in _audit(app)
    again = _console(client, operator, "POST", f"/applications/{application_id}/approve")
    assert again.status_code == 409 and "approved already" in again.json()["error"]


def test_an_unconfirmed_application_is_kept_apart_and_cannot_be_approved(client, operator, mailbox):
    application_id = _applied(client, mailbox, confirm=False)
    assert client.get("/api/console/applications").json()["items"] == []
    refused = _console(client, operator, "POST", f"/applications/{application_id}/approve")
    assert refused.status_code == 409 and "not confirmed" in refused.json()["error"]
    assert client.get("/api/console/applications", params={"status": "nope"}).status_code == 422


def test_rejecting_needs_a_reason_which_is_mailed(app, client, operator, mailbox):
    application_id = _applied(client, mailbox)
    assert _console(client, operator, "POST", f"/applications/{application_id}/reject", {"reason": ""}).status_code == 422
    rejected = _console(client, operator, "POST", f"/applications/{application_id}/reject",
                        {"reason": "We do not serve Travis County yet."})
    assert rejected.status_code == 200 and rejected.json()["application"]["status"] == "rejected"
    assert "We do not serve Travis County yet." in body(mailbox.to("ana@coolair.example")[-1])
    assert "application.reject" in _audit(app)
    with app.state.session_factory() as session:
        assert session.scalars(select(Provider)).all() == []
        assert session.scalars(select(ProviderApplication)).one().decided_by.startswith("admin-")


def test_analysts_see_applications_masked_and_change_nothing(client, operator, analyst, mailbox):
    application_id = _applied(client, mailbox)
    browser, csrf = analyst
    [seen] = browser.get("/api/console/applications").json()["items"]
    assert (seen["email"], seen["phone"], seen["contactName"]) == ("a***@coolair.example", "***-***-0142", "A*** R***")
    for path in (f"/applications/{application_id}/approve", f"/applications/{application_id}/reject"):
        assert _console(browser, csrf, "POST", path, {"reason": "x"}).status_code == 403
    assert _console(browser, csrf, "POST", "/providers/invite", {}).status_code == 403


def test_an_operator_invites_from_the_console_and_can_send_the_link_again(app, client, operator, mailbox):
    refused = _console(client, operator, "POST", "/providers/invite", {"email": "x", "services": ["plumbing"]})
    assert refused.status_code == 422 and {"email", "name", "services", "zips"} <= set(refused.json()["fields"])
    invited = _console(client, operator, "POST", "/providers/invite", {
        "email": "roof@example.com", "name": "Top Roofs", "services": ["roofing"], "states": ["TX", "CA"]})
    assert invited.status_code == 201, invited.text
    provider = invited.json()["provider"]
    assert (provider["mode"], provider["portalAccount"], provider["states"], provider["verified"]) == (
        "review", "invited", ["CA", "TX"], False)
    first = mailbox.token("roof@example.com", "welcome")
    again = _console(client, operator, "POST", f"/providers/{provider['id']}/invite-again")
    assert again.status_code == 200 and again.json()["email"]["sent"] is True
    second = mailbox.token("roof@example.com", "welcome", count=2)
    browser = PortalClient(TestClient(app), provider["id"])
    assert browser.choose_password(first, PASSWORD).status_code == 410  # the older link stopped working
    assert browser.choose_password(second, PASSWORD).status_code == 200
    assert _console(client, operator, "POST", f"/providers/{provider['id']}/invite-again").status_code == 409
    [listed] = client.get("/api/console/providers").json()["items"]
    assert listed["portalAccount"] == "active"
    duplicate = _console(client, operator, "POST", "/providers/invite", {
        "email": "ROOF@example.com", "name": "Again", "services": ["roofing"], "zips": ["78701"], "radiusMiles": 10})
    assert duplicate.status_code == 409
    assert _audit(app).count("provider.invite") == 1 and "provider.invite_again" in _audit(app)


def test_the_verified_badge_waits_for_an_operators_licence_check(app, client, operator, provider, analyst):
    browser = provider()
    assert browser.get(browser.me).json()["verified"] is False
    viewer, csrf = analyst
    assert _console(viewer, csrf, "POST", f"/providers/{browser.provider_id}/licence-checked").status_code == 403
    checked = _console(client, operator, "POST", f"/providers/{browser.provider_id}/licence-checked")
    assert checked.status_code == 200 and checked.json()["verified"] is True
    assert browser.get(browser.me).json()["verified"] is True
    with app.state.session_factory() as session:
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "provider.licence_checked")).one()
        assert (entry.target, entry.detail) == (browser.provider_id, {"licenceNumber": "TACLA12345C",
                                                                      "licenceState": "TX"})
    unlicensed = provider(services=["roofing"], licence_number=None, licence_state=None)
    assert _console(client, operator, "POST",
                    f"/providers/{unlicensed.provider_id}/licence-checked").status_code == 409
