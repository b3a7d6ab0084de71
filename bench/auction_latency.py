"""Auction latency: from a lead's commit to the winning buyer's post, with 10 local buyers.

One local HTTP server in this process plays 10 buyers, each its own ping path and post path.
A ping is answered after a random 0-100 ms with a random bid ($5-$50); a post is answered 200 at
once and its arrival noted. The buyers are added with `servicematch buyers add` (all exclusive,
so each lead has exactly one winner, the highest bid) against a fresh database before
`servicematch serve` (its built-in worker on) starts; no providers and no SERVICEMATCH_BUYER_URL.

Part 1 ("steady"): leads are submitted at a modest fixed rate for a bounded time; for each lead the
time from its commit (leads.created_at, carried as `createdAt` in the post) and from the client
reading the 202 to the post's arrival, p50, p99 and max.

Part 2 ("late buyer"): SERVICEMATCH_PING_TIMEOUT_MS is lowered (300 by default) and one of the 10
buyers answers after the deadline with the highest bid; leads are sent one at a time, so each
lead's pings are the ones that arrive between its submission and its post. The post must arrive
within the deadline + 50 ms of the lead's first ping arriving; the max is reported.

Results go to the "Auction latency" section of docs/benchmarks.md.

    uv run python bench/auction_latency.py [--rate 5] [--seconds 20] [--late-leads 20]
                                           [--late-timeout-ms 300] [--databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from delivery_latency import lead_body, percentile
from server import (
    ROOT,
    free_port,
    fresh_database,
    machine_description,
    running_server,
    write_report_section,
)

BUYERS = 10
PING_DELAY_MS = (0, 100)
BID_DOLLARS = (5.0, 50.0)
LATE_BID = 99.0
# How far past the deadline the late buyer answers.
LATE_EXTRA_MS = 300
GOAL_P99_MS = 200
GOAL_PAST_DEADLINE_MS = 50
# After the last submission, how long to wait for posts still on their way.
DRAIN_SECONDS = 15
WARM_UP_SECONDS = 180


class Buyers:
    """One HTTP server, BUYERS buyers: POST /b{n}/ping answers a bid, POST /b{n}/post notes the lead."""

    def __init__(self, *, late_buyer: int | None = None, late_ms: int = 0) -> None:
        self.port = free_port()
        self.lock = threading.Lock()
        self.posts: dict[str, dict] = {}  # requestId -> first arrival
        self.extra_posts = 0
        self.pings: list[tuple[float, int]] = []  # (perf_counter at arrival, buyer)
        self.late_buyer, self.late_ms = late_buyer, late_ms
        buyers = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                arrived, arrived_wall = time.perf_counter(), time.time()
                _, name, kind = self.path.split("/")[:3]
                buyer = int(name[1:])
                if kind == "ping":
                    with buyers.lock:
                        buyers.pings.append((arrived, buyer))
                    if buyer == buyers.late_buyer:
                        time.sleep(buyers.late_ms / 1000)
                        answer = {"bid": LATE_BID}
                    else:
                        time.sleep(random.uniform(*PING_DELAY_MS) / 1000)
                        answer = {"bid": round(random.uniform(*BID_DOLLARS), 2)}
                    self._answer(json.dumps(answer).encode())
                    return
                payload = json.loads(body)
                created = datetime.fromisoformat(payload["createdAt"]).timestamp()
                with buyers.lock:
                    if payload["requestId"] in buyers.posts:
                        buyers.extra_posts += 1
                    else:
                        buyers.posts[payload["requestId"]] = {"at": arrived, "wall": arrived_wall,
                                                              "created": created, "buyer": buyer}
                self._answer(b"{}")

            def _answer(self, body: bytes) -> None:
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the server stopped waiting (a late answer): nothing to tell it

            def log_message(self, *_args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, buyer: int, kind: str) -> str:
        return f"http://127.0.0.1:{self.port}/b{buyer}/{kind}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def servicematch(database_url: str, env: dict[str, str], *args: str) -> str:
    completed = subprocess.run([sys.executable, "-m", "servicematch.cli", *args], cwd=ROOT, capture_output=True, check=False,
                               text=True, env={**os.environ, **env, "SERVICEMATCH_DATABASE_URL": database_url})
    if completed.returncode != 0:
        raise RuntimeError(f"servicematch {' '.join(args)} failed:\n{completed.stdout}\n{completed.stderr}")
    return completed.stdout


def add_buyers(database_url: str, env: dict[str, str], buyers: Buyers) -> None:
    """Migrate the fresh database, then `servicematch buyers add` each buyer."""
    servicematch(database_url, env, "migrate")
    for n in range(BUYERS):
        secret = "whsec_" + base64.b64encode(os.urandom(24)).decode()
        servicematch(database_url, env, "buyers", "add", "--name", f"Bench buyer {n}", "--ping-url",
                     buyers.url(n, "ping"), "--post-url", buyers.url(n, "post"), "--exclusive",
                     "--secret", secret, "--terms", "credit")


def server_env(ping_timeout_ms: int) -> dict[str, str]:
    return {"SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000", "SERVICEMATCH_ENVIRONMENT": "test",
            "SERVICEMATCH_SMTP_HOST": "", "SERVICEMATCH_BUYER_URL": "", "SERVICEMATCH_WORKER_ENABLED": "true",
            "SERVICEMATCH_PING_TIMEOUT_MS": str(ping_timeout_ms),
            "SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS": "true", "SERVICEMATCH_TRUSTED_PROXIES": "127.0.0.1",
            "SERVICEMATCH_DATA_KEY": base64.b64encode(os.urandom(32)).decode()}


@contextlib.contextmanager
def fresh_server(database: str, buyers: Buyers, ping_timeout_ms: int) -> Iterator[tuple[str, str]]:
    """(the server's base URL, its database URL)"""
    env = server_env(ping_timeout_ms)
    with fresh_database(database) as database_url:
        add_buyers(database_url, env, buyers)
        with running_server(database_url, env, ("--no-migrate",)) as base_url:
            yield base_url, database_url


def auction_times(database_url: str) -> dict[str, tuple[int, int]]:
    """requestId -> (ms from commit to the last bid or pass taken, ms from commit to the outcome), as the
    worker recorded them in the auction's waterfall (auction_steps.at_ms)."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT l.request_id, s.kind, s.at_ms FROM auction_steps s JOIN leads l ON l.id = s.lead_id "
                "WHERE s.kind IN ('bid', 'pass', 'outcome')")).all()
    finally:
        engine.dispose()
    bids: dict[str, int] = {}
    outcomes: dict[str, int] = {}
    for request_id, kind, at_ms in rows:
        if kind == "outcome":
            outcomes[request_id] = min(at_ms, outcomes.get(request_id, at_ms))
        else:
            bids[request_id] = max(at_ms, bids.get(request_id, at_ms))
    return {request_id: (bids.get(request_id, at), at) for request_id, at in outcomes.items()}


class Client:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.service = httpx.get(f"{base_url}/api/services/services/hvac", timeout=30).json()
        self.http = httpx.Client(timeout=30)
        self.numbers = iter(range(10_000))
        self.lock = threading.Lock()
        self.accepted: dict[str, tuple[float, float]] = {}  # requestId -> (sent, 202 read)
        self.refused = 0

    def submit(self) -> str | None:
        with self.lock:
            number = next(self.numbers)
        request_id = str(uuid.uuid4())
        body = lead_body(self.service, request_id=request_id, phone=f"512555{number:04d}")
        sent = time.perf_counter()
        try:
            ok = self.http.post(f"{self.base_url}/api/submit-form", json=body).status_code == 202
        except httpx.HTTPError:
            ok = False
        with self.lock:
            if ok:
                self.accepted[request_id] = (sent, time.perf_counter())
            else:
                self.refused += 1
        return request_id if ok else None


def wait_for_posts(buyers: Buyers, wanted: set[str], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with buyers.lock:
            if wanted <= buyers.posts.keys():
                return
        time.sleep(0.05)


def warm_up(client: Client, buyers: Buyers) -> None:
    """One lead, not counted, posted before anything is measured: `serve` answers before the worker
    it starts beside itself (a child process, which imports the app again) is routing, and on a
    busy machine that takes a while; the first auction also opens the first connections."""
    started = time.perf_counter()
    request_id = client.submit()
    wait_for_posts(buyers, {request_id}, WARM_UP_SECONDS)
    with buyers.lock:
        if request_id not in buyers.posts:
            raise RuntimeError(f"the warm-up lead was not posted within {WARM_UP_SECONDS} s")
    print(f"  warm-up lead posted after {time.perf_counter() - started:.1f} s", flush=True)


def steady(database: str, rate: float, seconds: float) -> dict:
    buyers = Buyers()
    try:
        with fresh_server(database, buyers, 1000) as (base_url, database_url):
            client = Client(base_url)
            warm_up(client, buyers)
            client.accepted.clear()
            count = int(rate * seconds)
            with ThreadPoolExecutor(max_workers=16) as pool:
                start = time.perf_counter()
                for i in range(count):
                    pause = start + i / rate - time.perf_counter()
                    if pause > 0:
                        time.sleep(pause)
                    pool.submit(client.submit)
            wait_for_posts(buyers, set(client.accepted), DRAIN_SECONDS)
            with buyers.lock:
                posts = dict(buyers.posts)
            times = auction_times(database_url)
            from_commit = [(posts[r]["wall"] - posts[r]["created"]) * 1000 for r in client.accepted if r in posts]
            from_202 = [(posts[r]["at"] - client.accepted[r][1]) * 1000 for r in client.accepted if r in posts]
            if os.environ.get("BENCH_DEBUG"):
                for r, (sent, read) in sorted(client.accepted.items(), key=lambda item: item[1]):
                    post = posts.get(r)
                    print(f"  sent {sent - start:6.2f} s  202 after {(read - sent) * 1000:6.0f} ms  post after "
                          f"{(post['at'] - read) * 1000 if post else float('nan'):6.0f} ms", flush=True)
            return {"database": database, "sent": count, "accepted": len(client.accepted),
                    "refused": client.refused, "posted": len(from_commit), "extra": buyers.extra_posts,
                    "commit": from_commit, "202": from_202, "pings": len(buyers.pings),
                    "bids_in": [times[r][0] for r in client.accepted if r in times],
                    "outcome": [times[r][1] for r in client.accepted if r in times]}
    finally:
        buyers.close()


def late_buyer(database: str, leads: int, timeout_ms: int) -> dict:
    late = BUYERS - 1
    buyers = Buyers(late_buyer=late, late_ms=timeout_ms + LATE_EXTRA_MS)
    try:
        with fresh_server(database, buyers, timeout_ms) as (base_url, database_url):
            client = Client(base_url)
            warm_up(client, buyers)
            # Let the late buyer's last answer and the warm-up lead's pings finish.
            time.sleep((timeout_ms + LATE_EXTRA_MS) / 1000 + 0.2)
            warm = set(client.accepted)
            past_first_ping, from_commit, late_won = [], [], 0
            stop = time.monotonic() + leads * 5
            for _ in range(leads):
                if time.monotonic() > stop:
                    break
                with buyers.lock:
                    pings_before = len(buyers.pings)
                request_id = client.submit()
                if request_id is None:
                    continue
                wait_for_posts(buyers, {request_id}, timeout_ms / 1000 + 5)
                with buyers.lock:
                    post = buyers.posts.get(request_id)
                    pings = buyers.pings[pings_before:]
                if post is None:
                    continue
                firsts = [at for at, _ in pings if at <= post["at"]]
                if firsts:
                    past_first_ping.append((post["at"] - min(firsts)) * 1000)
                from_commit.append((post["wall"] - post["created"]) * 1000)
                late_won += post["buyer"] == late
                # Until the late buyer has answered too, so its answer never overlaps the next lead.
                time.sleep(max(0.0, (min(firsts) if firsts else post["at"]) + (timeout_ms + LATE_EXTRA_MS) / 1000
                               + 0.1 - time.perf_counter()))
            measured = [r for r in client.accepted if r not in warm]
            times = auction_times(database_url)
            return {"database": database, "timeout_ms": timeout_ms, "leads": len(measured),
                    "posted": len(from_commit), "first_ping": past_first_ping, "commit": from_commit,
                    "late_won": late_won, "refused": client.refused,
                    "bids_in": [times[r][0] for r in measured if r in times],
                    "outcome": [times[r][1] for r in measured if r in times]}
    finally:
        buyers.close()


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share):.0f}" if values else "n/a"


def spread(values: list[float]) -> str:
    return f"{ms(values, 0.5)} / {ms(values, 0.99)} / {ms(values, 1.0)} ms"


def report(steady_rows: list[dict], late_rows: list[dict], *, rate: float, seconds: float, late_leads: int,
           timeout_ms: int, started: datetime, load_before: tuple, load_after: tuple) -> str:
    lines = [
        (f"{BUYERS} local buyers (one HTTP server in the benchmark process, a ping path and a post path "
         f"each, all exclusive, so each lead has one winner: the highest bid). A ping is answered after a "
         f"random {PING_DELAY_MS[0]}-{PING_DELAY_MS[1]} ms with a random bid of ${BID_DOLLARS[0]:.0f}-"
         f"${BID_DOLLARS[1]:.0f}; a post is answered 200 at once. Buyers are added with `servicematch "
         "buyers add` on a fresh database before `servicematch serve` starts with its built-in worker; no "
         "providers, no SERVICEMATCH_BUYER_URL. \"From commit\" runs from the lead's `created_at` (set "
         "just before the intake transaction commits, carried in the post as `createdAt`) to the post's "
         "arrival at the winning buyer, on the same clock; \"from 202\" from the client reading the 202. "
         "\"Bids taken\" (the last bid or pass the worker took; for a late buyer, its deadline) and "
         "\"outcome\" (the decision, written in the transaction that queues the post) are the worker's "
         "own times in ms from the commit, from the auction's waterfall (auction_steps.at_ms): from "
         "the outcome to the post is the commit of that decision and delivery's send."),
        "",
        (f"- Run: {started:%Y-%m-%d %H:%M} UTC on {machine_description()}; load average "
         f"{load_before[0]:.1f} / {load_before[1]:.1f} / {load_before[2]:.1f} (1 / 5 / 15 min) before and "
         f"{load_after[0]:.1f} / {load_after[1]:.1f} / {load_after[2]:.1f} after (the buyers, the "
         "client, the server, its worker and PostgreSQL share these cores with other people's work)"),
        (f"- Command: `uv run python bench/auction_latency.py --rate {rate:g} --seconds {seconds:g} "
         f"--late-leads {late_leads} --late-timeout-ms {timeout_ms}`"),
        "",
        (f"Steady: {rate:g} leads a second for {seconds:g} s, SERVICEMATCH_PING_TIMEOUT_MS at its default "
         "(1000)."),
        "",
        ("| database | leads sent | accepted | posted to a winner | second posts | to the post, from commit "
         "p50 / p99 / max | to the post, from 202 p50 / p99 / max | bids taken p50 / p99 / max | outcome "
         "p50 / p99 / max |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    verdicts = []
    for row in steady_rows:
        lines.append(f"| {row['database']} | {row['sent']} | {row['accepted']} | {row['posted']} | {row['extra']} | "
                     f"{ms(row['commit'], 0.5)} / {ms(row['commit'], 0.99)} / {ms(row['commit'], 1.0)} ms | "
                     f"{ms(row['202'], 0.5)} / {ms(row['202'], 0.99)} / {ms(row['202'], 1.0)} ms | "
                     f"{spread(row['bids_in'])} | {spread(row['outcome'])} |")
        p99 = percentile(row["commit"], 0.99) if row["commit"] else float("inf")
        complete = row["posted"] == row["accepted"] == row["sent"]
        verdicts.append(f"{row['database']} p99 {p99:.0f} ms from commit "
                        f"({'met' if p99 < GOAL_P99_MS and complete else 'not met'}"
                        f"{'' if complete else ', not every lead was posted'})")
    lines += ["", f"Goal p99 under {GOAL_P99_MS} ms from commit to the winner's post: " + "; ".join(verdicts) + ".",
              "",
              (f"Late buyer: SERVICEMATCH_PING_TIMEOUT_MS={timeout_ms}; buyer {BUYERS - 1} of the {BUYERS} answers "
               f"{LATE_EXTRA_MS} ms after the deadline with ${LATE_BID:.0f} (more than any other bid), the others "
               f"as above. {late_leads} leads, one at a time (each after the previous lead's late answer), so "
               "each lead's pings are told apart; \"after first ping\" runs from the arrival of the lead's "
               "first ping (when its deadline started, to within the ping's own travel) to the post's "
               "arrival."),
              "",
              ("| database | leads | posted | posted to the late buyer | to the post, after first ping "
               "p50 / max | to the post, from commit p50 / max | bids taken p50 / max | outcome p50 / max |"),
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    late_verdicts = []
    for row in late_rows:
        worst = max(row["first_ping"]) if row["first_ping"] else float("inf")
        lines.append(f"| {row['database']} | {row['leads']} | {row['posted']} | {row['late_won']} | "
                     f"{ms(row['first_ping'], 0.5)} / {ms(row['first_ping'], 1.0)} ms | "
                     f"{ms(row['commit'], 0.5)} / {ms(row['commit'], 1.0)} ms | "
                     f"{ms(row['bids_in'], 0.5)} / {ms(row['bids_in'], 1.0)} ms | "
                     f"{ms(row['outcome'], 0.5)} / {ms(row['outcome'], 1.0)} ms |")
        limit = timeout_ms + GOAL_PAST_DEADLINE_MS
        late_verdicts.append(f"{row['database']} max {worst:.0f} ms ({'met' if worst <= limit else 'not met'})")
    lines += ["", (f"Goal: the post within the deadline + {GOAL_PAST_DEADLINE_MS} ms ({timeout_ms + GOAL_PAST_DEADLINE_MS}"
                   " ms) of the first ping: " + "; ".join(late_verdicts) + ".")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=5.0, help="leads a second in the steady part")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the steady part")
    parser.add_argument("--late-leads", type=int, default=20)
    parser.add_argument("--late-timeout-ms", type=int, default=300)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    started, load_before = datetime.now(UTC), os.getloadavg()
    steady_rows, late_rows = [], []
    for database in args.databases.split(","):
        row = steady(database, args.rate, args.seconds)
        print(f"{database} steady: {row['accepted']}/{row['sent']} accepted, {row['posted']} posted, from commit "
              f"p50 {ms(row['commit'], 0.5)} p99 {ms(row['commit'], 0.99)} max {ms(row['commit'], 1.0)} ms",
              flush=True)
        steady_rows.append(row)
        row = late_buyer(database, args.late_leads, args.late_timeout_ms)
        print(f"{database} late buyer: {row['posted']}/{row['leads']} posted, after first ping p50 "
              f"{ms(row['first_ping'], 0.5)} max {ms(row['first_ping'], 1.0)} ms, late buyer won {row['late_won']}",
              flush=True)
        late_rows.append(row)
    text = report(steady_rows, late_rows, rate=args.rate, seconds=args.seconds, late_leads=args.late_leads,
                  timeout_ms=args.late_timeout_ms, started=started, load_before=load_before,
                  load_after=os.getloadavg())
    print(text)
    if not args.no_report:
        write_report_section("Auction latency", text)


if __name__ == "__main__":
    main()
