"""The buyers directory: add, change, pause and resume buyers, and which of them may bid on a lead.

An operator sets every term (CLI or console); a buyer's own people change some of them in the
buyer portal (servicematch/buyer/settings.py), through the same checks, except those the operator
locked. Either side's pause keeps a buyer out of every auction: the operator's `active` switch and
the buyer's own `paused_at`. How a buyer pays (prepaid, or credit with a limit and net days) is its
ledger account's (ledger/terms.py): made with the buyer, in the same transaction.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple, TypeVar
from urllib.parse import urlsplit

from sqlalchemy import bindparam, case, func, null, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from servicematch.catalog.partners import listed, names_on_version, not_listed_reason
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.ids import new_id
from servicematch.ledger.models import AccountKind
from servicematch.ledger.terms import TermsChange, change_terms, check_change, rename_account
from servicematch.outbound.signing import new_webhook_secret, secret_problem
from servicematch.routing.hours import HoursError, open_now, parse_hours
from servicematch.routing.matching import offers_service
from servicematch.routing.models import Buyer, BuyerSpendDay, Sale
from servicematch.settings import Settings

Asker = TypeVar("Asker")

US_STATES = frozenset(
    ["AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY"])
MAX_PRICE_CENTS = 100_000_00
MAX_RETURN_WINDOW_DAYS = 365
# The settings a buyer's people change in the buyer portal, by the portal's names: an operator may
# lock any of them for a buyer (`Buyer.locked_fields`), so the buyer sees it but cannot change it.
LOCKABLE_SETTINGS = ("services", "states", "zips", "dailyCap", "monthlyBudget", "hours", "bidFloor", "price",
                     "pingUrl", "postUrl", "minQuality", "duplicateRule")


def to_cents(dollars: float | str | None, *, field: str) -> int | None:
    """Dollars as typed ("31.50") to whole cents; a clear error for anything else."""
    if dollars is None or dollars == "":
        return None
    try:
        value = float(dollars)
    except (TypeError, ValueError):
        raise ServiceMatchError(f"{field} must be a number of dollars, like 31.50",
                                fields={field: "Enter dollars, like 31.50"}) from None
    if not math.isfinite(value) or value < 0 or value * 100 > MAX_PRICE_CENTS:
        raise ServiceMatchError(f"{field} must be between 0 and {MAX_PRICE_CENTS // 100} dollars",
                                fields={field: "Out of range"})
    return round(value * 100)


@dataclass
class BuyerTerms:
    """What an operator sets for a buyer (CLI or console); checked by `check_terms`."""

    name: str
    post_url: str
    ping_url: str | None = None
    price_cents: int | None = None
    services: list[str] | None = None
    states: list[str] | None = None
    zips: list[str] | None = None
    exclusive: bool = False
    daily_cap: int | None = None
    monthly_budget_cents: int | None = None
    hours: str | None = None
    secret: str | None = None
    # A ping buyer's least bid that counts (a lower one is a pass); none for a fixed-price buyer.
    bid_floor_cents: int | None = None
    return_window_days: int = 7
    max_return_percent: int | None = 15
    locked_fields: list[str] | None = None


def terms_of(buyer: Buyer) -> BuyerTerms:
    """A stored buyer's terms as they are, for a change to be laid over and checked again."""
    return BuyerTerms(
        name=buyer.name, post_url=buyer.post_url, ping_url=buyer.ping_url, price_cents=buyer.price_cents,
        services=list(buyer.services or []), states=list(buyer.states or []), zips=list(buyer.zips or []),
        exclusive=buyer.exclusive, daily_cap=buyer.daily_cap, monthly_budget_cents=buyer.monthly_budget_cents,
        hours=buyer.hours, bid_floor_cents=buyer.bid_floor_cents,
        return_window_days=buyer.return_window_days if buyer.return_window_days is not None else 7,
        max_return_percent=buyer.max_return_percent, locked_fields=list(buyer.locked_fields or []))


def _refuse(field: str, message: str) -> ServiceMatchError:
    return ServiceMatchError(message, fields={field: message})


def _check_url(field: str, url: str | None, *, allow_private: bool) -> None:
    if url is None:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _refuse(field, f"{field} must be an http(s) URL")
    if parts.scheme != "https" and not allow_private:
        raise _refuse(field, f"{field} must be an https:// URL in production")


def check_terms(terms: BuyerTerms, *, allow_private: bool) -> BuyerTerms:
    """The terms, normalised (upper-case states, trimmed lists); a 422 naming the field otherwise."""
    if not terms.name.strip() or len(terms.name) > 200:
        raise _refuse("name", "name is required (at most 200 characters)")
    _check_url("post_url", terms.post_url, allow_private=allow_private)
    _check_url("ping_url", terms.ping_url or None, allow_private=allow_private)
    if not terms.ping_url and terms.price_cents is None:
        raise _refuse("price", "a buyer without a ping URL needs a fixed price")
    states = [state.strip().upper() for state in terms.states or [] if state.strip()]
    if unknown := [state for state in states if state not in US_STATES]:
        raise _refuse("states", f"unknown state: {', '.join(unknown)}")
    zips = [zip_code.strip() for zip_code in terms.zips or [] if zip_code.strip()]
    if bad := [zip_code for zip_code in zips if not (len(zip_code) == 5 and zip_code.isdigit())]:
        raise _refuse("zips", f"a ZIP is five digits: {', '.join(bad)}")
    if terms.daily_cap is not None and terms.daily_cap < 0:
        raise _refuse("daily_cap", "daily_cap cannot be negative")
    try:
        parse_hours(terms.hours)
    except HoursError as exc:
        raise _refuse("hours", str(exc)) from None
    if terms.secret is not None and (problem := secret_problem(terms.secret) or (
            None if terms.secret.startswith("whsec_") else "a buyer's secret is in the whsec_ form")):
        raise _refuse("secret", problem)
    _check_return_terms(terms)
    terms.states, terms.zips = states, zips
    terms.services = [service.strip() for service in terms.services or [] if service.strip()]
    terms.ping_url = terms.ping_url or None
    terms.hours = (terms.hours or "").strip() or None
    return terms


def _check_return_terms(terms: BuyerTerms) -> None:
    """The return window, the return share and the locks: the operator's terms only."""
    if not isinstance(terms.return_window_days, int) or not 0 <= terms.return_window_days <= MAX_RETURN_WINDOW_DAYS:
        raise _refuse("return_window_days", f"a return window is 0 (no returns) to {MAX_RETURN_WINDOW_DAYS} days")
    if terms.max_return_percent is not None and not 0 <= terms.max_return_percent <= 100:
        raise _refuse("max_return_percent", "a maximum return share is 0 to 100 percent, or none")
    locked = list(dict.fromkeys(name.strip() for name in terms.locked_fields or []))
    if unknown := [name for name in locked if name not in LOCKABLE_SETTINGS]:
        raise _refuse("locked_fields", f"not a setting that can be locked: {', '.join(unknown)[:200]} "
                                       f"(one of {', '.join(LOCKABLE_SETTINGS)})")
    terms.locked_fields = locked


# The columns a change of terms writes; the name is trimmed and the secret kept unless one is given.
TERM_COLUMNS = ("post_url", "ping_url", "price_cents", "services", "states", "zips", "exclusive", "daily_cap",
                "monthly_budget_cents", "hours", "bid_floor_cents", "return_window_days", "max_return_percent",
                "locked_fields")


def add_buyer(session: Session, terms: BuyerTerms, *, allow_private: bool,
              money: TermsChange | None = None) -> Buyer:
    """The buyer, and its ledger account on a new account's terms (prepaid) with `money` laid over."""
    terms = check_terms(terms, allow_private=allow_private)
    money = check_change(money or TermsChange(), None)
    now = utcnow()
    values = {name: getattr(terms, name) for name in TERM_COLUMNS}
    if values["max_return_percent"] is None:
        # A None would let the column's default (15) in: no maximum is stored as NULL.
        values["max_return_percent"] = null()
    buyer = Buyer(id=new_id(), name=terms.name.strip(), secret=terms.secret or new_webhook_secret(), active=True,
                  created_at=now, updated_at=now, **values)
    session.add(buyer)
    change_terms(session, AccountKind.BUYER, buyer.id, money, name=buyer.name, now=now, new_owner=True)
    return buyer


def update_buyer(session: Session, buyer_id: str, terms: BuyerTerms, *, allow_private: bool,
                 money: TermsChange | None = None) -> Buyer:
    """The buyer's terms replaced by `terms`; its account's terms changed by `money` (what it gives)."""
    buyer = get_buyer(session, buyer_id)
    terms = check_terms(terms, allow_private=allow_private)
    for name in TERM_COLUMNS:
        setattr(buyer, name, getattr(terms, name))
    buyer.name = terms.name.strip()
    if terms.secret and terms.secret != buyer.secret:
        # An operator's new secret replaces the old at once (a leaked one must stop now): no overlap,
        # and the end of any overlap the buyer's own rotation had started.
        buyer.secret, buyer.previous_secret, buyer.previous_secret_until = terms.secret, None, None
    buyer.updated_at = utcnow()
    if money is not None and not money.empty:
        change_terms(session, AccountKind.BUYER, buyer.id, money, name=buyer.name, now=buyer.updated_at)
    else:
        rename_account(session, AccountKind.BUYER, buyer.id, buyer.name)
    return buyer


def get_buyer(session: Session, buyer_id: str) -> Buyer:
    buyer = session.get(Buyer, buyer_id)
    if buyer is None:
        raise NotFound(f"No buyer with id {buyer_id}.")
    return buyer


def find_buyer(session: Session, name_or_id: str) -> Buyer:
    """The buyer with this id, or else the one buyer with exactly this name (any case); a clear
    error when there is none, or when several share the name."""
    wanted = (name_or_id or "").strip()
    buyer = session.get(Buyer, wanted) if 0 < len(wanted) <= 36 else None
    if buyer is not None:
        return buyer
    found = list(session.scalars(select(Buyer).where(func.lower(Buyer.name) == wanted.lower())
                                 .order_by(Buyer.created_at, Buyer.id)))
    if not found:
        raise NotFound(f"No buyer is named {wanted!r} or has that id: see `servicematch buyers list`.")
    if len(found) > 1:
        ids = ", ".join(buyer.id for buyer in found)
        raise ServiceMatchError(f"{len(found)} buyers are named {wanted!r}: give one's id instead ({ids}).",
                                status_code=409)
    return found[0]


def set_active(session: Session, buyer_id: str, active: bool) -> Buyer:
    buyer = get_buyer(session, buyer_id)
    buyer.active = active
    buyer.updated_at = utcnow()
    return buyer


def list_buyers(session: Session) -> list[Buyer]:
    return list(session.scalars(select(Buyer).order_by(Buyer.created_at, Buyer.id)))


@dataclass(frozen=True)
class Spending:
    """What a buyer bought so far: leads today and dollars this month (in cents)."""

    today: int
    month_cents: int


def _spending_statement():
    table = BuyerSpendDay.__table__
    today = bindparam("today", type_=table.c.day.type)
    return (select(table.c.buyer_id, func.sum(case((table.c.day == today, table.c.leads), else_=0)),
                   func.sum(table.c.cents))
            .where(table.c.buyer_id.in_(bindparam("buyer_ids", expanding=True)),
                   table.c.day >= bindparam("month_start", type_=table.c.day.type), table.c.day <= today)
            .group_by(table.c.buyer_id))


# Built once: every round of auctions reads it.
_SPENDING = _spending_statement()


def spending(session: Session, buyer_ids: list[str], now: datetime) -> dict[str, Spending]:
    """Leads bought today (UTC) and cents spent this month, per buyer, in one query of the daily
    counts (at most 31 rows a buyer, however many leads it bought)."""
    if not buyer_ids:
        return {}
    today = now.date()
    rows = session.execute(_SPENDING, {"buyer_ids": list(buyer_ids), "today": today,
                                       "month_start": today.replace(day=1)}).all()
    found = {buyer_id: Spending(int(count or 0), int(cents or 0)) for buyer_id, count, cents in rows}
    return {buyer_id: found.get(buyer_id, Spending(0, 0)) for buyer_id in buyer_ids}


def count_sales(session: Session, sales: list[Sale]) -> None:
    """Add sales to their buyers' days (in the sales' transaction): one statement, its rows in buyer
    order, which the upsert takes them in, so two workers counting sales of the same buyers at once
    lock their rows in the same order and never wait on each other in a circle."""
    totals: dict[tuple[str, date], list[int]] = {}
    for sale in sales:
        if sale.buyer_id is not None:
            total = totals.setdefault((sale.buyer_id, as_utc(sale.created_at).date()), [0, 0])
            total[0] += 1
            total[1] += sale.price_cents
    if not totals:
        return
    session.connection().execute(
        _count_sales_statement(session.get_bind().dialect.name),
        [{"buyer_id": buyer_id, "day": day, "leads": leads, "cents": cents}
         for (buyer_id, day), (leads, cents) in sorted(totals.items())])


@functools.cache
def _count_sales_statement(dialect_name: str):
    """One row's upsert, run for many rows at once: built and compiled once (a multi-row VALUES of
    its own would be compiled again for every batch), and sent as one multi-row statement by the
    driver's batching, the rows kept in the order given."""
    table = BuyerSpendDay.__table__
    statement = (postgresql_insert if dialect_name == "postgresql" else sqlite_insert)(table)
    return statement.on_conflict_do_update(
        index_elements=[table.c.buyer_id, table.c.day],
        set_={"leads": table.c.leads + statement.excluded.leads, "cents": table.c.cents + statement.excluded.cents})


def wants(buyer: Buyer, *, vertical: str, service: str, state: str | None, zip_code: str | None,
          now: datetime) -> bool:
    """Whether the buyer's services, area and hours take this lead (caps and budget aside)."""
    if buyer.services and not offers_service(buyer, vertical=vertical, service=service):
        return False
    if buyer.states and (state or "").upper() not in buyer.states:
        return False
    if buyer.zips and zip_code not in buyer.zips:
        return False
    return open_now(buyer.hours, now)


class Place(NamedTuple):
    """What of a lead the buyers' terms are about."""

    vertical: str
    service: str
    state: str | None
    zip_code: str | None


def qualifying_buyers(session: Session, *, vertical: str, service: str, state: str | None,
                      zip_code: str | None, now: datetime) -> tuple[list[Buyer], dict[str, Spending]]:
    """Active buyers, not paused by themselves, whose terms take this lead and who are under their
    daily cap, with what each spent (the budget is judged against the bid, once known)."""
    found, spent = qualifying_buyers_each(session, {None: Place(vertical, service, state, zip_code)}, now)
    return found[None], spent


# Built once: every round of auctions reads them.
_ACTIVE_BUYERS = select(Buyer).where(Buyer.active.is_(True), Buyer.paused_at.is_(None))


def qualifying_buyers_each(session: Session, places: Mapping[Asker, Place],
                           now: datetime) -> tuple[dict[Asker, list[Buyer]], dict[str, Spending]]:
    """`qualifying_buyers` for a round of leads, {key: Place}: the active buyers read once and what
    they spent read once, for them all."""
    if not places:
        return {}, {}
    active = list(session.scalars(_ACTIVE_BUYERS))
    candidates = {key: [buyer for buyer in active
                        if wants(buyer, vertical=place.vertical, service=place.service, state=place.state,
                                 zip_code=place.zip_code, now=now)]
                  for key, place in places.items()}
    spent = spending(session, sorted({buyer.id for found in candidates.values() for buyer in found}), now)
    under_cap = {key: [buyer for buyer in found if buyer.daily_cap is None or spent[buyer.id].today < buyer.daily_cap]
                 for key, found in candidates.items()}
    return under_cap, spent


def within_budget(buyer: Buyer, spent: Spending, bid_cents: int) -> bool:
    return buyer.monthly_budget_cents is None or spent.month_cents + bid_cents <= buyer.monthly_budget_cents


# -- the marketing-partners list the lead's consumer saw --------------------------------------------

def lead_partners(session: Session, lead: Lead) -> frozenset[str]:
    """The names on the marketing-partners version the lead's consent names: the only companies
    that may be sold or offered it (none for a lead without one)."""
    return names_on_version(session, lead.consent.partner_list_version if lead.consent else None)


def fixed_buyer_listed(settings: Settings, partners: frozenset[str]) -> bool:
    """Whether the SERVICEMATCH_BUYER_URL buyer, by SERVICEMATCH_BUYER_NAME, was on the lead's list."""
    return bool(settings.buyer_url) and listed(settings.buyer_name, partners)


def fixed_buyer_skip(settings: Settings, lead: Lead) -> str:
    """The waterfall's line for a fixed buyer the lead's list did not name."""
    name = settings.buyer_name.strip() or "The SERVICEMATCH_BUYER_URL buyer (no SERVICEMATCH_BUYER_NAME)"
    return f"{name}: {not_listed_reason(lead.consent.partner_list_version if lead.consent else None)}"
