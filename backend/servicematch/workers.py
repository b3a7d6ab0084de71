"""The worker, composed: routing (who gets each accepted lead), delivery (sending what routing
decided), the privacy room's receipts and notices, the portal's review requests, and the hourly chores (privacy
retention, the dashboard's daily counts, asking consumers to rate providers). Like app.py, a composition root: it may import every room, and no
room imports it."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery.worker import Clock, DeliveryWorker
from servicematch.kernel.chores import HourlyChore
from servicematch.kernel.clock import utcnow
from servicematch.portal.review_requests import ConsumerMessages, request_reviews
from servicematch.privacy.retention import RetentionSchedule
from servicematch.privacy.sending import PrivacyMessages
from servicematch.reporting.models import reopen_revenue_day
from servicematch.reporting.rollup import roll_up
from servicematch.routing.stage import RoutingStage
from servicematch.settings import Settings


def make_worker(*, session_factory: sessionmaker[Session], settings: Settings, clock: Clock = utcnow,
                **options) -> DeliveryWorker:
    """A worker that routes accepted leads (ping-post auction, provider matching) and sends them."""
    return DeliveryWorker(
        session_factory=session_factory, settings=settings, clock=clock,
        router=RoutingStage(session_factory=session_factory, settings=settings, clock=clock,
                            # A sale for a lead of a day already counted: that day is counted again.
                            on_sale=lambda session, lead: reopen_revenue_day(session, lead.created_at)),
        # Consent receipts and privacy notices (the privacy room's), and review requests (the portal's).
        messages=ConsumerMessages(PrivacyMessages()),
        chores=[RetentionSchedule(session_factory=session_factory, settings=settings),
                HourlyChore("daily counts", lambda: roll_up(session_factory)),
                HourlyChore("review requests", lambda: request_reviews(session_factory=session_factory,
                                                                       settings=settings, now=clock()))],
        **options)
