"""`servicematch ledger check` on a ledger of 1,000,000 entries (PostgreSQL).

Seeds a fresh database of its own in SQL (INSERT ... SELECT generate_series, no row by row): buyers
and providers with their accounts, leads, each lead sold to two buyers (a charge each) and accepted
by one provider (a charge), a few declined offers and denied returns (no entry), 2% of the sales
returned and 2% of the offers credited (an entry each), and card payments making up the rest;
balances are the sums of the entries, so the check must find nothing wrong. Then times the command
as an operator runs it (a process of its own: start-up included), three times: the median counts.
Goal: under 30 s.

    uv run python bench/ledger_check.py [--entries 1000000] [--buyers 200] [--providers 1000]
                                        [--runs 3] [--no-report]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import ROOT, machine_description, throwaway_postgres, write_report_section

from servicematch.schema.migrate import upgrade

HEADING = "Ledger check"
GOAL_SECONDS = 30.0
# Per lead: two sales and one accepted offer, each charged; 2% of each returned or credited.
ENTRIES_PER_LEAD = 3 + 2 * 0.02 + 0.02


def _dsn(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def seed(url: str, *, entries: int, buyers: int, providers: int) -> dict[str, int]:
    """Bulk rows in SQL; returns how many of each were made and how long it took."""
    leads = int(entries * 0.96 / ENTRIES_PER_LEAD)
    started = time.monotonic()
    with psycopg.connect(_dsn(url), autocommit=True) as db:
        db.execute(f"""
            INSERT INTO buyers (id, name, post_url, services, states, zips, exclusive, secret, active, created_at,
                                updated_at, return_window_days, locked_fields)
            SELECT 'buyer-' || b, 'Bench buyer ' || b, 'https://buyer.example/post', '[]'::json, '[]'::json,
                   '[]'::json, false, 'whsec_bench', true, now(), now(), 7, '[]'::json
            FROM generate_series(1, {buyers}) AS b""")
        db.execute(f"""
            INSERT INTO providers (id, name, contact_email, services, states, zips, active, created_at, mode,
                                   auto_accept, exclusive_leads, credit_cap_percent)
            SELECT 'pro-' || p, 'Bench provider ' || p, 'office' || p || '@pro.example', '["hvac"]'::json,
                   '["TX"]'::json, '[]'::json, true, now(), 'direct', false, false, 20
            FROM generate_series(1, {providers}) AS p""")
        db.execute(f"""
            INSERT INTO ledger_accounts (id, kind, owner_id, name, terms, net_days, balance_cents, created_at,
                                         updated_at)
            SELECT 'acct-b-' || b, 'buyer', 'buyer-' || b, 'Bench buyer ' || b, 'credit', 15, 0, now(), now()
            FROM generate_series(1, {buyers}) AS b
            UNION ALL
            SELECT 'acct-p-' || p, 'provider', 'pro-' || p, 'Bench provider ' || p, 'credit', 15, 0, now(), now()
            FROM generate_series(1, {providers}) AS p""")
        db.execute(f"""
            INSERT INTO leads (id, request_id, reference, request_hash, flow, vertical, service, category, cid,
                               is_test, is_duplicate, do_not_sell, state, zip, personal_data, answers, click,
                               created_at)
            SELECT 'lead-' || g, 'bench-' || g, upper(lpad(to_hex(g), 8, '0')), md5(g::text) || md5(g::text),
                   'form', 'services', 'hvac', 'HVAC', 640, false, false, false, 'TX', '78701', '\\x01'::bytea,
                   '{{}}'::json, '{{}}'::json, now() - (g::float / {leads}) * interval '365 days'
            FROM generate_series(1, {leads}) AS g""")
        db.execute(f"""
            INSERT INTO sales (id, lead_id, buyer_id, price_cents, exclusive, created_at)
            SELECT 'sale-' || g || '-' || k, 'lead-' || g, 'buyer-' || (1 + (2 * g + k) % {buyers}),
                   1500 + (7 * g + k) % 3000, false, now() - (g::float / {leads}) * interval '365 days'
            FROM generate_series(1, {leads}) AS g, generate_series(0, 1) AS k""")
        db.execute(f"""
            INSERT INTO provider_offers (id, lead_id, provider_id, status, exclusive, price_cents, created_at,
                                         expires_at, decided_at, auto_accepted)
            SELECT 'offer-' || g, 'lead-' || g, 'pro-' || (1 + g % {providers}), 'accepted', false, 2000 + g % 2500,
                   t, t + interval '2 hours', t + interval '5 minutes', false
            FROM (SELECT g, now() - (g::float / {leads}) * interval '365 days' AS t
                  FROM generate_series(1, {leads}) AS g) AS s
            UNION ALL
            SELECT 'declined-' || g, 'lead-' || g, 'pro-' || (1 + (g + 1) % {providers}), 'declined', false, 2500,
                   now(), now(), now(), false
            FROM generate_series(1, {leads}, 20) AS g""")
        db.execute("""
            INSERT INTO lead_returns (id, sale_id, buyer_id, lead_id, reason, status, amount_cents, requested_by,
                                      created_at, decided_by, decided_at)
            SELECT 'return-' || id, id, buyer_id, lead_id, 'wrong_phone',
                   CASE WHEN abs(hashtext(id)) % 100 < 2 THEN 'approved' ELSE 'denied' END, price_cents,
                   'ops@buyer.example', created_at + interval '1 day', 'admin@bench.example',
                   created_at + interval '2 days'
            FROM sales WHERE abs(hashtext(id)) % 100 < 3""")
        db.execute("""
            INSERT INTO credit_requests (id, provider_id, offer_id, lead_id, reason, status, amount_cents, created_at,
                                         decided_at, decided_by)
            SELECT 'credit-' || id, provider_id, id, lead_id, 'wrong_phone', 'approved', price_cents,
                   decided_at + interval '1 day', decided_at + interval '2 days', 'admin@bench.example'
            FROM provider_offers WHERE status = 'accepted' AND abs(hashtext(id)) % 100 < 2""")
        _post_entries(db)
        posted = db.execute("SELECT count(*) FROM ledger_entries").fetchone()[0]
        _pay(db, max(0, entries - posted), buyers, providers)
        db.execute("""
            UPDATE ledger_accounts AS a SET balance_cents = s.cents
            FROM (SELECT account_id, sum(amount_cents) AS cents FROM ledger_entries GROUP BY account_id) AS s
            WHERE s.account_id = a.id""")
        db.execute("ANALYZE")
        counts = {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in (
            "ledger_entries", "ledger_accounts", "sales", "provider_offers", "lead_returns", "credit_requests",
            "ledger_payments")}
    return {**counts, "seed_seconds": round(time.monotonic() - started)}


ENTRY = ("INSERT INTO ledger_entries (account_id, kind, amount_cents, cause, cause_id, lead_id, description, vertical, "
         "service, state, created_by, created_at) ")


def _post_entries(db) -> None:
    """Each cause's entry, as the code posts it: sales and offers charged, returns and credits back."""
    db.execute(ENTRY + """
        SELECT a.id, 'charge', -s.price_cents, 'sale', s.id, s.lead_id, 'HVAC lead, Austin TX 78701', 'services',
               'hvac', 'TX', 'system', s.created_at
        FROM sales s JOIN ledger_accounts a ON a.kind = 'buyer' AND a.owner_id = s.buyer_id ORDER BY s.created_at""")
    db.execute(ENTRY + """
        SELECT a.id, 'charge', -o.price_cents, 'offer', o.id, o.lead_id, 'HVAC lead, Austin TX 78701', 'services',
               'hvac', 'TX', 'system', o.decided_at
        FROM provider_offers o JOIN ledger_accounts a ON a.kind = 'provider' AND a.owner_id = o.provider_id
        WHERE o.status = 'accepted' ORDER BY o.decided_at""")
    db.execute(ENTRY + """
        SELECT a.id, 'return', r.amount_cents, 'return', r.id, r.lead_id, 'Return: wrong or disconnected phone',
               'services', 'hvac', 'TX', r.decided_by, r.decided_at
        FROM lead_returns r JOIN ledger_accounts a ON a.kind = 'buyer' AND a.owner_id = r.buyer_id
        WHERE r.status = 'approved'""")
    db.execute(ENTRY + """
        SELECT a.id, 'credit', c.amount_cents, 'credit_request', c.id, c.lead_id, 'Credit: wrong or disconnected phone',
               'services', 'hvac', 'TX', c.decided_by, c.decided_at
        FROM credit_requests c JOIN ledger_accounts a ON a.kind = 'provider' AND a.owner_id = c.provider_id""")


def _pay(db, payments: int, buyers: int, providers: int) -> None:
    """Card payments (and their entries) making up the rest, spread over every account."""
    if not payments:
        return
    db.execute(f"""
        INSERT INTO ledger_payments (id, account_id, method, status, amount_cents, automatic, recorded_by, created_at,
                                     settled_at)
        SELECT 'pay-' || g, CASE WHEN g % 2 = 0 THEN 'acct-b-' || (1 + g % {buyers})
                                 ELSE 'acct-p-' || (1 + g % {providers}) END,
               'card', 'succeeded', 10000 + g % 90000, g % 3 = 0, 'stripe', t, t
        FROM (SELECT g, now() - (g::float / {payments}) * interval '365 days' AS t
              FROM generate_series(1, {payments}) AS g) AS s""")
    db.execute(ENTRY + """
        SELECT account_id, 'payment', amount_cents, 'payment', id, NULL, 'Payment by card', NULL, NULL, NULL, 'stripe',
               created_at
        FROM ledger_payments""")


def time_check(url: str) -> tuple[float, float, str]:
    """One `servicematch ledger check`: (wall seconds, the check's own seconds, its output)."""
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": url}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "servicematch.cli", "ledger", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"ledger check failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    own = re.search(r"\(([0-9.]+) s\)\s*$", done.stdout)
    return wall, float(own.group(1)) if own else float("nan"), done.stdout


def report(counts: dict, runs: list[tuple[float, float, str]], args, started_at: datetime) -> str:
    walls, owns = [wall for wall, _, _ in runs], [own for _, own, _ in runs]
    median = statistics.median(walls)
    return "\n".join([
        ("A fresh PostgreSQL database seeded in SQL: each lead sold to two buyers and accepted by one provider (a "
         "charge each), 2% of the sales returned and 2% of the offers credited, some declined offers and denied "
         "returns (no entry), card payments making up the rest; every balance the sum of its entries. `servicematch "
         "ledger check` run as a process of its own (start-up included) "
         f"{len(runs)} times; the check's own time (its last line) beside it. Goal: under {GOAL_SECONDS:.0f} s."),
        "",
        (f"- Run: {started_at:%Y-%m-%d %H:%M} UTC on {machine_description()}; seeding took {counts['seed_seconds']} s; "
         f"command: `{' '.join(['uv run python bench/ledger_check.py', *sys.argv[1:]])}`"),
        "",
        ("| entries | accounts | sales | offers | returns | credit requests | payments | runs (wall / the check's own) "
         "| median | goal |"),
        "|---:|---:|---:|---:|---:|---:|---:|---|---:|---|",
        (f"| {counts['ledger_entries']:,} | {counts['ledger_accounts']:,} | {counts['sales']:,} | "
         f"{counts['provider_offers']:,} | {counts['lead_returns']:,} | {counts['credit_requests']:,} | "
         f"{counts['ledger_payments']:,} | "
         + ", ".join(f"{wall:.1f} s / {own:.1f} s" for wall, own in zip(walls, owns, strict=True))
         + f" | {median:.1f} s | {'met' if median < GOAL_SECONDS else 'not met'} (< {GOAL_SECONDS:.0f} s) |"),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--buyers", type=int, default=200)
    parser.add_argument("--providers", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args()
    started_at = datetime.now(UTC)
    with throwaway_postgres() as url:
        upgrade(url)
        print(f"seeding {args.entries:,} entries ...", flush=True)
        counts = seed(url, entries=args.entries, buyers=args.buyers, providers=args.providers)
        print(f"seeded in {counts['seed_seconds']} s: {counts}", flush=True)
        runs = []
        for number in range(args.runs):
            runs.append(time_check(url))
            print(f"run {number + 1}: {runs[-1][0]:.1f} s wall, {runs[-1][1]:.1f} s in the check", flush=True)
        print(runs[-1][2])
    body = report(counts, runs, args, started_at)
    print(body)
    if not args.no_report:
        write_report_section(HEADING, body)


if __name__ == "__main__":
    main()
