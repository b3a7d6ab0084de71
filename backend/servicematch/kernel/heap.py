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
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000


def tune_for_serving() -> None:
    """Collect start-up's garbage, freeze every object left (for the life of the process), and
    collect the youngest generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
