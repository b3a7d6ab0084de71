"""The composition root: every collaborator is built here from one Settings and handed to whoever needs it.

Reading this function from top to bottom names every part of a running server: the catalogue,
the database, what storing a lead also does (its deliveries), where leads are stored, the
background threads the app starts and stops, the middleware and the routers.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware

from servicematch.address.directory import load_directory
from servicematch.address.router import router as address_router
from servicematch.buyer.install import install_buyer_portal
from servicematch.catalog.loader import cached_catalog
from servicematch.catalog.partners import publish_at_start_up
from servicematch.catalog.router import router as catalog_router
from servicematch.console.router import install_console
from servicematch.console.suppression import IMPORT_PATH as SUPPRESSION_IMPORT_PATH
from servicematch.console.suppression import MAX_UPLOAD_BYTES as SUPPRESSION_UPLOAD_BYTES
from servicematch.db.session import make_engine, make_session_factory
from servicematch.db.wake_across import Announcer, told_across
from servicematch.delivery.router import router as provider_admin_router
from servicematch.deps import install_part, part_of
from servicematch.errors import COMMON_ERROR_RESPONSES, install_error_handlers
from servicematch.events.router import install_events
from servicematch.inbound.body_limit import BodySizeLimit
from servicematch.inbound.ratelimit import install_rate_limits
from servicematch.inbound.request_id import RequestIds
from servicematch.intake.router import INTAKE_PATHS, MAX_BODY_BYTES
from servicematch.intake.router import router as intake_router
from servicematch.intake.service import LeadTransactions
from servicematch.intake.store import LeadStore, SimpleLeadStore
from servicematch.intake.writer import BatchedLeadStore
from servicematch.kernel.heap import tune_for_serving
from servicematch.kernel.metrics import share_metrics_in
from servicematch.ledger.router_stripe import install_stripe_webhook
from servicematch.ops.metrics import install_metrics_endpoint, install_request_metrics
from servicematch.ops.readiness import install_readiness
from servicematch.ops.router import router as ops_router
from servicematch.ops.sentry import start_sentry
from servicematch.portal.public_ratings import install_public_ratings
from servicematch.portal.router import install_portal
from servicematch.privacy.router import install_privacy
from servicematch.reporting.ledger_days import watch_ledger
from servicematch.routing.status import install_lead_status
from servicematch.schema.migrate import MIGRATIONS_DIR
from servicematch.security import install_http_hygiene
from servicematch.settings import Settings, get_settings
from servicematch.web.router import install_site
from servicematch.worker_process import built_in_worker
from servicematch.workers import wire_withdrawal


def create_app(settings: Settings | None = None, *, tune_gc: bool = False, share_metrics: bool = False) -> FastAPI:
    """Build the app. The catalogue is loaded and checked once, here, so a bad file stops start-up.

    `tune_gc`: once started, tune the garbage collector for a process that serves this one app
    for its whole life (kernel/heap.py); not for tests, which build many apps in one process.
    `share_metrics`: count in SERVICEMATCH_METRICS_DIR with the deployment's other processes
    (kernel/metrics.py), before anything is counted and before the worker is spawned (it inherits
    the directory); without it this process counts in memory, as tests do.
    """
    settings = settings or get_settings()
    start_sentry(settings)  # errors to Sentry while SERVICEMATCH_SENTRY_DSN is set, personal data scrubbed
    if share_metrics:
        share_metrics_in(settings.metrics_dir, process_kind="web")
    # A charge or credit for a lead of a counted day reopens the day's revenue (reporting/ledger_days.py).
    watch_ledger()
    catalog = cached_catalog(settings.catalog_dir)
    engine = make_engine(settings.database_url)
    session_factory = make_session_factory(engine)
    # A new marketing-partners version when the catalogue's list or the fixed buyer changed
    # (catalog/partners.py); companies publish their own changes as they commit.
    publish_at_start_up(session_factory, marketing_partners=catalog.catalog.marketingPartners, settings=settings)
    # Storing a lead commits it with its consent record and a "lead accepted" event; routing, in
    # the worker, decides who gets it and queues its deliveries and consent receipt.
    transactions = LeadTransactions(session_factory=session_factory, settings=settings, index=catalog)
    lead_store = make_lead_store(settings, transactions)

    def finish_start_up() -> None:
        load_directory()
        if tune_gc:
            tune_for_serving()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        worker = built_in_worker(settings)
        if worker is not None:
            install_part(app, "delivery_worker", worker)
            worker.start()
        # Workers of their own (`servicematch worker`) hear of new work at once, not at their poll.
        announcer = Announcer(settings.database_url) if told_across(settings.database_url) else None
        if announcer is not None:
            announcer.start()
        # The ZIP directory (address suggestions, the ZIP-in-state check) takes a moment to
        # build: build it now, beside the first requests, rather than inside one.
        start_up = threading.Thread(target=finish_start_up, name="start-up", daemon=True)
        install_part(app, "start_up", start_up)
        start_up.start()
        try:
            yield
        finally:
            # Both wait for work under way (a commit, a send); off the event loop.
            await asyncio.to_thread(lead_store.stop)
            await asyncio.to_thread(part_of(app, "event_buffer").stop)
            await asyncio.to_thread(part_of(app, "rate_limit_store").close)
            if worker is not None:
                await asyncio.to_thread(worker.stop, timeout=settings.delivery_timeout_seconds + 5)
            if announcer is not None:
                await asyncio.to_thread(announcer.stop)

    app = FastAPI(
        title="ServiceMatch API",
        version="1.0.0",
        description="Service catalogue, lead validation and lead intake for the ServiceMatch website.",
        # /docs comes from servicematch.security (no inline script); both only while enabled.
        docs_url=None,
        openapi_url="/openapi.json" if settings.api_docs_enabled else None,
        redoc_url=None,
        responses=COMMON_ERROR_RESPONSES,
        lifespan=lifespan,
    )
    # What servicematch.deps hands to routes.
    install_part(app, "settings", settings)
    install_part(app, "catalog", catalog)
    install_part(app, "engine", engine)
    install_part(app, "session_factory", session_factory)
    install_part(app, "lead_store", lead_store)
    # Per-client limits (submissions, lookups, admin token failures), in this process or, with
    # SERVICEMATCH_REDIS_URL, in Redis, shared by every web process.
    install_rate_limits(app, settings)

    # Small too: a page's smallest script chunks (300-800 bytes) lose a third to gzip.
    # Level 6, not Starlette's 9: half the CPU for the same size within 1% on the site's pages and
    # API answers. The bundles are gzipped once at level 9 and served as they are (web/compressed.py).
    # GET /metrics for SERVICEMATCH_METRICS_ALLOW only (inside gzip: scrapes are compressed).
    install_metrics_endpoint(app, settings)
    app.add_middleware(GZipMiddleware, minimum_size=256, compresslevel=6)
    app.add_middleware(BodySizeLimit, max_bytes=MAX_BODY_BYTES, paths=INTAKE_PATHS)
    app.add_middleware(BodySizeLimit, max_bytes=SUPPRESSION_UPLOAD_BYTES, paths=frozenset({SUPPRESSION_IMPORT_PATH}))
    install_request_metrics(app)  # time and status class of every request, by route template
    install_error_handlers(app)

    app.include_router(catalog_router)
    app.include_router(address_router)
    app.include_router(intake_router)
    install_lead_status(app, settings)  # GET /api/leads/{requestId}/status, for the thank-you page
    app.include_router(provider_admin_router)
    app.include_router(ops_router)
    install_readiness(app, migrations_dir=MIGRATIONS_DIR)  # GET /api/ready: database, migrations, worker beats
    install_events(app, settings)  # POST /api/events: queued in memory, written in batches by one thread
    install_console(app)  # /api/console/* (the console's page, /admin, is one of the site's routes)
    install_portal(app)  # /api/pro/* (the provider portal) and /api/partner/* (joining)
    install_buyer_portal(app)  # /api/buyer/* (the buyer portal) and /api/buyer/v1/* (buyers' API keys)
    install_stripe_webhook(app)  # POST /api/payments/stripe/webhook: Stripe's signed events (404 while off)
    install_public_ratings(app)  # GET /api/ratings: the reviews' average, once there are enough
    install_privacy(app, settings)  # rights requests by code, the receipt's one-click stop
    wire_withdrawal()  # a stop or an erasure withdraws the lead's open offers (routing)
    install_site(app, settings, catalog)  # last: its catch-all route answers what no API route did
    # X-Request-ID on every answer and on every log line written for it (500s included).
    app.add_middleware(RequestIds, trusted_proxies=settings.trusted_proxies)
    install_http_hygiene(app, settings)  # security headers, HEAD, 405, CSP reports: around everything

    return app


def create_served_app() -> FastAPI:
    """The app as `servicematch serve` runs it: one per web process, for the life of the process."""
    return create_app(tune_gc=True, share_metrics=True)


def make_lead_store(settings: Settings, transactions: LeadTransactions) -> LeadStore:
    """The LeadStore SERVICEMATCH_LEAD_STORE names (intake/store.py compares them)."""
    if settings.lead_store == "simple":
        return SimpleLeadStore(transactions)
    return BatchedLeadStore(transactions, batch_wait_ms=settings.lead_batch_wait_ms)
