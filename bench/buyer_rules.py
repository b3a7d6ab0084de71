"""Each buyer's own duplicate rule before the ping (routing/buyer_rules.py `excluded_buyers`), on
SQLite and PostgreSQL, side by side with a reference in the same run.

Seeds a fresh database of each kind in SQL: 20 buyers, each with a duplicate rule of its own
(windows of 7 to 90 days, phone, e-mail or either, same service or all), and leads over 90 days,
each pinged to every buyer and bid on (a ping and a bid step per buyer), posted to three and sold
to one, as routing leaves them; about one lead in seven comes from a person with an earlier
request. Then judges new leads of such people, one at a time, as routing would before its pings:

- rules: `excluded_buyers` for the 20 buyers (one query);
- one query a buyer (the reference): the same question asked of each buyer on its own, the shape
  it would take without the shared query;
- qualifying buyers: routing's existing read of a lead's buyers (`qualifying_buyers`), as a yardstick
  of what each lead already costs.

Each query's plan is printed, to show the indexes it uses.

    uv run python bench/buyer_rules.py [--leads 100000] [--checks 2000] [--append]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import fresh_database, machine_description, write_report_section

from servicematch.intake.models import Lead
from servicematch.routing.buyer_rules import excluded_buyers
from servicematch.routing.buyers import qualifying_buyers
from servicematch.routing.models import Buyer
from servicematch.schema.migrate import upgrade

HEADING = "Buyer rules before the ping"
BUYERS = 20
DAYS = 90
RULES = [(days, match, scope) for days in (7, 30, 60, 90) for match, scope in
         (("phone", "service"), ("email", "all"), ("either", "all"), ("phone", "all"), ("either", "service"))]


def _series(limit: int) -> str:
    return f"WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < {limit}) "


def seed(url: str, leads: int) -> dict[str, int]:
    """Bulk rows in SQL, the same statements on both databases; counts and seconds taken."""
    started = time.monotonic()
    people = max(1, leads * 6 // 7)
    engine = create_engine(url)
    postgres = engine.dialect.name == "postgresql"
    # Timestamps as each database stores them: PostgreSQL's own; SQLite's text as SQLAlchemy writes it.
    at = ("now() - (g.n * 1.0 / {leads}) * interval '{days} days'" if postgres else
          "strftime('%Y-%m-%d %H:%M:%f000', 'now', '-' || ((g.n * {days} * 86400) / {leads}) || ' seconds')")
    at = at.format(leads=leads, days=DAYS)
    with engine.begin() as db:
        for number, (days, match, scope) in enumerate(RULES[:BUYERS], start=1):
            db.execute(text(
                "INSERT INTO buyers (id, name, post_url, price_cents, services, states, zips, exclusive, secret, "
                "active, created_at, updated_at, return_window_days, locked_fields, duplicate_days, duplicate_match, "
                "duplicate_scope) VALUES (:id, :name, 'https://buyer.example/post', 3000, '[]', '[]', '[]', false, "
                "'whsec_bench', true, :now, :now, 7, '[]', :days, :match, :scope)"),
                {"id": f"buyer-{number}", "name": f"Bench buyer {number}", "now": datetime.now(UTC), "days": days,
                 "match": match, "scope": scope})
        # A person's phone and e-mail hashes: n % people, so about one lead in seven repeats a person.
        db.execute(text(_series(leads) + f"""
            INSERT INTO leads (id, request_id, reference, request_hash, flow, vertical, service, category, cid,
                               is_test, is_duplicate, do_not_sell, email_hash, phone_hash, state, zip, personal_data,
                               answers, click, quality_score, created_at)
            SELECT 'lead-' || g.n, 'bench-' || g.n, 'R' || g.n, 'h', 'form', 'services',
                   CASE WHEN g.n % 3 = 0 THEN 'roofing' ELSE 'hvac' END, 'HVAC', 640, false, false, false,
                   'em-' || (g.n % {people}), 'ph-' || (g.n % {people}), 'TX', '78701', :blob, '{{}}', '{{}}', 70,
                   {at}
            FROM g"""), {"blob": b"\x01"})
        db.execute(text(_series(leads) + f"""
            , b(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM b WHERE k < {BUYERS}),
            kinds(kind) AS (SELECT 'ping' UNION ALL SELECT 'bid')
            INSERT INTO auction_steps (id, lead_id, buyer_id, kind, amount_cents, at_ms, created_at)
            SELECT 's-' || g.n || '-' || b.k || '-' || kinds.kind, 'lead-' || g.n, 'buyer-' || b.k, kinds.kind,
                   CASE WHEN kinds.kind = 'bid' THEN 2000 + b.k ELSE NULL END, 40, {at}
            FROM g, b, kinds"""))
        db.execute(text(_series(leads) + f"""
            , b(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM b WHERE k < 3)
            INSERT INTO auction_steps (id, lead_id, buyer_id, kind, amount_cents, at_ms, created_at)
            SELECT 'p-' || g.n || '-' || b.k, 'lead-' || g.n, 'buyer-' || (1 + (g.n + b.k) % {BUYERS}), 'post', 2500,
                   60, {at}
            FROM g, b"""))
        db.execute(text(_series(leads) + f"""
            INSERT INTO sales (id, lead_id, buyer_id, price_cents, exclusive, created_at)
            SELECT 'sale-' || g.n, 'lead-' || g.n, 'buyer-' || (1 + g.n % {BUYERS}), 2500, false, {at} FROM g"""))
        db.execute(text("ANALYZE"))
        counts = {table: db.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
                  for table in ("leads", "auction_steps", "sales")}
    engine.dispose()
    return {**counts, "people": people, "seed_seconds": round(time.monotonic() - started)}


def new_leads(leads: int, checks: int) -> list[Lead]:
    """New requests of people who came before (not stored: the lead being routed)."""
    chooser = random.Random(7)
    people = max(1, leads * 6 // 7)
    picked = [chooser.randrange(people) for _ in range(checks)]
    return [Lead(id=f"new-{n}", vertical="services", service="hvac", state="TX", zip="78701", quality_score=70,
                 is_duplicate=False, phone_hash=f"ph-{person}", email_hash=f"em-{person}")
            for n, person in enumerate(picked)]


def one_query_a_buyer(session: Session, lead: Lead, buyers: list[Buyer], now: datetime) -> dict[str, str]:
    found: dict[str, str] = {}
    for buyer in buyers:
        found.update(excluded_buyers(session, lead=lead, buyers=[buyer], now=now))
    return found


def timed(url: str, leads: list[Lead]) -> dict[str, list[float]]:
    engine = create_engine(url)
    times: dict[str, list[float]] = {"rules": [], "reference": [], "qualifying": []}
    excluded = 0
    with Session(engine) as session:
        buyers = list(session.query(Buyer).order_by(Buyer.id))
        now = datetime.now(UTC)
        for lead in leads[:50]:  # warm the caches and the plans
            excluded_buyers(session, lead=lead, buyers=buyers, now=now)
        for lead in leads:
            started = time.perf_counter()
            found = excluded_buyers(session, lead=lead, buyers=buyers, now=now)
            times["rules"].append(time.perf_counter() - started)
            excluded += len(found)
            started = time.perf_counter()
            assert one_query_a_buyer(session, lead, buyers, now) == found
            times["reference"].append(time.perf_counter() - started)
            started = time.perf_counter()
            qualifying_buyers(session, vertical="services", service="hvac", state="TX", zip_code="78701", now=now)
            times["qualifying"].append(time.perf_counter() - started)
        times["excluded_per_lead"] = [excluded / len(leads)]
        print(plan(session, leads[0], buyers, now), flush=True)
    engine.dispose()
    return times


def plan(session: Session, lead: Lead, buyers: list[Buyer], now: datetime) -> str:
    """The plan of the rules' query, captured as it runs."""
    captured: list[tuple[str, object]] = []
    connection = session.connection()

    def keep(conn, cursor, statement, parameters, context, executemany):
        captured.append((statement, parameters))

    from sqlalchemy import event
    event.listen(connection, "before_cursor_execute", keep)
    try:
        excluded_buyers(session, lead=lead, buyers=buyers, now=now)
    finally:
        event.remove(connection, "before_cursor_execute", keep)
    statement, parameters = captured[-1]
    prefix = "EXPLAIN QUERY PLAN " if connection.dialect.name == "sqlite" else "EXPLAIN "
    raw = connection.connection.dbapi_connection.cursor()
    raw.execute(prefix + statement, parameters)
    return "\n".join(" ".join(str(part) for part in row) for row in raw.fetchall())


def ms(values: list[float], quantile: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * quantile))] * 1000:.2f}"


def report(results: dict[str, tuple[dict, dict]], args, started_at: datetime) -> str:
    lines = [
        (f"{BUYERS} buyers, each with a duplicate rule of its own (7 to 90 days; phone, e-mail or either; same "
         f"service or all), and leads over {DAYS} days, each pinged to every buyer (a ping and a bid step each), "
         "posted to three and sold to one. Each new lead of a person who came before is judged for all 20 buyers "
         f"as routing would before its pings, {args.checks:,} times, one at a time on one connection: `excluded_buyers` "
         "(one query), beside the reference (the same question asked of each buyer in a query of its own) and "
         "routing's existing read of a lead's qualifying buyers."),
        "",
        (f"- Run: {started_at:%Y-%m-%d %H:%M} UTC on {machine_description()}; command: "
         f"`{' '.join(['uv run python bench/buyer_rules.py', *sys.argv[1:]])}`"),
        "",
        ("| database | leads | auction steps | rules: median / p95 ms | one query a buyer: median / p95 ms | "
         "qualifying buyers: median / p95 ms | buyers excluded a lead | leads a second (rules, one connection) |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kind, (counts, times) in results.items():
        rules = times["rules"]
        lines.append(
            f"| {kind} | {counts['leads']:,} | {counts['auction_steps']:,} | {ms(rules, 0.5)} / {ms(rules, 0.95)} | "
            f"{ms(times['reference'], 0.5)} / {ms(times['reference'], 0.95)} | "
            f"{ms(times['qualifying'], 0.5)} / {ms(times['qualifying'], 0.95)} | "
            f"{times['excluded_per_lead'][0]:.1f} | {len(rules) / sum(rules):,.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=100_000)
    parser.add_argument("--checks", type=int, default=2000)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--append", action="store_true", help="write the table to docs/benchmarks.md")
    args = parser.parse_args()
    started_at = datetime.now(UTC)
    results = {}
    for kind in args.databases.split(","):
        with fresh_database(kind) as url:
            upgrade(url)
            print(f"{kind}: seeding {args.leads:,} leads ...", flush=True)
            counts = seed(url, args.leads)
            print(f"{kind}: seeded in {counts['seed_seconds']} s: {counts}", flush=True)
            results["PostgreSQL" if kind == "postgresql" else "SQLite"] = (counts, timed(url, new_leads(
                args.leads, args.checks)))
    body = report(results, args, started_at)
    print(body)
    if args.append:
        write_report_section(HEADING, body)


if __name__ == "__main__":
    main()
