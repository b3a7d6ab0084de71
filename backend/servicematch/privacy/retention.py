"""Retention: lead personal data is erased after SERVICEMATCH_LEAD_RETENTION_DAYS (default 3
years); the consent proof, and with it the lead row, is deleted after
SERVICEMATCH_CONSENT_RETENTION_DAYS (5 years, the Telemarketing Sales Rule's period)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery.models import Delivery, DeliveryAttempt
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.kernel.chores import HourlyChore
from servicematch.kernel.clock import utcnow
from servicematch.privacy import actions
from servicematch.privacy.contacts import aware
from servicematch.privacy.models import (
    LeadErasure,
    LeadRevocation,
    PrivacyRequest,
    RetentionRun,
    VerificationCode,
)
from servicematch.privacy.requests import close_stale
from servicematch.settings import Settings

log = logging.getLogger("servicematch.privacy")

# Records of rights requests are kept 24 months (CCPA regulations, section 7101).
REQUEST_RECORDS_KEPT = timedelta(days=730)
BATCH = 500
RUN_EVERY = timedelta(days=1)


def run_retention(*, session_factory: sessionmaker[Session], settings: Settings,
                  now: datetime | None = None) -> dict[str, int]:
    """Apply every retention period once; returns what was done and records the run."""
    now = now or utcnow()
    counts = {"leads_erased": 0, "leads_deleted": 0, "requests_closed": 0, "requests_deleted": 0}
    erase_before = now - timedelta(days=settings.lead_retention_days)
    delete_before = now - timedelta(days=settings.consent_retention_days)
    while True:
        with session_factory() as session:
            due = session.scalars(
                select(Lead).outerjoin(LeadErasure, LeadErasure.lead_id == Lead.id)
                .where(Lead.created_at < erase_before, LeadErasure.lead_id.is_(None)).limit(BATCH)
            ).all()
            if not due:
                break
            counts["leads_erased"] += actions.erase(session=session, settings=settings, leads=list(due),
                                                    reason="retention period", now=now, notify=False)
            session.commit()
    while True:
        with session_factory() as session:
            ids = session.scalars(select(Lead.id).where(Lead.created_at < delete_before).limit(BATCH)).all()
            if not ids:
                break
            _delete_leads(session, list(ids))
            counts["leads_deleted"] += len(ids)
            session.commit()
    with session_factory() as session:
        counts["requests_closed"] = close_stale(session=session, now=now)
        old = select(PrivacyRequest.id).where(PrivacyRequest.received_at < now - REQUEST_RECORDS_KEPT)
        session.execute(delete(VerificationCode).where(VerificationCode.request_id.in_(old)))
        session.execute(delete(VerificationCode).where(VerificationCode.expires_at < now - timedelta(days=1)))
        counts["requests_deleted"] = session.execute(
            delete(PrivacyRequest).where(PrivacyRequest.received_at < now - REQUEST_RECORDS_KEPT)
        ).rowcount
        session.add(RetentionRun(ran_at=now, counts=counts))
        session.commit()
    return counts


def _delete_leads(session: Session, lead_ids: list[str]) -> None:
    # Children first: SQLite enforces ON DELETE CASCADE only where foreign keys are switched on.
    deliveries = select(Delivery.id).where(Delivery.lead_id.in_(lead_ids))
    session.execute(delete(DeliveryAttempt).where(DeliveryAttempt.delivery_id.in_(deliveries)))
    session.execute(delete(Delivery).where(Delivery.lead_id.in_(lead_ids)))
    session.execute(delete(ConsentRecord).where(ConsentRecord.lead_id.in_(lead_ids)))
    for table in (LeadErasure, LeadRevocation):
        session.execute(delete(table).where(table.lead_id.in_(lead_ids)))
    session.execute(delete(Lead).where(Lead.id.in_(lead_ids)))


def run_if_due(*, session_factory: sessionmaker[Session], settings: Settings,
               now: datetime | None = None) -> dict[str, int] | None:
    """What the worker calls each round: a run when the last one is a day old, else nothing."""
    now = now or utcnow()
    with session_factory() as session:
        last = session.scalar(select(RetentionRun.ran_at).order_by(RetentionRun.ran_at.desc()).limit(1))
    if last is not None and aware(last) > now - RUN_EVERY:
        return None
    return run_retention(session_factory=session_factory, settings=settings, now=now)


class RetentionSchedule(HourlyChore):
    """What the delivery worker holds: checks hourly whether a day has passed since the last
    retention run, and runs it if so."""

    def __init__(self, *, session_factory: sessionmaker[Session], settings: Settings) -> None:
        super().__init__("retention", self._run_if_due)
        self.session_factory = session_factory
        self.settings = settings

    def _run_if_due(self) -> None:
        counts = run_if_due(session_factory=self.session_factory, settings=self.settings)
        if counts is not None:
            log.info("retention run: %s", counts)
