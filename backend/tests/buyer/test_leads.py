"""The leads a buyer bought: its own only, newest first, filtered, in pages, and as CSV, by the
portal's session and by an API key alike."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from buyer.sales_support import add_feedback, add_return, sell
from servicematch.buyer.models import ReturnStatus
from servicematch.kernel.clock import utcnow


def ids(answer) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [row["id"] for row in answer.json()["items"]]


def test_a_buyer_lists_only_its_own_leads_newest_first_by_session_and_by_key(app, make_buyer, buyer_browser,
                                                                             key_client):
    mine, theirs = make_buyer(), make_buyer()
    now = utcnow()
    old = sell(app, mine, at=now - timedelta(hours=2), price_cents=4250, exclusive=True)
    new = sell(app, mine, at=now - timedelta(minutes=1), service="roofing", category="Roofing", state="FL",
               zip_code="33101")
    other = sell(app, theirs, at=now)

    browser, key = buyer_browser(mine), key_client(mine)
    for answer in (browser.get("/api/buyer/leads"), key.get("/api/buyer/v1/leads"), key.get("/api/buyer/leads"),
                   browser.get("/api/buyer/v1/leads")):
        assert ids(answer) == [new.lead_id, old.lead_id]
        assert answer.json()["nextCursor"] is None
    first, second = browser.get("/api/buyer/leads").json()["items"]
    assert second == {"id": old.lead_id, "reference": old.reference, "boughtAt": second["boughtAt"],
                      "vertical": "services", "service": "hvac", "serviceName": second["serviceName"],
                      "state": "TX", "zip": "78701", "price": 42.5, "exclusive": True, "status": "sold",
                      "feedback": None}
    assert datetime.fromisoformat(second["boughtAt"]) == old.at.replace(microsecond=0)
    assert second["serviceName"] and first["service"] == "roofing" and first["state"] == "FL"
    # The other buyer sees its own lead and nothing of these.
    assert ids(key_client(theirs).get("/api/buyer/v1/leads")) == [other.lead_id]


def test_no_session_or_a_wrong_key_reads_nothing(app, make_buyer, client):
    sell(app, make_buyer())
    assert client.get("/api/buyer/leads").status_code == 401
    assert client.get("/api/buyer/v1/leads", headers={"Authorization": "Bearer smk_made_up"}).status_code == 401
    assert "items" not in client.get("/api/buyer/v1/leads.csv").text


def test_status_and_feedback_come_from_the_returns_and_the_newest_feedback(app, make_buyer, buyer_browser):
    buyer = make_buyer()
    now = utcnow()
    plain, pending, approved, denied = (sell(app, buyer, at=now - timedelta(minutes=n)) for n in range(4))
    add_return(app, pending, buyer, ReturnStatus.PENDING)
    add_return(app, approved, buyer, ReturnStatus.APPROVED)
    add_return(app, denied, buyer, ReturnStatus.DENIED)
    add_feedback(app, plain, buyer, "contacted", at=now - timedelta(minutes=5))
    add_feedback(app, plain, buyer, "quoted", at=now - timedelta(minutes=1))
    browser = buyer_browser(buyer)

    rows = {row["id"]: row for row in browser.get("/api/buyer/leads").json()["items"]}
    assert [rows[s.lead_id]["status"] for s in (plain, pending, approved, denied)] == [
        "sold", "return_pending", "returned", "return_denied"]
    assert [rows[s.lead_id]["feedback"] for s in (plain, pending)] == ["quoted", None]
    for status, expected in (("sold", plain), ("return_pending", pending), ("returned", approved),
                             ("return_denied", denied)):
        assert ids(browser.get("/api/buyer/leads", params={"status": status})) == [expected.lead_id]


def test_filters_by_day_service_and_state(app, make_buyer, key_client):
    buyer = make_buyer()
    day = datetime(2026, 3, 10, 12, tzinfo=UTC)
    before = sell(app, buyer, at=day - timedelta(days=1))
    first = sell(app, buyer, at=day.replace(hour=0, minute=0, second=1))
    last = sell(app, buyer, at=day.replace(hour=23, minute=59, second=59), service="roofing", state="FL")
    after = sell(app, buyer, at=day + timedelta(days=1), service="debt-relief", vertical="legal", state="CA")
    key = key_client(buyer)

    def listed(**params) -> list[str]:
        return ids(key.get("/api/buyer/v1/leads", params=params))

    assert listed(**{"from": "2026-03-10", "to": "2026-03-10"}) == [last.lead_id, first.lead_id]
    assert listed(**{"from": "2026-03-11"}) == [after.lead_id]
    assert listed(to="2026-03-09") == [before.lead_id]
    assert listed(service="roofing") == [last.lead_id]
    assert listed(service="legal/debt-relief") == [after.lead_id] == listed(service="debt-relief")
    assert listed(service="services/debt-relief") == []
    assert listed(state="fl") == [last.lead_id]
    assert listed(state="TX", **{"from": "2026-03-10"}) == [first.lead_id]


@pytest.mark.parametrize("params, field", [
    ({"from": "2026-13-01"}, "from"), ({"to": "20260301"}, "to"), ({"from": "2026-03-02", "to": "2026-03-01"}, "to"),
    ({"state": "ZZ"}, "state"), ({"status": "lost"}, "status"), ({"limit": 0}, "limit"), ({"limit": 101}, "limit"),
    ({"cursor": "bm90IGEgY3Vyc29y"}, "cursor"), ({"cursor": "!!"}, "cursor"),
    ({"cursor": "MjAyNi0wMS0wMVQwMDowMDowMCswMDowMHwAeA"}, "cursor"),  # a NUL in its id: PostgreSQL refuses one
    ({"service": "x" * 101}, "service"),
])
def test_a_filter_that_cannot_be_used_is_a_422_naming_it(app, make_buyer, buyer_browser, params, field):
    answer = buyer_browser(make_buyer()).get("/api/buyer/leads", params=params)
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]


def test_pages_follow_one_another_without_a_gap_or_a_repeat(app, make_buyer, buyer_browser):
    buyer = make_buyer()
    now = utcnow()
    same_moment = now - timedelta(minutes=3)
    sold = [sell(app, buyer, at=now - timedelta(minutes=n)) for n in range(3)]
    sold += [sell(app, buyer, at=same_moment) for _ in range(4)]  # ties: the id decides
    browser = buyer_browser(buyer)

    seen, cursor, pages = [], None, 0
    while True:
        page = browser.get("/api/buyer/leads", params={"limit": 2, **({"cursor": cursor} if cursor else {})}).json()
        seen += [row["id"] for row in page["items"]]
        pages += 1
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert pages == 4 and len(seen) == len(set(seen)) == 7
    assert set(seen) == {s.lead_id for s in sold}
    assert seen[:3] == [s.lead_id for s in sold[:3]]


def csv_rows(answer) -> list[dict]:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["cache-control"] == "no-store"
    return list(csv.DictReader(io.StringIO(answer.text)))


def test_the_csv_has_the_lists_columns_and_filters_and_nothing_else(app, make_buyer, buyer_browser, key_client):
    buyer, other = make_buyer(), make_buyer()
    now = utcnow()
    hvac = sell(app, buyer, at=now - timedelta(minutes=2), price_cents=1999)
    roofing = sell(app, buyer, at=now - timedelta(minutes=1), service="roofing", state="FL")
    sell(app, other, at=now)
    add_feedback(app, hvac, buyer, "bad", reason="wrong number")
    browser = buyer_browser(buyer)

    listed = browser.get("/api/buyer/leads").json()["items"]
    rows = csv_rows(browser.get("/api/buyer/leads.csv"))
    assert list(rows[0]) == ["id", "reference", "boughtAt", "vertical", "service", "serviceName", "state", "zip",
                             "price", "exclusive", "status", "feedback"]
    assert [row["id"] for row in rows] == [row["id"] for row in listed] == [roofing.lead_id, hvac.lead_id]
    assert rows[1] == {**{key: str(value) for key, value in listed[1].items() if key not in ("price", "exclusive")},
                       "price": "19.99", "exclusive": "no", "feedback": "bad"}
    by_key = csv_rows(key_client(buyer).get("/api/buyer/v1/leads.csv", params={"state": "FL"}))
    assert [row["id"] for row in by_key] == [roofing.lead_id]
    assert csv_rows(browser.get("/api/buyer/leads.csv", params={"status": "returned"})) == []
    assert browser.get("/api/buyer/leads.csv", params={"from": "yesterday"}).status_code == 422


def test_the_csv_reads_every_page(app, make_buyer, buyer_browser, monkeypatch):
    from servicematch.buyer import leads

    monkeypatch.setattr(leads, "EXPORT_PAGE", 2)
    buyer = make_buyer()
    now = utcnow()
    sold = [sell(app, buyer, at=now - timedelta(minutes=n % 3)) for n in range(5)]
    rows = csv_rows(buyer_browser(buyer).get("/api/buyer/leads.csv"))
    assert sorted(row["id"] for row in rows) == sorted(s.lead_id for s in sold)


def test_an_erased_leads_row_keeps_the_sale_without_the_place(app, make_buyer, buyer_browser):
    buyer = make_buyer()
    erased = sell(app, buyer, state=None, zip_code=None)
    [row] = buyer_browser(buyer).get("/api/buyer/leads").json()["items"]
    assert (row["id"], row["state"], row["zip"], row["price"]) == (erased.lead_id, None, None, 30.0)


def test_a_revoked_key_reads_nothing(app, make_buyer, buyer_key):
    from sqlalchemy import update

    from servicematch.buyer.models import BuyerApiKey

    buyer = make_buyer()
    sell(app, buyer)
    key = buyer_key(buyer)
    http = TestClient(app, headers={"Authorization": f"Bearer {key}"})
    assert http.get("/api/buyer/v1/leads").status_code == 200
    with app.state.session_factory() as session:
        session.execute(update(BuyerApiKey).values(revoked_at=utcnow()))
        session.commit()
    assert http.get("/api/buyer/v1/leads").status_code == 401
