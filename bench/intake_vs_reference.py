"""Lead intake side by side with a reference checkout, and against the bare insert.

Three servers per database, each on a fresh database of its own, all with the worker off and no
providers or buyers configured (no SERVICEMATCH_BUYER_URL, no provider rows, no buyer rows):

- "reference": `servicematch serve --no-worker` of another checkout (`--reference DIR`, by default
  /tmp/bench-auction/ref, commit ace3fec), run with that checkout's own environment;
- "current": `servicematch serve --no-worker` of this tree;
- "bare insert": bench/server.py's benchmark app (this tree's app plus POST /api/bench/insert).

Every server is loaded by the same wrk script (bench/submit.lua: a new requestId, phone and
client address per request) with the same body, 20 connections, in alternating rounds (reference,
current, bare insert, then again), so a noisy moment on the machine lands on each in turn. After
every run the rows stored in the server's database are counted: the figure reported is new
leads (or bare rows) per second, not requests per second. The report keeps each server's median
round and writes the "Intake against the reference" section of docs/benchmarks.md.

    uv run python bench/intake_vs_reference.py [--reference DIR] [--seconds 10] [--rounds 3]
                                               [--databases sqlite,postgresql] [--no-report]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_throughput import lead_template, run_wrk
from server import (
    ROOT,
    free_port,
    fresh_database,
    machine_description,
    running_server,
    write_report_section,
)

from servicematch.devserver import start_server, stop_server

CONNECTIONS = 20
TARGET_AGAINST_REFERENCE = 1.0
TARGET_AGAINST_BARE = 0.80
DEFAULT_REFERENCE = Path("/tmp/bench-auction/ref")
SERVER_ENV = {
    # One load generator stands for thousands of visitors: lift the per-IP limit, and believe the
    # client address submit.lua gives each request.
    "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000",
    "SERVICEMATCH_TRUSTED_PROXIES": "127.0.0.1",
    "SERVICEMATCH_WORKER_ENABLED": "false",
    "SERVICEMATCH_BUYER_URL": "",
    "SERVICEMATCH_SMTP_HOST": "",
}
# Environment variables that tie a process to this tree's virtual environment.
VENV_VARIABLES = ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT", "PYTHONPATH", "PYTHONHOME")


def git_commit(folder: Path) -> str:
    return subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()


@contextlib.contextmanager
def reference_server(reference: Path, database_url: str) -> Iterator[str]:
    """`servicematch serve --no-worker` of the reference checkout, with its own Python and files."""
    python = reference / ".venv" / "bin" / "python"
    if not python.exists():
        sys.exit(f"{python} is missing: run `python3 -m uv sync --frozen` in {reference}")
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in VENV_VARIABLES}
    env.update({"SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}",
                "HOST": "127.0.0.1", "PORT": str(port), **SERVER_ENV})
    base_url = f"http://127.0.0.1:{port}"
    # start_server starts commands in this tree; the reference runs in its own folder.
    command = ("/bin/sh", "-c", (f"cd {shlex.quote(str(reference))} && exec {shlex.quote(str(python))} "
               "-m servicematch.cli serve --no-worker"))
    process = start_server(env=env, base_url=base_url, command=command)
    try:
        yield base_url
    finally:
        stop_server(process)


def count_rows(database_url: str, table: str) -> int:
    if database_url.startswith("sqlite:///"):
        with contextlib.closing(sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=30)) as connection:
            return connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    plain = database_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain) as connection:
        return connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def probe(base_url: str, path: str, body: str) -> None:
    """One submission with the template, so a server that refuses the payload stops the run here."""
    sent = body.replace("__REQUEST_ID__", "probe-" + os.urandom(6).hex()).replace("__PHONE__", "5125550100")
    answer = httpx.post(base_url + path, content=sent, headers={"Content-Type": "application/json"}, timeout=30)
    if answer.status_code != 202:
        raise RuntimeError(f"{base_url}{path} refused the benchmark body: {answer.status_code} {answer.text[:300]}")


def measure(kind: str, reference: Path, seconds: int, rounds: int, body_file: Path) -> list[dict]:
    servers = {"reference": "/api/submit-form", "current": "/api/submit-form", "bare insert": "/api/bench/insert"}
    tables = {"reference": "leads", "current": "leads", "bare insert": "bench_baseline_rows"}
    runs: dict[str, list[dict]] = {name: [] for name in servers}
    with contextlib.ExitStack() as stack:
        urls = {name: stack.enter_context(fresh_database(kind)) for name in servers}
        bases = {
            "reference": stack.enter_context(reference_server(reference, urls["reference"])),
            "current": stack.enter_context(running_server(urls["current"], SERVER_ENV, ("--no-worker",))),
            "bare insert": stack.enter_context(running_server(urls["bare insert"], SERVER_ENV, benchmark_app=True)),
        }
        body = body_file.read_text()
        for name, path in servers.items():
            probe(bases[name], path, body)
            run_wrk(bases[name] + path, CONNECTIONS, 2, body_file)  # warm-up: imports, pools, caches
        for round_number in range(rounds):
            for name, path in servers.items():
                before = count_rows(urls[name], tables[name])
                result = run_wrk(bases[name] + path, CONNECTIONS, seconds, body_file)
                time.sleep(1)  # requests wrk left under way when it stopped still commit
                stored = count_rows(urls[name], tables[name]) - before
                duration = result["requests"] / result["rps"] if result["rps"] else seconds
                run = {**result, "stored": stored, "stored_per_s": stored / duration,
                       "load": os.getloadavg()[0]}
                runs[name].append(run)
                print(f"{kind:10} round {round_number + 1} {name:11} {result['requests']:6} requests "
                      f"{stored:6} stored {run['stored_per_s']:7.1f}/s p50 {result['p50_ms']:6.1f} ms "
                      f"p99 {result['p99_ms']:7.1f} ms errors {result['errors']} load {run['load']:.1f}",
                      flush=True)
    rows = []
    for name, results in runs.items():
        middle = sorted(results, key=lambda r: r["stored_per_s"])[len(results) // 2]
        rows.append({"database": kind, "server": name, **middle, "all": [r["stored_per_s"] for r in results],
                     "requests_total": sum(r["requests"] for r in results),
                     "stored_total": sum(r["stored"] for r in results),
                     "errors_total": sum(r["errors"] for r in results)})
    return rows


def report(rows: list[dict], *, reference: Path, seconds: int, rounds: int, load_before: tuple, load_after: tuple,
           started: datetime) -> str:
    current_commit = git_commit(ROOT)
    reference_commit = git_commit(reference)
    lines = [
        (f"`POST /api/submit-form` of this tree against the same endpoint of commit {reference_commit} (the "
         "reference, from a checkout of its own with its own locked dependencies), and against the bare "
         "one-row insert of bench/server.py's benchmark app. Each server gets a fresh database of its own; "
         f"the worker is off in all three (`serve --no-worker`, SERVICEMATCH_WORKER_ENABLED=false) and no "
         "providers or buyers are configured (no SERVICEMATCH_BUYER_URL, no provider or buyer rows), so the "
         "reference's in-request routing finds nobody to route to. Rate limits: each server's default "
         "store (the reference's database counters, this tree's in-memory one), limit lifted to 100,000,000, "
         "the client address taken from X-Forwarded-For (trusted 127.0.0.1). All three are driven by "
         f"this tree's bench/submit.lua with one body, wrk with 2 threads and {CONNECTIONS} connections, "
         "every request a new requestId, phone and client address. Rounds alternate reference, current, "
         f"bare insert; {rounds} rounds of {seconds} s per server per database, after a 2 s warm-up each. "
         "\"new/s\" counts rows stored in the server's database during the run (leads, or bare rows) "
         "over the run's time (it includes the at most 20 requests under way when wrk stopped, which the "
         "server still finishes); the table shows each server's median round by that figure."),
        "",
        (f"- Run: {started:%Y-%m-%d %H:%M} UTC, this tree at {current_commit}, on {machine_description()}; "
         f"load average {load_before[0]:.1f} / {load_before[1]:.1f} / {load_before[2]:.1f} (1 / 5 / 15 min) "
         f"before and {load_after[0]:.1f} / {load_after[1]:.1f} / {load_after[2]:.1f} after: the machine "
         "is shared, and the load generator, the three servers and PostgreSQL share its cores with "
         "other people's work."),
        (f"- Command: `uv run python bench/intake_vs_reference.py --reference {reference} "
         f"--seconds {seconds} --rounds {rounds}`"),
        "",
        ("| database | server | new/s (median round) | each round new/s | requests (all rounds) | "
        "stored (all rounds) | p50 ms | p99 ms | errors | against reference | against bare insert |"),
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    verdicts = []
    for row in rows:
        same = {r["server"]: r for r in rows if r["database"] == row["database"]}
        against_reference = against_bare = ""
        if row["server"] == "current":
            ref_rate, bare_rate = same["reference"]["stored_per_s"], same["bare insert"]["stored_per_s"]
            ratio_ref = row["stored_per_s"] / ref_rate if ref_rate else None
            ratio_bare = row["stored_per_s"] / bare_rate if bare_rate else None
            against_reference = "n/a" if ratio_ref is None else f"{ratio_ref:.2f}x"
            against_bare = "n/a" if ratio_bare is None else f"{ratio_bare:.0%}"
            verdicts.append(
                f"{row['database']}: {against_reference} the reference (goal at least "
                f"{TARGET_AGAINST_REFERENCE:.1f}x, {'met' if (ratio_ref or 0) >= TARGET_AGAINST_REFERENCE else 'not met'}), "
                f"{against_bare} of the bare insert (goal at least {TARGET_AGAINST_BARE:.0%}, "
                f"{'met' if (ratio_bare or 0) >= TARGET_AGAINST_BARE else 'not met'})")
        each = ", ".join(f"{value:.0f}" for value in row["all"])
        lines.append(f"| {row['database']} | {row['server']} | {row['stored_per_s']:.0f} | {each} | "
                     f"{row['requests_total']} | {row['stored_total']} | {row['p50_ms']:.1f} | {row['p99_ms']:.1f} | "
                     f"{row['errors_total']} | {against_reference} | {against_bare} |")
    lines += ["", "Goals: " + "; ".join(verdicts) + "."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE,
                        help="a checkout of the reference commit, its dependencies installed (uv sync --frozen)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install -y wrk")
    reference = args.reference.resolve()
    started = datetime.now(UTC)
    load_before = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp) / "lead.json"
        body_file.write_text(lead_template())
        for kind in args.databases.split(","):
            rows += measure(kind, reference, args.seconds, args.rounds, body_file)
    load_after = os.getloadavg()
    text = report(rows, reference=reference, seconds=args.seconds, rounds=args.rounds, load_before=load_before,
                  load_after=load_after, started=started)
    print(text)
    if not args.no_report:
        write_report_section("Intake against the reference", text)


if __name__ == "__main__":
    main()
