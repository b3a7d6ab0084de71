"""Every lead's pings are in flight at once, each deadline from its own send, so the worker's own
delay is never charged to a buyer."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from types import SimpleNamespace

import pytest
from buyer_receivers import BuyerReceiver
from delivery_receivers import started_receivers

from servicematch.kernel.clock import utcnow
from servicematch.outbound.loop_sender import LoopSender
from servicematch.routing.pings import run_pings


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


def _lead():
    return SimpleNamespace(id="lead-1", consent=None, created_at=utcnow() - timedelta(seconds=1), vertical="services",
                           service="hvac", category="HVAC", state="TX", zip="78701", answers={}, do_not_sell=False,
                           is_test=False, quality_score=90, quality_reasons=[])


def _buyer(name: str, receiver: BuyerReceiver):
    return SimpleNamespace(id=name, name=name, ping_url=receiver.ping_url, secret="", exclusive=True, price_cents=None,
                           bid_floor_cents=None, previous_secret=None, previous_secret_until=None)


def test_the_pings_of_many_leads_are_all_in_flight_at_once(buyers):
    """Forty leads' pings to two buyers that each answer in 300 ms, with a 500 ms deadline, all
    handed over together from forty threads: every bid counts (no ping waits for another)."""
    first, second = buyers(ping_answer={"bid": 10}, ping_delay=0.3), buyers(ping_answer={"bid": 20}, ping_delay=0.3)
    sender = LoopSender(allow_private=True)
    try:
        with ThreadPoolExecutor(40) as auctions:
            rounds = list(auctions.map(lambda _: run_pings(
                lead=_lead(), buyers=[_buyer("First", first), _buyer("Second", second)], sender=sender,
                timeout_ms=500, max_bid_cents=100_000, since=lambda: 0,
                partners=frozenset({"First", "Second"})), range(40)))
    finally:
        sender.close()
    assert all(sorted((bid.buyer_id, bid.cents, bid.detail) for bid in bids) == [
        ("First", 1000, None), ("Second", 2000, None)] for bids in rounds)
    assert len(first.pings) == len(second.pings) == 40


def test_a_buyer_that_answers_late_is_a_pass_measured_from_its_send(buyers):
    late = buyers(ping_answer={"bid": 10}, ping_delay=0.8)
    sender = LoopSender(allow_private=True)
    try:
        [bid] = run_pings(lead=_lead(), buyers=[_buyer("Late", late)], sender=sender, timeout_ms=300,
                          max_bid_cents=100_000, since=lambda: 0, partners=frozenset({"Late"}))
    finally:
        sender.close()
    assert bid.cents is None and bid.detail == "no answer within 300 ms" and bid.pinged
