"""Held leads in the console: the list (newest first, no personal data), an admin's release (a new
pending event the worker routes, woken at once) and rejection (with a note, and the receipt), each
on the audit log, and a 409 for a lead no longer held."""

from __future__ import annotations

import threading

import pytest
from console_api_support import CONTACT, sign_in
from fastapi.testclient import TestClient
from held_lead_support import REASONS, held_lead, judge, pending_events, submit
from sqlalchemy import select

from servicematch.console.models import AuditEntry
from servicematch.delivery.models import Delivery
from servicematch.intake.models import QUALITY_HELD, QUALITY_PASSED, Lead, LeadEvent
from servicematch.kernel import wakeup
from servicematch.privacy.notices import RECEIPT


@pytest.fixture
def settings(settings):
    """The default hold threshold (the suite's conftest turns holds off): the gate holds what it doubts."""
    return settings.model_copy(update={"quality_hold_below": 30})


def _audit(app, action: str) -> list[AuditEntry]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(AuditEntry).where(AuditEntry.action == action)))


def _lead(app, lead_id: str) -> Lead:
    with app.state.session_factory() as session:
        return session.get(Lead, lead_id)


def test_the_list_shows_held_leads_newest_first_with_score_and_reasons_and_no_personal_data(admin, app):
    index = app.state.catalog
    older = held_lead(admin, index, phone="5125550101", subid1="fb-ads", score=20)
    newer = held_lead(admin, index, phone="5125550102", subid1="partner-7", score=5, reasons=["honeypot"])
    passed = submit(admin, index, phone="5125550103")
    judge(app.state.session_factory, passed.id, status=QUALITY_PASSED, score=90, reasons=[])

    answer = admin.get("/api/console/held-leads")
    assert answer.status_code == 200, answer.text
    page = answer.json()
    assert page["total"] == 2 and page["nextCursor"] is None
    assert [item["id"] for item in page["items"]] == [newer.id, older.id]
    first = page["items"][0]
    assert first == {"id": newer.id, "reference": f"{newer.reference[:4]}-{newer.reference[4:]}",
                     "createdAt": first["createdAt"], "vertical": "services", "service": "hvac",
                     "source": "partner-7", "state": "TX", "score": 5, "reasons": ["honeypot"]}
    assert page["items"][1]["reasons"] == REASONS
    for secret in (CONTACT["first"], CONTACT["last"], "maria.garcia", "5125550101", CONTACT["address1"]):
        assert secret not in answer.text


def test_the_list_pages_and_filters_by_service_and_source(admin, app):
    index = app.state.catalog
    leads = [held_lead(admin, index, phone=f"51255501{n:02d}", subid1="fb-ads" if n % 2 else "partner-7")
             for n in range(5)]
    first = admin.get("/api/console/held-leads", params={"limit": 2}).json()
    second = admin.get("/api/console/held-leads", params={"limit": 2, "cursor": first["nextCursor"]}).json()
    third = admin.get("/api/console/held-leads", params={"limit": 2, "cursor": second["nextCursor"]}).json()
    shown = [item["id"] for page in (first, second, third) for item in page["items"]]
    assert shown == [lead.id for lead in reversed(leads)] and third["nextCursor"] is None
    assert first["total"] == second["total"] == 5

    by_source = admin.get("/api/console/held-leads", params={"source": "fb-ads"}).json()
    assert {item["source"] for item in by_source["items"]} == {"fb-ads"} and by_source["total"] == 2
    assert admin.get("/api/console/held-leads", params={"service": "plumbing"}).json() == {
        "items": [], "nextCursor": None, "total": 0}
    assert admin.get("/api/console/held-leads", params={"cursor": "not!base64"}).status_code == 422
    assert admin.get("/api/console/held-leads", params={"limit": 0}).status_code == 422


def test_a_release_routes_the_lead_again_wakes_the_worker_and_is_audited(admin, app, worker, receiver):
    lead = held_lead(admin, app.state.catalog, phone="5125550111")
    assert pending_events(app.state.session_factory, lead.id) == []
    woken = wakeup.subscribe()
    try:
        woken.clear()
        answer = admin.post(f"/api/console/held-leads/{lead.id}/release", json={"note": "  Called: real person. "})
        assert woken.is_set()  # the commit woke this process's worker
    finally:
        wakeup.unsubscribe(woken)
    assert answer.status_code == 200, answer.text
    decided = answer.json()
    assert decided["qualityStatus"] == "released" and decided["note"] == "Called: real person."
    assert decided["decidedBy"].startswith("admin-") and decided["id"] == lead.id
    (event,) = pending_events(app.state.session_factory, lead.id)
    assert event.type == "lead.accepted" and event.attempts == 0 and event.claimed_until is None
    assert _lead(app, lead.id).quality_status == "released"
    (entry,) = _audit(app, "lead.release")
    assert entry.target == lead.id and entry.operator_email == decided["decidedBy"]
    assert entry.detail == {"reference": decided["reference"], "score": 12, "reasons": REASONS,
                            "note": "Called: real person."}

    worker.run_until_idle()
    assert pending_events(app.state.session_factory, lead.id) == []
    # Routed: the fixed buyer (SERVICEMATCH_BUYER_URL) took the lead.
    assert [item["body"].get("requestId") for item in receiver.received] == [lead.request_id]


def test_a_rejection_needs_a_note_routes_nothing_queues_the_receipt_and_is_audited(admin, app, worker, receiver):
    lead = held_lead(admin, app.state.catalog, phone="5125550112")
    for body in ({}, {"note": "   "}, {"note": "x" * 2001}, {"note": "ok", "extra": 1}):
        assert admin.post(f"/api/console/held-leads/{lead.id}/reject", json=body).status_code == 422
    assert _lead(app, lead.id).quality_status == QUALITY_HELD

    answer = admin.post(f"/api/console/held-leads/{lead.id}/reject", json={"note": "Bot: form filled in 1 s."})
    assert answer.status_code == 200, answer.text
    assert answer.json()["qualityStatus"] == "rejected" and answer.json()["note"] == "Bot: form filled in 1 s."
    assert pending_events(app.state.session_factory, lead.id) == []
    (entry,) = _audit(app, "lead.reject")
    assert entry.target == lead.id and entry.detail["note"] == "Bot: form filled in 1 s."
    with app.state.session_factory() as session:
        (receipt,) = session.scalars(select(Delivery).where(Delivery.lead_id == lead.id,
                                                            Delivery.payload_kind == RECEIPT))
        assert receipt.status == "pending"
        assert session.scalar(select(LeadEvent.done_at).where(LeadEvent.lead_id == lead.id)) is not None
    worker.run_until_idle()
    assert receiver.received == []  # sold to nobody


def test_a_lead_not_held_any_more_is_a_409_and_nothing_changes(admin, app):
    index = app.state.catalog
    lead = held_lead(admin, index, phone="5125550113")
    assert admin.post(f"/api/console/held-leads/{lead.id}/release", json={}).status_code == 200
    for action, body in (("release", {}), ("reject", {"note": "Too late."})):
        answer = admin.post(f"/api/console/held-leads/{lead.id}/{action}", json=body)
        assert answer.status_code == 409, answer.text
        assert answer.json() == {"error": "This lead was released already.", "fields": {"qualityStatus": "released"}}
    assert len(pending_events(app.state.session_factory, lead.id)) == 1
    assert len(_audit(app, "lead.release")) == 1 and _audit(app, "lead.reject") == []

    never_held = submit(admin, index, phone="5125550114")
    answer = admin.post(f"/api/console/held-leads/{never_held.id}/reject", json={"note": "No."})
    assert answer.status_code == 409
    assert answer.json()["fields"] == {"qualityStatus": "not judged"}
    missing = admin.post("/api/console/held-leads/no-such-lead/release", json={})
    assert missing.status_code == 404
    assert admin.post(f"/api/console/held-leads/{'x' * 37}/release", json={}).status_code == 422
    assert admin.post("/api/console/held-leads/a%00b/reject", json={"note": "No."}).status_code == 422
    assert admin.get("/api/console/held-leads", params={"source": "fb\x00"}).status_code == 422


def test_two_admins_deciding_at_once_get_one_decision_and_one_409(app, client, add_operator):
    lead = held_lead(client, app.state.catalog, phone="5125550115")
    clients = [TestClient(app), TestClient(app)]
    for each in clients:
        sign_in(each, add_operator("admin"))
    start = threading.Barrier(2)
    answers: list = [None, None]

    def decide(n: int) -> None:
        start.wait()
        answers[n] = (clients[n].post(f"/api/console/held-leads/{lead.id}/release", json={}) if n == 0 else
                      clients[n].post(f"/api/console/held-leads/{lead.id}/reject", json={"note": "Fake."}))

    threads = [threading.Thread(target=decide, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    status = _lead(app, lead.id).quality_status
    assert status == ("released" if answers[0].status_code == 200 else "rejected")
    assert len(_audit(app, "lead.release")) + len(_audit(app, "lead.reject")) == 1
    assert len(pending_events(app.state.session_factory, lead.id)) == (1 if status == "released" else 0)


def test_analysts_read_the_list_but_only_admins_decide(analyst, app):
    lead = held_lead(analyst, app.state.catalog, phone="5125550116")
    assert analyst.get("/api/console/held-leads").json()["total"] == 1
    for action, body in (("release", {}), ("reject", {"note": "No."})):
        assert analyst.post(f"/api/console/held-leads/{lead.id}/{action}", json=body).status_code == 403
    assert _lead(app, lead.id).quality_status == QUALITY_HELD


@pytest.mark.parametrize("path", ["/api/console/held-leads"])
def test_signed_out_callers_are_refused(client, path):
    assert client.get(path).status_code == 401


def test_a_lead_the_gate_holds_waits_in_the_list_until_released_then_is_sold(admin, app, worker, receiver):
    # 555-0100 to 555-0199 are fictional numbers: the gate scores such a lead under the hold threshold.
    lead = submit(admin, app.state.catalog, phone="5125550142")
    worker.run_until_idle()
    stored = _lead(app, lead.id)
    assert stored.quality_status == QUALITY_HELD and receiver.received == [], (stored.quality_score, stored.quality_reasons)
    (listed,) = admin.get("/api/console/held-leads").json()["items"]
    assert listed["id"] == lead.id and listed["score"] < app.state.settings.quality_hold_below
    assert "phone_fake" in listed["reasons"]

    assert admin.post(f"/api/console/held-leads/{lead.id}/release", json={}).status_code == 200
    worker.run_until_idle()
    assert [item["body"].get("requestId") for item in receiver.received] == [lead.request_id]
    assert admin.get("/api/console/held-leads").json()["total"] == 0
