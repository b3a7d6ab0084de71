"""The counted days' part of a dashboard answer is kept in memory: the same answers, fewer
statements, and never an answer older than the daily counts it was read from."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from console_api_support import move_back, post_event, submit
from sqlalchemy import event

from servicematch.console.counted import LruCache, cache_of
from servicematch.console.dashboard import dashboard
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.db.session import make_engine, make_session_factory
from servicematch.events.rollup import roll_up_and_prune
from servicematch.kernel.clock import utcnow
from servicematch.reporting.rollup import roll_up

DAYS_AGO = 3
DAILY_TABLES = re.compile(r"\b(lead_daily|delivery_daily|delivery_latency_daily|funnel_daily|revenue_daily)\b")


def _filters(**params) -> DashboardFilters:
    return DashboardFilters.parse(date_from=params.pop("from", None), date_to=params.pop("to", None), **params)


def _answer(session_factory, index, filters: DashboardFilters) -> dict:
    with session_factory() as session:
        return dashboard(session, index, filters)


@contextmanager
def _other_process(database_url: str) -> Iterator:
    """Another server process's sessions: its own engine, so its own (empty) cache."""
    engine = make_engine(database_url)
    try:
        yield make_session_factory(engine)
    finally:
        engine.dispose()


def _uncached(database_url: str, index, filters: DashboardFilters) -> dict:
    with _other_process(database_url) as session_factory:
        return _answer(session_factory, index, filters)


@pytest.fixture
def history(admin, app, receiver, worker) -> None:
    """Leads, their deliveries and funnel events DAYS_AGO days back, all counted; a lead and an
    event today, read live."""
    index, session_factory = app.state.catalog, app.state.session_factory
    submit(admin, index, 3, subid1="spring-sale", first_phone=5125550100)
    submit(admin, index, 2, subid1="", first_phone=5125550200)
    for tab, kind in (("tab-aaaaaaaa", "page_view"), ("tab-aaaaaaaa", "submitted"), ("tab-bbbbbbbb", "page_view"),
                      ("tab-bbbbbbbb", "call_click")):
        post_event(admin, tab, kind)
    app.state.event_buffer.flush()
    worker.run_until_idle()
    move_back(session_factory, DAYS_AGO)
    assert roll_up(session_factory) == (DAYS_AGO, DAYS_AGO - 1)
    assert roll_up_and_prune(session_factory, retention_days=30) == DAYS_AGO
    submit(admin, index, 1, subid1="", first_phone=5125550300)
    post_event(admin, "tab-cccccccc", "page_view")
    app.state.event_buffer.flush()
    worker.run_until_idle()


def test_a_kept_answer_is_the_one_computed_afresh(app, database_url, history):
    today = utcnow().date()
    closed = {"from": str(today - timedelta(days=DAYS_AGO + 2)), "to": str(today - timedelta(days=2))}
    for params in ({}, {"source": "spring-sale"}, {"vertical": "services", "service": "hvac"}, {"vertical": "legal"},
                   {"state": "TX"}, {"service": "hvac", "state": "TX"}, {"state": "TX", "source": "website"}, closed):
        filters = _filters(**params)
        first = _answer(app.state.session_factory, app.state.catalog, filters)
        kept = _answer(app.state.session_factory, app.state.catalog, filters)
        assert kept == first == _uncached(database_url, app.state.catalog, filters), params
    body = _answer(app.state.session_factory, app.state.catalog, _filters())
    per_day = {entry["day"]: entry["total"] for entry in body["leadsPerDay"]}
    assert (per_day[str(today - timedelta(days=DAYS_AGO))], per_day[str(today)]) == (5, 1)
    assert body["funnels"][0]["steps"][0]["count"] == 3 and body["callClicks"][0]["count"] == 1
    assert (body["delivery"]["delivered"], body["delivery"]["p50Seconds"] is not None) == (6, True)


def _statements_of_two_calls(app, filters: DashboardFilters) -> tuple[list[str], list[str]]:
    statements: list[str] = []

    def count(_connection, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(app.state.engine, "before_cursor_execute", count)
    try:
        _answer(app.state.session_factory, app.state.catalog, filters)
        first, statements[:] = list(statements), []
        _answer(app.state.session_factory, app.state.catalog, filters)
        return first, list(statements)
    finally:
        event.remove(app.state.engine, "before_cursor_execute", count)


def test_a_second_call_reads_no_daily_counts_and_runs_fewer_statements(app, history):
    first, second = _statements_of_two_calls(app, _filters())
    assert len(second) < len(first), (len(first), len(second))
    assert any(DAILY_TABLES.search(s) for s in first)
    assert not any(DAILY_TABLES.search(s) for s in second)


def test_exact_percentiles_keep_the_counted_days_times(app, history):
    """Where no histogram answers the filters (a state with a service), a repeated call reads the
    deliveries of the open days only, in the statement that counts them."""
    first, second = _statements_of_two_calls(app, _filters(service="hvac", state="TX"))
    assert [s for s in first if "FROM deliveries" in s][1:], "the counted days' times, once"
    assert len([s for s in second if "FROM deliveries" in s]) == 1
    assert not any("percentile_cont" in s for s in second)


def test_each_change_to_the_counts_shows_in_the_next_call(admin, app, database_url, receiver, worker):
    """A day counted and a day forgotten and counted again, both by another process, then a new
    lead today: each is in the very next answer."""
    index, session_factory = app.state.catalog, app.state.session_factory
    filters = _filters()
    receiver.status = 400  # refused for good: rejected
    submit(admin, index, 1, subid1="", first_phone=5125550400)
    worker.run_until_idle()
    move_back(session_factory, DAYS_AGO)
    live = _answer(session_factory, index, filters)  # nothing counted yet: kept empty

    with _other_process(database_url) as elsewhere:
        assert roll_up(elsewhere) == (DAYS_AGO, DAYS_AGO - 1)
        counted = _answer(session_factory, index, filters)
        assert counted == live, "a newly counted day moves from the live part to the kept one"
        assert counted["delivery"]["rejected"] == 1

        (item,) = admin.get("/api/console/deliveries").json()["items"]
        assert admin.post(f"/api/console/deliveries/{item['id']}/retry").status_code == 202
        assert _answer(session_factory, index, filters)["delivery"]["pending"] == 1
        receiver.status = 200
        worker.run_until_idle()
        assert roll_up(elsewhere) == (0, 1)
        recounted = _answer(session_factory, index, filters)
        assert (recounted["delivery"]["rejected"], recounted["delivery"]["delivered"]) == (0, 1), \
            "the same days are counted as before, but one of them again"

    submit(admin, index, 1, subid1="", first_phone=5125550500)
    today = _answer(session_factory, index, filters)
    assert today["leadsPerDay"][-1]["total"] == recounted["leadsPerDay"][-1]["total"] + 1
    assert today == _uncached(database_url, index, filters)


def test_the_dashboard_keeps_a_bounded_number_of_answers(app, monkeypatch):
    today = utcnow().date()
    with app.state.session_factory() as session:
        cache = cache_of(session)
        monkeypatch.setattr(cache, "size", 3)
        for n in range(6):
            dashboard(session, app.state.catalog, _filters(**{"from": str(today - timedelta(days=n))}))
    assert len(cache) == 3


def test_the_least_recently_used_goes_first_and_nothing_outlives_its_time():
    now = [0.0]
    cache = LruCache(size=2, seconds=60.0, clock=lambda: now[0])
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)
    now[0] = 61.0
    assert cache.get("a") is None and len(cache) == 1
