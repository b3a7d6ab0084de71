"""The collector tuned for serving: what start-up left is frozen, young passes come less often;
only in a process that serves one app (tests build many apps in one process and keep theirs).
A worker hands the pages its threads freed back to the system."""

from __future__ import annotations

import gc
import os
import sys
import threading

import pytest
from fastapi.testclient import TestClient

from servicematch.app import create_app
from servicematch.kernel import heap
from servicematch.kernel.heap import YOUNG_THRESHOLD, tune_for_serving
from servicematch.workers import make_worker


@pytest.fixture
def collector_restored():
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    yield frozen
    gc.unfreeze()
    gc.set_threshold(*threshold)


def _tracked(thing: object) -> bool:
    return any(candidate is thing for candidate in gc.get_objects())


def test_what_start_up_left_is_out_of_the_collectors_passes(collector_restored):
    kept = [object()]  # alive when start-up ends: lives as long as the process
    assert _tracked(kept)
    tune_for_serving()
    assert not _tracked(kept)
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    later = [object()]
    assert _tracked(later)  # what comes after start-up is collected as before


def test_a_served_app_tunes_the_collector_once_started(settings, collector_restored):
    app = create_app(settings, tune_gc=True)
    try:
        with TestClient(app):
            app.state.start_up.join()
            assert gc.get_freeze_count() > collector_restored
            assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    finally:
        app.state.engine.dispose()


def test_an_app_built_for_a_test_leaves_the_collector_alone(settings, collector_restored):
    threshold = gc.get_threshold()
    app = create_app(settings)
    try:
        with TestClient(app):
            app.state.start_up.join()
    finally:
        app.state.engine.dispose()
    assert gc.get_freeze_count() == collector_restored
    assert gc.get_threshold() == threshold


def _resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


@pytest.mark.skipif(not sys.platform.startswith("linux") or heap._TRIM is None, reason="glibc's malloc_trim")
def test_memory_freed_by_many_threads_goes_back_to_the_system():
    kept: list[list[bytearray]] = []

    def allocate_then_free_most() -> None:
        # Small blocks (from the thread's arena, not mmap): one kept in 64 pins the pages between.
        blocks = [bytearray(1_000 + (i % 40) * 50) for i in range(40_000)]
        kept.append(blocks[::64])

    threads = [threading.Thread(target=allocate_then_free_most) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    before = _resident_mb()
    assert heap.release_freed_memory()
    after = _resident_mb()
    assert before - after > 100, f"{before:.0f} MB resident before, {after:.0f} MB after"


def test_a_worker_returns_freed_memory_busy_or_not(settings, app):
    worker = make_worker(session_factory=app.state.session_factory, settings=settings)
    try:
        chore = next(chore for chore in worker.chores if chore.name == "returning freed memory")
        assert chore.while_busy and chore.CHECK_EVERY_SECONDS == heap.RELEASE_EVERY_SECONDS
        assert worker.heartbeat.while_busy
    finally:
        worker.close()
