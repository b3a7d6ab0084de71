"""Plug delivery into the app: the intake hook, the admin API and the built-in worker."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy.orm import Session

from servicematch.delivery.outbox import enqueue_deliveries
from servicematch.delivery.router import router as admin_router
from servicematch.delivery.worker import BackgroundWorker, DeliveryWorker
from servicematch.intake.models import Lead
from servicematch.intake.service import on_lead_stored
from servicematch.settings import Settings, get_settings

# Sessions made by an app carry its settings, so the intake hook knows this app's buyer and SMTP.
SETTINGS_INFO_KEY = "servicematch.settings"


def enqueue_for_stored_lead(session: Session, lead: Lead, _payload: dict) -> None:
    """Intake's lead-stored hook: the outbox rows join the lead's own transaction."""
    settings = session.info.get(SETTINGS_INFO_KEY) or get_settings()
    enqueue_deliveries(session=session, lead=lead, settings=settings)


def install_delivery(app: FastAPI, settings: Settings) -> None:
    """Wire delivery into `app`; the worker starts with the app unless settings turn it off."""
    app.state.session_factory.configure(info={SETTINGS_INFO_KEY: settings})
    on_lead_stored(enqueue_for_stored_lead)
    app.include_router(admin_router)
    if not settings.worker_enabled:
        return

    def start_worker() -> None:
        worker = DeliveryWorker(session_factory=app.state.session_factory, settings=settings)
        app.state.delivery_worker = BackgroundWorker(worker)
        app.state.delivery_worker.start()

    def stop_worker() -> None:
        background = getattr(app.state, "delivery_worker", None)
        if background is not None:
            background.stop(timeout=settings.delivery_timeout_seconds + 5)

    app.router.on_startup.append(start_worker)
    app.router.on_shutdown.append(stop_worker)
