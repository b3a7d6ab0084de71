"""Buyers in the console: routing's directory (routing/buyers.py) in the console's shape, with what
each bought today and this month, its recent bids, and a test ping and a test post (routing's
url_checks.py, which the buyer portal's URL changes use too).

Besides the terms both sides share, the operator alone sets a buyer's return terms, its bid floor
if it likes, and which settings its people may not change in the buyer portal (`lockedFields`);
both sides set its own rules (`minQuality` and the duplicate rule, routing/buyer_rules.py);
whether the buyer paused itself there is shown, never set, here. So is how it pays (`terms`,
`creditLimit`, `netDays`: its ledger account's, ledger/terms.py), with its balance and any hold."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from servicematch.catalog.partners import list_versions
from servicematch.console.paging import iso
from servicematch.console.shapes import Shape
from servicematch.errors import ServiceMatchError
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.kernel.numbers import Number, whole_number
from servicematch.ledger.models import AccountKind, LedgerAccount
from servicematch.ledger.postings import accounts_of
from servicematch.ledger.terms import (
    MAX_NET_DAYS,
    UNSET,
    TermsChange,
    credit_limit_cents,
    standing_of,
)
from servicematch.routing import buyer_rules as rules
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer
from servicematch.routing.reports import recent_bids
from servicematch.routing.url_checks import check_ping, check_post
from servicematch.settings import Settings

# The console's field names, and the directory's (BuyerTerms, check_terms's errors).
RENAMES = {"postUrl": "post_url", "pingUrl": "ping_url", "dailyCap": "daily_cap",
           "monthlyBudget": "monthly_budget", "price": "price", "bidFloor": "bid_floor",
           "returnWindowDays": "return_window_days", "maxReturnPercent": "max_return_percent",
           "lockedFields": "locked_fields", "creditLimit": "credit_limit", "netDays": "net_days",
           "minQuality": "min_quality", "duplicateDays": "duplicate_days", "duplicateMatch": "duplicate_match",
           "duplicateScope": "duplicate_scope"}
BACK = {directory_name: console_name for console_name, directory_name in RENAMES.items()}


class BuyerFields(BaseModel):
    """What the console sends; on a change, only the fields to change. Dollars, not cents."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=200)
    postUrl: str | None = Field(default=None, max_length=2000)
    pingUrl: str | None = Field(default=None, max_length=2000)
    price: Number | None = None
    services: list[str] | None = Field(default=None, max_length=200)
    states: list[str] | None = Field(default=None, max_length=60)
    zips: list[str] | None = Field(default=None, max_length=5000)
    exclusive: bool | None = None
    dailyCap: whole_number(le=1_000_000) | None = None
    monthlyBudget: Number | None = None
    hours: str | None = Field(default=None, max_length=120)
    secret: str | None = Field(default=None, max_length=200)
    bidFloor: Number | None = None
    returnWindowDays: whole_number(le=directory.MAX_RETURN_WINDOW_DAYS) | None = None
    maxReturnPercent: whole_number(le=100) | None = None
    lockedFields: list[text(40)] | None = Field(default=None, max_length=len(directory.LOCKABLE_SETTINGS) * 2)
    # How it pays. A new buyer is prepaid unless told otherwise; creditLimit null: no limit.
    terms: Literal["prepaid", "credit"] | None = None
    creditLimit: Number | None = None
    netDays: whole_number(le=MAX_NET_DAYS) | None = None
    # Its own rules: the least quality score it is pinged for (null: any), and its duplicate rule's
    # window in days (null: the site's rule), match and scope (null: phone, service).
    minQuality: whole_number(le=100) | None = None
    duplicateDays: whole_number(ge=rules.MIN_DUPLICATE_DAYS, le=rules.MAX_DUPLICATE_DAYS) | None = None
    duplicateMatch: Literal["phone", "email", "either"] | None = None
    duplicateScope: Literal["service", "all"] | None = None


class ConsoleBuyer(Shape):
    """A buyer as the console lists it, never its secret; money in dollars."""

    id: str
    name: str
    active: bool
    postUrl: str
    pingUrl: str | None
    mode: Literal["ping-post", "fixed price"]
    exclusive: bool
    price: float | None
    services: list[str]
    states: list[str]
    zips: list[str]
    dailyCap: int | None
    monthlyBudget: float | None
    hours: str | None
    # A ping buyer's least bid that counts, in dollars; null: any bid.
    bidFloor: float | None
    # Days after a sale the buyer may return a lead (0: no returns), and the most it may return, as a
    # percentage of last month's leads (null: no maximum).
    returnWindowDays: int
    maxReturnPercent: int | None
    # The buyer portal's settings the buyer sees but may not change.
    lockedFields: list[str]
    # Its own rules (routing/buyer_rules.py): the least quality score (null: any); the duplicate
    # rule's window (null: the site's rule), by phone, e-mail or either, within a service or all.
    minQuality: int | None
    duplicateDays: int | None
    duplicateMatch: Literal["phone", "email", "either"]
    duplicateScope: Literal["service", "all"]
    # The buyer's own pause from its portal or API (the operator's switch is `active`), and since when.
    paused: bool
    pausedAt: str | None
    leadsToday: int
    spentThisMonth: float
    # How it pays, and its money (dollars): the balance (funds: payments add, leads take), what it may
    # still spend (null: credit with no limit), and why it is not receiving leads, if it is not.
    terms: Literal["prepaid", "credit"]
    creditLimit: float | None
    netDays: int
    balance: float
    available: float | None
    hold: Literal["funds", "overdue"] | None
    heldSince: str | None


class ConsoleBuyerList(Shape):
    items: list[ConsoleBuyer]


class NewBuyer(ConsoleBuyer):
    """The answer to adding a buyer: the only one that carries its signing secret."""

    secret: str


class PingTried(Shape):
    outcome: Literal["bid", "pass"]
    bid: float | None
    reason: str | None
    httpStatus: int | None
    durationMs: int
    pingId: str


class PostTried(Shape):
    outcome: str
    httpStatus: int | None
    error: str | None
    durationMs: int


class BuyerBid(Shape):
    leadId: str
    requestId: str
    service: str
    state: str | None
    kind: str
    amount: float | None
    reason: str | None
    atMs: int
    at: str | None


class BuyerBidList(Shape):
    items: list[BuyerBid]


def _console_error(exc: ServiceMatchError) -> ServiceMatchError:
    fields = {BACK.get(name, name): message for name, message in exc.fields.items()}
    return ServiceMatchError(exc.error, fields=fields, status_code=422)


def terms(fields: BuyerFields, buyer: Buyer | None = None) -> directory.BuyerTerms:
    """The buyer's terms with the fields sent laid over them (a new buyer starts empty)."""
    sent = fields.model_dump(exclude_unset=True)
    base = directory.terms_of(buyer) if buyer is not None else directory.BuyerTerms(name="", post_url="")
    try:
        if "price" in sent:
            base.price_cents = directory.to_cents(sent.pop("price"), field="price")
        if "monthlyBudget" in sent:
            base.monthly_budget_cents = directory.to_cents(sent.pop("monthlyBudget"), field="monthly_budget")
        if "bidFloor" in sent:
            base.bid_floor_cents = directory.to_cents(sent.pop("bidFloor"), field="bid_floor")
    except ServiceMatchError as exc:
        raise _console_error(exc) from None
    known = {f.name for f in dataclass_fields(directory.BuyerTerms)}
    for name, value in sent.items():
        target = RENAMES.get(name, name)
        if target in known:
            setattr(base, target, value)
    # An explicit null is an empty value, which check_terms refuses with the field's name.
    base.name, base.post_url, base.exclusive = base.name or "", base.post_url or "", bool(base.exclusive)
    return base


def own_rules(fields: BuyerFields, buyer: Buyer | None = None) -> rules.BuyerRules:
    """The buyer's rules with the fields sent laid over them, checked (a 422 naming the field)."""
    sent = fields.model_dump(exclude_unset=True)
    laid = rules.rules_of(buyer) if buyer is not None else rules.BuyerRules()
    for name in ("minQuality", "duplicateDays", "duplicateMatch", "duplicateScope"):
        if name in sent:
            value = sent[name]
            if value is None and name in ("duplicateMatch", "duplicateScope"):
                value = getattr(rules.BuyerRules(), RENAMES[name])  # null: the default (phone, service)
            setattr(laid, RENAMES[name], value)
    try:
        return rules.check_rules(laid)
    except ServiceMatchError as exc:
        raise _console_error(exc) from None


def money(fields: BuyerFields) -> TermsChange:
    """The change of how it pays, from the fields sent (only those)."""
    sent = fields.model_dump(exclude_unset=True)
    limit = credit_limit_cents(sent["creditLimit"]) if "creditLimit" in sent else UNSET
    return TermsChange(terms=sent.get("terms"), credit_limit_cents=limit, net_days=sent.get("netDays"))


def add(session: Session, fields: BuyerFields, settings: Settings) -> Buyer:
    own = own_rules(fields)
    try:
        buyer = directory.add_buyer(session, terms(fields), allow_private=settings.private_webhooks_allowed,
                                    money=money(fields))
    except ServiceMatchError as exc:
        raise _console_error(exc) from None
    rules.apply_rules(buyer, own)
    return buyer


def change(session: Session, buyer_id: str, fields: BuyerFields, settings: Settings) -> Buyer:
    buyer = directory.get_buyer(session, buyer_id)
    own = own_rules(fields, buyer)
    try:
        buyer = directory.update_buyer(session, buyer.id, terms(fields, buyer),
                                       allow_private=settings.private_webhooks_allowed, money=money(fields))
    except ServiceMatchError as exc:
        raise _console_error(exc) from None
    rules.apply_rules(buyer, own)
    return buyer


def _dollars(cents: int | None) -> float | None:
    return None if cents is None else cents / 100


def money_json(account: LedgerAccount | None) -> dict:
    """How an account pays and its money, in the console's shape (dollars)."""
    standing = standing_of(account)
    return {"terms": standing.terms, "creditLimit": _dollars(standing.credit_limit_cents), "netDays": standing.net_days,
            "balance": standing.balance_cents / 100, "available": _dollars(standing.available_cents),
            "hold": standing.hold_reason, "heldSince": iso(standing.held_since)}


def buyer_json(buyer: Buyer, spent: directory.Spending | None, account: LedgerAccount | None = None) -> dict:
    """A buyer as the console lists it: never its secret."""
    return {
        "id": buyer.id, "name": buyer.name, "active": buyer.active,
        "postUrl": buyer.post_url, "pingUrl": buyer.ping_url,
        "mode": "ping-post" if buyer.ping_url else "fixed price",
        "exclusive": buyer.exclusive, "price": _dollars(buyer.price_cents),
        "services": buyer.services or [], "states": buyer.states or [], "zips": buyer.zips or [],
        "dailyCap": buyer.daily_cap, "monthlyBudget": _dollars(buyer.monthly_budget_cents),
        "hours": buyer.hours, "bidFloor": _dollars(buyer.bid_floor_cents),
        "returnWindowDays": buyer.return_window_days, "maxReturnPercent": buyer.max_return_percent,
        "lockedFields": list(buyer.locked_fields or []),
        "minQuality": buyer.min_quality, "duplicateDays": buyer.duplicate_days,
        "duplicateMatch": buyer.duplicate_match or rules.MATCH_PHONE,
        "duplicateScope": buyer.duplicate_scope or rules.SCOPE_SERVICE,
        "paused": buyer.paused_at is not None, "pausedAt": iso(buyer.paused_at),
        "leadsToday": spent.today if spent else 0, "spentThisMonth": _dollars(spent.month_cents if spent else 0),
        **money_json(account),
    }


def buyers_json(session: Session, buyers: list[Buyer]) -> list[dict]:
    ids = [buyer.id for buyer in buyers]
    spent, accounts = directory.spending(session, ids, utcnow()), accounts_of(session, AccountKind.BUYER, ids)
    return [buyer_json(buyer, spent.get(buyer.id), accounts.get(buyer.id)) for buyer in buyers]


def bids_json(session: Session, buyer_id: str, *, limit: int) -> list[dict]:
    directory.get_buyer(session, buyer_id)
    return [{"leadId": lead.id, "requestId": lead.request_id, "service": lead.service, "state": lead.state,
             "kind": step.kind, "amount": _dollars(step.amount_cents),
             # A pass that carries a bid: the buyer bid it and could not pay it.
             "reason": step.detail if step.amount_cents is None or step.kind == "pass" else None,
             "atMs": step.at_ms, "at": step.created_at.isoformat() if step.created_at else None}
            for step, lead in recent_bids(session, buyer_id, limit=limit)]


def test_ping(buyer: Buyer, settings: Settings) -> dict:
    """Ping the buyer now with a sample lead's facts, and read its answer as an auction would."""
    if not buyer.ping_url:
        raise ServiceMatchError("This buyer has no ping URL: it bids its fixed price for every lead it takes.",
                                status_code=409)
    checked = check_ping(buyer, buyer.ping_url, settings)
    return {"outcome": "bid" if checked.cents is not None else "pass", "bid": _dollars(checked.cents),
            "reason": checked.reason, "httpStatus": checked.http_status, "durationMs": checked.duration_ms,
            "pingId": checked.ping_id}


def test_post(buyer: Buyer, settings: Settings) -> dict:
    """Post a sample lead marked as a test, with clearly fake details, to the buyer's post URL now."""
    checked = check_post(buyer, buyer.post_url, settings)
    return {"outcome": checked.outcome, "httpStatus": checked.http_status, "error": checked.error,
            "durationMs": checked.duration_ms}


class PartnerListItem(Shape):
    """A published marketing-partners list: the version a consent record's `partnersVersion` names."""

    version: str
    publishedAt: str | None
    partners: list[str]
    count: int


class PartnerLists(Shape):
    items: list[PartnerListItem]


def partner_lists_json(session: Session, *, limit: int = 50) -> list[dict]:
    """The published marketing-partners versions, newest first: what each consent record's
    `partnersVersion` names (catalog/partners.py)."""
    return [{"version": row.id, "publishedAt": iso(row.published_at), "partners": list(row.partners),
             "count": len(row.partners)} for row in list_versions(session, limit=limit)]
