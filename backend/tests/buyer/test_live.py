"""An open buyer portal's live stream: each lead sold to its buyer, and only those, named once as
`lead.bought`; a person's session only; it ends with the session."""

from __future__ import annotations

import json
import queue
import threading
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from buyer.sales_support import clock, make_lead, post_receiver, sell, worker  # noqa: F401
from servicematch.buyer import live
from servicematch.buyer.live import SaleWatch
from servicematch.buyer.models import BuyerSession
from servicematch.kernel.clock import utcnow
from servicematch.kernel.references import shown_reference

WAIT_SECONDS = 10
END = object()


def _look(app, watch: SaleWatch) -> list[dict]:
    with app.state.session_factory() as session:
        return watch.look(session, utcnow())


def test_the_first_look_is_the_baseline_then_each_new_sale_of_the_buyer_is_named_once(app, make_buyer):
    mine, theirs = make_buyer(), make_buyer()
    sell(app, mine)
    watch = SaleWatch(mine)
    assert _look(app, watch) == []
    new = sell(app, mine)
    sell(app, theirs)
    assert _look(app, watch) == [{"id": new.lead_id, "reference": new.reference}]
    assert _look(app, watch) == []


def test_a_sale_stamped_before_its_commit_is_still_named(app, make_buyer):
    buyer = make_buyer()
    watch = SaleWatch(buyer)
    _look(app, watch)
    late = sell(app, buyer, at=utcnow() - timedelta(minutes=2))  # a worker's batch that committed late
    assert _look(app, watch) == [{"id": late.lead_id, "reference": late.reference}]


class StreamReader:
    """Reads an event stream on a thread of its own, line by line, so the test can wait for each."""

    def __init__(self, http: TestClient, path: str = "/api/buyer/events") -> None:
        self.lines: queue.Queue = queue.Queue()
        self.status: int | None = None
        self.headers: dict = {}
        self.started = threading.Event()
        threading.Thread(target=self._read, args=(http, path), daemon=True).start()
        assert self.started.wait(WAIT_SECONDS), "the stream did not answer"

    def _read(self, http: TestClient, path: str) -> None:
        try:
            with http.stream("GET", path) as response:
                self.status, self.headers = response.status_code, response.headers
                self.started.set()
                for line in response.iter_lines():
                    self.lines.put(line)
        finally:
            self.started.set()
            self.lines.put(END)

    def next_line(self):
        return self.lines.get(timeout=WAIT_SECONDS)

    def next_event(self) -> tuple[str, dict]:
        while True:
            line = self.next_line()
            assert line is not END, "the stream ended"
            if line.startswith("event: "):
                return line.removeprefix("event: "), json.loads(self.next_line().removeprefix("data: "))

    def rest(self) -> list[str]:
        lines = []
        while (line := self.next_line()) is not END:
            lines.append(line)
        return lines


@pytest.fixture
def quick_stream(monkeypatch):
    monkeypatch.setattr(live, "POLL_SECONDS", 0.02)
    monkeypatch.setattr(live, "SESSION_CHECK_SECONDS", 0.05)


def _end_sessions(app) -> None:
    with app.state.session_factory() as session:
        session.execute(update(BuyerSession).values(ended_at=utcnow()))
        session.commit()


def test_the_stream_names_each_lead_sold_to_the_buyer_and_ends_with_the_session(app, make_buyer, buyer_browser,
                                                                                 quick_stream):
    mine, theirs = make_buyer(), make_buyer()
    sell(app, mine)  # before the stream: the page reads it itself
    stream = StreamReader(buyer_browser(mine))
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["cache-control"] == "no-cache, no-transform"
    assert stream.next_line() == "retry: 3000"

    sell(app, theirs)
    new = sell(app, mine)
    assert stream.next_event() == ("lead.bought", {"id": new.lead_id, "reference": new.reference})
    _end_sessions(app)
    assert all(not line.startswith("event:") for line in stream.rest())


def test_a_quiet_stream_sends_a_keep_alive_comment(app, make_buyer, buyer_browser, quick_stream, monkeypatch):
    monkeypatch.setattr(live, "KEEPALIVE_SECONDS", 0.05)
    stream = StreamReader(buyer_browser(make_buyer()))
    assert stream.next_line() == "retry: 3000"
    assert stream.next_line() == ""
    assert stream.next_line() == ": keep-alive"
    _end_sessions(app)
    stream.rest()


def test_the_stream_is_for_a_persons_session_only(app, make_buyer, key_client, client):
    buyer = make_buyer()
    assert key_client(buyer).get("/api/buyer/events").status_code == 403
    assert client.get("/api/buyer/events").status_code == 401
    assert key_client(buyer).get("/api/buyer/v1/events").status_code == 404


def test_a_lead_sold_through_the_auction_reaches_the_open_stream(
        app, make_buyer, buyer_browser, make_lead, worker, post_receiver, quick_stream):  # noqa: F811 (fixtures above)
    buyer = make_buyer(post_url=post_receiver.url, price_cents=2500)
    stream = StreamReader(buyer_browser(buyer))
    assert stream.next_line() == "retry: 3000"
    lead = make_lead()
    worker.run_until_idle()
    assert post_receiver.delivered()
    assert stream.next_event() == ("lead.bought", {"id": lead.id, "reference": shown_reference(lead.reference)})
    _end_sessions(app)
    stream.rest()
