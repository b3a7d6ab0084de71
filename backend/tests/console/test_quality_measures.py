"""GET /api/console/quality/measures on planted leads: per source and per service, the leads, the shares
held, rejected and returned, and the reasons, over a range of days."""

from __future__ import annotations

from datetime import timedelta

import pytest
from held_lead_support import judge, submit
from sqlalchemy import update

from servicematch.buyer.models import LeadReturn, ReturnStatus
from servicematch.intake.models import (
    QUALITY_HELD,
    QUALITY_PASSED,
    QUALITY_REJECTED,
    QUALITY_RELEASED,
    Lead,
)
from servicematch.kernel.clock import utcnow
from servicematch.routing.models import Sale

BUYER = {"name": "Local Buyer", "postUrl": "https://buyer.example/post", "price": 25, "services": ["hvac"],
         "states": ["TX"]}


@pytest.fixture
def planted(admin, app) -> dict[str, str]:
    """Seven leads of the last days from two sources and two services, and one from 60 days ago.

    fb-ads, HVAC: A held (two reasons), B rejected (honeypot), C passed and returned (a return
    waiting), D passed. partner-7, roofing: E released and returned (approved), F passed with
    a denied return (not counted), G not judged (its reasons JSON null). fb-ads, 60 days ago: H held.
    """
    index, factory = app.state.catalog, app.state.session_factory
    ids = {}
    for name, source, phone in (("A", "fb-ads", 1), ("B", "fb-ads", 2), ("C", "fb-ads", 3), ("D", "fb-ads", 4),
                                ("E", "partner-7", 5), ("F", "partner-7", 6), ("G", "partner-7", 7),
                                ("H", "fb-ads", 8)):
        ids[name] = submit(admin, index, phone=f"51255502{phone:02d}", subid1=source).id
    verdicts = {"A": (QUALITY_HELD, 10, ["phone_area_state", "email_disposable"]),
                "B": (QUALITY_REJECTED, 2, ["honeypot"]), "C": (QUALITY_PASSED, 70, ["phone_area_state"]),
                "D": (QUALITY_PASSED, 100, []), "E": (QUALITY_RELEASED, 20, ["email_disposable"]),
                "F": (QUALITY_PASSED, 95, []), "H": (QUALITY_HELD, 5, ["velocity_phone"])}
    for name, (status, score, reasons) in verdicts.items():
        judge(factory, ids[name], status=status, score=score, reasons=reasons)
    buyer_id = admin.post("/api/console/buyers", json=BUYER).json()["id"]
    with factory() as session:
        session.execute(update(Lead).where(Lead.id.in_([ids["E"], ids["F"], ids["G"]])).values(service="roofing"))
        session.execute(update(Lead).where(Lead.id == ids["G"]).values(quality_reasons=None))
        session.execute(update(Lead).where(Lead.id == ids["H"]).values(created_at=utcnow() - timedelta(days=60)))
        for name, reason, status in (("C", "wrong_phone", ReturnStatus.PENDING), ("E", "fraud", ReturnStatus.APPROVED),
                                     ("F", "duplicate", ReturnStatus.DENIED)):
            sale = Sale(lead_id=ids[name], buyer_id=buyer_id, price_cents=2500, created_at=utcnow())
            session.add(sale)
            session.flush()
            session.add(LeadReturn(sale_id=sale.id, buyer_id=buyer_id, lead_id=ids[name], reason=reason,
                                   status=status, amount_cents=2500, created_at=utcnow()))
        session.commit()
    return ids


def _measures(admin, **params) -> dict:
    answer = admin.get("/api/console/quality/measures", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _reason(reason: str, leads: int, held: int, rejected: int, returned: int) -> dict:
    return {"reason": reason, "leads": leads, "held": held, "rejected": rejected, "returned": returned}


FB_ADS = {"leads": 4, "judged": 4, "held": 2, "heldPct": 50.0, "waiting": 1, "rejected": 1, "rejectedPct": 25.0,
          "returned": 1, "returnedPct": 25.0,
          "reasons": [_reason("phone_area_state", 2, 1, 0, 1), _reason("email_disposable", 1, 1, 0, 0),
                      _reason("honeypot", 1, 1, 1, 0)],
          "returnReasons": [{"key": "wrong_phone", "count": 1}]}
PARTNER = {"leads": 3, "judged": 2, "held": 1, "heldPct": 33.3, "waiting": 0, "rejected": 0, "rejectedPct": 0.0,
           "returned": 1, "returnedPct": 33.3, "reasons": [_reason("email_disposable", 1, 1, 0, 1)],
           "returnReasons": [{"key": "fraud", "count": 1}]}


def test_each_source_and_service_has_its_shares_and_reasons(admin, app, planted):
    measures = _measures(admin)
    today = utcnow().date()
    assert measures["range"] == {"from": (today - timedelta(days=29)).isoformat(), "to": today.isoformat()}
    assert measures["total"] == {
        "key": "all", "label": "All leads", "leads": 7, "judged": 6, "held": 3, "heldPct": 42.9, "waiting": 1,
        "rejected": 1, "rejectedPct": 14.3, "returned": 2, "returnedPct": 28.6,
        "reasons": [_reason("email_disposable", 2, 2, 0, 1), _reason("phone_area_state", 2, 1, 0, 1),
                    _reason("honeypot", 1, 1, 1, 0)],
        "returnReasons": [{"key": "fraud", "count": 1}, {"key": "wrong_phone", "count": 1}]}
    assert measures["bySource"] == [{"key": "fb-ads", "label": "fb-ads", **FB_ADS},
                                    {"key": "partner-7", "label": "partner-7", **PARTNER}]
    roofing = app.state.catalog.find("roofing", "services").name
    assert measures["byService"] == [{"key": "services/hvac", "label": "HVAC", **FB_ADS},
                                     {"key": "services/roofing", "label": roofing, **PARTNER}]


def test_the_range_and_the_dashboards_filters_narrow_them(admin, planted):
    earlier = (utcnow() - timedelta(days=61)).date().isoformat()
    wide = _measures(admin, **{"from": earlier})
    assert wide["total"]["leads"] == 8 and wide["bySource"][0]["key"] == "fb-ads"
    assert wide["bySource"][0]["reasons"][-1] == _reason("velocity_phone", 1, 1, 0, 0)
    assert _measures(admin, source="partner-7")["bySource"] == [{"key": "partner-7", "label": "partner-7", **PARTNER}]
    assert _measures(admin, service="hvac")["total"]["leads"] == 4
    nothing = _measures(admin, state="CA")
    assert (nothing["total"]["leads"], nothing["total"]["heldPct"], nothing["bySource"]) == (0, 0.0, [])


@pytest.mark.parametrize("params", [{"from": "2026-13-01"}, {"from": "2026-11-20", "to": "2026-11-01"},
                                    {"from": "2024-01-01", "to": "2026-01-01"}, {"state": "TXX"}])
def test_a_bad_range_or_filter_is_a_422(admin, params):
    assert admin.get("/api/console/quality/measures", params=params).status_code == 422


def test_analysts_read_them_and_signed_out_callers_do_not(analyst, client):
    assert analyst.get("/api/console/quality/measures").status_code == 200
    analyst.cookies.clear()
    assert client.get("/api/console/quality/measures").status_code == 401
