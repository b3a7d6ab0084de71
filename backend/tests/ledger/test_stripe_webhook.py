"""The Stripe webhook: a buyer adds funds through Checkout (the local stand-in) and its balance
rises once, however often Stripe delivers the news; a forged or altered event credits nothing; a
failed payment, a dispute and a refund are entries too."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import buyer_fixtures
import payments_support
import pytest
from payments_support import entries_of, payment, session_of, stripe_on
from sqlalchemy import func, select
from stripe_standin import WEBHOOK_PATH, signature_header

from servicematch.ledger import router_stripe
from servicematch.ledger.check import reconcile
from servicematch.ledger.models import AccountKind, EntryKind, LedgerAccount, StripeEvent

# The fixtures this module uses from elsewhere (pytest finds a module's fixtures among its names).
standin = payments_support.standin
buyer_browser = buyer_fixtures.buyer_browser
buyer_person = buyer_fixtures.buyer_person
cheapest_password_hashing = buyer_fixtures.cheapest_password_hashing
make_buyer = buyer_fixtures.make_buyer


@pytest.fixture
def settings(settings, standin):
    return stripe_on(settings, standin)


@pytest.fixture
def paying(client, standin, make_buyer, buyer_browser):
    """A new buyer's browser, with the stand-in sending its events to the app."""
    standin.deliver_to(client)
    return buyer_browser(make_buyer())


def _checkout(browser, standin, amount: int = 250, save_card: bool = False) -> tuple[str, str]:
    answer = browser.post("/api/buyer/funds/checkout", json={"amount": amount, "saveCard": save_card})
    assert answer.status_code == 201, answer.text
    return answer.json()["paymentId"], session_of(standin, answer.json()["url"])


def _balance(browser) -> float:
    return browser.get("/api/buyer/funds").json()["balance"]


def _account(app, buyer_id: str) -> LedgerAccount:
    with app.state.session_factory() as session:
        return session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.BUYER,
                                                           LedgerAccount.owner_id == buyer_id)).one()


def test_a_prepaid_buyer_adds_funds_through_checkout_and_its_balance_rises_once(app, standin, prepaid_by_default,
                                                                               paying):
    before = paying.get("/api/buyer/funds").json()
    assert (before["balance"], before["terms"], before["available"], before["cardPayments"]) == (0, "prepaid", 0, True)
    payment_id, session_id = _checkout(paying, standin, amount=250)
    # Stripe was asked for 250 dollars, with our ids in its metadata and the way back to the portal.
    [form] = [form for _, path, form in standin.calls if path == "/v1/checkout/sessions"]
    assert form["line_items"][0]["price_data"]["unit_amount"] == "25000" and form["mode"] == "payment"
    assert form["metadata"]["payment_id"] == payment_id
    assert form["success_url"] == f"https://servicematch.example/buyer/billing/paid?payment={payment_id}"
    assert "setup_future_usage" not in form["payment_intent_data"]
    assert paying.get(f"/api/buyer/funds/payments/{payment_id}").json()["status"] == "pending"
    assert _balance(paying) == 0

    answers = standin.pay(session_id)
    assert [status for status, _ in answers] == [200, 200]
    assert [body["outcome"] for _, body in answers] == ["credited", "recorded"]
    assert _balance(paying) == 250
    shown = paying.get(f"/api/buyer/funds/payments/{payment_id}").json()
    assert (shown["status"], shown["amount"], shown["method"]) == ("succeeded", 250, "card")
    account = _account(app, paying.buyer_id)
    [entry] = entries_of(app, account.id)
    assert (entry.kind, entry.amount_cents, entry.cause, entry.cause_id) == (EntryKind.PAYMENT, 25_000, "payment",
                                                                             payment_id)
    assert payment(app, payment_id).stripe_payment_intent_id.startswith("pi_test_")


def test_a_duplicate_or_replayed_event_credits_nothing_more(app, standin, paying):
    _, session_id = _checkout(paying, standin, amount=40)
    standin.pay(session_id)
    session = standin.sessions[session_id]
    # Stripe retries the same event: stored by its id, it changes nothing.
    payload = standin.event("checkout.session.completed", session, event_id="evt_test_retried")
    assert standin.send_raw(payload, signature_header(payload))[1]["outcome"] == "recorded"
    for _ in range(3):
        status, body = standin.send_raw(payload, signature_header(payload))
        assert (status, body["outcome"]) == (200, "duplicate")
    # The same news in yet another event: the payment is credited already.
    assert standin.send("checkout.session.async_payment_succeeded", session)[1]["outcome"] == "recorded"
    assert _balance(paying) == 40
    assert [e.kind for e in entries_of(app, _account(app, paying.buyer_id).id)] == [EntryKind.PAYMENT]


def test_a_forged_altered_or_stale_event_is_refused_and_credits_nothing(app, standin, paying):
    payment_id, session_id = _checkout(paying, standin, amount=500)
    paid = {**standin.sessions[session_id], "payment_status": "paid", "status": "complete"}
    payload = standin.event("checkout.session.completed", paid)
    refusals = [
        standin.send_raw(payload, signature_header(payload, secret="whsec_someone_else")),
        standin.send_raw(payload, None),
        standin.send_raw(payload, "t=1,v1=00"),
        standin.send_raw(payload.replace('"amount_total": 50000', '"amount_total": 5000000'),
                         signature_header(payload)),
        standin.send_raw(payload, signature_header(payload, timestamp=int(time.time()) - 3600)),
    ]
    assert [status for status, _ in refusals] == [400] * 5
    assert refusals[0][1]["error"].startswith("This event is not signed by Stripe")
    assert _balance(paying) == 0
    assert payment(app, payment_id).status == "pending"
    with app.state.session_factory() as session:
        assert session.scalar(select(func.count()).select_from(StripeEvent)) == 0


def test_bad_bodies_are_refused_without_a_server_error(client, standin, paying):
    for body in ("not json", "[]", json.dumps({"object": "event"}),
                 json.dumps({"id": 5, "type": [], "object": "event"})):
        assert standin.send_raw(body, signature_header(body))[0] == 400
    assert client.post(WEBHOOK_PATH, content=b"x" * (600 * 1024)).status_code == 413
    # Signed events that are of no interest, or not about a payment of ours, answer 200 and do nothing.
    assert standin.send("customer.created", {"id": "cus_1", "object": "customer"})[1]["outcome"] == "ignored"
    assert standin.send("checkout.session.completed", {"object": "checkout.session"})[1]["outcome"] == "ignored"
    assert standin.send("checkout.session.completed", {"id": 7, "metadata": "x", "amount_total": "lots"})[1][
        "outcome"] == "ignored"
    assert standin.send("charge.refunded", {"object": "charge", "payment_intent": "pi_unknown",
                                            "amount_refunded": 100})[1]["outcome"] == "ignored"


def test_an_event_naming_another_account_than_its_payment_changes_nothing(app, standin, paying, make_buyer,
                                                                          buyer_browser):
    other = buyer_browser(make_buyer())
    _checkout(other, standin, amount=10)  # the other buyer's account
    _, session_id = _checkout(paying, standin, amount=300)
    session = {**standin.sessions[session_id], "payment_status": "paid",
               "metadata": {**standin.sessions[session_id]["metadata"],
                            "account_id": _account(app, other.buyer_id).id}}
    assert standin.send("checkout.session.completed", session)[1]["outcome"] == "ignored"
    assert _balance(paying) == 0 and _balance(other) == 0


def test_a_failed_payment_is_an_entry_of_nothing(app, standin, paying):
    payment_id, session_id = _checkout(paying, standin, amount=75)
    assert standin.fail(session_id)[1]["outcome"] == "recorded"
    shown = paying.get(f"/api/buyer/funds/payments/{payment_id}").json()
    assert (shown["status"], shown["failure"]) == ("failed", "The payment did not go through.")
    [entry] = entries_of(app, _account(app, paying.buyer_id).id)
    assert (entry.kind, entry.amount_cents, entry.cause_id) == (EntryKind.PAYMENT_FAILED, 0, payment_id)
    assert _balance(paying) == 0


def test_an_abandoned_checkout_leaves_no_entry(app, standin, paying):
    payment_id, session_id = _checkout(paying, standin, amount=75)
    assert standin.send("checkout.session.expired", standin.sessions[session_id])[1]["outcome"] == "recorded"
    assert payment(app, payment_id).status == "failed"
    assert entries_of(app, _account(app, paying.buyer_id).id) == []


def test_a_dispute_takes_the_money_back_and_a_dispute_won_returns_it(app, standin, paying):
    payment_id, session_id = _checkout(paying, standin, amount=120)
    standin.pay(session_id)
    dispute = {"id": "dp_test_1", "object": "dispute", "amount": 12_000, "charge": "ch_test_1",
               "payment_intent": standin.sessions[session_id]["payment_intent"], "status": "needs_response"}
    assert standin.send("charge.dispute.created", dispute)[1]["outcome"] == "recorded"
    assert standin.send("charge.dispute.created", dispute)[1]["outcome"] == "recorded"  # another event, same dispute
    assert _balance(paying) == 0
    assert payment(app, payment_id).status == "disputed"
    standin.send("charge.dispute.closed", {**dispute, "status": "won"})
    assert _balance(paying) == 120
    kinds = [(e.kind, e.amount_cents) for e in entries_of(app, _account(app, paying.buyer_id).id)]
    assert kinds == [(EntryKind.PAYMENT, 12_000), (EntryKind.DISPUTE, -12_000), (EntryKind.REVERSAL, 12_000)]


def test_refunds_leave_the_balance_once_each_partial_ones_included(app, standin, paying):
    payment_id, session_id = _checkout(paying, standin, amount=100)
    standin.pay(session_id)
    charge = {"id": "ch_test_2", "object": "charge", "amount": 10_000, "currency": "usd",
              "payment_intent": standin.sessions[session_id]["payment_intent"]}
    standin.send("charge.refunded", {**charge, "amount_refunded": 3_000})
    standin.send("charge.refunded", {**charge, "amount_refunded": 3_000})  # the same refund, told again
    assert _balance(paying) == 70 and payment(app, payment_id).status == "succeeded"
    standin.send("charge.refunded", {**charge, "amount_refunded": 10_000, "refunded": True})
    assert _balance(paying) == 0 and payment(app, payment_id).status == "refunded"
    refunds = [(e.amount_cents, e.cause_id) for e in entries_of(app, _account(app, paying.buyer_id).id)
               if e.kind == EntryKind.REFUND]
    assert refunds == [(-3_000, payment_id), (-7_000, f"{payment_id}:10000")]


def test_the_reconciliation_agrees_with_every_kind_of_payment_entry(app, standin, paying):
    _, failed = _checkout(paying, standin, amount=10)
    standin.fail(failed)
    for amount in (20, 30):
        _, session_id = _checkout(paying, standin, amount=amount)
        standin.pay(session_id)
        intent = standin.sessions[session_id]["payment_intent"]
        dispute = {"id": f"dp_{amount}", "object": "dispute", "amount": amount * 100, "payment_intent": intent}
        standin.send("charge.dispute.created", dispute)
        standin.send("charge.dispute.closed", {**dispute, "status": "won"})
        standin.send("charge.refunded", {"object": "charge", "payment_intent": intent, "currency": "usd",
                                         "amount_refunded": 500})
        standin.send("charge.refunded", {"object": "charge", "payment_intent": intent, "currency": "usd",
                                         "amount_refunded": 900})
    assert _balance(paying) == 20 + 30 - 9 - 9
    with app.state.session_factory() as session:
        findings = reconcile(session)
    assert findings.ok, findings.problems
    kinds = {e.kind for e in entries_of(app, _account(app, paying.buyer_id).id)}
    assert kinds == {EntryKind.PAYMENT, EntryKind.PAYMENT_FAILED, EntryKind.DISPUTE, EntryKind.REVERSAL,
                     EntryKind.REFUND}


def test_the_webhook_and_checkout_are_off_without_a_secret_key(app, client, make_buyer, buyer_browser, settings):
    app.state.settings = settings.model_copy(update={"stripe_secret_key": ""})
    browser = buyer_browser(make_buyer())
    assert client.post(WEBHOOK_PATH, content=b"{}").status_code == 404
    funds = browser.get("/api/buyer/funds").json()
    assert funds["cardPayments"] is False
    assert funds["cardPaymentsNote"].startswith("Card payments are not set up: pay by wire or cheque")
    refused = browser.post("/api/buyer/funds/checkout", json={"amount": 50})
    assert refused.status_code == 409 and refused.json()["error"] == funds["cardPaymentsNote"]


def test_deliveries_at_the_same_moment_credit_once(app, standin, paying):
    payment_id, session_id = _checkout(paying, standin, amount=60)
    session = {**standin.sessions[session_id], "payment_status": "paid", "payment_intent": "pi_test_race"}
    intent = {"id": "pi_test_race", "object": "payment_intent", "amount_received": 6_000, "currency": "usd",
              "metadata": session["metadata"]}
    completed = json.loads(standin.event("checkout.session.completed", session))
    succeeded = json.loads(standin.event("payment_intent.succeeded", intent))
    start = threading.Barrier(8)

    def deliver(event: dict) -> str:
        start.wait()
        return router_stripe._apply(app.state.session_factory, event, 7)

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(deliver, [completed] * 4 + [succeeded] * 4))
    assert sorted(outcomes).count("credited") == 1
    assert outcomes.count("duplicate") == 6
    assert _balance(paying) == 60
    assert [e.kind for e in entries_of(app, _account(app, paying.buyer_id).id)] == [EntryKind.PAYMENT]
    assert payment(app, payment_id).stripe_payment_intent_id == "pi_test_race"
