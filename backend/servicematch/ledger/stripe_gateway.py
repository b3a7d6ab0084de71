"""The only code that talks to Stripe, through the official `stripe` library (docs/money.md).

Three calls: open a Checkout session for an amount (Stripe's own page takes the card, so no card
number ever reaches this server), charge a saved card off-session for an automatic top-up, and
forget a saved card. Plus the check of every webhook event's signature. `SERVICEMATCH_STRIPE_API_BASE`
points the library at another address (the tests' local stand-in); the secret key is handed to one
client per key and never logged.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

import stripe

from servicematch.ledger.models import LedgerAccount, Payment
from servicematch.settings import Settings

log = logging.getLogger("servicematch.ledger")

CURRENCY = "usd"
# Connect, then read: a request thread waits no longer than this for Stripe.
TIMEOUT_SECONDS = (5, 20)
# Stripe answers a repeated idempotency key with its first answer, so a retry after a lost answer is safe.
NETWORK_RETRIES = 2


class StripeUnavailable(Exception):
    """Stripe could not be asked, or refused the request itself (not the card): try again later."""


class BadSignature(Exception):
    """A webhook body that Stripe did not sign with our secret, or that is not an event at all."""


@dataclass(frozen=True)
class Checkout:
    session_id: str
    url: str


@dataclass(frozen=True)
class Charge:
    """What an off-session charge came to: succeeded (paid now), processing (the webhook will say),
    declined (the card refused it; `failure` says why) or unreachable (nothing known: ask again)."""

    outcome: str
    intent_id: str | None = None
    failure: str | None = None


def enabled(settings: Settings) -> bool:
    return bool(settings.stripe_secret_key)


@functools.lru_cache(maxsize=4)
def _client(api_key: str, api_base: str) -> stripe.StripeClient:
    return stripe.StripeClient(api_key, base_addresses={"api": api_base} if api_base else None,
                               max_network_retries=NETWORK_RETRIES,
                               http_client=stripe.RequestsClient(timeout=TIMEOUT_SECONDS))


def client_for(settings: Settings) -> stripe.StripeClient:
    return _client(settings.stripe_secret_key, settings.stripe_api_base.rstrip("/"))


def _metadata(payment: Payment, **more: str) -> dict[str, str]:
    # Ids only: nothing personal goes to Stripe's metadata.
    return {"account_id": payment.account_id, "payment_id": payment.id, **more}


def open_checkout(settings: Settings, account: LedgerAccount, payment: Payment, *, save_card: bool,
                  success_url: str, cancel_url: str) -> Checkout:
    """A Checkout session for the payment's amount; `save_card` keeps the card for automatic top-up."""
    flags = {"save_card": "1" if save_card else "0"}
    intent: dict = {"metadata": _metadata(payment, **flags), "description": f"Funds for {settings.brand_name}"}
    params: dict = {
        "mode": "payment", "payment_method_types": ["card"], "client_reference_id": payment.id,
        "line_items": [{"quantity": 1, "price_data": {
            "currency": CURRENCY, "unit_amount": payment.amount_cents,
            "product_data": {"name": f"Funds for your {settings.brand_name} account"}}}],
        "metadata": _metadata(payment, **flags), "payment_intent_data": intent,
        "success_url": success_url, "cancel_url": cancel_url,
    }
    if save_card:
        intent["setup_future_usage"] = "off_session"
        if account.stripe_customer_id:
            params["customer"] = account.stripe_customer_id
        else:
            params["customer_creation"] = "always"
    try:
        made = client_for(settings).v1.checkout.sessions.create(
            params=params, options={"idempotency_key": f"checkout-{payment.id}"})
    except stripe.StripeError as exc:
        log.error("Stripe refused or did not answer a Checkout session for payment %s: %s", payment.id,
                  type(exc).__name__)
        raise StripeUnavailable() from exc
    return Checkout(session_id=made.id, url=made.url)


def charge_saved_card(settings: Settings, payment: Payment, *, customer: str, card: str) -> Charge:
    """Charge the saved card for the payment, off-session (nobody is there to confirm)."""
    params: dict = {
        "amount": payment.amount_cents, "currency": CURRENCY, "customer": customer,
        "payment_method": card, "off_session": True, "confirm": True,
        "description": f"Automatic top-up of your {settings.brand_name} account",
        "metadata": _metadata(payment, automatic="1"),
    }
    try:
        intent = client_for(settings).v1.payment_intents.create(
            params=params, options={"idempotency_key": f"topup-{payment.id}"})
    except stripe.CardError as exc:
        return Charge("declined", intent_id=_intent_of(exc), failure=_card_words(exc))
    except stripe.InvalidRequestError as exc:
        # The saved card or customer is gone (removed in Stripe's dashboard, say): unusable as a card refusal.
        return Charge("declined", intent_id=_intent_of(exc), failure="The saved card can no longer be used.")
    except stripe.StripeError as exc:
        log.warning("Stripe did not answer the automatic top-up %s (%s); it is asked again later", payment.id,
                    type(exc).__name__)
        return Charge("unreachable")
    if intent.status == "succeeded":
        return Charge("succeeded", intent_id=intent.id)
    if intent.status in ("processing", "requires_capture"):
        return Charge("processing", intent_id=intent.id)
    return Charge("declined", intent_id=intent.id, failure="The bank asked for the card holder's confirmation.")


def forget_card(settings: Settings, payment_method_id: str) -> None:
    """Detach the card from its customer at Stripe, so it can be charged no more; best effort (the
    account forgets it either way)."""
    try:
        client_for(settings).v1.payment_methods.detach(payment_method_id)
    except stripe.StripeError as exc:
        log.warning("Stripe did not detach a saved card (%s); the account forgot it", type(exc).__name__)


def verified_event(settings: Settings, payload: bytes, signature: str | None) -> dict:
    """The event Stripe signed with our webhook secret, as plain data; BadSignature for anything else
    (a forged or altered body, no or an old signature, a body that is not an event)."""
    try:
        event = stripe.Webhook.construct_event(payload, signature, settings.stripe_webhook_secret)
    except (stripe.SignatureVerificationError, ValueError, TypeError, AttributeError, KeyError) as exc:
        raise BadSignature() from exc
    data = event.to_dict()
    if not isinstance(data.get("id"), str) or not isinstance(data.get("type"), str):
        raise BadSignature()
    return data


def _intent_of(exc: stripe.StripeError) -> str | None:
    error = (exc.json_body or {}).get("error") if isinstance(exc.json_body, dict) else None
    intent = (error or {}).get("payment_intent") or {}
    found = intent.get("id") if isinstance(intent, dict) else None
    return found if isinstance(found, str) and len(found) <= 255 else None


def _card_words(exc: stripe.StripeError) -> str:
    words = exc.user_message if isinstance(exc.user_message, str) and exc.user_message else "The card was declined."
    return words[:500]
