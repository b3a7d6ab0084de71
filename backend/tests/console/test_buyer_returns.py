"""The operators' review queue of buyers' returns: waiting ones oldest first, any operator reads, only
admins decide (a denial with a note the buyer reads), every decision audited, none taken twice; an
approval takes the price off the revenue."""

from __future__ import annotations

from buyer_fixtures import buyer_browser, buyer_key, buyer_person, key_client, make_buyer  # noqa: F401 (fixtures)
from console_api_support import sign_in
from sold_leads import sold_lead
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.console import buyer_returns
from servicematch.console.sessions import CSRF_HEADER
from servicematch.routing.models import Buyer


def _lodge(app, client, buyer_id: str, *, price_cents: int = 3000, reason: str = "wrong_phone", **lead) -> dict:
    lead_id, _ = sold_lead(app, buyer_id, price_cents=price_cents, **lead)
    answer = client.post(f"/api/buyer/v1/leads/{lead_id}/return", json={"reason": reason})
    assert answer.status_code == 201, answer.text
    return answer.json()


def _no_share(app, buyer_id: str) -> None:
    with app.state.session_factory() as session:
        session.get(Buyer, buyer_id).max_return_percent = None
        session.commit()


def test_the_queue_shows_waiting_returns_oldest_first_with_their_buyer(admin, app,
                                                                       make_buyer, key_client):  # noqa: F811 (fixtures)
    buyer_id = make_buyer("Acme Leads")
    _no_share(app, buyer_id)
    system = key_client(buyer_id)
    first = _lodge(app, system, buyer_id, price_cents=4250)
    second = _lodge(app, system, buyer_id, reason="fraud")
    automatic = _lodge(app, system, buyer_id, is_test=True)
    listed = admin.get("/api/console/returns").json()
    assert [item["id"] for item in listed["items"]] == [first["id"], second["id"]]
    assert listed["items"][0] == {**first, "buyerId": buyer_id, "buyerName": "Acme Leads"}
    assert listed["nextCursor"] is None
    approved = admin.get("/api/console/returns", params={"status": "approved"}).json()["items"]
    assert [(item["id"], item["decidedBy"]) for item in approved] == [(automatic["id"], "system")]
    assert admin.get("/api/console/returns", params={"status": "lost"}).status_code == 422


def test_an_admin_approves_and_the_revenue_falls_by_the_price(admin, app,
                                                              make_buyer, key_client):  # noqa: F811 (fixtures)
    buyer_id = make_buyer("Acme Leads")
    system = key_client(buyer_id)
    lodged = _lodge(app, system, buyer_id, price_cents=4250)
    sold_lead(app, buyer_id, price_cents=1000)  # another sale, not returned
    before = admin.get("/api/console/dashboard").json()["revenue"]
    assert before["cents"] == 5250
    approved = admin.post(f"/api/console/returns/{lodged['id']}/approve", json={"note": "Number is dead."})
    assert approved.status_code == 200, approved.text
    operator = admin.get("/api/console/session").json()["operator"]["email"]
    body = approved.json()
    assert (body["status"], body["decidedBy"], body["decisionNote"]) == ("approved", operator, "Number is dead.")
    after = admin.get("/api/console/dashboard").json()["revenue"]
    assert (after["cents"], after["sales"]) == (before["cents"] - 4250, before["sales"])
    assert {row["key"]: row["cents"] for row in after["byBuyer"]} == {buyer_id: 1000}
    # The buyer reads the decision, by portal and by key alike.
    assert system.get("/api/buyer/v1/returns").json()["items"][-1] == {
        key: value for key, value in body.items() if key not in ("buyerId", "buyerName")}
    with app.state.session_factory() as session:
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "return.approve")).one()
    assert (entry.target, entry.operator_email) == (lodged["id"], operator)
    assert entry.detail == {"buyerId": buyer_id, "leadId": lodged["leadId"], "amountCents": 4250,
                            "note": "Number is dead."}
    # Decided once: a second decision, either way, is refused and changes nothing.
    for action, note in (("approve", {}), ("deny", {"note": "No."})):
        again = admin.post(f"/api/console/returns/{lodged['id']}/{action}", json=note)
        assert again.status_code == 409 and "already approved" in again.json()["error"]
    assert admin.get("/api/console/dashboard").json()["revenue"]["cents"] == before["cents"] - 4250
    assert admin.post("/api/console/returns/no-such-return/approve", json={}).status_code == 404


def test_a_denial_needs_a_note_the_buyer_reads(admin, app, make_buyer, buyer_browser):  # noqa: F811 (fixtures)
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    lead_id, _ = sold_lead(app, buyer_id)
    lodged = browser.post(f"/api/buyer/leads/{lead_id}/return", json={"reason": "under_18"}).json()
    for body in ({}, {"note": "   "}, {"note": "x" * 2001}):
        assert admin.post(f"/api/console/returns/{lodged['id']}/deny", json=body).status_code == 422, body
    denied = admin.post(f"/api/console/returns/{lodged['id']}/deny", json={"note": "The DOB says 1980."}).json()
    assert (denied["status"], denied["decisionNote"]) == ("denied", "The DOB says 1980.")
    seen = browser.get("/api/buyer/returns").json()["items"][0]
    assert (seen["status"], seen["decisionNote"]) == ("denied", "The DOB says 1980.")
    assert admin.get("/api/console/dashboard").json()["revenue"]["cents"] == 3000, "a denied return keeps the sale"
    with app.state.session_factory() as session:
        assert session.scalars(select(AuditEntry.action).where(AuditEntry.action.like("return.%"))).all() == [
            "return.deny"]


def test_analysts_read_the_queue_but_only_admins_decide(client, app, add_operator,
                                                        make_buyer, key_client):  # noqa: F811 (fixtures)
    buyer_id = make_buyer()
    lodged = _lodge(app, key_client(buyer_id), buyer_id)
    sign_in(client, add_operator("analyst"))
    assert [item["id"] for item in client.get("/api/console/returns").json()["items"]] == [lodged["id"]]
    assert client.get("/api/console/conversion").status_code == 200
    for action, body in (("approve", {}), ("deny", {"note": "No."})):
        assert client.post(f"/api/console/returns/{lodged['id']}/{action}", json=body).status_code == 403
    sign_in(client, add_operator("admin"))
    refused = client.post(f"/api/console/returns/{lodged['id']}/approve", json={}, headers={CSRF_HEADER: ""})
    assert refused.status_code == 403
    assert client.get("/api/console/returns").json()["items"][0]["status"] == "pending"
    client.cookies.clear()
    assert client.get("/api/console/returns").status_code == 401


def test_decided_returns_newest_first_in_pages(admin, app, monkeypatch,
                                               make_buyer, key_client):  # noqa: F811 (fixtures)
    monkeypatch.setattr(buyer_returns, "PAGE", 2)
    buyer_id = make_buyer()
    _no_share(app, buyer_id)
    system = key_client(buyer_id)
    lodged = [_lodge(app, system, buyer_id)["id"] for _ in range(3)]
    waiting = admin.get("/api/console/returns").json()
    rest = admin.get("/api/console/returns", params={"cursor": waiting["nextCursor"]}).json()
    assert [item["id"] for item in waiting["items"] + rest["items"]] == lodged
    for return_id in lodged:
        assert admin.post(f"/api/console/returns/{return_id}/approve", json={}).status_code == 200
    first = admin.get("/api/console/returns", params={"status": "approved"}).json()
    second = admin.get("/api/console/returns", params={"status": "approved", "cursor": first["nextCursor"]}).json()
    assert [item["id"] for item in first["items"] + second["items"]] == lodged[::-1]
    assert second["nextCursor"] is None
    assert admin.get("/api/console/returns", params={"cursor": "!!"}).status_code == 422
