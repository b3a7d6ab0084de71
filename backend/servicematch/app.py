"""The ASGI application: API routers, error handling and the static site, from one Settings."""

from __future__ import annotations

import logging

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware

from servicematch.address.router import router as address_router
from servicematch.catalog.loader import load_catalog
from servicematch.catalog.router import router as catalog_router
from servicematch.db.session import make_engine, make_session_factory
from servicematch.delivery.wiring import install_delivery
from servicematch.errors import COMMON_ERROR_RESPONSES, install_error_handlers
from servicematch.intake.router import install_intake
from servicematch.settings import Settings, get_settings
from servicematch.web.router import install_site

log = logging.getLogger("servicematch")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. The catalogue is loaded and checked once, here, so a bad file stops start-up."""
    settings = settings or get_settings()
    app = FastAPI(
        title="ServiceMatch API",
        version="1.0.0",
        description="Service catalogue, lead validation and lead intake for the ServiceMatch website.",
        docs_url="/docs",
        redoc_url=None,
        responses=COMMON_ERROR_RESPONSES,
    )
    app.state.settings = settings
    app.state.catalog = load_catalog(settings.catalog_dir)
    app.state.engine = make_engine(settings.database_url)
    app.state.session_factory = make_session_factory(app.state.engine)

    app.add_middleware(GZipMiddleware, minimum_size=1024)
    install_error_handlers(app)
    app.include_router(catalog_router)
    app.include_router(address_router)
    install_intake(app)
    install_delivery(app, settings)

    @app.get("/api/health", tags=["ops"], summary="Liveness and database reachability")
    def health() -> dict[str, str]:
        with app.state.engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
        return {"status": "ok"}

    if settings.benchmark_routes:
        from servicematch.ops.router import install_benchmark_routes

        install_benchmark_routes(app)
    install_site(app, settings, app.state.catalog)
    return app
