"""The open days' part of the dashboard, read on every call: a lead's source as a column the
database keeps, delivery times bucketed by PostgreSQL as reporting/latency.py does, and exact
percentiles over counted and open days alike."""

from __future__ import annotations

import math
import random
from datetime import UTC, date, datetime

import pytest
from alembic import command
from console_api_support import hvac_payload, move_back, submit
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Float, column, create_engine, insert, select, text, values

from servicematch.console import delivery_health
from servicematch.console.dashboard import dashboard
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.delivery_health import bucket_sql, exact_percentile
from servicematch.db.session import make_engine, make_session_factory
from servicematch.intake.models import Lead
from servicematch.reporting.latency import GROWTH, SMALLEST_SECONDS, bucket_of
from servicematch.reporting.rollup import roll_up
from servicematch.schema.migrate import alembic_config, upgrade
from servicematch.schema.registry import metadata

DAYS_AGO = 3
# No histogram answers these: their percentiles are exact.
EXACT = [{"service": "hvac", "state": "TX"}, {"state": "TX", "source": "website"}, {"vertical": "services", "state": "TX"}]


def _sources(app) -> dict[str, str]:
    with app.state.session_factory() as session:
        return dict(session.execute(select(Lead.request_id, Lead.__table__.c.source)).all())


def test_a_leads_source_is_kept_by_the_database_from_its_click(admin, app):
    catalog = app.state.catalog
    expected = {}
    for n, (click, source) in enumerate([({"subid1": "spring-sale", "subid2": "x"}, "spring-sale"),
                                         ({"subid1": "", "subid2": "x"}, "subid2:x"),
                                         ({"subid1": "", "fbclid": "fb.1"}, "fbclid"), ({"subid1": ""}, "website")]):
        payload = hvac_payload(catalog, phone=f"51255502{n:02d}")
        payload["click"].update(click)
        assert admin.post("/api/submit-form", json=payload).status_code == 202
        expected[payload["requestId"]] = source
    assert _sources(app) == expected
    with app.state.session_factory() as session:  # as an erasure empties it
        lead = session.scalars(select(Lead).where(Lead.request_id == next(iter(expected)))).one()
        lead.click = {}
        session.commit()
    assert _sources(app)[next(iter(expected))] == "website"


def test_leads_stored_before_the_column_get_their_source(earlier_database):
    upgrade(earlier_database, "20261123_0010")
    engine = create_engine(earlier_database)
    try:
        with engine.begin() as connection:
            for n, click in enumerate(('{"subid1": "", "subid2": "x"}', '{"fbclid": "fb.1"}', "{}")):
                connection.execute(text(
                    "INSERT INTO leads (id, request_id, request_hash, flow, vertical, service, category, cid, "
                    "is_test, is_duplicate, do_not_sell, personal_data, answers, click, created_at) VALUES "
                    "(:id, :id, 'h', 'form', 'services', 'hvac', 'HVAC', 1, false, false, false, :data, '{}', "
                    ":click, '2026-11-20 10:00:00+00')"), {"id": f"lead-{n}", "data": b"x", "click": click})
        upgrade(earlier_database)
        with engine.connect() as connection:
            found = dict(connection.execute(text("SELECT id, source FROM leads")).all())
    finally:
        engine.dispose()
    assert found == {"lead-0": "subid2:x", "lead-1": "fbclid", "lead-2": "website"}


def _lead(lead_id: str, created_at: datetime, click: dict) -> dict:
    return {"id": lead_id, "request_id": lead_id, "request_hash": "h", "flow": "form", "vertical": "services",
            "service": "hvac", "category": "HVAC", "cid": 640, "is_test": False, "is_duplicate": False,
            "do_not_sell": False, "personal_data": b"x", "answers": {}, "click": click, "created_at": created_at,
            "state": "TX"}


def test_a_lead_without_campaign_parameters_says_website_and_its_counts_follow(earlier_database):
    """20261126_0015: "direct", which no lead says, becomes the lead's own source as its payload
    states it, "website", in the column and the counts; a day with a lead whose subid1 is
    literally "direct" is forgotten, to be counted again, as are the delivery counts."""
    url = earlier_database
    upgrade(url, "20261125_0013")
    engine = create_engine(url)
    plain, tagged = date(2026, 11, 20), date(2026, 11, 21)
    leads, reported, lead_daily = (metadata.tables[name] for name in ("leads", "reported_days", "lead_daily"))
    try:
        with engine.begin() as connection:
            connection.execute(insert(leads), [
                _lead("plain", datetime(2026, 11, 20, 10, tzinfo=UTC), {}),
                _lead("tagged", datetime(2026, 11, 21, 10, tzinfo=UTC), {"subid1": "direct"}),
                _lead("spring", datetime(2026, 11, 21, 11, tzinfo=UTC), {"subid1": "spring-sale"})])
            for day in (plain, tagged):
                connection.execute(insert(reported).values(kind="leads", day=day, counted_at=datetime.now(UTC)))
                connection.execute(insert(lead_daily).values(day=day, vertical="services", service="hvac",
                                                             state="TX", source="direct", leads=1))
            # Delivery counts that cannot tell a lead's deliveries from its notices.
            connection.execute(insert(reported).values(kind="deliveries", day=plain, counted_at=datetime.now(UTC)))
            connection.execute(text("INSERT INTO delivery_daily (day, vertical, service, state, source, status, "
                                    "deliveries) VALUES ('2026-11-20', 'services', 'hvac', 'TX', 'direct', "
                                    "'delivered', 2)"))
        upgrade(url)
        with engine.connect() as connection:
            sources = dict(connection.execute(text("SELECT id, source FROM leads")).all())
            counts = connection.execute(select(lead_daily.c.day, lead_daily.c.source)).all()
            counted = connection.execute(select(reported.c.kind, reported.c.day)).all()
            deliveries = connection.execute(text("SELECT count(*) FROM delivery_daily")).scalar()
        assert sources == {"plain": "website", "tagged": "direct", "spring": "spring-sale"}
        assert counts == [(plain, "website")]
        assert counted == [("leads", plain)] and deliveries == 0  # counted again, each kind apart

        command.downgrade(alembic_config(url), "20261125_0013")
        with engine.connect() as connection:
            sources = dict(connection.execute(text("SELECT id, source FROM leads")).all())
            counts = connection.execute(select(lead_daily.c.day, lead_daily.c.source)).all()
        assert sources == {"plain": "direct", "tagged": "direct", "spring": "spring-sale"}
        assert counts == [(plain, "direct")]
    finally:
        engine.dispose()


def test_postgresql_buckets_a_time_as_bucket_of_does(app, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite is given the times and buckets them in Python")
    times = [SMALLEST_SECONDS, SMALLEST_SECONDS / 2, 0.0]
    for n in range(200):  # every bucket's bounds, and a hair either side
        bound = SMALLEST_SECONDS * GROWTH ** n
        times += [bound, math.nextafter(bound, 0), math.nextafter(bound, math.inf)]
    generator = random.Random(7)
    times += [10 ** generator.uniform(-3, 5) for _ in range(2000)]
    rows = values(column("seconds", Float), name="times").data([(t,) for t in times])
    with app.state.session_factory() as session:
        found = session.execute(select(rows.c.seconds, bucket_sql(rows.c.seconds))).all()
    assert {t: b for t, b in found} == {t: bucket_of(t) for t in times}


def test_exact_percentiles_with_counted_days_are_the_ones_read_live(admin, app, database_url, receiver, worker,
                                                                    monkeypatch):
    catalog = app.state.catalog
    submit(admin, catalog, 3, subid1="", first_phone=5125550600)
    submit(admin, catalog, 2, subid1="spring-sale", first_phone=5125550700)
    worker.run_until_idle()
    move_back(app.state.session_factory, DAYS_AGO)
    submit(admin, catalog, 2, subid1="", first_phone=5125550800)  # today's, read live
    worker.run_until_idle()
    live = [admin.get("/api/console/dashboard", params=f).json()["delivery"] for f in EXACT]
    assert all(d["p50Seconds"] is not None for d in live)

    assert roll_up(app.state.session_factory) == (DAYS_AGO, DAYS_AGO - 1)
    counted = [admin.get("/api/console/dashboard", params=f).json()["delivery"] for f in EXACT]
    assert counted == live
    assert [_delivery_health(database_url, catalog, f) for f in EXACT] == live, "another process, its own cache"
    monkeypatch.setattr(delivery_health, "MAX_KEPT_TIMES", 0)  # too many to keep: read over the range
    assert [_delivery_health(database_url, catalog, f) for f in EXACT] == live


def _delivery_health(database_url: str, catalog, params: dict) -> dict:
    engine = make_engine(database_url)
    try:
        with make_session_factory(engine)() as session:
            return dashboard(session, catalog, DashboardFilters.parse(date_from=None, date_to=None, **params))["delivery"]
    finally:
        engine.dispose()


def _percentile_cont(values: list[float], fraction: float) -> float | None:
    """PostgreSQL's percentile_cont over the values, sorted."""
    if not values:
        return None
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low = math.floor(position)
    high = math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@given(st.lists(st.lists(st.floats(min_value=0, max_value=1e5), max_size=40), max_size=4),
       st.sampled_from([0.0, 0.5, 0.99, 1.0]))
def test_a_percentile_over_sorted_runs_is_the_one_over_their_values_together(runs, fraction):
    together = [value for run in runs for value in run]
    assert exact_percentile(tuple(sorted(run) for run in runs), fraction) == _percentile_cont(together, fraction)
