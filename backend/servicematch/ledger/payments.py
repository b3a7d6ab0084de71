"""Payments: money an account paid (by card through Stripe, or by wire or cheque recorded by an
operator) and what became of it, each on the ledger exactly once (docs/money.md, "Payments and Stripe").

A payment credits its account with one PAYMENT entry (cause "payment", cause_id the payment's id),
posted in the transaction that marks it succeeded: a replayed webhook, a retried chore or a second
click finds that entry and changes nothing. What goes wrong is an entry too: a card payment that
failed is a PAYMENT_FAILED entry of zero (on the record, no money moved), a dispute a negative
DISPUTE entry (and its REVERSAL when the dispute is won), a refund a negative REFUND entry.

Callers lock the payment (`find_payment(..., lock=True)`) before changing it, so two deliveries of
the news about one payment wait for each other instead of deciding twice.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.errors import ServiceMatchError
from servicematch.ledger.holds import DEFAULT_GRACE_DAYS
from servicematch.ledger.models import (
    Cause,
    EntryKind,
    LedgerAccount,
    LedgerEntry,
    Payment,
    PaymentMethod,
    PaymentStatus,
)
from servicematch.ledger.money_in import money_came_in
from servicematch.ledger.postings import post

log = logging.getLogger("servicematch.ledger")

# The most one recorded payment may be (a wire can be large; a typo of three zeros cannot).
MAX_RECORDED_DOLLARS = 10_000_000
DESCRIPTIONS = {PaymentMethod.CARD: "Payment by card", PaymentMethod.WIRE: "Payment by wire",
                PaymentMethod.CHEQUE: "Payment by cheque", PaymentMethod.OTHER: "Payment received"}
EXPIRED = "Checkout was closed without paying."


def to_cents(dollars: float | str | None, *, field: str = "amount",
             most: int = MAX_RECORDED_DOLLARS) -> int:
    """Dollars as typed ("250", 250.5) to whole cents, more than zero and at most `most` dollars,
    with at most two decimals; a 422 naming `field` for anything else."""
    try:
        value = float(dollars)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ServiceMatchError(f"{field} must be a number of dollars, like 250.00",
                                fields={field: "Enter dollars, like 250.00"}, status_code=422) from None
    cents = round(value * 100) if math.isfinite(value) else 0
    if not math.isfinite(value) or abs(value * 100 - cents) > 1e-6:
        raise ServiceMatchError(f"{field} must be dollars and cents, like 250.00",
                                fields={field: "At most two decimals"}, status_code=422)
    if cents <= 0 or cents > most * 100:
        raise ServiceMatchError(f"{field} must be more than 0 and at most {most:,} dollars",
                                fields={field: "Out of range"}, status_code=422)
    return cents


def find_payment(session: Session, *, payment_id: str | None = None, checkout_id: str | None = None,
                 intent_id: str | None = None, lock: bool = False) -> Payment | None:
    """The payment with this id, else with this Checkout session, else with this PaymentIntent."""
    for column, value in ((Payment.id, payment_id), (Payment.stripe_checkout_id, checkout_id),
                          (Payment.stripe_payment_intent_id, intent_id)):
        if not value or len(value) > 255:
            continue
        query = select(Payment).where(column == value)
        if lock:
            query = query.with_for_update().execution_options(populate_existing=True)
        found = session.scalars(query).first()
        if found is not None:
            return found
    return None


def open_card_payment(session: Session, account: LedgerAccount, *, amount_cents: int, automatic: bool,
                      by: str, now: datetime) -> Payment:
    """A card payment about to be asked of Stripe: pending until Stripe says it was paid or not."""
    payment = Payment(account_id=account.id, method=PaymentMethod.CARD, status=PaymentStatus.PENDING,
                      amount_cents=amount_cents, automatic=automatic, recorded_by=by[:254], created_at=now)
    session.add(payment)
    session.flush()
    return payment


def record_payment(session: Session, account: LedgerAccount, *, amount_cents: int, method: str, note: str,
                   by: str, now: datetime, invoice_id: str | None = None,
                   grace_days: int = DEFAULT_GRACE_DAYS) -> Payment:
    """Money received by wire, cheque or otherwise, recorded by an operator: credited at once."""
    if method not in PaymentMethod.RECORDED:
        raise ServiceMatchError("Unknown payment method.", fields={"method": "wire, cheque or other"},
                                status_code=422)
    if amount_cents <= 0:
        raise ServiceMatchError("A payment is more than zero.", fields={"amount": "Out of range"}, status_code=422)
    note = (note or "").strip()
    if not note:
        raise ServiceMatchError("Say what was received (a reference, a date).", fields={"note": "required"},
                                status_code=422)
    payment = Payment(account_id=account.id, method=method, status=PaymentStatus.PENDING, amount_cents=amount_cents,
                      note=note[:2000], recorded_by=by[:254], invoice_id=invoice_id, created_at=now)
    session.add(payment)
    session.flush()
    succeed(session, payment, amount_cents=amount_cents, by=by, now=now, grace_days=grace_days)
    return payment


def succeed(session: Session, payment: Payment, *, amount_cents: int, by: str, now: datetime,
            grace_days: int = DEFAULT_GRACE_DAYS) -> LedgerEntry:
    """Mark the payment paid and credit its account once (the entry already posted, when there is one).
    `amount_cents` is what was received: the money that moved, should it differ from what was asked.
    The account's open invoices it now covers are paid, and a hold it no longer deserves ends (ledger/holds.py;
    `grace_days`: SERVICEMATCH_OVERDUE_GRACE_DAYS, for one held for an overdue invoice)."""
    account = session.get(LedgerAccount, payment.account_id)
    if payment.status == PaymentStatus.PENDING or payment.status == PaymentStatus.FAILED:
        if amount_cents != payment.amount_cents:
            log.warning("payment %s: %d cents received where %d were asked; the received amount is credited",
                        payment.id, amount_cents, payment.amount_cents)
            payment.amount_cents = amount_cents
        payment.status, payment.settled_at, payment.failure = PaymentStatus.SUCCEEDED, now, None
    description = "Automatic top-up by card" if payment.automatic else DESCRIPTIONS.get(payment.method, "Payment")
    entry = post(session, account, kind=EntryKind.PAYMENT, amount_cents=payment.amount_cents, cause=Cause.PAYMENT,
                 cause_id=payment.id, description=description, note=payment.note, created_by=by, now=now)
    money_came_in(session, account, now, grace_days=grace_days)
    return entry


def fail(session: Session, payment: Payment, *, reason: str, now: datetime, on_record: bool = True) -> None:
    """A card payment that did not go through. `on_record`: a charge was tried and refused, so the
    refusal is an entry of zero; an abandoned Checkout asked for nothing and leaves none."""
    if payment.status != PaymentStatus.PENDING:
        return
    payment.status, payment.settled_at, payment.failure = PaymentStatus.FAILED, now, (reason or "Declined")[:500]
    if on_record:
        post(session, session.get(LedgerAccount, payment.account_id), kind=EntryKind.PAYMENT_FAILED, amount_cents=0,
             cause=Cause.PAYMENT, cause_id=payment.id, description=f"Card payment failed: {payment.failure}"[:500],
             created_by="stripe", now=now)


def dispute(session: Session, payment: Payment, *, amount_cents: int, now: datetime) -> None:
    """The card's holder disputed the payment: the disputed amount leaves the balance (once), never
    more than was paid and not refunded."""
    disputable = min(amount_cents, payment.amount_cents - _refunded(session, payment))
    if payment.status not in (PaymentStatus.SUCCEEDED, PaymentStatus.REFUNDED) or disputable <= 0:
        return
    payment.status = PaymentStatus.DISPUTED
    post(session, session.get(LedgerAccount, payment.account_id), kind=EntryKind.DISPUTE, amount_cents=-disputable,
         cause=Cause.PAYMENT, cause_id=payment.id, description="Card payment disputed", created_by="stripe", now=now)


def dispute_won(session: Session, payment: Payment, *, now: datetime) -> None:
    """A dispute decided for us: its entry is reversed, the money is the account's again."""
    disputed = session.scalars(select(LedgerEntry).where(
        LedgerEntry.account_id == payment.account_id, LedgerEntry.cause == Cause.PAYMENT,
        LedgerEntry.cause_id == payment.id, LedgerEntry.kind == EntryKind.DISPUTE)).first()
    if disputed is None or payment.status != PaymentStatus.DISPUTED:
        return
    payment.status = PaymentStatus.SUCCEEDED
    post(session, session.get(LedgerAccount, payment.account_id), kind=EntryKind.REVERSAL,
         amount_cents=-disputed.amount_cents, cause=Cause.ENTRY, cause_id=str(disputed.id),
         description="Dispute decided in your favour", created_by="stripe", now=now)


def refund(session: Session, payment: Payment, *, refunded_total_cents: int, now: datetime) -> None:
    """Stripe refunded `refunded_total_cents` of the payment so far: what was not yet taken off the
    balance is, now. The first refund's entry has the payment's id as its cause_id; a later partial
    one "<payment id>:<total refunded by then>", so each is posted once and none twice."""
    if payment.status not in (PaymentStatus.SUCCEEDED, PaymentStatus.REFUNDED):
        return
    total = min(max(refunded_total_cents, 0), payment.amount_cents)
    posted = _refunded(session, payment)
    if total <= posted:
        return
    post(session, session.get(LedgerAccount, payment.account_id), kind=EntryKind.REFUND,
         amount_cents=-(total - posted), cause=Cause.PAYMENT,
         cause_id=payment.id if posted == 0 else f"{payment.id}:{total}", description="Refund of a card payment",
         created_by="stripe", now=now)
    if total >= payment.amount_cents:
        payment.status = PaymentStatus.REFUNDED


def _refunded(session: Session, payment: Payment) -> int:
    """What the payment's refunds took off the balance so far, in cents (positive)."""
    return -(session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount_cents), 0)).where(
        LedgerEntry.account_id == payment.account_id, LedgerEntry.kind == EntryKind.REFUND,
        LedgerEntry.cause == Cause.PAYMENT,
        (LedgerEntry.cause_id == payment.id) | LedgerEntry.cause_id.startswith(f"{payment.id}:"))) or 0)
