"""Auction under kills: an exclusive lead sold at most once, and no lead to more than three companies,
while the worker is killed with SIGKILL every few seconds under load.

Buyers in a process of their own (bench/load_buyers.py) with a behaviour each: fast ones, one that
refuses every post with the highest bid (leads fall through to the next bid), one that bids after
the ping deadline (it must never win), one whose first post of each lead is answered 503 (a post in
doubt) and one slower than SERVICEMATCH_POST_TIMEOUT_MS on its first post of each lead. They note
every post: requestId, buyer, arrival, webhook-id, the status they answered, and whether it was the
lead or a notice. A fresh database, `servicematch serve --no-worker` and one `servicematch worker`;
leads at R a second for S seconds, the worker killed with SIGKILL every K seconds and started again
at once (as a supervisor would), then a drain until every auction is closed. Leases and settling
are short (SERVICEMATCH_DELIVERY_LEASE_SECONDS=5, SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS=3,
SERVICEMATCH_POST_SETTLE_SECONDS=20) so they happen within the run.

What is checked comes from two independent sides: the database (sales, deliveries, auctions) and
the buyers' own notes (a lead answered 200 by two different buyers is a double sale as buyers see
it, whatever the database says).

    uv run python bench/auction_kills.py [--databases sqlite,postgresql] [--rate 20] [--seconds 60]
        [--kill-every 8] [--buyers 8] [--behaviours fast,fast,fast,fast,refuse,late,doubt,slow]
        [--shared-buyers 0,1] [--drain-seconds 180] [--log-dir DIR] [--no-report]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from auction_latency import server_env
from auction_load import (
    START_SECONDS,
    drain,
    listed,
    phone_numbers,
    prepare_database,
    process_env,
    started,
    submit,
)
from server import ROOT, free_port, fresh_database, machine_description, write_report_section

from servicematch.devserver import stop_server

HEADING = "Auction under kills"
DEFAULT_BEHAVIOURS = "fast,fast,fast,fast,refuse,late,doubt,slow"
# Short enough that leases run out and posts in doubt are settled or given up within a run.
SHORT_TIMES = {"SERVICEMATCH_DELIVERY_LEASE_SECONDS": "5", "SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS": "3",
               "SERVICEMATCH_POST_SETTLE_SECONDS": "20"}
WARM_UP_LEADS = 3
MAX_COMPANIES = 3
# Repeats to these buyers are their design (a 503, an answer past the deadline); to others, kills'.
DOUBTFUL = ("doubt", "slow")


class Supervisor:
    """One `servicematch worker` process; `kill_and_restart` kills it with SIGKILL (no chance to record
    what it was sending) and starts a new one at once."""

    def __init__(self, env: dict[str, str], log_dir: Path | None, name: str) -> None:
        self.env, self.log_dir, self.name = env, log_dir, name
        self.kills = 0
        self.process = self._start()

    def _start(self) -> subprocess.Popen:
        output = subprocess.DEVNULL
        if self.log_dir is not None:
            output = open(self.log_dir / f"{self.name}-worker-{self.kills}.log", "wb")  # noqa: SIM115
        try:
            return subprocess.Popen([sys.executable, "-m", "servicematch.cli", "worker"], cwd=ROOT, env=self.env,
                                    stdout=output, stderr=subprocess.STDOUT)
        finally:
            if output is not subprocess.DEVNULL:
                output.close()  # the child holds its own copy

    def kill_and_restart(self) -> None:
        if self.process.poll() is not None:
            raise RuntimeError(f"the worker exited by itself (code {self.process.returncode})")
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.kills += 1
        self.process = self._start()

    def stop(self) -> None:
        stop_server(self.process)


async def kill_every(supervisor: Supervisor, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        supervisor.kill_and_restart()


def open_work(engine) -> tuple[int, int]:
    """(leads whose auction is missing or open, buyer posts and notices still pending)."""
    with engine.connect() as connection:
        open_leads = connection.scalar(text(
            "SELECT count(*) FROM leads l LEFT JOIN auctions a ON a.lead_id = l.id WHERE a.closed_at IS NULL"))
        pending = connection.scalar(text(
            "SELECT count(*) FROM deliveries WHERE kind = 'buyer_post' AND status = 'pending'"))
    return open_leads, pending


async def drain_all(engine, seconds: float) -> float | None:
    """Seconds until every auction closed and no post or notice to a buyer is pending; None if not
    within `seconds` (a lead whose routing was cut off waits out its event's 30-second lease)."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if await asyncio.to_thread(open_work, engine) == (0, 0):
            return time.monotonic() - start
        await asyncio.sleep(1.0)
    return None


def database_view(engine) -> dict:
    """What the database says: buyers by number, leads, sales, lead posts, closed auctions."""
    with engine.connect() as connection:
        buyers = {row.id: (int(row.name.rsplit(" ", 1)[1]), bool(row.exclusive)) for row in connection.execute(
            text("SELECT id, name, exclusive FROM buyers WHERE name LIKE 'Bench buyer %'"))}
        leads = dict(connection.execute(text("SELECT request_id, id FROM leads")).all())
        sales = connection.execute(text("SELECT lead_id, buyer_id, exclusive FROM sales")).all()
        posts = connection.execute(text(
            "SELECT lead_id, buyer_id, status, attempt_count FROM deliveries "
            "WHERE kind = 'buyer_post' AND payload_kind = 'lead'")).all()
        closed = set(connection.scalars(text("SELECT lead_id FROM auctions WHERE closed_at IS NOT NULL")))
    return {"buyers": buyers, "leads": leads, "sales": sales, "posts": posts, "closed": closed}


def tally(accepted: set[str], log: dict[str, list], db: dict, behaviours: list[str]) -> dict:
    """The run's figures, from the database and, independently, from the buyers' notes."""
    number = {buyer_id: n for buyer_id, (n, _) in db["buyers"].items()}
    exclusive = {n: flag for n, flag in db["buyers"].values()}
    late = {n for n, behaviour in enumerate(behaviours) if behaviour == "late"}
    lead_ids = {db["leads"][r] for r in accepted if r in db["leads"]}

    exclusive_sales, sold, sale_pairs = Counter(), set(), set()
    for lead_id, buyer_id, is_exclusive in db["sales"]:
        if lead_id in lead_ids:
            sold.add(lead_id)
            sale_pairs.add((lead_id, number.get(buyer_id)))
            exclusive_sales[lead_id] += bool(is_exclusive)
    db_companies: dict[str, set] = defaultdict(set)
    for lead_id, buyer_id, _status, attempts in db["posts"]:
        if lead_id in lead_ids and attempts:
            db_companies[lead_id].add(buyer_id)
    # Posts given up in doubt: lead -> the buyers' numbers.
    given_up: dict[str, list] = defaultdict(list)
    for lead_id, buyer_id, status, _ in db["posts"]:
        if lead_id in lead_ids and status == "failed":
            given_up[lead_id].append(number.get(buyer_id))

    seen_double, companies, repeats, notices = {}, {}, Counter(), Counter()
    answered_200: set[tuple[str, int]] = set()
    webhook_buyers: dict[str, set] = defaultdict(set)
    late_posts, after_doubt = 0, []
    for request_id, entries in log.items():
        if request_id not in accepted:
            continue
        lead_posts = [e for e in entries if e[4] is None]
        notices.update({e[2]: e[4] for e in entries if e[4] is not None}.values())
        # An exclusive post given up in doubt ends the auction: nobody else may get the lead after it.
        for n in given_up.get(db["leads"].get(request_id), []):
            first = min((e[1] for e in lead_posts if e[0] == n), default=None)
            if exclusive.get(n) and first is not None and any(e[0] != n and e[1] > first for e in lead_posts):
                after_doubt.append(request_id)
        took = {e[0] for e in lead_posts if 200 <= e[3] < 300}
        answered_200.update((db["leads"].get(request_id), n) for n in took)
        if any(exclusive.get(n) for n in took):
            seen_double[request_id] = len(took)
        companies[request_id] = len({e[0] for e in lead_posts})
        late_posts += sum(1 for e in lead_posts if e[0] in late)
        by_id = Counter(e[2] for e in lead_posts)
        for e in lead_posts:
            webhook_buyers[e[2]].add(e[0])
        for webhook_id, count in by_id.items():
            buyer = next(e[0] for e in lead_posts if e[2] == webhook_id)
            repeats["designed" if behaviours[buyer] in DOUBTFUL else "kills"] += count - 1
    return {
        "sold": len(sold),
        "db_exclusive_max": max(exclusive_sales.values(), default=0),
        "db_exclusive_over": sum(1 for count in exclusive_sales.values() if count > 1),
        "seen_exclusive_max": max(seen_double.values(), default=0),
        "seen_exclusive_over": sorted(r for r, count in seen_double.items() if count > 1),
        "companies_max": max(companies.values(), default=0),
        "companies_over": sorted(r for r, count in companies.items() if count > MAX_COMPANIES),
        "db_companies_max": max((len(b) for b in db_companies.values()), default=0),
        "given_up": sum(map(len, given_up.values())), "after_doubt": sorted(set(after_doubt)),
        "repeats": dict(repeats), "notices": dict(notices),
        "webhook_ids_to_two_buyers": sum(1 for buyers in webhook_buyers.values() if len(buyers) > 1),
        "not_closed": sorted(r for r in accepted if db["leads"].get(r) not in db["closed"]),
        "late_wins": sum(1 for _, n in sale_pairs if n in late) + late_posts,
        "sales_without_200": len(sale_pairs - answered_200),
        "200_without_sale": len(answered_200 - sale_pairs),
    }


async def load(setup: dict, base_url: str, buyers_url: str, engine, supervisor: Supervisor):
    phones = phone_numbers()
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=64)) as client:
        service = (await client.get(f"{base_url}/api/services/services/hvac")).json()
        # Not counted: the first worker's first auctions open its connections and fill its caches.
        warm, _, _ = await submit(client, base_url, service, phones, WARM_UP_LEADS, setup["rate"])
        if not await drain(client, buyers_url, engine, len(warm), len(warm), START_SECONDS):
            raise RuntimeError(f"the warm-up leads were not all routed within {START_SECONDS:.0f} s")
        await client.post(f"{buyers_url}/reset")
        killer = asyncio.create_task(kill_every(supervisor, setup["kill_every"]))
        try:
            accepted, refused, _ = await submit(client, base_url, service, phones, setup["leads"], setup["rate"])
        finally:
            killer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await killer
        drained = await drain_all(engine, setup["drain_seconds"])
        log = (await client.get(f"{buyers_url}/log")).json()
    return set(accepted), refused, log, drained


def run(setup: dict) -> dict:
    """One run on fresh everything: buyers, database, web process, a worker killed over and over."""
    behaviours = (setup["behaviours"] + ["fast"] * setup["buyers"])[:setup["buyers"]]
    with contextlib.ExitStack() as stack:
        port = free_port()
        buyers_url = f"http://127.0.0.1:{port}"
        stack.enter_context(started(
            [sys.executable, str(Path(__file__).with_name("load_buyers.py")), "--port", str(port),
             "--buyers", str(setup["buyers"]), "--behaviours", ",".join(behaviours),
             "--late-ms", str(setup["ping_timeout_ms"] + 500), "--slow-ms", str(setup["post_timeout_ms"] + 1000)],
            cwd=ROOT, env=dict(os.environ), health=f"{buyers_url}/count", what="the buyers"))
        database_url = stack.enter_context(fresh_database(setup["database"]))
        env = {**server_env(setup["ping_timeout_ms"]), **SHORT_TIMES,
               "SERVICEMATCH_POST_TIMEOUT_MS": str(setup["post_timeout_ms"]),
               "SERVICEMATCH_MAIL_DIR": stack.enter_context(tempfile.TemporaryDirectory())}
        prepare_database(ROOT, database_url, env, buyers_url, setup["buyers"])
        engine = create_engine(database_url)
        stack.callback(engine.dispose)
        if setup["shared_buyers"]:
            # `prepare_database` adds every buyer exclusive; the mix's shared ones are turned here.
            with engine.begin() as connection:
                for n in setup["shared_buyers"]:
                    connection.execute(text("UPDATE buyers SET exclusive = :no WHERE name = :name"),
                                       {"no": False, "name": f"Bench buyer {n}"})
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        web_env = {**env, "SERVICEMATCH_WORKER_ENABLED": "false", "SERVICEMATCH_SITE_ORIGIN": base_url,
                   "HOST": "127.0.0.1", "PORT": str(port)}
        stack.enter_context(started(
            [sys.executable, "-m", "servicematch.cli", "serve", "--no-migrate", "--no-worker"], cwd=ROOT,
            env=process_env(ROOT, database_url, web_env), health=f"{base_url}/api/health", what="the web process"))
        supervisor = Supervisor(process_env(ROOT, database_url, {
            **env, "SERVICEMATCH_WORKER_POLL_SECONDS": str(setup["worker_poll_seconds"])}),
            setup["log_dir"], setup["database"])
        stack.callback(supervisor.stop)
        accepted, refused, log, drained = asyncio.run(load(setup, base_url, buyers_url, engine, supervisor))
        figures = tally(accepted, log, database_view(engine), behaviours)
    return {**setup, **figures, "behaviours": behaviours, "accepted": len(accepted), "refused": dict(refused),
            "kills": supervisor.kills, "drained": drained}


def table_row(row: dict) -> str:
    drained = f"{row['drained']:.0f} s" if row["drained"] is not None else f"not within {row['drain_seconds']:g} s"
    repeats = row["repeats"]
    return (f"| {row['database']} | {row['leads']} / {row['accepted']} | {row['kills']} | {row['sold']} | "
            f"{row['db_exclusive_max']} / {row['seen_exclusive_max']} ({row['db_exclusive_over']} / "
            f"{len(row['seen_exclusive_over'])}) | {row['companies_max']} / {row['db_companies_max']} "
            f"({len(row['companies_over'])}) | {row['given_up']} ({len(row['after_doubt'])}) | {repeats.get('kills', 0)} + "
            f"{repeats.get('designed', 0)} | {len(row['not_closed'])} | {row['late_wins']} | "
            f"{row['sales_without_200']} / {row['200_without_sale']} | {drained} |")


def verdicts(rows: list[dict]) -> str:
    def check(name: str, ok) -> str:
        return f"{name}: {'met' if all(ok(r) for r in rows) else 'not met'}"

    return "- Goals: " + "; ".join([
        check("an exclusive lead sold at most once (sales and buyers' notes)",
              lambda r: r["db_exclusive_max"] <= 1 and r["seen_exclusive_max"] <= 1),
        check(f"no lead's details to more than {MAX_COMPANIES} companies",
              lambda r: r["companies_max"] <= MAX_COMPANIES and r["db_companies_max"] <= MAX_COMPANIES),
        check("nobody else posted an exclusive lead given up in doubt", lambda r: not r["after_doubt"]),
        check("the late bidder never wins", lambda r: r["late_wins"] == 0),
        check("every auction closed", lambda r: not r["not_closed"])]) + "."


def report(rows: list[dict], args: argparse.Namespace, started_at: datetime, load_before, load_after) -> str:
    loads = [" / ".join(f"{value:.1f}" for value in values) for values in (load_before, load_after)]
    mix = ", ".join(f"b{n} {b}{' (shared)' if n in args.shared_buyers else ''}"
                    for n, b in enumerate(rows[0]["behaviours"])) if rows else ""
    return "\n".join([
        ("Buyers in a process of their own (bench/load_buyers.py, asyncio), each with a behaviour: fast (bids "
         "$5-$50 after 0-100 ms, posts answered 200), refuse (bids $99 at once, every post answered 400), late "
         "(bids $100 500 ms past the ping deadline), doubt (first post of each lead answered 503, later ones "
         "200), slow (first post of each lead answered 1 s past SERVICEMATCH_POST_TIMEOUT_MS, later ones at "
         "once). Each run: a fresh database, `servicematch serve --no-migrate --no-worker` and one `servicematch "
         "worker`, killed with SIGKILL every K seconds while leads come in and started again at once; then a "
         "drain until every auction is closed and nothing to a buyer is pending. SERVICEMATCH_DELIVERY_LEASE_"
         "SECONDS=5, SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS=3, SERVICEMATCH_POST_SETTLE_SECONDS=20. Exclusive "
         "sales per lead: from `sales`, and from the buyers' notes (distinct buyers that answered a lead post "
         "with a 2xx, one of them exclusive). Companies per lead: distinct buyers the buyers saw a lead post "
         "from, and distinct buyers of lead posts tried at least once in `deliveries`. Given up in doubt: lead "
         "posts `failed` in `deliveries` (in brackets, leads an exclusive buyer's post was given up for and "
         "another buyer then received, by the buyers' notes). Repeat posts: lead posts "
         "with a webhook-id already seen, to buyers that answer at once (after kills) + to the doubt and slow "
         "buyers (their design). Late-bidder wins: its sales plus lead posts it received. Sales without a 200: "
         "a sale the buyer never took; a 200 without a sale: a buyer that believes it bought a lead the "
         "database did not sell it (an answer past the post deadline, or given up in doubt)."),
        "",
        (f"- Run: {started_at:%Y-%m-%d %H:%M} UTC on {machine_description()}; load average {loads[0]} before and "
         f"{loads[1]} after (1 / 5 / 15 min); {args.rate:g} leads/s for {args.seconds:g} s, a kill every "
         f"{args.kill_every:g} s; ping timeout {args.ping_timeout_ms} ms, post timeout {args.post_timeout_ms} ms; "
         f"buyers: {mix}; command: `uv run python bench/auction_kills.py {shlex.join(sys.argv[1:])}`"),
        "",
        ("| database | leads sent / accepted | kills | leads sold | exclusive sales per lead, max: sales / buyers "
         "(leads over one) | companies per lead, max: buyers / deliveries (leads over three) | given up in doubt "
         "(then posted to another) | repeat posts: after kills + by design | auctions never closed | late-bidder wins "
         "| sales without a 200 / 200s without a sale | drained in |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *[table_row(row) for row in rows],
        "",
        verdicts(rows)])


def details(row: dict) -> str:
    """What the table leaves out, printed only: which leads broke a goal, and the notices sent."""
    parts = [(f"  refused submissions: {row['refused'] or 'none'}; notices (distinct): {row['notices'] or 'none'}; "
              f"webhook-ids posted to two buyers: {row['webhook_ids_to_two_buyers']}")]
    for name in ("seen_exclusive_over", "companies_over", "after_doubt", "not_closed"):
        if row[name]:
            parts.append(f"  {name}: {', '.join(row[name][:10])}{' ...' if len(row[name]) > 10 else ''}")
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", type=listed(str), default=["sqlite", "postgresql"])
    parser.add_argument("--rate", type=float, default=20.0, help="leads a second")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long leads are submitted")
    parser.add_argument("--kill-every", type=float, default=8.0, help="seconds between SIGKILLs of the worker")
    parser.add_argument("--buyers", type=int, default=8)
    parser.add_argument("--behaviours", type=listed(str), default=DEFAULT_BEHAVIOURS.split(","),
                        help="per buyer, buyer 0 first: fast, refuse, late, doubt, slow (the rest fast)")
    parser.add_argument("--shared-buyers", type=listed(int), default=[],
                        help="numbers of the buyers added --shared (the others are exclusive)")
    parser.add_argument("--drain-seconds", type=float, default=180.0, help="most to wait after the last submission")
    parser.add_argument("--ping-timeout-ms", type=int, default=1000)
    parser.add_argument("--post-timeout-ms", type=int, default=3000)
    parser.add_argument("--worker-poll-seconds", type=float, default=0.05)
    parser.add_argument("--log-dir", type=Path, help="keep each worker process's log here")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    if args.log_dir is not None:
        args.log_dir.mkdir(parents=True, exist_ok=True)
    started_at, load_before = datetime.now(UTC), os.getloadavg()
    rows = []
    for database in args.databases:
        setup = {**vars(args), "database": database, "leads": round(args.rate * args.seconds)}
        print(f"{database}: {setup['leads']} leads at {args.rate:g}/s, a kill every {args.kill_every:g} s ...",
              flush=True)
        rows.append(run(setup))
        print(table_row(rows[-1]) + "\n" + details(rows[-1]), flush=True)
    body = report(rows, args, started_at, load_before, os.getloadavg())
    print(body)
    if not args.no_report:
        write_report_section(HEADING, body)


if __name__ == "__main__":
    main()
