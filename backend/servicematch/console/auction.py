"""A lead's auction as the lead page shows it: routing's steps (servicematch.routing.reports), each
post's answer taken from the attempt that settled it, and every later attempt of the post (an
operator's resend) as a step of its own, in time order.

A post's accepted or refused step is written once, when the post first settles; an attempt made
after that is a resend. So a post refused with a 422 and resent with a 200 reads "refused, HTTP
422", then "resend, HTTP 200": a later answer never stands under an earlier outcome.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from servicematch.delivery.models import Delivery, DeliveryAttempt
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.routing.models import AuctionStep, Buyer, StepKind
from servicematch.routing.reports import REMOVED_BUYER, STEP_ORDER

# A post's attempt made after its outcome was recorded: an operator sent it again.
RESEND = "resend"
ANSWERED = (StepKind.ACCEPTED, StepKind.REFUSED)


def _answer(attempt: DeliveryAttempt) -> str:
    parts = [f"HTTP {attempt.status_code}" if attempt.status_code else None, f"{attempt.duration_ms} ms",
             attempt.error]
    return ", ".join(part for part in parts if part)


def _outcome_ids(detail: str | None) -> list[str]:
    # Written by routing's stage as "exclusive: id, id" or "shared: no buyer".
    _, _, ids = (detail or "").partition(": ")
    return [part.strip() for part in ids.split(",") if part.strip() and part.strip() != "no buyer"]


def auction_steps(session: Session, lead: Lead) -> list[dict]:
    """Every step of the lead's auction, resends included, in order: kind, ms since the lead's
    commit, buyer's name, amount in dollars, exclusive, and what it says."""
    steps = sorted(session.scalars(select(AuctionStep).where(AuctionStep.lead_id == lead.id)).all(),
                   key=lambda s: (s.at_ms, STEP_ORDER.get(s.kind, 9), as_utc(s.created_at), s.id))
    if not steps:
        return []
    buyer_ids = {s.buyer_id for s in steps if s.buyer_id}
    buyer_ids |= {buyer_id for s in steps if s.kind == StepKind.OUTCOME for buyer_id in _outcome_ids(s.detail)}
    names = dict(session.execute(select(Buyer.id, Buyer.name).where(Buyer.id.in_(buyer_ids))).all())
    posts = {d.id: d for d in session.scalars(select(Delivery).options(selectinload(Delivery.attempts)).where(
        Delivery.id.in_([s.detail for s in steps if s.kind in ANSWERED and s.detail])))}
    committed = as_utc(lead.created_at)
    rows: list[tuple[tuple, dict]] = []
    for order, step in enumerate(steps):
        buyer = names.get(step.buyer_id, REMOVED_BUYER) if step.buyer_id else None
        row = {"kind": step.kind, "atMs": step.at_ms, "buyer": buyer,
               "amount": None if step.amount_cents is None else step.amount_cents / 100,
               "exclusive": step.exclusive, "detail": step.detail}
        rows.append(((step.at_ms, 0, order), row))
        if step.kind == StepKind.OUTCOME:
            mode = "exclusive" if step.exclusive else "shared"
            winners = [names.get(buyer_id, REMOVED_BUYER) for buyer_id in _outcome_ids(step.detail)]
            row["detail"] = f"{mode}: {', '.join(winners) or 'no buyer'}"
        elif step.kind in ANSWERED:
            post = posts.get(step.detail or "")
            attempts = sorted(post.attempts, key=lambda a: as_utc(a.attempted_at)) if post else []
            recorded = as_utc(step.created_at)
            settled = [a for a in attempts if as_utc(a.attempted_at) <= recorded]
            # The answer the outcome was recorded on; none when the post never left.
            row["detail"] = _answer(settled[-1]) if settled else None
            for attempt in attempts[len(settled):]:
                at_ms = max(step.at_ms, int((as_utc(attempt.attempted_at) - committed).total_seconds() * 1000))
                rows.append(((at_ms, 1, order), {
                    "kind": RESEND, "atMs": at_ms, "buyer": buyer, "amount": None, "exclusive": None,
                    "detail": _answer(attempt)}))
    return [row for _, row in sorted(rows, key=lambda item: item[0])]
