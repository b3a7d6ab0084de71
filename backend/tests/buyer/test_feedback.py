"""Feedback: what became of a lead, from the portal or the API, on a lead the buyer bought only; bad
needs a reason; several over time, the newest counting; each on the audit log."""

from __future__ import annotations

from sold_leads import sold_lead
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.buyer import feedback
from servicematch.buyer.models import LeadFeedback


def _give(client, lead_id: str, prefix: str = "/api/buyer", **body):
    return client.post(f"{prefix}/leads/{lead_id}/feedback", json=body)


def _rows(app) -> list[LeadFeedback]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(LeadFeedback).order_by(LeadFeedback.created_at)))


def test_feedback_from_the_portal_and_from_a_key_newest_first(app, make_buyer, buyer_browser, key_client):
    buyer_id = make_buyer()
    browser, system = buyer_browser(buyer_id), key_client(buyer_id)
    lead_id, sale_id = sold_lead(app, buyer_id)
    contacted = _give(browser, lead_id, status="contacted", note="Left a voicemail.")
    assert contacted.status_code == 201, contacted.text
    body = contacted.json()
    assert {key: body[key] for key in ("status", "reason", "note", "source", "givenBy")} == {
        "status": "contacted", "reason": None, "note": "Left a voicemail.", "source": "portal",
        "givenBy": browser.person.email}
    quoted = _give(system, lead_id, "/api/buyer/v1", status="quoted").json()
    assert (quoted["source"], quoted["givenBy"]) == ("api", "key:integration")
    sold = _give(system, lead_id, "/api/buyer/v1", status="sold", note="Signed for a heat pump.").json()
    assert sold["createdAt"] >= quoted["createdAt"] >= body["createdAt"]
    with app.state.session_factory() as session:
        assert [row.status for row in feedback.feedback_of(session, [sale_id])[sale_id]] == ["sold", "quoted",
                                                                                            "contacted"]
        assert feedback.latest_statuses(session, [sale_id, "no-such-sale"]) == {sale_id: "sold"}
        audited = list(session.scalars(select(AuditEntry).where(AuditEntry.action == "buyer.feedback.give")
                                       .order_by(AuditEntry.id)))
    assert [(entry.target, entry.operator_email, entry.detail["status"]) for entry in audited] == [
        (buyer_id, browser.person.email, "contacted"), (buyer_id, "key:integration", "quoted"),
        (buyer_id, "key:integration", "sold")]
    assert all(row.buyer_id == buyer_id and row.lead_id == lead_id for row in _rows(app))


def test_bad_needs_a_reason_and_the_words_are_bounded(app, make_buyer, key_client):
    buyer_id = make_buyer()
    system = key_client(buyer_id)
    lead_id, _ = sold_lead(app, buyer_id)
    v1 = "/api/buyer/v1"
    for body in ({"status": "bad"}, {"status": "bad", "reason": "   "}):
        answer = _give(system, lead_id, v1, **body)
        assert answer.status_code == 422 and "reason" in answer.json()["fields"], body
    for body in ({"status": "bought"}, {"status": "bad", "reason": "x" * 201}, {"status": "bad", "reason": "a\x00b"},
                 {"status": "sold", "note": "x" * 2001}, {"status": "sold", "price": 10}, {}):
        assert _give(system, lead_id, v1, **body).status_code == 422, body
    assert _rows(app) == []
    bad = _give(system, lead_id, v1, status="bad", reason="Wrong number").json()
    assert (bad["status"], bad["reason"]) == ("bad", "Wrong number")


def test_a_lead_takes_only_so_much_feedback(app, make_buyer, key_client, monkeypatch):
    monkeypatch.setattr(feedback, "MAX_PER_LEAD", 2)
    buyer_id = make_buyer()
    system = key_client(buyer_id)
    lead_id, _ = sold_lead(app, buyer_id)
    answers = [_give(system, lead_id, "/api/buyer/v1", status="contacted").status_code for _ in range(3)]
    assert answers == [201, 201, 409]
    assert len(_rows(app)) == 2


def test_only_on_a_lead_this_buyer_bought(app, make_buyer, buyer_browser, key_client):
    mine, theirs = make_buyer(), make_buyer()
    their_lead, _ = sold_lead(app, theirs)
    for client, prefix in ((buyer_browser(mine), "/api/buyer"), (key_client(mine), "/api/buyer/v1")):
        answer = _give(client, their_lead, prefix, status="sold")
        assert (answer.status_code, answer.content) == (404, b"")
    assert _rows(app) == []
    assert _give(key_client(theirs), their_lead, "/api/buyer/v1", status="sold").status_code == 201
