"""Key rotation: `keys rotate` over 1,000,000 leads on PostgreSQL, and intake's latency with and without it.

A fresh PostgreSQL database, migrated; N leads written straight in with COPY, their personal data
encrypted under the old data key as it was before key ids (format 1: the slowest case, as each
value is first tried with the new key), with lookup hashes of the old key. Then `servicematch serve
--no-worker` with the new key current and the old one listed, and an asyncio client submitting
leads at a fixed rate: first for a while with nothing else running (the reference), then while
`servicematch keys rotate` runs as a process of its own, until it ends. Reports the rotation's
time (the command's, and its own work from its first line), its rate and its last line, and intake's p50 / p99 / max in both phases, side by side.
Goal: the 1,000,000 leads re-encrypted in under 10 minutes.

    uv run python bench/key_rotation.py [--leads 1000000] [--rate 10] [--reference-seconds 60]
                                        [--batch-size 500] [--pause-ms 0] [--append]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import httpx
import psycopg
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

sys.path.insert(0, str(os.path.dirname(os.path.abspath(__file__))))
from delivery_latency import lead_body, percentile
from server import (
    ROOT,
    machine_description,
    running_server,
    throwaway_postgres,
    write_report_section,
)

from servicematch.kernel.crypto import lookup_key_of

HEADING = "Key rotation"
GOAL_SECONDS = 600
COLUMNS = ("id", "request_id", "reference", "request_hash", "flow", "vertical", "service", "category", "cid",
           "is_test", "is_duplicate", "do_not_sell", "email_hash", "phone_hash", "state", "zip", "personal_data",
           "answers", "click", "created_at")
CPU_MARK = "cpu seconds: "
# The command as an operator runs it, then its own CPU seconds on a line the report leaves out.
ROTATE = ("import os, sys\nfrom servicematch.ops.key_commands import keys\n"
          "keys.main(['rotate', *sys.argv[1:]], standalone_mode=False)\n"
          f"times = os.times()\nprint('{CPU_MARK}' + format(times.user + times.system, '.1f'))")
# libpq's variable, which psycopg reads: the rotation's database sessions carry this name.
APP_NAME = "servicematch-keys-rotate"
TICK = os.sysconf("SC_CLK_TCK")


def servicematch(database_url: str, env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "servicematch.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False, env={**os.environ, **env, "SERVICEMATCH_DATABASE_URL": database_url})
    if done.returncode:
        raise RuntimeError(f"servicematch {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def seed(database_url: str, old_key: bytes, count: int) -> float:
    """`count` leads by COPY, sealed by `old_key` in the format before key ids; seconds taken."""
    started = time.monotonic()
    aead, lookup = AESGCM(old_key), lookup_key_of(old_key)
    now = datetime.now(UTC)
    dsn = database_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(dsn) as connection, connection.cursor() as cursor:
        with cursor.copy(f"COPY leads ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            for number in range(count):
                lead_id = str(uuid.uuid4())
                phone, email = f"5{number:09d}", f"bench{number}@example.com"
                person = {"contact": {"first": "Bench", "last": "Mark", "email": email, "phone": phone,
                                      "address1": "500 Congress Ave", "address2": "", "city": "Austin",
                                      "state": "TX", "zip": "78701"}, "answers": {}}
                nonce = os.urandom(12)
                sealed = b"\x01" + nonce + aead.encrypt(nonce, json.dumps(person, separators=(",", ":")).encode(),
                                                        f"lead:{lead_id}".encode())
                copy.write_row((lead_id, f"bench-{number}", f"{number:08X}", "h", "form", "services", "hvac", "HVAC",
                                1, False, False, False, _hash(lookup, "email", email), _hash(lookup, "phone", phone),
                                "TX", "78701", sealed, "{}", "{}", now))
                if number and number % 200_000 == 0:
                    print(f"  {number:,} leads written", flush=True)
        connection.commit()
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute("ANALYZE leads")
    return time.monotonic() - started


def _hash(lookup_key: bytes, kind: str, value: str) -> str:
    return hmac.new(lookup_key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


async def submit_at(client: httpx.AsyncClient, base_url: str, service: dict, rate: float, numbers, *,
                    seconds: float | None = None, until: asyncio.Task | None = None) -> tuple[list[float], Counter]:
    """Leads at `rate` a second on a fixed schedule, for `seconds` or until `until` is done:
    (each accepted lead's milliseconds to its 202, the others by status or error)."""
    timings, refused, tasks = [], Counter(), set()

    async def one() -> None:
        body = lead_body(service, request_id=str(uuid.uuid4()), phone=f"737555{next(numbers) % 10_000:04d}")
        began = time.perf_counter()
        try:
            answer = await client.post(f"{base_url}/api/submit-form", json=body)
        except httpx.HTTPError as error:
            refused[type(error).__name__] += 1
            return
        if answer.status_code == 202:
            timings.append((time.perf_counter() - began) * 1000)
        else:
            refused[str(answer.status_code)] += 1

    start, sent = time.perf_counter(), 0
    while (seconds is None or time.perf_counter() - start < seconds) and (until is None or not until.done()):
        if (pause := start + sent / rate - time.perf_counter()) > 0:
            await asyncio.sleep(pause)
        task = asyncio.create_task(one())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        sent += 1
    while tasks:
        await asyncio.gather(*list(tasks))
    return timings, refused


def backend_cpu(dsn: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving the rotation (same machine)."""
    with psycopg.connect(dsn, autocommit=True) as connection:
        pids = [row[0] for row in connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (APP_NAME,))]
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / TICK
    return seconds


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


async def rotation(database_url: str, env: dict[str, str], batch_size: int, pause_ms: int) -> dict:
    started, loads, database_cpu = time.monotonic(), [load_average()], {}
    dsn = database_url.replace("postgresql+psycopg://", "postgresql://", 1)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-u", "-c", ROTATE, "--batch-size", str(batch_size), "--pause-ms", str(pause_ms),
        "--progress-seconds", "30", cwd=ROOT,
        env={**os.environ, **env, "SERVICEMATCH_DATABASE_URL": database_url, "PGAPPNAME": APP_NAME},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)

    async def sample() -> None:
        while True:
            database_cpu.update(await asyncio.to_thread(backend_cpu, dsn))
            loads.append(load_average())
            await asyncio.sleep(2)

    sampler = asyncio.create_task(sample())
    lines, first_line_at, cpu = [], None, float("nan")
    async for raw_line in process.stdout:
        first_line_at = first_line_at or time.monotonic()  # the start-up is over and what is to do is counted
        line = raw_line.decode().rstrip()
        if line.startswith(CPU_MARK):
            cpu = float(line.removeprefix(CPU_MARK))
            continue
        lines.append(line)
        print(f"  {line}", flush=True)
    await process.wait()
    sampler.cancel()
    if process.returncode != 0:
        raise RuntimeError("keys rotate failed:\n" + "\n".join(lines))
    ended = time.monotonic()
    return {"seconds": ended - started, "own_seconds": ended - (first_line_at or started), "lines": lines,
            "command_cpu": cpu, "database_cpu": sum(database_cpu.values()),
            "load": sum(loads) / len(loads)}


async def measure(base_url: str, database_url: str, env: dict[str, str], args) -> dict:
    numbers = iter(range(10**9))
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=64)) as client:
        service = (await client.get(f"{base_url}/api/services/services/hvac")).json()
        await submit_at(client, base_url, service, args.rate, numbers, seconds=5)  # warm-up, not counted
        alone, alone_refused = await submit_at(client, base_url, service, args.rate, numbers,
                                               seconds=args.reference_seconds)
        rotating = asyncio.create_task(rotation(database_url, env, args.batch_size, args.pause_ms))
        during, during_refused = await submit_at(client, base_url, service, args.rate, numbers, until=rotating)
        rotated = await rotating
    return {"alone": alone, "during": during, "refused": alone_refused + during_refused, "rotation": rotated}


def refusals(refused: Counter) -> str:
    return ", ".join(f"{count} {why}" for why, count in refused.most_common()) or "none"


def figures(timings: list[float]) -> str:
    return (f"{percentile(timings, 0.5):.0f} / {percentile(timings, 0.99):.0f} / {max(timings):.0f} ms"
            if timings else "n/a")


def report(args, seeded: float, result: dict, status: str, started_at: datetime) -> str:
    rotated, seconds, own = result["rotation"], result["rotation"]["seconds"], result["rotation"]["own_seconds"]
    return "\n".join([
        (f"A fresh PostgreSQL database with {args.leads:,} leads written by COPY, their personal data encrypted under "
         "the old data key in the format before key ids (each value is tried with the new key first, then the old). "
         "`servicematch serve --no-worker` with the new key current and the old one listed; leads submitted at "
         f"{args.rate:g} a second by an asyncio client, first for {args.reference_seconds:g} s alone, then while "
         f"`servicematch keys rotate --batch-size {args.batch_size} --pause-ms {args.pause_ms}` runs as a process of its own, until it ends "
         "(its time with start-up, and its own work from its first line, when what is to do has been counted). "
         f"Goal: {args.leads:,} leads re-encrypted in under {GOAL_SECONDS // 60} minutes."),
        "",
        (f"- Run: {started_at:%Y-%m-%d %H:%M} UTC on {machine_description()}; seeding took {seeded:.0f} s; command: "
         f"`{' '.join(['uv run python bench/key_rotation.py', *sys.argv[1:]])}`"),
        (f"- CPU: the command {rotated['command_cpu']:.0f} s, PostgreSQL's backends serving it "
         f"{rotated['database_cpu']:.0f} s (sampled every 2 s); the machine's load average during the rotation "
         f"{rotated['load']:.1f} on {os.cpu_count()} cores (other work ran beside it)"),
        f"- The rotation's last line: `{rotated['lines'][-1]}`",
        f"- `keys status` after it: `{status}`",
        "",
        ("| leads | rotation: the command (its own work) | rate | intake alone p50 / p99 / max "
         "| intake during the rotation p50 / p99 / max | leads submitted (alone / during; refused) | goal |"),
        "|---:|---:|---:|---|---|---|---|",
        (f"| {args.leads:,} | {seconds:.0f} s ({own:.0f} s) | {args.leads / own:,.0f} a second | "
         f"{figures(result['alone'])} | "
         f"{figures(result['during'])} | {len(result['alone'])} / {len(result['during'])}; {refusals(result['refused'])} | "
         f"{'met' if seconds < GOAL_SECONDS else 'not met'} (< {GOAL_SECONDS} s, start-up included) |"),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=1_000_000)
    parser.add_argument("--rate", type=float, default=10.0, help="leads submitted a second")
    parser.add_argument("--reference-seconds", type=float, default=60.0, help="intake alone, before the rotation")
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--pause-ms", type=int, default=0, help="the command's rest between batches")
    parser.add_argument("--append", action="store_true", help="write the section of docs/benchmarks.md")
    args = parser.parse_args()
    started_at = datetime.now(UTC)
    old_key, new_key = os.urandom(32), os.urandom(32)
    with throwaway_postgres() as database_url, tempfile.TemporaryDirectory() as mail_dir:
        env = {"SERVICEMATCH_ENVIRONMENT": "test", "SERVICEMATCH_DATA_KEY": base64.b64encode(new_key).decode(),
               "SERVICEMATCH_DATA_KEYS_OLD": base64.b64encode(old_key).decode(), "SERVICEMATCH_MAIL_DIR": mail_dir,
               "SERVICEMATCH_SMTP_HOST": "", "SERVICEMATCH_BUYER_URL": "", "SERVICEMATCH_WORKER_ENABLED": "false",
               "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000"}
        servicematch(database_url, env, "migrate")
        print(f"writing {args.leads:,} leads under the old key ...", flush=True)
        seeded = seed(database_url, old_key, args.leads)
        print(f"written in {seeded:.0f} s", flush=True)
        with running_server(database_url, env, ("--no-worker", "--no-migrate")) as base_url:
            result = asyncio.run(measure(base_url, database_url, env, args))
        status = subprocess.run([sys.executable, "-c", "from servicematch.ops.key_commands import keys\nkeys(['status'])"],
                                cwd=ROOT, env={**os.environ, **env, "SERVICEMATCH_DATABASE_URL": database_url},
                                capture_output=True, text=True, check=True).stdout.splitlines()
    body = report(args, seeded, result, next(line for line in status if "encrypts" in line), started_at)
    print(body)
    if args.append:
        write_report_section(HEADING, body)


if __name__ == "__main__":
    main()
