"""The dashboard's revenue agrees with the ledger to the cent: for any range, it is minus the sum of
the revenue entries (charges, credits, returns, adjustments and reversals of them) of the range's
leads, plus those of no lead made in the range; by day, by buyer and under the lead's filters;
whether the lead's day is counted or live. Payments, refunds and their reversals are cash: they
change no revenue."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

from buyer_fixtures import make_buyer  # noqa: F401 (fixture)
from console_money_support import add_entry, charge_sale, make_account
from money_support import accept_offer
from sold_leads import sold_lead
from sqlalchemy import select

from servicematch.buyer.returns import ReturnAsk, lodge_return
from servicematch.delivery.models import Provider
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.ledger.models import AccountKind, Cause, EntryKind, LedgerAccount, LedgerEntry
from servicematch.ledger.postings import post
from servicematch.portal import credits
from servicematch.reporting.models import PROVIDERS, RevenueDaily
from servicematch.reporting.rollup import roll_up
from servicematch.routing.models import Buyer, Sale

REVENUE = (EntryKind.CHARGE, EntryKind.CREDIT, EntryKind.RETURN, EntryKind.ADJUSTMENT)
DAYS_AGO = 3


def ledger_revenue(app, start: date, end: date, service: str = "", state: str = "") -> tuple[int, dict, dict]:
    """What the ledger says, read plainly: the range's revenue, by day and by buyer key."""
    with app.state.session_factory() as session:
        entries = list(session.scalars(select(LedgerEntry)))
        kinds = {entry.id: entry.kind for entry in entries}
        accounts = {a.id: a for a in session.scalars(select(LedgerAccount))}
        leads = {lead.id: lead for lead in session.scalars(select(Lead))}
    by_day: Counter = Counter()
    by_buyer: Counter = Counter()
    for entry in entries:
        kind = kinds[int(entry.cause_id)] if entry.kind == EntryKind.REVERSAL else entry.kind
        if kind not in REVENUE:
            continue
        lead = leads.get(entry.lead_id)
        if entry.lead_id is not None and (lead is None or (service and lead.service != service)
                                          or (state and lead.state != state)):
            continue
        if entry.lead_id is None and (service or state):
            continue
        day = as_utc(lead.created_at if lead else entry.created_at).date()
        if start <= day <= end:
            account = accounts[entry.account_id]
            by_day[day.isoformat()] -= entry.amount_cents
            by_buyer[PROVIDERS if account.kind == AccountKind.PROVIDER else account.owner_id] -= entry.amount_cents
    return (sum(by_day.values()), {day: cents for day, cents in by_day.items() if cents},
            {key: cents for key, cents in by_buyer.items() if cents})


def _revenue(admin, **filters) -> dict:
    answer = admin.get("/api/console/dashboard", params=filters)
    assert answer.status_code == 200, answer.text
    return answer.json()["revenue"]


def _agree(admin, app, **filters) -> dict:
    today = utcnow().date()
    start = date.fromisoformat(filters.get("from", (today - timedelta(days=29)).isoformat()))
    end = date.fromisoformat(filters.get("to", today.isoformat()))
    cents, by_day, by_buyer = ledger_revenue(app, start, end, filters.get("service", ""), filters.get("state", ""))
    revenue = _revenue(admin, **filters)
    assert revenue["cents"] == cents, filters
    assert {row["day"]: row["cents"] for row in revenue["perDay"] if row["cents"]} == by_day, filters
    assert {row["key"]: row["cents"] for row in revenue["byBuyer"] if row["cents"]} == by_buyer, filters
    return revenue


def _provider(app) -> str:
    with app.state.session_factory() as session:
        provider = Provider(name="Cool Air LLC", contact_email="dispatch@coolair.example", services=["hvac"],
                            states=["TX"], credit_cap_percent=100)
        session.add(provider)
        session.commit()
        return provider.id


def _approved_credit(admin, app, provider_id: str, offer_id: str) -> None:
    with app.state.session_factory() as session:
        row = credits.request_credit(session, app.state.settings, session.get(Provider, provider_id), offer_id,
                                     credits.CreditAsk(reason="wrong_phone"), now=utcnow())
        session.commit()
    assert admin.post(f"/api/console/credits/{row.id}/approve", json={}).status_code == 200


def _approved_return(admin, app, sale_id: str) -> None:
    with app.state.session_factory() as session:
        sale = session.get(Sale, sale_id)
        row = lodge_return(session, app.state.settings, session.get(Buyer, sale.buyer_id), sale,
                           ReturnAsk(reason="wrong_phone"), who="ops@buyer.example", now=utcnow())
        session.commit()
    assert admin.post(f"/api/console/returns/{row.id}/approve", json={}).status_code == 200


def _reverse(admin, entry_id: int) -> None:
    answer = admin.post(f"/api/console/entries/{entry_id}/reverse", json={"note": "A mistake."})
    assert answer.status_code == 201, answer.text


def test_the_dashboards_revenue_is_the_ledgers_counted_or_live(admin, app, make_buyer):  # noqa: F811
    acme, bolt = make_buyer("Acme Leads"), make_buyer("Bolt Media")
    provider_id = _provider(app)
    sold = {name: sold_lead(app, buyer, price_cents=price, days_ago=days)
            for name, buyer, price, days in (("kept", acme, 4_250, DAYS_AGO), ("returned", acme, 1_000, DAYS_AGO),
                                             ("reversed", bolt, 2_000, DAYS_AGO), ("today", bolt, 990, 0))}
    charges = {name: charge_sale(app, sale_id) for name, (_lead, sale_id) in sold.items()}
    accept_offer(app, lead_id=sold["kept"][0], provider_id=provider_id, price_cents=4_500,
                 decided_at=utcnow() - timedelta(days=DAYS_AGO))
    credited = accept_offer(app, lead_id=sold["returned"][0], provider_id=provider_id, price_cents=5_200,
                            decided_at=utcnow() - timedelta(days=DAYS_AGO))
    today_offer = accept_offer(app, lead_id=sold["today"][0], provider_id=provider_id, price_cents=3_000)
    _approved_credit(admin, app, provider_id, credited)
    # Cash, not revenue: a payment, a refund, and a reversed payment.
    acme_account = make_account(app, AccountKind.BUYER, owner_id=acme)
    payment = add_entry(app, acme_account, EntryKind.PAYMENT, 50_000)
    add_entry(app, acme_account, EntryKind.REFUND, -1_000)
    _reverse(admin, payment)
    # An adjustment of no lead, long before the range: out of it.
    add_entry(app, acme_account, EntryKind.ADJUSTMENT, -7_700, at=utcnow() - timedelta(days=60))
    assert _agree(admin, app)["cents"] == 4_250 + 1_000 + 2_000 + 990 + 4_500 + 5_200 - 5_200 + 3_000

    roll_up(app.state.session_factory)  # the past days are counted now, and kept in memory
    with app.state.session_factory() as session:
        assert session.scalar(select(RevenueDaily.day).limit(1)) is not None
    # Corrections made after the lead's day was counted are in the next answer all the same.
    _approved_return(admin, app, sold["returned"][1])
    _reverse(admin, charges["reversed"])
    with app.state.session_factory() as session:
        provider_charge = session.scalar(select(LedgerEntry.id).where(LedgerEntry.cause_id == today_offer))
    _reverse(admin, provider_charge)
    bolt_account = make_account(app, AccountKind.BUYER, owner_id=bolt)
    for amount, note in ((-25.0, "Setup fee."), (12.5, "Goodwill.")):
        answer = admin.post(f"/api/console/accounts/{bolt_account}/adjustments", json={"amount": amount, "note": note})
        assert answer.status_code == 201
    _reverse(admin, answer.json()["entry"]["id"])  # the goodwill, taken back

    revenue = _agree(admin, app)
    assert revenue["cents"] == 4_250 + 4_500 + 990 + 2_500
    assert revenue["sales"] == 7, "a sale returned or reversed was still made"
    by_buyer = {row["key"]: row["cents"] for row in revenue["byBuyer"]}
    assert by_buyer == {acme: 4_250, bolt: 990 + 2_500, PROVIDERS: 4_500}
    # The lead's filters apply to a lead's money; money of no lead has no service.
    assert _agree(admin, app, service="hvac")["cents"] == 4_250 + 4_500 + 990
    assert _revenue(admin, service="roofing")["cents"] == 0
    today = utcnow().date().isoformat()
    assert _agree(admin, app, **{"from": today, "to": today})["cents"] == 990 + 2_500
    past = (utcnow().date() - timedelta(days=DAYS_AGO)).isoformat()
    assert _agree(admin, app, **{"from": past, "to": past})["cents"] == 4_250 + 4_500


def test_money_of_no_lead_counts_on_its_own_day_under_no_service(admin, app, make_buyer):  # noqa: F811
    buyer = make_buyer("Acme Leads")
    charge_sale(app, sold_lead(app, buyer, price_cents=3_000)[1])
    yesterday = utcnow() - timedelta(days=1)
    account_id = make_account(app, AccountKind.BUYER, owner_id=buyer)
    add_entry(app, account_id, EntryKind.ADJUSTMENT, -1_000, at=yesterday)
    # A charge of another cause than a sale (an invoice's late fee, say) is revenue all the same.
    with app.state.session_factory() as session:
        post(session, session.get(LedgerAccount, account_id), kind=EntryKind.CHARGE, amount_cents=-500,
             cause=Cause.INVOICE, cause_id="late-fee", description="Late fee", now=yesterday)
        session.commit()
    revenue = _agree(admin, app)
    assert {row["day"]: row["cents"] for row in revenue["perDay"] if row["cents"]} == {
        yesterday.date().isoformat(): 1_500, utcnow().date().isoformat(): 3_000}
    for group in ("byService", "byState", "bySource"):
        assert {row["key"]: (row["cents"], row["sales"]) for row in revenue[group]}["unknown"] == (1_500, 0), group
    assert _agree(admin, app, state="TX")["cents"] == 3_000
    assert _revenue(admin, source="website")["cents"] == 3_000
