"""A provider's funds in the portal: its balance and terms, its payments, "Add funds" by card and
automatic top-up (docs/portal.md, Money; docs/money.md).

Every route takes the provider's own id (OwnProvider): another provider's id, or a payment of
another account, answers 404 with no body. Changes need the CSRF token and are on the audit log.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from servicematch.access.models import add_audit_entry
from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import ErrorBody
from servicematch.ledger import funds
from servicematch.ledger.models import AccountKind
from servicematch.portal.auth import Caller, OwnProvider

ACTIONS = funds.FundsActions(checkout="portal.funds.checkout", topup_set="portal.funds.topup_set",
                             topup_stop="portal.funds.topup_stop")

# Where Stripe's Checkout sends the provider back: the money page, which shows the payment.
RETURN_PATH = "/pro/money"
NOT_FOUND_NO_BODY = {404: {"description": "Not this account's provider or payment, or none: no body at all"}}
CHECKOUT_REFUSED = {
    409: {"model": ErrorBody, "description": "Card payments are not set up (the answer says how to pay instead)"},
    422: {"model": ErrorBody, "description": "An amount outside minAmount..maxAmount, named in fields"},
    429: {"model": ErrorBody, "description": "Too many payments started in the last hour"},
    502: {"model": ErrorBody, "description": "Stripe could not be reached: nothing was charged"}}
TOPUP_REFUSED = {422: {"model": ErrorBody, "description": "An amount outside minAmount..maxAmount, named in fields"}}
PaymentId = Annotated[str, Path(alias="paymentId", max_length=36)]

# Included in the portal's router (portal/router.py), under its /api/pro.
router = APIRouter(prefix="/providers/{provider_id}/funds", responses=NOT_FOUND_NO_BODY)


def _account(db, caller: Caller):
    return funds.find_account(db, AccountKind.PROVIDER, caller.provider.id)


def _payer(db, caller: Caller) -> funds.Payer:
    def audit(action: str, detail: dict) -> None:
        add_audit_entry(db, action=action, actor_id=caller.account.id, actor_email=caller.account.email,
                        ip=caller.ip, target=caller.provider.id, detail=detail)
    return funds.Payer(kind=AccountKind.PROVIDER, owner_id=caller.provider.id, name=caller.provider.name,
                       by=caller.account.email, actions=ACTIONS, audit=audit)


@router.get("", response_model=funds.Funds,
            summary="The balance, terms and what may still be spent, the last 50 payments, automatic top-up, and "
                    "whether card payments are on")
def read_funds(caller: OwnProvider, db: SessionDep, settings: SettingsDep) -> funds.Funds:
    return funds.funds_of(db, settings, _account(db, caller))


@router.get("/payments/{paymentId}", response_model=funds.FundsPayment,
            summary="One of the provider's payments (after Checkout: pending until Stripe confirms it)")
def read_payment(payment_id: PaymentId, caller: OwnProvider, db: SessionDep) -> funds.FundsPayment:
    return funds.own_payment(db, _account(db, caller), payment_id)


@router.post("/checkout", status_code=201, response_model=funds.CheckoutStarted, responses=CHECKOUT_REFUSED,
             summary="Add funds by card: a Stripe Checkout page for the amount; the balance rises once Stripe "
                     "confirms the payment")
def start_checkout(ask: funds.CheckoutAsk, caller: OwnProvider, db: SessionDep,
                   settings: SettingsDep) -> funds.CheckoutStarted:
    return funds.checkout_for(db, settings, _payer(db, caller), ask, success_path=RETURN_PATH,
                              cancel_path=RETURN_PATH)


@router.put("/topup", response_model=funds.Funds, responses=TOPUP_REFUSED,
            summary="Automatic top-up: charge the saved card `amount` whenever the balance falls under `threshold`")
def set_topup(ask: funds.TopupAsk, caller: OwnProvider, db: SessionDep, settings: SettingsDep) -> funds.Funds:
    return funds.topup_for(db, settings, _payer(db, caller), ask)


@router.delete("/topup", response_model=funds.Funds, summary="Stop automatic top-up and forget the saved card")
def stop_topup(caller: OwnProvider, db: SessionDep, settings: SettingsDep) -> funds.Funds:
    return funds.stop_topup_for(db, settings, _payer(db, caller))
