"""The auction's balance check: what asking "can this buyer pay?" adds to an auction, side by side
with the check off, in one run.

In this process, on a fresh migrated database of each kind: 10 fixed-price buyers (shared, $5 to
$50, each prepaid and funded far beyond what the run spends, so every check passes and each reads
what it reads in production: the batch's accounts, and the posts under way to buyers with a limit).
Leads are stored through intake's own transactions, then routed one at a time through the worker's
routing stage (`RoutingStage.route`: qualifying buyers, bids, the decision, its commit with the
first posts), each auction alone in its batch, the worst case for the check. Each lead's posts are
then marked delivered and settled (`settle_leads`: the sales and their charges, the next step).
Fixed-price buyers are never pinged, so the times are the database's and the stage's, not a
network's. Leads alternate between the check on and the check off (routing/paying.py's
`funds_checked`, replaced for the "off" leads), so both see the same database as it grows.

Writes the "Ledger balance check" section of docs/benchmarks.md.

    uv run python bench/ledger_balance_check.py [--leads 1000] [--databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import base64
import itertools
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

from sqlalchemy import update

sys.path.insert(0, str(Path(__file__).resolve().parent))
from delivery_latency import percentile
from server import fresh_database, machine_description, write_report_section

from servicematch.app import create_app
from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.intake.checks import CheckedLead
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.service import LeadTransactions, NewLead, build_lead
from servicematch.ledger.models import AccountKind, Cause, EntryKind, Terms
from servicematch.ledger.postings import accounts_of, post
from servicematch.ledger.terms import TermsChange
from servicematch.routing import buyers as directory
from servicematch.routing import paying
from servicematch.routing.stage import RoutingStage
from servicematch.schema.migrate import upgrade
from servicematch.settings import Settings

BUYERS = 10
WARM_UP = 40
GOAL_P99_MS = 2.0
FUNDS_CENTS = 100_000_000_00
CONTACT = {"first": "Bench", "last": "Lead", "email": "", "address1": "500 Congress Ave", "address2": "",
           "city": "Austin", "state": "TX", "zip": "78701"}


def add_buyers(app) -> None:
    with app.state.session_factory() as session:
        for number in range(BUYERS):
            buyer = directory.add_buyer(session, directory.BuyerTerms(
                name=f"Bench Buyer {number} LLC", post_url=f"http://127.0.0.1:9/b{number}/post",
                price_cents=500 + number * 500), allow_private=True, money=TermsChange(terms=Terms.PREPAID))
            session.flush()
            account = accounts_of(session, AccountKind.BUYER, [buyer.id])[buyer.id]
            post(session, account, kind=EntryKind.PAYMENT, amount_cents=FUNDS_CENTS, cause=Cause.PAYMENT,
                 cause_id=f"bench-{buyer.id}", description="Bench funds")
        session.commit()


def store_leads(app, count: int) -> None:
    transactions = LeadTransactions(session_factory=app.state.session_factory, settings=app.state.settings,
                                    index=app.state.catalog)
    service = app.state.catalog.find("hvac", "services")
    phones = itertools.count(1000)
    for _ in range(count):
        checked = CheckedLead(service=service, flow="form", answers={"cq1": "Replace an existing system"},
                              contact={**CONTACT, "phone": f"512555{next(phones) % 10000:04d}"})
        lead = build_lead(settings=app.state.settings, checked=checked, request_id=str(uuid.uuid4()),
                          request_hash=uuid.uuid4().hex, is_test=False, click={}, do_not_sell=False)
        evidence = ConsentEvidence(ip_address="203.0.113.7", user_agent="bench", page_url="", trustedform_cert_url="",
                                   global_privacy_control=False)
        transactions.store_one(NewLead(lead=lead, evidence=evidence))


class CheckClock:
    """Time spent inside the check itself (making a batch's Purse: its reads; and each refusal asked)."""

    def __init__(self) -> None:
        self.ms = 0.0
        self._made, self._asked = paying.Purse.__init__, paying.Purse.refusal

    def _timed(self, method):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.ms += (time.perf_counter() - started) * 1000
        return timed

    def __enter__(self) -> Self:
        paying.Purse.__init__, paying.Purse.refusal = self._timed(self._made), self._timed(self._asked)
        return self

    def __exit__(self, *_exc) -> None:
        paying.Purse.__init__, paying.Purse.refusal = self._made, self._asked

    def lap(self) -> float:
        ms, self.ms = self.ms, 0.0
        return ms


def deliver(app, lead_id: str) -> None:
    """As the delivery worker records each buyer's 2xx to the lead's posts."""
    with app.state.session_factory() as session:
        session.execute(update(Delivery).where(Delivery.lead_id == lead_id, Delivery.kind == TargetKind.BUYER_POST,
                                               Delivery.status == DeliveryStatus.PENDING)
                        .values(status=DeliveryStatus.DELIVERED, completed_at=datetime.now(UTC)))
        session.commit()


def run(kind: str, leads: int) -> dict[str, dict[str, list[float]]]:
    """{"on"|"off"|"inside": {"decide": [ms], "settle": [ms]}} for one kind of database ("inside": the
    time the "on" auctions spent inside the check)."""
    times = {mode: {"decide": [], "settle": []} for mode in ("on", "off", "inside")}
    with fresh_database(kind) as url, tempfile.TemporaryDirectory() as mail:
        upgrade(url)
        settings = Settings(environment="test", database_url=url, data_key=base64.b64encode(os.urandom(32)).decode(),
                            secret_key="bench-secret-key", worker_enabled=False, buyer_url="", smtp_host="",
                            mail_dir=Path(mail), submit_rate_limit=10**9)
        app = create_app(settings)
        try:
            add_buyers(app)
            store_leads(app, leads + WARM_UP)
            stage = RoutingStage(session_factory=app.state.session_factory, settings=settings)
            checked = paying.funds_checked
            try:
                claimed = stage._claim(leads + WARM_UP)
                with CheckClock() as inside:
                    for number, (event_id, lead_id, token) in enumerate(claimed):
                        mode = "on" if number % 2 == 0 else "off"
                        paying.funds_checked = checked if mode == "on" else (lambda: False)
                        inside.lap()
                        started = time.perf_counter()
                        stage.route(event_id, lead_id, token)
                        decided, deciding_inside = time.perf_counter(), inside.lap()
                        deliver(app, lead_id)
                        settling = time.perf_counter()
                        stage.settle_leads([lead_id])
                        settled, settling_inside = time.perf_counter(), inside.lap()
                        if number >= WARM_UP:
                            times[mode]["decide"].append((decided - started) * 1000)
                            times[mode]["settle"].append((settled - settling) * 1000)
                            if mode == "on":
                                times["inside"]["decide"].append(deciding_inside)
                                times["inside"]["settle"].append(settling_inside)
            finally:
                paying.funds_checked = checked
                stage.close()
        finally:
            app.state.lead_store.stop()
            app.state.engine.dispose()
    return times


def row(kind: str, step: str, on: list[float], off: list[float], inside: list[float]) -> str:
    figures = [percentile(on, 0.5), percentile(off, 0.5), percentile(on, 0.99), percentile(off, 0.99)]
    added = figures[2] - figures[3]
    return (f"| {kind} | {step} | {len(on)} / {len(off)} | {figures[0]:.2f} / {figures[1]:.2f} | "
            f"{figures[2]:.2f} / {figures[3]:.2f} | {added:+.2f} | "
            f"{percentile(inside, 0.5):.2f} / {percentile(inside, 0.99):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=1000, help="Leads timed per database (half with the check off)")
    parser.add_argument("--databases", default="sqlite,postgresql")
    args = parser.parse_args()
    load_before = os.getloadavg()
    started = datetime.now(UTC)
    rows, added = [], {}
    for kind in args.databases.split(","):
        print(f"{kind}: {args.leads} leads ...", flush=True)
        times = run(kind, args.leads)
        for step in ("decide", "settle"):
            rows.append(row(kind, step, times["on"][step], times["off"][step], times["inside"][step]))
        added[kind] = (percentile(times["on"]["decide"], 0.99) - percentile(times["off"]["decide"], 0.99),
                       percentile(times["inside"]["decide"], 0.99))
        print("\n".join(rows[-2:]), flush=True)
    load_after = os.getloadavg()
    # Judged side by side, as the goal is set; the time inside the check says where that comes from.
    verdict = "met" if all(outside < GOAL_P99_MS for outside, _ in added.values()) else "not met"
    body = f"""`bench/ledger_balance_check.py`, {started:%Y-%m-%d %H:%M} UTC, {machine_description()}; load average
{load_before[0]:.1f} / {load_before[1]:.1f} / {load_before[2]:.1f} before and {load_after[0]:.1f} / {load_after[1]:.1f} / {load_after[2]:.1f} after (1 / 5 / 15 min; the machine is shared).

In one process, per database: {BUYERS} fixed-price buyers ($5 to $50, shared), each prepaid and funded, so every
check passes after reading what it reads in production (the batch's accounts, and the posts under way to
buyers with a limit). {args.leads} leads stored through intake, then routed one at a time through the worker's
routing stage (each auction alone in its batch: the check's worst case), alternating the check on and off
(`routing/paying.py` `funds_checked`); after each, its three posts are marked delivered and settled (the
sales and their charges, posted whether the check is on or off). Fixed-price buyers are never pinged: the
times are the stage's and the database's. The first {WARM_UP} leads are not counted.

"p99 on − off" is the goal's measure: the auctions with the check against those without, side by side. The
last column times the check itself in the "on" auctions (making the batch's `Purse`: one query for the
accounts and the posts under way to those with a limit; and each `refusal` asked), so the difference is
not only inferred through the noise of a shared machine (a commit's fsync, the decider thread's
hand-over). Settling reads the accounts whether the check is on or off (the charges need them): there the
check adds only the posts under way to the same query.

| database | step | auctions on / off | p50 ms on / off | p99 ms on / off | p99 on − off | inside the check p50 / p99 ms |
|---|---|---:|---:|---:|---:|---:|
{chr(10).join(rows)}

- Goal: the check adds under {GOAL_P99_MS:.0f} ms p99 to an auction's decision: {verdict}
  ({'; '.join(f'{kind}: {outside:+.2f} ms p99 on − off, {inside:.2f} ms p99 inside the check'
              for kind, (outside, inside) in added.items())}).
- Command: `uv run python bench/ledger_balance_check.py --leads {args.leads} --databases {args.databases}`
"""
    write_report_section("Ledger balance check", body)
    print(body)


if __name__ == "__main__":
    main()
