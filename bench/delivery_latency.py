"""Delivery against intake: can the worker keep up with the leads the API accepts?

Each lead goes to the buyer and to three matched providers (four signed webhooks, each its own
receiver in this process). First the intake capacity is measured: the server with its worker off,
20 clients posting as fast as they can. Then, for each share of that capacity (50%, 100%, 150%), a
fresh server with its delivery worker on gets leads at that fixed rate, and the run records the rate
leads were fully delivered at, and p50/p99 from each lead's 202 to the buyer's receipt and to the
last of its four receipts. Results go to the "Delivery latency" section of docs/benchmarks.md.

    uv run python bench/delivery_latency.py [--seconds 20] [--databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import (
    free_port,
    machine_description,
    running_server,
    throwaway_postgres,
    write_report_section,
)

CAPACITY_CLIENTS = 20
SHARES = (0.5, 1.0, 1.5)
# Seconds to wait, after the last post, for deliveries still on their way.
DRAIN_SECONDS = 60
ADMIN_TOKEN = "bench-admin-token-" + "x" * 32
ROOT = Path(__file__).resolve().parents[1]
SEPARATE_WORKER_POLL_SECONDS = 0.2


class Receiver:
    """One endpoint: notes when each requestId first arrives, answers 200 on a kept-alive connection."""

    def __init__(self, arrivals: dict[tuple[str, str], float], lock: threading.Lock, name: str) -> None:
        self.port, self.name = free_port(), name
        self.copies = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                arrived = time.perf_counter()
                payload = json.loads(body)  # a provider's lead.matched event has it in "data"
                key = (receiver.name, payload.get("data", payload)["requestId"])
                with lock:
                    if key in arrivals:
                        receiver.copies += 1
                    arrivals.setdefault(key, arrived)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/leads"


def lead_body(service: dict, *, request_id: str, phone: str) -> dict:
    """A valid lead form submission for the service, as the browser builds it."""
    answers = {}
    for field in service["fields"]:
        mapping = field.get("mapping")
        if mapping and mapping.startswith("cq"):
            allowed = [o for o in field.get("options") or [] if o not in (field.get("disqualifiers") or [])]
            answers[mapping] = allowed[0] if allowed else "Benchmark answer"
    # Each lead a person of its own (e-mail and street from its request and phone), as real traffic
    # is: the quality gate holds a burst of leads from one e-mail or one address for review.
    consumer = {"first": "Bench", "last": "Mark", "email": f"bench.{request_id[:12]}@example.com", "phone": phone,
                "address1": f"{int(phone[-4:]) + 1} Congress Ave", "address2": "", "city": "Austin", "state": "TX",
                "zip": "78701", **service["hiddenParams"], **answers}
    return {"pid": 16, "sid": 143, "cid": service["cid"], "istest": "N", "requestId": request_id,
            "consumer": consumer, "customquestions": answers,
            "click": {"domain_url": "http://127.0.0.1/services/hvac", "externalid": "", "subid1": "",
                      "subid2": "", "fbclid": "", "fbp": "", "useragent": "bench", "ip": "",
                      "trustedform": ""}}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else float("nan")


class Submitter:
    """Posts unique valid leads and notes when each 202 was read."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.service = httpx.get(f"{base_url}/api/services/services/hvac", timeout=10).json()
        self.client = httpx.Client(timeout=30, limits=httpx.Limits(max_connections=64))
        self.accepted: dict[str, float] = {}
        self.refused = 0
        self._numbers = iter(range(10_000_000))
        self._lock = threading.Lock()

    def submit(self) -> None:
        with self._lock:
            number = next(self._numbers)
        request_id = str(uuid.uuid4())
        # Distinct valid numbers, so no lead is a duplicate (duplicates are not sent on).
        body = lead_body(self.service, request_id=request_id, phone=f"512555{number % 10_000:04d}")
        try:
            ok = self.client.post(f"{self.base_url}/api/submit-form", json=body).status_code == 202
        except httpx.HTTPError:
            ok = False
        with self._lock:
            if ok:
                self.accepted[request_id] = time.perf_counter()
            else:
                self.refused += 1


def server_env(receivers: list[Receiver], *, worker: bool) -> dict[str, str]:
    return {"SERVICEMATCH_BUYER_URL": receivers[0].url, "SERVICEMATCH_BUYER_SECRET": "bench-secret-" + "b" * 32,
            "SERVICEMATCH_BUYER_NAME": "Bench Buyer LLC",
            "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000", "SERVICEMATCH_ENVIRONMENT": "test",
            "SERVICEMATCH_ADMIN_TOKEN": ADMIN_TOKEN, "SERVICEMATCH_SMTP_HOST": "",
            "SERVICEMATCH_WORKER_ENABLED": "true" if worker else "false",
            "SERVICEMATCH_DATA_KEY": base64.b64encode(os.urandom(32)).decode()}


def add_providers(base_url: str, receivers: list[Receiver]) -> None:
    for receiver in receivers:
        answer = httpx.post(f"{base_url}/api/admin/providers", timeout=10,
                            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                            json={"name": receiver.name, "contact_email": f"{receiver.name}@example.com",
                                  "services": ["hvac"], "states": ["TX"], "webhook_url": receiver.url,
                                  "webhook_secret": "provider-secret"})
        answer.raise_for_status()


@contextlib.contextmanager
def worker_process(database_url: str, env: dict[str, str]):
    """`servicematch worker` beside the server; it is not woken by the server's commits, so it polls."""
    process = subprocess.Popen([sys.executable, "-m", "servicematch.cli", "worker"], cwd=ROOT,
                               env={**os.environ, **env, "SERVICEMATCH_DATABASE_URL": database_url,
                                    "SERVICEMATCH_WORKER_POLL_SECONDS": str(SEPARATE_WORKER_POLL_SECONDS)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextlib.contextmanager
def fresh_server(database: str, receivers: list[Receiver], *, worker: bool, separate: bool = False):
    with contextlib.ExitStack() as stack:
        if database == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            database_url = f"sqlite:///{folder}/bench.db"
        else:
            database_url = stack.enter_context(throwaway_postgres())
        env = server_env(receivers, worker=worker and not separate)
        base_url = stack.enter_context(running_server(database_url, env))
        add_providers(base_url, receivers[1:])
        if worker and separate:
            stack.enter_context(worker_process(database_url, env))
        yield base_url


def intake_capacity(database: str, seconds: float) -> float:
    """Leads accepted per second by CAPACITY_CLIENTS clients in a loop, with no worker running."""
    arrivals, lock = {}, threading.Lock()
    receivers = [Receiver(arrivals, lock, name) for name in ("buyer", "provider-a", "provider-b", "provider-c")]
    with fresh_server(database, receivers, worker=False) as base_url:
        submitter = Submitter(base_url)
        stop = time.perf_counter() + seconds

        def loop() -> None:
            while time.perf_counter() < stop:
                submitter.submit()

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=CAPACITY_CLIENTS) as pool:
            for _ in range(CAPACITY_CLIENTS):
                pool.submit(loop)
        rate = len(submitter.accepted) / (time.perf_counter() - started)
    for receiver in receivers:
        receiver.server.shutdown()
    return rate


def delivery_run(database: str, rate: float, seconds: float, *, separate: bool) -> dict:
    """Leads at a fixed rate to a server with its worker on; how fast and how soon they all arrive."""
    arrivals: dict[tuple[str, str], float] = {}
    lock = threading.Lock()
    receivers = [Receiver(arrivals, lock, name) for name in ("buyer", "provider-a", "provider-b", "provider-c")]
    names = [receiver.name for receiver in receivers]
    with fresh_server(database, receivers, worker=True, separate=separate) as base_url:
        submitter = Submitter(base_url)
        total = int(rate * seconds)
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=64) as pool:
            for number in range(total):
                # A fixed schedule: a slow answer does not delay the next lead.
                time.sleep(max(0.0, started + number / rate - time.perf_counter()))
                pool.submit(submitter.submit)
        load_ended = time.perf_counter()
        deadline = load_ended + DRAIN_SECONDS
        while time.perf_counter() < deadline:
            with lock:
                if all((name, r) in arrivals for r in submitter.accepted for name in names):
                    break
            time.sleep(0.05)
    for receiver in receivers:
        receiver.server.shutdown()
    complete = {r: max(arrivals[(n, r)] for n in names) for r in submitter.accepted
                if all((n, r) in arrivals for n in names)}
    to_buyer = [max(0.0, arrivals[("buyer", r)] - t) * 1000 for r, t in submitter.accepted.items()
                if ("buyer", r) in arrivals]
    to_all = [max(0.0, complete[r] - t) * 1000 for r, t in submitter.accepted.items() if r in complete]
    accepted_span = max(submitter.accepted.values()) - started if submitter.accepted else 1
    delivered_span = max(complete.values()) - started if complete else 1
    return {"offered": rate, "accepted": len(submitter.accepted), "refused": submitter.refused,
            "accepted_rate": len(submitter.accepted) / accepted_span,
            "delivered": len(complete), "delivered_rate": len(complete) / delivered_span,
            "copies": sum(r.copies for r in receivers),
            "buyer_p50": percentile(to_buyer, 0.5), "buyer_p99": percentile(to_buyer, 0.99),
            "all_p50": percentile(to_all, 0.5), "all_p99": percentile(to_all, 0.99),
            "drain_s": max(0.0, max(complete.values(), default=load_ended) - load_ended)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--separate-worker", action="store_true",
                        help="`serve --no-worker` plus one `servicematch worker` process, instead of the built-in worker")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    rows, kept_up = [], []
    for database in args.databases.split(","):
        capacity = intake_capacity(database, args.seconds)
        print(json.dumps({"database": database, "intake_capacity": round(capacity, 1)}))
        for share in SHARES:
            result = delivery_run(database, capacity * share, args.seconds, separate=args.separate_worker)
            print(json.dumps({"database": database, "share": share, **result}, default=round))
            # Keeping up: every accepted lead fully delivered, at the rate leads were accepted.
            kept_up.append(result["delivered"] == result["accepted"]
                           and result["delivered_rate"] >= 0.95 * result["accepted_rate"])
            rows.append(
                f"| {database} | {share:.0%} ({result['offered']:.0f}/s) | {result['accepted']} "
                f"({result['accepted_rate']:.0f}/s) | {result['delivered']} ({result['delivered_rate']:.0f}/s) | "
                f"{result['copies']} | {result['buyer_p50']:.0f} / {result['buyer_p99']:.0f} ms | "
                f"{result['all_p50']:.0f} / {result['all_p99']:.0f} ms | {result['drain_s']:.1f} s |")
        rows.append(f"| {database} | intake capacity | {capacity:.0f} leads/s with {CAPACITY_CLIENTS} clients, "
                    "worker off | | | | | |")
    table = "\n".join(rows)
    if args.separate_worker:
        how = (f"`serve --no-worker` and one `servicematch worker` process (polling every "
               f"{SEPARATE_WORKER_POLL_SECONDS:g} s when idle)")
        heading, flag = "Delivery latency, separate worker process", " --separate-worker"
    else:
        heading, how, flag = "Delivery latency", "the worker `servicematch serve` starts beside itself (a child process)", ""
    body = f"""
Every lead goes to the buyer and to three matched providers: four signed webhooks, each its own
local receiver. Intake capacity is measured first (the server with its worker off, {CAPACITY_CLIENTS}
clients posting in a loop); then each share of it is offered at a fixed rate for {args.seconds:g} s to a
fresh server with {how} (defaults: 32 sends at once, at most 8 per endpoint).
"Delivered" counts leads that reached all four receivers, and its rate is over the time from the
first post to the last lead's fourth receipt; "drain" is how long after the load stopped the last
receipt came. Latencies run from the client reading the 202 to the buyer's receipt, and to the
last of the four receipts.

- Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine_description()}; load average
  {load_before:.1f} before the runs (the load generator, the server and the four receivers share
  these cores with other work)
- Command: `uv run python bench/delivery_latency.py --seconds {args.seconds:g} --databases {args.databases}{flag}`

| database | offered (share of intake) | accepted | fully delivered | copies | to buyer p50 / p99 | to all four p50 / p99 | drain |
|---|---|---:|---:|---:|---:|---:|---:|
{table}

Delivery kept up with intake (every accepted lead delivered, at 95% or more of the accepted
rate) in {sum(kept_up)} of {len(kept_up)} runs.
"""
    if not args.no_report:
        write_report_section(heading, body)


if __name__ == "__main__":
    main()
