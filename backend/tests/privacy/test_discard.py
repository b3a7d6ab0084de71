"""An auction buyer that got the full lead in its post and did not buy it (it refused the post, or
its answer came after the post deadline) holds the consumer's details all the same: it is told,
once, in a signed `lead.discard`, and the consumer's receipt, stop page and access report name it
with what it did."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from background_server import serve_in_background
from delivery_receivers import Received, free_port, started_receivers
from privacy_support import CONTACT, deliveries, text_of, wait_for_mail
from sqlalchemy import select
from webhook_checks import verified

from servicematch.delivery.models import DeliveryStatus
from servicematch.intake.models import Lead
from servicematch.privacy.holds import NotSentAgain
from servicematch.privacy.links import sign_link
from servicematch.privacy.report import lead_report
from servicematch.reporting.rollup import retry_counted_delivery
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer, Sale

PERSONAL = ("Maria", "Garcia", "5125550", "500 Congress", "maria.garcia@example.com", "78701", "Austin")
POST_DEADLINE_MS = 300


@dataclass
class ScriptedBuyer:
    """A buyer's post URL as its engineers run it: the lead post gets `post_status` after
    `post_delay` seconds; an event (a JSON body with a "type") gets 200 at once."""

    post_status: int = 200
    post_delay: float = 0.0
    received: list[Received] = field(default_factory=list)
    port: int = field(default_factory=free_port)

    def __post_init__(self) -> None:
        self._changed = threading.Condition()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/post"

    def start(self) -> ScriptedBuyer:
        buyer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                event = "type" in json.loads(body)
                status = 200 if event else buyer.post_status
                with buyer._changed:
                    buyer.received.append(Received(self.path, dict(self.headers.items()), body, status))
                    buyer._changed.notify_all()
                if not event:
                    time.sleep(buyer.post_delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"{}")
                except OSError:
                    pass  # the sender stopped waiting: the answer came too late

            def log_message(self, *_args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def events(self, kind: str) -> list[Received]:
        return [r for r in self.received if r.json.get("type") == kind]

    def lead_posts(self) -> list[Received]:
        return [r for r in self.received if "type" not in r.json]

    def wait_for_event(self, kind: str) -> list[Received]:
        with self._changed:
            assert self._changed.wait_for(lambda: self.events(kind), 20), f"no {kind} arrived"
        return self.events(kind)


@pytest.fixture
def settings(settings):
    """Auction buyers only (the fixed buyer would take a seat), with a short post deadline."""
    return settings.model_copy(update={"buyer_url": "", "post_timeout_ms": POST_DEADLINE_MS})


@pytest.fixture
def buyers() -> Iterator:
    yield from started_receivers(ScriptedBuyer)


@pytest.fixture
def add_buyer(app):
    def add(name: str, receiver: ScriptedBuyer, *, price: float) -> Buyer:
        with app.state.session_factory() as session:
            buyer = directory.add_buyer(session, directory.BuyerTerms(
                name=name, post_url=receiver.url, price_cents=round(price * 100), exclusive=True),
                allow_private=True)
            session.commit()
            session.refresh(buyer)
            session.expunge(buyer)
            return buyer
    return add


def _deliver(worker, clock) -> None:
    worker.run_until_idle()
    clock.advance(seconds=1)


def _report(app, settings, lead_id: str) -> dict:
    with app.state.session_factory() as session:
        return lead_report(session=session, settings=settings, lead=session.get(Lead, lead_id))


def _check_discard(received: Received, *, buyer: Buyer, lead, reason: str, clock) -> dict:
    """Read the notice as the buyer's engineer would: verify it with the buyer's own secret first."""
    event = verified(received, secret=buyer.secret, at=clock.now)
    assert set(event) == {"type", "timestamp", "data"} and event["type"] == "lead.discard"
    data = event["data"]
    assert data["requestId"] == lead.request_id and data["leadId"] == lead.id and data["reason"] == reason
    assert "Delete the consumer's details" in data["action"]
    assert received.headers["Idempotency-Key"] == f"{lead.request_id}:lead.discard"
    text = received.body.decode()
    assert not any(personal in text for personal in PERSONAL), "a notice names the lead, never the person"
    return data


def test_a_buyer_that_refused_its_post_is_told_once_to_discard_it_and_is_named_to_the_consumer(
        app, client, make_lead, worker, clock, smtp, settings, buyers, add_buyer) -> None:
    picky_receiver, steady_receiver = buyers(post_status=400), buyers()
    picky = add_buyer("Picky Leads", picky_receiver, price=40)
    add_buyer("Steady Leads", steady_receiver, price=20)
    lead = make_lead()
    _deliver(worker, clock)

    assert len(picky_receiver.lead_posts()) == 1 and len(steady_receiver.lead_posts()) == 1
    (notice,) = picky_receiver.wait_for_event("lead.discard")
    data = _check_discard(notice, buyer=picky, lead=lead, reason="refused", clock=clock)
    (post,) = [d for d in deliveries(app.state.session_factory, lead.id, "lead") if d.buyer_id == picky.id]
    assert data["postId"] == post.id == picky_receiver.lead_posts()[0].headers["webhook-id"]
    assert steady_receiver.events("lead.discard") == []  # the taker keeps what it bought

    # An operator's resend of that post would sell what the buyer was told to discard: refused.
    with app.state.session_factory() as session, pytest.raises(NotSentAgain) as refused:
        retry_counted_delivery(session=session, delivery_id=post.id)
    assert "told to discard" in refused.value.error

    # Settled again (a sweep, a second worker): still one notice.
    worker.router.sweep(force=True)
    _deliver(worker, clock)
    (row,) = deliveries(app.state.session_factory, lead.id, "lead.discard")
    assert row.status == DeliveryStatus.DELIVERED and row.buyer_id == picky.id
    assert len(picky_receiver.events("lead.discard")) == 1

    # The consumer is told: the receipt names the buyer apart, with what it did.
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0])
    assert "  - Steady Leads\r\n" in text
    assert ("Sent your contact details, but did not take your request:\r\n  - Picky Leads: Was sent your "
            "contact details but turned your request down. We told it to delete them.") in text

    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    preview = client.post("/api/privacy/stop/preview", json={"token": token})
    assert preview.status_code == 200, preview.text
    assert preview.json()["recipients"] == ["Picky Leads", "Steady Leads"]

    report = _report(app, settings, lead.id)
    assert report["receivedBy"] == ["Picky Leads", "Steady Leads"]
    assert report["companies"] == [
        {"name": "Picky Leads", "did": "refused", "toldToDiscard": True,
         "inWords": "Was sent your contact details but turned your request down. We told it to delete them."},
        {"name": "Steady Leads", "did": "bought", "toldToDiscard": False,
         "inWords": "Bought your request. It may contact you about it."},
    ]

    # A stop reaches it too: it held the details.
    assert client.post("/api/privacy/stop", json={"token": token}).status_code == 200
    _deliver(worker, clock)
    assert len(picky_receiver.wait_for_event("lead.revoked")) == 1


def test_a_buyer_whose_answer_never_came_in_time_is_told_it_did_not_buy_the_lead(
        app, client, make_lead, worker, clock, smtp, settings, buyers, add_buyer) -> None:
    """Its post (and every re-send of it, same webhook-id) is answered only after the deadline: the
    post is given up in doubt, the exclusive lead goes to nobody else, and the buyer is told."""
    worker.settings = settings = settings.model_copy(update={"delivery_timeout_seconds": 1.0,
                                                             "post_settle_seconds": 5})
    slow_receiver, steady_receiver = buyers(post_delay=POST_DEADLINE_MS / 1000 * 4), buyers()
    slow = add_buyer("Slow Leads", slow_receiver, price=40)
    add_buyer("Steady Leads", steady_receiver, price=20)
    lead = make_lead()
    for _ in range(8):
        _deliver(worker, clock)

    assert len(slow_receiver.lead_posts()) > 1
    assert {post.headers["webhook-id"] for post in slow_receiver.lead_posts()} == {
        slow_receiver.lead_posts()[0].headers["webhook-id"]}
    # Its late yes bought nothing, and the exclusive lead was posted to nobody else.
    assert steady_receiver.lead_posts() == []
    with app.state.session_factory() as session:
        assert session.scalars(select(Sale).where(Sale.lead_id == lead.id)).all() == []
    (notice,) = slow_receiver.wait_for_event("lead.discard")
    data = _check_discard(notice, buyer=slow, lead=lead, reason="late", clock=clock)
    assert "did not reach us in time" in data["action"]
    _deliver(worker, clock)
    assert len(slow_receiver.events("lead.discard")) == 1

    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    assert client.post("/api/privacy/stop/preview", json={"token": token}).json()["recipients"] == ["Slow Leads"]
    (slow_company,) = [c for c in _report(app, settings, lead.id)["companies"] if c["name"] == "Slow Leads"]
    assert slow_company == {"name": "Slow Leads", "did": "late", "toldToDiscard": True,
                            "inWords": "Was sent your contact details but did not answer in time, so it did "
                                       "not get your request. We told it to delete them."}
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0])
    assert "  - Slow Leads: Was sent your contact details but did not answer in time" in text


def test_a_post_that_never_left_is_not_named_and_gets_no_notice(
        app, client, make_lead, worker, clock, settings, buyers, add_buyer) -> None:
    gone_receiver, steady_receiver = buyers(), buyers()
    gone = add_buyer("Gone Leads", gone_receiver, price=40)
    add_buyer("Steady Leads", steady_receiver, price=20)
    gone_receiver.stop()  # connection refused: the details never left
    gone_receiver.start = lambda: gone_receiver  # the fixture's stop at the end has nothing to stop
    gone_receiver.stop = lambda: None
    lead = make_lead()
    _deliver(worker, clock)

    assert [d.status for d in deliveries(app.state.session_factory, lead.id, "lead")
            if d.buyer_id == gone.id] == [DeliveryStatus.REJECTED]
    assert deliveries(app.state.session_factory, lead.id, "lead.discard") == []
    assert _report(app, settings, lead.id)["receivedBy"] == ["Steady Leads"]
