"""The open portal's live updates: the offers' event stream, with offers written straight to the table
(as the worker, another process, writes them)."""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, update

from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.portal import router_events
from servicematch.portal.router_events import OfferWatch
from servicematch.routing.models import OfferStatus, ProviderOffer

WAIT_SECONDS = 10
END = object()


def _offer(app, provider_id: str, *, status: str = OfferStatus.OPEN, age: timedelta = timedelta()) -> str:
    """An offer of a lead of its own to `provider_id`, created `age` ago."""
    created = utcnow() - age
    with app.state.session_factory() as session:
        lead = Lead(request_id=uuid.uuid4().hex, reference=uuid.uuid4().hex[:8].upper(), request_hash="x" * 64,
                    flow="form", vertical="services", service="hvac", category="hvac", cid=1,
                    personal_data=b"sealed", state="TX", zip="78701")
        session.add(lead)
        session.flush()
        offer = ProviderOffer(lead_id=lead.id, provider_id=provider_id, status=status, price_cents=4500,
                              created_at=created, expires_at=created + timedelta(hours=2))
        session.add(offer)
        session.commit()
        return offer.id


def _set_status(app, offer_id: str, status: str) -> None:
    with app.state.session_factory() as session:
        session.execute(update(ProviderOffer).where(ProviderOffer.id == offer_id)
                        .values(status=status, decided_at=utcnow()))
        session.commit()


def _look(app, watch: OfferWatch) -> list[dict]:
    with app.state.session_factory() as session:
        return watch.look(session, utcnow())


def test_the_first_look_is_the_baseline_then_new_and_changed_offers_are_named(app, provider):
    mine, theirs = provider(), provider()
    before = _offer(app, mine.provider_id)
    watch = OfferWatch(mine.provider_id)
    assert _look(app, watch) == []
    assert _look(app, watch) == []  # nothing changed

    new = _offer(app, mine.provider_id)
    _offer(app, theirs.provider_id)  # another provider's offer is never named
    assert _look(app, watch) == [{"id": new, "status": "open"}]

    _set_status(app, before, OfferStatus.ACCEPTED)
    _set_status(app, new, OfferStatus.DECLINED)
    assert _look(app, watch) == sorted([{"id": before, "status": "accepted"}, {"id": new, "status": "declined"}],
                                       key=lambda change: change["id"])
    assert _look(app, watch) == []


def test_an_offer_accepted_at_once_is_new_too(app, provider):
    mine = provider()
    watch = OfferWatch(mine.provider_id)
    _look(app, watch)
    auto = _offer(app, mine.provider_id, status=OfferStatus.ACCEPTED)  # auto-accept: never seen open
    assert _look(app, watch) == [{"id": auto, "status": "accepted"}]


def test_an_old_open_offer_that_expires_or_disappears_is_named(app, provider):
    mine = provider()
    expiring = _offer(app, mine.provider_id, age=timedelta(hours=3))
    erased = _offer(app, mine.provider_id, age=timedelta(hours=3))
    old_decided = _offer(app, mine.provider_id, status=OfferStatus.DECLINED, age=timedelta(hours=3))
    watch = OfferWatch(mine.provider_id)
    _look(app, watch)
    assert set(watch.known) == {expiring, erased}  # a decided offer past the recent window is not read

    _set_status(app, expiring, OfferStatus.EXPIRED)
    with app.state.session_factory() as session:
        session.execute(delete(ProviderOffer).where(ProviderOffer.id == erased))
        session.commit()
    assert _look(app, watch) == sorted([{"id": expiring, "status": "expired"}, {"id": erased, "status": "removed"}],
                                       key=lambda change: change["id"])
    assert _look(app, watch) == []
    assert old_decided not in watch.known


class StreamReader:
    """Reads an event stream on a thread of its own, line by line, so the test can wait for each."""

    def __init__(self, http: TestClient, path: str) -> None:
        self.lines: queue.Queue = queue.Queue()
        self.status: int | None = None
        self.headers: dict = {}
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(http, path), daemon=True)
        self.thread.start()
        assert self.started.wait(WAIT_SECONDS), "the stream did not answer"

    def _read(self, http: TestClient, path: str) -> None:
        try:
            with http.stream("GET", f"/api/pro{path}") as response:
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
        """The next event's name and data (comments and blank lines skipped)."""
        while True:
            line = self.next_line()
            assert line is not END, "the stream ended"
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
                data = self.next_line()
                return name, json.loads(data.removeprefix("data: "))

    def rest(self) -> list[str]:
        """Every line until the stream ends."""
        lines = []
        while (line := self.next_line()) is not END:
            lines.append(line)
        return lines


@pytest.fixture
def quick_stream(monkeypatch):
    monkeypatch.setattr(router_events, "POLL_SECONDS", 0.02)
    monkeypatch.setattr(router_events, "SESSION_CHECK_SECONDS", 0.05)


def test_the_stream_sends_each_new_offer_and_ends_when_the_session_does(app, provider, quick_stream):
    mine, theirs = provider(), provider()
    _offer(app, mine.provider_id)  # before the stream: the page reads it itself
    stream = StreamReader(mine.http, f"{mine.me}/events")
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["cache-control"] == "no-cache, no-transform"
    assert stream.next_line() == "retry: 3000"

    _offer(app, theirs.provider_id)
    new = _offer(app, mine.provider_id)
    assert stream.next_event() == ("offer", {"id": new, "status": "open"})
    _set_status(app, new, OfferStatus.ACCEPTED)
    assert stream.next_event() == ("offer", {"id": new, "status": "accepted"})

    assert mine.send("DELETE", "/session").status_code == 204
    assert all(not line.startswith("event:") for line in stream.rest())  # it ended


def test_a_quiet_stream_sends_a_keep_alive_comment(app, provider, quick_stream, monkeypatch):
    monkeypatch.setattr(router_events, "KEEPALIVE_SECONDS", 0.05)
    mine = provider()
    stream = StreamReader(mine.http, f"{mine.me}/events")
    assert stream.next_line() == "retry: 3000"
    assert stream.next_line() == ""
    assert stream.next_line() == ": keep-alive"
    mine.send("DELETE", "/session")
    stream.rest()


def test_the_stream_ends_when_the_session_goes_idle(app, provider, quick_stream):
    from servicematch.portal.models import ProviderSession

    mine = provider()
    stream = StreamReader(mine.http, f"{mine.me}/events")
    assert stream.next_line() == "retry: 3000"
    with app.state.session_factory() as session:
        session.execute(update(ProviderSession).values(last_seen_at=utcnow() - timedelta(days=2)))
        session.commit()
    assert all(not line.startswith("event:") for line in stream.rest())


def test_no_database_connection_is_held_between_looks(app, provider, quick_stream, monkeypatch):
    mine = provider()
    held: list[int] = []
    enough = threading.Event()
    real_wait = router_events.OfferSignal.wait

    async def watched_wait(signal, seconds: float) -> None:
        held.append(app.state.engine.pool.checkedout())
        if len(held) >= 5:
            enough.set()
        await real_wait(signal, seconds)

    monkeypatch.setattr(router_events.OfferSignal, "wait", watched_wait)
    stream = StreamReader(mine.http, f"{mine.me}/events")
    assert enough.wait(WAIT_SECONDS)
    assert set(held) == {0}, held
    mine.send("DELETE", "/session")
    stream.rest()


def test_another_providers_stream_is_not_found_and_says_nothing(provider):
    mine, theirs = provider(), provider()
    answer = mine.get(f"{theirs.me}/events")
    assert (answer.status_code, answer.content) == (404, b"")
    assert mine.get("/providers/no-such-id/events").status_code == 404


def test_the_stream_needs_a_session(client, provider):
    mine = provider()
    answer = client.get(f"/api/pro{mine.me}/events")
    assert answer.status_code == 401
    assert "text/event-stream" not in answer.headers.get("content-type", "")


def test_a_change_this_process_hears_of_is_sent_at_once_not_at_the_next_poll(app, provider, quick_stream,
                                                                              monkeypatch):
    from servicematch.kernel import wakeup

    # A poll far longer than the waits below: only the signal can bring the offer in time.
    monkeypatch.setattr(router_events, "POLL_SECONDS", 60)
    looked = threading.Event()
    real_look = OfferWatch.look

    def look(watch, db, now):
        changes = real_look(watch, db, now)
        looked.set()
        return changes

    monkeypatch.setattr(OfferWatch, "look", look)
    mine = provider()
    stream = StreamReader(mine.http, f"{mine.me}/events")
    assert stream.next_line() == "retry: 3000"
    assert looked.wait(WAIT_SECONDS)  # the baseline is taken; the stream now waits up to a minute
    new = _offer(app, mine.provider_id)
    wakeup.offers.notify()
    assert stream.next_event() == ("offer", {"id": new, "status": "open"})

    mine.send("DELETE", "/session")
    time.sleep(2 * router_events.SESSION_CHECK_SECONDS)  # the session is due to be checked again
    wakeup.offers.notify()  # the stream looks again, finds the session ended, and ends
    assert all(not line.startswith("event:") for line in stream.rest())
