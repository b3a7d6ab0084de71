"""What request ids, JSON lines and heartbeats cost, each beside its reference, in one process.

- Per request: an ASGI app that answers at once, bare and inside the request-id middleware
  (inbound/request_id.py): microseconds per request, the difference being the middleware's.
- Per log line: a record formatted and written to memory by the text and the JSON formats
  (kernel/logs.py, with the request id and lead reference filter), beside the plain
  `%(asctime)s %(levelname)s %(name)s: %(message)s` formatter every process used before.
- Per heartbeat: one worker's beat (an upsert, the forgetting of dead workers, a commit), and
  what /api/ready reads (the migration revision and the beats), beside `SELECT 1` (/api/health),
  on a fresh migrated database of each kind.

Each round measures each figure and its reference in turn; the medians of the rounds are shown.

    uv run python bench/log_overhead.py [--requests 20000] [--lines 20000] [--beats 200] [--rounds 5]
                                        [--databases sqlite,postgresql] [--append]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import fresh_database, machine_description, write_report_section

from servicematch.db.session import make_engine, make_session_factory
from servicematch.inbound.request_id import RequestIds
from servicematch.kernel.logs import REQUEST_ID, JsonLines, TextLines, WorkContext, about_lead
from servicematch.ops.heartbeat import beat, last_beats
from servicematch.ops.readiness import database_revision
from servicematch.schema.migrate import upgrade

HEADING = "Logs, request ids and heartbeats"
SCOPE = {"type": "http", "method": "GET", "path": "/api/health", "headers": [(b"host", b"127.0.0.1")],
         "client": ("127.0.0.1", 50000), "query_string": b""}


def interleaved(rounds: int, measures: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Each round measures every one in turn, so a noisy moment on a shared machine lands on each
    alike; the median of each."""
    taken: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(rounds):
        for name, measure in measures.items():
            taken[name].append(measure())
    return {name: statistics.median(values) for name, values in taken.items()}


async def _bare(scope, receive, send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})


def us_per_request(app, requests: int) -> float:
    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    async def send(_message) -> None:
        pass

    async def run() -> float:
        started = time.perf_counter()
        for _ in range(requests):
            await app(dict(SCOPE), receive, send)
        return time.perf_counter() - started

    return asyncio.run(run()) * 1e6 / requests


def us_per_line(formatter: logging.Formatter, lines: int, *, with_context: bool) -> float:
    handler = logging.StreamHandler(io.StringIO())
    handler.setFormatter(formatter)
    if with_context:
        handler.addFilter(WorkContext())
    logger = logging.getLogger(f"servicematch.bench.{type(formatter).__name__}.{with_context}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.handlers = [handler]
    token = REQUEST_ID.set("4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e")
    try:
        with about_lead("7K3MQ9TX"):
            started = time.perf_counter()
            for n in range(lines):
                logger.info("delivery %s -> %s (%s)", n, "delivered", 200)
            return (time.perf_counter() - started) * 1e6 / lines
    finally:
        REQUEST_ID.reset(token)


def ms_each(job: Callable[[], object], times: int) -> float:
    started = time.perf_counter()
    for _ in range(times):
        job()
    return (time.perf_counter() - started) * 1000 / times


def database_figures(kind: str, beats: int, rounds: int) -> dict[str, float]:
    with fresh_database(kind) as url:
        upgrade(url)
        engine = make_engine(url)
        factory = make_session_factory(engine)
        started_at = datetime.now(UTC)
        try:
            for worker in range(3):  # the worker measured, and two others the readiness answer lists
                beat(factory, worker_id=f"bench-{worker}", host="bench", pid=worker, started_at=started_at)

            def one_beat() -> None:
                beat(factory, worker_id="bench-0", host="bench", pid=0, started_at=started_at)

            def ready_reads() -> None:
                with engine.connect() as connection:
                    database_revision(connection)
                    last_beats(connection)

            def health_read() -> None:
                with engine.connect() as connection:
                    connection.exec_driver_sql("SELECT 1")

            return interleaved(rounds, {"beat": lambda: ms_each(one_beat, beats),
                                        "ready": lambda: ms_each(ready_reads, beats),
                                        "health": lambda: ms_each(health_read, beats)})
        finally:
            engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--beats", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--append", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()

    with_ids = RequestIds(_bare, trusted_proxies="")
    plain = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    figures = interleaved(args.rounds, {
        "bare": lambda: us_per_request(_bare, args.requests),
        "ids": lambda: us_per_request(with_ids, args.requests),
        "plain": lambda: us_per_line(plain, args.lines, with_context=False),
        "text": lambda: us_per_line(TextLines(), args.lines, with_context=True),
        "json": lambda: us_per_line(JsonLines(), args.lines, with_context=True),
    })
    bare_us, ids_us, plain_us, text_us, json_us = (figures[name] for name in ("bare", "ids", "plain", "text", "json"))

    rows = ["| what | reference | measured | difference |", "|---|---|---|---|"]
    rows.append(f"| one request, bare app vs inside RequestIds (µs) | {bare_us:.1f} | {ids_us:.1f} | "
                f"{ids_us - bare_us:+.1f} |")
    for name, measured in (("text", text_us), ("JSON", json_us)):
        rows.append(f"| one log line, old plain format vs {name} with context (µs) | {plain_us:.1f} | "
                    f"{measured:.1f} | {measured - plain_us:+.1f} |")
    for kind in [kind.strip() for kind in args.databases.split(",") if kind.strip()]:
        figures = database_figures(kind, args.beats, args.rounds)
        rows.append(f"| {kind}: one heartbeat vs `SELECT 1` (ms) | {figures['health']:.2f} | {figures['beat']:.2f} | "
                    f"{figures['beat'] - figures['health']:+.2f} |")
        rows.append(f"| {kind}: /api/ready's reads vs /api/health's (ms) | {figures['health']:.2f} | "
                    f"{figures['ready']:.2f} | {figures['ready'] - figures['health']:+.2f} |")
    intro = (f"`uv run python bench/log_overhead.py` ({args.requests} requests, {args.lines} lines, {args.beats} "
             f"beats a round; medians of {args.rounds} rounds), {machine_description()}. A worker beats every 5 s.")
    body = "\n".join([intro, "", *rows])
    print(body)
    if args.append:
        write_report_section(HEADING, body)


if __name__ == "__main__":
    main()
