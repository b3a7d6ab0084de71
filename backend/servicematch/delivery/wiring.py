"""What create_app needs from delivery: the side effects of storing a lead, and the built-in worker."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from servicematch.delivery.outbox import enqueue_deliveries, matched_provider_names
from servicematch.delivery.worker_process import WorkerProcess
from servicematch.intake.models import Lead
from servicematch.settings import Settings


@dataclass(frozen=True)
class LeadDeliveries:
    """Intake's LeadSideEffects: a new lead's outbox rows join the lead's own transaction."""

    settings: Settings

    def on_stored(self, session: Session, lead: Lead) -> list[str]:
        # Sorted as matched_provider_names sorts them, so a replayed request gets the same answer.
        return sorted(enqueue_deliveries(session=session, lead=lead, settings=self.settings).provider_names)

    def provider_names(self, session: Session, lead_id: str) -> list[str]:
        return matched_provider_names(session=session, lead_id=lead_id)


def built_in_worker(settings: Settings) -> WorkerProcess | None:
    """The worker `serve` runs beside the web process, in a child process, or None when settings
    turn it off."""
    if not settings.worker_enabled:
        return None
    return WorkerProcess(settings)
