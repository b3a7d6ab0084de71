"""Providers in the console: the directory's own rules (delivery/providers.py), in the console's shape,
plus today's lead counts, how each pays (its ledger account's terms, ledger/terms.py), the least
quality score it takes (routing/buyer_rules.py) and a test send."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.console.paging import day_start, iso
from servicematch.console.shapes import Shape
from servicematch.delivery.email_sender import send_email
from servicematch.delivery.models import Delivery, DeliveryEndpoint, Provider
from servicematch.delivery.quality_minimum import HIGHEST_SCORE
from servicematch.delivery.schemas import MAX_LEAD_PRICE_CENTS, ProviderCreate, ProviderUpdate
from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.kernel.numbers import Number, whole_number
from servicematch.kernel.webhook_events import event_envelope
from servicematch.ledger.models import AccountKind, LedgerAccount
from servicematch.ledger.terms import (
    MAX_NET_DAYS,
    UNSET,
    TermsChange,
    change_terms,
    credit_limit_cents,
    rename_account,
    standing_of,
)
from servicematch.outbound.http_sender import DeliveryClient, encode_body, post_signed
from servicematch.portal.models import ProviderAccount
from servicematch.privacy.notices import LEAD
from servicematch.settings import Settings

# The console's field names, and the directory's.
RENAMES = {"email": "contact_email", "webhookUrl": "webhook_url", "webhookSecret": "webhook_secret",
           "radiusMiles": "radius_miles", "dailyCap": "daily_cap", "leadPriceCents": "lead_price_cents",
           "creditCapPercent": "credit_cap_percent"}
# How it pays: the ledger's, not the directory's (set by `set_money`), and its error names.
MONEY_FIELDS = ("terms", "creditLimit", "netDays")
MONEY_ERRORS = {"terms": "terms", "credit_limit": "creditLimit", "net_days": "netDays"}
# Set beside the directory's fields, by `set_money` (the directory's schemas do not carry it).
QUALITY_FIELD = "minQuality"


class ProviderFields(BaseModel):
    """What the console sends; every field optional here, the directory's schemas decide what is required."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=200)
    email: str | None = Field(default=None, max_length=254)
    webhookUrl: str | None = Field(default=None, max_length=2000)
    webhookSecret: str | None = Field(default=None, max_length=200)
    services: list[str] | None = Field(default=None, max_length=200)
    states: list[str] | None = Field(default=None, max_length=60)
    zips: list[str] | None = Field(default=None, max_length=5000)
    radiusMiles: Number | None = None
    # The directory's ranges, in the schema too (a number past its column was a 500).
    dailyCap: whole_number(ge=1) | None = None
    active: bool | None = None
    # Cents one accepted lead costs (null: the service's list price); credits a month, as a percent
    # of the month's accepted leads (portal/credits.py).
    leadPriceCents: whole_number(ge=1, le=MAX_LEAD_PRICE_CENTS) | None = None
    creditCapPercent: whole_number(le=100) | None = None
    # How it pays. A new provider is prepaid unless told otherwise; creditLimit (dollars) null: no limit.
    terms: Literal["prepaid", "credit"] | None = None
    creditLimit: Number | None = None
    netDays: whole_number(le=MAX_NET_DAYS) | None = None
    # The least quality score (0-100) of a lead it is sent or offered; null: any.
    minQuality: whole_number(le=HIGHEST_SCORE) | None = None


class ConsoleProvider(Shape):
    """A provider as the console shows it, with today's lead count and the portal's fields."""

    id: str
    name: str
    email: str | None
    webhookUrl: str | None
    hasWebhookSecret: bool
    services: list[str]
    states: list[str]
    zips: list[str]
    radiusMiles: float | None
    dailyCap: int | None
    active: bool
    # Set by the delivery worker while the provider's endpoint keeps failing.
    paused: bool
    leadsToday: int
    # The portal: 'review' for providers who joined through it; who paused it.
    mode: Literal["direct", "review"]
    pausedBy: Literal["operator", "provider"] | None
    licenceNumber: str | None
    licenceState: str | None
    verified: bool
    portalAccount: Literal["none", "invited", "active"]
    # What one accepted lead costs it (null: the service's list price); its monthly credit cap, a percent.
    leadPriceCents: int | None
    creditCapPercent: int
    # The least quality score of a lead it is sent or offered (null: any).
    minQuality: int | None
    # How it pays, and its money (dollars): the balance (funds: payments add, leads take), what it may
    # still spend (null: credit with no limit), and why it is not receiving leads, if it is not.
    terms: Literal["prepaid", "credit"]
    creditLimit: float | None
    netDays: int
    balance: float
    available: float | None
    hold: Literal["funds", "overdue"] | None
    heldSince: str | None


class ConsoleProviderList(Shape):
    items: list[ConsoleProvider]


class SampleSend(Shape):
    channel: Literal["webhook", "email"]
    outcome: str
    httpStatus: int | None
    error: str | None
    durationMs: int | None


class SampleSends(Shape):
    results: list[SampleSend]


def _directory_values(fields: ProviderFields) -> dict:
    return {RENAMES.get(key, key): value for key, value in fields.model_dump(exclude_unset=True).items()
            if key not in MONEY_FIELDS and key != QUALITY_FIELD}


def _checked(schema: type[BaseModel], values: dict) -> BaseModel:
    """The directory's validation, its messages keyed by the console's field names."""
    try:
        return schema(**values)
    except ValidationError as exc:
        back = {v: k for k, v in RENAMES.items()}
        problems = {}
        for problem in exc.errors():
            location = [str(p) for p in problem.get("loc", ())]
            name = back.get(location[0], location[0]) if location else "body"
            problems.setdefault(name, problem.get("msg", "invalid"))
        raise ServiceMatchError("The provider is not valid.", fields=problems, status_code=422) from exc


def create_values(fields: ProviderFields) -> ProviderCreate:
    values = {key: value for key, value in _directory_values(fields).items() if value is not None}
    return _checked(ProviderCreate, values)


def update_values(fields: ProviderFields) -> ProviderUpdate:
    return _checked(ProviderUpdate, _directory_values(fields))


def leads_today(session: Session) -> dict[str, int]:
    since = day_start(utcnow().date())
    rows = session.execute(
        select(Delivery.provider_id, func.count(func.distinct(Delivery.lead_id)))
        .where(Delivery.provider_id.is_not(None), Delivery.payload_kind == LEAD, Delivery.created_at >= since,
               Delivery.created_at < since + timedelta(days=1))
        .group_by(Delivery.provider_id)
    ).all()
    return {provider_id: count for provider_id, count in rows}


def paused_webhooks(session: Session) -> set[str]:
    """Providers whose webhook the delivery worker has paused after failures in a row."""
    keys = session.scalars(select(DeliveryEndpoint.key).where(DeliveryEndpoint.paused_until > utcnow())).all()
    return {key.removeprefix("webhook:") for key in keys if key.startswith("webhook:")}


def set_money(session: Session, provider: Provider, fields: ProviderFields, *, new: bool = False) -> None:
    """How the provider pays, from the fields sent (only those), in the caller's transaction; its
    account takes a new name with the provider. `new`: the provider was added in this transaction
    (its account is made with it). Its minimum quality score, when sent, is set here too."""
    sent = fields.model_dump(exclude_unset=True)
    if QUALITY_FIELD in sent:
        provider.min_quality = sent[QUALITY_FIELD]
    if not new and not any(name in sent for name in MONEY_FIELDS):
        rename_account(session, AccountKind.PROVIDER, provider.id, provider.name)
        return
    try:
        limit = credit_limit_cents(sent["creditLimit"]) if "creditLimit" in sent else UNSET
        change_terms(session, AccountKind.PROVIDER, provider.id, name=provider.name, new_owner=new,
                     change=TermsChange(terms=sent.get("terms"), credit_limit_cents=limit, net_days=sent.get("netDays")))
    except ServiceMatchError as exc:
        raise ServiceMatchError(exc.error, status_code=422, fields={
            MONEY_ERRORS.get(name, name): message for name, message in exc.fields.items()}) from None


@dataclass(frozen=True)
class ProviderAccounts:
    """Each provider's two accounts: its portal sign-in ("invited": no password chosen yet, or
    "active") and its ledger account (how it pays, its money)."""

    portal: dict[str, str]
    ledger: dict[str, LedgerAccount]


def portal_accounts(session: Session) -> ProviderAccounts:
    """Every provider's portal and ledger accounts, one query each."""
    rows = session.execute(select(ProviderAccount.provider_id, ProviderAccount.password_hash.is_not(None))).all()
    ledger = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.PROVIDER))
    return ProviderAccounts(portal={provider_id: "active" if has_password else "invited"
                                    for provider_id, has_password in rows},
                            ledger={account.owner_id: account for account in ledger})


def provider_json(provider: Provider, *, today: dict[str, int], paused: set[str] = frozenset(),
                  accounts: ProviderAccounts | None = None) -> dict:
    standing = standing_of(accounts.ledger.get(provider.id) if accounts else None)
    return {
        "id": provider.id, "name": provider.name, "email": provider.contact_email,
        "webhookUrl": provider.webhook_url, "hasWebhookSecret": bool(provider.webhook_secret),
        "services": provider.services, "states": provider.states, "zips": provider.zips,
        "radiusMiles": provider.radius_miles, "dailyCap": provider.daily_cap, "active": provider.active,
        "paused": provider.id in paused,
        "leadsToday": today.get(provider.id, 0),
        # The portal: review mode, who paused it, the licence and its check, the account.
        "mode": provider.mode, "pausedBy": provider.paused_by, "licenceNumber": provider.licence_number,
        "licenceState": provider.licence_state, "verified": provider.verified_at is not None,
        "portalAccount": accounts.portal.get(provider.id, "none") if accounts else "none",
        # What it pays: its own lead price (None: the service's list price), and its monthly credit cap.
        "leadPriceCents": provider.lead_price_cents, "creditCapPercent": provider.credit_cap_percent,
        "minQuality": provider.min_quality,
        # How it pays, and its money.
        "terms": standing.terms, "creditLimit": _dollars(standing.credit_limit_cents), "netDays": standing.net_days,
        "balance": standing.balance_cents / 100, "available": _dollars(standing.available_cents),
        "hold": standing.hold_reason, "heldSince": iso(standing.held_since),
    }


def _dollars(cents: int | None) -> float | None:
    return None if cents is None else cents / 100


def test_send(provider: Provider, settings: Settings) -> list[dict]:
    """Send a sample lead marked as a test through each of the provider's channels, now."""
    sample_id = f"test-{uuid.uuid4()}"
    # Shaped like a lead.matched event, so the provider's receiver is tried on what it will get.
    body = event_envelope("lead.test", occurred_at=utcnow(), data={
        "requestId": sample_id, "istest": "Y", "provider": {"id": provider.id, "name": provider.name},
        "consumer": {"first": "Test", "last": "Lead", "email": "test@example.com", "phone": "5555550100",
                     "city": "Austin", "state": "TX", "zip": "78701"},
        "answers": {}})
    results = []
    if provider.webhook_url:
        # The worker's own client and rules: no private address or plain http where deliveries may not go.
        client = DeliveryClient(allow_private=settings.private_webhooks_allowed)
        try:
            sent = post_signed(client=client, url=provider.webhook_url, body=encode_body(body),
                               secret=provider.webhook_secret or "", message_id=sample_id,
                               idempotency_key=sample_id,
                               timestamp=int(time.time()), timeout=settings.delivery_timeout_seconds,
                               allow_private=settings.private_webhooks_allowed)
        finally:
            client.close()
        results.append({"channel": "webhook", "outcome": sent.outcome, "httpStatus": sent.status_code,
                        "error": sent.error, "durationMs": sent.duration_ms})
    if settings.smtp_host:
        sent = send_email(settings=settings, to=provider.contact_email,
                          subject=f"[TEST] Sample lead from {settings.brand_name}",
                          text=f"Hello {provider.name},\n\nThis is a test lead; nobody asked for anything.\n",
                          message_id_key=sample_id)
        results.append({"channel": "email", "outcome": sent.outcome, "httpStatus": None,
                        "error": sent.error, "durationMs": sent.duration_ms})
    if not results:
        raise ServiceMatchError("This provider has no webhook URL and e-mail sending is off "
                                "(SERVICEMATCH_SMTP_HOST is empty): there is nothing to test.", status_code=409)
    return results
