"""Buyers' approved returns on the dashboard's revenue: the price comes off on the sale's own day (its
lead's), under its buyer, service, state and source, whether that day is counted or live, the
moment the return is approved; the sale still counts as made. Waiting and denied returns change
nothing, and the buyer's bill for a period loses its approved returns."""

from __future__ import annotations

from datetime import timedelta

from buyer_fixtures import buyer_key, key_client, make_buyer  # noqa: F401 (fixtures)
from sold_leads import sold_lead

from servicematch.buyer.returns import returned_cents
from servicematch.kernel.clock import utcnow
from servicematch.reporting.rollup import roll_up

DAYS_AGO = 3


def _return(client, lead_id: str) -> str:
    answer = client.post(f"/api/buyer/v1/leads/{lead_id}/return", json={"reason": "wrong_phone"})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def _revenue(admin, **filters) -> dict:
    return admin.get("/api/console/dashboard", params=filters).json()["revenue"]


def _by(revenue: dict, group: str) -> dict:
    return {row["key"]: (row["cents"], row["sales"]) for row in revenue[group]}


def test_an_approved_return_comes_off_its_sales_counted_day(admin, app,
                                                            make_buyer, key_client):  # noqa: F811 (fixtures)
    buyer_id, other_id = make_buyer("Acme Leads"), make_buyer("Other Leads")
    system = key_client(buyer_id)
    returned, _ = sold_lead(app, buyer_id, price_cents=4250, days_ago=DAYS_AGO, subid1="spring-sale")
    sold_lead(app, buyer_id, price_cents=1000, days_ago=DAYS_AGO, subid1="spring-sale")
    sold_lead(app, other_id, price_cents=2000, days_ago=DAYS_AGO)
    today, _ = sold_lead(app, other_id, price_cents=990)
    day = (utcnow() - timedelta(days=DAYS_AGO)).date().isoformat()
    roll_up(app.state.session_factory)
    before = _revenue(admin)  # the counted days' part is now kept in memory
    assert (before["cents"], before["sales"]) == (8240, 4)
    pending = _return(system, returned)
    assert _revenue(admin) == before, "a waiting return changes nothing"

    assert admin.post(f"/api/console/returns/{pending}/approve", json={}).status_code == 200
    after = _revenue(admin)
    assert (after["cents"], after["sales"], after["leads"]) == (8240 - 4250, 4, before["leads"])
    assert after["earningsPerLeadCents"] == round((8240 - 4250) / after["leads"])
    per_day = {entry["day"]: (entry["cents"], entry["sales"]) for entry in after["perDay"]}
    assert per_day[day] == (7250 - 4250, 3) and per_day[utcnow().date().isoformat()] == (990, 1)
    assert _by(after, "byBuyer") == {buyer_id: (1000, 2), other_id: (2990, 2)}
    assert _by(after, "bySource") == {"spring-sale": (1000, 2), "website": (2990, 2)}
    assert _by(after, "byService") == {"hvac": (3990, 4)}
    assert _by(after, "byState") == {"TX": (3990, 4)}
    # The lead's filters apply to its return as to its sale.
    assert _revenue(admin, source="spring-sale")["cents"] == 1000
    assert _revenue(admin, source="website")["cents"] == 2990
    # A range without the lead's day leaves its return out, as it leaves out its sale.
    assert _revenue(admin, **{"from": utcnow().date().isoformat()})["cents"] == 990
    # Returning today's lead, a live day, works the same.
    assert admin.post(f"/api/console/returns/{_return(key_client(other_id), today)}/approve",
                      json={}).status_code == 200
    assert _revenue(admin)["cents"] == 8240 - 4250 - 990


def test_a_denied_return_keeps_the_revenue(admin, app, make_buyer, key_client):  # noqa: F811 (fixtures)
    buyer_id = make_buyer()
    lead_id, _ = sold_lead(app, buyer_id, price_cents=3000, days_ago=1)
    before = _revenue(admin)["cents"]
    denied = _return(key_client(buyer_id), lead_id)
    assert admin.post(f"/api/console/returns/{denied}/deny", json={"note": "The number answers."}).status_code == 200
    assert _revenue(admin)["cents"] == before == 3000


def test_a_return_the_records_approve_comes_off_at_once(admin, app, make_buyer, key_client):  # noqa: F811 (fixtures)
    buyer_id = make_buyer()
    lead_id, _ = sold_lead(app, buyer_id, price_cents=3000, is_test=True)
    _return(key_client(buyer_id), lead_id)
    assert _revenue(admin)["cents"] == 0


def test_the_buyers_bill_loses_its_approved_returns(admin, app, make_buyer, key_client):  # noqa: F811 (fixtures)
    buyer_id, other_id = make_buyer(), make_buyer()
    approved, _ = sold_lead(app, buyer_id, price_cents=4250, is_test=True)
    waiting, _ = sold_lead(app, buyer_id, price_cents=1000)
    client = key_client(buyer_id)
    _return(client, approved)
    _return(client, waiting)  # waits: not off the bill
    start, end = utcnow() - timedelta(days=1), utcnow() + timedelta(minutes=1)
    with app.state.session_factory() as session:
        assert returned_cents(session, [buyer_id, other_id], start, end) == {buyer_id: 4250}
        assert returned_cents(session, [buyer_id], end, end + timedelta(days=1)) == {}
        assert returned_cents(session, [], start, end) == {}
