"""What buyers' leads became, by buyer, service and source: the sales of a range of days, each counted
once under its newest feedback, and its approved return; a range and a grouping refused by name."""

from __future__ import annotations

from datetime import timedelta

from sold_leads import sold_lead

from servicematch.buyer.models import LeadFeedback, LeadReturn, ReturnStatus
from servicematch.kernel.clock import utcnow
from servicematch.routing import buyers as directory
from servicematch.routing.models import Sale

ZERO = {"contacted": 0, "appointment": 0, "quoted": 0, "soldOn": 0, "bad": 0}


def _buyer(app, name: str) -> str:
    with app.state.session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(name=name, post_url="https://buyer.example/leads",
                                                                  price_cents=3000), allow_private=True)
        session.commit()
        return buyer.id


def _tell(app, sale_id: str, *statuses: str, return_status: str | None = None) -> None:
    """Feedback in this order, a minute apart, and a return of this status."""
    with app.state.session_factory() as session:
        sale = session.get(Sale, sale_id)
        for n, status in enumerate(statuses):
            session.add(LeadFeedback(sale_id=sale.id, buyer_id=sale.buyer_id, lead_id=sale.lead_id, status=status,
                                     reason="Wrong number" if status == "bad" else None, source="api",
                                     given_by="key:crm", created_at=utcnow() + timedelta(minutes=n)))
        if return_status:
            session.add(LeadReturn(sale_id=sale.id, buyer_id=sale.buyer_id, lead_id=sale.lead_id, reason="fraud",
                                   status=return_status, amount_cents=sale.price_cents, requested_by="key:crm",
                                   created_at=utcnow()))
        session.commit()


def _seeded(app) -> dict[str, str]:
    acme, other = _buyer(app, "Acme Leads"), _buyer(app, "Other Leads")
    _, told_sold = sold_lead(app, acme, days_ago=2, subid1="spring-sale")
    _, bad = sold_lead(app, acme, days_ago=1)
    _, waiting = sold_lead(app, acme, service=("roofing", "services"), subid1="spring-sale")
    _, booked = sold_lead(app, other)
    _, old = sold_lead(app, other, days_ago=40)
    _tell(app, told_sold, "contacted", "quoted", "sold")
    _tell(app, bad, "contacted", "bad", return_status=ReturnStatus.APPROVED)
    _tell(app, waiting, return_status=ReturnStatus.PENDING)
    _tell(app, booked, "appointment")
    _tell(app, old, "quoted", return_status=ReturnStatus.APPROVED)
    return {"acme": acme, "other": other}


def _rows(admin, **params) -> dict[str, dict]:
    answer = admin.get("/api/console/conversion", params=params)
    assert answer.status_code == 200, answer.text
    return {row["key"]: row for row in answer.json()["items"]}


def test_conversion_by_buyer_counts_each_sale_under_its_newest_feedback(admin, app):
    ids = _seeded(app)
    rows = _rows(admin, by="buyer")
    assert list(rows) == [ids["acme"], ids["other"]], "most sales first"
    assert rows[ids["acme"]] == {"key": ids["acme"], "label": "Acme Leads", "sold": 3, "withFeedback": 2,
                                 **ZERO, "soldOn": 1, "bad": 1, "returned": 1}
    # The 40-day-old sale is outside the default 30 days, its feedback and return with it.
    assert rows[ids["other"]] == {"key": ids["other"], "label": "Other Leads", "sold": 1, "withFeedback": 1,
                                  **ZERO, "appointment": 1, "returned": 0}
    wider = _rows(admin, by="buyer", **{"from": (utcnow() - timedelta(days=45)).date().isoformat()})
    assert (wider[ids["other"]]["sold"], wider[ids["other"]]["quoted"], wider[ids["other"]]["returned"]) == (2, 1, 1)
    assert _rows(admin) == rows, "by buyer unless told"


def test_conversion_by_service_and_by_source(admin, app):
    _seeded(app)
    services = _rows(admin, by="service")
    hvac = app.state.catalog.find("hvac", "services").name
    roofing = app.state.catalog.find("roofing", "services").name
    assert {key: (row["label"], row["sold"], row["soldOn"], row["bad"], row["appointment"], row["returned"])
            for key, row in services.items()} == {
        "services/hvac": (hvac, 3, 1, 1, 1, 1), "services/roofing": (roofing, 1, 0, 0, 0, 0)}
    sources = _rows(admin, by="source")
    assert {key: (row["label"], row["sold"], row["withFeedback"]) for key, row in sources.items()} == {
        "spring-sale": ("spring-sale", 2, 1), "website": ("website", 2, 2)}


def test_a_bad_grouping_or_range_is_refused_by_name(admin, app):
    for params, field in (({"by": "provider"}, "by"), ({"from": "2026-13-01"}, "from"),
                          ({"from": "2026-11-20", "to": "2026-11-10"}, "from"),
                          ({"from": "2024-01-01", "to": "2026-01-01"}, "from")):
        answer = admin.get("/api/console/conversion", params=params)
        assert answer.status_code == 422 and field in answer.json()["fields"], params
    assert admin.get("/api/console/conversion").json() == {"items": []}
