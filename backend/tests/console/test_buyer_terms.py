"""The operator's side of the buyer portal's settings: the return terms, the bid floor and the locks
an operator sets in the console, the buyer's own pause shown (never set) there, and an operator's
new secret ending a rotation's overlap at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from servicematch.kernel.clock import utcnow
from servicematch.outbound.signing import new_webhook_secret
from servicematch.routing.models import Buyer

NEW = {"name": "Bright Leads", "postUrl": "http://127.0.0.1:9/post", "pingUrl": "http://127.0.0.1:9/ping",
       "services": ["hvac"]}


@pytest.fixture
def settings(settings):
    """Only the buyers of the buyers table: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": ""})


def stored(app, buyer_id: str) -> Buyer:
    with app.state.session_factory() as session:
        return session.get(Buyer, buyer_id)


def test_a_new_buyer_gets_the_default_return_terms_no_floor_no_locks_and_is_not_paused(admin):
    buyer = admin.post("/api/console/buyers", json=NEW).json()
    assert (buyer["returnWindowDays"], buyer["maxReturnPercent"], buyer["bidFloor"]) == (7, 15, None)
    assert (buyer["lockedFields"], buyer["paused"], buyer["pausedAt"]) == ([], False, None)


def test_the_operator_sets_the_return_terms_the_floor_and_the_locks(admin, app):
    created = admin.post("/api/console/buyers", json={
        **NEW, "returnWindowDays": 0, "maxReturnPercent": None, "bidFloor": 12.5,
        "lockedFields": ["price", "pingUrl", "price"]})
    assert created.status_code == 201, created.text
    buyer = created.json()
    assert (buyer["returnWindowDays"], buyer["maxReturnPercent"], buyer["bidFloor"]) == (0, None, 12.5)
    assert buyer["lockedFields"] == ["price", "pingUrl"]
    row = stored(app, buyer["id"])
    assert (row.return_window_days, row.max_return_percent, row.bid_floor_cents) == (0, None, 1250)

    changed = admin.patch(f"/api/console/buyers/{buyer['id']}", json={"maxReturnPercent": 20, "lockedFields": []})
    assert changed.status_code == 200, changed.text
    # What was not sent stays as it was.
    assert (changed.json()["maxReturnPercent"], changed.json()["lockedFields"]) == (20, [])
    assert (changed.json()["returnWindowDays"], changed.json()["bidFloor"]) == (0, 12.5)
    [entry] = [e for e in admin.get("/api/console/audit").json()["items"] if e["action"] == "buyer.change"]
    assert entry["detail"] == {"fields": ["lockedFields", "maxReturnPercent"]}
    assert admin.patch(f"/api/console/buyers/{buyer['id']}", json={"bidFloor": None}).json()["bidFloor"] is None


@pytest.mark.parametrize(("change", "field"), [
    ({"lockedFields": ["price", "colour"]}, "lockedFields"),
    ({"lockedFields": ["exclusive"]}, "lockedFields"),
    ({"lockedFields": "price"}, "lockedFields"),
    ({"returnWindowDays": 366}, "returnWindowDays"),
    ({"returnWindowDays": -1}, "returnWindowDays"),
    ({"returnWindowDays": None}, "returnWindowDays"),
    ({"maxReturnPercent": 101}, "maxReturnPercent"),
    ({"maxReturnPercent": True}, "maxReturnPercent"),
    ({"bidFloor": -1}, "bidFloor"),
    ({"bidFloor": "cheap"}, "bidFloor"),
    ({"paused": True}, "paused"),
    ({"pausedAt": "2026-11-28T00:00:00Z"}, "pausedAt"),
])
def test_bad_terms_are_a_422_naming_the_field_and_nothing_changes(admin, app, change, field):
    buyer = admin.post("/api/console/buyers", json=NEW).json()
    answer = admin.patch(f"/api/console/buyers/{buyer['id']}", json=change)
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]
    row = stored(app, buyer["id"])
    assert (row.locked_fields, row.return_window_days, row.max_return_percent, row.bid_floor_cents) == ([], 7, 15, None)
    assert row.paused_at is None


def test_the_buyers_own_pause_is_shown_with_its_time_and_the_operator_switch_stays_apart(admin, app):
    buyer = admin.post("/api/console/buyers", json=NEW).json()
    paused_at = utcnow().replace(microsecond=0)
    with app.state.session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer["id"]).values(paused_at=paused_at))
        session.commit()
    [listed] = admin.get("/api/console/buyers").json()["items"]
    assert (listed["paused"], listed["active"]) == (True, True)
    assert listed["pausedAt"] == paused_at.isoformat().replace("+00:00", "Z")
    # The operator's resume is its own switch: the buyer's pause is the buyer's to lift.
    assert admin.post(f"/api/console/buyers/{buyer['id']}/resume").json()["paused"] is True


def test_an_operators_new_secret_ends_a_rotations_overlap_at_once(admin, app):
    buyer = admin.post("/api/console/buyers", json=NEW).json()
    with app.state.session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer["id"]).values(
            previous_secret=buyer["secret"], previous_secret_until=utcnow() + timedelta(hours=20)))
        session.commit()
    replacement = new_webhook_secret()
    assert admin.patch(f"/api/console/buyers/{buyer['id']}", json={"secret": replacement}).status_code == 200
    row = stored(app, buyer["id"])
    assert (row.secret, row.previous_secret, row.previous_secret_until) == (replacement, None, None)


def test_a_change_without_a_secret_keeps_the_overlap(admin, app):
    buyer = admin.post("/api/console/buyers", json=NEW).json()
    until = utcnow() + timedelta(hours=20)
    with app.state.session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer["id"]).values(
            previous_secret="whsec_old", previous_secret_until=until))
        session.commit()
    assert admin.patch(f"/api/console/buyers/{buyer['id']}", json={"dailyCap": 5}).status_code == 200
    assert stored(app, buyer["id"]).previous_secret == "whsec_old"
