"""The garbage collector, tuned for a long-running server process.

A full collection walks every object the collector tracks, holding the interpreter lock all the
while. A web process holds about 380,000 of them once it has started (the ZIP directory and the
`zipcodes` data it is built from are 240,000), and one full pass over them took 0.2-1.0 s on the
benchmark machine: every request under way, and the lead writer's commits, stood still meanwhile.
A worker process holds about 110,000 (25-150 ms a pass). What is alive when start-up ends lives
as long as the process and never becomes garbage, so it is moved out of the collector's sight
(`gc.freeze`): later passes walk only what came after.

The youngest generation is collected after YOUNG_THRESHOLD new objects instead of Python's 700:
a request allocates a few hundred, nearly all freed by reference counting when it ends, so at
700 a pass came every two or three requests and walked the objects of every request then under
way. Counted on intake, passes cost 7-10% of the web process's time at 700, a tenth of that now.

A worker runs some sixty threads (auctions, sends, the decider, the event loop). glibc's malloc
gives threads that allocate at once arenas of their own, up to eight a core, and keeps the pages
freed inside each arena for that arena, so a worker's resident memory crept up for as long as it
ran (207 to 232 MB over 7,000 leads, still climbing, while what Python itself held grew by a few
MB). Capping the arenas stopped the creep but made threads wait on each other's malloc, and the
worker's event loop ran late. Instead, every RELEASE_EVERY_SECONDS a worker hands the whole free
pages of every arena back to the system (`malloc_trim`), off its other threads' way.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc

YOUNG_THRESHOLD = 10_000
RELEASE_EVERY_SECONDS = 30.0


def _malloc_trim():
    """glibc's malloc_trim, or None where the C library has none (musl, macOS)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


def release_freed_memory() -> bool:
    """Return the free pages of every malloc arena to the system; whether any were returned
    (False, too, where the C library cannot)."""
    return _TRIM is not None and _TRIM(0) == 1


def tune_for_serving() -> None:
    """Collect start-up's garbage, freeze every object left (for the life of the process), and
    collect the youngest generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
