"""Reading auctions back: a buyer's recent bids and passes, and one lead's auction in order."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from servicematch.delivery.models import Delivery
from servicematch.intake.models import Lead
from servicematch.routing.models import AuctionStep, Buyer, StepKind

# Steps written in one transaction share a millisecond; this keeps them in the order they happen.
STEP_ORDER = {StepKind.PING: 0, StepKind.BID: 1, StepKind.PASS: 1, StepKind.OUTCOME: 2, StepKind.POST: 3,
              StepKind.ACCEPTED: 4, StepKind.REFUSED: 4, StepKind.CLOSED: 5}
REMOVED_BUYER = "Removed buyer"


def recent_bids(session: Session, buyer_id: str, *, limit: int) -> list[tuple[AuctionStep, Lead]]:
    """The buyer's last bids and passes, newest first, each with its lead."""
    return [(step, lead) for step, lead in session.execute(
        select(AuctionStep, Lead).join(Lead, Lead.id == AuctionStep.lead_id)
        .where(AuctionStep.buyer_id == buyer_id, AuctionStep.kind.in_((StepKind.BID, StepKind.PASS)))
        .order_by(AuctionStep.created_at.desc(), AuctionStep.id.desc()).limit(limit)
    ).all()]


def waterfall(session: Session, lead_id: str) -> list[dict]:
    """Every step of the lead's auction in order: kind, ms since the lead's commit, buyer's name,
    amount in cents, exclusive, and what it says (a pass's reason, a post's answer)."""
    steps = sorted(session.scalars(select(AuctionStep).where(AuctionStep.lead_id == lead_id)).all(),
                   key=lambda s: (s.at_ms, STEP_ORDER.get(s.kind, 9), s.created_at))
    if not steps:
        return []
    names = dict(session.execute(select(Buyer.id, Buyer.name).where(
        Buyer.id.in_({s.buyer_id for s in steps if s.buyer_id} | _outcome_buyers(steps)))).all())
    # Accepted and refused steps name the post (a delivery): its last answer says why.
    posts = {d.id: d for d in session.scalars(select(Delivery).options(selectinload(Delivery.attempts)).where(
        Delivery.id.in_([s.detail for s in steps if s.kind in (StepKind.ACCEPTED, StepKind.REFUSED) and s.detail])))}
    return [{"kind": s.kind, "atMs": s.at_ms,
             "buyer": (names.get(s.buyer_id, REMOVED_BUYER) if s.buyer_id else None),
             "amountCents": s.amount_cents, "exclusive": s.exclusive,
             "detail": _detail(s, names, posts)} for s in steps]


def _outcome_buyers(steps: list[AuctionStep]) -> set[str]:
    return {buyer_id for s in steps if s.kind == StepKind.OUTCOME for buyer_id in _outcome_ids(s.detail)}


def _outcome_ids(detail: str | None) -> list[str]:
    # Written by the stage as "exclusive: id, id" or "shared: no buyer".
    _, _, ids = (detail or "").partition(": ")
    return [part.strip() for part in ids.split(",") if part.strip() and part.strip() != "no buyer"]


def _detail(step: AuctionStep, names: dict[str, str], posts: dict[str, Delivery]) -> str | None:
    if step.kind == StepKind.OUTCOME:
        mode = "exclusive" if step.exclusive else "shared"
        winners = [names.get(buyer_id, REMOVED_BUYER) for buyer_id in _outcome_ids(step.detail)]
        return f"{mode}: {', '.join(winners) or 'no buyer'}"
    if step.kind in (StepKind.ACCEPTED, StepKind.REFUSED):
        post = posts.get(step.detail or "")
        if post is None or not post.attempts:
            return None
        last = max(post.attempts, key=lambda attempt: attempt.attempted_at)
        answer = [f"HTTP {last.status_code}" if last.status_code else None, f"{last.duration_ms} ms", last.error]
        return ", ".join(part for part in answer if part)
    return step.detail
