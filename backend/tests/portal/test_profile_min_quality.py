"""A provider's minimum quality score in its portal profile: read, set, cleared, on the audit log;
out of bounds refused by name with nothing written; another provider's profile untouched."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.delivery.models import Provider


def minimum(app, provider_id: str) -> int | None:
    with app.state.session_factory() as session:
        return session.get(Provider, provider_id).min_quality


def test_a_provider_sets_and_clears_its_minimum_score(app, provider):
    browser, other = provider("a@example.com"), provider("b@example.com")
    assert browser.get(browser.me).json()["minQuality"] is None
    answer = browser.send("PATCH", browser.me, {"minQuality": 70})
    assert answer.status_code == 200, answer.text
    assert answer.json()["minQuality"] == minimum(app, browser.provider_id) == 70
    assert minimum(app, other.provider_id) is None
    # Another change leaves it as it is.
    assert browser.send("PATCH", browser.me, {"dailyCap": 4}).json()["minQuality"] == 70
    assert browser.send("PATCH", browser.me, {"minQuality": None}).json()["minQuality"] is None
    with app.state.session_factory() as session:
        changes = [entry.detail["fields"] for entry in session.scalars(select(AuditEntry).where(
            AuditEntry.action == "portal.profile.change", AuditEntry.target == browser.provider_id))]
    assert ["minQuality"] in changes


@pytest.mark.parametrize("value", [101, -1, True, "70", 70.5])
def test_a_minimum_out_of_bounds_is_a_422_naming_it_and_writes_nothing(app, provider, value):
    browser = provider()
    browser.send("PATCH", browser.me, {"minQuality": 40})
    answer = browser.send("PATCH", browser.me, {"minQuality": value, "dailyCap": 3})
    assert answer.status_code == 422, answer.text
    assert "minQuality" in answer.json()["fields"]
    assert minimum(app, browser.provider_id) == 40
    assert browser.get(browser.me).json()["dailyCap"] is None
