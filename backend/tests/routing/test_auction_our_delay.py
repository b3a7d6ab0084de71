"""A lead none of whose buyers bid because this worker was too busy to ping them or read their
answers in time has its buyers pinged again, not left unsold for a fault of ours; at most
PING_ROUNDS_FOR_OUR_DELAY rounds, and then whatever came back is decided."""

from __future__ import annotations

import bidding_buyers
import pytest

from servicematch.outbound.loop_sender import WORKER_TOO_BUSY
from servicematch.routing import stage as stage_module
from servicematch.routing.models import StepKind
from servicematch.routing.pings import NOT_PINGED_IN_TIME, Bid, lost_to_our_delay

# Fixtures (settings without the fixed buyer, local buyer receivers) and helpers.
settings, buyers, add_buyer = bidding_buyers.settings, bidding_buyers.buyers, bidding_buyers.add_buyer
steps_of, sales_of = bidding_buyers.steps_of, bidding_buyers.sales_of


@pytest.fixture
def busy_auctions(monkeypatch):
    """busy_auctions(n): the first n rounds of pings find the worker too busy, every ping's answer
    unread in time; returns the count of rounds run."""
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


def test_pings_lost_to_our_delay_are_sent_again_and_the_lead_is_sold(app, make_lead, worker, buyers, busy_auctions):
    receiver = buyers(ping_answer={"bid": 25})
    buyer_id = add_buyer(app, "Steady Leads", receiver)
    state = busy_auctions(2)
    lead = make_lead()
    worker.run_until_idle()
    assert state["auctions"] == 3
    [sale] = sales_of(app, lead.id)
    assert (sale.buyer_id, sale.price_cents) == (buyer_id, 2500)
    # Only the round that was decided is on record: the buyer is never shown passing for our delay.
    steps = steps_of(app, lead.id)
    assert not any(step.detail == WORKER_TOO_BUSY for step in steps)
    assert [step.kind for step in steps if step.buyer_id == buyer_id][:2] == [StepKind.PING, StepKind.BID]


def test_after_the_last_auction_for_our_delay_the_outcome_is_decided(app, make_lead, worker, buyers, busy_auctions):
    receiver = buyers(ping_answer={"bid": 25})
    buyer_id = add_buyer(app, "Steady Leads", receiver)
    state = busy_auctions(10)
    lead = make_lead()
    worker.run_until_idle()
    assert state["auctions"] == stage_module.PING_ROUNDS_FOR_OUR_DELAY
    assert sales_of(app, lead.id) == [] and receiver.posts == []
    passes = [step for step in steps_of(app, lead.id) if step.buyer_id == buyer_id and step.kind == StepKind.PASS]
    assert [step.detail for step in passes] == [WORKER_TOO_BUSY]


def test_what_counts_as_our_delay():
    assert lost_to_our_delay(Bid("b", None, False, 0, pinged=True, detail=WORKER_TOO_BUSY))
    assert lost_to_our_delay(Bid("b", None, False, 0, pinged=False, detail=NOT_PINGED_IN_TIME))
    assert not lost_to_our_delay(Bid("b", None, False, 0, pinged=True, detail="no answer within 400 ms"))
    assert not lost_to_our_delay(Bid("b", 2500, False, 0, pinged=True))
