"""Throughput of POST /api/submit-form against a bare one-row insert in the same app.

Runs the server as `make run` does (SQLite file) and on PostgreSQL, with each lead store
(SERVICEMATCH_LEAD_STORE: batched group commit, simple one-transaction-per-lead), loads each
endpoint with wrk at 10, 50 and 200 concurrent connections, and writes the table and the
submit/bare ratio to docs/benchmarks.md. The bare insert is served by bench/server.py's
benchmark app; production code has no such route.

    uv run python bench/api_throughput.py [--seconds 10] [--levels 10,50,200] [--rounds 3]
                                          [--stores batched,simple]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import (
    ROOT,
    machine_description,
    running_server,
    throwaway_postgres,
    write_report_section,
)

from servicematch.catalog.loader import load_catalog

SCRIPT = ROOT / "bench" / "submit.lua"
ENDPOINTS = {"submit": "/api/submit-form", "bare insert": "/api/bench/insert"}
TARGET_RATIO = 0.70
SERVER_ENV = {
    # One load generator stands for thousands of visitors: lift the per-IP limit, and believe the
    # client address submit.lua gives each request (so the limiter sees a new client each time).
    "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000000",
    "SERVICEMATCH_TRUSTED_PROXIES": "127.0.0.1",
}
STORES = ("batched", "simple")


def lead_template(service_slug: str = "hvac", vertical: str = "services") -> str:
    """A valid lead form payload for one service, built from the catalogue like the browser does."""
    index = load_catalog(ROOT / "catalog")
    service = index.find(service_slug, vertical)
    answers = {}
    for field in service.fields:
        if field.mapping is None:
            continue
        if field.options:
            answers[field.mapping] = next(o for o in field.options if o not in field.disqualifiers)
        elif field.type == "date":
            answers[field.mapping] = "1970-06-15"
        else:
            answers[field.mapping] = "Benchmark answer"
    consumer = {
        "first": "Bench", "last": "Mark", "email": "bench.mark@example.com", "phone": "__PHONE__",
        "address1": "500 Congress Ave", "address2": "", "city": "Austin", "state": "TX", "zip": "78701",
        **service.hiddenParams.model_dump(), **answers,
    }
    payload = {
        "pid": 16, "sid": 143, "cid": service.cid, "istest": "N", "requestId": "__REQUEST_ID__",
        "consumer": consumer,
        "customquestions": {k: v for k, v in answers.items() if k.startswith("cq")},
        "click": {"domain_url": "http://127.0.0.1/services/hvac", "externalid": "", "subid1": "", "subid2": "",
                  "fbclid": "", "fbp": "", "useragent": "wrk", "ip": "", "trustedform": ""},
    }
    return json.dumps(payload)


def run_wrk(url: str, connections: int, seconds: int, body_file: Path) -> dict[str, float]:
    threads = min(2, connections)
    completed = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(SCRIPT), url],
        capture_output=True, text=True, check=True, env={"BENCH_BODY_FILE": str(body_file), "PATH": "/usr/bin:/bin"},
    )
    match = re.search(r"BENCH_RESULT (\{.*\})", completed.stdout)
    if not match:
        raise RuntimeError(f"wrk printed no result:\n{completed.stdout}\n{completed.stderr}")
    raw = json.loads(match.group(1))
    errors = raw["connect"] + raw["read"] + raw["write"] + raw["status"] + raw["timeout"]
    return {
        "rps": raw["requests"] / (raw["duration_us"] / 1e6),
        "p50_ms": raw["p50_us"] / 1000,
        "p99_ms": raw["p99_us"] / 1000,
        "errors": errors,
        "requests": raw["requests"],
    }


def measure(database_url: str, label: str, store: str, levels: list[int], seconds: int, rounds: int,
            body_file: Path) -> list[dict]:
    """Each cell `rounds` times, submit and bare insert taking turns, so a noisy moment on the
    machine lands on both endpoints; the report keeps each cell's median round."""
    rows = []
    env = {**SERVER_ENV, "SERVICEMATCH_LEAD_STORE": store}
    with running_server(database_url, env, benchmark_app=True) as base_url:
        run_wrk(base_url + ENDPOINTS["submit"], 10, 2, body_file)  # warm-up: imports, pools, caches
        for connections in levels:
            runs: dict[str, list[dict]] = {name: [] for name in ENDPOINTS}
            for _ in range(rounds):
                for name, path in ENDPOINTS.items():
                    result = run_wrk(base_url + path, connections, seconds, body_file)
                    runs[name].append(result)
                    print(f"{label:10} {store:8} {connections:>4} {name:12} {result['rps']:8.1f} req/s "
                          f"p50 {result['p50_ms']:7.1f} ms p99 {result['p99_ms']:7.1f} ms errors {result['errors']}")
            for name, results in runs.items():
                middle = sorted(results, key=lambda r: r["rps"])[len(results) // 2]
                rows.append({"database": label, "store": store, "clients": connections, "endpoint": name, **middle,
                             "errors": sum(r["errors"] for r in results)})
    return rows


def ratio(rows: list[dict], row: dict) -> float | None:
    """submit / bare insert; None when the bare insert completed nothing (an overloaded machine)."""
    bare = next(r for r in rows if r["database"] == row["database"] and r["store"] == row["store"]
                and r["clients"] == row["clients"] and r["endpoint"] == "bare insert")
    return row["rps"] / bare["rps"] if bare["rps"] else None


def report(rows: list[dict], seconds: int, rounds: int) -> str:
    submits = [row for row in rows if row["endpoint"] == "submit"]
    met = [row for row in submits if (ratio(rows, row) or 0) >= TARGET_RATIO and row["errors"] == 0]
    lines = [
        (f"Measured {datetime.now(UTC):%Y-%m-%d} on {machine_description()}; load generator (wrk, 2 threads) "
         f"on the same machine, {seconds} s per run, {rounds} runs per cell with submit and bare insert "
         "taking turns (the table shows each cell's median run, errors summed over all runs), every "
         "request a new valid lead (unique requestId and phone)."),
        "",
        "Reproduce: `uv run python bench/api_throughput.py` (needs Debian's `wrk` and PostgreSQL on 127.0.0.1).",
        "",
        "| database | lead store | clients | endpoint | req/s | p50 ms | p99 ms | errors | submit / bare |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        share = "" if row["endpoint"] != "submit" else \
            "n/a" if ratio(rows, row) is None else f"{ratio(rows, row):.0%}"
        lines.append(f"| {row['database']} | {row['store']} | {row['clients']} | {row['endpoint']} | {row['rps']:.0f} | "
                     f"{row['p50_ms']:.1f} | {row['p99_ms']:.1f} | {row['errors']} | {share} |")
    lines += ["", (f"Target (submit at least {TARGET_RATIO:.0%} of the bare insert, no errors): met in "
                   f"{len(met)} of {len(submits)} cells. How the submit path gets there: docs/performance.md, "
                   "\"Lead intake under load\".")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--levels", default="10,50,200")
    parser.add_argument("--rounds", type=int, default=3, help="runs per cell; the median is reported")
    parser.add_argument("--stores", default=",".join(STORES), help="lead stores to measure, in turn")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install -y wrk")
    levels = [int(n) for n in args.levels.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp) / "lead.json"
        body_file.write_text(lead_template())
        rows = []
        for store in args.stores.split(","):
            rows += measure(f"sqlite:///{Path(tmp) / f'bench-{store}.db'}", "SQLite", store, levels, args.seconds,
                            args.rounds, body_file)
            with throwaway_postgres() as url:
                rows += measure(url, "PostgreSQL", store, levels, args.seconds, args.rounds, body_file)
    print(report(rows, args.seconds, args.rounds).splitlines()[-1])
    if not args.no_report:
        write_report_section("API throughput", report(rows, args.seconds, args.rounds))


if __name__ == "__main__":
    main()
