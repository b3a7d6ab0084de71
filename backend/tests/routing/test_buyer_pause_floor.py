"""What a buyer sets in its portal takes effect in the auction: while paused it is neither pinged nor
posted to, and a bid under its bid floor is a pass with that reason."""

from __future__ import annotations

import pytest
from buyer_receivers import BuyerReceiver
from delivery_receivers import started_receivers
from sqlalchemy import select, update

from servicematch.kernel.clock import utcnow
from servicematch.routing import buyers as directory
from servicematch.routing.models import AuctionStep, Buyer, Sale, StepKind
from servicematch.routing.pings import read_bid


@pytest.fixture
def settings(settings):
    """Buyers of the buyers table only: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": "", "ping_timeout_ms": 400})


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


@pytest.fixture
def add_buyer(session_factory):
    def add(name: str, receiver: BuyerReceiver, *, price: float | None = None, **terms) -> str:
        with session_factory() as session:
            buyer = directory.add_buyer(session, directory.BuyerTerms(
                name=name, post_url=receiver.post_url, ping_url=None if price else receiver.ping_url,
                price_cents=round(price * 100) if price else None, exclusive=True, **terms), allow_private=True)
            session.commit()
            return buyer.id
    return add


def set_paused(session_factory, buyer_id: str, paused: bool) -> None:
    with session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer_id).values(paused_at=utcnow() if paused else None))
        session.commit()


def steps(session_factory, lead_id: str, buyer_id: str) -> list[AuctionStep]:
    with session_factory() as session:
        return list(session.scalars(select(AuctionStep).where(AuctionStep.lead_id == lead_id,
                                                              AuctionStep.buyer_id == buyer_id)))


def sale_of(session_factory, lead_id: str) -> Sale | None:
    with session_factory() as session:
        return session.scalars(select(Sale).where(Sale.lead_id == lead_id)).first()


def test_a_paused_buyer_is_not_pinged_or_posted_and_bids_again_once_resumed(
        make_lead, worker, buyers, add_buyer, session_factory):
    rich, modest = buyers(ping_answer={"bid": 60}), buyers(ping_answer={"bid": 20})
    rich_id = add_buyer("Rich Leads", rich)
    modest_id = add_buyer("Modest Leads", modest)
    fixed = buyers()
    fixed_id = add_buyer("Fixed Leads", fixed, price=90)
    set_paused(session_factory, rich_id, True)
    set_paused(session_factory, fixed_id, True)

    lead = make_lead()
    worker.run_until_idle()
    assert rich.pings == [] and rich.posts == [] and fixed.posts == []
    assert steps(session_factory, lead.id, rich_id) == [] and steps(session_factory, lead.id, fixed_id) == []
    assert sale_of(session_factory, lead.id).buyer_id == modest_id

    set_paused(session_factory, rich_id, False)
    again = make_lead()
    worker.run_until_idle()
    assert len(rich.pings) == 1 and fixed.posts == []
    assert sale_of(session_factory, again.id).buyer_id == rich_id


def test_paused_buyers_are_not_among_the_qualifying_ones(buyers, add_buyer, session_factory):
    receiver = buyers()
    paused_id, open_id = add_buyer("Paused", receiver), add_buyer("Open", receiver)
    set_paused(session_factory, paused_id, True)
    with session_factory() as session:
        found, _ = directory.qualifying_buyers(session, vertical="services", service="hvac", state="TX",
                                               zip_code="78701", now=utcnow())
    assert [buyer.id for buyer in found] == [open_id]


def test_a_bid_under_the_floor_is_a_pass_with_the_reason_and_the_next_bid_wins(
        make_lead, worker, buyers, add_buyer, session_factory):
    low, modest = buyers(ping_answer={"bid": 19.99}), buyers(ping_answer={"bid": 15})
    low_id = add_buyer("Floored Leads", low, bid_floor_cents=2000)
    modest_id = add_buyer("Modest Leads", modest, bid_floor_cents=1500)
    lead = make_lead()
    worker.run_until_idle()

    [ping, passed] = sorted(steps(session_factory, lead.id, low_id), key=lambda step: step.kind != StepKind.PING)
    assert (ping.kind, passed.kind, passed.amount_cents) == (StepKind.PING, StepKind.PASS, None)
    assert passed.detail == "below your bid floor of $20.00"
    assert low.posts == []
    # A bid at the floor counts.
    assert {step.kind for step in steps(session_factory, lead.id, modest_id)} >= {StepKind.BID, StepKind.ACCEPTED}
    assert sale_of(session_factory, lead.id).price_cents == 1500


@pytest.mark.parametrize(("floor", "cents", "reason"), [
    (None, 1250, None), (0, 1250, None), (1250, 1250, None), (1251, None, "below your bid floor of $12.51"),
    (150_000, None, "below your bid floor of $1,500.00"),
])
def test_read_bid_applies_the_floor_after_every_other_rule(floor, cents, reason):
    assert read_bid(200, '{"bid": 12.5}', max_cents=50_000, floor_cents=floor) == (cents, reason)
    # An unreadable answer stays unreadable, whatever the floor.
    assert read_bid(200, "nope", max_cents=50_000, floor_cents=floor) == (None, "answer is not JSON")
