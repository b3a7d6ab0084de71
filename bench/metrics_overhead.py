"""What /metrics' instrumentation adds to intake's CPU per lead, against the code before it.

Three servers side by side, each `servicematch serve --no-worker` on a fresh database of its own:

- "reference": the tree before the metrics (`--reference DIR`, by default /tmp/ref-base), run with
  this tree's Python and its own package (PYTHONPATH);
- "metrics off": this tree with the metrics taken out as it starts (no metric files, no request
  timing, no /metrics, the lead counter a no-op), so that what else changed since the reference
  is not charged to the metrics;
- "current": this tree, as `serve` runs it: its processes share SERVICEMATCH_METRICS_DIR, so every
  count is written to the metric files (Prometheus' multiprocess mode), as in production.

Each round sends the same number of valid leads to one server (every lead a new requestId, phone
and client address; rate limit lifted, X-Forwarded-For believed from 127.0.0.1), from 16
connections, and reads the server process's CPU time (utime + stime, /proc) before and after: the
figure is CPU milliseconds per stored lead. Rounds alternate reference, metrics off, current, so a
noisy moment on the machine lands on each in turn; the medians are compared. Then the cost of one scrape of the
current server, and the instrumentation's own time per request measured in a process of its own
(the middleware and the counters around an app that does nothing), which the noise of a shared
machine cannot blur.

    uv run python bench/metrics_overhead.py [--reference DIR] [--leads 1500] [--rounds 5]
                                            [--databases sqlite] [--append]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_throughput import lead_template
from auction_load import cpu_seconds
from intake_vs_reference import count_rows
from server import ROOT, free_port, fresh_database, machine_description, write_report_section

from servicematch.devserver import start_server, stop_server

HEADING = "Metrics overhead on intake"
GOAL = 0.02
CONNECTIONS = 16
SCRAPES = 20
DEFAULT_REFERENCE = Path("/tmp/ref-base")
SERVER_ENV = {
    "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000",
    "SERVICEMATCH_TRUSTED_PROXIES": "127.0.0.1",
    "SERVICEMATCH_WORKER_ENABLED": "false",
    "SERVICEMATCH_BUYER_URL": "",
    "SERVICEMATCH_SMTP_HOST": "",
    "SERVICEMATCH_METRICS_ALLOW": "127.0.0.1",
    # The reference tree has no built site of its own: both serve this tree's.
    "SERVICEMATCH_STATIC_DIR": str(ROOT / "frontend" / "dist"),
}


# `servicematch serve --no-worker` of this tree, its metrics taken out before the app is built.
METRICS_OFF = """
from servicematch import app as composition
from servicematch.cli import main
from servicematch.intake import router as intake_router
composition.share_metrics_in = lambda *args, **kwargs: None
composition.install_metrics_endpoint = lambda app, settings: None
composition.install_request_metrics = lambda app: None
intake_router.count_lead = lambda outcome: None
main(["serve", "--no-worker"])
"""


@contextlib.contextmanager
def server(code_root: Path, database_url: str, folder: Path, *, metrics_off: bool = False
           ) -> Iterator[tuple[str, int]]:
    """`servicematch serve --no-worker` of `code_root`; yields its base URL and process id."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    env.update({**SERVER_ENV, "SERVICEMATCH_DATABASE_URL": database_url, "HOST": "127.0.0.1", "PORT": str(port),
                "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}", "PYTHONPATH": str(code_root / "backend"),
                "SERVICEMATCH_METRICS_DIR": str(folder / "metrics"),
                "SERVICEMATCH_DATA_KEY_FILE": str(folder / "data.key")})
    # `exec`: the process measured is the server itself, not the shell.
    run = f"-c {shlex.quote(METRICS_OFF)}" if metrics_off else "-m servicematch.cli serve --no-worker"
    command = ("/bin/sh", "-c", f"cd {shlex.quote(str(code_root))} && exec {shlex.quote(sys.executable)} {run}")
    base_url = f"http://127.0.0.1:{port}"
    process = start_server(env=env, base_url=base_url, command=command)
    try:
        yield base_url, process.pid
    finally:
        stop_server(process)


class Leads:
    """Valid, distinct lead bodies: a new requestId, phone and client address each."""

    def __init__(self) -> None:
        self.template = lead_template()
        self.count = 0

    def next(self) -> tuple[str, dict[str, str]]:
        self.count += 1
        n = self.count
        exchange = 200 + (n // 10000) % 790
        exchange += exchange % 100 == 11  # no N11 exchanges
        phone = f"512{exchange:03d}{n % 10000:04d}"
        body = self.template.replace("__REQUEST_ID__", str(uuid.uuid4())).replace("__PHONE__", phone)
        address = f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"
        return body, {"Content-Type": "application/json", "X-Forwarded-For": address}


async def send_leads(base_url: str, leads: Leads, how_many: int) -> int:
    """POST `how_many` leads from CONNECTIONS connections; how many were answered 202."""
    accepted = 0
    left = how_many
    async with httpx.AsyncClient(base_url=base_url, timeout=60,
                                 limits=httpx.Limits(max_connections=CONNECTIONS)) as client:
        async def one_connection() -> None:
            nonlocal accepted, left
            while left > 0:
                left -= 1
                body, headers = leads.next()
                for attempt in range(3):
                    try:
                        answer = await client.post("/api/submit-form", content=body, headers=headers)
                        break
                    except httpx.TransportError:
                        # A keep-alive connection the server closed as this request went out: the
                        # same body again (the same requestId, so never a second lead).
                        if attempt == 2:
                            raise
                accepted += answer.status_code == 202
        await asyncio.gather(*(one_connection() for _ in range(CONNECTIONS)))
    return accepted


def round_cpu(base_url: str, pid: int, database_url: str, leads: Leads, how_many: int) -> dict:
    stored_before = count_rows(database_url, "leads")
    cpu_before, started = cpu_seconds(pid), time.monotonic()
    accepted = asyncio.run(send_leads(base_url, leads, how_many))
    elapsed = time.monotonic() - started
    time.sleep(0.3)  # the last commits' logging
    cpu = cpu_seconds(pid) - cpu_before
    stored = count_rows(database_url, "leads") - stored_before
    if accepted != how_many or stored != how_many:
        raise RuntimeError(f"{base_url}: {accepted} accepted, {stored} stored of {how_many}")
    return {"cpu_ms_per_lead": cpu * 1000 / stored, "leads_per_s": stored / elapsed, "load": os.getloadavg()[0]}


def scrape_cost(base_url: str, pid: int) -> dict:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        client.get("/metrics")
        before = cpu_seconds(pid)
        sizes = [len(client.get("/metrics", headers={"Accept-Encoding": "identity"}).content) for _ in range(SCRAPES)]
        cpu = cpu_seconds(pid) - before
    return {"cpu_ms_per_scrape": cpu * 1000 / SCRAPES, "bytes": statistics.median(sizes)}


# The instrumentation alone, in a process of its own that shares a metrics directory as `serve`
# does: an ASGI app that answers at once, bare and inside the two middlewares, counting a lead
# per request as the lead routes do.
INSTRUMENTATION = r"""
import asyncio, sys, tempfile, time
from pathlib import Path
from servicematch.kernel import metrics
metrics.share_metrics_in(Path(tempfile.mkdtemp()), process_kind="web")
from servicematch.ops.metrics import MetricsEndpoint, RequestMetrics, allowed_networks

class Route:
    path = "/api/submit-form"

async def bare(scope, receive, send):
    scope["route"] = Route
    await send({"type": "http.response.start", "status": 202, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})

async def counted(scope, receive, send):
    await bare(scope, receive, send)
    metrics.count_lead("accepted")

class NoFigures:
    def collect(self):
        return []

wrapped = RequestMetrics(MetricsEndpoint(counted, networks=allowed_networks("127.0.0.1"), trusted_proxies="",
                                         figures=NoFigures()))

async def receive():
    return {"type": "http.request", "body": b""}

async def send(message):
    pass

async def run(app, n):
    started = time.process_time()
    for _ in range(n):
        await app({"type": "http", "method": "POST", "path": "/api/submit-form", "headers": []}, receive, send)
    return time.process_time() - started

n = int(sys.argv[1])
asyncio.run(run(wrapped, n // 10))
results = [(asyncio.run(run(bare, n)), asyncio.run(run(wrapped, n))) for _ in range(5)]
print(min(w - b for b, w in results) / n * 1e6)
"""


def instrumentation_us(requests: int = 50_000) -> float:
    done = subprocess.run([sys.executable, "-c", INSTRUMENTATION, str(requests)], cwd=ROOT / "backend",
                          capture_output=True, text=True, check=True,
                          env={key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"})
    return float(done.stdout.strip().splitlines()[-1])


def measure(kind: str, reference: Path, leads_per_round: int, rounds: int) -> dict:
    runs: dict[str, list[dict]] = {"reference": [], "metrics off": [], "current": []}
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        urls = {name: stack.enter_context(fresh_database(kind)) for name in runs}
        servers = {
            "reference": stack.enter_context(server(reference, urls["reference"], folder / "reference")),
            "metrics off": stack.enter_context(server(ROOT, urls["metrics off"], folder / "off", metrics_off=True)),
            "current": stack.enter_context(server(ROOT, urls["current"], folder / "current")),
        }
        leads = Leads()
        for name, (base_url, pid) in servers.items():
            round_cpu(base_url, pid, urls[name], leads, 200)  # warm-up: imports, pools, caches
        for number in range(rounds):
            for name, (base_url, pid) in servers.items():
                run = round_cpu(base_url, pid, urls[name], leads, leads_per_round)
                runs[name].append(run)
                print(f"{kind:10} round {number + 1} {name:11} {run['cpu_ms_per_lead']:.3f} ms CPU/lead "
                      f"{run['leads_per_s']:6.0f} leads/s load {run['load']:.1f}", flush=True)
        scrape = scrape_cost(*servers["current"])
    medians = {name: statistics.median(r["cpu_ms_per_lead"] for r in found) for name, found in runs.items()}
    return {"database": kind, "runs": runs, "medians": medians, "scrape": scrape}


def report(results: list[dict], *, reference: Path, leads: int, rounds: int, instrumentation: float,
           started: datetime, load: tuple[tuple, tuple]) -> str:
    lines = [
        (f"Intake's CPU per lead with the metrics' instrumentation (this tree, its processes sharing a "
         f"metrics directory as `serve` runs them) against the same tree with the metrics taken out as it "
         f"starts (\"metrics off\") and against the tree before them ({reference}), side by side in one run: "
         f"`servicematch serve --no-worker` each, a fresh database each, {rounds} alternating rounds of "
         f"{leads} valid leads from {CONNECTIONS} connections after a 200-lead warm-up. CPU is the server "
         "process's utime + stime over the round, divided by the leads stored; the table shows the median "
         "round. \"Added\" compares the current tree with its metrics on and off: the reference also "
         "lacks the other work done since it (request ids, logging, the quality gate's columns). "
         f"Goal: under {GOAL:.0%} added."),
        "",
        (f"- Run: {started:%Y-%m-%d %H:%M} UTC on {machine_description()}; load average "
         f"{load[0][0]:.1f} before, {load[1][0]:.1f} after (a shared machine: the load generator and the "
         "servers share its cores with other work)."),
        f"- Command: `uv run python bench/metrics_overhead.py --reference {reference} --leads {leads} --rounds {rounds}`",
        "",
        ("| database | reference ms CPU/lead | metrics off | current | each round (ref / off / current) | "
         "added (current / off) | current / reference | scrape ms CPU | scrape bytes |"),
        "|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for result in results:
        medians = result["medians"]
        ref, off, cur = medians["reference"], medians["metrics off"], medians["current"]
        rounds_text = ", ".join(" / ".join(f"{run['cpu_ms_per_lead']:.2f}" for run in each)
                                for each in zip(*(result["runs"][name] for name in ("reference", "metrics off",
                                                                                   "current"))))
        lines.append(f"| {result['database']} | {ref:.3f} | {off:.3f} | {cur:.3f} | {rounds_text} | "
                     f"{cur / off - 1:+.1%} | {cur / ref - 1:+.1%} | {result['scrape']['cpu_ms_per_scrape']:.1f} | "
                     f"{result['scrape']['bytes']:.0f} |")
    off_cpu = results[0]["medians"]["metrics off"] * 1000
    lines += ["", (f"The instrumentation alone (request timing by route, the /metrics check, the lead counter, "
                   f"written to the metric files) costs {instrumentation:.1f} µs of CPU per request, measured in a "
                   f"process of its own: {instrumentation / off_cpu:.2%} of the {off_cpu:.0f} µs a lead costs "
                   f"with the metrics off (goal: under {GOAL:.0%}).")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--leads", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--databases", default="sqlite")
    parser.add_argument("--append", action="store_true", help="write the section of docs/benchmarks.md")
    args = parser.parse_args()
    started, load_before = datetime.now(UTC), os.getloadavg()
    results = [measure(kind, args.reference.resolve(), args.leads, args.rounds) for kind in args.databases.split(",")]
    instrumentation = instrumentation_us()
    text = report(results, reference=args.reference.resolve(), leads=args.leads, rounds=args.rounds,
                  instrumentation=instrumentation, started=started, load=(load_before, os.getloadavg()))
    print(text)
    if args.append:
        write_report_section(HEADING, text)


if __name__ == "__main__":
    main()
