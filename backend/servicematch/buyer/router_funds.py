"""A buyer's funds: its balance and terms, its payments, "Add funds" by card and automatic top-up
(docs/buyer-portal.md, Billing; docs/money.md).

Reading is for the buyer's people (/api/buyer) and its systems (/api/buyer/v1, an API key) alike;
paying and the top-up's settings are for a person in the portal only, with the session's CSRF
token, each on the buyer's audit log. Everything is the caller's own buyer's: a payment of another
account answers 404 with no body.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from servicematch.access.models import add_audit_entry
from servicematch.buyer.auth import Caller, SignedInBuyer, SignedInPerson
from servicematch.buyer.prefixes import BothPrefixes
from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import ErrorBody
from servicematch.ledger import funds
from servicematch.ledger.models import AccountKind

ACTIONS = funds.FundsActions(checkout="buyer.funds.checkout", topup_set="buyer.funds.topup_set",
                             topup_stop="buyer.funds.topup_stop")

# Where Stripe's Checkout sends the person back: the billing page's return page, or the page itself.
PAID_PATH = "/buyer/billing/paid"
CANCEL_PATH = "/buyer/billing"
CHECKOUT_REFUSED = {
    409: {"model": ErrorBody, "description": "Card payments are not set up (the answer says how to pay instead)"},
    422: {"model": ErrorBody, "description": "An amount outside minAmount..maxAmount, named in fields"},
    429: {"model": ErrorBody, "description": "Too many payments started in the last hour"},
    502: {"model": ErrorBody, "description": "Stripe could not be reached: nothing was charged"}}
TOPUP_REFUSED = {422: {"model": ErrorBody, "description": "An amount outside minAmount..maxAmount, named in fields"}}
NOT_THIS_BUYERS = {404: {"description": "Not one of this buyer's payments, or none: no body at all"}}
PaymentId = Annotated[str, Path(alias="paymentId", max_length=36)]

both = BothPrefixes()
portal, on_both = both.portal, both.route


def _account(db, caller: Caller):
    return funds.find_account(db, AccountKind.BUYER, caller.buyer.id)


def _payer(db, caller: Caller) -> funds.Payer:
    def audit(action: str, detail: dict) -> None:
        add_audit_entry(db, action=action, actor_id=caller.actor_id, actor_email=caller.who, ip=caller.ip,
                        target=caller.buyer.id, detail=detail)
    return funds.Payer(kind=AccountKind.BUYER, owner_id=caller.buyer.id, name=caller.buyer.name, by=caller.who,
                       actions=ACTIONS, audit=audit)


@on_both("GET", "/funds", response_model=funds.Funds,
         summary="The buyer's balance, terms and what it may still spend, its last 50 payments, automatic top-up, "
                 "and whether card payments are on")
def read_funds(caller: SignedInBuyer, db: SessionDep, settings: SettingsDep) -> funds.Funds:
    return funds.funds_of(db, settings, _account(db, caller))


@on_both("GET", "/funds/payments/{paymentId}", response_model=funds.FundsPayment, responses=NOT_THIS_BUYERS,
         summary="One of the buyer's payments (after Checkout: pending until Stripe confirms it)")
def read_payment(payment_id: PaymentId, caller: SignedInBuyer, db: SessionDep) -> funds.FundsPayment:
    return funds.own_payment(db, _account(db, caller), payment_id)


@portal.post("/funds/checkout", status_code=201, response_model=funds.CheckoutStarted, responses=CHECKOUT_REFUSED,
             summary="Add funds by card: a Stripe Checkout page for the amount (a person only); the balance rises "
                     "once Stripe confirms the payment")
def start_checkout(ask: funds.CheckoutAsk, caller: SignedInPerson, db: SessionDep,
                   settings: SettingsDep) -> funds.CheckoutStarted:
    return funds.checkout_for(db, settings, _payer(db, caller), ask, success_path=PAID_PATH,
                              cancel_path=CANCEL_PATH)


@portal.put("/funds/topup", response_model=funds.Funds, responses=TOPUP_REFUSED,
            summary="Automatic top-up: charge the saved card `amount` whenever the balance falls under `threshold` "
                    "(a person only)")
def set_topup(ask: funds.TopupAsk, caller: SignedInPerson, db: SessionDep, settings: SettingsDep) -> funds.Funds:
    return funds.topup_for(db, settings, _payer(db, caller), ask)


@portal.delete("/funds/topup", response_model=funds.Funds,
               summary="Stop automatic top-up and forget the saved card (a person only)")
def stop_topup(caller: SignedInPerson, db: SessionDep, settings: SettingsDep) -> funds.Funds:
    return funds.stop_topup_for(db, settings, _payer(db, caller))


router = both.router
