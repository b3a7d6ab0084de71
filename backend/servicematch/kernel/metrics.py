"""What the processes of a deployment count, for GET /metrics (Prometheus' text format).

The metric objects live here, created on first use; the rooms call the small functions below
(`count_lead`, `observe_request`, `observe_auction`, `count_bid`, `count_delivery_attempt`),
which take only closed sets of words, buyer ids and route templates as label values: never
anything a consumer typed.

By default a process counts in its own memory (tests, one-off commands). `share_metrics_in(path)`
makes it one of a deployment's writers: Prometheus' client then keeps each process's values in
files of that directory (one per metric type and process id), and a scrape of any process adds
them all up. It must run before the first value is counted, and it is the only place that sets
PROMETHEUS_MULTIPROC_DIR: processes started from this one (the worker `serve` spawns) inherit it.

One directory serves one deployment on one machine (process ids are how its files are told apart):

- the first writer to start while no other writer of the directory is alive starts afresh: the
  files of the previous run are removed, so nothing of a dead process is added up again;
- a writer that joins a running deployment keeps the dead processes' counters (a sum that fell
  would read as a reset), but their gauges are dropped (`prune_dead_writers`, also at each scrape).
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    values,
)
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

from servicematch.kernel.metrics_labels import (
    BID_OUTCOMES,
    DELIVERY_RESULTS,
    ENDPOINT_KINDS,
    LEAD_OUTCOMES,
    closed_label,
    endpoint_kind,
    id_label,
    method_label,
    status_class,
)

__all__ = ["CONTENT_TYPE", "count_bid", "count_delivery_attempt", "count_lead", "endpoint_kind", "exposition",
           "observe_auction", "observe_request", "share_metrics_in", "shared_directory"]
log = logging.getLogger("servicematch.metrics")

DIRECTORY_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST
# The files Prometheus' client writes (counter_<pid>.db, gauge_livesum_<pid>.db, ...): the only
# files ever removed, so a directory named by mistake (var/, holding the SQLite database) loses nothing.
_VALUE_FILE = re.compile(r"^(?:counter|histogram|summary|gauge_[a-z]+)_(\d+)\.db$")
_LIVE_GAUGE_FILE = re.compile(r"^gauge_live[a-z]+_(\d+)\.db$")
_LOCK_FILE = ".lock"

# Seconds. Requests: most answers take milliseconds, a lead's submission tens of them.
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# An auction waits for its buyers' bids up to the ping timeout (1 s by default, at most 30 s).
AUCTION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)


class _Instruments:
    """Every metric object, made once per process, in whichever mode the process is in by then.

    None is registered with a registry: each scrape builds a registry of its own (`exposition`),
    so any number of apps in one process (a test run) never clash over names."""

    def __init__(self) -> None:
        self.leads = Counter("servicematch_leads", "Lead submissions by outcome: accepted, or why refused.",
                             ["outcome"], registry=None)
        self.request_seconds = Histogram(
            "servicematch_http_request_duration_seconds", "Time to answer a request, by route template.",
            ["route", "method"], buckets=REQUEST_BUCKETS, registry=None)
        self.requests = Counter("servicematch_http_requests", "Requests answered, by route template and status class.",
                                ["route", "method", "status"], registry=None)
        self.auction_seconds = Histogram(
            "servicematch_auction_duration_seconds", "From a lead's first ping to its last bid or pass.",
            buckets=AUCTION_BUCKETS, registry=None)
        self.bids = Counter("servicematch_bids", "Buyers' answers to pings, by buyer id and outcome.",
                            ["buyer", "outcome"], registry=None)
        self.delivery_attempts = Counter(
            "servicematch_delivery_attempts", "Delivery attempts, by endpoint kind and result.",
            ["kind", "result"], registry=None)
        # One per live process: "livesum" drops a process's share once it is marked dead.
        self.processes = Gauge("servicematch_processes", "Live processes writing metrics, by kind.", ["kind"],
                               multiprocess_mode="livesum", registry=None)
        # Children found once: labels() takes a lock and a lookup that every lead would repeat.
        self.lead_children: dict[str, object] = {}
        # (route, method, status class) -> the histogram's and the counter's children.
        self.request_children: dict[tuple[str, str, str], tuple[object, object]] = {}

    def all(self) -> tuple:
        return (self.leads, self.request_seconds, self.requests, self.auction_seconds, self.bids,
                self.delivery_attempts, self.processes)


_instruments: _Instruments | None = None
_setup = threading.Lock()


def _made() -> _Instruments:
    global _instruments
    if _instruments is None:
        with _setup:
            if _instruments is None:
                _instruments = _Instruments()
    return _instruments


# -- counting -----------------------------------------------------------------------------------

def count_lead(outcome: str) -> None:
    """One submission to /api/submit-form or /api/call-submit: "accepted", or a refusal (LEAD_OUTCOMES)."""
    instruments = _made()
    child = instruments.lead_children.get(outcome)
    if child is None:
        label = closed_label(outcome, LEAD_OUTCOMES)
        child = instruments.lead_children.setdefault(label, instruments.leads.labels(label))
    child.inc()


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    """One answered request; `route` is its template ("/api/leads/{requestId}/status"), never its path."""
    instruments = _made()
    # Keyed by label values only: a client inventing methods adds no entries.
    key = (route, method_label(method), status_class(status))
    children = instruments.request_children.get(key)
    if children is None:
        children = (instruments.request_seconds.labels(*key[:2]), instruments.requests.labels(*key))
        instruments.request_children[key] = children
    children[0].observe(seconds)
    children[1].inc()


def observe_auction(seconds: float) -> None:
    """One auction's ping phase: from its first ping to its last bid or pass."""
    _made().auction_seconds.observe(seconds)


def count_bid(buyer: str, outcome: str) -> None:
    """One buyer's answer in an auction; `buyer` is its id (BID_OUTCOMES for the outcomes)."""
    _made().bids.labels(id_label(buyer), closed_label(outcome, BID_OUTCOMES)).inc()


def count_delivery_attempt(kind: str, result: str) -> None:
    """One delivery attempt: `kind` an endpoint kind (`endpoint_kind`), `result` one of DELIVERY_RESULTS."""
    _made().delivery_attempts.labels(closed_label(kind, ENDPOINT_KINDS), closed_label(result, DELIVERY_RESULTS)).inc()


# -- the shared directory ------------------------------------------------------------------------

def shared_directory() -> Path | None:
    """The directory this process writes its values to, or None while it counts in memory."""
    if getattr(values.ValueClass, "_multiprocess", False) and os.environ.get(DIRECTORY_VARIABLE):
        return Path(os.environ[DIRECTORY_VARIABLE])
    return None


def share_metrics_in(directory: Path, *, process_kind: str) -> Path:
    """Make this process one of the deployment's writers in `directory` (created if missing).

    Call it once, before anything is counted: values counted in memory earlier cannot move. The
    first writer of a run starts the directory afresh; later ones join it. `process_kind` ("web",
    "worker") labels this process in servicematch_processes."""
    global _instruments
    directory = directory.resolve()
    with _setup:
        current = shared_directory()
        if current is not None and current.resolve() == directory and _instruments is not None:
            _instruments.processes.labels(process_kind).set(1)
            return directory
        if _instruments is not None:
            raise RuntimeError("metrics were counted before share_metrics_in was called (in memory, or in "
                               f"{current}): they cannot move to {directory}")
        directory.mkdir(parents=True, exist_ok=True)
        with _locked(directory):
            if live_writers(directory):
                prune_dead_writers(directory)
            else:
                clear_values(directory)
            # Files of a dead process whose id this one now has: its counters go on from their
            # values (no sum falls), its gauges go.
            mark_process_dead(os.getpid(), str(directory))
            os.environ[DIRECTORY_VARIABLE] = str(directory)
            if not getattr(values.ValueClass, "_multiprocess", False):
                values.ValueClass = values.MultiProcessValue()
            _instruments = _Instruments()
            # Written under the lock: a writer starting meanwhile sees this process's file.
            _instruments.processes.labels(process_kind).set(1)
    log.info("metrics of this process are kept in %s", directory)
    return directory


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """One process at a time decides whether to start the directory afresh."""
    with open(directory / _LOCK_FILE, "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def _writers(directory: Path, pattern: re.Pattern = _VALUE_FILE) -> dict[int, list[Path]]:
    found: dict[int, list[Path]] = {}
    for path in directory.iterdir():
        if match := pattern.match(path.name):
            found.setdefault(int(match.group(1)), []).append(path)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def live_writers(directory: Path) -> set[int]:
    """Process ids, other than this one, with value files in `directory` that are still running."""
    return {pid for pid in _writers(directory) if pid != os.getpid() and _alive(pid)}


def clear_values(directory: Path) -> int:
    """Remove every value file (a new run starts from zero); how many were removed."""
    removed = 0
    for paths in _writers(directory).values():
        for path in paths:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def prune_dead_writers(directory: Path) -> set[int]:
    """Drop the gauges of processes that have stopped (their counters stay); their ids."""
    dead = {pid for pid in _writers(directory, _LIVE_GAUGE_FILE) if not _alive(pid)}
    for pid in dead:
        mark_process_dead(pid, str(directory))
    return dead


# -- the scrape ----------------------------------------------------------------------------------

class _CountedHere:
    """This process's own values, while it counts in memory."""

    def collect(self) -> Iterable:
        for metric in _made().all():
            yield from metric.collect()


def exposition(*figures: Collector) -> bytes:
    """The text a scrape answers: what every process counted, then `figures` (read as it runs)."""
    registry = CollectorRegistry(auto_describe=False)
    directory = shared_directory()
    if directory is not None:
        prune_dead_writers(directory)
        MultiProcessCollector(registry, path=str(directory))
    else:
        registry.register(_CountedHere())
    for collector in figures:
        registry.register(collector)
    return generate_latest(registry)
