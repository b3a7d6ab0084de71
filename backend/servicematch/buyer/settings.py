"""What a buyer changes itself in the buyer portal or with an API key: the leads it takes (services,
states, ZIPs, hours), how many (daily cap, monthly budget), at what price (a ping buyer's bid floor,
a fixed-price buyer's price), which (its minimum quality score and its own duplicate rule:
routing/buyer_rules.py), its pause, and its signing secret.

Every change goes through routing's own checks (routing/buyers.py `check_terms`, and the catalogue
check the provider portal uses for services), so a buyer can set nothing an operator could not. A
setting the operator locked for the buyer (`Buyer.locked_fields`) is shown but refused with a 403
naming it (the duplicate rule's three fields are locked together, as `duplicateRule`). Each change is on the buyer's audit log (buyer/audit.py) with who made it, in the same
transaction, as {field: [old, new]}; the secret itself never is.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import update
from sqlalchemy.orm import Session

from servicematch.buyer import audit
from servicematch.buyer.auth import Caller
from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery.quality_minimum import HIGHEST_SCORE
from servicematch.errors import ServiceMatchError
from servicematch.intake.schemas import text
from servicematch.kernel.clock import as_utc
from servicematch.kernel.numbers import Number, whole_number
from servicematch.outbound.signing import new_webhook_secret
from servicematch.portal import rules
from servicematch.portal.ledger import iso
from servicematch.routing import buyer_rules
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer

# How long the secret a rotation replaced keeps signing, beside the new one.
SECRET_OVERLAP = timedelta(hours=24)
LOCKED = "Locked by ServiceMatch: ask your account manager"
MAX_DAILY_CAP = 1_000_000
MAX_DOLLARS = directory.MAX_PRICE_CENTS // 100
# check_terms's field names, as the portal names them.
PORTAL_NAMES = {"daily_cap": "dailyCap", "monthly_budget": "monthlyBudget", "bid_floor": "bidFloor",
                "post_url": "postUrl", "ping_url": "pingUrl", "min_quality": "minQuality",
                "duplicate_days": "duplicateDays", "duplicate_match": "duplicateMatch",
                "duplicate_scope": "duplicateScope"}
# The buyer's own rules, by the portal's names, and the lock each is under (Buyer.locked_fields).
RULE_FIELDS = {"minQuality": "min_quality", "duplicateDays": "duplicate_days", "duplicateMatch": "duplicate_match",
               "duplicateScope": "duplicate_scope"}
LOCKED_BY = {"minQuality": buyer_rules.MIN_QUALITY_LOCK, "duplicateDays": buyer_rules.DUPLICATE_RULE_LOCK,
             "duplicateMatch": buyer_rules.DUPLICATE_RULE_LOCK, "duplicateScope": buyer_rules.DUPLICATE_RULE_LOCK}


class BuyerSettings(BaseModel):
    """The buyer's settings as its portal and API show them; money in dollars."""

    name: str
    mode: Literal["ping-post", "fixed price"]
    pingUrl: str | None
    postUrl: str
    services: list[str] = Field(description="Catalogue ids (vertical/slug, or a slug); empty: every service")
    states: list[str] = Field(description="Two-letter states; empty: every state")
    zips: list[str] = Field(description="Five-digit ZIPs; empty: every ZIP")
    dailyCap: int | None = Field(description="Most leads a day (UTC); null: no cap")
    monthlyBudget: float | None = Field(description="Most dollars a calendar month; null: no budget")
    hours: str | None = Field(description='When it buys, like "Mon-Fri 08:00-18:00 America/New_York"; null: always')
    paused: bool = Field(description="Paused by the buyer: no pings or posts until it resumes")
    bidFloor: float | None = Field(description="A ping buyer's least bid that counts; a lower bid is a pass")
    price: float | None = Field(description="A fixed-price buyer's price per lead")
    exclusive: bool
    locked: list[str] = Field(description="Settings ServiceMatch locked: shown, not changeable")
    returnWindowDays: int = Field(description="Days after a sale a lead may be returned; 0: no returns")
    maxReturnPercent: int | None = Field(description="Most returns, as a share of last month's leads; null: no maximum")
    minQuality: int | None = Field(description="Least quality score (0-100) of a lead you are pinged for; null: any")
    duplicateDays: int | None = Field(description="Your duplicate rule: not pinged for a lead of a person you were "
                                                  "pinged for or bought within this many days (1-365); null: "
                                                  "ServiceMatch's rule (the same phone and service)")
    duplicateMatch: Literal["phone", "email", "either"] = Field(description="Your rule's same person: by phone, "
                                                                           "e-mail, or either")
    duplicateScope: Literal["service", "all"] = Field(description="Your rule's reach: the same service, or all")
    secretOverlapUntil: str | None = Field(description="Until when the previous signing secret still signs too")


class SettingsChanges(BaseModel):
    """Only the fields sent change; null clears an optional one (no cap, no budget, always, every ...)."""

    model_config = ConfigDict(extra="forbid")

    services: list[text(80)] | None = Field(default=None, max_length=rules.MAX_SERVICES * 2)
    states: list[text(4)] | None = Field(default=None, max_length=60)
    zips: list[text(10)] | None = Field(default=None, max_length=5000)
    dailyCap: whole_number(le=MAX_DAILY_CAP) | None = None
    # Bounded and finite before any arithmetic: JSON as Python reads it also carries Infinity and NaN.
    monthlyBudget: Number | None = Field(default=None, ge=0, le=MAX_DOLLARS, allow_inf_nan=False)
    hours: text(120) | None = None
    bidFloor: Number | None = Field(default=None, ge=0, le=MAX_DOLLARS, allow_inf_nan=False)
    price: Number | None = Field(default=None, ge=0, le=MAX_DOLLARS, allow_inf_nan=False)
    minQuality: whole_number(le=HIGHEST_SCORE) | None = None
    duplicateDays: whole_number(ge=buyer_rules.MIN_DUPLICATE_DAYS, le=buyer_rules.MAX_DUPLICATE_DAYS) | None = None
    # Null is the default: phone, the same service.
    duplicateMatch: Literal["phone", "email", "either"] | None = None
    duplicateScope: Literal["service", "all"] | None = None


def _dollars(cents: int | None) -> float | None:
    return None if cents is None else round(cents / 100, 2)


def _overlap_until(buyer: Buyer, now: datetime) -> str | None:
    until = as_utc(buyer.previous_secret_until)
    return iso(until) if buyer.previous_secret and until is not None and until > now else None


def settings_of(buyer: Buyer | SimpleNamespace, now: datetime) -> BuyerSettings:
    return BuyerSettings(
        name=buyer.name, mode="ping-post" if buyer.ping_url else "fixed price", pingUrl=buyer.ping_url,
        postUrl=buyer.post_url, services=list(buyer.services or []), states=list(buyer.states or []),
        zips=list(buyer.zips or []), dailyCap=buyer.daily_cap, monthlyBudget=_dollars(buyer.monthly_budget_cents),
        hours=buyer.hours, paused=buyer.paused_at is not None, bidFloor=_dollars(buyer.bid_floor_cents),
        price=_dollars(buyer.price_cents), exclusive=buyer.exclusive, locked=list(buyer.locked_fields or []),
        returnWindowDays=buyer.return_window_days, maxReturnPercent=buyer.max_return_percent,
        minQuality=buyer.min_quality, duplicateDays=buyer.duplicate_days,
        duplicateMatch=buyer.duplicate_match or buyer_rules.MATCH_PHONE,
        duplicateScope=buyer.duplicate_scope or buyer_rules.SCOPE_SERVICE, secretOverlapUntil=_overlap_until(buyer, now))


def refuse_locked(buyer: Buyer, names: list[str]) -> None:
    """A 403 naming each of these settings the operator locked for the buyer."""
    if locked := [name for name in names if LOCKED_BY.get(name, name) in (buyer.locked_fields or [])]:
        raise ServiceMatchError(f"ServiceMatch locked {', '.join(locked)} for your account: ask your account "
                                "manager to change it.", fields={name: LOCKED for name in locked}, status_code=403)


def portal_error(exc: ServiceMatchError) -> ServiceMatchError:
    """check_terms's refusal, naming the fields as the portal does, as a 422."""
    fields = {PORTAL_NAMES.get(name, name): message for name, message in exc.fields.items()}
    return ServiceMatchError(exc.error, fields=fields, status_code=422)


def _cents(value: float | None, field: str) -> int | None:
    try:
        return directory.to_cents(value, field=field)
    except ServiceMatchError as exc:
        raise portal_error(exc) from None


def _as_shown(name: str, value):
    """A value sent as the settings would show it once saved (ignoring case and spaces where they
    mean nothing), to tell a change from the same value sent back."""
    if name in ("monthlyBudget", "bidFloor", "price"):
        return None if value is None else round(value * 100) / 100
    if name in ("services", "zips"):
        return [item.strip() for item in value or [] if item.strip()]
    if name == "states":
        return [item.strip().upper() for item in value or [] if item.strip()]
    if name == "hours":
        return (value or "").strip() or None
    if name in ("duplicateMatch", "duplicateScope") and value is None:
        return getattr(buyer_rules.BuyerRules(), RULE_FIELDS[name])
    return value


def _mode_fields(buyer: Buyer, changes: SettingsChanges, sent: set[str], before: dict, *,
                 max_bid_cents: int) -> set[str]:
    """The fields sent that apply: a bid floor is a ping buyer's, a price a fixed-price buyer's (the
    other one sent back empty or as it was is left alone); a floor above the most we take would turn
    every bid into a pass."""
    sent = set(sent)
    other = "price" if buyer.ping_url else "bidFloor"
    if other in sent and _as_shown(other, getattr(changes, other)) in (None, before[other]):
        sent.discard(other)
    if other in sent and buyer.ping_url:
        raise ServiceMatchError("Your account bids by ping: set a bid floor, not a price.",
                                fields={"price": "Only for buyers that buy at a fixed price"}, status_code=422)
    if other in sent:
        raise ServiceMatchError("Your account buys at a fixed price: set the price, not a bid floor.",
                                fields={"bidFloor": "Only for buyers that bid by ping"}, status_code=422)
    if "bidFloor" in sent and changes.bidFloor is not None and round(changes.bidFloor * 100) > max_bid_cents:
        message = f"At most ${max_bid_cents / 100:,.2f}, the highest bid we take"
        raise ServiceMatchError("That bid floor is above any bid we take.", fields={"bidFloor": message},
                                status_code=422)
    return sent


def _new_terms(buyer: Buyer, catalog: CatalogIndex, changes: SettingsChanges,
               sent: set[str]) -> directory.BuyerTerms:
    """The buyer's terms with the changes laid over them, services checked against the catalogue."""
    terms = directory.terms_of(buyer)
    if "services" in sent:
        problems = rules.Problems()
        entries = [entry for entry in changes.services or [] if entry.strip()]
        terms.services = rules.clean_services(entries, catalog, problems) if entries else []
        problems.raise_any("The settings were not saved: some services are not ones we offer.")
    for name, field in (("states", "states"), ("zips", "zips"), ("daily_cap", "dailyCap"), ("hours", "hours")):
        if field in sent:
            setattr(terms, name, getattr(changes, field))
    if "monthlyBudget" in sent:
        terms.monthly_budget_cents = _cents(changes.monthlyBudget, "monthly_budget")
    if "bidFloor" in sent:
        terms.bid_floor_cents = _cents(changes.bidFloor, "bid_floor")
    if "price" in sent:
        terms.price_cents = _cents(changes.price, "price")
    return terms


def _new_rules(buyer: Buyer, changes: SettingsChanges, sent: set[str]) -> buyer_rules.BuyerRules:
    """The buyer's own rules with the changes laid over them, checked (a 422 naming the field)."""
    laid = buyer_rules.rules_of(buyer)
    for name, column in RULE_FIELDS.items():
        if name in sent:
            setattr(laid, column, _as_shown(name, getattr(changes, name)))
    try:
        return buyer_rules.check_rules(laid)
    except ServiceMatchError as exc:
        raise portal_error(exc) from None


def change_settings(session: Session, caller: Caller, catalog: CatalogIndex, changes: SettingsChanges, *,
                    allow_private: bool, max_bid_cents: int, now: datetime) -> BuyerSettings:
    """Check and apply the changes sent (all or none), on the audit log with who made them."""
    buyer = caller.buyer
    before = settings_of(buyer, now).model_dump()
    sent = _mode_fields(buyer, changes, set(changes.model_fields_set), before, max_bid_cents=max_bid_cents)
    refuse_locked(buyer, [name for name in sorted(sent) if _as_shown(name, getattr(changes, name)) != before[name]])
    terms = _new_terms(buyer, catalog, changes, sent)
    own = _new_rules(buyer, changes, sent)
    try:
        directory.check_terms(terms, allow_private=allow_private)
    except ServiceMatchError as exc:
        raise portal_error(exc) from None
    after = settings_of(_laid_over(buyer, terms, own), now).model_dump()
    changed = {name: [before[name], after[name]] for name in sorted(sent) if before[name] != after[name]}
    if changed:
        directory.update_buyer(session, buyer.id, terms, allow_private=allow_private)
        buyer_rules.apply_rules(buyer, own)
        audit.record(session, caller, audit.Action.SETTINGS_CHANGE, changed)
    return settings_of(buyer, now)


def _laid_over(buyer: Buyer, terms: directory.BuyerTerms, own: buyer_rules.BuyerRules) -> SimpleNamespace:
    """The buyer's values with the checked terms and rules over them, unsaved: what the settings would show."""
    values = {column.key: getattr(buyer, column.key) for column in Buyer.__table__.columns}
    values.update({name: getattr(terms, name) for name in directory.TERM_COLUMNS})
    values.update({name: getattr(own, name) for name in buyer_rules.RULE_COLUMNS})
    return SimpleNamespace(**values)


def set_paused(session: Session, caller: Caller, paused: bool, now: datetime) -> BuyerSettings:
    """Pause (no pings or posts from the next auction on) or resume; once only, on the log once."""
    buyer = caller.buyer
    if (buyer.paused_at is not None) != paused:
        buyer.paused_at, buyer.updated_at = (now if paused else None), now
        action = audit.Action.PAUSE if paused else audit.Action.RESUME
        audit.record(session, caller, action, {"paused": [not paused, paused]})
    return settings_of(buyer, now)


class NewSecret(BaseModel):
    """The buyer's new signing secret, shown this once; the old one signs too until previousValidUntil."""

    secret: str
    previousValidUntil: str


def rotate_secret(session: Session, caller: Caller, now: datetime) -> NewSecret:
    """A new secret; the one it replaces keeps signing, as a second signature, for SECRET_OVERLAP.

    One UPDATE moves the secret aside and sets the new one, so two rotations at once cannot both
    keep the same old secret: the later one keeps the earlier one's. A secret older than the one
    replaced stops signing now."""
    secret, until = new_webhook_secret(), now + SECRET_OVERLAP
    session.execute(update(Buyer).where(Buyer.id == caller.buyer.id).values(
        previous_secret=Buyer.secret, previous_secret_until=until, secret=secret, updated_at=now)
        .execution_options(synchronize_session=False))
    session.refresh(caller.buyer)
    audit.record(session, caller, audit.Action.SECRET_ROTATE, {"previousValidUntil": iso(until)})
    return NewSecret(secret=secret, previousValidUntil=iso(until))
