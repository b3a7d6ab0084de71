"""Time from pressing a receipt's stop button to the last recipient receiving `lead.revoked`.

Starts `servicematch serve` (built-in worker) with a buyer receiver, a provider webhook receiver
and a real SMTP server in this process, and two providers (both get e-mail, one a webhook too).
Submits leads (each its own e-mail and phone), reads each consent receipt's stop link, then
presses stop at a steady pace: the clock starts as POST /api/privacy/stop is sent and stops when
the last of the four parties (buyer, provider webhook, two provider mailboxes) has its notice.
Writes p50/p99/max to the "Privacy: stop to every recipient" section of docs/benchmarks.md.

    uv run python bench/privacy_stop.py [--stops 40] [--interval 0.25] [--database sqlite|postgresql|both]
"""

from __future__ import annotations

import argparse
import email
import json
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from email import policy
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "e2e"))
sys.path.insert(0, str(ROOT / "backend" / "tests"))
from delivery_support import form_submission
from privacy_server import start_privacy_server
from server import machine_description, write_report_section

from servicematch.catalog.loader import load_catalog

WAIT_SECONDS = 60
# With SMTP set, both providers get the lead by e-mail (Cool Air by webhook too): four parties.
PROVIDER_MAILBOXES = ("dispatch@coolair.example", "office@lonestar.example")


class Arrivals:
    """When each (what, requestId) reached a receiver, by this process's clock."""

    def __init__(self) -> None:
        self.times: dict[tuple[str, str], float] = {}
        self.copies = 0
        self.changed = threading.Condition()

    def note(self, key: tuple[str, str]) -> None:
        now = time.perf_counter()
        with self.changed:
            if key in self.times:
                self.copies += 1
            else:
                self.times[key] = now
            self.changed.notify_all()

    def wait(self, keys: list[tuple[str, str]]) -> float:
        with self.changed:
            if not self.changed.wait_for(lambda: all(k in self.times for k in keys), WAIT_SECONDS):
                missing = [k for k in keys if k not in self.times]
                raise RuntimeError(f"never arrived: {missing}")
            return max(self.times[k] for k in keys)


def _instrument(server, arrivals: Arrivals) -> dict[str, str]:
    """Record arrivals at each receiver; returns receipt texts by e-mail address as they come."""
    receipts: dict[str, str] = {}
    for name, receiver in (("buyer", server.buyer), ("provider", server.provider_hook)):
        original = receiver._record

        def record(handler, body, status, _original=original, _name=name):
            _original(handler, body, status)
            payload = json.loads(body)
            # The buyer's copy of a lead has no type; a provider's is "lead.matched". Events carry
            # their details in "data".
            kind = "lead" if payload.get("type", "lead.matched") == "lead.matched" else payload["type"]
            arrivals.note((f"{_name}:{kind}", payload.get("data", payload)["requestId"]))

        receiver._record = record
    smtp_add = server.smtp.add

    def add(recipients, content):
        smtp_add(recipients, content)
        message = email.message_from_string(content, policy=policy.default)
        subject = str(message["Subject"] or "")
        stop = re.search(r"Stop contacting request (\S+)", subject)
        if stop:  # each provider's mailbox that received the lead gets its own notice
            arrivals.note((f"mail:{recipients[0]}:lead.revoked", stop.group(1)))
        elif "consent receipt" in subject:
            receipts[recipients[0]] = message.get_body(preferencelist=("plain",)).get_content()
            arrivals.note(("mail:receipt", recipients[0]))

    server.smtp.add = add
    return receipts


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(backend: str, stops: int, interval: float) -> dict:
    with tempfile.TemporaryDirectory() as workdir:
        static = Path(workdir) / "site"
        (static / "assets").mkdir(parents=True)
        (static / "index.html").write_text("<!doctype html><title>bench</title><div id=root></div>")
        server = start_privacy_server(backend=backend, workdir=Path(workdir), static_dir=static,
                                      log=Path(workdir) / "server.log")
        try:
            arrivals = Arrivals()
            receipts = _instrument(server, arrivals)
            service = load_catalog(ROOT / "catalog").find("hvac", "services")
            leads = []
            with httpx.Client(base_url=server.base_url, timeout=30) as client:
                for number in range(stops):
                    address = f"bench.{uuid.uuid4().hex[:10]}@example.com"
                    body = form_submission(service, request_id=str(uuid.uuid4()), phone=f"512555{2000 + number:04d}")
                    body["consumer"]["email"] = address
                    answer = client.post("/api/submit-form", json=body)
                    answer.raise_for_status()
                    leads.append((body["requestId"], address))
                for request_id, address in leads:
                    arrivals.wait([("mail:receipt", address), ("buyer:lead", request_id),
                                   ("provider:lead", request_id)])
                latencies = []
                for request_id, address in leads:
                    token = re.search(r"/privacy/stop\?t=([\w\-.]+)", receipts[address]).group(1)
                    started = time.perf_counter()
                    client.post("/api/privacy/stop", json={"token": token}).raise_for_status()
                    last = arrivals.wait([("buyer:lead.revoked", request_id), ("provider:lead.revoked", request_id)]
                                         + [(f"mail:{box}:lead.revoked", request_id) for box in PROVIDER_MAILBOXES])
                    latencies.append((last - started) * 1000)
                    time.sleep(interval)
            return {"backend": backend, "stops": stops, "p50": statistics.median(latencies),
                    "p99": _percentile(latencies, 0.99), "max": max(latencies), "copies": arrivals.copies}
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stops", type=int, default=40)
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between stops")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    backends = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    results = [measure(backend, args.stops, args.interval) for backend in backends]
    rows = "\n".join(f"| {r['backend']} | {r['stops']} | {r['p50']:.0f} | {r['p99']:.0f} | {r['max']:.0f} | {r['copies']} |"
                     for r in results)
    body = f"""`bench/privacy_stop.py`, {datetime.now(UTC):%Y-%m-%d}, {machine_description()} (shared with other work).
From sending `POST /api/privacy/stop` (the stop page's button) to the last of the four parties
that received the lead (buyer webhook, a provider's webhook, two providers' mailboxes over SMTP) receiving
its `lead.revoked` notice, through the outbox and the server's built-in worker; one stop every
{args.interval} s. The rule allows 10 business days; the goal is under a minute.

| database | stops | p50 ms | p99 ms | max ms | duplicate notices |
|---|---|---|---|---|---|
{rows}
"""
    write_report_section("Privacy: stop to every recipient", body)
    print(body)


if __name__ == "__main__":
    main()
