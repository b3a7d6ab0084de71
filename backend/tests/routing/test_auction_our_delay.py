"""A lead none of whose buyers bid because this worker was too busy to ping them or read their
answers in time is auctioned again, not left unsold for a fault of ours; at most
AUCTIONS_FOR_OUR_DELAY times, and then whatever came back is decided."""

from __future__ import annotations

import pytest
from buyer_receivers import BuyerReceiver
from delivery_receivers import started_receivers
from sqlalchemy import select

from servicematch.outbound.loop_sender import WORKER_TOO_BUSY
from servicematch.routing import buyers as directory
from servicematch.routing import stage as stage_module
from servicematch.routing.models import AuctionStep, Sale, StepKind
from servicematch.routing.pings import NOT_PINGED_IN_TIME, Bid, lost_to_our_delay


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"buyer_url": "", "ping_timeout_ms": 400})


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


@pytest.fixture
def busy_rounds(monkeypatch):
    """The first `count` auctions find the worker too busy: every ping's answer unread in time."""
    real = stage_module.run_pings
    state = {"busy": 0, "auctions": 0}

    def pings(**arguments):
        state["auctions"] += 1
        if state["auctions"] <= state["busy"]:
            return [Bid(buyer.id, None, buyer.exclusive, 0, pinged=True, detail=WORKER_TOO_BUSY)
                    for buyer in arguments["buyers"]]
        return real(**arguments)

    monkeypatch.setattr(stage_module, "run_pings", pings)

    def busy_for(count: int) -> dict:
        state["busy"] = count
        return state
    return busy_for


def steps_of(session_factory, lead_id: str) -> list[AuctionStep]:
    with session_factory() as session:
        return list(session.scalars(select(AuctionStep).where(AuctionStep.lead_id == lead_id)
                                    .order_by(AuctionStep.at_ms, AuctionStep.created_at)))


def sales_of(session_factory, lead_id: str) -> list[Sale]:
    with session_factory() as session:
        return list(session.scalars(select(Sale).where(Sale.lead_id == lead_id)))


def _add(session_factory, receiver: BuyerReceiver) -> str:
    with session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(
            name="Steady Leads", post_url=receiver.post_url, ping_url=receiver.ping_url), allow_private=True)
        session.commit()
        return buyer.id


def test_pings_lost_to_our_delay_are_sent_again_and_the_lead_is_sold(
        make_lead, worker, buyers, session_factory, busy_rounds):
    receiver = buyers(ping_answer={"bid": 25})
    buyer_id = _add(session_factory, receiver)
    state = busy_rounds(2)
    lead = make_lead()
    worker.run_until_idle()
    assert state["auctions"] == 3
    [sale] = sales_of(session_factory, lead.id)
    assert (sale.buyer_id, sale.price_cents) == (buyer_id, 2500)
    # Only the auction that was decided is on record: the buyer is never shown passing for our delay.
    steps = steps_of(session_factory, lead.id)
    assert not any(step.detail == WORKER_TOO_BUSY for step in steps)
    assert [step.kind for step in steps if step.buyer_id == buyer_id][:2] == [StepKind.PING, StepKind.BID]


def test_after_the_last_auction_for_our_delay_the_outcome_is_decided(
        make_lead, worker, buyers, session_factory, busy_rounds):
    receiver = buyers(ping_answer={"bid": 25})
    buyer_id = _add(session_factory, receiver)
    state = busy_rounds(10)
    lead = make_lead()
    worker.run_until_idle()
    assert state["auctions"] == stage_module.AUCTIONS_FOR_OUR_DELAY
    assert sales_of(session_factory, lead.id) == [] and receiver.posts == []
    passes = [step for step in steps_of(session_factory, lead.id) if step.buyer_id == buyer_id
              and step.kind == StepKind.PASS]
    assert [step.detail for step in passes] == [WORKER_TOO_BUSY]


def test_what_counts_as_our_delay():
    assert lost_to_our_delay(Bid("b", None, False, 0, pinged=True, detail=WORKER_TOO_BUSY))
    assert lost_to_our_delay(Bid("b", None, False, 0, pinged=False, detail=NOT_PINGED_IN_TIME))
    assert not lost_to_our_delay(Bid("b", None, False, 0, pinged=True, detail="no answer within 400 ms"))
    assert not lost_to_our_delay(Bid("b", 2500, False, 0, pinged=True))
