"""The profile in the portal: read and change it, pause and resume; and a provider sees only its own."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.delivery.models import PausedBy, Provider
from servicematch.delivery.providers import disable_provider
from servicematch.kernel.clock import utcnow

HOURS = {"days": ["mon", "tue", "wed", "thu", "fri"], "opens": "08:00", "closes": "18:00",
         "timeZone": "America/Chicago"}


def _row(app, provider_id: str) -> Provider:
    with app.state.session_factory() as session:
        return session.get(Provider, provider_id)


def test_a_provider_reads_its_profile(provider):
    browser = provider("ana@coolair.example")
    profile = browser.get(browser.me).json()
    assert profile | {"id": None} == {
        "id": None, "name": "Cool Air LLC", "email": "ana@coolair.example", "contactName": None, "phone": None,
        "services": ["services/hvac", "services/roofing"], "zips": ["78701"], "radiusMiles": 25.0, "states": [],
        "hours": None, "dailyCap": None, "weeklyBudget": None, "active": True, "pausedBy": None, "autoAccept": False,
        "exclusiveLeads": False,
        "leadPrices": [{"vertical": "services", "verticalName": "Home services", "sharedCents": 2500,
                        "exclusiveCents": 6250}],
        "mode": "review", "verified": False, "licenceNumber": "TACLA12345C", "licenceState": "TX",
        "licencesNeeded": ["HVAC contractor licence"], "rating": {"average": None, "count": 0},
        "minQuality": None}


def test_exclusive_leads_are_opted_in_and_out_and_prices_follow_the_operators_price(app, provider):
    browser = provider()
    assert browser.send("PATCH", browser.me, {"exclusiveLeads": True}).json()["exclusiveLeads"] is True
    assert _row(app, browser.provider_id).exclusive_leads is True
    with app.state.session_factory() as session:
        session.get(Provider, browser.provider_id).lead_price_cents = 4000
        session.commit()
    profile = browser.send("PATCH", browser.me, {"exclusiveLeads": False}).json()
    assert (profile["exclusiveLeads"], profile["leadPrices"]) == (False, [
        {"vertical": "services", "verticalName": "Home services", "sharedCents": 4000, "exclusiveCents": 10000}])


def test_services_area_hours_caps_budget_and_auto_accept_are_saved(app, provider):
    browser = provider()
    answer = browser.send("PATCH", browser.me, {
        "services": ["roofing", "services/gutters"], "zips": [], "radiusMiles": None, "states": ["tx", "ok"],
        "hours": HOURS, "dailyCap": 12, "weeklyBudget": 250.5, "autoAccept": True})
    assert answer.status_code == 200, answer.text
    saved = answer.json()
    assert (saved["services"], saved["states"], saved["zips"], saved["hours"], saved["dailyCap"],
            saved["weeklyBudget"], saved["autoAccept"], saved["licencesNeeded"]) == (
        ["services/gutters", "services/roofing"], ["OK", "TX"], [], HOURS, 12, 250.5, True, [])
    row = _row(app, browser.provider_id)
    assert (row.hours, row.weekly_budget_cents, row.daily_cap) == (
        "Mon,Tue,Wed,Thu,Fri 08:00-18:00 America/Chicago", 25050, 12)
    cleared = browser.send("PATCH", browser.me, {"hours": None, "dailyCap": None, "weeklyBudget": None}).json()
    assert (cleared["hours"], cleared["dailyCap"], cleared["weeklyBudget"], cleared["states"]) == (
        None, None, None, ["OK", "TX"])
    with app.state.session_factory() as session:
        changes = [e.detail["fields"] for e in session.scalars(select(AuditEntry).where(
            AuditEntry.action == "portal.profile.change"))]
    assert changes[-1] == ["dailyCap", "hours", "weeklyBudget"]


@pytest.mark.parametrize(("change", "field"), [
    ({"services": ["plumbing"]}, "services"),
    ({"states": ["TX"]}, "states"),
    ({"zips": ["1"]}, "zips"),
    ({"radiusMiles": 900}, "radiusMiles"),
    ({"dailyCap": 0}, "dailyCap"),
    ({"dailyCap": "5"}, "dailyCap"),
    ({"dailyCap": 2**64}, "dailyCap"),
    ({"weeklyBudget": -5}, "weeklyBudget"),
    ({"hours": {**HOURS, "opens": "19:00"}}, "hours"),
    ({"hours": {**HOURS, "days": []}}, "hours.days"),
    ({"hours": {**HOURS, "timeZone": "Europe/Paris"}}, "hours.timeZone"),
    ({"licenceNumber": None}, "licenceNumber"),
    ({"services": ["legal/bankruptcy", "services/hvac"]}, None),
    ({"name": "Renamed"}, "name"),
], ids=["unknown-service", "zips-and-states", "bad-zip", "radius", "cap", "cap-as-text", "cap-past-any-column",
        "budget", "closes-before-opens", "no-days", "time-zone", "licence-removed", "second-licence-ok",
        "not-editable"])
def test_a_bad_change_names_its_field_and_writes_nothing(app, provider, change, field):
    browser = provider()
    before = browser.get(browser.me).json()
    answer = browser.send("PATCH", browser.me, change)
    if field is None:  # one licence on file covers the services that need one
        assert answer.status_code == 200, answer.text
        return
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"], answer.json()
    assert browser.get(browser.me).json() == before


def test_a_new_licence_takes_the_badge_away_until_checked_again(app, provider):
    browser = provider()
    with app.state.session_factory() as session:
        session.get(Provider, browser.provider_id).verified_at = utcnow()
        session.commit()
    assert browser.get(browser.me).json()["verified"] is True
    assert browser.send("PATCH", browser.me, {"dailyCap": 5}).json()["verified"] is True
    changed = browser.send("PATCH", browser.me, {"licenceNumber": "TACLA99999E"}).json()
    assert (changed["verified"], changed["licenceNumber"]) == (False, "TACLA99999E")


def test_pause_and_resume(app, provider):
    browser = provider()
    paused = browser.send("POST", f"{browser.me}/pause").json()
    assert (paused["active"], paused["pausedBy"]) == (False, "provider")
    assert _row(app, browser.provider_id).active is False
    resumed = browser.send("POST", f"{browser.me}/resume").json()
    assert (resumed["active"], resumed["pausedBy"]) == (True, None)


def test_a_provider_an_operator_paused_cannot_resume_itself(app, provider):
    browser = provider()
    with app.state.session_factory() as session:
        disable_provider(session=session, provider_id=browser.provider_id)
        session.commit()
    refused = browser.send("POST", f"{browser.me}/resume")
    assert refused.status_code == 409 and "Contact us" in refused.json()["error"]
    row = _row(app, browser.provider_id)
    assert (row.active, row.paused_by) == (False, PausedBy.OPERATOR)


def test_another_providers_id_answers_404_with_nothing_in_it(app, provider):
    a, b = provider("a@example.com"), provider("b@example.com")
    before = a.get(a.me).json()
    for method, path, body in [("GET", a.me, None), ("PATCH", a.me, {"dailyCap": 1, "states": ["CA"], "zips": []}),
                               ("POST", f"{a.me}/pause", None), ("POST", f"{a.me}/resume", None),
                               ("GET", "/providers/no-such-provider", None)]:
        answer = b.send(method, path, body)
        assert (answer.status_code, answer.content) == (404, b""), (method, path, answer.text)
        assert "content-type" not in answer.headers
    assert a.get(a.me).json() == before
    assert b.get(b.me).status_code == 200
