"""The console's quality review at scale: the measures page, the held-lead list and the lead list's
quality filter, beside the dashboard over the same range as a reference.

Seeds a PostgreSQL database of its own, in SQL (INSERT ... SELECT generate_series), with N leads
(300,000 by default) spread over the past 30 days: 12 sources (a quarter from the site itself), 4
services, each lead judged by the gate (2% held and waiting, 1% rejected, 2% released, the rest
passed), about a third flagged with one to three reason codes; 40% of the leads sold to one buyer,
and 3% of the leads returned (three in four of those returns waiting or approved). Then ANALYZE.

Each call is made directly on the console's functions (no HTTP), `--calls` times in turn, the
reference first in each round: p50 and p95 in ms. The dashboard reads the same leads the same way
(no day rolled up yet, so every day is read from the leads table).

    uv run python bench/quality_measures.py [--leads 300000] [--calls 15] [--append]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import ROOT, machine_description, throwaway_postgres, write_report_section

from servicematch.catalog.loader import load_catalog
from servicematch.console.dashboard import dashboard
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.held_leads import held_page
from servicematch.console.leads import LeadFilters, lead_page
from servicematch.console.quality_measures import quality_measures
from servicematch.db.session import make_engine, make_session_factory
from servicematch.routing.buyers import BuyerTerms, add_buyer
from servicematch.schema.migrate import upgrade
from servicematch.settings import Settings

SEED = [
    ("leads", """
INSERT INTO leads (id, request_id, reference, request_hash, flow, vertical, service, category, cid, is_test,
                   is_duplicate, do_not_sell, state, zip, personal_data, answers, click, created_at,
                   quality_score, quality_reasons, quality_status)
SELECT md5('lead' || k), md5('request' || k), upper(lpad(to_hex(k), 8, '0')), md5('hash' || k), 'form', 'services',
       (ARRAY['hvac', 'roofing', 'flooring', 'gutters'])[1 + k % 4], 'Home Services', 1, false, false, false, 'TX',
       '78701', '\\x00'::bytea, '{}',
       CASE WHEN k % 4 = 0 THEN '{}'::json ELSE json_build_object('subid1', 'source-' || (k % 11)) END,
       now() - (k * interval '30 days' / :leads),
       CASE WHEN k % 100 < 5 THEN 10 + k % 19 WHEN k % 3 = 0 THEN 60 + k % 35 ELSE 100 END,
       CASE WHEN k % 100 < 5 THEN '["phone_fake", "form_unreported"]'::json
            WHEN k % 3 = 0 THEN (ARRAY['["email_role"]', '["phone_area_state", "email_role"]',
                                       '["velocity_ip", "phone_voip", "recaptcha_low"]'])[1 + k % 3]::json
            ELSE '[]'::json END,
       CASE WHEN k % 100 < 2 THEN 'held' WHEN k % 100 < 3 THEN 'rejected' WHEN k % 100 < 5 THEN 'released'
            ELSE 'passed' END
FROM generate_series(1, :leads) AS k"""),
    ("sales", """
INSERT INTO sales (id, lead_id, buyer_id, price_cents, exclusive, created_at)
SELECT md5('sale' || k), md5('lead' || k), :buyer, 2500, false, now() - (k * interval '30 days' / :leads)
FROM generate_series(1, :leads) AS k WHERE k % 5 < 2"""),
    ("returns", """
INSERT INTO lead_returns (id, sale_id, buyer_id, lead_id, reason, status, amount_cents, requested_by, created_at)
SELECT md5('return' || k), md5('sale' || k), :buyer, md5('lead' || k),
       (ARRAY['wrong_phone', 'fraud', 'duplicate', 'other'])[1 + k % 4],
       (ARRAY['pending', 'approved', 'approved', 'denied'])[1 + (k / 5) % 4], 2500, 'bench',
       now() - (k * interval '30 days' / :leads)
FROM generate_series(1, :leads) AS k WHERE k % 5 < 2 AND k % 40 < 3"""),
]


def seed(url: str, leads: int) -> float:
    upgrade(url)
    factory = make_session_factory(make_engine(url))
    started = time.perf_counter()
    with factory() as session:
        buyer = add_buyer(session, BuyerTerms(name="Bench buyer", post_url="https://buyer.example/leads",
                                                     price_cents=2500),
                          allow_private=True)
        session.flush()
        for _name, statement in SEED:
            session.execute(text(statement), {"leads": leads, "buyer": buyer.id})
        session.commit()
    with factory() as session:
        session.connection().exec_driver_sql("ANALYZE")
        session.commit()
    return time.perf_counter() - started


def timed(factory, call: Callable, calls: int) -> list[float]:
    times = []
    for _ in range(calls):
        with factory() as session:
            started = time.perf_counter()
            call(session)
            times.append((time.perf_counter() - started) * 1000)
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leads", type=int, default=300_000)
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--append", action="store_true", help="write the section of docs/benchmarks.md")
    args = parser.parse_args()
    catalog = load_catalog(ROOT / "catalog")
    with throwaway_postgres() as url:
        seconds = seed(url, args.leads)
        settings = Settings(database_url=url, environment="test")
        factory = make_session_factory(make_engine(url))
        filters = DashboardFilters.parse(date_from=None, date_to=None)
        calls = {
            "dashboard (reference)": lambda s: dashboard(s, catalog, filters),
            "quality measures": lambda s: quality_measures(s, catalog, filters),
            "held leads, first page of 50": lambda s: held_page(s, service="", source="", cursor=None, limit=50),
            "lead list, quality=held, first 50": lambda s: lead_page(
                s, settings, filters=LeadFilters(quality="held"), cursor=None, limit=50, reveal=False),
        }
        times: dict[str, list[float]] = {name: [] for name in calls}
        for _ in range(args.calls):
            for name, call in calls.items():
                times[name] += timed(factory, call, 1)
        with factory() as session:
            held = session.execute(text("SELECT count(*) FROM leads WHERE quality_status = 'held'")).scalar()
    rows = [f"| {name} | {statistics.median(values):.0f} | {percentile(values, 0.95):.0f} |"
            for name, values in times.items()]
    body = "\n".join([
        (f"{args.leads:,} leads over the last 30 days ({held:,} held), PostgreSQL, seeded in {seconds:.0f} s; "
         f"each call {args.calls} times in turn, on {machine_description()}."),
        "",
        f"    uv run python bench/quality_measures.py --leads {args.leads} --calls {args.calls}",
        "",
        "| call (30 days) | p50 ms | p95 ms |",
        "|---|---|---|",
        *rows,
    ])
    print(body)
    if args.append:
        write_report_section("Quality review and measures", body)


if __name__ == "__main__":
    main()
