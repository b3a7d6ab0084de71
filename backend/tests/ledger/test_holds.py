"""Holds: an account not receiving leads, why and since when; paused for an invoice past due beyond
the grace days and freed once paid; its people told once per hold, by e-mail, naming why and what
to do, and nobody else told."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from servicematch.buyer.hold_notices import buyer_people
from servicematch.buyer.models import BuyerAccount
from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.ledger import holds
from servicematch.ledger.hold_notices import check_holds
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    HoldReason,
    Invoice,
    InvoiceStatus,
    LedgerAccount,
    Terms,
)
from servicematch.ledger.postings import account_for, post
from servicematch.portal.hold_notices import provider_people
from servicematch.portal.models import ProviderAccount
from servicematch.routing.models import Buyer

PEOPLE = {AccountKind.BUYER: buyer_people, AccountKind.PROVIDER: provider_people}
_numbers = itertools.count(9001)


def buyer(app, name: str, *people: str, terms: str = Terms.PREPAID) -> str:
    with app.state.session_factory() as session:
        row = Buyer(id=new_id(), name=name, post_url="https://example.com/post", secret="whsec_x", active=True)
        session.add(row)
        session.flush()
        for email in people:
            session.add(BuyerAccount(buyer_id=row.id, email=email, active=True))
        account = account_for(session, AccountKind.BUYER, row.id, name=name, terms=terms)
        session.commit()
        return account.id


def provider(app, name: str, contact: str, portal_email: str | None = None) -> str:
    with app.state.session_factory() as session:
        row = Provider(name=name, contact_email=contact, services=["hvac"], states=["TX"])
        session.add(row)
        session.flush()
        if portal_email:
            session.add(ProviderAccount(provider_id=row.id, email=portal_email))
        account = account_for(session, AccountKind.PROVIDER, row.id, name=name)
        session.commit()
        return account.id


def change(app, account_id: str, action) -> LedgerAccount:
    with app.state.session_factory() as session:
        account = session.get(LedgerAccount, account_id)
        action(session, account)
        session.commit()
        session.refresh(account)
        session.expunge(account)
        return account


def read(app, account_id: str) -> LedgerAccount:
    return change(app, account_id, lambda session, account: None)


def invoice(app, account_id: str, *, due_days_ago: float, status: str = InvoiceStatus.OPEN, due: int = 3000) -> int:
    number = next(_numbers)
    with app.state.session_factory() as session:
        due_at = utcnow() - timedelta(days=due_days_ago)
        session.add(Invoice(number=number, account_id=account_id, month=f"2020-{number % 12 + 1:02d}",
                            issued_at=due_at - timedelta(days=15), due_at=due_at, opening_cents=0,
                            charges_cents=-due, credits_cents=0, payments_cents=0, closing_cents=-due, due_cents=due,
                            status=status))
        session.commit()
    return number


def test_a_hold_is_set_once_for_its_reason_and_an_overdue_invoice_outranks_funds(app):
    account_id = buyer(app, "Leads Direct LLC")
    first, later = utcnow() - timedelta(hours=2), utcnow()
    held = change(app, account_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, first))
    assert (held.hold_reason, held.hold_notified_at) == (HoldReason.FUNDS, None)
    # Told already; held again for the same reason: nothing changes, nobody is told twice.
    change(app, account_id, lambda s, a: setattr(a, "hold_notified_at", later))
    again = change(app, account_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, later))
    assert again.held_since == held.held_since and again.hold_notified_at is not None

    overdue = change(app, account_id, lambda s, a: holds.hold(s, a, HoldReason.OVERDUE, later))
    assert (overdue.hold_reason, overdue.hold_notified_at) == (HoldReason.OVERDUE, None)  # a new hold, told anew
    still = change(app, account_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, later))
    assert still.hold_reason == HoldReason.OVERDUE

    freed = change(app, account_id, lambda s, a: holds.release(s, a, later))
    assert (freed.hold_reason, freed.held_since, freed.hold_notified_at) == (None, None, None)


def test_a_funds_hold_ends_with_money_to_spend_and_not_before(app):
    account_id = buyer(app, "Leads Direct LLC")
    change(app, account_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, utcnow()))
    results = []
    change(app, account_id, lambda s, a: results.append(holds.release_if_able(s, a, utcnow())))
    assert results == [False] and read(app, account_id).hold_reason == HoldReason.FUNDS

    def pay(session, account):
        post(session, account, kind=EntryKind.PAYMENT, amount_cents=5000, cause=Cause.PAYMENT, cause_id="p-1")
        results.append(holds.release_if_able(session, account, utcnow()))

    change(app, account_id, pay)
    assert results[-1] is True and read(app, account_id).hold_reason is None


def test_an_invoice_past_due_beyond_the_grace_days_pauses_the_account_until_no_such_invoice_is_left(app):
    late_id, recent_id, paid_id = (buyer(app, name, terms=Terms.CREDIT) for name in ("Late", "Recent", "Paid"))
    late_number = invoice(app, late_id, due_days_ago=8)
    invoice(app, recent_id, due_days_ago=6)  # past due, within the grace days
    invoice(app, paid_id, due_days_ago=30, status=InvoiceStatus.PAID)
    with app.state.session_factory() as session:
        assert holds.pause_overdue(session, utcnow(), grace_days=7) == (1, 0)
        session.commit()
    assert [read(app, i).hold_reason for i in (late_id, recent_id, paid_id)] == [HoldReason.OVERDUE, None, None]
    with app.state.session_factory() as session:
        said = holds.hold_words(session, session.get(LedgerAccount, late_id), utcnow(), grace_days=7)
    assert f"invoice {late_number} is past due" in said.why and said.what.startswith(f"Pay invoice {late_number}")

    # Paying the invoice is not enough for release_if_able while another is still overdue.
    second = invoice(app, late_id, due_days_ago=20)
    with app.state.session_factory() as session:
        session.execute(Invoice.__table__.update().where(Invoice.number == late_number).values(status="paid"))
        account = session.get(LedgerAccount, late_id)
        assert holds.release_if_able(session, account, utcnow(), grace_days=7) is False
        session.execute(Invoice.__table__.update().where(Invoice.number == second).values(status="paid"))
        assert holds.pause_overdue(session, utcnow(), grace_days=7) == (0, 1)
        session.commit()
    assert read(app, late_id).hold_reason is None


def test_the_words_say_why_and_what_to_do_by_terms():
    prepaid = LedgerAccount(terms=Terms.PREPAID, balance_cents=-500, hold_reason=HoldReason.FUNDS)
    said = holds.hold_words(None, prepaid, utcnow())
    assert said.why == "your balance of -$5.00 does not cover the price of a lead"
    assert said.what == "Add funds, and leads start again at once."
    credit = LedgerAccount(terms=Terms.CREDIT, balance_cents=-4900, credit_limit_cents=5000,
                           hold_reason=HoldReason.FUNDS)
    assert "credit limit is used up ($1.00 left" in holds.hold_words(None, credit, utcnow()).why
    assert holds.hold_words(None, LedgerAccount(terms=Terms.PREPAID, balance_cents=0), utcnow()) is None


@pytest.fixture
def run_chore(app, settings):
    def run(now=None) -> int:
        return check_holds(session_factory=app.state.session_factory, settings=settings, now=now or utcnow(),
                           people=PEOPLE)
    return run


def test_each_hold_is_told_once_to_the_accounts_own_people_and_told_again_only_for_a_new_hold(app, smtp, run_chore):
    held_id = buyer(app, "Leads Direct LLC", "ops@leadsdirect.example", "cfo@leadsdirect.example")
    buyer(app, "Other Buyer Inc", "someone@other.example")  # not held: told nothing
    change(app, held_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, utcnow()))

    assert run_chore() == 1
    assert sorted(to for message in smtp.messages for to in message[0]) == ["cfo@leadsdirect.example",
                                                                           "ops@leadsdirect.example"]
    text = smtp.messages[0][1]
    assert "You are not receiving leads" in text and "Leads Direct LLC is not receiving leads" in text
    assert "does not cover the price of a lead" in text and "Add funds" in text
    assert "Other Buyer" not in text and "/buyer/billing" in text
    assert read(app, held_id).hold_notified_at is not None

    assert run_chore() == 0 and len(smtp.messages) == 2  # told once
    change(app, held_id, lambda s, a: holds.release(s, a, utcnow()))
    change(app, held_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, utcnow()))
    assert run_chore() == 1 and len(smtp.messages) == 4


def test_a_provider_is_told_at_its_portal_address_or_else_its_contact_address(app, smtp, run_chore):
    with_portal = provider(app, "Cool Air LLC", "dispatch@coolair.example", portal_email="owner@coolair.example")
    without = provider(app, "Lone Star Heating", "office@lonestar.example")
    for account_id in (with_portal, without):
        change(app, account_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, utcnow()))
    assert run_chore() == 2
    assert sorted(to for message in smtp.messages for to in message[0]) == ["office@lonestar.example",
                                                                           "owner@coolair.example"]
    assert all("/pro/money" in text for _, text in smtp.messages)


def test_the_chore_pauses_an_overdue_account_and_tells_it_which_invoice_to_pay(app, smtp, run_chore):
    account_id = buyer(app, "Leads Direct LLC", "ops@leadsdirect.example", terms=Terms.CREDIT)
    number = invoice(app, account_id, due_days_ago=10)
    assert run_chore() == 1
    assert read(app, account_id).hold_reason == HoldReason.OVERDUE
    [(_, text)] = smtp.messages
    assert f"invoice {number} is past due" in text and f"Pay invoice {number}" in text
    assert "/buyer/invoices" in text


def test_a_notice_that_could_not_be_sent_is_tried_again_on_the_next_run(app, settings, smtp, run_chore):
    account_id = buyer(app, "Leads Direct LLC", "ops@leadsdirect.example")
    change(app, account_id, lambda s, a: holds.hold(s, a, HoldReason.FUNDS, utcnow()))
    smtp.stop()  # the mail server is away: worth another try
    down = check_holds(session_factory=app.state.session_factory,
                       settings=settings.model_copy(update={"delivery_timeout_seconds": 2}), now=utcnow(),
                       people=PEOPLE)
    assert down == 0 and read(app, account_id).hold_notified_at is None
