"""Recording payments: each credits its account exactly once; a failure, a dispute and a refund are
entries of their own; a payment frees an account held for want of funds once it can pay again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.ledger import holds, payments
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    HoldReason,
    Invoice,
    InvoiceStatus,
    LedgerAccount,
    LedgerEntry,
    PaymentMethod,
    PaymentStatus,
    Terms,
)
from servicematch.ledger.postings import account_for, post


def _kinds(session, account) -> list[tuple[str, int]]:
    return [(e.kind, e.amount_cents) for e in session.scalars(
        select(LedgerEntry).where(LedgerEntry.account_id == account.id).order_by(LedgerEntry.id))]


@pytest.mark.parametrize(("typed", "cents"), [("250", 25_000), (250, 25_000), ("0.01", 1), (1250.5, 125_050),
                                              ("10000000", 1_000_000_000)])
def test_dollars_as_typed_become_whole_cents(typed, cents):
    assert payments.to_cents(typed) == cents


@pytest.mark.parametrize("typed", ["", "abc", None, "0", "-5", "1.234", "nan", "inf", "10000000.01", "1e9"])
def test_an_amount_that_is_not_dollars_and_cents_is_refused_by_name(typed):
    with pytest.raises(ServiceMatchError) as refused:
        payments.to_cents(typed, field="amount")
    assert refused.value.status_code == 422 and "amount" in refused.value.fields


def test_a_recorded_payment_credits_its_account_at_once_and_once(session_factory):
    with session_factory() as session:
        account = account_for(session, AccountKind.PROVIDER, "provider-1", name="Cool Air LLC")
        row = payments.record_payment(session, account, amount_cents=125_000, method=PaymentMethod.WIRE,
                                      note="  Wire ref 8812 ", by="ops@example.com", now=utcnow())
        session.commit()
        assert (row.status, row.note, row.recorded_by) == (PaymentStatus.SUCCEEDED, "Wire ref 8812", "ops@example.com")
        payments.succeed(session, row, amount_cents=125_000, by="ops@example.com", now=utcnow())
        session.commit()
        assert session.get(LedgerAccount, account.id).balance_cents == 125_000
        [entry] = session.scalars(select(LedgerEntry).where(LedgerEntry.account_id == account.id)).all()
        assert (entry.kind, entry.cause, entry.cause_id, entry.description, entry.note) == (
            EntryKind.PAYMENT, Cause.PAYMENT, row.id, "Payment by wire", "Wire ref 8812")


@pytest.mark.parametrize(("change", "field"), [({"method": "card"}, "method"), ({"note": "  "}, "note"),
                                               ({"amount_cents": 0}, "amount")])
def test_a_recorded_payment_needs_a_method_a_note_and_an_amount(session_factory, change, field):
    ask = {"amount_cents": 100, "method": PaymentMethod.CHEQUE, "note": "Cheque 104", **change}
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, "buyer-1")
        with pytest.raises(ServiceMatchError) as refused:
            payments.record_payment(session, account, by="ops", now=utcnow(), **ask)
        assert field in refused.value.fields
        session.rollback()
        assert session.scalar(select(func.count()).select_from(LedgerEntry)) == 0


def test_a_card_payment_fails_on_the_record_and_a_late_success_still_credits(session_factory):
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, "buyer-2")
        declined = payments.open_card_payment(session, account, amount_cents=5_000, automatic=True, by="t",
                                              now=utcnow())
        abandoned = payments.open_card_payment(session, account, amount_cents=7_000, automatic=False, by="t",
                                               now=utcnow())
        payments.fail(session, declined, reason="Your card was declined.", now=utcnow())
        payments.fail(session, declined, reason="again", now=utcnow())  # failed already: nothing more
        payments.fail(session, abandoned, reason=payments.EXPIRED, now=utcnow(), on_record=False)
        assert (declined.status, declined.failure) == (PaymentStatus.FAILED, "Your card was declined.")
        assert _kinds(session, account) == [(EntryKind.PAYMENT_FAILED, 0)]
        # Stripe took the money after all: the money that moved is credited.
        payments.succeed(session, declined, amount_cents=5_000, by="stripe", now=utcnow())
        session.commit()
        assert declined.status == PaymentStatus.SUCCEEDED and declined.failure is None
        assert session.get(LedgerAccount, account.id).balance_cents == 5_000


def test_what_was_received_is_credited_when_it_differs_from_what_was_asked(session_factory):
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, "buyer-3")
        row = payments.open_card_payment(session, account, amount_cents=5_000, automatic=False, by="t", now=utcnow())
        payments.succeed(session, row, amount_cents=4_900, by="stripe", now=utcnow())
        session.commit()
        assert row.amount_cents == 4_900 and session.get(LedgerAccount, account.id).balance_cents == 4_900


def test_disputes_and_refunds_take_back_no_more_than_was_paid(session_factory):
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, "buyer-4")
        pending = payments.open_card_payment(session, account, amount_cents=3_000, automatic=False, by="t",
                                             now=utcnow())
        payments.dispute(session, pending, amount_cents=3_000, now=utcnow())  # never paid: nothing to dispute
        payments.refund(session, pending, refunded_total_cents=3_000, now=utcnow())
        assert _kinds(session, account) == []
        paid = payments.record_payment(session, account, amount_cents=2_000, method="other", note="n", by="t",
                                       now=utcnow())
        payments.refund(session, paid, refunded_total_cents=9_999, now=utcnow())
        assert paid.status == PaymentStatus.REFUNDED
        payments.dispute(session, paid, amount_cents=9_999, now=utcnow())  # all refunded: nothing left
        partly = payments.record_payment(session, account, amount_cents=5_000, method="other", note="n", by="t",
                                         now=utcnow())
        payments.refund(session, partly, refunded_total_cents=1_000, now=utcnow())
        payments.dispute(session, partly, amount_cents=5_000, now=utcnow())
        session.commit()
        assert _kinds(session, account) == [(EntryKind.PAYMENT, 2_000), (EntryKind.REFUND, -2_000),
                                            (EntryKind.PAYMENT, 5_000), (EntryKind.REFUND, -1_000),
                                            (EntryKind.DISPUTE, -4_000)]


def test_a_payment_frees_an_account_held_for_funds_once_it_can_pay(session_factory):
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, "buyer-5", terms=Terms.PREPAID)
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-5_000, cause=Cause.SALE, cause_id="s1")
        holds.hold(session, account, HoldReason.FUNDS, utcnow())
        payments.record_payment(session, account, amount_cents=4_000, method="wire", note="part", by="t", now=utcnow())
        assert account.hold_reason == HoldReason.FUNDS  # -$10: still cannot pay
        payments.record_payment(session, account, amount_cents=3_000, method="wire", note="rest", by="t", now=utcnow())
        session.commit()
        assert account.hold_reason is None and account.balance_cents == 2_000


def test_a_payment_pays_an_overdue_invoice_and_ends_its_hold(session_factory):
    now = utcnow()
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, "buyer-6", terms=Terms.CREDIT)
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-5_000, cause=Cause.SALE, cause_id="s6",
             now=now - timedelta(days=60))
        invoice = Invoice(number=9_001, account_id=account.id, month=f"{now - timedelta(days=60):%Y-%m}",
                          issued_at=now - timedelta(days=40), due_at=now - timedelta(days=25), opening_cents=0,
                          charges_cents=-5_000, credits_cents=0, payments_cents=0, closing_cents=-5_000,
                          due_cents=5_000, status=InvoiceStatus.OPEN)
        session.add(invoice)
        holds.hold(session, account, HoldReason.OVERDUE, now)
        payments.record_payment(session, account, amount_cents=2_000, method="cheque", note="part", by="t", now=now)
        assert (invoice.status, account.hold_reason) == (InvoiceStatus.OPEN, HoldReason.OVERDUE)
        row = payments.open_card_payment(session, account, amount_cents=3_000, automatic=False, by="t", now=now)
        payments.succeed(session, row, amount_cents=3_000, by="stripe", now=now, grace_days=7)
        session.commit()
        assert invoice.status == InvoiceStatus.PAID and account.hold_reason is None
