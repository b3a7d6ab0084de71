"""What each site path is: the server's reading of the route table (spec section 2).

Used for the metadata in the HTML the server sends, the HTTP status of unknown pages,
and the sitemap. The browser's router (frontend/src/app/router.tsx) draws the screens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.schema import Category, ServiceConfig

PageKind = Literal["home", "category", "service", "funnel", "static", "not-found"]
STATIC_PAGES = {"about-us", "partner-with-us", "privacy-policy", "marketing-partners"}
FUNNEL_PAGES = {"thank-you", "call-thanks", "disqualified"}
FLOW_PREFIXES = {"form", "call"}


@dataclass(frozen=True)
class Page:
    kind: PageKind
    path: str
    service: ServiceConfig | None = None
    service_slug: str | None = None
    category: Category | None = None
    state_code: str | None = None
    state_name: str | None = None


def _state(index: CatalogIndex, segment: str | None) -> tuple[str, str] | None | Literal[False]:
    """(code, name) for a state segment, None when absent, False when it names no state."""
    if segment is None:
        return None
    for state in index.catalog.site.states:
        if state["value"].lower() == segment.lower():
            return state["value"], state["label"]
    return False


def resolve_page(index: CatalogIndex, path: str) -> Page:
    """Classify a URL path the way the site's router does."""
    segments = [s for s in path.strip("/").split("/") if s]
    normalized = "/" + "/".join(segments)
    if not segments:
        return Page("home", "/")
    head, rest = segments[0], segments[1:]
    if len(segments) == 1 and head in STATIC_PAGES:
        return Page("static", normalized)
    if len(segments) == 1 and head in FUNNEL_PAGES:
        return Page("funnel", normalized)
    if head == "category" and len(rest) == 1:
        category = index.categories.get(rest[0])
        return Page("category", normalized, category=category) if category else Page("not-found", normalized)

    vertical: str | None
    if head == "services" or head in FLOW_PREFIXES:
        vertical = None
    elif head in index.categories:
        vertical = head
    else:
        return Page("not-found", normalized)
    if len(rest) not in (1, 2):
        return Page("not-found", normalized)
    slug = rest[0]
    state = _state(index, rest[1] if len(rest) == 2 else None)
    if state is False:
        return Page("not-found", normalized)
    service = index.find(slug, vertical)
    kind: PageKind = "funnel" if head in FLOW_PREFIXES else "service"
    return Page(
        kind if service else "not-found",
        normalized,
        service=service,
        service_slug=slug,
        category=index.categories.get(vertical) if vertical else None,
        state_code=state[0] if state else None,
        state_name=state[1] if state else None,
    )


def api_reads(page: Page) -> list[str]:
    """The API reads the browser's app makes first on this page, so the HTML can start them early.

    Mirrors frontend/src/lib/api.ts: the catalogue on every page; a service page under its
    vertical reads /api/services/<vertical>/<slug>, the other service and flow pages /api/services/<slug>.
    Only services that exist: a preloaded 404 would log an error in the browser's console.
    """
    reads = ["/api/catalog"]
    if page.service is not None and page.service_slug is not None:
        head = page.path.split("/")[1]
        by_slug = head == "services" or head in FLOW_PREFIXES
        reads.append(f"/api/services/{page.service_slug}" if by_slug else f"/api/services/{head}/{page.service_slug}")
    return reads


def sitemap_paths(index: CatalogIndex) -> list[str]:
    """Every indexable page the site links to: categories, services, services in each state."""
    paths = ["/", "/about-us", "/partner-with-us", "/privacy-policy"]
    paths += [f"/category/{c.id}" for c in index.catalog.categories]
    states = [s["value"].lower() for s in index.catalog.site.states]
    for category in index.catalog.categories:
        for slug in category.services:
            for base in (f"/{category.id}/{slug}", f"/services/{slug}"):
                if base.startswith("/services/") and index.find(slug).vertical != category.id:
                    continue  # /services/debt-relief names one service; list it once
                paths.append(base)
                paths += [f"{base}/{code}" for code in states]
    # /services/<slug> and /<vertical>/<slug> coincide for the "services" category.
    return list(dict.fromkeys(paths))
