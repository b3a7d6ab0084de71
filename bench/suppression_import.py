"""`servicematch suppression import` of 10,000,000 SHA-256 digests, and the check routing runs per lead.

Writes a file of N digests (each the SHA-256 of a distinct 10-digit phone number), then, in a fresh
database of each kind, times the check (`quality.suppression.suppressed`: a lead's phone and e-mail
hashed both ways, every global list and three buyers' own lists, one query) against an empty list,
imports the file with the command as an operator runs it (a process of its own: start-up included),
and times the check again with the list loaded, on numbers on the list and numbers not on it.
Goal: 10 million entries imported in under 5 minutes on PostgreSQL.

    uv run python bench/suppression_import.py [--entries 10000000] [--databases postgresql,sqlite]
                                              [--checks 2000] [--again] [--no-report]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import OperationalError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import ROOT, fresh_database, machine_description, write_report_section

from servicematch.db.session import make_engine, make_session_factory
from servicematch.quality.suppression import suppressed
from servicematch.quality.suppression_import import ImportRequest, import_list
from servicematch.schema.migrate import upgrade

HEADING = "Suppression lists"
GOAL_SECONDS = 300.0
FIRST_PHONE, STEP = 2_000_000_000, 37  # the list's phones: 2000000000, 2000000037, ... (the rest never on it)
COMMAND = ("from servicematch.console.suppression_commands import suppression; "
           "suppression(prog_name='servicematch suppression')")


def write_file(path: Path, entries: int) -> float:
    started = time.monotonic()
    with path.open("w") as out:
        for start in range(0, entries, 100_000):
            out.write("".join(f"{hashlib.sha256(str(FIRST_PHONE + STEP * n).encode()).hexdigest()}\n"
                              for n in range(start, min(entries, start + 100_000))))
    return time.monotonic() - started


def time_checks(url: str, entries: int, checks: int, *, on_list: bool) -> tuple[list[float], list[float]]:
    """Milliseconds of each check and, beside each, of a bare round trip (SELECT 1) on the same
    session, after 100 of each to warm up; half the phones on the list when `on_list`."""
    engine = make_engine(url)
    factory = make_session_factory(engine)
    buyers = ["buyer-1", "buyer-2", "buyer-3"]
    rng = random.Random(7)
    timings: list[float] = []
    round_trips: list[float] = []
    try:
        with factory() as session:
            for number in range(checks + 100):
                listed = on_list and number % 2 == 0
                phone = FIRST_PHONE + STEP * rng.randrange(entries) + (0 if listed else 1)
                started = time.perf_counter()
                found = suppressed(session, phone=str(phone), email=f"lead{number}@example.com", buyer_ids=buyers)
                checked = time.perf_counter()
                session.execute(text("SELECT 1")).all()
                ended = time.perf_counter()
                assert found.blocks_everyone == listed, (phone, found)
                if number >= 100:
                    timings.append((checked - started) * 1000)
                    round_trips.append((ended - checked) * 1000)
                session.rollback()
    finally:
        engine.dispose()
    return timings, round_trips


def run_import(url: str, path: Path) -> tuple[float, str]:
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": url}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", COMMAND, "import", str(path), "--list", "bench-litigators",
                           "--hashed", "sha256", "--kind", "phone"], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=False)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"the import failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    return wall, done.stdout


def table_size(url: str) -> str:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            if url.startswith("sqlite"):
                size = connection.execute(text(
                    "SELECT sum(pgsize) FROM dbstat WHERE name LIKE '%suppression_entries%'")).scalar() or 0
            else:
                size = connection.execute(text("SELECT pg_total_relation_size('suppression_entries')")).scalar()
    except OperationalError:  # dbstat is an optional SQLite module
        return "?"
    finally:
        engine.dispose()
    return f"{size / 1e6:,.0f} MB"


def measure(kind: str, path: Path, entries: int, checks: int, again: bool) -> dict:
    with fresh_database(kind) as url:
        upgrade(url)
        engine = make_engine(url)
        with engine.connect() as connection:
            # The reference: the check with a list that is there but empty (it stays beside the big one).
            import_list(connection, [], ImportRequest(list_name="bench-empty", kind="phone", created_by="bench"))
            connection.commit()
        engine.dispose()
        empty, round_trips = time_checks(url, entries, checks, on_list=False)
        print(f"{kind}: importing {entries:,} digests into a new list ...", flush=True)
        wall, output = run_import(url, path)
        print(output, flush=True)
        loaded, more_round_trips = time_checks(url, entries, checks, on_list=True)
        row = {"database": kind, "wall": wall, "empty": empty, "loaded": loaded, "size": table_size(url),
               "round_trips": round_trips + more_round_trips, "again": None}
        if again:
            print(f"{kind}: importing the same file again ...", flush=True)
            row["again"], output = run_import(url, path)
            print(output, flush=True)
        return row


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f} s"


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def report(rows: list[dict], args, file_seconds: float, file_mb: float, started_at: datetime) -> str:
    lines = [
        ("A file of SHA-256 digests (each of a distinct 10-digit phone number), one per line, imported into a "
         "new global list with `servicematch suppression import FILE --list NAME --hashed sha256 --kind phone`, run "
         "as a process of its own (start-up included), into a fresh database of each kind holding one empty list "
         "(for the checks before the import); with --again, the same file imported again. The check is `suppressed()` as routing calls it per lead (phone and e-mail hashed both ways, "
         f"every global list and three buyers' own lists, one query), {args.checks:,} times after 100 to warm up: "
         "first with the list empty, then loaded, half the phones on it; beside each check, a bare round trip "
         f"(`SELECT 1`) on the same session as the reference. Goal: {args.entries:,} entries in under "
         f"{GOAL_SECONDS / 60:.0f} minutes on PostgreSQL."),
        "",
        (f"- Run: {started_at:%Y-%m-%d %H:%M} UTC on {machine_description()}, load average {os.getloadavg()[0]:.1f} "
         f"at the end; the file ({file_mb:,.0f} MB) took {file_seconds:.0f} s to write; command: "
         f"`{' '.join(['uv run python bench/suppression_import.py', *sys.argv[1:]])}`"),
        "",
        ("| database | entries | import into a new list | entries/s | the same file again (adds nothing) | "
         "table + index | a round trip (SELECT 1) p50 / p99 | check p50 / p99, empty list | "
         "check p50 / p99, list loaded | goal |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        goal = "" if row["database"] != "postgresql" else \
            f"{'met' if row['wall'] < GOAL_SECONDS else 'not met'} (< {GOAL_SECONDS:.0f} s)"
        lines.append(
            f"| {row['database']} | {args.entries:,} | {row['wall']:.0f} s | {args.entries / row['wall']:,.0f} | "
            f"{_seconds(row['again'])} | "
            f"{row['size']} | {_p(row['round_trips'], 50):.2f} / {_p(row['round_trips'], 99):.2f} ms | "
            f"{_p(row['empty'], 50):.2f} / {_p(row['empty'], 99):.2f} ms | "
            f"{_p(row['loaded'], 50):.2f} / {_p(row['loaded'], 99):.2f} ms | {goal} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000_000)
    parser.add_argument("--databases", default="postgresql,sqlite")
    parser.add_argument("--checks", type=int, default=2000)
    parser.add_argument("--again", action="store_true", help="then import the same file again (it adds nothing)")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    started_at = datetime.now(UTC)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "digests.txt"
        print(f"writing {args.entries:,} digests ...", flush=True)
        file_seconds = write_file(path, args.entries)
        file_mb = path.stat().st_size / 1e6
        rows = [measure(kind, path, args.entries, args.checks, args.again) for kind in args.databases.split(",")]
    body = report(rows, args, file_seconds, file_mb, started_at)
    print(body)
    if not args.no_report:
        write_report_section(HEADING, body)


if __name__ == "__main__":
    main()
