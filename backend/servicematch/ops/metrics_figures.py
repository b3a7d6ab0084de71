"""Figures read from the database when /metrics is scraped: the state of the whole deployment.

Counters (kernel/metrics.py) say what happened; these say what is waiting now, whichever process
answers the scrape: the outbox, leads waiting for routing, open offers, held leads, paused
endpoints and the workers' heartbeats. Each is one query on an index (a few rows read when
the deployment is healthy); one that fails is logged and left out, and the rest are answered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime

from prometheus_client.core import GaugeMetricFamily
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery.models import Delivery, DeliveryEndpoint, DeliveryStatus, TargetKind
from servicematch.intake.models import QUALITY_HELD, Lead, LeadEvent
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.metrics_labels import ENDPOINT_KINDS, endpoint_kind, id_label
from servicematch.routing.models import OfferStatus, ProviderOffer

from .heartbeat import last_beats

log = logging.getLogger("servicematch.metrics")

# The outbox's rows by the endpoint they go to: the words of the delivery attempts' `kind`.
KIND_OF_TARGET = {
    TargetKind.BUYER: "buyer",
    TargetKind.BUYER_POST: "buyer_post",
    TargetKind.PROVIDER_WEBHOOK: "webhook",
    TargetKind.PROVIDER_EMAIL: "smtp",
    TargetKind.CONSUMER_EMAIL: "smtp",
}


class DeploymentFigures:
    """A Prometheus collector: each `collect` reads the figures afresh, in one session."""

    def __init__(self, session_factory: sessionmaker[Session], clock: Callable[[], datetime] = utcnow) -> None:
        self.session_factory = session_factory
        self.clock = clock

    def collect(self) -> Iterable[GaugeMetricFamily]:
        now = self.clock()
        families: list[GaugeMetricFamily] = []
        with self.session_factory() as session:
            for read in (outbox, routing_backlog, open_offers, held_leads, circuit_breakers, worker_heartbeats):
                try:
                    families += read(session, now)
                except SQLAlchemyError:
                    # A table another release has not created yet, a lost connection: the other
                    # figures still answer, and the log says which one did not.
                    log.exception("metrics: %s could not be read", read.__name__)
                    session.rollback()
        return families


def _age(now: datetime, then: datetime | None) -> float:
    return max(0.0, (now - as_utc(then)).total_seconds()) if then is not None else 0.0


def outbox(session: Session, now: datetime) -> list[GaugeMetricFamily]:
    """Pending deliveries by endpoint kind, and how long the oldest has waited (since it was
    queued, or put back by an operator's retry)."""
    rows = session.execute(
        select(Delivery.kind, func.count(), func.min(Delivery.window_started_at))
        .where(Delivery.status == DeliveryStatus.PENDING).group_by(Delivery.kind)).all()
    depth = dict.fromkeys(sorted(set(KIND_OF_TARGET.values())), 0)
    oldest = dict.fromkeys(depth, 0.0)
    for kind, count, first in rows:
        label = KIND_OF_TARGET.get(kind, "other")
        depth[label] = depth.get(label, 0) + count
        oldest[label] = max(oldest.get(label, 0.0), _age(now, first))
    pending = GaugeMetricFamily("servicematch_outbox_pending", "Deliveries waiting to be sent, by endpoint kind.",
                                labels=["kind"])
    age = GaugeMetricFamily("servicematch_outbox_oldest_pending_seconds",
                            "How long the oldest pending delivery has waited, by endpoint kind (0: none).",
                            labels=["kind"])
    for label in depth:
        pending.add_metric([label], depth[label])
        age.add_metric([label], oldest[label])
    return [pending, age]


def routing_backlog(session: Session, now: datetime) -> list[GaugeMetricFamily]:
    """Accepted leads whose auction has not been decided yet, and the oldest one's wait."""
    count, first = session.execute(
        select(func.count(), func.min(LeadEvent.created_at)).where(LeadEvent.done_at.is_(None))).one()
    return [GaugeMetricFamily("servicematch_routing_pending", "Accepted leads waiting to be routed.", value=count),
            GaugeMetricFamily("servicematch_routing_oldest_pending_seconds",
                              "How long the oldest lead waiting to be routed has waited (0: none).",
                              value=_age(now, first))]


def open_offers(session: Session, now: datetime) -> list[GaugeMetricFamily]:
    count = session.scalar(select(func.count()).select_from(ProviderOffer).where(
        ProviderOffer.status == OfferStatus.OPEN))
    return [GaugeMetricFamily("servicematch_offers_open", "Offers waiting for a provider's answer.", value=count)]


def held_leads(session: Session, now: datetime) -> list[GaugeMetricFamily]:
    count = session.scalar(select(func.count()).select_from(Lead).where(Lead.quality_status == QUALITY_HELD))
    return [GaugeMetricFamily("servicematch_leads_held", "Leads the quality gate holds for an operator's review.",
                              value=count)]


def circuit_breakers(session: Session, now: datetime) -> list[GaugeMetricFamily]:
    """Endpoints paused by their circuit breaker, by kind: paused now, or waiting for a probe."""
    keys = session.scalars(select(DeliveryEndpoint.key).where(DeliveryEndpoint.paused_until.is_not(None))).all()
    counts = dict.fromkeys(sorted(ENDPOINT_KINDS), 0)
    for key in keys:
        kind = endpoint_kind(key)
        counts[kind] = counts.get(kind, 0) + 1
    family = GaugeMetricFamily("servicematch_circuit_breakers_open",
                               "Endpoints whose circuit breaker is open (paused, or waiting for a probe).",
                               labels=["kind"])
    for kind, count in counts.items():
        family.add_metric([kind], count)
    return [family]


def worker_heartbeats(session: Session, now: datetime) -> list[GaugeMetricFamily]:
    """Seconds since each worker's last heartbeat. A worker that stopped cleanly has no row; one
    that died keeps its row, growing older, until heartbeat.FORGET_AFTER."""
    family = GaugeMetricFamily("servicematch_worker_heartbeat_age_seconds",
                               "Seconds since each worker's last heartbeat.", labels=["worker"])
    for worker_id, age in last_beats(session, now):
        family.add_metric([id_label(worker_id)], age)
    return [family]
