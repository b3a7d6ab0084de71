"""The auction sells only to buyers that can pay: a bid its buyer's balance (plus credit) cannot
cover is a pass saying so, with the bid, in the waterfall, and the next bid wins; each sale is
charged to the buyer's account in the transaction that records it."""

from __future__ import annotations

import itertools

import pytest
from bidding_buyers import sales_in, steps_in
from buyer_receivers import BuyerReceiver
from delivery_receivers import started_receivers
from sqlalchemy import select

from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    HoldReason,
    LedgerAccount,
    LedgerEntry,
    Terms,
)
from servicematch.ledger.postings import account_for, post
from servicematch.ledger.terms import TermsChange, change_terms
from servicematch.routing import buyers as directory
from servicematch.routing.models import StepKind

PERSONAL = ("Maria", "Garcia", "5125550", "500 Congress")
_funding = itertools.count(1)


@pytest.fixture
def settings(settings):
    """Buyers of the buyers table only: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": "", "ping_timeout_ms": 400})


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


@pytest.fixture
def add_buyer(session_factory, prepaid_by_default):
    """add(name, receiver, price=None, money=TermsChange(...)): a new buyer, prepaid and empty unless told."""
    def add(name: str, receiver: BuyerReceiver, *, price: float | None = None, exclusive: bool = True,
            money: TermsChange | None = None) -> str:
        with session_factory() as session:
            buyer = directory.add_buyer(session, directory.BuyerTerms(
                name=name, post_url=receiver.post_url, ping_url=None if price else receiver.ping_url,
                price_cents=round(price * 100) if price else None, exclusive=exclusive), allow_private=True,
                money=money)
            session.commit()
            return buyer.id
    return add


def fund(session_factory, buyer_id: str, cents: int) -> None:
    """Money in (or out, negative), as an operator's adjustment."""
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, buyer_id)
        post(session, account, kind=EntryKind.ADJUSTMENT, amount_cents=cents, cause=Cause.ADJUSTMENT,
             cause_id=f"funding-{next(_funding)}", note="test funds", created_by="test")
        session.commit()


def account_of(session_factory, buyer_id: str) -> LedgerAccount:
    with session_factory() as session:
        account = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.BUYER,
                                                              LedgerAccount.owner_id == buyer_id)).one()
        session.expunge(account)
        return account


def charges_of(session_factory, buyer_id: str) -> list[LedgerEntry]:
    with session_factory() as session:
        return list(session.scalars(select(LedgerEntry).join(LedgerAccount, LedgerAccount.id == LedgerEntry.account_id)
                                    .where(LedgerAccount.owner_id == buyer_id, LedgerEntry.kind == EntryKind.CHARGE)))


def test_a_prepaid_buyer_without_funds_is_skipped_with_its_reason_and_the_next_bid_wins(
        make_lead, worker, buyers, add_buyer, session_factory):
    empty, funded = buyers(), buyers()
    empty_id = add_buyer("Empty Leads", empty, price=40)
    funded_id = add_buyer("Funded Leads", funded, price=25)
    fund(session_factory, funded_id, 10_000)
    lead = make_lead()
    worker.run_until_idle()

    assert empty.posts == [] and empty.pings == []
    [skipped] = steps_in(session_factory, lead.id, empty_id)
    assert (skipped.kind, skipped.amount_cents, skipped.detail) == (StepKind.PASS, 4000, "cannot pay: $0.00 available")
    [sale] = sales_in(session_factory, lead.id)
    assert (sale.buyer_id, sale.price_cents) == (funded_id, 2500)
    # Held for funds, to be told once; the buyer that paid is not.
    assert account_of(session_factory, empty_id).hold_reason == HoldReason.FUNDS
    assert account_of(session_factory, funded_id).hold_reason is None


def test_a_funded_prepaid_buyer_wins_and_its_balance_falls_by_the_price_in_one_charge_without_personal_data(
        make_lead, worker, buyers, add_buyer, session_factory):
    receiver = buyers(ping_answer={"bid": 42.5})
    buyer_id = add_buyer("Rich Leads", receiver)
    fund(session_factory, buyer_id, 5000)
    lead = make_lead()
    worker.run_until_idle()

    [sale] = sales_in(session_factory, lead.id)
    assert sale.price_cents == 4250
    assert account_of(session_factory, buyer_id).balance_cents == 5000 - 4250
    [entry] = charges_of(session_factory, buyer_id)
    assert (entry.amount_cents, entry.cause, entry.cause_id, entry.lead_id) == (-4250, Cause.SALE, sale.id, lead.id)
    assert (entry.vertical, entry.service, entry.state) == (lead.vertical, "hvac", "TX")
    assert entry.description.endswith("lead, Austin TX 78701")
    assert not any(personal in entry.description for personal in PERSONAL)
    # Settling the same answers again charges nothing more.
    worker.router.sweep(force=True)
    assert len(charges_of(session_factory, buyer_id)) == 1


def test_a_ping_buyers_bid_above_what_it_can_spend_is_a_pass_with_the_bid_and_the_next_bid_wins(
        make_lead, worker, buyers, add_buyer, session_factory):
    rich, modest = buyers(ping_answer={"bid": 42.5}), buyers(ping_answer={"bid": 12})
    rich_id = add_buyer("Rich Leads", rich)
    modest_id = add_buyer("Modest Leads", modest)
    fund(session_factory, rich_id, 2000)
    fund(session_factory, modest_id, 2000)
    lead = make_lead()
    worker.run_until_idle()

    assert len(rich.pings) == 1 and rich.posts == []
    [ping, passed] = steps_in(session_factory, lead.id, rich_id)
    assert ping.kind == StepKind.PING
    assert (passed.kind, passed.amount_cents, passed.detail) == (StepKind.PASS, 4250, "cannot pay: $20.00 available")
    [sale] = sales_in(session_factory, lead.id)
    assert (sale.buyer_id, sale.price_cents) == (modest_id, 1200)
    assert account_of(session_factory, rich_id).balance_cents == 2000  # charged nothing


def test_a_credit_buyer_with_a_limit_buys_down_to_its_limit_and_then_stops(
        make_lead, worker, buyers, add_buyer, session_factory):
    limited, backup = buyers(), buyers()
    limited_id = add_buyer("Limited Leads", limited, price=30,
                           money=TermsChange(terms=Terms.CREDIT, credit_limit_cents=5000))
    backup_id = add_buyer("Backup Leads", backup, price=5, money=TermsChange(terms=Terms.CREDIT))
    first = make_lead()
    worker.run_until_idle()
    second = make_lead()
    worker.run_until_idle()

    assert [sale.buyer_id for sale in sales_in(session_factory, first.id)] == [limited_id]
    assert account_of(session_factory, limited_id).balance_cents == -3000
    # $20 of credit left: not enough for $30.
    [skipped] = steps_in(session_factory, second.id, limited_id)
    assert skipped.detail == "cannot pay: $20.00 available"
    assert [sale.buyer_id for sale in sales_in(session_factory, second.id)] == [backup_id]
    # Credit with no limit always buys: the backup's balance is simply below zero.
    assert account_of(session_factory, backup_id).balance_cents == -500
    assert account_of(session_factory, limited_id).hold_reason == HoldReason.FUNDS


def test_two_leads_decided_together_never_spend_the_same_dollars(
        make_leads_together, worker, buyers, add_buyer, session_factory):
    only_one, backup = buyers(), buyers()
    only_one_id = add_buyer("One Lead Of Funds", only_one, price=30)
    backup_id = add_buyer("Backup Leads", backup, price=5, money=TermsChange(terms=Terms.CREDIT))
    fund(session_factory, only_one_id, 5000)
    first, second = make_leads_together(2)
    worker.run_until_idle()

    buyers_of = sorted(sale.buyer_id for lead in (first, second) for sale in sales_in(session_factory, lead.id))
    assert buyers_of == sorted([only_one_id, backup_id])
    assert account_of(session_factory, only_one_id).balance_cents == 2000
    assert len(only_one.posts) == 1


def test_a_post_under_way_binds_its_price_for_the_next_auction(
        make_lead, worker, buyers, add_buyer, session_factory):
    only_one, backup = buyers(), buyers()
    only_one_id = add_buyer("One Lead Of Funds", only_one, price=30)
    backup_id = add_buyer("Backup Leads", backup, price=5, money=TermsChange(terms=Terms.CREDIT))
    fund(session_factory, only_one_id, 5000)
    first = make_lead()  # decided and posted, not answered yet: its $30 are bound
    second = make_lead()
    worker.run_until_idle()

    assert [sale.buyer_id for sale in sales_in(session_factory, first.id)] == [only_one_id]
    assert [sale.buyer_id for sale in sales_in(session_factory, second.id)] == [backup_id]
    assert steps_in(session_factory, second.id, only_one_id)[0].detail == "cannot pay: $20.00 available"
    assert account_of(session_factory, only_one_id).balance_cents == 2000


def test_a_bid_whose_turn_comes_after_a_refusal_is_passed_on_if_its_buyer_spent_meanwhile(
        make_lead, worker, buyers, add_buyer, session_factory):
    refuser, next_in_line = buyers(ping_answer={"bid": 50}, post_status=409), buyers(ping_answer={"bid": 30})
    add_buyer("Refuser", refuser, money=TermsChange(terms=Terms.CREDIT))
    next_id = add_buyer("Next In Line", next_in_line)
    fund(session_factory, next_id, 4000)
    lead = make_lead()  # decided now: the refuser is posted, the next bid waits for its answer
    fund(session_factory, next_id, -2000)  # spent elsewhere meanwhile: $20 left for a $30 bid
    worker.run_until_idle()

    assert len(refuser.posts) >= 1 and next_in_line.posts == []
    kinds = [(step.kind, step.amount_cents, step.detail) for step in steps_in(session_factory, lead.id, next_id)]
    assert (StepKind.BID, 3000, None) in kinds
    assert (StepKind.PASS, 3000, "cannot pay: $20.00 available") in kinds
    assert sales_in(session_factory, lead.id) == []
    assert account_of(session_factory, next_id).hold_reason == HoldReason.FUNDS


def test_a_buyer_that_can_pay_again_is_freed_from_its_hold_when_it_next_buys(
        make_lead, worker, buyers, add_buyer, session_factory):
    receiver = buyers()
    buyer_id = add_buyer("Comeback Leads", receiver, price=20)
    make_lead()
    worker.run_until_idle()
    assert account_of(session_factory, buyer_id).hold_reason == HoldReason.FUNDS

    fund(session_factory, buyer_id, 2000)
    lead = make_lead()
    worker.run_until_idle()
    assert [sale.buyer_id for sale in sales_in(session_factory, lead.id)] == [buyer_id]
    account = account_of(session_factory, buyer_id)
    assert (account.hold_reason, account.balance_cents) == (None, 0)


def test_an_account_held_for_an_overdue_invoice_is_skipped_whatever_its_funds(
        make_lead, worker, buyers, add_buyer, session_factory):
    receiver, backup = buyers(), buyers()
    overdue_id = add_buyer("Overdue Leads", receiver, price=20, money=TermsChange(terms=Terms.CREDIT))
    add_buyer("Backup Leads", backup, price=5, money=TermsChange(terms=Terms.CREDIT))
    with session_factory() as session:
        account = session.scalars(select(LedgerAccount).where(LedgerAccount.owner_id == overdue_id)).one()
        account.hold_reason = HoldReason.OVERDUE
        session.commit()
    lead = make_lead()
    worker.run_until_idle()

    [skipped] = steps_in(session_factory, lead.id, overdue_id)
    assert skipped.detail == "paused: an invoice is past due"
    assert receiver.posts == []


def test_buyers_on_credit_without_a_limit_buy_as_before_and_every_sale_has_its_charge(
        make_lead, worker, buyers, session_factory):
    """The buyers that existed before money (and the tests' default): credit terms, no limit."""
    receiver = buyers(ping_answer={"bid": 15})
    with session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(name="Old Friend", post_url=receiver.post_url,
                                                                  ping_url=receiver.ping_url), allow_private=True)
        change_terms(session, AccountKind.BUYER, buyer.id, TermsChange(terms=Terms.CREDIT))
        session.commit()
        buyer_id = buyer.id
    leads = [make_lead() for _ in range(3)]
    worker.run_until_idle()

    assert all(len(sales_in(session_factory, lead.id)) == 1 for lead in leads)
    assert account_of(session_factory, buyer_id).balance_cents == -4500
    assert sorted(entry.lead_id for entry in charges_of(session_factory, buyer_id)) == sorted(lead.id for lead in leads)
