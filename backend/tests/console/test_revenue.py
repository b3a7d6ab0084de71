"""Revenue on the dashboard: sales by their lead's day, service, state, source and buyer, and
earnings per lead, the same whether read from the sales or from the daily counts, and counted
again when a lead of a counted day is sold."""

from __future__ import annotations

import csv
import io
from collections import Counter
from datetime import timedelta

import pytest
from console_api_support import move_back, submit
from sqlalchemy import func, select

from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.reporting.models import (
    ReportedDay,
    ReportKind,
    RevenueDaily,
    lead_day,
    reopen_revenue_day,
)
from servicematch.reporting.rollup import lead_source, roll_up
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer, Sale

DAYS_AGO = 3
TOTAL = ("total", "")
FILTERS = [{}, {"source": "spring-sale"}, {"source": "website"}, {"state": "CA"}, {"state": "TX"},
           {"service": "hvac"}, {"vertical": "legal"}, {"service": "auto-accident"},
           {"service": "hvac", "state": "TX", "source": "website"}]


def _buyer(session, name: str, cents: int, *, exclusive: bool = False) -> str:
    buyer = Buyer(id=new_id(), name=name, post_url="http://127.0.0.1:9/post", price_cents=cents,
                  exclusive=exclusive, secret="whsec_" + "A" * 32)
    session.add(buyer)
    session.flush()
    return buyer.id


def _sell(session, lead_id: str, buyer_id: str | None, cents: int, *, exclusive: bool = False) -> None:
    # A second apart, in the order made: a lead's buyers are listed in the order they bought it.
    at = utcnow() + timedelta(seconds=len(session.new))
    session.add(Sale(id=new_id(), lead_id=lead_id, buyer_id=buyer_id, price_cents=cents, exclusive=exclusive,
                     created_at=at))


def _leads(session) -> list[Lead]:
    return list(session.scalars(select(Lead).order_by(Lead.created_at, Lead.id)))


@pytest.fixture
def sales(admin, app) -> dict[str, str]:
    """Five leads DAYS_AGO days back (one moved to CA, one made a legal lead), sold to an exclusive buyer, to two shared
    buyers together, and to a buyer since deleted; two leads today, one sold."""
    index, session_factory = app.state.catalog, app.state.session_factory
    submit(admin, index, 3, subid1="spring-sale", first_phone=5125550100)
    submit(admin, index, 2, subid1="", first_phone=5125550200)
    move_back(session_factory, DAYS_AGO)
    submit(admin, index, 2, subid1="", first_phone=5125550300)
    with session_factory() as session:
        ids = {"rich": _buyer(session, "Rich Leads", 4250, exclusive=True),
               "shared": _buyer(session, "Shared Leads", 1225), "other": _buyer(session, "Other Leads", 990)}
        gone = _buyer(session, "Gone Leads", 500)
        old = [lead for lead in _leads(session) if lead_day(lead.created_at) < utcnow().date()]
        new = [lead for lead in _leads(session) if lead not in old]
        old[4].state = "CA"
        old[3].vertical, old[3].service = "legal", "auto-accident"
        _sell(session, old[0].id, ids["rich"], 4250, exclusive=True)
        _sell(session, old[1].id, ids["shared"], 1225)
        _sell(session, old[1].id, ids["other"], 990)
        _sell(session, old[3].id, ids["shared"], 1225)
        _sell(session, old[4].id, gone, 500)
        _sell(session, new[0].id, ids["other"], 990)
        session.flush()
        session.delete(session.get(Buyer, gone))  # its sale keeps its revenue, under no buyer
        session.commit()
    return ids


def _direct(session_factory, filters: dict) -> dict:
    """The revenue of the range's leads that pass the filters, summed from the sales themselves."""
    cents, sales, leads = Counter(), Counter(), 0
    with session_factory() as session:
        for lead, source in session.execute(select(Lead, lead_source())):
            facts = {"vertical": lead.vertical, "service": lead.service, "state": lead.state or "", "source": source}
            if any(facts[name] != value for name, value in filters.items()):
                continue
            leads += 1
            for sale in session.scalars(select(Sale).where(Sale.lead_id == lead.id)):
                for key in (("service", lead.service), ("state", facts["state"]), ("source", source),
                            ("buyer", sale.buyer_id or "")):
                    cents[key] += sale.price_cents
                    sales[key] += 1
                cents[TOTAL] += sale.price_cents
                sales[TOTAL] += 1
    return {"cents": cents, "sales": sales, "leads": leads}


def _assert_matches(revenue: dict, direct: dict, filters: dict) -> None:
    cents, sales = direct["cents"], direct["sales"]
    assert (revenue["cents"], revenue["sales"], revenue["leads"]) == (cents[TOTAL], sales[TOTAL],
                                                                      direct["leads"]), filters
    expected = round(cents[TOTAL] / direct["leads"]) if direct["leads"] else None
    assert revenue["earningsPerLeadCents"] == expected, filters
    assert sum(day["cents"] for day in revenue["perDay"]) == cents[TOTAL], filters
    for group, name in (("byService", "service"), ("byState", "state"), ("bySource", "source"),
                        ("byBuyer", "buyer")):
        shown = {row["key"]: (row["cents"], row["sales"]) for row in revenue[group]}
        assert shown == {key: (c, sales[(n, key)]) for (n, key), c in cents.items() if n == name}, (filters, group)


def test_revenue_is_the_sum_of_the_sales_live_and_counted(admin, app, sales):
    session_factory = app.state.session_factory
    for filters in FILTERS:
        _assert_matches(admin.get("/api/console/dashboard", params=filters).json()["revenue"],
                        _direct(session_factory, filters), filters)

    assert roll_up(session_factory)[0] == DAYS_AGO
    with session_factory() as session:
        assert session.scalar(select(func.sum(RevenueDaily.cents))) == 4250 + 1225 + 990 + 1225 + 500
        assert session.scalar(select(func.count()).select_from(ReportedDay).where(
            ReportedDay.kind == ReportKind.REVENUE)) == DAYS_AGO
    for filters in FILTERS:
        _assert_matches(admin.get("/api/console/dashboard", params=filters).json()["revenue"],
                        _direct(session_factory, filters), filters)

    filtered = {name: admin.get("/api/console/dashboard", params={name: value}).json()["revenue"]["cents"]
                for name, value in (("vertical", "legal"), ("state", "CA"), ("source", "spring-sale"))}
    assert filtered == {"vertical": 1225, "state": 500, "source": 4250 + 1225 + 990}, "each filter narrows"
    answer = admin.get("/api/console/dashboard").json()["revenue"]
    day = (utcnow() - timedelta(days=DAYS_AGO)).date().isoformat()
    per_day = {entry["day"]: entry for entry in answer["perDay"]}
    assert (per_day[day]["cents"], per_day[day]["sales"], per_day[day]["earningsPerLeadCents"]) == (
        8190, 5, round(8190 / 5))
    assert (answer["perDay"][-1]["cents"], answer["perDay"][-1]["earningsPerLeadCents"]) == (990, 495)
    names = {row["name"]: (row["key"], row["cents"], row["sales"]) for row in answer["byBuyer"]}
    assert names == {"Rich Leads": (sales["rich"], 4250, 1), "Shared Leads": (sales["shared"], 2450, 2),
                     "Other Leads": (sales["other"], 1980, 2), "deleted buyer": ("", 500, 1)}


def test_a_lead_of_a_counted_day_sold_late_reopens_and_recounts_its_day(admin, app, sales):
    session_factory = app.state.session_factory
    roll_up(session_factory)
    before = admin.get("/api/console/dashboard").json()["revenue"]  # now kept in memory
    day = (utcnow() - timedelta(days=DAYS_AGO)).date()
    with session_factory() as session:
        unsold = _leads(session)[2]
        _sell(session, unsold.id, sales["shared"], 1225)
        reopen_revenue_day(session, unsold.created_at)
        session.commit()
        counted = set(session.execute(select(ReportedDay.kind, ReportedDay.day)).all())
    assert (ReportKind.REVENUE, day) not in counted and (ReportKind.LEADS, day) in counted
    live = admin.get("/api/console/dashboard").json()["revenue"]
    assert live["cents"] == before["cents"] + 1225, "the reopened day is read live, not from the kept part"
    _assert_matches(live, _direct(session_factory, {}), {})

    assert roll_up(session_factory) == (0, 0)
    with session_factory() as session:
        assert (ReportKind.REVENUE, day) in set(session.execute(select(ReportedDay.kind, ReportedDay.day)).all())
        assert session.scalar(select(func.sum(RevenueDaily.cents)).where(RevenueDaily.day == day)) == 8190 + 1225
    for filters in FILTERS:
        _assert_matches(admin.get("/api/console/dashboard", params=filters).json()["revenue"],
                        _direct(session_factory, filters), filters)


def test_a_sale_made_by_routing_reopens_its_leads_counted_day(admin, app, receiver, worker):
    """The auction sells a lead of a day already counted: the sale is in the day's figures."""
    session_factory = app.state.session_factory
    # The buyer is on the marketing-partners list before the consumer consents: a lead goes only
    # to companies on the list its consumer saw (catalog/partners.py).
    with session_factory() as session:
        directory.add_buyer(session, directory.BuyerTerms(name="Fixed Leads", post_url=receiver.url,
                                                          price_cents=2700), allow_private=True)
        session.commit()
    submit(admin, app.state.catalog, 1, subid1="", first_phone=5125550500)
    move_back(session_factory, DAYS_AGO)
    roll_up(session_factory)
    assert admin.get("/api/console/dashboard").json()["revenue"]["cents"] == 0
    worker.run_until_idle()
    with session_factory() as session:
        assert session.scalar(select(func.sum(Sale.price_cents))) == 2700
    day = (utcnow() - timedelta(days=DAYS_AGO)).date()
    answer = admin.get("/api/console/dashboard").json()["revenue"]
    assert (answer["cents"], answer["earningsPerLeadCents"]) == (2700, 2700)
    assert roll_up(session_factory) == (0, 0)
    with session_factory() as session:
        assert session.scalar(select(func.sum(RevenueDaily.cents)).where(RevenueDaily.day == day)) == 2700


def test_an_analyst_sees_revenue(analyst, app, sales):
    """Revenue is a figure of the dashboard, which analysts see; it holds no personal data."""
    answer = analyst.get("/api/console/dashboard")
    assert answer.status_code == 200
    assert answer.json()["revenue"]["cents"] == _direct(app.state.session_factory, {})["cents"][TOTAL]


def test_the_export_names_each_leads_buyers_and_what_they_paid(admin, app, sales):
    rows = list(csv.DictReader(io.StringIO(admin.get("/api/console/leads.csv").text)))
    with app.state.session_factory() as session:
        request_ids = [lead.request_id for lead in _leads(session)]
    by_lead = {row["requestId"]: (row["buyers"], row["price"]) for row in rows}
    assert [by_lead[request_id] for request_id in request_ids] == [
        ("Rich Leads", "42.50"), ("Shared Leads; Other Leads", "22.15"), ("", ""), ("Shared Leads", "12.25"),
        ("deleted buyer", "5.00"), ("Other Leads", "9.90"), ("", "")]
