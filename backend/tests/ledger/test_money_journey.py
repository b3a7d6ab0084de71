"""A prepaid buyer's money from start to end, as the issue's reader would check it: with no funds it
is passed over (its reason in the waterfall), it adds funds through Checkout (the local Stripe
stand-in), wins the next lead and its balance falls by the price; a duplicate webhook credits once;
an approved return credits the balance; the month's invoice carries every line and a PDF; and the
reconciliation finds nothing wrong."""

from __future__ import annotations

from datetime import UTC, datetime

import buyer_fixtures
import payments_support
import pytest
from delivery_receivers import started_receivers
from payments_support import session_of, stripe_on
from routing.buyer_receivers import BuyerReceiver
from sqlalchemy import select
from stripe_standin import signature_header

from servicematch.buyer.models import LeadReturn
from servicematch.buyer.returns import decide_return
from servicematch.kernel.clock import utcnow
from servicematch.kernel.references import shown_reference
from servicematch.ledger.check import reconcile
from servicematch.ledger.invoices import issue_month
from servicematch.ledger.models import AccountKind, LedgerAccount
from servicematch.routing import buyers as directory
from servicematch.routing.models import AuctionStep, Sale, StepKind

standin = payments_support.standin
buyer_browser = buyer_fixtures.buyer_browser
buyer_person = buyer_fixtures.buyer_person
cheapest_password_hashing = buyer_fixtures.cheapest_password_hashing


@pytest.fixture
def settings(settings, standin):
    """Card payments on through the stand-in; only the buyers table's buyers (not the fixed one)."""
    return stripe_on(settings, standin).model_copy(update={"buyer_url": ""})


@pytest.fixture
def receivers():
    yield from started_receivers(BuyerReceiver)


def _balance(app, buyer_id: str) -> int:
    with app.state.session_factory() as session:
        return session.scalars(select(LedgerAccount.balance_cents).where(
            LedgerAccount.kind == AccountKind.BUYER, LedgerAccount.owner_id == buyer_id)).one()


def test_a_prepaid_buyer_is_passed_over_adds_funds_wins_returns_and_is_invoiced(
        app, client, standin, prepaid_by_default, receivers, buyer_browser, make_lead, worker):
    receiver = receivers()
    with app.state.session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(
            name="Prepaid Leads", post_url=receiver.post_url, price_cents=3000, exclusive=True), allow_private=True)
        session.commit()
        buyer_id = buyer.id
    browser = buyer_browser(buyer_id)
    standin.deliver_to(client)

    # No funds: passed over, with why, and nothing posted.
    first = make_lead()
    worker.run_until_idle()
    assert receiver.posts == []
    with app.state.session_factory() as session:
        [passed] = session.scalars(select(AuctionStep).where(AuctionStep.lead_id == first.id,
                                                             AuctionStep.buyer_id == buyer_id)).all()
    assert (passed.kind, passed.detail) == (StepKind.PASS, "cannot pay: $0.00 available")
    assert browser.get("/api/buyer/account/standing").json()["hold"] == "funds"

    # $100 through Checkout; Stripe telling it twice credits it once.
    started = browser.post("/api/buyer/funds/checkout", json={"amount": 100, "saveCard": False})
    assert started.status_code == 201, started.text
    session_id = session_of(standin, started.json()["url"])
    standin.pay(session_id)
    payload = standin.event("checkout.session.completed", standin.sessions[session_id], event_id="evt_twice")
    assert [standin.send_raw(payload, signature_header(payload))[1]["outcome"] for _ in range(2)] == [
        "recorded", "duplicate"]
    assert _balance(app, buyer_id) == 10_000

    # The next lead is sold to it, and the price comes off.
    second = make_lead()
    worker.run_until_idle()
    assert len(receiver.posts) == 1
    with app.state.session_factory() as session:
        [sale] = session.scalars(select(Sale).where(Sale.lead_id == second.id)).all()
    assert (sale.buyer_id, sale.price_cents) == (buyer_id, 3000)
    assert _balance(app, buyer_id) == 7_000
    assert browser.get("/api/buyer/account/standing").json()["hold"] is None

    # Returned and approved: the price comes back.
    lodged = browser.post(f"/api/buyer/leads/{second.id}/return", json={"reason": "wrong_phone"})
    assert lodged.status_code == 201, lodged.text
    with app.state.session_factory() as session:
        row = session.scalars(select(LeadReturn).where(LeadReturn.lead_id == second.id)).one()
        decide_return(session, row, approve=True, by="ops@servicematch.example", note="Disconnected.", now=utcnow())
        session.commit()
    assert _balance(app, buyer_id) == 10_000

    # The month's invoice: the payment, the charge (with the lead's reference) and the return; a PDF.
    now = utcnow()
    month = f"{now:%Y-%m}"
    after = datetime(now.year + now.month // 12, now.month % 12 + 1, 1, 1, tzinfo=UTC)
    issue_month(app.state.session_factory, app.state.catalog, month, now=after)
    [invoice] = browser.get("/api/buyer/invoices").json()["items"]
    detail = browser.get(f"/api/buyer/invoices/{invoice['id']}").json()
    assert sorted((line["kind"], line["amount"]) for line in detail["lines"]) == [
        ("charge", -30.0), ("payment", 100.0), ("return", 30.0)]
    shown = shown_reference(second.reference)
    assert [line["reference"] for line in detail["lines"] if line["kind"] == "charge"] == [shown]
    assert (detail["closingBalance"], detail["amountDue"]) == (100.0, 0)
    pdf = browser.get(f"/api/buyer/invoices/{invoice['id']}.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert invoice["label"].encode() in pdf.content and shown.encode() in pdf.content

    with app.state.session_factory() as session:
        findings = reconcile(session)
    assert findings.ok, findings.problems
