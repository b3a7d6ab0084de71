"""What each Stripe event does to the ledger, once (the webhook: ledger/router_stripe.py).

Every handled event is stored by its id (StripeEvent) in the transaction of what it did, so the same
event delivered again does nothing. And every payment is credited by one entry per payment
(payments.succeed), so two different events about one payment (Checkout's completion and its
PaymentIntent's success, which Stripe sends both) credit it once between them.

Events are read defensively: Stripe signed them, but a field may be missing or of another type, and
an event about a payment that is not ours (another product on the same Stripe account) is ignored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from servicematch.ledger import payments
from servicematch.ledger.models import LedgerAccount, Payment, PaymentStatus, StripeEvent

log = logging.getLogger("servicematch.ledger")

CREDITED = "credited"
DUPLICATE = "duplicate"
IGNORED = "ignored"
RECORDED = "recorded"
WAITING = "waiting"


def _text(value: object, most: int = 255) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= most else None


def _cents(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53 else None


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _ours(session: Session, thing: dict) -> Payment | None:
    """The payment an event's object is about, locked; None when it is not one of ours or its
    metadata names another account than the payment's."""
    meta = _dict(thing.get("metadata"))
    kind = thing.get("object")
    payment = payments.find_payment(
        session, payment_id=_text(meta.get("payment_id"), 36) or _text(thing.get("client_reference_id"), 36),
        checkout_id=_text(thing.get("id")) if kind == "checkout.session" else None,
        intent_id=_text(thing.get("id")) if kind == "payment_intent" else _text(thing.get("payment_intent")),
        lock=True)
    if payment is None:
        return None
    named = _text(meta.get("account_id"), 36)
    if named is not None and named != payment.account_id:
        log.error("a Stripe event names account %s for payment %s of account %s: ignored", named, payment.id,
                  payment.account_id)
        return None
    return payment


def _usd(thing: dict) -> bool:
    return str(thing.get("currency") or "usd").lower() == "usd"


def _remember_intent(session: Session, payment: Payment, intent_id: str | None) -> None:
    if intent_id and payment.stripe_payment_intent_id is None and payments.find_payment(
            session, intent_id=intent_id) is None:
        payment.stripe_payment_intent_id = intent_id


def _credit(session: Session, payment: Payment, thing: dict, received: int | None, now: datetime,
            grace_days: int) -> str:
    if not _usd(thing) or received is None or received <= 0:
        log.error("payment %s: Stripe reports %r %s received; nothing credited", payment.id, received,
                  thing.get("currency"))
        return IGNORED
    credited_before = payment.status not in (PaymentStatus.PENDING, PaymentStatus.FAILED)
    payments.succeed(session, payment, amount_cents=received, by="stripe", now=now, grace_days=grace_days)
    return RECORDED if credited_before else CREDITED


def checkout_completed(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, thing)
    if payment is None:
        return IGNORED
    if thing.get("payment_status") != "paid":
        return WAITING  # paid later by a slower method: checkout.session.async_payment_succeeded says so
    _remember_intent(session, payment, _text(thing.get("payment_intent")))
    if _dict(thing.get("metadata")).get("save_card") == "1" and (customer := _text(thing.get("customer"))):
        session.get(LedgerAccount, payment.account_id).stripe_customer_id = customer
    return _credit(session, payment, thing, _cents(thing.get("amount_total")), now, grace_days)


def checkout_failed(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, thing)
    if payment is None:
        return IGNORED
    payments.fail(session, payment, reason="The payment did not go through.", now=now)
    return RECORDED


def checkout_expired(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, thing)
    if payment is None:
        return IGNORED
    payments.fail(session, payment, reason=payments.EXPIRED, now=now, on_record=False)
    return RECORDED


def intent_succeeded(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, thing)
    if payment is None:
        return IGNORED
    _remember_intent(session, payment, _text(thing.get("id")))
    card, customer = _text(thing.get("payment_method")), _text(thing.get("customer"))
    if _dict(thing.get("metadata")).get("save_card") == "1" and card and customer:
        account = session.get(LedgerAccount, payment.account_id)
        account.stripe_customer_id, account.stripe_payment_method_id = customer, card
    return _credit(session, payment, thing, _cents(thing.get("amount_received")), now, grace_days)


def intent_failed(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, thing)
    # A declined card in Checkout is tried again on the same page: only a top-up's refusal is final.
    if payment is None or not payment.automatic or payment.status != PaymentStatus.PENDING:
        return IGNORED
    _remember_intent(session, payment, _text(thing.get("id")))
    error = _dict(thing.get("last_payment_error"))
    payments.fail(session, payment, reason=_text(error.get("message"), 500) or "The card was declined.", now=now)
    forget_declined_card(session, payment, _text(thing.get("payment_method")))
    return RECORDED


def forget_declined_card(session: Session, payment: Payment, card: str | None) -> None:
    """No second automatic top-up with the card that refused one (`card`; None: whichever is saved);
    a new card saved through "Add funds" since then stays, and turns top-ups back on."""
    account = session.get(LedgerAccount, payment.account_id)
    if card is None or account.stripe_payment_method_id == card:
        account.stripe_payment_method_id = None


def dispute_opened(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, {"object": "dispute", "payment_intent": thing.get("payment_intent")})
    amount = _cents(thing.get("amount"))
    if payment is None or amount is None:
        return IGNORED
    payments.dispute(session, payment, amount_cents=amount, now=now)
    return RECORDED


def dispute_closed(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, {"object": "dispute", "payment_intent": thing.get("payment_intent")})
    if payment is None or thing.get("status") != "won":
        return IGNORED
    payments.dispute_won(session, payment, now=now)
    return RECORDED


def charge_refunded(session: Session, thing: dict, now: datetime, grace_days: int) -> str:
    payment = _ours(session, {"object": "charge", "payment_intent": thing.get("payment_intent")})
    refunded = _cents(thing.get("amount_refunded"))
    if payment is None or refunded is None or not _usd(thing):
        return IGNORED
    payments.refund(session, payment, refunded_total_cents=refunded, now=now)
    return RECORDED


HANDLERS: dict[str, Callable[[Session, dict, datetime, int], str]] = {
    "checkout.session.completed": checkout_completed,
    "checkout.session.async_payment_succeeded": checkout_completed,
    "checkout.session.async_payment_failed": checkout_failed,
    "checkout.session.expired": checkout_expired,
    "payment_intent.succeeded": intent_succeeded,
    "payment_intent.payment_failed": intent_failed,
    "charge.dispute.created": dispute_opened,
    "charge.dispute.closed": dispute_closed,
    "charge.refunded": charge_refunded,
}


def handle(session: Session, event: dict, now: datetime, *, grace_days: int) -> str:
    """Apply one verified event in the caller's transaction (the caller commits); DUPLICATE for one
    handled before, IGNORED for a kind or a payment that is not ours. `grace_days`:
    SERVICEMATCH_OVERDUE_GRACE_DAYS, for releasing an account a payment frees (ledger/holds.py)."""
    handler = HANDLERS.get(event["type"])
    event_id = _text(event["id"])
    if handler is None or event_id is None:
        return IGNORED
    if session.scalars(select(StripeEvent.id).where(StripeEvent.id == event_id)).first() is not None:
        return DUPLICATE
    try:
        with session.begin_nested():
            session.add(StripeEvent(id=event_id, type=event["type"][:100], received_at=now))
    except IntegrityError:  # the same event, delivered twice at once: the other delivery handles it
        return DUPLICATE
    return handler(session, _dict(_dict(event.get("data")).get("object")), now, grace_days)

