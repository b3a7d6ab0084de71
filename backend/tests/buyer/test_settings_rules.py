"""A buyer's own rules in its portal and API: its minimum quality score and its duplicate rule, read
and changed by its people or its key, bounds refused by name, the operator's locks (the minimum, and
the duplicate rule's three fields together), each change on its audit log, another buyer untouched."""

from __future__ import annotations

import pytest

from servicematch.routing.models import Buyer

LOCKED = "Locked by ServiceMatch: ask your account manager"


def rules(app, buyer_id: str) -> tuple:
    with app.state.session_factory() as session:
        buyer = session.get(Buyer, buyer_id)
        return buyer.min_quality, buyer.duplicate_days, buyer.duplicate_match, buyer.duplicate_scope


def shown(settings: dict) -> tuple:
    return settings["minQuality"], settings["duplicateDays"], settings["duplicateMatch"], settings["duplicateScope"]


def audit_of(client) -> list[dict]:
    return client.get("/api/buyer/audit").json()["items"]


def test_the_rules_as_the_portal_and_a_key_read_them(make_buyer, buyer_browser, key_client):
    plain = make_buyer()
    assert shown(buyer_browser(plain).get("/api/buyer/settings").json()) == (None, None, "phone", "service")
    assert shown(key_client(plain).get("/api/buyer/v1/settings").json()) == (None, None, "phone", "service")


def test_a_buyer_sets_its_rules_and_each_change_is_on_its_log(app, make_buyer, buyer_browser, key_client):
    mine, theirs = make_buyer("Mine"), make_buyer("Theirs")
    browser = buyer_browser(mine)
    answer = browser.patch("/api/buyer/settings", json={
        "minQuality": 65, "duplicateDays": 60, "duplicateMatch": "either", "duplicateScope": "all"})
    assert answer.status_code == 200, answer.text
    assert shown(answer.json()) == rules(app, mine) == (65, 60, "either", "all")
    assert rules(app, theirs) == (None, None, "phone", "service")
    [entry] = audit_of(browser)
    assert (entry["who"], entry["detail"]) == (browser.person.email, {
        "duplicateDays": [None, 60], "duplicateMatch": ["phone", "either"], "duplicateScope": ["service", "all"],
        "minQuality": [None, 65]})

    # Sent back as they are: nothing changes and nothing is logged.
    same = browser.patch("/api/buyer/settings", json={"minQuality": 65, "duplicateScope": "all"})
    assert same.status_code == 200 and len(audit_of(browser)) == 1

    system = key_client(mine)
    back = system.patch("/api/buyer/v1/settings", json={"duplicateDays": None, "duplicateMatch": None,
                                                         "minQuality": None})
    assert back.status_code == 200, back.text
    assert shown(back.json()) == rules(app, mine) == (None, None, "phone", "all")
    newest = audit_of(browser)[0]
    assert (newest["who"], newest["detail"]) == ("key:integration", {
        "duplicateDays": [60, None], "duplicateMatch": ["either", "phone"], "minQuality": [65, None]})
    assert audit_of(buyer_browser(theirs)) == []


@pytest.mark.parametrize(("change", "field"), [
    ({"minQuality": 101}, "minQuality"),
    ({"minQuality": -5}, "minQuality"),
    ({"minQuality": False}, "minQuality"),
    ({"minQuality": "50"}, "minQuality"),
    ({"duplicateDays": 0}, "duplicateDays"),
    ({"duplicateDays": 366}, "duplicateDays"),
    ({"duplicateDays": 1e6}, "duplicateDays"),
    ({"duplicateMatch": "name"}, "duplicateMatch"),
    ({"duplicateScope": "state"}, "duplicateScope"),
])
def test_rules_out_of_bounds_are_a_422_naming_the_field_and_nothing_is_saved(app, make_buyer, buyer_browser,
                                                                              change, field):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    answer = browser.patch("/api/buyer/settings", json={"dailyCap": 9, "minQuality": 10, **change})
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]
    assert rules(app, buyer_id) == (None, None, "phone", "service")
    assert audit_of(browser) == []


def test_a_locked_minimum_is_refused_by_name_and_the_others_still_change(app, make_buyer, buyer_browser, key_client):
    buyer_id = make_buyer(locked_fields=["minQuality"])
    with app.state.session_factory() as session:
        session.get(Buyer, buyer_id).min_quality = 50
        session.commit()
    browser = buyer_browser(buyer_id)
    assert browser.get("/api/buyer/settings").json()["locked"] == ["minQuality"]
    refused = browser.patch("/api/buyer/settings", json={"minQuality": 10, "duplicateDays": 5})
    assert refused.status_code == 403 and refused.json()["fields"] == {"minQuality": LOCKED}
    assert key_client(buyer_id).patch("/api/buyer/v1/settings", json={"minQuality": None}).status_code == 403
    assert rules(app, buyer_id) == (50, None, "phone", "service")
    # The locked value sent back as it is (a whole form) passes; the rest is saved.
    saved = browser.patch("/api/buyer/settings", json={"minQuality": 50, "duplicateDays": 5, "dailyCap": 3})
    assert saved.status_code == 200, saved.text
    assert rules(app, buyer_id) == (50, 5, "phone", "service") and saved.json()["dailyCap"] == 3


def test_the_duplicate_rule_is_locked_as_one(app, make_buyer, buyer_browser):
    buyer_id = make_buyer(locked_fields=["duplicateRule"])
    browser = buyer_browser(buyer_id)
    for change in ({"duplicateDays": 30}, {"duplicateMatch": "email"}, {"duplicateScope": "all"}):
        refused = browser.patch("/api/buyer/settings", json=change)
        assert refused.status_code == 403 and refused.json()["fields"] == {next(iter(change)): LOCKED}
    assert rules(app, buyer_id) == (None, None, "phone", "service")
    assert browser.patch("/api/buyer/settings", json={"minQuality": 75}).json()["minQuality"] == 75
