"""The worker, composed: routing (who gets each accepted lead), delivery (sending what routing
decided), the privacy room's receipts and notices, routing's offer notices, and the chores
(privacy retention and the dashboard's daily counts hourly, closing lapsed offers every 30 s).
Like app.py, a composition root: it may import every room, and no room imports it."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery.worker import Clock, DeliveryWorker
from servicematch.kernel.chores import HourlyChore
from servicematch.kernel.clock import utcnow
from servicematch.privacy.retention import RetentionSchedule
from servicematch.privacy.sending import PrivacyMessages
from servicematch.privacy.withdrawal import on_consent_withdrawn
from servicematch.reporting.ledger_days import watch_ledger
from servicematch.reporting.models import reopen_revenue_day
from servicematch.reporting.rollup import roll_up
from servicematch.routing.offer_notice import OfferMessages
from servicematch.routing.offers import close_lapsed_offers, withdraw_offers
from servicematch.routing.stage import RoutingStage
from servicematch.settings import Settings

# Open offers past their time are closed (and their leads offered on) within about this long.
OFFER_CHORE_SECONDS = 30.0


def make_worker(*, session_factory: sessionmaker[Session], settings: Settings, clock: Clock = utcnow,
                **options) -> DeliveryWorker:
    """A worker that routes accepted leads (ping-post auction, provider matching) and sends them."""
    wire_withdrawal()
    watch_ledger()  # auto-accepted offers are charged here: their counted days reopen too
    return DeliveryWorker(
        session_factory=session_factory, settings=settings, clock=clock,
        router=RoutingStage(session_factory=session_factory, settings=settings, clock=clock,
                            # A sale for a lead of a day already counted: that day is counted again.
                            on_sale=lambda session, lead: reopen_revenue_day(session, lead.created_at)),
        messages=OfferMessages(PrivacyMessages()),
        chores=[RetentionSchedule(session_factory=session_factory, settings=settings),
                HourlyChore("daily counts", lambda: roll_up(session_factory)),
                HourlyChore("lapsed offers", every_seconds=OFFER_CHORE_SECONDS,
                            job=lambda: close_lapsed_offers(session_factory=session_factory, settings=settings,
                                                            now=clock()))],
        **options)


def wire_withdrawal() -> None:
    """A consumer's stop or erasure withdraws the lead's open offers, in the same transaction."""
    on_consent_withdrawn(withdraw_offers)
