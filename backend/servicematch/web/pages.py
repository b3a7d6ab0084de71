"""What each site path is: the server's reading of the route table (routes.json, spec section 2).

Used for the metadata in the HTML the server sends, the HTTP status of unknown pages, the data
the page's first render needs, the pages rendered at build time, and the sitemap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.schema import Category, ServiceConfig

from .routes import Route, match_route, routes

PageKind = Literal["home", "category", "service", "funnel", "static", "modal", "admin", "portal", "not-found"]


@dataclass(frozen=True)
class Page:
    kind: PageKind
    path: str
    route: Route | None = None
    service: ServiceConfig | None = None
    service_slug: str | None = None
    category: Category | None = None
    state_code: str | None = None
    state_name: str | None = None

    @property
    def indexable(self) -> bool:
        return self.kind != "not-found" and self.route is not None and self.route.indexable


def _state(index: CatalogIndex, segment: str | None) -> tuple[str, str] | None | Literal[False]:
    """(code, name) for a state segment, None when absent, False when it names no state."""
    if segment is None:
        return None
    for state in index.catalog.site.states:
        if state["value"].lower() == segment.lower():
            return state["value"], state["label"]
    return False


def resolve_page(index: CatalogIndex, path: str) -> Page:
    """Classify a URL path the way the site's router does, checking its parameters against the catalogue."""
    normalized = "/" + "/".join(s for s in path.split("/") if s)
    matched = match_route(normalized)
    if matched is None:
        return Page("not-found", normalized)
    route, params = matched
    if "category" in params:
        category = index.categories.get(params["category"])
        return Page("category", normalized, route, category=category) if category else Page("not-found", normalized)
    if "service" not in params:
        return Page(route.kind, normalized, route)

    vertical = params.get("vertical")
    if vertical is not None and vertical not in index.categories:
        return Page("not-found", normalized)
    state = _state(index, params.get("state"))
    if state is False:
        return Page("not-found", normalized)
    slug = params["service"]
    service = index.find(slug, vertical)
    return Page(
        route.kind if service else "not-found",
        normalized,
        route,
        service=service,
        service_slug=slug,
        category=index.categories.get(vertical) if vertical else None,
        state_code=state[0] if state else None,
        state_name=state[1] if state else None,
    )


def data_reads(page: Page) -> list[str]:
    """The API reads the page's first render needs; the server puts their answers into the HTML.

    Mirrors frontend/src/lib/api.ts: the catalogue on every page; a service page under its
    vertical reads /api/services/<vertical>/<slug>, the other service and flow pages
    /api/services/<slug>. Only services that exist.
    """
    reads = ["/api/catalog"]
    if page.service is not None and page.service_slug is not None and page.route is not None:
        by_vertical = page.route.path.startswith("/:vertical/")
        head = page.path.split("/")[1]
        reads.append(f"/api/services/{head}/{page.service_slug}" if by_vertical
                     else f"/api/services/{page.service_slug}")
    return reads


def _service_paths(index: CatalogIndex, route: Route) -> list[str]:
    """Every path of a service route: each service (under its vertical where the route names one), in each state."""
    states = [s["value"].lower() for s in index.catalog.site.states]
    names = [p for p in route.path.split("/") if p.startswith(":")]
    paths: list[str] = []
    for category in index.catalog.categories:
        for slug in category.services:
            service = index.find(slug, category.id)
            if service is None:
                continue
            if ":vertical" not in names and index.find(slug).vertical != category.id:
                continue  # /services/debt-relief names one service; list it once
            if route.screen == "call" and service.flow != "call":
                continue  # only services with a number to call have a call flow
            params = {"vertical": category.id, "service": slug}
            if ":state" in names:
                paths += [route.build(**params, state=code) for code in states]
            else:
                paths.append(route.build(**params))
    return paths


def route_paths(index: CatalogIndex, route: Route) -> list[str]:
    """The concrete paths of one route that the catalogue gives rise to."""
    if route.path.endswith("*"):
        return []
    if ":category" in route.path:
        return [route.build(category=c.id) for c in index.catalog.categories]
    if ":service" in route.path:
        return _service_paths(index, route)
    return [route.path]


def sitemap_paths(index: CatalogIndex) -> list[str]:
    """Every indexable page the site links to: static pages, categories, services, services in each state."""
    paths = [path for route in routes() if route.sitemap for path in route_paths(index, route)]
    # /services/<slug> and /<vertical>/<slug> coincide for the "services" category.
    return list(dict.fromkeys(paths))


def prerender_paths(index: CatalogIndex) -> list[str]:
    """Every page whose HTML is rendered at build time."""
    paths = [path for route in routes() if route.prerender for path in route_paths(index, route)]
    return list(dict.fromkeys(paths))
