"""What each buyer and provider takes, checked before a buyer is pinged or a provider is offered a
lead (docs/quality.md, "Per-buyer rules: minimum score and duplicates"):

- a minimum quality score (`min_quality`, 0-100): a lead scored under it (or not scored at all) is
  not for it;
- a buyer's own duplicate rule: a lead is a duplicate to the buyer when it was already pinged for,
  posted or sold a lead of the same person (same phone, same e-mail, or either) within its window
  of `duplicate_days` days, in the same service or in any service (`duplicate_scope`). A buyer
  without one (`duplicate_days` None) keeps the site's rule: intake's `Lead.is_duplicate` (same
  phone and service within SERVICEMATCH_DUPLICATE_WINDOW_DAYS).

`excluded_buyers` judges all of a lead's buyers with one query for every buyer that has a rule of
its own: the lead's earlier requests, found by its phone and e-mail hashes within the largest
window, joined to the auction steps and sales that name those buyers. Routing records each buyer
excluded as a pass with the reason, and pings it not.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from functools import lru_cache

from sqlalchemy import CompoundSelect, String, bindparam, or_, select, union
from sqlalchemy.orm import Session

from servicematch.delivery.models import Provider
from servicematch.delivery.quality_minimum import check_min_quality
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.routing.models import AuctionStep, Buyer, Sale, StepKind

MATCH_PHONE, MATCH_EMAIL, MATCH_EITHER = "phone", "email", "either"
DUPLICATE_MATCHES = (MATCH_PHONE, MATCH_EMAIL, MATCH_EITHER)
SCOPE_SERVICE, SCOPE_ALL = "service", "all"
DUPLICATE_SCOPES = (SCOPE_SERVICE, SCOPE_ALL)
MIN_DUPLICATE_DAYS, MAX_DUPLICATE_DAYS = 1, 365
# The names an operator locks them by in the buyer portal (Buyer.locked_fields): the minimum, and
# the duplicate rule's three fields together.
MIN_QUALITY_LOCK, DUPLICATE_RULE_LOCK = "minQuality", "duplicateRule"
RULE_LOCKS = (MIN_QUALITY_LOCK, DUPLICATE_RULE_LOCK)
# Steps that mean the buyer had the lead before it: its facts in a ping, or the lead in a post (a
# fixed-price buyer is posted without a ping). A sale is read from the sales as well.
SEEN_STEPS = (StepKind.PING, StepKind.POST)
SITE_DUPLICATE = "a duplicate: the same phone asked for the same service within the site's window"


@dataclass
class BuyerRules:
    """A buyer's rules as stored: no minimum and the site's duplicate rule unless set."""

    min_quality: int | None = None
    duplicate_days: int | None = None
    duplicate_match: str = MATCH_PHONE
    duplicate_scope: str = SCOPE_SERVICE


RULE_COLUMNS = tuple(field.name for field in fields(BuyerRules))


def rules_of(buyer: Buyer) -> BuyerRules:
    return BuyerRules(min_quality=buyer.min_quality, duplicate_days=buyer.duplicate_days,
                      duplicate_match=buyer.duplicate_match or MATCH_PHONE,
                      duplicate_scope=buyer.duplicate_scope or SCOPE_SERVICE)


def _refuse(field: str, message: str) -> ServiceMatchError:
    return ServiceMatchError(message, fields={field: message}, status_code=422)


def check_rules(rules: BuyerRules) -> BuyerRules:
    """The rules, or a 422 naming the field (as the columns name them) that is out of bounds."""
    check_min_quality(rules.min_quality)
    days = rules.duplicate_days
    if days is not None and (isinstance(days, bool) or not isinstance(days, int)
                             or not MIN_DUPLICATE_DAYS <= days <= MAX_DUPLICATE_DAYS):
        raise _refuse("duplicate_days", f"a duplicate window is {MIN_DUPLICATE_DAYS} to {MAX_DUPLICATE_DAYS} days, "
                                        "or none for the site's rule")
    if rules.duplicate_match not in DUPLICATE_MATCHES:
        raise _refuse("duplicate_match", f"a duplicate is matched on one of: {', '.join(DUPLICATE_MATCHES)}")
    if rules.duplicate_scope not in DUPLICATE_SCOPES:
        raise _refuse("duplicate_scope", f"a duplicate's scope is one of: {', '.join(DUPLICATE_SCOPES)}")
    return rules


def apply_rules(buyer: Buyer, rules: BuyerRules) -> dict[str, list]:
    """Write checked rules to the buyer; {column: [old, new]} of those that changed."""
    changed = {}
    for name in RULE_COLUMNS:
        old, new = getattr(buyer, name), getattr(rules, name)
        if old != new:
            changed[name] = [old, new]
            setattr(buyer, name, new)
    return changed


def describe_rule(rules: BuyerRules) -> str:
    """"same phone or e-mail, any service, within 60 days", or "the site's rule"."""
    if rules.duplicate_days is None:
        return "the site's rule"
    match = {MATCH_PHONE: "same phone", MATCH_EMAIL: "same e-mail",
             MATCH_EITHER: "same phone or e-mail"}[rules.duplicate_match]
    scope = "same service" if rules.duplicate_scope == SCOPE_SERVICE else "any service"
    days = f"{rules.duplicate_days} day" + ("" if rules.duplicate_days == 1 else "s")
    return f"{match}, {scope}, within {days}"


# -- the judgement --------------------------------------------------------------------------------

def quality_refusal(minimum: int | None, lead: Lead, *, whose: str = "your") -> str | None:
    """Why a lead is under a minimum score, or None. A lead without a score (the gate has not
    judged it) meets no minimum: whoever set one asked for leads known to reach it."""
    if minimum is None:
        return None
    if lead.quality_score is None:
        return f"no quality score (under {whose} minimum of {minimum})"
    if lead.quality_score < minimum:
        return f"quality score {lead.quality_score} is under {whose} minimum of {minimum}"
    return None


def provider_refusal(provider: Provider, lead: Lead) -> str | None:
    """Why a provider's minimum score keeps this lead from it, or None."""
    return quality_refusal(provider.min_quality, lead, whose="its")


def provider_accepts(provider: Provider, lead: Lead) -> bool:
    """Whether the provider's minimum score lets it be sent or offered this lead."""
    return provider_refusal(provider, lead) is None


def excluded_buyers(session: Session, *, lead: Lead, buyers: list[Buyer], now: datetime) -> dict[str, str]:
    """{buyer id: why} for each of `buyers` this lead is not for: under its minimum score, or a
    duplicate by its own rule, or (a buyer without one) by the site's rule."""
    excluded: dict[str, str] = {}
    ruled: list[Buyer] = []
    for buyer in buyers:
        if refusal := quality_refusal(buyer.min_quality, lead):
            excluded[buyer.id] = refusal
        elif buyer.duplicate_days is None:
            if lead.is_duplicate:
                excluded[buyer.id] = SITE_DUPLICATE
        elif _keys(lead, [buyer]):
            ruled.append(buyer)
    for buyer_id, seen in _duplicates(session, lead, ruled, now).items():
        excluded[buyer_id] = seen
    return excluded


def _keys(lead: Lead, buyers: list[Buyer]) -> dict[str, str]:
    """The lead's hashes that some of these buyers' rules match on: {"phone": ..., "email": ...}."""
    matches = {buyer.duplicate_match for buyer in buyers}
    keys = {}
    if lead.phone_hash and matches & {MATCH_PHONE, MATCH_EITHER}:
        keys[MATCH_PHONE] = lead.phone_hash
    if lead.email_hash and matches & {MATCH_EMAIL, MATCH_EITHER}:
        keys[MATCH_EMAIL] = lead.email_hash
    return keys


def _duplicates(session: Session, lead: Lead, ruled: list[Buyer], now: datetime) -> dict[str, str]:
    """The buyers of `ruled` to which this lead is a duplicate by their own rule, in one query."""
    keys = _keys(lead, ruled)
    if not ruled or not keys:
        return {}
    now = as_utc(now)
    rows = session.execute(_had_earlier(MATCH_PHONE in keys, MATCH_EMAIL in keys), {
        **keys, "lead_id": lead.id, "buyer_ids": [buyer.id for buyer in ruled],
        "since": now - timedelta(days=max(buyer.duplicate_days for buyer in ruled))}).all()
    by_id = {buyer.id: buyer for buyer in ruled}
    found: dict[str, tuple[datetime, str]] = {}
    for row in rows:
        buyer, when = by_id[row.buyer_id], as_utc(row.created_at)
        counts = (same_person(buyer, lead, row) and in_scope(buyer, lead, row)
                  and when >= now - timedelta(days=buyer.duplicate_days))
        # The newest such request is the one the buyer is told of.
        if counts and (buyer.id not in found or when > found[buyer.id][0]):
            found[buyer.id] = (when, (f"a duplicate by your rule ({describe_rule(rules_of(buyer))}): you were "
                                      f"pinged for or bought this consumer's request of {when:%Y-%m-%d}"))
    return {buyer_id: reason for buyer_id, (_, reason) in found.items()}


@lru_cache(maxsize=3)
def _had_earlier(by_phone: bool, by_email: bool) -> CompoundSelect:
    """The person's other requests since `since` that the buyers of `buyer_ids` had (a ping or a
    post step, or a sale), one row per request and buyer. Built once for each pair of keys, with
    bound parameters, so each lead costs the statement's execution only."""
    person = [column == bindparam(name, type_=String()) for name, column, wanted in (
        (MATCH_PHONE, Lead.phone_hash, by_phone), (MATCH_EMAIL, Lead.email_hash, by_email)) if wanted]
    earlier = (or_(*person), Lead.created_at >= bindparam("since", type_=Lead.created_at.type),
               Lead.id != bindparam("lead_id", type_=String()))
    buyer_ids = bindparam("buyer_ids", expanding=True, type_=String())

    def had(table, *more):
        # The person's requests are found in each half, not once in a shared CTE: for a CTE of
        # unknown size SQLite fills a Bloom filter from the whole sales table, on every lead.
        return (select(Lead.id, Lead.vertical, Lead.service, Lead.created_at, Lead.phone_hash, Lead.email_hash,
                       table.c.buyer_id)
                .join(table, table.c.lead_id == Lead.id).where(*earlier, table.c.buyer_id.in_(buyer_ids), *more))

    steps = AuctionStep.__table__
    return union(had(steps, steps.c.kind.in_(SEEN_STEPS)), had(Sale.__table__))


def same_person(buyer: Buyer, lead: Lead, row) -> bool:
    """Whether `row` (a lead, or a row with its hashes) is the same person as `lead` by the buyer's rule."""
    by_phone = bool(lead.phone_hash) and row.phone_hash == lead.phone_hash
    by_email = bool(lead.email_hash) and row.email_hash == lead.email_hash
    return {MATCH_PHONE: by_phone, MATCH_EMAIL: by_email, MATCH_EITHER: by_phone or by_email}[buyer.duplicate_match]


def in_scope(buyer: Buyer, lead: Lead, row) -> bool:
    """Whether `row` (a lead, or a row with its service) is within the buyer's rule's scope."""
    return buyer.duplicate_scope == SCOPE_ALL or (row.vertical, row.service) == (lead.vertical, lead.service)
