"""Every page's HTML carries its metadata and hero text before any script runs (spec section 2)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html import escape

import pytest

ORIGIN = "http://127.0.0.1:8000"


def head(html: str) -> dict[str, object]:
    def meta(attr: str, name: str) -> str | None:
        match = re.search(rf'<meta {attr}="{name}" content="([^"]*)"', html)
        return match.group(1) if match else None

    return {
        "title": re.findall(r"<title>(.*?)</title>", html),
        "description": meta("name", "description"),
        "keywords": meta("name", "keywords"),
        "og:title": meta("property", "og:title"),
        "og:description": meta("property", "og:description"),
        "canonical": re.search(r'<link rel="canonical" href="([^"]*)"', html).group(1),
        "h1": re.search(r"<h1>(.*?)</h1>", html).group(1),
        "json_ld": [json.loads(m) for m in re.findall(r'<script type="application/ld\+json">(.*?)</script>', html)],
    }


def types(tags) -> list[str]:
    return [item["@type"] for item in tags["json_ld"]]


def test_service_page_with_a_state(client):
    tags = head(client.get("/services/roofing/tx").text)
    title = "Get Free Roofing Quotes From Local Roofers in Texas"
    service = client.get("/api/services/roofing").json()
    assert service["title"] + " in Texas" == title
    assert tags["title"] == [f"{title} | ServiceMatch"]
    assert tags["og:title"] == f"{title} | ServiceMatch"
    assert tags["description"] == tags["og:description"] != "Default"
    assert tags["canonical"] == f"{ORIGIN}/services/roofing/tx"
    assert tags["h1"] == title
    assert types(tags) == ["Organization", "BreadcrumbList", "Service", "FAQPage"]
    faq = tags["json_ld"][3]
    assert len(faq["mainEntity"]) == len(service["faqs"])


def test_service_page_without_a_state(client):
    tags = head(client.get("/legal/auto-accident").text)
    service = client.get("/api/services/legal/auto-accident").json()
    assert tags["title"] == [f"{service['title']} | ServiceMatch"]
    assert tags["canonical"] == f"{ORIGIN}/legal/auto-accident"
    assert service["keywords"][0] in tags["keywords"]


def test_category_page_uses_the_category_title(client):
    tags = head(client.get("/category/insurance").text)
    category = next(c for c in client.get("/api/catalog").json()["categories"] if c["id"] == "insurance")
    assert tags["title"] == [f"{category['title']} | ServiceMatch"]
    assert types(tags) == ["Organization", "BreadcrumbList"]


def robots(html: str) -> str | None:
    match = re.search(r'<meta name="robots" content="([^"]*)"', html)
    return match.group(1) if match else None


def test_unknown_service_is_not_found_and_not_indexed(client):
    response = client.get("/services/pool-cleaning/ca")
    assert response.status_code == 404
    assert head(response.text)["title"] == ["Service Not Found | ServiceMatch"]
    assert robots(response.text) == "noindex"
    api = client.get("/api/page-meta", params={"path": "/services/pool-cleaning/ca"}).json()
    assert api["title"] == "Service Not Found | ServiceMatch"
    assert api["indexable"] is False


@pytest.mark.parametrize(
    ("path", "title", "indexed"),
    [
        ("/about-us", "About Us", True),
        ("/partner-with-us", "Partner With Us", True),
        ("/privacy-policy", "Privacy Policy", True),
        ("/terms", "Terms of Use", True),
        ("/thank-you", "Thank You", False),
        ("/disqualified", "We Can't Match You Right Now", False),
    ],
)
def test_site_pages_have_their_own_title_and_description(client, path, title, indexed):
    html = client.get(path).text
    tags = head(html)
    assert tags["title"] == [f"{escape(title)} | ServiceMatch"]
    assert tags["description"] and "{brand}" not in tags["description"]
    assert tags["description"] != head(client.get("/").text)["description"]
    assert (robots(html) is None) is indexed


@pytest.mark.parametrize("path", ["/", "/services/roofing", "/legal/auto-accident/tx", "/form/hvac", "/category/legal"])
def test_pages_people_search_for_are_indexable(client, path):
    assert robots(client.get(path).text) is None


def test_other_pages_fall_back(client):
    tags = head(client.get("/").text)
    assert tags["title"] == ["Find Trusted Local Service Professionals | ServiceMatch"]
    assert types(tags) == ["Organization"]


def test_brand_name_is_the_title_suffix(app, client):
    from servicematch.web.metadata import head_html, page_meta
    from servicematch.web.pages import resolve_page

    meta = page_meta(app.state.catalog, resolve_page(app.state.catalog, "/"), origin=ORIGIN, brand="LocalPros")
    assert "<title>Find Trusted Local Service Professionals | LocalPros</title>" in head_html(meta, "LocalPros")


def test_json_ld_cannot_close_its_script(app):
    from servicematch.web.metadata import PageMeta, head_html

    meta = PageMeta(title="t", description="d", keywords=[], canonical="c", heading="h", lead="l",
                    json_ld=[{"name": "</script><script>alert(1)</script>"}])
    assert "</script><script>" not in head_html(meta, "B")


def test_page_meta_api_matches_the_html(client):
    api = client.get("/api/page-meta", params={"path": "/legal/auto-accident/tx"}).json()
    tags = head(client.get("/legal/auto-accident/tx").text)
    assert [api["title"]] == tags["title"]
    assert api["canonical"] == tags["canonical"]
    assert api["found"] is True


def test_robots_points_at_the_sitemap(client):
    body = client.get("/robots.txt").text
    assert f"Sitemap: {ORIGIN}/sitemap.xml" in body
    assert "Disallow: /api/" in body


def test_sitemap_lists_every_service_in_every_state(client):
    root = ET.fromstring(client.get("/sitemap.xml").content)
    locs = {el.text for el in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}
    catalog = client.get("/api/catalog").json()
    for category in catalog["categories"]:
        assert f"{ORIGIN}/category/{category['id']}" in locs
        for slug in category["services"]:
            assert f"{ORIGIN}/{category['id']}/{slug}" in locs
            for state in catalog["site"]["states"]:
                assert f"{ORIGIN}/{category['id']}/{slug}/{state['value'].lower()}" in locs
    assert f"{ORIGIN}/services/roofing/tx" in locs
    assert f"{ORIGIN}/services/auto-accident/ny" in locs


def test_sitemap_lists_the_site_pages_but_no_funnel_or_console_page(client):
    root = ET.fromstring(client.get("/sitemap.xml").content)
    paths = {el.text.removeprefix(ORIGIN) for el in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}
    assert {"/", "/about-us", "/partner-with-us", "/privacy-policy", "/terms"} <= paths
    assert not any(p.startswith(("/form/", "/call/", "/admin", "/pro", "/buyer")) or p in ("/thank-you", "/disqualified") for p in paths)
