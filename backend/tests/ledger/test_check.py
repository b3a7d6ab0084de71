"""`servicematch ledger check`: quiet (exit 0) on a ledger that agrees with the sales, offers, returns
and credits on record; every kind of disagreement named in words (exit 1); each run recorded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from click.testing import CliRunner
from money_support import accept_offer
from sold_leads import sell, store_lead
from sqlalchemy import select, update

from servicematch.buyer.models import LeadReturn, ReturnStatus
from servicematch.buyer.returns import decide_return
from servicematch.cli import main
from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.ledger.causes import CAUSE_TABLES
from servicematch.ledger.check import check_if_due, last_check, run_check
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    LedgerAccount,
    LedgerCheck,
    LedgerEntry,
    Payment,
)
from servicematch.ledger.postings import account_for, post
from servicematch.portal import credits
from servicematch.routing.models import Buyer, OfferStatus, ProviderOffer, Sale
from servicematch.schema.registry import metadata
from servicematch.settings import get_settings


def _buyer(session_factory, name: str = "Leads Direct") -> str:
    with session_factory() as session:
        buyer = Buyer(name=name, post_url="https://buyer.example/post", secret="whsec_x")
        session.add(buyer)
        session.commit()
        return buyer.id


def _provider(session_factory, name: str = "Cool Air LLC") -> str:
    with session_factory() as session:
        provider = Provider(name=name, contact_email="office@coolair.example", services=["hvac"], states=["TX"],
                            credit_cap_percent=100)
        session.add(provider)
        session.commit()
        return provider.id


def charge_sale(session_factory, sale_id: str) -> None:
    """The sale's charge, as routing posts it with the sale."""
    with session_factory() as session:
        sale = session.get(Sale, sale_id)
        account = account_for(session, AccountKind.BUYER, sale.buyer_id, name=session.get(Buyer, sale.buyer_id).name)
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-sale.price_cents, cause=Cause.SALE,
             cause_id=sale.id, lead_id=sale.lead_id, description="HVAC lead, Austin TX 78701")
        session.commit()


@pytest.fixture
def books(app) -> dict:
    """Two sales (one returned, approved), two accepted offers (one credited, approved), each posted
    by the code that posts it: a ledger that agrees."""
    factory = app.state.session_factory
    buyer_id, provider_id = _buyer(factory), _provider(factory)
    leads = [store_lead(app).id for _ in range(4)]
    sales = [sell(app, lead_id, buyer_id, price_cents=cents) for lead_id, cents in zip(leads[:2], (3000, 2500),
                                                                                        strict=True)]
    for sale_id in sales:
        charge_sale(factory, sale_id)
    offers = [accept_offer(app, lead_id=lead_id, provider_id=provider_id, price_cents=cents)
              for lead_id, cents in zip(leads[2:], (4500, 5200), strict=True)]
    with factory() as session:
        sale = session.get(Sale, sales[0])
        returned = LeadReturn(sale_id=sale.id, buyer_id=buyer_id, lead_id=sale.lead_id, reason="wrong_phone",
                              amount_cents=sale.price_cents, requested_by="ops@buyer.example", created_at=utcnow())
        session.add(returned)
        session.flush()
        decide_return(session, returned, approve=True, by="admin@servicematch.example", note=None, now=utcnow())
        credit = credits.request_credit(session, app.state.settings, session.get(Provider, provider_id), offers[1],
                                        credits.CreditAsk(reason="wrong_phone"), now=utcnow())
        credits.decide(session, credit, approve=True, by="admin@servicematch.example", note=None, now=utcnow())
        session.commit()
        return {"buyer": buyer_id, "provider": provider_id, "leads": leads, "sales": sales, "offers": offers,
                "return": returned.id, "credit": credit.id}


def _run(monkeypatch, database_url: str) -> tuple[int, str]:
    monkeypatch.setenv("SERVICEMATCH_DATABASE_URL", database_url)
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(main, ["ledger", "check"])
    finally:
        get_settings.cache_clear()
    return result.exit_code, result.output


def test_a_ledger_that_agrees_passes_and_the_run_is_recorded(app, books, monkeypatch, database_url):
    with app.state.session_factory() as session:
        balances = {(a.kind, a.owner_id): a.balance_cents for a in session.scalars(select(LedgerAccount))}
        [returned] = session.scalars(select(LedgerEntry).where(LedgerEntry.kind == EntryKind.RETURN))
    assert balances == {("buyer", books["buyer"]): -3000 - 2500 + 3000,
                        ("provider", books["provider"]): -4500 - 5200 + 5200}
    assert (returned.amount_cents, returned.cause_id, returned.description, returned.created_by) == (
        3000, books["return"], "Return: wrong or disconnected phone", "admin@servicematch.example")

    code, output = _run(monkeypatch, database_url)
    assert code == 0, output
    assert "ledger check: 2 accounts, 6 entries" in output
    for line in ("account balances: 2 of 2", "sales: 2 of 2 charged once", "accepted offers with a price: 2 of 2",
                 "approved returns: 1 of 1", "approved credits: 1 of 1", "ok: nothing is wrong"):
        assert line in output, output
    with app.state.session_factory() as session:
        run = last_check(session)
        assert (run.ok, run.accounts, run.entries, run.problems) == (True, 2, 6, [])
        assert run.finished_at >= run.started_at


def test_each_disagreement_is_named_and_the_exit_status_is_one(app, books, monkeypatch, database_url):
    factory = app.state.session_factory
    unpaid = sell(app, store_lead(app).id, books["buyer"], price_cents=1900)  # a sale nobody charged
    with factory() as session:
        account = session.scalar(select(LedgerAccount).where(LedgerAccount.owner_id == books["buyer"]))
        session.execute(update(LedgerAccount).where(LedgerAccount.id == account.id)
                        .values(balance_cents=LedgerAccount.balance_cents + 100))
        # An offer accepted with no charge, and a charge for an offer that was declined.
        lead_id = books["leads"][0]
        free_ride = ProviderOffer(lead_id=lead_id, provider_id=books["provider"], status=OfferStatus.ACCEPTED,
                                  price_cents=4000, created_at=utcnow(), expires_at=utcnow(), decided_at=utcnow())
        declined = ProviderOffer(lead_id=books["leads"][1], provider_id=books["provider"],
                                 status=OfferStatus.DECLINED, price_cents=4000, created_at=utcnow(),
                                 expires_at=utcnow(), decided_at=utcnow())
        session.add_all([free_ride, declined])
        session.flush()
        pro = session.scalar(select(LedgerAccount).where(LedgerAccount.owner_id == books["provider"]))
        post(session, pro, kind=EntryKind.CHARGE, amount_cents=-4000, cause=Cause.OFFER, cause_id=declined.id)
        # A charge for a sale that does not exist, its lead still here; a charge the wrong way round.
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-700, cause=Cause.SALE, cause_id="no-such-sale",
             lead_id=lead_id)
        post(session, account, kind=EntryKind.CHARGE, amount_cents=500, cause=Cause.ADJUSTMENT, cause_id="adj-1")
        # A payment that is nowhere, and a reversal that undoes nothing exactly.
        post(session, account, kind=EntryKind.PAYMENT, amount_cents=900, cause=Cause.PAYMENT, cause_id="no-payment")
        post(session, account, kind=EntryKind.REVERSAL, amount_cents=123, cause=Cause.ENTRY, cause_id="999999999")
        # An approved return never posted.
        second = session.get(Sale, books["sales"][1])
        session.add(LeadReturn(sale_id=second.id, buyer_id=books["buyer"], lead_id=second.lead_id, reason="fraud",
                               status=ReturnStatus.APPROVED, amount_cents=2500, requested_by="ops@buyer.example",
                               created_at=utcnow(), decided_at=utcnow(), decided_by="admin@servicematch.example"))
        session.commit()
        ids = {"free_ride": free_ride.id, "declined": declined.id}

    code, output = _run(monkeypatch, database_url)
    assert code == 1, output
    problems = [line for line in output.splitlines() if line.startswith("problem: ")]
    expected = [
        "buyer account 'Leads Direct'",  # its balance moved by 100 with no entry
        f"sale {unpaid} ", "no charge of -$19.00 in the ledger",
        f"accepted offer {ids['free_ride']}",
        f"names offer {ids['declined']}, which takes no entry",
        "names sale no-such-sale, which does not exist",
        "1 charge entry is positive (cause adjustment)",
        "names payment no-payment, which does not exist",
        "reversal", "names entry 999999999, which does not exist",
        "approved return ", "no return of $25.00 in the ledger",
    ]
    for words in expected:
        assert any(words in line for line in problems), (words, output)
    assert len(problems) == 9, output
    assert "NOT OK: 9 problems" in output
    with factory() as session:
        run = last_check(session)
        assert not run.ok and len(run.problems) == 9


def test_payments_and_their_refunds_name_payments_of_their_own_account(app, books):
    """A later partial refund names its payment as "<payment id>:<total refunded by then>"."""
    factory = app.state.session_factory
    with factory() as session:
        account = session.scalar(select(LedgerAccount).where(LedgerAccount.owner_id == books["buyer"]))
        other = session.scalar(select(LedgerAccount).where(LedgerAccount.owner_id == books["provider"]))
        paid = Payment(account_id=account.id, method="wire", status="succeeded", amount_cents=10_000)
        elsewhere = Payment(account_id=other.id, method="wire", status="succeeded", amount_cents=500)
        session.add_all([paid, elsewhere])
        session.flush()
        post(session, account, kind=EntryKind.PAYMENT, amount_cents=10_000, cause=Cause.PAYMENT, cause_id=paid.id)
        post(session, account, kind=EntryKind.REFUND, amount_cents=-1_000, cause=Cause.PAYMENT, cause_id=paid.id)
        post(session, account, kind=EntryKind.REFUND, amount_cents=-500, cause=Cause.PAYMENT,
             cause_id=f"{paid.id}:1500")
        session.commit()
    assert run_check(factory).ok
    with factory() as session:
        account = session.scalar(select(LedgerAccount).where(LedgerAccount.owner_id == books["buyer"]))
        wrong = post(session, account, kind=EntryKind.PAYMENT, amount_cents=500, cause=Cause.PAYMENT,
                     cause_id=elsewhere.id)
        session.commit()
        wrong_id = wrong.id
    findings = run_check(factory)
    assert findings.problems == [f"entry {wrong_id} names payment {elsewhere.id}, which belongs to another account"]


def test_a_charge_whose_sale_went_with_its_lead_is_no_problem(app, books):
    """After the consent retention period a lead is deleted with its sales; the charges stay."""
    factory = app.state.session_factory
    with factory() as session:
        account = session.scalar(select(LedgerAccount).where(LedgerAccount.owner_id == books["buyer"]))
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-800, cause=Cause.SALE, cause_id="deleted-sale",
             lead_id="deleted-lead")
        session.commit()
    findings = run_check(factory)
    assert findings.ok, findings.problems
    assert findings.checked["sale"] == 2


def test_the_cause_tables_named_by_the_ledger_exist_as_the_models_declare_them():
    """The ledger names routing's and the portals' tables without importing them: keep the names honest."""
    for table in CAUSE_TABLES:
        declared = metadata.tables[table.name]
        assert {column.name for column in table.columns} <= set(declared.columns.keys()), table.name
    assert (OfferStatus.ACCEPTED, ReturnStatus.APPROVED) == ("accepted", "approved")


def test_every_run_is_recorded_newest_last(app, books):
    factory = app.state.session_factory
    run_check(factory)
    run_check(factory)
    with factory() as session:
        assert len(session.scalars(select(LedgerCheck)).all()) == 2


def test_the_nightly_chore_runs_once_a_day(app, books):
    factory = app.state.session_factory
    first = check_if_due(session_factory=factory)
    assert first is not None and first.ok
    assert check_if_due(session_factory=factory, now=utcnow() + timedelta(hours=23)) is None
    assert check_if_due(session_factory=factory, now=utcnow() + timedelta(hours=25)) is not None
    with factory() as session:
        assert len(session.scalars(select(LedgerCheck)).all()) == 2
