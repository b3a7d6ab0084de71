"""POST /api/events: valid events stored, everything else dropped (always 204), limits, roll-ups."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from servicematch.events.models import FunnelDaily, FunnelEvent, RolledUpDay
from servicematch.events.rollup import roll_up_and_prune
from servicematch.kernel.clock import utcnow

VALID = {"type": "step_view", "routeType": "form", "service": "hvac", "vertical": "services", "step": 2,
         "tabId": "tab-12345678", "source": {"subid1": "spring", "fbclid": True}}


def _stored(app) -> list[FunnelEvent]:
    app.state.event_buffer.flush()
    with app.state.session_factory() as session:
        return list(session.scalars(select(FunnelEvent).order_by(FunnelEvent.id)))


def test_a_valid_event_is_stored_without_anything_personal(client, app):
    answer = client.post("/api/events", json=VALID, headers={"X-Forwarded-For": "198.51.100.7"})
    assert answer.status_code == 204 and answer.content == b""
    (event,) = _stored(app)
    assert (event.type, event.service, event.step, event.tab_id, event.source) == (
        "step_view", "hvac", 2, "tab-12345678", "spring")
    assert not hasattr(event, "ip")


def test_send_beacon_text_plain_bodies_are_read(client, app):
    client.post("/api/events", content=json.dumps(VALID), headers={"Content-Type": "text/plain;charset=UTF-8"})
    assert len(_stored(app)) == 1


@pytest.mark.parametrize("body", [
    b"not json", b"[]", b"{}", json.dumps({**VALID, "type": "purchase"}).encode(),
    json.dumps({**VALID, "service": "time-travel"}).encode(),
    json.dumps({**VALID, "tabId": "x"}).encode(),
    json.dumps({**VALID, "email": "maria@example.com"}).encode(),
    # Only a disqualifying option's catalogue text may be sent as an answer; typed text never.
    json.dumps({**VALID, "type": "disqualified", "field": "cq1", "answer": "Maria Garcia, 5125550142"}).encode(),
    json.dumps({**VALID, "source": {"subid1": "x" * 101}}).encode(),
    json.dumps({**VALID, "routeType": "form", "padding": "x" * 5000}).encode(),
    b"{" * 3000,
])
def test_junk_is_dropped_with_204(client, app, body):
    answer = client.post("/api/events", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 204
    assert _stored(app) == []


def test_a_disqualifying_catalogue_option_is_kept(client, app):
    service = app.state.catalog.find("auto-accident", "legal")
    field = next(f for f in service.fields if f.disqualifiers)
    client.post("/api/events", json={**VALID, "service": "auto-accident", "vertical": "legal", "type": "disqualified",
                                     "field": field.id, "answer": field.disqualifiers[0]})
    (event,) = _stored(app)
    assert (event.field, event.answer) == (field.id, field.disqualifiers[0])


def test_a_flood_from_one_address_is_cut_at_the_limit(client, app):
    for n in range(30):
        client.post("/api/events", json={**VALID, "tabId": f"tab-{n:08d}"})
    assert len(_stored(app)) == 20  # events_rate_limit in these tests
    # Lead intake keeps its own, untouched allowance.
    assert client.post("/api/validate", json={"type": "phone", "value": "5125550142"}).status_code == 200


def test_closed_days_are_rolled_up_once_and_raw_events_leave_after_30_days(client, app):
    for tab in ("tab-aaaaaaaa", "tab-aaaaaaaa", "tab-bbbbbbbb"):
        client.post("/api/events", json={**VALID, "tabId": tab})
    _stored(app)
    old = utcnow() - timedelta(days=40)
    with app.state.session_factory() as session:
        session.execute(update(FunnelEvent).values(at=old))
        session.commit()
    factory = app.state.session_factory
    # Every closed day from the first event on is counted, empty ones too, so none is read raw again.
    assert roll_up_and_prune(factory, retention_days=30) == 40
    assert roll_up_and_prune(factory, retention_days=30) == 0  # a day is never counted twice
    with factory() as session:
        (daily,) = session.scalars(select(FunnelDaily)).all()
        assert (daily.day, daily.type, daily.step, daily.tabs) == (old.date(), "step_view", 2, 2)
        assert min(session.scalars(select(RolledUpDay.day)).all()) == old.date()
        assert session.scalars(select(FunnelEvent)).all() == []
