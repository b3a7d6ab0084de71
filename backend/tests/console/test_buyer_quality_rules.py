"""A buyer's own rules and a provider's minimum score in the console: set when added, changed alone,
back to any score and the site's duplicate rule with null, bounds refused by name (nothing saved),
locked for the buyer portal, on the audit log; an analyst reads them and changes nothing."""

from __future__ import annotations

import pytest

from servicematch.delivery.models import Provider
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer

BUYER = {"name": "Bright Leads", "postUrl": "http://127.0.0.1:9/post", "price": 30}
PROVIDER = {"name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"]}


@pytest.fixture
def settings(settings):
    """Only the buyers of the buyers table: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": ""})


def rules(app, buyer_id: str) -> tuple:
    with app.state.session_factory() as session:
        buyer = session.get(Buyer, buyer_id)
        return buyer.min_quality, buyer.duplicate_days, buyer.duplicate_match, buyer.duplicate_scope


def shown(buyer: dict) -> tuple:
    return buyer["minQuality"], buyer["duplicateDays"], buyer["duplicateMatch"], buyer["duplicateScope"]


def test_a_new_buyer_takes_any_score_and_keeps_the_sites_duplicate_rule(admin, app):
    buyer = admin.post("/api/console/buyers", json=BUYER).json()
    assert shown(buyer) == (None, None, "phone", "service")
    assert rules(app, buyer["id"]) == (None, None, "phone", "service")


def test_the_rules_are_set_changed_alone_and_given_back_to_the_site(admin, app):
    created = admin.post("/api/console/buyers", json={**BUYER, "minQuality": 60, "duplicateDays": 45,
                                                      "duplicateMatch": "either", "duplicateScope": "all"})
    assert created.status_code == 201, created.text
    buyer_id = created.json()["id"]
    assert shown(created.json()) == rules(app, buyer_id) == (60, 45, "either", "all")

    changed = admin.patch(f"/api/console/buyers/{buyer_id}", json={"duplicateMatch": "email", "minQuality": 0})
    assert changed.status_code == 200, changed.text
    assert shown(changed.json()) == (0, 45, "email", "all") and changed.json()["price"] == 30
    # The other terms sent without the rules leave them alone.
    assert shown(admin.patch(f"/api/console/buyers/{buyer_id}", json={"dailyCap": 9}).json()) == (0, 45, "email",
                                                                                                    "all")
    back = admin.patch(f"/api/console/buyers/{buyer_id}", json={
        "minQuality": None, "duplicateDays": None, "duplicateMatch": None, "duplicateScope": None})
    assert shown(back.json()) == rules(app, buyer_id) == (None, None, "phone", "service")
    changes = [e["detail"]["fields"] for e in admin.get("/api/console/audit").json()["items"]
               if e["action"] == "buyer.change"]
    assert ["duplicateMatch", "minQuality"] in changes
    [listed] = admin.get("/api/console/buyers").json()["items"]
    assert shown(listed) == (None, None, "phone", "service")


@pytest.mark.parametrize(("change", "field"), [
    ({"minQuality": 101}, "minQuality"),
    ({"minQuality": -1}, "minQuality"),
    ({"minQuality": True}, "minQuality"),
    ({"minQuality": "60"}, "minQuality"),
    ({"minQuality": 60.5}, "minQuality"),
    ({"duplicateDays": 0}, "duplicateDays"),
    ({"duplicateDays": 366}, "duplicateDays"),
    ({"duplicateDays": 2**40}, "duplicateDays"),
    ({"duplicateMatch": "fax"}, "duplicateMatch"),
    ({"duplicateScope": "vertical"}, "duplicateScope"),
])
def test_rules_out_of_bounds_are_a_422_naming_the_field_and_nothing_is_saved(admin, app, change, field):
    refused = admin.post("/api/console/buyers", json={**BUYER, **change})
    assert refused.status_code == 422, refused.text
    assert field in refused.json()["fields"]
    assert admin.get("/api/console/buyers").json()["items"] == []
    buyer_id = admin.post("/api/console/buyers", json={**BUYER, "minQuality": 50, "duplicateDays": 10}).json()["id"]
    again = admin.patch(f"/api/console/buyers/{buyer_id}", json={"dailyCap": 3, **change})
    assert again.status_code == 422 and field in again.json()["fields"]
    assert rules(app, buyer_id) == (50, 10, "phone", "service")


def test_the_rules_can_be_locked_for_the_buyer_portal(admin, app):
    buyer = admin.post("/api/console/buyers", json={**BUYER, "lockedFields": ["minQuality", "duplicateRule"]})
    assert buyer.status_code == 201, buyer.text
    assert buyer.json()["lockedFields"] == ["minQuality", "duplicateRule"]
    # A locked rule still changes from the console: the lock is on the buyer's people.
    changed = admin.patch(f"/api/console/buyers/{buyer.json()['id']}", json={"minQuality": 70})
    assert changed.status_code == 200 and changed.json()["minQuality"] == 70


def test_an_analyst_reads_the_rules_and_changes_none(analyst, app):
    with app.state.session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(name="Bright", post_url="https://b.example/post",
                                                                  price_cents=3000), allow_private=True)
        buyer.min_quality, buyer.duplicate_days = 40, 20
        session.commit()
        buyer_id = buyer.id
    [listed] = analyst.get("/api/console/buyers").json()["items"]
    assert shown(listed) == (40, 20, "phone", "service")
    assert analyst.patch(f"/api/console/buyers/{buyer_id}", json={"minQuality": 0}).status_code == 403
    assert rules(app, buyer_id)[0] == 40


# -- providers -----------------------------------------------------------------------------------------

def provider_minimum(app, provider_id: str) -> int | None:
    with app.state.session_factory() as session:
        return session.get(Provider, provider_id).min_quality


def test_a_providers_minimum_score_is_set_changed_alone_and_cleared(admin, app):
    created = admin.post("/api/console/providers", json={**PROVIDER, "minQuality": 55})
    assert created.status_code == 201, created.text
    provider_id = created.json()["id"]
    assert created.json()["minQuality"] == provider_minimum(app, provider_id) == 55
    assert admin.patch(f"/api/console/providers/{provider_id}", json={"dailyCap": 4}).json()["minQuality"] == 55
    assert admin.patch(f"/api/console/providers/{provider_id}", json={"minQuality": 80}).json()["minQuality"] == 80
    cleared = admin.patch(f"/api/console/providers/{provider_id}", json={"minQuality": None})
    assert cleared.json()["minQuality"] is None and cleared.json()["dailyCap"] == 4
    [listed] = admin.get("/api/console/providers").json()["items"]
    assert listed["minQuality"] is None
    assert admin.post("/api/console/providers", json=PROVIDER | {"name": "Plain"}).json()["minQuality"] is None


@pytest.mark.parametrize("value", [101, -1, True, "50", 12.5])
def test_a_providers_minimum_out_of_bounds_is_a_422_and_nothing_is_saved(admin, app, value):
    refused = admin.post("/api/console/providers", json={**PROVIDER, "minQuality": value})
    assert refused.status_code == 422 and "minQuality" in refused.json()["fields"]
    assert admin.get("/api/console/providers").json()["items"] == []
    provider_id = admin.post("/api/console/providers", json={**PROVIDER, "minQuality": 30}).json()["id"]
    again = admin.patch(f"/api/console/providers/{provider_id}", json={"minQuality": value, "dailyCap": 2})
    assert again.status_code == 422 and "minQuality" in again.json()["fields"]
    assert provider_minimum(app, provider_id) == 30
