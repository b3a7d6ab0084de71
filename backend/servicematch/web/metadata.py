"""Per-path title, description, canonical link and structured data (spec section 2, Page metadata)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from typing import Any

from servicematch.catalog.loader import CatalogIndex

from .pages import Page

FALLBACK_TITLE = "Find Trusted Local Service Professionals"
FALLBACK_DESCRIPTION = (
    "Compare free quotes from up to 3 trusted local professionals for home services, legal "
    "help, insurance and financial needs. Free to use in all 50 states."
)
FALLBACK_KEYWORDS = ["local service professionals", "free quotes", "home services", "attorneys",
                     "insurance quotes", "financial services"]


@dataclass(frozen=True)
class PageMeta:
    title: str  # without the brand suffix
    description: str
    keywords: list[str]
    canonical: str
    heading: str
    lead: str
    json_ld: list[dict[str, Any]] = field(default_factory=list)
    status_code: int = 200
    indexable: bool = True

    def full_title(self, brand: str) -> str:
        return f"{self.title} | {brand}"


NOT_FOUND_TITLE = "Page Not Found"
NOT_FOUND_DESCRIPTION = "We could not find the page you are looking for."
SERVICE_NOT_FOUND_TITLE = "Service Not Found"
SERVICE_NOT_FOUND_DESCRIPTION = "We could not find the service you are looking for."


def page_meta(index: CatalogIndex, page: Page, *, origin: str, brand: str) -> PageMeta:
    """Metadata with the spec's precedence: service questionnaire, generic "Near Me", category, fallback."""
    origin = origin.rstrip("/")
    canonical = origin + page.path
    organization = {"@context": "https://schema.org", "@type": "Organization", "name": brand, "url": origin + "/"}
    crumbs = [("Home", "/")]
    suffix = f" in {page.state_name}" if page.state_name else ""
    title, description, keywords = FALLBACK_TITLE, FALLBACK_DESCRIPTION, FALLBACK_KEYWORDS
    extra: list[dict[str, Any]] = []

    if page.service is not None:
        service = page.service
        title, description, keywords = service.title + suffix, service.description, service.keywords
        category = index.categories[service.vertical]
        crumbs += [(category.name, f"/category/{category.id}"), (service.name, f"/{service.vertical}/{service.id}")]
        if page.state_code:
            crumbs.append((page.state_name or "", page.path))
        extra.append({
            "@context": "https://schema.org", "@type": "Service", "name": service.name,
            "serviceType": service.hiddenParams.category, "description": service.description,
            "provider": {"@type": "Organization", "name": brand, "url": origin + "/"},
            "areaServed": {"@type": "State", "name": page.state_name} if page.state_name
            else {"@type": "Country", "name": "United States"},
            "url": canonical,
        })
        extra.append({
            "@context": "https://schema.org", "@type": "FAQPage",
            "mainEntity": [
                {"@type": "Question", "name": faq.question,
                 "acceptedAnswer": {"@type": "Answer", "text": faq.answer}}
                for faq in service.faqs
            ],
        })
    elif page.service_slug is not None:
        # A service path naming no service (the spec's generic "Near Me" title would invite
        # search engines to index pages that only say "Service Not Found").
        title, description = SERVICE_NOT_FOUND_TITLE, SERVICE_NOT_FOUND_DESCRIPTION
    elif page.kind == "not-found":
        title, description = NOT_FOUND_TITLE, NOT_FOUND_DESCRIPTION
    elif page.route is not None and page.route.title:
        # Pages with a fixed title and description of their own in the route table.
        title = page.route.title
        description = (page.route.description or FALLBACK_DESCRIPTION).replace("{brand}", brand)
    elif page.category is not None:
        title, description, keywords = page.category.title, page.category.description, page.category.keywords
        crumbs.append((page.category.name, page.path))

    json_ld = [organization]
    if len(crumbs) > 1:
        json_ld.append({
            "@context": "https://schema.org", "@type": "BreadcrumbList",
            "itemListElement": [
                {"@type": "ListItem", "position": i, "name": name, "item": origin + href}
                for i, (name, href) in enumerate(crumbs, start=1)
            ],
        })
    if page.kind != "funnel":
        json_ld += extra
    return PageMeta(
        title=title, description=description, keywords=list(keywords), canonical=canonical,
        heading=title, lead=description, json_ld=json_ld,
        status_code=404 if page.kind == "not-found" else 200, indexable=page.indexable,
    )


def head_html(meta: PageMeta, brand: str) -> str:
    """The <head> tags for a page; JSON-LD is escaped so no text can close its script element."""
    full_title = escape(meta.full_title(brand))
    description = escape(meta.description)
    tags = [
        f"<title>{full_title}</title>",
        f'<meta name="description" content="{description}">',
        f'<meta name="keywords" content="{escape(", ".join(meta.keywords))}">',
        f'<meta property="og:title" content="{full_title}">',
        f'<meta property="og:description" content="{description}">',
        '<meta property="og:type" content="website">',
        f'<meta property="og:url" content="{escape(meta.canonical)}">',
        f'<link rel="canonical" href="{escape(meta.canonical)}">',
    ]
    if not meta.indexable:
        tags.append('<meta name="robots" content="noindex">')
    for item in meta.json_ld:
        data = json.dumps(item, separators=(",", ":")).replace("<", "\\u003c")
        tags.append(f'<script type="application/ld+json">{data}</script>')
    return "\n    ".join(tags)
