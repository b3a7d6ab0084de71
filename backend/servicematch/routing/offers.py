"""Offers: a lead for a provider in review mode, without the consumer's contact details, to accept
(charged to its ledger, the details shown in the portal) or decline (free). Providers with
auto-accept on, and direct providers (sent the lead in full), are charged at once: their offer is
recorded accepted as routing makes it. Only a provider that can pay is offered a lead (matching.py
passes over the others and holds them), and an accept it cannot pay is refused.

A lead's details never reach more than MAX_COMPANIES companies: buyers holding it, providers sent
it in full, and providers holding an open or accepted offer all take a seat. A declined, expired
or withdrawn offer frees its seat, and `offer_to_next` offers the lead to the next matching
provider while the lead is young enough and its consumer has not withdrawn consent.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery.models import (
    Delivery,
    DeliveryStatus,
    Provider,
    ProviderMode,
    TargetKind,
)
from servicematch.delivery.outbox import enqueue_providers, record_portal_handover
from servicematch.errors import NothingHere, ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel import wakeup
from servicematch.kernel.clock import as_utc
from servicematch.kernel.ids import new_id
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    LedgerAccount,
    LedgerEntry,
    Terms,
)
from servicematch.ledger.postings import available_cents, post
from servicematch.ledger.terms import OVERDUE_REFUSAL, can_take, dollars, open_account
from servicematch.privacy.holds import withdrawal_reason
from servicematch.privacy.models import LeadErasure, LeadRevocation
from servicematch.privacy.wiring import enqueue_acceptance_email
from servicematch.routing.auction import MAX_COMPANIES
from servicematch.routing.matching import (
    charged_this_week,
    match_providers,
    provider_accounts,
    within_weekly_budget,
    zip_city,
)
from servicematch.routing.models import Auction, OfferStatus, ProviderOffer
from servicematch.routing.offer_notice import (
    enqueue_offer_notice,
    service_name,
    skip_unsent_notices,
)
from servicematch.routing.pricing import lead_price_cents
from servicematch.settings import Settings

# A lead older than this is offered to nobody new: the consumer asked for help a day ago.
NEXT_PROVIDER_WITHIN = timedelta(hours=24)
# Kinds of lead deliveries that hand a provider the consumer's details.
PROVIDER_KINDS = (TargetKind.PROVIDER_WEBHOOK, TargetKind.PROVIDER_EMAIL, TargetKind.PROVIDER_PORTAL)
EXPIRED_BATCH = 200

NO_LONGER_OPEN = {
    OfferStatus.DECLINED: "You declined this offer.",
    OfferStatus.EXPIRED: "This offer expired: it was not accepted in time.",
    OfferStatus.WITHDRAWN: "This offer was withdrawn: the customer cancelled the request.",
}
OVER_BUDGET = "Accepting this lead would pass your weekly budget; raise the budget in your profile to accept it."
OVERDUE_ACCEPT = "Your account is paused: an invoice is past due. Pay it on the Money page to accept leads."


class OfferNotOpen(ServiceMatchError):
    """A tap on an offer that can no longer be accepted or declined. Whatever the tap found out
    (the offer expired, the consumer withdrew) is flushed; the caller commits, then answers 409."""

    status_code = 409


def consent_withdrawn(session: Session, lead_id: str) -> str | None:
    """Why a lead may go to nobody any more (its consent withdrawn, its data erased), or None."""
    return withdrawal_reason(session, lead_id)


# -- seats --------------------------------------------------------------------------------------

def providers_holding_seats(session: Session, lead_id: str) -> set[str]:
    """Providers that got the lead in full or hold an open or accepted offer for it, each once
    (a direct or auto-accepting provider has both deliveries and an accepted offer)."""
    delivered = set(session.scalars(select(Delivery.provider_id).where(
        Delivery.lead_id == lead_id, Delivery.payload_kind == "lead", Delivery.kind.in_(PROVIDER_KINDS),
        Delivery.provider_id.is_not(None))))
    offered = set(session.scalars(select(ProviderOffer.provider_id).where(
        ProviderOffer.lead_id == lead_id, ProviderOffer.status.in_(OfferStatus.HOLDING_A_SEAT))))
    return delivered | offered


def buyers_holding_seats(session: Session, lead_id: str) -> int:
    """Buyers that have the lead or are being posted it (the fixed buyer unless it was skipped)."""
    rows = session.execute(select(Delivery.kind, Delivery.status).where(
        Delivery.lead_id == lead_id, Delivery.payload_kind == "lead",
        Delivery.kind.in_((TargetKind.BUYER, TargetKind.BUYER_POST)))).all()
    return sum(1 for kind, status in rows
               if (kind == TargetKind.BUYER and status != DeliveryStatus.SKIPPED)
               or (kind == TargetKind.BUYER_POST and status in (DeliveryStatus.PENDING, DeliveryStatus.DELIVERED)))


# -- routing a lead to providers -----------------------------------------------------------------

def route_matched(*, session: Session, lead: Lead, providers: list[Provider], settings: Settings, now: datetime,
                  exclusive_allowed: bool) -> None:
    """The lead's first providers: an exclusive offer to the first alone when no buyer holds the
    lead and it opted in (and its budget and its money allow the exclusive price), else each in turn
    (matching found each able to pay the shared price)."""
    first = providers[0] if providers else None
    if exclusive_allowed and first is not None and first.mode == ProviderMode.REVIEW and first.exclusive_leads:
        price = lead_price_cents(first, lead.vertical, lead.service, True)
        charged = charged_this_week(session=session, provider_ids=[first.id], now=now).get(first.id, 0)
        if within_weekly_budget(first, charged, price) and _can_pay_exclusive(session, lead, first, price, now):
            route_providers(session=session, lead=lead, providers=[first], settings=settings, now=now,
                            exclusive=True)
            return
    route_providers(session=session, lead=lead, providers=providers, settings=settings, now=now)


def route_providers(*, session: Session, lead: Lead, providers: list[Provider], settings: Settings,
                    now: datetime, exclusive: bool = False) -> None:
    """Direct providers get the lead in full and are charged for it at once; providers in review
    mode get an offer (accepted at once with auto-accept on). Each is stamped for round robin in
    pick order."""
    direct = [p for p in providers if p.mode != ProviderMode.REVIEW]
    enqueue_providers(session=session, lead=lead, providers=direct, settings=settings, now=now)
    if direct and chargeable(session, lead):
        _charge_direct(session, lead, direct, settings, now)
    for provider in providers:
        if provider.mode == ProviderMode.REVIEW:
            _make_offer(session, lead, provider, settings, now, exclusive=exclusive)
    for position, provider in enumerate(providers):
        provider.last_matched_at = now + timedelta(microseconds=position)


def _can_pay_exclusive(session: Session, lead: Lead, provider: Provider, price_cents: int, now: datetime) -> bool:
    """Whether the provider can pay the exclusive price (its open offers bound, as matching binds
    them). Not a reason to hold it: it can pay the shared price, and is offered the lead at that."""
    accounts, committed = provider_accounts(session, [provider.id], now)
    return can_take(accounts.get(provider.id), 0 if lead.do_not_sell else price_cents,
                    committed_cents=committed.get(provider.id, 0)) is None


def chargeable(session: Session, lead: Lead) -> bool:
    """Whether a direct provider sent this lead pays for it. Never for a duplicate, nor for a lead
    whose consent was withdrawn (routing sends neither, but a charge must not rest on that), nor
    for a do-not-sell lead: it still goes to the providers the consumer asked for, but taking
    money for the consumer's details would be selling them."""
    return not (lead.is_duplicate or lead.do_not_sell or consent_withdrawn(session, lead.id))


def _new_offer(session: Session, lead: Lead, provider: Provider, settings: Settings, now: datetime, *,
               exclusive: bool) -> ProviderOffer:
    # A do-not-sell lead is offered free: it goes to the providers the consumer asked for, but
    # taking money for the consumer's details would be selling them.
    price = 0 if lead.do_not_sell else lead_price_cents(provider, lead.vertical, lead.service, exclusive)
    offer = ProviderOffer(id=new_id(), lead_id=lead.id, provider_id=provider.id, status=OfferStatus.OPEN,
                          exclusive=exclusive, created_at=now, price_cents=price,
                          expires_at=now + timedelta(minutes=settings.offer_ttl_minutes))
    session.add(offer)
    wakeup.offers.after_commit(session)  # an open portal shows it at once
    return offer


def _charge_direct(session: Session, lead: Lead, providers: list[Provider], settings: Settings,
                   now: datetime) -> None:
    """Direct providers' charges, recorded as auto-accept records them: an offer accepted at once
    and its ledger charge. No provider_portal row: the lead went by their own channels, and those
    deliveries are the record of who got the details."""
    offers = [_new_offer(session, lead, provider, settings, now, exclusive=False) for provider in providers]
    for offer, provider in zip(offers, providers, strict=True):
        _accept(session, offer, lead, provider, settings, now, auto=True, handover=False)


def _make_offer(session: Session, lead: Lead, provider: Provider, settings: Settings, now: datetime, *,
                exclusive: bool) -> ProviderOffer:
    offer = _new_offer(session, lead, provider, settings, now, exclusive=exclusive)
    if provider.auto_accept:
        _accept(session, offer, lead, provider, settings, now, auto=True)
        # The lead in full by the provider's usual channels, as a direct provider gets it.
        enqueue_providers(session=session, lead=lead, providers=[provider], settings=settings, now=now)
    else:
        enqueue_offer_notice(session=session, lead=lead, provider=provider, settings=settings, now=now)
    return offer


def charge_description(settings: Settings, lead: Lead) -> str:
    """"Roofing lead, Austin TX 78701": the statement line, without anything personal."""
    place = " ".join(part for part in (zip_city(lead.zip), lead.state or "", lead.zip or "") if part)
    return f"{service_name(settings, lead)} lead" + (f", {place}" if place else "")


def _accept(session: Session, offer: ProviderOffer, lead: Lead, provider: Provider, settings: Settings,
            now: datetime, *, auto: bool, handover: bool = True) -> None:
    """Accepted, charged to the provider's account (made on first need) and, unless the lead went by
    the provider's own channels, handed over in the portal, in the caller's transaction."""
    offer.status, offer.decided_at, offer.auto_accepted = OfferStatus.ACCEPTED, now, auto
    wakeup.offers.after_commit(session)
    if offer.price_cents:  # a free offer (a do-not-sell lead) leaves nothing in the ledger
        account = open_account(session, AccountKind.PROVIDER, provider.id, name=provider.name, now=now)
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-offer.price_cents, cause=Cause.OFFER,
             cause_id=offer.id, lead_id=lead.id, description=charge_description(settings, lead),
             vertical=lead.vertical, service=lead.service, state=lead.state, now=now)
    if handover:
        record_portal_handover(session=session, lead=lead, provider=provider, now=now)


# -- the provider's taps -------------------------------------------------------------------------

def own_offer(session: Session, *, offer_id: str, provider_id: str, lock: bool = False) -> ProviderOffer:
    """The provider's own offer; another provider's (or none) raises NothingHere (404, no body)."""
    query = select(ProviderOffer).where(ProviderOffer.id == offer_id, ProviderOffer.provider_id == provider_id)
    if lock:
        query = query.execution_options(populate_existing=True)
        if session.get_bind().dialect.name == "postgresql":
            # Two taps at once wait for each other: the second sees the first's answer.
            query = query.with_for_update()
    offer = session.scalars(query).first()
    if offer is None:
        raise NothingHere()
    return offer


def _still_open(session: Session, offer: ProviderOffer, settings: Settings, now: datetime) -> None:
    """Raise OfferNotOpen unless the offer may be decided now; an offer found past its time or
    whose consumer withdrew is closed here (and the lead offered on, for an expired one)."""
    if offer.status == OfferStatus.OPEN and consent_withdrawn(session, offer.lead_id):
        withdraw_offers(session, [offer.lead_id], now)
    elif offer.status == OfferStatus.OPEN and as_utc(offer.expires_at) <= now:
        _close(session, [offer], OfferStatus.EXPIRED, now)
        offer_to_next(session=session, lead_id=offer.lead_id, settings=settings, now=now)
    if offer.status != OfferStatus.OPEN:
        session.flush()
        raise OfferNotOpen(NO_LONGER_OPEN.get(offer.status, "This offer is no longer open."))


def accept_by_provider(session: Session, *, offer_id: str, provider: Provider, settings: Settings,
                       now: datetime) -> bool:
    """The provider's tap: charged once, however often it taps; False for a repeat."""
    offer = own_offer(session, offer_id=offer_id, provider_id=provider.id, lock=True)
    if offer.status == OfferStatus.ACCEPTED:
        return False
    _still_open(session, offer, settings, now)
    charged = charged_this_week(session=session, provider_ids=[provider.id], now=now).get(provider.id, 0)
    if not within_weekly_budget(provider, charged, offer.price_cents):
        raise OfferNotOpen(OVER_BUDGET)
    if refusal := _cannot_pay(session, provider, offer.price_cents):
        raise OfferNotOpen(refusal)
    lead = session.get(Lead, offer.lead_id)
    _accept(session, offer, lead, provider, settings, now, auto=False)
    skip_unsent_notices(session=session, offers=[offer], reason="the offer was accepted first", now=now)
    enqueue_acceptance_email(session=session, lead=lead, provider_id=provider.id)
    return True


def _cannot_pay(session: Session, provider: Provider, price_cents: int) -> str | None:
    """Why the provider cannot pay for an offer at `price_cents` now, in its own words, or None.

    Its other open offers do not count against it here: matching bound them so that, as long as its
    balance stands, each can be accepted; if it fell meanwhile (a refund, a reversal), the provider
    chooses which of them to pay for. On PostgreSQL the account's row is locked to the commit, so
    two accepts at once never both spend the same dollars."""
    query = select(LedgerAccount).where(LedgerAccount.kind == AccountKind.PROVIDER,
                                        LedgerAccount.owner_id == provider.id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update().execution_options(populate_existing=True)
    account = session.scalars(query).first()
    refusal = can_take(account, price_cents)
    if refusal is None:
        return None
    if refusal == OVERDUE_REFUSAL:
        return OVERDUE_ACCEPT
    if account is not None and account.terms == Terms.CREDIT:
        left = dollars(max(0, available_cents(account) or 0))
        return (f"Your credit left, {left}, does not cover this lead's {dollars(price_cents)}: add funds or pay "
                "your open invoice on the Money page.")
    balance = dollars(account.balance_cents if account is not None else 0)
    return f"Your balance of {balance} does not cover this lead's {dollars(price_cents)}: add funds on the Money page."


def decline_by_provider(session: Session, *, offer_id: str, provider: Provider, settings: Settings,
                        now: datetime) -> bool:
    """Free; the seat goes to the next matching provider."""
    offer = own_offer(session, offer_id=offer_id, provider_id=provider.id, lock=True)
    _still_open(session, offer, settings, now)
    _close(session, [offer], OfferStatus.DECLINED, now)
    offer_to_next(session=session, lead_id=offer.lead_id, settings=settings, now=now)
    return True


def _close(session: Session, offers: list[ProviderOffer], status: str, now: datetime) -> None:
    for offer in offers:
        offer.status, offer.decided_at = status, now
    if offers:
        wakeup.offers.after_commit(session)
    skip_unsent_notices(session=session, offers=offers, reason=f"the offer was {status} first", now=now)


# -- the next provider ---------------------------------------------------------------------------

def offer_to_next(*, session: Session, lead_id: str, settings: Settings, now: datetime) -> list[Provider]:
    """After an offer was declined or expired: the lead to the next matching providers not yet
    offered it, as many as seats are free, while the lead is under a day old and its consumer has
    not withdrawn consent. Never beside an exclusive offer still open or accepted."""
    lead = session.get(Lead, lead_id)
    if lead is None or lead.is_duplicate or now - as_utc(lead.created_at) >= NEXT_PROVIDER_WITHIN:
        return []
    if consent_withdrawn(session, lead_id):
        return []
    query = select(Auction).where(Auction.lead_id == lead_id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()  # one decision per lead at a time, as when settling a post
    auction = session.scalars(query).first()
    if auction is None or not auction.providers_routed:
        return []  # routing has not reached the providers yet; it will count the freed seat then
    offers = list(session.scalars(select(ProviderOffer).where(ProviderOffer.lead_id == lead_id)))
    if any(o.exclusive and o.status in OfferStatus.HOLDING_A_SEAT for o in offers):
        return []
    holding = providers_holding_seats(session, lead_id)
    free = MAX_COMPANIES - buyers_holding_seats(session, lead_id) - len(holding)
    if free <= 0:
        return []
    tried = holding | {offer.provider_id for offer in offers}
    providers = match_providers(session=session, vertical=lead.vertical, service=lead.service, state=lead.state,
                                zip_code=lead.zip, now=now, limit=free, exclude=tried, lead=lead)
    route_providers(session=session, lead=lead, providers=providers, settings=settings, now=now)
    return providers


# -- withdrawal and expiry -----------------------------------------------------------------------

def withdraw_offers(session: Session, lead_ids: list[str], now: datetime) -> int:
    """The consumer stopped or erased the request: its open offers can no longer be accepted.
    Registered with privacy's withdrawal hook by the composition roots; runs in its transaction."""
    if not lead_ids:
        return 0
    offers = list(session.scalars(select(ProviderOffer).where(
        ProviderOffer.lead_id.in_(lead_ids), ProviderOffer.status == OfferStatus.OPEN)))
    _close(session, offers, OfferStatus.WITHDRAWN, now)
    return len(offers)


def forget_places(session: Session, lead_ids: list[str], now: datetime) -> int:
    """The consumer's data was erased: the ledger's charges for the lead (providers' and buyers')
    keep the service and the state (for the books and the revenue reports) but no longer name the
    city or the ZIP code. The one change an entry ever takes: its amount, account and cause stay as
    they are. Registered with privacy's erasure hook by the composition roots; runs in its transaction."""
    if not lead_ids:
        return 0
    entries = list(session.scalars(select(LedgerEntry).where(LedgerEntry.lead_id.in_(lead_ids),
                                                             LedgerEntry.kind == EntryKind.CHARGE)))
    for entry in entries:
        what = entry.description.split(", ", 1)[0]
        entry.description = f"{what}, {entry.state}" if entry.state else what
    return len(entries)


def close_lapsed_offers(*, session_factory: sessionmaker[Session], settings: Settings, now: datetime) -> int:
    """The offers chore: open offers past their time expire (and their leads go to the next
    provider); open offers of a withdrawn lead the hook missed are withdrawn. How many closed."""
    with session_factory() as session:
        lapsed = (select(ProviderOffer).where(ProviderOffer.status == OfferStatus.OPEN,
                                              ProviderOffer.expires_at <= now)
                  .order_by(ProviderOffer.expires_at).limit(EXPIRED_BATCH))
        if session.get_bind().dialect.name == "postgresql":
            lapsed = lapsed.with_for_update(skip_locked=True)  # a tap under way keeps its offer
        expired = list(session.scalars(lapsed))
        _close(session, expired, OfferStatus.EXPIRED, now)
        withdrawn_leads = list(session.scalars(select(ProviderOffer.lead_id).where(
            ProviderOffer.status == OfferStatus.OPEN,
            exists().where(LeadRevocation.lead_id == ProviderOffer.lead_id)
            | exists().where(LeadErasure.lead_id == ProviderOffer.lead_id)).limit(EXPIRED_BATCH)))
        withdrawn = withdraw_offers(session, sorted(set(withdrawn_leads)), now)
        session.flush()
        for lead_id in sorted({offer.lead_id for offer in expired}):
            offer_to_next(session=session, lead_id=lead_id, settings=settings, now=now)
        session.commit()
    return len(expired) + withdrawn

