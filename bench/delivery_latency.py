"""Time from a lead's 202 to the buyer endpoint receiving it, at a steady submission rate.

Starts `servicematch serve` (built-in worker, temporary SQLite file) with SERVICEMATCH_BUYER_URL
pointing at a receiver in this process, posts valid unique leads at a fixed rate for a bounded
time, and writes p50/p90/p99/max to the "Delivery latency" section of docs/benchmarks.md.

    uv run python bench/delivery_latency.py [--rate 10] [--seconds 30] [--database postgresql]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import statistics
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

# Seconds to wait, after the last post, for deliveries still on their way.
DRAIN_SECONDS = 15


class BuyerReceiver:
    """The buyer's endpoint: notes when each requestId arrives, answers 200."""

    def __init__(self) -> None:
        self.port = free_port()
        self.arrivals: dict[str, float] = {}
        self.copies = 0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                arrived = time.perf_counter()
                request_id = json.loads(body)["requestId"]
                with receiver._lock:
                    if request_id in receiver.arrivals:
                        receiver.copies += 1
                    receiver.arrivals.setdefault(request_id, arrived)
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
    consumer = {"first": "Bench", "last": "Mark", "email": "bench.mark@example.com", "phone": phone,
                "address1": "500 Congress Ave", "address2": "", "city": "Austin", "state": "TX",
                "zip": "78701", **service["hiddenParams"], **answers}
    return {"pid": 16, "sid": 143, "cid": service["cid"], "istest": "N", "requestId": request_id,
            "consumer": consumer, "customquestions": answers,
            "click": {"domain_url": "http://127.0.0.1/services/hvac", "externalid": "", "subid1": "",
                      "subid2": "", "fbclid": "", "fbp": "", "useragent": "bench", "ip": "",
                      "trustedform": ""}}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(base_url: str, receiver: BuyerReceiver, *, rate: float, seconds: float) -> dict:
    service = httpx.get(f"{base_url}/api/services/services/hvac", timeout=10).json()
    accepted: dict[str, float] = {}
    failures: list[str] = []
    client = httpx.Client(timeout=10)

    def submit(number: int) -> None:
        request_id = str(uuid.uuid4())
        # Distinct valid numbers, so no lead is a duplicate (duplicates are not sent to the buyer).
        body = lead_body(service, request_id=request_id, phone=f"512555{number % 10_000:04d}")
        response = client.post(f"{base_url}/api/submit-form", json=body)
        if response.status_code == 202:
            accepted[request_id] = time.perf_counter()
        else:
            failures.append(f"{response.status_code} {response.text[:120]}")

    total = int(rate * seconds)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=16) as pool:
        for number in range(total):
            # A fixed schedule: a slow answer does not delay the next lead.
            time.sleep(max(0.0, started + number / rate - time.perf_counter()))
            pool.submit(submit, number)
    deadline = time.perf_counter() + DRAIN_SECONDS
    while time.perf_counter() < deadline and not set(accepted) <= set(receiver.arrivals):
        time.sleep(0.05)
    client.close()
    # The worker is woken by the commit, so a lead can reach the buyer before our client has read
    # the 202; that counts as zero.
    latencies = [max(0.0, receiver.arrivals[r] - t) * 1000 for r, t in accepted.items() if r in receiver.arrivals]
    return {"sent": total, "accepted": len(accepted), "refused": failures[:3], "refused_count": len(failures),
            "delivered": len(latencies), "copies": receiver.copies,
            "p50": percentile(latencies, 0.50), "p90": percentile(latencies, 0.90),
            "p99": percentile(latencies, 0.99), "max": max(latencies), "mean": statistics.mean(latencies)}


def measure(*, rate: float, seconds: float, database: str) -> dict:
    """One run on a fresh server and database."""
    receiver = BuyerReceiver()
    env = {"SERVICEMATCH_BUYER_URL": receiver.url, "SERVICEMATCH_BUYER_SECRET": "bench-secret",
           "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000", "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_DATA_KEY": base64.b64encode(os.urandom(32)).decode()}
    with contextlib.ExitStack() as stack:
        if database == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            database_url = f"sqlite:///{folder}/bench.db"
        else:
            database_url = stack.enter_context(throwaway_postgres())
        base_url = stack.enter_context(running_server(database_url, env))
        result = run(base_url, receiver, rate=rate, seconds=seconds)
    receiver.server.shutdown()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="10,20", help="leads per second, one run each")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    rows, verdicts = [], []
    for rate in [float(r) for r in args.rates.split(",")]:
        result = measure(rate=rate, seconds=args.seconds, database=args.database)
        print(json.dumps({"rate": rate, **result}, indent=2))
        ok = result["p99"] < 1000 and result["delivered"] == result["accepted"] and not result["refused_count"]
        verdicts.append(ok)
        rows.append(f"| {rate:g}/s | {result['accepted']} | {result['delivered']} | {result['copies']} | "
                    f"{result['p50']:.0f} ms | {result['p90']:.0f} ms | {result['p99']:.0f} ms | "
                    f"{result['max']:.0f} ms |")
    table = "\n".join(rows)
    body = f"""
From the `202 Accepted` of `POST /api/submit-form` to the buyer endpoint receiving the lead, with
the worker built into `servicematch serve` (woken by the lead's commit, not by its poll).
Each rate is a fresh server and {args.database} database, loaded for {args.seconds:g} s.

- Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine_description()}; load average
  {load_before:.1f} before the runs (other work shares these cores)
- Command: `uv run python bench/delivery_latency.py --rates {args.rates} --seconds {args.seconds:g} --database {args.database}`

| rate | accepted | delivered | copies | p50 | p90 | p99 | max |
|---:|---:|---:|---:|---:|---:|---:|---:|
{table}

Target p99 under 1 s: {"met at every rate" if all(verdicts) else "missed in at least one run"}.
Latencies are measured in the benchmark process (the client and the receiver share one clock);
a lead that arrives before the client has read its 202 counts as 0 ms. The machine is shared
with other work, so the tail moves between runs.
"""
    if not args.no_report:
        write_report_section("Delivery latency", body)


if __name__ == "__main__":
    main()
