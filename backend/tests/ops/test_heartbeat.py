"""Worker heartbeats: one row per running worker, beaten as a chore, deleted on a clean stop."""

from __future__ import annotations

import os
import socket
import time
from datetime import timedelta

from sqlalchemy import select

from servicematch.delivery.worker import BackgroundWorker
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.ops.heartbeat import (
    FORGET_AFTER,
    HeartbeatChore,
    WorkerHeartbeat,
    beat,
    forget_worker,
    last_beats,
)
from servicematch.workers import make_worker


def _rows(factory) -> dict[str, WorkerHeartbeat]:
    with factory() as session:
        return {row.worker_id: row for row in session.scalars(select(WorkerHeartbeat))}


def test_a_beat_inserts_the_row_then_updates_it(app):
    factory = app.state.session_factory
    started = utcnow() - timedelta(minutes=5)
    beat(factory, worker_id="w1", host="web-1", pid=41, started_at=started, now=started + timedelta(seconds=1))
    beat(factory, worker_id="w1", host="web-1", pid=41, started_at=started, now=started + timedelta(seconds=6))
    [row] = _rows(factory).values()
    assert (row.host, row.pid) == ("web-1", 41)
    assert as_utc(row.started_at) == started
    assert as_utc(row.beat_at) == started + timedelta(seconds=6)


def test_a_live_workers_beat_forgets_workers_silent_for_an_hour(app):
    factory = app.state.session_factory
    now = utcnow()
    beat(factory, worker_id="dead", host="web-1", pid=1, started_at=now, now=now - FORGET_AFTER - timedelta(seconds=1))
    beat(factory, worker_id="late", host="web-1", pid=2, started_at=now, now=now - FORGET_AFTER + timedelta(minutes=1))
    beat(factory, worker_id="live", host="web-2", pid=3, started_at=now, now=now)
    assert set(_rows(factory)) == {"late", "live"}
    with factory() as session:
        assert [(worker, round(seconds)) for worker, seconds in last_beats(session, now)] == [
            ("live", 0), ("late", round((FORGET_AFTER - timedelta(minutes=1)).total_seconds()))]


def test_forgetting_a_worker_deletes_its_row_only(app):
    factory = app.state.session_factory
    for worker in ("a", "b"):
        beat(factory, worker_id=worker, host="h", pid=1, started_at=utcnow())
    forget_worker(factory, "a")
    assert set(_rows(factory)) == {"b"}


def test_the_chore_beats_at_most_once_a_period_and_its_stop_deletes_the_row(app):
    factory = app.state.session_factory
    chore = HeartbeatChore(factory, worker_id="chore-1", every_seconds=3600)
    chore.poke()
    chore.join()
    first = _rows(factory)["chore-1"]
    assert (first.host, first.pid) == (socket.gethostname(), os.getpid())
    chore.poke()  # within the period: no second beat
    chore.join()
    assert _rows(factory)["chore-1"].beat_at == first.beat_at
    chore.stop()
    assert _rows(factory) == {}
    chore.poke()  # stopped: no beat brings the row back
    chore.join()
    assert _rows(factory) == {}


def test_a_chore_that_never_beat_touches_nothing_when_stopped(app):
    def no_database():
        raise AssertionError("the database was used")

    HeartbeatChore(no_database, worker_id="never").stop()


def test_a_heartbeat_that_cannot_be_written_does_not_stop_the_worker(app):
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    unreachable = sessionmaker(create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none"))
    chore = HeartbeatChore(unreachable, worker_id="cut-off")
    chore.poke()
    chore.join()
    chore.stop()  # nothing was written: nothing to delete, and no error


def test_a_running_worker_beats_and_a_clean_stop_removes_its_row(app, settings):
    factory = app.state.session_factory
    worker = make_worker(session_factory=factory, settings=settings)
    assert worker.heartbeat in worker.chores
    background = BackgroundWorker(worker)
    background.start()
    try:
        deadline = time.monotonic() + 20
        while worker.worker_id not in _rows(factory):
            assert time.monotonic() < deadline, "the worker never beat"
            time.sleep(0.05)
    finally:
        background.stop(timeout=15)
    assert worker.worker_id not in _rows(factory)
