"""Auction under load: leads at a fixed rate, 10 or 20 bidders, one or two separate worker processes.

Buyers in a process of their own (bench/load_buyers.py), a fresh database, `servicematch serve
--no-worker` and K `servicematch worker` processes; leads at R a second for S seconds, then a
drain until every auction is closed. Reports commit-to-post times, unsold leads and why, repeat
posts, CPU per lead, the workers' threads and RSS, and when the backlog cleared (see `report`).
`--code-root` runs the system under test from another checkout (a worktree of an older commit);
`--label` tags the rows and `--append` adds them to the table already in docs/benchmarks.md.

    uv run python bench/auction_load.py [--databases sqlite,postgresql] [--bidders 10,20] [--workers 1,2]
        [--rates 5,20,50] [--seconds 30] [--drain-seconds 120] [--worker-poll-seconds 0.05]
        [--code-root PATH] [--label NAME] [--append] [--no-report] [--memory-leads N]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from auction_latency import server_env
from delivery_latency import lead_body, percentile
from server import ROOT, free_port, fresh_database, machine_description, write_report_section

from servicematch.devserver import stop_server
from servicematch.quality.phone_checks import is_fake

HEADING = "Auction under load"
# Texas area codes with the 555 exchange: about 237,600 distinct valid numbers, so no lead is a
# duplicate.
AREA_CODES = (512, 737, 214, 469, 972, 713, 281, 832, 210, 726, 817, 682, 915, 254, 361, 409, 430, 432,
              903, 940, 956, 979, 806, 325)
IDLE_SECONDS = 3.0
# The client's connections to the web process. httpcore's pool, each time a request starts or ends,
# looks at every connection (each check a poll and a getpeername): with 64, 20 minutes into a run of
# 100,000 leads, that was 71% of the client's samples in a profile (py-spy). A request answers in
# tens of ms, so 16 hold 50 a second with room; the rest wait, cheaply, on the semaphore in `submit`.
CLIENT_CONNECTIONS = 16
START_SECONDS = 180.0  # start-up on a busy machine (imports, catalogue, first connections)
# A pass for the buyer's deadline (no answer in time, or the ping started after the deadline) or
# for the worker's own delay (a ping not sent, or an answer not read, in time): with buyers that
# all answer within 100 ms, each is our delay.
TIMEOUT_PASS = ("s.kind = 'pass' AND (s.detail LIKE '%no answer within%' OR s.detail LIKE 'no time left%' "
                "OR s.detail LIKE 'not pinged in time%' OR s.detail LIKE 'not read in time%')")
GOAL_P99_MS, GOAL_CPU_MS, GOAL_BACKLOG_S, GOAL_RSS_GROWTH = 200, 5.0, 60.0, 0.10
TICK = os.sysconf("SC_CLK_TCK")


def phone_numbers() -> Iterator[str]:
    # Not the numbers the quality gate calls made up (555-01xx, runs such as 210-555-4321): such a
    # lead is held for review, never auctioned, and the drain would wait for it in vain.
    return (phone for area in AREA_CODES for number in range(10_000)
            if not is_fake(phone := f"{area}555{number:04d}"))


def cpu_seconds(pid: int) -> float:
    """utime + stime of the process (all its threads), from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_and_threads(pid: int) -> tuple[float, int]:
    """(VmRSS in MB, threads) from /proc/<pid>/status."""
    values = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(values["VmRSS"].split()[0]) / 1024, int(values["Threads"])


def process_env(code_root: Path, database_url: str, env: dict[str, str]) -> dict[str, str]:
    # PYTHONPATH puts the checkout's package ahead of the one installed in the environment.
    return {**os.environ, **env, "SERVICEMATCH_DATABASE_URL": database_url, "PYTHONPATH": str(code_root / "backend")}


def prepare_database(code_root: Path, database_url: str, env: dict[str, str], buyers_url: str, bidders: int) -> None:
    """`servicematch migrate`, then `servicematch buyers add` for each bidder, with the checkout's own
    code, in one interpreter: one start-up instead of 21 on a busy machine."""
    # Buyers added now are prepaid: on credit terms they buy as they did before money came (an
    # older checkout has no terms, and no such option).
    terms = ["--terms", "credit"] if (code_root / "backend/servicematch/ledger/terms.py").exists() else []
    commands = [["migrate"]] + [
        ["buyers", "add", "--name", f"Bench buyer {n}", "--ping-url", f"{buyers_url}/b{n}/ping", "--post-url",
         f"{buyers_url}/b{n}/post", "--exclusive", "--secret", "whsec_" + base64.b64encode(os.urandom(24)).decode(),
         *terms]
        for n in range(bidders)]
    script = ("import json, sys\nfrom servicematch.cli import main\n"
              "for args in json.loads(sys.argv[1]):\n    main(args, standalone_mode=False)")
    done = subprocess.run([sys.executable, "-c", script, json.dumps(commands)], cwd=code_root, text=True,
                          capture_output=True, env=process_env(code_root, database_url, env), check=False)
    if done.returncode != 0:
        raise RuntimeError(f"migrate / buyers add failed:\n{done.stdout}\n{done.stderr}")


@contextlib.contextmanager
def started(command: list[str], *, cwd: Path, env: dict[str, str], health: str | None = None,
            what: str = "") -> Iterator[subprocess.Popen]:
    """A child process, once `health` answers 200; stopped afterwards as devserver stops the server
    (SIGTERM, a kill if it lingers). Not devserver's start_server: that runs this tree's folder."""
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + START_SECONDS
        while health:
            if process.poll() is not None:
                raise RuntimeError(f"{what} exited during start-up (code {process.returncode})")
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(health, timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not answer within {START_SECONDS:.0f} s")
            time.sleep(0.2)
        yield process
    finally:
        stop_server(process)


async def submit(client: httpx.AsyncClient, base_url: str, service: dict, phones: Iterator[str],
                 count: int, rate: float) -> tuple[dict[str, float], Counter, float]:
    """`count` leads at `rate` a second on a fixed schedule (a slow answer does not delay the next);
    (requestId -> when its 202 was read, refusals by status, when the last answer was read)."""
    accepted: dict[str, float] = {}
    refused: Counter = Counter()
    # As many requests under way as the client has connections: the rest wait here, cheaply. Left
    # to wait in httpx's pool, thousands of them cost the client more CPU than the server spends on
    # the leads (its pool looks through every waiting request each time a connection frees).
    connections = asyncio.Semaphore(CLIENT_CONNECTIONS)

    async def one(phone: str) -> None:
        request_id = str(uuid.uuid4())
        try:
            # From an address of its own, as a proxy the server trusts says (server_env), so the
            # quality gate's per-address velocity check sees visitors, not the benchmark's one host.
            visitor = f"198.18.{int(phone[-4:]) // 250}.{int(phone[-4:]) % 250 + 1}"
            async with connections:
                status = (await client.post(f"{base_url}/api/submit-form", headers={"X-Forwarded-For": visitor},
                                            json=lead_body(service, request_id=request_id, phone=phone))).status_code
        except httpx.HTTPError as error:
            status = type(error).__name__
        if status == 202:
            accepted[request_id] = time.time()
        else:
            refused[str(status)] += 1

    tasks, start = set(), time.perf_counter()
    for i in range(count):
        if (pause := start + i / rate - time.perf_counter()) > 0:
            await asyncio.sleep(pause)
        task = asyncio.create_task(one(next(phones)))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    while tasks:
        await asyncio.gather(*list(tasks))
    return accepted, refused, time.time()


def closed_auctions(engine) -> int:
    with engine.connect() as connection:
        return connection.scalar(text("SELECT count(*) FROM auctions WHERE closed_at IS NOT NULL"))


async def drain(client: httpx.AsyncClient, buyers_url: str, engine, closed: int, posted: int, seconds: float) -> bool:
    """Wait up to `seconds` until `closed` auctions are closed (each lead posted and answered, or given
    up). The buyers' count is cheap; the database is read once the posts have caught up or stalled."""
    deadline, last = time.monotonic() + seconds, -1
    while time.monotonic() < deadline:
        count = (await client.get(f"{buyers_url}/count")).json()["posts"]
        if (count >= posted or count == last) and await asyncio.to_thread(closed_auctions, engine) >= closed:
            return True
        last = count
        await asyncio.sleep(0.5 if count < posted else 0.2)
    return False


class Steps(NamedTuple):
    """One lead's auction, from its waterfall (auction_steps)."""

    accepted: int
    closed: int
    timeout_passes: int
    decided: int  # outcome or closed steps: the lead was routed
    bids_ms: int | None  # when the worker took the bids (the last bid or pass it recorded)
    outcome_ms: int | None


def waterfall(engine) -> dict[str, Steps]:
    counts = ", ".join(f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)" for condition in (
        "s.kind = 'accepted'", "s.kind = 'closed'", TIMEOUT_PASS, "s.kind IN ('outcome', 'closed')"))
    query = text(f"SELECT l.request_id, {counts}, MAX(CASE WHEN s.kind IN ('bid', 'pass') THEN s.at_ms END), "
                 "MIN(CASE WHEN s.kind = 'outcome' THEN s.at_ms END) "
                 "FROM leads l LEFT JOIN auction_steps s ON s.lead_id = l.id GROUP BY l.request_id")
    with engine.connect() as connection:
        return {row[0]: Steps(*(int(value or 0) for value in row[1:5]), *row[5:]) for row in connection.execute(query)}


async def measure(setup: dict, base_url: str, buyers_url: str, engine, web: int, workers: list[int],
                  buyers: int) -> dict:
    phones = phone_numbers()
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=CLIENT_CONNECTIONS)) as client:
        service = (await client.get(f"{base_url}/api/services/services/hvac")).json()
        # Not counted: the workers' first auctions open their connections and fill their caches.
        warm, _, _ = await submit(client, base_url, service, phones, setup["warm_up_leads"], setup["rate"])
        if not await drain(client, buyers_url, engine, len(warm), len(warm), START_SECONDS):
            raise RuntimeError(f"the warm-up leads were not all routed within {START_SECONDS:.0f} s")
        await client.post(f"{buyers_url}/reset")
        # What the workers spend with nothing to do (polling), apart from what the leads cost.
        idle_before = sum(cpu_seconds(pid) for pid in workers)
        await asyncio.sleep(IDLE_SECONDS)
        idle_ms = (sum(cpu_seconds(pid) for pid in workers) - idle_before) * 1000 / IDLE_SECONDS
        rss_start = [rss_and_threads(pid)[0] for pid in workers]
        rss_max, threads = list(rss_start), [0] * len(workers)
        cpu_before = [cpu_seconds(pid) for pid in [web, *workers]]
        # The load's own cost, to show it stays small: the buyers' process and this one (the client).
        load_before = cpu_seconds(buyers), time.process_time()

        series: list[list[float]] = []  # each worker's RSS at each sample while the leads come and drain

        def sample() -> list[float]:
            now = [rss_and_threads(pid) for pid in workers]
            for i, (rss, count) in enumerate(now):
                rss_max[i], threads[i] = max(rss_max[i], rss), max(threads[i], count)
            return [rss for rss, _ in now]

        async def sample_every(seconds: float) -> None:
            while True:
                series.append(sample())
                await asyncio.sleep(seconds)

        sampler = asyncio.create_task(sample_every(setup["sample_seconds"]))
        accepted, refused, load_end = await submit(client, base_url, service, phones, setup["leads"], setup["rate"])
        drained = await drain(client, buyers_url, engine, len(warm) + len(accepted), len(accepted),
                              setup["drain_seconds"])
        sampler.cancel()
        cpu_after, rss_end = [cpu_seconds(pid) for pid in [web, *workers]], sample()
        load_cost = [(after - before) * 1000 / max(1, len(accepted))
                     for before, after in zip(load_before, (cpu_seconds(buyers), time.process_time()), strict=True)]
        results = (await client.get(f"{buyers_url}/results")).json()
    every_lead = await asyncio.to_thread(waterfall, engine)
    notes = [note for r, note in results["notes"].items() if r in accepted]
    steps = [every_lead.get(r, Steps(0, 0, 0, 0, None, None)) for r in accepted]
    unsold = [lead for lead in steps if not lead.accepted]
    routed = sum(1 for lead in steps if lead.decided)
    last_post = max((note["at"] for note in notes), default=load_end)
    return {**setup, "accepted": len(accepted), "refused": dict(refused), "posted": len(notes),
            "repeats": sum(note["count"] - 1 for note in notes),
            "commit_ms": [(note["at"] - note["created"]) * 1000 for note in notes],
            "bids_ms": [lead.bids_ms for lead in steps if lead.bids_ms is not None],
            "outcome_ms": [lead.outcome_ms for lead in steps if lead.outcome_ms is not None],
            "unsold": len(unsold), "unsold_timeout": sum(1 for lead in unsold if lead.timeout_passes),
            "timeout_passes": sum(lead.timeout_passes for lead in steps),
            "not_closed": sum(1 for lead in steps if not lead.closed),
            "worker_cpu_ms": (sum(cpu_after[1:]) - sum(cpu_before[1:])) * 1000 / max(1, routed), "idle_cpu_ms": idle_ms,
            "worker_cpu_split": [after - before for before, after in zip(cpu_before[1:], cpu_after[1:], strict=True)],
            "web_cpu_ms": (cpu_after[0] - cpu_before[0]) * 1000 / max(1, len(accepted)),
            "threads": threads, "rss_start": rss_start, "rss_max": rss_max, "rss_end": rss_end,
            "rss_series": series,
            "backlog_s": max(0.0, last_post - load_end) if drained else None, "load_cpu_ms": load_cost}


def run(setup: dict, code_root: Path) -> dict:
    """One run on fresh everything: buyers, database, web process, workers."""
    with contextlib.ExitStack() as stack:
        port = free_port()
        buyers_url = f"http://127.0.0.1:{port}"
        buyers = stack.enter_context(started(
            [sys.executable, str(Path(__file__).with_name("load_buyers.py")), "--port", str(port),
             "--buyers", str(setup["bidders"])], cwd=ROOT, env=dict(os.environ), health=f"{buyers_url}/count",
            what="the buyers"))
        database_url = stack.enter_context(fresh_database(setup["database"]))
        # Without an SMTP host consumers' receipts are kept as files: in a folder of the run's own.
        env = {**server_env(setup["ping_timeout_ms"]),
               "SERVICEMATCH_MAIL_DIR": stack.enter_context(tempfile.TemporaryDirectory())}
        prepare_database(code_root, database_url, env, buyers_url, setup["bidders"])
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        web_env = {**env, "SERVICEMATCH_WORKER_ENABLED": "false", "SERVICEMATCH_SITE_ORIGIN": base_url,
                   "HOST": "127.0.0.1", "PORT": str(port)}
        web = stack.enter_context(started(
            [sys.executable, "-m", "servicematch.cli", "serve", "--no-migrate", "--no-worker"], cwd=code_root,
            env=process_env(code_root, database_url, web_env), health=f"{base_url}/api/health", what="the web process"))
        worker_env = process_env(code_root, database_url,
                                 {**env, "SERVICEMATCH_WORKER_POLL_SECONDS": str(setup["worker_poll_seconds"])})
        workers = [stack.enter_context(started([sys.executable, "-m", "servicematch.cli", "worker"], cwd=code_root,
                                               env=worker_env)) for _ in range(setup["workers"])]
        engine = create_engine(database_url)
        stack.callback(engine.dispose)
        row = asyncio.run(measure(setup, base_url, buyers_url, engine, web.pid, [w.pid for w in workers],
                                  buyers.pid))
        if buyers.poll() is not None or any(w.poll() is not None for w in workers):
            raise RuntimeError("the buyers' process or a worker died during the run")
        return row


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share):.0f}" if values else "n/a"


def each(values: list[float]) -> str:
    return ", ".join(f"{value:.0f}" for value in values)


def table_row(row: dict) -> str:
    backlog = f"{row['backlog_s']:.1f} s" if row["backlog_s"] is not None else f"not within {row['drain_seconds']:g} s"
    c, bids, outcome = row["commit_ms"], row["bids_ms"], row["outcome_ms"]
    split = row["worker_cpu_split"]
    shares = "; " + " / ".join(f"{part / (sum(split) or 1):.0%}" for part in split) if len(split) > 1 else ""
    return (f"| {row['label']} | {row['database']} | {row['workers']} | {row['bidders']} | {row['rate']:g}/s × "
            f"{row['leads'] / row['rate']:g} s | {row['leads']} / {row['accepted']} / {row['posted']} | "
            f"{ms(c, 0.5)} / {ms(c, 0.99)} / {ms(c, 1.0)} ms | {ms(bids, 0.5)} / {ms(bids, 0.99)}, {ms(outcome, 0.5)} / "
            f"{ms(outcome, 0.99)} ms | {row['unsold']} ({row['unsold_timeout']} after a timeout, {row['not_closed']} "
            f"not closed; {row['timeout_passes']} timeout passes) | {row['repeats']} | {row['worker_cpu_ms']:.1f} "
            f"({row['idle_cpu_ms']:.0f}{shares}) | {row['web_cpu_ms']:.1f} | {each(row['threads'])} | "
            f"{each(row['rss_start'])} / {each(row['rss_max'])} / {each(row['rss_end'])} MB | {backlog} |")


def by_tenths(row: dict) -> str:
    """The first worker's RSS at every tenth of the run (leads and drain), to show a trend, not just a peak."""
    series = [sample[0] for sample in row["rss_series"]]
    if len(series) < 11:
        return ""
    return " (every tenth of the run: " + ", ".join(f"{series[round(i * (len(series) - 1) / 10)]:.0f}"
                                                    for i in range(11)) + ")"


def verdicts(rows: list[dict], label: str) -> str:
    """This invocation's figures beside each goal."""
    def check(name: str, chosen: list[dict], figure, ok) -> str:
        if not chosen:
            return f"{name}: not measured"
        figures = ", ".join(f"{r['database']} {r['workers']}w {r['bidders']}b {r['rate']:g}/s {figure(r)}" for r in chosen)
        return f"{name}: {figures} ({'met' if all(ok(r) for r in chosen) else 'not met'})"

    burst = [r for r in rows if r["rate"] >= 100 and r["leads"] >= 120 * r["rate"]]
    parts = [
        check(f"p99 under {GOAL_P99_MS} ms at 50/s with 20 bidders", [r for r in rows if r["rate"] == 50 and r["bidders"] == 20],
              lambda r: f"{percentile(r['commit_ms'], 0.99):.0f} ms",
              lambda r: percentile(r["commit_ms"], 0.99) < GOAL_P99_MS and r["posted"] == r["accepted"]),
        check("none unsold for our own delay", rows, lambda r: f"{r['unsold_timeout'] + r['not_closed']}",
              lambda r: r["unsold_timeout"] + r["not_closed"] == 0),
        check(f"worker CPU under {GOAL_CPU_MS:g} ms a lead with 10 bidders", [r for r in rows if r["bidders"] == 10],
              lambda r: f"{r['worker_cpu_ms']:.1f} ms", lambda r: r["worker_cpu_ms"] < GOAL_CPU_MS),
        check(f"a 2-minute burst at 100/s cleared within {GOAL_BACKLOG_S:g} s", burst,
              lambda r: "not cleared" if r["backlog_s"] is None else f"{r['backlog_s']:.1f} s",
              lambda r: r["backlog_s"] is not None and r["backlog_s"] <= GOAL_BACKLOG_S)]
    if memory := [r for r in rows if r["memory"]]:
        parts.append(check(f"worker RSS flat within {GOAL_RSS_GROWTH:.0%}", memory,
                           lambda r: f"{each(r['rss_start'])} to at most {each(r['rss_max'])} MB{by_tenths(r)}",
                           lambda r: all(m <= s * (1 + GOAL_RSS_GROWTH) for s, m in zip(r["rss_start"], r["rss_max"]))))
    return f"- Goals for {label}: " + "; ".join(parts) + "."


def report(rows: list[dict], args: argparse.Namespace, started_at: datetime, load_before, load_after) -> str:
    loads = " / ".join(f"{value:.1f}" for value in load_before), " / ".join(f"{value:.1f}" for value in load_after)
    return "\n".join([
        ("Buyers in a process of their own (bench/load_buyers.py, asyncio) on one port, all exclusive: a ping is "
         "answered after a random 0-100 ms with a bid of $5-$50, a post 200 at once. Each run: a fresh database, "
         "the buyers added with `servicematch buyers add`, `servicematch serve --no-migrate --no-worker` and 1 or 2 "
         "`servicematch worker` processes; an asyncio client submits leads at a fixed rate after a few warm-up "
         "leads. Commit to post: `createdAt` to the post's arrival. Bids taken, outcome: auction_steps.at_ms of the "
         "last bid or pass and of the decision (bids taken less ~90-95 ms, the slowest buyer, is about when a worker "
         "picked the lead up). Unsold: no `accepted` step; a timeout pass (\"no answer within\", \"no time left\", "
         "\"not pinged in time\", \"not read in time\") is our own delay, buyers answering within 100 ms; not "
         "closed: no `closed` step at the end. CPU (utime + stime) over the leads and their drain: the workers' "
         "per lead routed (in brackets: idle polling in ms a second, and each worker's share), the web process's "
         "per lead accepted. Threads: the most seen; RSS after warm-up / most seen / at the end, per worker. "
         "Backlog cleared: from the last 202 to the last post."),
        "",
        (f"- Run ({args.label}): {started_at:%Y-%m-%d %H:%M} UTC on {machine_description()}; load average "
         f"{loads[0]} before and {loads[1]} after (1 / 5 / 15 min); {args.warm_up_leads} warm-up leads; ping timeout "
         f"{args.ping_timeout_ms} ms, workers poll every {args.worker_poll_seconds:g} s; command: `uv run python bench/auction_load.py "
         f"{shlex.join(sys.argv[1:])}`"),
        "",
        ("| label | database | workers | bidders | load | sent / accepted / posted | commit to post p50 / p99 / max "
         "| bids taken, outcome p50 / p99 | unsold (why) | repeat posts | worker CPU ms/lead (idle ms/s) "
         "| web CPU ms/lead | worker threads | worker RSS start / max / end | backlog cleared after |"),
        "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
        *[table_row(row) for row in rows],
        "",
        verdicts(rows, args.label)])


def appended(new: str, report_path: Path = ROOT / "docs" / "benchmarks.md") -> str:
    """The section's body with this invocation's run line, table rows and goal line each added after
    the last of its kind, so runs of two checkouts land in one table."""
    marker = f"## {HEADING}\n"
    whole = report_path.read_text() if report_path.exists() else ""
    if marker not in whole:
        return new
    start = whole.index(marker) + len(marker)
    end = whole.find("\n## ", start)
    lines = whole[start:None if end == -1 else end + 1].strip("\n").splitlines()
    for prefix in ("- Run (", "| ", "- Goals for "):
        adding = [line for line in new.splitlines() if line.startswith(prefix) and not line.startswith("| label")]
        last = max((i for i, line in enumerate(lines) if line.startswith(prefix)), default=len(lines) - 1)
        lines[last + 1:last + 1] = adding
    return "\n".join(lines)


def listed(kind):
    """An argparse type: comma-separated values of `kind`."""
    return lambda value: [kind(part) for part in value.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", type=listed(str), default=["sqlite", "postgresql"])
    parser.add_argument("--bidders", type=listed(int), default=[10, 20])
    parser.add_argument("--workers", type=listed(int), default=[1, 2], help="separate worker processes")
    parser.add_argument("--rates", type=listed(float), default=[5.0, 20.0, 50.0], help="leads a second")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long leads are submitted")
    parser.add_argument("--drain-seconds", type=float, default=120.0, help="most to wait after the last submission")
    parser.add_argument("--worker-poll-seconds", type=float, default=0.05,
                        help="SERVICEMATCH_WORKER_POLL_SECONDS for the workers, which nothing may wake sooner")
    parser.add_argument("--ping-timeout-ms", type=int, default=1000)
    parser.add_argument("--warm-up-leads", type=int, default=5, help="sent at the run's rate, not counted")
    parser.add_argument("--memory-leads", type=int, help="send this many leads at the one rate given; RSS every 5 s")
    parser.add_argument("--code-root", type=Path, default=ROOT, help="the checkout whose server and workers run")
    parser.add_argument("--label", help="tags the rows (default: this tree, or reference <commit>)")
    parser.add_argument("--append", action="store_true", help="add the rows to the table already in the report")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    args.code_root = args.code_root.resolve()
    if args.label is None:
        commit = subprocess.run(["git", "-C", str(args.code_root), "rev-parse", "--short", "HEAD"], text=True,
                                capture_output=True, check=False).stdout.strip()
        args.label = "this tree" if args.code_root == ROOT else f"reference {commit or args.code_root}"
    if args.memory_leads and len(args.rates) != 1:
        parser.error("--memory-leads takes a single --rates value")
    started_at, load_before = datetime.now(UTC), os.getloadavg()
    rows = []
    for database, bidders, workers, rate in itertools.product(args.databases, args.bidders, args.workers, args.rates):
        if workers > 1 and database == "sqlite":
            continue  # SQLite takes one writer: one worker
        setup = {**vars(args), "database": database, "bidders": bidders, "workers": workers, "rate": rate,
                 "leads": args.memory_leads or round(rate * args.seconds), "memory": bool(args.memory_leads),
                 "sample_seconds": 5.0 if args.memory_leads else 1.0}
        print(f"{database}, {workers} worker(s), {bidders} bidders, {setup['leads']} leads at {rate:g}/s ...", flush=True)
        rows.append(run(setup, args.code_root))
        print(table_row(rows[-1]) + f"\n  CPU a lead: buyers' process {rows[-1]['load_cpu_ms'][0]:.1f} ms, client "
              f"{rows[-1]['load_cpu_ms'][1]:.1f} ms; refused: {rows[-1]['refused'] or 'none'}", flush=True)
    body = report(rows, args, started_at, load_before, os.getloadavg())
    print(body)
    if not args.no_report:
        write_report_section(HEADING, appended(body) if args.append else body)


if __name__ == "__main__":
    main()
