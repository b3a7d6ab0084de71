"""Automatic top-up: a card saved through Checkout, charged off-session (the stand-in) when the balance
falls under the threshold: one charge at a time, none again with a card that refused one, the
amount bounded like "Add funds"."""

from __future__ import annotations

import buyer_fixtures
import payments_support
import pytest
from payments_support import entries_of, session_of, stripe_on
from sqlalchemy import select

from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    LedgerAccount,
    Payment,
)
from servicematch.ledger.postings import post
from servicematch.ledger.topup import top_up_accounts

# The fixtures this module uses from elsewhere (pytest finds a module's fixtures among its names).
standin = payments_support.standin
buyer_browser = buyer_fixtures.buyer_browser
buyer_key = buyer_fixtures.buyer_key
buyer_person = buyer_fixtures.buyer_person
cheapest_password_hashing = buyer_fixtures.cheapest_password_hashing
key_client = buyer_fixtures.key_client
make_buyer = buyer_fixtures.make_buyer


@pytest.fixture
def settings(settings, standin):
    return stripe_on(settings, standin)


@pytest.fixture
def buyer(client, standin, make_buyer, buyer_browser):
    standin.deliver_to(client)
    return buyer_browser(make_buyer())


def _save_card(browser, standin, amount: int = 50) -> dict:
    answer = browser.post("/api/buyer/funds/checkout", json={"amount": amount, "saveCard": True})
    assert answer.status_code == 201, answer.text
    standin.pay(session_of(standin, answer.json()["url"]))
    return browser.get("/api/buyer/funds").json()


def _account(app, buyer_id: str) -> LedgerAccount:
    with app.state.session_factory() as session:
        found = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.BUYER,
                                                            LedgerAccount.owner_id == buyer_id)).one()
        session.expunge(found)
        return found


def _spend(app, account_id: str, cents: int, cause_id: str) -> None:
    with app.state.session_factory() as session:
        post(session, session.get(LedgerAccount, account_id), kind=EntryKind.CHARGE, amount_cents=-cents,
             cause=Cause.SALE, cause_id=cause_id)
        session.commit()


def _run(app, settings) -> int:
    return top_up_accounts(session_factory=app.state.session_factory, settings=settings, now=utcnow())


def _topups(standin) -> list[dict]:
    return [form for _, path, form in standin.calls if path == "/v1/payment_intents"]


def test_a_card_saved_through_checkout_tops_the_balance_up_once_it_falls_under_the_threshold(app, settings, standin,
                                                                                              buyer):
    funds = _save_card(buyer, standin)
    [(_, _, checkout)] = [call for call in standin.calls if call[1] == "/v1/checkout/sessions"]
    assert checkout["payment_intent_data"]["setup_future_usage"] == "off_session"
    assert checkout["customer_creation"] == "always"
    assert funds["autoTopup"] == {"threshold": None, "amount": None, "cardSaved": True, "active": False,
                                  "lastFailure": None}
    set_up = buyer.put("/api/buyer/funds/topup", json={"threshold": 20, "amount": 100})
    assert set_up.status_code == 200 and set_up.json()["autoTopup"]["active"] is True
    account = _account(app, buyer.buyer_id)
    assert _run(app, settings) == 0  # $50 is not under $20

    _spend(app, account.id, 4_000, "sale-1")  # $10 left
    assert _run(app, settings) == 1
    [charge] = _topups(standin)
    assert (charge["amount"], charge["off_session"], charge["confirm"]) == ("10000", "true", "true")
    assert (charge["customer"], charge["payment_method"]) == (account.stripe_customer_id,
                                                              account.stripe_payment_method_id)
    assert buyer.get("/api/buyer/funds").json()["balance"] == 110
    assert _run(app, settings) == 0
    # Stripe's own news of the charge credits nothing more.
    assert [body["outcome"] for _, body in standin.send_queued()] == ["recorded"]
    assert buyer.get("/api/buyer/funds").json()["balance"] == 110
    [topup] = [p for p in buyer.get("/api/buyer/funds").json()["payments"] if p["automatic"]]
    assert (topup["status"], topup["amount"]) == ("succeeded", 100)


def test_a_declined_card_is_charged_no_more_until_a_new_one_is_saved(app, settings, standin, buyer):
    _save_card(buyer, standin)
    buyer.put("/api/buyer/funds/topup", json={"threshold": 100, "amount": 200})
    standin.decline_topups = True
    assert _run(app, settings) == 1
    funds = buyer.get("/api/buyer/funds").json()
    assert funds["balance"] == 50
    assert funds["autoTopup"]["cardSaved"] is False and funds["autoTopup"]["active"] is False
    assert funds["autoTopup"]["lastFailure"] == "Your card has insufficient funds."
    failed = entries_of(app, _account(app, buyer.buyer_id).id)[-1]
    assert (failed.kind, failed.amount_cents) == (EntryKind.PAYMENT_FAILED, 0)
    assert [body["outcome"] for _, body in standin.send_queued()] == ["ignored"]  # failed already
    assert _run(app, settings) == 0 and len(_topups(standin)) == 1

    standin.decline_topups = False
    _save_card(buyer, standin, amount=10)  # a new card: $60, still under $100
    assert _run(app, settings) == 1
    assert buyer.get("/api/buyer/funds").json()["balance"] == 260


def test_one_top_up_at_a_time_while_stripe_is_still_processing(app, settings, standin, buyer):
    _save_card(buyer, standin)
    buyer.put("/api/buyer/funds/topup", json={"threshold": 100, "amount": 200})
    standin.topups_processing = True
    assert _run(app, settings) == 1
    assert _run(app, settings) == 0 and len(_topups(standin)) == 1
    assert buyer.get("/api/buyer/funds").json()["balance"] == 50
    [intent_id] = [i for i, intent in standin.intents.items() if intent["metadata"].get("automatic") == "1"]
    standin.settle_processing(intent_id)
    assert [body["outcome"] for _, body in standin.send_queued()] == ["credited"]
    assert buyer.get("/api/buyer/funds").json()["balance"] == 250


def test_a_top_up_stripe_never_answered_is_asked_again_with_the_same_key(app, settings, standin, buyer):
    _save_card(buyer, standin)
    buyer.put("/api/buyer/funds/topup", json={"threshold": 100, "amount": 200})
    unreachable = settings.model_copy(update={"stripe_api_base": "http://127.0.0.1:9"})
    assert _run(app, unreachable) == 1
    with app.state.session_factory() as session:
        [waiting] = session.scalars(select(Payment).where(Payment.automatic.is_(True))).all()
        assert (waiting.status, waiting.stripe_payment_intent_id) == ("pending", None)
    assert _run(app, settings) == 1
    assert buyer.get("/api/buyer/funds").json()["balance"] == 250
    with app.state.session_factory() as session:
        assert len(session.scalars(select(Payment).where(Payment.automatic.is_(True))).all()) == 1


def test_the_amounts_are_bounded_and_stopping_forgets_the_card(app, settings, standin, buyer):
    for ask, field in (({"threshold": 10, "amount": 0}, "amount"), ({"threshold": 10, "amount": 10_001}, "amount"),
                       ({"threshold": -1, "amount": 50}, "threshold"), ({"threshold": 10, "amount": 5.5}, "amount"),
                       ({"threshold": 10, "amount": "50"}, "amount"), ({"threshold": 10}, "amount")):
        refused = buyer.put("/api/buyer/funds/topup", json=ask)
        assert refused.status_code == 422 and field in refused.json()["fields"], (ask, refused.text)
    funds = _save_card(buyer, standin)
    assert funds["autoTopup"]["cardSaved"] is True
    card = _account(app, buyer.buyer_id).stripe_payment_method_id
    buyer.put("/api/buyer/funds/topup", json={"threshold": 100, "amount": 200})
    stopped = buyer.delete("/api/buyer/funds/topup")
    assert stopped.status_code == 200
    assert stopped.json()["autoTopup"] == {"threshold": None, "amount": None, "cardSaved": False, "active": False,
                                           "lastFailure": None}
    assert ("POST", f"/v1/payment_methods/{card}/detach") in [(m, p) for m, p, _ in standin.calls]
    assert _run(app, settings) == 0


def test_an_amount_outside_todays_bounds_is_not_charged(app, settings, standin, buyer):
    _save_card(buyer, standin)
    buyer.put("/api/buyer/funds/topup", json={"threshold": 100, "amount": 500})
    assert _run(app, settings.model_copy(update={"topup_max_dollars": 400})) == 0
    assert _topups(standin) == []


def test_only_a_person_with_the_csrf_token_sets_top_ups(buyer, key_client):
    assert buyer.put("/api/buyer/funds/topup", json={"threshold": 1, "amount": 5},
                     headers={"X-CSRF-Token": ""}).status_code == 403
    system = key_client(buyer.buyer_id)
    assert system.put("/api/buyer/funds/topup", json={"threshold": 1, "amount": 5}).status_code == 403
    assert system.post("/api/buyer/funds/checkout", json={"amount": 5}).status_code == 403
    assert system.get("/api/buyer/v1/funds").json()["autoTopup"]["threshold"] is None
