"""How buyers and providers pay, set in the console: terms, credit limit and net days on the buyer and
provider forms (create and change), audited like every change, refused by field when they make no
sense; each one's balance, what it may still spend and any hold shown beside them."""

from __future__ import annotations

import pytest

from servicematch.kernel.clock import utcnow
from servicematch.ledger import holds
from servicematch.ledger.models import AccountKind, HoldReason, LedgerAccount, Terms
from servicematch.ledger.postings import accounts_of
from servicematch.ledger.terms import TermsChange
from servicematch.routing import buyers as directory

BUYER = {"name": "Bright Leads", "postUrl": "http://127.0.0.1:9/post", "price": 31.5}
PROVIDER = {"name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"]}
MONEY_KEYS = ("terms", "creditLimit", "netDays", "balance", "available", "hold", "heldSince")


@pytest.fixture
def settings(settings):
    """Only the buyers of the buyers table: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": ""})


def account(app, kind: str, owner_id: str) -> LedgerAccount | None:
    with app.state.session_factory() as session:
        found = accounts_of(session, kind, [owner_id]).get(owner_id)
        if found is not None:
            session.expunge(found)
        return found


def last_audit(client) -> dict:
    return client.get("/api/console/audit").json()["items"][0]


def test_a_buyer_added_without_terms_is_prepaid_and_empty(admin, app, prepaid_by_default):
    created = admin.post("/api/console/buyers", json=BUYER)
    assert created.status_code == 201, created.text
    shown = created.json()
    assert {key: shown[key] for key in MONEY_KEYS} == {
        "terms": "prepaid", "creditLimit": None, "netDays": 15, "balance": 0.0, "available": 0.0, "hold": None,
        "heldSince": None}
    assert account(app, AccountKind.BUYER, shown["id"]).terms == "prepaid"


def test_a_buyers_terms_are_set_on_creation_changed_alone_and_each_change_audited(admin, app):
    created = admin.post("/api/console/buyers", json={**BUYER, "terms": "credit", "creditLimit": 5000, "netDays": 30})
    assert created.status_code == 201, created.text
    buyer_id = created.json()["id"]
    assert (created.json()["terms"], created.json()["creditLimit"], created.json()["available"]) == (
        "credit", 5000.0, 5000.0)

    changed = admin.patch(f"/api/console/buyers/{buyer_id}", json={"creditLimit": None})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["creditLimit"], changed.json()["available"], changed.json()["netDays"]) == (None, None, 30)
    assert last_audit(admin)["detail"] == {"fields": ["creditLimit"]}
    assert changed.json()["price"] == 31.5  # nothing else moved

    admin.patch(f"/api/console/buyers/{buyer_id}", json={"terms": "prepaid"})
    [listed] = admin.get("/api/console/buyers").json()["items"]
    assert (listed["terms"], listed["creditLimit"], listed["available"]) == ("prepaid", None, 0.0)
    stored = account(app, AccountKind.BUYER, buyer_id)
    assert (stored.terms, stored.credit_limit_cents, stored.net_days, stored.name) == ("prepaid", None, 30,
                                                                                      "Bright Leads")


def test_a_held_buyer_shows_why_and_since_when(admin, app):
    buyer_id = admin.post("/api/console/buyers", json=BUYER).json()["id"]
    with app.state.session_factory() as session:
        found = accounts_of(session, AccountKind.BUYER, [buyer_id])[buyer_id]
        holds.hold(session, found, HoldReason.FUNDS, utcnow())
        session.commit()
    [listed] = admin.get("/api/console/buyers").json()["items"]
    assert listed["hold"] == "funds" and listed["heldSince"].endswith("Z")


@pytest.mark.parametrize("sent, field", [
    ({"terms": "monthly"}, "terms"),
    ({"terms": "credit", "creditLimit": -1}, "creditLimit"),
    ({"terms": "credit", "creditLimit": 10_000_000}, "creditLimit"),
    ({"terms": "credit", "creditLimit": True}, "creditLimit"),
    ({"netDays": 181}, "netDays"),
    ({"netDays": "30"}, "netDays"),
    # A limit on a prepaid account would mean nothing.
    ({"creditLimit": 500}, "creditLimit"),
])
def test_terms_that_make_no_sense_are_a_422_naming_the_field_and_nothing_is_stored(admin, prepaid_by_default, sent,
                                                                                   field):
    answer = admin.post("/api/console/buyers", json={**BUYER, **sent})
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]
    assert admin.get("/api/console/buyers").json()["items"] == []


def test_an_analyst_sees_terms_and_money_but_cannot_change_them(analyst, app):
    with app.state.session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(name="Bright Leads", post_url=BUYER["postUrl"],
                                                                  price_cents=3150), allow_private=True,
                                    money=TermsChange(terms=Terms.CREDIT, credit_limit_cents=100_000))
        session.commit()
        buyer_id = buyer.id
    assert analyst.patch(f"/api/console/buyers/{buyer_id}", json={"terms": "prepaid"}).status_code == 403
    [listed] = analyst.get("/api/console/buyers").json()["items"]
    assert (listed["terms"], listed["creditLimit"]) == ("credit", 1000.0)
    assert account(app, AccountKind.BUYER, buyer_id).terms == "credit"


def test_a_providers_terms_are_set_on_creation_changed_alone_and_audited(admin, app):
    created = admin.post("/api/console/providers", json={**PROVIDER, "terms": "credit", "creditLimit": 250.5})
    assert created.status_code == 201, created.text
    provider_id = created.json()["id"]
    assert (created.json()["terms"], created.json()["creditLimit"], created.json()["balance"]) == (
        "credit", 250.5, 0.0)
    assert account(app, AccountKind.PROVIDER, provider_id).credit_limit_cents == 25050

    changed = admin.patch(f"/api/console/providers/{provider_id}", json={"netDays": 45, "name": "Cool Air LLC"})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["netDays"], changed.json()["terms"]) == (45, "credit")
    assert last_audit(admin)["detail"] == {"fields": ["name", "netDays"]}
    assert account(app, AccountKind.PROVIDER, provider_id).name == "Cool Air LLC"

    refused = admin.patch(f"/api/console/providers/{provider_id}", json={"terms": "prepaid", "creditLimit": 10})
    assert refused.status_code == 422 and "creditLimit" in refused.json()["fields"]
    [listed] = admin.get("/api/console/providers").json()["items"]
    assert (listed["terms"], listed["creditLimit"], listed["netDays"]) == ("credit", 250.5, 45)


def test_a_provider_added_without_terms_is_prepaid_and_empty(admin, prepaid_by_default):
    created = admin.post("/api/console/providers", json=PROVIDER)
    assert created.status_code == 201, created.text
    assert (created.json()["terms"], created.json()["available"], created.json()["hold"]) == ("prepaid", 0.0, None)
