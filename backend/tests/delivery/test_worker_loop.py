"""The delivery worker's loop: while busy, each round starts a gathering after the last; told to
stop, it stops, whenever in its round the word comes and however long its poll."""

from __future__ import annotations

import itertools
import threading
import time

from servicematch.delivery import worker as worker_module
from servicematch.kernel import wakeup
from servicematch.workers import make_worker

# Far longer than any test waits: a worker that sleeps until its next poll is a worker that hangs.
LONG_POLL_SECONDS = 600


def _running(worker, stop: threading.Event) -> threading.Thread:
    thread = threading.Thread(target=worker.run_forever, args=(stop,), daemon=True)
    thread.start()
    return thread


def test_a_stop_with_no_wake_up_as_a_signal_handler_gives_it_ends_an_idle_worker(session_factory, settings):
    # `servicematch worker` stops on SIGTERM by setting the flag alone: a signal handler must not
    # take the locks a wake-up takes.
    worker = make_worker(session_factory=session_factory,
                         settings=settings.model_copy(update={"worker_poll_seconds": LONG_POLL_SECONDS}))
    stop = threading.Event()
    thread = _running(worker, stop)
    try:
        assert not thread.join(0.5) and thread.is_alive()  # idle, waiting for work
        stop.set()
        thread.join(10)
        assert not thread.is_alive()
    finally:
        stop.set()
        worker.close()


def test_a_stop_that_comes_as_a_round_begins_is_not_slept_through(session_factory, settings, monkeypatch):
    # Only the wake-up that comes with the stop can end this wait: no look at the flag in between.
    monkeypatch.setattr(worker_module, "STOP_LOOK_SECONDS", LONG_POLL_SECONDS)
    worker = make_worker(session_factory=session_factory,
                         settings=settings.model_copy(update={"worker_poll_seconds": LONG_POLL_SECONDS}))
    stop = threading.Event()
    idle, asked = worker._idle, []

    def stopped_as_the_round_begins() -> bool:
        if not asked:
            # What BackgroundWorker.stop does, arriving after the loop's test of the flag and before
            # the round clears its wake-ups.
            stop.set()
            wakeup.notify()
        asked.append(True)
        return idle() if len(asked) > 1 else False

    monkeypatch.setattr(worker, "_idle", stopped_as_the_round_begins)
    thread = _running(worker, stop)
    try:
        thread.join(10)
        assert not thread.is_alive()
    finally:
        stop.set()
        wakeup.notify()
        worker.close()


def test_while_work_is_under_way_each_round_starts_a_gathering_after_the_last(session_factory, settings, monkeypatch):
    monkeypatch.setattr(worker_module, "GATHER_SECONDS", 0.5)
    worker = make_worker(session_factory=session_factory, settings=settings)
    rounds: list[float] = []

    def dispatch(*, look: bool = True) -> int:
        rounds.append(time.monotonic())
        return 0

    monkeypatch.setattr(worker, "dispatch", dispatch)
    monkeypatch.setattr(worker, "_idle", lambda: False)  # sends always under way
    stop = threading.Event()
    thread = _running(worker, stop)
    try:
        time.sleep(1.6)
    finally:
        stop.set()
        wakeup.notify()
        thread.join(10)
        worker.close()
    # Woken every 20 ms while busy, it still took a round at most every half second.
    assert 2 <= len(rounds) <= 4
    assert all(later - earlier >= 0.45 for earlier, later in itertools.pairwise(rounds))
