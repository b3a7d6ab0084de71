"""The worker: routing (who gets each accepted lead) and delivery (sending what routing decided),
in one loop. Built here, above both, so delivery knows nothing of routing."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery.worker import Clock, DeliveryWorker
from servicematch.kernel.clock import utcnow
from servicematch.routing.stage import RoutingStage
from servicematch.settings import Settings


def make_worker(*, session_factory: sessionmaker[Session], settings: Settings, clock: Clock = utcnow,
                **options) -> DeliveryWorker:
    """A delivery worker that also routes accepted leads (ping-post auction, provider matching)."""
    router = RoutingStage(session_factory=session_factory, settings=settings, clock=clock)
    return DeliveryWorker(session_factory=session_factory, settings=settings, clock=clock, router=router, **options)
