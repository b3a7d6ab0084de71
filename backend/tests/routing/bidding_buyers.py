"""Bidding buyers for the tests of real auctions with the quality gate and the buyers' own rules: the
settings without the fixed buyer, local buyer receivers (started and stopped per test), and a
buyer added with a ping URL and any columns set (its rules, its minimum score), and what an auction
recorded: its steps and its sales, by the app (steps_of, sales_of) or by a session factory
(steps_in, sales_in) for the routing tests that keep one.

    from bidding_buyers import add_buyer, buyers, settings  # noqa: F401 (fixtures)
"""

from __future__ import annotations

import pytest
from buyer_receivers import BuyerReceiver
from delivery_receivers import started_receivers
from sqlalchemy import select

from servicematch.routing import buyers as directory
from servicematch.routing.models import AuctionStep, Sale


@pytest.fixture
def settings(settings):
    """Only the buyers of the buyers table: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": "", "ping_timeout_ms": 2000})


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


def add_buyer(app, name: str, receiver: BuyerReceiver, **columns) -> str:
    """A buyer pinged and posted at `receiver`, with `columns` set as stored (min_quality=60, ...)."""
    with app.state.session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(
            name=name, post_url=receiver.post_url, ping_url=receiver.ping_url), allow_private=True)
        for column, value in columns.items():
            setattr(buyer, column, value)
        session.commit()
        return buyer.id


def steps_in(session_factory, lead_id: str, buyer_id: str | None = None) -> list[AuctionStep]:
    """The lead's auction steps in the order they were taken (only `buyer_id`'s, when given)."""
    with session_factory() as session:
        query = select(AuctionStep).where(AuctionStep.lead_id == lead_id).order_by(AuctionStep.at_ms,
                                                                                  AuctionStep.created_at)
        if buyer_id:
            query = query.where(AuctionStep.buyer_id == buyer_id)
        return list(session.scalars(query))


def sales_in(session_factory, lead_id: str) -> list[Sale]:
    with session_factory() as session:
        return list(session.scalars(select(Sale).where(Sale.lead_id == lead_id)))


def steps_of(app, lead_id: str) -> list[AuctionStep]:
    return steps_in(app.state.session_factory, lead_id)


def sales_of(app, lead_id: str) -> list[Sale]:
    return sales_in(app.state.session_factory, lead_id)
