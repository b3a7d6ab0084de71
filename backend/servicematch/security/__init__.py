"""The last room: the browser's own defences and HTTP hygiene around every answer. Security headers
and the Content-Security-Policy, CSP reports, HEAD and 405, the control-character rule for query
and path parameters, and /docs without an inline script.

It comes last because create_app registers it last, so its middleware wraps every route and
every other middleware, and because its query rule reuses intake's single-line pattern.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, FastAPI

from servicematch.settings import Settings

from .docs import docs_router
from .headers import SecurityHeaders
from .methods import HeadAsGet, MethodNotAllowed, is_fallback
from .query import ControlCharactersInParameters, document_in_schema
from .reports import router as csp_report_router

log = logging.getLogger("servicematch")
DOCS_PATH = "/docs"


def install_http_hygiene(app: FastAPI, settings: Settings) -> None:
    """Register last in create_app: its middleware then wraps every route and every other middleware.

    create_app builds FastAPI with docs_url=None, and openapi_url only while settings.api_docs_enabled.
    """
    docs_on = settings.api_docs_enabled and app.openapi_url is not None
    if docs_on:
        _include_before_fallbacks(app, docs_router(docs_path=DOCS_PATH, openapi_path=app.openapi_url,
                                                   title=app.title))
    _include_before_fallbacks(app, csp_report_router)
    # Outermost last: headers on everything, then HEAD as GET, then the 405 for known paths,
    # then API query and path parameters with control characters.
    app.add_middleware(ControlCharactersInParameters, routes=app.router.routes)
    document_in_schema(app)
    app.add_middleware(MethodNotAllowed, routes=app.router.routes)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders, settings=settings, docs_path=DOCS_PATH if docs_on else None)
    for weakness in settings.weaknesses():
        # An error in production, where it must be fixed; a warning elsewhere, where it is usual.
        log.log(logging.ERROR if settings.environment == "production" else logging.WARNING, weakness)


def _include_before_fallbacks(app: FastAPI, router: APIRouter) -> None:
    # The site's catch-alls are registered already and would take these paths.
    routes = app.router.routes
    before = len(routes)
    app.include_router(router)
    added = routes[before:]
    del routes[before:]
    first_fallback = next((i for i, route in enumerate(routes) if is_fallback(route)), len(routes))
    routes[first_fallback:first_fallback] = added
