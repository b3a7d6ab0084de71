"""Providers' money on the dashboard: each accepted lead's charge less its approved credit counts
as revenue of its lead's day (live and in the daily counts), as one "Providers" line by buyer, and
in earnings per lead; a charge or credit for a lead of a counted day reopens that day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from console_api_support import move_back
from money_support import accept_offer, store_lead
from sqlalchemy import func, select

from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import LedgerEntry
from servicematch.portal import credits
from servicematch.reporting.models import PROVIDERS, ReportedDay, ReportKind, RevenueDaily, lead_day
from servicematch.reporting.rollup import roll_up
from servicematch.routing.models import Sale

DAYS_AGO = 2


def _provider(app) -> str:
    with app.state.session_factory() as session:
        provider = Provider(name="Cool Air LLC", contact_email="dispatch@coolair.example", services=["hvac"],
                            states=["TX"], credit_cap_percent=100)
        session.add(provider)
        session.commit()
        return provider.id


def _ask_credit(app, provider_id: str, offer_id: str) -> str:
    with app.state.session_factory() as session:
        row = credits.request_credit(session, app.state.settings, session.get(Provider, provider_id), offer_id,
                                     credits.CreditAsk(reason="wrong_phone"), now=utcnow())
        session.commit()
        return row.id


@pytest.fixture
def money(admin, app) -> dict:
    """Three leads DAYS_AGO days back (one in CA): one sold to a buyer for $20.00, two accepted by a
    provider at $45.00 and $52.00, the $52.00 one credited; one lead today, accepted at $30.00."""
    leads = [store_lead(app, phone=f"51255501{n}0", email=f"p{n}@example.com") for n in range(3)]
    move_back(app.state.session_factory, DAYS_AGO)
    today = store_lead(app, phone="5125550190", email="today@example.com")
    provider_id = _provider(app)
    with app.state.session_factory() as session:
        session.get(type(leads[0]), leads[2].id).state = "CA"
        session.add(Sale(lead_id=leads[0].id, buyer_id=None, price_cents=2000))
        session.commit()
    accept_offer(app, lead_id=leads[1].id, provider_id=provider_id, price_cents=4500)
    credited = accept_offer(app, lead_id=leads[2].id, provider_id=provider_id, price_cents=5200)
    accept_offer(app, lead_id=today.id, provider_id=provider_id, price_cents=3000)
    credit_id = _ask_credit(app, provider_id, credited)
    answer = admin.post(f"/api/console/credits/{credit_id}/approve", json={})
    assert answer.status_code == 200, answer.text
    return {"provider": provider_id, "day": lead_day(leads[0].created_at) - timedelta(days=DAYS_AGO)}


def _revenue(admin, **filters) -> dict:
    return admin.get("/api/console/dashboard", params=filters).json()["revenue"]


def _assert_the_figures(admin, money: dict) -> None:
    revenue = _revenue(admin)
    assert (revenue["cents"], revenue["sales"], revenue["leads"]) == (2000 + 4500 + 5200 - 5200 + 3000, 4, 4)
    assert revenue["earningsPerLeadCents"] == round(9500 / 4)
    by_buyer = {row["name"]: (row["key"], row["cents"], row["sales"]) for row in revenue["byBuyer"]}
    assert by_buyer == {"Providers": (PROVIDERS, 4500 + 3000, 3), "deleted buyer": ("", 2000, 1)}
    per_day = {row["day"]: (row["cents"], row["sales"], row["earningsPerLeadCents"]) for row in revenue["perDay"]}
    assert per_day[money["day"].isoformat()] == (6500, 3, round(6500 / 3))
    assert per_day[utcnow().date().isoformat()] == (3000, 1, 3000)
    assert {row["key"]: row["cents"] for row in revenue["byState"]} == {"TX": 9500, "CA": 0}
    assert _revenue(admin, state="CA")["cents"] == 0, "the credited lead's charge and credit cancel out"
    assert _revenue(admin, service="hvac")["cents"] == 9500 and _revenue(admin, service="roofing")["cents"] == 0


def test_providers_charges_less_credits_are_revenue_live_and_counted(admin, app, money):
    _assert_the_figures(admin, money)
    roll_up(app.state.session_factory)
    with app.state.session_factory() as session:
        kept = session.execute(select(RevenueDaily.cents, RevenueDaily.sales).where(
            RevenueDaily.day == money["day"], RevenueDaily.buyer_id == PROVIDERS)).all()
        assert sorted(kept) == [(0, 1), (4500, 1)]
    _assert_the_figures(admin, money)


def test_a_credit_approved_after_its_day_was_counted_reopens_the_day(admin, app, money):
    session_factory = app.state.session_factory
    roll_up(session_factory)
    assert _revenue(admin)["cents"] == 9500  # now kept in memory
    with session_factory() as session:
        offer_id = session.scalar(select(LedgerEntry.cause_id).where(LedgerEntry.amount_cents == -4500))
    credit_id = _ask_credit(app, money["provider"], offer_id)
    with session_factory() as session:
        assert session.get(ReportedDay, (ReportKind.REVENUE, money["day"])) is not None, "a request credits nothing"
    assert admin.post(f"/api/console/credits/{credit_id}/approve", json={}).status_code == 200
    with session_factory() as session:
        assert session.get(ReportedDay, (ReportKind.REVENUE, money["day"])) is None, "the day is open again"
    assert _revenue(admin)["cents"] == 9500 - 4500
    assert roll_up(session_factory) == (0, 0)
    with session_factory() as session:
        assert session.get(ReportedDay, (ReportKind.REVENUE, money["day"])) is not None
        assert session.scalar(select(func.sum(RevenueDaily.cents)).where(RevenueDaily.day == money["day"])) == 2000
    assert _revenue(admin)["cents"] == 5000


def test_a_charge_for_a_lead_of_a_counted_day_reopens_the_day(admin, app):
    session_factory = app.state.session_factory
    lead = store_lead(app)
    move_back(session_factory, DAYS_AGO)
    roll_up(session_factory)
    assert _revenue(admin)["cents"] == 0
    accept_offer(app, lead_id=lead.id, provider_id=_provider(app), price_cents=6100)
    assert _revenue(admin)["cents"] == 6100
    roll_up(session_factory)
    day = lead_day(lead.created_at) - timedelta(days=DAYS_AGO)
    with session_factory() as session:
        assert session.scalar(select(func.sum(RevenueDaily.cents)).where(RevenueDaily.day == day)) == 6100
