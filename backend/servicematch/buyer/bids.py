"""The auctions a buyer took part in, newest first: its bid or pass and why, and what came of it,
so a buyer can tune its bids.

A buyer's part in an auction is its one bid or pass step (routing's auction_steps, read along the
(buyer_id, created_at) index, in keyset pages as the leads list is). What came of a bid is read
from the same lead's later steps (the outcome, the posts and their answers), one query per page:

- won: its post was taken (a sale);
- refused: it was posted the lead and did not take it (a non-2xx, or no definite answer);
- posted: its post is still waiting for an answer;
- lost on price: others were posted the lead and its bid did not beat theirs; `winningPrice` is
  the price it had to beat: the lowest bid posted in the same mode, or, between an exclusive bid
  and a shared sale, the other side's price (an exclusive bid against the shared bids' sum);
- pending: the auction has not decided yet;
- not posted: the lead went to nobody or its seats were taken (a lead stopped meanwhile, say);
- passed: it passed, with the reason routing recorded ("no bid", "HTTP 503", "over its monthly budget").

Nothing here names another buyer: only prices.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Literal

from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.buyer.leads import before, decode_cursor, encode_cursor
from servicematch.intake.models import Lead
from servicematch.kernel.references import shown_reference
from servicematch.portal.ledger import iso
from servicematch.routing.models import AuctionStep, StepKind

BidResult = Literal["won", "lost on price", "passed", "refused", "posted", "pending", "not posted"]
# What a lead's later steps say about a bid on it.
LATER = (StepKind.OUTCOME, StepKind.POST, StepKind.ACCEPTED, StepKind.REFUSED, StepKind.CLOSED)


class AuctionTaken(BaseModel):
    leadReference: str
    at: str
    service: str
    state: str | None
    result: BidResult
    bid: float | None = Field(description="The buyer's bid in dollars; None for a pass")
    reason: str | None = Field(description="Why it passed")
    winningPrice: float | None = Field(description="The price the bid had to beat, when it lost on price")


class BuyerBidPage(BaseModel):
    items: list[AuctionTaken]
    nextCursor: str | None


def _dollars(cents: int | None) -> float | None:
    return None if cents is None else round(cents / 100, 2)


def _outcome(step: AuctionStep, later: list) -> tuple[str, int | None]:
    """(result, the price it had to beat) of one bid, from its lead's later steps."""
    mine = [s for s in later if s.buyer_id == step.buyer_id]
    if any(s.kind == StepKind.ACCEPTED for s in mine):
        return "won", None
    if any(s.kind == StepKind.REFUSED for s in mine):
        return "refused", None
    if any(s.kind == StepKind.POST for s in mine):
        return "posted", None
    posted = [s for s in later if s.kind == StepKind.POST and s.buyer_id != step.buyer_id]
    if not posted:
        closed = any(s.kind == StepKind.CLOSED for s in later)
        return ("not posted" if closed else "pending"), None
    same_mode = [s.amount_cents for s in posted if bool(s.exclusive) == bool(step.exclusive)]
    if same_mode:
        to_beat = min(same_mode)
    elif step.exclusive:
        # An exclusive bid loses to a shared sale worth more: what the shared bids came to together.
        outcomes = [s for s in later if s.kind == StepKind.OUTCOME and not s.exclusive]
        to_beat = outcomes[-1].amount_cents if outcomes else sum(s.amount_cents or 0 for s in posted)
    else:
        to_beat = max(s.amount_cents or 0 for s in posted)
    if to_beat is not None and (step.amount_cents or 0) <= to_beat:
        return "lost on price", to_beat
    return "not posted", None


def bid_page(db: Session, buyer_id: str, *, cursor: str | None, limit: int) -> BuyerBidPage:
    """The buyer's bids and passes, newest first; `cursor` is the last page's nextCursor."""
    query = (select(AuctionStep, Lead.reference, Lead.service, Lead.state)
             .join(Lead, Lead.id == AuctionStep.lead_id)
             .where(AuctionStep.buyer_id == buyer_id, AuctionStep.kind.in_((StepKind.BID, StepKind.PASS))))
    if (position := decode_cursor(cursor)) is not None:
        query = query.where(before(AuctionStep.created_at, AuctionStep.id, position))
    rows = db.execute(query.order_by(AuctionStep.created_at.desc(), AuctionStep.id.desc()).limit(limit + 1)).all()
    page = rows[:limit]
    later: dict[str, list] = defaultdict(list)
    bid_leads = [step.lead_id for step, *_ in page if step.kind == StepKind.BID]
    if bid_leads:
        for found in db.execute(select(AuctionStep.lead_id, AuctionStep.kind, AuctionStep.buyer_id,
                                       AuctionStep.amount_cents, AuctionStep.exclusive)
                                .where(AuctionStep.lead_id.in_(bid_leads), AuctionStep.kind.in_(LATER))
                                .order_by(AuctionStep.at_ms, AuctionStep.created_at)):
            later[found.lead_id].append(found)
    items = []
    for step, reference, service, state in page:
        if step.kind == StepKind.PASS:
            result, to_beat, reason = "passed", None, step.detail
        else:
            (result, to_beat), reason = _outcome(step, later[step.lead_id]), None
        items.append(AuctionTaken(leadReference=shown_reference(reference), at=iso(step.created_at), service=service,
                              state=state, result=result, bid=_dollars(step.amount_cents), reason=reason,
                              winningPrice=_dollars(to_beat)))
    return BuyerBidPage(items=items, nextCursor=encode_cursor(page[-1][0].created_at, page[-1][0].id)
                        if len(rows) > limit else None)
