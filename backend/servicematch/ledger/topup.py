"""Automatic top-up: a chore of the worker (workers.py) that charges a saved card when its account's
balance has fallen under the account's threshold (docs/money.md).

One charge at a time per account: a top-up waiting for Stripe's answer holds back the next, and
one the card refused is the last with that card (the card is forgotten; saving a new one through
"Add funds" turns top-ups back on). The payment is committed before Stripe is asked, with its id as
the idempotency key, so a worker stopped between the two asks again and Stripe charges once.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.ledger import payments, stripe_events, stripe_gateway
from servicematch.ledger.models import LedgerAccount, Payment, PaymentStatus
from servicematch.settings import Settings

log = logging.getLogger("servicematch.ledger")

# How often the worker looks for balances under their threshold.
TOPUP_CHORE_SECONDS = 60.0
TOPPED_UP_BY = "automatic top-up"


def top_up_accounts(*, session_factory: sessionmaker[Session], settings: Settings, now: datetime) -> int:
    """Charge each account due a top-up; how many charges were asked of Stripe."""
    if not stripe_gateway.enabled(settings):
        return 0
    with session_factory() as session:
        due = list(session.scalars(select(LedgerAccount.id).where(
            LedgerAccount.stripe_payment_method_id.is_not(None), LedgerAccount.stripe_customer_id.is_not(None),
            LedgerAccount.topup_threshold_cents.is_not(None), LedgerAccount.topup_amount_cents.is_not(None),
            LedgerAccount.balance_cents < LedgerAccount.topup_threshold_cents)))
    return sum(top_up(session_factory=session_factory, settings=settings, account_id=account_id, now=now)
               for account_id in due)


def top_up(*, session_factory: sessionmaker[Session], settings: Settings, account_id: str, now: datetime) -> bool:
    """One account's top-up, if it is still due and none is waiting; whether Stripe was asked."""
    with session_factory() as session:
        account = session.get(LedgerAccount, account_id, with_for_update=True, populate_existing=True)
        if account is None or not _due(settings, account):
            return False
        waiting = session.scalars(select(Payment).where(
            Payment.account_id == account.id, Payment.automatic.is_(True), Payment.status == PaymentStatus.PENDING)
            .order_by(Payment.created_at)).first()
        if waiting is not None and waiting.stripe_payment_intent_id is not None:
            return False  # Stripe has it; its webhook will say how it went
        payment = waiting or payments.open_card_payment(session, account, amount_cents=account.topup_amount_cents,
                                                        automatic=True, by=TOPPED_UP_BY, now=now)
        card, customer = account.stripe_payment_method_id, account.stripe_customer_id
        session.commit()
        charge = stripe_gateway.charge_saved_card(settings, payment, customer=customer, card=card)
        _settle(session, payment.id, charge, card, now, settings.overdue_grace_days)
        return True


def _due(settings: Settings, account: LedgerAccount) -> bool:
    if None in (account.stripe_payment_method_id, account.stripe_customer_id, account.topup_threshold_cents,
                account.topup_amount_cents) or account.balance_cents >= account.topup_threshold_cents:
        return False
    low, high = settings.topup_min_dollars * 100, settings.topup_max_dollars * 100
    if not low <= account.topup_amount_cents <= high:
        log.warning("account %s: its automatic top-up of %d cents is outside the allowed amounts; not charged",
                    account.id, account.topup_amount_cents)
        return False
    return True


def _settle(session: Session, payment_id: str, charge: stripe_gateway.Charge, card: str, now: datetime,
            grace_days: int) -> None:
    """What Stripe answered, in one transaction; an unreachable Stripe leaves the payment pending, to
    be asked again (with the same idempotency key) at the next run."""
    if charge.outcome == "unreachable":
        return
    payment = payments.find_payment(session, payment_id=payment_id, lock=True)
    if charge.intent_id and payment.stripe_payment_intent_id is None and payments.find_payment(
            session, intent_id=charge.intent_id) is None:
        payment.stripe_payment_intent_id = charge.intent_id
    if charge.outcome == "succeeded":
        payments.succeed(session, payment, amount_cents=payment.amount_cents, by="stripe", now=now,
                         grace_days=grace_days)
    elif charge.outcome == "declined":
        payments.fail(session, payment, reason=charge.failure or "The card was declined.", now=now)
        stripe_events.forget_declined_card(session, payment, card)
    session.commit()
