"""A buyer's settings in its portal and API: what it may change and how it is checked, the operator's
locks, pause and resume, the audit log with who changed what, and nothing of another buyer's."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from servicematch.access.models import AuditEntry, add_audit_entry
from servicematch.access.sessions import CSRF_HEADER
from servicematch.routing.models import Buyer

PING = {"ping_url": "https://buyer.example/ping", "price_cents": None}
HOURS = "Mon-Fri 08:00-18:00 America/Chicago"


def stored(app, buyer_id: str) -> Buyer:
    with app.state.session_factory() as session:
        return session.get(Buyer, buyer_id)


def audit_of(client, **query) -> list[dict]:
    answer = client.get("/api/buyer/audit", params=query)
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


def test_the_settings_as_the_portal_and_a_key_read_them(make_buyer, buyer_browser, key_client):
    buyer_id = make_buyer("Bright Leads", services=["services/hvac"], states=["TX"], daily_cap=20,
                          monthly_budget_cents=100_000, hours=HOURS, locked_fields=["price"], return_window_days=5,
                          max_return_percent=None)
    by_person = buyer_browser(buyer_id).get("/api/buyer/settings")
    by_key = key_client(buyer_id).get("/api/buyer/v1/settings")
    assert by_person.status_code == by_key.status_code == 200
    assert by_person.json() == by_key.json() == {
        "name": "Bright Leads", "mode": "fixed price", "pingUrl": None, "postUrl": "https://buyer.example/leads",
        "services": ["services/hvac"], "states": ["TX"], "zips": [], "dailyCap": 20, "monthlyBudget": 1000.0,
        "hours": HOURS, "paused": False, "bidFloor": None, "price": 30.0, "exclusive": False, "locked": ["price"],
        "returnWindowDays": 5, "maxReturnPercent": None, "secretOverlapUntil": None,
        "minQuality": None, "duplicateDays": None, "duplicateMatch": "phone", "duplicateScope": "service"}
    assert "secret" not in by_person.text.replace("secretOverlapUntil", "")


def test_each_caller_sees_and_changes_only_its_own_buyer(app, make_buyer, buyer_browser, key_client):
    mine, theirs = make_buyer("Mine"), make_buyer("Theirs")
    browser = buyer_browser(mine)
    assert browser.get("/api/buyer/settings").json()["name"] == "Mine"
    assert key_client(theirs).get("/api/buyer/v1/settings").json()["name"] == "Theirs"
    assert browser.patch("/api/buyer/settings", json={"dailyCap": 7}).status_code == 200
    assert (stored(app, mine).daily_cap, stored(app, theirs).daily_cap) == (7, None)
    assert key_client(theirs).get("/api/buyer/v1/audit").json()["items"] == []


def test_a_change_is_saved_normalised_and_on_the_log_with_who_made_it(app, make_buyer, buyer_browser, key_client):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    answer = browser.patch("/api/buyer/settings", json={
        "services": ["hvac", "roofing"], "states": ["tx", " ok"], "zips": ["78701"], "dailyCap": 25,
        "monthlyBudget": 1500.5, "hours": HOURS, "price": 32.25})
    assert answer.status_code == 200, answer.text
    settings = answer.json()
    assert settings["services"] == ["services/hvac", "services/roofing"] and settings["states"] == ["TX", "OK"]
    assert (settings["dailyCap"], settings["monthlyBudget"], settings["price"]) == (25, 1500.5, 32.25)
    row = stored(app, buyer_id)
    assert (row.price_cents, row.monthly_budget_cents, row.hours) == (3225, 150_050, HOURS)

    system = key_client(buyer_id)
    assert system.patch("/api/buyer/v1/settings", json={"dailyCap": None, "zips": []}).status_code == 200
    newest, first = audit_of(browser)
    assert (newest["who"], newest["action"]) == ("key:integration", "buyer.settings.change")
    assert newest["detail"] == {"dailyCap": [25, None], "zips": [["78701"], []]}
    assert (first["who"], first["action"]) == (browser.person.email, "buyer.settings.change")
    assert first["detail"]["price"] == [30.0, 32.25] and first["detail"]["states"] == [[], ["TX", "OK"]]
    # Sending back what is stored changes nothing and logs nothing.
    assert browser.patch("/api/buyer/settings", json={"dailyCap": None, "price": 32.25}).status_code == 200
    assert len(audit_of(browser)) == 2


@pytest.mark.parametrize(("change", "field"), [
    ({"states": ["XX"]}, "states"),
    ({"zips": ["123"]}, "zips"),
    ({"hours": "whenever"}, "hours"),
    ({"services": ["underwater-basket-weaving"]}, "services"),
    ({"dailyCap": -1}, "dailyCap"),
    ({"dailyCap": 10_000_000_000}, "dailyCap"),
    ({"dailyCap": "5"}, "dailyCap"),
    ({"monthlyBudget": -5}, "monthlyBudget"),
    ({"monthlyBudget": True}, "monthlyBudget"),
    ({"price": None}, "price"),  # a fixed-price buyer needs its price
    ({"price": 2_000_000}, "price"),
    ({"bidFloor": 5}, "bidFloor"),  # a fixed-price buyer has no floor
    ({"exclusive": True}, "exclusive"),  # the operator's term
    ({"secret": "whsec_x"}, "secret"),
    ({"hours": "a" * 121}, "hours"),
    ({"zips": ["78701"] * 5001}, "zips"),
    ({"bidFloor": 1e308}, "bidFloor"),
    ({"monthlyBudget": 1e308}, "monthlyBudget"),
])
def test_a_bad_change_is_a_422_naming_the_field_and_nothing_is_saved(app, make_buyer, buyer_browser, change, field):
    buyer_id = make_buyer(daily_cap=3)
    browser = buyer_browser(buyer_id)
    answer = browser.patch("/api/buyer/settings", json={"dailyCap": 9, **change})
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"] and answer.json()["error"]
    assert stored(app, buyer_id).daily_cap == 3 and audit_of(browser) == []


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e999"])
@pytest.mark.parametrize("field", ["bidFloor", "price", "monthlyBudget"])
def test_a_number_that_is_not_finite_is_a_422(app, make_buyer, buyer_browser, field, number):
    browser = buyer_browser(make_buyer(**PING) if field == "bidFloor" else make_buyer())
    answer = browser.patch("/api/buyer/settings", content=f'{{"{field}": {number}}}',
                           headers={"Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert audit_of(browser) == []


def test_a_ping_buyer_sets_a_floor_not_a_price(app, make_buyer, buyer_browser):
    browser = buyer_browser(make_buyer(**PING))
    assert browser.get("/api/buyer/settings").json()["mode"] == "ping-post"
    answer = browser.patch("/api/buyer/settings", json={"bidFloor": 12.5, "price": None})
    assert answer.status_code == 200 and answer.json()["bidFloor"] == 12.5
    assert stored(app, browser.buyer_id).bid_floor_cents == 1250
    refused = browser.patch("/api/buyer/settings", json={"price": 40})
    assert refused.status_code == 422 and "price" in refused.json()["fields"]
    above = browser.patch("/api/buyer/settings", json={"bidFloor": 501})
    assert above.status_code == 422 and "$500.00" in above.json()["fields"]["bidFloor"]
    assert browser.patch("/api/buyer/settings", json={"bidFloor": None}).json()["bidFloor"] is None


def test_a_locked_setting_is_refused_by_name_and_the_others_still_change(app, make_buyer, buyer_browser, key_client):
    buyer_id = make_buyer(locked_fields=["price", "states"])
    browser = buyer_browser(buyer_id)
    answer = browser.patch("/api/buyer/settings", json={"price": 10, "states": ["CA"], "dailyCap": 4})
    assert answer.status_code == 403
    assert answer.json()["fields"] == {"price": "Locked by ServiceMatch: ask your account manager",
                                       "states": "Locked by ServiceMatch: ask your account manager"}
    assert key_client(buyer_id).patch("/api/buyer/v1/settings", json={"price": 10}).status_code == 403
    row = stored(app, buyer_id)
    assert (row.price_cents, row.states, row.daily_cap) == (3000, [], None)
    # The locked values sent back as they are (a whole form) pass; the rest is saved.
    same = browser.patch("/api/buyer/settings", json={"price": 30, "states": [], "dailyCap": 4})
    assert same.status_code == 200 and same.json()["dailyCap"] == 4


def test_a_change_needs_the_csrf_token_or_a_key_and_a_signed_in_caller(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    no_token = {CSRF_HEADER: ""}
    assert browser.patch("/api/buyer/settings", json={"dailyCap": 1}, headers=no_token).status_code == 403
    assert browser.post("/api/buyer/settings/pause", headers=no_token).status_code == 403
    assert browser.post("/api/buyer/settings/secret", headers=no_token).status_code == 403
    stranger = TestClient(app)
    assert stranger.get("/api/buyer/settings").status_code == 401
    assert stranger.patch("/api/buyer/v1/settings", json={"dailyCap": 1}).status_code == 401
    assert stranger.get("/api/buyer/v1/settings", headers={"Authorization": "Bearer smk_nope"}).status_code == 401
    row = stored(app, buyer_id)
    assert row.daily_cap is None and row.paused_at is None and row.previous_secret is None


def test_pause_and_resume_each_once_on_the_log(app, make_buyer, buyer_browser, key_client):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    assert browser.post("/api/buyer/settings/pause").json()["paused"] is True
    assert browser.post("/api/buyer/settings/pause").json()["paused"] is True
    assert stored(app, buyer_id).paused_at is not None and stored(app, buyer_id).active is True
    assert key_client(buyer_id).post("/api/buyer/v1/settings/resume").json()["paused"] is False
    assert stored(app, buyer_id).paused_at is None
    assert [(entry["action"], entry["detail"]) for entry in audit_of(browser)] == [
        ("buyer.self.resume", {"paused": [True, False]}), ("buyer.self.pause", {"paused": [False, True]})]


def test_the_audit_log_pages_newest_first_and_hides_which_operator_changed_the_buyer(
        app, make_buyer, buyer_browser):
    buyer_id, other_id = make_buyer(), make_buyer()
    browser = buyer_browser(buyer_id)
    for cap in (1, 2, 3):
        browser.patch("/api/buyer/settings", json={"dailyCap": cap})
    buyer_browser(other_id).patch("/api/buyer/settings", json={"dailyCap": 9})
    with app.state.session_factory() as session:
        add_audit_entry(session, action="buyer.change", actor_id="operator-1", actor_email="ops@servicematch.example",
                        ip="198.51.100.9", target=buyer_id, detail={"fields": ["lockedFields"]})
        # Not a change the buyer's log lists (an operator's test ping).
        add_audit_entry(session, action="buyer.test_ping", actor_id="operator-1", actor_email="ops@x.example",
                        ip="198.51.100.9", target=buyer_id, detail={})
        session.commit()
    first = browser.get("/api/buyer/audit", params={"limit": 2}).json()
    assert [entry["who"] for entry in first["items"]] == ["ServiceMatch", browser.person.email]
    assert first["items"][1]["detail"] == {"dailyCap": [2, 3]} and first["nextCursor"]
    rest = browser.get("/api/buyer/audit", params={"limit": 2, "cursor": first["nextCursor"]}).json()
    assert [entry["detail"]["dailyCap"] for entry in rest["items"]] == [[1, 2], [None, 1]]
    assert rest["nextCursor"] is None
    text = browser.get("/api/buyer/audit").text
    assert "ops@" not in text and "198.51.100.9" not in text and "[9]" not in text and "None, 9" not in text
    assert browser.get("/api/buyer/audit", params={"cursor": "abc"}).status_code == 422
    assert browser.get("/api/buyer/audit", params={"limit": 1000}).status_code == 422


def test_the_change_and_its_log_entry_are_one_transaction(app, make_buyer, buyer_browser, monkeypatch):
    from servicematch.buyer import audit

    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)

    def broken(*_args, **_kwargs):
        raise RuntimeError("the log is down")

    monkeypatch.setattr(audit, "add_audit_entry", broken)
    with pytest.raises(RuntimeError):
        browser.patch("/api/buyer/settings", json={"dailyCap": 5})
    assert stored(app, buyer_id).daily_cap is None
    with app.state.session_factory() as session:
        assert session.scalars(select(AuditEntry).where(AuditEntry.target == buyer_id)).all() == []
