"""Monthly invoices: issuing a month for 1,000 accounts with `servicematch invoices issue --month`.

PostgreSQL, a fresh database: 500 buyers (each with one person who chose a password) and 500
providers (mailed at their contact address), each with a ledger account on credit terms. Each
account has 3 entries before the month (its opening balance) and 100 in it: 90 leads charged (a lead
row each, for its reference), 5 of them returned, 5 payments. Rows are written straight into the
tables with INSERT ... SELECT over generate_series, then ANALYZE.

Then the command as an operator runs it, with its mail going to a local mailbox: every account's
invoice numbered, its lines written, its PDF made and kept, and mailed to its people. The goal is
under 2 minutes. The same command again issues nothing new and mails nothing; it is timed too.

Writes the "Invoices" section of docs/benchmarks.md.

    uv run python bench/invoices.py [--accounts 1000] [--entries 100]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, func, select, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import ROOT, machine_description, throwaway_postgres, write_report_section

from servicematch.ledger.invoices import month_bounds, previous_month
from servicematch.ledger.models import Invoice, InvoiceLine
from servicematch.mail.mailbox import LocalMailbox
from servicematch.schema.migrate import upgrade

GOAL_SECONDS = 120
BEFORE = 3  # entries before the month, per account
RETURNS = 5
PAYMENTS = 5

# Account a (1..accounts) is a buyer's for a <= accounts / 2, else a provider's. Entry e (1..entries)
# of account a in the month is k = (a - 1) * entries + e: a charge of lead k, a return of lead k - 50,
# or a payment, spread over the month's first 27 days.
SEED = [
    ("buyers", """
INSERT INTO buyers (id, name, post_url, price_cents, services, states, zips, exclusive, secret, active,
                    return_window_days, max_return_percent, locked_fields, created_at, updated_at)
SELECT md5('buyer' || n), 'Bench buyer ' || n, 'https://buyer.example/leads', 3000, '[]', '[]', '[]', false,
       'whsec_' || md5('secret' || n), true, 7, 15, '[]', now(), now()
FROM generate_series(1, :buyers) AS n"""),
    ("buyer people", """
INSERT INTO buyer_accounts (id, buyer_id, email, password_hash, active, invited_by, created_at, password_changed_at)
SELECT md5('person' || n), md5('buyer' || n), 'billing-' || n || '@buyer' || n || '.example', 'not-a-real-hash',
       true, 'bench', now(), now()
FROM generate_series(1, :buyers) AS n"""),
    ("providers", """
INSERT INTO providers (id, name, contact_email, services, states, zips, active, created_at, mode, auto_accept,
                       exclusive_leads)
SELECT md5('provider' || n), 'Bench provider ' || n, 'office@provider' || n || '.example', '["hvac"]', '["TX"]',
       '[]', true, now(), 'direct', false, false
FROM generate_series(1, :accounts - :buyers) AS n"""),
    ("accounts", """
INSERT INTO ledger_accounts (id, kind, owner_id, name, terms, net_days, balance_cents, created_at, updated_at)
SELECT md5('account' || a), CASE WHEN a <= :buyers THEN 'buyer' ELSE 'provider' END,
       CASE WHEN a <= :buyers THEN md5('buyer' || a) ELSE md5('provider' || (a - :buyers)) END,
       CASE WHEN a <= :buyers THEN 'Bench buyer ' || a ELSE 'Bench provider ' || (a - :buyers) END,
       'credit', 15, 0, :start - interval '60 days', :start - interval '60 days'
FROM generate_series(1, :accounts) AS a"""),
    ("leads", """
INSERT INTO leads (id, request_id, reference, request_hash, flow, vertical, service, category, cid, is_test,
                   is_duplicate, do_not_sell, state, zip, personal_data, answers, click, created_at)
SELECT md5('lead' || k), md5('request' || k), upper(lpad(to_hex(k), 8, '0')), md5('hash' || k), 'form', 'services',
       (ARRAY['hvac', 'roofing', 'flooring', 'gutters'])[1 + k % 4], 'Home Services', 1, false, false, false, 'TX',
       '78701', '\\x00'::bytea, '{}', '{}', :start + make_interval(mins => (k % :entries) * 380)
FROM generate_series(1, CAST(:accounts AS integer) * :entries) AS k
WHERE (k - 1) % :entries < :entries - :returns - :payments"""),
    ("entries before the month", """
INSERT INTO ledger_entries (account_id, kind, amount_cents, cause, cause_id, lead_id, description, vertical, service,
                            state, created_by, created_at)
SELECT md5('account' || a), 'charge', -2500, 'sale', md5('old' || a || '-' || b), NULL, 'HVAC lead', 'services',
       'hvac', 'TX', 'system', :start - make_interval(days => 10 * b)
FROM generate_series(1, :accounts) AS a, generate_series(1, :before) AS b"""),
    ("entries of the month", """
INSERT INTO ledger_entries (account_id, kind, amount_cents, cause, cause_id, lead_id, description, vertical, service,
                            state, created_by, created_at)
SELECT md5('account' || a),
       CASE WHEN e <= :entries - :returns - :payments THEN 'charge' WHEN e <= :entries - :payments THEN 'return'
            ELSE 'payment' END,
       CASE WHEN e <= :entries - :returns - :payments THEN -(1000 + (k % 40) * 100)
            WHEN e <= :entries - :payments THEN 1000 + ((k - 50) % 40) * 100 ELSE 20000 END,
       CASE WHEN e <= :entries - :returns - :payments THEN 'sale' WHEN e <= :entries - :payments THEN 'return'
            ELSE 'payment' END,
       md5('cause' || k),
       CASE WHEN e <= :entries - :returns - :payments THEN md5('lead' || k)
            WHEN e <= :entries - :payments THEN md5('lead' || (k - 50)) END,
       CASE WHEN e <= :entries - :payments THEN 'HVAC lead, Austin TX 78701' ELSE 'Payment by wire' END,
       'services', (ARRAY['hvac', 'roofing', 'flooring', 'gutters'])[1 + k % 4], 'TX', 'system',
       :start + make_interval(mins => e * 380)
FROM generate_series(1, :accounts) AS a, generate_series(1, :entries) AS e,
     LATERAL (SELECT (a - 1) * :entries + e AS k) AS numbered"""),
    ("balances", """
UPDATE ledger_accounts SET balance_cents = totals.total
FROM (SELECT account_id, sum(amount_cents) AS total FROM ledger_entries GROUP BY account_id) AS totals
WHERE totals.account_id = ledger_accounts.id"""),
]


def seed(database_url: str, params: dict) -> dict[str, float]:
    engine = create_engine(database_url)
    took: dict[str, float] = {}
    try:
        for name, statement in SEED:
            started = time.perf_counter()
            with engine.begin() as connection:
                connection.execute(text(statement), params)
            took[name] = time.perf_counter() - started
            print(f"  {name}: {took[name]:.1f} s", flush=True)
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("ANALYZE"))
    finally:
        engine.dispose()
    return took


def issue(database_url: str, mail_dir: str, month: str) -> tuple[float, str]:
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_MAIL_DIR": mail_dir, "SERVICEMATCH_SMTP_HOST": "", "SERVICEMATCH_BUYER_URL": ""}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "servicematch.cli", "invoices", "issue", "--month", month], cwd=ROOT,
                          capture_output=True, text=True, check=False, env=env)
    took = time.perf_counter() - started
    if done.returncode:
        raise RuntimeError(f"invoices issue failed:\n{done.stdout}\n{done.stderr}")
    return took, done.stdout.strip()


def what_was_issued(database_url: str) -> dict[str, float]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            numbers = connection.execute(select(func.count(), func.min(Invoice.number), func.max(Invoice.number),
                                                func.avg(func.length(Invoice.pdf)))).one()
            lines = connection.scalar(select(func.count()).select_from(InvoiceLine))
    finally:
        engine.dispose()
    return {"invoices": numbers[0], "first": numbers[1], "last": numbers[2], "pdf_kb": float(numbers[3] or 0) / 1024,
            "lines": lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=1000)
    parser.add_argument("--entries", type=int, default=100, help="entries of each account in the month")
    args = parser.parse_args()
    now = datetime.now(UTC)
    month = previous_month(now)
    start, _ = month_bounds(month)
    params = {"accounts": args.accounts, "buyers": args.accounts // 2, "entries": args.entries, "before": BEFORE,
              "returns": RETURNS, "payments": PAYMENTS, "start": start}
    load = os.getloadavg()[0]
    with throwaway_postgres() as database_url, tempfile.TemporaryDirectory() as mail_dir:
        upgrade(database_url)
        print(f"seeding {args.accounts} accounts x {args.entries} entries of {month}", flush=True)
        seeded = seed(database_url, params)
        first, first_said = issue(database_url, mail_dir, month)
        print(f"  first run: {first:.1f} s: {first_said}", flush=True)
        issued = what_was_issued(database_url)
        mailed = len(LocalMailbox(Path(mail_dir)).messages())
        again, again_said = issue(database_url, mail_dir, month)
        print(f"  second run: {again:.1f} s: {again_said}", flush=True)
    gap_free = issued["last"] - issued["first"] + 1 == issued["invoices"]
    body = f"""`bench/invoices.py`, {now:%Y-%m-%d %H:%M} UTC, {machine_description()}, load average {load:.1f} at the
start (the machine is shared with other work).

PostgreSQL, a fresh database with {args.accounts:,} ledger accounts ({args.accounts // 2} buyers with one person
each, {args.accounts - args.accounts // 2} providers mailed at their contact address), each with {BEFORE} entries
before {month} and {args.entries} in it ({args.entries - RETURNS - PAYMENTS} leads charged, {RETURNS} returns,
{PAYMENTS} payments): {args.accounts * (args.entries + BEFORE):,} entries, written in {sum(seeded.values()):.0f} s.
`servicematch invoices issue --month {month}` run as an operator runs it, its mail kept in a local mailbox:
each invoice numbered in its own transaction, its lines written, its PDF made, kept and attached to
one e-mail per person. Goal: under {GOAL_SECONDS} s.

| run | took | said | invoices | numbers | lines | mail | PDF |
|---|---:|---|---:|---|---:|---:|---:|
| first | {first:.1f} s | {first_said} | {issued['invoices']:,} | {issued['first']}-{issued['last']} \
({'no gap' if gap_free else 'GAPS'}) | {issued['lines']:,} | {mailed:,} | {issued['pdf_kb']:.0f} KB each |
| again | {again:.1f} s | {again_said} | nothing new | | | | |

- Goal: issuing the month for {args.accounts:,} accounts under {GOAL_SECONDS} s: {first:.1f} s \
({'met' if first < GOAL_SECONDS else 'not met'})."""
    write_report_section("Invoices", body)
    print(body)


if __name__ == "__main__":
    main()
