"""The auction at its edges: a post whose answer is unknown is settled with the same buyer before
anyone else gets the lead (a worker killed mid-post included), and the consumer's details reach
at most three companies whatever the buyers answer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from bidding_buyers import sales_in
from buyer_receivers import BuyerReceiver
from delivery_receivers import started_receivers
from delivery_support import FakeClock, attempts_of
from sqlalchemy import select

from servicematch.delivery.models import Delivery, DeliveryStatus, utcnow
from servicematch.privacy.messages import recipients_of
from servicematch.routing import buyers as directory
from servicematch.routing.models import Auction
from servicematch.settings import PROJECT_ROOT
from servicematch.workers import make_worker


@pytest.fixture
def settings(settings):
    """Buyers of the buyers table only: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": "", "ping_timeout_ms": 1000})


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


@pytest.fixture
def add_buyer(session_factory):
    def add(name: str, receiver: BuyerReceiver, **terms) -> str:
        with session_factory() as session:
            buyer = directory.add_buyer(session, directory.BuyerTerms(
                name=name, post_url=receiver.post_url, ping_url=receiver.ping_url, **terms), allow_private=True)
            session.commit()
            return buyer.id
    return add


def lead_posts(receiver: BuyerReceiver) -> list:
    """The posts of the lead itself, not the notices that follow (those carry a "type")."""
    return [post for post in receiver.posts if "type" not in post.json]


def notices(receiver: BuyerReceiver) -> list[str]:
    return [post.json["type"] for post in receiver.posts if "type" in post.json]


def posts_of(session_factory, lead_id: str) -> list[Delivery]:
    with session_factory() as session:
        return list(session.scalars(select(Delivery).where(
            Delivery.lead_id == lead_id, Delivery.kind == "buyer_post", Delivery.payload_kind == "lead")))


def run_for(worker, clock, seconds: int, step: int = 31) -> None:
    """Let the worker run through `seconds` of test time, a step at a time."""
    for _ in range(seconds // step + 1):
        clock.advance(seconds=step)
        worker.run_until_idle()


def test_a_post_answered_503_is_asked_again_of_the_same_buyer_and_nobody_else_gets_the_lead(
        make_lead, worker, clock, buyers, add_buyer, session_factory):
    first = buyers(ping_answer={"bid": 50}, post_script=[503, 503])
    runner_up = buyers(ping_answer={"bid": 40})
    first_id = add_buyer("First", first, exclusive=True)
    add_buyer("Runner-up", runner_up, exclusive=True)
    lead = make_lead()
    worker.run_until_idle()
    # In doubt after a 503: the lead waits for the same buyer.
    assert len(lead_posts(first)) == 1 and runner_up.posts == []
    [post] = posts_of(session_factory, lead.id)
    assert post.status == DeliveryStatus.PENDING

    run_for(worker, clock, 60)
    sent = lead_posts(first)
    assert [p.answered for p in sent] == [503, 503, 200]
    # One message sent three times: one webhook-id, one Idempotency-Key.
    assert len({p.headers["webhook-id"] for p in sent}) == 1
    assert len({p.headers["Idempotency-Key"] for p in sent}) == 1
    assert runner_up.pings and runner_up.posts == []
    [sale] = sales_in(session_factory, lead.id)
    assert (sale.buyer_id, sale.exclusive) == (first_id, True)


def test_a_post_never_answered_definitely_is_given_up_and_the_exclusive_lead_goes_to_nobody_else(
        make_lead, worker, clock, settings, buyers, add_buyer, session_factory):
    first = buyers(ping_answer={"bid": 50}, post_status=503)
    runner_up = buyers(ping_answer={"bid": 40})
    add_buyer("First", first, exclusive=True)
    add_buyer("Runner-up", runner_up, exclusive=True)
    lead = make_lead()
    worker.run_until_idle()
    run_for(worker, clock, settings.post_settle_seconds + 60)

    [post] = posts_of(session_factory, lead.id)
    assert post.status == DeliveryStatus.FAILED and post.last_error.startswith("in doubt")
    assert len(lead_posts(first)) > 2
    # It may believe it bought the lead: nobody else is posted it, and it is told to discard it.
    assert runner_up.posts == [] and sales_in(session_factory, lead.id) == []
    assert notices(first)[:1] == ["lead.discard"]
    with session_factory() as session:
        assert session.get(Auction, lead.id).closed_at is not None


@pytest.mark.parametrize("exclusive", [True, False], ids=["exclusive", "shared"])
def test_the_details_reach_at_most_three_companies_whatever_they_answer(
        exclusive, make_lead, worker, buyers, add_buyer, add_provider, session_factory):
    """Five bidders, the top four refusing the post: three hold the details, the others get nothing."""
    receivers = [buyers(ping_answer={"bid": bid}, post_status=400 if bid > 10 else 200)
                 for bid in (50, 40, 30, 20, 10)]
    for number, receiver in enumerate(receivers):
        add_buyer(f"Buyer {number + 1}", receiver, exclusive=exclusive)
    add_provider("Pro Plumbing", webhook_url=None)
    lead = make_lead()
    worker.run_until_idle()

    assert [len(lead_posts(receiver)) for receiver in receivers] == [1, 1, 1, 0, 0]
    assert [notices(receiver) for receiver in receivers[:3]] == [["lead.discard"]] * 3
    assert sales_in(session_factory, lead.id) == []
    with session_factory() as session:
        held = session.scalars(select(Delivery.target_key).where(
            Delivery.lead_id == lead.id, Delivery.payload_kind == "lead")).all()
        assert len(held) == 3  # no provider got it either: every seat went to a buyer that saw it
        # The consumer is told of all three, each with what it did.
        companies = recipients_of(session=session, lead_ids=[lead.id])[lead.id].companies
    assert sorted(company.name for company in companies) == ["Buyer 1", "Buyer 2", "Buyer 3"]
    assert all(company.told_to_discard for company in companies)


def _worker_process(settings, database_url: str) -> subprocess.Popen:
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_DATA_KEY": settings.data_key, "SERVICEMATCH_BUYER_URL": "",
           "SERVICEMATCH_SMTP_HOST": "", "SERVICEMATCH_DELIVERY_LEASE_SECONDS": str(settings.delivery_lease_seconds),
           "SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS": str(settings.delivery_timeout_seconds)}
    return subprocess.Popen([sys.executable, "-m", "servicematch.cli", "worker"], cwd=PROJECT_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.parametrize("resend_answer", [503, 200])
def test_a_worker_killed_after_the_buyer_took_the_post_never_sells_the_exclusive_lead_twice(
        resend_answer, make_lead, settings, buyers, add_buyer, session_factory, database_url):
    """As it was found: the buyer takes the post (its 200 is on its way) and the worker is killed
    (-9) before it records the answer; the re-send, same webhook-id, gets `resend_answer`; the
    next bidder never gets the lead."""
    first = buyers(ping_answer={"bid": 50}, post_script=[200], post_status=resend_answer)
    runner_up = buyers(ping_answer={"bid": 40})
    first_id = add_buyer("First", first, exclusive=True)
    add_buyer("Runner-up", runner_up, exclusive=True)
    lead = make_lead()  # routed here: the outcome is committed and the post waits for a worker

    process = _worker_process(settings, database_url)
    killed = []

    def kill_the_worker() -> None:
        if not killed:
            killed.append(True)
            os.kill(process.pid, signal.SIGKILL)

    first.on_post = kill_the_worker
    try:
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        process.kill()
        process.wait()
    assert killed, "the worker never posted the lead"
    [post] = posts_of(session_factory, lead.id)
    # The buyer has the lead; our record of its answer died with the worker.
    assert post.status == DeliveryStatus.PENDING
    assert [a.outcome for a in attempts_of(session_factory, post.id)] == ["sending"]

    clock = FakeClock(utcnow() + timedelta(seconds=settings.delivery_lease_seconds + 1))
    survivor = make_worker(session_factory=session_factory, settings=settings, clock=clock)
    try:
        survivor.run_until_idle()
        run_for(survivor, clock, settings.post_settle_seconds + 60)
    finally:
        survivor.close()

    sent = lead_posts(first)
    assert len({p.headers["webhook-id"] for p in sent}) == 1 and len(sent) >= 2
    assert runner_up.posts == []  # never sold twice, whatever the re-send answered
    sales = sales_in(session_factory, lead.id)
    [post] = posts_of(session_factory, lead.id)
    if resend_answer == 200:
        assert [sale.buyer_id for sale in sales] == [first_id] and post.status == DeliveryStatus.DELIVERED
    else:
        assert sales == [] and post.status == DeliveryStatus.FAILED
        assert notices(first)[:1] == ["lead.discard"]
