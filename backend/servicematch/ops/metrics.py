"""GET /metrics (Prometheus' text format) on the site's own port, for the operators' scraper only;
and every request's time and status class, by route template.

/metrics answers only clients whose address (as the trusted-proxy rule reads it, like every
per-client limit) is within SERVICEMATCH_METRICS_ALLOW, and never a request that a proxy outside
SERVICEMATCH_TRUSTED_PROXIES says it forwarded. It is a middleware, not a route: for
anyone else, and for any method but GET, the request goes on into the app as if it were not
there, so it gets exactly what any unknown path gets (the site's 404 page) and nothing tells
that /metrics exists. It is in no API schema either.

What a scrape answers: the counters of every process of the deployment (kernel/metrics.py), then
the figures read from the database as it runs (metrics_figures.py). Both are read on a thread of
the pool, off the event loop.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from time import perf_counter

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from servicematch.deps import part_of
from servicematch.inbound.client import Network, client_ip, parse_proxies
from servicematch.kernel.metrics import CONTENT_TYPE, exposition, observe_request
from servicematch.settings import Settings

from .metrics_figures import DeploymentFigures

METRICS_PATH = "/metrics"
# The route label of a request no route answered (a 413 of the body limit, say); never its path.
UNMATCHED = "unmatched"
# Headers a proxy adds to what it passes on.
FORWARDING_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")


@dataclass(frozen=True)
class _Template:
    """What a scrape leaves in scope["route"] for the request metrics: its template, as a route would."""

    path: str


_METRICS_ROUTE = _Template(METRICS_PATH)


def allowed_networks(setting: str) -> tuple[Network, ...]:
    """SERVICEMATCH_METRICS_ALLOW as networks; a value that is no address or range stops start-up."""
    try:
        return parse_proxies(setting)
    except ValueError as exc:
        raise ValueError(f"SERVICEMATCH_METRICS_ALLOW: {exc} (IP addresses or CIDR ranges, comma-separated)") from None


def is_allowed(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False  # no address at all (a test client's name, a Unix socket)
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 from a dual-stack socket is 127.0.0.1
    return any(ip in network for network in networks)


class MetricsEndpoint:
    """Answers GET /metrics to allowed clients; hands every other request on, untouched."""

    def __init__(self, app: ASGIApp, *, networks: tuple[Network, ...], trusted_proxies: str,
                 figures: DeploymentFigures) -> None:
        self.app = app
        self.networks = networks
        self.trusted_proxies = trusted_proxies
        self.proxies = parse_proxies(trusted_proxies)
        self.figures = figures

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["path"] != METRICS_PATH or scope["method"] != "GET"
                or not self.allows(scope)):
            await self.app(scope, receive, send)
            return
        scope["route"] = _METRICS_ROUTE
        body = await run_in_threadpool(exposition, self.figures)
        response = Response(body, media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})
        await response(scope, receive, send)

    def allows(self, scope: Scope) -> bool:
        request = Request(scope)
        peer = request.client.host if request.client else ""
        if not is_allowed(peer, self.proxies) and any(name in request.headers for name in FORWARDING_HEADERS):
            # Forwarded by a proxy we were not told to trust: a public proxy on this machine would
            # otherwise pass the internet's requests on from 127.0.0.1.
            return False
        return is_allowed(client_ip(request, trusted_proxies=self.trusted_proxies), self.networks)


def route_template(scope: Scope) -> str:
    """The template of the route that answered ("/api/leads/{requestId}/status"), never the path."""
    return getattr(scope.get("route"), "path", None) or UNMATCHED


class RequestMetrics:
    """Times every HTTP request and notes its status class, labelled by route template."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = perf_counter()
        # Until an answer starts, an exception on its way out becomes the server's 500.
        status = 500

        async def noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noting_status)
        finally:
            observe_request(route_template(scope), scope["method"], status, perf_counter() - started)


def install_metrics_endpoint(app: FastAPI, settings: Settings) -> None:
    """GET /metrics for SERVICEMATCH_METRICS_ALLOW. Add it before the compression middleware, so
    that scrapes are compressed for the scrapers that ask."""
    app.add_middleware(MetricsEndpoint, networks=allowed_networks(settings.metrics_allow),
                       trusted_proxies=settings.trusted_proxies,
                       figures=DeploymentFigures(part_of(app, "session_factory")))


def install_request_metrics(app: FastAPI) -> None:
    """Request time by route template. Add it after the compression and body-limit middleware,
    so that their time and their answers (a 413) are counted too."""
    app.add_middleware(RequestMetrics)
