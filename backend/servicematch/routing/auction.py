"""The choice of recipients: the outcome that earns most, never more than three companies.

Pure functions of the bids and what happened to the posts so far, so the same rules decide the
first outcome and every fall-through after a refused post.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_COMPANIES = 3
EXCLUSIVE, SHARED = "exclusive", "shared"


@dataclass(frozen=True)
class Offer:
    buyer_id: str
    cents: int
    exclusive: bool


@dataclass(frozen=True)
class Next:
    """What to do now: post to these buyers (in `mode`), give providers seats, or close."""

    mode: str | None
    post_to: tuple[Offer, ...] = ()
    # How many providers to route now (only the first time the lead goes shared).
    provider_seats: int = 0
    close: bool = False


def ranked(offers: list[Offer]) -> list[Offer]:
    """Highest bid first; equal bids keep the order they came in."""
    return sorted(offers, key=lambda offer: -offer.cents)


def next_step(*, offers: list[Offer], mode: str | None, tried: set[str], pending: int, accepted: int,
              held: int = 0, in_doubt: bool = False, fixed_seats: int, providers_routed: int | None) -> Next:
    """The next move for a lead.

    offers: every bid (fixed prices included); tried: buyers already posted to (any answer);
    pending/accepted: buyer posts under way / taken; held: buyers that received the details in a
    post and did not buy (refused, answered late, or never answered definitely), who count
    towards the three companies like any other; in_doubt: a post was given up without a definite
    answer, so its buyer may believe it bought the lead; fixed_seats: companies that get the lead
    whatever happens (the SERVICEMATCH_BUYER_URL buyer), which also rules out an exclusive sale;
    providers_routed: how many providers got the lead, None before it first went shared.
    """
    untried = [offer for offer in ranked(offers) if offer.buyer_id not in tried]
    if mode == EXCLUSIVE and (pending or accepted or in_doubt):
        # An exclusive lead is posted to one buyer at a time, and never again once one may own it.
        return Next(mode, close=not pending)
    seats = max(0, MAX_COMPANIES - fixed_seats - held)
    if mode != SHARED and not fixed_seats and seats:
        exclusive = next((offer for offer in untried if offer.exclusive), None)
        shared_value = sum(offer.cents for offer in [o for o in untried if not o.exclusive][:seats])
        if exclusive is not None and exclusive.cents > shared_value:
            return Next(EXCLUSIVE, post_to=(exclusive,))
    # Shared: buyers by bid first (they pay), providers in the seats left, routed once, when the
    # lead first goes shared; a refused buyer keeps its seat (it saw the details), so the next
    # shared bid gets one of the seats still free.
    taken = pending + accepted + (providers_routed or 0)
    post_to = tuple([offer for offer in untried if not offer.exclusive][:max(0, seats - taken)])
    provider_seats = max(0, seats - taken - len(post_to)) if providers_routed is None else 0
    return Next(SHARED, post_to=post_to, provider_seats=provider_seats, close=not post_to and not pending)
