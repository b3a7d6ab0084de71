"""The collector tuned for serving: what start-up left is frozen, young passes come less often;
only in a process that serves one app (tests build many apps in one process and keep theirs). A
worker's threads share two malloc arenas."""

from __future__ import annotations

import gc
import os
import platform
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from servicematch.app import create_app
from servicematch.kernel.heap import WORKER_MALLOC_ARENAS, YOUNG_THRESHOLD, tune_for_serving


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


# Threads that each allocate at the same time, then the number of malloc arenas (glibc's
# malloc_info writes a <heap nr="..."> element for each).
_ARENAS_SCRIPT = """
import ctypes, ctypes.util, sys, tempfile, threading
from servicematch.kernel.heap import cap_malloc_arenas
print(cap_malloc_arenas() if sys.argv[1] == "capped" else "unasked")
all_started = threading.Barrier(17)
def hold():
    block = bytearray(100_000)
    all_started.wait()
    all_started.wait()
threads = [threading.Thread(target=hold) for _ in range(16)]
for thread in threads:
    thread.start()
all_started.wait()
libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.fopen.restype = ctypes.c_void_p
with tempfile.NamedTemporaryFile(suffix=".xml") as report:
    stream = libc.fopen(report.name.encode(), b"w")
    libc.malloc_info(0, ctypes.c_void_p(stream))
    libc.fclose(ctypes.c_void_p(stream))
    print(open(report.name).read().count("<heap nr="))
all_started.wait()
"""


def _arenas(mode: str, **environment: str) -> tuple[str, int]:
    env = {key: value for key, value in os.environ.items() if key != "MALLOC_ARENA_MAX"} | environment
    done = subprocess.run([sys.executable, "-c", _ARENAS_SCRIPT, mode], env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    answer, arenas = done.stdout.split()
    return answer, int(arenas)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc arenas are glibc's")
def test_a_worker_caps_its_malloc_arenas_so_its_threads_share_two():
    assert _arenas("not capped")[1] > WORKER_MALLOC_ARENAS  # what glibc does unasked: an arena a thread
    assert _arenas("capped") == ("True", WORKER_MALLOC_ARENAS)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc arenas are glibc's")
def test_an_operators_own_malloc_arena_max_is_left_as_it_is():
    assert _arenas("capped", MALLOC_ARENA_MAX="4") == ("False", 4)
