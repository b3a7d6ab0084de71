"""The worker inside the app: a lead accepted by the API reaches the buyer without any polling wait."""

from __future__ import annotations

import os
import signal
import time
import uuid

from delivery_support import deliveries_of, form_submission
from fastapi.testclient import TestClient
from sqlalchemy import select

from servicematch.app import create_app
from servicematch.intake.models import LeadEvent


def test_the_built_in_worker_sends_an_accepted_lead(app, settings, receiver):
    # `app` is requested for its clean-up: it empties the tables after the test.
    # A poll interval far beyond the wait below: only the wake-up on commit can make this pass.
    served = create_app(settings.model_copy(update={"worker_enabled": True, "worker_poll_seconds": 600}))
    try:
        with TestClient(served) as client:
            request_id = str(uuid.uuid4())
            body = form_submission(served.state.catalog.find("hvac", "services"), request_id=request_id,
                                   phone="5125550177")
            response = client.post("/api/submit-form", json=body)
            assert response.status_code == 202, response.text

            [received] = receiver.wait_for(1)
            assert received.json["requestId"] == request_id
            assert received.json["consumer"]["cq1"] == body["consumer"]["cq1"]
    finally:
        served.state.engine.dispose()


def test_without_the_worker_deliveries_stay_queued(client, app, session_factory, receiver):
    body = form_submission(app.state.catalog.find("hvac", "services"), request_id=str(uuid.uuid4()),
                           phone="5125550178")
    response = client.post("/api/submit-form", json=body)

    assert response.status_code == 202
    assert not hasattr(app.state, "delivery_worker")
    lead_id = response.json()["leadId"]
    # Intake commits the lead and its "lead accepted" event; routing, in a worker, does the rest.
    assert deliveries_of(session_factory, lead_id) == []
    with session_factory() as session:
        [event] = session.scalars(select(LeadEvent).where(LeadEvent.lead_id == lead_id)).all()
    assert (event.type, event.done_at, event.attempts) == ("lead.accepted", None, 0)


def _served(settings):
    return create_app(settings.model_copy(update={"worker_enabled": True, "worker_poll_seconds": 600}))


def _submit(client, served, phone: str) -> str:
    request_id = str(uuid.uuid4())
    body = form_submission(served.state.catalog.find("hvac", "services"), request_id=request_id, phone=phone)
    assert client.post("/api/submit-form", json=body).status_code == 202
    return request_id


def test_the_built_in_worker_is_a_process_of_its_own_that_stops_with_the_app(app, settings, receiver):
    served = _served(settings)
    try:
        with TestClient(served) as client:
            worker = served.state.delivery_worker
            assert worker.pid not in (None, os.getpid())
            assert is_running(worker.pid)
            request_id = _submit(client, served, "5125550179")
            [received] = receiver.wait_for(1)
            assert received.json["requestId"] == request_id
        # Leaving the app closed the pipe: the worker finished and exited.
        assert not is_running(worker.pid)
    finally:
        served.state.engine.dispose()


def test_a_worker_process_that_dies_is_started_again(app, settings, receiver):
    served = _served(settings)
    try:
        with TestClient(served) as client:
            first = served.state.delivery_worker.pid
            os.kill(first, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while served.state.delivery_worker.pid == first and time.monotonic() < deadline:
                time.sleep(0.1)
            assert served.state.delivery_worker.pid != first
            request_id = _submit(client, served, "5125550180")
            [received] = receiver.wait_for(1)
            assert received.json["requestId"] == request_id
    finally:
        served.state.engine.dispose()


def is_running(pid: int) -> bool:
    """Whether the process runs (a zombie, exited but not yet reaped, does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False
