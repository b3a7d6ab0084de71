"""A provider's notices of new offers, and the portal's offer list under load.

Notices: `servicematch serve` (its worker on) with a real SMTP server in this process and one
provider in review mode, invited and signed in through the portal as a real one is (the invitation
e-mail's link, a password). The portal's events stream is held open the whole time, as an open
portal holds it. Leads matching the provider are submitted at a steady pace; for each, the clock
starts as its POST /api/submit-form is sent and stops when the offer's notice e-mail reaches the
SMTP server, and when the open portal's stream announces the offer.

Offer list: on PostgreSQL, 1,000 providers and 100,000 offers (100 each, leads of all four
verticals, made over the last 90 minutes so the open ones are still open) are written straight into the database, then the signed-in provider's
list (its first page, open and all) is read over HTTP, one request at a time.

Writes the "Provider portal: notices and the offer list" section of docs/benchmarks.md.

    uv run python bench/portal_offers.py [--leads 500] [--rate 10] [--databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import email
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from email import policy
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "backend" / "tests"))
from delivery_receivers import SmtpReceiver
from delivery_support import form_submission
from server import fresh_database, machine_description, running_server, write_report_section

from servicematch.catalog.loader import load_catalog

PASSWORD = "bench provider password 0123"
WAIT_SECONDS = 120
LIST_PROVIDERS = 1_000
LIST_OFFERS = 100_000
LIST_READS = 200


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Arrivals:
    """When each offer's notice first reached a channel, by this process's clock."""

    def __init__(self) -> None:
        self.times: dict[tuple[str, str], float] = {}
        self.changed = threading.Condition()

    def note(self, channel: str, offer_id: str) -> None:
        now = time.perf_counter()
        with self.changed:
            self.times.setdefault((channel, offer_id), now)
            self.changed.notify_all()

    def count(self, channel: str) -> int:
        with self.changed:
            return sum(1 for kind, _ in self.times if kind == channel)

    def wait_for(self, channel: str, count: int) -> None:
        with self.changed:
            self.changed.wait_for(lambda: sum(1 for kind, _ in self.times if kind == channel) >= count,
                                  WAIT_SECONDS)


def _watch_mail(smtp: SmtpReceiver, arrivals: Arrivals, tokens: dict[str, str]) -> None:
    """Offer notices are noted by the offer id in their link; the invitation's token is kept."""
    original = smtp.add

    def add(recipients, content):
        original(recipients, content)
        message = email.message_from_string(content, policy=policy.default)
        body = message.get_body(preferencelist=("plain",)).get_content()
        if found := re.search(r"/pro/offers/([0-9a-f-]{36})", body):
            arrivals.note("email", found.group(1))
        elif found := re.search(r"/pro/welcome#([A-Za-z0-9_-]+)", body):
            tokens[recipients[0]] = found.group(1)

    smtp.add = add


def _watch_stream(base_url: str, cookies: httpx.Cookies, provider_id: str, arrivals: Arrivals,
                  stop: threading.Event) -> threading.Thread:
    """Hold the portal's events stream open and note each offer it announces."""

    def run() -> None:
        try:
            read()
        except httpx.HTTPError:
            if not stop.is_set():  # the server going away at the end is no failure
                raise

    def read() -> None:
        with (httpx.Client(base_url=base_url, cookies=cookies, timeout=httpx.Timeout(30, read=None)) as client,
              client.stream("GET", f"/api/pro/providers/{provider_id}/events") as answer):
            answer.raise_for_status()
            event = None
            for line in answer.iter_lines():
                if stop.is_set():
                    return
                if line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif line.startswith("data:") and event == "offer":
                    arrivals.note("portal", json.loads(line.split(":", 1)[1])["id"])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _invite_and_sign_in(base_url: str, env: dict[str, str], tokens: dict[str, str], address: str,
                        services: str) -> tuple[httpx.Cookies, str, str]:
    """The operator's `providers invite`, the invitation's link, a password: signed in."""
    invited = subprocess.run([sys.executable, "-m", "servicematch.cli", "providers", "invite", "--email", address,
                    "--name", "Bench Heating & Air", "--services", services, "--states", "TX",
                    "--licence", "TACLA12345C", "--licence-state", "TX"],
                   env=env, check=False, capture_output=True, text=True, cwd=ROOT)
    if invited.returncode:
        raise RuntimeError(f"providers invite failed: {invited.stdout} {invited.stderr}")
    deadline = time.monotonic() + 30
    while address not in tokens and time.monotonic() < deadline:
        time.sleep(0.05)
    client = httpx.Client(base_url=base_url, timeout=30)
    answer = client.post("/api/pro/password", json={"token": tokens[address], "password": PASSWORD})
    answer.raise_for_status()
    session = answer.json()
    return client.cookies, session["provider"]["id"], session["csrfToken"]


def measure_notices(backend: str, leads: int, rate: float) -> dict:
    arrivals, tokens = Arrivals(), {}
    smtp = SmtpReceiver().start()
    _watch_mail(smtp, arrivals, tokens)
    service = load_catalog(ROOT / "catalog").find("hvac", "services")
    with fresh_database(backend) as database_url, tempfile.TemporaryDirectory() as workdir:
        env = {"SERVICEMATCH_SMTP_HOST": "127.0.0.1", "SERVICEMATCH_SMTP_PORT": str(smtp.port),
               "SERVICEMATCH_SMTP_STARTTLS": "false", "SERVICEMATCH_SUBMIT_RATE_LIMIT": "100000",
               "SERVICEMATCH_MAIL_DIR": workdir}
        with running_server(database_url, extra_env=env) as base_url:
            cli_env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url,
                       "SERVICEMATCH_SITE_ORIGIN": base_url, **env}
            cookies, provider_id, _csrf = _invite_and_sign_in(base_url, cli_env, tokens,
                                                              "dispatch@bench-heating.example", "hvac")
            stop = threading.Event()
            _watch_stream(base_url, cookies, provider_id, arrivals, stop)
            time.sleep(1)  # the stream is open before the first lead
            sent: dict[str, float] = {}
            with httpx.Client(base_url=base_url, timeout=30) as client:
                started = time.perf_counter()
                for number in range(leads):
                    time.sleep(max(0.0, started + number / rate - time.perf_counter()))
                    body = form_submission(service, request_id=str(uuid.uuid4()), phone=f"512555{number:04d}")
                    body["consumer"]["email"] = f"bench.{number}.{uuid.uuid4().hex[:6]}@example.com"
                    sent[body["requestId"]] = time.perf_counter()
                    client.post("/api/submit-form", json=body).raise_for_status()
            arrivals.wait_for("email", leads)
            arrivals.wait_for("portal", leads)
            stop.set()
            engine = create_engine(database_url)
            with engine.connect() as connection:
                offer_leads = dict(connection.execute(text(
                    "SELECT o.id, l.request_id FROM provider_offers o JOIN leads l ON l.id = o.lead_id")).all())
            engine.dispose()
    smtp.stop()
    result = {"backend": backend, "leads": leads, "offers": len(offer_leads)}
    for channel in ("email", "portal"):
        latencies = [(arrivals.times[(channel, offer)] - sent[request]) * 1000
                     for offer, request in offer_leads.items() if (channel, offer) in arrivals.times]
        result[channel] = {"arrived": len(latencies), "p50": statistics.median(latencies) if latencies else None,
                           "p99": percentile(latencies, 0.99) if latencies else None}
    return result


SEED_LEADS = """
INSERT INTO leads (id, request_id, reference, request_hash, flow, vertical, service, category, cid,
                   is_test, is_duplicate, do_not_sell, state, zip, personal_data, answers, click, created_at)
SELECT md5('lead' || n), md5('request' || n), upper(substr(md5('ref' || n), 1, 8)), md5('hash' || n), 'form',
       (ARRAY['services', 'legal', 'insurance', 'financial'])[1 + n % 4],
       (ARRAY['hvac', 'roofing', 'plumbing', 'solar'])[1 + n % 4], 'Home Services', 1,
       false, false, false, 'TX', '78701', '\\x00'::bytea, '{"cq1": "Repair"}'::json, '{}'::json,
       now() - make_interval(secs => n * 0.05)
FROM generate_series(1, :count) AS n
"""

SEED_PROVIDERS = """
INSERT INTO providers (id, name, contact_email, services, states, zips, active, created_at, mode,
                       auto_accept, exclusive_leads, credit_cap_percent)
SELECT md5('provider' || n), 'Provider ' || n, 'p' || n || '@bench.example', '["hvac"]'::json, '["TX"]'::json,
       '[]'::json, true, now(), 'review', false, false, 20
FROM generate_series(1, :count) AS n
"""

# 100 offers a provider; the signed-in provider gets the same share as any other.
SEED_OFFERS = """
INSERT INTO provider_offers (id, lead_id, provider_id, status, exclusive, price_cents, created_at, expires_at,
                             decided_at, auto_accepted)
SELECT md5('offer' || n), md5('lead' || n),
       CASE WHEN n % :providers = 0 THEN :own ELSE md5('provider' || (n % :providers)) END,
       (ARRAY['open', 'accepted', 'declined', 'expired'])[1 + n % 4], false, 2500,
       now() - make_interval(secs => n * 0.05), now() - make_interval(secs => n * 0.05) + interval '2 hours',
       CASE WHEN n % 4 = 0 THEN NULL ELSE now() - make_interval(secs => n * 0.05 - 1) END, false
FROM generate_series(1, :count) AS n
"""


def measure_list(reads: int) -> dict:
    tokens: dict[str, str] = {}
    smtp = SmtpReceiver().start()
    _watch_mail(smtp, Arrivals(), tokens)
    with fresh_database("postgresql") as database_url, tempfile.TemporaryDirectory() as workdir:
        env = {"SERVICEMATCH_SMTP_HOST": "127.0.0.1", "SERVICEMATCH_SMTP_PORT": str(smtp.port),
               "SERVICEMATCH_SMTP_STARTTLS": "false", "SERVICEMATCH_MAIL_DIR": workdir}
        with running_server(database_url, extra_env=env, args=("--no-worker",)) as base_url:
            cli_env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url,
                       "SERVICEMATCH_SITE_ORIGIN": base_url, **env}
            cookies, provider_id, _csrf = _invite_and_sign_in(base_url, cli_env, tokens,
                                                              "office@bench-list.example", "hvac")
            engine = create_engine(database_url)
            with engine.begin() as connection:
                connection.execute(text(SEED_LEADS), {"count": LIST_OFFERS})
                connection.execute(text(SEED_PROVIDERS), {"count": LIST_PROVIDERS - 1})
                connection.execute(text(SEED_OFFERS), {"count": LIST_OFFERS, "providers": LIST_PROVIDERS,
                                                       "own": provider_id})
                connection.execute(text("ANALYZE"))
            engine.dispose()
            timings: dict[str, list[float]] = {"open": [], "all": []}
            with httpx.Client(base_url=base_url, cookies=cookies, timeout=30) as client:
                for number in range(reads):
                    status = "open" if number % 2 else "all"
                    started = time.perf_counter()
                    answer = client.get(f"/api/pro/providers/{provider_id}/offers", params={"status": status})
                    timings[status].append((time.perf_counter() - started) * 1000)
                    answer.raise_for_status()
                    assert answer.json()["items"], "the provider's list is empty"
    smtp.stop()
    return {status: {"p50": statistics.median(values), "p95": percentile(values, 0.95), "reads": len(values)}
            for status, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--leads", type=int, default=500)
    parser.add_argument("--rate", type=float, default=10.0, help="leads a second")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--list-reads", type=int, default=LIST_READS)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    notices = [measure_notices(backend, args.leads, args.rate) for backend in args.databases.split(",")]
    listing = measure_list(args.list_reads)

    def ms(value):
        return "-" if value is None else f"{value:.0f}"

    rows = "\n".join(
        f"| {r['backend']} | {r['leads']} | {r['offers']} | {r['email']['arrived']} | {ms(r['email']['p50'])} | "
        f"{ms(r['email']['p99'])} | {r['portal']['arrived']} | {ms(r['portal']['p50'])} | {ms(r['portal']['p99'])} |"
        for r in notices)
    list_rows = "\n".join(f"| {status} | {v['reads']} | {v['p50']:.1f} | {v['p95']:.1f} |"
                          for status, v in listing.items())
    body = f"""`bench/portal_offers.py`, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {machine_description()},
load average {load:.1f} at the start (the machine is shared with other work).

**Notices.** {args.leads} leads at {args.rate:g} a second, each matching one provider in review mode
whose portal is open. From sending POST /api/submit-form to the offer's notice e-mail at a local SMTP
server (goal p99 under 5 s), and to the open portal's events stream announcing the offer (goal p99
under 2 s), through `serve`'s own worker.

| database | leads | offers | e-mails | e-mail p50 ms | e-mail p99 ms | portal updates | portal p50 ms | portal p99 ms |
|---|---|---|---|---|---|---|---|---|
{rows}

**Offer list.** PostgreSQL with {LIST_PROVIDERS:,} providers and {LIST_OFFERS:,} offers (100 each), the
signed-in provider's first page read over HTTP one request at a time (goal p95 under 300 ms).

| list | reads | p50 ms | p95 ms |
|---|---|---|---|
{list_rows}
"""
    write_report_section("Provider portal: notices and the offer list", body)
    print(body)


if __name__ == "__main__":
    main()
