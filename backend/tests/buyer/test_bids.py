"""The auctions a buyer took part in: its bid or pass and why, won or lost and the price it had to
beat, newest first in pages; its own bids only. Auctions are run the real way (intake, routing's
auction, posts to a local receiver), fixed-price buyers bidding their price."""

from __future__ import annotations

from datetime import timedelta

import pytest
from delivery_receivers import HttpReceiver
from sqlalchemy import insert

from buyer.sales_support import clock, make_lead, post_receiver, worker  # noqa: F401
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.references import shown_reference
from servicematch.routing.models import AuctionStep, StepKind


@pytest.fixture
def auction(make_lead, worker):  # noqa: F811 (the fixtures imported above)
    """auction(**lead) -> the lead, once its auction is over and its posts answered."""

    def run(**lead):
        stored = make_lead(**lead)
        worker.run_until_idle()
        return stored

    return run


@pytest.fixture
def bidder(make_buyer, post_receiver):  # noqa: F811 (the fixtures imported above)
    """bidder(dollars, exclusive=False, **terms) -> a fixed-price buyer posting to the local receiver."""

    def add(dollars: float, exclusive: bool = False, **terms) -> str:
        terms.setdefault("post_url", post_receiver.url)
        return make_buyer(price_cents=round(dollars * 100), exclusive=exclusive, **terms)

    return add


def bids_of(http, **params) -> list[dict]:
    answer = http.get("/api/buyer/v1/bids", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


def test_the_winner_won_and_the_loser_sees_the_price_it_had_to_beat(bidder, auction, key_client, buyer_browser):
    winner, loser = bidder(40, exclusive=True), bidder(30, exclusive=True)
    shared = bidder(10)
    lead = auction()

    [won] = bids_of(key_client(winner))
    assert won == {"leadReference": shown_reference(lead.reference), "at": won["at"], "service": "hvac",
                   "state": "TX", "result": "won", "bid": 40.0, "reason": None, "winningPrice": None}
    [lost] = bids_of(key_client(loser))
    assert (lost["result"], lost["bid"], lost["winningPrice"]) == ("lost on price", 30.0, 40.0)
    # A shared bid loses to an exclusive sale worth more than every shared seat together.
    [lost_shared] = buyer_browser(shared).get("/api/buyer/bids").json()["items"]
    assert (lost_shared["result"], lost_shared["bid"], lost_shared["winningPrice"]) == ("lost on price", 10.0, 40.0)


def test_an_exclusive_bid_loses_to_shared_bids_worth_more_together(bidder, auction, key_client):
    alone = bidder(15, exclusive=True)
    first, second = bidder(10), bidder(9)
    auction()
    [lost] = bids_of(key_client(alone))
    assert (lost["result"], lost["winningPrice"]) == ("lost on price", 19.0)
    assert [bids_of(key_client(b))[0]["result"] for b in (first, second)] == ["won", "won"]


def test_a_pass_says_why_and_a_refused_post_is_no_win(make_buyer, bidder, auction, key_client):
    refusing = HttpReceiver(mode="reject").start()
    try:
        refuser = bidder(50, exclusive=True, post_url=refusing.url)
        taker = bidder(20, exclusive=True)
        broke = bidder(45, monthly_budget_cents=100)
        auction()
    finally:
        refusing.stop()
    [passed] = bids_of(key_client(broke))
    assert (passed["result"], passed["bid"], passed["reason"], passed["winningPrice"]) == (
        "passed", None, "over its monthly budget", None)
    assert [(b["result"], b["bid"]) for b in bids_of(key_client(refuser))] == [("refused", 50.0)]
    assert [b["result"] for b in bids_of(key_client(taker))] == ["won"]


def test_bids_come_newest_first_in_pages_and_only_the_buyers_own(bidder, auction, key_client):
    mine, theirs = bidder(40, exclusive=True), bidder(30, exclusive=True, services=["roofing"])
    leads = [auction() for _ in range(3)]
    roofing = auction(service="roofing")
    key = key_client(mine)

    first = key.get("/api/buyer/v1/bids", params={"limit": 2}).json()
    rest = key.get("/api/buyer/v1/bids", params={"limit": 2, "cursor": first["nextCursor"]}).json()
    assert rest["nextCursor"] is None
    seen = [b["leadReference"] for b in first["items"] + rest["items"]]
    # Newest first (the roofing lead sold to `mine` too: it buys every service).
    assert seen == [shown_reference(lead.reference) for lead in (roofing, *reversed(leads))]
    [theirs_only] = bids_of(key_client(theirs))
    assert theirs_only["leadReference"] == shown_reference(roofing.reference)
    assert key.get("/api/buyer/v1/bids", params={"cursor": "bm9wZQ"}).status_code == 422


def test_an_auction_still_deciding_is_pending_and_one_closed_without_this_buyer_is_not_posted(
        app, make_buyer, key_client):
    from buyer.sales_support import sell

    buyer = make_buyer()
    waiting, closed = sell(app, make_buyer()), sell(app, make_buyer())
    now = utcnow()
    rows = [{"id": new_id(), "lead_id": waiting.lead_id, "buyer_id": buyer, "kind": StepKind.BID, "amount_cents": 1200,
             "exclusive": False, "detail": "fixed price", "at_ms": 5, "created_at": now - timedelta(seconds=2)},
            {"id": new_id(), "lead_id": closed.lead_id, "buyer_id": buyer, "kind": StepKind.BID, "amount_cents": 1200,
             "exclusive": False, "detail": "fixed price", "at_ms": 5, "created_at": now - timedelta(seconds=1)},
            {"id": new_id(), "lead_id": closed.lead_id, "buyer_id": None, "kind": StepKind.CLOSED,
             "amount_cents": None, "exclusive": None, "detail": "the consumer withdrew consent", "at_ms": 9,
             "created_at": now}]
    with app.state.session_factory() as session:
        session.execute(insert(AuctionStep.__table__), rows)
        session.commit()
    assert [b["result"] for b in bids_of(key_client(buyer))] == ["not posted", "pending"]


def test_the_bids_need_a_session_or_a_key(client):
    assert client.get("/api/buyer/bids").status_code == 401
    assert client.get("/api/buyer/v1/bids", headers={"Authorization": "Bearer nope"}).status_code == 401
