"""20261128_0023 on a copy of real rows: a database at 0022 holding buyers, providers, leads, offers,
the providers' ledger (charges and credits, one charge whose offer went with its lead), sales and
returns, written as the code of that revision wrote them; upgraded, every entry, sign, cause and
balance is checked, `ledger check` passes, and a downgrade gives the providers' ledger back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from sqlalchemy import MetaData, create_engine, inspect, select

from servicematch.db.session import make_engine, make_session_factory
from servicematch.kernel.clock import as_utc
from servicematch.ledger.check import run_check
from servicematch.ledger.models import LedgerAccount, LedgerEntry
from servicematch.schema.migrate import alembic_config, upgrade

BEFORE = "20261128_0022"
T0 = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)


def _at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def _lead(lead_id: str, category: str, service: str, state: str | None, n: int) -> dict:
    return {"id": lead_id, "request_id": f"req-{lead_id}", "request_hash": "h" * 64, "flow": "form",
            "vertical": "services", "service": service, "category": category, "cid": 640, "is_test": False,
            "is_duplicate": False, "do_not_sell": False, "personal_data": b"sealed", "answers": {}, "click": {},
            "created_at": _at(n), "reference": f"7K3MQ9T{n}", "state": state, "zip": "78701" if state else None}


def _offer(offer_id: str, lead_id: str, provider_id: str, cents: int, status: str = "accepted") -> dict:
    return {"id": offer_id, "lead_id": lead_id, "provider_id": provider_id, "status": status, "exclusive": False,
            "price_cents": cents, "created_at": _at(1), "expires_at": _at(3), "decided_at": _at(2),
            "auto_accepted": False}


def _charge(row_id: str, provider_id: str, cents: int, *, lead_id: str | None, offer_id: str | None,
            hours: float) -> dict:
    return {"id": row_id, "provider_id": provider_id, "kind": "charge", "amount_cents": cents, "lead_id": lead_id,
            "offer_id": offer_id, "credit_request_id": None, "description": "Heating & AC repair lead, Austin TX 78701",
            "vertical": "services", "service": "hvac", "state": "TX", "created_at": _at(hours)}


ROWS = {
    "leads": [_lead("lead-a", "HVAC", "hvac", "TX", 0), _lead("lead-b", "HVAC", "hvac", "TX", 1),
              _lead("lead-c", "Roofing", "roofing", None, 2)],
    "buyers": [{"id": f"buyer-{n}", "name": name, "post_url": "https://buyer.example/post", "services": [],
                "states": [], "zips": [], "exclusive": False, "secret": "whsec_x", "active": True,
                "created_at": T0, "updated_at": T0, "return_window_days": 7, "locked_fields": []}
               for n, name in ((1, "Leads Direct"), (2, "Quote Hub"))],
    "providers": [{"id": f"pro-{n}", "name": name, "contact_email": f"office{n}@pro.example", "services": ["hvac"],
                   "states": ["TX"], "zips": [], "active": True, "created_at": T0, "mode": "review",
                   "auto_accept": False, "exclusive_leads": False, "credit_cap_percent": 20}
                  for n, name in ((1, "Cool Air LLC"), (2, "Roof Pros"), (3, "Idle Plumbing"))],
    "provider_offers": [_offer("offer-a", "lead-a", "pro-1", 4500), _offer("offer-b", "lead-b", "pro-1", 5200),
                        _offer("offer-c", "lead-c", "pro-2", 3000), _offer("offer-d", "lead-a", "pro-2", 4500,
                                                                          "declined")],
    "credit_requests": [
        {"id": "credit-b", "provider_id": "pro-1", "offer_id": "offer-b", "lead_id": "lead-b", "reason": "duplicate",
         "status": "approved", "amount_cents": 5200, "created_at": _at(5), "decided_at": _at(6),
         "decided_by": "automatic"},
        {"id": "credit-a", "provider_id": "pro-1", "offer_id": "offer-a", "lead_id": "lead-a",
         "reason": "wrong_phone", "status": "pending", "amount_cents": 4500, "created_at": _at(7), "decided_at": None,
         "decided_by": None}],
    "provider_ledger": [
        _charge("pl-1", "pro-1", 4500, lead_id="lead-a", offer_id="offer-a", hours=2),
        _charge("pl-2", "pro-1", 5200, lead_id="lead-b", offer_id="offer-b", hours=3),
        _charge("pl-3", "pro-2", 3000, lead_id="lead-c", offer_id="offer-c", hours=4),
        # Its lead (and with it its offer) deleted after the consent retention period: both NULL.
        _charge("pl-gone", "pro-1", 2500, lead_id=None, offer_id=None, hours=-100),
        {"id": "pl-4", "provider_id": "pro-1", "kind": "credit", "amount_cents": -5200, "lead_id": "lead-b",
         "offer_id": "offer-b", "credit_request_id": "credit-b", "description": "Credit: duplicate",
         "vertical": "services", "service": "hvac", "state": "TX", "created_at": _at(6)}],
    "sales": [{"id": sale_id, "lead_id": lead_id, "buyer_id": buyer_id, "price_cents": cents, "exclusive": False,
               "created_at": _at(hours)}
              for sale_id, lead_id, buyer_id, cents, hours in (
                  ("sale-a", "lead-a", "buyer-1", 3000, 0.5), ("sale-b", "lead-b", "buyer-1", 2500, 1.5),
                  ("sale-c", "lead-c", "buyer-2", 4000, 2.5), ("sale-gone-buyer", "lead-c", None, 1000, 2.6))],
    "lead_returns": [{"id": return_id, "sale_id": sale_id, "buyer_id": buyer_id, "lead_id": lead_id,
                      "reason": reason, "status": status, "amount_cents": cents, "requested_by": "ops@buyer.example",
                      "created_at": _at(8), "decided_at": _at(9) if status != "pending" else None,
                      "decided_by": "admin@servicematch.example" if status != "pending" else None}
                     for return_id, sale_id, buyer_id, lead_id, reason, status, cents in (
                         ("return-a", "sale-a", "buyer-1", "lead-a", "wrong_phone", "approved", 3000),
                         ("return-b", "sale-b", "buyer-1", "lead-b", "fraud", "denied", 2500),
                         ("return-c", "sale-c", "buyer-2", "lead-c", "other", "pending", 4000))],
}


@pytest.fixture
def old_database(earlier_database: str) -> str:
    """A database at 0022 with ROWS in it."""
    upgrade(earlier_database, BEFORE)
    engine = create_engine(earlier_database)
    try:
        tables = MetaData()
        tables.reflect(engine, only=list(ROWS))
        with engine.begin() as connection:
            for name, rows in ROWS.items():  # parents first, as the code wrote them
                connection.execute(tables.tables[name].insert(), rows)
    finally:
        engine.dispose()
    return earlier_database


def _entries(url: str) -> dict[tuple[str, str], list[tuple]]:
    """(account kind, owner) -> its entries (kind, amount, cause, cause id, lead, description, created_at)."""
    factory = make_session_factory(make_engine(url))
    with factory() as session:
        found: dict[tuple[str, str], list[tuple]] = {}
        for entry, kind, owner in session.execute(select(LedgerEntry, LedgerAccount.kind, LedgerAccount.owner_id)
                                                  .join(LedgerAccount).order_by(LedgerEntry.id)):
            found.setdefault((kind, owner), []).append((entry.kind, entry.amount_cents, entry.cause, entry.cause_id,
                                                        entry.lead_id, entry.description, as_utc(entry.created_at)))
        return found


def test_the_money_on_record_moves_into_the_ledger_and_reconciles(old_database):
    upgrade(old_database)
    engine = create_engine(old_database)
    assert "provider_ledger" not in inspect(engine).get_table_names()
    engine.dispose()

    factory = make_session_factory(make_engine(old_database))
    with factory() as session:
        accounts = {(a.kind, a.owner_id): a for a in session.scalars(select(LedgerAccount))}
    assert sorted(accounts) == [("buyer", "buyer-1"), ("buyer", "buyer-2"), ("provider", "pro-1"),
                                ("provider", "pro-2"), ("provider", "pro-3")]
    assert {(a.terms, a.credit_limit_cents) for a in accounts.values()} == {("credit", None)}, "they buy as before"
    assert accounts[("provider", "pro-1")].name == "Cool Air LLC" and accounts[("buyer", "buyer-2")].name == "Quote Hub"

    entries = _entries(old_database)
    hvac = "Heating & AC repair lead, Austin TX 78701"
    assert entries[("provider", "pro-1")] == [
        ("charge", -2500, "offer", "pl-gone", None, hvac, _at(-100)),
        ("charge", -4500, "offer", "offer-a", "lead-a", hvac, _at(2)),
        ("charge", -5200, "offer", "offer-b", "lead-b", hvac, _at(3)),
        ("credit", 5200, "credit_request", "credit-b", "lead-b", "Credit: duplicate", _at(6))]
    assert entries[("provider", "pro-2")] == [("charge", -3000, "offer", "offer-c", "lead-c", hvac, _at(4))]
    assert ("provider", "pro-3") not in entries
    assert entries[("buyer", "buyer-1")] == [
        ("charge", -3000, "sale", "sale-a", "lead-a", "HVAC lead, TX", _at(0.5)),
        ("charge", -2500, "sale", "sale-b", "lead-b", "HVAC lead, TX", _at(1.5)),
        ("return", 3000, "return", "return-a", "lead-a", "Return: wrong or disconnected phone", _at(9))]
    assert entries[("buyer", "buyer-2")] == [("charge", -4000, "sale", "sale-c", "lead-c", "Roofing lead", _at(2.5))]
    balances = {key: account.balance_cents for key, account in accounts.items()}
    assert balances == {("provider", "pro-1"): -7000, ("provider", "pro-2"): -3000, ("provider", "pro-3"): 0,
                        ("buyer", "buyer-1"): -2500, ("buyer", "buyer-2"): -4000}

    findings = run_check(factory)
    assert findings.ok, findings.problems
    assert (findings.accounts, findings.entries) == (5, 9)
    assert {key: findings.checked[key] for key in ("sale", "accepted offer", "approved return", "approved credit")} == {
        "sale": 3, "accepted offer": 3, "approved return": 1, "approved credit": 1}


def test_a_downgrade_gives_the_providers_ledger_back_and_upgrading_again_moves_nothing_twice(old_database):
    upgrade(old_database)
    moved = _entries(old_database)
    command.downgrade(alembic_config(old_database), BEFORE)
    engine = create_engine(old_database)
    try:
        tables = MetaData()
        tables.reflect(engine, only=["provider_ledger"])
        table = tables.tables["provider_ledger"]
        with engine.connect() as connection:
            back = {(row.provider_id, row.kind, row.amount_cents, row.offer_id, row.credit_request_id, row.lead_id)
                    for row in connection.execute(select(table))}
    finally:
        engine.dispose()
    assert back == {(row["provider_id"], row["kind"], row["amount_cents"], row["offer_id"], row["credit_request_id"],
                     row["lead_id"]) for row in ROWS["provider_ledger"]}

    upgrade(old_database)
    assert _entries(old_database) == moved
    assert run_check(make_session_factory(make_engine(old_database))).ok
