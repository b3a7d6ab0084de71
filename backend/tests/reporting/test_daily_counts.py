"""Days that are over are counted once into daily tables; the dashboard reads the same figures
from them as from the leads and deliveries themselves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from console_api_support import move_back, submit
from sqlalchemy import func, select

from servicematch.kernel.clock import utcnow
from servicematch.reporting import latency
from servicematch.reporting.models import LeadDaily, ReportedDay
from servicematch.reporting.rollup import roll_up

DAYS_AGO = 3


# Histograms per service, per state and per source; a state with a service is read live.
FILTERS = [{}, {"source": "spring-sale"}, {"service": "hvac"}, {"vertical": "legal"}, {"state": "TX"},
           {"service": "hvac", "state": "TX"}, {"source": "website"}]


def test_counted_days_answer_as_the_live_rows_did(admin, app, receiver, worker):
    submit(admin, app.state.catalog, 3, subid1="spring-sale", first_phone=5125550100)
    submit(admin, app.state.catalog, 2, subid1="", first_phone=5125550200)
    worker.run_until_idle()
    move_back(app.state.session_factory, DAYS_AGO)
    submit(admin, app.state.catalog, 1, subid1="", first_phone=5125550300)  # today's, still read live
    worker.run_until_idle()
    live = {str(f): admin.get("/api/console/dashboard", params=f).json() for f in map(dict, FILTERS)}

    # Each closed day since the first lead, empty ones too; deliveries up to the day before yesterday.
    assert roll_up(app.state.session_factory) == (DAYS_AGO, DAYS_AGO - 1)
    assert roll_up(app.state.session_factory) == (0, 0), "a counted day is never counted twice"
    with app.state.session_factory() as session:
        assert session.scalar(select(func.sum(LeadDaily.leads))) == 5
    for f in map(dict, FILTERS):
        counted = admin.get("/api/console/dashboard", params=f).json()
        before = live[str(f)]
        for key in ("leadsPerDay", "byVertical", "byService", "byState", "bySource"):
            assert counted[key] == before[key], (f, key)
        for key in ("total", "delivered", "failed", "rejected", "pending", "successRate"):
            assert counted["delivery"][key] == before["delivery"][key], (f, key)
        for key in ("p50Seconds", "p99Seconds"):
            if before["delivery"][key] is None:
                assert counted["delivery"][key] is None
            else:  # read from the histograms: within the buckets' precision
                assert counted["delivery"][key] == pytest.approx(before["delivery"][key], rel=0.06, abs=0.01)
    day = (utcnow() - timedelta(days=DAYS_AGO)).date().isoformat()
    unfiltered = admin.get("/api/console/dashboard").json()
    per_day = {entry["day"]: entry["total"] for entry in unfiltered["leadsPerDay"]}
    assert live["{}"]["leadsPerDay"][-1]["total"] == 1 and per_day.get(day) == 5


def test_a_day_with_a_pending_delivery_waits_and_a_retry_reopens_its_day(admin, app, receiver, worker):
    receiver.status = 400  # refused for good: rejected
    submit(admin, app.state.catalog, 1, subid1="", first_phone=5125550400)
    worker.run_until_idle()
    move_back(app.state.session_factory, DAYS_AGO)
    assert roll_up(app.state.session_factory) == (DAYS_AGO, DAYS_AGO - 1)
    before = admin.get("/api/console/dashboard").json()["delivery"]
    assert (before["rejected"], before["delivered"]) == (1, 0)

    (item,) = admin.get("/api/console/deliveries").json()["items"]
    assert admin.post(f"/api/console/deliveries/{item['id']}/retry").status_code == 202
    day = (utcnow() - timedelta(days=DAYS_AGO)).date()
    with app.state.session_factory() as session:
        counted = set(session.execute(select(ReportedDay.kind, ReportedDay.day)).all())
    assert ("leads", day) in counted and ("deliveries", day) not in counted, "its day is read live again"
    pending = admin.get("/api/console/dashboard").json()["delivery"]
    assert (pending["rejected"], pending["pending"]) == (0, 1)
    assert roll_up(app.state.session_factory) == (0, 0), "not counted while a delivery is pending"

    receiver.status = 200
    worker.run_until_idle()
    assert roll_up(app.state.session_factory) == (0, 1)
    after = admin.get("/api/console/dashboard").json()["delivery"]
    assert (after["rejected"], after["delivered"], after["pending"]) == (0, 1, 0)


@pytest.mark.parametrize("seconds", [0.004, 0.05, 0.8, 3.2, 61.0, 7200.0])
def test_a_histogram_bucket_stands_for_its_values_within_five_percent(seconds):
    value = latency.bucket_value(latency.bucket_of(seconds))
    assert value == pytest.approx(seconds, rel=0.05) or (seconds <= latency.SMALLEST_SECONDS
                                                         and value == latency.SMALLEST_SECONDS)


def test_percentiles_of_a_merged_histogram():
    values = [0.2] * 97 + [5.0, 30.0, 31.0]
    counts = latency.histogram(values)
    assert latency.percentile(counts, 0.5) == pytest.approx(0.2, rel=0.05)
    # Between the closest ranks, as percentile_cont: 98.01th of 0..99 lies between 30 and 31.
    assert latency.percentile(counts, 0.99) == pytest.approx(30.01, rel=0.05)
    assert latency.percentile({}, 0.5) is None
