"""The collector tuned for serving: what start-up left is frozen, young passes come less often;
only in a process that serves one app (tests build many apps in one process and keep theirs)."""

from __future__ import annotations

import gc

import pytest
from fastapi.testclient import TestClient

from servicematch.app import create_app
from servicematch.kernel.heap import YOUNG_THRESHOLD, tune_for_serving


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
