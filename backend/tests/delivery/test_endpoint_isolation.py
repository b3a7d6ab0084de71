"""One slow or failing endpoint holds up only its own deliveries; a failing one is paused and probed."""

from __future__ import annotations

import threading

from click.testing import CliRunner
from delivery_receivers import HttpReceiver
from delivery_support import deliveries_of

from servicematch.cli import main
from servicematch.delivery.endpoints import BUYER, endpoint_states
from servicematch.delivery.history import lead_history, render_history
from servicematch.delivery.models import DeliveryStatus, TargetKind
from servicematch.settings import get_settings
from servicematch.workers import make_worker


def test_a_stalled_provider_does_not_hold_up_the_buyer(add_provider, make_lead, receiver, clock,
                                                       session_factory, settings):
    stalled = HttpReceiver(mode="hang").start()  # answers nothing until the test ends
    isolated = settings.model_copy(update={"worker_concurrency": 4, "endpoint_concurrency": 2,
                                           "smtp_host": ""})
    worker = make_worker(session_factory=session_factory, settings=isolated, clock=clock)
    stop = threading.Event()
    running = threading.Thread(target=worker.run_forever, args=(stop,))
    try:
        add_provider("Slow Air", states=("CA",), webhook_url=stalled.url, webhook_secret="s")
        slow_leads = [make_lead(state="CA", zip_code="90012", city="Los Angeles") for _ in range(4)]
        running.start()
        stalled.wait_for(2)  # both of its slots are taken by sends that will not end
        texas_leads = [make_lead() for _ in range(6)]

        # Every buyer delivery goes out while the provider's sends are still stalled.
        arrived = {r.json["requestId"] for r in receiver.wait_for(len(slow_leads) + len(texas_leads))}
        assert arrived == {lead.request_id for lead in slow_leads + texas_leads}
        assert len(stalled.requests) == 2  # never more than its share of the slots
    finally:
        stop.set()
        stalled.stop()  # releases the stalled sends
        running.join(30)
        worker.close()


def test_an_endpoint_that_keeps_failing_is_paused_then_resumed_by_a_probe(make_lead, receiver, clock,
                                                                          session_factory, settings):
    breaker = settings.model_copy(update={"endpoint_failure_threshold": 3, "endpoint_pause_seconds": 60,
                                          "endpoint_concurrency": 1, "smtp_host": ""})
    worker = make_worker(session_factory=session_factory, settings=breaker, clock=clock)
    leads = [make_lead() for _ in range(5)]
    receiver.mode = "fail"
    try:
        assert worker.run_until_idle() == 3  # then the buyer is paused: the other two wait
        with session_factory() as session:
            state = endpoint_states(session, [BUYER])[BUYER]
            assert state.consecutive_failures == 3 and state.last_error == "HTTP 500"
            history = lead_history(session=session, request_id=leads[-1].request_id, settings=breaker,
                                   payload_builder=worker.payload_builder)
        [untried] = [d for d in history["deliveries"] if d["kind"] == "buyer"]
        assert untried["attemptCount"] == 0 and untried["endpointPause"]["consecutiveFailures"] == 3
        assert "endpoint paused until" in render_history(history)

        clock.advance(seconds=59)
        assert worker.run_until_idle() == 0
        clock.advance(seconds=2)
        assert worker.run_until_idle() == 1  # one probe; it fails, so the pause doubles
        clock.advance(seconds=61)
        assert worker.run_until_idle() == 0
        receiver.mode = "ok"
        clock.advance(seconds=60)
        assert worker.run_until_idle() == 5  # the probe succeeds and the rest follow at once
    finally:
        worker.close()

    for lead in leads:
        [delivery] = deliveries_of(session_factory, lead.id)
        assert delivery.status == DeliveryStatus.DELIVERED
    with session_factory() as session:
        state = endpoint_states(session, [BUYER])[BUYER]
        assert (state.consecutive_failures, state.paused_until) == (0, None)


def test_a_paused_provider_webhook_shows_in_the_provider_list(add_provider, make_lead, clock, session_factory,
                                                              settings, client, monkeypatch):
    down = HttpReceiver(mode="fail").start()
    breaker = settings.model_copy(update={"endpoint_failure_threshold": 2, "smtp_host": ""})
    worker = make_worker(session_factory=session_factory, settings=breaker, clock=clock)
    try:
        provider = add_provider("Down Air", webhook_url=down.url, webhook_secret="s")
        lead = make_lead()
        make_lead()
        worker.run_until_idle()
    finally:
        worker.close()
        down.stop()

    answer = client.get("/api/admin/providers", headers={"Authorization": "Bearer admin-token"})
    [listed] = [p for p in answer.json() if p["id"] == provider.id]
    assert listed["webhook_paused_until"] is not None
    assert (listed["webhook_failures"], listed["webhook_last_error"]) == (2, "HTTP 500")
    # The buyer kept answering, so its deliveries went out regardless.
    kinds = {d.kind: d.status for d in deliveries_of(session_factory, lead.id)}
    assert (kinds[TargetKind.BUYER], kinds[TargetKind.PROVIDER_WEBHOOK]) == (DeliveryStatus.DELIVERED,
                                                                          DeliveryStatus.PENDING)

    for name, value in {"DATABASE_URL": settings.database_url, "DATA_KEY": settings.data_key,
                        "ENVIRONMENT": "test"}.items():
        monkeypatch.setenv(f"SERVICEMATCH_{name}", value)
    get_settings.cache_clear()
    try:
        listed_text = CliRunner().invoke(main, ["providers", "list"], catch_exceptions=False).output
    finally:
        get_settings.cache_clear()
    assert "webhook PAUSED until" in listed_text and "2 failures" in listed_text
