"""The production deployment against one process: accepted leads a second and the auction's
commit-to-post times, for nginx with two web processes and two workers (deploy/, started as
`make test-deploy` starts it) and for a single `servicematch serve` (its worker beside it, plain
HTTP, no nginx), one after the other in the same run on the same machine.

Both run in production (deploy/production.env.example filled in: PostgreSQL, Redis, an SMTP server
that requires STARTTLS) with five buyers bidding (bench/load_buyers.py). Each setup, on a fresh
database: a few warm-up leads; then leads at a fixed rate (commit to post at that rate); then
`--concurrency` visitors each sending its next lead as soon as the last is answered, for
`--burst-seconds` (the most leads a second it accepts, and commit to post under that load). Every
two leads come from a client address of their own (127.0.x.y), as the rate limits expect visitors.
Commit to post: a lead's `createdAt` to its post's arrival at the buyer. Server CPU: utime + stime
over the phase and its drain, per lead accepted, of nginx (master and workers), the web processes
and the workers (for one `serve`: the process itself and the worker it started).

    uv run python bench/deployment.py [--rate 20] [--seconds 20] [--concurrency 32] [--burst-seconds 15]
        [--append] [--no-report]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent / "deploy" / "tests")]
from deployment_checks import drained
from lead_load import Sent, Visitors, send_as_answered, send_leads
from local_services import favoured, free_port, stop_process, wait_until_answers
from local_stack import UNITS, Unit
from running_stack import running_stack, start_backing
from server import machine_description, write_report_section

HEADING = "Deployment: nginx, two web processes and two workers against one process"
TICK = os.sysconf("SC_CLK_TCK")
WARM_UP_LEADS = 10
DRAIN_SECONDS = 180.0


PARTS = ("nginx", "web", "workers")


@dataclass
class Setup:
    name: str
    base_url: str
    tls: object  # an ssl.SSLContext, or True
    database_url: str
    buyers_url: str
    cpu: dict[str, Callable[[], float]]  # the CPU seconds so far of each of PARTS that runs


def own_cpu_seconds(pid: int) -> float:
    """utime + stime of one process, all its threads."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children(pid: int) -> list[int]:
    try:
        return [int(child) for child in " ".join(
            path.read_text() for path in Path(f"/proc/{pid}/task").glob("*/children")).split()]
    except (FileNotFoundError, ProcessLookupError):
        return []


def tree_cpu_seconds(pid: int) -> float:
    """A process and every process below it (nginx's workers)."""
    return own_cpu_seconds(pid) + sum(tree_cpu_seconds(child) for child in children(pid))


@contextlib.contextmanager
def deployment(folder: Path, buyers: int) -> Iterator[Setup]:
    with running_stack(folder, buyers=buyers) as stack:
        # The processes of this moment: a restarted one would be a new process (none is killed here).
        cpu = {"nginx": lambda: tree_cpu_seconds(stack.nginx.pid),
               "web": lambda: sum(own_cpu_seconds(p.process.pid) for p in stack.web),
               "workers": lambda: sum(own_cpu_seconds(p.process.pid) for p in stack.workers)}
        yield Setup("nginx, 2 web, 2 workers", stack.base_url, stack.tls(), stack.database_url, stack.buyers_url,
                    cpu)


@contextlib.contextmanager
def single_process(folder: Path, buyers: int) -> Iterator[Setup]:
    """The web unit's command line less --no-worker: one `servicematch serve` and the worker it
    starts beside itself, as `make run` serves."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with contextlib.ExitStack() as stack:
        backing = start_backing(stack, folder, site_origin=base_url, buyers=buyers)
        unit = Unit(UNITS / "servicematch-web@.service", str(port), folder)
        command = [part for part in unit.command() if part != "--no-worker"]
        with open(folder / "logs" / "serve.log", "wb") as log:
            process = subprocess.Popen(command, cwd=unit.working_directory(),
                                       env={**unit.environment(), **backing.extra_env}, stdout=log,
                                       stderr=subprocess.STDOUT)
        stack.callback(stop_process, process)
        wait_until_answers(f"{base_url}/api/health", process, "servicematch serve")
        cpu = {"web": lambda: own_cpu_seconds(process.pid),
               "workers": lambda: sum(tree_cpu_seconds(child) for child in children(process.pid))}
        yield Setup("one servicematch serve", base_url, True, backing.database_url, backing.buyers_url, cpu)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else float("nan")


async def posted(setup: Setup, sent: Sent, client: httpx.AsyncClient) -> dict:
    """Wait until every auction closed; the phase's commit-to-post times from the buyers' notes."""
    drain = await asyncio.to_thread(drained, setup.database_url, DRAIN_SECONDS)
    notes = (await client.get(f"{setup.buyers_url}/results")).json()["notes"]
    await client.post(f"{setup.buyers_url}/reset")
    times = [(note["at"] - note["created"]) * 1000 for request_id, note in notes.items() if request_id in sent.accepted]
    return {"commit_ms": times, "drain_s": drain}


async def measure(setup: Setup, args: argparse.Namespace) -> list[dict]:
    visitors = Visitors(setup.base_url, setup.tls)
    rows = []
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            service = await visitors.service()
            warm = await send_leads(visitors, service, count=WARM_UP_LEADS, rate=args.rate, first_number=900_000,
                                    address_offset=30_000)
            await posted(setup, warm, client)
            phases = (
                (f"{args.rate:g}/s × {args.seconds:g} s",
                 lambda: send_leads(visitors, service, count=round(args.rate * args.seconds), rate=args.rate)),
                (f"{args.concurrency} at once × {args.burst_seconds:g} s",
                 lambda: send_as_answered(visitors, service, concurrency=args.concurrency, seconds=args.burst_seconds,
                                          first_number=100_000, address_offset=10_000)))
            for load, send in phases:
                cpu_before, started = {part: read() for part, read in setup.cpu.items()}, time.monotonic()
                sent = await send()
                elapsed = time.monotonic() - started
                after_post = await posted(setup, sent, client)
                cpu = {part: read() - cpu_before[part] for part, read in setup.cpu.items()}
                rows.append({"setup": setup.name, "load": load, "sent": sum(sent.final.values()),
                             "accepted": len(sent.accepted), "per_second": len(sent.accepted) / elapsed,
                             "refused": {k: v for k, v in sent.final.items() if k != 202},
                             "cpu_ms": {part: seconds * 1000 / max(1, len(sent.accepted))
                                        for part, seconds in cpu.items()},
                             **after_post})
                print(table_row(rows[-1]), flush=True)
    finally:
        await visitors.close()
    return rows


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share):.0f}" if values else "n/a"


def table_row(row: dict) -> str:
    times, drain = row["commit_ms"], row["drain_s"]
    split = " / ".join(f"{row['cpu_ms'][part]:.1f}" if part in row["cpu_ms"] else "-" for part in PARTS)
    cpu = f"{sum(row['cpu_ms'].values()):.1f} ({split})"
    refused = f" ({row['refused']})" if row["refused"] else ""
    return (f"| {row['setup']} | {row['load']} | {row['sent']} / {row['accepted']}{refused} | {row['per_second']:.1f} "
            f"| {ms(times, 0.5)} / {ms(times, 0.99)} / {ms(times, 1.0)} ms | {len(times)} | "
            f"{f'{drain:.1f} s' if drain is not None else f'not within {DRAIN_SECONDS:g} s'} | {cpu} |")


def report(rows: list[dict], args: argparse.Namespace, started_at: datetime, load_before, load_after) -> str:
    loads = [" / ".join(f"{value:.1f}" for value in load) for load in (load_before, load_after)]
    return "\n".join([
        __doc__.split("\n\n")[0].replace("\n", " ") + " " + __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        (f"- Run: {started_at:%Y-%m-%d %H:%M} UTC on {machine_description()}; load average {loads[0]} before and "
         f"{loads[1]} after (1 / 5 / 15 min); command: `uv run python bench/deployment.py {shlex.join(sys.argv[1:])}`"),
        "",
        ("| setup | load | sent / accepted | accepted a second | commit to post p50 / p99 / max | posted "
         "| every auction closed after | server CPU ms a lead (nginx / web / workers) |"),
        "|---|---|---:|---:|---:|---:|---:|---:|",
        *[table_row(row) for row in rows]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=20.0, help="leads a second in the fixed-rate phase")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the fixed-rate phase sends")
    parser.add_argument("--concurrency", type=int, default=32, help="visitors at once in the as-answered phase")
    parser.add_argument("--burst-seconds", type=float, default=15.0, help="how long the as-answered phase sends")
    parser.add_argument("--buyers", type=int, default=5)
    parser.add_argument("--append", action="store_true", help="add the rows to the table already in the report")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    started_at, load_before = datetime.now(UTC), os.getloadavg()
    rows = []
    for make_setup in (deployment, single_process):
        with tempfile.TemporaryDirectory(prefix="servicematch-bench-") as folder, \
                make_setup(Path(folder), args.buyers) as setup:
            print(f"{setup.name} ...", flush=True)
            with favoured():  # the visitors ahead of the servers: the servers' limits are measured
                rows += asyncio.run(measure(setup, args))
    body = report(rows, args, started_at, load_before, os.getloadavg())
    print(body)
    if not args.no_report:
        if args.append:
            body = "\n".join(line for line in body.splitlines() if line.startswith(("- Run", "| ")) and
                             not line.startswith(("| setup", "|---")))
            write_report_section(HEADING, appended_section(body))
        else:
            write_report_section(HEADING, body)


def appended_section(new_lines: str, report_path: Path = BENCH.parent / "docs" / "benchmarks.md") -> str:
    """The section as it is, with this run's line and rows added after the last of each."""
    whole = report_path.read_text() if report_path.exists() else ""
    marker = f"## {HEADING}\n"
    if marker not in whole:
        return new_lines
    start = whole.index(marker) + len(marker)
    end = whole.find("\n## ", start)
    lines = whole[start:None if end == -1 else end + 1].strip("\n").splitlines()
    for prefix in ("- Run", "| "):
        adding = [line for line in new_lines.splitlines() if line.startswith(prefix)]
        last = max((i for i, line in enumerate(lines) if line.startswith(prefix)), default=len(lines) - 1)
        lines[last + 1:last + 1] = adding
    return "\n".join(lines)


if __name__ == "__main__":
    main()
