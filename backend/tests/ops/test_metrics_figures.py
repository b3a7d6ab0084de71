"""The figures a scrape reads from the database: the outbox, leads waiting for routing, open offers,
held leads and open circuit breakers, each by one query, the rest answered if one fails."""

from __future__ import annotations

import logging
from datetime import timedelta

from fastapi.testclient import TestClient
from held_lead_support import judge, submit
from offer_rows import add_offer, portal_provider
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from servicematch.delivery.models import Delivery, DeliveryEndpoint, DeliveryStatus, TargetKind
from servicematch.intake.models import LeadEvent
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.metrics import exposition
from servicematch.ops import metrics_figures
from servicematch.ops.heartbeat import beat
from servicematch.ops.metrics_figures import DeploymentFigures
from servicematch.routing.models import OfferStatus

KINDS = ("buyer", "buyer_post", "smtp", "webhook")


def figures(text: str) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted labels): value} of the deployment's figures in a scrape."""
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def read(app, now) -> dict[tuple[str, tuple], float]:
    return figures(exposition(DeploymentFigures(app.state.session_factory, clock=lambda: now)).decode())


def _delivery(lead_id: str, kind: str, target_key: str, status: str, since) -> Delivery:
    return Delivery(id=new_id(), lead_id=lead_id, kind=kind, target_key=target_key, status=status, attempt_count=1,
                    next_attempt_at=since, window_started_at=since, created_at=since)


def test_an_idle_deployment_reads_zero_everywhere(app):
    found = read(app, utcnow())
    for kind in KINDS:
        assert found[("servicematch_outbox_pending", (("kind", kind),))] == 0
        assert found[("servicematch_outbox_oldest_pending_seconds", (("kind", kind),))] == 0
        assert found[("servicematch_circuit_breakers_open", (("kind", kind),))] == 0
    for name in ("servicematch_routing_pending", "servicematch_routing_oldest_pending_seconds",
                 "servicematch_offers_open", "servicematch_leads_held"):
        assert found[(name, ())] == 0


def test_what_waits_is_read_as_the_scrape_runs(app, client):
    index = app.state.catalog
    first, second, third = (submit(client, index, phone=f"51255501{n}") for n in (51, 52, 53))
    judge(app.state.session_factory, second.id)  # held by the quality gate (its event done)
    now = utcnow()
    with app.state.session_factory() as session:
        session.execute(update(LeadEvent).where(LeadEvent.lead_id == first.id).values(
            created_at=now - timedelta(seconds=120)))
        session.add_all([
            _delivery(first.id, TargetKind.PROVIDER_WEBHOOK, "webhook:p1", DeliveryStatus.PENDING,
                      now - timedelta(seconds=600)),
            _delivery(third.id, TargetKind.PROVIDER_WEBHOOK, "webhook:p1", DeliveryStatus.PENDING,
                      now - timedelta(seconds=30)),
            _delivery(first.id, TargetKind.CONSUMER_EMAIL, "receipt", DeliveryStatus.PENDING, now - timedelta(seconds=5)),
            _delivery(first.id, TargetKind.PROVIDER_EMAIL, "email:p2", DeliveryStatus.PENDING, now - timedelta(seconds=9)),
            _delivery(first.id, TargetKind.BUYER, "buyer", DeliveryStatus.DELIVERED, now - timedelta(hours=3)),
            _delivery(third.id, TargetKind.BUYER_POST, "buyer:b1", DeliveryStatus.FAILED, now - timedelta(hours=3)),
            DeliveryEndpoint(key="webhook:p1", consecutive_failures=6, paused_until=now + timedelta(seconds=60),
                             updated_at=now),
            DeliveryEndpoint(key="lead.discard:buyer:b1", consecutive_failures=5,
                             paused_until=now - timedelta(seconds=1), updated_at=now),  # waiting for its probe
            DeliveryEndpoint(key="smtp", consecutive_failures=2, paused_until=None, updated_at=now),  # not yet paused
        ])
        provider = portal_provider(session, "Lone Star Roofing")
        add_offer(session, lead_id=first.id, provider_id=provider.id, status=OfferStatus.OPEN, at=now)
        add_offer(session, lead_id=third.id, provider_id=provider.id, status=OfferStatus.OPEN, at=now)
        add_offer(session, lead_id=second.id, provider_id=provider.id, status=OfferStatus.DECLINED, at=now)
        session.commit()

    found = read(app, now)

    def by_kind(name: str) -> dict[str, float]:
        return {kind: found[(name, (("kind", kind),))] for kind in KINDS}

    assert by_kind("servicematch_outbox_pending") == {"buyer": 0, "buyer_post": 0, "smtp": 2, "webhook": 2}
    assert by_kind("servicematch_outbox_oldest_pending_seconds") == {"buyer": 0, "buyer_post": 0, "smtp": 9,
                                                                     "webhook": 600}
    assert by_kind("servicematch_circuit_breakers_open") == {"buyer": 0, "buyer_post": 1, "smtp": 0, "webhook": 1}
    assert found[("servicematch_routing_pending", ())] == 2
    assert found[("servicematch_routing_oldest_pending_seconds", ())] == 120
    assert found[("servicematch_offers_open", ())] == 2
    assert found[("servicematch_leads_held", ())] == 1
    # The scraper reads the same through the endpoint.
    scraped = figures(TestClient(app, client=("127.0.0.1", 50000)).get("/metrics").text)
    assert scraped[("servicematch_offers_open", ())] == 2


def test_each_workers_heartbeat_age_is_read(app):
    now = utcnow()
    for worker_id, seconds_ago in (("a1b2c3d4", 3), ("e5f6a7b8", 95)):
        beat(app.state.session_factory, worker_id=worker_id, host="worker-host", pid=4242,
             started_at=now - timedelta(minutes=5), now=now - timedelta(seconds=seconds_ago))
    found = read(app, now)
    assert found[("servicematch_worker_heartbeat_age_seconds", (("worker", "a1b2c3d4"),))] == 3
    assert found[("servicematch_worker_heartbeat_age_seconds", (("worker", "e5f6a7b8"),))] == 95


def test_a_figure_that_cannot_be_read_leaves_the_others_answered(app, monkeypatch, caplog):
    def broken(session, now):
        raise OperationalError("SELECT count(*) FROM provider_offers", {}, Exception("no such table"))

    monkeypatch.setattr(metrics_figures, "open_offers", broken)
    with caplog.at_level(logging.ERROR, logger="servicematch.metrics"):
        found = read(app, utcnow())
    assert ("servicematch_offers_open", ()) not in found
    assert found[("servicematch_leads_held", ())] == 0
    assert found[("servicematch_outbox_pending", (("kind", "webhook"),))] == 0
    assert "broken could not be read" in caplog.text
