"""Pages rendered at build time are sent inside their HTML while they match the server's data."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest
from fastapi.testclient import TestClient

from servicematch.app import create_app
from servicematch.web.prerendered import page_file
from servicematch.web.site_data import SiteData

MARKUP = '<main class="rendered">Roofing, rendered</main>'


ENTRY = "assets/app-1234.js"


def write_prerendered(site, pages: dict[str, str], fingerprint: str, entry: str = ENTRY) -> None:
    vite = site / ".vite"
    vite.mkdir(exist_ok=True)
    (vite / "manifest.json").write_text(json.dumps({"index.html": {"file": ENTRY, "isEntry": True}}))
    folder = site / "prerender"
    for path, markup in pages.items():
        file = page_file(folder, path)
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(gzip.compress(markup.encode()))
    (folder / "manifest.json").write_text(json.dumps({"fingerprint": fingerprint, "entry": entry,
                                                      "pages": len(pages)}))


@pytest.fixture
def site(static_dir, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(static_dir, copy)
    return copy


@pytest.fixture
def serve(settings, site):
    apps = []

    def start(fingerprint: str | None = None, entry: str = ENTRY) -> TestClient:
        app = create_app(settings.model_copy(update={"static_dir": site}))
        apps.append(app)
        if fingerprint is not None:
            write_prerendered(site, {"/services/roofing/tx": MARKUP, "/thank-you": MARKUP}, fingerprint, entry)
        return TestClient(app)

    yield start
    for app in apps:
        app.state.lead_store.stop()
        app.state.engine.dispose()


def current_fingerprint(settings) -> str:
    from servicematch.catalog.loader import load_catalog

    return SiteData(load_catalog(settings.catalog_dir), settings).fingerprint()


def test_a_page_rendered_from_the_same_data_is_sent_for_hydration(serve, settings):
    html = serve(current_fingerprint(settings)).get("/services/roofing/tx").text
    assert f'<div id="root" data-prerendered="">{MARKUP}</div>' in html
    assert 'class="prerender-hero"' not in html


def test_pages_rendered_from_other_data_are_not_sent(serve):
    # A catalogue or brand changed since the build: the markup would not hydrate, so the app renders it.
    html = serve("built-from-something-else").get("/services/roofing/tx").text
    assert "data-prerendered" not in html
    assert MARKUP not in html
    assert 'class="prerender-hero"' in html


def test_pages_rendered_with_another_build_of_the_app_are_not_sent(serve, settings):
    # The browser bundle was rebuilt without rendering the pages again: its code may draw them differently.
    html = serve(current_fingerprint(settings), entry="assets/app-older.js").get("/services/roofing/tx").text
    assert MARKUP not in html
    assert 'class="prerender-hero"' in html


def test_without_a_prerender_the_page_keeps_its_heading(serve):
    html = serve().get("/services/roofing/tx").text
    assert "data-prerendered" not in html
    assert "<h1>Get Free Roofing Quotes From Local Roofers in Texas</h1>" in html


def test_pages_the_route_table_does_not_prerender_never_get_markup(serve, settings):
    # /thank-you depends on the visitor's earlier steps; even a stray file is not used.
    html = serve(current_fingerprint(settings)).get("/thank-you").text
    assert MARKUP not in html


def test_the_markup_files_are_not_served_as_files(serve, settings):
    client = serve(current_fingerprint(settings))
    assert client.get("/prerender/services/roofing/tx.html.gz").headers["content-type"].startswith("text/html")
    assert client.get("/prerender/manifest.json").status_code == 404


def test_the_fingerprint_changes_with_the_brand_and_the_year(settings):
    from servicematch.catalog.loader import load_catalog

    index = load_catalog(settings.catalog_dir)
    base = SiteData(index, settings)
    assert base.fingerprint(2026) == base.fingerprint(2026)
    assert base.fingerprint(2026) != base.fingerprint(2027)
    assert SiteData(index, settings.model_copy(update={"brand_name": "LocalPros"})).fingerprint(2026) != \
        base.fingerprint(2026)
    # The origin names the server's own address (a port in tests), which no page draws.
    assert SiteData(index, settings.model_copy(update={"site_origin": "https://x.example"})).fingerprint(2026) == \
        base.fingerprint(2026)


def test_the_export_lists_each_page_with_the_data_it_reads(settings):
    from servicematch.catalog.loader import load_catalog

    export = SiteData(load_catalog(settings.catalog_dir), settings).export()
    pages = {page["path"]: page["reads"] for page in export["pages"]}
    assert pages["/legal/auto-accident/tx"] == ["/api/catalog", "/api/services/legal/auto-accident"]
    assert pages["/"] == ["/api/catalog"]
    assert "/thank-you" not in pages and "/marketing-partners" not in pages
    assert all(read in export["data"] and export["data"][read] for reads in pages.values() for read in reads)



def test_every_unknown_url_gets_the_error_screen_rendered_at_build_time(serve, settings, site):
    client = serve()
    screen = '<main class="error-screen">Unexpected Application Error! 404 Not Found</main>'
    write_prerendered(site, {"/404": screen, "/services/roofing/tx": MARKUP}, current_fingerprint(settings))
    for path in ("/no/such/page/here", "/missing-page"):
        response = client.get(path)
        assert response.status_code == 404
        assert f'<div id="root" data-prerendered="">{screen}</div>' in response.text
    # A path a route matches keeps its own page ("Service Not Found" is the service screen's).
    assert screen not in client.get("/services/not-a-service").text


def test_the_export_renders_the_error_screen_once(settings):
    from servicematch.catalog.loader import load_catalog

    export = SiteData(load_catalog(settings.catalog_dir), settings).export()
    unmatched = [page for page in export["pages"] if page.get("unmatched")]
    assert unmatched == [{"path": "/404", "reads": ["/api/catalog"], "unmatched": True}]
