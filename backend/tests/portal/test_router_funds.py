"""A provider's funds in the portal: "Add funds" through Checkout (the stand-in), the payment shown
once Stripe confirms it, automatic top-up set and stopped; nothing of another provider's (404)."""

from __future__ import annotations

import payments_support
import pytest
from payments_support import session_of, stripe_on

standin = payments_support.standin


@pytest.fixture
def settings(settings, standin):
    return stripe_on(settings, standin)


def test_a_provider_adds_funds_and_sees_them_once_stripe_confirms(client, standin, provider, prepaid_by_default):
    standin.deliver_to(client)
    pro = provider()
    funds = pro.get(f"{pro.me}/funds").json()
    assert (funds["balance"], funds["terms"], funds["cardPayments"], funds["minAmount"], funds["maxAmount"]) == (
        0, "prepaid", True, 1, 10_000)
    started = pro.send("POST", f"{pro.me}/funds/checkout", {"amount": 80, "saveCard": True})
    assert started.status_code == 201, started.text
    payment_id = started.json()["paymentId"]
    [form] = [form for _, path, form in standin.calls if path == "/v1/checkout/sessions"]
    assert form["success_url"] == f"https://servicematch.example/pro/money?payment={payment_id}"
    assert form["cancel_url"] == "https://servicematch.example/pro/money?checkout=cancelled"
    assert pro.get(f"{pro.me}/funds/payments/{payment_id}").json()["status"] == "pending"
    standin.pay(session_of(standin, started.json()["url"]))
    assert pro.get(f"{pro.me}/funds/payments/{payment_id}").json()["status"] == "succeeded"
    funds = pro.get(f"{pro.me}/funds").json()
    assert (funds["balance"], funds["available"], funds["autoTopup"]["cardSaved"]) == (80, 80, True)
    set_up = pro.send("PUT", f"{pro.me}/funds/topup", {"threshold": 25, "amount": 100})
    assert set_up.status_code == 200 and set_up.json()["autoTopup"]["active"] is True
    assert pro.send("DELETE", f"{pro.me}/funds/topup").json()["autoTopup"]["cardSaved"] is False


def test_another_providers_funds_and_payments_are_not_there(client, standin, provider):
    standin.deliver_to(client)
    owner, stranger = provider(), provider()
    payment_id = owner.send("POST", f"{owner.me}/funds/checkout", {"amount": 5}).json()["paymentId"]
    for path in (f"{owner.me}/funds", f"{owner.me}/funds/payments/{payment_id}"):
        answer = stranger.get(path)
        assert (answer.status_code, answer.content) == (404, b"")
    assert stranger.get(f"{stranger.me}/funds/payments/{payment_id}").status_code == 404
    for method, path, body in (("POST", "/funds/checkout", {"amount": 5}), ("PUT", "/funds/topup",
                                                                             {"threshold": 1, "amount": 5}),
                               ("DELETE", "/funds/topup", None)):
        assert stranger.send(method, f"{owner.me}{path}", body).status_code == 404
        assert owner.send(method, f"{owner.me}{path}", body, csrf=False).status_code == 403


def test_an_amount_outside_the_bounds_is_refused_by_name(app, client, standin, provider, settings):
    app.state.settings = settings.model_copy(update={"topup_min_dollars": 20, "topup_max_dollars": 500})
    pro = provider()
    for amount in (19, 501, 0, -1, 2**31, 25.5, "25"):
        refused = pro.send("POST", f"{pro.me}/funds/checkout", {"amount": amount})
        assert refused.status_code == 422 and "amount" in refused.json()["fields"], (amount, refused.text)
    assert standin.calls == []
    assert pro.send("POST", f"{pro.me}/funds/checkout", {"amount": 20}).status_code == 201
