"""Tables of the ledger. Money is integer cents everywhere.

An account's balance is its funds: payments and credits add to it, charges take from it, so a
prepaid account may buy while its balance covers the price and a credit account while its balance
plus its credit limit does. `balance_cents` is kept in the transaction of every entry (one UPDATE
... SET balance_cents = balance_cents + amount) and `servicematch ledger check` proves it equals the
sum of the account's entries.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base, BigId


class AccountKind:
    BUYER = "buyer"
    PROVIDER = "provider"
    ALL = (BUYER, PROVIDER)


class Terms:
    PREPAID = "prepaid"  # buys only while the balance covers the price (a new account's default)
    CREDIT = "credit"  # buys while balance + credit limit covers it (no limit: always); invoices due in N days
    ALL = (PREPAID, CREDIT)


class HoldReason:
    """Why an account is not receiving leads (told once, by e-mail and a banner in its portal)."""

    FUNDS = "funds"  # the balance (and credit) cannot cover a price
    OVERDUE = "overdue"  # an invoice is past due by more than the grace days


class LedgerAccount(Base):
    """The money side of one buyer or provider."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (UniqueConstraint("kind", "owner_id", name="uq_ledger_accounts_kind_owner_id"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    kind: Mapped[str] = mapped_column(String(16))
    # The buyer's or provider's id. No foreign key: the owners' tables live in rooms above this one.
    owner_id: Mapped[str] = mapped_column(String(36))
    # The owner's name when the account was made or last renamed: invoices and the console show it.
    name: Mapped[str] = mapped_column(String(200), default="")
    terms: Mapped[str] = mapped_column(String(16), default=Terms.PREPAID)
    # Credit terms only: how far below zero the balance may go; None means no limit.
    credit_limit_cents: Mapped[int | None] = mapped_column(BigInteger)
    # Credit terms: an invoice is due this many days after it is issued.
    net_days: Mapped[int] = mapped_column(Integer, default=15)
    balance_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    # Not receiving leads, since when and why; when the account was told (once per hold).
    hold_reason: Mapped[str | None] = mapped_column(String(16))
    held_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    hold_notified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Automatic top-up by a saved card: when the balance falls under the threshold, charge the amount.
    topup_threshold_cents: Mapped[int | None] = mapped_column(BigInteger)
    topup_amount_cents: Mapped[int | None] = mapped_column(BigInteger)
    stripe_customer_id: Mapped[str | None] = mapped_column(String(100))
    stripe_payment_method_id: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EntryKind:
    CHARGE = "charge"  # a sale to a buyer, an accepted offer to a provider (negative)
    CREDIT = "credit"  # a provider's approved credit request (positive)
    RETURN = "return"  # a buyer's approved return (positive)
    PAYMENT = "payment"  # money received: card, wire, cheque (positive)
    PAYMENT_FAILED = "payment_failed"  # a card payment that failed (zero: on the record, no money moved)
    DISPUTE = "dispute"  # a card payment disputed (a chargeback: negative)
    REFUND = "refund"  # money paid back to the account (negative)
    ADJUSTMENT = "adjustment"  # an operator's correction, with a note (either sign)
    REVERSAL = "reversal"  # undoes one earlier entry exactly (the opposite amount)
    ALL = (CHARGE, CREDIT, RETURN, PAYMENT, PAYMENT_FAILED, DISPUTE, REFUND, ADJUSTMENT, REVERSAL)


class Cause:
    """What an entry is for: its kind of cause, and that cause's id in `cause_id`."""

    SALE = "sale"  # routing.models.Sale
    OFFER = "offer"  # routing.models.ProviderOffer (an accepted offer's charge)
    CREDIT_REQUEST = "credit_request"  # portal.models.CreditRequest
    RETURN = "return"  # buyer.models.LeadReturn
    PAYMENT = "payment"  # ledger.models.Payment
    INVOICE = "invoice"  # ledger.models.Invoice
    ADJUSTMENT = "adjustment"  # an operator's adjustment (cause_id: a new id)
    ENTRY = "entry"  # a reversal: the reversed entry's id


class LedgerEntry(Base):
    """One movement of an account's money. Rows are only ever added: nothing updates or deletes
    them; a mistake is undone by a reversal. One entry per cause and kind per account (the unique
    constraint), so a retried sale, return or payment never posts twice."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        UniqueConstraint("account_id", "cause", "cause_id", "kind", name="uq_ledger_entries_account_cause"),
        Index("ix_ledger_entries_account_created", "account_id", "created_at"),
        Index("ix_ledger_entries_created", "created_at"),
        Index("ix_ledger_entries_cause", "cause", "cause_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.id", ondelete="RESTRICT"))
    kind: Mapped[str] = mapped_column(String(16))
    # Its effect on the balance: negative for a charge, positive for a payment or a credit.
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    cause: Mapped[str] = mapped_column(String(16))
    cause_id: Mapped[str] = mapped_column(String(100))
    # The lead it concerns, if any. No foreign key: the entry outlives an erased lead.
    lead_id: Mapped[str | None] = mapped_column(String(36), index=True)
    # "Roofing lead, Austin TX 78701", "Payment by card", "Return: wrong phone": never a name.
    description: Mapped[str] = mapped_column(Text, default="")
    # The lead's service and state, for revenue by service and state.
    vertical: Mapped[str | None] = mapped_column(String(64))
    service: Mapped[str | None] = mapped_column(String(64))
    state: Mapped[str | None] = mapped_column(String(2))
    note: Mapped[str | None] = mapped_column(Text)
    # "system", an operator's e-mail, a person's e-mail, "stripe".
    created_by: Mapped[str] = mapped_column(String(254), default="system")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PaymentMethod:
    CARD = "card"  # Stripe Checkout or an automatic top-up
    WIRE = "wire"
    CHEQUE = "cheque"
    OTHER = "other"
    RECORDED = (WIRE, CHEQUE, OTHER)  # what an operator records by hand


class PaymentStatus:
    PENDING = "pending"  # a Checkout session opened, not paid yet
    SUCCEEDED = "succeeded"  # credited to the balance (one PAYMENT entry)
    FAILED = "failed"
    DISPUTED = "disputed"
    REFUNDED = "refunded"


class Payment(Base):
    """Money an account paid, or tried to."""

    __tablename__ = "ledger_payments"
    __table_args__ = (Index("ix_ledger_payments_account_created", "account_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.id", ondelete="RESTRICT"))
    method: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default=PaymentStatus.PENDING)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    stripe_checkout_id: Mapped[str | None] = mapped_column(String(255), unique=True)
    stripe_payment_intent_id: Mapped[str | None] = mapped_column(String(255), unique=True)
    # An automatic top-up (off-session), not a person's Checkout.
    automatic: Mapped[bool] = mapped_column(Boolean, default=False)
    invoice_id: Mapped[str | None] = mapped_column(String(36))
    note: Mapped[str | None] = mapped_column(Text)
    recorded_by: Mapped[str] = mapped_column(String(254), default="")
    failure: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class StripeEvent(Base):
    """A Stripe event already handled: a retried or replayed event id changes nothing."""

    __tablename__ = "ledger_stripe_events"

    id: Mapped[str] = mapped_column(String(255), primary_key=True)
    type: Mapped[str] = mapped_column(String(100))
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class InvoiceStatus:
    OPEN = "open"  # something is due
    PAID = "paid"  # nothing is due any more (paid, or nothing was due)


class Invoice(Base):
    """One account's month. Numbers come from one gap-free sequence (InvoiceCounter)."""

    __tablename__ = "ledger_invoices"
    __table_args__ = (
        UniqueConstraint("account_id", "month", name="uq_ledger_invoices_account_month"),
        Index("ix_ledger_invoices_status_due", "status", "due_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    number: Mapped[int] = mapped_column(Integer, unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.id", ondelete="RESTRICT"), index=True)
    month: Mapped[str] = mapped_column(String(7))  # "2026-11"
    issued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    opening_cents: Mapped[int] = mapped_column(BigInteger)
    charges_cents: Mapped[int] = mapped_column(BigInteger)
    credits_cents: Mapped[int] = mapped_column(BigInteger)  # credits, returns and adjustments in
    payments_cents: Mapped[int] = mapped_column(BigInteger)
    closing_cents: Mapped[int] = mapped_column(BigInteger)
    # What the account owes for this invoice (0 when the closing balance is not negative).
    due_cents: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default=InvoiceStatus.OPEN)
    paid_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    emailed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    pdf: Mapped[bytes | None] = mapped_column(LargeBinary)


class InvoiceLine(Base):
    __tablename__ = "ledger_invoice_lines"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    invoice_id: Mapped[str] = mapped_column(ForeignKey("ledger_invoices.id", ondelete="CASCADE"), index=True)
    entry_id: Mapped[int | None] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))
    # The lead's reference, for a charge or a return; never a name.
    reference: Mapped[str | None] = mapped_column(String(16))
    description: Mapped[str] = mapped_column(Text)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InvoiceCounter(Base):
    """One row: the last invoice number issued. Taken under a row lock, so numbers have no gaps."""

    __tablename__ = "ledger_invoice_counter"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    last_number: Mapped[int] = mapped_column(Integer, default=0)


class LedgerCheck(Base):
    """One run of `servicematch ledger check` (or the worker's nightly run): its result."""

    __tablename__ = "ledger_checks"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ok: Mapped[bool] = mapped_column(Boolean, default=False)
    accounts: Mapped[int] = mapped_column(Integer, default=0)
    entries: Mapped[int] = mapped_column(BigInteger, default=0)
    # What did not agree, in words (at most a few hundred lines).
    problems: Mapped[list] = mapped_column(JSON, default=list)
