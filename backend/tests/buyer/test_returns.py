"""Returns, from the buyer's side: within the buyer's window, never for a buyer that takes none, once
per lead, within the maximum return share (refused with its figures); a test lead or a duplicate of
a lead this buyer already bought approved at once, the rest waiting; another buyer's lead a 404
with nothing in it, by portal and by key."""

from __future__ import annotations

from datetime import timedelta

from sold_leads import sell, sold_lead, store_lead
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.access.sessions import CSRF_HEADER
from servicematch.buyer import returns, router_returns
from servicematch.buyer.models import LeadReturn, ReturnStatus
from servicematch.kernel.clock import utcnow
from servicematch.portal.ledger import month_start
from servicematch.routing.models import Buyer, Sale


def _terms(app, buyer_id: str, **columns) -> None:
    with app.state.session_factory() as session:
        buyer = session.get(Buyer, buyer_id)
        for name, value in columns.items():
            setattr(buyer, name, value)
        session.commit()


def _return(client, lead_id: str, reason: str = "wrong_phone", prefix: str = "/api/buyer", **body):
    return client.post(f"{prefix}/leads/{lead_id}/return", json={"reason": reason, **body})


def _stored(app) -> list[LeadReturn]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(LeadReturn).order_by(LeadReturn.created_at)))


def test_a_return_waits_for_an_operator_is_audited_and_listed(app, make_buyer, buyer_browser, key_client):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    lead_id, sale_id = sold_lead(app, buyer_id, price_cents=4250, days_ago=1)
    answer = _return(browser, lead_id, "wrong_phone", note="  Disconnected number.  ")
    assert answer.status_code == 201, answer.text
    lodged = answer.json()
    assert {key: lodged[key] for key in ("leadId", "reason", "note", "status", "price", "requestedBy", "decidedBy",
                                         "decidedAt", "decisionNote")} == {
        "leadId": lead_id, "reason": "wrong_phone", "note": "Disconnected number.", "status": "pending",
        "price": 42.5, "requestedBy": browser.person.email, "decidedBy": None, "decidedAt": None,
        "decisionNote": None}
    assert len(lodged["leadReference"]) == 9 and lodged["leadReference"][4] == "-"
    [row] = _stored(app)
    assert (row.sale_id, row.buyer_id, row.amount_cents) == (sale_id, buyer_id, 4250)
    with app.state.session_factory() as session:
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "buyer.return.lodge")).one()
    assert (entry.target, entry.operator_email) == (buyer_id, browser.person.email)
    assert entry.detail == {"returnId": row.id, "leadId": lead_id, "reason": "wrong_phone", "status": "pending",
                            "amountCents": 4250}
    # Listed by the portal and by a key, of its status and of all; not among another status's.
    system = key_client(buyer_id)
    for client, prefix in ((browser, "/api/buyer"), (system, "/api/buyer/v1")):
        assert client.get(f"{prefix}/returns").json() == {"items": [lodged], "nextCursor": None}
        assert client.get(f"{prefix}/returns", params={"status": "pending"}).json()["items"] == [lodged]
        assert client.get(f"{prefix}/returns", params={"status": "approved"}).json()["items"] == []
    assert browser.get("/api/buyer/returns", params={"status": "lost"}).status_code == 422
    # Once per lead, whoever asks again.
    again = _return(system, lead_id, "fraud", prefix="/api/buyer/v1")
    assert again.status_code == 409 and "already returned" in again.json()["error"]
    assert len(_stored(app)) == 1


def test_a_key_returns_a_lead_in_its_own_name_without_a_csrf_token(app, make_buyer, key_client, buyer_browser):
    buyer_id = make_buyer()
    lead_id, _sale = sold_lead(app, buyer_id)
    answer = _return(key_client(buyer_id), lead_id, "other", prefix="/api/buyer/v1", note="Says she never asked.")
    assert answer.status_code == 201, answer.text
    assert answer.json()["requestedBy"] == "key:integration"
    # A browser's change without its CSRF token is refused, and nothing is stored.
    other_id, _ = sold_lead(app, buyer_id)
    browser = buyer_browser(buyer_id)
    refused = browser.post(f"/api/buyer/leads/{other_id}/return", json={"reason": "fraud"}, headers={CSRF_HEADER: ""})
    assert refused.status_code == 403
    assert [row.lead_id for row in _stored(app)] == [lead_id]


def test_another_buyers_lead_is_not_found_with_nothing_in_it(app, make_buyer, buyer_browser, key_client):
    mine, theirs = make_buyer(), make_buyer()
    their_lead, _ = sold_lead(app, theirs)
    never_sold = store_lead(app).id
    browser, system = buyer_browser(mine), key_client(mine)
    for lead_id in (their_lead, never_sold, "00000000-0000-0000-0000-000000000000"):
        for client, prefix in ((browser, "/api/buyer"), (system, "/api/buyer/v1")):
            for path, body in (("return", {"reason": "fraud"}), ("feedback", {"status": "contacted"})):
                answer = client.post(f"{prefix}/leads/{lead_id}/{path}", json=body)
                assert (answer.status_code, answer.content) == (404, b""), (prefix, path)
    assert _stored(app) == []
    # Their own returns are theirs alone.
    assert _return(key_client(theirs), their_lead, prefix="/api/buyer/v1").status_code == 201
    assert browser.get("/api/buyer/returns").json()["items"] == []
    assert system.get("/api/buyer/v1/returns").json()["items"] == []


def test_other_needs_a_note_and_the_reason_is_one_of_the_list(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    lead_id, _ = sold_lead(app, buyer_id)
    answer = _return(browser, lead_id, "other", note="   ")
    assert answer.status_code == 422 and "note" in answer.json()["fields"]
    assert _return(browser, lead_id, "changed my mind").status_code == 422
    assert _return(browser, lead_id, "fraud", note="x" * 2001).status_code == 422
    assert _return(browser, lead_id, "fraud", extra=1).status_code == 422
    assert _stored(app) == []


def test_within_the_window_and_not_a_second_after(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    _terms(app, buyer_id, max_return_percent=None)  # the share is another test's
    late, _ = sold_lead(app, buyer_id, days_ago=8)
    in_time, _ = sold_lead(app, buyer_id, days_ago=6)
    refused = _return(browser, late)
    assert refused.status_code == 422
    assert "return window of 7 days" in refused.json()["error"] and refused.json()["fields"]["reason"]
    assert _return(browser, in_time).status_code == 201
    # The buyer's own window: 10 days lets the older one back.
    _terms(app, buyer_id, return_window_days=10)
    assert _return(browser, late).status_code == 201


def test_the_window_ends_to_the_second(app, make_buyer):
    buyer_id = make_buyer()
    _lead, sale_id = sold_lead(app, buyer_id)
    with app.state.session_factory() as session:
        buyer, sale = session.get(Buyer, buyer_id), session.get(Sale, sale_id)
        until = returns.returnable_until(buyer, sale)
        assert until == sale.created_at.replace(tzinfo=until.tzinfo) + timedelta(days=7)
        assert returns.return_problem(session, buyer, sale, until) is None
        assert "ended on" in returns.return_problem(session, buyer, sale, until + timedelta(seconds=1))


def test_a_buyer_that_takes_no_returns(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    _terms(app, buyer_id, return_window_days=0)
    lead_id, _ = sold_lead(app, buyer_id)
    answer = _return(buyer_browser(buyer_id), lead_id)
    assert answer.status_code == 422 and answer.json()["error"] == "This buyer takes no returns."
    assert _stored(app) == []


def _bought_last_month(app, buyer_id: str, count: int) -> None:
    """`count` sales to the buyer in the middle of last calendar month (UTC)."""
    last_month = month_start(month_start(utcnow()) - timedelta(days=1)) + timedelta(days=10)
    for _ in range(count):
        sell(app, store_lead(app).id, buyer_id, at=last_month)


def test_a_return_past_the_maximum_share_is_refused_with_its_figures(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    _terms(app, buyer_id, max_return_percent=20)
    _bought_last_month(app, buyer_id, 10)
    browser = buyer_browser(buyer_id)
    leads = [sold_lead(app, buyer_id)[0] for _ in range(4)]
    assert [_return(browser, lead_id).status_code for lead_id in leads[:2]] == [201, 201]
    refused = _return(browser, leads[2])
    assert refused.status_code == 422, refused.text
    month = month_start(month_start(utcnow()) - timedelta(days=1))
    assert refused.json()["error"] == (
        f"This return would pass the maximum return share of 20%: 2 of at most 2 returns lodged this month, "
        f"against 10 leads bought in {month:%B %Y}.")
    # A denied return frees its place; no maximum lets every return through.
    with app.state.session_factory() as session:
        session.scalars(select(LeadReturn)).first().status = ReturnStatus.DENIED
        session.commit()
    assert _return(browser, leads[2]).status_code == 201
    assert _return(browser, leads[3]).status_code == 422
    _terms(app, buyer_id, max_return_percent=None)
    assert _return(browser, leads[3]).status_code == 201


def test_without_sales_last_month_the_share_is_of_the_last_30_days(app, make_buyer):
    buyer_id = make_buyer()
    now = month_start(utcnow()) + timedelta(days=20)  # sales of the days before it stay in its month
    for days_ago in (1, 2, 3, 55):  # 55: before last month, and before the 30 days
        sell(app, store_lead(app).id, buyer_id, at=now - timedelta(days=days_ago))
    with app.state.session_factory() as session:
        share = returns.return_share(session, session.get(Buyer, buyer_id), now)
    # 15% of 3 rounds down to none: at least one while the percent is above zero.
    assert (share.percent, share.used, share.allowed, share.bought, share.bought_when) == (
        15, 0, 1, 3, "in the last 30 days")


def test_a_test_lead_is_approved_at_once(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    lead_id, _ = sold_lead(app, buyer_id, is_test=True)
    answer = _return(buyer_browser(buyer_id), lead_id, "fraud")
    assert answer.status_code == 201
    body = answer.json()
    assert (body["status"], body["decidedBy"], body["decisionNote"]) == (
        "approved", "system", "Approved automatically: the lead was a test.")
    assert body["decidedAt"] is not None


def test_a_duplicate_of_a_lead_this_buyer_bought_is_approved_at_once(app, make_buyer, buyer_browser):
    buyer_id, other_id = make_buyer(), make_buyer()
    _terms(app, buyer_id, max_return_percent=None)  # the share is another test's
    browser = buyer_browser(buyer_id)
    # The same consumer (e-mail) twice for HVAC, on two phones: intake did not call it a duplicate.
    sold_lead(app, buyer_id, email="maria@example.com", days_ago=2)
    again, _ = sold_lead(app, buyer_id, email="Maria@Example.com")
    approved = _return(browser, again, "duplicate").json()
    assert (approved["status"], approved["decidedBy"]) == ("approved", "system")
    assert "already bought this consumer's request" in approved["decisionNote"]
    # Bought first by another buyer only: nothing proves it, so it waits.
    sold_lead(app, other_id, email="ann@example.com", days_ago=2)
    theirs_first, _ = sold_lead(app, buyer_id, email="ann@example.com")
    assert _return(browser, theirs_first, "duplicate").json()["status"] == "pending"
    # The same consumer for another service is another request.
    sold_lead(app, buyer_id, email="bob@example.com", days_ago=2)
    other_service, _ = sold_lead(app, buyer_id, email="bob@example.com", service=("roofing", "services"))
    assert _return(browser, other_service, "duplicate").json()["status"] == "pending"


def test_a_buyers_own_duplicate_rule_decides_which_returns_the_records_approve(app, make_buyer, buyer_browser):
    """A buyer whose rule is "same e-mail, any service, within 60 days" has a duplicate approved
    where the site's 30-day same-service window would not, and one outside its own rule waits."""
    buyer_id = make_buyer()
    _terms(app, buyer_id, max_return_percent=None, duplicate_days=60, duplicate_match="email", duplicate_scope="all")
    browser = buyer_browser(buyer_id)
    # 45 days apart and another service: only the buyer's rule calls it a duplicate.
    sold_lead(app, buyer_id, email="maria@example.com", days_ago=45)
    again, _ = sold_lead(app, buyer_id, email="maria@example.com", service=("roofing", "services"))
    approved = _return(browser, again, "duplicate").json()
    assert (approved["status"], approved["decidedBy"]) == ("approved", "system")
    assert approved["decisionNote"] == ("Approved automatically: you had already bought this consumer's request, "
                                        "a duplicate by your rule (same e-mail, any service, within 60 days).")
    # Past its own window, though within a year: it waits for an operator.
    sold_lead(app, buyer_id, email="ann@example.com", days_ago=70)
    too_old, _ = sold_lead(app, buyer_id, email="ann@example.com")
    assert _return(browser, too_old, "duplicate").json()["status"] == "pending"
    # The same phone, another e-mail: its rule matches e-mails only, so this waits too.
    sold_lead(app, buyer_id, email="bob@example.com", phone="5125559876", days_ago=3)
    same_phone, _ = sold_lead(app, buyer_id, email="robert@example.com", phone="5125559876")
    assert _return(browser, same_phone, "duplicate").json()["status"] == "pending"


def test_the_share_neither_counts_nor_refuses_what_the_records_approve(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    _terms(app, buyer_id, max_return_percent=0)
    browser = buyer_browser(buyer_id)
    plain, _ = sold_lead(app, buyer_id)
    test_lead, _ = sold_lead(app, buyer_id, is_test=True)
    sold_lead(app, buyer_id, email="maria@example.com", days_ago=1)
    duplicate, _ = sold_lead(app, buyer_id, email="maria@example.com")
    assert "maximum return share of 0%" in _return(browser, plain).json()["error"]
    assert [_return(browser, lead_id).json()["status"] for lead_id in (test_lead, duplicate)] == ["approved"] * 2
    with app.state.session_factory() as session:
        assert returns.return_share(session, session.get(Buyer, buyer_id), utcnow()).used == 0


def test_the_list_pages_newest_first(app, make_buyer, buyer_browser, monkeypatch):
    monkeypatch.setattr(router_returns, "PAGE", 2)
    buyer_id = make_buyer()
    _terms(app, buyer_id, max_return_percent=None)
    browser = buyer_browser(buyer_id)
    lodged = [_return(browser, sold_lead(app, buyer_id)[0]).json()["id"] for _ in range(3)]
    first = browser.get("/api/buyer/returns").json()
    second = browser.get("/api/buyer/returns", params={"cursor": first["nextCursor"]}).json()
    assert [item["id"] for item in first["items"] + second["items"]] == lodged[::-1]
    assert second["nextCursor"] is None
    assert browser.get("/api/buyer/returns", params={"cursor": "not-a-cursor"}).status_code == 422


def test_every_listed_reason_is_taken(app, make_buyer, key_client):
    buyer_id = make_buyer()
    _terms(app, buyer_id, max_return_percent=None)
    system = key_client(buyer_id)
    reasons = ["wrong_phone", "duplicate", "fraud", "under_18", "outside_filters"]
    taken = [_return(system, sold_lead(app, buyer_id)[0], reason, prefix="/api/buyer/v1").json()["reason"]
             for reason in reasons]
    assert taken == reasons
