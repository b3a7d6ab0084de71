"""An account's money as its own people see it, and what they may do with it: the same in the buyer
portal (buyer/router_funds.py) and the provider portal (portal/router_funds.py).

The balance and terms, the payments, "Add funds" (a Stripe Checkout session for an amount within
SERVICEMATCH_TOPUP_MIN_DOLLARS..MAX, the card kept for automatic top-up when asked) and the
automatic top-up's threshold and amount. Money is in dollars in answers, whole dollars in requests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.errors import NothingHere, ServiceMatchError
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.numbers import whole_number
from servicematch.ledger import payments, stripe_gateway
from servicematch.ledger.models import LedgerAccount, Payment, PaymentMethod, PaymentStatus, Terms
from servicematch.ledger.terms import open_account, standing_of
from servicematch.settings import Settings

PAGE = 50
# Checkout sessions one account may open an hour: a stuck button or a script opens no more.
CHECKOUTS_PER_HOUR = 20
Dollars = whole_number(ge=0, le=1_000_000)


class FundsPayment(BaseModel):
    id: str
    createdAt: str
    settledAt: str | None
    amount: float
    method: Literal["card", "wire", "cheque", "other"]
    status: Literal["pending", "succeeded", "failed", "disputed", "refunded"]
    # An automatic top-up by the saved card, not a person's Checkout.
    automatic: bool
    # Why a card payment failed, in the card network's or Stripe's words.
    failure: str | None


class AutoTopup(BaseModel):
    # Dollars: when the balance falls under `threshold`, the saved card is charged `amount`.
    threshold: float | None
    amount: float | None
    cardSaved: bool
    # Threshold, amount and a saved card: the worker tops the balance up.
    active: bool
    # The last automatic top-up's refusal, while no new card is saved.
    lastFailure: str | None


class Funds(BaseModel):
    balance: float
    terms: Literal["prepaid", "credit"]
    # Credit terms: how far below zero the balance may go; null: no limit (or prepaid).
    creditLimit: float | None
    netDays: int
    # What may still be spent: the balance, plus the credit limit; null: credit without a limit.
    available: float | None
    cardPayments: bool
    # With card payments off, how to pay instead.
    cardPaymentsNote: str | None
    minAmount: int
    maxAmount: int
    autoTopup: AutoTopup
    payments: list[FundsPayment]


class CheckoutAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    amount: whole_number(ge=1, le=1_000_000) = Field(description="Whole dollars, within minAmount..maxAmount")
    saveCard: bool = Field(default=False, description="Keep the card for automatic top-up")


class CheckoutStarted(BaseModel):
    paymentId: str
    # Stripe's Checkout page: the browser goes there.
    url: str


class TopupAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    threshold: Dollars = Field(description="Whole dollars: top up when the balance falls under this")
    amount: whole_number(ge=1, le=1_000_000) = Field(description="Whole dollars charged each time, "
                                                                "within minAmount..maxAmount")


def iso(value: datetime | None) -> str | None:
    value = as_utc(value)
    return value.isoformat(timespec="seconds").replace("+00:00", "Z") if value else None


def dollars(cents: int | None) -> float | None:
    return None if cents is None else round(cents / 100, 2)


def card_payments_note(settings: Settings) -> str:
    return f"Card payments are not set up: pay by wire or cheque; ask {settings.brand_name} for the details."


def account_to_pay(session: Session, kind: str, owner_id: str, name: str) -> LedgerAccount:
    """The owner's account, made on a new account's terms (ledger/terms.py) when it has none yet."""
    return open_account(session, kind, owner_id, name=name)


def find_account(session: Session, kind: str, owner_id: str) -> LedgerAccount | None:
    """The owner's account, or None before it has one (reading makes none)."""
    return session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                       LedgerAccount.owner_id == owner_id)).first()


def payment_view(row: Payment) -> FundsPayment:
    return FundsPayment(id=row.id, createdAt=iso(row.created_at), settledAt=iso(row.settled_at),
                        amount=dollars(row.amount_cents), method=row.method, status=row.status,
                        automatic=row.automatic, failure=row.failure)


def funds_of(session: Session, settings: Settings, account: LedgerAccount | None) -> Funds:
    """The account's money and its last payments; before it has an account, a new account's
    (ledger/terms.py)."""
    rows = [] if account is None else list(session.scalars(
        select(Payment).where(Payment.account_id == account.id)
        .order_by(Payment.created_at.desc(), Payment.id.desc()).limit(PAGE)))
    on, standing = stripe_gateway.enabled(settings), standing_of(account)
    return Funds(
        balance=dollars(standing.balance_cents), terms=standing.terms,
        creditLimit=dollars(standing.credit_limit_cents) if standing.terms == Terms.CREDIT else None,
        netDays=standing.net_days, available=dollars(standing.available_cents), cardPayments=on,
        cardPaymentsNote=None if on else card_payments_note(settings),
        minAmount=settings.topup_min_dollars, maxAmount=settings.topup_max_dollars,
        autoTopup=_auto_topup(account, rows), payments=[payment_view(row) for row in rows])


def _auto_topup(account: LedgerAccount | None, rows: list[Payment]) -> AutoTopup:
    if account is None:
        return AutoTopup(threshold=None, amount=None, cardSaved=False, active=False, lastFailure=None)
    saved = account.stripe_payment_method_id is not None
    last = next((row for row in rows if row.automatic), None)
    failed = last is not None and last.status == PaymentStatus.FAILED and not saved
    return AutoTopup(threshold=dollars(account.topup_threshold_cents), amount=dollars(account.topup_amount_cents),
                     cardSaved=saved, active=saved and account.topup_threshold_cents is not None
                     and account.topup_amount_cents is not None, lastFailure=last.failure if failed else None)


def own_payment(session: Session, account: LedgerAccount | None, payment_id: str) -> FundsPayment:
    """One of the account's payments (the page after Checkout asks until it is settled); another
    account's, or none, answers 404 with no body."""
    row = session.get(Payment, payment_id) if 0 < len(payment_id) <= 36 else None
    if row is None or account is None or row.account_id != account.id:
        raise NothingHere()
    return payment_view(row)


def check_amount(settings: Settings, amount: int, field: str = "amount") -> int:
    """Whole dollars within the settings' bounds, as cents; a 422 naming the field otherwise."""
    low, high = settings.topup_min_dollars, settings.topup_max_dollars
    if not low <= amount <= high:
        raise ServiceMatchError(f"The amount must be from ${low:,} to ${high:,}.",
                                fields={field: f"From {low} to {high} dollars"}, status_code=422)
    return amount * 100


def start_checkout(session: Session, settings: Settings, account: LedgerAccount, ask: CheckoutAsk, *,
                   success_path: str, cancel_path: str, by: str, now: datetime) -> CheckoutStarted:
    """A pending card payment and its Checkout session. Commits twice: the payment before Stripe is
    asked (a webhook may find it before this answers), and the session's id after."""
    if not stripe_gateway.enabled(settings):
        raise ServiceMatchError(card_payments_note(settings), status_code=409)
    cents = check_amount(settings, ask.amount)
    opened = session.scalar(select(func.count()).select_from(Payment).where(
        Payment.account_id == account.id, Payment.method == PaymentMethod.CARD, Payment.automatic.is_(False),
        Payment.created_at >= now - timedelta(hours=1)))
    if opened >= CHECKOUTS_PER_HOUR:
        raise ServiceMatchError("Too many payments were started in the last hour; try again later.",
                                status_code=429, headers={"Retry-After": "3600"})
    payment = payments.open_card_payment(session, account, amount_cents=cents, automatic=False, by=by, now=now)
    session.commit()
    origin = settings.site_origin.rstrip("/")
    try:
        checkout = stripe_gateway.open_checkout(
            settings, account, payment, save_card=ask.saveCard,
            success_url=f"{origin}{success_path}?payment={payment.id}",
            cancel_url=f"{origin}{cancel_path}?checkout=cancelled")
    except stripe_gateway.StripeUnavailable:
        payments.fail(session, payment, reason="Stripe could not be reached.", now=now, on_record=False)
        session.commit()
        raise ServiceMatchError("Card payments cannot be started just now; try again in a minute.",
                                status_code=502) from None
    payment.stripe_checkout_id = checkout.session_id[:255]
    session.commit()
    return CheckoutStarted(paymentId=payment.id, url=checkout.url)


def set_topup(settings: Settings, account: LedgerAccount, ask: TopupAsk) -> None:
    """Top up by `amount` whenever the balance falls under `threshold` (once a card is saved)."""
    account.topup_amount_cents = check_amount(settings, ask.amount)
    account.topup_threshold_cents = ask.threshold * 100


def stop_topup(account: LedgerAccount) -> str | None:
    """No more automatic top-ups, and the saved card forgotten; the card's id, to detach at Stripe
    once this is committed."""
    card = account.stripe_payment_method_id
    account.topup_threshold_cents = account.topup_amount_cents = None
    account.stripe_payment_method_id = None
    return card


@dataclass(frozen=True)
class FundsActions:
    """A portal's audit-log names for Add funds and automatic top-up."""
    checkout: str
    topup_set: str
    topup_stop: str


@dataclass(frozen=True)
class Payer:
    """Whose money a portal's person moves (a buyer's or a provider's), in whose name, and how each
    change goes on that portal's audit log: the log is kept above the ledger, so the portal hands
    its own writer in."""
    kind: str
    owner_id: str
    name: str
    by: str
    actions: FundsActions
    audit: Callable[[str, dict], None]


def checkout_for(session: Session, settings: Settings, payer: Payer, ask: CheckoutAsk, *, success_path: str,
                 cancel_path: str) -> CheckoutStarted:
    """Add funds by card, as both portals' routes do it: on the audit log, then a Checkout session."""
    account = account_to_pay(session, payer.kind, payer.owner_id, payer.name)
    payer.audit(payer.actions.checkout, {"amount": ask.amount, "saveCard": ask.saveCard})
    return start_checkout(session, settings, account, ask, success_path=success_path, cancel_path=cancel_path,
                          by=payer.by, now=utcnow())


def topup_for(session: Session, settings: Settings, payer: Payer, ask: TopupAsk) -> Funds:
    """Set automatic top-up, as both portals' routes do it, and answer the funds."""
    account = account_to_pay(session, payer.kind, payer.owner_id, payer.name)
    set_topup(settings, account, ask)
    payer.audit(payer.actions.topup_set, {"threshold": ask.threshold, "amount": ask.amount})
    session.commit()
    return funds_of(session, settings, account)


def stop_topup_for(session: Session, settings: Settings, payer: Payer) -> Funds:
    """Stop automatic top-up, as both portals' routes do it; the card is detached at Stripe only
    once that is committed."""
    account = find_account(session, payer.kind, payer.owner_id)
    card = stop_topup(account) if account is not None else None
    payer.audit(payer.actions.topup_stop, {"cardForgotten": card is not None})
    session.commit()
    if card is not None and stripe_gateway.enabled(settings):
        stripe_gateway.forget_card(settings, card)
    return funds_of(session, settings, account)
