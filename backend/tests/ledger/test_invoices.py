"""Issuing a month's invoices: every line and total, the balance due and its date, one gap-free
sequence of numbers (also with two issuers at once, and after a rollback), nothing issued twice, and
invoices settled by what is paid after their month."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from invoice_support import (
    AFTER_MONTH,
    BEFORE_MONTH,
    ISSUED,
    MONTH,
    charge,
    entry,
    invoice_of,
    issue,
    ledger_account,
    payment,
)
from sqlalchemy import select

from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.kernel.references import shown_reference
from servicematch.ledger import invoices
from servicematch.ledger.invoice_payments import pay_invoice
from servicematch.ledger.invoice_settling import outstanding_cents, settle_invoices
from servicematch.ledger.invoices import MonthError, issue_month, previous_month
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    Invoice,
    InvoiceLine,
    InvoiceStatus,
    LedgerAccount,
    Payment,
    Terms,
)


def _lines(app, invoice_id: str) -> list[tuple]:
    with app.state.session_factory() as session:
        return [(line.kind, line.reference, line.description, line.amount_cents) for line in session.scalars(
            select(InvoiceLine).where(InvoiceLine.invoice_id == invoice_id).order_by(InvoiceLine.at, InvoiceLine.id))]


def _numbers(app) -> list[int]:
    with app.state.session_factory() as session:
        return sorted(session.scalars(select(Invoice.number)))


def _reference(app, lead_id: str) -> str:
    with app.state.session_factory() as session:
        return shown_reference(session.get(Lead, lead_id).reference)


def test_the_invoice_carries_every_line_of_the_month_and_totals_that_add_up(app):
    account = ledger_account(app, AccountKind.BUYER, "buyer-1", name="Leads Direct LLC", net_days=10)
    charge(app, account, 2_000, at=BEFORE_MONTH)  # last month: the opening balance
    first = charge(app, account, 3_000, at=BEFORE_MONTH + timedelta(days=10))
    second = charge(app, account, 4_500, at=BEFORE_MONTH + timedelta(days=12))
    entry(app, account, EntryKind.RETURN, 3_000, at=BEFORE_MONTH + timedelta(days=13), lead_id=first,
          cause=Cause.RETURN, service="hvac", vertical="services", state="TX", description="Return: wrong phone")
    payment(app, account, 5_000, at=BEFORE_MONTH + timedelta(days=14))
    entry(app, account, EntryKind.ADJUSTMENT, -100, at=BEFORE_MONTH + timedelta(days=15), description="Late fee")
    entry(app, account, EntryKind.PAYMENT_FAILED, 0, at=BEFORE_MONTH + timedelta(days=16), cause=Cause.PAYMENT)
    charge(app, account, 999, at=AFTER_MONTH)  # next month's

    done = issue(app)

    assert len(done.issued) == 1 and done.already == 0
    invoice = invoice_of(app, account)
    hvac = app.state.catalog.find("hvac", "services").name
    assert _lines(app, invoice.id) == [
        ("charge", _reference(app, first), f"{hvac} lead, TX", -3_000),
        ("charge", _reference(app, second), f"{hvac} lead, TX", -4_500),
        ("return", _reference(app, first), f"Return: {hvac} lead, TX", 3_000),
        ("payment", None, "Payment by wire", 5_000),
        ("adjustment", None, "Late fee", -100),
    ]  # the failed payment moved nothing: no line; no city or ZIP on any line
    assert (invoice.opening_cents, invoice.charges_cents, invoice.credits_cents, invoice.payments_cents,
            invoice.closing_cents) == (-2_000, -7_500, 2_900, 5_000, -1_600)
    assert (invoice.due_cents, invoice.status, invoice.paid_at) == (1_600, InvoiceStatus.OPEN, None)
    assert as_utc(invoice.issued_at) == ISSUED and as_utc(invoice.due_at) == ISSUED + timedelta(days=10)
    assert invoice.month == MONTH and invoice.number == 1


def test_an_account_owing_nothing_gets_an_invoice_paid_and_one_without_activity_or_balance_none(app):
    funded = ledger_account(app, AccountKind.PROVIDER, "provider-1", terms=Terms.PREPAID, net_days=0)
    payment(app, funded, 10_000, at=BEFORE_MONTH)
    charge(app, funded, 4_000)
    quiet_owing = ledger_account(app, AccountKind.BUYER, "buyer-2", name="Quiet Owing")
    charge(app, quiet_owing, 1_500, at=BEFORE_MONTH)
    settled = ledger_account(app, AccountKind.BUYER, "buyer-3", name="All Square")
    charge(app, settled, 1_500, at=BEFORE_MONTH)
    payment(app, settled, 1_500, at=BEFORE_MONTH)
    ledger_account(app, AccountKind.BUYER, "buyer-4", name="Never Bought")

    issue(app)

    paid = invoice_of(app, funded)
    assert (paid.closing_cents, paid.due_cents, paid.status) == (6_000, 0, InvoiceStatus.PAID)
    assert as_utc(paid.paid_at) == ISSUED and as_utc(paid.due_at) == ISSUED  # net 0: due when issued
    owing = invoice_of(app, quiet_owing)  # no activity, but it owes: the invoice says so again
    assert (owing.opening_cents, owing.closing_cents, owing.due_cents, owing.status) == (
        -1_500, -1_500, 1_500, InvoiceStatus.OPEN)
    assert _lines(app, owing.id) == []
    with app.state.session_factory() as session:
        assert {account for account in session.scalars(select(Invoice.account_id))} == {funded, quiet_owing}


def test_issuing_the_month_again_issues_nothing_new_and_numbers_follow_on_without_a_gap(app):
    accounts = [ledger_account(app, AccountKind.BUYER, f"buyer-{n}", name=f"Buyer {n}") for n in range(3)]
    for account in accounts:
        charge(app, account, 1_000)
    assert len(issue(app).issued) == 3
    again = issue(app)
    assert (again.issued, again.already) == ([], 3)
    charge(app, accounts[0], 2_000, at=AFTER_MONTH)
    assert len(issue(app, "2025-04", ISSUED + timedelta(days=31)).issued) == 3  # April: all still owe
    assert _numbers(app) == [1, 2, 3, 4, 5, 6]
    with app.state.session_factory() as session:
        april = session.scalars(select(Invoice).where(Invoice.account_id == accounts[0], Invoice.month == "2025-04")
                                ).one()
    assert (april.opening_cents, april.closing_cents) == (-1_000, -3_000)


def test_a_rollback_mid_month_gives_its_number_back(app, monkeypatch):
    accounts = [ledger_account(app, AccountKind.BUYER, f"buyer-{n}", name=f"Buyer {n}") for n in range(3)]
    for account in accounts:
        charge(app, account, 1_000)
    calls = []

    def broken(session, account, now):
        calls.append(account.id)
        if len(calls) == 2:
            raise RuntimeError("the database went away")
        return []

    monkeypatch.setattr(invoices, "settle_invoices", broken)
    with pytest.raises(RuntimeError):
        issue(app)
    assert _numbers(app) == [1]  # the second account's number went back with its transaction
    monkeypatch.undo()
    assert len(issue(app).issued) == 2
    assert _numbers(app) == [1, 2, 3]


def test_two_issuers_at_once_issue_each_invoice_once_with_numbers_unique_and_gap_free(app):
    accounts = [ledger_account(app, AccountKind.PROVIDER, f"provider-{n}", name=f"Pro {n}") for n in range(12)]
    for account in accounts:
        charge(app, account, 1_000)
    start, results, failures = threading.Barrier(2), [], []

    def issuer() -> None:
        start.wait()
        try:
            results.append(issue_month(app.state.session_factory, app.state.catalog, MONTH, ISSUED))
        except Exception as exc:  # noqa: BLE001 (the test reports it below)
            failures.append(exc)

    threads = [threading.Thread(target=issuer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert sum(len(done.issued) for done in results) == 12
    assert sum(done.already for done in results) == 12
    assert _numbers(app) == list(range(1, 13))
    with app.state.session_factory() as session:
        assert sorted(session.scalars(select(Invoice.account_id))) == sorted(accounts)


def test_the_month_must_be_over_and_written_as_yyyy_mm(app):
    for month in ("2025-13", "2025-3", "March", "", "1999-12"):
        with pytest.raises(MonthError, match="YYYY-MM"):
            issue(app, month)
    with pytest.raises(MonthError, match="not over"):
        issue(app, "2025-04", ISSUED)
    assert previous_month(ISSUED) == "2025-03"
    assert previous_month(ISSUED.replace(month=1)) == "2024-12"


def test_payments_after_the_month_settle_its_invoice_and_later_charges_do_not_hold_it_open(app):
    account_id = ledger_account(app, AccountKind.BUYER, "buyer-1")
    charge(app, account_id, 5_000)
    issue(app)
    charge(app, account_id, 7_000, at=AFTER_MONTH)  # April's lead: April's invoice
    payment(app, account_id, 3_000, at=AFTER_MONTH)
    with app.state.session_factory() as session:
        account = session.get(LedgerAccount, account_id)
        assert settle_invoices(session, account) == []
        invoice = session.scalars(select(Invoice)).one()
        assert outstanding_cents(session, invoice) == 2_000
    payment(app, account_id, 2_000, at=AFTER_MONTH)
    with app.state.session_factory() as session:
        account = session.get(LedgerAccount, account_id)
        assert [invoice.number for invoice in settle_invoices(session, account)] == [1]
        session.commit()
    paid = invoice_of(app, account_id)
    assert paid.status == InvoiceStatus.PAID and paid.paid_at is not None


def test_an_invoice_paid_before_it_was_issued_is_issued_paid(app):
    account_id = ledger_account(app, AccountKind.BUYER, "buyer-1")
    charge(app, account_id, 5_000)
    payment(app, account_id, 5_000, at=ISSUED - timedelta(hours=3))  # after the month, before the 1st's run
    issue(app)
    invoice = invoice_of(app, account_id)
    assert (invoice.due_cents, invoice.status) == (5_000, InvoiceStatus.PAID)


def test_paying_an_invoice_by_hand_records_what_it_lacks_and_settles_older_ones_too(app):
    account_id = ledger_account(app, AccountKind.PROVIDER, "provider-1")
    charge(app, account_id, 5_000)
    issue(app)
    charge(app, account_id, 2_500, at=AFTER_MONTH)
    issue(app, "2025-04", ISSUED + timedelta(days=31))
    with app.state.session_factory() as session:
        april = session.scalars(select(Invoice).where(Invoice.month == "2025-04")).one()
        recorded = pay_invoice(session, april, method="wire", note="Wire 4471", by="admin@example.com")
        session.commit()
        assert recorded.amount_cents == 7_500 and recorded.invoice_id == april.id
        assert session.get(LedgerAccount, account_id).balance_cents == 0
        assert {invoice.status for invoice in session.scalars(select(Invoice))} == {InvoiceStatus.PAID}
        assert pay_invoice(session, april, method="wire", note="again", by="admin@example.com") is None
        assert len(session.scalars(select(Payment)).all()) == 1
