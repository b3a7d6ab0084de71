"""The worker, composed: routing (who gets each accepted lead), delivery (sending what routing
decided), the privacy room's receipts and notices, routing's offer notices, the portal's review
requests, and the chores (privacy retention, the dashboard's daily counts and asking consumers to rate
providers hourly; closing lapsed offers and returning freed memory every 30 s; its heartbeat every 5 s). Like app.py, a
composition root: it may import every room, and no room imports it."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from servicematch.buyer.hold_notices import buyer_people
from servicematch.console.invoice_mail import MonthlyInvoices
from servicematch.delivery.sending import MessagesByKind
from servicematch.delivery.worker import Clock, DeliveryWorker
from servicematch.kernel.chores import HourlyChore
from servicematch.kernel.clock import utcnow
from servicematch.kernel.heap import RELEASE_EVERY_SECONDS, release_freed_memory
from servicematch.ledger.check import check_if_due
from servicematch.ledger.hold_notices import HOLD_CHORE_SECONDS, check_holds
from servicematch.ledger.models import AccountKind
from servicematch.ledger.topup import TOPUP_CHORE_SECONDS, top_up_accounts
from servicematch.ops.heartbeat import HeartbeatChore
from servicematch.portal.hold_notices import provider_people
from servicematch.portal.review_requests import prepare_review_request, request_reviews
from servicematch.privacy.notices import REVIEW_REQUEST
from servicematch.privacy.retention import RetentionSchedule
from servicematch.privacy.sending import PrivacyMessages
from servicematch.privacy.withdrawal import on_consent_withdrawn, on_data_erased
from servicematch.reporting.ledger_days import watch_ledger
from servicematch.reporting.models import reopen_revenue_day
from servicematch.reporting.rollup import roll_up
from servicematch.routing.offer_notice import OFFER_NOTICE, prepare_offer_notice
from servicematch.routing.offers import close_lapsed_offers, forget_places, withdraw_offers
from servicematch.routing.stage import RoutingStage
from servicematch.settings import Settings

# Open offers past their time are closed (and their leads offered on) within about this long.
OFFER_CHORE_SECONDS = 30.0


def make_worker(*, session_factory: sessionmaker[Session], settings: Settings, clock: Clock = utcnow,
                **options) -> DeliveryWorker:
    """A worker that routes accepted leads (ping-post auction, provider matching) and sends them."""
    wire_withdrawal()
    watch_ledger()  # auto-accepted offers are charged here: their counted days reopen too
    return BeatingWorker(
        session_factory=session_factory, settings=settings, clock=clock,
        router=RoutingStage(session_factory=session_factory, settings=settings, clock=clock,
                            # A sale for a lead of a day already counted: that day is counted again.
                            on_sale=lambda session, lead: reopen_revenue_day(session, lead.created_at)),
        # Consent receipts and privacy notices (the privacy room's), offer notices (routing's) and
        # review requests (the portal's).
        messages=MessagesByKind(PrivacyMessages(), {OFFER_NOTICE: prepare_offer_notice,
                                                    REVIEW_REQUEST: prepare_review_request}),
        chores=[RetentionSchedule(session_factory=session_factory, settings=settings),
                HourlyChore("daily counts", lambda: roll_up(session_factory)),
                HourlyChore("review requests", lambda: request_reviews(session_factory=session_factory,
                                                                       settings=settings, now=clock())),
                HourlyChore("lapsed offers", every_seconds=OFFER_CHORE_SECONDS,
                            job=lambda: close_lapsed_offers(session_factory=session_factory, settings=settings,
                                                            now=clock())),
                # Saved cards charged for accounts under their top-up threshold (Stripe on only).
                HourlyChore("automatic top-ups", every_seconds=TOPUP_CHORE_SECONDS,
                            job=lambda: top_up_accounts(session_factory=session_factory, settings=settings,
                                                        now=clock())),
                # On the 1st (or a worker's first run after it), last month's invoices, then their mail.
                MonthlyInvoices(session_factory=session_factory, settings=settings, clock=clock),
                # Accounts paused for an invoice past due (and freed once paid); each hold told once.
                HourlyChore("account holds", every_seconds=HOLD_CHORE_SECONDS,
                            job=lambda: check_holds(session_factory=session_factory, settings=settings, now=clock(),
                                                    people={AccountKind.BUYER: buyer_people,
                                                            AccountKind.PROVIDER: provider_people})),
                # The reconciliation, once a day: its result is on the console's dashboard.
                HourlyChore("ledger check", lambda: check_if_due(session_factory=session_factory, now=clock())),
                # The malloc arenas' free pages back to the system, busy or not (kernel/heap.py).
                HourlyChore("returning freed memory", release_freed_memory, every_seconds=RELEASE_EVERY_SECONDS,
                            while_busy=True)],
        **options)


class BeatingWorker(DeliveryWorker):
    """The composed worker: its chores include its heartbeat (worker_heartbeats, what /api/ready and
    the metrics read), and a clean stop deletes its heartbeat row after the last sends are recorded."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        # Made here, not in make_worker: the row is named by the worker's id, known only now.
        self.heartbeat = HeartbeatChore(self.session_factory, worker_id=self.worker_id)
        self.chores.append(self.heartbeat)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.heartbeat.stop()


def wire_withdrawal() -> None:
    """A consumer's stop or erasure withdraws the lead's open offers, in the same transaction; an
    erasure also takes the place (city, state, ZIP) off the providers' ledger lines for the lead."""
    on_consent_withdrawn(withdraw_offers)
    on_data_erased(forget_places)
