"""Pick up to three providers for a lead: its service, its area, its hours, under their cap, able to
pay for it, fairly."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from sqlalchemy import case, func, or_, select, union
from sqlalchemy.orm import Session

from servicematch.address.directory import find_zip_place
from servicematch.catalog.partners import listed, names_on_version, not_listed_reason
from servicematch.delivery.models import Delivery, Provider
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.ids import new_id
from servicematch.ledger import holds
from servicematch.ledger.models import (
    AccountKind,
    EntryKind,
    HoldReason,
    LedgerAccount,
    LedgerEntry,
    Terms,
)
from servicematch.ledger.terms import can_take, dollars, hold_reason_for, open_account
from servicematch.routing.buyer_rules import provider_refusal
from servicematch.routing.hours import open_now
from servicematch.routing.models import AuctionStep, OfferStatus, ProviderOffer, StepKind
from servicematch.routing.pricing import lead_price_cents

MAX_PROVIDERS_PER_LEAD = 3
EARTH_RADIUS_MILES = 3958.8
ACTIVE_PROVIDERS_KEY = "servicematch.active_providers"


def zip_location(zip_code: str) -> tuple[float, float] | None:
    """Latitude and longitude of a US ZIP code from the bundled data, or None if unknown."""
    place = find_zip_place(zip_code)
    return (place.lat, place.long) if place else None


def zip_city(zip_code: str | None) -> str:
    """The ZIP's city ("Austin"), or "" if unknown: an offer names the place without the street."""
    place = find_zip_place(zip_code)
    return place.city if place else ""


def distance_miles(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two (lat, long) points."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(math.sqrt(h))


def offers_service(provider: Provider, *, vertical: str, service: str) -> bool:
    """A provider lists a service by slug, or by vertical/slug where a slug exists in two verticals."""
    offered = set(provider.services or [])
    return service in offered or f"{vertical}/{service}" in offered


def serves_location(provider: Provider, *, state: str | None, zip_code: str | None) -> bool:
    """In one of the provider's states, one of its ZIPs, or within its radius of one of them."""
    if state and state.upper() in {s.upper() for s in provider.states or []}:
        return True
    provider_zips = provider.zips or []
    if not zip_code:
        return False
    if zip_code in provider_zips:
        return True
    if not provider.radius_miles:
        return False
    here = zip_location(zip_code)
    if here is None:
        return False
    for centre_zip in provider_zips:
        centre = zip_location(centre_zip)
        if centre is not None and distance_miles(here, centre) <= provider.radius_miles:
            return True
    return False


def _sent_today(*, session: Session, provider_ids: list[str], now: datetime) -> dict[str, int]:
    """Leads matched to each provider since midnight UTC: sent in full (all its channels count as
    one lead) or offered in the portal, whatever the offer became.

    Counts the rows already stored and those added to this session but not yet written (the
    other leads of a batch stored in one transaction).
    """
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    day = (midnight, midnight + timedelta(days=1))
    delivered = (select(Delivery.provider_id, Delivery.lead_id)
                 .where(Delivery.provider_id.in_(provider_ids), Delivery.payload_kind == "lead",
                        Delivery.created_at >= day[0], Delivery.created_at < day[1]))
    offered = (select(ProviderOffer.provider_id, ProviderOffer.lead_id)
               .where(ProviderOffer.provider_id.in_(provider_ids),
                      ProviderOffer.created_at >= day[0], ProviderOffer.created_at < day[1]))
    matched = union(delivered, offered).subquery()
    rows = session.execute(select(matched.c.provider_id, func.count()).group_by(matched.c.provider_id)).all()
    counts = {provider_id: count for provider_id, count in rows}
    wanted = set(provider_ids)
    unwritten = {(row.provider_id, row.lead_id) for row in session.new
                 if isinstance(row, Delivery | ProviderOffer) and row.provider_id in wanted}
    for provider_id, _lead_id in unwritten:
        counts[provider_id] = counts.get(provider_id, 0) + 1
    return counts


def week_start(now: datetime) -> datetime:
    """Monday 00:00 UTC of `now`'s week: weekly budgets run from it."""
    midnight = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight - timedelta(days=midnight.weekday())


def charged_this_week(*, session: Session, provider_ids: list[str], now: datetime) -> dict[str, int]:
    """Each provider's charges since Monday 00:00 UTC, in cents, as a positive sum (the ledger
    keeps them negative); credits and payments do not refill the budget."""
    if not provider_ids:
        return {}
    rows = session.execute(
        select(LedgerAccount.owner_id, func.sum(LedgerEntry.amount_cents))
        .join(LedgerEntry, LedgerEntry.account_id == LedgerAccount.id)
        .where(LedgerAccount.kind == AccountKind.PROVIDER, LedgerAccount.owner_id.in_(provider_ids),
               LedgerEntry.kind == EntryKind.CHARGE, LedgerEntry.created_at >= week_start(now))
        .group_by(LedgerAccount.owner_id)).all()
    return {provider_id: -int(total or 0) for provider_id, total in rows}


def within_weekly_budget(provider: Provider, charged: int, price_cents: int) -> bool:
    return provider.weekly_budget_cents is None or charged + price_cents <= provider.weekly_budget_cents


def _active_providers(session: Session) -> list[Provider]:
    """Active providers, sent leads in full or offered them (review mode), read once per
    transaction: the leads of a batch share one read."""
    transaction = session.get_transaction()
    read_in, providers = session.info.get(ACTIVE_PROVIDERS_KEY, (None, None))
    if providers is None or transaction is None or read_in is not transaction:
        query = select(Provider).where(Provider.active.is_(True))
        if session.get_bind().dialect.name == "postgresql":
            # Held to the commit: two workers never both see a provider under its cap.
            query = query.with_for_update()
        providers = session.scalars(query).all()
        session.info[ACTIVE_PROVIDERS_KEY] = (session.get_transaction(), providers)
    return providers


def match_providers(
    *, session: Session, vertical: str, service: str, state: str | None, zip_code: str | None,
    now: datetime, limit: int = MAX_PROVIDERS_PER_LEAD, exclude: set[str] = frozenset(),
    lead: Lead | None = None,
) -> list[Provider]:
    """The active providers for this lead, within their hours, under their daily cap and their
    weekly budget (this lead's shared price included), able to pay that price, least recently
    matched first; `exclude` names providers the lead went or was offered to already.

    With the `lead` (routing always passes it), a provider not on the marketing-partners list its
    consumer saw, or one that cannot pay, is left out, and the skip is written to the lead's
    auction steps."""
    active = _active_providers(session)
    candidates = [
        provider for provider in active
        if provider.id not in exclude
        and offers_service(provider, vertical=vertical, service=service)
        and serves_location(provider, state=state, zip_code=zip_code)
        and open_now(provider.hours, now)
    ]
    if lead is not None and candidates:
        candidates = _on_lead_list(session, lead, candidates, now)
        candidates = _meeting_minimums(session, lead, candidates, now)
    if not candidates or limit <= 0:
        return []
    counts = _sent_today(session=session, provider_ids=[p.id for p in candidates], now=now)
    # Every provider pays for its leads (direct ones at once), so every weekly budget holds.
    budgeted = [p.id for p in candidates if p.weekly_budget_cents is not None]
    charged = charged_this_week(session=session, provider_ids=budgeted, now=now)
    under_cap = [
        p for p in candidates if (p.daily_cap is None or counts.get(p.id, 0) < p.daily_cap)
        and (p.id not in budgeted
             or within_weekly_budget(p, charged.get(p.id, 0), lead_price_cents(p, vertical, service, False)))
    ]
    # Never-matched providers first, then the one waiting longest; creation order breaks ties.
    under_cap.sort(key=lambda p: (p.last_matched_at is not None, as_utc(p.last_matched_at) or now,
                                  as_utc(p.created_at) or now, p.id))
    return _able_to_pay(session, under_cap, limit, lead=lead, vertical=vertical, service=service, now=now)


def provider_accounts(session: Session, provider_ids: list[str], now: datetime) -> tuple[dict[str, LedgerAccount],
                                                                                      dict[str, int]]:
    """The providers' accounts, and for those with a limit (prepaid, or credit with a limit) the
    cents of their open offers, in one query. An open offer may be accepted at any moment: counted
    as bound, it keeps a provider from being offered more leads than it can pay for, each holding a
    seat another provider could use. Offers past their time no longer count (they cannot be accepted)."""
    if not provider_ids:
        return {}, {}
    open_offers = (select(func.coalesce(func.sum(ProviderOffer.price_cents), 0))
                   .where(ProviderOffer.provider_id == LedgerAccount.owner_id,
                          ProviderOffer.status == OfferStatus.OPEN, ProviderOffer.expires_at > now)
                   .scalar_subquery())
    limited = or_(LedgerAccount.terms == Terms.PREPAID, LedgerAccount.credit_limit_cents.is_not(None))
    accounts: dict[str, LedgerAccount] = {}
    committed: dict[str, int] = {}
    for account, cents in session.execute(
            select(LedgerAccount, case((limited, open_offers), else_=0))
            .where(LedgerAccount.kind == AccountKind.PROVIDER, LedgerAccount.owner_id.in_(provider_ids))):
        accounts[account.owner_id] = account
        if cents:
            committed[account.owner_id] = int(cents)
    # Offers of this transaction not written yet (under no_autoflush) are bound as well.
    for row in session.new:
        if (isinstance(row, ProviderOffer) and row.status == OfferStatus.OPEN and row.price_cents
                and (account := accounts.get(row.provider_id)) is not None and _limited(account)):
            committed[row.provider_id] = committed.get(row.provider_id, 0) + row.price_cents
    return accounts, committed


def _limited(account: LedgerAccount) -> bool:
    return account.terms == Terms.PREPAID or account.credit_limit_cents is not None


def _able_to_pay(session: Session, providers: list[Provider], limit: int, *, lead: Lead | None, vertical: str,
                 service: str, now: datetime) -> list[Provider]:
    """The first `limit` of the providers (in pick order) that can pay the lead's shared price (a
    do-not-sell lead is free), their accounts read in one query. Each one passed over before them
    gets a "pass" step saying why and is held, so it is told; one held for funds that can pay again
    is released. A provider whose balance covers the price but whose open offers bind it is passed
    over without a hold: it is waiting on its own answers, not short of money."""
    if limit <= 0 or not providers:
        return []
    accounts, committed = provider_accounts(session, [provider.id for provider in providers], now)
    picked: list[Provider] = []
    passed: list[str] = []
    for provider in providers:
        if len(picked) == limit:
            break
        price = 0 if lead is not None and lead.do_not_sell else lead_price_cents(provider, vertical, service, False)
        account, bound = accounts.get(provider.id), committed.get(provider.id, 0)
        refusal = can_take(account, price, committed_cents=bound)
        if refusal is None:
            if account is not None and account.hold_reason == HoldReason.FUNDS:
                holds.release(session, account, now)
            picked.append(provider)
            continue
        short = can_take(account, price)
        if short is not None:
            if account is None:
                account = open_account(session, AccountKind.PROVIDER, provider.id, name=provider.name, now=now)
            holds.hold(session, account, hold_reason_for(short), now)
        else:  # short only of what its open offers bind (an overdue hold refuses either way)
            refusal = f"{refusal} (its open offers hold {dollars(bound)})"
        passed.append(f"Provider {provider.name}: {refusal}")
    if lead is not None:
        _note_passes(session, lead, passed, now)
    return picked


def _on_lead_list(session: Session, lead: Lead, candidates: list[Provider], now: datetime) -> list[Provider]:
    """The candidates the lead's consumer was shown; the others each get one "pass" step saying why."""
    partners = names_on_version(session, lead.consent.partner_list_version if lead.consent else None)
    unlisted = [provider for provider in candidates if not listed(provider.name, partners)]
    if not unlisted:
        return candidates
    reason = not_listed_reason(lead.consent.partner_list_version if lead.consent else None)
    _note_passes(session, lead, [f"Provider {provider.name}: {reason}" for provider in unlisted], now)
    skipped = {provider.id for provider in unlisted}
    return [provider for provider in candidates if provider.id not in skipped]


def _meeting_minimums(session: Session, lead: Lead, candidates: list[Provider], now: datetime) -> list[Provider]:
    """The candidates whose minimum quality score the lead meets (routing/buyer_rules.py); the
    others each get one "pass" step saying why."""
    refused = {provider.id: why for provider in candidates if (why := provider_refusal(provider, lead))}
    if not refused:
        return candidates
    _note_passes(session, lead, [f"Provider {p.name}: {refused[p.id]}" for p in candidates if p.id in refused], now)
    return [provider for provider in candidates if provider.id not in refused]


def _note_passes(session: Session, lead: Lead, details: list[str], now: datetime) -> None:
    """A "pass" step (no buyer) for each provider passed over; one already written with the same
    words (the lead offered on again) is not written twice."""
    if not details:
        return
    recorded = set(session.scalars(select(AuctionStep.detail).where(
        AuctionStep.lead_id == lead.id, AuctionStep.kind == StepKind.PASS, AuctionStep.buyer_id.is_(None))))
    at_ms = max(0, int((as_utc(now) - as_utc(lead.created_at)).total_seconds() * 1000)) if lead.created_at else 0
    for detail in details:
        if detail not in recorded:
            recorded.add(detail)
            session.add(AuctionStep(id=new_id(), lead_id=lead.id, buyer_id=None, kind=StepKind.PASS, detail=detail,
                                    at_ms=at_ms, created_at=utcnow()))
