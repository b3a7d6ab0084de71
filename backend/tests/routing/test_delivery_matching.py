"""Matching: service, area (states, ZIPs, radius), hours, daily caps, at most three, round robin;
providers in review mode are matched too (routing offers them the lead: tests/routing/offers/)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import zipcodes
from delivery_support import deliveries_of
from partners_support import with_fixed_buyer

from servicematch.address import directory
from servicematch.delivery.models import ProviderMode, utcnow
from servicematch.delivery.outbox import matched_provider_names
from servicematch.routing.matching import match_providers, zip_city, zip_location


def _matched(session_factory, now=None, **lead):
    with session_factory() as session:
        return [p.name for p in match_providers(session=session, now=now or utcnow(), **lead)]


AUSTIN = {"vertical": "services", "service": "hvac", "state": "TX", "zip_code": "78701"}


@pytest.fixture
def settings(settings):
    """No SERVICEMATCH_BUYER_URL buyer here: it would take one of the lead's three seats."""
    return settings.model_copy(update={"buyer_url": ""})


def test_the_fixed_buyer_takes_one_of_the_three_seats(add_provider, make_lead, session_factory, settings,
                                                      receiver, app):
    for name in ("A", "B", "C"):
        add_provider(name)
    lead = make_lead(with_settings=with_fixed_buyer(app, settings, receiver.url))

    kinds = [d.kind for d in deliveries_of(session_factory, lead.id)]
    assert kinds.count("buyer") == 1
    assert len(matched_provider_names(session=session_factory(), lead_id=lead.id)) == 2


def test_only_active_providers_of_the_service_in_the_area_match(add_provider, session_factory):
    add_provider("Texas Air", states=["TX"])
    add_provider("Roofers", services=["roofing"], states=["TX"])
    add_provider("Ohio Air", states=["OH"])
    add_provider("Retired Air", states=["TX"], active=False)
    add_provider("Downtown Air", states=[], zips=["78701"])
    add_provider("Dallas Air", states=[], zips=["75201"])

    assert sorted(_matched(session_factory, **AUSTIN)) == ["Downtown Air", "Texas Air"]


def test_providers_in_review_mode_are_matched_as_providers_added_by_operators(add_provider, session_factory):
    add_provider("Joined Through The Portal", mode=ProviderMode.REVIEW)
    add_provider("Added By An Operator")

    assert sorted(_matched(session_factory, **AUSTIN)) == ["Added By An Operator", "Joined Through The Portal"]


def test_a_provider_with_hours_is_matched_only_within_them(add_provider, session_factory):
    add_provider("Weekday Air", hours="Mon-Fri 08:00-18:00 America/Chicago")
    add_provider("Always Air")
    # Wednesday 2026-11-25: 15:00 UTC is 09:00 in Chicago, 02:00 UTC is Tuesday 20:00 there.
    open_hour, closed_hour = datetime(2026, 11, 25, 15, tzinfo=UTC), datetime(2026, 11, 25, 2, tzinfo=UTC)

    assert sorted(_matched(session_factory, now=open_hour, **AUSTIN)) == ["Always Air", "Weekday Air"]
    assert _matched(session_factory, now=closed_hour, **AUSTIN) == ["Always Air"]


def test_a_radius_reaches_nearby_zips_only(add_provider, session_factory):
    # 78741 (south-east Austin) is a few miles from 78701; 75201 (Dallas) is about 180 miles away.
    add_provider("Near", states=[], zips=["78741"], radius_miles=15)
    add_provider("Far", states=[], zips=["75201"], radius_miles=50)

    assert _matched(session_factory, **AUSTIN) == ["Near"]


def test_a_vertical_qualified_service_matches_only_that_vertical(add_provider, session_factory):
    add_provider("Debt Lawyers", services=["legal/debt-relief"], states=["TX"])
    add_provider("Any Debt Help", services=["debt-relief"], states=["TX"])
    legal = {**AUSTIN, "vertical": "legal", "service": "debt-relief"}
    financial = {**AUSTIN, "vertical": "financial", "service": "debt-relief"}

    assert sorted(_matched(session_factory, **legal)) == ["Any Debt Help", "Debt Lawyers"]
    assert _matched(session_factory, **financial) == ["Any Debt Help"]


def test_at_most_three_providers_get_a_lead_in_round_robin(add_provider, make_lead, session_factory):
    for name in ("A", "B", "C", "D", "E"):
        add_provider(name)

    rounds = [matched_provider_names(session=session_factory(), lead_id=make_lead().id) for _ in range(5)]

    assert all(len(names) == 3 for names in rounds)
    counts = {name: sum(name in names for names in rounds) for name in "ABCDE"}
    assert counts == {name: 3 for name in "ABCDE"}  # 15 slots spread evenly over 5 providers
    assert [sorted(names) for names in rounds[:3]] == [["A", "B", "C"], ["A", "D", "E"], ["B", "C", "D"]]


def test_a_provider_at_its_daily_cap_is_skipped(add_provider, make_lead, session_factory):
    add_provider("Capped", daily_cap=2)
    add_provider("Open")

    matched = [matched_provider_names(session=session_factory(), lead_id=make_lead().id) for _ in range(4)]

    assert matched == [["Capped", "Open"], ["Capped", "Open"], ["Open"], ["Open"]]


def test_leads_stored_together_keep_the_turn_order_and_the_caps(add_provider, make_leads_together,
                                                                  session_factory):
    add_provider("Capped", daily_cap=1)
    for name in ("B", "C", "D"):
        add_provider(name)

    leads = make_leads_together(3)

    matched = [matched_provider_names(session=session_factory(), lead_id=lead.id) for lead in leads]
    # Leads routed side by side: the cap holds and the turn passes on (nine seats, four providers).
    assert all(len(names) == 3 for names in matched)
    counts = {name: sum(name in names for names in matched) for name in ("Capped", "B", "C", "D")}
    assert counts["Capped"] == 1 and sorted(counts.values()) == [1, 2, 3, 3]


def test_each_matched_provider_gets_a_row_per_channel(add_provider, make_lead, session_factory):
    add_provider("Hooked", webhook_url="http://127.0.0.1:9/hook")
    add_provider("Mailed")
    lead = make_lead()

    rows = {(d.kind, d.provider.name if d.provider_id else None)
            for d in _with_providers(session_factory, lead.id)}
    assert rows == {("provider_webhook", "Hooked"), ("provider_email", "Hooked"), ("provider_email", "Mailed")}


def test_duplicates_are_not_sent_to_providers_again(add_provider, make_lead, session_factory):
    add_provider("Texas Air")
    make_lead(phone="5125550111")
    duplicate = make_lead(phone="5125550111")

    assert [d.kind for d in deliveries_of(session_factory, duplicate.id)] == []


def _with_providers(session_factory, lead_id):
    from sqlalchemy import select
    from sqlalchemy.orm import selectinload

    from servicematch.delivery.models import Delivery

    with session_factory() as session:
        return session.scalars(select(Delivery).where(Delivery.lead_id == lead_id, Delivery.payload_kind == "lead")
                               .options(selectinload(Delivery.provider))).all()


def test_a_zip_is_read_as_the_bundled_data_reads_it_and_asked_for_once(monkeypatch):
    """Every sale's statement line names the lead's city, and every radius check places a ZIP: each
    ZIP asks `zipcodes.matching`, which reads every row, once, and is kept small."""
    asked: list[str] = []
    matching = zipcodes.matching

    def counted(zip_code, *args, **kwargs):
        asked.append(zip_code)
        return matching(zip_code, *args, **kwargs)

    monkeypatch.setattr(zipcodes, "matching", counted)
    monkeypatch.setattr(directory, "_places", {})
    assert [zip_city(z) for z in ("78701", "78701-1234", " 78701 ", "78701")] == ["Austin"] * 4
    assert [zip_city(z) for z in ("7870", "abcde", "00000", "", None, "00000")] == [""] * 6
    assert zip_location("10001") == (40.7484, -73.9967)
    assert zip_location("99999") is None
    assert asked == ["78701", "00000", "10001", "99999"]
