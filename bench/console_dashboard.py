"""The operator console at scale: dashboard and lead-search latency, and lead intake while it is in use.

Seeds a PostgreSQL database of its own with 1,000,000 leads (one buyer delivery each) and
10,000,000 funnel events spread over the past year, in SQL (INSERT ... SELECT generate_series),
runs the daily roll-up (which also drops raw events past the 30-day retention, as production
does), then against the real server:

1. each dashboard and lead-search call, N times in turn: p50 and p95 (target p95 < 300 ms);
2. POST /api/submit-form throughput (wrk) alone, and while operators (signed in beforehand) use the
   console (target: within 10% of alone), alternating, each round in the other order than the one
   before, so a noisy moment or a drift lands on both.

    uv run python bench/console_dashboard.py [--leads 1000000] [--events 10000000] [--calls 30]
                                             [--seconds 15] [--rounds 3] [--no-report]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_throughput import lead_template, run_wrk
from server import machine_description, running_server, throwaway_postgres, write_report_section

from servicematch.console import accounts
from servicematch.db.session import make_engine, make_session_factory
from servicematch.events.rollup import roll_up_and_prune
from servicematch.kernel.crypto import cipher_for
from servicematch.reporting.rollup import roll_up
from servicematch.schema.migrate import upgrade
from servicematch.settings import Settings

TARGET_P95_MS = 300
TARGET_THROUGHPUT_SHARE = 0.90
PASSWORD = "benchmark operator passphrase"
SERVICES = [("services", "hvac"), ("services", "roofing"), ("services", "plumbing"), ("legal", "auto-accident"),
            ("legal", "personal-injury"), ("legal", "debt-relief"), ("insurance", "final-expense-ib"),
            ("legal", "bankruptcy"), ("legal", "workers-comp")]
STATES = ["TX", "CA", "FL", "NY", "IL", "PA", "OH", "GA", "NC", "MI", "AZ", "WA"]
SOURCES = ["", "", "", "spring-sale", "google-brand", "partner-7"]
SEARCH_TARGETS = 200


def _sql_array(values: list[str]) -> str:
    return "ARRAY[" + ",".join(f"'{v}'" for v in values) + "]"


def seed(dsn: str, leads: int, events: int) -> dict[str, float]:
    """Bulk rows in SQL; returns how long each part took (seconds)."""
    verticals = _sql_array([v for v, _ in SERVICES])
    services = _sql_array([s for _, s in SERVICES])
    timings = {}
    with psycopg.connect(dsn, autocommit=True) as db:
        started = time.monotonic()
        # A random 300-byte blob stands for the encrypted personal data: decrypting it fails on
        # its tag after doing the same AES-GCM work, which the console survives by design.
        db.execute(f"""
            INSERT INTO leads (id, request_id, reference, request_hash, flow, vertical, service, category, cid,
                               is_test, is_duplicate, do_not_sell, email_hash, phone_hash, state, zip,
                               personal_data, answers, click, created_at)
            SELECT md5('lead' || g)::uuid::text, 'bench-' || g, upper(lpad(to_hex(g), 8, '0')),
                   md5(g::text) || md5(g::text), 'form',
                   ({verticals})[1 + g % {len(SERVICES)}], ({services})[1 + g % {len(SERVICES)}], 'Bench', 640,
                   false, g % 20 = 0, g % 50 = 0, md5('e' || g) || md5('E' || g), md5('p' || g) || md5('P' || g),
                   ({_sql_array(STATES)})[1 + g % {len(STATES)}], lpad((10000 + g % 89999)::text, 5, '0'),
                   '\\x01'::bytea || decode(repeat(md5(g::text), 9), 'hex') || decode(md5('x' || g), 'hex'),
                   '{{"cq1": "Install or replace a system"}}'::json,
                   json_build_object('subid1', ({_sql_array(SOURCES)})[1 + g % {len(SOURCES)}],
                                     'fbclid', CASE WHEN g % 7 = 0 THEN 'fb' || g ELSE '' END),
                   now() - (g::float / {leads}) * interval '365 days'
            FROM generate_series(1, {leads}) AS g""")
        timings["leads"] = time.monotonic() - started
        started = time.monotonic()
        db.execute(f"""
            INSERT INTO deliveries (id, lead_id, kind, target_key, status, attempt_count, next_attempt_at,
                                    last_error, window_started_at, created_at, completed_at)
            SELECT md5('delivery' || g)::uuid::text, md5('lead' || g)::uuid::text, 'buyer', 'buyer',
                   CASE WHEN g % 100 < 94 THEN 'delivered' WHEN g % 100 < 97 THEN 'rejected'
                        -- still within its retry window only when sent in the last day
                        WHEN g % 100 < 99 OR t < now() - interval '1 day' THEN 'failed' ELSE 'pending' END,
                   1 + g % 3, t, CASE WHEN g % 100 >= 94 THEN 'HTTP 500' END, t, t,
                   CASE WHEN g % 100 < 99 THEN t + (0.05 + (g % 997) / 100.0) * interval '1 second' END
            FROM (SELECT g, now() - (g::float / {leads}) * interval '365 days' AS t
                  FROM generate_series(1, {leads}) AS g) AS s""")
        timings["deliveries"] = time.monotonic() - started
        started = time.monotonic()
        # Five events per tab on one day: page view, steps 2-4 (some tabs drop off or are
        # disqualified), then a submission or a call click.
        db.execute(f"""
            INSERT INTO funnel_events (at, type, route_type, vertical, service, step, field, answer, tab_id, source)
            SELECT now() - ((g / 5)::float / {events // 5}) * interval '365 days' + (g % 5) * interval '20 seconds',
                   CASE g % 5 WHEN 0 THEN 'page_view' WHEN 4 THEN
                        CASE WHEN (g / 5) % 9 = 8 THEN 'call_click' ELSE 'submitted' END
                        ELSE CASE WHEN (g / 5) % 11 = 0 AND g % 5 = 3 THEN 'step_complete' ELSE 'step_view' END END,
                   'form', ({verticals})[1 + (g / 5) % {len(SERVICES)}], ({services})[1 + (g / 5) % {len(SERVICES)}],
                   CASE WHEN g % 5 IN (1, 2, 3) THEN 1 + g % 5 ELSE 0 END, '', '',
                   'tab-' || (g / 5), ({_sql_array(SOURCES)})[1 + (g / 5) % {len(SOURCES)}]
            FROM generate_series(0, {events - 1}) AS g""")
        timings["events"] = time.monotonic() - started
        db.execute("ANALYZE")
    return timings


def plant_search_targets(url: str, settings: Settings) -> list[dict]:
    """Give some leads real lookup hashes and encrypted contacts, so searches find and show them."""
    cipher = cipher_for(settings)
    targets = []
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as db:
        ids = [row[0] for row in db.execute(
            f"SELECT id FROM leads ORDER BY md5(id) LIMIT {SEARCH_TARGETS}").fetchall()]
        for n, lead_id in enumerate(ids):
            phone, email = f"512555{n:04d}", f"bench.person{n}@example.com"
            contact = {"first": "Bench", "last": f"Person{n}", "email": email, "phone": phone}
            blob = cipher.encrypt({"contact": contact, "answers": {}}, lead_id=lead_id)
            db.execute("UPDATE leads SET phone_hash = %s, email_hash = %s, personal_data = %s WHERE id = %s",
                       (cipher.lookup_hash("phone", phone), cipher.lookup_hash("email", email), blob, lead_id))
            request_id = db.execute("SELECT request_id FROM leads WHERE id = %s", (lead_id,)).fetchone()[0]
            targets.append({"phone": f"({phone[:3]}) {phone[3:6]}-{phone[6:]}", "email": email.upper(),
                            "requestId": request_id})
    return targets


def console_calls(targets: list[dict]) -> list[tuple[str, str, dict]]:
    """(name, path, params) of every call measured; searches cycle through the planted targets."""
    today = datetime.now(UTC).date()
    year_ago = today.replace(year=today.year - 1)
    return [
        ("dashboard, last 30 days (default)", "/api/console/dashboard", {}),
        ("dashboard, last 7 days", "/api/console/dashboard", {"from": str(today.fromordinal(today.toordinal() - 6))}),
        ("dashboard, last 90 days", "/api/console/dashboard", {"from": str(today.fromordinal(today.toordinal() - 89))}),
        ("dashboard, whole year", "/api/console/dashboard", {"from": str(year_ago.fromordinal(year_ago.toordinal() + 1))}),
        ("dashboard, 30 days, vertical=legal", "/api/console/dashboard", {"vertical": "legal"}),
        ("dashboard, 30 days, service=hvac, state=TX", "/api/console/dashboard", {"service": "hvac", "state": "TX"}),
        ("dashboard, 30 days, source=spring-sale", "/api/console/dashboard", {"source": "spring-sale"}),
        ("leads, newest 50", "/api/console/leads", {}),
        ("leads, service=roofing, state=CA", "/api/console/leads", {"service": "roofing", "state": "CA"}),
        ("leads, status=failed", "/api/console/leads", {"status": "failed"}),
        ("leads, 2nd page", "/api/console/leads", {"cursor": "__NEXT__"}),
        ("search by phone", "/api/console/leads", {"q": "__PHONE__"}),
        ("search by e-mail", "/api/console/leads", {"q": "__EMAIL__"}),
        ("search by requestId", "/api/console/leads", {"q": "__REQUEST_ID__"}),
        ("search, no match", "/api/console/leads", {"q": "nobody@example.com"}),
    ]


def _params(params: dict, n: int, targets: list[dict], next_cursor: str) -> dict:
    target = targets[n % len(targets)]
    fill = {"__PHONE__": target["phone"], "__EMAIL__": target["email"], "__REQUEST_ID__": target["requestId"],
            "__NEXT__": next_cursor}
    return {key: fill.get(value, value) for key, value in params.items()}


@contextlib.contextmanager
def signed_in(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=60) as client:
        answer = client.post("/api/console/session", json={"email": "bench@example.com", "password": PASSWORD})
        answer.raise_for_status()
        client.headers["X-CSRF-Token"] = answer.json()["csrfToken"]
        yield client


def measure_calls(base_url: str, targets: list[dict], calls: int, long_calls: int) -> list[dict]:
    rows = []
    with signed_in(base_url) as client:
        next_cursor = client.get("/api/console/leads").json()["nextCursor"]
        for name, path, params in console_calls(targets):
            times = []
            # The long ranges take seconds a call on a loaded machine: fewer of them, one warm-up.
            long_range = "90 days" in name or "whole year" in name
            warm_up, timed = (1, long_calls) if long_range else (3, calls)
            for n in range(timed + warm_up):
                started = time.perf_counter()
                answer = client.get(path, params=_params(params, n, targets, next_cursor))
                elapsed = (time.perf_counter() - started) * 1000
                answer.raise_for_status()
                if n >= warm_up:  # the first warm caches and plans
                    times.append(elapsed)
            if "search" in name and "no match" not in name:
                assert len(answer.json()["items"]) == 1, f"{name} found {len(answer.json()['items'])} leads"
            times.sort()
            row = {"call": name, "calls": len(times), "p50": statistics.median(times),
                   "p95": times[round(0.95 * (len(times) - 1))]}
            rows.append(row)
            print(f"{name:45} p50 {row['p50']:7.1f} ms  p95 {row['p95']:7.1f} ms")
    return rows


class ConsoleUse:
    """Operators at work, each with a client signed in beforehand (an operator signs in once, not
    every few seconds): each loads a dashboard or searches, then reads it for `pause` seconds."""

    def __init__(self, clients: list[httpx.Client], targets: list[dict], pause: float) -> None:
        self._stop = threading.Event()
        self._calls = [0] * len(clients)
        self._threads = [threading.Thread(target=self._work, args=(client, targets, pause, n), daemon=True)
                         for n, client in enumerate(clients)]

    @property
    def calls(self) -> int:
        return sum(self._calls)

    def _work(self, client: httpx.Client, targets: list[dict], pause: float, offset: int) -> None:
        plan = console_calls(targets)
        n = offset
        while not self._stop.is_set():
            _name, path, params = plan[n % len(plan)]
            if "__NEXT__" not in params.values():
                client.get(path, params=_params(params, n, targets, ""))
                self._calls[offset] += 1
            n += 1
            self._stop.wait(pause)

    def __enter__(self) -> Self:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)


def measure_intake(base_url: str, targets: list[dict], seconds: int, rounds: int, operators: int,
                   pause: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as signed_in_operators:
        body = Path(tmp) / "lead.json"
        body.write_text(lead_template())
        clients = [signed_in_operators.enter_context(signed_in(base_url)) for _ in range(operators)]
        run_wrk(base_url + "/api/submit-form", 20, 3, body)  # warm-up
        alone, in_use, console_calls_made = [], [], 0
        for n in range(rounds):
            # Each round in the other order than the one before, so what drifts during the run
            # (the tables grow) weighs on both alike.
            for measure_alone in ((True, False) if n % 2 == 0 else (False, True)):
                if measure_alone:
                    alone.append(run_wrk(base_url + "/api/submit-form", 20, seconds, body)["rps"])
                    continue
                with ConsoleUse(clients, targets, pause) as use:
                    in_use.append(run_wrk(base_url + "/api/submit-form", 20, seconds, body)["rps"])
                console_calls_made += use.calls
            print(f"round {n + 1}: intake alone {alone[-1]:.0f} req/s, with the console in use {in_use[-1]:.0f} req/s "
                  f"({use.calls} console calls)")
    return {"alone": statistics.median(alone), "in_use": statistics.median(in_use),
            "console_calls_per_second": console_calls_made / (rounds * seconds)}


def report(args, seeded: dict, rollup_seconds: float, raw_left: int, rows: list[dict], intake: dict) -> str:
    over = [row["call"] for row in rows if row["p95"] >= TARGET_P95_MS]
    share = intake["in_use"] / intake["alone"]
    lines = [
        (f"Measured {datetime.now(UTC):%Y-%m-%d} on {machine_description()}, PostgreSQL on the same machine, "
         f"shared with other work (load average {args.load:.1f} when the calls were timed, so the figures are "
         "slower than on an idle machine). Reproduce: `uv run python bench/console_dashboard.py` "
         "(needs Debian's `wrk`)."),
        "",
        (f"Data: {args.leads:,} leads over the past year (one buyer delivery each; 94% delivered), "
         f"{args.events:,} funnel events over the same year. "
         + (f"Seeding took {seeded['leads']:.0f} s (leads), {seeded['deliveries']:.0f} s (deliveries) and "
            f"{seeded['events']:.0f} s (events); the roll-up of 365 closed days of events, leads and deliveries into daily counts took "
            f"{rollup_seconds:.0f} s. " if seeded else "Seeded and rolled up by an earlier run (`--database`). ")
         + f"The roll-up removed the raw events past the 30-day retention, leaving {raw_left:,}, as a running "
           "server keeps it."),
        "",
        ("Each call timed after warm-up calls (3, or 1 for the 90-day and one-year ranges), one signed-in "
         "admin, one call at a time:"),
        "",
        "| call | timed calls | p50 ms | p95 ms |",
        "|---|---:|---:|---:|",
        *(f"| {row['call']} | {row['calls']} | {row['p50']:.0f} | {row['p95']:.0f} |" for row in rows),
        "",
        (f"Target p95 < {TARGET_P95_MS} ms: " + ("met by every call." if not over else
                                                  f"missed by {', '.join(over)}.")),
        "",
        (f"Lead intake (`POST /api/submit-form`, wrk, 20 connections, {args.seconds} s, median of {args.rounds} "
         "rounds, alone and in use taking turns, each round in the other order than the one before): "
         f"{intake['alone']:.0f} req/s alone, {intake['in_use']:.0f} req/s while "
         f"{args.operators} operators, signed in beforehand, use the console (each a dashboard or search call "
         f"every {args.pause:g} s; "
         f"{intake['console_calls_per_second']:.1f} console calls/s in all): {share:.0%} of alone "
         f"(target at least {TARGET_THROUGHPUT_SHARE:.0%}: {'met' if share >= TARGET_THROUGHPUT_SHARE else 'missed'})."),
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=1_000_000)
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--calls", type=int, default=30, help="timed calls per console call")
    parser.add_argument("--long-calls", type=int, default=5, help="timed calls of the 90-day and one-year dashboards")
    parser.add_argument("--database", help="a database this script seeded and rolled up before (kept by an "
                                           "interrupted run): measure only")
    parser.add_argument("--seconds", type=int, default=15, help="seconds per intake run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--operators", type=int, default=3)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds each operator waits between calls")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    data_key = base64.b64encode(os.urandom(32)).decode()
    with (contextlib.nullcontext(args.database) if args.database else throwaway_postgres()) as url:
        settings = Settings(database_url=url, data_key=data_key)
        factory = make_session_factory(make_engine(url))
        if args.database:
            seeded, rollup_seconds = None, None
        else:
            upgrade(url)
            seeded = seed(url.replace("postgresql+psycopg://", "postgresql://"), args.leads, args.events)
            print(f"seeded in {sum(seeded.values()):.0f} s: {seeded}")
            started = time.monotonic()
            roll_up_and_prune(factory, retention_days=settings.events_retention_days)
            # The leads and deliveries of each closed day, as the worker's hourly chore counts them.
            roll_up(factory)
            rollup_seconds = time.monotonic() - started
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as db:
            if not args.database:
                # The roll-up just deleted eleven months of raw events at once, leaving their index
                # at the size of a year (675 MB for 32 MB of entries), and the planner then reads
                # today's events by a sequential scan. A running server deletes one day at a time
                # and its index stays the size of its 30 days: rebuild it to measure that state.
                db.execute("REINDEX TABLE funnel_events")
                db.execute("VACUUM ANALYZE")
            raw_left = db.execute("SELECT count(*) FROM funnel_events").fetchone()[0]
            db.execute("DELETE FROM operators WHERE email = 'bench@example.com'")
        print(f"rolled up in {rollup_seconds} s; {raw_left} raw events left")
        with factory() as session:
            accounts.add_operator(session, email="bench@example.com", role="admin", password=PASSWORD)
            session.commit()
        targets = plant_search_targets(url, settings)
        env = {"SERVICEMATCH_DATA_KEY": data_key, "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000",
               "SERVICEMATCH_CONSOLE_SESSION_IDLE_MINUTES": "600"}
        with running_server(url, env, ("--no-worker", "--no-migrate")) as base_url:
            args.load = os.getloadavg()[0]
            rows = measure_calls(base_url, targets, args.calls, args.long_calls)
            intake = measure_intake(base_url, targets, args.seconds, args.rounds, args.operators, args.pause)
    text = report(args, seeded, rollup_seconds, raw_left, rows, intake)
    print(text)
    if not args.no_report:
        write_report_section("Operator console at 1,000,000 leads and 10,000,000 events", text)


if __name__ == "__main__":
    main()
