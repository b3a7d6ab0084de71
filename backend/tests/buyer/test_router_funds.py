"""A buyer's funds: its people and its API keys read them, only a person in the portal (with the
CSRF token) pays or sets top-ups, and nothing of another buyer's is there (404, no body)."""

from __future__ import annotations

import payments_support
import pytest
from payments_support import session_of, stripe_on

standin = payments_support.standin


@pytest.fixture
def settings(settings, standin):
    return stripe_on(settings, standin)


def test_a_key_reads_the_funds_and_a_person_pays(client, standin, make_buyer, buyer_browser, key_client):
    standin.deliver_to(client)
    buyer_id = make_buyer()
    person, system = buyer_browser(buyer_id), key_client(buyer_id)
    started = person.post("/api/buyer/funds/checkout", json={"amount": 35})
    assert started.status_code == 201, started.text
    standin.pay(session_of(standin, started.json()["url"]))
    payment_id = started.json()["paymentId"]
    [shown] = system.get("/api/buyer/v1/funds").json()["payments"]
    assert (shown["id"], shown["status"], shown["amount"]) == (payment_id, "succeeded", 35)
    assert system.get(f"/api/buyer/v1/funds/payments/{payment_id}").json() == shown
    assert system.post("/api/buyer/funds/checkout", json={"amount": 35}).status_code == 403
    assert system.post("/api/buyer/v1/funds/checkout", json={"amount": 35}).status_code in (404, 405)
    assert person.post("/api/buyer/funds/checkout", json={"amount": 35}, headers={"X-CSRF-Token": ""}
                       ).status_code == 403


def test_another_buyers_payment_is_not_there(client, standin, make_buyer, buyer_browser, key_client):
    owner, stranger = make_buyer(), make_buyer()
    payment_id = buyer_browser(owner).post("/api/buyer/funds/checkout", json={"amount": 5}).json()["paymentId"]
    for reader, path in ((buyer_browser(stranger), f"/api/buyer/funds/payments/{payment_id}"),
                         (key_client(stranger), f"/api/buyer/v1/funds/payments/{payment_id}")):
        answer = reader.get(path)
        assert (answer.status_code, answer.content) == (404, b"")
    assert buyer_browser(stranger).get("/api/buyer/funds").json()["payments"] == []
    assert buyer_browser(stranger).get("/api/buyer/funds/payments/" + "x" * 37).status_code == 422


def test_stripe_unreachable_charges_nothing_and_says_so(app, settings, make_buyer, buyer_browser):
    app.state.settings = settings.model_copy(update={"stripe_api_base": "http://127.0.0.1:9"})
    person = buyer_browser(make_buyer())
    refused = person.post("/api/buyer/funds/checkout", json={"amount": 5})
    assert refused.status_code == 502 and refused.json()["error"].startswith("Card payments cannot be started")
    [shown] = person.get("/api/buyer/funds").json()["payments"]
    assert (shown["status"], shown["failure"]) == ("failed", "Stripe could not be reached.")
    assert person.get("/api/buyer/funds").json()["balance"] == 0


def test_too_many_checkouts_in_an_hour_are_refused(standin, make_buyer, buyer_browser):
    person = buyer_browser(make_buyer())
    for _ in range(20):
        assert person.post("/api/buyer/funds/checkout", json={"amount": 1}).status_code == 201
    refused = person.post("/api/buyer/funds/checkout", json={"amount": 1})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "3600"
