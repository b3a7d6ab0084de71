"""Providers are offered only the leads they can pay for: one whose balance (plus credit) cannot
cover a lead's price is passed over with a "pass" step saying so, held for funds, and the lead goes
to the next matching provider; an accept it cannot pay is refused, and nothing is charged."""

from __future__ import annotations

import itertools

import pytest
from offers_support import deliveries_to, ledger_of, offers_of
from sqlalchemy import select

from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    HoldReason,
    LedgerAccount,
    Terms,
)
from servicematch.ledger.postings import post
from servicematch.ledger.terms import TermsChange, change_terms, open_account
from servicematch.routing.models import AuctionStep, OfferStatus, StepKind
from servicematch.routing.pricing import EXCLUSIVE_FACTOR

PRICE = 2500  # an HVAC lead's list price
_funding = itertools.count(1)


@pytest.fixture(autouse=True)
def prepaid(prepaid_by_default):
    """Every provider here is a new one: prepaid and empty unless a test funds it."""


def fund(session_factory, provider_id: str, cents: int) -> None:
    """Money in (or out, negative), as an operator's adjustment."""
    with session_factory() as session:
        account = open_account(session, AccountKind.PROVIDER, provider_id)
        post(session, account, kind=EntryKind.ADJUSTMENT, amount_cents=cents, cause=Cause.ADJUSTMENT,
             cause_id=f"funding-{next(_funding)}", note="test funds", created_by="test")
        session.commit()


def give_credit(session_factory, provider_id: str, limit_cents: int | None) -> None:
    with session_factory() as session:
        change_terms(session, AccountKind.PROVIDER, provider_id,
                     TermsChange(terms=Terms.CREDIT, credit_limit_cents=limit_cents))
        session.commit()


def account_of(session_factory, provider_id: str) -> LedgerAccount | None:
    with session_factory() as session:
        account = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.PROVIDER,
                                                              LedgerAccount.owner_id == provider_id)).first()
        if account is not None:
            session.expunge(account)
        return account


def passes_of(session_factory, lead_id: str) -> list[str]:
    with session_factory() as session:
        return list(session.scalars(select(AuctionStep.detail).where(
            AuctionStep.lead_id == lead_id, AuctionStep.kind == StepKind.PASS, AuctionStep.buyer_id.is_(None))
            .order_by(AuctionStep.created_at)))


def test_a_prepaid_provider_without_funds_is_passed_over_and_held_and_the_next_provider_gets_the_seat(
        reviewer, make_lead, session_factory):
    broke = reviewer("Broke Air")  # first in line: never matched, made first
    paying = [reviewer(f"Paying Air {n}") for n in range(3)]
    for pro in paying:
        fund(session_factory, pro.provider_id, 10_000)

    lead = make_lead()

    offered = offers_of(session_factory, lead.id)
    # Its seat went to the third paying provider, which would have had none.
    assert set(offered) == {pro.provider_id for pro in paying}
    assert deliveries_to(session_factory, lead.id, broke.provider_id) == []
    assert passes_of(session_factory, lead.id) == ["Provider Broke Air: cannot pay: $0.00 available"]
    # It had no account: one is made for it, to hold it (and tell it once).
    account = account_of(session_factory, broke.provider_id)
    assert (account.terms, account.balance_cents, account.hold_reason) == (Terms.PREPAID, 0, HoldReason.FUNDS)
    assert account.held_since is not None and account.hold_notified_at is None
    assert all(account_of(session_factory, pro.provider_id).hold_reason is None for pro in paying)
    assert ledger_of(session_factory, broke.provider_id) == []


def test_funded_it_is_offered_the_next_lead_released_and_its_balance_falls_by_the_price_on_accept(
        reviewer, make_lead, session_factory):
    pro = reviewer("Broke Air")
    make_lead()
    assert account_of(session_factory, pro.provider_id).hold_reason == HoldReason.FUNDS

    fund(session_factory, pro.provider_id, 3000)
    lead = make_lead()

    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    assert (offer.status, offer.price_cents) == (OfferStatus.OPEN, PRICE)
    account = account_of(session_factory, pro.provider_id)
    assert (account.hold_reason, account.held_since) == (None, None)
    assert passes_of(session_factory, lead.id) == []

    assert pro.send("POST", f"{pro.me}/offers/{offer.id}/accept").status_code == 200
    assert account_of(session_factory, pro.provider_id).balance_cents == 3000 - PRICE
    charge = ledger_of(session_factory, pro.provider_id)[-1]
    assert (charge.kind, charge.amount_cents, charge.cause, charge.cause_id) == (
        EntryKind.CHARGE, -PRICE, Cause.OFFER, offer.id)


def test_its_open_offers_bind_its_money_so_it_is_offered_no_more_than_it_can_pay_without_a_hold(
        reviewer, make_lead, session_factory):
    pro = reviewer("Careful Air")
    fund(session_factory, pro.provider_id, PRICE)
    first = make_lead()
    offer = offers_of(session_factory, first.id)[pro.provider_id]

    second = make_lead()

    assert offers_of(session_factory, second.id) == {}
    assert passes_of(session_factory, second.id) == [
        "Provider Careful Air: cannot pay: $0.00 available (its open offers hold $25.00)"]
    # Its balance covers a lead: it is waiting on its own answer, not short of money.
    assert account_of(session_factory, pro.provider_id).hold_reason is None
    # Its one open offer can be accepted.
    assert pro.send("POST", f"{pro.me}/offers/{offer.id}/accept").status_code == 200
    assert account_of(session_factory, pro.provider_id).balance_cents == 0


def test_a_credit_provider_with_a_limit_stops_at_the_limit(reviewer, make_lead, session_factory):
    pro = reviewer("Quick Air", auto_accept=True)
    give_credit(session_factory, pro.provider_id, 2 * PRICE)

    leads = [make_lead() for _ in range(3)]

    assert [pro.provider_id in offers_of(session_factory, lead.id) for lead in leads] == [True, True, False]
    assert passes_of(session_factory, leads[2].id) == ["Provider Quick Air: cannot pay: $0.00 available"]
    account = account_of(session_factory, pro.provider_id)
    assert (account.balance_cents, account.hold_reason) == (-2 * PRICE, HoldReason.FUNDS)
    assert len(ledger_of(session_factory, pro.provider_id)) == 2


def test_a_credit_provider_without_a_limit_is_never_held(reviewer, make_lead, session_factory):
    pro = reviewer("Trusted Air", auto_accept=True)
    give_credit(session_factory, pro.provider_id, None)

    leads = [make_lead() for _ in range(3)]

    assert all(pro.provider_id in offers_of(session_factory, lead.id) for lead in leads)
    account = account_of(session_factory, pro.provider_id)
    assert (account.balance_cents, account.hold_reason) == (-3 * PRICE, None)


def test_a_direct_provider_that_cannot_pay_is_sent_nothing_and_charged_nothing(
        add_direct, make_lead, session_factory):
    broke, paying = add_direct("Broke Heating"), add_direct("Paying Heating")
    fund(session_factory, paying.id, PRICE)

    lead = make_lead()

    assert set(offers_of(session_factory, lead.id)) == {paying.id}
    assert deliveries_to(session_factory, lead.id, broke.id) == []
    assert ledger_of(session_factory, broke.id) == []
    assert account_of(session_factory, broke.id).hold_reason == HoldReason.FUNDS
    assert account_of(session_factory, paying.id).balance_cents == 0


def test_a_do_not_sell_lead_is_free_so_an_empty_account_still_gets_it(reviewer, make_lead, session_factory):
    pro = reviewer("Broke Air")

    lead = make_lead(do_not_sell=True)

    assert offers_of(session_factory, lead.id)[pro.provider_id].price_cents == 0
    assert account_of(session_factory, pro.provider_id) is None


def test_an_exclusive_lead_it_cannot_pay_for_is_offered_at_the_shared_price(reviewer, make_lead, session_factory):
    pro = reviewer("Only Air", exclusive_leads=True)
    fund(session_factory, pro.provider_id, round(PRICE * EXCLUSIVE_FACTOR) - 1)

    lead = make_lead()

    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    assert (offer.exclusive, offer.price_cents) == (False, PRICE)
    assert account_of(session_factory, pro.provider_id).hold_reason is None


@pytest.mark.parametrize(("credit_limit", "message"), [
    (None, "Your balance of $5.00 does not cover this lead's $25.00: add funds on the Money page."),
    (3000, ("Your credit left, $5.00, does not cover this lead's $25.00: add funds or pay your open invoice on "
            "the Money page.")),
])
def test_an_accept_it_cannot_pay_is_refused_with_its_reason_and_nothing_is_charged(
        reviewer, make_lead, session_factory, credit_limit, message):
    pro = reviewer("Cool Air")
    if credit_limit is None:
        fund(session_factory, pro.provider_id, PRICE)  # prepaid: $25.00 to spend
    else:
        give_credit(session_factory, pro.provider_id, credit_limit)  # $30.00 to spend
    lead = make_lead()
    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    # Its money fell after the offer was made (a refund, an operator's correction): $5.00 is left.
    fund(session_factory, pro.provider_id, -(PRICE - 500) if credit_limit is None else -PRICE)
    before = ledger_of(session_factory, pro.provider_id)

    refused = pro.send("POST", f"{pro.me}/offers/{offer.id}/accept")

    assert refused.status_code == 409 and refused.json()["error"] == message
    assert offers_of(session_factory, lead.id)[pro.provider_id].status == OfferStatus.OPEN
    assert [entry.id for entry in ledger_of(session_factory, pro.provider_id)] == [entry.id for entry in before]
    assert account_of(session_factory, pro.provider_id).balance_cents == sum(entry.amount_cents for entry in before)
    assert pro.get(f"{pro.me}/offers/{offer.id}").json()["contact"] is None
