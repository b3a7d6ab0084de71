"""The decider's step inserts on PostgreSQL: one JSON text (what it runs), arrays, and executemany.

A batch of decisions writes a ping and a bid (or pass) row for each buyer of each lead: with 10
bidders, 20 rows a lead. This writes the same rows each way into a fresh migrated database, in
batches as the decider makes them (one transaction a batch), taking turns batch by batch so every
way sees the same machine, and reports the Python CPU time of this process (what the
worker's interpreter lock pays; the server's share is PostgreSQL's own process) and the wall time,
per lead. CPU time, unlike latency, hardly moves with what else runs on a shared machine.

    uv run python bench/auction_steps_insert.py [--leads-a-batch 8] [--batches 300] [--bidders 10]
                                                [--no-report]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, insert, select, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import machine_description, throwaway_postgres, write_report_section

from servicematch.db.arrays import as_arrays, as_json, unnested
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.routing.models import AuctionStep, StepKind
from servicematch.routing.stage import _INSERT_STEPS_AT_ONCE, _STEP_COLUMNS
from servicematch.schema.migrate import upgrade

HEADING = "Auction steps insert (PostgreSQL)"
EXECUTEMANY = insert(AuctionStep.__table__)
ARRAYS = insert(AuctionStep.__table__).from_select([name for name, _ in _STEP_COLUMNS],
                                                   select(*unnested("steps", _STEP_COLUMNS).c))


def _rows(leads: int, bidders: int) -> list[dict]:
    rows = []
    for _ in range(leads):
        lead_id = new_id()
        for n in range(bidders):
            for kind, cents in ((StepKind.PING, None), (StepKind.BID, 500 + n)):
                rows.append({"id": new_id(), "lead_id": lead_id, "buyer_id": None, "kind": kind,
                             "amount_cents": cents, "exclusive": True, "detail": None, "at_ms": 90 + n,
                             "created_at": utcnow()})
    return rows


def measure(url: str, *, leads_a_batch: int, batches: int, bidders: int) -> dict[str, dict[str, float]]:
    engine = create_engine(url)
    ways = {"executemany": lambda connection, rows: connection.execute(EXECUTEMANY, rows),
            "arrays, unnest()": lambda connection, rows: connection.execute(ARRAYS, as_arrays(rows, _STEP_COLUMNS)),
            "JSON, json_to_recordset() (the decider's)": lambda connection, rows: connection.execute(
                _INSERT_STEPS_AT_ONCE, as_json(rows))}
    spent = {way: {"cpu": [], "wall": []} for way in ways}
    with engine.connect() as connection:
        # The rows name no real lead: their foreign keys are not what is measured.
        connection.execute(text("SET session_replication_role = replica"))
        connection.commit()
        for batch in range(batches + 10):
            turns = list(ways.items())
            for way, write in turns[batch % len(turns):] + turns[:batch % len(turns)]:
                rows = _rows(leads_a_batch, bidders)
                cpu, wall = time.thread_time(), time.perf_counter()
                write(connection, rows)
                connection.commit()
                if batch >= 10:  # the first batches warm the statement caches up
                    spent[way]["cpu"].append(time.thread_time() - cpu)
                    spent[way]["wall"].append(time.perf_counter() - wall)
        written = connection.execute(text("SELECT count(*) FROM auction_steps")).scalar_one()
    engine.dispose()
    expected = (batches + 10) * len(ways) * leads_a_batch * bidders * 2
    assert written == expected, f"wrote {written} steps, expected {expected}"
    return {way: {"cpu_ms_a_lead": statistics.fmean(times["cpu"]) * 1000 / leads_a_batch,
                  "wall_ms_a_lead": statistics.fmean(times["wall"]) * 1000 / leads_a_batch}
            for way, times in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads-a-batch", type=int, default=8)
    parser.add_argument("--batches", type=int, default=300)
    parser.add_argument("--bidders", type=int, default=10)
    parser.add_argument("--no-report", action="store_true")
    args = parser.parse_args()
    started = datetime.now(UTC)
    with throwaway_postgres() as url:
        upgrade(url)
        result = measure(url, leads_a_batch=args.leads_a_batch, batches=args.batches, bidders=args.bidders)
    lines = [("The decider's step rows (a ping and a bid a buyer a lead) written each way into one fresh "
             "migrated database, a transaction a batch, the ways taking turns batch by batch; "
             "`bench/auction_steps_insert.py`. CPU: this process's thread (the worker's side), per lead."),
             "",
             (f"- Run: {started:%Y-%m-%d %H:%M} UTC on {machine_description()}; {args.batches} batches of "
             f"{args.leads_a_batch} leads a way, {args.bidders} bidders ({args.bidders * 2} rows a lead)"),
             "",
             "| way | CPU ms a lead | wall ms a lead |", "|---|---:|---:|"]
    lines += [f"| {way} | {figures['cpu_ms_a_lead']:.3f} | {figures['wall_ms_a_lead']:.3f} |"
              for way, figures in result.items()]
    body = "\n".join(lines)
    print(body)
    if not args.no_report:
        write_report_section(HEADING, body)


if __name__ == "__main__":
    main()
