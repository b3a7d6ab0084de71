"""A lead's quality verdict in the console: the list's score and verdict and its filters by verdict and
score (the CSV export too), and the lead page's reasons and review."""

from __future__ import annotations

import csv
import io

import pytest
from console_api_support import sign_in
from fastapi.testclient import TestClient
from held_lead_support import held_lead, judge, submit

from servicematch.intake.models import QUALITY_PASSED


@pytest.fixture
def judged(admin, app) -> dict[str, str]:
    """A lead of each verdict, and one the gate has not run on; their ids by verdict."""
    index, factory = app.state.catalog, app.state.session_factory
    held = held_lead(admin, index, phone="5125550121", score=12)
    passed = submit(admin, index, phone="5125550122")
    judge(factory, passed.id, status=QUALITY_PASSED, score=88, reasons=["email_role"])
    released = held_lead(admin, index, phone="5125550123", score=25)
    assert admin.post(f"/api/console/held-leads/{released.id}/release", json={"note": "Checked."}).status_code == 200
    rejected = held_lead(admin, index, phone="5125550124", score=3, reasons=["honeypot"])
    assert admin.post(f"/api/console/held-leads/{rejected.id}/reject", json={"note": "A bot."}).status_code == 200
    unjudged = submit(admin, index, phone="5125550125")
    return {"held": held.id, "passed": passed.id, "released": released.id, "rejected": rejected.id,
            "unjudged": unjudged.id}


def _ids(admin, **params) -> set[str]:
    answer = admin.get("/api/console/leads", params=params)
    assert answer.status_code == 200, answer.text
    return {item["id"] for item in answer.json()["items"]}


def test_the_list_shows_each_leads_score_and_verdict(admin, judged):
    items = {item["id"]: item for item in admin.get("/api/console/leads").json()["items"]}
    assert (items[judged["held"]]["qualityScore"], items[judged["held"]]["qualityStatus"]) == (12, "held")
    assert (items[judged["passed"]]["qualityScore"], items[judged["passed"]]["qualityStatus"]) == (88, "passed")
    assert (items[judged["unjudged"]]["qualityScore"], items[judged["unjudged"]]["qualityStatus"]) == (None, None)


def test_the_list_filters_by_verdict_and_score(admin, judged):
    for verdict in ("held", "passed", "released", "rejected", "unjudged"):
        assert _ids(admin, quality=verdict) == {judged[verdict]}
    assert _ids(admin, scoreMax=25) == {judged["held"], judged["released"], judged["rejected"]}
    assert _ids(admin, scoreMin=12, scoreMax=25) == {judged["held"], judged["released"]}
    assert _ids(admin, scoreMin=0) == {judged[v] for v in ("held", "passed", "released", "rejected")}
    assert _ids(admin, scoreMin=100) == set()
    assert _ids(admin, quality="held", scoreMin=13) == set()


@pytest.mark.parametrize(("params", "field"), [
    ({"quality": "maybe"}, "quality"), ({"scoreMin": 101}, "scoreMin"), ({"scoreMax": -1}, "scoreMax"),
    ({"scoreMin": "high"}, "scoreMin"), ({"scoreMin": 50, "scoreMax": 40}, "scoreMin"),
])
def test_a_bad_quality_filter_is_a_422_naming_it(admin, params, field):
    for path in ("/api/console/leads", "/api/console/leads.csv"):
        answer = admin.get(path, params=params)
        assert answer.status_code == 422, answer.text
        assert list(answer.json()["fields"]) == [field]


def test_the_export_takes_the_same_filters(admin, judged):
    answer = admin.get("/api/console/leads.csv", params={"quality": "rejected"})
    assert answer.status_code == 200
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert len(rows) == 1


def test_the_lead_page_shows_the_reasons_and_the_review(admin, analyst_view, judged):
    for client in (admin, analyst_view):
        rejected = client.get(f"/api/console/leads/{judged['rejected']}").json()
        assert (rejected["qualityScore"], rejected["qualityStatus"]) == (3, "rejected")
        assert rejected["qualityReasons"] == ["honeypot"]
        review = rejected["qualityReview"]
        assert review["decision"] == "rejected" and review["note"] == "A bot." and review["by"].startswith("admin-")
        released = client.get(f"/api/console/leads/{judged['released']}").json()
        assert released["qualityReview"]["decision"] == "released" and released["qualityReview"]["note"] == "Checked."
        held = client.get(f"/api/console/leads/{judged['held']}").json()
        assert held["qualityReview"] is None and held["qualityReasons"] == ["phone_area_state", "email_disposable"]
        unjudged = client.get(f"/api/console/leads/{judged['unjudged']}").json()
        assert (unjudged["qualityScore"], unjudged["qualityStatus"], unjudged["qualityReasons"]) == (None, None, [])


@pytest.fixture
def analyst_view(app, add_operator):
    """A second browser, signed in as an analyst (the admin's stays signed in)."""
    with TestClient(app) as other:
        sign_in(other, add_operator("analyst"))
        yield other
