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
gives threads that allocate at once arenas of their own, up to eight a core, and memory freed
into one arena serves only that arena's threads afterwards, so a worker's resident memory crept
up for as long as it ran: 207 to 232 MB over 7,000 leads, still climbing about 1 MB a minute when
they ended, though what Python itself held grew by a few MB. The worker caps the arenas at
WORKER_MALLOC_ARENAS before its threads start (the interpreter lock lets one thread run Python at a
time, so they rarely wait on each other for malloc): 201 to 214 MB over the same leads, flat for
their last two minutes. An operator's own MALLOC_ARENA_MAX, which glibc reads at start, is left
as it is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os

YOUNG_THRESHOLD = 10_000
WORKER_MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # mallopt's parameter number, from glibc's malloc.h


def cap_malloc_arenas(arenas: int = WORKER_MALLOC_ARENAS) -> bool:
    """Let this process's threads share at most `arenas` malloc arenas; whether the cap was set.
    Not set where MALLOC_ARENA_MAX is (the operator's choice) or where the C library is not glibc."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return mallopt(_M_ARENA_MAX, arenas) == 1


def tune_for_serving() -> None:
    """Collect start-up's garbage, freeze every object left (for the life of the process), and
    collect the youngest generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
